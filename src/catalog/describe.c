/* The catalogue told: as JSON for programs (the page builds its forms from
 * it), as a list for people, and each procedure's --help. */
#include <inttypes.h>
#include <string.h>
#include "catalog.h"

static const char *const type_names[] = {"int", "number", "bool", "choice", "string", "file"};

static void describe_input(strbuf *sb, const in_desc *in)
{
	char opt[72];
	frayi_call_option_name(in->name, opt, sizeof opt);
	frayi_sb_add(sb, "{\"name\": ");
	frayi_sb_json(sb, in->name);
	frayi_sb_add(sb, ", \"option\": ");
	frayi_sb_json(sb, opt);
	frayi_sb_add(sb, ", \"type\": \"%s\", \"required\": %s", type_names[in->type], in->required ? "true" : "false");
	switch (in->type) {
	case IN_INT:
		frayi_sb_add(sb, ", \"min\": %" PRId64 ", \"max\": %" PRId64, in->min, in->max);
		if (!in->required && in->def >= in->min && in->def <= in->max)
			frayi_sb_add(sb, ", \"default\": %" PRId64, in->def);
		break;
	case IN_NUMBER:
		frayi_sb_add(sb, ", \"min\": %" PRId64 ", \"max\": %" PRId64, in->min, in->max);
		break;
	case IN_BOOL:
		frayi_sb_add(sb, ", \"default\": %s", in->def ? "true" : "false");
		break;
	case IN_CHOICE:
		frayi_sb_add(sb, ", \"choices\": [");
		for (size_t k = 0; k < in->nchoices; k++) {
			frayi_sb_add(sb, "%s", k ? ", " : "");
			frayi_sb_json(sb, in->choices[k]);
		}
		frayi_sb_add(sb, "]");
		if (!in->required && in->def >= 0 && (size_t)in->def < in->nchoices) {
			frayi_sb_add(sb, ", \"default\": ");
			frayi_sb_json(sb, in->choices[in->def]);
		}
		break;
	case IN_STRING: /* the names the data offers: a picker on the page */
		for (size_t k = 0; in->suggest && in->suggest(k); k++) {
			frayi_sb_add(sb, "%s", k ? ", " : ", \"choices\": [");
			frayi_sb_json(sb, in->suggest(k));
		}
		if (in->suggest && in->suggest(0))
			frayi_sb_add(sb, "]");
		break;
	case IN_FILE:
		break;
	}
	if (in->unit) {
		frayi_sb_add(sb, ", \"unit\": ");
		frayi_sb_json(sb, in->unit);
	}
	if (in->excludes) {
		frayi_sb_add(sb, ", \"excludes\": [");
		for (const char *const *e = in->excludes; *e; e++) {
			frayi_sb_add(sb, "%s", e == in->excludes ? "" : ", ");
			frayi_sb_json(sb, *e);
		}
		frayi_sb_add(sb, "]");
	}
	if (in->label) { /* a player's words for it (the page's label) */
		frayi_sb_add(sb, ", \"label\": ");
		frayi_sb_json(sb, in->label);
	}
	frayi_sb_add(sb, ", \"help\": ");
	frayi_sb_json(sb, in->help);
	frayi_sb_add(sb, ", \"rule\": ");
	frayi_sb_json(sb, in->rule);
	frayi_sb_add(sb, "}");
}

