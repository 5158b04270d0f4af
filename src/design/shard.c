/* Shard files (include/fray/shard.h): a simulation's or a sweep's slice
 * written as text, read back with every field checked against the others
 * (the slice against the shard number, the counts against the trials
 * counted), so a tampered or truncated shard is refused with its
 * file:line:col; and shards merged back into one run (ruling R24: trial i
 * always uses stream i of the seed, so the sum is exactly one run's). */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fray/adbg.h>
#include <fray/events.h>
#include <fray/shard.h>
#include "../core/internal.h"

FRAY_API uint64_t fray_sweep_point_slice(uint64_t npoints, uint64_t i, uint64_t n)
{
	return npoints * i / n;
}

FRAY_API uint64_t fray_shard_slice(uint64_t trials, uint64_t i, uint64_t n)
{
	/* trials <= 10^12 and n <= 10^6: the product fits in 64 bits */
	return trials * i / n;
}

static bool read_u64_text(fray_doc *doc, const fray_node *n, int base, const char *what, uint64_t *out)
{
	const char *t;
	if (!fray_doc_string(doc, n, what, &t))
		return false;
	char *end;
	errno = 0;
	unsigned long long v = strtoull(t, &end, base);
	/* digits only: strtoull would also take spaces, a sign or 0x */
	bool digits = *t != '\0';
	for (const char *c = t; *c; c++)
		digits &= base == 16 ? isxdigit((unsigned char)*c) != 0 : (*c >= '0' && *c <= '9');
	if (!digits || *end || errno) {
		fray_doc_error(doc, n, "expected %s, found '%s'", what, t);
		return false;
	}
	*out = v;
	return true;
}

/* A name or value into dst; one longer than dst holds is refused, never
 * cut: two cut names could become one and merge two runs as one. */
static void read_text(fray_doc *doc, const fray_node *n, const char *what, char *dst, size_t cap)
{
	const char *t;
	if (!n || !fray_doc_string(doc, n, what, &t))
		return;
	if (strlen(t) >= cap)
		fray_doc_error(doc, n, "expected %s of at most %zu bytes, found %zu", what, cap - 1, strlen(t));
	else
		snprintf(dst, cap, "%s", t);
}

static void read_u64(fray_doc *doc, const fray_node *map, const char *key, int64_t lo, int64_t hi,
		     uint64_t *out)
{
	const fray_node *n = fray_doc_field(doc, map, key, true);
	int64_t v;
	if (n && fray_doc_int(doc, n, lo, hi, key, &v))
		*out = (uint64_t)v;
}

static void read_counts(fray_doc *doc, const fray_node *counts, fray_sim *sim)
{
	if (!fray_doc_expect(doc, counts, FRAY_NODE_SEQ, "the counts, one list per field"))
		return;
	if (fray_node_len(counts) != FRAY_ADBG_SIM_FIELDS) {
		fray_doc_error(doc, counts, "expected %d lists of counts, found %zu", FRAY_ADBG_SIM_FIELDS,
			       fray_node_len(counts));
		return;
	}
	for (size_t f = 0; f < FRAY_ADBG_SIM_FIELDS; f++) {
		const fray_node *list = fray_node_item(counts, f);
		if (!fray_doc_expect(doc, list, FRAY_NODE_SEQ, "a field's [value, count] pairs"))
			continue;
		uint64_t sum = 0;
		bool over = false;
		for (size_t i = 0; i < fray_node_len(list) && !over; i++) {
			const fray_node *pair = fray_node_item(list, i);
			int64_t v, c;
			if (!fray_doc_expect(doc, pair, FRAY_NODE_SEQ, "a [value, count] pair"))
				continue;
			if (fray_node_len(pair) != 2) {
				fray_doc_error(doc, pair, "expected a [value, count] pair");
				continue;
			}
			if (fray_doc_int(doc, fray_node_item(pair, 0), 0, FRAY_SIM_MAX_VALUE, "a value", &v) &&
			    fray_doc_int(doc, fray_node_item(pair, 1), 0, (int64_t)FRAY_SIM_MAX_TRIALS, "a count",
					 &c)) {
				if ((uint64_t)c > fray_sim_trials(sim) - sum) {
					/* said here, and the sum never overflows */
					fray_doc_error(doc, list, "the counts add up to more than the %" PRIu64
						       " trials counted", fray_sim_trials(sim));
					over = true;
					continue;
				}
				/* within range: v is a value, c at most the trials */
				(void)fray_sim_add_count(sim, f, (int)v, (uint64_t)c);
				sum += (uint64_t)c;
			}
		}
		if (!over && sum != fray_sim_trials(sim))
			fray_doc_error(doc, list, "the counts add up to %" PRIu64 ", not the %" PRIu64
				       " trials counted", sum, fray_sim_trials(sim));
	}
}

