/* Private: hooks for a procedure that splits its own walk (issue 45 item
 * 1, the ADBG battle's independent positions: src/rules/adbg/
 * battle_convolve.c). Under exact odds with states merged
 * (frayi_roller_staging), a procedure may walk a part of itself on its own
 * (frayi_enum_inner: its exact distribution, its paths counted as the
 * walk's), combine such parts, and go on along each outcome of the
 * combination as along a die's faces (frayi_enum_branch). Nothing here is
 * for sampling: a sampled run plays the rules in their order. */
#ifndef FRAY_ROLLER_INNER_H
#define FRAY_ROLLER_INNER_H

#include <stddef.h>
#include <stdint.h>
#include <fray/roller.h>
#include "xq.h"

/* The exact distribution of proc on input (nfields integers an
 * outcome), walked with the walk r belongs to's depth, memory budget and
 * stop flag, and the paths it has left; the paths taken are added to that
 * walk's (its budget, its estimate, the count it reports). On failure the
 * run of r stops with the failure (fray_roller_fail) and *out is NULL.
 * Only while frayi_roller_staging(r). The caller frees *out. */
fray_status frayi_enum_inner(fray_roller *r, fray_procedure proc, fray_policy *p, const void *input,
			     size_t nfields, fray_dist **out);

/* One event of n branches whose probabilities are w[0..n-1] (each > 0,
 * summing to 1): the branch taken, as fray_die's face. Only while
 * frayi_roller_staging(r); returns 0 (and cuts the path) at the depth
 * limit. */
size_t frayi_enum_branch(fray_roller *r, size_t n, const frayi_xq *w);

/* The procedure's cache for the whole enumeration r belongs to: made
 * (size bytes, zeroed) on first call, passed to fini with the walk's
 * context when the walk ends (then freed); the same pointer on every later
 * call. *ctx gets the walk's context, for the cache's allocations, and
 * *bytes the walk's count of the cache's bytes: the cache adds what it
 * holds there, and the walk's memory budget (--max-memory) counts it. NULL
 * when not enumerating or out of memory. */
void *frayi_enum_memo(fray_roller *r, size_t size, void (*fini)(fray_ctx *ctx, void *memo),
		      fray_ctx **ctx, uint64_t **bytes);

#endif
