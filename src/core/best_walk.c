/* The best policy's exact walk (issue 44; docs/design.md, "The best
 * policy"). A best question is a branch of the walk, like a die, but a max
 * node: the asking side takes the option of highest value. Values come by
 * backward induction over the procedure's checkpoint states: a state's
 * paths to the next checkpoints (its local tree of dice and questions)
 * are walked once, the states they reach are valued first (recursively,
 * each once: a memo keyed by the stage and the state's bytes), then the
 * tree is folded: a die's node sums its branches, weighted by their exact
 * probabilities; a question's node keeps the option best for its side
 * (ties: the rules' suggestion, then the lowest option). Values are exact
 * rationals (GMP), compared exactly; only the sides that ask keep them.
 * Each state keeps the paths its fold took, merged by where they end (its
 * edges); a forward pass propagates the probabilities along them, in order
 * of stage, for the outcomes' distribution (no state is walked twice, and
 * only the backward walk counts against the budget). Over the budget,
 * the kind of question that added the most paths falls back to the
 * heuristic's answer and the walk begins again: the report names it. */
#include <stdio.h>
#include <string.h>
#include "best.h"
#include "dist_internal.h"
#include "roller_internal.h"

enum { END_OUT, END_STATE, END_CUT };
/* A budget of fewer paths than twice this has no probe (its first attempt
 * has the whole budget). */
enum { BEST_PROBE_FLOOR = 1000000 };

/* A step of a recorded path: the branch taken, and 0 for a die or 1 +
 * the side for a question (with the rules' suggestion). */
typedef struct bstep {
	uint32_t choice;
	uint32_t sugg;
	uint8_t dec;
} bstep;

typedef struct lpath {
	size_t step0, ref; /* END_OUT: the outcome's first field in out; END_STATE: a memo entry */
	uint32_t nsteps;
	uint32_t extra;    /* the kinds whose other options it takes (a bit each) */
	uint8_t end;
	bool pruned;       /* an option not taken (fold) */
	frayi_xq prob;     /* from the start of the local walk */
} lpath;

/* The paths from one start, in the walk's (depth-first) order. */
typedef struct lrec {
	lpath *p;
	size_t n, cap;
	bstep *s;
	size_t ns, caps;
	int64_t *out;
	size_t nout, capout;
} lrec;

/* A state met: its stage and bytes (entry e's at keys + e * ssize), the
 * low half of its hash, whether valued, queued
 * (forward pass); its value for each side that asks best questions in
 * val[nv e + vs[side]] (a side that never asks needs none: its value at
 * the beginning comes from the outcomes' distribution). */
enum { VALUED = 1, QUEUED = 2, PENDING = 4 };
typedef struct mentry {
	uint32_t sx;    /* its stage: bwalk.stages[sx] */
	uint32_t hash;
	uint32_t edge0; /* its edges: edge[edge0 .. edge0 + nedge - 1] */
	uint32_t nedge : 29;
	uint32_t flags : 3;
} mentry; /* 16 bytes: a big walk has millions */

/* A successor of a valued state under the options taken (the paths its
 * fold kept, merged by where they end): a state, an outcome (its index in
 * out, where the forward pass sums its probability) or the depth limit, and the probability of reaching it. The
 * forward pass propagates along these: no state is walked twice. */
typedef struct bedge {
	uint64_t num, den; /* in lowest terms; when wide, num indexes bwalk.wide */
	uint32_t ref;
	uint8_t end;
	bool wide;
} bedge;

typedef struct kind_stat {
	const char *kind;
	int side;
	uint64_t asked;
	uint64_t extra; /* paths through an option other than the suggestion */
	uint64_t charge; /* paths walked through or below such an option */
	uint32_t below; /* the walk is below so many of its other options now */
	uint64_t pending; /* an attempt over the budget: the paths its other options' states not valued would take, projected */
	bool demoted;
} kind_stat;

/* A state's value as kept: a fraction in lowest terms in two 128-bit
 * words (32 bytes, where an mpq_t is 32 plus two allocations of its
 * limbs); den 0 when it does not fit (negative, or wider): then num
 * indexes bwalk.bigv, GMP's. */
typedef struct bval {
	frayi_u128 num, den;
} bval;

typedef struct hitem {
	uint64_t stage;
	size_t e;
} hitem;

typedef struct bwalk {
	fray_ctx *ctx;
	fray_roller r;
	fray_procedure proc;
	fray_policy *p;
	const void *input;
	size_t nfields;
	const fray_enum_limits *lim;
	uint64_t max_paths, max_bytes, paths;
	uint64_t budget; /* this attempt's paths (max_paths, or less for a probe) */
	bool plain;      /* every kind fell back: fray_enumerate's own walk */
	frayi_best *b[2];
	fray_goal goal[2];
	fray_outcome_worth worth;
	/* per depth of the path being run: 0 a die, 1 + side a question;
	 * the suggestion; the kind */
	uint8_t *dec;
	uint32_t *sugg;
	uint16_t *kind;
	unsigned max_depth;
	/* the memo */
	mentry *e;
	size_t ne, cape;
	uint64_t *stages; /* the stages met (a battle has a few hundred) */
	size_t nstages, capstages, last_sx;
	unsigned char *keys;
	size_t nkeys, capkeys, ssize;
	uint32_t *index;
	unsigned bits;
	bval *val;
	size_t capv; /* entries val has room for */
	size_t nv;  /* values a state: the sides that ask */
	int vs[2];  /* a side's among them, or -1 */
	/* zero-sum: both sides ask, under the goal `win`: one value a state,
	 * side 0's (side 1's is 1 minus it: each outcome is worth 1 to the two
	 * sides together, and no path is cut; a cut path ends it) */
	bool zs, zs_cut;
	mpq_t *bigv; /* the values that do not fit a bval */
	size_t nbigv, capbigv;
	frayi_xq *fwd; /* the forward pass's weights, by entry (made for it) */
	bedge *edge;
	size_t nedge, capedge;
	frayi_xq *wide; /* the edges' probabilities past 64 bits */
	size_t nwide, capwide;
	size_t root0, nroot;  /* the beginning's edges */
	kind_stat k[FRAY_BEST_KINDS];
	size_t nk;
	/* the forward pass */
	hitem *heap;
	size_t nheap, capheap;
	frayi_tally out;
	frayi_xq unresolved;
} bwalk;

