/* A bound call's output, the one renderer behind the command line and
 * fray_request: a narrated roll or the exact odds, as text for people or
 * as JSON in the common shape {"procedure", "inputs", ...}. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "catalog.h"

#define C1_LEAD 0xC2

/* Text for a terminal: control characters (and C1 controls) shown as
 * escapes, so a name from a file can neither forge a line nor drive the
 * terminal. */
void sb_escaped(strbuf *sb, const char *s)
{
	const unsigned char *u = (const unsigned char *)s;
	for (; *u; u++) {
		if (*u == C1_LEAD && u[1] >= 0x80 && u[1] <= 0x9F)
			sb_add(sb, "\\u%04x", *++u);
		else if (*u < 0x20 || *u == 0x7F)
			sb_add(sb, "\\x%02x", *u);
		else
			sb_put(sb, (const char *)u, 1);
	}
}

void narrate(void *ud, const fray_event *ev)
{
	narrator *n = ud;
	size_t (*render)(const fray_event *, char *, size_t) = n->json ? fray_event_json : fray_event_text;
	char small[512], *big = NULL;
	const char *line = small;
	size_t len = render(ev, small, sizeof small);
	if (len >= sizeof small) {
		/* rendered whole, never cut: a cut JSON event would break the
		 * document */
		big = malloc(len + 1);
		if (!big) {
			n->sb->failed = true;
			return;
		}
		render(ev, big, len + 1);
		line = big;
	}
	if (n->json) {
		sb_add(n->sb, "%s\n    %s", n->first ? "" : ",", line);
	} else {
		bool heading = ev->kind == FRAY_EV_NOTE && ev->text &&
			       (strncmp(ev->text, "==", 2) == 0 || strncmp(ev->text, "--", 2) == 0);
		sb_add(n->sb, heading ? "\n" : "  ");
		sb_escaped(n->sb, line);
		sb_add(n->sb, "\n");
	}
	free(big);
	n->first = false;
}

static fray_status render_roll(fray_call *c, const fray_call_opts *o, strbuf *sb)
{
	fray_roller *r = fray_roller_sample_new(c->ctx, o->seed, 0);
	if (!r)
		return fray_ctx_status(c->ctx) ? fray_ctx_status(c->ctx) : fray_nomem(c->ctx);
	narrator n = {.sb = sb, .json = o->json, .first = true};
	fray_roller_set_sink(r, narrate, &n);
	if (o->json) {
		sb_add(sb, "{\"procedure\": \"%s\", \"inputs\": %s, \"seed\": %" PRIu64 ", \"events\": [",
		       c->d->name, c->inputs_json, o->seed);
	} else {
		sb_escaped(sb, c->title);
		sb_add(sb, " (seed %" PRIu64 "%s)\n", o->seed, o->have_seed ? "" : "; replay with --seed");
	}
	int64_t out[FRAY_OUTCOME_MAX_FIELDS] = {0};
	fray_status st = fray_run(r, c->proc, NULL, c->input, out);
	fray_roller_free(r);
	if (st != FRAY_OK)
		return st;
	char res[1024];
	textbuf t = text_on(res, sizeof res);
	c->fmt(c, out, o->json, &t);
	if (o->json)
		sb_add(sb, "%s], \"outcome\": {%s}}\n", n.first ? "" : "\n  ", res);
	else
		sb_add(sb, "result: %s\n", res);
	return FRAY_OK;
}

static char *exact_of(const fray_dist *d, size_t i)
{
	size_t n = fray_dist_p_exact(d, i, NULL, 0);
	char *s = malloc(n + 1);
	if (s)
		fray_dist_p_exact(d, i, s, n + 1);
	return s;
}

static fray_status render_odds(fray_call *c, const fray_call_opts *o, strbuf *sb)
{
	fray_dist *d;
	fray_enum_limits lim = c->limits;
	if (o->max_bytes)
		lim.max_bytes = o->max_bytes;
	if (o->max_paths)
		lim.max_paths = o->max_paths;
	call_limits_watch(&lim, o);
	fray_status st = fray_enumerate(c->ctx, c->proc, NULL, c->input, c->nfields, &lim, &d);
	if (st != FRAY_OK)
		return st;
	char res[1024], num[40];
	size_t n = fray_dist_count(d);
	if (o->json)
		sb_add(sb, "{\"procedure\": \"%s\", \"inputs\": %s, \"outcomes\": [", c->d->name, c->inputs_json);
	else {
		sb_escaped(sb, c->title);
		sb_add(sb, ": exact odds\n\n");
	}
	for (size_t i = 0; i < n; i++) {
		char *ex = exact_of(d, i);
		textbuf t = text_on(res, sizeof res);
		c->fmt(c, fray_dist_outcome(d, i), o->json, &t);
		if (o->json) {
			fray_double_str(fray_dist_p(d, i), num, sizeof num);
			sb_add(sb, "%s\n  {\"outcome\": {%s}, \"p\": %s, \"exact\": \"%s\"}", i ? "," : "", res, num,
			       ex ? ex : "");
		} else {
			sb_add(sb, "  %7.3f%%  %-12s %s\n", 100 * fray_dist_p(d, i), ex ? ex : "", res);
		}
		free(ex);
	}
	if (o->json) {
		fray_double_str(fray_dist_unresolved(d), num, sizeof num);
		sb_add(sb, "\n], \"unresolved\": %s}\n", num);
	} else if (fray_dist_unresolved(d) > 0) {
		sb_add(sb, "  %7.3f%%  %-12s (unresolved: beyond the depth limit)\n",
		       100 * fray_dist_unresolved(d), "");
	}
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
	if (o->json) {
		sb_add(sb, "{\"procedure\": \"%s\", \"inputs\": %s, \"trials\": %" PRIu64 ", \"seed\": %" PRIu64
			   ", \"outcomes\": [", c->d->name, c->inputs_json, trials, o->seed);
	} else {
		sb_escaped(sb, c->title);
		sb_add(sb, "; %" PRIu64 " simulated trials (seed %" PRIu64 "%s)\n\n", trials, o->seed,
		       o->have_seed ? "" : "; replay with --seed");
	}
	for (size_t i = 0; i < fray_dist_count(d); i++) {
		textbuf t = text_on(res, sizeof res);
		c->fmt(c, fray_dist_outcome(d, i), o->json, &t);
		if (o->json) {
			fray_double_str(fray_dist_p(d, i), num, sizeof num);
			sb_add(sb, "%s\n  {\"outcome\": {%s}, \"p\": %s}", i ? "," : "", res, num);
		} else {
			sb_add(sb, "  %7.3f%%  %s\n", 100 * fray_dist_p(d, i), res);
		}
	}
	if (o->json)
		sb_add(sb, "\n]");
	if (c->d->totals)
		c->d->totals(c, d, o->json, sb);
	sb_add(sb, o->json ? "}\n" : "");
	fray_dist_free(d);
	return FRAY_OK;
}

fray_status render_call(fray_call *c, const fray_call_opts *o, strbuf *sb)
{
	if (c->d->render)
		return c->d->render(c, o, sb);
	return render_common(c, o, sb);
}

fray_status render_common(fray_call *c, const fray_call_opts *o, strbuf *sb)
{
	switch (o->mode) {
	case FRAY_MODE_ODDS:
		return render_odds(c, o, sb);
	case FRAY_MODE_SIMULATE:
		return render_simulate(c, o, sb);
	case FRAY_MODE_ROLL:
		break;
	}
	return render_roll(c, o, sb);
}
