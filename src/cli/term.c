/* Text that reaches a terminal. Names come from files people share, and a
 * name holding ESC, BEL or a C1 control could clear the screen, retitle the
 * window or write to the clipboard; a newline in a name could forge story
 * lines. Two layers: cli_tstr and the narrator show every control
 * character of a name as \xNN (or \u00NN for C1), and stdout and stderr
 * themselves pass no control character but newline, tab and carriage
 * return, whatever a caller forgot (cli_raw_stdout is the one way round,
 * for fray's own colours). JSON escapes them itself, so it passes as is. */
#define _GNU_SOURCE /* fopencookie */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "../common/text.h"

/* A byte that starts a C1 control in UTF-8 (U+0080..U+009F is C2 80..9F). */
#define C1_LEAD 0xC2

typedef struct guard {
	int fd;
	bool held_c2; /* the last write ended in C2: its partner comes next */
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

/* c as "\\xNN" (or "\\u00NN" for a C1 control) at dst: 4 or 6 bytes. */
static size_t escape_byte(char *dst, unsigned char c, bool c1)
{
	static const char hex[] = "0123456789abcdef";
	size_t n = 0;
	dst[n++] = '\\';
	if (c1) {
		memcpy(dst + n, "u00", 3);
		n += 3;
	} else {
		dst[n++] = 'x';
	}
	dst[n++] = hex[c >> 4];
	dst[n++] = hex[c & 15];
	return n;
}

static bool passes(unsigned char c)
{
	return c >= 0x20 ? c != 0x7F : c == '\n' || c == '\t' || c == '\r';
}

static ssize_t guard_write(void *cookie, const char *buf, size_t size)
{
	guard *g = cookie;
	char out[4096];
	size_t n = 0;
	for (size_t i = 0; i < size; i++) {
		unsigned char c = (unsigned char)buf[i];
		if (n + 8 > sizeof out) {
			if (!put_all(g->fd, out, n))
				return -1;
			n = 0;
		}
		if (g->held_c2) {
			g->held_c2 = false;
			if (c >= 0x80 && c <= 0x9F) {
				n += escape_byte(out + n, c, true);
				continue;
			}
			out[n++] = (char)C1_LEAD;
		}
		if (c == C1_LEAD)
			g->held_c2 = true;
		else if (passes(c))
			out[n++] = (char)c;
		else
			n += escape_byte(out + n, c, false);
	}
	if (!put_all(g->fd, out, n))
		return -1;
	return (ssize_t)size;
}

static int guard_close(void *cookie)
{
	guard *g = cookie;
	if (g->held_c2 && !put_all(g->fd, "\xC2", 1))
		return -1;
	g->held_c2 = false;
	return 0;
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
	textbuf t = text_on(dst, cap);
	const unsigned char *u = (const unsigned char *)s;
	for (; *u && !t.cut; u++) {
		if (*u == C1_LEAD && u[1] >= 0x80 && u[1] <= 0x9F)
			text_add(&t, "\\u%04x", *++u);
		else if (*u < 0x20 || *u == 0x7F)
			text_add(&t, "\\x%02x", *u);
		else
			text_add(&t, "%c", *u);
	}
}

const char *cli_tstr(const char *s)
{
	static char slot[CLI_TSTR_SLOTS][1024];
	static unsigned next;
	char *dst = slot[next++ % CLI_TSTR_SLOTS];
	cli_escape_controls(dst, sizeof slot[0], s);
	return dst;
}
