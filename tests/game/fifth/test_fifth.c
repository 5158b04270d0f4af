/* A fifth rule set that lives only here (issue 42 item 2): its two
 * procedures and its game are registered by calls from this main, and
 * fray plays it through the public game API with no change of its own.
 * Each volley's hits and each morale check are counted here from the dice
 * the step's events show (a d6 a man hitting on 4+; 2d6 at most nerve less
 * losses: fifth_procs.c), never taken from fray's outcome; undo, the file
 * read back, and the listings (the game API's rule sets and actions, the
 * catalogue's procedures) are checked too. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <fray/fray.h>
#include <fray/catalog.h>
#include <fray/game.h>
#include "../../../src/catalog/catalog.h"
#include "../../../src/game/ruleset.h"
#include "fifth.h"

#define SEEDS 24

static fray_ctx *ctx;

static const char forces[] = "rules: fifth\n"
			     "units:\n"
			     "  - name: Reds\n"
			     "    side: red\n"
			     "    men: 6\n"
			     "    nerve: 7\n"
			     "  - name: Blues\n"
			     "    side: blue\n"
			     "    men: 5\n"
			     "    nerve: 8\n";

/* The node at path ("steps/0/events": keys and item numbers) under n. */
static const fray_node *at(const fray_node *n, const char *path)
{
	char part[64];
	while (n && *path) {
		size_t len = strcspn(path, "/");
		assert_true(len < sizeof part);
		memcpy(part, path, len);
		part[len] = 0;
		path += len + (path[len] == '/');
		n = fray_node_kind_of(n) == FRAY_NODE_SEQ ? fray_node_item(n, (size_t)strtoul(part, NULL, 10))
							  : fray_map_get(n, part);
	}
	return n;
}

static long int_at(const fray_node *n, const char *path)
{
	const fray_node *v = at(n, path);
	if (!v || !fray_node_scalar(v))
		fail_msg("no %s", path);
	return strtol(fray_node_scalar(v), NULL, 10);
}

static bool bool_at(const fray_node *n, const char *path)
{
	const fray_node *v = at(n, path);
	if (!v || !fray_node_scalar(v))
		fail_msg("no %s", path);
	return !strcmp(fray_node_scalar(v), "true");
}

static fray_doc *parse(const char *text)
{
	fray_doc *doc;
	if (fray_doc_load_string(ctx, "json", text, strlen(text), &doc) != FRAY_OK)
		fail_msg("%s: %s", fray_ctx_message(ctx), text);
	return doc;
}

static fray_game *new_game(uint64_t seed)
{
	fray_game *game = NULL;
	if (fray_game_new(ctx, "fifth.yaml", "fifth", "forces.yaml", forces, strlen(forces), seed, NULL, NULL,
			  &game) != FRAY_OK)
		fail_msg("fray_game_new: %s", fray_ctx_message(ctx));
	return game;
}

static char *status_json(const fray_game *game)
{
	char *out = NULL;
	assert_int_equal(fray_game_status(game, "json", &out), FRAY_OK);
	return out;
}

/* Reds shoot at Blues: the volley's hits and the morale check counted
 * from the dice, the forces after them, undo, and the file read back. */
static void plays_shoot(void **state)
{
	(void)state;
	bool seen_shaken = false, seen_held = false, seen_miss = false;
	for (uint64_t seed = 1; seed <= SEEDS; seed++) {
		fray_game *game = new_game(seed);
		char *before = status_json(game);
		char *events = NULL;
		if (fray_game_apply(game, "shoot", "Reds", "Blues", 0, NULL, NULL, &events) != FRAY_OK)
			fail_msg("shoot: %s", fray_ctx_message(ctx));
		fray_doc *ev = parse(events);
		const fray_node *root = fray_doc_root(ev);
		assert_string_equal(fray_node_scalar(at(root, "steps/0/procedure")), "fifth.volley");
		/* a d6 a man: Reds have 6 */
		const fray_node *dice = at(root, "steps/0/events");
		assert_int_equal(fray_node_len(dice), 6);
		int hits = 0;
		for (size_t i = 0; i < 6; i++) {
			long v = int_at(fray_node_item(dice, i), "value");
			assert_true(v >= 1 && v <= 6);
			hits += v >= FIFTH_HIT_ON;
		}
		assert_int_equal(int_at(root, "steps/0/outcome/hits"), hits);
		int lost = hits < 5 ? hits : 5;
		bool shaken = false;
		if (lost > 0) {
			/* the morale check: 2d6 at most nerve 8 less the losses */
			assert_string_equal(fray_node_scalar(at(root, "steps/1/procedure")), "fifth.morale");
			long d = int_at(root, "steps/1/events/0/value") + int_at(root, "steps/1/events/1/value");
			shaken = d > 8 - lost;
			assert_int_equal(bool_at(root, "steps/1/outcome/passed"), !shaken);
			seen_shaken |= shaken;
			seen_held |= !shaken;
		} else {
			assert_null(at(root, "steps/1"));
			seen_miss = true;
		}
		/* the forces: Blues' men and standing, kept in the rule set's
		 * own fields */
		char *now = status_json(game);
		fray_doc *st = parse(now);
		assert_string_equal(fray_node_scalar(at(fray_doc_root(st), "rules")), "fifth");
		assert_int_equal(int_at(fray_doc_root(st), "units/0/men"), 6);
		assert_int_equal(int_at(fray_doc_root(st), "units/1/men"), 5 - lost);
		assert_int_equal(bool_at(fray_doc_root(st), "units/1/shaken"), shaken);
		assert_int_equal(int_at(fray_doc_root(st), "units/1/nerve"), 8);
		/* the rules' may: a shaken unit offers no action */
		const char *names[4];
		assert_int_equal(fray_game_actions(game, 1, names, 4), shaken ? 0 : 1);
		/* the file read back is the same game */
		const char *bytes;
		size_t len;
		assert_int_equal(fray_game_save(game, &bytes, &len), FRAY_OK);
		fray_game *back = NULL;
		if (fray_game_load(ctx, "fifth.yaml", bytes, len, &back) != FRAY_OK)
			fail_msg("read back: %s", fray_ctx_message(ctx));
		char *again = status_json(back);
		assert_string_equal(again, now);
		assert_int_equal(fray_game_log_len(back), 1);
		/* the same seed replays the same dice */
		fray_game *twin = new_game(seed);
		char *twin_events = NULL;
		assert_int_equal(fray_game_apply(twin, "shoot", "Reds", "Blues", 0, NULL, NULL, &twin_events), FRAY_OK);
		assert_string_equal(twin_events, events);
		/* undo: the forces as they were */
		assert_int_equal(fray_game_undo(back), FRAY_OK);
		char *undone = status_json(back);
		assert_string_equal(undone, before);
		assert_int_equal(fray_game_log_len(back), 0);
		free(undone);
		free(twin_events);
		fray_game_free(twin);
		free(again);
		fray_game_free(back);
		fray_doc_free(st);
		free(now);
		fray_doc_free(ev);
		free(events);
		free(before);
		fray_game_free(game);
	}
	/* the seeds reach each way of the rules */
	assert_true(seen_shaken);
	assert_true(seen_held);
	(void)seen_miss;
}

