/* The positions' distributions, kept for the whole walk, and their
 * convolution (battle_convolve.h). */
#include <assert.h>
#include <string.h>
#include "battle_convolve.h"
#include "../../core/dist_internal.h"
#include "../../core/roller_inner.h"

enum { KEY_BYTES_MAX = 1024, INDEX_BITS_MIN = 8 };

/* The plans' tallies: two for the positions convolved so far, made on
 * first need and kept with the walk's cache. */
typedef struct plan_tallies {
	frayi_tally t[2];
	bool init;
} plan_tallies;

typedef struct conv_part {
	uint8_t *key;
	size_t len;
	uint64_t hash;
	fray_dist *d;
} conv_part;

struct adbg_conv {
	fray_ctx *ctx;
	uint64_t *bytes;       /* the walk's count of what this holds (its memory budget) */
	conv_part *part;       /* count, in a table of 1 << bits slots */
	size_t count;
	unsigned bits;
	/* the last combination: its battle, its outcomes */
	uint8_t last_key[KEY_BYTES_MAX];
	size_t last_len;
	bool have_last;
	frayi_tally joint;
	bool joint_init;
	adbg_joint last;
	plan_tallies plan;
	uint64_t plan_work;  /* the plans' products so far (frayi_adbg_conv_plan_add) */
	uint64_t plan_total; /* and in the whole walk */
};

static void conv_fini(fray_ctx *ctx, void *memo)
{
	adbg_conv *c = memo;
	for (size_t i = 0; c->part && i < (size_t)1 << c->bits; i++) {
		frayi_dealloc(ctx, c->part[i].key);
		fray_dist_free(c->part[i].d);
	}
	frayi_dealloc(ctx, c->part);
	if (c->joint_init)
		frayi_tally_fini(&c->joint);
	if (c->plan.init) {
		frayi_tally_fini(&c->plan.t[0]);
		frayi_tally_fini(&c->plan.t[1]);
	}
}

adbg_conv *frayi_adbg_conv(fray_roller *r)
{
	fray_ctx *ctx = NULL;
	uint64_t *bytes = NULL;
	adbg_conv *c = frayi_enum_memo(r, sizeof *c, conv_fini, &ctx, &bytes);
	if (c && !c->ctx) {
		c->ctx = ctx;
		c->bytes = bytes;
	}
	return c;
}

static uint64_t key_hash(const uint8_t *key, size_t len)
{
	uint64_t h = 1469598103934665603u; /* FNV-1a */
	for (size_t i = 0; i < len; i++)
		h = (h ^ key[i]) * 1099511628211u;
	return h ^ h >> 29;
}

static conv_part *slot_of(const adbg_conv *c, const uint8_t *key, size_t len, uint64_t h)
{
	size_t mask = ((size_t)1 << c->bits) - 1;
	for (size_t i = h & mask;; i = (i + 1) & mask) {
		conv_part *p = &c->part[i];
		if (!p->key || (p->hash == h && p->len == len && memcmp(p->key, key, len) == 0))
			return p;
	}
}

const fray_dist *frayi_adbg_conv_part(adbg_conv *c, const uint8_t *key, size_t len)
{
	if (!c->part)
		return NULL;
	const conv_part *p = slot_of(c, key, len, key_hash(key, len));
	return p->key ? p->d : NULL;
}

static bool grow(adbg_conv *c)
{
	unsigned bits = c->part ? c->bits + 1 : INDEX_BITS_MIN;
	conv_part *part = frayi_calloc(c->ctx, (size_t)1 << bits, sizeof *part);
	if (!part)
		return false;
	conv_part *old = c->part;
	size_t n = old ? (size_t)1 << c->bits : 0;
	*c->bytes += (((uint64_t)1 << bits) - n) * sizeof *part;
	c->part = part;
	c->bits = bits;
	for (size_t i = 0; i < n; i++)
		if (old[i].key)
			*slot_of(c, old[i].key, old[i].len, old[i].hash) = old[i];
	frayi_dealloc(c->ctx, old);
	return true;
}

