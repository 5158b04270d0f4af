/* Presidio's dice procedures: shooting with wounding and casualties
 * (Sections 4 and 6, rulings R11-R15), morale (Section 7, R16), rally and
 * initiative (Section 2, R17). */
#include <stdio.h>
#include <string.h>
#include "../../core/internal.h"
#include <fray/presidio.h>
#include "presidio_internal.h"
#include "terms.h"

FRAY_API const char *const fray_presidio_fire_mode_names[5] = {"volley", "independent", "moving",
						      "opportunity", "aimed"};
FRAY_API const char *const fray_presidio_level_names[FRAY_PRESIDIO_NLEVELS] = {
	"elite", "veteran", "average", "inexperienced", "super-elite"};
FRAY_API const char *const fray_presidio_situation_names[4] = {"open", "cover", "line", "charging"};

static bool hunkered(const fray_presidio_shoot_in *in)
{
	return in->target_standing == FRAY_PRESIDIO_HUNKERED;
}

/* R11's terms: hit# + range DM - ranged skill + cover DMs + other DMs.
 * Fire while moving needs an unmodified 12 whatever the skill, range or
 * cover, but full cover still counts (Section 4, Fire while Moving).
 * Returns how many; none when the target cannot be hit at all (complete
 * cover, or hunkered down: Special Cover, Hunker Down). */
static int hit_terms(const fray_presidio_shoot_in *in, term *t)
{
	static const char *const s4 = "Presidio Section 4";
	int n = 0;
	if (in->cover == FRAY_PRESIDIO_COMPLETE || hunkered(in))
		return 0;
	if (in->mode == FRAY_PRESIDIO_MOVING) {
		add_base(t, &n, 12, "Presidio Section 4, Fire while Moving", "fire while moving: an unmodified 12");
		if (in->cover == FRAY_PRESIDIO_FULL)
			add_term(t, &n, 4, "Presidio Section 4, Defensive Cover", "full cover (still counts moving)");
		return n;
	}
	static const char *const band_what[3] = {"close range", "medium range", "long range"};
	static const char *const cover_what[6] = {"", "incidental cover", "partial cover", "heavy cover",
						  "full cover", ""};
	add_base(t, &n, in->weapon->hit, "Presidio Section 10, Hit#", "the weapon's Hit#");
	add_term(t, &n, fray_presidio_band_dm(in->band), "Presidio Section 4, Range; ruling R12", band_what[in->band]);
	add_term(t, &n, -in->skill, "Presidio Section 4, ruling R11", "the firers' ranged skill");
	add_term(t, &n, fray_presidio_cover_dm(in->cover), "Presidio Section 4, Defensive Cover", cover_what[in->cover]);
	if (in->incidental && in->cover != FRAY_PRESIDIO_INCIDENTAL)
		add_term(t, &n, 1, "Presidio Section 4, Defensive Cover", "incidental cover on top (cumulative)");
	add_term(t, &n, in->skirmish_target ? 2 : 0, "Presidio Section 4, Special Cover", "skirmishers or crews");
	add_term(t, &n, in->mounted_target ? 1 : 0, "Presidio Section 4, Other Modifiers", "a mounted target");
	add_term(t, &n, in->evading ? 1 : 0, "Presidio Section 4, Special Cover", "the target evades");
	add_term(t, &n, in->taking_cover ? 2 : 0, "Presidio Section 4, Special Cover", "the target takes cover");
	add_term(t, &n, in->target_reloading_in_cover ? 1 : 0, "Presidio Section 4, Reloading While Taking "
		 "Additional Cover", "the target reloads in cover (+1 cover)");
	/* "the defender receives a +1 when firing back" from partial, heavy
	 * or full cover: read with the grammar of the firer's "+2 to hit",
	 * a DM added to the hit number (docs/presidio.md) */
	add_term(t, &n, in->firer_cover >= FRAY_PRESIDIO_PARTIAL && in->firer_cover <= FRAY_PRESIDIO_FULL ? 1 : 0,
		 "Presidio Section 4, Defensive Cover", "firing back from cover");
	add_term(t, &n, in->mode == FRAY_PRESIDIO_OPPORTUNITY ? 2 : 0, "Presidio Section 4, Opportunity Fire",
		 "opportunity fire");
	add_term(t, &n, in->mode == FRAY_PRESIDIO_AIMED ? -2 : 0, "Presidio Section 4, Other Modifiers",
		 "aim and shoot");
	add_term(t, &n, in->other_dm, s4, "other DMs");
	return n;
}

FRAY_API int fray_presidio_hit_number(const fray_presidio_shoot_in *in)
{
	term t[MAX_TERMS];
	int n = hit_terms(in, t);
	return n ? sum_terms(t, n) : 99;
}

FRAY_API const char *fray_presidio_volley_refused(const fray_presidio_shoot_in *in)
{
	if (in->mode != FRAY_PRESIDIO_VOLLEY)
		return NULL;
	/* switching to a volley "must take all the reloading time" */
	if (in->reload_left > 0)
		return "a volley needs the unit fully loaded (Presidio Section 4, Volley Fire and Reloading; ruling R27)";
	if (!in->volley_ready)
		return "a volley needs a unit fully loaded, in line formation at most two deep, not "
		       "skirmishers and not moving (Volley Fire, ruling R27)";
	/* a disordered or retreated unit is in a clump (ruling R44); a unit in
	 * line that fell back keeps the fell-back marker for the turn but is
	 * set down disordered (ruling R49), and "Line units must reform before
	 * moving or volleying" (Section 3, Disorder). volley_ready says it is
	 * in line; its independent fire stays (Section 3, Disorder). */
	if (!frayi_presidio_still_in_line(in->firer_standing))
		return in->firer_standing == FRAY_PRESIDIO_DISORDERED
			       ? "a disordered unit is not in line formation: no volley (Volley Fire, ruling R27)"
		       : in->firer_standing == FRAY_PRESIDIO_FELL_BACK
			       ? "a line unit that fell back is set down disordered: no volley this turn, independent "
				 "fire only (Presidio Section 7, Fall Back: \"Units in Line - become "
				 "disordered on a fall back result\"; Section 3, Disorder: \"Line units must reform "
				 "before moving or volleying\"; ruling R49)"
			       : "a unit that retreated is in disorder, not in line formation: no volley (Volley Fire; "
				 "Section 7, Retreat; rulings R27, R44)";
	return NULL;
}

FRAY_API const char *fray_presidio_fire_state_refused(const fray_presidio_shoot_in *in)
{
	/* "Then all figures reload at the same time": after a volley no
	 * figure is loaded until the reload is done (Volley Fire) */
	if (in->after_volley && in->reload_left > 0)
		return "nothing is loaded after its volley until the reload is done (Presidio Section 4, Volley "
		       "Fire: all figures reload at the same time)";
	/* reloading in cover is for troops "currently in skirmish formation";
	 * a disordered unit is in a clump (Section 3, Disorder) */
	if (in->reloading_in_cover && !fray_presidio_standing_in_formation(in->firer_standing))
		return "a disordered (or retreated) unit is in a clump, not in skirmish formation: it cannot reload "
		       "taking more cover (Presidio Section 3, Disorder; Section 4, Reloading While Taking Additional "
		       "Cover; ruling R44)";
	/* "Units designated as skirmishers and light units can perform
	 * independent fire while moving", and Fire while Moving is "pending
	 * ... independent fire restrictions": no other unit fires moving */
	if (in->mode == FRAY_PRESIDIO_MOVING && !in->light)
		return "only units designated light or skirmish fire while moving (Presidio Section 4, Independent "
		       "Fire and Fire while Moving): give the designation";
	if (!in->volley_if_able)
		return fray_presidio_volley_refused(in);
	return NULL;
}

/* Section 4, Independent Fire: "If a unit uses independent fire for two
 * consecutive actions (in a game turn) roll all the dice (for both
 * actions) at the same time". */
FRAY_API const char *fray_presidio_consecutive_refused(fray_presidio_fire_mode mode)
{
	switch (mode) {
	case FRAY_PRESIDIO_INDEPENDENT:
		return NULL;
	case FRAY_PRESIDIO_VOLLEY:
		return "a volley empties every gun: nothing is loaded for a second action (Presidio Section 4, Volley "
		       "Fire)";
	case FRAY_PRESIDIO_AIMED:
		return "aim and shoot takes both actions itself (Presidio Section 2, Aim and Shoot)";
	case FRAY_PRESIDIO_OPPORTUNITY:
		return "opportunity fire is firing once, one action (Presidio Section 4, Opportunity Fire)";
	default:
		return "fire while moving fires once (Presidio Section 4, Fire while Moving)";
	}
}

/* Section 7: morale is checked "after any action sequence in which the
 * unit takes casualties"; Section 2: a unit's sequence is its two
 * actions; Section 4: two consecutive actions of independent fire are
 * rolled at once, and the target checks "only after the entire unit has
 * fired". So a unit's second action of independent fire at the target of
 * its first, right after it, is no shot of its own with a check between:
 * both are one roll (two actions) and one check. An action the unit held
 * and fires at another moment (Section 2, Holding 1 Action) stands alone. */
