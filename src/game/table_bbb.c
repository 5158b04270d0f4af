/* Bloody Big Battles at the table: fire, assault and move, each applying
 * the sheet's results to the units (bases lost, Disrupted, Silenced,
 * Reduced, Low on Ammo, recovered, broken). */
#include <stdio.h>
#include <string.h>
#include "table.h"

static int in_play(table_game *g, const table_unit *u)
{
	if (u->status == ST_DESTROYED || BBB_OF(u)->bases <= 0)
		return frayi_game_fail(g, FRAY_ERR_INPUT, "%s is out of play (destroyed)", unit_label(u));
	return FRAY_OK;
}

static void lose_bases(table_game *g, table_unit *u, int n)
{
	if (n <= 0)
		return;
	if (n > BBB_OF(u)->bases)
		n = BBB_OF(u)->bases;
	BBB_OF(u)->bases -= n;
	frayi_table_note(g, "%s: loses %d %s, %d left", u->name, n, n == 1 ? "base" : "bases", BBB_OF(u)->bases);
	if (BBB_OF(u)->bases == 0) {
		u->status = ST_DESTROYED;
		frayi_table_note(g, "%s: destroyed", u->name);
	}
}

static void disrupt(table_game *g, table_unit *u)
{
	if (u->status == ST_DESTROYED || BBB_OF(u)->disrupted)
		return;
	BBB_OF(u)->disrupted = true;
	frayi_table_note(g, "%s: disrupted", u->name);
}

static fray_bbb_markers markers_of(const table_unit *u)
{
	return (fray_bbb_markers){BBB_OF(u)->disrupted, BBB_OF(u)->low_ammo, BBB_OF(u)->silenced, BBB_OF(u)->low_ammo_instead, BBB_OF(u)->halted};
}

/* The markers the procedures leave (fray_bbb_markers_after_move, _at_turn_end),
 * each marker that comes off noted. */
static void set_markers(table_game *g, table_unit *u, fray_bbb_markers m)
{
	if (BBB_OF(u)->silenced && !m.silenced)
		frayi_table_note(g, "%s: no longer silenced", u->name);
	if (BBB_OF(u)->low_ammo_instead && !m.low_ammo_instead)
		frayi_table_note(g, "%s: its Low Ammo (instead of Silenced) is removed", u->name);
	if (BBB_OF(u)->halted && !m.halted)
		frayi_table_note(g, "%s: no longer halted", u->name);
	BBB_OF(u)->disrupted = m.disrupted;
	BBB_OF(u)->low_ammo = m.low_ammo;
	BBB_OF(u)->silenced = m.silenced;
	BBB_OF(u)->low_ammo_instead = m.low_ammo_instead;
	BBB_OF(u)->halted = m.halted;
}

/* The game file's fields to the unit's turn, and back: the one mapping
 * (table.h), for the checks here and status (ruleset_bbb.c). */
fray_bbb_turn frayi_bbb_turn_of(const table_game *g, const table_unit *u)
{
	fray_bbb_turn t = {{BBB_OF(u)->moved, BBB_OF(u)->fired, BBB_OF(u)->assaulted}, false, 0, false};
	const bbb_state *st = g ? BBB_STATE_OF(g) : NULL;
	if (st && st->kept) {
		t.phased = true;
		t.phase = (fray_bbb_phase)st->phase;
		t.moving = !strcmp(u->side, st->moving);
	}
	return t;
}

void frayi_bbb_turn_keep(table_unit *u, const fray_bbb_turn *t)
{
	BBB_OF(u)->moved = t->done[FRAY_BBB_DO_MOVE];
	BBB_OF(u)->fired = t->done[FRAY_BBB_DO_FIRE];
	BBB_OF(u)->assaulted = t->done[FRAY_BBB_DO_ASSAULT];
}

/* The action of the Sequence of Play a game action is, or -1. */
static int action_of(const char *action)
{
	for (int a = 0; a < FRAY_BBB_NACTIONS; a++)
		if (!strcmp(action, fray_bbb_action_names[a]))
			return a;
	return -1;
}

