/* Benchmark: dice throughput of the sampling roller, the aggregating runner
 * on 1..N threads, and the speed of exact odds (enumeration, convolution).
 * Prints one line per measure; results are recorded in docs/performance.md.
 * Usage: bench_dice [scale]   (scale 1 = about a second per measure) */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <fray/fray.h>

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static volatile int64_t sink; /* keeps results alive */

static void d6_proc(fray_roller *r, fray_policy *p, const void *in, int64_t *out)
{
	(void)p, (void)in;
	out[0] = fray_die(r, 6, "d6") + fray_die(r, 6, "d6") + fray_die(r, 6, "d6");
}

int main(int argc, char **argv)
{
	double scale = argc > 1 ? atof(argv[1]) : 1.0;
	fray_ctx *ctx = fray_ctx_new(NULL, NULL);
	long cores = sysconf(_SC_NPROCESSORS_ONLN);

	/* one die at a time, no narration */
	fray_roller *r = fray_roller_sample_new(ctx, 1, 0);
	long n = (long)(200e6 * scale);
	double t0 = now();
	int64_t acc = 0;
	for (long i = 0; i < n; i++)
		acc += fray_die(r, 6, "d6");
	double t = now() - t0;
	sink = acc;
	printf("sample  d6                 %8.1f M dice/s\n", (double)n / t / 1e6);

	/* successes: 20 dice at 9+ on d12 as one event */
	n = (long)(10e6 * scale);
	t0 = now();
	for (long i = 0; i < n; i++)
		acc += fray_successes(r, 20, 12, 9, "shots");
	t = now() - t0;
	sink = acc;
	printf("sample  20d12 at 9+        %8.1f M dice/s\n", 20.0 * (double)n / t / 1e6);
	fray_roller_free(r);

	/* aggregate: 3d6 trials on 1 thread and on every core */
	uint64_t trials = (uint64_t)(40e6 * scale);
	for (unsigned threads = 1; threads <= (unsigned)cores; threads *= 2) {
		fray_dist *d;
		t0 = now();
		fray_aggregate(ctx, d6_proc, NULL, NULL, 1, 7, trials, threads, &d);
		t = now() - t0;
		printf("aggregate 3d6, %u thread%s   %8.1f M trials/s (%.1f M dice/s)\n",
		       threads, threads == 1 ? " " : "s", (double)trials / t / 1e6,
		       3.0 * (double)trials / t / 1e6);
		fray_dist_free(d);
	}

	/* enumeration: 5d6 die by die is 7776 paths */
	fray_dice *dice;
	fray_dice_parse(ctx, "5d6", &dice);
	int reps = (int)(20 * scale) + 1;
	t0 = now();
	for (int i = 0; i < reps; i++) {
		fray_dist *d;
		fray_enumerate(ctx, fray_dice_procedure, NULL, dice, 1, NULL, &d);
		fray_dist_free(d);
	}
	t = now() - t0;
	printf("enumerate 5d6 die by die   %8.3f M paths/s (%.2f ms per odds)\n",
	       7776.0 * reps / t / 1e6, 1e3 * t / reps);
	fray_dice_free(dice);

	/* convolution: the largest expression the parser allows */
	fray_dice_parse(ctx, "100d20+100d6!", &dice);
	t0 = now();
	fray_dist *d;
	fray_dice_dist(dice, &d);
	t = now() - t0;
	printf("convolve 100d20+100d6!     %8.3f s for %zu exact outcomes\n", t,
	       fray_dist_count(d));
	fray_dist_free(d);
	fray_dice_free(dice);
	fray_ctx_free(ctx);
	return 0;
}