FRAY_API const char *fray_presidio_second_shot_refused(fray_presidio_fire_mode before, int actions_before,
							fray_presidio_fire_mode now, bool held)
{
	if (held || actions_before != 1)
		return NULL;
	/* fire while moving, then a shot standing at the same target: its
	 * check came after the moving fire; another after this shot would be
	 * a second in one action sequence (Section 7: "after any action
	 * sequence"), and the two cannot be rolled as one (fire while moving
	 * has its own hit number) */
	if (before == FRAY_PRESIDIO_MOVING && now != FRAY_PRESIDIO_MOVING)
		return "the target checked morale after this unit's fire while moving; a second shot at it in the "
		       "same action sequence would check it twice (Presidio Section 7, Morale: once \"after any "
		       "action sequence\"): shoot at another target";
	if (before != FRAY_PRESIDIO_INDEPENDENT || now != FRAY_PRESIDIO_INDEPENDENT)
		return NULL;
	return "two actions of independent fire in one action sequence are rolled together, and the target "
	       "checks morale once, after both (Presidio Section 4, Independent Fire; Section 7, Morale)";
}

FRAY_API bool fray_presidio_within_4(fray_presidio_range_class c, int band, double inches)
{
	if (inches >= 0)
		return inches < 4;
	/* only the band known: within 4" when the close band ends at 4" */
	int lim[3];
	fray_presidio_band_limits(c, lim);
	return band == 0 && lim[0] <= 4;
}

/* The mode fired: a volley the unit may not fire is independent fire (R27). */
static fray_presidio_fire_mode mode_fired(const fray_presidio_shoot_in *in)
{
	return fray_presidio_volley_refused(in) ? FRAY_PRESIDIO_INDEPENDENT : in->mode;
}

/* The figures that fire and why: a volley all but the officers and NCOs
 * (Volley Fire; every one of them, ruling R42); independent, opportunity and aimed fire are one shooting
 * action each, figures / reload (ruling R14); fire while moving "up to
 * half the figures (round down)", "pending loading and independent fire
 * restrictions": never more than independent fire allows. */
static int firing_figures(const fray_presidio_shoot_in *in, char *why, size_t cap)
{
	int independent = fray_presidio_independent_figures(in->figures, in->weapon->reload);
	switch (mode_fired(in)) {
	case FRAY_PRESIDIO_VOLLEY: {
		int lead = in->firer_leaders < in->figures ? in->firer_leaders : in->figures;
		snprintf(why, cap, "a volley: %d figures less %d officers and NCOs (not counted) = %d firing",
			 in->figures, lead, in->figures - lead);
		return in->figures - lead;
	}
	case FRAY_PRESIDIO_MOVING: {
		int half = in->figures / 2;
		int k = half < independent ? half : independent;
		snprintf(why, cap, "fire while moving: half of %d = %d, at most %d figures / reload %d = %d: %d",
			 in->figures, half, in->figures, in->weapon->reload, independent, k);
		return k;
	}
	default:
		snprintf(why, cap, "%s fire: %d figures / reload %d = %d firing",
			 fray_presidio_fire_mode_names[mode_fired(in)], in->figures, in->weapon->reload, independent);
		return independent;
	}
}

/* Section 3, Disorder: "Light and Skirmish units can only move and shoot
 * half" (a disordered line unit fires its independent fire in full). */
static bool shoots_half(const fray_presidio_shoot_in *in)
{
	return in->light && in->firer_standing == FRAY_PRESIDIO_DISORDERED;
}

/* Half, rounded as ruling R14 rounds figures / reload: to nearest, a half
 * up (5 -> 3, 1 -> 1); the Disorder paragraph does not say. */
static int half_up(int n)
{
	return (n + 1) / 2;
}

/* R15: one casualty die per casualty; at most the specialty figures left
 * hits one of them. The leader is the first specialty figure: a
 * specialist hit is he with one chance in the specialists left. "All
 * other hits are then taken by privates" (Section 6, Hits): a casualty
 * the die gives to a private needs a private left; once none is, the
 * casualties left fall on specialty figures, no die rolled (privates < 0:
 * not known, never run out). */
static int specialists(fray_roller *r, int casualties, int die, int left, int privates, bool leader,
		       bool *leader_hit)
{
	int hit = 0;
	*leader_hit = false;
	for (int c = 0; c < casualties && left > 0; c++) {
		int face;
		if (privates == 0)
			fray_emit_note(r, "no private left: the casualty falls on a specialty figure, no die",
				       "Presidio Section 6, Hits; ruling R15");
		if (privates == 0 || fray_roll_at_most(r, die, left < die ? left : die, &face, "casualty die")) {
			/* one specialty figure left: he is the one, no die */
			if (leader && !*leader_hit &&
			    (left == 1 || fray_roll_at_most(r, left, 1, &face, "which specialty figure (1: the leader)")))
				*leader_hit = true;
			hit++;
			left--;
		} else if (privates > 0) {
			privates--;
		}
	}
	return hit;
}

/* The privates of a unit of figures with specialty figures among them;
 * -1 when the unit's figures are not given. */
static int privates_of(int figures, int specialty)
{
	if (figures <= 0)
		return -1;
	return figures > specialty ? figures - specialty : 0;
}

/* The differential's terms: the weapon's damage less the target's armor
 * (R13), told before the chart's number read for it. */
static int differential_terms(int damage, int armor, term *t)
{
	int n = 0;
	add_base(t, &n, damage, "Presidio Section 10, Damage", "the weapon's damage");
	add_base(t, &n, -armor, "Presidio Section 6, Wounding; ruling R13", "the target's armor");
	return n;
}

/* The wound number's terms: the d12 the damage chart needs for damage -
 * armor (R13; the chart's number is that score, not a difference), 2 up
 * when firing while moving. */
static int wound_terms(const fray_presidio_shoot_in *in, term *t)
{
	int n = 0, wn = fray_presidio_wound_number(in->weapon->damage - in->armor);
	if (!wn)
		return 0;
	add_base(t, &n, wn, "Presidio Section 6, Wounding; ruling R13",
		 "the d12 needed, from the damage chart for damage - armor");
	add_term(t, &n, in->mode == FRAY_PRESIDIO_MOVING ? 2 : 0, "Presidio Section 4, Fire while Moving",
		 "fire while moving");
	return n;
}

FRAY_API void fray_presidio_shoot(fray_roller *r, const fray_presidio_shoot_in *in,
				  fray_presidio_shoot_out *out)
{
	*out = (fray_presidio_shoot_out){0};
	char why[160];
	out->firing = firing_figures(in, why, sizeof why);
	out->volley = fray_presidio_fires_volley(in);
	out->reload = fray_presidio_reload_after(in);
	out->within_4 = fray_presidio_within_4(in->weapon->range, in->band, in->inches);
	if (fray_presidio_volley_refused(in))
		fray_emit_note(r, "no volley: independent fire instead", "Presidio Volley Fire, ruling R27");
	if (fray_roller_narrating(r))
		fray_emit_note(r, why, out->volley ? "Presidio Section 4, Volley Fire" : "Presidio Section 4, ruling R14");
	if (shoots_half(in)) {
		int all = out->firing;
		out->firing = half_up(all);
		if (fray_roller_narrating(r)) {
			snprintf(why, sizeof why, "disordered light or skirmish troops shoot half: %d / 2 = %d firing "
				 "(halves up, as ruling R14)", all, out->firing);
			fray_emit_note(r, why, "Presidio Section 3, Disorder; ruling R14");
		}
	}
	/* two actions of independent fire: each action's firers, rolled
	 * together (Section 4, Independent Fire) */
	int each = out->firing, actions = in->actions == 2 ? 2 : 1;
	out->firing = 0;
	for (int a = 0; a < actions; a++) {
		int firing = each;
		if (in->reloading_in_cover && mode_fired(in) == FRAY_PRESIDIO_INDEPENDENT) {
			/* "only half the figures that can ... may fire (round up or
			 * down at 50%)": an odd half goes up or down on a die */
			firing = each / 2;
			if (each % 2)
				firing += fray_die(r, 2, "half the firers, rounded up or down at 50%") == 2;
		}
		out->firing += firing;
	}
	if (actions == 2 && fray_roller_narrating(r)) {
		snprintf(why, sizeof why, "two actions of independent fire rolled together: %d dice", out->firing);
		fray_emit_note(r, why, "Presidio Section 4, Independent Fire");
	}
	term t[MAX_TERMS];
	int n = hit_terms(in, t);
	out->hit_number = n ? sum_terms(t, n) : 99;
	if (!n)
		fray_emit_note(r, hunkered(in) ? "the target is hunkered down: complete cover, it cannot be hit"
					       : "the target is in complete cover: it cannot be hit",
			       "Presidio Section 4, Special Cover and Defensive Cover");
	else
		tell_terms(r, t, n, "hit number (d12 each)", "Presidio Section 4, ruling R11");
	int wn = 0;
	if (n) {
		term w[4];
		int nw = wound_terms(in, w);
		wn = nw ? sum_terms(w, nw) : 0;
		if (nw && out->hit_number <= 12) {
			term d[2];
			tell_terms(r, d, differential_terms(in->weapon->damage, in->armor, d),
				   "damage - armor (the differential)", "Presidio Section 6, Wounding; ruling R13");
			tell_terms(r, w, nw, "wound number (d12 per hit)", "Presidio Section 6, ruling R13");
		}
	}
	out->wound_number = wn > 12 ? 0 : wn;
	if (out->hit_number > 12 && n)
		fray_emit_note(r, "a hit number above 12 cannot hit", "ruling R11");
	if (out->hit_number > 12 || out->firing == 0)
		return;
	int need = out->hit_number < 1 ? 1 : out->hit_number;
	int hits = fray_successes(r, out->firing, 12, need, "to hit");
	if (in->through_fire && hits > 0) {
		/* Section 6, Through-Fire: 12s hit the unit behind; with a hit
		 * number of 12, half the hits (rounded down) do */
		if (need == 12)
			out->rear_hits = hits / 2;
		else
			out->rear_hits = fray_successes(r, hits, 13 - need, 13 - need, "12s among the hits");
		hits -= out->rear_hits;
	}
	out->hits = hits;
	if (!out->wound_number)
		fray_emit_note(r, "the weapon cannot wound this armor", "Presidio Section 6, ruling R13");
	if (out->wound_number && hits)
		out->casualties = fray_successes(r, hits, 12, out->wound_number, "to wound");
	/* a unit cannot lose more figures than it has (issue 14) */
	if (in->target_figures > 0 && out->casualties > in->target_figures)
		out->casualties = in->target_figures;
	if (out->rear_hits) {
		/* "if more than 1 unit is behind the target unit, dice randomly
		 * which unit takes the hit(s)" */
		out->rear_unit = in->units_behind > 1 ? fray_die(r, in->units_behind, "which unit behind") : 1;
	}
	if (out->wound_number && out->rear_hits)
		out->rear_casualties = fray_successes(r, out->rear_hits, 12, out->wound_number,
						      "to wound, the unit behind");
	if (out->casualties && in->file) {
		/* Section 6, Units in Column: those in front fall first, no die */
		out->specialists_hit = fray_presidio_file_hits(in->file, out->casualties, &out->leader_hit);
		fray_emit_note(r, "in column: the hits fall on those in front, then on the figures behind them, no "
			       "casualty die", "Presidio Section 6, Units in Column");
	} else if (out->casualties && in->specialists > 0) {
		/* the die is the unit's when the dice are rolled (R15); the
		 * privates are those it has now */
		int unit = in->target_unit_figures > 0 ? in->target_unit_figures : in->target_figures;
		int die = fray_presidio_casualty_die(fray_presidio_size_of(unit));
		out->specialists_hit = specialists(r, out->casualties, die, in->specialists,
						   privates_of(in->target_figures, in->specialists), in->target_leader,
						   &out->leader_hit);
	}
	/* Section 7: a unit checks morale after an action in which it took
	 * casualties, if any figure is left */
	out->morale_check = out->casualties > 0 && (in->target_figures <= 0 || out->casualties < in->target_figures);
	if (fray_roller_narrating(r)) {
		char text[200];
		snprintf(text, sizeof text, "%d hit%s, %d casualt%s (%d of them specialty figures%s)", out->hits,
			 out->hits == 1 ? "" : "s", out->casualties, out->casualties == 1 ? "y" : "ies",
			 out->specialists_hit, out->leader_hit ? ", the leader among them" : "");
		fray_emit_result(r, "shooting", out->casualties, text, "Presidio Section 6");
		if (in->through_fire) {
			snprintf(text, sizeof text, "the unit behind: %d hit%s, %d casualt%s", out->rear_hits,
				 out->rear_hits == 1 ? "" : "s", out->rear_casualties,
				 out->rear_casualties == 1 ? "y" : "ies");
			fray_emit_result(r, "through-fire", out->rear_casualties, text, "Presidio Section 6");
		}
	}
}

