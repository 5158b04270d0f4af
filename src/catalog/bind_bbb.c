/* Bloody Big Battles' assault and movement in the catalogue (the quick
 * reference sheet; rulings G6, R20). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "catalog.h"

#define SHEET "BBB sheet"

static const char *const arm_names[] = {"infantry", "cavalry", "artillery"};

/* ---- assault ---- */

/* A side's flags, each bound to its member of the side's struct. */
#define SIDE_FLAG(s, f, what) \
	{#s "_" #f, IN_BOOL, .help = "the " #s " " what, .rule = SHEET ", Assault Modifiers", \
	 IN_FIELD(fray_bbb_assault_in, s.f)}
#define SIDE_FLAGS(s)                                                                                          \
	SIDE_FLAG(s, aggressive, "is aggressive (+1)"), SIDE_FLAG(s, in_depth, "is in depth (+1)"),             \
	SIDE_FLAG(s, disrupted, "is disrupted (-1)"),                                                           \
	SIDE_FLAG(s, silenced, "is a silenced gun (-1, once with disrupted)"),                                  \
	SIDE_FLAG(s, low_ammo, "is low on ammo (-1)"), SIDE_FLAG(s, fragile, "is fragile (-1)"),                \
	SIDE_FLAG(s, spent, "is spent (-2)")

enum { AS_AB, AS_DB, AS_COVER, AS_ARM, AS_AARM, AS_FORTIFIED, AS_TOWN, AS_FORT, AS_OUTFLANKED, AS_FIGHTS, AS_DICE,
       AS_SIDES };
enum { SF_N = 7 };
static const in_desc assault_in[] = {
	{"attacker_bases", IN_INT, -99, 99, .def = -1, .required = true, .help = "the attacker's bases",
	 .rule = SHEET ", Assault Modifiers (numbers)", .missing = "N", IN_FIELD(fray_bbb_assault_in, attacker.bases)},
	{"defender_bases", IN_INT, -99, 99, .def = -1, .required = true, .help = "the defender's bases",
	 .rule = SHEET ", Assault Modifiers (numbers)", .missing = "N", IN_FIELD(fray_bbb_assault_in, defender.bases)},
	{"cover", IN_INT, 0, 6, .help = "the defender's cover, subtracted; covers add up, to 6 (docs/rulings.md)",
	 .rule = SHEET ", Assault Modifiers, Terrain Table"},
	{"defender_arm", IN_CHOICE, .choices = arm_names, .nchoices = 3,
	 .help = "cavalry and artillery count no cover unless fortified", .rule = SHEET ", Terrain Table note",
	 IN_FIELD(fray_bbb_assault_in, defender.arm)},
	{"attacker_arm", IN_CHOICE, .choices = arm_names, .nchoices = 3,
	 .help = "the attacker's arm (a gun is silenced where others are disrupted)", .rule = SHEET ", Result / Effect",
	 IN_FIELD(fray_bbb_assault_in, attacker.arm)},
	{"fortified", IN_BOOL, .help = "a fortification, bridge or linear obstacle", .rule = SHEET ", Terrain Table note"},
	{"town", IN_BOOL, .help = "the defender is in a town: cover 2 (-2, added to the cover given), it cannot be outflanked",
	 .rule = SHEET ", Terrain Table", .excludes = (const char *const[]){"fort", NULL},
	 .why_excluded = "the defender is in one"},
	{"fort", IN_BOOL, .help = "the defender is in a fort: cover 3 (-3, added to the cover given), fortified, not outflanked",
	 .rule = SHEET ", Terrain Table"},
	{"outflanked", IN_BOOL, .help = "the defender is outflanked (+2)", .rule = SHEET ", Assault Modifiers",
	 IN_FIELD(fray_bbb_assault_in, outflanked)},
	{"max_fights", IN_INT, 1, 20, .def = 8, .help = "odds follow this many re-fights, then say what is left",
	 .rule = "ruling R20"},
	{"assault_dice", IN_STRING, .help = "the dice each side rolls, NdS (ruling G6's default: 1d6)",
	 .rule = "ruling G6"},
	SIDE_FLAGS(attacker),
	SIDE_FLAGS(defender),
};
/* Each result as a player says it at the table (the sheet's Assault Table
 * in a few words; its full effect is in the roll's story). The sheet routs
 * no one: the loser retires, and on +4-6 the attacker chooses. */
static const char *const assault_says[][2] = {
	{"+7", "the defender is thrown back (2 bases lost, back a full move); the attacker must exploit"},
	{"+4-6", "the defender is driven back (a base lost, back 9\"); the attacker may exploit or occupy"},
	{"+1-3", "the attacker takes the position (the defender back 3\")"},
	{"0", "a bloody draw (a base each): they fight again"},
	{"-1-3", "the attacker falls back (back 3\")"},
	{"-4-6", "the attacker is repulsed (a base lost, back 6\")"},
	{"-7", "the attacker is thrown back (2 bases lost, back a full move)"},
	{"attacker destroyed", "the attacker is destroyed"},
	{"defender destroyed", "the defender is destroyed"},
	{"both destroyed", "both sides are destroyed"},
	{NULL, NULL}};
