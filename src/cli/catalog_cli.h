/* Running a procedure of libfray's catalogue from the command line. */
#ifndef FRAY_CLI_CATALOG_H
#define FRAY_CLI_CATALOG_H

#include "cli.h"

/* `fray COMMAND ARGS...` for the catalogue's command ("adbg fire"). */
int cli_run_catalog(const char *command, int argc, char **argv);

#endif
