/* Bloody Big Battles' dice procedures: the firefight (2d6 on the table),
 * the assault (G6: a die each; R20: a 0 is fought again) and the movement
 * roll (2d6 + modifiers on the movement table). */
#include <stdio.h>
#include <string.h>
#include "../../core/internal.h"
#include <fray/bbb.h>

static int clamp_int(int v, int lo, int hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

static int two_d6(fray_roller *r, const char *what)
{
	return fray_die(r, 6, what) + fray_die(r, 6, what);
}

static bool refuse(fray_roller *r, const char *msg)
{
	fray_roller_fail(r, FRAY_ERR_INPUT, msg);
	return false;
}

/* The firefight's inputs, checked (issue 29: never trusted). */
static bool fire_fits(fray_roller *r, const fray_bbb_fire_in *in, const fray_bbb_fire_out *out)
{
	if (!in || !out)
		return refuse(r, "bbb fire: no input or output (NULL)");
	if (!(in->firepower >= 0 && in->firepower <= 1e6))
		return refuse(r, "bbb fire: the fire power must be a number from 0 to 1000000");
	if (in->shift < -100 || in->shift > 100)
		return refuse(r, "bbb fire: a column shift of -100 to 100");
	if ((unsigned)in->target > FRAY_BBB_ARTILLERY || (unsigned)in->training > FRAY_BBB_VETERAN)
		return refuse(r, "bbb fire: the target's arm or training is out of range");
	if (in->target_bases < 0 || in->target_bases > 999)
		return refuse(r, "bbb fire: the target's bases must be 0 to 999");
	if (in->cover < 0 || in->cover > 3 || (unsigned)in->terrain > FRAY_BBB_FORT)
		return refuse(r, "bbb fire: the target's cover must be 0 to 3, its terrain other, town or fort");
	fray_bbb_markers m = {.silenced = in->firer_silenced, .low_ammo_instead = in->firer_low_ammo_instead};
	const char *why = fray_bbb_fire_refused(m);
	return why ? refuse(r, why) : true;
}

/* Silenced Artillery: "A Silenced Artillery unit may not fire"; one in a
 * Fortification that took Low Ammo instead "may not fire until its Low
 * Ammo marker is removed". */
FRAY_API const char *fray_bbb_fire_refused(fray_bbb_markers m)
{
	if (m.silenced)
		return "a Silenced gun may not fire (BBB sheet, Silenced Artillery)";
	if (m.low_ammo_instead)
		return "a gun that took Low Ammo instead of Silenced may not fire until that marker is removed (BBB "
		       "sheet, Silenced Artillery)";
	return NULL;
}

/* Sequence of Play: each player fires at and assaults the other player's
 * units; the sheet never has a unit fire at or assault its own side. */
FRAY_API const char *fray_bbb_target_refused(bool same_side)
{
	return same_side ? "a unit fires at and assaults the enemy's units only (BBB Sequence of Play)" : NULL;
}

/* Silenced Artillery: "Artillery in Fortifications that becomes Silenced
 * may, at the owning player's option, be given a Low Ammo marker instead". */
FRAY_API const char *fray_bbb_low_ammo_instead_refused(fray_bbb_arm arm, bool in_fortification)
{
	if (arm != FRAY_BBB_ARTILLERY)
		return "only artillery is Silenced, and only a gun may take Low Ammo instead (BBB sheet, Silenced "
		       "Artillery)";
	if (!in_fortification)
		return "only a gun in a Fortification may take Low Ammo instead of Silenced (BBB sheet, Silenced "
		       "Artillery)";
	return NULL;
}

/* Firefight Result / Effect: an "advancing unit Halted". In the Sequence
 * of Play a unit moves, takes the enemy's Defensive Fire, then assaults:
 * a unit halted while advancing has stopped short, and does not assault
 * this turn (fray's reading, docs/rulings.md). */
FRAY_API const char *fray_bbb_assault_refused(fray_bbb_markers m)
{
	return m.halted ? "it was Halted by fire while advancing: its advance has stopped, and it does not "
			  "assault this turn (BBB Firefight Result / Effect)"
			: NULL;
}

/* "Silenced marker is removed at end of Movement phase" (Silenced
 * Artillery): the gun's own movement (in which it must retire) is over
 * (issue 40: the marker once came off at the turn's end, before the
 * movement of a gun silenced by the enemy's Defensive Fire). */
FRAY_API fray_bbb_markers fray_bbb_markers_after_move(fray_bbb_markers m)
{
	m.silenced = false;
	return m;
}

/* A halt stops the advance of the turn it comes in; Disrupted, Low on
 * Ammo, Silenced (until the unit's movement) and a gun's Low Ammo instead
 * of Silenced stay. */
FRAY_API fray_bbb_markers fray_bbb_markers_at_turn_end(fray_bbb_markers m)
{
	m.halted = false;
	return m;
}

/* Result / Effect, read with R19: the result does nothing to a target
 * above the training it names; artillery is Silenced (and Reduced on a 1,
 * destroyed on a 2 or 3), infantry and cavalry Disrupted and lose the
 * result's bases; an advancing unit is Halted. */
FRAY_API fray_bbb_effect_of fray_bbb_result_effect(fray_bbb_result res, fray_bbb_arm target,
						   fray_bbb_training t, bool advancing, int bases)
{
	fray_bbb_effect_of e = {0};
	if (res <= FRAY_BBB_NONE || res > FRAY_BBB_3 || (unsigned)target > FRAY_BBB_ARTILLERY ||
	    !fray_bbb_result_reaches(res, t))
		return e;
	e.halted = advancing;
	if (target == FRAY_BBB_ARTILLERY) {
		e.destroyed = res >= FRAY_BBB_2;
		e.bases_lost = e.destroyed ? bases : 0;
		e.silenced = !e.destroyed;
		e.reduced = res == FRAY_BBB_1;
		e.halted = advancing && !e.destroyed && res <= FRAY_BBB_V;
		return e;
	}
	int lose = res >= FRAY_BBB_1 ? (int)res - (int)FRAY_BBB_1 + 1 : 0;
	e.bases_lost = bases > 0 && lose > bases ? bases : lose;
	e.destroyed = bases > 0 && lose >= bases;
	e.disrupted = !e.destroyed;
	e.halted = advancing && !e.destroyed;
	return e;
}

/* Terrain Table: Town "Cover worth 2 Left", Fort "Cover worth 3 Left" (and
 * -2, -3 against the attacker: the same cover in an assault); "Cavalry and
 * Artillery never count cover against fire or assault except in
 * Fortifications or behind a Bridge or Linear Obstacle": a fort is a
 * Fortification, a town is not. */
FRAY_API int fray_bbb_cover_counted(fray_bbb_arm arm, int cover, fray_bbb_terrain terrain, bool fortified)
{
	static const int of_terrain[3] = {0, 2, 3};
	int c = (unsigned)terrain <= FRAY_BBB_FORT && of_terrain[terrain] > cover ? of_terrain[terrain] : cover;
	if (arm != FRAY_BBB_INFANTRY && !fortified && terrain != FRAY_BBB_FORT)
		return 0;
	return c;
}

/* Assault Modifiers: "Defender in cover (see Terrain Table) -1 to -6".
 * No one terrain of the Terrain Table's assault column gives more than -3
 * (a fort), so the -6 is reached only by adding them up (a fort on a steep
 * slope behind a stream: -3 -2 -1): in an assault the covers add, to -6
 * at most; the cover given (slopes, streams, works) adds to a town's or a
 * fort's (issue 40; docs/rulings.md). Cavalry and artillery count none
 * but fortified, as in fire. */
FRAY_API int fray_bbb_assault_cover_counted(fray_bbb_arm arm, int cover, fray_bbb_terrain terrain, bool fortified)
{
	static const int of_terrain[3] = {0, 2, 3};
	if (arm != FRAY_BBB_INFANTRY && !fortified && terrain != FRAY_BBB_FORT)
		return 0;
	int c = cover + ((unsigned)terrain <= FRAY_BBB_FORT ? of_terrain[terrain] : 0);
	return c < 6 ? c : 6;
}

/* Tells the cover that counts (counted: fire's or the assault's), or
 * that it does not (cavalry, artillery). */
static void tell_cover(fray_roller *r, const char *who, int counted, int cover, fray_bbb_terrain terrain,
		       const char *rule)
{
	static const char *const where[3] = {"", " (a town: 2)", " (a fort: 3)"};
	static const char *const added[3] = {"", " (a town's 2 and the cover given)",
					     " (a fort's 3 and the cover given)"};
	if (!fray_roller_narrating(r))
		return;
	char what[64];
	bool terrain_counts = (unsigned)terrain <= FRAY_BBB_FORT && counted > cover;
	snprintf(what, sizeof what, "%s in cover%s", who,
		 !terrain_counts ? "" : cover > 0 ? added[terrain] : where[terrain]);
	if (counted)
		fray_emit_modifier(r, what, -counted, rule);
	else if (cover || terrain)
		fray_emit_note(r, "cover ignored: cavalry and artillery count cover only in Fortifications or behind a "
			       "Bridge or Linear Obstacle", "BBB Terrain Table note");
}

/* The Firefight: column from the firepower (R18), shifted and clamped;
 * 2d6 picks the row. The column is told term by term: the firepower's
 * column, the shifts, the table's edge, then the column read. */
FRAY_API void fray_bbb_fire(fray_roller *r, const fray_bbb_fire_in *in, fray_bbb_fire_out *out)
{
	if (out)
		*out = (fray_bbb_fire_out){0};
	if (!fire_fits(r, in, out))
		return;
	out->base_col = fray_bbb_fire_column(in->firepower);
	int shift = in->shift - fray_bbb_cover_counted(in->target, in->cover, in->terrain, in->fortified);
	out->col = clamp_int(out->base_col + shift, 0, FRAY_BBB_FIRE_COLS - 1);
	if (fray_roller_narrating(r)) {
		char text[96];
		snprintf(text, sizeof text, "column for firepower %g", in->firepower);
		fray_emit_modifier(r, text, out->base_col + 1, "BBB The Firefight, ruling R18");
		if (in->shift)
			fray_emit_modifier(r, "column shifts", in->shift, "BBB The Firefight: Column Shifts");
		tell_cover(r, "target", fray_bbb_cover_counted(in->target, in->cover, in->terrain, in->fortified),
			   in->cover, in->terrain, "BBB The Firefight: Column Shifts (Terrain Table)");
		if (out->col != out->base_col + shift)
			fray_emit_modifier(r, "the table's edge", out->col - out->base_col - shift, "ruling R18");
		fray_emit_total(r, "firefight column", out->col + 1, "BBB The Firefight, ruling R18");
	}
	out->roll = two_d6(r, "firefight 2d6");
	out->result = fray_bbb_fire_cell(out->roll, out->col, &out->low_ammo);
	out->effect = fray_bbb_result_effect(out->result, in->target, in->training, in->advancing, in->target_bases);
	if (fray_roller_narrating(r)) {
		char effect[160], text[256];
		fray_bbb_effect(out->result, in->target, in->training, in->advancing, effect, sizeof effect);
		snprintf(text, sizeof text, "%s: %s", fray_bbb_result_names[out->result], effect);
		fray_emit_result(r, "firefight", out->result, text, "BBB The Firefight, ruling R19");
		if (out->low_ammo)
			fray_emit_result(r, "firer", 1, "Low on Ammo (rolled 11 or 12)", "BBB The Firefight *");
	}
}

FRAY_API void fray_bbb_fire_procedure(fray_roller *r, fray_policy *p, const void *in, int64_t *out)
{
	(void)p;
	fray_bbb_fire_out o;
	fray_bbb_fire(r, in, &o);
	out[0] = o.result;
	out[1] = o.low_ammo;
	out[2] = o.effect.bases_lost;
	out[3] = o.effect.disrupted;
	out[4] = o.effect.silenced;
	out[5] = o.effect.reduced;
	out[6] = o.effect.destroyed;
	out[7] = o.effect.halted;
}

FRAY_API int fray_bbb_numbers(int a, int b)
{
	if (a >= 3 * b) return 3;
	if (a >= 2 * b) return 2;
	if (2 * a >= 3 * b) return 1;
	return 0;
}

static int advantages(const fray_bbb_assault_side *s)
{
	return s->aggressive + s->in_depth;
}

static int penalties(const fray_bbb_assault_side *s)
{
	return (s->disrupted || s->silenced) + s->low_ammo + s->fragile + 2 * s->spent;
}

FRAY_API int fray_bbb_assault_modifier(const fray_bbb_assault_in *in, int att_bases, int def_bases)
{
	if (!in)
		return 0;
	int m = -fray_bbb_assault_cover_counted(in->defender.arm, in->cover, in->terrain, in->fortified) +
		(in->outflanked ? 2 : 0);
	m += advantages(&in->attacker) + fray_bbb_numbers(att_bases, def_bases);
	m -= advantages(&in->defender) + fray_bbb_numbers(def_bases, att_bases);
	m -= penalties(&in->attacker);
	m += penalties(&in->defender);
	return m;
}

/* The assault modifiers one by one, as the sheet lists them, each signed
 * as it counts for the attacker; their sum is fray_bbb_assault_modifier
 * (the test in test_bbb.c adds them up from the story). */
static void narrate_assault_modifiers(fray_roller *r, const fray_bbb_assault_in *in, int ab, int db)
{
	static const char rule[] = "BBB Assault Modifiers";
	const fray_bbb_assault_side *side[2] = {&in->attacker, &in->defender};
	static const char *const who[2] = {"attacker", "defender"};
	char what[80];
	tell_cover(r, "defender", fray_bbb_assault_cover_counted(in->defender.arm, in->cover, in->terrain, in->fortified),
		   in->cover, in->terrain, rule);
	if (in->outflanked)
		fray_emit_modifier(r, "defender outflanked", 2, rule);
	for (int i = 0; i < 2; i++) {
		int sign = i == 0 ? 1 : -1; /* advantages: the attacker adds, the defender subtracts */
		int numbers = i == 0 ? fray_bbb_numbers(ab, db) : fray_bbb_numbers(db, ab);
		static const char *const ratio[4] = {"", "3:2", "2:1", "3:1"};
		if (numbers) {
			snprintf(what, sizeof what, "%s's numerical advantage (%s)", who[i], ratio[numbers]);
			fray_emit_modifier(r, what, sign * numbers, rule);
		}
		const struct { bool on; const char *name; int by; } terms[] = {
			{side[i]->aggressive, "aggressive", 1}, {side[i]->in_depth, "in depth", 1},
			{side[i]->disrupted || side[i]->silenced, side[i]->silenced && !side[i]->disrupted
				? "silenced" : "disrupted (or silenced)", -1},
			{side[i]->low_ammo, "low on ammo", -1},
			{side[i]->fragile, "fragile", -1}, {side[i]->spent, "spent", -2},
		};
		for (size_t t = 0; t < sizeof terms / sizeof terms[0]; t++)
			if (terms[t].on) { /* penalties: the attacker subtracts, the defender adds */
				snprintf(what, sizeof what, "%s %s", who[i], terms[t].name);
				fray_emit_modifier(r, what, sign * terms[t].by, rule);
			}
	}
}

/* The assault's inputs, checked (issue 29). */
static bool assault_fits(fray_roller *r, const fray_bbb_assault_in *in, const fray_bbb_assault_out *out)
{
	if (!in || !out)
		return refuse(r, "bbb assault: no input or output (NULL)");
	if (in->attacker.bases < 1 || in->attacker.bases > 999 || in->defender.bases < 1 || in->defender.bases > 999)
		return refuse(r, "bbb assault: each side needs 1 to 999 bases (a unit with none is destroyed)");
	if ((unsigned)in->attacker.arm > FRAY_BBB_ARTILLERY || (unsigned)in->defender.arm > FRAY_BBB_ARTILLERY)
		return refuse(r, "bbb assault: an arm out of range");
	if (in->cover < 0 || in->cover > 6 || (unsigned)in->terrain > FRAY_BBB_FORT)
		return refuse(r, "bbb assault: the defender's cover must be 0 to 6, its terrain other, town or fort");
	if (!(in->dice == 0 && in->sides == 0) && (in->dice < 1 || in->dice > 4 || in->sides < 2 || in->sides > 20))
		return refuse(r, "bbb assault: the assault dice must be 1 to 4 dice of 2 to 20 sides (ruling G6)");
	return true;
}

/* After a fight a side is Disrupted, a gun Silenced instead (Result /
 * Effect: guns Silenced where infantry and cavalry are Disrupted; issue
 * 28 item 12); the penalty counts either once. */
static void mark_after(fray_bbb_assault_side *s, bool marked)
{
	if (!marked)
		return;
	if (s->arm == FRAY_BBB_ARTILLERY)
		s->silenced = true;
	else
		s->disrupted = true;
}

/* Losses of a band: [attacker, defender] bases. */
static const int band_loss[7][2] = {{0, 2}, {0, 1}, {0, 0}, {1, 1}, {0, 0}, {1, 0}, {2, 0}};

/* An assault between two dice, as exact odds keep it (fray_checkpoint):
 * what is left of both units, the fights fought, and the dice of the
 * fight under way. int16_t throughout: no padding, equal states equal
 * bytes. */
typedef struct assault_state {
	int16_t ab, db;                 /* bases left */
	int16_t fights, alost, dlost;   /* out's counts so far */
	int16_t rolled, asum, dsum;     /* the fight under way: dice rolled, each side's sum */
	int16_t adis, asil, ddis, dsil; /* the marks after the fights so far */
} assault_state;

/* G6: each side rolls its dice; final difference = attacker's dice and
 * modifiers less the defender's. After each fight both sides are
 * Disrupted, but the attacker on a +7 and the defender on a -7 or less:
 * the table names those two exceptions, so the rule is the rest (issue
 * 14). R20: a 0 costs each side a base and is fought again at once with
 * the modifiers recomputed (numbers change, and both are Disrupted now);
 * a unit with no bases left is destroyed.
 *
 * staged (the procedure's exact odds): before each die but the first the
 * assault stops at a checkpoint whose stage is the number of dice rolled,
 * so paths to the same sums merge and the enumerator's depth limit,
 * 2 x dice x fights, counts fights (issue 40 item 7: configured dice made
 * the limit count pairs of dice and the walk explode). */
static void assault_run(fray_roller *r, const fray_bbb_assault_in *in, fray_bbb_assault_out *out, bool staged)
{
	if (out)
		*out = (fray_bbb_assault_out){0};
	if (!assault_fits(r, in, out))
		return;
	fray_bbb_assault_in now = *in;
	/* G6: configurable; the default said so */
	bool dflt = in->dice == 0 && in->sides == 0;
	int dice = dflt ? FRAY_BBB_ASSAULT_DICE : in->dice, sides = dflt ? FRAY_BBB_ASSAULT_SIDES : in->sides;
	assault_state st;
	memset(&st, 0, sizeof st);
	if (staged && fray_resume(r, &st, sizeof st)) {
		now.attacker.disrupted = st.adis, now.attacker.silenced = st.asil;
		now.defender.disrupted = st.ddis, now.defender.silenced = st.dsil;
		out->fights = st.fights, out->attacker_lost = st.alost, out->defender_lost = st.dlost;
	} else {
		st.ab = (int16_t)in->attacker.bases, st.db = (int16_t)in->defender.bases;
		st.adis = in->attacker.disrupted, st.asil = in->attacker.silenced;
		st.ddis = in->defender.disrupted, st.dsil = in->defender.silenced;
		if (fray_roller_narrating(r)) {
			char text[128];
			snprintf(text, sizeof text, "each side rolls %dd%d%s", dice, sides,
				 dflt ? " (ruling G6's default: no assault dice were given)"
				      : " (the assault dice given)");
			fray_emit_note(r, text, "ruling G6");
		}
	}
	bool rolled_here = false; /* a die rolled in this run: a checkpoint may follow */
	for (;;) {
		int ab = st.ab, db = st.db;
		int mod = fray_bbb_assault_modifier(&now, ab, db);
		if (st.rolled == 0 && fray_roller_narrating(r)) {
			char text[80];
			snprintf(text, sizeof text, "assault %d: %d bases against %d", out->fights + 1, ab, db);
			fray_emit_note(r, text, out->fights ? "ruling R20" : "BBB Assault");
			narrate_assault_modifiers(r, &now, ab, db);
			fray_emit_total(r, "assault modifiers (attacker's net)", mod, "BBB Assault Modifiers");
		}
		while (st.rolled < 2 * dice) {
			uint64_t stage = (uint64_t)(st.fights * 2 * dice + st.rolled);
			if (staged && rolled_here && fray_checkpoint(r, stage, &st, sizeof st))
				return;
			rolled_here = true;
			bool attacker = st.rolled < dice;
			int face = fray_die(r, sides, attacker ? "attacker's die" : "defender's die");
			*(attacker ? &st.asum : &st.dsum) += (int16_t)face;
			st.rolled++;
		}
		out->fights++;
		out->diff = st.asum - st.dsum + mod;
		out->band = fray_bbb_assault_band_of(out->diff);
		int la = band_loss[out->band][0], ld = band_loss[out->band][1];
		out->attacker_lost += la < ab ? la : ab;
		out->defender_lost += ld < db ? ld : db;
		ab -= la;
		db -= ld;
		if (fray_roller_narrating(r)) {
			char text[300];
			snprintf(text, sizeof text, "%+d: %s", out->diff,
				 fray_bbb_assault_band_text[out->band]);
			fray_emit_result(r, "final difference", out->diff, text, "BBB Assault Table, ruling G6");
		}
		out->attacker_destroyed = ab <= 0;
		out->defender_destroyed = db <= 0;
		mark_after(&now.attacker, out->band != FRAY_BBB_A_PLUS7);
		mark_after(&now.defender, out->band != FRAY_BBB_A_MINUS7);
		out->attacker_disrupted = now.attacker.disrupted;
		out->defender_disrupted = now.defender.disrupted;
		out->attacker_silenced = now.attacker.silenced;
		out->defender_silenced = now.defender.silenced;
		if (out->attacker_destroyed || out->defender_destroyed) {
			fray_emit_note(r, out->attacker_destroyed && out->defender_destroyed
					       ? "both units have no bases left: destroyed"
					       : out->attacker_destroyed ? "the attacker has no bases left: destroyed"
									 : "the defender has no bases left: destroyed",
				       "ruling R20");
			return;
		}
		/* every 0 costs both sides a base, so the loop ends; under
		 * enumeration its depth limit cuts it and reports the rest */
		if (out->band != FRAY_BBB_A_ZERO || fray_roller_stopped(r))
			return;
		st = (assault_state){.ab = (int16_t)ab, .db = (int16_t)db, .fights = (int16_t)out->fights,
				     .alost = (int16_t)out->attacker_lost, .dlost = (int16_t)out->defender_lost,
				     .adis = now.attacker.disrupted, .asil = now.attacker.silenced,
				     .ddis = now.defender.disrupted, .dsil = now.defender.silenced};
	}
}

FRAY_API void fray_bbb_assault(fray_roller *r, const fray_bbb_assault_in *in,
			       fray_bbb_assault_out *out)
{
	assault_run(r, in, out, false);
}

FRAY_API void fray_bbb_assault_procedure(fray_roller *r, fray_policy *p, const void *in,
					 int64_t *out)
{
	(void)p;
	fray_bbb_assault_out o;
	assault_run(r, in, &o, true);
	out[0] = o.attacker_destroyed && o.defender_destroyed ? 9
		 : o.attacker_destroyed ? 7 : o.defender_destroyed ? 8 : (int64_t)o.band;
	out[1] = o.attacker_lost;
	out[2] = o.defender_lost;
	out[3] = o.attacker_disrupted && !o.attacker_destroyed;
	out[4] = o.defender_disrupted && !o.defender_destroyed;
	out[5] = o.attacker_silenced && !o.attacker_destroyed;
	out[6] = o.defender_silenced && !o.defender_destroyed;
}

/* MOVEMENT MODIFIERS. Passive only for good order, fragile only for
 * disrupted units, as the sheet says. */
FRAY_API int fray_bbb_move_modifier(const fray_bbb_move_in *in)
{
	if (!in)
		return 0;
	int m = in->command + in->column;
	if (in->passive && !in->disrupted)
		m -= 1;
	if (in->fragile && in->disrupted)
		m -= 1;
	m -= in->difficult;
	m -= 2 * in->spent;
	return m;
}

FRAY_API bool fray_bbb_move_recovers(const fray_bbb_move_in *in, int total)
{
	static const int need[3] = {11, 10, 9};
	return in && (unsigned)in->training <= FRAY_BBB_VETERAN && !in->disrupted && total >= need[in->training];
}

/* The movement table's rows: 11+, 10, 9, 7-8, 5-6, 2-4, 0-1, -1 or less. */
enum { ROW_RALLY = 4, ROW_LOSE = 6, ROW_WORST = 7 };

/* What the row does to the unit (MOVEMENT TABLE): good order recovers a
 * base it has lost (Recover 1) and on -1 or less is DISRUPTED; a disrupted
 * unit rallies in place on 5-6, loses a base on 0-1 and is BROKEN on -1
 * or less. */
static void move_effect(const fray_bbb_move_in *in, fray_bbb_move_out *out)
{
	bool known = in->start_bases > 0;
	out->disrupted = in->disrupted;
	if (!in->disrupted) {
		if (out->recovers && known && in->bases >= in->start_bases)
			out->recovers = false; /* nothing lost: nothing to recover */
		out->bases_change = out->recovers;
		out->disrupted = out->row == ROW_WORST;
		return;
	}
	if (out->row == ROW_RALLY)
		out->disrupted = false;
	else if (out->row == ROW_LOSE)
		out->bases_change = -1;
	else if (out->row == ROW_WORST)
		out->broken = true;
}

FRAY_API void fray_bbb_move(fray_roller *r, const fray_bbb_move_in *in, fray_bbb_move_out *out)
{
	if (out)
		*out = (fray_bbb_move_out){0};
	if (!in || !out || (unsigned)in->training > FRAY_BBB_VETERAN || in->bases < 0 || in->start_bases < 0 ||
	    in->bases > 999 || in->start_bases > 999) {
		refuse(r, "bbb move: no input or output (NULL), or a training or bases out of range");
		return;
	}
	int mod = fray_bbb_move_modifier(in);
	if (fray_roller_narrating(r)) { /* one by one, as the sheet lists them */
		static const char rule[] = "BBB Movement Modifiers";
		const struct { bool on; const char *what; int by; } terms[] = {
			{in->command, "in command radius", 1},
			{in->column, "in column of march or limbered", 1},
			{in->passive && !in->disrupted, "passive (good order only)", -1},
			{in->fragile && in->disrupted, "fragile (disrupted only)", -1},
			{in->difficult, "in difficult terrain", -1},
			{in->spent, "spent", -2},
		};
		for (size_t t = 0; t < sizeof terms / sizeof terms[0]; t++)
			if (terms[t].on)
				fray_emit_modifier(r, terms[t].what, terms[t].by, rule);
		fray_emit_total(r, "movement modifiers", mod, rule);
	}
	out->roll = two_d6(r, "movement 2d6");
	out->total = out->roll + mod;
	out->row = fray_bbb_move_row(out->total);
	out->recovers = fray_bbb_move_recovers(in, out->total);
	move_effect(in, out);
	if (fray_roller_narrating(r)) {
		char text[160];
		snprintf(text, sizeof text, "%s%s",
			 in->disrupted ? fray_bbb_move_disrupted[out->row]
				       : out->row <= 2 ? "Full move" : fray_bbb_move_good_order[out->row],
			 out->recovers ? "; recovers 1 base" : "");
		fray_emit_result(r, in->disrupted ? "disrupted unit" : "good order unit", out->total,
				 text, "BBB Movement Table");
	}
}

FRAY_API void fray_bbb_move_procedure(fray_roller *r, fray_policy *p, const void *in, int64_t *out)
{
	(void)p;
	fray_bbb_move_out o;
	fray_bbb_move(r, in, &o);
	out[0] = o.row;
	out[1] = o.recovers;
	out[2] = o.bases_change;
	out[3] = o.disrupted;
	out[4] = o.broken;
}

/* Full Move Allowance and Movement Penalties; a road doubles the speed
 * only of units in column of march or limbered (TERRAIN TABLE, "Only if in
 * Column of March or Limbered"); a formation change and a limber or
 * unlimber each cost half a move (MOVEMENT: half the full allowance, a
 * choice where the sheet is terse). Terrain penalties never take a move in
 * the front arc below 3". */
FRAY_API int fray_bbb_allowance(const fray_bbb_allowance_in *in)
{
	if (!in)
		return 0;
	bool heavy = in->arm != FRAY_BBB_INFANTRY && !in->general; /* cav/art */
	int full = in->general || in->arm == FRAY_BBB_CAVALRY ? 18 : 12;
	int base = in->road && in->column ? 2 * full : full;
	base -= in->changes * full / 2;
	int terrain = (in->difficult ? (heavy ? 6 : 3) : 0) + in->obstacles * (heavy ? 6 : 3);
	int move = base - terrain;
	/* the floor only stops terrain taking the move below 3": a move
	 * already under 3" without the terrain keeps what it had (issue 28
	 * item 13: 0" stayed 0", not 3") */
	int floor = base < 3 ? base : 3;
	if (!in->outside_front_arc && terrain > 0 && move < floor)
		move = floor;
	if (in->outside_front_arc)
		move -= 3;
	return move < 0 ? 0 : move;
}

FRAY_API int fray_bbb_cut_groups(int *count, const bool *per_unit, int n, int bases_now)
{
	int bases = 0;
	if (!count || n < 0)
		return 0;
	for (int k = 0; k < n; k++)
		bases += per_unit && per_unit[k] ? 0 : count[k] > 0 ? count[k] : 0;
	while (bases > bases_now && bases > 0) {
		int most = -1;
		for (int k = 0; k < n; k++)
			if (!(per_unit && per_unit[k]) && (most < 0 || count[k] >= count[most]))
				most = k;
		count[most]--;
		bases--;
	}
	return bases;
}
