/* The enumerating roller: runs a procedure once per path of outcomes,
 * depth first, replaying the recorded prefix and extending it with branch 0,
 * then backtracking to the deepest step with a branch left. Paths ending in
 * the same outcome are merged; paths cut at the depth limit are summed as
 * unresolved mass (DESIGN.md, "One rules function, three modes").
 *
 * Probabilities are kept in 128-bit integers while they fit (xq.h) and in
 * GMP past that. A procedure that checkpoints its state (fray_checkpoint)
 * is walked by stages: every path from the start up to its first
 * checkpoint, then, stage by stage in increasing order, once from each
 * distinct state of the stage (the probabilities of the paths that reached
 * it summed) to the next checkpoint: dynamic programming over stages, where
 * a battle's paths repeat the same states over and over. A state is walked
 * only when every path to it is in, as stages grow along every path. */
#include <stdio.h>
#include <string.h>
#include "dist_internal.h"
#include "roller_internal.h"

bool fray_enum_step(fray_roller *r, uint32_t nbranches, uint32_t *choice,
		    bool *need_prob)
{
	enum_state *en = r->en;
	unsigned d = en->depth;
	if (d == en->max_depth) {
		r->truncated = true;
		return false;
	}
	if (d < en->len) {
		if (en->path[d].nbranches != nbranches) {
			fray_roller_fail(r, FRAY_ERR_INTERNAL,
					 "procedure is not a pure function of its roller "
					 "(a replayed event changed)");
			return false;
		}
	} else {
		en->path[d].choice = 0;
		en->path[d].nbranches = nbranches;
		en->len = d + 1;
	}
	*choice = en->path[d].choice;
	*need_prob = d + 1 >= en->valid;
	en->depth = d + 1;
	return true;
}

/* Makes bigq[0..d] usable (a GMP allocation that fails raises GMP's flag,
 * which the enumerator checks every 64 paths and at the end). */
static void need_big(enum_state *en, unsigned d)
{
	while (en->nbig <= d)
		mpq_init(en->bigq[en->nbig++]);
}

static void prefix_q(enum_state *en, unsigned d, mpq_t q)
{
	if (en->big[d]) {
		mpq_set(q, en->bigq[d]);
	} else {
		fray_u128_to_mpz(mpq_numref(q), en->pnum[d]);
		fray_u128_to_mpz(mpq_denref(q), en->pden[d]);
		mpq_canonicalize(q);
	}
}

void fray_enum_commit_small(fray_roller *r, fray_u128 w, fray_u128 dd)
{
	enum_state *en = r->en;
	unsigned d = en->depth; /* the step just taken was d - 1 */
	en->valid = d + 1;
	if (!en->big[d - 1]) {
		fray_u128 n, m, a = en->pnum[d - 1], b = en->pden[d - 1];
		if ((a | b | w | dd) >> 64 == 0) { /* products of 64-bit numbers fit */
			en->pnum[d] = a * w;
			en->pden[d] = b * dd;
			en->big[d] = false;
			return;
		}
		if (!__builtin_mul_overflow(a, w, &n) && !__builtin_mul_overflow(b, dd, &m)) {
			en->pnum[d] = n;
			en->pden[d] = m;
			en->big[d] = false;
			return;
		}
		fray_u128 g1 = fray_u128_gcd(a, b), g2 = fray_u128_gcd(w, dd);
		a /= g1, b /= g1, w /= g2, dd /= g2;
		fray_u128 g3 = fray_u128_gcd(a, dd), g4 = fray_u128_gcd(w, b);
		if (!__builtin_mul_overflow(a / g3, w / g4, &n) &&
		    !__builtin_mul_overflow(b / g4, dd / g3, &m)) {
			en->pnum[d] = n;
			en->pden[d] = m;
			en->big[d] = false;
			return;
		}
	}
	fray_u128_to_mpz(en->num, w);
	fray_u128_to_mpz(en->den, dd);
	fray_enum_commit(r);
}

