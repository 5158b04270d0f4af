/* Presidio's morale check in the catalogue (Section 7, rulings R16, R28). */
#include "catalog.h"

#define R7 "Presidio Section 7, Morale"

enum {
	M_LEVEL, M_SIZE, M_CASUALTIES, M_LEADER, M_CHARGING, M_CHARGED, M_INCIDENTAL, M_COVER, M_LINE,
	M_LEADER_CASUALTY, M_FELL_BACK, M_RETREATED, M_PANICKED, M_CHAPLAIN, M_FLAG, M_FIFER, M_HERO, M_SITUATION,
	M_NEAR_ENEMY, M_CHARGE_IMPACT, M_UNITS, M_UNIT, M_RANK, M_STANDING, M_NO_COMMANDERS, M_FIGURES, M_N
};
static const in_desc morale_in[] = {
	{"level", IN_CHOICE, .choices = fray_presidio_level_names, .nchoices = FRAY_PRESIDIO_NLEVELS, .def = -1,
	 .help = "the unit's morale level (or its --unit's)", .rule = R7 ", Morale Levels"},
	{"size", IN_CHOICE, .choices = fray_presidio_size_names, .nchoices = 4, .def = -1, .required = true,
	 .help = "the unit's size", .rule = R7, .missing = "team|squad|platoon|company", IN_FIELD(fray_presidio_morale_in, size)},
	{"casualties", IN_INT, 0, 100, .help = "casualties received", .rule = R7, .unit = "figures", IN_FIELD(fray_presidio_morale_in, casualties)},
	{"leader", IN_INT, 0, 4, .help = "the command bonus of a leader within 2\"", .rule = R7},
	{"charging", IN_BOOL, .help = "the unit is charging", .rule = R7,
	 .excludes = (const char *const[]){"charged", NULL}, .why_excluded = "a unit charges or is charged, not both", IN_FIELD(fray_presidio_morale_in, charging)},
	{"charged", IN_BOOL, .help = "the unit is charged (fear of charge)", .rule = "Presidio Section 5, Fear of Charge", IN_FIELD(fray_presidio_morale_in, charged)},
	{"incidental_cover", IN_BOOL, .help = "in incidental or friendly cover (one -1 with fifer and flag)",
	 .rule = R7 ", Cover or Morale", .alias = "friendly_cover", IN_FIELD(fray_presidio_morale_in, incidental_or_friendly_cover)},
	{"cover", IN_CHOICE, .choices = fray_presidio_cover_names, .nchoices = 6,
	 .help = "partial or heavy cover: its benefit off", .rule = R7},
	{"line", IN_BOOL, .help = "in line formation", .rule = R7, IN_FIELD(fray_presidio_morale_in, line)},
	{"leader_casualty", IN_BOOL, .help = "its leader became a casualty", .rule = R7, IN_FIELD(fray_presidio_morale_in, leader_casualty)},
	{"friends_fell_back", IN_INT, 0, 10, .help = "friendly units seen falling back within 12\"", .rule = R7, IN_FIELD(fray_presidio_morale_in, friends_fell_back)},
	{"friends_retreated", IN_INT, 0, 10, .help = "friendly units seen retreating within 12\"", .rule = R7, IN_FIELD(fray_presidio_morale_in, friends_retreated)},
	{"friends_panicked", IN_INT, 0, 10, .help = "friendly units seen panicking within 12\"", .rule = R7, IN_FIELD(fray_presidio_morale_in, friends_panicked)},
	{"chaplain", IN_BOOL, .help = "a chaplain or shaman with it (-1)", .rule = "Presidio Section 1, Special Characters",
	 .alias = "shaman", IN_FIELD(fray_presidio_morale_in, chaplain)},
	{"flag", IN_BOOL, .help = "a flag within 2\" (one -1 with cover and fifer)", .rule = R7 ", Cover or Morale", IN_FIELD(fray_presidio_morale_in, flag)},
	{"fifer", IN_BOOL, .help = "a fifer within 18\" (one -1 with cover and flag)", .rule = R7 ", Cover or Morale", IN_FIELD(fray_presidio_morale_in, fifer)},
	{"hero", IN_BOOL, .help = "a hero with it (-2)", .rule = "Presidio Section 1, Special Characters", IN_FIELD(fray_presidio_morale_in, hero)},
	{"situation", IN_CHOICE, .choices = fray_presidio_situation_names, .nchoices = 4, .def = -1,
	 .help = "what a failure means: open, cover, line or charging (default: from the options)", .rule = R7},
	{"near_enemy", IN_BOOL, .help = "within 4\" of the enemy or surrounded (a panic surrenders)",
	 .rule = R7 ", Surrender", IN_FIELD(fray_presidio_morale_in, near_enemy)},
	{"charge_impact", IN_BOOL, .help = "the check follows a charge's impact (a panic is a panic move)",
	 .rule = R7 ", Surrender", IN_FIELD(fray_presidio_morale_in, charge_impact)},
	{"units", IN_FILE, .help = "unit statistics (examples/presidio/units.yaml)", .rule = "Presidio Section 1, G4"},
	{"unit", IN_STRING, .help = "the unit's type in the units file", .rule = "Presidio Section 1, G4"},
	{"leader_rank", IN_STRING, .help = "the leader's rank, for its command skill", .rule = "Presidio Section 1, Rank"},
	{"standing", IN_CHOICE, .choices = fray_presidio_standing_names, .nchoices = FRAY_PRESIDIO_NSTANDINGS,
	 .help = "the unit's standing before the check: a milder result does not lift it", .rule = R7 ", Morale Roll Results", IN_FIELD(fray_presidio_morale_in, standing)},
	{"no_commanders", IN_BOOL, .help = "no commander left (leader, officers, NCOs all down) and one more casualty: "
	 "no die, it runs for it or surrenders", .rule = "Presidio Section 1, Officer Casualties",
	 IN_FIELD(fray_presidio_morale_in, no_commanders)},
	{"figures", IN_INT, 1, 1000, .help = "the unit's figures now: its size class if two 6s start it over",
	 .rule = R7 ", Morale Bonus", .unit = "figures", IN_FIELD(fray_presidio_morale_in, figures)},
};
static const out_desc morale_out[] = {
	{"success", "boolean", "the check passes"}, {"short_by", "integer", "how far short (0 on success)"},
	{"bonus", "boolean", "two 6s: the three bonuses"},
	{"standing", "string", "the unit's standing afterwards (good, disordered, ... surrendered)"},
	{"holds", "boolean", "the unit stays in place (charging: goes on)"},
	{"level_after", "string", "the level its next checks use (two 6s: one up)"},
	{"size_after", "string", "the size class its next checks use (two 6s: its figures now)"},
	{"casualties_after", "integer", "the casualties its next checks count (two 6s: 0, a new unit)"},
	{"result", "string", "the failure band's consequence"}};

