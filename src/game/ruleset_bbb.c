/* Bloody Big Battles' game as a rule set's table (ruleset.h): its units'
 * fields (arm, training, bases, the markers), what a file leaves out, its
 * forces as fray table status shows them; its actions and turn's end are
 * table_bbb.c's. */
#include <stddef.h>
#include "ruleset.h"
#include "../common/text.h"

#define U(m) offsetof(table_unit, m)
#define STR(k, m, req) {k, F_STR, U(m), .min = 0, .required = req}
#define INT(k, m, lo, hi, req) {k, F_INT, U(m), lo, hi, .required = req}
#define BOOL(k, m) {k, F_BOOL, U(m), .required = false}
#define ENUM(k, m, names, n, req) {k, F_ENUM, U(m), .min = 0, .choices = names, .nchoices = n, .required = req}

static const unit_field bbb_fields[] = {
	STR("name", name, true),
	STR("side", side, true),
	ENUM("arm", arm, fray_bbb_arm_names, 3, true),
	ENUM("training", training, fray_bbb_training_names, 3, false),
	STR("weapons", weapons, true),
	INT("bases", bases, 0, 99, true),
	INT("start_bases", start_bases, 0, 99, false),
	BOOL("aggressive", aggressive),
	BOOL("in_depth", in_depth),
	BOOL("fragile", fragile),
	BOOL("disrupted", disrupted),
	BOOL("low_ammo", low_ammo),
	BOOL("spent", spent),
	BOOL("silenced", silenced),
	BOOL("low_ammo_instead", low_ammo_instead),
	BOOL("reduced", reduced),
	BOOL("halted", halted),
	ENUM("status", status, frayi_unit_status_names, ST_NSTATUS, false),
};

static bool has_key(const fray_node *n, const char *key)
{
	return fray_node_kind_of(n) == FRAY_NODE_MAP && fray_map_get(n, key);
}

/* The starting strength; trained troops unless the file says. */
static void bbb_defaults(table_unit *u, const fray_node *n)
{
	if (!has_key(n, "start_bases"))
		u->start_bases = u->bases;
	if (!has_key(n, "training"))
		u->training = FRAY_BBB_TRAINED;
}

static const char *bbb_problem(const table_unit *u, char *why, size_t cap)
{
	if (u->bases > u->start_bases) {
		snprintf(why, cap, "bases: %d, more than start_bases (%d)", u->bases, u->start_bases);
		return "bases";
	}
	return NULL;
}

/* A unit's markers in words: "disrupted, low ammo", or "good order". */
static void flags(char *dst, size_t cap, const table_unit *u)
{
	const struct {
		bool on;
		const char *name;
	} f[] = {{u->disrupted, "disrupted"}, {u->low_ammo, "low ammo"}, {u->silenced, "silenced"},
		 {u->low_ammo_instead, "low ammo instead of silenced"},
		 {u->reduced, "reduced"}, {u->spent, "spent"}, {u->halted, "halted"}};
	textbuf t = text_on(dst, cap);
	for (size_t i = 0; i < sizeof f / sizeof *f; i++)
		if (f[i].on)
			text_add(&t, "%s%s", t.len ? ", " : "", f[i].name);
	if (!t.len)
		text_add(&t, "good order");
}

static void bbb_status_head(FILE *f, int w)
{
	fprintf(f, "%-*s  %-12s %-9s %5s  %-8s %s\n", w, "unit", "side", "arm", "bases", "training", "state");
}

static void bbb_status_row(FILE *f, int w, const char *name, const char *side, const table_unit *u)
{
	char bases[24], state[96];
	snprintf(bases, sizeof bases, "%d/%d", u->bases, u->start_bases);
	flags(state, sizeof state, u);
	fprintf(f, "%-*s  %-12s %-9s %5s  %-8s %s\n", w, name, side, fray_bbb_arm_names[u->arm], bases,
		fray_bbb_training_names[u->training], u->status == ST_DESTROYED ? "destroyed" : state);
}

const game_ruleset frayi_bbb_ruleset = {
	.id = "bbb",
	.fields = bbb_fields,
	.nfields = sizeof bbb_fields / sizeof *bbb_fields,
	.actions = frayi_table_bbb_actions,
	.may = frayi_table_bbb_may,
	.defaults = bbb_defaults,
	.problem = bbb_problem,
	.turn_end = frayi_table_bbb_turn_end,
	.status_head = bbb_status_head,
	.status_row = bbb_status_row,
};
