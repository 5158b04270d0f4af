/* A progress line on stderr for long work (simulations, battle odds):
 * "[#####.....]  45%  450000/1000000 battles  310000/s  2 s left", or for
 * work bounded by a budget it may stop well short of, exact odds' paths:
 * "450000 paths  2100000/s  3 s so far; the end unknown, the budget's in
 * 14 s". An exact walk by stages says more (cli_progress_enum): "3 s so
 * far, about 4 s left" when the library forecasts its length, else "3 s;
 * stage 18 of 33+, part 2 of 3+, 1300000 waiting; no forecast yet": the
 * stage it is at, the stages known so far, the part (a battle's round)
 * and the last part with states waiting, and the states reached and not
 * yet walked
 * (issue 33: "at most 46 s left" read as a forecast for a walk that ended
 * after 10). */
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

void cli_progress_enum(const fray_enum_progress *pr, void *ud)
{
	const cli_progress *p = ud;
	if (pr->done)
		return;
	double el = seconds_since(&p->start), rate = el > 0 ? (double)pr->paths / el : 0;
	char line[160];
	int n = snprintf(line, sizeof line, "%" PRIu64 " paths  %.0f/s  %.0f s", pr->paths, rate, el);
	size_t at = n > 0 && (size_t)n < sizeof line ? (size_t)n : 0;
	if (pr->forecast_paths && rate > 0)
		snprintf(line + at, sizeof line - at, " so far, about %.0f s left",
			 (double)(pr->forecast_paths - pr->paths) / rate);
	else /* the budget's time is no forecast: not said (issue 33) */
		snprintf(line + at, sizeof line - at, "; stage %" PRIu64 " of %" PRIu64 "+, part %" PRIu64 " of %" PRIu64
			 "+, %" PRIu64 " waiting; no forecast yet", pr->stage, pr->stages_known, pr->part,
			 pr->parts_known, pr->states_waiting);
	/* padded: a shorter line leaves nothing of the one before */
	fprintf(stderr, "\r%-78s", line);
	fflush(stderr);
}

void cli_progress_clear(void)
{
	fprintf(stderr, "\r%*s\r", 79, "");
}
