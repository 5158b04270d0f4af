/* fray serve's answers (serve_handler.h): the page's files, the catalogue
 * and fray_request, which reads no files and keeps each request's work
 * small (FRAY_REQUEST_NO_FILES | FRAY_REQUEST_QUICK). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fray/fray.h>
#include "serve_handler.h"
#include "embedded.h"

extern const embedded_file fray_page_files[];

static void reply_text(serve_reply *out, unsigned status, const char *type, char *body)
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
static void reply_error(serve_reply *out, unsigned status, const char *msg)
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
	reply_text(out, status, "application/json", body);
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
	return "text/html; charset=utf-8";
}

static bool page_file(const char *name, serve_reply *out)
{
	char path[96];
	snprintf(path, sizeof path, "page/%s", *name ? name : "index.html");
	for (const embedded_file *f = fray_page_files; f->path; f++)
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

/* The shipped examples a file input may name: {"examples": [...]}. */
static char *examples_json(void)
{
	size_t cap = 64;
	for (const embedded_file *f = fray_shipped_examples; f->path; f++)
		cap += strlen(f->path) + 8;
	char *s = malloc(cap);
	if (!s)
		return NULL;
	size_t n = (size_t)snprintf(s, cap, "{\"examples\": [");
	for (const embedded_file *f = fray_shipped_examples; f->path; f++)
		n += (size_t)snprintf(s + n, cap - n, "%s\"%s\"", f == fray_shipped_examples ? "" : ", ", f->path);
	snprintf(s + n, cap - n, "]}\n");
	return s;
}

static bool json_type(const char *ct)
{
	if (!ct)
		return false;
	size_t n = strlen("application/json");
	return strncmp(ct, "application/json", n) == 0 && (ct[n] == 0 || ct[n] == ';');
}

static void run(const char *body, size_t len, serve_reply *out)
{
	if (memchr(body, 0, len)) {
		reply_error(out, 400, "request: a NUL byte in the body");
		return;
	}
	fray_ctx *ctx = fray_ctx_new(NULL, NULL);
	if (!ctx) {
		reply_error(out, 503, "out of memory");
		return;
	}
	char *text = malloc(len + 1), *response = NULL;
	if (!text) {
		fray_ctx_free(ctx);
		reply_error(out, 503, "out of memory");
		return;
	}
	memcpy(text, body, len);
	text[len] = 0;
	fray_status st = fray_request_flags(ctx, text, FRAY_REQUEST_NO_FILES | FRAY_REQUEST_QUICK, &response);
	free(text);
	if (st == FRAY_OK) {
		bool is_json = response[0] == '{';
		reply_text(out, 200, is_json ? "application/json" : "text/plain; charset=utf-8", response);
	} else {
		unsigned status = st == FRAY_ERR_INPUT ? 400 : st == FRAY_ERR_LIMIT || st == FRAY_ERR_BUDGET ? 422
				  : st == FRAY_ERR_NOMEM ? 503 : 500;
		reply_error(out, status, fray_ctx_message(ctx));
	}
	fray_ctx_free(ctx);
}

void serve_handle(const serve_conf *conf, const char *method, const char *url, const char *host,
		  const char *content_type, const char *body, size_t len, bool too_big, serve_reply *out)
{
	memset(out, 0, sizeof *out);
	bool host_ok = conf->any_host;
	for (int i = 0; i < conf->nhosts && host; i++)
		host_ok |= strcmp(host, conf->hosts[i]) == 0;
	if (!host_ok) {
		reply_error(out, 421, "this server answers only for its own address (Host)");
		return;
	}
	size_t np = strlen(conf->prefix);
	if (!url || strncmp(url, conf->prefix, np) != 0) {
		reply_error(out, conf->any_host ? 403 : 404, conf->any_host ? "a token is needed" : "no such page");
		return;
	}
	char path[128];
	size_t plen = strcspn(url + np, "?#");
	if (plen >= sizeof path) {
		reply_error(out, 404, "no such page");
		return;
	}
	memcpy(path, url + np, plen);
	path[plen] = 0;
	bool get = method && !strcmp(method, "GET"), post = method && !strcmp(method, "POST");
	if (!strcmp(path, "api/v1/run")) {
		if (!post)
			reply_error(out, 405, "api/v1/run takes POST");
		else if (too_big || len > SERVE_MAX_BODY)
			reply_error(out, 413, "a request has at most 64 KiB");
		else if (!json_type(content_type))
			reply_error(out, 415, "a request is application/json");
		else
			run(body, len, out);
		return;
	}
	if (!get) {
		reply_error(out, 405, "only GET here");
		return;
	}
	if (!strcmp(path, "api/v1/procedures")) {
		fray_ctx *ctx = fray_ctx_new(NULL, NULL);
		char *json = NULL;
		if (!ctx || fray_procedures_json(ctx, &json) != FRAY_OK)
			json = NULL;
		fray_ctx_free(ctx);
		reply_text(out, 200, "application/json", json);
		return;
	}
	if (!strcmp(path, "api/v1/examples")) {
		reply_text(out, 200, "application/json", examples_json());
		return;
	}
	if (strchr(path, '/') || !page_file(path, out))
		reply_error(out, 404, "no such page");
}

void serve_reply_free(serve_reply *r)
{
	free(r->body);
	r->body = NULL;
}
