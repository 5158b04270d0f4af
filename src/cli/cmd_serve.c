/* fray serve: the page at the table. The command's options and its
 * terminal; the server itself is src/serve/ (serve_http.h). */
#include <langinfo.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "cli.h"
#include "../serve/serve_handler.h"
#include "../serve/serve_http.h"
#include "../serve/serve_jobs.h"
#include "../serve/serve_qr.h"

/* Whether the user's locale writes UTF-8 (else the QR code is drawn in
 * ASCII). The C locale fray runs in otherwise is put back. */
static bool locale_is_utf8(void)
{
	const char *was = setlocale(LC_CTYPE, NULL);
	char kept[64];
	snprintf(kept, sizeof kept, "%s", was ? was : "C");
	bool utf8 = setlocale(LC_CTYPE, "") && (!strcmp(nl_langinfo(CODESET), "UTF-8"));
	setlocale(LC_CTYPE, kept);
	return utf8;
}

/* The QR code of url on stdout, the quiet zone included. On a terminal it
 * is black on white whatever the terminal's colours (a camera needs dark
 * modules on light); elsewhere (--qr into a file) the characters alone,
 * a drawn character a dark module. */
static void print_qr(const char *url)
{
	serve_qr q;
	char *text = NULL;
	if (serve_qr_encode(url, &q))
		text = serve_qr_text(&q, locale_is_utf8());
	serve_qr_free(&q);
	if (!text) {
		printf("  (no QR code: out of memory)\n");
		return;
	}
	bool colour = cli_color(stdout);
	for (char *line = text, *end; *line; line = end + 1) {
		end = strchr(line, '\n');
		*end = 0;
		if (colour)
			cli_raw_stdout("\033[30;47m");
		fputs(line, stdout);
		if (colour)
			cli_raw_stdout("\033[0m");
		putchar('\n');
	}
	free(text);
}

/* --lan: every URL the server has, the interface's name escaped (the
 * system's names reach the terminal only through fray_term_string), and
 * the first one's QR code when qr. */
static void print_lan(serve_http *s, bool qr)
{
	const serve_url *urls;
	size_t n = serve_http_urls(s, &urls);
	for (size_t i = 0; i < n && !urls[i].loopback; i++) {
		char iface[4 * sizeof urls[i].iface + 1];
		fray_term_string(urls[i].iface, iface, sizeof iface);
		printf("  on the network (%s): %s\n", iface, urls[i].url);
	}
	if (urls[0].loopback)
		printf("  no network address: this machine is on no network a phone could reach it by\n");
	if (qr) {
		printf("  a phone's camera opens %s from this code:\n", urls[0].url);
		print_qr(urls[0].url);
	}
}

/* Where the games are kept when --games is not given: the user's data
 * folder (XDG Base Directory: $XDG_DATA_HOME, else ~/.local/share), under
 * fray/games. Made when the first game is, not before. false when neither
 * variable says (no home). */
static bool default_games(char *out, size_t cap)
{
	const char *data = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
	int n;
	if (data && data[0] == '/') /* a relative one is to be ignored, the specification says */
		n = snprintf(out, cap, "%s/fray/games", data);
	else if (home && home[0] == '/')
		n = snprintf(out, cap, "%s/.local/share/fray/games", home);
	else
		return false;
	return n > 0 && (size_t)n < cap;
}

int cmd_serve(int argc, char **argv)
{
	cli_args a = {.cmd = "serve", .argc = argc, .argv = argv};
	uint64_t port = 8080, memory = SERVE_MEMORY_BUDGET >> 20, wait = SERVE_RUN_WAIT_S;
	bool lan = false, qr = false;
	const char *games = NULL;
	while (a.i < argc && a.status == EXIT_OK) {
		if (cli_is_help(argv[a.i]))
			return cli_help_topic(stdout, "serve") ? EXIT_OK : EXIT_RUNTIME;
		if (cli_flag(&a, "--lan"))
			lan = true;
		else if (cli_flag(&a, "--qr"))
			qr = true;
		else if (!cli_u64(&a, "--port", 0, 65535, &port) && !cli_u64(&a, "--memory", 1, 65536, &memory) &&
			 !cli_u64(&a, "--wait", 1, SERVE_RUN_WAIT_S, &wait) && !cli_value(&a, "--games", &games)) {
			static const char *const known[] = {"--port", "--lan", "--qr", "--memory", "--wait", "--games",
							    "--help"};
			return cli_unknown(&a, known, 7);
		}
	}
	if (a.status != EXIT_OK)
		return a.status;
	if (qr && !lan)
		return cli_error(a.cmd, EXIT_BAD_INPUT, "--qr: the QR code is of the address on the network; give --lan too");
	char kept[4096];
	if (games && (!games[0] || strlen(games) >= sizeof kept - 64))
		return cli_error(a.cmd, EXIT_BAD_INPUT, "--games: a folder's path (at most %zu bytes)", sizeof kept - 64);
	if (games)
		snprintf(kept, sizeof kept, "%s", games);
	else if (!default_games(kept, sizeof kept - 64))
		kept[0] = 0; /* no home: no games kept, api/v1/games says so */
	serve_http_opts o = {.port = (unsigned)port, .lan = lan, .memory_mib = (unsigned)memory,
			     .games = kept[0] ? kept : NULL, .run_wait_s = (unsigned)wait};
	char err[160];
	serve_http *s = serve_http_start(&o, err, sizeof err);
	if (!s)
		return cli_error(a.cmd, EXIT_RUNTIME, "%s", err);
	/* Ctrl-C is caught before the address is out: whoever reads the
	 * address may stop the server at once (the tests do) */
	cli_catch_stop();
	const serve_url *urls;
	size_t nurls = serve_http_urls(s, &urls);
	printf("fray serve: %s\n", urls[nurls - 1].url); /* this machine's own (127.0.0.1), on its line alone */
	if (kept[0]) {
		char shown[4 * sizeof kept + 1];
		fray_term_string(kept, shown, sizeof shown);
		printf("  games kept in %s\n", shown);
	} else {
		printf("  no games kept: no home folder (give --games DIR)\n");
	}
	/* the code last before Ctrl-C: a reader takes what follows it as the code */
	if (lan) /* the code on a terminal, or when asked (--qr: a script, a test) */
		print_lan(s, qr || isatty(1));
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