static void fmt_morale(const fray_call *c, const int64_t *o, fray_format form, textbuf *t)
{
	const fray_presidio_morale_in *in = (const fray_presidio_morale_in *)c->input;
	if (form == FRAY_FORMAT_JSON) {
		char w[200];
		fray_json_string(fray_presidio_morale_result(in, (int)o[1]), w, sizeof w);
		text_add(t, "\"success\": %s, \"short_by\": %lld, \"bonus\": %s, \"standing\": \"%s\", \"holds\": %s, "
			 "\"result\": %s", o[0] ? "true" : "false", (long long)o[1], o[2] ? "true" : "false",
			 fray_presidio_standing_names[o[3]], o[4] ? "true" : "false", w);
		text_add(t, ", \"level_after\": \"%s\", \"size_after\": \"%s\", \"casualties_after\": %lld",
			 fray_presidio_level_names[o[5]], fray_presidio_size_names[o[6]], (long long)o[7]);
	} else if (in->no_commanders) {
		text_add(t, "%s (now %s)", fray_presidio_morale_result(in, 0), fray_presidio_standing_names[o[3]]);
	} else if (o[0]) {
		text_add(t, "%s", o[2] ? "success with the three bonuses (two 6s)" : "success");
		if (o[3] != FRAY_PRESIDIO_GOOD)
			text_add(t, " (still %s)", fray_presidio_standing_names[o[3]]);
		if (o[2])
			text_add(t, "; starts over as a new unit: %s %s, no casualties counted",
				 fray_presidio_level_names[o[5]], fray_presidio_size_names[o[6]]);
	} else {
		text_add(t, "short by %lld: %s (now %s)", (long long)o[1], fray_presidio_morale_result(in, (int)o[1]),
			 fray_presidio_standing_names[o[3]]);
	}
}

