/* The exact odds engine of issue #16: deals as one event (against a count
 * of every subset of labelled items), deals read kind by kind, state
 * merging (against a binomial, and within a path budget that a walk of
 * every path could not meet) in stage order, the scratch kept per state,
 * dice read through a table or as a check (against their faces counted),
 * and 128-bit fractions against GMP. */
#include <gmp.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "../test_util.h"
#include "../../src/core/xq.h"
#include <fray/fray.h>

/* A pool of 4 kinds: 3, 2, 4 and 1 items. */
static const unsigned pool[4] = {3, 2, 4, 1};
enum { NKINDS = 4, NITEMS = 10, DEALT = 4 };

/* Outcome i's exact chance is num / den (reduced here by GMP, compared as
 * text in full). */
static void assert_exact(const fray_dist *d, size_t i, mpz_srcptr num, mpz_srcptr den)
{
	mpq_t want;
	mpq_init(want);
	mpq_set_num(want, num);
	mpq_set_den(want, den);
	mpq_canonicalize(want);
	char *expect = mpq_get_str(NULL, 10, want);
	char got[256];
	assert_true(fray_dist_p_exact(d, i, got, sizeof got) < sizeof got);
	assert_string_equal(got, expect);
	free(expect);
	mpq_clear(want);
}

static void deal_all(fray_roller *r, fray_policy *p, const void *in, int64_t *out)
{
	(void)p, (void)in;
	unsigned drawn[NKINDS];
	fray_deal(r, pool, NKINDS, DEALT, drawn, "item");
	for (int i = 0; i < NKINDS; i++)
		out[i] = drawn[i];
}

/* Every subset of DEALT of the NITEMS labelled items, equally likely:
 * how many subsets give each split, over C(10, 4) = 210. */
static unsigned subsets_giving(const int64_t *split)
{
	int kind_of[NITEMS], n = 0;
	for (int k = 0; k < NKINDS; k++)
		for (unsigned i = 0; i < pool[k]; i++)
			kind_of[n++] = k;
	unsigned ways = 0;
	for (unsigned mask = 0; mask < 1u << NITEMS; mask++) {
		if (__builtin_popcount(mask) != DEALT)
			continue;
		int64_t got[NKINDS] = {0};
		for (int i = 0; i < NITEMS; i++)
			if (mask >> i & 1)
				got[kind_of[i]]++;
		ways += memcmp(got, split, sizeof got) == 0;
	}
	return ways;
}

static void deal_matches_counting_subsets(void **state)
{
	(void)state;
	fray_dist *d;
	assert_int_equal(fray_enumerate(ctx, deal_all, NULL, NULL, NKINDS, NULL, &d), FRAY_OK);
	unsigned total = 0;
	for (size_t i = 0; i < fray_dist_count(d); i++) {
		unsigned ways = subsets_giving(fray_dist_outcome(d, i));
		assert_true(ways > 0);
		total += ways;
		mpz_t num, den;
		mpz_init_set_ui(num, ways);
		mpz_init_set_ui(den, 210);
		assert_exact(d, i, num, den);
		mpz_clears(num, den, NULL);
	}
	assert_int_equal(total, 210); /* every split that can happen is there */
	fray_dist_free(d);
}

/* Sampled, the deal is told chit by chit and its counts add up. */
static void count_draws(void *ud, const fray_event *ev)
{
	if (ev->kind == FRAY_EV_ROLL && ev->roll == FRAY_ROLL_DRAW)
		++*(int *)ud;
}

static void deal_sampled_tells_each_item(void **state)
{
	(void)state;
	fray_roller *r = fray_roller_sample_new(ctx, 7, 0);
	int told = 0;
	fray_roller_set_sink(r, count_draws, &told);
	for (int t = 0; t < 200; t++) {
		unsigned drawn[NKINDS];
		fray_deal(r, pool, NKINDS, DEALT, drawn, "item");
		unsigned sum = 0;
		for (int i = 0; i < NKINDS; i++) {
			assert_true(drawn[i] <= pool[i]);
			sum += drawn[i];
		}
		assert_int_equal(sum, DEALT);
	}
	assert_int_equal(told, 200 * DEALT);
	fray_roller_free(r);
}