bool frayi_adbg_conv_keep(adbg_conv *c, const uint8_t *key, size_t len, fray_dist *d)
{
	if (((c->count + 1) * 2 > ((size_t)1 << c->bits) || !c->part) && !grow(c)) {
		fray_dist_free(d);
		return false;
	}
	uint64_t h = key_hash(key, len);
	conv_part *p = slot_of(c, key, len, h);
	uint8_t *copy = p->key ? NULL : frayi_alloc(c->ctx, len);
	if (p->key || !copy) {
		fray_dist_free(d);
		return p->key != NULL;
	}
	memcpy(copy, key, len);
	*p = (conv_part){.key = copy, .len = len, .hash = h, .d = d};
	c->count++;
	*c->bytes += len + sizeof *d + d->count * (d->nfields * sizeof *d->keys + sizeof *d->p + sizeof *d->exact);
	return true;
}

const adbg_joint *frayi_adbg_conv_last(adbg_conv *c, const uint8_t *key, size_t len)
{
	if (!c->have_last || c->last_len != len || memcmp(c->last_key, key, len) != 0)
		return NULL;
	return &c->last;
}

/* dst = src convolved with part (the sums of every pair of outcomes, the
 * products of their probabilities): dst emptied first. */
static bool convolve(frayi_tally *dst, const frayi_tally *src, const fray_dist *part)
{
	frayi_tally_reset(dst);
	for (size_t a = 0; a < src->count; a++)
		for (size_t b = 0; b < part->count; b++) {
			int64_t key[ADBG_JOINT_FIELDS];
			for (int f = 0; f < ADBG_JOINT_FIELDS; f++)
				key[f] = src->keys[a * ADBG_JOINT_FIELDS + (size_t)f] +
					 part->keys[b * ADBG_CONV_FIELDS + 1 + (size_t)f];
			size_t e = frayi_tally_slot(dst, key);
			if (e == SIZE_MAX || !frayi_xq_addmul(&dst->x[e], &src->x[a], &part->exact[b]))
				return false;
		}
	return true;
}

bool frayi_adbg_conv_refused(const fray_dist *const *parts, int n)
{
	/* every outcome has a chance: a flag on any is possible */
	uint64_t any[FRAY_ADBG_CONV_MAX_PARTS] = {0};
	bool refused = false;
	for (int i = 0; i < n && i < FRAY_ADBG_CONV_MAX_PARTS; i++)
		for (size_t e = 0; e < parts[i]->count; e++)
			any[i] |= (uint64_t)parts[i]->keys[e * ADBG_CONV_FIELDS + ADBG_CONV_FLAGS];
	/* a reserve at i sees a later position j before its side's moves
	 * there, an earlier one after them */
	for (int i = 0; i < n && i < FRAY_ADBG_CONV_MAX_PARTS; i++) {
		uint64_t reserve = any[i] & ADBG_CONV_EVERY(ADBG_CONV_RESERVE);
		for (int j = 0; reserve && j < n && j < FRAY_ADBG_CONV_MAX_PARTS; j++)
			if (j != i)
				refused |= (reserve >> (ADBG_CONV_RESERVE - (j > i ? ADBG_CONV_OPEN_BEFORE
										 : ADBG_CONV_OPEN_AFTER)) &
					    any[j]) != 0;
	}
	return refused;
}

/* c->joint (when not refused) kept as the combination of the battle
 * whose state is key. */
static const adbg_joint *kept_as_last(adbg_conv *c, const uint8_t *key, size_t len)
{
	if (!c->last.refused) {
		c->last.n = c->joint.count;
		c->last.keys = c->joint.keys;
		c->last.x = c->joint.x;
	}
	memcpy(c->last_key, key, len);
	c->last_len = len;
	c->have_last = true;
	return &c->last;
}

