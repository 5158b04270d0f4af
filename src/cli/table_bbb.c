/* Bloody Big Battles at the table: fire, assault and move, each applying
 * the sheet's results to the units (bases lost, Disrupted, Silenced,
 * Reduced, Low on Ammo, recovered, broken). */
#include <stdio.h>
#include <string.h>
#include "table.h"

static int in_play(table_game *g, const table_unit *u)
{
	if (u->status == ST_DESTROYED || u->bases <= 0)
		return cli_error(g->cmd, EXIT_BAD_INPUT, "%s is out of play (destroyed)", unit_label(u));
	return EXIT_OK;
}

static void lose_bases(table_game *g, table_unit *u, int n)
{
	if (n <= 0)
		return;
	if (n > u->bases)
		n = u->bases;
	u->bases -= n;
	table_note(g, "%s: loses %d %s, %d left", u->name, n, n == 1 ? "base" : "bases", u->bases);
	if (u->bases == 0) {
		u->status = ST_DESTROYED;
		table_note(g, "%s: destroyed", u->name);
	}
}

static void disrupt(table_game *g, table_unit *u)
{
	if (u->status == ST_DESTROYED || u->disrupted)
		return;
	u->disrupted = true;
	table_note(g, "%s: disrupted", u->name);
}

/* The sheet's Result / Effect: R, T and V reach the training levels they
 * name (ruling R19); artillery is Silenced (and Reduced on a 1,
 * destroyed on a 2 or 3), infantry and cavalry Disrupted and lose the
 * result's bases. */
static void fire_effect(table_game *g, table_unit *t, fray_bbb_result res)
{
	if (!fray_bbb_result_reaches(res, (fray_bbb_training)t->training))
		return;
	if (t->arm == FRAY_BBB_ARTILLERY) {
		if (res >= FRAY_BBB_2) {
			lose_bases(g, t, t->bases);
			return;
		}
		if (!t->silenced)
			table_note(g, "%s: silenced", t->name);
		t->silenced = true;
		if (res == FRAY_BBB_1 && !t->reduced) {
			t->reduced = true;
			table_note(g, "%s: reduced", t->name);
		}
		return;
	}
	lose_bases(g, t, res >= FRAY_BBB_1 ? (int)res - (int)FRAY_BBB_1 + 1 : 0);
	disrupt(g, t);
}

static int act_fire(table_game *g, table_unit *u, table_unit *t, const player_opts *p)
{
	int st = in_play(g, u);
	if (st == EXIT_OK)
		st = in_play(g, t);
	if (st != EXIT_OK)
		return st;
	if (u->silenced)
		return cli_error(g->cmd, EXIT_BAD_INPUT, "%s is silenced: it may not fire (BBB sheet, Silenced "
				 "Artillery)", unit_label(u));
	if (!player_value(p, "--range") && !player_value(p, "--firepower"))
		return cli_error(g->cmd, EXIT_BAD_INPUT, "fire needs --range INCHES");
	step_opts o = {0};
	if (strchr(u->weapons, ':'))
		opts_set(&o, "--weapons", "%s", u->weapons);
	else
		opts_set(&o, "--weapons", "%s:%d", u->weapons, u->bases);
	opts_set(&o, "--target", "%s", fray_bbb_arm_names[t->arm]);
	opts_set(&o, "--training", "%s", fray_bbb_training_names[t->training]);
	opts_flag(&o, "--disrupted", u->disrupted);
	opts_flag(&o, "--low-ammo", u->low_ammo);
	opts_flag(&o, "--reduced", u->reduced);
	static const char *const want[] = {"result", "low_ammo", NULL};
	int64_t got[2];
	if ((st = table_step(g, "bbb.fire", &o, p, want, got)) != EXIT_OK)
		return st;
	if (got[1] && !u->low_ammo) {
		u->low_ammo = true;
		table_note(g, "%s: low on ammo", u->name);
	}
	fire_effect(g, t, (fray_bbb_result)got[0]);
	return EXIT_OK;
}

