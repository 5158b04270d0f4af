/* Presidio's smaller procedures in the catalogue: rally, initiative,
 * horses (jump, dismount), spotting, casualty status, and the artillery
 * side rolls (fuse repair, gun movement, blast, radius, firing into a
 * melee). */
#include <string.h>
#include "catalog.h"

/* ---- rally (Section 2, R17) ---- */

static const in_desc rally_in[] = {
	{"leader", IN_INT, 0, 4, .help = "the officer's or native leader's command level (0: none within 2\")",
	 .rule = "Presidio Section 2, ruling R17", IN_FIELD(fray_presidio_rally_in, leader)},
	{"leader_rank", IN_STRING, .help = "the leader's rank: its level, and whether an officer (an NCO cannot "
	 "rally troops)", .rule = "Presidio Section 1, Rank and Command Skill; Section 2, Rally"},
	{"nco", IN_BOOL, .label = "the leader is an NCO", .help = "the leader is an NCO: his level does not count", .rule = "Presidio Section 2, Rally",
	 IN_FIELD(fray_presidio_rally_in, nco)},
};
static const out_desc rally_out[] = {{"rallied", "boolean", "the unit rallies"},
				     {"standing", "string", "afterwards: disordered (in a clump) or still panicked"}};

static void fmt_rallied(const fray_call *c, const int64_t *o, fray_format form, textbuf *t)
{
	(void)c;
	fmt_yes_no(t, form, "rallied", "rallied", "not rallied", o[0]);
	text_add(t, form == FRAY_FORMAT_JSON ? ", \"standing\": \"%s\"" : " (%s)", fray_presidio_standing_names[o[1]]);
}

static fray_status bind_rally(fray_call *c)
{
	if (!val_given(c, 0) && !val_given(c, 1))
		return frayi_call_bad(c,
				"missing %s N (the officer's command level, 0-4) or %s RANK; NCOs cannot rally "
				"troops", frayi_call_opt(c, 0), frayi_call_opt(c, 1));
	fray_presidio_rally_in *in = CALL_INPUT(c, fray_presidio_rally_in);
	if (val_given(c, 1)) {
		const fray_presidio_rank *k = fray_presidio_rank_find(val_s(c, 1));
		if (!k)
			return frayi_call_bad_at(c, 1, "option %s: unknown rank '%.200s'", frayi_call_opt(c, 1),
						 val_s(c, 1));
		if (val_given(c, 0) && val_i(c, 0) != k->skill)
			return frayi_call_bad(c, "%s %lld and %s %s (level %d) disagree: give one",
					frayi_call_opt(c, 0),
					(long long)val_i(c, 0), frayi_call_opt(c, 1), k->rank, k->skill);
		if (val_given(c, 2) && in->nco != !k->officer)
			return frayi_call_bad(c, "%s: a %s is %s", frayi_call_opt(c, 2), k->rank,
					k->officer ? "an officer" : "an NCO");
		in->leader = k->skill;
		in->nco = !k->officer;
	}
	int need = fray_presidio_rally_need(in);
	frayi_call_title(c, "rally: a panicked unit, %s level %d: needs %d+",
			in->nco ? "an NCO's (does not count)" : "officer's",
		   in->leader, need);
	/* the echo as the rank says them, with the number needed */
	textbuf t = text_on(c->inputs_json, sizeof c->inputs_json);
	text_add(&t, "{\"leader\": %d, \"nco\": %s, \"need\": %d}", in->leader, in->nco ? "true" : "false", need);
	call_run(c, fray_presidio_rally_procedure, 2, fmt_rallied);
	return FRAY_OK;
}

static const proc_desc frayi_presidio_rally_desc = {
	"presidio.rally", "presidio rally", "a panicked unit rallies", "Presidio Section 2, ruling R17",
	"A panicked unit rallies on 1d6 at least 6 less the officer's command level;\n"
	"an NCO's level does not count (NCOs cannot rally troops).",
	rally_in, 3, rally_out, 2, FRAY_MODE_ROLL | FRAY_MODE_ODDS, "{\"leader\": 2}", bind_rally, NULL, NULL, false,
	/* the page */ .headline = {"rallied", "== true", "the unit rallies"}, .words = "rally recover panic", .generic = true, .no_sides = true,
	.example_from = "Presidio Section 2, Rally: the example"};

/* ---- initiative (Section 2, R17) ---- */

static const in_desc initiative_in[] = {
	{"leadership_1", IN_INT, 0, 4, .help = "side 1's leadership", .rule = "Presidio Section 2, ruling R17",
	 IN_INT_AT(0)},
	{"leadership_2", IN_INT, 0, 4, .help = "side 2's leadership", .rule = "Presidio Section 2, ruling R17",
	 IN_INT_AT(1)},
};
static const out_desc initiative_out[] = {{"first", "integer", "the side that goes first (1 or 2)",
	.says = (const char *const[][2]){{"1", "side 1 goes first"}, {"2", "side 2 goes first"}, {NULL, NULL}}}};

static void fmt_initiative(const fray_call *c, const int64_t *o, fray_format form, textbuf *t)
{
	(void)c;
	text_add(t, form == FRAY_FORMAT_JSON ? "\"first\": %lld" : "side %lld goes first", (long long)o[0] + 1);
}

static fray_status bind_initiative(fray_call *c)
{
	const int *lead = CALL_INPUT(c, int);
	frayi_call_title(c, "initiative: 1d6 + %d against 1d6 + %d, ties again", lead[0], lead[1]);
	call_run(c, fray_presidio_initiative_procedure, 1, fmt_initiative);
	return FRAY_OK;
}

static const proc_desc frayi_presidio_initiative_desc = {
	"presidio.initiative", "presidio initiative", "who goes first (also an ambush's first shot)",
	"Presidio Section 2, ruling R17",
	"1d6 + leadership each; ties are rolled again, which is one draw among the\n"
	"untied pairs: the odds are exact. An ambush on a unit holding two actions\n"
	"uses the same roll (Section 4, Ambush).",
	initiative_in, 2, initiative_out, 1, FRAY_MODE_ROLL | FRAY_MODE_ODDS,
	"{\"leadership_1\": 1, \"leadership_2\": 2}", bind_initiative, NULL, NULL, false,
	/* the page */ .headline = {"first", "each", "which side goes first"}, .words = "ambush order",
	.sides = (const side_pair[]){{"leadership_1", "leadership_2"}, {NULL, NULL}}, .generic = true};

/* ---- jump, dismount (Section 3) ---- */