static void describe(strbuf *sb, const proc_desc *d)
{
	frayi_sb_add(sb, "{\"name\": ");
	frayi_sb_json(sb, d->name);
	frayi_sb_add(sb, ", \"command\": ");
	frayi_sb_json(sb, d->command);
	frayi_sb_add(sb, ", \"summary\": ");
	frayi_sb_json(sb, d->summary);
	frayi_sb_add(sb, ", \"rules\": ");
	frayi_sb_json(sb, d->rules);
	frayi_sb_add(sb, ", \"modes\": [");
	const char *sep = "";
	if (d->modes & FRAY_MODE_ROLL)
		frayi_sb_add(sb, "\"roll\""), sep = ", ";
	if (d->modes & FRAY_MODE_ODDS)
		frayi_sb_add(sb, "%s\"odds\"", sep), sep = ", ";
	if (d->modes & FRAY_MODE_SIMULATE)
		frayi_sb_add(sb, "%s\"simulate\"", sep);
	frayi_sb_add(sb, "]");
	if (d->odds_may_simulate)
		frayi_sb_add(sb, ", \"odds_may_simulate\": true");
	frayi_sb_add(sb, ", \"example\": %s", d->example);
	if (d->example_from) {
		frayi_sb_add(sb, ", \"example_from\": ");
		frayi_sb_json(sb, d->example_from);
	}
	/* what the page asks and swaps */
	if (d->headline.field) {
		frayi_sb_add(sb, ",\n   \"headline\": {\"field\": ");
		frayi_sb_json(sb, d->headline.field);
		frayi_sb_add(sb, ", \"test\": ");
		frayi_sb_json(sb, d->headline.test);
		frayi_sb_add(sb, ", \"says\": ");
		frayi_sb_json(sb, d->headline.says);
		frayi_sb_add(sb, "}");
	}
	/* the headline and the page's other questions, in order, and the
	 * words a search finds it by (issue 43) */
	for (size_t k = 0; d->headline.field && k < 2 && d->more_headlines[k].field; k++) {
		const headline *h = &d->more_headlines[k];
		frayi_sb_add(sb, "%s", k ? ", {\"field\": " : ", \"more_headlines\": [{\"field\": ");
		frayi_sb_json(sb, h->field);
		frayi_sb_add(sb, ", \"test\": ");
		frayi_sb_json(sb, h->test);
		frayi_sb_add(sb, ", \"says\": ");
		frayi_sb_json(sb, h->says);
		frayi_sb_add(sb, "}%s", k == 1 || !d->more_headlines[k + 1].field ? "]" : "");
	}
	if (d->words) {
		frayi_sb_add(sb, ", \"words\": ");
		frayi_sb_json(sb, d->words);
	}
	/* its rule set's title, for the page's chooser (list.c's sets) */
	size_t id = strcspn(d->name, ".");
	for (size_t i = 0; frayi_catalog_set(i); i++)
		if (strlen(frayi_catalog_set(i)->id) == id && !strncmp(frayi_catalog_set(i)->id, d->name, id)) {
			frayi_sb_add(sb, ", \"rule_set\": ");
			frayi_sb_json(sb, frayi_catalog_set(i)->title);
		}
	frayi_sb_add(sb, ", \"sides\": [");
	for (const side_pair *p = d->sides; p && p->attacker; p++) {
		frayi_sb_add(sb, "%s{\"attacker\": ", p == d->sides ? "" : ", ");
		frayi_sb_json(sb, p->attacker);
		frayi_sb_add(sb, ", \"defender\": ");
		frayi_sb_json(sb, p->defender);
		frayi_sb_add(sb, "}");
	}
	frayi_sb_add(sb, "]");
	frayi_sb_add(sb, ",\n   \"inputs\": [");
	for (size_t k = 0; k < d->nin; k++) {
		frayi_sb_add(sb, "%s\n    ", k ? "," : "");
		describe_input(sb, &d->in[k]);
	}
	frayi_sb_add(sb, "],\n   \"outcome\": [");
	for (size_t k = 0; k < d->nout; k++) {
		frayi_sb_add(sb, "%s{\"name\": ", k ? ", " : "");
		frayi_sb_json(sb, d->out[k].name);
		frayi_sb_add(sb, ", \"type\": \"%s\", \"help\": ", d->out[k].type);
		frayi_sb_json(sb, d->out[k].help);
		if (d->out[k].yes && d->out[k].no) { /* a boolean's words, for people */
			frayi_sb_add(sb, ", \"words\": {\"true\": ");
			frayi_sb_json(sb, d->out[k].yes);
			frayi_sb_add(sb, ", \"false\": ");
			frayi_sb_json(sb, d->out[k].no);
			frayi_sb_add(sb, "}");
		}
		for (const char *const(*w)[2] = d->out[k].says; w && (*w)[0]; w++) { /* each value's words */
			frayi_sb_add(sb, "%s", w == d->out[k].says ? ", \"words\": {" : ", ");
			frayi_sb_json(sb, (*w)[0]);
			frayi_sb_add(sb, ": ");
			frayi_sb_json(sb, (*w)[1]);
		}
		if (d->out[k].says && d->out[k].says[0][0])
			frayi_sb_add(sb, "}");
		frayi_sb_add(sb, "}");
	}
	frayi_sb_add(sb, "]}");
}

