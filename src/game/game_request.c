/* include/fray/game_request.h: one JSON request, one JSON answer, through
 * include/fray/game.h. The request is read with the library's YAML/JSON
 * reader (its size, depth and node limits hold); the answer is written to
 * a memory stream. No rule is decided here: the game decides, this only
 * carries words in and JSON out (docs/json/game-request.md). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fray/game.h>
#include <fray/game_request.h>
#include "table.h"
#include "../core/internal.h"
#include "embedded.h"

/* ---- a policy that answers from the request ---- */

/* The request's "choices", in order; the first question past them is
 * kept (for the answer's "question") and gets no answer. */
#define ASKED_OPTIONS 16
typedef struct request_policy {
	const char *answers[FRAY_GAME_REQUEST_MAX_CHOICES];
	size_t nanswers, next;
	bool asked;
	char kind[64], prompt[256];
	char options[ASKED_OPTIONS][64];
	size_t noptions, suggested;
} request_policy;

static size_t pick(const fray_choice *c, const char *answer)
{
	for (size_t i = 0; i < c->noptions; i++)
		if (!strcmp(c->options[i], answer))
			return i;
	char *end;
	unsigned long k = strtoul(answer, &end, 10);
	return *answer && !*end && k >= 1 && k <= c->noptions ? (size_t)k - 1 : FRAY_NO_ANSWER;
}

static size_t request_choose(void *self, const fray_choice *c, char *msg, size_t cap)
{
	request_policy *p = self;
	if (p->next < p->nanswers) {
		const char *a = p->answers[p->next++];
		size_t k = pick(c, a);
		if (k == FRAY_NO_ANSWER)
			snprintf(msg, cap, "choices: '%.64s' is not one of this question's %zu options (%s)", a,
				 c->noptions, c->prompt);
		return k;
	}
	if (!p->asked) {
		p->asked = true;
		fray_copy_name(p->kind, sizeof p->kind, c->kind);
		fray_copy_name(p->prompt, sizeof p->prompt, c->prompt);
		p->noptions = c->noptions < ASKED_OPTIONS ? c->noptions : ASKED_OPTIONS;
		for (size_t i = 0; i < p->noptions; i++)
			fray_copy_name(p->options[i], sizeof p->options[i], c->options[i]);
		p->suggested = c->suggested;
	}
	snprintf(msg, cap, "a player's choice is needed: give it in \"choices\"");
	return FRAY_NO_ANSWER;
}

/* no destroy: the request frees its policy's state, after reading the question */
static const fray_policy_ops request_policy_ops = {
	.name = "request", .choose = request_choose, .deterministic = true,
};

/* ---- the request ---- */

typedef struct request {
	fray_ctx *ctx;
	fray_doc *doc;
	const fray_node *root;
	const char *op, *name, *game;
	size_t game_len;
	FILE *out;               /* the answer being written */
	request_policy policy;
	char dashed[FRAY_GAME_REQUEST_MAX_OPTIONS][TABLE_NAME_MAX + 3]; /* "--range" from "range" */
	const fray_request_opts *opts; /* the odds' budgets and watch; NULL: none */
} request;

static const char *const known_keys[] = {"op", "game", "name", "rules", "forces", "forces_name", "seed", "action",
					 "actor", "target", "options", "choices", "format"};

/* The string at key (NULL when absent); a value that is not a scalar is an error. */
static fray_status text_field(request *r, const char *key, bool required, const char **out)
{
	*out = NULL;
	const fray_node *n = fray_map_get(r->root, key);
	if (!n && !required)
		return FRAY_OK;
	if (!n)
		return frayi_fail_input(r->ctx, FRAY_ERR_INPUT, key, "request: missing \"%s\" (op %s)", key, r->op ? r->op : "?");
	if (fray_node_kind_of(n) != FRAY_NODE_SCALAR)
		return frayi_fail_input(r->ctx, FRAY_ERR_INPUT, key, "request: \"%s\": expected a string", key);
	*out = fray_node_scalar(n);
	return FRAY_OK;
}

/* The option words of "options": an object ({"range": 10, "both": true}:
 * "--range", "10", "--both"; false or null: left out) or a list of
 * words as on fray table's command line (["--range", "10"]). */
