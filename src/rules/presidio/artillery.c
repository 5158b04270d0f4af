/* Presidio's artillery (Section 9) and its list (Section 10): the hit
 * number by fire type, scatter and its direction, mishaps, damage against
 * a target's strength, canister as burst dice, radius hits, reloading with
 * missing crew. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include "../../core/internal.h"
#include <fray/presidio.h>
#include "terms.h"

FRAY_API const char *const fray_presidio_ammo_names[5] = {"shot", "shell", "canister", "double-canister",
						 "buckshot"};
FRAY_API const char *const fray_presidio_fire_type_names[4] = {"direct", "indirect", "directed", "blind"};
FRAY_API const char *const fray_presidio_posture_names[4] = {"mounted", "standing", "kneeling", "prone"};

#define SHOT FRAY_PRESIDIO_SHOT
#define SHELL FRAY_PRESIDIO_SHELL
#define CAN FRAY_PRESIDIO_CANISTER
#define DCAN FRAY_PRESIDIO_DOUBLE_CANISTER
#define BUCK FRAY_PRESIDIO_BUCKSHOT
#define PIS FRAY_PRESIDIO_PISTOL
#define CAR FRAY_PRESIDIO_CARBINE
#define MUS FRAY_PRESIDIO_MUSKET
#define RIF FRAY_PRESIDIO_RIFLE
#define ART FRAY_PRESIDIO_ARTILLERY

/* SECTION 10, Artillery: piece (body), ammunition, Dir/Ind, Dam, Burst,
 * Radius, Reload, Range. */
FRAY_API const fray_presidio_gun fray_presidio_guns[] = {
	{"1# swivel, smoothbore", 1, SHOT, true, false, 6, 1, 0, 4, MUS, false, false},
	{"1# swivel, smoothbore", 1, BUCK, true, false, 4, 2, 0, 4, PIS, false, false},
	{"2# swivel, smoothbore", 2, SHOT, true, false, 7, 1, 0, 4, MUS, false, false},
	{"2# swivel, smoothbore", 2, CAN, true, false, 4, 4, 0, 4, PIS, false, false},
	{"3# cannon, smoothbore", 3, SHOT, true, true, 8, 1, 0, 4, RIF, false, false},
	{"3# cannon, smoothbore", 3, CAN, true, false, 4, 6, 0, 4, PIS, false, false},
	{"4# cannon", 3, SHOT, true, false, 9, 1, 0, 4, RIF, false, false},
	{"4# cannon", 3, CAN, true, false, 4, 6, 0, 4, PIS, false, false},
	{"6# cannon, smoothbore", 4, SHOT, true, true, 10, 1, 0, 4, ART, false, false},
	{"6# cannon, smoothbore", 4, SHELL, false, true, 8, 1, 1, 4, ART, false, false},
	{"6# cannon, smoothbore", 4, CAN, true, false, 4, 8, 0, 4, PIS, false, false},
	{"9# cannon, smoothbore", 4, SHOT, true, true, 11, 1, 0, 4, ART, false, false},
	{"9# cannon, smoothbore", 4, SHELL, false, true, 9, 1, 1.5, 4, ART, false, false},
	{"9# cannon, smoothbore", 4, CAN, true, false, 4, 9, 0, 4, PIS, false, false},
	{"12# cannon, smoothbore", 5, SHOT, true, true, 12, 1, 0, 4, ART, false, false},
	{"12# cannon, smoothbore", 5, SHELL, false, true, 10, 1, 2, 4, ART, false, false},
	{"12# cannon, smoothbore", 5, CAN, true, false, 5, 10, 0, 4, PIS, false, false},
	{"12# cannon, smoothbore", 5, DCAN, true, false, 5, 15, 0, 6, PIS, false, false},
	{"12# cannon, rifled", 5, SHOT, true, false, 14, 1, 0, 4, ART, true, false},
	{"12# cannon, rifled", 5, CAN, true, false, 5, 8, 0, 4, PIS, true, false},
	{"12# cannon, rifled", 5, DCAN, true, false, 5, 12, 0, 6, PIS, true, false},
	{"24# cannon, smoothbore", 6, SHOT, true, true, 18, 1, 0, 4, ART, false, false},
	{"24# cannon, smoothbore", 6, SHELL, false, true, 12, 1, 3, 4, ART, false, false},
	{"24# cannon, smoothbore", 6, CAN, true, false, 5, 16, 0, 4, PIS, false, false},
	{"24# cannon, smoothbore", 6, DCAN, true, false, 5, 24, 0, 6, PIS, false, false},
	{"24# cannon, rifled", 6, SHOT, true, false, 16, 1, 0, 4, ART, true, false},
	{"24# cannon, rifled", 6, CAN, true, false, 6, 12, 0, 4, PIS, true, false},
	{"32# cannon, smoothbore", 7, SHOT, true, true, 20, 1, 0, 4, ART, false, false},
	{"32# cannon, smoothbore", 7, SHELL, false, true, 16, 1, 4, 4, ART, false, false},
	{"32# cannon, smoothbore", 7, CAN, true, false, 5, 20, 0, 4, PIS, false, false},
	{"32# cannon, smoothbore", 7, DCAN, true, false, 5, 30, 0, 6, PIS, false, false},
	{"32# cannon, rifled", 7, SHOT, true, false, 24, 1, 0, 4, ART, true, false},
	{"32# cannon, rifled", 7, CAN, true, false, 6, 16, 0, 4, PIS, true, false},
	{"6# mortar", 7, SHELL, false, true, 8, 1, 2, 4, CAR, false, true},
	{"12# mortar", 8, SHELL, false, true, 10, 1, 3, 4, CAR, false, true},
	{"24# mortar", 9, SHELL, false, true, 12, 1, 4, 4, MUS, false, true},
	{"32+# mortar", 10, SHELL, false, true, 16, 1, 5, 4, RIF, false, true},
};
FRAY_API const size_t fray_presidio_nguns = sizeof fray_presidio_guns / sizeof fray_presidio_guns[0];