FRAY_API void fray_presidio_shoot_procedure(fray_roller *r, fray_policy *p, const void *in,
					    int64_t *out)
{
	(void)p;
	fray_presidio_shoot_out o;
	const fray_presidio_shoot_in *s = in;
	if (s->weapon2 && s->figures2 > 0)
		fray_presidio_shoot_types(r, s, &o); /* Section 4, Weapon Types */
	else
		fray_presidio_shoot(r, s, &o);
	out[0] = o.hits;
	out[1] = o.casualties;
	out[2] = o.specialists_hit;
	out[3] = o.rear_hits;
	out[4] = o.rear_casualties;
	out[5] = o.rear_unit;
	out[6] = o.leader_hit;
	out[7] = o.morale_check;
}

FRAY_API bool fray_presidio_fires_volley(const fray_presidio_shoot_in *in)
{
	return in->mode == FRAY_PRESIDIO_VOLLEY && !fray_presidio_volley_refused(in);
}

FRAY_API int fray_presidio_reload_after(const fray_presidio_shoot_in *in)
{
	return in->weapon->reload;
}

/* Section 7's modifiers, all cumulative, and Section 1's special
 * characters: the level's base, then the ones that apply, in the text's
 * order. */
static int morale_terms(const fray_presidio_morale_in *in, term *t)
{
	static const char *const s7 = "Presidio Section 7", *const s1 = "Presidio Section 1";
	static const int base[FRAY_PRESIDIO_NLEVELS] = {5, 6, 7, 8, 4}; /* super-elite: 4 */
	static const char *const base_what[FRAY_PRESIDIO_NLEVELS] = {
		"elite: 5+", "veteran: 6+", "average: 7+", "inexperienced: 8+", "super-elite: 4+ (Morale Bonus)"};
	int n = 0, cas = 0;
	add_base(t, &n, base[in->level], "Presidio Section 7, Morale levels", base_what[in->level]);
	const char *cas_what = NULL;
	switch (in->size) { /* casualties by unit size */
	case FRAY_PRESIDIO_COMPANY:
		cas = in->casualties / 2, cas_what = "casualties in a company (+1 for every 2)";
		break;
	case FRAY_PRESIDIO_PLATOON:
		cas = in->casualties, cas_what = "casualties in a platoon (+1 each)";
		break;
	case FRAY_PRESIDIO_SQUAD:
		cas = 2 * in->casualties, cas_what = "casualties in a squad (+2 each)";
		break;
	case FRAY_PRESIDIO_TEAM:
		cas = 3 * in->casualties, cas_what = "casualties in a team (+3 each)";
		break;
	}
	add_term(t, &n, cas, s7, cas_what);
	add_term(t, &n, in->charging ? -2 : 0, s7, "charging");
	add_term(t, &n, in->charged ? 2 : 0, s7, "charged");
	/* Cover or Morale: incidental or friendly cover, a fifer within 18" or
	 * a flag near: one -1 DM, not one each (issue 14; Section 1 gives the
	 * fifer's and the flag's -1 too: the same DM, counted once) */
	bool cover_or_morale = in->incidental_or_friendly_cover || in->cover == FRAY_PRESIDIO_INCIDENTAL ||
			       in->fifer || in->flag;
	add_term(t, &n, cover_or_morale ? -1 : 0, s7, "cover or morale (cover, a fifer or a flag: once)");
	/* "Partial/Heavy Cover - Units receive their cover benefit as a
	 * negative DM"; full cover (loopholes) is read the same way, its
	 * benefit 4 (docs/presidio.md) */
	if (in->cover >= FRAY_PRESIDIO_PARTIAL && in->cover <= FRAY_PRESIDIO_FULL)
		add_term(t, &n, -fray_presidio_cover_dm(in->cover), s7,
			 in->cover == FRAY_PRESIDIO_PARTIAL ? "partial cover"
			 : in->cover == FRAY_PRESIDIO_HEAVY ? "heavy cover"
							    : "full cover (its benefit, as partial and heavy)");
	/* "Line Units - line receive a -1 benefit": a unit in line, not one
	 * its disorder, retreat or panic put in a clump (ruling R44), nor one
	 * set down disordered by its fall back (ruling R49) */
	add_term(t, &n, in->line && frayi_presidio_still_in_line(in->standing) ? -1 : 0, s7, "in line");
	add_term(t, &n, in->leader_casualty ? 2 : 0, s7, "its leader a casualty");
	add_term(t, &n, in->friends_fell_back, s7, "friends within 12\" fell back");
	add_term(t, &n, 2 * in->friends_retreated, s7, "friends within 12\" retreated");
	add_term(t, &n, 3 * in->friends_panicked, s7, "friends within 12\" panicked");
	/* Special Characters: a chaplain or shaman within 12", a hero with the unit */
	add_term(t, &n, in->chaplain ? -1 : 0, s1, "a chaplain within 12\"");
	add_term(t, &n, in->hero ? -2 : 0, s1, "a hero with the unit");
	return n;
}

/* Section 7: the required number, all modifiers cumulative. */
FRAY_API int fray_presidio_morale_required(const fray_presidio_morale_in *in)
{
	term t[MAX_TERMS];
	return sum_terms(t, morale_terms(in, t));
}

/* Ruling R44: the "Unit in Line" rows are for a unit in line; one its
 * standing put in a clump (or its fall back set down disordered, ruling
 * R49) is read as it stands, in cover or in the open. A line in partial
 * cover stays on the line rows (ruling R45). */
FRAY_API fray_presidio_situation fray_presidio_morale_situation(const fray_presidio_morale_in *in)
{
	if (in->situation != FRAY_PRESIDIO_LINE || frayi_presidio_still_in_line(in->standing))
		return in->situation;
	return in->cover >= FRAY_PRESIDIO_PARTIAL && in->cover <= FRAY_PRESIDIO_FULL ? FRAY_PRESIDIO_IN_COVER
										     : FRAY_PRESIDIO_OPEN;
}

static int failure_band(int short_by)
{
	return short_by <= 2 ? 0 : short_by <= 4 ? 1 : 2;
}

