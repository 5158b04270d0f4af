/* A Presidio unit's turn in the game (issue 40), against a model of the
 * text written here, not fray's query: "Each unit receives a choice of
 * two actions" (Section 2, Action Sequences); walk one, shoot one, aim and
 * shoot two (Section 2); two actions of independent fire rolled together
 * (Section 4, Independent Fire); opportunity fire only by a unit "that has
 * not taken any actions yet (they must have 2 actions left)", and none
 * after (Section 4); a charger "must have two actions available"; the
 * defenders' melee attack one action (Section 5, Melee Attacks); reloading
 * an action at a time; a rally is the turn's first phase, no action, one
 * attempt (Section 2, Game Turn Phases); a unit that flinches loses one,
 * that hunkers two, that falls back keeps "one remaining action", that
 * retreats or panics forfeits the rest (Section 7); a unit in base contact
 * neither moves nor charges, it leaves only by a retreat or a fall back
 * (Section 5, Disengaging from Melee). docs/rulings.md R47. */
#include <math.h>
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

/* Every field given, so no units file is read. X acts; T1 and T2 are
 * shot at (30 figures: they outlast two shots; they walked this turn, so
 * opportunity fire may be at them), C is charged, M1 and M2 melee X (in
 * base contact only for that: set before it). X
 * starts reloading (4 actions left to do) so a reload is an
 * action it may take. */
static const char forces[] =
	"rules: presidio\n"
	"units:\n"
	"  - {name: X, side: Spain, figures: 12, weapon: flintlock musket, ranged: 2, morale: average, reload: 4, leader: 2,\n"
	"     melee_weapon: metal 1-handed hatchet/warclub/pistol butt, melee: 1, sharpshooters: true}\n"
	"  - {name: T1, side: Apache, figures: 30, weapon: metal bow/sling, morale: average, actions_spent: walk}\n"
	"  - {name: T2, side: Apache, figures: 30, weapon: metal bow/sling, morale: average, actions_spent: walk}\n"
	"  - {name: C, side: Apache, figures: 8, weapon: metal bow/sling, morale: average}\n"
	"  - {name: M1, side: Apache, figures: 2, weapon: metal bow/sling, morale: average,\n"
	"     melee_weapon: metal 1-handed hatchet/warclub/pistol butt, melee: 1}\n"
	"  - {name: M2, side: Apache, figures: 2, weapon: metal bow/sling, morale: average,\n"
	"     melee_weapon: metal 1-handed hatchet/warclub/pistol butt, melee: 1}\n";

static fray_game *game_of(uint64_t seed)
{
	fray_game *g = NULL;
	if (fray_game_new(ctx, "turn.yaml", "presidio", "turn-forces.yaml", forces, strlen(forces), seed, NULL, NULL,
			  &g) != FRAY_OK)
		fail_msg("new: %s", fray_ctx_message(ctx));
	return g;
}

/* X's fields as `status --json` gives them. */
typedef struct seen {
	char status[32], spent[64];
	int left;
} seen;

static seen x_now(const fray_game *g)
{
	fray_doc *d = game_status_doc(g);
	const fray_node *u = fray_node_item(fray_map_get(fray_doc_root(d), "units"), 0);
	assert_string_equal(fray_node_scalar(fray_map_get(u, "name")), "X");
	seen s = {0};
	const char *spent = fray_node_scalar(fray_map_get(u, "actions_spent"));
	const char *left = fray_node_scalar(fray_map_get(u, "actions_left"));
	if (!spent || !left)
		fail_msg("status --json has no actions_spent or actions_left for X");
	snprintf(s.status, sizeof s.status, "%s", fray_node_scalar(fray_map_get(u, "status")));
	snprintf(s.spent, sizeof s.spent, "%s", spent);
	s.left = atoi(left);
	fray_doc_free(d);
	return s;
}

/* ---- the model of the text ---- */

enum kind { SHOOT, AIMED, OPPORTUNITY, TWO_ACTIONS, CHARGE, MELEE_REACTION, MOVE, RELOAD, RALLY, NKINDS };
static const char *const kind_names[NKINDS] = {"shoot", "aim-and-shoot", "opportunity fire", "two-action fire",
					       "charge", "melee reaction", "move", "reload", "rally"};
