/* A Bloody Big Battles unit's turn in the game (the referee's finding 1,
 * 2026-12-03), against a model of the sheet (bbb_sheet.h), not fray's
 * query. The Sequence of Play Summary: "First Player Unit Movement, First
 * Player Generals, Defensive Fire by Second Player, Offensive Fire by
 * First Player, Assault by First Player", then the second player's. A
 * fray BBB turn is one player's turn (docs/bbb.md, "A unit's turn"): each
 * phase comes once, so a unit moves once, fires once and assaults once,
 * and its movement comes before its fire, its fire before its assault. A
 * refused action exits with the rule named and writes nothing; advise and
 * play offer only what the game accepts. The game-wide phases (who acts
 * in which phase) are test_bbb_phase.c's; here a unit's own limits, which
 * hold with the phase kept or not (a game file from before it). */
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
#include "example_game.h"

/* What the game file should keep: the actions done, in the sheet's order. */
static void model_text(const bool *done, char *dst, size_t cap)
{
	dst[0] = '\0';
	for (int k = 0; k < NKINDS; k++)
		if (done[k])
			snprintf(dst + strlen(dst), cap - strlen(dst), "%s%s", dst[0] ? ", " : "", kind_names[k]);
}

/* What X did this turn as the game file keeps it (status --json gives
 * every field: moved, fired, assaulted), in the model's words. */
static void x_turn(const fray_game *g, char *dst, size_t cap)
{
	fray_doc *d = game_status_doc(g);
	const fray_node *u = fray_node_item(fray_map_get(fray_doc_root(d), "units"), 0);
	static const char *const fields[NKINDS] = {"moved", "fired", "assaulted"};
	bool done[NKINDS];
	for (int k = 0; k < NKINDS; k++) {
		const char *v = fray_node_scalar(fray_map_get(u, fields[k]));
		if (!v)
			fail_msg("status --json has no %s for X", fields[k]);
		done[k] = !strcmp(v, "true");
	}
	model_text(done, dst, cap);
	fray_doc_free(d);
}

/* What the game offers X now: its actions (fray_game_actions, which
 * fray_game_targets and play ask) and advise's list, against the model. */
static void offers_match(fray_game *g, const bool *done)
{
	const char *names[8];
	size_t n = fray_game_actions(g, 0, names, 8);
	for (int k = 0; k < NKINDS; k++) {
		bool listed = false;
		for (size_t i = 0; i < n; i++)
			listed |= !strcmp(names[i], kind_names[k]);
		if (listed != model_allows(done, (enum kind)k))
			fail_msg("fray_game_actions %s %s; the sheet %s it", listed ? "lists" : "leaves out",
				 kind_names[k], model_allows(done, (enum kind)k) ? "allows" : "rules out");
	}
	/* advise under hold: a move is worth its base kept, so it is listed
	 * when allowed, as are fire and assault */
	char *text = NULL;
	assert_int_equal(fray_game_advise(g, "X", "hold", 0, NULL, FRAY_FORMAT_JSON, &text), FRAY_OK);
	for (int k = 0; k < NKINDS; k++) {
		char key[40];
		snprintf(key, sizeof key, "\"action\": \"%s\"", kind_names[k]);
		if ((strstr(text, key) != NULL) != model_allows(done, (enum kind)k))
			fail_msg("advise %s %s; the sheet %s it:\n%s", strstr(text, key) ? "lists" : "leaves out",
				 kind_names[k], model_allows(done, (enum kind)k) ? "allows" : "rules out", text);
	}
	free(text);
}

/* g as a game file from before fray kept the phase (its moving and
 * phase lines taken out): a unit's own limits only (docs/bbb.md). */
static fray_game *without_phase(fray_game *g)
{
	char *text = game_saved(g);
	for (const char *const *k = (const char *const[]){"\nmoving: ", "\nphase: ", NULL}; *k; k++) {
		char *at = strstr(text, *k);
		assert_non_null(at);
		char *eol = strchr(at + 1, '\n');
		memmove(at, eol, strlen(eol) + 1);
	}
	fray_game *old = NULL;
	if (fray_game_load(ctx, "turn.yaml", text, strlen(text), &old) != FRAY_OK)
		fail_msg("load: %s", fray_ctx_message(ctx));
	free(text);
	fray_game_free(g);
	return old;
}

static int accepted_seen, refused_seen;

