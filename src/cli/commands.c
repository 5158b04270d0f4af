/* The fray command's one table of commands: main.c dispatches from it,
 * `fray help` prints its usage lines from it, and `fray help commands`
 * lists its names for the bash completion; tests/cli/commands_doc.sh holds
 * the man page's SYNOPSIS to it (issue 42 item 4: the man page, help and
 * completion from one table). */
#include <string.h>
#include "cli.h"
#include "catalog_cli.h"

/* One row a usage line. A command with several lines (adbg) has its
 * runner on the first; the others are NULL and only print. A rule set's
 * row whose summary is NULL is summed up by its title in the catalogue's
 * registry (fray_rule_set). */
const cli_command cli_commands[] = {
	{"roll", "DICE [--seed N] [--json]", "roll dice, told die by die", cmd_roll},
	{"odds", "DICE [--at-least K] [--at-most K] [--exact] [--json]", "exact chance of every total", cmd_odds},
	{"check", "FILE...", "check data files for mistakes", cmd_check},
	{"adbg", "PROCEDURE|battle|odds ...", "A Dark and Bloody Ground, rule 19", cmd_adbg},
	{"adbg", "simulate SCENARIO --trials N", "many battles, fast (--shard I/N)", NULL},
	{"adbg", "sweep SCENARIO --vary K=A,B", "balance: a grid of changed values", NULL},
	{"merge", "SHARD...", "add simulation shards into one result", cmd_merge},
	{"bbb", "PROCEDURE ...", NULL, cmd_bbb},
	{"chits", "PROCEDURE ...", NULL, cmd_chits},
	{"presidio", "PROCEDURE ...", NULL, cmd_presidio},
	{"dice", "roll DICE [--odds]", "a dice expression as a procedure", cmd_dice},
	{"procedures", "[--json]", "every procedure, with its rules", cmd_procedures},
	{"request", "[FILE|-]", "run one JSON request (fray_request)", cmd_request},
	{"serve", "[--port N] [--lan]", "the page at the table, for a phone", cmd_serve},
	{"report", "--html FILE [REQUEST|GAME]", "an answer or a game as a page", cmd_report},
	{"table", "GAME ACTION UNIT ...", "play a game from a game file", cmd_table},
	{"scenario", "new RULES [FILE]", "a commented template to start from", cmd_scenario},
	{"help", "[TOPIC]", "this help; topics below", cmd_help},
};
const size_t cli_ncommands = sizeof cli_commands / sizeof cli_commands[0];

const cli_command *cli_command_find(const char *name)
{
	for (size_t i = 0; i < cli_ncommands; i++)
		if (cli_commands[i].run && strcmp(name, cli_commands[i].name) == 0)
			return &cli_commands[i];
	return NULL;
}

/* the usage lines: the command and its arguments, the summary from
 * column 42 (two spaces on when they pass it, on a line of its own when
 * that passes 79 columns) */
void cli_commands_usage(FILE *out)
{
	for (size_t i = 0; i < cli_ncommands; i++) {
		const cli_command *c = &cli_commands[i];
		const char *summary = c->summary, *title, *id;
		for (size_t k = 0; !summary && (id = fray_rule_set(k, &title)); k++)
			if (strcmp(id, c->name) == 0)
				summary = title;
		summary = summary ? summary : "";
		int n = fprintf(out, "  fray %s %s", c->name, c->args);
		if (n < 0)
			return;
		if (n <= 40)
			fprintf(out, "%*s%s\n", 41 - n, "", summary);
		else if ((size_t)n + 2 + strlen(summary) <= 79)
			fprintf(out, "  %s\n", summary);
		else
			fprintf(out, "\n%41s%s\n", "", summary);
	}
	fputs("  fray --version\n", out);
}

/* the names, once each, one a line: for completion and tests */
void cli_commands_names(FILE *out)
{
	for (size_t i = 0; i < cli_ncommands; i++)
		if (cli_commands[i].run)
			fprintf(out, "%s\n", cli_commands[i].name);
}
