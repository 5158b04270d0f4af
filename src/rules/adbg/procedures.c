/* ADBG rule 19's dice procedures: fire (19.2.1), movement (19.2.2), melee
 * on the CRT (19.2.3), recovery (19.2.4) and battle rounds (19.1). Each
 * decision of the die is one event against a target, so exact odds branch
 * on hit / miss, not on six faces, and on each distinct melee result. */
#include <stdio.h>
#include "adbg_internal.h"

/* Each roll is told once (BRIEF "Told terms"): the terms of its target
 * number as MODIFIERs, each followed by its TOTAL; the die as its ROLL,
 * whose "needs k or less" is the one comparison; then the RESULT, with the
 * modified DR when a modifier changed it and the reason when a natural 1
 * or 6 overrode it. Nothing is built unless the roller narrates: the
 * battle's exact odds and simulations run these millions of times. */

/* The DR modifiers' TOTAL, told only when a term was told before it. */
static void tell_drm(fray_roller *r, bool told, int drm, const char *what, const char *rule)
{
	if (told)
		fray_emit_total(r, what, drm, rule);
}

/* ADBG 19.2.1, ruling R5: hit when the modified DR <= the modified CF; a
 * natural 1 always hits, a 6 always misses: the faces 1..k hit, k in 1..5. */
int frayi_adbg_fire_hits(const fray_adbg_fire_in *in)
{
	fray_adbg_fire_mod m = fray_adbg_fire_table(in->type, in->terrain);
	int drm = m.lost_in_severe && in->severe ? 0 : m.drm;
	return clamp_int(in->cf * m.cf_mult - drm, 1, 5);
}

FRAY_API void fray_adbg_fire(fray_roller *r, const fray_adbg_fire_in *in,
			     fray_adbg_fire_out *out)
{
	fray_adbg_fire_mod m = fray_adbg_fire_table(in->type, in->terrain);
	int cf = in->cf * m.cf_mult;
	int drm = m.lost_in_severe && in->severe ? 0 : m.drm;
	if (fray_roller_narrating(r)) {
		fray_emit_modifier(r, "printed fire CF", in->cf, "ADBG 19.2.1");
		if (m.cf_mult != 1)
			fray_emit_modifier(r, "CF x2 for a regular in a settled area", cf - in->cf,
					   "ADBG 19.2.1, ruling R5");
		fray_emit_total(r, "fire CF", cf, "ADBG 19.2.1");
		if (drm)
			fray_emit_modifier(r, "fire DR (terrain)", drm, "ADBG 19.2.1, ruling R5");
		else if (m.drm && in->severe)
			fray_emit_note(r, "no terrain DR modifier in severe weather",
				       "ADBG 19.2.1 *");
		tell_drm(r, drm != 0, drm, "fire DR modifier", "ADBG 19.2.1");
	}
	int k = frayi_adbg_fire_hits(in);
	out->hit = fray_roll_at_most(r, 6, k, &out->natural, "fire die");
	out->dr = out->natural + drm;
	out->cf = cf;
	if (fray_roller_narrating(r)) {
		char why[96];
		const char *word = out->hit ? "hit" : "miss";
		if (out->natural == 1)
			snprintf(why, sizeof why, "hit (a 1 always hits)");
		else if (out->natural == 6)
			snprintf(why, sizeof why, "miss (a 6 always misses)");
		else if (drm)
			snprintf(why, sizeof why, "%s (DR %d)", word, out->dr);
		else
			snprintf(why, sizeof why, "%s", word);
		fray_emit_result(r, "fire", out->hit, why, "ADBG 19.2.1");
	}
}

FRAY_API int fray_adbg_move_drm(const fray_adbg_move_in *in)
{
	int drm = -in->leader;
	if (in->terrain == FRAY_ADBG_SETTLED && in->regular)
		drm -= 1;
	if (in->terrain == FRAY_ADBG_ROUGH && in->non_warrior)
		drm += 1;
	drm += in->severe + in->enemy_atop;
	if (in->surprise_winner_round1 && in->leader > 0)
		drm -= 1;
	return drm;
}

/* The level a DR must not exceed (19.2.2, 19.2.4): the level, and above 5
 * the 6 that never succeeds (ruling R6) as a term of its own. */
