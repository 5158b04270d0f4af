/* Rollers: the enumerating roller against closed forms (binomial,
 * hypergeometric, geometric tail), the sampling roller against the exact
 * odds, thread-count independence, policies and decisions. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "../test_util.h"
#include <fray/fray.h>

static double choose(int n, int k)
{
	double c = 1;
	for (int i = 1; i <= k; i++)
		c = c * (n - k + i) / i;
	return c;
}

/* 20 dice at 9+ on d12: one event, binomial(20, 1/3). */
static void successes_proc(fray_roller *r, fray_policy *p, const void *in,
			   int64_t *out)
{
	(void)p, (void)in;
	out[0] = fray_successes(r, 20, 12, 9, "shots");
}

static void twenty_at_nine_plus_on_d12(void **state)
{
	(void)state;
	fray_dist *d;
	assert_int_equal(fray_enumerate(ctx, successes_proc, NULL, NULL, 1, NULL, &d), FRAY_OK);
	assert_int_equal(fray_dist_count(d), 21);
	double sum = 0;
	for (int k = 0; k <= 20; k++) {
		double want = choose(20, k) * pow(1.0 / 3, k) * pow(2.0 / 3, 20 - k);
		assert_int_equal(fray_dist_outcome(d, (size_t)k)[0], k);
		assert_double_equal(fray_dist_p(d, (size_t)k), want, 1e-15);
		sum += fray_dist_p(d, (size_t)k);
	}
	assert_double_equal(sum, 1.0, 1e-12);
	char exact[64];
	fray_dist_p_exact(d, 0, exact, sizeof exact);
	assert_string_equal(exact, "1048576/3486784401"); /* (2/3)^20 */
	fray_dist_free(d);
}

/* Draw 3 from a pool of 5 red and 7 blue without replacement, count red:
 * hypergeometric C(5,r) C(7,3-r) / C(12,3). */
static void draw_proc(fray_roller *r, fray_policy *p, const void *in,
		      int64_t *out)
{
	(void)p, (void)in;
	unsigned pool[2] = {5, 7};
	out[0] = 0;
	for (int i = 0; i < 3; i++) {
		size_t c = fray_draw(r, pool, 2, "chit");
		pool[c]--;
		out[0] += c == 0;
	}
}

static void draw_is_hypergeometric(void **state)
{
	(void)state;
	fray_dist *d;
	assert_int_equal(fray_enumerate(ctx, draw_proc, NULL, NULL, 1, NULL, &d), FRAY_OK);
	assert_int_equal(fray_dist_count(d), 4);
	for (int red = 0; red <= 3; red++) {
		double want = choose(5, red) * choose(7, 3 - red) / choose(12, 3);
		assert_double_equal(fray_dist_p(d, (size_t)red), want, 1e-15);
	}
	fray_dist_free(d);
}

/* The dice procedure enumerated die by die equals the convolution. */
static void enumeration_matches_convolution(void **state)
{
	(void)state;
	const char *exprs[] = {"2d6", "3d6", "1d6-1d6", "d6!", "2d4!+1d8-3", "4d6kh3",
			       "3d6dh1-1d4", "4d6>=5", "3d8<=3+1", "d66", "2d6r2", "d10r3-d66"};
	for (size_t e = 0; e < sizeof exprs / sizeof exprs[0]; e++) {
		fray_dice *dice;
		fray_dist *a, *b;
		assert_int_equal(fray_dice_parse(ctx, exprs[e], &dice), FRAY_OK);
		assert_int_equal(fray_enumerate(ctx, fray_dice_procedure, NULL, dice, 1, NULL, &a), FRAY_OK);
		assert_int_equal(fray_dice_dist(dice, &b), FRAY_OK);
		assert_same_exact(a, b);
		fray_dist_free(a);
		fray_dist_free(b);
		fray_dice_free(dice);
	}
}

/* Roll a d6 until a 6 shows: unbounded. Cut at depth 10, the unresolved
 * mass is exactly (5/6)^10 and what resolved plus it is 1. The roll asks
 * only "is it a 6" (one success at 6+), so paths are 2 branches a step,
 * not 6: faces that lead to the same state should be one event. */
static void until_six(fray_roller *r, fray_policy *p, const void *in,
		      int64_t *out)
{
	(void)p, (void)in;
	out[0] = 1;
	while (fray_successes(r, 1, 6, 6, "try") == 0 && !fray_roller_stopped(r))
		out[0]++;
}

