/* fray adbg sweep SCENARIO --vary PATH=VALUES...: the quick battle (ADBG
 * 19) simulated at every point of a grid of changed values, with the same
 * dice at every point (common random numbers), for a designer balancing a
 * scenario: ranges of values, the scenario's own values marked as the
 * baseline, a target to filter and sort the points by, which knobs move
 * the result (sensitivity), the points as text, CSV or JSON, a point saved
 * as a scenario file (--write), and shards for many machines (by points or
 * by trials) that fray merge adds back into exactly one run's output. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include "cli.h"
#include "../common/text.h"
#include "policy_cli.h"
#include "scenario_edit.h"
#include "sim_out.h"

int adbg_sweep(int argc, char **argv);

enum { DEFAULT_MAX_POINTS = 1000, HARD_MAX_POINTS = 10000 };

typedef enum out_fmt { OUT_TEXT, OUT_CSV, OUT_JSON } out_fmt;

/* One --vary: a path (or `units`) and its values, ranges expanded. */
typedef struct knob {
	char *path;
	char **values;
	int nvalues, cap;
	char *base;              /* the scenario's own value */
} knob;

typedef struct point {
	const char *val[SWEEP_MAX_VARY];
	bool baseline;           /* the scenario's own values */
	bool grid;               /* false: the baseline, added before the grid */
	fray_sim *sim;
} point;

typedef struct sweep {
	sim_meta m;
	char side_id[2][64];     /* for --target ("" after a merge) */
	const char *paths[SWEEP_MAX_VARY];
	int nk;
	point *pts;
	size_t np;
	/* where the scenarios can be read again (NULL after a merge): to tell
	 * a value the battle never reads from one past a table's cap */
	fray_ctx *ctx;
	fray_doc *doc;
	const struct opts *o;
} sweep;

/* 1: the scenario reads the same for the battle at knob k's values x and
 * y (the other knobs as at the first grid point); 0: it does not; -1:
 * cannot tell. */
static int same_reading(const sweep *w, int k, const char *x, const char *y);

/* --target: an outcome's rate (or the gap between two) against a number. */
typedef struct target {
	bool on;
	int a, b;                /* 0 side 1, 1 side 2, 2 draw; b: -1 for one */
	char op;                 /* '<', '>', 'l' (<=), 'g' (>=), '=' */
	double c;
	const char *text;
} target;

/* ---- knobs ---- */

static bool add_value(knob *k, const char *v)
{
	if (k->nvalues == k->cap) {
		int cap = k->cap ? 2 * k->cap : 16;
		char **vs = realloc(k->values, (size_t)cap * sizeof *vs);
		if (!vs)
			return false;
		k->values = vs;
		k->cap = cap;
	}
	return (k->values[k->nvalues++] = strdup(v)) != NULL;
}

static void knob_free(knob *k)
{
	for (int i = 0; i < k->nvalues; i++)
		free(k->values[i]);
	free(k->values);
	free(k->path);
	free(k->base);
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
static bool expand_range(knob *k, const char *tok, int max, bool *bad, bool *nomem)
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
		if (!add_value(k, num)) {
			*nomem = true;
			return true;
		}
	}
	return true;
}

static int parse_vary(const char *cmd, const char *arg, int max_points, knob *k)
{
	const char *eq = strchr(arg, '=');
	if (!eq || eq == arg || !eq[1])
		return cli_error(cmd, EXIT_BAD_INPUT, "option --vary expects PATH=V1,V2,... or PATH=FROM..TO[:STEP], "
				 "got '%s'", arg);
	if (!(k->path = strndup(arg, (size_t)(eq - arg))))
		return cli_error(cmd, EXIT_RUNTIME, "out of memory");
	char *list = strdup(eq + 1);
	if (!list)
		return cli_error(cmd, EXIT_RUNTIME, "out of memory");
	int status = EXIT_OK;
	for (char *save = NULL, *t = strtok_r(list, ",", &save); t && status == EXIT_OK;
	     t = strtok_r(NULL, ",", &save)) {
		bool bad, nomem = false;
		if (expand_range(k, t, max_points, &bad, &nomem)) {
			if (bad)
				status = cli_error(cmd, EXIT_BAD_INPUT, "option --vary %s: '%s': expected FROM..TO or "
						   "FROM..TO:STEP, whole numbers with FROM <= TO and STEP >= 1, at "
						   "most %d values (--max-points)", k->path, t, max_points);
			else if (nomem)
				status = cli_error(cmd, EXIT_RUNTIME, "out of memory");
		} else if (strlen(t) >= SWEEP_VALUE) {
			status = cli_error(cmd, EXIT_BAD_INPUT, "option --vary %s: a value longer than %d bytes",
					   k->path, SWEEP_VALUE - 1);
		} else if (!add_value(k, t)) {
			status = cli_error(cmd, EXIT_RUNTIME, "out of memory");
		}
		if (status == EXIT_OK && k->nvalues > max_points)
			status = cli_error(cmd, EXIT_BAD_INPUT, "option --vary %s: more than %d values "
					   "(--max-points)", k->path, max_points);
	}
	free(list);
	if (status == EXIT_OK && k->nvalues == 0)
		status = cli_error(cmd, EXIT_BAD_INPUT, "option --vary expects PATH=V1,V2,..., got '%s'", arg);
	return status;
}

/* Two values are the same when their texts are, or both are the same
 * whole number ("3" and "03"). */
static bool same_value(const char *a, const char *b)
{
	if (strcmp(a, b) == 0)
		return true;
	long x, y;
	return parse_long(a, a + strlen(a), &x) && parse_long(b, b + strlen(b), &y) && x == y;
}

/* ---- outcomes of a point ---- */

static uint64_t outcome_count(const fray_sim *s, int o)
{
	/* winner: 0 a draw, 1 side 1, 2 side 2 */
	return fray_sim_count(s, FRAY_ADBG_SIM_WINNER, o == 2 ? 0 : o + 1);
}

static double outcome_rate(const fray_sim *s, int o)
{
	uint64_t n = fray_sim_trials(s);
	return n ? (double)outcome_count(s, o) / (double)n : 0;
}

static double mean_losses(const fray_sim *s, int side)
{
	return fray_sim_mean(s, FRAY_ADBG_SIM_SIDE + (size_t)side * FRAY_ADBG_SIM_PER_SIDE + FRAY_ADBG_SIM_LOSSES);
}

/* The same outcomes: winners, rounds and every loss counted alike (the
 * units left standing aside: an added unit that never fights is one more
 * standing, and changed nothing). */
static bool same_sims(const fray_sim *a, const fray_sim *b)
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

