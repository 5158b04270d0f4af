/* Advice's exactness, checked independently (issue 44, "Done when", first
 * bullet, for Presidio and BBB: their procedures ask no questions, the
 * choices are the action's options). For every unit of the shipped forces
 * the test makes its own list of everything the unit might do (each
 * action of the rule set, at each unit of the game or at none, with each
 * choice of options its player makes: the fire mode, one or two actions,
 * a walk or a run), keeps those the game applies (fray_game_act on a
 * copy), values each from the exact odds of its first roll (the game's
 * --odds, fray_game_act_odds) with its own worth, written from the goals'
 * tables of docs/presidio.md and docs/bbb.md, and checks that advise's top
 * value is the maximum exactly, as fractions, and that its top action is
 * one that attains it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gmp.h>
#include <cmocka.h>
#include "../test_util.h"

enum { NGOALS = 4 };
static const char *const goal_names[NGOALS] = {"win", "not-lose", "casualties", "hold"};

/* ---- the worth of one outcome, per goal (the docs' tables) ---- */

static long field(const fray_node *o, const char *name)
{
	const char *s = fray_node_scalar(fray_map_get(o, name));
	if (!s)
		return 0;
	if (strcmp(s, "true") == 0)
		return 1;
	if (strcmp(s, "false") == 0)
		return 0;
	return strtol(s, NULL, 10);
}

/* docs/presidio.md, "Advice and solo play": w[goal] for an outcome o of
 * action's first roll */
static void presidio_worth(const char *action, const fray_node *o, long w[NGOALS])
{
	long cas = field(o, "casualties");
	if (strcmp(action, "shoot") == 0) {
		long row[NGOALS] = {field(o, "morale_check"), 1, cas, 1};
		memcpy(w, row, sizeof row);
	} else if (strcmp(action, "melee") == 0 || strcmp(action, "pursue") == 0) {
		long row[NGOALS] = {cas > 0, 1, cas, 1};
		memcpy(w, row, sizeof row);
	} else if (strcmp(action, "charge") == 0) {
		long failed = !field(o, "success");
		long row[NGOALS] = {!field(o, "holds"), failed, 0, failed};
		memcpy(w, row, sizeof row);
	} else if (strcmp(action, "rally") == 0) {
		long r = field(o, "rallied");
		long row[NGOALS] = {r, r, 0, r};
		memcpy(w, row, sizeof row);
	} else {
		fail_msg("presidio: no worth for %s's dice", action);
	}
}

/* docs/bbb.md, "Advice and solo play" */
static void bbb_worth(const char *action, const fray_node *o, long w[NGOALS])
{
	if (strcmp(action, "fire") == 0) {
		long lost = field(o, "target_bases_lost");
		long effect = lost > 0 || field(o, "target_disrupted") || field(o, "target_silenced") ||
			      field(o, "target_destroyed") || field(o, "target_halted");
		long ammo = !field(o, "low_ammo");
		long row[NGOALS] = {effect, ammo, lost, ammo};
		memcpy(w, row, sizeof row);
	} else if (strcmp(action, "assault") == 0) {
		long def = field(o, "defender_bases_lost"), att = field(o, "attacker_bases_lost");
		long row[NGOALS] = {def > att, def >= att, def, att == 0 && !field(o, "attacker_disrupted")};
		memcpy(w, row, sizeof row);
	} else if (strcmp(action, "move") == 0) {
		long kept = field(o, "bases_change") >= 0 && !field(o, "broken");
		long row[NGOALS] = {0, kept, 0, kept};
		memcpy(w, row, sizeof row);
	} else {
		fail_msg("bbb: no worth for %s's dice", action);
	}
}

/* an action that rolls no dice (a reload, a Presidio move): certain */
static const long no_dice[NGOALS] = {0, 1, 0, 1};

