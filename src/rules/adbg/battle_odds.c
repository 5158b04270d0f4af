/* A battle's odds (ADBG 19.1-19.3 as fray_adbg_battle_procedure fights it):
 * exact within a budget of paths, else from a simulation that says why. The
 * one copy `fray adbg odds` and the catalogue's adbg.battle odds share. */
#include <stdio.h>
#include <string.h>
#include <fray/simulate.h>
#include "adbg_internal.h"

_Static_assert(FRAY_ADBG_WHY_MAX >= FRAY_MSG_MAX, "a context's whole message fits in fell_back");

/* Why exact odds were not tried: a budget of 0, or a policy that does not
 * decide alike each time (fray_enumerate needs one that does). */
static const char *not_tried(const fray_policy *p, uint64_t budget)
{
	if (!fray_policy_deterministic(p))
		return "policy";
	return budget == 0 ? "asked" : NULL;
}

/* The exact walk. FRAY_OK with out->dist, or the walk's failure; a walk
 * past its paths or memory is no failure: it leaves out->reason and
 * out->fell_back for the simulation to say. */
static fray_status walk_with(fray_ctx *ctx, fray_procedure proc, const fray_adbg_scenario *s, fray_policy *p,
			     const fray_adbg_odds_opts *o, fray_adbg_odds *out)
{
	fray_enum_limits lim = {.max_depth = 100000, .max_paths = o->budget, .max_bytes = o->max_bytes,
				.stop = o->stop, .progress = o->progress, .estimate = o->estimate, .ud = o->ud};
	fray_status st = fray_enumerate(ctx, proc, p, s, 3, &lim, &out->dist);
	if (o->stop && *o->stop) {
		fray_dist_free(out->dist);
		out->dist = NULL;
		return st == FRAY_OK ? frayi_fail(ctx, FRAY_ERR_BUDGET, "stopped") : st;
	}
	if (st == FRAY_OK) {
		out->exact = true;
		return FRAY_OK;
	}
	if (st != FRAY_ERR_LIMIT && st != FRAY_ERR_BUDGET && st != FRAY_ERR_NOMEM)
		return st;
	/* LIMIT: past the paths; BUDGET, NOMEM: past the memory (fray_enum_limits) */
	out->reason = st == FRAY_ERR_LIMIT ? "paths" : "memory";
	snprintf(out->fell_back, sizeof out->fell_back, "%s", fray_ctx_message(ctx));
	fray_ctx_clear(ctx);
	return FRAY_OK;
}

static fray_status walk(fray_ctx *ctx, const fray_adbg_scenario *s, fray_policy *p,
			const fray_adbg_odds_opts *o, fray_adbg_odds *out)
{
	return walk_with(ctx, fray_adbg_battle_procedure, s, p, o, out);
}

FRAY_API void fray_adbg_battle_worth(const int64_t *o, int side, fray_goal goal, int64_t *num, int64_t *den)
{
	int64_t winner = o[0], own = o[1 + side], enemy = o[2 - side];
	*den = 1;
	switch (goal) {
	case FRAY_GOAL_NOT_LOSE:
		*num = winner != 2 - side;
		break;
	case FRAY_GOAL_CASUALTIES:
		*num = enemy - own;
		break;
	case FRAY_GOAL_HOLD:
		*num = own == 0;
		break;
	default: /* win: a draw is half a win */
		*num = winner == side + 1 ? 2 : winner == 0 ? 1 : 0;
		*den = 2;
		break;
	}
}

/* The best policy's walk may take this many times the heuristic's paths
 * (each attempt: best_walk.c falls back a kind of question at a time when
 * over it). A best path costs some 3-5 heuristic ones (its questions are
 * recorded and folded in exact fractions): docs/performance.md. */
enum { BEST_PATHS_FACTOR = 3, BEST_PATHS_FLOOR = 1000000 };

static void count_paths(const fray_enum_progress *pr, void *ud)
{
	if (pr->done)
		*(uint64_t *)ud = pr->paths;
}

/* The best policy (issue 44): the heuristic's exact odds first (for the
 * gains, and the best walk's budget), then the best walk; the report has
 * each side's value as played, its gain over both sides playing the
 * heuristic, and the questions decided exactly. */