/* The run's identity, the same in both kinds of shard. */
static void read_meta(fray_doc *doc, const fray_node *root, fray_shard_meta *m)
{
	const fray_node *n;
	read_text(doc, fray_doc_field(doc, root, "scenario", true), "the scenario's name", m->scenario,
		  sizeof m->scenario);
	read_text(doc, fray_doc_field(doc, root, "policy", true), "the policy", m->policy, sizeof m->policy);
	if ((n = fray_doc_field(doc, root, "scenario_fnv1a", true)))
		read_u64_text(doc, n, 16, "a digest in hexadecimal", &m->digest);
	if ((n = fray_doc_field(doc, root, "seed", true)))
		read_u64_text(doc, n, 10, "a seed", &m->seed);
	if ((n = fray_doc_field(doc, root, "sides", true)) &&
	    fray_doc_expect(doc, n, FRAY_NODE_SEQ, "the two sides' names")) {
		if (fray_node_len(n) != 2)
			fray_doc_error(doc, n, "expected the two sides' names");
		else
			for (size_t i = 0; i < 2; i++)
				read_text(doc, fray_node_item(n, i), "a side's name", m->side[i], sizeof m->side[i]);
	}
	read_u64(doc, root, "trials", 1, (int64_t)FRAY_SIM_MAX_TRIALS, &m->trials);
	read_u64(doc, root, "of", 1, 1000000, &m->nshards);
	read_u64(doc, root, "shard", 1, 1000000, &m->shard);
}

/* "fray_shard" (the version) and "kind"; true when both are as expected. */
static bool read_kind(fray_doc *doc, const fray_node *root, const char *want)
{
	uint64_t version = 0;
	read_u64(doc, root, "fray_shard", 0, INT64_MAX, &version);
	const char *kind = NULL;
	const fray_node *n = fray_doc_field(doc, root, "kind", true);
	if (version != FRAY_SHARD_VERSION) {
		fray_doc_error(doc, fray_map_get(root, "fray_shard"),
			       "shard format %" PRIu64 " is not the one this fray reads (%d)", version, FRAY_SHARD_VERSION);
		return false;
	}
	if (n && fray_doc_string(doc, n, "kind", &kind) && strcmp(kind, want) != 0) {
		fray_doc_error(doc, n, "expected kind %s, found '%s'", want, kind);
		return false;
	}
	return true;
}

static bool is_shard(const fray_node *root)
{
	return root && fray_node_kind_of(root) == FRAY_NODE_MAP && fray_map_get(root, "fray_shard");
}

