/* Private: the quick battle's sampling fast path held small (issue 45
 * item 2). A battle taking the heuristic's suggestions unasked (direct),
 * untold, sampling plainly (fast_dice.h) and with 1d6/2d6 checks runs in
 * battle_fast.c on the state below: a side as masks (stacks alive, atop,
 * moved, at each position; units undisrupted, routed), a stack's place as
 * a few bytes, copied per battle from the set-up battle.c makes once per
 * scenario (its fast_make). The same rules as battle.c's direct path, step
 * for step, reading the same dice in the same order: the same battles.
 * Narration, exact odds and asked policies never come here.
 *
 * A deliberate exception to "a rule lives in one place" (STYLE.md): the
 * heuristic's direct path of 19.2 is written twice, here on masks for a
 * million battles a second (issue 45 item 2) and in battle.c for every
 * other mode. The rules of thumb both read are shared below (frayi_adbg_*),
 * and test_adbg_battle.c's unasked_choices_are_the_asked_ones holds the
 * two to the same battles seed for seed: a rule changed in one place and
 * not the other fails it. */
#ifndef FRAY_ADBG_BATTLE_FAST_H
#define FRAY_ADBG_BATTLE_FAST_H

#include <stdbool.h>
#include <stdint.h>
#include "scenario.h"

/* Forced in line: the few steps a simulated battle calls hundreds of
 * times (fire, a stack's move, recovery, a unit's change), each from a
 * couple of places; GCC -O3 would call them, and the calls and their
 * prologues were some 8% of a battle (issue 45 item 2). */
#if defined(__GNUC__) || defined(__clang__)
#define IN_LINE inline __attribute__((always_inline))
#else
#define IN_LINE inline
#endif

#define FAST_SLOTS (2 * FRAY_ADBG_MAX_STACKS) /* battle.c's MAX_STACKS */
#define FAST_RATINGS 4                         /* leader ratings 0 (none) .. 3 */

/* What changes in a battle, for one side: first what is copied whole
 * for each battle, then the arrays by slot and by unit, of which a battle
 * of few slots and units copies the first FAST_FEW (start_side). */
typedef struct fast_side {
	uint32_t used, alive, atop, moved; /* bit k: of slot k */
	uint32_t normal, routed;           /* bit i: unit i undisrupted, routed */
	uint32_t out, removed;             /* bit i: unit i out of line, removed */
	uint32_t untidy;                   /* bit p: tidy has work at position p */
	uint32_t attacking;                /* bit j: a stack atop the enemy's slot j */
	uint32_t posm[FRAY_ADBG_MAX_STACKS]; /* bit k: slot k's position is p */
	int8_t pos[FAST_SLOTS];            /* whole: a new slot's bit leaves posm[pos] */
	/* the front stack at each position tidy has no work at, or -1 */
	int8_t front[FRAY_ADBG_MAX_STACKS];
	uint8_t llost;                     /* bit l: leader l is lost */
	uint32_t in_stack[FAST_SLOTS];     /* bit i: unit i is in line in stack k */
	int16_t row[FAST_SLOTS], home_row[FAST_SLOTS];
	int8_t foe[FAST_SLOTS], home_pos[FAST_SLOTS], origin[FAST_SLOTS];
	uint8_t lm[FAST_SLOTS];            /* bit l: leader l, not lost, is with stack k */
	uint8_t status[FRAY_ADBG_MAX_UNITS];
	int8_t ustack[FRAY_ADBG_MAX_UNITS]; /* a unit's stack (in line) */
} fast_side;

/* A battle whose sides start with slots and units below FAST_FEW only
 * (the examples') copies only those of the slot and unit arrays: a slot
 * a split takes later is written whole before it is read (move_stack). */
#define FAST_FEW 8

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
	/* the melee CF of each mask of units 0..7 (frayi_adbg_fast_finish) */
	uint16_t cf_low[256];
} fast_const;

typedef struct adbg_fast {
	bool ok;                 /* the fast battle may run this scenario */
	int npos, initiative, surprised;
	int base_rounds;         /* the initiative's primary leader's rating */
	bool attempt;            /* the heuristic rolls for one more round */
	bool few;                /* start_side copies FAST_FEW slots and units */
	unsigned extra_faces;    /* its die's winning faces as a mask */
	fast_const c[2];
	fast_side start[2];      /* after the array and tidy */
} adbg_fast;