/* Section 2: walk one, shoot one, aim and shoot two, "shoot twice ...
 * using up two actions"; Section 5: a charge needs (and runs with) two,
 * the defenders' attack one; reloading one an action; a rally none. */
static const int cost[NKINDS] = {1, 2, 1, 2, 2, 1, 1, 1, 0};

typedef struct model {
	int spent;
	bool acted;        /* an action taken this turn (a rally is none) */
	bool opportunity;  /* opportunity fire taken: nothing after */
	bool rallied;      /* the one rally attempt made */
} model;

/* Section 7: what a morale result takes from the turn. */
static int lost_to(const char *standing)
{
	if (!strcmp(standing, "flinched") || !strcmp(standing, "fell back"))
		return 1;
	if (!strcmp(standing, "good") || !strcmp(standing, "disordered"))
		return 0;
	return 2; /* hunkered; retreated, panicked: forfeit; out of the fight */
}

static int model_left(const model *m, const char *standing)
{
	if (m->opportunity)
		return 0;
	int left = 2 - m->spent - lost_to(standing);
	return left > 0 ? left : 0;
}

static bool out_of_fight(const char *standing)
{
	return !strcmp(standing, "surrendered") || !strcmp(standing, "destroyed");
}

/* Whether X is in base contact now, as the game file keeps it (X's own
 * contact, or a unit's naming X): the melee's and the charge's outcome
 * (who gave way) is the dice's, so the model reads where they left X. */
static bool x_in_contact(const fray_game *g)
{
	char *text = game_saved(g);
	char *log = strstr(text, "\nlog:");
	if (log)
		*log = '\0';
	bool in = strstr(text, "contact: \"X\"") != NULL;
	char *x = strstr(text, "name: \"X\"");
	char *next = x ? strstr(x + 1, "name: \"") : NULL;
	char *c = x ? strstr(x, "contact: \"") : NULL;
	if (c && (!next || c < next) && c[10] != '"')
		in = true;
	free(text);
	return in;
}

/* Section 5, Disengaging from Melee: "it must make a 'retreat' (2
 * actions), or 'fall back' (1 action)"; Melee: "Melee continues until
 * contact is broken": in contact, no move and no charge. */
static bool model_allows_in_contact(bool contact, enum kind k)
{
	return !contact || (k != MOVE && k != CHARGE);
}

static bool model_allows(const model *m, const char *standing, enum kind k)
{
	if (out_of_fight(standing))
		return false;
	if (k == RALLY) /* Section 2: panicked troops rally, first in the turn, once */
		return !strcmp(standing, "panicked") && !m->acted && !m->rallied;
	if (!strcmp(standing, "panicked"))
		return false;
	if (m->opportunity)
		return false;
	int left = model_left(m, standing);
	if (k == OPPORTUNITY)
		return !m->acted && left == 2;
	if (k == CHARGE)
		return left == 2;
	return cost[k] <= left;
}

static void model_take(model *m, enum kind k)
{
	if (k == RALLY) {
		m->rallied = true;
		return;
	}
	m->spent += cost[k];
	m->acted = true;
	m->opportunity |= k == OPPORTUNITY;
}

/* ---- the actions ---- */

/* The words of k for X (a: the pair's first action, at T1; else at T2,
 * so a second shot is no sequel of the first at the same target). */
