/* The best policy's exactness on a chit combat, checked independently
 * (issue 44, "Done when", first bullet; tests/rules/adbg/test_best_exact.c
 * does the same for ADBG). A chit combat's chance that the outcome sees
 * is the chits drawn, all before any question (the morale tests come after
 * the last, and the procedure's outcome leaves them out). So a
 * deterministic policy that sees everything is, for
 * each set of chits drawn, a table from the questions met so far to
 * answers; the test enumerates the sets itself (each scripted, of
 * probability 1 / C(N, k): the combat sums the chits, their order does not
 * matter), and for each every table of one side's questions (the other
 * side takes the rules' suggestions) by its own loop, walks each with
 * fray_enumerate (a table is not memoryless: every path, no state merged)
 * and values it with its own worth. The maximum is the sum over the sets
 * of each set's best table; best's value (its walk of the unscripted
 * combat) and the worth of best's own distribution must both equal it,
 * as GMP fractions. */
#include <gmp.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#define FRAY_TEST_NO_CTX
#include "../../test_util.h"

/* ---- a side's questions answered from a table ---- */

enum { NKEYS = 512, KEYLEN = 1024 };

typedef struct answers {
	int side;
	size_t used;
	struct {
		char text[KEYLEN];
		size_t pick, options;
	} row[NKEYS];
	char path[KEYLEN]; /* the questions and answers of this run so far */
	bool full;
} answers;

static size_t answers_choose(void *self, const fray_choice *c, char *msg, size_t cap)
{
	(void)msg, (void)cap;
	answers *a = self;
	size_t pick = c->suggested;
	if (c->side == a->side && c->noptions > 1) {
		/* the row: everything asked before, then this question */
		char text[KEYLEN];
		snprintf(text, sizeof text, "%s|%s/%zu", a->path, c->prompt, c->noptions);
		size_t r = 0;
		for (; r < a->used; r++)
			if (strcmp(a->row[r].text, text) == 0)
				break;
		if (r == a->used) {
			if (a->used == NKEYS || strlen(text) + 1 >= KEYLEN) {
				a->full = true;
				return c->suggested;
			}
			snprintf(a->row[r].text, KEYLEN, "%s", text);
			a->row[r].pick = 0;
			a->row[r].options = c->noptions;
			a->used++;
		}
		pick = a->row[r].pick;
	}
	size_t at = strlen(a->path);
	if (snprintf(a->path + at, sizeof a->path - at, "|%d:%s=%zu", c->side, c->prompt, pick) >=
	    (int)(sizeof a->path - at))
		a->full = true;
	return pick;
}

static void answers_reset(void *self)
{
	((answers *)self)->path[0] = '\0';
}

static const fray_policy_ops answers_ops = {
	.name = "table", .choose = answers_choose, .reset = answers_reset, .deterministic = true,
};

/* The next table in the odometer order: the last row that has an answer
 * left takes it, and the rows met after it are dropped (they were met
 * under its old answer, and are met again). False after the last. */
static bool next_table(answers *a)
{
	while (a->used > 0 && a->row[a->used - 1].pick + 1 == a->row[a->used - 1].options)
		a->used--;
	if (a->used == 0)
		return false;
	a->row[a->used - 1].pick++;
	return true;
}

/* ---- worth: the test's own, from docs/chits.md's table ---- */

/* outcome: {winner 0/1/2, attacker's hits taken, defender's, attacker's
 * retreats, defender's} */
static void value_of(const int64_t *o, int side, fray_goal goal, mpq_t v)
{
	int64_t mine = o[1 + side], theirs = o[2 - side];
	switch (goal) {
	case FRAY_GOAL_WIN: /* fewer hits taken 1, as many 1/2 */
		mpq_set_ui(v, mine < theirs ? 2 : mine == theirs ? 1 : 0, 2);
		break;
	case FRAY_GOAL_NOT_LOSE:
		mpq_set_ui(v, mine <= theirs, 1);
		break;
	case FRAY_GOAL_CASUALTIES:
		mpq_set_si(v, theirs - mine, 1);
		break;
	default: /* hold: no retreat */
		mpq_set_ui(v, o[3 + side] == 0, 1);
		break;
	}
	mpq_canonicalize(v);
	/* the winner field agrees with the hits */
	assert_int_equal(o[0], o[1] < o[2] ? 1 : o[2] < o[1] ? 2 : 0);
}

