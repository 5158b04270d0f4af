/* Presidio's raiding and campaign procedures in the catalogue (Sections 8,
 * 9, 11 and 12): each a few numbers and flags in, a table's result out. */
#include "catalog.h"

#define RULE8 "Presidio Section 8"

/* ---- camp ---- */

static const in_desc camp_in[] = {
	{"horses", IN_BOOL, .help = "the camp keeps horses (they graze in medium woods)", .rule = RULE8 ", Camp Setup",
	 .at = 0, .size = sizeof(bool), .ctype = CT_BOOL},
};
static const out_desc camp_out[] = {
	{"terrain", "string", "the camp's terrain"}, {"feature", "string", "another feature"},
	{"sentries", "string", "the sentries posted"}};

static void fmt_camp(const fray_call *c, const int64_t *o, fray_format form, textbuf *t)
{
	(void)c;
	const char *terrain = fray_presidio_camp_terrain[o[0] - 1], *feature = fray_presidio_camp_feature[o[1] - 1],
		   *sentries = fray_presidio_camp_sentries[o[2] - 1];
	text_add(t, form == FRAY_FORMAT_JSON ? "\"terrain\": \"%s\", \"feature\": \"%s\", \"sentries\": \"%s\"" : "%s, %s; sentries: %s",
		 terrain, feature, sentries);
}

static fray_status bind_camp(fray_call *c)
{
	frayi_call_title(c, "camp setup (Section 8)");
	call_run(c, fray_presidio_camp_procedure, 3, fmt_camp);
	return FRAY_OK;
}

static const proc_desc frayi_presidio_camp_desc = {
	"presidio.camp", "presidio camp", "a camp's terrain, features and sentries", RULE8 ", Camp Setup",
	"Camp Setup: terrain, other features, sentries (1d6 each).",
	camp_in, 1, camp_out, 3, FRAY_MODE_ROLL | FRAY_MODE_ODDS, "{\"horses\": true}", bind_camp, NULL, NULL, false,
	/* the page */ .headline = {"terrain", "each", "the camp's terrain"}, .generic = true, .no_sides = true};

/* ---- villagers ---- */

static const in_desc villagers_in[] = {
	{"villagers", IN_INT, 1, 200, .required = true, .help = "the villagers to place", .rule = RULE8,
	 .unit = "figures", .missing = "N", IN_INT_AT(0)},
	{"night", IN_BOOL, .help = "by night (95% in the houses)", .rule = RULE8 ", Villager Deployment", IN_INT_AT(1)},
};
static const out_desc villagers_out[] = {
	{"houses", "integer", "villagers in the houses", .before = "houses "},
	{"fields", "integer", "in the fields", .before = ", fields "},
	{"plaza", "integer", "in the plaza", .before = ", plaza "}};

static fray_status bind_villagers(fray_call *c)
{
	const int *in = CALL_INPUT(c, int);
	frayi_call_title(c, "villager deployment: %d, %s (guards: %d)", in[0], in[1] ? "night" : "day", in[1] ? 2 : 1);
	call_run(c, fray_presidio_villagers_procedure, 3, NULL);
	return FRAY_OK;
}

static const proc_desc frayi_presidio_villagers_desc = {
	"presidio.villagers", "presidio villagers", "where the villagers are", RULE8 ", Villager Deployment",
	"Villager Deployment: houses/fields/plaza 25/50/25% by day, 95/0/5% by night\n"
	"(counted as one binomial event per place: the same odds as a die each).",
	villagers_in, 2, villagers_out, 3, FRAY_MODE_ROLL | FRAY_MODE_ODDS, "{\"villagers\": 12}", bind_villagers, NULL, NULL, false,
	/* the page */ .headline = {"houses", "each", "villagers in their houses"}, .generic = true, .no_sides = true};

/* ---- sentry ---- */

