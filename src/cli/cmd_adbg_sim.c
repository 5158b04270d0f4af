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
	bool quiet = false;
	fray_format form = FRAY_FORMAT_TEXT;
	while (a.i < argc && a.status == EXIT_OK) {
		if (cli_is_help(argv[a.i]))
			return cli_help_topic(stdout, "adbg simulate") ? EXIT_OK : EXIT_RUNTIME;
		if (scen_take_set(&a, &sets))
			;
		else if (cli_format(&a, CLI_FORMAT(FRAY_FORMAT_JSON), &form))
			;
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
	fray_shard_meta m = {.seed = seed, .trials = trials, .shard = 1, .nshards = 1};
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
	m.digest = fray_adbg_edits_digest(fray_adbg_scenario_digest(s), sets.ed, sets.n);
	if (output && (status = cli_output_check(a.cmd, ctx, output, "--output", NULL)) != EXIT_OK)
		goto done;
	if ((status = cli_make_side_policies(a.cmd, ctx, policy, pol_a, pol_b, &p, m.policy,
					     sizeof m.policy, &m.digest)) != EXIT_OK)
		goto done;
	snprintf(m.scenario, sizeof m.scenario, "%s", fray_adbg_scenario_name(s));
	for (int side = 0; side < 2; side++)
		snprintf(m.side[side], sizeof m.side[side], "%s", fray_adbg_side_name(s, side));

	/* shard I of N: trials [T(I-1)/N, TI/N), disjoint and covering */
	uint64_t first = fray_shard_slice(trials, m.shard - 1, m.nshards),
		 last = fray_shard_slice(trials, m.shard, m.nshards);
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
		status = sim_print(stdout, &m, sim, form, !partial ? NULL : cli_stop_signal == SIGTERM ?
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
