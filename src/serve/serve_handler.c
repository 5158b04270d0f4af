/* fray serve's answers (serve_handler.h): the page's files, the catalogue
 * and fray_request, which reads no files and keeps each request's work
 * small (FRAY_REQUEST_NO_FILES | FRAY_REQUEST_QUICK). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdatomic.h>
#include <sys/random.h>
#include <fray/fray.h>
#include <fray/api.h>
#include <fray/game_request.h>
#include "serve_handler.h"
#include "serve_games.h"
#include "serve_jobs.h"
#include "embedded.h"

extern const embedded_file serve_page_files[];

/* ---- shared answers and the memory budget ---- */

struct serve_answer {
	atomic_size_t refs;
	size_t len;
	char *body;
};

static atomic_size_t memory_used;
static size_t memory_budget = SERVE_MEMORY_BUDGET;
static char budget_refusal[256];

void serve_memory_set_budget(unsigned mib)
{
	memory_budget = (size_t)mib << 20;
	budget_refusal[0] = 0;
}

size_t serve_memory_budget(void)
{
	return memory_budget;
}

const char *serve_budget_refusal(void)
{
	if (!budget_refusal[0]) /* set once, before any thread asks */
		snprintf(budget_refusal, sizeof budget_refusal,
			 "{\"error\": \"busy: the answers this server holds are at its memory budget (%zu MiB); "
			 "read or delete a finished job, or ask again soon\"}\n", memory_budget >> 20);
	return budget_refusal;
}

/* Counts n bytes against the budget; false (nothing counted) past it. */
static bool memory_take(size_t n)
{
	size_t used = atomic_load(&memory_used);
	do {
		if (n > memory_budget || used > memory_budget - n)
			return false;
	} while (!atomic_compare_exchange_weak(&memory_used, &used, used + n));
	return true;
}

size_t serve_memory_used(void)
{
	return atomic_load(&memory_used);
}

serve_answer *serve_answer_new(char *body, size_t len)
{
	serve_answer *a = body ? malloc(sizeof *a) : NULL;
	if (!a || !memory_take(len + sizeof *a)) {
		free(a);
		free(body);
		return NULL;
	}
	atomic_init(&a->refs, 1);
	a->len = len;
	a->body = body;
	return a;
}

serve_answer *serve_answer_ref(serve_answer *a)
{
	if (a)
		atomic_fetch_add(&a->refs, 1);
	return a;
}

void serve_answer_unref(serve_answer *a)
{
	if (!a || atomic_fetch_sub(&a->refs, 1) != 1)
		return;
	atomic_fetch_sub(&memory_used, a->len + sizeof *a);
	free(a->body);
	free(a);
}

const char *serve_answer_bytes(const serve_answer *a)
{
	return a->body;
}

size_t serve_answer_len(const serve_answer *a)
{
	return a->len;
}

bool serve_same_secret(const char *a, const char *b, size_t n)
{
	volatile unsigned char diff = 0;
	for (size_t i = 0; i < n; i++)
		diff |= (unsigned char)(a[i] ^ b[i]);
	return diff == 0;
}

bool serve_path_allowed(const serve_conf *conf, const char *url)
{
	size_t np = strlen(conf->prefix);
	/* the length first (no read past url's end), then every byte alike */
	return url && strnlen(url, np) == np && serve_same_secret(url, conf->prefix, np);
}

void serve_reply_text(serve_reply *out, unsigned status, const char *type, char *body)
{
	out->status = status;
	out->type = type;
	out->body = body;
	out->bytes = NULL;
	out->len = body ? strlen(body) : 0;
	if (!body) { /* out of memory: a reply all the same */
		out->status = 503;
		out->type = "application/json";
		out->bytes = (const unsigned char *)"{\"error\": \"out of memory\"}";
		out->len = strlen((const char *)out->bytes);
	}
}

/* {"error": msg} with its status. */
void serve_reply_error(serve_reply *out, unsigned status, const char *msg)
{
	size_t cap = 8 * strlen(msg) + 32;
	char *body = malloc(cap);
	if (body) {
		char *q = malloc(cap);
		if (q && fray_json_string(msg, q, cap) < cap)
			snprintf(body, cap, "{\"error\": %s}\n", q);
		else
			snprintf(body, cap, "{\"error\": \"(unprintable)\"}\n");
		free(q);
	}
	serve_reply_text(out, status, "application/json", body);
}

