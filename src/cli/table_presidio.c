/* Presidio at the table: shoot, melee, charge, morale, rally, reload, each
 * with the follow-ups the rules require (Sections 4-7), the forces
 * updated from the outcomes. docs/table.md says what is automatic and
 * what is left to the players. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "table.h"


/* Units that can act: not panicked, surrendered or destroyed. */
static int able(table_game *g, const table_unit *u, const char *what)
{
	if (u->status == ST_PANICKED || u->status == ST_SURRENDERED || u->status == ST_DESTROYED || u->figures <= 0)
		return cli_error(g->cmd, EXIT_BAD_INPUT, "%s cannot %s: it has %s%s", unit_label(u), what,
				 u->figures <= 0 ? "no figures" : unit_status_names[u->status],
				 u->status == ST_PANICKED ? " (rally it first: 'rally')" : "");
	return EXIT_OK;
}

static int targetable(table_game *g, const table_unit *t)
{
	if (t->status == ST_SURRENDERED || t->status == ST_DESTROYED || t->figures <= 0)
		return cli_error(g->cmd, EXIT_BAD_INPUT, "%s is out of the fight (%s)", unit_label(t),
				 unit_status_names[t->status]);
	return EXIT_OK;
}

/* Casualties off a unit: figures lost, counted for its morale (Section 7's
 * casualty DMs); none left: destroyed. */
static void take_casualties(table_game *g, table_unit *u, int n)
{
	if (n <= 0)
		return;
	if (n > u->figures)
		n = u->figures;
	u->figures -= n;
	u->casualties += n;
	table_note(g, "%s: %d %s, %d figures left", u->name, n, n == 1 ? "casualty" : "casualties", u->figures);
	if (u->figures == 0) {
		u->status = ST_DESTROYED;
		table_note(g, "%s: destroyed (no figures left)", u->name);
	}
}

/* ---- morale (Section 7) ---- */

typedef struct morale_when {
	bool charged, charging, charge_impact, near_enemy;
	const char *cover;               /* the unit's cover, or NULL */
} morale_when;

static bool real_cover(const char *cover)
{
	return cover && (!strcmp(cover, "partial") || !strcmp(cover, "heavy") || !strcmp(cover, "full") ||
			 !strcmp(cover, "complete"));
}

/* The failure bands (Morale Roll Resolution): short by 1-2, 3-4, 5 or
 * more; each situation's result as the unit's standing afterwards. A
 * unit in line's form check is taken as failed (the worse result), and a
 * charging unit that falls back is also disordered. */
static unit_status failed_status(fray_presidio_situation s, int short_by, const morale_when *w)
{
	int band = short_by <= 2 ? 0 : short_by <= 4 ? 1 : 2;
	static const unit_status by[4][3] = {
		[FRAY_PRESIDIO_OPEN] = {ST_FELL_BACK, ST_RETREATED, ST_PANICKED},
		[FRAY_PRESIDIO_IN_COVER] = {ST_FLINCHED, ST_HUNKERED, ST_PANICKED},
		[FRAY_PRESIDIO_LINE] = {ST_DISORDERED, ST_RETREATED, ST_PANICKED},
		[FRAY_PRESIDIO_CHARGING] = {ST_DISORDERED, ST_FELL_BACK, ST_RETREATED},
	};
	/* Surrender: a panic within 4" of the enemy, but not after a charge's
	 * impact (a panic move then) */
	if (band == 2 && s != FRAY_PRESIDIO_CHARGING && w->near_enemy && !w->charge_impact)
		return ST_SURRENDERED;
	return by[s][band];
}