typedef struct rule_set {
	const char *rules, *forces;
	const char *const *actions;
	/* the player's choices of options for action (NULL-separated lists,
	 * ended by an empty one), and the situation advice assumes */
	const char *const *const *(*choices)(const char *action);
	const char *const *situation;
	const char *situation_for;
	void (*worth)(const char *action, const fray_node *o, long w[NGOALS]);
	/* the game's places the check is made in, each the words of an
	 * action from a new game (NULL-ended; NULL: the new game alone): BBB's
	 * phases, where each unit's actions are its phase's (docs/bbb.md) */
	const char *const *const *states;
} rule_set;

#define W(...) ((const char *const[]){__VA_ARGS__, NULL})
static const char *const none[] = {NULL};

static const char *const ind1[] = {"--mode", "independent", NULL}, *const ind2[] = {"--mode", "independent",
	"--actions", "2", NULL}, *const vol1[] = {"--mode", "volley", NULL}, *const vol2[] = {"--mode", "volley",
	"--actions", "2", NULL}, *const aim1[] = {"--mode", "aimed", NULL}, *const aim2[] = {"--mode", "aimed",
	"--actions", "2", NULL}, *const run[] = {"--run", NULL};
static const char *const *const shoot_choices[] = {ind1, ind2, vol1, vol2, aim1, aim2, NULL};
static const char *const *const move_choices[] = {none, run, NULL};
static const char *const *const plain_choices[] = {none, NULL};

static const char *const *const *presidio_choices(const char *action)
{
	return strcmp(action, "shoot") == 0 ? shoot_choices : strcmp(action, "move") == 0 ? move_choices
											 : plain_choices;
}

static const char *const *const *bbb_choices(const char *action)
{
	(void)action;
	return plain_choices;
}

static const rule_set presidio = {
	"presidio", "presidio/forces.yaml",
	W("shoot", "melee", "charge", "pursue", "rally", "reload", "move"),
	presidio_choices, W("--band", "medium"), "shoot", presidio_worth, NULL,
};

/* the Union moves first (its units are listed first): its Unit Movement,
 * Offensive Fire and Assault, the Confederate's Defensive Fire in it; the
 * Confederate's Unit Movement and Assault in its own turn */
static const char *const *const bbb_states[] = {
	W("phase", "movement", "--moving", "Union"),       W("phase", "offensive-fire"),
	W("phase", "assault"),                             W("phase", "defensive-fire", "--moving", "Union"),
	W("phase", "movement", "--moving", "Confederate"), W("phase", "assault", "--moving", "Confederate"),
	NULL};

static const rule_set bbb = {
	"bbb", "bbb/forces.yaml", W("fire", "assault", "move"), bbb_choices, W("--range", "6"), "fire", bbb_worth,
	bbb_states,
};

/* ---- the game ---- */

/* The shipped forces (examples/), a new game of them from seed 7. */
static fray_game *new_game(const rule_set *rs)
{
	char path[1024];
	snprintf(path, sizeof path, "%s/examples/%s", FRAY_SOURCE_DIR, rs->forces);
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	long size = ftell(f);
	assert_true(size > 0);
	rewind(f);
	char *forces = malloc((size_t)size);
	assert_non_null(forces);
	assert_int_equal(fread(forces, 1, (size_t)size, f), (size_t)size);
	fclose(f);
	fray_game *g = NULL;
	fray_status st = fray_game_new(ctx, "exact.yaml", rs->rules, path, forces, (size_t)size, 7, NULL, NULL, &g);
	free(forces);
	if (st != FRAY_OK)
		fail_msg("new %s: %s", rs->forces, fray_ctx_message(ctx));
	return g;
}

/* One candidate: its words and its value under each goal. */
typedef struct cand {
	const char *action, *target;
	const char *const *opts;
	mpq_t v[NGOALS];
} cand;

