/* A game file as one HTML page for fray report --html: where each side
 * stands, the units as cards (status first, fields in words), and the log
 * by turn, each action's changes with its rolls folded beneath.
 * No script: every text from the game (names, commands, stories) is
 * escaped, so nothing in a game file can become markup. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "ruleset.h"

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

/* A standing as a class name ("st-fell-back"), for its colour. */
static void status_class(FILE *f, int status)
{
	fputs("status st-", f);
	for (const char *c = frayi_unit_status_names[status]; *c; c++)
		fputc(*c == ' ' ? '-' : *c, f);
}

/* A field's key in words ("start_figures": "start figures"). */
static void key_words(FILE *f, const char *key)
{
	for (const char *k = key; *k; k++)
		fputc(*k == '_' ? ' ' : *k, f);
}

static const unit_field *field_named(const table_game *g, const char *key)
{
	size_t nf = g->rules->nfields;
	const unit_field *fl = g->rules->fields;
	for (size_t i = 0; i < nf; i++)
		if (!strcmp(fl[i].key, key))
			return &fl[i];
	return NULL;
}

static int int_of(const table_unit *u, const unit_field *fl)
{
	return *(const int *)((const char *)frayi_field_in(fl, u));
}

/* The fields a card or a side's summary shows first, when the rule set
 * has them: a unit's strength now and at the start, and its losses. */
static const char *const strength[][2] = {{"figures", "start_figures"}, {"bases", "start_bases"},
					  {"battalions", NULL}};
static const char *const losses[] = {"casualties", "fatigue"};

static bool shown_first(const char *key)
{
	for (size_t i = 0; i < sizeof strength / sizeof *strength; i++)
		if (!strcmp(key, strength[i][0]) || (strength[i][1] && !strcmp(key, strength[i][1])))
			return true;
	return !strcmp(key, "name") || !strcmp(key, "side") || !strcmp(key, "status");
}

static int hits_of(const table_unit *u)
{
	int n = 0;
	for (int b = 0; b < CHITS_OF(u)->battalions && b < 8; b++)
		n += CHITS_OF(u)->hits[b];
	return n;
}

/* Where each side stands: its units by standing, its strength now of
 * its strength at the start, its losses (counted from the units). */
static void sides(FILE *f, const table_game *g)
{
	fputs("<h2>Where the game stands</h2>\n<div class=\"sides\" id=\"sides\">\n", f);
	const unit_field *st = field_named(g, "status");
	for (size_t k = 0; k < g->nunits; k++) {
		const char *side = g->units[k].side;
		size_t first = 0;
		while (strcmp(g->units[first].side, side))
			first++;
		if (first != k)
			continue; /* the side was summed at its first unit */
		fputs("<section class=\"side\"><h3>", f);
		html_text(f, side);
		size_t n = 0;
		int counts[ST_NSTATUS] = {0};
		int sums[3][2] = {{0}}, lost[2] = {0}, hits = 0;
		for (size_t j = k; j < g->nunits; j++) {
			const table_unit *u = &g->units[j];
			if (strcmp(u->side, side))
				continue;
			n++;
			if (u->status >= 0 && u->status < ST_NSTATUS)
				counts[u->status]++;
			for (size_t i = 0; i < 3; i++)
				for (size_t w = 0; w < 2; w++) {
					const unit_field *fl = strength[i][w] ? field_named(g, strength[i][w]) : NULL;
					sums[i][w] += fl ? int_of(u, fl) : 0;
				}
			for (size_t i = 0; i < 2; i++) {
				const unit_field *fl = field_named(g, losses[i]);
				lost[i] += fl ? int_of(u, fl) : 0;
			}
			if (field_named(g, "hits"))
				hits += hits_of(u);
		}
		fprintf(f, "</h3>\n<p>%zu %s", n, n == 1 ? "unit" : "units");
		if (st) {
			fputs(":", f);
			const char *sep = " ";
			for (int s = 0; s < ST_NSTATUS; s++)
				if (counts[s]) {
					fprintf(f, "%s<span class=\"", sep);
					status_class(f, s);
					fprintf(f, "\">%d %s</span>", counts[s], frayi_unit_status_names[s]);
					sep = ", ";
				}
		}
		fputs("</p>\n<p class=\"strength\">", f);
		for (size_t i = 0; i < 3; i++)
			if (field_named(g, strength[i][0])) {
				fprintf(f, "%s %d", strength[i][0], sums[i][0]);
				if (strength[i][1] && field_named(g, strength[i][1]))
					fprintf(f, " of %d at the start", sums[i][1]);
			}
		for (size_t i = 0; i < 2; i++)
			if (field_named(g, losses[i]))
				fprintf(f, "; %s %d", losses[i], lost[i]);
		if (field_named(g, "hits"))
			fprintf(f, "; hits %d", hits);
		fputs("</p></section>\n", f);
	}
	fputs("</div>\n", f);
}