static const out_desc assault_out[] = {
	{"result", "string", "the table's band, or a side destroyed", .says = assault_says},
	{"attacker_bases_lost", "integer", "bases the attacker loses"},
	{"defender_bases_lost", "integer", "bases the defender loses"},
	{"attacker_disrupted", "boolean", "the attacker is disrupted after"},
	{"defender_disrupted", "boolean", "the defender is disrupted after"},
	{"attacker_silenced", "boolean", "the attacker (a gun) is silenced after"},
	{"defender_silenced", "boolean", "the defender (a gun) is silenced after"}};

static const char *outcome_name(int64_t v)
{
	static const char *const destroyed[] = {"attacker destroyed", "defender destroyed", "both destroyed"};
	return v >= 7 ? destroyed[v - 7] : fray_bbb_assault_band_names[v];
}

static void fmt_assault(const fray_call *c, const int64_t *o, fray_format form, textbuf *t)
{
	(void)c;
	if (form == FRAY_FORMAT_JSON) {
		text_add(t, "\"result\": \"%s\", \"attacker_bases_lost\": %lld, \"defender_bases_lost\": %lld, "
			    "\"attacker_disrupted\": %s, \"defender_disrupted\": %s, \"attacker_silenced\": %s, "
			    "\"defender_silenced\": %s",
			 outcome_name(o[0]), (long long)o[1], (long long)o[2], o[3] ? "true" : "false",
			 o[4] ? "true" : "false", o[5] ? "true" : "false", o[6] ? "true" : "false");
		return;
	}
	/* the band with its meaning, in the sheet's words */
	const char *meaning = o[0] < 7 ? fray_bbb_assault_band_text[o[0]] : "";
	text_add(t, "%s%s%s%slost: attacker %lld, defender %lld%s%s%s%s", outcome_name(o[0]), *meaning ? ": " : "",
		 meaning, *meaning ? " " : " ", (long long)o[1], (long long)o[2], o[3] ? "; attacker disrupted" : "",
		 o[4] ? "; defender disrupted" : "", o[5] ? "; attacker silenced" : "", o[6] ? "; defender silenced" : "");
}

static fray_status bind_assault(fray_call *c)
{
	int64_t ab = val_i(c, AS_AB), db = val_i(c, AS_DB);
	if (ab < 0 || db < 0)
		return frayi_call_bad(c, "bases cannot be negative");
	if (ab == 0 || db == 0)
		return frayi_call_bad(c, "a unit with no bases left is destroyed: it cannot assault or be assaulted");
	bool town = val_b(c, AS_TOWN), fort = val_b(c, AS_FORT);
	/* TERRAIN TABLE: a defender in a town or fort cannot be outflanked */
	if (val_b(c, AS_OUTFLANKED) && (town || fort))
		return frayi_call_bad(c, "%s: a defender in a %s cannot be outflanked (BBB Terrain Table)",
				frayi_call_opt(c, AS_OUTFLANKED), town ? "town" : "fort");
	int cover = (int)val_i(c, AS_COVER), fights = (int)val_i(c, AS_FIGHTS);
	fray_bbb_assault_in *in = CALL_INPUT(c, fray_bbb_assault_in);
	/* G6: NdS, configurable; not given, the procedure's default (told) */
	if (val_given(c, AS_DICE)) {
		const char *d = val_s(c, AS_DICE);
		char *end;
		long n = strtol(d, &end, 10), sides = *end == 'd' || *end == 'D' ? strtol(end + 1, &end, 10) : 0;
		if (n < 1 || n > 4 || sides < 2 || sides > 20 || *end)
			return frayi_call_bad(c,
					"%s expects dice such as 1d6 (1 to 4 dice of 2 to 20 sides; ruling G6), "
					"got '%.40s'", frayi_call_opt(c, AS_DICE), d);
		in->dice = (int)n;
		in->sides = (int)sides;
	}
	/* the defender's cover: counted by the rules (a town -2, a fort -3;
	 * cavalry and artillery only fortified: BBB Terrain Table) */
	in->cover = cover;
	in->terrain = fort ? FRAY_BBB_FORT : town ? FRAY_BBB_TOWN : FRAY_BBB_OTHER_TERRAIN;
	in->fortified = val_b(c, AS_FORTIFIED);
	int counted = fray_bbb_assault_cover_counted(in->defender.arm, cover, in->terrain, in->fortified);
	int modifier = fray_bbb_assault_modifier(in, (int)ab, (int)db);
	frayi_call_title(c, "assault: %d bases against %d, modifiers %+d (attacker's net), %dd%d each%s%s", (int)ab,
			(int)db,
		   modifier, in->dice ? in->dice : FRAY_BBB_ASSAULT_DICE, in->sides ? in->sides : FRAY_BBB_ASSAULT_SIDES,
		   in->dice ? "" : " (ruling G6's default)",
		   (cover > 0 || in->terrain) && !counted ? "; cover ignored (cavalry/artillery)" : "");
	frayi_call_echo(c, "\"modifier\": %d, \"cover_counted\": %d, \"assault_dice_used\": \"%dd%d\", "
		  "\"assault_dice_default\": %s", modifier, counted, in->dice ? in->dice : FRAY_BBB_ASSAULT_DICE,
		  in->sides ? in->sides : FRAY_BBB_ASSAULT_SIDES, in->dice ? "false" : "true");
	call_run(c, fray_bbb_assault_procedure, 7, fmt_assault);
	/* a fight rolls both sides' dice, one event each (issue 40 item 7:
	 * counting two events a fight cut 2d6 assaults halfway through the
	 * first) */
	unsigned dice = (unsigned)(in->dice ? in->dice : FRAY_BBB_ASSAULT_DICE);
	c->limits = (fray_enum_limits){.max_depth = 2 * dice * (unsigned)fights};
	return FRAY_OK;
}

