/* fray report --html FILE [REQUEST|GAME|SWEEP|-]: one request's answer as the
 * page shows it (its plots drawn here too, svg_plot.h, so they show with
 * scripts off), a sweep's JSON as plots and a table (no script at all),
 * or a game file's forces and log (table_report.c), in one
 * HTML file that needs no server: the page's own CSS and
 * JavaScript inline, and the answer (JSON and the command line's words)
 * as a JSON data block the script draws from. Nothing from the request
 * reaches the HTML outside that block, where every '<' is written \u003c,
 * so no text in a request can close the block or open a tag, but for the
 * plots' texts, escaped by svg_escape (as all of a sweep's page). The request
 * is read as fray request reads it (YAML: comments, single quotes, block
 * style) and goes into the block as JSON written from what was read,
 * never as the text given. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include "embedded.h"
#include "cli.h"
#include "svg_plot.h"
#include "../common/text.h"

extern const embedded_file serve_page_files[];

static const char *page_file(const char *path)
{
	for (const embedded_file *f = serve_page_files; f->path; f++)
		if (!strcmp(f->path, path))
			return (const char *)f->bytes;
	return NULL;
}

/* The page's scripts, in the order index.html loads them: a report inlines
 * each, so it is the page itself, offline. */
static const char *const report_scripts[] = {"page/dom.js", "page/transport.js", "page/app.js", NULL};

/* Whether a page file may go inline in an element that ends at close. */
static bool inline_safe(const char *text, const char *close)
{
	for (const char *p = text; (p = strchr(p, '<')); p++)
		if (!strncasecmp(p, close, strlen(close)) || !strncmp(p, "<!--", 4))
			return false;
	return true;
}

static bool scripts_inline_safe(void)
{
	for (const char *const *f = report_scripts; *f; f++)
		if (!page_file(*f) || !inline_safe(page_file(*f), "</script"))
			return false;
	return true;
}

/* The HTML being made; failed once memory ran out. */
typedef struct html_buf {
	char *s;
	size_t len, cap;
	bool failed;
} html_buf;

static void put(html_buf *o, const char *s, size_t n)
{
	if (o->failed)
		return;
	if (o->len + n + 1 > o->cap) {
		size_t cap = 2 * (o->len + n + 1) + 4096;
		char *more = realloc(o->s, cap);
		if (!more) {
			o->failed = true;
			return;
		}
		o->s = more;
		o->cap = cap;
	}
	memcpy(o->s + o->len, s, n);
	o->len += n;
	o->s[o->len] = 0;
}

static void out_add(html_buf *o, const char *s)
{
	put(o, s, strlen(s));
}

/* Appends s with every '<' as \u003c (s is JSON: a '<' is inside a string,
 * where the escape means the same). */
static void add_json(html_buf *o, const char *s)
{
	while (*s) {
		size_t n = strcspn(s, "<");
		put(o, s, n);
		s += n;
		if (*s == '<') {
			out_add(o, "\\u003c");
			s++;
		}
	}
}

static char *json_quote(const char *text)
{
	size_t n = fray_json_string(text, NULL, 0) + 1;
	char *q = malloc(n);
	if (q)
		fray_json_string(text, q, n);
	return q;
}

/* A scalar written without quotes. The request's readers take a number
 * as strtoll, strtoull or a decimal reader do, so "007", "+5", ".5" or
 * "5." may have been accepted: these are written in JSON's spelling of
 * the same number. JSON's own numbers and literals stay as they are;
 * anything else can only be a string in JSON (the request's readers
 * refuse such a plain value wherever it stands, so it never gets here
 * from a request that ran). */
static void plain_json(FILE *f, const char *s)
{
	if (!strcmp(s, "true") || !strcmp(s, "false") || !strcmp(s, "null") || text_is_json_number(s)) {
		fputs(s, f);
		return;
	}
	const char *p = s + (*s == '+' || *s == '-');
	size_t whole = strspn(p, "0123456789"), frac = 0;
	if (p[whole] == '.')
		frac = strspn(p + whole + 1, "0123456789");
	if ((whole || frac) && !p[whole + (p[whole] == '.') + frac]) {
		while (whole > 1 && *p == '0') /* leading zeros off */
			p++, whole--;
		fprintf(f, "%s%.*s%s%.*s", *s == '-' ? "-" : "", (int)whole, whole ? p : "0", frac ? "." : "",
			(int)frac, p + whole + 1);
		return;
	}
	char *q = json_quote(s);
	fputs(q ? q : "null", f);
	free(q);
}

