/* Dice expressions: parsing (and its error messages), canonical text, and
 * exact distributions checked against face counting done here. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "../test_util.h"
#include <gmp.h>
#include <fray/fray.h>

static void parses_and_formats(void **state)
{
	(void)state;
	static const struct {
		const char *in, *canon;
		int64_t min, max;
	} rows[] = {
		{"2d6", "2d6", 2, 12},
		{"d30", "1d30", 1, 30},
		{"3d12", "3d12", 3, 36},
		{"2d6+1", "2d6+1", 3, 13},
		{" 2D6 + 1 ", "2d6+1", 3, 13},
		{"1d6-1d6", "1d6-1d6", -5, 5},
		{"d6!", "1d6!", 1, 12},
		{"-1d6+3", "-1d6+3", -3, 2},
		{"5", "5", 5, 5},
		{"2d6-2", "2d6-2", 0, 10},
		{"4d6kh3", "4d6kh3", 3, 18},
		{"4d6k3", "4d6kh3", 3, 18},
		{"2d20kl1", "2d20kl1", 1, 20},
		{"4d6d1", "4d6dl1", 3, 18},
		{"4d6dh1", "4d6dh1", 3, 18},
		{"9d12>=9", "9d12>=9", 0, 9},
		{"5d6<=2", "5d6<=2", 0, 5},
		{"d66", "1d66", 11, 66},
		{"2d66", "2d66", 22, 132},
		{"d6r1", "1d6r1", 1, 6},
		{"2d6r2+1", "2d6r2+1", 3, 13},
		{"10-4d6kh3", "10-4d6kh3", -8, 7},
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		fray_dice *d;
		assert_int_equal(fray_dice_parse(ctx, rows[i].in, &d), FRAY_OK);
		char buf[64];
		fray_dice_format(d, buf, sizeof buf);
		assert_string_equal(buf, rows[i].canon);
		assert_int_equal(fray_dice_min(d), rows[i].min);
		assert_int_equal(fray_dice_max(d), rows[i].max);
		fray_dice_free(d);
	}
}

static void bad_expressions_name_the_column(void **state)
{
	(void)state;
	static const struct {
		const char *in, *msg;
		fray_status st;
	} rows[] = {
		{"", "column 1: expected a dice term such as 2d6, d30 or a number, got the end", FRAY_ERR_INPUT},
		{"2d", "column 3: expected the number of sides after 'd' (as in 2d6), got the end", FRAY_ERR_INPUT},
		{"2d6+", "column 5: expected a dice term such as 2d6, d30 or a number, got the end", FRAY_ERR_INPUT},
		{"2d6x", "column 4: expected '+', '-' or the end, got 'x'", FRAY_ERR_INPUT},
		{"2x6", "column 2: expected '+', '-' or the end, got 'x'", FRAY_ERR_INPUT},
		{"d0", "column 2: expected a number of sides from 1 to 1000", FRAY_ERR_LIMIT},
		{"d1!", "column 2: expected a re-roll-and-add die's sides from 2 to 1000", FRAY_ERR_LIMIT},
		{"0d6", "column 1: expected a number of dice from 1 to 200", FRAY_ERR_LIMIT},
		{"201d6", "column 1: expected a number of dice from 1 to 200", FRAY_ERR_LIMIT},
		{"100d6+101d6", "column 7: expected at most 200 dice in all", FRAY_ERR_LIMIT},
		{"1d99999999999", "column 3: expected a number of sides from 1 to 1000", FRAY_ERR_LIMIT},
		{"2000000", "column 1: expected a number up to 1000000", FRAY_ERR_LIMIT},
		{"2d6++1", "column 5: expected a dice term such as 2d6, d30 or a number, got '+'", FRAY_ERR_INPUT},
		{"2d6\x01", "column 4: expected '+', '-' or the end, got byte 0x01", FRAY_ERR_INPUT},
		{"4d6kh5", "column 6: expected the number of dice kept from 1 to 4", FRAY_ERR_LIMIT},
		{"4d6kh0", "column 6: expected the number of dice kept from 1 to 4", FRAY_ERR_LIMIT},
		{"4d6dl4", "column 6: expected the number of dice dropped from 0 to 3", FRAY_ERR_LIMIT},
		{"4d6kh", "column 6: expected the number of dice kept (a number), got the end", FRAY_ERR_INPUT},
		{"d20kh1", "column 4: expected two or more dice before a keep or drop (as in 4d6kh3)", FRAY_ERR_INPUT},
		{"21d6kh1", "column 4: expected at most 20 dice of at most 100 sides in a keep or drop term", FRAY_ERR_LIMIT},
		{"2d101kl1", "column 3: expected at most 20 dice of at most 100 sides in a keep or drop term", FRAY_ERR_LIMIT},
		{"2d6>5", "column 5: expected '=' (successes are counted with >= or <=), got '5'", FRAY_ERR_INPUT},
		{"2d6>=7", "column 6: expected the face a die must reach from 1 to 6", FRAY_ERR_LIMIT},
		{"d6r6", "column 4: expected the highest face re-rolled from 1 to 5", FRAY_ERR_LIMIT},
		{"d1r1", "column 2: expected a re-rolled die's sides from 2 to 1000", FRAY_ERR_LIMIT},
		{"d66!", "column 4: expected the end of the term (d66, two d6 read as tens and units, takes no modifier)", FRAY_ERR_INPUT},
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		fray_dice *d = (fray_dice *)&d;
		fray_ctx_clear(ctx);
		assert_int_equal(fray_dice_parse(ctx, rows[i].in, &d), rows[i].st);
		assert_null(d);
		assert_string_equal(fray_ctx_message(ctx), rows[i].msg);
	}
	char big[300];
	memset(big, '1', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	fray_dice *d;
	fray_ctx_clear(ctx);
	assert_int_equal(fray_dice_parse(ctx, big, &d), FRAY_ERR_LIMIT);
	assert_string_equal(fray_ctx_message(ctx), "column 257: expected at most 256 characters");
}

/* Counts every combination of faces of `n` dice of the given sides (with
 * signs), then compares each total's exact probability with fray's. */
