/* Shard files (include/fray/shard.h): the slices of a run, a shard's text
 * written out by hand from the format (docs/adbg.md, Shards) and read back,
 * a tampered shard refused at its file:line:col, and shards merged back
 * into one run: counts added, a shard given twice or of another run
 * refused, a partial merge told; the same for a sweep's shards by points;
 * and every allocation of a sweep's merge failed in turn. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "../test_util.h"
#include <fray/fray.h>
#include <fray/shard.h>

/* trials [first, last) of which `red` won for side 1 and the rest for
 * side 2; every other field 0 in each trial. */
static fray_sim *sim_of(uint64_t trials, uint64_t red)
{
	fray_sim *s = fray_sim_new(FRAY_ADBG_SIM_FIELDS);
	assert_non_null(s);
	fray_sim_set_trials(s, trials);
	if (red)
		assert_int_equal(fray_sim_add_count(s, FRAY_ADBG_SIM_WINNER, 1, red), FRAY_OK);
	if (trials - red)
		assert_int_equal(fray_sim_add_count(s, FRAY_ADBG_SIM_WINNER, 2, trials - red), FRAY_OK);
	for (size_t f = 1; f < FRAY_ADBG_SIM_FIELDS; f++)
		assert_int_equal(fray_sim_add_count(s, f, 0, trials), FRAY_OK);
	return s;
}

static fray_shard_meta meta(uint64_t shard, uint64_t of)
{
	fray_shard_meta m = {.digest = 0xabc, .seed = 7, .trials = 10, .shard = shard, .nshards = of};
	snprintf(m.scenario, sizeof m.scenario, "Tiny \"t\"");
	snprintf(m.side[0], sizeof m.side[0], "Red");
	snprintf(m.side[1], sizeof m.side[1], "Blue");
	snprintf(m.policy, sizeof m.policy, "heuristic");
	return m;
}

/* 10 trials in 3 shards: 10*i/3 rounded down, so 0..3, 3..6, 6..10. */
static void slices_cover_the_trials(void **state)
{
	(void)state;
	assert_int_equal(fray_shard_slice(10, 0, 3), 0);
	assert_int_equal(fray_shard_slice(10, 1, 3), 3);
	assert_int_equal(fray_shard_slice(10, 2, 3), 6);
	assert_int_equal(fray_shard_slice(10, 3, 3), 10);
	/* a trillion trials in a million shards: no overflow */
	assert_int_equal(fray_shard_slice(1000000000000u, 999999, 1000000), 999999000000u);
	assert_int_equal(fray_sweep_point_slice(3, 1, 2), 1);
}

/* Shard i of 3 of the 10 trials, its text (red wins: 1, 2, 2). */
static char *shard_text(uint64_t i, uint64_t counted, size_t *len)
{
	uint64_t first = fray_shard_slice(10, i - 1, 3), last = fray_shard_slice(10, i, 3);
	fray_shard_meta m = meta(i, 3);
	fray_sim *s = sim_of(counted, i == 1 ? 1 : 2);
	char *text;
	assert_int_equal(fray_sim_shard_text(&m, s, first, last, &text, len), FRAY_OK);
	fray_sim_free(s);
	return text;
}

static void a_shard_written_and_read_back(void **state)
{
	(void)state;
	size_t len;
	char *text = shard_text(2, 3, &len);
	char want[4096];
	int n = snprintf(want, sizeof want,
			 "{\"fray_shard\": 1, \"kind\": \"adbg.simulate\", \"scenario\": \"Tiny \\\"t\\\"\",\n"
			 " \"scenario_fnv1a\": \"0000000000000abc\", \"sides\": [\"Red\", \"Blue\"], \"policy\": \"heuristic\",\n"
			 " \"seed\": \"7\", \"trials\": 10, \"shard\": 2, \"of\": 3, \"first\": 3, \"last\": 6, \"counted\": 3,\n"
			 " \"counts\": [\n  [[1, 2], [2, 1]]");
	for (int f = 1; f < FRAY_ADBG_SIM_FIELDS; f++)
		n += snprintf(want + n, sizeof want - (size_t)n, ",\n  [[0, 3]]");
	snprintf(want + n, sizeof want - (size_t)n, "]}\n");
	assert_string_equal(text, want);
	assert_int_equal(len, strlen(want));

	fray_doc *doc;
	assert_int_equal(fray_doc_load_string(ctx, "shard.json", text, len, &doc), FRAY_OK);
	fray_sim_shard sh;
	assert_true(fray_sim_shard_read(doc, &sh));
	fray_shard_meta m = meta(2, 3);
	assert_true(fray_shard_same_run(&sh.m, &m));
	assert_int_equal(sh.m.shard, 2);
	assert_string_equal(sh.m.side[1], "Blue");
	assert_int_equal(sh.first, 3);
	assert_int_equal(sh.last, 6);
	assert_int_equal(fray_sim_trials(sh.sim), 3);
	assert_int_equal(fray_sim_count(sh.sim, FRAY_ADBG_SIM_WINNER, 1), 2);
	assert_int_equal(fray_sim_count(sh.sim, FRAY_ADBG_SIM_WINNER, 2), 1);
	assert_false(fray_shard_is_sweep(doc));
	fray_sim_free(sh.sim);
	fray_doc_free(doc);
	free(text);
}