FRAY_API bool fray_sim_shard_read(fray_doc *doc, fray_sim_shard *sh)
{
	memset(sh, 0, sizeof *sh);
	if (!(sh->sim = fray_sim_new(FRAY_ADBG_SIM_FIELDS))) {
		fray_doc_error(doc, NULL, "out of memory");
		return false;
	}
	const fray_node *root = fray_doc_root(doc);
	if (!is_shard(root)) {
		fray_doc_error(doc, root, "not a fray shard file (from fray adbg simulate --shard I/N)");
	} else {
		static const char *const keys[] = {"fray_shard", "kind", "scenario", "scenario_fnv1a", "sides",
						   "policy", "seed", "trials", "shard", "of", "first", "last",
						   "counted", "counts"};
		fray_doc_known_keys(doc, root, keys, sizeof keys / sizeof keys[0]);
		read_kind(doc, root, "adbg.simulate");
		read_meta(doc, root, &sh->m);
		read_u64(doc, root, "first", 0, (int64_t)FRAY_SIM_MAX_TRIALS, &sh->first);
		read_u64(doc, root, "last", 0, (int64_t)FRAY_SIM_MAX_TRIALS, &sh->last);
		uint64_t counted = 0;
		read_u64(doc, root, "counted", 0, (int64_t)FRAY_SIM_MAX_TRIALS, &counted);
		fray_sim_set_trials(sh->sim, counted);
		if (fray_doc_error_count(doc) == 0) {
			const fray_node *sn = fray_map_get(root, "shard");
			if (sh->m.shard > sh->m.nshards ||
			    sh->first != fray_shard_slice(sh->m.trials, sh->m.shard - 1, sh->m.nshards) ||
			    sh->last != fray_shard_slice(sh->m.trials, sh->m.shard, sh->m.nshards))
				fray_doc_error(doc, sn, "shard %" PRIu64 " of %" PRIu64 " of %" PRIu64
					       " trials is not trials %" PRIu64 "..%" PRIu64, sh->m.shard,
					       sh->m.nshards, sh->m.trials, sh->first, sh->last);
			else if (counted > sh->last - sh->first)
				fray_doc_error(doc, fray_map_get(root, "counted"),
					       "more trials counted than the shard has");
			else
				read_counts(doc, fray_doc_field(doc, root, "counts", true), sh->sim);
		}
	}
	return fray_doc_error_count(doc) == 0;
}

FRAY_API bool fray_shard_is_sweep(const fray_doc *doc)
{
	const fray_node *root = fray_doc_root(doc);
	const char *kind = is_shard(root) ? fray_node_scalar(fray_map_get(root, "kind")) : NULL;
	return kind && strcmp(kind, "adbg.sweep") == 0;
}

FRAY_API void fray_sweep_shard_free(fray_sweep_shard *sh)
{
	for (size_t i = 0; i < sh->n; i++)
		fray_sim_free(sh->points[i].sim);
	if (sh->ctx)
		frayi_dealloc(sh->ctx, sh->points);
	sh->points = NULL;
	sh->n = 0;
}

static void read_bool(fray_doc *doc, const fray_node *map, const char *key, bool *out)
{
	const fray_node *n = fray_doc_field(doc, map, key, true);
	if (n)
		fray_doc_bool(doc, n, key, out);
}

/* One point of a sweep's shard: the map pn, the shard's point want. */
static void read_sweep_point(fray_doc *doc, const fray_node *pn, const fray_sweep_shard *sh, uint64_t want,
			     fray_sweep_shard_point *p)
{
	static const char *const keys[] = {"point", "values", "baseline", "grid", "counted", "counts"};
	if (!fray_doc_expect(doc, pn, FRAY_NODE_MAP, "a point"))
		return;
	fray_doc_known_keys(doc, pn, keys, sizeof keys / sizeof keys[0]);
	uint64_t index = 0, counted = 0;
	read_u64(doc, pn, "point", 1, (int64_t)sh->npoints, &index);
	if (!fray_doc_error_count(doc) && index != want + 1) {
		fray_doc_error(doc, pn, "expected point %" PRIu64 " here", want + 1);
		return;
	}
	p->index = index - 1;
	read_bool(doc, pn, "baseline", &p->baseline);
	read_bool(doc, pn, "grid", &p->grid);
	const fray_node *vals = fray_doc_field(doc, pn, "values", true);
	if (vals && fray_doc_expect(doc, vals, FRAY_NODE_SEQ, "the point's values")) {
		if (fray_node_len(vals) != (size_t)sh->nvary)
			fray_doc_error(doc, vals, "expected %d values, one per --vary", sh->nvary);
		for (int k = 0; k < sh->nvary && (size_t)k < fray_node_len(vals); k++)
			read_text(doc, fray_node_item(vals, (size_t)k), "a value", p->values[k], FRAY_SWEEP_VALUE);
	}
	read_u64(doc, pn, "counted", 0, (int64_t)FRAY_SIM_MAX_TRIALS, &counted);
	if (fray_doc_error_count(doc))
		return;
	if (counted > sh->last - sh->first) {
		fray_doc_error(doc, fray_map_get(pn, "counted"), "more trials counted than the shard has");
		return;
	}
	fray_sim_set_trials(p->sim, counted);
	read_counts(doc, fray_doc_field(doc, pn, "counts", true), p->sim);
}

