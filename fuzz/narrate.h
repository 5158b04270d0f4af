/* The narrating paths, for every fuzz target: each event is told as the
 * text the command prints (through its control-character escaping) and
 * as JSON, into buffers of exactly the size the renderer says it needs (so
 * AddressSanitizer sees any write past it); neither may hold a control
 * character. Messages about a bad file go through the same escaping. */
#ifndef FRAY_FUZZ_NARRATE_H
#define FRAY_FUZZ_NARRATE_H

#include <stdlib.h>
#include <string.h>
#include <fray/fray.h>
#include "cli.h"

/* c1: C1 controls count too (text; JSON may hold them, escaped or not,
 * as the terminal guard shows them escaped with the same meaning). */
static void fuzz_no_controls(const char *s, bool c1)
{
	for (const unsigned char *u = (const unsigned char *)s; *u; u++)
		if (*u < 0x20 || *u == 0x7F || (c1 && *u == 0xC2 && u[1] >= 0x80 && u[1] <= 0x9F))
			abort();
}

static void fuzz_show(const char *line)
{
	size_t n = strlen(line);
	char *shown = malloc(4 * n + 4);
	if (!shown)
		abort();
	cli_escape_controls(shown, 4 * n + 4, line);
	fuzz_no_controls(shown, true);
	free(shown);
}

static void fuzz_render(size_t (*render)(const fray_event *, char *, size_t), const fray_event *ev,
			bool json)
{
	size_t n = render(ev, NULL, 0);
	char *buf = malloc(n + 1);
	if (!buf || render(ev, buf, n + 1) != n || strlen(buf) != n)
		abort();
	if (json) {
		if (buf[0] != '{' || buf[n - 1] != '}')
			abort();
		fuzz_no_controls(buf, false);
	} else {
		fuzz_show(buf);
	}
	free(buf);
}

/* A roller sink: fray_roller_set_sink(r, fuzz_narrate, NULL). */
static void fuzz_narrate(void *ud, const fray_event *ev)
{
	(void)ud;
	fuzz_render(fray_event_text, ev, false);
	fuzz_render(fray_event_json, ev, true);
}

/* Every message recorded about a document, as the command would show it. */
static void fuzz_show_errors(const fray_doc *doc)
{
	for (size_t i = 0; i < fray_doc_error_count(doc); i++)
		fuzz_show(fray_doc_error_msg(doc, i));
}

#endif
