/* Dice expressions: the parser (every error names its column), the
 * canonical text, and the least and greatest totals. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include "dice_internal.h"

typedef struct parser {
	fray_ctx *ctx;
	const char *text;
	size_t pos;
} parser;

static void skip_space(parser *p)
{
	while (p->text[p->pos] == ' ' || p->text[p->pos] == '\t')
		p->pos++;
}

static fray_status expected(parser *p, const char *what)
{
	char c = p->text[p->pos];
	if (c == '\0')
		return frayi_fail(p->ctx, FRAY_ERR_INPUT,
				 "column %zu: expected %s, got the end",
				 p->pos + 1, what);
	if (isprint((unsigned char)c))
		return frayi_fail(p->ctx, FRAY_ERR_INPUT,
				 "column %zu: expected %s, got '%c'",
				 p->pos + 1, what, c);
	return frayi_fail(p->ctx, FRAY_ERR_INPUT,
			 "column %zu: expected %s, got byte 0x%02x",
			 p->pos + 1, what, (unsigned char)c);
}

/* A decimal number of at most 7 digits (larger is a limit error anyway). */
static bool number(parser *p, int64_t *out, size_t *col)
{
	*col = p->pos + 1;
	if (!isdigit((unsigned char)p->text[p->pos]))
		return false;
	int64_t v = 0;
	size_t digits = 0;
	while (isdigit((unsigned char)p->text[p->pos])) {
		if (digits++ < 8)
			v = v * 10 + (p->text[p->pos] - '0');
		p->pos++;
	}
	*out = digits > 8 ? INT64_MAX : v;
	return true;
}

/* The number after a modifier, from lo to hi. */
static fray_status modifier_number(parser *p, const char *what, int64_t lo,
				   int64_t hi, int *out)
{
	int64_t v;
	size_t col;
	if (!number(p, &v, &col)) {
		char want[96];
		snprintf(want, sizeof want, "%s (a number)", what);
		return expected(p, want);
	}
	if (v < lo || v > hi)
		return frayi_fail(p->ctx, FRAY_ERR_LIMIT,
				 "column %zu: expected %s from %lld to %lld", col, what,
				 (long long)lo, (long long)hi);
	*out = (int)v;
	return FRAY_OK;
}

/* What may follow NdS: '!', rK, kK/khK/klK, dK/dlK/dhK, >=K, <=K. */
static fray_status parse_modifier(parser *p, dice_term *t, size_t ncol)
{
	const char *s = p->text + p->pos;
	int n = t->count, sides = t->sides;
	fray_status st = FRAY_OK;
	if (s[0] == '!') {
		p->pos++;
		t->kind = DICE_REROLL_ADD;
		if (sides < 2)
			return frayi_fail(p->ctx, FRAY_ERR_LIMIT,
					 "column %zu: expected a re-roll-and-add die's sides from 2 to %d",
					 ncol, FRAY_DICE_MAX_SIDES);
	} else if (s[0] == 'r') {
		p->pos++;
		t->kind = DICE_REROLL_LOW;
		if (sides < 2)
			return frayi_fail(p->ctx, FRAY_ERR_LIMIT,
					 "column %zu: expected a re-rolled die's sides from 2 to %d",
					 ncol, FRAY_DICE_MAX_SIDES);
		st = modifier_number(p, "the highest face re-rolled", 1, sides - 1, &t->param);
	} else if (s[0] == 'k' || (s[0] == 'd' && (s[1] == 'h' || s[1] == 'l' ||
						 isdigit((unsigned char)s[1])))) {
		if (n < 2)
			return frayi_fail(p->ctx, FRAY_ERR_INPUT, "column %zu: expected two or more dice "
					 "before a keep or drop (as in 4d6kh3)", p->pos + 1);
		bool keep = s[0] == 'k', high = keep ? s[1] != 'l' : s[1] == 'h';
		p->pos += s[1] == 'h' || s[1] == 'l' ? 2 : 1;
		if (n > DICE_KEEP_MAX_DICE || sides > DICE_KEEP_MAX_SIDES)
			return frayi_fail(p->ctx, FRAY_ERR_LIMIT,
					 "column %zu: expected at most %d dice of at most %d sides "
					 "in a keep or drop term", ncol, DICE_KEEP_MAX_DICE,
					 DICE_KEEP_MAX_SIDES);
		int k;
		if (keep)
			st = modifier_number(p, "the number of dice kept", 1, n, &k);
		else
			st = modifier_number(p, "the number of dice dropped", 0, n - 1, &k);
		/* dropping the k lowest keeps the n - k highest, and so on */
		t->kind = high == keep ? DICE_KEEP_HIGH : DICE_KEEP_LOW;
		t->param = keep ? k : n - k;
	} else if ((s[0] == '>' || s[0] == '<') && s[1] == '=') {
		p->pos += 2;
		t->kind = s[0] == '>' ? DICE_AT_LEAST : DICE_AT_MOST;
		st = modifier_number(p, "the face a die must reach", 1, sides, &t->param);
	} else if (s[0] == '>' || s[0] == '<') {
		p->pos++;
		return expected(p, "'=' (successes are counted with >= or <=)");
	}
	return st;
}

