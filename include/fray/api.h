/* The page's API in one function: a request's path and body to its answer,
 * with the budgets fray serve and the WebAssembly build share, so the page
 * gets the same bytes from either. Each transport keeps what is its own:
 * fray serve its HTTP (methods, Host, body sizes), threads, jobs and time
 * budgets (src/serve/); the browser its worker's entry point
 * (src/wasm/fray_wasm.c). docs/serve.md lists the paths and budgets. */
#ifndef FRAY_API_H
#define FRAY_API_H

#include <stdbool.h>
#include <stddef.h>
#include <fray/catalog.h>
#include <fray/game.h>

/* A request's body, whoever calls (fray serve answers 413 past it before
 * reading more; the WebAssembly worker before copying it): 64 KiB, and for
 * api/v1/game the game's own budget as its request carries it, a JSON
 * string of at most twice FRAY_GAME_MAX_BYTES (include/fray/game.h), plus
 * 64 KiB for the request's other fields: 4 MiB, what the JSON reader takes
 * (FRAY_GAME_REQUEST_MAX_BYTES). So every game that reads can be sent
 * again: an action whose game would pass its budget is refused (422,
 * nothing applied), and the game is never stranded past the door. */
#define FRAY_API_MAX_BODY (64u << 10)
#define FRAY_API_MAX_GAME_BODY (2 * FRAY_GAME_MAX_BYTES + FRAY_API_MAX_BODY)
/* exact odds' memory, a request or a job */
#define FRAY_API_ODDS_BYTES (256ull << 20)
/* a job's budgets (api/v1/run's are FRAY_REQUEST_QUICK's) */
#define FRAY_API_JOB_TRIALS 1000000u
#define FRAY_API_JOB_PATHS 20000000u
/* the time budgets, in seconds: api/v1/run and a game's odds, and a job.
 * Kept by the caller (fray serve's watch, the WebAssembly build's door),
 * which sets the watch's stop past them: the same on both transports */
#define FRAY_API_RUN_SECONDS 10u
#define FRAY_API_JOB_SECONDS 120u

/* The answer to body (NUL-terminated JSON; NULL: empty) at path:
 *   "api/v1/procedures"  the catalogue (fray_procedures_json)
 *   "api/v1/examples"    {"examples": [...], "forces": [...]}: the shipped
 *                        files a file input may name, and a new game's
 *   "api/v1/run"         fray_request_with, no files, quick budgets
 *   "api/v1/jobs"        the same with a job's budgets
 *   "api/v1/game"        fray_game_request_with, an odds op within a
 *                        quick run's budgets (paths, memory)
 * watch (NULL: none) gives stop, progress and ud for the work of a run, a
 * job or a game's odds; its budgets are set here. Returns the HTTP
 * status: 200, 404 for another path, or the failure's (fray_api_status).
 * *answer (malloc'd, free() it) is the answer; on failure the JSON
 * {"error": message, "input": name} (docs/json/error.schema.json; "input"
 * when the failure is about one input: fray_ctx_input) for api/v1/run,
 * api/v1/jobs and api/v1/game (with its "question"), *is_message false; the
 * message alone, *is_message true, for any other failure (a refusal before
 * any work, below; api/v1/procedures; api/v1/game out of memory). *answer
 * NULL: out of memory (503). Refused before any work: a body longer than
 * fray_api_max_body(path), 413 and the message (the budget named); a NULL
 * path, 400 and the message; a NULL answer or is_message, 400 and nothing
 * written. */
unsigned fray_api_call(const char *path, const char *body, const fray_request_opts *watch, char **answer,
		       bool *is_message);
/* The same for a body of len bytes, NUL-terminated at body[len], for a
 * caller that knows the length before it has the bytes (the WebAssembly
 * worker): len past fray_api_max_body(path) is answered 413 before body
 * is looked at (body may then be NULL, so nothing need be copied to be
 * refused); a NUL within the len bytes is refused (400). */
unsigned fray_api_call_len(const char *path, const char *body, size_t len, const fray_request_opts *watch,
			   char **answer, bool *is_message);
/* The most bytes a body to path may have: FRAY_API_MAX_GAME_BODY for
 * "api/v1/game", FRAY_API_MAX_BODY for any other path (NULL too). */
size_t fray_api_max_body(const char *path);
/* The HTTP status of a failure: 400 for bad input, 422 past a budget, 503
 * out of memory, 500 else (200 for FRAY_OK). */
unsigned fray_api_status(fray_status st);

#endif
