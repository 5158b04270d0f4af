/* Presidio's shooting and melee in the catalogue (Sections 4, 5, 6 and
 * 10; rulings R11-R15, R27). */
#include <string.h>
#include "catalog.h"

#define R4 "Presidio Section 4"
#define R5 "Presidio Section 5"
#define G4 "Presidio Section 1, G4"


/* A value as given, else the unit type's (when a unit is named), else 0. */
static int stat_or(const fray_call *c, size_t k, size_t unit_k, int stat)
{
	if (val_given(c, k))
		return (int)val_i(c, k);
	return val_given(c, unit_k) ? stat : 0;
}

/* A weapon of Section 10 by name, with a "did you mean"; a failure names
 * input k (the command line adds where the weapons are listed). */
static const fray_presidio_weapon *weapon_of(fray_call *c, size_t k, const char *prefix)
{
	const fray_presidio_weapon *near, *w = fray_presidio_weapon_find(val_s(c, k), &near);
	if (!w && near)
		frayi_call_bad_at(c, k, "%sunknown weapon '%.200s' (did you mean '%s'?)", prefix, val_s(c, k),
				  near->name);
	else if (!w)
		frayi_call_bad_at(c, k, "%sunknown weapon '%.200s'", prefix, val_s(c, k));
	return w;
}

/* The k-th weapon of Section 10 that fires (its Range not "--"), for the
 * page's picker; NULL past the last. */
static const char *firing_weapon(size_t k)
{
	for (size_t i = 0; i < fray_presidio_nweapons; i++)
		if (fray_presidio_weapons[i].range != FRAY_PRESIDIO_MELEE && k-- == 0)
			return fray_presidio_weapons[i].name;
	return NULL;
}

/* The k-th weapon that has a melee use (a melee weapon, or a gun's butt:
 * fray_presidio_melee_weapon); NULL past the last. */
static const char *melee_weapon_name(size_t k)
{
	for (size_t i = 0; i < fray_presidio_nweapons; i++)
		if (fray_presidio_melee_weapon(&fray_presidio_weapons[i]) && k-- == 0)
			return fray_presidio_weapons[i].name;
	return NULL;
}

/* ---- shoot ---- */

enum { S_WEAPON, S_FIGURES, S_RANGE, S_BAND, S_SKILL, S_MODE, S_LINE, S_COVER, S_INCIDENTAL, S_SKIRMISH,
       S_MOUNTED, S_EVADING, S_TAKING_COVER, S_DM, S_ARMOR, S_TARGET_FIGURES, S_SPECIALISTS, S_THROUGH,
       S_BEHIND, S_RELOADING, S_TARGET_RELOADING, S_UNITS, S_UNIT, S_TARGET_UNIT, S_LEADERS, S_FIRER_COVER,
       S_RELOAD_LEFT, S_AFTER_VOLLEY, S_TARGET_STANDING, S_TARGET_LEADER, S_VOLLEY_IF_ABLE, S_STANDING, S_DESIGNATION,
       S_TARGET_UNIT_FIGURES, S_ACTIONS, S_WEAPON2, S_FIGURES2, S_FILE, S_N };