/* ---- --target ---- */

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
static int outcome_named(const sweep *w, const char *s, size_t len)
{
	static const char *const fixed[][3] = {{"A", "side1", "side 1"}, {"B", "side2", "side 2"},
					       {"draw", "draws", "d"}};
	for (int o = 0; o < 3; o++)
		for (int i = 0; i < 3; i++)
			if (trim_eq(s, len, fixed[o][i]))
				return o;
	for (int o = 0; o < 2; o++)
		if ((w->side_id[o][0] && trim_eq(s, len, w->side_id[o])) || trim_eq(s, len, w->m.side[o]))
			return o;
	return -1;
}

static int parse_target(const char *cmd, const sweep *w, const char *text, target *t)
{
	*t = (target){.on = true, .b = -1, .text = text};
	const char *op = strpbrk(text, "<>=");
	bad:
	if (!op || op == text)
		return cli_error(cmd, EXIT_BAD_INPUT, "option --target expects OUTCOME<N, OUTCOME>N, OUTCOME=N or "
				 "|OUTCOME-OUTCOME|<N (outcomes: A, B, draw, a side's id or name; N a rate such as "
				 "0.4 or 40%%), got '%s'", text);
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
	if (end == num || *end || errno || !(t->c >= -1 && t->c <= 1)) {
		op = NULL;
		goto bad;
	}
	const char *e = text;
	size_t len = (size_t)(op - text);
	while (len && e[len - 1] == ' ')
		len--;
	while (len && *e == ' ')
		e++, len--;
	if (len >= 2 && e[0] == '|' && e[len - 1] == '|') {
		/* |X-Y|: the first '-' that leaves two outcomes on its sides */
		for (size_t i = 1; i + 1 < len; i++)
			if (e[i] == '-' && (t->a = outcome_named(w, e + 1, i - 1)) >= 0 &&
			    (t->b = outcome_named(w, e + i + 1, len - i - 2)) >= 0)
				return EXIT_OK;
		return cli_error(cmd, EXIT_BAD_INPUT, "option --target '%s': expected |OUTCOME-OUTCOME| with two of "
				 "A, B, draw, %s, %s", text, w->m.side[0], w->m.side[1]);
	}
	if ((t->a = outcome_named(w, e, len)) < 0)
		return cli_error(cmd, EXIT_BAD_INPUT, "option --target '%s': '%.*s' is not an outcome: expected A, B, "
				 "draw, %s or %s", text, (int)len, e, w->m.side[0], w->m.side[1]);
	return EXIT_OK;
}

static double target_value(const target *t, const fray_sim *s)
{
	double v = outcome_rate(s, t->a);
	return t->b < 0 ? v : fabs(v - outcome_rate(s, t->b));
}

static bool target_met(const target *t, double v)
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
static double target_key(const target *t, double v)
{
	return t->op == '<' || t->op == 'l' ? v : t->op == '>' || t->op == 'g' ? -v : fabs(v - t->c);
}

static const target *sort_target;
static const point *sort_points;
static int by_closeness(const void *x, const void *y)
{
	size_t i = *(const size_t *)x, j = *(const size_t *)y;
	double a = target_key(sort_target, target_value(sort_target, sort_points[i].sim));
	double b = target_key(sort_target, target_value(sort_target, sort_points[j].sim));
	return a < b ? -1 : a > b ? 1 : i < j ? -1 : i > j; /* stable: by point number */
}

/* ---- sensitivity: how far each knob moves the win rates ---- */

typedef struct sens {
	int knob;
	double lo[3], hi[3];     /* the lowest and highest mean rate of each outcome */
	bool no_effect;          /* the same battles at every value */
	double score;
	const char *vals[64];    /* its distinct values (the first 64) */
	int cls[64];             /* values that give the same battles share a class */
	int nvals;
} sens;

static bool others_equal(const sweep *w, const point *a, const point *b, int k)
{
	for (int i = 0; i < w->nk; i++)
		if (i != k && strcmp(a->val[i], b->val[i]) != 0)
			return false;
	return true;
}

/* Whether knob k's values x and y gave the very same battles wherever
 * the other knobs agree (common random numbers: the same dice). */
static bool same_battles(const sweep *w, int k, const char *x, const char *y)
{
	for (size_t p = 0; p < w->np; p++) {
		if (!w->pts[p].grid || strcmp(w->pts[p].val[k], x) != 0)
			continue;
		for (size_t q = 0; q < w->np; q++)
			if (w->pts[q].grid && strcmp(w->pts[q].val[k], y) == 0 &&
			    others_equal(w, &w->pts[p], &w->pts[q], k) && !same_sims(w->pts[p].sim, w->pts[q].sim))
				return false;
	}
	return true;
}

/* For knob k: each of its values' mean rates over the grid points with it
 * (the other knobs averaged over), and which of its values give the very
 * same battles. */
static void sense_knob(const sweep *w, int k, sens *out)
{
	*out = (sens){.knob = k};
	for (int o = 0; o < 3; o++) {
		out->lo[o] = 2;
		out->hi[o] = -1;
	}
	for (size_t p = 0; p < w->np; p++) {
		if (!w->pts[p].grid)
			continue;
		bool first_of_value = true;
		for (size_t q = 0; q < p && first_of_value; q++)
			first_of_value = !(w->pts[q].grid && strcmp(w->pts[q].val[k], w->pts[p].val[k]) == 0);
		if (!first_of_value)
			continue;
		if (out->nvals < 64)
			out->vals[out->nvals++] = w->pts[p].val[k];
		double sum[3] = {0};
		int n = 0;
		for (size_t q = p; q < w->np; q++)
			if (w->pts[q].grid && strcmp(w->pts[q].val[k], w->pts[p].val[k]) == 0) {
				for (int o = 0; o < 3; o++)
					sum[o] += outcome_rate(w->pts[q].sim, o);
				n++;
			}
		for (int o = 0; o < 3; o++) {
			double mean = sum[o] / n;
			out->lo[o] = mean < out->lo[o] ? mean : out->lo[o];
			out->hi[o] = mean > out->hi[o] ? mean : out->hi[o];
		}
	}
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
	const sens *a = x, *b = y;
	return a->score > b->score ? -1 : a->score < b->score ? 1 : a->knob - b->knob;
}

static void sensitivity(const sweep *w, sens *out)
{
	for (int k = 0; k < w->nk; k++)
		sense_knob(w, k, &out[k]);
	qsort(out, (size_t)w->nk, sizeof *out, by_score);
}

/* Why values gave the same battles: the same numbers read, or not. */
static const char *same_why(const sweep *w, const sens *e)
{
	int verdict = 1;
	for (int i = 0; i < e->nvals && verdict == 1; i++)
		if (e->cls[i] != i)
			verdict = same_reading(w, e->knob, e->vals[e->cls[i]], e->vals[i]);
	return verdict == 1 ? "the scenario reads the same for the battle at these values: it never reads this value" :
	       "the scenarios differ, the battles do not: a value past a table's cap (a melee CF already in the "
	       "CRT's last column), or a unit that never comes to fight";
}