enum { SEN_RECON, SEN_CAMOU, SEN_NIGHT, SEN_KNEELING, SEN_PRONE, SEN_PLATOON, SEN_COMPANY, SEN_MOON, SEN_N };
static const in_desc sentry_in[] = {
	{"recon", IN_INT, -5, 10, .label = "recon skill", .help = "the sentry's Recon skill", .rule = RULE8 ", Sentry Alertness",
	 IN_FIELD(fray_presidio_sentry_in, recon)},
	{"camou", IN_INT, -5, 10, .label = "camouflage skill", .help = "the attackers' Camou skill", .rule = RULE8 ", Sentry Alertness",
	 IN_FIELD(fray_presidio_sentry_in, camou)},
	{"night", IN_BOOL, .help = "by night: discovered on 5+, not 3+", .rule = RULE8 ", Sentry Alertness",
	 IN_FIELD(fray_presidio_sentry_in, night)},
	{"kneeling", IN_BOOL, .help = "the attackers creep kneeling (-1)", .rule = RULE8 ", Sentry DM",
	 .excludes = (const char *const[]){"prone", NULL}, .why_excluded = "the attackers are one or the other"},
	{"prone", IN_BOOL, .help = "the attackers crawl prone (-2)", .rule = RULE8 ", Sentry DM"},
	{"platoon", IN_BOOL, .help = "the attackers are a platoon (+1)", .rule = RULE8 ", Sentry DM",
	 .excludes = (const char *const[]){"company", NULL}, .why_excluded = "the attackers are one or the other"},
	{"company", IN_BOOL, .help = "the attackers are a company (+2)", .rule = RULE8 ", Sentry DM"},
	{"moon", IN_INT, 1, 6, .help = "by night: the Nighttime Visibility row's die (1 full moon .. 5-6 no moon): "
	 "its Search DM goes on the discovery die", .rule = RULE8 ", Nighttime Visibility"},
};
static const out_desc sentry_out[] = {
	{"sentry", "string", "sleeping, daydreaming or alert"}, {"discovered", "boolean", "the attackers are seen"}};

static void fmt_sentry(const fray_call *c, const int64_t *o, fray_format form, textbuf *t)
{
	(void)c;
	static const char *const cond[3] = {"sleeping", "daydreaming", "alert"};
	if (form == FRAY_FORMAT_JSON)
		text_add(t, "\"sentry\": \"%s\", \"discovered\": %s", cond[o[0]], o[1] ? "true" : "false");
	else
		text_add(t, "%s sentry, %s", cond[o[0]], o[1] ? "discovered" : "not discovered");
}

static fray_status bind_sentry(fray_call *c)
{
	if (val_given(c, SEN_MOON) && !val_b(c, SEN_NIGHT))
		return frayi_call_bad(c, "%s is for %s (the moon by night)", frayi_call_opt(c, SEN_MOON),
				frayi_call_opt(c, SEN_NIGHT));
	fray_presidio_sentry_in *in = CALL_INPUT(c, fray_presidio_sentry_in);
	in->posture = val_b(c, SEN_PRONE) ? 2 : val_b(c, SEN_KNEELING) ? 1 : 0;
	in->size = val_b(c, SEN_COMPANY) ? FRAY_PRESIDIO_COMPANY : val_b(c, SEN_PLATOON) ? FRAY_PRESIDIO_PLATOON
											  : FRAY_PRESIDIO_SQUAD;
	if (val_given(c, SEN_MOON)) {
		int moon = (int)val_i(c, SEN_MOON);
		in->night_dm = fray_presidio_night_rows[moon >= 5 ? 4 : moon - 1].search_dm;
	}
	frayi_call_title(c, "sentry: recon %d against camou %d, %s", in->recon, in->camou, in->night ? "night" : "day");
	call_run(c, fray_presidio_sentry_procedure, 2, fmt_sentry);
	return FRAY_OK;
}

static const proc_desc frayi_presidio_sentry_desc = {
	"presidio.sentry", "presidio sentry", "is the sentry awake, and does it see them", RULE8 ", Sentry Alertness",
	"Sentry Alertness: the condition (1d6), then 1d6 - Camou + Recon + DMs: 3+ by\n"
	"day, 5+ by night, the moon's Search DM on the die (--moon).",
	sentry_in, SEN_N, sentry_out, 2, FRAY_MODE_ROLL | FRAY_MODE_ODDS, "{\"recon\": 1, \"camou\": 2, \"night\": true}",
	bind_sentry, NULL, NULL, false,
	/* the page */ .headline = {"discovered", "== true", "the raiders are discovered"}, .generic = true, .no_sides = true};

/* ---- capture ---- */

static const char *const animal_list =
	"horses, mules, cattle, donkeys, sheep, pigs, dogs, buffalo, chickens";

