/* The best policy's exactness, checked independently (issue 44, "Done
 * when", first bullet): on battles small enough, the test enumerates every
 * deterministic policy of one side itself, as a table from the question
 * (its words, and the questions and answers before it in the battle) to an
 * answer, walks each with the plain enumerator (fray_enumerate with a
 * policy that is not memoryless: every path, no state merged, nothing of
 * the best policy's walk), values each distribution with its own worth
 * (a win 1, a draw 1/2: the goal `win`) and checks that best's value is
 * the maximum exactly, as fractions, and that best's own distribution is
 * worth it (its choices attain it). */
#include <gmp.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#define FRAY_TEST_NO_CTX
#include "../../test_util.h"

/* ---- the table policy ---- */

#define MAX_KEYS 4096
#define KEY_MAX 2048

typedef struct table {
	int side;                  /* whose questions it answers; the other's take the suggestion */
	size_t n;
	char *key[MAX_KEYS];
	size_t answer[MAX_KEYS], nopt[MAX_KEYS];
	char hist[KEY_MAX * 4];    /* this battle's questions and answers so far */
	bool overflow;
} table;

static size_t table_choose(void *self, const fray_choice *c, char *msg, size_t cap)
{
	(void)msg, (void)cap;
	table *t = self;
	size_t answer = c->suggested;
	if (c->side == t->side && c->noptions > 1) {
		char key[KEY_MAX * 5];
		int len = snprintf(key, sizeof key, "%s\x1e%s", t->hist, c->prompt);
		for (size_t i = 0; i < c->noptions; i++)
			len += snprintf(key + len, sizeof key - (size_t)len, "\x1f%s", c->options[i]);
		size_t k = 0;
		while (k < t->n && strcmp(t->key[k], key) != 0)
			k++;
		if (k == t->n) {
			if (t->n == MAX_KEYS) {
				t->overflow = true;
				return c->suggested;
			}
			t->key[k] = strdup(key);
			t->answer[k] = 0;
			t->nopt[k] = c->noptions;
			t->n++;
		}
		answer = t->answer[k];
	}
	size_t len = strlen(t->hist);
	snprintf(t->hist + len, sizeof t->hist - len, "%s\x1d%zu;", c->prompt, answer);
	return answer;
}

static void table_reset(void *self)
{
	((table *)self)->hist[0] = '\0';
}

/* not memoryless: fray_enumerate walks every path, merging no state */
static const fray_policy_ops table_ops = {
	.name = "table", .choose = table_choose, .reset = table_reset, .deterministic = true,
};

/* ---- worth, the test's own (goal win) ---- */

static void worth_of(const fray_dist *d, int side, mpq_t v)
{
	mpq_t p;
	mpq_init(p);
	mpq_set_ui(v, 0, 1);
	for (size_t i = 0; i < fray_dist_count(d); i++) {
		const int64_t *o = fray_dist_outcome(d, i);
		char ex[4096];
		assert_true(fray_dist_p_exact(d, i, ex, sizeof ex) < sizeof ex);
		assert_int_equal(mpq_set_str(p, ex, 10), 0);
		mpq_canonicalize(p);
		if (o[0] == 0)
			mpq_div_2exp(p, p, 1); /* a draw: half a win */
		if (o[0] == 0 || o[0] == side + 1)
			mpq_add(v, v, p);
	}
	mpq_clear(p);
}

static fray_adbg_scenario *load(fray_ctx *ctx, const char *text)
{
	char path[] = "/tmp/fray_best_exact_XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	FILE *f = fdopen(fd, "w");
	fputs(text, f);
	fclose(f);
	fray_adbg_scenario *s = NULL;
	fray_status st = fray_adbg_scenario_load(ctx, path, &s);
	unlink(path);
	if (st != FRAY_OK)
		fail_msg("%s", fray_ctx_message(ctx));
	return s;
}

/* The maximum over every table of side's questions (the other side takes
 * the heuristic's answers) of side's worth; *npolicies: how many tables. */