static const in_desc shoot_in[] = {
	{"weapon", IN_STRING, .required = true, .help = "the firers' weapon (a weapon of Section 10)",
	 .rule = "Presidio Section 10, Small Arms", .missing = "NAME",
	 .suggest = firing_weapon},
	{"figures", IN_INT, -1000, 1000, .required = true, .help = "figures that can fire", .rule = R4,
	 .unit = "figures", .missing = "N (figures that can fire)", IN_FIELD(fray_presidio_shoot_in, figures)},
	{"range", IN_NUMBER, 0, 100000, .help = "the range: its band by the weapon's range class",
	 .rule = R4 ", Range; ruling R12", .unit = "inches", .expects = "inches from 0",
	 .excludes = (const char *const[]){"band", NULL}, .why_excluded = "a range picks the band: give one"},
	{"band", IN_CHOICE, .choices = fray_presidio_band_names, .nchoices = 3, .def = -1, .help = "the range band, instead of the range",
	 .rule = R4 ", Range"},
	{"skill", IN_INT, -5, 10, .help = "the firers' ranged skill (default: the unit's, or 0)", .rule = R4},
	{"mode", IN_CHOICE, .choices = fray_presidio_fire_mode_names, .nchoices = 5, .def = FRAY_PRESIDIO_INDEPENDENT,
	 .help = "independent fire, a volley, fire while moving, opportunity or aimed fire",
	 .rule = R4 ", rulings R14, R27", IN_FIELD(fray_presidio_shoot_in, mode)},
	{"line", IN_BOOL, .help = "a volley's conditions hold: fully loaded, in line at most two deep",
	 .rule = R4 ", Volley Fire; ruling R27", IN_FIELD(fray_presidio_shoot_in, volley_ready)},
	{"cover", IN_CHOICE, .choices = fray_presidio_cover_names, .nchoices = 6, .help = "the target's cover",
	 .rule = R4 ", Defensive Cover", IN_FIELD(fray_presidio_shoot_in, cover)},
	{"incidental", IN_BOOL, .help = "incidental cover on top of another (+1)", .rule = R4 ", Defensive Cover", IN_FIELD(fray_presidio_shoot_in, incidental)},
	{"skirmish_target", IN_BOOL, .help = "skirmishers or artillery crews (+2)", .rule = R4 ", Special Cover", IN_FIELD(fray_presidio_shoot_in, skirmish_target)},
	{"mounted_target", IN_BOOL, .help = "a mounted target (+1)", .rule = R4 ", Other Modifiers"},
	{"evading", IN_BOOL, .help = "the target evades (+1)", .rule = R4 ", Special Cover", IN_FIELD(fray_presidio_shoot_in, evading)},
	{"taking_cover", IN_BOOL, .help = "the target takes cover (+2)", .rule = R4 ", Special Cover", IN_FIELD(fray_presidio_shoot_in, taking_cover)},
	{"dm", IN_INT, -20, 20, .label = "other die modifier", .help = "any other DM", .rule = R4, IN_FIELD(fray_presidio_shoot_in, other_dm)},
	{"armor", IN_INT, -5, 20, .help = "the target's armor (default: the target unit's, or 0)",
	 .rule = "Presidio Section 6, Wounding; ruling R13"},
	{"target_figures", IN_INT, 1, 1000, .def = 10, .help = "the target's figures: casualties at most these, its casualty die",
	 .rule = "Presidio Section 6, Hits; ruling R15", .unit = "figures", IN_FIELD(fray_presidio_shoot_in, target_figures)},
	{"specialists", IN_INT, 0, 100, .help = "officers, NCOs, musicians, characters in the target",
	 .rule = "Presidio Section 6, Hits; ruling R15", IN_FIELD(fray_presidio_shoot_in, specialists)},
	{"through_fire", IN_BOOL, .help = "a unit within 12\" behind the target: 12s hit it",
	 .rule = "Presidio Section 6, Through-Fire", IN_FIELD(fray_presidio_shoot_in, through_fire)},
	{"units_behind", IN_INT, 1, 20, .def = 1, .help = "units behind (a die picks the one)",
	 .rule = "Presidio Section 6, Through-Fire", IN_FIELD(fray_presidio_shoot_in, units_behind)},
	{"reloading_in_cover", IN_BOOL, .help = "the firers reload taking more cover: half their figures fire",
	 .rule = R4 ", Reloading While Taking Additional Cover", IN_FIELD(fray_presidio_shoot_in, reloading_in_cover)},
	{"target_reloading_in_cover", IN_BOOL, .help = "the target does so: +1 cover",
	 .rule = R4 ", Reloading While Taking Additional Cover", IN_FIELD(fray_presidio_shoot_in, target_reloading_in_cover)},
	{"units", IN_FILE, .help = "unit statistics (examples/presidio/units.yaml)", .rule = G4},
	{"unit", IN_STRING, .help = "the firers' type in the units file", .rule = G4},
	{"target_unit", IN_STRING, .help = "the target's type in the units file (armor; mounted)", .rule = G4},
	{"leaders", IN_INT, 0, 100, .help = "officers and NCOs among the firers (a volley does not count them)",
	 .rule = R4 ", Volley Fire", IN_FIELD(fray_presidio_shoot_in, firer_leaders)},
	{"firer_cover", IN_CHOICE, .choices = fray_presidio_cover_names, .nchoices = 6,
	 .help = "the firers' own cover: partial, heavy or full is +1 firing back", .rule = R4 ", Defensive Cover", IN_FIELD(fray_presidio_shoot_in, firer_cover)},
	{"reload_left", IN_INT, 0, 20, .help = "reload actions the firers still have to do (0: fully loaded)",
	 .rule = R4 ", Reloading", IN_FIELD(fray_presidio_shoot_in, reload_left)},
	{"after_volley", IN_BOOL, .help = "that reload follows a volley: nothing is loaded until it is done",
	 .rule = R4 ", Volley Fire", IN_FIELD(fray_presidio_shoot_in, after_volley)},
	{"target_standing", IN_CHOICE, .choices = fray_presidio_standing_names, .nchoices = FRAY_PRESIDIO_NSTANDINGS,
	 .help = "the target's standing: hunkered down is complete cover", .rule = R4 ", Special Cover, Hunker Down", IN_FIELD(fray_presidio_shoot_in, target_standing)},
	{"target_leader", IN_BOOL, .help = "the target's leader is among its specialty figures (the first)",
	 .rule = "Presidio Section 6, Hits; Section 7, Leaders", IN_FIELD(fray_presidio_shoot_in, target_leader)},
	{"volley_if_able", IN_BOOL, .help = "with --mode volley: independent fire when the unit may not volley",
	 .rule = R5 ", Defensive Fire", IN_FIELD(fray_presidio_shoot_in, volley_if_able)},
	{"standing", IN_CHOICE, .choices = fray_presidio_standing_names, .nchoices = FRAY_PRESIDIO_NSTANDINGS,
	 .help = "the firers' standing: disordered is out of formation (no volley), panicked cannot fire",
	 .rule = R4 ", Volley Fire; Section 7", IN_FIELD(fray_presidio_shoot_in, firer_standing)},
	{"designation", IN_CHOICE, .choices = fray_presidio_designation_names, .nchoices = 3,
	 .help = "the firers' designation: light or skirmish units, disordered (--standing), shoot half (as move's)",
	 .rule = "Presidio Section 3, Disorder"},
	{"target_unit_figures", IN_INT, 1, 1000, .help = "the target unit's figures when the dice are rolled, for its "
	 "casualty die (default: --target-figures; two actions rolled together)",
	 .rule = "Presidio Section 4, Independent Fire; Section 6, Hits; ruling R15", .unit = "figures"},
	{"actions", IN_INT, 1, 2, .def = 1, .help = "2: two consecutive actions of independent fire, all their dice "
	 "rolled at once", .rule = R4 ", Independent Fire", IN_FIELD(fray_presidio_shoot_in, actions)},
	{"weapon_2", IN_STRING, .help = "the unit's second weapon type: rolled on its own, one morale check after both",
	 .rule = "Presidio Section 4, Weapon Types", .suggest = firing_weapon},
	{"figures_2", IN_INT, 1, 1000, .help = "figures with the second weapon type (--figures: those with --weapon)",
	 .rule = "Presidio Section 4, Weapon Types", .unit = "figures", IN_FIELD(fray_presidio_shoot_in, figures2)},
	{"file", IN_STRING, .help = "the target in column (one or two files to the firers): its figures front first, "
	 "L the leader, s another specialty figure, p a private; hits fall on those in front",
	 .rule = "Presidio Section 6, Units in Column"},
};
static const out_desc shoot_out[] = {
	{"hits", "integer", "figures hit"}, {"casualties", "integer", "figures wounded"},
	{"specialists_hit", "integer", "specialty figures among them"},
	{"rear_hits", "integer", "through-fire: hits on the unit behind"},
	{"rear_casualties", "integer", "through-fire: its casualties"}, {"rear_unit", "integer", "which unit behind"},
	{"leader_hit", "boolean", "the target's leader is among the casualties"},
	{"morale_check", "boolean", "the target checks morale: it took casualties and has figures left"}};

