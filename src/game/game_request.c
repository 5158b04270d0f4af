/* include/fray/game_request.h: one JSON request, one JSON answer, through
 * include/fray/game.h. The request is read with the library's YAML/JSON
 * reader (its size, depth and node limits hold); the answer is written to
 * a memory stream. No rule is decided here: the game decides, this only
 * carries words in and JSON out (docs/json/game-request.md). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fray/game.h>
#include <fray/game_request.h>
#include "ruleset.h"
#include "game_apply.h"
#include "../core/internal.h"
#include "embedded.h"
#include "../catalog/catalog.h"

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
		frayi_copy_name(p->kind, sizeof p->kind, c->kind);
		frayi_copy_name(p->prompt, sizeof p->prompt, c->prompt);
		p->noptions = c->noptions < ASKED_OPTIONS ? c->noptions : ASKED_OPTIONS;
		for (size_t i = 0; i < p->noptions; i++)
			frayi_copy_name(p->options[i], sizeof p->options[i], c->options[i]);
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
	const fray_request_opts *opts; /* the odds' budgets and watch; NULL: none */
} request;

static const char *const known_keys[] = {"op", "game", "name", "rules", "forces", "forces_name", "seed", "action",
					 "actor", "target", "options", "choices", "format", "goal", "side"};

/* The string at key (NULL when absent); a value that is not a scalar is an error. */
static fray_status text_field(request *r, const char *key, bool required, const char **out)
{
	*out = NULL;
	const fray_node *n = fray_map_get(r->root, key);
	/* JSON's null is no name: absent where a field may be left out,
	 * refused where it is needed (never the unit or side "null") */
	bool null = n && fray_node_kind_of(n) == FRAY_NODE_SCALAR && fray_node_plain(n) &&
		    !strcmp(fray_node_scalar(n), "null");
	if ((!n || null) && !required)
		return FRAY_OK;
	if (!n)
		return frayi_fail_input(r->ctx, FRAY_ERR_INPUT, key, "request: missing \"%s\" (op %s)", key, r->op ? r->op : "?");
	if (null)
		return frayi_fail_input(r->ctx, FRAY_ERR_INPUT, key, "request: \"%s\": expected a string, got null", key);
	if (fray_node_kind_of(n) != FRAY_NODE_SCALAR)
		return frayi_fail_input(r->ctx, FRAY_ERR_INPUT, key, "request: \"%s\": expected a string", key);
	/* a JSON string is quoted: an unquoted 5 or true is a number or a
	 * truth, never a unit or side named "5" */
	if (fray_node_plain(n))
		return frayi_fail_input(r->ctx, FRAY_ERR_INPUT, key, "request: \"%s\": expected a string, got %.48s", key,
					fray_node_scalar(n));
	*out = fray_node_scalar(n);
	return FRAY_OK;
}

static const table_action *action_named(const fray_game *game, const char *name);

/* An option's JSON value as the typed option its descriptor's type asks
 * for (action_desc.c: the catalogue's input, or the game's own); what is
 * no value of that type refused naming it as the request names it. The
 * range, choices and the rest are the game's to check
 * (fray_game_apply's checks, game_apply.c). */
static fray_status typed_value(request *r, const char *key, const in_desc *in, const fray_node *v, fray_game_option *o)
{
	const char *val = fray_node_scalar(v);
	bool plain = fray_node_plain(v);
	if (in && in->type == IN_BOOL) {
		if (!plain || (strcmp(val, "true") && strcmp(val, "false")))
			return frayi_fail_input(r->ctx, FRAY_ERR_INPUT, key, "options.%s: expected true or false, got '%.48s'", key, val);
		o->kind = FRAY_GAME_BOOL;
		o->b = !strcmp(val, "true");
		return FRAY_OK;
	}
	if (in && (in->type == IN_INT || in->type == IN_NUMBER)) {
		char *end;
		double x = strtod(val, &end);
		bool whole = in->type == IN_INT;
		if (!plain || !*val || *end || x != x || (whole && x != (double)(int64_t)x))
			return frayi_fail_input(r->ctx, FRAY_ERR_INPUT, key, "options.%s: expected %s from %lld to %lld, got '%.48s'", key,
					 whole ? "a whole number" : "a number", (long long)in->min, (long long)in->max, val);
		o->kind = FRAY_GAME_NUMBER;
		o->x = x;
		return FRAY_OK;
	}
	o->kind = FRAY_GAME_TEXT;
	o->s = val;
	return FRAY_OK;
}