static int morale_check(table_game *g, table_unit *u, const morale_when *w, const player_opts *p)
{
	fray_presidio_situation s = w->charging ? FRAY_PRESIDIO_CHARGING
				    : u->line ? FRAY_PRESIDIO_LINE
				    : real_cover(w->cover) ? FRAY_PRESIDIO_IN_COVER
							   : FRAY_PRESIDIO_OPEN;
	static const char *const situations[] = {"open", "cover", "line", "charging"};
	step_opts o = {0};
	opts_set(&o, "--level", "%s", fray_presidio_level_names[u->level]);
	opts_set(&o, "--size", "%s", fray_presidio_size_names[u->size]);
	opts_set(&o, "--casualties", "%d", u->casualties > 100 ? 100 : u->casualties);
	opts_set(&o, "--leader", "%d", u->leader);
	opts_set(&o, "--situation", "%s", situations[s]);
	opts_flag(&o, "--line", u->line);
	opts_flag(&o, "--charged", w->charged);
	opts_flag(&o, "--charging", w->charging);
	opts_flag(&o, "--charge-impact", w->charge_impact);
	opts_flag(&o, "--near-enemy", w->near_enemy);
	if (w->cover && !strcmp(w->cover, "incidental"))
		opts_flag(&o, "--incidental-cover", true);
	else if (real_cover(w->cover))
		opts_set(&o, "--cover", "%s", w->cover);
	static const char *const want[] = {"success", "short_by", "bonus", NULL};
	int64_t got[3];
	int st = table_step(g, "presidio.morale", &o, p, want, got);
	if (st != EXIT_OK)
		return st;
	if (got[2]) {
		/* two 6s: a level up for the battle, earlier casualties disregarded */
		u->level = u->level == FRAY_PRESIDIO_ELITE || u->level == FRAY_PRESIDIO_SUPER_ELITE
				   ? FRAY_PRESIDIO_SUPER_ELITE
				   : u->level - 1;
		u->casualties = 0;
		table_note(g, "%s: two 6s: now %s, earlier casualties disregarded", u->name,
			   fray_presidio_level_names[u->level]);
	}
	if (!got[0]) {
		u->status = (int)failed_status(s, (int)got[1], w);
		table_note(g, "%s: %s", u->name, unit_status_names[u->status]);
	}
	return EXIT_OK;
}

/* ---- shooting (Sections 4 and 6) ---- */

/* Shoots u at t: the shot's inputs from both units and the player's
 * options (main: the player's options go to it), the casualties applied;
 * *cas gets them. */
static int shot(table_game *g, table_unit *u, table_unit *t, const player_opts *p, bool main, const char *band,
		const char *mode, int *cas)
{
	const fray_presidio_weapon *w = fray_presidio_weapon_find(u->weapon, NULL);
	if (!u->weapon[0] || !w || !w->reload)
		return cli_error(g->cmd, EXIT_BAD_INPUT, "%s has no weapon to fire (its 'weapon' in the game file)",
				 unit_label(u));
	const char *chosen = main ? player_value(p, "--mode") : NULL;
	if (chosen && !strcmp(chosen, "volley") && u->reload > 0)
		return cli_error(g->cmd, EXIT_BAD_INPUT, "%s cannot volley: %d reload %s left (Presidio Section 4, "
				 "Volley Fire: a volley needs the unit fully loaded; 'reload' first)",
				 unit_label(u), u->reload, u->reload == 1 ? "action" : "actions");
	const char *m = mode ? mode : chosen;
	bool volley = m && !strcmp(m, "volley");
	if (volley && (!u->line || u->status != ST_GOOD))
		return cli_error(g->cmd, EXIT_BAD_INPUT, "%s cannot volley: a volley needs the unit in line and in "
				 "good order (Presidio Section 4, Volley Fire; 'set %s line=true' when it forms line)",
				 unit_label(u), unit_label(u));
	if (main && player_flag(p, "--through-fire"))
		return cli_error(g->cmd, EXIT_BAD_INPUT, "--through-fire: a game file does not know which unit is "
				 "behind; roll it with 'fray presidio shoot'");
	step_opts o = {0};
	opts_set(&o, "--weapon", "%s", w->name);
	opts_set(&o, "--figures", "%d", u->figures);
	opts_set(&o, "--skill", "%d", u->ranged);
	opts_set(&o, "--armor", "%d", t->armor);
	opts_set(&o, "--target-figures", "%d", t->figures);
	opts_set(&o, "--specialists", "%d", t->specialists);
	opts_flag(&o, "--mounted-target", t->mounted);
	opts_flag(&o, "--line", volley);
	if (band)
		opts_set(&o, "--band", "%s", band);
	if (mode)
		opts_set(&o, "--mode", "%s", mode);
	static const char *const want[] = {"casualties", "specialists_hit", NULL};
	int64_t got[2];
	int st = table_step(g, "presidio.shoot", &o, main ? p : NULL, want, got);
	if (st != EXIT_OK)
		return st;
	/* any fire empties the guns: a volley next needs the whole reload
	 * (Section 4, Reloading) */
	u->reload = w->reload;
	t->specialists -= (int)got[1] < t->specialists ? (int)got[1] : t->specialists;
	take_casualties(g, t, (int)got[0]);
	*cas = (int)got[0];
	return EXIT_OK;
}