/* Reading two kinds only: the joint law of the counts of kinds 0 and 2 is
 * the deal's, summed over the other kinds. */
static void deal_two_kinds(fray_roller *r, fray_policy *p, const void *in, int64_t *out)
{
	(void)p, (void)in;
	fray_dealt dealt;
	fray_deal_open(r, pool, NKINDS, DEALT, &dealt, "item");
	out[1] = fray_dealt_count(r, &dealt, 2); /* asked out of order on purpose */
	out[0] = fray_dealt_count(r, &dealt, 0);
}

static void dealt_count_is_the_deal_marginal(void **state)
{
	(void)state;
	fray_dist *d;
	assert_int_equal(fray_enumerate(ctx, deal_two_kinds, NULL, NULL, 2, NULL, &d), FRAY_OK);
	for (size_t i = 0; i < fray_dist_count(d); i++) {
		const int64_t *o = fray_dist_outcome(d, i);
		/* C(3, a) C(4, b) C(3, 4 - a - b) / C(10, 4): kinds 1 and 3 as one */
		unsigned a = (unsigned)o[0], b = (unsigned)o[1];
		assert_true(a + b <= DEALT);
		mpz_t w, t;
		mpz_inits(w, t, NULL);
		mpz_bin_uiui(w, 3, a);
		mpz_bin_uiui(t, 4, b);
		mpz_mul(w, w, t);
		mpz_bin_uiui(t, 3, DEALT - a - b);
		mpz_mul(w, w, t);
		mpz_set_ui(t, 210);
		assert_exact(d, i, w, t);
		mpz_clears(w, t, NULL);
	}
	fray_dist_free(d);
}

/* A deal between two other events, its pool chosen by a d3: faces 1 and
 * 2 deal from the same pool (the deal's node starts its splits over),
 * face 3 from another one (set up afresh); the d2 after the deal replays
 * the deal's split on its second branch. Each outcome's chance is 1/3 x
 * 1/2 x the subsets of 4 labelled items giving its split over C(10, 4). */
enum { MID_KINDS = 5 };
static const unsigned mid_pools[2][MID_KINDS] = {{3, 2, 4, 1, 0}, {2, 2, 2, 2, 2}};

static void deal_between_dice(fray_roller *r, fray_policy *p, const void *in, int64_t *out)
{
	(void)p, (void)in;
	int face = fray_die(r, 3, "d3");
	unsigned drawn[MID_KINDS];
	fray_deal(r, mid_pools[face == 3], MID_KINDS, DEALT, drawn, "item");
	out[0] = face;
	out[1] = fray_die(r, 2, "d2");
	for (int i = 0; i < MID_KINDS; i++)
		out[2 + i] = drawn[i];
}

/* The subsets of DEALT items of the pool giving this split. */
static unsigned subsets_of_pool(const unsigned *kinds, int nkinds, const int64_t *split)
{
	int kind_of[NITEMS], n = 0;
	for (int k = 0; k < nkinds; k++)
		for (unsigned i = 0; i < kinds[k]; i++)
			kind_of[n++] = k;
	assert_int_equal(n, NITEMS);
	unsigned ways = 0;
	for (unsigned mask = 0; mask < 1u << NITEMS; mask++) {
		if (__builtin_popcount(mask) != DEALT)
			continue;
		int64_t got[MID_KINDS] = {0};
		for (int i = 0; i < NITEMS; i++)
			if (mask >> i & 1)
				got[kind_of[i]]++;
		ways += memcmp(got, split, (size_t)nkinds * sizeof got[0]) == 0;
	}
	return ways;
}

static void deal_between_events_is_exact(void **state)
{
	(void)state;
	fray_dist *d;
	assert_int_equal(fray_enumerate(ctx, deal_between_dice, NULL, NULL, 2 + MID_KINDS, NULL, &d), FRAY_OK);
	unsigned total[4] = {0};
	for (size_t i = 0; i < fray_dist_count(d); i++) {
		const int64_t *o = fray_dist_outcome(d, i);
		unsigned ways = subsets_of_pool(mid_pools[o[0] == 3], MID_KINDS, o + 2);
		assert_true(ways > 0);
		total[o[0]] += ways;
		mpz_t num, den;
		mpz_init_set_ui(num, ways);
		mpz_init_set_ui(den, 3 * 2 * 210);
		assert_exact(d, i, num, den);
		mpz_clears(num, den, NULL);
	}
	for (int face = 1; face <= 3; face++)
		assert_int_equal(total[face], 2 * 210); /* every split, under both faces of the d2 */
	fray_dist_free(d);
}

