/* A sweep of an ADBG scenario for a designer (include/fray/sweep.h): the
 * knobs and their ranges, the grid and its baseline, the target, and the
 * sensitivity of the result to each knob. The battles are the rules'
 * (fray_adbg_battle_stats_procedure, run by the caller at each point);
 * here is only the bookkeeping of a designer's questions. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <fray/sweep.h>
#include "../core/internal.h"

/* ---- knobs ---- */

static bool add_value(fray_ctx *ctx, fray_sweep_knob *k, const char *v)
{
	if (k->nvalues == k->cap) {
		int cap = k->cap ? 2 * k->cap : 16;
		char **vs = frayi_realloc(ctx, k->values, (size_t)cap * sizeof *vs);
		if (!vs)
			return false;
		k->values = vs;
		k->cap = cap;
	}
	return (k->values[k->nvalues++] = frayi_strdup(ctx, v)) != NULL;
}

FRAY_API void fray_sweep_knob_free(fray_ctx *ctx, fray_sweep_knob *k)
{
	for (int i = 0; i < k->nvalues; i++)
		frayi_dealloc(ctx, k->values[i]);
	if (k->values)
		frayi_dealloc(ctx, k->values);
	if (k->path)
		frayi_dealloc(ctx, k->path);
	if (k->base)
		frayi_dealloc(ctx, k->base);
	*k = (fray_sweep_knob){0};
}

static bool parse_long(const char *s, const char *end, long *out)
{
	char *e;
	errno = 0;
	long v = strtol(s, &e, 10);
	if (e == s || e != end || errno || v < -1000000 || v > 1000000)
		return false;
	*out = v;
	return true;
}

/* FROM..TO or FROM..TO:STEP, whole numbers: true when tok is a range
 * (expanded, at most max values), false when it is a plain value; *bad
 * when it looks like a range and is not one. */
static bool expand_range(fray_ctx *ctx, fray_sweep_knob *k, const char *tok, int max, bool *bad, bool *nomem)
{
	const char *dots = strstr(tok, "..");
	*bad = false;
	if (!dots || strncmp(tok, "remove:", 7) == 0 || strncmp(tok, "add:", 4) == 0)
		return false;
	const char *colon = strchr(dots + 2, ':');
	long from, to, step = 1;
	if (!parse_long(tok, dots, &from) || !parse_long(dots + 2, colon ? colon : dots + 2 + strlen(dots + 2), &to) ||
	    (colon && !parse_long(colon + 1, colon + 1 + strlen(colon + 1), &step)) || step < 1 || to < from ||
	    (to - from) / step + 1 > max) {
		*bad = true;
		return true;
	}
	char num[32];
	for (long v = from; v <= to; v += step) {
		snprintf(num, sizeof num, "%ld", v);
		if (!add_value(ctx, k, num)) {
			*nomem = true;
			return true;
		}
	}
	return true;
}

