/* fray adbg PROCEDURE: A Dark and Bloody Ground rule 19, one procedure at a
 * time (fire, move, melee, recover, rounds: the catalogue's), and the
 * battle commands. */
#include <stdlib.h>
#include <string.h>
#include "catalog_cli.h"

int adbg_battle(int argc, char **argv);
int adbg_resume(int argc, char **argv);
int adbg_odds(int argc, char **argv);
int adbg_simulate(int argc, char **argv);
int adbg_sweep(int argc, char **argv);

/* fire, move, melee, recover and rounds are the catalogue's procedures;
 * these are commands of their own: a battle from its file with its save,
 * policies and progress (the catalogue's adbg.battle is the request's). */
static const cli_sub subs[] = {
	{"battle", adbg_battle},
	{"resume", adbg_resume},
	{"odds", adbg_odds},
	{"simulate", adbg_simulate},
	{"sweep", adbg_sweep},
};

int cmd_adbg(int argc, char **argv)
{
	return cli_run_set("adbg", subs, sizeof subs / sizeof subs[0], argc, argv);
}