/* Whether the rules let u take the action now: a unit out of play takes
 * none; a gun Silenced (or with Low Ammo instead) does not fire; a Halted
 * unit does not assault; and the unit's turn has the action's phase
 * (fray_bbb_action_refused: once each, movement, fire, assault). */
bool frayi_table_bbb_may(const table_game *g, const table_unit *u, const char *action)
{
	if (u->status == ST_DESTROYED || BBB_OF(u)->bases <= 0)
		return false;
	int a = action_of(action);
	fray_bbb_turn t = frayi_bbb_turn_of(g, u);
	if (a < 0 || fray_bbb_action_refused(&t, (fray_bbb_action)a))
		return false;
	if (a == FRAY_BBB_DO_FIRE)
		return !fray_bbb_fire_refused(markers_of(u));
	if (a == FRAY_BBB_DO_ASSAULT)
		return !fray_bbb_assault_refused(markers_of(u));
	return true;
}

/* Whether u's turn has a now (fray_bbb_action_refused): refused with the
 * rule's reason, before any die. The odds of an action are a question,
 * not an action taken: not asked then. */
static int has_turn_for(table_game *g, const table_unit *u, fray_bbb_action a)
{
	if (g->odds)
		return FRAY_OK;
	fray_bbb_turn t = frayi_bbb_turn_of(g, u);
	const char *why = fray_bbb_action_refused(&t, a);
	char acted[32], now[TABLE_NAME_MAX + 64] = "";
	fray_bbb_turn_text(&t, acted, sizeof acted);
	const bbb_state *st = BBB_STATE_OF(g);
	if (st->kept)
		snprintf(now, sizeof now, "now: %s of %s's turn; ", fray_bbb_phase_titles[st->phase], st->moving);
	return why ? frayi_game_fail(g, FRAY_ERR_INPUT, "%s cannot %s: %s (%sthis turn so far: %s; %s)",
				     unit_label(u), fray_bbb_action_names[a], why, now, acted[0] ? acted : "nothing",
				     st->kept ? "'next' ends the phase, 'turn' the player's turn" : "'turn' begins the next")
		   : FRAY_OK;
}

/* u took a this turn (asked first with has_turn_for). */
static void take(table_unit *u, fray_bbb_action a)
{
	fray_bbb_turn t = frayi_bbb_turn_of(NULL, u);
	fray_bbb_turn_take(&t, a);
	frayi_bbb_turn_keep(u, &t);
}

void frayi_table_bbb_turn_end(table_game *g, table_unit *u)
{
	/* the next player's turn: each phase again (Sequence of Play) */
	frayi_bbb_turn_keep(u, &(fray_bbb_turn){{false, false, false}, false, 0, false});
	set_markers(g, u, fray_bbb_markers_at_turn_end(markers_of(u)));
}

/* The owner's option for a gun that becomes Silenced: Low Ammo instead,
 * when the rules allow it (fray_bbb_low_ammo_instead_refused): the gun is
 * in a Fortification when the player says so with --fort or --fortified.
 * Asked before any die is rolled. */
static int low_ammo_instead(table_game *g, const table_unit *t, const player_opts *p, bool *out)
{
	*out = frayi_player_flag(p, "--low-ammo-instead");
	if (!*out)
		return FRAY_OK;
	bool fortified = frayi_player_flag(p, "--fort") || frayi_player_flag(p, "--fortified");
	const char *why = fray_bbb_low_ammo_instead_refused((fray_bbb_arm)BBB_OF(t)->arm, fortified);
	return why ? frayi_game_fail(g, FRAY_ERR_INPUT, "--low-ammo-instead: %s: %s (give --fort or --fortified for "
			       "a gun in one)", unit_label(t), why)
		   : FRAY_OK;
}

/* The marker a step's outcome gives: Disrupted, or Silenced for a gun;
 * which one is the procedure's (its outcome), not this file's. A gun's
 * owner may take Low Ammo instead (instead: checked by low_ammo_instead). */
