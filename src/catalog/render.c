/* A bound call run once into a result (result.h): a roll with its events
 * kept, the exact odds, or a sampled simulation; then told in the format
 * asked by the one table of renderers (renderers.c). The command line,
 * fray_request, the page and the game's steps all come through here. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "result.h"

/* Rolls c on r into res: its events kept on the tape, its outcome. */
static fray_status compute_roll(fray_call *c, fray_roller *r, call_result *res)
{
	res->events = (event_tape){.ctx = c->ctx};
	fray_roller_set_sink(r, frayi_tape_keep, &res->events);
	memset(res->outcome, 0, sizeof res->outcome);
	fray_status st = fray_run(r, c->proc, NULL, c->input, res->outcome);
	if (st == FRAY_OK && res->events.failed)
		st = frayi_nomem(c->ctx);
	return st;
}

static fray_status roller_failed(fray_call *c)
{
	return fray_ctx_status(c->ctx) ? fray_ctx_status(c->ctx) : frayi_nomem(c->ctx);
}

/* The exact odds: the procedure's own way, else its rolls enumerated. */
static fray_status compute_odds(fray_call *c, const fray_call_opts *o, call_result *res)
{
	fray_enum_limits lim = call_limits(c->limits, o);
	res->exact = o->exact;
	return c->d->odds ? c->d->odds(c, &res->dist)
			  : fray_enumerate(c->ctx, c->proc, NULL, c->input, c->nfields, &lim, &res->dist);
}

/* Many sampled trials on every core (the same result for any number of
 * threads, ruling R24): the share of each outcome. */
static fray_status compute_simulate(fray_call *c, const fray_call_opts *o, call_result *res)
{
	res->trials = o->trials ? o->trials : 100000;
	fray_sim_run run = {.proc = c->proc, .input = c->input, .nfields = c->nfields, .seed = o->seed,
			    .last = res->trials, .stop = o->stop, .progress = o->progress, .ud = o->ud};
	return fray_aggregate_run(c->ctx, &run, &res->dist);
}

static result_kind kind_of(fray_mode mode)
{
	return mode == FRAY_MODE_ODDS ? RESULT_ODDS : mode == FRAY_MODE_SIMULATE ? RESULT_SIMULATE : RESULT_ROLL;
}

bool frayi_call_offers(const fray_call *c, fray_mode mode, fray_format f, char *formats, size_t cap)
{
	if (c->d->render) {
		/* a procedure that renders itself (a battle, a combat, a
		 * listing): text and JSON */
		snprintf(formats, cap, "text, json");
		return f == FRAY_FORMAT_TEXT || f == FRAY_FORMAT_JSON;
	}
	frayi_renderer_formats(kind_of(mode), formats, cap);
	return frayi_renderer(kind_of(mode), f) != NULL;
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
		return roller_failed(c);
	fray_roller_seek(r, *dice);
	call_result res = {.c = c, .kind = RESULT_ROLL, .seed = seed, .have_seed = true, .at_dice = true, .dice = *dice};
	st = compute_roll(c, r, &res);
	uint64_t after = fray_roller_tell(r);
	fray_roller_free(r);
	if (st == FRAY_OK) {
		/* the game's log keeps the roll both ways: one roll, two renderings */
		strbuf js = {.ctx = c->ctx}, tx = {.ctx = c->ctx};
		st = frayi_renderer(RESULT_ROLL, FRAY_FORMAT_JSON)(&res, &js);
		fray_status st_text = frayi_renderer(RESULT_ROLL, FRAY_FORMAT_TEXT)(&res, &tx);
		st = st != FRAY_OK ? st : st_text;
		if (st == FRAY_OK) {
			st = frayi_sb_give(&js, c->ctx, json);
			st_text = frayi_sb_give(&tx, c->ctx, text);
			st = st != FRAY_OK ? st : st_text;
		}
		if (st != FRAY_OK) {
			free(*json);
			free(*text);
			*json = *text = NULL;
		}
		frayi_sb_free(&js);
		frayi_sb_free(&tx);
		memcpy(outcome, res.outcome, sizeof res.outcome);
	}
	frayi_tape_free(&res.events);
	if (st == FRAY_OK)
		*dice = after;
	return st;
}

fray_status frayi_render_call(fray_call *c, const fray_call_opts *o, strbuf *sb)
{
	if (c->d->render)
		return c->d->render(c, o, sb);
	return frayi_render_common(c, o, sb);
}

fray_status frayi_render_common(fray_call *c, const fray_call_opts *o, strbuf *sb)
{
	if (o->mode == FRAY_MODE_SHOW) /* a listing renders itself */
		return frayi_fail(c->ctx, FRAY_ERR_INTERNAL, "%s has no listing of its own", c->d->name);
	result_kind kind = kind_of(o->mode);
	result_renderer render = frayi_renderer(kind, o->format);
	if (!render) {
		const char *name = fray_format_name(o->format);
		return frayi_call_bad(c, "%s has no %s format", c->d->name, name ? name : "such");
	}
	call_result res = {.c = c, .kind = kind, .seed = o->seed, .have_seed = o->have_seed};
	fray_status st;
	if (kind == RESULT_ROLL) {
		fray_roller *r = fray_roller_sample_new(c->ctx, o->seed, 0);
		if (!r)
			return roller_failed(c);
		st = compute_roll(c, r, &res);
		fray_roller_free(r);
	} else {
		st = kind == RESULT_ODDS ? compute_odds(c, o, &res) : compute_simulate(c, o, &res);
	}
	if (st == FRAY_OK)
		st = render(&res, sb);
	frayi_tape_free(&res.events);
	fray_dist_free(res.dist);
	return st;
}