/* Deals whose C(total, k) is past 64 bits (C(70, 35)) and past 128 bits
 * (C(180, 90)): every split's chance is prod C(counts[i], drawn[i]) over
 * C(total, k), here computed by GMP. */
typedef struct big_deal {
	unsigned counts[3], k;
} big_deal;

static void deal_three(fray_roller *r, fray_policy *p, const void *in, int64_t *out)
{
	(void)p;
	const big_deal *b = in;
	unsigned drawn[3];
	fray_deal(r, b->counts, 3, b->k, drawn, "item");
	for (int i = 0; i < 3; i++)
		out[i] = drawn[i];
}

static void check_big_deal(const big_deal *b, size_t splits)
{
	fray_dist *d;
	assert_int_equal(fray_enumerate(ctx, deal_three, NULL, b, 3, NULL, &d), FRAY_OK);
	assert_int_equal(fray_dist_count(d), splits);
	for (size_t i = 0; i < fray_dist_count(d); i++) {
		const int64_t *o = fray_dist_outcome(d, i);
		assert_int_equal(o[0] + o[1] + o[2], b->k);
		mpz_t w, t, den;
		mpz_inits(w, t, den, NULL);
		mpz_set_ui(w, 1);
		for (int c = 0; c < 3; c++) {
			mpz_bin_uiui(t, b->counts[c], (unsigned long)o[c]);
			mpz_mul(w, w, t);
		}
		mpz_bin_uiui(den, b->counts[0] + b->counts[1] + b->counts[2], b->k);
		assert_exact(d, i, w, den);
		mpz_clears(w, t, den, NULL);
	}
	fray_dist_free(d);
}

/* The splits of k among three categories of at most caps[i] each. */
static size_t count_splits(const unsigned *caps, unsigned k)
{
	size_t n = 0;
	for (unsigned a = 0; a <= caps[0] && a <= k; a++)
		for (unsigned b = 0; b <= caps[1] && a + b <= k; b++)
			n += k - a - b <= caps[2];
	return n;
}

static void big_deals_are_exact(void **state)
{
	(void)state;
	big_deal past64 = {{30, 20, 20}, 35}, past128 = {{60, 60, 60}, 90};
	check_big_deal(&past64, count_splits(past64.counts, past64.k));
	check_big_deal(&past128, count_splits(past128.counts, past128.k));
}

/* Forty stages, each a d6 that scores on 5+: with the state (stage, score)
 * checkpointed, the odds are binomial(40, 1/3), found within 6,000 paths
 * (6 faces from each of the 861 states); a walk of every path would need
 * 6^40. */
typedef struct race {
	int stage, score;
} race;

static void race_proc(fray_roller *r, fray_policy *p, const void *in, int64_t *out)
{
	(void)p, (void)in;
	race s;
	if (!fray_resume(r, &s, sizeof s))
		s = (race){0, 0};
	while (s.stage < 40) {
		s.score += fray_die(r, 6, "d6") >= 5;
		s.stage++;
		if (fray_checkpoint(r, (uint64_t)s.stage, &s, sizeof s))
			return;
	}
	out[0] = s.score;
}

static void merging_states_is_exact_and_small(void **state)
{
	(void)state;
	fray_enum_limits lim = {.max_paths = 6000};
	fray_dist *d;
	assert_int_equal(fray_enumerate(ctx, race_proc, NULL, NULL, 1, &lim, &d), FRAY_OK);
	assert_int_equal(fray_dist_count(d), 41);
	for (unsigned k = 0; k <= 40; k++) {
		mpz_t w, den;
		mpz_inits(w, den, NULL);
		mpz_bin_uiui(w, 40, k);
		mpz_mul_2exp(w, w, 40 - k); /* C(40,k) 1^k 2^(40-k) / 3^40 */
		mpz_ui_pow_ui(den, 3, 40);
		assert_int_equal(fray_dist_outcome(d, k)[0], (int64_t)k);
		assert_exact(d, k, w, den);
		mpz_clears(w, den, NULL);
	}
	char unresolved[16];
	fray_dist_unresolved_exact(d, unresolved, sizeof unresolved);
	assert_string_equal(unresolved, "0");
	fray_dist_free(d);
}