/* Target Strengths. */
FRAY_API const fray_presidio_structure fray_presidio_structures[] = {
	{"framed house wall", 2}, {"wood door", 3}, {"coyote fence", 3}, {"wagon", 4}, {"cart", 4},
	{"adobe wall (12\")", 4}, {"timber gate", 5}, {"wood bridge", 5}, {"log house", 6},
	{"palisade", 6}, {"iron-strapped timber gate", 7}, {"wood and iron bridge", 7},
	{"timber wall", 7}, {"blockhouse wall", 8}, {"stone and timber wall (1')", 9},
	{"stone wall (1')", 10}, {"stone bridge", 12}, {"timber and earth fortifications", 16},
	{"stone and earth fortifications", 20},
};
FRAY_API const size_t fray_presidio_nstructures = sizeof fray_presidio_structures / sizeof fray_presidio_structures[0];

static void fold(const char *s, char *dst, size_t cap)
{
	size_t n = 0;
	for (; *s && n + 1 < cap; s++)
		if (isalnum((unsigned char)*s) || *s == '#' || *s == '+')
			dst[n++] = (char)tolower((unsigned char)*s);
	dst[n] = '\0';
}

FRAY_API const fray_presidio_gun *fray_presidio_gun_find(const char *piece, fray_presidio_ammo ammo)
{
	char want[64], have[64];
	fold(piece, want, sizeof want);
	for (size_t i = 0; i < fray_presidio_nguns; i++) {
		fold(fray_presidio_guns[i].piece, have, sizeof have);
		if (strcmp(want, have) == 0 && fray_presidio_guns[i].ammo == ammo)
			return &fray_presidio_guns[i];
	}
	return NULL;
}

FRAY_API const char *fray_presidio_fire_refused(const fray_presidio_gun *g, fray_presidio_fire_type t)
{
	if (t == FRAY_PRESIDIO_DIRECT)
		return g->direct ? NULL : "its row in the list says Ind: it is never fired direct";
	return g->indirect ? NULL : "its row in the list says Dir: it is fired direct only "
				    "(indirect, directed and blind fire are lobbed)";
}

