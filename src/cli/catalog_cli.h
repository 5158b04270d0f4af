/* Running a procedure of libfray's catalogue from the command line. */
#ifndef FRAY_CLI_CATALOG_H
#define FRAY_CLI_CATALOG_H

#include "cli.h"

/* `fray COMMAND ARGS...` for the catalogue's command ("adbg fire"). */
int cli_run_catalog(const char *command, int argc, char **argv);
/* `fray GROUP NAME ARGS...`: NAME one of subs (the group's commands that
 * are no procedure: files, progress, tables), else the catalogue's
 * procedure "GROUP NAME" (help when no NAME or --help); an unknown NAME
 * is reported with the list of names. */
int cli_run_set(const char *group, const cli_sub *subs, size_t n, int argc, char **argv);

/* fray dice roll DICE ...: the catalogue's dice.roll. */
int cmd_dice(int argc, char **argv);

#endif