static bool surrenders(const fray_presidio_morale_in *in, int short_by)
{
	return failure_band(short_by) == 2 && in->near_enemy && in->situation != FRAY_PRESIDIO_CHARGING &&
	       !in->charge_impact;
}

/* Morale Roll Resolution: each failure band's result read with the
 * situation, as the unit's standing afterwards. A unit in line's form
 * check (Fall Back and Retreat: "if the unit has an officer or NCO behind
 * the line") is not rolled: the line result stands (docs/presidio.md). */
FRAY_API fray_presidio_standing fray_presidio_morale_standing(const fray_presidio_morale_in *in, int short_by)
{
	if (short_by <= 0)
		return in->standing;
	static const fray_presidio_standing by[4][3] = {
		[FRAY_PRESIDIO_OPEN] = {FRAY_PRESIDIO_FELL_BACK, FRAY_PRESIDIO_RETREATED, FRAY_PRESIDIO_PANICKED},
		[FRAY_PRESIDIO_IN_COVER] = {FRAY_PRESIDIO_FLINCHED, FRAY_PRESIDIO_HUNKERED, FRAY_PRESIDIO_PANICKED},
		[FRAY_PRESIDIO_LINE] = {FRAY_PRESIDIO_DISORDERED, FRAY_PRESIDIO_RETREATED, FRAY_PRESIDIO_PANICKED},
		[FRAY_PRESIDIO_CHARGING] = {FRAY_PRESIDIO_DISORDERED, FRAY_PRESIDIO_FELL_BACK,
					    FRAY_PRESIDIO_RETREATED},
	};
	fray_presidio_standing now = surrenders(in, short_by) ? FRAY_PRESIDIO_SURRENDERED
							      : by[fray_presidio_morale_situation(in)][failure_band(short_by)];
	return fray_presidio_worse_standing(in->standing, now);
}

/* Section 1, Officer Casualties: "Units that have no commanders left will
 * simply stand and fight but if they receive one more casualty they will
 * run for it or surrender". Which of the two is read from Section 7's
 * Surrender (docs/presidio.md): a unit within 4" of the enemy or
 * surrounded surrenders, except after a charge impact; else it runs (a
 * panic). No die is rolled. */
static fray_presidio_standing leaderless_standing(const fray_presidio_morale_in *in)
{
	bool gives_up = in->near_enemy && !in->charge_impact;
	return fray_presidio_worse_standing(in->standing,
					    gives_up ? FRAY_PRESIDIO_SURRENDERED : FRAY_PRESIDIO_PANICKED);
}

/* Morale Roll Resolution: the failure bands read with the situation. */
FRAY_API const char *fray_presidio_morale_result(const fray_presidio_morale_in *in, int short_by)
{
	if (in->no_commanders)
		return leaderless_standing(in) == FRAY_PRESIDIO_SURRENDERED
			       ? "no commanders left and one more casualty: it surrenders (within 4\" of the enemy or "
				 "surrounded)"
			       : "no commanders left and one more casualty: it runs for it (a panic)";
	if (short_by <= 0)
		return "success: the unit stays in place";
	int band = failure_band(short_by);
	fray_presidio_standing now = fray_presidio_morale_standing(in, short_by);
	fray_presidio_situation situation = fray_presidio_morale_situation(in);
	fray_presidio_standing plain = fray_presidio_morale_standing(
		&(fray_presidio_morale_in){.situation = situation, .near_enemy = in->near_enemy,
					   .charge_impact = in->charge_impact},
		short_by);
	if (now != plain)
		return now == FRAY_PRESIDIO_PANICKED	? "stays panicked (a milder result does not lift a panic)"
		       : now == FRAY_PRESIDIO_RETREATED ? "stays retreated (a milder result does not lift it)"
		       : now == FRAY_PRESIDIO_SURRENDERED ? "stays surrendered"
							 : "keeps its worse standing (a milder result does not lift it)";
	if (surrenders(in, short_by))
		return "surrenders (panic within 4\" of the enemy or surrounded)";
	if (band == 2 && in->charge_impact && in->situation != FRAY_PRESIDIO_CHARGING)
		return "panics: a panic move (after a charge impact there is no surrender)";
	static const char *const words[4][3] = {
		{"falls back (\"walks\") or half a move to the nearest cover",
		 "retreats (\"runs\") or half to the furthest cover",
		 "panics: runs towards the rear, no cover"},
		{"flinches: -1 action", "hunkers down: -2 actions",
		 "panics: runs towards the rear, no cover"},
		{"disordered, -1 action (Units in Line, Fall Back)", "retreats, -2 actions (Units in Line, Retreat)",
		 "panics: runs towards the rear, no cover"},
		{"disordered", "falls back", "retreats (\"runs\") or half to the furthest cover"},
	};
	return words[situation][band];
}

/* Morale Bonus 2 and 3: one experience level up (elite to super-elite),
 * and "disregards any previous casualties ... (start over as a new
 * unit)": its casualties counted from 0 and, as a new unit's, its size
 * class from the figures it has now (when given). */
static void start_over(fray_roller *r, const fray_presidio_morale_in *in, fray_presidio_morale_out *out)
{
	out->level_after = fray_presidio_bonus_level(in->level);
	out->casualties_after = 0;
	if (in->figures > 0)
		out->size_after = fray_presidio_size_of(in->figures);
	if (fray_roller_narrating(r)) {
		char text[160];
		snprintf(text, sizeof text, "starts over as a new unit: %s, a %s, no casualties counted",
			 fray_presidio_level_names[out->level_after], fray_presidio_size_names[out->size_after]);
		fray_emit_note(r, text, "Presidio Section 7, Morale Bonus");
	}
}

/* R16: 1d6, a 6 rolled once more and added, plus the leader's command
 * bonus, against the required number; two 6s: automatic success and the
 * three bonuses. Ruling R28: the table's heading "(1D6, 6 = success)" adds
 * no rule, so a single 6 is rolled again and added, not a success. */
FRAY_API void fray_presidio_morale(fray_roller *r, const fray_presidio_morale_in *in,
				   fray_presidio_morale_out *out)
{
	term t[MAX_TERMS];
	int n = morale_terms(in, t);
	*out = (fray_presidio_morale_out){.level_after = in->level, .size_after = in->size,
					  .casualties_after = in->casualties};
	out->required = sum_terms(t, n);
	if (in->no_commanders) {
		out->standing = leaderless_standing(in);
		fray_emit_result(r, "morale", 0, fray_presidio_morale_result(in, 0),
				 "Presidio Section 1, Officer Casualties; Section 7, Surrender");
		return;
	}
	tell_terms(r, t, n, "required number", "Presidio Section 7, all modifiers cumulative");
	if (in->line && !frayi_presidio_still_in_line(in->standing))
		fray_emit_note(r, "out of its line, in a clump: no line benefit, a failure read as it stands in the "
			       "open or in cover", in->standing == FRAY_PRESIDIO_FELL_BACK
						     ? "Presidio Section 7, Fall Back; Section 3, Disorder; ruling R49"
						     : "Presidio Section 3, Disorder; Section 7; ruling R44");
	out->roll = fray_reroll_add(r, 6, "morale d6!");
	/* the die's terms: the leader's command bonus (0 when none within 2") */
	fray_emit_modifier(r, "leader's command bonus", in->leader, "Presidio Section 7, Rank and Command Skill");
	fray_emit_total(r, "added to the die", in->leader, "Presidio Section 7");
	out->total = out->roll + in->leader;
	out->bonus = out->roll == 12;
	out->success = out->bonus || out->total >= out->required;
	out->short_by = out->success ? 0 : out->required - out->total;
	out->standing = fray_presidio_morale_standing(in, out->short_by);
	/* a pass holds whatever marker the unit carried (Fear of Charge:
	 * pass or fail is this check's, not the old marker's) */
	out->holds = out->success || fray_presidio_standing_holds(out->standing);
	if (out->bonus)
		start_over(r, in, out);
	if (fray_roller_narrating(r)) {
		char text[240];
		snprintf(text, sizeof text, "%d + %d = %d against %d+: %s%s (%s)", out->roll, in->leader, out->total,
			 out->required, out->bonus ? "two 6s: success and the three bonuses; " : "",
			 fray_presidio_morale_result(in, out->short_by), fray_presidio_standing_names[out->standing]);
		fray_emit_result(r, "morale", out->total, text, "Presidio Section 7, ruling R16");
	}
}

FRAY_API void fray_presidio_morale_procedure(fray_roller *r, fray_policy *p, const void *in,
					     int64_t *out)
{
	(void)p;
	fray_presidio_morale_out o;
	fray_presidio_morale(r, in, &o);
	out[0] = o.success;
	out[1] = o.short_by;
	out[2] = o.bonus;
	out[3] = o.standing;
	out[4] = o.holds;
	out[5] = o.level_after;
	out[6] = o.size_after;
	out[7] = o.casualties_after;
}

FRAY_API fray_presidio_level fray_presidio_bonus_level(fray_presidio_level l)
{
	return l == FRAY_PRESIDIO_ELITE || l == FRAY_PRESIDIO_SUPER_ELITE ? FRAY_PRESIDIO_SUPER_ELITE
									  : (fray_presidio_level)(l - 1);
}

/* R17: a 6 less the officer's command level, or better; "NCO's cannot
 * rally troops": an NCO's level does not count. */
FRAY_API int fray_presidio_rally_need(const fray_presidio_rally_in *in)
{
	int l = in->nco ? 0 : in->leader;
	return 6 - l < 1 ? 1 : 6 - l;
}

