/* The enumerated deal's table of splits (issue #33 item 6, src/core/deal.c):
 * a deal walked again (an earlier event's later branch meets the same
 * pool) reads its splits from a table, within a budget of memory, and steps
 * past it. Both ways give every split its chance, checked against a count
 * of the subsets of labelled items; and a walk asked to stop stops within
 * 64 paths (the enumerator checks every 64). */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <fray/fray.h>

/* Ten kinds (more than eight: the table's rows are copied eight counts at
 * a time, then the rest one by one), 14 items. */
enum { KINDS = 10, ITEMS = 14, DEALT = 5, FACES = 4 };
static const unsigned cup[KINDS] = {3, 2, 2, 1, 1, 1, 1, 1, 1, 1};

static fray_ctx *ctx;

/* A split as one number: four bits a kind (no kind gives more than 3). */
static int64_t packed(const unsigned *drawn)
{
	int64_t v = 0;
	for (int i = KINDS; i-- > 0;)
		v = v << 4 | drawn[i];
	return v;
}

/* A d4, then the same deal whatever it showed: the deal's splits are
 * walked four times. */
static void d4_then_deal(fray_roller *r, fray_policy *p, const void *in, int64_t *out)
{
	(void)p, (void)in;
	out[0] = fray_die(r, FACES, "d4");
	unsigned drawn[KINDS];
	fray_deal(r, cup, KINDS, DEALT, drawn, "item");
	out[1] = packed(drawn);
}

/* The subsets of DEALT of the ITEMS labelled items, by the split they give:
 * splits[i] and ways[i], n of them; and C(ITEMS, DEALT) in *all. */
typedef struct split_ways {
	int64_t splits[4096];
	unsigned ways[4096];
	size_t n;
	unsigned all;
} split_ways;

static void count_subsets(split_ways *sw)
{
	int kind_of[ITEMS], n = 0;
	for (int k = 0; k < KINDS; k++)
		for (unsigned i = 0; i < cup[k]; i++)
			kind_of[n++] = k;
	assert_int_equal(n, ITEMS);
	memset(sw, 0, sizeof *sw);
	for (unsigned mask = 0; mask < 1u << ITEMS; mask++) {
		if (__builtin_popcount(mask) != DEALT)
			continue;
		unsigned drawn[KINDS] = {0};
		for (int i = 0; i < ITEMS; i++)
			if (mask >> i & 1)
				drawn[kind_of[i]]++;
		int64_t v = packed(drawn);
		size_t j = 0;
		while (j < sw->n && sw->splits[j] != v)
			j++;
		if (j == sw->n) {
			assert_true(sw->n < 4096);
			sw->splits[sw->n++] = v;
		}
		sw->ways[j]++;
		sw->all++;
	}
}

/* Every outcome of d4_then_deal under these limits: face and split with
 * chance ways / (4 C(14, 5)), reduced by hand, compared as text. */
static void check_walk(const fray_enum_limits *lim)
{
	static split_ways sw;
	count_subsets(&sw);
	assert_int_equal(sw.all, 2002); /* C(14, 5) */
	fray_dist *d;
	fray_status st = fray_enumerate(ctx, d4_then_deal, NULL, NULL, 2, lim, &d);
	if (st != FRAY_OK)
		print_error("%s\n", fray_ctx_message(ctx));
	assert_int_equal(st, FRAY_OK);
	assert_int_equal(fray_dist_count(d), FACES * sw.n);
	for (size_t i = 0; i < fray_dist_count(d); i++) {
		const int64_t *o = fray_dist_outcome(d, i);
		assert_true(o[0] >= 1 && o[0] <= FACES);
		size_t j = 0;
		while (j < sw.n && sw.splits[j] != o[1])
			j++;
		assert_true(j < sw.n);
		unsigned long num = sw.ways[j], den = FACES * sw.all;
		for (unsigned long g = num; g > 1; g--)
			if (num % g == 0 && den % g == 0) {
				num /= g;
				den /= g;
			}
		char want[64], got[64];
		snprintf(want, sizeof want, den == 1 ? "%lu" : "%lu/%lu", num, den);
		fray_dist_p_exact(d, i, got, sizeof got);
		assert_string_equal(got, want);
	}
	fray_dist_free(d);
}

/* The default budget (1 GiB: tables up to 4 MiB): the deal's walks after
 * the first read its table. */
static void deal_walked_again_reads_its_table(void **state)
{
	(void)state;
	check_walk(NULL);
}

/* A budget of 1 MiB lets the tables hold 32 KiB, less than this deal's
 * (566 splits of 72 bytes: 40,752): the node steps through every walk,
 * and the chances are the same. */
static void table_over_budget_steps(void **state)
{
	(void)state;
	fray_enum_limits lim = {.max_bytes = 1 << 20};
	check_walk(&lim);
}

/* Deal 10 of 40 in eight kinds (10,286 splits) with a stop already asked:
 * refused after 64 paths, when the enumerator looks. */
static const unsigned cup40[8] = {10, 8, 6, 5, 4, 3, 2, 2};

static void deal_ten(fray_roller *r, fray_policy *p, const void *in, int64_t *out)
{
	(void)p, (void)in;
	unsigned drawn[8];
	fray_deal(r, cup40, 8, 10, drawn, "chit");
	out[0] = drawn[0];
}

static void stop_is_seen_within_64_paths(void **state)
{
	(void)state;
	volatile sig_atomic_t stop = 1;
	fray_enum_limits lim = {.stop = &stop};
	fray_dist *d = NULL;
	assert_int_equal(fray_enumerate(ctx, deal_ten, NULL, NULL, 1, &lim, &d), FRAY_ERR_BUDGET);
	assert_null(d);
	assert_string_equal(fray_ctx_message(ctx), "stopped after 64 paths");
}

static int setup(void **state)
{
	(void)state;
	ctx = fray_ctx_new(NULL, NULL);
	return ctx ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	fray_ctx_free(ctx);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(deal_walked_again_reads_its_table),
		cmocka_unit_test(table_over_budget_steps),
		cmocka_unit_test(stop_is_seen_within_64_paths),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
