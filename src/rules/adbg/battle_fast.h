/* Private: the quick battle's sampling fast path held small (issue 45
 * item 2). A battle taking the heuristic's suggestions unasked (direct),
 * untold, sampling plainly (fast_dice.h) and with 1d6/2d6 checks runs in
 * battle_fast.c on the state below: a side as masks (stacks alive, atop,
 * moved, at each position; units undisrupted, routed), a stack's place as
 * a few bytes, copied per battle from the set-up battle.c makes once per
 * scenario (frayi_adbg_fast_make). The same rules as battle.c's direct
 * path, step for step, reading the same dice in the same order: the same
 * battles. Narration, exact odds and asked policies never come here. */
#ifndef FRAY_ADBG_BATTLE_FAST_H
#define FRAY_ADBG_BATTLE_FAST_H

#include <stdbool.h>
#include <stdint.h>
#include "scenario.h"

#define FAST_SLOTS (2 * FRAY_ADBG_MAX_STACKS) /* battle.c's MAX_STACKS */
#define FAST_RATINGS 4                         /* leader ratings 0 (none) .. 3 */

/* What changes in a battle, for one side. */
typedef struct fast_side {
	uint32_t in_stack[FAST_SLOTS];     /* bit i: unit i is in line in stack k */
	uint32_t posm[FRAY_ADBG_MAX_STACKS]; /* bit k: slot k's position is p */
	uint32_t used, alive, atop, moved; /* bit k: of slot k */
	uint32_t normal, routed;           /* bit i: unit i undisrupted, routed */
	int16_t row[FAST_SLOTS], home_row[FAST_SLOTS];
	int8_t pos[FAST_SLOTS], foe[FAST_SLOTS], home_pos[FAST_SLOTS], origin[FAST_SLOTS];
	uint8_t status[FRAY_ADBG_MAX_UNITS];
	int8_t ustack[FRAY_ADBG_MAX_UNITS]; /* a unit's stack (in line) */
	uint8_t lm[FAST_SLOTS];            /* bit l: leader l, not lost, is with stack k */
	uint8_t llost;                     /* bit l: leader l is lost */
	uint32_t untidy;                   /* bit p: tidy has work at position p */
	/* the front stack at each position tidy has no work at, or -1 */
	int8_t front[FRAY_ADBG_MAX_STACKS];
} fast_side;

/* What a side brings that never changes, derived once. */
typedef struct fast_const {
	int nunits, nleaders;
	uint32_t units;                    /* bit i: unit i exists */
	int8_t rating[FRAY_ADBG_MAX_LEADERS];
	uint8_t best[1 << FRAY_ADBG_MAX_LEADERS]; /* the best rating among a leader mask's */
	int melee_cf[FRAY_ADBG_MAX_UNITS]; /* 19.2.3, with the terrain */
	int8_t melee[FRAY_ADBG_MAX_UNITS]; /* printed: the heuristic's loss order */
	uint8_t fire_faces[FRAY_ADBG_MAX_UNITS];
	uint32_t regular, warrior;         /* bit i: unit i's type */
	/* the move die's faces as a mask, by [leader][regular][non-warrior]
	 * [enemy atop][surprise winner, round 1] (frayi_adbg_move_faces) */
	uint8_t move[FAST_RATINGS][2][2][2][2];
	uint8_t recover[FAST_RATINGS];     /* by leader (frayi_adbg_recover_faces) */
	int melee_drm;                     /* attacking the other side */
} fast_const;

typedef struct adbg_fast {
	bool ok;                 /* the fast battle may run this scenario */
	int npos, initiative, surprised;
	int base_rounds;         /* the initiative's primary leader's rating */
	bool attempt;            /* the heuristic rolls for one more round */
	unsigned extra_faces;    /* its die's winning faces as a mask */
	fast_const c[2];
	fast_side start[2];      /* after the array and tidy */
} adbg_fast;

/* Plays the rest of a battle (its rounds' roll included) set up in f, on
 * rng, into res: fray_adbg_battle's result for a direct, untold battle. */
void frayi_adbg_fast_battle(const fray_adbg_scenario *sc, const adbg_fast *f, fray_rng *rng,
			    fray_adbg_result *res);

#endif
