/* Bloody Big Battles' game as a rule set's table (ruleset.h): its units'
 * fields (arm, training, bases, the markers), what a file leaves out, its
 * forces as fray table status shows them; its actions and turn's end are
 * table_bbb.c's. */
#include <stddef.h>
#include <string.h>
#include "ruleset.h"
#include "../common/text.h"

/* the rule set's own fields, in its struct in the unit's area (ruleset.h) */
#define FIELD_OWN bbb_own

static const unit_field bbb_fields[] = {
	FIELD_STR("name", name, true),
	FIELD_STR("side", side, true),
	FIELD_OENUM("arm", arm, fray_bbb_arm_names, 3, true),
	FIELD_OENUM("training", training, fray_bbb_training_names, 3, false),
	FIELD_OSTR("weapons", weapons, true),
	FIELD_INT("bases", bases, 0, 99, true),
	FIELD_INT("start_bases", start_bases, 0, 99, false),
	FIELD_BOOL("aggressive", aggressive),
	FIELD_BOOL("in_depth", in_depth),
	FIELD_BOOL("fragile", fragile),
	FIELD_BOOL("disrupted", disrupted),
	FIELD_BOOL("low_ammo", low_ammo),
	FIELD_BOOL("spent", spent),
	FIELD_BOOL("silenced", silenced),
	FIELD_BOOL("low_ammo_instead", low_ammo_instead),
	FIELD_BOOL("reduced", reduced),
	FIELD_BOOL("halted", halted),
	FIELD_ENUM("status", status, frayi_unit_status_names, ST_NSTATUS, false),
	/* what it did this turn (Sequence of Play), cleared at turn; a file
	 * without them: nothing done */
	FIELD_BOOL("moved", moved),
	FIELD_BOOL("fired", fired),
	FIELD_BOOL("assaulted", assaulted),
};

/* The starting strength; trained troops unless the file says. */
static void bbb_defaults(table_unit *u, const fray_node *n)
{
	if (!frayi_node_has_key(n, "start_bases"))
		BBB_OF(u)->start_bases = BBB_OF(u)->bases;
	if (!frayi_node_has_key(n, "training"))
		BBB_OF(u)->training = FRAY_BBB_TRAINED;
}

static const char *bbb_problem(const table_unit *u, char *why, size_t cap)
{
	if (BBB_OF(u)->bases > BBB_OF(u)->start_bases) {
		snprintf(why, cap, "bases: %d, more than start_bases (%d)", BBB_OF(u)->bases, BBB_OF(u)->start_bases);
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
	} f[] = {{BBB_OF(u)->disrupted, "disrupted"}, {BBB_OF(u)->low_ammo, "low ammo"}, {BBB_OF(u)->silenced, "silenced"},
		 {BBB_OF(u)->low_ammo_instead, "low ammo instead of silenced"},
		 {BBB_OF(u)->reduced, "reduced"}, {BBB_OF(u)->spent, "spent"}, {BBB_OF(u)->halted, "halted"}};
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
	char bases[24], state[160], acted[32];
	snprintf(bases, sizeof bases, "%d/%d", BBB_OF(u)->bases, BBB_OF(u)->start_bases);
	flags(state, sizeof state, u);
	/* what it did this turn, in the Sequence of Play's order */
	fray_bbb_turn t = frayi_bbb_turn_of(NULL, u);
	fray_bbb_turn_text(&t, acted, sizeof acted);
	if (acted[0] && u->status != ST_DESTROYED) {
		size_t n = strlen(state);
		snprintf(state + n, sizeof state - n, "; this turn: %s", acted);
	}
	fprintf(f, "%-*s  %-12s %-9s %5s  %-8s %s\n", w, name, side, fray_bbb_arm_names[BBB_OF(u)->arm], bases,
		fray_bbb_training_names[BBB_OF(u)->training], u->status == ST_DESTROYED ? "destroyed" : state);
}

const game_ruleset frayi_bbb_ruleset = {
	.id = "bbb",
	.fields = bbb_fields,
	.nfields = sizeof bbb_fields / sizeof *bbb_fields,
	.actions = frayi_table_bbb_actions,
	.may = frayi_table_bbb_may,
	.defaults = bbb_defaults,
	.problem = bbb_problem,
	.turn_over = frayi_bbb_turn_over,
	.turn_end = frayi_table_bbb_turn_end,
	.turn_goes_on = frayi_bbb_turn_goes_on,
	.turn_read = frayi_bbb_turn_read,
	.state_keys = frayi_bbb_state_keys,
	.nstate_keys = 3,
	.state_read = frayi_bbb_state_read,
	.state_write = frayi_bbb_state_write,
	.state_words = frayi_bbb_state_words,
	.game_actions = frayi_bbb_game_actions,
	.ngame_actions = 2,
	.play_idle = frayi_bbb_play_idle,
	.status_head = bbb_status_head,
	.status_row = bbb_status_row,
};