static fray_status give(fray_ctx *ctx, strbuf *sb, char **out)
{
	return frayi_sb_give(sb, ctx, out);
}

FRAY_API fray_status fray_procedures_json(fray_ctx *ctx, char **out)
{
	if (!ctx || !out)
		return FRAY_ERR_INPUT;
	fray_ctx_clear(ctx);
	strbuf sb = {.ctx = ctx};
	frayi_sb_add(&sb, "{\"procedures\": [");
	for (size_t k = 0; frayi_catalog_proc(k); k++) {
		frayi_sb_add(&sb, "%s\n  ", k ? "," : "");
		describe(&sb, frayi_catalog_proc(k));
	}
	frayi_sb_add(&sb, "\n]}\n");
	return give(ctx, &sb, out);
}

FRAY_API fray_status fray_procedures_text(fray_ctx *ctx, char **out)
{
	if (!ctx || !out)
		return FRAY_ERR_INPUT;
	fray_ctx_clear(ctx);
	strbuf sb = {.ctx = ctx};
	const char *group = "";
	const proc_desc *d;
	for (size_t k = 0; (d = frayi_catalog_proc(k)); k++) {
		size_t glen = strcspn(d->name, ".");
		if (strncmp(group, d->name, glen) != 0 || group[glen] != '.') {
			frayi_sb_add(&sb, "%s%.*s\n", k ? "\n" : "", (int)glen, d->name);
			group = d->name;
		}
		frayi_sb_add(&sb, "  %-24s %s (%s)\n", d->command, d->summary, d->rules);
	}
	return give(ctx, &sb, out);
}

/* "--cf 0-9", "--type warrior|regular|...", "--enemy-atop". */
static void usage_of(strbuf *sb, const in_desc *in)
{
	char opt[72];
	frayi_call_option_name(in->name, opt, sizeof opt);
	/* a required input taken without its option is shown without it:
	 * "fray presidio units FILE", "fray bbb table fire" */
	bool bare = in->positional && in->required;
	if (bare && in->type == IN_CHOICE) {
		for (size_t k = 0; k < in->nchoices; k++)
			frayi_sb_add(sb, "%s%s", k ? "|" : "", in->choices[k]);
		return;
	}
	if (bare) { /* FILE, or its name in capitals: EXPRESSION */
		for (const char *p = in->type == IN_FILE ? "FILE" : in->name; *p; p++)
			frayi_sb_add(sb, "%c", *p >= 'a' && *p <= 'z' ? *p - 'a' + 'A' : *p);
		return;
	}
	frayi_sb_add(sb, "%s", opt);
	switch (in->type) {
	case IN_INT:
	case IN_NUMBER:
		frayi_sb_add(sb, " %" PRId64 "..%" PRId64, in->min, in->max);
		break;
	case IN_CHOICE:
		for (size_t k = 0; k < in->nchoices; k++)
			frayi_sb_add(sb, "%s%s", k ? "|" : " ", in->choices[k]);
		break;
	case IN_STRING:
		frayi_sb_add(sb, " TEXT");
		break;
	case IN_FILE:
		frayi_sb_add(sb, " FILE");
		break;
	case IN_BOOL:
		break;
	}
}