/* A shaken unit's shot is refused, and an unknown field in its forces. */
static void refuses(void **state)
{
	(void)state;
	fray_game *game = new_game(1);
	const char *const set[] = {"set", "Blues", "shaken=true"};
	assert_int_equal(fray_game_act(game, 3, set, NULL, NULL, NULL), FRAY_OK);
	assert_int_equal(fray_game_apply(game, "shoot", "Blues", "Reds", 0, NULL, NULL, NULL), FRAY_ERR_INPUT);
	assert_non_null(strstr(fray_ctx_message(ctx), "shaken"));
	fray_game_free(game);
	static const char bad[] = "rules: fifth\nunits:\n  - {name: A, side: a, men: 3, nerve: 7, figures: 2}\n";
	fray_game *g2 = NULL;
	assert_int_equal(fray_game_new(ctx, "f.yaml", "fifth", "forces.yaml", bad, strlen(bad), 1, NULL, NULL, &g2),
			 FRAY_ERR_INPUT);
	assert_non_null(strstr(fray_ctx_message(ctx), "figures"));
	static const char past[] = "rules: fifth\nunits:\n  - {name: A, side: a, men: 30, nerve: 7}\n";
	assert_int_equal(fray_game_new(ctx, "f.yaml", "fifth", "forces.yaml", past, strlen(past), 1, NULL, NULL, &g2),
			 FRAY_ERR_INPUT);
	assert_null(g2);
}

/* Where rule sets are listed, the fifth is: the game API's rule sets and
 * their actions (fray help table's list), the catalogue's procedures. */
static void listed(void **state)
{
	(void)state;
	size_t i = 0;
	while (fray_game_rule_set(i) && strcmp(fray_game_rule_set(i), "fifth") != 0)
		i++;
	assert_non_null(fray_game_rule_set(i));
	const char *usage = NULL;
	assert_string_equal(fray_game_rule_set_action("fifth", 0, &usage), "shoot");
	assert_non_null(strstr(usage, "4+"));
	assert_null(fray_game_rule_set_action("fifth", 1, NULL));
	bool volley = false, morale = false;
	for (size_t k = 0; fray_procedure_command(k); k++) {
		volley |= !strcmp(fray_procedure_command(k), "fifth volley");
		morale |= !strcmp(fray_procedure_command(k), "fifth morale");
	}
	assert_true(volley && morale);
	assert_string_equal(fray_procedure_find("fifth.volley"), "fifth volley");
	/* fray procedures groups them under the set's name */
	char *text = NULL;
	assert_int_equal(fray_procedures_text(ctx, &text), FRAY_OK);
	assert_non_null(strstr(text, "\nfifth\n  fifth volley "));
	free(text);
	/* the catalogue's set, whose title the game's table refers to */
	assert_non_null(frayi_catalog_set_find("fifth"));
	assert_string_equal(frayi_ruleset_title(frayi_ruleset_find("fifth")), "the tests' fifth rule set");
	assert_string_equal(frayi_ruleset_title(frayi_ruleset_find("bbb")), "Bloody Big Battles");
}

int main(void)
{
	/* the game's rule set is the catalogue's: not before its procedures */
	if (fifth_register_game() == FRAY_OK) {
		fprintf(stderr, "test_fifth: a game registered without its procedures\n");
		return 1;
	}
	if (fifth_register_procedures() != FRAY_OK || fifth_register_game() != FRAY_OK) {
		fprintf(stderr, "test_fifth: the fifth rule set did not register\n");
		return 1;
	}
	/* a second registration of the same is refused */
	if (fifth_register_procedures() == FRAY_OK || fifth_register_game() == FRAY_OK) {
		fprintf(stderr, "test_fifth: a rule set registered twice\n");
		return 1;
	}
	ctx = fray_ctx_new(NULL, NULL);
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(plays_shoot),
		cmocka_unit_test(refuses),
		cmocka_unit_test(listed),
	};
	int failed = cmocka_run_group_tests(tests, NULL, NULL);
	fray_ctx_free(ctx);
	return failed;
}
