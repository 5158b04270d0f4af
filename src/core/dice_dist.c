/* The exact distribution of a dice expression's total. Dice that add up
 * (plain, d6!, d6r1, d66) are convolved one die at a time as runs of
 * equally likely values, with prefix sums; terms that read their dice as a
 * whole (keep/drop, success counts) get their own law first and are
 * convolved in. Counts of ways share one denominator: 128-bit integers
 * when it fits, GMP otherwise. */
#include <string.h>
#include "dice_internal.h"
#include "dist_internal.h"

/* Ways to make each total, over [lo, lo + n), all out of one denominator. */
typedef struct ways {
	int64_t lo;
	size_t n;
	mpz_t *w;
} ways;

static bool ways_alloc(fray_ctx *ctx, ways *a, int64_t lo, size_t n)
{
	a->lo = lo;
	a->n = n;
	a->w = frayi_calloc(ctx, n, sizeof *a->w);
	if (!a->w)
		return false;
	for (size_t i = 0; i < n; i++)
		mpz_init(a->w[i]);
	return true;
}

static void ways_free(fray_ctx *ctx, ways *a)
{
	if (!a->w)
		return;
	for (size_t i = 0; i < a->n; i++)
		mpz_clear(a->w[i]);
	frayi_dealloc(ctx, a->w);
	a->w = NULL;
}


/* A run of equally likely values lo..hi, each with `weight` ways. */
typedef struct block {
	int64_t lo, hi;
	unsigned long weight;
} block;

#define MAX_BLOCKS 6

static bool adds_dice(const dice_term *t)
{
	return t->kind == DICE_SUM || t->kind == DICE_REROLL_ADD ||
	       t->kind == DICE_REROLL_LOW || t->kind == DICE_D66;
}

/* One die of a term that adds its dice, as blocks (signed) over *den ways. */
static size_t die_blocks(const dice_term *t, block *b, unsigned long *den)
{
	long s = t->sides, k = t->param;
	unsigned long us = (unsigned long)s;
	size_t nb = 0;
	switch (t->kind) {
	case DICE_REROLL_ADD:
		/* 1..s-1 with 1/s = s/s^2; s+1..2s with 1/s^2 (ruling R16) */
		b[nb++] = (block){1, s - 1, us};
		b[nb++] = (block){s + 1, 2 * s, 1};
		*den = us * us;
		break;
	case DICE_REROLL_LOW:
		/* a face of k or less is rolled again: k/s * 1/s for each face;
		 * a face above k also comes first time: (s + k) / s^2 */
		b[nb++] = (block){1, k, (unsigned long)k};
		b[nb++] = (block){k + 1, s, (unsigned long)(s + k)};
		*den = us * us;
		break;
	case DICE_D66:
		for (long tens = 1; tens <= 6; tens++)
			b[nb++] = (block){10 * tens + 1, 10 * tens + 6, 1};
		*den = 36;
		break;
	default:
		b[nb++] = (block){1, s, 1};
		*den = us;
	}
	if (t->sign < 0)
		for (size_t i = 0; i < nb; i++)
			b[i] = (block){-b[i].hi, -b[i].lo, b[i].weight};
	return nb;
}

static void blocks_span(const block *b, size_t nb, int64_t *lo, int64_t *hi)
{
	*lo = b[0].lo;
	*hi = b[0].hi;
	for (size_t i = 1; i < nb; i++) {
		if (b[i].lo < *lo)
			*lo = b[i].lo;
		if (b[i].hi > *hi)
			*hi = b[i].hi;
	}
}

/* out += weight * (a convolved with a uniform block of values [b0, b1]),
 * using prefix sums pre[i] = a.w[0] + ... + a.w[i-1]. */
static void add_block(ways *out, const ways *a, mpz_t *pre, int64_t b0,
		      int64_t b1, unsigned long weight, mpz_t tmp)
{
	for (size_t i = 0; i < out->n; i++) {
		int64_t v = out->lo + (int64_t)i;
		/* a's indices j with v - b1 <= a.lo + j <= v - b0 */
		int64_t jlo = v - b1 - a->lo, jhi = v - b0 - a->lo;
		if (jlo < 0)
			jlo = 0;
		if (jhi > (int64_t)a->n - 1)
			jhi = (int64_t)a->n - 1;
		if (jlo > jhi)
			continue;
		mpz_sub(tmp, pre[jhi + 1], pre[jlo]);
		mpz_addmul_ui(out->w[i], tmp, weight);
	}
}