/* The same race over 60 stages of a d7 scoring on 6+: the states'
 * probabilities pass 128 bits (7^60 is about 2^168), so the stages' tables
 * keep GMP numbers (issue #33's compact entries hold them by address);
 * the odds are binomial(60, 2/7). */
static void long_race_proc(fray_roller *r, fray_policy *p, const void *in, int64_t *out)
{
	(void)p, (void)in;
	race s;
	if (!fray_resume(r, &s, sizeof s))
		s = (race){0, 0};
	while (s.stage < 60) {
		s.score += fray_die(r, 7, "d7") >= 6;
		s.stage++;
		if (fray_checkpoint(r, (uint64_t)s.stage, &s, sizeof s))
			return;
	}
	out[0] = s.score;
}

static void merged_states_past_128_bits_are_exact(void **state)
{
	(void)state;
	fray_dist *d;
	assert_int_equal(fray_enumerate(ctx, long_race_proc, NULL, NULL, 1, NULL, &d), FRAY_OK);
	assert_int_equal(fray_dist_count(d), 61);
	for (unsigned k = 0; k <= 60; k++) {
		mpz_t w, f, den;
		mpz_inits(w, f, den, NULL);
		mpz_bin_uiui(w, 60, k); /* C(60,k) 2^k 5^(60-k) / 7^60 */
		mpz_mul_2exp(w, w, k);
		mpz_ui_pow_ui(f, 5, 60 - k);
		mpz_mul(w, w, f);
		mpz_ui_pow_ui(den, 7, 60);
		assert_int_equal(fray_dist_outcome(d, k)[0], (int64_t)k);
		assert_exact(d, k, w, den);
		mpz_clears(w, f, den, NULL);
	}
	fray_dist_free(d);
}

/* A policy with memory (a script) cannot be merged on: the same
 * procedure is walked path by path, and the answer is the same. */
static void race_short(fray_roller *r, fray_policy *p, const void *in, int64_t *out)
{
	(void)in;
	race s;
	if (!fray_resume(r, &s, sizeof s))
		s = (race){0, 0};
	while (s.stage < 6) {
		s.score += fray_die(r, 6, "d6") >= 5;
		s.stage++;
		if (fray_checkpoint(r, (uint64_t)s.stage, &s, sizeof s))
			return;
	}
	const char *opts[] = {"keep"};
	fray_choice c = {.kind = "t", .prompt = "keep?", .noptions = 1, .options = opts};
	fray_decide(r, p, &c);
	out[0] = s.score;
}

static void stateful_policy_walks_every_path(void **state)
{
	(void)state;
	const char *answers[] = {"keep"};
	fray_policy *script = fray_policy_script_new(ctx, answers, 1);
	assert_non_null(script);
	fray_dist *merged, *walked;
	assert_int_equal(fray_enumerate(ctx, race_short, NULL, NULL, 1, NULL, &merged), FRAY_OK);
	fray_enum_limits lim = {.max_paths = 6 * 6 * 6 * 6 * 6 * 6 - 1};
	/* 6^6 paths, one too many for this budget: proof it walked them all */
	assert_int_equal(fray_enumerate(ctx, race_short, script, NULL, 1, &lim, &walked), FRAY_ERR_LIMIT);
	assert_int_equal(fray_enumerate(ctx, race_short, script, NULL, 1, NULL, &walked), FRAY_OK);
	assert_same_exact(merged, walked);
	fray_dist_free(merged);
	fray_dist_free(walked);
	fray_policy_free(script);
}

/* Stages that a path may skip: each stage a d6, a 5 scores, a 6 scores and
 * skips the next stage, up to stage 20. Walked in stage order, every
 * (stage, score) is run from once, once all the paths to it are in: the
 * odds are those of the recurrence below, computed here with GMP, within a
 * budget of 6 paths per (stage, score) that can be reached. */
