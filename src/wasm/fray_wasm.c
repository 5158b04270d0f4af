/* libfray in the browser: the one entry point page/worker.js calls. It
 * answers the page's API paths as fray serve does, through the same
 * library function (fray_api_call, include/fray/api.h: the paths, their
 * budgets and their answers), from the library alone: no files (a file
 * input is a document or a shipped example), so the page gives the same
 * answers whichever transport it has. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <emscripten.h>
#include <fray/fray.h>
#include <fray/api.h>

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

/* path: "api/v1/procedures", "api/v1/examples", "api/v1/run" (quick),
 * "api/v1/jobs" (long work, with progress) or "api/v1/game". body: the
 * request's JSON for the last three, len bytes NUL-terminated in memory
 * the worker took with malloc (NULL, 0: empty), never a string argument:
 * Emscripten copies those onto the stack (5 MiB), which a game's body of
 * 1.3 million characters overflowed before any budget was checked.
 * The budget (fray_api_max_body) is checked on len first: the worker asks
 * fray_wasm_max_body before it copies anything, and a body past it is
 * answered 413 here with body NULL. A NULL path is refused (400 and the
 * message), as it is by fray_api_call. Returns the answer (the JSON as
 * fray serve sends it, or on failure the message; free with
 * fray_wasm_free); fray_wasm_status() then says which, as an HTTP status. */
EMSCRIPTEN_KEEPALIVE char *fray_wasm_call(const char *path, const char *body, double len)
{
	/* a job's progress goes to the page; a quick run's is not watched */
	fray_request_opts watch = {.progress = path && !strcmp(path, "api/v1/jobs") ? on_progress : NULL};
	char *answer;
	bool is_message;
	/* a double from JavaScript's number: past SIZE_MAX (or not a count) is past every budget */
	size_t n = len >= 0 && len < (double)SIZE_MAX ? (size_t)len : SIZE_MAX;
	last_status = (int)fray_api_call_len(path, body, n, &watch, &answer, &is_message);
	return answer;
}

/* The most bytes a body to path may have (fray_api_max_body), for the
 * worker to check before it copies a body into this module's memory. */
EMSCRIPTEN_KEEPALIVE double fray_wasm_max_body(const char *path)
{
	return (double)fray_api_max_body(path);
}

EMSCRIPTEN_KEEPALIVE int fray_wasm_status(void)
{
	return last_status;
}

/* exact odds' memory budget in bytes, for the page to say */
EMSCRIPTEN_KEEPALIVE double fray_wasm_odds_bytes(void)
{
	return (double)FRAY_API_ODDS_BYTES;
}

EMSCRIPTEN_KEEPALIVE void fray_wasm_free(char *p)
{
	free(p);
}
