/* The aggregating runner: many sampled trials on several threads. Trial i
 * draws from stream i of the seed, and threads only add integer counts, so
 * the totals are the same for any thread count (ruling R24). */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>
#include "dist_internal.h"
#include "roller_internal.h"

typedef struct worker {
	fray_procedure proc;
	fray_policy *policy;
	const void *input;
	size_t nfields;
	uint64_t seed, first, last; /* trials [first, last) */
	fray_roller roller;
	fray_tally tally;
	fray_status status;
	uint64_t failed_trial;
	char msg[FRAY_MSG_MAX];
} worker;

static void *work(void *arg)
{
	worker *w = arg;
	fray_roller *r = &w->roller;
	for (uint64_t t = w->first; t < w->last; t++) {
		int64_t outcome[FRAY_OUTCOME_MAX_FIELDS] = {0};
		fray_rng_init(&r->rng, w->seed, t);
		fray_roller_begin_run(r);
		fray_policy_reset(w->policy);
		fray_policy_begin_trial(w->policy, t);
		w->proc(r, w->policy, w->input, outcome);
		if (r->status != FRAY_OK) {
			w->status = r->status;
			w->failed_trial = t;
			snprintf(w->msg, sizeof w->msg, "trial %llu: %.400s",
				 (unsigned long long)t, r->msg);
			return NULL;
		}
		size_t e = fray_tally_slot(&w->tally, outcome);
		if (e == SIZE_MAX) {
			w->status = FRAY_ERR_NOMEM;
			w->failed_trial = t;
			snprintf(w->msg, sizeof w->msg, "out of memory");
			return NULL;
		}
		w->tally.hits[e]++;
	}
	return NULL;
}

FRAY_API fray_status fray_aggregate(fray_ctx *ctx, fray_procedure proc,
				    fray_policy *p, const void *input,
				    size_t nfields, uint64_t seed,
				    uint64_t trials, unsigned threads,
				    fray_dist **out)
{
	*out = NULL;
	if (nfields < 1 || nfields > FRAY_OUTCOME_MAX_FIELDS)
		return fray_fail(ctx, FRAY_ERR_INTERNAL,
				 "an outcome has 1 to %d fields, not %zu",
				 FRAY_OUTCOME_MAX_FIELDS, nfields);
	if (threads == 0) {
		long n = sysconf(_SC_NPROCESSORS_ONLN);
		threads = n > 0 ? (unsigned)n : 1;
	}
	if (threads > FRAY_AGGREGATE_MAX_THREADS)
		return fray_fail(ctx, FRAY_ERR_LIMIT, "at most %u threads, not %u",
				 FRAY_AGGREGATE_MAX_THREADS, threads);
	if (threads > trials)
		threads = trials ? (unsigned)trials : 1;
	if (threads > 1 && p && !fray_policy_thread_safe(p))
		return fray_fail(ctx, FRAY_ERR_INPUT,
				 "policy '%s' cannot answer from several threads; "
				 "use one thread", fray_policy_name(p));

	worker *ws = fray_calloc(ctx, threads, sizeof *ws);
	pthread_t *tids = fray_calloc(ctx, threads, sizeof *tids);
	if (!ws || !tids) {
		fray_dealloc(ctx, ws);
		fray_dealloc(ctx, tids);
		return fray_nomem(ctx);
	}
	unsigned started = 0;
	fray_status st = FRAY_OK;
	for (unsigned i = 0; i < threads; i++) {
		worker *w = &ws[i];
		*w = (worker){.proc = proc, .policy = p, .input = input,
			      .nfields = nfields, .seed = seed,
			      .first = trials * i / threads,
			      .last = trials * (i + 1) / threads};
		w->roller = (fray_roller){.ctx = ctx, .mode = ROLLER_SAMPLE};
		fray_tally_init(&w->tally, ctx, nfields, false);
	}
	if (threads == 1) {
		work(&ws[0]);
		started = 1;
	} else {
		for (; started < threads; started++)
			if (pthread_create(&tids[started], NULL, work, &ws[started]) != 0)
				break;
		/* slices whose thread would not start run here: same totals */
		for (unsigned i = started; i < threads; i++)
			work(&ws[i]);
		for (unsigned i = 0; i < started; i++)
			pthread_join(tids[i], NULL);
	}

	/* the failure of the lowest trial index wins, whatever the threads */
	const worker *failed = NULL;
	for (unsigned i = 0; i < threads; i++)
		if (ws[i].status != FRAY_OK &&
		    (!failed || ws[i].failed_trial < failed->failed_trial))
			failed = &ws[i];
	if (st == FRAY_OK && failed)
		st = fray_fail(ctx, failed->status, "%s", failed->msg);
	for (unsigned i = 1; st == FRAY_OK && i < threads; i++)
		st = fray_tally_merge(&ws[0].tally, &ws[i].tally);
	if (st == FRAY_OK)
		st = fray_tally_to_dist(&ws[0].tally, trials, NULL, out);
	for (unsigned i = 0; i < threads; i++)
		fray_tally_fini(&ws[i].tally);
	fray_dealloc(ctx, ws);
	fray_dealloc(ctx, tids);
	return st;
}
