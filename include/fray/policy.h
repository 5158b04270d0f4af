/* Policies: every decision the rules leave to a player (a target, whether to
 * retreat, who takes a loss) goes to a policy. Built in: heuristic (takes the
 * rules' suggested option), scripted (answers from a list or a YAML file),
 * random, and best (the option of highest exact value, issue 44). The CLI
 * adds an interactive one. */
#ifndef FRAY_POLICY_H
#define FRAY_POLICY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <fray/ctx.h>
#include <fray/data.h>

/* A question. Borrowed pointers, valid during the choose call. */
typedef struct fray_choice {
	const char *kind;            /* stable id, e.g. "adbg.loss" */
	const char *prompt;          /* the question, for people */
	size_t noptions;             /* >= 1 */
	const char *const *options;  /* option labels */
	size_t suggested;            /* the rules' heuristic answer */
	int side;                    /* who decides: side 0 or 1, -1 for none */
} fray_choice;

#define FRAY_NO_ANSWER ((size_t)-1)

typedef struct fray_policy_ops {
	const char *name;
	/* Returns an option index, or FRAY_NO_ANSWER with a message in msg. */
	size_t (*choose)(void *self, const fray_choice *c, char *msg, size_t cap);
	/* Rewinds to the state before the first question (may be NULL). */
	void (*reset)(void *self);
	/* Frees self (may be NULL). */
	void (*destroy)(void *self);
	/* Where a stateful policy stands, and back there (may be NULL): for
	 * saving a game in progress. */
	uint64_t (*tell)(void *self);
	void (*seek)(void *self, uint64_t pos);
	/* True when the same questions get the same answers: required for odds. */
	bool deterministic;
	/* True when an answer depends on the question alone, never on the
	 * questions before (the heuristic): exact odds may then merge equal
	 * states of a procedure (fray_checkpoint). */
	bool memoryless;
	/* True when one instance may answer from several threads at once. */
	bool thread_safe;
	/* True when it reads only c->suggested, never the words: rules may
	 * then skip building prompts and labels. */
	bool suggestion_only;
	/* Called by the simulators before trial number `trial` (may be NULL):
	 * a policy with a random stream restarts it from the trial's number,
	 * so each trial's choices do not depend on which trials ran before
	 * (shards of a simulation then merge into exactly one run). */
	void (*begin_trial)(void *self, uint64_t trial);
	/* True when every answer is c->suggested, whatever the question (the
	 * heuristic): rules may then take their suggestion without asking,
	 * and without building the options (issue #33). Implies
	 * suggestion_only. */
	bool takes_suggestion;
} fray_policy_ops;

typedef struct fray_policy fray_policy;

/* Wraps ops/self into a policy; the policy owns self (ops->destroy frees it).
 * ops must outlive the policy. */
fray_policy *fray_policy_new(fray_ctx *ctx, const fray_policy_ops *ops,
			     void *self);
void fray_policy_free(fray_policy *p);
/* The policy's name (ops->name: valid as long as ops; "heuristic" for
 * NULL). */
const char *fray_policy_name(const fray_policy *p);
bool fray_policy_deterministic(const fray_policy *p);
bool fray_policy_thread_safe(const fray_policy *p);
bool fray_policy_memoryless(const fray_policy *p);
/* True for the heuristic policy (and NULL): it reads no words. */
bool fray_policy_suggestion_only(const fray_policy *p);
/* True for the heuristic policy (and NULL, and a pair of such): every
 * answer is the suggested option, so a question need not be asked. */
bool fray_policy_takes_suggestion(const fray_policy *p);
void fray_policy_reset(fray_policy *p);
void fray_policy_begin_trial(fray_policy *p, uint64_t trial);
/* The position of a stateful policy (0 when it has none), and back. */
uint64_t fray_policy_tell(const fray_policy *p);
void fray_policy_seek(fray_policy *p, uint64_t pos);
size_t fray_policy_choose(fray_policy *p, const fray_choice *c, char *msg,
			  size_t cap);

/* The heuristic policy: always the suggested option. Stateless. */
fray_policy *fray_policy_heuristic_new(fray_ctx *ctx);

/* A policy that picks uniformly at random from its own stream of seed
 * (never the dice's), for testing rules and measuring the heuristic. Its
 * stream runs on across runs (reset does not rewind it), except in the
 * simulators, where trial i uses a stream of its own (begin_trial); not
 * thread-safe. */
fray_policy *fray_policy_random_new(fray_ctx *ctx, uint64_t seed);

/* One policy per side: questions with c->side 0 go to p0, 1 to p1 (and
 * -1 to p0). Takes ownership of both. */
fray_policy *fray_policy_sides_new(fray_ctx *ctx, fray_policy *p0,
				   fray_policy *p1);

/* The scripted policy: answers in order. Each answer names an option by its
 * label (exact match) or, failing that, by its 1-based number ("2").
 * Copies the strings. Running out of answers is FRAY_ERR_POLICY. */
