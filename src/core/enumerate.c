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
#include "best.h"
#include "dist_internal.h"
#include "fast_dice.h"
#include "roller_inner.h"
#include "roller_internal.h"

/* frayi_enum_step's rare ends (roller_internal.h): the depth limit, or a
 * replayed event that changed. */
void frayi_enum_step_cut(fray_roller *r, unsigned d)
{
	if (d == r->en->max_depth)
		r->truncated = true;
	else
		fray_roller_fail(r, FRAY_ERR_INTERNAL, "procedure is not a pure function of its roller "
				 "(a replayed event changed)");
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
		frayi_u128_to_mpz(mpq_numref(q), en->pnum[d]);
		frayi_u128_to_mpz(mpq_denref(q), en->pden[d]);
		mpq_canonicalize(q);
	}
}

/* frayi_enum_commit_small past the first step: w / dd times the prefix's
 * probability. */
__attribute__((noinline)) static void commit_product(fray_roller *r, frayi_u128 w, frayi_u128 dd)
{
	enum_state *en = r->en;
	unsigned d = en->depth; /* the step just taken was d - 1 */
	if (!en->big[d - 1]) {
		frayi_u128 n, m, a = en->pnum[d - 1], b = en->pden[d - 1];
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
		frayi_u128 g1 = frayi_u128_gcd(a, b), g2 = frayi_u128_gcd(w, dd);
		a /= g1, b /= g1, w /= g2, dd /= g2;
		frayi_u128 g3 = frayi_u128_gcd(a, dd), g4 = frayi_u128_gcd(w, b);
		if (!__builtin_mul_overflow(a / g3, w / g4, &n) &&
		    !__builtin_mul_overflow(b / g4, dd / g3, &m)) {
			en->pnum[d] = n;
			en->pden[d] = m;
			en->big[d] = false;
			return;
		}
	}
	frayi_u128_to_mpz(en->num, w);
	frayi_u128_to_mpz(en->den, dd);
	frayi_enum_commit(r);
}

void frayi_enum_commit_small(fray_roller *r, frayi_u128 w, frayi_u128 dd)
{
	enum_state *en = r->en;
	unsigned d = en->depth; /* the step just taken was d - 1 */
	en->valid = d + 1;
	if (d != 1) {
		commit_product(r, w, dd);
		return;
	}
	/* the prefix is the empty path's 1 / 1: w / dd as it is (issue #33) */
	en->pnum[1] = w;
	en->pden[1] = dd;
	en->big[1] = false;
}

void frayi_enum_commit(fray_roller *r)
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
static bool add_path(const enum_state *en, frayi_xq *x)
{
	unsigned d = en->depth;
	return en->big[d] ? frayi_xq_add_q(x, en->bigq[d]) : frayi_xq_add(x, en->pnum[d], en->pden[d]);
}

/* Moves to the next path: the deepest step with an untried branch takes
 * it, deeper steps are forgotten. False when every path has been run. */
bool frayi_enum_next_path(enum_state *en)
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

enum_state *frayi_enum_state_new(fray_ctx *ctx, unsigned max_depth)
{
	enum_state *en = frayi_calloc(ctx, 1, sizeof *en);
	if (!en)
		return NULL;
	size_t n = (size_t)max_depth + 1;
	en->path = frayi_calloc(ctx, n, sizeof *en->path);
	en->pnum = frayi_alloc(ctx, n * sizeof *en->pnum);
	en->pden = frayi_alloc(ctx, n * sizeof *en->pden);
	en->big = frayi_calloc(ctx, n, sizeof *en->big);
	en->bigq = frayi_alloc(ctx, n * sizeof *en->bigq);
	if (!en->path || !en->pnum || !en->pden || !en->big || !en->bigq) {
		frayi_dealloc(ctx, en->path);
		frayi_dealloc(ctx, en->pnum);
		frayi_dealloc(ctx, en->pden);
		frayi_dealloc(ctx, en->big);
		frayi_dealloc(ctx, en->bigq);
		frayi_dealloc(ctx, en);
		return NULL;
	}
	en->pnum[0] = 1; /* the empty path: 1 / 1 for good (frayi_enum_commit_small) */
	en->pden[0] = 1;
	en->valid = 1;
	en->max_depth = max_depth;
	mpz_inits(en->num, en->den, NULL);
	return en;
}

void frayi_enum_state_free(fray_ctx *ctx, enum_state *en)
{
	if (!en)
		return;
	for (unsigned i = 0; i < en->nbig; i++)
		mpq_clear(en->bigq[i]);
	mpz_clears(en->num, en->den, NULL);
	frayi_deal_nodes_free(ctx, en->deals, en->max_depth + 1);
	if (en->memo && en->memo_fini)
		en->memo_fini(ctx, en->memo);
	frayi_dealloc(ctx, en->memo);
	frayi_dealloc(ctx, en->key);
	frayi_dealloc(ctx, en->scratch);
	frayi_dealloc(ctx, en->path);
	frayi_dealloc(ctx, en->pnum);
	frayi_dealloc(ctx, en->pden);
	frayi_dealloc(ctx, en->big);
	frayi_dealloc(ctx, en->bigq);
	frayi_dealloc(ctx, en);
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
	if (!en->scratch && !(en->scratch = frayi_alloc(r->ctx, FRAY_SCRATCH_MAX)))
		return NULL;
	*valid = en->scratch_valid;
	en->scratch_valid = true; /* the caller fills it now */
	return en->scratch;
}