/* A node of the request as JSON; with format, the object given a
 * "format" member first (the text run of the same request). */
static void node_as_json(FILE *f, const fray_node *n, const char *format)
{
	size_t len = fray_node_len(n);
	char *q;
	switch (fray_node_kind_of(n)) {
	case FRAY_NODE_SCALAR:
		if (fray_node_plain(n)) {
			plain_json(f, fray_node_scalar(n));
		} else {
			q = json_quote(fray_node_scalar(n));
			fputs(q ? q : "null", f);
			free(q);
		}
		break;
	case FRAY_NODE_SEQ:
		fputc('[', f);
		for (size_t i = 0; i < len; i++) {
			fputs(i ? ", " : "", f);
			node_as_json(f, fray_node_item(n, i), NULL);
		}
		fputc(']', f);
		break;
	case FRAY_NODE_MAP:
		fputc('{', f);
		if (format)
			fprintf(f, "\"format\": \"%s\"%s", format, len ? ", " : "");
		for (size_t i = 0; i < len; i++) {
			fputs(i ? ", " : "", f);
			node_as_json(f, fray_node_key(n, i), NULL);
			fputs(": ", f);
			node_as_json(f, fray_node_value(n, i), NULL);
		}
		fputc('}', f);
		break;
	}
}

/* The request as read, as JSON (malloc'd; NULL when memory ran out). */
static char *request_json(const fray_node *root, const char *format)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (!f)
		return NULL;
	if (root)
		node_as_json(f, root, format);
	else
		fputs("null", f);
	if (fclose(f) != 0) {
		free(text);
		return NULL;
	}
	return text;
}

/* The request's problem if it names "format" (the report shows both). */
static int refuse_format(const char *path, const fray_node *root)
{
	for (size_t k = 0; root && fray_node_kind_of(root) == FRAY_NODE_MAP && k < fray_node_len(root); k++) {
		const fray_node *key = fray_node_key(root, k);
		const char *name = fray_node_scalar(key);
		if (name && !strcmp(name, "format"))
			return cli_error("report", EXIT_BAD_INPUT, "%s:%d:%d: \"format\": leave it out; a report has "
					 "the JSON and the words both", path, fray_node_line(key), fray_node_col(key));
	}
	return EXIT_OK;
}

/* Runs one request; the failure told as `fray request` tells it. */
static int run(fray_ctx *ctx, const char *path, const char *request, char **out)
{
	int status = EXIT_OK;
	if (fray_request(ctx, request, out) != FRAY_OK) {
		const char *msg = fray_ctx_message(ctx);
		fray_status s = fray_ctx_status(ctx);
		int code = cli_exit_for(s);
		status = !strncmp(msg, "request:", 8) ? cli_error("report", code, "%s:%s", path, msg + 8)
						      : cli_fail("report", ctx);
	}
	return status;
}

static char *html_of(const char *request, const char *json, const char *text, const char *plots, const char *css)
{
	html_buf o = {0};
	out_add(&o, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
		    "<title>fray report</title>\n<style>\n");
	out_add(&o, css);
	out_add(&o, "</style>\n</head>\n<body>\n<header><h1>fray</h1><p class=\"tag\" id=\"report-what\"></p></header>\n"
		    "<main>\n<p id=\"error\" class=\"error\" hidden></p>\n"
		    "<div id=\"results\"><section id=\"result\"></section></div>\n");
	out_add(&o, plots); /* drawn here: they show with scripts off */
	out_add(&o, "</main>\n"
		    "<footer><p>Made by <code>fray report</code>; the request below replays it with "
		    "<code>fray request</code>.</p><pre id=\"report-request\"></pre></footer>\n"
		    "<script type=\"application/json\" id=\"fray-report\">{\"request\": ");
	add_json(&o, request);
	out_add(&o, ", \"response\": ");
	add_json(&o, json);
	out_add(&o, ", \"text\": ");
	char *quoted = json_quote(text);
	if (quoted)
		add_json(&o, quoted);
	free(quoted);
	out_add(&o, "}</script>\n");
	for (const char *const *f = report_scripts; *f; f++) {
		out_add(&o, "<script>\n");
		out_add(&o, page_file(*f));
		out_add(&o, "</script>\n");
	}
	out_add(&o, "</body>\n</html>\n");
	if (!quoted || o.failed) {
		free(o.s);
		return NULL;
	}
	return o.s;
}

