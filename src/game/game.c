/* include/fray/game.h: the game as a library. A fray_game holds its game
 * file's text and the game read from it; an action runs on a copy
 * (frayi_table_act), and takes the text frayi_table_text makes as the new
 * game: the same sequence `fray table` runs on a file, so the bytes are
 * the same. The text is read once (issue 42): after an action only what
 * it wrote anew is read back. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ruleset.h"
#include "advise.h"
#include "game_apply.h"
#include "../common/text.h"
#include "../core/internal.h"

struct fray_game {
	fray_ctx *ctx;
	char *name;
	char *text;              /* the game file's text, text_len bytes */
	size_t text_len;
	table_game *now;         /* the game as text reads (its doc and log
				    borrowed from docs) */
	/* the documents now's log entries, forces and mix live in: the game
	 * file as read, then what each action wrote (the read-back of its
	 * forces and its entry, frayi_table_text), so an action reads no
	 * old entry again (issue 42) */
	fray_doc **docs;
	size_t ndocs, capdocs;
	/* the budgets of its exact odds (paths, memory, stop, progress): none
	 * but the engine's until frayi_game_odds_budget sets them */
	fray_call_opts odds_budget;
};

const table_game *frayi_game_table(const fray_game *game)
{
	return game->now;
}

void frayi_game_odds_budget(fray_game *game, const fray_call_opts *budget)
{
	game->odds_budget = *budget;
}

FRAY_API void fray_game_set_odds_budget(fray_game *game, const fray_call_opts *budget)
{
	if (!game)
		return;
	if (budget)
		frayi_game_odds_budget(game, &(fray_call_opts){.max_paths = budget->max_paths,
							  .max_bytes = budget->max_bytes, .stop = budget->stop,
							  .progress = budget->progress, .ud = budget->ud});
	else
		game->odds_budget = (fray_call_opts){0};
}

/* A game read from text (it keeps doc's nodes: the log). */
static fray_status read_text(fray_game *game, table_game **out)
{
	*out = NULL;
	frayi_game_count_read(game->text_len, true);
	table_game *g = frayi_game_calloc(game->ctx, 1, sizeof *g);
	if (!g)
		return frayi_nomem(game->ctx);
	g->cmd = "table";
	g->ctx = game->ctx;
	fray_doc *doc;
	if (fray_doc_load_string(game->ctx, game->name, game->text, game->text_len, &doc) != FRAY_OK) {
		frayi_game_dealloc(game->ctx, g);
		return fray_ctx_status(game->ctx);
	}
	int st = frayi_table_load_doc(g, game->ctx, game->name, doc);
	if (st != FRAY_OK) {
		frayi_table_free(g);
		frayi_game_dealloc(game->ctx, g);
		return (fray_status)st;
	}
	*out = g;
	return FRAY_OK;
}

static void drop(table_game *g)
{
	if (!g)
		return;
	frayi_table_free(g);
	frayi_game_dealloc(g->ctx, g);
}

/* A game whose documents are the fray_game's: dropped without them. */
static void drop_borrowing(table_game *g)
{
	if (!g)
		return;
	g->doc = g->mix_doc = NULL;
	drop(g);
}

/* A working copy of the game as read, for an action, its odds or an
 * undo, without reading the text again: the copy borrows the game's
 * documents and log (the log's nodes, the chit mix), which outlive it
 * (the game takes its new state only after the copy is dropped); nothing
 * the copy does reaches the game. */
static fray_status working_copy(fray_game *game, table_game **out)
{
	table_game *g = frayi_game_alloc(game->ctx, sizeof *g);
	*out = g;
	if (!g)
		return frayi_nomem(game->ctx);
	memcpy(g, game->now, sizeof *g);
	g->nsteps = 0;
	g->notes_len = g->facts_len = 0;
	g->notes[0] = g->asked[0] = g->facts[0] = '\0';
	g->policy = NULL;
	g->odds = NULL;
	g->odds_out = NULL;
	return FRAY_OK;
}

