/* A growing text buffer for a response: appends never fail loudly; a
 * failed allocation or a text past STRBUF_MAX marks the buffer failed, and
 * the caller reports that once at the end. */
#ifndef FRAY_STRBUF_H
#define FRAY_STRBUF_H

#include <stdbool.h>
#include <stddef.h>
#include <fray/ctx.h>
#include "../common/text.h"

#define STRBUF_MAX ((size_t)64 << 20)   /* 64 MiB: no response is larger */

typedef struct strbuf {
	/* whose allocator grows it; NULL: the C library's (a report made
	 * without a context, fray_adbg_summary) */
	fray_ctx *ctx;
	char *buf;    /* NUL-terminated when len > 0 */
	size_t len, cap;
	bool failed;
	bool too_long; /* failed because the text would pass STRBUF_MAX */
} strbuf;

void frayi_sb_add(strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void frayi_sb_put(strbuf *sb, const char *s, size_t n);
/* s as a JSON string literal, whole whatever its length. */
void frayi_sb_json(strbuf *sb, const char *s);
/* s as text for a terminal (fray_term_string): control characters shown
 * as escapes, whole whatever its length. */
void frayi_sb_escaped(strbuf *sb, const char *s);
/* Gives the text to the caller (malloc'd, as the API promises: free() it;
 * copied there when the context has an allocator of its own) or NULL if
 * it failed. The buffer is emptied either way, its context kept. */
char *frayi_sb_take(strbuf *sb);
void frayi_sb_free(strbuf *sb);
/* Scratch memory beside sb, from its allocator (its context's, else the C
 * library's): NULL when there is none, and frayi_sb_unmem gives it back. */
void *frayi_sb_mem(const strbuf *sb, size_t size);
void frayi_sb_unmem(const strbuf *sb, void *p);
/* frayi_sb_take with the reason when there is no text: FRAY_ERR_LIMIT when the
 * text would pass STRBUF_MAX (a budget, not the machine: issue 29),
 * FRAY_ERR_NOMEM when memory ran out. With a context, the message says
 * which (ctx may be NULL). */
fray_status frayi_sb_give(strbuf *sb, fray_ctx *ctx, char **out);

#endif
