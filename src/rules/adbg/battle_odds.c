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
static fray_status walk(fray_ctx *ctx, const fray_adbg_scenario *s, fray_policy *p,
			const fray_adbg_odds_opts *o, fray_adbg_odds *out)
{
	fray_enum_limits lim = {.max_depth = 100000, .max_paths = o->budget, .max_bytes = o->max_bytes,
				.stop = o->stop, .progress = o->progress, .estimate = o->estimate, .ud = o->ud};
	fray_status st = fray_enumerate(ctx, fray_adbg_battle_procedure, p, s, 3, &lim, &out->dist);
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
	out->reason = not_tried(p, o->budget);
	if (!out->reason) {
		fray_status st = walk(ctx, s, p, o, out);
		if (st != FRAY_OK || out->exact)
			return st;
	}
	fray_policy_reset(p);
	fray_sim_run run = {.proc = fray_adbg_battle_procedure, .policy = p, .input = s, .nfields = 3,
			    .seed = o->seed, .last = o->trials, .threads = fray_policy_thread_safe(p) ? o->threads : 1,
			    .stop = o->stop, .progress = o->progress, .ud = o->ud};
	return fray_aggregate_run(ctx, &run, &out->dist);
}