static const in_desc jump_in[] = {
	{"horses", IN_INT, 1, 200, .required = true, .help = "horses that jump", .rule = "Presidio Section 3, Jumping",
	 .missing = "N", IN_FIELD(fray_presidio_jump_in, horses)},
	{"expert", IN_BOOL, .help = "expert horsemen (stumble on a d12 of 1)", .rule = "Presidio Section 3, Jumping",
	 IN_FIELD(fray_presidio_jump_in, expert)},
	{"light_barrier", IN_BOOL, .help = "a light barrier, not a fence (a d6 of 1, then another 1)",
	 .rule = "Presidio Section 3, Light Barriers", IN_FIELD(fray_presidio_jump_in, light_barrier)},
};
static const out_desc jump_out[] = {{"casualties", "integer", "riders thrown"}};

static void fmt_riders(const fray_call *c, const int64_t *o, fray_format form, textbuf *t)
{
	(void)c;
	text_add(t, form == FRAY_FORMAT_JSON ? "\"casualties\": %lld" : "%lld rider casualt%s", (long long)o[0], o[0] == 1 ? "y" : "ies");
}

static fray_status bind_jump(fray_call *c)
{
	const fray_presidio_jump_in *in = CALL_INPUT(c, fray_presidio_jump_in);
	frayi_call_title(c, "jump: %d horse%s over %s%s", in->horses, in->horses == 1 ? "" : "s",
		   in->light_barrier ? "a light barrier" : "a fence", in->expert ? ", expert horsemen" : "");
	call_run(c, fray_presidio_jump_procedure, 1, fmt_riders);
	return FRAY_OK;
}

static const proc_desc frayi_presidio_jump_desc = {
	"presidio.jump", "presidio jump", "horses jump a fence or a light barrier", "Presidio Section 3, Jumping",
	"A fence (3-4'): an expert horseman's horse stumbles on a d12 of 1, others are\n"
	"thrown on 4 or less; a light barrier: a d6 of 1 and then another 1.",
	jump_in, 3, jump_out, 1, FRAY_MODE_ROLL | FRAY_MODE_ODDS, "{\"horses\": 4}", bind_jump, NULL, NULL, false,
	/* the page */ .headline = {"casualties", ">= 1", "at least one rider thrown"}, .generic = true, .no_sides = true};

static const in_desc dismount_in[] = {
	{"horses", IN_INT, 1, 200, .required = true, .help = "horses left without a horse-holder",
	 .rule = "Presidio Section 3, Mounting/Dismounting", .missing = "N (horses left without a horse-holder)",
	 IN_INT_AT(0)},
};
static const out_desc dismount_out[] = {{"ran_off", "integer", "horses that run off"}};

static void fmt_ran_off(const fray_call *c, const int64_t *o, fray_format form, textbuf *t)
{
	(void)c;
	text_add(t, form == FRAY_FORMAT_JSON ? "\"ran_off\": %lld" : "%lld horse%s run off", (long long)o[0], o[0] == 1 ? "" : "s");
}

static fray_status bind_dismount(fray_call *c)
{
	const int *h = CALL_INPUT(c, int);
	frayi_call_title(c, "dismount without a horse-holder: %d horse%s", *h, *h == 1 ? "" : "s");
	call_run(c, fray_presidio_dismount_procedure, 1, fmt_ran_off);
	return FRAY_OK;
}

static const proc_desc frayi_presidio_dismount_desc = {
	"presidio.dismount", "presidio dismount", "horses without a horse-holder",
	"Presidio Section 3, Mounting/Dismounting", "A die each horse: odd, it runs off.",
	dismount_in, 1, dismount_out, 1, FRAY_MODE_ROLL | FRAY_MODE_ODDS, "{\"horses\": 5}", bind_dismount, NULL, NULL, false,
	/* the page */ .headline = {"ran_off", ">= 1", "at least one horse runs off"}, .generic = true, .no_sides = true};

/* ---- spot (Section 4, Hidden Movement; Section 8, night) ---- */

enum { SPOT_RECON, SPOT_CAMOU, SPOT_COVER, SPOT_NIGHT, SPOT_INCHES, SPOT_WOODS, SPOT_INTO, SPOT_N };
static const in_desc spot_in[] = {
	{"recon", IN_INT, -5, 10, .label = "recon skill", .help = "the searcher's Recon skill", .rule = "Presidio Section 4, Hidden Movement",
	 IN_INT_AT(0)},
	{"camou", IN_INT, -5, 10, .label = "camouflage skill", .help = "the hidden unit's Camou skill", .rule = "Presidio Section 4, Hidden Movement",
	 IN_INT_AT(1)},
	{"cover", IN_CHOICE, .choices = fray_presidio_cover_names, .nchoices = 5, .help = "the hidden unit's cover",
	 .rule = "Presidio Section 4, Defensive Cover"},
	{"night", IN_INT, 1, 6, .help = "at night: the Nighttime Visibility row's die (1 full moon .. 5-6 no moon)",
	 .rule = "Presidio Section 8, Nighttime Visibility"},
	{"inches", IN_NUMBER, 0, 10000, .help = "at night: the distance to the hidden unit; beyond the night's sight it "
	 "cannot be seen", .rule = "Presidio Section 4, Night Vision; ruling R31", .unit = "inches",
	 .expects = "inches from 0"},
	{"woods", IN_CHOICE, .choices = fray_presidio_woods_names, .nchoices = 4,
	 .help = "at night: the hidden unit in light, medium or heavy woods", .rule = "Presidio Section 4, Woods; ruling R31"},
	{"into_woods", IN_BOOL, .help = "at night: the searchers outside those woods (half)",
	 .rule = "Presidio Section 4, Woods; ruling R31"},
};
static const out_desc spot_out[] = {
	{"spotted", "boolean", "the hidden unit is seen", .yes = "spotted", .no = "still hidden"}};

