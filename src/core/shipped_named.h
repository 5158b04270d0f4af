/* The tables fray ships, found by the name a scenario or forces file gives
 * them wherever that file is (issue 45 item 5). */
#ifndef FRAY_CORE_SHIPPED_NAMED_H
#define FRAY_CORE_SHIPPED_NAMED_H

#include <fray/data.h>

/* Opens the file at path (through open, or from disk when open is NULL).
 * When no file is there and the path's last part is the name of a table
 * fray ships ("example-melee-crt" or "example-melee-crt.yaml", "sample-mix"
 * or "sample-mix.yaml", in any folder: an example copied away from
 * "../../data/adbg/..." still names it), the copy compiled into the library
 * is read instead. A file that is there always wins, even a broken one (its
 * problems are told). Statuses and messages as fray_doc_load_file; when
 * neither place has it, the message says both were tried. A failure on
 * ctx before the call keeps its message (the first failure wins). */
fray_status frayi_open_named(fray_ctx *ctx, fray_doc_open_fn open, void *ud, const char *path, fray_doc **out);

#endif