enum { CAP_SKILL, CAP_DEFENDER, CAP_ANIMAL };
static const in_desc capture_in[] = {
	{"skill", IN_INT, -5, 10, .help = "the raider's melee skill", .rule = RULE8 ", Capture", IN_INT_AT(0)},
	{"defender_skill", IN_INT, -5, 10, .help = "the defender's melee skill", .rule = RULE8 ", Capture", IN_INT_AT(1),
	 .excludes = (const char *const[]){"animal", NULL}, .why_excluded = "the animal's melee is the defender's skill"},
	{"animal", IN_STRING, .help = "a beast, whose melee is the defender's skill (horses, cattle, ...)",
	 .rule = RULE8 ", Livestock"},
};
static const out_desc capture_out[] = {
	{"captured", "boolean", "the raider captures it", .yes = "captured", .no = "not captured"}};

static fray_status bind_capture(fray_call *c)
{
	int *in = CALL_INPUT(c, int);
	if (val_given(c, CAP_ANIMAL)) {
		const fray_presidio_animal *an = fray_presidio_animal_find(val_s(c, CAP_ANIMAL));
		if (!an)
			return frayi_call_bad(c, "unknown animal '%.200s' (%s)", val_s(c, CAP_ANIMAL), animal_list);
		in[1] = an->melee;
	}
	frayi_call_title(c, "capture: fists 8+ - %d + %d", in[0], in[1]);
	/* the echo says the skills fought with: an animal's is its melee */
	textbuf t = text_on(c->inputs_json, sizeof c->inputs_json);
	text_add(&t, "{\"skill\": %d, \"defender_skill\": %d}", in[0], in[1]);
	call_run(c, fray_presidio_capture_procedure, 1, NULL);
	return FRAY_OK;
}

static const proc_desc frayi_presidio_capture_desc = {
	"presidio.capture", "presidio capture", "a capture with fists: no wound", RULE8 ", Capturing",
	"Fists 8+, less the raider's melee skill, plus the defender's; no wound.",
	capture_in, 3, capture_out, 1, FRAY_MODE_ROLL | FRAY_MODE_ODDS, "{\"skill\": 2, \"animal\": \"horses\"}",
	bind_capture, NULL, NULL, false,
	/* the page */ .headline = {"captured", "== true", "the animal is captured"},
	.sides = (const side_pair[]){{"skill", "defender_skill"}, {NULL, NULL}}, .generic = true};

/* ---- ram (stampede) ---- */

enum { RAM_ANIMAL, RAM_FIGURES, RAM_ARMOR };
static const in_desc ram_in[] = {
	{"animal", IN_STRING, .required = true, .help = "the stampeding animals (horses, cattle, ...)",
	 .rule = RULE8 ", Livestock",
	 .missing = "NAME (horses, mules, cattle, donkeys, sheep, pigs, dogs, buffalo, chickens)"},
	{"figures", IN_INT, 1, 200, .required = true, .help = "figures on foot in the path", .rule = RULE8 ", Ramming",
	 .unit = "figures", .missing = "N", IN_INT_AT(0)},
	{"armor", IN_INT, -5, 20, .help = "their armor", .rule = "Presidio Section 6, Wounding", IN_INT_AT(2)},
};
static const out_desc ram_out[] = {{"casualties", "integer", "figures rammed down"}};

static void fmt_casualties(const fray_call *c, const int64_t *o, fray_format form, textbuf *t)
{
	(void)c;
	text_add(t, form == FRAY_FORMAT_JSON ? "\"casualties\": %lld" : "%lld casualt%s", (long long)o[0], o[0] == 1 ? "y" : "ies");
}

static fray_status bind_ram(fray_call *c)
{
	const fray_presidio_animal *an = fray_presidio_animal_find(val_s(c, RAM_ANIMAL));
	if (!an)
		return frayi_call_bad(c, "unknown animal '%.200s' (%s)", val_s(c, RAM_ANIMAL), animal_list);
	int *in = CALL_INPUT(c, int);
	in[1] = an->ramming;
	frayi_call_title(c, "ramming: stampeding %s (%d) on %d figures, armor %d", an->name, an->ramming, in[0], in[2]);
	/* the echo names the animal as the table does */
	textbuf t = text_on(c->inputs_json, sizeof c->inputs_json);
	text_add(&t, "{\"animal\": \"%s\", \"figures\": %d, \"armor\": %d}", an->name, in[0], in[2]);
	call_run(c, fray_presidio_ramming_procedure, 1, fmt_casualties);
	return FRAY_OK;
}

