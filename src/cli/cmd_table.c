/* fray table: play a game from a game file (docs/table.md). The shell of
 * the game (include/fray/game.h, in libfray): the file read and locked,
 * the game's text written atomically, the story printed, the game's
 * statuses said as exit statuses, the interactive policy at a terminal.
 *   fray table new GAME --rules R --forces FILE [--seed N]
 *   fray table GAME ACTION UNIT [--at TARGET] [options]
 *   fray table GAME status|log|undo|turn|set ...
 *   fray table GAME advise UNIT|play SIDE [--goal G] [situation options]
 * --odds, advise and play within exact odds' budgets: --max-paths,
 * --max-memory, --max-seconds (or FRAY_MAX_SECONDS; cli.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "atomic.h"
#include "policy_cli.h"
#include "cli.h"
#include "../common/text.h"

static const char CMD[] = "table";

/* A status of the library as the command's exit status, its message said
 * with the command line's hint: where the actions are told, how to start
 * another game when this one is full. */
static int said(const char *cmd, const fray_ctx *ctx, fray_status status)
{
	if (status == FRAY_OK)
		return EXIT_OK;
	const char *input = fray_ctx_input(ctx), *hint = NULL;
	if (input && status == FRAY_ERR_INPUT && !strcmp(input, "action"))
		hint = "('fray help table' lists them)";
	else if (input && status == FRAY_ERR_LIMIT && !strcmp(input, "game"))
		hint = "('fray table new' starts one)";
	return cli_fail_hint(cmd, ctx, hint);
}

/* Refuses a game file that is also where standard output goes: `fray
 * table g.yaml log >> g.yaml` wrote the log into the game, and `... >
 * g.yaml` found it emptied by the shell ("found nothing"). An exit
 * status. */
static int not_stdout(const char *cmd, const char *path, int fd, size_t len)
{
	struct stat in, out;
	if (fd == 0 || fstat(fd, &in) != 0 || fstat(1, &out) != 0 || !S_ISREG(in.st_mode) || in.st_dev != out.st_dev ||
	    in.st_ino != out.st_ino)
		return EXIT_OK;
	if (len == 0)
		return cli_error(cmd, EXIT_BAD_INPUT, "%s: empty, and it is also where standard output goes: the shell "
				 "emptied it before fray started (send the output to another file)", path);
	return cli_error(cmd, EXIT_BAD_INPUT, "%s: it is also where standard output goes: the output would be "
			 "written into the game (send the output to another file; nothing was written)", path);
}

/* A file's bytes whole (the library's checked opener: "-" is standard
 * input, a FIFO or a folder refused at once; at most max + 1 bytes, so
 * the reader tells a larger one as such: max is FRAY_GAME_MAX_BYTES for a
 * game file, the game file's one budget, FRAY_DOC_MAX_BYTES for a forces
 * file): *text malloc'd, *len bytes. An exit status. */
static int read_whole(const char *cmd, fray_ctx *ctx, const char *path, size_t max, char **text, size_t *len)
{
	*text = NULL;
	*len = 0;
	int fd;
	fray_ctx_clear(ctx);
	if (fray_input_open(ctx, path, max, &fd) != FRAY_OK)
		return cli_fail(cmd, ctx);
	size_t cap = max + 1, n = 0;
	char *buf = malloc(cap);
	if (!buf) {
		if (fd != 0)
			close(fd);
		return cli_error(cmd, EXIT_RUNTIME, "out of memory");
	}
	int e = 0;
	while (n < cap) {
		ssize_t got = read(fd, buf + n, cap - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0) {
			e = got < 0 ? errno : 0;
			break;
		}
		n += (size_t)got;
	}
	int same = e ? EXIT_OK : not_stdout(cmd, path, fd, n);
	if (fd != 0)
		close(fd);
	if (same != EXIT_OK) {
		free(buf);
		return same;
	}
	if (e) { /* a folder given as standard input, for one */
		free(buf);
		return cli_error(cmd, e == EISDIR ? EXIT_BAD_INPUT : EXIT_RUNTIME, "%s: cannot read: %s", path,
				 strerror(e));
	}
	*text = buf;
	*len = n;
	return EXIT_OK;
}

/* The game's text written whole to path (atomically). An exit status. */
static int write_game(const fray_game *game, const char *path)
{
	const char *text;
	size_t len;
	fray_game_save(game, &text, &len);
	if (!cli_write_atomic(path, text, len))
		return cli_error(CMD, EXIT_RUNTIME, "cannot write %s: %s (the game file is as it was)", cli_tstr(path),
				 strerror(errno));
	return EXIT_OK;
}