static int act_shoot(table_game *g, table_unit *u, table_unit *t, const player_opts *p)
{
	int st = able(g, u, "shoot");
	if (st == EXIT_OK)
		st = targetable(g, t);
	if (st != EXIT_OK)
		return st;
	if (!player_value(p, "--range") && !player_value(p, "--band"))
		return cli_error(g->cmd, EXIT_BAD_INPUT, "shoot needs --range INCHES (or --band close|medium|long)");
	int cas = 0;
	if ((st = shot(g, u, t, p, true, NULL, NULL, &cas)) != EXIT_OK)
		return st;
	/* Section 7: a unit checks morale after an action in which it took
	 * casualties (after the whole unit has fired, Section 4) */
	if (cas == 0 || t->figures == 0)
		return EXIT_OK;
	const char *range = player_value(p, "--range"), *band = player_value(p, "--band");
	morale_when w = {.cover = player_value(p, "--cover"),
			 .near_enemy = (range && strtod(range, NULL) < 4) || (band && !strcmp(band, "close"))};
	return morale_check(g, t, &w, NULL);
}

/* ---- melee (Section 5) ---- */

static const char *melee_weapon(const table_unit *u)
{
	return u->melee_weapon[0] ? u->melee_weapon : u->weapon[0] ? u->weapon : "fists";
}

/* A melee of u on t; both: the defenders strike back. charge: the
 * impact's kind, or NULL. */
static int melee_step(table_game *g, table_unit *u, table_unit *t, const player_opts *p, bool both,
		      const char *charge, int *lost_u, int *lost_t)
{
	step_opts o = {0};
	opts_set(&o, "--weapon", "%s", melee_weapon(u));
	opts_set(&o, "--figures", "%d", u->figures);
	opts_set(&o, "--skill", "%d", u->melee);
	opts_set(&o, "--armor", "%d", u->armor);
	opts_set(&o, "--defender-weapon", "%s", melee_weapon(t));
	opts_set(&o, "--defender-figures", "%d", t->figures);
	opts_set(&o, "--defender-skill", "%d", t->melee);
	opts_set(&o, "--defender-armor", "%d", t->armor);
	opts_flag(&o, "--mounted", u->mounted);
	opts_flag(&o, "--defender-mounted", t->mounted);
	opts_flag(&o, "--both", both);
	if (charge)
		opts_set(&o, "--charge", "%s", charge);
	static const char *const want[] = {"casualties", "return_casualties", NULL};
	int64_t got[2];
	int st = table_step(g, "presidio.melee", &o, p, want, got);
	if (st != EXIT_OK)
		return st;
	*lost_t = (int)got[0] < t->figures ? (int)got[0] : t->figures;
	*lost_u = (int)got[1] < u->figures ? (int)got[1] : u->figures;
	take_casualties(g, t, *lost_t);
	take_casualties(g, u, *lost_u);
	return EXIT_OK;
}

/* Melee Morale Checks: after each side has struck, the side with
 * casualties checks morale; in contact, so within 4" of the enemy. */
static int melee_morale(table_game *g, table_unit *u, table_unit *t, int lost_u, int lost_t, bool charge)
{
	int st = EXIT_OK;
	if (lost_t > 0 && t->figures > 0) {
		morale_when w = {.near_enemy = true, .charge_impact = charge};
		st = morale_check(g, t, &w, NULL);
	}
	if (st == EXIT_OK && lost_u > 0 && u->figures > 0) {
		morale_when w = {.near_enemy = true, .charging = charge};
		st = morale_check(g, u, &w, NULL);
	}
	return st;
}

static int act_melee(table_game *g, table_unit *u, table_unit *t, const player_opts *p)
{
	int st = able(g, u, "melee");
	if (st == EXIT_OK)
		st = targetable(g, t);
	int lost_u = 0, lost_t = 0;
	if (st == EXIT_OK)
		st = melee_step(g, u, t, p, player_flag(p, "--both"), NULL, &lost_u, &lost_t);
	return st == EXIT_OK ? melee_morale(g, u, t, lost_u, lost_t, false) : st;
}