static const proc_desc frayi_presidio_ram_desc = {
	"presidio.ram", "presidio ram", "a stampede rams the figures in its path", RULE8 ", Ramming",
	"Each figure on foot in the path: the animal's ramming damage against its\n"
	"armor on the damage chart.",
	ram_in, 3, ram_out, 1, FRAY_MODE_ROLL | FRAY_MODE_ODDS, "{\"animal\": \"cattle\", \"figures\": 4}", bind_ram, NULL, NULL, false,
	/* the page */ .headline = {"casualties", ">= 1", "at least one figure rammed down"},
	.also = "presidio stampede", .generic = true, .no_sides = true};

/* ---- livestock return ---- */

static const in_desc livestock_in[] = {
	{"animals", IN_INT, 1, 500, .required = true, .help = "animals lost", .rule = RULE8 ", Lost Livestock",
	 .missing = "N", IN_INT_AT(0)},
	{"search", IN_BOOL, .help = "an active search party", .rule = RULE8 ", Lost Livestock", IN_INT_AT(1)},
};
static const out_desc livestock_out[] = {
	{"returned", "integer", "back on their own or rounded up", .before = "returned "},
	{"enemy", "integer", "taken by the enemy", .before = ", enemy "},
	{"lost", "integer", "lost for good", .before = ", lost "}};

static fray_status bind_livestock(fray_call *c)
{
	const int *in = CALL_INPUT(c, int);
	frayi_call_title(c, "lost livestock: %d, %s", in[0], in[1] ? "active search" : "no search party");
	call_run(c, fray_presidio_livestock_return_procedure, 3, NULL);
	return FRAY_OK;
}

static const proc_desc frayi_presidio_livestock_desc = {
	"presidio.livestock_return", "presidio livestock-return", "what becomes of lost livestock",
	RULE8 ", Lost Livestock",
	"Lost Livestock: 1d6 an animal: back on 1-3 (1-4 searching), the enemy's on\n"
	"4-5 (5), lost on 6.",
	livestock_in, 2, livestock_out, 3, FRAY_MODE_ROLL | FRAY_MODE_ODDS, "{\"animals\": 12, \"search\": true}",
	bind_livestock, NULL, NULL, false,
	/* the page */ .headline = {"returned", "each", "animals that come back"}, .generic = true, .no_sides = true};

/* ---- contact time ---- */

static const in_desc contact_in[] = {
	{"moved", IN_INT, 1, 3, .help = "the table's row: hexes moved (1 by road; 2 by road or 1 in fields; ...)",
	 .rule = "Presidio Section 11, Time of Contact", .excludes = (const char *const[]){"large_map", NULL},
	 .why_excluded = "a large map rolls a D12 over the whole table"},
	{"large_map", IN_BOOL, .help = "a strategic map of a large area: a D12 over the whole table",
	 .rule = "Presidio Section 11, Time of Contact"},
};
static const out_desc contact_out[] = {{"hour", "integer", "the hour, 24-hour clock", .after = ":00"}};

static fray_status bind_contact(fray_call *c)
{
	bool large = val_b(c, 1);
	if (!val_given(c, 0) && !large)
		return frayi_call_bad(c, "missing %s 1|2|3 (the row of the Time of Contact table), or %s",
				frayi_call_opt(c, 0),
				frayi_call_opt(c, 1));
	int *in = CALL_INPUT(c, int);
	in[0] = large ? 0 : (int)val_i(c, 0) - 1;
	in[1] = large;
	if (large)
		frayi_call_title(c, "time of contact, a large map (D12)");
	else
		frayi_call_title(c, "time of contact, row %d", in[0] + 1);
	/* the echo says the row rolled on (0: the large map's D12) */
	textbuf t = text_on(c->inputs_json, sizeof c->inputs_json);
	text_add(&t, "{\"moved\": %d, \"large_map\": %s}", large ? 0 : in[0] + 1, large ? "true" : "false");
	call_run(c, fray_presidio_contact_time_procedure, 1, NULL);
	return FRAY_OK;
}

