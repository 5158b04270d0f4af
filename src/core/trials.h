/* Private: the engine under fray_aggregate and fray_simulate. Trials
 * [first, last) are cut into chunks that worker threads take from one
 * atomic counter; trial i draws from stream i of the seed; each worker
 * hands its outcomes to its own accumulator, which the caller adds up
 * afterwards, so totals never depend on the threads (ruling R24). */
#ifndef FRAY_TRIALS_H
#define FRAY_TRIALS_H

#include <signal.h>
#include <fray/roller.h>
#include "internal.h"

typedef struct trial_run {
	fray_procedure proc;
	fray_policy *policy;
	const void *input;
	size_t nfields;            /* at most FRAY_TRIALS_MAX_FIELDS */
	uint64_t seed, first, last;
	const volatile sig_atomic_t *stop;                        /* may be NULL */
	void (*progress)(uint64_t done, uint64_t total, void *ud); /* may be NULL */
	void *ud;
	/* Adds one trial's outcome to a worker's accumulator; on failure (out
	 * of memory, a value out of range) the status, with a message. */
	fray_status (*add)(void *acc, const int64_t *outcome, char *msg, size_t cap);
} trial_run;

#define FRAY_TRIALS_MAX_FIELDS 16

/* The threads used when none are asked for: one per online core, at most
 * FRAY_AGGREGATE_MAX_THREADS. */
unsigned frayi_threads_for_cores(long online);

/* The number of workers for `requested` threads (0: one per core), at most
 * one per chunk; fails on too many or on a policy that is not thread-safe. */
fray_status frayi_trial_workers(fray_ctx *ctx, const trial_run *run, unsigned requested,
			       unsigned *workers);

/* Runs the trials with worker i adding into acc[i]. */
fray_status frayi_run_trials(fray_ctx *ctx, const trial_run *run, unsigned workers,
			    void *const *acc);

#endif
