/* Policies: the decision interface, the heuristic policy and the scripted
 * policy (answers from a list or a YAML file). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "best.h"
#include "internal.h"
#include "../common/text.h"

struct fray_policy {
	fray_ctx *ctx;
	const fray_policy_ops *ops;
	void *self;
};

FRAY_API fray_policy *fray_policy_new(fray_ctx *ctx, const fray_policy_ops *ops,
				      void *self)
{
	fray_policy *p = frayi_calloc(ctx, 1, sizeof *p);
	if (!p) {
		frayi_nomem(ctx);
		return NULL;
	}
	p->ctx = ctx;
	p->ops = ops;
	p->self = self;
	return p;
}

FRAY_API void fray_policy_free(fray_policy *p)
{
	if (!p)
		return;
	if (p->ops->destroy)
		p->ops->destroy(p->self);
	frayi_dealloc(p->ctx, p);
}

FRAY_API const char *fray_policy_name(const fray_policy *p)
{
	return p ? p->ops->name : "heuristic";
}

FRAY_API bool fray_policy_deterministic(const fray_policy *p)
{
	return !p || p->ops->deterministic;
}

FRAY_API bool fray_policy_thread_safe(const fray_policy *p)
{
	return !p || p->ops->thread_safe;
}

FRAY_API bool fray_policy_memoryless(const fray_policy *p)
{
	return !p || p->ops->memoryless;
}

FRAY_API bool fray_policy_suggestion_only(const fray_policy *p)
{
	return !p || p->ops->suggestion_only;
}

FRAY_API bool fray_policy_takes_suggestion(const fray_policy *p)
{
	return !p || p->ops->takes_suggestion;
}

FRAY_API void fray_policy_begin_trial(fray_policy *p, uint64_t trial)
{
	if (p && p->ops->begin_trial)
		p->ops->begin_trial(p->self, trial);
}

FRAY_API void fray_policy_reset(fray_policy *p)
{
	if (p && p->ops->reset)
		p->ops->reset(p->self);
}

FRAY_API uint64_t fray_policy_tell(const fray_policy *p)
{
	return p && p->ops->tell ? p->ops->tell(p->self) : 0;
}

FRAY_API void fray_policy_seek(fray_policy *p, uint64_t pos)
{
	if (p && p->ops->seek)
		p->ops->seek(p->self, pos);
}

void *frayi_policy_self_if(const fray_policy *p, const fray_policy_ops *ops)
{
	return p && p->ops == ops ? p->self : NULL;
}

/* A NULL policy is the heuristic one. */
FRAY_API size_t fray_policy_choose(fray_policy *p, const fray_choice *c,
				   char *msg, size_t cap)
{
	if (!p)
		return c->suggested;
	return p->ops->choose(p->self, c, msg, cap);
}

/* ---- heuristic ---- */

static size_t heuristic_choose(void *self, const fray_choice *c, char *msg,
			       size_t cap)
{
	(void)self, (void)msg, (void)cap;
	return c->suggested;
}

static const fray_policy_ops heuristic_ops = {
	.name = "heuristic",
	.choose = heuristic_choose,
	.deterministic = true,
	.memoryless = true,
	.thread_safe = true,
	.suggestion_only = true,
	.takes_suggestion = true,
};

FRAY_API fray_policy *fray_policy_heuristic_new(fray_ctx *ctx)
{
	return fray_policy_new(ctx, &heuristic_ops, NULL);
}

/* ---- random ---- */

typedef struct random_policy {
	fray_ctx *ctx;
	uint64_t seed;
	fray_rng rng;
} random_policy;

static size_t random_choose(void *self, const fray_choice *c, char *msg, size_t cap)
{
	(void)msg, (void)cap;
	random_policy *rp = self;
	return fray_rng_below(&rp->rng, (uint32_t)c->noptions);
}

static uint64_t random_tell(void *self)
{
	return fray_rng_tell(&((random_policy *)self)->rng);
}

static void random_seek(void *self, uint64_t pos)
{
	fray_rng_seek(&((random_policy *)self)->rng, pos);
}

