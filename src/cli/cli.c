/* Option parsing, messages, exit statuses and colour for the fray command. */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "cli.h"
#include "../common/text.h"

int cli_error(const char *cmd, int status, const char *fmt, ...)
{
	/* one line: a newline from a name or a path in it is shown escaped */
	char msg[4096], shown[4096];
	va_list ap;
	va_start(ap, fmt);
	textbuf t = text_on(msg, sizeof msg);
	text_vadd(&t, fmt, ap);
	va_end(ap);
	cli_escape_controls(shown, sizeof shown, msg);
	if (cmd)
		fprintf(stderr, "fray %s: %s\n", cmd, shown);
	else
		fprintf(stderr, "fray: %s\n", shown);
	return status;
}

int cli_exit_for(fray_status s)
{
	return s == FRAY_ERR_INPUT || s == FRAY_ERR_LIMIT || s == FRAY_ERR_BUDGET ? EXIT_BAD_INPUT : EXIT_RUNTIME;
}

int cli_fail(const char *cmd, const fray_ctx *ctx)
{
	return cli_fail_hint(cmd, ctx, NULL);
}

int cli_fail_hint(const char *cmd, const fray_ctx *ctx, const char *hint)
{
	fray_status s = fray_ctx_status(ctx);
	int status = cli_exit_for(s);
	const char *msg = fray_ctx_message(ctx);
	return cli_error(cmd, status, "%s%s%s", *msg ? msg : fray_status_str(s), hint ? " " : "", hint ? hint : "");
}

bool cli_decimal(const char *v, double *out)
{
	int digits = 0, points = 0;
	for (const char *p = v; *p; p++) {
		if (*p >= '0' && *p <= '9')
			digits++;
		else if (*p == '.' && points++ == 0)
			;
		else
			return false;
	}
	if (digits == 0 || digits > 12)
		return false;
	double x = strtod(v, NULL);
	if (!(x <= 1e6))
		return false;
	*out = x;
	return true;
}

bool cli_is_option(const char *arg)
{
	return arg[0] == '-' && arg[1] != '\0';
}

bool cli_is_help(const char *arg)
{
	return strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0;
}

bool cli_seen(const cli_args *a, const char *name)
{
	for (int k = 0; k < a->nseen; k++)
		if (strcmp(a->seen[k], name) == 0)
			return true;
	return false;
}

/* Records option name as taken; a second time is an error unless the
 * command lets it repeat. */
static void take(cli_args *a, const char *name)
{
	bool again = cli_seen(a, name);
	for (const char *const *r = a->repeatable; again && r && *r; r++)
		if (strcmp(*r, name) == 0)
			return;
	if (again) {
		if (a->status == EXIT_OK)
			a->status = cli_error(a->cmd, EXIT_BAD_INPUT, "option %s is given twice "
					      "(which one did you mean?)", name);
		return;
	}
	if (a->nseen < CLI_MAX_SEEN)
		snprintf(a->seen[a->nseen++], sizeof a->seen[0], "%s", name);
}

bool cli_flag(cli_args *a, const char *name)
{
	if (a->i < a->argc && strcmp(a->argv[a->i], name) == 0) {
		a->i++;
		take(a, name);
		return true;
	}
	return false;
}

bool cli_format(cli_args *a, unsigned offers, fray_format *form)
{
	for (unsigned f = FRAY_FORMAT_TEXT + 1; f < FRAY_FORMAT_COUNT; f++) {
		char option[32];
		snprintf(option, sizeof option, "--%s", fray_format_name((fray_format)f));
		if ((offers & CLI_FORMAT(f)) && cli_flag(a, option)) {
			*form = (fray_format)f;
			return true;
		}
	}
	return false;
}

bool cli_value(cli_args *a, const char *name, const char **value)
{
	if (a->i >= a->argc)
		return false;
	const char *arg = a->argv[a->i];
	size_t n = strlen(name);
	if (strncmp(arg, name, n) != 0)
		return false;
	if (arg[n] == '=') {
		*value = arg + n + 1;
		a->i++;
		take(a, name);
		return true;
	}
	if (arg[n] != '\0')
		return false;
	take(a, name);
	if (a->i + 1 >= a->argc) {
		a->status = cli_error(a->cmd, EXIT_BAD_INPUT,
				      "option %s expects a value", name);
		a->i++;
		*value = NULL;
		return true;
	}
	*value = a->argv[a->i + 1];
	a->i += 2;
	return true;
}

bool cli_u64(cli_args *a, const char *name, uint64_t lo, uint64_t hi,
	     uint64_t *out)
{
	const char *v;
	if (!cli_value(a, name, &v))
		return false;
	if (!v)
		return true;
	char *end;
	errno = 0;
	unsigned long long x = strtoull(v, &end, 10);
	if (*v < '0' || *v > '9' || *end || errno || x < lo || x > hi) {
		a->status = cli_error(a->cmd, EXIT_BAD_INPUT,
				      "option %s expects a whole number from %" PRIu64
				      " to %" PRIu64 ", got '%s'", name, lo, hi, v);
		return true;
	}
	*out = x;
	return true;
}

bool cli_i64(cli_args *a, const char *name, int64_t lo, int64_t hi,
	     int64_t *out)
{
	const char *v;
	if (!cli_value(a, name, &v))
		return false;
	if (!v)
		return true;
	char *end;
	errno = 0;
	long long x = strtoll(v, &end, 10);
	if (!*v || *end || errno || x < lo || x > hi) {
		a->status = cli_error(a->cmd, EXIT_BAD_INPUT,
				      "option %s expects a whole number from %" PRId64
				      " to %" PRId64 ", got '%s'", name, lo, hi, v);
		return true;
	}
	*out = x;
	return true;
}