static void silence(table_game *g, table_unit *u, bool instead)
{
	if (u->status == ST_DESTROYED || BBB_OF(u)->silenced || BBB_OF(u)->low_ammo_instead)
		return;
	if (instead) {
		BBB_OF(u)->low_ammo_instead = true;
		frayi_table_note(g, "%s: Low Ammo instead of Silenced (in a Fortification): it stays, and may not fire "
			   "until the marker is removed", u->name);
		return;
	}
	BBB_OF(u)->silenced = true;
	frayi_table_note(g, "%s: silenced", u->name);
}

/* Whether t's side may be the target (fray_bbb_target_refused decides). */
static int enemy(table_game *g, const table_unit *u, const table_unit *t, const char *what)
{
	const char *why = fray_bbb_target_refused(!strcmp(u->side, t->side));
	if (!why)
		return FRAY_OK;
	return frayi_game_fail(g, FRAY_ERR_INPUT, "%s: %s and %s are both on side '%s': %s", what, unit_label(u),
			       unit_label(t), u->side, why);
}

/* A target the unit may fire at (fire's target_ok): the enemy's, in play. */
static int fire_target(table_game *g, const table_unit *u, const table_unit *t)
{
	int st = enemy(g, u, t, "fire");
	return st == FRAY_OK ? in_play(g, t) : st;
}

static int act_fire(table_game *g, table_unit *u, table_unit *t, const player_opts *p)
{
	int st = fire_target(g, u, t);
	if (st == FRAY_OK)
		st = in_play(g, u);
	if (st != FRAY_OK)
		return st;
	if (!frayi_player_value(p, "--range") && !frayi_player_value(p, "--firepower"))
		return frayi_game_fail(g, FRAY_ERR_INPUT, "fire needs --range INCHES");
	if ((st = has_turn_for(g, u, FRAY_BBB_DO_FIRE)) != FRAY_OK)
		return st;
	const char *why = fray_bbb_fire_refused(markers_of(u));
	if (why)
		return frayi_game_fail(g, FRAY_ERR_INPUT, "%s cannot fire: %s", unit_label(u), why);
	bool instead;
	if ((st = low_ammo_instead(g, t, p, &instead)) != FRAY_OK)
		return st;
	table_step s = frayi_step_begin(g, "bbb.fire");
	/* the unit's weapons as its forces give them, with the bases it has
	 * now: the procedure fires those left (issue 28 item 11) */
	char weapons[sizeof BBB_OF(u)->weapons + 16];
	if (strchr(BBB_OF(u)->weapons, ':'))
		snprintf(weapons, sizeof weapons, "%s", BBB_OF(u)->weapons);
	else
		snprintf(weapons, sizeof weapons, "%s:%d", BBB_OF(u)->weapons, BBB_OF(u)->bases);
	frayi_step_string(&s, "weapons", weapons);
	frayi_step_int(&s, "firer_bases", BBB_OF(u)->bases);
	frayi_step_bool(&s, "firer_silenced", BBB_OF(u)->silenced);
	frayi_step_bool(&s, "firer_low_ammo_instead", BBB_OF(u)->low_ammo_instead);
	frayi_step_choice(&s, "target", fray_bbb_arm_names[BBB_OF(t)->arm]);
	frayi_step_choice(&s, "training", fray_bbb_training_names[BBB_OF(t)->training]);
	frayi_step_int(&s, "target_bases", BBB_OF(t)->bases);
	/* a gun that took Low Ammo instead of Silenced is in a Fortification
	 * (the only place it may: fray_bbb_low_ammo_instead_refused), so its
	 * cover counts though it is artillery (Terrain Table note) */
	frayi_step_bool(&s, "fortified", BBB_OF(t)->low_ammo_instead);
	frayi_step_bool(&s, "disrupted", BBB_OF(u)->disrupted);
	frayi_step_bool(&s, "low_ammo", BBB_OF(u)->low_ammo);
	frayi_step_bool(&s, "reduced", BBB_OF(u)->reduced);
	int64_t low_ammo, bases_lost, disrupted, silenced, reduced, destroyed, halted;
	if ((st = frayi_step_roll(&s, p, (step_out[]){{"low_ammo", &low_ammo}, {"target_bases_lost", &bases_lost},
						       {"target_disrupted", &disrupted}, {"target_silenced", &silenced},
						       {"target_reduced", &reduced}, {"target_destroyed", &destroyed},
						       {"target_halted", &halted}, {NULL, NULL}})) != FRAY_OK)
		return st;
	take(u, FRAY_BBB_DO_FIRE);
	if (low_ammo && !BBB_OF(u)->low_ammo) {
		BBB_OF(u)->low_ammo = true;
		frayi_table_note(g, "%s: low on ammo", u->name);
	}
	lose_bases(g, t, (int)bases_lost);
	if (destroyed && t->status != ST_DESTROYED) {
		t->status = ST_DESTROYED;
		frayi_table_note(g, "%s: destroyed", t->name);
	}
	if (disrupted)
		disrupt(g, t);
	if (silenced)
		silence(g, t, instead);
	if (reduced && !BBB_OF(t)->reduced && t->status != ST_DESTROYED) {
		BBB_OF(t)->reduced = true;
		frayi_table_note(g, "%s: reduced", t->name);
	}
	if (halted && t->status != ST_DESTROYED && !BBB_OF(t)->halted) {
		BBB_OF(t)->halted = true; /* kept: the procedure refuses its assault this turn */
		frayi_table_note(g, "%s: halted (its advance stops)", t->name);
	}
	return FRAY_OK;
}

