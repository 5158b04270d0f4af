/* The random primitives (die, successes, draw, re-roll-and-add), decisions
 * and events, as rules code sees them; the sampling roller and one run. */
#include <assert.h>
#include <stdio.h>
#include <string.h>
#include "roller_internal.h"
#include "fast_dice.h"

FRAY_API fray_roller *fray_roller_sample_new(fray_ctx *ctx, uint64_t seed,
					     uint64_t stream)
{
	fray_roller *r = frayi_calloc(ctx, 1, sizeof *r);
	if (!r) {
		frayi_nomem(ctx);
		return NULL;
	}
	r->ctx = ctx;
	r->mode = ROLLER_SAMPLE;
	fray_rng_init(&r->rng, seed, stream);
	return r;
}

FRAY_API void fray_roller_free(fray_roller *r)
{
	if (r)
		frayi_dealloc(r->ctx, r);
}

FRAY_API uint64_t fray_roller_tell(const fray_roller *r)
{
	return fray_rng_tell(&r->rng);
}

FRAY_API void fray_roller_seek(fray_roller *r, uint64_t words)
{
	fray_rng_seek(&r->rng, words);
}

/* fray_roller_stopped, in line: the primitives ask it before every event,
 * and an exported function called from its own file is not inlined in a
 * position-independent library. */
static inline bool stopped(const fray_roller *r)
{
	return r->status != FRAY_OK || r->truncated;
}

fray_rng *frayi_roller_fast_rng(fray_roller *r)
{
	return r->mode == ROLLER_SAMPLE && !r->sink && !stopped(r) ? &r->rng : NULL;
}

FRAY_API void fray_roller_set_sink(fray_roller *r, fray_event_sink sink,
				   void *ud)
{
	r->sink = sink;
	r->sink_ud = ud;
}

void frayi_roller_begin_run(fray_roller *r)
{
	r->status = FRAY_OK;
	r->truncated = false;
	r->msg[0] = '\0';
}

FRAY_API bool fray_roller_stopped(const fray_roller *r)
{
	return stopped(r);
}

FRAY_API const char *fray_roller_stop_reason(const fray_roller *r)
{
	return r->status != FRAY_OK ? r->msg : "";
}

FRAY_API void fray_roller_fail(fray_roller *r, fray_status s, const char *msg)
{
	if (r->status != FRAY_OK)
		return;
	r->status = s;
	snprintf(r->msg, sizeof r->msg, "%s", msg);
}

FRAY_API bool fray_roller_narrating(const fray_roller *r)
{
	return r->sink != NULL;
}

FRAY_API void fray_emit(fray_roller *r, const fray_event *ev)
{
	if (r->sink)
		r->sink(r->sink_ud, ev);
}

FRAY_API void fray_emit_modifier(fray_roller *r, const char *what,
				 int64_t value, const char *rule)
{
	if (!r->sink)
		return;
	fray_event ev = {.kind = FRAY_EV_MODIFIER, .what = what, .rule = rule,
			 .value = value};
	r->sink(r->sink_ud, &ev);
}

FRAY_API void fray_emit_result(fray_roller *r, const char *what, int64_t value,
			       const char *text, const char *rule)
{
	if (!r->sink)
		return;
	fray_event ev = {.kind = FRAY_EV_RESULT, .what = what, .rule = rule,
			 .value = value, .text = text};
	r->sink(r->sink_ud, &ev);
}

FRAY_API void fray_emit_note(fray_roller *r, const char *text, const char *rule)
{
	if (!r->sink)
		return;
	fray_event ev = {.kind = FRAY_EV_NOTE, .rule = rule, .text = text};
	r->sink(r->sink_ud, &ev);
}

FRAY_API void fray_emit_total(fray_roller *r, const char *what, int64_t value, const char *rule)
{
	if (!r->sink)
		return;
	fray_event ev = {.kind = FRAY_EV_TOTAL, .what = what, .rule = rule, .value = value};
	r->sink(r->sink_ud, &ev);
}

