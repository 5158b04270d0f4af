/* The browser build's vsnprintf (and so snprintf, sprintf and vsprintf,
 * which musl writes with it): the formats fray builds its answers with,
 * text and %s %c %d %i %u %x without flags, width or precision, written
 * here in one pass; any other format is musl's own vfprintf, through
 * open_memstream. musl's vfprintf reads every format twice (once for
 * positional arguments) and writes each piece through a FILE: 35-45% of
 * the time of an answer of many numbers in the browser (issue 45). The
 * bytes are printf's: tests/site/wasm_node_test.js compares every
 * catalogue answer with the native library's. */
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* musl's own formatting, for a format this file does not write */
static int slow(char *dst, size_t cap, const char *fmt, va_list ap)
{
	char *buf = NULL;
	size_t len = 0;
	if (cap)
		dst[0] = '\0'; /* as musl's: a failure leaves an empty string, never stale bytes */
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		return -1;
	int n = vfprintf(f, fmt, ap);
	fclose(f);
	if (n >= 0 && cap) {
		size_t k = (size_t)n < cap - 1 ? (size_t)n : cap - 1;
		memcpy(dst, buf, k);
		dst[k] = '\0';
	}
	free(buf);
	return n;
}

enum { LEN_NONE, LEN_HH, LEN_H, LEN_L, LEN_LL, LEN_Z, LEN_J, LEN_T };

/* after a '%': the length modifier and the conversion, or false when this
 * file does not write them (flags, width, precision, another conversion) */
static bool simple_spec(const char **p, int *len, char *conv)
{
	const char *s = *p;
	*len = LEN_NONE;
	if (s[0] == 'h')
		*len = s[1] == 'h' ? (s++, LEN_HH) : LEN_H, s++;
	else if (s[0] == 'l')
		*len = s[1] == 'l' ? (s++, LEN_LL) : LEN_L, s++;
	else if (s[0] == 'z')
		*len = LEN_Z, s++;
	else if (s[0] == 'j')
		*len = LEN_J, s++;
	else if (s[0] == 't')
		*len = LEN_T, s++;
	if (!strchr("sdiuxc%", *s) || !*s)
		return false;
	if ((*s == 's' || *s == 'c' || *s == '%') && *len != LEN_NONE)
		return false;
	*conv = *s;
	*p = s + 1;
	return true;
}

typedef struct {
	char *dst;
	size_t cap, n; /* bytes written or that would be */
} out_buf;

static void put(out_buf *o, const char *s, size_t k)
{
	if (o->n + 1 < o->cap) {
		size_t room = o->cap - 1 - o->n;
		memcpy(o->dst + o->n, s, k < room ? k : room);
	}
	o->n += k;
}

int vsnprintf(char *restrict dst, size_t cap, const char *restrict fmt, va_list ap)
{
	for (const char *p = fmt; (p = strchr(p, '%'));) {
		int len;
		char conv;
		p++;
		if (!simple_spec(&p, &len, &conv))
			return slow(dst, cap, fmt, ap);
	}
	out_buf o = {dst, cap, 0};
	const char *p = fmt;
	while (*p) {
		const char *pct = strchr(p, '%');
		if (!pct) {
			put(&o, p, strlen(p));
			break;
		}
		put(&o, p, (size_t)(pct - p));
		p = pct + 1;
		int len;
		char conv;
		simple_spec(&p, &len, &conv);
		if (conv == '%') {
			put(&o, "%", 1);
		} else if (conv == 's') {
			const char *s = va_arg(ap, const char *);
			if (!s)
				s = "(null)";
			put(&o, s, strlen(s));
		} else if (conv == 'c') {
			char c = (char)va_arg(ap, int);
			put(&o, &c, 1);
		} else {
			bool sign = conv == 'd' || conv == 'i';
			uintmax_t v;
			bool negative = false;
			if (sign) {
				intmax_t x;
				switch (len) {
				case LEN_HH: x = (signed char)va_arg(ap, int); break;
				case LEN_H: x = (short)va_arg(ap, int); break;
				case LEN_L: x = va_arg(ap, long); break;
				case LEN_LL: x = va_arg(ap, long long); break;
				case LEN_Z: x = va_arg(ap, ptrdiff_t); break; /* the signed size_t */
				case LEN_J: x = va_arg(ap, intmax_t); break;
				case LEN_T: x = va_arg(ap, ptrdiff_t); break;
				default: x = va_arg(ap, int); break;
				}
				negative = x < 0;
				v = negative ? -(uintmax_t)x : (uintmax_t)x;
			} else {
				switch (len) {
				case LEN_HH: v = (unsigned char)va_arg(ap, unsigned); break;
				case LEN_H: v = (unsigned short)va_arg(ap, unsigned); break;
				case LEN_L: v = va_arg(ap, unsigned long); break;
				case LEN_LL: v = va_arg(ap, unsigned long long); break;
				case LEN_Z: v = va_arg(ap, size_t); break;
				case LEN_J: v = va_arg(ap, uintmax_t); break;
				/* %tu, %tx: ptrdiff_t's bits read unsigned, at its width (as musl's) */
				case LEN_T: v = (uintmax_t)(size_t)va_arg(ap, ptrdiff_t); break;
				default: v = va_arg(ap, unsigned); break;
				}
			}
			char digits[24], *e = digits + sizeof digits, *d = e;
			unsigned base = conv == 'x' ? 16 : 10;
			do {
				*--d = "0123456789abcdef"[v % base];
				v /= base;
			} while (v);
			if (negative)
				*--d = '-';
			put(&o, d, (size_t)(e - d));
		}
	}
	if (cap)
		dst[o.n < cap ? o.n : cap - 1] = '\0';
	if (o.n > INT_MAX)
		return -1;
	return (int)o.n;
}