/* Every sequence of three of X's actions in a turn, each accepted or
 * refused as the sheet says; a refusal names the rule and writes
 * nothing; then `turn`, and each action is X's again. A game that keeps
 * no phase (a file from before it), so that the unit's own order is all
 * that decides: with the phase kept, test_bbb_phase.c. */
static void every_sequence(void **state)
{
	(void)state;
	for (int s = 0; s < NKINDS * NKINDS * NKINDS; s++) {
		enum kind seq[3] = {(enum kind)(s / 9), (enum kind)(s / 3 % 3), (enum kind)(s % 3)};
		fray_game *g = without_phase(bbb_game(bbb_forces, 100 + (uint64_t)s));
		bool done[NKINDS] = {false};
		for (int i = 0; i < 3; i++) {
			offers_match(g, done);
			char *before = game_saved(g);
			fray_status st = do_kind(g, "X", "T", seq[i]);
			if (model_allows(done, seq[i])) {
				if (st != FRAY_OK)
					fail_msg("%s then %s refused: %s", i ? kind_names[seq[i - 1]] : "nothing",
						 kind_names[seq[i]], fray_ctx_message(ctx));
				done[seq[i]] = true;
				accepted_seen++;
			} else {
				if (st != FRAY_ERR_INPUT)
					fail_msg("sequence %d: %s accepted after the unit's earlier actions", s,
						 kind_names[seq[i]]);
				const char *m = fray_ctx_message(ctx);
				if (!strstr(m, "X cannot") || !strstr(m, "BBB Sequence of Play"))
					fail_msg("the refusal does not name the unit and the rule: %s", m);
				fray_ctx_clear(ctx);
				char *after = game_saved(g);
				assert_string_equal(before, after);
				free(after);
				refused_seen++;
			}
			free(before);
			char want[64], got[64];
			model_text(done, want, sizeof want);
			x_turn(g, got, sizeof got);
			assert_string_equal(got, want);
		}
		assert_int_equal(game_act(g, (const char *const[]){"turn", NULL}), FRAY_OK);
		bool none[NKINDS] = {false};
		offers_match(g, none);
		char got[64];
		x_turn(g, got, sizeof got);
		assert_string_equal(got, "");
		fray_game_free(g);
	}
	assert_true(accepted_seen > 0 && refused_seen > 0);
}

/* The referee's repro (examples/bbb/forces.yaml): "fire "Iron Brigade"
 * --at "Texas Brigade" --range 5 three times in turn 1, then assault
 * twice and move twice". The second and third fire, the second assault
 * and both moves are refused, the rule named, nothing written. */
static void the_referees_repro(void **state)
{
	(void)state;
	fray_game *g = example_game(ctx, "bbb", "bbb/forces.yaml", 1863);
	const char *const fire[] = {"fire", "Iron Brigade", "--at", "Texas Brigade", "--range", "5", NULL};
	const char *const assault[] = {"assault", "Iron Brigade", "--at", "Texas Brigade", NULL};
	const char *const move[] = {"move", "Iron Brigade", NULL};
	const char *const next[] = {"next", NULL}, *const offensive[] = {"phase", "offensive-fire", NULL};
	/* the Union moves first (its units are listed first): its Offensive
	 * Fire, then its Assault */
	const struct {
		const char *const *words;
		fray_status st;
		const char *why;
	} steps[] = {{fire, FRAY_ERR_INPUT, "the moving player's units fire in Offensive Fire"},
		     {offensive, FRAY_OK, NULL},
		     {fire, FRAY_OK, NULL},
		     {fire, FRAY_ERR_INPUT, "it has fired this turn"},
		     {fire, FRAY_ERR_INPUT, "it has fired this turn"},
		     {next, FRAY_OK, NULL},
		     {assault, FRAY_OK, NULL},
		     {assault, FRAY_ERR_INPUT, "it has assaulted this turn"},
		     {move, FRAY_ERR_INPUT, "move in Unit Movement"},
		     {move, FRAY_ERR_INPUT, "move in Unit Movement"}};
	for (size_t i = 0; i < sizeof steps / sizeof *steps; i++) {
		char *before = game_saved(g);
		fray_status st = game_act(g, steps[i].words);
		if (st != steps[i].st)
			fail_msg("step %zu (%s): status %d, expected %d: %s", i, steps[i].words[0], (int)st,
				 (int)steps[i].st, fray_ctx_message(ctx));
		if (steps[i].why) {
			const char *m = fray_ctx_message(ctx);
			if (!strstr(m, steps[i].why) || !strstr(m, "BBB Sequence of Play"))
				fail_msg("step %zu: the refusal does not say '%s' and the rule: %s", i, steps[i].why, m);
			fray_ctx_clear(ctx);
			char *after = game_saved(g);
			assert_string_equal(before, after);
			free(after);
		}
		free(before);
	}
	/* the Confederate's turn: the Iron Brigade fires in its Defensive
	 * Fire and does not move; then the Union's: it moves and fires again */
	assert_int_equal(game_act(g, (const char *const[]){"turn", NULL}), FRAY_OK);
	assert_int_equal(game_act(g, move), FRAY_ERR_INPUT);
	assert_non_null(strstr(fray_ctx_message(ctx), "only the moving player's units move"));
	fray_ctx_clear(ctx);
	assert_int_equal(game_act(g, (const char *const[]){"phase", "defensive-fire", NULL}), FRAY_OK);
	assert_int_equal(game_act(g, fire), FRAY_OK);
	assert_int_equal(game_act(g, (const char *const[]){"turn", NULL}), FRAY_OK);
	assert_int_equal(game_act(g, move), FRAY_OK);
	assert_int_equal(game_act(g, offensive), FRAY_OK);
	assert_int_equal(game_act(g, fire), FRAY_OK);
	fray_game_free(g);
}

