/* A sweep's bookkeeping (include/fray/sweep.h): --vary's values and
 * ranges, the grid and its baseline, --target parsed, met and sorted, and
 * the sensitivity of each knob, on simulations whose counts are set here
 * (so every rate below is a fraction worked out by hand). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "../test_util.h"
#include <fray/sweep.h>

static void assert_values(const fray_sweep_knob *k, const char *path, const char *const *want, int n)
{
	assert_string_equal(k->path, path);
	assert_int_equal(k->nvalues, n);
	for (int i = 0; i < n; i++)
		assert_string_equal(k->values[i], want[i]);
}

static void ranges_expand(void **state)
{
	(void)state;
	fray_sweep_knob k;
	assert_int_equal(fray_sweep_knob_parse(ctx, "sides.red.level=1..5", 100, &k), FRAY_OK);
	assert_values(&k, "sides.red.level", (const char *const[]){"1", "2", "3", "4", "5"}, 5);
	fray_sweep_knob_free(ctx, &k);
	assert_int_equal(fray_sweep_knob_parse(ctx, "melee=1..9:2", 100, &k), FRAY_OK);
	assert_values(&k, "melee", (const char *const[]){"1", "3", "5", "7", "9"}, 5);
	fray_sweep_knob_free(ctx, &k);
	/* 1..8:3 stops at 7; -2..0 crosses zero; plain values kept as they are */
	assert_int_equal(fray_sweep_knob_parse(ctx, "x=rough,1..8:3,-2..0,settled", 100, &k), FRAY_OK);
	assert_values(&k, "x", (const char *const[]){"rough", "1", "4", "7", "-2", "-1", "0", "settled"}, 8);
	fray_sweep_knob_free(ctx, &k);
	/* a unit's name with two dots is no range */
	assert_int_equal(fray_sweep_knob_parse(ctx, "units=none,remove:A..B,add:C..D@new", 100, &k), FRAY_OK);
	assert_values(&k, "units", (const char *const[]){"none", "remove:A..B", "add:C..D@new"}, 3);
	fray_sweep_knob_free(ctx, &k);
	/* exactly max values is allowed */
	assert_int_equal(fray_sweep_knob_parse(ctx, "a=1..10", 10, &k), FRAY_OK);
	assert_int_equal(k.nvalues, 10);
	fray_sweep_knob_free(ctx, &k);
}

static void bad_ranges(void **state)
{
	(void)state;
	static const struct {
		const char *text, *msg;
	} rows[] = {
		{"a=5..1", "option --vary a: '5..1': expected FROM..TO or FROM..TO:STEP, whole numbers with FROM <= TO "
		 "and STEP >= 1, at most 10 values (--max-points)"},
		{"a=1..x", "option --vary a: '1..x': expected FROM..TO or FROM..TO:STEP, whole numbers with FROM <= TO "
		 "and STEP >= 1, at most 10 values (--max-points)"},
		{"a=1..9:0", "option --vary a: '1..9:0': expected FROM..TO or FROM..TO:STEP, whole numbers with FROM "
		 "<= TO and STEP >= 1, at most 10 values (--max-points)"},
		{"a=1..11", "option --vary a: '1..11': expected FROM..TO or FROM..TO:STEP, whole numbers with FROM <= "
		 "TO and STEP >= 1, at most 10 values (--max-points)"},
		{"a=1..6,7..12", "option --vary a: more than 10 values (--max-points)"},
		{"a", "option --vary expects PATH=V1,V2,... or PATH=FROM..TO[:STEP], got 'a'"},
		{"=1", "option --vary expects PATH=V1,V2,... or PATH=FROM..TO[:STEP], got '=1'"},
		{"a=", "option --vary expects PATH=V1,V2,... or PATH=FROM..TO[:STEP], got 'a='"},
		{"a=,,", "option --vary expects PATH=V1,V2,..., got 'a=,,'"},
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		fray_sweep_knob k;
		fray_ctx_clear(ctx);
		assert_int_equal(fray_sweep_knob_parse(ctx, rows[i].text, 10, &k), FRAY_ERR_INPUT);
		assert_string_equal(fray_ctx_message(ctx), rows[i].msg);
		fray_sweep_knob_free(ctx, &k);
	}
	/* a value of 128 bytes or more */
	char text[200] = "a=";
	memset(text + 2, 'v', 128);
	fray_sweep_knob k;
	fray_ctx_clear(ctx);
	assert_int_equal(fray_sweep_knob_parse(ctx, text, 10, &k), FRAY_ERR_INPUT);
	assert_string_equal(fray_ctx_message(ctx), "option --vary a: a value longer than 127 bytes");
	fray_sweep_knob_free(ctx, &k);
	fray_ctx_clear(ctx);
}