static void expected(const fray_dist *d, int side, fray_goal goal, mpq_t sum)
{
	mpq_t p, w;
	mpq_inits(p, w, NULL);
	mpq_set_ui(sum, 0, 1);
	for (size_t i = 0; i < fray_dist_count(d); i++) {
		char ex[1024];
		assert_true(fray_dist_p_exact(d, i, ex, sizeof ex) < sizeof ex);
		assert_int_equal(mpq_set_str(p, ex, 10), 0);
		mpq_canonicalize(p);
		value_of(fray_dist_outcome(d, i), side, goal, w);
		mpq_mul(w, w, p);
		mpq_add(sum, sum, w);
	}
	mpq_clears(p, w, NULL);
}

/* ---- the combat ---- */

/* Six chits, every face "always", so each chit is its effect (K2 and K6
 * the same: one kind of two chits, for the procedure's deal); three drawn
 * (C(6,3) = 20 sets): the defender takes 0 to 5 hits, the attacker 0 to 3
 * (K4's M: morale tests, which the procedure's walk does not roll). */
static const char mix_text[] =
	"name: exactness test mix\n"
	"tactics:\n"
	"  probe: {min: 2, max: {defend: 3, hold: 3, evade: 3}}\n"
	"morale: {roll: 1d6, pass: at-most}\n"
	"chits:\n"
	"  - {id: K1, a: {if: always, then: [D2]}, b: {if: always, then: []}}\n"
	"  - {id: K2, a: {if: always, then: [D1, A1]}, b: {if: always, then: []}}\n"
	"  - {id: K3, a: {if: always, then: [A1]}, b: {if: always, then: []}}\n"
	"  - {id: K4, a: {if: always, then: [D1, M]}, b: {if: always, then: []}}\n"
	"  - {id: K5, a: {if: always, then: [D-1]}, b: {if: always, then: []}}\n"
	"  - {id: K6, a: {if: always, then: [A1, D1]}, b: {if: always, then: []}}\n";

static fray_chits_unit unit(const char *name, int battalions, int morale)
{
	fray_chits_unit u = {.battalions = battalions, .morale = morale, .can_retreat = true};
	snprintf(u.name, sizeof u.name, "%s", name);
	return u;
}

/* A brigade of two battalions attacks two units of two battalions on
 * Hold in the open: the defender's questions are which unit takes each
 * hit, retreat or not, and which battalion; the attacker's, retreat or
 * not and which battalion. */
static void combat_in(fray_ctx *ctx, fray_chits_mix **m, fray_chits_combat_in *in)
{
	fray_doc *doc = NULL;
	assert_int_equal(fray_doc_load_string(ctx, "mix.yaml", mix_text, strlen(mix_text), &doc), FRAY_OK);
	assert_int_equal(fray_chits_mix_read(ctx, doc, m), FRAY_OK);
	fray_doc_free(doc);
	memset(in, 0, sizeof *in);
	in->mix = *m;
	in->situation = (fray_chits_situation){.tactic = 0, .stance = 1, .terrain = 0, .attacker_cdr = 10,
					       .defender_cdr = 10};
	in->draw = 3;
	snprintf(in->side[0].name, sizeof in->side[0].name, "Blue");
	in->side[0].nunits = 1;
	in->side[0].units[0] = unit("Blue brigade", 2, 4);
	snprintf(in->side[1].name, sizeof in->side[1].name, "Red");
	in->side[1].nunits = 2;
	in->side[1].units[0] = unit("Red left", 2, 4);
	in->side[1].units[1] = unit("Red right", 2, 3);
}

/* The best table of side's questions for the scripted combat in: its
 * worth into best; the tables tried are added to *tables. */
static void best_table(fray_ctx *ctx, const fray_chits_combat_in *in, int side, fray_goal goal, mpq_t best,
		       size_t *tables)
{
	answers *a = calloc(1, sizeof *a);
	assert_non_null(a);
	a->side = side;
	fray_policy *p = fray_policy_new(ctx, &answers_ops, a);
	assert_non_null(p);
	mpq_t v;
	mpq_init(v);
	bool first = true;
	do {
		fray_dist *d = NULL;
		assert_int_equal(fray_enumerate(ctx, fray_chits_combat_procedure, p, in, FRAY_CHITS_COMBAT_FIELDS,
						NULL, &d),
				 FRAY_OK);
		assert_false(a->full);
		expected(d, side, goal, v);
		if (first || mpq_cmp(v, best) > 0)
			mpq_set(best, v);
		first = false;
		fray_dist_free(d);
		++*tables;
	} while (next_table(a));
	mpq_clear(v);
	fray_policy_free(p);
	free(a);
}