/* ---- the questions ---- */

static size_t kind_of(bwalk *w, const char *kind, int side)
{
	for (size_t i = 0; i < w->nk; i++)
		if (w->k[i].side == side && (w->k[i].kind == kind || strcmp(w->k[i].kind, kind) == 0))
			return i;
	if (w->nk == FRAY_BEST_KINDS)
		return FRAY_BEST_KINDS - 1; /* more kinds than any rule set asks: counted with the last */
	w->k[w->nk] = (kind_stat){.kind = kind, .side = side};
	return w->nk++;
}

size_t frayi_bwalk_decide(struct bwalk *w, const frayi_best *b, const fray_choice *c, char *msg, size_t cap)
{
	(void)b, (void)msg, (void)cap;
	int side = c->side == 1 ? 1 : 0;
	size_t ki = kind_of(w, c->kind ? c->kind : "?", side);
	enum_state *en = w->r.en;
	unsigned d = en->depth;
	bool fresh = d >= en->len;
	if (w->k[ki].demoted || c->noptions == 1) {
		w->k[ki].asked += fresh; /* roughly: a question on the path's last stretch */
		return c->suggested; /* the heuristic's answer, told in the report */
	}
	uint32_t choice;
	bool need;
	if (w->plain) {
		w->k[ki].demoted = true;
		return c->suggested; /* every kind fell back: the ordinary walk asks */
	}
	if (!frayi_enum_step(&w->r, (uint32_t)c->noptions, &choice, &need))
		return c->suggested;
	if (need)
		frayi_enum_commit_small(&w->r, 1, 1); /* a choice, not a chance: weight 1 */
	w->dec[d] = (uint8_t)(1 + side);
	w->sugg[d] = (uint32_t)c->suggested;
	w->kind[d] = (uint16_t)ki;
	if (fresh)
		w->k[ki].asked++;
	return choice;
}

/* ---- the memo ---- */

static bool grow(fray_ctx *ctx, void **v, size_t *cap, size_t need, size_t elem)
{
	if (need <= *cap)
		return true;
	size_t c = frayi_grow(*cap, need, elem);
	void *p = c ? frayi_realloc(ctx, *v, c * elem) : NULL;
	if (!p)
		return false;
	*v = p;
	*cap = c;
	return true;
}

/* grow for the walk's big arrays (its states, their bytes, values and
 * edges): past 1 MiB straight to 48 MiB, which malloc maps apart (glibc:
 * above its mmap threshold, at most 32 MiB) and grows in place, with no
 * copy. A heap block copied at each doubling instead leaves the old one
 * resident: 30-50 MiB more on Sandusky. Pages not written cost nothing. */
enum { BIG_FROM = 1 << 20, BIG_MIN = 48 << 20 };
static bool big_grow(fray_ctx *ctx, void **v, size_t *cap, size_t need, size_t elem)
{
	if (need <= *cap)
		return true;
	size_t c = frayi_grow(*cap, need, elem);
	if (c && c * elem >= BIG_FROM && c * elem < BIG_MIN)
		c = BIG_MIN / elem;
	void *p = c ? frayi_realloc(ctx, *v, c * elem) : NULL;
	if (!p)
		return false;
	*v = p;
	*cap = c;
	return true;
}

static uint64_t key_hash(uint64_t stage, const unsigned char *k, size_t n)
{
	uint64_t h = 1469598103934665603u ^ stage * 0x9E3779B97F4A7C15u;
	for (size_t i = 0; i < n; i++)
		h = (h ^ k[i]) * 1099511628211u;
	return h ^ h >> 29;
}

static bool reindex(bwalk *w, unsigned bits)
{
	uint32_t *ix = frayi_calloc(w->ctx, (size_t)1 << bits, sizeof *ix);
	if (!ix)
		return false;
	size_t mask = ((size_t)1 << bits) - 1;
	for (size_t e = 0; e < w->ne; e++) {
		size_t i = w->e[e].hash & mask;
		while (ix[i])
			i = (i + 1) & mask;
		ix[i] = (uint32_t)(e + 1);
	}
	frayi_dealloc(w->ctx, w->index);
	w->index = ix;
	w->bits = bits;
	return true;
}

/* The entry of a state, made if new; SIZE_MAX when out of memory. */
static size_t memo_find(bwalk *w, uint64_t stage, const unsigned char *k)
{
	uint32_t h = (uint32_t)key_hash(stage, k, w->ssize);
	if ((!w->index || (w->ne + 1) * 4 > (size_t)3 << w->bits) && !reindex(w, w->index ? w->bits + 1 : 12))
		return SIZE_MAX;
	size_t mask = ((size_t)1 << w->bits) - 1, i = h & mask;
	for (uint32_t v; (v = w->index[i]) != 0; i = (i + 1) & mask) {
		const mentry *m = &w->e[v - 1];
		if (m->hash == h && w->stages[m->sx] == stage && memcmp(w->keys + (size_t)(v - 1) * w->ssize, k, w->ssize) == 0)
			return v - 1;
	}
	if (w->ne == UINT32_MAX - 1)
		return SIZE_MAX;
	size_t sx = w->last_sx < w->nstages && w->stages[w->last_sx] == stage ? w->last_sx : 0;
	while (sx < w->nstages && w->stages[sx] != stage)
		sx++;
	if (sx == w->nstages) {
		if (sx == UINT32_MAX || !grow(w->ctx, (void **)&w->stages, &w->capstages, sx + 1, sizeof *w->stages))
			return SIZE_MAX;
		w->stages[w->nstages++] = stage;
	}
	w->last_sx = sx;
	if (!big_grow(w->ctx, (void **)&w->e, &w->cape, w->ne + 1, sizeof *w->e) ||
	    !big_grow(w->ctx, (void **)&w->val, &w->capv, w->ne + 1, w->nv * sizeof *w->val) ||
	    !big_grow(w->ctx, (void **)&w->keys, &w->capkeys, w->nkeys + w->ssize, 1))
		return SIZE_MAX;
	size_t e = w->ne++;
	memcpy(w->keys + w->nkeys, k, w->ssize);
	w->e[e] = (mentry){.sx = (uint32_t)sx, .hash = h};
	w->nkeys += w->ssize;
	for (size_t v = 0; v < w->nv; v++)
		w->val[w->nv * e + v] = (bval){.num = 0, .den = 1};
	w->index[i] = (uint32_t)(e + 1);
	return e;
}

