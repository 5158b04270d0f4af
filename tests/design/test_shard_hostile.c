/* Shard files as a hostile user would hand them to fray merge: names past
 * what a shard keeps (refused, not cut into another run's name), numbers
 * with a sign, spaces or 0x that strtoull would quietly take, shards whose
 * side names differ, and a sweep split by trials whose shards disagree on
 * a point's values. Each is refused at its file:line:col or told as
 * another run; the texts are written here by hand from the format
 * (docs/adbg.md, Shards). */
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

/* Shard 1 of 1 of 2 trials: side 1 wins both, every other field 0. */
static void sim_shard(char *out, size_t cap, const char *scenario, const char *seed, const char *digest,
		      const char *side_b)
{
	int n = snprintf(out, cap,
			 "{\"fray_shard\": 1, \"kind\": \"adbg.simulate\", \"scenario\": \"%s\",\n"
			 " \"scenario_fnv1a\": \"%s\", \"sides\": [\"Red\", \"%s\"], \"policy\": \"heuristic\",\n"
			 " \"seed\": \"%s\", \"trials\": 2, \"shard\": 1, \"of\": 1, \"first\": 0, \"last\": 2, "
			 "\"counted\": 2,\n \"counts\": [\n  [[1, 2]]",
			 scenario, digest, side_b, seed);
	for (int f = 1; f < FRAY_ADBG_SIM_FIELDS; f++)
		n += snprintf(out + n, cap - (size_t)n, ",\n  [[0, 2]]");
	snprintf(out + n, cap - (size_t)n, "]}\n");
}

/* The shard read: true when it reads; its problems into got. */
static bool read_sim(const char *text, fray_sim_shard *sh, char *got, size_t cap)
{
	fray_doc *doc;
	assert_int_equal(fray_doc_load_string(ctx, "shard.json", text, strlen(text), &doc), FRAY_OK);
	bool ok = fray_sim_shard_read(doc, sh);
	got[0] = '\0';
	for (size_t i = 0; i < fray_doc_error_count(doc); i++)
		snprintf(got + strlen(got), cap - strlen(got), "%s\n", fray_doc_error_msg(doc, i));
	fray_doc_free(doc);
	return ok;
}

static void refused(const char *scenario, const char *seed, const char *digest, const char *want)
{
	char text[8192], got[1024];
	sim_shard(text, sizeof text, scenario, seed, digest, "Blue");
	fray_sim_shard sh;
	assert_false(read_sim(text, &sh, got, sizeof got));
	assert_string_equal(got, want);
	fray_sim_free(sh.sim);
}

/* Two scenario names of 200 bytes sharing their first 127 were both cut to
 * the same 127 and merged as one run: a name past 127 bytes is refused. */
static void a_name_too_long_is_refused_not_cut(void **state)
{
	(void)state;
	char name[201];
	memset(name, 'S', 200);
	name[200] = '\0';
	refused(name, "7", "0000000000000abc",
		"shard.json:1:56: expected the scenario's name of at most 127 bytes, found 200\n");
	/* 127 bytes still read */
	name[127] = '\0';
	char text[8192], got[1024];
	sim_shard(text, sizeof text, name, "7", "0000000000000abc", "Blue");
	fray_sim_shard sh;
	assert_true(read_sim(text, &sh, got, sizeof got));
	assert_string_equal(sh.m.scenario, name);
	fray_sim_free(sh.sim);
}

/* strtoull takes " -1" as 2^64 - 1, "+7" as 7 and "0xabc" in base 16:
 * none of them is what fray writes (digits only). */
static void numbers_are_digits_only(void **state)
{
	(void)state;
	refused("T", " -1", "0000000000000abc", "shard.json:3:10: expected a seed, found ' -1'\n");
	refused("T", "+7", "0000000000000abc", "shard.json:3:10: expected a seed, found '+7'\n");
	refused("T", "7", "0x00000000000abc",
		"shard.json:2:20: expected a digest in hexadecimal, found '0x00000000000abc'\n");
	refused("T", "18446744073709551616", "0000000000000abc",
		"shard.json:3:10: expected a seed, found '18446744073709551616'\n");
}

