/* Test helpers missing from Debian 12's cmocka 1.1.5. */
#ifndef FRAY_TEST_UTIL_H
#define FRAY_TEST_UTIL_H

#include <math.h>
#include <fray/fray.h>

/* One context per test program, made by the group setup. */
static fray_ctx *ctx __attribute__((unused));

static inline int setup(void **state)
{
	(void)state;
	ctx = fray_ctx_new(NULL, NULL);
	return ctx ? 0 : -1;
}

static inline int teardown(void **state)
{
	(void)state;
	fray_ctx_free(ctx);
	return 0;
}

/* Two exact distributions are the same: every outcome and every exact
 * fraction (compared as text, in full). Call from a cmocka test. */
static inline void assert_same_exact(const fray_dist *a, const fray_dist *b)
{
	assert_int_equal(fray_dist_count(a), fray_dist_count(b));
	assert_int_equal(fray_dist_fields(a), fray_dist_fields(b));
	for (size_t i = 0; i < fray_dist_count(a); i++) {
		assert_memory_equal(fray_dist_outcome(a, i), fray_dist_outcome(b, i),
				    fray_dist_fields(a) * sizeof(int64_t));
		char ea[1024], eb[1024];
		assert_true(fray_dist_p_exact(a, i, ea, sizeof ea) < sizeof ea);
		fray_dist_p_exact(b, i, eb, sizeof eb);
		assert_string_equal(ea, eb);
	}
}

#ifndef assert_double_equal
static inline void fray_check_close(double a, double b, double eps,
				    const char *file, int line)
{
	if (!(fabs(a - b) <= eps)) {
		print_error("%.17g != %.17g (tolerance %g)\n", a, b, eps);
		_fail(file, line);
	}
}
#define assert_double_equal(a, b, eps) \
	fray_check_close((a), (b), (eps), __FILE__, __LINE__)
#endif

#endif
