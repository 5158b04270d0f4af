/* What the chit combat's procedures share (combat.c, combat_worth.c). */
#ifndef FRAY_CHITS_INTERNAL_H
#define FRAY_CHITS_INTERNAL_H

#include <fray/chits.h>

/* The draws' inputs checked (the situation, the count, the scripted chits,
 * the units a side): false, the run failed with a message, when not. */
bool frayi_chits_draws_fit(fray_roller *r, const fray_chits_combat_in *in);

/* The chits of in's mix by kind (the same effect in the situation): the
 * kinds' effects, how many of each are left after the scripted ones
 * (count), how many of each were scripted (drawn), and each chit's kind
 * (kind_of, may be NULL). Returns the number of kinds. */
size_t frayi_chits_by_kind(const fray_chits_combat_in *in, fray_chits_effect *kinds, unsigned *count,
			 unsigned *drawn, size_t *kind_of);

/* fray_chits_combat, its morale tests rolled only with tests (the last
 * thing a combat does, R22: a walk whose outcome leaves them out need not
 * branch on their dice). */
void frayi_chits_combat_tests(fray_roller *r, fray_policy *p, const fray_chits_combat_in *in,
			      fray_chits_combat_out *out, bool tests);

#endif
