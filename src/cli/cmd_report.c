/* fray report --html FILE [REQUEST|GAME|-]: one request's answer as the
 * page shows it, or a game file's forces and log (table_report.c), in one
 * HTML file that needs no server: the page's own CSS and
 * JavaScript inline, and the answer (JSON and the command line's words)
 * as a JSON data block the script draws from. Nothing from the request
 * reaches the HTML outside that block, where every '<' is written \u003c,
 * so no text in a request can close the block or open a tag. The request
 * is read as fray request reads it (YAML: comments, single quotes, block
 * style) and goes into the block as JSON written from what was read,
 * never as the text given. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include "embedded.h"
#include "cli.h"
#include "../common/text.h"

extern const embedded_file fray_page_files[];

static const char *page_file(const char *path)
{
	for (const embedded_file *f = fray_page_files; f->path; f++)
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
		int code = s == FRAY_ERR_INPUT || s == FRAY_ERR_LIMIT ? EXIT_BAD_INPUT : EXIT_RUNTIME;
		status = !strncmp(msg, "request:", 8) ? cli_error("report", code, "%s:%s", path, msg + 8)
						      : cli_fail("report", ctx);
	}
	return status;
}

static char *html_of(const char *request, const char *json, const char *text, const char *css)
{
	html_buf o = {0};
	out_add(&o, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
		    "<title>fray report</title>\n<style>\n");
	out_add(&o, css);
	out_add(&o, "</style>\n</head>\n<body>\n<header><h1>fray</h1><p class=\"tag\" id=\"report-what\"></p></header>\n"
		    "<main>\n<p id=\"error\" class=\"error\" hidden></p>\n"
		    "<div id=\"results\"><section id=\"result\"></section></div>\n</main>\n"
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
					 "[REQUEST|-])", argv[i]);
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
	char *request = NULL, *json = NULL, *text = NULL, *as_json = NULL, *as_text = NULL, *html = NULL;
	const char *name = strcmp(in_path, "-") ? in_path : "(stdin)";
	if (status == EXIT_OK)
		status = cli_read_request("report", in_path, &request);
	/* read once: a game file (fray_game: 1) or a request */
	fray_doc *doc = NULL;
	if (status == EXIT_OK && fray_doc_load_string(ctx, name, request, strlen(request), &doc) != FRAY_OK)
		status = cli_fail("report", ctx);
	const fray_node *root = doc ? fray_doc_root(doc) : NULL;
	bool game = root && fray_node_kind_of(root) == FRAY_NODE_MAP && fray_map_get(root, "fray_game");
	if (status == EXIT_OK && game) {
		html = game_html(ctx, name, request, css, &status);
	} else if (status == EXIT_OK) {
		status = refuse_format(name, root);
	}
	/* the request as fray request runs it, from the text given; then
	 * the text run and the page's copy from what was read */
	if (status == EXIT_OK && !game)
		status = run(ctx, name, request, &json);
	if (status == EXIT_OK && !game &&
	    (!(as_json = request_json(root, NULL)) || !(as_text = request_json(root, "text"))))
		status = cli_error("report", EXIT_RUNTIME, "out of memory");
	fray_doc_free(doc);
	if (status == EXIT_OK && !game)
		status = run(ctx, name, as_text, &text);
	if (status == EXIT_OK) /* again, now that the runs have read their files */
		status = cli_output_check("report", ctx, out_path, "--html", NULL);
	if (status == EXIT_OK && !game && !(html = html_of(as_json, json, text, css)))
		status = cli_error("report", EXIT_RUNTIME, "out of memory");
	if (status == EXIT_OK && !cli_write_atomic(out_path, html, strlen(html)))
		status = cli_error("report", EXIT_RUNTIME, "--html %s: cannot write: %s", out_path, strerror(errno));
	free(request);
	free(json);
	free(text);
	free(as_json);
	free(as_text);
	free(html);
	fray_ctx_free(ctx);
	return status;
}