/* "the action in G.yaml" for cli_check_printed's message (one slot). */
static const char *game_what(const char *what, const char *path)
{
	static char slot[512];
	snprintf(slot, sizeof slot, "%s %s", what, cli_tstr(path));
	return slot;
}

/* A new game file, never over a file, not even one made since the check
 * at the start: the game is written to an empty file of ours beside it,
 * then put in place only if the name is still free (cli_rename_new). */
static int save_new(const fray_game *game, const char *path)
{
	char place[4096];
	if (!cli_temp_beside(path, place, sizeof place))
		return cli_error("table new", errno == ENAMETOOLONG ? EXIT_BAD_INPUT : EXIT_RUNTIME,
				 "cannot write %s: %s", cli_tstr(path), strerror(errno));
	const char *text;
	size_t len;
	fray_game_save(game, &text, &len);
	int status = EXIT_OK;
	if (!cli_write_atomic(place, text, len))
		status = cli_error("table new", EXIT_RUNTIME, "cannot write %s: %s (the game file is as it was)",
				   cli_tstr(place), strerror(errno));
	if (status == EXIT_OK && !cli_rename_new(place, path))
		status = errno == EEXIST ? cli_error("table new", EXIT_BAD_INPUT, "%s exists (made while this game "
						    "was being set up): a new game never writes over a file",
						    cli_tstr(path))
					 : cli_error("table new", EXIT_RUNTIME, "cannot write %s: %s", cli_tstr(path),
						     strerror(errno));
	if (status != EXIT_OK)
		unlink(place);
	return status;
}