static fray_status bind_spot(fray_call *c)
{
	int night = val_given(c, SPOT_NIGHT) ? (int)val_i(c, SPOT_NIGHT) : 0;
	size_t cover = (size_t)val_i(c, SPOT_COVER);
	/* at night, the row's Search DM (its 1D6, 5 and 6 the same) */
	int search_dm = night ? fray_presidio_night_rows[night >= 5 ? 4 : night - 1].search_dm : 0;
	int *v = CALL_INPUT(c, int);
	v[2] = fray_presidio_cover_dm((fray_presidio_cover)cover);
	v[3] = search_dm;
	fray_presidio_woods woods = (fray_presidio_woods)val_i(c, SPOT_WOODS);
	bool into = val_b(c, SPOT_INTO);
	if (!night && (val_given(c, SPOT_INCHES) || woods || into))
		return frayi_call_bad(c, "%s, %s and %s are for %s N (the night's sight, ruling R31)",
				      frayi_call_opt(c, SPOT_INCHES), frayi_call_opt(c, SPOT_WOODS),
				      frayi_call_opt(c, SPOT_INTO), frayi_call_opt(c, SPOT_NIGHT));
	if (into && !woods)
		return frayi_call_bad(c, "%s needs %s light|medium|heavy", frayi_call_opt(c, SPOT_INTO),
				      frayi_call_opt(c, SPOT_WOODS));
	/* R31: by night a unit beyond the sight cannot be seen at all */
	double sight = night ? fray_presidio_night_sight(night >= 5 ? 4 : night - 1, woods, into) : 0;
	bool beyond = val_given(c, SPOT_INCHES) && val_x(c, SPOT_INCHES) > sight;
	textbuf t = text_on(c->title, sizeof c->title);
	text_add(&t, "spot: 1d6 + recon %d", v[0]);
	if (night)
		text_add(&t, " %+d night search", search_dm);
	text_add(&t, " against 1d6 + camou %d + cover %d", v[1], v[2]);
	/* the echo says the night's Search DM, not its die */
	t = text_on(c->inputs_json, sizeof c->inputs_json);
	text_add(&t, "{\"recon\": %d, \"camou\": %d, \"cover\": \"%s\", \"night_search_dm\": %d", v[0], v[1],
		 fray_presidio_cover_names[cover], search_dm);
	if (night)
		text_add(&t, ", \"night_sight\": %g, \"woods\": \"%s\", \"into_woods\": %s", sight,
			 fray_presidio_woods_names[woods], into ? "true" : "false");
	if (val_given(c, SPOT_INCHES))
		text_add(&t, ", \"inches\": %g, \"beyond_sight\": %s", val_x(c, SPOT_INCHES), beyond ? "true" : "false");
	text_add(&t, "}");
	call_run(c, beyond ? fray_presidio_out_of_sight_procedure : fray_presidio_spot_procedure, 1, NULL);
	return FRAY_OK;
}

static const proc_desc frayi_presidio_spot_desc = {
	"presidio.spot", "presidio spot", "a search for a hidden unit", "Presidio Section 4, Hidden Movement",
	"1d6 + Recon against 1d6 + Camou + the cover benefit; spotted on equal or\n"
	"higher. At night the Nighttime Visibility row's Search DM (+2 to -2) goes\n"
	"on the search, and a unit beyond the night's sight (ruling R31: --inches,\n"
	"--woods) cannot be seen at all.",
	spot_in, SPOT_N, spot_out, 1, FRAY_MODE_ROLL | FRAY_MODE_ODDS, "{\"recon\": 1, \"camou\": 1, \"cover\": \"partial\"}",
	bind_spot, NULL, NULL, false,
	/* the page */ .headline = {"spotted", "== true", "the unit is spotted"}, .generic = true, .no_sides = true};

/* ---- combine (Section 3, Combining Units) ---- */

static const in_desc combine_in[] = {
	{"figures_1", IN_INT, 1, 1000, .required = true, .help = "the figures the first unit brings",
	 .rule = "Presidio Section 3, Combining Units", .unit = "figures", .missing = "N",
	 IN_FIELD(fray_presidio_combine_in, figures1)},
	{"figures_2", IN_INT, 1, 1000, .required = true, .help = "the figures the second unit brings",
	 .rule = "Presidio Section 3, Combining Units", .unit = "figures", .missing = "N",
	 IN_FIELD(fray_presidio_combine_in, figures2)},
	{"officer", IN_BOOL, .help = "an officer is present (he must stay with the new unit)",
	 .rule = "Presidio Section 3, Combining Units", IN_FIELD(fray_presidio_combine_in, officer)},
};
static const out_desc combine_out[] = {
	{"figures", "integer", "the new unit's figures"},
	{"size", "string", "its size class, recounted (morale casualty DMs)"},
	{"level", "string", "its morale level: inexperienced"},
	{"casualties", "integer", "the casualties its morale checks count: 0"},
	{"actions", "integer", "actions it takes (drums and bugles don't help)"}};

static void fmt_combine(const fray_call *c, const int64_t *o, fray_format form, textbuf *t)
{
	(void)c;
	text_add(t, form == FRAY_FORMAT_JSON ? "\"figures\": %lld, \"size\": \"%s\", \"level\": \"%s\", \"casualties\": %lld, "
			   "\"actions\": %lld"
			 : "%lld figures, a %s, %s, %lld casualties counted, %lld actions",
		 (long long)o[0], fray_presidio_size_names[o[1]], fray_presidio_level_names[o[2]], (long long)o[3],
		 (long long)o[4]);
}

static fray_status bind_combine(fray_call *c)
{
	const fray_presidio_combine_in *in = CALL_INPUT(c, fray_presidio_combine_in);
	if (fray_presidio_combine_refused(in))
		return frayi_call_bad(c, "%s", fray_presidio_combine_refused(in));
	frayi_call_title(c, "combining units: %d and %d figures", in->figures1, in->figures2);
	call_run(c, fray_presidio_combine_procedure, 5, fmt_combine);
	return FRAY_OK;
}

static const proc_desc frayi_presidio_combine_desc = {
	"presidio.combine", "presidio combine", "two units made one", "Presidio Section 3, Combining Units",
	"Figures of two separate units made one (4 actions, with an officer who\n"
	"stays): an inexperienced unit, previous casualties disregarded, its size\n"
	"class recounted from its figures. No die. (Squads of one platoon and\n"
	"platoons of one company only reform.)",
	combine_in, 3, combine_out, 5, FRAY_MODE_ROLL | FRAY_MODE_ODDS,
	"{\"figures_1\": 6, \"figures_2\": 5, \"officer\": true}", bind_combine, NULL, NULL, false,
	/* the page */ .headline = {"size", "each", "the new unit's size class"}, .generic = true, .no_sides = true};

/* ---- casualty status (Section 6) ---- */

static const in_desc status_in[] = {
	{"shattered", IN_BOOL, .help = "the casualty's unit was shattered", .rule = "Presidio Section 6, Casualty Status",
	 .at = 0, .size = sizeof(bool), .ctype = CT_BOOL},
};
static const out_desc status_out[] = {
	{"roll", "integer", "the table's die"}, {"status", "string", "the casualty's fate"},
	{"second_roll", "integer", "days, weeks or the wound (0: none)"},
	{"wound", "string", "the wound the casualty ends with, read on the remaining units' table (none: unharmed)"},
	{"wound_time", "integer", "that wound's own dice: 1D6 days to death, 2D6 weeks or days to duty (0: none)"}};

static void fmt_status(const fray_call *c, const int64_t *o, fray_format form, textbuf *t)
{
	bool shattered = *(const bool *)c->input;
	const char *words = (shattered ? fray_presidio_status_shattered : fray_presidio_status_remaining)[o[0] - 1];
	const char *wound = fray_presidio_wound_names[o[2]];
	if (form == FRAY_FORMAT_JSON)
		text_add(t, "\"roll\": %lld, \"status\": \"%s\", \"second_roll\": %lld, \"wound\": \"%s\", "
			    "\"wound_time\": %lld", (long long)o[0], words, (long long)o[1], wound, (long long)o[3]);
	else if (shattered && o[2] && o[3])
		text_add(t, "%lld: %s; %lld: %s: %lld", (long long)o[0], words, (long long)o[1], wound, (long long)o[3]);
	else if (shattered && o[2])
		text_add(t, "%lld: %s; %lld: %s", (long long)o[0], words, (long long)o[1], wound);
	else if (o[1])
		text_add(t, "%lld: %s (then %lld)", (long long)o[0], words, (long long)o[1]);
	else
		text_add(t, "%lld: %s", (long long)o[0], words);
}