static fray_status do_kind(fray_game *g, enum kind k, bool first)
{
	const char *t = first ? "T1" : "T2", *m = first ? "M1" : "M2";
	switch (k) {
	case SHOOT:
		return game_act(g, (const char *const[]){"shoot", "X", "--at", t, "--band", "long", NULL});
	case AIMED:
		return game_act(g, (const char *const[]){"shoot", "X", "--at", t, "--band", "long", "--mode", "aimed", NULL});
	case OPPORTUNITY:
		return game_act(g, (const char *const[]){"shoot", "X", "--at", t, "--band", "long", "--mode", "opportunity",
						    NULL});
	case TWO_ACTIONS:
		return game_act(g, (const char *const[]){"shoot", "X", "--at", t, "--band", "long", "--actions", "2", NULL});
	case CHARGE:
		return game_act(g, (const char *const[]){"charge", "X", "--at", "C", "--reaction", "stand", NULL});
	case MELEE_REACTION: /* X, meleed, strikes back */
		return game_act(g, (const char *const[]){"melee", m, "--at", "X", "--both", NULL});
	case MOVE:
		return game_act(g, (const char *const[]){"move", "X", NULL});
	case RELOAD:
		return game_act(g, (const char *const[]){"reload", "X", NULL});
	default:
		return game_act(g, (const char *const[]){"rally", "X", NULL});
	}
}

static int accepted_seen, refused_seen;

/* Every ordered pair of actions in one turn: the game accepts or refuses
 * the second as the model says, a refusal writes nothing and gives the
 * rule, and `turn` clears what was spent. */
static void every_pair(void **state)
{
	(void)state;
	for (int a = 0; a < NKINDS; a++)
		for (int b = 0; b < NKINDS; b++) {
			fray_game *g = game_of((uint64_t)(1 + a * NKINDS + b));
			model m = {0};
			if (a == MELEE_REACTION) {
				const char *const touch[] = {"set", "M1", "contact=X", NULL};
				assert_int_equal(game_act(g, touch), FRAY_OK);
			}
			if (a == RALLY) {
				const char *const panic[] = {"set", "X", "status=panicked", NULL};
				assert_int_equal(game_act(g, panic), FRAY_OK);
			}
			seen s = x_now(g);
			assert_int_equal(s.left, a == RALLY ? 0 : 2);
			assert_true(model_allows(&m, s.status, (enum kind)a));
			if (do_kind(g, (enum kind)a, true) != FRAY_OK)
				fail_msg("%s first in the turn: refused: %s", kind_names[a], fray_ctx_message(ctx));
			model_take(&m, (enum kind)a);
			s = x_now(g);
			if (s.left != model_left(&m, s.status))
				fail_msg("after %s (%s): %d actions left, the text gives %d", kind_names[a], s.status, s.left,
					 model_left(&m, s.status));
			assert_true(s.spent[0] != '\0'); /* on what */
			/* M2 in base contact with X for its melee (Section 5): the
			 * turn is what is tested here */
			if (b == MELEE_REACTION) {
				const char *const touch[] = {"set", "M2", "contact=X", NULL};
				assert_int_equal(game_act(g, touch), FRAY_OK);
			}
			bool want = model_allows(&m, s.status, (enum kind)b) &&
				    model_allows_in_contact(x_in_contact(g), (enum kind)b);
			if (getenv("TURN_DEBUG"))
				printf("%s (%s) then %s: %s\n", kind_names[a], s.status, kind_names[b], want ? "yes" : "no");
			char *before = game_saved(g);
			size_t log = fray_game_log_len(g);
			fray_status st = do_kind(g, (enum kind)b, false);
			if (want && st != FRAY_OK)
				fail_msg("%s then %s (%s): refused, the text allows it: %s", kind_names[a], kind_names[b],
					 s.status, fray_ctx_message(ctx));
			if (!want && st == FRAY_OK)
				fail_msg("%s then %s (%s): accepted, the text refuses it", kind_names[a], kind_names[b],
					 s.status);
			if (!want) {
				assert_int_equal(st, FRAY_ERR_INPUT);
				const char *msg = fray_ctx_message(ctx);
				if (!out_of_fight(s.status) && !strstr(msg, "Presidio Section"))
					fail_msg("%s then %s: the refusal gives no rule: %s", kind_names[a], kind_names[b],
						 msg);
				fray_ctx_clear(ctx);
				char *after = game_saved(g);
				assert_string_equal(before, after);
				assert_int_equal(fray_game_log_len(g), log);
				free(after);
				refused_seen++;
			} else {
				accepted_seen++;
			}
			free(before);
			/* the next turn: two actions again (a panic lasts until a
			 * rally; Section 7) */
			const char *const turn[] = {"turn", NULL};
			assert_int_equal(game_act(g, turn), FRAY_OK);
			s = x_now(g);
			assert_string_equal(s.spent, "");
			assert_int_equal(s.left, out_of_fight(s.status) || !strcmp(s.status, "panicked") ? 0 : 2);
			fray_game_free(g);
		}
	printf("pairs: %d accepted, %d refused\n", accepted_seen, refused_seen);
	/* both ways are reached */
	assert_true(accepted_seen > 10 && refused_seen > 10);
}

