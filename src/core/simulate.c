/* The streaming simulator (include/fray/simulate.h): the trial engine
 * (trials.h) with one set of histograms per worker, summed at the end. */
#include <fray/simulate.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "trials.h"

static fray_status add_outcome(void *acc, const int64_t *outcome, char *msg, size_t cap)
{
	fray_sim *sim = acc;
	for (size_t f = 0; f < sim->nfields; f++)
		if (outcome[f] < 0 || outcome[f] > FRAY_SIM_MAX_VALUE) {
			snprintf(msg, cap, "outcome field %zu is %lld, outside 0..%d", f, (long long)outcome[f],
				 FRAY_SIM_MAX_VALUE);
			return FRAY_ERR_INTERNAL;
		}
	for (size_t f = 0; f < sim->nfields; f++)
		sim->count[f][outcome[f]]++;
	sim->trials++;
	return FRAY_OK;
}

FRAY_API fray_status fray_simulate(fray_ctx *ctx, const fray_sim_run *run, fray_sim *out)
{
	memset(out, 0, sizeof *out);
	if (run->nfields < 1 || run->nfields > FRAY_SIM_MAX_FIELDS)
		return fray_fail(ctx, FRAY_ERR_INTERNAL, "an outcome has 1 to %d fields, not %zu",
				 FRAY_SIM_MAX_FIELDS, run->nfields);
	out->nfields = run->nfields;
	if (run->last < run->first || run->last - run->first > FRAY_SIM_MAX_TRIALS)
		return fray_fail(ctx, FRAY_ERR_LIMIT, "at most %llu trials in one run",
				 (unsigned long long)FRAY_SIM_MAX_TRIALS);
	trial_run tr = {.proc = run->proc, .policy = run->policy, .input = run->input,
			.nfields = run->nfields, .seed = run->seed, .first = run->first, .last = run->last,
			.stop = run->stop, .progress = run->progress, .ud = run->ud, .add = add_outcome};
	unsigned workers;
	fray_status st = fray_trial_workers(ctx, &tr, run->threads, &workers);
	if (st != FRAY_OK)
		return st;
	fray_sim *sims = fray_calloc(ctx, workers, sizeof *sims);
	void **acc = fray_calloc(ctx, workers, sizeof *acc);
	if (!sims || !acc) {
		fray_dealloc(ctx, sims);
		fray_dealloc(ctx, acc);
		return fray_nomem(ctx);
	}
	for (unsigned i = 0; i < workers; i++) {
		sims[i].nfields = run->nfields;
		acc[i] = &sims[i];
	}
	st = fray_run_trials(ctx, &tr, workers, acc);
	for (unsigned i = 0; st == FRAY_OK && i < workers; i++)
		fray_sim_add(out, &sims[i]);
	fray_dealloc(ctx, sims);
	fray_dealloc(ctx, acc);
	return st;
}

FRAY_API void fray_sim_add(fray_sim *into, const fray_sim *from)
{
	into->trials += from->trials;
	for (size_t f = 0; f < from->nfields; f++)
		for (int v = 0; v <= FRAY_SIM_MAX_VALUE; v++)
			into->count[f][v] += from->count[f][v];
}

FRAY_API double fray_sim_mean(const fray_sim *s, size_t field)
{
	if (!s->trials)
		return 0;
	double sum = 0;
	for (int v = 0; v <= FRAY_SIM_MAX_VALUE; v++)
		sum += (double)v * (double)s->count[field][v];
	return sum / (double)s->trials;
}

FRAY_API void fray_wilson95(uint64_t k, uint64_t n, double *lo, double *hi)
{
	if (n == 0) {
		*lo = 0;
		*hi = 1;
		return;
	}
	const double z = 1.959963984540054;
	double p = (double)k / (double)n, nn = (double)n;
	double centre = (p + z * z / (2 * nn)) / (1 + z * z / nn);
	double half = z / (1 + z * z / nn) * sqrt(p * (1 - p) / nn + z * z / (4 * nn * nn));
	*lo = centre - half < 0 ? 0 : centre - half;
	*hi = centre + half > 1 ? 1 : centre + half;
	/* exactly 0 and 1 at the ends (rounding would leave 4e-19) */
	if (k == 0)
		*lo = 0;
	if (k == n)
		*hi = 1;
}
