/* The games fray serve keeps, as HTTP answers (serve_games.h). Every op
 * is the game's own, through fray_api_call's api/v1/game (the same door,
 * budgets and answers as the page's local game): this file only puts the
 * stored game into the request and the changed game back in its file,
 * under the game's lock, with its version. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fray/fray.h>
#include <fray/api.h>
#include "serve_games.h"

/* ---- JSON text ---- */

/* s as a JSON string literal, malloc'd (NULL: out of memory). */
static char *json_str(const char *s)
{
	size_t n = fray_json_string(s, NULL, 0) + 1;
	char *q = malloc(n);
	if (q)
		fray_json_string(s, q, n);
	return q;
}

/* The object text obj with members (`"a": 1, "b": 2`, no braces) put
 * first: malloc'd, NULL when out of memory or obj is no object. */
static char *with_members(const char *members, const char *obj)
{
	obj += strspn(obj, " \t\r\n");
	if (*obj != '{')
		return NULL;
	const char *rest = obj + 1 + strspn(obj + 1, " \t\r\n");
	size_t n = strlen(members) + strlen(rest) + 8;
	char *out = malloc(n);
	if (out)
		snprintf(out, n, "{%s%s%s", members, *rest == '}' ? "" : ", ", rest);
	return out;
}

/* A member's scalar in a parsed object, or NULL. */
static const char *member(const fray_doc *doc, const char *key)
{
	const fray_node *n = fray_map_get(fray_doc_root(doc), key);
	return n && fray_node_kind_of(n) == FRAY_NODE_SCALAR ? fray_node_scalar(n) : NULL;
}

static fray_doc *parse(fray_ctx *ctx, const char *text)
{
	fray_doc *doc = NULL;
	if (fray_doc_load_string(ctx, "answer", text, strlen(text), &doc) != FRAY_OK ||
	    fray_node_kind_of(fray_doc_root(doc)) != FRAY_NODE_MAP) {
		fray_doc_free(doc);
		return NULL;
	}
	return doc;
}

/* ---- on the HTTP thread: the route ---- */

/* The number after key= in query, or -1 when absent, not a number from 0
 * to SERVE_VERSION_MAX, or given twice (which one would be meant?). */
static long long query_number(const char *query, const char *key)
{
	size_t k = strlen(key);
	long long found = -1;
	bool seen = false;
	for (const char *p = query; p && *p; p = strchr(p, '&') ? strchr(p, '&') + 1 : NULL) {
		if (!strncmp(p, key, k) && p[k] == '=') {
			if (seen)
				return -1;
			seen = true;
			const char *d = p + k + 1;
			size_t n = strspn(d, "0123456789");
			char *end;
			errno = 0;
			long long v = n && n <= 16 ? strtoll(d, &end, 10) : -1;
			found = v >= 0 && !errno && end == d + n && (*end == 0 || *end == '&') && v <= SERVE_VERSION_MAX
					? v : -1;
		}
	}
	return found;
}

static const char bad_name[] = "a game's name is a short word: 1 to 32 of a-z, 0-9, - and _, "
			       "starting with a letter or a digit";

static void to_worker(char *text, serve_store *s, serve_reply *out)
{
	if (!text) {
		serve_reply_error(out, 503, "out of memory");
		return;
	}
	out->status = 0;
	out->compute = text;
	out->work = serve_games_work;
	out->work_ctx = s;
}

