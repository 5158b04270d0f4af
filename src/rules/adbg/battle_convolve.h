/* Private: exact odds of an ADBG battle whose positions go on
 * independently, each walked once per its own state and the results
 * convolved (issue 45 item 1, third pass; the argument from the rules is
 * in battle.c, "independent positions"). This file holds what does not
 * know a battle: the cache of the positions' distributions for the whole
 * walk, and their convolution over the counts the end reads. */
#ifndef FRAY_ADBG_BATTLE_CONVOLVE_H
#define FRAY_ADBG_BATTLE_CONVOLVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <fray/roller.h>
#include "../../core/xq.h"

/* A position's walk gives these fields: FLAGS (below), then each side's
 * units of the position standing and eliminated at the end (19.3, their
 * routed units' fate rolled). */
enum { ADBG_CONV_FLAGS, ADBG_CONV_STAND0, ADBG_CONV_LOST0, ADBG_CONV_STAND1, ADBG_CONV_LOST1,
       ADBG_CONV_FIELDS };
/* The combination's fields: the last four of a position's, summed. */
enum { ADBG_JOINT_FIELDS = ADBG_CONV_FIELDS - 1 };
/* A path's FLAGS, for round r (1-7) and side s: whether the position was
 * open to s (the enemy in line there and s not, so that a reserve of s
 * elsewhere would move in, 19.2.2 b) as s's movement phase reached it
 * (OPEN_BEFORE: seen by a reserve at a later position, moved before it)
 * or after s's moves there (OPEN_AFTER: seen by a reserve at an earlier
 * position, 19.2.2: the initiative's moves first, a position after
 * another, then the other side's), and whether s had a reserve there (a
 * stack behind the front row with an undisrupted unit). The positions are
 * independent unless one may hold a reserve of s in a round where another
 * may be open to it as its phase reaches the reserve. */
enum { ADBG_CONV_OPEN_BEFORE, ADBG_CONV_OPEN_AFTER, ADBG_CONV_RESERVE, ADBG_CONV_AVAIL };
#define ADBG_CONV_FLAG(r, s, kind) ((uint64_t)1 << (8 * (r) + 4 * (s) + (kind)))
#define ADBG_CONV_EVERY(kind) ((uint64_t)0x1111111111111111 << (kind))
/* AVAIL (issue 45 item 1, fifth pass): a stack of s at the position
 * reached the heuristic's search for an open position as s's phase
 * reached it (direct_move: a reserve with an undisrupted unit, nothing
 * atop it, not at the front); TWICE(s): two did in one round. */
#define ADBG_CONV_TWICE(s) ADBG_CONV_FLAG(0, s, ADBG_CONV_AVAIL)
/* A position's walk with events (a reserve leaving it, battle.c's "plans")
 * gives one more field for each departure, in their order: the units
 * that left (bits 0-31) and their leaders (bits 32-39), 0 when the move's
 * roll failed. */
enum { ADBG_CONV_MAX_DEP = 8 };

typedef struct adbg_conv adbg_conv;

/* The walk's cache (made on first need, freed when the walk ends); NULL
 * when r does not enumerate by stages, or out of memory. */
adbg_conv *frayi_adbg_conv(fray_roller *r);

/* The distribution of the position whose state is key (len bytes), NULL
 * when not walked yet. */
const fray_dist *frayi_adbg_conv_part(adbg_conv *c, const uint8_t *key, size_t len);
/* Keeps d (taken, freed with the cache) as key's; false when out of
 * memory (d is freed). */
bool frayi_adbg_conv_keep(adbg_conv *c, const uint8_t *key, size_t len, fray_dist *d);

/* The combination of a battle's positions, kept for the last battle
 * asked (its paths are walked one after another, each asking again). */
typedef struct adbg_joint {
	bool refused;        /* a reserve may reach another position */
	size_t n;            /* outcomes */
	const int64_t *keys; /* n * ADBG_JOINT_FIELDS */
	const frayi_xq *x;   /* n probabilities, summing to 1 */
} adbg_joint;

/* The most positions convolved at once. */
#define FRAY_ADBG_CONV_MAX_PARTS 256

/* Whether a reserve at one of the n positions (parts[i] position i's
 * distribution) may reach another (FLAGS): the positions are then not
 * independent. Pairwise, so that a battle's positions may be refused
 * before all are walked (the positions walked so far, in order: a
 * refusal among them is the battle's). */
bool frayi_adbg_conv_refused(const fray_dist *const *parts, int n);

/* The combination last made for the battle whose state is key, or NULL. */
const adbg_joint *frayi_adbg_conv_last(adbg_conv *c, const uint8_t *key, size_t len);
/* Convolves the n positions' distributions (each over ADBG_CONV_FIELDS)
 * as the battle key's (parts[i] is position i's): refused when a reserve
 * may move between them (FLAGS). NULL when
 * out of memory. Valid until the next call. */
const adbg_joint *frayi_adbg_conv_join(adbg_conv *c, const uint8_t *key, size_t len,
				       const fray_dist *const *parts, int n);

/* ---- plans (battle.c, "a reserve's move as an event") ---- */

/* What a plan asks of one position's walk: (FLAGS & mask) == value, and
 * its first ndep departures' fields equal to dep[]. */
typedef struct adbg_pred {
	uint64_t mask, value;
	int ndep;
	int64_t dep[ADBG_CONV_MAX_DEP];
} adbg_pred;

/* The FLAGS of d's outcomes that pr holds for, or'ed; *any: there is one. */
uint64_t frayi_adbg_conv_may(const fray_dist *d, const adbg_pred *pr, bool *any);
/* The distinct values of departure field dep (0-based) among d's outcomes
 * that pr holds for and that have FLAGS bit need: into vals (at most cap;
 * the count, cap + 1 when there are more). */
size_t frayi_adbg_conv_deps(const fray_dist *d, const adbg_pred *pr, uint64_t need, int dep, int64_t *vals,
			    size_t cap);
/* Whether a reserve of side s may reach the search at one position in a
 * round where another may be open to s then (the pairwise test of
 * frayi_adbg_conv_refused, by AVAIL), among the outcomes preds[i] holds
 * for at each position. */
bool frayi_adbg_plan_refused(const fray_dist *const *parts, const adbg_pred *preds, int n, int s);
/* A battle's plans: begin empties the combination, add convolves the n
 * positions' outcomes each pred holds for (their product: the plan's
 * chance and losses) into it, end keeps it as key's (the last
 * combination, as frayi_adbg_conv_join's), refused when asked or when its
 * mass is not exactly 1 (the plans must partition the battle). False /
 * NULL when out of memory. */
bool frayi_adbg_conv_plans_begin(adbg_conv *c);
bool frayi_adbg_conv_plan_add(adbg_conv *c, const fray_dist *const *parts, const adbg_pred *preds, int n);
/* The products the plans' convolutions took since begin, or in the whole
 * walk (walk): a bound on their work, counted, never timed. */
uint64_t frayi_adbg_conv_plan_work(const adbg_conv *c, bool walk);
const adbg_joint *frayi_adbg_conv_plans_end(adbg_conv *c, const uint8_t *key, size_t len, bool refused);

/* For tests (test_adbg_exact_merge): what the plans did in this thread
 * since it began: battles answered by plans, battles refused to them,
 * complete plans where a reserve arrives at another position, and those
 * where one that arrived tries to move on in a later round (a chain).
 * battle.c. */
typedef struct frayi_adbg_plan_counts {
	uint64_t battles, refused, moves, chains;
} frayi_adbg_plan_counts;
void frayi_adbg_plan_counts_get(frayi_adbg_plan_counts *out);

#endif
