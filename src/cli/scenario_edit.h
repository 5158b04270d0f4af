/* The command line's side of an ADBG scenario with values changed
 * (--set PATH=VALUE, sweep's --vary) and units added or removed by name:
 * the edits themselves are libfray's (include/fray/scenario_edit.h); here
 * the --set options are gathered, the files a scenario names are found
 * (its melee CRT beside the file or, when a copied file's relative path
 * leads nowhere, in the shipped data) and the problems printed. */
#ifndef FRAY_CLI_SCENARIO_EDIT_H
#define FRAY_CLI_SCENARIO_EDIT_H

#include <stdbool.h>
#include <stdio.h>
#include <fray/scenario_edit.h>
#include "cli.h"

/* The CRT (and any other file a scenario names) opener: the path as the
 * scenario gives it, relative to the scenario's folder; when no file is
 * there, the same file in the shipped data (beside the fray binary's
 * folder, ../data or ../share/fray/data, or the installed data folder),
 * its place there taken from the path's parts after "data/" (else
 * adbg/ and the last part) only when each is a plain name: never a "..",
 * so a path cannot reach out of a data folder. */
fray_status scen_open(void *ud, fray_ctx *ctx, const char *path, fray_doc **out);

/* A scenario's problems printed as libfray tells them (a
 * fray_adbg_edit_read's problem), and the exit status of a read that
 * failed: 2 when they were told, else the context's message. */
typedef struct scen_told {
	const char *cmd;
	bool any;
} scen_told;
void scen_tell(void *ud, const char *message);
int scen_failed(const char *cmd, fray_ctx *ctx, const scen_told *t);

/* The scenario of doc with the edits made (option names the option in
 * messages: "--set", "--vary"); the scalar edits stay on doc. Prints every
 * problem, naming the edits; returns the exit status. */
int scen_read_edited(const char *cmd, fray_ctx *ctx, fray_doc *doc, const char *option, const fray_adbg_edit *ed,
		     int ned, fray_adbg_scenario **out);

/* Loads the file at path and reads it with the edits (see above). */
int scen_load_edited(const char *cmd, fray_ctx *ctx, const char *path, const fray_adbg_edit *ed, int ned,
		     fray_adbg_scenario **out);

/* The --set options of a command, repeatable. */
#define SCEN_MAX_SETS 16
typedef struct scen_sets {
	fray_adbg_edit ed[SCEN_MAX_SETS];
	char *text[SCEN_MAX_SETS];
	int n;
} scen_sets;
/* True when argv[a->i] is --set: taken, or its error on a->status. */
bool scen_take_set(cli_args *a, scen_sets *s);
void scen_sets_free(scen_sets *s);

#endif
