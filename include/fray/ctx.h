/* The fray context: the allocator every object uses and the message of the
 * first failure. One context per thread of use; objects remember theirs. */
#ifndef FRAY_CTX_H
#define FRAY_CTX_H

#include <stdbool.h>
#include <stddef.h>
#include <fray/status.h>

/* Allocator hook, realloc-like: size 0 frees ptr and returns NULL; otherwise
 * returns a block of at least size bytes holding the old contents, or NULL
 * on failure (ptr stays valid). A block is aligned as realloc's are (for
 * max_align_t): fray keeps structs of 8- and 16-byte alignment in them.
 * Lets tests fail any allocation on demand. */
typedef void *(*fray_alloc_fn)(void *ud, void *ptr, size_t size);

typedef struct fray_ctx fray_ctx;

/* Creates a context. alloc NULL means the C library's realloc/free.
 * Returns NULL only when the allocation of the context itself fails.
 * Note: exact probabilities use GMP, whose limbs do not go through this
 * allocator: on the first exact enumeration libfray installs counting
 * allocation functions for GMP (mp_set_memory_functions, process-wide),
 * so that exact odds stop at their memory budget and survive a failed
 * malloc instead of aborting. A program that uses GMP itself shares them;
 * if it sets its own afterwards, fray's budget counts only fray's tally. */
fray_ctx *fray_ctx_new(fray_alloc_fn alloc, void *ud);
void fray_ctx_free(fray_ctx *ctx);

/* The one-line message of the first failure since the last clear, or ""
 * when none. Valid until the next failure after a clear, or the free. */
const char *fray_ctx_message(const fray_ctx *ctx);
/* The status of that first failure, FRAY_OK when none. */
fray_status fray_ctx_status(const fray_ctx *ctx);
/* The name of the input that first failure is about, NULL when it is
 * about none (or about several alike): a catalogue input's JSON name
 * ("cf") for a value out of range, of the wrong type, missing, or given
 * with one it excludes (the first of the pair); a game request's member
 * ("op", "game"). A front end shows the message at that input's field,
 * or adds its own hint; the message names it in words too. At most
 * FRAY_CTX_INPUT_MAX - 1 bytes. Valid as fray_ctx_message's is; cleared
 * with it. */
#define FRAY_CTX_INPUT_MAX 64
const char *fray_ctx_input(const fray_ctx *ctx);
/* Forgets the failure: its status, message and input. */
void fray_ctx_clear(fray_ctx *ctx);

/* True when path names a file (the same file, by device and inode,
 * whatever the path) that a reader of this context has read: a front end
 * asks before writing, so that an output never overwrites an input of the
 * same run. The first FRAY_CTX_MAX_READ files are remembered. */
#define FRAY_CTX_MAX_READ 32
bool fray_ctx_has_read(const fray_ctx *ctx, const char *path);

#endif
