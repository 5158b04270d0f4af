/* fray table: play a game from a game file (docs/table.md). The shell of
 * the game (src/game/, in libfray): the file read and locked, the game's
 * text written atomically, the story printed, the game's statuses said as
 * exit statuses, the interactive policy at a terminal.
 *   fray table new GAME --rules R --forces FILE [--seed N]
 *   fray table GAME ACTION UNIT [--at TARGET] [options]
 *   fray table GAME status|log|undo|turn|set ... */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "atomic.h"
#include "policy_cli.h"
#include "cli.h"
#include "../game/table.h"
#include "../common/text.h"

static const char CMD[] = "table";

/* The game's status as the command's exit status, its message said. */
static int said(const table_game *g, int status)
{
	return status == FRAY_OK ? EXIT_OK : cli_fail(g->cmd, g->ctx);
}

/* The game written whole to its path (the library makes the text; the
 * command writes it, atomically). An exit status. */
static int table_save(table_game *g, const char *command, const table_game *before, size_t keep_log)
{
	char *text;
	size_t len;
	int status = said(g, frayi_table_text(g, command, before, keep_log, &text, &len));
	if (status == EXIT_OK && !cli_write_atomic(g->path, text, len))
		status = cli_error(g->cmd, EXIT_RUNTIME, "cannot write %s: %s (the game file is as it was)",
				   cli_tstr(g->path), strerror(errno));
	free(text);
	return status;
}

/* "the action in G.yaml" for cli_check_printed's message (one slot). */
static const char *game_what(const char *what, const char *path)
{
	static char slot[512];
	snprintf(slot, sizeof slot, "%s %s", what, cli_tstr(path));
	return slot;
}

/* A new game file, never over a file, not even one made since the check
 * at the start: the game is saved to an empty file of ours beside it,
 * then put in place only if the name is still free (cli_rename_new). */
static int save_new(table_game *g, const char *game)
{
	char place[4096];
	if (!cli_temp_beside(game, place, sizeof place))
		return cli_error("table new", errno == ENAMETOOLONG ? EXIT_BAD_INPUT : EXIT_RUNTIME,
				 "cannot write %s: %s", cli_tstr(game), strerror(errno));
	g->path = place;
	int status = table_save(g, NULL, NULL, 0);
	g->path = game;
	if (status == EXIT_OK && !cli_rename_new(place, game))
		status = errno == EEXIST ? cli_error("table new", EXIT_BAD_INPUT, "%s exists (made while this game "
						    "was being set up): a new game never writes over a file",
						    cli_tstr(game))
					 : cli_error("table new", EXIT_RUNTIME, "cannot write %s: %s", cli_tstr(game),
						     strerror(errno));
	if (status != EXIT_OK)
		unlink(place);
	return status;
}

static int table_new(int argc, char **argv)
{
	cli_args a = {.cmd = "table new", .argc = argc, .argv = argv};
	const char *game = NULL, *forces = NULL;
	size_t rules = RULES_NRULES;
	uint64_t seed = 0;
	bool have_seed = false;
	while (a.i < argc && a.status == EXIT_OK) {
		if (cli_is_help(argv[a.i]))
			return cli_help_topic(stdout, "table") ? EXIT_OK : EXIT_RUNTIME;
		if (cli_enum(&a, "--rules", frayi_table_rules_names, RULES_NRULES, &rules) || cli_value(&a, "--forces", &forces))
			continue;
		if (cli_u64(&a, "--seed", 0, UINT64_MAX, &seed)) {
			have_seed = true;
			continue;
		}
		if (!game && !cli_is_option(argv[a.i])) {
			game = argv[a.i++];
			continue;
		}
		static const char *const known[] = {"--rules", "--forces", "--seed", "--help"};
		return cli_unknown(&a, known, 4);
	}
	if (a.status != EXIT_OK)
		return a.status;
	if (!game || !forces || rules == RULES_NRULES)
		return cli_error("table new", EXIT_BAD_INPUT, "usage: fray table new GAME.yaml --rules presidio|bbb|chits "
				 "--forces FORCES.yaml [--seed N]");
	if (!strcmp(game, "-"))
		return cli_error("table new", EXIT_BAD_INPUT, "-: a game is written to a file, not to standard "
				 "output; name one (./- for a file called -)");
	struct stat st;
	if (lstat(game, &st) == 0) /* early, before the forces are read; save_new checks again */
		return cli_error("table new", EXIT_BAD_INPUT, "%s exists: a new game never writes over a file "
				 "(remove it, or choose another name)", cli_tstr(game));
	fray_ctx *ctx = fray_ctx_new(NULL, NULL);
	table_game *g = calloc(1, sizeof *g);
	if (!ctx || !g) {
		free(g);
		fray_ctx_free(ctx);
		return cli_error("table new", EXIT_RUNTIME, "out of memory");
	}
	g->cmd = "table new";
	g->rules = (table_rules)rules;
	g->path = game;
	g->seed = have_seed ? seed : cli_pick_seed();
	g->turn = 1;
	int status = said(g, frayi_table_read_forces(g, ctx, forces));
	if (status == EXIT_OK)
		status = save_new(g, game);
	if (status == EXIT_OK) {
		printf("%s: a %s game of %zu units, seed %llu ('fray table %s status' shows them)\n", cli_tstr(game),
		       frayi_table_rules_names[rules], g->nunits, (unsigned long long)g->seed, cli_tstr(game));
		status = cli_check_printed("table new", game_what("the new game", game));
	}
	frayi_table_free(g);
	free(g);
	fray_ctx_free(ctx);
	return status;
}

