/* The catalogue's listings: what a rule set shows rather than rolls (a
 * table, a checklist, a reckoning with no dice), as text for people. They
 * are descriptors like the procedures, so `fray <set> <name>` reaches them
 * through the one command-line door, with their options checked from the
 * descriptor; `fray procedures` and the page list only what rolls. */
#include <stdio.h>
#include <string.h>
#include "catalog.h"
#include "../common/hidden.h"

/* A listing prints no JSON: the command line refuses --json as an unknown
 * option; a request for its JSON is refused here. */
static fray_status text_only(fray_call *c, const fray_call_opts *o)
{
	if (o->format == FRAY_FORMAT_JSON)
		return frayi_call_bad(c, "%s shows a table as text: it has no JSON", c->d->name);
	return FRAY_OK;
}

static fray_status bind_nothing(fray_call *c)
{
	(void)c;
	return FRAY_OK;
}

/* ---- chits: the combat strength ratio (ruling R21) ---- */

static const in_desc ratio_in[] = {
	{"attacker_cdr", IN_INT, 1, 99, .required = true, .help = "the attacker's modified combat die roll",
	 .rule = "Chit combat, Combat Strength Ratio; ruling R21", .missing = "N and --defender-cdr N", IN_INT_AT(0)},
	{"defender_cdr", IN_INT, 1, 99, .required = true, .help = "the defender's modified combat die roll",
	 .rule = "Chit combat, Combat Strength Ratio; ruling R21", .missing = "N", IN_INT_AT(1)},
};

static fray_status show_ratio(fray_call *c, const fray_call_opts *o, strbuf *sb)
{
	fray_status st = text_only(c, o);
	if (st != FRAY_OK)
		return st;
	const int *cdr = (const int *)c->input;
	char r[16];
	fray_chits_ratio_text(fray_chits_ratio(cdr[0], cdr[1]), r, sizeof r);
	frayi_sb_add(sb, "%s\n", r);
	return FRAY_OK;
}

const proc_desc frayi_chits_ratio_desc = {
	"chits.ratio", "chits ratio", "the combat strength ratio of two combat die rolls",
	"Chit combat, ruling R21",
	"The larger combat die roll over the smaller, rounded down (ruling R21):\n"
	"N:1 for the attacker, 1:N for the defender. 17 against 6 is 2:1.", ratio_in, 2, NULL, 0, FRAY_MODE_SHOW,
	"{\"attacker_cdr\": 17, \"defender_cdr\": 6}", bind_nothing, NULL, show_ratio, false, .generic = true,
	.no_sides = true, .example_from = "Chit combat, Example #1"};

/* ---- presidio: victory points (Section 8) ---- */

#define VICTORY_RULE "Presidio Section 8, Victory Conditions"
static const in_desc victory_in[] = {
	{"high_leader", IN_INT, 0, 10000, .help = "high leaders", .rule = VICTORY_RULE, IN_INT_AT(0)},
	{"horse", IN_INT, 0, 10000, .help = "horses", .rule = VICTORY_RULE, IN_INT_AT(1)},
	{"leader", IN_INT, 0, 10000, .help = "leaders", .rule = VICTORY_RULE, IN_INT_AT(2)},
	{"warrior", IN_INT, 0, 10000, .help = "warriors", .rule = VICTORY_RULE, IN_INT_AT(3)},
	{"mule_or_cow", IN_INT, 0, 10000, .help = "mules or cows", .rule = VICTORY_RULE, IN_INT_AT(4)},
	{"scalp", IN_INT, 0, 10000, .help = "scalps", .rule = VICTORY_RULE, IN_INT_AT(5)},
	{"small_stock", IN_INT, 0, 10000, .help = "small stock", .rule = VICTORY_RULE, IN_INT_AT(6)},
	{"chicken", IN_INT, 0, 10000, .help = "chickens", .rule = VICTORY_RULE, IN_INT_AT(7)},
};

