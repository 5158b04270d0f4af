/* The aggregating runner: many sampled trials on several threads (the
 * trial engine, trials.h), each worker tallying whole outcomes in a hash
 * table; the tallies only add integer counts, so the totals are the same
 * for any thread count (ruling R24). */
#include <stdio.h>
#include "dist_internal.h"
#include "trials.h"
#include <fray/simulate.h>

static fray_status tally_outcome(void *acc, const int64_t *outcome, char *msg, size_t cap)
{
	frayi_tally *t = acc;
	size_t e = frayi_tally_slot(t, outcome);
	if (e == SIZE_MAX) {
		snprintf(msg, cap, "out of memory");
		return FRAY_ERR_NOMEM;
	}
	t->hits[e]++;
	return FRAY_OK;
}

FRAY_API fray_status fray_aggregate(fray_ctx *ctx, fray_procedure proc,
				    fray_policy *p, const void *input,
				    size_t nfields, uint64_t seed,
				    uint64_t trials, unsigned threads,
				    fray_dist **out)
{
	fray_sim_run run = {.proc = proc, .policy = p, .input = input, .nfields = nfields,
			    .seed = seed, .first = 0, .last = trials, .threads = threads};
	return fray_aggregate_run(ctx, &run, out);
}

FRAY_API fray_status fray_aggregate_run(fray_ctx *ctx, const fray_sim_run *sr, fray_dist **out)
{
	if (!ctx)
		return FRAY_ERR_INPUT;
	fray_ctx_clear(ctx); /* each call's message is its own */
	if (!out || !sr || !sr->proc)
		return frayi_fail(ctx, FRAY_ERR_INPUT, "fray_aggregate: NULL argument");
	*out = NULL;
	size_t nfields = sr->nfields;
	if (nfields < 1 || nfields > FRAY_OUTCOME_MAX_FIELDS)
		return frayi_fail(ctx, FRAY_ERR_INTERNAL,
				 "an outcome has 1 to %d fields, not %zu",
				 FRAY_OUTCOME_MAX_FIELDS, nfields);
	if (sr->last < sr->first)
		return frayi_fail(ctx, FRAY_ERR_INPUT, "fray_aggregate: trials run backwards");
	trial_run run = {.proc = sr->proc, .policy = sr->policy, .input = sr->input, .nfields = nfields,
			 .seed = sr->seed, .first = sr->first, .last = sr->last, .stop = sr->stop,
			 .progress = sr->progress, .ud = sr->ud, .add = tally_outcome};
	unsigned workers;
	fray_status st = frayi_trial_workers(ctx, &run, sr->threads, &workers);
	if (st != FRAY_OK)
		return st;
	frayi_tally *tallies = frayi_calloc(ctx, workers, sizeof *tallies);
	void **acc = frayi_calloc(ctx, workers, sizeof *acc);
	unsigned ready = 0;
	if (!tallies || !acc)
		st = frayi_nomem(ctx);
	for (; st == FRAY_OK && ready < workers; ready++) {
		st = frayi_tally_init(&tallies[ready], ctx, nfields, false);
		acc[ready] = &tallies[ready];
	}
	if (st == FRAY_OK)
		st = frayi_run_trials(ctx, &run, workers, acc);
	/* a stopped run counted fewer trials than it divides by: no result */
	if (st == FRAY_OK && sr->stop && *sr->stop)
		st = frayi_fail(ctx, FRAY_ERR_BUDGET, "stopped before its %llu trials were done",
			       (unsigned long long)(sr->last - sr->first));
	for (unsigned i = 1; st == FRAY_OK && i < workers; i++)
		st = frayi_tally_merge(&tallies[0], &tallies[i]);
	if (st == FRAY_OK)
		st = frayi_tally_to_dist(&tallies[0], sr->last - sr->first, NULL, out);
	for (unsigned i = 0; i < ready; i++)
		frayi_tally_fini(&tallies[i]);
	frayi_dealloc(ctx, tallies);
	frayi_dealloc(ctx, acc);
	return st;
}
