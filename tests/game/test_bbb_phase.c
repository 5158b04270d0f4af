/* Bloody Big Battles' game-wide phases, against a model of the sheet
 * written here, not fray's query. The Sequence of Play Summary: "First
 * Player Unit Movement, First Player Generals, Defensive Fire by Second
 * Player, Offensive Fire by First Player, Assault by First Player", then
 * the same with the players swapped. So in a player's turn only the moving
 * player's units move (Unit Movement), fire in Offensive Fire and assault
 * (Assault); the other player's units only fire, in Defensive Fire; and
 * the Generals phase has no unit action (the sheet gives it no roll).
 * `next` ends a phase, `phase NAME` goes forward to one, `turn` (or
 * `next` after the Assault) gives the other player its turn. A refused
 * action names the rule and writes nothing; advise lists, and play takes,
 * only what the sheet allows. docs/bbb.md, "The phases of a turn". */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "../test_util.h"
#include "game_test.h"
#include "bbb_sheet.h"

/* The game's phase and moving side as status --json gives them. */
static void where(const fray_game *g, char *phase, char *moving, size_t cap)
{
	fray_doc *d = game_status_doc(g);
	const char *p = fray_node_scalar(fray_map_get(fray_doc_root(d), "phase"));
	const char *m = fray_node_scalar(fray_map_get(fray_doc_root(d), "moving"));
	snprintf(phase, cap, "%s", p ? p : "(none)");
	snprintf(moving, cap, "%s", m ? m : "(none)");
	fray_doc_free(d);
}

static void assert_at(const fray_game *g, const char *phase, const char *moving)
{
	char p[64], m[64];
	where(g, p, m, sizeof p);
	if (strcmp(p, phase) || strcmp(m, moving))
		fail_msg("the game is at %s of %s's turn, expected %s of %s's", p, m, phase, moving);
}

/* What the game offers unit i (fray_game_actions, which play and
 * fray_game_targets ask, and advise's list) against the sheet. */
static void offers_match(fray_game *g, size_t i, const char *name, enum phase p, bool moving, const bool *done)
{
	const char *names[8];
	size_t n = fray_game_actions(g, i, names, 8);
	char *text = NULL;
	assert_int_equal(fray_game_advise(g, name, "hold", 0, NULL, FRAY_FORMAT_JSON, &text), FRAY_OK);
	for (int k = 0; k < NKINDS; k++) {
		bool want = sheet_allows(p, moving, (enum kind)k) && !done[k], listed = false;
		for (size_t j = 0; j < n; j++)
			listed |= !strcmp(names[j], kind_names[k]);
		if (listed != want)
			fail_msg("%s in %s: fray_game_actions %s %s; the sheet %s it", name, phase_words[p],
				 listed ? "lists" : "leaves out", kind_names[k], want ? "allows" : "rules out");
		char key[40];
		snprintf(key, sizeof key, "\"action\": \"%s\"", kind_names[k]);
		if ((strstr(text, key) != NULL) != want)
			fail_msg("%s in %s: advise %s %s; the sheet %s it", name, phase_words[p],
				 strstr(text, key) ? "lists" : "leaves out", kind_names[k], want ? "allows" : "rules out");
	}
	free(text);
}

/* Every phase of the first player's turn, each of both units' actions:
 * accepted as the sheet says (and once: the same action again in the
 * phase refused), else refused with the unit and the rule named and
 * nothing written. The phases reached by `next`, and by `phase NAME`. */
