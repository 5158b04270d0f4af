/* The tally: outcome vectors -> exact probability (enumeration) or hit count
 * (sampling), merged by equal outcome; turned into a sorted fray_dist. */
#include <stdlib.h>
#include <string.h>
#include "dist_internal.h"

/* Two lanes, even and odd words, so that long keys (a battle's state,
 * a dozen words) hash in half the chain of dependent multiplications. */
static uint64_t hash_key(const int64_t *key, size_t n)
{
	uint64_t a = 0x9E3779B97F4A7C15u, b = 0xC2B2AE3D27D4EB4Fu;
	size_t i = 0;
	for (; i + 1 < n; i += 2) {
		a = (a ^ (uint64_t)key[i]) * 0xBF58476D1CE4E5B9u;
		b = (b ^ (uint64_t)key[i + 1]) * 0x94D049BB133111EBu;
		a ^= a >> 31;
		b ^= b >> 29;
	}
	if (i < n) {
		a = (a ^ (uint64_t)key[i]) * 0xBF58476D1CE4E5B9u;
		a ^= a >> 31;
	}
	uint64_t h = (a ^ (b >> 1)) * 0xD6E8FEB86659FD93u;
	return h ^ h >> 32;
}

fray_status frayi_tally_init(frayi_tally *t, fray_ctx *ctx, size_t nfields,
			    bool exact)
{
	memset(t, 0, sizeof *t);
	t->ctx = ctx;
	t->nfields = nfields;
	t->exact = exact;
	return FRAY_OK;
}

void frayi_tally_fini(frayi_tally *t)
{
	if (t->x)
		for (size_t i = 0; i < t->count; i++)
			frayi_xq_clear(&t->x[i]);
	frayi_dealloc(t->ctx, t->x);
	frayi_dealloc(t->ctx, t->hits);
	frayi_dealloc(t->ctx, t->keys);
	frayi_dealloc(t->ctx, t->slots);
	memset(t, 0, sizeof *t);
}

void frayi_tally_reset(frayi_tally *t)
{
	if (t->x)
		for (size_t i = 0; i < t->count; i++)
			frayi_xq_clear(&t->x[i]);
	if (t->slots)
		memset(t->slots, 0, t->nslots * sizeof *t->slots);
	t->count = 0;
}

#define SLOT_ENTRY(v) ((size_t)((v) & 0xFFFFFFFFu)) /* entry index + 1 */
#define SLOT_TAG(h) ((h) & ~(uint64_t)0xFFFFFFFFu)

static bool rehash(frayi_tally *t, size_t nslots)
{
	uint64_t *slots = frayi_calloc(t->ctx, nslots, sizeof *slots);
	if (!slots)
		return false;
	for (size_t e = 0; e < t->count; e++) {
		uint64_t h = hash_key(t->keys + e * t->nfields, t->nfields);
		size_t s = h & (nslots - 1);
		while (slots[s])
			s = (s + 1) & (nslots - 1);
		slots[s] = SLOT_TAG(h) | (e + 1);
	}
	frayi_dealloc(t->ctx, t->slots);
	t->slots = slots;
	t->nslots = nslots;
	return true;
}

static bool grow_entries(frayi_tally *t)
{
	size_t cap = frayi_grow(t->cap, t->count + 1, t->nfields * sizeof(int64_t) + sizeof(frayi_xq));
	if (!cap)
		return false;
	int64_t *keys = frayi_realloc(t->ctx, t->keys, cap * t->nfields * sizeof *keys);
	if (!keys)
		return false;
	t->keys = keys;
	if (t->exact) {
		frayi_xq *x = frayi_realloc(t->ctx, t->x, cap * sizeof *x);
		if (!x)
			return false;
		t->x = x;
	} else {
		uint64_t *h = frayi_realloc(t->ctx, t->hits, cap * sizeof *h);
		if (!h)
			return false;
		t->hits = h;
	}
	t->cap = cap;
	return true;
}

uint64_t frayi_tally_hash(const int64_t *key, size_t nfields)
{
	return hash_key(key, nfields);
}

void frayi_tally_prefetch(const frayi_tally *t, uint64_t h)
{
	if (t->nslots)
		__builtin_prefetch(&t->slots[h & (t->nslots - 1)]);
}

size_t frayi_tally_slot(frayi_tally *t, const int64_t *key)
{
	return frayi_tally_slot_hashed(t, key, hash_key(key, t->nfields));
}

