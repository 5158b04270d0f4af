/* fray bbb PROCEDURE: Bloody Big Battles from its quick reference sheet:
 * fire, assault, move, night, and the firefight table. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "catalog_cli.h"
#include "procout.h"
#include "../common/text.h"

#define MAX_GROUPS 8

static const char *const arm_names[] = {"infantry", "cavalry", "artillery"};

/* ---- fire ---- */

typedef struct fire_opts {
	fray_bbb_fire_in in;
} fire_opts;

static void fmt_fire(const int64_t *o, bool json, const void *input, char *dst, size_t cap)
{
	const fray_bbb_fire_in *in = input;
	char effect[160];
	fray_bbb_effect((fray_bbb_result)o[0], in->target, in->training, in->advancing, effect,
			sizeof effect);
	if (json) {
		char e[200];
		fray_json_string(effect, e, sizeof e);
		snprintf(dst, cap, "\"result\": \"%s\", \"low_ammo\": %s, \"effect\": %s",
			 fray_bbb_result_names[o[0]], o[1] ? "true" : "false", e);
	} else {
		snprintf(dst, cap, "%-4s%s %s", fray_bbb_result_names[o[0]],
			 o[1] ? " +low ammo" : "", effect);
	}
}

/* A flag for one line of the sheet's Column Shifts: columns (right
 * positive), the line it is (two flags may name one line, which shifts
 * once), and the target arm the line requires (-1: any). */
typedef struct shift_flag {
	const char *name;
	int cols;
	int line;
	int target;
} shift_flag;

static const shift_flag shifts[] = {
	/* "Target is limbered artillery or mounted cavalry": one line */
	{"--limbered", 1, 0, FRAY_BBB_ARTILLERY},
	{"--mounted", 1, 0, FRAY_BBB_CAVALRY},
	{"--firer-skirmishers", 1, 1, -1},
	{"--devastating", 1, 2, -1},
	{"--target-inept", 1, 3, -1},
	{"--bridge", 1, 4, -1},
	{"--flanking", 1, 5, -1},
	{"--target-skirmishers", -1, 6, -1},
	{"--ragged", -1, 7, -1},
};
#define NSHIFTS (sizeof shifts / sizeof shifts[0])
#define NSHIFT_LINES 8

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

/* `--bases N` or `--units N` after a --weapon: the count of its group. */
static bool count_opt(cli_args *a, const char *name, int ngroups, int64_t *count, bool *units)
{
	int64_t n = 0;
	if (!cli_i64(a, name, -1000, 1000, &n))
		return false;
	if (a->status != EXIT_OK)
		return true;
	if (ngroups == 0 || count[ngroups - 1] >= 0)
		a->status = cli_error(a->cmd, EXIT_BAD_INPUT, "%s follows the --weapon it counts", name);
	else if (n < 1)
		a->status = cli_error(a->cmd, EXIT_BAD_INPUT, "%s expects a count from 1, got %lld",
				      name, (long long)n);
	else {
		count[ngroups - 1] = n;
		units[ngroups - 1] = strcmp(name, "--units") == 0;
	}
	return true;
}

/* Fire Multipliers: each item of the sheet's list halves the fire factor,
 * cumulatively, and each once: "Pivoted/Unlimbered" is one item. */
static const char *const halvings[] = {"--disrupted", "--low-ammo", "--reduced", "--pivoted",
				       "--unlimbered"};
static const int halving_item[] = {0, 1, 2, 3, 3};
#define NHALVING_ITEMS 4