const adbg_joint *frayi_adbg_conv_join(adbg_conv *c, const uint8_t *key, size_t len,
				       const fray_dist *const *parts, int n)
{
	c->have_last = false;
	if (len > sizeof c->last_key)
		return NULL;
	if (!c->joint_init) {
		if (frayi_tally_init(&c->joint, c->ctx, ADBG_JOINT_FIELDS, true) != FRAY_OK)
			return NULL;
		c->joint_init = true;
	}
	c->last = (adbg_joint){.refused = false};
	if (n > FRAY_ADBG_CONV_MAX_PARTS)
		return NULL;
	c->last.refused = frayi_adbg_conv_refused(parts, n);
	if (!c->last.refused) {
		/* the sums so far in one tally, with one more position into the
		 * other, in turn; the last into the kept one */
		frayi_tally t[2];
		if (frayi_tally_init(&t[0], c->ctx, ADBG_JOINT_FIELDS, true) != FRAY_OK)
			return NULL;
		if (frayi_tally_init(&t[1], c->ctx, ADBG_JOINT_FIELDS, true) != FRAY_OK) {
			frayi_tally_fini(&t[0]);
			return NULL;
		}
		int64_t zero[ADBG_JOINT_FIELDS] = {0};
		size_t e = frayi_tally_slot(&t[0], zero);
		bool ok = e != SIZE_MAX && frayi_xq_add(&t[0].x[e], 1, 1);
		for (int i = 0; ok && i < n; i++) {
			frayi_tally *to = i + 1 == n ? &c->joint : &t[(i + 1) % 2];
			ok = convolve(to, i == 0 ? &t[0] : &t[i % 2], parts[i]);
		}
		frayi_tally_fini(&t[0]);
		frayi_tally_fini(&t[1]);
		if (!ok || n == 0)
			return NULL;
	}
	return kept_as_last(c, key, len);
}

/* ---- plans ---- */

static bool holds(const fray_dist *d, size_t e, const adbg_pred *pr)
{
	const int64_t *k = d->keys + e * d->nfields;
	if (((uint64_t)k[ADBG_CONV_FLAGS] & pr->mask) != pr->value)
		return false;
	for (int i = 0; i < pr->ndep; i++)
		if ((size_t)(ADBG_CONV_FIELDS + i) >= d->nfields || k[ADBG_CONV_FIELDS + i] != pr->dep[i])
			return false;
	return true;
}

uint64_t frayi_adbg_conv_may(const fray_dist *d, const adbg_pred *pr, bool *any)
{
	uint64_t f = 0;
	*any = false;
	for (size_t e = 0; e < d->count; e++)
		if (holds(d, e, pr)) {
			f |= (uint64_t)d->keys[e * d->nfields + ADBG_CONV_FLAGS];
			*any = true;
		}
	return f;
}

size_t frayi_adbg_conv_deps(const fray_dist *d, const adbg_pred *pr, uint64_t need, int dep, int64_t *vals,
			    size_t cap)
{
	size_t n = 0;
	if ((size_t)(ADBG_CONV_FIELDS + dep) >= d->nfields)
		return 0;
	for (size_t e = 0; e < d->count; e++) {
		const int64_t *k = d->keys + e * d->nfields;
		if (!((uint64_t)k[ADBG_CONV_FLAGS] & need) || !holds(d, e, pr))
			continue;
		size_t i = 0;
		while (i < n && vals[i] != k[ADBG_CONV_FIELDS + dep])
			i++;
		if (i < n)
			continue;
		if (n == cap)
			return cap + 1;
		vals[n++] = k[ADBG_CONV_FIELDS + dep];
	}
	return n;
}

bool frayi_adbg_plan_refused(const fray_dist *const *parts, const adbg_pred *preds, int n, int s)
{
	uint64_t any[FRAY_ADBG_CONV_MAX_PARTS] = {0};
	bool some;
	if (n > FRAY_ADBG_CONV_MAX_PARTS)
		return true;
	for (int i = 0; i < n; i++)
		any[i] = frayi_adbg_conv_may(parts[i], &preds[i], &some);
	/* AVAIL of s at i against the position j open to s as the search
	 * looks at it: a later one before s's moves there, an earlier one
	 * after them */
	uint64_t side = (uint64_t)0x0f0f0f0f0f0f0f0f << (4 * s);
	for (int i = 0; i < n; i++) {
		uint64_t avail = any[i] & side & ADBG_CONV_EVERY(ADBG_CONV_AVAIL) & ~(uint64_t)0xff;
		for (int j = 0; avail && j < n; j++)
			if (j != i && (avail >> (ADBG_CONV_AVAIL - (j > i ? ADBG_CONV_OPEN_BEFORE : ADBG_CONV_OPEN_AFTER)) &
				       any[j]) != 0)
				return true;
	}
	return false;
}