static void term_label(dice_term *t, const char *written)
{
	char mod[16] = "";
	switch (t->kind) {
	case DICE_REROLL_ADD: snprintf(mod, sizeof mod, "!"); break;
	case DICE_REROLL_LOW: snprintf(mod, sizeof mod, "r%d", t->param); break;
	case DICE_KEEP_HIGH:
		if (written[0] == 'd')
			snprintf(mod, sizeof mod, "dl%d", t->count - t->param);
		else
			snprintf(mod, sizeof mod, "kh%d", t->param);
		break;
	case DICE_KEEP_LOW:
		if (written[0] == 'd')
			snprintf(mod, sizeof mod, "dh%d", t->count - t->param);
		else
			snprintf(mod, sizeof mod, "kl%d", t->param);
		break;
	case DICE_AT_LEAST: snprintf(mod, sizeof mod, ">=%d", t->param); break;
	case DICE_AT_MOST: snprintf(mod, sizeof mod, "<=%d", t->param); break;
	default: break;
	}
	snprintf(t->label, sizeof t->label, "%dd%d%s", t->count, t->sides, mod);
}

static fray_status parse_term(parser *p, dice_term *t, int *dice_total)
{
	int64_t n = 1;
	size_t ncol = p->pos + 1;
	bool have_n = number(p, &n, &ncol);
	if (p->text[p->pos] != 'd' && p->text[p->pos] != 'D') {
		if (!have_n)
			return expected(p, "a dice term such as 2d6, d30 or a number");
		if (n > FRAY_DICE_MAX_CONST)
			return frayi_fail(p->ctx, FRAY_ERR_LIMIT,
					 "column %zu: expected a number up to %d",
					 ncol, FRAY_DICE_MAX_CONST);
		t->kind = DICE_CONST;
		t->count = 0;
		t->value = n;
		snprintf(t->label, sizeof t->label, "%lld", (long long)n);
		return FRAY_OK;
	}
	if (have_n && (n < 1 || n > FRAY_DICE_MAX_DICE))
		return frayi_fail(p->ctx, FRAY_ERR_LIMIT,
				 "column %zu: expected a number of dice from 1 to %d",
				 ncol, FRAY_DICE_MAX_DICE);
	p->pos++; /* the 'd' */
	int64_t s;
	size_t scol;
	if (!number(p, &s, &scol))
		return expected(p, "the number of sides after 'd' (as in 2d6)");
	if (s < 1 || s > FRAY_DICE_MAX_SIDES)
		return frayi_fail(p->ctx, FRAY_ERR_LIMIT,
				 "column %zu: expected a number of sides from 1 to %d",
				 scol, FRAY_DICE_MAX_SIDES);
	*dice_total += (int)n;
	if (*dice_total > FRAY_DICE_MAX_DICE)
		return frayi_fail(p->ctx, FRAY_ERR_LIMIT,
				 "column %zu: expected at most %d dice in all",
				 ncol, FRAY_DICE_MAX_DICE);
	t->kind = DICE_SUM;
	t->count = (int)n;
	t->sides = (int)s;
	const char *written = p->text + p->pos;
	size_t mcol = p->pos + 1;
	fray_status st = parse_modifier(p, t, scol);
	if (st != FRAY_OK)
		return st;
	if (s == 66) {
		/* no die has 66 faces: d66 is the pair of d6 read as tens and units */
		if (t->kind != DICE_SUM)
			return frayi_fail(p->ctx, FRAY_ERR_INPUT,
					 "column %zu: expected the end of the term (d66, two d6 read "
					 "as tens and units, takes no modifier)", mcol);
		t->kind = DICE_D66;
	}
	term_label(t, written);
	return FRAY_OK;
}