/* The maximum over every policy of side that sees the chits drawn: the
 * sum over the sets of chits of each one's best table. */
static void max_over_policies(fray_ctx *ctx, const fray_chits_combat_in *in, int side, fray_goal goal, mpq_t max,
			      mpq_t heuristic, size_t *tables, size_t *sets)
{
	int n = in->mix->nchits;
	assert_int_equal(in->draw, 3);
	mpq_t one;
	mpq_init(one);
	mpq_set_ui(max, 0, 1);
	mpq_set_ui(heuristic, 0, 1);
	*tables = *sets = 0;
	for (int i = 0; i < n; i++)
		for (int j = i + 1; j < n; j++)
			for (int k = j + 1; k < n; k++) {
				fray_chits_combat_in s = *in;
				s.script[0] = i, s.script[1] = j, s.script[2] = k;
				s.nscript = 3;
				best_table(ctx, &s, side, goal, one, tables);
				mpq_add(max, max, one);
				/* the heuristic's worth the same way: the
				 * procedure's deal of the unscripted chits
				 * must weigh the sets alike */
				fray_dist *d = NULL;
				assert_int_equal(fray_enumerate(ctx, fray_chits_combat_procedure, NULL, &s,
								FRAY_CHITS_COMBAT_FIELDS, NULL, &d),
						 FRAY_OK);
				expected(d, side, goal, one);
				mpq_add(heuristic, heuristic, one);
				fray_dist_free(d);
				++*sets;
			}
	assert_int_equal(*sets, (size_t)(n * (n - 1) * (n - 2) / 6));
	mpq_set_ui(one, 1, (unsigned long)*sets);
	mpq_mul(max, max, one); /* each set 1 / C(n, 3) */
	mpq_mul(heuristic, heuristic, one);
	mpq_clear(one);
}

static void check(int side, fray_goal goal, size_t min_tables)
{
	fray_ctx *ctx = fray_ctx_new(NULL, NULL);
	assert_non_null(ctx);
	fray_chits_mix *m = NULL;
	fray_chits_combat_in in;
	combat_in(ctx, &m, &in);
	mpq_t max, walked, attained, base, base_sets;
	mpq_inits(max, walked, attained, base, base_sets, NULL);
	size_t tables, sets;
	max_over_policies(ctx, &in, side, goal, max, base_sets, &tables, &sets);
	assert_true(tables >= min_tables); /* the combat asks questions */

	fray_policy *bp = fray_policy_best_new(ctx, goal);
	fray_policy *hp = fray_policy_heuristic_new(ctx);
	fray_policy *p = side == 0 ? fray_policy_sides_new(ctx, bp, hp) : fray_policy_sides_new(ctx, hp, bp);
	fray_policy_best_set_worth(p, fray_chits_combat_worth);
	fray_dist *d = NULL;
	assert_int_equal(fray_enumerate(ctx, fray_chits_combat_procedure, p, &in, FRAY_CHITS_COMBAT_FIELDS, NULL, &d),
			 FRAY_OK);
	expected(d, side, goal, attained);
	char ex[1024];
	assert_true(fray_policy_best_value(p, side, ex, sizeof ex, NULL));
	assert_int_equal(mpq_set_str(walked, ex, 10), 0);
	mpq_canonicalize(walked);

	/* the heuristic, for the record: the choices must matter somewhere */
	fray_dist *hd = NULL;
	assert_int_equal(fray_enumerate(ctx, fray_chits_combat_procedure, NULL, &in, FRAY_CHITS_COMBAT_FIELDS, NULL,
					&hd),
			 FRAY_OK);
	expected(hd, side, goal, base);
	char a[256], b[256], c[256], h[256];
	printf("%s, goal %s: %zu sets, %zu tables; max %s, best's value %s, its odds' worth %s (heuristic %s)\n",
	       side ? "defender" : "attacker", fray_goal_name(goal), sets, tables, mpq_get_str(a, 10, max),
	       mpq_get_str(b, 10, walked), mpq_get_str(c, 10, attained), mpq_get_str(h, 10, base));
	assert_true(mpq_equal(walked, max));
	assert_true(mpq_equal(attained, max));
	assert_true(mpq_equal(base, base_sets));
	assert_true(mpq_cmp(max, base) > 0); /* the choices matter here */
	fray_dist_free(hd);
	fray_dist_free(d);
	fray_policy_free(p);
	mpq_clears(max, walked, attained, base, base_sets, NULL);
	fray_chits_mix_free(m);
	fray_ctx_free(ctx);
}

