/* Rollers: rules code never touches an RNG; it asks a roller for every
 * random event and a policy for every decision. The same procedure runs
 * under three modes (DESIGN.md, "One rules function, three modes"):
 * sampling (one seeded run that tells its story), enumerating (every path,
 * exact probabilities) and aggregating (many sampled trials on threads). */
#ifndef FRAY_ROLLER_H
#define FRAY_ROLLER_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <fray/ctx.h>
#include <fray/dist.h>
#include <fray/events.h>
#include <fray/policy.h>

typedef struct fray_roller fray_roller;

/* ---- The primitives rules code calls. `what` labels the event. ---- */

/* One die: 1..sides (sides >= 1). */
int fray_die(fray_roller *r, int sides, const char *what);
/* One die read through a table: the procedure looks at the face only as
 * cls[face - 1] (a CRT's rows, a check's faces), so faces of one class
 * give one result. Sampling rolls the die as fray_die does; enumeration
 * makes one branch per class, weighted by its faces, and returns the
 * class's lowest face. 1 <= sides <= FRAY_DIE_CLASSED_MAX_SIDES. */
#define FRAY_DIE_CLASSED_MAX_SIDES 100
int fray_die_classed(fray_roller *r, int sides, const unsigned char *cls, const char *what);
/* n dice of `sides`, the number showing `need` or more: one event with n+1
 * outcomes (binomial), not n events. 0 <= n <= FRAY_SUCCESSES_MAX_DICE:
 * Presidio's largest roll, a unit of 1000 figures (the catalogue's bound)
 * firing two actions of independent fire together (2000 dice). */
#define FRAY_SUCCESSES_MAX_DICE 2000
int fray_successes(fray_roller *r, int n, int sides, int need,
		   const char *what);
/* n dice of `sides`, the number showing k or less: the mirror of
 * fray_successes, one binomial event. */
int fray_count_at_most(fray_roller *r, int n, int sides, int k, const char *what);
/* One item drawn without replacement from a pool of ncat categories holding
 * counts[i] items each (sum > 0): returns the category, with probability
 * counts[i] / sum. The caller removes the item (counts[i]--) before the
 * next draw. */
size_t fray_draw(fray_roller *r, const unsigned *counts, size_t ncat,
		 const char *what);
/* fray_draw, the item told by name: the event's text is labels[category]
 * ("C14 Flanking fire": "chit: draw from 30 -> C14 Flanking fire"), so
 * the caller need not tell it again. labels NULL: told as "item N". The
 * labels are read only during the call. */
size_t fray_draw_named(fray_roller *r, const unsigned *counts, size_t ncat,
		       const char *what, const char *const *labels);
/* k items drawn at once without replacement from ncat categories of
 * counts[i] items (k <= their sum): drawn[i] gets how many of category i
 * came out. Under enumeration it is one event whose branches are the
 * ways to split k among the categories, with multivariate hypergeometric
 * probabilities (prod C(counts[i], drawn[i]) / C(sum, k)); under sampling
 * the items are drawn one by one and each is told. ncat <= FRAY_DEAL_MAX_CATS. */
#define FRAY_DEAL_MAX_CATS 128
void fray_deal(fray_roller *r, const unsigned *counts, size_t ncat, unsigned k,
	       unsigned *drawn, const char *what);
/* The same deal, resolved only as far as the procedure looks: a procedure
 * that reads a few kinds of a many-kind pool (how many of the two
 * ambushes among ten chits) opens the deal with fray_deal_open and asks
 * fray_dealt_count for each kind it needs. Under enumeration each kind
 * asked is one event (hypergeometric given the kinds asked before) and
 * the kinds never asked are never split: far fewer branches than
 * fray_deal's. Under sampling the items are drawn one by one at the open,
 * as fray_deal does. The struct is the caller's (on its stack). */
typedef struct fray_dealt {
	unsigned counts[FRAY_DEAL_MAX_CATS];
	unsigned drawn[FRAY_DEAL_MAX_CATS];
	bool known[FRAY_DEAL_MAX_CATS];
	size_t ncat;
	unsigned k, items_left, pool_left; /* over the kinds not yet known */
	const char *what;
} fray_dealt;
void fray_deal_open(fray_roller *r, const unsigned *counts, size_t ncat, unsigned k,
		    fray_dealt *d, const char *what);
unsigned fray_dealt_count(fray_roller *r, fray_dealt *d, size_t cat);
/* The re-roll-and-add die (Presidio morale, ruling R16): one die; on its top
 * face it is rolled once more and the two are added. Results 1..sides-1,
 * sides+1..2*sides; 2*sides means the top face came up twice. */
int fray_reroll_add(fray_roller *r, int sides, const char *what);

/* A die rolled against a target: true when it shows k or less (0 <= k <=
 * sides). The face rolled goes to *face. Under enumeration this is one
 * event of two branches (k/sides and the rest), and *face is the
 * representative k (success) or sides (failure): use it only when the
 * procedure cares about the comparison, not the face (its narration is
 * not rendered then). */