static void tell_level(fray_roller *r, int level, int target, const char *total, const char *rule)
{
	fray_emit_modifier(r, "commitment level", level, rule);
	if (target != level)
		fray_emit_modifier(r, "a DR of 6 never succeeds", target - level, "ruling R6");
	fray_emit_total(r, total, target, rule);
}

/* ADBG 19.2.2, ruling R6: moves when the modified DR <= the level; a
 * natural 1 always moves; a 6, or a modified DR of 6 or more, never: the
 * faces 1..k move, k in 1..5. */
int frayi_adbg_move_faces(const fray_adbg_move_in *in)
{
	int target = in->level < 5 ? in->level : 5;
	return clamp_int(target - fray_adbg_move_drm(in), 1, 5);
}

FRAY_API void fray_adbg_move(fray_roller *r, const fray_adbg_move_in *in,
			     fray_adbg_move_out *out)
{
	int drm = fray_adbg_move_drm(in);
	int target = in->level < 5 ? in->level : 5;
	if (fray_roller_narrating(r)) {
		tell_level(r, in->level, target, "movement: DR at most", "ADBG 19.2.2");
		bool told = false;
		if (in->leader)
			fray_emit_modifier(r, "leader's command rating", -in->leader, "ADBG 19.2.2"), told = true;
		if (in->terrain == FRAY_ADBG_SETTLED && in->regular)
			fray_emit_modifier(r, "regulars in a settled area", -1, "ADBG 19.2.2"), told = true;
		if (in->terrain == FRAY_ADBG_ROUGH && in->non_warrior)
			fray_emit_modifier(r, "non-warriors in rough terrain", 1, "ADBG 19.2.2"), told = true;
		if (in->severe)
			fray_emit_modifier(r, "severe weather", 1, "ADBG 19.2.2"), told = true;
		if (in->enemy_atop)
			fray_emit_modifier(r, "enemy moved atop", 1, "ADBG 19.2.2"), told = true;
		if (in->surprise_winner_round1 && in->leader > 0)
			fray_emit_modifier(r, "surprise, first round, with a leader", -1, "ADBG 19.2.2"),
				told = true;
		tell_drm(r, told, drm, "movement DR modifier", "ADBG 19.2.2");
	}
	int k = frayi_adbg_move_faces(in);
	out->moved = fray_roll_at_most(r, 6, k, &out->natural, "move die");
	out->dr = out->natural + drm;
	if (fray_roller_narrating(r)) {
		char why[96];
		const char *word = out->moved ? "moves" : "stays";
		if (out->natural == 1)
			snprintf(why, sizeof why, "moves (a 1 always moves)");
		else if (out->natural == 6)
			snprintf(why, sizeof why, "stays (a 6 never moves)");
		else if (out->dr >= 6)
			snprintf(why, sizeof why, "stays (DR %d: 6 or more never moves)", out->dr);
		else if (drm)
			snprintf(why, sizeof why, "%s (DR %d)", word, out->dr);
		else
			snprintf(why, sizeof why, "%s", word);
		fray_emit_result(r, "move", out->moved, why, "ADBG 19.2.2, ruling R6");
	}
}

/* ADBG 19.2.4, ruling R9: recovers one level when the DR, less a stacked
 * leader's rating, is <= the level; a 6 never recovers: the faces 1..k
 * recover, k in 0..5. */
int frayi_adbg_recover_faces(const fray_adbg_recover_in *in)
{
	return clamp_int(in->level + in->leader, 0, 5);
}

FRAY_API void fray_adbg_recover(fray_roller *r, const fray_adbg_recover_in *in,
				fray_adbg_recover_out *out)
{
	if (fray_roller_narrating(r)) {
		fray_emit_modifier(r, "commitment level", in->level, "ADBG 19.2.4");
		fray_emit_total(r, "recovery: DR at most", in->level, "ADBG 19.2.4, ruling R9");
		if (in->leader) {
			fray_emit_modifier(r, "leader's command rating", -in->leader, "ADBG 19.2.4");
			fray_emit_total(r, "recovery DR modifier", -in->leader, "ADBG 19.2.4");
		}
	}
	int k = frayi_adbg_recover_faces(in);
	out->recovered = fray_roll_at_most(r, 6, k, &out->natural, "recovery die");
	out->dr = out->natural - in->leader;
	if (fray_roller_narrating(r)) {
		char why[96];
		const char *word = out->recovered ? "recovers" : "no recovery";
		if (out->natural == 6)
			snprintf(why, sizeof why, "no recovery (a 6 never recovers)");
		else if (in->leader)
			snprintf(why, sizeof why, "%s (DR %d)", word, out->dr);
		else
			snprintf(why, sizeof why, "%s", word);
		fray_emit_result(r, "recovery", out->recovered, why, "ADBG 19.2.4, ruling R9");
	}
}