static bool is_canister(const fray_presidio_gun *g)
{
	return g->ammo == FRAY_PRESIDIO_CANISTER || g->ammo == FRAY_PRESIDIO_DOUBLE_CANISTER ||
	       g->ammo == FRAY_PRESIDIO_BUCKSHOT;
}

/* Required Number (ruling R26: the list stands, the "10" of the Indirect
 * Fire paragraph is superseded): direct rifled 9+, direct smoothbore 10+, indirect 11+,
 * directed 12, blind 12 on 2D6; less gunnery skill (not for canister,
 * directed or blind fire), plus cover and the small-arms modifiers; fire
 * correction -1 for each shot missed after the first correction. */
static int required_terms(const fray_presidio_artillery_in *in, term *t)
{
	static const int base[4] = {10, 11, 12, 12};
	static const char *const base_what[4] = {"direct fire, smoothbore: 10+", "indirect fire: 11+ (ruling R26)",
						 "directed fire: 12", "blind fire: 12 on 2D6"};
	static const char *const band_what[3] = {"close range", "medium range", "long range"};
	static const char *const rq = "Presidio Section 9, Required Number";
	int n = 0;
	if (in->type == FRAY_PRESIDIO_DIRECT && in->gun->rifled)
		add_base(t, &n, 9, rq, "direct fire, rifled: 9+");
	else
		add_base(t, &n, base[in->type], rq, base_what[in->type]);
	bool skill = !is_canister(in->gun) && in->type <= FRAY_PRESIDIO_INDIRECT;
	add_term(t, &n, skill ? -in->skill : 0, rq, "gunnery skill");
	add_term(t, &n, fray_presidio_band_dm(in->band), "Presidio Section 4, Range; ruling R12", band_what[in->band]);
	add_term(t, &n, in->cover_dm, rq, "the target's cover");
	add_term(t, &n, in->other_dm, rq, "other DMs");
	if (in->corrections > 1 && in->type != FRAY_PRESIDIO_BLIND)
		add_term(t, &n, -(in->corrections - 1), "Presidio Section 9, Fire Correction",
			 "fire correction: -1 a shot after the first correction");
	return n;
}

FRAY_API int fray_presidio_artillery_required(const fray_presidio_artillery_in *in)
{
	term t[MAX_TERMS];
	return sum_terms(t, required_terms(in, t));
}

/* Scatter Multipliers: direct x1, indirect x2, directed x2, blind x3; the
 * first correction makes x2 into x1; direct rifled shot does not scatter. */
static int scatter_multiplier(const fray_presidio_artillery_in *in)
{
	if (in->type == FRAY_PRESIDIO_DIRECT)
		return in->gun->rifled ? 0 : 1;
	if (in->type == FRAY_PRESIDIO_BLIND)
		return 3;
	return in->corrections >= 1 ? 1 : 2;
}

/* Artillery Mishaps: a 1 (snake eyes blind) is a possible mishap, a 1D6
 * on the table. Its 1-4 are a piece that did not fire this shot (it
 * burst, its charge went off early, its fuse failed, it loads again next
 * action): returns true. On 5-6, "no problem", the shot goes as rolled:
 * a 1 is less than the required number, so it misses and scatters like
 * any miss (Scatter Distance) (docs/presidio.md). */
static bool mishap(fray_roller *r, fray_presidio_artillery_out *out)
{
	out->mishap_kind = fray_die(r, 6, "mishap");
	out->mishap = out->mishap_kind <= 4;
	static const char *const kinds[6] = {
		"the piece explodes: gun and crew incapacitated; no shot",
		"the charge explodes early: 1 crew member incapacitated; no shot",
		"fuse problem: 1d6 5+ each action to fix it; no shot",
		"slow loading: try to fire again next action; no shot",
		"no problem: the shot goes as rolled", "no problem: the shot goes as rolled"};
	fray_emit_result(r, "mishap", out->mishap_kind, kinds[out->mishap_kind - 1],
			 "Presidio Section 9, Artillery Mishaps");
	return out->mishap;
}

