/* A bound call's output, the one renderer behind the command line and
 * fray_request: a narrated roll or the exact odds, as text for people or
 * as JSON in the common shape {"procedure", "inputs", ...}. */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "catalog.h"


void frayi_narrate(void *ud, const fray_event *ev)
{
	narrator *n = ud;
	size_t (*render)(const fray_event *, char *, size_t) = n->form == FRAY_FORMAT_JSON ? fray_event_json : fray_event_text;
	char small[512], *big = NULL;
	const char *line = small;
	size_t len = render(ev, small, sizeof small);
	if (len >= sizeof small) {
		/* rendered whole, never cut: a cut JSON event would break the
		 * document */
		big = frayi_sb_mem(n->sb, len + 1);
		if (!big) {
			n->sb->failed = true;
			return;
		}
		render(ev, big, len + 1);
		line = big;
	}
	if (n->form == FRAY_FORMAT_JSON) {
		frayi_sb_add(n->sb, "%s\n    %s", n->first ? "" : ",", line);
	} else {
		bool heading = ev->kind == FRAY_EV_NOTE && ev->text &&
			       (strncmp(ev->text, "==", 2) == 0 || strncmp(ev->text, "--", 2) == 0);
		frayi_sb_add(n->sb, heading ? "\n" : "  ");
		frayi_sb_escaped(n->sb, line);
		frayi_sb_add(n->sb, "\n");
	}
	frayi_sb_unmem(n->sb, big);
	n->first = false;
}

/* Two narrators at once: a game's log keeps a roll both ways. */
typedef struct narrators {
	narrator *as_json, *as_text;
} narrators;

static void narrate_both(void *ud, const fray_event *ev)
{
	narrators *n = ud;
	frayi_narrate(n->as_json, ev);
	frayi_narrate(n->as_text, ev);
}

/* Rolls c on r into out, telling the events to json and text (either may
 * be NULL): the opening, events and result as render_roll writes them. */
static fray_status roll_on(fray_call *c, fray_roller *r, const char *seed_note, strbuf *json, strbuf *text,
			   int64_t *out)
{
	narrator nj = {.sb = json, .form = FRAY_FORMAT_JSON, .first = true}, nt = {.sb = text, .first = true};
	narrators both = {&nj, &nt};
	if (json && text)
		fray_roller_set_sink(r, narrate_both, &both);
	else
		fray_roller_set_sink(r, frayi_narrate, json ? &nj : &nt);
	if (json)
		frayi_sb_add(json, "{\"procedure\": \"%s\", \"inputs\": %s, %s, \"events\": [", c->d->name,
		       c->inputs_json, seed_note);
	if (text) {
		frayi_sb_escaped(text, c->title);
		frayi_sb_add(text, "\n");
	}
	memset(out, 0, FRAY_OUTCOME_MAX_FIELDS * sizeof *out);
	fray_status st = fray_run(r, c->proc, NULL, c->input, out);
	if (st != FRAY_OK)
		return st;
	char res[1024];
	textbuf t = text_on(res, sizeof res);
	if (json) {
		c->fmt(c, out, FRAY_FORMAT_JSON, &t);
		frayi_sb_add(json, "%s], \"outcome\": {%s}}\n", nj.first ? "" : "\n  ", res);
	}
	if (text) {
		t = text_on(res, sizeof res);
		c->fmt(c, out, FRAY_FORMAT_TEXT, &t);
		frayi_sb_add(text, "result: %s\n", res);
	}
	return FRAY_OK;
}

static fray_status render_roll(fray_call *c, const fray_call_opts *o, strbuf *sb)
{
	fray_roller *r = fray_roller_sample_new(c->ctx, o->seed, 0);
	if (!r)
		return fray_ctx_status(c->ctx) ? fray_ctx_status(c->ctx) : frayi_nomem(c->ctx);
	int64_t out[FRAY_OUTCOME_MAX_FIELDS];
	fray_status st;
	if (o->format == FRAY_FORMAT_JSON) {
		char note[64];
		snprintf(note, sizeof note, "\"seed\": %" PRIu64, o->seed);
		st = roll_on(c, r, note, sb, NULL, out);
	} else {
		/* the title line says the seed: told here, not by roll_on */
		frayi_sb_escaped(sb, c->title);
		frayi_sb_add(sb, " (seed %" PRIu64 "%s)\n", o->seed, o->have_seed ? "" : "; replay with --seed");
		strbuf story = {.ctx = c->ctx};
		st = roll_on(c, r, NULL, NULL, &story, out);
		const char *body = story.buf ? strchr(story.buf, '\n') : NULL;
		if (st == FRAY_OK && body)
			frayi_sb_add(sb, "%s", body + 1);
		st = st == FRAY_OK && story.failed ? frayi_nomem(c->ctx) : st;
		frayi_sb_free(&story);
	}
	fray_roller_free(r);
	return st;
}