static void every_phase_and_side(void **state)
{
	(void)state;
	int accepted = 0, refused = 0;
	for (int how = 0; how < 2; how++)
		for (int p = 0; p < NPHASES; p++)
			for (int who = 0; who < 2; who++)
				for (int k = 0; k < NKINDS; k++) {
					fray_game *g = bbb_game(bbb_forces, 40 + (uint64_t)(p * 10 + who * 3 + k));
					if (how == 0)
						for (int s = 0; s < p; s++)
							assert_int_equal(game_act(g, (const char *const[]){"next", NULL}), FRAY_OK);
					else if (p > 0)
						assert_int_equal(game_act(g, (const char *const[]){"phase", phase_words[p],
												    NULL}), FRAY_OK);
					assert_at(g, phase_words[p], "A");
					const char *unit = who ? "T" : "X", *target = who ? "X" : "T";
					bool moving = who == 0, none[NKINDS] = {false};
					offers_match(g, (size_t)who, unit, (enum phase)p, moving, none);
					bool want = sheet_allows((enum phase)p, moving, (enum kind)k);
					for (int again = 0; again < 2; again++) {
						char *before = game_saved(g);
						fray_status st = do_kind(g, unit, target, (enum kind)k);
						if (want && !again) {
							if (st != FRAY_OK)
								fail_msg("%s's %s in %s refused: %s", unit, kind_names[k],
									 phase_words[p], fray_ctx_message(ctx));
							accepted++;
						} else {
							if (st != FRAY_ERR_INPUT)
								fail_msg("%s's %s in %s accepted%s", unit, kind_names[k],
									 phase_words[p], again ? " twice" : "");
							const char *m = fray_ctx_message(ctx);
							char who_says[32];
							snprintf(who_says, sizeof who_says, "%s cannot %s", unit, kind_names[k]);
							if (!strstr(m, who_says) || !strstr(m, "BBB Sequence of Play"))
								fail_msg("the refusal does not name the unit and the rule: %s", m);
							fray_ctx_clear(ctx);
							char *after = game_saved(g);
							assert_string_equal(before, after);
							free(after);
							refused++;
						}
						free(before);
						if (!want)
							break;
					}
					fray_game_free(g);
				}
	/* 2 ways x (4 allowed + 26 refused + 4 repeats) */
	assert_int_equal(accepted, 2 * 4);
	assert_int_equal(refused, 2 * (26 + 4));
}

/* next runs the phases in the sheet's order; after the Assault it gives
 * the other player its turn (as turn does, from any phase), and the
 * sheet's table swaps sides with it. */
static void next_and_turn(void **state)
{
	(void)state;
	fray_game *g = bbb_game(bbb_forces, 3);
	const char *order[] = {"A", "B", "A"};
	for (int t = 0; t < 3; t++)
		for (int p = 0; p < NPHASES; p++) {
			assert_at(g, phase_words[p], order[t]);
			bool none[NKINDS] = {false};
			offers_match(g, 0, "X", (enum phase)p, !strcmp(order[t], "A"), none);
			offers_match(g, 1, "T", (enum phase)p, !strcmp(order[t], "B"), none);
			assert_int_equal(game_act(g, (const char *const[]){"next", NULL}), FRAY_OK);
		}
	/* three player's turns, A's, B's and A's: the game turn is 2, the
	 * Sequence of Play's game turn being both players' turns */
	assert_int_equal(fray_game_turn(g), 2);
	/* turn from the middle of a player's turn: the other player moves */
	assert_int_equal(game_act(g, (const char *const[]){"phase", "defensive-fire", NULL}), FRAY_OK);
	assert_int_equal(game_act(g, (const char *const[]){"turn", NULL}), FRAY_OK);
	assert_at(g, "movement", "A");
	/* the phases go forward: back is refused, nothing written */
	assert_int_equal(game_act(g, (const char *const[]){"phase", "offensive-fire", NULL}), FRAY_OK);
	static const char *const back[] = {"movement", "defensive-fire", "offensive-fire", "charge"};
	for (size_t i = 0; i < sizeof back / sizeof *back; i++) {
		char *before = game_saved(g);
		assert_int_equal(game_act(g, (const char *const[]){"phase", back[i], NULL}), FRAY_ERR_INPUT);
		fray_ctx_clear(ctx);
		char *after = game_saved(g);
		assert_string_equal(before, after);
		free(before);
		free(after);
	}
	/* undo takes a phase back as it takes an action back */
	assert_int_equal(fray_game_undo(g), FRAY_OK);
	assert_at(g, "movement", "A");
	assert_int_equal(fray_game_undo(g), FRAY_OK);
	assert_at(g, "defensive-fire", "B");
	fray_game_free(g);
}

