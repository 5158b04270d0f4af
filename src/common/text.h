/* A bounded text writer, shared by the library and the fray command (a
 * header of static functions: nothing to link). Appends never write past
 * the buffer and never compute a size that wraps; text that does not fit
 * is cut at a UTF-8 character boundary and ends in "...", so a cut is
 * visible. Used for every line built from pieces (names from input files
 * among them): never snprintf(buf + len, cap - len, ...) by hand. */
#ifndef FRAY_COMMON_TEXT_H
#define FRAY_COMMON_TEXT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

typedef struct textbuf {
	char *buf;
	size_t cap;   /* at least 4: room for "..." and the NUL */
	size_t len;   /* strlen(buf), always < cap */
	bool cut;     /* something did not fit; later appends are dropped */
} textbuf;

static inline textbuf text_on(char *buf, size_t cap)
{
	buf[0] = '\0';
	return (textbuf){.buf = buf, .cap = cap};
}

static inline void text_vadd(textbuf *t, const char *fmt, va_list ap)
{
	if (t->cut)
		return;
	size_t room = t->cap - t->len;
	int n = vsnprintf(t->buf + t->len, room, fmt, ap);
	if (n >= 0 && (size_t)n < room) {
		t->len += (size_t)n;
		return;
	}
	/* cut: "..." over the last whole characters that fit */
	t->cut = true;
	size_t end = t->cap - 4;
	if (n < 0 && t->len < end) /* a format error: keep what was there */
		end = t->len;
	while (end > 0 && ((unsigned char)t->buf[end] & 0xC0) == 0x80)
		end--;
	memcpy(t->buf + end, "...", 4);
	t->len = end + 3;
}

static inline void text_add(textbuf *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static inline void text_add(textbuf *t, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	text_vadd(t, fmt, ap);
	va_end(ap);
}

/* Whether s is a number as JSON's grammar spells one: an optional minus,
 * 0 or digits not starting with 0, an optional fraction with digits, an
 * optional exponent with digits (so not `01`, `.5`, `1.`, `+5`). */
static inline bool text_is_json_number(const char *s)
{
	const char *p = s + (*s == '-');
	if (*p == '0')
		p++;
	else if (*p >= '1' && *p <= '9')
		p += strspn(p, "0123456789");
	else
		return false;
	if (*p == '.') {
		size_t n = strspn(++p, "0123456789");
		if (!n)
			return false;
		p += n;
	}
	if (*p == 'e' || *p == 'E') {
		p += 1 + (p[1] == '+' || p[1] == '-');
		size_t n = strspn(p, "0123456789");
		if (!n)
			return false;
		p += n;
	}
	return !*p;
}

#endif
