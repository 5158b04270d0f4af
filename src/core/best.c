/* The best policy (issue 44): each question to the option of highest exact
 * value for the asking side. The policy itself only holds the goal, the
 * procedure's worth of an outcome and the last walk's report; the values
 * are found by its walk (best_walk.c), which fray_enumerate runs. */
#include <stdio.h>
#include <string.h>
#include "best.h"
#include "dist_internal.h"

static const char *const goal_names[FRAY_GOAL_COUNT] = {"win", "not-lose", "casualties", "hold"};

FRAY_API const char *fray_goal_name(fray_goal g)
{
	return (unsigned)g < FRAY_GOAL_COUNT ? goal_names[g] : "?";
}

FRAY_API fray_status fray_goal_from_name(fray_ctx *ctx, const char *name, fray_goal *out)
{
	for (int g = 0; g < FRAY_GOAL_COUNT; g++)
		if (name && strcmp(name, goal_names[g]) == 0) {
			*out = (fray_goal)g;
			return FRAY_OK;
		}
	if (!ctx)
		return FRAY_ERR_INPUT;
	return frayi_fail(ctx, FRAY_ERR_INPUT, "expected a goal: win, not-lose, casualties or hold, got '%.100s'",
			  name ? name : "");
}

/* Outside a walk there is no state to value the options from: said, never
 * answered by a guess (issue 44, "never silently"). */
static size_t best_choose(void *self, const fray_choice *c, char *msg, size_t cap)
{
	frayi_best *b = self;
	if (b->walk)
		return frayi_bwalk_decide(b->walk, b, c, msg, cap);
	snprintf(msg, cap, "the best policy answers only in exact odds (it values the rest of the walk); "
		 "'%s' was asked outside one", c->prompt && c->prompt[0] ? c->prompt : c->kind);
	return FRAY_NO_ANSWER;
}

static void best_destroy(void *self)
{
	frayi_best *b = self;
	mpq_clears(b->value[0], b->value[1], NULL);
	frayi_dealloc(b->ctx, b);
}

static const fray_policy_ops best_ops = {
	.name = "best",
	.choose = best_choose,
	.destroy = best_destroy,
	.deterministic = true,
	/* its answer is a function of the state and the question: the walk
	 * merges equal states */
	.memoryless = true,
	.thread_safe = false,
	/* it reads the kind, the side and the number of options, never the
	 * words */
	.suggestion_only = true,
};

FRAY_API fray_policy *fray_policy_best_new(fray_ctx *ctx, fray_goal goal)
{
	if ((unsigned)goal >= FRAY_GOAL_COUNT) {
		frayi_fail(ctx, FRAY_ERR_INPUT, "fray_policy_best_new: no goal %d", (int)goal);
		return NULL;
	}
	if (!frayi_gmp_guard()) {
		frayi_nomem(ctx);
		return NULL;
	}
	frayi_best *b = frayi_calloc(ctx, 1, sizeof *b);
	if (!b) {
		frayi_nomem(ctx);
		return NULL;
	}
	b->ctx = ctx;
	b->goal = goal;
	mpq_inits(b->value[0], b->value[1], NULL);
	fray_policy *p = fray_policy_new(ctx, &best_ops, b);
	if (!p)
		best_destroy(b);
	return p;
}

frayi_best *frayi_best_self(const fray_policy *p)
{
	return frayi_policy_self_if(p, &best_ops);
}

frayi_best *frayi_best_of(const fray_policy *p, int side)
{
	return frayi_best_self(frayi_policy_side(p, side));
}

/* The first best policy within p: side 0's, else side 1's. */
static frayi_best *first_best(const fray_policy *p)
{
	frayi_best *b = frayi_best_of(p, 0);
	return b ? b : frayi_best_of(p, 1);
}

bool frayi_best_plain(const fray_policy *p)
{
	const frayi_best *b = first_best(p);
	return b && b->plain;
}

FRAY_API bool fray_policy_has_best(const fray_policy *p)
{
	return first_best(p) != NULL;
}

FRAY_API bool fray_policy_best_plays(const fray_policy *p, int side)
{
	return frayi_best_of(p, side) != NULL;
}

FRAY_API void fray_policy_best_set_worth(fray_policy *p, fray_outcome_worth worth)
{
	for (int s = 0; s < 2; s++) {
		frayi_best *b = frayi_best_of(p, s);
		if (b)
			b->worth = worth;
	}
}

FRAY_API fray_goal fray_policy_best_goal(const fray_policy *p)
{
	const frayi_best *b = first_best(p);
	return b ? b->goal : FRAY_GOAL_WIN;
}

/* q as "num/den" in exact (cap bytes), or how many digits it would take. */
static void q_words(const mpq_t q, char *exact, size_t cap)
{
	if (!exact || !cap)
		return;
	size_t need = mpz_sizeinbase(mpq_numref(q), 10) + mpz_sizeinbase(mpq_denref(q), 10) + 3;
	if (need > cap)
		snprintf(exact, cap, "(a fraction of %zu digits)", need - 3);
	else
		mpq_get_str(exact, 10, q);
}

FRAY_API bool fray_policy_best_value(const fray_policy *p, int side, char *exact, size_t cap, double *approx)
{
	const frayi_best *b = first_best(p);
	if (!b || !b->valued || side < 0 || side > 1)
		return false;
	if (approx)
		*approx = frayi_q_to_double(b->value[side]);
	q_words(b->value[side], exact, cap);
	return true;
}

FRAY_API bool fray_policy_best_gain(const fray_policy *p, const fray_dist *base, int side, char *exact, size_t cap,
				    double *approx)
{
	const frayi_best *b = first_best(p);
	if (!b || !b->valued || !b->worth || !base || !base->exact || side < 0 || side > 1)
		return false;
	mpq_t sum, q, v;
	mpq_inits(sum, q, v, NULL);
	for (size_t i = 0; i < base->count; i++) {
		int64_t num = 0, den = 1;
		b->worth(base->keys + i * base->nfields, side, b->goals[side], &num, &den);
		mpq_set_si(v, num, (unsigned long)(den > 0 ? den : 1));
		mpq_canonicalize(v);
		frayi_xq_get_q(&base->exact[i], q);
		mpq_mul(v, v, q);
		mpq_add(sum, sum, v);
	}
	mpq_sub(sum, b->value[side], sum);
	if (approx)
		*approx = frayi_q_to_double(sum);
	q_words(sum, exact, cap);
	mpq_clears(sum, q, v, NULL);
	return true;
}

FRAY_API bool fray_policy_best_question(const fray_policy *p, size_t i, fray_best_question *out)
{
	const frayi_best *b = first_best(p);
	if (!b || i >= b->nq)
		return false;
	*out = b->q[i];
	return true;
}
