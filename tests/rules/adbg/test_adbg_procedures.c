/* ADBG rule 19 tables and procedures: every row of the fire terrain table,
 * every movement DRM, the stacking table, melee column selection, shifts
 * and DRM clamping, recovery and rounds. Expected chances are counted over
 * the six faces here, from the rule text, never taken from fray. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "../../test_util.h"
#include <fray/fray.h>

/* P(outcome field 0 == 1) by exact enumeration. */
static double chance(fray_procedure proc, const void *in)
{
	fray_dist *d;
	assert_int_equal(fray_enumerate(ctx, proc, NULL, in, 1, NULL, &d), FRAY_OK);
	double p = 0;
	for (size_t i = 0; i < fray_dist_count(d); i++)
		if (fray_dist_outcome(d, i)[0] == 1)
			p = fray_dist_p(d, i);
	fray_dist_free(d);
	return p;
}

/* ADBG 19.2.1 as printed: [type][terrain] = CF multiplier, DRM, starred. */
static void fire_table_rows(void **state)
{
	(void)state;
	static const struct {
		fray_adbg_type t;
		fray_adbg_terrain tr;
		int mult, drm;
		bool star;
	} rows[] = {
		{FRAY_ADBG_WARRIOR, FRAY_ADBG_ROUGH, 1, 0, false},
		{FRAY_ADBG_WARRIOR, FRAY_ADBG_WILDERNESS, 1, 0, false},
		{FRAY_ADBG_WARRIOR, FRAY_ADBG_SETTLED, 1, 0, false},
		{FRAY_ADBG_REGULAR, FRAY_ADBG_ROUGH, 1, 0, false},
		{FRAY_ADBG_REGULAR, FRAY_ADBG_WILDERNESS, 1, -1, true},
		{FRAY_ADBG_REGULAR, FRAY_ADBG_SETTLED, 2, -1, true},
		{FRAY_ADBG_MILITIA, FRAY_ADBG_ROUGH, 1, 0, false},
		{FRAY_ADBG_MILITIA, FRAY_ADBG_WILDERNESS, 1, 0, false},
		{FRAY_ADBG_MILITIA, FRAY_ADBG_SETTLED, 1, -1, false},
		{FRAY_ADBG_RIFLE, FRAY_ADBG_ROUGH, 1, 0, false},
		{FRAY_ADBG_RIFLE, FRAY_ADBG_WILDERNESS, 1, -1, true},
		{FRAY_ADBG_RIFLE, FRAY_ADBG_SETTLED, 1, -1, false},
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		fray_adbg_fire_mod m = fray_adbg_fire_table(rows[i].t, rows[i].tr);
		assert_int_equal(m.cf_mult, rows[i].mult);
		assert_int_equal(m.drm, rows[i].drm);
		assert_int_equal(m.lost_in_severe, rows[i].star);
		/* and the chance of a hit, normal and severe weather, CF 0..7 */
		for (int severe = 0; severe <= 1; severe++)
			for (int cf = 0; cf <= 7; cf++) {
				int drm = rows[i].star && severe ? 0 : rows[i].drm;
				int hits = 0;
				for (int face = 1; face <= 6; face++)
					hits += face == 1 || (face != 6 && face + drm <= cf * rows[i].mult);
				fray_adbg_fire_in in = {rows[i].t, cf, rows[i].tr, severe};
				assert_double_equal(chance(fray_adbg_fire_procedure, &in), hits / 6.0, 1e-15);
			}
	}
}

/* Sampled fire reports the die, the modified DR and CF it compared. */
static void fire_reports_dr_and_cf(void **state)
{
	(void)state;
	fray_roller *r = fray_roller_sample_new(ctx, 11, 0);
	fray_adbg_fire_in in = {FRAY_ADBG_REGULAR, 2, FRAY_ADBG_SETTLED, false};
	for (int i = 0; i < 200; i++) {
		fray_adbg_fire_out o;
		fray_adbg_fire(r, &in, &o);
		assert_int_equal(o.cf, 4);
		assert_int_equal(o.dr, o.natural - 1);
		assert_int_equal(o.hit, o.natural == 1 || (o.natural != 6 && o.dr <= 4));
	}
	fray_roller_free(r);
}

