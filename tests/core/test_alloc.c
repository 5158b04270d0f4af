/* Out of memory is routine: fail the n-th allocation for every n along the
 * main paths and check each call fails cleanly (ASan finds any leak). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "../test_util.h"
#include <fray/fray.h>

typedef struct failing {
	long left; /* allocations that succeed before the first failure */
	bool failed;
} failing;

static void *failing_alloc(void *ud, void *ptr, size_t size)
{
	failing *f = ud;
	if (size == 0) {
		free(ptr);
		return NULL;
	}
	if (f->left-- <= 0) {
		f->failed = true;
		return NULL;
	}
	return realloc(ptr, size);
}

/* Runs the main library paths under an allocator that fails after n
 * allocations; returns true when nothing failed (n was large enough). */
static bool run_paths(long n)
{
	failing f = {.left = n};
	fray_ctx *lctx = fray_ctx_new(failing_alloc, &f);
	if (!lctx)
		return false;
	fray_dice *dice = NULL;
	fray_dist *d = NULL;
	fray_doc *doc = NULL;
	fray_policy *p = NULL;
	fray_roller *r = NULL;
	bool ok = fray_dice_parse(lctx, "2d6!+1d4", &dice) == FRAY_OK;
	ok = ok && fray_dice_dist(dice, &d) == FRAY_OK;
	fray_dist_free(d);
	d = NULL;
	ok = ok && fray_enumerate(lctx, fray_dice_procedure, NULL, dice, 1, NULL, &d) == FRAY_OK;
	fray_dist_free(d);
	d = NULL;
	ok = ok && fray_aggregate(lctx, fray_dice_procedure, NULL, dice, 1, 5, 100, 2, &d) == FRAY_OK;
	fray_dist_free(d);
	ok = ok && (r = fray_roller_sample_new(lctx, 1, 2)) != NULL;
	const char *text = "answers: [a, b]\nx: {y: [1, 2, 3]}\n";
	ok = ok && fray_doc_load_string(lctx, "m.yaml", text, strlen(text), &doc) == FRAY_OK;
	const char *answers[] = {"a", "b"};
	ok = ok && (p = fray_policy_script_new(lctx, answers, 2)) != NULL;
	/* the catalogue: a request read, checked, run and rendered */
	char *response = NULL;
	ok = ok && fray_request(lctx, "{\"procedure\": \"presidio.morale\", \"mode\": \"odds\", \"inputs\": "
				      "{\"level\": \"average\", \"size\": \"squad\", \"casualties\": 1}}",
				&response) == FRAY_OK;
	free(response);
	if (!ok) {
		assert_true(f.failed);
		assert_int_equal(fray_ctx_status(lctx), FRAY_ERR_NOMEM);
	}
	fray_policy_free(p);
	fray_doc_free(doc);
	fray_roller_free(r);
	fray_dice_free(dice);
	fray_ctx_free(lctx);
	return ok;
}

static void every_allocation_may_fail(void **state)
{
	(void)state;
	long n = 0;
	while (!run_paths(n))
		n++;
	assert_true(n > 10); /* the walk really went through the paths */
}

static void three_dice(fray_roller *r, fray_policy *p, const void *in, int64_t *out)
{
	(void)p;
	(void)in;
	out[0] = fray_die(r, 6, "a") + fray_die(r, 6, "b") + fray_die(r, 6, "c");
}

/* Exact numbers made before fray counts GMP's memory (its first exact
 * enumeration installs the counting functions) are freed after it,
 * through those functions: they must take any block GMP made. And an
 * enumeration's memory budget is a clean FRAY_ERR_BUDGET. */
static void gmp_numbers_across_the_switch(void **state)
{
	(void)state;
	fray_ctx *c = fray_ctx_new(NULL, NULL);
	fray_dice *dice;
	fray_dist *before, *during;
	assert_int_equal(fray_dice_parse(c, "20d12", &dice), FRAY_OK);
	assert_int_equal(fray_dice_dist(dice, &before), FRAY_OK);
	fray_enum_limits tight = {.max_bytes = 1};
	assert_int_equal(fray_enumerate(c, three_dice, NULL, NULL, 1, &tight, &during), FRAY_ERR_BUDGET);
	assert_non_null(strstr(fray_ctx_message(c), "more than 0 MiB of memory"));
	fray_ctx_clear(c);
	assert_int_equal(fray_enumerate(c, three_dice, NULL, NULL, 1, NULL, &during), FRAY_OK);
	assert_int_equal(fray_dist_count(during), 16);
	fray_dist_free(before); /* made before the switch, freed after it */
	fray_dist_free(during);
	fray_dice_free(dice);
	fray_ctx_free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(gmp_numbers_across_the_switch),
		cmocka_unit_test(every_allocation_may_fail),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
