/* fray adbg PROCEDURE: A Dark and Bloody Ground rule 19, one procedure at a
 * time (fire, move, melee, recover, rounds), rolled or as exact odds. */
#include <stdlib.h>
#include <string.h>
#include "catalog_cli.h"

/* fire, move, recover and rounds are catalogue procedures */
static int adbg_fire(int argc, char **argv)
{
	return cli_run_catalog("adbg fire", argc, argv);
}

static int adbg_move(int argc, char **argv)
{
	return cli_run_catalog("adbg move", argc, argv);
}

static int adbg_recover(int argc, char **argv)
{
	return cli_run_catalog("adbg recover", argc, argv);
}

static int adbg_rounds(int argc, char **argv)
{
	return cli_run_catalog("adbg rounds", argc, argv);
}

static int adbg_melee(int argc, char **argv)
{
	return cli_run_catalog("adbg melee", argc, argv);
}

int adbg_battle(int argc, char **argv);
int adbg_resume(int argc, char **argv);
int adbg_odds(int argc, char **argv);
int adbg_simulate(int argc, char **argv);
int adbg_sweep(int argc, char **argv);

static const cli_sub subs[] = {
	{"fire", adbg_fire},
	{"move", adbg_move},
	{"melee", adbg_melee},
	{"recover", adbg_recover},
	{"rounds", adbg_rounds},
	{"battle", adbg_battle},
	{"resume", adbg_resume},
	{"odds", adbg_odds},
	{"simulate", adbg_simulate},
	{"sweep", adbg_sweep},
};

int cmd_adbg(int argc, char **argv)
{
	return cli_dispatch("adbg", subs, sizeof subs / sizeof subs[0], argc, argv);
}
