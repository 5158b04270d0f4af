/* Bloody Big Battles at the table: fire, assault and move, each applying
 * the sheet's results to the units (bases lost, Disrupted, Silenced,
 * Reduced, Low on Ammo, recovered, broken). */
#include <stdio.h>
#include <string.h>
#include "table.h"

static int in_play(table_game *g, const table_unit *u)
{
	if (u->status == ST_DESTROYED || u->bases <= 0)
		return frayi_game_fail(g, FRAY_ERR_INPUT, "%s is out of play (destroyed)", unit_label(u));
	return FRAY_OK;
}

static void lose_bases(table_game *g, table_unit *u, int n)
{
	if (n <= 0)
		return;
	if (n > u->bases)
		n = u->bases;
	u->bases -= n;
	frayi_table_note(g, "%s: loses %d %s, %d left", u->name, n, n == 1 ? "base" : "bases", u->bases);
	if (u->bases == 0) {
		u->status = ST_DESTROYED;
		frayi_table_note(g, "%s: destroyed", u->name);
	}
}

static void disrupt(table_game *g, table_unit *u)
{
	if (u->status == ST_DESTROYED || u->disrupted)
		return;
	u->disrupted = true;
	frayi_table_note(g, "%s: disrupted", u->name);
}

static fray_bbb_markers markers_of(const table_unit *u)
{
	return (fray_bbb_markers){u->disrupted, u->low_ammo, u->silenced, u->low_ammo_instead, u->halted};
}

/* The markers the procedures leave (fray_bbb_markers_after_move, _at_turn_end),
 * each marker that comes off noted. */
static void set_markers(table_game *g, table_unit *u, fray_bbb_markers m)
{
	if (u->silenced && !m.silenced)
		frayi_table_note(g, "%s: no longer silenced", u->name);
	if (u->low_ammo_instead && !m.low_ammo_instead)
		frayi_table_note(g, "%s: its Low Ammo (instead of Silenced) is removed", u->name);
	if (u->halted && !m.halted)
		frayi_table_note(g, "%s: no longer halted", u->name);
	u->disrupted = m.disrupted;
	u->low_ammo = m.low_ammo;
	u->silenced = m.silenced;
	u->low_ammo_instead = m.low_ammo_instead;
	u->halted = m.halted;
}

/* Whether the rules let u take the action now: a unit out of play takes
 * none; a gun Silenced (or with Low Ammo instead) does not fire. */
bool frayi_table_bbb_may(const table_unit *u, const char *action)
{
	if (u->status == ST_DESTROYED || u->bases <= 0)
		return false;
	return strcmp(action, "fire") != 0 || !fray_bbb_fire_refused(markers_of(u));
}

void frayi_table_bbb_turn_end(table_game *g, table_unit *u)
{
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
	const char *why = fray_bbb_low_ammo_instead_refused((fray_bbb_arm)t->arm, fortified);
	return why ? frayi_game_fail(g, FRAY_ERR_INPUT, "--low-ammo-instead: %s: %s (give --fort or --fortified for "
			       "a gun in one)", unit_label(t), why)
		   : FRAY_OK;
}

/* The marker a step's outcome gives: Disrupted, or Silenced for a gun;
 * which one is the procedure's (its outcome), not this file's. A gun's
 * owner may take Low Ammo instead (instead: checked by low_ammo_instead). */
static void silence(table_game *g, table_unit *u, bool instead)
{
	if (u->status == ST_DESTROYED || u->silenced || u->low_ammo_instead)
		return;
	if (instead) {
		u->low_ammo_instead = true;
		frayi_table_note(g, "%s: Low Ammo instead of Silenced (in a Fortification): it stays, and may not fire "
			   "until the marker is removed", u->name);
		return;
	}
	u->silenced = true;
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
	const char *why = fray_bbb_fire_refused(markers_of(u));
	if (why)
		return frayi_game_fail(g, FRAY_ERR_INPUT, "%s cannot fire: %s", unit_label(u), why);
	bool instead;
	if ((st = low_ammo_instead(g, t, p, &instead)) != FRAY_OK)
		return st;
	step_opts o = {0};
	/* the unit's weapons as its forces give them, with the bases it has
	 * now: the procedure fires those left (issue 28 item 11) */
	if (strchr(u->weapons, ':'))
		frayi_opts_set(&o, "--weapons", "%s", u->weapons);
	else
		frayi_opts_set(&o, "--weapons", "%s:%d", u->weapons, u->bases);
	frayi_opts_set(&o, "--firer-bases", "%d", u->bases);
	frayi_opts_flag(&o, "--firer-silenced", u->silenced);
	frayi_opts_flag(&o, "--firer-low-ammo-instead", u->low_ammo_instead);
	frayi_opts_set(&o, "--target", "%s", fray_bbb_arm_names[t->arm]);
	frayi_opts_set(&o, "--training", "%s", fray_bbb_training_names[t->training]);
	frayi_opts_set(&o, "--target-bases", "%d", t->bases);
	/* a gun that took Low Ammo instead of Silenced is in a Fortification
	 * (the only place it may: fray_bbb_low_ammo_instead_refused), so its
	 * cover counts though it is artillery (Terrain Table note) */
	frayi_opts_flag(&o, "--fortified", t->low_ammo_instead);
	frayi_opts_flag(&o, "--disrupted", u->disrupted);
	frayi_opts_flag(&o, "--low-ammo", u->low_ammo);
	frayi_opts_flag(&o, "--reduced", u->reduced);
	static const char *const want[] = {"low_ammo", "target_bases_lost", "target_disrupted", "target_silenced",
					   "target_reduced", "target_destroyed", "target_halted", NULL};
	int64_t got[7];
	if ((st = frayi_table_step(g, "bbb.fire", &o, p, want, got)) != FRAY_OK)
		return st;
	if (got[0] && !u->low_ammo) {
		u->low_ammo = true;
		frayi_table_note(g, "%s: low on ammo", u->name);
	}
	lose_bases(g, t, (int)got[1]);
	if (got[5] && t->status != ST_DESTROYED) {
		t->status = ST_DESTROYED;
		frayi_table_note(g, "%s: destroyed", t->name);
	}
	if (got[2])
		disrupt(g, t);
	if (got[3])
		silence(g, t, instead);
	if (got[4] && !t->reduced && t->status != ST_DESTROYED) {
		t->reduced = true;
		frayi_table_note(g, "%s: reduced", t->name);
	}
	if (got[6] && t->status != ST_DESTROYED && !t->halted) {
		t->halted = true; /* kept: the procedure refuses its assault this turn */
		frayi_table_note(g, "%s: halted (its advance stops)", t->name);
	}
	return FRAY_OK;
}

