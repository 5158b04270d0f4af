/* A procedure's result as text for people (issue #16's odds tables): the
 * roll told event by event, the exact odds as compact tables (never a
 * 200-digit fraction by default; --exact shows every row in full), a
 * simulation's shares. */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "result.h"

/* The title line, the events as told and "result: ..." (a roll at a count
 * of dice, the game's step, says no seed: the game's log does). */
fray_status frayi_text_roll(const void *result, strbuf *sb)
{
	const call_result *r = result;
	frayi_sb_escaped(sb, r->c->title);
	if (r->at_dice)
		frayi_sb_add(sb, "\n");
	else
		frayi_sb_add(sb, " (seed %" PRIu64 "%s)\n", r->seed, r->have_seed ? "" : "; replay with --seed");
	narrator n = {.sb = sb, .form = FRAY_FORMAT_TEXT, .first = true};
	for (size_t i = 0; i < r->events.n; i++)
		frayi_narrate(&n, &r->events.ev[i]);
	char res[1024];
	textbuf t = text_on(res, sizeof res);
	result_outcome(r, r->outcome, FRAY_FORMAT_TEXT, &t);
	frayi_sb_add(sb, "result: %s\n", res);
	return FRAY_OK;
}

#define ODDS_TOP_ROWS 20   /* a longer table shows its likeliest rows */
#define EXACT_SHORT 12     /* a fraction up to this long is shown anyway */

/* The chance of each value of field f: values sorted, chances summed
 * (doubles: what people read; the exact ones are in the JSON). */
typedef struct marginal {
	size_t n;
	int64_t *v;
	double *p;
} marginal;

/* The value of integer field f of outcome o as the JSON gives it (the
 * outcome's formatter may tell a procedure's raw number otherwise: the
 * initiative's side 0 or 1 is "first": 1 or 2); the raw number when the
 * JSON holds no such member. The text's tables show what the JSON says. */
static int64_t json_value(const fray_call *c, const int64_t *o, size_t f)
{
	char res[4096], key[96];
	textbuf t = text_on(res, sizeof res);
	c->fmt(c, o, FRAY_FORMAT_JSON, &t);
	int n = snprintf(key, sizeof key, "\"%s\": ", c->d->out[f].name);
	const char *at = n > 0 && (size_t)n < sizeof key ? strstr(res, key) : NULL;
	if (!at)
		return o[f];
	char *end;
	long long v = strtoll(at + n, &end, 10);
	return end == at + n ? o[f] : (int64_t)v;
}

static bool marginal_of(const fray_call *c, const fray_dist *d, size_t f, marginal *m)
{
	fray_ctx *ctx = c->ctx;
	size_t n = fray_dist_count(d);
	m->n = 0;
	m->v = frayi_alloc(ctx, (n + 1) * sizeof *m->v);
	m->p = frayi_alloc(ctx, (n + 1) * sizeof *m->p);
	if (!m->v || !m->p)
		return false;
	for (size_t i = 0; i < n; i++) {
		int64_t v = json_value(c, fray_dist_outcome(d, i), f);
		size_t k = 0;
		while (k < m->n && m->v[k] < v)
			k++;
		if (k == m->n || m->v[k] != v) {
			memmove(m->v + k + 1, m->v + k, (m->n - k) * sizeof *m->v);
			memmove(m->p + k + 1, m->p + k, (m->n - k) * sizeof *m->p);
			m->v[k] = v;
			m->p[k] = 0;
			m->n++;
		}
		m->p[k] += fray_dist_p(d, i);
	}
	return true;
}

/* One count of the outcome: mean, sd, and each value with the chance of
 * it, of at least it and of at most it. */
static void field_table(fray_ctx *ctx, const out_desc *od, const marginal *m, const fray_dist *whole, bool exact, strbuf *sb)
{
	double mean = 0, sq = 0;
	for (size_t k = 0; k < m->n; k++) {
		mean += (double)m->v[k] * m->p[k];
		sq += (double)m->v[k] * (double)m->v[k] * m->p[k];
	}
	double sd = sq - mean * mean > 0 ? sqrt(sq - mean * mean) : 0;
	frayi_sb_add(sb, "  %s: mean %.3g, sd %.3g\n", od->name, mean, sd);
	int w = (int)strlen(od->name) > 8 ? (int)strlen(od->name) : 8;
	frayi_sb_add(sb, "  %*s %9s %9s %9s%s\n", w, od->name, "chance", "at least", "at most",
	       whole ? "  exact" : "");
	double below = 0;
	size_t shown = exact || m->n <= ODDS_TOP_ROWS + 2 ? m->n : ODDS_TOP_ROWS;
	for (size_t k = 0; k < m->n; k++) {
		double at_most = below + m->p[k];
		if (k < shown) {
			frayi_sb_add(sb, "  %*" PRId64 " %8.3f%% %8.3f%% %8.3f%%", w, m->v[k], 100 * m->p[k],
			       100 * (1 - below), 100 * (at_most > 1 ? 1 : at_most));
			/* one field: its values are the outcomes, in the same order */
			char *ex = whole ? frayi_exact_of(ctx, whole, k) : NULL;
			if (whole && !ex)
				sb->failed = true; /* out of memory: told once, at the end */
			if (ex && (exact || strlen(ex) <= EXACT_SHORT))
				frayi_sb_add(sb, "  %s", ex);
			frayi_dealloc(ctx, ex);
			frayi_sb_add(sb, "\n");
		}
		below = at_most;
	}
	if (shown < m->n)
		frayi_sb_add(sb, "  ... %zu more values, from %" PRId64 " to %" PRId64 "\n", m->n - shown,
		       m->v[shown], m->v[m->n - 1]);
	frayi_sb_add(sb, "\n");
}

