/* fray serve's answers: one function from an HTTP request (already read,
 * within its size budget) to a reply, with no sockets, so it can be tested
 * and fuzzed alone (fuzz/fuzz_serve.c). The daemon (serve_http.c) only
 * reads requests and sends replies. */
#ifndef FRAY_SERVE_HANDLER_H
#define FRAY_SERVE_HANDLER_H

#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <time.h>
#include <fray/fray.h>
#include <fray/api.h>

/* a request's body: 64 KiB, 4 MiB for api/v1/game, 413 beyond; the API's
 * budgets (include/fray/api.h), which fray_api_call holds for every caller:
 * the server says it before reading a body past it */
#define SERVE_MAX_BODY FRAY_API_MAX_BODY
#define SERVE_MAX_GAME_BODY FRAY_API_MAX_GAME_BODY
#define SERVE_RUN_SECONDS FRAY_API_RUN_SECONDS /* api/v1/run's time budget (jobs: serve_jobs.h) */
#define SERVE_REQUEST_BYTES FRAY_API_ODDS_BYTES /* exact odds' memory, a request or a job (include/fray/api.h) */
/* Every answer the server holds at once (jobs' results kept, answers being
 * sent or waiting to be), each counted once however many connections send
 * it: past this a new answer is refused (503, the budget named). */
#define SERVE_MEMORY_BUDGET (256ull << 20)

typedef struct serve_jobs serve_jobs;
typedef struct serve_store serve_store;
typedef struct serve_watch serve_watch;

typedef struct serve_conf {
	/* where everything lives: "/" on this machine, "/t/TOKEN/" with --lan
	 * (the token, in the printed URL, is then needed on every request) */
	char prefix[64];
	/* the Host headers accepted (against DNS rebinding), unless any_host
	 * (--lan, where the token guards instead); none yet: all refused */
	char hosts[2][80];
	int nhosts;
	bool any_host;
	serve_jobs *jobs;    /* NULL: api/v1/jobs answers 404 */
	/* --lan: the QR code of the URL to share, as SVG (serve_qr.h), for
	 * api/v1/qr.svg; NULL (on this machine alone): 404 */
	const char *qr_svg;
	/* --lan: that URL, and the QR code of any URL as SVG (malloc'd, NULL
	 * when out of memory), for a kept game's own address (api/v1/games/
	 * NAME/qr.svg, serve_games.h); NULL (on this machine alone): 404 */
	const char *share_url;
	char *(*qr_of)(const char *url);
	serve_store *games;  /* the games kept (serve_games.h); NULL: api/v1/games answers 404 */
} serve_conf;

/* An answer built once and shared: sent to any number of connections
 * (each holds a reference) and freed with its last reference. Its bytes
 * count against SERVE_MEMORY_BUDGET while it lives. */
typedef struct serve_answer serve_answer;
/* Takes body (malloc'd, len bytes). NULL, body freed, when the budget or
 * the memory is out. */
serve_answer *serve_answer_new(char *body, size_t len);
serve_answer *serve_answer_ref(serve_answer *a);
void serve_answer_unref(serve_answer *a);
const char *serve_answer_bytes(const serve_answer *a);
size_t serve_answer_len(const serve_answer *a);
/* The bytes of answers held now (all of them, for the tests and the log). */
size_t serve_memory_used(void);
/* The budget, in MiB (fray serve --memory; SERVE_MEMORY_BUDGET until set). */
void serve_memory_set_budget(unsigned mib);
size_t serve_memory_budget(void);
/* The refusal when the budget is out, the budget named: a JSON error,
 * nothing allocated. */
const char *serve_budget_refusal(void);

