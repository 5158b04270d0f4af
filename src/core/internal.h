/* Private to libfray: allocation through the context, failure recording,
 * and the symbol visibility rule (only fray_* is exported). */
#ifndef FRAY_INTERNAL_H
#define FRAY_INTERNAL_H

#include <stdarg.h>
#include <stddef.h>
#include <fray/fray.h>

#if defined(__GNUC__)
#define FRAY_API __attribute__((visibility("default")))
#define FRAY_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define FRAY_API
#define FRAY_PRINTF(a, b)
#endif

/* the game lists units in a message (64 names of up to 47 bytes); the
 * context stays under 4 KiB (tests/cli/test_cli_readers.c) */
#define FRAY_MSG_MAX 3072

struct fray_ctx {
	fray_alloc_fn alloc;
	void *ud;
	fray_status status;
	char msg[FRAY_MSG_MAX];
	/* the input that failure is about (fray_ctx_input), "" when none */
	char input[FRAY_CTX_INPUT_MAX];
	/* the files read through this context (device, inode), so that a
	 * front end never writes over one of them (fray_ctx_has_read) */
	struct { uint64_t dev, ino; } read[FRAY_CTX_MAX_READ];
	unsigned nread;
};

/* Remembers the file open on fd as read (fray_ctx_has_read). */
void frayi_ctx_note_read(fray_ctx *ctx, int fd);
void *frayi_alloc(fray_ctx *ctx, size_t size);
void *frayi_calloc(fray_ctx *ctx, size_t n, size_t size);
void *frayi_realloc(fray_ctx *ctx, void *ptr, size_t size);
void frayi_dealloc(fray_ctx *ctx, void *ptr);
char *frayi_strdup(fray_ctx *ctx, const char *s);
/* Whether the context allocates with the C library's malloc (it was made
 * without an allocator): what it gives may then go to a caller who frees
 * with free(). */
bool frayi_ctx_mallocs(const fray_ctx *ctx);

/* Records s and the message unless a failure is already recorded (the first
 * failure wins); returns s so callers can `return frayi_fail(...)`. */
fray_status frayi_fail(fray_ctx *ctx, fray_status s, const char *fmt, ...)
	FRAY_PRINTF(3, 4);
fray_status frayi_nomem(fray_ctx *ctx);
/* frayi_fail that also names the input the failure is about (a catalogue
 * input's JSON name, a game request's member), for fray_ctx_input. */
fray_status frayi_fail_input(fray_ctx *ctx, fray_status s, const char *input, const char *fmt, ...)
	FRAY_PRINTF(4, 5);
/* Marks doc's reading as out of memory: fray_doc_status then returns
 * FRAY_ERR_NOMEM (a reader's allocation failed, not the file). */
void frayi_doc_nomem(fray_doc *doc);
/* fray_doc_load_string for text fray rendered itself (an answer's JSON read
 * back, as advice reads its odds): the 4 MiB budget holds, the limit on
 * values held on one line (for hostile files) does not: an odds answer
 * lists its outcomes in one flow sequence over many lines. */
fray_status frayi_doc_load_own(fray_ctx *ctx, const char *name, const char *text, size_t len, fray_doc **out);

/* The length of the valid UTF-8 sequence at s (at most avail bytes), or 0
 * when the bytes there are not valid UTF-8. */
size_t frayi_utf8_len(const unsigned char *s, size_t avail);

/* Copies a name from the user's file into dst of cap bytes; a longer one is
 * shortened, never in the middle of a UTF-8 character. */
void frayi_copy_name(char *dst, size_t cap, const char *src);

/* Growth for dynamic arrays: a new capacity >= need, or 0 on overflow. */
size_t frayi_grow(size_t cap, size_t need, size_t elem);

/* GMP's memory (gmp_mem.c). frayi_gmp_guard installs fray's counting
 * allocator for GMP once and makes sure its emergency reserve is there
 * (false: no memory for it). frayi_gmp_live_bytes: what GMP holds now;
 * frayi_gmp_failed: malloc failed under GMP since the last guard (the work
 * under way must stop with FRAY_ERR_NOMEM). */
bool frayi_gmp_guard(void);
size_t frayi_gmp_live_bytes(void);
bool frayi_gmp_failed(void);

/* FNV-1a, 64 bits: digests of the files read (a save or a shard knows
 * when its scenario changed). Chain by passing one result as start. */
#define FRAY_FNV1A_START 0xcbf29ce484222325u
static inline uint64_t frayi_fnv1a(uint64_t h, const void *data, size_t len)
{
	const unsigned char *p = data;
	for (size_t i = 0; i < len; i++)
		h = (h ^ p[i]) * 0x100000001b3u;
	return h;
}

#endif