static fray_status show_victory(fray_call *c, const fray_call_opts *o, strbuf *sb)
{
	fray_status st = text_only(c, o);
	if (st != FRAY_OK)
		return st;
	const int *n = (const int *)c->input;
	long long total = 0;
	for (int k = 0; k < 8; k++)
		if (n[k]) {
			long long points = (long long)n[k] * fray_presidio_victory_items[k].points;
			frayi_sb_add(sb, "  %4d x %-62s %5lld\n", n[k], fray_presidio_victory_items[k].name, points);
			total += points;
		}
	frayi_sb_add(sb, "victory points: %lld\n", total);
	return FRAY_OK;
}

const proc_desc frayi_presidio_victory_desc = {
	"presidio.victory", "presidio victory", "victory points", VICTORY_RULE,
	"Victory points: 30, 25, 20, 10, 10, 5, 5, 1.", victory_in, 8, NULL, 0,
	FRAY_MODE_SHOW, "{\"horse\": 3, \"warrior\": 2}", bind_nothing, NULL, show_victory, false, .generic = true,
	.no_sides = true};

/* ---- presidio: the small arms (Section 10) ---- */

static fray_status show_weapons(fray_call *c, const fray_call_opts *o, strbuf *sb)
{
	fray_status st = text_only(c, o);
	if (st != FRAY_OK)
		return st;
	frayi_sb_add(sb, "%-44s %5s %4s %6s  %s\n", "Small arms (Presidio Section 10)", "Hit#", "Dam", "Reload",
		     "Range");
	const char *group = "";
	for (size_t i = 0; i < fray_presidio_nweapons; i++) {
		const fray_presidio_weapon *w = &fray_presidio_weapons[i];
		if (strcmp(group, w->group) != 0)
			frayi_sb_add(sb, "%s:\n", group = w->group);
		char reload[8];
		snprintf(reload, sizeof reload, w->reload ? "%d" : "--", w->reload);
		frayi_sb_add(sb, "  %-42s %4d+ %4d %6s  %s\n", w->name, w->hit, w->damage, reload,
			     w->range ? fray_presidio_range_class_names[w->range] : "--");
	}
	return FRAY_OK;
}

const proc_desc frayi_presidio_weapons_desc = {
	"presidio.weapons", "presidio weapons", "the small arms", "Presidio Section 10",
	"Lists the small arms of Section 10.", NULL, 0, NULL, 0,
	FRAY_MODE_SHOW, "{}", bind_nothing, NULL, show_weapons, false, .generic = true, .no_sides = true};

/* ---- presidio: a units file's statistics (G4) and the ranks (Section 1) ---- */

static const in_desc units_in[] = {
	{"file", IN_FILE, .required = true, .positional = true, .help = "unit statistics (examples/presidio/units.yaml)",
	 .rule = "Presidio Section 1, G4", .missing = "FILE of unit statistics (see examples/presidio/units.yaml)"},
};

