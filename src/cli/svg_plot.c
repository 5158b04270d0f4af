/* Plots as inline SVG (svg_plot.h). Coordinates are written with two
 * decimals, the values in data-* attributes with six, the numbers shown
 * as percentages with one: the same plot always gives the same bytes. */
#include <math.h>
#include <string.h>
#include "svg_plot.h"

/* The drawing's width: narrow enough that its 13-unit text stays readable on
 * a phone (about 10 px at 412 px), drawn larger on a wide screen (max-width). */
enum { WIDTH = 520, MAX_SHOWN = 680 };

/* Series colours, told apart without colour too (the legend names them). */
static const char *const colours[SVG_MAX_SERIES] = {"#1f5fa8", "#b5471b", "#4d7f2a", "#7a4b94",
						    "#8a6d1d", "#2a7f7f", "#a8325e", "#555555"};

void svg_escape(FILE *f, const char *text)
{
	for (const char *s = text ? text : ""; *s; s++) {
		unsigned char c = (unsigned char)*s;
		switch (c) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		default: fputc(c < 0x20 && c != '\t' && c != '\n' ? '?' : c, f); break;
		}
	}
}

/* A label, escaped, cut to SVG_MAX_LABEL bytes at a character's start. */
static void label(FILE *f, const char *text)
{
	text = text ? text : "";
	size_t n = strlen(text);
	if (n <= SVG_MAX_LABEL) {
		svg_escape(f, text);
		return;
	}
	size_t cut = SVG_MAX_LABEL - 3; /* room for the ellipsis's 3 bytes */
	while (cut > 0 && ((unsigned char)text[cut] & 0xC0) == 0x80)
		cut--;
	char part[SVG_MAX_LABEL + 1];
	memcpy(part, text, cut);
	part[cut] = 0;
	svg_escape(f, part);
	fputs("\xE2\x80\xA6", f);
}

/* A value for a data-* attribute: fixed precision, "nan" when not finite. */
static void data_value(FILE *f, const char *name, double v)
{
	if (isfinite(v))
		fprintf(f, " %s=\"%.6f\"", name, v);
	else
		fprintf(f, " %s=\"nan\"", name);
}

static double clamp01(double v)
{
	return v < 0 ? 0 : v > 1 ? 1 : v;
}

/* The opening tag, the title and the description for screen readers. */
static void open_svg(FILE *f, const char *kind, double height, const char *title)
{
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"plot\" data-plot=\"%s\" viewBox=\"0 0 %d %.2f\" "
		   "width=\"100%%\" style=\"max-width:%dpx;height:auto;background:#fff;color:#000\" role=\"img\" aria-label=\"", kind, WIDTH,
		height, MAX_SHOWN);
	label(f, title);
	fputs("\" font-family=\"sans-serif\" font-size=\"13\">\n<title>", f);
	svg_escape(f, title);
	fprintf(f, "</title>\n<text x=\"%d\" y=\"20\" font-weight=\"bold\">", 8);
	label(f, title);
	fputs("</text>\n", f);
}

static void text_at(FILE *f, double x, double y, const char *anchor, const char *text)
{
	fprintf(f, "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"%s\">", x, y, anchor);
	label(f, text);
	fputs("</text>\n", f);
}

/* The rate axis of a line plot: 0% to 100% from bottom to top. */
static void rate_axis(FILE *f, double left, double right, double top, double bottom, const char *name)
{
	for (int t = 0; t <= 4; t++) {
		double y = bottom - (bottom - top) * t / 4;
		fprintf(f, "<line x1=\"%.2f\" x2=\"%.2f\" y1=\"%.2f\" y2=\"%.2f\" stroke=\"#ccc\"/>\n", left, right, y, y);
		fprintf(f, "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"end\">%d%%</text>\n", left - 6, y + 4, t * 25);
	}
	fprintf(f, "<text transform=\"translate(14 %.2f) rotate(-90)\" text-anchor=\"middle\">", (top + bottom) / 2);
	label(f, name);
	fputs("</text>\n", f);
}