/* The action's words from the request: "options" an object mapped
 * through the action's descriptors ({"range": 10, "taking-cover": true}:
 * typed options, checked by the game as fray_game_apply checks them;
 * false or null: left out), or a list of words as on fray table's command
 * line (["--range", "10"]: any option of the procedures, as fray table
 * takes them). */
static fray_status request_words(request *r, fray_game *game, const char *action, const char *actor,
				 const char *target, game_words *w)
{
	w->n = 0;
	const fray_node *o = fray_map_get(r->root, "options");
	if (o && fray_node_kind_of(o) == FRAY_NODE_SEQ) {
		if (fray_node_len(o) > FRAY_GAME_REQUEST_MAX_OPTIONS)
			return frayi_fail_input(r->ctx, FRAY_ERR_LIMIT, "options", "options: at most %d words", FRAY_GAME_REQUEST_MAX_OPTIONS);
		w->word[w->n++] = action;
		if (actor)
			w->word[w->n++] = actor;
		if (target) {
			w->word[w->n++] = "--at";
			w->word[w->n++] = target;
		}
		for (size_t i = 0; i < fray_node_len(o); i++) {
			const fray_node *x = fray_node_item(o, i);
			if (fray_node_kind_of(x) != FRAY_NODE_SCALAR)
				return frayi_fail_input(r->ctx, FRAY_ERR_INPUT, "options", "options[%zu]: expected a string", i);
			w->word[w->n++] = fray_node_scalar(x);
		}
		return FRAY_OK;
	}
	if (o && fray_node_kind_of(o) != FRAY_NODE_MAP)
		return frayi_fail_input(r->ctx, FRAY_ERR_INPUT, "options", "options: expected an object ({\"range\": 10}) or a list of words");
	fray_game_option opts[GAME_MAX_OPTIONS];
	size_t n = 0;
	const table_action *act = action_named(game, action);
	for (size_t i = 0; o && i < fray_node_len(o); i++) {
		const char *key = fray_node_scalar(fray_node_key(o, i));
		const fray_node *v = fray_node_value(o, i);
		const in_desc *in = NULL;
		if (act && key)
			frayi_action_opt_named(act, key, &in);
		if (n == GAME_MAX_OPTIONS)
			return frayi_fail_input(r->ctx, FRAY_ERR_LIMIT, "options", "options: at most %d", GAME_MAX_OPTIONS);
		if (in && fray_node_kind_of(v) != FRAY_NODE_SCALAR)
			return frayi_fail_input(r->ctx, FRAY_ERR_INPUT, key, "options.%s: expected a number, a string or true/false", key);
		if (in && fray_node_plain(v) && !strcmp(fray_node_scalar(v), "null"))
			continue;
		opts[n] = (fray_game_option){.name = key ? key : ""};
		fray_status st = in ? typed_value(r, key, in, v, &opts[n]) : FRAY_OK;
		if (st != FRAY_OK)
			return st;
		/* no descriptor: the game refuses it, naming the action's options */
		if (!in)
			opts[n].kind = FRAY_GAME_TEXT;
		n++;
	}
	return frayi_game_words(game, action, actor, target, n, opts, w);
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

static const char *const type_names[] = {"int", "number", "bool", "choice", "string", "file"};

/* An action's options, typed, from its descriptor (action_desc.c): each
 * with its name as a request gives it ("taking-cover"), type, range,
 * choices, default, whether the action needs it, whether it is rare
 * ("more": folded under More on the game screen), what it excludes and
 * its help; and "suggested", what the rules give this unit now (a
 * Presidio line loaded: a volley). The target (--at) is the request's
 * "target". */
static void put_options(request *r, const table_game *game, size_t unit, const table_action *a)
{
	fputs("[", r->out);
	const in_desc *in;
	const action_opt *o;
	bool first = true;
	for (size_t k = 0; a && (o = frayi_action_opt(a, k, &in)); k++) {
		if (!in)
			continue;
		char opt[72];
		frayi_call_option_name(in->name, opt, sizeof opt);
		fprintf(r->out, "%s{\"name\": \"%s\", \"type\": \"%s\"", first ? "" : ", ", opt + 2, type_names[in->type]);
		first = false;
		if (in->type == IN_INT || in->type == IN_NUMBER)
			fprintf(r->out, ", \"min\": %lld, \"max\": %lld", (long long)in->min, (long long)in->max);
		const char *const *choices = in->choices;
		size_t nchoices = in->nchoices;
		if (in->type == IN_STRING && in->suggest) {
			fputs(", \"choices\": [", r->out);
			for (size_t c = 0; in->suggest(c); c++) {
				fputs(c ? ", " : "", r->out);
				frayi_json_string(r->out, in->suggest(c));
			}
			fputs("]", r->out);
		} else if (in->type == IN_CHOICE) {
			fputs(", \"choices\": [", r->out);
			for (size_t c = 0; c < nchoices; c++) {
				fputs(c ? ", " : "", r->out);
				frayi_json_string(r->out, choices[c]);
			}
			fputs("]", r->out);
		}
		/* what the rules give this unit now (a Presidio line loaded: a
		 * volley): the form starts there, and sends it */
		const char *now = frayi_action_default(game, unit, a, in->name);
		if (now) {
			fputs(", \"suggested\": ", r->out);
			frayi_json_string(r->out, now);
		}
		if (in->type == IN_INT && !o->required && in->def >= in->min && in->def <= in->max) {
			fprintf(r->out, ", \"default\": %lld", (long long)in->def);
		} else if (in->type == IN_BOOL) {
			fprintf(r->out, ", \"default\": %s", in->def ? "true" : "false");
		} else if (in->type == IN_CHOICE && !o->required && in->def >= 0 && (size_t)in->def < nchoices) {
			fputs(", \"default\": ", r->out);
			frayi_json_string(r->out, choices[in->def]);
		}
		fprintf(r->out, ", \"required\": %s", o->required ? "true" : "false");
		if (o->more && !o->required)
			fputs(", \"more\": true", r->out);
		if (in->unit) {
			fputs(", \"unit\": ", r->out);
			frayi_json_string(r->out, in->unit);
		}
		if (in->excludes) {
			fputs(", \"excludes\": [", r->out);
			for (const char *const *e = in->excludes; *e; e++) {
				frayi_call_option_name(*e, opt, sizeof opt);
				fprintf(r->out, "%s\"%s\"", e == in->excludes ? "" : ", ", opt + 2);
			}
			fputs("]", r->out);
		}
		fputs(", \"help\": ", r->out);
		frayi_json_string(r->out, in->help ? in->help : "");
		fputs("}", r->out);
	}
	fputs("]", r->out);
}

static const table_action *action_named(const fray_game *game, const char *name)
{
	size_t n = 0;
	const game_ruleset *rs = frayi_ruleset_find(fray_game_rules(game));
	const table_action *acts = rs ? rs->actions(&n) : NULL;
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

/* "units": each unit with the actions the rules let it take now, each
 * action's typed options (put_options) and its targets. */
static void put_units(request *r, fray_game *game)
{
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
			char usage[ACTION_USAGE_MAX];
			frayi_json_string(r->out, a ? frayi_action_usage(a, usage, sizeof usage) : "");
			fputs(", \"options\": ", r->out);
			put_options(r, frayi_game_table(game), i, a);
			if (a && a->needs_target)
				put_targets(r, game, i, names[k]);
			fputs("}", r->out);
		}
		fputs("]}", r->out);
	}
	fputs("]", r->out);
}

