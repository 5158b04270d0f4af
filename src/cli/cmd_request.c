/* fray request [FILE|-]: one JSON request run through fray_request, and
 * fray procedures [--json]: the catalogue. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cli.h"

/* True when fd is the very file standard output writes to: `fray request
 * r.json > r.json` (the shell truncates r.json before fray runs). */
static bool is_stdout(int fd)
{
	struct stat in, out;
	return fstat(fd, &in) == 0 && fstat(1, &out) == 0 && S_ISREG(in.st_mode) && in.st_dev == out.st_dev &&
	       in.st_ino == out.st_ino;
}

int cli_read_request(const char *cmd, const char *path, char **out)
{
	return cli_read_text(cmd, path, FRAY_REQUEST_MAX_BYTES, out);
}

/* The file's bytes, never more than max plus one (so a larger one is told
 * as such), from a regular file or standard input, opened by the
 * library's one checked opener (fray_input_open: a FIFO, a device, a
 * folder is refused at once, never waited on). */
int cli_read_text(const char *cmd, const char *path, size_t max, char **out)
{
	fray_ctx *ctx = fray_ctx_new(NULL, NULL);
	if (!ctx)
		return cli_error(cmd, EXIT_RUNTIME, "out of memory");
	int fd;
	if (fray_input_open(ctx, path, max, &fd) != FRAY_OK) {
		int status = cli_fail(cmd, ctx);
		fray_ctx_free(ctx);
		return status;
	}
	fray_ctx_free(ctx);
	bool std_in = fd == 0;
	size_t cap = max + 1, len = 0;
	char *buf = malloc(cap + 1);
	if (!buf) {
		if (!std_in)
			close(fd);
		return cli_error(cmd, EXIT_RUNTIME, "out of memory");
	}
	while (len < cap) {
		ssize_t n = read(fd, buf + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int e = errno;
			free(buf);
			if (!std_in)
				close(fd);
			return cli_error(cmd, EXIT_BAD_INPUT, "%s: cannot read: %s", path, strerror(e));
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	bool emptied = len == 0 && !std_in && is_stdout(fd);
	if (!std_in)
		close(fd);
	buf[len] = '\0';
	if (emptied) {
		free(buf);
		return cli_error(cmd, EXIT_BAD_INPUT, "%s: empty, and it is also where standard output goes: the "
				 "shell emptied it before fray started (send the output to another file)", path);
	}
	if (len > max) {
		free(buf);
		return cli_error(cmd, EXIT_BAD_INPUT, "%s: larger than %zu bytes", path, max);
	}
	if (strlen(buf) != len) {
		size_t at = strlen(buf);
		free(buf);
		return cli_error(cmd, EXIT_BAD_INPUT, "%s: a NUL byte at offset %zu: expected text", path, at);
	}
	*out = buf;
	return EXIT_OK;
}

int cmd_request(int argc, char **argv)
{
	/* [FILE|-] and the time budget (--max-seconds S, else FRAY_MAX_SECONDS,
	 * else 60 CPU seconds): a request's exact odds or simulation past it
	 * end with one line, exit 2, nothing printed */
	static const char *const known[] = {"--max-seconds", "--help"};
	cli_args a = {.cmd = "request", .argc = argc, .argv = argv};
	cli_budget budget = {0};
	const char *path = NULL;
	while (a.i < argc && a.status == EXIT_OK) {
		if (cli_is_help(argv[a.i]))
			return cli_help_topic(stdout, "request") ? EXIT_OK : EXIT_RUNTIME;
		if (cli_u64(&a, "--max-seconds", 0, CLI_MAX_SECONDS_MAX, &budget.seconds))
			budget.seconds_given = true;
		else if (!path && (!cli_is_option(argv[a.i]) || !strcmp(argv[a.i], "-")))
			path = argv[a.i++];
		else if (cli_is_option(argv[a.i]))
			a.status = cli_unknown(&a, known, sizeof known / sizeof known[0]);
		else
			a.status = cli_error("request", EXIT_BAD_INPUT, "unexpected argument '%s' (one request file, or - "
					     "for standard input)", argv[a.i]);
	}
	if (a.status != EXIT_OK)
		return a.status;
	if (!path)
		path = "-";
	int status = cli_budget_env("request", &budget);
	char *text = NULL;
	if (status == EXIT_OK)
		status = cli_read_request("request", path, &text);
	if (status != EXIT_OK)
		return status;
	fray_ctx *ctx = fray_ctx_new(NULL, NULL);
	char *response = NULL;
	fray_status st = FRAY_ERR_NOMEM;
	if (ctx) {
		/* Ctrl-C or SIGTERM, and the budget's timer, stop the work
		 * where it is (a long exact walk or simulation): one line
		 * and the shell's status for the signal, nothing printed */
		fray_request_opts ro = {.version = FRAY_REQUEST_OPTS_VERSION, .stop = &cli_stop_signal};
		cli_catch_stop();
		cli_budget_arm(&budget);
		st = fray_request_with(ctx, text, &ro, &response);
		cli_budget_disarm();
		cli_release_stop();
	}
	if (!ctx) {
		status = cli_error("request", EXIT_RUNTIME, "out of memory");
	} else if (st != FRAY_OK && cli_budget_passed()) {
		status = cli_budget_refuse("request", &budget, "the request");
	} else if (st != FRAY_OK && cli_stop_signal) {
		status = cli_error("request", cli_stop_status(), "interrupted: %s; no answer", fray_ctx_message(ctx));
	} else if (st != FRAY_OK) {
		/* the library names the text "request": name the file instead */
		const char *msg = fray_ctx_message(ctx);
		fray_status s = fray_ctx_status(ctx);
		int code = cli_exit_for(s);
		/* an unknown procedure: the command line says where they are listed */
		const char *input = fray_ctx_input(ctx);
		const char *hint = s == FRAY_ERR_INPUT && input && !strcmp(input, "procedure") ? " (see 'fray procedures')" : "";
		if (strncmp(msg, "request:", 8) == 0)
			status = cli_error("request", code, "%s:%s%s", strcmp(path, "-") == 0 ? "(stdin)" : path, msg + 8,
					   hint);
		else
			status = cli_fail("request", ctx);
	} else {
		fputs(response, stdout);
	}
	free(response);
	free(text);
	fray_ctx_free(ctx);
	return status;
}

int cmd_procedures(int argc, char **argv)
{
	fray_format form = FRAY_FORMAT_TEXT;
	for (int i = 0; i < argc; i++) {
		if (cli_is_help(argv[i]))
			return cli_help_topic(stdout, "procedures") ? EXIT_OK : EXIT_RUNTIME;
		if (strcmp(argv[i], "--json") == 0 && form == FRAY_FORMAT_TEXT)
			form = FRAY_FORMAT_JSON;
		else
			return cli_error("procedures", EXIT_BAD_INPUT, "unexpected argument '%s' (only --json)", argv[i]);
	}
	fray_ctx *ctx = fray_ctx_new(NULL, NULL);
	if (!ctx)
		return cli_error("procedures", EXIT_RUNTIME, "out of memory");
	char *text = NULL;
	int status = EXIT_OK;
	if ((form == FRAY_FORMAT_JSON ? fray_procedures_json(ctx, &text) : fray_procedures_text(ctx, &text)) != FRAY_OK)
		status = cli_fail("procedures", ctx);
	else
		fputs(text, stdout);
	free(text);
	fray_ctx_free(ctx);
	return status;
}
