/* An action on a game, whole: the action named, its unit and target found,
 * the rule set's action run (or turn, set), every option the player gave
 * taken by some step, and the log's command line made. The shells (fray
 * table, fray_game_apply) save the text and say what happened. */
#include <stdlib.h>
#include <string.h>
#include "ruleset.h"
#include "../core/internal.h"
#include "../common/hidden.h"
#include "../common/text.h"

/* The command as it goes into the log: the words after the game file,
 * quoted where they hold a space. */
static void command_line(char *dst, size_t cap, int argc, char *const *argv, const char *extra)
{
	textbuf t = text_on(dst, cap);
	for (int i = 0; i < argc; i++) {
		bool quote = strpbrk(argv[i], " \t'\"") != NULL;
		text_add(&t, "%s%s%s%s", i ? " " : "", quote ? "\"" : "", argv[i], quote ? "\"" : "");
	}
	if (extra)
		text_add(&t, "%s", extra);
}

static bool is_option(const char *arg)
{
	return arg[0] == '-' && arg[1] != '\0';
}

/* The turn's end: what the rule set does before the turn advances (chits:
 * the procedure's end of turn for each unit that did not take its own),
 * then each unit's markers as it carries them into the next turn
 * (Presidio: fray_presidio_standing_at_turn_end, Section 7; BBB:
 * fray_bbb_markers_at_turn_end, Silenced Artillery). */
int frayi_table_turn(table_game *g)
{
	int st = g->rules->turn_over ? g->rules->turn_over(g) : FRAY_OK;
	if (st != FRAY_OK)
		return st;
	if (!g->rules->turn_goes_on || !g->rules->turn_goes_on(g)) {
		g->turn++;
		frayi_table_note(g, "turn %d begins", g->turn);
	}
	for (size_t i = 0; i < g->nunits && g->rules->turn_end; i++)
		g->rules->turn_end(g, &g->units[i]);
	return FRAY_OK;
}

/* set UNIT KEY=VALUE...: the referee's own changes (a formation, a
 * marker), checked as a forces file's fields are, and logged. */
static int act_set(table_game *g, table_unit *u, int argc, char *const *argv)
{
	if (argc == 0)
		return frayi_game_fail(g, FRAY_ERR_INPUT, "set UNIT KEY=VALUE...: nothing to set");
	/* the changes as a forces file's unit, read by the same checks */
	char *text = NULL;
	game_out o;
	FILE *f = frayi_out_open(&o, g->ctx);
	if (!f)
		return frayi_game_fail(g, FRAY_ERR_NOMEM, "out of memory");
	fputs("units:\n", f);
	int status = FRAY_OK;
	for (int i = 0; i < argc && status == FRAY_OK; i++) {
		const char *eq = strchr(argv[i], '=');
		if (!eq || eq == argv[i] || strchr(argv[i], '\n'))
			status = frayi_game_fail(g, FRAY_ERR_INPUT, "set: expected KEY=VALUE, got '%s'", argv[i]);
		else
			fprintf(f, "  %s %.*s: %s\n", i ? " " : "-", (int)(eq - argv[i]), argv[i], eq + 1);
	}
	if (frayi_out_close(&o, f, &text, NULL) != FRAY_OK)
		status = status == FRAY_OK ? frayi_game_fail(g, FRAY_ERR_NOMEM, "out of memory") : status;
	if (status == FRAY_OK)
		status = frayi_table_set_fields(g, u, text);
	frayi_game_dealloc(g->ctx, text);
	return status;
}

/* The length of an option word's name: "--range" of "--range" and of
 * "--range=6"; 0 for a word that is no option (a value). */
static size_t option_name_len(const char *word)
{
	return word[0] == '-' && word[1] == '-' && word[2] ? strcspn(word, "=") : 0;
}

/* An option given twice (`--range 6 --range 7`) is refused: the steps
 * would each read their own copy (one the first, one the last), and the
 * log would keep both. */
