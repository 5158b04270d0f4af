/* UTF-8 validation, shared by the data reader (which refuses invalid text
 * before libfyaml sees it) and the JSON writer (which replaces it); and
 * names shortened at a character boundary. */
#include <string.h>
#include "internal.h"

size_t frayi_utf8_len(const unsigned char *s, size_t avail)
{
	if (avail == 0)
		return 0;
	if (s[0] < 0x80)
		return 1;
	size_t n = (s[0] & 0xE0) == 0xC0 ? 2 : (s[0] & 0xF0) == 0xE0 ? 3
		 : (s[0] & 0xF8) == 0xF0 ? 4 : 0;
	if (n == 0 || n > avail || (n == 2 && s[0] < 0xC2) || (n == 4 && s[0] > 0xF4))
		return 0;
	for (size_t i = 1; i < n; i++)
		if ((s[i] & 0xC0) != 0x80)
			return 0;
	if (n == 3 && ((s[0] == 0xE0 && s[1] < 0xA0) || (s[0] == 0xED && s[1] >= 0xA0)))
		return 0; /* overlong, or a UTF-16 surrogate */
	if (n == 4 && ((s[0] == 0xF0 && s[1] < 0x90) || (s[0] == 0xF4 && s[1] >= 0x90)))
		return 0; /* overlong, or beyond U+10FFFF */
	return n;
}

void frayi_copy_name(char *dst, size_t cap, const char *src)
{
	if (cap == 0)
		return;
	size_t n = strlen(src);
	if (n >= cap) {
		n = cap - 1;
		while (n > 0 && ((unsigned char)src[n] & 0xC0) == 0x80)
			n--;
	}
	memcpy(dst, src, n);
	dst[n] = '\0';
}
