/* Private: the sampling fast path (issue #33 item 4). A simulated battle
 * rolls some thirty d6 a battle; through fray_roll_at_most, fray_rng_below
 * and fray_rng_next32 each cost about 180 instructions, most of them calls.
 * Here the roller hands its stream to rules code that samples plainly
 * (nobody told, nothing enumerated) and a face is read in line from the
 * buffered Philox block: the same words in the same order, rejected the
 * same way as fray_rng_below(rng, 6), so the very same battles. The
 * generic primitives stay the one way for enumeration and narration. */
#ifndef FRAY_FAST_DICE_H
#define FRAY_FAST_DICE_H

#include <stdbool.h>
#include <stdint.h>
#include <fray/rng.h>
#include <fray/roller.h>

/* Makes the next Philox block and moves the counter on (rng.c). */
void frayi_rng_refill(fray_rng *rng);

/* The roller's stream when a die may be read straight from it: a sampling
 * roller with no event sink that has not stopped; NULL otherwise (rolls
 * must then go through the primitives of roller.h). Valid while the
 * roller is not stopped or told: a caller asks once per run, before its
 * first roll, and reads no faces after a policy could have stopped it. */
fray_rng *frayi_roller_fast_rng(fray_roller *r);

/* True when the roller enumerates with states merged (fray_checkpoint may
 * end a run there): a procedure may then roll its dice in another order
 * whose states merge more, its odds the same (enumerate.c). Sampling and
 * narrating rollers keep the order of the rules. */
bool frayi_roller_staging(const fray_roller *r);

/* The next word of the stream: fray_rng_next32, in line. */
static inline uint32_t frayi_rng_next32(fray_rng *rng)
{
	if (rng->used == 4)
		frayi_rng_refill(rng);
	return rng->buf[rng->used++];
}

/* fray_rng_below, in line: Lemire, "Fast random integer generation in an
 * interval" (2019): a uniform integer in [0, n), n >= 1. */
static inline uint32_t frayi_rng_below(fray_rng *rng, uint32_t n)
{
	uint64_t m = (uint64_t)frayi_rng_next32(rng) * n;
	uint32_t low = (uint32_t)m;
	if (low < n) {
		uint32_t threshold = (uint32_t)(-n) % n;
		while (low < threshold) {
			m = (uint64_t)frayi_rng_next32(rng) * n;
			low = (uint32_t)m;
		}
	}
	return (uint32_t)(m >> 32);
}

/* A d6's face less one, 0..5: fray_rng_below(rng, 6) in line. Lemire's
 * method rejects a product whose low word is below 2^32 mod 6 = 4. */
static inline unsigned frayi_d6(fray_rng *rng)
{
	uint64_t m = (uint64_t)frayi_rng_next32(rng) * 6;
	while ((uint32_t)m < 4)
		m = (uint64_t)frayi_rng_next32(rng) * 6;
	return (unsigned)(m >> 32);
}

/* A d6 read through a face mask: true when bit (face - 1) is set. */
static inline bool frayi_d6_in(fray_rng *rng, unsigned faces)
{
	return faces >> frayi_d6(rng) & 1u;
}

#endif
