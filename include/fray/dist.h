/* Distributions of outcomes: what `odds` (exact) and `simulate` (sampled)
 * produce. An outcome is a small vector of integers (nfields of them): a
 * dice total, or {hits, casualties, specialists_hit}. Outcomes are sorted in
 * increasing lexicographic order. */
#ifndef FRAY_DIST_H
#define FRAY_DIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <fray/status.h>

#define FRAY_OUTCOME_MAX_FIELDS 8

typedef struct fray_dist fray_dist;

void fray_dist_free(fray_dist *d);

size_t fray_dist_count(const fray_dist *d);   /* number of outcomes */
size_t fray_dist_fields(const fray_dist *d);  /* integers per outcome */
/* Outcome i: fray_dist_fields() integers, valid until the free. */
const int64_t *fray_dist_outcome(const fray_dist *d, size_t i);

/* The probability of outcome i: correctly rounded from the exact value when
 * the distribution is exact, else hits / trials. */
double fray_dist_p(const fray_dist *d, size_t i);

/* True when the distribution was computed exactly (odds), false when
 * sampled (simulate). */
bool fray_dist_is_exact(const fray_dist *d);

/* The exact probability of outcome i as a reduced fraction "5/36" (or "1",
 * "0"), written like snprintf: returns the length needed. Writes "" and
 * returns 0 when the distribution is not exact. */
size_t fray_dist_p_exact(const fray_dist *d, size_t i, char *dst, size_t cap);

/* Sampled distributions: trials run and the hits of outcome i. 0 if exact. */
uint64_t fray_dist_trials(const fray_dist *d);
uint64_t fray_dist_hits(const fray_dist *d, size_t i);

/* The probability mass the enumeration left unresolved at its depth limit
 * (0 when every path ended). Not part of any outcome. */
double fray_dist_unresolved(const fray_dist *d);
size_t fray_dist_unresolved_exact(const fray_dist *d, char *dst, size_t cap);

/* P(lo <= field 0 <= hi): as a double in *p and, when exact and exact_dst is
 * not NULL, as a fraction in exact_dst (snprintf-like; *needed gets the
 * length needed, may be NULL). */
fray_status fray_dist_range(const fray_dist *d, int64_t lo, int64_t hi,
			    double *p, char *exact_dst, size_t cap,
			    size_t *needed);

/* The shortest decimal that reads back as x ("0.027777777777777776"),
 * snprintf-like. */
size_t fray_double_str(double x, char *dst, size_t cap);

#endif
