/* Private: the layout of fray_dist and the tally that builds one (a hash
 * map from outcome vectors to exact probabilities or hit counts). */
#ifndef FRAY_DIST_INTERNAL_H
#define FRAY_DIST_INTERNAL_H

#include <gmp.h>
#include <stdbool.h>
#include "internal.h"
#include "xq.h"

struct fray_dist {
	fray_ctx *ctx;
	size_t nfields, count;
	int64_t *keys;    /* count * nfields */
	double *p;        /* count */
	frayi_xq *exact;   /* count, or NULL when sampled */
	uint64_t *hits;   /* count, or NULL when exact */
	uint64_t trials;
	frayi_xq unresolved; /* when exact */
};

typedef struct frayi_tally {
	fray_ctx *ctx;
	size_t nfields;
	bool exact;
	size_t count, cap;       /* entries */
	int64_t *keys;           /* cap * nfields */
	frayi_xq *x;              /* exact: cap */
	uint64_t *hits;          /* sampled: cap */
	/* hash table: entry index + 1 in the low 32 bits (0 = empty), the
	 * key's hash in the high ones, so that a probe past another key
	 * rarely reads that key (a big table's keys are cache misses) */
	uint64_t *slots;
	size_t nslots;           /* power of two */
} frayi_tally;

fray_status frayi_tally_init(frayi_tally *t, fray_ctx *ctx, size_t nfields,
			    bool exact);
void frayi_tally_fini(frayi_tally *t);
/* Empties t, keeping its memory. */
void frayi_tally_reset(frayi_tally *t);
/* The entry for key, created (zero) if new; SIZE_MAX when out of memory. */
size_t frayi_tally_slot(frayi_tally *t, const int64_t *key);
/* The same in two parts, so that a caller with several keys to look up
 * can hash them all and prefetch their slots before the first lookup (a
 * big table's slots are cache misses). */
uint64_t frayi_tally_hash(const int64_t *key, size_t nfields);
void frayi_tally_prefetch(const frayi_tally *t, uint64_t h);
size_t frayi_tally_slot_hashed(frayi_tally *t, const int64_t *key, uint64_t h);
/* Adds src's hit counts into dst (sampled tallies). */
fray_status frayi_tally_merge(frayi_tally *dst, const frayi_tally *src);
/* Builds a sorted distribution (the exact sums are moved out of t);
 * unresolved may be NULL (sampled). */
fray_status frayi_tally_to_dist(frayi_tally *t, uint64_t trials,
			       const frayi_xq *unresolved, fray_dist **out);

/* A new exact distribution over one field with the given values and
 * probabilities (values in increasing order); takes no ownership. */
fray_status frayi_dist_new_exact(fray_ctx *ctx, size_t nfields, size_t count,
				fray_dist **out);

/* The double nearest to q (mpq_get_d truncates). */
double frayi_q_to_double(const mpq_t q);

#endif
