/* fray chits: the chit-pull combat system: combat (from a combat file or
 * from flags), advise (what each number of chits does), the end of turn
 * and the strength ratio, all the catalogue's. */
#include "catalog_cli.h"

int cmd_chits(int argc, char **argv)
{
	return cli_run_set("chits", NULL, 0, argc, argv);
}
