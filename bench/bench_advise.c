/* Benchmark (issue 44, "Done when"): fray_game_advise for every unit of
 * the shipped Presidio, BBB and chits forces, each goal, on a new game
 * of each, one thread: the CPU time of one advice (the thread's clock,
 * so another process on the machine does not count), the median of
 * several runs per unit and goal, and the slowest per rule set against
 * the 0.3 s target. Exits 1 when one passes it and --check is given.
 * Results are recorded in docs/performance.md ("Advice", issue 44).
 * Usage: bench_advise [--check] [runs, default 5] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <fray/fray.h>

static double cpu(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static fray_game *game_of(fray_ctx *ctx, const char *rules, const char *forces)
{
	char path[1024];
	snprintf(path, sizeof path, "%s/examples/%s", FRAY_SOURCE_DIR, forces);
	FILE *f = fopen(path, "rb");
	static char buf[1 << 16];
	size_t n = f ? fread(buf, 1, sizeof buf, f) : 0;
	if (f)
		fclose(f);
	fray_game *g = NULL;
	if (!n || fray_game_new(ctx, "bench.yaml", rules, path, buf, n, 1, NULL, NULL, &g) != FRAY_OK) {
		fprintf(stderr, "bench_advise: %s: %s\n", path, fray_ctx_message(ctx));
		exit(2);
	}
	return g;
}

int main(int argc, char **argv)
{
	bool check = argc > 1 && !strcmp(argv[1], "--check");
	int runs = argc > 1 + check ? atoi(argv[1 + check]) : 5;
	if (runs < 1 || runs > 1000)
		runs = 5;
	static const char *const sets[][2] = {{"presidio", "presidio/forces.yaml"}, {"bbb", "bbb/forces.yaml"},
					       {"chits", "chits/forces.yaml"}};
	static const char *const goals[] = {"win", "not-lose", "casualties", "hold"};
	fray_ctx *ctx = fray_ctx_new(NULL, NULL);
	int missed = 0;
	printf("%-9s %-16s %-10s %8s %10s\n", "rules", "unit", "goal", "actions", "median ms");
	for (size_t s = 0; s < 3; s++) {
		fray_game *g = game_of(ctx, sets[s][0], sets[s][1]);
		double worst = 0;
		for (size_t u = 0; u < fray_game_units(g); u++)
			for (size_t k = 0; k < 4; k++) {
				double t[1000];
				size_t listed = 0;
				for (int r = 0; r < runs; r++) {
					char *out = NULL;
					double t0 = cpu();
					if (fray_game_advise(g, fray_game_unit(g, u), goals[k], 0, NULL, FRAY_FORMAT_JSON,
							     &out) != FRAY_OK) {
						fprintf(stderr, "bench_advise: %s\n", fray_ctx_message(ctx));
						return 2;
					}
					t[r] = cpu() - t0;
					listed = 0;
					for (const char *p = out; (p = strstr(p, "\"action\": ")); p++)
						listed++;
					free(out);
				}
				qsort(t, (size_t)runs, sizeof *t, cmp);
				double med = t[runs / 2];
				worst = med > worst ? med : worst;
				printf("%-9s %-16s %-10s %8zu %10.2f\n", sets[s][0], fray_game_unit(g, u), goals[k], listed,
				       med * 1e3);
			}
		printf("%s: slowest advice %.2f ms (target 300 ms)%s\n", sets[s][0], worst * 1e3,
		       worst > 0.3 ? ": MISSED" : "");
		missed += worst > 0.3;
		fray_game_free(g);
	}
	fray_ctx_free(ctx);
	return check && missed ? 1 : 0;
}