FRAY_API fray_status fray_call_roll_at(fray_call *c, uint64_t seed, uint64_t *dice, int64_t *outcome, char **json,
				       char **text)
{
	if (!c || !dice || !outcome || !json || !text)
		return c ? frayi_fail(c->ctx, FRAY_ERR_INPUT, "fray_call_roll_at: NULL argument") : FRAY_ERR_INPUT;
	*json = *text = NULL;
	if (!(c->d->modes & FRAY_MODE_ROLL))
		return frayi_call_bad(c, "%s has no roll mode", c->d->name);
	fray_status st = c->bound ? FRAY_OK : fray_call_check(c);
	if (st != FRAY_OK)
		return st;
	fray_ctx_clear(c->ctx);
	fray_roller *r = fray_roller_sample_new(c->ctx, seed, 0);
	if (!r)
		return fray_ctx_status(c->ctx) ? fray_ctx_status(c->ctx) : frayi_nomem(c->ctx);
	fray_roller_seek(r, *dice);
	char note[96];
	snprintf(note, sizeof note, "\"seed\": %" PRIu64 ", \"dice\": %" PRIu64, seed, *dice);
	strbuf js = {.ctx = c->ctx}, tx = {.ctx = c->ctx};
	st = roll_on(c, r, note, &js, &tx, outcome);
	uint64_t after = fray_roller_tell(r);
	fray_roller_free(r);
	if (st == FRAY_OK) {
		st = frayi_sb_give(&js, c->ctx, json);
		fray_status st_text = frayi_sb_give(&tx, c->ctx, text);
		st = st != FRAY_OK ? st : st_text;
		if (st != FRAY_OK) {
			free(*json);
			free(*text);
			*json = *text = NULL;
		}
	}
	frayi_sb_free(&js);
	frayi_sb_free(&tx);
	if (st == FRAY_OK)
		*dice = after;
	return st;
}

/* The exact chance of outcome i, in the context's memory (NULL: none). */
static char *exact_of(fray_ctx *ctx, const fray_dist *d, size_t i)
{
	size_t n = fray_dist_p_exact(d, i, NULL, 0);
	char *s = frayi_alloc(ctx, n + 1);
	if (s)
		fray_dist_p_exact(d, i, s, n + 1);
	return s;
}

/* ---- odds for people (issue #16): a compact table, never a 200-digit
 * fraction by default; --exact (opts.exact) shows every row in full, and
 * the JSON form always keeps every exact fraction ---- */

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
			char *ex = whole ? exact_of(ctx, whole, k) : NULL;
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

