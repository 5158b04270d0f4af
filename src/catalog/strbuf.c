#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fray/events.h>
#include "strbuf.h"
#include "../core/internal.h"

static bool reserve(strbuf *sb, size_t more)
{
	if (sb->failed)
		return false;
	if (more > STRBUF_MAX - sb->len - 1) {
		sb->failed = sb->too_long = true;
		return false;
	}
	size_t need = sb->len + more + 1;
	if (need <= sb->cap)
		return true;
	size_t cap = sb->cap ? sb->cap : 256;
	while (cap < need)
		cap = cap > STRBUF_MAX / 2 ? STRBUF_MAX : cap * 2;
	char *p = sb->ctx ? frayi_realloc(sb->ctx, sb->buf, cap) : realloc(sb->buf, cap);
	if (!p) {
		sb->failed = true;
		return false;
	}
	sb->buf = p;
	sb->cap = cap;
	return true;
}

void frayi_sb_put(strbuf *sb, const char *s, size_t n)
{
	if (!reserve(sb, n))
		return;
	memcpy(sb->buf + sb->len, s, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
}

void frayi_sb_add(strbuf *sb, const char *fmt, ...)
{
	char small[512];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(small, sizeof small, fmt, ap);
	va_end(ap);
	if (n < 0) {
		sb->failed = true;
		return;
	}
	if ((size_t)n < sizeof small) {
		frayi_sb_put(sb, small, (size_t)n);
		return;
	}
	if (!reserve(sb, (size_t)n))
		return;
	va_start(ap, fmt);
	vsnprintf(sb->buf + sb->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	sb->len += (size_t)n;
}

void frayi_sb_json(strbuf *sb, const char *s)
{
	size_t n = fray_json_string(s ? s : "", NULL, 0);
	if (!reserve(sb, n))
		return;
	fray_json_string(s ? s : "", sb->buf + sb->len, n + 1);
	sb->len += n;
}

/* Text for a terminal: control characters (and C1 and bidi controls) shown as
 * escapes, so a name from a file can neither forge a line nor drive the
 * terminal (fray_term_string, the command line's escaper too). */
void frayi_sb_escaped(strbuf *sb, const char *s)
{
	size_t n = fray_term_string(s, NULL, 0);
	if (!reserve(sb, n))
		return;
	fray_term_string(s, sb->buf + sb->len, n + 1);
	sb->len += n;
}

char *frayi_sb_take(strbuf *sb)
{
	if (sb->failed || !reserve(sb, 0)) {
		frayi_sb_free(sb);
		return NULL;
	}
	char *s = sb->buf;
	if (sb->ctx && !frayi_ctx_mallocs(sb->ctx)) {
		/* the caller frees with free(): a copy from malloc */
		s = malloc(sb->len + 1);
		if (s)
			memcpy(s, sb->buf, sb->len + 1);
		frayi_sb_free(sb);
		return s;
	}
	*sb = (strbuf){.ctx = sb->ctx};
	return s;
}

void frayi_sb_free(strbuf *sb)
{
	if (sb->ctx)
		frayi_dealloc(sb->ctx, sb->buf);
	else
		free(sb->buf);
	*sb = (strbuf){.ctx = sb->ctx};
}

void *frayi_sb_mem(const strbuf *sb, size_t size)
{
	return sb->ctx ? frayi_alloc(sb->ctx, size) : malloc(size);
}

void frayi_sb_unmem(const strbuf *sb, void *p)
{
	if (sb->ctx)
		frayi_dealloc(sb->ctx, p);
	else
		free(p);
}

fray_status frayi_sb_give(strbuf *sb, fray_ctx *ctx, char **out)
{
	bool too_long = sb->too_long;
	*out = frayi_sb_take(sb);
	if (*out)
		return FRAY_OK;
	if (!too_long)
		return ctx ? frayi_nomem(ctx) : FRAY_ERR_NOMEM;
	if (!ctx)
		return FRAY_ERR_LIMIT;
	return frayi_fail(ctx, FRAY_ERR_LIMIT, "the answer would pass %zu MiB, the most one answer may be "
			 "(ask for less: fewer figures or trials)", STRBUF_MAX >> 20);
}