/* the other two names musl's vsnprintf.c defines in Emscripten (the
 * compiler turns a printf without floating point into its small variant):
 * all three here, so that file is never linked and these are the ones */
int vsniprintf(char *restrict dst, size_t cap, const char *restrict fmt, va_list ap)
{
	return vsnprintf(dst, cap, fmt, ap);
}

int __small_vsnprintf(char *restrict dst, size_t cap, const char *restrict fmt, va_list ap)
{
	return vsnprintf(dst, cap, fmt, ap);
}

/* ---- the check (tests/site/wasm_node_test.js calls it): this file's
 * vsnprintf against musl's vfprintf (slow above) on every conversion and
 * length it writes, at the extremes of each type, random values, NULL and
 * empty strings, and every buffer size around the text's length ---- */
#include <emscripten.h>

static unsigned check_failures;

static void compare(const char *fmt, ...)
{
	char want[96], got[96];
	va_list ap, aq;
	va_start(ap, fmt);
	va_copy(aq, ap);
	int wn = slow(want, sizeof want, fmt, ap);
	va_end(ap);
	int gn = vsnprintf(got, sizeof got, fmt, aq);
	va_end(aq);
	if (wn != gn || strcmp(want, got)) {
		check_failures++;
		return;
	}
	for (size_t cap = 0; cap <= (size_t)wn + 1 && cap < sizeof got; cap++) { /* cut as snprintf cuts */
		va_start(ap, fmt);
		memset(got, 'x', sizeof got);
		int cn = vsnprintf(got, cap, fmt, ap);
		va_end(ap);
		bool ok = cn == wn && (cap == 0 ? got[0] == 'x'
				       : !memcmp(got, want, cap - 1) && got[cap - 1] == '\0' && got[cap] == 'x');
		check_failures += !ok;
	}
}

EMSCRIPTEN_KEEPALIVE unsigned fray_wasm_printf_check(void)
{
	check_failures = 0;
	uint64_t r = 0x9E3779B97F4A7C15u;
	long long ll[] = {0, 1, -1, 9, 10, -10, INT_MAX, INT_MIN, (long long)INT_MAX + 1, LLONG_MAX, LLONG_MIN, 0, 0, 0, 0, 0};
	for (int i = 0; i < 1000; i++) {
		long long v = i < 11 ? ll[i] : (long long)(r = r * 6364136223846793005u + 1442695040888963407u) >> (i % 64);
		compare("%d|%i|%u|%x", (int)v, (int)v, (unsigned)v, (unsigned)v);
		compare("%ld %lu %lx", (long)v, (unsigned long)v, (unsigned long)v);
		compare("%lld %llu %llx", v, (unsigned long long)v, (unsigned long long)v);
		compare("%zd %zu %jd %ju %td %tu %tx", (ptrdiff_t)v, (size_t)v, (intmax_t)v, (uintmax_t)v, (ptrdiff_t)v,
			(ptrdiff_t)v, (ptrdiff_t)v);
		compare("%hd %hu %hhd %hhu %hx", (int)v, (int)v, (int)v, (int)v, (int)v);
	}
	compare("%llu", ULLONG_MAX);
	compare("%s", (char *)NULL);
	compare("[%s] [%s] %c%c %% 100%%", "", "text \"quoted\"", 'a', 0x7f);
	compare("{\"p\": %s, \"exact\": \"%s\"}%s", "0.1", "1/10", ",\n");
	compare("no conversion at all");
	compare("");
	compare("%5d|%-3s|%.2s|%+d|%#x|%g|%.3f|%p", 42, "ab", "abc", 7, 255, 0.1, 2.0 / 3, (void *)0); /* the slow path */
	return check_failures;
}