static fray_status odds_text(fray_call *c, const fray_call_opts *o, const fray_dist *d, strbuf *sb)
{
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
			field_table(c->ctx, od, &m, c->nfields == 1 ? d : NULL, o->exact, sb);
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
	if (!o->exact && n > ODDS_TOP_ROWS + 2) {
		qsort(order, n, sizeof *order, by_chance_desc);
		shown = ODDS_TOP_ROWS;
		frayi_sb_add(sb, "  the %d likeliest outcomes of %zu:\n", ODDS_TOP_ROWS, n);
	} else {
		frayi_sb_add(sb, "  every outcome:\n");
	}
	char res[1024];
	for (size_t r = 0; r < shown; r++) {
		size_t i = order[r].i;
		char *ex = exact_of(c->ctx, d, i);
		if (!ex) {
			frayi_dealloc(c->ctx, order);
			return frayi_nomem(c->ctx);
		}
		textbuf t = text_on(res, sizeof res);
		c->fmt(c, fray_dist_outcome(d, i), FRAY_FORMAT_TEXT, &t);
		bool full = o->exact || strlen(ex) <= EXACT_SHORT;
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

static fray_status render_odds(fray_call *c, const fray_call_opts *o, strbuf *sb)
{
	fray_dist *d;
	fray_enum_limits lim = call_limits(c->limits, o);
	fray_status st = c->d->odds ? c->d->odds(c, &d)
				    : fray_enumerate(c->ctx, c->proc, NULL, c->input, c->nfields, &lim, &d);
	if (st != FRAY_OK)
		return st;
	if (o->format != FRAY_FORMAT_JSON) {
		st = odds_text(c, o, d, sb);
		fray_dist_free(d);
		return st;
	}
	char res[1024], num[40];
	size_t n = fray_dist_count(d);
	frayi_sb_add(sb, "{\"procedure\": \"%s\", \"inputs\": %s, \"outcomes\": [", c->d->name, c->inputs_json);
	for (size_t i = 0; i < n; i++) {
		char *ex = exact_of(c->ctx, d, i);
		if (!ex) {
			fray_dist_free(d);
			return frayi_nomem(c->ctx);
		}
		textbuf t = text_on(res, sizeof res);
		c->fmt(c, fray_dist_outcome(d, i), FRAY_FORMAT_JSON, &t);
		fray_double_str(fray_dist_p(d, i), num, sizeof num);
		frayi_sb_add(sb, "%s\n  {\"outcome\": {%s}, \"p\": %s, \"exact\": \"%s\"}", i ? "," : "", res, num, ex);
		frayi_dealloc(c->ctx, ex);
	}
	fray_double_str(fray_dist_unresolved(d), num, sizeof num);
	frayi_sb_add(sb, "\n], \"unresolved\": %s}\n", num);
	fray_dist_free(d);
	return FRAY_OK;
}

/* Many sampled trials on every core (the same result for any number of
 * threads, ruling R24): the share of each outcome. */
static fray_status render_simulate(fray_call *c, const fray_call_opts *o, strbuf *sb)
{
	uint64_t trials = o->trials ? o->trials : 100000;
	fray_dist *d;
	fray_sim_run run = {.proc = c->proc, .input = c->input, .nfields = c->nfields, .seed = o->seed,
			    .last = trials, .stop = o->stop, .progress = o->progress, .ud = o->ud};
	fray_status st = fray_aggregate_run(c->ctx, &run, &d);
	if (st != FRAY_OK)
		return st;
	char res[1024], num[40];
	if (o->format == FRAY_FORMAT_JSON) {
		frayi_sb_add(sb, "{\"procedure\": \"%s\", \"inputs\": %s, \"trials\": %" PRIu64 ", \"seed\": %" PRIu64
			   ", \"outcomes\": [", c->d->name, c->inputs_json, trials, o->seed);
	} else {
		frayi_sb_escaped(sb, c->title);
		frayi_sb_add(sb, "; %" PRIu64 " simulated trials (seed %" PRIu64 "%s)\n\n", trials, o->seed,
		       o->have_seed ? "" : "; replay with --seed");
	}
	for (size_t i = 0; i < fray_dist_count(d); i++) {
		textbuf t = text_on(res, sizeof res);
		c->fmt(c, fray_dist_outcome(d, i), o->format, &t);
		if (o->format == FRAY_FORMAT_JSON) {
			fray_double_str(fray_dist_p(d, i), num, sizeof num);
			frayi_sb_add(sb, "%s\n  {\"outcome\": {%s}, \"p\": %s}", i ? "," : "", res, num);
		} else {
			frayi_sb_add(sb, "  %7.3f%%  %s\n", 100 * fray_dist_p(d, i), res);
		}
	}
	if (o->format == FRAY_FORMAT_JSON)
		frayi_sb_add(sb, "\n]");
	if (c->d->totals)
		c->d->totals(c, d, o->format, sb);
	frayi_sb_add(sb, o->format == FRAY_FORMAT_JSON ? "}\n" : "");
	fray_dist_free(d);
	return FRAY_OK;
}

fray_status frayi_render_call(fray_call *c, const fray_call_opts *o, strbuf *sb)
{
	if (c->d->render)
		return c->d->render(c, o, sb);
	return frayi_render_common(c, o, sb);
}

fray_status frayi_render_common(fray_call *c, const fray_call_opts *o, strbuf *sb)
{
	switch (o->mode) {
	case FRAY_MODE_ODDS:
		return render_odds(c, o, sb);
	case FRAY_MODE_SIMULATE:
		return render_simulate(c, o, sb);
	case FRAY_MODE_SHOW: /* a listing renders itself */
		return frayi_fail(c->ctx, FRAY_ERR_INTERNAL, "%s has no listing of its own", c->d->name);
	case FRAY_MODE_ROLL:
		break;
	}
	return render_roll(c, o, sb);
}