static void same_values(void **state)
{
	(void)state;
	assert_true(fray_sweep_same_value("3", "03"));
	assert_true(fray_sweep_same_value("rough", "rough"));
	assert_false(fray_sweep_same_value("3", "4"));
	assert_false(fray_sweep_same_value("rough", "Rough"));
}

/* A knob made by hand: its values and base. */
static fray_sweep_knob knob(const char *text, const char *base)
{
	fray_sweep_knob k;
	assert_int_equal(fray_sweep_knob_parse(ctx, text, 100, &k), FRAY_OK);
	k.base = base ? strdup(base) : NULL; /* the context allocates with malloc */
	return k;
}

/* a = 1, 2 and b = x, y, z: six grid points, the last knob fastest. */
static void grid_and_baseline(void **state)
{
	(void)state;
	fray_sweep_knob ks[2] = {knob("a=1,2", "02"), knob("b=x,y,z", "w")};
	fray_sweep w;
	/* b's base w is not among its values: the baseline comes first */
	assert_int_equal(fray_sweep_points(ctx, ks, 2, 100, &w), FRAY_OK);
	assert_int_equal(w.np, 7);
	assert_true(w.pts[0].baseline);
	assert_false(w.pts[0].grid);
	assert_string_equal(w.pts[0].val[0], "02");
	assert_string_equal(w.pts[0].val[1], "w");
	static const char *const want[6][2] = {{"1", "x"}, {"1", "y"}, {"1", "z"}, {"2", "x"}, {"2", "y"}, {"2", "z"}};
	for (int p = 0; p < 6; p++) {
		assert_true(w.pts[p + 1].grid);
		assert_false(w.pts[p + 1].baseline);
		assert_string_equal(w.pts[p + 1].val[0], want[p][0]);
		assert_string_equal(w.pts[p + 1].val[1], want[p][1]);
	}
	/* the edits of point 5 (2, x): the --set first */
	fray_adbg_edit sets[] = {{"terrain", "rough"}}, ed[3];
	assert_int_equal(fray_sweep_point_edits(sets, 1, &w, &w.pts[4], ed), 3);
	assert_string_equal(ed[0].path, "terrain");
	assert_string_equal(ed[1].path, "a");
	assert_string_equal(ed[1].value, "2");
	assert_string_equal(ed[2].path, "b");
	assert_string_equal(ed[2].value, "x");
	fray_sweep_points_free(ctx, &w);
	/* b's base y is: no extra point; (2, y) is the baseline (02 is 2) */
	free(ks[1].base);
	ks[1].base = strdup("y");
	assert_int_equal(fray_sweep_points(ctx, ks, 2, 100, &w), FRAY_OK);
	assert_int_equal(w.np, 6);
	for (size_t p = 0; p < 6; p++)
		assert_int_equal(w.pts[p].baseline, p == 4);
	fray_sweep_points_free(ctx, &w);
	/* more than max points */
	fray_ctx_clear(ctx);
	assert_int_equal(fray_sweep_points(ctx, ks, 2, 5, &w), FRAY_ERR_INPUT);
	assert_string_equal(fray_ctx_message(ctx), "option --vary: the grid has 6 points, more than the 5 allowed "
			    "(--max-points, at most 10000)");
	fray_ctx_clear(ctx);
	fray_sweep_knob_free(ctx, &ks[0]);
	fray_sweep_knob_free(ctx, &ks[1]);
}