static void drop_copy(table_game *g)
{
	if (!g)
		return;
	g->log = NULL; /* the game's */
	g->nlog = 0;
	drop_borrowing(g);
}

/* Keeps doc among the game's documents (FRAY_ERR_NOMEM: doc freed). */
static fray_status keep_doc(fray_game *game, fray_doc *doc)
{
	if (game->ndocs == game->capdocs) {
		size_t cap = game->capdocs ? 2 * game->capdocs : 4;
		fray_doc **d = frayi_game_alloc(game->ctx, cap * sizeof *d);
		if (!d) {
			fray_doc_free(doc);
			return frayi_nomem(game->ctx);
		}
		if (game->ndocs)
			memcpy(d, game->docs, game->ndocs * sizeof *d);
		frayi_game_dealloc(game->ctx, game->docs);
		game->docs = d;
		game->capdocs = cap;
	}
	game->docs[game->ndocs++] = doc;
	return FRAY_OK;
}

static void drop_docs(fray_game *game)
{
	for (size_t i = 0; i < game->ndocs; i++)
		fray_doc_free(game->docs[i]);
	game->ndocs = 0;
}

/* Takes text as the game's, read back whole. */
static fray_status take_text(fray_game *game, char *text, size_t len)
{
	char *old = game->text;
	size_t old_len = game->text_len;
	game->text = text;
	game->text_len = len;
	table_game *g;
	fray_status st = read_text(game, &g);
	if (st != FRAY_OK) {
		game->text = old;
		game->text_len = old_len;
		frayi_game_dealloc(game->ctx, text);
		return st;
	}
	/* the room for the game's one document first, so nothing fails after */
	fray_doc *doc = g->doc;
	g->doc = NULL;
	drop_docs(game);
	if ((st = keep_doc(game, doc)) != FRAY_OK) {
		game->text = old;
		game->text_len = old_len;
		frayi_game_dealloc(game->ctx, text);
		drop(g);
		return st;
	}
	g->doc = doc;
	frayi_game_dealloc(game->ctx, old);
	drop_borrowing(game->now);
	game->now = g;
	return FRAY_OK;
}

/* Takes text, written from the game as it stands by frayi_table_text, as
 * the game's without reading it again: back is that call's reading of
 * what it wrote anew (the forces; the new entry, when there is one), and
 * the log is now's first keep entries, then back's. back is taken (freed
 * on failure, text too); on failure the game is as it was. */
static fray_status take_written(fray_game *game, char *text, size_t len, table_game *back, size_t keep)
{
	fray_ctx *ctx = game->ctx;
	size_t n = keep + back->nlog;
	const fray_node **log = n ? frayi_game_calloc(ctx, n, sizeof *log) : NULL;
	fray_doc *doc = back->doc;
	back->doc = NULL;
	fray_status st = n && !log ? frayi_nomem(ctx) : keep_doc(game, doc);
	if (st != FRAY_OK) {
		frayi_game_dealloc(ctx, log);
		frayi_game_dealloc(ctx, text);
		if (n && !log)
			fray_doc_free(doc);
		drop(back);
		return st;
	}
	back->doc = doc;
	for (size_t i = 0; i < keep; i++)
		log[i] = game->now->log[i];
	for (size_t i = 0; i < back->nlog; i++)
		log[keep + i] = back->log[i];
	frayi_game_dealloc(ctx, back->log);
	back->log = log;
	back->nlog = n;
	back->cmd = "table";
	back->path = game->name;
	frayi_game_dealloc(ctx, game->text);
	game->text = text;
	game->text_len = len;
	drop_borrowing(game->now);
	game->now = back;
	return FRAY_OK;
}

