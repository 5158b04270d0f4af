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

/* combat, advise and end-turn are the catalogue's procedures */
static const cli_sub subs[] = {
	{"ratio", chits_ratio},
};

int cmd_chits(int argc, char **argv)
{
	return cli_run_set("chits", subs, sizeof subs / sizeof subs[0], argc, argv);
}
