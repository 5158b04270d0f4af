/* An adbg scenario file with values changed from the command line
 * (--set PATH=VALUE, sweep's --vary) and units added or removed by name
 * (the `units` knob), read into a scenario; its melee CRT found beside the
 * file or, when a copied file's relative path leads nowhere, in the shipped
 * data. Only the file's values change here: the rules stay in the
 * scenario reader and the battle (src/rules/adbg/). */
#ifndef FRAY_CLI_SCENARIO_EDIT_H
#define FRAY_CLI_SCENARIO_EDIT_H

#include <stdbool.h>
#include <stdio.h>
#include "cli.h"

/* The one structural knob: `units`, whose values are `none`,
 * `remove:NAME` (a unit or a leader, by name), `add:NAME` (a copy of the
 * unit in its own stack) and `add:NAME@new` (a copy as a new stack). */
#define SCEN_UNITS_PATH "units"

typedef struct scen_edit {
	const char *path;   /* sides.kentucky.level, or "units" */
	const char *value;
} scen_edit;

/* Splits "PATH=VALUE" (in place: arg is the caller's copy); false when
 * malformed. */
bool scen_edit_parse(char *arg, scen_edit *e);

/* The node at a dotted path (map keys by name, list items from 1), which
 * must be a single value; NULL with why. */
const fray_node *scen_find_path(const fray_node *root, const char *path, char *why, size_t cap);

/* The CRT (and any other file a scenario names) opener: the path as the
 * scenario gives it, relative to the scenario's folder; when no file is
 * there, the same file in the shipped data (beside the fray binary's
 * folder, ../data or ../share/fray/data, or the installed data folder). */
fray_status scen_open(void *ud, fray_ctx *ctx, const char *path, fray_doc **out);

/* The scenario of doc with the edits made (option names the option in
 * messages: "--set", "--vary"); the scalar edits stay on doc. Prints every
 * problem, naming the edits; returns the exit status. */
int scen_read_edited(const char *cmd, fray_ctx *ctx, fray_doc *doc, const char *option, const scen_edit *ed,
		     int ned, fray_adbg_scenario **out);

/* Loads the file at path and reads it with the edits (see above). */
int scen_load_edited(const char *cmd, fray_ctx *ctx, const char *path, const scen_edit *ed, int ned,
		     fray_adbg_scenario **out);

/* The scenario of doc with the edits made, as YAML text into out (a new
 * block-style file; comments are not kept), for --write. crt_dir: when
 * not NULL, the melee CRT path is rewritten to be found from the new
 * file (absolute). Returns the exit status. */
int scen_write_text(const char *cmd, fray_ctx *ctx, fray_doc *doc, const scen_edit *ed, int ned,
		    const char *header, bool absolute_crt, FILE *out);

/* The --set options of a command, repeatable. */
#define SCEN_MAX_SETS 16
typedef struct scen_sets {
	scen_edit ed[SCEN_MAX_SETS];
	char *text[SCEN_MAX_SETS];
	int n;
} scen_sets;
/* True when argv[a->i] is --set: taken, or its error on a->status. */
bool scen_take_set(cli_args *a, scen_sets *s);
void scen_sets_free(scen_sets *s);

/* The digest of the edits (folded into a shard's scenario digest). */
uint64_t scen_edits_digest(uint64_t digest, const scen_edit *ed, int ned);

#endif