/* ---- Plots drawn here (svg_plot.h), so the file reads with scripts off ---- */

/* A number of the answer (a plain scalar); NaN when absent or not one. */
static double num(const fray_node *n)
{
	const char *s = fray_node_kind_of(n) == FRAY_NODE_SCALAR ? fray_node_scalar(n) : NULL;
	if (!s || !text_is_json_number(s))
		return NAN;
	return strtod(s, NULL);
}

static const char *scalar(const fray_node *n)
{
	return fray_node_kind_of(n) == FRAY_NODE_SCALAR ? fray_node_scalar(n) : NULL;
}

/* A rate {"p", "lo", "hi"} read into v[i], lo[i], hi[i] (NaN when absent). */
static void read_rate(const fray_node *rate, double *v, double *lo, double *hi, size_t i)
{
	v[i] = num(fray_map_get(rate, "p"));
	lo[i] = num(fray_map_get(rate, "lo"));
	hi[i] = num(fray_map_get(rate, "hi"));
}

static bool is_true(const fray_node *n)
{
	const char *s = scalar(n);
	return s && !strcmp(s, "true");
}

/* Side i's name: "sides" as names or as objects with a "name"; else
 * "side 1", "side 2" (a sweep before the names were written). */
static const char *side_name(const fray_node *root, size_t i, char fallback[16])
{
	const fray_node *s = fray_node_item(fray_map_get(root, "sides"), i);
	const char *name = scalar(s) ? scalar(s) : scalar(fray_map_get(s, "name"));
	if (name)
		return name;
	snprintf(fallback, 16, "side %zu", i + 1);
	return fallback;
}

/* A knob's values in the order of the plot: each once, as numbers
 * from low to high when every one is a number, else as first met. */
static size_t knob_values(const fray_node *points, size_t knob, const char **out)
{
	size_t n = 0, np = fray_node_len(points);
	bool numeric = true;
	for (size_t i = 0; i < np; i++) {
		const char *v = scalar(fray_node_item(fray_map_get(fray_node_item(points, i), "values"), knob));
		if (!v)
			continue;
		size_t k = 0;
		while (k < n && strcmp(out[k], v))
			k++;
		if (k == n) {
			out[n++] = v;
			numeric &= text_is_json_number(v);
		}
	}
	for (size_t i = 1; numeric && i < n; i++) /* insertion sort: a knob has few values */
		for (size_t k = i; k > 0 && strtod(out[k - 1], NULL) > strtod(out[k], NULL); k--) {
			const char *t = out[k];
			out[k] = out[k - 1];
			out[k - 1] = t;
		}
	return n;
}

static long index_of(const char *const *values, size_t n, const char *v)
{
	for (size_t k = 0; v && k < n; k++)
		if (!strcmp(values[k], v))
			return (long)k;
	return -1;
}

/* One knob: each side's win rate and the draw, with their bands. */
static void sweep_line(FILE *f, const fray_node *root, const fray_node *points, const char **xs, double *buf)
{
	size_t n = knob_values(points, 0, xs), np = fray_node_len(points);
	if (n > SVG_MAX_POINTS) {
		fprintf(f, "<p class=\"note\">%zu values: too many to plot (at most %d); the table has them.</p>\n", n,
			SVG_MAX_POINTS);
		return;
	}
	for (size_t i = 0; i < 9 * n; i++)
		buf[i] = NAN;
	char fb[2][16];
	svg_series s[3] = {{side_name(root, 0, fb[0]), buf, buf + n, buf + 2 * n},
			   {side_name(root, 1, fb[1]), buf + 3 * n, buf + 4 * n, buf + 5 * n},
			   {"draw", buf + 6 * n, buf + 7 * n, buf + 8 * n}};
	long baseline = -1;
	for (size_t i = 0; i < np; i++) {
		const fray_node *pt = fray_node_item(points, i);
		long x = index_of(xs, n, scalar(fray_node_item(fray_map_get(pt, "values"), 0)));
		if (x < 0)
			continue;
		const fray_node *wins = fray_map_get(pt, "wins");
		for (size_t k = 0; k < 2; k++)
			read_rate(fray_node_item(wins, k), (double *)s[k].p, (double *)s[k].lo, (double *)s[k].hi,
				  (size_t)x);
		read_rate(fray_map_get(pt, "draw"), (double *)s[2].p, (double *)s[2].lo, (double *)s[2].hi, (size_t)x);
		if (is_true(fray_map_get(pt, "baseline")))
			baseline = x;
	}
	const char *knob = scalar(fray_node_item(fray_map_get(root, "vary"), 0));
	char title[SVG_MAX_LABEL + 32];
	snprintf(title, sizeof title, "Win rates by %.*s", SVG_MAX_LABEL, knob ? knob : "value");
	svg_line_plot p = {title, knob ? knob : "value", "win rate", xs, n, s, 3, baseline};
	svg_line(f, &p);
}