static const char *type_of(const char *path)
{
	const char *dot = strrchr(path, '.');
	if (dot && !strcmp(dot, ".js"))
		return "text/javascript; charset=utf-8";
	if (dot && !strcmp(dot, ".css"))
		return "text/css; charset=utf-8";
	if (dot && !strcmp(dot, ".svg"))
		return "image/svg+xml";
	if (dot && !strcmp(dot, ".png"))
		return "image/png";
	if (dot && !strcmp(dot, ".webmanifest"))
		return "application/manifest+json";
	return "text/html; charset=utf-8";
}

static bool page_file(const char *name, serve_reply *out)
{
	char path[96];
	snprintf(path, sizeof path, "page/%s", *name ? name : "index.html");
	for (const embedded_file *f = serve_page_files; f->path; f++)
		if (!strcmp(f->path, path)) {
			out->status = 200;
			out->type = type_of(path);
			out->body = NULL;
			out->bytes = f->bytes;
			out->len = f->len;
			return true;
		}
	return false;
}

/* The catalogue: the same for every GET, so built once and shared (a
 * flood of GETs neither builds nor copies it again). */
static void catalogue(serve_reply *out)
{
	static _Atomic(serve_answer *) built;
	serve_answer *a = atomic_load(&built);
	if (!a) {
		char *json = NULL;
		bool failed;
		if (fray_api_call("api/v1/procedures", NULL, NULL, &json, &failed) != 200) {
			free(json);
			json = NULL;
		}
		if (!json) {
			serve_reply_text(out, 503, "application/json", NULL);
			return;
		}
		if (!(a = serve_answer_new(json, strlen(json)))) {
			out->status = 503;
			out->type = "application/json";
			out->bytes = (const unsigned char *)serve_budget_refusal();
			out->len = strlen(serve_budget_refusal());
			return;
		}
		serve_answer *first = NULL;
		if (!atomic_compare_exchange_strong(&built, &first, a)) { /* another thread's is kept */
			serve_answer_unref(a);
			a = first;
		}
	}
	out->status = 200;
	out->type = "application/json";
	out->shared = serve_answer_ref(a);
	out->len = serve_answer_len(a);
}

bool serve_json_type(const char *ct)
{
	if (!ct)
		return false;
	size_t n = strlen("application/json");
	return strncmp(ct, "application/json", n) == 0 && (ct[n] == 0 || ct[n] == ';');
}

unsigned serve_status_of(fray_status st)
{
	return fray_api_status(st);
}

char *serve_request_text(const char *body, size_t len, bool check_json, serve_reply *out)
{
	if (memchr(body, 0, len)) {
		serve_reply_error(out, 400, "request: a NUL byte in the body");
		return NULL;
	}
	char *text = malloc(len + 1);
	if (!text) {
		serve_reply_error(out, 503, "out of memory");
		return NULL;
	}
	memcpy(text, body, len);
	text[len] = 0;
	if (!check_json)
		return text;
	fray_ctx *ctx = fray_ctx_new(NULL, NULL);
	fray_doc *doc = NULL;
	fray_status st = ctx ? fray_doc_load_string(ctx, "request", text, len, &doc) : FRAY_ERR_NOMEM;
	if (st != FRAY_OK) {
		serve_reply_error(out, serve_status_of(st), ctx ? fray_ctx_message(ctx) : "out of memory");
		free(text);
		text = NULL;
	}
	fray_doc_free(doc);
	fray_ctx_free(ctx);
	return text;
}

bool serve_random_hex(char id[33])
{
	unsigned char r[16];
	size_t got = 0;
	while (got < sizeof r) {
		ssize_t n = getrandom(r + got, sizeof r - got, 0);
		if (n < 0 && errno != EINTR)
			return false;
		if (n > 0)
			got += (size_t)n;
	}
	for (int i = 0; i < 16; i++)
		snprintf(id + 2 * i, 3, "%02x", r[i]);
	return true;
}

/* ---- a request's watch ---- */

void serve_watch_start(serve_watch *w, unsigned seconds)
{
	w->stop = 0;
	w->timed_out = false;
	w->seconds = seconds;
	w->msg[0] = 0;
	clock_gettime(CLOCK_MONOTONIC, &w->start);
	atomic_init(&w->done, 0);
	atomic_init(&w->total, 0);
}

double serve_watch_seconds(const serve_watch *w)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - w->start.tv_sec) + (double)(now.tv_nsec - w->start.tv_nsec) / 1e9;
}

static void watch_progress(uint64_t done, uint64_t total, void *ud)
{
	serve_watch *w = ud;
	atomic_store(&w->done, done);
	atomic_store(&w->total, total);
	if (!w->stop && serve_watch_seconds(w) > w->seconds) {
		w->timed_out = true;
		w->stop = 1;
	}
}