static fray_status option_words(request *r, const char **words, size_t *n)
{
	*n = 0;
	const fray_node *o = fray_map_get(r->root, "options");
	if (!o)
		return FRAY_OK;
	if (fray_node_kind_of(o) == FRAY_NODE_SEQ) {
		if (fray_node_len(o) > FRAY_GAME_REQUEST_MAX_OPTIONS)
			return frayi_fail_input(r->ctx, FRAY_ERR_LIMIT, "options", "options: at most %d words", FRAY_GAME_REQUEST_MAX_OPTIONS);
		for (size_t i = 0; i < fray_node_len(o); i++) {
			const fray_node *w = fray_node_item(o, i);
			if (fray_node_kind_of(w) != FRAY_NODE_SCALAR)
				return frayi_fail_input(r->ctx, FRAY_ERR_INPUT, "options", "options[%zu]: expected a string", i);
			words[(*n)++] = fray_node_scalar(w);
		}
		return FRAY_OK;
	}
	if (fray_node_kind_of(o) != FRAY_NODE_MAP)
		return frayi_fail_input(r->ctx, FRAY_ERR_INPUT, "options", "options: expected an object ({\"range\": 10}) or a list of words");
	for (size_t i = 0; i < fray_node_len(o); i++) {
		const char *key = fray_node_scalar(fray_node_key(o, i));
		const fray_node *v = fray_node_value(o, i);
		if (!key || !*key || strspn(key, "abcdefghijklmnopqrstuvwxyz0123456789-") != strlen(key) || key[0] == '-' ||
		    strlen(key) > TABLE_NAME_MAX)
			return frayi_fail_input(r->ctx, FRAY_ERR_INPUT, "options", "options: '%.48s' is not an option's name (lower case, "
					 "as \"range\" for --range)", key ? key : "");
		if (fray_node_kind_of(v) != FRAY_NODE_SCALAR)
			return frayi_fail_input(r->ctx, FRAY_ERR_INPUT, "options", "options.%s: expected a number, a string or true/false", key);
		const char *val = fray_node_scalar(v);
		bool plain = fray_node_plain(v);
		if (plain && (!strcmp(val, "false") || !strcmp(val, "null")))
			continue;
		if (*n + 2 > FRAY_GAME_REQUEST_MAX_OPTIONS)
			return frayi_fail_input(r->ctx, FRAY_ERR_LIMIT, "options", "options: at most %d words", FRAY_GAME_REQUEST_MAX_OPTIONS);
		snprintf(r->dashed[*n], sizeof r->dashed[*n], "--%s", key);
		words[*n] = r->dashed[*n];
		(*n)++;
		if (!(plain && !strcmp(val, "true")))
			words[(*n)++] = val;
	}
	return FRAY_OK;
}

static fray_status read_choices(request *r)
{
	const fray_node *c = fray_map_get(r->root, "choices");
	if (!c)
		return FRAY_OK;
	if (fray_node_kind_of(c) != FRAY_NODE_SEQ)
		return frayi_fail_input(r->ctx, FRAY_ERR_INPUT, "choices", "choices: expected a list of answers ([\"fire\"])");
	if (fray_node_len(c) > FRAY_GAME_REQUEST_MAX_CHOICES)
		return frayi_fail_input(r->ctx, FRAY_ERR_LIMIT, "choices", "choices: at most %d answers", FRAY_GAME_REQUEST_MAX_CHOICES);
	for (size_t i = 0; i < fray_node_len(c); i++) {
		const fray_node *a = fray_node_item(c, i);
		if (fray_node_kind_of(a) != FRAY_NODE_SCALAR)
			return frayi_fail_input(r->ctx, FRAY_ERR_INPUT, "choices", "choices[%zu]: expected a string", i);
		r->policy.answers[r->policy.nanswers++] = fray_node_scalar(a);
	}
	return FRAY_OK;
}

/* ---- writing the answer ---- */

static void put_key(request *r, const char *key)
{
	fprintf(r->out, ", \"%s\": ", key);
}

/* A JSON text the library made (an object or an array), without its last newline. */
static void put_raw(request *r, const char *key, const char *json)
{
	size_t n = strlen(json);
	while (n && (json[n - 1] == '\n' || json[n - 1] == ' '))
		n--;
	put_key(r, key);
	fwrite(json, 1, n, r->out);
}

