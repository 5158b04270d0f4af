/* A check of dice: roll them, pass when the total is one of a set (a
 * leader lost on 2, 11 or 12 of 2d6). Only the verdict matters to the
 * rules, so exact odds branch twice, on pass and fail, weighted by the
 * chance computed once from the dice's distribution, instead of once per
 * die face. Sampling and telling roll the dice as fray_dice_roll_as does,
 * so a seed gives the same battle either way. */
#include <stdlib.h>
#include <string.h>
#include "dice_internal.h"
#include "dist_internal.h"
#include "roller_internal.h"

struct fray_dice_check {
	fray_ctx *ctx;
	const fray_dice *dice;
	size_t n;
	int64_t totals[FRAY_DICE_CHECK_MAX_TOTALS];
	/* the chance of passing, yes / ways, when both fit in 128 bits */
	bool two_way;
	frayi_u128 yes, ways;
	int64_t pass_total, fail_total; /* a total of each verdict, if any */
};

static bool passes(const fray_dice_check *c, int64_t total)
{
	for (size_t i = 0; i < c->n; i++)
		if (c->totals[i] == total)
			return true;
	return false;
}

/* Counting the chance once costs a convolution of the dice (or a dynamic
 * programme for kept dice); within the parser's limits that can take
 * seconds (200d1000), and a check is made when a scenario is read, even
 * from a request. Up to CHECK_COUNT_DICE dice of up to CHECK_COUNT_SIDES
 * sides it takes milliseconds; past that the check is rolled die by die
 * under enumeration too, as any dice expression. */
enum { CHECK_COUNT_DICE = 10, CHECK_COUNT_SIDES = 100 };

static bool cheap_to_count(const fray_dice *d)
{
	int dice = 0;
	for (size_t i = 0; i < d->nterms; i++) {
		const dice_term *t = &d->terms[i];
		bool d66 = t->kind == DICE_D66;
		dice += t->count * (d66 ? 2 : 1);
		if (!d66 && t->count > 0 && t->sides > CHECK_COUNT_SIDES)
			return false;
	}
	return dice <= CHECK_COUNT_DICE;
}

/* yes / ways from the dice's exact distribution. */
static fray_status find_chance(fray_dice_check *c)
{
	if (!cheap_to_count(c->dice))
		return FRAY_OK; /* two_way stays false */
	fray_dist *dist;
	fray_status st = fray_dice_dist(c->dice, &dist);
	if (st != FRAY_OK)
		return st;
	frayi_xq yes = FRAY_XQ_ZERO;
	bool ok = true, any_pass = false, any_fail = false;
	for (size_t i = 0; i < dist->count && ok; i++) {
		int64_t v = dist->keys[i];
		if (passes(c, v)) {
			ok = frayi_xq_add_xq(&yes, &dist->exact[i]);
			if (!any_pass)
				c->pass_total = v;
			any_pass = true;
		} else if (!any_fail) {
			c->fail_total = v;
			any_fail = true;
		}
	}
	fray_dist_free(dist);
	if (!ok) {
		frayi_xq_clear(&yes);
		return frayi_nomem(c->ctx);
	}
	mpq_t q;
	mpq_init(q);
	frayi_xq_get_q(&yes, q);
	c->two_way = frayi_mpz_to_u128(mpq_numref(q), &c->yes) &&
		     frayi_mpz_to_u128(mpq_denref(q), &c->ways);
	mpq_clear(q);
	frayi_xq_clear(&yes);
	return FRAY_OK;
}

FRAY_API fray_status fray_dice_check_new(fray_ctx *ctx, const fray_dice *d, const int64_t *totals,
					 size_t n, fray_dice_check **out)
{
	*out = NULL;
	if (!d || (n && !totals))
		return frayi_fail(ctx, FRAY_ERR_INPUT, "fray_dice_check_new: NULL argument");
	if (n > FRAY_DICE_CHECK_MAX_TOTALS)
		return frayi_fail(ctx, FRAY_ERR_LIMIT, "a dice check has at most %d totals",
				 FRAY_DICE_CHECK_MAX_TOTALS);
	fray_dice_check *c = frayi_calloc(ctx, 1, sizeof *c);
	if (!c)
		return frayi_nomem(ctx);
	c->ctx = ctx;
	c->dice = d;
	c->n = n;
	if (n)
		memcpy(c->totals, totals, n * sizeof *totals);
	fray_status st = find_chance(c);
	if (st != FRAY_OK) {
		frayi_dealloc(ctx, c);
		return st;
	}
	*out = c;
	return FRAY_OK;
}

FRAY_API void fray_dice_check_free(fray_dice_check *c)
{
	if (c)
		frayi_dealloc(c->ctx, c);
}

FRAY_API bool fray_dice_check_roll(const fray_dice_check *c, fray_roller *r, const char *what,
				   int64_t *total)
{
	if (r->mode != ROLLER_ENUMERATE || r->sink || !c->two_way) {
		*total = fray_dice_roll_as(c->dice, r, what);
		return passes(c, *total);
	}
	*total = c->fail_total;
	if (fray_roller_stopped(r) || c->yes == 0)
		return false;
	uint32_t branch = 0;
	bool need;
	if (c->yes != c->ways) { /* else certain: no branch */
		if (!frayi_enum_step(r, 2, &branch, &need))
			return false;
		if (need)
			frayi_enum_commit_small(r, branch == 0 ? c->yes : c->ways - c->yes, c->ways);
	}
	if (branch != 0)
		return false;
	*total = c->pass_total;
	return true;
}