static fray_status show_units(fray_call *c, const fray_call_opts *o, strbuf *sb)
{
	fray_status st = text_only(c, o);
	if (st != FRAY_OK)
		return st;
	fray_doc *doc = NULL;
	if (frayi_call_load_doc(c, 0, &doc) != FRAY_OK)
		return fray_ctx_status(c->ctx);
	fray_presidio_units *u = frayi_alloc(c->ctx, sizeof *u);
	if (!u) {
		st = frayi_nomem(c->ctx);
	} else if (!fray_presidio_units_read(doc, u)) {
		/* the first mistake, as --units FILE tells it (a message is one line) */
		size_t more = fray_doc_error_count(doc) > 1 ? fray_doc_error_count(doc) - 1 : 0;
		if (more)
			st = frayi_call_bad(c, "%s (and %zu more)", fray_doc_error_msg(doc, 0), more);
		else
			st = frayi_call_bad(c, "%s", fray_doc_error_count(doc) ? fray_doc_error_msg(doc, 0)
									   : "bad unit statistics");
	} else {
		frayi_sb_add(sb, "%-28s %6s %5s %4s %5s %5s %5s  %s\n", "Unit type", "Ranged", "Melee", "Move", "Recon",
			     "Camou", "Armor", "Morale");
		for (int i = 0; i < u->n; i++) {
			const fray_presidio_unit_type *t = &u->types[i];
			char name[4 * sizeof t->name];
			text_escape_controls(name, sizeof name, t->name);
			frayi_sb_add(sb, "%-28s %6d %5d %4d %5d %5d %5d  %s%s\n", name, t->ranged, t->melee, t->move,
				     t->recon, t->camou, t->armor, fray_presidio_level_names[t->level],
				     t->mounted ? ", mounted" : "");
		}
		frayi_sb_add(sb, "\nCommand skill by rank (Section 1):");
		for (size_t i = 0; i < fray_presidio_nranks; i++)
			frayi_sb_add(sb, "%s %s %d", i ? "," : "", fray_presidio_ranks[i].rank,
				     fray_presidio_ranks[i].skill);
		frayi_sb_add(sb, "\n");
	}
	frayi_dealloc(c->ctx, u);
	fray_doc_free(doc);
	return st;
}

const proc_desc frayi_presidio_units_desc = {
	"presidio.units", "presidio units", "a units file's statistics and the command skill of each rank",
	"Presidio Section 1, G4",
	"Lists the unit statistics a file gives and the Rank and Command Skill table\n"
	"(Section 1). The text's unit statistics are missing (RULES-NOTES G4), so\n"
	"they are your data: examples/presidio/units.yaml shows the form. With\n"
	"--units FILE, shoot's --unit gives the firer's ranged skill and\n"
	"--target-unit the target's armor; melee's --unit and --defender-unit give\n"
	"melee skill and armor; morale's --unit gives the morale level. An option\n"
	"given by hand (--skill, --armor, --level) wins over the file.", units_in, 1, NULL, 0, FRAY_MODE_SHOW,
	"{\"file\": \"examples/presidio/units.yaml\"}", bind_nothing, NULL, show_units, false, .generic = true,
	.no_sides = true};

/* ---- bbb: the night interval (Sequence of Play Summary) ---- */

static fray_status show_night(fray_call *c, const fray_call_opts *o, strbuf *sb)
{
	fray_status st = text_only(c, o);
	if (st != FRAY_OK)
		return st;
	frayi_sb_add(sb, "%s",
		     "Night interval (BBB Sequence of Play Summary), in order:\n"
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
		     "move a disrupted unit (Rally in place on 5-6), or a unit in good order\n"
		     "by its training (Recover 1 on 11+ Raw, 10+ Trained, 9+ Veteran).\n");
	return FRAY_OK;
}

const proc_desc frayi_bbb_night_desc = {
	"bbb.night", "bbb night", "the night-interval checklist", "BBB Sequence of Play Summary",
	"The night-interval checklist; the sheet gives no dice for it.", NULL, 0,
	NULL, 0, FRAY_MODE_SHOW, "{}", bind_nothing, NULL, show_night, false, .generic = true, .no_sides = true};

/* ---- bbb: the firefight table ---- */

static const char *const table_names[] = {"fire"};
static const in_desc table_in[] = {
	{"table", IN_CHOICE, .choices = table_names, .nchoices = 1, .def = -1, .required = true, .positional = true,
	 .help = "the table: fire", .rule = "BBB The Firefight",
	 .missing = "fire (fray bbb table fire [--firepower F] [--shift N])"},
	{"firepower", IN_NUMBER, 0, 10000, .def = -1, .help = "marks the column of this fire power",
	 .rule = "BBB The Firefight", .expects = "a number from 0"},
	{"shift", IN_INT, -20, 20, .help = "column shifts from it, right positive", .rule = "BBB The Firefight: Column "
	 "Shifts"},
};

