/* The options every procedure takes, and the exact odds of a procedure
 * the catalogue does not hold yet (chit combat from a file). */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "procout.h"

bool proc_opt(cli_args *a, proc_opts *o)
{
	if (cli_flag(a, "--odds"))
		o->odds = true;
	else if (cli_flag(a, "--json"))
		o->json = true;
	else if (cli_flag(a, "--exact"))
		o->exact = o->odds = true;
	else if (cli_u64(a, "--seed", 0, UINT64_MAX, &o->seed))
		o->have_seed = true;
	else if (cli_u64(a, "--max-memory", 1, CLI_MAX_MEMORY_MIB, &o->max_mib))
		;
	else
		return false;
	return true;
}


static int print_odds(const char *cmd, fray_ctx *ctx, const proc_run *run,
		      const proc_opts *o)
{
	fray_dist *d;
	fray_enum_limits lim = run->limits;
	if (o->max_mib)
		lim.max_bytes = o->max_mib << 20;
	if (fray_enumerate(ctx, run->proc, NULL, run->input, run->nfields, &lim, &d) != FRAY_OK)
		return cli_fail(cmd, ctx);
	char res[256], num[40];
	size_t n = fray_dist_count(d);
	if (o->json) {
		printf("{\"procedure\": \"%s\", \"inputs\": %s, \"outcomes\": [", run->name,
		       run->inputs_json);
		for (size_t i = 0; i < n; i++) {
			char *ex = cli_exact(d, i);
			run->fmt(fray_dist_outcome(d, i), true, run->input, res, sizeof res);
			fray_double_str(fray_dist_p(d, i), num, sizeof num);
			printf("%s\n  {\"outcome\": {%s}, \"p\": %s, \"exact\": \"%s\"}",
			       i ? "," : "", res, num, ex ? ex : "");
			free(ex);
		}
		fray_double_str(fray_dist_unresolved(d), num, sizeof num);
		printf("\n], \"unresolved\": %s}\n", num);
	} else {
		printf("%s: exact odds\n\n", cli_tstr(run->title));
		for (size_t i = 0; i < n; i++) {
			char *ex = cli_exact(d, i);
			run->fmt(fray_dist_outcome(d, i), false, run->input, res, sizeof res);
			printf("  %7.3f%%  %-12s %s\n", 100 * fray_dist_p(d, i), ex ? ex : "", res);
			free(ex);
		}
		if (fray_dist_unresolved(d) > 0)
			printf("  %7.3f%%  %-12s (unresolved: beyond the depth limit)\n",
			       100 * fray_dist_unresolved(d), "");
	}
	fray_dist_free(d);
	return EXIT_OK;
}

int proc_run_print(const char *cmd, const proc_run *run, const proc_opts *o)
{
	if (o->odds && o->have_seed)
		return cli_error(cmd, EXIT_BAD_INPUT,
				 "--odds and --seed do not go together: odds roll no dice");
	if (!o->odds && o->max_mib)
		return cli_error(cmd, EXIT_BAD_INPUT, "--max-memory is for --odds (exact odds' memory budget)");
	fray_ctx *ctx = fray_ctx_new(NULL, NULL);
	if (!ctx)
		return cli_error(cmd, EXIT_RUNTIME, "out of memory");
	int status = print_odds(cmd, ctx, run, o);
	fray_ctx_free(ctx);
	return status;
}