FRAY_API void fray_presidio_rally_procedure(fray_roller *r, fray_policy *p, const void *input,
					    int64_t *out)
{
	(void)p;
	const fray_presidio_rally_in *in = input;
	term t[3];
	int n = 0;
	add_base(t, &n, 6, "Presidio Section 2, Rally", "a 6");
	add_term(t, &n, in->nco ? 0 : -in->leader, "Presidio Section 2, Rally; ruling R17",
		 "less the officer's command level");
	if (in->nco && in->leader && fray_roller_narrating(r))
		fray_emit_note(r, "an NCO's command level does not count: NCOs cannot rally troops",
			       "Presidio Section 2, Rally");
	tell_terms(r, t, n, "needed on the rally die", "Presidio Section 2, ruling R17");
	int need = fray_presidio_rally_need(in);
	bool ok = fray_successes(r, 1, 6, need, "rally die") == 1;
	fray_emit_result(r, "rally", ok, ok ? "rallied: turned about, in a clump facing the enemy (disordered)"
					    : "not rallied: another panic move", "Presidio Section 2, ruling R17");
	out[0] = ok;
	/* "turned around in a clump (disorder)" */
	out[1] = ok ? FRAY_PRESIDIO_DISORDERED : FRAY_PRESIDIO_PANICKED;
}

/* R17: 1d6 + leadership each; ties rolled again. */
FRAY_API void fray_presidio_initiative_procedure(fray_roller *r, fray_policy *p, const void *in,
						 int64_t *out)
{
	(void)p;
	const int *lead = in;
	int a = fray_die(r, 6, "initiative, side 1");
	fray_emit_modifier(r, "side 1's leadership", lead[0], "Presidio Section 2, Initiative");
	fray_emit_total(r, "added to side 1's die", lead[0], "ruling R17");
	a += lead[0];
	int b = fray_die(r, 6, "initiative, side 2");
	fray_emit_modifier(r, "side 2's leadership", lead[1], "Presidio Section 2, Initiative");
	fray_emit_total(r, "added to side 2's die", lead[1], "ruling R17");
	b += lead[1];
	if (a == b && !fray_roller_stopped(r)) {
		/* R17: ties are rolled again until one side is higher. Rolling
		 * until untied is one draw among the untied pairs of dice, each
		 * as likely: so the odds are exact fractions, with nothing left
		 * unresolved (issue 14), and a roll tells the pair that decided */
		unsigned ones[36];
		int pair[36][2], n = 0;
		for (int x = 1; x <= 6; x++)
			for (int y = 1; y <= 6; y++)
				if (x + lead[0] != y + lead[1]) {
					ones[n] = 1;
					pair[n][0] = x;
					pair[n++][1] = y;
				}
		fray_emit_note(r, "a tie: rolled again until one side is higher", "ruling R17");
		if (n > 0) {
			size_t k = fray_draw(r, ones, (size_t)n, "the untied re-roll");
			a = pair[k][0] + lead[0];
			b = pair[k][1] + lead[1];
			if (fray_roller_narrating(r)) {
				char text[96];
				snprintf(text, sizeof text, "side 1 rolls %d, side 2 rolls %d", pair[k][0], pair[k][1]);
				fray_emit_note(r, text, "ruling R17");
			}
		}
	}
	out[0] = a > b ? 0 : 1;
	fray_emit_result(r, "initiative", out[0] + 1, a > b ? "side 1 goes first" : "side 2 goes first",
			 "Presidio Section 2, ruling R17");
}

FRAY_API const char *const fray_presidio_impact_names[5] = {"none", "foot", "horse", "bayonet", "lance"};

/* Section 5, Charge Impact: foot -1, horse -2; bayonets or spears -2 in
 * all, on horseback with spear or lance -3 in all (not cumulative). */
FRAY_API fray_presidio_impact fray_presidio_impact_of(bool mounted, const fray_presidio_weapon *melee,
						     bool bayonets)
{
	const char *w = melee ? melee->name : "";
	bool spear = strstr(w, "lance") || strstr(w, "spear");
	if (mounted)
		return spear ? FRAY_PRESIDIO_LANCE : FRAY_PRESIDIO_HORSE;
	return spear || bayonets ? FRAY_PRESIDIO_BAYONET : FRAY_PRESIDIO_FOOT;
}

static int impact_dm(fray_presidio_impact i)
{
	static const int dm[5] = {0, -1, -2, -2, -3};
	return dm[i];
}

/* Section 5, Melee: Hit# - attacker's skill + defender's skill; +1 for a
 * low wall, uphill or a defender on horseback; +2 a high wall; -1 attacking
 * on horseback; +1 on a ladder; the charge impact, added to all of them
 * (a mounted impact with the horseback -1: ruling R46). A weapon with no melee
 * use (a bow) cannot strike: no terms, a difficulty past 12. */
#define NO_STRIKE 13

static int attack_terms(const fray_presidio_melee_in *in, term *t)
{
	static const char *const m = "Presidio Section 5, Melee Attack Modifiers";
	static const char *const impact_what[5] = {"", "charge impact on foot", "charge impact on horseback",
						   "charge impact with bayonets or spears",
						   "charge impact on horseback with spear or lance"};
	const fray_presidio_weapon *w = fray_presidio_melee_weapon(in->weapon);
	int n = 0;
	if (!w)
		return 0;
	add_base(t, &n, w->hit, "Presidio Section 10, Hit#", "the weapon's Hit#");
	add_term(t, &n, -in->skill, "Presidio Section 5, Melee Attacks", "the attackers' melee skill");
	add_term(t, &n, in->defender_skill, "Presidio Section 5, Melee Attacks", "the defenders' melee skill");
	add_term(t, &n, in->low_wall ? 1 : 0, m, "a low wall");
	add_term(t, &n, in->uphill ? 1 : 0, m, "uphill");
	add_term(t, &n, in->defender_mounted ? 1 : 0, m, "the defender on horseback");
	add_term(t, &n, in->high_wall ? 2 : 0, m, "a high wall");
	add_term(t, &n, in->mounted ? -1 : 0, m, "attacking on horseback");
	add_term(t, &n, in->ladder ? 1 : 0, m, "on a ladder");
	add_term(t, &n, impact_dm(in->impact), "Presidio Section 5, Charge Impact", impact_what[in->impact]);
	add_term(t, &n, in->other_dm, "Presidio Section 5", "other DMs");
	return n;
}

/* The defender strikes back (1 action): roles turned, no charge impact,
 * the walls and slope are his, not the attacker's. */
static int return_terms(const fray_presidio_melee_in *in, term *t)
{
	static const char *const m = "Presidio Section 5, Melee Attack Modifiers";
	const fray_presidio_weapon *w = fray_presidio_melee_weapon(in->defender_weapon);
	int n = 0;
	if (!w)
		return 0;
	add_base(t, &n, w->hit, "Presidio Section 10, Hit#", "the defenders' weapon's Hit#");
	add_term(t, &n, -in->defender_skill, "Presidio Section 5, Melee Attacks", "the defenders' melee skill");
	add_term(t, &n, in->skill, "Presidio Section 5, Melee Attacks", "the attackers' melee skill");
	add_term(t, &n, in->mounted ? 1 : 0, m, "the attackers on horseback");
	add_term(t, &n, in->defender_mounted ? -1 : 0, m, "striking on horseback");
	return n;
}

FRAY_API int fray_presidio_melee_difficulty(const fray_presidio_melee_in *in)
{
	term t[MAX_TERMS];
	int n = attack_terms(in, t);
	return n ? sum_terms(t, n) : NO_STRIKE;
}

FRAY_API int fray_presidio_return_difficulty(const fray_presidio_melee_in *in)
{
	term t[MAX_TERMS];
	int n = return_terms(in, t);
	return n ? sum_terms(t, n) : NO_STRIKE;
}

/* One side's strikes: a d12 per figure in contact at the difficulty, then
 * the damage chart for each hit (R13), its number told as its term. */
static void strikes(fray_roller *r, int figures, int difficulty, const fray_presidio_weapon *w,
		    int armor, int *hits, int *casualties, const char *who)
{
	*hits = *casualties = 0;
	w = fray_presidio_melee_weapon(w); /* a gun strikes with its butt */
	if (figures <= 0 || difficulty > 12 || !w)
		return;
	char what[64];
	snprintf(what, sizeof what, "%s strikes", who);
	*hits = fray_successes(r, figures, 12, difficulty < 1 ? 1 : difficulty, what);
	int wn = fray_presidio_wound_number(w->damage - armor);
	if (*hits && wn) {
		term d[2], c[1];
		int nc = 0;
		tell_terms(r, d, differential_terms(w->damage, armor, d), "damage - armor (the differential)",
			   "Presidio Section 6, Wounding; ruling R13");
		add_base(c, &nc, wn, "Presidio Section 6, Wounding; ruling R13",
			 "the d12 needed, from the damage chart for damage - armor");
		tell_terms(r, c, nc, "wound number (d12 per hit)", "Presidio Section 6, ruling R13");
		snprintf(what, sizeof what, "%s to wound", who);
		*casualties = fray_successes(r, *hits, 12, wn, what);
	}
}

/* Section 6, Hits: "Hits are applied randomly to the target unit", in
 * melee as under fire (Section 5 says nothing otherwise): each casualty
 * rolls the unit's casualty die (ruling R15), sized by the unit's figures
 * (unit; 0: those in contact), and the leader is the first specialty
 * figure, as in fray_presidio_shoot. */
