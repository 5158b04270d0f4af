/* fray serve's request handler without sockets (src/serve/serve_handler.h):
 * the body budget of each path; and the one router fray serve and the
 * WebAssembly build share (fray_api_call, include/fray/api.h): its answers
 * are the library's own, with the budgets docs/serve.md gives. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>
#include <fray/api.h>
#include <fray/game_request.h>
#include "serve_handler.h"

/* 4 MiB for the game's own path (its query too), 64 KiB for any other:
 * a URL that merely ends in api/v1/game is not the game's (it used to
 * be given the game's budget, read whole only to be answered 404 or 405) */
static void max_body_exact_path(void **state)
{
	(void)state;
	serve_conf conf = {.prefix = "/"};
	assert_int_equal(serve_max_body(&conf, "/api/v1/game"), SERVE_MAX_GAME_BODY);
	assert_int_equal(serve_max_body(&conf, "/api/v1/game?x=1"), SERVE_MAX_GAME_BODY);
	assert_int_equal(serve_max_body(&conf, "/api/v1/game#top"), SERVE_MAX_GAME_BODY);
	assert_int_equal(serve_max_body(&conf, "/x/api/v1/game"), SERVE_MAX_BODY);
	assert_int_equal(serve_max_body(&conf, "/api/v1/jobs/api/v1/game"), SERVE_MAX_BODY);
	assert_int_equal(serve_max_body(&conf, "/fooapi/v1/game"), SERVE_MAX_BODY);
	assert_int_equal(serve_max_body(&conf, "/api/v1/game/"), SERVE_MAX_BODY);
	assert_int_equal(serve_max_body(&conf, "/api/v1/gamex"), SERVE_MAX_BODY);
	assert_int_equal(serve_max_body(&conf, "/api/v1/run"), SERVE_MAX_BODY);
	assert_int_equal(serve_max_body(&conf, "/"), SERVE_MAX_BODY);
	assert_int_equal(serve_max_body(&conf, ""), SERVE_MAX_BODY);
	/* --lan: the token's prefix, then the path */
	serve_conf lan = {.prefix = "/t/0123456789abcdef0123456789abcdef/", .any_host = true};
	assert_int_equal(serve_max_body(&lan, "/t/0123456789abcdef0123456789abcdef/api/v1/game"), SERVE_MAX_GAME_BODY);
	assert_int_equal(serve_max_body(&lan, "/api/v1/game"), SERVE_MAX_BODY);
	assert_int_equal(serve_max_body(&lan, "/t/wrong/api/v1/game"), SERVE_MAX_BODY);
}

static const char *const fire = "{\"procedure\": \"adbg.fire\", \"mode\": \"odds\", "
				"\"inputs\": {\"type\": \"rifle\", \"cf\": 3, \"terrain\": \"rough\"}}";

/* fray_request_with's answer with opts, or its failure as docs/json/
 * error.schema.json says it ({"error": message, "input": name}); its
 * status. */
static fray_status library_request(const char *text, const fray_request_opts *opts, char **out)
{
	fray_ctx *ctx = fray_ctx_new(NULL, NULL);
	assert_non_null(ctx);
	*out = NULL;
	fray_status st = fray_request_with(ctx, text, opts, out);
	if (st != FRAY_OK) {
		free(*out);
		char msg[8192], input[256] = "", all[9000];
		assert_true(fray_json_string(fray_ctx_message(ctx), msg, sizeof msg) < sizeof msg);
		if (fray_ctx_input(ctx)) {
			char q[200];
			assert_true(fray_json_string(fray_ctx_input(ctx), q, sizeof q) < sizeof q);
			snprintf(input, sizeof input, ", \"input\": %s", q);
		}
		snprintf(all, sizeof all, "{\"error\": %s%s}\n", msg, input);
		*out = strdup(all);
	}
	fray_ctx_free(ctx);
	return st;
}

static void same_answer(const char *path, const char *body, unsigned want_status, bool want_message, const char *want)
{
	char *got;
	bool is_message;
	unsigned status = fray_api_call(path, body, NULL, &got, &is_message);
	if (status != want_status || is_message != want_message || !got || strcmp(got, want) != 0)
		fail_msg("%s: status %u (want %u), message %d, %.200s\nwant %.200s", path, status, want_status,
			 is_message, got ? got : "(null)", want);
	free(got);
}

