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
#include <string.h>
#include <gmp.h>
#include "internal.h"

#define RESERVE_BYTES (32u << 20)

static atomic_size_t live;       /* bytes GMP holds through us */
static atomic_bool failed;       /* malloc failed; the reserve was given up */
static void *_Atomic reserve;
static pthread_once_t once = PTHREAD_ONCE_INIT;

/* Each block carries its size in front, so free and realloc can count
 * without trusting GMP's sizes. */
typedef union header {
	size_t size;
	max_align_t align;
} header;

static void *grab(size_t size)
{
	header *h = malloc(sizeof *h + size);
	if (!h) {
		atomic_store(&failed, true);
		free(atomic_exchange(&reserve, NULL));
		h = malloc(sizeof *h + size);
		if (!h)
			abort(); /* not even the reserve was enough: GMP cannot go on */
	}
	h->size = size;
	atomic_fetch_add(&live, size);
	return h + 1;
}

static void *gmp_alloc(size_t size)
{
	return grab(size);
}

static void gmp_free(void *p, size_t size)
{
	(void)size;
	if (!p)
		return;
	header *h = (header *)p - 1;
	atomic_fetch_sub(&live, h->size);
	free(h);
}

static void *gmp_realloc(void *p, size_t old, size_t size)
{
	(void)old;
	if (!p)
		return grab(size);
	header *h = (header *)p - 1;
	size_t was = h->size;
	header *n = realloc(h, sizeof *n + size);
	if (!n) {
		void *q = grab(size);
		memcpy(q, p, was < size ? was : size);
		gmp_free(p, was);
		return q;
	}
	n->size = size;
	atomic_fetch_sub(&live, was);
	atomic_fetch_add(&live, size);
	return n + 1;
}

static void install(void)
{
	atomic_store(&reserve, malloc(RESERVE_BYTES));
	mp_set_memory_functions(gmp_alloc, gmp_realloc, gmp_free);
}

bool fray_gmp_guard(void)
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

size_t fray_gmp_live_bytes(void)
{
	return atomic_load(&live);
}

bool fray_gmp_failed(void)
{
	return atomic_load(&failed);
}
