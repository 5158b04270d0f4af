/* Solo play (issue 44 item 3): fray takes a side's next action, the best
 * of its units' advice (advise.c) under the goal, through the game's own
 * apply, its reason first among the action's changes in the log ("fray
 * plays Spain: ... because ..."). The questions the action asks (a charged
 * unit's reaction) are answered by the heuristic policy. A side with no
 * action left waits while the other has one; when neither has, the turn
 * ends. docs/presidio.md, "Advice and solo play". */
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "advise.h"
#include "ruleset.h"
#include "../core/internal.h"
#include "../common/hidden.h"
#include "../common/text.h"

/* A game played by fray ends here, whatever the forces: a side that
 * never loses its last unit (units that rally and rally) stops. */
#define PLAY_MAX_TURNS 50

static bool in_fight(const table_unit *u)
{
	return u->status != ST_DESTROYED && u->status != ST_SURRENDERED;
}

/* Whether the game is over for play: a side without a unit in the fight,
 * or the turn past PLAY_MAX_TURNS; why in words. */
static bool over(const table_game *g, char *why, size_t cap)
{
	if (g->turn > PLAY_MAX_TURNS) {
		snprintf(why, cap, "the game is over: turn %d, past the %d turns fray plays", g->turn, PLAY_MAX_TURNS);
		return true;
	}
	for (size_t i = 0; i < g->nunits; i++) {
		bool left = false;
		for (size_t j = 0; j < g->nunits && !left; j++)
			left = !strcmp(g->units[j].side, g->units[i].side) && in_fight(&g->units[j]);
		if (!left) {
			snprintf(why, cap, "the game is over: %s has no unit left in the fight", g->units[i].side);
			return true;
		}
	}
	return false;
}

/* The best advice over side's units (*best: its list and index), or
 * none; any: whether some unit of the side has any action at all. */
static int best_of(fray_game *game, const char *side, advise_goal goal, const advise_player *pl,
		   advice_list *best, size_t *at)
{
	const table_game *g = frayi_game_table(game);
	*best = (advice_list){.goal = goal};
	*at = (size_t)-1;
	for (size_t u = 0; u < g->nunits; u++) {
		if (strcasecmp(g->units[u].side, side) || !in_fight(&g->units[u]))
			continue;
		advice_list l;
		int st = frayi_advise(game, u, goal, pl, &l);
		if (st != FRAY_OK) {
			frayi_advice_free(game, best);
			return st;
		}
		/* each list is best first: its head against the best so far */
		if (l.n && (*at == (size_t)-1 || mpq_cmp(l.a[0].q, best->a[*at].q) > 0 ||
			    (!mpq_cmp(l.a[0].q, best->a[*at].q) && l.a[0].secondary > best->a[*at].secondary))) {
			frayi_advice_free(game, best);
			*best = l;
			*at = 0;
		} else {
			frayi_advice_free(game, &l);
		}
	}
	return FRAY_OK;
}

static bool side_known(const table_game *g, const char *side)
{
	for (size_t i = 0; i < g->nunits; i++)
		if (!strcasecmp(g->units[i].side, side))
			return true;
	return false;
}

/* The output: the reason, then what happened (text: the story; JSON:
 * {"side", "goal", "played": advice or null, "says", "events"}). */
static int render(fray_game *game, const char *side, advise_goal goal, const advice *played, const char *says,
		  const char *events, fray_format form, char **out)
{
	const table_game *g = frayi_game_table(game);
	game_out o;
	FILE *f = frayi_out_open(&o, g->ctx);
	if (!f)
		return FRAY_ERR_NOMEM;
	if (form == FRAY_FORMAT_JSON) {
		fputs("{\"side\": ", f);
		frayi_json_string(f, side);
		fprintf(f, ", \"goal\": \"%s\", \"played\": ", frayi_advise_goal_names[goal]);
		if (played)
			frayi_advice_json(f, game, played);
		else
			fputs("null", f);
		fputs(", \"says\": ", f);
		frayi_json_string(f, says);
		fputs(", \"events\": ", f);
		if (events) {
			size_t n = strlen(events);
			fprintf(f, "%.*s", (int)(n && events[n - 1] == '\n' ? n - 1 : n), events);
		} else {
			fputs("null", f);
		}
		fputs("}\n", f);
	} else {
		char shown[TABLE_TERM_LINE];
		text_escape_controls(shown, sizeof shown, says);
		fprintf(f, "%s\n", shown);
		if (events)
			fputs(events, f);
	}
	return frayi_out_close(&o, f, out, NULL);
}

