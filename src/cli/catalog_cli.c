/* A catalogue procedure on the command line: its options come from its
 * descriptor (libfray's catalogue), its checks, help and output from the
 * library; what is left here is the command line's own syntax (--x=V,
 * repeated and unknown options, --odds/--seed/--json/--max-memory). */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "catalog_cli.h"
#include "procout.h"

/* Takes the procedure's option at a->i into the call: true when one was
 * taken (a->status says whether it was good). */
static bool take_input(cli_args *a, fray_call *c)
{
	for (size_t k = 0; k < fray_call_ninputs(c); k++) {
		const char *opt = fray_call_option(c, k), *alias = fray_call_alias(c, k);
		const char *text = NULL;
		bool flag = fray_call_is_flag(c, k);
		if (flag ? !cli_flag(a, opt) && !(alias && cli_flag(a, alias))
			 : !cli_value(a, opt, &text) && !(alias && cli_value(a, alias, &text)))
			continue;
		if (a->status == EXIT_OK && fray_call_set(c, k, text) != FRAY_OK)
			a->status = EXIT_BAD_INPUT;
		return true;
	}
	return false;
}

static int unknown(cli_args *a, fray_call *c)
{
	const char *known[CLI_MAX_SEEN];
	char names[CLI_MAX_SEEN][48];
	size_t n = 0;
	for (size_t k = 0; k < fray_call_ninputs(c) && n + 7 < CLI_MAX_SEEN; k++) {
		snprintf(names[n], sizeof names[n], "%s", fray_call_option(c, k));
		known[n] = names[n];
		n++;
		if (fray_call_alias(c, k)) {
			snprintf(names[n], sizeof names[n], "%s", fray_call_alias(c, k));
			known[n] = names[n];
			n++;
		}
	}
	static const char *const common[] = {"--odds", "--exact", "--seed", "--json", "--max-memory", "--help",
					     "--trials"};
	bool simulates = fray_call_modes(c) & FRAY_MODE_SIMULATE;
	for (size_t k = 0; k < (simulates ? 7u : 6u); k++)
		known[n++] = common[k];
	return cli_unknown(a, known, n);
}

int cli_run_catalog(const char *command, int argc, char **argv)
{
	fray_ctx *ctx = fray_ctx_new(NULL, NULL);
	if (!ctx)
		return cli_error(command, EXIT_RUNTIME, "out of memory");
	fray_call *c = fray_call_new(ctx, command);
	if (!c) {
		int st = cli_fail(command, ctx);
		fray_ctx_free(ctx);
		return st;
	}
	cli_args a = {.cmd = command, .argc = argc, .argv = argv};
	proc_opts o = {0};
	uint64_t trials = 0;
	/* a procedure that only simulates (a campaign pursuit) runs trials */
	unsigned modes = fray_call_modes(c);
	bool simulate = (modes & FRAY_MODE_SIMULATE) && !(modes & FRAY_MODE_ROLL);
	int status = EXIT_OK;
	while (a.i < argc && a.status == EXIT_OK) {
		if (cli_is_help(argv[a.i])) {
			status = cli_help_topic(stdout, command) ? EXIT_OK : EXIT_RUNTIME;
			goto done;
		}
		if (simulate && cli_u64(&a, "--trials", 1, FRAY_CALL_MAX_TRIALS, &trials))
			continue;
		if (!take_input(&a, c) && !proc_opt(&a, &o)) {
			status = unknown(&a, c);
			goto done;
		}
	}
	if (a.status != EXIT_OK) {
		status = fray_ctx_status(ctx) != FRAY_OK ? cli_fail(command, ctx) : a.status;
		goto done;
	}
	if (o.odds && o.have_seed) {
		status = cli_error(command, EXIT_BAD_INPUT, "--odds and --seed do not go together: odds roll no dice");
		goto done;
	}
	if (fray_call_check(c) != FRAY_OK) {
		status = cli_fail(command, ctx);
		goto done;
	}
	if (!o.odds && o.max_mib) {
		status = cli_error(command, EXIT_BAD_INPUT, "--max-memory is for --odds (exact odds' memory budget)");
		goto done;
	}
	/* without --odds: a roll, or what the procedure has (advise: odds) */
	fray_mode mode = o.odds || !(modes & (FRAY_MODE_ROLL | FRAY_MODE_SIMULATE)) ? FRAY_MODE_ODDS
			 : simulate ? FRAY_MODE_SIMULATE : FRAY_MODE_ROLL;
	/* long odds and simulations show a progress line on a terminal and
	 * stop at Ctrl-C with what they did (exit 130), as simulate does */
	cli_progress prog;
	cli_progress_start(&prog, mode == FRAY_MODE_ODDS ? "paths" : "trials");
	prog.budget = mode == FRAY_MODE_ODDS;
	bool show = mode != FRAY_MODE_ROLL && isatty(2);
	fray_call_opts run = {.mode = mode, .exact = o.exact,
			      .json = o.json, .have_seed = o.have_seed, .seed = o.have_seed ? o.seed : cli_pick_seed(),
			      .max_bytes = o.max_mib << 20, .trials = trials,
			      .stop = &cli_stop_signal, .progress = show ? cli_progress_show : NULL, .ud = &prog};
	char *out = NULL;
	cli_catch_stop();
	fray_status st = fray_call_run(c, &run, &out);
	cli_release_stop();
	if (show)
		cli_progress_clear();
	if (st != FRAY_OK && cli_stop_signal) {
		fprintf(stderr, "fray %s: stopped: %s\n", command, fray_ctx_message(ctx));
		status = cli_stop_status();
		goto done;
	}
	if (st != FRAY_OK) {
		status = cli_fail(command, ctx);
		goto done;
	}
	fputs(out, stdout);
	free(out);
done:
	fray_call_free(c);
	fray_ctx_free(ctx);
	return status;
}
