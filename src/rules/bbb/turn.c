/* A Bloody Big Battles unit's turn (sheet: Sequence of Play Summary):
 * "First Player Unit Movement, First Player Generals, Defensive Fire by
 * Second Player, Offensive Fire by First Player, Assault by First
 * Player", then the same for the second player. Each phase comes once in
 * a player's turn, and a unit acts in it once: fray's BBB `turn` is a
 * player's turn, in which a unit moves, fires and assaults at most once
 * each, in the phases' order. The game keeps what a unit did and asks
 * here before it rolls (table_bbb.c). */
#include <stdio.h>
#include "../../common/text.h"
#include "../../core/internal.h"
#include <fray/bbb.h>

FRAY_API const char *const fray_bbb_action_names[FRAY_BBB_NACTIONS] = {"move", "fire", "assault"};

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
