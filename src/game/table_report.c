/* A game file as one HTML page for fray report --html: the forces as a
 * table and the log, action by action, with their stories and changes.
 * No script: every text from the game (names, commands, stories) is
 * escaped, so nothing in a game file can become markup. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "table.h"

static void html_text(FILE *f, const char *s)
{
	for (const unsigned char *u = (const unsigned char *)(s ? s : ""); *u; u++) {
		switch (*u) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		default:
			/* controls shown as the terminal shows them */
			if ((*u < 0x20 && *u != '\n' && *u != '\t') || *u == 0x7F)
				fprintf(f, "\\x%02x", *u);
			else
				fputc(*u, f);
		}
	}
}

static void cell(FILE *f, const unit_field *fl, const table_unit *u)
{
	const char *at = (const char *)u + fl->off;
	fputs(fl->kind == F_INT ? "<td class=\"num\">" : "<td>", f);
	switch (fl->kind) {
	case F_STR:
		html_text(f, at);
		break;
	case F_INT:
		fprintf(f, "%d", *(const int *)at);
		break;
	case F_BOOL:
		fputs(*(const bool *)at ? "yes" : "", f);
		break;
	case F_ENUM:
		html_text(f, fl->choices[*(const int *)at]);
		break;
	case F_HITS: {
		char hits[48];
		frayi_table_hits_text(hits, sizeof hits, u->hits, u->battalions);
		fputs(hits, f);
		break;
	}
	}
	fputs("</td>", f);
}

static void forces(FILE *f, const table_game *g)
{
	size_t nf;
	const unit_field *fl = frayi_table_fields(g->rules, &nf);
	fputs("<h2>The forces</h2>\n<div class=\"table-wrap\"><table id=\"forces\">\n<tr>", f);
	for (size_t i = 0; i < nf; i++) {
		fputs("<th>", f);
		html_text(f, fl[i].key);
		fputs("</th>", f);
	}
	fputs("</tr>\n", f);
	for (size_t k = 0; k < g->nunits; k++) {
		fputs("<tr>", f);
		for (size_t i = 0; i < nf; i++)
			cell(f, &fl[i], &g->units[k]);
		fputs("</tr>\n", f);
	}
	fputs("</table></div>\n", f);
}

static const char *scalar(const fray_node *e, const char *key)
{
	const char *s = fray_node_scalar(fray_map_get(e, key));
	return s ? s : "";
}

/* A text list of an entry (story, changes), a line each. */
static void lines(FILE *f, const fray_node *e, const char *key, const char *open, const char *item,
		  const char *close)
{
	const fray_node *l = fray_map_get(e, key);
	if (fray_node_len(l) == 0)
		return;
	fputs(open, f);
	for (size_t i = 0; i < fray_node_len(l); i++) {
		const char *s = fray_node_scalar(fray_node_item(l, i));
		fputs(item, f);
		html_text(f, s ? s : "");
		fputs(*item ? "</li>\n" : "\n", f);
	}
	fputs(close, f);
}

static void log_of(FILE *f, const table_game *g)
{
	size_t n = g->log ? fray_node_len(g->log) : 0;
	fprintf(f, "<h2>The log</h2>\n%s", n ? "" : "<p>No action yet.</p>\n");
	for (size_t i = 0; i < n; i++) {
		const fray_node *e = fray_node_item(g->log, i);
		fprintf(f, "<section class=\"action\">\n<h3>%zu. Turn %d: <code>", i + 1, frayi_table_entry_turn(e));
		html_text(f, scalar(e, "command"));
		fputs("</code></h3>\n", f);
		lines(f, e, "story", "<pre class=\"story\">", "", "</pre>\n");
		lines(f, e, "changes", "<ul class=\"changes\">\n", "<li>", "</ul>\n");
		fputs("</section>\n", f);
	}
}

char *frayi_table_report_html(const table_game *g, const char *css)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		return NULL;
	size_t n = g->log ? fray_node_len(g->log) : 0;
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<title>fray game report</title>\n<style>\n", f);
	fputs(css, f);
	fputs("section.action h3 code { font-weight: 400; overflow-wrap: anywhere; }\n"
	      "ul.changes { margin: .2rem 0 1rem; }\n</style>\n</head>\n<body>\n<header><h1>fray</h1>"
	      "<p class=\"tag\" id=\"report-what\">", f);
	fprintf(f, "A %s game: turn %d, seed %" PRIu64 ", %zu %s.</p></header>\n<main>\n", frayi_table_rules_names[g->rules],
		g->turn, g->seed, n, n == 1 ? "action" : "actions");
	forces(f, g);
	log_of(f, g);
	fputs("</main>\n<footer><p>Made by <code>fray report</code> from the game file <code>", f);
	html_text(f, g->path);
	fputs("</code>; <code>fray table FILE log</code> tells the same.</p></footer>\n</body>\n</html>\n", f);
	if (fclose(f) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}
