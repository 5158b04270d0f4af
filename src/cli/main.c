/* fray: the command. A thin dispatcher over the library. */
#include <string.h>
#include "atomic.h"
#include "cli.h"
#include "catalog_cli.h"
#include "../common/text.h"

static int run(const char *name, int argc, char **argv)
{
	if (strcmp(name, "--version") == 0 || strcmp(name, "version") == 0) {
		printf("fray %s\n", fray_version());
		return EXIT_OK;
	}
	if (cli_is_help(name))
		return cmd_help(0, NULL);
	const cli_command *c = cli_command_find(name);
	if (c)
		return c->run(argc - 2, argv + 2);
	const char *near = cli_nearest(name, &cli_commands[0].name, cli_ncommands, sizeof cli_commands[0]);
	if (near)
		return cli_error(NULL, EXIT_BAD_INPUT, "unknown command '%s' (did you mean '%s'?)", name, near);
	char list[512];
	textbuf t = text_on(list, sizeof list);
	for (size_t i = 0; i < cli_ncommands; i++)
		if (cli_commands[i].run)
			text_add(&t, "%s%s", t.len ? ", " : "", cli_commands[i].name);
	return cli_error(NULL, EXIT_BAD_INPUT, "unknown command '%s' (commands: %s)", name, list);
}

/* Output that did not reach its file (a full disk, /dev/full, a closed
 * pipe) is a failure, whatever the command said: 1, never 0; but when the
 * command wrote its file (a save, a game) before, 3: done, not printed, so
 * that a caller retrying on 1 does not do it twice. */
static int finish(const char *name, int status)
{
	bool failed = fflush(stdout) != 0 || ferror(stdout);
	failed = fclose(stdout) != 0 || failed;
	if (failed && status == EXIT_OK && cli_written())
		return cli_error(name, EXIT_SAVED_UNPRINTED, "saved %s; could not print the result: do not run it "
				 "again", cli_written());
	if (failed && status != EXIT_BAD_INPUT && status != EXIT_SAVED_UNPRINTED)
		return cli_error(name, EXIT_RUNTIME, "cannot write the output");
	return status;
}

int main(int argc, char **argv)
{
	cli_term_guard();
	if (argc < 2) {
		cli_help_topic(stderr, "usage");
		return EXIT_BAD_INPUT;
	}
	const char *name = argv[1];
	return finish(name, run(name, argc, argv));
}