/* What a unit did is kept in the game file (moved, fired, assaulted):
 * read back, undone; a file from before them is a unit that did nothing;
 * a value that is not true or false is refused on reading with its place
 * in the file. */
static void kept_in_the_file(void **state)
{
	(void)state;
	fray_game *g = bbb_game(bbb_forces, 7);
	assert_int_equal(game_act(g, (const char *const[]){"phase", "offensive-fire", NULL}), FRAY_OK);
	assert_int_equal(do_kind(g, "X", "T", FIRE), FRAY_OK);
	char *text = game_saved(g);
	fray_game *back = NULL;
	assert_int_equal(fray_game_load(ctx, "turn.yaml", text, strlen(text), &back), FRAY_OK);
	char got[64];
	x_turn(back, got, sizeof got);
	assert_string_equal(got, "fire");
	assert_int_equal(do_kind(back, "X", "T", MOVE), FRAY_ERR_INPUT);
	fray_ctx_clear(ctx);
	assert_int_equal(game_act(back, (const char *const[]){"next", NULL}), FRAY_OK);
	assert_int_equal(do_kind(back, "X", "T", ASSAULT), FRAY_OK);
	x_turn(back, got, sizeof got);
	assert_string_equal(got, "fire, assault");
	assert_int_equal(fray_game_undo(back), FRAY_OK);
	x_turn(back, got, sizeof got);
	assert_string_equal(got, "fire");
	fray_game_free(back);
	/* an older fray's file: no such lines, nothing done */
	const char *line = strstr(text, "    fired: true\n");
	assert_non_null(line);
	char *old = strdup(text);
	for (const char *const *k = (const char *const[]){"    moved: false\n", "    fired: true\n",
							  "    assaulted: false\n", NULL}; *k; k++) {
		char *at = strstr(old, *k);
		assert_non_null(at);
		memmove(at, at + strlen(*k), strlen(at + strlen(*k)) + 1);
	}
	assert_null(strstr(old, "    fired: true"));
	assert_int_equal(fray_game_load(ctx, "turn.yaml", old, strlen(old), &back), FRAY_OK);
	x_turn(back, got, sizeof got);
	assert_string_equal(got, "");
	assert_int_equal(do_kind(back, "X", "T", FIRE), FRAY_OK);
	fray_game_free(back);
	free(old);
	/* not true or false: refused with the file, line and column */
	static const char *const bad[] = {"twice", "2", "\"fire\""};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		size_t at = (size_t)(line - text) + strlen("    fired: ");
		size_t rest = at + strlen("true");
		char *wrong = malloc(strlen(text) + 32);
		assert_non_null(wrong);
		snprintf(wrong, strlen(text) + 32, "%.*s%s%s", (int)at, text, bad[i], text + rest);
		int lineno = 1;
		for (const char *p = text; p < line; p++)
			lineno += *p == '\n';
		fray_game *no = NULL;
		assert_int_equal(fray_game_load(ctx, "turn.yaml", wrong, strlen(wrong), &no), FRAY_ERR_INPUT);
		char where[48];
		snprintf(where, sizeof where, "turn.yaml:%d:%d", lineno, (int)strlen("    fired: ") + 1);
		const char *m = fray_ctx_message(ctx);
		if (!strstr(m, where) || !strstr(m, "fired"))
			fail_msg("%s: the refusal does not name %s and fired: %s", bad[i], where, m);
		fray_ctx_clear(ctx);
		free(wrong);
	}
	free(text);
	fray_game_free(g);
}