bool fray_roll_at_most(fray_roller *r, int sides, int k, int *face,
		       const char *what);

/* A decision: asks p, emits a DECISION event, returns the option index.
 * If the policy cannot answer, the roller stops with FRAY_ERR_POLICY and
 * the suggested option is returned. */
size_t fray_decide(fray_roller *r, fray_policy *p, const fray_choice *c);

/* True when events are being rendered: skip building narration otherwise. */
bool fray_roller_narrating(const fray_roller *r);
void fray_emit(fray_roller *r, const fray_event *ev);
/* Convenience emitters (no-ops when not narrating). */
void fray_emit_modifier(fray_roller *r, const char *what, int64_t value,
			const char *rule);
void fray_emit_result(fray_roller *r, const char *what, int64_t value,
		      const char *text, const char *rule);
void fray_emit_note(fray_roller *r, const char *text, const char *rule);
/* A TOTAL: the sum of the MODIFIERs emitted since the previous TOTAL. */
void fray_emit_total(fray_roller *r, const char *what, int64_t value, const char *rule);

/* True once the run cannot go on: the enumeration hit its depth limit, a
 * policy failed, or the procedure called fray_roller_fail. Primitives then
 * return their smallest result; a procedure whose loops depend on rolls
 * must test this and return. */
bool fray_roller_stopped(const fray_roller *r);
/* Why it stopped ("script answer 3 'x' is not an option of ..."), or "";
 * held by the roller: valid until its next run or its free. */
const char *fray_roller_stop_reason(const fray_roller *r);
/* Stops the run with status s and message msg (first failure wins). */
void fray_roller_fail(fray_roller *r, fray_status s, const char *msg);

/* State merging, for exact odds by dynamic programming (issue #16). A
 * procedure that can stop between two stages and go on from its state
 * alone (a battle between phases: units, places, the round) calls
 * fray_resume first and fray_checkpoint at each stage boundary, with the
 * whole state as plain bytes (equal bytes, same state: zero the padding;
 * at most FRAY_STATE_MAX bytes, the same size every time) and the stage,
 * a number that grows along every path (round, phase and step, say).
 *   fray_resume: true when the run is to start from a saved state, which
 *     it copies into *state; false: start from the beginning.
 *   fray_checkpoint: true when the state was taken and the procedure must
 *     return now; false: go on.
 * Under sampling both return false: the procedure runs straight through.
 * Under fray_enumerate with a memoryless policy, the paths that reach the
 * same state are merged (their probabilities summed) and the procedure is
 * run once from each state, instead of once per path. States are run from
 * in increasing order of stage, each once every path to it is in, so a
 * procedure may stop only where a die is to be rolled and skip stages. */
#define FRAY_STATE_MAX 2048
/* A stage made of its part and its step in it: a part (a battle's round)
 * is where the states may multiply again after they ran out, so the
 * exact walk's forecast (fray_enum_progress) is not given while states
 * wait in a part after the one being walked. */
#define FRAY_STAGE(part, step) ((uint64_t)(part) << 32 | (uint64_t)(step))
#define FRAY_STAGE_PART(stage) ((uint64_t)(stage) >> 32)
/* A step OR'd with FRAY_STEP_ALIKE goes the same way in whatever part it
 * is (a battle's last round played a position at a time: its course does
 * not depend on the round's number), so the forecast learns its paths and
 * the states it leaves from the stages of that step already walked, in
 * any part. Within a part such steps come after all the others. */
#define FRAY_STEP_ALIKE ((uint64_t)1 << 31)
bool fray_resume(fray_roller *r, void *state, size_t size);
/* Scratch memory the enumerator keeps while it runs the paths from one
 * state, for what the procedure derives from the state (a battle set up
 * from its bytes): *valid false on the first path from a state (fill it),
 * true on the next ones (read it back instead of deriving it again). NULL
 * when the run does not resume. size <= FRAY_SCRATCH_MAX. */
#define FRAY_SCRATCH_MAX 16384
void *fray_resume_scratch(fray_roller *r, size_t size, bool *valid);
bool fray_checkpoint(fray_roller *r, uint64_t stage, const void *state, size_t size);

/* A procedure: a pure function of its roller, policy and input, writing its
 * outcome (the number of fields its caller expects). input is read-only
 * and may be shared by threads. */
typedef void (*fray_procedure)(fray_roller *r, fray_policy *p,
			       const void *input, int64_t *outcome);

/* ---- Sampling ---- */

/* A sampling roller on stream `stream` of `seed` (see rng.h). */
fray_roller *fray_roller_sample_new(fray_ctx *ctx, uint64_t seed,
				    uint64_t stream);
void fray_roller_free(fray_roller *r);
/* A sampling roller's position in its stream (32-bit words used), and
 * back to it: to stop a run and go on later with the very same dice. */
uint64_t fray_roller_tell(const fray_roller *r);
void fray_roller_seek(fray_roller *r, uint64_t words);
/* Events go to sink (NULL: none, and nothing is rendered). */
void fray_roller_set_sink(fray_roller *r, fray_event_sink sink, void *ud);