/* a := a convolved with one die of t; den grows by the die's. */
static bool add_die(fray_ctx *ctx, ways *a, const dice_term *t, mpz_t den)
{
	block b[MAX_BLOCKS];
	unsigned long die_den;
	size_t nb = die_blocks(t, b, &die_den);
	int64_t vlo, vhi;
	blocks_span(b, nb, &vlo, &vhi);
	ways out = {0};
	mpz_t *pre = frayi_calloc(ctx, a->n + 1, sizeof *pre);
	if (!pre || !ways_alloc(ctx, &out, a->lo + vlo, a->n + (size_t)(vhi - vlo))) {
		frayi_dealloc(ctx, pre);
		return false;
	}
	for (size_t i = 0; i <= a->n; i++)
		mpz_init(pre[i]);
	for (size_t i = 0; i < a->n; i++)
		mpz_add(pre[i + 1], pre[i], a->w[i]);
	mpz_t tmp;
	mpz_init(tmp);
	for (size_t i = 0; i < nb; i++)
		add_block(&out, a, pre, b[i].lo, b[i].hi, b[i].weight, tmp);
	mpz_mul_ui(den, den, die_den);
	mpz_clear(tmp);
	for (size_t i = 0; i <= a->n; i++)
		mpz_clear(pre[i]);
	frayi_dealloc(ctx, pre);
	ways_free(ctx, a);
	*a = out;
	return true;
}

/* The law of a success count: k of n dice hit with C(n,k) p^k q^(n-k)
 * ways out of s^n, p the faces that hit and q the rest. */
static bool count_ways(fray_ctx *ctx, const dice_term *t, ways *tv, mpz_t den)
{
	unsigned long n = (unsigned long)t->count, s = (unsigned long)t->sides;
	unsigned long need = (unsigned long)t->param;
	unsigned long p = t->kind == DICE_AT_LEAST ? s - need + 1 : need;
	if (!ways_alloc(ctx, tv, 0, n + 1))
		return false;
	mpz_t x;
	mpz_init(x);
	for (unsigned long k = 0; k <= n; k++) {
		mpz_bin_uiui(tv->w[k], n, k);
		mpz_ui_pow_ui(x, p, k);
		mpz_mul(tv->w[k], tv->w[k], x);
		mpz_ui_pow_ui(x, s - p, n - k);
		mpz_mul(tv->w[k], tv->w[k], x);
	}
	mpz_clear(x);
	mpz_ui_pow_ui(den, s, n);
	return true;
}

/* The law of the sum of the `keep` highest (or lowest) of n dice: faces
 * are taken from the best down; a state is how many dice are placed and
 * the sum kept so far; c dice showing face v can be chosen among the
 * unplaced in C(n - m, c) ways, and the first of them still to be kept
 * add v each. */
static bool keep_ways(fray_ctx *ctx, const dice_term *t, ways *tv, mpz_t den)
{
	int n = t->count, s = t->sides, keep = t->param;
	size_t span = (size_t)keep * (size_t)s + 1, cells = (size_t)(n + 1) * span;
	unsigned long binom[DICE_KEEP_MAX_DICE + 1][DICE_KEEP_MAX_DICE + 1] = {{0}};
	for (int i = 0; i <= n; i++)
		for (int j = 0; j <= i; j++)
			binom[i][j] = j == 0 || j == i ? 1 : binom[i - 1][j - 1] + binom[i - 1][j];
	ways cur = {0}, nxt = {0};
	bool ok = ways_alloc(ctx, &cur, 0, cells) && ways_alloc(ctx, &nxt, 0, cells);
	if (ok) {
		mpz_set_ui(cur.w[0], 1);
		for (int step = 0; step < s; step++) {
			long v = t->kind == DICE_KEEP_HIGH ? s - step : step + 1;
			for (size_t i = 0; i < cells; i++)
				mpz_set_ui(nxt.w[i], 0);
			for (int m = 0; m <= n; m++) {
				int kept = m < keep ? m : keep;
				for (size_t sum = 0; sum <= (size_t)kept * (size_t)s; sum++) {
					mpz_srcptr w = cur.w[(size_t)m * span + sum];
					if (mpz_sgn(w) == 0)
						continue;
					for (int c = 0; c <= n - m; c++) {
						int add = c < keep - kept ? c : keep - kept;
						size_t to = (size_t)(m + c) * span + sum + (size_t)(add * v);
						mpz_addmul_ui(nxt.w[to], w, binom[n - m][c]);
					}
				}
			}
			ways swap = cur;
			cur = nxt;
			nxt = swap;
		}
		/* every die placed: the kept sums keep..keep*s */
		ok = ways_alloc(ctx, tv, keep, span - (size_t)keep);
		for (size_t i = 0; ok && i < tv->n; i++)
			mpz_swap(tv->w[i], cur.w[(size_t)n * span + (size_t)keep + i]);
		mpz_ui_pow_ui(den, (unsigned long)s, (unsigned long)n);
	}
	ways_free(ctx, &cur);
	ways_free(ctx, &nxt);
	return ok;
}