static void emit_roll(fray_roller *r, fray_roll_kind kind, const char *what,
		      int64_t value, int sides, int count, int need)
{
	fray_event ev = {.kind = FRAY_EV_ROLL, .what = what, .value = value,
			 .roll = kind, .sides = sides, .count = count,
			 .need = need};
	r->sink(r->sink_ud, &ev);
}

FRAY_API int fray_die(fray_roller *r, int sides, const char *what)
{
	assert(sides >= 1);
	if (stopped(r))
		return 1;
	int v;
	if (r->mode == ROLLER_SAMPLE) {
		v = 1 + (int)frayi_rng_below(&r->rng, (uint32_t)sides);
	} else {
		uint32_t c;
		bool need;
		if (!frayi_enum_step(r, (uint32_t)sides, &c, &need))
			return 1;
		if (need)
			frayi_enum_commit_small(r, 1, (frayi_u128)sides);
		v = (int)c + 1;
	}
	if (r->sink)
		emit_roll(r, FRAY_ROLL_DIE, what, v, sides, 1, 0);
	return v;
}

FRAY_API int fray_die_classed(fray_roller *r, int sides, const unsigned char *cls,
			     const char *what)
{
	assert(sides >= 1 && sides <= FRAY_DIE_CLASSED_MAX_SIDES);
	if (r->mode == ROLLER_SAMPLE || stopped(r))
		return fray_die(r, sides, what);
	/* the classes in order of their lowest face, and their sizes */
	int first[FRAY_DIE_CLASSED_MAX_SIDES], ways[FRAY_DIE_CLASSED_MAX_SIDES];
	uint32_t n = 0;
	for (int f = 0; f < sides; f++) {
		uint32_t c = 0;
		while (c < n && cls[first[c]] != cls[f])
			c++;
		if (c == n) {
			first[n] = f;
			ways[n++] = 0;
		}
		ways[c]++;
	}
	uint32_t c = 0;
	bool need;
	if (n > 1) { /* one class is certain: no branch */
		if (!frayi_enum_step(r, n, &c, &need))
			return 1;
		if (need)
			frayi_enum_commit_small(r, (frayi_u128)ways[c], (frayi_u128)sides);
	}
	int v = first[c] + 1;
	if (r->sink)
		emit_roll(r, FRAY_ROLL_DIE, what, v, sides, 1, 0);
	return v;
}

/* v^e, false past 128 bits. */
static bool pow_u128(frayi_u128 v, unsigned e, frayi_u128 *out)
{
	frayi_u128 acc = 1;
	while (e) {
		if ((e & 1) && __builtin_mul_overflow(acc, v, &acc))
			return false;
		e >>= 1;
		if (e && __builtin_mul_overflow(v, v, &v))
			return false;
	}
	*out = acc;
	return true;
}

/* The branch of k successes among n: C(n,k) a^k b^(n-k) / sides^n, with
 * the factor common to a, b and sides taken out first (9+ on a d12 is
 * 4 and 8 of 12: 1 and 2 of 3), in 128 bits when it fits. */
static void commit_binomial(fray_roller *r, int n, int k, int a, int b, int sides)
{
	frayi_u128 g = frayi_u128_gcd((frayi_u128)a, (frayi_u128)b);
	frayi_u128 c, pa, pb, w, d;
	if (frayi_binomial((unsigned)n, (unsigned)k, &c) && pow_u128((frayi_u128)a / g, (unsigned)k, &pa) &&
	    pow_u128((frayi_u128)b / g, (unsigned)(n - k), &pb) &&
	    pow_u128((frayi_u128)sides / g, (unsigned)n, &d) &&
	    !__builtin_mul_overflow(c, pa, &w) && !__builtin_mul_overflow(w, pb, &w)) {
		frayi_enum_commit_small(r, w, d);
		return;
	}
	enum_state *en = r->en;
	mpz_t t;
	mpz_init(t);
	mpz_bin_uiui(en->num, (unsigned long)n, (unsigned long)k);
	mpz_ui_pow_ui(t, (unsigned long)a, (unsigned long)k);
	mpz_mul(en->num, en->num, t);
	mpz_ui_pow_ui(t, (unsigned long)b, (unsigned long)(n - k));
	mpz_mul(en->num, en->num, t);
	mpz_ui_pow_ui(en->den, (unsigned long)sides, (unsigned long)n);
	mpz_clear(t);
	frayi_enum_commit(r);
}