static void fmt_shoot(const fray_call *c, const int64_t *o, fray_format form, textbuf *t)
{
	const fray_presidio_shoot_in *in = (const fray_presidio_shoot_in *)c->input;
	if (form == FRAY_FORMAT_JSON) {
		text_add(t, "\"hits\": %lld, \"casualties\": %lld, \"specialists_hit\": %lld", (long long)o[0],
			 (long long)o[1], (long long)o[2]);
		if (in->through_fire)
			text_add(t, ", \"rear_hits\": %lld, \"rear_casualties\": %lld, \"rear_unit\": %lld",
				 (long long)o[3], (long long)o[4], (long long)o[5]);
		if (in->target_leader)
			text_add(t, ", \"leader_hit\": %s", o[6] ? "true" : "false");
		text_add(t, ", \"morale_check\": %s", o[7] ? "true" : "false");
		return;
	}
	text_add(t, "%lld hit%s, %lld casualt%s, %lld specialist%s", (long long)o[0], o[0] == 1 ? "" : "s",
		 (long long)o[1], o[1] == 1 ? "y" : "ies", (long long)o[2], o[2] == 1 ? "" : "s");
	if (in->through_fire)
		text_add(t, "; behind: %lld hit%s, %lld casualt%s", (long long)o[3], o[3] == 1 ? "" : "s",
			 (long long)o[4], o[4] == 1 ? "y" : "ies");
	if (in->through_fire && in->units_behind > 1 && o[3])
		text_add(t, " (unit %lld behind)", (long long)o[5]);
	if (in->target_leader && o[6])
		text_add(t, "; the leader is hit");
}

/* Section 4, Weapon Types: the unit's second weapon type, its figures and
 * its band (its own range class's, from the same range). */
static fray_status bind_weapon_types(fray_call *c, fray_presidio_shoot_in *in)
{
	if (val_given(c, S_WEAPON2) != val_given(c, S_FIGURES2))
		return frayi_call_bad(c, "give %s NAME and %s N together (the unit's second weapon type)",
				      frayi_call_opt(c, S_WEAPON2), frayi_call_opt(c, S_FIGURES2));
	if (!val_given(c, S_WEAPON2))
		return FRAY_OK;
	char prefix[48];
	snprintf(prefix, sizeof prefix, "option %s: ", frayi_call_opt(c, S_WEAPON2));
	if (!(in->weapon2 = weapon_of(c, S_WEAPON2, prefix)))
		return FRAY_ERR_INPUT;
	if (in->weapon2->range == FRAY_PRESIDIO_MELEE)
		return frayi_call_bad(c, "%s %s is a melee weapon: it does not shoot", frayi_call_opt(c, S_WEAPON2),
				      in->weapon2->name);
	if (in->through_fire && in->units_behind > 1)
		return frayi_call_bad(c, "%s with %s above 1: give each weapon type's shot at the units behind on its own",
				      frayi_call_opt(c, S_WEAPON2), frayi_call_opt(c, S_BEHIND));
	in->band2 = in->band;
	if (val_given(c, S_RANGE))
		return frayi_call_presidio_band(c, in->weapon2->range, val_x(c, S_RANGE), in->weapon2->name, "Section 4",
						&in->band2);
	return FRAY_OK;
}

/* Section 6, Units in Column: the target's file says its figures, its
 * specialty figures and its leader. */
static fray_status bind_file(fray_call *c, fray_presidio_shoot_in *in)
{
	if (!val_given(c, S_FILE))
		return FRAY_OK;
	const char *file = val_s(c, S_FILE), *why = fray_presidio_file_problem(file);
	if (why)
		return frayi_call_bad(c, "%s '%.100s': %s", frayi_call_opt(c, S_FILE), file, why);
	if (val_given(c, S_SPECIALISTS) || val_given(c, S_TARGET_LEADER))
		return frayi_call_bad(c, "%s says the specialty figures and the leader: give no %s or %s",
				      frayi_call_opt(c, S_FILE), frayi_call_opt(c, S_SPECIALISTS),
				      frayi_call_opt(c, S_TARGET_LEADER));
	int n = (int)strlen(file);
	if (val_given(c, S_TARGET_FIGURES) && val_i(c, S_TARGET_FIGURES) != n)
		return frayi_call_bad(c, "%s %lld, but %s has %d figures", frayi_call_opt(c, S_TARGET_FIGURES),
				      (long long)val_i(c, S_TARGET_FIGURES), frayi_call_opt(c, S_FILE), n);
	in->file = file;
	in->target_figures = n;
	in->specialists = 0;
	for (int k = 0; k < n; k++)
		in->specialists += file[k] != 'p';
	in->target_leader = strchr(file, 'L') != NULL;
	return FRAY_OK;
}

