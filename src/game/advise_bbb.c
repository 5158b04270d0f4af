/* Bloody Big Battles' advice table (advise.h): fire, assault and move,
 * and what each goal counts of the first roll's outcome (BBB Firefight,
 * Assault and Movement tables as the procedures apply them): bases lost
 * on each side, disruption, the firer's Low Ammo, the move's row. The
 * outcomes are the procedures'; nothing here decides a rule. */
#include <string.h>
#include "advise.h"

static bool fire_effect(const fray_node *o)
{
	return frayi_advise_int(o, "target_bases_lost") > 0 || frayi_advise_bool(o, "target_disrupted") ||
	       frayi_advise_bool(o, "target_silenced") || frayi_advise_bool(o, "target_destroyed") ||
	       frayi_advise_bool(o, "target_halted");
}

static bool base_lost(const fray_node *o)
{
	return frayi_advise_int(o, "target_bases_lost") > 0;
}

static bool low_ammo(const fray_node *o)
{
	return frayi_advise_bool(o, "low_ammo");
}

/* fire: the target's bases lost; any effect on it; the firer's ammunition */
static long fire_worth(const fray_node *o, advise_goal g)
{
	switch (g) {
	case GOAL_CASUALTIES: return frayi_advise_int(o, "target_bases_lost");
	case GOAL_WIN: return fire_effect(o);
	default: return !low_ammo(o);
	}
}

static long lost(const fray_node *o, const char *side)
{
	char f[40];
	snprintf(f, sizeof f, "%s_bases_lost", side);
	return frayi_advise_int(o, f);
}

static bool defender_loses_more(const fray_node *o)
{
	return lost(o, "defender") > lost(o, "attacker");
}

/* No base lost and not Disrupted: after an assault both sides are
 * Disrupted but the attacker on a +7 (Assault Table), so this is the
 * chance of a +7 first time, 0 where the dice and modifiers cannot reach
 * it; the words say both parts (the referee's finding 11(a)). */
static bool attacker_unharmed(const fray_node *o)
{
	return lost(o, "attacker") == 0 && !frayi_advise_bool(o, "attacker_disrupted");
}

/* assault: bases lost on each side, the attackers' disruption */
static long assault_worth(const fray_node *o, advise_goal g)
{
	switch (g) {
	case GOAL_CASUALTIES: return lost(o, "defender");
	case GOAL_WIN: return defender_loses_more(o);
	case GOAL_NOT_LOSE: return lost(o, "defender") >= lost(o, "attacker");
	default: return attacker_unharmed(o);
	}
}

static bool full_move(const fray_node *o)
{
	const char *r = frayi_advise_str(o, "result");
	return r && !strcmp(r, "Full move");
}

static bool keeps_together(const fray_node *o)
{
	return frayi_advise_int(o, "bases_change") >= 0 && !frayi_advise_bool(o, "broken");
}

/* move: the movement roll's row; it does nothing to the enemy, so it
 * weighs nothing toward win or casualties */
static long move_worth(const fray_node *o, advise_goal g)
{
	return g == GOAL_CASUALTIES || g == GOAL_WIN ? 0 : keeps_together(o);
}

/* the range is the players' to measure: 6 unless they give --range */
static const char *const fire_situation[] = {"--range", "6", NULL};

static const advise_action bbb_advice[] = {
	{"fire",
	 {NULL},
	 fire_situation,
	 fire_worth,
	 {0},
	 {{fire_effect, "an effect on %s"}, {base_lost, "%s loses a base"}},
	 {"the chance of an effect on %s (a base lost, disrupted, silenced, halted)", "the chance the firers keep "
	  "their ammunition", "the expected bases lost by %s", "the chance the firers keep their ammunition"}},
	{"assault",
	 {NULL},
	 NULL,
	 assault_worth,
	 {0},
	 {{defender_loses_more, "%s loses more bases"}, {attacker_unharmed, "the attackers lose no base and are not disrupted"}},
	 {"the chance %s loses more bases than the attackers", "the chance %s loses at least as many bases as the "
	  "attackers", "the expected bases lost by %s", "the chance the attackers lose no base and are not disrupted (only a +7 leaves them so)"}},
	{"move",
	 {NULL},
	 NULL,
	 move_worth,
	 {0},
	 {{full_move, "a full move"}, {keeps_together, "no base lost, not broken"}},
	 {"nothing to the enemy (a move)", "the chance it loses no base and does not break", "no casualties (a move)",
	  "the chance it loses no base and does not break"}},
};

const advise_rules frayi_advise_bbb = {"bbb", bbb_advice, sizeof bbb_advice / sizeof *bbb_advice, NULL};
