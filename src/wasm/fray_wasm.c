/* libfray in the browser: the one entry point page/worker.js calls. It
 * answers the page's API paths as fray serve does, through the same
 * library function (fray_api_call, include/fray/api.h: the paths, their
 * budgets and their answers), from the library alone: no files (a file
 * input is a document or a shipped example), so the page gives the same
 * answers whichever transport it has. */
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <emscripten.h>
#include <fray/fray.h>
#include <fray/api.h>

static int last_status;
static double last_length; /* the last answer's bytes (fray_wasm_length) */

/* progress reaches the worker's script, which posts it to the page */
EM_JS(void, wasm_progress, (double done, double total), {
	if (Module.onProgress)
		Module.onProgress(done, total);
});

/* ---- the time budgets: fray serve's (include/fray/api.h) ----
 * A request (api/v1/run, a game's odds) stops after FRAY_API_RUN_SECONDS
 * and a job after FRAY_API_JOB_SECONDS, as on fray serve (src/serve's
 * watch): without them a game's odds of a melee of 1000 figures a side
 * held the worker, and every request behind it, for minutes. The library
 * calls progress often (every 65,536 paths of a walk) and stops on the
 * watch's stop; the page's Stop terminates the worker (transport.js). */
static unsigned run_seconds = FRAY_API_RUN_SECONDS, job_seconds = FRAY_API_JOB_SECONDS;

typedef struct {
	double start_ms, limit_ms;
	bool post;  /* a job's progress goes to the page; a request's is not watched */
	bool timed_out;
	volatile sig_atomic_t stop;
} wasm_watch;

static void on_progress(uint64_t done, uint64_t total, void *ud)
{
	wasm_watch *w = ud;
	if (w->post)
		wasm_progress((double)done, (double)total);
	if (!w->stop && emscripten_get_now() - w->start_ms > w->limit_ms) {
		w->timed_out = true;
		w->stop = 1;
	}
}

static fray_request_opts watch_start(wasm_watch *w, const char *path)
{
	bool job = path && !strcmp(path, "api/v1/jobs");
	*w = (wasm_watch){.start_ms = emscripten_get_now(), .limit_ms = 1000.0 * (job ? job_seconds : run_seconds),
			  .post = job};
	return (fray_request_opts){.stop = &w->stop, .progress = on_progress, .ud = w};
}

/* A request stopped by its budget: the answer says so, as fray serve's
 * does (a game's as its JSON {"error": ...}). */
static char *past_budget(const wasm_watch *w, const char *path, char *answer)
{
	char msg[160];
	snprintf(msg, sizeof msg, "stopped after %.0f s, this page's time budget for one request "
		 "(fewer trials, or a smaller budget, will fit)", w->limit_ms / 1000.0);
	(void)path; /* every failure is JSON {"error"}, a run's as a game's */
	char *out = malloc(strlen(msg) + 16);
	if (!out)
		return answer; /* the library's own answer, then */
	sprintf(out, "{\"error\": \"%s\"}\n", msg);
	free(answer);
	return out;
}

/* For tests (tests/site/wasm_node_test.js): the budgets in seconds, 0
 * for the default (fray serve's). */
EMSCRIPTEN_KEEPALIVE void fray_wasm_set_time_budgets(unsigned run, unsigned job)
{
	run_seconds = run ? run : FRAY_API_RUN_SECONDS;
	job_seconds = job ? job : FRAY_API_JOB_SECONDS;
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
	wasm_watch w;
	fray_request_opts watch = watch_start(&w, path);
	char *answer;
	bool is_message;
	/* a double from JavaScript's number: past SIZE_MAX (or not a count) is past every budget */
	size_t n = len >= 0 && len < (double)SIZE_MAX ? (size_t)len : SIZE_MAX;
	last_status = (int)fray_api_call_len(path, body, n, &watch, &answer, &is_message);
	if (w.timed_out && answer && last_status != 200)
		answer = past_budget(&w, path, answer);
	last_length = answer ? (double)strlen(answer) : 0;
	return answer;
}

/* The most bytes a body to path may have (fray_api_max_body), for the
 * worker to check before it copies a body into this module's memory. */
EMSCRIPTEN_KEEPALIVE double fray_wasm_max_body(const char *path)
{
	return (double)fray_api_max_body(path);
}

/* The last answer's length in bytes, without its NUL: the worker decodes
 * exactly those (TextDecoder over the heap) instead of looking for the
 * NUL a byte at a time in JavaScript, as UTF8ToString does. */
EMSCRIPTEN_KEEPALIVE double fray_wasm_length(void)
{
	return last_length;
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