static void max_over_tables(fray_ctx *ctx, const fray_adbg_scenario *s, int side, mpq_t best, size_t *npolicies)
{
	table *t = calloc(1, sizeof *t);
	assert_non_null(t);
	t->side = side;
	fray_policy *p = fray_policy_new(ctx, &table_ops, t);
	assert_non_null(p);
	mpq_t v;
	mpq_init(v);
	mpq_set_si(best, -1, 1);
	*npolicies = 0;
	for (;;) {
		fray_dist *d = NULL;
		fray_enum_limits lim = {.max_depth = 100000};
		assert_int_equal(fray_enumerate(ctx, fray_adbg_battle_procedure, p, s, 3, &lim, &d), FRAY_OK);
		assert_false(t->overflow);
		worth_of(d, side, v);
		if (mpq_cmp(v, best) > 0)
			mpq_set(best, v);
		fray_dist_free(d);
		++*npolicies;
		/* the next table: the last key with an answer left takes its
		 * next; the keys found after it are forgotten (they depended on
		 * it) and met again */
		size_t i = t->n;
		while (i > 0 && t->answer[i - 1] + 1 == t->nopt[i - 1])
			i--;
		if (i == 0)
			break;
		t->answer[i - 1]++;
		while (t->n > i)
			free(t->key[--t->n]);
	}
	while (t->n > 0)
		free(t->key[--t->n]);
	mpq_clear(v);
	fray_policy_free(p); /* frees t: no destroy, so here */
	free(t);
}

/* best for `side` against the heuristic: its value (the walk's) and its
 * distribution's worth (its choices), both the maximum. */
static void check_side(const char *text, int side, size_t min_policies)
{
	fray_ctx *ctx = fray_ctx_new(NULL, NULL);
	fray_adbg_scenario *s = load(ctx, text);
	mpq_t max, v, walked;
	mpq_inits(max, v, walked, NULL);
	size_t n;
	max_over_tables(ctx, s, side, max, &n);
	assert_true(n >= min_policies); /* the situation has choices that matter */

	fray_policy *bp = fray_policy_best_new(ctx, FRAY_GOAL_WIN);
	fray_policy *hp = fray_policy_heuristic_new(ctx);
	fray_policy *p = side == 0 ? fray_policy_sides_new(ctx, bp, hp) : fray_policy_sides_new(ctx, hp, bp);
	fray_policy_best_set_worth(p, fray_adbg_battle_worth);
	fray_dist *d = NULL;
	fray_enum_limits lim = {.max_depth = 100000};
	assert_int_equal(fray_enumerate(ctx, fray_adbg_battle_procedure, p, s, 3, &lim, &d), FRAY_OK);
	worth_of(d, side, v);
	char ex[4096];
	assert_true(fray_policy_best_value(p, side, ex, sizeof ex, NULL));
	assert_int_equal(mpq_set_str(walked, ex, 10), 0);
	char a[4096], b[4096], c[4096];
	mpq_get_str(a, 10, max);
	mpq_get_str(b, 10, walked);
	mpq_get_str(c, 10, v);
	printf("side %d: %zu tables, max %s; best's value %s, its odds' worth %s\n", side, n, a, b, c);
	assert_true(mpq_equal(walked, max));
	assert_true(mpq_equal(v, max));
	/* the other side (the heuristic's, which asks nothing best): its
	 * value as played is its worth of the same odds */
	assert_true(fray_policy_best_value(p, 1 - side, ex, sizeof ex, NULL));
	assert_int_equal(mpq_set_str(walked, ex, 10), 0);
	worth_of(d, 1 - side, v);
	assert_true(mpq_equal(walked, v));
	fray_dist_free(d);
	fray_policy_free(p);
	mpq_clears(max, v, walked, NULL);
	fray_adbg_scenario_free(s);
	fray_ctx_free(ctx);
}