static void print_action(const table_game *g, bool json)
{
	if (json) {
		char *text;
		if (frayi_table_action_json(g, &text) == FRAY_OK)
			fputs(text, stdout);
		else
			cli_error(CMD, EXIT_RUNTIME, "out of memory");
		free(text);
		return;
	}
	for (size_t i = 0; i < g->nsteps; i++)
		fputs(g->steps[i].text, stdout);
	/* the notes hold names from the game file: shown escaped */
	for (const char *s = g->notes; *s;) {
		size_t n = strcspn(s, "\n");
		char line[sizeof g->notes];
		snprintf(line, sizeof line, "%.*s", (int)n, s);
		printf("=> %s\n", cli_tstr(line));
		s += n + (s[n] == '\n');
	}
}

static int run_action(table_game *g, int argc, char **argv, bool json)
{
	table_game *before = malloc(sizeof *before);
	if (!before)
		return cli_error(CMD, EXIT_RUNTIME, "out of memory");
	memcpy(before, g, sizeof *g);
	int status;
	/* the players' decisions the options leave open (the charge reaction)
	 * are asked at a terminal: the interactive policy; else none */
	if (isatty(0) && isatty(2) && cli_make_policy(CMD, g->ctx, "interactive", &g->policy, NULL) != EXIT_OK) {
		free(before);
		return EXIT_RUNTIME;
	}
	char command[2048];
	status = said(g, frayi_table_act(g, argc, argv, command, sizeof command));
	if (status == EXIT_OK)
		status = table_save(g, command, before, g->log ? fray_node_len(g->log) : 0);
	if (status == EXIT_OK) {
		print_action(g, json);
		status = cli_check_printed(CMD, game_what("the action in", g->path));
	}
	fray_policy_free(g->policy);
	g->policy = NULL;
	free(before);
	return status;
}

/* ACTION ... --odds: the exact odds of the action's first procedure from
 * the game as it stands; nothing rolled, nothing written. */
static int odds_of_action(table_game *g, int argc, char **argv, bool json)
{
	if (argc && (!strcmp(argv[0], "turn") || !strcmp(argv[0], "set")))
		return cli_error(CMD, EXIT_BAD_INPUT, "--odds is for an action that rolls dice (shoot, charge, ...), "
				 "not '%s'", argv[0]);
	fray_call_opts o = {.mode = FRAY_MODE_ODDS, .json = json};
	char *out;
	int status = said(g, frayi_table_odds(g, argc, argv, &o, &out));
	if (status == EXIT_OK) {
		fputs(out, stdout);
		free(out);
		status = cli_check_printed(CMD, game_what("the odds from", g->path));
	}
	return status;
}

