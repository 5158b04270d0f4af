/* fray_deal: k items at once, without replacement, from a pool of
 * categories (chits from a cup, issue #16). Sampled, the items come out one
 * by one and each is told; enumerated, the deal is one event whose
 * branches are the ways to split k among the categories (bounded
 * compositions), each with its multivariate hypergeometric weight
 * prod C(counts[i], drawn[i]) over C(total, k). The branches are visited
 * in order, so each node keeps the current split and steps to the next
 * one instead of finding split number c from scratch. When the splits
 * start over (a later path through an earlier event meets the same deal)
 * a deal whose weights fit 64 bits puts them all in a table, within a
 * budget of memory: every later walk of its splits is then a load and a
 * copy a split (issue #33); past the budget the node steps as before. The
 * first walk steps: filling the table costs about what stepping does, so
 * a deal walked once (a deal that is its path's first event) gains
 * nothing from one. */
#include <assert.h>
#include <string.h>
#include "roller_internal.h"

#define MAX_ENUM_K 1024

typedef struct deal_node {
	bool ready;                          /* set up for the deal below */
	unsigned ncat, k;
	unsigned counts[FRAY_DEAL_MAX_CATS];
	uint64_t total;
	unsigned cap[FRAY_DEAL_MAX_CATS];    /* min(counts[i], k) */
	unsigned suffix[FRAY_DEAL_MAX_CATS + 1]; /* sum of cap[i..] */
	unsigned cur[FRAY_DEAL_MAX_CATS];    /* split number `at` */
	uint32_t at, nways;
	bool small;                          /* C(total, k) fits 128 bits */
	bool tiny;                           /* and 64 bits: every weight does */
	frayi_u128 den;                       /* C(total, k) when small */
	/* [i * (k + 1) + j] = C(counts[i], j): binom64 when tiny, else binom
	 * when small */
	frayi_u128 *binom;
	uint64_t *binom64;
	size_t binom_cap, binom64_cap;
	frayi_u128 prefix[FRAY_DEAL_MAX_CATS + 1]; /* products of binom over cur[0..i-1] */
	uint64_t prefix64[FRAY_DEAL_MAX_CATS + 1]; /* the same when tiny */
	/* The table (when `table`): split c is rows[c * stride ..] (stride
	 * the number of categories rounded up to 8: copied 8 at a time), its
	 * weight weights[c]. table_bytes is what the two hold (counted in
	 * en->deal_table_bytes). */
	bool table;
	unsigned stride;
	unsigned *rows;
	uint64_t *weights;
	size_t table_bytes;
} deal_node;

/* The tables of one enumeration hold at most this, and at most a 32nd of
 * its memory budget (fray_enum_limits.max_bytes, which counts them too): a
 * deal past it steps through its splits instead (the same weights, more
 * instructions a split). A split's row is 32 bytes and its weight 8 for up
 * to 8 kinds: 4 MiB holds 104,857 splits (10 of 40 chits in 8 kinds have
 * 10,286). */
#define DEAL_TABLES_MAX ((size_t)4 << 20)

size_t frayi_deal_tables_max(uint64_t max_bytes)
{
	return max_bytes / 32 < DEAL_TABLES_MAX ? (size_t)(max_bytes / 32) : DEAL_TABLES_MAX;
}

void frayi_deal_nodes_free(fray_ctx *ctx, deal_node **nodes, unsigned n)
{
	if (!nodes)
		return;
	for (unsigned i = 0; i < n; i++)
		if (nodes[i]) {
			frayi_dealloc(ctx, nodes[i]->rows);
			frayi_dealloc(ctx, nodes[i]->weights);
			frayi_dealloc(ctx, nodes[i]->binom);
			frayi_dealloc(ctx, nodes[i]->binom64);
			frayi_dealloc(ctx, nodes[i]);
		}
	frayi_dealloc(ctx, nodes);
}

/* cur[from..] the smallest completion holding rem items. */
static void fill_from(deal_node *dn, unsigned from, unsigned rem)
{
	for (unsigned i = from; i < dn->ncat; i++) {
		unsigned later = dn->suffix[i + 1];
		unsigned v = rem > later ? rem - later : 0;
		dn->cur[i] = v;
		rem -= v;
	}
}

static void products_from(deal_node *dn, unsigned from)
{
	unsigned row = dn->k + 1;
	if (dn->tiny) {
		for (unsigned i = from; i < dn->ncat; i++)
			dn->prefix64[i + 1] = dn->prefix64[i] * dn->binom64[i * row + dn->cur[i]];
		return;
	}
	if (!dn->small)
		return;
	for (unsigned i = from; i < dn->ncat; i++)
		dn->prefix[i + 1] = dn->prefix[i] * dn->binom[i * row + dn->cur[i]];
}

