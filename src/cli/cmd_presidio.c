/* fray presidio PROCEDURE: Presidio's procedures and its listings
 * (victory points, the weapon list, a units file's table) are the
 * catalogue's. */
#include "catalog_cli.h"

int cmd_presidio(int argc, char **argv)
{
	return cli_run_set("presidio", NULL, 0, argc, argv);
}