FRAY_API fray_status fray_game_load(fray_ctx *ctx, const char *name, const char *bytes, size_t len, fray_game **out)
{
	if (!out)
		return ctx ? frayi_fail(ctx, FRAY_ERR_INPUT, "fray_game_load: NULL argument") : FRAY_ERR_INPUT;
	*out = NULL;
	if (!ctx || !name || (!bytes && len))
		return ctx ? frayi_fail(ctx, FRAY_ERR_INPUT, "fray_game_load: NULL argument") : FRAY_ERR_INPUT;
	/* the game file's one budget, whoever reads it (include/fray/game.h) */
	if (len > FRAY_GAME_MAX_BYTES)
		return frayi_fail_input(ctx, FRAY_ERR_LIMIT, "game", "%s: a game file of %zu bytes: the limit is %u KiB (%u bytes); "
				 "start another game file", name, len, FRAY_GAME_MAX_BYTES >> 10,
				 FRAY_GAME_MAX_BYTES);
	fray_game *game = frayi_game_calloc(ctx, 1, sizeof *game);
	char *copy = frayi_game_alloc(ctx, len + 1);
	if (!game || !copy || !(game->name = frayi_strdup(ctx, name))) {
		frayi_game_dealloc(ctx, copy);
		frayi_game_dealloc(ctx, game);
		return frayi_nomem(ctx);
	}
	if (len)
		memcpy(copy, bytes, len);
	copy[len] = '\0';
	game->ctx = ctx;
	fray_status st = take_text(game, copy, len);
	if (st != FRAY_OK) {
		fray_game_free(game);
		return st;
	}
	*out = game;
	return FRAY_OK;
}

/* A new game's table: the forces read, turn 1, no dice used yet. */
static fray_status new_table(fray_ctx *ctx, const game_ruleset *rules, const char *forces_name, const char *forces,
			     size_t len, uint64_t seed, fray_doc_open_fn open, void *ud, table_game **out)
{
	*out = NULL;
	table_game *g = frayi_game_calloc(ctx, 1, sizeof *g);
	if (!g)
		return frayi_nomem(ctx);
	g->cmd = "table new";
	g->ctx = ctx;
	g->rules = rules;
	g->seed = seed;
	g->turn = 1;
	fray_doc *doc;
	fray_status st = fray_doc_load_string(ctx, forces_name, forces, len, &doc);
	if (st == FRAY_OK)
		st = (fray_status)frayi_table_read_forces_doc(g, ctx, forces_name, doc, open, ud);
	if (st != FRAY_OK) {
		drop(g);
		return st;
	}
	*out = g;
	return FRAY_OK;
}

FRAY_API fray_status fray_game_new(fray_ctx *ctx, const char *name, const char *rules, const char *forces_name,
				   const char *forces, size_t len, uint64_t seed, fray_doc_open_fn open, void *ud,
				   fray_game **out)
{
	if (out)
		*out = NULL;
	if (!ctx || !out || !name || !rules || !forces_name || (!forces && len))
		return ctx ? frayi_fail(ctx, FRAY_ERR_INPUT, "fray_game_new: NULL argument") : FRAY_ERR_INPUT;
	const game_ruleset *rs = frayi_ruleset_find(rules);
	if (!rs) {
		char ids[256];
		frayi_ruleset_ids_words(ids, sizeof ids);
		return frayi_fail_input(ctx, FRAY_ERR_INPUT, "rules", "rules: expected %s, not '%s'", ids, rules);
	}
	table_game *g;
	fray_status st = new_table(ctx, rs, forces_name, forces ? forces : "", len, seed, open, ud, &g);
	if (st != FRAY_OK)
		return st;
	g->path = name;
	char *text = NULL;
	size_t text_len = 0;
	st = (fray_status)frayi_table_text(g, NULL, NULL, 0, &text, &text_len, NULL);
	drop(g);
	if (st != FRAY_OK)
		return st;
	/* the game is its text, read back as fray_game_load reads a file */
	st = fray_game_load(ctx, name, text, text_len, out);
	frayi_game_dealloc(ctx, text);
	return st;
}

FRAY_API fray_status fray_game_save(const fray_game *game, const char **bytes, size_t *len)
{
	if (!game || !bytes || !len)
		return game ? frayi_fail(game->ctx, FRAY_ERR_INPUT, "fray_game_save: NULL argument") : FRAY_ERR_INPUT;
	*bytes = game->text;
	*len = game->text_len;
	return FRAY_OK;
}