/* The turn's actions are in the game file: saved and read back, and an
 * undo gives them back as they were. */
static void kept_in_the_file(void **state)
{
	(void)state;
	fray_game *g = game_of(3);
	const char *const walk[] = {"move", "X", NULL};
	const char *const two[] = {"shoot", "X", "--at", "T1", "--band", "long", "--actions", "2", NULL};
	assert_int_equal(game_act(g, walk), FRAY_OK);
	char *text = game_saved(g);
	fray_game *back = NULL;
	assert_int_equal(fray_game_load(ctx, "turn.yaml", text, strlen(text), &back), FRAY_OK);
	assert_int_equal(x_now(back).left, 1);
	assert_string_equal(x_now(back).spent, "walk");
	/* one left: two actions of fire are refused in the game read back */
	assert_int_equal(game_act(back, two), FRAY_ERR_INPUT);
	fray_ctx_clear(ctx);
	const char *const shoot[] = {"shoot", "X", "--at", "T1", "--band", "long", NULL};
	assert_int_equal(game_act(back, shoot), FRAY_OK);
	assert_int_equal(x_now(back).left, 0);
	assert_int_equal(fray_game_undo(back), FRAY_OK);
	assert_int_equal(x_now(back).left, 1);
	/* a file that names no action is refused on reading */
	const char *bad = strstr(text, "actions_spent: \"walk\"");
	assert_non_null(bad);
	char *wrong = strdup(text);
	memcpy(wrong + (bad - text), "actions_spent: \"wolk\"", strlen("actions_spent: \"wolk\""));
	fray_game *no = NULL;
	assert_int_equal(fray_game_load(ctx, "turn.yaml", wrong, strlen(wrong), &no), FRAY_ERR_INPUT);
	if (!strstr(fray_ctx_message(ctx), "actions_spent"))
		fail_msg("the refusal does not name actions_spent: %s", fray_ctx_message(ctx));
	fray_ctx_clear(ctx);
	free(wrong);
	free(text);
	fray_game_free(back);
	fray_game_free(g);
}

/* The reviewer's finding (2026-12-03): free actions (ride, gallop,
 * panic) let a legal turn's text pass the 47 bytes a game file's text
 * field held, and the cut text read back as no turn at all. Any turn
 * fray_presidio_turn_take allows now fits: eight of the longest name. */
