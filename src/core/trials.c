/* The trial engine (trials.h): chunks, threads, progress, stop, failures. */
#include "trials.h"
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>
#include "roller_internal.h"

enum { CHUNK = 4096 };

typedef struct shared {
	const trial_run *run;
	uint64_t chunks;
	atomic_uint_fast64_t next_chunk;
	atomic_uint_fast64_t done;
	atomic_uint running;
} shared;

typedef struct worker {
	shared *sh;
	void *acc;
	fray_roller roller;
	fray_status status;
	bool says_progress; /* run here, no thread watching: it says its progress itself */
	uint64_t failed_trial;
	char msg[FRAY_MSG_MAX];
} worker;

static bool stopped(const trial_run *run)
{
	return run->stop && *run->stop;
}

/* One trial into w->acc; false on failure (recorded on w). */
static bool trial(worker *w, uint64_t t)
{
	const trial_run *run = w->sh->run;
	fray_roller *r = &w->roller;
	int64_t outcome[FRAY_TRIALS_MAX_FIELDS] = {0};
	fray_rng_init(&r->rng, run->seed, t);
	frayi_roller_begin_run(r);
	fray_policy_reset(run->policy);
	fray_policy_begin_trial(run->policy, t);
	run->proc(r, run->policy, run->input, outcome);
	if (r->status == FRAY_OK)
		r->status = run->add(w->acc, outcome, r->msg, sizeof r->msg);
	if (r->status != FRAY_OK) {
		w->status = r->status;
		w->failed_trial = t;
		snprintf(w->msg, sizeof w->msg, "trial %llu: %.400s", (unsigned long long)t, r->msg);
		return false;
	}
	return true;
}

static void *work(void *arg)
{
	worker *w = arg;
	shared *sh = w->sh;
	const trial_run *run = sh->run;
	while (!stopped(run)) {
		uint64_t c = atomic_fetch_add(&sh->next_chunk, 1);
		if (c >= sh->chunks)
			break;
		uint64_t lo = run->first + c * CHUNK;
		uint64_t hi = run->last - lo < CHUNK ? run->last : lo + CHUNK;
		for (uint64_t t = lo; t < hi; t++)
			if (!trial(w, t)) {
				atomic_store(&sh->next_chunk, sh->chunks); /* the others stop too */
				goto out;
			}
		atomic_fetch_add(&sh->done, hi - lo);
		if (w->says_progress)
			run->progress(atomic_load(&sh->done), run->last - run->first, run->ud);
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

unsigned frayi_threads_for_cores(long online)
{
	/* one per core, but never more than fray allows: a machine with more
	 * cores than that is no reason to refuse (the limit is for --threads) */
	if (online < 1)
		return 1;
	return online > (long)FRAY_AGGREGATE_MAX_THREADS ? FRAY_AGGREGATE_MAX_THREADS : (unsigned)online;
}

fray_status frayi_trial_workers(fray_ctx *ctx, const trial_run *run, unsigned requested,
			       unsigned *workers)
{
	unsigned threads = requested ? requested : frayi_threads_for_cores(sysconf(_SC_NPROCESSORS_ONLN));
	if (threads > FRAY_AGGREGATE_MAX_THREADS)
		return frayi_fail(ctx, FRAY_ERR_LIMIT, "at most %u threads, not %u", FRAY_AGGREGATE_MAX_THREADS,
				 threads);
	/* asking several threads of a policy that cannot is refused, even when
	 * the trials are too few to give them work */
	if (threads > 1 && run->policy && !fray_policy_thread_safe(run->policy))
		return frayi_fail(ctx, FRAY_ERR_INPUT, "policy '%s' cannot answer from several threads; "
				 "use one thread", fray_policy_name(run->policy));
	uint64_t chunks = (run->last - run->first + CHUNK - 1) / CHUNK;
	if (threads > chunks)
		threads = chunks ? (unsigned)chunks : 1;
	*workers = threads;
	return FRAY_OK;
}

fray_status frayi_run_trials(fray_ctx *ctx, const trial_run *run, unsigned workers, void *const *acc)
{
	worker *ws = frayi_calloc(ctx, workers, sizeof *ws);
	pthread_t *tids = frayi_calloc(ctx, workers, sizeof *tids);
	if (!ws || !tids) {
		frayi_dealloc(ctx, ws);
		frayi_dealloc(ctx, tids);
		return frayi_nomem(ctx);
	}
	shared sh = {.run = run, .chunks = (run->last - run->first + CHUNK - 1) / CHUNK};
	atomic_init(&sh.next_chunk, 0);
	atomic_init(&sh.done, 0);
	atomic_init(&sh.running, workers);
	for (unsigned i = 0; i < workers; i++) {
		ws[i].sh = &sh;
		ws[i].acc = acc[i];
		ws[i].roller = (fray_roller){.ctx = ctx, .mode = ROLLER_SAMPLE};
	}
	/* Workers run on threads of their own when there are several or when
	 * someone watches the progress; a worker whose thread will not start
	 * runs here, after the others, with the same totals. */
	unsigned started = 0;
	if (workers > 1 || run->progress)
		for (; started < workers; started++)
			if (pthread_create(&tids[started], NULL, work, &ws[started]) != 0)
				break;
	if (run->progress && started == workers) {
		while (atomic_load(&sh.running) > 0) {
			pause_tenth();
			run->progress(atomic_load(&sh.done), run->last - run->first, run->ud);
		}
	}
	/* a worker run here (the WebAssembly build has no threads) says its
	 * progress after each chunk: the caller's progress is also where its
	 * time budget sets the stop (src/wasm/fray_wasm.c) */
	for (unsigned i = started; i < workers; i++) {
		ws[i].says_progress = run->progress != NULL;
		work(&ws[i]);
	}
	for (unsigned i = 0; i < started; i++)
		pthread_join(tids[i], NULL);

	/* the failure of the lowest trial wins, whatever the threads */
	const worker *failed = NULL;
	for (unsigned i = 0; i < workers; i++)
		if (ws[i].status != FRAY_OK && (!failed || ws[i].failed_trial < failed->failed_trial))
			failed = &ws[i];
	fray_status st = failed ? frayi_fail(ctx, failed->status, "%s", failed->msg) : FRAY_OK;
	frayi_dealloc(ctx, ws);
	frayi_dealloc(ctx, tids);
	return st;
}
