/* Benchmark: exact whole-battle odds (ADBG 19, fray_enumerate of
 * fray_adbg_battle_procedure with the heuristic policy, the limits of
 * `fray adbg odds`), per scenario: wall-clock and CPU time, paths' outcome
 * count and the peak memory of a child process that does only that
 * (issue #33's targets: 2 s and 128 MiB per shipped battle). Results are
 * recorded in docs/performance.md.
 * Usage: bench_exact [--stages] [scenario.yaml...]   (default: examples/adbg/
 * and bench/adbg/blue-licks-doubled.yaml from the source). Each says its
 * paths (walked, or walked before the refusal); --stages adds the paths
 * walked in each round (a battle's round is its stages' part). */
#define _DEFAULT_SOURCE /* wait4 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <fray/fray.h>

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The walk's paths, from its estimate (fray_enum_progress): the last one
 * seen, and with --stages the paths at the start of each part (round). */
typedef struct walk_seen {
	fray_enum_progress last;
	bool stages;
	uint64_t part, part_began;
} walk_seen;

static void seen(const fray_enum_progress *pr, void *ud)
{
	walk_seen *w = ud;
	if (w->stages && pr->part != w->part) {
		if (w->part)
			printf("  round %llu: %llu paths\n", (unsigned long long)w->part,
			       (unsigned long long)(pr->paths - w->part_began));
		w->part = pr->part;
		w->part_began = pr->paths;
	}
	w->last = *pr;
}

/* The child: exact odds of one scenario; exit 0 when exact, 3 when over
 * the budget (too many paths or too much memory), 1 on any other error. */
static int exact_odds(const char *path, bool stages)
{
	walk_seen w = {.stages = stages};
	fray_ctx *ctx = fray_ctx_new(NULL, NULL);
	fray_policy *p = ctx ? fray_policy_heuristic_new(ctx) : NULL;
	fray_adbg_scenario *s;
	if (!p || fray_adbg_scenario_load(ctx, path, &s) != FRAY_OK) {
		fprintf(stderr, "bench_exact: %s\n", ctx ? fray_ctx_message(ctx) : "out of memory");
		return 1;
	}
	fray_enum_limits lim = {.max_depth = 100000, .max_paths = 30000000, .estimate = seen, .ud = &w};
	fray_dist *d = NULL;
	fray_status st = fray_enumerate(ctx, fray_adbg_battle_procedure, p, s, 3, &lim, &d);
	if (stages && w.part)
		printf("  round %llu: %llu paths\n", (unsigned long long)w.part,
		       (unsigned long long)(w.last.paths - w.part_began));
	if (st != FRAY_OK)
		fprintf(stderr, "bench_exact: %s: %s\n", path, fray_ctx_message(ctx));
	else
		printf("  %zu outcomes; ", fray_dist_count(d));
	printf("%s%llu paths%s; ", st == FRAY_OK ? "" : "  ", (unsigned long long)w.last.paths, st == FRAY_OK ? "" : " before the refusal");
	fflush(stdout);
	fray_dist_free(d);
	fray_adbg_scenario_free(s);
	fray_policy_free(p);
	fray_ctx_free(ctx);
	return st == FRAY_OK ? 0 : st == FRAY_ERR_LIMIT || st == FRAY_ERR_BUDGET ? 3 : 1;
}

int main(int argc, char **argv)
{
	static const char *const examples[] = {FRAY_SOURCE_DIR "/examples/adbg/lochry-1781.yaml",
					       FRAY_SOURCE_DIR "/examples/adbg/sandusky-1782.yaml",
					       FRAY_SOURCE_DIR "/examples/adbg/blue-licks-1782.yaml",
					       FRAY_SOURCE_DIR "/bench/adbg/blue-licks-doubled.yaml"};
	bool stages = argc > 1 && strcmp(argv[1], "--stages") == 0;
	argc -= stages;
	argv += stages;
	const char *const *paths = argc > 1 ? (const char *const *)argv + 1 : examples;
	int npaths = argc > 1 ? argc - 1 : 4, failed = 0;
	for (int i = 0; i < npaths; i++) {
		printf("%s\n", paths[i]);
		fflush(stdout);
		double t0 = now();
		pid_t pid = fork();
		if (pid == 0)
			_exit(exact_odds(paths[i], stages));
		int status;
		struct rusage ru;
		if (pid < 0 || wait4(pid, &status, 0, &ru) != pid) {
			perror("bench_exact");
			return 1;
		}
		double wall = now() - t0;
		double cpu = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 +
			     (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6;
		int code = WIFEXITED(status) ? WEXITSTATUS(status) : 1;
		printf("  %s: %.2f s wall, %.2f s CPU, peak %.1f MiB%s\n",
		       code == 0 ? "exact" : code == 3 ? "over the budget" : "FAILED", wall, cpu,
		       (double)ru.ru_maxrss / 1024.0,
		       code == 0 && (cpu > 2.0 || ru.ru_maxrss > 128 * 1024) ? "  (over 2 s or 128 MiB)" : "");
		failed |= code == 1;
	}
	return failed;
}
