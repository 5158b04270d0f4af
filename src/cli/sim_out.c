/* A battle simulation's result as text or JSON, its shard files, and fray
 * merge, which adds shards back into the result of one run. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "sim_out.h"

/* The report is libfray's (as a request's "simulate" of adbg.battle). */
int sim_print(FILE *out, const fray_shard_meta *m, const fray_sim *s, fray_format form, const char *partial)
{
	fray_adbg_sim_about about = {m->scenario, m->policy, {m->side[0], m->side[1]}, m->seed, m->trials, partial};
	char *text = NULL;
	fray_status st = fray_adbg_sim_report(&about, s, form, &text);
	int status = EXIT_OK;
	if (st == FRAY_OK)
		fputs(text, out);
	else /* a report past the answer's budget is a budget passed: exit 2 (cli_exit_for) */
		status = cli_error("adbg simulate", cli_exit_for(st), "%s", st == FRAY_ERR_LIMIT ?
				   "the report would pass 64 MiB, the most one answer may be" : "out of memory");
	free(text);
	return status;
}

int sim_write_shard(const char *cmd, const char *path, const fray_shard_meta *m, const fray_sim *s,
		    uint64_t first, uint64_t last, bool partial)
{
	char *text = NULL;
	size_t len = 0;
	if (fray_sim_shard_text(m, s, first, last, &text, &len) != FRAY_OK)
		return cli_error(cmd, EXIT_RUNTIME, "out of memory");
	int status = EXIT_OK;
	if (!path)
		fwrite(text, 1, len, stdout);
	else {
		char beside[4200];
		const char *to = path;
		if (partial) {
			snprintf(beside, sizeof beside, "%s.partial", path);
			to = beside;
		}
		if (strlen(to) >= sizeof beside - 1 || !cli_write_atomic(to, text, len))
			status = cli_error(cmd, EXIT_RUNTIME, "cannot write %s: %s", to,
					   strlen(to) >= sizeof beside - 1 ? "the path is too long" : strerror(errno));
		else if (partial)
			cli_error(cmd, EXIT_OK, "the partial result went to %s; %s is left as it was", to, path);
	}
	free(text);
	return status;
}

/* ---- fray merge ---- */

/* Reads a shard file; the exit status, with every problem printed. */
static int read_shard(fray_ctx *ctx, const char *path, fray_sim_shard *sh)
{
	fray_doc *doc;
	if (fray_doc_load_file(ctx, path, &doc) != FRAY_OK)
		return cli_fail("merge", ctx);
	fray_sim_free(sh->sim);   /* the previous file's */
	bool ok = fray_sim_shard_read(doc, sh);
	for (size_t i = 0; i < fray_doc_error_count(doc); i++)
		cli_error("merge", EXIT_BAD_INPUT, "%s", fray_doc_error_msg(doc, i));
	fray_doc_free(doc);
	return ok ? EXIT_OK : EXIT_BAD_INPUT;
}

/* Whether the first shard file is a sweep's (its kind): its first lines,
 * as fray writes a sweep's shard of any size, else the whole file. A file
 * that does not read is left to the simulation's reader, which says why. */
static bool first_is_sweep(const char *path)
{
	if (shard_lines_is_sweep(path))
		return true;
	fray_ctx *ctx = fray_ctx_new(NULL, NULL);
	fray_doc *doc = NULL;
	bool sweep = ctx && fray_doc_load_file(ctx, path, &doc) == FRAY_OK && fray_shard_is_sweep(doc);
	fray_doc_free(doc);
	fray_ctx_free(ctx);
	return sweep;
}