/* One unit a side, the example CRT (data/adbg/example-melee-crt.yaml's
 * rows): Red's primary leader rated 2, so Blue may roll for one more
 * round (19.1): questions of arrays, targets, moves, losses and the
 * extra round. */
#define CRT \
	"melee_crt:\n" \
	"  name: example\n" \
	"  columns: [\"1:3\", \"1:2\", \"1:1\", \"2:1\", \"3:1\", \"4:1\", \"5:1\", \"6:1\"]\n" \
	"  rows:\n" \
	"    0: [\"R/-\", \"R/-\", \"2/-\", \"1/-\", \"1/-\", \"1/1\", \"1/1\", \"-/1\"]\n" \
	"    1: [\"R/-\", \"2/-\", \"1/-\", \"1/-\", \"1/1\", \"1/1\", \"-/1\", \"-/1\"]\n" \
	"    2: [\"2/-\", \"1/-\", \"1/-\", \"1/1\", \"1/1\", \"-/1\", \"-/1\", \"-/2\"]\n" \
	"    3: [\"1/-\", \"1/-\", \"1/1\", \"1/1\", \"-/1\", \"-/1\", \"-/2\", \"-/2\"]\n" \
	"    4: [\"1/-\", \"1/1\", \"1/1\", \"-/1\", \"-/1\", \"-/2\", \"-/2\", \"-/R\"]\n" \
	"    5: [\"1/1\", \"1/1\", \"-/1\", \"-/1\", \"-/2\", \"-/2\", \"-/R\", \"-/R\"]\n" \
	"    6: [\"1/1\", \"-/1\", \"-/1\", \"-/2\", \"-/2\", \"-/R\", \"-/R\", \"-/R\"]\n" \
	"    7: [\"-/1\", \"-/1\", \"-/2\", \"-/2\", \"-/R\", \"-/R\", \"-/R\", \"-/R\"]\n"

/* A battle's lines after its name, up to Red's leader. */
#define BATTLE_REST \
	"terrain: wilderness\n" \
	"weather: normal\n" \
	"initiative: red\n" \
	"surprise: none\n" CRT \
	"leader_loss:\n" \
	"  after_fire: {roll: 1d6, lost_on: [6]}\n" \
	"  after_melee: {roll: 1d6, lost_on: [5, 6]}\n" \
	"victory:\n" \
	"  rule: losses\n" \
	"  routed: {roll: 1d6, eliminated_on: [1, 2, 3]}\n" \
	"sides:\n" \
	"  red:\n" \
	"    name: Red\n" \
	"    level: 4\n"

static const char *const duel =
	"battle: Duel\n"
	BATTLE_REST
	"    primary_leader: {name: Red chief, rating: 2, stack: 1}\n"
	"    stacks:\n"
	"      - - {name: Red warriors, type: warrior, fire: 3, melee: 3}\n"
	"  blue:\n"
	"    name: Blue\n"
	"    level: 3\n"
	"    primary_leader: {name: Blue chief, rating: 1, stack: 1}\n"
	"    stacks:\n"
	"      - - {name: Blue militia, type: militia, fire: 3, melee: 2}\n";

/* The duel with a second unit a side and both chiefs rated 2: each side
 * has questions that matter (extra rounds, targets, losses). */
static const char *const skirmish =
	"battle: Skirmish\n"
	BATTLE_REST
	"    primary_leader: {name: Red chief, rating: 2, stack: 1}\n"
	"    stacks:\n"
	"      - - {name: Red warriors, type: warrior, fire: 3, melee: 3}\n"
	"        - {name: Red scouts, type: warrior, fire: 2, melee: 1}\n"
	"  blue:\n"
	"    name: Blue\n"
	"    level: 3\n"
	"    primary_leader: {name: Blue chief, rating: 2, stack: 1}\n"
	"    stacks:\n"
	"      - - {name: Blue militia, type: militia, fire: 3, melee: 2}\n"
	"        - {name: Blue rangers, type: militia, fire: 2, melee: 3}\n";

static void duel_red(void **state)
{
	(void)state;
	check_side(duel, 0, 2);
}

