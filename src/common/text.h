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

/* The edit distance of a and b (insertions, deletions, substitutions);
 * SIZE_MAX past 63 bytes. */
static inline size_t text_edits(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), row[64];
	if (la > 63 || lb > 63)
		return (size_t)-1;
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t diag = row[0];
		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t up = row[j], best = diag + (a[i - 1] != b[j - 1]);
			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	return row[lb];
}

/* The known name nearest to name (two edits at most: a typo, not another
 * word), or NULL; known: n names, stride bytes apart. */
static inline const char *text_nearest(const char *name, const char *const *known, size_t n, size_t stride)
{
	const char *best = NULL;
	size_t best_d = 3;
	for (size_t k = 0; k < n; k++) {
		const char *cand = *(const char *const *)(const void *)((const char *)known + k * stride);
		size_t d = text_edits(name, cand);
		if (d < best_d) {
			best_d = d;
			best = cand;
		}
	}
	return best;
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