static size_t words(const rule_set *rs, const cand *c, const char *unit, const char **w)
{
	size_t n = 0;
	w[n++] = c->action;
	w[n++] = unit;
	if (c->target) {
		w[n++] = "--at";
		w[n++] = c->target;
	}
	for (size_t i = 0; c->opts[i]; i++)
		w[n++] = c->opts[i];
	if (strcmp(c->action, rs->situation_for) == 0)
		for (size_t i = 0; rs->situation[i]; i++)
			w[n++] = rs->situation[i];
	return n;
}

/* Whether the game applies it (to a copy: the game is unchanged). */
static bool accepted(const char *bytes, size_t len, size_t n, const char **w)
{
	fray_game *copy = NULL;
	assert_int_equal(fray_game_load(ctx, "copy.yaml", bytes, len, &copy), FRAY_OK);
	fray_policy *pol = fray_policy_heuristic_new(ctx);
	bool ok = fray_game_act(copy, n, w, pol, NULL, NULL) == FRAY_OK;
	fray_ctx_clear(ctx);
	fray_policy_free(pol);
	fray_game_free(copy);
	return ok;
}

/* c's value under each goal: the sum over its first roll's outcomes of
 * their exact chance times their worth. */
static void value(const rule_set *rs, fray_game *g, cand *c, size_t n, const char **w)
{
	char *odds = NULL;
	if (fray_game_act_odds(g, n, w, FRAY_FORMAT_JSON, &odds) != FRAY_OK) {
		/* only an action with no dice has no odds */
		if (!strstr(fray_ctx_message(ctx), "no dice"))
			fail_msg("%s: no odds: %s", c->action, fray_ctx_message(ctx));
		fray_ctx_clear(ctx);
		for (int k = 0; k < NGOALS; k++)
			mpq_set_si(c->v[k], no_dice[k], 1);
		return;
	}
	fray_doc *doc = NULL;
	assert_int_equal(fray_doc_load_string(ctx, "odds", odds, strlen(odds), &doc), FRAY_OK);
	const fray_node *outs = fray_map_get(fray_doc_root(doc), "outcomes");
	assert_true(fray_node_len(outs) > 0);
	mpq_t p, t;
	mpq_inits(p, t, NULL);
	for (size_t i = 0; i < fray_node_len(outs); i++) {
		const fray_node *item = fray_node_item(outs, i);
		assert_int_equal(mpq_set_str(p, fray_node_scalar(fray_map_get(item, "exact")), 10), 0);
		mpq_canonicalize(p);
		long wo[NGOALS];
		rs->worth(c->action, fray_map_get(item, "outcome"), wo);
		for (int k = 0; k < NGOALS; k++) {
			mpq_set_si(t, wo[k], 1);
			mpq_mul(t, t, p);
			mpq_add(c->v[k], c->v[k], t);
		}
	}
	mpq_clears(p, t, NULL);
	fray_doc_free(doc);
	free(odds);
}

/* The option words of an advice entry ("options": {"mode": "volley",
 * "actions": 2, "run": true}), without the situation's, as the test's
 * candidates write them. */
static bool same_choice(const rule_set *rs, const cand *c, const fray_node *a)
{
	if (strcmp(fray_node_scalar(fray_map_get(a, "action")), c->action) != 0)
		return false;
	const char *t = fray_node_scalar(fray_map_get(a, "target"));
	bool has_t = t && strcmp(t, "null") != 0;
	if (has_t != (c->target != NULL) || (has_t && strcmp(t, c->target) != 0))
		return false;
	const fray_node *o = fray_map_get(a, "options");
	size_t matched = 0;
	for (size_t i = 0; i < fray_node_len(o); i++) {
		char opt[64];
		snprintf(opt, sizeof opt, "--%s", fray_node_scalar(fray_node_key(o, i)));
		const char *v = fray_node_scalar(fray_node_value(o, i));
		bool situation = false;
		for (size_t s = 0; rs->situation[s]; s += 2)
			situation |= strcmp(rs->situation[s], opt) == 0 && strcmp(rs->situation[s + 1], v) == 0;
		/* a charge's defender stands unless the player says otherwise:
		 * the reaction advice assumes (docs/presidio.md, Advice) */
		situation |= !strcmp(c->action, "charge") && !strcmp(opt, "--reaction") && !strcmp(v, "stand");
		if (situation)
			continue;
		size_t j = 0;
		while (c->opts[j] && strcmp(c->opts[j], opt) != 0)
			j++;
		if (!c->opts[j])
			return false;
		bool flag = strcmp(v, "true") == 0;
		if (!flag && (!c->opts[j + 1] || strcmp(c->opts[j + 1], v) != 0))
			return false;
		matched += flag ? 1 : 2;
	}
	size_t words_in = 0;
	while (c->opts[words_in])
		words_in++;
	return matched == words_in;
}