/* Successes among n dice of `sides` needing `need`: a = faces that succeed.
 * Under enumeration the n+1 counts are the branches, weighted by the
 * binomial C(n,k) a^k (sides-a)^(n-k) / sides^n. */
FRAY_API int fray_successes(fray_roller *r, int n, int sides, int need,
			    const char *what)
{
	assert(n >= 0 && n <= FRAY_SUCCESSES_MAX_DICE && sides >= 1);
	if (stopped(r))
		return 0;
	int a = need <= 1 ? sides : need > sides ? 0 : sides - need + 1;
	int k;
	if (a == 0 || a == sides || n == 0) {
		/* certain: no event, no branch */
		k = a == 0 ? 0 : n;
	} else if (r->mode == ROLLER_SAMPLE) {
		k = 0;
		for (int i = 0; i < n; i++)
			k += frayi_rng_below(&r->rng, (uint32_t)sides) < (uint32_t)a;
	} else {
		uint32_t c;
		bool need_p;
		if (!frayi_enum_step(r, (uint32_t)n + 1, &c, &need_p))
			return 0;
		k = (int)c;
		if (need_p)
			commit_binomial(r, n, k, a, sides - a, sides);
	}
	if (r->sink)
		emit_roll(r, FRAY_ROLL_SUCCESSES, what, k, sides, n, need);
	return k;
}

/* Counting dice at most k is counting the mirrored faces (sides + 1 -
 * face) at least sides + 1 - k: the same binomial, told as it is. */
FRAY_API int fray_count_at_most(fray_roller *r, int n, int sides, int k, const char *what)
{
	fray_event_sink sink = r->sink;
	r->sink = NULL; /* the event below says it the right way round */
	int v = fray_successes(r, n, sides, sides + 1 - k, what);
	r->sink = sink;
	if (r->sink && !stopped(r))
		emit_roll(r, FRAY_ROLL_COUNT_AT_MOST, what, v, sides, n, k);
	return v;
}

FRAY_API size_t fray_draw(fray_roller *r, const unsigned *counts, size_t ncat,
			  const char *what)
{
	return fray_draw_named(r, counts, ncat, what, NULL);
}

FRAY_API size_t fray_draw_named(fray_roller *r, const unsigned *counts, size_t ncat,
				const char *what, const char *const *labels)
{
	uint64_t total = 0;
	uint32_t nonzero = 0;
	for (size_t i = 0; i < ncat; i++) {
		total += counts[i];
		nonzero += counts[i] > 0;
	}
	assert(total > 0 && total <= UINT32_MAX);
	if (stopped(r))
		return 0;
	size_t cat = 0;
	if (r->mode == ROLLER_SAMPLE) {
		uint32_t x = frayi_rng_below(&r->rng, (uint32_t)total);
		while (x >= counts[cat])
			x -= counts[cat++];
	} else {
		uint32_t c;
		bool need;
		if (!frayi_enum_step(r, nonzero, &c, &need))
			return 0;
		/* branch c is the c-th category that still holds items */
		for (cat = 0;; cat++)
			if (counts[cat] > 0 && c-- == 0)
				break;
		if (need)
			frayi_enum_commit_small(r, counts[cat], total);
	}
	if (r->sink) {
		fray_event ev = {.kind = FRAY_EV_ROLL, .what = what, .value = (int64_t)cat, .roll = FRAY_ROLL_DRAW,
				 .count = (int)total, .text = labels ? labels[cat] : NULL};
		r->sink(r->sink_ud, &ev);
	}
	return cat;
}