/* Canister Hits: a volley of the burst's dice. Artillery Mishaps reads "a
 * 1 on 1D12" as the piece's die: one of the burst's dice (of its own
 * colour, as blind fire's two pairs) is the piece's, its 1 a possible
 * mishap once a shot, as for any load; the others are balls only
 * (docs/presidio.md). Returns the hits; none on a mishap. */
static int canister_hits(fray_roller *r, const fray_presidio_artillery_in *in, fray_presidio_artillery_out *out,
			 int need)
{
	const fray_presidio_gun *g = in->gun;
	if (g->burst < 1)
		return 0;
	out->roll = fray_die(r, 12, "canister: the piece's die (a 1: a possible mishap)");
	if (out->roll == 1 && mishap(r, out))
		return 0;
	int hits = out->required <= 12 && out->roll >= need;
	if (out->required <= 12 && g->burst > 1)
		hits += fray_successes(r, g->burst - 1, 12, need, "canister, the other dice");
	return hits;
}

FRAY_API void fray_presidio_artillery(fray_roller *r, const fray_presidio_artillery_in *in,
				      fray_presidio_artillery_out *out)
{
	const fray_presidio_gun *g = in->gun;
	*out = (fray_presidio_artillery_out){0};
	out->required = fray_presidio_artillery_required(in);
	if (fray_presidio_fire_refused(g, in->type)) {
		/* not a way this load is fired: no shot (the front end refuses it) */
		fray_emit_note(r, fray_presidio_fire_refused(g, in->type), "Presidio Section 10");
		return;
	}
	{
		term t[MAX_TERMS];
		tell_terms(r, t, required_terms(in, t), "required number", "Presidio Section 9, Required Number");
	}
	/* Reloading: 2 actions more for each missing crew member */
	out->reload = g->reload + 2 * in->crew_missing;
	int need = out->required < 1 ? 1 : out->required;
	if (is_canister(g)) {
		/* Canister: a volley of the burst's dice */
		if (fray_roller_narrating(r)) {
			char text[96];
			snprintf(text, sizeof text, "%s: %d dice at %d+", fray_presidio_ammo_names[g->ammo],
				 g->burst, out->required);
			fray_emit_note(r, text, "Presidio Section 9, Canister Hits");
		}
		out->hits = canister_hits(r, in, out, need);
		if (out->mishap)
			return;
		out->hit = out->hits > 0;
		if (in->friendly_figures > 0 && out->hits) {
			/* each hit on a figure drawn from the cone, friends included */
			unsigned left[2] = {(unsigned)(in->enemy_figures > 0 ? in->enemy_figures : 0),
					    (unsigned)in->friendly_figures};
			int on[2] = {0, 0};
			for (int h = 0; h < out->hits && left[0] + left[1] > 0; h++) {
				size_t side = fray_draw(r, left, 2, "whose figure the canister hits");
				left[side]--;
				on[side]++;
			}
			out->hits = on[0];
			out->friendly_hits = on[1];
			int fwn = fray_presidio_wound_number(g->damage - in->friendly_armor);
			if (out->friendly_hits && fwn)
				out->friendly_casualties = fray_successes(r, out->friendly_hits, 12, fwn,
									  "to wound, friendly figures");
		}
		int wn = fray_presidio_wound_number(g->damage - in->strength);
		if (out->hits && wn)
			out->casualties = fray_successes(r, out->hits, 12, wn, "to wound");
		return;
	}
	bool blind = in->type == FRAY_PRESIDIO_BLIND;
	if (fray_roller_narrating(r)) {
		char text[96];
		snprintf(text, sizeof text, "%s fire: %d+ on %s", fray_presidio_fire_type_names[in->type],
			 out->required, blind ? "2d6" : "d12");
		fray_emit_note(r, text, "Presidio Section 9, Required Number");
	}
	int a = fray_die(r, blind ? 6 : 12, "to hit"), b = blind ? fray_die(r, 6, "to hit") : 0;
	out->roll = a + b;
	/* Mishaps: a 1 on the d12, snake eyes on 2D6: a possible mishap */
	if ((blind ? a == 1 && b == 1 : a == 1) && mishap(r, out))
		return;
	out->hit = out->required <= 12 && out->roll >= need;
	if (!out->hit) {
		int mult = scatter_multiplier(in);
		out->scatter = (out->required - out->roll) * mult;
		if (mult && in->type == FRAY_PRESIDIO_BLIND) {
			/* ruling R26: a second 2D6, read as a clock face from the
			 * firer (a 2D6 never shows 1, which the text accepts) */
			out->direction = fray_die(r, 6, "scatter direction 2d6") +
					 fray_die(r, 6, "scatter direction 2d6");
			if (fray_roller_narrating(r)) {
				char text[160];
				snprintf(text, sizeof text, "missed by %d - %d = %d, x%d: lands %d\" away at %d o'clock "
					 "from the aim point, seen from the gun", out->required, out->roll,
					 out->required - out->roll, mult, out->scatter, out->direction);
				fray_emit_result(r, "scatter", out->scatter, text, "Presidio Section 9, ruling R26");
			}
		} else if (mult) {
			out->direction = fray_die(r, 6, "scatter direction");
			static const char *const dirs[6] = {"N", "NE", "SE", "S", "SW", "NW"};
			if (fray_roller_narrating(r)) {
				char text[128];
				snprintf(text, sizeof text, "missed by %d - %d = %d, x%d: lands %d\" %s of the target",
					 out->required, out->roll, out->required - out->roll, mult, out->scatter,
					 dirs[out->direction - 1]);
				fray_emit_result(r, "scatter", out->scatter, text, "Presidio Section 9, Scatter");
			}
		} else {
			fray_emit_result(r, "miss", 0, "missed: direct rifled shot does not scatter",
					 "Presidio Section 9, Scatter");
		}
		return;
	}
	/* Damage: the damage chart for damage - strength; a 1 is a glancing
	 * shot; below -3 nothing */
	int wn = fray_presidio_wound_number(g->damage - in->strength);
	out->destroyed = wn && fray_successes(r, 1, 12, wn, "damage") == 1;
	if (fray_roller_narrating(r)) {
		char text[96];
		snprintf(text, sizeof text, "a hit: %s", out->destroyed ? "the target is destroyed"
				      : "not destroyed: weakened, -2 strength at this spot");
		fray_emit_result(r, "damage", out->destroyed, text, "Presidio Section 9, Damage");
	}
}