static double x_of(size_t i, size_t n, double left, double right)
{
	return n == 1 ? (left + right) / 2 : left + (right - left) * (double)i / (double)(n - 1);
}

static void band(FILE *f, const svg_line_plot *p, const svg_series *s, const char *colour, double left, double right,
		 double top, double bottom)
{
	/* one polygon for each run of points with a finite interval */
	size_t i = 0;
	while (i < p->n) {
		size_t start = i;
		while (i < p->n && isfinite(s->lo[i]) && isfinite(s->hi[i]))
			i++;
		if (i > start) {
			fprintf(f, "<polygon class=\"band\" fill=\"%s\" fill-opacity=\"0.18\" stroke=\"none\" points=\"",
				colour);
			for (size_t k = start; k < i; k++)
				fprintf(f, "%.2f,%.2f ", x_of(k, p->n, left, right),
					bottom - (bottom - top) * clamp01(s->hi[k]));
			for (size_t k = i; k-- > start;)
				fprintf(f, "%.2f,%.2f ", x_of(k, p->n, left, right),
					bottom - (bottom - top) * clamp01(s->lo[k]));
			fputs("\"/>\n", f);
		}
		while (i < p->n && !(isfinite(s->lo[i]) && isfinite(s->hi[i])))
			i++;
	}
}

static void line_and_marks(FILE *f, const svg_line_plot *p, size_t k, double left, double right, double top,
			   double bottom)
{
	const svg_series *s = &p->series[k];
	const char *colour = colours[k];
	bool pen = false;
	fprintf(f, "<path class=\"line\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\" d=\"", colour);
	for (size_t i = 0; i < p->n; i++) {
		if (!isfinite(s->p[i])) {
			pen = false;
			continue;
		}
		fprintf(f, "%s%.2f,%.2f ", pen ? "L" : "M", x_of(i, p->n, left, right),
			bottom - (bottom - top) * clamp01(s->p[i]));
		pen = true;
	}
	fputs("\"/>\n", f);
	for (size_t i = 0; i < p->n; i++) {
		if (!isfinite(s->p[i]))
			continue;
		fprintf(f, "<circle class=\"mark\" r=\"4\" fill=\"%s\" cx=\"%.2f\" cy=\"%.2f\" data-series=\"%zu\" data-x=\"",
			colour, x_of(i, p->n, left, right), bottom - (bottom - top) * clamp01(s->p[i]), k);
		svg_escape(f, p->x[i]);
		fputc('"', f);
		data_value(f, "data-p", s->p[i]);
		if (s->lo && s->hi) {
			data_value(f, "data-lo", s->lo[i]);
			data_value(f, "data-hi", s->hi[i]);
		}
		fputs("><title>", f);
		label(f, s->name);
		fputs(" at ", f);
		label(f, p->x[i]);
		fprintf(f, ": %.1f%%</title></circle>\n", 100 * s->p[i]);
	}
}