void fray_enum_commit(fray_roller *r)
{
	enum_state *en = r->en;
	unsigned d = en->depth;
	need_big(en, d);
	mpq_ptr q = en->bigq[d];
	prefix_q(en, d - 1, q);
	mpq_t branch;
	mpq_init(branch);
	mpq_set_num(branch, en->num);
	mpq_set_den(branch, en->den);
	mpq_canonicalize(branch);
	mpq_mul(q, q, branch);
	mpq_clear(branch);
	en->big[d] = true;
	en->valid = d + 1;
}

/* x += the probability of the path just run. */
static bool add_path(const enum_state *en, fray_xq *x)
{
	unsigned d = en->depth;
	return en->big[d] ? fray_xq_add_q(x, en->bigq[d]) : fray_xq_add(x, en->pnum[d], en->pden[d]);
}

/* Moves to the next path: the deepest step with an untried branch takes
 * it, deeper steps are forgotten. False when every path has been run. */
static bool next_path(enum_state *en)
{
	while (en->len > 0) {
		enum_step *top = &en->path[en->len - 1];
		if (top->choice + 1 < top->nbranches) {
			top->choice++;
			/* prob[len] depended on the old choice */
			if (en->valid > en->len)
				en->valid = en->len;
			return true;
		}
		en->len--;
	}
	return false;
}

static enum_state *enum_state_new(fray_ctx *ctx, unsigned max_depth)
{
	enum_state *en = fray_calloc(ctx, 1, sizeof *en);
	if (!en)
		return NULL;
	size_t n = (size_t)max_depth + 1;
	en->path = fray_calloc(ctx, n, sizeof *en->path);
	en->pnum = fray_alloc(ctx, n * sizeof *en->pnum);
	en->pden = fray_alloc(ctx, n * sizeof *en->pden);
	en->big = fray_calloc(ctx, n, sizeof *en->big);
	en->bigq = fray_alloc(ctx, n * sizeof *en->bigq);
	if (!en->path || !en->pnum || !en->pden || !en->big || !en->bigq) {
		fray_dealloc(ctx, en->path);
		fray_dealloc(ctx, en->pnum);
		fray_dealloc(ctx, en->pden);
		fray_dealloc(ctx, en->big);
		fray_dealloc(ctx, en->bigq);
		fray_dealloc(ctx, en);
		return NULL;
	}
	en->pnum[0] = 1;
	en->pden[0] = 1;
	en->valid = 1;
	en->max_depth = max_depth;
	mpz_inits(en->num, en->den, NULL);
	return en;
}

static void enum_state_free(fray_ctx *ctx, enum_state *en)
{
	if (!en)
		return;
	for (unsigned i = 0; i < en->nbig; i++)
		mpq_clear(en->bigq[i]);
	mpz_clears(en->num, en->den, NULL);
	fray_deal_nodes_free(ctx, en->deals, en->max_depth + 1);
	fray_dealloc(ctx, en->key);
	fray_dealloc(ctx, en->scratch);
	fray_dealloc(ctx, en->path);
	fray_dealloc(ctx, en->pnum);
	fray_dealloc(ctx, en->pden);
	fray_dealloc(ctx, en->big);
	fray_dealloc(ctx, en->bigq);
	fray_dealloc(ctx, en);
}

/* ---- state merging ---- */

FRAY_API bool fray_resume(fray_roller *r, void *state, size_t size)
{
	if (r->mode != ROLLER_ENUMERATE || !r->en->resume)
		return false;
	if (size != r->en->state_size) {
		fray_roller_fail(r, FRAY_ERR_INTERNAL, "fray_resume: a state of another size");
		return false;
	}
	memcpy(state, r->en->resume, size);
	return true;
}

FRAY_API void *fray_resume_scratch(fray_roller *r, size_t size, bool *valid)
{
	*valid = false;
	if (r->mode != ROLLER_ENUMERATE || !r->en->resume)
		return NULL;
	enum_state *en = r->en;
	if (size > FRAY_SCRATCH_MAX) {
		fray_roller_fail(r, FRAY_ERR_INTERNAL, "fray_resume_scratch: more than "
				 "FRAY_SCRATCH_MAX bytes");
		return NULL;
	}
	if (!en->scratch && !(en->scratch = fray_alloc(r->ctx, FRAY_SCRATCH_MAX)))
		return NULL;
	*valid = en->scratch_valid;
	en->scratch_valid = true; /* the caller fills it now */
	return en->scratch;
}