static fray_status bind_status(fray_call *c)
{
	const bool *shattered = CALL_INPUT(c, bool);
	frayi_call_title(c, *shattered ? "casualty status, shattered unit" : "casualty status, remaining unit");
	call_run(c, fray_presidio_casualty_status_procedure, 4, fmt_status);
	return FRAY_OK;
}

static const proc_desc frayi_presidio_status_desc = {
	"presidio.casualty_status", "presidio casualty-status", "what became of a casualty",
	"Presidio Section 6, Casualty Status",
	"The 1d6 tables for a casualty of a remaining or a shattered unit, with the\n"
	"second roll (1D6 days, 2D6 weeks or days, the wound) where the table has one.\n"
	"A shattered unit's captured wounded read their wound on the remaining units'\n"
	"table (a 1: mortally wounded), with its own dice; an escapee is scratched or\n"
	"stunned (1-3) or lightly wounded (4-6, 2D6 days to duty).",
	status_in, 1, status_out, 5, FRAY_MODE_ROLL | FRAY_MODE_ODDS, "{\"shattered\": true}", bind_status, NULL, NULL, false,
	/* the page */ .headline = {"status", "each", "the casualty's status"}, .generic = true, .no_sides = true};

/* ---- fuse repair (Section 9, Artillery Mishaps) ---- */

static const in_desc fuse_in[] = {
	{"actions", IN_INT, 1, 100, .def = 4, .help = "actions spent trying", .rule = "Presidio Section 9, Mishaps",
	 IN_INT_AT(0)},
};
static const out_desc fuse_out[] = {{"fixed_on_action", "integer", "the action that fixed it (0: not fixed)"}};

static void fmt_repair(const fray_call *c, const int64_t *o, fray_format form, textbuf *t)
{
	if (form == FRAY_FORMAT_JSON)
		text_add(t, "\"fixed_on_action\": %lld", (long long)o[0]);
	else if (o[0])
		text_add(t, "fixed on action %lld", (long long)o[0]);
	else
		text_add(t, "not fixed in %d actions", *(const int *)c->input);
}

static fray_status bind_fuse(fray_call *c)
{
	const int *actions = CALL_INPUT(c, int);
	frayi_call_title(c, "a fuse problem: 1D6, 5+ fixes it, up to %d action%s", *actions, *actions == 1 ? "" : "s");
	call_run(c, fray_presidio_fuse_repair_procedure, 1, fmt_repair);
	return FRAY_OK;
}

static const proc_desc frayi_presidio_fuse_desc = {
	"presidio.fuse_repair", "presidio fuse-repair", "fixing a gun's fuse problem",
	"Presidio Section 9, Artillery Mishaps",
	"An artillery mishap's fuse problem: 1D6 each action, 5+ fixes it; the action\n"
	"that does, within the actions given.",
	fuse_in, 1, fuse_out, 1, FRAY_MODE_ROLL | FRAY_MODE_ODDS, "{\"actions\": 3}", bind_fuse, NULL, NULL, false,
	/* the page */ .headline = {"fixed_on_action", ">= 1", "the fuse is fixed"}, .generic = true, .no_sides = true};

/* ---- gun movement (Sections 9, 10) ---- */

static const char *const limbers[] = {"hand", "2-horse", "4-horse"};
enum { GM_GUN, GM_BY, GM_MISSING, GM_RUNNING, GM_GARRISON, GM_N };
static const in_desc gun_move_in[] = {
	{"gun", IN_STRING, .required = true, .help = "a cannon of the Artillery Movement table (\"12# cannon\")",
	 .rule = "Presidio Section 10, Artillery Movement",
	 .missing = "NAME (a cannon of the Artillery Movement table: 3# to 32#)"},
	{"by", IN_CHOICE, .choices = limbers, .nchoices = 3,
	 .label = "moved by", .help = "hauled by hand (a crew of four or a one-horse limber) or a limber",
	 .rule = "Presidio Section 10, Artillery Movement"},
	{"missing_crew", IN_INT, 0, 4, .help = "crewmen lost (-2\" each, by hand)",
	 .rule = "Presidio Section 9, Gun Movement"},
	{"running", IN_BOOL, .help = "running: x2", .rule = "Presidio Section 9, Gun Movement"},
	{"garrison", IN_BOOL, .help = "a garrison-mounted gun: half the hand movement, no limbers",
	 .rule = "Presidio Section 10, Artillery Movement"},
};
static const out_desc gun_move_out[] = {{"inches", "number", "how far the gun moves"}};

static void fmt_inches(const fray_call *c, const int64_t *o, fray_format form, textbuf *t)
{
	(void)c;
	text_add(t, form == FRAY_FORMAT_JSON ? "\"inches\": %g" : "%g\"", (double)o[0] / 2); /* half inches */
}

static fray_status bind_gun_move(fray_call *c)
{
	const fray_presidio_gun_move *g = fray_presidio_gun_move_find(val_s(c, GM_GUN));
	if (!g)
		return frayi_call_bad(c,
				"unknown gun '%.200s' (the Artillery Movement table has 1#, 2# swivels, 3#-32# "
				"cannon, 6#, 12# mortars)", val_s(c, GM_GUN));
	size_t limber = (size_t)val_i(c, GM_BY);
	int missing = (int)val_i(c, GM_MISSING);
	const int rates[3] = {g->hand, g->two_horse, g->four_horse};
	if (rates[limber] < 0)
		return frayi_call_bad(c, "the %s has no %s movement in the Artillery Movement table", g->piece,
				limber ? "limbered" : "hand");
	if (missing && limber)
		return frayi_call_bad(c, "%s counts only when the crew hauls the gun (%s hand)",
				frayi_call_opt(c, GM_MISSING),
				frayi_call_opt(c, GM_BY));
	bool garrison = val_b(c, GM_GARRISON);
	if (garrison && limber)
		return frayi_call_bad(c, "%s: garrison-mounted guns cannot be pulled by limbers (Presidio Section 10, "
				"Artillery Movement): give %s hand", frayi_call_opt(c, GM_GARRISON),
						frayi_call_opt(c, GM_BY));
	fray_presidio_gun_move_in *in = CALL_INPUT(c, fray_presidio_gun_move_in);
	*in = (fray_presidio_gun_move_in){rates[limber], limber == 0, missing, val_b(c, GM_RUNNING), garrison};
	frayi_call_title(c, "%s moved by %s: %d%s + 1D6\"%s%s", g->piece, limbers[limber], in->rate,
		   missing ? " - 2 per missing crewman" : "", in->running ? ", x2 running" : "",
		   garrison ? ", halved (garrison-mounted)" : "");
	/* the echo names the piece as the table does */
	textbuf t = text_on(c->inputs_json, sizeof c->inputs_json);
	text_add(&t, "{\"gun\": \"%s\", \"by\": \"%s\", \"missing_crew\": %d, \"running\": %s, \"garrison\": %s}",
		 g->piece, limbers[limber], missing, in->running ? "true" : "false", garrison ? "true" : "false");
	call_run(c, fray_presidio_gun_move_procedure, 1, fmt_inches);
	return FRAY_OK;
}

