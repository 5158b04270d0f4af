/* QR codes for fray serve --lan (serve_qr.h): libqrencode finds the
 * modules, fray draws them. */
#include <qrencode.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "serve_qr.h"

bool serve_qr_encode(const char *text, serve_qr *q)
{
	q->size = 0;
	q->dark = NULL;
	QRcode *code = QRcode_encodeString(text, 0, QR_ECLEVEL_M, QR_MODE_8, 1);
	if (!code)
		return false;
	size_t n = (size_t)code->width * (size_t)code->width;
	if ((q->dark = malloc(n))) {
		/* libqrencode's byte: bit 0 is the module's colour, the rest say
		 * what the module is part of */
		for (size_t i = 0; i < n; i++)
			q->dark[i] = code->data[i] & 1;
		q->size = code->width;
	}
	QRcode_free(code);
	return q->dark != NULL;
}

void serve_qr_free(serve_qr *q)
{
	free(q->dark);
	q->dark = NULL;
	q->size = 0;
}

bool serve_qr_dark(const serve_qr *q, int x, int y)
{
	return x >= 0 && y >= 0 && x < q->size && y < q->size && q->dark[(size_t)y * (size_t)q->size + (size_t)x];
}

char *serve_qr_text(const serve_qr *q, bool utf8)
{
	int side = q->size + 2 * SERVE_QR_QUIET, first = -SERVE_QR_QUIET;
	/* a cell: 3 bytes (a half block) or 2 ("##"); a line: side cells and '\n' */
	size_t lines = utf8 ? (size_t)(side + 1) / 2 : (size_t)side;
	char *out = malloc(lines * ((size_t)side * 3 + 1) + 1);
	if (!out)
		return NULL;
	static const char *const half[4] = {" ", "\xe2\x96\x84", "\xe2\x96\x80", "\xe2\x96\x88"}; /* none, lower, upper, full */
	char *p = out;
	for (int y = first; y < first + side; y += utf8 ? 2 : 1) {
		for (int x = first; x < first + side; x++) {
			const char *cell;
			if (utf8) /* the last line's lower half is below the quiet zone: light */
				cell = half[serve_qr_dark(q, x, y) * 2 + serve_qr_dark(q, x, y + 1)];
			else
				cell = serve_qr_dark(q, x, y) ? "##" : "  ";
			size_t n = strlen(cell);
			memcpy(p, cell, n);
			p += n;
		}
		*p++ = '\n';
	}
	*p = 0;
	return out;
}

/* s with &, <, > and " as XML entities: at most 6 bytes each. */
static void xml_escape(char *dst, const char *s)
{
	for (; *s; s++) {
		const char *e = *s == '&' ? "&amp;" : *s == '<' ? "&lt;" : *s == '>' ? "&gt;" : *s == '"' ? "&quot;" : NULL;
		if (e) {
			strcpy(dst, e);
			dst += strlen(e);
		} else {
			*dst++ = *s;
		}
	}
	*dst = 0;
}

char *serve_qr_svg(const serve_qr *q, const char *title)
{
	int side = q->size + 2 * SERVE_QR_QUIET;
	/* at most one run in two modules, each "M123 45h67v1h-67z" */
	size_t cap = 512 + 6 * strlen(title) + (size_t)q->size * (size_t)(q->size / 2 + 1) * 24;
	char *out = malloc(cap), *esc = malloc(6 * strlen(title) + 1);
	if (!out || !esc) {
		free(out);
		free(esc);
		return NULL;
	}
	xml_escape(esc, title);
	size_t n = (size_t)snprintf(out, cap,
				    "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %d %d\" "
				    "shape-rendering=\"crispEdges\" role=\"img\">\n<title>%s</title>\n"
				    "<rect width=\"%d\" height=\"%d\" fill=\"#fff\"/>\n<path fill=\"#000\" d=\"",
				    side, side, esc, side, side);
	free(esc);
	for (int y = 0; y < q->size; y++)
		for (int x = 0; x < q->size;) {
			int run = 0;
			while (serve_qr_dark(q, x + run, y))
				run++;
			if (run)
				n += (size_t)snprintf(out + n, cap - n, "M%d %dh%dv1h-%dz", x + SERVE_QR_QUIET,
						      y + SERVE_QR_QUIET, run, run);
			x += run ? run : 1;
		}
	snprintf(out + n, cap - n, "\"/>\n</svg>\n");
	return out;
}