void serve_games_route(serve_store *s, const char *method, const char *rest, const char *query, const char *ctype,
		       const char *body, size_t len, bool too_big, serve_reply *out)
{
	if (!s) {
		serve_reply_error(out, 404, "no games on this server");
		return;
	}
	bool get = !strcmp(method, "GET"), post = !strcmp(method, "POST");
	if (!*rest || !strcmp(rest, "/")) {
		if (!get)
			serve_reply_error(out, 405, "api/v1/games takes GET");
		else
			to_worker(strdup("L\n"), s, out);
		return;
	}
	char name[SERVE_GAME_NAME_MAX + 2];
	size_t n = strcspn(rest + 1, "/");
	const char *tail = rest + 1 + n;
	if (n >= sizeof name || (memcpy(name, rest + 1, n), name[n] = 0, !serve_game_name_ok(name))) {
		serve_reply_error(out, 400, bad_name);
		return;
	}
	if (!strcmp(tail, "/events")) {
		long long after = query_number(query, "after");
		if (!get)
			serve_reply_error(out, 405, "a game's events take GET");
		else if (after < 0)
			serve_reply_error(out, 400, "events: give the version you have, ?after=V");
		else {
			snprintf(out->hold, sizeof out->hold, "%s", name);
			out->hold_after = after;
		}
		return;
	}
	if (*tail) {
		serve_reply_error(out, 404, "no such page");
		return;
	}
	if (get) {
		size_t cap = strlen(name) + 8;
		char *text = malloc(cap);
		if (text)
			snprintf(text, cap, "G %s\n", name);
		to_worker(text, s, out);
		return;
	}
	if (!post)
		serve_reply_error(out, 405, "a game takes GET or POST");
	else if (too_big || len > SERVE_MAX_BODY)
		serve_reply_error(out, 413, "a request to a kept game has at most 64 KiB (the game is the server's)");
	else if (!serve_json_type(ctype))
		serve_reply_error(out, 415, "a request is application/json");
	else if (memchr(body, 0, len))
		serve_reply_error(out, 400, "request: a NUL byte in the body");
	else {
		size_t cap = len + strlen(name) + 40;
		char *text = malloc(cap);
		if (text) {
			int head = snprintf(text, cap, "P %s %lld\n", name, query_number(query, "version"));
			memcpy(text + head, body, len);
			text[head + (int)len] = 0;
		}
		to_worker(text, s, out);
	}
}

bool serve_games_qr(const serve_conf *conf, const char *method, const char *rest, serve_reply *out)
{
	static const char tail[] = "/qr.svg";
	size_t n = strlen(rest), t = sizeof tail - 1;
	if (n <= t + 1 || *rest != '/' || strcmp(rest + n - t, tail) != 0 || memchr(rest + 1, '/', n - t - 1))
		return false;
	char name[SERVE_GAME_NAME_MAX + 2];
	if (n - t - 1 >= sizeof name) {
		serve_reply_error(out, 400, bad_name);
		return true;
	}
	memcpy(name, rest + 1, n - t - 1);
	name[n - t - 1] = 0;
	if (strcmp(method, "GET") != 0)
		serve_reply_error(out, 405, "a game's QR code takes GET");
	else if (!serve_game_name_ok(name))
		serve_reply_error(out, 400, bad_name);
	else if (!conf->games)
		serve_reply_error(out, 404, "no games on this server");
	else if (!conf->share_url || !conf->qr_of)
		serve_reply_error(out, 404, "no QR code: this server is for this machine alone (fray serve --lan)");
	else {
		/* the address only: whether the game is kept is the file's, read
		 * on a worker; the page asks for the code of the game it has open */
		char url[512];
		snprintf(url, sizeof url, "%sgame.html#shared=%s", conf->share_url, name);
		serve_reply_text(out, 200, "image/svg+xml", conf->qr_of(url));
	}
	return true;
}

/* ---- on a worker: the files and the game's door ---- */

/* fray_api_call's api/v1/game on request, within w's budgets: its status,
 * *answer its JSON (NULL: out of memory). */
static unsigned game_call(const char *request, serve_watch *w, char **answer)
{
	fray_request_opts watch = {0};
	serve_watch_attach(w, &watch);
	bool failed;
	unsigned status = fray_api_call("api/v1/game", request, &watch, answer, &failed);
	if (failed) {
		free(*answer);
		*answer = NULL;
	}
	if (w->timed_out) {
		free(*answer);
		*answer = NULL;
		return 503;
	}
	return status;
}

