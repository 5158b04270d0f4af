/* Presidio's game as a rule set's table (ruleset.h): its units' fields
 * (Section 3's statistics, G4's unit types, Section 10's weapons), what a
 * file leaves out, its forces as fray table status shows them; its
 * actions and turn's end are table_presidio.c's. */
#include <stddef.h>
#include <string.h>
#include "../common/text.h"
#include "ruleset.h"

/* the rule set's own fields, in its struct in the unit's area (ruleset.h) */
#define FIELD_OWN presidio_own

static const unit_field presidio_fields[] = {
	FIELD_STR("name", name, true),
	FIELD_STR("side", side, true),
	FIELD_OSTR("type", type, false),
	FIELD_INT("figures", figures, 0, 1000, true),
	FIELD_INT("start_figures", start_figures, 0, 1000, false),
	FIELD_OENUM("size", size, fray_presidio_size_names, 4, false),
	FIELD_OSTR("weapon", weapon, false),
	FIELD_OSTR("melee_weapon", melee_weapon, false),
	FIELD_INT("ranged", ranged, -5, 10, false),
	FIELD_INT("melee", melee, -5, 10, false),
	FIELD_INT("armor", armor, -5, 20, false),
	FIELD_OENUM("morale", level, fray_presidio_level_names, FRAY_PRESIDIO_NLEVELS, false),
	FIELD_BOOL("mounted", mounted),
	FIELD_BOOL("line", line),
	FIELD_BOOL("bayonets", bayonets),
	FIELD_OENUM("designation", designation, fray_presidio_designation_names, 3, false),
	FIELD_INT("leader", leader, 0, 4, false),
	FIELD_OSTR("leader_rank", leader_rank, false),
	FIELD_INT("specialists", specialists, 0, 100, false),
	FIELD_INT("casualties", casualties, 0, 1000, false),
	FIELD_INT("reload", reload, 0, 20, false),
	FIELD_BOOL("volleyed", volleyed),
	FIELD_ENUM("status", status, frayi_unit_status_names, ST_NSTATUS, false),
	/* this turn's actions (Section 2; ruling R47), cleared at turn */
	FIELD_OSTR("actions_spent", actions_spent, false),
	/* a line's depth (Section 3: 2-4 ranks; an extended line 1): a
	 * volley is "up to two lines deep" (Section 4) */
	FIELD_INT("ranks", ranks, 1, 4, false),
	/* sharpshooters or a character: aim and shoot (Section 2) */
	FIELD_BOOL("sharpshooters", sharpshooters),
	/* riders with "two free actions whether riding once or twice"
	 * (Section 2, Riding) */
	FIELD_BOOL("free_riders", free_riders),
	/* the enemy unit in base contact (Section 5), kept by the game: set by
	 * a charge that reaches, a pursuit or `move --into`; cleared when one
	 * leaves */
	FIELD_OSTR("contact", contact, false),
	/* the enemy unit that broke contact with this one this turn: the one
	 * it may pursue (Section 5, Pursuit) */
	FIELD_OSTR("may_pursue", may_pursue, false),
	/* a drummer or bugler with the unit: reforming takes one action
	 * (Section 3, Reform) */
	FIELD_BOOL("drummer", drummer),
};

/* The starting strength, the size class by the figures (Section 7's
 * sizes), average morale. */
static void presidio_defaults(table_unit *u, const fray_node *n)
{
	if (!frayi_node_has_key(n, "start_figures"))
		PRESIDIO_OF(u)->start_figures = PRESIDIO_OF(u)->figures;
	if (!frayi_node_has_key(n, "size"))
		PRESIDIO_OF(u)->size = (int)fray_presidio_size_of(PRESIDIO_OF(u)->start_figures);
	if (!frayi_node_has_key(n, "morale"))
		PRESIDIO_OF(u)->level = FRAY_PRESIDIO_AVERAGE;
	/* a line two ranks deep, as most stand (Section 3, Line: 2-4) */
	if (!frayi_node_has_key(n, "ranks"))
		PRESIDIO_OF(u)->ranks = 2;
}

