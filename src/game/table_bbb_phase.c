/* Bloody Big Battles' game-wide phase (sheet: Sequence of Play Summary):
 * the moving player, the phase of its turn and which half of the game
 * turn it is (the first player's or the second's), kept in the game file
 * (moving, phase, half), read back, shown by status, and advanced by
 * `next`, `phase` and `turn`; the game's turn counts game turns, each
 * both players' turns. Which unit may act in a phase is the rules'
 * (fray_bbb_action_refused); this file keeps the phase. docs/bbb.md. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ruleset.h"
#include "../common/text.h"

const char *const frayi_bbb_state_keys[3] = {"moving", "phase", "half"};
static const char *const half_names[2] = {"first", "second"};

/* The sides in the order the units first name them (at most cap). */
static size_t sides_of(const table_game *g, const char **sides, size_t cap)
{
	size_t n = 0;
	for (size_t i = 0; i < g->nunits; i++) {
		size_t k = 0;
		while (k < n && strcmp(sides[k], g->units[i].side))
			k++;
		if (k == n && n < cap)
			sides[n++] = g->units[i].side;
	}
	return n;
}

/* The side after side in the units' order, round (the second player
 * after the first; the first after the second). */
static const char *side_after(const table_game *g, const char *side)
{
	const char *sides[TABLE_MAX_UNITS];
	size_t n = sides_of(g, sides, TABLE_MAX_UNITS);
	for (size_t k = 0; k < n; k++)
		if (!strcmp(sides[k], side))
			return sides[(k + 1) % n];
	return n ? sides[0] : "";
}

void frayi_bbb_state_read(const table_game *g, fray_doc *doc, const fray_node *map, bool fresh, void *state)
{
	bbb_state *st = state;
	memset(st, 0, sizeof *st);
	const fray_node *mv = fray_map_get(map, "moving"), *ph = fray_map_get(map, "phase");
	const fray_node *hf = fray_map_get(map, "half");
	const char *side = NULL;
	size_t phase = FRAY_BBB_MOVEMENT, half = 0;
	if (hf && fresh) {
		fray_doc_error(doc, hf, "half: a new game begins at turn 1, the first player's turn (moving: SIDE names "
			       "the first player)");
		return;
	}
	if (hf && !fray_doc_enum(doc, hf, "half", half_names, 2, &half))
		return;
	st->second = half == 1;
	if (!hf && !fresh) {
		/* a file from before `half` counted each player's turn from 1,
		 * the first player's: its odd turns are the first player's
		 * (frayi_bbb_turn_read makes the count game turns) */
		const char *t = fray_node_scalar(fray_map_get(map, "turn"));
		long n = t ? strtol(t, NULL, 10) : 1;
		st->counted_halves = true;
		st->second = n >= 1 && n % 2 == 0;
	}
	if (!mv && !ph && !fresh)
		return; /* a game file from before fray kept them: none kept */
	/* a game file or an undo record keeps both or neither */
	if (!fresh && (!mv || !ph)) {
		fray_doc_error(doc, mv ? mv : ph, "%s: a game keeps moving and phase together: give both, or neither "
			       "(a game file from before them)", mv ? "moving" : "phase");
		return;
	}
	if (mv && fray_doc_string(doc, mv, "moving", &side)) {
		const char *sides[TABLE_MAX_UNITS];
		size_t n = sides_of(g, sides, TABLE_MAX_UNITS), k = 0;
		while (k < n && strcmp(sides[k], side))
			k++;
		if (k == n) {
			char words[256];
			textbuf t = text_on(words, sizeof words);
			for (size_t i = 0; i < n; i++)
				text_add(&t, "%s%s", i ? (i + 1 == n ? " or " : ", ") : "", sides[i]);
			fray_doc_error(doc, mv, "moving: expected the side of a unit (%s), got '%.48s'", words, side);
			return;
		}
	} else if (mv) {
		return;
	}
	if (ph && !fray_doc_enum(doc, ph, "phase", fray_bbb_phase_names, FRAY_BBB_NPHASES, &phase))
		return;
	st->kept = true;
	st->phase = (int)phase;
	/* a new game: the forces file's moving side, or its first unit's */
	snprintf(st->moving, sizeof st->moving, "%s", side ? side : g->nunits ? g->units[0].side : "");
}

