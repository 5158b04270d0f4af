/* fray chits: the chit-pull combat system: ratio, combat (from a combat
 * file or from flags), advise (what each number of chits does) and the end
 * of turn. */
#include <stdlib.h>
#include <string.h>
#include "policy_cli.h"
#include "catalog_cli.h"
#include "procout.h"
#include "../common/text.h"

static int chits_ratio(int argc, char **argv)
{
	cli_args a = {.cmd = "chits ratio", .argc = argc, .argv = argv};
	int64_t ac = 0, dc = 0;
	while (a.i < argc && a.status == EXIT_OK) {
		if (cli_is_help(argv[a.i]))
			return cli_help_topic(stdout, "chits ratio") ? EXIT_OK : EXIT_RUNTIME;
		if (!cli_i64(&a, "--attacker-cdr", 1, 99, &ac) && !cli_i64(&a, "--defender-cdr", 1, 99, &dc)) {
			static const char *const known[] = {"--attacker-cdr", "--defender-cdr", "--help"};
			return cli_unknown(&a, known, 3);
		}
	}
	if (a.status != EXIT_OK)
		return a.status;
	if (!ac || !dc)
		return cli_error(a.cmd, EXIT_BAD_INPUT, "missing --attacker-cdr N and --defender-cdr N");
	char r[16];
	fray_chits_ratio_text(fray_chits_ratio((int)ac, (int)dc), r, sizeof r);
	printf("%s\n", r);
	return EXIT_OK;
}

/* Combat and advise are catalogue procedures; the command line also takes
 * the combat file as its one argument without an option (fray chits combat
 * FILE), which is --combat FILE. */
static int run_with_file(const char *command, int argc, char **argv)
{
	char **args = calloc((size_t)argc + 2, sizeof *args);
	if (!args)
		return cli_error(command, EXIT_RUNTIME, "out of memory");
	int n = 0;
	bool have_file = false;
	for (int i = 0; i < argc; i++) {
		/* an argument that is no option's value: a flag, or --x=V, before it */
		const char *prev = i ? argv[i - 1] : NULL;
		bool after_value_option = prev && prev[0] == '-' && prev[1] == '-' && !strchr(prev, '=') &&
					  strcmp(prev, "--odds") != 0 && strcmp(prev, "--json") != 0;
		if (!have_file && !cli_is_option(argv[i]) && !after_value_option) {
			args[n++] = "--combat";
			have_file = true;
		}
		args[n++] = argv[i];
	}
	int status = cli_run_catalog(command, n, args);
	free(args);
	return status;
}

static int chits_combat(int argc, char **argv)
{
	return run_with_file("chits combat", argc, argv);
}

static int chits_advise(int argc, char **argv)
{
	return run_with_file("chits advise", argc, argv);
}

/* the end of turn is a catalogue procedure */
static int chits_end_turn(int argc, char **argv)
{
	return cli_run_catalog("chits end-turn", argc, argv);
}

static const cli_sub subs[] = {
	{"ratio", chits_ratio}, {"combat", chits_combat}, {"advise", chits_advise},
	{"end-turn", chits_end_turn},
};

int cmd_chits(int argc, char **argv)
{
	return cli_dispatch("chits", subs, sizeof subs / sizeof subs[0], argc, argv);
}