void serve_watch_attach(serve_watch *w, fray_request_opts *ro)
{
	ro->stop = &w->stop;
	ro->progress = watch_progress;
	ro->ud = w;
}

void serve_watch_progress(serve_watch *w, uint64_t *done, uint64_t *total)
{
	*done = atomic_load(&w->done);
	*total = atomic_load(&w->total);
}

const char *serve_watch_message(serve_watch *w, const char *fray_msg)
{
	if (!w->timed_out)
		return fray_msg;
	snprintf(w->msg, sizeof w->msg, "stopped after %u s, this server's time budget for one request "
		 "(fewer trials, or a smaller budget, will fit)", w->seconds);
	return w->msg;
}

void serve_run_now(const char *text, serve_watch *w, serve_reply *out)
{
	memset(out, 0, sizeof *out);
	serve_watch own;
	if (!w)
		serve_watch_start(w = &own, SERVE_RUN_SECONDS);
	fray_request_opts watch = {0};
	serve_watch_attach(w, &watch);
	char *answer;
	bool failed;
	unsigned status = fray_api_call("api/v1/run", text, &watch, &answer, &failed);
	if (!answer) {
		serve_reply_error(out, 503, "out of memory");
	} else if (failed || (status != 200 && w->timed_out)) {
		serve_reply_error(out, status, serve_watch_message(w, answer));
		free(answer);
	} else { /* the answer, or the failure's {"error", "input"} */
		serve_reply_text(out, status, answer[0] == '{' ? "application/json" : "text/plain; charset=utf-8", answer);
	}
}

/* api/v1/run: the text, to be computed on a worker (not this thread). */
static void run(const char *body, size_t len, serve_reply *out)
{
	/* fray_request reads the JSON itself: no check first */
	char *text = serve_request_text(body, len, false, out);
	if (!text)
		return;
	out->status = 0;
	out->compute = text;
}

static size_t max_body_of_path(const char *path);

/* Whether a request to an API path is a POST of JSON within the size
 * budget; if not, the error is replied. */
static bool posted_json(const char *path, const char *method, const char *ctype, size_t len, bool too_big,
			serve_reply *out)
{
	char msg[64];
	snprintf(msg, sizeof msg, "%s takes POST", path);
	size_t max = max_body_of_path(path);
	if (strcmp(method, "POST") != 0)
		serve_reply_error(out, 405, msg);
	else if (too_big || len > max) {
		snprintf(msg, sizeof msg, "a request to %s has at most %zu KiB", path, max >> 10);
		serve_reply_error(out, 413, msg);
	}
	else if (!serve_json_type(ctype))
		serve_reply_error(out, 415, "a request is application/json");
	else
		return true;
	return false;
}

/* The most body bytes a request to path (the URL past the prefix) may send. */
static size_t max_body_of_path(const char *path)
{
	char exact[16] = ""; /* the path without its query or fragment (a longer one is not the game's) */
	size_t n = strcspn(path, "?#");
	if (n < sizeof exact)
		memcpy(exact, path, n);
	return fray_api_max_body(exact);
}

size_t serve_max_body(const serve_conf *conf, const char *url)
{
	/* the game's path exactly, within the prefix: not any URL that ends
	 * in it (/x/api/v1/game, a job's /api/v1/jobs/api/v1/game), whose
	 * 1 MiB would be read only to answer 404 or 405 */
	if (!serve_path_allowed(conf, url))
		return SERVE_MAX_BODY;
	return max_body_of_path(url + strlen(conf->prefix));
}

void serve_game_now(const char *text, serve_watch *w, serve_reply *out)
{
	memset(out, 0, sizeof *out);
	serve_watch own;
	if (!w)
		serve_watch_start(w = &own, SERVE_RUN_SECONDS);
	fray_request_opts watch = {0};
	serve_watch_attach(w, &watch);
	char *answer;
	bool failed;
	unsigned status = fray_api_call("api/v1/game", text, &watch, &answer, &failed);
	if (w->timed_out) { /* the game's {"error"} says it stopped; the budget's message says why */
		free(answer);
		serve_reply_error(out, status, serve_watch_message(w, ""));
		return;
	}
	if (failed) { /* no JSON answer: out of memory */
		free(answer);
		answer = NULL;
	}
	serve_reply_text(out, status, "application/json", answer);
}

/* api/v1/game: fray_game_request, on a worker as api/v1/run is (its answer
 * or its {"error"} with the status). A game's ops are small, but reading
 * a body of 1 MiB is not: a million values, or brackets nested a million
 * deep, take the JSON reader seconds before it refuses them, and on the
 * HTTP threads four such bodies held every page's GET (tests/serve/game_adv_test.py
 * stall). The workers' shares hold for it: 5 a client, 36 waiting (4 of them kept for a client with none). */
