/* A battle's odds (fray_adbg_battle_odds, include/fray/adbg.h): exact
 * within the budget, else simulated with the reason in one word. The
 * battle is tests/data/adbg/one-round.yaml, whose exact odds
 * tests/reference/adbg_tiny_battle.py counts die by die from the rule text
 * (19.1-19.3 and the rulings), without fray: Red wins 1/12, Blue 5/36, a
 * draw 7/9. */
#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "../../test_util.h"
#include <fray/fray.h>

/* the reference's shares, by the outcome's winner field: 0 a draw, 1 Red
 * (the first side in the file), 2 Blue */
static const double share[3] = {7.0 / 9, 1.0 / 12, 5.0 / 36};

static fray_adbg_scenario *scenario;
static fray_policy *heuristic;

static int load(void **state)
{
	if (setup(state))
		return -1;
	heuristic = fray_policy_heuristic_new(ctx);
	return heuristic && fray_adbg_scenario_load(ctx, FRAY_TEST_DATA "/adbg/one-round.yaml", &scenario) == FRAY_OK
		       ? 0 : -1;
}

static int unload(void **state)
{
	fray_adbg_scenario_free(scenario);
	fray_policy_free(heuristic);
	return teardown(state);
}

/* The shares of the winner field in d. */
static void winners(const fray_dist *d, double got[3])
{
	got[0] = got[1] = got[2] = 0;
	for (size_t i = 0; i < fray_dist_count(d); i++) {
		int64_t w = fray_dist_outcome(d, i)[0];
		assert_in_range(w, 0, 2);
		got[w] += fray_dist_p(d, i);
	}
}

/* Each share within 5 standard errors of the reference's, for n trials. */
static void close_to_reference(const fray_dist *d, uint64_t n)
{
	double got[3];
	winners(d, got);
	for (int w = 0; w < 3; w++)
		assert_double_equal(got[w], share[w], 5 * sqrt(share[w] * (1 - share[w]) / (double)n));
}

static void the_reference_is_whole(void **state)
{
	(void)state;
	/* 7/9 + 1/12 + 5/36 = (28 + 3 + 5) / 36 */
	assert_double_equal(share[0] + share[1] + share[2], 1.0, 1e-15);
}

static void exact_within_the_budget(void **state)
{
	(void)state;
	fray_adbg_odds_opts o = {.budget = 100000, .trials = 1000, .seed = 1};
	fray_adbg_odds odds;
	assert_int_equal(fray_adbg_battle_odds(ctx, scenario, heuristic, &o, &odds), FRAY_OK);
	assert_true(odds.exact);
	assert_true(fray_dist_is_exact(odds.dist));
	assert_null(odds.reason);
	assert_string_equal(odds.fell_back, "");
	double got[3];
	winners(odds.dist, got);
	for (int w = 0; w < 3; w++)
		assert_double_equal(got[w], share[w], 1e-12);
	fray_dist_free(odds.dist);
}

/* A budget of one path: the walk passes it, a simulation answers and says
 * why (the JSON's not_exact: "paths", with the walk's message). */
static void past_the_paths_it_simulates_and_says_why(void **state)
{
	(void)state;
	fray_adbg_odds_opts o = {.budget = 1, .trials = 20000, .seed = 1, .threads = 2};
	fray_adbg_odds odds;
	assert_int_equal(fray_adbg_battle_odds(ctx, scenario, heuristic, &o, &odds), FRAY_OK);
	assert_false(odds.exact);
	assert_false(fray_dist_is_exact(odds.dist));
	assert_string_equal(odds.reason, "paths");
	assert_non_null(strstr(odds.fell_back, "more than 1 outcome paths"));
	assert_int_equal(fray_dist_trials(odds.dist), 20000);
	assert_string_equal(fray_ctx_message(ctx), ""); /* the walk's failure is no failure of the call */
	close_to_reference(odds.dist, 20000);
	fray_dist_free(odds.dist);
}

static void past_the_memory_it_simulates_and_says_why(void **state)
{
	(void)state;
	fray_adbg_odds_opts o = {.budget = 100000, .max_bytes = 1, .trials = 2000, .seed = 1};
	fray_adbg_odds odds;
	assert_int_equal(fray_adbg_battle_odds(ctx, scenario, heuristic, &o, &odds), FRAY_OK);
	assert_false(odds.exact);
	assert_string_equal(odds.reason, "memory");
	assert_string_not_equal(odds.fell_back, "");
	fray_dist_free(odds.dist);
}