static int bbb_fire(int argc, char **argv)
{
	static const char *const known[] = {
		"--weapon", "--bases", "--units", "--range", "--firepower", "--shift", "--cover",
		"--fortified", "--target", "--training", "--advancing", "--disrupted", "--low-ammo",
		"--reduced", "--pivoted", "--unlimbered", "--limbered", "--mounted",
		"--firer-skirmishers", "--devastating", "--target-inept", "--bridge", "--flanking",
		"--target-skirmishers", "--ragged", "--town", "--fort", "--odds", "--seed", "--json", "--help"};
	/* one --weapon CODE with its --bases N or --units N per group */
	static const char *const groups[] = {"--weapon", "--bases", "--units", NULL};
	cli_args a = {.cmd = "bbb fire", .argc = argc, .argv = argv, .repeatable = groups};
	proc_opts o = {0};
	const fray_bbb_weapon *weapon[MAX_GROUPS];
	int64_t count[MAX_GROUPS];
	bool per_unit_given[MAX_GROUPS];
	int ngroups = 0, nhalvings = 0, shift = 0;
	bool halved[NHALVING_ITEMS] = {false}, shift_given[NSHIFTS] = {false};
	size_t target = 0, training = 1;
	int64_t cover = 0, extra = 0;
	double range = -1, firepower = -1;
	bool advancing = false, fortified = false;
	const char *v = NULL;
	while (a.i < argc && a.status == EXIT_OK) {
		if (cli_is_help(argv[a.i]))
			return cli_help_topic(stdout, "bbb fire") ? EXIT_OK : EXIT_RUNTIME;
		bool taken = false;
		for (size_t k = 0; k < sizeof halvings / sizeof halvings[0] && !taken; k++)
			if (cli_flag(&a, halvings[k]))
				taken = true, halved[halving_item[k]] = true;
		for (size_t k = 0; k < NSHIFTS && !taken; k++)
			if (cli_flag(&a, shifts[k].name))
				taken = shift_given[k] = true;
		if (taken)
			continue;
		if (cli_value(&a, "--weapon", &v)) {
			if (!v)
				break;
			if (ngroups == MAX_GROUPS)
				return cli_error(a.cmd, EXIT_BAD_INPUT, "at most %d weapon groups", MAX_GROUPS);
			const fray_bbb_weapon *w = fray_bbb_weapon_find(v);
			if (!w) {
				char list[256];
				textbuf t = text_on(list, sizeof list);
				for (size_t k = 0; k < fray_bbb_nweapons; k++)
					text_add(&t, "%s%s", k ? ", " : "", fray_bbb_weapons[k].code);
				return cli_error(a.cmd, EXIT_BAD_INPUT,
						 "unknown weapon '%s' (the sheet's weapons: %s)", v, list);
			}
			weapon[ngroups] = w;
			count[ngroups] = -1;
			per_unit_given[ngroups++] = false;
		} else if (count_opt(&a, "--bases", ngroups, count, per_unit_given) ||
			   count_opt(&a, "--units", ngroups, count, per_unit_given) ||
			   number_opt(&a, "--range", 0, true, &range) ||
			   number_opt(&a, "--firepower", 0, false, &firepower)) {
			;
		} else if (cli_i64(&a, "--shift", -20, 20, &extra)) {
			shift += (int)extra;
		} else {
			if (cli_i64(&a, "--cover", 0, 3, &cover))
				;
			else if (cli_flag(&a, "--fortified"))
				fortified = true;
			else if (cli_flag(&a, "--town") || cli_flag(&a, "--fort"))
				;
			else if (cli_flag(&a, "--advancing"))
				advancing = true;
			else if (!cli_enum(&a, "--target", arm_names, 3, &target) &&
				 !cli_enum(&a, "--training", fray_bbb_training_names, 3, &training) &&
				 !proc_opt(&a, &o))
				return cli_unknown(&a, known, sizeof known / sizeof known[0]);
		}
	}
	(void)v;
	if (a.status != EXIT_OK)
		return a.status;
	if (firepower >= 0 && ngroups > 0)
		return cli_error(a.cmd, EXIT_BAD_INPUT, "give --firepower or weapons, not both");
	/* TERRAIN TABLE: a target in a town or fort cannot take flanking fire */
	if (cli_seen(&a, "--flanking") && (cli_seen(&a, "--town") || cli_seen(&a, "--fort")))
		return cli_error(a.cmd, EXIT_BAD_INPUT, "--flanking: a target in a %s cannot be attacked with "
				 "Flanking Fire (BBB Terrain Table)", cli_seen(&a, "--town") ? "town" : "fort");
	fortified |= cli_seen(&a, "--fort");
	/* each sheet line once (issue 14: --limbered --mounted shifted twice,
	 * --pivoted --unlimbered halved twice), and only for its target */
	for (int i = 0; i < NHALVING_ITEMS; i++)
		nhalvings += halved[i];
	bool line_on[NSHIFT_LINES] = {false};
	for (size_t k = 0; k < NSHIFTS; k++) {
		if (!shift_given[k])
			continue;
		if (shifts[k].target >= 0 && (int)target != shifts[k].target)
			return cli_error(a.cmd, EXIT_BAD_INPUT, "%s: the sheet's shift is for limbered artillery "
					 "or mounted cavalry, and the target is %s (--target %s)", shifts[k].name,
					 arm_names[target], arm_names[shifts[k].target]);
		if (!line_on[shifts[k].line]) {
			line_on[shifts[k].line] = true;
			shift += shifts[k].cols;
		}
	}
	if (firepower < 0 && ngroups == 0)
		return cli_error(a.cmd, EXIT_BAD_INPUT,
				 "expected --weapon CODE with --bases N (or --units N), or --firepower F");
	char detail[512];
	textbuf detail_text = text_on(detail, sizeof detail);
	if (ngroups > 0) {
		if (range < 0)
			return cli_error(a.cmd, EXIT_BAD_INPUT, "missing --range INCHES");
		double fp = 0;
		bool rockets = false;
		for (int g = 0; g < ngroups; g++) {
			const fray_bbb_weapon *w = weapon[g];
			if (count[g] < 0)
				return cli_error(a.cmd, EXIT_BAD_INPUT, "weapon %s: missing --%s N", w->code,
						 w->per_unit ? "units" : "bases");
			if (per_unit_given[g] != w->per_unit)
				return cli_error(a.cmd, EXIT_BAD_INPUT, "weapon %s counts %s: use --%s",
						 w->code, w->per_unit ? "artillery units" : "bases",
						 w->per_unit ? "units" : "bases");
			int band = fray_bbb_weapon_band(w, range);
			if (band < 0)
				return cli_error(a.cmd, EXIT_BAD_INPUT, "%s reaches %d\", not %g\" (BBB Fire Factors)",
						 w->code, w->range[w->nbands - 1], range);
			fp += (double)w->factor[band] * (double)count[g];
			rockets |= w->shift != 0;
			text_add(&detail_text, "%s%lld %s x %d at %g\"%s", detail_text.len ? " + " : "",
				 (long long)count[g], w->code, w->factor[band], range,
				 w->shift ? " (rockets: 1 right)" : "");
		}
		firepower = fp;
		/* "Target is attacked with Rockets": one shift, however many */
		shift += rockets ? 1 : 0;
	}
	firepower = ldexp(firepower, -nhalvings); /* each multiplier x 1/2 */
	/* cavalry and artillery count cover only when fortified or behind a
	 * bridge or linear obstacle (BBB Terrain Table note) */
	bool cover_counts = cover > 0 && (target == FRAY_BBB_INFANTRY || fortified);
	if (cover_counts)
		shift -= (int)cover;
	fray_bbb_fire_in in = {firepower, shift, (fray_bbb_arm)target,
			       (fray_bbb_training)training, advancing};
	char title[768], inputs[768];
	snprintf(title, sizeof title, "fire: %s%sfirepower %g%s, shift %+d, at %s %s%s%s%s",
		 detail, *detail ? " = " : "", firepower,
		 nhalvings ? " after halvings" : "", shift, fray_bbb_training_names[training],
		 arm_names[target], advancing ? " (advancing)" : "",
		 cover > 0 && !cover_counts ? "; cover ignored (cavalry/artillery)" : "",
		 "");
	snprintf(inputs, sizeof inputs,
		 "{\"firepower\": %g, \"shift\": %d, \"target\": \"%s\", \"training\": \"%s\", "
		 "\"advancing\": %s}", firepower, shift, arm_names[target],
		 fray_bbb_training_names[training], advancing ? "true" : "false");
	proc_run run = {"bbb.fire", title, inputs, fray_bbb_fire_procedure, &in, 2, fmt_fire, {0}};
	return proc_run_print(a.cmd, &run, &o);
}

/* ---- assault and move: catalogue procedures ---- */

static int bbb_assault(int argc, char **argv)
{
	return cli_run_catalog("bbb assault", argc, argv);
}

static int bbb_move(int argc, char **argv)
{
	return cli_run_catalog("bbb move", argc, argv);
}

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

static const cli_sub subs[] = {
	{"fire", bbb_fire}, {"assault", bbb_assault}, {"move", bbb_move},
	{"night", bbb_night}, {"table", bbb_table},
};

int cmd_bbb(int argc, char **argv)
{
	return cli_dispatch("bbb", subs, sizeof subs / sizeof subs[0], argc, argv);
}
