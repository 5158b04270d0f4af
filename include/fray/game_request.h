/* The game through one JSON door (docs/json/game-request.md): a request
 * in, an answer out, nothing kept between two calls. The game file's text
 * travels in the request ("game") and the new text comes back in the
 * answer, so a caller that keeps the game (a web page) holds exactly the
 * file `fray table` reads and writes. Every op goes through
 * include/fray/game.h; no file is read, nothing is printed, no question
 * goes to a terminal: a choice the rules leave to a player is answered
 * from the request's "choices", or comes back as a question.
 *
 *   {"op": "new", "rules": "presidio", "forces": "...", "seed": 7}
 *   {"op": "status" | "units" | "undo" | "report", "game": "..."}
 *   {"op": "log", "game": "...", "format": "text" | "json" | "markdown"}
 *   {"op": "odds" | "apply", "game": "...", "action": "shoot", "actor": "Presidials",
 *    "target": "Apaches", "options": {"range": 10}, "choices": ["fire"]}
 */
#ifndef FRAY_GAME_REQUEST_H
#define FRAY_GAME_REQUEST_H

#include <stddef.h>
#include <fray/ctx.h>
#include <fray/catalog.h>
#include <fray/data.h>
#include <fray/game.h>

/* Budgets: a request is at most FRAY_GAME_REQUEST_MAX_BYTES (the JSON
 * reader's own limit), the game file in it at most
 * FRAY_GAME_REQUEST_MAX_GAME bytes (a game file's limit,
 * FRAY_GAME_MAX_BYTES: docs/table.md; FRAY_ERR_LIMIT past it),
 * an action at most FRAY_GAME_REQUEST_MAX_OPTIONS option words and
 * FRAY_GAME_REQUEST_MAX_CHOICES answers. */
#define FRAY_GAME_REQUEST_MAX_BYTES FRAY_DOC_MAX_BYTES
#define FRAY_GAME_REQUEST_MAX_GAME FRAY_GAME_MAX_BYTES
#define FRAY_GAME_REQUEST_MAX_OPTIONS 32
#define FRAY_GAME_REQUEST_MAX_CHOICES 8

/* Answers request (len bytes of JSON). *answer (malloc'd, free() it) is
 * the JSON answer, always an object: on success the op's answer; on
 * failure {"error": "..."} (and, when the action needs a player's choice
 * that "choices" did not give, "question": {"kind", "prompt", "options",
 * "suggested"}), with the status returned and the message on ctx as
 * well: FRAY_ERR_INPUT for a bad request, a game file that does not read
 * or an action the rules refuse; FRAY_ERR_LIMIT past a budget;
 * FRAY_ERR_NOMEM (*answer may then be NULL). */
fray_status fray_game_request(fray_ctx *ctx, const char *request, size_t len, char **answer);
/* The same within budgets: opts (NULL: none but the engine's) gives an
 * odds op's exact odds their path and memory budgets (max_paths,
 * max_bytes; 0: the engine's) and stop, progress and ud as
 * fray_request_with takes them (past a budget or stopped:
 * FRAY_ERR_BUDGET). Its flags and max_trials are not used. fray serve and
 * the WebAssembly build answer api/v1/game through it (fray_api_call). */
fray_status fray_game_request_with(fray_ctx *ctx, const char *request, size_t len, const fray_request_opts *opts,
				   char **answer);

#endif
