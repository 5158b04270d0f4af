/* Presidio's advice table (advise.h): the choices a unit's player makes
 * (the fire mode, one or two actions of fire, aiming; the target) and
 * what each goal counts of the first roll's outcome: the shot's
 * casualties and the target's morale check (Sections 4 and 6), the
 * melee's casualties (Section 5), the charged unit's fear-of-charge
 * check (Section 5, Charging), the rally roll (Section 2). The outcomes
 * are the procedures'; nothing here decides a rule. */
#include <string.h>
#include "advise.h"

static bool some_casualty(const fray_node *o)
{
	return frayi_advise_int(o, "casualties") > 0;
}

static bool checks_morale(const fray_node *o)
{
	return frayi_advise_bool(o, "morale_check");
}

/* shoot: the target's casualties, and whether it must check morale */
static long shot_worth(const fray_node *o, advise_goal g)
{
	switch (g) {
	case GOAL_CASUALTIES: return frayi_advise_int(o, "casualties");
	case GOAL_WIN: return checks_morale(o);
	default: return 1; /* a shot's roll costs the firers nothing */
	}
}

/* melee: the attackers strike (the first roll; the defenders' blows and
 * the morale checks follow it) */
static long melee_worth(const fray_node *o, advise_goal g)
{
	switch (g) {
	case GOAL_CASUALTIES: return frayi_advise_int(o, "casualties");
	case GOAL_WIN: return frayi_advise_int(o, "casualties") > 0;
	default: return 1;
	}
}

/* charge: the charged unit's fear-of-charge check. Not holding, it
 * gives way before any impact (win); failing, it has no reaction, so no
 * defensive fire on the chargers (not-lose, hold) */
static bool gives_way(const fray_node *o)
{
	return !frayi_advise_bool(o, "holds");
}

static bool fails(const fray_node *o)
{
	return !frayi_advise_bool(o, "success");
}

static long charge_worth(const fray_node *o, advise_goal g)
{
	switch (g) {
	case GOAL_WIN: return gives_way(o);
	case GOAL_NOT_LOSE:
	case GOAL_HOLD: return fails(o);
	default: return 0; /* the check takes no figure */
	}
}

static bool rallied(const fray_node *o)
{
	return frayi_advise_bool(o, "rallied");
}

static long rally_worth(const fray_node *o, advise_goal g)
{
	return g == GOAL_CASUALTIES ? 0 : rallied(o);
}

#define W(...) ((const char *const[]){__VA_ARGS__, NULL})
static const char *const as_it_is[] = {NULL};
/* the range is the players' to measure: medium unless they give --range
 * or --band */
static const char *const shot_situation[] = {"--band", "medium", NULL};
/* the charged unit's reaction is its own player's (Section 5, Charge
 * Reaction), and the game refuses a charge without it when no one is
 * asked (a script): the advice names one, so its command is accepted as
 * listed. Stand unless the player gives --reaction: "(0 actions)", what
 * every defender may do ("A target unit with no actions remaining must
 * stand"), and what play's heuristic answers when asked. The reaction
 * follows the fear-of-charge check, so it changes no value advice gives. */
static const char *const charge_situation[] = {"--reaction", "stand", NULL};

static const advise_action presidio_advice[] = {
	{"shoot",
	 {W("--mode", "independent"), W("--mode", "independent", "--actions", "2"), W("--mode", "volley"),
	  W("--mode", "aimed")},
	 shot_situation,
	 shot_worth,
	 {0},
	 {{some_casualty, "at least one casualty"}, {checks_morale, "%s checks morale"}},
	 {"the chance that %s must check morale", "the chance the firers lose nothing to this roll (always)",
	  "the expected casualties on %s", "the chance the firers lose nothing to this roll (always)"}},
	{"melee",
	 {NULL},
	 NULL,
	 melee_worth,
	 {0},
	 {{some_casualty, "at least one casualty"}, {NULL, NULL}},
	 {"the chance the attackers' blows take at least one of %s", "the chance the attackers lose nothing to their "
	  "own blows (always)", "the expected casualties on %s from the attackers' blows", "the chance the attackers "
	  "lose nothing to their own blows (always)"}},
	{"charge",
	 {NULL},
	 charge_situation,
	 charge_worth,
	 {0},
	 {{gives_way, "%s gives way before the impact"}, {fails, "%s fails its fear-of-charge check"}},
	 {"the chance %s gives way before the impact", "the chance %s fails its fear-of-charge check (no "
	  "reaction, no defensive fire)", "no casualties in the fear-of-charge check (the impact comes after)",
	  "the chance %s fails its fear-of-charge check (no reaction, no defensive fire)"}},
	{"pursue",
	 {NULL},
	 NULL,
	 melee_worth,
	 {1, 1, 0, 1}, /* a panicked unit caught surrenders: no dice */
	 {{some_casualty, "at least one casualty"}, {NULL, NULL}},
	 {"the chance the pursuers' blows take at least one of %s", "the chance the pursuers lose nothing to their "
	  "own blows (always)", "the expected casualties on %s from the pursuers' blows", "the chance the pursuers "
	  "lose nothing to their own blows (always)"}},
	{"rally",
	 {NULL},
	 NULL,
	 rally_worth,
	 {0},
	 {{rallied, "rallies"}, {NULL, NULL}},
	 {"the chance it rallies", "the chance it rallies", "no casualties (a rally)", "the chance it rallies"}},
	{"reload",
	 {NULL},
	 NULL,
	 NULL,
	 {0, 1, 0, 1},
	 {{NULL, NULL}, {NULL, NULL}},
	 {"nothing now (it readies the next shot)", "certain: no dice", "no casualties now (it readies the next shot)",
	  "certain: no dice"}},
	{"move",
	 {as_it_is, W("--run")},
	 NULL,
	 NULL,
	 {0, 1, 0, 1},
	 {{NULL, NULL}, {NULL, NULL}},
	 {"nothing now (the distance is the players')", "certain: no dice", "no casualties (a move)",
	  "certain: no dice"}},
	{"reform",
	 {as_it_is, W("--skirmish")},
	 NULL,
	 NULL,
	 {0, 1, 0, 1},
	 {{NULL, NULL}, {NULL, NULL}},
	 {"nothing now (the line stands in good order again)", "certain: no dice",
	  "no casualties (re-forming)", "certain: no dice"}},
	/* a unit in base contact may leave its melee by a fall back (one
	 * action) or a retreat (two), Section 5, Disengaging from Melee; the
	 * game lists what its rules allow (a flinched unit falls back only,
	 * ruling R50); last, so a tie keeps the fight before it */
	{"disengage",
	 {as_it_is, W("--retreat")},
	 NULL,
	 NULL,
	 {0, 1, 0, 1},
	 {{NULL, NULL}, {NULL, NULL}},
	 {"nothing now (it leaves the melee; the enemy may pursue)", "certain: no dice",
	  "no casualties (it leaves the melee)", "certain: no dice"}},
};

const advise_rules frayi_advise_presidio = {"presidio", presidio_advice,
					    sizeof presidio_advice / sizeof *presidio_advice, NULL};