/* text with the first `from` replaced by `to`, read: its problems. */
static void problems_of(const char *text, const char *from, const char *to, char *out, size_t cap)
{
	char bad[4096];
	const char *at = strstr(text, from);
	assert_non_null(at);
	snprintf(bad, sizeof bad, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
	fray_doc *doc;
	assert_int_equal(fray_doc_load_string(ctx, "shard.json", bad, strlen(bad), &doc), FRAY_OK);
	fray_sim_shard sh;
	assert_false(fray_sim_shard_read(doc, &sh));
	out[0] = '\0';
	for (size_t i = 0; i < fray_doc_error_count(doc); i++)
		snprintf(out + strlen(out), cap - strlen(out), "%s\n", fray_doc_error_msg(doc, i));
	fray_sim_free(sh.sim);
	fray_doc_free(doc);
}

static void a_tampered_shard_is_refused_at_its_place(void **state)
{
	(void)state;
	size_t len;
	char *text = shard_text(2, 3, &len);
	char got[4096];
	/* one trial fewer counted than the counts hold: each field's list
	 * (from line 5, column 3) says so */
	problems_of(text, "\"counted\": 3", "\"counted\": 2", got, sizeof got);
	assert_non_null(strstr(got, "shard.json:5:3: the counts add up to more than the 2 trials counted\n"));
	assert_non_null(strstr(got, "shard.json:6:3: the counts add up to more than the 2 trials counted\n"));
	/* more trials counted than trials 3..6 hold (line 3, column 84) */
	problems_of(text, "\"counted\": 3", "\"counted\": 4", got, sizeof got);
	assert_string_equal(got, "shard.json:3:84: more trials counted than the shard has\n");
	/* a slice that is not shard 2's: said at the shard number (line 3, column 38) */
	problems_of(text, "\"last\": 6", "\"last\": 7", got, sizeof got);
	assert_string_equal(got, "shard.json:3:38: shard 2 of 3 of 10 trials is not trials 3..7\n");
	/* another format */
	problems_of(text, "\"fray_shard\": 1", "\"fray_shard\": 2", got, sizeof got);
	assert_string_equal(got, "shard.json:1:16: shard format 2 is not the one this fray reads (1)\n");
	free(text);
}

static void read_shard(const char *text, size_t len, fray_sim_shard *sh)
{
	fray_doc *doc;
	assert_int_equal(fray_doc_load_string(ctx, "shard.json", text, len, &doc), FRAY_OK);
	assert_true(fray_sim_shard_read(doc, sh));
	fray_doc_free(doc);
}

/* Shards i (1..3), each of its whole slice unless counted says fewer. */
static void merge_shards(fray_sim_merge *mg, const uint64_t *which, size_t n, const uint64_t *counted,
			 fray_merge_verdict *last)
{
	for (size_t k = 0; k < n; k++) {
		uint64_t i = which[k];
		size_t len;
		uint64_t whole = fray_shard_slice(10, i, 3) - fray_shard_slice(10, i - 1, 3);
		char *text = shard_text(i, counted ? counted[k] : whole, &len);
		fray_sim_shard sh;
		read_shard(text, len, &sh);
		*last = fray_sim_merge_add(mg, &sh);
		fray_sim_free(sh.sim);
		free(text);
	}
}

static void shards_merge_into_one_run(void **state)
{
	(void)state;
	char why[128];
	fray_merge_verdict v;
	/* all three, in any order: 10 trials, red wins 1 + 2 + 2 */
	fray_sim_merge mg = {0};
	merge_shards(&mg, (const uint64_t[]){3, 1, 2}, 3, NULL, &v);
	assert_int_equal(v, FRAY_MERGE_ADDED);
	fray_sim_merge_end(&mg, why, sizeof why);
	assert_string_equal(why, "");
	assert_int_equal(fray_sim_trials(mg.total), 10);
	assert_int_equal(fray_sim_count(mg.total, FRAY_ADBG_SIM_WINNER, 1), 5);
	assert_int_equal(fray_sim_count(mg.total, FRAY_ADBG_SIM_WINNER, 2), 5);
	assert_int_equal(mg.m.shard, 1);
	assert_int_equal(mg.m.nshards, 1);
	fray_sim_merge_free(&mg);
	/* two of three */
	merge_shards(&mg, (const uint64_t[]){1, 3}, 2, NULL, &v);
	fray_sim_merge_end(&mg, why, sizeof why);
	assert_string_equal(why, "2 of 3 shards merged");
	assert_int_equal(fray_sim_trials(mg.total), 7);
	fray_sim_merge_free(&mg);
	/* every shard, one stopped after 2 of its 3 trials */
	merge_shards(&mg, (const uint64_t[]){1, 2, 3}, 3, (const uint64_t[]){3, 2, 4}, &v);
	fray_sim_merge_end(&mg, why, sizeof why);
	assert_string_equal(why, "a shard was stopped early");
	fray_sim_merge_free(&mg);
	/* a shard twice */
	merge_shards(&mg, (const uint64_t[]){2, 2}, 2, NULL, &v);
	assert_int_equal(v, FRAY_MERGE_TWICE);
	fray_sim_merge_free(&mg);
	/* a shard of another run (another seed) */
	merge_shards(&mg, (const uint64_t[]){1}, 1, NULL, &v);
	fray_sim_shard other = {.m = meta(2, 3), .first = 3, .last = 6, .sim = sim_of(3, 0)};
	other.m.seed = 8;
	assert_int_equal(fray_sim_merge_add(&mg, &other), FRAY_MERGE_OTHER_RUN);
	fray_sim_free(other.sim);
	fray_sim_merge_free(&mg);
}

/* ---- a sweep's shards: knob terrain at three points, split by points ---- */

static const char *const terrains[] = {"rough", "settled", "open"};

/* The sweep's text for shard i of 2 (points [3(i-1)/2, 3i/2)), each point
 * p of 10 trials with p + 1 wins for side 1; point 2 the baseline. */
static char *sweep_text(fray_ctx *lctx, uint64_t i, size_t *len)
{
	(void)lctx;
	fray_sweep_point pts[3];
	for (int p = 0; p < 3; p++)
		pts[p] = (fray_sweep_point){.val = {terrains[p]}, .baseline = p == 1, .grid = true,
					     .sim = sim_of(10, (uint64_t)p + 1)};
	fray_sweep w = {.nk = 1, .paths = {"terrain"}, .pts = pts, .np = 3};
	fray_shard_meta m = meta(i, 2);
	size_t lo = (size_t)fray_sweep_point_slice(3, i - 1, 2), hi = (size_t)fray_sweep_point_slice(3, i, 2);
	char *text;
	fray_status st = fray_sweep_shard_text(&m, &w, false, 0, 10, lo, hi, &text, len);
	for (int p = 0; p < 3; p++)
		fray_sim_free(pts[p].sim);
	return st == FRAY_OK ? text : NULL;
}

static void a_sweep_shard_written(void **state)
{
	(void)state;
	size_t len;
	char *text = sweep_text(ctx, 1, &len);
	assert_non_null(text);
	char want[4096];
	int n = snprintf(want, sizeof want,
			 "{\"fray_shard\": 1, \"kind\": \"adbg.sweep\", \"scenario\": \"Tiny \\\"t\\\"\",\n"
			 " \"scenario_fnv1a\": \"0000000000000abc\", \"sides\": [\"Red\", \"Blue\"], \"policy\": \"heuristic\",\n"
			 " \"seed\": \"7\", \"trials\": 10, \"shard\": 1, \"of\": 2, \"split\": \"points\", \"first\": 0, "
			 "\"last\": 10,\n \"vary\": [\"terrain\"], \"npoints\": 3, \"points\": [\n"
			 "  {\"point\": 1, \"values\": [\"rough\"], \"baseline\": false, \"grid\": true, \"counted\": 10, "
			 "\"counts\": [[[1, 1], [2, 9]]");
	/* one point a line (fray merge reads them a line at a time) */
	for (int f = 1; f < FRAY_ADBG_SIM_FIELDS; f++)
		n += snprintf(want + n, sizeof want - (size_t)n, ", [[0, 10]]");
	snprintf(want + n, sizeof want - (size_t)n, "]}]}\n");
	assert_string_equal(text, want);
	free(text);
}

/* A shard of 1000 points (far past what one document read whole may hold)
 * read a line at a time as fray merge reads it: the head, then each point
 * from its own line, added as it is read. Point p has p % 11 wins of 10. */
static void a_big_sweep_shard_read_a_line_at_a_time(void **state)
{
	(void)state;
	enum { NP = 1000 };
	fray_sweep_point *pts = calloc(NP, sizeof *pts);
	char (*vals)[16] = calloc(NP, sizeof *vals);
	assert_true(pts && vals);
	for (int p = 0; p < NP; p++) {
		snprintf(vals[p], sizeof vals[p], "v%d", p);
		pts[p] = (fray_sweep_point){.val = {vals[p]}, .grid = true, .sim = sim_of(10, (uint64_t)(p % 11))};
	}
	fray_sweep w = {.nk = 1, .paths = {"terrain"}, .pts = pts, .np = NP};
	fray_shard_meta m = meta(1, 1);
	char *text;
	size_t len;
	assert_int_equal(fray_sweep_shard_text(&m, &w, false, 0, 10, 0, NP, &text, &len), FRAY_OK);
	for (int p = 0; p < NP; p++)
		fray_sim_free(pts[p].sim);
	/* the head: the lines up to `"points": [`, closed */
	char *at = strstr(text, "\"points\": [\n");
	assert_non_null(at);
	size_t head_len = (size_t)(at - text) + strlen("\"points\": [");
	char *head = malloc(head_len + 3);
	assert_non_null(head);
	memcpy(head, text, head_len);
	memcpy(head + head_len, "]}", 3);
	fray_doc *doc = NULL;
	fray_sweep_shard sh = {0};
	fray_sweep_merge mg = {.ctx = ctx};
	assert_int_equal(fray_doc_load_string(ctx, "big.json", head, head_len + 2, &doc), FRAY_OK);
	assert_true(fray_sweep_shard_read_head(ctx, doc, &sh));
	fray_doc_free(doc);
	assert_int_equal(sh.lo, 0);
	assert_int_equal(sh.hi, NP);
	assert_int_equal(fray_sweep_merge_begin(&mg, &sh), FRAY_MERGE_ADDED);
	/* then one point a line, each but the last ending in ',', the last in ']}' */
	fray_sweep_shard_point pt = {0};
	char *line = at + strlen("\"points\": [\n");
	for (uint64_t k = 0; k < NP; k++) {
		char *nl = strchr(line, '\n');
		assert_non_null(nl);
		size_t cut = k + 1 < NP ? 1 : 2;
		assert_memory_equal(nl - cut, k + 1 < NP ? "," : "]}", cut);
		assert_int_equal(fray_doc_load_string(ctx, "big.json", line, (size_t)(nl - cut - line), &doc), FRAY_OK);
		assert_true(fray_sweep_shard_read_point(doc, fray_doc_root(doc), &sh, k, &pt));
		fray_doc_free(doc);
		assert_int_equal(fray_sweep_merge_point(&mg, &sh, &pt), FRAY_MERGE_ADDED);
		line = nl + 1;
	}
	assert_int_equal(*line, '\0');
	fray_sim_free(pt.sim);
	char why[160];
	fray_sweep_merge_end(&mg, why, sizeof why);
	assert_string_equal(why, "");
	assert_int_equal(mg.g.np, NP);
	for (int p = 0; p < NP; p++) {
		assert_string_equal(mg.g.pts[p].val[0], vals[p]);
		assert_int_equal(fray_sim_count(mg.g.pts[p].sim, FRAY_ADBG_SIM_WINNER, 1), p % 11);
	}
	fray_sweep_merge_free(&mg);
	free(head);
	free(text);
	free(pts);
	free(vals);
}

/* Shards `which` of the sweep read and merged on lctx; the merge's
 * verdict of the last, or NOMEM when reading ran out of memory. */
static fray_merge_verdict merge_sweep(fray_ctx *lctx, fray_sweep_merge *mg, const uint64_t *which, size_t n)
{
	fray_merge_verdict v = FRAY_MERGE_ADDED;
	for (size_t k = 0; k < n && v == FRAY_MERGE_ADDED; k++) {
		size_t len;
		char *text = sweep_text(lctx, which[k], &len);
		assert_non_null(text);
		fray_doc *doc = NULL;
		fray_sweep_shard sh = {0};
		if (fray_doc_load_string(lctx, "sweep.json", text, len, &doc) != FRAY_OK)
			v = FRAY_MERGE_NOMEM;
		else if (!fray_sweep_shard_read(lctx, doc, &sh))
			v = FRAY_MERGE_NOMEM; /* only memory can fail here: the text is right */
		else
			v = fray_sweep_merge_add(mg, &sh);
		if (doc && v == FRAY_MERGE_NOMEM && fray_doc_error_count(doc))
			assert_string_equal(strstr(fray_doc_error_msg(doc, 0), "out of memory"), "out of memory");
		fray_sweep_shard_free(&sh);
		fray_doc_free(doc);
		free(text);
	}
	return v;
}

static void sweep_shards_merge_point_by_point(void **state)
{
	(void)state;
	char why[160];
	fray_sweep_merge mg = {.ctx = ctx};
	assert_int_equal(merge_sweep(ctx, &mg, (const uint64_t[]){2, 1}, 2), FRAY_MERGE_ADDED);
	fray_sweep_merge_end(&mg, why, sizeof why);
	assert_string_equal(why, "");
	assert_int_equal(mg.g.np, 3);
	assert_int_equal(mg.g.nk, 1);
	assert_string_equal(mg.g.paths[0], "terrain");
	for (size_t p = 0; p < 3; p++) {
		assert_string_equal(mg.g.pts[p].val[0], terrains[p]);
		assert_int_equal(mg.g.pts[p].baseline, p == 1);
		assert_int_equal(fray_sim_trials(mg.g.pts[p].sim), 10);
		assert_int_equal(fray_sim_count(mg.g.pts[p].sim, FRAY_ADBG_SIM_WINNER, 1), p + 1);
	}
	fray_sweep_merge_free(&mg);
	/* shard 2 alone: points 2 and 3, the first dropped */
	assert_int_equal(merge_sweep(ctx, &mg, (const uint64_t[]){2}, 1), FRAY_MERGE_ADDED);
	fray_sweep_merge_end(&mg, why, sizeof why);
	assert_string_equal(why, "1 of 2 shards merged");
	assert_int_equal(mg.g.np, 2);
	assert_string_equal(mg.g.pts[0].val[0], "settled");
	assert_string_equal(mg.g.pts[1].val[0], "open");
	fray_sweep_merge_free(&mg);
	assert_int_equal(merge_sweep(ctx, &mg, (const uint64_t[]){1, 1}, 2), FRAY_MERGE_TWICE);
	fray_sweep_merge_free(&mg);
}

/* Out of memory: fail the k-th allocation (and every one after it) for
 * every k along two sweep shards read and merged; each fails with NOMEM and keeps nothing (ASan
 * finds a leak), until one n is enough for the whole. */
static bool merge_under(void *ud, long k)
{
	fray_meter *f = ud;
	*f = (fray_meter){.sticky = true};
	fray_meter_fail(f, k);
	fray_ctx *lctx = fray_ctx_new(fray_metered, f);
	if (!lctx)
		return false;
	fray_sweep_merge mg = {.ctx = lctx};
	fray_merge_verdict v = merge_sweep(lctx, &mg, (const uint64_t[]){1, 2}, 2);
	if (v != FRAY_MERGE_ADDED)
		assert_int_equal(v, FRAY_MERGE_NOMEM);
	fray_sweep_merge_free(&mg);
	fray_ctx_free(lctx);
	return v == FRAY_MERGE_ADDED;
}

static void out_of_memory(void **state)
{
	(void)state;
	fray_meter f;
	/* documents, points, the merge's points, values and marks */
	assert_true(fray_walk_all(merge_under, &f, 100000) > 5);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(slices_cover_the_trials),
		cmocka_unit_test(a_shard_written_and_read_back),
		cmocka_unit_test(a_tampered_shard_is_refused_at_its_place),
		cmocka_unit_test(shards_merge_into_one_run),
		cmocka_unit_test(a_sweep_shard_written),
		cmocka_unit_test(sweep_shards_merge_point_by_point),
		cmocka_unit_test(a_big_sweep_shard_read_a_line_at_a_time),
		cmocka_unit_test(out_of_memory),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