static void longest_turn_kept(void **state)
{
	(void)state;
	size_t longest = 0;
	int at = 0;
	for (int k = 0; k < FRAY_PRESIDIO_NACTIONS; k++)
		if (strlen(fray_presidio_action_names[k]) > longest) {
			longest = strlen(fray_presidio_action_names[k]);
			at = k;
		}
	assert_int_equal(longest, FRAY_PRESIDIO_ACTION_NAME_MAX);
	fray_presidio_turn t = {0};
	while (fray_presidio_turn_take(&t, (fray_presidio_action)at))
		;
	assert_int_equal(t.n, FRAY_PRESIDIO_TURN_MAX);
	char text[FRAY_PRESIDIO_TURN_TEXT_MAX];
	assert_true(fray_presidio_turn_text(&t, text, sizeof text));
	/* n names and n - 1 ", " between them */
	assert_int_equal(strlen(text), FRAY_PRESIDIO_TURN_MAX * longest + (FRAY_PRESIDIO_TURN_MAX - 1) * 2);
	fray_presidio_turn back;
	assert_true(fray_presidio_turn_read(text, &back));
	assert_int_equal(back.n, t.n);
	/* one byte short: refused, and no partial text left to read back */
	assert_false(fray_presidio_turn_text(&t, text, sizeof text - 1));
	assert_string_equal(text, "");

	/* a game file keeps a turn past the old 47 bytes and reads it back */
	fray_game *g = game_of(3);
	const char *const walk[] = {"move", "X", NULL};
	assert_int_equal(game_act(g, walk), FRAY_OK);
	char *saved = game_saved(g);
	const char *old = "actions_spent: \"walk\"";
	const char *was = strstr(saved, old);
	assert_non_null(was);
	static const char turn[] = "rally, walk, moving-fire, walk, moving-fire, panic";
	assert_true(strlen(turn) > 47);
	size_t head = (size_t)(was - saved), len = strlen(saved) + sizeof turn + 32;
	char *longer = malloc(len);
	assert_non_null(longer);
	snprintf(longer, len, "%.*sactions_spent: \"%s\"%s", (int)head, saved, turn, was + strlen(old));
	fray_game *loaded = NULL;
	if (fray_game_load(ctx, "turn.yaml", longer, strlen(longer), &loaded) != FRAY_OK)
		fail_msg("a long turn is refused: %s", fray_ctx_message(ctx));
	char *again = game_saved(loaded);
	if (!strstr(again, turn))
		fail_msg("the turn did not come back whole:\n%s", again);
	free(again);
	fray_game_free(loaded);
	free(longer);
	free(saved);
	fray_game_free(g);
}

/* The referee's finding (2026-12-03): opportunity fire was accepted at a
 * unit that had not moved. Section 4 gives it "at the moving unit": C has
 * taken no action this turn, T1 walked. */
static void opportunity_fire_is_at_a_moving_unit(void **state)
{
	(void)state;
	fray_game *g = game_of(4);
	char *before = game_saved(g);
	const char *const at_c[] = {"shoot", "X", "--at", "C", "--band", "long", "--mode", "opportunity", NULL};
	assert_int_equal(game_act(g, at_c), FRAY_ERR_INPUT);
	if (!strstr(fray_ctx_message(ctx), "at the moving unit"))
		fail_msg("the refusal does not name the rule: %s", fray_ctx_message(ctx));
	fray_ctx_clear(ctx);
	char *after = game_saved(g);
	assert_string_equal(before, after);
	const char *const at_t1[] = {"shoot", "X", "--at", "T1", "--band", "long", "--mode", "opportunity", NULL};
	assert_int_equal(game_act(g, at_t1), FRAY_OK);
	free(before);
	free(after);
	fray_game_free(g);
}

/* Issue 40 item 3: after `shoot --actions 2`, after aimed fire and after
 * opportunity fire, another shooting action was accepted (with another
 * morale check for its target). Refused now: status 2, nothing written,
 * the reason in the text's words. */
static void no_shot_after_the_turns_fire(void **state)
{
	(void)state;
	static const struct {
		const char *mode, *actions, *words;
	} firsts[] = {
		{"independent", "2", "two actions"},
		{"aimed", "1", "two actions"},
		{"opportunity", "1", "may not take any further actions"},
	};
	for (size_t i = 0; i < sizeof firsts / sizeof *firsts; i++) {
		fray_game *g = game_of(10 + i);
		const char *const first[] = {"shoot", "X", "--at", "T1", "--band", "long", "--mode", firsts[i].mode,
					     "--actions", firsts[i].actions, NULL};
		assert_int_equal(game_act(g, first), FRAY_OK);
		char *before = game_saved(g);
		const char *const again[] = {"shoot", "X", "--at", "T2", "--band", "long", NULL};
		assert_int_equal(game_act(g, again), FRAY_ERR_INPUT);
		if (!strstr(fray_ctx_message(ctx), firsts[i].words))
			fail_msg("after %s fire: the refusal does not say '%s': %s", firsts[i].mode, firsts[i].words,
				 fray_ctx_message(ctx));
		fray_ctx_clear(ctx);
		char *after = game_saved(g);
		assert_string_equal(before, after);
		assert_int_equal(fray_game_log_len(g), 1);
		free(before);
		free(after);
		fray_game_free(g);
	}
}