/* ADBG 19.1, ruling R1: rounds = the initiative side's primary leader
 * rating; the other side may roll for one more: a die strictly less than
 * its primary leader's rating. */
int frayi_adbg_extra_round_faces(const fray_adbg_rounds_in *in)
{
	return clamp_int(in->other_rating - 1, 0, 6);
}

FRAY_API void fray_adbg_rounds(fray_roller *r, const fray_adbg_rounds_in *in,
			       fray_adbg_rounds_out *out)
{
	out->rounds = in->initiative_rating;
	out->extra = false;
	out->natural = 0;
	fray_emit_modifier(r, "initiative side's primary leader's rating", in->initiative_rating,
			   "ADBG 19.1");
	fray_emit_total(r, "battle rounds", in->initiative_rating, "ADBG 19.1, ruling R1");
	if (!in->attempt)
		return;
	fray_emit_modifier(r, "other side's primary leader's rating", in->other_rating, "ADBG 19.1");
	fray_emit_total(r, "extra round: die less than", in->other_rating, "ADBG 19.1, ruling R1");
	out->extra = fray_roll_at_most(r, 6, frayi_adbg_extra_round_faces(in),
				       &out->natural, "extra-round die");
	out->rounds += out->extra;
	fray_emit_result(r, "extra round", out->extra, out->extra ? "one more round" : "no extra round",
			 "ADBG 19.1, ruling R1");
}

FRAY_API int fray_adbg_melee_drm(int attacker_level, int defender_level)
{
	return clamp_int(attacker_level - defender_level, -3, 3);
}

FRAY_API int fray_adbg_melee_shift(const fray_adbg_melee_in *in)
{
	return in->shift + in->attacker_leader - in->defender_leader + in->defender_disrupted +
	       in->surprise;
}

/* The column shifts term by term and their TOTAL, then the column. */
static void tell_column(fray_roller *r, const fray_adbg_melee_in *in, const fray_adbg_melee_out *out)
{
	const fray_adbg_crt *crt = in->crt;
	char a[16], b[16], text[96];
	fray_adbg_crt_label(crt, out->base_col, a, sizeof a);
	snprintf(text, sizeof text, "%lld to %lld: column %s", (long long)in->attack,
		 (long long)in->defend, a);
	fray_emit_note(r, text, "ADBG 19.2.3, ruling R7");
	if (!in->shift && !in->attacker_leader && !in->defender_leader && !in->defender_disrupted &&
	    !in->surprise)
		return;
	if (in->attacker_leader)
		fray_emit_modifier(r, "attacking leader's rating", in->attacker_leader, "ADBG 19.2.3");
	if (in->defender_leader)
		fray_emit_modifier(r, "defending leader's rating", -in->defender_leader, "ADBG 19.2.3");
	if (in->defender_disrupted)
		fray_emit_modifier(r, "a defender is disrupted", 1, "ADBG 19.2.3");
	if (in->surprise)
		fray_emit_modifier(r, "surprise, first round", 1, "ADBG 19.2.3");
	if (in->shift)
		fray_emit_modifier(r, "column shift as given", in->shift, "ADBG 19.2.3");
	int shift = fray_adbg_melee_shift(in);
	fray_emit_total(r, "column shift", shift, "ADBG 19.2.3");
	bool clamped = out->col != out->base_col + shift;
	if (out->col == out->base_col && !clamped)
		return; /* the shifts cancel: the column told above stands */
	fray_adbg_crt_label(crt, out->col, b, sizeof b);
	snprintf(text, sizeof text, "column %s", b);
	fray_emit_note(r, text, clamped ? "clamped at the table's edge, ruling R7" : NULL);
}

