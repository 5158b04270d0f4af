/* Presidio's movement roll in the catalogue (Section 3; the Move skill of
 * Section 1). */
#include "catalog.h"

#define R3 "Presidio Section 3, Movement"

enum { MV_AS, MV_RUNNING, MV_CHARGING, MV_LINE, MV_DRUMMER, MV_CRAWLING, MV_KNEEL, MV_PRONE, MV_BARRIER,
       MV_BEFORE, MV_SKILL, MV_UNITS, MV_UNIT, MV_ROAD, MV_TURNS, MV_FIRING, MV_RELOADING, MV_DISORDERED,
       MV_DESIGNATION, MV_N };
static const in_desc move_in[] = {
	{"as", IN_CHOICE, .choices = fray_presidio_mover_names, .nchoices = 4,
	 .label = "moves as", .help = "the mover: foot 6, light and native 7, slow (wagons, civilians) 3, mounted 12, + 1D6", .rule = R3},
	{"running", IN_BOOL, .help = "two actions: x2", .rule = R3, .alias = "galloping", IN_FIELD(fray_presidio_move_in, running)},
	{"charging", IN_BOOL, .help = "charging: running speed, never halved in line", .rule = "Presidio Section 5, Charging",
	 .excludes = (const char *const[]){"running", NULL}, .why_excluded = "charging moves at running speed already", IN_FIELD(fray_presidio_move_in, charging)},
	{"line", IN_BOOL, .help = "in line formation: halved, except when charging", .rule = "Presidio Section 3, Formations", IN_FIELD(fray_presidio_move_in, line)},
	{"drummer", IN_BOOL, .help = "a drummer: +1\" to a unit in line, after halving",
	 .rule = "Presidio Section 1, Special Characters", IN_FIELD(fray_presidio_move_in, drummer)},
	{"crawling", IN_BOOL, .help = "crawling: a quarter", .rule = R3, IN_FIELD(fray_presidio_move_in, crawling)},
	{"kneel", IN_INT, 0, 4, .help = "changes to or from kneeling (1\" each)", .rule = R3, IN_FIELD(fray_presidio_move_in, kneel_changes)},
	{"prone", IN_INT, 0, 4, .help = "changes to or from prone (2\" each)", .rule = R3, IN_FIELD(fray_presidio_move_in, prone_changes)},
	{"barrier", IN_CHOICE, .choices = fray_presidio_barrier_names, .nchoices = 4,
	 .help = "a barrier crossed: light -2\" (-4\" mounted), medium x1/2, heavy x1/4", .rule = R3},
	{"before_barrier", IN_NUMBER, 0, 1000, .help = "inches moved before the barrier (split terrain)",
	 .rule = R3, .unit = "inches", IN_FIELD(fray_presidio_move_in, before_barrier)},
	{"skill", IN_INT, -5, 10, .help = "the Move skill, added to the roll (default: the unit's, or 0)",
	 .rule = "Presidio Section 1, Move skill"},
	{"units", IN_FILE, .help = "unit statistics (examples/presidio/units.yaml)", .rule = "Presidio Section 1, G4"},
	{"unit", IN_STRING, .help = "the unit's type in the units file (its Move skill; mounted moves as mounted)",
	 .rule = "Presidio Section 1, G4"},
	{"road_column", IN_BOOL, .help = "a column on a road: +3\"", .rule = "Presidio Section 3, Formations, Column",
	 .excludes = (const char *const[]){"line", NULL}, .why_excluded = "a unit is in column or in line, not both",
	 IN_FIELD(fray_presidio_move_in, road_column)},
	{"turns", IN_INT, 0, 4, .help = "right, left or about faces before or after moving (2\" each; none in a road column)",
	 .rule = "Presidio Section 3, Formation Maneuvers, Turning", IN_FIELD(fray_presidio_move_in, turns)},
	{"firing", IN_BOOL, .help = "fires while moving (light and skirmish units): 1\" walking, 2\" running, before doubling",
	 .rule = "Presidio Section 4, Fire while Moving", IN_FIELD(fray_presidio_move_in, firing)},
	{"reloading", IN_INT, 0, 2, .help = "actions of reloading while moving (2\" each, before doubling; light "
	 "infantry and skirmishers only)", .rule = "Presidio Section 4, Reloading While Moving", IN_FIELD(fray_presidio_move_in, reloading)},
	{"disordered", IN_BOOL, .help = "disordered: a light or skirmish unit (--designation) moves at half",
	 .rule = "Presidio Section 3, Disorder", .excludes = (const char *const[]){"line", NULL},
	 .why_excluded = "a disordered unit is in a clump, not in line; line units reform before moving (Presidio "
			 "Section 3, Disorder)", IN_FIELD(fray_presidio_move_in, disordered)},
	{"designation", IN_CHOICE, .choices = fray_presidio_designation_names, .nchoices = 3,
	 .help = "light infantry, skirmishers or other: disorder halves the first two; only they reload moving",
	 .rule = "Presidio Section 3, Disorder; Section 4, Reloading While Moving", IN_FIELD(fray_presidio_move_in, designation)},
};
static const out_desc move_out[] = {{"inches", "number", "the distance moved"}};

static void fmt_move(const fray_call *c, const int64_t *o, fray_format form, textbuf *t)
{
	(void)c;
	text_add(t, form == FRAY_FORMAT_JSON ? "\"inches\": %g" : "%g\"", (double)o[0] / 4);
}

/* The inputs of turning, firing and reloading while moving and of
 * disorder: what the text allows (Sections 3 and 4), else refused. */
