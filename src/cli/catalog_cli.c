/* A catalogue procedure on the command line: its options come from its
 * descriptor (libfray's catalogue), its checks, help and output from the
 * library; what is left here is the command line's own syntax (--x=V,
 * repeated and unknown options, --odds/--seed/--json and the budgets:
 * --max-memory, --max-paths, --max-seconds). */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "catalog_cli.h"
#include "procout.h"
#include "../common/text.h"

/* Takes the procedure's option at a->i into the call: true when one was
 * taken (a->status says whether it was good). */
static bool take_input(cli_args *a, fray_call *c)
{
	/* an input's repeated groups (--weapon CODE --bases N ...) */
	for (size_t k = 0; k < fray_call_ninputs(c); k++) {
		char opt[FRAY_CALL_OPTION_MAX];
		for (size_t j = 0; fray_call_group_option(c, k, j, opt, sizeof opt); j++) {
			const char *text = NULL;
			if (!cli_value(a, opt, &text))
				continue;
			if (a->status == EXIT_OK && fray_call_group_add(c, k, opt, text) != FRAY_OK)
				a->status = EXIT_BAD_INPUT;
			return true;
		}
	}
	for (size_t k = 0; k < fray_call_ninputs(c); k++) {
		char opt_buf[FRAY_CALL_OPTION_MAX], alias_buf[FRAY_CALL_OPTION_MAX];
		const char *opt = fray_call_option(c, k, opt_buf, sizeof opt_buf);
		const char *alias = fray_call_alias(c, k, alias_buf, sizeof alias_buf);
		const char *text = NULL;
		bool flag = fray_call_is_flag(c, k);
		if (flag ? !cli_flag(a, opt) && !(alias && cli_flag(a, alias))
			 : !cli_value(a, opt, &text) && !(alias && cli_value(a, alias, &text)))
			continue;
		if (a->status == EXIT_OK && fray_call_set(c, k, text) != FRAY_OK)
			a->status = EXIT_BAD_INPUT;
		return true;
	}
	return false;
}

static int unknown(cli_args *a, fray_call *c)
{
	const char *known[CLI_MAX_SEEN];
	char names[CLI_MAX_SEEN][FRAY_CALL_OPTION_MAX];
	size_t n = 0;
	for (size_t k = 0; k < fray_call_ninputs(c) && n + 9 < CLI_MAX_SEEN; k++) {
		fray_call_option(c, k, names[n], sizeof names[n]);
		known[n] = names[n];
		n++;
		if (fray_call_alias(c, k, names[n], sizeof names[n])) {
			known[n] = names[n];
			n++;
		}
	}
	static const char *const common[] = {"--odds", "--exact", "--seed", "--json", "--max-memory", "--max-paths",
					     "--max-seconds", "--help", "--trials"};
	bool simulates = fray_call_modes(c) & FRAY_MODE_SIMULATE;
	if (fray_call_modes(c) == FRAY_MODE_SHOW) /* a listing: text, no dice */
		known[n++] = "--help";
	else
		for (size_t k = 0; k < (simulates ? 9u : 8u); k++)
			known[n++] = common[k];
	return cli_unknown(a, known, n);
}

/* A procedure that takes an input without its option (fray chits combat
 * FILE): its first argument that is no option, nor an option's value (a
 * flag, or --x=V, before it), is that input's option and value. */
static char **with_positional(const fray_call *c, int argc, char **argv, int *n, char option[FRAY_CALL_OPTION_MAX])
{
	int k = fray_call_positional(c);
	char **args = calloc((size_t)argc + 2, sizeof *args);
	if (!args)
		return NULL;
	bool have = k < 0;
	*n = 0;
	for (int i = 0; i < argc; i++) {
		const char *prev = i ? argv[i - 1] : NULL;
		bool after_value_option = prev && prev[0] == '-' && prev[1] == '-' && !strchr(prev, '=') &&
					  strcmp(prev, "--odds") != 0 && strcmp(prev, "--json") != 0;
		if (!have && !cli_is_option(argv[i]) && !after_value_option) {
			args[(*n)++] = (char *)fray_call_option(c, (size_t)k, option, FRAY_CALL_OPTION_MAX);
			have = true;
		}
		args[(*n)++] = argv[i];
	}
	return args;
}