static void put_text(request *r, const char *key, const char *s, size_t len)
{
	put_key(r, key);
	frayi_json_string_n(r->out, s, len);
}

/* The game's rule set, turn and text (when the op changed it or made it). */
static void put_game(request *r, const fray_game *game, bool text)
{
	put_key(r, "rules");
	frayi_json_string(r->out, fray_game_rules(game));
	fprintf(r->out, ", \"turn\": %d", fray_game_turn(game));
	if (text) {
		const char *bytes;
		size_t len;
		fray_game_save(game, &bytes, &len);
		put_text(r, "game", bytes, len);
	}
}

static fray_status put_status(request *r, const fray_game *game)
{
	char *s;
	fray_status st = fray_game_status(game, "json", &s);
	if (st == FRAY_OK)
		put_raw(r, "status", s);
	free(s);
	return st;
}

/* An action's options as its usage line names them ("--range IN",
 * "[--actions 2]", "[--rally | --recover-disorder]"): each with whether
 * it takes a value (the usage's word for it, or null for a flag) and
 * whether it is needed (not in brackets). The target (--at) is
 * the request's "target". */
static void put_usage_options(request *r, const char *usage)
{
	fputs("[", r->out);
	bool first = true;
	for (const char *p = strstr(usage, "--"); p; p = strstr(p, "--")) {
		size_t n = strspn(p + 2, "abcdefghijklmnopqrstuvwxyz0123456789-");
		const char *name = p + 2;
		p += 2 + n;
		if (!n || (n == 2 && !strncmp(name, "at", 2)))
			continue;
		const char *v = p + strspn(p, " ");
		size_t vn = strcspn(v, " ]|:");
		bool value = *p == ' ' && vn && v[0] != '-' && v[0] != '[' && v[0] != '|';
		/* outside brackets, the usage says it is needed */
		int depth = 0;
		for (const char *c = usage; c < name; c++)
			depth += *c == '[' ? 1 : *c == ']' ? -1 : 0;
		fprintf(r->out, "%s{\"name\": \"%.*s\", \"value\": ", first ? "" : ", ", (int)n, name);
		if (value)
			fprintf(r->out, "\"%.*s\"", (int)vn, v);
		else
			fputs("null", r->out);
		fprintf(r->out, ", \"required\": %s}", depth ? "false" : "true");
		first = false;
	}
	fputs("]", r->out);
}

static const table_action *action_named(const fray_game *game, const char *name)
{
	size_t n;
	table_rules rules = RULES_PRESIDIO;
	for (size_t i = 0; i < RULES_NRULES; i++)
		if (!strcmp(frayi_table_rules_names[i], fray_game_rules(game)))
			rules = (table_rules)i;
	const table_action *acts = frayi_table_actions_of(rules, &n);
	for (size_t i = 0; i < n; i++)
		if (!strcmp(acts[i].name, name))
			return &acts[i];
	return NULL;
}

/* units: each unit with the actions the rules let it take now. */
/* , "targets": [the names of the units the rules let unit take as the
 * action's target now] (fray_game_targets). */
static void put_targets(request *r, const fray_game *game, size_t unit, const char *action)
{
	size_t targets[TABLE_MAX_UNITS];
	size_t n = fray_game_targets(game, unit, action, targets, TABLE_MAX_UNITS);
	fputs(", \"targets\": [", r->out);
	for (size_t k = 0; k < n; k++) {
		fputs(k ? ", " : "", r->out);
		frayi_json_string(r->out, fray_game_unit(game, targets[k]));
	}
	fputs("]", r->out);
}

static fray_status op_units(request *r, fray_game *game)
{
	put_game(r, game, false);
	put_key(r, "units");
	fputs("[", r->out);
	for (size_t i = 0; i < fray_game_units(game); i++) {
		const char *names[32];
		size_t n = fray_game_actions(game, i, names, 32);
		fprintf(r->out, "%s{\"name\": ", i ? ", " : "");
		frayi_json_string(r->out, fray_game_unit(game, i));
		fputs(", \"actions\": [", r->out);
		for (size_t k = 0; k < n; k++) {
			const table_action *a = action_named(game, names[k]);
			fprintf(r->out, "%s{\"name\": \"%s\", \"target\": %s, \"usage\": ", k ? ", " : "", names[k],
				a && a->needs_target ? "true" : "false");
			frayi_json_string(r->out, a ? a->usage : "");
			fputs(", \"options\": ", r->out);
			put_usage_options(r, a ? a->usage : "");
			if (a && a->needs_target)
				put_targets(r, game, i, names[k]);
			fputs("}", r->out);
		}
		fputs("]}", r->out);
	}
	fputs("]", r->out);
	return put_status(r, game);
}

