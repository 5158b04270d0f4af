/* The streaming simulator: histograms that match the dice, the same result
 * for any number of threads and for slices added together, a stop flag
 * honoured, and the Wilson interval against its textbook values. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "../test_util.h"
#include "../../src/core/trials.h"

/* two d6: their sum and the first die */
static void two_dice(fray_roller *r, fray_policy *p, const void *in, int64_t *out)
{
	(void)p;
	(void)in;
	int a = fray_die(r, 6, "a"), b = fray_die(r, 6, "b");
	out[0] = a + b;
	out[1] = a;
}

static fray_sim *sims[4];

static int setup_sims(void **state)
{
	(void)state;
	for (int i = 0; i < 4; i++)
		if (!(sims[i] = fray_sim_new(2)))
			return -1;
	return 0;
}

static int free_sims(void **state)
{
	(void)state;
	for (int i = 0; i < 4; i++)
		fray_sim_free(sims[i]);
	return 0;
}

/* Every count of every field, and the trials, alike. */
static void assert_same_sim(const fray_sim *a, const fray_sim *b)
{
	assert_int_equal(fray_sim_nfields(a), fray_sim_nfields(b));
	assert_int_equal(fray_sim_trials(a), fray_sim_trials(b));
	for (size_t f = 0; f < fray_sim_nfields(a); f++)
		for (int v = 0; v <= FRAY_SIM_MAX_VALUE; v++)
			assert_int_equal(fray_sim_count(a, f, v), fray_sim_count(b, f, v));
}

static void histograms_follow_the_dice(void **state)
{
	(void)state;
	fray_sim_run run = {.proc = two_dice, .nfields = 2, .seed = 7, .first = 0, .last = 360000,
			    .threads = 1};
	assert_int_equal(fray_simulate(ctx, &run, sims[0]), FRAY_OK);
	assert_int_equal(fray_sim_trials(sims[0]), 360000);
	/* P(sum = s) = (6 - |s - 7|) / 36; 5 standard deviations of slack */
	for (int s = 2; s <= 12; s++) {
		double p = (6.0 - abs(s - 7)) / 36, n = 360000;
		double sd = sqrt(n * p * (1 - p));
		assert_true(fabs((double)fray_sim_count(sims[0], 0, s) - n * p) < 5 * sd);
	}
	assert_int_equal(fray_sim_count(sims[0], 0, 1) + fray_sim_count(sims[0], 0, 13), 0);
	assert_double_equal(fray_sim_mean(sims[0], 1), 3.5, 0.02);

	/* two threads, and three slices added: the same counts */
	run.threads = 2;
	assert_int_equal(fray_simulate(ctx, &run, sims[1]), FRAY_OK);
	assert_same_sim(sims[0], sims[1]);
	fray_sim_free(sims[2]);
	sims[2] = fray_sim_new(2);
	assert_non_null(sims[2]);
	uint64_t cut[] = {0, 1000, 250001, 360000};
	for (int i = 0; i < 3; i++) {
		fray_sim_run part = run;
		part.first = cut[i];
		part.last = cut[i + 1];
		assert_int_equal(fray_simulate(ctx, &part, sims[3]), FRAY_OK);
		assert_int_equal(fray_sim_add(sims[2], sims[3]), FRAY_OK);
	}
	assert_same_sim(sims[0], sims[2]);
}

static void stop_flag(void **state)
{
	(void)state;
	static volatile sig_atomic_t stop = 1;
	fray_sim_run run = {.proc = two_dice, .nfields = 2, .seed = 7, .first = 0, .last = 1000000,
			    .threads = 2, .stop = &stop};
	assert_int_equal(fray_simulate(ctx, &run, sims[0]), FRAY_OK);
	assert_int_equal(fray_sim_trials(sims[0]), 0);
}

static void bad_outcome(fray_roller *r, fray_policy *p, const void *in, int64_t *out)
{
	(void)r;
	(void)p;
	(void)in;
	out[0] = 256;
}

static void outcome_out_of_range(void **state)
{
	(void)state;
	fray_sim_run run = {.proc = bad_outcome, .nfields = 1, .first = 0, .last = 10, .threads = 1};
	assert_int_equal(fray_simulate(ctx, &run, sims[0]), FRAY_ERR_INTERNAL);
	fray_ctx_clear(ctx);
}