static void check_by_counting(const char *expr, int n, const int *sides,
			      const int *sign, int constant)
{
	fray_dice *d;
	assert_int_equal(fray_dice_parse(ctx, expr, &d), FRAY_OK);
	fray_dist *dist;
	assert_int_equal(fray_dice_dist(d, &dist), FRAY_OK);

	long total = 1, lo = constant, hi = constant;
	for (int i = 0; i < n; i++) {
		total *= sides[i];
		lo += sign[i] > 0 ? 1 : -sides[i];
		hi += sign[i] > 0 ? sides[i] : -1;
	}
	long ways[512] = {0};
	int face[8];
	for (int i = 0; i < n; i++)
		face[i] = 1;
	for (long c = 0; c < total; c++) {
		long sum = constant;
		for (int i = 0; i < n; i++)
			sum += sign[i] * face[i];
		ways[sum - lo]++;
		for (int i = 0; i < n && ++face[i] > sides[i]; i++)
			face[i] = 1;
	}
	assert_int_equal(fray_dist_count(dist), hi - lo + 1);
	mpq_t q;
	mpq_init(q);
	double psum = 0;
	for (size_t i = 0; i < fray_dist_count(dist); i++) {
		int64_t v = fray_dist_outcome(dist, i)[0];
		assert_int_equal(v, lo + (long)i);
		mpq_set_ui(q, (unsigned long)ways[v - lo], (unsigned long)total);
		mpq_canonicalize(q);
		char want[64], got[64];
		mpq_get_str(want, 10, q);
		fray_dist_p_exact(dist, i, got, sizeof got);
		assert_string_equal(got, want);
		assert_double_equal(fray_dist_p(dist, i), (double)ways[v - lo] / (double)total, 1e-15);
		psum += fray_dist_p(dist, i);
	}
	assert_double_equal(psum, 1.0, 1e-12);
	mpq_clear(q);
	fray_dist_free(dist);
	fray_dice_free(d);
}

static void distributions_by_counting_faces(void **state)
{
	(void)state;
	check_by_counting("2d6", 2, (int[]){6, 6}, (int[]){1, 1}, 0);
	check_by_counting("3d6", 3, (int[]){6, 6, 6}, (int[]){1, 1, 1}, 0);
	check_by_counting("1d6-1d6", 2, (int[]){6, 6}, (int[]){1, -1}, 0);
	check_by_counting("2d6+1", 2, (int[]){6, 6}, (int[]){1, 1}, 1);
	check_by_counting("d30", 1, (int[]){30}, (int[]){1}, 0);
	check_by_counting("3d12", 3, (int[]){12, 12, 12}, (int[]){1, 1, 1}, 0);
	check_by_counting("1d8-1d4+2", 2, (int[]){8, 4}, (int[]){1, -1}, 2);
}