/* A cell, in reverse video when marked and the call may colour. */
static void table_cell(strbuf *sb, const char *cell, bool marked, bool color)
{
	frayi_sb_add(sb, "%s%5s%s", marked && color ? "\033[7m" : "", cell, marked && color ? "\033[0m" : "");
}

static void column_top(int col, char *top, size_t cap)
{
	if (col == FRAY_BBB_FIRE_COLS - 1)
		snprintf(top, cap, "50+");
	else
		snprintf(top, cap, "%g", fray_bbb_fire_column_top[col]);
}

static fray_status show_table(fray_call *c, const fray_call_opts *o, strbuf *sb)
{
	fray_status st = text_only(c, o);
	if (st != FRAY_OK)
		return st;
	bool marked = val_given(c, 1);
	double fp = val_x(c, 1);
	int shift = (int)val_i(c, 2), col = -1;
	if (marked) {
		col = fray_bbb_fire_column(fp) + shift;
		col = col < 0 ? 0 : col >= FRAY_BBB_FIRE_COLS ? FRAY_BBB_FIRE_COLS - 1 : col;
	}
	frayi_sb_add(sb, "The Firefight (2d6); fire power up to:\n    ");
	char top[16];
	for (int k = 0; k < FRAY_BBB_FIRE_COLS; k++) {
		column_top(k, top, sizeof top);
		table_cell(sb, top, k == col, o->color);
	}
	frayi_sb_add(sb, "\n");
	for (int row = 12; row >= 2; row--) {
		frayi_sb_add(sb, "%2d  ", row);
		for (int k = 0; k < FRAY_BBB_FIRE_COLS; k++) {
			bool low;
			fray_bbb_result res = fray_bbb_fire_cell(row, k, &low);
			char cell[8];
			snprintf(cell, sizeof cell, "%s%s", res ? fray_bbb_result_names[res] : "", low ? "*" : "");
			table_cell(sb, cell, k == col, o->color);
		}
		frayi_sb_add(sb, "  %d\n", row);
	}
	frayi_sb_add(sb, "* Low on Ammo if rolled 11 or 12.\n");
	if (col < 0)
		return FRAY_OK;
	/* the column's chances from the 36 faces of 2d6 */
	int ways[7] = {0}, low_ways = 0;
	for (int d1 = 1; d1 <= 6; d1++)
		for (int d2 = 1; d2 <= 6; d2++) {
			bool low;
			ways[fray_bbb_fire_cell(d1 + d2, col, &low)]++;
			low_ways += low;
		}
	column_top(col, top, sizeof top);
	frayi_sb_add(sb, "\nfirepower %g, shift %+d: column %d (up to %s)\n", fp, shift, col + 1, top);
	for (int res = 0; res < 7; res++)
		if (ways[res])
			frayi_sb_add(sb, "  %-5s %2d/36  %6.2f%%\n", fray_bbb_result_names[res], ways[res],
				     100.0 * ways[res] / 36);
	frayi_sb_add(sb, "  low on ammo %d/36  %6.2f%%\n", low_ways, 100.0 * low_ways / 36);
	return FRAY_OK;
}

const proc_desc frayi_bbb_table_desc = {
	"bbb.table", "bbb table", "the firefight table, a column marked", "BBB The Firefight",
	"The firefight table; with --firepower, the column used and the chance of\n"
	"each result, from the 36 faces of 2d6.", table_in, 3, NULL,
	0, FRAY_MODE_SHOW, "{\"table\": \"fire\", \"firepower\": 9}", bind_nothing, NULL, show_table, false,
	.generic = true, .no_sides = true};

/* In the order the command line lists them, after the procedures. */
const proc_desc *const frayi_catalog_shows[] = {
	&frayi_bbb_night_desc, &frayi_bbb_table_desc, &frayi_chits_ratio_desc, &frayi_presidio_victory_desc,
	&frayi_presidio_weapons_desc, &frayi_presidio_units_desc,
};
const size_t frayi_catalog_nshows = sizeof frayi_catalog_shows / sizeof frayi_catalog_shows[0];