/* Whether the command line gave the input named input (its JSON name):
 * its option, its alias or one of its groups' options. */
static bool given(const cli_args *a, const fray_call *c, const char *input)
{
	char want[FRAY_CALL_OPTION_MAX], opt[FRAY_CALL_OPTION_MAX];
	snprintf(want, sizeof want, "--%s", input);
	for (char *p = want; *p; p++)
		if (*p == '_')
			*p = '-';
	for (size_t k = 0; k < fray_call_ninputs(c); k++) {
		if (strcmp(fray_call_option(c, k, opt, sizeof opt), want) != 0)
			continue;
		if (cli_seen(a, opt) || (fray_call_alias(c, k, opt, sizeof opt) && cli_seen(a, opt)))
			return true;
		for (size_t j = 0; fray_call_group_option(c, k, j, opt, sizeof opt); j++)
			if (cli_seen(a, opt))
				return true;
	}
	return false;
}

/* A missing input whose message says in its own words where to look (an
 * example file): no --help hint after it, as before the library named
 * inputs. */
static bool missing_has_words(const fray_call *c, const char *input)
{
	int k = fray_call_input_named(c, input);
	return k >= 0 && fray_call_missing_words(c, (size_t)k) != NULL;
}

/* The library's failure with the command line's hint: the library names
 * the input (fray_ctx_input), the command line says where to look. A
 * missing input points at the command's --help (unless its message has
 * its own words); Presidio's weapons and
 * ranks at the listings that name them. */
static int fail_budget(const char *command, const fray_ctx *ctx, const cli_args *a, const fray_call *c,
		       const cli_budget *budget)
{
	const char *input = fray_ctx_input(ctx);
	char help[160];
	const char *hint = NULL;
	bool presidio = strncmp(command, "presidio ", 9) == 0;
	if (budget && (hint = cli_budget_paths_hint(budget, fray_ctx_status(ctx), fray_ctx_message(ctx))))
		;
	else if (!input || fray_ctx_status(ctx) != FRAY_ERR_INPUT)
		hint = NULL;
	else if (presidio && strstr(input, "weapon"))
		hint = "('fray presidio weapons' lists them)";
	else if (presidio && strstr(input, "rank"))
		hint = "('fray presidio units FILE' lists the ranks)";
	else if (!given(a, c, input) && !missing_has_words(c, input)) {
		snprintf(help, sizeof help, "(see 'fray %s --help')", command);
		hint = help;
	}
	return cli_fail_hint(command, ctx, hint);
}

static int fail(const char *command, const fray_ctx *ctx, const cli_args *a, const fray_call *c)
{
	return fail_budget(command, ctx, a, c, NULL);
}

static int run_catalog(fray_ctx *ctx, fray_call *c, const char *command, int argc, char **argv);

int cli_run_catalog(const char *command, int argc, char **argv)
{
	fray_ctx *ctx = fray_ctx_new(NULL, NULL);
	if (!ctx)
		return cli_error(command, EXIT_RUNTIME, "out of memory");
	fray_call *c = fray_call_new(ctx, command);
	if (!c) {
		int st = cli_fail(command, ctx);
		fray_ctx_free(ctx);
		return st;
	}
	int n = 0;
	char positional[FRAY_CALL_OPTION_MAX]; /* the option args names for it: lives as long as args */
	char **args = with_positional(c, argc, argv, &n, positional);
	int status = args ? run_catalog(ctx, c, command, n, args) : cli_error(command, EXIT_RUNTIME, "out of memory");
	free(args);
	fray_call_free(c);
	fray_ctx_free(ctx);
	return status;
}