static void bigv_clear(bwalk *w)
{
	for (size_t i = 0; i < w->nbigv; i++)
		mpq_clear(w->bigv[i]);
	w->nbigv = 0;
}

/* The stored value *b, into v. */
static void val_get(const bwalk *w, const bval *b, mpq_t v)
{
	if (b->den == 0) {
		mpq_set(v, w->bigv[(size_t)b->num]);
		return;
	}
	frayi_u128_to_mpz(mpq_numref(v), b->num);
	frayi_u128_to_mpz(mpq_denref(v), b->den);
}

/* *b = v (canonical); false when memory ran out. */
static bool val_set(bwalk *w, bval *b, mpq_srcptr v)
{
	frayi_u128 n, d;
	if (frayi_mpz_to_u128(mpq_numref(v), &n) && frayi_mpz_to_u128(mpq_denref(v), &d)) {
		*b = (bval){.num = n, .den = d};
		return true;
	}
	if (!grow(w->ctx, (void **)&w->bigv, &w->capbigv, w->nbigv + 1, sizeof *w->bigv))
		return false;
	mpq_init(w->bigv[w->nbigv]);
	mpq_set(w->bigv[w->nbigv], v);
	*b = (bval){.num = w->nbigv++, .den = 0};
	return true;
}

static void memo_clear(bwalk *w)
{
	bigv_clear(w);
	for (size_t e = 0; e < w->ne; e++)
		if (w->fwd)
			frayi_xq_clear(&w->fwd[e]);
	frayi_dealloc(w->ctx, w->fwd);
	w->fwd = NULL;
	for (size_t i = 0; i < w->nwide; i++)
		frayi_xq_clear(&w->wide[i]);
	w->nwide = 0;
	w->nedge = 0;
	w->nroot = 0;
	if (w->out.ctx)
		frayi_tally_reset(&w->out);
	w->ne = 0;
	w->nkeys = 0;
	if (w->index)
		memset(w->index, 0, sizeof *w->index << w->bits);
}

static fray_status check_memory(bwalk *w)
{
	if (frayi_gmp_failed())
		return frayi_fail(w->ctx, FRAY_ERR_NOMEM, "out of memory while valuing the best policy's options");
	uint64_t used = (uint64_t)frayi_gmp_live_bytes() + w->ne * (sizeof *w->e + w->nv * sizeof *w->val) + w->capbigv * sizeof *w->bigv +
			(w->fwd ? w->ne * sizeof *w->fwd : 0) +
			w->nkeys + (w->index ? sizeof *w->index << w->bits : 0) + w->capheap * sizeof *w->heap +
			w->nedge * sizeof *w->edge + w->capwide * sizeof *w->wide + w->out.cap * (w->nfields * sizeof *w->out.keys + sizeof *w->out.x) +
			w->out.nslots * sizeof *w->out.slots;
	if (used > w->max_bytes)
		return frayi_fail(w->ctx, FRAY_ERR_BUDGET, "the best policy's exact walk needs more than %llu MiB of memory "
				  "(the budget, --max-memory)", (unsigned long long)(w->max_bytes >> 20));
	if (w->lim && w->lim->stop && *w->lim->stop)
		return frayi_fail(w->ctx, FRAY_ERR_BUDGET, "stopped after %llu paths", (unsigned long long)w->paths);
	if (w->lim && w->lim->progress && (w->paths & 0xFFFF) == 0)
		w->lim->progress(w->paths, w->max_paths, w->lim->ud);
	return FRAY_OK;
}

/* ---- one start's paths ---- */

static void lrec_free(fray_ctx *ctx, lrec *rec)
{
	for (size_t i = 0; i < rec->n; i++)
		frayi_xq_clear(&rec->p[i].prob);
	frayi_dealloc(ctx, rec->p);
	frayi_dealloc(ctx, rec->s);
	frayi_dealloc(ctx, rec->out);
	*rec = (lrec){0};
}


/* The path just run, into rec. */
static fray_status record(bwalk *w, lrec *rec, const int64_t *outcome)
{
	enum_state *en = w->r.en;
	unsigned d = en->depth;
	if (!grow(w->ctx, (void **)&rec->p, &rec->cap, rec->n + 1, sizeof *rec->p) ||
	    !grow(w->ctx, (void **)&rec->s, &rec->caps, rec->ns + d, sizeof *rec->s))
		return frayi_nomem(w->ctx);
	lpath *lp = &rec->p[rec->n];
	*lp = (lpath){.step0 = rec->ns, .nsteps = d, .prob = FRAY_XQ_ZERO};
	uint32_t extra = 0;
	for (unsigned i = 0; i < d; i++) {
		uint8_t dec = w->dec[i];
		rec->s[rec->ns + i] = (bstep){.choice = en->path[i].choice, .sugg = dec ? w->sugg[i] : 0, .dec = dec};
		if (dec && en->path[i].choice != w->sugg[i])
			extra |= (uint32_t)1 << w->kind[i];
		w->dec[i] = 0; /* a later path sets it again where it asks */
	}
	lp->extra = extra;
	for (size_t k = 0; k < w->nk; k++)
		if (extra >> k & 1) {
			w->k[k].extra++;
			w->k[k].charge += w->k[k].below == 0;
		}
	bool ok = en->big[d] ? frayi_xq_add_q(&lp->prob, en->bigq[d]) : frayi_xq_add(&lp->prob, en->pnum[d], en->pden[d]);
	if (!ok)
		return frayi_nomem(w->ctx);
	rec->ns += d;
	rec->n++;
	if (en->checkpointed) {
		if (w->ssize == 0)
			w->ssize = en->state_size;
		size_t e = memo_find(w, en->stage, en->key);
		if (e == SIZE_MAX)
			return frayi_nomem(w->ctx);
		lp->end = END_STATE;
		lp->ref = e;
	} else if (w->r.truncated) {
		lp->end = END_CUT;
		if (w->zs) { /* side 1's value is no longer 1 minus side 0's */
			w->zs_cut = true;
			return frayi_fail(w->ctx, FRAY_ERR_LIMIT, "a path cut at the depth limit");
		}
	} else {
		if (!grow(w->ctx, (void **)&rec->out, &rec->capout, rec->nout + w->nfields, sizeof *rec->out))
			return frayi_nomem(w->ctx);
		memcpy(rec->out + rec->nout, outcome, w->nfields * sizeof *outcome);
		lp->end = END_OUT;
		lp->ref = rec->nout;
		rec->nout += w->nfields;
	}
	return FRAY_OK;
}