enum { SKIP_END = 20 };

static void skipping_race(fray_roller *r, fray_policy *p, const void *in, int64_t *out)
{
	(void)p, (void)in;
	race s;
	if (!fray_resume(r, &s, sizeof s))
		s = (race){0, 0};
	while (s.stage < SKIP_END) {
		int face = fray_die(r, 6, "d6");
		s.score += face >= 5;
		s.stage += face == 6 ? 2 : 1;
		if (s.stage < SKIP_END && fray_checkpoint(r, (uint64_t)s.stage, &s, sizeof s))
			return;
	}
	out[0] = s.score;
}

static void skipped_stages_merge_in_stage_order(void **state)
{
	(void)state;
	/* q[t][k]: the chance of standing at stage t with score k; ended[k]:
	 * of ending with score k */
	mpq_t q[SKIP_END + 2][SKIP_END + 1], ended[SKIP_END + 1], sixth;
	mpq_init(sixth);
	mpq_set_ui(sixth, 1, 6);
	for (int t = 0; t < SKIP_END + 2; t++)
		for (int k = 0; k <= SKIP_END; k++)
			mpq_init(q[t][k]);
	for (int k = 0; k <= SKIP_END; k++)
		mpq_init(ended[k]);
	mpq_set_ui(q[0][0], 1, 1);
	uint64_t states = 0;
	mpq_t w;
	mpq_init(w);
	for (int t = 0; t < SKIP_END; t++)
		for (int k = 0; k <= t; k++) {
			if (mpq_sgn(q[t][k]) == 0)
				continue;
			states++;
			/* faces 1-4: stage + 1; 5: score, stage + 1; 6: score, stage + 2 */
			int to[3] = {t + 1, t + 1, t + 2}, gain[3] = {0, 1, 1};
			unsigned faces[3] = {4, 1, 1};
			for (int b = 0; b < 3; b++) {
				mpq_set_ui(w, faces[b], 1);
				mpq_mul(w, w, sixth);
				mpq_mul(w, w, q[t][k]);
				mpq_ptr dst = to[b] >= SKIP_END ? ended[k + gain[b]] : q[to[b]][k + gain[b]];
				mpq_add(dst, dst, w);
			}
		}
	fray_enum_limits lim = {.max_paths = 6 * states};
	fray_dist *d;
	assert_int_equal(fray_enumerate(ctx, skipping_race, NULL, NULL, 1, &lim, &d), FRAY_OK);
	size_t seen = 0;
	for (int k = 0; k <= SKIP_END; k++) {
		if (mpq_sgn(ended[k]) == 0)
			continue;
		assert_true(seen < fray_dist_count(d));
		assert_int_equal(fray_dist_outcome(d, seen)[0], k);
		assert_exact(d, seen, mpq_numref(ended[k]), mpq_denref(ended[k]));
		seen++;
	}
	assert_int_equal(seen, fray_dist_count(d));
	fray_dist_free(d);
	mpq_clear(w);
	mpq_clear(sixth);
	for (int t = 0; t < SKIP_END + 2; t++)
		for (int k = 0; k <= SKIP_END; k++)
			mpq_clear(q[t][k]);
	for (int k = 0; k <= SKIP_END; k++)
		mpq_clear(ended[k]);
}

/* A stage that does not grow along the path is refused, not walked. */
static void standing_still(fray_roller *r, fray_policy *p, const void *in, int64_t *out)
{
	(void)p, (void)in;
	race s;
	if (!fray_resume(r, &s, sizeof s))
		s = (race){0, 0};
	while (s.stage < 3) {
		s.score += fray_die(r, 6, "d6") >= 5;
		s.stage++;
		if (fray_checkpoint(r, 7, &s, sizeof s)) /* always stage 7 */
			return;
	}
	out[0] = s.score;
}

static void stage_must_grow(void **state)
{
	(void)state;
	fray_dist *d;
	assert_int_equal(fray_enumerate(ctx, standing_still, NULL, NULL, 1, NULL, &d), FRAY_ERR_INTERNAL);
	assert_null(d);
	assert_non_null(strstr(fray_ctx_message(ctx), "stage"));
}

