/* fray adbg simulate SCENARIO: many quick battles (ADBG 19), streamed into
 * histograms: win rates with 95% intervals, losses, rounds. --shard I/N
 * writes one slice of the trials as a shard file; fray merge adds shards
 * back into exactly the result of one run (ruling R24: trial i always uses
 * stream i of the seed). */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "cli.h"
#include "../common/text.h"
#include "policy_cli.h"
#include "sim_out.h"
#include "scenario_edit.h"

int adbg_simulate(int argc, char **argv);



static bool parse_shard(const char *s, uint64_t *i, uint64_t *n)
{
	char *end;
	errno = 0;
	unsigned long long a = strtoull(s, &end, 10);
	if (end == s || *end != '/' || errno)
		return false;
	const char *t = end + 1;
	unsigned long long b = strtoull(t, &end, 10);
	if (end == t || *end || errno || b < 1 || b > 1000000 || a < 1 || a > b || s[0] == '-' || t[0] == '-')
		return false;
	*i = a;
	*n = b;
	return true;
}

int adbg_simulate(int argc, char **argv)
{
	static const char *const known[] = {"--trials", "--seed", "--threads", "--policy", "--policy-a",
					    "--policy-b", "--shard", "--output", "--quiet", "--json", "--set", "--help"};
	static const char *const repeatable[] = {"--set", NULL};
	cli_args a = {.cmd = "adbg simulate", .argc = argc, .argv = argv, .repeatable = repeatable};
	scen_sets sets = {.n = 0};
	const char *path = NULL, *policy = "heuristic", *pol_a = NULL, *pol_b = NULL, *shard = NULL,
		   *output = NULL;
	uint64_t trials = 100000, seed = 1, threads = 0;
	bool json = false, quiet = false;
	while (a.i < argc && a.status == EXIT_OK) {
		if (cli_is_help(argv[a.i]))
			return cli_help_topic(stdout, "adbg simulate") ? EXIT_OK : EXIT_RUNTIME;
		if (scen_take_set(&a, &sets))
			;
		else if (cli_flag(&a, "--json"))
			json = true;
		else if (cli_flag(&a, "--quiet"))
			quiet = true;
		else if (cli_value(&a, "--policy", &policy) || cli_value(&a, "--policy-a", &pol_a) ||
			 cli_value(&a, "--policy-b", &pol_b) || cli_value(&a, "--shard", &shard) ||
			 cli_value(&a, "--output", &output))
			;
		else if (!cli_u64(&a, "--trials", 1, FRAY_SIM_MAX_TRIALS, &trials) &&
			 !cli_u64(&a, "--seed", 0, UINT64_MAX, &seed) &&
			 !cli_u64(&a, "--threads", 0, FRAY_AGGREGATE_MAX_THREADS, &threads)) {
			if (path || cli_is_option(argv[a.i]))
				a.status = cli_unknown(&a, known, sizeof known / sizeof known[0]);
			else
				path = argv[a.i++];
		}
	}
	sim_meta m = {.seed = seed, .trials = trials, .shard = 1, .nshards = 1};
	if (a.status == EXIT_OK && !path)
		a.status = cli_error(a.cmd, EXIT_BAD_INPUT, "expected a scenario file (see examples/adbg/)");
	if (a.status == EXIT_OK && shard && !parse_shard(shard, &m.shard, &m.nshards))
		a.status = cli_error(a.cmd, EXIT_BAD_INPUT, "option --shard expects I/N with 1 <= I <= N <= "
				     "1000000, got '%s'", shard);
	if (a.status == EXIT_OK && output && !shard)
		a.status = cli_error(a.cmd, EXIT_BAD_INPUT, "--output FILE is for a shard's result (--shard I/N)");
	fray_ctx *ctx = a.status == EXIT_OK ? fray_ctx_new(NULL, NULL) : NULL;
	if (a.status == EXIT_OK && !ctx)
		a.status = cli_error(a.cmd, EXIT_RUNTIME, "out of memory");
	if (a.status != EXIT_OK) {
		scen_sets_free(&sets);
		return a.status;
	}
	int status = EXIT_OK;
	fray_policy *p = NULL;
	fray_sim *sim = fray_sim_new(FRAY_ADBG_SIM_FIELDS);
	fray_adbg_scenario *s = NULL;
	if (!sim) {
		status = cli_error(a.cmd, EXIT_RUNTIME, "out of memory");
		goto done;
	}
	if ((status = scen_load_edited(a.cmd, ctx, path, sets.ed, sets.n, &s)) != EXIT_OK)
		goto done;
	/* the shard's digest: of the scenario (and its CRT), the --set values
	 * and any policy script, from the bytes read once */
	m.digest = scen_edits_digest(fray_adbg_scenario_digest(s), sets.ed, sets.n);
	if (output && (status = cli_output_check(a.cmd, ctx, output, "--output", NULL)) != EXIT_OK)
		goto done;
	if ((status = cli_make_side_policies(a.cmd, ctx, policy, pol_a, pol_b, &p, m.policy,
					     sizeof m.policy, &m.digest)) != EXIT_OK)
		goto done;
	snprintf(m.scenario, sizeof m.scenario, "%s", fray_adbg_scenario_name(s));
	for (int side = 0; side < 2; side++)
		snprintf(m.side[side], sizeof m.side[side], "%s", fray_adbg_side_name(s, side));

	/* shard I of N: trials [T(I-1)/N, TI/N), disjoint and covering */
	uint64_t first = sim_slice(trials, m.shard - 1, m.nshards),
		 last = sim_slice(trials, m.shard, m.nshards);
	cli_progress prog;
	cli_progress_start(&prog, "battles");
	bool show = !quiet && isatty(2);
	fray_sim_run run = {.proc = fray_adbg_battle_stats_procedure, .policy = p, .input = s,
			    .nfields = FRAY_ADBG_SIM_FIELDS, .seed = seed, .first = first, .last = last,
			    .threads = fray_policy_thread_safe(p) ? (unsigned)threads : 1,
			    .stop = &cli_stop_signal, .progress = show ? cli_progress_show : NULL, .ud = &prog};
	cli_catch_stop();
	fray_status st = fray_simulate(ctx, &run, sim);
	cli_release_stop();
	if (show)
		cli_progress_clear();
	if (st != FRAY_OK) {
		status = cli_fail(a.cmd, ctx);
		goto done;
	}
	bool partial = fray_sim_trials(sim) < last - first;
	if (shard) {
		status = sim_write_shard(a.cmd, output, &m, sim, first, last, partial);
	} else {
		sim_print(stdout, &m, sim, json, !partial ? NULL : cli_stop_signal == SIGTERM ?
			  "stopped by SIGTERM" : "stopped by Ctrl-C");
	}
	if (status == EXIT_OK && partial) {
		cli_error(a.cmd, cli_stop_status(), "interrupted after %" PRIu64 " of %" PRIu64 " battles; the result is partial",
			  fray_sim_trials(sim), last - first);
		status = cli_stop_status();
	}
done:
	fray_sim_free(sim);
	fray_policy_free(p);
	fray_adbg_scenario_free(s);
	fray_ctx_free(ctx);
	scen_sets_free(&sets);
	return status;
}