/* ---- play, both sides, whole games ---- */

/* The unit a log command names: its second word, quoted or not. */
static void unit_of(const char *cmd, char *dst, size_t cap)
{
	const char *p = strchr(cmd, ' ');
	dst[0] = '\0';
	if (!p)
		return;
	p++;
	size_t n = *p == '"' ? strcspn(++p, "\"") : strcspn(p, " ");
	snprintf(dst, cap, "%.*s", (int)n, p);
}

/* `play Union` and `play Confederate` in turn, from examples/bbb/forces.yaml
 * and seed, until the game is over (or 300 plays): every play
 * accepted (no refusal); the saved game (malloc'd). */
static char *played(uint64_t seed)
{
	static const char *const goals[][2] = {{"win", "win"}, {"hold", "not-lose"}, {"casualties", "hold"}};
	fray_game *g = example_game(ctx, "bbb", "bbb/forces.yaml", seed);
	const char *const *goal = goals[seed % 3];
	for (int i = 0; i < 300; i++) {
		char *out = NULL;
		const char *side = i % 2 ? "Confederate" : "Union";
		fray_status st = fray_game_play(g, side, goal[i % 2], 0, NULL, FRAY_FORMAT_TEXT, &out);
		if (st != FRAY_OK)
			fail_msg("seed %llu, play %d (%s): refused: %s", (unsigned long long)seed, i, side,
				 fray_ctx_message(ctx));
		bool over = strstr(out, "the game is over") != NULL;
		free(out);
		if (over)
			break;
	}
	char *file = game_saved(g);
	fray_game_free(g);
	return file;
}

/* A unit's side in the game file d (its units' list). */
static const char *side_of(fray_doc *d, const char *unit)
{
	const fray_node *units = fray_map_get(fray_doc_root(d), "units");
	for (size_t i = 0; i < fray_node_len(units); i++)
		if (!strcmp(fray_node_scalar(fray_map_get(fray_node_item(units, i), "name")), unit))
			return fray_node_scalar(fray_map_get(fray_node_item(units, i), "side"));
	fail_msg("no unit %s", unit);
	return NULL;
}

/* The game file played from seed, replayed: a new game from the same
 * forces and seed, each logged command taken again by its words, ends
 * with the same forces, turn, phase and dice (the log differs only in
 * play's reasons). */
static void replays(const char *file, uint64_t seed)
{
	fray_doc *d;
	if (fray_doc_load_string(ctx, "played", file, strlen(file), &d) != FRAY_OK)
		fail_msg("the game file: %s", fray_ctx_message(ctx));
	const fray_node *log = fray_map_get(fray_doc_root(d), "log");
	fray_game *g = example_game(ctx, "bbb", "bbb/forces.yaml", seed);
	for (size_t e = 0; e < fray_node_len(log); e++) {
		char cmd[512], *w[32];
		size_t n = 0;
		snprintf(cmd, sizeof cmd, "%s", fray_node_scalar(fray_map_get(fray_node_item(log, e), "command")));
		/* the log's words: quoted where they hold a space */
		for (char *p = cmd; *p && n < 31;) {
			bool quoted = *p == '"';
			w[n++] = p += quoted;
			p += strcspn(p, quoted ? "\"" : " ");
			if (*p)
				*p++ = '\0';
			p += *p == ' ';
		}
		w[n] = NULL;
		if (game_act(g, (const char *const *)w) != FRAY_OK)
			fail_msg("replay of '%s': %s", fray_node_scalar(fray_map_get(fray_node_item(log, e), "command")),
				 fray_ctx_message(ctx));
	}
	char *again = game_saved(g);
	const char *a = strstr(file, "\nlog:"), *b = strstr(again, "\nlog:");
	assert_non_null(a);
	assert_non_null(b);
	if ((size_t)(a - file) != (size_t)(b - again) || memcmp(file, again, (size_t)(a - file)))
		fail_msg("seed %llu: the game replayed from its log is not the game played", (unsigned long long)seed);
	free(again);
	fray_game_free(g);
	fray_doc_free(d);
}