void frayi_bbb_state_write(FILE *f, const table_game *g, const void *state, bool yaml)
{
	(void)g;
	const bbb_state *st = state;
	fprintf(f, yaml ? "half: %s\n" : ", \"half\": \"%s\"", half_names[st->second]);
	if (!st->kept)
		return;
	fputs(yaml ? "moving: " : ", \"moving\": ", f);
	frayi_json_string(f, st->moving);
	fprintf(f, yaml ? "\nphase: %s\n" : ", \"phase\": \"%s\"", fray_bbb_phase_names[st->phase]);
}

/* Who acts in the phase, in words: "Union's units move". */
static void who_acts(const table_game *g, const bbb_state *st, char *dst, size_t cap)
{
	const char *other = side_after(g, st->moving);
	switch (st->phase) {
	case FRAY_BBB_MOVEMENT: snprintf(dst, cap, "%s's units move", st->moving); break;
	case FRAY_BBB_GENERALS: snprintf(dst, cap, "%s's generals: no roll", st->moving); break;
	case FRAY_BBB_DEFENSIVE_FIRE: snprintf(dst, cap, "%s's units fire", other); break;
	case FRAY_BBB_OFFENSIVE_FIRE: snprintf(dst, cap, "%s's units fire", st->moving); break;
	default: snprintf(dst, cap, "%s's units assault", st->moving); break;
	}
}

void frayi_bbb_state_words(const table_game *g, char *dst, size_t cap)
{
	const bbb_state *st = BBB_STATE_OF(g);
	if (!st->kept) {
		snprintf(dst, cap, "the %s player's turn, no phase kept (a game file from before fray kept them: 'phase "
			 "NAME --moving SIDE' says where the turn is)", half_names[st->second]);
		return;
	}
	char who[TABLE_NAME_MAX + 40];
	who_acts(g, st, who, sizeof who);
	snprintf(dst, cap, "%s's turn (the %s player's), %s (%s)", st->moving, half_names[st->second],
		 fray_bbb_phase_titles[st->phase], who);
}

/* The end of a phase: the Unit Movement's ends the moving player's
 * units' movement ("Silenced marker is removed at end of Movement
 * phase", Silenced Artillery). */
static void phase_over(table_game *g)
{
	bbb_state *st = BBB_STATE_OF(g);
	if (st->phase != FRAY_BBB_MOVEMENT)
		return;
	for (size_t i = 0; i < g->nunits; i++) {
		table_unit *u = &g->units[i];
		if (strcmp(u->side, st->moving) || u->status == ST_DESTROYED || !BBB_OF(u)->silenced)
			continue;
		BBB_OF(u)->silenced = false;
		frayi_table_note(g, "%s: no longer silenced (the Unit Movement phase is over)", u->name);
	}
}

static void phase_begins(table_game *g)
{
	const bbb_state *st = BBB_STATE_OF(g);
	char who[TABLE_NAME_MAX + 40];
	who_acts(g, st, who, sizeof who);
	frayi_table_note(g, "%s of %s's turn begins: %s", fray_bbb_phase_titles[st->phase], st->moving, who);
}

/* A player's turn ends: after the first player's the second player's
 * turn of the same game turn begins; after the second's, the next game
 * turn (frayi_bbb_turn_goes_on tells the game which). */
int frayi_bbb_turn_over(table_game *g)
{
	bbb_state *st = BBB_STATE_OF(g);
	st->second = !st->second;
	if (st->kept) {
		phase_over(g);
		frayi_table_note(g, "%s's turn ends", st->moving);
		snprintf(st->moving, sizeof st->moving, "%s", side_after(g, st->moving));
		st->phase = FRAY_BBB_MOVEMENT;
		phase_begins(g);
	}
	if (st->second)
		frayi_table_note(g, "turn %d goes on: the second player's turn", g->turn);
	return FRAY_OK;
}

