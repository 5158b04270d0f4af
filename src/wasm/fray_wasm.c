/* libfray in the browser: the one entry point page/worker.js calls. It
 * answers the page's API paths as fray serve does (src/serve/), from the
 * library alone: no files (a file input is a document or a shipped
 * example), the same budgets as the server's quick runs and jobs, so the
 * page gives the same answers whichever transport it has. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <emscripten.h>
#include <fray/fray.h>
#include "embedded.h"
/* the game's JSON door (engineer g31b's branch): answered where it exists */
#if __has_include(<fray/game_request.h>)
#include <fray/game_request.h>
#define WASM_HAVE_GAME 1
#endif

/* The budgets of fray serve (src/serve/serve_handler.h, serve_jobs.h):
 * api/v1/run is quick; a job (watched, stoppable) may run long. */
#define WASM_REQUEST_BYTES (256ull << 20) /* exact odds' memory: the page says it (page/transport.js) */
#define WASM_JOB_TRIALS 1000000u
#define WASM_JOB_PATHS 20000000u

static int last_status;

/* progress reaches the worker's script, which posts it to the page */
EM_JS(void, wasm_progress, (double done, double total), {
	if (Module.onProgress)
		Module.onProgress(done, total);
});

static void on_progress(uint64_t done, uint64_t total, void *ud)
{
	(void)ud;
	wasm_progress((double)done, (double)total);
}

/* The shipped examples a file input may name, {"examples": [...]}, and
 * the forces files a new game may start from, "forces": [...], as fray
 * serve lists them. */
static bool forces_file(const char *path)
{
	size_t n = strlen(path), k = strlen("/forces.yaml");
	return n >= k && !strcmp(path + n - k, "/forces.yaml");
}

static char *examples_json(void)
{
	size_t cap = 64;
	for (const embedded_file *f = fray_shipped_examples; f->path; f++)
		cap += strlen(f->path) + 8;
	char *s = malloc(cap);
	if (!s)
		return NULL;
	size_t n = (size_t)snprintf(s, cap, "{\"examples\": [");
	for (int forces = 0; forces < 2; forces++) {
		const char *sep = "";
		if (forces)
			n += (size_t)snprintf(s + n, cap - n, "], \"forces\": [");
		for (const embedded_file *f = fray_shipped_examples; f->path; f++)
			if (forces_file(f->path) == (forces == 1)) {
				n += (size_t)snprintf(s + n, cap - n, "%s\"%s\"", sep, f->path);
				sep = ", ";
			}
	}
	snprintf(s + n, cap - n, "]}\n");
	return s;
}

static int status_of(fray_status st)
{
	return st == FRAY_OK ? 200 : st == FRAY_ERR_INPUT ? 400 : st == FRAY_ERR_LIMIT || st == FRAY_ERR_BUDGET ? 422
	       : st == FRAY_ERR_NOMEM ? 503 : 500;
}

/* A copy of the context's message, the answer of a failed call. */
static char *failure(fray_ctx *ctx, fray_status st)
{
	last_status = status_of(st);
	const char *msg = ctx ? fray_ctx_message(ctx) : "out of memory";
	char *s = malloc(strlen(msg) + 1);
	if (s)
		strcpy(s, msg);
	return s;
}

/* path: "api/v1/procedures", "api/v1/examples", "api/v1/run" (quick),
 * "api/v1/jobs" (long work, with progress) or "api/v1/game" (where the
 * library has fray_game_request). body: the request's JSON for
 * the last two. Returns the answer (the JSON as fray serve sends it, or on
 * failure the message; free with fray_wasm_free); fray_wasm_status() then
 * says which, as an HTTP status. */
EMSCRIPTEN_KEEPALIVE char *fray_wasm_call(const char *path, const char *body)
{
	fray_ctx *ctx = fray_ctx_new(NULL, NULL);
	char *out = NULL;
	fray_status st = FRAY_OK;
	last_status = 200;
	if (!ctx)
		return failure(NULL, FRAY_ERR_NOMEM);
	if (!strcmp(path, "api/v1/procedures")) {
		st = fray_procedures_json(ctx, &out);
	} else if (!strcmp(path, "api/v1/examples")) {
		out = examples_json();
		st = out ? FRAY_OK : FRAY_ERR_NOMEM;
	} else if (!strcmp(path, "api/v1/run")) {
		fray_request_opts ro = {.flags = FRAY_REQUEST_NO_FILES | FRAY_REQUEST_QUICK,
					.max_bytes = WASM_REQUEST_BYTES};
		st = fray_request_with(ctx, body ? body : "", &ro, &out);
	} else if (!strcmp(path, "api/v1/jobs")) {
		fray_request_opts ro = {.flags = FRAY_REQUEST_NO_FILES, .max_trials = WASM_JOB_TRIALS,
					.max_paths = WASM_JOB_PATHS, .max_bytes = WASM_REQUEST_BYTES,
					.progress = on_progress};
		st = fray_request_with(ctx, body ? body : "", &ro, &out);
#ifdef WASM_HAVE_GAME
	} else if (!strcmp(path, "api/v1/game")) {
		/* its answer is JSON either way ({"error", "question"} on failure) */
		st = fray_game_request(ctx, body ? body : "", body ? strlen(body) : 0, &out);
		if (st != FRAY_OK && out) {
			last_status = status_of(st);
			fray_ctx_free(ctx);
			return out;
		}
#endif
	} else {
		fray_ctx_free(ctx);
		last_status = 404;
		char *s = malloc(32);
		if (s)
			snprintf(s, 32, "no such page");
		return s;
	}
	if (st != FRAY_OK) {
		free(out);
		out = failure(ctx, st);
	}
	fray_ctx_free(ctx);
	return out;
}

EMSCRIPTEN_KEEPALIVE int fray_wasm_status(void)
{
	return last_status;
}

/* exact odds' memory budget in bytes, for the page to say */
EMSCRIPTEN_KEEPALIVE double fray_wasm_odds_bytes(void)
{
	return (double)WASM_REQUEST_BYTES;
}

EMSCRIPTEN_KEEPALIVE void fray_wasm_free(char *p)
{
	free(p);
}