static void side_flags(table_step *s, const table_unit *u, bool attacker)
{
	/* a gun given Low Ammo instead of Silenced carries a Low Ammo marker
	 * (Silenced Artillery): the assault's Low on Ammo penalty */
	bool on[] = {BBB_OF(u)->aggressive, BBB_OF(u)->in_depth, BBB_OF(u)->disrupted, BBB_OF(u)->silenced, BBB_OF(u)->low_ammo || BBB_OF(u)->low_ammo_instead,
		     BBB_OF(u)->fragile, BBB_OF(u)->spent};
	static const char *const names[2][7] = {
		{"defender_aggressive", "defender_in_depth", "defender_disrupted", "defender_silenced",
		 "defender_low_ammo", "defender_fragile", "defender_spent"},
		{"attacker_aggressive", "attacker_in_depth", "attacker_disrupted", "attacker_silenced",
		 "attacker_low_ammo", "attacker_fragile", "attacker_spent"}};
	for (int k = 0; k < 7; k++)
		frayi_step_bool(s, names[attacker][k], on[k]);
}

/* A unit the unit may assault (assault's target_ok): the enemy's, in play. */
static int assault_target(table_game *g, const table_unit *u, const table_unit *t)
{
	int st = enemy(g, u, t, "assault");
	return st == FRAY_OK ? in_play(g, t) : st;
}

static int act_assault(table_game *g, table_unit *u, table_unit *t, const player_opts *p)
{
	int st = assault_target(g, u, t);
	if (st == FRAY_OK)
		st = in_play(g, u);
	if (st == FRAY_OK)
		st = has_turn_for(g, u, FRAY_BBB_DO_ASSAULT);
	const char *why = fray_bbb_assault_refused(markers_of(u));
	if (st == FRAY_OK && why)
		return frayi_game_fail(g, FRAY_ERR_INPUT, "%s cannot assault: %s", unit_label(u), why);
	bool instead;
	if (st == FRAY_OK)
		st = low_ammo_instead(g, t, p, &instead);
	if (st != FRAY_OK)
		return st;
	table_step s = frayi_step_begin(g, "bbb.assault");
	frayi_step_int(&s, "attacker_bases", BBB_OF(u)->bases);
	frayi_step_int(&s, "defender_bases", BBB_OF(t)->bases);
	frayi_step_choice(&s, "attacker_arm", fray_bbb_arm_names[BBB_OF(u)->arm]);
	frayi_step_choice(&s, "defender_arm", fray_bbb_arm_names[BBB_OF(t)->arm]);
	side_flags(&s, u, true);
	side_flags(&s, t, false);
	frayi_step_bool(&s, "fortified", BBB_OF(t)->low_ammo_instead); /* as in fire, above */
	int64_t lost_u, lost_t, disrupted_u, disrupted_t, silenced_u, silenced_t;
	if ((st = frayi_step_roll(&s, p, (step_out[]){{"attacker_bases_lost", &lost_u}, {"defender_bases_lost", &lost_t},
						       {"attacker_disrupted", &disrupted_u},
						       {"defender_disrupted", &disrupted_t},
						       {"attacker_silenced", &silenced_u},
						       {"defender_silenced", &silenced_t}, {NULL, NULL}})) != FRAY_OK)
		return st;
	take(u, FRAY_BBB_DO_ASSAULT);
	lose_bases(g, u, (int)lost_u);
	lose_bases(g, t, (int)lost_t);
	if (disrupted_u)
		disrupt(g, u);
	if (disrupted_t)
		disrupt(g, t);
	if (silenced_u)
		silence(g, u, false);
	if (silenced_t)
		silence(g, t, instead);
	return FRAY_OK;
}

