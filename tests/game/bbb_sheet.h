/* The BBB game tests' model of the sheet's Sequence of Play Summary,
 * written from the sheet, not from fray's query: "First Player Unit
 * Movement, First Player Generals, Defensive Fire by Second Player,
 * Offensive Fire by First Player, Assault by First Player". Include
 * after cmocka.h, test_util.h and game_test.h. */
#ifndef FRAY_TEST_BBB_SHEET_H
#define FRAY_TEST_BBB_SHEET_H

#include <stdbool.h>

enum kind { MOVE, FIRE, ASSAULT, NKINDS };
static const char *const kind_names[NKINDS] = {"move", "fire", "assault"};
enum phase { MOVEMENT, GENERALS, DEFENSIVE, OFFENSIVE, ASSAULTS, NPHASES };
/* the phase words a game file and `phase` take (docs/bbb.md) */
static const char *const phase_words[NPHASES] = {"movement", "generals", "defensive-fire", "offensive-fire",
						 "assault"};

/* Which action the moving player's units (moving) and the other
 * player's take in each phase. */
static inline bool sheet_allows(enum phase p, bool moving, enum kind k)
{
	static const bool first[NPHASES][NKINDS] = {
		[MOVEMENT] = {[MOVE] = true},          /* First Player Unit Movement */
		[GENERALS] = {false},                  /* First Player Generals */
		[DEFENSIVE] = {false},                 /* Defensive Fire by Second Player */
		[OFFENSIVE] = {[FIRE] = true},         /* Offensive Fire by First Player */
		[ASSAULTS] = {[ASSAULT] = true}};      /* Assault by First Player */
	static const bool second[NPHASES][NKINDS] = {[DEFENSIVE] = {[FIRE] = true}};
	return moving ? first[p][k] : second[p][k];
}

/* Each phase comes once in a player's turn: a unit acts in each at most
 * once, and not in a phase that comes before one it has acted in. */
static inline bool model_allows(const bool *done, enum kind k)
{
	if (done[k])
		return false;
	for (int later = (int)k + 1; later < NKINDS; later++)
		if (done[later])
			return false;
	return true;
}

static inline fray_status do_kind(fray_game *g, const char *unit, const char *target, enum kind k)
{
	switch (k) {
	case MOVE:
		return game_act(g, (const char *const[]){"move", unit, NULL});
	case FIRE:
		return game_act(g, (const char *const[]){"fire", unit, "--at", target, "--range", "5", NULL});
	default:
		return game_act(g, (const char *const[]){"assault", unit, "--at", target, NULL});
	}
}

/* X acts on T; A moves first (its unit is listed first); both have
 * bases enough to outlast a turn (a good-order unit's movement roll
 * never breaks it), and nothing fires at X while it advances. */
static const char bbb_forces[] = "rules: bbb\n"
				 "units:\n"
				 "  - {name: X, side: A, arm: infantry, training: trained, weapons: RR, bases: 20}\n"
				 "  - {name: T, side: B, arm: infantry, training: trained, weapons: RR, bases: 20}\n";

/* A new game of forces (a forces file's text) from seed. */
static inline fray_game *bbb_game(const char *forces, uint64_t seed)
{
	fray_game *g = NULL;
	if (fray_game_new(ctx, "bbb.yaml", "bbb", "bbb-forces.yaml", forces, strlen(forces), seed, NULL, NULL, &g) !=
	    FRAY_OK)
		fail_msg("new: %s", fray_ctx_message(ctx));
	return g;
}

#endif