static void depth_limit_reports_unresolved_mass(void **state)
{
	(void)state;
	fray_enum_limits lim = {.max_depth = 10};
	fray_dist *d;
	assert_int_equal(fray_enumerate(ctx, until_six, NULL, NULL, 1, &lim, &d), FRAY_OK);
	char exact[64];
	fray_dist_unresolved_exact(d, exact, sizeof exact);
	assert_string_equal(exact, "9765625/60466176"); /* 5^10 / 6^10 */
	assert_int_equal(fray_dist_count(d), 10);
	double sum = fray_dist_unresolved(d);
	for (size_t i = 0; i < fray_dist_count(d); i++) {
		/* P(first six on try k) = (5/6)^(k-1) / 6 */
		double k = (double)fray_dist_outcome(d, i)[0];
		assert_double_equal(fray_dist_p(d, i), pow(5.0 / 6, k - 1) / 6, 1e-15);
		sum += fray_dist_p(d, i);
	}
	assert_double_equal(sum, 1.0, 1e-12);
	fray_dist_free(d);
}

static void path_limit_is_an_error(void **state)
{
	(void)state;
	fray_enum_limits lim = {.max_paths = 100};
	fray_dice *dice;
	fray_dist *d = (fray_dist *)&d;
	assert_int_equal(fray_dice_parse(ctx, "4d6", &dice), FRAY_OK);
	fray_ctx_clear(ctx);
	assert_int_equal(fray_enumerate(ctx, fray_dice_procedure, NULL, dice, 1, &lim, &d), FRAY_ERR_LIMIT);
	assert_null(d);
	assert_non_null(strstr(fray_ctx_message(ctx), "more than 100 outcome paths"));
	fray_dice_free(dice);
}

/* Sampling agrees with enumeration: 3d6 over 300000 trials at seed 2026,
 * each total's frequency within 5 standard errors of its exact chance. */
static void sampling_agrees_with_exact_odds(void **state)
{
	(void)state;
	fray_dice *dice;
	fray_dist *exact, *sampled;
	const uint64_t n = 300000;
	assert_int_equal(fray_dice_parse(ctx, "3d6", &dice), FRAY_OK);
	assert_int_equal(fray_dice_dist(dice, &exact), FRAY_OK);
	assert_int_equal(fray_aggregate(ctx, fray_dice_procedure, NULL, dice, 1, 2026, n, 2, &sampled), FRAY_OK);
	assert_int_equal(fray_dist_trials(sampled), n);
	assert_int_equal(fray_dist_count(sampled), fray_dist_count(exact));
	for (size_t i = 0; i < fray_dist_count(exact); i++) {
		double p = fray_dist_p(exact, i);
		double se = sqrt(p * (1 - p) / (double)n);
		assert_int_equal(fray_dist_outcome(sampled, i)[0], fray_dist_outcome(exact, i)[0]);
		assert_true(fabs(fray_dist_p(sampled, i) - p) < 5 * se);
	}
	fray_dist_free(exact);
	fray_dist_free(sampled);
	fray_dice_free(dice);
}

/* The same seed and trials give the same counts on 1, 2, 3 and 7 threads. */
static void aggregate_is_thread_count_independent(void **state)
{
	(void)state;
	fray_dice *dice;
	assert_int_equal(fray_dice_parse(ctx, "2d6!+1d8", &dice), FRAY_OK);
	fray_dist *one;
	assert_int_equal(fray_aggregate(ctx, fray_dice_procedure, NULL, dice, 1, 99, 20001, 1, &one), FRAY_OK);
	unsigned threads[] = {2, 3, 7};
	for (size_t t = 0; t < 3; t++) {
		fray_dist *d;
		assert_int_equal(fray_aggregate(ctx, fray_dice_procedure, NULL, dice, 1, 99, 20001, threads[t], &d), FRAY_OK);
		assert_int_equal(fray_dist_count(d), fray_dist_count(one));
		for (size_t i = 0; i < fray_dist_count(d); i++) {
			assert_int_equal(fray_dist_outcome(d, i)[0], fray_dist_outcome(one, i)[0]);
			assert_int_equal(fray_dist_hits(d, i), fray_dist_hits(one, i));
		}
		fray_dist_free(d);
	}
	fray_dist_free(one);
	fray_dice_free(dice);
}

/* A decision between two dice: the policy picks, the roll follows. */
static const char *const options[] = {"d4", "d8"};

static void choose_die(fray_roller *r, fray_policy *p, const void *in,
		       int64_t *out)
{
	(void)in;
	fray_choice c = {.kind = "test.die", .prompt = "which die",
			 .noptions = 2, .options = options, .suggested = 1};
	size_t i = fray_decide(r, p, &c);
	out[0] = (int64_t)i;
	out[1] = fray_die(r, i == 0 ? 4 : 8, "roll");
}