static void game(const char *body, size_t len, serve_reply *out)
{
	char *text = serve_request_text(body, len, false, out);
	if (!text)
		return;
	out->status = 0;
	out->compute = text;
	out->game = true;
}

/* api/v1/jobs and api/v1/jobs/ID */
static void jobs(const serve_conf *conf, const char *client, const char *method, const char *rest, const char *ctype,
		 const char *body, size_t len, bool too_big, serve_reply *out)
{
	if (!conf->jobs) {
		serve_reply_error(out, 404, "no jobs on this server");
		return;
	}
	if (!*rest) {
		if (posted_json("api/v1/jobs", method, ctype, len, too_big, out))
			serve_jobs_start(conf->jobs, client, body, len, out);
	} else if (*rest != '/') {
		serve_reply_error(out, 404, "no such page");
	} else if (!strcmp(method, "GET")) {
		serve_jobs_get(conf->jobs, rest + 1, out);
	} else if (!strcmp(method, "DELETE")) {
		serve_jobs_delete(conf->jobs, rest + 1, out);
	} else {
		serve_reply_error(out, 405, "a job takes GET or DELETE");
	}
}

void serve_handle(const serve_conf *conf, const char *client, const char *method, const char *url,
		  const char *host, const char *content_type, const char *body, size_t len, bool too_big,
		  serve_reply *out)
{
	memset(out, 0, sizeof *out);
	bool host_ok = conf->any_host;
	for (int i = 0; i < conf->nhosts && host; i++)
		host_ok |= strcmp(host, conf->hosts[i]) == 0;
	if (!host_ok) {
		serve_reply_error(out, 421, "this server answers only for its own address (Host)");
		return;
	}
	size_t np = strlen(conf->prefix);
	if (!serve_path_allowed(conf, url)) {
		serve_reply_error(out, conf->any_host ? 403 : 404, conf->any_host ? "a token is needed" : "no such page");
		return;
	}
	char path[128];
	size_t plen = strcspn(url + np, "?#");
	if (plen >= sizeof path) {
		serve_reply_error(out, 404, "no such page");
		return;
	}
	memcpy(path, url + np, plen);
	path[plen] = 0;
	if (!method)
		method = "";
	bool get = !strcmp(method, "GET");
	if (!strncmp(path, "api/v1/jobs", 11)) {
		jobs(conf, client ? client : "", method, path + 11, content_type, body, len, too_big, out);
		return;
	}
	if (!strncmp(path, "api/v1/games", 12) && (path[12] == 0 || path[12] == '/')) {
		const char *q = url + np + plen;
		if (serve_games_qr(conf, method, path + 12, out))
			return;
		serve_games_route(conf->games, method, path + 12, *q == '?' ? q + 1 : "", content_type, body, len,
				  too_big, out);
		return;
	}
	if (!strcmp(path, "api/v1/run")) {
		if (posted_json("api/v1/run", method, content_type, len, too_big, out))
			run(body, len, out);
		return;
	}
	if (!strcmp(path, "api/v1/game")) {
		if (posted_json("api/v1/game", method, content_type, len, too_big, out))
			game(body, len, out);
		return;
	}
	if (!get) {
		serve_reply_error(out, 405, "only GET here");
		return;
	}
	if (!strcmp(path, "api/v1/procedures")) {
		catalogue(out);
		return;
	}
	if (!strcmp(path, "api/v1/qr.svg")) { /* the page's "pass it on" (serve_http.c made it) */
		if (!conf->qr_svg)
			serve_reply_error(out, 404, "no QR code: this server is for this machine alone (fray serve --lan)");
		else
			*out = (serve_reply){.status = 200, .type = "image/svg+xml", .bytes = (const unsigned char *)conf->qr_svg,
					     .len = strlen(conf->qr_svg)};
		return;
	}
	if (!strcmp(path, "api/v1/examples")) {
		char *answer;
		bool failed;
		fray_api_call(path, NULL, NULL, &answer, &failed);
		serve_reply_text(out, 200, "application/json", answer);
		return;
	}
	/* the page's files: flat, but for its icons (the manifest's) */
	const char *name = !strncmp(path, "icons/", 6) ? path + 6 : path;
	if (strchr(name, '/') || !page_file(path, out))
		serve_reply_error(out, 404, "no such page");
}

void serve_reply_free(serve_reply *r)
{
	free(r->body);
	r->body = NULL;
	free(r->compute);
	r->compute = NULL;
	serve_answer_unref(r->shared);
	r->shared = NULL;
}
