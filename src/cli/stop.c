/* Ctrl-C and SIGTERM during long work (simulations, sweeps, battle odds):
 * both ask the work to stop where it is, so that what was counted so far
 * is still printed or written (as partial), never lost. */
#include <signal.h>
#include "cli.h"

volatile sig_atomic_t cli_stop_signal;

static void on_stop(int sig)
{
	cli_stop_signal = sig;
}

static struct sigaction old_int, old_term;

void cli_catch_stop(void)
{
	struct sigaction sa = {.sa_handler = on_stop};
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
}

void cli_release_stop(void)
{
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
}

int cli_stop_status(void)
{
	return 128 + (cli_stop_signal ? (int)cli_stop_signal : SIGINT);
}
