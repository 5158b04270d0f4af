/* The sampling fast path (src/core/fast_dice.h, issue #33 item 4): a d6
 * read in line from the roller's stream must be the die of the generic
 * roller, face for face, and leave the stream where the generic one does;
 * so must the rejection of Lemire's method, which random seeds reach once
 * in a billion words: it is driven here by words chosen to be rejected. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "../test_util.h"
#include <fray/fray.h>
#include "../../src/core/fast_dice.h"

/* Over many seeds and streams, 300 dice each: fray_die on one roller, the
 * fast path on another of the same stream, then both positions. */
static void fast_d6_is_the_generic_die(void **state)
{
	(void)state;
	for (uint64_t seed = 1; seed <= 200; seed++)
		for (uint64_t stream = 0; stream < 5; stream++) {
			fray_roller *generic = fray_roller_sample_new(ctx, seed, stream);
			fray_roller *fast = fray_roller_sample_new(ctx, seed, stream);
			assert_non_null(generic);
			assert_non_null(fast);
			fray_rng *rng = frayi_roller_fast_rng(fast);
			assert_non_null(rng);
			for (int i = 0; i < 300; i++) {
				int face = fray_die(generic, 6, "die");
				assert_int_equal(1 + (int)frayi_d6(rng), face);
				/* a face mask: faces 1..3 */
				assert_int_equal(frayi_d6_in(rng, 7u), fray_die(generic, 6, "die") <= 3);
			}
			assert_int_equal(fray_roller_tell(fast), fray_roller_tell(generic));
			/* and the generic roller goes on where the fast path left it */
			assert_int_equal(fray_die(fast, 6, "die"), fray_die(generic, 6, "die"));
			fray_roller_free(generic);
			fray_roller_free(fast);
		}
}

/* Words whose product by 6 has a low word below 2^32 mod 6 = 4 are
 * rejected: 0, 2^31 (6 * 2^31 = 3 * 2^32) and 0x2AAAAAAB (low word 2);
 * 0x2AAAAAAC (low word 8) is kept. fray_rng_below is the reference. */
static void rejected_words_are_rejected_alike(void **state)
{
	(void)state;
	static const uint32_t words[][4] = {
		{0, 0x80000000u, 0x2AAAAAABu, 0x2AAAAAACu},
		{0x2AAAAAABu, 0xFFFFFFFFu, 0, 0},
		{0, 0, 0, 0}, /* all four rejected: the next block is read */
		{0x80000000u, 0x12345678u, 0, 0x2AAAAAABu},
	};
	for (size_t w = 0; w < sizeof words / sizeof words[0]; w++) {
		fray_rng a;
		fray_rng_init(&a, 42, 7);
		fray_rng_next32(&a); /* a block made, its words replaced below */
		for (int i = 0; i < 4; i++)
			a.buf[i] = words[w][i];
		a.used = 0;
		fray_rng b = a;
		for (int i = 0; i < 3; i++) {
			assert_int_equal(frayi_d6(&b), fray_rng_below(&a, 6));
			assert_int_equal(fray_rng_tell(&b), fray_rng_tell(&a));
		}
	}
}

static void ignore(void *ud, const fray_event *ev)
{
	(void)ud, (void)ev;
}

/* The fast path is only for plain sampling: not once narrated. */
static void no_fast_path_when_told(void **state)
{
	(void)state;
	fray_roller *r = fray_roller_sample_new(ctx, 1, 0);
	assert_non_null(r);
	assert_non_null(frayi_roller_fast_rng(r));
	fray_roller_set_sink(r, ignore, NULL);
	assert_null(frayi_roller_fast_rng(r));
	fray_roller_set_sink(r, NULL, NULL);
	fray_roller_fail(r, FRAY_ERR_POLICY, "stopped");
	assert_null(frayi_roller_fast_rng(r));
	fray_roller_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fast_d6_is_the_generic_die),
		cmocka_unit_test(rejected_words_are_rejected_alike),
		cmocka_unit_test(no_fast_path_when_told),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