/* `play Union` and `play Confederate` in turn until the game is over:
 * the log never has a unit take an action the sheet rules out in its
 * turn (the models of bbb_sheet.h: the phase's side and action, replayed
 * from the log's next and turn; the unit's own order), the game goes
 * through turns (each phase ends when neither side has an action left in
 * it), and the game replays from its seed. */
static void play_never_repeats(void **state)
{
	(void)state;
	int actions = 0, turns = 0, moves = 0, fires[2] = {0, 0};
	for (uint64_t seed = 1861; seed <= 1864; seed++) {
		char *file = played(seed);
		if (seed == 1861)
			replays(file, seed);
		fray_doc *d;
		if (fray_doc_load_string(ctx, "played", file, strlen(file), &d) != FRAY_OK)
			fail_msg("the game file: %s", fray_ctx_message(ctx));
		const fray_node *log = fray_map_get(fray_doc_root(d), "log");
		assert_non_null(log);
		/* what each unit did in the turn so far (the log is in order) */
		char names[16][64] = {{0}};
		bool done[16][NKINDS] = {{false}};
		size_t nnames = 0;
		/* the game turn: the first player's turn, then the second's
		 * (Sequence of Play Summary); each entry is logged with it */
		long turn = 1;
		/* the Union moves first: its units are listed first */
		enum phase phase = MOVEMENT;
		const char *moving = "Union";
		for (size_t e = 0; e < fray_node_len(log); e++) {
			const fray_node *entry = fray_node_item(log, e);
			const char *cmd = fray_node_scalar(fray_map_get(entry, "command"));
			long t = atol(fray_node_scalar(fray_map_get(entry, "turn")));
			assert_non_null(cmd);
			if (t != turn)
				fail_msg("seed %llu: '%s' logged in turn %ld, in game turn %ld of the sheet's (%s's turn)",
					 (unsigned long long)seed, cmd, t, turn, moving);
			if (!strcmp(cmd, "turn") || (!strcmp(cmd, "next") && phase == ASSAULTS)) {
				/* a player's turn ends: each unit's actions again; after
				 * the second player's, the next game turn */
				turns++;
				memset(done, 0, sizeof done);
				phase = MOVEMENT;
				moving = strcmp(moving, "Union") ? "Union" : "Confederate";
				turn += !strcmp(moving, "Union");
				continue;
			}
			if (!strcmp(cmd, "next")) {
				phase++;
				continue;
			}
			int k = -1;
			for (int j = 0; j < NKINDS; j++)
				if (!strncmp(cmd, kind_names[j], strlen(kind_names[j])) && cmd[strlen(kind_names[j])] == ' ')
					k = j;
			if (k < 0)
				fail_msg("play took an action that is not BBB's: %s", cmd);
			char unit[64];
			unit_of(cmd, unit, sizeof unit);
			size_t u = 0;
			while (u < nnames && strcmp(names[u], unit))
				u++;
			if (u == nnames) {
				assert_true(nnames < 16);
				snprintf(names[nnames++], sizeof names[0], "%s", unit);
			}
			bool mover = !strcmp(side_of(d, unit), moving);
			if (!sheet_allows(phase, mover, (enum kind)k))
				fail_msg("seed %llu, turn %ld: play made '%s' in %s of %s's turn", (unsigned long long)seed,
					 turn, cmd, phase_words[phase], moving);
			if (!model_allows(done[u], (enum kind)k))
				fail_msg("seed %llu, turn %ld: play made '%s' after the unit's earlier actions this turn",
					 (unsigned long long)seed, turn, cmd);
			done[u][k] = true;
			actions++;
			moves += k == MOVE;
			fires[mover] += k == FIRE;
		}
		fray_doc_free(d);
		free(file);
	}
	/* the games went through turns, and play moved as well as fought,
	 * in both fire phases */
	assert_true(actions > 20 && turns > 3 && moves > 0 && fires[0] > 0 && fires[1] > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_sequence),
		cmocka_unit_test(the_referees_repro),
		cmocka_unit_test(kept_in_the_file),
		cmocka_unit_test(play_never_repeats),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
