/* The command line's side of scenario edits (scenario_edit.h): --set
 * options gathered, the files a scenario names found, and a scenario read
 * with edits by libfray (include/fray/scenario_edit.h), its problems
 * printed. */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "scenario_edit.h"

#ifndef FRAY_DATADIR
#define FRAY_DATADIR "/usr/local/share/fray"
#endif

/* ---- the CRT beside the scenario, else in the shipped data ---- */

static bool is_file(const char *path)
{
	return access(path, F_OK) == 0;
}

/* The shipped data folders, most local first: beside the running binary
 * (a build tree: build/fray -> ../data; an install: bin/fray ->
 * ../share/fray/data), then the configured install folder. */
static int data_dirs(char dirs[][PATH_MAX], int max)
{
	int n = 0;
	char exe[PATH_MAX];
	ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (len > 0) {
		exe[len] = '\0';
		char *slash = strrchr(exe, '/');
		if (slash) {
			*slash = '\0';
			if (n < max)
				snprintf(dirs[n++], PATH_MAX, "%.*s/../data", PATH_MAX - 16, exe);
			if (n < max)
				snprintf(dirs[n++], PATH_MAX, "%.*s/../share/fray/data", PATH_MAX - 32, exe);
		}
	}
	if (n < max)
		snprintf(dirs[n++], PATH_MAX, "%s/data", FRAY_DATADIR);
	return n;
}

/* Whether s[0..len) is a plain name: letters, digits, '-', '_' and '.',
 * not starting with '.' (so never "." or ".."). */
static bool plain_name(const char *s, size_t len)
{
	if (len == 0 || s[0] == '.')
		return false;
	for (size_t i = 0; i < len; i++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.", s[i]) || !s[i])
			return false;
	return true;
}

/* Whether every '/'-separated part of s is a plain name. */
static bool plain_names(const char *s)
{
	for (const char *end; *s; s = *end ? end + 1 : end) {
		end = strchr(s, '/');
		end = end ? end : s + strlen(s);
		if (!plain_name(s, (size_t)(end - s)))
			return false;
	}
	return true;
}

/* The file's place inside a data folder, taken as a name and never as a
 * path (issue 45 item 5): the part after the path's last "data/" ("adbg/x.yaml"
 * of "../../data/adbg/x.yaml"), else the last part under adbg/, and only
 * when each of its parts is a plain name, so that no "..", absolute part
 * or hidden file reaches out of the data folder. false: none. */
static bool data_part(const char *path, char *rel, size_t cap)
{
	const char *tail = NULL;
	for (const char *p = strstr(path, "data/"); p; p = strstr(p + 1, "data/"))
		if (p == path || p[-1] == '/')
			tail = p + 5;
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	int n = tail ? snprintf(rel, cap, "%s", tail) : snprintf(rel, cap, "adbg/%s", base);
	return n > 0 && (size_t)n < cap && plain_names(rel);
}

fray_status scen_open(void *ud, fray_ctx *ctx, const char *path, fray_doc **out)
{
	(void)ud;
	char rel[PATH_MAX];
	if (is_file(path) || strcmp(path, "-") == 0 || !data_part(path, rel, sizeof rel))
		return fray_doc_load_file(ctx, path, out);
	char dirs[3][PATH_MAX];
	int n = data_dirs(dirs, 3);
	for (int i = 0; i < n; i++) {
		char cand[PATH_MAX + 8];
		if ((size_t)snprintf(cand, sizeof cand, "%s/%s", dirs[i], rel) < sizeof cand && is_file(cand))
			return fray_doc_load_file(ctx, cand, out);
	}
	return fray_doc_load_file(ctx, path, out); /* its own message: not there */
}

/* ---- a scenario read with edits ---- */

void scen_tell(void *ud, const char *message)
{
	scen_told *t = ud;
	t->any = true;
	cli_error(t->cmd, EXIT_BAD_INPUT, "%s", message);
}

int scen_failed(const char *cmd, fray_ctx *ctx, const scen_told *t)
{
	int status = t->any ? EXIT_BAD_INPUT : cli_fail(cmd, ctx); /* out of memory is 1, not bad input */
	fray_ctx_clear(ctx);
	return status;
}

int scen_read_edited(const char *cmd, fray_ctx *ctx, fray_doc *doc, const char *option, const fray_adbg_edit *ed,
		     int ned, fray_adbg_scenario **out)
{
	scen_told t = {.cmd = cmd};
	fray_adbg_edit_read how = {.open = scen_open, .option = option, .problem = scen_tell, .problem_ud = &t};
	if (fray_adbg_scenario_read_edited(ctx, doc, ed, ned, &how, out) == FRAY_OK)
		return EXIT_OK;
	return scen_failed(cmd, ctx, &t);
}

int scen_load_edited(const char *cmd, fray_ctx *ctx, const char *path, const fray_adbg_edit *ed, int ned,
		     fray_adbg_scenario **out)
{
	*out = NULL;
	fray_doc *doc;
	if (fray_doc_load_file(ctx, path, &doc) != FRAY_OK)
		return cli_fail(cmd, ctx);
	int status = scen_read_edited(cmd, ctx, doc, "--set", ed, ned, out);
	fray_doc_free(doc);
	return status;
}

bool scen_take_set(cli_args *a, scen_sets *s)
{
	const char *v;
	if (!cli_value(a, "--set", &v))
		return false;
	if (a->status != EXIT_OK)
		return true;
	if (s->n == SCEN_MAX_SETS) {
		a->status = cli_error(a->cmd, EXIT_BAD_INPUT, "at most %d --set options", SCEN_MAX_SETS);
		return true;
	}
	char *text = strdup(v);
	if (!text) {
		a->status = cli_error(a->cmd, EXIT_RUNTIME, "out of memory");
		return true;
	}
	s->text[s->n] = text;
	fray_ctx *ctx = fray_ctx_new(NULL, NULL);
	fray_status st = ctx ? fray_adbg_edit_parse(ctx, text, &s->ed[s->n]) : FRAY_ERR_NOMEM;
	if (st != FRAY_OK) {
		a->status = ctx ? cli_fail(a->cmd, ctx) : cli_error(a->cmd, EXIT_RUNTIME, "out of memory");
		fray_ctx_free(ctx);
		free(text);
		return true;
	}
	fray_ctx_free(ctx);
	for (int k = 0; k < s->n; k++)
		if (strcmp(s->ed[k].path, s->ed[s->n].path) == 0 && strcmp(s->ed[k].path, FRAY_ADBG_EDIT_UNITS) != 0) {
			a->status = cli_error(a->cmd, EXIT_BAD_INPUT, "option --set: %s is set twice",
					      s->ed[k].path);
			free(text);
			return true;
		}
	s->n++;
	return true;
}

void scen_sets_free(scen_sets *s)
{
	for (int i = 0; i < s->n; i++)
		free(s->text[i]);
	s->n = 0;
}