/* "Silenced marker is removed at end of Movement phase" (Silenced
 * Artillery): the moving player's guns, when its Unit Movement ends,
 * whether or not they moved; not the other player's. */
static void silenced_until_movement_ends(void **state)
{
	(void)state;
	static const char guns[] = "rules: bbb\n"
				   "units:\n"
				   "  - {name: G, side: A, arm: artillery, weapons: RA, bases: 1, silenced: true}\n"
				   "  - {name: H, side: B, arm: artillery, weapons: RA, bases: 1, silenced: true}\n";
	fray_game *g = bbb_game(guns, 5);
	assert_int_equal(game_act(g, (const char *const[]){"next", NULL}), FRAY_OK);
	char *s = game_unit_field(g, "G", "silenced"), *t = game_unit_field(g, "H", "silenced");
	assert_string_equal(s, "false");
	assert_string_equal(t, "true");
	free(s);
	free(t);
	/* H, silenced, may not fire in its Defensive Fire */
	assert_int_equal(game_act(g, (const char *const[]){"next", NULL}), FRAY_OK);
	assert_int_equal(do_kind(g, "H", "G", FIRE), FRAY_ERR_INPUT);
	fray_ctx_clear(ctx);
	/* B's turn from its Unit Movement: turn ends it too */
	assert_int_equal(game_act(g, (const char *const[]){"turn", NULL}), FRAY_OK);
	assert_at(g, "movement", "B");
	assert_int_equal(game_act(g, (const char *const[]){"turn", NULL}), FRAY_OK);
	t = game_unit_field(g, "H", "silenced");
	assert_string_equal(t, "false");
	free(t);
	fray_game_free(g);
}