static const char *const IDS[2] = {"kentucky", ""}, *const NAMES[2] = {"Kentucky militia", "Side Two"};

static void targets_parse(void **state)
{
	(void)state;
	static const struct {
		const char *text;
		int a, b;
		char op;
		double c;
	} rows[] = {
		{"draw<0.4", 2, -1, '<', 0.4},
		{"|A-B|<0.03", 0, 1, '<', 0.03},
		{"A>=45%", 0, -1, 'g', 0.45},
		{"B<=0.5", 1, -1, 'l', 0.5},
		{"kentucky=0.5", 0, -1, '=', 0.5},
		{" side two > 0.2", 1, -1, '>', 0.2},
		{"|draws-Kentucky militia|<10%", 2, 0, '<', 0.1},
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		fray_sweep_target t;
		assert_int_equal(fray_sweep_target_parse(ctx, rows[i].text, IDS, NAMES, &t), FRAY_OK);
		assert_true(t.on);
		assert_int_equal(t.a, rows[i].a);
		assert_int_equal(t.b, rows[i].b);
		assert_int_equal(t.op, rows[i].op);
		assert_float_equal(t.c, rows[i].c, 1e-12);
	}
}

static void bad_targets(void **state)
{
	(void)state;
	static const char *const syntax = "option --target expects OUTCOME<N, OUTCOME>N, OUTCOME=N or "
		"|OUTCOME-OUTCOME|<N (outcomes: A, B, draw, a side's id or name; N a rate such as 0.4 or 40%%), got '%s'";
	static const struct {
		const char *text, *msg;
	} rows[] = {
		{"<0.4", NULL},
		{"draw", NULL},
		{"A<5", NULL},
		{"A<0.4x", NULL},
		{"nobody<0.4", "option --target 'nobody<0.4': 'nobody' is not an outcome: expected A, B, draw, "
		 "Kentucky militia or Side Two"},
		{"|A-x|<0.1", "option --target '|A-x|<0.1': expected |OUTCOME-OUTCOME| with two of A, B, draw, "
		 "Kentucky militia, Side Two"},
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		fray_sweep_target t;
		char want[512];
		if (rows[i].msg)
			snprintf(want, sizeof want, "%s", rows[i].msg);
		else
			snprintf(want, sizeof want, syntax, rows[i].text);
		fray_ctx_clear(ctx);
		assert_int_equal(fray_sweep_target_parse(ctx, rows[i].text, IDS, NAMES, &t), FRAY_ERR_INPUT);
		assert_string_equal(fray_ctx_message(ctx), want);
	}
	fray_ctx_clear(ctx);
}

/* A point's battles: side 1 won w1, side 2 w2 and d were draws; every
 * side lost `loss` units in each battle. */
static fray_sim *battles(uint64_t w1, uint64_t w2, uint64_t d, int loss)
{
	fray_sim *s = fray_sim_new(FRAY_ADBG_SIM_FIELDS);
	assert_non_null(s);
	uint64_t n = w1 + w2 + d;
	fray_sim_set_trials(s, n);
	assert_int_equal(fray_sim_add_count(s, FRAY_ADBG_SIM_WINNER, 1, w1), FRAY_OK);
	assert_int_equal(fray_sim_add_count(s, FRAY_ADBG_SIM_WINNER, 2, w2), FRAY_OK);
	assert_int_equal(fray_sim_add_count(s, FRAY_ADBG_SIM_WINNER, 0, d), FRAY_OK);
	for (int side = 0; side < 2; side++)
		assert_int_equal(fray_sim_add_count(s, FRAY_ADBG_SIM_SIDE + (size_t)side * FRAY_ADBG_SIM_PER_SIDE +
						    FRAY_ADBG_SIM_LOSSES, loss, n), FRAY_OK);
	return s;
}