enum { MAX_CANDS = 512, MAX_UNITS = 16 };

/* Each unit's side, from the game's status (JSON). */
static void sides_of(fray_game *g, char side[][64], size_t n)
{
	char *status = NULL;
	assert_int_equal(fray_game_status(g, "json", &status), FRAY_OK);
	fray_doc *doc = NULL;
	assert_int_equal(fray_doc_load_string(ctx, "status", status, strlen(status), &doc), FRAY_OK);
	const fray_node *units = fray_map_get(fray_doc_root(doc), "units");
	assert_int_equal(fray_node_len(units), n);
	for (size_t u = 0; u < n; u++) {
		const fray_node *x = fray_node_item(units, u);
		assert_string_equal(fray_node_scalar(fray_map_get(x, "name")), fray_game_unit(g, u));
		snprintf(side[u], 64, "%s", fray_node_scalar(fray_map_get(x, "side")));
	}
	fray_doc_free(doc);
	free(status);
}

static void check_in(const rule_set *rs, const char *const *state, size_t *ncands, size_t *acts);

/* In each of the rule set's places (BBB: its phases), every unit of the
 * forces: in one of them at least, it has an action the game applies. */
static void check_rules(const rule_set *rs, size_t *ncands)
{
	size_t acts[MAX_UNITS] = {0};
	*ncands = 0;
	for (size_t i = 0; rs->states ? rs->states[i] != NULL : i == 0; i++)
		check_in(rs, rs->states ? rs->states[i] : NULL, ncands, acts);
	fray_game *g = new_game(rs);
	for (size_t u = 0; u < fray_game_units(g); u++)
		if (acts[u] == 0)
			fail_msg("%s: %s has no action the game applies", rs->rules, fray_game_unit(g, u));
	fray_game_free(g);
}

/* The check from the new game moved on by state's action (NULL: none):
 * each unit with an action the game applies there, its count added to
 * acts. */
