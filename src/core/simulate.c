/* The streaming simulator (include/fray/simulate.h). Threads take chunks of
 * trials from one atomic counter; each keeps its own histograms, summed at
 * the end, so the totals do not depend on which thread ran which chunk. */
#include <fray/simulate.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "roller_internal.h"

enum { CHUNK = 4096 };

typedef struct shared {
	const fray_sim_run *run;
	uint64_t chunks;
	atomic_uint_fast64_t next_chunk;
	atomic_uint_fast64_t done;
	atomic_uint running;
} shared;

typedef struct worker {
	shared *sh;
	fray_roller roller;
	fray_sim sim;
	fray_status status;
	uint64_t failed_trial;
	char msg[FRAY_MSG_MAX];
} worker;

static bool stopped(const fray_sim_run *run)
{
	return run->stop && *run->stop;
}

/* One trial into w->sim; false on failure (recorded on w). */
static bool trial(worker *w, uint64_t t)
{
	const fray_sim_run *run = w->sh->run;
	fray_roller *r = &w->roller;
	int64_t outcome[FRAY_SIM_MAX_FIELDS] = {0};
	fray_rng_init(&r->rng, run->seed, t);
	fray_roller_begin_run(r);
	fray_policy_reset(run->policy);
	fray_policy_begin_trial(run->policy, t);
	run->proc(r, run->policy, run->input, outcome);
	if (r->status == FRAY_OK) {
		for (size_t f = 0; f < run->nfields; f++)
			if (outcome[f] < 0 || outcome[f] > FRAY_SIM_MAX_VALUE) {
				r->status = FRAY_ERR_INTERNAL;
				snprintf(r->msg, sizeof r->msg, "outcome field %zu is %lld, outside 0..%d",
					 f, (long long)outcome[f], FRAY_SIM_MAX_VALUE);
			}
	}
	if (r->status != FRAY_OK) {
		w->status = r->status;
		w->failed_trial = t;
		snprintf(w->msg, sizeof w->msg, "trial %llu: %.400s", (unsigned long long)t, r->msg);
		return false;
	}
	for (size_t f = 0; f < run->nfields; f++)
		w->sim.count[f][outcome[f]]++;
	w->sim.trials++;
	return true;
}

static void *work(void *arg)
{
	worker *w = arg;
	shared *sh = w->sh;
	const fray_sim_run *run = sh->run;
	while (!stopped(run)) {
		uint64_t c = atomic_fetch_add(&sh->next_chunk, 1);
		if (c >= sh->chunks)
			break;
		uint64_t lo = run->first + c * CHUNK;
		uint64_t hi = run->last - lo < CHUNK ? run->last : lo + CHUNK;
		for (uint64_t t = lo; t < hi; t++)
			if (!trial(w, t)) {
				atomic_store(&sh->next_chunk, UINT64_MAX / 2); /* others stop too */
				goto out;
			}
		atomic_fetch_add(&sh->done, hi - lo);
	}
out:
	atomic_fetch_sub(&sh->running, 1);
	return NULL;
}

static void pause_tenth(void)
{
	struct timespec ts = {0, 100000000};
	nanosleep(&ts, NULL);
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
	unsigned threads = run->threads;
	if (threads == 0) {
		long n = sysconf(_SC_NPROCESSORS_ONLN);
		threads = n > 0 ? (unsigned)n : 1;
	}
	if (threads > FRAY_AGGREGATE_MAX_THREADS)
		return fray_fail(ctx, FRAY_ERR_LIMIT, "at most %u threads, not %u",
				 FRAY_AGGREGATE_MAX_THREADS, threads);
	uint64_t chunks = (run->last - run->first + CHUNK - 1) / CHUNK;
	if (threads > chunks)
		threads = chunks ? (unsigned)chunks : 1;
	if (threads > 1 && run->policy && !fray_policy_thread_safe(run->policy))
		return fray_fail(ctx, FRAY_ERR_INPUT, "policy '%s' cannot answer from several threads; "
				 "use one thread", fray_policy_name(run->policy));

	worker *ws = fray_calloc(ctx, threads, sizeof *ws);
	pthread_t *tids = fray_calloc(ctx, threads, sizeof *tids);
	if (!ws || !tids) {
		fray_dealloc(ctx, ws);
		fray_dealloc(ctx, tids);
		return fray_nomem(ctx);
	}
	shared sh = {.run = run, .chunks = chunks};
	atomic_init(&sh.next_chunk, 0);
	atomic_init(&sh.done, 0);
	atomic_init(&sh.running, threads);
	for (unsigned i = 0; i < threads; i++) {
		ws[i].sh = &sh;
		ws[i].roller = (fray_roller){.ctx = ctx, .mode = ROLLER_SAMPLE};
		ws[i].sim.nfields = run->nfields;
	}
	/* Workers run on threads of their own when there are several or when
	 * someone watches the progress; a worker whose thread will not start
	 * runs here, after the others, with the same totals. */
	bool spawn = threads > 1 || run->progress;
	unsigned started = 0;
	if (spawn)
		for (; started < threads; started++)
			if (pthread_create(&tids[started], NULL, work, &ws[started]) != 0)
				break;
	if (run->progress && started == threads) {
		while (atomic_load(&sh.running) > 0) {
			pause_tenth();
			run->progress(atomic_load(&sh.done), run->last - run->first, run->ud);
		}
	}
	for (unsigned i = started; i < threads; i++)
		work(&ws[i]);
	for (unsigned i = 0; i < started; i++)
		pthread_join(tids[i], NULL);

	/* the failure of the lowest trial wins, whatever the threads */
	const worker *failed = NULL;
	for (unsigned i = 0; i < threads; i++)
		if (ws[i].status != FRAY_OK && (!failed || ws[i].failed_trial < failed->failed_trial))
			failed = &ws[i];
	fray_status st = FRAY_OK;
	if (failed)
		st = fray_fail(ctx, failed->status, "%s", failed->msg);
	else
		for (unsigned i = 0; i < threads; i++)
			fray_sim_add(out, &ws[i].sim);
	fray_dealloc(ctx, ws);
	fray_dealloc(ctx, tids);
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
}