/* Every path from a start: the beginning (resume NULL) or a state. */
static fray_status local_walk(bwalk *w, const unsigned char *resume, uint64_t stage, lrec *rec)
{
	fray_roller *r = &w->r;
	enum_state *en = r->en;
	frayi_enum_walk_start(r, resume, stage);
	fray_status st;
	do {
		if (++w->paths > w->budget)
			return frayi_fail(w->ctx, FRAY_ERR_LIMIT, "the best policy's exact walk takes more than %llu "
					  "paths (the budget)", (unsigned long long)w->budget);
		int64_t outcome[FRAY_OUTCOME_MAX_FIELDS] = {0};
		if ((st = frayi_enum_replay(r, w->proc, w->p, w->input, outcome)) != FRAY_OK)
			return frayi_fail(w->ctx, st, "%s", r->msg);
		if ((st = record(w, rec, outcome)) != FRAY_OK)
			return st;
		if ((w->paths & 63) == 0 && (st = check_memory(w)) != FRAY_OK)
			return st;
	} while (frayi_enum_next_path(en));
	return FRAY_OK;
}

/* ---- the fold: a local tree's value ---- */

/* v = what the outcome o is worth to side s under its goal. */
static void worth_q(const bwalk *w, const int64_t *o, int s, mpq_t v)
{
	int64_t num = 0, den = 1;
	w->worth(o, s, w->goal[s], &num, &den);
	mpq_set_si(v, num, (unsigned long)(den > 0 ? den : 1));
	mpq_canonicalize(v);
}

/* v = the path's probability times its end's value, for each side. */
static void leaf(bwalk *w, const lrec *rec, const lpath *lp, mpq_t v[2])
{
	if (lp->end == END_CUT) {
		/* cut at the depth limit: worth nothing to either side (its
		 * mass is told as unresolved) */
		mpq_set_ui(v[0], 0, 1);
		mpq_set_ui(v[1], 0, 1);
		return;
	}
	mpq_t q;
	mpq_init(q);
	frayi_xq_get_q(&lp->prob, q);
	for (int s = 0; s < 2; s++) {
		if (w->vs[s] < 0)
			continue;
		if (lp->end == END_STATE) {
			val_get(w, &w->val[w->nv * lp->ref + (size_t)w->vs[s]], v[s]);
			mpq_mul(v[s], v[s], q);
		} else {
			worth_q(w, rec->out + lp->ref, s, v[s]);
			mpq_mul(v[s], v[s], q);
		}
	}
	mpq_clear(q);
}

static void prune(lrec *rec, size_t lo, size_t hi)
{
	for (size_t i = lo; i < hi; i++)
		rec->p[i].pruned = true;
}

/* The value (weighted by probability from the start) of paths lo..hi-1,
 * which share their first `depth` steps. */
static void fold(bwalk *w, lrec *rec, size_t lo, size_t hi, uint32_t depth, mpq_t res[2])
{
	const lpath *first = &rec->p[lo];
	if (first->nsteps == depth) {
		leaf(w, rec, first, res);
		return;
	}
	const bstep *node = &rec->s[first->step0 + depth];
	mpq_t v[2];
	mpq_inits(v[0], v[1], NULL);
	mpq_set_ui(res[0], 0, 1);
	mpq_set_ui(res[1], 0, 1);
	int side = node->dec ? node->dec - 1 : -1;
	size_t best_lo = lo, best_hi = lo;
	uint32_t best_choice = 0;
	for (size_t a = lo; a < hi;) {
		uint32_t c = rec->s[rec->p[a].step0 + depth].choice;
		size_t b = a + 1;
		while (b < hi && rec->s[rec->p[b].step0 + depth].choice == c)
			b++;
		fold(w, rec, a, b, depth + 1, v);
		if (side < 0) {
			for (int s = 0; s < 2; s++)
				if (w->vs[s] >= 0)
					mpq_add(res[s], res[s], v[s]);
		} else {
			/* higher for the side; on a tie, the suggestion
			 * (zero-sum: side 1's is 1 minus side 0's) */
			int cmp = best_hi == lo ? 1 : w->zs ? mpq_cmp(v[0], res[0]) * (side ? -1 : 1) : mpq_cmp(v[side], res[side]);
			if (cmp > 0 || (cmp == 0 && c == node->sugg && best_choice != node->sugg)) {
				prune(rec, best_lo, best_hi);
				mpq_set(res[0], v[0]);
				mpq_set(res[1], v[1]);
				best_lo = a, best_hi = b, best_choice = c;
			} else {
				prune(rec, a, b);
			}
		}
		a = b;
	}
	mpq_clears(v[0], v[1], NULL);
}

/* ---- backward: values ---- */

/* An edge's probability. */
static frayi_xq edge_prob(const bwalk *w, const bedge *g)
{
	return g->wide ? w->wide[g->num] : (frayi_xq){.num = g->num, .den = g->den};
}