static int options_once(table_game *g, const char *what, int argc, char *const *argv)
{
	for (int i = 0; i < argc; i++) {
		size_t n = option_name_len(argv[i]);
		for (int j = i + 1; n && j < argc; j++)
			if (option_name_len(argv[j]) == n && !strncmp(argv[i], argv[j], n))
				return frayi_game_fail(g, FRAY_ERR_INPUT, "%s: option %.*s given twice: give it once "
						       "(nothing was written)", what, (int)(n > 64 ? 64 : n), argv[i]);
	}
	return FRAY_OK;
}

/* An action of the rule set on its unit, with the player's options. */
static int act_on(table_game *g, const table_action *act, table_unit *u, int argc, char *const *argv, bool *used)
{
	const char *what = act->name;
	player_opts p = {.argc = argc, .argv = (char **)argv, .used = used};
	if (options_once(g, what, argc, argv) != FRAY_OK)
		return FRAY_ERR_INPUT;
	const char *at = frayi_player_value(&p, "--at");
	table_unit *t = NULL;
	if (act->needs_target != (at != NULL)) {
		char usage[ACTION_USAGE_MAX];
		return frayi_game_fail(g, FRAY_ERR_INPUT, at ? "%s takes no --at: %s %s" : "%s needs --at TARGET: %s %s",
				       what, what, frayi_action_usage(act, usage, sizeof usage));
	}
	if (at && !(t = frayi_table_unit_named(g, at)))
		return FRAY_ERR_INPUT;
	if (t == u)
		return frayi_game_fail(g, FRAY_ERR_INPUT, "a unit cannot %s itself", what);
	int status = act->run(g, u, t, &p);
	for (int i = 0; status == FRAY_OK && i < p.argc; i++)
		if (!p.used[i])
			status = frayi_game_fail(g, FRAY_ERR_INPUT, "%s: unknown option '%s' (nothing was written)", what,
					   p.argv[i]);
	return status;
}

int frayi_table_act(table_game *g, int argc, char *const *argv, char *command, size_t cap)
{
	if (argc < 1)
		return frayi_game_fail(g, FRAY_ERR_INPUT, "no action given");
	const char *what = argv[0];
	command_line(command, cap, argc, argv, NULL);
	if (!strcmp(what, "turn"))
		return argc > 1 ? frayi_game_fail(g, FRAY_ERR_INPUT, "turn takes nothing more") : frayi_table_turn(g);
	/* the rule set's game-wide actions (BBB's next and phase) */
	for (size_t i = 0; i < g->rules->ngame_actions; i++)
		if (!strcmp(what, g->rules->game_actions[i].name))
			return g->rules->game_actions[i].run(g, argc - 1, argv + 1);
	/* the rule set's own commands with no unit (Presidio: initiative, pass) */
	int own = g->rules->command ? g->rules->command(g, argc, argv) : TABLE_NOT_A_COMMAND;
	if (own != TABLE_NOT_A_COMMAND)
		return own;
	size_t n;
	const table_action *acts = g->rules->actions(&n), *act = NULL;
	for (size_t i = 0; i < n; i++)
		if (!strcmp(acts[i].name, what))
			act = &acts[i];
	bool set = !strcmp(what, "set");
	table_unit *u = NULL;
	if (!act && !set) {
		const char *names[16];
		for (size_t i = 0; i < n && i < 16; i++)
			names[i] = acts[i].name;
		const char *near = text_nearest(what, names, n < 16 ? n : 16, sizeof *names);
		return (int)frayi_fail_input(g->ctx, FRAY_ERR_INPUT, "action", "%s has no action '%s'%s%s%s",
				 g->rules->id, what, near ? " (did you mean '" : "", near ? near : "",
				 near ? "'?)" : "");
	}
	if (argc < 2 || is_option(argv[1])) {
		char usage[ACTION_USAGE_MAX];
		return frayi_game_fail(g, FRAY_ERR_INPUT, "%s needs a unit: %s %s", what, what,
				       set ? "UNIT KEY=VALUE..." : frayi_action_usage(act, usage, sizeof usage));
	}
	if (!(u = frayi_table_unit_named(g, argv[1])))
		return FRAY_ERR_INPUT;
	if (set)
		return act_set(g, u, argc - 2, argv + 2);
	bool *used = frayi_game_calloc(g->ctx, (size_t)argc + 1, sizeof *used);
	if (!used)
		return frayi_game_fail(g, FRAY_ERR_NOMEM, "out of memory");
	int status = act_on(g, act, u, argc - 2, argv + 2, used);
	if (g->asked[0])
		command_line(command, cap, argc, argv, g->asked);
	frayi_game_dealloc(g->ctx, used);
	return status;
}

