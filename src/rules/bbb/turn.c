/* A Bloody Big Battles unit's turn (sheet: Sequence of Play Summary):
 * "First Player Unit Movement, First Player Generals, Defensive Fire by
 * Second Player, Offensive Fire by First Player, Assault by First
 * Player", then the same for the second player. Each phase comes once in
 * a player's turn, and a unit acts in it once: fray's BBB `turn` is a
 * player's turn, in which a unit moves, fires and assaults at most once
 * each, in the phases' order; the game keeps the phase and the moving
 * player, and only the phase's side acts in it. The game keeps what a
 * unit did and asks here before it rolls (table_bbb.c). */
#include <stdio.h>
#include "../../common/text.h"
#include "../../core/internal.h"
#include <fray/bbb.h>

FRAY_API const char *const fray_bbb_action_names[FRAY_BBB_NACTIONS] = {"move", "fire", "assault"};

FRAY_API const char *const fray_bbb_phase_names[FRAY_BBB_NPHASES] = {"movement", "generals", "defensive-fire",
								    "offensive-fire", "assault"};
FRAY_API const char *const fray_bbb_phase_titles[FRAY_BBB_NPHASES] = {"Unit Movement", "Generals", "Defensive Fire",
								     "Offensive Fire", "Assault"};

FRAY_API int fray_bbb_action_phase(fray_bbb_action a, bool moving)
{
	switch (a) {
	case FRAY_BBB_DO_MOVE: return moving ? FRAY_BBB_MOVEMENT : -1;
	case FRAY_BBB_DO_FIRE: return moving ? FRAY_BBB_OFFENSIVE_FIRE : FRAY_BBB_DEFENSIVE_FIRE;
	case FRAY_BBB_DO_ASSAULT: return moving ? FRAY_BBB_ASSAULT : -1;
	}
	return -1;
}

/* The phase's side: an action out of the phase the Sequence of Play
 * gives it for the unit's side, or by the side that has none. */
static const char *out_of_phase(const fray_bbb_turn *t, fray_bbb_action a)
{
	int phase = fray_bbb_action_phase(a, t->moving);
	if (phase == (int)t->phase)
		return NULL;
	if (phase < 0)
		return a == FRAY_BBB_DO_MOVE ? "only the moving player's units move: Unit Movement is the moving "
					       "player's phase, and the other player's units only fire, in Defensive "
					       "Fire (BBB Sequence of Play)"
					     : "only the moving player's units assault: \"Assault by First Player\", and the "
					       "other player's units only fire, in Defensive Fire (BBB Sequence of Play)";
	static const char *const when[FRAY_BBB_NPHASES] = {
		"its side's units move in Unit Movement, the first phase of their player's turn (BBB Sequence of Play)",
		"",
		"the other player's units fire in Defensive Fire, after the moving player's Unit Movement and Generals "
		"and before its Offensive Fire (BBB Sequence of Play)",
		"the moving player's units fire in Offensive Fire, after the other player's Defensive Fire and before "
		"the Assault (BBB Sequence of Play)",
		"the moving player's units assault in the Assault, the last phase of its turn, after Offensive Fire "
		"(BBB Sequence of Play)"};
	return when[phase];
}

FRAY_API const char *fray_bbb_action_refused(const fray_bbb_turn *t, fray_bbb_action a)
{
	static const char *const again[FRAY_BBB_NACTIONS] = {
		"it has moved this turn: one Unit Movement phase a turn, and a unit moves once in it (BBB Sequence "
		"of Play)",
		"it has fired this turn: one fire phase a turn for each side (its Offensive Fire, or Defensive Fire "
		"in the other player's turn), and a unit fires once in it (BBB Sequence of Play)",
		"it has assaulted this turn: one Assault phase a turn, and a unit assaults once in it (BBB Sequence "
		"of Play)"};
	if ((unsigned)a >= FRAY_BBB_NACTIONS)
		return "not an action of Bloody Big Battles'";
	const char *why = t->phased ? out_of_phase(t, a) : NULL;
	if (why)
		return why;
	if (t->done[a])
		return again[a];
	/* a later phase the unit has acted in (actions in the phases' order:
	 * movement, fire, assault): its earlier ones are over */
	for (int later = FRAY_BBB_NACTIONS - 1; later > (int)a; later--)
		if (t->done[later]) {
			if (a == FRAY_BBB_DO_MOVE && later == FRAY_BBB_DO_FIRE)
				return "it has fired this turn: the Unit Movement phase comes before the fire phases "
				       "(BBB Sequence of Play), so it moves no more this turn";
			if (a == FRAY_BBB_DO_MOVE)
				return "it has assaulted this turn: the Unit Movement phase comes before the Assault "
				       "(BBB Sequence of Play), so it moves no more this turn";
			return "it has assaulted this turn: the fire phases come before the Assault (BBB Sequence "
			       "of Play), so it fires no more this turn";
		}
	return NULL;
}

FRAY_API void fray_bbb_turn_take(fray_bbb_turn *t, fray_bbb_action a)
{
	if ((unsigned)a < FRAY_BBB_NACTIONS)
		t->done[a] = true;
}

FRAY_API void fray_bbb_turn_text(const fray_bbb_turn *t, char *dst, size_t cap)
{
	textbuf words = text_on(dst, cap);
	for (int a = 0; a < FRAY_BBB_NACTIONS; a++)
		if (t->done[a])
			text_add(&words, "%s%s", words.len ? ", " : "", fray_bbb_action_names[a]);
}