int cmd_merge(int argc, char **argv)
{
	/* the formats asked for: JSON wins over CSV, and a simulation's
	 * merge refuses CSV even beside --json */
	unsigned asked = 0;
	int nfiles = 0;
	char **files = calloc((size_t)argc + 1, sizeof *files);
	if (!files)
		return cli_error("merge", EXIT_RUNTIME, "out of memory");
	for (int i = 0; i < argc; i++) {
		if (cli_is_help(argv[i])) {
			free(files);
			return cli_help_topic(stdout, "merge") ? EXIT_OK : EXIT_RUNTIME;
		}
		if (strcmp(argv[i], "--json") == 0)
			asked |= CLI_FORMAT(FRAY_FORMAT_JSON);
		else if (strcmp(argv[i], "--csv") == 0)
			asked |= CLI_FORMAT(FRAY_FORMAT_CSV);
		else if (argv[i][0] == '-' && argv[i][1]) {
			free(files);
			return cli_error("merge", EXIT_BAD_INPUT, "unknown option '%s' (expected --json, --csv or "
					 "shard files)", argv[i]);
		} else
			files[nfiles++] = argv[i];
	}
	if (nfiles == 0) {
		free(files);
		return cli_error("merge", EXIT_BAD_INPUT, "expected shard files (from fray adbg simulate "
				 "--shard I/N --output FILE)");
	}
	fray_format form = asked & CLI_FORMAT(FRAY_FORMAT_JSON)  ? FRAY_FORMAT_JSON
			   : asked & CLI_FORMAT(FRAY_FORMAT_CSV) ? FRAY_FORMAT_CSV
								 : FRAY_FORMAT_TEXT;
	if (first_is_sweep(files[0])) {
		int st = adbg_sweep_merge(nfiles, files, form);
		free(files);
		return st;
	}
	free(files);
	if (asked & CLI_FORMAT(FRAY_FORMAT_CSV))
		return cli_error("merge", EXIT_BAD_INPUT, "--csv is for a sweep's shards; a simulation's merge "
				 "prints text or --json");
	fray_ctx *ctx = fray_ctx_new(NULL, NULL);
	fray_sim_shard *one = calloc(1, sizeof *one);
	fray_sim_merge mg = {0};
	const char *first_file = NULL;
	int status = EXIT_OK;
	if (!ctx || !one) {
		status = cli_error("merge", EXIT_RUNTIME, "out of memory");
		goto done;
	}
	for (int i = 0; i < argc && status == EXIT_OK; i++) {
		if (strcmp(argv[i], "--json") == 0 || strcmp(argv[i], "--csv") == 0)
			continue;
		if ((status = read_shard(ctx, argv[i], one)) != EXIT_OK)
			break;
		if (!first_file)
			first_file = argv[i];
		switch (fray_sim_merge_add(&mg, one)) {
		case FRAY_MERGE_ADDED:
			break;
		case FRAY_MERGE_OTHER_RUN:
			status = cli_error("merge", EXIT_BAD_INPUT, "%s: not a shard of the same run as %s "
					   "(scenario, seed, trials, policy and number of shards must agree)",
					   argv[i], first_file);
			break;
		case FRAY_MERGE_TWICE:
			status = cli_error("merge", EXIT_BAD_INPUT, "%s: shard %" PRIu64 " of %" PRIu64
					   " given twice", argv[i], one->m.shard, one->m.nshards);
			break;
		case FRAY_MERGE_NOMEM:
			status = cli_error("merge", EXIT_RUNTIME, "out of memory");
			break;
		}
	}
	if (status == EXIT_OK) {
		char why[128];
		fray_sim_merge_end(&mg, why, sizeof why);
		status = sim_print(stdout, &mg.m, mg.total, form, why[0] ? why : NULL);
		/* what was merged is printed, marked partial; the status says it
		 * is not the whole run */
		if (status == EXIT_OK && why[0])
			status = cli_error("merge", EXIT_RUNTIME, "the result is partial: %s", why);
	}
done:
	fray_sim_merge_free(&mg);
	if (one)
		fray_sim_free(one->sim);
	free(one);
	fray_ctx_free(ctx);
	return status;
}