FRAY_API bool fray_sweep_shard_read_head(fray_ctx *ctx, fray_doc *doc, fray_sweep_shard *sh)
{
	memset(sh, 0, sizeof *sh);
	sh->ctx = ctx;
	const fray_node *root = fray_doc_root(doc), *n;
	if (!is_shard(root)) {
		fray_doc_error(doc, root, "not a fray shard file (from fray adbg sweep --shard I/N)");
		return false;
	}
	static const char *const keys[] = {"fray_shard", "kind", "scenario", "scenario_fnv1a", "sides", "policy",
					   "seed", "trials", "shard", "of", "split", "first", "last", "vary",
					   "npoints", "points"};
	fray_doc_known_keys(doc, root, keys, sizeof keys / sizeof keys[0]);
	if (!read_kind(doc, root, "adbg.sweep"))
		return false;
	read_meta(doc, root, &sh->m);
	static const char *const splits[] = {"points", "trials"};
	size_t k = 0;
	if ((n = fray_doc_field(doc, root, "split", true)) && fray_doc_enum(doc, n, "how the sweep is split",
									    splits, 2, &k))
		sh->by_trials = k == 1;
	read_u64(doc, root, "first", 0, (int64_t)FRAY_SIM_MAX_TRIALS, &sh->first);
	read_u64(doc, root, "last", 0, (int64_t)FRAY_SIM_MAX_TRIALS, &sh->last);
	read_u64(doc, root, "npoints", 1, FRAY_SWEEP_MAX_POINTS, &sh->npoints);
	if ((n = fray_doc_field(doc, root, "vary", true)) && fray_doc_expect(doc, n, FRAY_NODE_SEQ, "the knobs")) {
		if (fray_node_len(n) < 1 || fray_node_len(n) > FRAY_SWEEP_MAX_KNOBS)
			fray_doc_error(doc, n, "expected 1 to %d knobs", FRAY_SWEEP_MAX_KNOBS);
		for (size_t i = 0; i < fray_node_len(n) && i < FRAY_SWEEP_MAX_KNOBS; i++)
			read_text(doc, fray_node_item(n, i), "a knob", sh->vary[sh->nvary++], FRAY_SWEEP_VALUE);
	}
	if (fray_doc_error_count(doc))
		return false;
	uint64_t i = sh->m.shard - 1, of = sh->m.nshards;
	uint64_t want_first = sh->by_trials ? fray_shard_slice(sh->m.trials, i, of) : 0;
	uint64_t want_last = sh->by_trials ? fray_shard_slice(sh->m.trials, i + 1, of) : sh->m.trials;
	if (sh->m.shard > of || sh->first != want_first || sh->last != want_last) {
		fray_doc_error(doc, fray_map_get(root, "shard"), "shard %" PRIu64 " of %" PRIu64 " is not trials %"
			       PRIu64 "..%" PRIu64 " of each point", sh->m.shard, of, sh->first, sh->last);
		return false;
	}
	sh->lo = sh->by_trials ? 0 : fray_sweep_point_slice(sh->npoints, i, of);
	sh->hi = sh->by_trials ? sh->npoints : fray_sweep_point_slice(sh->npoints, i + 1, of);
	return true;
}