/* The request for the stored game: {"game": TEXT, and the op's members}. */
static char *request_for(const char *game, const char *op_object)
{
	char *g = json_str(game);
	if (!g)
		return NULL;
	size_t n = strlen(g) + 16;
	char *members = malloc(n);
	char *req = NULL;
	if (members) {
		snprintf(members, n, "\"game\": %s", g);
		req = with_members(members, op_object);
	}
	free(members);
	free(g);
	return req;
}

/* The answer with the game's name and version put first. */
static void reply_with_version(serve_reply *out, unsigned status, const char *name, long long version, char *answer)
{
	char members[96];
	snprintf(members, sizeof members, "\"name\": \"%s\", \"version\": %lld", name, version);
	char *body = answer ? with_members(members, answer) : NULL;
	free(answer);
	serve_reply_text(out, status, "application/json", body);
}

static void reply_failed(serve_reply *out, unsigned status, char *answer, serve_watch *w)
{
	if (answer)
		serve_reply_text(out, status, "application/json", answer);
	else
		serve_reply_error(out, status == 503 && w->timed_out ? 503 : status,
				  w->timed_out ? serve_watch_message(w, "") : "out of memory");
}

/* A change refused: the game is at another version than the one the
 * action was made against. What happened since, oldest first. */
static void reply_changed(serve_reply *out, const serve_held *h, long long against)
{
	size_t cap = 512 + SERVE_GAME_HISTORY * (2 * SERVE_GAME_WHAT * 6 + 64), n;
	char *body = malloc(cap);
	if (!body) {
		serve_reply_error(out, 503, "out of memory");
		return;
	}
	n = (size_t)snprintf(body, cap, "{\"error\": \"the game changed: it is at version %lld, this was made "
			     "against version %lld; look again and choose again\", \"version\": %lld, \"since\": [",
			     h->version, against, h->version);
	bool first = true, all = false;
	for (size_t i = h->nhistory; i-- > 0;) {
		if (h->history[i].version <= against)
			continue;
		all |= h->history[i].version == against + 1;
		char *what = json_str(h->history[i].what);
		n += (size_t)snprintf(body + n, cap - n, "%s{\"version\": %lld, \"what\": %s}", first ? "" : ", ",
				      h->history[i].version, what ? what : "\"\"");
		free(what);
		first = false;
	}
	snprintf(body + n, cap - n, "], \"all\": %s}\n", all || against >= h->version ? "true" : "false");
	serve_reply_text(out, 409, "application/json", body);
}

/* What an op did, in words, for the versions' history. */
static void change_words(const fray_doc *req, const char *op, char *what, size_t cap)
{
	if (!strcmp(op, "undo")) {
		snprintf(what, cap, "undo: the last action taken back");
		return;
	}
	if (!strcmp(op, "play")) {
		snprintf(what, cap, "fray plays %s", member(req, "side") ? member(req, "side") : "a side");
		return;
	}
	const char *action = member(req, "action"), *actor = member(req, "actor"), *target = member(req, "target");
	if (actor && target)
		snprintf(what, cap, "%s: %s at %s", actor, action ? action : "?", target);
	else if (actor)
		snprintf(what, cap, "%s: %s", actor, action ? action : "?");
	else
		snprintf(what, cap, "%s", action ? action : op);
}

/* GET api/v1/games/NAME: the game's text and its version, nothing
 * computed: every phone asks it at each change (its status and units are
 * api/v1/game's ops on the text, or this path's POST). */
