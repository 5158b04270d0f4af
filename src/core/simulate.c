/* The streaming simulator (include/fray/simulate.h): the trial engine
 * (trials.h) with one set of histograms per worker, summed at the end. */
#include <fray/simulate.h>
#include <fray/dist.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include "trials.h"

struct fray_sim {
	size_t nfields;
	uint64_t trials;   /* trials counted */
	uint64_t count[FRAY_SIM_MAX_FIELDS][FRAY_SIM_MAX_VALUE + 1];
};

FRAY_API fray_sim *fray_sim_new(size_t nfields)
{
	if (nfields < 1 || nfields > FRAY_SIM_MAX_FIELDS)
		return NULL;
	fray_sim *s = calloc(1, sizeof *s);
	if (s)
		s->nfields = nfields;
	return s;
}

FRAY_API void fray_sim_free(fray_sim *s)
{
	free(s);
}

static fray_status add_outcome(void *acc, const int64_t *outcome, char *msg, size_t cap)
{
	fray_sim *sim = acc;
	/* every field tested at once (issue 45 item 2): a value outside
	 * 0..255, a negative one read unsigned too, has a bit above the low 8 */
	_Static_assert((FRAY_SIM_MAX_VALUE & (FRAY_SIM_MAX_VALUE + 1)) == 0, "0..2^n - 1");
	uint64_t bits = 0;
	for (size_t f = 0; f < sim->nfields; f++)
		bits |= (uint64_t)outcome[f];
	if (bits > FRAY_SIM_MAX_VALUE)
		for (size_t f = 0; f < sim->nfields; f++)
			if (outcome[f] < 0 || outcome[f] > FRAY_SIM_MAX_VALUE) {
				snprintf(msg, cap, "outcome field %zu is %lld, outside 0..%d", f,
					 (long long)outcome[f], FRAY_SIM_MAX_VALUE);
				return FRAY_ERR_INTERNAL;
			}
	for (size_t f = 0; f < sim->nfields; f++)
		sim->count[f][outcome[f]]++;
	sim->trials++;
	return FRAY_OK;
}

static void add_all(fray_sim *into, const fray_sim *from)
{
	into->trials += from->trials;
	for (size_t f = 0; f < from->nfields; f++)
		for (int v = 0; v <= FRAY_SIM_MAX_VALUE; v++)
			into->count[f][v] += from->count[f][v];
}

FRAY_API fray_status fray_simulate(fray_ctx *ctx, const fray_sim_run *run, fray_sim *out)
{
	fray_ctx_clear(ctx);
	if (!run || !out || !run->proc)
		return frayi_fail(ctx, FRAY_ERR_INPUT, "fray_simulate needs a run with a procedure and a result");
	memset(out, 0, sizeof *out);
	if (run->nfields < 1 || run->nfields > FRAY_SIM_MAX_FIELDS)
		return frayi_fail(ctx, FRAY_ERR_INTERNAL, "an outcome has 1 to %d fields, not %zu",
				 FRAY_SIM_MAX_FIELDS, run->nfields);
	out->nfields = run->nfields;
	if (run->last < run->first || run->last - run->first > FRAY_SIM_MAX_TRIALS)
		return frayi_fail(ctx, FRAY_ERR_LIMIT, "at most %llu trials in one run",
				 (unsigned long long)FRAY_SIM_MAX_TRIALS);
	trial_run tr = {.proc = run->proc, .policy = run->policy, .input = run->input,
			.nfields = run->nfields, .seed = run->seed, .first = run->first, .last = run->last,
			.stop = run->stop, .progress = run->progress, .ud = run->ud, .add = add_outcome};
	unsigned workers;
	fray_status st = frayi_trial_workers(ctx, &tr, run->threads, &workers);
	if (st != FRAY_OK)
		return st;
	fray_sim *sims = frayi_calloc(ctx, workers, sizeof *sims);
	void **acc = frayi_calloc(ctx, workers, sizeof *acc);
	if (!sims || !acc) {
		frayi_dealloc(ctx, sims);
		frayi_dealloc(ctx, acc);
		return frayi_nomem(ctx);
	}
	for (unsigned i = 0; i < workers; i++) {
		sims[i].nfields = run->nfields;
		acc[i] = &sims[i];
	}
	st = frayi_run_trials(ctx, &tr, workers, acc);
	for (unsigned i = 0; st == FRAY_OK && i < workers; i++)
		add_all(out, &sims[i]);
	frayi_dealloc(ctx, sims);
	frayi_dealloc(ctx, acc);
	return st;
}

FRAY_API fray_status fray_sim_add(fray_sim *into, const fray_sim *from)
{
	if (!into || !from || into->nfields != from->nfields)
		return FRAY_ERR_INPUT;
	add_all(into, from);
	return FRAY_OK;
}

FRAY_API size_t fray_sim_nfields(const fray_sim *s)
{
	return s ? s->nfields : 0;
}

FRAY_API uint64_t fray_sim_trials(const fray_sim *s)
{
	return s ? s->trials : 0;
}

FRAY_API uint64_t fray_sim_count(const fray_sim *s, size_t field, int value)
{
	if (!s || field >= s->nfields || value < 0 || value > FRAY_SIM_MAX_VALUE)
		return 0;
	return s->count[field][value];
}

FRAY_API void fray_sim_set_trials(fray_sim *s, uint64_t trials)
{
	if (s)
		s->trials = trials;
}

FRAY_API fray_status fray_sim_add_count(fray_sim *s, size_t field, int value, uint64_t count)
{
	if (!s || field >= s->nfields || value < 0 || value > FRAY_SIM_MAX_VALUE)
		return FRAY_ERR_INPUT;
	if (count > FRAY_SIM_MAX_TRIALS - s->count[field][value])
		return FRAY_ERR_LIMIT;
	s->count[field][value] += count;
	return FRAY_OK;
}

FRAY_API double fray_sim_mean(const fray_sim *s, size_t field)
{
	if (!s || field >= s->nfields || !s->trials)
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

FRAY_API size_t fray_rate_str(uint64_t k, uint64_t n, fray_rate_form form, char *dst, size_t cap)
{
	double lo, hi, p = n ? (double)k / (double)n : 0;
	fray_wilson95(k, n, &lo, &hi);
	int len;
	if (form == FRAY_RATE_PERCENT) {
		/* 13 columns: "100.00% \u00b10.12" (the sign is two bytes) */
		len = snprintf(dst, cap, "%6.2f%% \u00b1%4.2f", 100 * p, 100 * (hi - lo) / 2);
	} else {
		char a[40], b[40], c[40];
		fray_double_str(p, a, sizeof a);
		fray_double_str(lo, b, sizeof b);
		fray_double_str(hi, c, sizeof c);
		len = form == FRAY_RATE_JSON ? snprintf(dst, cap, "{\"p\": %s, \"lo\": %s, \"hi\": %s}", a, b, c) :
					       snprintf(dst, cap, "%s,%s,%s", a, b, c);
	}
	return len < 0 ? 0 : (size_t)len;
}
