/* A procedure's result as rows for a document: a Markdown table, CSV
 * (RFC 4180) and an HTML fragment. One row model for the three: a roll's
 * rows are its events then its result; the odds' and a simulation's are
 * their outcomes in words with the chance (and the odds' exact fraction).
 * The words are the text renderer's; each format only escapes them. A
 * simulation's totals after its rows (a pursuit's "caught") are the
 * procedure's own formatter's, text and JSON only: not in these tables. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "result.h"

typedef enum doc_format { DOC_MARKDOWN, DOC_CSV, DOC_HTML } doc_format;

/* s as one cell of the format: '|' and line ends escaped in Markdown,
 * quoted with its quotes doubled in CSV, &<>" as entities in HTML. */
static void cell(strbuf *sb, doc_format f, const char *s)
{
	if (f == DOC_CSV)
		frayi_sb_add(sb, "\"");
	for (const char *p = s; *p; p++) {
		if (f == DOC_MARKDOWN && *p == '|')
			frayi_sb_add(sb, "\\|");
		else if (f == DOC_MARKDOWN && (*p == '\n' || *p == '\r'))
			frayi_sb_add(sb, " ");
		else if (f == DOC_CSV && *p == '"')
			frayi_sb_add(sb, "\"\"");
		else if (f == DOC_HTML && (*p == '&' || *p == '<' || *p == '>' || *p == '"'))
			frayi_sb_add(sb, "%s", *p == '&' ? "&amp;" : *p == '<' ? "&lt;" : *p == '>' ? "&gt;" : "&quot;");
		else
			frayi_sb_put(sb, p, 1);
	}
	if (f == DOC_CSV)
		frayi_sb_add(sb, "\"");
}

/* A row of n cells (th: the header's). */
static void row(strbuf *sb, doc_format f, bool th, size_t n, const char *const *cells)
{
	frayi_sb_add(sb, f == DOC_MARKDOWN ? "|" : f == DOC_HTML ? "<tr>" : "");
	for (size_t i = 0; i < n; i++) {
		frayi_sb_add(sb, f == DOC_MARKDOWN ? " " : f == DOC_HTML ? (th ? "<th>" : "<td>") : i ? "," : "");
		cell(sb, f, cells[i]);
		frayi_sb_add(sb, f == DOC_MARKDOWN ? " |" : f == DOC_HTML ? (th ? "</th>" : "</td>") : "");
	}
	frayi_sb_add(sb, f == DOC_HTML ? "</tr>\n" : f == DOC_CSV ? "\r\n" : "\n");
	if (th && f == DOC_MARKDOWN) {
		frayi_sb_add(sb, "|");
		for (size_t i = 0; i < n; i++)
			frayi_sb_add(sb, " --- |");
		frayi_sb_add(sb, "\n");
	}
}

/* The title and what the rows are; CSV has only its rows. */
static void head(strbuf *sb, doc_format f, const call_result *r)
{
	char about[160];
	if (r->kind == RESULT_ROLL)
		snprintf(about, sizeof about, "seed %" PRIu64, r->seed);
	else if (r->kind == RESULT_ODDS)
		snprintf(about, sizeof about, "exact odds, %zu outcome%s", fray_dist_count(r->dist),
			 fray_dist_count(r->dist) == 1 ? "" : "s");
	else
		snprintf(about, sizeof about, "%" PRIu64 " simulated trials (seed %" PRIu64 ")", r->trials, r->seed);
	if (f == DOC_MARKDOWN) {
		frayi_sb_add(sb, "**");
		cell(sb, f, r->c->title);
		frayi_sb_add(sb, "** (%s)\n\n", about);
	} else if (f == DOC_HTML) {
		frayi_sb_add(sb, "<section class=\"fray-result\" data-procedure=\"%s\">\n<h2>", r->c->d->name);
		cell(sb, f, r->c->title);
		frayi_sb_add(sb, " (%s)</h2>\n<table>\n", about);
	}
}

/* One column: each event as the text tells it (its rule reference in
 * brackets), then "result: ...". */
static fray_status roll_rows(strbuf *sb, doc_format f, const call_result *r)
{
	static const char *const th[] = {"step"};
	row(sb, f, true, 1, th);
	for (size_t i = 0; i < r->events.n; i++) {
		const fray_event *ev = &r->events.ev[i];
		size_t n = fray_event_text(ev, NULL, 0);
		char *text = frayi_alloc(r->c->ctx, n + 1);
		if (!text)
			return frayi_nomem(r->c->ctx);
		fray_event_text(ev, text, n + 1);
		const char *cells[] = {text};
		row(sb, f, false, 1, cells);
		frayi_dealloc(r->c->ctx, text);
	}
	char res[1100];
	textbuf t = text_on(res, sizeof res);
	text_add(&t, "result: ");
	result_outcome(r, r->outcome, FRAY_FORMAT_TEXT, &t);
	const char *cells[] = {res};
	row(sb, f, false, 1, cells);
	return FRAY_OK;
}

static fray_status outcome_rows(strbuf *sb, doc_format f, const call_result *r)
{
	bool odds = r->kind == RESULT_ODDS;
	static const char *const th_odds[] = {"chance", "exact", "outcome"}, *const th_sim[] = {"chance", "outcome"};
	row(sb, f, true, odds ? 3 : 2, odds ? th_odds : th_sim);
	char res[1024], pct[40];
	for (size_t i = 0; i < fray_dist_count(r->dist); i++) {
		char *ex = odds ? frayi_exact_of(r->c->ctx, r->dist, i) : NULL;
		if (odds && !ex)
			return frayi_nomem(r->c->ctx);
		textbuf t = text_on(res, sizeof res);
		result_outcome(r, fray_dist_outcome(r->dist, i), FRAY_FORMAT_TEXT, &t);
		snprintf(pct, sizeof pct, "%.3f%%", 100 * fray_dist_p(r->dist, i));
		const char *with_exact[] = {pct, ex, res}, *without[] = {pct, res};
		row(sb, f, false, odds ? 3 : 2, odds ? with_exact : without);
		frayi_dealloc(r->c->ctx, ex);
	}
	if (odds && fray_dist_unresolved(r->dist) > 0) {
		snprintf(pct, sizeof pct, "%.3f%%", 100 * fray_dist_unresolved(r->dist));
		const char *cells[] = {pct, "", "unresolved: beyond the depth limit"};
		row(sb, f, false, 3, cells);
	}
	return FRAY_OK;
}

static fray_status rows(const void *result, strbuf *sb, doc_format f)
{
	const call_result *r = result;
	head(sb, f, r);
	fray_status st = r->kind == RESULT_ROLL ? roll_rows(sb, f, r) : outcome_rows(sb, f, r);
	if (st == FRAY_OK && f == DOC_HTML)
		frayi_sb_add(sb, "</table>\n</section>\n");
	return st;
}

fray_status frayi_markdown_result(const void *r, strbuf *sb)
{
	return rows(r, sb, DOC_MARKDOWN);
}

fray_status frayi_csv_result(const void *r, strbuf *sb)
{
	return rows(r, sb, DOC_CSV);
}

fray_status frayi_html_result(const void *r, strbuf *sb)
{
	return rows(r, sb, DOC_HTML);
}
