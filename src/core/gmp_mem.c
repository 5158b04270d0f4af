/* GMP's memory, counted and survivable. GMP allocates its numbers through
 * process-wide functions that may not fail (its own abort the process:
 * "GNU MP: Cannot reallocate memory", exit 134). fray installs its own,
 * once: they count the bytes GMP holds, so that enumeration can stop at
 * its memory budget long before the machine runs out; and when malloc
 * does fail (under `ulimit -v`, say) they give up a reserve kept for the
 * purpose and raise a flag, so the enumeration ends with an error at its
 * next path instead of the process dying. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <gmp.h>
#include "internal.h"

#define RESERVE_BYTES (32u << 20)

static atomic_llong live;        /* bytes GMP holds through us (signed: see below) */
static atomic_bool failed;       /* malloc failed; the reserve was given up */
static void *_Atomic reserve;
static pthread_once_t once = PTHREAD_ONCE_INIT;

/* GMP passes the size of the block to free and realloc, so the count needs
 * no header in the blocks: plain malloc, realloc and free, which are what
 * GMP's own functions use too. A number made before fray installed these
 * (by the program, or by fray before its first context) is freed here as
 * well, harmlessly; the count may then dip below zero, read as zero. */
static void *on_failure(size_t size, void *old)
{
	atomic_store(&failed, true);
	free(atomic_exchange(&reserve, NULL));
	void *p = old ? realloc(old, size) : malloc(size);
	if (!p)
		abort(); /* not even the reserve was enough: GMP cannot go on */
	return p;
}

static void *gmp_alloc(size_t size)
{
	void *p = malloc(size);
	if (!p)
		p = on_failure(size, NULL);
	atomic_fetch_add(&live, (long long)size);
	return p;
}

static void gmp_free(void *p, size_t size)
{
	if (!p)
		return;
	free(p);
	atomic_fetch_sub(&live, (long long)size);
}

static void *gmp_realloc(void *p, size_t old, size_t size)
{
	void *q = realloc(p, size);
	if (!q)
		q = on_failure(size, p);
	atomic_fetch_add(&live, (long long)size - (long long)old);
	return q;
}

static void install(void)
{
	atomic_store(&reserve, malloc(RESERVE_BYTES));
	mp_set_memory_functions(gmp_alloc, gmp_realloc, gmp_free);
}

bool frayi_gmp_guard(void)
{
	pthread_once(&once, install);
	if (!atomic_load(&reserve)) {
		void *r = malloc(RESERVE_BYTES);
		void *none = NULL;
		if (!r || !atomic_compare_exchange_strong(&reserve, &none, r))
			free(r);
		if (!atomic_load(&reserve))
			return false;
		atomic_store(&failed, false);
	}
	return true;
}

size_t frayi_gmp_live_bytes(void)
{
	long long n = atomic_load(&live);
	return n > 0 ? (size_t)n : 0;
}

bool frayi_gmp_failed(void)
{
	return atomic_load(&failed);
}
