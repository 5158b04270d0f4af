/* The output formats, one enum for every renderer (issue 42 item 3): a
 * procedure's roll, odds and simulation, a battle's report, a game's
 * status, a sweep's table and the report page each take a fray_format
 * and render the ones they offer; the names are those of the command
 * line's options (--json, --markdown, --csv, --html) and of a request's
 * "format". */
#ifndef FRAY_FORMAT_H
#define FRAY_FORMAT_H

#include <stdbool.h>
#include <fray/status.h>

/* TEXT is 0 and JSON 1 on purpose: a caller written when these arguments
 * were booleans (true: JSON) passes false or true and still gets text or
 * JSON. */
typedef enum fray_format {
	FRAY_FORMAT_TEXT = 0,     /* for people */
	FRAY_FORMAT_JSON = 1,     /* the common shapes (docs/library.md) */
	FRAY_FORMAT_MARKDOWN = 2, /* a game's status as a table */
	FRAY_FORMAT_CSV = 3,      /* a simulation's or a sweep's rows */
	FRAY_FORMAT_HTML = 4      /* the report page */
} fray_format;
#define FRAY_FORMAT_COUNT 5

/* Its name ("text", "json", "markdown", "csv", "html"); NULL for a value
 * outside the enum. */
const char *fray_format_name(fray_format f);
/* The format named name (exactly, lower case) into *out: FRAY_OK, or
 * FRAY_ERR_INPUT for a name that is none of them (*out untouched). */
fray_status fray_format_parse(const char *name, fray_format *out);

#endif
