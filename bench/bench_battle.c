/* Benchmark: simulated quick battles (ADBG 19) per second, per example
 * scenario, on one core and on all cores, with the heuristic policy; the
 * one-core run also per second of the process's CPU time, which a machine
 * shared with other work lowers far less than the wall clock (issue 45).
 * Results are recorded in docs/performance.md.
 * Usage: bench_battle [scale] [scenario.yaml...]   (scale 1: about a
 * second per measure; default scenarios: examples/adbg/ from the source) */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <fray/fray.h>

static double clock_s(clockid_t id)
{
	struct timespec ts;
	clock_gettime(id, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double now(void)
{
	return clock_s(CLOCK_MONOTONIC);
}


/* Battles per second for `trials` battles on `threads` threads; per
 * second of the process's CPU time in *cpu_rate when not NULL. */
static double rate(fray_ctx *ctx, fray_policy *p, const fray_adbg_scenario *s, uint64_t trials,
		   unsigned threads, double *cpu_rate)
{
	fray_sim_run run = {.proc = fray_adbg_battle_stats_procedure, .policy = p, .input = s,
			    .nfields = FRAY_ADBG_SIM_FIELDS, .seed = 1, .first = 0, .last = trials,
			    .threads = threads};
	fray_sim *sim = fray_sim_new(FRAY_ADBG_SIM_FIELDS);
	double t0 = now(), c0 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
	if (!sim || fray_simulate(ctx, &run, sim) != FRAY_OK) {
		fprintf(stderr, "bench_battle: %s\n", fray_ctx_message(ctx));
		exit(1);
	}
	double r = (double)trials / (now() - t0);
	if (cpu_rate)
		*cpu_rate = (double)trials / (clock_s(CLOCK_PROCESS_CPUTIME_ID) - c0);
	fray_sim_free(sim);
	return r;
}

int main(int argc, char **argv)
{
	static const char *const examples[] = {FRAY_SOURCE_DIR "/examples/adbg/blue-licks-1782.yaml",
					       FRAY_SOURCE_DIR "/examples/adbg/lochry-1781.yaml",
					       FRAY_SOURCE_DIR "/examples/adbg/sandusky-1782.yaml"};
	double scale = argc > 1 ? atof(argv[1]) : 1.0;
	const char *const *paths = argc > 2 ? (const char *const *)argv + 2 : examples;
	int npaths = argc > 2 ? argc - 2 : 3;
	unsigned cores = (unsigned)sysconf(_SC_NPROCESSORS_ONLN);
	fray_ctx *ctx = fray_ctx_new(NULL, NULL);
	fray_policy *p = NULL;
	if (!ctx || !(p = fray_policy_heuristic_new(ctx)))
		return 1;
	printf("%-36s %16s %16s %16s %8s\n", "scenario (heuristic policy)", "battles/s 1 core",
	       "per CPU second", "battles/s all", "scaling");
	for (int i = 0; i < npaths; i++) {
		fray_adbg_scenario *s;
		if (fray_adbg_scenario_load(ctx, paths[i], &s) != FRAY_OK) {
			fprintf(stderr, "bench_battle: %s\n", fray_ctx_message(ctx));
			return 1;
		}
		uint64_t n = (uint64_t)(400000 * scale);
		rate(ctx, p, s, n / 10, 1, NULL); /* warm up */
		double cpu, one = rate(ctx, p, s, n, 1, &cpu), all = rate(ctx, p, s, n * cores, cores, NULL);
		printf("%-36.36s %16.0f %16.0f %16.0f %7.2fx  (%u cores)\n", fray_adbg_scenario_name(s), one,
		       cpu, all, all / one, cores);
		fray_adbg_scenario_free(s);
	}
	fray_policy_free(p);
	fray_ctx_free(ctx);
	return 0;
}