FRAY_API bool fray_checkpoint(fray_roller *r, uint64_t stage, const void *state, size_t size)
{
	if (r->mode != ROLLER_ENUMERATE || !r->en->staging || fray_roller_stopped(r))
		return false;
	enum_state *en = r->en;
	if (size == 0 || size > FRAY_STATE_MAX || (en->state_size && size != en->state_size)) {
		fray_roller_fail(r, FRAY_ERR_INTERNAL, "fray_checkpoint: a state of 1 to "
				 "FRAY_STATE_MAX bytes, the same size every time");
		return false;
	}
	if (en->resume && stage <= en->resume_stage) {
		fray_roller_fail(r, FRAY_ERR_INTERNAL, "fray_checkpoint: a stage that does not "
				 "grow along the path");
		return false;
	}
	en->state_size = size;
	en->stage = stage;
	memcpy(en->key, state, size);
	en->checkpointed = true;
	r->truncated = true; /* the run stops here: primitives do nothing more */
	return true;
}

/* ---- the walk ---- */

typedef struct stage_states {
	uint64_t stage;
	fray_tally t; /* the state's bytes -> probability */
} stage_states;

typedef struct walker {
	fray_ctx *ctx;
	fray_roller r;
	fray_procedure proc;
	fray_policy *p;
	const void *input;
	const fray_enum_limits *lim;
	uint64_t max_paths, max_bytes, paths;
	fray_tally out;        /* outcomes */
	fray_xq unresolved;
	/* the states reached and not yet walked from, a tally a stage, in
	 * increasing order of stage; `walking` is the stage being walked */
	stage_states *pending;
	size_t npending, cap_pending;
	stage_states walking;
	/* one state's ends, before they are weighted by the state's
	 * probability (a product per end instead of per path); a state's key
	 * here is its stage, then its bytes */
	fray_tally local_out, local_next;
	fray_xq local_unres;
	/* the entry the last path ended in: paths in a row often end alike
	 * (a deal's splits that differ only in kinds nobody reads) */
	fray_tally *last_t;
	size_t last_e;
	int64_t keybuf[FRAY_STATE_MAX / 8];
} walker;

static size_t tally_bytes(const fray_tally *t)
{
	return t->cap * (t->nfields * sizeof(int64_t) + sizeof(fray_xq)) + t->nslots * sizeof(*t->slots);
}

/* The memory budget: the outcomes and states collected and every GMP
 * number alive (checked every 64 paths, well before the machine runs out);
 * a malloc that failed under GMP (the reserve was given up) ends the work
 * here, never in an abort. */
static fray_status check_memory(walker *w)
{
	fray_ctx *ctx = w->ctx;
	if (fray_gmp_failed())
		return fray_fail(ctx, FRAY_ERR_NOMEM, "out of memory while enumerating; "
				 "simulate instead (--trials N)");
	uint64_t used = (uint64_t)fray_gmp_live_bytes() + tally_bytes(&w->out) +
			tally_bytes(&w->walking.t) + tally_bytes(&w->local_out) +
			tally_bytes(&w->local_next) + w->cap_pending * sizeof *w->pending;
	for (size_t i = 0; i < w->npending; i++)
		used += tally_bytes(&w->pending[i].t);
	if (used > w->max_bytes)
		return fray_fail(ctx, FRAY_ERR_BUDGET, "exact odds need more than %llu MiB of memory "
				 "(the budget, --max-memory): simulate instead (--trials N)",
				 (unsigned long long)(w->max_bytes >> 20));
	return FRAY_OK;
}

static size_t key_words(const enum_state *en)
{
	return (en->state_size + 7) / 8;
}

/* The tally of one state's ends, made when the first checkpoint fixed
 * the states' size. */
