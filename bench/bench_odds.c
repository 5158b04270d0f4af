/* Benchmark: exact odds of eight small questions through the public API,
 * each run building its objects afresh (parse, enumerate or convolve, read
 * the answer, free), as issue #16 measured icepool 2.2.2 against fray.
 * Prints the median time per run of each case and its target (icepool's
 * median / 100); exits 1 when a case misses its target and `--check` is
 * given. Results are recorded in docs/performance.md.
 * Usage: bench_odds [--check] [seconds per case, default 0.5] [CASE...]
 * (only the cases named, e.g. X5s, for a profile). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <fray/fray.h>

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static volatile double sink; /* keeps answers alive */

static void sum_dist(const fray_dist *d)
{
	double s = 0;
	for (size_t i = 0; i < fray_dist_count(d); i++)
		s += fray_dist_p(d, i);
	sink = s;
}

static void dice_case(fray_ctx *ctx, const char *text)
{
	fray_dice *dice;
	fray_dist *d;
	if (fray_dice_parse(ctx, text, &dice) != FRAY_OK || fray_dice_dist(dice, &d) != FRAY_OK) {
		fprintf(stderr, "bench_odds: %s: %s\n", text, fray_ctx_message(ctx));
		exit(2);
	}
	sum_dist(d);
	fray_dist_free(d);
	fray_dice_free(dice);
}

static void p1(fray_ctx *ctx) { dice_case(ctx, "2d6"); }
static void p4a(fray_ctx *ctx) { dice_case(ctx, "10d6"); }
static void p4b(fray_ctx *ctx) { dice_case(ctx, "30d12"); }
static void p6(fray_ctx *ctx) { dice_case(ctx, "1d6+2-1d6"); }

/* P3: the re-roll-and-add d6, P(total >= t) for t = 5..12 */
static void p3(fray_ctx *ctx)
{
	fray_dice *dice;
	fray_dist *d;
	if (fray_dice_parse(ctx, "d6!", &dice) != FRAY_OK || fray_dice_dist(dice, &d) != FRAY_OK)
		exit(2);
	double s = 0, p;
	for (int t = 5; t <= 12; t++) {
		fray_dist_range(d, t, INT64_MAX, &p, NULL, 0, NULL);
		s += p;
	}
	sink = s;
	fray_dist_free(d);
	fray_dice_free(dice);
}

/* P2: 20d12, hits on 9+, then the hits roll again, wounds on 7+ */
static void hits_wounds(fray_roller *r, fray_policy *p, const void *in, int64_t *out)
{
	(void)p, (void)in;
	int hits = fray_successes(r, 20, 12, 9, "hits");
	out[0] = fray_successes(r, hits, 12, 7, "wounds");
}

static void p2(fray_ctx *ctx)
{
	fray_dist *d;
	if (fray_enumerate(ctx, hits_wounds, NULL, NULL, 1, NULL, &d) != FRAY_OK)
		exit(2);
	sum_dist(d);
	fray_dist_free(d);
}

/* P5 and X5: 5 (or 10) chits dealt from a cup of 40 in eight kinds; the
 * joint count of kinds 0 and 1. */
static const unsigned cup[8] = {10, 8, 6, 5, 4, 3, 2, 2};

static void deal_proc(fray_roller *r, fray_policy *p, const void *in, int64_t *out)
{
	(void)p;
	unsigned drawn[8];
	fray_deal(r, cup, 8, *(const unsigned *)in, drawn, "chit");
	out[0] = drawn[0];
	out[1] = drawn[1];
}

/* A d6, then the same deal whatever it shows: the deal's splits are walked
 * six times, the last five from its table (issue #33 item 6). */
static void d6_deal_proc(fray_roller *r, fray_policy *p, const void *in, int64_t *out)
{
	fray_die(r, 6, "d6");
	deal_proc(r, p, in, out);
}

static void deal_case_with(fray_ctx *ctx, unsigned k, fray_procedure proc)
{
	fray_dist *d;
	if (fray_enumerate(ctx, proc, NULL, &k, 2, NULL, &d) != FRAY_OK) {
		fprintf(stderr, "bench_odds: deal: %s\n", fray_ctx_message(ctx));
		exit(2);
	}
	sum_dist(d);
	fray_dist_free(d);
}

static void deal_case(fray_ctx *ctx, unsigned k) { deal_case_with(ctx, k, deal_proc); }

/* The same, reading only the two kinds asked (fray_dealt_count): the
 * other six are never split. */