/* Sets a narrow edge g's probability to x, which it takes (x is zero
 * after); g becomes wide when x does not fit 64-bit words. */
static bool edge_set(bwalk *w, bedge *g, frayi_xq *x)
{
	if (!x->big) {
		frayi_u128 d = frayi_u128_gcd(x->num, x->den);
		frayi_u128 n = x->num / d, dd = x->den / d;
		if (n <= UINT64_MAX && dd <= UINT64_MAX) {
			g->num = (uint64_t)n, g->den = (uint64_t)dd;
			*x = FRAY_XQ_ZERO;
			return true;
		}
	}
	if (!grow(w->ctx, (void **)&w->wide, &w->capwide, w->nwide + 1, sizeof *w->wide))
		return false;
	g->wide = true;
	g->num = w->nwide;
	w->wide[w->nwide++] = *x;
	*x = FRAY_XQ_ZERO;
	return true;
}

/* The paths of rec its fold kept, as edges (merged where they end alike,
 * among a state's first few), at edge[*e0 ..]. */
static fray_status keep_edges(bwalk *w, lrec *rec, size_t *e0, size_t *n)
{
	*e0 = w->nedge;
	for (size_t i = 0; i < rec->n; i++) {
		lpath *lp = &rec->p[i];
		if (lp->pruned)
			continue;
		size_t ref = 0;
		if (lp->end == END_STATE) {
			ref = lp->ref;
		} else if (lp->end == END_OUT) {
			ref = frayi_tally_slot(&w->out, rec->out + lp->ref);
			if (ref == SIZE_MAX)
				return frayi_nomem(w->ctx);
		}
		if (ref >= UINT32_MAX)
			return frayi_nomem(w->ctx);
		size_t j = *e0;
		if (w->nedge - *e0 <= 32)
			while (j < w->nedge && (w->edge[j].end != lp->end || w->edge[j].ref != ref))
				j++;
		else
			j = w->nedge;
		if (j < w->nedge) {
			bedge *g = &w->edge[j];
			if (g->wide) {
				if (!frayi_xq_add_xq(&w->wide[g->num], &lp->prob))
					return frayi_nomem(w->ctx);
				continue;
			}
			frayi_xq x = edge_prob(w, g);
			if (!frayi_xq_add_xq(&x, &lp->prob) || !edge_set(w, g, &x)) {
				frayi_xq_clear(&x);
				return frayi_nomem(w->ctx);
			}
			continue;
		}
		if (!big_grow(w->ctx, (void **)&w->edge, &w->capedge, w->nedge + 1, sizeof *w->edge))
			return frayi_nomem(w->ctx);
		bedge *g = &w->edge[w->nedge];
		*g = (bedge){.ref = (uint32_t)ref, .end = lp->end};
		/* moved: rec's path no longer owns it */
		if (!edge_set(w, g, &lp->prob))
			return frayi_nomem(w->ctx);
		w->nedge++;
	}
	*n = w->nedge - *e0;
	return FRAY_OK;
}

/* Values entry e (SIZE_MAX: the beginning, into root) after the states
 * its paths reach. */
static fray_status value_of(bwalk *w, size_t e, mpq_t root[2])
{
	unsigned char *state = NULL;
	uint64_t stage = 0;
	if (e != SIZE_MAX) {
		if (!(state = frayi_alloc(w->ctx, w->ssize)))
			return frayi_nomem(w->ctx);
		memcpy(state, w->keys + e * w->ssize, w->ssize);
		stage = w->stages[w->e[e].sx];
	}
	lrec rec = {0};
	uint64_t p_start = w->paths, nchild = 0;
	fray_status st = local_walk(w, state, stage, &rec);
	/* the states the suggestions reach first, then those only other
	 * options reach: each kind is charged with the paths walked below
	 * the states its other options add (what demoting it would save) */
	for (int pass = 0; pass < 2; pass++)
		for (size_t i = 0; st == FRAY_OK && i < rec.n; i++) {
			const lpath *lp = &rec.p[i];
			if (lp->end != END_STATE || (w->e[lp->ref].flags & VALUED) || (lp->extra != 0) != pass)
				continue;
			uint64_t p0 = w->paths;
			for (size_t k = 0; k < w->nk; k++)
				w->k[k].below += lp->extra >> k & 1;
			st = value_of(w, lp->ref, NULL);
			nchild++;
			for (size_t k = 0; k < w->nk; k++)
				if (lp->extra >> k & 1 && --w->k[k].below == 0)
					w->k[k].charge += w->paths - p0;
		}
	if (st == FRAY_ERR_LIMIT && !w->zs_cut) {
		/* over the budget: the states only other options reach, not
		 * valued, each projected to cost what this state's children
		 * cost so far on average */
		uint64_t est = (w->paths - p_start) / (nchild + 1);
		for (size_t i = 0; i < rec.n; i++) {
			const lpath *lp = &rec.p[i];
			if (lp->end != END_STATE || !lp->extra || (w->e[lp->ref].flags & (VALUED | PENDING)))
				continue;
			w->e[lp->ref].flags |= PENDING;
			for (size_t k = 0; k < w->nk; k++)
				if (lp->extra >> k & 1)
					w->k[k].pending += est;
		}
		for (size_t i = 0; i < rec.n; i++)
			if (rec.p[i].end == END_STATE)
				w->e[rec.p[i].ref].flags &= VALUED | QUEUED;
	}
	if (st == FRAY_OK && rec.n > 0) {
		mpq_t v[2];
		mpq_inits(v[0], v[1], NULL);
		fold(w, &rec, 0, rec.n, 0, v);
		for (int s = 0; s < 2; s++)
			if (w->vs[s] >= 0 && e == SIZE_MAX)
				mpq_set(root[s], v[s]);
			else if (w->vs[s] >= 0 && !val_set(w, &w->val[w->nv * e + (size_t)w->vs[s]], v[s]))
				st = frayi_nomem(w->ctx);
		mpq_clears(v[0], v[1], NULL);
		size_t e0 = 0, n = 0;
		if (st == FRAY_OK)
			st = keep_edges(w, &rec, &e0, &n);
		if (st == FRAY_OK && (w->nedge >= UINT32_MAX || n > 0x1FFFFFFFu))
			st = frayi_nomem(w->ctx);
		if (st == FRAY_OK && e != SIZE_MAX) {
			w->e[e].flags |= VALUED;
			w->e[e].edge0 = (uint32_t)e0;
			w->e[e].nedge = n & 0x1FFFFFFFu;
		} else if (st == FRAY_OK) {
			w->root0 = e0;
			w->nroot = n;
		}
	}
	lrec_free(w->ctx, &rec);
	frayi_dealloc(w->ctx, state);
	return st;
}

