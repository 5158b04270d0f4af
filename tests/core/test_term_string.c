/* fray_term_string, the one terminal escaper (issue 30 item 3): every C0
 * control and DEL as \xNN, every C1 control and bidirectional control as
 * \uNNNN (the list in include/fray/events.h, from Unicode's Bidi_Control
 * property and the C1 block), every other byte as it is; snprintf's return
 * convention. Checked row by row, then against a reference written here
 * from that list on random strings. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "../test_util.h"
#include <fray/fray.h>

static const struct {
	const char *in, *want;
} rows[] = {
	{"", ""},
	{"Blue Licks", "Blue Licks"},
	{"a\nb\tc\rd", "a\\x0ab\\x09c\\x0dd"},     /* a name cannot forge a line */
	{"\x1b[2J\x07", "\\x1b[2J\\x07"},           /* ESC and BEL: no screen cleared */
	{"x\x7fy", "x\\x7fy"},                      /* DEL */
	{"\x01\x1f", "\\x01\\x1f"},
	{"\xC2\x80\xC2\x85\xC2\x9B\xC2\x9F", "\\u0080\\u0085\\u009b\\u009f"}, /* C1, U+0080..U+009F */
	{"\xC2\xA0", "\xC2\xA0"},                   /* U+00A0, past C1: passes */
	{"\xD8\x9C", "\\u061c"},                    /* ARABIC LETTER MARK */
	{"\xE2\x80\x8E\xE2\x80\x8F", "\\u200e\\u200f"},         /* LRM, RLM */
	{"\xE2\x80\xAA\xE2\x80\xAE", "\\u202a\\u202e"},         /* LRE .. RLO */
	{"\xE2\x81\xA6\xE2\x81\xA9", "\\u2066\\u2069"},         /* LRI .. PDI */
	{"\xE2\x80\x8D\xE2\x80\xAF\xE2\x81\xA5\xE2\x81\xAA", /* ZWJ, U+202F, U+2065, U+206A: not bidi controls */
	 "\xE2\x80\x8D\xE2\x80\xAF\xE2\x81\xA5\xE2\x81\xAA"},
	{"Red \xE2\x80\xAEsroirraw", "Red \\u202esroirraw"},
	{"\xE2\x80", "\xE2\x80"},                   /* cut short at the end: no control */
	{"\xE2\xE2\x80\xAE", "\xE2\\u202e"},        /* a stray lead, then RLO */
	{"\xC2\x1b", "\xC2\\x1b"},                  /* a lead, then ESC */
	{"\xE9t\xC3\xA9", "\xE9t\xC3\xA9"},         /* invalid UTF-8 passes as it is (not JSON) */
};

static void rows_escaped(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		char got[128];
		size_t n = fray_term_string(rows[i].in, got, sizeof got);
		assert_string_equal(got, rows[i].want);
		assert_int_equal(n, strlen(rows[i].want));
	}
	char got[8];
	assert_int_equal(fray_term_string(NULL, got, sizeof got), 0);
	assert_string_equal(got, "");
}

/* snprintf's convention: the whole length returned, the first cap - 1
 * bytes written (an escape cut in its middle, if need be), a NUL after. */
static void cut_like_snprintf(void **state)
{
	(void)state;
	const char *in = "ab\x1b\xE2\x80\xAEz";
	const char *whole = "ab\\x1b\\u202ez";
	size_t len = strlen(whole);
	assert_int_equal(fray_term_string(in, NULL, 0), len);
	for (size_t cap = 1; cap <= len + 2; cap++) {
		char got[32];
		memset(got, 'Q', sizeof got);
		assert_int_equal(fray_term_string(in, got, cap), len);
		size_t kept = cap - 1 < len ? cap - 1 : len;
		assert_memory_equal(got, whole, kept);
		assert_int_equal(got[kept], '\0');
		assert_int_equal(got[cap], 'Q'); /* nothing written at cap or past it */
	}
}

/* The reference: one code point's bytes at a time, from the lists above. */
static bool ref_hidden(unsigned cp)
{
	static const unsigned bidi[] = {0x061C, 0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E,
					0x2066, 0x2067, 0x2068, 0x2069};
	if (cp >= 0x80 && cp <= 0x9F)
		return true;
	for (size_t i = 0; i < sizeof bidi / sizeof bidi[0]; i++)
		if (cp == bidi[i])
			return true;
	return false;
}

static size_t ref_escape(const unsigned char *u, size_t n, char *out)
{
	size_t len = 0;
	for (size_t i = 0; i < n;) {
		/* a well-formed 2- or 3-byte sequence that is a hidden code point */
		if (i + 1 < n && (u[i] & 0xE0) == 0xC0 && (u[i + 1] & 0xC0) == 0x80) {
			unsigned cp = (unsigned)(u[i] & 0x1F) << 6 | (u[i + 1] & 0x3F);
			if (ref_hidden(cp)) {
				len += (size_t)sprintf(out + len, "\\u%04x", cp);
				i += 2;
				continue;
			}
		}
		if (i + 2 < n && (u[i] & 0xF0) == 0xE0 && (u[i + 1] & 0xC0) == 0x80 && (u[i + 2] & 0xC0) == 0x80) {
			unsigned cp = (unsigned)(u[i] & 0x0F) << 12 | (unsigned)(u[i + 1] & 0x3F) << 6 | (u[i + 2] & 0x3F);
			if (ref_hidden(cp)) {
				len += (size_t)sprintf(out + len, "\\u%04x", cp);
				i += 3;
				continue;
			}
		}
		if (u[i] < 0x20 || u[i] == 0x7F)
			len += (size_t)sprintf(out + len, "\\x%02x", u[i]);
		else
			out[len++] = (char)u[i];
		i++;
	}
	out[len] = '\0';
	return len;
}

static void random_strings_as_the_reference(void **state)
{
	(void)state;
	/* bytes that start, continue or are the escaped code points, and some that are not */
	static const unsigned char alphabet[] = {'a', ' ', 0x01, '\n', 0x1b, 0x7f, 0x80, 0x81, 0x85, 0x9b, 0x9f,
						 0xa0, 0xa9, 0xaa, 0xae, 0xaf, 0x8e, 0x8f, 0x9c, 0xa6, 0xa5,
						 0xc2, 0xc3, 0xd8, 0xe2, 0xe9};
	uint64_t x = 88172645463325252u; /* xorshift64: the strings, not fray's RNG */
	for (int t = 0; t < 20000; t++) {
		unsigned char in[16];
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		size_t n = 1 + x % (sizeof in - 1);
		for (size_t i = 0; i < n; i++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			in[i] = alphabet[x % sizeof alphabet];
		}
		in[n] = 0;
		char want[128], got[128];
		size_t len = ref_escape(in, n, want);
		assert_int_equal(fray_term_string((const char *)in, got, sizeof got), len);
		assert_string_equal(got, want);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rows_escaped),
		cmocka_unit_test(cut_like_snprintf),
		cmocka_unit_test(random_strings_as_the_reference),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