/* Words of text from column col, lines of at most 78 columns, the next
 * lines indented by indent. */
static void wrap(strbuf *sb, const char *text, size_t indent, size_t col)
{
	const char *p = text;
	while (*p) {
		size_t w = strcspn(p, " ");
		if (col + 1 + w > 78 && col > indent) {
			frayi_sb_add(sb, "\n%*s", (int)indent, "");
			col = indent;
		} else {
			frayi_sb_add(sb, " ");
			col++;
		}
		frayi_sb_put(sb, p, w);
		col += w;
		p += w;
		while (*p == ' ')
			p++;
	}
	frayi_sb_add(sb, "\n");
}

/* A word of a command line as a shell takes it: in single quotes when it
 * has more than letters, digits and ".,:/_+-". */
static void shell_word(strbuf *sb, const char *w)
{
	bool plain = *w != 0;
	for (const char *p = w; *p; p++)
		plain = plain && ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
				  strchr(".,:/_+-", *p));
	if (plain) {
		frayi_sb_add(sb, " %s", w);
		return;
	}
	frayi_sb_add(sb, " '");
	for (const char *p = w; *p; p++)
		frayi_sb_add(sb, *p == '\'' ? "'\\''" : "%c", *p);
	frayi_sb_add(sb, "'");
}

/* "Example: fray adbg fire --type regular --cf 3 ...": the descriptor's
 * example as a command line (a flag given true is the option alone),
 * wrapped, and the worked example of the text it is. */
static fray_status example_command(fray_ctx *ctx, strbuf *sb, const proc_desc *d)
{
	fray_doc *doc = NULL;
	fray_status st = fray_doc_load_string(ctx, d->name, d->example, strlen(d->example), &doc);
	if (st != FRAY_OK)
		return st == FRAY_ERR_NOMEM ? st : frayi_fail(ctx, FRAY_ERR_INTERNAL, "%s: its example is not JSON", d->name);
	const fray_node *root = fray_doc_root(doc);
	strbuf line = {.ctx = ctx};
	frayi_sb_add(&line, "fray %s", d->command);
	/* the input taken without its option first (fray chits combat FILE) */
	for (int pass = 0; pass < 2; pass++)
		for (size_t j = 0; j < fray_node_len(root); j++) {
			const char *key = fray_node_scalar(fray_node_key(root, j));
			const char *val = fray_node_scalar(fray_node_value(root, j));
			const in_desc *in = NULL;
			for (size_t k = 0; key && k < d->nin; k++)
				in = !strcmp(d->in[k].name, key) ? &d->in[k] : in;
			if (!in || !val || !strcmp(val, "false") || in->positional != (pass == 0))
				continue;
			char opt[72];
			if (!in->positional)
				frayi_sb_add(&line, " %s", frayi_call_option_name(key, opt, sizeof opt));
			if (in->type != IN_BOOL)
				shell_word(&line, val);
		}
	fray_doc_free(doc);
	sb->failed = sb->failed || line.failed;
	frayi_sb_add(sb, "\nExample%s%s%s:\n  ", d->example_from ? " (" : "", d->example_from ? d->example_from : "",
		     d->example_from ? ")" : "");
	/* wrapped at options: "--weapon 'flintlock musket'" stays whole */
	size_t col = 2;
	const char *p = line.buf ? line.buf : "";
	while (*p) {
		const char *next = strstr(p + 1, " --");
		size_t w = next ? (size_t)(next - p) : strlen(p);
		if (col + w > 78 && col > 2) {
			frayi_sb_add(sb, " \\\n     ");
			col = 6;
		}
		frayi_sb_put(sb, p, w);
		col += w;
		p += w;
	}
	frayi_sb_add(sb, "\n");
	frayi_sb_free(&line);
	return FRAY_OK;
}