static void side_flags(step_opts *o, const table_unit *u, bool attacker)
{
	bool on[] = {u->aggressive, u->in_depth, u->disrupted || u->silenced, u->low_ammo, u->fragile, u->spent};
	static const char *const names[2][6] = {
		{"--defender-aggressive", "--defender-in-depth", "--defender-disrupted", "--defender-low-ammo",
		 "--defender-fragile", "--defender-spent"},
		{"--attacker-aggressive", "--attacker-in-depth", "--attacker-disrupted", "--attacker-low-ammo",
		 "--attacker-fragile", "--attacker-spent"}};
	for (int k = 0; k < 6; k++)
		opts_flag(o, names[attacker][k], on[k]);
}

static int act_assault(table_game *g, table_unit *u, table_unit *t, const player_opts *p)
{
	int st = in_play(g, u);
	if (st == EXIT_OK)
		st = in_play(g, t);
	if (st != EXIT_OK)
		return st;
	step_opts o = {0};
	opts_set(&o, "--attacker-bases", "%d", u->bases);
	opts_set(&o, "--defender-bases", "%d", t->bases);
	opts_set(&o, "--defender-arm", "%s", fray_bbb_arm_names[t->arm]);
	side_flags(&o, u, true);
	side_flags(&o, t, false);
	static const char *const want[] = {"attacker_bases_lost", "defender_bases_lost", "attacker_disrupted",
					   "defender_disrupted", NULL};
	int64_t got[4];
	if ((st = table_step(g, "bbb.assault", &o, p, want, got)) != EXIT_OK)
		return st;
	lose_bases(g, u, (int)got[0]);
	lose_bases(g, t, (int)got[1]);
	if (got[2])
		disrupt(g, u);
	if (got[3])
		disrupt(g, t);
	return EXIT_OK;
}

/* The movement table's rows: 11+, 10, 9, 7-8, 5-6, 2-4, 0-1, -1 or less. */
enum { ROW_RALLY = 4, ROW_LOSE = 6, ROW_WORST = 7 };

static int act_move(table_game *g, table_unit *u, table_unit *t, const player_opts *p)
{
	(void)t;
	int st = in_play(g, u);
	if (st != EXIT_OK)
		return st;
	step_opts o = {0};
	opts_flag(&o, "--disrupted", u->disrupted);
	opts_set(&o, "--training", "%s", fray_bbb_training_names[u->training]);
	opts_set(&o, "--unit", "%s", fray_bbb_arm_names[u->arm]);
	opts_flag(&o, "--fragile", u->fragile);
	opts_flag(&o, "--spent", u->spent);
	static const char *const want[] = {"row", "recover", NULL};
	int64_t got[2];
	if ((st = table_step(g, "bbb.move", &o, p, want, got)) != EXIT_OK)
		return st;
	int row = (int)got[0];
	if (!u->disrupted) {
		if (got[1] && u->bases < u->start_bases) {
			u->bases++;
			table_note(g, "%s: recovers a base, %d now", u->name, u->bases);
		}
		if (row == ROW_WORST)
			disrupt(g, u);
		return EXIT_OK;
	}
	if (row == ROW_RALLY) {
		u->disrupted = false;
		table_note(g, "%s: rallies in place (good order)", u->name);
	} else if (row == ROW_LOSE) {
		lose_bases(g, u, 1);
	} else if (row == ROW_WORST) {
		u->status = ST_DESTROYED;
		table_note(g, "%s: broken, removed from the table", u->name);
	}
	return EXIT_OK;
}

static const table_action bbb_actions[] = {
	{"fire", true, "UNIT --at TARGET --range IN [fire options]: the firefight, its result applied", act_fire},
	{"assault", true, "UNIT --at TARGET [assault options]: an assault, bases and disruption applied",
	 act_assault},
	{"move", false, "UNIT [move options]: the movement roll: recover, rally, lose a base, break", act_move},
};

const table_action *table_bbb_actions(size_t *n)
{
	*n = sizeof bbb_actions / sizeof *bbb_actions;
	return bbb_actions;
}
