/* fray_double_str prints every double byte for byte as the first version did (issue #32: that
 * version tried every precision from 1 to 17 and was slow in WebAssembly; since issue 45 it is
 * computed in integers, src/core/double_str.c, with no snprintf or strtod). The first version, the
 * C library's own answer (the fewest digits p whose printf("%.<p>g") reads back by strtod), is
 * copied here as the reference and both run on about 210,000 doubles: random bits, subnormals,
 * fractions k/n, short decimals (answers of every length), powers of two and ten and their
 * neighbours, +-0, +-inf and nan; then snprintf's return and truncation convention. Where reading
 * back is monotonic in the precision (every double but the normal powers of two, all checked in
 * powers) the bisection's probes are decided by the answer's length alone, so the samples must meet
 * every length (short_decimals asserts it), not be millions: a fifth of the first counts (issue 45). */
#include <float.h>
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

/* The first fray_double_str (src/core/dist.c before issue #32), unchanged. */
static size_t reference(double x, char *dst, size_t cap)
{
	char buf[40];
	for (int prec = 1; prec <= 17; prec++) {
		snprintf(buf, sizeof buf, "%.*g", prec, x);
		if (strtod(buf, NULL) == x)
			break;
	}
	return (size_t)snprintf(dst, cap, "%s", buf);
}

static uint64_t rng_state = 0x9E3779B97F4A7C15u;

/* splitmix64: the test's own bits, independent of fray's generators */
static uint64_t next_bits(void)
{
	uint64_t z = (rng_state += 0x9E3779B97F4A7C15u);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
	return z ^ (z >> 31);
}

static double from_bits(uint64_t u)
{
	double x;
	memcpy(&x, &u, sizeof x);
	return x;
}

static unsigned long checked, length_seen[18];

static void check(double x)
{
	char want[40], got[40];
	size_t wn = reference(x, want, sizeof want);
	size_t gn = fray_double_str(x, got, sizeof got);
	if (wn != gn || strcmp(want, got) != 0) {
		uint64_t u;
		memcpy(&u, &x, sizeof u);
		print_error("bits %016llx: reference \"%s\", fray_double_str \"%s\"\n", (unsigned long long)u, want, got);
		fail();
	}
	if (x == x && strtod(got, NULL) != x) { /* reads back (nan never does), whatever the reference says */
		print_error("%.17g: \"%s\" does not read back\n", x, got);
		fail();
	}
	checked++;
	size_t digits = 0;
	for (const char *c = want; *c && *c != 'e'; c++)
		digits += *c >= '0' && *c <= '9';
	length_seen[digits < 17 ? digits : 17]++;
}

/* x, -x and both neighbours of each */
static void check_around(double x)
{
	for (int s = 0; s < 2; s++, x = -x) {
		check(x);
		check(nextafter(x, INFINITY));
		check(nextafter(x, -INFINITY));
	}
}

static void specials(void **state)
{
	(void)state;
	check(0.0);
	check(-0.0);
	check(INFINITY);
	check(-INFINITY);
	check(NAN);
	check(-NAN);
	check(from_bits(0x7FF0000000000001u)); /* a signalling nan */
	check_around(DBL_MIN);
	check_around(DBL_MAX);
	check_around(DBL_TRUE_MIN);
	check_around(1.0 / 36.0); /* the header's example */
	char text[40];
	fray_double_str(1.0 / 36.0, text, sizeof text);
	assert_string_equal(text, "0.027777777777777776");
	fray_double_str(0.5, text, sizeof text);
	assert_string_equal(text, "0.5");
}

/* every power of two (8 read back at 15 digits but not 16: the reason for the plain count there) */
static void powers(void **state)
{
	(void)state;
	for (int e = -1074; e <= 1023; e++)
		check_around(ldexp(1.0, e));
	for (int e = -330; e <= 310; e++) {
		char text[16];
		snprintf(text, sizeof text, "1e%d", e);
		check_around(strtod(text, NULL));
	}
}

static void random_bits(void **state)
{
	(void)state;
	for (int i = 0; i < 50000; i++)
		check(from_bits(next_bits()));
	for (int i = 0; i < 10000; i++) /* subnormals: the exponent field 0 */
		check(from_bits(next_bits() & 0x800FFFFFFFFFFFFFu));
}

/* probabilities as fray prints them: k/n, and k over powers of 6 and 36 */
static void fractions(void **state)
{
	(void)state;
	for (int i = 0; i < 30000; i++) {
		uint64_t n = 1 + next_bits() % (i % 2 ? 1000u : 1000000u);
		check((double)(next_bits() % (n + 1)) / (double)n);
	}
	for (int m = 1; m <= 12; m++) {
		double n = pow(6.0, m);
		for (int i = 0; i < 2000; i++)
			check((double)(next_bits() % ((uint64_t)n + 1)) / n);
	}
}

/* decimals of 1 to 17 digits, so that every answer length (and every bisection path) is met */
static void short_decimals(void **state)
{
	(void)state;
	memset(length_seen, 0, sizeof length_seen);
	for (int i = 0; i < 80000; i++) {
		uint64_t ten = 1;
		for (int d = 1 + i % 17; d > 0; d--)
			ten *= 10;
		char text[64];
		snprintf(text, sizeof text, "%llue%d", (unsigned long long)(next_bits() % ten),
			 (int)(next_bits() % 40) - 25);
		check(strtod(text, NULL));
	}
	for (int digits = 1; digits <= 17; digits++) {
		char text[40];
		snprintf(text, sizeof text, "0.%.*s7", digits - 1, "1234567890123456");
		check(strtod(text, NULL));
	}
	for (int d = 1; d <= 17; d++)
		assert_true(length_seen[d] > 0);
}

/* snprintf's convention: the full length returned, the text cut to cap - 1 and ended */
static void cut_like_snprintf(void **state)
{
	(void)state;
	double xs[] = {1.0 / 36.0, 0.5, -1e-300, NAN};
	for (size_t i = 0; i < sizeof xs / sizeof xs[0]; i++) {
		for (size_t cap = 0; cap <= 24; cap++) {
			char want[40], got[40];
			memset(want, 'x', sizeof want);
			memset(got, 'x', sizeof got);
			assert_int_equal(fray_double_str(xs[i], got, cap), reference(xs[i], want, cap));
			assert_memory_equal(got, want, sizeof got);
		}
	}
	assert_int_equal(fray_double_str(0.25, NULL, 0), 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(specials),
		cmocka_unit_test(powers),
		cmocka_unit_test(random_bits),
		cmocka_unit_test(fractions),
		cmocka_unit_test(short_decimals),
		cmocka_unit_test(cut_like_snprintf),
	};
	int failed = cmocka_run_group_tests(tests, NULL, NULL);
	printf("%lu doubles compared with the reference\n", checked);
	return failed;
}