static int table_new(int argc, char **argv)
{
	cli_args a = {.cmd = "table new", .argc = argc, .argv = argv};
	const char *game = NULL, *forces = NULL;
	/* the rule sets the library plays, in its order */
	const char *rules_names[8];
	size_t nrules = 0;
	while (nrules < sizeof rules_names / sizeof *rules_names && fray_game_rule_set(nrules)) {
		rules_names[nrules] = fray_game_rule_set(nrules);
		nrules++;
	}
	size_t rules = nrules;
	uint64_t seed = 0;
	bool have_seed = false;
	while (a.i < argc && a.status == EXIT_OK) {
		if (cli_is_help(argv[a.i]))
			return cli_help_topic(stdout, "table") ? EXIT_OK : EXIT_RUNTIME;
		if (cli_enum(&a, "--rules", rules_names, nrules, &rules) || cli_value(&a, "--forces", &forces))
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
	if (!game || !forces || rules == nrules) {
		char sets[128];
		textbuf t = text_on(sets, sizeof sets);
		for (size_t i = 0; i < nrules; i++)
			text_add(&t, "%s%s", i ? "|" : "", rules_names[i]);
		return cli_error("table new", EXIT_BAD_INPUT, "usage: fray table new GAME.yaml --rules %s "
				 "--forces FORCES.yaml [--seed N]", sets);
	}
	if (!strcmp(game, "-"))
		return cli_error("table new", EXIT_BAD_INPUT, "-: a game is written to a file, not to standard "
				 "output; name one (./- for a file called -)");
	struct stat st;
	if (lstat(game, &st) == 0) /* early, before the forces are read; save_new checks again */
		return cli_error("table new", EXIT_BAD_INPUT, "%s exists: a new game never writes over a file "
				 "(remove it, or choose another name)", cli_tstr(game));
	fray_ctx *ctx = fray_ctx_new(NULL, NULL);
	if (!ctx)
		return cli_error("table new", EXIT_RUNTIME, "out of memory");
	if (!have_seed)
		seed = cli_pick_seed();
	char *text;
	size_t len;
	fray_game *g = NULL;
	int status = read_whole("table new", ctx, forces, FRAY_DOC_MAX_BYTES, &text, &len);
	if (status == EXIT_OK) {
		/* the files the forces name (units_file, mix) read beside them */
		status = said("table new", ctx, fray_game_new(ctx, game, rules_names[rules], forces, text, len, seed,
							     NULL, NULL, &g));
		free(text);
	}
	if (status == EXIT_OK)
		status = save_new(g, game);
	if (status == EXIT_OK) {
		printf("%s: a %s game of %zu units, seed %llu ('fray table %s status' shows them)\n", cli_tstr(game),
		       rules_names[rules], fray_game_units(g), (unsigned long long)seed, cli_tstr(game));
		status = cli_check_printed("table new", game_what("the new game", game));
	}
	fray_game_free(g);
	fray_ctx_free(ctx);
	return status;
}

static int run_action(fray_game *game, fray_ctx *ctx, const char *path, int argc, char **argv, fray_format form)
{
	/* the players' decisions the options leave open (the charge reaction)
	 * are asked at a terminal: the interactive policy; else none */
	fray_policy *policy = NULL;
	if (isatty(0) && isatty(2) && cli_make_policy(CMD, ctx, "interactive", &policy, NULL) != EXIT_OK)
		return EXIT_RUNTIME;
	char *out = NULL;
	int status = said(CMD, ctx, fray_game_act(game, (size_t)argc, (const char *const *)argv, policy,
						   fray_format_name(form), &out));
	if (status == EXIT_OK)
		status = write_game(game, path);
	if (status == EXIT_OK) {
		fputs(out, stdout);
		status = cli_check_printed(CMD, game_what("the action in", path));
	}
	free(out);
	fray_policy_free(policy);
	return status;
}

/* ACTION ... --odds: the exact odds of the action's first procedure from
 * the game as it stands; nothing rolled, nothing written. */
static int odds_of_action(fray_game *game, fray_ctx *ctx, const char *path, int argc, char **argv, fray_format form,
			  const cli_budget *budget)
{
	if (argc && (!strcmp(argv[0], "turn") || !strcmp(argv[0], "set"))) {
		/* the game's own actions, as its rule set offers them */
		char actions[512];
		textbuf t = text_on(actions, sizeof actions);
		const char *rules = fray_game_rules(game), *name;
		for (size_t i = 0; (name = fray_game_rule_set_action(rules, i, NULL)); i++)
			text_add(&t, "%s%s", i ? ", " : "", name);
		return cli_error(CMD, EXIT_BAD_INPUT, "--odds is for an action that rolls dice (%s: %s), not '%s'", rules,
				 actions, argv[0]);
	}
	char *out = NULL;
	cli_budget_arm(budget);
	fray_status st = fray_game_act_odds(game, (size_t)argc, (const char *const *)argv, form, &out);
	cli_budget_disarm();
	const char *hint = cli_budget_paths_hint(budget, st, fray_ctx_message(ctx));
	int status = cli_budget_passed() ? cli_budget_refuse(CMD, budget, "exact odds")
		     : hint ? cli_fail_hint(CMD, ctx, hint) : said(CMD, ctx, st);
	if (status != EXIT_OK)
		free(out);
	else {
		fputs(out, stdout);
		free(out);
		status = cli_check_printed(CMD, game_what("the odds from", path));
	}
	return status;
}

static int undo(fray_game *game, fray_ctx *ctx, const char *path)
{
	size_t n = fray_game_log_len(game);
	if (n == 0)
		return cli_error(CMD, EXIT_BAD_INPUT, "%s: nothing to undo (the log is empty)", cli_tstr(path));
	/* the command undone, kept: the game's text changes under it */
	const char *c = fray_game_log_command(game, n - 1);
	char *command = strdup(c ? c : "?");
	if (!command)
		return cli_error(CMD, EXIT_RUNTIME, "out of memory");
	int status = said(CMD, ctx, fray_game_undo(game));
	if (status == EXIT_OK)
		status = write_game(game, path);
	if (status == EXIT_OK) {
		printf("undone: %s\n", cli_tstr(command));
		status = cli_check_printed(CMD, game_what("the undo in", path));
	}
	free(command);
	return status;
}

/* The forces or the log, as the library renders them. */
static int show(fray_game *game, fray_ctx *ctx, bool log, fray_format form)
{
	char *out;
	int status = said(CMD, ctx, (log ? fray_game_log : fray_game_status)(game, fray_format_name(form), &out));
	if (status == EXIT_OK)
		fputs(out, stdout);
	free(out);
	return status;
}

/* The situation's words after the unit or side ("--range", "10",
 * "--cover=partial", "--held") as typed options, the words read here at
 * the edge: a word after an option that is not one itself is its value,
 * given as text (the library reads it as the options take it: "10" a
 * number for --range); an option without one is a flag (true). The
 * names are copied into names (room for every word). An exit status. */
static int situation_options(int n, char **w, fray_game_option *opts, char *names, size_t *nopts)
{
	*nopts = 0;
	for (int i = 0; i < n; i++) {
		if (strncmp(w[i], "--", 2) || !w[i][2])
			return cli_error(CMD, EXIT_BAD_INPUT, "advise: '%.48s' is not an option (--range 10, --cover "
					 "partial ...)", w[i]);
		const char *eq = strchr(w[i], '=');
		size_t len = eq ? (size_t)(eq - w[i] - 2) : strlen(w[i] + 2);
		memcpy(names, w[i] + 2, len);
		names[len] = '\0';
		fray_game_option *o = &opts[(*nopts)++];
		*o = (fray_game_option){.name = names, .kind = FRAY_GAME_BOOL, .b = true};
		names += len + 1;
		if (eq || (i + 1 < n && strncmp(w[i + 1], "--", 2))) {
			o->kind = FRAY_GAME_TEXT;
			o->s = eq ? eq + 1 : w[++i];
		}
	}
	return EXIT_OK;
}

/* advise UNIT / play SIDE [--goal G] [options]: the library's advice,
 * or its move for a side (written as an action is). */
static int advise_or_play(fray_game *game, fray_ctx *ctx, const char *path, int argc, char **argv, fray_format form,
			  const cli_budget *budget)
{
	bool play = !strcmp(argv[0], "play");
	const char *goal = NULL, *who = NULL;
	char **words = malloc((size_t)argc * sizeof *words);
	fray_game_option *opts = malloc((size_t)argc * sizeof *opts);
	size_t room = 1;
	for (int i = 0; i < argc; i++)
		room += strlen(argv[i]) + 1;
	char *names = malloc(room);
	if (!words || !opts || !names) {
		free(words);
		free(opts);
		free(names);
		return cli_error(CMD, EXIT_RUNTIME, "out of memory");
	}
	int n = 0, goals = 0;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--goal") && i + 1 < argc)
			goal = argv[++i], goals++;
		else if (!strncmp(argv[i], "--goal=", 7))
			goal = argv[i] + 7, goals++;
		else if (!who && !cli_is_option(argv[i]))
			who = argv[i];
		else
			words[n++] = argv[i];
	}
	size_t nopts = 0;
	/* one goal an answer: a second one is refused, not the last taken */
	int status = goals > 1 ? cli_error(CMD, EXIT_BAD_INPUT, "--goal: given %d times (one goal: win, not-lose, "
					    "casualties or hold)", goals)
		     : who ? situation_options(n, words, opts, names, &nopts)
			 : cli_error(CMD, EXIT_BAD_INPUT, "usage: fray table GAME %s [--goal win|not-lose|casualties|hold] "
				     "[--json] [situation options: --range 10 ...]", play ? "play SIDE" : "advise UNIT");
	char *out = NULL;
	if (status == EXIT_OK) {
		/* advice weighs every action's odds: past the time budget the
		 * ones left would be valued without them, so nothing is said
		 * (nor played) at all */
		cli_budget_arm(budget);
		fray_status st = (play ? fray_game_play_typed : fray_game_advise_typed)(game, who, goal, nopts, opts,
											 form, &out);
		cli_budget_disarm();
		status = cli_budget_passed() ? cli_budget_refuse(CMD, budget, play ? "the move" : "the advice")
					     : said(CMD, ctx, st);
	}
	if (status == EXIT_OK && play)
		status = write_game(game, path);
	if (status == EXIT_OK) {
		fputs(out, stdout);
		status = cli_check_printed(CMD, game_what(play ? "the move in" : "the advice on", path));
	}
	free(out);
	free(words);
	free(opts);
	free(names);
	return status;
}