FRAY_API bool fray_sweep_shard_read_point(fray_doc *doc, const fray_node *pn, const fray_sweep_shard *sh,
					  uint64_t index, fray_sweep_shard_point *p)
{
	fray_sim_free(p->sim);
	*p = (fray_sweep_shard_point){0};
	if (!(p->sim = fray_sim_new(FRAY_ADBG_SIM_FIELDS))) {
		fray_doc_error(doc, NULL, "out of memory");
		return false;
	}
	size_t before = fray_doc_error_count(doc);
	read_sweep_point(doc, pn, sh, index, p);
	return fray_doc_error_count(doc) == before;
}

FRAY_API bool fray_sweep_shard_read(fray_ctx *ctx, fray_doc *doc, fray_sweep_shard *sh)
{
	if (!fray_sweep_shard_read_head(ctx, doc, sh))
		return false;
	const fray_node *pts = fray_doc_field(doc, fray_doc_root(doc), "points", true);
	if (!pts || !fray_doc_expect(doc, pts, FRAY_NODE_SEQ, "the points"))
		return false;
	if (fray_node_len(pts) != sh->hi - sh->lo) {
		fray_doc_error(doc, pts, "expected the %" PRIu64 " points %" PRIu64 "..%" PRIu64 " of this shard, "
			       "found %zu", sh->hi - sh->lo, sh->lo + 1, sh->hi, fray_node_len(pts));
		return false;
	}
	if (!(sh->points = frayi_calloc(ctx, sh->hi - sh->lo ? sh->hi - sh->lo : 1, sizeof *sh->points))) {
		fray_doc_error(doc, NULL, "out of memory");
		return false;
	}
	for (size_t p = 0; p < fray_node_len(pts) && !fray_doc_error_count(doc); p++)
		fray_sweep_shard_read_point(doc, fray_node_item(pts, p), sh, sh->lo + p, &sh->points[sh->n++]);
	return fray_doc_error_count(doc) == 0;
}

FRAY_API bool fray_shard_same_run(const fray_shard_meta *a, const fray_shard_meta *b)
{
	return a->digest == b->digest && a->seed == b->seed && a->trials == b->trials &&
	       a->nshards == b->nshards && strcmp(a->policy, b->policy) == 0 &&
	       strcmp(a->scenario, b->scenario) == 0 && strcmp(a->side[0], b->side[0]) == 0 &&
	       strcmp(a->side[1], b->side[1]) == 0;
}

/* ---- writing ---- */

/* The shard texts are built snprintf-like: measured with dst NULL, then
 * written into a block of that size. */
typedef struct put_buf {
	char *dst;
	size_t cap, len;
} put_buf;

static void put(put_buf *b, const char *fmt, ...) FRAY_PRINTF(2, 3);
static void put(put_buf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(b->len < b->cap ? b->dst + b->len : NULL, b->len < b->cap ? b->cap - b->len : 0, fmt, ap);
	va_end(ap);
	b->len += n > 0 ? (size_t)n : 0;
}

static void put_json(put_buf *b, const char *s)
{
	b->len += fray_json_string(s, b->len < b->cap ? b->dst + b->len : NULL, b->len < b->cap ? b->cap - b->len : 0);
}

/* The run's identity, as both kinds begin. */
static void put_meta(put_buf *b, const fray_shard_meta *m, const char *kind)
{
	put(b, "{\"fray_shard\": %d, \"kind\": \"%s\", \"scenario\": ", FRAY_SHARD_VERSION, kind);
	put_json(b, m->scenario);
	put(b, ",\n \"scenario_fnv1a\": \"%016" PRIx64 "\", \"sides\": [", m->digest);
	put_json(b, m->side[0]);
	put(b, ", ");
	put_json(b, m->side[1]);
	put(b, "], \"policy\": ");
	put_json(b, m->policy);
	put(b, ",\n \"seed\": \"%" PRIu64 "\", \"trials\": %" PRIu64 ", \"shard\": %" PRIu64 ", \"of\": %" PRIu64,
	    m->seed, m->trials, m->shard, m->nshards);
}

/* Each field's [value, count] pairs: a list a line after indent, or all
 * on the line (indent NULL). */