static const proc_desc frayi_presidio_gun_move_desc = {
	"presidio.gun_move", "presidio gun-move", "how far a gun is moved", "Presidio Sections 9 and 11",
	"The table's rate for the piece (by hand: a crew of four or a one-horse\n"
	"limber) less 2\" for each missing crewman when hauled by hand, plus 1D6,\n"
	"doubled when running; never below 0. A garrison-mounted gun has half the\n"
	"hand movement (a half inch kept) and no limbers.",
	gun_move_in, GM_N, gun_move_out, 1, FRAY_MODE_ROLL | FRAY_MODE_ODDS,
	"{\"gun\": \"12# cannon\", \"by\": \"2-horse\"}", bind_gun_move, NULL, NULL, false,
	/* the page */ .headline = {"inches", "each", "how far the gun moves"}, .generic = true, .no_sides = true};

/* ---- blast (Section 9, Radius Hits on structures) ---- */

static const char *const zones[] = {"direct", "lethal-cone", "radius"};
enum { BL_GUN, BL_ZONE, BL_STRUCTURE, BL_STRENGTH, BL_WEAKENED, BL_N };
static const in_desc blast_in[] = {
	{"gun", IN_STRING, .required = true, .help = "a piece that fires shell (\"6# cannon, smoothbore\")",
	 .rule = "Presidio Section 10, Artillery", .missing = "PIECE (one that fires shell)"},
	{"zone", IN_CHOICE, .choices = zones, .nchoices = 3, .required = true,
	 .help = "a direct hit, the lethal cone (3/4 damage) or the radius (1/2)", .rule = "Presidio Section 9, Radius Hits",
	 .missing = "direct|lethal-cone|radius"},
	{"structure", IN_STRING, .help = "the target, one of the Target Strengths (\"log house\")",
	 .rule = "Presidio Section 9, Target Strengths", .excludes = (const char *const[]){"strength", NULL},
	 .why_excluded = "both give the target: give one"},
	{"strength", IN_INT, -5, 40, .help = "the target's strength, if not a structure of the list",
	 .rule = "Presidio Section 9, Damage"},
	{"weakened", IN_INT, 0, 20, .help = "hits without damage at this spot before: -2 strength each",
	 .rule = "Presidio Section 9, Damage"},
};
static const out_desc blast_out[] = {{"destroyed", "boolean", "destroyed, else weakened (-2 strength there)",
				      .yes = "destroyed", .no = "not destroyed: weakened, -2 strength at this spot"}};

static fray_status bind_blast(fray_call *c)
{
	const fray_presidio_gun *g = frayi_call_presidio_shell(c, BL_GUN);
	if (!g)
		return FRAY_ERR_INPUT;
	int strength = (int)val_i(c, BL_STRENGTH);
	if (val_given(c, BL_STRUCTURE) && frayi_call_presidio_structure(c, val_s(c, BL_STRUCTURE), &strength) != FRAY_OK)
		return FRAY_ERR_INPUT;
	if (!val_given(c, BL_STRUCTURE) && !val_given(c, BL_STRENGTH))
		return frayi_call_bad(c, "missing the target: %s NAME or %s N", frayi_call_opt(c, BL_STRUCTURE),
				frayi_call_opt(c, BL_STRENGTH));
	size_t zone = (size_t)val_i(c, BL_ZONE);
	strength = fray_presidio_weakened_strength(strength, (int)val_i(c, BL_WEAKENED));
	fray_presidio_blast_in *in = CALL_INPUT(c, fray_presidio_blast_in);
	*in = (fray_presidio_blast_in){fray_presidio_blast_damage(g->damage, (fray_presidio_blast_zone)zone), strength,
				       g->damage, (fray_presidio_blast_zone)zone};
	frayi_call_title(c, "%s shell, %s: damage %d (of %d) against strength %d", g->piece, zones[zone], in->damage,
		   g->damage, in->strength);
	/* the echo says the damage and strength the chart is read with */
	textbuf t = text_on(c->inputs_json, sizeof c->inputs_json);
	text_add(&t, "{\"gun\": \"%s\", \"zone\": \"%s\", \"damage\": %d, \"strength\": %d}", g->piece, zones[zone],
		 in->damage, in->strength);
	call_run(c, fray_presidio_blast_procedure, 1, NULL);
	return FRAY_OK;
}

static const proc_desc frayi_presidio_blast_desc = {
	"presidio.blast", "presidio blast", "a shell bursting on or near a structure, vehicle or gun",
	"Presidio Section 9, Radius Hits",
	"The shell's damage in full, 3/4 in the lethal cone or 1/2 in the rest of\n"
	"the radius (rounded down), then the damage chart against the target's\n"
	"strength; no saving roll. A target not destroyed is weakened: -2 strength\n"
	"at that spot.",
	blast_in, BL_N, blast_out, 1, FRAY_MODE_ROLL | FRAY_MODE_ODDS,
	"{\"gun\": \"24# mortar\", \"zone\": \"radius\", \"structure\": \"log house\"}", bind_blast, NULL, NULL, false,
	/* the page */ .headline = {"destroyed", "== true", "the structure is destroyed"}, .words = "shell cannon artillery fire", .generic = true, .no_sides = true};

/* ---- radius hits on figures (Section 9) ---- */

enum { RAD_LETHAL, RAD_OUTSIDE, RAD_POSTURE, RAD_DAMAGE, RAD_GUN, RAD_ARMOR };
static const in_desc radius_in[] = {
	{"lethal", IN_INT, 0, 200, .help = "figures in the lethal cone (half the radius): incapacitated",
	 .rule = "Presidio Section 9, Radius Hits", .unit = "figures"},
	{"outside", IN_INT, 0, 200, .help = "figures in the rest of the radius", .rule = "Presidio Section 9, Radius Hits",
	 .unit = "figures"},
	{"posture", IN_CHOICE, .choices = fray_presidio_posture_names, .nchoices = 4, .def = 1,
	 .help = "their posture: hit on 3+, 4+, 5+, 6", .rule = "Presidio Section 9, Radius Hits"},
	{"damage", IN_INT, 1, 40, .help = "the load's damage: the figures hit outside roll the damage chart",
	 .rule = "Presidio Section 9 (\"Then roll damage\")"},
	{"gun", IN_STRING, .help = "a piece whose shell gives the damage", .rule = "Presidio Section 10, Artillery",
	 .excludes = (const char *const[]){"damage", NULL}, .why_excluded = "both give the damage: give one"},
	{"armor", IN_INT, -5, 20, .help = "the figures' armor (with a damage)", .rule = "Presidio Section 6, Wounding"},
};
static const out_desc radius_out[] = {
	{"hit", "integer", "figures hit"}, {"casualties", "integer", "with a damage: the cone's and the wounded"}};