static fray_status bind_shoot(fray_call *c)
{
	fray_presidio_shoot_in *in = CALL_INPUT(c, fray_presidio_shoot_in);
	if (!(in->weapon = weapon_of(c, S_WEAPON, "")))
		return FRAY_ERR_INPUT;
	if (in->weapon->range == FRAY_PRESIDIO_MELEE)
		return frayi_call_bad(c, "%s is a melee weapon: it does not shoot", in->weapon->name);
	if (val_i(c, S_FIGURES) < 1)
		return frayi_call_bad(c, "%s expects a number of figures from 1, got %lld",
				frayi_call_opt(c, S_FIGURES),
				(long long)val_i(c, S_FIGURES));
	char range_words[64] = "";
	if (val_given(c, S_RANGE)) {
		double inches = val_x(c, S_RANGE);
		fray_status st = frayi_call_presidio_band(c, in->weapon->range, inches, in->weapon->name, "Section 4",
				&in->band);
		if (st != FRAY_OK)
			return st;
		snprintf(range_words, sizeof range_words, "%g\" ", inches);
		in->inches = inches;
	} else if (val_given(c, S_BAND)) {
		in->band = (int)val_i(c, S_BAND);
		in->inches = -1;
	} else {
		return frayi_call_bad(c, "missing %s INCHES or %s close|medium|long", frayi_call_opt(c, S_RANGE),
				frayi_call_opt(c, S_BAND));
	}
	fray_status st = bind_weapon_types(c, in);
	if (st == FRAY_OK)
		st = bind_file(c, in);
	if (st != FRAY_OK)
		return st;
	static const size_t unit_k[2] = {S_UNIT, S_TARGET_UNIT};
	fray_presidio_unit_type ut[2];
	st = frayi_call_presidio_units(c, S_UNITS, 2, unit_k, ut);
	if (st != FRAY_OK)
		return st;
	in->skill = stat_or(c, S_SKILL, S_UNIT, ut[0].ranged);
	/* R27: a volley only when asked, by a unit that may */
	if (val_b(c, S_VOLLEY_IF_ABLE) && in->mode != FRAY_PRESIDIO_VOLLEY)
		return frayi_call_bad(c, "%s is for %s volley", frayi_call_opt(c, S_VOLLEY_IF_ABLE),
				frayi_call_opt(c, S_MODE));
	if (in->volley_ready && in->mode != FRAY_PRESIDIO_VOLLEY)
		return frayi_call_bad(c, "%s is for %s volley (a unit fully loaded in line at most two deep)",
				frayi_call_opt(c, S_LINE),
				frayi_call_opt(c, S_MODE));
	if (val_given(c, S_BEHIND) && !in->through_fire)
		return frayi_call_bad(c, "%s is for %s (units within 12\" behind the target)",
				frayi_call_opt(c, S_BEHIND),
				frayi_call_opt(c, S_THROUGH));
	size_t cover = (size_t)val_i(c, S_COVER);
	if (in->incidental && cover == FRAY_PRESIDIO_INCIDENTAL)
		return frayi_call_bad(c,
				"%s with %s incidental: the same cover twice (%s adds incidental cover to another "
				"cover)", frayi_call_opt(c, S_INCIDENTAL), frayi_call_opt(c, S_COVER),
						frayi_call_opt(c, S_INCIDENTAL));
	if (in->reloading_in_cover && in->mode != FRAY_PRESIDIO_INDEPENDENT)
		return frayi_call_bad(c,
				"%s is for skirmishers firing independent fire, not moving (Section 4, Reloading "
				"While Taking Additional Cover)", frayi_call_opt(c, S_RELOADING));
	if (fray_presidio_act_refused(in->firer_standing, FRAY_PRESIDIO_ACT_SHOOT))
		return frayi_call_bad(c, "%s %s: %s", frayi_call_opt(c, S_STANDING),
				fray_presidio_standing_names[in->firer_standing],
				fray_presidio_act_refused(in->firer_standing, FRAY_PRESIDIO_ACT_SHOOT));
	if (fray_presidio_volley_refused(in) && !in->volley_if_able && !val_b(c, S_LINE))
		return frayi_call_bad(c, "%s volley: %s; say %s if the unit is so", frayi_call_opt(c, S_MODE),
				fray_presidio_volley_refused(in), frayi_call_opt(c, S_LINE));
	in->light = val_i(c, S_DESIGNATION) != FRAY_PRESIDIO_OTHER_UNIT;
	if (in->actions == 2 && fray_presidio_consecutive_refused(in->mode))
		return frayi_call_bad(c, "%s 2: %s", frayi_call_opt(c, S_ACTIONS),
				      fray_presidio_consecutive_refused(in->mode));
	if (fray_presidio_fire_state_refused(in))
		return frayi_call_bad(c, "the firers cannot fire: %s", fray_presidio_fire_state_refused(in));
	if (in->target_standing == FRAY_PRESIDIO_SURRENDERED || in->target_standing == FRAY_PRESIDIO_DESTROYED)
		return frayi_call_bad(c, "%s %s: the target is out of the fight", frayi_call_opt(c, S_TARGET_STANDING),
				fray_presidio_standing_names[in->target_standing]);
	/* a target the units file says is mounted: +1 (Other Modifiers) */
	in->mounted_target = val_b(c, S_MOUNTED) || (val_given(c, S_TARGET_UNIT) && ut[1].mounted);
	in->armor = stat_or(c, S_ARMOR, S_TARGET_UNIT, ut[1].armor);
	in->target_unit_figures = (int)val_i(c, S_TARGET_UNIT_FIGURES);
	/* the title names the fire the unit fires: a volley asked "if able"
	 * that the rules refuse is independent fire (Defensive Fire, R27) */
	fray_presidio_fire_mode fired = in->mode == FRAY_PRESIDIO_VOLLEY && !fray_presidio_fires_volley(in)
						? FRAY_PRESIDIO_INDEPENDENT
						: in->mode;
	frayi_call_title(c, "shoot: %d %s, %s%s range (%+d), skill %d, %s fire, cover: %s, armor %d", in->figures,
		   in->weapon->name, range_words, fray_presidio_band_names[in->band], fray_presidio_band_dm(in->band), in->skill,
		   fray_presidio_fire_mode_names[fired], fray_presidio_cover_names[cover], in->armor);
	char weapon[128], weapon2[128] = "";
	fray_json_string(in->weapon->name, weapon, sizeof weapon);
	if (in->weapon2)
		fray_json_string(in->weapon2->name, weapon2, sizeof weapon2);
	char file[1024] = "";
	if (in->file)
		fray_json_string(in->file, file, sizeof file);
	/* the echo says what the rules derive: the band, skill, armor, hit number, who fires */
	textbuf t = text_on(c->inputs_json, sizeof c->inputs_json);
	text_add(&t,
		 "{\"weapon\": %s, \"band\": \"%s\", \"skill\": %d, \"figures\": %d, \"mode\": \"%s\", \"line\": %s, "
		 "\"cover\": \"%s\", \"incidental\": %s, \"skirmish_target\": %s, \"mounted_target\": %s, "
		 "\"evading\": %s, \"taking_cover\": %s, \"dm\": %d, \"armor\": %d, \"hit_number\": %d, "
		 "\"target_figures\": %d, \"specialists\": %d, \"through_fire\": %s, \"units_behind\": %d, "
		 "\"reloading_in_cover\": %s, \"target_reloading_in_cover\": %s, \"leaders\": %d, "
		 "\"firer_cover\": \"%s\", \"reload_left\": %d, \"after_volley\": %s, \"target_standing\": \"%s\", "
		 "\"target_leader\": %s, \"volley_if_able\": %s, \"standing\": \"%s\", \"fires\": \"%s\", "
		 "\"reload_after\": %d, \"within_4\": %s, \"designation\": \"%s\"",
		 weapon, fray_presidio_band_names[in->band], in->skill, in->figures, fray_presidio_fire_mode_names[in->mode],
		 in->volley_ready ? "true" : "false", fray_presidio_cover_names[cover], in->incidental ? "true" : "false",
		 in->skirmish_target ? "true" : "false", in->mounted_target ? "true" : "false",
		 in->evading ? "true" : "false", in->taking_cover ? "true" : "false", in->other_dm, in->armor,
		 fray_presidio_hit_number(in), in->target_figures, in->specialists, in->through_fire ? "true" : "false",
		 in->units_behind, in->reloading_in_cover ? "true" : "false",
		 in->target_reloading_in_cover ? "true" : "false", in->firer_leaders,
		 fray_presidio_cover_names[in->firer_cover], in->reload_left, in->after_volley ? "true" : "false",
		 fray_presidio_standing_names[in->target_standing], in->target_leader ? "true" : "false",
		 in->volley_if_able ? "true" : "false", fray_presidio_standing_names[in->firer_standing],
		 fray_presidio_fires_volley(in) ? "a volley" : "independent fire", fray_presidio_reload_after(in),
		 fray_presidio_within_4(in->weapon->range, in->band, in->inches) ? "true" : "false",
		 fray_presidio_designation_names[val_i(c, S_DESIGNATION)]);
	if (in->weapon2)
		text_add(&t, ", \"weapon_2\": %s, \"figures_2\": %d, \"band_2\": \"%s\"", weapon2, in->figures2,
			 fray_presidio_band_names[in->band2]);
	if (in->file)
		text_add(&t, ", \"file\": %s", file);
	text_add(&t, "}");
	call_run(c, fray_presidio_shoot_procedure, 8, fmt_shoot);
	return FRAY_OK;
}