static int melee_specialists(fray_roller *r, int casualties, int unit, int contact, int specialty, bool leader,
			     bool *leader_hit, const char *whose)
{
	*leader_hit = false;
	if (casualties <= 0 || specialty <= 0)
		return 0;
	int figures = unit > 0 ? unit : contact;
	int die = fray_presidio_casualty_die(fray_presidio_size_of(figures));
	if (fray_roller_narrating(r)) {
		char text[160];
		snprintf(text, sizeof text, "%s' casualties fall at random: a d%d each (%d figures: a %s), at most the "
			 "specialty figures left (%d) hits one", whose, die, figures,
			 fray_presidio_size_names[fray_presidio_size_of(figures)], specialty);
		fray_emit_note(r, text, "Presidio Section 6, Hits; ruling R15");
	}
	return specialists(r, casualties, die, specialty, privates_of(figures, specialty), leader, leader_hit);
}

/* ", its butt as a 2-handed axe/warclub/rifle butt (8+, damage 4)" */
static const char *butt_words(const fray_presidio_weapon *w)
{
	const fray_presidio_weapon *m = fray_presidio_melee_weapon(w);
	if (m == w)
		return "";
	if (!m)
		return " (no melee use: it cannot strike)";
	return m->damage == 3 ? " (its butt: 8+, damage 3, Section 10)" : " (its butt: 8+, damage 4, Section 10)";
}

FRAY_API const char *fray_presidio_melee_refused(const fray_presidio_melee_in *in)
{
	/* Section 5, Pursuit: "If they make contact with a panicked unit, it
	 * surrenders immediately"; Section 2, Rally: it "performs no other
	 * actions" (so no blow struck back either) */
	if (fray_presidio_pursuit_surrenders(in->defender_standing))
		return "the defenders are panicked: contact with a panicked unit is its surrender, no melee and no "
		       "blow struck back (Presidio Section 5, Pursuit; Section 2, Rally)";
	const char *why = in->both ? fray_presidio_act_refused(in->defender_standing, FRAY_PRESIDIO_ACT_MELEE) : NULL;
	if (why)
		return why;
	if (in->defender_first && (!in->both || in->simultaneous || in->impact != FRAY_PRESIDIO_NO_CHARGE))
		return "defender first: figures that walk into a melee are struck first by the defenders (give both), "
		       "not simultaneously, and with no charge impact: it is not a charge (Presidio Section 5, Moving "
		       "into a Melee)";
	if (in->simultaneous && !in->both)
		return "simultaneous: a simultaneous strike is the defenders' strike back; give both (Presidio Section "
		       "2, Holding 2 Actions)";
	return NULL;
}

/* Section 2, Holding 2 Actions: "save one action to simultaneously melee
 * against the attackers"; Holding 1 Action: charged, "wait and melee
 * simultaneously"; Section 5: the charge reaction "save one action to
 * return melee", and at the impact "If holding any actions the defender
 * may fight back". A defender striking back at a charge's impact does so
 * with the action it held: simultaneously (issue 40 item 1). */
FRAY_API bool fray_presidio_strikes_back_simultaneously(const fray_presidio_melee_in *in)
{
	return in->both && (in->simultaneous || in->impact != FRAY_PRESIDIO_NO_CHARGE);
}

/* The defenders who strike back: those the attackers' strike left (a
 * melee's turn about: "then the defenders are allowed to attack",
 * Section 5, Melee Attacks), or, striking simultaneously, every one in
 * contact before its casualties. */
static int strikers_back(const fray_presidio_melee_in *in, int casualties)
{
	return fray_presidio_strikes_back_simultaneously(in) ? in->defender_figures
							     : in->defender_figures - casualties;
}

/* Section 5, Moving into a Melee: figures that walk into contact (one
 * free action) fall under "the consecutive actions rule", and "the
 * 'defender' will attack first": the defenders strike (their terms as in
 * a strike back), then the attackers with the figures that strike left. */
static void melee_defender_first(fray_roller *r, const fray_presidio_melee_in *in, fray_presidio_melee_out *out)
{
	out->difficulty = fray_presidio_melee_difficulty(in);
	out->return_difficulty = fray_presidio_return_difficulty(in);
	if (fray_roller_narrating(r)) {
		char text[160];
		snprintf(text, sizeof text, "%d attacker%s walked into the melee: the %d defender%s strike first with %s%s: "
			 "%d+ on d12", in->figures, in->figures == 1 ? "" : "s", in->defender_figures,
			 in->defender_figures == 1 ? "" : "s", in->defender_weapon->name, butt_words(in->defender_weapon),
			 out->return_difficulty);
		fray_emit_note(r, text, "Presidio Section 5, Moving into a Melee");
		term t[MAX_TERMS];
		int n = return_terms(in, t);
		if (n)
			tell_terms(r, t, n, "the defenders' difficulty (d12 each)", "Presidio Section 5, Melee Attacks");
	}
	strikes(r, in->defender_figures, out->return_difficulty, in->defender_weapon, in->armor, &out->return_hits,
		&out->return_casualties, "defender");
	if (out->return_casualties > in->figures)
		out->return_casualties = in->figures;
	out->return_specialists_hit = melee_specialists(r, out->return_casualties, in->unit_figures, in->figures,
							in->specialists, in->leader, &out->return_leader_hit,
							"the attackers");
	int left = in->figures - out->return_casualties;
	if (fray_roller_narrating(r)) {
		char text[160];
		snprintf(text, sizeof text, "then the %d attacker%s left strike with %s%s: %d+ on d12", left,
			 left == 1 ? "" : "s", in->weapon->name, butt_words(in->weapon), out->difficulty);
		fray_emit_note(r, text, "Presidio Section 5, Moving into a Melee");
		term t[MAX_TERMS];
		int n = attack_terms(in, t);
		if (n)
			tell_terms(r, t, n, "the attack's difficulty (d12 each)", "Presidio Section 5, Melee Attacks");
	}
	strikes(r, left, out->difficulty, in->weapon, in->defender_armor, &out->hits, &out->casualties, "attacker");
	if (in->defender_figures > 0 && out->casualties > in->defender_figures)
		out->casualties = in->defender_figures;
	out->specialists_hit = melee_specialists(r, out->casualties, in->defender_unit_figures, in->defender_figures,
						 in->defender_specialists, in->defender_leader, &out->leader_hit,
						 "the defenders");
	if (fray_roller_narrating(r)) {
		char text[200];
		snprintf(text, sizeof text, "the attackers lose %d figure%s, the defenders %d. The side with casualties "
			 "checks morale", out->return_casualties, out->return_casualties == 1 ? "" : "s", out->casualties);
		fray_emit_result(r, "melee", out->casualties, text, "Presidio Section 5");
	}
}

FRAY_API void fray_presidio_melee(fray_roller *r, const fray_presidio_melee_in *in,
				  fray_presidio_melee_out *out)
{
	*out = (fray_presidio_melee_out){0};
	if (in->defender_first && in->both) {
		melee_defender_first(r, in, out);
		return;
	}
	out->difficulty = fray_presidio_melee_difficulty(in);
	out->return_difficulty = in->both ? fray_presidio_return_difficulty(in) : 0;
	if (fray_roller_narrating(r)) {
		char text[160];
		snprintf(text, sizeof text, "%d figure%s strike with %s%s: %d+ on d12%s", in->figures,
			 in->figures == 1 ? "" : "s", in->weapon->name, butt_words(in->weapon), out->difficulty,
			 in->impact ? " (with the charge impact)" : "");
		fray_emit_note(r, text, "Presidio Section 5");
		term t[MAX_TERMS];
		int n = attack_terms(in, t);
		if (n)
			tell_terms(r, t, n, "the attack's difficulty (d12 each)", "Presidio Section 5, Melee Attacks");
	}
	strikes(r, in->figures, out->difficulty, in->weapon, in->defender_armor, &out->hits,
		&out->casualties, "attacker");
	/* no more casualties than figures to take them (issue 14) */
	if (in->defender_figures > 0 && out->casualties > in->defender_figures)
		out->casualties = in->defender_figures;
	out->specialists_hit = melee_specialists(r, out->casualties, in->defender_unit_figures, in->defender_figures,
						 in->defender_specialists, in->defender_leader, &out->leader_hit,
						 "the defenders");
	if (in->both) {
		int left = strikers_back(in, out->casualties);
		bool together = fray_presidio_strikes_back_simultaneously(in);
		if (fray_roller_narrating(r)) {
			char text[160];
			snprintf(text, sizeof text, "%d defender%s strike back%s with %s%s: %d+ on d12", left < 0 ? 0 : left,
				 left == 1 ? "" : "s", together ? " simultaneously (all in contact before the strike)" : "",
				 in->defender_weapon->name, butt_words(in->defender_weapon), out->return_difficulty);
			fray_emit_note(r, text, together ? "Presidio Section 2, Holding 1 and 2 Actions: simultaneously"
							 : "Presidio Section 5, Melee Attacks: then the defenders (1 action)");
			term t[MAX_TERMS];
			int n = return_terms(in, t);
			if (n)
				tell_terms(r, t, n, "the return strike's difficulty (d12 each)", "Presidio Section 5");
		}
		strikes(r, left, out->return_difficulty, in->defender_weapon, in->armor, &out->return_hits,
			&out->return_casualties, "defender");
		if (out->return_casualties > in->figures)
			out->return_casualties = in->figures;
		out->return_specialists_hit = melee_specialists(r, out->return_casualties, in->unit_figures, in->figures,
								in->specialists, in->leader, &out->return_leader_hit,
								"the attackers");
	}
	if (fray_roller_narrating(r)) {
		char text[240];
		snprintf(text, sizeof text, "the defender loses %d figure%s%s; the attacker %d%s. The side "
			 "with casualties checks morale", out->casualties, out->casualties == 1 ? "" : "s",
			 out->leader_hit ? " (its leader among them)" : "", out->return_casualties,
			 out->return_leader_hit ? " (its leader among them)" : "");
		fray_emit_result(r, "melee", out->casualties, text, "Presidio Section 5");
	}
}

