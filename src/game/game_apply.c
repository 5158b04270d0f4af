/* The game's typed door (issue 42): an action's options as the action's
 * descriptors name them (action_desc.c), each with a typed value, checked
 * there (kind, range, choices, required, excludes; a message naming the
 * option, fray_ctx_input) before the action runs. fray_game_apply and
 * fray_game_odds take them; api/v1/game's "options" object is mapped to
 * them (game_request.c). The checked options become the words of the
 * log's command, the one form an older game file has. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ruleset.h"
#include "game_apply.h"
#include "../common/text.h"
#include "../core/internal.h"
#include "../catalog/catalog.h"

static const table_action *action_of(const fray_game *game, const char *name)
{
	size_t n = 0;
	const table_action *acts = frayi_game_table(game)->rules->actions(&n);
	for (size_t i = 0; i < n; i++)
		if (!strcmp(acts[i].name, name))
			return &acts[i];
	return NULL;
}

/* The option's name as a request gives it ("taking-cover"). */
static const char *shown(const in_desc *in, char *buf, size_t cap)
{
	return frayi_call_option_name(in->name, buf, cap) + 2;
}

/* "options: 'x' is not an option of shoot (its options: range, ...)" */
static fray_status unknown_option(fray_ctx *ctx, const table_action *act, const char *action, const char *name)
{
	char list[1024], opt[72];
	textbuf t = text_on(list, sizeof list);
	const in_desc *d;
	bool any = false;
	for (size_t k = 0; act && frayi_action_opt(act, k, &d); k++) {
		if (d)
			text_add(&t, "%s%s", any ? ", " : "", shown(d, opt, sizeof opt));
		any = any || d;
	}
	return frayi_fail_input(ctx, FRAY_ERR_INPUT, "options", "options: '%.48s' is not an option of %s%s%s%s", name,
				action, any ? " (its options: " : " (it takes none", any ? list : "", ")");
}

void frayi_number_text(double x, char *dst, size_t cap)
{
	/* a whole number as one ("10", never "1e+01") */
	if (x == (double)(int64_t)x && x > -1e15 && x < 1e15) {
		snprintf(dst, cap, "%" PRId64, (int64_t)x);
		return;
	}
	for (int digits = 1; digits <= 17; digits++) {
		snprintf(dst, cap, "%.*g", digits, x);
		if (strtod(dst, NULL) == x)
			return;
	}
}

/* One option against its input: its value as the words' text into val
 * (empty for a flag). */
static fray_status check_value(fray_ctx *ctx, const char *key, const in_desc *in, const fray_game_option *o,
			       char *val, size_t cap)
{
	val[0] = '\0';
	switch (in->type) {
	case IN_BOOL:
		if (o->kind != FRAY_GAME_BOOL)
			return frayi_fail_input(ctx, FRAY_ERR_INPUT, key, "options.%s: expected true or false", key);
		return FRAY_OK;
	case IN_INT:
	case IN_NUMBER: {
		bool whole = in->type == IN_INT;
		double x = o->kind == FRAY_GAME_INT ? (double)o->i : o->x;
		char got[40];
		if (o->kind == FRAY_GAME_INT)
			snprintf(got, sizeof got, "%" PRId64, o->i);
		else
			frayi_number_text(o->x, got, sizeof got);
		if ((o->kind != FRAY_GAME_INT && o->kind != FRAY_GAME_NUMBER) || x != x ||
		    (whole && x != (double)(int64_t)x) || x < (double)in->min || x > (double)in->max)
			return frayi_fail_input(ctx, FRAY_ERR_INPUT, key, "options.%s: expected %s from %lld to %lld%s%s%s",
						key, whole ? "a whole number" : "a number", (long long)in->min,
						(long long)in->max, o->kind == FRAY_GAME_INT || o->kind == FRAY_GAME_NUMBER
						? ", got '" : "", o->kind == FRAY_GAME_INT || o->kind == FRAY_GAME_NUMBER
						? got : "", o->kind == FRAY_GAME_INT || o->kind == FRAY_GAME_NUMBER ? "'" : "");
		snprintf(val, cap, "%s", got);
		return FRAY_OK;
	}
	case IN_CHOICE:
		for (size_t k = 0; o->kind == FRAY_GAME_TEXT && o->s && k < in->nchoices; k++)
			if (!strcmp(o->s, in->choices[k])) {
				snprintf(val, cap, "%s", o->s);
				return FRAY_OK;
			}
		{
			char list[512];
			textbuf t = text_on(list, sizeof list);
			for (size_t k = 0; k < in->nchoices; k++)
				text_add(&t, "%s%s", k ? ", " : "", in->choices[k]);
			return frayi_fail_input(ctx, FRAY_ERR_INPUT, key, "options.%s: expected one of %s, got '%.48s'", key,
						list, o->kind == FRAY_GAME_TEXT && o->s ? o->s : "(not a word)");
		}
	default:
		/* a name (a weapon): the procedure looks it up */
		if (o->kind != FRAY_GAME_TEXT || !o->s || strlen(o->s) >= cap)
			return frayi_fail_input(ctx, FRAY_ERR_INPUT, key, "options.%s: expected a name of at most %zu bytes",
						key, cap - 1);
		snprintf(val, cap, "%s", o->s);
		return FRAY_OK;
	}
}