/* Back to the first split (in order: the later categories as full as
 * they can be). */
static void rewind_node(deal_node *dn)
{
	dn->at = 0;
	fill_from(dn, 0, dn->k);
	products_from(dn, 0);
}

/* The next split in order: the rightmost category that can take one more
 * while later ones still hold one takes it; the rest start over. Most
 * steps move one item from the last category to the one before it: that
 * one is tried first, and only the last two products change. */
static void step(deal_node *dn)
{
	unsigned n = dn->ncat, last = dn->cur[n - 1];
	assert(n >= 2); /* one category: one way */
	unsigned i = n - 2;
	if (last >= 1 && dn->cur[i] < dn->cap[i]) {
		unsigned took = ++dn->cur[i];
		dn->cur[n - 1] = last - 1;
		dn->at++;
		if (dn->tiny) { /* the two products, written out: the common case */
			const uint64_t *b = dn->binom64 + (size_t)i * (dn->k + 1);
			uint64_t p = dn->prefix64[i] * b[took];
			dn->prefix64[i + 1] = p;
			dn->prefix64[n] = p * b[dn->k + 1 + last - 1];
			return;
		}
	} else { /* as the first try, from right to left */
		unsigned later = last + dn->cur[i];
		for (;;) {
			assert(i > 0 && "stepped past the last split");
			i--;
			if (later >= 1 && dn->cur[i] < dn->cap[i])
				break;
			later += dn->cur[i];
		}
		dn->cur[i]++;
		fill_from(dn, i + 1, later - 1);
		dn->at++;
	}
	products_from(dn, i);
}

/* The table of binomials of a small deal, in 64 bits when tiny. */
static bool binomials(fray_roller *r, deal_node *dn)
{
	unsigned k = dn->k;
	size_t need = dn->ncat * (k + 1);
	if (dn->tiny && need > dn->binom64_cap) {
		frayi_dealloc(r->ctx, dn->binom64);
		dn->binom64 = frayi_alloc(r->ctx, need * sizeof *dn->binom64);
		dn->binom64_cap = dn->binom64 ? need : 0;
	} else if (!dn->tiny && need > dn->binom_cap) {
		frayi_dealloc(r->ctx, dn->binom);
		dn->binom = frayi_alloc(r->ctx, need * sizeof *dn->binom);
		dn->binom_cap = dn->binom ? need : 0;
	}
	if (dn->tiny ? !dn->binom64 : !dn->binom) {
		fray_roller_fail(r, FRAY_ERR_NOMEM, "out of memory");
		return false;
	}
	/* an entry past C(total, k) is never used: no split that can happen
	 * weighs more; it is kept 0 */
	for (size_t i = 0; i < dn->ncat; i++)
		for (unsigned j = 0; j <= k; j++) {
			frayi_u128 b;
			if (!frayi_binomial(dn->counts[i], j, &b) || b > dn->den)
				b = 0;
			if (dn->tiny)
				dn->binom64[i * (k + 1) + j] = (uint64_t)b;
			else
				dn->binom[i * (k + 1) + j] = b;
		}
	return true;
}

/* Fills the table, in the order the node steps: for each way to deal
 * the categories before the last two (stepped to as the node steps), the
 * ways to split the rest between the last two in one loop (a row's
 * earlier counts copied as they are, its weight one product). */
static void fill_rows(deal_node *dn)
{
	unsigned n = dn->ncat, stride = dn->stride;
	const uint64_t *b2 = dn->binom64 + (size_t)(n - 2) * (dn->k + 1), *b1 = b2 + dn->k + 1;
	unsigned row[FRAY_DEAL_MAX_CATS + 8] = {0};
	rewind_node(dn);
	for (size_t c = 0;;) {
		memcpy(row, dn->cur, (n - 2) * sizeof *row);
		unsigned rest = dn->cur[n - 2] + dn->cur[n - 1], j = dn->cur[n - 2];
		unsigned hi = rest < dn->cap[n - 2] ? rest : dn->cap[n - 2];
		uint64_t p = dn->prefix64[n - 2];
		for (; j <= hi; j++, c++) {
			row[n - 2] = j;
			row[n - 1] = rest - j;
			memcpy(dn->rows + c * stride, row, stride * sizeof *row);
			dn->weights[c] = p * b2[j] * b1[rest - j];
		}
		if (c == dn->nways)
			break;
		dn->cur[n - 2] = hi; /* the last split of these earlier counts */
		dn->cur[n - 1] = rest - hi;
		dn->at = (uint32_t)c - 1;
		step(dn);
	}
	rewind_node(dn);
}

