/* Dice expressions: parser, canonical text, rolling through a roller, and
 * the exact distribution of the total by convolution. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include "dist_internal.h"

typedef struct dice_term {
	int sign;      /* +1 or -1 */
	int count;     /* dice; 0 for a constant */
	int sides;
	bool reroll;   /* the re-roll-and-add die, "d6!" */
	int64_t value; /* the constant */
	char label[32];
} dice_term;

struct fray_dice {
	fray_ctx *ctx;
	size_t nterms;
	dice_term terms[FRAY_DICE_MAX_TERMS];
};

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
		return fray_fail(p->ctx, FRAY_ERR_INPUT,
				 "column %zu: expected %s, got the end",
				 p->pos + 1, what);
	if (isprint((unsigned char)c))
		return fray_fail(p->ctx, FRAY_ERR_INPUT,
				 "column %zu: expected %s, got '%c'",
				 p->pos + 1, what, c);
	return fray_fail(p->ctx, FRAY_ERR_INPUT,
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

static fray_status parse_term(parser *p, dice_term *t, int *dice_total)
{
	int64_t n = 1;
	size_t ncol = p->pos + 1;
	bool have_n = number(p, &n, &ncol);
	if (p->text[p->pos] != 'd' && p->text[p->pos] != 'D') {
		if (!have_n)
			return expected(p, "a dice term such as 2d6, d30 or a number");
		if (n > FRAY_DICE_MAX_CONST)
			return fray_fail(p->ctx, FRAY_ERR_LIMIT,
					 "column %zu: expected a number up to %d",
					 ncol, FRAY_DICE_MAX_CONST);
		t->count = 0;
		t->value = n;
		snprintf(t->label, sizeof t->label, "%lld", (long long)n);
		return FRAY_OK;
	}
	if (have_n && (n < 1 || n > FRAY_DICE_MAX_DICE))
		return fray_fail(p->ctx, FRAY_ERR_LIMIT,
				 "column %zu: expected a number of dice from 1 to %d",
				 ncol, FRAY_DICE_MAX_DICE);
	p->pos++; /* the 'd' */
	int64_t s;
	size_t scol;
	if (!number(p, &s, &scol))
		return expected(p, "the number of sides after 'd' (as in 2d6)");
	bool reroll = p->text[p->pos] == '!';
	int min_sides = reroll ? 2 : 1;
	if (s < min_sides || s > FRAY_DICE_MAX_SIDES)
		return fray_fail(p->ctx, FRAY_ERR_LIMIT,
				 "column %zu: expected %s from %d to %d",
				 scol, reroll ? "a re-roll-and-add die's sides"
					      : "a number of sides",
				 min_sides, FRAY_DICE_MAX_SIDES);
	if (reroll)
		p->pos++;
	*dice_total += (int)n;
	if (*dice_total > FRAY_DICE_MAX_DICE)
		return fray_fail(p->ctx, FRAY_ERR_LIMIT,
				 "column %zu: expected at most %d dice in all",
				 ncol, FRAY_DICE_MAX_DICE);
	t->count = (int)n;
	t->sides = (int)s;
	t->reroll = reroll;
	snprintf(t->label, sizeof t->label, "%dd%d%s", t->count, t->sides,
		 reroll ? "!" : "");
	return FRAY_OK;
}

FRAY_API fray_status fray_dice_parse(fray_ctx *ctx, const char *text,
				     fray_dice **out)
{
	if (!ctx)
		return FRAY_ERR_INPUT;
	fray_ctx_clear(ctx); /* each call's message is its own */
	if (!out || !text)
		return fray_fail(ctx, FRAY_ERR_INPUT, "fray_dice_parse: NULL argument");
	*out = NULL;
	size_t len = strnlen(text, FRAY_DICE_MAX_TEXT + 1);
	if (len > FRAY_DICE_MAX_TEXT)
		return fray_fail(ctx, FRAY_ERR_LIMIT,
				 "column %d: expected at most %d characters",
				 FRAY_DICE_MAX_TEXT + 1, FRAY_DICE_MAX_TEXT);
	fray_dice *d = fray_calloc(ctx, 1, sizeof *d);
	if (!d)
		return fray_nomem(ctx);
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
			st = fray_fail(ctx, FRAY_ERR_LIMIT,
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
	fray_dealloc(ctx, d);
	return st;
}

FRAY_API void fray_dice_free(fray_dice *d)
{
	if (d)
		fray_dealloc(d->ctx, d);
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

static int64_t term_max(const dice_term *t)
{
	if (t->count == 0)
		return t->value;
	return (int64_t)t->count * t->sides * (t->reroll ? 2 : 1);
}

static int64_t term_min(const dice_term *t)
{
	return t->count == 0 ? t->value : t->count;
}

FRAY_API int64_t fray_dice_min(const fray_dice *d)
{
	int64_t v = 0;
	for (size_t i = 0; i < d->nterms; i++)
		v += d->terms[i].sign > 0 ? term_min(&d->terms[i])
					  : -term_max(&d->terms[i]);
	return v;
}

FRAY_API int64_t fray_dice_max(const fray_dice *d)
{
	int64_t v = 0;
	for (size_t i = 0; i < d->nterms; i++)
		v += d->terms[i].sign > 0 ? term_max(&d->terms[i])
					  : -term_min(&d->terms[i]);
	return v;
}

FRAY_API int64_t fray_dice_roll(const fray_dice *d, fray_roller *r)
{
	return fray_dice_roll_as(d, r, NULL);
}

FRAY_API int64_t fray_dice_roll_as(const fray_dice *d, fray_roller *r, const char *what)
{
	int64_t total = 0;
	for (size_t i = 0; i < d->nterms; i++) {
		const dice_term *t = &d->terms[i];
		const char *label = what ? what : t->label;
		int64_t sum = t->value;
		for (int k = 0; k < t->count; k++)
			sum += t->reroll ? fray_reroll_add(r, t->sides, label)
					 : fray_die(r, t->sides, label);
		total += t->sign * sum;
	}
	return total;
}

FRAY_API void fray_dice_procedure(fray_roller *r, fray_policy *p,
				  const void *dice, int64_t *outcome)
{
	(void)p;
	outcome[0] = fray_dice_roll(dice, r);
}

/* ---- exact distribution ---- */

/* Ways to make each total, over [lo, lo + n), all out of one denominator. */
typedef struct ways {
	int64_t lo;
	size_t n;
	mpz_t *w;
} ways;

static bool ways_alloc(fray_ctx *ctx, ways *a, int64_t lo, size_t n)
{
	a->lo = lo;
	a->n = n;
	a->w = fray_calloc(ctx, n, sizeof *a->w);
	if (!a->w)
		return false;
	for (size_t i = 0; i < n; i++)
		mpz_init(a->w[i]);
	return true;
}

static void ways_free(fray_ctx *ctx, ways *a)
{
	if (!a->w)
		return;
	for (size_t i = 0; i < a->n; i++)
		mpz_clear(a->w[i]);
	fray_dealloc(ctx, a->w);
	a->w = NULL;
}

/* out += weight * (a convolved with a uniform block of values [b0, b1]),
 * using prefix sums pre[i] = a.w[0] + ... + a.w[i-1]. */
static void add_block(ways *out, const ways *a, mpz_t *pre, int64_t b0,
		      int64_t b1, unsigned long weight, mpz_t tmp)
{
	for (size_t i = 0; i < out->n; i++) {
		int64_t v = out->lo + (int64_t)i;
		/* a's indices j with v - b1 <= a.lo + j <= v - b0 */
		int64_t jlo = v - b1 - a->lo, jhi = v - b0 - a->lo;
		if (jlo < 0)
			jlo = 0;
		if (jhi > (int64_t)a->n - 1)
			jhi = (int64_t)a->n - 1;
		if (jlo > jhi)
			continue;
		mpz_sub(tmp, pre[jhi + 1], pre[jlo]);
		mpz_addmul_ui(out->w[i], tmp, weight);
	}
}

/* a := a convolved with one die whose value is sign * (face); den grows. */
static bool add_die(fray_ctx *ctx, ways *a, const dice_term *t, mpz_t den)
{
	int s = t->sides;
	int64_t top = t->reroll ? 2 * (int64_t)s : s;
	int64_t lo = t->sign > 0 ? a->lo + 1 : a->lo - top;
	ways out = {0};
	mpz_t *pre = fray_calloc(ctx, a->n + 1, sizeof *pre);
	if (!pre || !ways_alloc(ctx, &out, lo, a->n + (size_t)top - 1)) {
		fray_dealloc(ctx, pre);
		return false;
	}
	for (size_t i = 0; i <= a->n; i++)
		mpz_init(pre[i]);
	for (size_t i = 0; i < a->n; i++)
		mpz_add(pre[i + 1], pre[i], a->w[i]);
	mpz_t tmp;
	mpz_init(tmp);
	/* faces as signed blocks with their weights over a common den */
	if (!t->reroll) {
		if (t->sign > 0)
			add_block(&out, a, pre, 1, s, 1, tmp);
		else
			add_block(&out, a, pre, -s, -1, 1, tmp);
		mpz_mul_ui(den, den, (unsigned long)s);
	} else {
		/* 1..s-1 with 1/s = s/s^2; s+1..2s with 1/s^2 (ruling R16) */
		if (t->sign > 0) {
			add_block(&out, a, pre, 1, s - 1, (unsigned long)s, tmp);
			add_block(&out, a, pre, s + 1, 2 * s, 1, tmp);
		} else {
			add_block(&out, a, pre, -(s - 1), -1, (unsigned long)s, tmp);
			add_block(&out, a, pre, -2 * s, -(s + 1), 1, tmp);
		}
		mpz_mul_ui(den, den, (unsigned long)s * (unsigned long)s);
	}
	mpz_clear(tmp);
	for (size_t i = 0; i <= a->n; i++)
		mpz_clear(pre[i]);
	fray_dealloc(ctx, pre);
	ways_free(ctx, a);
	*a = out;
	return true;
}

/* ---- the same in 128-bit integers, when the denominator fits (every
 * count of ways is below it): no GMP at all ---- */

/* The denominator of the whole expression, false past 128 bits. */
static bool small_den(const fray_dice *d, fray_u128 *den)
{
	fray_u128 v = 1;
	for (size_t i = 0; i < d->nterms; i++) {
		const dice_term *t = &d->terms[i];
		fray_u128 s = (fray_u128)t->sides * (t->reroll ? (unsigned)t->sides : 1u);
		for (int k = 0; k < t->count; k++)
			if (__builtin_mul_overflow(v, s, &v))
				return false;
	}
	*den = v;
	return true;
}

/* out[lo_out + i] += weight * sum of a over the block [b0, b1] below it. */
static void add_block_small(fray_u128 *out, int64_t out_lo, size_t out_n, const fray_u128 *pre,
			    int64_t a_lo, size_t a_n, int64_t b0, int64_t b1, fray_u128 weight)
{
	for (size_t i = 0; i < out_n; i++) {
		int64_t v = out_lo + (int64_t)i;
		int64_t jlo = v - b1 - a_lo, jhi = v - b0 - a_lo;
		if (jlo < 0)
			jlo = 0;
		if (jhi > (int64_t)a_n - 1)
			jhi = (int64_t)a_n - 1;
		if (jlo <= jhi)
			out[i] += weight * (pre[jhi + 1] - pre[jlo]);
	}
}

static fray_status dist_small(const fray_dice *d, fray_u128 den, fray_dist **out)
{
	fray_ctx *ctx = d->ctx;
	int64_t span = fray_dice_max(d) - fray_dice_min(d) + 1;
	fray_u128 *a = fray_calloc(ctx, (size_t)span, sizeof *a);
	fray_u128 *b = fray_calloc(ctx, (size_t)span, sizeof *b);
	fray_u128 *pre = fray_calloc(ctx, (size_t)span + 1, sizeof *pre);
	fray_status st = FRAY_OK;
	if (!a || !b || !pre) {
		st = fray_nomem(ctx);
		goto done;
	}
	int64_t lo = 0, shift = 0;
	size_t n = 1;
	a[0] = 1;
	for (size_t i = 0; i < d->nterms; i++) {
		const dice_term *t = &d->terms[i];
		shift += t->count == 0 ? t->sign * t->value : 0;
		int64_t s = t->sides, top = t->reroll ? 2 * s : s;
		for (int k = 0; k < t->count; k++) {
			for (size_t j = 0; j < n; j++)
				pre[j + 1] = pre[j] + a[j];
			int64_t out_lo = t->sign > 0 ? lo + 1 : lo - top;
			size_t out_n = n + (size_t)top - 1;
			memset(b, 0, out_n * sizeof *b);
			int64_t g = t->sign;
			if (!t->reroll) {
				add_block_small(b, out_lo, out_n, pre, lo, n, g > 0 ? 1 : -s, g > 0 ? s : -1, 1);
			} else {
				/* 1..s-1 with 1/s = s/s^2; s+1..2s with 1/s^2 (ruling R16) */
				add_block_small(b, out_lo, out_n, pre, lo, n, g > 0 ? 1 : -(s - 1),
						g > 0 ? s - 1 : -1, (fray_u128)s);
				add_block_small(b, out_lo, out_n, pre, lo, n, g > 0 ? s + 1 : -2 * s,
						g > 0 ? 2 * s : -(s + 1), 1);
			}
			fray_u128 *tmp = a;
			a = b;
			b = tmp;
			lo = out_lo;
			n = out_n;
		}
	}
	size_t count = 0;
	for (size_t i = 0; i < n; i++)
		count += a[i] != 0;
	fray_dist *dist;
	if ((st = fray_dist_new_exact(ctx, 1, count, &dist)) != FRAY_OK)
		goto done;
	for (size_t i = 0, k = 0; i < n; i++) {
		if (a[i] == 0)
			continue;
		dist->keys[k] = lo + (int64_t)i + shift;
		dist->exact[k] = (fray_xq){.num = a[i], .den = den};
		dist->p[k] = fray_u128_ratio(a[i], den);
		k++;
	}
	*out = dist;
done:
	fray_dealloc(ctx, a);
	fray_dealloc(ctx, b);
	fray_dealloc(ctx, pre);
	return st;
}

FRAY_API fray_status fray_dice_dist(const fray_dice *d, fray_dist **out)
{
	fray_ctx *ctx = d->ctx;
	*out = NULL;
	fray_u128 small;
	if (small_den(d, &small))
		return dist_small(d, small, out);
	if (!fray_gmp_guard())
		return fray_nomem(ctx);
	ways a = {0};
	mpz_t den;
	mpz_init_set_ui(den, 1);
	fray_status st = FRAY_OK;
	int64_t shift = 0;
	if (!ways_alloc(ctx, &a, 0, 1)) {
		st = fray_nomem(ctx);
		goto done;
	}
	mpz_set_ui(a.w[0], 1);
	for (size_t i = 0; i < d->nterms; i++) {
		const dice_term *t = &d->terms[i];
		shift += t->count == 0 ? t->sign * t->value : 0;
		for (int k = 0; k < t->count; k++)
			if (!add_die(ctx, &a, t, den)) {
				st = fray_nomem(ctx);
				goto done;
			}
	}
	size_t count = 0;
	for (size_t i = 0; i < a.n; i++)
		count += mpz_sgn(a.w[i]) != 0;
	fray_dist *dist;
	if ((st = fray_dist_new_exact(ctx, 1, count, &dist)) != FRAY_OK)
		goto done;
	mpq_t q;
	mpq_init(q);
	for (size_t i = 0, k = 0; i < a.n; i++) {
		if (mpz_sgn(a.w[i]) == 0)
			continue;
		dist->keys[k] = a.lo + (int64_t)i + shift;
		mpq_set_num(q, a.w[i]);
		mpq_set_den(q, den);
		mpq_canonicalize(q);
		if (!fray_xq_add_q(&dist->exact[k], q)) {
			mpq_clear(q);
			fray_dist_free(dist);
			st = fray_nomem(ctx);
			goto done;
		}
		dist->p[k] = fray_q_to_double(q);
		k++;
	}
	mpq_clear(q);
	*out = dist;
done:
	ways_free(ctx, &a);
	mpz_clear(den);
	return st;
}
