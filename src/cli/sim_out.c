/* A battle simulation's result as text or JSON, its shard files, and fray
 * merge, which adds shards back into the result of one run. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "sim_out.h"

static const struct {
	const char *key, *words;
} stats[FRAY_ADBG_SIM_PER_SIDE] = {
	[FRAY_ADBG_SIM_ELIMINATED] = {"eliminated", "units eliminated"},
	[FRAY_ADBG_SIM_ROUTED] = {"routed", "units routed"},
	[FRAY_ADBG_SIM_DISRUPTED] = {"disrupted", "units disrupted"},
	[FRAY_ADBG_SIM_LEADERS_LOST] = {"leaders_lost", "leaders lost"},
	[FRAY_ADBG_SIM_LOSSES] = {"losses", "losses (after the routed roll)"},
	[FRAY_ADBG_SIM_STANDING] = {"standing", "in good order at the end"},
};

static int top_value(const fray_sim *s, size_t f)
{
	int top = 0;
	for (int v = 0; v <= FRAY_SIM_MAX_VALUE; v++)
		if (s->count[f][v])
			top = v;
	return top;
}

static double share(uint64_t k, uint64_t n)
{
	return n ? (double)k / (double)n : 0;
}

/* A field's distribution as a small bar chart: one block per value from
 * 0, as tall as its share against the commonest value. */
static void spark(FILE *out, const fray_sim *s, size_t f)
{
	static const char *const blocks[] = {" ", "\u2581", "\u2582", "\u2583", "\u2584",
					     "\u2585", "\u2586", "\u2587", "\u2588"};
	int top = top_value(s, f);
	uint64_t most = 0;
	for (int v = 0; v <= top; v++)
		if (s->count[f][v] > most)
			most = s->count[f][v];
	fprintf(out, "0");
	for (int v = 0; v <= top && v < 40; v++) {
		int h = most ? (int)((8 * s->count[f][v] + most - 1) / most) : 0;
		fputs(blocks[h], out);
	}
	fprintf(out, "%d", top);
}

static void json_dist(FILE *out, const fray_sim *s, size_t f)
{
	char num[40];
	fray_double_str(fray_sim_mean(s, f), num, sizeof num);
	fprintf(out, "{\"mean\": %s, \"p\": [", num);
	for (int v = 0, top = top_value(s, f); v <= top; v++) {
		fray_double_str(share(s->count[f][v], s->trials), num, sizeof num);
		fprintf(out, "%s%s", v ? ", " : "", num);
	}
	fprintf(out, "]}");
}

void sim_json_rate(FILE *out, uint64_t k, uint64_t n)
{
	double lo, hi;
	char a[40], b[40], c[40];
	fray_wilson95(k, n, &lo, &hi);
	fray_double_str(share(k, n), a, sizeof a);
	fray_double_str(lo, b, sizeof b);
	fray_double_str(hi, c, sizeof c);
	fprintf(out, "{\"p\": %s, \"lo\": %s, \"hi\": %s}", a, b, c);
}

static void print_json(FILE *out, const sim_meta *m, const fray_sim *s, const char *partial)
{
	fprintf(out, "{\"scenario\": %s, \"policy\": %s, \"seed\": %" PRIu64 ", \"trials\": %" PRIu64
		", \"counted\": %" PRIu64 ", \"partial\": %s,\n \"draw\": ",
		cli_jstr(m->scenario), cli_jstr(m->policy), m->seed, m->trials, s->trials,
		partial ? cli_jstr(partial) : "false");
	sim_json_rate(out, s->count[FRAY_ADBG_SIM_WINNER][0], s->trials);
	fprintf(out, ",\n \"rounds\": ");
	json_dist(out, s, FRAY_ADBG_SIM_ROUNDS);
	fprintf(out, ",\n \"sides\": [");
	for (int side = 0; side < 2; side++) {
		fprintf(out, "%s\n  {\"name\": %s, \"win\": ", side ? "," : "", cli_jstr(m->side[side]));
		sim_json_rate(out, s->count[FRAY_ADBG_SIM_WINNER][side + 1], s->trials);
		for (int k = 0; k < FRAY_ADBG_SIM_PER_SIDE; k++) {
			fprintf(out, ",\n   \"%s\": ", stats[k].key);
			json_dist(out, s, FRAY_ADBG_SIM_SIDE + (size_t)(side * FRAY_ADBG_SIM_PER_SIDE + k));
		}
		fprintf(out, "}");
	}
	fprintf(out, "]}\n");
}