static const proc_desc frayi_presidio_shoot_desc = {
	"presidio.shoot", "presidio shoot", "a unit's small-arms fire", "Presidio Sections 4 and 6, rulings R11-R15, R27",
	"Hit number = Hit# + range DM - skill + cover and other DMs; one d12 per\n"
	"firing figure (independent fire, the default: figures / reload; a volley\n"
	"only by a unit fully loaded in line; half the figures when reloading in\n"
	"cover, an odd half up or down at 50%); hits wound on the damage chart for\n"
	"damage - armor; casualties never more than the target's figures, and hit\n"
	"specialty figures on the unit's casualty die. Disordered light or skirmish\n"
	"troops shoot half their figures (halves up).",
	shoot_in, S_N, shoot_out, 8, FRAY_MODE_ROLL | FRAY_MODE_ODDS,
	"{\"weapon\": \"flintlock musket\", \"figures\": 9, \"range\": 15, \"skill\": 2, \"cover\": \"partial\"}",
	bind_shoot, NULL, NULL, false,
	/* the page */ .headline = {"casualties", ">= 1", "at least one figure wounded"}, .words = "volley fire musket rifle pistol bow shot",
	.sides = (const side_pair[]){{"figures", "target_figures"}, {"unit", "target_unit"}, {NULL, NULL}}, .generic = true,
	.example_from = "Presidio Section 4, Procedure: the Example"};

/* ---- melee ---- */

enum { ML_WEAPON, ML_FIGURES, ML_SKILL, ML_ARMOR, ML_DWEAPON, ML_DFIGURES, ML_DSKILL, ML_DARMOR, ML_CHARGE,
       ML_LOW_WALL, ML_UPHILL, ML_HIGH_WALL, ML_LADDER, ML_MOUNTED, ML_DMOUNTED, ML_BOTH, ML_DM, ML_UNITS,
       ML_UNIT, ML_DUNIT, ML_SPECIALISTS, ML_LEADER, ML_UNIT_FIGURES, ML_DSPECIALISTS, ML_DLEADER, ML_DUNIT_FIGURES,
       ML_SIMULTANEOUS, ML_DSTANDING, ML_DEFENDER_FIRST, ML_N };
