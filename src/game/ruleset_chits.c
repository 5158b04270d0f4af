/* The chit-pull system's game as a rule set's table (ruleset.h): a
 * brigade's fields (battalions and their hits, the lead battalion,
 * fatigue, disorder, morale: chit-combat.txt), its chit mix, its forces
 * as fray table status shows them; its actions and turn's end are
 * table_chits.c's. */
#include <stddef.h>
#include "ruleset.h"

#define U(m) .off = offsetof(table_unit, m)
/* the rule set's own fields, in its struct in the unit's area */
#define O(m) UNIT_OWN(chits_own, m)
#define STR(k, m, req) {k, F_STR, U(m), .min = 0, .required = req}
#define OSTR(k, m, req) {k, F_STR, O(m), .min = 0, .required = req}
#define INT(k, m, lo, hi, req) {k, F_INT, O(m), .min = lo, .max = hi, .required = req}
#define BOOL(k, m) {k, F_BOOL, O(m), .required = false}
#define ENUM(k, m, names, n, req) {k, F_ENUM, U(m), .min = 0, .choices = names, .nchoices = n, .required = req}
#define OENUM(k, m, names, n, req) {k, F_ENUM, O(m), .min = 0, .choices = names, .nchoices = n, .required = req}

/* A brigade (or cavalry regiment) of the chit-pull system: its
 * battalions' hits, the lead battalion, fatigue points, disorder and
 * morale level (chit-combat.txt). battalions comes before hits: the list
 * is checked against it. */
static const unit_field chits_fields[] = {
	STR("name", name, true),
	STR("side", side, true),
	OENUM("arm", arm, fray_chits_types, 3, false),
	INT("battalions", battalions, 1, FRAY_CHITS_MAX_BATTALIONS, true),
	{"hits", F_HITS, O(hits), .min = 0, .max = 99, .required = false, .count = offsetof(chits_own, battalions)},
	INT("lead", lead, 1, FRAY_CHITS_MAX_BATTALIONS, false),
	INT("morale", chit_morale, 0, 99, true),
	INT("fatigue", fatigue, 0, 99, false),
	BOOL("disordered", disordered),
};

/* The first battalion leads unless the file says. */
static void chits_defaults(table_unit *u, const fray_node *n)
{
	if (fray_node_kind_of(n) != FRAY_NODE_MAP || !fray_map_get(n, "lead"))
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