/* Trial i: stream 2^64 - 2 - i of the seed, far from the dice's streams
 * 0, 1, 2, ... and from the stream outside simulations (2^64 - 1). */
static void random_begin_trial(void *self, uint64_t trial)
{
	random_policy *rp = self;
	fray_rng_init(&rp->rng, rp->seed, UINT64_MAX - 1 - trial);
}

static void random_destroy(void *self)
{
	random_policy *rp = self;
	frayi_dealloc(rp->ctx, rp);
}

static const fray_policy_ops random_ops = {
	.name = "random",
	.choose = random_choose,
	.suggestion_only = true, /* it reads only the number of options */
	.destroy = random_destroy,
	.tell = random_tell,
	.seek = random_seek,
	.begin_trial = random_begin_trial,
	.deterministic = false,
	.thread_safe = false,
};

FRAY_API fray_policy *fray_policy_random_new(fray_ctx *ctx, uint64_t seed)
{
	random_policy *rp = frayi_calloc(ctx, 1, sizeof *rp);
	if (!rp) {
		frayi_nomem(ctx);
		return NULL;
	}
	rp->ctx = ctx;
	rp->seed = seed;
	/* stream 2^64-1: far from the trials' streams 0, 1, 2, ... */
	fray_rng_init(&rp->rng, seed, UINT64_MAX);
	fray_policy *p = fray_policy_new(ctx, &random_ops, rp);
	if (!p)
		random_destroy(rp);
	return p;
}

/* ---- one per side ---- */

typedef struct sides_policy {
	fray_ctx *ctx;
	fray_policy *p[2];
	fray_policy_ops *ops; /* its own: flags depend on the pair */
} sides_policy;

static size_t sides_choose(void *self, const fray_choice *c, char *msg, size_t cap)
{
	sides_policy *sp = self;
	return fray_policy_choose(sp->p[c->side == 1], c, msg, cap);
}

static void sides_reset(void *self)
{
	sides_policy *sp = self;
	fray_policy_reset(sp->p[0]);
	fray_policy_reset(sp->p[1]);
}

/* Both positions in one number, 32 bits each: a battle's decisions are
 * far fewer. */
static uint64_t sides_tell(void *self)
{
	sides_policy *sp = self;
	return fray_policy_tell(sp->p[0]) << 32 | (fray_policy_tell(sp->p[1]) & 0xFFFFFFFFu);
}

static void sides_seek(void *self, uint64_t pos)
{
	sides_policy *sp = self;
	fray_policy_seek(sp->p[0], pos >> 32);
	fray_policy_seek(sp->p[1], pos & 0xFFFFFFFFu);
}

static void sides_begin_trial(void *self, uint64_t trial)
{
	sides_policy *sp = self;
	fray_policy_begin_trial(sp->p[0], trial);
	fray_policy_begin_trial(sp->p[1], trial);
}

static void sides_destroy(void *self)
{
	sides_policy *sp = self;
	fray_policy_free(sp->p[0]);
	fray_policy_free(sp->p[1]);
	frayi_dealloc(sp->ctx, sp->ops);
	frayi_dealloc(sp->ctx, sp);
}

fray_policy *frayi_policy_side(const fray_policy *p, int side)
{
	if (!p || p->ops->choose != sides_choose)
		return (fray_policy *)p;
	const sides_policy *sp = p->self;
	return sp->p[side == 1];
}