fray_policy *fray_policy_script_new(fray_ctx *ctx, const char *const *answers,
				    size_t n);

/* The scripted policy from a YAML document holding `answers: [ ... ]`
 * (scalars); every problem is recorded on doc (file:line:col). */
fray_status fray_policy_script_read(fray_ctx *ctx, fray_doc *doc,
				    fray_policy **out);
/* The same from a file. FRAY_ERR_INPUT with file:line:col on the context
 * for a bad file. */
fray_status fray_policy_script_load(fray_ctx *ctx, const char *path,
				    fray_policy **out);

/* A policy by name, as --policy and a request's "policy" give it:
 * "heuristic", "random" or "random:SEED", "scripted:FILE". digest (may be
 * NULL): FNV-1a of a script file's bytes, 0 for the others. An unknown name
 * or a bad seed: FRAY_ERR_INPUT and a message. */
fray_status fray_policy_from_spec(fray_ctx *ctx, const char *spec, fray_policy **out, uint64_t *digest);

/* ---- The best policy (issue 44; docs/design.md, "The best policy") ----
 * Each question goes to the option of highest exact value for the asking
 * side, the value found by walking the rest of the procedure with the
 * enumerating roller: fray_enumerate does the walking (by backward
 * induction over the procedure's checkpoint states, each valued once).
 * Where one side plays best it is expectimax; where both do, each side's
 * best against the other's best (expectiminimax for the zero-sum goal
 * `win`). It answers only inside fray_enumerate: asked anywhere else (a
 * sampled battle) it gives no answer, with a message saying so. */

/* What a side plays for. win: P(win) + P(draw) / 2; not-lose: P(win) +
 * P(draw); casualties: the enemy's losses minus one's own, expected;
 * hold: P(losing no unit). */
typedef enum fray_goal {
	FRAY_GOAL_WIN,
	FRAY_GOAL_NOT_LOSE,
	FRAY_GOAL_CASUALTIES,
	FRAY_GOAL_HOLD,
	FRAY_GOAL_COUNT
} fray_goal;
/* "win", "not-lose", "casualties", "hold" (static strings). */
const char *fray_goal_name(fray_goal g);
/* The goal of that name; FRAY_ERR_INPUT and a message naming the goals. */
fray_status fray_goal_from_name(fray_ctx *ctx, const char *name, fray_goal *out);

/* What an outcome of a procedure is worth to side `side` (0 or 1) under a
 * goal, as num / den (den > 0): the procedure's owner supplies it (for an
 * ADBG battle, fray_adbg_battle_worth). */
typedef void (*fray_outcome_worth)(const int64_t *outcome, int side, fray_goal goal, int64_t *num,
				   int64_t *den);

/* A best policy for goal g (it answers both sides' questions; wrap it with
 * fray_policy_sides_new for one side only). Deterministic and memoryless:
 * its answer is a function of the procedure's state and the question. */
fray_policy *fray_policy_best_new(fray_ctx *ctx, fray_goal goal);
/* True when p or one of its sides is a best policy. */
bool fray_policy_has_best(const fray_policy *p);
/* True when side s's questions (0 or 1) go to a best policy within p. */
bool fray_policy_best_plays(const fray_policy *p, int side);
/* Gives every best policy within p the worth of the procedure's outcomes
 * (required before fray_enumerate walks with it). */
void fray_policy_best_set_worth(fray_policy *p, fray_outcome_worth worth);
/* The goal of the (first) best policy within p; FRAY_GOAL_WIN if none. */
fray_goal fray_policy_best_goal(const fray_policy *p);
/* After fray_enumerate with p: the procedure's exact value to side s
 * under the goal, with every question answered as p answered it, as
 * "num/den" (or "num") in exact and a double in *approx. False when no
 * walk has finished. */
bool fray_policy_best_value(const fray_policy *p, int side, char *exact, size_t cap, double *approx);
/* After fray_enumerate with p: that value to side s minus the expected
 * worth to s of the exact distribution base (the same procedure's outcomes
 * under other policies, the heuristic's say): what playing as p gains.
 * False when there is no value or base is not exact. */
struct fray_dist;
bool fray_policy_best_gain(const fray_policy *p, const struct fray_dist *base, int side, char *exact, size_t cap,
			   double *approx);
/* The kinds of question the last walk met, i = 0, 1, ... (false past the
 * last): the side asking, how many distinct questions (decision points),
 * and whether best decided them exactly or, the walk being over its
 * budget, fell back to the heuristic's answer. kind is the procedure's
 * (fray_choice.kind), valid as long as p. */
typedef struct fray_best_question {
	const char *kind;
	int side;
	uint64_t asked;
	bool exact;
} fray_best_question;
bool fray_policy_best_question(const fray_policy *p, size_t i, fray_best_question *out);

#endif
