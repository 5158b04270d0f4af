/* Data files: YAML (JSON is accepted, being YAML) read into a small tree
 * that remembers where every node stood, and checked with helpers that
 * collect every problem as "file:line:col: message" before giving up.
 * Aliases are refused, duplicate keys are errors, and size and nesting are
 * limited, so no file can make fray hang or exhaust memory. */
#ifndef FRAY_DATA_H
#define FRAY_DATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <fray/ctx.h>

#define FRAY_DOC_MAX_BYTES (4u << 20)  /* 4 MiB */
#define FRAY_DOC_MAX_DEPTH 64
#define FRAY_DOC_MAX_NODES 200000
#define FRAY_DOC_MAX_ERRORS 50

typedef struct fray_doc fray_doc;
typedef struct fray_node fray_node;

typedef enum fray_node_kind {
	FRAY_NODE_SCALAR = 0,
	FRAY_NODE_SEQ = 1,
	FRAY_NODE_MAP = 2
} fray_node_kind;

/* Loads a whole file or a string (name is used in messages). The file
 * "-" (or /dev/stdin) is standard input, read once and never past
 * FRAY_DOC_MAX_BYTES + 1 bytes; any other file is opened by
 * fray_input_open. A YAML syntax error, a NUL in the text or in a string
 * (JSON's \u0000, YAML's \0), a file too large or too deep, a file that
 * is not there or is not a regular file is FRAY_ERR_INPUT with the
 * position on the context; *out is NULL then. An empty document has a
 * NULL root. */
fray_status fray_doc_load_file(fray_ctx *ctx, const char *path,
			       fray_doc **out);
fray_status fray_doc_load_string(fray_ctx *ctx, const char *name,
				 const char *text, size_t len, fray_doc **out);
/* The one way fray opens an input to read it whole, without ever
 * blocking: "-" (or /dev/stdin) is standard input, *fd 0, which the
 * caller does not close; any other path must name a regular file of at
 * most max bytes (a larger one is refused before a byte is read). A FIFO,
 * a device (/dev/zero), a folder or a socket is refused at once, never
 * opened or waited on. Failures are FRAY_ERR_INPUT ("PATH: a FIFO (named
 * pipe): expected a regular file ..."), or FRAY_ERR_IO when the machine
 * fails (no descriptors left); *fd is -1 then. The caller reads at most
 * max + 1 bytes (a file may grow after the check) and closes *fd. */
fray_status fray_input_open(fray_ctx *ctx, const char *path, size_t max, int *fd);
/* Opens the document at path for a reader that follows a path named in
 * another document (a scenario's CRT, a combat file's mix), so a caller
 * may serve them from elsewhere than the file system. */
typedef fray_status (*fray_doc_open_fn)(void *ud, fray_ctx *ctx, const char *path, fray_doc **out);
void fray_doc_free(fray_doc *doc);
/* FNV-1a (64 bits) of the bytes the doc was read from: a file changed
 * between two runs is noticed without reading it a second time. */
uint64_t fray_doc_digest(const fray_doc *doc);

/* Nodes belong to the doc and are valid until it is freed. Every
 * fray_node_* accessor and fray_map_get take NULL (what an item past the
 * end or an absent key gives): no node is a scalar with no text (NULL),
 * no items, no key or value, at line and column 0. */
const fray_node *fray_doc_root(const fray_doc *doc);
const char *fray_doc_name(const fray_doc *doc);
fray_node_kind fray_node_kind_of(const fray_node *n);
int fray_node_line(const fray_node *n);  /* 1-based */
int fray_node_col(const fray_node *n);   /* 1-based */
/* A scalar's text (NUL-terminated; one holding a NUL is refused on
 * loading, so the text is whole), or NULL. */
const char *fray_node_scalar(const fray_node *n);
/* True for a scalar written without quotes (so `12` but not `"12"`). */
bool fray_node_plain(const fray_node *n);
/* Items of a sequence, pairs of a mapping; 0 for a scalar. */
size_t fray_node_len(const fray_node *n);
const fray_node *fray_node_item(const fray_node *n, size_t i);
const fray_node *fray_node_key(const fray_node *n, size_t i);
const fray_node *fray_node_value(const fray_node *n, size_t i);
/* The value for a scalar key in a mapping, or NULL. */
const fray_node *fray_map_get(const fray_node *map, const char *key);

/* Replaces a scalar's text, as if the file had said `text` unquoted there
 * (for trying a file with a value changed: fray adbg sweep). The node
 * keeps its line and column. */
fray_status fray_doc_set_scalar(fray_doc *doc, const fray_node *n, const char *text);

/* ---- Checking, with errors collected on the doc ---- */

/* Records "file:line:col: <message>" at node n (NULL: the document). */
void fray_doc_error(fray_doc *doc, const fray_node *n, const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 3, 4)))
#endif
	;
/* The problems recorded: how many, and problem i (NULL past the end),
 * held by the doc until it is freed. */
size_t fray_doc_error_count(const fray_doc *doc);
const char *fray_doc_error_msg(const fray_doc *doc, size_t i);

/* Each returns true on success; on failure records an error and leaves
 * *out unchanged. `what` names the field in the message. */
bool fray_doc_expect(fray_doc *doc, const fray_node *n, fray_node_kind kind,
		     const char *what);
bool fray_doc_int(fray_doc *doc, const fray_node *n, int64_t lo, int64_t hi,
		  const char *what, int64_t *out);
bool fray_doc_bool(fray_doc *doc, const fray_node *n, const char *what,
		   bool *out);
bool fray_doc_string(fray_doc *doc, const fray_node *n, const char *what,
		     const char **out);
bool fray_doc_enum(fray_doc *doc, const fray_node *n, const char *what,
		   const char *const *names, size_t nnames, size_t *out);
/* map[key], recording "missing 'key'" at the map when required and absent. */
const fray_node *fray_doc_field(fray_doc *doc, const fray_node *map,
				const char *key, bool required);
/* Records an error for each key of map not in allowed (with the nearest
 * allowed name as a hint). Returns true when all keys are known. */
bool fray_doc_known_keys(fray_doc *doc, const fray_node *map,
			 const char *const *allowed, size_t nallowed);

/* FRAY_OK when no error was recorded; otherwise FRAY_ERR_INPUT with the
 * first message on the context. */
fray_status fray_doc_status(fray_doc *doc);

#endif