typedef struct ranked {
	double p;
	size_t i;
} ranked;

/* likeliest first; equal chances in the outcomes' order */
static int by_chance_desc(const void *a, const void *b)
{
	const ranked *x = a, *y = b;
	if (x->p != y->p)
		return x->p < y->p ? 1 : -1;
	return x->i < y->i ? -1 : 1;
}

fray_status frayi_text_odds(const void *result, strbuf *sb)
{
	const call_result *r = result;
	const fray_call *c = r->c;
	const fray_dist *d = r->dist;
	size_t n = fray_dist_count(d);
	frayi_sb_escaped(sb, c->title);
	frayi_sb_add(sb, ": exact odds, %zu outcome%s\n\n", n, n == 1 ? "" : "s");
	/* the counts one by one, where the catalogue names the fields */
	bool named = c->d->nout == c->nfields;
	for (size_t f = 0; named && f < c->nfields; f++) {
		const out_desc *od = &c->d->out[f];
		marginal m = {0};
		if (strcmp(od->type, "integer") != 0)
			continue;
		bool ok = marginal_of(c, d, f, &m);
		if (ok && m.n > 1)
			field_table(c->ctx, od, &m, c->nfields == 1 ? d : NULL, r->exact, sb);
		frayi_dealloc(c->ctx, m.v);
		frayi_dealloc(c->ctx, m.p);
		if (!ok)
			return frayi_nomem(c->ctx);
		if (c->nfields == 1 && m.n > 1 && fray_dist_unresolved(d) == 0)
			return FRAY_OK; /* that table was the whole answer */
	}
	bool told = false;
	for (size_t f = 0; named && f < c->nfields; f++) {
		const out_desc *od = &c->d->out[f];
		if (strcmp(od->type, "boolean") != 0)
			continue;
		double yes = 0;
		for (size_t i = 0; i < n; i++)
			yes += fray_dist_outcome(d, i)[f] ? fray_dist_p(d, i) : 0;
		frayi_sb_add(sb, "  %s: %.3f%%\n", od->name, 100 * yes);
		told = true;
	}
	if (told)
		frayi_sb_add(sb, "\n");
	/* the outcomes whole: in order when few, else the likeliest */
	ranked *order = frayi_alloc(c->ctx, (n + 1) * sizeof *order);
	if (!order)
		return frayi_nomem(c->ctx);
	for (size_t i = 0; i < n; i++)
		order[i] = (ranked){fray_dist_p(d, i), i};
	size_t shown = n;
	if (!r->exact && n > ODDS_TOP_ROWS + 2) {
		qsort(order, n, sizeof *order, by_chance_desc);
		shown = ODDS_TOP_ROWS;
		frayi_sb_add(sb, "  the %d likeliest outcomes of %zu:\n", ODDS_TOP_ROWS, n);
	} else {
		frayi_sb_add(sb, "  every outcome:\n");
	}
	char res[1024];
	for (size_t k = 0; k < shown; k++) {
		size_t i = order[k].i;
		char *ex = frayi_exact_of(c->ctx, d, i);
		if (!ex) {
			frayi_dealloc(c->ctx, order);
			return frayi_nomem(c->ctx);
		}
		textbuf t = text_on(res, sizeof res);
		result_outcome(r, fray_dist_outcome(d, i), FRAY_FORMAT_TEXT, &t);
		bool full = r->exact || strlen(ex) <= EXACT_SHORT;
		frayi_sb_add(sb, "  %7.3f%%  %-*s %s\n", 100 * fray_dist_p(d, i), EXACT_SHORT, full ? ex : "", res);
		frayi_dealloc(c->ctx, ex);
	}
	frayi_dealloc(c->ctx, order);
	if (shown < n)
		frayi_sb_add(sb, "  ... %zu more outcomes (--exact shows every one, with its fraction)\n", n - shown);
	if (fray_dist_unresolved(d) > 0)
		frayi_sb_add(sb, "  %7.3f%%  %-*s (unresolved: beyond the depth limit)\n",
		       100 * fray_dist_unresolved(d), EXACT_SHORT, "");
	return FRAY_OK;
}

fray_status frayi_text_simulate(const void *result, strbuf *sb)
{
	const call_result *r = result;
	frayi_sb_escaped(sb, r->c->title);
	frayi_sb_add(sb, "; %" PRIu64 " simulated trials (seed %" PRIu64 "%s)\n\n", r->trials, r->seed,
		     r->have_seed ? "" : "; replay with --seed");
	char res[1024];
	for (size_t i = 0; i < fray_dist_count(r->dist); i++) {
		textbuf t = text_on(res, sizeof res);
		result_outcome(r, fray_dist_outcome(r->dist, i), FRAY_FORMAT_TEXT, &t);
		frayi_sb_add(sb, "  %7.3f%%  %s\n", 100 * fray_dist_p(r->dist, i), res);
	}
	if (r->c->d->totals)
		r->c->d->totals(r->c, r->dist, FRAY_FORMAT_TEXT, sb);
	return FRAY_OK;
}
