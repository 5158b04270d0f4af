/* fray_game_targets against the apply path: for every rule set, every unit
 * and every action that takes a target, the units listed are exactly those
 * the game accepts as the target when the action is applied (each unit
 * tried as the target, on a fresh copy of the game, with the options the
 * action needs). The forces hold units the rules refuse as targets: BBB's
 * and chits' own side (BBB Sequence of Play; chit combat), a destroyed BBB
 * unit, Presidio units whose standing forbids being a target or being
 * pursued (fray_presidio_act_refused), and actors the rules stop acting. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <fray/game_request.h>
#include "../test_util.h"
#include "game_words.h"

static const char presidio_forces[] =
	"rules: presidio\n"
	"units:\n"
	"  - {name: Soldados, side: Spain, figures: 12, weapon: flintlock musket, ranged: 2, morale: average,\n"
	"     may_pursue: Comanches}\n"
	"  - {name: Cueras, side: Spain, figures: 8, weapon: flintlock carbine, ranged: 2, morale: average}\n"
	"  - {name: Apaches, side: Apache, figures: 8, weapon: metal bow/sling, morale: average,\n"
	"     melee_weapon: metal 1-handed hatchet/warclub/pistol butt, melee: 2}\n"
	"  - {name: Utes, side: Apache, figures: 8, weapon: metal bow/sling, morale: average, status: panicked,\n"
	"     melee_weapon: metal 1-handed hatchet/warclub/pistol butt, melee: 2}\n"
	"  - {name: Comanches, side: Apache, figures: 8, weapon: metal bow/sling, morale: average, status: fell back,\n"
	"     melee_weapon: metal 1-handed hatchet/warclub/pistol butt, melee: 2}\n"
	"  - {name: Navajos, side: Apache, figures: 8, weapon: metal bow/sling, morale: average, status: surrendered,\n"
	"     melee_weapon: metal 1-handed hatchet/warclub/pistol butt, melee: 2}\n";

static const char bbb_forces[] = "rules: bbb\n"
				 "units:\n"
				 "  - {name: First, side: Union, arm: infantry, weapons: RR, bases: 4}\n"
				 "  - {name: Second, side: Union, arm: infantry, weapons: RR, bases: 4}\n"
				 "  - {name: Texans, side: Confederate, arm: infantry, weapons: RR, bases: 4}\n"
				 "  - {name: Louisianans, side: Confederate, arm: infantry, weapons: RR, bases: 0,\n"
				 "     start_bases: 4, status: destroyed}\n";

/* as test_referee_chains.c's: T01, T02 drawn give each side one hit */
static const char mix[] = "name: targets\nmorale: {roll: 2d6, pass: at-most}\n"
			  "tactics:\n"
			  "  hasty: {min: 2, max: {defend: 3, hold: 3, evade: 3}}\n"
			  "chits:\n"
			  "  - {id: T01, a: {if: always, then: [M]}, b: {if: always, then: [F]}}\n"
			  "  - {id: T02, a: {if: always, then: [A1]}, b: {if: always, then: [D1]}, both: true}\n"
			  "  - {id: T03, a: {if: always, then: []}, b: {if: always, then: []}}\n";

static const char chits_forces[] = "rules: chits\n"
				   "mix: targets-mix.yaml\n"
				   "units:\n"
				   "  - {name: Bylant, side: Brent, arm: infantry, battalions: 4, morale: 7}\n"
				   "  - {name: Karl Franz, side: David, arm: infantry, battalions: 4, morale: 7}\n"
				   "  - {name: Lauder, side: Brent, arm: infantry, battalions: 3, morale: 8}\n"
				   "  - {name: Reikland, side: David, arm: infantry, battalions: 2, morale: 8}\n";

static fray_status open_mix(void *ud, fray_ctx *c, const char *path, fray_doc **out)
{
	(void)ud;
	return fray_doc_load_string(c, path, mix, strlen(mix), out);
}

/* The options each action needs besides its unit and target (so that only
 * the target can make it refused). */
static const char *const *options_of(const char *action, size_t *n)
{
	static const char *const shoot[] = {"--range", "10"};
	static const char *const charge[] = {"--reaction", "stand"};
	static const char *const fire[] = {"--range", "6"};
	static const char *const combat[] = {"--tactic", "hasty", "--stance", "hold", "--terrain", "open",
					     "--attacker-cdr", "10", "--defender-cdr", "10", "--draw", "2",
					     "--script", "T01,T02"};
	static const struct {
		const char *action;
		const char *const *opts;
		size_t n;
	} table[] = {{"shoot", shoot, 2}, {"charge", charge, 2}, {"fire", fire, 2}, {"combat", combat, 14}};
	for (size_t i = 0; i < sizeof table / sizeof *table; i++)
		if (!strcmp(table[i].action, action)) {
			*n = table[i].n;
			return table[i].opts;
		}
	*n = 0;
	return NULL;
}

