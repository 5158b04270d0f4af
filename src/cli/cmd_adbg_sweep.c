/* fray adbg sweep SCENARIO --vary PATH=VALUES...: the quick battle (ADBG
 * 19) simulated at every point of a grid of changed values, with the same
 * dice at every point (common random numbers), for a designer balancing a
 * scenario: ranges of values, the scenario's own values marked as the
 * baseline, a target to filter and sort the points by, which knobs move
 * the result (sensitivity), the points as text, CSV or JSON, a point saved
 * as a scenario file (--write), and shards for many machines (by points or
 * by trials) that fray merge adds back into exactly one run's output.
 * What a sweep decides is libfray's (include/fray/sweep.h, the edits in
 * include/fray/scenario_edit.h); here are the options, the files, the
 * progress and the printing. */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "../common/text.h"
#include "policy_cli.h"
#include "scenario_edit.h"
#include "sim_out.h"
#include <fray/sweep.h>

int adbg_sweep(int argc, char **argv);

enum { DEFAULT_MAX_POINTS = 1000 };


typedef fray_sweep_point point;
typedef fray_sweep_target target;
typedef fray_sweep_sens sens;

typedef struct opts {
	const char *path, *policy, *pol_a, *pol_b, *target, *shard, *output, *split;
	const char *write_point, *write_file;
	uint64_t trials, seed, threads, max_points;
	fray_format fmt;
	bool quiet;
	fray_sweep_knob knobs[FRAY_SWEEP_MAX_KNOBS];
	int nk;
	scen_sets sets;
} opts;

typedef struct sweep {
	fray_shard_meta m;
	char side_id[2][FRAY_ADBG_NAME_MAX]; /* for --target ("" after a merge) */
	fray_sweep g;            /* the knobs' paths and the points */
	/* where the scenarios can be read again (NULL after a merge): to tell
	 * a value the battle never reads from one past a table's cap */
	fray_ctx *ctx;
	fray_doc *doc;
	const struct opts *o;
} sweep;

/* ---- the sensitivity told ---- */