/* ---- charge (Section 5, Charging) ---- */

static const char *const reactions[] = {"stand", "fire", "fire-and-flee", "flee", "melee"};
enum { R_STAND, R_FIRE, R_FIRE_FLEE, R_FLEE, R_MELEE, R_N };

/* The charge impact's DM by the chargers: on horseback with a spear or
 * lance -3, bayonets or spears -2, horse -2, foot -1. */
static const char *impact_kind(const table_unit *u)
{
	const char *w = melee_weapon(u);
	bool spear = strstr(w, "lance") || strstr(w, "spear");
	if (u->mounted)
		return spear ? "lance" : "horse";
	return spear || u->bayonets ? "bayonet" : "foot";
}

/* The defender's reaction: --reaction, else asked at a terminal (the
 * player's choice, as the interactive policy asks). */
static int reaction(table_game *g, const table_unit *t, const player_opts *p, int *out)
{
	const char *r = player_value(p, "--reaction");
	if (!r && isatty(0) && isatty(2)) {
		fprintf(stderr, "%s passed its fear-of-charge check. Its reaction (Presidio Section 5, Charge "
				"Reaction):\n  1 stand  2 fire  3 fire-and-flee  4 flee  5 melee (save an action "
				"to strike back)\nchoose 1-5: ", unit_label(t));
		char line[64];
		if (!fgets(line, sizeof line, stdin))
			return cli_error(g->cmd, EXIT_BAD_INPUT, "no reaction chosen");
		int k = atoi(line);
		if (k < 1 || k > R_N)
			return cli_error(g->cmd, EXIT_BAD_INPUT, "reaction: expected 1 to 5, got '%s'",
					 cli_tstr(strtok(line, "\n") ? line : ""));
		*out = k - 1;
		snprintf(g->asked, sizeof g->asked, " --reaction %s", reactions[k - 1]);
		return EXIT_OK;
	}
	if (!r)
		return cli_error(g->cmd, EXIT_BAD_INPUT, "charge: the defender's reaction is needed: --reaction "
				 "stand|fire|fire-and-flee|flee|melee (asked only at a terminal)");
	for (int k = 0; k < R_N; k++)
		if (!strcmp(r, reactions[k])) {
			*out = k;
			return EXIT_OK;
		}
	return cli_error(g->cmd, EXIT_BAD_INPUT, "--reaction: expected stand, fire, fire-and-flee, flee or melee, "
			 "got '%s'", cli_tstr(r));
}

static bool holds_place(int status)
{
	return status == ST_GOOD || status == ST_DISORDERED || status == ST_FLINCHED || status == ST_HUNKERED;
}

static int act_charge(table_game *g, table_unit *u, table_unit *t, const player_opts *p)
{
	int st = able(g, u, "charge");
	if (st == EXIT_OK)
		st = targetable(g, t);
	if (st != EXIT_OK)
		return st;
	/* the reaction is known before any die is rolled, so a bad one
	 * costs nothing (a script must give it: only a player at a terminal
	 * is asked, and only when the defender passes); it is used only if
	 * the defender stands its ground */
	int react = R_STAND;
	bool asked = player_value(p, "--reaction") != NULL || !isatty(0) || !isatty(2);
	if (asked && (st = reaction(g, t, p, &react)) != EXIT_OK)
		return st;
	table_note(g, "%s charges %s", u->name, t->name);
	/* Fear of Charge: the defender checks morale (+2 charged) */
	morale_when fear = {.charged = true, .cover = player_value(p, "--cover")};
	if ((st = morale_check(g, t, &fear, NULL)) != EXIT_OK)
		return st;
	bool passed = t->status == ST_GOOD || t->status == ST_DISORDERED;
	if (!passed && !holds_place(t->status)) {
		table_note(g, "the charge goes on to where %s stood; no impact", t->name);
		return EXIT_OK;
	}
	if (passed) {
		if (!asked && (st = reaction(g, t, p, &react)) != EXIT_OK)
			return st;
		table_note(g, "%s's reaction: %s", t->name, reactions[react]);
		if (react == R_FIRE || react == R_FIRE_FLEE) {
			/* defensive fire once at close range; a volley only when
			 * fully loaded in line, else independent fire */
			int cas = 0;
			bool volley = react == R_FIRE && t->line && t->reload == 0 && t->status == ST_GOOD;
			if ((st = shot(g, t, u, p, false, "close", volley ? "volley" : "independent", &cas)) != EXIT_OK)
				return st;
			if (cas > 0 && u->figures > 0) {
				/* chargers that fail fall back, retreat or panic
				 * from 4" away */
				morale_when w = {.charging = true};
				if ((st = morale_check(g, u, &w, NULL)) != EXIT_OK)
					return st;
				if (u->status != ST_GOOD && u->status != ST_DISORDERED) {
					table_note(g, "the charge stops 4\" short");
					return EXIT_OK;
				}
			}
			if (u->figures == 0)
				return EXIT_OK;
		}
		if (react == R_FIRE_FLEE || react == R_FLEE) {
			table_note(g, "%s moves away (not a failed check); no impact", t->name);
			return EXIT_OK;
		}
	}
	/* Charge Impact: the chargers strike with the impact DM; a defender
	 * that saved an action strikes back */
	int lost_u = 0, lost_t = 0;
	st = melee_step(g, u, t, p, passed && react == R_MELEE, impact_kind(u), &lost_u, &lost_t);
	return st == EXIT_OK ? melee_morale(g, u, t, lost_u, lost_t, true) : st;
}

