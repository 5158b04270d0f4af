/* Fuzz target: fray serve's request handler (serve_handle) on arbitrary
 * requests: the first byte picks the method, the Content-Type and --lan's
 * token prefix, the URL
 * runs to the first newline, the rest is the body (jobs included), up to the URL's own cap
 * (serve_max_body: 1 MiB for api/v1/game, 64 KiB elsewhere; past it the body is too big, as the
 * HTTP layer says). Every request gets a reply with a status from 200 to 599 and a body, and
 * never a crash. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "serve_handler.h"
#include "serve_jobs.h"
#include "embedded.h"

/* the page itself is not what is fuzzed: one small file stands in */
static const unsigned char index_html[] = "<!DOCTYPE html><title>fray</title>";
const embedded_file serve_page_files[] = {{"page/index.html", index_html, sizeof index_html - 1}, {0, 0, 0}};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1 || size > 2 * SERVE_MAX_GAME_BODY)
		return 0;
	static const char *const methods[] = {"GET", "POST", "DELETE", "PUT"};
	static const char *const types[] = {"application/json", "text/plain", NULL, "application/json; charset=utf-8"};
	const char *method = methods[data[0] & 3], *type = types[(data[0] >> 2) & 3];
	const uint8_t *nl = memchr(data + 1, '\n', size - 1);
	size_t ulen = nl ? (size_t)(nl - data - 1) : size - 1;
	char *url = malloc(ulen + 1);
	if (!url)
		abort();
	memcpy(url, data + 1, ulen);
	url[ulen] = 0;
	const char *body = nl ? (const char *)nl + 1 : "";
	size_t blen = nl ? size - (size_t)(nl - data) - 1 : 0;
	/* jobs too: each input's are stopped and joined before the next */
	serve_conf conf = {.prefix = "/", .hosts = {"127.0.0.1:8080"}, .nhosts = 1, .jobs = serve_jobs_new(1, 0)};
	if (!conf.jobs)
		abort();
	if (data[0] & 16) { /* --lan: a token in every path, compared in constant time */
		snprintf(conf.prefix, sizeof conf.prefix, "/t/%s/", "0123456789abcdef0123456789abcdef");
		conf.any_host = true;
	}
	serve_reply r;
	serve_handle(&conf, "127.0.0.1", method, url, "127.0.0.1:8080", type, body, blen, blen > serve_max_body(&conf, url), &r);
	if (r.compute) { /* api/v1/run and api/v1/game: computed here, as a worker would */
		char *text = r.compute;
		r.compute = NULL;
		if (r.game)
			serve_game_now(text, NULL, &r);
		else
			serve_run_now(text, NULL, &r);
		free(text);
	}
	if (r.status < 200 || r.status > 599 || !r.type || (!r.body && !r.bytes && !r.shared && r.len))
		abort();
	serve_reply_free(&r);
	serve_jobs_free(conf.jobs);
	free(url);
	return 0;
}