/* The scratch kept between the paths from one state holds what the first
 * path derived from it: a later path from the same state finds it (and
 * checks it against the state), a path from another state does not. */
static int scratch_reused, scratch_wrong;

static void scratch_race(fray_roller *r, fray_policy *p, const void *in, int64_t *out)
{
	(void)p, (void)in;
	race s;
	if (fray_resume(r, &s, sizeof s)) {
		bool valid;
		race *derived = fray_resume_scratch(r, sizeof *derived, &valid);
		assert_non_null(derived);
		if (valid) {
			scratch_reused++;
			scratch_wrong += derived->stage != s.stage || derived->score != s.score;
		}
		*derived = s;
	} else {
		bool valid;
		assert_null(fray_resume_scratch(r, sizeof s, &valid));
		assert_false(valid);
		s = (race){0, 0};
	}
	while (s.stage < 6) {
		s.score += fray_die(r, 6, "d6") >= 5;
		s.stage++;
		if (fray_checkpoint(r, (uint64_t)s.stage, &s, sizeof s))
			return;
	}
	out[0] = s.score;
}

static void resume_scratch_is_per_state(void **state)
{
	(void)state;
	scratch_reused = scratch_wrong = 0;
	fray_dist *d;
	assert_int_equal(fray_enumerate(ctx, scratch_race, NULL, NULL, 1, NULL, &d), FRAY_OK);
	assert_int_equal(scratch_wrong, 0);
	/* 5 of the 6 paths from each state resumed after the start: the
	 * states of stages 1..5 hold scores 0..stage, 20 states in all */
	assert_int_equal(scratch_reused, 5 * (2 + 3 + 4 + 5 + 6));
	fray_dist_free(d);
}

/* fray_die_classed: exact odds branch once per class, with the same
 * probabilities as reading cls from each of the die's faces; sampled, it
 * is the same die as fray_die on the same seed. */
static const unsigned char classes_of_d10[10] = {3, 3, 3, 0, 0, 7, 7, 7, 7, 1};

static void classed_die(fray_roller *r, fray_policy *p, const void *in, int64_t *out)
{
	(void)p, (void)in;
	out[0] = classes_of_d10[fray_die_classed(r, 10, classes_of_d10, "d10") - 1];
	out[1] = classes_of_d10[fray_die_classed(r, 10, classes_of_d10, "d10") - 1];
}

static void classed_die_is_its_faces(void **state)
{
	(void)state;
	fray_dist *d;
	fray_enum_limits lim = {.max_paths = 4 * 4}; /* 4 classes, not 10 faces */
	assert_int_equal(fray_enumerate(ctx, classed_die, NULL, NULL, 2, &lim, &d), FRAY_OK);
	size_t pairs = 0;
	for (int a = 0; a < 8; a++)
		for (int b = 0; b < 8; b++) {
			unsigned na = 0, nb = 0;
			for (int f = 0; f < 10; f++) {
				na += classes_of_d10[f] == a;
				nb += classes_of_d10[f] == b;
			}
			if (!na || !nb)
				continue;
			size_t i = 0;
			while (i < fray_dist_count(d) &&
			       (fray_dist_outcome(d, i)[0] != a || fray_dist_outcome(d, i)[1] != b))
				i++;
			assert_true(i < fray_dist_count(d));
			mpz_t num, den;
			mpz_init_set_ui(num, na * nb);
			mpz_init_set_ui(den, 100);
			assert_exact(d, i, num, den);
			mpz_clears(num, den, NULL);
			pairs++;
		}
	assert_int_equal(fray_dist_count(d), pairs);
	fray_dist_free(d);
	fray_roller *x = fray_roller_sample_new(ctx, 99, 0), *y = fray_roller_sample_new(ctx, 99, 0);
	for (int t = 0; t < 1000; t++)
		assert_int_equal(fray_die_classed(x, 10, classes_of_d10, "d10"), fray_die(y, 10, "d10"));
	fray_roller_free(x);
	fray_roller_free(y);
}

/* fray_dice_check: exact odds branch pass / fail with the chance counted
 * here from every pair of faces (2d6 on 2, 11 or 12: 4 of 36); sampled,
 * the same dice and totals as fray_dice_roll_as on the same seed; a check
 * that cannot fail or cannot pass is no branch at all. */