static void defender_casualties(void **state)
{
	(void)state;
	check(1, FRAY_GOAL_CASUALTIES, 100);
}

static void defender_win(void **state)
{
	(void)state;
	check(1, FRAY_GOAL_WIN, 100);
}

static void defender_hold(void **state)
{
	(void)state;
	check(1, FRAY_GOAL_HOLD, 100);
}

static void attacker_not_lose(void **state)
{
	(void)state;
	check(0, FRAY_GOAL_NOT_LOSE, 20);
}

/* The outcome against the text's example 2 (examples/chits/example-2.yaml,
 * the heuristic's answers are the players'): David, attacking, keeps the
 * village and takes both his hits; Brent takes one and retreats twice. */
static void example_2_outcome(void **state)
{
	(void)state;
	fray_ctx *ctx = fray_ctx_new(NULL, NULL);
	fray_doc *doc = NULL;
	assert_int_equal(fray_doc_load_file(ctx, FRAY_SOURCE_DIR "/examples/chits/example-2.yaml", &doc), FRAY_OK);
	fray_chits_mix *m = NULL;
	fray_chits_combat_in in;
	uint64_t seed = 0;
	bool has_seed = false;
	assert_int_equal(fray_chits_combat_read(ctx, doc, &m, &in, &seed, &has_seed), FRAY_OK);
	fray_doc_free(doc);
	fray_roller *r = fray_roller_sample_new(ctx, 1, 0);
	int64_t o[FRAY_CHITS_COMBAT_FIELDS];
	assert_int_equal(fray_run(r, fray_chits_combat_procedure, NULL, &in, o), FRAY_OK);
	static const int64_t want[FRAY_CHITS_COMBAT_FIELDS] = {2, 2, 1, 0, 2};
	for (int i = 0; i < FRAY_CHITS_COMBAT_FIELDS; i++)
		assert_int_equal(o[i], want[i]);
	/* the worths by docs/chits.md's goals */
	static const struct {
		int side;
		fray_goal goal;
		int64_t num, den;
	} rows[] = {
		{0, FRAY_GOAL_WIN, 0, 1}, {1, FRAY_GOAL_WIN, 1, 1},   {0, FRAY_GOAL_NOT_LOSE, 0, 1},
		{1, FRAY_GOAL_CASUALTIES, 1, 1}, {0, FRAY_GOAL_CASUALTIES, -1, 1}, {0, FRAY_GOAL_HOLD, 1, 1},
		{1, FRAY_GOAL_HOLD, 0, 1},
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		int64_t num = 99, den = 99;
		fray_chits_combat_worth(o, rows[i].side, rows[i].goal, &num, &den);
		assert_true(den > 0 && num * rows[i].den == rows[i].num * den);
	}
	int64_t tie[FRAY_CHITS_COMBAT_FIELDS] = {0, 1, 1, 0, 0}, num, den;
	fray_chits_combat_worth(tie, 1, FRAY_GOAL_WIN, &num, &den);
	assert_true(2 * num == den); /* a tie: half a win */
	fray_roller_free(r);
	fray_chits_mix_free(m);
	fray_ctx_free(ctx);
}

/* Example 2's best odds through the catalogue's request, within opts
 * (NULL: no budget of the caller's); the answer's "best" part, the whole
 * answer in *out (the caller frees it). */