static plan_tallies *tallies_of(adbg_conv *c)
{
	plan_tallies *pt = &c->plan;
	if (!pt->init) {
		if (frayi_tally_init(&pt->t[0], c->ctx, ADBG_JOINT_FIELDS, true) != FRAY_OK)
			return NULL;
		if (frayi_tally_init(&pt->t[1], c->ctx, ADBG_JOINT_FIELDS, true) != FRAY_OK) {
			frayi_tally_fini(&pt->t[0]);
			return NULL;
		}
		pt->init = true;
	}
	return pt;
}

bool frayi_adbg_conv_plans_begin(adbg_conv *c)
{
	c->have_last = false;
	if (!c->joint_init) {
		if (frayi_tally_init(&c->joint, c->ctx, ADBG_JOINT_FIELDS, true) != FRAY_OK)
			return false;
		c->joint_init = true;
	}
	frayi_tally_reset(&c->joint);
	c->plan_work = 0;
	return tallies_of(c) != NULL;
}

bool frayi_adbg_conv_plan_add(adbg_conv *c, const fray_dist *const *parts, const adbg_pred *preds, int n)
{
	plan_tallies *pt = tallies_of(c);
	if (!pt)
		return false;
	frayi_tally *src = &pt->t[0], *dst = &pt->t[1];
	frayi_tally_reset(src);
	int64_t zero[ADBG_JOINT_FIELDS] = {0};
	size_t e = frayi_tally_slot(src, zero);
	if (e == SIZE_MAX || !frayi_xq_add(&src->x[e], 1, 1))
		return false;
	for (int i = 0; i < n; i++) {
		const fray_dist *d = parts[i];
		frayi_tally_reset(dst);
		for (size_t b = 0; b < d->count; b++) {
			if (!holds(d, b, &preds[i]))
				continue;
			const int64_t *pk = d->keys + b * d->nfields + 1;
			c->plan_work += src->count;
			c->plan_total += src->count;
			for (size_t a = 0; a < src->count; a++) {
				int64_t key[ADBG_JOINT_FIELDS];
				for (int f = 0; f < ADBG_JOINT_FIELDS; f++)
					key[f] = src->keys[a * ADBG_JOINT_FIELDS + (size_t)f] + pk[f];
				size_t s = frayi_tally_slot(dst, key);
				if (s == SIZE_MAX || !frayi_xq_addmul(&dst->x[s], &src->x[a], &d->exact[b]))
					return false;
			}
		}
		if (dst->count == 0)
			return true; /* the plan has no chance */
		frayi_tally *t = src;
		src = dst;
		dst = t;
	}
	for (size_t a = 0; a < src->count; a++) {
		size_t s = frayi_tally_slot(&c->joint, src->keys + a * ADBG_JOINT_FIELDS);
		if (s == SIZE_MAX || !frayi_xq_add_xq(&c->joint.x[s], &src->x[a]))
			return false;
	}
	return true;
}

uint64_t frayi_adbg_conv_plan_work(const adbg_conv *c, bool walk)
{
	return walk ? c->plan_total : c->plan_work;
}

const adbg_joint *frayi_adbg_conv_plans_end(adbg_conv *c, const uint8_t *key, size_t len, bool refused)
{
	c->have_last = false;
	if (len > sizeof c->last_key)
		return NULL;
	c->last = (adbg_joint){.refused = refused};
	if (!refused) {
		/* the plans partition the battle: their chances sum to 1 */
		mpq_t sum, q;
		mpq_init(sum);
		mpq_init(q);
		for (size_t a = 0; a < c->joint.count; a++) {
			frayi_xq_get_q(&c->joint.x[a], q);
			mpq_add(sum, sum, q);
		}
		bool one = mpq_cmp_ui(sum, 1, 1) == 0;
		mpq_clear(sum);
		mpq_clear(q);
		assert(one);
		c->last.refused = !one;
	}
	return kept_as_last(c, key, len);
}
