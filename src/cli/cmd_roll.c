/* fray roll DICE [--seed N] [--json]: one roll told die by die. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"


int cmd_roll(int argc, char **argv)
{
	static const char *const known[] = {"--seed", "--json", "--help"};
	cli_args a = {.cmd = "roll", .argc = argc, .argv = argv};
	const char *expr = NULL;
	uint64_t seed = 0;
	bool have_seed = false;
	fray_format form = FRAY_FORMAT_TEXT;
	while (a.i < argc && a.status == EXIT_OK) {
		if (cli_is_help(argv[a.i]))
			return cli_help_topic(stdout, "roll") ? EXIT_OK : EXIT_RUNTIME;
		if (cli_u64(&a, "--seed", 0, UINT64_MAX, &seed))
			have_seed = true;
		else if (cli_format(&a, CLI_FORMAT(FRAY_FORMAT_JSON), &form))
			;
		else if (!expr && (argv[a.i][0] != '-' || argv[a.i][1] == 'd' ||
				   (argv[a.i][1] >= '0' && argv[a.i][1] <= '9')))
			expr = argv[a.i++];
		else
			return cli_unknown(&a, known, 3);
	}
	if (a.status != EXIT_OK)
		return a.status;
	if (!expr)
		return cli_error("roll", EXIT_BAD_INPUT,
				 "expected a dice expression, such as 'fray roll 2d6+1'");
	if (!have_seed)
		seed = cli_pick_seed();

	fray_ctx *ctx = fray_ctx_new(NULL, NULL);
	if (!ctx)
		return cli_error("roll", EXIT_RUNTIME, "out of memory");
	int status = EXIT_OK;
	fray_dice *dice = NULL;
	fray_roller *r = NULL;
	if (fray_dice_parse(ctx, expr, &dice) != FRAY_OK) {
		status = cli_error("roll", EXIT_BAD_INPUT, "bad dice expression '%s': %s",
				   expr, fray_ctx_message(ctx));
		goto done;
	}
	if (!(r = fray_roller_sample_new(ctx, seed, 0))) {
		status = cli_fail("roll", ctx);
		goto done;
	}
	cli_narrator out = {.form = form, .first = true};
	fray_roller_set_sink(r, cli_narrate, &out);
	char text[FRAY_DICE_MAX_TEXT * 2];
	fray_dice_format(dice, text, sizeof text);
	int64_t total;
	if (form == FRAY_FORMAT_JSON) {
		printf("{\"expression\": %s, \"seed\": %" PRIu64 ", \"events\": [", cli_jstr(text), seed);
		total = fray_dice_roll(dice, r);
		printf("%s], \"total\": %" PRId64 "}\n", out.first ? "" : "\n  ", total);
	} else {
		printf("%s (seed %" PRIu64 "%s)\n", text, seed,
		       have_seed ? "" : "; replay with --seed");
		total = fray_dice_roll(dice, r);
		printf("total: %" PRId64 "\n", total);
	}
done:
	fray_roller_free(r);
	fray_dice_free(dice);
	fray_ctx_free(ctx);
	return status;
}