static fray_status op_status(request *r, fray_game *game)
{
	put_game(r, game, false);
	char *text;
	fray_status st = fray_game_status(game, "text", &text);
	if (st == FRAY_OK)
		put_text(r, "text", text, strlen(text));
	free(text);
	return st == FRAY_OK ? put_status(r, game) : st;
}

static fray_status op_log(request *r, fray_game *game)
{
	const char *format;
	fray_status st = text_field(r, "format", false, &format);
	if (st != FRAY_OK)
		return st;
	if (!format)
		format = "json";
	char *log;
	if ((st = fray_game_log(game, format, &log)) != FRAY_OK)
		return st;
	put_game(r, game, false);
	fprintf(r->out, ", \"format\": \"%s\"", format);
	if (!strcmp(format, "json"))
		put_raw(r, "log", log);
	else
		put_text(r, "log", log, strlen(log));
	free(log);
	return FRAY_OK;
}

static fray_status op_report(request *r, fray_game *game)
{
	char *html; /* the report's own styles only (table_report.c): no page's */
	fray_status st = fray_game_report_html(game, "", &html);
	if (st != FRAY_OK)
		return st;
	put_game(r, game, false);
	put_text(r, "html", html, strlen(html));
	free(html);
	return FRAY_OK;
}

static fray_status op_undo(request *r, fray_game *game)
{
	fray_status st = fray_game_undo(game);
	if (st != FRAY_OK)
		return st;
	put_game(r, game, true);
	return put_status(r, game);
}

/* The action's words: action, actor, target and options. */
typedef struct action_words {
	const char *action, *actor, *target;
	const char *opt[FRAY_GAME_REQUEST_MAX_OPTIONS];
	size_t nopt;
} action_words;

static fray_status read_action(request *r, action_words *w)
{
	fray_status st = text_field(r, "action", true, &w->action);
	if (st == FRAY_OK)
		st = text_field(r, "actor", false, &w->actor);
	if (st == FRAY_OK)
		st = text_field(r, "target", false, &w->target);
	if (st == FRAY_OK)
		st = option_words(r, w->opt, &w->nopt);
	return st;
}

static fray_status op_odds(request *r, fray_game *game)
{
	action_words w;
	fray_status st = read_action(r, &w);
	char *json = NULL, *text = NULL;
	if (st == FRAY_OK)
		st = fray_game_odds(game, w.action, w.actor, w.target, w.nopt, w.opt, true, &json);
	if (st == FRAY_OK)
		st = fray_game_odds(game, w.action, w.actor, w.target, w.nopt, w.opt, false, &text);
	if (st == FRAY_OK) {
		put_game(r, game, false);
		put_raw(r, "odds", json);
		put_text(r, "text", text, strlen(text));
	}
	free(json);
	free(text);
	return st;
}

static fray_status op_apply(request *r, fray_game *game)
{
	action_words w;
	fray_status st = read_action(r, &w);
	if (st == FRAY_OK)
		st = read_choices(r);
	if (st != FRAY_OK)
		return st;
	/* the policy's state is the request's: the question left open, if any, stays there */
	fray_policy *policy = fray_policy_new(r->ctx, &request_policy_ops, &r->policy);
	if (!policy)
		return fray_nomem(r->ctx);
	char *events = NULL;
	st = fray_game_apply(game, w.action, w.actor, w.target, w.nopt, w.opt, policy, &events);
	fray_policy_free(policy);
	if (st == FRAY_OK) {
		put_game(r, game, true);
		put_raw(r, "events", events);
		st = put_status(r, game);
	}
	free(events);
	return st;
}

/* A shipped example by its path ("examples/presidio/forces.yaml"), or NULL. */
static const embedded_file *shipped_file(const char *path)
{
	for (const embedded_file *f = fray_shipped_examples; f->path; f++)
		if (!strcmp(f->path, path))
			return f;
	return NULL;
}

/* The files a forces file names (a units file, a chit mix): shipped
 * examples only, since a request reads no file of the machine. */