/* Two shards that differ only in a side's name are not of one run. */
static void sides_must_agree(void **state)
{
	(void)state;
	char text[8192], got[1024];
	fray_sim_merge mg = {0};
	fray_sim_shard a, b;
	sim_shard(text, sizeof text, "T", "7", "0000000000000abc", "Blue");
	assert_true(read_sim(text, &a, got, sizeof got));
	/* shard 1 of 2 and shard 2 of 2 would be needed for a real merge: the
	 * same shard number under another side's name is the other run first */
	sim_shard(text, sizeof text, "T", "7", "0000000000000abc", "Green");
	assert_true(read_sim(text, &b, got, sizeof got));
	assert_int_equal(fray_sim_merge_add(&mg, &a), FRAY_MERGE_ADDED);
	assert_int_equal(fray_sim_merge_add(&mg, &b), FRAY_MERGE_OTHER_RUN);
	fray_sim_free(a.sim);
	fray_sim_free(b.sim);
	fray_sim_merge_free(&mg);
}

/* A sweep of one knob at two points, split by trials into 2 shards: shard
 * i holds trials [i-1, i) of each point; point 2's value as given. */
static void sweep_shard(char *out, size_t cap, int i, const char *value2)
{
	int n = snprintf(out, cap,
			 "{\"fray_shard\": 1, \"kind\": \"adbg.sweep\", \"scenario\": \"T\",\n"
			 " \"scenario_fnv1a\": \"0000000000000abc\", \"sides\": [\"Red\", \"Blue\"], \"policy\": \"heuristic\",\n"
			 " \"seed\": \"7\", \"trials\": 2, \"shard\": %d, \"of\": 2, \"split\": \"trials\", \"first\": %d, "
			 "\"last\": %d,\n \"vary\": [\"terrain\"], \"npoints\": 2, \"points\": [",
			 i, i - 1, i);
	for (int p = 1; p <= 2; p++) {
		n += snprintf(out + n, cap - (size_t)n,
			      "%s\n  {\"point\": %d, \"values\": [\"%s\"], \"baseline\": false, \"grid\": true, "
			      "\"counted\": 1, \"counts\": [\n   [[1, 1]]",
			      p > 1 ? "," : "", p, p == 1 ? "rough" : value2);
		for (int f = 1; f < FRAY_ADBG_SIM_FIELDS; f++)
			n += snprintf(out + n, cap - (size_t)n, ",\n   [[0, 1]]");
		n += snprintf(out + n, cap - (size_t)n, "]}");
	}
	snprintf(out + n, cap - (size_t)n, "]}\n");
}

static fray_merge_verdict add_sweep(fray_sweep_merge *mg, int i, const char *value2)
{
	char text[16384];
	sweep_shard(text, sizeof text, i, value2);
	fray_doc *doc;
	assert_int_equal(fray_doc_load_string(ctx, "sweep.json", text, strlen(text), &doc), FRAY_OK);
	fray_sweep_shard sh;
	bool ok = fray_sweep_shard_read(ctx, doc, &sh);
	if (!ok)
		fprintf(stderr, "%s\n", fray_doc_error_msg(doc, 0));
	assert_true(ok);
	fray_merge_verdict v = fray_sweep_merge_add(mg, &sh);
	fray_sweep_shard_free(&sh);
	fray_doc_free(doc);
	return v;
}

/* Split by trials, shard 2's point 2 at another value than shard 1's: the
 * counts of "open" were added into "settled" as one point. */
static void a_sweep_point_must_agree_across_shards(void **state)
{
	(void)state;
	fray_sweep_merge mg = {.ctx = ctx};
	assert_int_equal(add_sweep(&mg, 1, "settled"), FRAY_MERGE_ADDED);
	assert_int_equal(add_sweep(&mg, 2, "open"), FRAY_MERGE_OTHER_RUN);
	/* the same shard with the right value is still added */
	assert_int_equal(add_sweep(&mg, 2, "settled"), FRAY_MERGE_ADDED);
	char why[128];
	fray_sweep_merge_end(&mg, why, sizeof why);
	assert_string_equal(why, "");
	assert_int_equal(fray_sim_trials(mg.g.pts[1].sim), 2);
	fray_sweep_merge_free(&mg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_name_too_long_is_refused_not_cut),
		cmocka_unit_test(numbers_are_digits_only),
		cmocka_unit_test(sides_must_agree),
		cmocka_unit_test(a_sweep_point_must_agree_across_shards),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