static fray_status states_ready(walker *w)
{
	size_t words = 1 + key_words(w->r.en);
	if (w->local_next.nfields == words)
		return FRAY_OK;
	if (w->local_next.nfields != 0)
		return fray_fail(w->ctx, FRAY_ERR_INTERNAL, "fray_checkpoint: states of two sizes");
	fray_tally_init(&w->local_next, w->ctx, words, true);
	return FRAY_OK;
}

static bool same_key(const int64_t *a, const int64_t *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (a[i] != b[i])
			return false;
	return true;
}

/* Adds the path just run to where it ended: an outcome, a state, or cut. */
static fray_status record_end(walker *w, const int64_t *outcome)
{
	enum_state *en = w->r.en;
	fray_tally *t;
	const int64_t *key;
	if (en->checkpointed) {
		fray_status st = states_ready(w);
		if (st != FRAY_OK)
			return st;
		memset(w->keybuf, 0, (1 + key_words(en)) * 8);
		w->keybuf[0] = (int64_t)en->stage;
		memcpy(w->keybuf + 1, en->key, en->state_size);
		t = &w->local_next;
		key = w->keybuf;
	} else if (w->r.truncated) {
		if (!add_path(en, &w->local_unres))
			return fray_nomem(w->ctx);
		return FRAY_OK;
	} else {
		t = &w->local_out;
		key = outcome;
	}
	size_t e = w->last_e;
	if (t != w->last_t || e >= t->count || !same_key(t->keys + e * t->nfields, key, t->nfields)) {
		e = fray_tally_slot(t, key);
		if (e == SIZE_MAX)
			return fray_nomem(w->ctx);
		w->last_t = t;
		w->last_e = e;
	}
	if (!add_path(en, &t->x[e]))
		return fray_nomem(w->ctx);
	return FRAY_OK;
}

/* dst[k] += weight * src[k] for every entry of src; src is emptied. */
static fray_status fold(walker *w, fray_tally *dst, fray_tally *src, const fray_xq *weight)
{
	for (size_t e = 0; e < src->count; e++) {
		size_t d = fray_tally_slot(dst, src->keys + e * src->nfields);
		if (d == SIZE_MAX || !fray_xq_addmul(&dst->x[d], weight, &src->x[e]))
			return fray_nomem(w->ctx);
	}
	fray_tally_reset(src);
	return FRAY_OK;
}

/* The tally of the states at `stage` if there is one yet. */
static fray_tally *find_stage(walker *w, uint64_t stage)
{
	for (size_t i = w->npending; i > 0; i--)
		if (w->pending[i - 1].stage == stage)
			return &w->pending[i - 1].t;
	return NULL;
}

/* The tally of the states at `stage`, made on first need in its place in
 * the order of stages. */
static fray_tally *stage_tally(walker *w, uint64_t stage)
{
	fray_tally *t = find_stage(w, stage);
	if (t)
		return t;
	if (w->npending == w->cap_pending) {
		size_t cap = fray_grow(w->cap_pending, w->npending + 1, sizeof *w->pending);
		stage_states *p = cap ? fray_realloc(w->ctx, w->pending, cap * sizeof *p) : NULL;
		if (!p)
			return NULL;
		w->pending = p;
		w->cap_pending = cap;
	}
	size_t i = w->npending;
	while (i > 0 && w->pending[i - 1].stage > stage)
		i--;
	memmove(w->pending + i + 1, w->pending + i, (w->npending - i) * sizeof *w->pending);
	w->npending++;
	w->pending[i].stage = stage;
	fray_tally_init(&w->pending[i].t, w->ctx, key_words(w->r.en), true);
	return &w->pending[i].t;
}

/* The states one state reached, weighted, each into its stage's tally.
 * Their slots are fetched ahead, a batch at a time: the stages' tallies
 * are big, and their slots cache misses. */