/* What the game screen shows of the forces as they stand, so that one
 * request answers a shot: the units with their actions, options and
 * targets, and the status. The game is the one read for the request. */
static fray_status put_view(request *r, fray_game *game)
{
	put_units(r, game);
	return put_status(r, game);
}

static fray_status op_units(request *r, fray_game *game)
{
	put_game(r, game, false);
	return put_view(r, game);
}

/* actions: a rule set's actions, each with its typed options (no game:
 * what api/v1/game's apply takes, for a schema or a form made ahead). */
static fray_status op_actions(request *r)
{
	const char *rules;
	fray_status st = text_field(r, "rules", true, &rules);
	if (st != FRAY_OK)
		return st;
	const game_ruleset *rs = frayi_ruleset_find(rules);
	if (!rs) {
		char ids[256];
		frayi_ruleset_ids_words(ids, sizeof ids);
		return frayi_fail_input(r->ctx, FRAY_ERR_INPUT, "rules", "rules: expected %s, got '%.48s'", ids, rules);
	}
	size_t n;
	const table_action *acts = rs->actions(&n);
	put_key(r, "rules");
	frayi_json_string(r->out, rules);
	put_key(r, "actions");
	fputs("[", r->out);
	for (size_t i = 0; i < n; i++) {
		fprintf(r->out, "%s{\"name\": \"%s\", \"target\": %s, \"procedures\": [", i ? ", " : "", acts[i].name,
			acts[i].needs_target ? "true" : "false");
		for (size_t p = 0; acts[i].desc && p < 4 && acts[i].desc->procs[p]; p++)
			fprintf(r->out, "%s\"%s\"", p ? ", " : "", acts[i].desc->procs[p]);
		fputs("], \"usage\": ", r->out);
		char usage[ACTION_USAGE_MAX];
		frayi_json_string(r->out, frayi_action_usage(&acts[i], usage, sizeof usage));
		fputs(", \"options\": ", r->out);
		put_options(r, NULL, 0, &acts[i]);
		fputs("}", r->out);
	}
	fputs("]", r->out);
	return FRAY_OK;
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
	size_t n = fray_game_log_len(game);
	char took[1024] = "";
	if (n)
		frayi_table_action_words(fray_game_log_command(game, n - 1), took, sizeof took);
	fray_status st = fray_game_undo(game);
	if (st != FRAY_OK)
		return st;
	put_game(r, game, true);
	put_key(r, "undone");
	frayi_json_string(r->out, took);
	return put_view(r, game);
}

