/* A simulation shard file (fray adbg simulate --shard I/N --output FILE):
 * what it records and how it is read back. Kept apart from the printing so
 * the reader can be fuzzed on its own (fuzz/fuzz_shard.c). */
#ifndef FRAY_CLI_SHARD_H
#define FRAY_CLI_SHARD_H

#include <stdbool.h>
#include <stdint.h>
#include <fray/fray.h>

/* The format written in "fray_shard"; another one is refused, never misread. */
#define SHARD_VERSION 1

typedef struct sim_meta {
	char scenario[128];
	char side[2][128];
	char policy[128];
	uint64_t digest;         /* of the scenario file */
	uint64_t seed, trials;   /* trials of the whole run, all shards */
	uint64_t shard, nshards; /* 1-based */
} sim_meta;

typedef struct sim_shard {
	sim_meta m;
	uint64_t first, last;    /* the trials it covers, [first, last) */
	fray_sim *sim;           /* its trials: those counted (fewer if stopped) */
} sim_shard;

/* The first trial of slice i of n over `trials`: trials * i / n, exact. */
uint64_t sim_slice(uint64_t trials, uint64_t i, uint64_t n);

/* Reads a shard from a loaded document; every problem is recorded on doc
 * (file:line:col). True when it read. sh->sim is new (or NULL): the caller
 * frees it with fray_sim_free, whether or not it read. */
bool shard_read(fray_doc *doc, sim_shard *sh);

/* Whether two shards belong to the same run (and can be merged). */
bool shard_same_run(const sim_meta *a, const sim_meta *b);

/* ---- a sweep's shard (fray adbg sweep --shard I/N): kind adbg.sweep ---- */

#define SWEEP_MAX_VARY FRAY_SWEEP_MAX_KNOBS /* include/fray/sweep.h */
#define SWEEP_VALUE FRAY_SWEEP_VALUE

typedef struct sweep_shard_point {
	uint64_t index;                              /* 0-based, in the sweep */
	char values[SWEEP_MAX_VARY][SWEEP_VALUE];
	bool baseline;                               /* the scenario's own values */
	bool grid;                                   /* false: the baseline, added */
	fray_sim *sim;
} sweep_shard_point;

typedef struct sweep_shard {
	sim_meta m;
	bool by_trials;                              /* else by points */
	uint64_t first, last;                        /* the trials of each point */
	char vary[SWEEP_MAX_VARY][SWEEP_VALUE];
	int nvary;
	uint64_t npoints;                            /* of the whole sweep */
	sweep_shard_point *points;                   /* this shard's */
	size_t n;
} sweep_shard;

/* The points of slice i of n (0-based) when a sweep is split by points:
 * [npoints*i/n, npoints*(i+1)/n). */
#define sweep_point_slice(npoints, i, n) ((npoints) * (i) / (n))

/* Reads a sweep shard (problems recorded on doc); the caller frees it with
 * sweep_shard_free whether or not it read. */
bool sweep_shard_read(fray_doc *doc, sweep_shard *sh);
void sweep_shard_free(sweep_shard *sh);
/* Whether a document is a sweep's shard (by its kind). */
bool shard_is_sweep(const fray_doc *doc);

#endif
