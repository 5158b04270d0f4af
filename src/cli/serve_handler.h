/* fray serve's answers: one function from an HTTP request (already read,
 * within its size budget) to a reply, with no sockets, so it can be tested
 * and fuzzed alone (fuzz/fuzz_serve.c). The daemon (cmd_serve.c) only
 * reads requests and sends replies. */
#ifndef FRAY_CLI_SERVE_HANDLER_H
#define FRAY_CLI_SERVE_HANDLER_H

#include <stdbool.h>
#include <stddef.h>

#define SERVE_MAX_BODY (64u << 10)   /* a request's body: 64 KiB, 413 beyond */

typedef struct serve_conf {
	/* where everything lives: "/" on this machine, "/t/TOKEN/" with --lan
	 * (the token, in the printed URL, is then needed on every request) */
	char prefix[64];
	/* the Host headers accepted (against DNS rebinding), unless any_host
	 * (--lan, where the token guards instead); none yet: all refused */
	char hosts[2][80];
	int nhosts;
	bool any_host;
} serve_conf;

typedef struct serve_reply {
	unsigned status;
	const char *type;    /* Content-Type */
	char *body;          /* malloc'd, or NULL when bytes is set */
	const unsigned char *bytes;   /* a page file: not freed */
	size_t len;
} serve_reply;

/* The reply to method url (path and query) with its Host and Content-Type
 * headers (NULL: absent) and body (len bytes; too_big when it passed
 * SERVE_MAX_BODY and was not kept). Always a reply, never a crash: errors
 * are JSON {"error": "..."} with their status. */
void serve_handle(const serve_conf *conf, const char *method, const char *url, const char *host,
		  const char *content_type, const char *body, size_t len, bool too_big, serve_reply *out);
void serve_reply_free(serve_reply *r);

#endif
