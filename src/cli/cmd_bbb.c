/* fray bbb PROCEDURE: Bloody Big Battles from its quick reference sheet:
 * fire, assault and move, the night checklist and the firefight table,
 * all the catalogue's. */
#include <string.h>
#include "catalog_cli.h"

/* The night checklist is the catalogue's, in a player's words ("move a
 * disrupted unit"); the commands that roll those steps are the command
 * line's to say (issue 42: no 'fray ...' hint in the library). */
static int night(int argc, char **argv)
{
	int status = cli_run_catalog("bbb night", argc, argv);
	for (int i = 0; i < argc; i++)
		if (cli_is_help(argv[i]))
			return status;
	if (status == EXIT_OK)
		fputs("\nOn the command line:\n"
		      "  fray bbb move --disrupted                        rally a disrupted unit\n"
		      "  fray bbb move --training raw|trained|veteran     recover by training\n",
		      stdout);
	return status;
}

static const cli_sub bbb_subs[] = {{"night", night}};

int cmd_bbb(int argc, char **argv)
{
	return cli_run_set("bbb", bbb_subs, sizeof bbb_subs / sizeof bbb_subs[0], argc, argv);
}