/* Replace the first "from" in text with "to" (malloc'd). */
static char *replaced(const char *text, const char *from, const char *to)
{
	const char *at = strstr(text, from);
	if (!at)
		fail_msg("no '%s' in the game file", from);
	size_t n = strlen(text) + strlen(to) + 1;
	char *out = malloc(n);
	assert_non_null(out);
	snprintf(out, n, "%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
	return out;
}

/* Where the game turn is, as status --json and status give it: the
 * counter, whose half ("first", "second"), the moving side; and status's
 * first line names the turn and the player. */
static void assert_turn(const fray_game *g, int turn, const char *half, const char *moving)
{
	fray_doc *d = game_status_doc(g);
	const fray_node *root = fray_doc_root(d);
	const char *h = fray_node_scalar(fray_map_get(root, "half"));
	const char *m = fray_node_scalar(fray_map_get(root, "moving"));
	const char *t = fray_node_scalar(fray_map_get(root, "turn"));
	if (fray_game_turn(g) != turn || !t || atoi(t) != turn || !h || strcmp(h, half) || (moving && (!m || strcmp(m, moving))))
		fail_msg("the game is at turn %d (status: %s), the %s player's, %s moving; expected turn %d, the %s "
			 "player's, %s moving", fray_game_turn(g), t ? t : "-", h ? h : "-", m ? m : "-", turn, half,
			 moving ? moving : "-");
	fray_doc_free(d);
	char *text = NULL, line[160];
	assert_int_equal(fray_game_status(g, "text", &text), FRAY_OK);
	snprintf(line, sizeof line, "bbb game, turn %d: ", turn);
	if (strncmp(text, line, strlen(line)))
		fail_msg("status's first line does not begin '%s': %.120s", line, text);
	snprintf(line, sizeof line, "the %s player's", half);
	if (!strstr(text, line) || strstr(text, line) > strchr(text, '\n'))
		fail_msg("status's first line does not say '%s': %.160s", line, text);
	free(text);
}

/* The Sequence of Play Summary's game turn is "First Player Unit Movement
 * ... Assault by First Player" then "Second Player Unit Movement ...
 * Assault by Second Player": the turn counts game turns, one for every two
 * player's turns, however a player's turn ends (`turn` from any phase,
 * `next` after the Assault, `phase assault` then `next`), and the game
 * says whose half it is. The phase kept or not, the count is the same. */
static void game_turns_count_both_players(void **state)
{
	(void)state;
	for (int kept = 1; kept >= 0; kept--) {
		fray_game *g = bbb_game(bbb_forces, 4);
		if (!kept) {
			/* a game file from before the phase: no moving, no phase */
			char *text = game_saved(g), *a = replaced(text, "moving: \"A\"\n", "");
			char *old = replaced(a, "phase: movement\n", "");
			fray_game_free(g);
			g = NULL;
			assert_int_equal(fray_game_load(ctx, "turn.yaml", old, strlen(old), &g), FRAY_OK);
			free(text);
			free(a);
			free(old);
		}
		for (int ended = 0; ended <= 7; ended++) {
			const char *half = ended % 2 ? "second" : "first";
			assert_turn(g, ended / 2 + 1, half, !kept ? NULL : ended % 2 ? "B" : "A");
			if (ended == 7)
				break;
			if (!kept || ended % 3 == 0) {
				assert_int_equal(game_act(g, (const char *const[]){"turn", NULL}), FRAY_OK);
			} else if (ended % 3 == 1) {
				assert_int_equal(game_act(g, (const char *const[]){"phase", "assault", NULL}), FRAY_OK);
				assert_turn(g, ended / 2 + 1, half, ended % 2 ? "B" : "A");
				assert_int_equal(game_act(g, (const char *const[]){"next", NULL}), FRAY_OK);
			} else {
				for (int p = 0; p < NPHASES; p++)
					assert_int_equal(game_act(g, (const char *const[]){"next", NULL}), FRAY_OK);
			}
		}
		/* undo walks the count back, half by half */
		for (int ended = 6; ended >= 4; ended--) {
			assert_int_equal(fray_game_undo(g), FRAY_OK);
			if (kept && ended % 3 == 1)
				assert_int_equal(fray_game_undo(g), FRAY_OK); /* its phase assault */
			if (kept && ended % 3 == 2)
				for (int p = 1; p < NPHASES; p++)
					assert_int_equal(fray_game_undo(g), FRAY_OK);
			assert_turn(g, ended / 2 + 1, ended % 2 ? "second" : "first", !kept ? NULL : ended % 2 ? "B" : "A");
		}
		fray_game_free(g);
	}
}

/* A game file from before the game turn counted each player's turn as a
 * turn, from 1 (the first player's): its turn N is game turn (N + 1) / 2,
 * the first player's half when N is odd, the second's when even; its log's
 * undo records are read the same way, and the file is written with the
 * game turn and its half from then on. docs/bbb.md. */
static void old_counter_read(void **state)
{
	(void)state;
	fray_game *g = bbb_game(bbb_forces, 6);
	/* the first player's turn, then the second's: the old counter's 1, 2 */
	assert_int_equal(game_act(g, (const char *const[]){"turn", NULL}), FRAY_OK);
	assert_int_equal(game_act(g, (const char *const[]){"phase", "offensive-fire", NULL}), FRAY_OK);
	char *text = game_saved(g);
	fray_game_free(g);
	const struct {
		int old_turn, turn;
		const char *half, *moving;
	} rows[] = {{1, 1, "first", "B"}, {2, 1, "second", "B"}, {3, 2, "first", "B"}, {4, 2, "second", "B"},
		    {9, 5, "first", "B"}, {100000, 50000, "second", "B"}};
	for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
		/* as an older fray wrote it: no half, here or in the undo records;
		 * the turn its own count */
		char *a = replaced(text, "half: second\n", ""), *b = replaced(a, "\"half\": \"first\", ", "");
		char *c = replaced(b, "\"turn\": 1, \"half\": \"second\", ", "\"turn\": 2, "), turn[32];
		snprintf(turn, sizeof turn, "turn: %d\nmoving", rows[i].old_turn);
		char *old = replaced(c, "turn: 1\nmoving", turn);
		fray_game *back = NULL;
		if (fray_game_load(ctx, "old.yaml", old, strlen(old), &back) != FRAY_OK)
			fail_msg("old turn %d: %s", rows[i].old_turn, fray_ctx_message(ctx));
		assert_turn(back, rows[i].turn, rows[i].half, rows[i].moving);
		/* written back, after the next action, with the game turn and its
		 * half: read as it is */
		fray_game *moved = NULL;
		assert_int_equal(fray_game_load(ctx, "old.yaml", old, strlen(old), &moved), FRAY_OK);
		assert_int_equal(game_act(moved, (const char *const[]){"phase", "assault", NULL}), FRAY_OK);
		char *saved = game_saved(moved), half[64];
		fray_game_free(moved);
		snprintf(half, sizeof half, "\nturn: %d\nhalf: %s\n", rows[i].turn, rows[i].half);
		if (!strstr(saved, half))
			fail_msg("old turn %d: the file written has no '%s'", rows[i].old_turn, half + 1);
		fray_game *again = NULL;
		assert_int_equal(fray_game_load(ctx, "new.yaml", saved, strlen(saved), &again), FRAY_OK);
		assert_turn(again, rows[i].turn, rows[i].half, rows[i].moving);
		assert_at(again, "assault", "B");
		fray_game_free(again);
		free(saved);
		/* the old undo records: the phase, then the turn, taken back to
		 * the old counter's 1, the first player's half of game turn 1 */
		if (rows[i].old_turn == 2) {
			assert_int_equal(fray_game_undo(back), FRAY_OK);
			assert_turn(back, 1, "second", "B");
			assert_int_equal(fray_game_undo(back), FRAY_OK);
			assert_turn(back, 1, "first", "A");
		}
		fray_game_free(back);
		free(a);
		free(b);
		free(c);
		free(old);
	}
	free(text);
	/* a half that is neither is refused, with its place */
	g = bbb_game(bbb_forces, 6);
	text = game_saved(g);
	fray_game_free(g);
	char *wrong = replaced(text, "half: first", "half: third");
	fray_game *no = NULL;
	assert_int_equal(fray_game_load(ctx, "half.yaml", wrong, strlen(wrong), &no), FRAY_ERR_INPUT);
	assert_non_null(strstr(fray_ctx_message(ctx), "half.yaml:"));
	assert_non_null(strstr(fray_ctx_message(ctx), "half"));
	fray_ctx_clear(ctx);
	free(wrong);
	free(text);
	/* a new game begins at turn 1, the first player's: a forces file
	 * names the first player (moving), never a half */
	char *halfway = replaced(bbb_forces, "units:\n", "half: second\nunits:\n");
	fray_game *ng = NULL;
	assert_int_equal(fray_game_new(ctx, "bbb.yaml", "bbb", "bbb-forces.yaml", halfway, strlen(halfway), 1, NULL, NULL,
				       &ng),
			 FRAY_ERR_INPUT);
	assert_non_null(strstr(fray_ctx_message(ctx), "bbb-forces.yaml:2:"));
	fray_ctx_clear(ctx);
	free(halfway);
}