static fray_status bind_move_extras(fray_call *c, fray_presidio_move_in *in)
{
	if (in->firing && in->charging)
		return frayi_call_bad(c,
				"%s and %s: a unit that shoots while charging is only moving into contact, with no "
				"charge impact (Presidio Section 4, Fire while Moving): give %s instead",
				frayi_call_opt(c, MV_FIRING), frayi_call_opt(c, MV_CHARGING),
						frayi_call_opt(c, MV_RUNNING));
	if (in->reloading && in->designation == FRAY_PRESIDIO_OTHER_UNIT)
		return frayi_call_bad(c,
				"%s: only light infantry and skirmishers reload while moving (Presidio Section 4, "
				"Reloading While Moving): give %s light or skirmish", frayi_call_opt(c, MV_RELOADING),
				frayi_call_opt(c, MV_DESIGNATION));
	if (in->reloading && in->line)
		return frayi_call_bad(c,
				"%s and %s: line units cannot reload while moving (Presidio Section 4, Reloading "
				"While Moving)", frayi_call_opt(c, MV_RELOADING), frayi_call_opt(c, MV_LINE));
	int actions = in->running || in->charging ? 2 : 1;
	if (in->reloading > actions)
		return frayi_call_bad(c, "%s %d: a unit moving %d action%s reloads during %d at most",
				frayi_call_opt(c, MV_RELOADING),
				in->reloading, actions, actions == 1 ? "" : "s", actions);
	return FRAY_OK;
}

static fray_status bind_move(fray_call *c)
{
	static const size_t unit_k[1] = {MV_UNIT};
	fray_presidio_unit_type ut;
	fray_status st = frayi_call_presidio_units(c, MV_UNITS, 1, unit_k, &ut);
	if (st != FRAY_OK)
		return st;
	size_t mover = (size_t)val_i(c, MV_AS), barrier = (size_t)val_i(c, MV_BARRIER);
	/* a unit the file says is mounted moves at the mounted rate */
	if (val_given(c, MV_UNIT) && ut.mounted && !val_given(c, MV_AS))
		mover = FRAY_PRESIDIO_MOUNTED;
	if (mover == FRAY_PRESIDIO_MOUNTED && barrier >= FRAY_PRESIDIO_MEDIUM_BARRIER)
		return frayi_call_bad(c,
				"medium and heavy barriers are impassable to horses and wagons (Presidio Section 3)");
	fray_presidio_move_in *in = CALL_INPUT(c, fray_presidio_move_in);
	/* the mover, the barrier and the skill: derived from the unit file */
	in->mover = (fray_presidio_mover)mover;
	in->barrier = (fray_presidio_barrier)barrier;
	in->skill = val_given(c, MV_SKILL) ? (int)val_i(c, MV_SKILL) : ut.move;
	st = bind_move_extras(c, in);
	if (st != FRAY_OK)
		return st;
	if (fray_presidio_move_refused(in))
		return frayi_call_bad(c, "%s", fray_presidio_move_refused(in));
	frayi_call_title(c, "move: %s%s%s%s%s, move skill %d, barrier %s", fray_presidio_mover_names[mover],
		   in->running ? ", two actions" : "", in->charging ? ", charging" : "", in->line ? ", in line" : "",
		   in->disordered ? ", disordered" : "", in->skill, fray_presidio_barrier_names[barrier]);
	/* the echo says the mover and skill used (from the unit file) */
	textbuf t = text_on(c->inputs_json, sizeof c->inputs_json);
	text_add(&t, "{\"as\": \"%s\", \"running\": %s, \"charging\": %s, \"line\": %s, \"drummer\": %s, "
		     "\"crawling\": %s, \"kneel\": %d, \"prone\": %d, \"skill\": %d, \"barrier\": \"%s\", "
		     "\"before_barrier\": %g, \"turns\": %d, \"firing\": %s, \"reloading\": %d, \"disordered\": %s, "
		     "\"designation\": \"%s\"}",
		 fray_presidio_mover_names[mover], in->running ? "true" : "false", in->charging ? "true" : "false",
		 in->line ? "true" : "false", in->drummer ? "true" : "false", in->crawling ? "true" : "false",
		 in->kneel_changes, in->prone_changes, in->skill, fray_presidio_barrier_names[barrier],
		 in->before_barrier, in->turns, in->firing ? "true" : "false", in->reloading,
		 in->disordered ? "true" : "false", fray_presidio_designation_names[in->designation]);
	call_run(c, fray_presidio_move_procedure, 1, fmt_move);
	return FRAY_OK;
}

static const proc_desc frayi_presidio_move_desc = {
	"presidio.move", "presidio move", "how far a unit moves", "Presidio Section 3, Movement",
	"1D6 plus the allowance plus the Move skill; two actions (running, galloping)\n"
	"double it, and so does charging (running speed); line formation halves it\n"
	"except when charging (a drummer adds 1\" to a unit in line, after halving);\n"
	"kneeling and prone cost 1\" and 2\"; light barriers 2\" (4\" mounted); medium\n"
	"and heavy barriers halve and quarter what is left after the inches before\n"
	"the barrier (split terrain); crawling quarters it. Firing while moving\n"
	"costs 1\" walking, 2\" running, and reloading 2\" an action, before\n"
	"doubling; turning 2\" a face; a disordered light or skirmish unit moves\n"
	"at half. Never below 0.",
	move_in, MV_N, move_out, 1, FRAY_MODE_ROLL | FRAY_MODE_ODDS,
	"{\"as\": \"foot\", \"barrier\": \"medium\", \"before_barrier\": 2}", bind_move, NULL, NULL, false,
	/* the page */ .headline = {"inches", "each", "how far the unit moves"}, .generic = true, .no_sides = true};

/* This file's procedures, in the catalogue's order (list.c joins the files). */
const proc_desc *const frayi_presidio_move_procs[] = {
	&frayi_presidio_move_desc, NULL,
};
