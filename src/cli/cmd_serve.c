/* fray serve: the page at the table. The command's options and its
 * terminal; the server itself is src/serve/ (serve_http.h). */
#include <stdlib.h>
#include <time.h>
#include "cli.h"
#include "../serve/serve_handler.h"
#include "../serve/serve_http.h"

int cmd_serve(int argc, char **argv)
{
	cli_args a = {.cmd = "serve", .argc = argc, .argv = argv};
	uint64_t port = 8080, memory = SERVE_MEMORY_BUDGET >> 20;
	bool lan = false;
	while (a.i < argc && a.status == EXIT_OK) {
		if (cli_is_help(argv[a.i]))
			return cli_help_topic(stdout, "serve") ? EXIT_OK : EXIT_RUNTIME;
		if (cli_flag(&a, "--lan"))
			lan = true;
		else if (!cli_u64(&a, "--port", 0, 65535, &port) && !cli_u64(&a, "--memory", 1, 65536, &memory)) {
			static const char *const known[] = {"--port", "--lan", "--memory", "--help"};
			return cli_unknown(&a, known, 4);
		}
	}
	if (a.status != EXIT_OK)
		return a.status;
	serve_http_opts o = {.port = (unsigned)port, .lan = lan, .memory_mib = (unsigned)memory};
	char err[160];
	serve_http *s = serve_http_start(&o, err, sizeof err);
	if (!s)
		return cli_error(a.cmd, EXIT_RUNTIME, "%s", err);
	/* Ctrl-C is caught before the address is out: whoever reads the
	 * address may stop the server at once (the tests do) */
	cli_catch_stop();
	printf("fray serve: http://%s:%u%s\n", lan ? "THIS-MACHINE" : "127.0.0.1", serve_http_port(s),
	       serve_http_prefix(s));
	if (lan)
		printf("  (from a phone on the same network: this machine's address in place of THIS-MACHINE)\n");
	printf("  Ctrl-C stops it\n");
	fflush(stdout);
	/* the signal may land on a server thread: look rather than wait;
	 * each look also cuts the connections past their deadline */
	while (!cli_stop_signal) {
		struct timespec tick = {0, 100000000};
		nanosleep(&tick, NULL);
		serve_http_tick(s);
	}
	serve_http_stop(s);
	int status = cli_stop_status();
	cli_release_stop();
	fprintf(stderr, "fray serve: stopped\n");
	return status == 130 || status == 143 ? EXIT_OK : status;
}