/* Reads one combination of raw faces as the expression's total. */
typedef long (*reader)(const int *faces);

/* Counts every combination of `n` raw dice (each of its sides, equally
 * likely) read by `read`, and compares each total's exact probability
 * with fray's. Raw dice are what the test rolls: a d66 is two of them, a
 * re-rolled die its first face and the face it would be rolled again to. */
static void check_by_reading(const char *expr, int n, const int *sides, reader read)
{
	fray_dice *d;
	assert_int_equal(fray_dice_parse(ctx, expr, &d), FRAY_OK);
	fray_dist *dist;
	assert_int_equal(fray_dice_dist(d, &dist), FRAY_OK);
	enum { OFFSET = 500, SPAN = 1000 };
	long total = 1, ways[SPAN] = {0};
	int face[12];
	for (int i = 0; i < n; i++) {
		total *= sides[i];
		face[i] = 1;
	}
	for (long c = 0; c < total; c++) {
		long v = read(face);
		assert_true(v + OFFSET >= 0 && v + OFFSET < SPAN);
		ways[v + OFFSET]++;
		for (int i = 0; i < n && ++face[i] > sides[i]; i++)
			face[i] = 1;
	}
	size_t seen = 0;
	for (long v = 0; v < SPAN; v++)
		seen += ways[v] != 0;
	assert_int_equal(fray_dist_count(dist), seen);
	mpq_t q;
	mpq_init(q);
	for (size_t i = 0; i < fray_dist_count(dist); i++) {
		int64_t v = fray_dist_outcome(dist, i)[0];
		assert_true(ways[v + OFFSET] > 0);
		mpq_set_ui(q, (unsigned long)ways[v + OFFSET], (unsigned long)total);
		mpq_canonicalize(q);
		char want[64], got[64];
		mpq_get_str(want, 10, q);
		fray_dist_p_exact(dist, i, got, sizeof got);
		assert_string_equal(got, want);
	}
	mpq_clear(q);
	fray_dist_free(dist);
	fray_dice_free(d);
}

/* The sum of the k highest (or lowest) of f[0..n). */
static long kept(const int *f, int n, int k, bool high)
{
	int sorted[12];
	memcpy(sorted, f, (size_t)n * sizeof *f);
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && sorted[j - 1] < sorted[j]; j--) {
			int t = sorted[j];
			sorted[j] = sorted[j - 1];
			sorted[j - 1] = t;
		}
	long sum = 0;
	for (int i = 0; i < k; i++)
		sum += sorted[high ? i : n - 1 - i];
	return sum;
}

static long read_4d6kh3(const int *f) { return kept(f, 4, 3, true); }
static long read_2d20kl1(const int *f) { return kept(f, 2, 1, false); }
static long read_5d6dh2(const int *f) { return kept(f, 5, 3, false); }
static long read_3d8kh2_minus_d4(const int *f) { return kept(f, 3, 2, true) - f[3]; }
static long read_6d10_at_least_8(const int *f)
{
	long hits = 0;
	for (int i = 0; i < 6; i++)
		hits += f[i] >= 8;
	return hits;
}
static long read_4d6_at_most_2_plus_d6(const int *f)
{
	long hits = 0;
	for (int i = 0; i < 4; i++)
		hits += f[i] <= 2;
	return hits + f[4];
}
static long read_d66(const int *f) { return 10 * f[0] + f[1]; }
static long read_2d66_minus_1(const int *f) { return 10 * f[0] + f[1] + 10 * f[2] + f[3] - 1; }
/* a die re-rolled once on k or less: its first face, else the second */
static long reroll_read(const int *f, int k) { return f[0] > k ? f[0] : f[1]; }
static long read_2d6r2(const int *f) { return reroll_read(f, 2) + reroll_read(f + 2, 2); }
static long read_d8r1_minus_d6r3(const int *f) { return reroll_read(f, 1) - reroll_read(f + 2, 3); }

