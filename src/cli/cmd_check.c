/* fray check FILE...: reads fray data files and reports every problem with
 * file:line:col, so a hand-written file can be fixed before a game. The
 * kind of file is told by its top-level keys. */
#include <stdlib.h>
#include <string.h>
#include "cli.h"

/* Prints every problem recorded on doc; returns the exit status. */
static int report(fray_ctx *ctx, fray_doc *doc, const char *path, const char *kind,
		  fray_status st)
{
	if (st == FRAY_OK) {
		printf("%s: ok (%s)\n", cli_tstr(path), kind);
		return EXIT_OK;
	}
	for (size_t i = 0; i < fray_doc_error_count(doc); i++)
		cli_error("check", EXIT_BAD_INPUT, "%s", fray_doc_error_msg(doc, i));
	return fray_doc_error_count(doc) ? EXIT_BAD_INPUT : cli_fail("check", ctx);
}

static int check_file(fray_ctx *ctx, const char *path)
{
	fray_doc *doc;
	if (fray_doc_load_file(ctx, path, &doc) != FRAY_OK)
		return cli_fail("check", ctx);
	const fray_node *root = fray_doc_root(doc);
	bool map = root && fray_node_kind_of(root) == FRAY_NODE_MAP;
	bool script = map && fray_map_get(root, "answers");
	int status = -1;
	if (map && fray_map_get(root, "sides")) {
		fray_adbg_scenario *s;
		status = report(ctx, doc, path, "adbg scenario", fray_adbg_scenario_read(ctx, doc, &s));
		fray_adbg_scenario_free(s);
	} else if (map && fray_map_get(root, "chits")) {
		fray_chits_mix *m;
		status = report(ctx, doc, path, "chit mix", fray_chits_mix_read(ctx, doc, &m));
		fray_chits_mix_free(m);
	} else if (map && fray_map_get(root, "mix") && fray_map_get(root, "attacker")) {
		fray_chits_mix *m;
		fray_chits_combat_in in;
		uint64_t seed;
		bool has_seed;
		status = report(ctx, doc, path, "chit combat",
				fray_chits_combat_read(ctx, doc, &m, &in, &seed, &has_seed));
		fray_chits_mix_free(m);
	} else if (map && fray_map_get(root, "units")) {
		fray_presidio_units *u = malloc(sizeof *u);
		if (u)
			fray_presidio_units_read(doc, u);
		status = u ? report(ctx, doc, path, "presidio unit statistics", fray_doc_status(doc))
			   : cli_error("check", EXIT_RUNTIME, "out of memory");
		free(u);
	} else if (map && fray_map_get(root, "columns") && fray_map_get(root, "rows")) {
		fray_adbg_crt crt;
		fray_adbg_crt_read(doc, root, &crt);
		status = report(ctx, doc, path, "adbg melee CRT", fray_doc_status(doc));
	}
	fray_doc_free(doc);
	if (status >= 0)
		return status;
	if (script) {
		fray_policy *p;
		if (fray_policy_script_load(ctx, path, &p) != FRAY_OK)
			return cli_fail("check", ctx);
		fray_policy_free(p);
		printf("%s: ok (policy script)\n", cli_tstr(path));
		return EXIT_OK;
	}
	return cli_error("check", EXIT_BAD_INPUT,
			 "%s:1:1: expected a fray data file; known kinds: adbg scenario "
			 "(with 'sides'), adbg melee CRT (with 'columns' and 'rows'), chit mix "
			 "(with 'chits'), chit combat (with 'mix' and 'attacker'), presidio unit "
			 "statistics (with 'units'), policy script (with 'answers')", path);
}

int cmd_check(int argc, char **argv)
{
	if (argc == 0)
		return cli_error("check", EXIT_BAD_INPUT, "expected one or more files");
	int worst = EXIT_OK;
	fray_ctx *ctx = fray_ctx_new(NULL, NULL);
	if (!ctx)
		return cli_error("check", EXIT_RUNTIME, "out of memory");
	for (int i = 0; i < argc; i++) {
		if (cli_is_help(argv[i])) {
			fray_ctx_free(ctx);
			return cli_help_topic(stdout, "check") ? EXIT_OK : EXIT_RUNTIME;
		}
		if (argv[i][0] == '-' && argv[i][1]) {
			/* no options: an option is not a file to open (./-x names one) */
			static const char *const known[] = {"--help"};
			cli_args a = {.cmd = "check", .argc = argc, .argv = argv, .i = i};
			fray_ctx_free(ctx);
			return cli_unknown(&a, known, 1);
		}
		fray_ctx_clear(ctx);
		int s = check_file(ctx, argv[i]);
		if (s > worst)
			worst = s;
	}
	fray_ctx_free(ctx);
	return worst;
}