static const proc_desc frayi_presidio_contact_desc = {
	"presidio.contact_time", "presidio contact-time", "the hour a campaign contact happens",
	"Presidio Section 11, Time of Contact",
	"Time of Contact (1D4): row 1 moved 1 hex by road; 2: 2 by road or 1 in\n"
	"fields; 3: 3 by road, 2 in fields or 1 in woods. On a strategic map of a\n"
	"large area a D12 instead, over the whole table: 8 a.m. to 7 p.m.",
	contact_in, 2, contact_out, 1, FRAY_MODE_ROLL | FRAY_MODE_ODDS, "{\"moved\": 2}", bind_contact, NULL, NULL, false,
	/* the page */ .headline = {"hour", "each", "the hour of contact"}, .generic = true, .no_sides = true};

/* ---- entrance ---- */

static const in_desc entrance_in[] = {
	{"points", IN_INT, 2, 6, .required = true, .help = "the map's entrance points, numbered 1 to N",
	 .rule = "Presidio Section 12, Strategic Turn",
	 .missing = "N: the map's entrance points, 2 to 6 (the text's minimum is 2)", IN_INT_AT(0)},
};
static const out_desc entrance_out[] = {{"point", "integer", "the entrance point", .before = "entrance point "}};

static fray_status bind_entrance(fray_call *c)
{
	const int *points = CALL_INPUT(c, int);
	frayi_call_title(c, "entrance point, 1D6 among %d points", *points);
	call_run(c, fray_presidio_entrance_procedure, 1, NULL);
	return FRAY_OK;
}

static const proc_desc frayi_presidio_entrance_desc = {
	"presidio.entrance", "presidio entrance", "the entrance point of the strategic turn",
	"Presidio Section 12, Strategic Turn",
	"1D6 decides the entrance point onto a map (2 points at least). Number the\n"
	"map's points 1 to N (2 to 6); a face above N is rolled again, so each point\n"
	"has 1 chance in N.",
	entrance_in, 1, entrance_out, 1, FRAY_MODE_ROLL | FRAY_MODE_ODDS, "{\"points\": 4}", bind_entrance, NULL, NULL, false,
	/* the page */ .headline = {"point", "each", "the entrance point"}, .generic = true, .no_sides = true};

/* ---- a day's travel in a pursuit ---- */

static const char *const leagues_columns[] = {"pursuers", "fugitives"};
static const in_desc leagues_in[] = {
	{"column", IN_CHOICE, .choices = leagues_columns, .nchoices = 2,
	 .help = "the table's column: pursuers (and raiders their first three days) or fugitives",
	 .rule = RULE8 ", Campaign Pursuit", IN_FIELD(fray_presidio_leagues_in, fugitives)},
	{"mounted", IN_BOOL, .help = "a mounted party (+1)", .rule = RULE8 ", Campaign Pursuit",
	 IN_FIELD(fray_presidio_leagues_in, mounted)},
};
static const out_desc leagues_out[] = {{"leagues", "integer", "leagues travelled that day", .after = " leagues"},
				       {"resting", "boolean", "the fugitives rest", .before = "", .yes = " (rest)",
					.no = ""}};

static fray_status bind_leagues(fray_call *c)
{
	const fray_presidio_leagues_in *in = CALL_INPUT(c, fray_presidio_leagues_in);
	frayi_call_title(c, "a day's travel: 2D6%s on the %s column", in->mounted ? " +1 (mounted)" : "",
			 in->fugitives ? "fugitives'" : "pursuers'");
	call_run(c, fray_presidio_leagues_procedure, 2, NULL);
	return FRAY_OK;
}

static const proc_desc frayi_presidio_leagues_desc = {
	"presidio.leagues", "presidio leagues", "a party's day of travel in a pursuit", RULE8 ", Campaign Pursuit",
	"2D6, +1 for a mounted party, on the Distance in Leagues table (about three\n"
	"miles a league): the pursuers' column 1 to 10 leagues, 15 on a 12; the\n"
	"fugitives' rest on 2-4, 1 to 7 leagues, 12 on a 12.",
	leagues_in, 2, leagues_out, 2, FRAY_MODE_ROLL | FRAY_MODE_ODDS, "{\"column\": \"fugitives\", \"mounted\": true}",
	bind_leagues, NULL, NULL, false, .headline = {"leagues", "each", "leagues travelled"}, .generic = true,
	.no_sides = true};

/* ---- a day's tracking in a pursuit ---- */

