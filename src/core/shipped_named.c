/* The tables fray ships, by name (shipped_named.h): a designer's copy of an
 * example, or a file `fray scenario new` wrote, runs in any folder, with no
 * data folder beside the binary and nothing installed. */
#include <string.h>
#include <unistd.h>
#include "embedded.h"
#include "internal.h"
#include "shipped_named.h"

/* The names a file may give fray's own tables, and where each is in the
 * shipped files (cmake's FRAY_SHIPPED_EXAMPLES). Only names that are
 * plainly fray's examples: a missing "units.yaml" stays an error. */
static const struct {
	const char *name, *path;
} known[] = {
	{"example-melee-crt", "data/adbg/example-melee-crt.yaml"},
	{"sample-mix", "examples/chits/sample-mix.yaml"},
};

static const embedded_file *named(const char *path)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	size_t len = strlen(base);
	if (len > 5 && strcmp(base + len - 5, ".yaml") == 0)
		len -= 5;
	for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
		if (strlen(known[i].name) != len || strncmp(base, known[i].name, len) != 0)
			continue;
		for (const embedded_file *f = frayi_shipped_examples; f->path; f++)
			if (strcmp(f->path, known[i].path) == 0)
				return f;
	}
	return NULL;
}

fray_status frayi_open_named(fray_ctx *ctx, fray_doc_open_fn open, void *ud, const char *path, fray_doc **out)
{
	fray_status st = open ? open(ud, ctx, path, out) : fray_doc_load_file(ctx, path, out);
	if (st == FRAY_OK || st == FRAY_ERR_NOMEM)
		return st;
	const embedded_file *f = named(path);
	/* a file that is there is the one meant: its own problems are told */
	if (!f || access(path, F_OK) == 0)
		return st;
	return fray_doc_load_string(ctx, f->path, (const char *)f->bytes, f->len, out);
}