static void check_in(const rule_set *rs, const char *const *state, size_t *ncands, size_t *acts)
{
	fray_game *g = new_game(rs);
	size_t nstate = 0;
	while (state && state[nstate])
		nstate++;
	if (nstate && fray_game_act(g, nstate, state, NULL, NULL, NULL) != FRAY_OK)
		fail_msg("%s: %s", state[0], fray_ctx_message(ctx));
	const char *bytes;
	size_t len;
	fray_game_save(g, &bytes, &len);
	cand *cs = calloc(MAX_CANDS, sizeof *cs);
	assert_non_null(cs);
	size_t nunits = fray_game_units(g);
	assert_true(nunits <= MAX_UNITS);
	char side[MAX_UNITS][64];
	sides_of(g, side, nunits);
	for (size_t u = 0; u < nunits; u++) {
		const char *unit = fray_game_unit(g, u);
		/* the test's own list: every action, at every enemy unit or
		 * none, with every choice of options; kept if the game applies
		 * it. (The goals count what befalls the enemy: a Presidio game
		 * also lets a unit shoot or melee its own side's units, which
		 * advice does not weigh, docs/presidio.md: "against each enemy
		 * unit".) */
		size_t n = 0;
		for (size_t a = 0; rs->actions[a]; a++)
			for (size_t t = 0; t <= nunits; t++) {
				if (t < nunits && strcmp(side[t], side[u]) == 0)
					continue;
				const char *const *const *ch = rs->choices(rs->actions[a]);
				for (size_t o = 0; ch[o]; o++) {
					assert_true(n < MAX_CANDS);
					cand *c = &cs[n];
					c->action = rs->actions[a];
					c->target = t < nunits ? fray_game_unit(g, t) : NULL;
					c->opts = ch[o];
					const char *w[32];
					size_t nw = words(rs, c, unit, w);
					if (!accepted(bytes, len, nw, w))
						continue;
					for (int k = 0; k < NGOALS; k++)
						mpq_init(c->v[k]);
					value(rs, g, c, nw, w);
					n++;
				}
			}
		acts[u] += n;
		if (n == 0)
			continue;
		*ncands += n;
		for (int k = 0; k < NGOALS; k++) {
			mpq_t max, top;
			mpq_inits(max, top, NULL);
			size_t arg = 0;
			for (size_t i = 1; i < n; i++)
				if (mpq_cmp(cs[i].v[k], cs[arg].v[k]) > 0)
					arg = i;
			mpq_set(max, cs[arg].v[k]);
			char *out = NULL;
			if (fray_game_advise(g, unit, goal_names[k], 0, NULL, FRAY_FORMAT_JSON, &out) != FRAY_OK)
				fail_msg("advise %s: %s", unit, fray_ctx_message(ctx));
			fray_doc *doc = NULL;
			assert_int_equal(fray_doc_load_string(ctx, "advice", out, strlen(out), &doc), FRAY_OK);
			const fray_node *first = fray_node_item(fray_map_get(fray_doc_root(doc), "actions"), 0);
			assert_non_null(first);
			assert_int_equal(mpq_set_str(top, fray_node_scalar(fray_map_get(first, "exact")), 10), 0);
			mpq_canonicalize(top);
			/* the top action is one of the test's, and its own value
			 * (the test's) is the maximum */
			size_t i = 0;
			while (i < n && !same_choice(rs, &cs[i], first))
				i++;
			char a[256], b[256];
			if (!mpq_equal(top, max) || i == n || !mpq_equal(cs[i].v[k], max))
				fail_msg("%s %s, goal %s: advise's top %s (%s) against the maximum %s over %zu choices "
					 "(%s at %s%s%s)%s", rs->rules, unit, goal_names[k], mpq_get_str(a, 10, top),
					 fray_node_scalar(fray_map_get(first, "action")), mpq_get_str(b, 10, max), n,
					 cs[arg].action, cs[arg].target ? cs[arg].target : "none", cs[arg].opts[0] ? " " : "",
					 cs[arg].opts[0] ? cs[arg].opts[1] ? cs[arg].opts[1] : cs[arg].opts[0] : "",
					 i == n ? "; its top is none of the test's choices" : "");
			printf("%s %-16s %-10s max %-12s over %2zu choices: advise's top %s\n", rs->rules, unit,
			       goal_names[k], mpq_get_str(a, 10, max), n, fray_node_scalar(fray_map_get(first, "action")));
			fray_doc_free(doc);
			free(out);
			mpq_clears(max, top, NULL);
		}
		for (size_t i = 0; i < n; i++)
			for (int k = 0; k < NGOALS; k++)
				mpq_clear(cs[i].v[k]);
	}
	free(cs);
	fray_game_free(g);
}

static void presidio_exact(void **state)
{
	(void)state;
	size_t n;
	check_rules(&presidio, &n);
	assert_true(n >= 8);
}

static void bbb_exact(void **state)
{
	(void)state;
	size_t n;
	check_rules(&bbb, &n);
	assert_true(n >= 8);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(presidio_exact),
		cmocka_unit_test(bbb_exact),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
