/* A battle simulation's result as text or JSON, its shard files, and fray
 * merge, which adds shards back into the result of one run. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "sim_out.h"

/* The report is libfray's (as a request's "simulate" of adbg.battle). */
void sim_print(FILE *out, const sim_meta *m, const fray_sim *s, bool json, const char *partial)
{
	fray_adbg_sim_about about = {m->scenario, m->policy, {m->side[0], m->side[1]}, m->seed, m->trials, partial};
	char *text = NULL;
	fray_status st = fray_adbg_sim_report(&about, s, json, &text);
	if (st == FRAY_OK)
		fputs(text, out);
	else
		cli_error("adbg simulate", EXIT_RUNTIME, "%s", st == FRAY_ERR_LIMIT ?
			  "the report would pass 64 MiB, the most one answer may be" : "out of memory");
	free(text);
}

int sim_write_shard(const char *cmd, const char *path, const sim_meta *m, const fray_sim *s,
		    uint64_t first, uint64_t last, bool partial)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	if (!f)
		return cli_error(cmd, EXIT_RUNTIME, "out of memory");
	fprintf(f, "{\"fray_shard\": %d, \"kind\": \"adbg.simulate\", \"scenario\": %s,\n"
		" \"scenario_fnv1a\": \"%016" PRIx64 "\", \"sides\": [%s, %s], \"policy\": %s,\n"
		" \"seed\": \"%" PRIu64 "\", \"trials\": %" PRIu64 ", \"shard\": %" PRIu64 ", \"of\": %" PRIu64
		", \"first\": %" PRIu64 ", \"last\": %" PRIu64 ", \"counted\": %" PRIu64 ",\n \"counts\": [",
		SHARD_VERSION, cli_jstr(m->scenario), m->digest, cli_jstr(m->side[0]), cli_jstr(m->side[1]),
		cli_jstr(m->policy), m->seed, m->trials, m->shard, m->nshards, first, last,
		fray_sim_trials(s));
	for (size_t fl = 0; fl < fray_sim_nfields(s); fl++) {
		fprintf(f, "%s\n  [", fl ? "," : "");
		bool any = false;
		for (int v = 0; v <= FRAY_SIM_MAX_VALUE; v++)
			if (fray_sim_count(s, fl, v)) {
				fprintf(f, "%s[%d, %" PRIu64 "]", any ? ", " : "", v, fray_sim_count(s, fl, v));
				any = true;
			}
		fprintf(f, "]");
	}
	fprintf(f, "]}\n");
	int status = EXIT_OK;
	if (fclose(f) != 0)
		status = cli_error(cmd, EXIT_RUNTIME, "out of memory");
	else if (!path)
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
static int read_shard(fray_ctx *ctx, const char *path, sim_shard *sh)
{
	fray_doc *doc;
	if (fray_doc_load_file(ctx, path, &doc) != FRAY_OK)
		return cli_fail("merge", ctx);
	fray_sim_free(sh->sim);   /* the previous file's */
	bool ok = shard_read(doc, sh);
	for (size_t i = 0; i < fray_doc_error_count(doc); i++)
		cli_error("merge", EXIT_BAD_INPUT, "%s", fray_doc_error_msg(doc, i));
	fray_doc_free(doc);
	return ok ? EXIT_OK : EXIT_BAD_INPUT;
}

/* Whether the first shard file is a sweep's (its kind); a file that does
 * not read is left to the simulation's reader, which says why. */
static bool first_is_sweep(const char *path)
{
	fray_ctx *ctx = fray_ctx_new(NULL, NULL);
	fray_doc *doc = NULL;
	bool sweep = ctx && fray_doc_load_file(ctx, path, &doc) == FRAY_OK && shard_is_sweep(doc);
	fray_doc_free(doc);
	fray_ctx_free(ctx);
	return sweep;
}

int cmd_merge(int argc, char **argv)
{
	bool json = false, csv = false;
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
			json = true;
		else if (strcmp(argv[i], "--csv") == 0)
			csv = true;
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
	if (first_is_sweep(files[0])) {
		int st = adbg_sweep_merge(nfiles, files, json, csv);
		free(files);
		return st;
	}
	free(files);
	if (csv)
		return cli_error("merge", EXIT_BAD_INPUT, "--csv is for a sweep's shards; a simulation's merge "
				 "prints text or --json");
	fray_ctx *ctx = fray_ctx_new(NULL, NULL);
	sim_shard *one = calloc(1, sizeof *one);
	fray_sim *total = fray_sim_new(FRAY_ADBG_SIM_FIELDS);
	sim_meta m;
	const char *first_file = NULL;
	uint64_t *seen = NULL;
	int status = EXIT_OK, merged = 0;
	if (!ctx || !one || !total) {
		status = cli_error("merge", EXIT_RUNTIME, "out of memory");
		goto done;
	}
	bool partial = false;
	for (int i = 0; i < argc && status == EXIT_OK; i++) {
		if (strcmp(argv[i], "--json") == 0 || strcmp(argv[i], "--csv") == 0)
			continue;
		if ((status = read_shard(ctx, argv[i], one)) != EXIT_OK)
			break;
		if (merged == 0) {
			m = one->m;
			first_file = argv[i];
			seen = calloc((one->m.nshards + 63) / 64, sizeof *seen);
			if (!seen) {
				status = cli_error("merge", EXIT_RUNTIME, "out of memory");
				break;
			}
		} else if (!shard_same_run(&m, &one->m)) {
			status = cli_error("merge", EXIT_BAD_INPUT, "%s: not a shard of the same run as %s "
					   "(scenario, seed, trials, policy and number of shards must agree)",
					   argv[i], first_file);
			break;
		}
		uint64_t k = one->m.shard - 1;
		if (seen[k / 64] & (1ull << (k % 64))) {
			status = cli_error("merge", EXIT_BAD_INPUT, "%s: shard %" PRIu64 " of %" PRIu64
					   " given twice", argv[i], one->m.shard, one->m.nshards);
			break;
		}
		seen[k / 64] |= 1ull << (k % 64);
		partial |= fray_sim_trials(one->sim) < one->last - one->first;
		fray_sim_add(total, one->sim);
		merged++;
	}
	if (status == EXIT_OK) {
		char why[128] = "";
		if ((uint64_t)merged < m.nshards)
			snprintf(why, sizeof why, "%d of %" PRIu64 " shards merged", merged, m.nshards);
		else if (partial)
			snprintf(why, sizeof why, "a shard was stopped early");
		m.shard = 1;
		m.nshards = 1;
		sim_print(stdout, &m, total, json, why[0] ? why : NULL);
		/* what was merged is printed, marked partial; the status says it
		 * is not the whole run */
		if (why[0])
			status = cli_error("merge", EXIT_RUNTIME, "the result is partial: %s", why);
	}
done:
	free(seen);
	fray_sim_free(total);
	if (one)
		fray_sim_free(one->sim);
	free(one);
	fray_ctx_free(ctx);
	return status;
}
