/* A sweep of an ADBG scenario for a designer: knobs (a path of the
 * scenario file, or `units`) and their values (lists and ranges), the grid
 * of points with the scenario's own values as the baseline, a target to
 * filter and sort the points by, and which knobs move the result
 * (sensitivity). Each point is a simulation of quick battles (ADBG 19)
 * with the same dice (fray_simulate); the points' scenarios are read with
 * include/fray/scenario_edit.h. Statuses and messages, no printing. */
#ifndef FRAY_SWEEP_H
#define FRAY_SWEEP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <fray/ctx.h>
#include <fray/data.h>
#include <fray/scenario_edit.h>
#include <fray/simulate.h>

#define FRAY_SWEEP_MAX_KNOBS 4
#define FRAY_SWEEP_VALUE 128      /* a value's bytes, NUL included */
#define FRAY_SWEEP_MAX_POINTS 10000

/* One knob: a path and its values, ranges expanded; base: the scenario's
 * own value (fray_sweep_bases). Its memory is the context's. */
typedef struct fray_sweep_knob {
	char *path;
	char **values;
	int nvalues, cap;
	char *base;
} fray_sweep_knob;

/* "PATH=V1,V2,..." where a value may be a range of whole numbers FROM..TO
 * or FROM..TO:STEP (1..5, 1..9:2); at most max_values values. A text
 * that is not one: FRAY_ERR_INPUT naming --vary and what it expects. */
fray_status fray_sweep_knob_parse(fray_ctx *ctx, const char *text, int max_values, fray_sweep_knob *k);
void fray_sweep_knob_free(fray_ctx *ctx, fray_sweep_knob *k);

/* Each knob's base: the scenario's value at its path (`none` for units). */
fray_status fray_sweep_bases(fray_ctx *ctx, fray_doc *doc, fray_sweep_knob *knobs, int nk);

/* Two values are the same when their texts are, or both are the same
 * whole number ("3" and "03"). */
bool fray_sweep_same_value(const char *a, const char *b);

typedef struct fray_sweep_point {
	const char *val[FRAY_SWEEP_MAX_KNOBS];
	bool baseline;           /* the scenario's own values */
	bool grid;               /* false: the baseline, added before the grid */
	fray_sim *sim;           /* its battles (the caller's) */
} fray_sweep_point;

typedef struct fray_sweep {
	int nk;
	const char *paths[FRAY_SWEEP_MAX_KNOBS];
	fray_sweep_point *pts;
	size_t np;
} fray_sweep;

/* The grid of the knobs' values (the last knob varying fastest), with the
 * baseline first when it is not one of them; more than max_points points:
 * FRAY_ERR_INPUT. w->pts is the context's: fray_sweep_points_free. */
fray_status fray_sweep_points(fray_ctx *ctx, const fray_sweep_knob *knobs, int nk, uint64_t max_points,
			      fray_sweep *w);
void fray_sweep_points_free(fray_ctx *ctx, fray_sweep *w);

/* The edits that make point pt: sets (--set) first, then each knob's
 * value; ed has room for nsets + w->nk. Returns how many. */
int fray_sweep_point_edits(const fray_adbg_edit *sets, int nsets, const fray_sweep *w, const fray_sweep_point *pt,
			   fray_adbg_edit *ed);

/* The battles of point p: its scenario read with the edits (sets, then
 * the point's values; how->problem told what does not read), then the
 * quick battle (ADBG 19, fray_adbg_battle_stats_procedure) simulated as
 * run says (its policy, seed, trials, threads, stop and progress; proc,
 * input and nfields are set here) into w->pts[p].sim, new: the caller
 * frees it with fray_sim_free, whatever the status. */
fray_status fray_sweep_run_point(fray_ctx *ctx, fray_doc *doc, const fray_adbg_edit_read *how,
				 const fray_adbg_edit *sets, int nsets, fray_sweep *w, size_t p, const fray_sim_run *run);

/* ---- a point's battles: outcome 0 side 1 wins, 1 side 2 wins, 2 a draw ---- */
uint64_t fray_sweep_count(const fray_sim *s, int outcome);
double fray_sweep_rate(const fray_sim *s, int outcome);
double fray_sweep_mean_losses(const fray_sim *s, int side);
/* The same battles: winners, rounds and every loss counted alike (units
 * left standing aside: an added unit that never fights changes nothing). */
bool fray_sweep_same_sims(const fray_sim *a, const fray_sim *b);

/* ---- a target: an outcome's rate, or the gap between two, against a number ---- */
typedef struct fray_sweep_target {
	bool on;
	int a, b;                /* outcomes as above; b: -1 for one */
	char op;                 /* '<', '>', 'l' (<=), 'g' (>=), '=' (every point, closest first) */
	double c;
	const char *text;
} fray_sweep_target;

/* "draw<0.4", "A>=45%", "|A-B|<0.03", "kentucky=0.5": outcomes A, B, draw
 * (side1, side2, ...) or a side's id (ids[i], may be "") or name; N a rate
 * from -1 to 1 or a percentage. FRAY_ERR_INPUT naming --target otherwise. */
fray_status fray_sweep_target_parse(fray_ctx *ctx, const char *text, const char *const ids[2],
				    const char *const names[2], fray_sweep_target *t);
double fray_sweep_target_value(const fray_sweep_target *t, const fray_sim *s);
bool fray_sweep_target_met(const fray_sweep_target *t, double v);
/* The points to show, into order (room for w->np): every point with no
 * target; with one, those meeting it, closest first (ties by number).
 * Returns how many; FRAY_ERR_NOMEM is told as (size_t)-1. */
size_t fray_sweep_order(fray_ctx *ctx, const fray_sweep *w, const fray_sweep_target *t, size_t *order);

/* ---- sensitivity: how far each knob moves the win rates ---- */
#define FRAY_SWEEP_SENS_VALUES 64
typedef struct fray_sweep_sens {
	int knob;
	double lo[3], hi[3];     /* each outcome's lowest and highest mean rate over the knob's values */
	bool no_effect;          /* the same battles at every value */
	double score;            /* the largest move of a side's win rate; -1 with no effect */
	const char *vals[FRAY_SWEEP_SENS_VALUES]; /* its distinct values (the first 64) */
	int cls[FRAY_SWEEP_SENS_VALUES];          /* values with the same battles share a class */
	int nvals;
} fray_sweep_sens;

/* For each knob, into out[w->nk], the largest move first. A value's mean
 * is over the grid points with it (the other knobs averaged over); values
 * give the same battles when they do wherever the other knobs agree (the
 * same dice: common random numbers). Past 2000 points no pair is compared. */
void fray_sweep_sensitivity(const fray_sweep *w, fray_sweep_sens *out);

/* Why e's values that gave the same battles did: 1 the scenario reads the
 * same for the battle at each (the value is never read), 0 it does not (a
 * table's cap, a unit that never fights), -1 cannot tell. Reads the
 * scenario of doc again at the first grid point with knob e->knob changed. */
int fray_sweep_same_reading(fray_ctx *ctx, fray_doc *doc, const fray_adbg_edit_read *how,
			    const fray_adbg_edit *sets, int nsets, const fray_sweep *w, const fray_sweep_sens *e);

#endif