static void fmt_radius(const fray_call *c, const int64_t *o, fray_format form, textbuf *t)
{
	const int *v = (const int *)c->input;
	if (v[3] > 0)
		text_add(t, form == FRAY_FORMAT_JSON ? "\"hit\": %lld, \"casualties\": %lld" : "%lld hit, %lld casualt%s", (long long)o[0],
			 (long long)o[1], form == FRAY_FORMAT_JSON || o[1] == 1 ? "y" : "ies");
	else
		text_add(t, form == FRAY_FORMAT_JSON ? "\"hit\": %lld" : "%lld hit", (long long)o[0]);
}

static fray_status bind_radius(fray_call *c)
{
	int damage = val_given(c, RAD_DAMAGE) ? (int)val_i(c, RAD_DAMAGE) : 0;
	if (val_given(c, RAD_GUN)) {
		const fray_presidio_gun *g = frayi_call_presidio_shell(c, RAD_GUN);
		if (!g)
			return FRAY_ERR_INPUT;
		damage = g->damage;
	}
	if (!damage && val_given(c, RAD_ARMOR))
		return frayi_call_bad(c, "%s needs the load's damage: %s N or %s PIECE", frayi_call_opt(c, RAD_ARMOR),
				frayi_call_opt(c, RAD_DAMAGE), frayi_call_opt(c, RAD_GUN));
	size_t posture = (size_t)val_i(c, RAD_POSTURE);
	int *v = CALL_INPUT(c, int);
	v[0] = (int)val_i(c, RAD_LETHAL);
	v[1] = (int)val_i(c, RAD_OUTSIDE);
	v[2] = (int)posture;
	v[3] = damage;
	v[4] = (int)val_i(c, RAD_ARMOR);
	textbuf t = text_on(c->title, sizeof c->title);
	text_add(&t, "radius hits: %d in the lethal cone, %d outside it, %s", v[0], v[1],
		 fray_presidio_posture_names[posture]);
	if (damage)
		text_add(&t, "; damage %d against armor %d", v[3], v[4]);
	/* the echo says the damage used, whether given or the shell's */
	t = text_on(c->inputs_json, sizeof c->inputs_json);
	text_add(&t, "{\"lethal\": %d, \"outside\": %d, \"posture\": \"%s\"", v[0], v[1],
		 fray_presidio_posture_names[posture]);
	if (damage)
		text_add(&t, ", \"damage\": %d, \"armor\": %d", v[3], v[4]);
	text_add(&t, "}");
	call_run(c, fray_presidio_radius_procedure, 2, fmt_radius);
	return FRAY_OK;
}

static const proc_desc frayi_presidio_radius_desc = {
	"presidio.radius", "presidio radius", "a shell's or grenade's radius hits on figures",
	"Presidio Section 9, Radius Hits",
	"Figures in the lethal cone (half the radius) are incapacitated; the others\n"
	"within the radius are hit on 1d6: mounted 3+, standing 4+, kneeling 5+, prone\n"
	"or in partial cover 6. With the load's damage (--damage, or --gun's shell),\n"
	"each figure hit outside the cone then rolls the damage chart against its\n"
	"armor; the casualties are the cone's figures and the wounded.",
	radius_in, 6, radius_out, 2, FRAY_MODE_ROLL | FRAY_MODE_ODDS,
	"{\"lethal\": 1, \"outside\": 4, \"damage\": 6, \"armor\": 1}", bind_radius, NULL, NULL, false,
	/* the page */ .headline = {"hit", ">= 1", "at least one figure hit"}, .words = "shell grenade cannon artillery fire", .generic = true, .no_sides = true};

/* ---- firing into a melee (Section 5) ---- */

static const in_desc into_melee_in[] = {
	{"hits", IN_INT, 1, 100, .required = true, .help = "hits scored (from a shoot)",
	 .rule = "Presidio Section 5, Firing into Melee", .missing = "N (hits, from 1)", IN_INT_AT(0)},
	{"enemy", IN_INT, 0, 1000, .required = true, .def = -1, .help = "enemy figures in the melee",
	 .rule = "Presidio Section 5, Firing into Melee", .unit = "figures", .missing = "N (enemy figures in the melee)",
	 IN_INT_AT(1)},
	{"friends", IN_INT, 0, 1000, .required = true, .def = -1, .help = "friendly figures in the melee",
	 .rule = "Presidio Section 5, Firing into Melee", .unit = "figures",
	 .missing = "N (friendly figures in the melee)", IN_INT_AT(2)},
};
static const out_desc into_melee_out[] = {
	{"enemy_hit", "integer", "hits on the enemy"}, {"friends_hit", "integer", "hits on your own"}};

static void fmt_into_melee(const fray_call *c, const int64_t *o, fray_format form, textbuf *t)
{
	(void)c;
	text_add(t, form == FRAY_FORMAT_JSON ? "\"enemy_hit\": %lld, \"friends_hit\": %lld" : "%lld enemy hit, %lld of your own",
		 (long long)o[0], (long long)o[1]);
}

static fray_status bind_into_melee(fray_call *c)
{
	if (val_i(c, 1) + val_i(c, 2) == 0)
		return frayi_call_bad(c, "expected %s N (from 1), %s N and %s N (the figures in the melee, not all 0)",
				frayi_call_opt(c, 0), frayi_call_opt(c, 1), frayi_call_opt(c, 2));
	const int *in = CALL_INPUT(c, int);
	frayi_call_title(c, "firing into a melee: %d hit%s among %d enemy and %d friendly figures", in[0],
		   in[0] == 1 ? "" : "s", in[1], in[2]);
	call_run(c, fray_presidio_into_melee_procedure, 2, fmt_into_melee);
	return FRAY_OK;
}

static const proc_desc frayi_presidio_into_melee_desc = {
	"presidio.into_melee", "presidio into-melee", "whom fire into a melee hits",
	"Presidio Section 5, Firing into Melee",
	"From beyond 4\": the hits fall at random on both sides, each on a figure\n"
	"drawn from all those in the melee (a figure hit once is not drawn again).\n"
	"Roll the wounds for each side's hits with its armor.",
	into_melee_in, 3, into_melee_out, 2, FRAY_MODE_ROLL | FRAY_MODE_ODDS,
	"{\"hits\": 3, \"enemy\": 6, \"friends\": 4}", bind_into_melee, NULL, NULL, false,
	/* the page */ .headline = {"friends_hit", ">= 1", "at least one hit on your own"}, .generic = true, .no_sides = true};

