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
#include "policy_cli.h"
#include "sim_out.h"

int adbg_simulate(int argc, char **argv);

static volatile sig_atomic_t interrupted;

static void on_sigint(int sig)
{
	(void)sig;
	interrupted = 1;
}

typedef struct progress {
	struct timespec start;
	uint64_t total;
} progress;

static double seconds_since(const struct timespec *t0)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - t0->tv_sec) + (double)(t.tv_nsec - t0->tv_nsec) / 1e9;
}

/* "[#####.....]  45%  450000/1000000 battles  310000/s  2 s left" on stderr */
static void show_progress(uint64_t done, uint64_t total, void *ud)
{
	progress *pr = ud;
	double el = seconds_since(&pr->start), rate = el > 0 ? (double)done / el : 0;
	int width = 24, filled = total ? (int)((double)width * (double)done / (double)total) : width;
	char bar[32];
	for (int i = 0; i < width; i++)
		bar[i] = i < filled ? '#' : '.';
	bar[width] = '\0';
	fprintf(stderr, "\r[%s] %3d%%  %" PRIu64 "/%" PRIu64 " battles  %.0f/s  ", bar,
		total ? (int)(100.0 * (double)done / (double)total) : 100, done, total, rate);
	if (rate > 0)
		fprintf(stderr, "%.0f s left ", (double)(total - done) / rate);
	fflush(stderr);
}

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
					    "--policy-b", "--shard", "--output", "--quiet", "--json", "--help"};
	cli_args a = {.cmd = "adbg simulate", .argc = argc, .argv = argv};
	const char *path = NULL, *policy = "heuristic", *pol_a = NULL, *pol_b = NULL, *shard = NULL,
		   *output = NULL;
	uint64_t trials = 100000, seed = 1, threads = 0;
	bool json = false, quiet = false;
	while (a.i < argc && a.status == EXIT_OK) {
		if (cli_is_help(argv[a.i]))
			return cli_help_topic(stdout, "adbg simulate") ? EXIT_OK : EXIT_RUNTIME;
		if (cli_flag(&a, "--json"))
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
			if (path || argv[a.i][0] == '-')
				return cli_unknown(&a, known, sizeof known / sizeof known[0]);
			path = argv[a.i++];
		}
	}
	if (a.status != EXIT_OK)
		return a.status;
	if (!path)
		return cli_error(a.cmd, EXIT_BAD_INPUT, "expected a scenario file (see examples/adbg/)");
	sim_meta m = {.seed = seed, .trials = trials, .shard = 1, .nshards = 1};
	if (shard && !parse_shard(shard, &m.shard, &m.nshards))
		return cli_error(a.cmd, EXIT_BAD_INPUT, "option --shard expects I/N with 1 <= I <= N <= 1000000, "
				 "got '%s'", shard);
	if (output && !shard)
		return cli_error(a.cmd, EXIT_BAD_INPUT, "--output FILE is for a shard's result (--shard I/N)");
	if (!cli_file_fnv1a(path, &m.digest))
		return cli_error(a.cmd, EXIT_BAD_INPUT, "%s: %s", path, strerror(errno));

	fray_ctx *ctx = fray_ctx_new(NULL, NULL);
	if (!ctx)
		return cli_error(a.cmd, EXIT_RUNTIME, "out of memory");
	int status = EXIT_OK;
	fray_policy *p = NULL;
	fray_sim *sim = malloc(sizeof *sim);
	fray_adbg_scenario *s = NULL;
	if (!sim) {
		status = cli_error(a.cmd, EXIT_RUNTIME, "out of memory");
		goto done;
	}
	if (!(s = cli_adbg_load_scenario(a.cmd, ctx, path))) {
		status = EXIT_BAD_INPUT;
		goto done;
	}
	if ((status = cli_make_side_policies(a.cmd, ctx, policy, pol_a, pol_b, &p, m.policy,
					     sizeof m.policy)) != EXIT_OK)
		goto done;
	snprintf(m.scenario, sizeof m.scenario, "%s", fray_adbg_scenario_name(s));
	for (int side = 0; side < 2; side++)
		snprintf(m.side[side], sizeof m.side[side], "%s", fray_adbg_side_name(s, side));

	/* shard I of N: trials [T(I-1)/N, TI/N), disjoint and covering */
	uint64_t first = sim_slice(trials, m.shard - 1, m.nshards),
		 last = sim_slice(trials, m.shard, m.nshards);
	progress pr = {.total = last - first};
	clock_gettime(CLOCK_MONOTONIC, &pr.start);
	bool show = !quiet && isatty(fileno(stderr));
	fray_sim_run run = {.proc = fray_adbg_battle_stats_procedure, .policy = p, .input = s,
			    .nfields = FRAY_ADBG_SIM_FIELDS, .seed = seed, .first = first, .last = last,
			    .threads = fray_policy_thread_safe(p) ? (unsigned)threads : 1,
			    .stop = &interrupted, .progress = show ? show_progress : NULL, .ud = &pr};
	struct sigaction sa = {.sa_handler = on_sigint}, old;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old);
	fray_status st = fray_simulate(ctx, &run, sim);
	sigaction(SIGINT, &old, NULL);
	if (show)
		fprintf(stderr, "\r%*s\r", 79, "");
	if (st != FRAY_OK) {
		status = cli_fail(a.cmd, ctx);
		goto done;
	}
	bool partial = sim->trials < last - first;
	if (shard) {
		status = sim_write_shard(a.cmd, output, &m, sim, first, last);
	} else {
		sim_print(stdout, &m, sim, json, partial ? "stopped by Ctrl-C" : NULL);
	}
	if (status == EXIT_OK && partial) {
		cli_error(a.cmd, 130, "interrupted after %" PRIu64 " of %" PRIu64 " battles; the result is partial",
			  sim->trials, last - first);
		status = 130;
	}
done:
	free(sim);
	fray_policy_free(p);
	fray_adbg_scenario_free(s);
	fray_ctx_free(ctx);
	return status;
}