/* No table for the node (a new deal, or none yet). */
static void table_drop(fray_roller *r, deal_node *dn)
{
	r->en->deal_table_bytes -= dn->table_bytes;
	frayi_dealloc(r->ctx, dn->rows);
	frayi_dealloc(r->ctx, dn->weights);
	dn->rows = NULL;
	dn->weights = NULL;
	dn->table_bytes = 0;
	dn->table = false;
}

/* The table of the node's deal, when its weights fit 64 bits and its size
 * the budget left; else none (the node steps). */
static void table_init(fray_roller *r, deal_node *dn)
{
	enum_state *en = r->en;
	dn->stride = (dn->ncat + 7) & ~7u;
	size_t bytes = (size_t)dn->nways * (dn->stride * sizeof *dn->rows + sizeof *dn->weights);
	if (!dn->tiny || dn->ncat < 2 || bytes > en->deal_table_max - en->deal_table_bytes)
		return;
	dn->rows = frayi_alloc(r->ctx, (size_t)dn->nways * dn->stride * sizeof *dn->rows);
	dn->weights = frayi_alloc(r->ctx, (size_t)dn->nways * sizeof *dn->weights);
	if (!dn->rows || !dn->weights) { /* stepping needs no more memory */
		frayi_dealloc(r->ctx, dn->rows);
		frayi_dealloc(r->ctx, dn->weights);
		dn->rows = NULL;
		dn->weights = NULL;
		return;
	}
	fill_rows(dn);
	dn->table = true;
	dn->table_bytes = bytes;
	en->deal_table_bytes += bytes;
}

/* Sets the node up for this deal; false when memory ran out or the deal
 * has more ways than one event can hold. */
static bool node_init(fray_roller *r, deal_node *dn, const unsigned *counts, size_t ncat,
		      unsigned k, uint64_t total)
{
	dn->ready = false;
	dn->ncat = (unsigned)ncat;
	dn->k = k;
	dn->total = total;
	memcpy(dn->counts, counts, ncat * sizeof *counts);
	dn->suffix[ncat] = 0;
	for (size_t i = ncat; i-- > 0;) {
		dn->cap[i] = counts[i] < k ? counts[i] : k;
		dn->suffix[i] = dn->suffix[i + 1] + dn->cap[i];
	}
	/* ways[s]: splits of s among the categories from i on */
	if (k > MAX_ENUM_K) {
		fray_roller_fail(r, FRAY_ERR_LIMIT, "a deal of more than 1024 items: too many to enumerate");
		return false;
	}
	uint64_t ways[MAX_ENUM_K + 1] = {1};
	for (size_t i = ncat; i-- > 0;) {
		for (unsigned s = k; s >= 1; s--) {
			uint64_t sum = 0;
			for (unsigned j = 1; j <= dn->cap[i] && j <= s; j++)
				sum += ways[s - j];
			ways[s] += sum;
			if (ways[s] > UINT32_MAX)
				ways[s] = (uint64_t)UINT32_MAX + 1;
		}
	}
	if (ways[k] > UINT32_MAX) {
		fray_roller_fail(r, FRAY_ERR_LIMIT, "a deal with more than 2^32 ways to fall: "
				 "too many to enumerate; simulate instead");
		return false;
	}
	dn->nways = (uint32_t)ways[k];
	dn->small = frayi_binomial((unsigned)total, k, &dn->den);
	dn->tiny = dn->small && dn->den >> 64 == 0;
	if (dn->small && !binomials(r, dn))
		return false;
	dn->prefix[0] = 1;
	dn->prefix64[0] = 1;
	rewind_node(dn);
	table_drop(r, dn);
	dn->ready = true;
	return true;
}

static bool same_deal(const deal_node *dn, const unsigned *counts, size_t ncat, unsigned k)
{
	if (!dn->ready || dn->ncat != ncat || dn->k != k)
		return false;
	/* two counts at a time, not a call to memcmp: this runs every path */
	size_t i = 0;
	for (; i + 2 <= ncat; i += 2) {
		uint64_t a, b;
		memcpy(&a, dn->counts + i, sizeof a);
		memcpy(&b, counts + i, sizeof b);
		if (a != b)
			return false;
	}
	return i == ncat || dn->counts[i] == counts[i];
}

/* The node of this depth when it is set up for this very deal (the same
 * pool and k as on the last path through this depth, nearly always). */
