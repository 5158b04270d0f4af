/* fray serve's HTTP server (serve_http.c): the daemon over serve_handle,
 * its connections' deadlines and its worker threads. No argv, no
 * terminal: those are the command's (src/cli/cmd_serve.c). One server per
 * process (the connections' list is the process's). */
#ifndef FRAY_SERVE_HTTP_H
#define FRAY_SERVE_HTTP_H

#include <stdbool.h>
#include <stddef.h>

typedef struct serve_http serve_http;

typedef struct serve_http_opts {
	unsigned port;        /* 0: a free port (serve_http_port says which) */
	bool lan;             /* every interface, a random token in every path; else 127.0.0.1 */
	unsigned memory_mib;  /* every answer held at once (0: SERVE_MEMORY_BUDGET) */
	const char *games;    /* the folder of the games it keeps (serve_games.h); NULL: none */
	unsigned run_wait_s;  /* a request's wait for a worker, then 503 (0: SERVE_RUN_WAIT_S) */
} serve_http_opts;

/* Listens and serves from threads of its own. NULL, with why in err (the
 * port in use, no random token, out of memory), when it cannot. */
serve_http *serve_http_start(const serve_http_opts *o, char *err, size_t errlen);
/* The port bound, and the prefix every path starts with: "/", or
 * "/t/TOKEN/" with lan (valid until serve_http_stop). */
unsigned serve_http_port(const serve_http *s);
const char *serve_http_prefix(const serve_http *s);
/* Where a browser reaches the server: the full URL, token included, and
 * the interface whose address it is (its name as the system gives it:
 * escape it before a terminal shows it). */
typedef struct serve_url {
	char iface[32];
	char url[112];
	bool loopback;
} serve_url;
#define SERVE_URLS_MAX 16
/* The server's URLs (valid until serve_http_stop): with lan, one for each
 * address of every interface that is up (IPv6 ones when the server could
 * listen on IPv6; a link-local IPv6 address needs a zone no phone's
 * browser takes: left out), the one to share first (an IPv4 address of the
 * interface of the default route, if there is one), then 127.0.0.1's;
 * else 127.0.0.1's alone. */
size_t serve_http_urls(const serve_http *s, const serve_url **urls);
/* Cuts the connections past their deadline and answers the requests that
 * waited their turn too long: call it every tenth of a second or so while
 * it serves. */
void serve_http_tick(serve_http *s);
/* Stops the work (a suspended connection gets its answer first), then the
 * daemon, and frees it all. NULL: nothing. */
void serve_http_stop(serve_http *s);

#endif