static bool has_same(const sens *e)
{
	for (int i = 0; i < e->nvals; i++)
		if (e->cls[i] != i)
			return true;
	return false;
}

/* Each class of two or more values: "5, 7, 9"; false when there is none. */
static bool put_same(FILE *out, const sens *e, bool json)
{
	bool any = false;
	for (int c = 0; c < e->nvals; c++) {
		int n = 0;
		for (int i = 0; i < e->nvals; i++)
			n += e->cls[i] == c;
		if (n < 2 || e->cls[c] != c)
			continue;
		fputs(any ? (json ? ", [" : "; ") : (json ? "[" : ""), out);
		int put = 0;
		for (int i = 0; i < e->nvals; i++)
			if (e->cls[i] == c)
				fprintf(out, "%s%s", put++ ? ", " : "",
					json ? cli_jstr(e->vals[i]) : cli_tstr(e->vals[i]));
		if (json)
			fputc(']', out);
		any = true;
	}
	return any;
}

static const char *const NO_EFFECT_WHY =
	"every value gave the same battles (the same dice, the same winners, rounds and losses), so "
	"the value is never decisive here: a table's cap reached (a melee CF past the CRT's last column), a "
	"unit that never fights, or a value the battle does not read";

/* ---- printing ---- */

static int knob_width(const sweep *w, int k)
{
	size_t width = strlen(w->paths[k]);
	for (size_t p = 0; p < w->np; p++)
		if (strlen(w->pts[p].val[k]) > width)
			width = strlen(w->pts[p].val[k]);
	return width > 40 ? 40 : (int)width;
}