static const in_desc melee_in[] = {
	{"weapon", IN_STRING, .required = true, .help = "the attackers' melee weapon (a gun is its butt)",
	 .rule = "Presidio Section 10, melee rows", .missing = "NAME (the attackers' melee weapon)",
	 .suggest = melee_weapon_name},
	{"figures", IN_INT, -1000, 1000, .required = true, .help = "attackers in base contact", .rule = R5,
	 .unit = "figures", .missing = "N (attackers in base contact)", IN_FIELD(fray_presidio_melee_in, figures)},
	{"skill", IN_INT, -5, 10, .help = "the attackers' melee skill (default: the unit's, or 0)", .rule = R5},
	{"armor", IN_INT, -5, 20, .help = "the attackers' armor, for the return strike", .rule = "Presidio Section 6"},
	{"defender_weapon", IN_STRING, .help = "the defenders' melee weapon (with both)", .rule = "Presidio Section 10",
	 .suggest = melee_weapon_name},
	{"defender_figures", IN_INT, -1000, 1000, .help = "defenders striking back (with both)", .rule = R5,
	 .unit = "figures"},
	{"defender_skill", IN_INT, -5, 10, .help = "the defenders' melee skill", .rule = R5},
	{"defender_armor", IN_INT, -5, 20, .help = "the defenders' armor", .rule = "Presidio Section 6"},
	{"charge", IN_CHOICE, .choices = fray_presidio_impact_names, .nchoices = 5,
	 .help = "the charge impact: foot -1, horse -2, bayonet -2, lance -3", .rule = R5 ", Charge Impact",
	 IN_FIELD(fray_presidio_melee_in, impact)},
	{"low_wall", IN_BOOL, .help = "the defender behind a low wall (+1)", .rule = R5 ", Melee Attack Modifiers",
	 IN_FIELD(fray_presidio_melee_in, low_wall)},
	{"uphill", IN_BOOL, .help = "attacking uphill (+1)", .rule = R5 ", Melee Attack Modifiers",
	 IN_FIELD(fray_presidio_melee_in, uphill)},
	{"high_wall", IN_BOOL, .help = "the defender behind a high wall (+2)", .rule = R5 ", Melee Attack Modifiers",
	 IN_FIELD(fray_presidio_melee_in, high_wall)},
	{"ladder", IN_BOOL, .help = "attacking from a ladder (+1)", .rule = R5 ", Melee Attack Modifiers",
	 IN_FIELD(fray_presidio_melee_in, ladder)},
	{"mounted", IN_BOOL, .help = "the attackers are mounted (-1)", .rule = R5 ", Melee Attack Modifiers"},
	{"defender_mounted", IN_BOOL, .help = "the defenders are mounted (+1)", .rule = R5 ", Melee Attack Modifiers"},
	{"both", IN_BOOL, .help = "the defenders strike back (1 action): the survivors, or all against a charge's impact",
	 .rule = R5 ", Melee Attacks",
	 IN_FIELD(fray_presidio_melee_in, both)},
	{"dm", IN_INT, -20, 20, .label = "other die modifier", .help = "any other DM", .rule = R5, IN_FIELD(fray_presidio_melee_in, other_dm)},
	{"units", IN_FILE, .help = "unit statistics (examples/presidio/units.yaml)", .rule = G4},
	{"unit", IN_STRING, .help = "the attackers' type in the units file", .rule = G4},
	{"defender_unit", IN_STRING, .help = "the defenders' type in the units file", .rule = G4},
	{"specialists", IN_INT, 0, 100, .help = "officers, NCOs, musicians, characters among the attackers (with both)",
	 .rule = "Presidio Section 6, Hits; ruling R15", IN_FIELD(fray_presidio_melee_in, specialists)},
	{"leader", IN_BOOL, .help = "the attackers' leader is among their specialty figures (the first)",
	 .rule = "Presidio Section 6, Hits; Section 7, Leaders", IN_FIELD(fray_presidio_melee_in, leader)},
	{"unit_figures", IN_INT, 1, 1000, .help = "the attackers' unit's figures, for its casualty die (default: --figures)",
	 .rule = "Presidio Section 6, Hits; ruling R15", .unit = "figures"},
	{"defender_specialists", IN_INT, 0, 100, .help = "officers, NCOs, musicians, characters among the defenders",
	 .rule = "Presidio Section 6, Hits; ruling R15", IN_FIELD(fray_presidio_melee_in, defender_specialists)},
	{"defender_leader", IN_BOOL, .help = "the defenders' leader is among their specialty figures (the first)",
	 .rule = "Presidio Section 6, Hits; Section 7, Leaders", IN_FIELD(fray_presidio_melee_in, defender_leader)},
	{"defender_unit_figures", IN_INT, 1, 1000,
	 .help = "the defenders' unit's figures, for its casualty die (default: --defender-figures)",
	 .rule = "Presidio Section 6, Hits; ruling R15", .unit = "figures",
	 IN_FIELD(fray_presidio_melee_in, defender_unit_figures)},
	{"simultaneous", IN_BOOL, .help = "with both: the defenders held an action and strike simultaneously, all in "
	 "contact before the attackers' casualties", .rule = "Presidio Section 2, Holding 2 Actions",
	 IN_FIELD(fray_presidio_melee_in, simultaneous)},
	{"defender_standing", IN_CHOICE, .choices = fray_presidio_standing_names, .nchoices = FRAY_PRESIDIO_NSTANDINGS,
	 .help = "the defenders' standing: a panicked unit is not met in melee (contact is its surrender)",
	 .rule = "Presidio Section 5, Pursuit; Section 2, Rally", IN_FIELD(fray_presidio_melee_in, defender_standing)},
	{"defender_first", IN_BOOL, .help = "the attackers walked into the melee: the defenders strike first (with both), "
	 "then the attackers left", .rule = R5 ", Moving into a Melee", IN_FIELD(fray_presidio_melee_in, defender_first)},
};
static const out_desc melee_out[] = {
	{"hits", "integer", "the attackers' hits"}, {"casualties", "integer", "defenders wounded"},
	{"return_hits", "integer", "with both: the defenders' hits"},
	{"return_casualties", "integer", "with both: attackers wounded"},
	{"specialists_hit", "integer", "the defenders' specialty figures among their casualties"},
	{"leader_hit", "boolean", "the defenders' leader is among their casualties"},
	{"return_specialists_hit", "integer", "with both: the attackers' specialty figures among theirs"},
	{"return_leader_hit", "boolean", "with both: the attackers' leader is among their casualties"}};