/* The heuristic's rules of thumb, one place for battle.c and
 * battle_fast.c: avoid a melee against twice one's melee CF; attack with
 * twice the enemy's, or an enemy all routed (active 0); give up the
 * weakest unit, a disrupted one first (ruling R8). */
static inline bool frayi_adbg_avoids(int64_t theirs, int64_t mine)
{
	return theirs >= 2 * mine;
}

static inline bool frayi_adbg_attacks(int64_t mine, int64_t theirs, int active)
{
	return mine >= 2 * theirs || active == 0;
}

static inline bool frayi_adbg_gives_up_before(int status, int melee, int other_status, int other_melee)
{
	return status > other_status || (status == other_status && melee < other_melee);
}

/* The heuristic's fire target taken unasked, from the masks (19.2.1):
 * rows[t] the units of the enemy's row t, targeted those a firer of this
 * position has chosen; routed and normal the enemy's unit masks. The
 * legal rows go up to the first holding an untargeted unit (every row
 * when none does); the highest score is an untargeted unit's when there
 * is one, and among those the most hurt; the first such in the options'
 * order, row by row, each row's lowest unit first. -1: no unit. */
static IN_LINE int frayi_adbg_direct_target(uint32_t routed, uint32_t normal, const uint32_t *rows, int nt,
					    uint32_t targeted)
{
	uint32_t avail = 0, pool = 0;
	int nrows = nt;
	if (nt == 1) { /* one row (most often): its untargeted units if any */
		pool = rows[0] & ~targeted ? rows[0] & ~targeted : rows[0];
		return pool ? __builtin_ctz(pool & routed ? pool & routed : pool & ~normal ? pool & ~normal : pool)
			    : -1;
	}
	for (int t = 0; t < nt; t++) {
		avail |= rows[t];
		if (rows[t] & ~targeted) {
			nrows = t + 1;
			pool = avail & ~targeted;
			break;
		}
	}
	if (!pool)
		pool = avail;
	if (!pool)
		return -1;
	uint32_t hurt = pool & routed ? pool & routed : pool & ~normal ? pool & ~normal : pool;
	for (int t = 0; t < nrows; t++)
		if (rows[t] & hurt)
			return __builtin_ctz(rows[t] & hurt);
	return -1; /* not reached: the units wanted are within the first nrows rows */
}

/* end_battle's tally (19.3, G3) from the counts by status: each side's
 * losses, then the winner. */
static inline void frayi_adbg_tally(const fray_adbg_scenario *sc, fray_adbg_result *res)
{
	/* a removed unit that survived its roll is not a loss (R30) */
	for (int s = 0; s < 2; s++)
		res->side[s].losses = res->side[s].count[FRAY_ADBG_ELIMINATED];
	int score[2];
	for (int s = 0; s < 2; s++)
		score[s] = sc->victory == ADBG_VICTORY_LOSSES
				   ? res->side[1 - s].losses - res->side[s].losses
				   : res->side[s].count[FRAY_ADBG_NORMAL] +
					     res->side[s].count[FRAY_ADBG_DISRUPTED] -
					     res->side[1 - s].count[FRAY_ADBG_NORMAL] -
					     res->side[1 - s].count[FRAY_ADBG_DISRUPTED];
	res->winner = score[0] > 0 ? 0 : score[1] > 0 ? 1 : -1;
}

/* Derives, once per scenario, what battle.c's fast_make leaves to this
 * file (the melee CF by mask); clears f->ok for a side the fast battle
 * cannot hold. Called at the end of fast_make. */
void frayi_adbg_fast_finish(adbg_fast *f);

/* Plays the rest of a battle (its rounds' roll included) set up in f, on
 * rng, into res: fray_adbg_battle's result for a direct, untold battle. */
void frayi_adbg_fast_battle(const fray_adbg_scenario *sc, const adbg_fast *f, fray_rng *rng,
			    fray_adbg_result *res);

#endif