static fray_status fold_states(walker *w, const fray_xq *weight)
{
	enum { BATCH = 16 };
	fray_tally *src = &w->local_next;
	size_t words = src->nfields - 1; /* the stage, then the state */
	for (size_t first = 0; first < src->count; first += BATCH) {
		size_t n = src->count - first < BATCH ? src->count - first : BATCH;
		uint64_t h[BATCH];
		for (size_t i = 0; i < n; i++) {
			const int64_t *key = src->keys + (first + i) * src->nfields;
			h[i] = fray_tally_hash(key + 1, words);
			const fray_tally *dst = find_stage(w, (uint64_t)key[0]);
			if (dst)
				fray_tally_prefetch(dst, h[i]);
		}
		for (size_t i = 0; i < n; i++) {
			size_t e = first + i;
			const int64_t *key = src->keys + e * src->nfields;
			fray_tally *dst = stage_tally(w, (uint64_t)key[0]);
			size_t d = dst ? fray_tally_slot_hashed(dst, key + 1, h[i]) : SIZE_MAX;
			if (d == SIZE_MAX || !fray_xq_addmul(&dst->x[d], weight, &src->x[e]))
				return fray_nomem(w->ctx);
		}
	}
	fray_tally_reset(src);
	return FRAY_OK;
}

/* Runs every path from one start: the beginning (resume NULL) or a state
 * of stage `stage` reached with probability *weight (1 at the beginning). */
static fray_status walk_from(walker *w, const unsigned char *resume, uint64_t stage,
			     const fray_xq *weight)
{
	fray_roller *r = &w->r;
	enum_state *en = r->en;
	en->resume = resume;
	en->resume_stage = stage;
	en->scratch_valid = false;
	en->len = 0;
	en->valid = 1;
	fray_status st;
	do {
		if (++w->paths > w->max_paths)
			return fray_fail(w->ctx, FRAY_ERR_LIMIT,
					 "more than %llu outcome paths: too many to "
					 "enumerate exactly; simulate instead",
					 (unsigned long long)w->max_paths);
		int64_t outcome[FRAY_OUTCOME_MAX_FIELDS];
		memset(outcome, 0, w->out.nfields * sizeof outcome[0]);
		fray_roller_begin_run(r);
		en->depth = 0;
		en->checkpointed = false;
		if (w->p)
			fray_policy_reset(w->p);
		w->proc(r, w->p, w->input, outcome);
		if (r->status != FRAY_OK)
			return fray_fail(w->ctx, r->status, "%s", r->msg);
		/* a pure procedure consumes exactly its recorded path */
		en->len = en->depth;
		if (en->valid > en->depth + 1)
			en->valid = en->depth + 1;
		if ((st = record_end(w, outcome)) != FRAY_OK)
			return st;
		if ((w->paths & 63) == 0 && (st = check_memory(w)) != FRAY_OK)
			return st;
		const fray_enum_limits *lim = w->lim;
		if (lim && lim->stop && *lim->stop)
			return fray_fail(w->ctx, FRAY_ERR_BUDGET, "stopped after %llu paths",
					 (unsigned long long)w->paths);
		if (lim && lim->progress && (w->paths & 0xFFFF) == 0)
			lim->progress(w->paths, w->max_paths, lim->ud);
	} while (next_path(en));
	if ((st = fold(w, &w->out, &w->local_out, weight)) != FRAY_OK)
		return st;
	if (w->local_next.nfields && (st = fold_states(w, weight)) != FRAY_OK)
		return st;
	bool ok = fray_xq_addmul(&w->unresolved, weight, &w->local_unres);
	fray_xq_clear(&w->local_unres);
	return ok ? FRAY_OK : fray_nomem(w->ctx);
}

/* The beginning, then the states of each stage in increasing order, until
 * no path stops at a checkpoint any more. Stages past the depth limit are
 * unresolved, as a path cut there would be. */