static deal_node *node_of(const fray_roller *r, const unsigned *counts, size_t ncat, unsigned k)
{
	const enum_state *en = r->en;
	deal_node *dn = en->deals && en->depth < en->max_depth ? en->deals[en->depth] : NULL;
	return dn && same_deal(dn, counts, ncat, k) ? dn : NULL;
}

/* The weight of the current split, past 128 bits. */
static void commit_big(fray_roller *r, const deal_node *dn)
{
	enum_state *en = r->en;
	mpz_t t;
	mpz_init(t);
	mpz_set_ui(en->num, 1);
	for (unsigned i = 0; i < dn->ncat; i++) {
		mpz_bin_uiui(t, dn->counts[i], dn->cur[i]);
		mpz_mul(en->num, en->num, t);
	}
	mpz_bin_uiui(en->den, (unsigned long)dn->total, dn->k);
	mpz_clear(t);
	frayi_enum_commit(r);
}

/* Split c of a node with a table. */
static void deal_from_table(fray_roller *r, const deal_node *dn, uint32_t c, bool need, unsigned *drawn)
{
	if (need)
		frayi_enum_commit_small(r, dn->weights[c], dn->den);
	const unsigned *row = dn->rows + (size_t)c * dn->stride;
	unsigned i = 0;
	for (; i + 8 <= dn->ncat; i += 8) /* eight at a time: a copy of fixed size */
		memcpy(drawn + i, row + i, 8 * sizeof *row);
	for (; i < dn->ncat; i++)
		drawn[i] = row[i];
}

/* The deal as one event of dn->nways branches: the split the enumerator
 * chose, reached from the node's current one (the next, nearly always). */
static void deal_from_node(fray_roller *r, deal_node *dn, unsigned *drawn)
{
	uint32_t c;
	bool need;
	if (!frayi_enum_step(r, dn->nways, &c, &need)) {
		memset(drawn, 0, dn->ncat * sizeof *drawn); /* what a cut or failed run reads */
		return;
	}
	if (dn->table) {
		deal_from_table(r, dn, c, need, drawn);
		return;
	}
	if (c < dn->at) {
		rewind_node(dn);
		table_init(r, dn); /* the second walk of these splits: a table for it and the rest */
		if (dn->table) {
			deal_from_table(r, dn, c, need, drawn);
			return;
		}
	}
	while (dn->at < c)
		step(dn);
	if (need) {
		if (dn->tiny)
			frayi_enum_commit_small(r, dn->prefix64[dn->ncat], dn->den);
		else if (dn->small)
			frayi_enum_commit_small(r, dn->prefix[dn->ncat], dn->den);
		else
			commit_big(r, dn);
	}
	memcpy(drawn, dn->cur, dn->ncat * sizeof *drawn);
}

/* A deal the node of this depth is not set up for: sets it up first. */
static void deal_enumerated(fray_roller *r, const unsigned *counts, size_t ncat, unsigned k,
			    uint64_t total, unsigned *drawn)
{
	enum_state *en = r->en;
	unsigned d = en->depth;
	memset(drawn, 0, ncat * sizeof *drawn); /* what a cut or failed run reads */
	if (d >= en->max_depth) {
		r->truncated = true;
		return;
	}
	if (!en->deals && !(en->deals = frayi_calloc(r->ctx, en->max_depth + 1, sizeof *en->deals))) {
		fray_roller_fail(r, FRAY_ERR_NOMEM, "out of memory");
		return;
	}
	if (!en->deals[d] && !(en->deals[d] = frayi_calloc(r->ctx, 1, sizeof *en->deals[d]))) {
		fray_roller_fail(r, FRAY_ERR_NOMEM, "out of memory");
		return;
	}
	if (node_init(r, en->deals[d], counts, ncat, k, total))
		deal_from_node(r, en->deals[d], drawn);
}

/* Draws k items one by one from counts (sampling), telling each. */
static void deal_sampled(fray_roller *r, const unsigned *counts, size_t ncat, unsigned k,
			 uint64_t total, unsigned *drawn, const char *what)
{
	unsigned left[FRAY_DEAL_MAX_CATS];
	memcpy(left, counts, ncat * sizeof *left);
	for (unsigned n = 0; n < k; n++) {
		uint32_t x = fray_rng_below(&r->rng, (uint32_t)(total - n));
		size_t cat = 0;
		while (x >= left[cat])
			x -= left[cat++];
		left[cat]--;
		drawn[cat]++;
		if (r->sink) {
			fray_event ev = {.kind = FRAY_EV_ROLL, .what = what, .value = (int64_t)cat,
					 .roll = FRAY_ROLL_DRAW, .count = (int)(total - n)};
			r->sink(r->sink_ud, &ev);
		}
	}
}