int frayi_table_odds(table_game *g, int argc, char *const *argv, const fray_call_opts *o, char **out)
{
	*out = NULL;
	char command[2048];
	g->odds = o;
	int st = frayi_table_act(g, argc, argv, command, sizeof command);
	g->odds = NULL;
	if (st == TABLE_ODDS_TAKEN) {
		*out = g->odds_out;
		g->odds_out = NULL;
		return FRAY_OK;
	}
	free(g->odds_out);
	g->odds_out = NULL;
	/* an action done without a procedure rolls no dice (reload, set,
	 * turn, a pursuit's surrender): there are no odds to give */
	return st != FRAY_OK ? st
			     : frayi_game_fail(g, FRAY_ERR_INPUT, "%s: the action rolls no dice here: no odds to give",
					       argc ? argv[0] : "?");
}

bool frayi_table_may(const table_game *g, const table_unit *u, const char *action)
{
	return (g->rules->may ? g->rules->may(g, u, action) : true) &&
	       (g->rules->may_now ? g->rules->may_now(g, u, action) : true);
}

bool frayi_table_may_target(table_game *g, const table_action *act, const table_unit *u, const table_unit *t)
{
	if (!act->needs_target || t == u || !frayi_table_may(g, u, act->name))
		return false;
	if (!act->target_ok)
		return true;
	/* the check fails on the context as the action would; a question
	 * asked here is no failure of the caller's, so a context that had
	 * none is left clear (one that had one keeps it: the first wins) */
	bool was_clear = fray_ctx_status(g->ctx) == FRAY_OK;
	bool ok = act->target_ok(g, u, t) == FRAY_OK;
	if (was_clear)
		fray_ctx_clear(g->ctx);
	return ok;
}

int frayi_table_action_json(const table_game *g, char **out)
{
	*out = NULL;
	game_out o;
	FILE *f = frayi_out_open(&o, g->ctx);
	if (!f)
		return FRAY_ERR_NOMEM;
	fprintf(f, "{\"turn\": %d, \"steps\": [", g->turn);
	for (size_t i = 0; i < g->nsteps; i++) {
		size_t n = strlen(g->steps[i].json);
		fprintf(f, "%s%.*s", i ? ", " : "", (int)(n && g->steps[i].json[n - 1] == '\n' ? n - 1 : n),
			g->steps[i].json);
	}
	fprintf(f, "], \"changes\": [");
	bool first = true;
	for (const char *s = g->notes; *s; first = false) {
		size_t n = strcspn(s, "\n");
		fputs(first ? "" : ", ", f);
		frayi_json_string_n(f, s, n);
		s += n + (s[n] == '\n');
	}
	fprintf(f, "]}\n");
	return frayi_out_close(&o, f, out, NULL);
}

int frayi_table_action_text(const table_game *g, char **out)
{
	*out = NULL;
	game_out o;
	FILE *f = frayi_out_open(&o, g->ctx);
	if (!f)
		return FRAY_ERR_NOMEM;
	for (size_t i = 0; i < g->nsteps; i++)
		fputs(g->steps[i].text, f);
	/* the notes hold names from the game file: escaped for a terminal,
	 * each line cut as the command's messages cut a name */
	for (const char *s = g->notes; *s;) {
		size_t n = strcspn(s, "\n");
		char line[sizeof g->notes], shown[TABLE_TERM_LINE];
		snprintf(line, sizeof line, "%.*s", (int)n, s);
		text_escape_controls(shown, sizeof shown, line);
		fprintf(f, "=> %s\n", shown);
		s += n + (s[n] == '\n');
	}
	return frayi_out_close(&o, f, out, NULL);
}
