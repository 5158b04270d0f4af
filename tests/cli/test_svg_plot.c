/* svg_plot (fray report --html's plots, issue 33 item 2): every text
 * escaped, labels cut to a bound, sizes refused past their limits, a NaN
 * never drawn as a number, every number at its fixed precision. Expected
 * positions are computed here from the plot's frame (the data-top and
 * data-bottom it declares), not copied from a run. */
#define _GNU_SOURCE /* open_memstream */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../../src/cli/svg_plot.c"

/* What fn wrote, as a string (the caller frees). */
typedef struct capture {
	char *text;
	size_t len;
	FILE *f;
} capture;

static void cap_open(capture *c)
{
	c->text = NULL;
	c->len = 0;
	c->f = open_memstream(&c->text, &c->len);
	assert_non_null(c->f);
}

static char *cap_close(capture *c)
{
	assert_int_equal(fclose(c->f), 0);
	return c->text;
}

static size_t count(const char *hay, const char *needle)
{
	size_t n = 0;
	for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

static void escaping(void **state)
{
	(void)state;
	capture c;
	cap_open(&c);
	svg_escape(c.f, "<b a=\"1\" c='2'>&\x01\ttab</b>");
	char *s = cap_close(&c);
	assert_string_equal(s, "&lt;b a=&quot;1&quot; c=&#39;2&#39;&gt;&amp;?\ttab&lt;/b&gt;");
	free(s);
}

/* A hostile name in a title, a category and a legend: no '<' of it left,
 * and the only tags are the plot's own. */
static void names_stay_text(void **state)
{
	(void)state;
	const char *evil = "<script>x</script>";
	const char *xs[] = {evil, "2"};
	double p[] = {0.25, 0.5}, lo[] = {0.2, 0.4}, hi[] = {0.3, 0.6};
	svg_series s = {evil, p, lo, hi};
	svg_line_plot plot = {evil, evil, evil, xs, 2, &s, 1, 0};
	capture c;
	cap_open(&c);
	assert_true(svg_line(c.f, &plot));
	char *out = cap_close(&c);
	assert_null(strstr(out, "<script"));
	assert_true(count(out, "&lt;script&gt;") >= 5);
	free(out);
}

/* A label past SVG_MAX_LABEL bytes is cut on a character's start and
 * ends with an ellipsis; the whole name stays in the <title> (read by a
 * screen reader, never laid out). */
static void long_labels_cut(void **state)
{
	(void)state;
	char name[200] = "";
	for (int i = 0; i < 30; i++)
		strcat(name, "\xC3\xA9"); /* é: two bytes each, 60 bytes */
	capture c;
	cap_open(&c);
	text_at(c.f, 0, 0, "start", name);
	char *out = cap_close(&c);
	const char *open = strchr(out, '>') + 1, *close = strstr(open, "</text>");
	size_t shown = (size_t)(close - open);
	assert_true(shown <= SVG_MAX_LABEL);
	assert_memory_equal(close - 3, "\xE2\x80\xA6", 3);
	assert_int_equal((shown - 3) % 2, 0); /* whole é's only */
	free(out);
}

static void sizes_bounded(void **state)
{
	(void)state;
	static const char *xs[SVG_MAX_POINTS + 1];
	static double v[SVG_MAX_AXIS * (SVG_MAX_AXIS + 1)];
	static bool has[SVG_MAX_AXIS * (SVG_MAX_AXIS + 1)];
	for (size_t i = 0; i <= SVG_MAX_POINTS; i++)
		xs[i] = "x";
	svg_series s[SVG_MAX_SERIES + 1] = {{"a", v, NULL, NULL}};
	for (size_t k = 1; k <= SVG_MAX_SERIES; k++)
		s[k] = s[0];
	svg_line_plot too_long = {"t", "x", "y", xs, SVG_MAX_POINTS + 1, s, 1, -1};
	svg_line_plot too_many = {"t", "x", "y", xs, 3, s, SVG_MAX_SERIES + 1, -1};
	svg_line_plot empty = {"t", "x", "y", xs, 0, s, 1, -1};
	svg_heat_map wide = {"t", "x", "y", xs, xs, SVG_MAX_AXIS + 1, SVG_MAX_AXIS, v, has, -1};
	svg_bar_chart bars = {"t", "x", xs, SVG_MAX_POINTS + 1, v, NULL, NULL};
	capture c;
	cap_open(&c);
	assert_false(svg_line(c.f, &too_long));
	assert_false(svg_line(c.f, &too_many));
	assert_false(svg_line(c.f, &empty));
	assert_false(svg_heat(c.f, &wide));
	assert_false(svg_bars(c.f, &bars));
	char *out = cap_close(&c);
	assert_int_equal(strlen(out), 0); /* refused: nothing written */
	free(out);
	/* at the limits they draw */
	svg_line_plot longest = {"t", "x", "y", xs, SVG_MAX_POINTS, s, SVG_MAX_SERIES, -1};
	svg_heat_map widest = {"t", "x", "y", xs, xs, SVG_MAX_AXIS, SVG_MAX_AXIS, v, has, -1};
	cap_open(&c);
	assert_true(svg_line(c.f, &longest));
	assert_true(svg_heat(c.f, &widest));
	out = cap_close(&c);
	assert_int_equal(count(out, "class=\"mark\""), SVG_MAX_POINTS * SVG_MAX_SERIES);
	assert_int_equal(count(out, "class=\"empty\""), SVG_MAX_AXIS * SVG_MAX_AXIS);
	free(out);
}

/* The y of rate p in a plot whose frame is data-top .. data-bottom. */
static double y_of(const char *svg, double p)
{
	double top = strtod(strstr(svg, "data-top=\"") + 10, NULL);
	double bottom = strtod(strstr(svg, "data-bottom=\"") + 13, NULL);
	return bottom - (bottom - top) * p;
}

/* A NaN is not a mark (the line breaks there), values keep six decimals,
 * positions two, and a rate past 1 is drawn at the top of the frame. */
static void nan_precision_and_clamp(void **state)
{
	(void)state;
	const char *xs[] = {"1", "2", "3", "4"};
	double p[] = {1.0 / 3, NAN, 0.5, 1.5};
	svg_series s = {"a", p, NULL, NULL};
	svg_line_plot plot = {"t", "x", "y", xs, 4, &s, 1, -1};
	capture c;
	cap_open(&c);
	assert_true(svg_line(c.f, &plot));
	char *out = cap_close(&c);
	assert_int_equal(count(out, "class=\"mark\""), 3);
	assert_null(strstr(out, "nan"));
	assert_null(strstr(out, "data-x=\"2\""));
	assert_non_null(strstr(out, "data-p=\"0.333333\""));
	assert_non_null(strstr(out, "data-p=\"1.500000\""));
	char want[64];
	snprintf(want, sizeof want, "cy=\"%.2f\" data-series=\"0\" data-x=\"1\"", y_of(out, 1.0 / 3));
	assert_non_null(strstr(out, want));
	snprintf(want, sizeof want, "cy=\"%.2f\" data-series=\"0\" data-x=\"4\"", y_of(out, 1.0));
	assert_non_null(strstr(out, want));
	const char *d = strstr(strstr(out, "class=\"line\""), " d=\"") + 4;
	size_t moves = 0;
	for (const char *q = d; *q != '"'; q++)
		moves += *q == 'M';
	assert_int_equal(moves, 2); /* two runs: before and after the NaN */
	free(out);

	/* bars and a heat map say "n/a" for a NaN and draw nothing of it */
	const char *labels[] = {"a", "b"};
	double v[] = {NAN, 0.25};
	bool has[] = {true, true};
	svg_bar_chart bars = {"t", "x", labels, 2, v, NULL, NULL};
	svg_heat_map heat = {"t", "x", "y", labels, labels, 2, 1, v, has, -1};
	cap_open(&c);
	assert_true(svg_bars(c.f, &bars));
	assert_true(svg_heat(c.f, &heat));
	out = cap_close(&c);
	assert_int_equal(count(out, "data-v=\"nan\""), 2);
	assert_int_equal(count(out, ">n/a</text>"), 2);
	assert_non_null(strstr(out, "width=\"0.00\""));
	assert_non_null(strstr(out, ">25.0%</text>"));
	assert_non_null(strstr(out, "fill=\"#dddddd\""));
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(escaping),
		cmocka_unit_test(names_stay_text),
		cmocka_unit_test(long_labels_cut),
		cmocka_unit_test(sizes_bounded),
		cmocka_unit_test(nan_precision_and_clamp),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