static void fmt_melee(const fray_call *c, const int64_t *o, fray_format form, textbuf *t)
{
	const fray_presidio_melee_in *in = (const fray_presidio_melee_in *)c->input;
	if (form == FRAY_FORMAT_JSON) {
		text_add(t, in->both ? "\"hits\": %lld, \"casualties\": %lld, \"return_hits\": %lld, "
				       "\"return_casualties\": %lld"
				     : "\"hits\": %lld, \"casualties\": %lld",
			 (long long)o[0], (long long)o[1], (long long)o[2], (long long)o[3]);
		/* the specialists' fields when specialty figures were given */
		if (in->defender_specialists)
			text_add(t, ", \"specialists_hit\": %lld, \"leader_hit\": %s", (long long)o[4],
				 o[5] ? "true" : "false");
		if (in->both && in->specialists)
			text_add(t, ", \"return_specialists_hit\": %lld, \"return_leader_hit\": %s", (long long)o[6],
				 o[7] ? "true" : "false");
		return;
	}
	text_add(t, in->both ? "defender loses %lld (of %lld hits); attacker loses %lld (of %lld)"
			     : "defender loses %lld (of %lld hits)",
		 (long long)o[1], (long long)o[0], (long long)o[3], (long long)o[2]);
	if (o[4])
		text_add(t, "; %lld defending specialist%s%s", (long long)o[4], o[4] == 1 ? "" : "s",
			 o[5] ? ", the leader among them" : "");
	if (o[6])
		text_add(t, "; %lld attacking specialist%s%s", (long long)o[6], o[6] == 1 ? "" : "s",
			 o[7] ? ", the leader among them" : "");
}

/* A weapon for melee: a gun is its butt; bows and the like have none. */
static const fray_presidio_weapon *melee_weapon(fray_call *c, size_t k)
{
	char prefix[80];
	snprintf(prefix, sizeof prefix, "%s: ", frayi_call_opt(c, k));
	const fray_presidio_weapon *w = weapon_of(c, k, prefix);
	if (w && !fray_presidio_melee_weapon(w)) {
		frayi_call_bad(c,
				"%s: %s has no melee use (Section 10): give the figures' hand weapon (fists when none)",
			 frayi_call_opt(c, k), w->name);
		return NULL;
	}
	return w;
}

/* The generic code has checked weapon and figures given and stored the
 * inputs bound by field (IN_FIELD); what is left is derived: the
 * weapons by name, statistics from the units file, defaults from other
 * inputs, and the checks across inputs. */
static fray_status bind_melee(fray_call *c)
{
	if (val_i(c, ML_FIGURES) < 1)
		return frayi_call_bad(c, "%s expects a number of figures from 1, got %lld",
				frayi_call_opt(c, ML_FIGURES),
				(long long)val_i(c, ML_FIGURES));
	fray_presidio_melee_in *in = CALL_INPUT(c, fray_presidio_melee_in);
	if (!(in->weapon = melee_weapon(c, ML_WEAPON)))
		return FRAY_ERR_INPUT;
	if (in->both) {
		if (!val_given(c, ML_DWEAPON) || val_i(c, ML_DFIGURES) < 1)
			return frayi_call_bad(c, "%s needs %s NAME and %s N (from 1)", frayi_call_opt(c, ML_BOTH),
					frayi_call_opt(c, ML_DWEAPON), frayi_call_opt(c, ML_DFIGURES));
		if (!(in->defender_weapon = melee_weapon(c, ML_DWEAPON)))
			return FRAY_ERR_INPUT;
	} else {
		in->defender_weapon = in->weapon;
	}
	in->defender_figures = val_i(c, ML_DFIGURES) > 0 ? (int)val_i(c, ML_DFIGURES) : 0;
	static const size_t unit_k[2] = {ML_UNIT, ML_DUNIT};
	fray_presidio_unit_type ut[2];
	fray_status st = frayi_call_presidio_units(c, ML_UNITS, 2, unit_k, ut);
	if (st != FRAY_OK)
		return st;
	in->skill = stat_or(c, ML_SKILL, ML_UNIT, ut[0].melee);
	in->defender_skill = stat_or(c, ML_DSKILL, ML_DUNIT, ut[1].melee);
	in->armor = stat_or(c, ML_ARMOR, ML_UNIT, ut[0].armor);
	in->defender_armor = stat_or(c, ML_DARMOR, ML_DUNIT, ut[1].armor);
	/* mounted units from the file fight as such (Melee Attack Modifiers) */
	in->mounted = val_b(c, ML_MOUNTED) || (val_given(c, ML_UNIT) && ut[0].mounted);
	in->defender_mounted = val_b(c, ML_DMOUNTED) || (val_given(c, ML_DUNIT) && ut[1].mounted);
	/* Section 6, Hits (ruling R15): the attackers' unit's size for its
	 * casualty die is the figures in contact unless given */
	in->unit_figures = val_given(c, ML_UNIT_FIGURES) ? (int)val_i(c, ML_UNIT_FIGURES) : in->figures;
	if (fray_presidio_melee_refused(in))
		return frayi_call_bad(c, "%s", fray_presidio_melee_refused(in));
	if (in->defender_leader && !in->defender_specialists)
		return frayi_call_bad(c, "%s needs %s N (the leader is one of the specialty figures)",
				frayi_call_opt(c, ML_DLEADER),
				frayi_call_opt(c, ML_DSPECIALISTS));
	if (in->leader && !in->specialists)
		return frayi_call_bad(c, "%s needs %s N (the leader is one of the specialty figures)",
				frayi_call_opt(c, ML_LEADER),
				frayi_call_opt(c, ML_SPECIALISTS));
	if (in->defender_specialists && !in->defender_unit_figures && !in->defender_figures)
		return frayi_call_bad(c, "%s needs %s N (the defending unit's figures size its casualty die)",
				frayi_call_opt(c, ML_DSPECIALISTS), frayi_call_opt(c, ML_DUNIT_FIGURES));
	if ((in->specialists || in->leader || val_given(c, ML_UNIT_FIGURES)) && !in->both)
		return frayi_call_bad(c,
				"%s, %s and %s are for %s (the attackers take casualties only from the return strike)",
				frayi_call_opt(c, ML_SPECIALISTS), frayi_call_opt(c, ML_LEADER),
						frayi_call_opt(c, ML_UNIT_FIGURES),
				frayi_call_opt(c, ML_BOTH));
	int defenders = in->defender_unit_figures ? in->defender_unit_figures : in->defender_figures;
	if (in->specialists > in->unit_figures)
		return frayi_call_bad(c, "%s %d: more specialty figures than the %d figures of the unit",
				frayi_call_opt(c, ML_SPECIALISTS),
				in->specialists, in->unit_figures);
	if (in->defender_specialists > defenders)
		return frayi_call_bad(c, "%s %d: more specialty figures than the %d figures of the unit",
				frayi_call_opt(c, ML_DSPECIALISTS), in->defender_specialists, defenders);
	if (in->unit_figures < in->figures)
		return frayi_call_bad(c, "%s %d counts the whole unit: at least the %d figures in contact (%s)",
				frayi_call_opt(c, ML_UNIT_FIGURES), in->unit_figures, in->figures,
						frayi_call_opt(c, ML_FIGURES));
	if (in->defender_unit_figures && in->defender_unit_figures < in->defender_figures)
		return frayi_call_bad(c, "%s %d counts the whole unit: at least the %d figures in contact (%s)",
				frayi_call_opt(c, ML_DUNIT_FIGURES), in->defender_unit_figures, in->defender_figures,
				frayi_call_opt(c, ML_DFIGURES));
	int difficulty = fray_presidio_melee_difficulty(in);
	frayi_call_title(c, "melee: %d with %s (skill %d%s) against skill %d, armor %d: %d+%s", in->figures,
			in->weapon->name,
		   in->skill, in->impact ? ", charging" : "", in->defender_skill, in->defender_armor, difficulty,
		   in->both ? "; the defender strikes back" : "");
	char weapon[128];
	fray_json_string(in->weapon->name, weapon, sizeof weapon);
	textbuf t = text_on(c->inputs_json, sizeof c->inputs_json);
	text_add(&t,
		 "{\"weapon\": %s, \"figures\": %d, \"skill\": %d, \"armor\": %d, \"defender_skill\": %d, "
		 "\"defender_armor\": %d, \"charge\": \"%s\", \"low_wall\": %s, \"uphill\": %s, \"high_wall\": %s, "
		 "\"ladder\": %s, \"mounted\": %s, \"defender_mounted\": %s, \"dm\": %d, \"difficulty\": %d, "
		 "\"both\": %s",
		 weapon, in->figures, in->skill, in->armor, in->defender_skill, in->defender_armor,
		 fray_presidio_impact_names[in->impact], in->low_wall ? "true" : "false", in->uphill ? "true" : "false",
		 in->high_wall ? "true" : "false", in->ladder ? "true" : "false", in->mounted ? "true" : "false",
		 in->defender_mounted ? "true" : "false", in->other_dm, difficulty, in->both ? "true" : "false");
	if (in->both) {
		fray_json_string(in->defender_weapon->name, weapon, sizeof weapon);
		text_add(&t, ", \"defender_weapon\": %s, \"defender_figures\": %d, \"simultaneous\": %s, "
			 "\"defender_first\": %s", weapon, in->defender_figures,
			 fray_presidio_strikes_back_simultaneously(in) ? "true" : "false", in->defender_first ? "true" : "false");
	}
	if (in->defender_specialists)
		text_add(&t, ", \"defender_specialists\": %d, \"defender_leader\": %s, \"defender_unit_figures\": %d",
			 in->defender_specialists, in->defender_leader ? "true" : "false",
			 in->defender_unit_figures ? in->defender_unit_figures : in->defender_figures);
	if (in->specialists)
		text_add(&t, ", \"specialists\": %d, \"leader\": %s, \"unit_figures\": %d", in->specialists,
			 in->leader ? "true" : "false", in->unit_figures);
	text_add(&t, "}");
	call_run(c, fray_presidio_melee_procedure, 8, fmt_melee);
	return FRAY_OK;
}

