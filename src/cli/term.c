/* Text that reaches a terminal. Names come from files people share, and a
 * name holding ESC, BEL or a C1 control could clear the screen, retitle the
 * window or write to the clipboard; a newline in a name could forge story
 * lines; a bidi control (U+202E and kin) could reorder a line so it reads
 * other than it says. Two layers: cli_tstr and the narrator show every
 * control character of a name as \xNN (or \u00NN for C1, \u202e for a
 * bidi control: src/common/hidden.h), both through the library's one
 * escaper (fray_term_string), and stdout and stderr
 * themselves pass no control character but newline, tab and carriage
 * return, whatever a caller forgot (cli_raw_stdout is the one way round,
 * for fray's own colours). JSON escapes them itself, so it passes as is. */
#define _GNU_SOURCE /* fopencookie */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "../common/hidden.h"

typedef struct guard {
	int fd;
	/* the last write ended in the first bytes of a C1 or bidi control
	 * (text_hidden_at said -1): the rest comes in the next write */
	unsigned char held[3];
	size_t nheld;
} guard;

static bool put_all(int fd, const char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return false;
		p += w;
		n -= (size_t)w;
	}
	return true;
}

static bool passes(unsigned char c)
{
	return c >= 0x20 ? c != 0x7F : c == '\n' || c == '\t' || c == '\r';
}

/* One byte that is no part of a hidden code point: as is, or "\\xNN"
 * for a C0 control or DEL. At most 4 bytes at dst. */
static size_t put_byte(char *dst, unsigned char c)
{
	static const char hex[] = "0123456789abcdef";
	if (passes(c)) {
		dst[0] = (char)c;
		return 1;
	}
	memcpy(dst, "\\x", 2);
	dst[2] = hex[c >> 4];
	dst[3] = hex[c & 15];
	return 4;
}

/* A C1 or bidi control as "\\u00NN" or "\\u202e": 6 bytes at dst (the
 * same as JSON's escape, so a JSON document stays valid). */
static size_t put_hidden(char *dst, unsigned cp)
{
	static const char hex[] = "0123456789abcdef";
	memcpy(dst, "\\u", 2);
	for (int i = 0; i < 4; i++)
		dst[2 + i] = hex[(cp >> (12 - 4 * i)) & 15];
	return 6;
}

/* Moves what g holds to out: each byte that starts a hidden code point
 * escaped with the bytes after it, any other byte alone; a start that may
 * be finished by the next write stays held unless final. */
static size_t drain(guard *g, char *out, bool final)
{
	size_t n = 0;
	while (g->nheld) {
		unsigned cp;
		int r = text_hidden_at(g->held, g->nheld, &cp);
		if (r < 0 && !final)
			break;
		size_t used = 1;
		if (r > 0) {
			n += put_hidden(out + n, cp);
			used = (size_t)r;
		} else {
			n += put_byte(out + n, g->held[0]);
		}
		g->nheld -= used;
		memmove(g->held, g->held + used, g->nheld);
	}
	return n;
}

static ssize_t guard_write(void *cookie, const char *buf, size_t size)
{
	guard *g = cookie;
	char out[4096];
	size_t n = 0;
	for (size_t i = 0; i < size; i++) {
		if (n + 32 > sizeof out) {
			if (!put_all(g->fd, out, n))
				return -1;
			n = 0;
		}
		g->held[g->nheld++] = (unsigned char)buf[i];
		n += drain(g, out + n, false);
	}
	if (!put_all(g->fd, out, n))
		return -1;
	return (ssize_t)size;
}

static int guard_close(void *cookie)
{
	guard *g = cookie;
	char out[32];
	size_t n = drain(g, out, true);
	return put_all(g->fd, out, n) ? 0 : -1;
}

static guard out_guard = {.fd = 1}, err_guard = {.fd = 2};

void cli_term_guard(void)
{
	cookie_io_functions_t io = {.write = guard_write, .close = guard_close};
	bool tty = isatty(1);
	FILE *o = fopencookie(&out_guard, "w", io), *e = fopencookie(&err_guard, "w", io);
	if (!o || !e) {
		if (o)
			fclose(o);
		if (e)
			fclose(e);
		return; /* no memory for two FILEs: names are still escaped one by one */
	}
	setvbuf(o, NULL, tty ? _IOLBF : _IOFBF, BUFSIZ);
	setvbuf(e, NULL, _IONBF, 0);
	stdout = o;
	stderr = e;
}

void cli_raw_stdout(const char *s)
{
	fflush(stdout);
	put_all(1, s, strlen(s));
}

void cli_escape_controls(char *dst, size_t cap, const char *s)
{
	text_escape_controls(dst, cap, s);
}

const char *cli_tstr(const char *s)
{
	static char slot[CLI_TSTR_SLOTS][1024];
	static unsigned next;
	char *dst = slot[next++ % CLI_TSTR_SLOTS];
	cli_escape_controls(dst, sizeof slot[0], s);
	return dst;
}