static void targets_sort(void **state)
{
	(void)state;
	/* three points of 100 battles: (side 1, side 2, draws) */
	fray_sweep_point pts[3] = {{.sim = battles(50, 30, 20, 1)}, {.sim = battles(20, 50, 30, 2)},
				   {.sim = battles(40, 40, 20, 1)}};
	fray_sweep w = {.nk = 0, .pts = pts, .np = 3};
	assert_float_equal(fray_sweep_rate(pts[0].sim, 0), 0.5, 1e-12);
	assert_float_equal(fray_sweep_rate(pts[1].sim, 2), 0.3, 1e-12);
	assert_float_equal(fray_sweep_mean_losses(pts[1].sim, 1), 2, 1e-12);
	static const struct {
		const char *text;
		size_t n, order[3];
	} rows[] = {
		{"draw<0.25", 2, {0, 2}},         /* 0.2 and 0.2: a tie, by number */
		{"|A-B|<0.35", 3, {2, 0, 1}},     /* 0.2, 0.3, 0: the smallest first */
		{"A>0.3", 2, {0, 2}},             /* 0.5, 0.4: the largest first */
		{"B=0.45", 3, {1, 2, 0}},         /* 0.15, 0.05, 0.05 from 0.45: the nearest first */
		{"draw<0.1", 0, {0}},
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		fray_sweep_target t;
		size_t order[3];
		assert_int_equal(fray_sweep_target_parse(ctx, rows[i].text, IDS, NAMES, &t), FRAY_OK);
		assert_int_equal(fray_sweep_order(ctx, &w, &t, order), rows[i].n);
		for (size_t j = 0; j < rows[i].n; j++)
			assert_int_equal(order[j], rows[i].order[j]);
	}
	/* no target: every point in order */
	size_t order[3];
	fray_sweep_target none = {0};
	assert_int_equal(fray_sweep_order(ctx, &w, &none, order), 3);
	assert_int_equal(order[2], 2);
	/* the same battles, whatever else */
	assert_false(fray_sweep_same_sims(pts[0].sim, pts[2].sim));
	fray_sim *again = battles(50, 30, 20, 1);
	assert_true(fray_sweep_same_sims(pts[0].sim, again));
	fray_sim_free(again);
	for (int p = 0; p < 3; p++)
		fray_sim_free(pts[p].sim);
}

/* A 2 x 2 grid: knob "lvl" (1, 2) moves side 1's wins from 30% to 60%;
 * knob "name" (a, b) changes nothing (the same battles at both values). */
static void sensitivity_ranks(void **state)
{
	(void)state;
	fray_sweep_point pts[4] = {
		{.val = {"1", "a"}, .grid = true, .sim = battles(30, 50, 20, 1)},
		{.val = {"1", "b"}, .grid = true, .sim = battles(30, 50, 20, 1)},
		{.val = {"2", "a"}, .grid = true, .sim = battles(60, 30, 10, 1)},
		{.val = {"2", "b"}, .grid = true, .sim = battles(60, 30, 10, 1)},
	};
	fray_sweep w = {.nk = 2, .paths = {"lvl", "name"}, .pts = pts, .np = 4};
	fray_sweep_sens s[2];
	fray_sweep_sensitivity(&w, s);
	/* lvl first: side 1 0.3 to 0.6, side 2 0.5 to 0.3, draws 0.2 to 0.1 */
	assert_int_equal(s[0].knob, 0);
	assert_false(s[0].no_effect);
	assert_float_equal(s[0].lo[0], 0.3, 1e-12);
	assert_float_equal(s[0].hi[0], 0.6, 1e-12);
	assert_float_equal(s[0].lo[1], 0.3, 1e-12);
	assert_float_equal(s[0].hi[1], 0.5, 1e-12);
	assert_float_equal(s[0].lo[2], 0.1, 1e-12);
	assert_float_equal(s[0].hi[2], 0.2, 1e-12);
	assert_float_equal(s[0].score, 0.3, 1e-12);
	assert_int_equal(s[0].nvals, 2);
	assert_int_equal(s[0].cls[1], 1); /* 1 and 2 fight differently */
	/* name: no effect, its values one class, ranked last */
	assert_int_equal(s[1].knob, 1);
	assert_true(s[1].no_effect);
	assert_float_equal(s[1].score, -1, 0);
	assert_string_equal(s[1].vals[0], "a");
	assert_string_equal(s[1].vals[1], "b");
	assert_int_equal(s[1].cls[1], 0);
	/* name's means: each value's over lvl's two points, (0.3 + 0.6) / 2 */
	assert_float_equal(s[1].lo[0], 0.45, 1e-12);
	assert_float_equal(s[1].hi[0], 0.45, 1e-12);
	/* with no document, why cannot be told */
	assert_int_equal(fray_sweep_same_reading(ctx, NULL, NULL, NULL, 0, &w, &s[1]), -1);
	for (int p = 0; p < 4; p++)
		fray_sim_free(pts[p].sim);
}