static fray_status open_shipped(void *ud, fray_ctx *ctx, const char *path, fray_doc **out)
{
	(void)ud;
	*out = NULL;
	const embedded_file *f = shipped_file(path);
	if (!f)
		return fray_fail(ctx, FRAY_ERR_INPUT, "'%.200s': a request reads no files, only the shipped examples "
				 "(api/v1/examples lists them); a forces file sent as text names none", path);
	return fray_doc_load_string(ctx, f->path, (const char *)f->bytes, f->len, out);
}

/* new: rules, the forces (a shipped example named by "forces_name", or
 * its text in "forces"), the seed (required: the page picks one, so the
 * same request makes the same game). */
static fray_status op_new(request *r, fray_game **game)
{
	const char *rules, *forces, *forces_name;
	fray_status st = text_field(r, "rules", true, &rules);
	if (st == FRAY_OK)
		st = text_field(r, "forces", false, &forces);
	if (st == FRAY_OK)
		st = text_field(r, "forces_name", false, &forces_name);
	if (st != FRAY_OK)
		return st;
	const fray_node *seed_node = fray_map_get(r->root, "seed");
	int64_t seed = 0;
	if (!seed_node)
		return frayi_fail_input(r->ctx, FRAY_ERR_INPUT, "seed", "request: missing \"seed\" (op new): a whole number 0 to "
				 "%" PRId64 ", the game's dice", INT64_MAX);
	if (!fray_doc_int(r->doc, seed_node, 0, INT64_MAX, "seed", &seed))
		return fray_doc_status(r->doc);
	size_t len;
	if (forces) {
		len = strlen(forces);
		if (!forces_name || !*forces_name)
			forces_name = "forces.yaml";
	} else {
		const embedded_file *f = forces_name ? shipped_file(forces_name) : NULL;
		if (!f)
			return frayi_fail_input(r->ctx, FRAY_ERR_INPUT, "forces", "request: \"forces\" (a forces file's text) or "
					 "\"forces_name\" (a shipped example: api/v1/examples) is needed (op new)%s%.200s%s",
					 forces_name ? ", not '" : "", forces_name ? forces_name : "", forces_name ? "'" : "");
		forces = (const char *)f->bytes;
		len = f->len;
	}
	return fray_game_new(r->ctx, r->name, rules, forces_name, forces, len, (uint64_t)seed, open_shipped, NULL, game);
}

static fray_status run_op(request *r)
{
	fray_status st;
	static const char *const ops[] = {"new", "status", "units", "odds", "apply", "undo", "log", "report"};
	size_t k = 0;
	while (k < sizeof ops / sizeof *ops && strcmp(ops[k], r->op))
		k++;
	if (k == sizeof ops / sizeof *ops)
		return frayi_fail_input(r->ctx, FRAY_ERR_INPUT, "op", "op: expected new, status, units, odds, apply, undo, log or "
				 "report, got '%.48s'", r->op);
	fray_game *game = NULL;
	if (k == 0) {
		st = op_new(r, &game);
		if (st == FRAY_OK)
			put_game(r, game, true);
		if (st == FRAY_OK)
			st = put_status(r, game);
		fray_game_free(game);
		return st;
	}
	const fray_node *g = fray_map_get(r->root, "game");
	if (!g || fray_node_kind_of(g) != FRAY_NODE_SCALAR)
		return frayi_fail_input(r->ctx, FRAY_ERR_INPUT, "game", "request: \"game\": expected the game file's text (op %s)", r->op);
	r->game = fray_node_scalar(g);
	r->game_len = strlen(r->game);
	if (r->game_len > FRAY_GAME_REQUEST_MAX_GAME)
		return frayi_fail_input(r->ctx, FRAY_ERR_LIMIT, "game", "game: %zu bytes: a game file's limit is %u KiB (%u bytes)",
				 r->game_len, FRAY_GAME_REQUEST_MAX_GAME >> 10, FRAY_GAME_REQUEST_MAX_GAME);
	if ((st = fray_game_load(r->ctx, r->name, r->game, r->game_len, &game)) != FRAY_OK)
		return st;
	if (r->opts) {
		fray_call_opts budget = {.max_paths = r->opts->max_paths, .max_bytes = r->opts->max_bytes,
					 .stop = r->opts->stop, .progress = r->opts->progress, .ud = r->opts->ud};
		frayi_game_odds_budget(game, &budget);
	}
	switch (k) {
	case 1: st = op_status(r, game); break;
	case 2: st = op_units(r, game); break;
	case 3: st = op_odds(r, game); break;
	case 4: st = op_apply(r, game); break;
	case 5: st = op_undo(r, game); break;
	case 6: st = op_log(r, game); break;
	default: st = op_report(r, game); break;
	}
	fray_game_free(game);
	return st;
}