static const char *presidio_problem(const table_unit *u, char *why, size_t cap)
{
	if (PRESIDIO_OF(u)->figures > PRESIDIO_OF(u)->start_figures) {
		snprintf(why, cap, "figures: %d, more than start_figures (%d)", PRESIDIO_OF(u)->figures, PRESIDIO_OF(u)->start_figures);
		return "figures";
	}
	fray_presidio_turn t;
	if (!fray_presidio_turn_read(PRESIDIO_OF(u)->actions_spent, &t)) {
		snprintf(why, cap, "actions_spent: '%s' is not a list of actions (\"walk, shoot\"; at most %d)",
			 PRESIDIO_OF(u)->actions_spent, FRAY_PRESIDIO_TURN_MAX);
		return "actions_spent";
	}
	return NULL;
}

/* A unit's contact and may_pursue name an enemy unit of the game
 * (Section 5: "enemy units with bases in contact perform melee"; the
 * rules say who is the enemy: fray_presidio_target_refused). */
static const char *presidio_unit_in_game(const table_game *g, const table_unit *u, char *why, size_t cap)
{
	static const char *const keys[] = {"contact", "may_pursue"};
	const char *names[] = {PRESIDIO_OF(u)->contact, PRESIDIO_OF(u)->may_pursue};
	for (size_t k = 0; k < 2; k++) {
		if (!names[k][0])
			continue;
		const table_unit *t = NULL;
		for (size_t i = 0; i < g->nunits && !t; i++)
			if (!strcmp(g->units[i].name, names[k]))
				t = &g->units[i];
		const char *no = t ? fray_presidio_target_refused(!strcmp(t->side, u->side)) : NULL;
		if (!t)
			snprintf(why, cap, "%s: '%s' is not a unit of the game (expected an enemy unit's name, or none)",
				 keys[k], names[k]);
		else if (no)
			snprintf(why, cap, "%s: '%s' is on %s's own side (expected an enemy unit): %s", keys[k], names[k],
				 u->name, no);
		if (!t || no)
			return keys[k];
	}
	return NULL;
}

/* A forces file's unit type (G4): its statistics for what the unit
 * leaves out. */
static void unit_type(table_unit *u, const fray_node *n, const fray_presidio_units *types, fray_doc *doc)
{
	const fray_presidio_unit_type *t = NULL;
	if (PRESIDIO_OF(u)->type[0]) {
		t = types ? fray_presidio_unit_find(types, PRESIDIO_OF(u)->type) : NULL;
		if (!t)
			fray_doc_error(doc, fray_map_get(n, "type"), "type: '%s' is not in the units file%s",
				       PRESIDIO_OF(u)->type, types ? "" : " (the forces file names no units_file)");
	}
	if (!t)
		return;
	if (!frayi_node_has_key(n, "ranged"))
		PRESIDIO_OF(u)->ranged = t->ranged;
	if (!frayi_node_has_key(n, "melee"))
		PRESIDIO_OF(u)->melee = t->melee;
	if (!frayi_node_has_key(n, "armor"))
		PRESIDIO_OF(u)->armor = t->armor;
	if (!frayi_node_has_key(n, "morale"))
		PRESIDIO_OF(u)->level = t->level;
	if (!frayi_node_has_key(n, "mounted"))
		PRESIDIO_OF(u)->mounted = t->mounted;
}

/* A weapon field's value that is not one of Section 10's: said at its
 * node, with the nearest name and every name the field takes, as a field
 * of choices says them (a forces file, a game file, `set`). */
static void unknown_weapon(fray_doc *doc, const fray_node *at, const char *key, const char *name)
{
	const fray_presidio_weapon *near = NULL;
	if (fray_presidio_weapon_find(name, &near))
		return;
	char names[2048];
	textbuf t = text_on(names, sizeof names);
	for (size_t i = 0; i < fray_presidio_nweapons; i++)
		text_add(&t, "%s%s", i ? ", " : "", fray_presidio_weapons[i].name);
	fray_doc_error(doc, at, "%s: unknown weapon '%s'%s%s%s: expected one of Presidio Section 10's weapons: %s", key,
		       name, near ? " (did you mean '" : "", near ? near->name : "", near ? "'?)" : "", names);
}