int cli_run_set(const char *group, const cli_sub *subs, size_t n, int argc, char **argv)
{
	if (argc == 0 || cli_is_help(argv[0])) {
		cli_help_topic(argc ? stdout : stderr, group);
		return argc ? EXIT_OK : EXIT_BAD_INPUT;
	}
	for (size_t i = 0; i < n; i++)
		if (strcmp(argv[0], subs[i].name) == 0)
			return subs[i].run(argc - 1, argv + 1);
	char command[128];
	snprintf(command, sizeof command, "%s %s", group, argv[0]);
	const char *found = strlen(argv[0]) < 64 ? fray_procedure_find(command) : NULL;
	if (found)
		return cli_run_catalog(found, argc - 1, argv + 1);
	/* the names: the group's procedures in the catalogue's order, then
	 * its other commands */
	const char *names[128];
	size_t nn = 0, len = strlen(group);
	for (size_t i = 0; fray_procedure_command(i) && nn + 2 < 128; i++) {
		const char *cmds[2] = {fray_procedure_command(i), fray_procedure_also(i)};
		for (size_t k = 0; k < 2; k++)
			if (cmds[k] && strncmp(cmds[k], group, len) == 0 && cmds[k][len] == ' ')
				names[nn++] = cmds[k] + len + 1;
	}
	for (size_t i = 0; i < n && nn < 128; i++) {
		bool listed = false;
		for (size_t k = 0; k < nn && !listed; k++)
			listed = strcmp(names[k], subs[i].name) == 0;
		if (!listed)
			names[nn++] = subs[i].name;
	}
	const char *near = cli_nearest(argv[0], names, nn, sizeof names[0]);
	if (near)
		return cli_error(group, EXIT_BAD_INPUT, "unknown procedure '%s' (did you mean '%s'?)", argv[0], near);
	char list[1024];
	textbuf t = text_on(list, sizeof list);
	for (size_t i = 0; i < nn; i++)
		text_add(&t, "%s%s", i ? ", " : "", names[i]);
	return cli_error(group, EXIT_BAD_INPUT, "unknown procedure '%s' (procedures: %s)", argv[0], list);
}

/* A listing (a table, a checklist): its options, then its text; no
 * --json, --seed or --odds. The table may mark a cell in reverse video
 * on a terminal: fray's own text, printed past the terminal guard (the
 * names a file gives are escaped by the library). */
static int run_show(fray_ctx *ctx, fray_call *c, const char *command, cli_args *a)
{
	while (a->i < a->argc && a->status == EXIT_OK) {
		if (cli_is_help(a->argv[a->i]))
			return cli_help_topic(stdout, command) ? EXIT_OK : EXIT_RUNTIME;
		if (!take_input(a, c))
			return unknown(a, c);
	}
	if (a->status != EXIT_OK)
		return fray_ctx_status(ctx) != FRAY_OK ? fail(command, ctx, a, c) : a->status;
	fray_call_opts run = {.mode = FRAY_MODE_SHOW, .color = cli_color(stdout)};
	char *out = NULL;
	if (fray_call_run(c, &run, &out) != FRAY_OK)
		return fail(command, ctx, a, c);
	if (run.color)
		cli_raw_stdout(out);
	else
		fputs(out, stdout);
	free(out);
	return EXIT_OK;
}