/* The goals as docs/adbg.md defines them, per outcome {winner: 0 draw, 1
 * or 2; losses of side 1; losses of side 2}. */
static void worth_by_goal(void **state)
{
	(void)state;
	static const struct {
		int64_t o[3];
		int side;
		fray_goal goal;
		int64_t num, den;
	} rows[] = {
		{{0, 1, 1}, 0, FRAY_GOAL_WIN, 1, 2},        /* a draw: half a win */
		{{1, 0, 2}, 0, FRAY_GOAL_WIN, 1, 1},
		{{1, 0, 2}, 1, FRAY_GOAL_WIN, 0, 1},
		{{0, 1, 1}, 1, FRAY_GOAL_NOT_LOSE, 1, 1},   /* a draw is not a loss */
		{{2, 3, 0}, 0, FRAY_GOAL_NOT_LOSE, 0, 1},
		{{2, 3, 1}, 0, FRAY_GOAL_CASUALTIES, -2, 1}, /* 1 enemy lost, 3 own */
		{{2, 3, 1}, 1, FRAY_GOAL_CASUALTIES, 2, 1},
		{{1, 0, 4}, 0, FRAY_GOAL_HOLD, 1, 1},       /* no unit lost */
		{{1, 1, 4}, 0, FRAY_GOAL_HOLD, 0, 1},
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		int64_t num = 99, den = 99;
		fray_adbg_battle_worth(rows[i].o, rows[i].side, rows[i].goal, &num, &den);
		assert_true(num * rows[i].den == rows[i].num * den && den > 0);
	}
	for (int g = 0; g < FRAY_GOAL_COUNT; g++) {
		fray_goal back;
		assert_int_equal(fray_goal_from_name(NULL, fray_goal_name((fray_goal)g), &back), FRAY_OK);
		assert_int_equal(back, g);
	}
}

/* The heuristic's answers, asked: as a best walk with every kind fallen
 * back plays. The heuristic itself (takes_suggestion) has its last round
 * played a position at a time in exact odds (split_ok in battle.c, issue
 * 45 item 1), fewer paths than any best walk takes. */
static size_t asked_choose(void *self, const fray_choice *c, char *msg, size_t cap)
{
	(void)self, (void)msg, (void)cap;
	return c->suggested;
}

static const fray_policy_ops asked_ops = {
	.name = "asked", .choose = asked_choose, .deterministic = true, .memoryless = true,
	.thread_safe = true, .suggestion_only = true,
};

static void count_paths(const fray_enum_progress *pr, void *ud)
{
	if (pr->done)
		*(uint64_t *)ud = pr->paths;
}

/* Over its budget the best walk falls back a kind of question at a time,
 * never silently (issue 44, "Honest limits"). Both sides best with the
 * heuristic's paths (asked, as above) as the budget (the least a walk
 * with every kind fallen back needs): the kinds whose other options add paths (the
 * moves) are told as fallen back, the walk still fits, and each side's
 * value is the worth of the odds it gives (the backward values and the
 * forward odds agree under the fall-back). */
