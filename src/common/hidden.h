/* Code points a terminal acts on though they print nothing, beyond the C0
 * controls: the C1 controls (U+0080..U+009F: CSI, OSC and the like) and
 * the bidirectional controls (U+061C, U+200E, U+200F, U+202A..U+202E,
 * U+2066..U+2069), which reorder the rest of a line, so a name could
 * show one thing and say another. Shared by the library and the fray
 * command (a header of static functions: nothing to link). */
#ifndef FRAY_COMMON_HIDDEN_H
#define FRAY_COMMON_HIDDEN_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <fray/events.h>
#include "text.h"

static inline bool text_hidden_cp(unsigned c)
{
	return (c >= 0x80 && c <= 0x9F) || c == 0x061C || c == 0x200E || c == 0x200F ||
	       (c >= 0x202A && c <= 0x202E) || (c >= 0x2066 && c <= 0x2069);
}

/* What the n bytes at u start (n may be short, as at the end of one write
 * of a stream): the length (2 or 3) of such a code point, with *cp set;
 * 0 when they start none; -1 when they are the first bytes of one and the
 * rest may follow. Only leads C2 (C1), D8 (U+061C) and E2 (U+20xx) can
 * start one. */
static inline int text_hidden_at(const unsigned char *u, size_t n, unsigned *cp)
{
	if (n == 0)
		return 0;
	size_t need = u[0] == 0xC2 || u[0] == 0xD8 ? 2 : u[0] == 0xE2 ? 3 : 0;
	if (need == 0)
		return 0;
	if (n >= 2 && (u[1] & 0xC0) != 0x80)
		return 0;
	if (need == 3 && n >= 2 && u[1] != 0x80 && u[1] != 0x81)
		return 0; /* U+2000..U+207F hold all the bidi controls above U+061C */
	if (n < need)
		return -1;
	if (need == 3 && (u[2] & 0xC0) != 0x80)
		return 0;
	unsigned c = need == 2 ? (unsigned)(u[0] & 0x1F) << 6 | (u[1] & 0x3F)
			       : (unsigned)(u[0] & 0x0F) << 12 | (unsigned)(u[1] & 0x3F) << 6 | (u[2] & 0x3F);
	if (!text_hidden_cp(c))
		return 0;
	*cp = c;
	return (int)need;
}

/* s for a terminal into dst (cap bytes), through the library's one
 * escaper (fray_term_string: C0, C1 and bidi controls as escapes); a text
 * that does not fit is cut as text.h cuts, "..." over the last whole
 * characters that fit. */
static inline void text_escape_controls(char *dst, size_t cap, const char *s)
{
	if (cap == 0 || fray_term_string(s, dst, cap) < cap)
		return;
	size_t end = cap >= 4 ? cap - 4 : 0;
	while (end > 0 && ((unsigned char)dst[end] & 0xC0) == 0x80)
		end--;
	if (cap >= 4)
		memcpy(dst + end, "...", 4);
}

#endif