static fray_status bind_morale(fray_call *c)
{
	static const size_t unit_k[1] = {M_UNIT};
	fray_presidio_unit_type ut;
	fray_status st = frayi_call_presidio_units(c, M_UNITS, 1, unit_k, &ut);
	if (st != FRAY_OK)
		return st;
	int level = val_given(c, M_LEVEL) ? (int)val_i(c, M_LEVEL) : val_given(c, M_UNIT) ? ut.level : -1;
	int leader = (int)val_i(c, M_LEADER);
	if (val_given(c, M_RANK)) {
		if (leader)
			return frayi_call_bad(c, "give %s SKILL or %s NAME, not both", frayi_call_opt(c, M_LEADER),
					frayi_call_opt(c, M_RANK));
		if (!(leader = fray_presidio_command_skill(val_s(c, M_RANK))))
			return frayi_call_bad_at(c, M_RANK, "option %s: unknown rank '%.200s'", frayi_call_opt(c, M_RANK),
						 val_s(c, M_RANK));
	}
	if (level < 0)
		return frayi_call_bad(c,
				"missing %s elite|veteran|average|inexperienced or %s team|squad|platoon|company",
				frayi_call_opt(c, M_LEVEL), frayi_call_opt(c, M_SIZE));
	size_t cover = val_given(c, M_COVER) ? (size_t)val_i(c, M_COVER) : 0;
	/* complete cover: nothing reaches the unit (full cover, loopholes,
	 * has its benefit as partial and heavy do) */
	if (cover == FRAY_PRESIDIO_COMPLETE)
		return frayi_call_bad(c,
				"%s complete: a unit in complete cover cannot be hit, so no check follows a shot "
				"(give the cover it had)", frayi_call_opt(c, M_COVER));
	if (cover == FRAY_PRESIDIO_INCIDENTAL && val_b(c, M_INCIDENTAL))
		return frayi_call_bad(c, "%s incidental and %s are the same cover: give one",
				frayi_call_opt(c, M_COVER),
				frayi_call_opt(c, M_INCIDENTAL));
	fray_presidio_morale_in *in = CALL_INPUT(c, fray_presidio_morale_in);
	/* what the descriptor does not bind: derived from the unit, the rank, the cover */
	in->level = (fray_presidio_level)level;
	in->leader = leader;
	in->cover = (fray_presidio_cover)cover;
	if (in->standing == FRAY_PRESIDIO_DESTROYED)
		return frayi_call_bad(c, "%s destroyed: a destroyed unit checks no morale",
				frayi_call_opt(c, M_STANDING));
	in->situation = val_given(c, M_SITUATION) ? (fray_presidio_situation)val_i(c, M_SITUATION)
			: in->charging			? FRAY_PRESIDIO_CHARGING
			: in->line			? FRAY_PRESIDIO_LINE
			: cover >= FRAY_PRESIDIO_PARTIAL ? FRAY_PRESIDIO_IN_COVER
							 : FRAY_PRESIDIO_OPEN;
	int required = fray_presidio_morale_required(in);
	if (in->no_commanders) /* Section 1, Officer Casualties: no die */
		frayi_call_title(c, "morale: %s %s, no commanders left and one more casualty: no die",
				 fray_presidio_level_names[level], fray_presidio_size_names[in->size]);
	else
		frayi_call_title(c, "morale: %s %s, %d casualt%s, needs %d+ on d6! (+%d leader), %s",
			fray_presidio_level_names[level],
		   fray_presidio_size_names[in->size], in->casualties, in->casualties == 1 ? "y" : "ies", required,
		   in->leader, fray_presidio_situation_names[fray_presidio_morale_situation(in)]);
	/* the echo says the level, leader and situation used and the number required */
	textbuf t = text_on(c->inputs_json, sizeof c->inputs_json);
	text_add(&t,
		 "{\"level\": \"%s\", \"size\": \"%s\", \"casualties\": %d, \"leader\": %d, \"cover\": \"%s\", "
		 "\"incidental_cover\": %s, \"charging\": %s, \"charged\": %s, \"line\": %s, \"leader_casualty\": %s, "
		 "\"friends_fell_back\": %d, \"friends_retreated\": %d, \"friends_panicked\": %d, \"chaplain\": %s, "
		 "\"flag\": %s, \"fifer\": %s, \"hero\": %s, \"near_enemy\": %s, \"charge_impact\": %s, "
		 "\"required\": %d, \"situation\": \"%s\", \"standing\": \"%s\", \"no_commanders\": %s, "
		 "\"figures\": %d}",
		 fray_presidio_level_names[level], fray_presidio_size_names[in->size], in->casualties, in->leader,
		 fray_presidio_cover_names[cover], in->incidental_or_friendly_cover ? "true" : "false",
		 in->charging ? "true" : "false", in->charged ? "true" : "false", in->line ? "true" : "false",
		 in->leader_casualty ? "true" : "false", in->friends_fell_back, in->friends_retreated,
		 in->friends_panicked, in->chaplain ? "true" : "false", in->flag ? "true" : "false",
		 in->fifer ? "true" : "false", in->hero ? "true" : "false", in->near_enemy ? "true" : "false",
		 in->charge_impact ? "true" : "false", required,
		 fray_presidio_situation_names[fray_presidio_morale_situation(in)],
		 fray_presidio_standing_names[in->standing], in->no_commanders ? "true" : "false", in->figures);
	call_run(c, fray_presidio_morale_procedure, 8, fmt_morale);
	return FRAY_OK;
}

