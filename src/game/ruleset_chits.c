/* The chit-pull system's game as a rule set's table (ruleset.h): a
 * brigade's fields (battalions and their hits, the lead battalion,
 * fatigue, disorder, morale: chit-combat.txt), its chit mix, its forces
 * as fray table status shows them; its actions and turn's end are
 * table_chits.c's. */
#include <stddef.h>
#include "ruleset.h"

/* the rule set's own fields, in its struct in the unit's area (ruleset.h) */
#define FIELD_OWN chits_own

/* A brigade (or cavalry regiment) of the chit-pull system: its
 * battalions' hits, the lead battalion, fatigue points, disorder and
 * morale level (chit-combat.txt). battalions comes before hits: the list
 * is checked against it. */
static const unit_field chits_fields[] = {
	FIELD_STR("name", name, true),
	FIELD_STR("side", side, true),
	FIELD_OENUM("arm", arm, fray_chits_types, 3, false),
	FIELD_INT("battalions", battalions, 1, FRAY_CHITS_MAX_BATTALIONS, true),
	{"hits", F_HITS, FIELD_O(hits), .min = 0, .max = 99, .required = false, .count = offsetof(chits_own, battalions)},
	FIELD_INT("lead", lead, 1, FRAY_CHITS_MAX_BATTALIONS, false),
	FIELD_INT("morale", chit_morale, 0, 99, true),
	FIELD_INT("fatigue", fatigue, 0, 99, false),
	FIELD_BOOL("disordered", disordered),
};

/* The first battalion leads unless the file says. */
static void chits_defaults(table_unit *u, const fray_node *n)
{
	if (!frayi_node_has_key(n, "lead"))
		CHITS_OF(u)->lead = 1;
}

static const char *chits_problem(const table_unit *u, char *why, size_t cap)
{
	if (CHITS_OF(u)->lead < 1 || CHITS_OF(u)->lead > CHITS_OF(u)->battalions) {
		snprintf(why, cap, "lead: battalion %d of %d (expected 1 to %d)", CHITS_OF(u)->lead, CHITS_OF(u)->battalions,
			 CHITS_OF(u)->battalions);
		return "lead";
	}
	return NULL;
}

static void chits_status_head(FILE *f, int w)
{
	fprintf(f, "%-*s  %-12s %-9s %-17s %4s %7s %6s  %s\n", w, "unit", "side", "arm", "hits", "lead", "fatigue",
		"morale", "state");
}

static void chits_status_row(FILE *f, int w, const char *name, const char *side, const table_unit *u)
{
	char hits[48];
	frayi_table_hits_text(hits, sizeof hits, CHITS_OF(u)->hits, CHITS_OF(u)->battalions);
	fprintf(f, "%-*s  %-12s %-9s %-17s %4d %7d %6d  %s\n", w, name, side, fray_chits_types[CHITS_OF(u)->arm], hits,
		CHITS_OF(u)->lead, CHITS_OF(u)->fatigue, CHITS_OF(u)->chit_morale, CHITS_OF(u)->disordered ? "disordered" : "good order");
}

const game_ruleset frayi_chits_ruleset = {
	.id = "chits",
	.fields = chits_fields,
	.nfields = sizeof chits_fields / sizeof *chits_fields,
	.actions = frayi_table_chits_actions,
	.defaults = chits_defaults,
	.problem = chits_problem,
	.turn_over = frayi_table_chits_turn_over,
	.status_head = chits_status_head,
	.status_row = chits_status_row,
	.reads_mix = true,
};
