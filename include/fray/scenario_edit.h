/* An ADBG scenario file with values changed (a front end's --set
 * PATH=VALUE, a sweep's --vary) and units added or removed by name (the
 * `units` path), read into a scenario or written out as a new file. Only
 * the file's values change here: the rules stay in the scenario reader and
 * the battle. Bytes in, bytes out: files a scenario names (its melee CRT)
 * are opened through the caller's fray_doc_open_fn. */
#ifndef FRAY_SCENARIO_EDIT_H
#define FRAY_SCENARIO_EDIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <fray/adbg.h>
#include <fray/data.h>

/* The one structural path: `units`, whose values are `none`,
 * `remove:NAME` (a unit or a leader, by name), `add:NAME` (a copy of the
 * unit in its own stack) and `add:NAME@new` (a copy as a new stack). */
#define FRAY_ADBG_EDIT_UNITS "units"

typedef struct fray_adbg_edit {
	const char *path;   /* sides.kentucky.level (map keys by name, list items from 1), or "units" */
	const char *value;
} fray_adbg_edit;

/* Splits "PATH=VALUE" in place (text is the caller's, and e points into
 * it). FRAY_ERR_INPUT when malformed, the message saying what --set
 * expects. */
fray_status fray_adbg_edit_parse(fray_ctx *ctx, char *text, fray_adbg_edit *e);

/* The single value at a dotted path of a document; FRAY_ERR_INPUT with
 * why when the path names nothing or a list or a map. */
fray_status fray_adbg_edit_find(fray_ctx *ctx, const fray_node *root, const char *path, const fray_node **out);

/* Told each problem of a scenario that does not read, one line each (the
 * file's line and column, and the edits it was read with). */
typedef void (*fray_problem_fn)(void *ud, const char *message);

typedef struct fray_adbg_edit_read {
	fray_doc_open_fn open;     /* the CRT and other files (NULL: the file system) */
	void *open_ud;
	const char *option;        /* named in messages: "--set", "--vary" */
	fray_problem_fn problem;   /* every problem of the changed file (NULL: only the first, on ctx) */
	void *problem_ud;
} fray_adbg_edit_read;

/* The scenario of doc with the edits made. The scalar edits stay on doc;
 * a structural one writes the file out again with the change and reads
 * that, so the reader checks the result as strictly as any file. A path
 * that names nothing, an edit the file cannot take: FRAY_ERR_INPUT, the
 * message on ctx (how->problem is not told). A changed file that does not
 * read: FRAY_ERR_INPUT, each problem told to how->problem (prefixed "with
 * PATH=VALUE, ...: " when there are edits), the first on ctx. */
fray_status fray_adbg_scenario_read_edited(fray_ctx *ctx, fray_doc *doc, const fray_adbg_edit *ed, int ned,
					   const fray_adbg_edit_read *how, fray_adbg_scenario **out);

/* The scenario of doc with the edits made, as a new block-style YAML file
 * (comments are not kept) after header: *text (NUL-terminated, *len bytes)
 * is the caller's to free(). crt: when not NULL, written as the melee CRT's
 * path (a new file in another folder finds the CRT by it). */
fray_status fray_adbg_scenario_write_edited(fray_ctx *ctx, fray_doc *doc, const fray_adbg_edit *ed, int ned,
					    const char *header, const char *crt, char **text, size_t *len);

/* The edits' digest, chained from digest (a shard's scenario digest covers
 * them): FNV-1a over each path and value, NULs included. */
uint64_t fray_adbg_edits_digest(uint64_t digest, const fray_adbg_edit *ed, int ned);

#endif
