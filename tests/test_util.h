/* Test helpers missing from Debian 12's cmocka 1.1.5. */
#ifndef FRAY_TEST_UTIL_H
#define FRAY_TEST_UTIL_H

#include <math.h>

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