static void put_counts(put_buf *b, const fray_sim *s, const char *indent)
{
	for (size_t fl = 0; fl < fray_sim_nfields(s); fl++) {
		if (indent)
			put(b, "%s\n%s[", fl ? "," : "", indent);
		else
			put(b, "%s[", fl ? ", " : "");
		bool any = false;
		for (int v = 0; v <= FRAY_SIM_MAX_VALUE; v++)
			if (fray_sim_count(s, fl, v)) {
				put(b, "%s[%d, %" PRIu64 "]", any ? ", " : "", v, fray_sim_count(s, fl, v));
				any = true;
			}
		put(b, "]");
	}
}

static void put_sim_shard(put_buf *b, const fray_shard_meta *m, const fray_sim *s, uint64_t first, uint64_t last)
{
	put_meta(b, m, "adbg.simulate");
	put(b, ", \"first\": %" PRIu64 ", \"last\": %" PRIu64 ", \"counted\": %" PRIu64 ",\n \"counts\": [", first,
	    last, fray_sim_trials(s));
	put_counts(b, s, "  ");
	put(b, "]}\n");
}

typedef struct sweep_part {
	const fray_sweep *w;
	bool by_trials;
	uint64_t first, last;
	size_t lo, hi;
} sweep_part;

/* The run on the first lines, ending `"points": [`, then one point a line
 * (each but the last ending in a comma, the last in `]}`): fray merge reads
 * a shard of any number of points a line at a time (shard.h). */
static void put_sweep_shard(put_buf *b, const fray_shard_meta *m, const sweep_part *sp)
{
	const fray_sweep *w = sp->w;
	put_meta(b, m, "adbg.sweep");
	put(b, ", \"split\": \"%s\", \"first\": %" PRIu64 ", \"last\": %" PRIu64 ",\n \"vary\": [",
	    sp->by_trials ? "trials" : "points", sp->first, sp->last);
	for (int k = 0; k < w->nk; k++) {
		put(b, "%s", k ? ", " : "");
		put_json(b, w->paths[k]);
	}
	put(b, "], \"npoints\": %zu, \"points\": [", w->np);
	for (size_t p = sp->lo; p < sp->hi; p++) {
		const fray_sweep_point *pt = &w->pts[p];
		put(b, "%s\n  {\"point\": %zu, \"values\": [", p > sp->lo ? "," : "", p + 1);
		for (int k = 0; k < w->nk; k++) {
			put(b, "%s", k ? ", " : "");
			put_json(b, pt->val[k]);
		}
		put(b, "], \"baseline\": %s, \"grid\": %s, \"counted\": %" PRIu64 ", \"counts\": [",
		    pt->baseline ? "true" : "false", pt->grid ? "true" : "false", fray_sim_trials(pt->sim));
		put_counts(b, pt->sim, NULL);
		put(b, "]}");
	}
	put(b, "]}\n");
}

/* The text measured, then written into a malloc'd block (the caller
 * frees it with free()). */
#define SHARD_TEXT(out, len, PUT_ALL)                                                                                 \
	do {                                                                                                          \
		put_buf b = {0};                                                                                      \
		PUT_ALL;                                                                                              \
		if (!(b.dst = malloc(b.len + 1)))                                                                     \
			return FRAY_ERR_NOMEM;                                                                        \
		b.cap = b.len + 1;                                                                                    \
		b.len = 0;                                                                                            \
		PUT_ALL;                                                                                              \
		*(out) = b.dst;                                                                                       \
		*(len) = b.len;                                                                                       \
	} while (0)

FRAY_API fray_status fray_sim_shard_text(const fray_shard_meta *m, const fray_sim *s, uint64_t first, uint64_t last,
					 char **out, size_t *len)
{
	*out = NULL;
	*len = 0;
	SHARD_TEXT(out, len, put_sim_shard(&b, m, s, first, last));
	return FRAY_OK;
}