/* The opaque result refuses what does not fit instead of writing past it. */
static void result_boundaries(void **state)
{
	(void)state;
	assert_null(fray_sim_new(0));
	assert_null(fray_sim_new(FRAY_SIM_MAX_FIELDS + 1));
	fray_sim *one = fray_sim_new(1), *two = fray_sim_new(2);
	assert_non_null(one);
	assert_non_null(two);
	assert_int_equal(fray_sim_add(one, two), FRAY_ERR_INPUT);
	assert_int_equal(fray_sim_add(NULL, two), FRAY_ERR_INPUT);
	assert_int_equal(fray_sim_add_count(two, 2, 0, 1), FRAY_ERR_INPUT);
	assert_int_equal(fray_sim_add_count(two, 0, FRAY_SIM_MAX_VALUE + 1, 1), FRAY_ERR_INPUT);
	assert_int_equal(fray_sim_add_count(two, 0, -1, 1), FRAY_ERR_INPUT);
	assert_int_equal(fray_sim_add_count(two, 1, 3, FRAY_SIM_MAX_TRIALS), FRAY_OK);
	assert_int_equal(fray_sim_add_count(two, 1, 3, 1), FRAY_ERR_LIMIT);
	fray_sim_set_trials(two, 4);
	assert_int_equal(fray_sim_add_count(two, 0, 5, 4), FRAY_OK);
	assert_double_equal(fray_sim_mean(two, 0), 5.0, 1e-12);
	assert_int_equal(fray_sim_count(two, 0, 5), 4);
	assert_int_equal(fray_sim_count(two, 2, 5), 0);
	assert_int_equal(fray_sim_count(NULL, 0, 5), 0);
	assert_double_equal(fray_sim_mean(two, 7), 0.0, 0);
	assert_int_equal(fray_simulate(ctx, NULL, two), FRAY_ERR_INPUT);
	assert_non_null(strstr(fray_ctx_message(ctx), "fray_simulate"));
	fray_ctx_clear(ctx);
	fray_sim_free(one);
	fray_sim_free(two);
	fray_sim_free(NULL);
}

static void wilson_interval(void **state)
{
	(void)state;
	double lo, hi;
	/* Wilson (1927); Newcombe (1998) table I: 81/263 -> 0.2553-0.3662 */
	fray_wilson95(81, 263, &lo, &hi);
	assert_double_equal(lo, 0.2553, 0.00005);
	assert_double_equal(hi, 0.3662, 0.00005);
	/* 0 of 10 -> 0-0.2775; 15/148 -> 0.0624-0.1605 (same table) */
	fray_wilson95(0, 10, &lo, &hi);
	assert_double_equal(lo, 0, 1e-12);
	assert_double_equal(hi, 0.2775, 0.00005);
	fray_wilson95(15, 148, &lo, &hi);
	assert_double_equal(lo, 0.0624, 0.00005);
	assert_double_equal(hi, 0.1605, 0.00005);
}

/* Issue 13: a machine with more cores than fray's thread limit once made
 * every simulation without --threads fail as bad input; the automatic
 * count is one per core, capped at the limit. */
static void automatic_threads_capped(void **state)
{
	(void)state;
	static const struct { long online; unsigned want; } rows[] = {
		{-1, 1}, {0, 1}, {1, 1}, {2, 2}, {256, 256}, {257, 256}, {4096, 256},
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
		assert_int_equal(frayi_threads_for_cores(rows[i].online), rows[i].want);
	assert_int_equal(FRAY_AGGREGATE_MAX_THREADS, 256);
}

static int group_setup(void **state)
{
	return setup(state) || setup_sims(state);
}

static int group_teardown(void **state)
{
	free_sims(state);
	return teardown(state);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(histograms_follow_the_dice),
		cmocka_unit_test(stop_flag),
		cmocka_unit_test(outcome_out_of_range),
		cmocka_unit_test(wilson_interval),
		cmocka_unit_test(automatic_threads_capped),
		cmocka_unit_test(result_boundaries),
	};
	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