/* Whether input a excludes input b (either way round, as the catalogue
 * checks them). */
static bool excludes(const in_desc *a, const in_desc *b)
{
	for (const char *const *e = a->excludes; e && *e; e++)
		if (!strcmp(*e, b->name))
			return true;
	for (const char *const *e = b->excludes; e && *e; e++)
		if (!strcmp(*e, a->name))
			return true;
	return false;
}

/* set: each option a unit's field, KEY=VALUE (act_set checks them as a
 * forces file's fields are). */
static fray_status set_words(fray_ctx *ctx, size_t n, const fray_game_option *opts, game_words *w)
{
	for (size_t i = 0; i < n; i++) {
		const fray_game_option *o = &opts[i];
		char *at = w->text[w->n];
		size_t cap = sizeof w->text[w->n];
		int len;
		switch (o->kind) {
		case FRAY_GAME_INT: len = snprintf(at, cap, "%s=%" PRId64, o->name, o->i); break;
		case FRAY_GAME_NUMBER: {
			char x[40];
			frayi_number_text(o->x, x, sizeof x);
			len = snprintf(at, cap, "%s=%s", o->name, x);
			break;
		}
		case FRAY_GAME_BOOL: len = snprintf(at, cap, "%s=%s", o->name, o->b ? "true" : "false"); break;
		default: len = snprintf(at, cap, "%s=%s", o->name, o->s ? o->s : ""); break;
		}
		if (len < 0 || (size_t)len >= cap)
			return frayi_fail_input(ctx, FRAY_ERR_INPUT, o->name, "options.%.48s: too long", o->name);
		w->word[w->n] = at;
		w->n++;
	}
	return FRAY_OK;
}