FRAY_API fray_status fray_sweep_shard_text(const fray_shard_meta *m, const fray_sweep *w, bool by_trials,
					   uint64_t first, uint64_t last, size_t lo, size_t hi, char **out, size_t *len)
{
	*out = NULL;
	*len = 0;
	sweep_part sp = {w, by_trials, first, last, lo, hi};
	SHARD_TEXT(out, len, put_sweep_shard(&b, m, &sp));
	return FRAY_OK;
}

/* ---- merging ---- */

/* Why a merge is partial: not every shard, or one stopped early. */
static void partial_why(uint64_t merged, uint64_t nshards, bool partial, char *why, size_t cap)
{
	if (merged < nshards)
		snprintf(why, cap, "%" PRIu64 " of %" PRIu64 " shards merged", merged, nshards);
	else if (partial)
		snprintf(why, cap, "a shard was stopped early");
	else if (cap)
		why[0] = '\0';
}

FRAY_API fray_merge_verdict fray_sim_merge_add(fray_sim_merge *mg, const fray_sim_shard *sh)
{
	if (mg->merged == 0) {
		mg->m = sh->m;
		mg->seen = calloc((sh->m.nshards + 63) / 64, sizeof *mg->seen);
		mg->total = fray_sim_new(fray_sim_nfields(sh->sim));
		if (!mg->seen || !mg->total)
			return FRAY_MERGE_NOMEM;
	} else if (!fray_shard_same_run(&mg->m, &sh->m)) {
		return FRAY_MERGE_OTHER_RUN;
	}
	uint64_t k = sh->m.shard - 1;
	if (mg->seen[k / 64] & (1ull << (k % 64)))
		return FRAY_MERGE_TWICE;
	mg->seen[k / 64] |= 1ull << (k % 64);
	mg->partial |= fray_sim_trials(sh->sim) < sh->last - sh->first;
	if (fray_sim_add(mg->total, sh->sim) != FRAY_OK)
		return FRAY_MERGE_NOMEM;
	mg->merged++;
	return FRAY_MERGE_ADDED;
}

FRAY_API void fray_sim_merge_end(fray_sim_merge *mg, char *why, size_t cap)
{
	partial_why(mg->merged, mg->m.nshards, mg->partial, why, cap);
	mg->m.shard = mg->m.nshards = 1;
}

FRAY_API void fray_sim_merge_free(fray_sim_merge *mg)
{
	free(mg->seen);
	fray_sim_free(mg->total);
	*mg = (fray_sim_merge){0};
}

/* Whether sh is a shard of the sweep of the first shard merged. */
static bool same_sweep(const fray_sweep_merge *mg, const fray_sweep_shard *sh)
{
	bool same = fray_shard_same_run(&mg->m, &sh->m) && mg->by_trials == sh->by_trials &&
		    (uint64_t)mg->g.np == sh->npoints && mg->g.nk == sh->nvary;
	for (int k = 0; same && k < sh->nvary; k++)
		same = strcmp(mg->vary[k], sh->vary[k]) == 0;
	return same;
}

/* The merge takes the first shard's run, knobs and number of points. */
static bool sweep_merge_start(fray_sweep_merge *mg, const fray_sweep_shard *sh)
{
	mg->m = sh->m;
	mg->by_trials = sh->by_trials;
	mg->g.nk = sh->nvary;
	for (int k = 0; k < sh->nvary; k++) {
		memcpy(mg->vary[k], sh->vary[k], sizeof mg->vary[k]);
		mg->g.paths[k] = mg->vary[k];
	}
	mg->g.np = (size_t)sh->npoints;
	mg->g.pts = frayi_calloc(mg->ctx, mg->g.np, sizeof *mg->g.pts);
	mg->seen = frayi_calloc(mg->ctx, sh->m.nshards, sizeof *mg->seen);
	return mg->g.pts && mg->seen;
}

/* A point first met: its values and marks copied, its counts new. */
static bool take_point(fray_sweep_merge *mg, fray_sweep_point *pt, const fray_sweep_shard_point *sp)
{
	if (!(pt->sim = fray_sim_new(fray_sim_nfields(sp->sim))))
		return false;
	pt->baseline = sp->baseline;
	pt->grid = sp->grid;
	for (int k = 0; k < mg->g.nk; k++)
		if (!(pt->val[k] = frayi_strdup(mg->ctx, sp->values[k])))
			return false;
	return true;
}