FRAY_API void fray_presidio_melee_procedure(fray_roller *r, fray_policy *p, const void *in,
					    int64_t *out)
{
	(void)p;
	fray_presidio_melee_out o;
	fray_presidio_melee(r, in, &o);
	out[0] = o.hits;
	out[1] = o.casualties;
	out[2] = o.return_hits;
	out[3] = o.return_casualties;
	out[4] = o.specialists_hit;
	out[5] = o.leader_hit;
	out[6] = o.return_specialists_hit;
	out[7] = o.return_leader_hit;
}

/* Section 3, Jumping; Section 3, Light Barriers. */
FRAY_API void fray_presidio_jump_procedure(fray_roller *r, fray_policy *p, const void *input,
					   int64_t *out)
{
	(void)p;
	const fray_presidio_jump_in *in = input;
	int lost;
	term t[1];
	int n = 0;
	if (in->light_barrier) {
		/* a 1 on the d6, then a 1 again on the second: the same number */
		add_base(t, &n, 1, "Presidio Section 3, Light Barriers", "a light barrier: a 1, then a 1 again");
		tell_terms(r, t, n, "a horse stumbles on the d6 at or below", "Presidio Section 3, Light Barriers");
		int ones = fray_count_at_most(r, in->horses, 6, 1, "light barrier: horses rolling a 1");
		lost = fray_count_at_most(r, ones, 6, 1, "rolled again: a second 1, the rider falls");
	} else {
		add_base(t, &n, in->expert ? 1 : 4, "Presidio Section 3, Jumping",
			 in->expert ? "expert horsemen: the horse stumbles on a 1" : "not expert: thrown on 4 or less");
		tell_terms(r, t, n, "a rider falls on the d12 at or below", "Presidio Section 3, Jumping");
		lost = fray_count_at_most(r, in->horses, 12, sum_terms(t, n),
					  in->expert ? "fence: horses stumbling (a 1)" : "fence: riders thrown (4 or less)");
	}
	if (fray_roller_narrating(r)) {
		char text[64];
		snprintf(text, sizeof text, "%d rider%s become%s a casualty", lost, lost == 1 ? "" : "s",
			 lost == 1 ? "s" : "");
		fray_emit_result(r, "jump", lost, text, "Presidio Section 3");
	}
	out[0] = lost;
}

/* Section 3, Mounting/Dismounting: odd on a d6 is half the faces. */
FRAY_API void fray_presidio_dismount_procedure(fray_roller *r, fray_policy *p, const void *in,
					       int64_t *out)
{
	(void)p;
	int horses = *(const int *)in;
	out[0] = fray_successes(r, horses, 2, 2, "horses running off (odd on a d6: one chance in two)");
}

/* Section 4, Hidden Movement. */
FRAY_API void fray_presidio_spot_procedure(fray_roller *r, fray_policy *p, const void *in,
					   int64_t *out)
{
	(void)p;
	const int *v = in;
	static const char *const hm = "Presidio Section 4, Hidden Movement";
	int recon = fray_die(r, 6, "recon d6");
	term t[3];
	int n = 0;
	add_base(t, &n, v[0], hm, "the searchers' Recon");
	add_term(t, &n, v[3], "Presidio Section 8, Nighttime Visibility", "the night's Search DM");
	tell_terms(r, t, n, "added to the recon die", hm);
	recon += sum_terms(t, n);
	int camou = fray_die(r, 6, "camou d6");
	n = 0;
	add_base(t, &n, v[1], hm, "the hidden unit's Camou");
	add_term(t, &n, v[2], hm, "its cover benefit");
	tell_terms(r, t, n, "added to the camou die", hm);
	camou += sum_terms(t, n);
	out[0] = recon >= camou;
	if (fray_roller_narrating(r)) {
		char text[96];
		snprintf(text, sizeof text, "recon %d against camou %d: %s", recon, camou,
			 out[0] ? "spotted" : "still hidden");
		fray_emit_result(r, "search", out[0], text, "Presidio Section 4, Hidden Movement");
	}
}

FRAY_API const char *const fray_presidio_status_remaining[6] = {
	"killed", "mortal wound, dies in 1D6 days", "severe wound, disabled and discharged from service",
	"moderate wound, returns to duty in 2D6 weeks", "light wound, returns to duty in 2D6 days",
	"surface wound or stun, returns to duty next day"};
FRAY_API const char *const fray_presidio_status_shattered[6] = {
	"wounded and captured", "wounded and captured", "captured and unharmed",
	"captured and unharmed", "escaped but wounded", "escaped and unharmed"};

FRAY_API const char *const fray_presidio_wound_names[8] = {
	"none", "killed", "mortal wound, dies in 1D6 days", "severe wound, disabled and discharged from service",
	"moderate wound, returns to duty in 2D6 weeks", "light wound, returns to duty in 2D6 days",
	"surface wound or stun, returns to duty next day", "scratched or stunned"};

/* The remaining units' table's own dice for a wound (its row 1-6): 1D6
 * days to death, 2D6 weeks and 2D6 days to duty (issue 14: the light
 * wound was once rolled as 1D6); 0 for the rest. */
static int wound_dice(fray_roller *r, int row)
{
	if (row == 2)
		return fray_die(r, 6, "days to death");
	if (row == 4)
		return fray_die(r, 6, "weeks to duty") + fray_die(r, 6, "weeks to duty");
	if (row == 5)
		return fray_die(r, 6, "days to duty") + fray_die(r, 6, "days to duty");
	return 0;
}

static void tell_wound(fray_roller *r, int row, const char *why)
{
	if (fray_roller_narrating(r)) {
		char text[160];
		snprintf(text, sizeof text, "%s: %s", why, fray_presidio_wound_names[row]);
		fray_emit_note(r, text, "Presidio Section 6, Casualty Status");
	}
}

/* Section 6, Casualty Status. A remaining unit's casualty: the table's
 * row and its own dice. A shattered unit's: its table, then for the
 * wounded and captured (1-2) "1D6: roll for wound status on the chart
 * above, '1'=mortally wounded": the second die read on the remaining
 * units' table, a 1 read as its mortal wound (a captive is not killed),
 * with that row's own dice; for the escapee (5) "1-3 scratched/stunned,
 * 4-6 light wound": the light wound is the table's, 2D6 days to duty
 * (docs/presidio.md). */
FRAY_API void fray_presidio_casualty_status_procedure(fray_roller *r, fray_policy *p,
						      const void *in, int64_t *out)
{
	(void)p;
	bool shattered = *(const bool *)in;
	int first = fray_die(r, 6, shattered ? "shattered unit casualty status" : "casualty status");
	int second = 0, wound = 0, time = 0;
	if (fray_roller_narrating(r))
		fray_emit_result(r, "casualty status", first,
				 shattered ? fray_presidio_status_shattered[first - 1]
					   : fray_presidio_status_remaining[first - 1],
				 "Presidio Section 6, Casualty Status");
	if (!shattered) {
		wound = first;
		second = time = wound_dice(r, wound);
	} else if (first <= 2) {
		second = fray_die(r, 6, "wound status, on the remaining units' table");
		wound = second == 1 ? 2 : second;
		tell_wound(r, wound, second == 1 ? "a 1: mortally wounded" : "the captive's wound");
		time = wound_dice(r, wound);
	} else if (first == 5) {
		second = fray_die(r, 6, "escapee's wound (1-3 scratched or stunned, 4-6 light wound)");
		wound = second <= 3 ? 7 : 5;
		tell_wound(r, wound, "the escapee's wound");
		time = wound_dice(r, wound);
	}
	out[0] = first;
	out[1] = second;
	out[2] = wound;
	out[3] = time;
}

FRAY_API const char *const fray_presidio_mover_names[4] = {"foot", "light", "slow", "mounted"};
FRAY_API const char *const fray_presidio_barrier_names[4] = {"none", "light", "medium", "heavy"};

FRAY_API const char *const fray_presidio_designation_names[3] = {"other", "light", "skirmish"};

static bool two_actions(const fray_presidio_move_in *in)
{
	/* "charging units move at running/galloping speed": skirmishers too,
	 * whose "regular movement even when charging" is never halved
	 * (ruling R43) */
	return in->running || in->charging;
}

/* The terms added to the movement 1D6: the allowance by mover (Section
 * 3), the Move skill "added to the movement die roll" (Section 1), and
 * the inches firing and reloading while moving cost, both "before
 * doubling" (Section 4): firing 1" walking, 2" running; reloading 2" an
 * action. */
