/* fray serve: the page at the table. A small HTTP server (libmicrohttpd)
 * that reads each request within its budgets (connections, time, body
 * size) and answers through serve_handle; it binds 127.0.0.1 unless --lan,
 * which binds every interface and puts a random token in every path. */
#include <arpa/inet.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <time.h>
#include <string.h>
#include "cli.h"
#include "serve_handler.h"
#include "serve_jobs.h"

#define SERVE_CONNECTIONS 64       /* at once; more wait or are refused */
#define SERVE_TIMEOUT_S 30         /* an idle connection is closed after */
#define SERVE_THREADS 4

/* One request being read: its body, kept up to SERVE_MAX_BODY. */
typedef struct upload {
	char *body;
	size_t len;
	bool too_big;
} upload;

static const char *const security_headers[][2] = {
	{"Content-Security-Policy", "default-src 'self'; frame-ancestors 'none'; form-action 'self'"},
	{"X-Content-Type-Options", "nosniff"},
	{"Referrer-Policy", "no-referrer"},
	{"Cache-Control", "no-store"},
};

static enum MHD_Result send_reply(struct MHD_Connection *con, serve_reply *r)
{
	struct MHD_Response *res;
	if (r->body) {
		res = MHD_create_response_from_buffer(r->len, r->body, MHD_RESPMEM_MUST_FREE);
		r->body = NULL; /* the response frees it */
	} else {
		res = MHD_create_response_from_buffer(r->len, (void *)r->bytes, MHD_RESPMEM_PERSISTENT);
	}
	if (!res)
		return MHD_NO;
	MHD_add_response_header(res, "Content-Type", r->type);
	for (size_t i = 0; i < sizeof security_headers / sizeof security_headers[0]; i++)
		MHD_add_response_header(res, security_headers[i][0], security_headers[i][1]);
	enum MHD_Result ok = MHD_queue_response(con, r->status, res);
	MHD_destroy_response(res);
	return ok;
}

static enum MHD_Result answer(void *cls, struct MHD_Connection *con, const char *url, const char *method,
			      const char *version, const char *data, size_t *data_size, void **con_cls)
{
	(void)version;
	const serve_conf *conf = cls;
	upload *up = *con_cls;
	if (!up) { /* the headers: the body, if any, comes in later calls */
		if (!(up = calloc(1, sizeof *up)))
			return MHD_NO;
		*con_cls = up;
		const char *cl = MHD_lookup_connection_value(con, MHD_HEADER_KIND, "Content-Length");
		if (cl && strtoull(cl, NULL, 10) > SERVE_MAX_BODY)
			up->too_big = true; /* said at once, the body never read */
		else
			return MHD_YES;
	}
	if (*data_size && !up->too_big) {
		if (up->len + *data_size > SERVE_MAX_BODY) {
			up->too_big = true;
			free(up->body);
			up->body = NULL;
		} else {
			char *more = realloc(up->body, up->len + *data_size + 1);
			if (!more)
				return MHD_NO;
			memcpy(more + up->len, data, *data_size);
			up->body = more;
			up->len += *data_size;
		}
	}
	if (*data_size && !up->too_big) {
		*data_size = 0;
		return MHD_YES;
	}
	*data_size = 0;
	serve_reply r;
	serve_handle(conf, method, url, MHD_lookup_connection_value(con, MHD_HEADER_KIND, "Host"),
		     MHD_lookup_connection_value(con, MHD_HEADER_KIND, "Content-Type"), up->body ? up->body : "",
		     up->len, up->too_big, &r);
	enum MHD_Result ok = send_reply(con, &r);
	serve_reply_free(&r);
	return ok;
}

static void request_done(void *cls, struct MHD_Connection *con, void **con_cls, enum MHD_RequestTerminationCode why)
{
	(void)cls;
	(void)con;
	(void)why;
	upload *up = *con_cls;
	if (up) {
		free(up->body);
		free(up);
	}
	*con_cls = NULL;
}

int cmd_serve(int argc, char **argv)
{
	cli_args a = {.cmd = "serve", .argc = argc, .argv = argv};
	uint64_t port = 8080;
	bool lan = false;
	while (a.i < argc && a.status == EXIT_OK) {
		if (cli_is_help(argv[a.i]))
			return cli_help_topic(stdout, "serve") ? EXIT_OK : EXIT_RUNTIME;
		if (cli_flag(&a, "--lan"))
			lan = true;
		else if (!cli_u64(&a, "--port", 0, 65535, &port)) {
			static const char *const known[] = {"--port", "--lan", "--help"};
			return cli_unknown(&a, known, 3);
		}
	}
	if (a.status != EXIT_OK)
		return a.status;
	serve_conf conf = {.prefix = "/", .any_host = lan};
	if (lan) {
		char token[33];
		if (!serve_random_hex(token))
			return cli_error(a.cmd, EXIT_RUNTIME, "no random token: the kernel gave no random bytes");
		snprintf(conf.prefix, sizeof conf.prefix, "/t/%s/", token);
	}
	struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port),
				   .sin_addr.s_addr = htonl(lan ? INADDR_ANY : INADDR_LOOPBACK)};
	struct MHD_Daemon *d = MHD_start_daemon(
		MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_USE_ERROR_LOG, 0, NULL, NULL, answer, &conf,
		MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&addr, MHD_OPTION_THREAD_POOL_SIZE, (unsigned)SERVE_THREADS,
		MHD_OPTION_CONNECTION_LIMIT, (unsigned)SERVE_CONNECTIONS, MHD_OPTION_CONNECTION_TIMEOUT,
		(unsigned)SERVE_TIMEOUT_S, MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)(128u << 10),
		MHD_OPTION_NOTIFY_COMPLETED, request_done, NULL, MHD_OPTION_END);
	if (!d)
		return cli_error(a.cmd, EXIT_RUNTIME, "cannot listen on port %u (in use?)", (unsigned)port);
	if (!(conf.jobs = serve_jobs_new(0))) {
		MHD_stop_daemon(d);
		return cli_error(a.cmd, EXIT_RUNTIME, "out of memory");
	}
	const union MHD_DaemonInfo *info = MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
	unsigned bound = info ? info->port : (unsigned)port;
	if (!lan) {
		snprintf(conf.hosts[0], sizeof conf.hosts[0], "127.0.0.1:%u", bound);
		snprintf(conf.hosts[1], sizeof conf.hosts[1], "localhost:%u", bound);
		conf.nhosts = 2;
	}
	/* Ctrl-C is caught before the address is out: whoever reads the
	 * address may stop the server at once (the tests do) */
	cli_catch_stop();
	printf("fray serve: http://%s:%u%s\n", lan ? "THIS-MACHINE" : "127.0.0.1", bound, conf.prefix);
	if (lan)
		printf("  (from a phone on the same network: this machine's address in place of THIS-MACHINE)\n");
	printf("  Ctrl-C stops it\n");
	fflush(stdout);
	/* the signal may land on a server thread: look rather than wait */
	while (!cli_stop_signal) {
		struct timespec tick = {0, 100000000};
		nanosleep(&tick, NULL);
	}
	MHD_stop_daemon(d);
	serve_jobs_free(conf.jobs);
	int status = cli_stop_status();
	cli_release_stop();
	fprintf(stderr, "fray serve: stopped\n");
	return status == 130 || status == 143 ? EXIT_OK : status;
}