static const proc_desc frayi_bbb_assault_desc = {
	"bbb.assault", "bbb assault", "an assault, fought again on a 0", "BBB sheet, Assault; rulings G6, R20",
	"Each side rolls a die; the final difference is the attacker's die and\n"
	"modifiers less the defender's, read on the assault table. Both sides are\n"
	"Disrupted after it, but the attacker on a +7 and the defender on a -7. A 0\n"
	"costs each side a base and is fought again at once. Odds stop after the\n"
	"max fights and say what is left. A gun is Silenced where others are\n"
	"Disrupted. The dice are configurable (ruling G6; the default 1d6 is told).",
	assault_in, AS_SIDES + 2 * SF_N, assault_out, 7, FRAY_MODE_ROLL | FRAY_MODE_ODDS,
	"{\"attacker_bases\": 4, \"defender_bases\": 3, \"cover\": 1, \"attacker_aggressive\": true}", bind_assault, NULL, NULL, false,
	/* the page */ .headline = {"result", "each", "the assault's result"},
	/* the sheet's Assault Table: from +1 up the defender leaves the
	 * position (back 3", driven back, thrown back) or is destroyed */
	.more_headlines = {{"result", "in [\"+1-3\", \"+4-6\", \"+7\", \"defender destroyed\"]",
			    "the attacker carries the position"}},
	.words = "charge melee attack close combat storm",
	.sides = (const side_pair[]){{"attacker_bases", "defender_bases"}, {"attacker_arm", "defender_arm"},
		{"attacker_aggressive", "defender_aggressive"}, {"attacker_in_depth", "defender_in_depth"},
		{"attacker_disrupted", "defender_disrupted"}, {"attacker_silenced", "defender_silenced"},
		{"attacker_low_ammo", "defender_low_ammo"}, {"attacker_fragile", "defender_fragile"},
		{"attacker_spent", "defender_spent"}, {NULL, NULL}}, .generic = true};

/* ---- move ---- */

static const char *const movers[] = {"infantry", "cavalry", "artillery", "general"};
enum { MV_DISRUPTED, MV_TRAINING, MV_COMMAND, MV_COLUMN, MV_PASSIVE, MV_FRAGILE, MV_DIFFICULT, MV_SPENT, MV_UNIT,
       MV_OUTSIDE, MV_CROSSES, MV_OBSTACLES, MV_ROAD, MV_CHANGES, MV_BASES, MV_START, MV_N };
static const in_desc move_in[] = {
	{"disrupted", IN_BOOL, .help = "the unit is disrupted (the table's other column)", .rule = SHEET ", Movement Table", IN_FIELD(fray_bbb_move_in, disrupted)},
	{"training", IN_CHOICE, .choices = fray_bbb_training_names, .nchoices = 3, .def = FRAY_BBB_TRAINED,
	 .help = "raw, trained or veteran (recovery on 11+, 10+, 9+)", .rule = SHEET ", Movement Table", IN_FIELD(fray_bbb_move_in, training)},
	{"in_command", IN_BOOL, .help = "in command (+1)", .rule = SHEET ", Movement Modifiers", IN_FIELD(fray_bbb_move_in, command)},
	{"column", IN_BOOL, .help = "in column of march or limbered (+1; a road doubles)", .rule = SHEET ", Movement Modifiers",
	 .alias = "limbered", IN_FIELD(fray_bbb_move_in, column)},
	{"passive", IN_BOOL, .help = "passive, in good order (-1)", .rule = SHEET ", Movement Modifiers", IN_FIELD(fray_bbb_move_in, passive)},
	{"fragile", IN_BOOL, .help = "fragile, disrupted (-1)", .rule = SHEET ", Movement Modifiers", IN_FIELD(fray_bbb_move_in, fragile)},
	{"difficult", IN_BOOL, .help = "in difficult terrain (-1)", .rule = SHEET ", Movement Modifiers", IN_FIELD(fray_bbb_move_in, difficult)},
	{"spent", IN_BOOL, .help = "spent (-2)", .rule = SHEET ", Movement Modifiers", IN_FIELD(fray_bbb_move_in, spent)},
	{"unit", IN_CHOICE, .choices = movers, .nchoices = 4, .def = -1,
	 .help = "the moving unit, for the full and half move in inches", .rule = SHEET ", Full Move Allowance"},
	{"outside_front_arc", IN_BOOL, .help = "moving outside its front arc (-3\")", .rule = SHEET ", Movement Penalties"},
	{"crosses_difficult", IN_BOOL, .help = "the move crosses difficult terrain", .rule = SHEET ", Movement Penalties"},
	{"obstacles", IN_INT, 0, 20, .help = "linear obstacles crossed", .rule = SHEET ", Movement Penalties"},
	{"road", IN_BOOL, .help = "following a road (x2 in column or limbered)", .rule = SHEET ", Terrain Table"},
	{"changes", IN_INT, 0, 2, .help = "formation changes and limber/unlimber: half a move each",
	 .rule = SHEET ", Movement notes"},
	{"bases", IN_INT, 0, 999, .help = "the unit's bases now (with its bases at the start: a base is recovered only if lost)",
	 .rule = SHEET ", Movement Table", IN_FIELD(fray_bbb_move_in, bases)},
	{"start_bases", IN_INT, 0, 999, .help = "the unit's bases at the start", .rule = SHEET ", Movement Table", IN_FIELD(fray_bbb_move_in, start_bases)},
};
/* the procedure's fields first (row, recover), then what is derived */
static const out_desc move_out[] = {
	{"row", "string", "the table's row"}, {"recover", "boolean", "recovers a base"},
	{"bases_change", "integer", "bases back (+1) or lost (-1)"},
	{"disrupted", "boolean", "the unit is disrupted after"}, {"broken", "boolean", "broken: removed from the table"},
	{"result", "string", "what the unit may do"}};

