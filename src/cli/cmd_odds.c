/* fray odds DICE [--at-least K] [--at-most K] [--exact] [--json]: the exact
 * distribution of a dice expression, as a table with bars or as JSON. */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"

#define BAR_WIDTH 40

/* A horizontal bar of frac (0..1) of BAR_WIDTH cells, in eighths. */
static void print_bar(double frac, bool color)
{
	static const char *const part[] = {"", "▏", "▎", "▍", "▌", "▋", "▊", "▉"};
	long eighths = lround(frac * BAR_WIDTH * 8);
	if (color)
		cli_raw_stdout("\033[36m");
	for (long i = 0; i < eighths / 8; i++)
		fputs("█", stdout);
	fputs(part[eighths % 8], stdout);
	if (color)
		cli_raw_stdout("\033[0m");
}

static void print_json(const char *text, const fray_dist *d, bool query,
		       int64_t lo, int64_t hi, double qp, const char *qexact)
{
	char num[40];
	printf("{\"expression\": %s, \"outcomes\": [", cli_jstr(text));
	for (size_t i = 0; i < fray_dist_count(d); i++) {
		char *ex = cli_exact(d, i);
		fray_double_str(fray_dist_p(d, i), num, sizeof num);
		printf("%s\n  {\"value\": %" PRId64 ", \"p\": %s, \"exact\": \"%s\"}",
		       i ? "," : "", fray_dist_outcome(d, i)[0], num, ex ? ex : "");
		free(ex);
	}
	printf("\n]");
	if (query) {
		fray_double_str(qp, num, sizeof num);
		printf(", \"query\": {");
		if (lo != INT64_MIN)
			printf("\"at_least\": %" PRId64 ", ", lo);
		if (hi != INT64_MAX)
			printf("\"at_most\": %" PRId64 ", ", hi);
		printf("\"p\": %s, \"exact\": \"%s\"}", num, qexact);
	}
	printf("}\n");
}

#define EXACT_SHORT 12   /* a fraction this long is shown without --exact */
#define TAIL_MASS 0.0005 /* a long table leaves out each tail holding less */
#define LONG_TABLE 30

static void print_table(const char *text, const fray_dist *d, bool query, bool exact,
			int64_t lo, int64_t hi, double qp, const char *qexact)
{
	bool color = cli_color(stdout);
	size_t n = fray_dist_count(d);
	double mean = 0, sq = 0, pmax = 0;
	for (size_t i = 0; i < n; i++) {
		double v = (double)fray_dist_outcome(d, i)[0], p = fray_dist_p(d, i);
		mean += v * p;
		sq += v * v * p;
		if (p > pmax)
			pmax = p;
	}
	if (fabs(mean) < 1e-9)
		mean = 0; /* a symmetric difference like 1d6-1d6, not -1.7e-16 */
	printf("%s: %zu outcomes from %" PRId64 " to %" PRId64 ", mean %.4g, sd %.4g\n\n",
	       text, n, fray_dist_outcome(d, 0)[0], fray_dist_outcome(d, n - 1)[0],
	       mean, sqrt(fmax(0, sq - mean * mean)));
	/* a long table (30d12 has 331 values) shows the values that matter:
	 * each tail holding less than 0.05% is left out and said so */
	size_t first = 0, last = n;
	double low = 0, high = 0;
	if (!exact && n > LONG_TABLE) {
		while (first < n && low + fray_dist_p(d, first) < TAIL_MASS)
			low += fray_dist_p(d, first++);
		while (last > first + 1 && high + fray_dist_p(d, last - 1) < TAIL_MASS)
			high += fray_dist_p(d, --last);
	}
	size_t wexact = 5;
	for (size_t i = first; i < last; i++) {
		size_t w = fray_dist_p_exact(d, i, NULL, 0);
		if ((exact || w <= EXACT_SHORT) && w > wexact)
			wexact = w;
	}
	if (first > 0)
		printf("  ... %zu values below %" PRId64 ", together %.3f%%\n", first,
		       fray_dist_outcome(d, first)[0], 100 * low);
	printf("%6s  %8s  %9s  %9s  %-*s\n", "value", "chance", "at least", "at most", (int)wexact, "exact");
	double below = low;
	for (size_t i = first; i < last; i++) {
		char *ex = cli_exact(d, i);
		bool full = ex && (exact || strlen(ex) <= EXACT_SHORT);
		double p = fray_dist_p(d, i), at_most = fmin(1, below + p);
		printf("%6" PRId64 "  %7.3f%%  %8.3f%%  %8.3f%%  %-*s  ", fray_dist_outcome(d, i)[0],
		       100 * p, 100 * (1 - below), 100 * at_most, (int)wexact, full ? ex : "");
		below += p;
		print_bar(p / pmax, color);
		putchar('\n');
		free(ex);
	}
	if (last < n)
		printf("  ... %zu values above %" PRId64 ", together %.3f%%\n", n - last,
		       fray_dist_outcome(d, last - 1)[0], 100 * high);
	if (!exact && (first > 0 || last < n))
		printf("  (--exact shows every value, with its exact fraction)\n");
	if (query) {
		printf("\nP(");
		if (lo != INT64_MIN && hi != INT64_MAX)
			printf("%" PRId64 " <= total <= %" PRId64, lo, hi);
		else if (lo != INT64_MIN)
			printf("total >= %" PRId64, lo);
		else
			printf("total <= %" PRId64, hi);
		bool full = exact || strlen(qexact) <= 2 * EXACT_SHORT;
		printf(") = %s%s%.3f%%\n", full ? qexact : "", full ? " = " : "", 100 * qp);
	}
}