static void fallen_back_within_the_heuristics_paths(void **state)
{
	(void)state;
	fray_ctx *ctx = fray_ctx_new(NULL, NULL);
	fray_adbg_scenario *s = load(ctx, duel);
	uint64_t hpaths = 0;
	fray_enum_limits hl = {.max_depth = 100000, .estimate = count_paths, .ud = &hpaths};
	fray_dist *h = NULL;
	fray_policy *asked = fray_policy_new(ctx, &asked_ops, NULL);
	assert_non_null(asked);
	assert_int_equal(fray_enumerate(ctx, fray_adbg_battle_procedure, asked, s, 3, &hl, &h), FRAY_OK);
	fray_policy_free(asked);
	assert_true(hpaths > 0);

	fray_policy *p = fray_policy_sides_new(ctx, fray_policy_best_new(ctx, FRAY_GOAL_WIN),
					       fray_policy_best_new(ctx, FRAY_GOAL_WIN));
	assert_non_null(p);
	fray_policy_best_set_worth(p, fray_adbg_battle_worth);
	fray_enum_limits lim = {.max_depth = 100000, .max_paths = hpaths};
	fray_dist *d = NULL;
	if (fray_enumerate(ctx, fray_adbg_battle_procedure, p, s, 3, &lim, &d) != FRAY_OK)
		fail_msg("%s", fray_ctx_message(ctx));
	fray_best_question q;
	size_t nq = 0, moves = 0;
	while (fray_policy_best_question(p, nq, &q)) {
		if (strcmp(q.kind, "adbg.move") == 0) {
			assert_false(q.exact);
			moves++;
		}
		nq++;
	}
	assert_int_equal(moves, 2); /* each side's, each told */
	mpq_t v, walked;
	mpq_inits(v, walked, NULL);
	for (int side = 0; side < 2; side++) {
		char ex[4096];
		assert_true(fray_policy_best_value(p, side, ex, sizeof ex, NULL));
		assert_int_equal(mpq_set_str(walked, ex, 10), 0);
		worth_of(d, side, v);
		assert_true(mpq_equal(walked, v));
	}
	/* with every kind exact, the walk takes more than that */
	fray_policy *all = fray_policy_sides_new(ctx, fray_policy_best_new(ctx, FRAY_GOAL_WIN),
						 fray_policy_best_new(ctx, FRAY_GOAL_WIN));
	fray_policy_best_set_worth(all, fray_adbg_battle_worth);
	fray_dist *e = NULL;
	fray_enum_limits big = {.max_depth = 100000};
	assert_int_equal(fray_enumerate(ctx, fray_adbg_battle_procedure, all, s, 3, &big, &e), FRAY_OK);
	for (size_t i = 0; fray_policy_best_question(all, i, &q); i++)
		assert_true(q.exact);
	mpq_clears(v, walked, NULL);
	fray_dist_free(e);
	fray_dist_free(d);
	fray_dist_free(h);
	fray_policy_free(all);
	fray_policy_free(p);
	fray_adbg_scenario_free(s);
	fray_ctx_free(ctx);
}

/* Side `side`'s value under best for side 0 and/or 1 (the other: the
 * heuristic), into v; and that it is the worth of the odds it gives. */
static void value_under(fray_ctx *ctx, const fray_adbg_scenario *s, bool b0, bool b1, unsigned depth, mpq_t v0,
			mpq_t v1, mpq_t unresolved)
{
	fray_policy *p = fray_policy_sides_new(ctx, b0 ? fray_policy_best_new(ctx, FRAY_GOAL_WIN) : fray_policy_heuristic_new(ctx),
					       b1 ? fray_policy_best_new(ctx, FRAY_GOAL_WIN) : fray_policy_heuristic_new(ctx));
	assert_non_null(p);
	fray_policy_best_set_worth(p, fray_adbg_battle_worth);
	fray_enum_limits lim = {.max_depth = depth};
	fray_dist *d = NULL;
	if (fray_enumerate(ctx, fray_adbg_battle_procedure, p, s, 3, &lim, &d) != FRAY_OK)
		fail_msg("%s", fray_ctx_message(ctx));
	mpq_t odds;
	mpq_init(odds);
	for (int side = 0; side < 2; side++) {
		char ex[4096];
		mpq_ptr v = side ? v1 : v0;
		assert_true(fray_policy_best_value(p, side, ex, sizeof ex, NULL));
		assert_int_equal(mpq_set_str(v, ex, 10), 0);
		worth_of(d, side, odds);
		assert_true(mpq_equal(v, odds));
	}
	char ex[4096];
	assert_true(fray_dist_unresolved_exact(d, ex, sizeof ex) < sizeof ex);
	assert_int_equal(mpq_set_str(unresolved, ex, 10), 0);
	mpq_canonicalize(unresolved);
	mpq_clear(odds);
	fray_dist_free(d);
	fray_policy_free(p);
}