/* a := a convolved with the law tv of a term of the given sign. */
static bool convolve(fray_ctx *ctx, ways *a, const ways *tv, int sign)
{
	ways out = {0};
	int64_t tlo = sign > 0 ? tv->lo : -(tv->lo + (int64_t)tv->n - 1);
	if (!ways_alloc(ctx, &out, a->lo + tlo, a->n + tv->n - 1))
		return false;
	for (size_t j = 0; j < tv->n; j++) {
		mpz_srcptr w = tv->w[sign > 0 ? j : tv->n - 1 - j];
		if (mpz_sgn(w) == 0)
			continue;
		for (size_t i = 0; i < a->n; i++)
			mpz_addmul(out.w[i + j], a->w[i], w);
	}
	ways_free(ctx, a);
	*a = out;
	return true;
}

/* a := a convolved with a whole term read as one (keep/drop, count). */
static bool add_term(fray_ctx *ctx, ways *a, const dice_term *t, mpz_t den)
{
	ways tv = {0};
	mpz_t tden;
	mpz_init(tden);
	bool ok = t->kind == DICE_AT_LEAST || t->kind == DICE_AT_MOST
			  ? count_ways(ctx, t, &tv, tden)
			  : keep_ways(ctx, t, &tv, tden);
	ok = ok && convolve(ctx, a, &tv, t->sign);
	mpz_mul(den, den, tden);
	mpz_clear(tden);
	ways_free(ctx, &tv);
	return ok;
}

/* ---- the same in 128-bit integers, when the denominator fits (every
 * count of ways is below it): no GMP at all ---- */

/* The denominator of the whole expression, false past 128 bits or when a
 * term is read as a whole (those go through GMP). */
static bool small_den(const fray_dice *d, frayi_u128 *den)
{
	frayi_u128 v = 1;
	for (size_t i = 0; i < d->nterms; i++) {
		const dice_term *t = &d->terms[i];
		if (t->kind == DICE_CONST)
			continue;
		if (!adds_dice(t))
			return false;
		block b[MAX_BLOCKS];
		unsigned long die_den;
		die_blocks(t, b, &die_den);
		for (int k = 0; k < t->count; k++)
			if (__builtin_mul_overflow(v, (frayi_u128)die_den, &v))
				return false;
	}
	*den = v;
	return true;
}

/* out[lo_out + i] += weight * sum of a over the block [b0, b1] below it. */
static void add_block_small(frayi_u128 *out, int64_t out_lo, size_t out_n, const frayi_u128 *pre,
			    int64_t a_lo, size_t a_n, int64_t b0, int64_t b1, frayi_u128 weight)
{
	for (size_t i = 0; i < out_n; i++) {
		int64_t v = out_lo + (int64_t)i;
		int64_t jlo = v - b1 - a_lo, jhi = v - b0 - a_lo;
		if (jlo < 0)
			jlo = 0;
		if (jhi > (int64_t)a_n - 1)
			jhi = (int64_t)a_n - 1;
		if (jlo <= jhi)
			out[i] += weight * (pre[jhi + 1] - pre[jlo]);
	}
}