/* {"error": msg} and the question left open, if any. */
static char *error_answer(const request *r, const char *msg)
{
	char *s = NULL;
	size_t len;
	FILE *f = open_memstream(&s, &len);
	if (!f)
		return NULL;
	fputs("{\"error\": ", f);
	frayi_json_string(f, msg);
	if (r && fray_ctx_input(r->ctx)) { /* the member it is about, for the page's field */
		fputs(", \"input\": ", f);
		frayi_json_string(f, fray_ctx_input(r->ctx));
	}
	if (r && r->policy.asked) {
		fputs(", \"question\": {\"kind\": ", f);
		frayi_json_string(f, r->policy.kind);
		fputs(", \"prompt\": ", f);
		frayi_json_string(f, r->policy.prompt);
		fputs(", \"options\": [", f);
		for (size_t i = 0; i < r->policy.noptions; i++) {
			fputs(i ? ", " : "", f);
			frayi_json_string(f, r->policy.options[i]);
		}
		fprintf(f, "], \"suggested\": %zu}", r->policy.suggested);
	}
	fputs("}\n", f);
	if (fclose(f) != 0) {
		free(s);
		return NULL;
	}
	return s;
}

FRAY_API fray_status fray_game_request(fray_ctx *ctx, const char *request_json, size_t len, char **answer)
{
	return fray_game_request_with(ctx, request_json, len, NULL, answer);
}

FRAY_API fray_status fray_game_request_with(fray_ctx *ctx, const char *request_json, size_t len,
					    const fray_request_opts *opts, char **answer)
{
	if (!answer)
		return ctx ? fray_fail(ctx, FRAY_ERR_INPUT, "fray_game_request: NULL argument") : FRAY_ERR_INPUT;
	*answer = NULL;
	if (!ctx || (!request_json && len))
		return ctx ? fray_fail(ctx, FRAY_ERR_INPUT, "fray_game_request: NULL argument") : FRAY_ERR_INPUT;
	request r = {.ctx = ctx, .opts = opts};
	fray_status st;
	if (len > FRAY_GAME_REQUEST_MAX_BYTES)
		st = fray_fail(ctx, FRAY_ERR_LIMIT, "request: at most %u bytes", FRAY_GAME_REQUEST_MAX_BYTES);
	else
		st = fray_doc_load_string(ctx, "request", request_json ? request_json : "", len, &r.doc);
	if (st == FRAY_OK) {
		r.root = fray_doc_root(r.doc);
		if (fray_node_kind_of(r.root) != FRAY_NODE_MAP || !r.root)
			st = fray_fail(ctx, FRAY_ERR_INPUT, "request: expected a JSON object ({\"op\": ...})");
		else if (!fray_doc_known_keys(r.doc, r.root, known_keys, sizeof known_keys / sizeof *known_keys))
			st = fray_doc_status(r.doc);
	}
	char *body = NULL;
	size_t body_len;
	if (st == FRAY_OK)
		st = text_field(&r, "op", true, &r.op);
	if (st == FRAY_OK)
		st = text_field(&r, "name", false, &r.name);
	if (!r.name || !*r.name)
		r.name = "game.yaml";
	if (st == FRAY_OK) {
		if (!(r.out = open_memstream(&body, &body_len)))
			st = fray_nomem(ctx);
	}
	if (st == FRAY_OK) {
		fputs("{\"op\": ", r.out);
		frayi_json_string(r.out, r.op ? r.op : "");
		st = run_op(&r);
		fputs("}\n", r.out);
		if (fclose(r.out) != 0 && st == FRAY_OK)
			st = fray_nomem(ctx);
	}
	if (st == FRAY_OK) {
		*answer = body;
	} else {
		free(body);
		*answer = error_answer(&r, fray_ctx_message(ctx));
	}
	fray_doc_free(r.doc);
	return st;
}