bool frayi_roller_staging(const fray_roller *r)
{
	return r->mode == ROLLER_ENUMERATE && r->en->staging && !fray_roller_stopped(r);
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

/* The states of one stage (a big battle's stages hold a million each, and
 * every stage reached and not yet walked is kept: issue #33). An entry is
 * the probability's numerator (16 bytes), the number of its denominator in
 * the walker's list (a battle's probabilities share few denominators,
 * products of the dice's: 189 on Blue Licks), then the state's bytes; a
 * probability past 128 bits has DEN_BIG and a GMP rational's address in
 * place of the numerator. Entries sit in blocks (no reallocation, no
 * doubling's slack), freed one by one as the stage is walked. The index
 * holds entry number + 1, with the hash's top bits in the bits a number
 * does not need, so a probe rarely reads another state's bytes. */
enum { BLOCK_SHIFT = 12, BLOCK = 1 << BLOCK_SHIFT, ENTRY_HEAD = 20, INDEX_BITS_MIN = 10 };
#define DEN_BIG UINT32_MAX

typedef struct state_table {
	size_t count, esize, ssize; /* entries; bytes an entry; bytes a state */
	unsigned char **blocks;     /* count / BLOCK rounded up; NULL once walked */
	size_t nblocks, live_blocks;
	uint32_t *index;            /* 1 << bits slots; NULL while walked */
	unsigned bits;
} state_table;

typedef struct stage_states {
	uint64_t stage;
	state_table t;
} stage_states;

/* The denominators of the states' probabilities, each once. */
typedef struct den_list {
	frayi_u128 *v;
	size_t count, cap;
	uint32_t *index; /* 1 << bits slots of number + 1 */
	unsigned bits;
} den_list;

/* The estimate (fray_enum_progress): what the walk looked like when each
 * of the last stages began. */
enum { EST_WINDOW = 3, EST_AGREE = 3 };
#define EST_SHRINKING 0.7 /* new states waiting per state walked, at most */
#define EST_SPREAD 1.5    /* forecasts in a row agree within this factor */
#define EST_LATER 0.1 /* states waiting in later parts, at most, against the
			 states the part being walked began with, to forecast */
#define EST_GROWING 1.5   /* new states waiting per state walked, at least,
			     for the projection to count one more stage's growth */
typedef struct stage_mark {
	uint64_t paths;   /* walked before the stage */
	uint64_t waiting; /* states waiting, the stage's own included */
	uint64_t states;  /* the stage's own */
} stage_mark;

/* The steps marked FRAY_STEP_ALIKE (a battle's last round played a
 * position at a time: split_sub in src/rules/adbg/battle.c), as walked so
 * far in any part: the states of each, the paths they took and the new
 * states they left at each alike step of their own part (after merging)
 * or elsewhere. alike_forecast reads them. */
enum { ALIKE_MAX = 128 };
typedef struct alike_steps {
	size_t n;                  /* steps seen */
	uint64_t step[ALIKE_MAX];  /* each step, in the order first seen */
	uint64_t states[ALIKE_MAX], paths[ALIKE_MAX], other[ALIKE_MAX];
	uint64_t next[ALIKE_MAX][ALIKE_MAX];
	/* the stage walked before the one being walked, and the counts of
	 * the stages waiting when it began */
	uint64_t prev_stage, prev_states, prev_paths;
	bool prev_alike;
	struct { uint64_t stage, count; } *snap;
	size_t nsnap, cap_snap;
} alike_steps;

typedef struct walker {
	fray_ctx *ctx;
	fray_roller r;
	fray_procedure proc;
	fray_policy *p;
	const void *input;
	const fray_enum_limits *lim;
	uint64_t max_paths, max_bytes, paths;
	frayi_tally out;        /* outcomes */
	frayi_xq unresolved;
	/* the states reached and not yet walked from, a tally a stage, in
	 * increasing order of stage; `walking` is the stage being walked */
	stage_states *pending;
	size_t npending, cap_pending;
	stage_states walking;
	/* one state's ends, before they are weighted by the state's
	 * probability (a product per end instead of per path); a state's key
	 * here is its stage, then its bytes */
	frayi_tally local_out, local_next;
	frayi_xq local_unres;
	/* the entry the last path ended in: paths in a row often end alike
	 * (a deal's splits that differ only in kinds nobody reads) */
	frayi_tally *last_t;
	size_t last_e;
	den_list dens;
	int64_t keybuf[FRAY_STATE_MAX / 8];
	/* where the walk stands, for the estimate (see estimate_stage) */
	size_t walk_pos;         /* entries of `walking` walked */
	uint64_t stages;         /* stages begun */
	stage_mark marks[EST_WINDOW + 1]; /* the last stages' beginnings */
	uint64_t forecasts[EST_AGREE];    /* the last stages' forecasts, 0: none */
	uint64_t forecast;       /* the forecast given, 0: none */
	size_t nmarks;           /* marks filled */
	double growth;           /* the last stage's m (estimate_stage) */
	uint64_t part;           /* the part being walked (FRAY_STAGE_PART) */
	uint64_t part_paths;     /* paths walked before it */
	uint64_t part_states;    /* states waiting when it began */
	uint64_t part_stages;    /* its stages begun */
	alike_steps *alike;      /* the steps marked FRAY_STEP_ALIKE walked */
	bool forecast_alike;     /* the forecast is alike_forecast's */
	uint64_t next_tick;      /* paths at the next progress call */
} walker;

/* The paths between two progress calls (fray_enum_limits.progress). */
#define PROGRESS_TICK ((uint64_t)1 << 16)

static size_t table_bytes(const state_table *t)
{
	return t->live_blocks * BLOCK * t->esize + t->nblocks * sizeof *t->blocks +
	       (t->index ? (sizeof *t->index << t->bits) : 0);
}

static void table_init(state_table *t, size_t ssize)
{
	*t = (state_table){.ssize = ssize, .esize = (ENTRY_HEAD + ssize + 7) & ~(size_t)7};
}

static unsigned char *table_entry(const state_table *t, size_t e)
{
	return t->blocks[e >> BLOCK_SHIFT] + (e & (BLOCK - 1)) * t->esize;
}

static uint32_t entry_den(const unsigned char *en)
{
	uint32_t d;
	memcpy(&d, en + 16, sizeof d);
	return d;
}

/* Frees the GMP number of an entry not yet walked, if any. */
static void entry_clear(unsigned char *en)
{
	if (entry_den(en) == DEN_BIG) {
		frayi_xq x = {.num = 0, .den = 1};
		memcpy(&x.big, en, sizeof x.big);
		frayi_xq_clear(&x);
	}
	memset(en, 0, ENTRY_HEAD);
}

static void table_free_block(fray_ctx *ctx, state_table *t, size_t b)
{
	if (!t->blocks[b])
		return;
	size_t first = b << BLOCK_SHIFT, end = first + BLOCK < t->count ? first + BLOCK : t->count;
	for (size_t e = first; e < end; e++)
		entry_clear(table_entry(t, e));
	frayi_dealloc(ctx, t->blocks[b]);
	t->blocks[b] = NULL;
	t->live_blocks--;
}

static void table_fini(fray_ctx *ctx, state_table *t)
{
	for (size_t b = 0; b < t->nblocks; b++)
		table_free_block(ctx, t, b);
	frayi_dealloc(ctx, t->blocks);
	frayi_dealloc(ctx, t->index);
	table_init(t, t->ssize);
}

/* The hash of a state's bytes, as fold_states computes it from a key's
 * words (zeros past the state). */
static uint64_t state_hash(const unsigned char *state, size_t ssize)
{
	int64_t words[FRAY_STATE_MAX / 8];
	size_t n = (ssize + 7) / 8;
	words[n - 1] = 0;
	memcpy(words, state, ssize);
	return frayi_tally_hash(words, n);
}

static uint32_t index_tag(uint64_t h, unsigned bits)
{
	return bits >= 32 ? 0 : (uint32_t)(h >> (32 + bits)) << bits;
}

static bool table_reindex(fray_ctx *ctx, state_table *t, unsigned bits)
{
	uint32_t *index = frayi_calloc(ctx, (size_t)1 << bits, sizeof *index);
	if (!index)
		return false;
	size_t mask = ((size_t)1 << bits) - 1;
	for (size_t e = 0; e < t->count; e++) {
		uint64_t h = state_hash(table_entry(t, e) + ENTRY_HEAD, t->ssize);
		size_t i = h & mask;
		while (index[i])
			i = (i + 1) & mask;
		index[i] = index_tag(h, bits) | (uint32_t)(e + 1);
	}
	frayi_dealloc(ctx, t->index);
	t->index = index;
	t->bits = bits;
	return true;
}

static void table_prefetch(const state_table *t, uint64_t h)
{
	if (t->index)
		__builtin_prefetch(&t->index[h & (((size_t)1 << t->bits) - 1)]);
}

/* The entry of a state (hash h), made (probability zero) if new; NULL
 * when out of memory. */
static unsigned char *table_find(fray_ctx *ctx, state_table *t, const unsigned char *state, uint64_t h)
{
	if (!t->index && !table_reindex(ctx, t, INDEX_BITS_MIN))
		return NULL;
	if ((t->count + 1) * 4 > (size_t)3 << t->bits &&
	    (t->bits >= 32 || !table_reindex(ctx, t, t->bits + 1)))
		return NULL;
	size_t mask = ((size_t)1 << t->bits) - 1, i = h & mask;
	uint32_t tag = index_tag(h, t->bits), low = (uint32_t)mask;
	for (uint32_t v; (v = t->index[i]) != 0; i = (i + 1) & mask) {
		if ((v & ~low) != tag)
			continue;
		unsigned char *en = table_entry(t, (v & low) - 1);
		if (memcmp(en + ENTRY_HEAD, state, t->ssize) == 0)
			return en;
	}
	size_t e = t->count;
	if ((e & (BLOCK - 1)) == 0) {
		size_t b = e >> BLOCK_SHIFT;
		unsigned char **blocks = frayi_realloc(ctx, t->blocks, (b + 1) * sizeof *blocks);
		if (!blocks)
			return NULL;
		t->blocks = blocks;
		if (!(blocks[b] = frayi_alloc(ctx, BLOCK * t->esize)))
			return NULL;
		t->nblocks = b + 1;
		t->live_blocks++;
	}
	t->count++;
	unsigned char *en = table_entry(t, e);
	memset(en, 0, t->esize);
	memcpy(en + ENTRY_HEAD, state, t->ssize);
	t->index[i] = tag | (uint32_t)(e + 1);
	return en;
}

static uint64_t den_hash(frayi_u128 d)
{
	int64_t words[2];
	memcpy(words, &d, sizeof words);
	return frayi_tally_hash(words, 2);
}

/* The number of denominator d in the list, added if new; DEN_BIG when
 * out of memory. */
static uint32_t den_number(fray_ctx *ctx, den_list *l, frayi_u128 d)
{
	uint64_t h = den_hash(d);
	if ((l->count + 1) * 2 > ((size_t)1 << l->bits) || !l->index) {
		unsigned bits = l->index ? l->bits + 1 : 8;
		uint32_t *index = frayi_calloc(ctx, (size_t)1 << bits, sizeof *index);
		if (!index)
			return DEN_BIG;
		size_t mask = ((size_t)1 << bits) - 1;
		for (size_t n = 0; n < l->count; n++) {
			size_t i = den_hash(l->v[n]) & mask;
			while (index[i])
				i = (i + 1) & mask;
			index[i] = (uint32_t)(n + 1);
		}
		frayi_dealloc(ctx, l->index);
		l->index = index;
		l->bits = bits;
	}
	size_t mask = ((size_t)1 << l->bits) - 1, i = h & mask;
	for (; l->index[i]; i = (i + 1) & mask)
		if (l->v[l->index[i] - 1] == d)
			return l->index[i] - 1;
	if (l->count == l->cap) {
		size_t cap = frayi_grow(l->cap, l->count + 1, sizeof *l->v);
		frayi_u128 *v = cap ? frayi_realloc(ctx, l->v, cap * sizeof *v) : NULL;
		if (!v)
			return DEN_BIG;
		l->v = v;
		l->cap = cap;
	}
	l->v[l->count] = d;
	l->index[i] = (uint32_t)++l->count;
	return (uint32_t)(l->count - 1);
}

/* An entry's probability (its GMP number, if any, still the entry's). */
static frayi_xq entry_get(const walker *w, const unsigned char *en)
{
	frayi_xq x = FRAY_XQ_ZERO;
	uint32_t d = entry_den(en);
	if (d == DEN_BIG) {
		memcpy(&x.big, en, sizeof x.big);
	} else {
		memcpy(&x.num, en, sizeof x.num);
		if (x.num)
			x.den = w->dens.v[d];
	}
	return x;
}

/* Stores x in an entry (the entry takes x's GMP number). */
static bool entry_put(walker *w, unsigned char *en, const frayi_xq *x)
{
	uint32_t d = DEN_BIG;
	if (x->big) {
		memset(en, 0, 16);
		memcpy(en, &x->big, sizeof x->big);
	} else {
		if (x->num && (d = den_number(w->ctx, &w->dens, x->den)) == DEN_BIG)
			return false;
		if (!x->num)
			d = 0;
		memcpy(en, &x->num, sizeof x->num);
	}
	memcpy(en + 16, &d, sizeof d);
	return true;
}

static size_t tally_bytes(const frayi_tally *t)
{
	return t->cap * (t->nfields * sizeof(int64_t) + sizeof(frayi_xq)) + t->nslots * sizeof(*t->slots);
}

/* The memory budget: the outcomes and states collected and every GMP
 * number alive (checked every 64 paths, well before the machine runs out);
 * a malloc that failed under GMP (the reserve was given up) ends the work
 * here, never in an abort. */
/* The walk's own bytes: GMP's numbers aside (process-wide, counted once
 * by check_memory), the procedure's cache (frayi_enum_memo) included. */
static uint64_t walk_bytes(const walker *w)
{
	uint64_t used = w->r.en->deal_table_bytes + w->r.en->memo_bytes + tally_bytes(&w->out) +
			table_bytes(&w->walking.t) + tally_bytes(&w->local_out) +
			tally_bytes(&w->local_next) + w->cap_pending * sizeof *w->pending +
			w->dens.cap * sizeof *w->dens.v + (w->dens.index ? sizeof *w->dens.index << w->dens.bits : 0);
	for (size_t i = 0; i < w->npending; i++)
		used += table_bytes(&w->pending[i].t);
	return used;
}

static fray_status check_memory(walker *w)
{
	fray_ctx *ctx = w->ctx;
	if (frayi_gmp_failed())
		return frayi_fail(ctx, FRAY_ERR_NOMEM, "out of memory while enumerating; "
				 "simulate instead (--trials N)");
	uint64_t used = (uint64_t)frayi_gmp_live_bytes() + walk_bytes(w);
	if (used > w->max_bytes)
		return frayi_fail(ctx, FRAY_ERR_BUDGET, "exact odds need more than %llu MiB of memory "
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
		return frayi_fail(w->ctx, FRAY_ERR_INTERNAL, "fray_checkpoint: states of two sizes");
	frayi_tally_init(&w->local_next, w->ctx, words, true);
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
	frayi_tally *t;
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
			return frayi_nomem(w->ctx);
		return FRAY_OK;
	} else {
		t = &w->local_out;
		key = outcome;
	}
	size_t e = w->last_e;
	if (t != w->last_t || e >= t->count || !same_key(t->keys + e * t->nfields, key, t->nfields)) {
		e = frayi_tally_slot(t, key);
		if (e == SIZE_MAX)
			return frayi_nomem(w->ctx);
		w->last_t = t;
		w->last_e = e;
	}
	/* the common case: the entry's denominator is the path's (every split
	 * of a deal has C(total, k)), a sum of numerators that fits */
	frayi_xq *x = &t->x[e];
	unsigned d = en->depth;
	frayi_u128 sum;
	if (!en->big[d] && !x->big && x->num != 0 && x->den == en->pden[d] &&
	    !__builtin_add_overflow(x->num, en->pnum[d], &sum)) {
		x->num = sum;
		return FRAY_OK;
	}
	if (!add_path(en, x))
		return frayi_nomem(w->ctx);
	return FRAY_OK;
}

/* dst[k] += weight * src[k] for every entry of src; src is emptied. */
static fray_status fold(walker *w, frayi_tally *dst, frayi_tally *src, const frayi_xq *weight)
{
	for (size_t e = 0; e < src->count; e++) {
		size_t d = frayi_tally_slot(dst, src->keys + e * src->nfields);
		if (d == SIZE_MAX || !frayi_xq_addmul(&dst->x[d], weight, &src->x[e]))
			return frayi_nomem(w->ctx);
	}
	frayi_tally_reset(src);
	return FRAY_OK;
}

/* The tally of the states at `stage` if there is one yet. */
static state_table *find_stage(walker *w, uint64_t stage)
{
	for (size_t i = w->npending; i > 0; i--)
		if (w->pending[i - 1].stage == stage)
			return &w->pending[i - 1].t;
	return NULL;
}

/* The tally of the states at `stage`, made on first need in its place in
 * the order of stages. */
static state_table *stage_tally(walker *w, uint64_t stage)
{
	state_table *t = find_stage(w, stage);
	if (t)
		return t;
	if (w->npending == w->cap_pending) {
		size_t cap = frayi_grow(w->cap_pending, w->npending + 1, sizeof *w->pending);
		stage_states *p = cap ? frayi_realloc(w->ctx, w->pending, cap * sizeof *p) : NULL;
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
	table_init(&w->pending[i].t, w->r.en->state_size);
	return &w->pending[i].t;
}

/* ---- the estimate (fray_enum_progress) ---- */

/* The states reached and not yet walked from (each costs at least one
 * more path): the rest of the stage being walked and every stage after. */
static uint64_t states_waiting(const walker *w)
{
	uint64_t n = w->walking.t.count - w->walk_pos;
	for (size_t i = 0; i < w->npending; i++)
		n += w->pending[i].t.count;
	return n;
}

/* The states waiting in parts after the one being walked. */
static uint64_t later_waiting(const walker *w)
{
	uint64_t part = FRAY_STAGE_PART(w->walking.stage), n = 0;
	for (size_t i = 0; i < w->npending; i++)
		n += FRAY_STAGE_PART(w->pending[i].stage) > part ? w->pending[i].t.count : 0;
	return n;
}

/* Whether the states waiting in later parts are few enough to forecast:
 * their paths are counted at the current part's rate (estimate_stage),
 * which is no forecast of a part that holds many of them (Sandusky's
 * third round takes 21 paths a state, its second 189). */
static bool later_few(const walker *w)
{
	return (double)later_waiting(w) <= EST_LATER * (double)w->part_states;
}

static void tell(const walker *w, bool done)
{
	const fray_enum_limits *lim = w->lim;
	if (!lim || !lim->estimate)
		return;
	uint64_t part = FRAY_STAGE_PART(w->walking.stage);
	/* the pending stages are in increasing order: the last is the last part */
	uint64_t parts = w->npending ? FRAY_STAGE_PART(w->pending[w->npending - 1].stage) : part;
	fray_enum_progress pr = {
		.paths = w->paths, .max_paths = w->max_paths, .stage = w->stages,
		.stages_known = w->stages + w->npending, .states_waiting = done ? 0 : states_waiting(w),
		/* a forecast the walk has passed is no forecast, nor one made
		 * while states wait in a later part, whose growth it cannot see
		 * (a battle's next round) */
		.forecast_paths = done ? w->paths
				 : w->forecast > w->paths && (w->forecast_alike || later_few(w)) ? w->forecast : 0,
		.part = part, .parts_known = parts > part ? parts : part,
		.done = done,
	};
	lim->estimate(&pr, lim->ud);
}

/* ---- the forecast of the steps alike in every part (FRAY_STEP_ALIKE) ---- */

static bool is_alike(uint64_t stage)
{
	return (stage & FRAY_STEP_ALIKE) != 0;
}

/* The slot of an alike step (its part aside), a new one if add; -1 when
 * there is none (or no room: that step is then never forecast). */
static int alike_slot(alike_steps *a, uint64_t stage, bool add)
{
	uint64_t step = stage & 0xFFFFFFFFu;
	for (size_t i = 0; i < a->n; i++)
		if (a->step[i] == step)
			return (int)i;
	if (!add || a->n == ALIKE_MAX)
		return -1;
	a->step[a->n] = step;
	return (int)a->n++;
}

/* The count of `stage` in the snapshot taken when the last stage began. */
static uint64_t snap_count(const alike_steps *a, uint64_t stage)
{
	for (size_t i = 0; i < a->nsnap; i++)
		if (a->snap[i].stage == stage)
			return a->snap[i].count;
	return 0;
}

/* A stage begins (w->walking): what the one before it did is learned if
 * it was alike (its states, paths, and the states each stage waiting
 * gained since it began), and the stages waiting now are noted for the
 * next. Learning is skipped (no forecast then) when memory is short: the
 * estimate is no part of the answer. */
static void alike_learn(walker *w)
{
	if (!w->alike) {
		if (!is_alike(w->walking.stage))
			return;
		if (!(w->alike = frayi_calloc(w->ctx, 1, sizeof *w->alike)))
			return;
	}
	alike_steps *a = w->alike;
	int from = a->prev_alike ? alike_slot(a, a->prev_stage, true) : -1;
	if (from >= 0) {
		a->states[from] += a->prev_states;
		a->paths[from] += w->paths - a->prev_paths;
		for (size_t i = 0; i <= w->npending; i++) {
			const stage_states *ss = i < w->npending ? &w->pending[i] : &w->walking;
			uint64_t was = snap_count(a, ss->stage), gained = ss->t.count - was;
			int to = is_alike(ss->stage) && FRAY_STAGE_PART(ss->stage) == FRAY_STAGE_PART(a->prev_stage)
					 ? alike_slot(a, ss->stage, true) : -1;
			if (to >= 0)
				a->next[from][to] += gained;
			else
				a->other[from] += gained;
		}
	}
	if (a->cap_snap < w->npending) {
		void *p = frayi_realloc(w->ctx, a->snap, w->npending * sizeof *a->snap);
		if (!p) {
			a->prev_alike = false;
			a->nsnap = 0;
			return;
		}
		a->snap = p;
		a->cap_snap = w->npending;
	}
	for (size_t i = 0; i < w->npending; i++) {
		a->snap[i].stage = w->pending[i].stage;
		a->snap[i].count = w->pending[i].t.count;
	}
	a->nsnap = w->npending;
	a->prev_stage = w->walking.stage;
	a->prev_states = w->walking.t.count;
	a->prev_paths = w->paths;
	a->prev_alike = is_alike(w->walking.stage);
}

/* The forecast while an alike stage is walked (when it begins): each
 * alike stage of this part in increasing order of step, its states those
 * waiting plus those the stages before it are expected to leave (at the
 * rates learned), each taking the paths a state of that step took; the
 * states waiting elsewhere (a later part: a battle's extra round) and
 * those the alike steps leave there at the paths an alike state is
 * expected to take. None while a step waiting has never been walked, or
 * while more than a tenth of the states waiting are elsewhere (a next
 * round's, whose growth is not seen). 0: none. */
static uint64_t alike_forecast(const walker *w)
{
	const alike_steps *a = w->alike;
	if (!a || !is_alike(w->walking.stage))
		return 0;
	uint64_t part = FRAY_STAGE_PART(w->walking.stage);
	double n[ALIKE_MAX] = {0}, elsewhere = 0, here = 0;
	for (size_t i = 0; i <= w->npending; i++) {
		const stage_states *ss = i < w->npending ? &w->pending[i] : &w->walking;
		uint64_t count = i < w->npending ? ss->t.count : ss->t.count - w->walk_pos;
		if (!is_alike(ss->stage) || FRAY_STAGE_PART(ss->stage) != part) {
			elsewhere += (double)count;
			continue;
		}
		int k = alike_slot((alike_steps *)a, ss->stage, false);
		if (count && (k < 0 || a->states[k] == 0))
			return 0; /* never walked: its paths unknown */
		if (k >= 0)
			n[k] += (double)count;
		here += (double)count;
	}
	if (elsewhere > EST_LATER * here)
		return 0;
	/* the learned steps in increasing order */
	size_t order[ALIKE_MAX], m = 0;
	for (size_t i = 0; i < a->n; i++) {
		size_t j = m++;
		for (; j > 0 && a->step[order[j - 1]] > a->step[i]; j--)
			order[j] = order[j - 1];
		order[j] = i;
	}
	double paths = 0, states = 0, left_elsewhere = 0;
	for (size_t oi = 0; oi < m; oi++) {
		size_t k = order[oi];
		if (n[k] == 0)
			continue;
		if (a->states[k] == 0)
			return 0; /* reached, at the rates learned, but never walked */
		double per = n[k] / (double)a->states[k];
		paths += per * (double)a->paths[k];
		states += n[k];
		left_elsewhere += per * (double)a->other[k];
		for (size_t oj = oi + 1; oj < m; oj++)
			n[order[oj]] += per * (double)a->next[k][order[oj]];
	}
	if (states == 0)
		return 0;
	double fc = (double)w->paths + paths + (elsewhere + left_elsewhere) * paths / states;
	return fc < 1e18 ? (uint64_t)fc + 1 : 0;
}

/* A stage of the table begins. Over the last EST_WINDOW stages: m, the
 * states a state walked left waiting (after merging: one, plus the change
 * in the states waiting over the states walked), and r, the paths a state
 * took. When m < EST_SHRINKING the states waiting are running out, and
 * the rest is forecast as waiting / (1 - m) states at r paths each; the
 * forecast is given when EST_AGREE of them in a row agree (fray_enum_progress
 * in roller.h), over stages of the part being walked only (a battle's
 * round: FRAY_STAGE_PART) and only while the states waiting in later
 * parts are few (EST_LATER: their growth is not seen yet; Sandusky's
 * walk ran out of states in round 2's melee, and the forecast then was
 * 0.21x the paths left, round 3 unseen). Those few are counted at the
 * paths a state that began this part took (the part's paths so far and
 * forecast, over the states waiting when it began). Returns the projection: paths + waiting * r, times m when
 * m >= EST_GROWING (the waiting states' paths, and one more stage of
 * growth while they multiply; a walk that merely keeps its size, such as
 * a race whose states grow by one a stage, is not inflated, so a budget
 * it fits is not refused). It cannot see the growth of later rounds and
 * underestimates a battle that has them (Lochry's, Sandusky's and Blue
 * Licks' walks end at most 1.03x past their highest projection) but can
 * overestimate by about 2.5x where a round begins (Lochry's round 3).
 * Twice Blue Licks' projection passes 30,000,000 paths after 5.2 million
 * (its waiting states then multiply threefold a stage). */
static double estimate_stage(walker *w)
{
	uint64_t waiting = states_waiting(w);
	if (w->stages == 1 || FRAY_STAGE_PART(w->walking.stage) != w->part) {
		/* a part begins: what its states grow to is not what the
		 * last part's did, so its estimate starts afresh */
		w->part = FRAY_STAGE_PART(w->walking.stage);
		w->part_paths = w->paths;
		w->part_states = waiting;
		w->part_stages = 0;
	}
	w->part_stages++;
	alike_learn(w);
	memmove(w->marks + 1, w->marks, EST_WINDOW * sizeof *w->marks);
	w->marks[0] = (stage_mark){.paths = w->paths, .waiting = waiting, .states = w->walking.t.count};
	if (w->nmarks <= EST_WINDOW)
		w->nmarks++;
	w->stages++;
	memmove(w->forecasts + 1, w->forecasts, (EST_AGREE - 1) * sizeof *w->forecasts);
	w->forecasts[0] = 0;
	w->growth = 0;
	/* an alike stage's forecast, when it has one, is the forecast */
	w->forecast = alike_forecast(w);
	w->forecast_alike = w->forecast != 0;
	if (w->nmarks <= EST_WINDOW)
		return 0;
	const stage_mark *then = &w->marks[EST_WINDOW];
	uint64_t walked = 0;
	for (int i = 1; i <= EST_WINDOW; i++)
		walked += w->marks[i].states;
	if (walked == 0)
		return 0;
	double m = 1 + ((double)waiting - (double)then->waiting) / (double)walked;
	double r = (double)(w->paths - then->paths) / (double)walked;
	w->growth = m;
	if (m < EST_SHRINKING && w->part_stages > EST_WINDOW && later_few(w)) {
		/* the rest of this part, then the states waiting in the next
		 * at the paths this part's first states took each */
		uint64_t later = later_waiting(w);
		double rest = (double)(waiting - later) / (1 - m) * r;
		double part_paths = (double)(w->paths - w->part_paths) + rest;
		double fc = (double)w->paths + rest + (later ? (double)later * part_paths / (double)w->part_states : 0);
		w->forecasts[0] = fc < 1e18 ? (uint64_t)fc + 1 : 0;
	}
	uint64_t lo = UINT64_MAX, hi = 0;
	for (int i = 0; i < EST_AGREE; i++) {
		lo = w->forecasts[i] < lo ? w->forecasts[i] : lo;
		hi = w->forecasts[i] > hi ? w->forecasts[i] : hi;
	}
	if (lo > 0 && (double)hi <= EST_SPREAD * (double)lo && !w->forecast_alike)
		w->forecast = w->forecasts[0];
	return (double)w->paths + (double)waiting * r * (m >= EST_GROWING ? m : 1);
}

/* The states one state reached, weighted, each into its stage's table.
 * Their slots are fetched ahead, a batch at a time: the stages' tables
 * are big, and their slots cache misses. */
static fray_status fold_states(walker *w, const frayi_xq *weight)
{
	enum { BATCH = 16 };
	frayi_tally *src = &w->local_next;
	size_t words = src->nfields - 1; /* the stage, then the state */
	for (size_t first = 0; first < src->count; first += BATCH) {
		size_t n = src->count - first < BATCH ? src->count - first : BATCH;
		uint64_t h[BATCH];
		for (size_t i = 0; i < n; i++) {
			const int64_t *key = src->keys + (first + i) * src->nfields;
			h[i] = frayi_tally_hash(key + 1, words);
			const state_table *dst = find_stage(w, (uint64_t)key[0]);
			if (dst)
				table_prefetch(dst, h[i]);
		}
		for (size_t i = 0; i < n; i++) {
			size_t e = first + i;
			const int64_t *key = src->keys + e * src->nfields;
			state_table *dst = stage_tally(w, (uint64_t)key[0]);
			unsigned char *en = dst ? table_find(w->ctx, dst, (const unsigned char *)(key + 1), h[i]) : NULL;
			if (!en)
				return frayi_nomem(w->ctx);
			frayi_xq x = entry_get(w, en);
			if (!frayi_xq_addmul(&x, weight, &src->x[e]) || !entry_put(w, en, &x))
				return frayi_nomem(w->ctx);
		}
	}
	frayi_tally_reset(src);
	return FRAY_OK;
}

/* The checks of the walk made every 64 paths: the memory budget, a stop
 * asked (Ctrl-C: 64 paths are microseconds), and every 65,536 paths the
 * progress. */
static fray_status every_64_paths(walker *w)
{
	fray_status st = check_memory(w);
	if (st != FRAY_OK)
		return st;
	const fray_enum_limits *lim = w->lim;
	if (lim && lim->stop && *lim->stop)
		return frayi_fail(w->ctx, FRAY_ERR_BUDGET, "stopped after %llu paths",
				 (unsigned long long)w->paths);
	if (lim && w->paths >= w->next_tick) {
		w->next_tick += PROGRESS_TICK;
		/* an alike stage's forecast from the states it has left */
		uint64_t fc = w->forecast_alike && lim->estimate ? alike_forecast(w) : 0;
		w->forecast = fc ? fc : w->forecast;
		if (lim->progress)
			lim->progress(w->paths, w->max_paths, lim->ud);
		tell(w, false);
	}
	return FRAY_OK;
}

/* Runs every path from one start: the beginning (resume NULL) or a state
 * of stage `stage` reached with probability *weight (1 at the beginning). */
static fray_status walk_from(walker *w, const unsigned char *resume, uint64_t stage,
			     const frayi_xq *weight)
{
	fray_roller *r = &w->r;
	enum_state *en = r->en;
	frayi_enum_walk_start(r, resume, stage);
	fray_status st;
	do {
		if (++w->paths > w->max_paths)
			return frayi_fail(w->ctx, FRAY_ERR_LIMIT,
					 "more than %llu outcome paths: too many to "
					 "enumerate exactly; simulate instead",
					 (unsigned long long)w->max_paths);
		/* the per-path bookkeeping is kept small (issue #33: a deal's
		 * split costs a path): every field cleared by fixed stores, the
		 * run begun again only when the last one stopped (a failed run
		 * ends the walk, so only a cut or a checkpoint), the checks
		 * below every 64 paths */
		int64_t outcome[FRAY_OUTCOME_MAX_FIELDS] = {0};
		if ((st = frayi_enum_replay(r, w->proc, w->p, w->input, outcome)) != FRAY_OK)
			return frayi_fail(w->ctx, st, "%s", r->msg);
		if ((st = record_end(w, outcome)) != FRAY_OK)
			return st;
		if ((w->paths & 63) == 0 && (st = every_64_paths(w)) != FRAY_OK)
			return st;
	} while (frayi_enum_next_path(en));
	if ((st = fold(w, &w->out, &w->local_out, weight)) != FRAY_OK)
		return st;
	if (w->local_next.nfields && (st = fold_states(w, weight)) != FRAY_OK)
		return st;
	bool ok = frayi_xq_addmul(&w->unresolved, weight, &w->local_unres);
	frayi_xq_clear(&w->local_unres);
	return ok ? FRAY_OK : frayi_nomem(w->ctx);
}

/* The beginning, then the states of each stage in increasing order, until
 * no path stops at a checkpoint any more. Stages past the depth limit are
 * unresolved, as a path cut there would be. */
static fray_status walk(walker *w)
{
	frayi_xq one = {.num = 1, .den = 1};
	w->stages = 1;
	tell(w, false);
	fray_status st = walk_from(w, NULL, 0, &one);
	unsigned char *state = frayi_alloc(w->ctx, FRAY_STATE_MAX);
	if (!state)
		return frayi_nomem(w->ctx);
	for (unsigned stages = 1; st == FRAY_OK && w->npending > 0; stages++) {
		w->walking = w->pending[0];
		memmove(w->pending, w->pending + 1, --w->npending * sizeof *w->pending);
		w->walk_pos = 0;
		double projection = estimate_stage(w);
		if (projection > (double)w->max_paths) {
			/* early, with its reason (issue #33): not after the budget */
			st = frayi_fail(w->ctx, FRAY_ERR_LIMIT, "exact odds would take more than %llu "
				       "outcome paths (the budget): after %llu, %llu states wait and each "
				       "state walked leaves %.1f new ones (a projection from the last %d "
				       "stages); simulate instead",
				       (unsigned long long)w->max_paths, (unsigned long long)w->paths,
				       (unsigned long long)states_waiting(w), w->growth, EST_WINDOW);
			break;
		}
		tell(w, false);
		state_table *from = &w->walking.t;
		/* no state is added to a stage being walked (stages grow) */
		frayi_dealloc(w->ctx, from->index);
		from->index = NULL;
		for (size_t e = 0; e < from->count && st == FRAY_OK; e++) {
			unsigned char *en = table_entry(from, e);
			frayi_xq x = entry_get(w, en);
			if (stages > w->r.en->max_depth) {
				if (!frayi_xq_add_xq(&w->unresolved, &x))
					st = frayi_nomem(w->ctx);
			} else {
				memcpy(state, en + ENTRY_HEAD, from->ssize);
				w->walk_pos = e + 1;
				st = walk_from(w, state, w->walking.stage, &x);
			}
			if ((e + 1) % BLOCK == 0 || e + 1 == from->count)
				table_free_block(w->ctx, from, e >> BLOCK_SHIFT);
		}
		table_fini(w->ctx, from);
		w->walk_pos = 0;
	}
	frayi_dealloc(w->ctx, state);
	if (st == FRAY_OK)
		tell(w, true);
	return st;
}

static fray_status enumerate_walk(fray_ctx *ctx, fray_procedure proc, fray_policy *p, const void *input,
				  size_t nfields, const fray_enum_limits *lim, fray_dist **out,
				  uint64_t *paths);

FRAY_API fray_status fray_enumerate(fray_ctx *ctx, fray_procedure proc,
				    fray_policy *p, const void *input,
				    size_t nfields, const fray_enum_limits *lim,
				    fray_dist **out)
{
	if (!ctx)
		return FRAY_ERR_INPUT;
	fray_ctx_clear(ctx); /* each call's message is its own */
	uint64_t paths = 0;
	return enumerate_walk(ctx, proc, p, input, nfields, lim, out, &paths);
}

/* ---- a procedure's parts walked on their own (roller_inner.h) ---- */

fray_status frayi_enum_inner(fray_roller *r, fray_procedure proc, fray_policy *p, const void *input,
			     size_t nfields, fray_dist **out)
{
	*out = NULL;
	if (!frayi_roller_staging(r) || !r->en->owner) {
		fray_roller_fail(r, FRAY_ERR_INTERNAL, "frayi_enum_inner: not in a walk by stages");
		return FRAY_ERR_INTERNAL;
	}
	walker *w = r->en->owner;
	fray_enum_limits lim = {
		.max_depth = r->en->max_depth,
		.max_paths = w->paths < w->max_paths ? w->max_paths - w->paths : 1,
		/* what the walk holds leaves the rest to the part: together
		 * within the one budget (GMP's numbers are counted by both) */
		.max_bytes = walk_bytes(w) < w->max_bytes ? w->max_bytes - walk_bytes(w) : 1,
		.stop = w->lim ? w->lim->stop : NULL,
	};
	uint64_t paths = 0;
	fray_status st = enumerate_walk(r->ctx, proc, p, input, nfields, &lim, out, &paths);
	/* the inner walk's paths are this walk's: its budget, its count and
	 * the progress calls they pass (every_64_paths makes the rest) */
	w->paths += paths;
	for (; w->lim && w->paths >= w->next_tick; w->next_tick += PROGRESS_TICK)
		if (w->lim->progress)
			w->lim->progress(w->paths, w->max_paths, w->lim->ud);
	if (st == FRAY_ERR_LIMIT) { /* the budget is the walk's: said as walk_from says it */
		fray_ctx_clear(r->ctx); /* the walk's failure is said once, by the walk */
		char msg[FRAY_MSG_MAX];
		snprintf(msg, sizeof msg, "more than %llu outcome paths: too many to enumerate exactly "
			 "(after %llu, a part walked on its own needed more than the %llu left); simulate instead",
			 (unsigned long long)w->max_paths, (unsigned long long)(w->paths - paths),
			 (unsigned long long)lim.max_paths);
		fray_roller_fail(r, st, msg);
	} else if (st == FRAY_ERR_BUDGET) { /* the memory budget is the walk's too, said with its size */
		fray_ctx_clear(r->ctx);
		char msg[FRAY_MSG_MAX];
		snprintf(msg, sizeof msg, "exact odds need more than %llu MiB of memory (the budget, --max-memory; "
			 "a part walked on its own passed what the walk left it): simulate instead (--trials N)",
			 (unsigned long long)(w->max_bytes >> 20));
		fray_roller_fail(r, st, msg);
	} else if (st != FRAY_OK) {
		fray_roller_fail(r, st, fray_ctx_message(r->ctx));
	}
	return st;
}

size_t frayi_enum_branch(fray_roller *r, size_t n, const frayi_xq *x)
{
	if (!frayi_roller_staging(r) || n == 0 || n > UINT32_MAX) {
		fray_roller_fail(r, FRAY_ERR_INTERNAL, "frayi_enum_branch: not in a walk by stages");
		return 0;
	}
	if (n == 1) /* probability 1: no event */
		return 0;
	uint32_t c;
	bool need;
	if (!frayi_enum_step(r, (uint32_t)n, &c, &need))
		return 0;
	if (need) {
		const frayi_xq *b = &x[c];
		if (!b->big) {
			frayi_enum_commit_small(r, b->num, b->den);
		} else {
			mpz_set(r->en->num, mpq_numref(b->big));
			mpz_set(r->en->den, mpq_denref(b->big));
			frayi_enum_commit(r);
		}
	}
	return c;
}

void *frayi_enum_memo(fray_roller *r, size_t size, void (*fini)(fray_ctx *ctx, void *memo),
		      fray_ctx **ctx, uint64_t **bytes)
{
	*ctx = r->ctx;
	*bytes = r->mode == ROLLER_ENUMERATE ? &r->en->memo_bytes : NULL;
	if (r->mode != ROLLER_ENUMERATE)
		return NULL;
	enum_state *en = r->en;
	if (!en->memo && (en->memo = frayi_calloc(r->ctx, 1, size)) != NULL)
		en->memo_fini = fini;
	return en->memo;
}

/* fray_enumerate with ctx's message left as it is; *paths gets the paths
 * walked, whatever the walk's end. */
static fray_status enumerate_walk(fray_ctx *ctx, fray_procedure proc, fray_policy *p, const void *input,
				  size_t nfields, const fray_enum_limits *lim, fray_dist **out,
				  uint64_t *paths)
{
	if (!out || !proc)
		return frayi_fail(ctx, FRAY_ERR_INPUT, "fray_enumerate: NULL argument");
	*out = NULL;
	if (nfields < 1 || nfields > FRAY_OUTCOME_MAX_FIELDS)
		return frayi_fail(ctx, FRAY_ERR_INTERNAL,
				 "an outcome has 1 to %d fields, not %zu",
				 FRAY_OUTCOME_MAX_FIELDS, nfields);
	if (p && !fray_policy_deterministic(p))
		return frayi_fail(ctx, FRAY_ERR_INPUT,
				 "exact odds need a deterministic policy; '%s' is not",
				 fray_policy_name(p));
	/* a best policy's questions are max nodes of the walk (issue 44) */
	if (fray_policy_has_best(p) && !frayi_best_plain(p))
		return frayi_best_enumerate(ctx, proc, p, input, nfields, lim, out);
	unsigned max_depth = lim && lim->max_depth ? lim->max_depth
						   : FRAY_ENUM_DEFAULT_DEPTH;
	if (!frayi_gmp_guard())
		return frayi_nomem(ctx);

	walker *w = frayi_calloc(ctx, 1, sizeof *w);
	if (!w)
		return frayi_nomem(ctx);
	*w = (walker){
		.ctx = ctx, .proc = proc, .p = p, .input = input, .lim = lim,
		.max_paths = lim && lim->max_paths ? lim->max_paths : FRAY_ENUM_DEFAULT_PATHS,
		.max_bytes = lim && lim->max_bytes ? lim->max_bytes : FRAY_ENUM_DEFAULT_BYTES,
		.unresolved = FRAY_XQ_ZERO, .local_unres = FRAY_XQ_ZERO, .next_tick = PROGRESS_TICK,
		.r = {.ctx = ctx, .mode = ROLLER_ENUMERATE},
	};
	frayi_tally_init(&w->out, ctx, nfields, true);
	frayi_tally_init(&w->local_out, ctx, nfields, true);
	fray_status st;
	w->r.en = frayi_enum_state_new(ctx, max_depth);
	if (!w->r.en || !(w->r.en->key = frayi_alloc(ctx, FRAY_STATE_MAX))) {
		st = frayi_nomem(ctx);
		goto done;
	}
	w->r.en->staging = fray_policy_memoryless(p);
	w->r.en->owner = w;
	w->r.en->deal_table_max = frayi_deal_tables_max(w->max_bytes);

	if ((st = walk(w)) != FRAY_OK || (st = check_memory(w)) != FRAY_OK)
		goto done;
	st = frayi_tally_to_dist(&w->out, 0, &w->unresolved, out);
	if (st == FRAY_OK && frayi_gmp_failed()) {
		fray_dist_free(*out);
		*out = NULL;
		st = frayi_nomem(ctx);
	}
done:
	*paths = w->paths;
	frayi_xq_clear(&w->unresolved);
	frayi_xq_clear(&w->local_unres);
	frayi_tally_fini(&w->out);
	frayi_tally_fini(&w->local_out);
	frayi_tally_fini(&w->local_next);
	table_fini(ctx, &w->walking.t);
	for (size_t i = 0; i < w->npending; i++)
		table_fini(ctx, &w->pending[i].t);
	frayi_dealloc(ctx, w->dens.v);
	frayi_dealloc(ctx, w->dens.index);
	frayi_dealloc(ctx, w->pending);
	if (w->alike)
		frayi_dealloc(ctx, w->alike->snap);
	frayi_dealloc(ctx, w->alike);
	frayi_enum_state_free(ctx, w->r.en);
	frayi_dealloc(ctx, w);
	return st;
}
