/* A progress line on stderr for long work (simulations, battle odds):
 * "[#####.....]  45%  450000/1000000 battles  310000/s  2 s left", or for
 * work bounded by a budget it may stop well short of, exact odds' paths:
 * "450000 paths  2100000/s  3 s so far; the end unknown, the budget's in
 * 14 s". The walk's length is not known before it ends, so no time left is
 * forecast: the budget's time is a bound, said as one (issue 33: "at most
 * 46 s left" read as a forecast for a walk that ended after 10). */
#include <inttypes.h>
#include <time.h>
#include "cli.h"

static double seconds_since(const struct timespec *t0)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - t0->tv_sec) + (double)(t.tv_nsec - t0->tv_nsec) / 1e9;
}

void cli_progress_start(cli_progress *p, const char *unit)
{
	clock_gettime(CLOCK_MONOTONIC, &p->start);
	p->unit = unit;
	p->budget = false;
}

void cli_progress_show(uint64_t done, uint64_t total, void *ud)
{
	const cli_progress *p = ud;
	double el = seconds_since(&p->start), rate = el > 0 ? (double)done / el : 0;
	if (p->budget) {
		fprintf(stderr, "\r%" PRIu64 " %s  %.0f/s  %.0f s so far; ", done, p->unit, rate, el);
		if (rate > 0)
			fprintf(stderr, "the end unknown, the budget's in %.0f s ", (double)(total - done) / rate);
		fflush(stderr);
		return;
	}
	int width = 24, filled = total ? (int)((double)width * (double)done / (double)total) : width;
	char bar[32];
	for (int i = 0; i < width; i++)
		bar[i] = i < filled ? '#' : '.';
	bar[width] = '\0';
	fprintf(stderr, "\r[%s] %3d%%  %" PRIu64 "/%" PRIu64 " %s  %.0f/s  ", bar,
		total ? (int)(100.0 * (double)done / (double)total) : 100, done, total, p->unit, rate);
	if (rate > 0)
		fprintf(stderr, "%.0f s left ", (double)(total - done) / rate);
	fflush(stderr);
}

void cli_progress_clear(void)
{
	fprintf(stderr, "\r%*s\r", 79, "");
}
