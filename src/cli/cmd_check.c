/* fray check FILE...: reads fray data files and reports every problem with
 * file:line:col, so a hand-written file can be fixed before a game. The
 * kind of file is told by its top-level keys. */
#include <string.h>
#include "cli.h"

static int check_file(fray_ctx *ctx, const char *path)
{
	fray_doc *doc;
	if (fray_doc_load_file(ctx, path, &doc) != FRAY_OK)
		return cli_fail("check", ctx);
	const fray_node *root = fray_doc_root(doc);
	bool script = root && fray_node_kind_of(root) == FRAY_NODE_MAP &&
		      fray_map_get(root, "answers");
	fray_doc_free(doc);
	if (script) {
		fray_policy *p;
		if (fray_policy_script_load(ctx, path, &p) != FRAY_OK)
			return cli_fail("check", ctx);
		fray_policy_free(p);
		printf("%s: ok (policy script)\n", path);
		return EXIT_OK;
	}
	return cli_error("check", EXIT_BAD_INPUT,
			 "%s:1:1: expected a fray data file; known kinds: policy "
			 "script (a mapping with 'answers')", path);
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
		fray_ctx_clear(ctx);
		int s = check_file(ctx, argv[i]);
		if (s > worst)
			worst = s;
	}
	fray_ctx_free(ctx);
	return worst;
}