/* ---- artillery fire (Sections 9 and 10, ruling R26) ---- */

enum { AR_GUN, AR_AMMO, AR_FIRE, AR_SKILL, AR_BAND, AR_RANGE, AR_COVER, AR_CORRECTIONS, AR_STRENGTH, AR_STRUCTURE,
       AR_MISSING, AR_DM, AR_ENEMIES, AR_FRIENDS, AR_FARMOR, AR_WEAKENED, AR_N };
static const in_desc artillery_in[] = {
	{"gun", IN_STRING, .required = true, .help = "the piece, such as \"12# cannon, smoothbore\"",
	 .rule = "Presidio Section 10, Artillery", .missing = "PIECE, such as \"12# cannon, smoothbore\""},
	{"ammo", IN_CHOICE, .choices = fray_presidio_ammo_names, .nchoices = 5, .help = "the load",
	 .rule = "Presidio Section 10, Artillery"},
	{"fire", IN_CHOICE, .choices = fray_presidio_fire_type_names, .nchoices = 4,
	 .help = "direct, indirect, directed or blind fire (as the load's Dir/Ind allows)",
	 .rule = "Presidio Section 9, Types of Fire; ruling R26"},
	{"skill", IN_INT, -5, 10, .help = "the crew's gunnery skill (not for canister, directed, blind)",
	 .rule = "Presidio Section 9, Required Number"},
	{"band", IN_CHOICE, .choices = fray_presidio_band_names, .nchoices = 3, .def = 2, .help = "the range band",
	 .rule = "Presidio Section 9 (the small-arms DMs)"},
	{"range", IN_NUMBER, 0, 100000, .help = "the range: its band by the load's range class",
	 .rule = "Presidio Section 10, Range; ruling R12", .unit = "inches", .expects = "inches from 0",
	 .excludes = (const char *const[]){"band", NULL}, .why_excluded = "a range picks the band: give one"},
	{"cover", IN_INT, 0, 4, .help = "the target's cover DM", .rule = "Presidio Section 4, Defensive Cover"},
	{"corrections", IN_INT, 0, 20, .help = "shots already fired at this target (fire correction)",
	 .rule = "Presidio Section 9, Fire Correction"},
	{"strength", IN_INT, -5, 40, .def = -99, .help = "the target's strength (or, for canister, the figures' armor)",
	 .rule = "Presidio Section 9, Damage", .alias = "armor"},
	{"structure", IN_STRING, .help = "the target, one of the Target Strengths (\"log house\")",
	 .rule = "Presidio Section 9, Target Strengths", .excludes = (const char *const[]){"strength", NULL},
	 .why_excluded = "both give the target: give one"},
	{"crew_missing", IN_INT, 0, 10, .help = "crewmen lost: reload +2 actions each",
	 .rule = "Presidio Section 9, Reloading"},
	{"dm", IN_INT, -20, 20, .label = "other die modifier", .help = "any other DM", .rule = "Presidio Section 9"},
	{"enemy_figures", IN_INT, 1, 1000, .help = "canister: enemy figures in the cone",
	 .rule = "Presidio Section 9, Canister Hits", .unit = "figures"},
	{"friendly_figures", IN_INT, 1, 1000, .help = "canister: friendly figures in the cone",
	 .rule = "Presidio Section 9, Canister Hits", .unit = "figures"},
	{"friendly_armor", IN_INT, -5, 40, .help = "canister: the friendly figures' armor",
	 .rule = "Presidio Section 9, Canister Hits"},
	{"weakened", IN_INT, 0, 20, .help = "shot or shell: hits without damage at this spot before, -2 strength each",
	 .rule = "Presidio Section 9, Damage"},
};
static const out_desc artillery_out[] = {
	{"result", "string", "miss, hit or mishap"}, {"destroyed", "boolean", "shot or shell: the target destroyed"},
	{"casualties", "integer", "canister: enemy casualties"}, {"friendly_casualties", "integer", "canister: friends hit"},
	{"scatter", "integer", "a miss: inches off"}, {"mishap", "integer", "the mishap table's roll (0: none)"}};

static void fmt_artillery(const fray_call *c, const int64_t *o, fray_format form, textbuf *t)
{
	const fray_presidio_artillery_in *in = (const fray_presidio_artillery_in *)c->input;
	bool canister = in->gun->ammo >= FRAY_PRESIDIO_CANISTER;
	static const char *const results[3] = {"miss", "hit", "mishap"};
	if (form == FRAY_FORMAT_JSON && canister)
		text_add(t, "\"result\": \"%s\", \"casualties\": %lld, \"friendly_casualties\": %lld, \"scatter\": %lld, "
			    "\"mishap\": %lld", results[o[0]], (long long)o[1], (long long)o[4], (long long)o[2],
			 (long long)o[3]);
	else if (form == FRAY_FORMAT_JSON)
		text_add(t, "\"result\": \"%s\", \"destroyed\": %s, \"scatter\": %lld, \"mishap\": %lld", results[o[0]],
			 o[1] ? "true" : "false", (long long)o[2], (long long)o[3]);
	else if (o[0] == 2)
		text_add(t, "mishap %lld", (long long)o[3]);
	else if (canister && in->friendly_figures)
		text_add(t, "%s: %lld casualt%s, %lld friendly", results[o[0]], (long long)o[1], o[1] == 1 ? "y" : "ies",
			 (long long)o[4]);
	else if (canister) /* a miss and a hit that wounds no one both leave 0 casualties */
		text_add(t, "%s: %lld casualt%s", results[o[0]], (long long)o[1], o[1] == 1 ? "y" : "ies");
	else if (o[0] == 1)
		text_add(t, "hit, %s", o[1] ? "destroyed" : "weakened");
	else
		text_add(t, "miss by %lld\"", (long long)o[2]);
	if ((form != FRAY_FORMAT_JSON) && o[0] != 2 && o[3])
		text_add(t, " (mishap table %lld: no problem)", (long long)o[3]);
}