static int run_catalog(fray_ctx *ctx, fray_call *c, const char *command, int argc, char **argv)
{
	/* a group's options come again and again */
	char rep[15][FRAY_CALL_OPTION_MAX];
	const char *repeatable[16];
	size_t nrep = 0;
	for (size_t k = 0; k < fray_call_ninputs(c); k++)
		for (size_t j = 0; nrep < 15 && fray_call_group_option(c, k, j, rep[nrep], sizeof rep[nrep]); j++) {
			repeatable[nrep] = rep[nrep];
			nrep++;
		}
	repeatable[nrep] = NULL;
	cli_args a = {.cmd = command, .argc = argc, .argv = argv, .repeatable = repeatable};
	if (fray_call_modes(c) == FRAY_MODE_SHOW)
		return run_show(ctx, c, command, &a);
	proc_opts o = {0};
	cli_budget budget = {0};
	uint64_t trials = 0;
	/* a procedure that only simulates (a campaign pursuit) runs trials */
	unsigned modes = fray_call_modes(c);
	bool simulate = (modes & FRAY_MODE_SIMULATE) && !(modes & FRAY_MODE_ROLL);
	int status = EXIT_OK;
	while (a.i < argc && a.status == EXIT_OK) {
		if (cli_is_help(argv[a.i])) {
			status = cli_help_topic(stdout, command) ? EXIT_OK : EXIT_RUNTIME;
			goto done;
		}
		if (simulate && cli_u64(&a, "--trials", 1, FRAY_CALL_MAX_TRIALS, &trials))
			continue;
		if (!take_input(&a, c) && !proc_opt(&a, &o) && !cli_budget_opt(&a, &budget)) {
			status = unknown(&a, c);
			goto done;
		}
	}
	if (a.status != EXIT_OK) {
		status = fray_ctx_status(ctx) != FRAY_OK ? fail(command, ctx, &a, c) : a.status;
		goto done;
	}
	if (o.odds && o.have_seed) {
		status = cli_error(command, EXIT_BAD_INPUT, "--odds and --seed do not go together: odds roll no dice");
		goto done;
	}
	if (fray_call_check(c) != FRAY_OK) {
		status = fail(command, ctx, &a, c);
		goto done;
	}
	if (!o.odds && o.max_mib) {
		status = cli_error(command, EXIT_BAD_INPUT, "--max-memory is for --odds (exact odds' memory budget)");
		goto done;
	}
	/* without --odds: a roll, or what the procedure has (advise: odds) */
	fray_mode mode = o.odds || !(modes & (FRAY_MODE_ROLL | FRAY_MODE_SIMULATE)) ? FRAY_MODE_ODDS
			 : simulate ? FRAY_MODE_SIMULATE : FRAY_MODE_ROLL;
	if (mode != FRAY_MODE_ODDS && (budget.max_paths || budget.seconds_given)) {
		status = cli_error(command, EXIT_BAD_INPUT, "%s is for --odds (exact odds' %s budget)",
				   budget.max_paths ? "--max-paths" : "--max-seconds", budget.max_paths ? "path" : "time");
		goto done;
	}
	if (mode == FRAY_MODE_ODDS && (status = cli_budget_env(command, &budget)) != EXIT_OK)
		goto done;
	/* long odds and simulations show a progress line on a terminal and
	 * stop at Ctrl-C with what they did (exit 130), as simulate does */
	cli_progress prog;
	cli_progress_start(&prog, mode == FRAY_MODE_ODDS ? "paths" : "trials");
	prog.budget = mode == FRAY_MODE_ODDS;
	bool show = mode != FRAY_MODE_ROLL && isatty(2);
	fray_call_opts run = {.version = FRAY_CALL_OPTS_VERSION, .mode = mode, .exact = o.exact,
			      .format = o.form, .have_seed = o.have_seed, .seed = o.have_seed ? o.seed : cli_pick_seed(),
			      .max_bytes = o.max_mib << 20, .max_paths = budget.max_paths, .trials = trials,
			      .stop = &cli_stop_signal, .progress = show ? cli_progress_show : NULL, .ud = &prog};
	char *out = NULL;
	cli_catch_stop();
	if (mode == FRAY_MODE_ODDS)
		cli_budget_arm(&budget);
	fray_status st = fray_call_run(c, &run, &out);
	cli_budget_disarm();
	cli_release_stop();
	if (show)
		cli_progress_clear();
	if (st != FRAY_OK && cli_budget_passed()) {
		status = cli_budget_refuse(command, &budget, "exact odds");
		goto done;
	}
	if (st != FRAY_OK && cli_stop_signal) {
		fprintf(stderr, "fray %s: stopped: %s\n", command, fray_ctx_message(ctx));
		status = cli_stop_status();
		goto done;
	}
	if (st != FRAY_OK) {
		status = fail_budget(command, ctx, &a, c, mode == FRAY_MODE_ODDS ? &budget : NULL);
		goto done;
	}
	fputs(out, stdout);
	free(out);
done:
	return status;
}

/* fray dice roll DICE: a dice expression as a procedure of the catalogue
 * (the page's dice roller); 'fray dice' alone is help's dice topic. */
int cmd_dice(int argc, char **argv)
{
	return cli_run_set("dice", NULL, 0, argc, argv);
}