void sim_print(FILE *out, const sim_meta *m, const fray_sim *s, bool json, const char *partial)
{
	if (json) {
		print_json(out, m, s, partial);
		return;
	}
	fprintf(out, "%s: %" PRIu64 " battles simulated (seed %" PRIu64 ", policy %s)\n",
		cli_tstr(m->scenario), s->trials, m->seed, cli_tstr(m->policy));
	if (partial)
		fprintf(out, "PARTIAL: %s; %" PRIu64 " of %" PRIu64 " battles counted\n", partial, s->trials,
			m->trials);
	fprintf(out, "\n  %-32s %7s   %s\n", "", "wins", "95% interval");
	for (int w = 1; w <= 3; w++) {
		uint64_t k = s->count[FRAY_ADBG_SIM_WINNER][w % 3];
		double lo, hi, p = share(k, s->trials);
		fray_wilson95(k, s->trials, &lo, &hi);
		fprintf(out, "  %-32.32s %6.2f%%   %6.2f%% - %6.2f%%  ", w < 3 ? cli_tstr(m->side[w - 1]) : "draw",
			100 * p, 100 * lo, 100 * hi);
		for (int i = 0; i < (int)(p * 40 + 0.5); i++)
			fputs("\u2588", out);
		fputc('\n', out);
	}
	fprintf(out, "\n  %-26s %-22.22s   %-22.22s\n", "mean per battle (0..max)", cli_tstr(m->side[0]),
		cli_tstr(m->side[1]));
	for (int k = 0; k < FRAY_ADBG_SIM_PER_SIDE; k++) {
		fprintf(out, "  %-26s", stats[k].words);
		for (int side = 0; side < 2; side++) {
			size_t f = FRAY_ADBG_SIM_SIDE + (size_t)(side * FRAY_ADBG_SIM_PER_SIDE + k);
			fprintf(out, " %5.2f  ", fray_sim_mean(s, f));
			spark(out, s, f);
			fprintf(out, "%*s", top_value(s, f) < 10 ? 14 - top_value(s, f) : 1, "");
		}
		fputc('\n', out);
	}
	fprintf(out, "  %-26s %5.2f  ", "rounds fought", fray_sim_mean(s, FRAY_ADBG_SIM_ROUNDS));
	spark(out, s, FRAY_ADBG_SIM_ROUNDS);
	fputc('\n', out);
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
		s->trials);
	for (size_t fl = 0; fl < s->nfields; fl++) {
		fprintf(f, "%s\n  [", fl ? "," : "");
		bool any = false;
		for (int v = 0; v <= FRAY_SIM_MAX_VALUE; v++)
			if (s->count[fl][v]) {
				fprintf(f, "%s[%d, %" PRIu64 "]", any ? ", " : "", v, s->count[fl][v]);
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
	bool ok = shard_read(doc, sh);
	for (size_t i = 0; i < fray_doc_error_count(doc); i++)
		cli_error("merge", EXIT_BAD_INPUT, "%s", fray_doc_error_msg(doc, i));
	fray_doc_free(doc);
	return ok ? EXIT_OK : EXIT_BAD_INPUT;
}

int cmd_merge(int argc, char **argv)
{
	bool json = false;
	int nfiles = 0;
	for (int i = 0; i < argc; i++) {
		if (cli_is_help(argv[i]))
			return cli_help_topic(stdout, "merge") ? EXIT_OK : EXIT_RUNTIME;
		if (strcmp(argv[i], "--json") == 0)
			json = true;
		else if (argv[i][0] == '-' && argv[i][1])
			return cli_error("merge", EXIT_BAD_INPUT, "unknown option '%s' (expected --json or "
					 "shard files)", argv[i]);
		else
			nfiles++;
	}
	if (nfiles == 0)
		return cli_error("merge", EXIT_BAD_INPUT, "expected shard files (from fray adbg simulate "
				 "--shard I/N --output FILE)");
	fray_ctx *ctx = fray_ctx_new(NULL, NULL);
	sim_shard *one = malloc(sizeof *one);
	fray_sim *total = calloc(1, sizeof *total);
	sim_meta m;
	const char *first_file = NULL;
	uint64_t *seen = NULL;
	int status = EXIT_OK, merged = 0;
	if (!ctx || !one || !total) {
		status = cli_error("merge", EXIT_RUNTIME, "out of memory");
		goto done;
	}
	total->nfields = FRAY_ADBG_SIM_FIELDS;
	bool partial = false;
	for (int i = 0; i < argc && status == EXIT_OK; i++) {
		if (strcmp(argv[i], "--json") == 0)
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
		partial |= one->sim.trials < one->last - one->first;
		fray_sim_add(total, &one->sim);
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
	free(total);
	free(one);
	fray_ctx_free(ctx);
	return status;
}