/* Issue 40 item 4: the odds of `shoot --actions 2` are those of every die
 * the action rolls. X: 12 figures with flintlock muskets, reload 4
 * (Section 10), fire 12 / 4 = 3 figures an action (ruling R14), so two
 * actions roll 6 d12; Hit# 11, long range +0, ranged skill 2: 9+, 4 faces
 * in 12. The chance of k hits is the binomial's over 6 dice (not 3). */
static void odds_of_two_actions(void **state)
{
	(void)state;
	fray_game *g = game_of(4);
	const char *const two[] = {"shoot", "X", "--at", "T1", "--band", "long", "--actions", "2", NULL};
	char *out = NULL;
	assert_int_equal(fray_game_act_odds(g, 8, two, true, &out), FRAY_OK);
	fray_doc *d;
	if (fray_doc_load_string(ctx, "odds", out, strlen(out), &d) != FRAY_OK)
		fail_msg("odds: %s", fray_ctx_message(ctx));
	double by_hits[7] = {0};
	const fray_node *outcomes = fray_map_get(fray_doc_root(d), "outcomes");
	assert_true(fray_node_len(outcomes) > 0);
	for (size_t i = 0; i < fray_node_len(outcomes); i++) {
		const fray_node *o = fray_node_item(outcomes, i);
		int hits = atoi(fray_node_scalar(fray_map_get(fray_map_get(o, "outcome"), "hits")));
		assert_true(hits >= 0 && hits <= 6);
		by_hits[hits] += strtod(fray_node_scalar(fray_map_get(o, "p")), NULL);
	}
	const double p = 4.0 / 12;
	for (int k = 0; k <= 6; k++) {
		double choose = 1;
		for (int j = 0; j < k; j++)
			choose = choose * (6 - j) / (j + 1);
		double want = choose * pow(p, k) * pow(1 - p, 6 - k);
		if (fabs(by_hits[k] - want) > 1e-9)
			fail_msg("P(%d hits) = %.12f, 6 dice at 9+ give %.12f (3 dice: P(0) = %.6f)", k, by_hits[k], want,
				 pow(1 - p, 3));
	}
	fray_doc_free(d);
	free(out);
	/* a question, not an action: nothing spent, nothing written */
	assert_int_equal(x_now(g).left, 2);
	assert_int_equal(fray_game_log_len(g), 0);
	fray_game_free(g);
}

/* Section 4, Special Cover: "skirmish units that have at least one action
 * left, may attempt to evade enemy fire", "Evasion costs one action
 * point"; taking cover needs "two actions left" and "costs two action
 * points": the target's own actions. */
static void the_targets_actions_against_fire(void **state)
{
	(void)state;
	fray_game *g = game_of(21);
	const char *const evade[] = {"shoot", "T1", "--at", "X", "--band", "long", "--evading", NULL};
	const char *const cover[] = {"shoot", "T2", "--at", "X", "--band", "long", "--taking-cover", NULL};
	assert_int_equal(game_act(g, evade), FRAY_OK);
	seen s = x_now(g);
	if (!out_of_fight(s.status) && lost_to(s.status) == 0)
		assert_int_equal(s.left, 1);
	/* one left: taking cover needs two */
	char *before = game_saved(g);
	assert_int_equal(game_act(g, cover), FRAY_ERR_INPUT);
	if (!out_of_fight(s.status) && !strstr(fray_ctx_message(ctx), "X cannot take cover"))
		fail_msg("not refused for X's actions: %s", fray_ctx_message(ctx));
	fray_ctx_clear(ctx);
	char *after = game_saved(g);
	assert_string_equal(before, after);
	free(before);
	free(after);
	fray_game_free(g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_pair),
		cmocka_unit_test(kept_in_the_file),
		cmocka_unit_test(longest_turn_kept),
		cmocka_unit_test(opportunity_fire_is_at_a_moving_unit),
		cmocka_unit_test(no_shot_after_the_turns_fire),
		cmocka_unit_test(odds_of_two_actions),
		cmocka_unit_test(the_targets_actions_against_fire),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
