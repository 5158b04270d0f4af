/* Exact odds' budgets on the command line: paths and memory (the
 * library's, passed on), and time, kept here as fray serve keeps its own:
 * a CPU-time timer that sets the work's stop flag, so exact odds, advice
 * and solo play on huge units end with a one-line refusal (exit 2,
 * nothing written) instead of running for hours. */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include "cli.h"

bool cli_budget_opt(cli_args *a, cli_budget *b)
{
	if (cli_u64(a, "--max-paths", 1, CLI_MAX_PATHS, &b->max_paths))
		return true;
	if (cli_u64(a, "--max-seconds", 0, CLI_MAX_SECONDS_MAX, &b->seconds)) {
		b->seconds_given = true;
		return true;
	}
	return false;
}

int cli_budget_env(const char *cmd, cli_budget *b)
{
	if (b->seconds_given)
		return EXIT_OK; /* the option wins over the environment */
	b->seconds = CLI_MAX_SECONDS;
	const char *v = getenv("FRAY_MAX_SECONDS");
	if (!v)
		return EXIT_OK;
	char *end;
	errno = 0;
	unsigned long long x = strtoull(v, &end, 10);
	if (*v < '0' || *v > '9' || *end || errno || x > CLI_MAX_SECONDS_MAX)
		return cli_error(cmd, EXIT_BAD_INPUT, "FRAY_MAX_SECONDS (the environment): expected a whole number of CPU "
				 "seconds from 0 (no time budget) to %u, got '%.40s'", CLI_MAX_SECONDS_MAX, v);
	b->seconds = x;
	return EXIT_OK;
}

static struct sigaction old_prof;
static bool armed;

/* The time is up: the work stops as at Ctrl-C, and cli_budget_passed
 * tells the two apart. */
static void on_budget(int sig)
{
	if (!cli_stop_signal)
		cli_stop_signal = sig;
}

void cli_budget_arm(const cli_budget *b)
{
	if (cli_stop_signal == SIGPROF) /* an earlier budget's, in a process that runs commands again (the fuzzer) */
		cli_stop_signal = 0;
	if (!b->seconds || armed)
		return;
	struct sigaction sa = {.sa_handler = on_budget, .sa_flags = SA_RESTART};
	sigemptyset(&sa.sa_mask);
	sigaction(SIGPROF, &sa, &old_prof);
	/* CPU time, not the clock's: waiting for a game file's lock, or a
	 * machine busy with other work, does not count */
	struct itimerval it = {.it_value = {.tv_sec = (time_t)b->seconds}};
	setitimer(ITIMER_PROF, &it, NULL);
	armed = true;
}

void cli_budget_disarm(void)
{
	if (!armed)
		return;
	struct itimerval off = {{0, 0}, {0, 0}};
	setitimer(ITIMER_PROF, &off, NULL);
	sigaction(SIGPROF, &old_prof, NULL);
	armed = false;
}

bool cli_budget_passed(void)
{
	return cli_stop_signal == SIGPROF;
}

int cli_budget_refuse(const char *cmd, const cli_budget *b, const char *what)
{
	return cli_error(cmd, EXIT_BAD_INPUT, "%s passed the time budget of %" PRIu64 " CPU seconds: nothing printed "
			 "or written (--max-seconds S or FRAY_MAX_SECONDS=S raises it; 0: no time budget)", what,
			 b->seconds);
}

const char *cli_budget_paths_hint(const cli_budget *b, fray_status st, const char *msg)
{
	/* only when the budget passed is this one: a procedure's own smaller
	 * one (a battle's --budget) is not raised by --max-paths */
	char mine[64];
	snprintf(mine, sizeof mine, "more than %" PRIu64 " outcome paths",
		 b->max_paths ? b->max_paths : (uint64_t)FRAY_ENUM_DEFAULT_PATHS);
	if (st != FRAY_ERR_LIMIT || !msg || !strstr(msg, mine))
		return NULL;
	return "(the path budget: --max-paths N raises it, up to 1000000000)";
}