FRAY_API const char *fray_game_rule_set(size_t i)
{
	return frayi_ruleset_at(i) ? frayi_ruleset_at(i)->id : NULL;
}

FRAY_API const char *fray_game_rule_set_action(const char *rules, size_t i, const char **usage)
{
	const game_ruleset *rs = frayi_ruleset_find(rules);
	size_t n = 0;
	const table_action *acts = rs ? rs->actions(&n) : NULL;
	if (i >= n)
		return NULL;
	if (usage)
		*usage = frayi_action_usage_static(&acts[i]);
	return acts[i].name;
}

FRAY_API const char *fray_game_rules(const fray_game *game)
{
	return game ? game->now->rules->id : NULL;
}

FRAY_API int fray_game_turn(const fray_game *game)
{
	return game ? game->now->turn : 0;
}

FRAY_API size_t fray_game_units(const fray_game *game)
{
	return game ? game->now->nunits : 0;
}

FRAY_API const char *fray_game_unit(const fray_game *game, size_t i)
{
	return game && i < game->now->nunits ? game->now->units[i].name : NULL;
}

FRAY_API size_t fray_game_actions(const fray_game *game, size_t unit, const char **names, size_t cap)
{
	if (!game || unit >= game->now->nunits)
		return 0;
	size_t n, k = 0;
	const table_action *acts = game->now->rules->actions(&n);
	for (size_t i = 0; i < n; i++)
		if (frayi_table_may(game->now, &game->now->units[unit], acts[i].name) && k < cap && names)
			names[k++] = acts[i].name;
	return k;
}

FRAY_API size_t fray_game_targets(const fray_game *game, size_t unit, const char *action, size_t *targets,
				  size_t cap)
{
	if (!game || !action || unit >= game->now->nunits)
		return 0;
	size_t n, k = 0;
	const table_action *acts = game->now->rules->actions(&n), *act = NULL;
	for (size_t i = 0; i < n; i++)
		if (!strcmp(acts[i].name, action))
			act = &acts[i];
	const table_unit *u = &game->now->units[unit];
	for (size_t i = 0; act && i < game->now->nunits && k < cap; i++)
		if (frayi_table_may_target(game->now, act, u, &game->now->units[i]) && targets)
			targets[k++] = i;
	return k;
}

static bool null_word(fray_ctx *ctx, const char *fn, size_t n, const char *const *words)
{
	for (size_t i = 0; i < n; i++)
		if (!words[i]) {
			frayi_fail(ctx, FRAY_ERR_INPUT, "%s: word %zu is NULL", fn, i);
			return true;
		}
	return false;
}

/* An action's words run on the game: what happened into *json and *text
 * (each NULL when not wanted), handed out before the game takes its new
 * text, so that a failure leaves the game as it was. */
static fray_status act_words(fray_game *game, const char *note, size_t nwords, const char *const *words,
			     fray_policy *policy, char **json, char **text_out)
{
	fray_ctx *ctx = game->ctx;
	table_game *g = NULL, *before = frayi_game_alloc(ctx, sizeof *before);
	fray_status st = before ? working_copy(game, &g) : frayi_nomem(ctx);
	char command[2048], *text = NULL, *story[2] = {NULL, NULL};
	size_t len = 0, keep = game->now->nlog;
	table_game *back = NULL;
	if (st == FRAY_OK) {
		memcpy(before, g, sizeof *g);
		g->policy = policy;
		if (note)
			frayi_table_note(g, "%s", note);
		st = (fray_status)frayi_table_act(g, (int)nwords, (char *const *)words, command, sizeof command);
		if (st == FRAY_OK)
			st = (fray_status)frayi_table_text(g, command, before, keep, &text, &len, &back);
		if (st == FRAY_OK && json)
			st = (fray_status)frayi_table_action_json(g, &story[0]);
		if (st == FRAY_OK && text_out)
			st = (fray_status)frayi_table_action_text(g, &story[1]);
	}
	drop_copy(g);
	char **outs[2] = {json, text_out};
	for (int k = 0; k < 2; k++) {
		if (st == FRAY_OK && outs[k])
			st = (fray_status)frayi_out_give(ctx, story[k], outs[k]);
		else
			frayi_game_dealloc(ctx, story[k]);
		story[k] = NULL;
	}
	if (st == FRAY_OK) {
		st = take_written(game, text, len, back, keep);
	} else {
		frayi_game_dealloc(ctx, text);
		drop(back);
	}
	for (int k = 0; k < 2; k++)
		if (st != FRAY_OK && outs[k]) {
			free(*outs[k]);
			*outs[k] = NULL;
		}
	if (st == FRAY_ERR_NOMEM)
		frayi_nomem(ctx);
	frayi_game_dealloc(ctx, before);
	return st;
}