static void fmt_move(const fray_call *c, const int64_t *o, fray_format form, textbuf *t)
{
	const fray_bbb_move_in *in = (const fray_bbb_move_in *)c->input;
	const char *words = in->disrupted ? fray_bbb_move_disrupted[o[0]]
			    : o[0] <= 2	  ? "Full move"
					  : fray_bbb_move_good_order[o[0]];
	if (form == FRAY_FORMAT_JSON) {
		char w[160];
		fray_json_string(words, w, sizeof w);
		text_add(t, "\"row\": \"%s\", \"result\": %s, \"recover\": %s, \"bases_change\": %lld, "
			    "\"disrupted\": %s, \"broken\": %s", fray_bbb_move_row_names[o[0]], w, o[1] ? "true" : "false",
			 (long long)o[2], o[3] ? "true" : "false", o[4] ? "true" : "false");
	} else {
		text_add(t, "%-6s %s%s", fray_bbb_move_row_names[o[0]], words, o[1] ? "; recovers 1 base" : "");
	}
}

static fray_status bind_move(fray_call *c)
{
	bool moving = val_given(c, MV_UNIT);
	/* the allowance's inputs mean something only with the unit moving */
	static const size_t for_unit[] = {MV_ROAD, MV_OUTSIDE, MV_CROSSES, MV_OBSTACLES, MV_CHANGES};
	for (size_t k = 0; !moving && k < sizeof for_unit / sizeof for_unit[0]; k++)
		if (val_given(c, for_unit[k]))
			return frayi_call_bad(c, "%s changes the move's distance: give the moving %s too",
					frayi_call_opt(c, for_unit[k]),
					frayi_call_opt(c, MV_UNIT));
	const fray_bbb_move_in *in = CALL_INPUT(c, fray_bbb_move_in);
	if (val_given(c, MV_BASES) != val_given(c, MV_START) || in->bases > in->start_bases)
		return frayi_call_bad(c, "%s and %s go together, and a unit has at most its starting bases",
				frayi_call_opt(c, MV_BASES), frayi_call_opt(c, MV_START));
	char allowance[160] = "";
	if (moving) {
		size_t unit = (size_t)val_i(c, MV_UNIT);
		fray_bbb_allowance_in al = {unit == 3 ? FRAY_BBB_CAVALRY : (fray_bbb_arm)unit, unit == 3,
					    val_b(c, MV_OUTSIDE), val_b(c, MV_CROSSES), (int)val_i(c, MV_OBSTACLES),
					    val_b(c, MV_ROAD), in->column, (int)val_i(c, MV_CHANGES)};
		int full = fray_bbb_allowance(&al);
		/* retirements ignore terrain penalties */
		fray_bbb_allowance_in bare = {al.arm, al.general, false, false, 0, false, false, 0};
		snprintf(allowance, sizeof allowance, "; %s: full move %d\", half move %g\", retire half %g\"",
			 movers[unit], full, full / 2.0, fray_bbb_allowance(&bare) / 2.0);
	}
	int modifier = fray_bbb_move_modifier(in);
	frayi_call_title(c, "move: %s %s, modifiers %+d%s", in->disrupted ? "disrupted" : "good order",
		   fray_bbb_training_names[in->training], modifier, allowance);
	/* the echo is the state the move is rolled on, with its modifier */
	textbuf t = text_on(c->inputs_json, sizeof c->inputs_json);
	text_add(&t, "{\"disrupted\": %s, \"training\": \"%s\", \"modifier\": %d}", in->disrupted ? "true" : "false",
		 fray_bbb_training_names[in->training], modifier);
	call_run(c, fray_bbb_move_procedure, 5, fmt_move);
	return FRAY_OK;
}