/* Whether a point already merged has sp's values and marks. */
static bool same_point(const fray_sweep_merge *mg, const fray_sweep_point *pt, const fray_sweep_shard_point *sp)
{
	bool same = pt->baseline == sp->baseline && pt->grid == sp->grid;
	for (int k = 0; same && k < mg->g.nk; k++)
		same = strcmp(pt->val[k], sp->values[k]) == 0;
	return same;
}

FRAY_API fray_merge_verdict fray_sweep_merge_begin(fray_sweep_merge *mg, const fray_sweep_shard *sh)
{
	if (mg->merged == 0) {
		if (!sweep_merge_start(mg, sh))
			return FRAY_MERGE_NOMEM;
	} else if (!same_sweep(mg, sh)) {
		return FRAY_MERGE_OTHER_RUN;
	}
	if (mg->seen[sh->m.shard - 1])
		return FRAY_MERGE_TWICE;
	mg->seen[sh->m.shard - 1] = true;
	mg->merged++;
	return FRAY_MERGE_ADDED;
}

FRAY_API fray_merge_verdict fray_sweep_merge_point(fray_sweep_merge *mg, const fray_sweep_shard *sh,
						   const fray_sweep_shard_point *sp)
{
	fray_sweep_point *pt = &mg->g.pts[sp->index];
	/* split by trials, every shard has every point: each must be the point
	 * the first shard had, or two sweeps' counts would add as one */
	if (pt->sim && !same_point(mg, pt, sp))
		return FRAY_MERGE_OTHER_RUN;
	mg->partial |= fray_sim_trials(sp->sim) < sh->last - sh->first;
	if (!pt->sim && !take_point(mg, pt, sp))
		return FRAY_MERGE_NOMEM;
	if (fray_sim_add(pt->sim, sp->sim) != FRAY_OK)
		return FRAY_MERGE_NOMEM;
	return FRAY_MERGE_ADDED;
}

FRAY_API fray_merge_verdict fray_sweep_merge_add(fray_sweep_merge *mg, const fray_sweep_shard *sh)
{
	/* every point checked before any is added: a refused shard changes nothing */
	if (mg->merged && same_sweep(mg, sh) && !mg->seen[sh->m.shard - 1])
		for (size_t p = 0; p < sh->n; p++)
			if (mg->g.pts[sh->points[p].index].sim &&
			    !same_point(mg, &mg->g.pts[sh->points[p].index], &sh->points[p]))
				return FRAY_MERGE_OTHER_RUN;
	fray_merge_verdict v = fray_sweep_merge_begin(mg, sh);
	for (size_t p = 0; p < sh->n && v == FRAY_MERGE_ADDED; p++)
		v = fray_sweep_merge_point(mg, sh, &sh->points[p]);
	return v;
}

FRAY_API void fray_sweep_merge_end(fray_sweep_merge *mg, char *why, size_t cap)
{
	partial_why(mg->merged, mg->m.nshards, mg->partial, why, cap);
	/* a sweep split by points shows the points it has */
	size_t k = 0;
	for (size_t p = 0; p < mg->g.np; p++)
		if (mg->g.pts[p].sim)
			mg->g.pts[k++] = mg->g.pts[p];
	mg->g.np = k;
	mg->m.shard = mg->m.nshards = 1;
}

FRAY_API void fray_sweep_merge_free(fray_sweep_merge *mg)
{
	for (size_t p = 0; mg->g.pts && p < mg->g.np; p++) {
		for (int k = 0; k < mg->g.nk; k++)
			frayi_dealloc(mg->ctx, (char *)mg->g.pts[p].val[k]);
		fray_sim_free(mg->g.pts[p].sim);
	}
	frayi_dealloc(mg->ctx, mg->g.pts);
	frayi_dealloc(mg->ctx, mg->seen);
	*mg = (fray_sweep_merge){.ctx = mg->ctx};
}
