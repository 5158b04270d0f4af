/* Plots as inline SVG for fray report --html: a line plot with interval
 * bands, a heat map and bars. The SVG needs no script and no font of its
 * own; it scales to its box (viewBox, width 100%), so it never makes a
 * page scroll sideways. Every text is escaped (svg_escape), every number
 * written with a fixed precision, every size bounded (the SVG_MAX_*
 * limits: a plot past them is refused, false, and the caller says so in
 * words). Each mark carries data-* attributes with the value it shows, so
 * a test reads the plotted numbers back. Needs only the C library. */
#ifndef FRAY_SVG_PLOT_H
#define FRAY_SVG_PLOT_H
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum {
	SVG_MAX_POINTS = 200, /* categories of a line plot, bars of a chart */
	SVG_MAX_SERIES = 8,   /* lines of a line plot */
	SVG_MAX_AXIS = 40,    /* rows or columns of a heat map */
	SVG_MAX_LABEL = 40,   /* bytes of a label shown; longer ones are cut (whole UTF-8 characters) */
};

/* Writes text for an HTML or SVG text node or attribute value: & < > " '
 * as entities, control characters (not tab or newline) as '?'. */
void svg_escape(FILE *f, const char *text);

/* One line of a line plot: p[i] at category i, the band from lo[i] to
 * hi[i] (lo, hi NULL: no band). A value that is not finite is not drawn. */
typedef struct svg_series {
	const char *name;
	const double *p, *lo, *hi;
} svg_series;

/* Rates in [0, 1] (drawn clamped) over n categories named x[i]. */
typedef struct svg_line_plot {
	const char *title, *x_label, *y_label;
	const char *const *x;
	size_t n;
	const svg_series *series;
	size_t n_series;
	long baseline; /* the category marked as the baseline, or -1 */
} svg_line_plot;

/* A grid of rates in [0, 1]: v[row * nx + col] at column x[col], row y[row];
 * has[i] false: no point there (an empty cell); v[i] not finite: a point
 * without a value ("n/a"). */
typedef struct svg_heat_map {
	const char *title, *x_label, *y_label;
	const char *const *x, *const *y;
	size_t nx, ny;
	const double *v;
	const bool *has;
	long baseline; /* the cell marked as the baseline, or -1 */
} svg_heat_map;

/* Horizontal bars of rates in [0, 1], label[i] beside bar i, with lo[i]-hi[i]
 * whiskers (lo, hi NULL: none). */
typedef struct svg_bar_chart {
	const char *title, *x_label;
	const char *const *label;
	size_t n;
	const double *v, *lo, *hi;
} svg_bar_chart;

/* Each writes one <svg> element; false (nothing written) past the limits
 * or when there is nothing to draw (n == 0). */
bool svg_line(FILE *f, const svg_line_plot *p);
bool svg_heat(FILE *f, const svg_heat_map *h);
bool svg_bars(FILE *f, const svg_bar_chart *b);

#endif