/* Each path's answer is the library's, with the budgets named in
 * docs/serve.md: a run is quick (10,000 trials), a job may ask 1,000,000. */
static void api_answers(void **state)
{
	(void)state;
	const fray_request_opts quick = {.flags = FRAY_REQUEST_NO_FILES | FRAY_REQUEST_QUICK,
					 .max_bytes = 256ull << 20};
	const fray_request_opts job = {.flags = FRAY_REQUEST_NO_FILES, .max_trials = 1000000, .max_paths = 20000000,
				       .max_bytes = 256ull << 20};
	char *want;
	assert_int_equal(library_request(fire, &quick, &want), FRAY_OK);
	same_answer("api/v1/run", fire, 200, false, want);
	same_answer("api/v1/jobs", fire, 200, false, want);
	free(want);
	const char *many = "{\"procedure\": \"presidio.pursuit\", \"mode\": \"simulate\", \"trials\": 10001, \"seed\": 1}";
	assert_int_equal(library_request(many, &quick, &want), FRAY_ERR_INPUT);
	same_answer("api/v1/run", many, 400, false, want);
	free(want);
	assert_int_equal(library_request(many, &job, &want), FRAY_OK);
	same_answer("api/v1/jobs", many, 200, false, want);
	free(want);
	const char *more = "{\"procedure\": \"presidio.pursuit\", \"mode\": \"simulate\", \"trials\": 1000001}";
	assert_int_equal(library_request(more, &job, &want), FRAY_ERR_INPUT);
	same_answer("api/v1/jobs", more, 400, false, want);
	free(want);
	/* a file named in a request is never read */
	const char *file = "{\"procedure\": \"adbg.battle\", \"inputs\": {\"scenario\": \"/etc/passwd\"}}";
	assert_int_equal(library_request(file, &quick, &want), FRAY_ERR_INPUT);
	same_answer("api/v1/run", file, 400, false, want);
	free(want);
	/* the catalogue, the game */
	fray_ctx *ctx = fray_ctx_new(NULL, NULL);
	assert_int_equal(fray_procedures_json(ctx, &want), FRAY_OK);
	same_answer("api/v1/procedures", NULL, 200, false, want);
	free(want);
	const char *game = "{\"op\": \"new\", \"rules\": \"presidio\", \"forces_name\": \"examples/presidio/forces.yaml\", "
			   "\"seed\": 7}";
	assert_int_equal(fray_game_request(ctx, game, strlen(game), &want), FRAY_OK);
	same_answer("api/v1/game", game, 200, false, want);
	free(want);
	const char *bad = "{\"op\": \"fly\"}";
	assert_int_equal(fray_game_request(ctx, bad, strlen(bad), &want), FRAY_ERR_INPUT);
	same_answer("api/v1/game", bad, 400, false, want); /* the game's failures are JSON */
	free(want);
	fray_ctx_free(ctx);
	same_answer("api/v1/nothing", "{}", 404, true, "no such page");
	same_answer("api/v1/run/", fire, 404, true, "no such page");
	char *examples;
	bool is_message;
	assert_int_equal(fray_api_call("api/v1/examples", NULL, NULL, &examples, &is_message), 200);
	assert_false(is_message);
	assert_non_null(strstr(examples, "\"examples\": [\"examples/"));
	assert_non_null(strstr(examples, "\"forces\": [\"examples/"));
	assert_non_null(strstr(examples, "/forces.yaml\"]}\n"));
	free(examples);
	assert_int_equal(fray_api_status(FRAY_ERR_LIMIT), 422);
	assert_int_equal(fray_api_status(FRAY_ERR_BUDGET), 422);
	assert_int_equal(fray_api_status(FRAY_ERR_NOMEM), 503);
}

/* fray serve answers through it: a run's reply is the same answer, and a
 * failure its message as {"error": ...} with its status */