FRAY_API fray_policy *fray_policy_sides_new(fray_ctx *ctx, fray_policy *p0,
					    fray_policy *p1)
{
	sides_policy *sp = frayi_calloc(ctx, 1, sizeof *sp);
	fray_policy_ops *ops = frayi_calloc(ctx, 1, sizeof *ops);
	if (!sp || !ops) {
		frayi_dealloc(ctx, sp);
		frayi_dealloc(ctx, ops);
		fray_policy_free(p0);
		fray_policy_free(p1);
		frayi_nomem(ctx);
		return NULL;
	}
	/* the pair is as deterministic and thread-safe as the less of the two */
	*ops = (fray_policy_ops){
		.name = "per side",
		.choose = sides_choose,
		.reset = sides_reset,
		.destroy = sides_destroy,
		.tell = sides_tell,
		.seek = sides_seek,
		.begin_trial = sides_begin_trial,
		.deterministic = fray_policy_deterministic(p0) && fray_policy_deterministic(p1),
		.thread_safe = fray_policy_thread_safe(p0) && fray_policy_thread_safe(p1),
		.memoryless = fray_policy_memoryless(p0) && fray_policy_memoryless(p1),
		.suggestion_only = fray_policy_suggestion_only(p0) && fray_policy_suggestion_only(p1),
		.takes_suggestion = fray_policy_takes_suggestion(p0) && fray_policy_takes_suggestion(p1),
	};
	sp->ctx = ctx;
	sp->p[0] = p0;
	sp->p[1] = p1;
	sp->ops = ops;
	fray_policy *p = fray_policy_new(ctx, ops, sp);
	if (!p)
		sides_destroy(sp);
	return p;
}

/* ---- scripted ---- */

typedef struct script {
	fray_ctx *ctx;
	char **answers;
	size_t n, next;
} script;

static size_t script_choose(void *self, const fray_choice *c, char *msg,
			    size_t cap)
{
	script *s = self;
	if (s->next == s->n) {
		snprintf(msg, cap, "the script has no answer left for '%s' "
			 "(it holds %zu answers)", c->prompt, s->n);
		return FRAY_NO_ANSWER;
	}
	const char *a = s->answers[s->next++];
	for (size_t i = 0; i < c->noptions; i++)
		if (strcmp(a, c->options[i]) == 0)
			return i;
	char *end;
	unsigned long k = strtoul(a, &end, 10);
	if (*a >= '1' && *a <= '9' && *end == '\0' && k <= c->noptions)
		return (size_t)k - 1;
	if (cap < 4)
		return FRAY_NO_ANSWER;
	textbuf t = text_on(msg, cap);
	text_add(&t, "script answer %zu '%s' is not an option of '%s': expected one of",
		 s->next, a, c->prompt);
	for (size_t i = 0; i < c->noptions; i++)
		text_add(&t, "%s '%s'", i ? "," : "", c->options[i]);
	return FRAY_NO_ANSWER;
}

static void script_reset(void *self)
{
	((script *)self)->next = 0;
}

static uint64_t script_tell(void *self)
{
	return ((script *)self)->next;
}

static void script_seek(void *self, uint64_t pos)
{
	script *s = self;
	s->next = pos < s->n ? (size_t)pos : s->n;
}

static void script_destroy(void *self)
{
	script *s = self;
	for (size_t i = 0; i < s->n; i++)
		frayi_dealloc(s->ctx, s->answers[i]);
	frayi_dealloc(s->ctx, s->answers);
	frayi_dealloc(s->ctx, s);
}

static const fray_policy_ops script_ops = {
	.name = "script",
	.choose = script_choose,
	.reset = script_reset,
	.destroy = script_destroy,
	.tell = script_tell,
	.seek = script_seek,
	.deterministic = true,
	.thread_safe = false,
};

FRAY_API fray_policy *fray_policy_script_new(fray_ctx *ctx,
					     const char *const *answers,
					     size_t n)
{
	script *s = frayi_calloc(ctx, 1, sizeof *s);
	if (!s)
		goto nomem;
	s->ctx = ctx;
	s->answers = frayi_calloc(ctx, n + 1, sizeof *s->answers);
	if (!s->answers)
		goto nomem;
	for (; s->n < n; s->n++)
		if (!(s->answers[s->n] = frayi_strdup(ctx, answers[s->n])))
			goto nomem;
	fray_policy *p = fray_policy_new(ctx, &script_ops, s);
	if (!p)
		script_destroy(s);
	return p;
nomem:
	if (s)
		script_destroy(s);
	frayi_nomem(ctx);
	return NULL;
}