FRAY_API void fray_presidio_artillery_procedure(fray_roller *r, fray_policy *p, const void *in,
						int64_t *out)
{
	(void)p;
	fray_presidio_artillery_out o;
	fray_presidio_artillery(r, in, &o);
	out[0] = o.mishap ? 2 : o.hit;
	out[1] = is_canister(((const fray_presidio_artillery_in *)in)->gun) ? o.casualties : o.destroyed;
	out[2] = o.scatter;
	out[3] = o.mishap_kind;
	out[4] = o.friendly_casualties;
}

/* Radius Hits: lethal cone automatic; outside it, hit on 1d6 at the
 * posture's number (mounted 3+, standing 4+, kneeling 5+, prone or
 * partial cover 6). "Then roll damage" (the solid-shot paragraph): when
 * the load's damage is given, each figure hit outside the cone rolls the
 * damage chart against its armor; the cone's figures are "automatically
 * incapacitated" and roll nothing. Without a damage, casualties = hits. */
FRAY_API void fray_presidio_radius_procedure(fray_roller *r, fray_policy *p, const void *in,
					     int64_t *out)
{
	(void)p;
	const int *v = in;
	static const int need[4] = {3, 4, 5, 6};
	static const char *const what[4] = {"mounted: 3+", "standing: 4+", "kneeling: 5+",
					    "prone or in partial cover: 6"};
	term t[1];
	int n = 0;
	add_base(t, &n, need[v[2]], "Presidio Section 9, Radius Hits", what[v[2]]);
	tell_terms(r, t, n, "needed on each figure's 1D6", "Presidio Section 9, Radius Hits");
	int outside = fray_successes(r, v[1], 6, sum_terms(t, n), "radius hits");
	out[0] = v[0] + outside;
	out[1] = out[0];
	if (v[3] > 0) {
		int wn = outside ? tell_damage_chart(r, v[3], "the load's damage", v[4], "the figures' armor") : 0;
		out[1] = v[0] + (wn ? fray_successes(r, outside, 12, wn, "damage chart") : 0);
	}
}