/* A budget of 0 asks for a simulation; a policy that does not decide alike
 * each time cannot be walked: neither tries, neither has a message. */
static void not_tried_asked_or_policy(void **state)
{
	(void)state;
	fray_adbg_odds_opts o = {.budget = 0, .trials = 2000, .seed = 1};
	fray_adbg_odds odds;
	assert_int_equal(fray_adbg_battle_odds(ctx, scenario, heuristic, &o, &odds), FRAY_OK);
	assert_false(odds.exact);
	assert_string_equal(odds.reason, "asked");
	assert_string_equal(odds.fell_back, "");
	assert_int_equal(fray_dist_trials(odds.dist), 2000);
	fray_dist_free(odds.dist);

	fray_policy *random = fray_policy_random_new(ctx, 5);
	assert_non_null(random);
	o.budget = 100000;
	assert_int_equal(fray_adbg_battle_odds(ctx, scenario, random, &o, &odds), FRAY_OK);
	assert_false(odds.exact);
	assert_string_equal(odds.reason, "policy");
	assert_string_equal(odds.fell_back, "");
	fray_dist_free(odds.dist);
	fray_policy_free(random);
}

/* The same seed, the same simulation, whatever the threads (ruling R24). */
static void the_simulation_is_the_seeds(void **state)
{
	(void)state;
	fray_adbg_odds a, b;
	fray_adbg_odds_opts o = {.budget = 0, .trials = 3000, .seed = 9, .threads = 1};
	assert_int_equal(fray_adbg_battle_odds(ctx, scenario, heuristic, &o, &a), FRAY_OK);
	o.threads = 3;
	assert_int_equal(fray_adbg_battle_odds(ctx, scenario, heuristic, &o, &b), FRAY_OK);
	assert_int_equal(fray_dist_count(a.dist), fray_dist_count(b.dist));
	for (size_t i = 0; i < fray_dist_count(a.dist); i++)
		assert_int_equal(fray_dist_hits(a.dist, i), fray_dist_hits(b.dist, i));
	fray_dist_free(a.dist);
	fray_dist_free(b.dist);
}

static void stopped_it_fails_with_no_dist(void **state)
{
	(void)state;
	static volatile sig_atomic_t stop = 1;
	fray_adbg_odds odds;
	fray_adbg_odds_opts walk = {.budget = 100000, .trials = 2000, .seed = 1, .stop = &stop};
	assert_int_equal(fray_adbg_battle_odds(ctx, scenario, heuristic, &walk, &odds), FRAY_ERR_BUDGET);
	assert_null(odds.dist);
	fray_adbg_odds_opts sim = {.budget = 0, .trials = 2000, .seed = 1, .stop = &stop};
	assert_int_equal(fray_adbg_battle_odds(ctx, scenario, heuristic, &sim, &odds), FRAY_ERR_BUDGET);
	assert_null(odds.dist);
	fray_ctx_clear(ctx);
}

static void null_arguments(void **state)
{
	(void)state;
	fray_adbg_odds_opts o = {.budget = 10};
	fray_adbg_odds odds;
	assert_int_equal(fray_adbg_battle_odds(ctx, NULL, heuristic, &o, &odds), FRAY_ERR_INPUT);
	assert_null(odds.dist);
	assert_int_equal(fray_adbg_battle_odds(ctx, scenario, NULL, &o, &odds), FRAY_ERR_INPUT);
	assert_int_equal(fray_adbg_battle_odds(ctx, scenario, heuristic, NULL, &odds), FRAY_ERR_INPUT);
	assert_int_equal(fray_adbg_battle_odds(ctx, scenario, heuristic, &o, NULL), FRAY_ERR_INPUT);
	assert_int_equal(fray_adbg_battle_odds(NULL, scenario, heuristic, &o, &odds), FRAY_ERR_INPUT);
	fray_ctx_clear(ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(the_reference_is_whole),
		cmocka_unit_test(exact_within_the_budget),
		cmocka_unit_test(past_the_paths_it_simulates_and_says_why),
		cmocka_unit_test(past_the_memory_it_simulates_and_says_why),
		cmocka_unit_test(not_tried_asked_or_policy),
		cmocka_unit_test(the_simulation_is_the_seeds),
		cmocka_unit_test(stopped_it_fails_with_no_dist),
		cmocka_unit_test(null_arguments),
	};
	return cmocka_run_group_tests(tests, load, unload);
}