/* Both sides best under the goal win, a zero-sum game (each outcome is
 * worth 1 to the two sides together; the walk keeps one value a state):
 * its value for Red lies between Red's best against Blue's heuristic
 * (Blue then plays worse for itself) and Red's heuristic against Blue's
 * best (one side best, checked against every table on the duel above);
 * the bounds are apart (the choices matter); the two values sum to 1; it
 * fails when side 1 takes side 0's maximum. With paths cut at a
 * depth limit (worth nothing to either side, so no longer zero-sum) each
 * side's value is still the worth of the odds it gives, the rest told as
 * unresolved. */
static void both_sides_zero_sum(void **state)
{
	(void)state;
	fray_ctx *ctx = fray_ctx_new(NULL, NULL);
	fray_adbg_scenario *s = load(ctx, skirmish);
	mpq_t both0, both1, vs0, vs1, hb0, hb1, u, sum;
	mpq_inits(both0, both1, vs0, vs1, hb0, hb1, u, sum, NULL);
	value_under(ctx, s, true, true, 100000, both0, both1, u);
	assert_int_equal(mpq_sgn(u), 0);
	mpq_add(sum, both0, both1);
	assert_int_equal(mpq_cmp_ui(sum, 1, 1), 0);
	value_under(ctx, s, true, false, 100000, vs0, vs1, u);
	value_under(ctx, s, false, true, 100000, hb0, hb1, u);
	char a[4096], b[4096], c[4096];
	printf("Red: heuristic vs best %s <= both best %s <= best vs heuristic %s\n", mpq_get_str(a, 10, hb0),
	       mpq_get_str(b, 10, both0), mpq_get_str(c, 10, vs0));
	assert_true(mpq_cmp(hb0, both0) <= 0);
	assert_true(mpq_cmp(both0, vs0) <= 0);
	assert_true(mpq_cmp(hb0, vs0) < 0); /* the choices matter: the bounds are apart */
	/* cut short: the two values and the unresolved mass sum to 1 */
	value_under(ctx, s, true, true, 3, both0, both1, u);
	assert_true(mpq_sgn(u) > 0);
	mpq_add(sum, both0, both1);
	mpq_add(sum, sum, u);
	assert_int_equal(mpq_cmp_ui(sum, 1, 1), 0);
	mpq_clears(both0, both1, vs0, vs1, hb0, hb1, u, sum, NULL);
	fray_adbg_scenario_free(s);
	fray_ctx_free(ctx);
}

/* Outside an exact walk best has no state to value: it says so (issue 44,
 * "never silently"), it does not guess. */
static void best_outside_a_walk_says_so(void **state)
{
	(void)state;
	fray_ctx *ctx = fray_ctx_new(NULL, NULL);
	fray_adbg_scenario *s = load(ctx, duel);
	fray_policy *p = NULL;
	assert_int_equal(fray_policy_from_spec(ctx, "best:hold", &p, NULL), FRAY_OK);
	assert_int_equal(fray_policy_best_goal(p), FRAY_GOAL_HOLD);
	assert_int_equal(fray_policy_from_spec(ctx, "best:nope", &(fray_policy *){NULL}, NULL), FRAY_ERR_INPUT);
	fray_roller *r = fray_roller_sample_new(ctx, 1, 0);
	int64_t out[3];
	assert_int_equal(fray_run(r, fray_adbg_battle_procedure, p, s, out), FRAY_ERR_POLICY);
	assert_non_null(strstr(fray_ctx_message(ctx), "only in exact odds"));
	fray_roller_free(r);
	fray_policy_free(p);
	fray_adbg_scenario_free(s);
	fray_ctx_free(ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(worth_by_goal),
		cmocka_unit_test(best_outside_a_walk_says_so),
		cmocka_unit_test(duel_red),
		cmocka_unit_test(fallen_back_within_the_heuristics_paths),
		cmocka_unit_test(both_sides_zero_sum),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