static void side_flags(step_opts *o, const table_unit *u, bool attacker)
{
	/* a gun given Low Ammo instead of Silenced carries a Low Ammo marker
	 * (Silenced Artillery): the assault's Low on Ammo penalty */
	bool on[] = {u->aggressive, u->in_depth, u->disrupted, u->silenced, u->low_ammo || u->low_ammo_instead,
		     u->fragile, u->spent};
	static const char *const names[2][7] = {
		{"--defender-aggressive", "--defender-in-depth", "--defender-disrupted", "--defender-silenced",
		 "--defender-low-ammo", "--defender-fragile", "--defender-spent"},
		{"--attacker-aggressive", "--attacker-in-depth", "--attacker-disrupted", "--attacker-silenced",
		 "--attacker-low-ammo", "--attacker-fragile", "--attacker-spent"}};
	for (int k = 0; k < 7; k++)
		frayi_opts_flag(o, names[attacker][k], on[k]);
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
	const char *why = fray_bbb_assault_refused(markers_of(u));
	if (st == FRAY_OK && why)
		return frayi_game_fail(g, FRAY_ERR_INPUT, "%s cannot assault: %s", unit_label(u), why);
	bool instead;
	if (st == FRAY_OK)
		st = low_ammo_instead(g, t, p, &instead);
	if (st != FRAY_OK)
		return st;
	step_opts o = {0};
	frayi_opts_set(&o, "--attacker-bases", "%d", u->bases);
	frayi_opts_set(&o, "--defender-bases", "%d", t->bases);
	frayi_opts_set(&o, "--attacker-arm", "%s", fray_bbb_arm_names[u->arm]);
	frayi_opts_set(&o, "--defender-arm", "%s", fray_bbb_arm_names[t->arm]);
	side_flags(&o, u, true);
	side_flags(&o, t, false);
	frayi_opts_flag(&o, "--fortified", t->low_ammo_instead); /* as in fire, above */
	static const char *const want[] = {"attacker_bases_lost", "defender_bases_lost", "attacker_disrupted",
					   "defender_disrupted", "attacker_silenced", "defender_silenced", NULL};
	int64_t got[6];
	if ((st = frayi_table_step(g, "bbb.assault", &o, p, want, got)) != FRAY_OK)
		return st;
	lose_bases(g, u, (int)got[0]);
	lose_bases(g, t, (int)got[1]);
	if (got[2])
		disrupt(g, u);
	if (got[3])
		disrupt(g, t);
	if (got[4])
		silence(g, u, false);
	if (got[5])
		silence(g, t, instead);
	return FRAY_OK;
}

static int act_move(table_game *g, table_unit *u, table_unit *t, const player_opts *p)
{
	(void)t;
	int st = in_play(g, u);
	if (st != FRAY_OK)
		return st;
	/* --stay: the unit's movement without a roll (it does not move), so
	 * that what ends with its movement ends (a gun's Silenced marker) */
	if (frayi_player_flag(p, "--stay")) {
		frayi_table_note(g, "%s: stays (no movement roll); its movement is over", u->name);
		set_markers(g, u, fray_bbb_markers_after_move(markers_of(u)));
		return FRAY_OK;
	}
	step_opts o = {0};
	frayi_opts_flag(&o, "--disrupted", u->disrupted);
	frayi_opts_set(&o, "--training", "%s", fray_bbb_training_names[u->training]);
	frayi_opts_set(&o, "--unit", "%s", fray_bbb_arm_names[u->arm]);
	frayi_opts_flag(&o, "--fragile", u->fragile);
	frayi_opts_flag(&o, "--spent", u->spent);
	frayi_opts_set(&o, "--bases", "%d", u->bases);
	frayi_opts_set(&o, "--start-bases", "%d", u->start_bases > u->bases ? u->start_bases : u->bases);
	static const char *const want[] = {"bases_change", "disrupted", "broken", NULL};
	int64_t got[3];
	if ((st = frayi_table_step(g, "bbb.move", &o, p, want, got)) != FRAY_OK)
		return st;
	/* the outcome as the procedure gives it (MOVEMENT TABLE) */
	if (got[0] > 0) {
		u->bases += (int)got[0];
		frayi_table_note(g, "%s: recovers a base, %d now", u->name, u->bases);
	}
	lose_bases(g, u, got[0] < 0 ? (int)-got[0] : 0);
	if (got[1])
		disrupt(g, u);
	else if (u->disrupted && u->status != ST_DESTROYED) {
		u->disrupted = false;
		frayi_table_note(g, "%s: rallies in place (good order)", u->name);
	}
	if (got[2] && u->status != ST_DESTROYED) {
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
