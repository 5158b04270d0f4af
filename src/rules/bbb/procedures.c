/* Bloody Big Battles' dice procedures: the firefight (2d6 on the table),
 * the assault (G6: a die each; R20: a 0 is fought again) and the movement
 * roll (2d6 + modifiers on the movement table). */
#include <stdio.h>
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

/* The Firefight: column from the firepower (R18), shifted and clamped;
 * 2d6 picks the row. */
FRAY_API void fray_bbb_fire(fray_roller *r, const fray_bbb_fire_in *in, fray_bbb_fire_out *out)
{
	out->base_col = fray_bbb_fire_column(in->firepower);
	out->col = clamp_int(out->base_col + in->shift, 0, FRAY_BBB_FIRE_COLS - 1);
	if (fray_roller_narrating(r)) {
		char text[96];
		snprintf(text, sizeof text, "firepower %g: column %d", in->firepower, out->base_col + 1);
		fray_emit_note(r, text, "BBB The Firefight, ruling R18");
		if (in->shift) {
			fray_emit_modifier(r, "column shifts", in->shift, "BBB The Firefight: Column Shifts");
			snprintf(text, sizeof text, "column %d%s", out->col + 1,
				 out->col != out->base_col + in->shift ? " (the table's edge)" : "");
			fray_emit_note(r, text, "ruling R18");
		}
	}
	out->roll = two_d6(r, "firefight 2d6");
	out->result = fray_bbb_fire_cell(out->roll, out->col, &out->low_ammo);
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
	return s->disrupted + s->low_ammo + s->fragile + 2 * s->spent;
}

FRAY_API int fray_bbb_assault_modifier(const fray_bbb_assault_in *in, int att_bases, int def_bases)
{
	int m = -in->cover + (in->outflanked ? 2 : 0);
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
	if (in->cover)
		fray_emit_modifier(r, "defender in cover", -in->cover, rule);
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
			{side[i]->disrupted, "disrupted (or silenced)", -1}, {side[i]->low_ammo, "low on ammo", -1},
			{side[i]->fragile, "fragile", -1}, {side[i]->spent, "spent", -2},
		};
		for (size_t t = 0; t < sizeof terms / sizeof terms[0]; t++)
			if (terms[t].on) { /* penalties: the attacker subtracts, the defender adds */
				snprintf(what, sizeof what, "%s %s", who[i], terms[t].name);
				fray_emit_modifier(r, what, sign * terms[t].by, rule);
			}
	}
}

/* Losses of a band: [attacker, defender] bases. */
static const int band_loss[7][2] = {{0, 2}, {0, 1}, {0, 0}, {1, 1}, {0, 0}, {1, 0}, {2, 0}};

/* G6: each side rolls a die; final difference = attacker's die and
 * modifiers less the defender's. After each fight both sides are
 * Disrupted, but the attacker on a +7 and the defender on a -7 or less:
 * the table names those two exceptions, so the rule is the rest (issue
 * 14). R20: a 0 costs each side a base and is fought again at once with
 * the modifiers recomputed (numbers change, and both are Disrupted now);
 * a unit with no bases left is destroyed. */
FRAY_API void fray_bbb_assault(fray_roller *r, const fray_bbb_assault_in *in,
			       fray_bbb_assault_out *out)
{
	int ab = in->attacker.bases, db = in->defender.bases;
	*out = (fray_bbb_assault_out){0};
	fray_bbb_assault_in now = *in;
	for (;;) {
		int mod = fray_bbb_assault_modifier(&now, ab, db);
		if (fray_roller_narrating(r)) {
			char text[80];
			snprintf(text, sizeof text, "assault %d: %d bases against %d", out->fights + 1, ab, db);
			fray_emit_note(r, text, out->fights ? "ruling R20" : "BBB Assault");
			narrate_assault_modifiers(r, &now, ab, db);
			snprintf(text, sizeof text, "assault modifiers: %+d in all (attacker's net)", mod);
			fray_emit_note(r, text, "BBB Assault Modifiers");
		}
		int a = fray_die(r, 6, "attacker's die"), d = fray_die(r, 6, "defender's die");
		out->fights++;
		out->diff = a - d + mod;
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
		now.attacker.disrupted |= out->band != FRAY_BBB_A_PLUS7;
		now.defender.disrupted |= out->band != FRAY_BBB_A_MINUS7;
		out->attacker_disrupted = now.attacker.disrupted;
		out->defender_disrupted = now.defender.disrupted;
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
	}
}

FRAY_API void fray_bbb_assault_procedure(fray_roller *r, fray_policy *p, const void *in,
					 int64_t *out)
{
	(void)p;
	fray_bbb_assault_out o;
	fray_bbb_assault(r, in, &o);
	out[0] = o.attacker_destroyed && o.defender_destroyed ? 9
		 : o.attacker_destroyed ? 7 : o.defender_destroyed ? 8 : (int64_t)o.band;
	out[1] = o.attacker_lost;
	out[2] = o.defender_lost;
	out[3] = o.attacker_disrupted && !o.attacker_destroyed;
	out[4] = o.defender_disrupted && !o.defender_destroyed;
}

/* MOVEMENT MODIFIERS. Passive only for good order, fragile only for
 * disrupted units, as the sheet says. */
FRAY_API int fray_bbb_move_modifier(const fray_bbb_move_in *in)
{
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
	return !in->disrupted && total >= need[in->training];
}

FRAY_API void fray_bbb_move(fray_roller *r, const fray_bbb_move_in *in, fray_bbb_move_out *out)
{
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
	}
	out->roll = two_d6(r, "movement 2d6");
	out->total = out->roll + mod;
	out->row = fray_bbb_move_row(out->total);
	out->recovers = fray_bbb_move_recovers(in, out->total);
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
}

/* Full Move Allowance and Movement Penalties; a road doubles the speed
 * only of units in column of march or limbered (TERRAIN TABLE, "Only if in
 * Column of March or Limbered"); a formation change and a limber or
 * unlimber each cost half a move (MOVEMENT: half the full allowance, a
 * choice where the sheet is terse). Terrain penalties never take a move in
 * the front arc below 3". */
FRAY_API int fray_bbb_allowance(const fray_bbb_allowance_in *in)
{
	bool heavy = in->arm != FRAY_BBB_INFANTRY && !in->general; /* cav/art */
	int full = in->general || in->arm == FRAY_BBB_CAVALRY ? 18 : 12;
	int base = in->road && in->column ? 2 * full : full;
	base -= in->changes * full / 2;
	int terrain = (in->difficult ? (heavy ? 6 : 3) : 0) + in->obstacles * (heavy ? 6 : 3);
	int move = base - terrain;
	if (!in->outside_front_arc && terrain > 0 && move < 3)
		move = 3;
	if (in->outside_front_arc)
		move -= 3;
	return move < 0 ? 0 : move;
}