/* A unit as a card: its name, standing and side first, its strength,
 * then every other field with its name in words (flags that hold as a
 * list; empty texts and flags that do not hold left out). */
static void unit_card(FILE *f, const table_game *g, const table_unit *u)
{
	size_t nf = g->rules->nfields;
	const unit_field *fl = g->rules->fields;
	const unit_field *st = field_named(g, "status");
	fputs("<article class=\"unit\"><h3><span class=\"name\">", f);
	html_text(f, u->name);
	fputs("</span>", f);
	if (st) {
		fputs(" <span class=\"", f);
		status_class(f, u->status);
		fputs("\">", f);
		html_text(f, frayi_unit_status_names[u->status]);
		fputs("</span>", f);
	}
	fputs("</h3>\n<p class=\"unit-side\">", f);
	html_text(f, u->side);
	fputs("</p>\n<p class=\"strength\">", f);
	for (size_t i = 0; i < 3; i++) {
		const unit_field *now = field_named(g, strength[i][0]);
		const unit_field *was = strength[i][1] ? field_named(g, strength[i][1]) : NULL;
		if (now)
			fprintf(f, "%s %d", strength[i][0], int_of(u, now));
		if (now && was)
			fprintf(f, " of %d", int_of(u, was));
	}
	fputs("</p>\n<dl>", f);
	bool any_flag = false;
	for (size_t i = 0; i < nf; i++) {
		const char *at = (const char *)frayi_field_in(&fl[i], u);
		if (shown_first(fl[i].key) || fl[i].kind == F_BOOL || (fl[i].kind == F_STR && !*at))
			continue;
		fputs("<div><dt>", f);
		key_words(f, fl[i].key);
		fputs("</dt><dd>", f);
		switch (fl[i].kind) {
		case F_STR:
			html_text(f, at);
			break;
		case F_INT:
			fprintf(f, "%d", *(const int *)at);
			break;
		case F_ENUM:
			html_text(f, fl[i].choices[*(const int *)at]);
			break;
		case F_HITS: {
			char hits[48];
			frayi_table_hits_text(hits, sizeof hits, CHITS_OF(u)->hits, CHITS_OF(u)->battalions);
			fputs(hits, f);
			break;
		}
		case F_BOOL:
			break;
		}
		fputs("</dd></div>", f);
	}
	for (size_t i = 0; i < nf; i++)
		if (fl[i].kind == F_BOOL && *(const bool *)((const char *)frayi_field_in(&fl[i], u))) {
			fputs(any_flag ? ", " : "<div class=\"flags\"><dt>also</dt><dd>", f);
			key_words(f, fl[i].key);
			any_flag = true;
		}
	fputs(any_flag ? "</dd></div></dl></article>\n" : "</dl></article>\n", f);
}