static void policies_decide(void **state)
{
	(void)state;
	fray_dist *d;
	/* heuristic: the suggested d8, so 8 outcomes at 1/8 */
	fray_policy *h = fray_policy_heuristic_new(ctx);
	assert_int_equal(fray_enumerate(ctx, choose_die, h, NULL, 2, NULL, &d), FRAY_OK);
	assert_int_equal(fray_dist_count(d), 8);
	assert_int_equal(fray_dist_outcome(d, 0)[0], 1);
	assert_double_equal(fray_dist_p(d, 0), 0.125, 0);
	fray_dist_free(d);
	fray_policy_free(h);

	/* scripted by label, reset before every path */
	const char *answers[] = {"d4"};
	fray_policy *s = fray_policy_script_new(ctx, answers, 1);
	assert_int_equal(fray_enumerate(ctx, choose_die, s, NULL, 2, NULL, &d), FRAY_OK);
	assert_int_equal(fray_dist_count(d), 4);
	assert_int_equal(fray_dist_outcome(d, 3)[0], 0);
	assert_int_equal(fray_dist_outcome(d, 3)[1], 4);
	fray_dist_free(d);

	/* every run starts the script again */
	fray_roller *r = fray_roller_sample_new(ctx, 1, 0);
	int64_t out[2];
	assert_int_equal(fray_run(r, choose_die, s, NULL, out), FRAY_OK);
	assert_int_equal(fray_run(r, choose_die, s, NULL, out), FRAY_OK);
	assert_int_equal(out[0], 0);
	fray_policy_free(s);
	/* a script that runs out stops the run with FRAY_ERR_POLICY */
	s = fray_policy_script_new(ctx, answers, 0);
	fray_ctx_clear(ctx);
	assert_int_equal(fray_run(r, choose_die, s, NULL, out), FRAY_ERR_POLICY);
	assert_non_null(strstr(fray_ctx_message(ctx), "no answer left"));
	fray_roller_free(r);
	fray_policy_free(s);

	/* by 1-based number; a wrong answer names the options */
	const char *by_number[] = {"2"}, *bad[] = {"d6"};
	s = fray_policy_script_new(ctx, by_number, 1);
	r = fray_roller_sample_new(ctx, 1, 0);
	assert_int_equal(fray_run(r, choose_die, s, NULL, out), FRAY_OK);
	assert_int_equal(out[0], 1);
	fray_policy_free(s);
	s = fray_policy_script_new(ctx, bad, 1);
	fray_ctx_clear(ctx);
	assert_int_equal(fray_run(r, choose_die, s, NULL, out), FRAY_ERR_POLICY);
	assert_string_equal(fray_ctx_message(ctx),
			    "script answer 1 'd6' is not an option of 'which die': expected one of 'd4', 'd8'");
	/* not thread-safe: refused on several threads */
	fray_ctx_clear(ctx);
	assert_int_equal(fray_aggregate(ctx, choose_die, s, NULL, 2, 1, 10, 2, &d), FRAY_ERR_INPUT);
	fray_roller_free(r);
	fray_policy_free(s);
	fray_ctx_clear(ctx);
}

/* Events: every die is told, and nothing is told without a sink. */
typedef struct seen {
	int rolls;
	char last[128];
} seen;

static void count_events(void *ud, const fray_event *ev)
{
	seen *s = ud;
	s->rolls += ev->kind == FRAY_EV_ROLL;
	fray_event_text(ev, s->last, sizeof s->last);
}

static void events_tell_every_die(void **state)
{
	(void)state;
	fray_dice *dice;
	assert_int_equal(fray_dice_parse(ctx, "3d6+1d8", &dice), FRAY_OK);
	fray_roller *r = fray_roller_sample_new(ctx, 42, 0);
	seen s = {0};
	assert_false(fray_roller_narrating(r));
	fray_roller_set_sink(r, count_events, &s);
	assert_true(fray_roller_narrating(r));
	int64_t total = fray_dice_roll(dice, r);
	assert_int_equal(s.rolls, 4);
	assert_in_range(total, 4, 26);
	assert_non_null(strstr(s.last, "1d8: d8 -> "));

	fray_event ev = {.kind = FRAY_EV_MODIFIER, .what = "range DM", .value = -2,
			 .rule = "Presidio \xc2\xa7" "4"};
	char buf[128];
	fray_event_text(&ev, buf, sizeof buf);
	assert_string_equal(buf, "range DM: -2 [Presidio \xc2\xa7" "4]");
	fray_event_json(&ev, buf, sizeof buf);
	assert_string_equal(buf, "{\"event\": \"modifier\", \"what\": \"range DM\", \"value\": -2, \"rule\": \"Presidio \xc2\xa7" "4\"}");
	assert_int_equal(fray_json_string("a\"\n\xff", buf, sizeof buf), 13);
	assert_string_equal(buf, "\"a\\\"\\n\\ufffd\"");
	fray_roller_free(r);
	fray_dice_free(dice);
}