/* ADBG 19.2.2 movement DRMs, one at a time and together (R6). */
static void movement_drms(void **state)
{
	(void)state;
	static const struct {
		fray_adbg_move_in in;
		int drm;
	} rows[] = {
		{{.level = 3, .terrain = FRAY_ADBG_WILDERNESS}, 0},
		{{.level = 3, .leader = 2, .terrain = FRAY_ADBG_WILDERNESS}, -2},
		{{.level = 3, .terrain = FRAY_ADBG_SETTLED, .regular = true}, -1},
		{{.level = 3, .terrain = FRAY_ADBG_SETTLED}, 0},
		{{.level = 3, .terrain = FRAY_ADBG_ROUGH, .non_warrior = true}, 1},
		{{.level = 3, .terrain = FRAY_ADBG_ROUGH}, 0},
		{{.level = 3, .terrain = FRAY_ADBG_WILDERNESS, .severe = true}, 1},
		{{.level = 3, .terrain = FRAY_ADBG_WILDERNESS, .enemy_atop = true}, 1},
		{{.level = 3, .leader = 1, .terrain = FRAY_ADBG_WILDERNESS, .surprise_winner_round1 = true}, -2},
		{{.level = 3, .terrain = FRAY_ADBG_WILDERNESS, .surprise_winner_round1 = true}, 0},
		{{.level = 2, .leader = 3, .terrain = FRAY_ADBG_ROUGH, .severe = true,
		  .enemy_atop = true, .non_warrior = true}, 0},
		{{.level = 5, .terrain = FRAY_ADBG_ROUGH, .severe = true, .enemy_atop = true,
		  .non_warrior = true}, 3},
		{{.level = 1, .leader = 3, .terrain = FRAY_ADBG_SETTLED, .regular = true,
		  .surprise_winner_round1 = true}, -5},
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		assert_int_equal(fray_adbg_move_drm(&rows[i].in), rows[i].drm);
		int moves = 0;
		for (int face = 1; face <= 6; face++) {
			int dr = face + rows[i].drm;
			moves += face == 1 || (face != 6 && dr < 6 && dr <= rows[i].in.level);
		}
		assert_double_equal(chance(fray_adbg_move_procedure, &rows[i].in), moves / 6.0, 1e-15);
	}
}

/* ADBG 19.2.4, ruling R9, for every level and leader. */
static void recovery(void **state)
{
	(void)state;
	for (int level = 0; level <= 6; level++)
		for (int leader = 0; leader <= 3; leader++) {
			int ok = 0;
			for (int face = 1; face <= 6; face++)
				ok += face != 6 && face - leader <= level;
			fray_adbg_recover_in in = {level, leader};
			assert_double_equal(chance(fray_adbg_recover_procedure, &in), ok / 6.0, 1e-15);
		}
}

/* ADBG 19.1, ruling R1: a die strictly less than the rating adds a round. */
static void rounds(void **state)
{
	(void)state;
	for (int ini = 1; ini <= 3; ini++)
		for (int other = 1; other <= 3; other++) {
			fray_adbg_rounds_in in = {ini, true, other};
			fray_dist *d;
			assert_int_equal(fray_enumerate(ctx, fray_adbg_rounds_procedure, NULL, &in, 1, NULL, &d), FRAY_OK);
			double extra = 0;
			for (size_t i = 0; i < fray_dist_count(d); i++)
				if (fray_dist_outcome(d, i)[0] == ini + 1)
					extra = fray_dist_p(d, i);
			assert_double_equal(extra, (other - 1) / 6.0, 1e-15);
			fray_dist_free(d);
			in.attempt = false;
			assert_double_equal(chance(fray_adbg_rounds_procedure, &in), ini == 1 ? 1 : 0, 0);
		}
}