bool svg_line(FILE *f, const svg_line_plot *p)
{
	if (!p->n || p->n > SVG_MAX_POINTS || !p->n_series || p->n_series > SVG_MAX_SERIES)
		return false;
	const double left = 60, right = WIDTH - 24, top = 40, bottom = 280;
	double height = bottom + 56 + 20 * (double)p->n_series;
	open_svg(f, "line", height, p->title);
	fprintf(f, "<g data-top=\"%.2f\" data-bottom=\"%.2f\" data-left=\"%.2f\" data-right=\"%.2f\">\n", top, bottom,
		left, right);
	rate_axis(f, left, right, top, bottom, p->y_label);
	/* category labels: all of them while they fit, else about twelve */
	size_t every = p->n <= 12 ? 1 : (p->n + 11) / 12;
	for (size_t i = 0; i < p->n; i++)
		if (i % every == 0 || i == p->n - 1)
			text_at(f, x_of(i, p->n, left, right), bottom + 18, "middle", p->x[i]);
	text_at(f, (left + right) / 2, bottom + 38, "middle", p->x_label);
	if (p->baseline >= 0 && (size_t)p->baseline < p->n) {
		double x = x_of((size_t)p->baseline, p->n, left, right);
		fprintf(f, "<line class=\"baseline\" x1=\"%.2f\" x2=\"%.2f\" y1=\"%.2f\" y2=\"%.2f\" stroke=\"#000\" "
			   "stroke-dasharray=\"4 3\" data-x=\"", x, x, top, bottom);
		svg_escape(f, p->x[p->baseline]);
		fputs("\"/>\n", f);
		text_at(f, x, top - 4, "middle", "baseline (the scenario's own value)");
	}
	for (size_t k = 0; k < p->n_series; k++)
		if (p->series[k].lo && p->series[k].hi)
			band(f, p, &p->series[k], colours[k], left, right, top, bottom);
	for (size_t k = 0; k < p->n_series; k++)
		line_and_marks(f, p, k, left, right, top, bottom);
	for (size_t k = 0; k < p->n_series; k++) {
		double y = bottom + 56 + 20 * (double)k;
		fprintf(f, "<rect x=\"%.2f\" y=\"%.2f\" width=\"14\" height=\"10\" fill=\"%s\"/>\n", left, y - 10,
			colours[k]);
		fprintf(f, "<text x=\"%.2f\" y=\"%.2f\">", left + 20, y);
		label(f, p->series[k].name);
		fputs(p->series[k].lo && p->series[k].hi ? " (band: 95% interval)" : "", f);
		fputs("</text>\n", f);
	}
	fputs("</g>\n</svg>\n", f);
	return true;
}

/* A rate's colour: from pale (0%) to dark blue (100%); grey with no value. */
static void heat_colour(char out[8], double v)
{
	if (!isfinite(v)) {
		strcpy(out, "#dddddd");
		return;
	}
	static const int pale[3] = {0xf2, 0xf6, 0xfb}, dark[3] = {0x08, 0x30, 0x6b};
	int c[3];
	for (int k = 0; k < 3; k++)
		c[k] = (int)lround(pale[k] + (dark[k] - pale[k]) * clamp01(v));
	snprintf(out, 8, "#%02x%02x%02x", (unsigned)c[0], (unsigned)c[1], (unsigned)c[2]);
}

static void heat_cell(FILE *f, const svg_heat_map *h, size_t row, size_t col, double x, double y, double w,
		      double ht)
{
	size_t i = row * h->nx + col;
	double v = h->v[i];
	if (!h->has[i]) {
		fprintf(f, "<rect class=\"empty\" x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"#fff\" "
			   "stroke=\"#ccc\"/>\n", x, y, w, ht);
		return;
	}
	char colour[8];
	heat_colour(colour, v);
	bool base = h->baseline >= 0 && (size_t)h->baseline == i;
	fprintf(f, "<rect class=\"cell%s\" x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"%s\" "
		   "stroke=\"%s\" stroke-width=\"%d\" data-x=\"", base ? " baseline" : "", x, y, w, ht, colour,
		base ? "#d40" : "#fff", base ? 3 : 1);
	svg_escape(f, h->x[col]);
	fputs("\" data-y=\"", f);
	svg_escape(f, h->y[row]);
	fputc('"', f);
	data_value(f, "data-v", v);
	fputs("/>\n", f);
	if (w < 30) /* too narrow for a number: the table beside the plot has them */
		return;
	fprintf(f, "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"middle\" fill=\"%s\">", x + w / 2, y + ht / 2 + 4,
		isfinite(v) && v > 0.55 ? "#fff" : "#000");
	if (isfinite(v))
		fprintf(f, w >= 52 ? "%.1f%%" : "%.0f%%", 100 * v);
	else
		fputs("n/a", f);
	fputs("</text>\n", f);
}