static void dealt_proc(fray_roller *r, fray_policy *p, const void *in, int64_t *out)
{
	(void)p;
	fray_dealt dealt;
	fray_deal_open(r, cup, 8, *(const unsigned *)in, &dealt, "chit");
	out[0] = fray_dealt_count(r, &dealt, 0);
	out[1] = fray_dealt_count(r, &dealt, 1);
}

static void dealt_case(fray_ctx *ctx, unsigned k)
{
	fray_dist *d;
	if (fray_enumerate(ctx, dealt_proc, NULL, &k, 2, NULL, &d) != FRAY_OK)
		exit(2);
	sum_dist(d);
	fray_dist_free(d);
}

static void p5(fray_ctx *ctx) { deal_case(ctx, 5); }
static void p5_read(fray_ctx *ctx) { dealt_case(ctx, 5); }
static void x5(fray_ctx *ctx) { deal_case(ctx, 10); }
static void x5_read(fray_ctx *ctx) { dealt_case(ctx, 10); }
static void x5_d6(fray_ctx *ctx) { deal_case_with(ctx, 10, d6_deal_proc); }

typedef struct bench_case {
	const char *name, *what;
	void (*run)(fray_ctx *ctx);
	double target_us; /* icepool's median / 100; 0: none (a variant shown beside) */
} bench_case;

static const bench_case cases[] = {
	{"P1", "2d6", p1, 1.8},
	{"P2", "20d12 hits (9+) then wounds (7+)", p2, 24},
	{"P3", "d6! , P(>= t) for t = 5..12", p3, 4.6},
	{"P4a", "10d6 sum", p4a, 14},
	{"P4b", "30d12 sum", p4b, 310},
	{"P5", "deal 5 of 40 chits, kinds 0 and 1", p5_read, 38},
	{"P5s", "  the same, every kind split (fray_deal)", p5, 38}, /* icepool asked the same question */
	{"P6", "(1d6+2)-1d6", p6, 2.1},
	{"X5", "deal 10 of 40 chits, kinds 0 and 1", x5_read, 140},
	{"X5s", "  the same, every kind split (fray_deal)", x5, 140}, /* issue #33 item 6 */
	{"X5r", "  the same after a d6 (walked 6 times)", x5_d6, 0}, /* the deal's table */
};

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* The median over batches of the time per run. */
static double median_us(fray_ctx *ctx, const bench_case *c, double seconds)
{
	enum { BATCHES = 31 };
	double t0 = now();
	long per = 1;
	while (now() - t0 < seconds / BATCHES / 4) { /* size a batch */
		c->run(ctx);
		per++;
	}
	double times[BATCHES];
	for (int b = 0; b < BATCHES; b++) {
		double s = now();
		for (long i = 0; i < per; i++)
			c->run(ctx);
		times[b] = (now() - s) / (double)per * 1e6;
	}
	qsort(times, BATCHES, sizeof times[0], cmp_double);
	return times[BATCHES / 2];
}

/* True when no case is named or this one is. */
static bool named(const char *name, const char *const *only, size_t nonly)
{
	for (size_t i = 0; i < nonly; i++)
		if (strcmp(only[i], name) == 0)
			return true;
	return nonly == 0;
}

int main(int argc, char **argv)
{
	bool check = false;
	double seconds = 0.5;
	const char *only[16];
	size_t nonly = 0;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--check") == 0)
			check = true;
		else if (argv[i][0] >= '0' && argv[i][0] <= '9')
			seconds = atof(argv[i]);
		else if (nonly < sizeof only / sizeof only[0])
			only[nonly++] = argv[i];
	}
	fray_ctx *ctx = fray_ctx_new(NULL, NULL);
	int missed = 0;
	printf("%-4s %-38s %12s %12s\n", "case", "question", "median us", "target us");
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		const bench_case *c = &cases[i];
		if (!named(c->name, only, nonly))
			continue;
		double us = median_us(ctx, c, seconds);
		bool ok = c->target_us == 0 || us <= c->target_us;
		missed += !ok;
		if (c->target_us == 0)
			printf("%-4s %-38s %12.2f %12s\n", c->name, c->what, us, "-");
		else
			printf("%-4s %-38s %12.2f %12.1f%s\n", c->name, c->what, us, c->target_us,
			       ok ? "" : "  MISSED");
	}
	fray_ctx_free(ctx);
	return check && missed ? 1 : 0;
}