FRAY_API fray_status fray_dice_parse(fray_ctx *ctx, const char *text,
				     fray_dice **out)
{
	if (!ctx)
		return FRAY_ERR_INPUT;
	fray_ctx_clear(ctx); /* each call's message is its own */
	if (!out || !text)
		return frayi_fail(ctx, FRAY_ERR_INPUT, "fray_dice_parse: NULL argument");
	*out = NULL;
	size_t len = strnlen(text, FRAY_DICE_MAX_TEXT + 1);
	if (len > FRAY_DICE_MAX_TEXT)
		return frayi_fail(ctx, FRAY_ERR_LIMIT,
				 "column %d: expected at most %d characters",
				 FRAY_DICE_MAX_TEXT + 1, FRAY_DICE_MAX_TEXT);
	fray_dice *d = frayi_calloc(ctx, 1, sizeof *d);
	if (!d)
		return frayi_nomem(ctx);
	d->ctx = ctx;
	parser p = {.ctx = ctx, .text = text};
	int dice_total = 0;
	int sign = 1;
	fray_status st;
	skip_space(&p);
	if (text[p.pos] == '-' || text[p.pos] == '+') {
		sign = text[p.pos] == '-' ? -1 : 1;
		p.pos++;
		skip_space(&p);
	}
	for (;;) {
		if (d->nterms == FRAY_DICE_MAX_TERMS) {
			st = frayi_fail(ctx, FRAY_ERR_LIMIT,
				       "column %zu: expected at most %d terms",
				       p.pos + 1, FRAY_DICE_MAX_TERMS);
			goto fail;
		}
		dice_term *t = &d->terms[d->nterms++];
		t->sign = sign;
		if ((st = parse_term(&p, t, &dice_total)) != FRAY_OK)
			goto fail;
		skip_space(&p);
		char c = text[p.pos];
		if (c == '\0')
			break;
		if (c != '+' && c != '-') {
			st = expected(&p, "'+', '-' or the end");
			goto fail;
		}
		sign = c == '-' ? -1 : 1;
		p.pos++;
		skip_space(&p);
	}
	*out = d;
	return FRAY_OK;
fail:
	frayi_dealloc(ctx, d);
	return st;
}

FRAY_API void fray_dice_free(fray_dice *d)
{
	if (d)
		frayi_dealloc(d->ctx, d);
}

FRAY_API size_t fray_dice_format(const fray_dice *d, char *dst, size_t cap)
{
	size_t len = 0;
	if (cap)
		dst[0] = '\0';
	for (size_t i = 0; i < d->nterms; i++) {
		const dice_term *t = &d->terms[i];
		const char *sign = t->sign < 0 ? "-" : i ? "+" : "";
		int n = snprintf(len < cap ? dst + len : NULL,
				 len < cap ? cap - len : 0, "%s%s", sign, t->label);
		len += (size_t)n;
	}
	return len;
}

static int64_t dice_term_max(const dice_term *t)
{
	int64_t n = t->count, s = t->sides;
	switch (t->kind) {
	case DICE_CONST: return t->value;
	case DICE_REROLL_ADD: return n * 2 * s;
	case DICE_D66: return n * 66;
	case DICE_KEEP_HIGH:
	case DICE_KEEP_LOW: return (int64_t)t->param * s;
	case DICE_AT_LEAST:
	case DICE_AT_MOST: return n;
	default: return n * s;
	}
}

static int64_t dice_term_min(const dice_term *t)
{
	switch (t->kind) {
	case DICE_CONST: return t->value;
	case DICE_D66: return (int64_t)t->count * 11;
	case DICE_KEEP_HIGH:
	case DICE_KEEP_LOW: return t->param;
	case DICE_AT_LEAST:
	case DICE_AT_MOST: return 0;
	default: return t->count;
	}
}

FRAY_API int64_t fray_dice_min(const fray_dice *d)
{
	int64_t v = 0;
	for (size_t i = 0; i < d->nterms; i++)
		v += d->terms[i].sign > 0 ? dice_term_min(&d->terms[i])
					  : -dice_term_max(&d->terms[i]);
	return v;
}

FRAY_API int64_t fray_dice_max(const fray_dice *d)
{
	int64_t v = 0;
	for (size_t i = 0; i < d->nterms; i++)
		v += d->terms[i].sign > 0 ? dice_term_max(&d->terms[i])
					  : -dice_term_min(&d->terms[i]);
	return v;
}