/* Two knobs: a heat map of each side's win rate, a cell a point. */
static void sweep_heat(FILE *f, const fray_node *root, const fray_node *points, const char **xs, const char **ys)
{
	double v[SVG_MAX_AXIS * SVG_MAX_AXIS];
	bool has[SVG_MAX_AXIS * SVG_MAX_AXIS];
	size_t ny = knob_values(points, 0, ys), nx = knob_values(points, 1, xs), np = fray_node_len(points);
	if (nx > SVG_MAX_AXIS || ny > SVG_MAX_AXIS) {
		fprintf(f, "<p class=\"note\">%zu by %zu values: too many to plot (at most %d a side); the table has "
			   "them.</p>\n", ny, nx, SVG_MAX_AXIS);
		return;
	}
	const fray_node *vary = fray_map_get(root, "vary");
	const char *knob_y = scalar(fray_node_item(vary, 0)), *knob_x = scalar(fray_node_item(vary, 1));
	for (size_t side = 0; side < 2; side++) {
		long baseline = -1;
		for (size_t i = 0; i < nx * ny; i++)
			v[i] = NAN, has[i] = false;
		for (size_t i = 0; i < np; i++) {
			const fray_node *pt = fray_node_item(points, i), *vals = fray_map_get(pt, "values");
			long y = index_of(ys, ny, scalar(fray_node_item(vals, 0)));
			long x = index_of(xs, nx, scalar(fray_node_item(vals, 1)));
			if (x < 0 || y < 0)
				continue;
			size_t cell = (size_t)y * nx + (size_t)x;
			has[cell] = true;
			v[cell] = num(fray_map_get(fray_node_item(fray_map_get(pt, "wins"), side), "p"));
			if (is_true(fray_map_get(pt, "baseline")))
				baseline = (long)cell;
		}
		char fb[16], title[SVG_MAX_LABEL + 32];
		snprintf(title, sizeof title, "%s: win rate", side_name(root, side, fb));
		svg_heat_map h = {title, knob_x ? knob_x : "value", knob_y ? knob_y : "value", xs, ys, nx, ny, v,
				  has, baseline};
		svg_heat(f, &h);
	}
}

/* A rate as "94.3% (93.2-95.2)" in a table cell. */
static void rate_cell(FILE *f, const fray_node *rate)
{
	double p = num(fray_map_get(rate, "p")), lo = num(fray_map_get(rate, "lo")), hi = num(fray_map_get(rate, "hi"));
	if (!isfinite(p)) {
		fputs("<td class=\"num\">n/a</td>", f);
		return;
	}
	fprintf(f, "<td class=\"num\">%.1f%%", 100 * p);
	if (isfinite(lo) && isfinite(hi))
		fprintf(f, " <small>(%.1f&ndash;%.1f)</small>", 100 * lo, 100 * hi);
	fputs("</td>", f);
}

/* Every point in words: the knobs' values, each side's win rate, the draw. */
static void sweep_table(FILE *f, const fray_node *root, const fray_node *points)
{
	const fray_node *vary = fray_map_get(root, "vary");
	char fb[16];
	fputs("<div class=\"table-wrap\"><table id=\"sweep-points\">\n<tr>", f);
	for (size_t k = 0; k < fray_node_len(vary); k++) {
		fputs("<th>", f);
		svg_escape(f, scalar(fray_node_item(vary, k)));
		fputs("</th>", f);
	}
	for (size_t side = 0; side < 2; side++) {
		fputs("<th>", f);
		svg_escape(f, side_name(root, side, fb));
		fputs(" wins</th>", f);
	}
	fputs("<th>draw</th><th></th></tr>\n", f);
	for (size_t i = 0; i < fray_node_len(points); i++) {
		const fray_node *pt = fray_node_item(points, i), *vals = fray_map_get(pt, "values");
		bool base = is_true(fray_map_get(pt, "baseline"));
		fprintf(f, "<tr%s>", base ? " class=\"baseline\"" : "");
		for (size_t k = 0; k < fray_node_len(vary); k++) {
			fputs("<td>", f);
			svg_escape(f, scalar(fray_node_item(vals, k)));
			fputs("</td>", f);
		}
		for (size_t side = 0; side < 2; side++)
			rate_cell(f, fray_node_item(fray_map_get(pt, "wins"), side));
		rate_cell(f, fray_map_get(pt, "draw"));
		fprintf(f, "<td>%s</td></tr>\n", base ? "baseline" : "");
	}
	fputs("</table></div>\n", f);
}