/* ---- morale, rally and reload by hand ---- */

static int act_morale(table_game *g, table_unit *u, table_unit *t, const player_opts *p)
{
	(void)t;
	if (u->figures <= 0 || u->status == ST_SURRENDERED)
		return cli_error(g->cmd, EXIT_BAD_INPUT, "%s is out of the fight", unit_label(u));
	morale_when w = {.charged = player_flag(p, "--charged"), .charging = player_flag(p, "--charging"),
			 .charge_impact = player_flag(p, "--charge-impact"), .near_enemy = player_flag(p, "--near-enemy"),
			 .cover = player_value(p, "--cover")};
	return morale_check(g, u, &w, p);
}

static int act_rally(table_game *g, table_unit *u, table_unit *t, const player_opts *p)
{
	(void)t;
	if (u->status != ST_PANICKED)
		return cli_error(g->cmd, EXIT_BAD_INPUT, "%s is %s, not panicked: only a panicked unit rallies "
				 "(Presidio Section 2, ruling R17)", unit_label(u), unit_status_names[u->status]);
	step_opts o = {0};
	opts_set(&o, "--leader", "%d", u->leader);
	static const char *const want[] = {"rallied", NULL};
	int64_t got[1];
	int st = table_step(g, "presidio.rally", &o, p, want, got);
	if (st == EXIT_OK && got[0]) {
		/* rallied: in a clump, so disordered (Section 3, Disorder) */
		u->status = ST_DISORDERED;
		table_note(g, "%s: rallied, disordered", u->name);
	}
	return st;
}

static int act_reload(table_game *g, table_unit *u, table_unit *t, const player_opts *p)
{
	(void)t;
	const char *v = player_value(p, "--actions");
	int n = v ? atoi(v) : 1;
	if (n < 1 || n > 20)
		return cli_error(g->cmd, EXIT_BAD_INPUT, "--actions: expected 1 to 20");
	if (u->reload == 0)
		return cli_error(g->cmd, EXIT_BAD_INPUT, "%s is fully loaded already", unit_label(u));
	u->reload = n >= u->reload ? 0 : u->reload - n;
	table_note(g, "%s: reloads %d %s: %s", u->name, n, n == 1 ? "action" : "actions",
		   u->reload ? "still reloading" : "fully loaded");
	return EXIT_OK;
}

static const table_action presidio_actions[] = {
	{"shoot", true, "UNIT --at TARGET --range IN [shoot options]: fire, then the target's morale", act_shoot},
	{"melee", true, "UNIT --at TARGET [--both] [melee options]: a melee, then morale", act_melee},
	{"charge", true, "UNIT --at TARGET [--reaction R] [--cover C]: fear of charge, reaction, impact, morale",
	 act_charge},
	{"morale", false, "UNIT [morale options]: a morale check (friends falling back, ...)", act_morale},
	{"rally", false, "UNIT: a panicked unit rallies", act_rally},
	{"reload", false, "UNIT [--actions N]: reloading actions after firing", act_reload},
};

const table_action *table_presidio_actions(size_t *n)
{
	*n = sizeof presidio_actions / sizeof *presidio_actions;
	return presidio_actions;
}