static const proc_desc frayi_bbb_move_desc = {
	"bbb.move", "bbb move", "a unit's movement roll", "BBB sheet, Movement Table",
	"2d6 plus the movement modifiers on the movement table; good order units\n"
	"recover a base on 11+ (Raw), 10+ (Trained), 9+ (Veteran). With the moving\n"
	"unit, the full and half move in inches: a road doubles it only in column\n"
	"of march or limbered; each formation change or limber/unlimber costs half\n"
	"a move.",
	move_in, MV_N, move_out, 6, FRAY_MODE_ROLL | FRAY_MODE_ODDS,
	"{\"training\": \"veteran\", \"in_command\": true, \"unit\": \"infantry\", \"road\": true, \"column\": true}",
	bind_move, NULL, NULL, false,
	/* the page */ .headline = {"result", "each", "the move's result"}, .words = "march advance maneuver", .generic = true, .no_sides = true};

/* ---- fire ---- */

#define MAX_GROUPS 8

/* One line of the sheet's Column Shifts: its columns (right positive),
 * the line it is (two inputs may name one line, which shifts once), and
 * the target arm the line is for (-1: any). */
typedef struct shift_line {
	size_t input;
	int cols, line, target;
} shift_line;

enum { FI_WEAPONS, FI_RANGE, FI_FIREPOWER, FI_TARGET, FI_TRAINING, FI_ADVANCING, FI_DISRUPTED, FI_LOW_AMMO,
       FI_REDUCED, FI_PIVOTED, FI_UNLIMBERED, FI_LIMBERED, FI_MOUNTED, FI_FIRER_SKIRMISHERS, FI_DEVASTATING,
       FI_TARGET_INEPT, FI_BRIDGE, FI_FLANKING, FI_TARGET_SKIRMISHERS, FI_RAGGED, FI_COVER, FI_FORTIFIED, FI_TOWN,
       FI_FORT, FI_SHIFT, FI_FIRER_BASES, FI_TARGET_BASES, FI_FIRER_SILENCED, FI_FIRER_LOW_AMMO_INSTEAD, FI_N };
#define FIRE_SHIFTS SHEET ", The Firefight: Column Shifts"
#define FIRE_MULT SHEET ", Fire Multipliers"
/* The sheet's weapons by code, for messages. */
static void weapon_codes(textbuf *t)
{
	for (size_t k = 0; k < fray_bbb_nweapons; k++)
		text_add(t, "%s%s", k ? ", " : "", fray_bbb_weapons[k].code);
}

/* --weapon CODE takes --units N for artillery (counted by the unit), else
 * --bases N (Fire Factors: per base, artillery per unit). */
static int weapon_count(fray_call *c, const char *code, const char **named)
{
	const fray_bbb_weapon *w = fray_bbb_weapon_find(code);
	if (!w) {
		char list[256];
		textbuf t = text_on(list, sizeof list);
		weapon_codes(&t);
		frayi_call_bad(c, "unknown weapon '%.40s' (the sheet's weapons: %s)", code, list);
		return -1;
	}
	*named = w->code;
	return w->per_unit ? 1 : 0;
}

/* the command line's groups: --weapon CODE --bases N (--units N) ... */
static const in_group weapon_groups = {"weapon", {"bases", "units"}, {"bases", "artillery units"}, MAX_GROUPS, weapon_count};