/* The values of a knob, one at a time (a range expanded). */
static fray_status parse_values(fray_ctx *ctx, char *list, int max_values, fray_sweep_knob *k)
{
	for (char *save = NULL, *t = strtok_r(list, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		bool bad, nomem = false;
		if (expand_range(ctx, k, t, max_values, &bad, &nomem)) {
			if (bad)
				return frayi_fail(ctx, FRAY_ERR_INPUT, "option --vary %s: '%s': expected FROM..TO or "
						 "FROM..TO:STEP, whole numbers with FROM <= TO and STEP >= 1, at most "
						 "%d values (--max-points)", k->path, t, max_values);
			if (nomem)
				return frayi_nomem(ctx);
		} else if (strlen(t) >= FRAY_SWEEP_VALUE) {
			return frayi_fail(ctx, FRAY_ERR_INPUT, "option --vary %s: a value longer than %d bytes", k->path,
					 FRAY_SWEEP_VALUE - 1);
		} else if (!add_value(ctx, k, t)) {
			return frayi_nomem(ctx);
		}
		if (k->nvalues > max_values)
			return frayi_fail(ctx, FRAY_ERR_INPUT, "option --vary %s: more than %d values (--max-points)",
					 k->path, max_values);
	}
	return FRAY_OK;
}

FRAY_API fray_status fray_sweep_knob_parse(fray_ctx *ctx, const char *text, int max_values, fray_sweep_knob *k)
{
	*k = (fray_sweep_knob){0};
	const char *eq = strchr(text, '=');
	if (!eq || eq == text || !eq[1])
		return frayi_fail(ctx, FRAY_ERR_INPUT, "option --vary expects PATH=V1,V2,... or PATH=FROM..TO[:STEP], "
				 "got '%s'", text);
	size_t plen = (size_t)(eq - text);
	if (!(k->path = frayi_alloc(ctx, plen + 1)))
		return frayi_nomem(ctx);
	memcpy(k->path, text, plen);
	k->path[plen] = '\0';
	char *list = frayi_strdup(ctx, eq + 1);
	if (!list)
		return frayi_nomem(ctx);
	fray_status st = parse_values(ctx, list, max_values, k);
	frayi_dealloc(ctx, list);
	if (st == FRAY_OK && k->nvalues == 0)
		st = frayi_fail(ctx, FRAY_ERR_INPUT, "option --vary expects PATH=V1,V2,..., got '%s'", text);
	return st;
}

FRAY_API fray_status fray_sweep_bases(fray_ctx *ctx, fray_doc *doc, fray_sweep_knob *knobs, int nk)
{
	for (int k = 0; k < nk; k++) {
		const char *base = strcmp(knobs[k].path, FRAY_ADBG_EDIT_UNITS) == 0 ? "none" : NULL;
		if (!base) {
			const fray_node *n;
			if (fray_adbg_edit_find(ctx, fray_doc_root(doc), knobs[k].path, &n) != FRAY_OK) {
				char why[256];
				snprintf(why, sizeof why, "%s", fray_ctx_message(ctx));
				fray_ctx_clear(ctx);
				return frayi_fail(ctx, FRAY_ERR_INPUT, "option --vary %s: %s: %s", knobs[k].path,
						 fray_doc_name(doc), why);
			}
			base = fray_node_scalar(n);
		}
		if (knobs[k].base)
			frayi_dealloc(ctx, knobs[k].base);
		if (!(knobs[k].base = frayi_strdup(ctx, base)))
			return frayi_nomem(ctx);
	}
	return FRAY_OK;
}

FRAY_API bool fray_sweep_same_value(const char *a, const char *b)
{
	if (strcmp(a, b) == 0)
		return true;
	long x, y;
	return parse_long(a, a + strlen(a), &x) && parse_long(b, b + strlen(b), &y) && x == y;
}

/* ---- the grid ---- */

FRAY_API fray_status fray_sweep_points(fray_ctx *ctx, const fray_sweep_knob *knobs, int nk, uint64_t max_points,
				       fray_sweep *w)
{
	*w = (fray_sweep){0};
	if (nk < 1 || nk > FRAY_SWEEP_MAX_KNOBS)
		return frayi_fail(ctx, FRAY_ERR_INPUT, "a sweep has 1 to %d knobs, not %d", FRAY_SWEEP_MAX_KNOBS, nk);
	uint64_t grid = 1;
	for (int k = 0; k < nk; k++)
		if ((grid *= (uint64_t)knobs[k].nvalues) > max_points) {
			uint64_t all = 1;
			for (int j = 0; j < nk; j++)
				all *= (uint64_t)knobs[j].nvalues;
			return frayi_fail(ctx, FRAY_ERR_INPUT, "option --vary: the grid has %" PRIu64 " points, more "
					 "than the %" PRIu64 " allowed (--max-points, at most %d)", all, max_points,
					 FRAY_SWEEP_MAX_POINTS);
		}
	bool base_in_grid = true;
	for (int k = 0; k < nk; k++) {
		bool found = false;
		for (int i = 0; i < knobs[k].nvalues && !found; i++)
			found = knobs[k].base && fray_sweep_same_value(knobs[k].values[i], knobs[k].base);
		base_in_grid &= found;
	}
	size_t np = (size_t)grid + !base_in_grid;
	if (!(w->pts = frayi_calloc(ctx, np, sizeof *w->pts)))
		return frayi_nomem(ctx);
	w->np = np;
	size_t p = 0;
	if (!base_in_grid) {
		for (int k = 0; k < nk; k++)
			w->pts[0].val[k] = knobs[k].base ? knobs[k].base : "";
		w->pts[0].baseline = true;
		p = 1;
	}
	for (uint64_t g = 0; g < grid; g++, p++) {
		fray_sweep_point *pt = &w->pts[p];
		pt->grid = true;
		pt->baseline = base_in_grid;
		for (int k = nk - 1, r = (int)g; k >= 0; r /= knobs[k].nvalues, k--) {
			pt->val[k] = knobs[k].values[r % knobs[k].nvalues];
			pt->baseline &= knobs[k].base && fray_sweep_same_value(pt->val[k], knobs[k].base);
		}
	}
	for (int k = 0; k < nk; k++)
		w->paths[k] = knobs[k].path;
	w->nk = nk;
	return FRAY_OK;
}

FRAY_API void fray_sweep_points_free(fray_ctx *ctx, fray_sweep *w)
{
	if (w->pts)
		frayi_dealloc(ctx, w->pts);
	w->pts = NULL;
	w->np = 0;
}

FRAY_API int fray_sweep_point_edits(const fray_adbg_edit *sets, int nsets, const fray_sweep *w,
				    const fray_sweep_point *pt, fray_adbg_edit *ed)
{
	int n = 0;
	for (int i = 0; i < nsets; i++)
		ed[n++] = sets[i];
	for (int k = 0; k < w->nk; k++)
		ed[n++] = (fray_adbg_edit){w->paths[k], pt->val[k]};
	return n;
}

/* ---- a point's battles ---- */

FRAY_API fray_status fray_sweep_run_point(fray_ctx *ctx, fray_doc *doc, const fray_adbg_edit_read *how,
					  const fray_adbg_edit *sets, int nsets, fray_sweep *w, size_t p,
					  const fray_sim_run *run)
{
	if (p >= w->np || nsets < 0 || nsets > 64)
		return frayi_fail(ctx, FRAY_ERR_INPUT, "no point %zu in a sweep of %zu", p + 1, w->np);
	fray_adbg_edit ed[64 + FRAY_SWEEP_MAX_KNOBS];
	fray_adbg_scenario *s = NULL;
	fray_status st = fray_adbg_scenario_read_edited(ctx, doc, ed, fray_sweep_point_edits(sets, nsets, w,
							&w->pts[p], ed), how, &s);
	if (st != FRAY_OK)
		return st;
	if (!(w->pts[p].sim = fray_sim_new(FRAY_ADBG_SIM_FIELDS))) {
		fray_adbg_scenario_free(s);
		return frayi_nomem(ctx);
	}
	fray_sim_run one = *run;
	one.proc = fray_adbg_battle_stats_procedure;
	one.input = s;
	one.nfields = FRAY_ADBG_SIM_FIELDS;
	st = fray_simulate(ctx, &one, w->pts[p].sim);
	fray_adbg_scenario_free(s);
	return st;
}

/* ---- outcomes of a point ---- */

FRAY_API uint64_t fray_sweep_count(const fray_sim *s, int o)
{
	/* winner: 0 a draw, 1 side 1, 2 side 2 */
	return fray_sim_count(s, FRAY_ADBG_SIM_WINNER, o == 2 ? 0 : o + 1);
}

FRAY_API double fray_sweep_rate(const fray_sim *s, int o)
{
	uint64_t n = fray_sim_trials(s);
	return n ? (double)fray_sweep_count(s, o) / (double)n : 0;
}

FRAY_API double fray_sweep_mean_losses(const fray_sim *s, int side)
{
	return fray_sim_mean(s, FRAY_ADBG_SIM_SIDE + (size_t)side * FRAY_ADBG_SIM_PER_SIDE + FRAY_ADBG_SIM_LOSSES);
}

FRAY_API bool fray_sweep_same_sims(const fray_sim *a, const fray_sim *b)
{
	if (fray_sim_trials(a) != fray_sim_trials(b))
		return false;
	for (size_t f = 0; f < FRAY_ADBG_SIM_FIELDS; f++) {
		bool standing = f >= FRAY_ADBG_SIM_SIDE &&
				(f - FRAY_ADBG_SIM_SIDE) % FRAY_ADBG_SIM_PER_SIDE == FRAY_ADBG_SIM_STANDING;
		for (int v = 0; v <= FRAY_SIM_MAX_VALUE && !standing; v++)
			if (fray_sim_count(a, f, v) != fray_sim_count(b, f, v))
				return false;
	}
	return true;
}

/* ---- the target ---- */

static bool trim_eq(const char *s, size_t len, const char *name)
{
	while (len && *s == ' ')
		s++, len--;
	while (len && s[len - 1] == ' ')
		len--;
	return len == strlen(name) && strncasecmp(s, name, len) == 0;
}

/* An outcome by the names the sweep prints: A or side1, B or side2, draw,
 * a side's id or name. */
static int outcome_named(const char *const ids[2], const char *const names[2], const char *s, size_t len)
{
	static const char *const fixed[][3] = {{"A", "side1", "side 1"}, {"B", "side2", "side 2"},
					       {"draw", "draws", "d"}};
	for (int o = 0; o < 3; o++)
		for (int i = 0; i < 3; i++)
			if (trim_eq(s, len, fixed[o][i]))
				return o;
	for (int o = 0; o < 2; o++)
		if ((ids[o][0] && trim_eq(s, len, ids[o])) || trim_eq(s, len, names[o]))
			return o;
	return -1;
}

static fray_status target_syntax(fray_ctx *ctx, const char *text)
{
	return frayi_fail(ctx, FRAY_ERR_INPUT, "option --target expects OUTCOME<N, OUTCOME>N, OUTCOME=N or "
			 "|OUTCOME-OUTCOME|<N (outcomes: A, B, draw, a side's id or name; N a rate such as 0.4 or "
			 "40%%), got '%s'", text);
}

FRAY_API fray_status fray_sweep_target_parse(fray_ctx *ctx, const char *text, const char *const ids[2],
					     const char *const names[2], fray_sweep_target *t)
{
	*t = (fray_sweep_target){.on = true, .b = -1, .text = text};
	const char *op = strpbrk(text, "<>=");
	if (!op || op == text)
		return target_syntax(ctx, text);
	t->op = op[0];
	const char *num = op + 1;
	if (op[1] == '=' && op[0] != '=') {
		t->op = op[0] == '<' ? 'l' : 'g';
		num++;
	}
	char *end;
	errno = 0;
	t->c = strtod(num, &end);
	while (*end == ' ')
		end++;
	if (*end == '%') {
		t->c /= 100;
		end++;
	}
	if (end == num || *end || errno || !(t->c >= -1 && t->c <= 1))
		return target_syntax(ctx, text);
	const char *e = text;
	size_t len = (size_t)(op - text);
	while (len && e[len - 1] == ' ')
		len--;
	while (len && *e == ' ')
		e++, len--;
	if (len >= 2 && e[0] == '|' && e[len - 1] == '|') {
		/* |X-Y|: the first '-' that leaves two outcomes on its sides */
		for (size_t i = 1; i + 1 < len; i++)
			if (e[i] == '-' && (t->a = outcome_named(ids, names, e + 1, i - 1)) >= 0 &&
			    (t->b = outcome_named(ids, names, e + i + 1, len - i - 2)) >= 0)
				return FRAY_OK;
		return frayi_fail(ctx, FRAY_ERR_INPUT, "option --target '%s': expected |OUTCOME-OUTCOME| with two of "
				 "A, B, draw, %s, %s", text, names[0], names[1]);
	}
	if ((t->a = outcome_named(ids, names, e, len)) < 0)
		return frayi_fail(ctx, FRAY_ERR_INPUT, "option --target '%s': '%.*s' is not an outcome: expected A, "
				 "B, draw, %s or %s", text, (int)len, e, names[0], names[1]);
	return FRAY_OK;
}

FRAY_API double fray_sweep_target_value(const fray_sweep_target *t, const fray_sim *s)
{
	double v = fray_sweep_rate(s, t->a);
	return t->b < 0 ? v : fabs(v - fray_sweep_rate(s, t->b));
}

FRAY_API bool fray_sweep_target_met(const fray_sweep_target *t, double v)
{
	switch (t->op) {
	case '<': return v < t->c;
	case 'l': return v <= t->c;
	case '>': return v > t->c;
	case 'g': return v >= t->c;
	default: return true; /* '=': every point, closest first */
	}
}

/* Closest first: the smallest value for < and <=, the largest for > and
 * >=, the nearest to the number for =. */
static double target_key(const fray_sweep_target *t, double v)
{
	return t->op == '<' || t->op == 'l' ? v : t->op == '>' || t->op == 'g' ? -v : fabs(v - t->c);
}

typedef struct keyed {
	double key;
	size_t point;
} keyed;

static int by_key(const void *x, const void *y)
{
	const keyed *a = x, *b = y;
	return a->key < b->key ? -1 : a->key > b->key ? 1 : a->point < b->point ? -1 : a->point > b->point;
}

FRAY_API size_t fray_sweep_order(fray_ctx *ctx, const fray_sweep *w, const fray_sweep_target *t, size_t *order)
{
	size_t n = 0;
	if (!t || !t->on) {
		for (size_t p = 0; p < w->np; p++)
			order[n++] = p;
		return n;
	}
	keyed *keys = frayi_alloc(ctx, (w->np ? w->np : 1) * sizeof *keys);
	if (!keys) {
		frayi_nomem(ctx);
		return (size_t)-1;
	}
	for (size_t p = 0; p < w->np; p++) {
		double v = fray_sweep_target_value(t, w->pts[p].sim);
		if (fray_sweep_target_met(t, v))
			keys[n++] = (keyed){target_key(t, v), p};
	}
	qsort(keys, n, sizeof *keys, by_key);
	for (size_t i = 0; i < n; i++)
		order[i] = keys[i].point;
	frayi_dealloc(ctx, keys);
	return n;
}

/* ---- sensitivity ---- */

static bool others_equal(const fray_sweep *w, const fray_sweep_point *a, const fray_sweep_point *b, int k)
{
	for (int i = 0; i < w->nk; i++)
		if (i != k && strcmp(a->val[i], b->val[i]) != 0)
			return false;
	return true;
}

/* Whether knob k's values x and y gave the very same battles wherever
 * the other knobs agree (common random numbers: the same dice). */
static bool same_battles(const fray_sweep *w, int k, const char *x, const char *y)
{
	for (size_t p = 0; p < w->np; p++) {
		if (!w->pts[p].grid || strcmp(w->pts[p].val[k], x) != 0)
			continue;
		for (size_t q = 0; q < w->np; q++)
			if (w->pts[q].grid && strcmp(w->pts[q].val[k], y) == 0 &&
			    others_equal(w, &w->pts[p], &w->pts[q], k) &&
			    !fray_sweep_same_sims(w->pts[p].sim, w->pts[q].sim))
				return false;
	}
	return true;
}

/* Each of knob k's values' mean rates over the grid points with it: the
 * lowest and highest into out. */
static void value_means(const fray_sweep *w, int k, fray_sweep_sens *out)
{
	for (size_t p = 0; p < w->np; p++) {
		if (!w->pts[p].grid)
			continue;
		bool first_of_value = true;
		for (size_t q = 0; q < p && first_of_value; q++)
			first_of_value = !(w->pts[q].grid && strcmp(w->pts[q].val[k], w->pts[p].val[k]) == 0);
		if (!first_of_value)
			continue;
		if (out->nvals < FRAY_SWEEP_SENS_VALUES)
			out->vals[out->nvals++] = w->pts[p].val[k];
		double sum[3] = {0};
		int n = 0;
		for (size_t q = p; q < w->np; q++)
			if (w->pts[q].grid && strcmp(w->pts[q].val[k], w->pts[p].val[k]) == 0) {
				for (int o = 0; o < 3; o++)
					sum[o] += fray_sweep_rate(w->pts[q].sim, o);
				n++;
			}
		for (int o = 0; o < 3; o++) {
			double mean = sum[o] / n;
			out->lo[o] = mean < out->lo[o] ? mean : out->lo[o];
			out->hi[o] = mean > out->hi[o] ? mean : out->hi[o];
		}
	}
}

static void sense_knob(const fray_sweep *w, int k, fray_sweep_sens *out)
{
	*out = (fray_sweep_sens){.knob = k};
	for (int o = 0; o < 3; o++) {
		out->lo[o] = 2;
		out->hi[o] = -1;
	}
	value_means(w, k, out);
	/* classes of values with the same battles; a sweep too large to
	 * compare every pair (past 2000 points) leaves each in its own */
	bool compare = w->np <= 2000;
	for (int i = 0; i < out->nvals; i++) {
		out->cls[i] = i;
		for (int j = 0; j < i && compare; j++)
			if (out->cls[j] == j && same_battles(w, k, out->vals[j], out->vals[i])) {
				out->cls[i] = j;
				break;
			}
	}
	out->no_effect = compare && out->nvals > 1;
	for (int i = 0; i < out->nvals; i++)
		out->no_effect &= out->cls[i] == 0;
	double a = out->hi[0] - out->lo[0], b = out->hi[1] - out->lo[1];
	out->score = out->no_effect ? -1 : a > b ? a : b;
}

static int by_score(const void *x, const void *y)
{
	const fray_sweep_sens *a = x, *b = y;
	return a->score > b->score ? -1 : a->score < b->score ? 1 : a->knob - b->knob;
}

FRAY_API void fray_sweep_sensitivity(const fray_sweep *w, fray_sweep_sens *out)
{
	for (int k = 0; k < w->nk; k++)
		sense_knob(w, k, &out[k]);
	qsort(out, (size_t)w->nk, sizeof *out, by_score);
}

/* 1: the scenario reads the same for the battle at knob k's values x and
 * y (the other knobs as at the first grid point); 0: it does not; -1:
 * cannot tell. */
static int same_reading(fray_ctx *ctx, fray_doc *doc, const fray_adbg_edit_read *how, const fray_adbg_edit *sets,
			int nsets, const fray_sweep *w, int k, const char *x, const char *y)
{
	const fray_sweep_point *first = NULL;
	for (size_t p = 0; p < w->np && !first; p++)
		if (w->pts[p].grid)
			first = &w->pts[p];
	if (!doc || !first || nsets > 64)
		return -1;
	fray_sweep_point px = *first, py = *first;
	px.val[k] = x;
	py.val[k] = y;
	fray_adbg_edit ed[64 + FRAY_SWEEP_MAX_KNOBS];
	fray_adbg_scenario *a = NULL, *b = NULL;
	fray_adbg_edit_read quiet = {.open = how ? how->open : NULL, .open_ud = how ? how->open_ud : NULL,
				     .option = "--vary"};
	int verdict = -1;
	/* read quietly: every point was read once already */
	if (fray_adbg_scenario_read_edited(ctx, doc, ed, fray_sweep_point_edits(sets, nsets, w, &px, ed), &quiet,
					   &a) == FRAY_OK &&
	    fray_adbg_scenario_read_edited(ctx, doc, ed, fray_sweep_point_edits(sets, nsets, w, &py, ed), &quiet,
					   &b) == FRAY_OK)
		verdict = fray_adbg_scenario_same_battle(a, b);
	else
		fray_ctx_clear(ctx);
	fray_adbg_scenario_free(a);
	fray_adbg_scenario_free(b);
	return verdict;
}

FRAY_API int fray_sweep_same_reading(fray_ctx *ctx, fray_doc *doc, const fray_adbg_edit_read *how,
				    const fray_adbg_edit *sets, int nsets, const fray_sweep *w,
				    const fray_sweep_sens *e)
{
	int verdict = 1;
	for (int i = 0; i < e->nvals && verdict == 1; i++)
		if (e->cls[i] != i)
			verdict = same_reading(ctx, doc, how, sets, nsets, w, e->knob, e->vals[e->cls[i]], e->vals[i]);
	return verdict;
}
