/* fray check FILE...: reads fray data files and reports every problem with
 * file:line:col, so a hand-written file can be fixed before a game. The
 * kind of file is the library's to tell (fray_data_check, by its top-level
 * keys). */
#include <stdlib.h>
#include <string.h>
#include "cli.h"

/* The library tells the kind and reads the file (fray_data_check); this
 * prints what it found: "PATH: ok (KIND)", or every problem recorded on
 * the doc, or the one on the context. Returns the exit status. */
static int check_file(fray_ctx *ctx, const char *path)
{
	fray_doc *doc;
	if (fray_doc_load_file(ctx, path, &doc) != FRAY_OK)
		return cli_fail("check", ctx);
	const char *kind;
	int status = EXIT_OK;
	if (fray_data_check(ctx, doc, NULL, NULL, &kind) == FRAY_OK)
		printf("%s: ok (%s)\n", cli_tstr(path), kind);
	else if (fray_doc_error_count(doc) == 0)
		status = cli_fail("check", ctx);
	else
		for (size_t i = 0; i < fray_doc_error_count(doc); i++)
			status = cli_error("check", EXIT_BAD_INPUT, "%s", fray_doc_error_msg(doc, i));
	fray_doc_free(doc);
	return status;
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