bool frayi_bbb_turn_goes_on(const table_game *g)
{
	return BBB_STATE_OF(g)->second;
}

int frayi_bbb_turn_read(const void *state, int turn)
{
	const bbb_state *st = state;
	return st->counted_halves ? (turn + 1) / 2 : turn;
}

const char *frayi_bbb_play_idle(const table_game *g)
{
	return BBB_STATE_OF(g)->kept ? "next" : "turn";
}

static int not_kept(table_game *g, const char *what)
{
	return frayi_game_fail(g, FRAY_ERR_INPUT, "%s: this game keeps no phase (a game file from before fray kept "
			       "them): 'phase NAME --moving SIDE' says where the turn is (BBB Sequence of Play)", what);
}

/* next: the phase ends and the next begins; after the Assault, the
 * player's turn ends (as `turn`) and the other player's Unit Movement
 * begins. */
static int act_next(table_game *g, int argc, char *const *argv)
{
	(void)argv;
	bbb_state *st = BBB_STATE_OF(g);
	if (argc)
		return frayi_game_fail(g, FRAY_ERR_INPUT, "next takes nothing more (phase NAME goes to a phase)");
	if (!st->kept)
		return not_kept(g, "next");
	if (st->phase == FRAY_BBB_ASSAULT)
		return frayi_table_turn(g);
	phase_over(g);
	st->phase++;
	phase_begins(g);
	return FRAY_OK;
}

/* phase NAME: forward to that phase of this player's turn, the phases
 * between ending in order; phase NAME --moving SIDE: the players' word
 * on where the turn is (as set is on a unit), which also starts keeping
 * the phase in a game file from before it. */
static int act_phase(table_game *g, int argc, char *const *argv)
{
	bbb_state *st = BBB_STATE_OF(g);
	const char *usage = "phase movement|generals|defensive-fire|offensive-fire|assault [--moving SIDE]";
	if (argc != 1 && !(argc == 3 && !strcmp(argv[1], "--moving")))
		return frayi_game_fail(g, FRAY_ERR_INPUT, "phase: expected %s", usage);
	int to = -1;
	for (int p = 0; p < FRAY_BBB_NPHASES; p++)
		if (!strcmp(argv[0], fray_bbb_phase_names[p]))
			to = p;
	if (to < 0)
		return frayi_game_fail_input(g, FRAY_ERR_INPUT, "phase", "phase: no phase '%.48s': expected %s",
					     argv[0], usage);
	if (argc == 3) {
		const char *sides[TABLE_MAX_UNITS];
		size_t n = sides_of(g, sides, TABLE_MAX_UNITS), k = 0;
		while (k < n && strcmp(sides[k], argv[2]))
			k++;
		if (k == n)
			return frayi_game_fail(g, FRAY_ERR_INPUT, "phase: --moving: no side '%.48s' in the game", argv[2]);
		st->kept = true;
		st->phase = to;
		snprintf(st->moving, sizeof st->moving, "%s", sides[k]);
		frayi_table_note(g, "the players say: %s of %s's turn", fray_bbb_phase_titles[to], st->moving);
		return FRAY_OK;
	}
	if (!st->kept)
		return not_kept(g, "phase");
	if (to <= st->phase)
		return frayi_game_fail(g, FRAY_ERR_INPUT, "phase %s: the turn is at %s, and phases go forward (BBB "
				       "Sequence of Play): 'turn' ends %s's turn, 'undo' takes an action back",
				       argv[0], fray_bbb_phase_titles[st->phase], st->moving);
	while (st->phase < to) {
		phase_over(g);
		st->phase++;
		phase_begins(g);
	}
	return FRAY_OK;
}

const game_action frayi_bbb_game_actions[2] = {
	{"next", "next: the phase ends and the next begins (after the Assault, the other player's turn)", act_next},
	{"phase", "phase NAME [--moving SIDE]: forward to the phase NAME of this player's turn; with --moving, the "
		  "players' word on where the turn is", act_phase},
};
