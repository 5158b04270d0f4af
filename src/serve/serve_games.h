/* The games fray serve keeps, as HTTP answers (issue 43 item 1;
 * docs/serve.md, "Games on the server"):
 *
 *   GET  api/v1/games                    {"games": [{"name", "rules", "turn", "version"}]}
 *   GET  api/v1/games/NAME               the game: {"name", "version", "game" (its text)}
 *   POST api/v1/games/NAME[?version=V]   an op of docs/json/game-request.md without "game": the server
 *                                        puts in the stored one. "new" makes the game (409 if it
 *                                        exists); "apply", "undo" and "play" change it and need the version
 *                                        they were made against (409 "the game changed" with what
 *                                        happened since when it is not the game's); the others read.
 *   GET  api/v1/games/NAME/qr.svg        fray serve --lan: the QR code of the game's own address
 *                                        (the shared URL's game.html#shared=NAME), "Pass it on"
 *                                        on the game screen; 404 on this machine alone
 *   GET  api/v1/games/NAME/events?after=V   held (long polling) until the game's version passes V,
 *                                        at most SERVE_HOLD_S: {"name", "version"}
 *
 * serve_games_route answers on the HTTP thread what needs no file (the
 * method, the name, the type), and gives the rest to a worker
 * (serve_games_work) or, for events, to the server's holds (serve_http.c),
 * which answer with serve_games_event. The files are serve_store.h's. */
#ifndef FRAY_SERVE_GAMES_H
#define FRAY_SERVE_GAMES_H

#include "serve_handler.h"
#include "serve_store.h"

#define SERVE_HOLD_S 20          /* an events request is held at most this long, then answered as it is */
#define SERVE_HOLDS 32           /* held at once, half the connection pool: the rest for everything else */
#define SERVE_HOLDS_PER_CLIENT 8 /* held at once for one address (three browsers on a laptop, two games each) */

/* rest: the path after "api/v1/games" ("", "/NAME", "/NAME/events");
 * query: what follows the path's '?' ("" when none). */
void serve_games_route(serve_store *s, const char *method, const char *rest, const char *query, const char *ctype,
		       const char *body, size_t len, bool too_big, serve_reply *out);
/* api/v1/games/NAME/qr.svg (rest: the path after "api/v1/games"): true
 * when rest is one, answered in *out; false: not one, out untouched. */
bool serve_games_qr(const serve_conf *conf, const char *method, const char *rest, serve_reply *out);
/* A worker's part (serve_reply's work): text as serve_games_route made it. */
void serve_games_work(void *store, const char *text, serve_watch *w, serve_reply *out);
/* The answer to an events request once its hold ends: {"name", "version"}
 * (404 when the game is gone). */
void serve_games_event(serve_store *s, const char *name, serve_reply *out);

#endif