/* A unit's weapons are Section 10's (a game file's too). */
static void check_weapons(const table_unit *u, const fray_node *n, fray_doc *doc)
{
	const fray_node *w = fray_map_get(n, "weapon"), *m = fray_map_get(n, "melee_weapon");
	if (PRESIDIO_OF(u)->weapon[0])
		unknown_weapon(doc, w ? w : n, "weapon", PRESIDIO_OF(u)->weapon);
	if (PRESIDIO_OF(u)->melee_weapon[0])
		unknown_weapon(doc, m ? m : n, "melee_weapon", PRESIDIO_OF(u)->melee_weapon);
}

static void presidio_unit_read(table_unit *u, const fray_node *n, fray_doc *doc, unit_source from,
			       const fray_presidio_units *types)
{
	if (from == UNIT_FROM_FORCES)
		unit_type(u, n, types, doc);
	check_weapons(u, n, doc);
}

static void presidio_status_head(FILE *f, int w)
{
	fprintf(f, "%-*s  %-12s %7s %4s  %-13s %-11s %-9s %s\n", w, "unit", "side", "figures", "cas", "morale",
		"status", "reload", "actions");
}

static void presidio_status_row(FILE *f, int w, const char *name, const char *side, const table_unit *u)
{
	char figs[24];
	snprintf(figs, sizeof figs, "%d/%d", PRESIDIO_OF(u)->figures, PRESIDIO_OF(u)->start_figures);
	/* the actions left this turn, and what took the others */
	char acts[FRAY_PRESIDIO_TURN_TEXT_MAX + 24];
	int left = frayi_table_presidio_actions_left(u);
	snprintf(acts, sizeof acts, "%d left%s%s%s", left, PRESIDIO_OF(u)->actions_spent[0] ? " (" : "", PRESIDIO_OF(u)->actions_spent,
		 PRESIDIO_OF(u)->actions_spent[0] ? ")" : "");
	fprintf(f, "%-*s  %-12s %7s %4d  %-13s %-11s %-9s %s\n", w, name, side, figs, PRESIDIO_OF(u)->casualties,
		fray_presidio_level_names[PRESIDIO_OF(u)->level], frayi_unit_status_names[u->status],
		PRESIDIO_OF(u)->reload ? "reloading" : "loaded", acts);
}

/* the actions left this turn (ruling R47) */
static void presidio_status_json(FILE *f, const table_unit *u)
{
	fprintf(f, ", \"actions_left\": %d", frayi_table_presidio_actions_left(u));
}

const game_ruleset frayi_presidio_ruleset = {
	.id = "presidio",
	.fields = presidio_fields,
	.nfields = sizeof presidio_fields / sizeof *presidio_fields,
	.actions = frayi_table_presidio_actions,
	.may = frayi_table_presidio_may,
	.may_now = frayi_table_presidio_may_now,
	.command = frayi_table_presidio_command,
	.play_order = frayi_table_presidio_play_order,
	.keeps_order = true,
	.unit_in_game = presidio_unit_in_game,
	.defaults = presidio_defaults,
	.problem = presidio_problem,
	.unit_read = presidio_unit_read,
	.turn_over = frayi_table_presidio_turn_over,
	.turn_end = frayi_table_presidio_turn_end,
	.status_head = presidio_status_head,
	.status_row = presidio_status_row,
	.status_json = presidio_status_json,
	.state_keys = frayi_presidio_state_keys,
	.nstate_keys = 1,
	.state_read = frayi_presidio_state_read,
	.state_write = frayi_presidio_state_write,
	.state_words = frayi_presidio_state_words,
	.state_status = frayi_presidio_state_status,
};