static void csv_field(FILE *out, const char *s)
{
	if (!strpbrk(s, ",\"\n\r")) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

static void put_num(FILE *out, double x)
{
	char a[40];
	fray_double_str(x, a, sizeof a);
	fputs(a, out);
}

static void print_header(FILE *out, const sweep *w, out_fmt fmt, const target *t, const char *partial)
{
	if (fmt == OUT_JSON) {
		fprintf(out, "{\"scenario\": %s, \"sides\": [%s, %s], \"policy\": %s, \"seed\": %" PRIu64
			", \"trials\": %" PRIu64 ", \"partial\": ", cli_jstr(w->m.scenario), cli_jstr(w->m.side[0]),
			cli_jstr(w->m.side[1]), cli_jstr(w->m.policy), w->m.seed, w->m.trials);
		fputs(partial ? cli_jstr(partial) : "false", out);
		fprintf(out, ", \"target\": %s, \"vary\": [", t->on ? cli_jstr(t->text) : "null");
		for (int k = 0; k < w->nk; k++)
			fprintf(out, "%s%s", k ? ", " : "", cli_jstr(w->paths[k]));
		fprintf(out, "], \"points\": [");
		return;
	}
	if (fmt == OUT_CSV) {
		fputs("point", out);
		for (int k = 0; k < w->nk; k++) {
			fputc(',', out);
			csv_field(out, w->paths[k]);
		}
		fputs(",baseline,side1_win,side1_lo,side1_hi,side2_win,side2_lo,side2_hi,draw,draw_lo,draw_hi,"
		      "losses1,losses2,counted", out);
		fputs(t->on ? ",target\n" : "\n", out);
		return;
	}
	fprintf(out, "%s%s: %" PRIu64 " battles a point (seed %" PRIu64 ", the same dice at every point; "
		"policy %s)\nside 1: %s; side 2: %s; wins with the half-width of their 95%% interval\n",
		partial ? "PARTIAL: " : "", cli_tstr(w->m.scenario), w->m.trials, w->m.seed, cli_tstr(w->m.policy),
		cli_tstr(w->m.side[0]), cli_tstr(w->m.side[1]));
	if (t->on)
		fprintf(out, "target %s: the points that meet it, closest first\n", cli_tstr(t->text));
	fprintf(out, "\n  %5s", "point");
	for (int k = 0; k < w->nk; k++)
		fprintf(out, "  %-*s", knob_width(w, k), cli_tstr(w->paths[k]));
	fprintf(out, "  %13s  %13s  %13s  %8s  %8s%s\n", "side 1 wins", "side 2 wins", "draws", "losses 1",
		"losses 2", t->on ? "    target" : "");
}

static void print_row(FILE *out, const sweep *w, size_t p, out_fmt fmt, const target *t, bool first)
{
	const point *pt = &w->pts[p];
	const fray_sim *sim = pt->sim;
	uint64_t n = fray_sim_trials(sim);
	if (fmt == OUT_JSON) {
		fprintf(out, "%s\n  {\"point\": %zu, \"values\": [", first ? "" : ",", p + 1);
		for (int k = 0; k < w->nk; k++)
			fprintf(out, "%s%s", k ? ", " : "", cli_jstr(pt->val[k]));
		fprintf(out, "], \"baseline\": %s, \"grid\": %s, \"counted\": %" PRIu64 ", \"wins\": [",
			pt->baseline ? "true" : "false", pt->grid ? "true" : "false", n);
		for (int o = 0; o < 2; o++) {
			fprintf(out, "%s", o ? ", " : "");
			sim_json_rate(out, outcome_count(sim, o), n);
		}
		fprintf(out, "], \"draw\": ");
		sim_json_rate(out, outcome_count(sim, 2), n);
		fprintf(out, ", \"mean_losses\": [");
		put_num(out, mean_losses(sim, 0));
		fputs(", ", out);
		put_num(out, mean_losses(sim, 1));
		fputc(']', out);
		if (t->on) {
			fputs(", \"target_value\": ", out);
			put_num(out, target_value(t, sim));
		}
		fputc('}', out);
		return;
	}
	if (fmt == OUT_CSV) {
		fprintf(out, "%zu", p + 1);
		for (int k = 0; k < w->nk; k++) {
			fputc(',', out);
			csv_field(out, pt->val[k]);
		}
		fprintf(out, ",%d", pt->baseline ? 1 : 0);
		for (int o = 0; o < 3; o++) {
			double lo, hi;
			fray_wilson95(outcome_count(sim, o), n, &lo, &hi);
			fputc(',', out);
			put_num(out, outcome_rate(sim, o));
			fputc(',', out);
			put_num(out, lo);
			fputc(',', out);
			put_num(out, hi);
		}
		for (int side = 0; side < 2; side++) {
			fputc(',', out);
			put_num(out, mean_losses(sim, side));
		}
		fprintf(out, ",%" PRIu64, n);
		if (t->on) {
			fputc(',', out);
			put_num(out, target_value(t, sim));
		}
		fputc('\n', out);
		return;
	}
	fprintf(out, "  %5zu", p + 1);
	for (int k = 0; k < w->nk; k++)
		fprintf(out, "  %-*s", knob_width(w, k), cli_tstr(pt->val[k]));
	for (int o = 0; o < 3; o++) {
		double lo, hi;
		fray_wilson95(outcome_count(sim, o), n, &lo, &hi);
		/* 13 columns wide: "100.00% ±0.12" ('±' is two bytes) */
		fprintf(out, "  %6.2f%% \u00b1%4.2f", 100 * outcome_rate(sim, o), 100 * (hi - lo) / 2);
	}
	fprintf(out, "  %8.2f  %8.2f", mean_losses(sim, 0), mean_losses(sim, 1));
	if (t->on)
		fprintf(out, "  %8.4f", target_value(t, sim));
	fputs(pt->baseline ? "  baseline\n" : "\n", out);
}

static void print_sensitivity(FILE *out, const sweep *w, out_fmt fmt)
{
	sens s[SWEEP_MAX_VARY];
	size_t grid = 0;
	for (size_t p = 0; p < w->np; p++)
		grid += w->pts[p].grid;
	int nk = grid ? w->nk : 0; /* none without points (an interrupted sweep) */
	if (nk)
		sensitivity(w, s);
	if (fmt == OUT_JSON) {
		fputs("],\n \"sensitivity\": [", out);
		for (int i = 0; i < nk; i++) {
			fprintf(out, "%s\n  {\"rank\": %d, \"knob\": %s, \"no_effect\": %s", i ? "," : "", i + 1,
				cli_jstr(w->paths[s[i].knob]), s[i].no_effect ? "true" : "false");
			static const char *const names[] = {"side1", "side2", "draw"};
			for (int o = 0; o < 3; o++) {
				fprintf(out, ", \"%s\": {\"lo\": ", names[o]);
				put_num(out, s[i].lo[o]);
				fputs(", \"hi\": ", out);
				put_num(out, s[i].hi[o]);
				fputc('}', out);
			}
			fputs(", \"same_battles\": [", out);
			put_same(out, &s[i], true);
			fputs("]}", out);
		}
		fputs("]}\n", out);
		return;
	}
	if (!nk)
		return;
	fprintf(out, "\nwhat moves the result: each knob's lowest and highest win rate over its values (each "
		"value's mean over the other knobs), the largest move first\n");
	for (int i = 0; i < w->nk; i++) {
		const sens *e = &s[i];
		fprintf(out, "  %d. %s: ", i + 1, cli_tstr(w->paths[e->knob]));
		if (e->no_effect) {
			fprintf(out, "changes nothing: %s\n", w->doc ? same_why(w, e) : NO_EFFECT_WHY);
			continue;
		}
		for (int o = 0; o < 3; o++)
			fprintf(out, "%s %.2f%% to %.2f%% (%.2f points)", o == 0 ? "side 1" : o == 1 ? "; side 2" :
				"; draws", 100 * e->lo[o], 100 * e->hi[o], 100 * (e->hi[o] - e->lo[o]));
		fputc('\n', out);
		if (has_same(e)) {
			fputs("     the same battles (same dice, winners, rounds and losses) at ", out);
			put_same(out, e, false);
			fprintf(out, ": %s\n", w->doc ? same_why(w, e) : "past a table's cap, or a change the battle "
				"never comes to");
		}
	}
}

/* The whole output: rows (those meeting the target, closest first), then
 * the sensitivity (text and JSON). */
static int sweep_print(FILE *out, const sweep *w, out_fmt fmt, const target *t, const char *partial)
{
	size_t *order = malloc((w->np ? w->np : 1) * sizeof *order), n = 0;
	if (!order)
		return cli_error("adbg sweep", EXIT_RUNTIME, "out of memory");
	for (size_t p = 0; p < w->np; p++)
		if (!t->on || target_met(t, target_value(t, w->pts[p].sim)))
			order[n++] = p;
	if (t->on) {
		sort_target = t;
		sort_points = w->pts;
		qsort(order, n, sizeof *order, by_closeness);
	}
	print_header(out, w, fmt, t, partial);
	for (size_t i = 0; i < n; i++)
		print_row(out, w, order[i], fmt, t, i == 0);
	if (t->on && n == 0 && fmt == OUT_TEXT)
		fprintf(out, "  (no point meets the target)\n");
	if (fmt != OUT_CSV)
		print_sensitivity(out, w, fmt);
	free(order);
	return EXIT_OK;
}

/* ---- shards of a sweep ---- */

static void put_counts(FILE *f, const fray_sim *s)
{
	for (size_t fl = 0; fl < FRAY_ADBG_SIM_FIELDS; fl++) {
		fprintf(f, "%s\n   [", fl ? "," : "");
		bool any = false;
		for (int v = 0; v <= FRAY_SIM_MAX_VALUE; v++)
			if (fray_sim_count(s, fl, v)) {
				fprintf(f, "%s[%d, %" PRIu64 "]", any ? ", " : "", v, fray_sim_count(s, fl, v));
				any = true;
			}
		fputc(']', f);
	}
}

static int write_sweep_shard(const char *cmd, const char *path, const sweep *w, bool by_trials, uint64_t first,
			     uint64_t last, size_t lo, size_t hi)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (!f)
		return cli_error(cmd, EXIT_RUNTIME, "out of memory");
	fprintf(f, "{\"fray_shard\": %d, \"kind\": \"adbg.sweep\", \"scenario\": %s,\n"
		" \"scenario_fnv1a\": \"%016" PRIx64 "\", \"sides\": [%s, %s], \"policy\": %s,\n"
		" \"seed\": \"%" PRIu64 "\", \"trials\": %" PRIu64 ", \"shard\": %" PRIu64 ", \"of\": %" PRIu64
		", \"split\": \"%s\", \"first\": %" PRIu64 ", \"last\": %" PRIu64 ",\n \"vary\": [",
		SHARD_VERSION, cli_jstr(w->m.scenario), w->m.digest, cli_jstr(w->m.side[0]), cli_jstr(w->m.side[1]),
		cli_jstr(w->m.policy), w->m.seed, w->m.trials, w->m.shard, w->m.nshards,
		by_trials ? "trials" : "points", first, last);
	for (int k = 0; k < w->nk; k++)
		fprintf(f, "%s%s", k ? ", " : "", cli_jstr(w->paths[k]));
	fprintf(f, "], \"npoints\": %zu, \"points\": [", w->np);
	for (size_t p = lo; p < hi; p++) {
		const point *pt = &w->pts[p];
		fprintf(f, "%s\n  {\"point\": %zu, \"values\": [", p > lo ? "," : "", p + 1);
		for (int k = 0; k < w->nk; k++)
			fprintf(f, "%s%s", k ? ", " : "", cli_jstr(pt->val[k]));
		fprintf(f, "], \"baseline\": %s, \"grid\": %s, \"counted\": %" PRIu64 ", \"counts\": [",
			pt->baseline ? "true" : "false", pt->grid ? "true" : "false", fray_sim_trials(pt->sim));
		put_counts(f, pt->sim);
		fputs("]}", f);
	}
	fputs("]}\n", f);
	int status = EXIT_OK;
	if (fclose(f) != 0)
		status = cli_error(cmd, EXIT_RUNTIME, "out of memory");
	else if (!path)
		fwrite(text, 1, len, stdout);
	else if (!cli_write_atomic(path, text, len))
		status = cli_error(cmd, EXIT_RUNTIME, "cannot write %s: %s", path, strerror(errno));
	free(text);
	return status;
}