static int play_words(fray_game *game, const char *note, size_t n, const char *const *w, fray_format form,
		      char **events)
{
	fray_ctx *ctx = frayi_game_table(game)->ctx;
	fray_policy *pol = fray_policy_heuristic_new(ctx);
	if (!pol)
		return FRAY_ERR_NOMEM;
	int st = (int)frayi_game_act_noted(game, note, n, w, pol, form == FRAY_FORMAT_JSON ? events : NULL,
				      form == FRAY_FORMAT_JSON ? NULL : events);
	fray_policy_free(pol);
	return st;
}

/* The rule set's step of the turn's order for side (game_ruleset's
 * play_order: Presidio's initiative roll, pass, the turn's end, or a
 * wait), played and rendered; TABLE_NOT_A_COMMAND when there is none. */
static int play_order(fray_game *game, const char *side, advise_goal goal, bool before, fray_format form,
		      char **out)
{
	const table_game *g = frayi_game_table(game);
	const char *w[2];
	size_t n = 0;
	char why[512], says[1024];
	if (!g->rules->play_order || !g->rules->play_order(g, side, before, w, &n, why, sizeof why))
		return TABLE_NOT_A_COMMAND;
	if (n == 0) {
		snprintf(says, sizeof says, "fray plays %s: %s", side, why);
		return render(game, side, goal, NULL, says, NULL, form, out);
	}
	textbuf t = text_on(says, sizeof says);
	text_add(&t, "fray plays %s:", side);
	for (size_t i = 0; i < n; i++)
		text_add(&t, " %s", w[i]);
	text_add(&t, ", because %s", why);
	char *events = NULL;
	int st = play_words(game, says, n, w, form, &events);
	if (st == FRAY_OK)
		st = render(game, side, goal, NULL, says, events, form, out);
	free(events);
	return st;
}

static int play(fray_game *game, const char *side, advise_goal goal, const advise_player *pl,
		fray_format form, char **out)
{
	const table_game *g = frayi_game_table(game);
	char says[1024];
	if (over(g, says, sizeof says))
		return render(game, side, goal, NULL, says, NULL, form, out);
	char *events = NULL;
	advice_list l;
	size_t at;
	int st = best_of(game, side, goal, pl, &l, &at);
	if (st != FRAY_OK)
		return st;
	/* the turn's order first (Presidio: roll the turn's initiative), the
	 * player's options checked by the advice all the same */
	if ((st = play_order(game, side, goal, true, form, out)) != TABLE_NOT_A_COMMAND) {
		frayi_advice_free(game, &l);
		return st;
	}
	if (at != (size_t)-1) {
		advice a = l.a[at];
		const char *w[ADVISE_WORDS + 4];
		size_t n = 0;
		w[n++] = a.action;
		w[n++] = g->units[l.unit].name;
		if (a.target >= 0) {
			w[n++] = "--at";
			w[n++] = g->units[a.target].name;
		}
		for (size_t i = 0; i < a.words.n; i++)
			w[n++] = l.a[at].words.w[i];
		textbuf t = text_on(says, sizeof says);
		text_add(&t, "fray plays %s:", side);
		for (size_t i = 0; i < n; i++)
			text_add(&t, " %s", w[i]);
		text_add(&t, " because it is the best for %s: %s", frayi_advise_goal_names[goal], a.why);
		st = play_words(game, says, n, w, form, &events);
		if (st == FRAY_OK)
			st = render(game, side, goal, &l.a[at], says, events, form, out);
		frayi_advice_free(game, &l);
		free(events);
		return st;
	}
	/* nothing left for this side: the order's step (Presidio: pass the
	 * sequence, or the turn ends), else it waits for the other, or the
	 * turn ends when neither has an action */
	if ((st = play_order(game, side, goal, false, form, out)) != TABLE_NOT_A_COMMAND)
		return st;
	st = FRAY_OK;
	bool others = false;
	for (size_t u = 0; u < g->nunits && !others && st == FRAY_OK; u++) {
		if (!strcasecmp(g->units[u].side, side) || !in_fight(&g->units[u]))
			continue;
		advice_list o;
		if ((st = frayi_advise(game, u, goal, NULL, &o)) == FRAY_OK) {
			others = o.n > 0;
			frayi_advice_free(game, &o);
		}
	}
	if (st != FRAY_OK)
		return st;
	if (others) {
		snprintf(says, sizeof says, "fray plays %s: it waits (no action left to it this turn; the other side "
			 "has some)", side);
		return render(game, side, goal, NULL, says, NULL, form, out);
	}
	/* the rule set's end of a phase (BBB: next), or of the turn */
	const char *turn[] = {g->rules->play_idle ? g->rules->play_idle(g) : "turn"};
	snprintf(says, sizeof says, "fray plays %s: %s, because no unit of either side has an action left%s", side,
		 turn[0], strcmp(turn[0], "turn") ? " in this phase" : "");
	st = play_words(game, says, 1, turn, form, &events);
	if (st == FRAY_OK)
		st = render(game, side, goal, NULL, says, events, form, out);
	free(events);
	return st;
}