/* Bouncing (Section 9): a smoothbore's solid shot that lands short bounces
 * on, 1D6 + 6" to the next landing and 1D6" to the one after. */
FRAY_API void fray_presidio_bounce_procedure(fray_roller *r, fray_policy *p, const void *in, int64_t *out)
{
	(void)p;
	(void)in;
	out[0] = fray_die(r, 6, "first bounce 1d6 + 6\"") + 6;
	out[1] = fray_die(r, 6, "second bounce 1d6\"");
}

FRAY_API void fray_presidio_fuse_repair_procedure(fray_roller *r, fray_policy *p, const void *in,
						  int64_t *out)
{
	(void)p;
	int actions = *(const int *)in;
	term t[1];
	int n = 0;
	add_base(t, &n, 5, "Presidio Section 9, Artillery Mishaps", "a fuse problem: 1D6 (5+) an action");
	tell_terms(r, t, n, "needed on the fuse 1D6", "Presidio Section 9, Artillery Mishaps");
	int need = sum_terms(t, n);
	out[0] = 0;
	for (int a = 1; a <= actions && !fray_roller_stopped(r); a++)
		if (fray_die(r, 6, "fixing the fuse, 5+") >= need) {
			out[0] = a;
			break;
		}
	if (fray_roller_narrating(r)) {
		char text[64];
		if (out[0])
			snprintf(text, sizeof text, "fixed on action %lld", (long long)out[0]);
		else
			snprintf(text, sizeof text, "not fixed in %d action%s", actions, actions == 1 ? "" : "s");
		fray_emit_result(r, "fuse problem", out[0], text, "Presidio Section 9, Artillery Mishaps");
	}
}

/* Artillery Movement (Section 10; Section 9 calls it Section 11): hand (crew of four, or a one-horse
 * limber), 2-horse and 4-horse limber; -1 where the table has "--". */
FRAY_API const fray_presidio_gun_move fray_presidio_gun_moves[] = {
	{"1# swivel", -1, -1, -1}, {"2# swivel", -1, -1, -1}, {"3# cannon", 6, 9, 12},
	{"4# cannon", 5, 9, 12},   {"6# cannon", 4, 8, 11},   {"9# cannon", 3, 7, 11},
	{"12# cannon", 2, 6, 10},  {"24# cannon", 1, 5, 8},   {"32# cannon", 0, 3, 6},
	{"6# mortar", -1, -1, -1}, {"12# mortar", -1, -1, -1},
};
FRAY_API const size_t fray_presidio_ngun_moves = sizeof fray_presidio_gun_moves / sizeof fray_presidio_gun_moves[0];

/* The row for a piece: "12# cannon", or any name that starts so ("12#
 * cannon, rifled"), as the movement table does not tell the barrels apart. */
FRAY_API const fray_presidio_gun_move *fray_presidio_gun_move_find(const char *piece)
{
	char want[64], have[64];
	fold(piece, want, sizeof want);
	for (size_t i = 0; i < fray_presidio_ngun_moves; i++) {
		fold(fray_presidio_gun_moves[i].piece, have, sizeof have);
		if (strncmp(want, have, strlen(have)) == 0) /* folded: "12#cannon" */
			return &fray_presidio_gun_moves[i];
	}
	return NULL;
}