/* fray_deal but for the deal the node of this depth holds: sampled, cut,
 * failed, or enumerated for the first time here. Kept out of line so that
 * the common call stays small. */
__attribute__((noinline)) static void deal_other(fray_roller *r, const unsigned *counts, size_t ncat,
						 unsigned k, unsigned *drawn, const char *what)
{
	uint64_t total = 0;
	for (size_t i = 0; i < ncat; i++)
		total += counts[i];
	bool enumerating = r->mode == ROLLER_ENUMERATE && r->status == FRAY_OK && !r->truncated;
	if (enumerating && k > 0 && k <= total && total <= UINT32_MAX) {
		deal_enumerated(r, counts, ncat, k, total, drawn);
		return;
	}
	memset(drawn, 0, ncat * sizeof *drawn);
	if (total > UINT32_MAX || k > total) {
		fray_roller_fail(r, FRAY_ERR_INTERNAL, "fray_deal: more items asked than the pool holds");
		return;
	}
	if (fray_roller_stopped(r) || k == 0)
		return;
	deal_sampled(r, counts, ncat, k, total, drawn, what); /* as from a cup: each item told */
}

FRAY_API void fray_deal(fray_roller *r, const unsigned *counts, size_t ncat, unsigned k,
			unsigned *drawn, const char *what)
{
	assert(ncat >= 1 && ncat <= FRAY_DEAL_MAX_CATS);
	bool enumerating = r->mode == ROLLER_ENUMERATE && r->status == FRAY_OK && !r->truncated;
	deal_node *dn = enumerating ? node_of(r, counts, ncat, k) : NULL;
	if (dn) /* the deal of the last path at this depth: k and the pool checked then */
		deal_from_node(r, dn, drawn);
	else
		deal_other(r, counts, ncat, k, drawn, what);
}

FRAY_API void fray_deal_open(fray_roller *r, const unsigned *counts, size_t ncat, unsigned k,
			     fray_dealt *d, const char *what)
{
	assert(ncat >= 1 && ncat <= FRAY_DEAL_MAX_CATS);
	uint64_t total = 0;
	for (size_t i = 0; i < ncat; i++) {
		total += counts[i];
		d->counts[i] = counts[i];
		d->drawn[i] = 0;
		d->known[i] = false;
	}
	d->ncat = ncat;
	d->k = k;
	d->what = what;
	d->items_left = k;
	d->pool_left = total <= UINT32_MAX ? (unsigned)total : 0;
	if (total > UINT32_MAX || k > total) {
		fray_roller_fail(r, FRAY_ERR_INTERNAL, "fray_deal_open: more items asked than the pool holds");
		return;
	}
	if (r->mode == ROLLER_SAMPLE && !fray_roller_stopped(r)) {
		deal_sampled(r, counts, ncat, k, total, d->drawn, what);
		for (size_t i = 0; i < ncat; i++)
			d->known[i] = true;
	}
}

/* Enumerated: how many of kind cat, given the kinds known so far, is
 * hypergeometric: C(c, j) C(pool - c, items - j) / C(pool, items). */
FRAY_API unsigned fray_dealt_count(fray_roller *r, fray_dealt *d, size_t cat)
{
	assert(cat < d->ncat);
	if (d->known[cat] || fray_roller_stopped(r))
		return d->drawn[cat];
	unsigned c = d->counts[cat], m = d->items_left, pool = d->pool_left;
	unsigned rest = pool - c;
	unsigned lo = m > rest ? m - rest : 0, hi = c < m ? c : m;
	unsigned j = lo;
	if (lo < hi) {
		uint32_t choice;
		bool need;
		if (!frayi_enum_step(r, hi - lo + 1, &choice, &need))
			return 0;
		j = lo + choice;
		if (need) {
			frayi_u128 a, b, den, w;
			if (frayi_binomial(c, j, &a) && frayi_binomial(rest, m - j, &b) &&
			    frayi_binomial(pool, m, &den) && !__builtin_mul_overflow(a, b, &w)) {
				frayi_enum_commit_small(r, w, den);
			} else {
				enum_state *en = r->en;
				mpz_t t;
				mpz_init(t);
				mpz_bin_uiui(en->num, c, j);
				mpz_bin_uiui(t, rest, m - j);
				mpz_mul(en->num, en->num, t);
				mpz_bin_uiui(en->den, pool, m);
				mpz_clear(t);
				frayi_enum_commit(r);
			}
		}
	}
	d->known[cat] = true;
	d->drawn[cat] = j;
	d->items_left -= j;
	d->pool_left -= c;
	return j;
}
