/* Private: the roller's state, shared by the sampling primitives
 * (roller.c, deal.c), the enumerator (enumerate.c) and the aggregator
 * (aggregate.c). */
#ifndef FRAY_ROLLER_INTERNAL_H
#define FRAY_ROLLER_INTERNAL_H

#include <gmp.h>
#include "internal.h"
#include "xq.h"

typedef enum roller_mode { ROLLER_SAMPLE, ROLLER_ENUMERATE } roller_mode;

/* One random event on the current enumeration path. */
typedef struct enum_step {
	uint32_t choice;    /* branch taken */
	uint32_t nbranches; /* branches with non-zero probability */
} enum_step;

struct deal_node;

typedef struct enum_state {
	enum_step *path;   /* max_depth steps */
	/* The probability of the first d steps: pnum[d] / pden[d] while
	 * big[d] is false (nearly always), else bigq[d]. bigq[0..nbig-1] are
	 * initialised (on first need: most enumerations never use GMP). */
	frayi_u128 *pnum, *pden;
	bool *big;
	mpq_t *bigq;
	unsigned nbig;
	unsigned depth;    /* events consumed by the current run */
	unsigned len;      /* steps recorded (replayed before extending) */
	unsigned valid;    /* prob[0..valid-1] hold for the current prefix */
	unsigned max_depth;
	mpz_t num, den;    /* a branch's probability past 128 bits */
	struct deal_node **deals; /* per depth, for fray_deal (deal.c) */
	/* bytes the deals' tables of splits hold, and may hold (deal.c) */
	size_t deal_table_bytes, deal_table_max;
	/* State merging (fray_checkpoint): on when the policy decides from
	 * the state alone. resume: the state this run starts from (NULL: the
	 * beginning); a checkpoint copies the state into key and ends the run. */
	bool staging;
	const unsigned char *resume;
	uint64_t resume_stage; /* the resumed state's stage */
	uint64_t stage;        /* the last checkpoint's */
	size_t state_size;  /* fixed by the first checkpoint; 0 before */
	bool checkpointed;
	unsigned char *key; /* FRAY_STATE_MAX bytes */
	/* fray_resume_scratch: FRAY_SCRATCH_MAX bytes, made on first need;
	 * valid once filled on the current state's first path */
	unsigned char *scratch;
	bool scratch_valid;
	/* The walk that owns this state (enumerate.c's walker; NULL in the
	 * best policy's walk), for frayi_enum_inner; and the procedure's
	 * cache for the whole walk (frayi_enum_memo), freed with it. */
	void *owner;
	void *memo;
	void (*memo_fini)(fray_ctx *ctx, void *memo);
	uint64_t memo_bytes; /* what the cache holds, in the memory budget */
} enum_state;

struct fray_roller {
	fray_ctx *ctx;
	roller_mode mode;
	fray_rng rng;
	fray_event_sink sink;
	void *sink_ud;
	/* Failure of the current run. Kept here, not on the context, so that
	 * rollers on several threads never write to one place. */
	fray_status status;
	bool truncated;
	char msg[FRAY_MSG_MAX];
	enum_state *en; /* ROLLER_ENUMERATE only */
};

/* Starts a new run: clears the failure and the truncation. */
void frayi_roller_begin_run(fray_roller *r);

/* Enumeration: the branch to take at this event (of nbranches, all of
 * non-zero probability) in *choice, or false when the path is cut (depth
 * limit) or the run has stopped. *need_prob tells the caller to give the
 * branch's probability (frayi_enum_commit_small, or en->num / en->den and
 * frayi_enum_commit); when false the prefix probability is still valid
 * from an earlier path. */
void frayi_enum_step_cut(fray_roller *r, unsigned d);
/* Inline: it is the enumerator's per-event cost (issue #33: a deal's
 * split is one event); the rare ends out of line (frayi_enum_step_cut). */
static inline bool frayi_enum_step(fray_roller *r, uint32_t nbranches, uint32_t *choice,
				  bool *need_prob)
{
	enum_state *en = r->en;
	unsigned d = en->depth;
	if (d < en->len) {
		if (en->path[d].nbranches != nbranches) {
			frayi_enum_step_cut(r, d);
			return false;
		}
	} else {
		if (d == en->max_depth) {
			frayi_enum_step_cut(r, d);
			return false;
		}
		en->path[d].choice = 0;
		en->path[d].nbranches = nbranches;
		en->len = d + 1;
	}
	*choice = en->path[d].choice;
	*need_prob = d + 1 >= en->valid;
	en->depth = d + 1;
	return true;
}
/* The branch's probability is w / d (d > 0, w > 0). */
void frayi_enum_commit_small(fray_roller *r, frayi_u128 w, frayi_u128 d);
/* The branch's probability is en->num / en->den. */
void frayi_enum_commit(fray_roller *r);

/* enumerate.c's walk, shared with the best policy's (best_walk.c): an
 * enum_state for paths of up to max_depth events, and the move to the
 * next path (false when every path has been run). */
enum_state *frayi_enum_state_new(fray_ctx *ctx, unsigned max_depth);
void frayi_enum_state_free(fray_ctx *ctx, enum_state *en);
bool frayi_enum_next_path(enum_state *en);

/* The start of a walk's paths from one state (resume NULL: the
 * beginning) of stage `stage`: nothing recorded, the run begun. */
static inline void frayi_enum_walk_start(fray_roller *r, const unsigned char *resume, uint64_t stage)
{
	enum_state *en = r->en;
	en->resume = resume;
	en->resume_stage = stage;
	en->scratch_valid = false;
	en->len = 0;
	en->valid = 1;
	frayi_roller_begin_run(r);
}

/* Runs the procedure once along the path en holds (the run begun again
 * only when the last one was cut), outcome cleared by the caller; on
 * success the path is taken as consumed. The run's failure is returned,
 * its message in r->msg. Inline: it is the walks' per-path cost. */
static inline fray_status frayi_enum_replay(fray_roller *r, fray_procedure proc, fray_policy *p,
					    const void *input, int64_t *outcome)
{
	enum_state *en = r->en;
	if (r->truncated)
		frayi_roller_begin_run(r);
	en->depth = 0;
	en->checkpointed = false;
	if (p)
		fray_policy_reset(p);
	proc(r, p, input, outcome);
	if (r->status != FRAY_OK)
		return r->status;
	/* a pure procedure consumes exactly its recorded path */
	en->len = en->depth;
	if (en->valid > en->depth + 1)
		en->valid = en->depth + 1;
	return FRAY_OK;
}

/* The bytes the deals' tables of splits may hold in a walk of this memory
 * budget (deal.c). */
size_t frayi_deal_tables_max(uint64_t max_bytes);
/* Per-depth scratch of fray_deal, freed with the enumeration. */
void frayi_deal_nodes_free(fray_ctx *ctx, struct deal_node **nodes, unsigned n);

#endif
