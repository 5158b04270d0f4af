/* Philox4x32-10 (Random123) and the stream built on it; see rng.h. */
#include "internal.h"
#include "fast_dice.h"

#define PHILOX_M0 0xD2511F53u
#define PHILOX_M1 0xCD9E8D57u
#define PHILOX_W0 0x9E3779B9u
#define PHILOX_W1 0xBB67AE85u

static inline void mulhilo(uint32_t a, uint32_t b, uint32_t *hi, uint32_t *lo)
{
	uint64_t p = (uint64_t)a * b;
	*hi = (uint32_t)(p >> 32);
	*lo = (uint32_t)p;
}

FRAY_API void fray_philox4x32_10(const uint32_t ctr[4], const uint32_t key[2],
				 uint32_t out[4])
{
	uint32_t c0 = ctr[0], c1 = ctr[1], c2 = ctr[2], c3 = ctr[3];
	uint32_t k0 = key[0], k1 = key[1];
	for (int round = 0; round < 10; round++) {
		uint32_t hi0, lo0, hi1, lo1;
		mulhilo(PHILOX_M0, c0, &hi0, &lo0);
		mulhilo(PHILOX_M1, c2, &hi1, &lo1);
		c0 = hi1 ^ c1 ^ k0;
		c1 = lo1;
		c2 = hi0 ^ c3 ^ k1;
		c3 = lo0;
		k0 += PHILOX_W0;
		k1 += PHILOX_W1;
	}
	out[0] = c0;
	out[1] = c1;
	out[2] = c2;
	out[3] = c3;
}

FRAY_API void fray_rng_init(fray_rng *rng, uint64_t seed, uint64_t stream)
{
	rng->key[0] = (uint32_t)seed;
	rng->key[1] = (uint32_t)(seed >> 32);
	rng->ctr[0] = 0;
	rng->ctr[1] = 0;
	rng->ctr[2] = (uint32_t)stream;
	rng->ctr[3] = (uint32_t)(stream >> 32);
	rng->used = 4; /* nothing buffered: the first call makes block 0 */
}

void frayi_rng_refill(fray_rng *rng)
{
	fray_philox4x32_10(rng->ctr, rng->key, rng->buf);
	/* next block number: a 64-bit counter in ctr[0..1] */
	if (++rng->ctr[0] == 0)
		rng->ctr[1]++;
	rng->used = 0;
}

FRAY_API uint32_t fray_rng_next32(fray_rng *rng)
{
	return frayi_rng_next32(rng);
}

FRAY_API uint64_t fray_rng_tell(const fray_rng *rng)
{
	uint64_t next_block = (uint64_t)rng->ctr[1] << 32 | rng->ctr[0];
	if (rng->used == 4)
		return next_block * 4;
	return (next_block - 1) * 4 + rng->used;
}

FRAY_API void fray_rng_seek(fray_rng *rng, uint64_t words)
{
	uint64_t block = words / 4;
	rng->ctr[0] = (uint32_t)block;
	rng->ctr[1] = (uint32_t)(block >> 32);
	rng->used = 4;
	if (words % 4) {
		fray_rng_next32(rng); /* makes the block, moves the counter on */
		rng->used = (unsigned)(words % 4);
	}
}

FRAY_API uint32_t fray_rng_below(fray_rng *rng, uint32_t n)
{
	return frayi_rng_below(rng, n);
}