/* A point's battles are the scenario's battles with the point's values,
 * on the same dice: the point at the file's own values counts exactly
 * what fray_simulate counts on the file (ruling R24: trial i, stream i). */
static void point_runs(void **state)
{
	(void)state;
	fray_doc *doc;
	fray_adbg_scenario *plain;
	fray_ctx_clear(ctx);
	assert_int_equal(fray_doc_load_file(ctx, FRAY_TEST_DATA "/adbg/tiny.yaml", &doc), FRAY_OK);
	assert_int_equal(fray_adbg_scenario_read(ctx, doc, &plain), FRAY_OK);
	fray_policy *pol = fray_policy_heuristic_new(ctx);
	assert_non_null(pol);
	fray_sim *direct = fray_sim_new(FRAY_ADBG_SIM_FIELDS);
	fray_sim_run run = {.proc = fray_adbg_battle_stats_procedure, .policy = pol, .input = plain,
			    .nfields = FRAY_ADBG_SIM_FIELDS, .seed = 5, .first = 0, .last = 300, .threads = 1};
	assert_int_equal(fray_simulate(ctx, &run, direct), FRAY_OK);
	fray_sweep_knob k = knob("sides.red.level=1,3", NULL);
	assert_int_equal(fray_sweep_bases(ctx, doc, &k, 1), FRAY_OK);
	assert_string_equal(k.base, "3");
	fray_sweep w;
	assert_int_equal(fray_sweep_points(ctx, &k, 1, 10, &w), FRAY_OK);
	assert_int_equal(w.np, 2);
	assert_true(w.pts[1].baseline);
	fray_sim_run template = {.policy = pol, .seed = 5, .first = 0, .last = 300, .threads = 1};
	for (size_t p = 0; p < w.np; p++)
		assert_int_equal(fray_sweep_run_point(ctx, doc, NULL, NULL, 0, &w, p, &template), FRAY_OK);
	assert_int_equal(fray_sim_trials(w.pts[1].sim), 300);
	assert_true(fray_sweep_same_sims(w.pts[1].sim, direct));
	/* a point past the last */
	fray_ctx_clear(ctx);
	assert_int_equal(fray_sweep_run_point(ctx, doc, NULL, NULL, 0, &w, 2, &template), FRAY_ERR_INPUT);
	assert_string_equal(fray_ctx_message(ctx), "no point 3 in a sweep of 2");
	fray_ctx_clear(ctx);
	/* the base read from a path that names nothing */
	fray_sweep_knob bad = knob("sides.red.levle=1", NULL);
	assert_int_equal(fray_sweep_bases(ctx, doc, &bad, 1), FRAY_ERR_INPUT);
	assert_string_equal(fray_ctx_message(ctx), "option --vary sides.red.levle: " FRAY_TEST_DATA
			    "/adbg/tiny.yaml: no key 'levle' in 'sides.red.levle' (at line 16)");
	fray_ctx_clear(ctx);
	fray_sweep_knob_free(ctx, &bad);
	for (size_t p = 0; p < w.np; p++)
		fray_sim_free(w.pts[p].sim);
	fray_sweep_points_free(ctx, &w);
	fray_sweep_knob_free(ctx, &k);
	fray_sim_free(direct);
	fray_policy_free(pol);
	fray_adbg_scenario_free(plain);
	fray_doc_free(doc);
}

