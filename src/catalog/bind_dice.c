/* A dice expression as a procedure of the catalogue ("dice.roll"), so that
 * the page's dice roller is a form like any other: the expression is src/core's
 * (include/fray/dice.h, docs/dice.md), rolled die by die, and its odds
 * are the exact distribution of the total by convolution, not an
 * enumeration of every roll. */
#include <inttypes.h>
#include <string.h>
#include "catalog.h"
#include "../core/dice_internal.h"

/* The catalogue's bounds, tighter than the parser's (FRAY_DICE_MAX_DICE,
 * FRAY_DICE_MAX_SIDES): the odds of the largest expression they allow
 * stay a few thousand totals, answered at once to a page. A d6! re-rolls
 * its top face once only (ruling R16): its explosion depth is 1, the
 * grammar's only one. */
#define DICE_ROLL_MAX_DICE 50
#define DICE_ROLL_MAX_SIDES 100

/* The input struct: the parsed expression, owned by the call. */
typedef struct dice_roll_in {
	const fray_dice *dice;
} dice_roll_in;

static const in_desc roll_in[] = {
	{"expression", IN_STRING, .required = true, .positional = true,
	 .help = "a dice expression: 2d6, 3d6+2, d6! (re-rolled once on a 6), 4d6kh3, 9d12>=9, d66; at most "
		 "50 dice of at most 100 sides in all",
	 .rule = "docs/dice.md; ruling R16 (d6!)", .missing = "DICE (such as 2d6+1)"},
};
static const out_desc roll_out[] = {{"total", "integer", "the dice's total", "total "}};

/* The rules function: the expression rolled (its own events, die by
 * die). */
static void roll_dice(fray_roller *r, fray_policy *p, const void *in, int64_t *out)
{
	fray_dice_procedure(r, p, ((const dice_roll_in *)in)->dice, out);
}

static void free_dice(fray_call *c)
{
	fray_dice_free(c->owned[0]);
	c->owned[0] = NULL;
}

/* The bounds, term by term: the dice in all and each die's sides. */
static fray_status check_bounds(fray_call *c, const fray_dice *d)
{
	int dice = 0;
	for (size_t i = 0; i < d->nterms; i++) {
		const dice_term *t = &d->terms[i];
		dice += t->count;
		if (t->count > 0 && t->sides > DICE_ROLL_MAX_SIDES)
			return frayi_call_bad(c, "option %s: '%s' has dice of %d sides: at most %d", frayi_call_opt(c, 0),
					      t->label, t->sides, DICE_ROLL_MAX_SIDES);
	}
	if (dice > DICE_ROLL_MAX_DICE)
		return frayi_call_bad(c, "option %s: '%.200s' rolls %d dice: at most %d in all", frayi_call_opt(c, 0),
				      val_s(c, 0), dice, DICE_ROLL_MAX_DICE);
	return FRAY_OK;
}

static fray_status bind_roll(fray_call *c)
{
	fray_dice *d = NULL;
	if (fray_dice_parse(c->ctx, val_s(c, 0), &d) != FRAY_OK) {
		if (fray_ctx_status(c->ctx) != FRAY_ERR_INPUT && fray_ctx_status(c->ctx) != FRAY_ERR_LIMIT)
			return fray_ctx_status(c->ctx);
		/* the parser's "column C: expected ...", with the option */
		char msg[FRAY_MSG_MAX];
		snprintf(msg, sizeof msg, "%s", fray_ctx_message(c->ctx));
		fray_ctx_clear(c->ctx);
		return frayi_call_bad(c, "option %s: bad dice expression '%.200s': %s", frayi_call_opt(c, 0), val_s(c, 0),
				      msg);
	}
	c->owned[0] = d;
	c->cleanup = free_dice;
	fray_status st = check_bounds(c, d);
	if (st != FRAY_OK)
		return st;
	char text[FRAY_DICE_MAX_TEXT * 2];
	fray_dice_format(d, text, sizeof text);
	frayi_call_title(c, "%s: totals %" PRId64 " to %" PRId64, text, fray_dice_min(d), fray_dice_max(d));
	CALL_INPUT(c, dice_roll_in)->dice = d;
	call_run(c, roll_dice, 1, NULL);
	return FRAY_OK;
}

/* The exact odds by convolution (fast for any expression within the
 * bounds), in place of enumerating every die. */
static fray_status roll_odds(fray_call *c, fray_dist **out)
{
	return fray_dice_dist(CALL_INPUT(c, dice_roll_in)->dice, out);
}

static const proc_desc frayi_dice_roll_desc = {
	"dice.roll", "dice roll", "a dice expression: its total", "docs/dice.md, ruling R16",
	"Any dice expression fray reads (docs/dice.md): a roll told die by die, or\n"
	"the exact chance of every total.",
	roll_in, 1, roll_out, 1, FRAY_MODE_ROLL | FRAY_MODE_ODDS, "{\"expression\": \"2d6\"}", bind_roll, NULL, NULL,
	false, .headline = {"total", "each", "the total"}, .words = "2d6 3d6 d6 d10 d12 dice roll expression", .generic = true, .no_sides = true, .odds = roll_odds};

/* This file's procedures, in the catalogue's order (list.c joins the files). */
const proc_desc *const frayi_dice_procs[] = {
	&frayi_dice_roll_desc, NULL,
};
