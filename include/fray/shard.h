/* Shard files: one slice of a battle simulation (fray adbg simulate --shard
 * I/N, kind adbg.simulate) or of a sweep (fray adbg sweep --shard I/N, kind
 * adbg.sweep), written as text, read back with every field checked against
 * the others (a tampered or truncated shard is refused with its
 * file:line:col), and merged back into exactly one run's result (ruling
 * R24: trial i always uses stream i of the seed). Texts and statuses, no
 * files and no printing: the front end reads and writes the files. */
#ifndef FRAY_SHARD_H
#define FRAY_SHARD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <fray/ctx.h>
#include <fray/data.h>
#include <fray/simulate.h>
#include <fray/status.h>
#include <fray/sweep.h>

/* The format written in "fray_shard"; another one is refused, never misread. */
#define FRAY_SHARD_VERSION 1
#define FRAY_SHARD_NAME 128 /* a name's bytes, NUL included */
#define FRAY_SHARD_MAX_SHARDS 1000000

/* The run a shard belongs to, the same in both kinds. */
typedef struct fray_shard_meta {
	char scenario[FRAY_SHARD_NAME];
	char side[2][FRAY_SHARD_NAME];
	char policy[FRAY_SHARD_NAME];
	uint64_t digest;         /* of the scenario file, its edits and policy scripts */
	uint64_t seed, trials;   /* trials of the whole run, all shards */
	uint64_t shard, nshards; /* 1-based */
} fray_shard_meta;

/* The first trial of slice i of n over trials: trials * i / n, exact
 * (trials <= FRAY_SIM_MAX_TRIALS, n <= FRAY_SHARD_MAX_SHARDS). */
uint64_t fray_shard_slice(uint64_t trials, uint64_t i, uint64_t n);
/* Whether two shards belong to the same run (and can be merged). */
bool fray_shard_same_run(const fray_shard_meta *a, const fray_shard_meta *b);
/* Whether a document is a sweep's shard (by its kind). */
bool fray_shard_is_sweep(const fray_doc *doc);

/* What fray_*_merge_add says of a shard. */
typedef enum fray_merge_verdict {
	FRAY_MERGE_ADDED,
	FRAY_MERGE_OTHER_RUN,    /* not of the run of the first shard added */
	FRAY_MERGE_TWICE,        /* its shard number was added already */
	FRAY_MERGE_NOMEM
} fray_merge_verdict;

/* ---- a simulation's shard: kind adbg.simulate ---- */

typedef struct fray_sim_shard {
	fray_shard_meta m;
	uint64_t first, last;    /* the trials it covers, [first, last) */
	fray_sim *sim;           /* its trials: those counted (fewer if stopped) */
} fray_sim_shard;

/* The shard's text (trials [first, last) of m's run, counted in s).
 * *out is malloc'd: free() it; *len its length. FRAY_ERR_NOMEM. */
fray_status fray_sim_shard_text(const fray_shard_meta *m, const fray_sim *s, uint64_t first, uint64_t last,
				char **out, size_t *len);
/* Reads a shard from a loaded document; every problem is recorded on doc
 * (file:line:col). True when it read. sh->sim is new (or NULL): the caller
 * frees it with fray_sim_free, whether or not it read. */
bool fray_sim_shard_read(fray_doc *doc, fray_sim_shard *sh);

/* Shards added into one run's counts. Start from {0}. */
typedef struct fray_sim_merge {
	fray_shard_meta m;       /* the run's (of the first shard added) */
	fray_sim *total;         /* the counts added */
	uint64_t *seen;          /* a bit per shard number */
	uint64_t merged;
	bool partial;            /* a shard was stopped early */
} fray_sim_merge;
fray_merge_verdict fray_sim_merge_add(fray_sim_merge *mg, const fray_sim_shard *sh);
/* After the last shard: why the result is partial into why ("" when it is
 * whole: every shard, none stopped early), and m made one whole run. */
void fray_sim_merge_end(fray_sim_merge *mg, char *why, size_t cap);
void fray_sim_merge_free(fray_sim_merge *mg);

/* ---- a sweep's shard: kind adbg.sweep, by points or by trials ---- */