/* Whether a document is a sweep's JSON (fray adbg sweep --json). */
static bool is_sweep(const fray_node *root)
{
	return fray_node_kind_of(root) == FRAY_NODE_MAP && !fray_map_get(root, "procedure") &&
	       fray_node_kind_of(fray_map_get(root, "points")) == FRAY_NODE_SEQ &&
	       fray_node_kind_of(fray_map_get(root, "vary")) == FRAY_NODE_SEQ;
}

/* A sweep's plots and table (malloc'd HTML; NULL when memory ran out). */
static char *sweep_body(const fray_node *root)
{
	const fray_node *points = fray_map_get(root, "points");
	size_t np = fray_node_len(points), nk = fray_node_len(fray_map_get(root, "vary"));
	char *text = NULL;
	size_t len = 0;
	const char **xs = calloc(2 * np + 2, sizeof *xs);
	double *buf = calloc(9 * np + 9, sizeof *buf);
	FILE *f = xs && buf ? open_memstream(&text, &len) : NULL;
	if (f) {
		const char *scenario = scalar(fray_map_get(root, "scenario")), *partial = scalar(fray_map_get(root, "partial"));
		fputs("<section id=\"sweep\"><h2>Sweep: ", f);
		svg_escape(f, scenario ? scenario : "a scenario");
		fprintf(f, "</h2>\n<p class=\"summary\">%zu points, ", np);
		svg_escape(f, scalar(fray_map_get(root, "trials")) ? scalar(fray_map_get(root, "trials")) : "?");
		fputs(" battles each (policy ", f);
		svg_escape(f, scalar(fray_map_get(root, "policy")) ? scalar(fray_map_get(root, "policy")) : "?");
		fputs(", seed ", f);
		svg_escape(f, scalar(fray_map_get(root, "seed")) ? scalar(fray_map_get(root, "seed")) : "?");
		fputs("). Bands and brackets: 95% intervals.</p>\n", f);
		if (partial && strcmp(partial, "false"))
			fputs("<p class=\"note\">Partial: the sweep stopped before every battle was fought.</p>\n", f);
		if (nk == 1)
			sweep_line(f, root, points, xs, buf);
		else if (nk == 2)
			sweep_heat(f, root, points, xs, xs + np + 1);
		else
			fprintf(f, "<p class=\"note\">%zu knobs: a plot shows one (a line) or two (a heat map); the "
				   "table below has every point.</p>\n", nk);
		sweep_table(f, root, points);
		fputs("</section>\n", f);
	}
	if (f && fclose(f) != 0) {
		free(text);
		text = NULL;
	}
	free(xs);
	free(buf);
	return text;
}

/* A battle's answer (simulated or exact): who wins, and each side's losses. */
static void battle_plots(FILE *f, const fray_node *root)
{
	const fray_node *sides = fray_map_get(root, "sides");
	size_t ns = fray_node_len(sides);
	if (ns < 1 || ns > 2)
		return;
	const char *names[3];
	double v[3], lo[3], hi[3];
	for (size_t i = 0; i < ns; i++) {
		names[i] = scalar(fray_map_get(fray_node_item(sides, i), "name"));
		names[i] = names[i] ? names[i] : "a side";
		read_rate(fray_map_get(fray_node_item(sides, i), "win"), v, lo, hi, i);
	}
	names[ns] = "draw";
	read_rate(fray_map_get(root, "draw"), v, lo, hi, ns);
	svg_bar_chart wins = {"Who wins", "chance (whiskers: 95% interval)", names, ns + 1, v, lo, hi};
	svg_bars(f, &wins);
	for (size_t i = 0; i < ns; i++) {
		const fray_node *dist = fray_map_get(fray_map_get(fray_node_item(sides, i), "losses"), "p");
		size_t n = fray_node_len(dist);
		if (!n || n > SVG_MAX_POINTS)
			continue;
		double p[SVG_MAX_POINTS];
		char counts[SVG_MAX_POINTS][24], title[SVG_MAX_LABEL + 32];
		const char *labels[SVG_MAX_POINTS];
		for (size_t k = 0; k < n; k++) {
			p[k] = num(fray_node_item(dist, k));
			snprintf(counts[k], sizeof counts[k], "%zu lost", k);
			labels[k] = counts[k];
		}
		snprintf(title, sizeof title, "%.*s: units lost", SVG_MAX_LABEL, names[i]);
		svg_bar_chart losses = {title, "chance", labels, n, p, NULL, NULL};
		svg_bars(f, &losses);
	}
}