/* Why values gave the same battles: the same numbers read, or not. */
static const char *same_why(const sweep *w, const sens *e)
{
	fray_adbg_edit_read how = {.open = scen_open, .option = "--vary"};
	int verdict = fray_sweep_same_reading(w->ctx, w->doc, &how, w->o->sets.ed, w->o->sets.n, &w->g, e);
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
static bool put_same(FILE *out, const sens *e, fray_format form)
{
	bool any = false;
	for (int c = 0; c < e->nvals; c++) {
		int n = 0;
		for (int i = 0; i < e->nvals; i++)
			n += e->cls[i] == c;
		if (n < 2 || e->cls[c] != c)
			continue;
		fputs(any ? (form == FRAY_FORMAT_JSON ? ", [" : "; ") : (form == FRAY_FORMAT_JSON ? "[" : ""), out);
		int put = 0;
		for (int i = 0; i < e->nvals; i++)
			if (e->cls[i] == c)
				fprintf(out, "%s%s", put++ ? ", " : "",
					form == FRAY_FORMAT_JSON ? cli_jstr(e->vals[i]) : cli_tstr(e->vals[i]));
		if (form == FRAY_FORMAT_JSON)
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
	size_t width = strlen(w->g.paths[k]);
	for (size_t p = 0; p < w->g.np; p++)
		if (strlen(w->g.pts[p].val[k]) > width)
			width = strlen(w->g.pts[p].val[k]);
	return width > 40 ? 40 : (int)width;
}

/* Whether a text is a plain decimal number ("-3", "0.25"): a spreadsheet
 * reads it as a number, never as a formula, so it stays bare. */
static bool csv_number(const char *s)
{
	s += *s == '-';
	if (*s < '0' || *s > '9')
		return false;
	while (*s >= '0' && *s <= '9')
		s++;
	if (*s == '.') {
		if (s[1] < '0' || s[1] > '9')
			return false;
		for (s++; *s >= '0' && *s <= '9';)
			s++;
	}
	return *s == '\0';
}

/* A text cell (a knob's path or value: the scenario's, the command line's
 * or a shard's, never fray's own number). One a spreadsheet would run as a
 * formula (it starts with = + - @, a tab or a carriage return: OWASP's
 * rule) is written as text: a single quote before it, the cell quoted.
 * docs/simulate.md says so. Issue 41 case 4. */
static void csv_field(FILE *out, const char *s)
{
	bool formula = strchr("=+-@\t\r", s[0]) && s[0] && !csv_number(s);
	if (!formula && !strpbrk(s, ",\"\n\r")) {
		fputs(s, out);
		return;
	}
	fputs(formula ? "\"'" : "\"", out);
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

/* A rate with its 95% interval, written as every report writes one. */
static void put_rate(FILE *out, uint64_t k, uint64_t n, fray_rate_form form)
{
	char text[160];
	fray_rate_str(k, n, form, text, sizeof text);
	fputs(text, out);
}

static void print_header(FILE *out, const sweep *w, fray_format fmt, const target *t, const char *partial)
{
	if (fmt == FRAY_FORMAT_JSON) {
		fprintf(out, "{\"scenario\": %s, \"sides\": [%s, %s], \"policy\": %s, \"seed\": %" PRIu64
			", \"trials\": %" PRIu64 ", \"partial\": ", cli_jstr(w->m.scenario), cli_jstr(w->m.side[0]),
			cli_jstr(w->m.side[1]), cli_jstr(w->m.policy), w->m.seed, w->m.trials);
		fputs(partial ? cli_jstr(partial) : "false", out);
		fprintf(out, ", \"target\": %s, \"vary\": [", t->on ? cli_jstr(t->text) : "null");
		for (int k = 0; k < w->g.nk; k++)
			fprintf(out, "%s%s", k ? ", " : "", cli_jstr(w->g.paths[k]));
		fprintf(out, "], \"points\": [");
		return;
	}
	if (fmt == FRAY_FORMAT_CSV) {
		fputs("point", out);
		for (int k = 0; k < w->g.nk; k++) {
			fputc(',', out);
			csv_field(out, w->g.paths[k]);
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
	for (int k = 0; k < w->g.nk; k++)
		fprintf(out, "  %-*s", knob_width(w, k), cli_tstr(w->g.paths[k]));
	fprintf(out, "  %13s  %13s  %13s  %8s  %8s%s\n", "side 1 wins", "side 2 wins", "draws", "losses 1",
		"losses 2", t->on ? "    target" : "");
}

static void print_row(FILE *out, const sweep *w, size_t p, fray_format fmt, const target *t, bool first)
{
	const point *pt = &w->g.pts[p];
	const fray_sim *sim = pt->sim;
	uint64_t n = fray_sim_trials(sim);
	if (fmt == FRAY_FORMAT_JSON) {
		fprintf(out, "%s\n  {\"point\": %zu, \"values\": [", first ? "" : ",", p + 1);
		for (int k = 0; k < w->g.nk; k++)
			fprintf(out, "%s%s", k ? ", " : "", cli_jstr(pt->val[k]));
		fprintf(out, "], \"baseline\": %s, \"grid\": %s, \"counted\": %" PRIu64 ", \"wins\": [",
			pt->baseline ? "true" : "false", pt->grid ? "true" : "false", n);
		for (int o = 0; o < 2; o++) {
			fprintf(out, "%s", o ? ", " : "");
			put_rate(out, fray_sweep_count(sim, o), n, FRAY_RATE_JSON);
		}
		fprintf(out, "], \"draw\": ");
		put_rate(out, fray_sweep_count(sim, 2), n, FRAY_RATE_JSON);
		fprintf(out, ", \"mean_losses\": [");
		put_num(out, fray_sweep_mean_losses(sim, 0));
		fputs(", ", out);
		put_num(out, fray_sweep_mean_losses(sim, 1));
		fputc(']', out);
		if (t->on) {
			fputs(", \"target_value\": ", out);
			put_num(out, fray_sweep_target_value(t, sim));
		}
		fputc('}', out);
		return;
	}
	if (fmt == FRAY_FORMAT_CSV) {
		fprintf(out, "%zu", p + 1);
		for (int k = 0; k < w->g.nk; k++) {
			fputc(',', out);
			csv_field(out, pt->val[k]);
		}
		fprintf(out, ",%d", pt->baseline ? 1 : 0);
		for (int o = 0; o < 3; o++) {
			fputc(',', out);
			put_rate(out, fray_sweep_count(sim, o), n, FRAY_RATE_CSV);
		}
		for (int side = 0; side < 2; side++) {
			fputc(',', out);
			put_num(out, fray_sweep_mean_losses(sim, side));
		}
		fprintf(out, ",%" PRIu64, n);
		if (t->on) {
			fputc(',', out);
			put_num(out, fray_sweep_target_value(t, sim));
		}
		fputc('\n', out);
		return;
	}
	fprintf(out, "  %5zu", p + 1);
	for (int k = 0; k < w->g.nk; k++)
		fprintf(out, "  %-*s", knob_width(w, k), cli_tstr(pt->val[k]));
	for (int o = 0; o < 3; o++) {
		fputs("  ", out);
		put_rate(out, fray_sweep_count(sim, o), n, FRAY_RATE_PERCENT);
	}
	fprintf(out, "  %8.2f  %8.2f", fray_sweep_mean_losses(sim, 0), fray_sweep_mean_losses(sim, 1));
	if (t->on)
		fprintf(out, "  %8.4f", fray_sweep_target_value(t, sim));
	fputs(pt->baseline ? "  baseline\n" : "\n", out);
}

static void print_sensitivity(FILE *out, const sweep *w, fray_format fmt)
{
	sens s[FRAY_SWEEP_MAX_KNOBS];
	size_t grid = 0;
	for (size_t p = 0; p < w->g.np; p++)
		grid += w->g.pts[p].grid;
	int nk = grid ? w->g.nk : 0; /* none without points (an interrupted sweep) */
	if (nk)
		fray_sweep_sensitivity(&w->g, s);
	if (fmt == FRAY_FORMAT_JSON) {
		fputs("],\n \"sensitivity\": [", out);
		for (int i = 0; i < nk; i++) {
			fprintf(out, "%s\n  {\"rank\": %d, \"knob\": %s, \"no_effect\": %s", i ? "," : "", i + 1,
				cli_jstr(w->g.paths[s[i].knob]), s[i].no_effect ? "true" : "false");
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
	for (int i = 0; i < w->g.nk; i++) {
		const sens *e = &s[i];
		fprintf(out, "  %d. %s: ", i + 1, cli_tstr(w->g.paths[e->knob]));
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
static int sweep_print(FILE *out, fray_ctx *ctx, const sweep *w, fray_format fmt, const target *t, const char *partial)
{
	size_t *order = malloc((w->g.np ? w->g.np : 1) * sizeof *order);
	size_t n = order ? fray_sweep_order(ctx, &w->g, t, order) : (size_t)-1;
	if (n == (size_t)-1) {
		free(order);
		return cli_error("adbg sweep", EXIT_RUNTIME, "out of memory");
	}
	print_header(out, w, fmt, t, partial);
	for (size_t i = 0; i < n; i++)
		print_row(out, w, order[i], fmt, t, i == 0);
	if (t->on && n == 0 && fmt == FRAY_FORMAT_TEXT)
		fprintf(out, "  (no point meets the target)\n");
	if (fmt != FRAY_FORMAT_CSV)
		print_sensitivity(out, w, fmt);
	free(order);
	return EXIT_OK;
}

/* ---- shards of a sweep ---- */

static int write_sweep_shard(const char *cmd, const char *path, const sweep *w, bool by_trials, uint64_t first,
			     uint64_t last, size_t lo, size_t hi)
{
	char *text = NULL;
	size_t len = 0;
	if (fray_sweep_shard_text(&w->m, &w->g, by_trials, first, last, lo, hi, &text, &len) != FRAY_OK)
		return cli_error(cmd, EXIT_RUNTIME, "out of memory");
	int status = EXIT_OK;
	if (!path)
		fwrite(text, 1, len, stdout);
	else if (!cli_write_atomic(path, text, len))
		status = cli_error(cmd, EXIT_RUNTIME, "cannot write %s: %s", path, strerror(errno));
	free(text);
	return status;
}

/* fray merge of sweep shards: each point's counts added as its line is
 * read (shard_lines.c), then printed as one run of the whole sweep prints
 * them. */
int adbg_sweep_merge(int nfiles, char **files, fray_format form)
{
	const char *cmd = "merge";
	fray_ctx *ctx = fray_ctx_new(NULL, NULL);
	if (!ctx)
		return cli_error(cmd, EXIT_RUNTIME, "out of memory");
	fray_sweep_shard one = {0};
	fray_sweep_merge mg = {.ctx = ctx};
	int status = EXIT_OK;
	for (int i = 0; i < nfiles && status == EXIT_OK; i++) {
		/* a line at a time: a shard of any number of points */
		fray_merge_verdict verdict;
		if ((status = shard_lines_merge(cmd, ctx, files[i], &mg, &one, &verdict)) != EXIT_OK)
			break;
		switch (verdict) {
		case FRAY_MERGE_ADDED:
			break;
		case FRAY_MERGE_OTHER_RUN:
			status = cli_error(cmd, EXIT_BAD_INPUT, "%s: not a shard of the same sweep as %s (scenario, seed, "
					   "trials, policy, knobs, split and number of shards must agree)", files[i],
					   files[0]);
			break;
		case FRAY_MERGE_TWICE:
			status = cli_error(cmd, EXIT_BAD_INPUT, "%s: shard %" PRIu64 " of %" PRIu64 " given twice",
					   files[i], one.m.shard, one.m.nshards);
			break;
		case FRAY_MERGE_NOMEM:
			status = cli_error(cmd, EXIT_RUNTIME, "out of memory");
			break;
		}
	}
	if (status == EXIT_OK) {
		char why[160];
		fray_sweep_merge_end(&mg, why, sizeof why);
		sweep w = {.m = mg.m, .g = mg.g};
		target none = {0};
		sweep_print(stdout, ctx, &w, form, &none, why[0] ? why : NULL);
		if (why[0])
			status = cli_error(cmd, EXIT_RUNTIME, "the result is partial: %s", why);
	}
	fray_sweep_merge_free(&mg);
	fray_sweep_shard_free(&one);
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


static int parse_args(cli_args *a, fray_ctx *ctx, opts *o, bool *help)
{
	static const char *const known[] = {"--vary", "--set", "--trials", "--seed", "--threads", "--policy",
					    "--policy-a", "--policy-b", "--quiet", "--json", "--csv", "--target",
					    "--max-points", "--write", "--shard", "--split", "--output", "--help"};
	const char *v;
	const char *vary_text[FRAY_SWEEP_MAX_KNOBS];
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
		} else if (cli_format(a, CLI_FORMAT(FRAY_FORMAT_JSON) | CLI_FORMAT(FRAY_FORMAT_CSV), &o->fmt)) {
			;
		} else if (cli_value(a, "--vary", &v)) {
			if (a->status != EXIT_OK)
				break;
			if (nvary == FRAY_SWEEP_MAX_KNOBS)
				return cli_error(a->cmd, EXIT_BAD_INPUT, "at most %d --vary options", FRAY_SWEEP_MAX_KNOBS);
			vary_text[nvary++] = v;
		} else if (cli_value(a, "--policy", &o->policy) || cli_value(a, "--policy-a", &o->pol_a) ||
			   cli_value(a, "--policy-b", &o->pol_b) || cli_value(a, "--target", &o->target) ||
			   cli_value(a, "--shard", &o->shard) || cli_value(a, "--output", &o->output) ||
			   cli_value(a, "--split", &o->split)) {
			;
		} else if (!cli_u64(a, "--trials", 1, FRAY_SIM_MAX_TRIALS, &o->trials) &&
			   !cli_u64(a, "--seed", 0, UINT64_MAX, &o->seed) &&
			   !cli_u64(a, "--threads", 0, FRAY_AGGREGATE_MAX_THREADS, &o->threads) &&
			   !cli_u64(a, "--max-points", 1, FRAY_SWEEP_MAX_POINTS, &o->max_points)) {
			if (o->path || cli_is_option(arg))
				return cli_unknown(a, known, sizeof known / sizeof known[0]);
			o->path = a->argv[a->i++];
		}
	}
	if (a->status != EXIT_OK)
		return a->status;
	/* the values after every option is read: --max-points bounds them */
	for (int i = 0; i < nvary; i++) {
		if (fray_sweep_knob_parse(ctx, vary_text[i], (int)o->max_points, &o->knobs[o->nk++]) != FRAY_OK)
			return cli_fail(a->cmd, ctx);
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

/* The --set edits and the point's values, as edits of the file. */
static int point_edits(const opts *o, const sweep *w, const point *pt, fray_adbg_edit *ed)
{
	return fray_sweep_point_edits(o->sets.ed, o->sets.n, &w->g, pt, ed);
}

/* The scenario's own value of each knob (after --set), for the baseline. */
static int read_bases(const char *cmd, fray_ctx *ctx, fray_doc *doc, opts *o, fray_adbg_scenario **s)
{
	int status = scen_read_edited(cmd, ctx, doc, "--set", o->sets.ed, o->sets.n, s);
	if (status == EXIT_OK && fray_sweep_bases(ctx, doc, o->knobs, o->nk) != FRAY_OK)
		status = cli_fail(cmd, ctx);
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

/* The melee CRT's absolute path as the point's scenario finds it (so a
 * file written to another folder finds it too), or NULL. */
static const char *crt_path(fray_doc *doc, const fray_adbg_edit *ed, int ned, char real[PATH_MAX])
{
	const fray_node *crt = fray_map_get(fray_doc_root(doc), "melee_crt");
	if (fray_node_kind_of(crt) != FRAY_NODE_SCALAR)
		return NULL;
	const char *rel = fray_node_scalar(crt);
	for (int i = 0; i < ned; i++)
		if (strcmp(ed[i].path, "melee_crt") == 0)
			rel = ed[i].value; /* the doc holds the value of the point read last */
	const char *name = fray_doc_name(doc), *slash = strrchr(name, '/');
	char joined[PATH_MAX * 2];
	if (rel[0] == '/' || !slash)
		snprintf(joined, sizeof joined, "%s", rel);
	else
		snprintf(joined, sizeof joined, "%.*s/%s", (int)(slash - name), name, rel);
	return realpath(joined, real);
}

static int write_point(const char *cmd, fray_ctx *ctx, fray_doc *doc, const opts *o, const sweep *w)
{
	char *end;
	errno = 0;
	unsigned long long n = strtoull(o->write_point, &end, 10);
	if (end == o->write_point || *end || errno || n < 1 || n > w->g.np)
		return cli_error(cmd, EXIT_BAD_INPUT, "option --write: expected a point's number from 1 to %zu "
				 "(the sweep's 'point' column), got '%s'", w->g.np, o->write_point);
	/* never over the scenario (or its CRT): a rename would lose it */
	int status = cli_output_check(cmd, ctx, o->write_file, "--write", NULL);
	if (status != EXIT_OK)
		return status;
	char src[PATH_MAX], dst[PATH_MAX];
	if (realpath(o->path, src) && realpath(o->write_file, dst) && strcmp(src, dst) == 0)
		return cli_error(cmd, EXIT_BAD_INPUT, "option --write: %s is the scenario the sweep reads; "
				 "write the point to another file", o->write_file);
	fray_adbg_edit ed[SCEN_MAX_SETS + FRAY_SWEEP_MAX_KNOBS];
	const point *pt = &w->g.pts[n - 1];
	int ned = point_edits(o, w, pt, ed);
	char header[2048];
	textbuf t = text_on(header, sizeof header);
	text_add(&t, "# written by fray adbg sweep --write from %s, point %llu:", o->path, n);
	for (int k = 0; k < ned; k++)
		text_add(&t, " %s=%s", ed[k].path, ed[k].value);
	text_add(&t, "\n");
	for (char *c = header; *c; c++)
		if (*c == '\n' && c[1])
			*c = ' '; /* one comment line, whatever the values hold */
	char crt[PATH_MAX];
	char *text = NULL;
	size_t len = 0;
	if (fray_adbg_scenario_write_edited(ctx, doc, ed, ned, header,
					    same_folder(o->path, o->write_file) ? NULL : crt_path(doc, ed, ned, crt), &text,
					    &len) != FRAY_OK)
		status = cli_fail(cmd, ctx);
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
	fray_ctx *ctx = fray_ctx_new(NULL, NULL);
	if (!ctx)
		return cli_error(a.cmd, EXIT_RUNTIME, "out of memory");
	int status = parse_args(&a, ctx, &o, &help);
	sweep w = {.m = {.seed = o.seed, .trials = o.trials, .shard = 1, .nshards = 1}};
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
	if (status == EXIT_OK && fray_doc_load_file(ctx, o.path, &doc) != FRAY_OK)
		status = cli_fail(a.cmd, ctx);
	if (status == EXIT_OK)
		status = read_bases(a.cmd, ctx, doc, &o, &s);
	if (status == EXIT_OK) {
		snprintf(w.m.scenario, sizeof w.m.scenario, "%s", fray_adbg_scenario_name(s));
		for (int side = 0; side < 2; side++)
			snprintf(w.m.side[side], sizeof w.m.side[side], "%s", fray_adbg_side_name(s, side));
		for (int side = 0; side < 2; side++)
			snprintf(w.side_id[side], sizeof w.side_id[side], "%s", fray_adbg_side_id(s, side));
		w.m.digest = fray_adbg_edits_digest(fray_adbg_scenario_digest(s), o.sets.ed, o.sets.n);
		fray_adbg_scenario_free(s);
		s = NULL;
		if (fray_sweep_points(ctx, o.knobs, o.nk, o.max_points, &w.g) != FRAY_OK)
			status = cli_fail(a.cmd, ctx);
	}
	target tg = {0};
	const char *ids[2] = {w.side_id[0], w.side_id[1]}, *names[2] = {w.m.side[0], w.m.side[1]};
	if (status == EXIT_OK && o.target && fray_sweep_target_parse(ctx, o.target, ids, names, &tg) != FRAY_OK)
		status = cli_fail(a.cmd, ctx);
	if (status == EXIT_OK && o.output)
		status = cli_output_check(a.cmd, ctx, o.output, "--output", NULL);
	/* every point is read before any is fought: a bad value is told at once */
	fray_adbg_edit ed[SCEN_MAX_SETS + FRAY_SWEEP_MAX_KNOBS];
	for (size_t p = 0; p < w.g.np && status == EXIT_OK; p++) {
		status = scen_read_edited(a.cmd, ctx, doc, "--vary", ed, point_edits(&o, &w, &w.g.pts[p], ed), &s);
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
	size_t lo = 0, hi = w.g.np;
	uint64_t first = 0, last = o.trials;
	if (o.shard && by_trials) {
		first = fray_shard_slice(o.trials, w.m.shard - 1, w.m.nshards);
		last = fray_shard_slice(o.trials, w.m.shard, w.m.nshards);
	} else if (o.shard) {
		lo = (size_t)fray_sweep_point_slice((uint64_t)w.g.np, w.m.shard - 1, w.m.nshards);
		hi = (size_t)fray_sweep_point_slice((uint64_t)w.g.np, w.m.shard, w.m.nshards);
	}
	bool show = !o.quiet && isatty(2);
	cli_catch_stop();
	for (size_t p = lo; p < hi && status == EXIT_OK && !cli_stop_signal; p++) {
		if (show)
			fprintf(stderr, "\rpoint %zu of %zu ", p + 1 - lo, hi - lo);
		fray_sim_run run = {.policy = pol, .seed = o.seed, .first = first, .last = last,
				    .threads = fray_policy_thread_safe(pol) ? (unsigned)o.threads : 1,
				    .stop = &cli_stop_signal};
		scen_told told = {.cmd = a.cmd};
		fray_adbg_edit_read how = {.open = scen_open, .option = "--vary", .problem = scen_tell,
					   .problem_ud = &told};
		if (fray_sweep_run_point(ctx, doc, &how, o.sets.ed, o.sets.n, &w.g, p, &run) != FRAY_OK)
			status = scen_failed(a.cmd, ctx, &told);
	}
	cli_release_stop();
	if (show)
		fprintf(stderr, "\r%*s\r", 30, "");
	if (status == EXIT_OK && cli_stop_signal) {
		/* the points done in full are printed; a shard is not written */
		size_t done_points = 0;
		for (size_t p = lo; p < hi; p++)
			if (w.g.pts[p].sim && fray_sim_trials(w.g.pts[p].sim) == last - first)
				w.g.pts[lo + done_points++] = w.g.pts[p];
			else
				fray_sim_free(w.g.pts[p].sim);
		for (size_t p = lo + done_points; p < hi; p++)
			w.g.pts[p].sim = NULL;
		if (!o.shard) {
			w.g.np = done_points;
			sweep_print(stdout, ctx, &w, o.fmt, &tg, "interrupted");
		}
		status = cli_error(a.cmd, cli_stop_status(), "interrupted: %zu of %zu points done%s", done_points,
				   hi - lo, o.shard ? "; the shard is not written" : " (each printed in full)");
	} else if (status == EXIT_OK && o.shard) {
		status = write_sweep_shard(a.cmd, o.output, &w, by_trials, first, last, lo, hi);
	} else if (status == EXIT_OK) {
		w.ctx = ctx;
		w.doc = doc;
		w.o = &o;
		status = sweep_print(stdout, ctx, &w, o.fmt, &tg, NULL);
	}
done:
	if (w.g.pts)
		for (size_t p = 0; p < w.g.np; p++)
			fray_sim_free(w.g.pts[p].sim);
	fray_sweep_points_free(ctx, &w.g);
	for (int k = 0; k < o.nk; k++)
		fray_sweep_knob_free(ctx, &o.knobs[k]);
	scen_sets_free(&o.sets);
	fray_adbg_scenario_free(s);
	fray_doc_free(doc);
	fray_policy_free(pol);
	fray_ctx_free(ctx);
	return status;
}
