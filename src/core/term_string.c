/* fray_term_string: the one terminal escaper, for the library (the
 * catalogue's narrated rolls and odds) and the fray command (names in its
 * messages and tables) alike. The code points escaped beyond C0 and DEL
 * are src/common/hidden.h's. */
#include <string.h>
#include "internal.h"
#include "../common/hidden.h"

/* One byte into dst at *len, as snprintf would: kept while it fits before
 * the NUL, counted in any case. */
static void put_byte(char *dst, size_t cap, size_t *len, char c)
{
	if (*len + 1 < cap)
		dst[*len] = c;
	(*len)++;
}

/* prefix, then v as that many lower-case hex digits */
static void put_hex(char *dst, size_t cap, size_t *len, const char *prefix, unsigned v, int digits)
{
	static const char hex[] = "0123456789abcdef";
	for (; *prefix; prefix++)
		put_byte(dst, cap, len, *prefix);
	for (int i = digits - 1; i >= 0; i--)
		put_byte(dst, cap, len, hex[(v >> (4 * i)) & 15]);
}

FRAY_API size_t fray_term_string(const char *s, char *dst, size_t cap)
{
	size_t len = 0;
	const unsigned char *u = (const unsigned char *)(s ? s : "");
	while (*u) {
		unsigned cp;
		/* at most 3 bytes looked at, none past the NUL */
		int n = text_hidden_at(u, strnlen((const char *)u, 3), &cp);
		if (n > 0) { /* a C1 or bidi control: shown, not obeyed */
			put_hex(dst, cap, &len, "\\u", cp, 4);
			u += n;
			continue;
		}
		if (*u < 0x20 || *u == 0x7F)
			put_hex(dst, cap, &len, "\\x", *u, 2);
		else
			put_byte(dst, cap, &len, (char)*u);
		u++;
	}
	if (cap)
		dst[len < cap ? len : cap - 1] = '\0';
	return len;
}