/* fray merge of sweep shards: each point's counts added, then printed as
 * one run of the whole sweep prints them. */
int adbg_sweep_merge(int nfiles, char **files, bool json, bool csv)
{
	const char *cmd = "merge";
	fray_ctx *ctx = fray_ctx_new(NULL, NULL);
	sweep_shard first = {0}, one = {0};
	sweep w = {0};
	bool *seen = NULL;
	int status = EXIT_OK, merged = 0;
	bool partial = false;
	if (!ctx)
		return cli_error(cmd, EXIT_RUNTIME, "out of memory");
	for (int i = 0; i < nfiles && status == EXIT_OK; i++) {
		fray_doc *doc = NULL;
		if (fray_doc_load_file(ctx, files[i], &doc) != FRAY_OK) {
			status = cli_fail(cmd, ctx);
			break;
		}
		sweep_shard *sh = merged == 0 ? &first : &one;
		if (sh == &one)
			sweep_shard_free(&one);
		bool ok = sweep_shard_read(doc, sh);
		for (size_t e = 0; e < fray_doc_error_count(doc); e++)
			cli_error(cmd, EXIT_BAD_INPUT, "%s", fray_doc_error_msg(doc, e));
		fray_doc_free(doc);
		if (!ok) {
			status = EXIT_BAD_INPUT;
			break;
		}
		if (merged == 0) {
			w.m = first.m;
			w.nk = first.nvary;
			for (int k = 0; k < w.nk; k++)
				w.paths[k] = first.vary[k];
			w.np = first.npoints;
			w.pts = calloc(w.np, sizeof *w.pts);
			seen = calloc(first.m.nshards, sizeof *seen);
			if (!w.pts || !seen) {
				status = cli_error(cmd, EXIT_RUNTIME, "out of memory");
				break;
			}
		} else {
			bool same = shard_same_run(&first.m, &one.m) && first.by_trials == one.by_trials &&
				    first.npoints == one.npoints && first.nvary == one.nvary;
			for (int k = 0; same && k < first.nvary; k++)
				same = strcmp(first.vary[k], one.vary[k]) == 0;
			if (!same) {
				status = cli_error(cmd, EXIT_BAD_INPUT, "%s: not a shard of the same sweep as %s "
						   "(scenario, seed, trials, policy, knobs, split and number of shards "
						   "must agree)", files[i], files[0]);
				break;
			}
		}
		if (seen[sh->m.shard - 1]) {
			status = cli_error(cmd, EXIT_BAD_INPUT, "%s: shard %" PRIu64 " of %" PRIu64 " given twice",
					   files[i], sh->m.shard, sh->m.nshards);
			break;
		}
		seen[sh->m.shard - 1] = true;
		for (size_t p = 0; p < sh->n && status == EXIT_OK; p++) {
			sweep_shard_point *sp = &sh->points[p];
			point *pt = &w.pts[sp->index];
			partial |= fray_sim_trials(sp->sim) < sh->last - sh->first;
			if (!pt->sim) {
				if (!(pt->sim = fray_sim_new(FRAY_ADBG_SIM_FIELDS))) {
					status = cli_error(cmd, EXIT_RUNTIME, "out of memory");
					break;
				}
				/* the values live in the shard first read, or are copied */
				for (int k = 0; k < w.nk; k++)
					pt->val[k] = sh == &first ? sp->values[k] : NULL;
				pt->baseline = sp->baseline;
				pt->grid = sp->grid;
			}
			fray_sim_add(pt->sim, sp->sim);
			if (sh == &one)
				for (int k = 0; k < w.nk; k++)
					if (!pt->val[k] && !(pt->val[k] = strdup(sp->values[k])))
						status = cli_error(cmd, EXIT_RUNTIME, "out of memory");
		}
		merged++;
	}
	/* values copied from later shards are freed by address below */
	if (status == EXIT_OK) {
		char why[160] = "";
		size_t missing = 0;
		for (size_t p = 0; p < w.np; p++)
			missing += w.pts[p].sim == NULL;
		if ((uint64_t)merged < first.m.nshards)
			snprintf(why, sizeof why, "%d of %" PRIu64 " shards merged", merged, first.m.nshards);
		else if (partial)
			snprintf(why, sizeof why, "a shard was stopped early");
		if (missing) {
			/* a sweep split by points prints the points it has */
			size_t k = 0;
			for (size_t p = 0; p < w.np; p++)
				if (w.pts[p].sim)
					w.pts[k++] = w.pts[p];
			w.np = k;
		}
		target none = {0};
		w.m.shard = w.m.nshards = 1;
		sweep_print(stdout, &w, json ? OUT_JSON : csv ? OUT_CSV : OUT_TEXT, &none, why[0] ? why : NULL);
		if (why[0])
			status = cli_error(cmd, EXIT_RUNTIME, "the result is partial: %s", why);
	}
	for (size_t p = 0; p < w.np; p++) {
		for (int k = 0; k < w.nk; k++) {
			bool in_first = false;
			for (size_t q = 0; q < first.n && !in_first; q++)
				in_first = w.pts[p].val[k] == first.points[q].values[k];
			if (!in_first)
				free((char *)w.pts[p].val[k]);
		}
		fray_sim_free(w.pts[p].sim);
	}
	free(w.pts);
	free(seen);
	sweep_shard_free(&first);
	sweep_shard_free(&one);
	fray_ctx_free(ctx);
	return status;
}

/* ---- fray adbg sweep ---- */

static bool parse_shard_arg(const char *s, uint64_t *i, uint64_t *n)
{
	char *end;
	errno = 0;
	unsigned long long a = strtoull(s, &end, 10);
	if (end == s || *end != '/' || errno || s[0] == '-')
		return false;
	const char *t = end + 1;
	unsigned long long b = strtoull(t, &end, 10);
	if (end == t || *end || errno || b < 1 || b > 1000000 || a < 1 || a > b || t[0] == '-')
		return false;
	*i = a;
	*n = b;
	return true;
}