/* ---- forward: the outcomes under the options taken ---- */

static bool heap_push(bwalk *w, uint64_t stage, size_t e)
{
	if (!grow(w->ctx, (void **)&w->heap, &w->capheap, w->nheap + 1, sizeof *w->heap))
		return false;
	size_t i = w->nheap++;
	while (i > 0 && w->heap[(i - 1) / 2].stage > stage) {
		w->heap[i] = w->heap[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	w->heap[i] = (hitem){stage, e};
	return true;
}

static size_t heap_pop(bwalk *w)
{
	size_t top = w->heap[0].e;
	hitem last = w->heap[--w->nheap];
	size_t i = 0;
	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= w->nheap)
			break;
		if (c + 1 < w->nheap && w->heap[c + 1].stage < w->heap[c].stage)
			c++;
		if (w->heap[c].stage >= last.stage)
			break;
		w->heap[i] = w->heap[c];
		i = c;
	}
	if (w->nheap)
		w->heap[i] = last;
	return top;
}

/* One state's edges (or the beginning's), weighted into the outcomes
 * and the states they reach. */
static fray_status forward_from(bwalk *w, size_t e0, size_t n, const frayi_xq *weight)
{
	for (size_t i = e0; i < e0 + n; i++) {
		const bedge *g = &w->edge[i];
		const frayi_xq prob = edge_prob(w, g);
		bool ok = true;
		if (g->end == END_CUT) {
			ok = frayi_xq_addmul(&w->unresolved, weight, &prob);
		} else if (g->end == END_STATE) {
			mentry *m = &w->e[g->ref];
			ok = frayi_xq_addmul(&w->fwd[g->ref], weight, &prob);
			if (ok && !(m->flags & QUEUED)) {
				m->flags |= QUEUED;
				ok = heap_push(w, w->stages[m->sx], g->ref);
			}
		} else {
			ok = frayi_xq_addmul(&w->out.x[g->ref], weight, &prob);
		}
		if (!ok)
			return frayi_nomem(w->ctx);
	}
	return FRAY_OK;
}

/* The outcomes under the options taken: the beginning's weight (1) along
 * the edges, a state at a time in order of stage (every state reaching
 * one is of an earlier stage). */
static fray_status forward(bwalk *w)
{
	/* the states' values, bytes and index are done with: their memory
	 * (the most of the walk's) goes before the weights come */
	bigv_clear(w);
	frayi_dealloc(w->ctx, w->bigv);
	w->bigv = NULL, w->capbigv = 0;
	frayi_dealloc(w->ctx, w->val);
	frayi_dealloc(w->ctx, w->keys);
	frayi_dealloc(w->ctx, w->index);
	w->val = NULL, w->capv = 0;
	w->keys = NULL, w->capkeys = 0, w->nkeys = 0;
	w->index = NULL, w->bits = 0;
	if (!(w->fwd = frayi_alloc(w->ctx, (w->ne ? w->ne : 1) * sizeof *w->fwd)))
		return frayi_nomem(w->ctx);
	for (size_t e = 0; e < w->ne; e++)
		w->fwd[e] = FRAY_XQ_ZERO;
	frayi_xq one = {.num = 1, .den = 1};
	fray_status st = forward_from(w, w->root0, w->nroot, &one);
	while (st == FRAY_OK && w->nheap > 0) {
		size_t e = heap_pop(w);
		frayi_xq x = w->fwd[e];
		w->fwd[e] = FRAY_XQ_ZERO;
		st = forward_from(w, w->e[e].edge0, w->e[e].nedge, &x);
		frayi_xq_clear(&x);
	}
	return st;
}

/* ---- the walk, and its report ---- */

/* A side's value at the beginning from the outcomes reached (a side that
 * never asks keeps no values by state): each outcome's worth times its
 * probability, as the fold sums them (a cut path: worth nothing). */
static void value_from_outcomes(bwalk *w, int s, mpq_t res)
{
	mpq_t q, v;
	mpq_inits(q, v, NULL);
	mpq_set_ui(res, 0, 1);
	for (size_t i = 0; i < w->out.count; i++) {
		worth_q(w, w->out.keys + i * w->nfields, s, v);
		frayi_xq_get_q(&w->out.x[i], q);
		mpq_mul(v, v, q);
		mpq_add(res, res, v);
	}
	mpq_clears(q, v, NULL);
}

/* The distribution: the outcomes the forward pass reached (out also
 * holds those only pruned options or unreached states lead to, at 0). */
static fray_status reached_to_dist(bwalk *w, fray_dist **out)
{
	frayi_tally t;
	frayi_tally_init(&t, w->ctx, w->nfields, true);
	fray_status st = FRAY_OK;
	for (size_t i = 0; st == FRAY_OK && i < w->out.count; i++) {
		if (frayi_xq_is_zero(&w->out.x[i]))
			continue;
		size_t slot = frayi_tally_slot(&t, w->out.keys + i * w->nfields);
		if (slot == SIZE_MAX) {
			st = frayi_nomem(w->ctx);
			break;
		}
		t.x[slot] = w->out.x[i]; /* moved */
		w->out.x[i] = FRAY_XQ_ZERO;
	}
	if (st == FRAY_OK)
		st = frayi_tally_to_dist(&t, 0, &w->unresolved, out);
	frayi_tally_fini(&t);
	return st;
}