int cmd_odds(int argc, char **argv)
{
	static const char *const known[] = {"--at-least", "--at-most", "--json", "--exact", "--help"};
	cli_args a = {.cmd = "odds", .argc = argc, .argv = argv};
	const char *expr = NULL;
	int64_t lo = INT64_MIN, hi = INT64_MAX, k;
	bool query = false, exact = false;
	fray_format form = FRAY_FORMAT_TEXT;
	while (a.i < argc && a.status == EXIT_OK) {
		if (cli_is_help(argv[a.i]))
			return cli_help_topic(stdout, "odds") ? EXIT_OK : EXIT_RUNTIME;
		if (cli_i64(&a, "--at-least", -100000000, 100000000, &k))
			lo = k, query = true;
		else if (cli_i64(&a, "--at-most", -100000000, 100000000, &k))
			hi = k, query = true;
		else if (cli_format(&a, CLI_FORMAT(FRAY_FORMAT_JSON), &form))
			;
		else if (cli_flag(&a, "--exact"))
			exact = true;
		else if (!expr && (argv[a.i][0] != '-' || argv[a.i][1] == 'd' ||
				   (argv[a.i][1] >= '0' && argv[a.i][1] <= '9')))
			expr = argv[a.i++];
		else
			return cli_unknown(&a, known, 5);
	}
	if (a.status != EXIT_OK)
		return a.status;
	if (!expr)
		return cli_error("odds", EXIT_BAD_INPUT,
				 "expected a dice expression, such as 'fray odds 2d6'");

	fray_ctx *ctx = fray_ctx_new(NULL, NULL);
	if (!ctx)
		return cli_error("odds", EXIT_RUNTIME, "out of memory");
	int status = EXIT_OK;
	fray_dice *dice = NULL;
	fray_dist *d = NULL;
	char *qexact = NULL;
	if (fray_dice_parse(ctx, expr, &dice) != FRAY_OK) {
		status = cli_error("odds", EXIT_BAD_INPUT, "bad dice expression '%s': %s",
				   expr, fray_ctx_message(ctx));
		goto done;
	}
	if (fray_dice_dist(dice, &d) != FRAY_OK) {
		status = cli_fail("odds", ctx);
		goto done;
	}
	double qp = 0;
	if (query) {
		size_t need = 0;
		fray_dist_range(d, lo, hi, &qp, NULL, 0, &need);
		qexact = malloc(need + 1);
		if (!qexact) {
			status = cli_error("odds", EXIT_RUNTIME, "out of memory");
			goto done;
		}
		fray_dist_range(d, lo, hi, &qp, qexact, need + 1, NULL);
	}
	char text[FRAY_DICE_MAX_TEXT * 2];
	fray_dice_format(dice, text, sizeof text);
	if (form == FRAY_FORMAT_JSON)
		print_json(text, d, query, lo, hi, qp, qexact);
	else
		print_table(text, d, query, exact, lo, hi, qp, qexact);
done:
	free(qexact);
	fray_dist_free(d);
	fray_dice_free(dice);
	fray_ctx_free(ctx);
	return status;
}