typedef struct opts {
	const char *path, *policy, *pol_a, *pol_b, *target, *shard, *output, *split;
	const char *write_point, *write_file;
	uint64_t trials, seed, threads, max_points;
	out_fmt fmt;
	bool quiet;
	knob knobs[SWEEP_MAX_VARY];
	int nk;
	scen_sets sets;
} opts;

static int parse_args(cli_args *a, opts *o, bool *help)
{
	static const char *const known[] = {"--vary", "--set", "--trials", "--seed", "--threads", "--policy",
					    "--policy-a", "--policy-b", "--quiet", "--json", "--csv", "--target",
					    "--max-points", "--write", "--shard", "--split", "--output", "--help"};
	const char *v;
	const char *vary_text[SWEEP_MAX_VARY];
	int nvary = 0;
	while (a->i < a->argc && a->status == EXIT_OK) {
		char *arg = a->argv[a->i];
		if (cli_is_help(arg)) {
			*help = true;
			return EXIT_OK;
		}
		if (strcmp(arg, "--write") == 0) {
			if (o->write_point)
				return cli_error(a->cmd, EXIT_BAD_INPUT, "option --write given twice");
			if (a->i + 2 >= a->argc)
				return cli_error(a->cmd, EXIT_BAD_INPUT, "option --write expects POINT FILE (a point's "
						 "number as the sweep prints it, and the scenario file to write)");
			o->write_point = a->argv[a->i + 1];
			o->write_file = a->argv[a->i + 2];
			a->i += 3;
		} else if (scen_take_set(a, &o->sets)) {
			;
		} else if (cli_flag(a, "--quiet")) {
			o->quiet = true;
		} else if (cli_flag(a, "--json")) {
			o->fmt = OUT_JSON;
		} else if (cli_flag(a, "--csv")) {
			o->fmt = OUT_CSV;
		} else if (cli_value(a, "--vary", &v)) {
			if (a->status != EXIT_OK)
				break;
			if (nvary == SWEEP_MAX_VARY)
				return cli_error(a->cmd, EXIT_BAD_INPUT, "at most %d --vary options", SWEEP_MAX_VARY);
			vary_text[nvary++] = v;
		} else if (cli_value(a, "--policy", &o->policy) || cli_value(a, "--policy-a", &o->pol_a) ||
			   cli_value(a, "--policy-b", &o->pol_b) || cli_value(a, "--target", &o->target) ||
			   cli_value(a, "--shard", &o->shard) || cli_value(a, "--output", &o->output) ||
			   cli_value(a, "--split", &o->split)) {
			;
		} else if (!cli_u64(a, "--trials", 1, FRAY_SIM_MAX_TRIALS, &o->trials) &&
			   !cli_u64(a, "--seed", 0, UINT64_MAX, &o->seed) &&
			   !cli_u64(a, "--threads", 0, FRAY_AGGREGATE_MAX_THREADS, &o->threads) &&
			   !cli_u64(a, "--max-points", 1, HARD_MAX_POINTS, &o->max_points)) {
			if (o->path || cli_is_option(arg))
				return cli_unknown(a, known, sizeof known / sizeof known[0]);
			o->path = a->argv[a->i++];
		}
	}
	if (a->status != EXIT_OK)
		return a->status;
	/* the values after every option is read: --max-points bounds them */
	for (int i = 0; i < nvary; i++) {
		int st = parse_vary(a->cmd, vary_text[i], (int)o->max_points, &o->knobs[o->nk++]);
		if (st != EXIT_OK)
			return st;
		/* one path varied twice would label the rows with one of its
		 * values while the scenario took the other */
		for (int k = 0; k < o->nk - 1; k++)
			if (strcmp(o->knobs[k].path, o->knobs[o->nk - 1].path) == 0)
				return cli_error(a->cmd, EXIT_BAD_INPUT, "option --vary: %s is varied twice; give all "
						 "its values in one --vary", o->knobs[k].path);
		for (int k = 0; k < o->sets.n; k++)
			if (strcmp(o->sets.ed[k].path, o->knobs[o->nk - 1].path) == 0)
				return cli_error(a->cmd, EXIT_BAD_INPUT, "option --set %s: the path is also varied "
						 "(--vary)", o->sets.ed[k].path);
	}
	if (!o->path)
		return cli_error(a->cmd, EXIT_BAD_INPUT, "expected a scenario file (see examples/adbg/)");
	if (o->nk == 0)
		return cli_error(a->cmd, EXIT_BAD_INPUT, "expected --vary PATH=V1,V2,... (for example --vary "
				 "sides.kentucky.level=1..4)");
	if (o->split && strcmp(o->split, "points") != 0 && strcmp(o->split, "trials") != 0)
		return cli_error(a->cmd, EXIT_BAD_INPUT, "option --split expects points or trials, got '%s'", o->split);
	if ((o->split || o->output) && !o->shard)
		return cli_error(a->cmd, EXIT_BAD_INPUT, "--split and --output are for a shard (--shard I/N)");
	return EXIT_OK;
}

/* The grid's points (the baseline first when it is not one of them), with
 * the budget on their number; the exit status. */
static int make_points(const char *cmd, const opts *o, sweep *w)
{
	uint64_t grid = 1;
	for (int k = 0; k < o->nk; k++)
		if ((grid *= (uint64_t)o->knobs[k].nvalues) > o->max_points) {
			uint64_t all = 1;
			for (int j = 0; j < o->nk; j++)
				all *= (uint64_t)o->knobs[j].nvalues;
			return cli_error(cmd, EXIT_BAD_INPUT, "option --vary: the grid has %" PRIu64 " points, more "
					 "than the %" PRIu64 " allowed (--max-points, at most %d)", all, o->max_points,
					 HARD_MAX_POINTS);
		}
	bool base_in_grid = true;
	for (int k = 0; k < o->nk; k++) {
		bool found = false;
		for (int i = 0; i < o->knobs[k].nvalues && !found; i++)
			found = same_value(o->knobs[k].values[i], o->knobs[k].base);
		base_in_grid &= found;
	}
	w->np = (size_t)grid + !base_in_grid;
	if (!(w->pts = calloc(w->np, sizeof *w->pts)))
		return cli_error(cmd, EXIT_RUNTIME, "out of memory");
	size_t p = 0;
	if (!base_in_grid) {
		for (int k = 0; k < o->nk; k++)
			w->pts[0].val[k] = o->knobs[k].base;
		w->pts[0].baseline = true;
		p = 1;
	}
	for (uint64_t g = 0; g < grid; g++, p++) {
		point *pt = &w->pts[p];
		pt->grid = true;
		pt->baseline = base_in_grid;
		for (int k = o->nk - 1, r = (int)g; k >= 0; r /= o->knobs[k].nvalues, k--) {
			pt->val[k] = o->knobs[k].values[r % o->knobs[k].nvalues];
			pt->baseline &= same_value(pt->val[k], o->knobs[k].base);
		}
	}
	for (int k = 0; k < o->nk; k++)
		w->paths[k] = o->knobs[k].path;
	w->nk = o->nk;
	return EXIT_OK;
}

