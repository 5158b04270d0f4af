/* fray bbb PROCEDURE: Bloody Big Battles from its quick reference sheet:
 * fire, assault, move, night, and the firefight table. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "catalog_cli.h"
#include "procout.h"
#include "../common/text.h"

/* ---- night ---- */

static int bbb_night(int argc, char **argv)
{
	if (argc > 0 && cli_is_help(argv[0]))
		return cli_help_topic(stdout, "bbb night") ? EXIT_OK : EXIT_RUNTIME;
	if (argc > 0) {
		/* a checklist: no options (no --json either) */
		static const char *const known[] = {"--help"};
		cli_args a = {.cmd = "bbb night", .argc = argc, .argv = argv};
		return cli_unknown(&a, known, 1);
	}
	puts("Night interval (BBB Sequence of Play Summary), in order:\n"
	     "  1. Withdraw to cover\n"
	     "  2. Formation changes\n"
	     "  3. Redeploy guns\n"
	     "  4. Generals\n"
	     "  5. Resupply Ammo\n"
	     "  6. Rally and recover\n"
	     "\n"
	     "The quick reference sheet gives no dice for any of these steps: how\n"
	     "ammunition is resupplied and how units rally or recover at night are\n"
	     "in the full rules, not on the sheet, so fray rolls nothing here. During\n"
	     "play, rally and recovery by training come from the movement table:\n"
	     "'fray bbb move --disrupted' (Rally in place on 5-6) and 'fray bbb move\n"
	     "--training T' (Recover 1 on 11+ Raw, 10+ Trained, 9+ Veteran).");
	return EXIT_OK;
}

/* ---- the firefight table ---- */

/* `name X` with X a number from lo (above lo when strict) to 10000. */
static bool number_opt(cli_args *a, const char *name, double lo, bool strict, double *out)
{
	const char *v;
	if (!cli_value(a, name, &v))
		return false;
	if (!v)
		return true;
	double x = 0;
	if (!cli_decimal(v, &x) || !(x >= lo) || (strict && x == lo) || x > 10000)
		a->status = cli_error(a->cmd, EXIT_BAD_INPUT, "option %s expects a number %s %g, got '%s'",
				      name, strict ? "above" : "from", lo, v);
	else
		*out = x;
	return true;
}


/* A table cell, in reverse video when marked (colour codes are fray's own:
 * they go past the terminal guard). */
static void print_cell(const char *cell, bool marked)
{
	if (marked)
		cli_raw_stdout("\033[7m");
	printf("%5s", cell);
	if (marked)
		cli_raw_stdout("\033[0m");
}
static int bbb_table(int argc, char **argv)
{
	cli_args a = {.cmd = "bbb table fire", .argc = argc, .argv = argv};
	if (argc == 0 || strcmp(argv[0], "fire") != 0)
		return cli_error("bbb table", EXIT_BAD_INPUT, "expected 'fire': fray bbb table fire [--firepower F] [--shift N]");
	a.i = 1;
	double fp = -1;
	int64_t shift = 0;
	while (a.i < argc && a.status == EXIT_OK) {
		if (cli_is_help(argv[a.i]))
			return cli_help_topic(stdout, "bbb table") ? EXIT_OK : EXIT_RUNTIME;
		if (!number_opt(&a, "--firepower", 0, false, &fp) &&
		    !cli_i64(&a, "--shift", -20, 20, &shift)) {
			static const char *const known[] = {"--firepower", "--shift", "--help"};
			return cli_unknown(&a, known, 3);
		}
	}
	if (a.status != EXIT_OK)
		return a.status;
	int col = -1;
	if (fp >= 0) {
		col = fray_bbb_fire_column(fp) + (int)shift;
		col = col < 0 ? 0 : col >= FRAY_BBB_FIRE_COLS ? FRAY_BBB_FIRE_COLS - 1 : col;
	}
	bool color = cli_color(stdout);
	printf("The Firefight (2d6); fire power up to:\n    ");
	for (int c = 0; c < FRAY_BBB_FIRE_COLS; c++) {
		char top[8];
		if (c == FRAY_BBB_FIRE_COLS - 1)
			snprintf(top, sizeof top, "50+");
		else
			snprintf(top, sizeof top, "%g", fray_bbb_fire_column_top[c]);
		print_cell(top, c == col && color);
	}
	putchar('\n');
	for (int row = 12; row >= 2; row--) {
		printf("%2d  ", row);
		for (int c = 0; c < FRAY_BBB_FIRE_COLS; c++) {
			bool low;
			fray_bbb_result res = fray_bbb_fire_cell(row, c, &low);
			char cell[8];
			snprintf(cell, sizeof cell, "%s%s", res ? fray_bbb_result_names[res] : "", low ? "*" : "");
			print_cell(cell, c == col && color);
		}
		printf("  %d\n", row);
	}
	printf("* Low on Ammo if rolled 11 or 12.\n");
	if (col < 0)
		return EXIT_OK;
	/* the column's chances from the 36 faces of 2d6 */
	int ways[7] = {0}, low_ways = 0;
	for (int d1 = 1; d1 <= 6; d1++)
		for (int d2 = 1; d2 <= 6; d2++) {
			bool low;
			ways[fray_bbb_fire_cell(d1 + d2, col, &low)]++;
			low_ways += low;
		}
	char top[16];
	if (col == FRAY_BBB_FIRE_COLS - 1)
		snprintf(top, sizeof top, "50+");
	else
		snprintf(top, sizeof top, "%g", fray_bbb_fire_column_top[col]);
	printf("\nfirepower %g, shift %+lld: column %d (up to %s)\n", fp, (long long)shift, col + 1, top);
	for (int res = 0; res < 7; res++)
		if (ways[res])
			printf("  %-5s %2d/36  %6.2f%%\n", fray_bbb_result_names[res], ways[res], 100.0 * ways[res] / 36);
	printf("  low on ammo %d/36  %6.2f%%\n", low_ways, 100.0 * low_ways / 36);
	return EXIT_OK;
}

/* fire, assault and move are the catalogue's procedures; night and table
 * show the sheet (no dice) */
static const cli_sub subs[] = {
	{"night", bbb_night}, {"table", bbb_table},
};

int cmd_bbb(int argc, char **argv)
{
	return cli_run_set("bbb", subs, sizeof subs / sizeof subs[0], argc, argv);
}
