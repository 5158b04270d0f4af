/* The tables fray ships, by name (shipped_named.h): a designer's copy of an
 * example, or a file `fray scenario new` wrote, runs in any folder, with no
 * data folder beside the binary and nothing installed. */
#include <stdio.h>
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

/* The path's last part without ".yaml": the name it may give a table. */
static const char *last_part(const char *path, size_t *len)
{
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	*len = strlen(base);
	if (*len > 5 && strcmp(base + *len - 5, ".yaml") == 0)
		*len -= 5;
	return base;
}

/* The compiled-in file of a known name: the name is only ever compared
 * with the list, never joined to a folder, so no path can reach anything
 * else through it (issue 45 item 5: a name is a name). */
static const embedded_file *named(const char *path)
{
	size_t len;
	const char *base = last_part(path, &len);
	for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
		if (strlen(known[i].name) != len || strncmp(base, known[i].name, len) != 0)
			continue;
		for (const embedded_file *f = frayi_shipped_examples; f->path; f++)
			if (strcmp(f->path, known[i].path) == 0)
				return f;
	}
	return NULL;
}

/* The open's own message ("PATH: cannot open: ..."), with the second place
 * tried said after it: the designer sees both, not only the first. */
static fray_status tell_both(fray_ctx *ctx, fray_status st, const char *path)
{
	char first[FRAY_MSG_MAX], names[128] = "";
	snprintf(first, sizeof first, "%s", fray_ctx_message(ctx));
	for (size_t i = 0, at = 0; i < sizeof known / sizeof known[0] && at < sizeof names; i++)
		at += (size_t)snprintf(names + at, sizeof names - at, "%s%s", i ? ", " : "", known[i].name);
	size_t len;
	const char *base = last_part(path, &len);
	fray_ctx_clear(ctx);
	return frayi_fail(ctx, st, "%s; nor is '%.*s' a table fray ships (tried as a file, then by its name: fray "
			  "ships %s)", first, (int)len, base, names);
}

fray_status frayi_open_named(fray_ctx *ctx, fray_doc_open_fn open, void *ud, const char *path, fray_doc **out)
{
	fray_status before = fray_ctx_status(ctx);
	fray_status st = open ? open(ud, ctx, path, out) : fray_doc_load_file(ctx, path, out);
	if (st == FRAY_OK || st == FRAY_ERR_NOMEM)
		return st;
	/* a file that is there is the one meant: its own problems are told */
	if (access(path, F_OK) == 0 || strcmp(path, "-") == 0)
		return st;
	const embedded_file *f = named(path);
	if (!f)
		/* an earlier failure on the context keeps its message (the first wins) */
		return before == FRAY_OK ? tell_both(ctx, st, path) : st;
	if (before == FRAY_OK)
		fray_ctx_clear(ctx); /* the failed open's message is not the outcome */
	return fray_doc_load_string(ctx, f->path, (const char *)f->bytes, f->len, out);
}