FRAY_API fray_status fray_policy_script_read(fray_ctx *ctx, fray_doc *doc, fray_policy **out)
{
	*out = NULL;
	const fray_node *root = fray_doc_root(doc);
	static const char *const keys[] = {"answers"};
	const fray_node *list = NULL;
	if (!root)
		fray_doc_error(doc, NULL, "empty file: expected a mapping with 'answers'");
	else if (fray_doc_expect(doc, root, FRAY_NODE_MAP, "a script") &&
		 fray_doc_known_keys(doc, root, keys, 1))
		list = fray_doc_field(doc, root, "answers", true);
	size_t n = 0;
	const char **answers = NULL;
	if (list && fray_doc_expect(doc, list, FRAY_NODE_SEQ, "'answers'")) {
		n = fray_node_len(list);
		answers = frayi_calloc(ctx, n + 1, sizeof *answers);
		if (!answers)
			return frayi_nomem(ctx);
		for (size_t i = 0; i < n; i++)
			fray_doc_string(doc, fray_node_item(list, i), "an answer",
					&answers[i]);
	}
	fray_status st = fray_doc_status(doc);
	if (st == FRAY_OK) {
		*out = fray_policy_script_new(ctx, answers, n);
		if (!*out)
			st = FRAY_ERR_NOMEM;
	}
	frayi_dealloc(ctx, (void *)answers);
	return st;
}

FRAY_API fray_status fray_policy_script_load(fray_ctx *ctx, const char *path,
					     fray_policy **out)
{
	*out = NULL;
	fray_doc *doc;
	fray_status st = fray_doc_load_file(ctx, path, &doc);
	if (st != FRAY_OK)
		return st;
	st = fray_policy_script_read(ctx, doc, out);
	fray_doc_free(doc);
	return st;
}

FRAY_API fray_status fray_policy_from_spec(fray_ctx *ctx, const char *spec, fray_policy **out, uint64_t *digest)
{
	if (!ctx)
		return FRAY_ERR_INPUT;
	if (!out || !spec)
		return frayi_fail(ctx, FRAY_ERR_INPUT, "fray_policy_from_spec: NULL argument");
	*out = NULL;
	if (digest)
		*digest = 0;
	if (strcmp(spec, "heuristic") == 0) {
		*out = fray_policy_heuristic_new(ctx);
	} else if (strncmp(spec, "scripted:", 9) == 0) {
		fray_doc *doc;
		fray_status st = fray_doc_load_file(ctx, spec + 9, &doc);
		if (st != FRAY_OK)
			return st;
		st = fray_policy_script_read(ctx, doc, out);
		if (digest)
			*digest = fray_doc_digest(doc);
		fray_doc_free(doc);
		return st;
	} else if (strcmp(spec, "best") == 0 || strncmp(spec, "best:", 5) == 0) {
		/* best:GOAL (issue 44); plain best plays to win */
		fray_goal goal = FRAY_GOAL_WIN;
		if (spec[4] && fray_goal_from_name(ctx, spec + 5, &goal) != FRAY_OK)
			return FRAY_ERR_INPUT;
		*out = fray_policy_best_new(ctx, goal);
	} else if (strcmp(spec, "random") == 0 || strncmp(spec, "random:", 7) == 0) {
		unsigned long long seed = 1;
		if (spec[6]) {
			char *end = NULL;
			errno = 0;
			/* digits only: strtoull would take "-1" as 2^64 - 1 */
			bool digits = spec[7] >= '0' && spec[7] <= '9';
			if (digits)
				seed = strtoull(spec + 7, &end, 10);
			if (!digits || *end || errno)
				return frayi_fail(ctx, FRAY_ERR_INPUT, "random:SEED expects a whole number, got '%.40s'",
						 spec + 7);
		}
		*out = fray_policy_random_new(ctx, seed);
	} else {
		return frayi_fail(ctx, FRAY_ERR_INPUT, "expected heuristic, best[:GOAL], scripted:FILE or random[:SEED], got '%.200s'",
				 spec);
	}
	return *out ? FRAY_OK : frayi_nomem(ctx);
}