static const proc_desc frayi_presidio_melee_desc = {
	"presidio.melee", "presidio melee", "a melee attack, and the defenders' return strike",
	"Presidio Sections 5 and 10",
	"A d12 per figure in contact at Hit# - skill + the defender's skill and the\n"
	"modifiers; the charge impact: foot -1, horse -2, bayonet or spear -2, horse\n"
	"with spear or lance -3. Hits wound on the damage chart, never more than the\n"
	"figures struck. With both, the defenders' survivors strike back; against a\n"
	"charge's impact every defender strikes, simultaneously. Each side's\n"
	"casualties fall on its specialty figures as under fire (the unit's casualty\n"
	"die, ruling R15), its leader among them.",
	melee_in, ML_N, melee_out, 8, FRAY_MODE_ROLL | FRAY_MODE_ODDS,
	"{\"weapon\": \"metal 2-handed axe/warclub/rifle butt\", \"figures\": 6, \"skill\": 2, \"defender_skill\": 1, "
	"\"defender_armor\": 1, \"charge\": \"bayonet\", \"both\": true, \"defender_weapon\": \"flint 2-handed warclub\", "
	"\"defender_figures\": 4, \"armor\": 1, \"defender_specialists\": 1, \"defender_leader\": true}",
	bind_melee, NULL, NULL, false,
	/* the page */ .headline = {"casualties", ">= 1", "at least one defender wounded"}, .words = "charge hand-to-hand close combat fight bayonet", .generic = true,
	.sides = (const side_pair[]){{"weapon", "defender_weapon"}, {"figures", "defender_figures"},
		{"skill", "defender_skill"}, {"armor", "defender_armor"}, {"mounted", "defender_mounted"},
		{"unit", "defender_unit"}, {"specialists", "defender_specialists"}, {"leader", "defender_leader"},
		{"unit_figures", "defender_unit_figures"}, {NULL, NULL}}};

/* This file's procedures, in the catalogue's order (list.c joins the files). */
const proc_desc *const frayi_presidio_combat_procs[] = {
	&frayi_presidio_shoot_desc, &frayi_presidio_melee_desc, NULL,
};