static fray_status best_walk(fray_ctx *ctx, const fray_adbg_scenario *s, fray_policy *p,
			     const fray_adbg_odds_opts *o, fray_adbg_odds *out)
{
	uint64_t hpaths = 0;
	fray_adbg_odds_opts ho = *o;
	ho.estimate = count_paths;
	ho.progress = NULL;
	ho.ud = &hpaths;
	fray_adbg_odds *h = frayi_calloc(ctx, 1, sizeof *h);
	if (!h)
		return frayi_nomem(ctx);
	/* its positions not convolved: the paths measure the best walk
	 * (frayi_adbg_battle_unconvolved_procedure) */
	fray_status st = walk_with(ctx, frayi_adbg_battle_unconvolved_procedure, s, NULL, &ho, h);
	fray_adbg_odds_opts bo = *o;
	/* a small battle's walk is quick whatever the factor */
	uint64_t budget = hpaths < BEST_PATHS_FLOOR / BEST_PATHS_FACTOR ? BEST_PATHS_FLOOR : hpaths * BEST_PATHS_FACTOR;
	if (st == FRAY_OK && h->exact && budget < o->budget)
		bo.budget = budget;
	if (st == FRAY_OK)
		st = walk(ctx, s, p, &bo, out);
	if (st == FRAY_OK && out->exact) {
		struct fray_adbg_best *b = &out->best;
		out->has_best = true;
		b->goal = fray_policy_best_goal(p);
		fray_best_question q;
		while (b->nq < sizeof b->q / sizeof b->q[0] && fray_policy_best_question(p, b->nq, &q))
			b->q[b->nq++] = q;
		for (int side = 0; side < 2; side++) {
			b->plays[side] = fray_policy_best_plays(p, side);
			fray_policy_best_value(p, side, b->value[side], sizeof b->value[side], &b->value_p[side]);
			b->gain_known = h->exact && fray_policy_best_gain(p, h->dist, side, b->gain[side],
									  sizeof b->gain[side], &b->gain_p[side]);
		}
	}
	fray_dist_free(h->dist);
	frayi_dealloc(ctx, h);
	return st;
}

FRAY_API fray_status fray_adbg_battle_odds(fray_ctx *ctx, const fray_adbg_scenario *s, fray_policy *p,
					   const fray_adbg_odds_opts *o, fray_adbg_odds *out)
{
	if (!out)
		return ctx ? frayi_fail(ctx, FRAY_ERR_INPUT, "fray_adbg_battle_odds: NULL argument") : FRAY_ERR_INPUT;
	memset(out, 0, sizeof *out);
	if (!ctx || !s || !p || !o)
		return ctx ? frayi_fail(ctx, FRAY_ERR_INPUT, "fray_adbg_battle_odds: NULL argument") : FRAY_ERR_INPUT;
	if (o->version > FRAY_ADBG_ODDS_OPTS_VERSION)
		return frayi_fail(ctx, FRAY_ERR_INPUT, "fray_adbg_battle_odds: options of version %u, newer than "
				 "this library's %u", o->version, FRAY_ADBG_ODDS_OPTS_VERSION);
	bool best = fray_policy_has_best(p);
	if (best)
		fray_policy_best_set_worth(p, fray_adbg_battle_worth);
	out->reason = not_tried(p, o->budget);
	if (!out->reason) {
		fray_status st = best ? best_walk(ctx, s, p, o, out) : walk(ctx, s, p, o, out);
		if (st != FRAY_OK || out->exact)
			return st;
	}
	if (best) {
		/* the best policy answers only in an exact walk: past the
		 * budget even with every question the heuristic's, the
		 * heuristic plays, and the report says so */
		fray_policy_reset(p);
		fray_sim_run run = {.proc = fray_adbg_battle_procedure, .policy = NULL, .input = s, .nfields = 3,
				    .seed = o->seed, .last = o->trials, .threads = o->threads,
				    .stop = o->stop, .progress = o->progress, .ud = o->ud};
		snprintf(out->fell_back + strlen(out->fell_back), sizeof out->fell_back - strlen(out->fell_back),
			 "%sthe best policy fell back to the heuristic on every question", out->fell_back[0] ? "; " : "");
		return fray_aggregate_run(ctx, &run, &out->dist);
	}
	fray_policy_reset(p);
	fray_sim_run run = {.proc = fray_adbg_battle_procedure, .policy = p, .input = s, .nfields = 3,
			    .seed = o->seed, .last = o->trials, .threads = fray_policy_thread_safe(p) ? o->threads : 1,
			    .stop = o->stop, .progress = o->progress, .ud = o->ud};
	return fray_aggregate_run(ctx, &run, &out->dist);
}