size_t frayi_tally_slot_hashed(frayi_tally *t, const int64_t *key, uint64_t h)
{
	if ((t->count + 1) * 2 > t->nslots &&
	    !rehash(t, t->nslots ? t->nslots * 2 : 64))
		return SIZE_MAX;
	size_t mask = t->nslots - 1;
	size_t s = h & mask;
	size_t n = t->nfields, bytes = n * sizeof *key;
	while (t->slots[s]) {
		if (SLOT_TAG(t->slots[s]) == SLOT_TAG(h)) {
			size_t e = SLOT_ENTRY(t->slots[s]) - 1;
			const int64_t *k = t->keys + e * n;
			size_t i = 0;
			while (i < n && k[i] == key[i])
				i++;
			if (i == n)
				return e;
		}
		s = (s + 1) & mask;
	}
	if (t->count >= 0xFFFFFFFEu || (t->count == t->cap && !grow_entries(t)))
		return SIZE_MAX;
	size_t e = t->count++;
	memcpy(t->keys + e * t->nfields, key, bytes);
	if (t->exact)
		t->x[e] = FRAY_XQ_ZERO;
	else
		t->hits[e] = 0;
	t->slots[s] = SLOT_TAG(h) | (e + 1);
	return e;
}

fray_status frayi_tally_merge(frayi_tally *dst, const frayi_tally *src)
{
	for (size_t e = 0; e < src->count; e++) {
		size_t d = frayi_tally_slot(dst, src->keys + e * src->nfields);
		if (d == SIZE_MAX)
			return frayi_nomem(dst->ctx);
		dst->hits[d] += src->hits[e];
	}
	return FRAY_OK;
}

/* Sort rows carry their key (unused fields zero), so the comparison needs
 * no context. */
typedef struct sort_row {
	int64_t key[FRAY_OUTCOME_MAX_FIELDS];
	size_t entry;
} sort_row;

static int cmp_row(const void *a, const void *b)
{
	const sort_row *ra = a, *rb = b;
	for (size_t i = 0; i < FRAY_OUTCOME_MAX_FIELDS; i++)
		if (ra->key[i] != rb->key[i])
			return ra->key[i] < rb->key[i] ? -1 : 1;
	return 0;
}

fray_status frayi_tally_to_dist(frayi_tally *t, uint64_t trials,
			       const frayi_xq *unresolved, fray_dist **out)
{
	*out = NULL;
	sort_row *order = frayi_calloc(t->ctx, t->count + 1, sizeof *order);
	if (!order)
		return frayi_nomem(t->ctx);
	for (size_t i = 0; i < t->count; i++) {
		memcpy(order[i].key, t->keys + i * t->nfields,
		       t->nfields * sizeof *t->keys);
		order[i].entry = i;
	}
	qsort(order, t->count, sizeof *order, cmp_row);

	fray_dist *d = NULL;
	fray_status st;
	if (t->exact) {
		st = frayi_dist_new_exact(t->ctx, t->nfields, t->count, &d);
		if (st != FRAY_OK)
			goto done;
		if (unresolved && !frayi_xq_add_xq(&d->unresolved, unresolved)) {
			fray_dist_free(d);
			d = NULL;
			st = frayi_nomem(t->ctx);
			goto done;
		}
	} else {
		d = frayi_calloc(t->ctx, 1, sizeof *d);
		if (d) {
			d->ctx = t->ctx;
			d->nfields = t->nfields;
			d->count = t->count;
			d->keys = frayi_calloc(t->ctx, t->count * t->nfields + 1, sizeof *d->keys);
			d->p = frayi_calloc(t->ctx, t->count + 1, sizeof *d->p);
			d->hits = frayi_calloc(t->ctx, t->count + 1, sizeof *d->hits);
		}
		if (!d || !d->keys || !d->p || !d->hits) {
			fray_dist_free(d);
			d = NULL;
			st = frayi_nomem(t->ctx);
			goto done;
		}
		d->trials = trials;
	}
	for (size_t i = 0; i < t->count; i++) {
		size_t e = order[i].entry;
		memcpy(d->keys + i * t->nfields, t->keys + e * t->nfields,
		       t->nfields * sizeof *d->keys);
		if (t->exact) {
			d->exact[i] = t->x[e]; /* moved, not copied: half the peak */
			t->x[e] = FRAY_XQ_ZERO;
			d->p[i] = frayi_xq_to_double(&d->exact[i]);
		} else {
			d->hits[i] = t->hits[e];
			d->p[i] = trials ? (double)t->hits[e] / (double)trials : 0.0;
		}
	}
	st = FRAY_OK;
	*out = d;
done:
	frayi_dealloc(t->ctx, order);
	return st;
}