static void get_game(serve_store *s, const char *name, serve_reply *out)
{
	serve_held h;
	char msg[256];
	unsigned st = serve_store_open(s, name, &h, msg, sizeof msg);
	if (st) {
		serve_reply_error(out, st, msg);
		return;
	}
	char *game = json_str(h.text);
	long long version = h.version;
	serve_store_close(&h);
	size_t n = game ? strlen(game) + 128 : 0;
	char *body = game ? malloc(n) : NULL;
	if (body)
		snprintf(body, n, "{\"name\": \"%s\", \"version\": %lld, \"game\": %s}\n", name, version, game);
	free(game);
	serve_reply_text(out, 200, "application/json", body);
}

/* GET api/v1/games: each game's name, rules, turn and version. */
static void list_games(serve_store *s, serve_watch *w, serve_reply *out)
{
	char (*all)[SERVE_GAME_NAME_MAX + 1] = malloc(SERVE_GAMES_MAX * sizeof *all);
	size_t cap = 64 + SERVE_GAMES_MAX * 200, n;
	char *body = malloc(cap);
	fray_ctx *ctx = fray_ctx_new(NULL, NULL);
	if (!all || !body || !ctx) {
		free(all);
		free(body);
		fray_ctx_free(ctx);
		serve_reply_error(out, 503, "out of memory");
		return;
	}
	size_t count = serve_store_list(s, all, SERVE_GAMES_MAX);
	n = (size_t)snprintf(body, cap, "{\"games\": [");
	bool first = true;
	for (size_t i = 0; i < count; i++) {
		serve_held h;
		char msg[256];
		if (serve_store_open(s, all[i], &h, msg, sizeof msg))
			continue; /* gone meanwhile, or held: not listed this time */
		char *req = request_for(h.text, "{\"op\": \"status\"}"), *answer = NULL;
		long long version = h.version;
		serve_store_close(&h);
		unsigned status = req ? game_call(req, w, &answer) : 503;
		free(req);
		fray_doc *doc = status == 200 && answer ? parse(ctx, answer) : NULL;
		const char *rules = doc ? member(doc, "rules") : NULL, *turn = doc ? member(doc, "turn") : NULL;
		n += (size_t)snprintf(body + n, cap - n, "%s{\"name\": \"%s\", \"rules\": \"%s\", \"turn\": %s, "
				      "\"version\": %lld}", first ? "" : ", ", all[i], rules ? rules : "?",
				      turn && strspn(turn, "0123456789") == strlen(turn) && *turn ? turn : "null", version);
		first = false;
		fray_doc_free(doc);
		free(answer);
	}
	snprintf(body + n, cap - n, "]}\n");
	free(all);
	fray_ctx_free(ctx);
	serve_reply_text(out, 200, "application/json", body);
}