/* A new game file as an older fray wrote it (before `half`): its turn,
 * each entry's and each undo record's counted each player's turn, the
 * game turn T's first half 2T - 1, its second 2T; no half anywhere. An
 * entry's turn is its undo record's (the turn before the action). */
static char *as_old_counter(const char *text)
{
	size_t cap = strlen(text) + 1, len = 0;
	char *out = malloc(cap);
	assert_non_null(out);
	const char *p = text;
	while (*p) {
		const char *eol = strchr(p, '\n');
		size_t n = eol ? (size_t)(eol - p) + 1 : strlen(p);
		int t;
		char half[16];
		const char *undo;
		if (sscanf(p, "turn: %d\nhalf: %15[a-z]\n", &t, half) == 2) {
			/* the game's own: its half on the next line, dropped */
			len += (size_t)sprintf(out + len, "turn: %d\n", 2 * t - !strcmp(half, "first"));
			p = strchr(eol + 1, '\n') + 1;
			continue;
		}
		if (sscanf(p, "    turn: %d\n", &t) == 1) {
			/* an entry's: the half of its undo record's */
			undo = strstr(p, "    undo: {");
			assert_non_null(undo);
			assert_int_equal(sscanf(undo, "    undo: {\"dice\": %*d, \"turn\": %d, \"half\": \"%15[a-z]\"", &t,
						half),
					 2);
			len += (size_t)sprintf(out + len, "    turn: %d\n", 2 * t - !strcmp(half, "first"));
			p += n;
			continue;
		}
		if (sscanf(p, "    undo: {\"dice\": %*d, \"turn\": %d, \"half\": \"%15[a-z]\", ", &t, half) == 2) {
			const char *rest = strstr(p, "\", ") + 3;
			len += (size_t)sprintf(out + len, "%.*s%d, ", (int)(strstr(p, "\"turn\": ") + 8 - p), p,
					       2 * t - !strcmp(half, "first"));
			memcpy(out + len, rest, (size_t)(p + n - rest));
			len += (size_t)(p + n - rest);
			p += n;
			continue;
		}
		memcpy(out + len, p, n);
		len += n;
		p += n;
	}
	out[len] = '\0';
	if (strstr(out, "half"))
		fail_msg("the old file still has a half: %s", strstr(out, "half"));
	return out;
}