bool cli_enum(cli_args *a, const char *name, const char *const *names,
	      size_t n, size_t *out)
{
	const char *v;
	if (!cli_value(a, name, &v))
		return false;
	if (!v)
		return true;
	for (size_t i = 0; i < n; i++)
		if (strcmp(v, names[i]) == 0) {
			*out = i;
			return true;
		}
	char list[1024];
	textbuf t = text_on(list, sizeof list);
	for (size_t i = 0; i < n; i++)
		text_add(&t, "%s%s", i ? ", " : "", names[i]);
	a->status = cli_error(a->cmd, EXIT_BAD_INPUT, "option %s expects one of %s, got '%s'",
			      name, list, v);
	return true;
}

/* Edit distance for option hints (options are short). */
const char *cli_nearest(const char *name, const char *const *known, size_t n, size_t stride)
{
	return text_nearest(name, known, n, stride);
}

int cli_unknown(cli_args *a, const char *const *known, size_t nknown)
{
	const char *arg = a->argv[a->i];
	if (arg[0] != '-' || arg[1] == '\0' || (arg[1] >= '0' && arg[1] <= '9'))
		return cli_error(a->cmd, EXIT_BAD_INPUT,
				 "unexpected argument '%s' (see 'fray %s --help')",
				 arg, a->cmd);
	size_t best = SIZE_MAX, best_d = 3;
	char name[64];
	snprintf(name, sizeof name, "%.*s", (int)strcspn(arg, "="), arg);
	for (size_t k = 0; k < nknown; k++) {
		size_t d = text_edits(name, known[k]);
		if (d < best_d) {
			best_d = d;
			best = k;
		}
	}
	if (best != SIZE_MAX)
		return cli_error(a->cmd, EXIT_BAD_INPUT,
				 "unknown option '%s' (did you mean '%s'?)", name,
				 known[best]);
	return cli_error(a->cmd, EXIT_BAD_INPUT,
			 "unknown option '%s' (see 'fray %s --help')", name, a->cmd);
}

void cli_narrate(void *narrator, const fray_event *ev)
{
	cli_narrator *t = narrator;
	size_t (*render)(const fray_event *, char *, size_t) = t->form == FRAY_FORMAT_JSON ? fray_event_json : fray_event_text;
	/* a line longer than the buffer (long names) is rendered whole, never cut:
	 * a cut JSON event would break the document */
	const char *line = t->buf;
	char *big = NULL;
	size_t n = render(ev, t->buf, sizeof t->buf);
	if (n >= sizeof t->buf && (big = malloc(n + 1)) != NULL) {
		render(ev, big, n + 1);
		line = big;
	} else if (n >= sizeof t->buf && t->form == FRAY_FORMAT_JSON) {
		line = "{\"event\": \"note\", \"text\": \"(out of memory)\"}";
	}
	if (t->form == FRAY_FORMAT_JSON) {
		printf("%s\n    %s", t->first ? "" : ",", line);
	} else {
		bool heading = ev->kind == FRAY_EV_NOTE && ev->text &&
			       (strncmp(ev->text, "==", 2) == 0 || strncmp(ev->text, "--", 2) == 0);
		/* an event is one line: a name's newline must not forge another */
		char *shown = malloc(4 * strlen(line) + 4);
		if (shown)
			cli_escape_controls(shown, 4 * strlen(line) + 4, line);
		printf(heading ? "\n%s\n" : "  %s\n", shown ? shown : "(out of memory)");
		free(shown);
	}
	free(big);
	t->first = false;
}

bool cli_color(FILE *f)
{
	/* stdout and stderr are the terminal guard's streams (term.c), which
	 * have no descriptor of their own: ask of the ones they write to */
	int fd = f == stdout ? 1 : f == stderr ? 2 : fileno(f);
	return getenv("NO_COLOR") == NULL && fd >= 0 && isatty(fd);
}

uint64_t cli_pick_seed(void)
{
	uint64_t seed = 0;
	FILE *f = fopen("/dev/urandom", "rb");
	if (!f || fread(&seed, sizeof seed, 1, f) != 1)
		seed = (uint64_t)time(NULL) * 2654435761u ^ (uint64_t)getpid();
	if (f)
		fclose(f);
	/* short enough to read out at the table and type back in */
	return seed % 1000000000u;
}

const char *cli_jstr(const char *s)
{
	static char slot[CLI_JSTR_SLOTS][16384];
	static unsigned next;
	char *dst = slot[next++ % CLI_JSTR_SLOTS];
	if (fray_json_string(s, dst, sizeof slot[0]) < sizeof slot[0])
		return dst;
	/* too long: encode a prefix that fits even if every byte became a
	 * six-character escape (a cut UTF-8 sequence becomes U+FFFD) */
	char prefix[sizeof slot[0] / 6 - 8];
	snprintf(prefix, sizeof prefix, "%s", s);
	fray_json_string(prefix, dst, sizeof slot[0]);
	return dst;
}

char *cli_exact(const fray_dist *d, size_t i)
{
	size_t n = fray_dist_p_exact(d, i, NULL, 0);
	char *s = malloc(n + 1);
	if (s)
		fray_dist_p_exact(d, i, s, n + 1);
	return s;
}