/* The --set edits and the point's values, as edits of the file. */
static int point_edits(const opts *o, const point *pt, scen_edit *ed)
{
	int n = 0;
	for (int i = 0; i < o->sets.n; i++)
		ed[n++] = o->sets.ed[i];
	for (int k = 0; k < o->nk; k++)
		ed[n++] = (scen_edit){o->knobs[k].path, pt->val[k]};
	return n;
}

static int same_reading(const sweep *w, int k, const char *x, const char *y)
{
	const point *first = NULL;
	for (size_t p = 0; p < w->np && !first; p++)
		if (w->pts[p].grid)
			first = &w->pts[p];
	if (!w->doc || !first)
		return -1;
	point px = *first, py = *first;
	px.val[k] = x;
	py.val[k] = y;
	scen_edit ed[SCEN_MAX_SETS + SWEEP_MAX_VARY];
	fray_adbg_scenario *a = NULL, *b = NULL;
	int verdict = -1;
	/* read quietly: every point was read once already */
	if (scen_read_edited("adbg sweep", w->ctx, w->doc, "--vary", ed, point_edits(w->o, &px, ed), &a) == EXIT_OK &&
	    scen_read_edited("adbg sweep", w->ctx, w->doc, "--vary", ed, point_edits(w->o, &py, ed), &b) == EXIT_OK)
		verdict = fray_adbg_scenario_same_battle(a, b);
	fray_adbg_scenario_free(a);
	fray_adbg_scenario_free(b);
	return verdict;
}

/* The scenario's own value of each knob (after --set), for the baseline. */
static int read_bases(const char *cmd, fray_ctx *ctx, fray_doc *doc, opts *o, fray_adbg_scenario **s)
{
	int status = scen_read_edited(cmd, ctx, doc, "--set", o->sets.ed, o->sets.n, s);
	for (int k = 0; k < o->nk && status == EXIT_OK; k++) {
		const char *base = strcmp(o->knobs[k].path, SCEN_UNITS_PATH) == 0 ? "none" : NULL;
		if (!base) {
			char why[256];
			const fray_node *n = scen_find_path(fray_doc_root(doc), o->knobs[k].path, why, sizeof why);
			if (!n)
				return cli_error(cmd, EXIT_BAD_INPUT, "option --vary %s: %s: %s", o->knobs[k].path,
						 fray_doc_name(doc), why);
			base = fray_node_scalar(n);
		}
		if (!(o->knobs[k].base = strdup(base)))
			return cli_error(cmd, EXIT_RUNTIME, "out of memory");
	}
	return status;
}

/* Whether two files are in the same folder (a relative CRT path written
 * into the new file still finds the CRT then). */
static bool same_folder(const char *a, const char *b)
{
	char da[PATH_MAX], db[PATH_MAX], ra[PATH_MAX], rb[PATH_MAX];
	const char *sa = strrchr(a, '/'), *sb = strrchr(b, '/');
	snprintf(da, sizeof da, "%.*s", sa ? (int)(sa - a) + (sa == a) : 1, sa ? a : ".");
	snprintf(db, sizeof db, "%.*s", sb ? (int)(sb - b) + (sb == b) : 1, sb ? b : ".");
	return realpath(da, ra) && realpath(db, rb) && strcmp(ra, rb) == 0;
}

static int write_point(const char *cmd, fray_ctx *ctx, fray_doc *doc, const opts *o, const sweep *w)
{
	char *end;
	errno = 0;
	unsigned long long n = strtoull(o->write_point, &end, 10);
	if (end == o->write_point || *end || errno || n < 1 || n > w->np)
		return cli_error(cmd, EXIT_BAD_INPUT, "option --write: expected a point's number from 1 to %zu "
				 "(the sweep's 'point' column), got '%s'", w->np, o->write_point);
	/* never over the scenario (or its CRT): a rename would lose it */
	int status = cli_output_check(cmd, ctx, o->write_file, "--write", NULL);
	if (status != EXIT_OK)
		return status;
	char src[PATH_MAX], dst[PATH_MAX];
	if (realpath(o->path, src) && realpath(o->write_file, dst) && strcmp(src, dst) == 0)
		return cli_error(cmd, EXIT_BAD_INPUT, "option --write: %s is the scenario the sweep reads; "
				 "write the point to another file", o->write_file);
	scen_edit ed[SCEN_MAX_SETS + SWEEP_MAX_VARY];
	const point *pt = &w->pts[n - 1];
	int ned = point_edits(o, pt, ed);
	char header[2048];
	textbuf t = text_on(header, sizeof header);
	text_add(&t, "# written by fray adbg sweep --write from %s, point %llu:", o->path, n);
	for (int k = 0; k < ned; k++)
		text_add(&t, " %s=%s", ed[k].path, ed[k].value);
	text_add(&t, "\n");
	for (char *c = header; *c; c++)
		if (*c == '\n' && c[1])
			*c = ' '; /* one comment line, whatever the values hold */
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (!f)
		return cli_error(cmd, EXIT_RUNTIME, "out of memory");
	status = scen_write_text(cmd, ctx, doc, ed, ned, header, !same_folder(o->path, o->write_file), f);
	if (fclose(f) != 0 && status == EXIT_OK)
		status = cli_error(cmd, EXIT_RUNTIME, "out of memory");
	if (status == EXIT_OK && !cli_write_atomic(o->write_file, text, len))
		status = cli_error(cmd, EXIT_RUNTIME, "cannot write %s: %s", o->write_file, strerror(errno));
	if (status == EXIT_OK)
		printf("point %llu written to %s\n", n, o->write_file);
	free(text);
	return status;
}

