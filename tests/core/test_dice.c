/* Dice expressions: parsing (and its error messages), canonical text, and
 * exact distributions checked against face counting done here. */
#include <setjmp.h>
#include <stdarg.h>
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
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