/* The action's words: action, actor, target and options. */
static fray_status read_action(request *r, fray_game *game, game_words *w)
{
	const char *action, *actor, *target;
	fray_status st = text_field(r, "action", true, &action);
	if (st == FRAY_OK)
		st = text_field(r, "actor", false, &actor);
	if (st == FRAY_OK)
		st = text_field(r, "target", false, &target);
	if (st == FRAY_OK)
		st = request_words(r, game, action, actor, target, w);
	return st;
}

/* The odds, computed once: as JSON ("odds"), or with "format": "text" as
 * the text for people ("text") instead. */
static fray_status op_odds(request *r, fray_game *game)
{
	game_words words, *w = &words;
	const char *format;
	fray_status st = read_action(r, game, w);
	if (st == FRAY_OK)
		st = text_field(r, "format", false, &format);
	if (st == FRAY_OK && format && strcmp(format, "json") != 0 && strcmp(format, "text") != 0)
		st = frayi_fail_input(r->ctx, FRAY_ERR_INPUT, "format", "format: expected \"json\" (the default) or \"text\" (op odds), "
			       "got '%.48s'", format);
	bool text = st == FRAY_OK && format && !strcmp(format, "text");
	char *out = NULL;
	if (st == FRAY_OK)
		st = fray_game_act_odds(game, w->n, w->word, text ? FRAY_FORMAT_TEXT : FRAY_FORMAT_JSON, &out);
	if (st == FRAY_OK) {
		put_game(r, game, false);
		if (text)
			put_text(r, "text", out, strlen(out));
		else
			put_raw(r, "odds", out);
	}
	free(out);
	return st;
}

