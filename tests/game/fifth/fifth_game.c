/* The fifth rule set's game: units of men with a nerve, kept in the
 * rule set's own struct behind its field table (not in table_unit's
 * fields of fray's three games), and one action, shoot: a volley at the
 * target, which loses a man a hit and, having lost any, checks its
 * morale; failing it, it is shaken, and a shaken unit may not shoot. */
#include <stddef.h>
#include <string.h>
#include "../../../src/game/ruleset.h"
#include "fifth.h"

typedef struct fifth_unit {
	int men, nerve;
	bool shaken;
} fifth_unit;

static const unit_field fifth_fields[] = {
	{"name", F_STR, offsetof(table_unit, name), .required = true},
	{"side", F_STR, offsetof(table_unit, side), .required = true},
	{"men", F_INT, UNIT_OWN(fifth_unit, men), .min = 0, .max = FIFTH_MAX_MEN, .required = true},
	{"nerve", F_INT, UNIT_OWN(fifth_unit, nerve), .min = 2, .max = 12, .required = true},
	{"shaken", F_BOOL, UNIT_OWN(fifth_unit, shaken)},
};

static int shoot(table_game *g, table_unit *actor, table_unit *target, const player_opts *p)
{
	fifth_unit *a = UNIT_OWN_OF(fifth_unit, actor), *t = UNIT_OWN_OF(fifth_unit, target);
	if (a->shaken || a->men == 0)
		return frayi_game_fail(g, FRAY_ERR_INPUT, "%s may not shoot: %s", actor->name,
				       a->shaken ? "it is shaken" : "it has no men left");
	table_step v = frayi_step_begin(g, "fifth.volley");
	frayi_step_int(&v, "men", a->men);
	int64_t hits = 0;
	int st = frayi_step_roll(&v, p, (step_out[]){{"hits", &hits}, {NULL, NULL}});
	if (st != FRAY_OK)
		return st;
	int lost = (int)hits < t->men ? (int)hits : t->men;
	t->men -= lost;
	frayi_table_note(g, "%s: %d men lost, %d left", target->name, lost, t->men);
	if (lost == 0)
		return FRAY_OK;
	table_step m = frayi_step_begin(g, "fifth.morale");
	frayi_step_int(&m, "nerve", t->nerve);
	frayi_step_int(&m, "losses", lost);
	int64_t passed = 0;
	if ((st = frayi_step_roll(&m, NULL, (step_out[]){{"passed", &passed}, {NULL, NULL}})) != FRAY_OK)
		return st;
	if (!passed) {
		t->shaken = true;
		frayi_table_note(g, "%s: shaken", target->name);
	}
	return FRAY_OK;
}

/* the player gives only the target: both procedures' inputs come from the units */
static const action_desc shoot_desc = {.procs = {"fifth.volley", "fifth.morale", NULL}};

static const table_action fifth_actions[] = {
	{"shoot", true, "a volley, a d6 a man hitting on 4+", shoot, NULL, &shoot_desc},
};

static const table_action *actions(size_t *n)
{
	*n = sizeof fifth_actions / sizeof *fifth_actions;
	return fifth_actions;
}

static bool may(const table_game *g, const table_unit *u, const char *action)
{
	(void)g;
	const fifth_unit *f = UNIT_OWN_OF(const fifth_unit, u);
	return !(strcmp(action, "shoot") == 0 && (f->shaken || f->men == 0));
}

static const game_ruleset fifth = {
	.id = "fifth",
	.fields = fifth_fields,
	.nfields = sizeof fifth_fields / sizeof *fifth_fields,
	.actions = actions,
	.may = may,
};

int fifth_register_game(void)
{
	return frayi_ruleset_register(&fifth);
}