static fray_status dist_small(const fray_dice *d, frayi_u128 den, fray_dist **out)
{
	fray_ctx *ctx = d->ctx;
	int64_t span = fray_dice_max(d) - fray_dice_min(d) + 1;
	frayi_u128 *a = frayi_calloc(ctx, (size_t)span, sizeof *a);
	frayi_u128 *b = frayi_calloc(ctx, (size_t)span, sizeof *b);
	frayi_u128 *pre = frayi_calloc(ctx, (size_t)span + 1, sizeof *pre);
	fray_status st = FRAY_OK;
	if (!a || !b || !pre) {
		st = frayi_nomem(ctx);
		goto done;
	}
	int64_t lo = 0, shift = 0;
	size_t n = 1;
	a[0] = 1;
	for (size_t i = 0; i < d->nterms; i++) {
		const dice_term *t = &d->terms[i];
		if (t->kind == DICE_CONST) {
			shift += t->sign * t->value;
			continue;
		}
		block bl[MAX_BLOCKS];
		unsigned long die_den;
		size_t nb = die_blocks(t, bl, &die_den);
		int64_t vlo, vhi;
		blocks_span(bl, nb, &vlo, &vhi);
		for (int k = 0; k < t->count; k++) {
			for (size_t j = 0; j < n; j++)
				pre[j + 1] = pre[j] + a[j];
			int64_t out_lo = lo + vlo;
			size_t out_n = n + (size_t)(vhi - vlo);
			memset(b, 0, out_n * sizeof *b);
			for (size_t j = 0; j < nb; j++)
				add_block_small(b, out_lo, out_n, pre, lo, n, bl[j].lo, bl[j].hi,
						bl[j].weight);
			frayi_u128 *tmp = a;
			a = b;
			b = tmp;
			lo = out_lo;
			n = out_n;
		}
	}
	size_t count = 0;
	for (size_t i = 0; i < n; i++)
		count += a[i] != 0;
	fray_dist *dist;
	if ((st = frayi_dist_new_exact(ctx, 1, count, &dist)) != FRAY_OK)
		goto done;
	for (size_t i = 0, k = 0; i < n; i++) {
		if (a[i] == 0)
			continue;
		dist->keys[k] = lo + (int64_t)i + shift;
		dist->exact[k] = (frayi_xq){.num = a[i], .den = den};
		dist->p[k] = frayi_u128_ratio(a[i], den);
		k++;
	}
	*out = dist;
done:
	frayi_dealloc(ctx, a);
	frayi_dealloc(ctx, b);
	frayi_dealloc(ctx, pre);
	return st;
}

FRAY_API fray_status fray_dice_dist(const fray_dice *d, fray_dist **out)
{
	fray_ctx *ctx = d->ctx;
	*out = NULL;
	frayi_u128 small;
	if (small_den(d, &small))
		return dist_small(d, small, out);
	if (!frayi_gmp_guard())
		return frayi_nomem(ctx);
	ways a = {0};
	mpz_t den;
	mpz_init_set_ui(den, 1);
	fray_status st = FRAY_OK;
	int64_t shift = 0;
	if (!ways_alloc(ctx, &a, 0, 1)) {
		st = frayi_nomem(ctx);
		goto done;
	}
	mpz_set_ui(a.w[0], 1);
	/* terms read as a whole first, while a is short: their convolution
	 * costs the product of the two lengths */
	for (size_t i = 0; i < d->nterms; i++) {
		const dice_term *t = &d->terms[i];
		if (t->kind != DICE_CONST && !adds_dice(t) && !add_term(ctx, &a, t, den)) {
			st = frayi_nomem(ctx);
			goto done;
		}
	}
	for (size_t i = 0; i < d->nterms; i++) {
		const dice_term *t = &d->terms[i];
		shift += t->kind == DICE_CONST ? t->sign * t->value : 0;
		for (int k = 0; adds_dice(t) && k < t->count; k++)
			if (!add_die(ctx, &a, t, den)) {
				st = frayi_nomem(ctx);
				goto done;
			}
	}
	size_t count = 0;
	for (size_t i = 0; i < a.n; i++)
		count += mpz_sgn(a.w[i]) != 0;
	fray_dist *dist;
	if ((st = frayi_dist_new_exact(ctx, 1, count, &dist)) != FRAY_OK)
		goto done;
	mpq_t q;
	mpq_init(q);
	for (size_t i = 0, k = 0; i < a.n; i++) {
		if (mpz_sgn(a.w[i]) == 0)
			continue;
		dist->keys[k] = a.lo + (int64_t)i + shift;
		mpq_set_num(q, a.w[i]);
		mpq_set_den(q, den);
		mpq_canonicalize(q);
		if (!frayi_xq_add_q(&dist->exact[k], q)) {
			mpq_clear(q);
			fray_dist_free(dist);
			st = frayi_nomem(ctx);
			goto done;
		}
		dist->p[k] = frayi_q_to_double(q);
		k++;
	}
	mpq_clear(q);
	*out = dist;
done:
	ways_free(ctx, &a);
	mpz_clear(den);
	return st;
}