/* ---- fray adbg sweep: the same battle over a grid of changed values ---- */

int adbg_sweep(int argc, char **argv);

enum { MAX_VARY = 4, MAX_VALUES = 100, MAX_POINTS = 1000 };

typedef struct vary {
	const char *path;             /* as given: sides.kentucky.level */
	char *values[MAX_VALUES];     /* into a copy of the option's text */
	int nvalues;
	char *text;
} vary;

/* The node at a dotted path: map keys by name, list items from 1. */
static const fray_node *find_path(const fray_node *root, const char *path, char *why, size_t cap)
{
	const fray_node *n = root;
	char part[128];
	const char *p = path;
	while (n && *p) {
		size_t len = strcspn(p, ".");
		if (len == 0 || len >= sizeof part) {
			snprintf(why, cap, "an empty or overlong step in '%s'", path);
			return NULL;
		}
		memcpy(part, p, len);
		part[len] = '\0';
		p += len + (p[len] == '.');
		if (fray_node_kind_of(n) == FRAY_NODE_MAP) {
			const fray_node *next = fray_map_get(n, part);
			if (!next) {
				snprintf(why, cap, "no key '%s' in '%s' (at line %d)", part, path, fray_node_line(n));
				return NULL;
			}
			n = next;
		} else if (fray_node_kind_of(n) == FRAY_NODE_SEQ) {
			char *end;
			long i = strtol(part, &end, 10);
			if (*end || i < 1 || (size_t)i > fray_node_len(n)) {
				snprintf(why, cap, "'%s' in '%s': expected an item number from 1 to %zu", part, path,
					 fray_node_len(n));
				return NULL;
			}
			n = fray_node_item(n, (size_t)i - 1);
		} else {
			snprintf(why, cap, "'%s' goes past a single value in '%s'", part, path);
			return NULL;
		}
	}
	if (n && fray_node_kind_of(n) != FRAY_NODE_SCALAR) {
		snprintf(why, cap, "'%s' is a list or a map, not a single value", path);
		return NULL;
	}
	return n;
}