static void new_notations_by_reading_faces(void **state)
{
	(void)state;
	check_by_reading("4d6kh3", 4, (int[]){6, 6, 6, 6}, read_4d6kh3);
	check_by_reading("4d6dl1", 4, (int[]){6, 6, 6, 6}, read_4d6kh3);
	check_by_reading("2d20kl1", 2, (int[]){20, 20}, read_2d20kl1);
	check_by_reading("5d6dh2", 5, (int[]){6, 6, 6, 6, 6}, read_5d6dh2);
	check_by_reading("3d8kh2-1d4", 4, (int[]){8, 8, 8, 4}, read_3d8kh2_minus_d4);
	check_by_reading("6d10>=8", 6, (int[]){10, 10, 10, 10, 10, 10}, read_6d10_at_least_8);
	check_by_reading("4d6<=2+d6", 5, (int[]){6, 6, 6, 6, 6}, read_4d6_at_most_2_plus_d6);
	check_by_reading("d66", 2, (int[]){6, 6}, read_d66);
	check_by_reading("2d66-1", 4, (int[]){6, 6, 6, 6}, read_2d66_minus_1);
	check_by_reading("2d6r2", 4, (int[]){6, 6, 6, 6}, read_2d6r2);
	check_by_reading("d8r1-d6r3", 4, (int[]){8, 8, 6, 6}, read_d8r1_minus_d6r3);
}

/* Past 128 bits the same laws go through GMP: 20d100kh10 + 200 dice in
 * all still sums to exactly 1, and so do big success counts. */
static void big_new_notations_sum_to_one(void **state)
{
	(void)state;
	const char *exprs[] = {"20d100kh10+100d20>=15+80d6r1", "200d1000>=1000", "20d100kl19-20d6"};
	for (size_t e = 0; e < sizeof exprs / sizeof exprs[0]; e++) {
		fray_dice *d;
		fray_dist *dist;
		assert_int_equal(fray_dice_parse(ctx, exprs[e], &d), FRAY_OK);
		assert_int_equal(fray_dice_dist(d, &dist), FRAY_OK);
		double p;
		char exact[8];
		assert_int_equal(fray_dist_range(dist, INT64_MIN, INT64_MAX, &p, exact,
						 sizeof exact, NULL), FRAY_OK);
		assert_string_equal(exact, "1");
		assert_int_equal(fray_dist_outcome(dist, 0)[0], fray_dice_min(d));
		assert_int_equal(fray_dist_outcome(dist, fray_dist_count(dist) - 1)[0], fray_dice_max(d));
		fray_dist_free(dist);
		fray_dice_free(d);
	}
}

/* Captures what a told roll says: every die's face, and the term results. */
typedef struct told {
	int faces[64], nfaces;
	int64_t results[8];
	char texts[8][128];
	int nresults;
} told;

static void capture(void *ud, const fray_event *ev)
{
	told *t = ud;
	if (ev->kind == FRAY_EV_ROLL && t->nfaces < 64)
		t->faces[t->nfaces++] = (int)ev->value;
	if (ev->kind == FRAY_EV_RESULT && t->nresults < 8) {
		t->results[t->nresults] = ev->value;
		snprintf(t->texts[t->nresults++], 128, "%s", ev->text ? ev->text : "");
	}
}

/* A told roll agrees with its own dice: the kept faces are the best ones,
 * the successes are the dice at or over the need, d66 is tens and units. */
static void told_rolls_agree_with_their_dice(void **state)
{
	(void)state;
	fray_dice *keep, *count, *d66;
	assert_int_equal(fray_dice_parse(ctx, "4d6kh3", &keep), FRAY_OK);
	assert_int_equal(fray_dice_parse(ctx, "7d12>=9", &count), FRAY_OK);
	assert_int_equal(fray_dice_parse(ctx, "d66", &d66), FRAY_OK);
	for (uint64_t seed = 1; seed <= 200; seed++) {
		fray_roller *r = fray_roller_sample_new(ctx, seed, 0);
		assert_non_null(r);
		told t = {0};
		fray_roller_set_sink(r, capture, &t);
		int64_t v = fray_dice_roll(keep, r);
		assert_int_equal(t.nfaces, 4);
		assert_int_equal(v, kept(t.faces, 4, 3, true));
		assert_int_equal(t.results[0], v);
		char want[128];
		int sorted[4];
		memcpy(sorted, t.faces, sizeof sorted);
		for (int i = 1; i < 4; i++)
			for (int j = i; j > 0 && sorted[j - 1] < sorted[j]; j--) {
				int x = sorted[j];
				sorted[j] = sorted[j - 1];
				sorted[j - 1] = x;
			}
		snprintf(want, sizeof want, "kept %d %d %d, dropped %d: %lld", sorted[0],
			 sorted[1], sorted[2], sorted[3], (long long)v);
		assert_string_equal(t.texts[0], want);

		t = (told){0};
		v = fray_dice_roll(count, r);
		assert_int_equal(t.nfaces, 7);
		int hits = 0;
		for (int i = 0; i < 7; i++)
			hits += t.faces[i] >= 9;
		assert_int_equal(v, hits);

		t = (told){0};
		v = fray_dice_roll(d66, r);
		assert_int_equal(t.nfaces, 2);
		assert_int_equal(v, 10 * t.faces[0] + t.faces[1]);
		fray_roller_free(r);
	}
	fray_dice_free(keep);
	fray_dice_free(count);
	fray_dice_free(d66);
}