static const int64_t loss_totals[3] = {2, 11, 12};

static void check_twice(fray_roller *r, fray_policy *p, const void *in, int64_t *out)
{
	(void)p;
	int64_t total;
	out[0] = fray_dice_check_roll(in, r, "loss", &total);
	out[1] = fray_dice_check_roll(in, r, "loss", &total);
}

static void dice_check_is_its_faces(void **state)
{
	(void)state;
	fray_dice *dice;
	assert_int_equal(fray_dice_parse(ctx, "2d6", &dice), FRAY_OK);
	fray_dice_check *c;
	assert_int_equal(fray_dice_check_new(ctx, dice, loss_totals, 3, &c), FRAY_OK);
	unsigned pass = 0;
	for (int a = 1; a <= 6; a++)
		for (int b = 1; b <= 6; b++)
			pass += a + b == 2 || a + b == 11 || a + b == 12;
	fray_dist *d;
	fray_enum_limits lim = {.max_paths = 4}; /* two checks, two branches each */
	assert_int_equal(fray_enumerate(ctx, check_twice, NULL, c, 2, &lim, &d), FRAY_OK);
	assert_int_equal(fray_dist_count(d), 4);
	for (size_t i = 0; i < 4; i++) {
		const int64_t *o = fray_dist_outcome(d, i);
		mpz_t num, den;
		mpz_init_set_ui(num, (o[0] ? pass : 36 - pass) * (o[1] ? pass : 36 - pass));
		mpz_init_set_ui(den, 36 * 36);
		assert_exact(d, i, num, den);
		mpz_clears(num, den, NULL);
	}
	fray_dist_free(d);
	fray_roller *x = fray_roller_sample_new(ctx, 5, 0), *y = fray_roller_sample_new(ctx, 5, 0);
	for (int t = 0; t < 1000; t++) {
		int64_t total, want = fray_dice_roll_as(dice, y, "loss");
		bool passed = fray_dice_check_roll(c, x, "loss", &total);
		assert_int_equal(total, want);
		assert_int_equal(passed, want == 2 || want == 11 || want == 12);
	}
	fray_roller_free(x);
	fray_roller_free(y);
	fray_dice_check_free(c);
	/* 2..12 all pass, none pass: certain, one path */
	int64_t all[11];
	for (int i = 0; i < 11; i++)
		all[i] = 2 + i;
	fray_enum_limits one = {.max_paths = 1};
	for (size_t n = 0; n <= 11; n += 11) {
		assert_int_equal(fray_dice_check_new(ctx, dice, all, n, &c), FRAY_OK);
		assert_int_equal(fray_enumerate(ctx, check_twice, NULL, c, 2, &one, &d), FRAY_OK);
		assert_int_equal(fray_dist_count(d), 1);
		assert_int_equal(fray_dist_outcome(d, 0)[0], n == 11);
		fray_dist_free(d);
		fray_dice_check_free(c);
	}
	fray_dice_free(dice);
	/* a check whose chance would be costly to count (a die of more than
	 * 100 sides) is rolled face by face, with the same exact chance */
	for (int sides = 100; sides <= 101; sides++) {
		char text[16];
		snprintf(text, sizeof text, "1d%d", sides);
		assert_int_equal(fray_dice_parse(ctx, text, &dice), FRAY_OK);
		assert_int_equal(fray_dice_check_new(ctx, dice, loss_totals, 3, &c), FRAY_OK);
		fray_enum_limits few = {.max_paths = 4};
		fray_status st = fray_enumerate(ctx, check_twice, NULL, c, 2, &few, &d);
		assert_int_equal(st, sides == 100 ? FRAY_OK : FRAY_ERR_LIMIT);
		if (st != FRAY_OK)
			assert_int_equal(fray_enumerate(ctx, check_twice, NULL, c, 2, NULL, &d), FRAY_OK);
		const int64_t *both = fray_dist_outcome(d, fray_dist_count(d) - 1);
		assert_true(both[0] == 1 && both[1] == 1);
		mpz_t num, den;
		mpz_init_set_ui(num, 3 * 3);
		mpz_init_set_ui(den, (unsigned long)(sides * sides));
		assert_exact(d, fray_dist_count(d) - 1, num, den);
		mpz_clears(num, den, NULL);
		fray_dist_free(d);
		fray_dice_check_free(c);
		fray_dice_free(dice);
	}
}