/* The melee DRM: from the levels (R7, at most 3 either way) or as given. */
static void tell_melee_drm(fray_roller *r, const fray_adbg_melee_in *in)
{
	if (in->from_levels) {
		char what[96];
		snprintf(what, sizeof what, "attacker's level %d less defender's %d%s", in->attacker_level, in->defender_level,
			 in->drm != in->attacker_level - in->defender_level ? " (at most 3 either way)" : "");
		fray_emit_modifier(r, what, in->drm, "ADBG 19.2.3, ruling R7");
	} else {
		fray_emit_modifier(r, "melee DR modifier as given", in->drm, "ADBG 19.2.3, ruling R7");
	}
	fray_emit_total(r, "melee DR modifier", in->drm, "ADBG 19.2.3, ruling R7");
}

/* ADBG 19.2.3, ruling R7: odds column from the CFs, shifted and clamped at
 * the table's edges; one die plus the DRM, the nearest row when outside. */
FRAY_API void fray_adbg_melee(fray_roller *r, const fray_adbg_melee_in *in,
			      fray_adbg_melee_out *out)
{
	const fray_adbg_crt *crt = in->crt;
	out->base_col = fray_adbg_crt_column(crt, in->attack, in->defend);
	out->col = clamp_int(out->base_col + fray_adbg_melee_shift(in), 0, crt->ncols - 1);
	if (fray_roller_narrating(r)) {
		tell_column(r, in, out);
		tell_melee_drm(r, in);
	}
	/* faces that land on the same losses are one class: exact odds
	 * branch once per distinct result, not once per face */
	unsigned char same[6];
	const int *face_cell[6];
	for (int f = 0; f < 6; f++) {
		int row = clamp_int(f + 1 + in->drm, crt->first_row, crt->first_row + crt->nrows - 1);
		face_cell[f] = crt->losses[row - crt->first_row][out->col];
		same[f] = (unsigned char)f;
		for (int g = 0; g < f; g++)
			if (face_cell[g][0] == face_cell[f][0] && face_cell[g][1] == face_cell[f][1]) {
				same[f] = (unsigned char)g;
				break;
			}
	}
	out->natural = fray_die_classed(r, 6, same, "melee die");
	out->roll = out->natural + in->drm;
	out->row = clamp_int(out->roll, crt->first_row, crt->first_row + crt->nrows - 1);
	const int *cell = crt->losses[out->row - crt->first_row][out->col];
	out->attacker_loss = cell[0];
	out->defender_loss = cell[1];
	if (fray_roller_narrating(r)) {
		char text[96], a[8], d[8], dr[40] = "";
		snprintf(a, sizeof a, cell[0] < 0 ? "R" : "%d", cell[0]);
		snprintf(d, sizeof d, cell[1] < 0 ? "R" : "%d", cell[1]);
		if (out->row != out->roll)
			snprintf(dr, sizeof dr, " (DR %d: the nearest row, %d)", out->roll, out->row);
		else if (in->drm)
			snprintf(dr, sizeof dr, " (DR %d)", out->roll);
		snprintf(text, sizeof text, "attacker %s, defender %s%s", a, d, dr);
		fray_emit_result(r, "melee result", out->row, text, "ADBG 19.2.3");
	}
}

/* ---- as procedures for fray_enumerate / fray_aggregate ---- */

FRAY_API void fray_adbg_fire_procedure(fray_roller *r, fray_policy *p,
				       const void *in, int64_t *out)
{
	(void)p;
	fray_adbg_fire_out o;
	fray_adbg_fire(r, in, &o);
	out[0] = o.hit;
}

FRAY_API void fray_adbg_move_procedure(fray_roller *r, fray_policy *p,
				       const void *in, int64_t *out)
{
	(void)p;
	fray_adbg_move_out o;
	fray_adbg_move(r, in, &o);
	out[0] = o.moved;
}

FRAY_API void fray_adbg_recover_procedure(fray_roller *r, fray_policy *p,
					  const void *in, int64_t *out)
{
	(void)p;
	fray_adbg_recover_out o;
	fray_adbg_recover(r, in, &o);
	out[0] = o.recovered;
}

FRAY_API void fray_adbg_rounds_procedure(fray_roller *r, fray_policy *p,
					 const void *in, int64_t *out)
{
	(void)p;
	fray_adbg_rounds_out o;
	fray_adbg_rounds(r, in, &o);
	out[0] = o.rounds;
}

FRAY_API void fray_adbg_melee_procedure(fray_roller *r, fray_policy *p,
					const void *in, int64_t *out)
{
	(void)p;
	fray_adbg_melee_out o;
	fray_adbg_melee(r, in, &o);
	out[0] = o.attacker_loss;
	out[1] = o.defender_loss;
}