/* Branches: 0..sides-2 are the faces 1..sides-1 (1/sides each); branches
 * sides-1..2*sides-2 are top face then 1..sides (1/sides^2 each). */
FRAY_API int fray_reroll_add(fray_roller *r, int sides, const char *what)
{
	assert(sides >= 2);
	if (stopped(r))
		return 1;
	int v;
	if (r->mode == ROLLER_SAMPLE) {
		v = 1 + (int)frayi_rng_below(&r->rng, (uint32_t)sides);
		if (v == sides)
			v += 1 + (int)frayi_rng_below(&r->rng, (uint32_t)sides);
	} else {
		uint32_t c;
		bool need;
		if (!frayi_enum_step(r, 2u * (uint32_t)sides - 1, &c, &need))
			return 1;
		bool again = c >= (uint32_t)sides - 1;
		v = again ? sides + (int)(c - ((uint32_t)sides - 1)) + 1 : (int)c + 1;
		if (need)
			frayi_enum_commit_small(r, 1, (frayi_u128)sides * (again ? (unsigned)sides : 1u));
	}
	if (r->sink)
		emit_roll(r, FRAY_ROLL_REROLL_ADD, what, v, sides, 1, 0);
	return v;
}

FRAY_API bool fray_roll_at_most(fray_roller *r, int sides, int k, int *face,
				const char *what)
{
	assert(sides >= 1 && k >= 0 && k <= sides);
	if (stopped(r)) {
		*face = sides;
		return false;
	}
	if (r->mode == ROLLER_SAMPLE) {
		*face = 1 + (int)frayi_rng_below(&r->rng, (uint32_t)sides);
	} else if (k == 0 || k == sides) {
		*face = k == 0 ? sides : 1; /* certain: no branch */
	} else {
		uint32_t c;
		bool need;
		if (!frayi_enum_step(r, 2, &c, &need)) {
			*face = sides;
			return false;
		}
		*face = c == 0 ? k : sides;
		if (need)
			frayi_enum_commit_small(r, (frayi_u128)(c == 0 ? k : sides - k), (frayi_u128)sides);
	}
	if (r->sink)
		emit_roll(r, FRAY_ROLL_AT_MOST, what, *face, sides, 1, k);
	return *face <= k;
}

FRAY_API size_t fray_decide(fray_roller *r, fray_policy *p,
			    const fray_choice *c)
{
	assert(c->noptions >= 1 && c->suggested < c->noptions);
	if (stopped(r))
		return c->suggested;
	char msg[FRAY_MSG_MAX];
	msg[0] = '\0'; /* not zeroed whole: decisions are hot in simulations */
	size_t i = fray_policy_choose(p, c, msg, sizeof msg);
	if (i == FRAY_NO_ANSWER || i >= c->noptions) {
		fray_roller_fail(r, FRAY_ERR_POLICY, msg[0] ? msg :
				 "the policy gave no answer");
		return c->suggested;
	}
	if (r->sink) {
		fray_event ev = {.kind = FRAY_EV_DECISION, .what = c->prompt,
				 .text = c->options[i], .value = (int64_t)i};
		r->sink(r->sink_ud, &ev);
	}
	return i;
}

FRAY_API fray_status fray_run(fray_roller *r, fray_procedure proc,
			      fray_policy *p, const void *input,
			      int64_t *outcome)
{
	if (!r)
		return FRAY_ERR_INPUT;
	if (!proc || !outcome)
		return frayi_fail(r->ctx, FRAY_ERR_INPUT, "fray_run: NULL argument");
	fray_ctx_clear(r->ctx); /* each call's message is its own */
	frayi_roller_begin_run(r);
	fray_policy_reset(p);
	proc(r, p, input, outcome);
	if (r->status != FRAY_OK)
		return frayi_fail(r->ctx, r->status, "%s", r->msg);
	return FRAY_OK;
}