/* Runs proc once on r. A failure inside (policy, fail) is returned with its
 * message on the context. */
fray_status fray_run(fray_roller *r, fray_procedure proc, fray_policy *p,
		     const void *input, int64_t *outcome);

/* ---- Enumerating ---- */

/* Where a walk by stages stands (fray_enum_limits.estimate). A walk's
 * length is not known before it ends: max_paths bounds it from above,
 * states_waiting (each is walked at least once) from below, and
 * forecast_paths, when not 0, is a forecast of all the paths. The forecast
 * is given only once the states waiting are clearly running out: over the
 * last three stages each state walked left fewer than 0.7 new ones
 * waiting (after merging), the remaining states are then forecast as
 * waiting / (1 - that rate), at the paths a state took over those stages,
 * and three forecasts in a row must agree within 1.5x. The stages are
 * those of the part being walked (FRAY_STAGE_PART, a battle's round), and
 * there is none while the states waiting in later parts are more than a
 * tenth of the states the part began with: a later part's growth is not
 * seen before it is walked (a few are counted at this part's paths a
 * state). While the waiting states still grow there is none; it is
 * withdrawn if the paths pass it. On the shipped battles a forecast given
 * is within 3x of the paths that were left; it comes in the last round's
 * melee, the last 4-10% of the walk (tests/core/test_enum_estimate.c). */
typedef struct fray_enum_progress {
	uint64_t paths;          /* walked so far (with the paths of the
				    parts a procedure walks on its own:
				    an ADBG battle's positions, issue 45) */
	uint64_t max_paths;      /* the budget: a bound, not a forecast */
	uint64_t stage;          /* stages begun so far (1: the beginning) */
	uint64_t stages_known;   /* stage + stages with states waiting: the
				    walk has at least this many */
	uint64_t states_waiting; /* reached and not yet walked from */
	uint64_t forecast_paths; /* all the paths, forecast; 0: no forecast */
	uint64_t part;           /* the part (FRAY_STAGE_PART, a battle's round)
				    of the stage being walked */
	uint64_t parts_known;    /* the last part with states waiting: while
				    it is past `part`, no forecast (its
				    growth is not seen yet) */
	bool done;               /* the last call: paths is the walk's total */
} fray_enum_progress;

typedef struct fray_enum_limits {
	unsigned max_depth;  /* random events on one path; deeper paths are
				cut and their mass reported as unresolved */
	uint64_t max_paths;  /* beyond this: FRAY_ERR_LIMIT (use simulate) */
	uint64_t max_bytes;  /* memory the exact numbers and the outcomes may
				take; beyond it: FRAY_ERR_BUDGET (use simulate) */
	/* Set (by a signal handler, say) to stop: FRAY_ERR_BUDGET within 64
	 * paths (looked at every 64). May be NULL. */
	const volatile sig_atomic_t *stop;
	/* Called every 65,536 paths with the paths walked and max_paths. May
	 * be NULL. */
	void (*progress)(uint64_t paths, uint64_t max_paths, void *ud);
	void *ud;
	/* Called (with ud) every 65,536 paths, when a stage begins and once
	 * at the end of a walk that ends well, with where the walk stands.
	 * May be NULL. Added after the rest: initialisers naming their
	 * members are unaffected. */
	void (*estimate)(const fray_enum_progress *pr, void *ud);
} fray_enum_limits;

#define FRAY_ENUM_DEFAULT_DEPTH 256u
#define FRAY_ENUM_DEFAULT_PATHS 20000000u
#define FRAY_ENUM_DEFAULT_BYTES (1ull << 30) /* 1 GiB */

/* Runs proc once per path of outcomes, depth first, and returns the exact
 * distribution of its outcomes (nfields integers each) in *out. The policy
 * must be deterministic; it is reset before each path. lim NULL (or a zero
 * member): defaults. The memory budget counts the outcomes collected and
 * every GMP number alive in the process (fray counts GMP's allocations:
 * see gmp_mem.c); FRAY_ERR_NOMEM when memory ran out first, never an
 * abort. A walk by stages also ends with FRAY_ERR_LIMIT as soon as its
 * projection (the states waiting, at the paths a state took, grown by one
 * more stage while they grow) passes max_paths, its message saying so:
 * early, rather than when the budget is spent. */
fray_status fray_enumerate(fray_ctx *ctx, fray_procedure proc, fray_policy *p,
			   const void *input, size_t nfields,
			   const fray_enum_limits *lim, fray_dist **out);

/* ---- Aggregating ---- */

#define FRAY_AGGREGATE_MAX_THREADS 256u

/* Runs `trials` sampled trials of proc on `threads` threads (0: one per
 * core). Trial i uses stream i of seed, so the result does not depend on
 * threads. The policy must be thread-safe when threads > 1. */
fray_status fray_aggregate(fray_ctx *ctx, fray_procedure proc, fray_policy *p,
			   const void *input, size_t nfields, uint64_t seed,
			   uint64_t trials, unsigned threads, fray_dist **out);

#endif
