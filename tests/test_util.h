/* Test helpers shared by the cmocka tests: the group's context, exact
 * distributions compared, a tolerance check missing from Debian 12's
 * cmocka 1.1.5, a run's own folder, and a failing allocator with the walks
 * that fail a call's allocations in turn. Include after cmocka.h. A test
 * that makes its own contexts (named ctx) defines FRAY_TEST_NO_CTX first. */
#ifndef FRAY_TEST_UTIL_H
#define FRAY_TEST_UTIL_H

#include <ftw.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <fray/fray.h>

#ifndef FRAY_TEST_NO_CTX
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

#ifdef FRAY_SOURCE_DIR
/* The same, run from the source tree: the catalogue's examples and the
 * shipped files name their paths from there (examples/adbg/...). */
static inline int setup_in_source(void **state)
{
	if (chdir(FRAY_SOURCE_DIR) != 0)
		return -1;
	return setup(state);
}
#endif
#endif

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

/* ---- this run's own folder: two runs at once (ctest -j, two worktrees)
 * never share a path ---- */
static char test_dir[64] __attribute__((unused));

/* Makes the folder /tmp/fray-WHAT-XXXXXX (0 when made; says why not). */
static inline int test_dir_make(const char *what)
{
	snprintf(test_dir, sizeof test_dir, "/tmp/fray-%s-XXXXXX", what);
	if (mkdtemp(test_dir))
		return 0;
	perror("mkdtemp");
	return -1;
}

/* The path of name in the folder; the last 16 paths asked stay valid. */
static inline const char *test_path(const char *name)
{
	static char paths[16][128];
	static unsigned next;
	char *p = paths[next++ % 16];
	snprintf(p, sizeof paths[0], "%s/%s", test_dir, name);
	return p;
}

static inline int test_dir_remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st, (void)flag, (void)ftw;
	return remove(path);
}

/* Removes the folder and everything in it. */
static inline void test_dir_remove(void)
{
	nftw(test_dir, test_dir_remove_one, 8, FTW_DEPTH | FTW_PHYS);
}

/* ---- out of memory: an allocator that fails on demand ---- */

/* It fails its fail_at-th allocation (0: none), and every one after it
 * too when sticky (a failure's clean-up that allocates fails as well);
 * it counts the calls since fray_meter_fail and the blocks it holds. */
typedef struct fray_meter {
	long calls, fail_at, live;
	bool sticky;
} fray_meter;

static inline void *fray_metered(void *ud, void *ptr, size_t size)
{
	fray_meter *m = ud;
	if (size == 0) {
		if (ptr)
			m->live--;
		free(ptr);
		return NULL;
	}
	m->calls++;
	if (m->fail_at > 0 && (m->calls == m->fail_at || (m->sticky && m->calls > m->fail_at)))
		return NULL;
	void *p = realloc(ptr, size);
	if (p && !ptr)
		m->live++;
	return p;
}

/* The k-th allocation from now on fails (0: none). */
static inline void fray_meter_fail(fray_meter *m, long k)
{
	m->calls = 0;
	m->fail_at = k;
}

/* One try of a walk: the call with its k-th allocation failing (0: none,
 * the call must succeed), checked by the test; true when the call
 * succeeded, which ends the walk (the state it left is the test's). */
typedef bool (*fray_walk_try)(void *ud, long k);

/* Fails the call's 1st, 2nd, ... allocation in turn until it succeeds;
 * the k it succeeded at (at most max: the test fails past it, and when
 * the first try succeeded, as nothing was failed). */
static inline long fray_walk_all(fray_walk_try call, void *ud, long max)
{
	long k = 1;
	while (!call(ud, k))
		if (++k >= max)
			fail_msg("the call still fails with its %ld-th allocation failing", k);
	if (k == 1)
		fail_msg("the call succeeded with its first allocation failing: nothing walked");
	return k;
}

/* A long call's walk (n: its allocations, counted by the test in a run
 * without failures): the first and last FRAY_WALK_EDGE allocations, every
 * FRAY_WALK_STRIDE-th and about one in FRAY_WALK_SAMPLE of the others,
 * drawn from a seed printed for a rerun (FRAY_WALK_SEED=N); FRAY_WALK=all
 * walks every one. Then the call without a failure. The allocations
 * tried. */
#define FRAY_WALK_EDGE 64
#define FRAY_WALK_STRIDE 199
#define FRAY_WALK_SAMPLE 128

static inline long fray_walk_sampled(fray_walk_try call, void *ud, long n)
{
	const char *all = getenv("FRAY_WALK"), *given = getenv("FRAY_WALK_SEED");
	uint64_t seed = given ? strtoull(given, NULL, 10) : (uint64_t)time(NULL);
	print_message("a walk of %ld allocations, FRAY_WALK_SEED=%llu\n", n, (unsigned long long)seed);
	long tried = 0;
	for (long k = 1; k <= n; k++) {
		/* splitmix64 of (seed, k): the sample */
		uint64_t z = seed + (uint64_t)k * 0x9e3779b97f4a7c15u;
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
		z ^= z >> 31;
		bool edge = k <= FRAY_WALK_EDGE || k > n - FRAY_WALK_EDGE;
		if (!(all && !strcmp(all, "all")) && !edge && k % FRAY_WALK_STRIDE && z % FRAY_WALK_SAMPLE)
			continue;
		tried++;
		if (call(ud, k))
			return tried;
	}
	if (!call(ud, 0))
		fail_msg("the call failed with no allocation failing");
	return tried;
}

#endif