/* An older fray's file with a log across six player's turns (three game
 * turns): its log's entries read as the game turns they were taken in,
 * the log (text and JSON) and the report's turn headings in order, each
 * game turn once, and status at the game turn and half the last entry
 * left; and written back, after the next action, as the game file that
 * game would have written from the start (every entry's turn and undo
 * record the game turn, with its half). */
static void old_log_turns(void **state)
{
	(void)state;
	fray_game *g = bbb_game(bbb_forces, 8);
	/* each player's turn: its Offensive Fire, then the turn ends; the
	 * sixth player's turn left in its Offensive Fire */
	for (int half = 0; half < 6; half++) {
		assert_int_equal(game_act(g, (const char *const[]){"phase", "offensive-fire", NULL}), FRAY_OK);
		if (half < 5)
			assert_int_equal(game_act(g, (const char *const[]){"turn", NULL}), FRAY_OK);
	}
	char *text = game_saved(g), *old = as_old_counter(text);
	fray_game_free(g);
	if (!strstr(old, "\nturn: 6\n") || !strstr(old, "    turn: 5\n"))
		fail_msg("the old file does not count player's turns:\n%s", old);
	fray_game *back = NULL;
	if (fray_game_load(ctx, "old.yaml", old, strlen(old), &back) != FRAY_OK)
		fail_msg("old file: %s", fray_ctx_message(ctx));
	assert_turn(back, 3, "second", "B");
	assert_int_equal(fray_game_log_len(back), 11);
	/* entry i (from 0) was taken in player's turn i / 2, game turn i / 4 + 1 */
	char *log = NULL, *json = NULL, *md = NULL, *html = NULL, want[64];
	assert_int_equal(fray_game_log(back, "text", &log), FRAY_OK);
	assert_int_equal(fray_game_log(back, "markdown", &md), FRAY_OK);
	assert_int_equal(fray_game_log(back, "json", &json), FRAY_OK);
	fray_doc *jd = NULL;
	assert_int_equal(fray_doc_load_string(ctx, "log.json", json, strlen(json), &jd), FRAY_OK);
	assert_int_equal(fray_node_len(fray_doc_root(jd)), 11);
	const char *at = log, *md_at = md;
	for (int i = 0; i < 11; i++) {
		snprintf(want, sizeof want, "#%d turn %d: ", i + 1, i / 4 + 1);
		if (!(at = strstr(at, want)))
			fail_msg("the log has no '%s' in its place:\n%s", want, log);
		snprintf(want, sizeof want, "\n## %d. Turn %d\n", i + 1, i / 4 + 1);
		if (!(md_at = strstr(md_at, want)))
			fail_msg("the markdown log has no '%s' in its place:\n%s", want + 1, md);
		const char *t = fray_node_scalar(fray_map_get(fray_node_item(fray_doc_root(jd), (size_t)i), "turn"));
		if (!t || atoi(t) != i / 4 + 1)
			fail_msg("the JSON log's action %d is at turn %s, expected %d", i + 1, t ? t : "-", i / 4 + 1);
	}
	fray_doc_free(jd);
	assert_int_equal(fray_game_report_html(back, "", &html), FRAY_OK);
	at = html;
	for (int t = 1; t <= 4; t++) {
		snprintf(want, sizeof want, "<h3>Turn %d</h3>", t);
		const char *h = strstr(html, want);
		if (t == 4 ? h != NULL : !h || h < at || strstr(h + 1, want))
			fail_msg("the report's heading '%s' is %s", want,
				 t == 4 ? "there (three game turns)" : !h ? "missing" : h < at ? "out of order" : "twice");
		at = h;
	}
	/* written back in the new form: as the game written from the start
	 * would be after the same action */
	fray_game *fresh = NULL;
	assert_int_equal(fray_game_load(ctx, "new.yaml", text, strlen(text), &fresh), FRAY_OK);
	assert_int_equal(game_act(fresh, (const char *const[]){"phase", "assault", NULL}), FRAY_OK);
	assert_int_equal(game_act(back, (const char *const[]){"phase", "assault", NULL}), FRAY_OK);
	char *want_file = game_saved(fresh), *saved = game_saved(back);
	/* (the new game's own entries written back as they were written) */
	if (strncmp(strstr(text, "\nlog:\n"), strstr(want_file, "\nlog:\n"), strlen(strstr(text, "\nlog:\n"))))
		fail_msg("the new game's log is not written back as it was");
	if (strcmp(saved, want_file)) {
		size_t k = 0;
		while (saved[k] == want_file[k])
			k++;
		fail_msg("the old file written back differs from the new game's at byte %zu: '%.80s' for '%.80s'", k,
			 saved + k, want_file + k);
	}
	/* and read back, undone to its start, through every player's turn */
	fray_game *again = NULL;
	assert_int_equal(fray_game_load(ctx, "again.yaml", saved, strlen(saved), &again), FRAY_OK);
	for (int i = 11; i >= 0; i--) {
		/* before entry i: player's turn i / 2 (the assault, 11, in the sixth) */
		assert_int_equal(fray_game_undo(again), FRAY_OK);
		assert_turn(again, i / 4 + 1, i / 2 % 2 ? "second" : "first", i / 2 % 2 ? "B" : "A");
	}
	fray_game_free(again);
	fray_game_free(fresh);
	fray_game_free(back);
	free(saved);
	free(want_file);
	free(html);
	free(md);
	free(json);
	free(log);
	free(old);
	free(text);
}