/* An outcome's words: its "result" and "effect" when it has them, else
 * its members as "name value". */
static void outcome_label(char *out, size_t cap, const fray_node *o)
{
	const char *result = scalar(fray_map_get(o, "result")), *effect = scalar(fray_map_get(o, "effect"));
	if (effect) {
		snprintf(out, cap, "%s%s%s", result ? result : "", result ? ": " : "", effect);
		return;
	}
	textbuf t = text_on(out, cap);
	if (scalar(o))
		text_add(&t, "%s", scalar(o));
	for (size_t k = 0; k < fray_node_len(o) && fray_node_kind_of(o) == FRAY_NODE_MAP; k++) {
		const fray_node *v = fray_node_value(o, k);
		text_add(&t, "%s%s ", k ? ", " : "", scalar(fray_node_key(o, k)));
		if (fray_node_kind_of(v) == FRAY_NODE_SEQ) { /* a list of scalars, as "0-2" */
			for (size_t i = 0; i < fray_node_len(v); i++)
				text_add(&t, "%s%s", i ? "-" : "", scalar(fray_node_item(v, i)) ? scalar(fray_node_item(v, i)) : "...");
		} else {
			text_add(&t, "%s", scalar(v) ? scalar(v) : "...");
		}
	}
}

/* Exact odds: a bar an outcome. */
static void odds_plot(FILE *f, const fray_node *outcomes)
{
	size_t n = fray_node_len(outcomes);
	if (n > SVG_MAX_POINTS) {
		fprintf(f, "<p class=\"note\">%zu outcomes: too many to plot (at most %d).</p>\n", n, SVG_MAX_POINTS);
		return;
	}
	double p[SVG_MAX_POINTS];
	char words[SVG_MAX_POINTS][96];
	const char *labels[SVG_MAX_POINTS];
	for (size_t i = 0; i < n; i++) {
		const fray_node *o = fray_node_item(outcomes, i);
		p[i] = num(fray_map_get(o, "p"));
		outcome_label(words[i], sizeof words[i], fray_map_get(o, "outcome"));
		labels[i] = words[i];
	}
	svg_bar_chart bars = {"Outcomes", "chance", labels, n, p, NULL, NULL};
	svg_bars(f, &bars);
}

/* A whole battle's odds (adbg.battle, mode odds): its "summary" as who
 * wins, the interval from "ci95"; the sides named by "sides". */
static void summary_plot(FILE *f, const fray_node *root)
{
	const fray_node *summary = fray_map_get(root, "summary"), *wins = fray_map_get(summary, "wins");
	size_t ns = fray_node_len(wins);
	if (ns < 1 || ns > 2)
		return;
	const char *names[3];
	double v[3], lo[3], hi[3];
	char fb[2][16];
	for (size_t i = 0; i <= ns; i++) {
		const fray_node *rate = i < ns ? fray_node_item(wins, i) : fray_map_get(summary, "draw");
		names[i] = i < ns ? side_name(root, i, fb[i]) : "draw";
		v[i] = num(fray_map_get(rate, "p"));
		lo[i] = num(fray_node_item(fray_map_get(rate, "ci95"), 0));
		hi[i] = num(fray_node_item(fray_map_get(rate, "ci95"), 1));
	}
	svg_bar_chart chart = {"Who wins", "chance (whiskers: 95% interval)", names, ns + 1, v, lo, hi};
	svg_bars(f, &chart);
}