typedef struct fray_sweep_shard_point {
	uint64_t index;                                      /* 0-based, in the sweep */
	char values[FRAY_SWEEP_MAX_KNOBS][FRAY_SWEEP_VALUE];
	bool baseline;                                       /* the scenario's own values */
	bool grid;                                           /* false: the baseline, added */
	fray_sim *sim;
} fray_sweep_shard_point;

typedef struct fray_sweep_shard {
	fray_ctx *ctx;                                       /* the points' memory */
	fray_shard_meta m;
	bool by_trials;                                      /* else by points */
	uint64_t first, last;                                /* the trials of each point */
	char vary[FRAY_SWEEP_MAX_KNOBS][FRAY_SWEEP_VALUE];
	int nvary;
	uint64_t npoints;                                    /* of the whole sweep */
	uint64_t lo, hi;                                     /* this shard's points, [lo, hi) */
	fray_sweep_shard_point *points;                      /* them (fray_sweep_shard_read) */
	size_t n;
} fray_sweep_shard;

/* The first point of slice i of n (0-based) when a sweep is split by
 * points: npoints * i / n. */
uint64_t fray_sweep_point_slice(uint64_t npoints, uint64_t i, uint64_t n);
/* The text of a sweep's shard: m's run, the knobs and points [lo, hi) of
 * w (each point's trials [first, last)). *out malloc'd: free() it. The
 * run is on the first lines, the last of them ending `"points": [`; then
 * comes one point a line, each but the last ending in `,`, the last in
 * `]}` (`"points": []}` when the shard has none). One JSON document, read
 * whole by fray_sweep_shard_read, or a line at a time (the head, then
 * each point) by a reader of any number of points. */
fray_status fray_sweep_shard_text(const fray_shard_meta *m, const fray_sweep *w, bool by_trials, uint64_t first,
				  uint64_t last, size_t lo, size_t hi, char **out, size_t *len);
/* Reads a sweep shard (problems recorded on doc; out of memory as
 * "out of memory" there); the caller frees it with fray_sweep_shard_free
 * whether or not it read. */
bool fray_sweep_shard_read(fray_ctx *ctx, fray_doc *doc, fray_sweep_shard *sh);
void fray_sweep_shard_free(fray_sweep_shard *sh);
/* A shard read a line at a time: its head (the document of the first lines
 * with `]}` after their `"points": [`, points ignored) sets everything but
 * the points, sh->lo and sh->hi saying which points follow. */
bool fray_sweep_shard_read_head(fray_ctx *ctx, fray_doc *doc, fray_sweep_shard *sh);
/* Point index (lo <= index < hi) from the map pn (a line's, its `,` or
 * `]}` taken off); problems recorded on doc. p->sim is new (the one p had
 * freed): the caller frees it with fray_sim_free. */
bool fray_sweep_shard_read_point(fray_doc *doc, const fray_node *pn, const fray_sweep_shard *sh, uint64_t index,
				 fray_sweep_shard_point *p);

/* A sweep's shards added point by point. Start from {.ctx = ctx}. g holds
 * every point of the sweep (sim NULL for a point no shard had, dropped by
 * fray_sweep_merge_end), its paths and values the merge's own. */
typedef struct fray_sweep_merge {
	fray_ctx *ctx;
	fray_shard_meta m;
	bool by_trials;
	char vary[FRAY_SWEEP_MAX_KNOBS][FRAY_SWEEP_VALUE];
	fray_sweep g;
	bool *seen;
	uint64_t merged;
	bool partial;
} fray_sweep_merge;
fray_merge_verdict fray_sweep_merge_add(fray_sweep_merge *mg, const fray_sweep_shard *sh);
/* The same a point at a time, for a shard read a line at a time: begin
 * with its head (sh's points unused), then each point. A verdict other
 * than FRAY_MERGE_ADDED leaves the merge spoilt: free it. */
fray_merge_verdict fray_sweep_merge_begin(fray_sweep_merge *mg, const fray_sweep_shard *sh);
fray_merge_verdict fray_sweep_merge_point(fray_sweep_merge *mg, const fray_sweep_shard *sh,
					  const fray_sweep_shard_point *p);
/* After the last shard: why partial (as fray_sim_merge_end), the points no
 * shard had dropped from g, m made one whole run. */
void fray_sweep_merge_end(fray_sweep_merge *mg, char *why, size_t cap);
void fray_sweep_merge_free(fray_sweep_merge *mg);

#endif