FRAY_API fray_status fray_game_act(fray_game *game, size_t nwords, const char *const *words, fray_policy *policy,
				   const char *format, char **out)
{
	if (out)
		*out = NULL;
	if (!game || !nwords || !words || (format && !out))
		return game ? frayi_fail(game->ctx, FRAY_ERR_INPUT, "fray_game_act: NULL argument") : FRAY_ERR_INPUT;
	fray_format form = FRAY_FORMAT_TEXT;
	if (format && (fray_format_parse(format, &form) != FRAY_OK ||
		       (form != FRAY_FORMAT_TEXT && form != FRAY_FORMAT_JSON)))
		return frayi_fail(game->ctx, FRAY_ERR_INPUT, "fray_game_act: format: expected \"text\" or \"json\"");
	if (null_word(game->ctx, "fray_game_act", nwords, words))
		return FRAY_ERR_INPUT;
	if (nwords > INT_MAX)
		return frayi_fail(game->ctx, FRAY_ERR_INPUT, "fray_game_act: too many words");
	return frayi_game_act_words(game, nwords, words, policy, format && form == FRAY_FORMAT_JSON ? out : NULL,
			 format && form != FRAY_FORMAT_JSON ? out : NULL);
}

fray_status frayi_game_act_words(fray_game *game, size_t nwords, const char *const *words, fray_policy *policy,
				 char **json, char **text)
{
	return act_words(game, NULL, nwords, words, policy, json, text);
}

/* play's action (advise.h): its reason noted first among its changes */
fray_status frayi_game_act_noted(fray_game *game, const char *note, size_t nwords, const char *const *words,
				 fray_policy *policy, char **json, char **text)
{
	return act_words(game, note, nwords, words, policy, json, text);
}

FRAY_API fray_status fray_game_act_odds(fray_game *game, size_t nwords, const char *const *words, fray_format form,
					char **out)
{
	if (out)
		*out = NULL;
	if (!game || !nwords || !words || !out)
		return game ? frayi_fail(game->ctx, FRAY_ERR_INPUT, "fray_game_act_odds: NULL argument") : FRAY_ERR_INPUT;
	if (form != FRAY_FORMAT_TEXT && form != FRAY_FORMAT_JSON)
		return frayi_fail(game->ctx, FRAY_ERR_INPUT, "fray_game_act_odds: format %s: expected text or json",
				 fray_format_name(form) ? fray_format_name(form) : "out of range");
	if (null_word(game->ctx, "fray_game_act_odds", nwords, words))
		return FRAY_ERR_INPUT;
	if (nwords > INT_MAX)
		return frayi_fail(game->ctx, FRAY_ERR_INPUT, "fray_game_act_odds: too many words");
	table_game *g = NULL;
	fray_status st = working_copy(game, &g);
	if (st == FRAY_OK) {
		/* a scratch copy of the game: nothing of it is kept */
		fray_call_opts o = game->odds_budget;
		o.mode = FRAY_MODE_ODDS;
		o.version = FRAY_CALL_OPTS_VERSION;
		o.format = form;
		st = (fray_status)frayi_table_odds(g, (int)nwords, (char *const *)words, &o, out);
	}
	drop_copy(g);
	return st;
}

FRAY_API size_t fray_game_log_len(const fray_game *game)
{
	return game ? game->now->nlog : 0;
}