static void report(bwalk *w, mpq_t root[2])
{
	for (int s = 0; s < 2; s++) {
		frayi_best *b = w->b[s];
		if (!b)
			continue;
		b->valued = true;
		b->goals[0] = w->goal[0];
		b->goals[1] = w->goal[1];
		mpq_set(b->value[0], root[0]);
		mpq_set(b->value[1], root[1]);
		b->nq = 0;
		for (size_t i = 0; i < w->nk; i++)
			if (w->b[w->k[i].side])
				b->q[b->nq++] = (fray_best_question){.kind = w->k[i].kind, .side = w->k[i].side,
								     .asked = w->k[i].asked, .exact = !w->k[i].demoted};
	}
}

/* Whether kind i is still decided exactly. */
static bool open_kind(const bwalk *w, size_t i)
{
	return !w->k[i].demoted && w->k[i].asked > 0;
}

/* Kind i's paths through and below its other options (walked), and those
 * its unvalued states would take (projected), summed over the sides: a
 * kind falls back for both sides at once (both sides best play by the
 * same rules of exactness). */
static void kind_cost(const bwalk *w, size_t i, uint64_t *walked, uint64_t *projected)
{
	*walked = *projected = 0;
	for (size_t j = 0; j < w->nk; j++)
		if (open_kind(w, j) && (j == i || strcmp(w->k[j].kind, w->k[i].kind) == 0)) {
			*walked += w->k[j].charge;
			*projected += w->k[j].pending;
		}
}

/* Over the budget: which kinds fall back to the heuristic. After the
 * probe (an eighth of the budget, which a big battle never fits): every
 * kind whose other options took a quarter of its paths, or whose states
 * not valued would take as many as it walked (projected: each at the
 * average of its siblings so far). Else (or when the probe blamed none):
 * the costliest kind, with every kind costing half as much or more.
 * False: none left to fall back. */
static bool demote(bwalk *w, bool probe)
{
	bool fall[FRAY_BEST_KINDS] = {0}, any = false, left = false;
	uint64_t cost[FRAY_BEST_KINDS] = {0}, top = 0;
	for (size_t i = 0; i < w->nk; i++) {
		uint64_t walked, projected;
		kind_cost(w, i, &walked, &projected);
		cost[i] = walked + projected;
		fall[i] = probe && open_kind(w, i) && (4 * walked >= w->paths || projected >= w->paths);
		any |= fall[i];
		if (open_kind(w, i) && cost[i] >= top)
			top = cost[i], left = true;
	}
	for (size_t i = 0; i < w->nk; i++)
		if (any ? fall[i] : open_kind(w, i) && 2 * cost[i] >= top)
			w->k[i].demoted = true;
	return left;
}

static fray_status attempt(bwalk *w, mpq_t root[2])
{
	memo_clear(w);
	frayi_tally_reset(&w->out);
	frayi_xq_clear(&w->unresolved);
	w->nheap = 0;
	w->paths = 0; /* each attempt has the whole budget */
	for (size_t i = 0; i < w->nk; i++)
		w->k[i].asked = w->k[i].extra = w->k[i].charge = w->k[i].pending = 0, w->k[i].below = 0;
	fray_status st = value_of(w, SIZE_MAX, root);
	if (st == FRAY_OK)
		st = forward(w);
	for (int s = 0; st == FRAY_OK && s < 2; s++)
		if (w->vs[s] < 0)
			value_from_outcomes(w, s, root[s]);
	if (st == FRAY_OK)
		st = check_memory(w);
	return st;
}

/* The memo's memory given back (a failed attempt's, before a walk that
 * keeps none: the two would otherwise hold the budget twice over). */
static void memo_free(bwalk *w)
{
	memo_clear(w);
	frayi_dealloc(w->ctx, w->bigv);
	frayi_dealloc(w->ctx, w->val);
	frayi_dealloc(w->ctx, w->keys);
	frayi_dealloc(w->ctx, w->index);
	frayi_dealloc(w->ctx, w->e);
	frayi_dealloc(w->ctx, w->edge);
	frayi_dealloc(w->ctx, w->wide);
	frayi_dealloc(w->ctx, w->heap);
	w->bigv = NULL, w->capbigv = 0;
	w->val = NULL, w->capv = 0;
	w->keys = NULL, w->capkeys = 0, w->nkeys = 0;
	w->index = NULL, w->bits = 0;
	w->e = NULL, w->cape = 0, w->ne = 0;
	w->edge = NULL, w->capedge = 0, w->nedge = 0;
	w->wide = NULL, w->capwide = 0, w->nwide = 0;
	w->heap = NULL, w->capheap = 0, w->nheap = 0;
}

/* Every kind fell back: the walk is the policies' own (the questions take
 * the heuristic's answer), fray_enumerate's, which keeps no values, and
 * the sides' values come from its outcomes. The kinds' counts stay the
 * last valued attempt's (the plain walk asks nothing). */
static fray_status plain_attempt(bwalk *w, mpq_t root[2], fray_dist **out)
{
	memo_free(w);
	w->plain = true;
	for (int s = 0; s < 2; s++)
		if (w->b[s])
			w->b[s]->plain = true;
	fray_status st = fray_enumerate(w->ctx, w->proc, w->p, w->input, w->nfields, w->lim, out);
	for (int s = 0; s < 2; s++)
		if (w->b[s])
			w->b[s]->plain = false;
	if (st != FRAY_OK)
		return st;
	mpq_t q, v;
	mpq_inits(q, v, NULL);
	for (int s = 0; s < 2; s++) {
		mpq_set_ui(root[s], 0, 1);
		for (size_t i = 0; i < (*out)->count; i++) {
			worth_q(w, (*out)->keys + i * w->nfields, s, v);
			frayi_xq_get_q(&(*out)->exact[i], q);
			mpq_mul(v, v, q);
			mpq_add(root[s], root[s], v);
		}
	}
	mpq_clears(q, v, NULL);
	return FRAY_OK;
}

