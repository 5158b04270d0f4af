/* Counter-based random numbers: Philox4x32-10 (Salmon, Moraes, Dror, Shaw,
 * "Parallel random numbers: as easy as 1, 2, 3", SC11), as in Random123.
 * A stream is named by (seed, stream index): key = seed, counter = (block
 * number, stream index). Streams never overlap, so trial i of a simulation
 * draws the same numbers whatever thread runs it, on every machine. */
#ifndef FRAY_RNG_H
#define FRAY_RNG_H

#include <stdint.h>

/* The Philox4x32-10 block function: out = philox(ctr, key). */
void fray_philox4x32_10(const uint32_t ctr[4], const uint32_t key[2],
			uint32_t out[4]);

/* A stream position. A plain value: copy it, keep it on the stack; its
 * fields are private. */
typedef struct fray_rng {
	uint32_t key[2];
	uint32_t ctr[4];
	uint32_t buf[4];
	unsigned used; /* words of buf already handed out */
} fray_rng;

/* Positions rng at the start of stream `stream` of `seed`. Block b of the
 * stream is philox({b lo, b hi, stream lo, stream hi}, {seed lo, seed hi}),
 * its four words handed out in order. */
void fray_rng_init(fray_rng *rng, uint64_t seed, uint64_t stream);

/* The next 32-bit word of the stream. */
uint32_t fray_rng_next32(fray_rng *rng);

/* The stream position in 32-bit words handed out, and back to it. */
uint64_t fray_rng_tell(const fray_rng *rng);
void fray_rng_seek(fray_rng *rng, uint64_t words);

/* A uniform integer in [0, n), n >= 1, by Lemire's multiply-and-reject
 * method (never `% n`, so no bias). */
uint32_t fray_rng_below(fray_rng *rng, uint32_t n);

#endif