static const in_desc tracking_in[] = {
	{"recon", IN_INT, -5, 10, .label = "recon skill", .help = "the pursuers' Recon skill (their scouts')",
	 .rule = RULE8 ", Campaign Pursuit, Tracking", IN_FIELD(fray_presidio_tracking_in, recon)},
	{"camou", IN_INT, -5, 10, .label = "camouflage skill", .help = "the raiders' Camou skill", .rule = RULE8 ", Campaign Pursuit, Tracking",
	 IN_FIELD(fray_presidio_tracking_in, camou)},
};
static const out_desc tracking_out[] = {{"found", "boolean", "the pursuers find the trail", .yes = "the trail is found",
					 .no = "the trail is lost: the pursuers wait a day"}};

static fray_status bind_tracking(fray_call *c)
{
	const fray_presidio_tracking_in *in = CALL_INPUT(c, fray_presidio_tracking_in);
	frayi_call_title(c, "tracking: 1d6 + recon %d against 1d6 + camou %d", in->recon, in->camou);
	call_run(c, fray_presidio_tracking_procedure, 1, NULL);
	return FRAY_OK;
}

static const proc_desc frayi_presidio_tracking_desc = {
	"presidio.tracking", "presidio tracking", "a day's tracking in a pursuit: is the trail found",
	RULE8 ", Campaign Pursuit, Tracking",
	"1d6 + the pursuers' Recon against 1d6 + the raiders' Camou, the trail found\n"
	"on equal or higher (fray's reading, as a search for a hidden unit); a lost\n"
	"trail costs the pursuers the day.",
	tracking_in, 2, tracking_out, 1, FRAY_MODE_ROLL | FRAY_MODE_ODDS, "{\"recon\": 2, \"camou\": 1}",
	bind_tracking, NULL, NULL, false, .headline = {"found", "== true", "the pursuers find the trail"},
	.generic = true, .no_sides = true};

/* ---- night ---- */

enum { N_MOON, N_WOODS, N_INTO, N_N };
static const in_desc night_in[] = {
	{"moon", IN_INT, 1, 6, .help = "the moon the scenario sets, as the table's die (1 full moon .. 5-6 no moon); "
	 "not given: rolled", .rule = RULE8 ", Nighttime Visibility", IN_FIELD(fray_presidio_night_in, moon)},
	{"woods", IN_CHOICE, .choices = fray_presidio_woods_names, .nchoices = 4,
	 .help = "looking in woods: light, medium or heavy (their own vision by day caps the night's)",
	 .rule = "Presidio Section 4, Woods; ruling R31", IN_FIELD(fray_presidio_night_in, woods)},
	{"into_woods", IN_BOOL, .help = "from outside the woods into them: half", .rule = "Presidio Section 4, Woods",
	 IN_FIELD(fray_presidio_night_in, into_woods)},
};
static const out_desc night_out[] = {
	{"moon", "string", "the night's moon"}, {"sight", "number", "how far one sees here, inches (ruling R31)"},
	{"open", "integer", "sight in the open, inches"}, {"woods", "integer", "the table's sight in the woods, inches"},
	{"search_dm", "integer", "the DM on a search roll"}};

static void fmt_night(const fray_call *c, const int64_t *o, fray_format form, textbuf *t)
{
	(void)c;
	const fray_presidio_night_row *n = &fray_presidio_night_rows[o[0]];
	text_add(t, form == FRAY_FORMAT_JSON ? "\"moon\": \"%s\", \"sight\": %g, \"open\": %d, \"woods\": %d, \"search_dm\": %d"
			 : "%s: sight %g\" here (%d\" in the open, %d\" in the woods), search %+d",
		 n->moon, (double)o[1] / 2, n->open, n->woods, n->search_dm);
}

static fray_status bind_night(fray_call *c)
{
	const fray_presidio_night_in *in = CALL_INPUT(c, fray_presidio_night_in);
	if (in->into_woods && in->woods == FRAY_PRESIDIO_NO_WOODS)
		return frayi_call_bad(c, "%s needs %s light|medium|heavy (the woods looked into)",
				      frayi_call_opt(c, N_INTO), frayi_call_opt(c, N_WOODS));
	frayi_call_title(c, "nighttime visibility (Sections 4 and 8, ruling R31)%s%s%s",
			 in->woods ? (in->into_woods ? ": into " : ": in ") : "",
			 in->woods ? fray_presidio_woods_names[in->woods] : "", in->woods ? " woods" : "");
	call_run(c, fray_presidio_night_sight_procedure, 2, fmt_night);
	return FRAY_OK;
}