/* The plots of a request's answer, as HTML (malloc'd; "" when it has
 * none; NULL when memory ran out). The answer is read back on a context
 * of its own, so that a failure here never stands in for a later one's
 * message; one past what a document may be (FRAY_DOC_MAX_BYTES) gets a
 * note instead of plots, the page's script still draws its charts. */
static char *answer_plots(const char *json)
{
	if (strlen(json) > FRAY_DOC_MAX_BYTES)
		return strdup("<p class=\"note\">The answer is too large to plot here; the charts above show it.</p>\n");
	fray_ctx *ctx = fray_ctx_new(NULL, NULL);
	fray_doc *doc = NULL;
	if (!ctx)
		return NULL;
	if (fray_doc_load_string(ctx, "(the answer)", json, strlen(json), &doc) != FRAY_OK) {
		fray_doc_free(doc);
		fray_ctx_free(ctx);
		return strdup(""); /* no plots; the page's charts are still there */
	}
	const fray_node *root = fray_doc_root(doc);
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (f) {
		const fray_node *outcomes = fray_map_get(root, "outcomes");
		/* a simulation's sides are objects with their rates; odds name them */
		bool battle = fray_node_kind_of(fray_map_get(fray_node_item(fray_map_get(root, "sides"), 0), "win")) ==
			      FRAY_NODE_MAP;
		if (battle || fray_node_kind_of(outcomes) == FRAY_NODE_SEQ) {
			fputs("<section id=\"report-plots\"><h2>Plots</h2>\n", f);
			if (battle) {
				battle_plots(f, root);
			} else {
				summary_plot(f, root);
				odds_plot(f, outcomes);
			}
			fputs("</section>\n", f);
		}
		if (fclose(f) != 0) {
			free(text);
			text = NULL;
		}
	}
	fray_doc_free(doc);
	fray_ctx_free(ctx);
	return text;
}

/* A sweep's page: its plots and its table, no script at all. */
static char *sweep_html(const char *body, const char *css)
{
	html_buf o = {0};
	out_add(&o, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
		    "<title>fray sweep report</title>\n<style>\n");
	out_add(&o, css);
	out_add(&o, "svg.plot { display: block; margin: 1rem 0; }\ntr.baseline td { font-weight: 600; }\n"
		    "</style>\n</head>\n<body>\n<header><h1>fray</h1><p class=\"tag\">a sweep</p></header>\n<main>\n");
	out_add(&o, body);
	out_add(&o, "</main>\n<footer><p>Made by <code>fray report</code> from the JSON of <code>fray adbg sweep "
		    "--json</code>.</p></footer>\n</body>\n</html>\n");
	if (o.failed) {
		free(o.s);
		return NULL;
	}
	return o.s;
}

/* A game file's page, through the game's API (include/fray/game.h). */
static char *game_html(fray_ctx *ctx, const char *name, const char *text, const char *css, int *status)
{
	fray_game *game = NULL;
	char *html = NULL;
	if (fray_game_load(ctx, name, text, strlen(text), &game) != FRAY_OK ||
	    fray_game_report_html(game, css, &html) != FRAY_OK)
		*status = cli_fail("report", ctx);
	fray_game_free(game);
	return html;
}