/* ADBG 19.1, ruling R2: the stacking table by terrain. */
static void stacking(void **state)
{
	(void)state;
	static const struct {
		fray_adbg_terrain tr;
		int w, r, m, rifle;
		bool legal;
	} rows[] = {
		{FRAY_ADBG_ROUGH, 2, 0, 0, 0, true},
		{FRAY_ADBG_ROUGH, 3, 0, 0, 0, false},
		{FRAY_ADBG_WILDERNESS, 3, 0, 0, 0, true},
		{FRAY_ADBG_WILDERNESS, 4, 0, 0, 0, false},
		{FRAY_ADBG_SETTLED, 3, 0, 0, 0, true},
		{FRAY_ADBG_ROUGH, 0, 1, 0, 0, true},
		{FRAY_ADBG_ROUGH, 0, 1, 1, 0, false},   /* regulars may not stack */
		{FRAY_ADBG_ROUGH, 0, 1, 0, 2, true},    /* rifles do not count */
		{FRAY_ADBG_WILDERNESS, 0, 1, 1, 0, true},
		{FRAY_ADBG_WILDERNESS, 0, 1, 2, 0, false},
		{FRAY_ADBG_WILDERNESS, 0, 2, 0, 0, false},
		{FRAY_ADBG_WILDERNESS, 1, 1, 0, 0, false},
		{FRAY_ADBG_SETTLED, 0, 3, 0, 0, true},
		{FRAY_ADBG_SETTLED, 0, 2, 1, 0, true},
		{FRAY_ADBG_SETTLED, 0, 4, 0, 0, false},
		{FRAY_ADBG_ROUGH, 0, 0, 2, 0, true},
		{FRAY_ADBG_WILDERNESS, 0, 0, 3, 0, false},
		{FRAY_ADBG_SETTLED, 0, 0, 3, 0, true},
		{FRAY_ADBG_ROUGH, 1, 0, 1, 0, true},    /* mixed: smallest limit, 2 */
		{FRAY_ADBG_ROUGH, 2, 0, 1, 0, false},
		{FRAY_ADBG_WILDERNESS, 2, 0, 1, 0, false}, /* militia limit 2 */
		{FRAY_ADBG_WILDERNESS, 0, 0, 0, 5, true},
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		int count[4] = {rows[i].w, rows[i].r, rows[i].m, rows[i].rifle};
		const char *why = fray_adbg_stacking_problem(rows[i].tr, count);
		if (rows[i].legal)
			assert_null(why);
		else
			assert_non_null(why);
	}
}

/* ADBG 19.2.3 multipliers (R10 rifles x1). */
static void melee_multipliers(void **state)
{
	(void)state;
	static const int want[4][3] = {{3, 2, 2}, {1, 1, 1}, {2, 1, 2}, {1, 1, 1}};
	for (int t = 0; t < 4; t++)
		for (int tr = 0; tr < 3; tr++)
			assert_int_equal(fray_adbg_melee_mult((fray_adbg_type)t, (fray_adbg_terrain)tr), want[t][tr]);
}

static fray_adbg_crt test_crt(void)
{
	fray_adbg_crt crt;
	assert_int_equal(fray_adbg_crt_load(ctx, FRAY_TEST_DATA "/adbg/crt-small.yaml", &crt), FRAY_OK);
	return crt;
}

/* R7: odds column, shifts clamped at the edges, DRM clamped to 3, the
 * nearest row for rolls off the table. The test table's cells name their
 * own place: attacker loss = column, defender loss = row. */