static const proc_desc frayi_presidio_night_desc = {
	"presidio.night", "presidio night", "the moon: how far one sees", RULE8 ", Nighttime Visibility; ruling R31",
	"1d6 for the moon (or the scenario's, --moon), giving how far one sees in\n"
	"the open and in the woods and the DM on a search roll. Section 4's Night\n"
	"Vision is the same table (ruling R31); in woods the night's sight is never\n"
	"more than the woods' own (light 12\", medium 8\", heavy 4\"), and half of\n"
	"it from outside them.",
	night_in, N_N, night_out, 5, FRAY_MODE_ROLL | FRAY_MODE_ODDS, "{}", bind_night, NULL, NULL, false,
	/* the page */ .headline = {"moon", "each", "the moon"}, .generic = true, .no_sides = true};

/* ---- bounce ---- */

static const out_desc bounce_out[] = {
	{"first", "integer", "inches to the next landing", .before = "bounces ", .after = "\" on"},
	{"second", "integer", "inches to the one after", .before = ", then ", .after = "\" more"}};

static fray_status bind_bounce(fray_call *c)
{
	frayi_call_title(c, "a smoothbore's solid shot bounces (Section 9)");
	call_run(c, fray_presidio_bounce_procedure, 2, NULL);
	return FRAY_OK;
}

static const proc_desc frayi_presidio_bounce_desc = {
	"presidio.bounce", "presidio bounce", "where a solid shot bounces", "Presidio Section 9, Bouncing",
	"A smoothbore's solid shot that lands short of a target bounces on along its\n"
	"line: 1D6 + 6\" to the next landing, then 1D6\". Shots from rifled pieces\n"
	"bury themselves (unless on solid rock), and shells explode where they land:\n"
	"neither bounces.",
	NULL, 0, bounce_out, 2, FRAY_MODE_ROLL | FRAY_MODE_ODDS, "{}", bind_bounce, NULL, NULL, false,
	/* the page */ .headline = {"first", "each", "inches to the next landing"}, .generic = true, .no_sides = true};

/* ---- herd ---- */

static const in_desc herd_in[] = {
	{"beasts", IN_INT, 1, 10000, .required = true, .help = "the herd's size", .rule = RULE8 ", Stampeding Herds",
	 .unit = "animals", .missing = "N (the herd's size)", IN_INT_AT(0)},
	{"riders", IN_INT, 0, 1000, .help = "riders (herders on foot for sheep and pigs) with it",
	 .rule = RULE8 ", Stampeding Herds", IN_INT_AT(1)},
};
static const out_desc herd_out[] = {
	{"direction", "string", "controlled, or the way it stampedes"}, {"abreast", "integer", "beasts abreast"}};

static void fmt_herd(const fray_call *c, const int64_t *o, fray_format form, textbuf *t)
{
	(void)c;
	static const char *const dirs[7] = {"controlled", "N", "NE", "SE", "S", "SW", "NW"};
	if (form == FRAY_FORMAT_JSON)
		text_add(t, "\"direction\": \"%s\", \"abreast\": %lld", dirs[o[0]], (long long)o[1]);
	else
		text_add(t, "%s%s, %lld abreast", o[0] ? "stampedes " : "", dirs[o[0]], (long long)o[1]);
}

static fray_status bind_herd(fray_call *c)
{
	const int *in = CALL_INPUT(c, int);
	frayi_call_title(c, "a herd of %d, %d rider%s", in[0], in[1], in[1] == 1 ? "" : "s");
	call_run(c, fray_presidio_herd_procedure, 2, fmt_herd);
	return FRAY_OK;
}

static const proc_desc frayi_presidio_herd_desc = {
	"presidio.herd", "presidio herd", "does the herd stampede, and which way", RULE8 ", Stampeding Herds",
	"One rider for every ten beasts (herders on foot for sheep and pigs)\n"
	"controls it; otherwise it runs in a direction from the artillery scatter\n"
	"chart (1D6: N, NE, SE, S, SW, NW), at least a quarter of its number abreast.",
	herd_in, 2, herd_out, 2, FRAY_MODE_ROLL | FRAY_MODE_ODDS, "{\"beasts\": 40, \"riders\": 2}", bind_herd, NULL, NULL, false,
	/* the page */ .headline = {"direction", "each", "where the herd runs"}, .generic = true, .no_sides = true};

/* ---- campaign pursuit (Section 8), simulated ---- */