static int parse_vary(const char *cmd, const char *arg, vary *v)
{
	const char *eq = strchr(arg, '=');
	if (!eq || eq == arg || !eq[1])
		return cli_error(cmd, EXIT_BAD_INPUT, "option --vary expects PATH=V1,V2,..., got '%s'", arg);
	v->text = strdup(arg);
	if (!v->text)
		return cli_error(cmd, EXIT_RUNTIME, "out of memory");
	v->text[eq - arg] = '\0';
	v->path = v->text;
	v->nvalues = 0;
	for (char *save = NULL, *t = strtok_r(v->text + (eq - arg) + 1, ",", &save); t;
	     t = strtok_r(NULL, ",", &save)) {
		if (v->nvalues == MAX_VALUES)
			return cli_error(cmd, EXIT_BAD_INPUT, "option --vary: at most %d values", MAX_VALUES);
		v->values[v->nvalues++] = t;
	}
	if (v->nvalues == 0)
		return cli_error(cmd, EXIT_BAD_INPUT, "option --vary expects PATH=V1,V2,..., got '%s'", arg);
	return EXIT_OK;
}

/* The scenario of doc (read once) with the grid point's values put in;
 * every point sets every varied value, so one doc serves them all. */
static int scenario_at(const char *cmd, fray_ctx *ctx, fray_doc *doc, const vary *vs,
		       int nv, const int *idx, fray_adbg_scenario **out)
{
	*out = NULL;
	for (int i = 0; i < nv; i++) {
		char why[256];
		const fray_node *n = find_path(fray_doc_root(doc), vs[i].path, why, sizeof why);
		if (!n)
			return cli_error(cmd, EXIT_BAD_INPUT, "option --vary: %s: %s", fray_doc_name(doc), why);
		if (fray_doc_set_scalar(doc, n, vs[i].values[idx[i]]) != FRAY_OK)
			return cli_fail(cmd, ctx);
	}
	fray_status st = fray_adbg_scenario_read(ctx, doc, out);
	if (st == FRAY_OK)
		return EXIT_OK;
	if (st != FRAY_ERR_INPUT || fray_doc_error_count(doc) == 0)
		return cli_fail(cmd, ctx);
	char point[512];
	textbuf t = text_on(point, sizeof point);
	for (int i = 0; i < nv; i++)
		text_add(&t, "%s%s=%s", i ? ", " : "", vs[i].path, vs[i].values[idx[i]]);
	for (size_t i = 0; i < fray_doc_error_count(doc); i++)
		cli_error(cmd, EXIT_BAD_INPUT, "with %s: %s", point, fray_doc_error_msg(doc, i));
	return EXIT_BAD_INPUT;
}

/* A grid column is as wide as its path or its longest value. */
static int vary_width(const vary *v)
{
	size_t w = strlen(v->path);
	for (int i = 0; i < v->nvalues; i++)
		if (strlen(v->values[i]) > w)
			w = strlen(v->values[i]);
	return w > 40 ? 40 : (int)w;
}

static void sweep_row(FILE *out, const vary *vs, int nv, const int *idx, const fray_sim *sim, bool json,
		      bool first)
{
	if (json) {
		char a[40];
		fprintf(out, "%s\n  {\"values\": [", first ? "" : ",");
		for (int i = 0; i < nv; i++)
			fprintf(out, "%s%s", i ? ", " : "", cli_jstr(vs[i].values[idx[i]]));
		fprintf(out, "], \"counted\": %" PRIu64 ", \"wins\": [", fray_sim_trials(sim));
		for (int side = 0; side < 2; side++) {
			fprintf(out, "%s", side ? ", " : "");
			sim_json_rate(out, fray_sim_count(sim, FRAY_ADBG_SIM_WINNER, side + 1), fray_sim_trials(sim));
		}
		fprintf(out, "], \"draw\": ");
		sim_json_rate(out, fray_sim_count(sim, FRAY_ADBG_SIM_WINNER, 0), fray_sim_trials(sim));
		fprintf(out, ", \"mean_losses\": [");
		for (int side = 0; side < 2; side++) {
			fray_double_str(fray_sim_mean(sim, FRAY_ADBG_SIM_SIDE + (size_t)side * FRAY_ADBG_SIM_PER_SIDE +
							   FRAY_ADBG_SIM_LOSSES), a, sizeof a);
			fprintf(out, "%s%s", side ? ", " : "", a);
		}
		fprintf(out, "]}");
		return;
	}
	for (int i = 0; i < nv; i++)
		fprintf(out, "  %-*s", vary_width(&vs[i]), vs[i].values[idx[i]]);
	for (int w = 1; w <= 3; w++) {
		double lo, hi, n = (double)fray_sim_trials(sim);
		uint64_t k = fray_sim_count(sim, FRAY_ADBG_SIM_WINNER, w % 3);
		fray_wilson95(k, fray_sim_trials(sim), &lo, &hi);
		fprintf(out, "  %6.2f%% \u00b1%4.2f", n > 0 ? 100 * (double)k / n : 0, 100 * (hi - lo) / 2);
		/* 13 columns wide: "100.00% ±0.12" ('±' is two bytes) */
	}
	for (int side = 0; side < 2; side++)
		fprintf(out, "  %8.2f", fray_sim_mean(sim, FRAY_ADBG_SIM_SIDE + (size_t)side * FRAY_ADBG_SIM_PER_SIDE +
							 FRAY_ADBG_SIM_LOSSES));
	fputc('\n', out);
}