/* POST api/v1/games/NAME: op (the body, parsed as req) on the stored game. */
static void post_game(serve_store *s, const char *name, long long against, const char *body, serve_watch *w,
		      serve_reply *out)
{
	fray_ctx *ctx = fray_ctx_new(NULL, NULL);
	fray_doc *req = NULL;
	if (!ctx || fray_doc_load_string(ctx, "request", body, strlen(body), &req) != FRAY_OK) {
		serve_reply_error(out, ctx ? 400 : 503, ctx ? fray_ctx_message(ctx) : "out of memory");
		fray_ctx_free(ctx);
		return;
	}
	const char *op = member(req, "op");
	const char *first = body + strspn(body, " \t\r\n");
	char msg[256], what[SERVE_GAME_WHAT];
	if (fray_node_kind_of(fray_doc_root(req)) != FRAY_NODE_MAP || *first != '{')
		serve_reply_error(out, 400, "request: a JSON object, as docs/json/game-request.md has it");
	else if (!op)
		serve_reply_error(out, 400, "request: \"op\" is needed");
	else if (fray_map_get(fray_doc_root(req), "game"))
		serve_reply_error(out, 400, "request: no \"game\": the server keeps it (its name is in the path)");
	else if (!strcmp(op, "new")) {
		char *answer = NULL;
		unsigned status = game_call(body, w, &answer);
		fray_doc *ans = status == 200 && answer ? parse(ctx, answer) : NULL;
		const char *game = ans ? member(ans, "game") : NULL;
		if (status != 200 || !game) {
			fray_doc_free(ans);
			reply_failed(out, status == 200 ? 503 : status, answer, w);
		} else {
			snprintf(what, sizeof what, "made: %s", member(req, "rules") ? member(req, "rules") : "a game");
			unsigned st = serve_store_create(s, name, game, strlen(game), what, msg, sizeof msg);
			fray_doc_free(ans);
			if (st) {
				free(answer);
				serve_reply_error(out, st, msg);
			} else {
				reply_with_version(out, 200, name, 1, answer);
			}
		}
	} else {
		/* play (issue 44): fray's move for a side, a change as a player's is */
		bool changes = !strcmp(op, "apply") || !strcmp(op, "undo") || !strcmp(op, "play");
		serve_held h;
		unsigned st = serve_store_open(s, name, &h, msg, sizeof msg);
		if (st)
			serve_reply_error(out, st, msg);
		else if (changes && against < 0)
			serve_reply_error(out, 400, "a change names the version of the game it was made against: "
					  "?version=V (GET the game for it)");
		else if (changes && against != h.version)
			reply_changed(out, &h, against);
		else {
			char *request = request_for(h.text, body), *answer = NULL;
			long long version = h.version;
			if (!changes) /* a reading op holds no lock while it works (odds may take seconds) */
				serve_store_close(&h);
			unsigned status = request ? game_call(request, w, &answer) : 503;
			free(request);
			fray_doc *ans = changes && status == 200 && answer ? parse(ctx, answer) : NULL;
			const char *game = ans ? member(ans, "game") : NULL;
			if (status != 200 || !answer || (changes && !game)) {
				reply_failed(out, status == 200 ? 503 : status, answer, w);
			} else if (!changes) {
				reply_with_version(out, 200, name, version, answer);
			} else {
				change_words(req, op, what, sizeof what);
				if ((st = serve_store_write(s, name, &h, game, strlen(game), what, msg, sizeof msg))) {
					free(answer);
					serve_reply_error(out, st, msg);
				} else {
					reply_with_version(out, 200, name, h.version, answer);
				}
			}
			fray_doc_free(ans);
		}
		serve_store_close(&h);
	}
	fray_doc_free(req);
	fray_ctx_free(ctx);
}

void serve_games_work(void *store, const char *text, serve_watch *w, serve_reply *out)
{
	memset(out, 0, sizeof *out);
	serve_store *s = store;
	char name[SERVE_GAME_NAME_MAX + 1] = "";
	long long version = -1;
	const char *body = strchr(text, '\n');
	body = body ? body + 1 : "";
	if (text[0] == 'L')
		list_games(s, w, out);
	else if (text[0] == 'G' && sscanf(text, "G %32s", name) == 1)
		get_game(s, name, out);
	else if (text[0] == 'P' && sscanf(text, "P %32s %lld", name, &version) == 2)
		post_game(s, name, version, body, w, out);
	else
		serve_reply_error(out, 500, "internal error: a games' request the route did not make");
}

void serve_games_event(serve_store *s, const char *name_in, serve_reply *out)
{
	/* the name may live in *out (a held request's r->hold): copied before
	 * out is cleared, or every answer at once was a 404 */
	char name[SERVE_GAME_NAME_MAX + 1];
	snprintf(name, sizeof name, "%s", name_in);
	memset(out, 0, sizeof *out);
	long long v = serve_store_version_now(s, name);
	if (v < 0) {
		serve_reply_error(out, 404, "no such game (deleted?)");
		return;
	}
	char *body = malloc(96);
	if (body)
		snprintf(body, 96, "{\"name\": \"%s\", \"version\": %lld}\n", name, v);
	serve_reply_text(out, 200, "application/json", body);
}