FRAY_API fray_status fray_procedure_help(fray_ctx *ctx, const char *procedure, char **out)
{
	if (!ctx || !out)
		return FRAY_ERR_INPUT;
	fray_ctx_clear(ctx);
	const proc_desc *d = procedure ? frayi_catalog_find(procedure) : NULL;
	if (!d)
		return frayi_fail_input(ctx, FRAY_ERR_INPUT, "procedure", "unknown procedure '%.80s'",
					procedure ? procedure : "");
	strbuf sb = {.ctx = ctx};
	frayi_sb_add(&sb, "fray %s", d->command);
	size_t col = 5 + strlen(d->command);
	for (size_t k = 0; k < d->nin; k++) {
		strbuf one = {.ctx = ctx};
		usage_of(&one, &d->in[k]);
		size_t w = one.len + (d->in[k].required ? 1 : 3);
		if (col + w > 78) {
			frayi_sb_add(&sb, "\n    ");
			col = 4;
		}
		frayi_sb_add(&sb, d->in[k].required ? " %s" : " [%s]", one.buf ? one.buf : "");
		col += w;
		frayi_sb_free(&one);
	}
	const char *modes = d->modes == FRAY_MODE_SHOW    ? ""
			    : d->modes & FRAY_MODE_ODDS	   ? " [--odds [--exact] | --seed N] [--json]"
			    : d->modes & FRAY_MODE_SIMULATE ? " [--trials N] [--seed N] [--json]"
							    : " [--seed N] [--json]";
	frayi_sb_add(&sb, "%s%s\n\n", col + 30 > 78 && *modes ? "\n    " : "", modes);
	frayi_sb_add(&sb, "%c%s (%s).\n", d->summary[0] >= 'a' && d->summary[0] <= 'z' ? d->summary[0] - 'a' + 'A'
										 : d->summary[0],
	       d->summary + 1, d->rules);
	if (d->about)
		frayi_sb_add(&sb, "%s\n", d->about);
	if (d->nin) /* a listing may have no options */
		frayi_sb_add(&sb, "\n");
	for (size_t k = 0; k < d->nin; k++) {
		char opt[72];
		frayi_call_option_name(d->in[k].name, opt, sizeof opt);
		char line[512];
		textbuf t = text_on(line, sizeof line);
		text_add(&t, "%s", d->in[k].help);
		const in_desc *in = &d->in[k];
		/* a default outside the choices or the range means "none" */
		if (!in->required && in->type == IN_CHOICE && in->def >= 0 && (size_t)in->def < in->nchoices)
			text_add(&t, " (default %s)", in->choices[in->def]);
		else if (!in->required && in->type == IN_INT && in->def >= in->min && in->def <= in->max)
			text_add(&t, " (default %" PRId64 ")", in->def);
		if (in->alias) {
			char alias[72];
			text_add(&t, " (also %s)", frayi_call_option_name(in->alias, alias, sizeof alias));
		}
		text_add(&t, " [%s]", d->in[k].rule);
		frayi_sb_add(&sb, "  %-24s", opt);
		wrap(&sb, line, 27, strlen(opt) > 24 ? 2 + strlen(opt) : 26);
	}
	fray_status st = example_command(ctx, &sb, d);
	if (st != FRAY_OK) {
		frayi_sb_free(&sb);
		return st;
	}
	char outcome[1024];
	textbuf t = text_on(outcome, sizeof outcome);
	for (size_t k = 0; k < d->nout; k++)
		text_add(&t, "%s%s (%s)", k ? ", " : "", d->out[k].name, d->out[k].help);
	text_add(&t, ".");
	if (d->nout) { /* a listing has none */
		frayi_sb_add(&sb, "\nOutcome:");
		wrap(&sb, outcome, 2, 8);
	}
	return give(ctx, &sb, out);
}