static fray_status op_apply(request *r, fray_game *game)
{
	game_words words, *w = &words;
	fray_status st = read_action(r, game, w);
	if (st == FRAY_OK)
		st = read_choices(r);
	/* the policy's state is the request's: the question left open, if any, stays there */
	fray_policy *policy = st == FRAY_OK ? fray_policy_new(r->ctx, &request_policy_ops, &r->policy) : NULL;
	if (st == FRAY_OK && !policy)
		st = frayi_nomem(r->ctx);
	char *events = NULL, *story = NULL;
	if (st == FRAY_OK)
		st = frayi_game_act_words(game, w->n, w->word, policy, &events, &story);
	fray_policy_free(policy);
	if (st == FRAY_OK) {
		put_game(r, game, true);
		put_raw(r, "events", events);
		put_text(r, "story", story, strlen(story));
		/* the new entry in words ("Presidials: shoot at Apaches (range 10)") */
		size_t n = fray_game_log_len(game);
		char says[1024] = "";
		if (n)
			frayi_table_action_words(fray_game_log_command(game, n - 1), says, sizeof says);
		put_key(r, "says");
		frayi_json_string(r->out, says);
		st = put_view(r, game);
	}
	free(events);
	free(story);
	return st;
}

/* A shipped example by its path ("examples/presidio/forces.yaml"), or NULL. */
static const embedded_file *shipped_file(const char *path)
{
	for (const embedded_file *f = frayi_shipped_examples; f->path; f++)
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
		return frayi_fail(ctx, FRAY_ERR_INPUT, "'%.200s': a request reads no files, only the shipped examples "
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

/* ---- advice and solo play (issue 44): the library's JSON spliced in ---- */

/* "options" for advise and play: a list of words (as fray table's:
 * ["--range", "10"]) into words, or an object of typed options
 * ({"range": 10, "taking_cover": true}; false: the flag not given, null:
 * left out) into opts (*typed). Each action that takes an option gets
 * it; one that none takes is refused by the advice. */
static fray_status situation(request *r, const char **words, fray_game_option *opts, size_t *n, bool *typed)
{
	*n = 0;
	const fray_node *o = fray_map_get(r->root, "options");
	size_t len = fray_node_len(o);
	bool map = fray_node_kind_of(o) == FRAY_NODE_MAP;
	*typed = map;
	if (o && !map && fray_node_kind_of(o) != FRAY_NODE_SEQ)
		return frayi_fail_input(r->ctx, FRAY_ERR_INPUT, "options", "options: expected an object or a list of words");
	if (len > FRAY_GAME_REQUEST_MAX_OPTIONS / 2)
		return frayi_fail_input(r->ctx, FRAY_ERR_LIMIT, "options", "options: at most %d", FRAY_GAME_REQUEST_MAX_OPTIONS / 2);
	for (size_t i = 0; i < len; i++) {
		const fray_node *v = map ? fray_node_value(o, i) : fray_node_item(o, i);
		const char *val = fray_node_scalar(v), *key = map ? fray_node_scalar(fray_node_key(o, i)) : NULL;
		if (!val || (map && (!key || strlen(key) > TABLE_NAME_MAX)))
			return frayi_fail_input(r->ctx, FRAY_ERR_INPUT, "options", "options: expected names and plain values");
		if (!map) {
			words[(*n)++] = val;
			continue;
		}
		bool plain = fray_node_plain(v);
		if (plain && !strcmp(val, "null"))
			continue;
		fray_game_option *t = &opts[(*n)++];
		*t = (fray_game_option){.name = key, .kind = FRAY_GAME_TEXT, .s = val};
		char *end;
		if (plain && (!strcmp(val, "true") || !strcmp(val, "false"))) {
			t->kind = FRAY_GAME_BOOL;
			t->b = !strcmp(val, "true");
		} else if (plain && *val && (errno = 0, t->i = strtoll(val, &end, 10), !*end && !errno)) {
			t->kind = FRAY_GAME_INT;
		} else if (plain && *val && (t->x = strtod(val, &end), !*end)) {
			t->kind = FRAY_GAME_NUMBER;
		}
	}
	return FRAY_OK;
}

/* The members of a JSON object the library made, after the answer's own. */
static void put_members(request *r, const char *json)
{
	const char *open = strchr(json, '{'), *close = strrchr(json, '}');
	if (open && close && close > open + 1)
		fprintf(r->out, ", %.*s", (int)(close - open - 1), open + 1);
}

/* advise: "actor" (the unit), "goal", "options": the unit's actions
 * ranked ({"goal", "unit", "actions"}, as `fray table GAME advise
 * --json`); play: "side", "goal", "options": fray's move for the side
 * ({"side", "goal", "played", "says", "events"}), the new game and the
 * view. */
static fray_status op_advise_or_play(request *r, fray_game *game, bool play)
{
	const char *who, *goal, *words[FRAY_GAME_REQUEST_MAX_OPTIONS];
	fray_game_option opts[FRAY_GAME_REQUEST_MAX_OPTIONS];
	size_t n;
	bool typed;
	/* a member of another op is refused, not ignored: advice given for
	 * "target": "X" would rank every target */
	const char *const others[] = {"action", "target", "choices", "seed", "rules", "forces", "forces_name",
				      play ? "actor" : "side"};
	for (size_t i = 0; i < sizeof others / sizeof *others; i++)
		if (fray_map_get(r->root, others[i]))
			return frayi_fail_input(r->ctx, FRAY_ERR_INPUT, others[i], "request: \"%s\" is not read by op %s "
						"(it takes %s, goal and options)", others[i], r->op, play ? "side" : "actor");
	fray_status st = text_field(r, play ? "side" : "actor", true, &who);
	if (st == FRAY_OK)
		st = text_field(r, "goal", false, &goal);
	if (st == FRAY_OK)
		st = situation(r, words, opts, &n, &typed);
	char *out = NULL;
	if (st == FRAY_OK && typed)
		st = (play ? fray_game_play_typed : fray_game_advise_typed)(game, who, goal, n, opts, FRAY_FORMAT_JSON,
									     &out);
	else if (st == FRAY_OK)
		st = (play ? fray_game_play : fray_game_advise)(game, who, goal, n, words, FRAY_FORMAT_JSON, &out);
	if (st == FRAY_OK) {
		put_game(r, game, play);
		put_members(r, out);
		if (play)
			st = put_view(r, game);
	}
	free(out);
	return st;
}

static fray_status run_op(request *r)
{
	fray_status st;
	static const char *const ops[] = {"new", "status", "units", "odds", "apply", "undo", "log", "report", "actions",
					  "advise", "play"};
	size_t k = 0;
	while (k < sizeof ops / sizeof *ops && strcmp(ops[k], r->op))
		k++;
	if (k == sizeof ops / sizeof *ops)
		return frayi_fail_input(r->ctx, FRAY_ERR_INPUT, "op", "op: expected new, status, units, odds, apply, undo, log, "
				 "report, actions, advise or play, got '%.48s'", r->op);
	if (k == 8)
		return op_actions(r);
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
	case 9: st = op_advise_or_play(r, game, false); break;
	case 10: st = op_advise_or_play(r, game, true); break;
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
		return ctx ? frayi_fail(ctx, FRAY_ERR_INPUT, "fray_game_request: NULL argument") : FRAY_ERR_INPUT;
	*answer = NULL;
	if (!ctx || (!request_json && len))
		return ctx ? frayi_fail(ctx, FRAY_ERR_INPUT, "fray_game_request: NULL argument") : FRAY_ERR_INPUT;
	request r = {.ctx = ctx, .opts = opts};
	fray_status st;
	if (len > FRAY_GAME_REQUEST_MAX_BYTES)
		st = frayi_fail(ctx, FRAY_ERR_LIMIT, "request: at most %u bytes", FRAY_GAME_REQUEST_MAX_BYTES);
	else
		st = fray_doc_load_string(ctx, "request", request_json ? request_json : "", len, &r.doc);
	if (st == FRAY_OK) {
		r.root = fray_doc_root(r.doc);
		if (fray_node_kind_of(r.root) != FRAY_NODE_MAP || !r.root)
			st = frayi_fail(ctx, FRAY_ERR_INPUT, "request: expected a JSON object ({\"op\": ...})");
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
			st = frayi_nomem(ctx);
	}
	if (st == FRAY_OK) {
		fputs("{\"op\": ", r.out);
		frayi_json_string(r.out, r.op ? r.op : "");
		st = run_op(&r);
		fputs("}\n", r.out);
		if (fclose(r.out) != 0 && st == FRAY_OK)
			st = frayi_nomem(ctx);
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