static int move_die_terms(const fray_presidio_move_in *in, term *t)
{
	static const int base[4] = {6, 7, 3, 12};
	static const char *const what[4] = {"on foot: 6\" + 1D6", "light and native units: 7\" + 1D6",
					    "one-horse wagons and civilians: 3\" + 1D6", "mounted: 12\" + 1D6"};
	static const char *const rule[4] = {"Presidio Section 3, On Foot", "Presidio Section 3, On Foot",
					    "Presidio Section 3, On Foot", "Presidio Section 3, Mounted"};
	int n = 0;
	add_base(t, &n, base[in->mover], rule[in->mover], what[in->mover]);
	add_term(t, &n, in->skill, "Presidio Section 1, Move skill", "the Move skill");
	if (in->firing)
		add_term(t, &n, two_actions(in) ? -2 : -1, "Presidio Section 4, Fire while Moving",
			 two_actions(in) ? "firing while running (2\", before doubling)"
					 : "firing while walking (1\", before doubling)");
	add_term(t, &n, -2 * in->reloading, "Presidio Section 4, Reloading While Moving",
		 "reloading while moving (2\" an action, before doubling)");
	return n;
}

/* The inches a formation adds after halving: a drummer's 1" to a unit
 * in line (charging or not, the inch is the drummer's); a column on a
 * road 3", a flat 3" after doubling as the drummer's inch (Formations,
 * Column; docs/presidio.md). */
static int move_formation_terms(const fray_presidio_move_in *in, term *t)
{
	int n = 0;
	add_term(t, &n, in->line && in->drummer ? 1 : 0, "Presidio Section 3, Formations, Line",
		 "a drummer with a unit in line (after halving)");
	add_term(t, &n, in->road_column && !in->line ? 3 : 0, "Presidio Section 3, Formations, Column",
		 "a column on a road");
	return n;
}

/* Section 3, Disorder: "Light and Skirmish units can only move ... half". */
static bool disordered_half(const fray_presidio_move_in *in)
{
	return in->disordered && in->designation != FRAY_PRESIDIO_OTHER_UNIT;
}

/* The inches taken off what the unit moves: kneeling 1" and prone 2" a
 * change, turning 2" a face (Formation Maneuvers, Turning), a light
 * barrier 2" (4" mounted). */
static int move_cost_terms(const fray_presidio_move_in *in, term *t)
{
	static const char *const r3 = "Presidio Section 3, Movement Modifications";
	int n = 0;
	add_term(t, &n, -in->kneel_changes, r3, "kneeling or rising from kneeling (1\" each)");
	add_term(t, &n, -2 * in->prone_changes, r3, "going prone or rising from prone (2\" each)");
	/* a moving unit that turns or faces about before or after moving
	 * pays 2" a turn (a march column is refused in
	 * fray_presidio_move_refused) */
	add_term(t, &n, -2 * in->turns, "Presidio Section 3, Formation Maneuvers, Turning",
		 "turning right, left or about (2\" each)");
	if (in->barrier == FRAY_PRESIDIO_LIGHT_BARRIER)
		add_term(t, &n, in->mover == FRAY_PRESIDIO_MOUNTED ? -4 : -2, "Presidio Section 3, Light Barriers",
			 in->mover == FRAY_PRESIDIO_MOUNTED ? "a light barrier, mounted (4\")" : "a light barrier (2\")");
	return n;
}

FRAY_API const char *fray_presidio_move_refused(const fray_presidio_move_in *in)
{
	/* Section 4, Independent Fire: only units designated skirmishers and
	 * light units fire while moving; Fire while Moving is "pending ...
	 * independent fire restrictions" (as Reloading While Moving) */
	if (in->firing && in->designation == FRAY_PRESIDIO_OTHER_UNIT)
		return "firing while moving: only units designated light or skirmish fire while moving (Presidio "
		       "Section 4, Independent Fire): give the designation";
	/* skirmish units "may fight in line formation only until they move"
	 * (Section 3, Formations): a unit moving in line is not firing as
	 * skirmishers, as line units do not reload while moving */
	if (in->firing && in->line)
		return "firing while moving in line: only light and skirmish units fire while moving, and they fight "
		       "in line only until they move (Presidio Section 3, Formations; Section 4, Independent Fire)";
	/* Turning: a moving unit pays 2" for each turn or about face before
	 * or after moving; a march column loses nothing turning right or left,
	 * and skirmishers do not turn (Section 3, Formation Maneuvers) */
	if (in->turns > 0 && in->road_column)
		return "turns and road column: a unit in march column loses no movement turning right or left "
		       "(Presidio Section 3, Formation Maneuvers, Wheel): give no turns";
	/* a disordered unit is placed in a clump (Section 3, Disorder): not a
	 * column on a road */
	if (in->road_column && in->disordered)
		return "road column and disordered: a disordered unit is in a clump, not in column; it reforms first "
		       "(Presidio Section 3, Disorder)";
	return NULL;
}

/* The distance moved before the inches of the formation: the die and its
 * terms (never below 0), doubled for two actions, halved in line except
 * when charging. */
static double move_rate(const fray_presidio_move_in *in, int die)
{
	term t[MAX_TERMS];
	double d = die + sum_terms(t, move_die_terms(in, t));
	if (d < 0)
		d = 0;
	if (two_actions(in))
		d *= 2;
	if (in->line && !in->charging)
		d /= 2;
	return d;
}

/* Section 3: the whole movement, in the text's order (the declaration in
 * presidio.h); medium and heavy barriers halve and quarter what is left
 * after the inches before the barrier (split terrain). Each step is a
 * term told by the procedure below. */
FRAY_API double fray_presidio_move_distance(const fray_presidio_move_in *in, int die)
{
	term t[MAX_TERMS];
	double d = move_rate(in, die) + sum_terms(t, move_formation_terms(in, t));
	if (in->crawling)
		d /= 4;
	if (disordered_half(in))
		d /= 2;
	d += sum_terms(t, move_cost_terms(in, t));
	if (in->barrier >= FRAY_PRESIDIO_MEDIUM_BARRIER) {
		double open = in->before_barrier < d ? in->before_barrier : d;
		if (open < 0)
			open = 0;
		d = open + (d - open) / (in->barrier == FRAY_PRESIDIO_MEDIUM_BARRIER ? 2 : 4);
	}
	return d < 0 ? 0 : d;
}

/* Tells a step that multiplies the distance (no term: a factor). */
static void tell_factor(fray_roller *r, bool applies, const char *text, const char *rule)
{
	if (applies && fray_roller_narrating(r))
		fray_emit_note(r, text, rule);
}

FRAY_API void fray_presidio_move_procedure(fray_roller *r, fray_policy *p, const void *input,
					   int64_t *out)
{
	(void)p;
	const fray_presidio_move_in *in = input;
	term t[MAX_TERMS];
	tell_terms(r, t, move_die_terms(in, t), "added to the movement 1D6", "Presidio Section 3, Movement");
	int die = fray_die(r, 6, "movement 1d6");
	tell_factor(r, in->running, "two actions (running, galloping): x2", "Presidio Section 3, Movement");
	tell_factor(r, in->charging, "charging, at running speed: x2", "Presidio Section 3, Charging");
	tell_factor(r, in->line && !in->charging, "in line: halved", "Presidio Section 3, Formations, Line");
	int n = move_formation_terms(in, t);
	if (n)
		tell_terms(r, t, n, "inches the formation adds", "Presidio Section 3, Formations");
	tell_factor(r, in->crawling, "crawling: a quarter", "Presidio Section 3, Crawling");
	tell_factor(r, disordered_half(in), in->designation == FRAY_PRESIDIO_LIGHT_UNIT
		    ? "a disordered light unit moves at half" : "a disordered skirmish unit moves at half",
		    "Presidio Section 3, Disorder");
	tell_factor(r, in->disordered && !disordered_half(in),
		    "disordered, but neither a light nor a skirmish unit: its usual rate", "Presidio Section 3, Disorder");
	n = move_cost_terms(in, t);
	if (n)
		tell_terms(r, t, n, "inches off the movement", "Presidio Section 3, Movement Modifications");
	tell_factor(r, in->barrier == FRAY_PRESIDIO_MEDIUM_BARRIER,
		    "a medium barrier: what is left past the barrier is halved", "Presidio Section 3, Medium Barriers");
	tell_factor(r, in->barrier == FRAY_PRESIDIO_HEAVY_BARRIER,
		    "a heavy barrier: what is left past the barrier is quartered", "Presidio Section 3, Heavy Barriers");
	double d = fray_presidio_move_distance(in, die);
	out[0] = (int64_t)(d * 4 + 0.5);
	if (fray_roller_narrating(r)) {
		char text[64];
		snprintf(text, sizeof text, "%g\"", (double)out[0] / 4);
		fray_emit_result(r, "moves up to", out[0], text, "Presidio Section 3");
	}
}

/* Firing into Melee (Section 5): from more than 4" the hits fall at random
 * on both sides. fray draws a figure for each hit among those in the
 * melee, a figure hit once not drawn again (docs/presidio.md). */
FRAY_API void fray_presidio_into_melee_procedure(fray_roller *r, fray_policy *p, const void *input,
						 int64_t *out)
{
	(void)p;
	const int *in = input; /* hits, enemy figures, friendly figures */
	unsigned left[2] = {(unsigned)in[1], (unsigned)in[2]};
	out[0] = out[1] = 0;
	for (int h = 0; h < in[0] && left[0] + left[1] > 0; h++) {
		size_t side = fray_draw(r, left, 2, "whose figure is hit");
		left[side]--;
		out[side]++;
	}
}