static const in_desc fire_in[] = {
	{"weapons", IN_STRING, .help = "weapon groups as CODE:COUNT, comma-separated (bases, or units for artillery); "
	 "on the command line also --weapon CODE --bases N (--units N), repeated",
	 .rule = SHEET ", Fire Factors", .group = &weapon_groups},
	{"range", IN_NUMBER, 0, 10000, .help = "the range (with weapons)", .rule = SHEET ", Fire Factors", .unit = "inches",
	 .expects = "a number above 0"},
	{"firepower", IN_NUMBER, 0, 10000, .help = "the fire power, instead of weapons", .rule = SHEET ", The Firefight",
	 .expects = "a number from 0"},
	{"target", IN_CHOICE, .choices = arm_names, .nchoices = 3, .help = "the target's arm", .rule = SHEET ", Result / Effect", IN_FIELD(fray_bbb_fire_in, target)},
	{"training", IN_CHOICE, .choices = fray_bbb_training_names, .nchoices = 3, .def = FRAY_BBB_TRAINED,
	 .help = "the target's training", .rule = SHEET ", Result / Effect", IN_FIELD(fray_bbb_fire_in, training)},
	{"advancing", IN_BOOL, .help = "the target is advancing", .rule = SHEET ", Result / Effect", IN_FIELD(fray_bbb_fire_in, advancing)},
	{"disrupted", IN_BOOL, .help = "the firer is disrupted (x1/2)", .rule = FIRE_MULT},
	{"low_ammo", IN_BOOL, .help = "the firer is low on ammo (x1/2)", .rule = FIRE_MULT},
	{"reduced", IN_BOOL, .help = "reduced artillery (x1/2)", .rule = FIRE_MULT},
	{"pivoted", IN_BOOL, .help = "pivoted (x1/2; one item with unlimbered)", .rule = FIRE_MULT},
	{"unlimbered", IN_BOOL, .help = "unlimbered (x1/2; one item with pivoted)", .rule = FIRE_MULT},
	{"limbered", IN_BOOL, .help = "the target is limbered artillery (1 right)", .rule = FIRE_SHIFTS},
	{"mounted", IN_BOOL, .help = "the target is mounted cavalry (1 right; one line with limbered)", .rule = FIRE_SHIFTS},
	{"firer_skirmishers", IN_BOOL, .help = "the firer is skirmishers (1 right)", .rule = FIRE_SHIFTS},
	{"devastating", IN_BOOL, .help = "devastating fire (1 right)", .rule = FIRE_SHIFTS},
	{"target_inept", IN_BOOL, .help = "the target is inept (1 right)", .rule = FIRE_SHIFTS},
	{"bridge", IN_BOOL, .help = "the target is on a bridge (1 right)", .rule = FIRE_SHIFTS},
	{"flanking", IN_BOOL, .help = "flanking fire (1 right)", .rule = FIRE_SHIFTS},
	{"target_skirmishers", IN_BOOL, .help = "the target is skirmishers (1 left)", .rule = FIRE_SHIFTS},
	{"ragged", IN_BOOL, .help = "ragged fire (1 left)", .rule = FIRE_SHIFTS},
	{"cover", IN_INT, 0, 3, .help = "the target's cover: columns left (cavalry, artillery: only fortified)",
	 .rule = SHEET ", Terrain Table"},
	{"fortified", IN_BOOL, .help = "a fortification, bridge or linear obstacle", .rule = SHEET ", Terrain Table note"},
	{"town", IN_BOOL, .help = "the target is in a town: cover 2 Left, no flanking fire", .rule = SHEET ", Terrain Table"},
	{"fort", IN_BOOL, .help = "the target is in a fort: cover 3 Left, fortified, no flanking fire",
	 .rule = SHEET ", Terrain Table"},
	{"shift", IN_INT, -20, 20, .help = "any other net shift, right positive", .rule = FIRE_SHIFTS},
	{"firer_bases", IN_INT, 0, 1000, .def = -1,
	 .help = "the firer's bases left, when fewer than its weapon groups count (losses off the largest group)",
	 .rule = SHEET ", Fire Factors (per base)"},
	{"target_bases", IN_INT, 0, 999, .help = "the target's bases left (a unit left none is destroyed)",
	 .rule = SHEET ", Result / Effect", IN_FIELD(fray_bbb_fire_in, target_bases)},
	{"firer_silenced", IN_BOOL, .help = "the firer is a silenced gun: it may not fire",
	 .rule = SHEET ", Silenced Artillery", IN_FIELD(fray_bbb_fire_in, firer_silenced)},
	{"firer_low_ammo_instead", IN_BOOL,
	 .help = "the firer is a gun that took Low Ammo instead of Silenced: it may not fire",
	 .rule = SHEET ", Silenced Artillery", IN_FIELD(fray_bbb_fire_in, firer_low_ammo_instead)},
};
/* Each Firefight result as a player says it (the sheet's Result / Effect
 * in a few words; the effect on this target is the outcome's "effect"). */
static const char *const fire_says[][2] = {
	{"none", "no effect"},
	{"R", "R: disrupted (a gun silenced); an advancing Raw unit halts"},
	{"T", "T: disrupted (a gun silenced); an advancing Trained or Raw unit halts"},
	{"V", "V: disrupted (a gun silenced); an advancing unit halts"},
	{"1", "1: a base lost, disrupted and halted (a gun silenced and reduced)"},
	{"2", "2: two bases lost, disrupted and halted (a gun destroyed)"},
	{"3", "3: three bases lost, disrupted and halted (a gun destroyed)"},
	{NULL, NULL}};
static const out_desc fire_out[] = {
	{"result", "string", "none, R, T, V, 1, 2 or 3", .says = fire_says}, {"low_ammo", "boolean", "the firer runs low on ammo"},
	{"target_bases_lost", "integer", "bases the target loses"},
	{"target_disrupted", "boolean", "the target (infantry, cavalry) is disrupted"},
	{"target_silenced", "boolean", "the target (a gun) is silenced"},
	{"target_reduced", "boolean", "the target (a gun) is reduced"},
	{"target_destroyed", "boolean", "the target is destroyed"},
	{"target_halted", "boolean", "the target, advancing, is halted"},
	{"effect", "string", "what the result does to the target"}};

static const shift_line shift_lines[] = {
	/* "Target is limbered artillery or mounted cavalry": one line */
	{FI_LIMBERED, 1, 0, FRAY_BBB_ARTILLERY}, {FI_MOUNTED, 1, 0, FRAY_BBB_CAVALRY},
	{FI_FIRER_SKIRMISHERS, 1, 1, -1}, {FI_DEVASTATING, 1, 2, -1}, {FI_TARGET_INEPT, 1, 3, -1},
	{FI_BRIDGE, 1, 4, -1}, {FI_FLANKING, 1, 5, -1}, {FI_TARGET_SKIRMISHERS, -1, 6, -1}, {FI_RAGGED, -1, 7, -1},
};
#define NSHIFT_LINES 8