int adbg_sweep(int argc, char **argv)
{
	static const char *const known[] = {"--vary", "--trials", "--seed", "--threads", "--policy",
					    "--policy-a", "--policy-b", "--quiet", "--json", "--help"};
	static const char *const repeatable[] = {"--vary", NULL};
	cli_args a = {.cmd = "adbg sweep", .argc = argc, .argv = argv, .repeatable = repeatable};
	const char *path = NULL, *policy = "heuristic", *pol_a = NULL, *pol_b = NULL, *v;
	uint64_t trials = 10000, seed = 1, threads = 0;
	bool json = false, quiet = false, help = false;
	vary vs[MAX_VARY] = {{0}};
	int nv = 0, status = EXIT_OK;
	while (a.i < argc && a.status == EXIT_OK && status == EXIT_OK) {
		if (cli_is_help(argv[a.i])) {
			help = true;
			break;
		}
		if (cli_flag(&a, "--json"))
			json = true;
		else if (cli_flag(&a, "--quiet"))
			quiet = true;
		else if (cli_value(&a, "--vary", &v)) {
			if (nv == MAX_VARY)
				status = cli_error(a.cmd, EXIT_BAD_INPUT, "at most %d --vary options", MAX_VARY);
			else
				status = parse_vary(a.cmd, v, &vs[nv++]);
			/* one path varied twice would label the rows with one of
			 * its values while the scenario took the other */
			for (int k = 0; status == EXIT_OK && k < nv - 1; k++)
				if (strcmp(vs[k].path, vs[nv - 1].path) == 0)
					status = cli_error(a.cmd, EXIT_BAD_INPUT, "option --vary: %s is varied "
							   "twice; give all its values in one --vary", vs[k].path);
		} else if (cli_value(&a, "--policy", &policy) || cli_value(&a, "--policy-a", &pol_a) ||
			   cli_value(&a, "--policy-b", &pol_b))
			;
		else if (!cli_u64(&a, "--trials", 1, FRAY_SIM_MAX_TRIALS, &trials) &&
			 !cli_u64(&a, "--seed", 0, UINT64_MAX, &seed) &&
			 !cli_u64(&a, "--threads", 0, FRAY_AGGREGATE_MAX_THREADS, &threads)) {
			if (path || cli_is_option(argv[a.i])) {
				status = cli_unknown(&a, known, sizeof known / sizeof known[0]);
				break;
			}
			path = argv[a.i++];
		}
	}
	if (status == EXIT_OK)
		status = a.status;
	if (help) {
		for (int i = 0; i < nv; i++)
			free(vs[i].text);
		return cli_help_topic(stdout, "adbg sweep") ? EXIT_OK : EXIT_RUNTIME;
	}
	int npoints = 1;
	for (int i = 0; i < nv && status == EXIT_OK; i++)
		if ((npoints *= vs[i].nvalues) > MAX_POINTS)
			status = cli_error(a.cmd, EXIT_BAD_INPUT, "at most %d points in the grid", MAX_POINTS);
	if (status == EXIT_OK && !path)
		status = cli_error(a.cmd, EXIT_BAD_INPUT, "expected a scenario file (see examples/adbg/)");
	if (status == EXIT_OK && nv == 0)
		status = cli_error(a.cmd, EXIT_BAD_INPUT, "expected --vary PATH=V1,V2,... "
				   "(for example --vary sides.kentucky.level=1,2,3)");
	fray_ctx *ctx = status == EXIT_OK ? fray_ctx_new(NULL, NULL) : NULL;
	fray_sim *sim = status == EXIT_OK ? fray_sim_new(FRAY_ADBG_SIM_FIELDS) : NULL;
	fray_policy *p = NULL;
	fray_adbg_scenario *s = NULL;
	if (status == EXIT_OK && (!ctx || !sim))
		status = cli_error(a.cmd, EXIT_RUNTIME, "out of memory");
	/* every point is read before any is fought: a bad value is told at once */
	int idx[MAX_VARY] = {0};
	fray_doc *doc = NULL;
	if (status == EXIT_OK && fray_doc_load_file(ctx, path, &doc) != FRAY_OK)
		status = cli_fail(a.cmd, ctx);
	for (int pt = 0; pt < npoints && status == EXIT_OK; pt++) {
		for (int i = nv - 1, r = pt; i >= 0; r /= vs[i].nvalues, i--)
			idx[i] = r % vs[i].nvalues;
		status = scenario_at(a.cmd, ctx, doc, vs, nv, idx, &s);
		fray_adbg_scenario_free(s);
		s = NULL;
	}
	char policy_name[128];
	if (status == EXIT_OK)
		status = cli_make_side_policies(a.cmd, ctx, policy, pol_a, pol_b, &p, policy_name,
						sizeof policy_name, NULL);
	bool show = !quiet && isatty(2);
	cli_catch_stop();
	int done_points = 0;
	bool opened = false; /* the JSON document was begun: it must be closed */
	for (int pt = 0; pt < npoints && status == EXIT_OK && !cli_stop_signal; pt++) {
		for (int i = nv - 1, r = pt; i >= 0; r /= vs[i].nvalues, i--)
			idx[i] = r % vs[i].nvalues;
		if ((status = scenario_at(a.cmd, ctx, doc, vs, nv, idx, &s)) != EXIT_OK)
			break;
		if (pt == 0) {
			opened = json;
			if (json) {
				printf("{\"scenario\": %s, \"policy\": %s, \"seed\": %" PRIu64 ", \"trials\": %" PRIu64
				       ", \"vary\": [", cli_jstr(fray_adbg_scenario_name(s)), cli_jstr(policy_name), seed,
				       trials);
				for (int i = 0; i < nv; i++)
					printf("%s%s", i ? ", " : "", cli_jstr(vs[i].path));
				printf("], \"points\": [");
			} else {
				printf("%s: %" PRIu64 " battles a point (seed %" PRIu64 ", the same dice at every point; "
				       "policy %s)\nside 1: %s; side 2: %s; wins with the half-width of their 95%% "
				       "interval\n\n", cli_tstr(fray_adbg_scenario_name(s)), trials, seed,
				       cli_tstr(policy_name), cli_tstr(fray_adbg_side_name(s, 0)),
				       cli_tstr(fray_adbg_side_name(s, 1)));
				for (int i = 0; i < nv; i++)
					printf("  %-*s", vary_width(&vs[i]), vs[i].path);
				printf("  %13s  %13s  %13s  %8s  %8s\n", "side 1 wins", "side 2 wins", "draws",
				       "losses 1", "losses 2");
			}
		}
		if (show)
			fprintf(stderr, "\rpoint %d of %d ", pt + 1, npoints);
		fray_sim_run run = {.proc = fray_adbg_battle_stats_procedure, .policy = p, .input = s,
				    .nfields = FRAY_ADBG_SIM_FIELDS, .seed = seed, .first = 0, .last = trials,
				    .threads = fray_policy_thread_safe(p) ? (unsigned)threads : 1,
				    .stop = &cli_stop_signal};
		if (fray_simulate(ctx, &run, sim) != FRAY_OK) {
			status = cli_fail(a.cmd, ctx);
		} else if (fray_sim_trials(sim) == trials) {
			sweep_row(stdout, vs, nv, idx, sim, json, pt == 0);
			done_points++;
		}
		fray_adbg_scenario_free(s);
		s = NULL;
	}
	cli_release_stop();
	if (show)
		fprintf(stderr, "\r%*s\r", 30, "");
	if (opened)
		printf("]}\n");
	if (status == EXIT_OK && cli_stop_signal) {
		status = cli_error(a.cmd, cli_stop_status(), "interrupted: %d of %d points done (each printed in full)",
				   done_points, npoints);
	}
	for (int i = 0; i < nv; i++)
		free(vs[i].text);
	fray_doc_free(doc);
	fray_policy_free(p);
	fray_sim_free(sim);
	fray_ctx_free(ctx);
	return status;
}