/* Whether applying action by unit a at unit t on a fresh copy of the game
 * (bytes) is accepted. */
static bool accepted(const char *bytes, size_t len, const char *action, const char *a, const char *t)
{
	fray_game *g = NULL;
	assert_int_equal(fray_game_load(ctx, "copy.yaml", bytes, len, &g), FRAY_OK);
	size_t n;
	const char *const *opts = options_of(action, &n);
	fray_status st = apply_words(g, action, a, t, n, opts, NULL, NULL);
	fray_ctx_clear(ctx);
	fray_game_free(g);
	return st == FRAY_OK;
}

/* Every unit, every action of the rule set that takes a target, every unit
 * as the target: listed exactly when accepted. Returns how many pairs were
 * listed and how many were not, so that a test sees both happen. */
static void compare(fray_game *g, size_t *listed, size_t *refused)
{
	const char *bytes;
	size_t len;
	assert_int_equal(fray_game_save(g, &bytes, &len), FRAY_OK);
	char *copy = malloc(len);
	assert_non_null(copy);
	memcpy(copy, bytes, len);
	const char *rules = fray_game_rules(g);
	size_t nunits = fray_game_units(g);
	for (size_t k = 0; fray_game_rule_set_action(rules, k, NULL); k++) {
		const char *action = fray_game_rule_set_action(rules, k, NULL);
		for (size_t a = 0; a < nunits; a++) {
			size_t targets[64];
			size_t n = fray_game_targets(g, a, action, targets, 64);
			assert_int_equal(fray_ctx_status(ctx), FRAY_OK); /* the context is left clear */
			for (size_t t = 0; t < nunits; t++) {
				bool in = false;
				for (size_t i = 0; i < n; i++)
					in = in || targets[i] == t;
				bool ok = accepted(copy, len, action, fray_game_unit(g, a), fray_game_unit(g, t));
				if (in != ok)
					fail_msg("%s %s --at %s: listed %d, applied %d", action, fray_game_unit(g, a),
						 fray_game_unit(g, t), in, ok);
				*listed += in;
				*refused += !in;
			}
		}
	}
	free(copy);
}

static void presidio_targets_are_what_apply_accepts(void **state)
{
	(void)state;
	fray_game *g = NULL;
	assert_int_equal(fray_game_new(ctx, "p.yaml", "presidio", "p-forces.yaml", presidio_forces,
				       strlen(presidio_forces), 5, NULL, NULL, &g),
			 FRAY_OK);
	size_t listed = 0, refused = 0;
	compare(g, &listed, &refused);
	assert_true(listed > 0 && refused > 0);
	/* pursue: only a unit that fell back, retreated or panicked (Section
	 * 7), and only the one that broke contact with the pursuer (Section
	 * 5, Pursuit: Soldados' may_pursue; the panicked Utes did not) */
	size_t t[8];
	assert_int_equal(fray_game_targets(g, 0, "pursue", t, 8), 1);
	assert_string_equal(fray_game_unit(g, t[0]), "Comanches");
	/* an action that takes no target lists none; a panicked unit shoots at nothing */
	assert_int_equal(fray_game_targets(g, 0, "reload", t, 8), 0);
	assert_int_equal(fray_game_targets(g, 3, "shoot", t, 8), 0);
	fray_game_free(g);
}

static void bbb_targets_are_the_enemy_in_play(void **state)
{
	(void)state;
	fray_game *g = NULL;
	assert_int_equal(fray_game_new(ctx, "b.yaml", "bbb", "b-forces.yaml", bbb_forces, strlen(bbb_forces), 3, NULL,
				       NULL, &g),
			 FRAY_OK);
	size_t listed = 0, refused = 0;
	/* the Union's Offensive Fire, then its Assault (BBB Sequence of Play:
	 * each in its phase); then the Confederate's Defensive Fire */
	static const char *const phases[][4] = {{"phase", "offensive-fire", NULL}, {"next", NULL},
						{"phase", "defensive-fire", "--moving", "Union"}};
	assert_int_equal(apply_words(g, phases[0][0], phases[0][1], NULL, 0, NULL, NULL, NULL), FRAY_OK);
	compare(g, &listed, &refused);
	assert_true(listed > 0 && refused > 0);
	/* First (Union) fires at and assaults Texans only: not its own side,
	 * not the destroyed Louisianans, not itself */
	size_t t[8];
	for (int k = 0; k < 2; k++) {
		if (k)
			assert_int_equal(apply_words(g, "next", NULL, NULL, 0, NULL, NULL, NULL), FRAY_OK);
		assert_int_equal(fray_game_targets(g, 0, k ? "assault" : "fire", t, 8), 1);
		assert_string_equal(fray_game_unit(g, t[0]), "Texans");
	}
	/* cap: no more than asked for */
	assert_int_equal(apply_words(g, "phase", "defensive-fire", NULL, 2, phases[2] + 2, NULL, NULL), FRAY_OK);
	assert_int_equal(fray_game_targets(g, 2, "fire", t, 1), 1);
	fray_game_free(g);
}