/* 128-bit fractions to doubles: the same double as GMP's exact value
 * rounded to nearest (frayi_q_to_double's rule), on random numerators and
 * denominators of every size. */
static void u128_ratio_rounds_as_gmp(void **state)
{
	(void)state;
	uint64_t x = 0x243F6A8885A308D3u;
	for (int i = 0; i < 20000; i++) {
		frayi_u128 v[2];
		for (int j = 0; j < 2; j++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			uint64_t hi = x;
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			int bits = 1 + (int)(x % 128);
			frayi_u128 r = (frayi_u128)hi << 64 | x;
			v[j] = bits == 128 ? r : r & (((frayi_u128)1 << bits) - 1);
		}
		if (v[1] == 0)
			v[1] = 1;
		mpq_t q;
		mpq_init(q);
		frayi_u128_to_mpz(mpq_numref(q), v[0]);
		frayi_u128_to_mpz(mpq_denref(q), v[1]);
		mpq_canonicalize(q);
		/* nearest double by GMP: truncation and its neighbour compared */
		double lo = mpq_get_d(q), hi = nextafter(lo, INFINITY), want = lo;
		mpq_t a, b;
		mpq_inits(a, b, NULL);
		mpq_set_d(a, lo);
		mpq_sub(a, q, a);
		mpq_set_d(b, hi);
		mpq_sub(b, b, q);
		int c = mpq_cmp(b, a);
		if (c < 0 || (c == 0 && (int64_t)(frexp(hi, &(int){0}) * 9007199254740992.0) % 2 == 0))
			want = hi;
		assert_true(frayi_u128_ratio(v[0], v[1]) == want);
		mpq_clears(q, a, b, NULL);
	}
}

/* 128-bit numbers in decimal (by 64-bit divisions past the first 19
 * digits, issue 45): GMP's digits, on numbers of every size and 10^k and
 * its neighbours, where the 19-digit chunks meet. */
static void u128_str_as_gmp(void **state)
{
	(void)state;
	uint64_t x = 0x13198A2E03707344u;
	char got[48], want[48];
	mpz_t z;
	mpz_init(z);
	for (int i = 0; i < 20000; i++) {
		frayi_u128 v;
		if (i < 3 * 39) { /* 10^k - 1, 10^k, 10^k + 1 */
			v = 1;
			for (int k = 0; k < i / 3; k++)
				v *= 10;
			v += (frayi_u128)(i % 3) - 1;
		} else {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			uint64_t hi = x;
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			int bits = 1 + (int)(x % 128);
			frayi_u128 r = (frayi_u128)hi << 64 | x;
			v = bits == 128 ? r : r & (((frayi_u128)1 << bits) - 1);
		}
		frayi_u128_to_mpz(z, v);
		mpz_get_str(want, 10, z);
		size_t n = frayi_u128_str(v, got);
		assert_string_equal(got, want);
		assert_int_equal(n, strlen(want));
	}
	mpz_clear(z);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(deal_matches_counting_subsets),
		cmocka_unit_test(deal_sampled_tells_each_item),
		cmocka_unit_test(dealt_count_is_the_deal_marginal),
		cmocka_unit_test(deal_between_events_is_exact),
		cmocka_unit_test(big_deals_are_exact),
		cmocka_unit_test(merging_states_is_exact_and_small),
		cmocka_unit_test(merged_states_past_128_bits_are_exact),
		cmocka_unit_test(stateful_policy_walks_every_path),
		cmocka_unit_test(skipped_stages_merge_in_stage_order),
		cmocka_unit_test(stage_must_grow),
		cmocka_unit_test(resume_scratch_is_per_state),
		cmocka_unit_test(classed_die_is_its_faces),
		cmocka_unit_test(dice_check_is_its_faces),
		cmocka_unit_test(u128_ratio_rounds_as_gmp),
		cmocka_unit_test(u128_str_as_gmp),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