FRAY_API const char *fray_game_log_command(const fray_game *game, size_t i)
{
	if (i >= fray_game_log_len(game))
		return NULL;
	return fray_node_scalar(fray_map_get(game->now->log[i], "command"));
}

/* What a printer of g writes to a stream, as a string. */
static fray_status rendered(const fray_game *game, fray_format form, bool status, char **out)
{
	game_out o;
	FILE *f = frayi_out_open(&o, game->ctx);
	if (f && status)
		frayi_table_print_status(game->now, form, f);
	else if (f)
		frayi_table_print_log(game->now, form, f);
	char *text;
	if (frayi_out_close(&o, f, &text, NULL) != FRAY_OK || frayi_out_give(game->ctx, text, out) != FRAY_OK)
		return frayi_nomem(game->ctx);
	return FRAY_OK;
}

/* The format named s when it is one of those a printer offers (offers:
 * a bit for each fray_format). */
static bool offered(const char *s, unsigned offers, fray_format *form)
{
	return fray_format_parse(s, form) == FRAY_OK && (offers & 1u << *form);
}

FRAY_API fray_status fray_game_status(const fray_game *game, const char *format, char **out)
{
	if (out)
		*out = NULL;
	fray_format form;
	if (!game || !out || !offered(format, 1u << FRAY_FORMAT_TEXT | 1u << FRAY_FORMAT_JSON, &form))
		return game ? frayi_fail(game->ctx, FRAY_ERR_INPUT, "fray_game_status: expected a game, \"text\" or "
				       "\"json\" and a place for the text") : FRAY_ERR_INPUT;
	return rendered(game, form, true, out);
}

FRAY_API fray_status fray_game_log(const fray_game *game, const char *format, char **out)
{
	if (out)
		*out = NULL;
	fray_format form;
	if (!game || !out ||
	    !offered(format, 1u << FRAY_FORMAT_TEXT | 1u << FRAY_FORMAT_JSON | 1u << FRAY_FORMAT_MARKDOWN, &form))
		return game ? frayi_fail(game->ctx, FRAY_ERR_INPUT, "fray_game_log: expected a game, \"text\", \"json\" "
				       "or \"markdown\" and a place for the text") : FRAY_ERR_INPUT;
	return rendered(game, form, false, out);
}

FRAY_API fray_status fray_game_report_html(const fray_game *game, const char *css, char **out)
{
	if (out)
		*out = NULL;
	if (!game || !css || !out)
		return game ? frayi_fail(game->ctx, FRAY_ERR_INPUT, "fray_game_report_html: NULL argument") : FRAY_ERR_INPUT;
	*out = frayi_table_report_html(game->now, css);
	return *out ? FRAY_OK : frayi_nomem(game->ctx);
}

FRAY_API fray_status fray_game_undo(fray_game *game)
{
	if (!game)
		return FRAY_ERR_INPUT;
	table_game *g;
	fray_status st = working_copy(game, &g);
	if (st != FRAY_OK)
		return st;
	size_t n = g->nlog;
	char *text = NULL;
	size_t len = 0;
	table_game *back = NULL;
	if (n == 0)
		st = frayi_fail(game->ctx, FRAY_ERR_INPUT, "%s: nothing to undo (the log is empty)", game->name);
	else
		st = (fray_status)frayi_table_restore(g, fray_map_get(g->log[n - 1], "undo"));
	if (st == FRAY_OK)
		st = (fray_status)frayi_table_text(g, NULL, NULL, n - 1, &text, &len, &back);
	drop_copy(g);
	return st == FRAY_OK ? take_written(game, text, len, back, n - 1) : st;
}

FRAY_API void fray_game_free(fray_game *game)
{
	if (!game)
		return;
	fray_ctx *ctx = game->ctx;
	drop_borrowing(game->now);
	drop_docs(game);
	frayi_game_dealloc(ctx, game->docs);
	frayi_game_dealloc(ctx, game->text);
	frayi_game_dealloc(ctx, game->name);
	frayi_game_dealloc(ctx, game);
}