static void fmt_fire(const fray_call *c, const int64_t *o, fray_format form, textbuf *t)
{
	const fray_bbb_fire_in *in = (const fray_bbb_fire_in *)c->input;
	char effect[160];
	fray_bbb_effect((fray_bbb_result)o[0], in->target, in->training, in->advancing, effect, sizeof effect);
	if (form == FRAY_FORMAT_JSON) {
		char e[200];
		fray_json_string(effect, e, sizeof e);
		text_add(t, "\"result\": \"%s\", \"low_ammo\": %s, \"target_bases_lost\": %lld, \"target_disrupted\": %s, "
			    "\"target_silenced\": %s, \"target_reduced\": %s, \"target_destroyed\": %s, "
			    "\"target_halted\": %s, \"effect\": %s", fray_bbb_result_names[o[0]], o[1] ? "true" : "false",
			 (long long)o[2], o[3] ? "true" : "false", o[4] ? "true" : "false", o[5] ? "true" : "false",
			 o[6] ? "true" : "false", o[7] ? "true" : "false", e);
	} else {
		text_add(t, "%-4s%s %s", fray_bbb_result_names[o[0]], o[1] ? " +low ammo" : "", effect);
	}
}

/* The weapons' fire power at the range: "SM:3,SA:1" with the sheet's
 * factors; a detail for the title; rockets in *rockets. */
static fray_status weapons_firepower(fray_call *c, double range, double *fp, bool *rockets, textbuf *detail)
{
	const char *s = val_s(c, FI_WEAPONS);
	int groups = 0;
	const fray_bbb_weapon *wg[MAX_GROUPS + 1];
	int counts[MAX_GROUPS + 1];
	bool per_unit[MAX_GROUPS + 1];
	*fp = 0;
	*rockets = false;
	for (const char *p = s; *p;) {
		size_t len = strcspn(p, ",");
		char tok[32], *colon, *end;
		snprintf(tok, sizeof tok, "%.*s", (int)(len < sizeof tok ? len : sizeof tok - 1), p);
		colon = strchr(tok, ':');
		long count = colon ? strtol(colon + 1, &end, 10) : 0;
		if (colon)
			*colon = '\0';
		const fray_bbb_weapon *w = colon ? fray_bbb_weapon_find(tok) : NULL;
		if (!colon || !colon[1] || *end || count < 1 || count > 1000 || len >= sizeof tok)
			return frayi_call_bad(c,
					"%s expects weapon groups as CODE:COUNT, comma-separated (SM:3,SA:1); got "
					"'%.200s'", frayi_call_opt(c, FI_WEAPONS), s);
		if (!w) {
			char list[256];
			textbuf t = text_on(list, sizeof list);
			weapon_codes(&t);
			return frayi_call_bad(c, "unknown weapon '%.40s' (the sheet's weapons: %s)", tok, list);
		}
		if (groups == MAX_GROUPS)
			return frayi_call_bad(c, "at most %d weapon groups", MAX_GROUPS);
		wg[groups] = w;
		counts[groups] = (int)count;
		per_unit[groups++] = w->per_unit;
		p += len;
		if (*p == ',')
			p++;
	}
	if (!groups)
		return frayi_call_bad(c, "%s names no weapons", frayi_call_opt(c, FI_WEAPONS));
	/* issue 28 item 11: a unit that lost bases fires with those left;
	 * which group loses them is the rules library's (fray_bbb_cut_groups) */
	if (val_given(c, FI_FIRER_BASES))
		fray_bbb_cut_groups(counts, per_unit, groups, (int)val_i(c, FI_FIRER_BASES));
	for (int k = 0; k < groups; k++) {
		const fray_bbb_weapon *w = wg[k];
		int band = fray_bbb_weapon_band(w, range);
		if (band < 0)
			return frayi_call_bad(c, "%s reaches %d\", not %g\" (BBB Fire Factors)", w->code,
					w->range[w->nbands - 1],
					range);
		if (counts[k] == 0)
			continue;
		*fp += (double)w->factor[band] * (double)counts[k];
		*rockets |= w->shift != 0;
		text_add(detail, "%s%d %s x %d at %g\"%s", detail->len ? " + " : "", counts[k], w->code, w->factor[band],
			 range, w->shift ? " (rockets: 1 right)" : "");
	}
	return FRAY_OK;
}