int cmd_report(int argc, char **argv)
{
	const char *out_path = NULL, *in_path = NULL;
	for (int i = 0; i < argc; i++) {
		if (cli_is_help(argv[i]))
			return cli_help_topic(stdout, "report") ? EXIT_OK : EXIT_RUNTIME;
		if (!strcmp(argv[i], "--html")) {
			if (out_path || i + 1 >= argc)
				return cli_error("report", EXIT_BAD_INPUT, out_path ? "--html given twice"
										     : "--html: expected an output FILE");
			out_path = argv[++i];
		} else if (!in_path && (argv[i][0] != '-' || !strcmp(argv[i], "-"))) {
			in_path = argv[i];
		} else {
			return cli_error("report", EXIT_BAD_INPUT, "unexpected argument '%s' (fray report --html FILE "
					 "[REQUEST|GAME|SWEEP|-])", argv[i]);
		}
	}
	if (!out_path)
		return cli_error("report", EXIT_BAD_INPUT, "--html FILE is needed (the report's file)");
	if (!in_path)
		in_path = "-";
	struct stat in_st, out_st;
	if (strcmp(in_path, "-") != 0 && stat(in_path, &in_st) == 0 && stat(out_path, &out_st) == 0 &&
	    in_st.st_dev == out_st.st_dev && in_st.st_ino == out_st.st_ino)
		return cli_error("report", EXIT_BAD_INPUT, "--html %s: that is the request; fray will not write "
				 "over it (choose another file)", out_path);
	/* one context for both runs: it remembers the files they read, so the
	 * report is never written over a scenario or a mix it used */
	fray_ctx *ctx = fray_ctx_new(NULL, NULL);
	if (!ctx)
		return cli_error("report", EXIT_RUNTIME, "out of memory");
	int status = cli_output_check("report", ctx, out_path, "--html", NULL);
	const char *css = page_file("page/app.css");
	if (status == EXIT_OK && (!css || !inline_safe(css, "</style") || !scripts_inline_safe()))
		status = cli_error("report", EXIT_RUNTIME, "the page's files cannot go inline (a build problem)");
	char *request = NULL, *json = NULL, *text = NULL, *as_json = NULL, *as_text = NULL, *html = NULL, *plots = NULL;
	const char *name = strcmp(in_path, "-") ? in_path : "(stdin)";
	/* each kind of file within its own budget, the one its other readers
	 * hold: a game file fray table's (FRAY_GAME_MAX_BYTES, fray_game_load
	 * says it), a request or a sweep's JSON fray request's */
	size_t most = FRAY_GAME_MAX_BYTES > FRAY_REQUEST_MAX_BYTES ? FRAY_GAME_MAX_BYTES : FRAY_REQUEST_MAX_BYTES;
	if (status == EXIT_OK)
		status = cli_read_text("report", in_path, most, &request);
	/* read once: a game file (fray_game: 1), a sweep's JSON or a request */
	fray_doc *doc = NULL;
	if (status == EXIT_OK && fray_doc_load_string(ctx, name, request, strlen(request), &doc) != FRAY_OK)
		status = cli_fail("report", ctx);
	const fray_node *root = doc ? fray_doc_root(doc) : NULL;
	bool game = root && fray_node_kind_of(root) == FRAY_NODE_MAP && fray_map_get(root, "fray_game");
	bool sweep = !game && root && is_sweep(root); /* fray adbg sweep --json: nothing to run */
	bool runs_request = !game && !sweep;
	if (status == EXIT_OK && !game && strlen(request) > FRAY_REQUEST_MAX_BYTES)
		status = cli_error("report", EXIT_BAD_INPUT, "%s: larger than %u bytes (a request's or a sweep's "
				   "limit; a game file may have %u)", name, FRAY_REQUEST_MAX_BYTES, FRAY_GAME_MAX_BYTES);
	if (status == EXIT_OK && game) {
		html = game_html(ctx, name, request, css, &status);
	} else if (status == EXIT_OK && sweep) {
		char *body = sweep_body(root);
		if (!body || !(html = sweep_html(body, css)))
			status = cli_error("report", EXIT_RUNTIME, "out of memory");
		free(body);
	} else if (status == EXIT_OK) {
		status = refuse_format(name, root);
	}
	/* the request as fray request runs it, from the text given; then
	 * the text run and the page's copy from what was read */
	if (status == EXIT_OK && runs_request)
		status = run(ctx, name, request, &json);
	if (status == EXIT_OK && runs_request &&
	    (!(as_json = request_json(root, NULL)) || !(as_text = request_json(root, "text"))))
		status = cli_error("report", EXIT_RUNTIME, "out of memory");
	fray_doc_free(doc);
	if (status == EXIT_OK && runs_request)
		status = run(ctx, name, as_text, &text);
	if (status == EXIT_OK) /* again, now that the runs have read their files */
		status = cli_output_check("report", ctx, out_path, "--html", NULL);
	if (status == EXIT_OK && runs_request && !(plots = answer_plots(json)))
		status = cli_error("report", EXIT_RUNTIME, "out of memory");
	if (status == EXIT_OK && runs_request && !(html = html_of(as_json, json, text, plots, css)))
		status = cli_error("report", EXIT_RUNTIME, "out of memory");
	if (status == EXIT_OK && !cli_write_atomic(out_path, html, strlen(html)))
		status = cli_error("report", EXIT_RUNTIME, "--html %s: cannot write: %s", out_path, strerror(errno));
	free(request);
	free(json);
	free(text);
	free(as_json);
	free(as_text);
	free(plots);
	free(html);
	fray_ctx_free(ctx);
	return status;
}
