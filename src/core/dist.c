/* Distributions: accessors, exact fractions as text, shortest doubles. */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dist_internal.h"

double frayi_q_to_double(const mpq_t q)
{
	double d = mpq_get_d(q); /* truncated toward zero */
	if (mpq_sgn(q) == 0 || !isfinite(d))
		return d;
	double next = nextafter(d, mpq_sgn(q) > 0 ? INFINITY : -INFINITY);
	mpq_t a, b;
	mpq_inits(a, b, NULL);
	mpq_set_d(a, d);
	mpq_sub(a, q, a);
	mpq_abs(a, a);
	mpq_set_d(b, next);
	mpq_sub(b, q, b);
	mpq_abs(b, b);
	int c = mpq_cmp(b, a);
	/* ties: round half to even, as IEEE does */
	double r = c < 0 ? next : d;
	if (c == 0) {
		double mant_d = frexp(d, &(int){0}) * 9007199254740992.0;
		r = fmod(mant_d, 2.0) == 0.0 ? d : next;
	}
	mpq_clears(a, b, NULL);
	return r;
}

fray_status frayi_dist_new_exact(fray_ctx *ctx, size_t nfields, size_t count,
				fray_dist **out)
{
	*out = NULL;
	fray_dist *d = frayi_calloc(ctx, 1, sizeof *d);
	if (!d)
		return frayi_nomem(ctx);
	d->ctx = ctx;
	d->nfields = nfields;
	d->count = count;
	d->keys = frayi_calloc(ctx, count * nfields + 1, sizeof *d->keys);
	d->p = frayi_calloc(ctx, count + 1, sizeof *d->p);
	d->exact = frayi_calloc(ctx, count + 1, sizeof *d->exact);
	if (!d->keys || !d->p || !d->exact) {
		frayi_dealloc(ctx, d->keys);
		frayi_dealloc(ctx, d->p);
		frayi_dealloc(ctx, d->exact);
		frayi_dealloc(ctx, d);
		return frayi_nomem(ctx);
	}
	for (size_t i = 0; i < count; i++)
		d->exact[i] = FRAY_XQ_ZERO;
	d->unresolved = FRAY_XQ_ZERO;
	*out = d;
	return FRAY_OK;
}

FRAY_API void fray_dist_free(fray_dist *d)
{
	if (!d)
		return;
	if (d->exact) {
		for (size_t i = 0; i < d->count; i++)
			frayi_xq_clear(&d->exact[i]);
		frayi_xq_clear(&d->unresolved);
	}
	frayi_dealloc(d->ctx, d->exact);
	frayi_dealloc(d->ctx, d->hits);
	frayi_dealloc(d->ctx, d->keys);
	frayi_dealloc(d->ctx, d->p);
	frayi_dealloc(d->ctx, d);
}

FRAY_API size_t fray_dist_count(const fray_dist *d) { return d->count; }
FRAY_API size_t fray_dist_fields(const fray_dist *d) { return d->nfields; }
FRAY_API bool fray_dist_is_exact(const fray_dist *d) { return d->exact != NULL; }
FRAY_API uint64_t fray_dist_trials(const fray_dist *d) { return d->trials; }

FRAY_API const int64_t *fray_dist_outcome(const fray_dist *d, size_t i)
{
	return d->keys + i * d->nfields;
}

FRAY_API double fray_dist_p(const fray_dist *d, size_t i)
{
	return d->p[i];
}

FRAY_API size_t fray_dist_p_exact(const fray_dist *d, size_t i, char *dst,
				  size_t cap)
{
	if (!d->exact) {
		if (cap)
			dst[0] = '\0';
		return 0;
	}
	return frayi_xq_str(&d->exact[i], dst, cap);
}

FRAY_API uint64_t fray_dist_hits(const fray_dist *d, size_t i)
{
	return d->hits ? d->hits[i] : 0;
}

FRAY_API double fray_dist_unresolved(const fray_dist *d)
{
	return d->exact ? frayi_xq_to_double(&d->unresolved) : 0.0;
}

FRAY_API size_t fray_dist_unresolved_exact(const fray_dist *d, char *dst,
					   size_t cap)
{
	if (!d->exact) {
		if (cap)
			dst[0] = '\0';
		return 0;
	}
	return frayi_xq_str(&d->unresolved, dst, cap);
}

FRAY_API fray_status fray_dist_range(const fray_dist *d, int64_t lo,
				     int64_t hi, double *p, char *exact_dst,
				     size_t cap, size_t *needed)
{
	if (d->exact) {
		frayi_xq sum = FRAY_XQ_ZERO;
		for (size_t i = 0; i < d->count; i++) {
			int64_t v = d->keys[i * d->nfields];
			if (v >= lo && v <= hi && !frayi_xq_add_xq(&sum, &d->exact[i])) {
				frayi_xq_clear(&sum);
				return frayi_nomem(d->ctx);
			}
		}
		*p = frayi_xq_to_double(&sum);
		size_t n = frayi_xq_str(&sum, exact_dst, exact_dst ? cap : 0);
		if (needed)
			*needed = n;
		frayi_xq_clear(&sum);
		return FRAY_OK;
	}
	uint64_t hits = 0;
	for (size_t i = 0; i < d->count; i++) {
		int64_t v = d->keys[i * d->nfields];
		if (v >= lo && v <= hi)
			hits += d->hits[i];
	}
	*p = d->trials ? (double)hits / (double)d->trials : 0.0;
	if (exact_dst && cap)
		exact_dst[0] = '\0';
	if (needed)
		*needed = 0;
	return FRAY_OK;
}

/* fray_double_str: src/core/double_str.c */