int adbg_sweep(int argc, char **argv)
{
	static const char *const repeatable[] = {"--vary", "--set", NULL};
	cli_args a = {.cmd = "adbg sweep", .argc = argc, .argv = argv, .repeatable = repeatable};
	opts o = {.policy = "heuristic", .trials = 10000, .seed = 1, .max_points = DEFAULT_MAX_POINTS};
	bool help = false;
	int status = parse_args(&a, &o, &help);
	sweep w = {.m = {.seed = o.seed, .trials = o.trials, .shard = 1, .nshards = 1}};
	fray_ctx *ctx = NULL;
	fray_doc *doc = NULL;
	fray_policy *pol = NULL;
	fray_adbg_scenario *s = NULL;
	if (help) {
		status = cli_help_topic(stdout, "adbg sweep") ? EXIT_OK : EXIT_RUNTIME;
		goto done;
	}
	w.m.seed = o.seed;
	w.m.trials = o.trials;
	bool by_trials = o.split && strcmp(o.split, "trials") == 0;
	if (status == EXIT_OK && o.shard && !parse_shard_arg(o.shard, &w.m.shard, &w.m.nshards))
		status = cli_error(a.cmd, EXIT_BAD_INPUT, "option --shard expects I/N with 1 <= I <= N <= 1000000, "
				   "got '%s'", o.shard);
	if (status == EXIT_OK && !(ctx = fray_ctx_new(NULL, NULL)))
		status = cli_error(a.cmd, EXIT_RUNTIME, "out of memory");
	if (status == EXIT_OK && fray_doc_load_file(ctx, o.path, &doc) != FRAY_OK)
		status = cli_fail(a.cmd, ctx);
	if (status == EXIT_OK)
		status = read_bases(a.cmd, ctx, doc, &o, &s);
	if (status == EXIT_OK) {
		snprintf(w.m.scenario, sizeof w.m.scenario, "%s", fray_adbg_scenario_name(s));
		for (int side = 0; side < 2; side++)
			snprintf(w.m.side[side], sizeof w.m.side[side], "%s", fray_adbg_side_name(s, side));
		const fray_node *sides = fray_map_get(fray_doc_root(doc), "sides");
		for (int side = 0; side < 2; side++)
			snprintf(w.side_id[side], sizeof w.side_id[side], "%s",
				 fray_node_scalar(fray_node_key(sides, (size_t)side)) ?
				 fray_node_scalar(fray_node_key(sides, (size_t)side)) : "");
		w.m.digest = scen_edits_digest(fray_adbg_scenario_digest(s), o.sets.ed, o.sets.n);
		fray_adbg_scenario_free(s);
		s = NULL;
		status = make_points(a.cmd, &o, &w);
	}
	target tg = {0};
	if (status == EXIT_OK && o.target)
		status = parse_target(a.cmd, &w, o.target, &tg);
	if (status == EXIT_OK && o.output)
		status = cli_output_check(a.cmd, ctx, o.output, "--output", NULL);
	/* every point is read before any is fought: a bad value is told at once */
	scen_edit ed[SCEN_MAX_SETS + SWEEP_MAX_VARY];
	for (size_t p = 0; p < w.np && status == EXIT_OK; p++) {
		status = scen_read_edited(a.cmd, ctx, doc, "--vary", ed, point_edits(&o, &w.pts[p], ed), &s);
		fray_adbg_scenario_free(s);
		s = NULL;
	}
	if (status == EXIT_OK && o.write_point) {
		status = write_point(a.cmd, ctx, doc, &o, &w);
		goto done;
	}
	char policy_name[128];
	if (status == EXIT_OK)
		status = cli_make_side_policies(a.cmd, ctx, o.policy, o.pol_a, o.pol_b, &pol, policy_name,
						sizeof policy_name, o.shard ? &w.m.digest : NULL);
	if (status != EXIT_OK)
		goto done;
	snprintf(w.m.policy, sizeof w.m.policy, "%s", policy_name);
	/* a shard: its points (split by points) or its slice of every point's trials */
	size_t lo = 0, hi = w.np;
	uint64_t first = 0, last = o.trials;
	if (o.shard && by_trials) {
		first = sim_slice(o.trials, w.m.shard - 1, w.m.nshards);
		last = sim_slice(o.trials, w.m.shard, w.m.nshards);
	} else if (o.shard) {
		lo = (size_t)sweep_point_slice((uint64_t)w.np, w.m.shard - 1, w.m.nshards);
		hi = (size_t)sweep_point_slice((uint64_t)w.np, w.m.shard, w.m.nshards);
	}
	bool show = !o.quiet && isatty(2);
	cli_catch_stop();
	for (size_t p = lo; p < hi && status == EXIT_OK && !cli_stop_signal; p++) {
		if ((status = scen_read_edited(a.cmd, ctx, doc, "--vary", ed, point_edits(&o, &w.pts[p], ed), &s)) !=
		    EXIT_OK)
			break;
		if (show)
			fprintf(stderr, "\rpoint %zu of %zu ", p + 1 - lo, hi - lo);
		if (!(w.pts[p].sim = fray_sim_new(FRAY_ADBG_SIM_FIELDS))) {
			status = cli_error(a.cmd, EXIT_RUNTIME, "out of memory");
			break;
		}
		fray_sim_run run = {.proc = fray_adbg_battle_stats_procedure, .policy = pol, .input = s,
				    .nfields = FRAY_ADBG_SIM_FIELDS, .seed = o.seed, .first = first, .last = last,
				    .threads = fray_policy_thread_safe(pol) ? (unsigned)o.threads : 1,
				    .stop = &cli_stop_signal};
		if (fray_simulate(ctx, &run, w.pts[p].sim) != FRAY_OK)
			status = cli_fail(a.cmd, ctx);
		fray_adbg_scenario_free(s);
		s = NULL;
	}
	cli_release_stop();
	if (show)
		fprintf(stderr, "\r%*s\r", 30, "");
	if (status == EXIT_OK && cli_stop_signal) {
		/* the points done in full are printed; a shard is not written */
		size_t done_points = 0;
		for (size_t p = lo; p < hi; p++)
			if (w.pts[p].sim && fray_sim_trials(w.pts[p].sim) == last - first)
				w.pts[lo + done_points++] = w.pts[p];
			else
				fray_sim_free(w.pts[p].sim);
		for (size_t p = lo + done_points; p < hi; p++)
			w.pts[p].sim = NULL;
		if (!o.shard) {
			w.np = done_points;
			sweep_print(stdout, &w, o.fmt, &tg, "interrupted");
		}
		status = cli_error(a.cmd, cli_stop_status(), "interrupted: %zu of %zu points done%s", done_points,
				   hi - lo, o.shard ? "; the shard is not written" : " (each printed in full)");
	} else if (status == EXIT_OK && o.shard) {
		status = write_sweep_shard(a.cmd, o.output, &w, by_trials, first, last, lo, hi);
	} else if (status == EXIT_OK) {
		w.ctx = ctx;
		w.doc = doc;
		w.o = &o;
		status = sweep_print(stdout, &w, o.fmt, &tg, NULL);
	}
done:
	if (w.pts)
		for (size_t p = 0; p < w.np; p++)
			fray_sim_free(w.pts[p].sim);
	free(w.pts);
	for (int k = 0; k < o.nk; k++)
		knob_free(&o.knobs[k]);
	scen_sets_free(&o.sets);
	fray_adbg_scenario_free(s);
	fray_doc_free(doc);
	fray_policy_free(pol);
	fray_ctx_free(ctx);
	return status;
}
