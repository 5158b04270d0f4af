/* A QR code of a URL (libqrencode), drawn by fray: as text for a terminal
 * (half blocks, or ASCII where the terminal is not UTF-8) and as SVG for
 * the page (api/v1/qr.svg). Both keep the quiet zone the standard asks
 * (SERVE_QR_QUIET modules of light round the code), so a camera finds it
 * on any background. No terminal and no colours here: the command prints
 * (src/cli/cmd_serve.c). */
#ifndef FRAY_SERVE_QR_H
#define FRAY_SERVE_QR_H

#include <stdbool.h>
#include <stddef.h>

#define SERVE_QR_QUIET 4   /* modules of light on every side (ISO/IEC 18004) */

/* size x size modules, dark[y * size + x] nonzero for a dark one. */
typedef struct serve_qr {
	int size;
	unsigned char *dark;
} serve_qr;

/* text as a QR code (byte mode, error correction M: a phone's camera reads
 * it off a glossy screen). false (q empty) when text is too long or the
 * memory is out. */
bool serve_qr_encode(const char *text, serve_qr *q);
void serve_qr_free(serve_qr *q);
/* Whether module (x, y) is dark, the quiet zone and beyond light. */
bool serve_qr_dark(const serve_qr *q, int x, int y);
/* The code as lines of text ending in '\n', quiet zone included, dark
 * modules drawn: utf8, two rows of modules a line in half blocks
 * (U+2580, U+2584, U+2588, space); else one row a line, "##" a dark
 * module and two spaces a light one (a terminal's cell is about twice as
 * tall as wide: both come out square). malloc'd; NULL: out of memory. */
char *serve_qr_text(const serve_qr *q, bool utf8);
/* The code as an SVG document: a white square of size + 2 * SERVE_QR_QUIET
 * units, each run of dark modules in a row one black rectangle of height 1
 * in a single path ("M x y h n v 1 h -n z"), title the text (XML-escaped).
 * Presentation attributes only, no style: the server's CSP allows no
 * inline style. malloc'd; NULL: out of memory. */
char *serve_qr_svg(const serve_qr *q, const char *title);

#endif