static fray_status bind_artillery(fray_call *c)
{
	size_t ammo = (size_t)val_i(c, AR_AMMO), type = (size_t)val_i(c, AR_FIRE);
	fray_presidio_artillery_in *in = CALL_INPUT(c, fray_presidio_artillery_in);
	*in = (fray_presidio_artillery_in){0};
	in->gun = fray_presidio_gun_find(val_s(c, AR_GUN), (fray_presidio_ammo)ammo);
	if (!in->gun)
		return frayi_call_bad(c,
				"no %s for '%.200s' in the artillery list (Presidio Section 10): pieces such as "
				"\"6# cannon, smoothbore\", \"12# cannon, rifled\", \"24# mortar\"",
				fray_presidio_ammo_names[ammo], val_s(c, AR_GUN));
	in->type = (fray_presidio_fire_type)type;
	/* the load's Range column is its range class (R12): a range picks the
	 * band, and a target beyond long range cannot be fired at */
	in->band = (int)val_i(c, AR_BAND);
	if (val_given(c, AR_RANGE)) {
		char what[96];
		snprintf(what, sizeof what, "%s %s", in->gun->piece, fray_presidio_ammo_names[ammo]);
		fray_status st = frayi_call_presidio_band(c, in->gun->range, val_x(c, AR_RANGE), what, "Section 10",
				&in->band);
		if (st != FRAY_OK)
			return st;
	}
	/* Canister Hits: friends in the cone are in the random die roll */
	bool cone = val_given(c, AR_ENEMIES) || val_given(c, AR_FRIENDS) || val_given(c, AR_FARMOR);
	if (cone && in->gun->ammo < FRAY_PRESIDIO_CANISTER)
		return frayi_call_bad(c, "%s and %s are for canister (the 90 degree cone)",
				frayi_call_opt(c, AR_FRIENDS),
				frayi_call_opt(c, AR_ENEMIES));
	if (val_given(c, AR_FRIENDS) != val_given(c, AR_ENEMIES))
		return frayi_call_bad(c, "give both %s N and %s N (the figures in the cone)",
				frayi_call_opt(c, AR_ENEMIES),
				frayi_call_opt(c, AR_FRIENDS));
	in->enemy_figures = (int)val_i(c, AR_ENEMIES);
	in->friendly_figures = (int)val_i(c, AR_FRIENDS);
	in->friendly_armor = (int)val_i(c, AR_FARMOR);
	const char *why = fray_presidio_fire_refused(in->gun, in->type);
	if (why)
		return frayi_call_bad(c, "%s %s: %s %s: %s (Presidio Sections 9 and 10)", frayi_call_opt(c, AR_FIRE),
				fray_presidio_fire_type_names[type], in->gun->piece, fray_presidio_ammo_names[ammo], why);
	int strength = (int)val_i(c, AR_STRENGTH);
	if (val_given(c, AR_STRUCTURE) && frayi_call_presidio_structure(c, val_s(c, AR_STRUCTURE), &strength) != FRAY_OK)
		return FRAY_ERR_INPUT;
	if (!val_given(c, AR_STRUCTURE) && !val_given(c, AR_STRENGTH))
		return frayi_call_bad(c, "missing the target: %s N, %s NAME, or --armor N for figures",
				frayi_call_opt(c, AR_STRENGTH),
				frayi_call_opt(c, AR_STRUCTURE));
	in->skill = (int)val_i(c, AR_SKILL);
	in->cover_dm = (int)val_i(c, AR_COVER);
	in->other_dm = (int)val_i(c, AR_DM);
	in->corrections = (int)val_i(c, AR_CORRECTIONS);
	if (val_given(c, AR_WEAKENED) && in->gun->ammo >= FRAY_PRESIDIO_CANISTER)
		return frayi_call_bad(c, "%s is for shot or shell on a structure (canister strikes figures)",
				      frayi_call_opt(c, AR_WEAKENED));
	in->strength = fray_presidio_weakened_strength(strength, (int)val_i(c, AR_WEAKENED));
	in->crew_missing = (int)val_i(c, AR_MISSING);
	/* canister strikes figures: the number is their armor, not a strength */
	const char *target = in->gun->ammo >= FRAY_PRESIDIO_CANISTER ? "armor" : "strength";
	int required = fray_presidio_artillery_required(in);
	frayi_call_title(c, "artillery: %s, %s, %s fire: %d+; target %s %d; reload %d actions", in->gun->piece,
		   fray_presidio_ammo_names[ammo], fray_presidio_fire_type_names[type], required, target, in->strength,
		   in->gun->reload + 2 * in->crew_missing);
	/* the echo says the piece, the band and the number required */
	textbuf t = text_on(c->inputs_json, sizeof c->inputs_json);
	text_add(&t,
		 "{\"gun\": \"%s\", \"ammo\": \"%s\", \"fire\": \"%s\", \"skill\": %d, \"band\": \"%s\", \"cover\": %d, "
		 "\"corrections\": %d, \"crew_missing\": %d, \"dm\": %d, \"required\": %d, \"%s\": %d",
		 in->gun->piece, fray_presidio_ammo_names[ammo], fray_presidio_fire_type_names[type], in->skill,
		 fray_presidio_band_names[in->band], in->cover_dm, in->corrections, in->crew_missing, in->other_dm, required, target,
		 in->strength);
	if (in->friendly_figures)
		text_add(&t, ", \"enemy_figures\": %d, \"friendly_figures\": %d, \"friendly_armor\": %d",
			 in->enemy_figures, in->friendly_figures, in->friendly_armor);
	text_add(&t, "}");
	call_run(c, fray_presidio_artillery_procedure, 5, fmt_artillery);
	return FRAY_OK;
}

static const proc_desc frayi_presidio_artillery_desc = {
	"presidio.artillery", "presidio artillery", "a gun fires: hit, scatter or mishap",
	"Presidio Sections 9 and 10, ruling R26",
	"Direct rifled 9+, direct smoothbore 10+, indirect 11+, directed 12, blind 12\n"
	"on 2d6, less gunnery skill (not for canister, directed or blind), plus cover\n"
	"and the small-arms DMs. A miss scatters (x1 direct, x2 indirect and directed,\n"
	"x3 blind; rifled direct shot does not) in a direction 1d6; a 1 (snake eyes\n"
	"blind) is a possible mishap: 1-4 on the mishap table, no shot; 5-6, the shot\n"
	"goes as rolled and scatters. A hit rolls damage against the strength. Canister: the\n"
	"burst's dice as a volley, one of them the piece's (its 1 a possible mishap),\n"
	"wounding on the damage chart; friends in the cone share the hits.",
	artillery_in, AR_N, artillery_out, 6, FRAY_MODE_ROLL | FRAY_MODE_ODDS,
	"{\"gun\": \"12# cannon, smoothbore\", \"ammo\": \"shot\", \"skill\": 1, \"structure\": \"log house\"}",
	bind_artillery, NULL, NULL, false,
	/* the page */ .headline = {"result", "each", "what the shot does"}, .words = "cannon gun shell fire", .generic = true, .no_sides = true};

/* This file's procedures, in the catalogue's order (list.c joins the files). */
const proc_desc *const frayi_presidio_misc_procs[] = {
	&frayi_presidio_rally_desc, &frayi_presidio_initiative_desc, &frayi_presidio_jump_desc,
	&frayi_presidio_dismount_desc, &frayi_presidio_spot_desc, &frayi_presidio_status_desc,
	&frayi_presidio_artillery_desc, &frayi_presidio_fuse_desc, &frayi_presidio_gun_move_desc,
	&frayi_presidio_blast_desc, &frayi_presidio_radius_desc, &frayi_presidio_into_melee_desc,
	&frayi_presidio_combine_desc, NULL,
};