fray_status frayi_best_enumerate(fray_ctx *ctx, fray_procedure proc, fray_policy *p, const void *input,
				 size_t nfields, const fray_enum_limits *lim, fray_dist **out)
{
	*out = NULL;
	bwalk *w = frayi_calloc(ctx, 1, sizeof *w);
	if (!w)
		return frayi_nomem(ctx);
	*w = (bwalk){
		.ctx = ctx, .proc = proc, .p = p, .input = input, .nfields = nfields, .lim = lim,
		.max_paths = lim && lim->max_paths ? lim->max_paths : FRAY_ENUM_DEFAULT_PATHS,
		.max_bytes = lim && lim->max_bytes ? lim->max_bytes : FRAY_ENUM_DEFAULT_BYTES,
		.max_depth = lim && lim->max_depth ? lim->max_depth : FRAY_ENUM_DEFAULT_DEPTH,
		.unresolved = FRAY_XQ_ZERO,
		.r = {.ctx = ctx, .mode = ROLLER_ENUMERATE},
	};
	for (int s = 0; s < 2; s++) {
		w->b[s] = frayi_best_of(p, s);
		w->vs[s] = w->b[s] ? (int)w->nv++ : -1;
	}
	const frayi_best *any = w->b[0] ? w->b[0] : w->b[1];
	for (int s = 0; s < 2; s++)
		w->goal[s] = w->b[s] ? w->b[s]->goal : any->goal;
	w->worth = w->b[0] && w->b[0]->worth ? w->b[0]->worth : w->b[1] ? w->b[1]->worth : NULL;
	if (w->b[0] && w->b[1] && w->goal[0] == FRAY_GOAL_WIN && w->goal[1] == FRAY_GOAL_WIN) {
		w->zs = true; /* side 1's value from side 0's */
		w->nv = 1;
		w->vs[1] = -1;
	}
	fray_status st = FRAY_OK;
	mpq_t root[2];
	mpq_inits(root[0], root[1], NULL);
	if (!w->worth) {
		st = frayi_fail(ctx, FRAY_ERR_INPUT, "the best policy needs to know what an outcome is worth: "
				"this procedure does not say (so far only an ADBG battle's odds do)");
		goto done;
	}
	frayi_tally_init(&w->out, ctx, nfields, true);
	size_t n = (size_t)w->max_depth + 1;
	w->r.en = frayi_enum_state_new(ctx, w->max_depth);
	w->dec = frayi_calloc(ctx, n, sizeof *w->dec);
	w->sugg = frayi_calloc(ctx, n, sizeof *w->sugg);
	w->kind = frayi_calloc(ctx, n, sizeof *w->kind);
	if (!w->r.en || !w->dec || !w->sugg || !w->kind || !(w->r.en->key = frayi_alloc(ctx, FRAY_STATE_MAX))) {
		st = frayi_nomem(ctx);
		goto done;
	}
	w->r.en->staging = true;
	w->r.en->deal_table_max = frayi_deal_tables_max(w->max_bytes);
	for (int s = 0; s < 2; s++)
		if (w->b[s])
			w->b[s]->walk = w;
	/* the first attempt, with every question exact, only has to show
	 * what explodes: a probe of an eighth of the budget (a big battle's:
	 * a small one's has the whole) */
	w->budget = w->max_paths >= 2 * BEST_PROBE_FLOOR ? w->max_paths / 8 : w->max_paths;
	bool probe = w->budget < w->max_paths;
	for (;;) {
		st = attempt(w, root);
		w->budget = w->max_paths;
		bool stopped = lim && lim->stop && *lim->stop;
		if (st != FRAY_OK && w->zs_cut && !stopped) {
			/* a path was cut: each side keeps its own value (the
			 * same attempt again) */
			w->zs = w->zs_cut = false;
			w->vs[1] = (int)w->nv++;
			frayi_dealloc(ctx, w->val);
			w->val = NULL, w->capv = 0;
			fray_ctx_clear(ctx);
			continue;
		}
		/* over the budget: some kinds of question take the heuristic's
		 * answer from now on, and the walk begins again (with the whole
		 * budget: at most one attempt more than there are kinds) */
		if (st == FRAY_OK || stopped || (st != FRAY_ERR_LIMIT && st != FRAY_ERR_BUDGET && st != FRAY_ERR_NOMEM))
			break;
		if (!demote(w, probe)) {
			/* nothing to fall back: only a probe's short budget may
			 * retry, with the whole (the walk may well fit it) */
			if (!probe)
				break;
			probe = false;
			fray_ctx_clear(ctx);
			continue;
		}
		probe = false;
		fray_ctx_clear(ctx);

		bool left = false;
		for (size_t i = 0; i < w->nk; i++)
			left |= !w->k[i].demoted && w->k[i].asked > 0;
		if (!left) {
			st = plain_attempt(w, root, out);
			break;
		}
	}
	for (int s = 0; s < 2; s++)
		if (w->b[s])
			w->b[s]->walk = NULL;
	if (st == FRAY_OK) {
		report(w, root);
		if (!w->plain)
			st = reached_to_dist(w, out);
	}
done:
	mpq_clears(root[0], root[1], NULL);
	memo_clear(w);
	frayi_dealloc(ctx, w->e);
	frayi_dealloc(ctx, w->stages);
	frayi_dealloc(ctx, w->val);
	frayi_dealloc(ctx, w->bigv);
	frayi_dealloc(ctx, w->fwd);
	frayi_dealloc(ctx, w->edge);
	frayi_dealloc(ctx, w->wide);
	frayi_dealloc(ctx, w->keys);
	frayi_dealloc(ctx, w->index);
	frayi_dealloc(ctx, w->heap);
	frayi_dealloc(ctx, w->dec);
	frayi_dealloc(ctx, w->sugg);
	frayi_dealloc(ctx, w->kind);
	frayi_xq_clear(&w->unresolved);
	if (w->out.ctx)
		frayi_tally_fini(&w->out);
	frayi_enum_state_free(ctx, w->r.en);
	frayi_dealloc(ctx, w);
	return st;
}
