/* Private: the best policy (best.c) and its exact walk (best_walk.c),
 * which fray_enumerate hands a policy holding a best one (issue 44). */
#ifndef FRAY_BEST_H
#define FRAY_BEST_H

#include <gmp.h>
#include "internal.h"

struct bwalk;

/* The kinds of question a walk met (fray_best_question), at most this
 * many: a rule set asks a handful. */
#define FRAY_BEST_KINDS 32

typedef struct frayi_best {
	fray_ctx *ctx;
	fray_goal goal;
	fray_outcome_worth worth;
	struct bwalk *walk; /* the walk asking, NULL outside one */
	bool plain; /* the walk has every question take the heuristic's answer */
	/* the last walk's report (fray_policy_best_value, _question) */
	bool valued;
	mpq_t value[2];
	fray_goal goals[2]; /* each side's, as valued */
	fray_best_question q[FRAY_BEST_KINDS];
	size_t nq;
} frayi_best;

/* The best policy answering side s's questions within p (p itself, or a
 * side of a pair), or NULL. Side -1 is asked of side 0's policy. */
frayi_best *frayi_best_of(const fray_policy *p, int side);
/* The policy p hands side s's questions to (p itself unless a pair). */
fray_policy *frayi_policy_side(const fray_policy *p, int side);
/* p's self when p's ops are ops, else NULL (policy.c). */
void *frayi_policy_self_if(const fray_policy *p, const fray_policy_ops *ops);
/* Whether p is a best policy, and its self. */
frayi_best *frayi_best_self(const fray_policy *p);

/* Whether p's best policies are inside a walk that falls back on every
 * question: fray_enumerate then walks as for any policy (best_walk.c). */
bool frayi_best_plain(const fray_policy *p);
/* fray_enumerate for a policy holding a best one (same contract). */
fray_status frayi_best_enumerate(fray_ctx *ctx, fray_procedure proc, fray_policy *p, const void *input,
				 size_t nfields, const fray_enum_limits *lim, fray_dist **out);
/* A best policy's answer inside a walk (best_walk.c). */
size_t frayi_bwalk_decide(struct bwalk *w, const frayi_best *b, const fray_choice *c, char *msg,
			  size_t cap);

#endif