bool svg_heat(FILE *f, const svg_heat_map *h)
{
	if (!h->nx || !h->ny || h->nx > SVG_MAX_AXIS || h->ny > SVG_MAX_AXIS)
		return false;
	const double left = 110, right = WIDTH - 16, top = 40, cell_h = 30;
	double w = (right - left) / (double)h->nx, bottom = top + cell_h * (double)h->ny;
	double height = bottom + 64;
	open_svg(f, "heat", height, h->title);
	fprintf(f, "<g data-top=\"%.2f\" data-left=\"%.2f\">\n", top, left);
	for (size_t r = 0; r < h->ny; r++) {
		text_at(f, left - 6, top + cell_h * (double)r + cell_h / 2 + 4, "end", h->y[r]);
		for (size_t c = 0; c < h->nx; c++)
			heat_cell(f, h, r, c, left + w * (double)c, top + cell_h * (double)r, w, cell_h);
	}
	size_t every = h->nx <= 12 ? 1 : (h->nx + 11) / 12;
	for (size_t c = 0; c < h->nx; c++)
		if (c % every == 0)
			text_at(f, left + w * (double)c + w / 2, bottom + 18, "middle", h->x[c]);
	text_at(f, (left + right) / 2, bottom + 38, "middle", h->x_label);
	fprintf(f, "<text x=\"8\" y=\"%.2f\">", bottom + 58);
	fputs("rows: ", f);
	label(f, h->y_label);
	fputs("; darker: higher", f);
	fputs(h->baseline >= 0 ? "; outlined: the baseline" : "", f);
	fputs("</text>\n</g>\n</svg>\n", f);
	return true;
}

bool svg_bars(FILE *f, const svg_bar_chart *b)
{
	if (!b->n || b->n > SVG_MAX_POINTS)
		return false;
	/* a row a bar: its label above it, the whole width for the bar */
	const double left = 8, right = WIDTH - 64, top = 36, bar_h = 38;
	double bottom = top + bar_h * (double)b->n, height = bottom + 44;
	open_svg(f, "bars", height, b->title);
	fprintf(f, "<g data-top=\"%.2f\" data-left=\"%.2f\" data-right=\"%.2f\">\n", top, left, right);
	for (int t = 0; t <= 4; t++) {
		double x = left + (right - left) * t / 4;
		fprintf(f, "<line x1=\"%.2f\" x2=\"%.2f\" y1=\"%.2f\" y2=\"%.2f\" stroke=\"#ccc\"/>\n", x, x, top, bottom);
		fprintf(f, "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"%s\">%d%%</text>\n", x, bottom + 16,
			t == 0 ? "start" : t == 4 ? "end" : "middle", t * 25);
	}
	text_at(f, (left + right) / 2, bottom + 36, "middle", b->x_label);
	for (size_t i = 0; i < b->n; i++) {
		double y = top + bar_h * (double)i, v = b->v[i], mid = y + 26;
		text_at(f, left, y + 14, "start", b->label[i]);
		double len = isfinite(v) ? (right - left) * clamp01(v) : 0;
		fprintf(f, "<rect class=\"bar\" x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"14\" fill=\"%s\" data-label=\"",
			left, y + 19, len, colours[0]);
		svg_escape(f, b->label[i]);
		fputc('"', f);
		data_value(f, "data-v", v);
		if (b->lo && b->hi) {
			data_value(f, "data-lo", b->lo[i]);
			data_value(f, "data-hi", b->hi[i]);
		}
		fputs("/>\n", f);
		if (b->lo && b->hi && isfinite(b->lo[i]) && isfinite(b->hi[i])) {
			double x0 = left + (right - left) * clamp01(b->lo[i]), x1 = left + (right - left) * clamp01(b->hi[i]);
			fprintf(f, "<path class=\"whisker\" stroke=\"#000\" fill=\"none\" d=\"M%.2f,%.2f L%.2f,%.2f "
				   "M%.2f,%.2f L%.2f,%.2f M%.2f,%.2f L%.2f,%.2f\"/>\n", x0, mid, x1, mid,
				x0, mid - 5, x0, mid + 5, x1, mid - 5, x1, mid + 5);
		}
		fprintf(f, "<text x=\"%.2f\" y=\"%.2f\">", right + 6, mid + 4);
		if (isfinite(v))
			fprintf(f, "%.1f%%", 100 * v);
		else
			fputs("n/a", f);
		fputs("</text>\n", f);
	}
	fputs("</g>\n</svg>\n", f);
	return true;
}