static void melee_columns_shifts_and_rows(void **state)
{
	(void)state;
	fray_adbg_crt crt = test_crt();
	assert_int_equal(crt.ncols, 4);  /* 1:2 1:1 2:1 3:1 */
	static const struct {
		int64_t a, d;
		int col;
	} cols[] = {{1, 3, 0}, {1, 2, 0}, {2, 3, 0}, {1, 1, 1}, {3, 2, 1}, {2, 1, 2},
		    {5, 2, 2}, {3, 1, 3}, {10, 1, 3}, {4, 0, 3}};
	for (size_t i = 0; i < sizeof cols / sizeof cols[0]; i++)
		assert_int_equal(fray_adbg_crt_column(&crt, cols[i].a, cols[i].d), cols[i].col);

	assert_int_equal(fray_adbg_melee_drm(5, 1), 3);
	assert_int_equal(fray_adbg_melee_drm(1, 5), -3);
	assert_int_equal(fray_adbg_melee_drm(3, 1), 2);

	static const struct {
		int shift, drm, col;
	} rows[] = {{0, 0, 1}, {1, 0, 2}, {5, 0, 3}, {-4, 0, 0}, {0, 3, 1}, {0, -3, 1}};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		fray_adbg_melee_in in = {.crt = &crt, .attack = 4, .defend = 4, .shift = rows[i].shift, .drm = rows[i].drm};
		fray_dist *d;
		assert_int_equal(fray_enumerate(ctx, fray_adbg_melee_procedure, NULL, &in, 2, NULL, &d), FRAY_OK);
		/* rows 1..6 in the file; die + drm clamped to them */
		double p[7] = {0};
		for (int face = 1; face <= 6; face++) {
			int row = face + rows[i].drm;
			row = row < 1 ? 1 : row > 6 ? 6 : row;
			p[row] += 1 / 6.0;
		}
		for (size_t k = 0; k < fray_dist_count(d); k++) {
			const int64_t *o = fray_dist_outcome(d, k);
			assert_int_equal(o[0], rows[i].col);
			assert_double_equal(fray_dist_p(d, k), p[o[1]], 1e-15);
		}
		fray_dist_free(d);
	}
}

/* Told terms (BRIEF, events.h): each roll tells the terms of its numbers
 * from the text as MODIFIERs (M), each group closed by its TOTAL (T), then
 * the die (D, with the faces that succeed) and the result (=); notes (N).
 * Expected from 19.1-19.2.4: the values below are the text's. */
typedef struct told {
	char s[256];
	size_t len;
} told;

static void tell_kinds(void *ud, const fray_event *ev)
{
	told *t = ud;
	static const char kinds[] = "DM=?NT";
	long long v = ev->kind == FRAY_EV_ROLL ? ev->need : ev->value;
	int n = ev->kind == FRAY_EV_NOTE || ev->kind == FRAY_EV_RESULT
			? snprintf(t->s + t->len, sizeof t->s - t->len, "%c ", kinds[ev->kind])
			: snprintf(t->s + t->len, sizeof t->s - t->len, "%c%lld ", kinds[ev->kind], v);
	assert_true(n > 0 && (size_t)n < sizeof t->s - t->len);
	t->len += (size_t)n;
}

static fray_roller *telling(told *t)
{
	memset(t, 0, sizeof *t);
	fray_roller *r = fray_roller_sample_new(ctx, 3, 0);
	fray_roller_set_sink(r, tell_kinds, t);
	return r;
}

static void terms_told_from_the_text(void **state)
{
	(void)state;
	told t;
	/* 19.2.1: a regular's CF 2 doubled in a settled area, the -1 DR */
	fray_roller *r = telling(&t);
	fray_adbg_fire_out fo;
	fray_adbg_fire(r, &(fray_adbg_fire_in){FRAY_ADBG_REGULAR, 2, FRAY_ADBG_SETTLED, false}, &fo);
	assert_string_equal(t.s, "M2 M2 T4 M-1 T-1 D5 = ");
	fray_roller_free(r);
	/* ... in severe weather the starred -1 is lost (a note), the x2 stays */
	r = telling(&t);
	fray_adbg_fire(r, &(fray_adbg_fire_in){FRAY_ADBG_REGULAR, 2, FRAY_ADBG_SETTLED, true}, &fo);
	assert_string_equal(t.s, "M2 M2 T4 N D4 = ");
	fray_roller_free(r);
	/* 19.2.2: level 2; a leader rated 2 (-2), non-warriors in rough (+1) */
	r = telling(&t);
	fray_adbg_move_out mo;
	fray_adbg_move(r, &(fray_adbg_move_in){.level = 2, .leader = 2, .terrain = FRAY_ADBG_ROUGH,
					       .non_warrior = true}, &mo);
	assert_string_equal(t.s, "M2 T2 M-2 M1 T-1 D3 = ");
	fray_roller_free(r);
	/* level 6: a DR of 6 never moves (R6), so the level reads as 5 */
	r = telling(&t);
	fray_adbg_move(r, &(fray_adbg_move_in){.level = 6, .terrain = FRAY_ADBG_WILDERNESS}, &mo);
	assert_string_equal(t.s, "M6 M-1 T5 D5 = ");
	fray_roller_free(r);
	/* 19.2.4, R9: level 2, a leader rated 1 */
	r = telling(&t);
	fray_adbg_recover_out ro;
	fray_adbg_recover(r, &(fray_adbg_recover_in){2, 1}, &ro);
	assert_string_equal(t.s, "M2 T2 M-1 T-1 D3 = ");
	fray_roller_free(r);
	/* 19.1, R1: 2 rounds; the other side's leader rated 3: a die below 3 */
	r = telling(&t);
	fray_adbg_rounds_out rr;
	fray_adbg_rounds(r, &(fray_adbg_rounds_in){2, true, 3}, &rr);
	assert_string_equal(t.s, "M2 T2 M3 T3 D2 = ");
	fray_roller_free(r);
	/* 19.2.3, R7: 4 to 4 (column 1:1); attacker's leader 2 right, the
	 * defender's 1 left, a disrupted defender 1 right: +2, column 3:1;
	 * levels 5 against 1: +3 at most */
	fray_adbg_crt crt = test_crt();
	r = telling(&t);
	fray_adbg_melee_in in = {.crt = &crt, .attack = 4, .defend = 4, .drm = fray_adbg_melee_drm(5, 1),
				 .attacker_leader = 2, .defender_leader = 1, .defender_disrupted = true,
				 .from_levels = true, .attacker_level = 5, .defender_level = 1};
	assert_int_equal(fray_adbg_melee_shift(&in), 2);
	fray_adbg_melee_out me;
	fray_adbg_melee(r, &in, &me);
	assert_int_equal(me.col, 3); /* 1:1 is column 1, shifted 2, the last is 3 */
	assert_string_equal(t.s, "N M2 M-1 M1 T2 N M3 T3 D0 = ");
	fray_roller_free(r);
}