static void forces(FILE *f, const table_game *g)
{
	fputs("<h2>The forces</h2>\n<div class=\"units\" id=\"forces\">\n", f);
	for (size_t k = 0; k < g->nunits; k++)
		unit_card(f, g, &g->units[k]);
	fputs("</div>\n", f);
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

/* The log by turn: each action in words, what it changed, then every
 * roll (the story) folded. */
static void log_of(FILE *f, const table_game *g)
{
	size_t n = g->nlog;
	fprintf(f, "<h2>The log</h2>\n%s", n ? "" : "<p>No action yet.</p>\n");
	int turn = 0;
	for (size_t i = 0; i < n; i++) {
		const fray_node *e = g->log[i];
		int t = frayi_table_log_turn(g, e);
		if (i == 0 || t != turn)
			fprintf(f, "%s<section class=\"turn\"><h3>Turn %d</h3>\n", i ? "</section>\n" : "", t);
		turn = t;
		/* the action in words (the command stays in the game file) */
		char says[1024];
		frayi_table_action_words(scalar(e, "command"), says, sizeof says);
		fprintf(f, "<section class=\"action\">\n<h4><span class=\"n\">%zu.</span> <span class=\"says\">", i + 1);
		html_text(f, says);
		fputs("</span></h4>\n", f);
		lines(f, e, "changes", "<ul class=\"changes\">\n", "<li>", "</ul>\n");
		lines(f, e, "story", "<details><summary>Every roll</summary><pre class=\"story\">", "", "</pre></details>\n");
		fputs("</section>\n", f);
	}
	if (n)
		fputs("</section>\n", f);
}

/* The report's own styles, after the page's (css): enough alone (a
 * report made without the page's, fray_game_request's), and cards, not
 * a wide table, so nothing scrolls sideways at 412 px. */
static const char report_css[] =
	":root { --r-bg: #fbfaf7; --r-fg: #1d1c1a; --r-muted: #5f5b55; --r-line: #d9d4cb; --r-accent: #8a3b12; --r-card: #fff; }\n"
	"@media (prefers-color-scheme: dark) { :root { --r-bg: #171615; --r-fg: #ece8e1; --r-muted: #a39d93; "
	"--r-line: #3a3733; --r-accent: #f0a070; --r-card: #211f1d; } }\n"
	"body { margin: 0; background: var(--r-bg); color: var(--r-fg); font: 16px/1.45 system-ui, sans-serif; }\n"
	"header, main, footer { max-width: 70rem; margin: 0 auto; padding: 0 1rem; }\n"
	"header h1 { color: var(--r-accent); margin: 1rem 0 0; }\n"
	".tag, footer, p.unit-side, dt { color: var(--r-muted); }\n"
	"pre { background: var(--r-card); border: 1px solid var(--r-line); padding: .7rem; border-radius: .35rem;"
	" white-space: pre-wrap; overflow-wrap: anywhere; font-size: .85rem; }\n"
	"code { overflow-wrap: anywhere; }\n"
	".sides, .units { display: grid; grid-template-columns: repeat(auto-fill, minmax(17rem, 1fr)); gap: .7rem; }\n"
	".side, .unit { background: var(--r-card); border: 1px solid var(--r-line); border-radius: .4rem; padding: .2rem .8rem .5rem; }\n"
	".side h3, .unit h3 { font-size: 1.05rem; margin: .4rem 0 .1rem; display: flex; gap: .5rem; flex-wrap: wrap;"
	" align-items: baseline; }\n"
	".unit h3 .name { flex: 1 1 auto; overflow-wrap: anywhere; }\n"
	".status { font-size: .8rem; font-weight: 700; padding: .05rem .45rem; border-radius: 1rem; background: #fde2c8;"
	" color: #6b2a00; white-space: nowrap; }\n"
	".status.st-good { background: #dff0d8; color: #1e4620; }\n"
	".status.st-panicked, .status.st-surrendered, .status.st-destroyed { background: #f8d0d0; color: #7a0010; }\n"
	".side p { margin: .2rem 0; } p.unit-side { margin: 0; font-size: .9rem; }\n"
	".strength { font-weight: 600; font-variant-numeric: tabular-nums; margin: .2rem 0; }\n"
	".unit dl { display: grid; grid-template-columns: repeat(auto-fill, minmax(7.5rem, 1fr)); gap: .2rem .8rem; margin: .3rem 0 0; }\n"
	".unit dl div.flags { grid-column: 1 / -1; }\n"
	".unit dt { font-size: .75rem; } .unit dd { margin: 0; overflow-wrap: anywhere; font-size: .9rem; }\n"
	"section.turn { border-top: 2px solid var(--r-line); margin-top: .8rem; }\n"
	"section.turn h3 { margin: .6rem 0 .2rem; }\n"
	"section.action h4 { margin: .6rem 0 .1rem; font-weight: 600; }\n"
	"section.action h4 code { font-weight: 400; } section.action .n { color: var(--r-muted); }\n"
	"ul.changes { margin: .2rem 0 .3rem; font-weight: 600; }\n"
	"details summary { cursor: pointer; color: var(--r-accent); }\n";

char *frayi_table_report_html(const table_game *g, const char *css)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		return NULL;
	size_t n = g->nlog;
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<title>fray game report</title>\n<style>\n", f);
	fputs(css, f);
	fputs(report_css, f);
	fputs("</style>\n</head>\n<body>\n<header><h1>fray</h1>"
	      "<p class=\"tag\" id=\"report-what\">", f);
	fprintf(f, "A %s game: turn %d, seed %" PRIu64 ", %zu %s.</p></header>\n<main>\n", g->rules->id,
		g->turn, g->seed, n, n == 1 ? "action" : "actions");
	sides(f, g);
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
