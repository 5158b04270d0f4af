/* Streaming simulation: many sampled trials of a procedure, kept as one
 * histogram per outcome field, so memory stays the same however many
 * trials run. Trials are cut into fixed chunks that threads take in turn;
 * trial i always draws from stream i of the seed and the counts only add,
 * so a finished run is the same for any number of threads (ruling R24),
 * and runs over disjoint slices of trials merge into the run of all. */
#ifndef FRAY_SIMULATE_H
#define FRAY_SIMULATE_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <fray/ctx.h>
#include <fray/policy.h>
#include <fray/roller.h>
#include <fray/status.h>

#define FRAY_SIM_MAX_FIELDS 16
#define FRAY_SIM_MAX_VALUE 255   /* an outcome field is 0..255 */
#define FRAY_SIM_MAX_TRIALS 1000000000000ull

/* A result: trials counted and one histogram per outcome field. Opaque,
 * so it may grow without breaking programs built against this header. */
typedef struct fray_sim fray_sim;

typedef struct fray_sim_run {
	fray_procedure proc;
	fray_policy *policy;       /* thread-safe when threads > 1 */
	const void *input;
	size_t nfields;            /* 1..FRAY_SIM_MAX_FIELDS */
	uint64_t seed;
	uint64_t first, last;      /* trials [first, last) */
	unsigned threads;          /* 0: one per core */
	/* Set (by a signal handler, say) to stop after the chunks under way;
	 * the result then counts fewer trials than asked. May be NULL. */
	const volatile sig_atomic_t *stop;
	/* Called about ten times a second from the calling thread with the
	 * trials done so far. May be NULL. */
	void (*progress)(uint64_t done, uint64_t total, void *ud);
	void *ud;
} fray_sim_run;

/* A result with nfields fields (1..FRAY_SIM_MAX_FIELDS) and nothing
 * counted; NULL when nfields is out of range or memory runs out. Free it
 * with fray_sim_free (NULL is fine). */
fray_sim *fray_sim_new(size_t nfields);
void fray_sim_free(fray_sim *s);

/* Runs the trials into out, which is cleared first and takes run's
 * nfields. */
fray_status fray_simulate(fray_ctx *ctx, const fray_sim_run *run, fray_sim *out);

/* fray_aggregate with run's stop flag and progress: the exact shares of
 * whole outcomes (up to FRAY_OUTCOME_MAX_FIELDS fields) over trials
 * [first, last) rather than histograms. Stopped: FRAY_ERR_BUDGET and no
 * distribution. */
fray_status fray_aggregate_run(fray_ctx *ctx, const fray_sim_run *run, fray_dist **out);

size_t fray_sim_nfields(const fray_sim *s);
uint64_t fray_sim_trials(const fray_sim *s);   /* trials counted */
/* The trials in which field came out as value; 0 for a field or value out
 * of range. */
uint64_t fray_sim_count(const fray_sim *s, size_t field, int value);
/* The mean of a field; 0 when nothing was counted or field is out of
 * range. */
double fray_sim_mean(const fray_sim *s, size_t field);

/* Adds from's counts to into's; FRAY_ERR_INPUT unless both have the same
 * nfields. */
fray_status fray_sim_add(fray_sim *into, const fray_sim *from);

/* Putting back a result saved elsewhere (a shard file): the trials counted,
 * then each field's count of each value. The caller checks that each
 * field's counts add up to the trials. FRAY_ERR_INPUT for a field or value
 * out of range, FRAY_ERR_LIMIT if a count would pass FRAY_SIM_MAX_TRIALS. */
void fray_sim_set_trials(fray_sim *s, uint64_t trials);
fray_status fray_sim_add_count(fray_sim *s, size_t field, int value, uint64_t count);

/* The 95% Wilson score interval of k successes in n trials. */
void fray_wilson95(uint64_t k, uint64_t n, double *lo, double *hi);

/* A rate k/n (0 when n is 0) with its 95% Wilson interval, as text: the
 * one way every report writes it. Numbers as fray_double_str writes them. */
typedef enum fray_rate_form {
	FRAY_RATE_JSON,     /* {"p": 0.25, "lo": 0.2, "hi": 0.31} */
	FRAY_RATE_CSV,      /* 0.25,0.2,0.31 */
	FRAY_RATE_PERCENT   /* " 25.00% \u00b15.50": the rate and the interval's half-width, 13 columns */
} fray_rate_form;
/* Writes into dst (cap bytes, NUL-terminated when cap > 0); returns the
 * length the whole text needs, snprintf-style. */
size_t fray_rate_str(uint64_t k, uint64_t n, fray_rate_form form, char *dst, size_t cap);

#endif