/* The one writer of a rate with its 95% interval: 0 of 10 is the
 * textbook's Wilson interval [0, z^2/(n+z^2)] = [0, 0.27753...]. */
static void rate_forms(void **state)
{
	(void)state;
	char text[160];
	double z = 1.959963984540054, hi = z * z / (10 + z * z);
	fray_rate_str(0, 10, FRAY_RATE_PERCENT, text, sizeof text);
	char want[64];
	snprintf(want, sizeof want, "  0.00%% \u00b1%4.2f", 100 * hi / 2);
	assert_string_equal(text, want);
	size_t len = fray_rate_str(0, 10, FRAY_RATE_JSON, text, sizeof text);
	assert_int_equal(len, strlen(text));
	assert_memory_equal(text, "{\"p\": 0, \"lo\": 0, \"hi\": 0.277", 29);
	fray_rate_str(10, 10, FRAY_RATE_CSV, text, sizeof text);
	assert_memory_equal(text, "1,0.72", 6); /* lo = 1 - 0.2775... */
	assert_string_equal(text + strlen(text) - 2, ",1");
	/* no trials: 0 within [0, 1] */
	fray_rate_str(0, 0, FRAY_RATE_CSV, text, sizeof text);
	assert_string_equal(text, "0,0,1");
}

/* Out of memory: fail the n-th allocation (and all after it) for every n along a sweep's
 * knobs, grid and order; each fails with FRAY_ERR_NOMEM and keeps
 * nothing (ASan finds a leak). */
/* The calls with their k-th allocation and every one after it failing
 * (0: none); true when they succeeded. */
static bool sweep_under(void *ud, long n)
{
	(void)ud;
	fray_meter f = {.fail_at = n, .sticky = true};
	fray_ctx *lctx = fray_ctx_new(fray_metered, &f);
	if (!lctx)
		return false;
	fray_sweep_knob k[2] = {{0}, {0}};
	fray_sweep w = {0};
	fray_status st = fray_sweep_knob_parse(lctx, "a=1..20:3,x", 100, &k[0]);
	if (st == FRAY_OK)
		st = fray_sweep_knob_parse(lctx, "b=p,q", 100, &k[1]);
	if (st == FRAY_OK)
		st = fray_sweep_points(lctx, k, 2, 100, &w);
	fray_sim *sim = fray_sim_new(FRAY_ADBG_SIM_FIELDS);
	assert_non_null(sim);
	for (size_t p = 0; p < w.np; p++)
		w.pts[p].sim = sim;
	size_t order[32];
	fray_sweep_target t = {.on = true, .op = '=', .c = 0.5, .b = -1};
	if (st == FRAY_OK && fray_sweep_order(lctx, &w, &t, order) == (size_t)-1)
		st = fray_ctx_status(lctx);
	if (st != FRAY_OK)
		assert_int_equal(st, FRAY_ERR_NOMEM);
	fray_sim_free(sim);
	fray_sweep_points_free(lctx, &w);
	fray_sweep_knob_free(lctx, &k[0]);
	fray_sweep_knob_free(lctx, &k[1]);
	fray_ctx_free(lctx);
	return st == FRAY_OK;
}

static void out_of_memory(void **state)
{
	(void)state;
	/* a path, values, the points and the order all allocate */
	assert_true(fray_walk_all(sweep_under, NULL, 10000) > 5);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ranges_expand),
		cmocka_unit_test(bad_ranges),
		cmocka_unit_test(same_values),
		cmocka_unit_test(grid_and_baseline),
		cmocka_unit_test(targets_parse),
		cmocka_unit_test(bad_targets),
		cmocka_unit_test(targets_sort),
		cmocka_unit_test(sensitivity_ranks),
		cmocka_unit_test(point_runs),
		cmocka_unit_test(rate_forms),
		cmocka_unit_test(out_of_memory),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