static int undo(table_game *g)
{
	size_t n = g->log ? fray_node_len(g->log) : 0;
	if (n == 0)
		return cli_error(CMD, EXIT_BAD_INPUT, "%s: nothing to undo (the log is empty)", cli_tstr(g->path));
	const fray_node *last = fray_node_item(g->log, n - 1);
	int status = said(g, frayi_table_restore(g, fray_map_get(last, "undo")));
	if (status == EXIT_OK)
		status = table_save(g, NULL, NULL, n - 1);
	if (status == EXIT_OK) {
		const fray_node *c = fray_map_get(last, "command");
		printf("undone: %s\n", cli_tstr(c && fray_node_scalar(c) ? fray_node_scalar(c) : "?"));
		status = cli_check_printed(CMD, game_what("the undo in", g->path));
	}
	return status;
}

/* A game file for an action: opened, locked and read as one
 * (cli_open_locked: never a link, "-" or a FIFO, refused before anything
 * is rolled); *fd holds the lock until the new file is renamed in. */
static int load_locked(table_game *g, fray_ctx *ctx, const char *path, int *fd)
{
	char *text;
	size_t len;
	int status = cli_open_locked(CMD, path, fd, &text, &len);
	if (status != EXIT_OK)
		return status;
	fray_doc *doc;
	if (fray_doc_load_string(ctx, path, text, len, &doc) != FRAY_OK)
		status = cli_fail(CMD, ctx);
	else
		status = said(g, frayi_table_load_doc(g, ctx, path, doc));
	free(text);
	return status;
}

int cmd_table(int argc, char **argv)
{
	if (argc == 0 || cli_is_help(argv[0]))
		return cli_help_topic(argc ? stdout : stderr, "table") ? (argc ? EXIT_OK : EXIT_BAD_INPUT) : EXIT_RUNTIME;
	if (!strcmp(argv[0], "new"))
		return table_new(argc - 1, argv + 1);
	if (argc < 2)
		return cli_error(CMD, EXIT_BAD_INPUT, "usage: fray table GAME.yaml ACTION|status|log|undo|turn ... "
				 "('fray help table')");
	/* --json anywhere after the game file: the output as JSON */
	bool json = false, odds = false;
	int n = 0;
	char **args = malloc((size_t)argc * sizeof *args);
	if (!args)
		return cli_error(CMD, EXIT_RUNTIME, "out of memory");
	const char *format = NULL;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json"))
			json = true, format = "json";
		else if (!strcmp(argv[i], "--markdown"))
			format = "markdown";
		else if (!strcmp(argv[i], "--odds"))
			odds = true;
		else
			args[n++] = argv[i];
	}
	fray_ctx *ctx = fray_ctx_new(NULL, NULL);
	table_game *g = calloc(1, sizeof *g);
	int status, fd = -1;
	if (!ctx || !g) {
		status = cli_error(CMD, EXIT_RUNTIME, "out of memory");
		goto done;
	}
	g->cmd = CMD;
	const char *what = n ? args[0] : "";
	/* odds only read the game: no lock, nothing written */
	bool reads = ((!strcmp(what, "status") || !strcmp(what, "log")) && n == 1) || odds;
	if ((status = reads ? said(g, frayi_table_load(g, ctx, argv[0])) : load_locked(g, ctx, argv[0], &fd)) != EXIT_OK)
		goto done;
	if (odds && (!strcmp(what, "status") || !strcmp(what, "log") || !strcmp(what, "undo") || (format && !json)))
		status = cli_error(CMD, EXIT_BAD_INPUT, "--odds is for an action (fray table GAME ACTION UNIT ... --odds "
				   "[--json])");
	else if (odds)
		status = odds_of_action(g, n, args, json);
	else if (!strcmp(what, "status") && n == 1 && (!format || json))
		frayi_table_print_status(g, json, stdout);
	else if (!strcmp(what, "log") && n == 1)
		status = frayi_table_print_log(g, format ? format : "text", stdout);
	else if (!strcmp(what, "undo") && n == 1 && !format)
		status = undo(g);
	else if (!strcmp(what, "status") || !strcmp(what, "log") || !strcmp(what, "undo"))
		status = cli_error(CMD, EXIT_BAD_INPUT, "usage: fray table GAME status [--json] | log [--json|--markdown] "
				   "| undo");
	else if (format && !json)
		status = cli_error(CMD, EXIT_BAD_INPUT, "--markdown is for 'log'");
	else
		status = run_action(g, n, args, json);
done:
	if (fd >= 0)
		close(fd); /* the lock, after the rename */
	if (g)
		frayi_table_free(g);
	free(g);
	fray_ctx_free(ctx);
	free(args);
	return status;
}
