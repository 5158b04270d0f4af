/* include/fray/api.h: the page's API paths to their answers, once for
 * fray serve and the WebAssembly build (each had its own copy). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fray/api.h>
#include <fray/game_request.h>
#include "../core/internal.h"
#include "embedded.h"

FRAY_API unsigned fray_api_status(fray_status st)
{
	return st == FRAY_OK ? 200 : st == FRAY_ERR_INPUT ? 400 : st == FRAY_ERR_LIMIT || st == FRAY_ERR_BUDGET ? 422
	       : st == FRAY_ERR_NOMEM ? 503 : 500;
}

/* A forces file a new game may start from (api/v1/examples' "forces"). */
static bool forces_file(const char *path)
{
	size_t n = strlen(path), k = strlen("/forces.yaml");
	return n >= k && !strcmp(path + n - k, "/forces.yaml");
}

static char *examples_json(void)
{
	size_t cap = 64;
	for (const embedded_file *f = frayi_shipped_examples; f->path; f++)
		cap += strlen(f->path) + 8;
	char *s = malloc(cap);
	if (!s)
		return NULL;
	size_t n = (size_t)snprintf(s, cap, "{\"examples\": [");
	for (int forces = 0; forces < 2; forces++) {
		const char *sep = "";
		if (forces)
			n += (size_t)snprintf(s + n, cap - n, "], \"forces\": [");
		for (const embedded_file *f = frayi_shipped_examples; f->path; f++)
			if (forces_file(f->path) == (forces == 1)) {
				n += (size_t)snprintf(s + n, cap - n, "%s\"%s\"", sep, f->path);
				sep = ", ";
			}
	}
	snprintf(s + n, cap - n, "]}\n");
	return s;
}

static char *copy_of(const char *msg)
{
	char *s = malloc(strlen(msg) + 1);
	if (s)
		strcpy(s, msg);
	return s;
}

/* A failure as data: {"error": message} and, when the message is about
 * one input, "input": its name (the page shows it at that field). */
static char *error_json(const fray_ctx *ctx)
{
	const char *msg = fray_ctx_message(ctx), *input = fray_ctx_input(ctx);
	if (!*msg)
		msg = fray_status_str(fray_ctx_status(ctx));
	size_t qm = fray_json_string(msg, NULL, 0), qi = input ? fray_json_string(input, NULL, 0) : 0;
	size_t cap = qm + qi + 32;
	char *s = malloc(cap);
	if (!s)
		return NULL;
	size_t n = (size_t)snprintf(s, cap, "{\"error\": ");
	n += fray_json_string(msg, s + n, cap - n);
	if (input) {
		n += (size_t)snprintf(s + n, cap - n, ", \"input\": ");
		n += fray_json_string(input, s + n, cap - n);
	}
	snprintf(s + n, cap - n, "}\n");
	return s;
}

/* A run's, a job's or a game's budgets, with the caller's watch. A game's
 * odds are a quick run's: one action's, answered while the player waits. */
static fray_request_opts budgets(bool job, bool game, const fray_request_opts *watch)
{
	fray_request_opts ro = {.flags = FRAY_REQUEST_NO_FILES | (job ? 0 : FRAY_REQUEST_QUICK),
				.max_trials = job ? FRAY_API_JOB_TRIALS : 0,
				.max_paths = job ? FRAY_API_JOB_PATHS : game ? FRAY_REQUEST_QUICK_PATHS : 0,
				.max_bytes = FRAY_API_ODDS_BYTES};
	if (watch) {
		ro.stop = watch->stop;
		ro.progress = watch->progress;
		ro.ud = watch->ud;
	}
	return ro;
}

FRAY_API size_t fray_api_max_body(const char *path)
{
	return path && !strcmp(path, "api/v1/game") ? FRAY_API_MAX_GAME_BODY : FRAY_API_MAX_BODY;
}