/* The two landmark values of the issue: P(2d6 = 7) = 1/6 exactly. */
static void two_d6_seven_is_one_sixth(void **state)
{
	(void)state;
	fray_dice *d;
	fray_dist *dist;
	assert_int_equal(fray_dice_parse(ctx, "2d6", &d), FRAY_OK);
	assert_int_equal(fray_dice_dist(d, &dist), FRAY_OK);
	char got[16];
	fray_dist_p_exact(dist, 5, got, sizeof got);
	assert_int_equal(fray_dist_outcome(dist, 5)[0], 7);
	assert_string_equal(got, "1/6");
	fray_dist_free(dist);
	fray_dice_free(d);
}

/* d6!: faces 1-5 at 1/6; a 6 then 1-6 gives 7-12 at 1/36 each (ruling
 * R16). Closed form, and two of them summed by counting. */
static void reroll_add_closed_form(void **state)
{
	(void)state;
	fray_dice *d;
	fray_dist *dist;
	assert_int_equal(fray_dice_parse(ctx, "d6!", &d), FRAY_OK);
	assert_int_equal(fray_dice_dist(d, &dist), FRAY_OK);
	assert_int_equal(fray_dist_count(dist), 11);
	for (size_t i = 0; i < 11; i++) {
		int64_t v = fray_dist_outcome(dist, i)[0];
		char got[16];
		fray_dist_p_exact(dist, i, got, sizeof got);
		assert_true(v != 6);
		assert_string_equal(got, v <= 5 ? "1/6" : "1/36");
	}
	fray_dist_free(dist);
	fray_dice_free(d);

	/* 2d6!: convolve the single-die law by hand over 36ths */
	long single[13] = {0};
	for (int v = 1; v <= 5; v++)
		single[v] = 6;
	for (int v = 7; v <= 12; v++)
		single[v] = 1;
	long pair[25] = {0};
	for (int a = 1; a <= 12; a++)
		for (int b = 1; b <= 12; b++)
			pair[a + b] += single[a] * single[b];
	assert_int_equal(fray_dice_parse(ctx, "2d6!", &d), FRAY_OK);
	assert_int_equal(fray_dice_dist(d, &dist), FRAY_OK);
	for (size_t i = 0; i < fray_dist_count(dist); i++) {
		int64_t v = fray_dist_outcome(dist, i)[0];
		assert_double_equal(fray_dist_p(dist, i), (double)pair[v] / 1296.0, 1e-15);
	}
	fray_dist_free(dist);
	fray_dice_free(d);
}

/* The largest expression within the limits stays exact and sums to 1. */
static void big_expression_sums_to_one(void **state)
{
	(void)state;
	fray_dice *d;
	fray_dist *dist;
	assert_int_equal(fray_dice_parse(ctx, "100d20+100d6!", &d), FRAY_OK);
	assert_int_equal(fray_dice_dist(d, &dist), FRAY_OK);
	double p;
	char exact[8];
	assert_int_equal(fray_dist_range(dist, INT64_MIN, INT64_MAX, &p, exact,
					 sizeof exact, NULL), FRAY_OK);
	assert_string_equal(exact, "1");
	assert_double_equal(p, 1.0, 1e-12);
	fray_dist_free(dist);
	fray_dice_free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parses_and_formats),
		cmocka_unit_test(bad_expressions_name_the_column),
		cmocka_unit_test(distributions_by_counting_faces),
		cmocka_unit_test(two_d6_seven_is_one_sixth),
		cmocka_unit_test(reroll_add_closed_form),
		cmocka_unit_test(big_expression_sums_to_one),
		cmocka_unit_test(new_notations_by_reading_faces),
		cmocka_unit_test(big_new_notations_sum_to_one),
		cmocka_unit_test(told_rolls_agree_with_their_dice),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
