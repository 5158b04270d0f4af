/* fray bbb PROCEDURE: Bloody Big Battles from its quick reference sheet:
 * fire, assault and move, the night checklist and the firefight table,
 * all the catalogue's. */
#include "catalog_cli.h"

int cmd_bbb(int argc, char **argv)
{
	return cli_run_set("bbb", NULL, 0, argc, argv);
}