static void serve_replies_are_the_api(void **state)
{
	(void)state;
	serve_reply r;
	serve_run_now(fire, NULL, &r);
	char *want;
	bool is_message;
	assert_int_equal(fray_api_call("api/v1/run", fire, NULL, &want, &is_message), 200);
	assert_int_equal(r.status, 200);
	assert_string_equal(r.type, "application/json");
	assert_string_equal(r.body, want);
	free(want);
	serve_reply_free(&r);
	serve_run_now("{\"procedure\": \"adbg.teleport\"}", NULL, &r);
	assert_int_equal(fray_api_call("api/v1/run", "{\"procedure\": \"adbg.teleport\"}", NULL, &want, &is_message), 400);
	assert_int_equal(r.status, 400);
	/* the library's JSON answer as it is: the message and the input it names (issue 42) */
	assert_false(is_message);
	assert_string_equal(r.type, "application/json");
	assert_string_equal(r.body, want);
	assert_true(strncmp(want, "{\"error\": \"", 11) == 0);
	assert_non_null(strstr(want, ", \"input\": \"procedure\"}"));
	free(want);
	serve_reply_free(&r);
	serve_game_now("{\"op\": \"fly\"}", NULL, &r);
	assert_int_equal(fray_api_call("api/v1/game", "{\"op\": \"fly\"}", NULL, &want, &is_message), 400);
	assert_int_equal(r.status, 400);
	assert_string_equal(r.body, want);
	free(want);
	serve_reply_free(&r);
}

/* A body of n bytes of c (NUL-terminated). */
static char *body_of(size_t n, char c)
{
	char *s = malloc(n + 1);
	assert_non_null(s);
	memset(s, c, n);
	s[n] = 0;
	return s;
}

/* The router holds the body budget for every caller (the WebAssembly
 * build had none: its worker passed any body to the readers): 64 KiB,
 * 4 MiB for the game (twice the game file's 2016 KiB, as a JSON string,
 * and 64 KiB for the rest: docs/serve.md), 413 past it with the budget named;
 * a body at the budget is read (its own error, not the budget's). */
static void api_body_budget_for_every_caller(void **state)
{
	(void)state;
	assert_int_equal(fray_api_max_body("api/v1/run"), 64u << 10);
	assert_int_equal(fray_api_max_body("api/v1/jobs"), 64u << 10);
	assert_int_equal(fray_api_max_body("api/v1/game"), 2 * ((4u << 20) - (64u << 10)) / 2 + (64u << 10));
	assert_int_equal(fray_api_max_body("api/v1/game/"), 64u << 10);
	assert_int_equal(fray_api_max_body(NULL), 64u << 10);
	static const struct {
		const char *path;
		size_t max;
		const char *says;
	} paths[] = {
		{"api/v1/run", 64u << 10, "a request to api/v1/run has at most 64 KiB"},
		{"api/v1/jobs", 64u << 10, "a request to api/v1/jobs has at most 64 KiB"},
		{"api/v1/game", 4u << 20, "a request to api/v1/game has at most 4096 KiB"},
	};
	for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++) {
		char *answer;
		bool is_message;
		char *over = body_of(paths[i].max + 1, ' '), *at = body_of(paths[i].max, ' ');
		assert_int_equal(fray_api_call(paths[i].path, over, NULL, &answer, &is_message), 413);
		assert_true(is_message);
		assert_string_equal(answer, paths[i].says);
		free(answer);
		unsigned status = fray_api_call(paths[i].path, at, NULL, &answer, &is_message);
		if (status == 413 || status == 200)
			fail_msg("%s: %zu blank bytes answered %u: %.200s", paths[i].path, paths[i].max, status, answer);
		free(answer);
		free(over);
		free(at);
	}
	/* the server's budgets are the API's */
	serve_conf conf = {.prefix = "/"};
	assert_int_equal(serve_max_body(&conf, "/api/v1/run"), fray_api_max_body("api/v1/run"));
	assert_int_equal(serve_max_body(&conf, "/api/v1/game"), fray_api_max_body("api/v1/game"));
}

/* NULL arguments are refused, never followed (fray_wasm_call passes the
 * page's path as it comes) */
static void api_refuses_null_arguments(void **state)
{
	(void)state;
	char *answer = (char *)"untouched";
	bool is_message = false;
	assert_int_equal(fray_api_call(NULL, "{}", NULL, &answer, &is_message), 400);
	assert_true(is_message);
	assert_non_null(strstr(answer, "no path"));
	free(answer);
	assert_int_equal(fray_api_call(NULL, NULL, NULL, &answer, &is_message), 400);
	free(answer);
	assert_int_equal(fray_api_call("api/v1/run", fire, NULL, NULL, &is_message), 400);
	answer = (char *)"untouched";
	assert_int_equal(fray_api_call("api/v1/run", fire, NULL, &answer, NULL), 400);
	assert_string_equal(answer, "untouched");
}