fray_status frayi_game_words(fray_game *game, const char *action, const char *actor, const char *target, size_t n,
			     const fray_game_option *opts, game_words *w)
{
	fray_ctx *ctx = frayi_game_table(game)->ctx;
	w->n = 0;
	if (!action || (n && !opts))
		return frayi_fail(ctx, FRAY_ERR_INPUT, "fray_game_apply: NULL argument");
	if (n > GAME_MAX_OPTIONS)
		return frayi_fail_input(ctx, FRAY_ERR_LIMIT, "options", "options: at most %d", GAME_MAX_OPTIONS);
	for (size_t i = 0; i < n; i++)
		if (!opts[i].name)
			return frayi_fail_input(ctx, FRAY_ERR_INPUT, "options", "options: option %zu has no name", i);
	w->word[w->n++] = action;
	if (actor)
		w->word[w->n++] = actor;
	if (target) {
		w->word[w->n++] = "--at";
		w->word[w->n++] = target;
	}
	if (!strcmp(action, "set"))
		return set_words(ctx, n, opts, w);
	const table_action *act = action_of(game, action);
	if (!act && n)
		return frayi_fail_input(ctx, FRAY_ERR_INPUT, "action", "options: '%.48s' is not an action of %s that takes "
					"options", action, fray_game_rules(game));
	if (!act) /* turn, or an unknown action: the action's own message */
		return FRAY_OK;
	const in_desc *in[GAME_MAX_OPTIONS];
	const action_opt *ao[GAME_MAX_OPTIONS];
	bool given[GAME_MAX_OPTIONS];
	char buf[GAME_MAX_OPTIONS][72];
	const char *key[GAME_MAX_OPTIONS];
	for (size_t i = 0; i < n; i++) {
		in[i] = NULL;
		if (strlen(opts[i].name) > TABLE_NAME_MAX || !(ao[i] = frayi_action_opt_named(act, opts[i].name, &in[i])) ||
		    !in[i])
			return unknown_option(ctx, act, action, opts[i].name);
		key[i] = shown(in[i], buf[i], sizeof buf[i]);
		for (size_t j = 0; j < i; j++)
			if (in[j] == in[i])
				return frayi_fail_input(ctx, FRAY_ERR_INPUT, key[i], "options.%s: given twice: give it once",
							key[i]);
		char val[GAME_WORD_MAX];
		fray_status st = check_value(ctx, key[i], in[i], &opts[i], val, sizeof val);
		if (st != FRAY_OK)
			return st;
		/* a flag given false is a flag not given, as on the command line */
		given[i] = in[i]->type != IN_BOOL || opts[i].b;
		if (!given[i])
			continue;
		frayi_call_option_name(in[i]->name, w->text[w->n], sizeof w->text[w->n]);
		w->word[w->n] = w->text[w->n];
		w->n++;
		if (in[i]->type != IN_BOOL) {
			snprintf(w->text[w->n], sizeof w->text[w->n], "%s", val);
			w->word[w->n] = w->text[w->n];
			w->n++;
		}
	}
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++)
			if (given[i] && given[j] && excludes(in[i], in[j]))
				return frayi_fail_input(ctx, FRAY_ERR_INPUT, key[j], "options.%s and options.%s: %s", key[i],
							key[j], in[i]->why_excluded ? in[i]->why_excluded
							: in[j]->why_excluded ? in[j]->why_excluded : "give one");
	/* what the action needs: given, or an option that stands for it
	 * (a band for a range) */
	const in_desc *d;
	const action_opt *o;
	for (size_t k = 0; (o = frayi_action_opt(act, k, &d)); k++) {
		if (!o->required || !d)
			continue;
		bool there = false;
		for (size_t i = 0; i < n && !there; i++)
			there = given[i] && (in[i] == d || excludes(in[i], d));
		if (!there) {
			char opt[72];
			return frayi_fail_input(ctx, FRAY_ERR_INPUT, shown(d, opt, sizeof opt), "options.%s: %s needs it "
						"(%s)", shown(d, opt, sizeof opt), action, d->help ? d->help : "no default");
		}
	}
	return FRAY_OK;
}

FRAY_API fray_status fray_game_apply(fray_game *game, const char *action, const char *actor, const char *target,
				     size_t noptions, const fray_game_option *options, fray_policy *policy,
				     char **events)
{
	if (events)
		*events = NULL;
	if (!game)
		return FRAY_ERR_INPUT;
	game_words *w = frayi_game_calloc(frayi_game_table(game)->ctx, 1, sizeof *w);
	if (!w)
		return frayi_nomem(frayi_game_table(game)->ctx);
	fray_status st = frayi_game_words(game, action, actor, target, noptions, options, w);
	if (st == FRAY_OK)
		st = frayi_game_act_words(game, w->n, w->word, policy, events, NULL);
	frayi_game_dealloc(frayi_game_table(game)->ctx, w);
	return st;
}

FRAY_API fray_status fray_game_odds(fray_game *game, const char *action, const char *actor, const char *target,
				    size_t noptions, const fray_game_option *options, fray_format form, char **out)
{
	if (out)
		*out = NULL;
	if (!game || !out)
		return game ? frayi_fail(frayi_game_table(game)->ctx, FRAY_ERR_INPUT, "fray_game_odds: NULL argument")
			    : FRAY_ERR_INPUT;
	game_words *w = frayi_game_calloc(frayi_game_table(game)->ctx, 1, sizeof *w);
	if (!w)
		return frayi_nomem(frayi_game_table(game)->ctx);
	fray_status st = frayi_game_words(game, action, actor, target, noptions, options, w);
	if (st == FRAY_OK)
		st = fray_game_act_odds(game, w->n, w->word, form, out);
	frayi_game_dealloc(frayi_game_table(game)->ctx, w);
	return st;
}