/* The file keeps moving and phase, read back; a bad value is refused
 * with its file, line and column; a file from before them keeps no phase
 * (the unit's own limits only), `next` says how to start, and `phase
 * NAME --moving SIDE` starts keeping them. A forces file may name the
 * first player. */
static void kept_in_the_file(void **state)
{
	(void)state;
	fray_game *g = bbb_game(bbb_forces, 9);
	assert_int_equal(game_act(g, (const char *const[]){"phase", "defensive-fire", NULL}), FRAY_OK);
	char *text = game_saved(g);
	assert_non_null(strstr(text, "\nmoving: \"A\"\nphase: defensive-fire\n"));
	fray_game *back = NULL;
	assert_int_equal(fray_game_load(ctx, "phase.yaml", text, strlen(text), &back), FRAY_OK);
	assert_at(back, "defensive-fire", "A");
	assert_int_equal(do_kind(back, "T", "X", FIRE), FRAY_OK);
	fray_game_free(back);
	/* refused on reading, with the place */
	const struct {
		const char *from, *to, *says;
	} bad[] = {{"phase: defensive-fire", "phase: fire", "phase"},
		   {"moving: \"A\"", "moving: \"C\"", "moving: expected the side of a unit"},
		   {"moving: \"A\"\n", "", "phase: a game keeps moving and phase together"},
		   {"phase: defensive-fire\n", "", "moving: a game keeps moving and phase together"}};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		char *wrong = replaced(text, bad[i].from, bad[i].to);
		int line = 1;
		for (const char *p = text; p < strstr(text, bad[i].from); p++)
			line += *p == '\n';
		/* the key left out: the other key is at fault, a line on or back */
		if (!bad[i].to[0])
			line += i == 2 ? 0 : -1;
		char at[48];
		snprintf(at, sizeof at, "phase.yaml:%d:", line);
		fray_game *no = NULL;
		assert_int_equal(fray_game_load(ctx, "phase.yaml", wrong, strlen(wrong), &no), FRAY_ERR_INPUT);
		const char *m = fray_ctx_message(ctx);
		if (!strstr(m, at) || !strstr(m, bad[i].says))
			fail_msg("%s -> %s: the refusal does not say %s and '%s': %s", bad[i].from, bad[i].to, at,
				 bad[i].says, m);
		fray_ctx_clear(ctx);
		free(wrong);
	}
	/* a file from before: no phase kept, either side acts as before */
	char *a = replaced(text, "moving: \"A\"\n", ""), *old = replaced(a, "phase: defensive-fire\n", "");
	assert_int_equal(fray_game_load(ctx, "phase.yaml", old, strlen(old), &back), FRAY_OK);
	assert_at(back, "(none)", "(none)");
	assert_int_equal(do_kind(back, "X", "T", FIRE), FRAY_OK);
	assert_int_equal(do_kind(back, "T", "X", FIRE), FRAY_OK);
	assert_int_equal(game_act(back, (const char *const[]){"next", NULL}), FRAY_ERR_INPUT);
	assert_non_null(strstr(fray_ctx_message(ctx), "phase NAME --moving SIDE"));
	fray_ctx_clear(ctx);
	assert_int_equal(game_act(back, (const char *const[]){"turn", NULL}), FRAY_OK);
	assert_at(back, "(none)", "(none)");
	assert_int_equal(game_act(back, (const char *const[]){"phase", "assault", "--moving", "B", NULL}), FRAY_OK);
	assert_at(back, "assault", "B");
	assert_int_equal(do_kind(back, "X", "T", FIRE), FRAY_ERR_INPUT);
	fray_ctx_clear(ctx);
	assert_int_equal(do_kind(back, "T", "X", ASSAULT), FRAY_OK);
	/* undo back to the file that kept none */
	assert_int_equal(fray_game_undo(back), FRAY_OK);
	assert_int_equal(fray_game_undo(back), FRAY_OK);
	assert_at(back, "(none)", "(none)");
	fray_game_free(back);
	free(a);
	free(old);
	free(text);
	fray_game_free(g);
	/* the forces file names the first player */
	char *second = replaced(bbb_forces, "units:\n", "moving: B\nunits:\n");
	g = bbb_game(second, 1);
	assert_at(g, "movement", "B");
	assert_int_equal(do_kind(g, "T", "X", MOVE), FRAY_OK);
	assert_int_equal(do_kind(g, "X", "T", MOVE), FRAY_ERR_INPUT);
	fray_ctx_clear(ctx);
	fray_game_free(g);
	free(second);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_phase_and_side),
		cmocka_unit_test(next_and_turn),
		cmocka_unit_test(silenced_until_movement_ends),
		cmocka_unit_test(kept_in_the_file),
		cmocka_unit_test(game_turns_count_both_players),
		cmocka_unit_test(old_counter_read),
		cmocka_unit_test(old_log_turns),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