typedef struct serve_reply serve_reply;
struct serve_reply {
	unsigned status;     /* 0 with compute set: to be computed (api/v1/run) */
	const char *type;    /* Content-Type */
	char *body;          /* malloc'd, or NULL when bytes or shared is set */
	const unsigned char *bytes;   /* a page file: not freed */
	serve_answer *shared;         /* a shared answer: one reference */
	size_t len;
	char *compute;       /* a request to run off the HTTP threads (serve_run_now) */
	bool game;           /* compute is api/v1/game's (serve_game_now), not api/v1/run's */
	/* compute is neither: work(work_ctx, compute, watch, reply) on the worker (a kept game's, serve_games.h) */
	void (*work)(void *work_ctx, const char *text, serve_watch *w, serve_reply *out);
	void *work_ctx;
	/* a kept game's events: held until its version passes hold_after (serve_http.c's holds) */
	char hold[40];
	long long hold_after;
};

/* The reply to method url (path and query) from client (its address: a
 * job's share is counted by it) with its Host and Content-Type headers
 * (NULL: absent) and body (len bytes; too_big when it passed
 * SERVE_MAX_BODY and was not kept). Always a reply, never a crash: errors
 * are JSON {"error": "..."} with their status. A request that computes
 * (api/v1/run, api/v1/game) comes back as status 0 and compute: its text, for
 * serve_run_now (serve_game_now when game is set) on a worker thread (serve_jobs.h). */
void serve_handle(const serve_conf *conf, const char *client, const char *method, const char *url,
		  const char *host, const char *content_type, const char *body, size_t len, bool too_big,
		  serve_reply *out);
void serve_reply_free(serve_reply *r);
/* The most body bytes a request to url may send: SERVE_MAX_GAME_BODY for
 * the prefix's api/v1/game (a query or fragment after it alike), else
 * SERVE_MAX_BODY (too_big past it). */
size_t serve_max_body(const serve_conf *conf, const char *url);
/* Whether url is within the server's prefix (--lan: carries the token),
 * the token compared in constant time. */
bool serve_path_allowed(const serve_conf *conf, const char *url);
/* n bytes of a and b alike, in a time that does not depend on where they
 * differ (a secret's compare). */
bool serve_same_secret(const char *a, const char *b, size_t n);

/* A reply of a malloc'd body (NULL: out of memory, 503), or a JSON error. */
void serve_reply_text(serve_reply *out, unsigned status, const char *type, char *body);
void serve_reply_error(serve_reply *out, unsigned status, const char *msg);
/* The HTTP status of a failed fray_request. */
unsigned serve_status_of(fray_status st);
/* Whether a request's Content-Type is JSON ("application/json", with or
 * without parameters). */
bool serve_json_type(const char *ct);
/* 128 random bits from the kernel as 32 hex digits (a token, a job id). */
bool serve_random_hex(char out[33]);
/* The body as a string (no NUL inside), and when check_json is set
 * checked to be JSON (a job's request is refused at once, not later);
 * NULL with the error replied. */
char *serve_request_text(const char *body, size_t len, bool check_json, serve_reply *out);

/* A request's watch: how far its work got, and its time budget, kept by
 * the progress calls of the thread that runs it (which sets stop when the
 * time is up). stop may also be set from another thread (a job's DELETE). */
struct serve_watch {
	volatile sig_atomic_t stop;
	bool timed_out;
	unsigned seconds;
	struct timespec start;
	atomic_uint_fast64_t done, total;
	char msg[160];
};
void serve_watch_start(serve_watch *w, unsigned seconds);
void serve_watch_attach(serve_watch *w, fray_request_opts *ro);
void serve_watch_progress(serve_watch *w, uint64_t *done, uint64_t *total);
double serve_watch_seconds(const serve_watch *w);
/* The message for a failure: the time budget's when it ran out. */
const char *serve_watch_message(serve_watch *w, const char *fray_msg);

/* api/v1/run's work on a request's text: the reply. w: its watch, started
 * (SERVE_RUN_SECONDS) by the caller, who may set its stop (the server
 * stopping); NULL: a watch of its own. */
void serve_run_now(const char *text, serve_watch *w, serve_reply *out);
/* api/v1/game's work on a request's text (fray_game_request_with: an odds
 * op within api/v1/run's budgets, its time budget too): the reply. w as
 * serve_run_now's. */
void serve_game_now(const char *text, serve_watch *w, serve_reply *out);

#endif