/* A Presidio game with Presidials and Apaches at `figures` figures each,
 * and the request for the odds of their melee. */
static char *melee_odds_request(int figures)
{
	const char *make = "{\"op\": \"new\", \"rules\": \"presidio\", "
			   "\"forces_name\": \"examples/presidio/forces.yaml\", \"seed\": 7}";
	char *answer;
	bool is_message;
	assert_int_equal(fray_api_call("api/v1/game", make, NULL, &answer, &is_message), 200);
	/* the game's text, as the answer quotes it: each unit's figures changed in place */
	char *game = strstr(answer, "\"game\": \"");
	assert_non_null(game);
	game += strlen("\"game\": ");
	char *end = strstr(game, "\", \"status\"");
	assert_non_null(end);
	end[1] = 0; /* after the string's closing quote */
	static const char *const units[][2] = {{"figures: 12\\n    start_figures: 12", "Presidials"},
					       {"figures: 10\\n    start_figures: 10", "Apaches"}};
	char *text = malloc(strlen(game) + 256);
	assert_non_null(text);
	strcpy(text, game);
	for (size_t i = 0; i < 2; i++) {
		char *at = strstr(text, units[i][0]), more[96];
		if (!at)
			fail_msg("no %s in the game: %.300s", units[i][1], text);
		/* the Apaches in base contact with the Presidials: melee is
		 * in contact (Presidio Section 5) */
		snprintf(more, sizeof more, "figures: %d\\n    start_figures: %d%s", figures, figures,
			 i ? "\\n    contact: Presidials" : "");
		memmove(at + strlen(more), at + strlen(units[i][0]), strlen(at + strlen(units[i][0])) + 1);
		memcpy(at, more, strlen(more));
	}
	char *req = malloc(strlen(text) + 256);
	assert_non_null(req);
	sprintf(req, "{\"op\": \"odds\", \"game\": %s, \"action\": \"melee\", \"actor\": \"Presidials\", "
		"\"target\": \"Apaches\"}", text);
	free(text);
	free(answer);
	return req;
}

static double seconds_since(const struct timespec *t0)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - t0->tv_sec) + (double)(t.tv_nsec - t0->tv_nsec) / 1e9;
}

/* A game's odds are worked within api/v1/run's budgets and its watch: a
 * melee of 1000 figures a side (the game file's most) took 88 s (optimised)
 * and was then refused for its answer's size, holding a server's worker
 * all along: no time budget, no stop, no memory budget reached it. Now the
 * caller's stop stops it, and the server's time budget (here 1 s) cuts
 * it. A small melee's odds still come back. */
static void game_odds_within_the_budgets(void **state)
{
	(void)state;
	char *small = melee_odds_request(12), *huge = melee_odds_request(1000), *answer;
	bool is_message;
	unsigned status = fray_api_call("api/v1/game", small, NULL, &answer, &is_message);
	if (status != 200)
		fail_msg("a melee of 12 figures: %u %.300s", status, answer);
	assert_non_null(strstr(answer, "\"procedure\": \"presidio.melee\""));
	free(answer);
	/* stopped by the caller's watch: at once */
	volatile sig_atomic_t stop = 1;
	fray_request_opts watch = {.stop = &stop};
	struct timespec t0;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	assert_int_equal(fray_api_call("api/v1/game", huge, &watch, &answer, &is_message), 422);
	printf("  stopped at once: %.2f s: %.200s\n", seconds_since(&t0), answer);
	assert_non_null(strstr(answer, "\"error\""));
	free(answer);
	/* the server's time budget: the reply says it */
	serve_watch w;
	serve_watch_start(&w, 1);
	serve_reply r;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	serve_game_now(huge, &w, &r);
	double took = seconds_since(&t0);
	printf("  cut by the time budget: %.2f s: %u %.200s\n", took, r.status, r.body);
	assert_int_equal(r.status, 422);
	assert_non_null(strstr(r.body, "stopped after 1 s, this server's time budget"));
	serve_reply_free(&r);
	free(small);
	free(huge);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(max_body_exact_path),
		cmocka_unit_test(api_answers),
		cmocka_unit_test(serve_replies_are_the_api),
		cmocka_unit_test(api_body_budget_for_every_caller),
		cmocka_unit_test(api_refuses_null_arguments),
		cmocka_unit_test(game_odds_within_the_budgets),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