/* A game file read for an action or to be shown. locked (an action): it is
 * opened, locked and read as one (cli_open_locked: never a link, "-" or a
 * FIFO, refused before anything is rolled) and *fd holds the lock until
 * the new file is renamed in; else read as any input. */
static int load(fray_ctx *ctx, const char *path, bool locked, int *fd, fray_game **game)
{
	char *text;
	size_t len;
	int status = locked ? cli_open_locked(CMD, path, fd, &text, &len) : read_whole(CMD, ctx, path, FRAY_GAME_MAX_BYTES, &text, &len);
	if (status != EXIT_OK)
		return status;
	if (locked && (status = not_stdout(CMD, path, *fd, len)) != EXIT_OK) {
		free(text);
		return status;
	}
	status = said(CMD, ctx, fray_game_load(ctx, path, text, len, game));
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
	/* --json anywhere after the game file: an action's, the status' and
	 * odds' output as JSON; the log's format is the last one named */
	bool odds = false;
	int n = 0;
	/* the budgets' options, anywhere after the game file too */
	cli_args ba = {.cmd = CMD, .argc = argc, .argv = argv};
	cli_budget budget = {0};
	uint64_t max_mib = 0;
	const char *budget_option = NULL;
	char **args = malloc((size_t)argc * sizeof *args);
	if (!args)
		return cli_error(CMD, EXIT_RUNTIME, "out of memory");
	const unsigned offers = CLI_FORMAT(FRAY_FORMAT_JSON) | CLI_FORMAT(FRAY_FORMAT_MARKDOWN);
	unsigned asked = 0;
	fray_format log_form = FRAY_FORMAT_TEXT;
	for (int i = 1; i < argc; i++) {
		fray_format named;
		if (!strncmp(argv[i], "--", 2) && fray_format_parse(argv[i] + 2, &named) == FRAY_OK &&
		    (offers & CLI_FORMAT(named)))
			asked |= CLI_FORMAT(named), log_form = named;
		else if (!strcmp(argv[i], "--odds"))
			odds = true;
		else if ((ba.i = i, cli_budget_opt(&ba, &budget) ||
				     cli_u64(&ba, "--max-memory", 1, CLI_MAX_MEMORY_MIB, &max_mib))) {
			if (ba.status != EXIT_OK) {
				free(args);
				return ba.status;
			}
			budget_option = argv[i];
			i = ba.i - 1;
		} else
			args[n++] = argv[i];
	}
	fray_ctx *ctx = fray_ctx_new(NULL, NULL);
	fray_game *g = NULL;
	const char *path = argv[0];
	int status, fd = -1;
	if (!ctx) {
		status = cli_error(CMD, EXIT_RUNTIME, "out of memory");
		goto done;
	}
	const char *what = n ? args[0] : "";
	fray_format form = asked & CLI_FORMAT(FRAY_FORMAT_JSON) ? FRAY_FORMAT_JSON : FRAY_FORMAT_TEXT;
	bool markdown_only = asked == CLI_FORMAT(FRAY_FORMAT_MARKDOWN);
	/* odds only read the game: no lock, nothing written */
	bool reads = ((!strcmp(what, "status") || !strcmp(what, "log")) && n == 1) || odds || !strcmp(what, "advise");
	bool weighs = odds || !strcmp(what, "advise") || !strcmp(what, "play");
	if (budget_option && !weighs) {
		status = cli_error(CMD, EXIT_BAD_INPUT, "%.20s is for exact odds' budgets: an action's --odds, advise "
				   "or play", budget_option);
		goto done;
	}
	if (weighs && (status = cli_budget_env(CMD, &budget)) != EXIT_OK)
		goto done;
	if ((status = load(ctx, path, !reads, &fd, &g)) != EXIT_OK)
		goto done;
	/* the odds stop at the budget's signal as at Ctrl-C's */
	fray_game_set_odds_budget(g, &(fray_call_opts){.max_paths = budget.max_paths, .max_bytes = max_mib << 20,
						       .stop = &cli_stop_signal});
	if (odds && (!strcmp(what, "status") || !strcmp(what, "log") || !strcmp(what, "undo") || markdown_only))
		status = cli_error(CMD, EXIT_BAD_INPUT, "--odds is for an action (fray table GAME ACTION UNIT ... --odds "
				   "[--json])");
	else if (odds)
		status = odds_of_action(g, ctx, path, n, args, form, &budget);
	else if (!strcmp(what, "status") && n == 1 && !markdown_only)
		status = show(g, ctx, false, form);
	else if (!strcmp(what, "log") && n == 1)
		status = show(g, ctx, true, log_form);
	else if (!strcmp(what, "undo") && n == 1 && !asked)
		status = undo(g, ctx, path);
	else if (!strcmp(what, "status") || !strcmp(what, "log") || !strcmp(what, "undo"))
		status = cli_error(CMD, EXIT_BAD_INPUT, "usage: fray table GAME status [--json] | log [--json|--markdown] "
				   "| undo");
	else if (markdown_only)
		status = cli_error(CMD, EXIT_BAD_INPUT, "--markdown is for 'log'");
	else if (!strcmp(what, "advise") || !strcmp(what, "play"))
		status = advise_or_play(g, ctx, path, n, args, form, &budget);
	else
		status = run_action(g, ctx, path, n, args, form);
done:
	if (fd >= 0)
		close(fd); /* the lock, after the rename */
	fray_game_free(g);
	fray_ctx_free(ctx);
	free(args);
	return status;
}