static void chits_targets_are_the_other_side(void **state)
{
	(void)state;
	fray_game *g = NULL;
	assert_int_equal(fray_game_new(ctx, "c.yaml", "chits", "c-forces.yaml", chits_forces, strlen(chits_forces), 1,
				       open_mix, NULL, &g),
			 FRAY_OK);
	size_t listed = 0, refused = 0;
	compare(g, &listed, &refused);
	assert_int_equal(listed, 8);   /* each of 4 brigades: the other side's 2 */
	assert_int_equal(refused, 8 + 16); /* itself and its own side's other; end-turn takes none */
	size_t t[8];
	assert_int_equal(fray_game_targets(g, 0, "combat", t, 8), 2);
	assert_string_equal(fray_game_unit(g, t[0]), "Karl Franz");
	assert_string_equal(fray_game_unit(g, t[1]), "Reikland");
	assert_int_equal(fray_game_targets(g, 0, "no-such-action", t, 8), 0);
	fray_game_free(g);
}

/* The game request's units op: each action that takes a target lists, as
 * "targets", the names fray_game_targets gives (BBB: First fires at and
 * assaults Texans only), and an action that takes none has no list. */
static void units_op_lists_the_targets(void **state)
{
	(void)state;
	fray_game *g = NULL;
	assert_int_equal(fray_game_new(ctx, "b.yaml", "bbb", "b-forces.yaml", bbb_forces, strlen(bbb_forces), 3, NULL,
				       NULL, &g),
			 FRAY_OK);
	/* the Union's Unit Movement, its Offensive Fire, then its Assault (BBB
	 * Sequence of Play: each action in its phase) */
	size_t seen = 0, moves = 0;
	for (int phase = 0; phase < 3; phase++) {
		const char *const *step = phase == 2 ? (const char *const[]){"next", NULL}
						     : (const char *const[]){"phase", "offensive-fire", NULL};
		if (phase)
			assert_int_equal(apply_words(g, step[0], step[1], NULL, 0, NULL, NULL, NULL), FRAY_OK);
		const char *bytes;
		size_t len;
		assert_int_equal(fray_game_save(g, &bytes, &len), FRAY_OK);
		/* {"op": "units", "game": the text as a JSON string} */
		char *req = malloc(2 * len + 64), *w = req;
		assert_non_null(req);
		w += sprintf(w, "{\"op\": \"units\", \"game\": \"");
		for (size_t i = 0; i < len; i++) {
			if (bytes[i] == '\n') {
				*w++ = '\\';
				*w++ = 'n';
				continue;
			}
			if (bytes[i] == '"' || bytes[i] == '\\')
				*w++ = '\\';
			*w++ = bytes[i];
		}
		strcpy(w, "\"}");
		char *answer = NULL;
		assert_int_equal(fray_game_request(ctx, req, strlen(req), &answer), FRAY_OK);
		free(req);
		fray_doc *d = NULL;
		assert_int_equal(fray_doc_load_string(ctx, "answer", answer, strlen(answer), &d), FRAY_OK);
		free(answer);
		const fray_node *first = fray_node_item(fray_map_get(fray_doc_root(d), "units"), 0);
		assert_string_equal(fray_node_scalar(fray_map_get(first, "name")), "First");
		const fray_node *acts = fray_map_get(first, "actions");
		for (size_t i = 0; i < fray_node_len(acts); i++) {
			const fray_node *a = fray_node_item(acts, i);
			const char *name = fray_node_scalar(fray_map_get(a, "name"));
			const fray_node *targets = fray_map_get(a, "targets");
			if (!strcmp(name, "move")) {
				assert_null(targets);
				moves++;
				continue;
			}
			assert_non_null(targets);
			assert_int_equal(fray_node_len(targets), 1);
			assert_string_equal(fray_node_scalar(fray_node_item(targets, 0)), "Texans");
			seen++;
		}
		fray_doc_free(d);
	}
	assert_int_equal(seen, 2); /* fire and assault */
	assert_int_equal(moves, 1);
	fray_game_free(g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(presidio_targets_are_what_apply_accepts),
		cmocka_unit_test(bbb_targets_are_the_enemy_in_play),
		cmocka_unit_test(chits_targets_are_the_other_side),
		cmocka_unit_test(units_op_lists_the_targets),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
