/* Private: the roller's state, shared by the sampling primitives
 * (roller.c), the enumerator (enumerate.c) and the aggregator (aggregate.c). */
#ifndef FRAY_ROLLER_INTERNAL_H
#define FRAY_ROLLER_INTERNAL_H

#include <gmp.h>
#include "internal.h"

typedef enum roller_mode { ROLLER_SAMPLE, ROLLER_ENUMERATE } roller_mode;

/* One random event on the current enumeration path. */
typedef struct enum_step {
	uint32_t choice;    /* branch taken */
	uint32_t nbranches; /* branches with non-zero probability */
} enum_step;

typedef struct enum_state {
	enum_step *path;   /* max_depth steps */
	mpq_t *prob;       /* prob[d]: probability of the first d steps */
	unsigned depth;    /* events consumed by the current run */
	unsigned len;      /* steps recorded (replayed before extending) */
	unsigned valid;    /* prob[0..valid-1] hold for the current prefix */
	unsigned max_depth;
	mpz_t num, den;    /* scratch for a branch's probability */
	mpq_t branch;
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
void fray_roller_begin_run(fray_roller *r);

/* Enumeration: the branch to take at this event (of nbranches, all of
 * non-zero probability) in *choice, or false when the path is cut (depth
 * limit) or the run has stopped. *need_prob tells the caller to put the
 * branch probability in en->num / en->den and call fray_enum_commit; when
 * false the prefix probability is still valid from an earlier path. */
bool fray_enum_step(fray_roller *r, uint32_t nbranches, uint32_t *choice,
		    bool *need_prob);
void fray_enum_commit(fray_roller *r);

#endif