/* Gun Movement (Section 9): the rate less 2" for each missing crewman
 * (hand movement: the crew of four pulls the gun) is added to the 1D6. */
static int gun_move_terms(const fray_presidio_gun_move_in *in, term *t)
{
	int n = 0;
	add_base(t, &n, in->rate, "Presidio Section 10, Artillery Movement",
		 in->hauled_by_hand ? "the piece's hand movement" : "the piece's limbered movement");
	add_term(t, &n, in->hauled_by_hand ? -2 * in->missing_crew : 0, "Presidio Section 9, Gun Movement",
		 "missing crewmen (2\" each)");
	return n;
}

/* The die and its terms, never below 0; doubled when running (as for
 * troops, Section 3: the whole distance); "Garrison mounted guns have 1/2
 * hand movement" (Section 10, Artillery Movement): the whole distance
 * halved, a half inch kept (docs/presidio.md). */
FRAY_API double fray_presidio_gun_move_distance(const fray_presidio_gun_move_in *in, int die)
{
	term t[MAX_TERMS];
	double d = die + sum_terms(t, gun_move_terms(in, t));
	if (d < 0)
		d = 0;
	if (in->running)
		d *= 2;
	return in->garrison ? d / 2 : d;
}

FRAY_API void fray_presidio_gun_move_procedure(fray_roller *r, fray_policy *p, const void *input, int64_t *out)
{
	(void)p;
	const fray_presidio_gun_move_in *in = input;
	term t[MAX_TERMS];
	tell_terms(r, t, gun_move_terms(in, t), "added to the gun movement 1D6", "Presidio Section 9, Gun Movement");
	int die = fray_die(r, 6, "gun movement 1d6");
	if (in->running && fray_roller_narrating(r))
		fray_emit_note(r, "running: x2", "Presidio Section 9, Gun Movement");
	if (in->garrison && fray_roller_narrating(r))
		fray_emit_note(r, "a garrison-mounted gun: half the hand movement",
			       "Presidio Section 10, Artillery Movement");
	double d = fray_presidio_gun_move_distance(in, die);
	out[0] = (int64_t)(d * 2 + 0.5); /* half inches */
	if (fray_roller_narrating(r)) {
		char text[64];
		snprintf(text, sizeof text, "%g\"", (double)out[0] / 2);
		fray_emit_result(r, "the gun moves up to", out[0], text, "Presidio Section 9, Gun Movement");
	}
}

/* Radius Hits on vehicles, guns, works and buildings (Section 9): a direct
 * hit does full damage, the lethal cone 3/4, the rest of the radius 1/2.
 * The text does not say how to round: fray rounds down (the target's
 * favour; docs/presidio.md). */
FRAY_API int fray_presidio_blast_damage(int damage, fray_presidio_blast_zone zone)
{
	static const int num[3] = {4, 3, 2};
	return damage * num[zone] / 4;
}

FRAY_API void fray_presidio_blast_procedure(fray_roller *r, fray_policy *p, const void *input, int64_t *out)
{
	(void)p;
	const fray_presidio_blast_in *in = input;
	static const char *const rh = "Presidio Section 9, Radius Hits";
	static const char *const zone_what[3] = {"", "the lethal cone: 3/4 (rounded down)",
						 "the radius: 1/2 (rounded down)"};
	term t[3];
	int n = 0;
	if (in->full_damage > 0) {
		/* the shell's damage, then the zone's fraction as its term */
		add_base(t, &n, in->full_damage, "Presidio Section 10, Artillery", "the shell's damage");
		add_term(t, &n, in->damage - in->full_damage, rh, zone_what[in->zone]);
	} else {
		add_base(t, &n, in->damage, rh, "the damage");
	}
	add_base(t, &n, -in->strength, "Presidio Section 9, Damage", "the target's strength");
	int wn = tell_chart(r, t, n, "damage - strength (the differential)");
	out[0] = wn && fray_successes(r, 1, 12, wn, "damage") == 1;
}