static fray_status walk(walker *w)
{
	fray_xq one = {.num = 1, .den = 1};
	fray_status st = walk_from(w, NULL, 0, &one);
	unsigned char *state = fray_alloc(w->ctx, FRAY_STATE_MAX);
	if (!state)
		return fray_nomem(w->ctx);
	for (unsigned stages = 1; st == FRAY_OK && w->npending > 0; stages++) {
		w->walking = w->pending[0];
		memmove(w->pending, w->pending + 1, --w->npending * sizeof *w->pending);
		fray_tally *from = &w->walking.t;
		for (size_t e = 0; e < from->count && st == FRAY_OK; e++) {
			if (stages > w->r.en->max_depth) {
				if (!fray_xq_add_xq(&w->unresolved, &from->x[e]))
					st = fray_nomem(w->ctx);
				continue;
			}
			memcpy(state, from->keys + e * from->nfields, w->r.en->state_size);
			st = walk_from(w, state, w->walking.stage, &from->x[e]);
		}
		fray_tally_fini(from);
	}
	fray_dealloc(w->ctx, state);
	return st;
}

FRAY_API fray_status fray_enumerate(fray_ctx *ctx, fray_procedure proc,
				    fray_policy *p, const void *input,
				    size_t nfields, const fray_enum_limits *lim,
				    fray_dist **out)
{
	if (!ctx)
		return FRAY_ERR_INPUT;
	fray_ctx_clear(ctx); /* each call's message is its own */
	if (!out || !proc)
		return fray_fail(ctx, FRAY_ERR_INPUT, "fray_enumerate: NULL argument");
	*out = NULL;
	if (nfields < 1 || nfields > FRAY_OUTCOME_MAX_FIELDS)
		return fray_fail(ctx, FRAY_ERR_INTERNAL,
				 "an outcome has 1 to %d fields, not %zu",
				 FRAY_OUTCOME_MAX_FIELDS, nfields);
	if (p && !fray_policy_deterministic(p))
		return fray_fail(ctx, FRAY_ERR_INPUT,
				 "exact odds need a deterministic policy; '%s' is not",
				 fray_policy_name(p));
	unsigned max_depth = lim && lim->max_depth ? lim->max_depth
						   : FRAY_ENUM_DEFAULT_DEPTH;
	if (!fray_gmp_guard())
		return fray_nomem(ctx);

	walker *w = fray_calloc(ctx, 1, sizeof *w);
	if (!w)
		return fray_nomem(ctx);
	*w = (walker){
		.ctx = ctx, .proc = proc, .p = p, .input = input, .lim = lim,
		.max_paths = lim && lim->max_paths ? lim->max_paths : FRAY_ENUM_DEFAULT_PATHS,
		.max_bytes = lim && lim->max_bytes ? lim->max_bytes : FRAY_ENUM_DEFAULT_BYTES,
		.unresolved = FRAY_XQ_ZERO, .local_unres = FRAY_XQ_ZERO,
		.r = {.ctx = ctx, .mode = ROLLER_ENUMERATE},
	};
	fray_tally_init(&w->out, ctx, nfields, true);
	fray_tally_init(&w->local_out, ctx, nfields, true);
	fray_status st;
	w->r.en = enum_state_new(ctx, max_depth);
	if (!w->r.en || !(w->r.en->key = fray_alloc(ctx, FRAY_STATE_MAX))) {
		st = fray_nomem(ctx);
		goto done;
	}
	w->r.en->staging = fray_policy_memoryless(p);

	if ((st = walk(w)) != FRAY_OK || (st = check_memory(w)) != FRAY_OK)
		goto done;
	st = fray_tally_to_dist(&w->out, 0, &w->unresolved, out);
	if (st == FRAY_OK && fray_gmp_failed()) {
		fray_dist_free(*out);
		*out = NULL;
		st = fray_nomem(ctx);
	}
done:
	fray_xq_clear(&w->unresolved);
	fray_xq_clear(&w->local_unres);
	fray_tally_fini(&w->out);
	fray_tally_fini(&w->local_out);
	fray_tally_fini(&w->local_next);
	fray_tally_fini(&w->walking.t);
	for (size_t i = 0; i < w->npending; i++)
		fray_tally_fini(&w->pending[i].t);
	fray_dealloc(ctx, w->pending);
	enum_state_free(ctx, w->r.en);
	fray_dealloc(ctx, w);
	return st;
}
