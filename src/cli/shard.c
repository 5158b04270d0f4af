/* Reading a shard file back: every field checked against the others (the
 * slice against the shard number, the counts against the trials counted),
 * so a tampered or truncated shard is refused with its file:line:col. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "shard.h"

uint64_t sim_slice(uint64_t trials, uint64_t i, uint64_t n)
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
	if (!*t || *end || errno || t[0] == '-') {
		fray_doc_error(doc, n, "expected %s, found '%s'", what, t);
		return false;
	}
	*out = v;
	return true;
}

static void read_text(fray_doc *doc, const fray_node *n, const char *what, char *dst, size_t cap)
{
	const char *t;
	if (n && fray_doc_string(doc, n, what, &t))
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
static void read_meta(fray_doc *doc, const fray_node *root, sim_meta *m)
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
	if (version != SHARD_VERSION) {
		fray_doc_error(doc, fray_map_get(root, "fray_shard"),
			       "shard format %" PRIu64 " is not the one this fray reads (%d)", version, SHARD_VERSION);
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

bool shard_read(fray_doc *doc, sim_shard *sh)
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
			    sh->first != sim_slice(sh->m.trials, sh->m.shard - 1, sh->m.nshards) ||
			    sh->last != sim_slice(sh->m.trials, sh->m.shard, sh->m.nshards))
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

bool shard_is_sweep(const fray_doc *doc)
{
	const fray_node *root = fray_doc_root(doc);
	const char *kind = is_shard(root) ? fray_node_scalar(fray_map_get(root, "kind")) : NULL;
	return kind && strcmp(kind, "adbg.sweep") == 0;
}

void sweep_shard_free(sweep_shard *sh)
{
	for (size_t i = 0; i < sh->n; i++)
		fray_sim_free(sh->points[i].sim);
	free(sh->points);
	sh->points = NULL;
	sh->n = 0;
}

static void read_bool(fray_doc *doc, const fray_node *map, const char *key, bool *out)
{
	const fray_node *n = fray_doc_field(doc, map, key, true);
	if (n)
		fray_doc_bool(doc, n, key, out);
}

static void read_sweep_point(fray_doc *doc, const fray_node *pn, sweep_shard *sh, sweep_shard_point *p)
{
	static const char *const keys[] = {"point", "values", "baseline", "grid", "counted", "counts"};
	if (!fray_doc_expect(doc, pn, FRAY_NODE_MAP, "a point"))
		return;
	fray_doc_known_keys(doc, pn, keys, sizeof keys / sizeof keys[0]);
	uint64_t index = 0, counted = 0;
	read_u64(doc, pn, "point", 1, (int64_t)sh->npoints, &index);
	p->index = index - 1;
	read_bool(doc, pn, "baseline", &p->baseline);
	read_bool(doc, pn, "grid", &p->grid);
	const fray_node *vals = fray_doc_field(doc, pn, "values", true);
	if (vals && fray_doc_expect(doc, vals, FRAY_NODE_SEQ, "the point's values")) {
		if (fray_node_len(vals) != (size_t)sh->nvary)
			fray_doc_error(doc, vals, "expected %d values, one per --vary", sh->nvary);
		for (int k = 0; k < sh->nvary && (size_t)k < fray_node_len(vals); k++)
			read_text(doc, fray_node_item(vals, (size_t)k), "a value", p->values[k], SWEEP_VALUE);
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

bool sweep_shard_read(fray_doc *doc, sweep_shard *sh)
{
	memset(sh, 0, sizeof *sh);
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
	read_u64(doc, root, "npoints", 1, 100000, &sh->npoints);
	if ((n = fray_doc_field(doc, root, "vary", true)) && fray_doc_expect(doc, n, FRAY_NODE_SEQ, "the knobs")) {
		if (fray_node_len(n) < 1 || fray_node_len(n) > SWEEP_MAX_VARY)
			fray_doc_error(doc, n, "expected 1 to %d knobs", SWEEP_MAX_VARY);
		for (size_t i = 0; i < fray_node_len(n) && i < SWEEP_MAX_VARY; i++)
			read_text(doc, fray_node_item(n, i), "a knob", sh->vary[sh->nvary++], SWEEP_VALUE);
	}
	if (fray_doc_error_count(doc))
		return false;
	uint64_t i = sh->m.shard - 1, of = sh->m.nshards;
	uint64_t want_first = sh->by_trials ? sim_slice(sh->m.trials, i, of) : 0;
	uint64_t want_last = sh->by_trials ? sim_slice(sh->m.trials, i + 1, of) : sh->m.trials;
	if (sh->m.shard > of || sh->first != want_first || sh->last != want_last) {
		fray_doc_error(doc, fray_map_get(root, "shard"), "shard %" PRIu64 " of %" PRIu64 " is not trials %"
			       PRIu64 "..%" PRIu64 " of each point", sh->m.shard, of, sh->first, sh->last);
		return false;
	}
	const fray_node *pts = fray_doc_field(doc, root, "points", true);
	if (!pts || !fray_doc_expect(doc, pts, FRAY_NODE_SEQ, "the points"))
		return false;
	uint64_t lo = sh->by_trials ? 0 : sweep_point_slice(sh->npoints, i, of);
	uint64_t hi = sh->by_trials ? sh->npoints : sweep_point_slice(sh->npoints, i + 1, of);
	if (fray_node_len(pts) != hi - lo) {
		fray_doc_error(doc, pts, "expected the %" PRIu64 " points %" PRIu64 "..%" PRIu64 " of this shard, "
			       "found %zu", hi - lo, lo + 1, hi, fray_node_len(pts));
		return false;
	}
	if (!(sh->points = calloc(hi - lo ? hi - lo : 1, sizeof *sh->points))) {
		fray_doc_error(doc, NULL, "out of memory");
		return false;
	}
	for (size_t p = 0; p < fray_node_len(pts) && !fray_doc_error_count(doc); p++) {
		sweep_shard_point *sp = &sh->points[sh->n++];
		if (!(sp->sim = fray_sim_new(FRAY_ADBG_SIM_FIELDS))) {
			fray_doc_error(doc, NULL, "out of memory");
			break;
		}
		read_sweep_point(doc, fray_node_item(pts, p), sh, sp);
		if (!fray_doc_error_count(doc) && sp->index != lo + p)
			fray_doc_error(doc, fray_node_item(pts, p), "expected point %" PRIu64 " here", lo + p + 1);
	}
	return fray_doc_error_count(doc) == 0;
}

bool shard_same_run(const sim_meta *a, const sim_meta *b)
{
	return a->digest == b->digest && a->seed == b->seed && a->trials == b->trials &&
	       a->nshards == b->nshards && strcmp(a->policy, b->policy) == 0 &&
	       strcmp(a->scenario, b->scenario) == 0;
}