static int act_move(table_game *g, table_unit *u, table_unit *t, const player_opts *p)
{
	(void)t;
	int st = in_play(g, u);
	if (st == FRAY_OK)
		st = has_turn_for(g, u, FRAY_BBB_DO_MOVE);
	if (st != FRAY_OK)
		return st;
	/* --stay: the unit's movement without a roll (it does not move), so
	 * that what ends with its movement ends (a gun's Silenced marker) */
	if (frayi_player_flag(p, "--stay")) {
		frayi_table_note(g, "%s: stays (no movement roll); its movement is over", u->name);
		take(u, FRAY_BBB_DO_MOVE);
		set_markers(g, u, fray_bbb_markers_after_move(markers_of(u)));
		return FRAY_OK;
	}
	table_step s = frayi_step_begin(g, "bbb.move");
	frayi_step_bool(&s, "disrupted", BBB_OF(u)->disrupted);
	frayi_step_choice(&s, "training", fray_bbb_training_names[BBB_OF(u)->training]);
	frayi_step_choice(&s, "unit", fray_bbb_arm_names[BBB_OF(u)->arm]);
	frayi_step_bool(&s, "fragile", BBB_OF(u)->fragile);
	frayi_step_bool(&s, "spent", BBB_OF(u)->spent);
	frayi_step_int(&s, "bases", BBB_OF(u)->bases);
	frayi_step_int(&s, "start_bases", BBB_OF(u)->start_bases > BBB_OF(u)->bases ? BBB_OF(u)->start_bases : BBB_OF(u)->bases);
	int64_t change, disrupted, broken;
	if ((st = frayi_step_roll(&s, p, (step_out[]){{"bases_change", &change}, {"disrupted", &disrupted},
						       {"broken", &broken}, {NULL, NULL}})) != FRAY_OK)
		return st;
	take(u, FRAY_BBB_DO_MOVE);
	/* the outcome as the procedure gives it (MOVEMENT TABLE) */
	if (change > 0) {
		BBB_OF(u)->bases += (int)change;
		frayi_table_note(g, "%s: recovers a base, %d now", u->name, BBB_OF(u)->bases);
	}
	lose_bases(g, u, change < 0 ? (int)-change : 0);
	if (disrupted)
		disrupt(g, u);
	else if (BBB_OF(u)->disrupted && u->status != ST_DESTROYED) {
		BBB_OF(u)->disrupted = false;
		frayi_table_note(g, "%s: rallies in place (good order)", u->name);
	}
	if (broken && u->status != ST_DESTROYED) {
		u->status = ST_DESTROYED;
		frayi_table_note(g, "%s: broken, removed from the table", u->name);
	}
	set_markers(g, u, fray_bbb_markers_after_move(markers_of(u)));
	return FRAY_OK;
}

static const table_action bbb_actions[] = {
	{"fire", true, "the firefight, its result applied", act_fire, fire_target, &frayi_desc_bbb_fire},
	{"assault", true, "an assault, bases and disruption applied", act_assault, assault_target,
	 &frayi_desc_bbb_assault},
	{"move", false,
	 "the movement roll: recover, rally, lose a base, break; --stay: no roll, the unit's movement is over (a "
	 "gun's Silenced marker comes off)",
	 act_move, NULL, &frayi_desc_bbb_move},
};

const table_action *frayi_table_bbb_actions(size_t *n)
{
	*n = sizeof bbb_actions / sizeof *bbb_actions;
	return bbb_actions;
}