static int goal_of(fray_ctx *ctx, const char *goal, advise_goal *g)
{
	*g = GOAL_WIN;
	if (!goal || frayi_advise_goal(goal, g))
		return FRAY_OK;
	return (int)frayi_fail_input(ctx, FRAY_ERR_INPUT, "goal", "goal: expected win, not-lose, casualties or hold, "
				     "got '%.48s'", goal);
}

static bool format_ok(fray_format form)
{
	return form == FRAY_FORMAT_TEXT || form == FRAY_FORMAT_JSON;
}

/* advise's core: pl the player's options, words or typed. */
static fray_status advise(fray_game *game, const char *unit, const char *goal, const advise_player *pl,
			  fray_format format, char **out)
{
	if (out)
		*out = NULL;
	if (!game || !unit || !out || (pl->n && !pl->words && !pl->typed) || !format_ok(format))
		return game ? frayi_fail(frayi_game_table(game)->ctx, FRAY_ERR_INPUT, "fray_game_advise: expected a "
					 "game, a unit, text or json and a place for the answer") : FRAY_ERR_INPUT;
	table_game *g = (table_game *)frayi_game_table(game);
	advise_goal gl;
	int st = goal_of(g->ctx, goal, &gl);
	const table_unit *u = st == FRAY_OK ? frayi_table_unit_named(g, unit) : NULL;
	if (!u)
		return (fray_status)frayi_game_failed(g);
	advice_list l;
	if ((st = frayi_advise(game, (size_t)(u - g->units), gl, pl, &l)) != FRAY_OK)
		return (fray_status)st;
	char *text = NULL;
	st = frayi_advice_render(game, &l, format, &text);
	frayi_advice_free(game, &l);
	if (st == FRAY_OK)
		st = frayi_out_give(g->ctx, text, out);
	return st == FRAY_ERR_NOMEM ? frayi_nomem(g->ctx) : (fray_status)st;
}

FRAY_API fray_status fray_game_advise_typed(fray_game *game, const char *unit, const char *goal, size_t noptions,
					    const fray_game_option *options, fray_format format, char **out)
{
	advise_player pl = {.n = noptions, .typed = options};
	return advise(game, unit, goal, &pl, format, out);
}

FRAY_API fray_status fray_game_advise(fray_game *game, const char *unit, const char *goal, size_t noptions,
				      const char *const *options, fray_format format, char **out)
{
	advise_player pl = {.n = noptions, .words = options};
	return advise(game, unit, goal, &pl, format, out);
}

/* play's core: pl the player's options, words or typed. */
static fray_status play_side(fray_game *game, const char *side, const char *goal, const advise_player *pl,
			     fray_format format, char **out)
{
	if (out)
		*out = NULL;
	if (!game || !side || !out || (pl->n && !pl->words && !pl->typed) || !format_ok(format))
		return game ? frayi_fail(frayi_game_table(game)->ctx, FRAY_ERR_INPUT, "fray_game_play: expected a "
					 "game, a side, text or json and a place for the answer") : FRAY_ERR_INPUT;
	const table_game *g = frayi_game_table(game);
	fray_ctx *ctx = g->ctx;
	advise_goal gl;
	int st = goal_of(ctx, goal, &gl);
	if (st != FRAY_OK)
		return (fray_status)st;
	if (!side_known(g, side)) {
		char sides[512];
		textbuf t = text_on(sides, sizeof sides);
		for (size_t i = 0; i < g->nunits; i++) {
			bool seen = false;
			for (size_t j = 0; j < i && !seen; j++)
				seen = !strcmp(g->units[j].side, g->units[i].side);
			if (!seen)
				text_add(&t, "%s%s", t.len ? ", " : "", g->units[i].side);
		}
		return frayi_fail_input(ctx, FRAY_ERR_INPUT, "side", "play: no side '%.48s' in the game (its sides: %s)",
					side, sides);
	}
	char *text = NULL;
	st = play(game, side, gl, pl, format, &text);
	if (st == FRAY_OK)
		st = frayi_out_give(ctx, text, out);
	else
		frayi_game_dealloc(ctx, text);
	return st == FRAY_ERR_NOMEM ? frayi_nomem(ctx) : (fray_status)st;
}

FRAY_API fray_status fray_game_play_typed(fray_game *game, const char *side, const char *goal, size_t noptions,
					  const fray_game_option *options, fray_format format, char **out)
{
	advise_player pl = {.n = noptions, .typed = options};
	return play_side(game, side, goal, &pl, format, out);
}

FRAY_API fray_status fray_game_play(fray_game *game, const char *side, const char *goal, size_t noptions,
				    const char *const *options, fray_format format, char **out)
{
	advise_player pl = {.n = noptions, .words = options};
	return play_side(game, side, goal, &pl, format, out);
}