/* Every body's budget is checked on its length before anything reads it
 * (the game's, include/fray/api.h: the game's own budget and the rest of
 * the request, so a game that reads always fits). */
static unsigned refused_for_size(const char *path, size_t max, char **answer)
{
	char msg[96];
	snprintf(msg, sizeof msg, "a request to %.40s has at most %zu KiB", path, max >> 10);
	*answer = copy_of(msg);
	return 413;
}

/* The game's request reader takes what the game's body budget lets in. */
_Static_assert(FRAY_API_MAX_GAME_BODY <= FRAY_GAME_REQUEST_MAX_BYTES, "a game body the JSON reader refuses");

static unsigned api_call(const char *path, const char *body, const fray_request_opts *watch, char **answer,
			 bool *is_message);

FRAY_API unsigned fray_api_call(const char *path, const char *body, const fray_request_opts *watch, char **answer,
				bool *is_message)
{
	if (!answer || !is_message)
		return 400;
	*answer = NULL;
	*is_message = true;
	if (!path)
		return api_call(path, body, watch, answer, is_message);
	if (!body)
		body = "";
	/* the same budget for every caller, counted before anything reads the body */
	size_t max = fray_api_max_body(path);
	if (strnlen(body, max + 1) > max)
		return refused_for_size(path, max, answer);
	return api_call(path, body, watch, answer, is_message);
}

FRAY_API unsigned fray_api_call_len(const char *path, const char *body, size_t len, const fray_request_opts *watch,
				    char **answer, bool *is_message)
{
	if (!answer || !is_message)
		return 400;
	*answer = NULL;
	*is_message = true;
	if (!path)
		return api_call(path, body, watch, answer, is_message);
	size_t max = fray_api_max_body(path);
	if (len > max) /* said from the length alone: the body is not looked at */
		return refused_for_size(path, max, answer);
	if (!body && len) {
		*answer = copy_of("fray_api_call_len: no body");
		return 400;
	}
	if (body && memchr(body, '\0', len)) { /* the reader would stop there: not the body sent */
		*answer = copy_of("a request's body is text: it holds a NUL byte");
		return 400;
	}
	return api_call(path, body ? body : "", watch, answer, is_message);
}

/* The call, its body within its budget (NUL-terminated). */
static unsigned api_call(const char *path, const char *body, const fray_request_opts *watch, char **answer,
			 bool *is_message)
{
	if (!path) {
		*answer = copy_of("fray_api_call: no path (expected api/v1/run, api/v1/jobs, api/v1/game, "
				  "api/v1/procedures or api/v1/examples)");
		return 400;
	}
	bool run = !strcmp(path, "api/v1/run"), job = !strcmp(path, "api/v1/jobs"), game = !strcmp(path, "api/v1/game");
	bool procedures = !strcmp(path, "api/v1/procedures"), examples = !strcmp(path, "api/v1/examples");
	if (!run && !job && !game && !procedures && !examples) {
		*answer = copy_of("no such page");
		return 404;
	}
	if (examples) {
		*is_message = false;
		*answer = examples_json();
		return *answer ? 200 : 503;
	}
	fray_ctx *ctx = fray_ctx_new(NULL, NULL);
	if (!ctx) {
		*answer = copy_of("out of memory");
		return 503;
	}
	char *out = NULL;
	fray_request_opts ro = budgets(job, game, watch);
	fray_status st = procedures ? fray_procedures_json(ctx, &out)
			 : game ? fray_game_request_with(ctx, body, strlen(body), &ro, &out)
				: fray_request_with(ctx, body, &ro, &out);
	if (st == FRAY_OK || (game && out)) { /* the game's failures are JSON */
		*is_message = false;
		*answer = out;
	} else if (run || job) { /* a run's too: {"error", "input"} */
		free(out);
		*is_message = false;
		*answer = error_json(ctx);
	} else {
		free(out);
		*answer = copy_of(fray_ctx_message(ctx));
	}
	fray_ctx_free(ctx);
	return fray_api_status(st);
}