static const proc_desc frayi_presidio_morale_desc = {
	"presidio.morale", "presidio morale", "a unit's morale check", "Presidio Section 7, rulings R16, R28",
	"1d6, a 6 rolled again and added, plus the leader's bonus, against the\n"
	"required number; the failure band's result in words; two 6s succeed with\n"
	"the three bonuses (an elite unit becomes super-elite: base 4). A panic\n"
	"within 4\" of the enemy surrenders, but after a charge impact it is a panic\n"
	"move.",
	morale_in, M_N, morale_out, 9, FRAY_MODE_ROLL | FRAY_MODE_ODDS,
	/* needs 9 (veteran 6, +1 a casualty, charged +2, fifer -1), its
	 * leader +2: a first 6 passes, 1/6 (Section 7) */
	"{\"level\": \"veteran\", \"size\": \"platoon\", \"casualties\": 2, \"charged\": true, \"fifer\": true, "
	"\"leader\": 2}",
	bind_morale, NULL, NULL, false,
	/* the page */ .headline = {"success", "== true", "the unit passes"}, .words = "nerve panic rout fear charged", .generic = true, .no_sides = true};

/* This file's procedures, in the catalogue's order (list.c joins the files). */
const proc_desc *const frayi_presidio_morale_procs[] = {
	&frayi_presidio_morale_desc, NULL,
};
