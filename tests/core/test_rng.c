/* RNG: Philox4x32-10 against Random123's published known-answer vectors,
 * and the stream layout and die sampling built on that block function. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "../test_util.h"
#include <fray/fray.h>

/* Random123 tests/kat_vectors, "philox4x32 10" lines: ctr, key -> out. */
static const struct {
	uint32_t ctr[4], key[2], out[4];
} kat[] = {
	{{0, 0, 0, 0}, {0, 0},
	 {0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}},
	{{0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff}, {0xffffffff, 0xffffffff},
	 {0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}},
	{{0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344}, {0xa4093822, 0x299f31d0},
	 {0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}},
};

static void philox_known_answers(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof kat / sizeof kat[0]; i++) {
		uint32_t out[4];
		fray_philox4x32_10(kat[i].ctr, kat[i].key, out);
		for (int w = 0; w < 4; w++)
			assert_int_equal(out[w], kat[i].out[w]);
	}
}

/* Seed 0, stream 0 starts with block 0 under key 0: the first KAT line. */
static void stream_zero_is_the_zero_vector(void **state)
{
	(void)state;
	fray_rng rng;
	fray_rng_init(&rng, 0, 0);
	for (int w = 0; w < 4; w++)
		assert_int_equal(fray_rng_next32(&rng), kat[0].out[w]);
}

/* Block b of stream s of seed k is philox({b lo, b hi, s lo, s hi}, k). */
static void stream_layout(void **state)
{
	(void)state;
	const uint64_t seed = 0x299f31d0a4093822u, stream = 0x0370734413198a2eu;
	fray_rng rng;
	fray_rng_init(&rng, seed, stream);
	for (uint32_t b = 0; b < 3; b++) {
		uint32_t ctr[4] = {b, 0, 0x13198a2e, 0x03707344};
		uint32_t key[2] = {0xa4093822, 0x299f31d0}, out[4];
		fray_philox4x32_10(ctr, key, out);
		for (int w = 0; w < 4; w++)
			assert_int_equal(fray_rng_next32(&rng), out[w]);
	}
}

/* Lemire's method as the paper states it, from raw words of the stream:
 * pins the die sequence of seed 42 so it cannot change silently. */
static void dice_follow_lemire(void **state)
{
	(void)state;
	fray_rng words, dice;
	fray_rng_init(&words, 42, 0);
	fray_rng_init(&dice, 42, 0);
	for (int i = 0; i < 1000; i++) {
		uint32_t n = (uint32_t)(i % 29) + 2;
		uint64_t m;
		uint32_t threshold = (uint32_t)(0x100000000u % n);
		do
			m = (uint64_t)fray_rng_next32(&words) * n;
		while ((uint32_t)m < threshold);
		assert_int_equal(fray_rng_below(&dice, n), (uint32_t)(m >> 32));
	}
}

/* Uniformity of a d6 over 600000 draws: each face within 5 sigma. */
static void d6_is_uniform(void **state)
{
	(void)state;
	fray_rng rng;
	fray_rng_init(&rng, 7, 3);
	long count[6] = {0};
	const long n = 600000;
	for (long i = 0; i < n; i++)
		count[fray_rng_below(&rng, 6)]++;
	/* sd of a face count: sqrt(n * 1/6 * 5/6) = 288.7 */
	for (int f = 0; f < 6; f++)
		assert_in_range(count[f], 100000 - 5 * 289, 100000 + 5 * 289);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(philox_known_answers),
		cmocka_unit_test(stream_zero_is_the_zero_vector),
		cmocka_unit_test(stream_layout),
		cmocka_unit_test(dice_follow_lemire),
		cmocka_unit_test(d6_is_uniform),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