static fray_status bind_fire(fray_call *c)
{
	bool weapons = val_given(c, FI_WEAPONS), town = val_b(c, FI_TOWN), fort = val_b(c, FI_FORT);
	if (val_given(c, FI_FIREPOWER) && weapons)
		return frayi_call_bad(c, "give %s or weapons, not both", frayi_call_opt(c, FI_FIREPOWER));
	/* TERRAIN TABLE: a target in a town or fort cannot take flanking fire */
	if (val_b(c, FI_FLANKING) && (town || fort))
		return frayi_call_bad(c,
				"%s: a target in a %s cannot be attacked with Flanking Fire (BBB Terrain Table)",
				frayi_call_opt(c, FI_FLANKING), town ? "town" : "fort");
	size_t target = (size_t)val_i(c, FI_TARGET);
	/* each sheet line once, and only for its target */
	int shift = (int)val_i(c, FI_SHIFT);
	bool line_on[NSHIFT_LINES] = {false};
	for (size_t k = 0; k < sizeof shift_lines / sizeof shift_lines[0]; k++) {
		const shift_line *l = &shift_lines[k];
		if (!val_b(c, l->input))
			continue;
		if (l->target >= 0 && (int)target != l->target)
			return frayi_call_bad(c,
					"%s: the sheet's shift is for limbered artillery or mounted cavalry, and the "
					"target is %s (%s %s)", frayi_call_opt(c, l->input), arm_names[target],
					frayi_call_opt(c, FI_TARGET), arm_names[l->target]);
		if (!line_on[l->line]) {
			line_on[l->line] = true;
			shift += l->cols;
		}
	}
	if (!val_given(c, FI_FIREPOWER) && !weapons)
		return frayi_call_bad(c, "expected --weapon CODE with --bases N (or --units N), or %s F",
				frayi_call_opt(c, FI_FIREPOWER));
	char detail[512];
	textbuf detail_text = text_on(detail, sizeof detail);
	double firepower = val_x(c, FI_FIREPOWER);
	if (weapons) {
		if (!val_given(c, FI_RANGE))
			return frayi_call_bad(c, "missing %s INCHES", frayi_call_opt(c, FI_RANGE));
		if (val_x(c, FI_RANGE) <= 0)
			return frayi_call_bad(c, "%s expects a number above 0, got '0'", frayi_call_opt(c, FI_RANGE));
		bool rockets;
		fray_status st = weapons_firepower(c, val_x(c, FI_RANGE), &firepower, &rockets, &detail_text);
		if (st != FRAY_OK)
			return st;
		/* "Target is attacked with Rockets": one shift, however many */
		shift += rockets ? 1 : 0;
	}
	/* Fire Multipliers: each item x1/2, cumulative, and each once:
	 * "Pivoted/Unlimbered" is one item */
	int halvings = val_b(c, FI_DISRUPTED) + val_b(c, FI_LOW_AMMO) + val_b(c, FI_REDUCED) +
		       (val_b(c, FI_PIVOTED) || val_b(c, FI_UNLIMBERED));
	firepower = ldexp(firepower, -halvings);
	/* the target's cover: counted by the rules (a town 2, a fort 3;
	 * cavalry and artillery only fortified: BBB Terrain Table) */
	int cover = (int)val_i(c, FI_COVER);
	fray_bbb_fire_in *in = CALL_INPUT(c, fray_bbb_fire_in);
	in->firepower = firepower;
	in->shift = shift;
	in->cover = cover;
	in->terrain = fort ? FRAY_BBB_FORT : town ? FRAY_BBB_TOWN : FRAY_BBB_OTHER_TERRAIN;
	in->fortified = val_b(c, FI_FORTIFIED);
	int counted = fray_bbb_cover_counted(in->target, cover, in->terrain, in->fortified);
	frayi_call_title(c, "fire: %s%sfirepower %g%s, shift %+d, at %s %s%s%s", detail, *detail ? " = " : "",
			 firepower, halvings ? " after halvings" : "", shift - counted, fray_bbb_training_names[in->training],
			 arm_names[target], in->advancing ? " (advancing)" : "",
			 (cover > 0 || in->terrain) && !counted ? "; cover ignored (cavalry/artillery)" : "");
	/* the echo is what the table is read with: the fire power and shift derived */
	textbuf t = text_on(c->inputs_json, sizeof c->inputs_json);
	text_add(&t, "{\"firepower\": %g, \"shift\": %d, \"target\": \"%s\", \"training\": \"%s\", \"advancing\": %s}",
		 firepower, shift - counted, arm_names[target], fray_bbb_training_names[in->training],
		 in->advancing ? "true" : "false");
	call_run(c, fray_bbb_fire_procedure, 8, fmt_fire);
	return FRAY_OK;
}

static const proc_desc frayi_bbb_fire_desc = {
	"bbb.fire", "bbb fire", "a unit's fire on the firefight table", "BBB sheet, The Firefight; rulings R18, R19",
	"Fire power from the weapons' factors at the range (or given), halved for\n"
	"each fire multiplier, shifted by the sheet's column shifts (each line once;\n"
	"rockets once), read on 2d6. The result's effect depends on the target's arm,\n"
	"training and whether it is advancing. On the command line each weapon group\n"
	"is --weapon CODE --bases N (--units N for artillery).",
	fire_in, FI_N, fire_out, 9, FRAY_MODE_ROLL | FRAY_MODE_ODDS,
	"{\"weapons\": \"RR:4\", \"range\": 6, \"target\": \"infantry\", \"cover\": 1}", bind_fire, NULL, NULL, false,
	/* the page */ .headline = {"result", "each", "the fire's result"}, .words = "shoot volley musketry firefight artillery",
	.sides = (const side_pair[]){{"firer_bases", "target_bases"}, {"firer_skirmishers", "target_skirmishers"},
		{NULL, NULL}}, .generic = true};

/* This file's procedures, in the catalogue's order (list.c joins the files). */
const proc_desc *const frayi_bbb_procs[] = {
	&frayi_bbb_fire_desc, &frayi_bbb_assault_desc, &frayi_bbb_move_desc, NULL,
};