enum { PU_RECON, PU_CAMOU, PU_PURSUERS_MOUNTED, PU_RAIDERS_MOUNTED, PU_FORCED_MARCH };
static const in_desc pursuit_in[] = {
	{"recon", IN_INT, -5, 10, .label = "recon skill", .help = "the pursuers' Recon skill, tracking", .rule = RULE8 ", Campaign Pursuit", IN_FIELD(fray_presidio_pursuit_in, recon)},
	{"camou", IN_INT, -5, 10, .label = "camouflage skill", .help = "the raiders' Camou skill", .rule = RULE8 ", Campaign Pursuit", IN_FIELD(fray_presidio_pursuit_in, camou)},
	{"pursuers_mounted", IN_BOOL, .help = "the pursuers ride", .rule = RULE8 ", Distance in Leagues", IN_FIELD(fray_presidio_pursuit_in, pursuers_mounted)},
	{"raiders_mounted", IN_BOOL, .help = "the raiders ride", .rule = RULE8 ", Distance in Leagues", IN_FIELD(fray_presidio_pursuit_in, raiders_mounted)},
	{"forced_march", IN_BOOL, .help = "the pursuers force the march", .rule = RULE8 ", Campaign Pursuit", IN_FIELD(fray_presidio_pursuit_in, forced_march)},
};
static const out_desc pursuit_out[] = {{"caught_on_day", "integer", "the day the raiders are caught (0: not in 15 days)"}};

static void fmt_pursuit(const fray_call *c, const int64_t *o, fray_format form, textbuf *t)
{
	(void)c;
	if (form == FRAY_FORMAT_JSON)
		text_add(t, "\"caught_on_day\": %lld", (long long)o[0]);
	else if (o[0])
		text_add(t, "caught on day %lld", (long long)o[0]);
	else
		text_add(t, "not caught in 15 days");
}

/* The share caught in all, after the days. */
static void pursuit_summary(const fray_call *c, const fray_dist *d, fray_format form, strbuf *sb)
{
	(void)c;
	double caught = 0;
	for (size_t k = 0; k < fray_dist_count(d); k++)
		caught += fray_dist_outcome(d, k)[0] ? fray_dist_p(d, k) : 0;
	if (form == FRAY_FORMAT_JSON)
		frayi_sb_add(sb, ", \"caught\": %.6f", caught);
	else
		frayi_sb_add(sb, "\ncaught within 15 days: %.3f%%\n", 100 * caught);
}

static fray_status bind_pursuit(fray_call *c)
{
	const fray_presidio_pursuit_in *in = CALL_INPUT(c, fray_presidio_pursuit_in);
	frayi_call_title(c, "pursuit: recon %d against camou %d", in->recon, in->camou);
	call_run(c, fray_presidio_pursuit_procedure, 1, fmt_pursuit);
	return FRAY_OK;
}

static const proc_desc frayi_presidio_pursuit_desc = {
	"presidio.pursuit", "presidio pursuit", "will the raiders be caught: a pursuit day by day",
	RULE8 ", Campaign Pursuit",
	"Day by day for 15 days (the rations: 15 out, 15 back): tracking (1d6 +\n"
	"Recon against 1d6 + Camou; a lost trail costs the day), both parties travel\n"
	"on the Distance in Leagues columns (2D6), the raiders see the pursuers on a\n"
	"12 of theirs. Simulated: the share of pursuits ending on each day.",
	pursuit_in, 5, pursuit_out, 1, FRAY_MODE_SIMULATE, "{\"recon\": 2, \"camou\": 1, \"forced_march\": true}",
	bind_pursuit, pursuit_summary, NULL, false,
	/* the page */ .headline = {"caught_on_day", ">= 1", "the raiders are caught within 15 days"}, .generic = true, .no_sides = true};

/* This file's procedures, in the catalogue's order (list.c joins the files). */
const proc_desc *const frayi_presidio_raid_procs[] = {
	&frayi_presidio_camp_desc, &frayi_presidio_villagers_desc, &frayi_presidio_sentry_desc,
	&frayi_presidio_capture_desc, &frayi_presidio_ram_desc, &frayi_presidio_livestock_desc,
	&frayi_presidio_contact_desc, &frayi_presidio_entrance_desc, &frayi_presidio_night_desc,
	&frayi_presidio_bounce_desc, &frayi_presidio_herd_desc, &frayi_presidio_tracking_desc,
	&frayi_presidio_pursuit_desc, &frayi_presidio_leagues_desc, NULL,
};
