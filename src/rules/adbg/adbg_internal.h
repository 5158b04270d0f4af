/* Private to the adbg rule set. */
#ifndef FRAY_ADBG_INTERNAL_H
#define FRAY_ADBG_INTERNAL_H

#include <fray/adbg.h>
#include "../../core/internal.h"

static inline int clamp_int(int v, int lo, int hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

/* The faces 1..k that hit (ADBG 19.2.1, ruling R5): k, in 1..5. The one
 * place of fire's target, read by fray_adbg_fire and by the scenario's
 * face masks (the battle's sampling fast path, scenario.c). */
int frayi_adbg_fire_hits(const fray_adbg_fire_in *in);
/* The same for the move die (19.2.2, R6: k in 1..5) and the recovery die
 * (19.2.4, R9: k in 0..5). */
int frayi_adbg_move_faces(const fray_adbg_move_in *in);
int frayi_adbg_recover_faces(const fray_adbg_recover_in *in);
/* 19.1, ruling R1: the faces 1..k of the extra-round die that win the
 * round, k in 0..6 (fray_adbg_rounds rolls against it). */
int frayi_adbg_extra_round_faces(const fray_adbg_rounds_in *in);
/* fray_adbg_battle_procedure with its positions never convolved (battle.c,
 * "independent positions"): the same odds, walked as before issue 45's
 * third pass. Its path count is the heuristic's size that the best
 * policy's budget is measured against (battle_odds.c): the best walk
 * never splits a round, so a convolved count says nothing of its size. */
void frayi_adbg_battle_unconvolved_procedure(fray_roller *r, fray_policy *p, const void *scenario,
					      int64_t *out);

#endif