/* fray_json_string against the test's own escaper, a byte at a time (the
 * rules of RFC 8259 as fray writes them: the quote, the backslash, \n and
 * \t by name, other controls and DEL as \u00XX, bytes that are not UTF-8 as
 * U+FFFD, whole UTF-8 sequences as they are), on random strings and at
 * every room, including too little: what fits, ended, and the length the
 * whole needs. */
static size_t utf8_seq(const unsigned char *u)
{
	static const struct { unsigned char lo, hi; int n, lo1, hi1; } leads[] = {
		{0xC2, 0xDF, 2, 0x80, 0xBF}, {0xE0, 0xE0, 3, 0xA0, 0xBF}, {0xE1, 0xEC, 3, 0x80, 0xBF},
		{0xED, 0xED, 3, 0x80, 0x9F}, {0xEE, 0xEF, 3, 0x80, 0xBF}, {0xF0, 0xF0, 4, 0x90, 0xBF},
		{0xF1, 0xF3, 4, 0x80, 0xBF}, {0xF4, 0xF4, 4, 0x80, 0x8F},
	};
	for (size_t i = 0; i < sizeof leads / sizeof leads[0]; i++) {
		if (u[0] < leads[i].lo || u[0] > leads[i].hi)
			continue;
		if (u[1] < leads[i].lo1 || u[1] > leads[i].hi1)
			return 0;
		for (int k = 2; k < leads[i].n; k++)
			if ((u[k] & 0xC0) != 0x80)
				return 0;
		return (size_t)leads[i].n;
	}
	return 0;
}

static size_t reference_json(const unsigned char *u, char *out)
{
	size_t n = 0;
	out[n++] = '"';
	while (*u) {
		size_t k = *u >= 0x80 ? utf8_seq(u) : 0;
		if (k) {
			memcpy(out + n, u, k);
			n += k, u += k;
			continue;
		}
		unsigned char c = *u++;
		if (c >= 0x80)
			n += (size_t)sprintf(out + n, "\\ufffd");
		else if (c == '"' || c == '\\')
			n += (size_t)sprintf(out + n, "\\%c", c);
		else if (c == '\n')
			n += (size_t)sprintf(out + n, "\\n");
		else if (c == '\t')
			n += (size_t)sprintf(out + n, "\\t");
		else if (c < 0x20 || c == 0x7F)
			n += (size_t)sprintf(out + n, "\\u%04x", c);
		else
			out[n++] = (char)c;
	}
	out[n++] = '"';
	out[n] = '\0';
	return n;
}

static void json_strings_escape_as_the_reference(void **state)
{
	(void)state;
	/* bytes the escaper treats apart, weighted towards them */
	static const unsigned char pool[] = {'a', 'Z', ' ', '~', '"', '\\', '\n', '\t', 0x01, 0x1F, 0x7F, 0x80, 0xBF,
					     0xC2, 0xC3, 0xA9, 0xE0, 0xA0, 0xED, 0x9F, 0xF0, 0x90, 0xF4, 0x8F, 0xFF};
	uint64_t x = 0x9E3779B97F4A7C15u;
	for (int t = 0; t < 3000; t++) {
		unsigned char in[24];
		size_t len = (size_t)(t % 23);
		for (size_t i = 0; i < len; i++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			in[i] = pool[x % sizeof pool];
		}
		in[len] = '\0';
		char want[24 * 6 + 3], got[24 * 6 + 3];
		size_t need = reference_json(in, want);
		for (size_t cap = 0; cap <= need + 1; cap++) {
			memset(got, 'X', sizeof got);
			assert_int_equal(fray_json_string((const char *)in, got, cap), need);
			if (cap == 0) {
				assert_int_equal(got[0], 'X');
				continue;
			}
			size_t fit = need < cap - 1 ? need : cap - 1;
			assert_memory_equal(got, want, fit);
			assert_int_equal(got[fit], '\0');
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(twenty_at_nine_plus_on_d12),
		cmocka_unit_test(draw_is_hypergeometric),
		cmocka_unit_test(enumeration_matches_convolution),
		cmocka_unit_test(depth_limit_reports_unresolved_mass),
		cmocka_unit_test(path_limit_is_an_error),
		cmocka_unit_test(sampling_agrees_with_exact_odds),
		cmocka_unit_test(aggregate_is_thread_count_independent),
		cmocka_unit_test(policies_decide),
		cmocka_unit_test(events_tell_every_die),
		cmocka_unit_test(json_strings_escape_as_the_reference),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