static void crt_file_errors(void **state)
{
	(void)state;
	fray_adbg_crt crt;
	fray_ctx_clear(ctx);
	assert_int_equal(fray_adbg_crt_load(ctx, FRAY_TEST_DATA "/adbg/crt-bad.yaml", &crt), FRAY_ERR_INPUT);
	assert_string_equal(fray_ctx_message(ctx),
			    FRAY_TEST_DATA "/adbg/crt-bad.yaml:2:18: expected columns in increasing odds");
	fray_doc *doc;
	fray_ctx_clear(ctx);
	assert_int_equal(fray_doc_load_file(ctx, FRAY_TEST_DATA "/adbg/crt-bad.yaml", &doc), FRAY_OK);
	fray_adbg_crt_read(doc, fray_doc_root(doc), &crt);
	assert_int_equal(fray_doc_error_count(doc), 4);
	assert_string_equal(fray_doc_error_msg(doc, 1), FRAY_TEST_DATA "/adbg/crt-bad.yaml:4:6: expected 2 cells, one per column, found 1");
	assert_string_equal(fray_doc_error_msg(doc, 2), FRAY_TEST_DATA "/adbg/crt-bad.yaml:5:14: expected a cell \"attacker/defender\" such as \"1/R\": each a count 0-9, R or -");
	assert_string_equal(fray_doc_error_msg(doc, 3), FRAY_TEST_DATA "/adbg/crt-bad.yaml:6:3: expected row 3: rows are consecutive die rolls in order");
	fray_doc_free(doc);
	fray_ctx_clear(ctx);
	/* the shipped example loads */
	assert_int_equal(fray_adbg_crt_load(ctx, FRAY_SOURCE_DIR "/data/adbg/example-melee-crt.yaml", &crt), FRAY_OK);
	assert_int_equal(crt.ncols, 8);
	assert_int_equal(crt.losses[0][0][0], FRAY_ADBG_ROUTE_ALL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fire_table_rows),
		cmocka_unit_test(fire_reports_dr_and_cf),
		cmocka_unit_test(movement_drms),
		cmocka_unit_test(recovery),
		cmocka_unit_test(rounds),
		cmocka_unit_test(stacking),
		cmocka_unit_test(melee_multipliers),
		cmocka_unit_test(melee_columns_shifts_and_rows),
		cmocka_unit_test(crt_file_errors),
		cmocka_unit_test(terms_told_from_the_text),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
