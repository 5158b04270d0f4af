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
/* A path's FLAGS: in round r (1-7), the position was open to side s (the
 * enemy in line there and s not: a reserve of s elsewhere may move in,
 * 19.2.2 b) at some point of s's movement phase, or s had a reserve there
 * (a stack behind the front row with an undisrupted unit, which moves to
 * an open position). The positions are independent unless one may be open
 * to s in a round where another may hold a reserve of s. */
#define ADBG_CONV_OPEN(r, s) ((int64_t)1 << (4 * (r) + 2 * (s)))
#define ADBG_CONV_RESERVE(r, s) (ADBG_CONV_OPEN(r, s) << 1)
#define ADBG_CONV_OPEN_ALL ((int64_t)0x5555555555555555)

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

/* The combination last made for the battle whose state is key, or NULL. */
const adbg_joint *frayi_adbg_conv_last(adbg_conv *c, const uint8_t *key, size_t len);
/* Convolves the n positions' distributions (each over ADBG_CONV_FIELDS)
 * as the battle key's: refused when one may be open to a side (FLAGS) in
 * a round where another may hold a reserve of that side. NULL when
 * out of memory. Valid until the next call. */
const adbg_joint *frayi_adbg_conv_join(adbg_conv *c, const uint8_t *key, size_t len,
				       const fray_dist *const *parts, int n);

#endif