static const char *example_2_best_as(fray_ctx *ctx, const fray_request_opts *opts, const char *format,
				     char **out)
{
	char req[1024];
	snprintf(req, sizeof req, "{\"procedure\": \"chits.combat\", \"mode\": \"odds\", \"format\": \"%s\", "
		 "\"inputs\": {\"combat\": \"%s/examples/chits/example-2.yaml\", \"policy\": \"best\"}}",
		 format, FRAY_SOURCE_DIR);
	if (fray_request_with(ctx, req, opts, out) != FRAY_OK)
		fail_msg("%s: %s", req, fray_ctx_message(ctx));
	const char *best = strstr(*out, strcmp(format, "json") == 0 ? "\"best\": {" : "best policy, goal");
	if (!best)
		fail_msg("no best in %.2000s", *out);
	return best;
}

static const char *example_2_best(fray_ctx *ctx, const fray_request_opts *opts, char **out)
{
	return example_2_best_as(ctx, opts, "json", out);
}

/* `fray chits combat --odds --policy best` (the catalogue's chits.combat):
 * example 2's chits are scripted (examples/chits/example-2.yaml): David,
 * attacking, takes 2 hits and Brent 3. Both playing best for win, David
 * retreats once (1 hit taken) and Brent twice (1): a tie, 1/2 each. By
 * the heuristic David keeps his ground (2 taken) and Brent retreats (1):
 * Brent wins. So David gains 1/2 over the heuristic, Brent -1/2. */
static void example_2_best_odds(void **state)
{
	(void)state;
	fray_ctx *ctx = fray_ctx_new(NULL, NULL);
	char *out = NULL;
	const char *json = example_2_best(ctx, NULL, &out);
	static const char *const want[] = {
		"\"goal\": \"win\", \"exact\": true",
		"{\"side\": \"attacker\", \"value\": 0.5, \"exact\": \"1/2\", \"gain\": 0.5, \"gain_exact\": \"1/2\"}",
		"{\"side\": \"defender\", \"value\": 0.5, \"exact\": \"1/2\", \"gain\": -0.5, \"gain_exact\": \"-1/2\"}",
		"{\"kind\": \"chits.retreat\", \"side\": \"attacker\"",
	};
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
		if (!strstr(json, want[i]))
			fail_msg("expected %s in %.2000s", want[i], json);
	free(out);
	fray_ctx_free(ctx);
}

/* The caller's budgets bound best's walk too (a server's quick budget):
 * past them it says which questions took the heuristic's answer; and a
 * roll with best is refused before any die, naming the option. */
static void best_within_the_callers_budget(void **state)
{
	(void)state;
	fray_ctx *ctx = fray_ctx_new(NULL, NULL);
	char req[1024], *out = NULL;
	fray_request_opts o = {.version = FRAY_REQUEST_OPTS_VERSION, .max_paths = 1};
	/* within 1 path no question can be valued: each kind said to have
	 * taken the heuristic's answer, none decided exactly, no gain */
	const char *best = example_2_best(ctx, &o, &out);
	if (!strstr(best, "\"exact\": false}") || strstr(best, "\"exact\": true}") || !strstr(best, "\"gain\": 0,"))
		fail_msg("best within 1 path: %.2000s", out);
	free(out);
	/* the text's heading says so too, not "answered best" (and does say it
	 * when every kind was decided) */
	const char *text = example_2_best_as(ctx, &o, "text", &out);
	if (!strstr(text, "every question answered by the heuristic") || strstr(text, "answered best"))
		fail_msg("best within 1 path, as text: %.2000s", out);
	free(out);
	text = example_2_best_as(ctx, NULL, "text", &out);
	if (!strstr(text, "both sides' questions answered best") || strstr(text, "by the heuristic"))
		fail_msg("best, as text: %.2000s", out);
	free(out);
	snprintf(req, sizeof req, "{\"procedure\": \"chits.combat\", \"mode\": \"roll\", \"seed\": 2, "
		 "\"inputs\": {\"combat\": \"%s/examples/chits/example-2.yaml\", \"policy\": \"best\"}}",
		 FRAY_SOURCE_DIR);
	assert_int_equal(fray_request(ctx, req, &out), FRAY_ERR_INPUT);
	assert_non_null(strstr(fray_ctx_message(ctx), "only with the odds"));
	free(out);
	fray_ctx_free(ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(example_2_outcome),
		cmocka_unit_test(example_2_best_odds),
		cmocka_unit_test(best_within_the_callers_budget),
		cmocka_unit_test(defender_casualties),
		cmocka_unit_test(defender_win),
		cmocka_unit_test(defender_hold),
		cmocka_unit_test(attacker_not_lose),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
