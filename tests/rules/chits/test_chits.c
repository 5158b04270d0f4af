/* Chit-pull combat: the ratio (R21), which sides apply (R22), the three
 * worked examples of chit-combat.txt replayed from their combat files with
 * the states the text describes, exact draw odds against enumeration and
 * the hypergeometric formula written here, and malformed mix files. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "../../test_util.h"

static void ratios(void **state)
{
	(void)state;
	static const struct {
		int a, d;
		const char *text;
	} rows[] = {{17, 6, "2:1"}, {11, 13, "1:1"}, {14, 2, "7:1"}, {2, 14, "1:7"}, {6, 17, "1:2"},
		    {5, 5, "1:1"}, {18, 6, "3:1"}, {5, 11, "1:2"}};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		char buf[16];
		fray_chits_ratio_text(fray_chits_ratio(rows[i].a, rows[i].d), buf, sizeof buf);
		assert_string_equal(buf, rows[i].text);
	}
}

static fray_chits_mix *small_mix(void)
{
	fray_chits_mix *m;
	fray_ctx_clear(ctx);
	assert_int_equal(fray_chits_mix_load(ctx, FRAY_TEST_DATA "/chits/small-mix.yaml", &m), FRAY_OK);
	return m;
}

/* R22: P (precedence b), B (both apply), N (neither), R (one side). */
static void sides_that_apply(void **state)
{
	(void)state;
	fray_chits_mix *m = small_mix();
	fray_chits_situation open21 = {.tactic = 0, .stance = 0, .terrain = 0, .attacker_cdr = 12,
				       .defender_cdr = 6};
	fray_chits_situation village21 = open21;
	village21.terrain = 1;
	assert_int_equal(fray_chits_applies(&m->chits[0], &open21), 2);    /* both hold: b */
	assert_int_equal(fray_chits_applies(&m->chits[0], &village21), 1); /* only a */
	assert_int_equal(fray_chits_applies(&m->chits[1], &open21), 3);    /* both-apply */
	assert_int_equal(fray_chits_applies(&m->chits[2], &open21), 0);    /* neither */
	fray_chits_effect e = fray_chits_effect_of(&m->chits[1], &open21);
	assert_int_equal(e.hits[0], 1);
	assert_int_equal(e.hits[1], 2);
	e = fray_chits_effect_of(&m->chits[3], &open21); /* both hold, precedence a */
	assert_int_equal(e.reduce[1], 1);
	assert_int_equal(e.morale, 1);
	assert_int_equal(e.fatigue, 0);
	fray_chits_mix_free(m);
}

/* Exact odds of drawing 2 of the 4 chits against every ordered pair
 * counted here (12 of them, each 1/12). */
static void draw_odds_by_counting(void **state)
{
	(void)state;
	fray_chits_mix *m = small_mix();
	fray_chits_combat_in in = {.mix = m, .draw = 2,
				   .situation = {.terrain = 0, .attacker_cdr = 12, .defender_cdr = 6}};
	/* two regiments a side: an M is a test for each (issue 14: the odds
	 * once counted M results, not tests) */
	in.side[0].nunits = in.side[1].nunits = 2;
	fray_dist *d;
	assert_int_equal(fray_enumerate(ctx, fray_chits_draws_procedure, NULL, &in, 4, NULL, &d), FRAY_OK);
	/* each chit's effect in this situation, from the rules: P b: A1; B: A1 D2;
	 * N: nothing; R a: D-1 and M */
	static const int hitsA[4] = {1, 1, 0, 0}, hitsD[4] = {0, 2, 0, 0}, redD[4] = {0, 0, 0, 1},
			 mor[4] = {0, 0, 0, 1};
	int count[8][8][3][3] = {{{{0}}}};
	for (int i = 0; i < 4; i++)
		for (int j = 0; j < 4; j++) {
			if (i == j)
				continue;
			int a = hitsA[i] + hitsA[j];
			int dd = hitsD[i] + hitsD[j] - redD[i] - redD[j];
			dd = dd < 0 ? 0 : dd;
			int mm = mor[i] + mor[j] > 0 ? 2 : 0; /* one test a regiment */
			int ta = a >= dd ? mm : 0, td = dd >= a ? mm : 0; /* more hits, or both on a tie */
			count[a][dd][ta][td]++;
		}
	double sum = 0;
	for (size_t k = 0; k < fray_dist_count(d); k++) {
		const int64_t *o = fray_dist_outcome(d, k);
		assert_double_equal(fray_dist_p(d, k), count[o[0]][o[1]][o[2]][o[3]] / 12.0, 1e-15);
		sum += fray_dist_p(d, k);
	}
	assert_double_equal(sum, 1, 1e-12);
	fray_dist_free(d);
	/* scripted chits are drawn as written: chits 4 (R a: D-1, M) and 1
	 * (A1): attacker 1 hit, defender none, the attacker's regiments test */
	in.script[0] = 3;
	in.script[1] = 0;
	in.nscript = 2;
	assert_int_equal(fray_enumerate(ctx, fray_chits_draws_procedure, NULL, &in, 4, NULL, &d), FRAY_OK);
	assert_int_equal(fray_dist_count(d), 1);
	const int64_t *o = fray_dist_outcome(d, 0);
	assert_int_equal(o[0], hitsA[3] + hitsA[0]);
	assert_int_equal(o[1], 0);
	assert_int_equal(o[2], 2);
	assert_int_equal(o[3], 0);
	fray_dist_free(d);
	fray_chits_mix_free(m);
}

/* Draws without replacement: with the sample mix in example 1's situation,
 * count the chits that hit the defender; the number of such chits among K
 * drawn is hypergeometric. Here: how many drawn chits are "always -> M"
 * kinds is checked through the morale tests' total on a mix where only M
 * chits act. */
static void hypergeometric_draws(void **state)
{
	(void)state;
	fray_doc *doc;
	const char *text =
		"tactics: {t: {min: 1, max: {defend: 8, hold: 8, evade: 8}}}\n"
		"morale: {roll: 1d6, pass: at-most}\n"
		"chits:\n"
		"  - {id: a, a: {if: always, then: [D1]}, b: {if: always, then: []}}\n"
		"  - {id: b, a: {if: always, then: [D1]}, b: {if: always, then: []}}\n"
		"  - {id: c, a: {if: always, then: [D1]}, b: {if: always, then: []}}\n"
		"  - {id: d, a: {if: always, then: []}, b: {if: always, then: []}}\n"
		"  - {id: e, a: {if: always, then: []}, b: {if: always, then: []}}\n"
		"  - {id: f, a: {if: always, then: []}, b: {if: always, then: []}}\n"
		"  - {id: g, a: {if: always, then: []}, b: {if: always, then: []}}\n"
		"  - {id: h, a: {if: always, then: []}, b: {if: always, then: []}}\n";
	fray_ctx_clear(ctx);
	assert_int_equal(fray_doc_load_string(ctx, "mix.yaml", text, strlen(text), &doc), FRAY_OK);
	fray_chits_mix *m;
	assert_int_equal(fray_chits_mix_read(ctx, doc, &m), FRAY_OK);
	fray_doc_free(doc);
	fray_chits_combat_in in = {.mix = m, .draw = 3, .situation = {.attacker_cdr = 1, .defender_cdr = 1}};
	fray_dist *d;
	assert_int_equal(fray_enumerate(ctx, fray_chits_draws_procedure, NULL, &in, 4, NULL, &d), FRAY_OK);
	/* C(3,k) C(5,3-k) / C(8,3) */
	static const double want[4] = {10.0 / 56, 30.0 / 56, 15.0 / 56, 1.0 / 56};
	assert_int_equal(fray_dist_count(d), 4);
	for (size_t k = 0; k < 4; k++) {
		assert_int_equal(fray_dist_outcome(d, k)[1], (int64_t)k);
		assert_double_equal(fray_dist_p(d, k), want[k], 1e-15);
	}
	fray_dist_free(d);
	fray_chits_mix_free(m);
}

/* Reads a combat file (its mix too) into *m and *in; its seed, 0 when
 * none, is returned. */
static uint64_t read_combat(const char *path, fray_chits_mix **m, fray_chits_combat_in *in)
{
	fray_doc *doc;
	fray_ctx_clear(ctx);
	assert_int_equal(fray_doc_load_file(ctx, path, &doc), FRAY_OK);
	uint64_t seed = 0;
	bool has_seed;
	assert_int_equal(fray_chits_combat_read(ctx, doc, m, in, &seed, &has_seed), FRAY_OK);
	fray_doc_free(doc);
	return seed;
}

/* Fights a combat file with the heuristic, from its seed (or seed). */
static void fight_file(const char *path, uint64_t seed, fray_chits_combat_out *out)
{
	fray_chits_mix *m;
	fray_chits_combat_in in;
	uint64_t own = read_combat(path, &m, &in);
	fray_roller *r = fray_roller_sample_new(ctx, own ? own : seed, 0);
	fray_chits_combat(r, NULL, &in, out);
	fray_roller_free(r);
	fray_chits_mix_free(m);
}

static void fight_example(const char *file, fray_chits_combat_out *out)
{
	char path[512];
	snprintf(path, sizeof path, "%s/examples/chits/%s", FRAY_SOURCE_DIR, file);
	fight_file(path, 0, out);
}

static int total_hits(const fray_chits_unit *u)
{
	int n = 0;
	for (int b = 0; b < u->battalions; b++)
		n += u->hits[b];
	return n;
}

/* R23 past the second hit: five hits on two battalions, no retreat. The
 * lead takes the first, battalion 2 its first, the lead its second before
 * battalion 2 takes a second, battalion 2 its second; the fifth may go to
 * either (the text orders only the first two), so the heuristic, which
 * spreads and leaves the lead on a tie, gives it to battalion 2: 2 and 3.
 * A rule that kept the lead ahead of every other battalion gives 3 and 2. */
static void fifth_hit_is_the_owners_choice(void **state)
{
	(void)state;
	fray_chits_combat_out out;
	fight_file(FRAY_TEST_DATA "/chits/five-hits.yaml", 1, &out);
	const fray_chits_unit *def = &out.side[1].units[0];
	assert_int_equal(out.hits[1], 5);
	assert_int_equal(def->hits[def->lead], 2);
	assert_int_equal(def->hits[1 - def->lead], 3);
}

/* R23 at every choice: a policy that walks every answer the procedure
 * offers (all orders of five hits on three battalions, the lead being the
 * second) and checks each offer against the text, modelled here: a
 * combat's first hit is the lead's; until the lead has two this combat no
 * other battalion takes a second; then any battalion may. The model
 * follows the hits the procedure gave without asking (one legal battalion). */
typedef struct {
	int path[8], npath, depth, nopts[8];
	int now[FRAY_CHITS_MAX_BATTALIONS], nbat, lead;
	int bad; /* offers that differed from the model */
} r23_walk;

static int r23_legal(const r23_walk *w, bool *legal)
{
	int n = 0;
	for (int b = 0; b < w->nbat; b++) {
		legal[b] = b == w->lead || (w->now[w->lead] >= 1 && (w->now[b] == 0 || w->now[w->lead] >= 2));
		n += legal[b];
	}
	return n;
}

/* the hits the procedure placed without a question: one legal battalion */
static void r23_forced(r23_walk *w, int upto)
{
	bool legal[FRAY_CHITS_MAX_BATTALIONS];
	for (int total = 0;;) {
		total = 0;
		for (int b = 0; b < w->nbat; b++)
			total += w->now[b];
		if (total >= upto || r23_legal(w, legal) != 1)
			return;
		for (int b = 0; b < w->nbat; b++)
			if (legal[b])
				w->now[b]++;
	}
}

static size_t r23_choose(void *self, const fray_choice *c, char *msg, size_t cap)
{
	(void)msg, (void)cap;
	r23_walk *w = self;
	r23_forced(w, 99);
	bool legal[FRAY_CHITS_MAX_BATTALIONS], offered[FRAY_CHITS_MAX_BATTALIONS] = {0};
	r23_legal(w, legal);
	int bat[FRAY_CHITS_MAX_BATTALIONS];
	for (size_t i = 0; i < c->noptions; i++) {
		if (sscanf(c->options[i], "battalion %d", &bat[i]) != 1 || bat[i] < 1 || bat[i] > w->nbat) {
			w->bad++;
			return 0;
		}
		offered[bat[i] - 1] = true;
	}
	for (int b = 0; b < w->nbat; b++)
		w->bad += offered[b] != legal[b];
	int d = w->depth++;
	w->nopts[d] = (int)c->noptions;
	if (d >= w->npath)
		w->path[w->npath++] = 0;
	w->now[bat[w->path[d]] - 1]++;
	return (size_t)w->path[d];
}

static void r23_every_offer_is_the_texts(void **state)
{
	(void)state;
	fray_chits_mix *m;
	fray_chits_combat_in in;
	read_combat(FRAY_TEST_DATA "/chits/five-hits.yaml", &m, &in);
	in.side[1].units[0].battalions = 3;
	in.side[1].units[0].lead = 1;
	static const fray_policy_ops ops = {.name = "r23-walk", .choose = r23_choose, .deterministic = true};
	r23_walk w = {.nbat = 3, .lead = 1};
	int combats = 0;
	for (;;) {
		memset(w.now, 0, sizeof w.now);
		w.depth = 0;
		fray_policy *p = fray_policy_new(ctx, &ops, &w);
		fray_roller *r = fray_roller_sample_new(ctx, 1, 0);
		fray_chits_combat_out out;
		fray_chits_combat(r, p, &in, &out);
		fray_roller_free(r);
		fray_policy_free(p);
		r23_forced(&w, 5);
		const fray_chits_unit *def = &out.side[1].units[0];
		assert_int_equal(out.hits[1], 5);
		for (int b = 0; b < 3; b++)
			assert_int_equal(def->hits[b], w.now[b]);
		combats++;
		while (w.npath > 0 && w.path[w.npath - 1] + 1 >= w.nopts[w.npath - 1])
			w.npath--;
		if (w.npath == 0)
			break;
		w.path[w.npath - 1]++;
	}
	fray_chits_mix_free(m);
	assert_int_equal(w.bad, 0);
	/* the orders of the five hits, counted by hand (lead L, others X, Y):
	 * the first is L's. Once L has two, each hit has 3 places. From
	 * L1: L next leaves 3 hits free (27); X (or Y) next gives L1 X1, where
	 * L next leaves 2 free (9) and Y next forces L then 3 places (3): 12.
	 * 27 + 2 * 12 = 51 */
	assert_int_equal(combats, 51);
}

/* A combat file holds every level the library and the game file hold (0 to
 * FRAY_CHITS_MAX_LEVEL, include/fray/chits.h): a unit of an at-least mix
 * whose failed tests raised its morale past 20 can be written as it
 * stands (before, a combat file stopped morale, fatigue and hits at 20). */
static fray_status read_levels(int morale, int fatigue, int hits, fray_chits_combat_in *in)
{
	char text[1024];
	snprintf(text, sizeof text,
		 "mix: ../../../examples/chits/sample-mix.yaml\ntactic: hasty\nstance: hold\nterrain: open\ndraw: 3\n"
		 "attacker:\n  name: A\n  cdr: 9\n  type: infantry\n  units:\n"
		 "    - {name: Att, battalions: 2, morale: %d, fatigue: %d, hits: [%d, 0]}\n"
		 "defender:\n  name: D\n  cdr: 3\n  type: infantry\n  units:\n    - {name: Def, battalions: 2, morale: 7}\n",
		 morale, fatigue, hits);
	fray_doc *doc;
	fray_ctx_clear(ctx);
	assert_int_equal(fray_doc_load_string(ctx, FRAY_TEST_DATA "/chits/levels.yaml", text, strlen(text), &doc),
			 FRAY_OK);
	fray_chits_mix *m = NULL;
	uint64_t seed = 0;
	bool has_seed;
	fray_status st = fray_chits_combat_read(ctx, doc, &m, in, &seed, &has_seed);
	fray_doc_free(doc);
	fray_chits_mix_free(m);
	return st;
}

static void combat_file_holds_the_librarys_levels(void **state)
{
	(void)state;
	fray_chits_combat_in in;
	assert_int_equal(read_levels(FRAY_CHITS_MAX_LEVEL, 40, 30, &in), FRAY_OK);
	assert_int_equal(in.side[0].units[0].morale, FRAY_CHITS_MAX_LEVEL);
	assert_int_equal(in.side[0].units[0].fatigue, 40);
	assert_int_equal(in.side[0].units[0].hits[0], 30);
	assert_int_not_equal(read_levels(FRAY_CHITS_MAX_LEVEL + 1, 0, 0, &in), FRAY_OK);
	assert_non_null(strstr(fray_ctx_message(ctx), "from 0 to 99"));
	assert_int_not_equal(read_levels(7, FRAY_CHITS_MAX_LEVEL + 1, 0, &in), FRAY_OK);
	assert_int_not_equal(read_levels(7, 0, FRAY_CHITS_MAX_LEVEL + 1, &in), FRAY_OK);
}

/* Issue 40 item 9: what a combat leaves can be read again. Example 2's
 * Brent retreats (a fatigue point, R23) at 99 fatigue points, the most a
 * combat file, the game file and the end of turn hold: he stays at 99
 * (fray's bound; the text bounds nothing), where he once reached 100. */
static void combat_holds_levels_at_the_most(void **state)
{
	(void)state;
	char path[512];
	snprintf(path, sizeof path, "%s/examples/chits/example-2.yaml", FRAY_SOURCE_DIR);
	fray_chits_mix *m;
	fray_chits_combat_in in;
	uint64_t seed = read_combat(path, &m, &in);
	in.side[1].units[0].fatigue = FRAY_CHITS_MAX_LEVEL;
	fray_chits_combat_out out;
	fray_roller *r = fray_roller_sample_new(ctx, seed, 0);
	fray_chits_combat(r, NULL, &in, &out);
	assert_int_equal(fray_roller_stop_reason(r)[0], '\0');
	fray_roller_free(r);
	fray_chits_mix_free(m);
	assert_int_equal(out.retreats[1], 2); /* as in the example: he retreated */
	assert_int_equal(out.side[1].units[0].fatigue, FRAY_CHITS_MAX_LEVEL);
	char why[256];
	assert_null(fray_chits_unit_problem(&out.side[1].units[0], why, sizeof why));
}

/* Example 1: A1, D1, D-1, F, M. David's brigade takes no hit (the hit is
 * cancelled); Brent's takes one, on its lead battalion, and having taken
 * more hits gains the fatigue point and tests morale, passing. */
static void worked_example_1(void **state)
{
	(void)state;
	fray_chits_combat_out out;
	fight_example("example-1.yaml", &out);
	const fray_chits_unit *brent = &out.side[0].units[0], *david = &out.side[1].units[0];
	assert_int_equal(out.hits[0], 1);
	assert_int_equal(out.hits[1], 0);
	assert_int_equal(brent->hits[brent->lead], 1);
	assert_int_equal(total_hits(brent), 1);
	assert_int_equal(brent->fatigue, 1);
	assert_int_equal(out.morale_tests[0], 1);
	assert_int_equal(out.morale_failed[0], 0);
	assert_int_equal(out.morale_tests[1], 0);
	assert_int_equal(total_hits(david), 0);
	assert_int_equal(david->fatigue, 0);
}

/* Example 2 (A and D swapped, ruling R25): David takes two hits, the lead
 * battalion's and another battalion's, without retreating; Brent takes one
 * on his lead battalion and negates two by retreating: disordered, one
 * more fatigue point (two in all), at least two hits in the battle. No M:
 * no morale test. */
static void worked_example_2(void **state)
{
	(void)state;
	fray_chits_combat_out out;
	fight_example("example-2.yaml", &out);
	const fray_chits_unit *david = &out.side[0].units[0], *brent = &out.side[1].units[0];
	assert_int_equal(out.hits[0], 2);
	assert_int_equal(out.hits[1], 3);
	assert_int_equal(total_hits(david), 2);
	assert_int_equal(david->hits[david->lead], 1);
	assert_int_equal(out.retreats[0], 0);
	assert_int_equal(out.retreats[1], 2);
	assert_true(brent->disordered);
	assert_int_equal(brent->fatigue, 2);
	assert_int_equal(total_hits(brent), 2);
	assert_int_equal(out.morale_tests[0] + out.morale_tests[1], 0);
}

/* Example 3: A2, D2, M at 7:1. Brent takes a hit on his lead battalion and
 * retreats once: a third fatigue point. David's two regiments take one hit
 * each on their lead squadrons. The hits tie (2 and 2 before the retreat):
 * both sides test; one regiment fails (its morale level falls), the other
 * passes; Brent passes and recovers from disorder. */
static void worked_example_3(void **state)
{
	(void)state;
	fray_chits_combat_out out;
	fight_example("example-3.yaml", &out);
	const fray_chits_side *david = &out.side[0];
	const fray_chits_unit *brent = &out.side[1].units[0];
	assert_int_equal(out.hits[0], 2);
	assert_int_equal(out.hits[1], 2);
	assert_int_equal(brent->fatigue, 3);
	assert_int_equal(out.retreats[1], 1);
	assert_int_equal(brent->hits[brent->lead], 3);
	assert_false(brent->disordered);
	assert_int_equal(david->nunits, 2);
	for (int i = 0; i < 2; i++) {
		assert_int_equal(total_hits(&david->units[i]), 1);
		assert_int_equal(david->units[i].hits[david->units[i].lead], 1);
	}
	assert_int_equal(out.morale_tests[0], 2);
	assert_int_equal(out.morale_failed[0], 1);
	assert_int_equal(out.morale_tests[1], 1);
	assert_int_equal(out.morale_failed[1], 0);
	assert_int_equal(david->units[0].morale + david->units[1].morale, 7 + 6);
}

static void malformed_mixes(void **state)
{
	(void)state;
	static const struct {
		const char *file, *msg;
	} rows[] = {
		{"unknown-key", "5:1: unknown key 'moral' (did you mean 'morale'?)"},
		{"missing-chits", "6:1: unknown key 'other'"}, /* then: missing 'chits' */
		{"bad-condition", "9:21: expected a condition: always; ratio at least|at most|is N:1 or 1:N; terrain is T; tactic is T; stance is defend|hold|evade; attacker rolled higher; defender rolled higher; attacker is T; defender is T"},
		{"unknown-terrain", "9:21: unknown terrain 'city': expected one of open, village, town, woods, hills, marsh, river"},
		{"unknown-tactic", "9:61: unknown tactic 'siege': the tactics are the mix's 'tactics'"},
		{"bad-effect", "10:41: expected an effect: A<n> or D<n> (hits), A-<n> or D-<n> (fewer hits), F (fatigue) or M (morale test), n from 1 to 9"},
		{"duplicate-id", "9:10: two chits have the id 'P'"},
		{"max-below-min", "4:42: expected the most chits (at least the fewest): a whole number from 2 to 16, found '1'"},
		{"bad-pass", "5:27: expected how a morale test passes: one of at-most, at-least"},
		{"bad-dice", "5:16: expected dice such as 2d6: column 2: expected '+', '-' or the end, got 'q'"},
		{"bad-ratio", "7:21: expected a ratio condition such as \"ratio at least 2:1\" or \"ratio is 1:2\""},
		{"empty-chits", "6:8: expected 1 to 128 chits, found 0"},
		{"bad-precedence", "7:108: expected the side with precedence: one of a, b; found 'c' (did you mean 'a'?)"},
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		char path[512], want[1024];
		snprintf(path, sizeof path, "%s/chits/bad/%s.yaml", FRAY_TEST_DATA, rows[i].file);
		snprintf(want, sizeof want, "%s:%s", path, rows[i].msg);
		fray_chits_mix *m = (fray_chits_mix *)&m;
		fray_ctx_clear(ctx);
		assert_int_equal(fray_chits_mix_load(ctx, path, &m), FRAY_ERR_INPUT);
		assert_null(m);
		assert_string_equal(fray_ctx_message(ctx), want);
	}
	fray_ctx_clear(ctx);
}

/* The draw count must be within the tactic's range against the stance. */
static void draw_limits(void **state)
{
	(void)state;
	fray_chits_mix *m = small_mix();
	fray_chits_situation s = {.tactic = 0, .stance = 1};
	char buf[128];
	assert_null(fray_chits_draw_problem(m, &s, 2, buf, sizeof buf));
	assert_string_equal(fray_chits_draw_problem(m, &s, 3, buf, sizeof buf),
			    "hasty against hold draws 2 to 2 chits, not 3");
	s.stance = 0;
	assert_null(fray_chits_draw_problem(m, &s, 3, buf, sizeof buf));
	assert_non_null(fray_chits_draw_problem(m, &s, 1, buf, sizeof buf));
	/* drawn without replacement: never more chits than the mix holds,
	 * whatever the tactic allows */
	m->tactics[0].max[0] = m->nchits + 1;
	char want[128];
	snprintf(want, sizeof want, "the mix 'small test mix' holds %d chits, fewer than the %d to draw",
		 m->nchits, m->nchits + 1);
	assert_string_equal(fray_chits_draw_problem(m, &s, m->nchits + 1, buf, sizeof buf), want);
	/* and the library refuses such a draw rather than read past the mix */
	fray_chits_combat_in in = {.mix = m, .draw = m->nchits + 1,
				   .situation = {.attacker_cdr = 1, .defender_cdr = 1}};
	fray_roller *r = fray_roller_sample_new(ctx, 1, 0);
	fray_chits_combat_out out;
	fray_chits_combat(r, NULL, &in, &out);
	assert_true(fray_roller_stopped(r));
	assert_string_equal(fray_roller_stop_reason(r), "more chits to draw than the mix holds");
	fray_roller_free(r);
	fray_chits_mix_free(m);
}

/* Ruling R29: Defend only in defensible terrain, Evade only by a type
 * that may; by default every terrain but open, and cavalry alone (example
 * 2: an infantry brigade in the open may do neither). A mix may say
 * otherwise. Once any stance was accepted, and the tactic's chit range
 * read with it. */
static void stances_allowed(void **state)
{
	(void)state;
	fray_chits_mix *m = small_mix();
	char buf[160];
	static const struct { int stance, terrain, type; bool ok; } rows[] = {
		{0, 0, 0, false}, /* defend in the open */
		{0, 1, 0, true},  /* defend in a village */
		{0, 3, 1, true},  /* defend in woods, cavalry */
		{1, 0, 0, true},  /* hold anywhere */
		{2, 0, 0, false}, /* evade, infantry */
		{2, 0, 2, false}, /* evade, artillery */
		{2, 0, 1, true},  /* evade, cavalry */
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		fray_chits_situation s = {.stance = rows[i].stance, .terrain = rows[i].terrain,
					  .defender_type = rows[i].type};
		assert_int_equal(fray_chits_stance_problem(m, &s, buf, sizeof buf) == NULL, rows[i].ok);
	}
	fray_chits_mix_free(m);
	/* a mix of its own: defend anywhere, infantry evades, cavalry not */
	const char *text = "tactics: {hasty: {min: 1, max: {defend: 1, hold: 1, evade: 1}}}\n"
			   "morale: {roll: 2d6, pass: at-most}\n"
			   "defensible_terrain: [open, village, town, woods, hills, marsh, river]\n"
			   "evaders: [infantry]\n"
			   "chits: [{id: X, a: {if: always, then: [A1]}, b: {if: always, then: []}}]\n";
	fray_doc *doc;
	assert_int_equal(fray_doc_load_string(ctx, "mix.yaml", text, strlen(text), &doc), FRAY_OK);
	assert_int_equal(fray_chits_mix_read(ctx, doc, &m), FRAY_OK);
	fray_doc_free(doc);
	fray_chits_situation open_defend = {.stance = 0, .terrain = 0};
	assert_null(fray_chits_stance_problem(m, &open_defend, buf, sizeof buf));
	fray_chits_situation cav_evade = {.stance = 2, .defender_type = 1};
	assert_non_null(fray_chits_stance_problem(m, &cav_evade, buf, sizeof buf));
	fray_chits_situation inf_evade = {.stance = 2, .defender_type = 0};
	assert_null(fray_chits_stance_problem(m, &inf_evade, buf, sizeof buf));
	fray_chits_mix_free(m);
}

/* End of turn: one fatigue point off; rest 1d3 more; the last hit never
 * comes back. */
static void end_of_turn(void **state)
{
	(void)state;
	fray_chits_mix *m = small_mix();
	fray_chits_end_turn_in in = {.mix = m, .rest = true, .rally = true, .new_lead = 2};
	in.unit = (fray_chits_unit){.battalions = 4, .hits = {1}, .fatigue = 5, .morale = 7};
	for (uint64_t seed = 0; seed < 20; seed++) {
		fray_roller *r = fray_roller_sample_new(ctx, seed, 0);
		fray_chits_unit u;
		fray_chits_end_turn(r, &in, &u);
		assert_in_range(u.fatigue, 1, 3); /* 5 - 1 - (1..3) */
		assert_int_equal(u.hits[0], 1);    /* the last hit stays */
		assert_int_equal(u.lead, 2);
		fray_roller_free(r);
	}
	/* the library's procedure, exact: 5 - 1 - 1d3 leaves 3, 2 or 1 fatigue
	 * points, 1/3 each; the last hit is never recovered */
	fray_dist *d;
	assert_int_equal(fray_enumerate(ctx, fray_chits_end_turn_procedure, NULL, &in, 3, NULL, &d), FRAY_OK);
	assert_int_equal(fray_dist_count(d), 3);
	for (size_t k = 0; k < 3; k++) {
		assert_in_range(fray_dist_outcome(d, k)[0], 1, 3);
		assert_int_equal(fray_dist_outcome(d, k)[1], 1);
		assert_double_equal(fray_dist_p(d, k), 1.0 / 3, 1e-15);
	}
	fray_dist_free(d);
	fray_chits_mix_free(m);
}

/* Rally/Recover on disorder: the mix's morale test (small-mix: 1d6 at
 * least the morale level, 4: 3 of 6 faces), a pass removes disorder;
 * never in the activation that rallies. The lead battalion is switched at
 * the end of the turn only without casualties since the combat. */
static void end_turn_procedure(fray_roller *r, fray_policy *p, const void *in, int64_t *out)
{
	(void)p;
	fray_chits_unit u;
	fray_chits_end_turn(r, in, &u);
	out[0] = u.disordered;
	out[1] = u.lead;
}

static void disorder_and_lead_at_end_of_turn(void **state)
{
	(void)state;
	fray_chits_mix *m = small_mix();
	fray_chits_end_turn_in in = {.mix = m, .recover_disorder = true, .new_lead = -1};
	in.unit = (fray_chits_unit){.battalions = 4, .morale = 4, .disordered = true};
	fray_dist *d;
	assert_int_equal(fray_enumerate(ctx, end_turn_procedure, NULL, &in, 2, NULL, &d), FRAY_OK);
	int pass = 0;
	for (int a = 1; a <= 6; a++)
		pass += a >= 4;
	double removed = 0;
	for (size_t k = 0; k < fray_dist_count(d); k++)
		removed += fray_dist_outcome(d, k)[0] == 0 ? fray_dist_p(d, k) : 0;
	assert_double_equal(removed, pass / 6.0, 1e-15);
	fray_dist_free(d);
	/* with a rally in the same activation: no recovery from disorder */
	in.rally = true;
	assert_int_equal(fray_enumerate(ctx, end_turn_procedure, NULL, &in, 2, NULL, &d), FRAY_OK);
	for (size_t k = 0; k < fray_dist_count(d); k++)
		assert_int_equal(fray_dist_outcome(d, k)[0], 1);
	fray_dist_free(d);
	/* the lead switch, and none after further casualties */
	in = (fray_chits_end_turn_in){.mix = m, .new_lead = 2};
	in.unit = (fray_chits_unit){.battalions = 4, .morale = 7};
	assert_int_equal(fray_enumerate(ctx, end_turn_procedure, NULL, &in, 2, NULL, &d), FRAY_OK);
	assert_int_equal(fray_dist_outcome(d, 0)[1], 2);
	fray_dist_free(d);
	in.hits_since_combat = 1;
	assert_int_equal(fray_enumerate(ctx, end_turn_procedure, NULL, &in, 2, NULL, &d), FRAY_OK);
	assert_int_equal(fray_dist_outcome(d, 0)[1], 0);
	fray_dist_free(d);
	fray_chits_mix_free(m);
}

/* Issue 29 case 1: the library checks the state it is handed. A unit
 * without a lead battalion (a game file's missing `lead`: 0 - 1 = -1), or
 * with no battalions, once read now[-1] and wrote through an index never
 * set; each now fails the run with FRAY_ERR_INPUT and a message, and
 * nothing is drawn. Hits, fatigue, morale and the situation's indices
 * too, and NULL. */
static fray_chits_combat_in good_combat(const fray_chits_mix *m)
{
	/* hasty (2 to 2 against hold), hold in the open, 2:1 */
	fray_chits_combat_in in = {.mix = m, .draw = 2, .script = {1, 0}, .nscript = 2,
				   .situation = {.tactic = 0, .stance = 1, .attacker_cdr = 12, .defender_cdr = 6}};
	for (int x = 0; x < 2; x++) {
		in.side[x].nunits = 1;
		in.side[x].units[0] = (fray_chits_unit){.name = "brigade", .battalions = 4, .morale = 7};
	}
	return in;
}

static fray_status fight(const fray_chits_combat_in *in)
{
	fray_chits_combat_out *out = malloc(sizeof *out);
	assert_non_null(out);
	fray_roller *r = fray_roller_sample_new(ctx, 3, 0);
	fray_chits_combat(r, NULL, in, out);
	fray_status st = fray_roller_stopped(r) ? FRAY_ERR_INPUT : FRAY_OK;
	if (st != FRAY_OK)
		assert_true(strlen(fray_roller_stop_reason(r)) > 0);
	fray_roller_free(r);
	free(out);
	return st;
}

static void library_refuses_bad_state(void **state)
{
	(void)state;
	fray_chits_mix *m = small_mix();
	fray_chits_combat_in in = good_combat(m);
	assert_int_equal(fight(&in), FRAY_OK);
	/* each spoilt in one way, on either side */
	for (int x = 0; x < 2; x++) {
		static const struct { int battalions, lead, hit, fatigue, morale; } bad[] = {
			{4, -1, 0, 0, 7}, {4, 4, 0, 0, 7}, {0, 0, 0, 0, 7}, {9, 0, 0, 0, 7}, {-3, -1, 0, 0, 7},
			{4, 0, -1, 0, 7}, {4, 0, 100, 0, 7}, {4, 0, 0, -1, 7}, {4, 0, 0, 100, 7}, {4, 0, 0, 0, -1},
			{4, 0, 0, 0, 100},
		};
		for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
			in = good_combat(m);
			fray_chits_unit *u = &in.side[x].units[0];
			u->battalions = bad[k].battalions;
			u->lead = bad[k].lead;
			u->hits[0] = bad[k].hit;
			u->fatigue = bad[k].fatigue;
			u->morale = bad[k].morale;
			assert_int_equal(fight(&in), FRAY_ERR_INPUT);
		}
		in = good_combat(m);
		in.side[x].nunits = 0;
		assert_int_equal(fight(&in), FRAY_ERR_INPUT);
		in.side[x].nunits = FRAY_CHITS_MAX_UNITS + 1;
		assert_int_equal(fight(&in), FRAY_ERR_INPUT);
	}
	static const struct { int tactic, stance, terrain, acdr, dcdr, atype, dtype, nscript, s0; } sit[] = {
		{-1, 1, 0, 12, 6, 0, 0, 2, 1}, {1, 1, 0, 12, 6, 0, 0, 2, 1}, {0, 3, 0, 12, 6, 0, 0, 2, 1},
		{0, -1, 0, 12, 6, 0, 0, 2, 1}, {0, 1, 7, 12, 6, 0, 0, 2, 1}, {0, 1, 0, 0, 6, 0, 0, 2, 1},
		{0, 1, 0, 12, 0, 0, 0, 2, 1},  {0, 1, 0, 12, 6, 3, 0, 2, 1}, {0, 1, 0, 12, 6, 0, -1, 2, 1},
		{0, 1, 0, 12, 6, 0, 0, 17, 1}, {0, 1, 0, 12, 6, 0, 0, 2, 4}, {0, 1, 0, 12, 6, 0, 0, 2, 0},
	};
	for (size_t k = 0; k < sizeof sit / sizeof sit[0]; k++) {
		in = good_combat(m);
		in.situation = (fray_chits_situation){sit[k].tactic, sit[k].stance, sit[k].terrain, sit[k].acdr,
						      sit[k].dcdr, sit[k].atype, sit[k].dtype};
		in.nscript = sit[k].nscript;
		in.script[0] = sit[k].s0; /* 4: no such chit; 0: chit 0 twice */
		assert_int_equal(fight(&in), FRAY_ERR_INPUT);
	}
	in = good_combat(m);
	in.mix = NULL;
	assert_int_equal(fight(&in), FRAY_ERR_INPUT);
	assert_int_equal(fight(NULL), FRAY_ERR_INPUT);
	/* the draws' procedure (advise, odds) and the end of turn too */
	in = good_combat(m);
	in.situation.tactic = 5;
	fray_dist *d = NULL;
	assert_int_equal(fray_enumerate(ctx, fray_chits_draws_procedure, NULL, &in, 4, NULL, &d), FRAY_ERR_INPUT);
	fray_dist_free(d);
	fray_ctx_clear(ctx);
	fray_chits_end_turn_in et = {.mix = m, .new_lead = -1,
				     .unit = {.name = "b", .battalions = 4, .lead = -1, .morale = 7}};
	assert_int_equal(fray_enumerate(ctx, fray_chits_end_turn_procedure, NULL, &et, 3, NULL, &d),
			 FRAY_ERR_INPUT);
	fray_dist_free(d);
	fray_ctx_clear(ctx);
	et.unit.lead = 0;
	et.unit.battalions = 0;
	et.rally = true;
	assert_int_equal(fray_enumerate(ctx, fray_chits_end_turn_procedure, NULL, &et, 3, NULL, &d),
			 FRAY_ERR_INPUT);
	fray_dist_free(d);
	fray_ctx_clear(ctx);
	et.unit.battalions = 4;
	et.new_lead = 7;
	assert_int_equal(fray_enumerate(ctx, fray_chits_end_turn_procedure, NULL, &et, 3, NULL, &d),
			 FRAY_ERR_INPUT);
	fray_dist_free(d);
	fray_ctx_clear(ctx);
	fray_chits_mix_free(m);
}

/* Told terms (BRIEF): each TOTAL is the sum of the MODIFIER events told
 * since the one before: the combat die rolls the ratio is made of (R21)
 * and each morale test's level (G5). Chits B (A1, D2) and R (D-1, M) in
 * small-mix: one hit each, a tie, so both sides test (R22). */
typedef struct told {
	int64_t mods, totals[8];
	int ntotals, rolls_after_total;
} told;

static void count_told(void *ud, const fray_event *ev)
{
	told *t = ud;
	if (ev->kind == FRAY_EV_MODIFIER) {
		assert_non_null(ev->rule);
		t->mods += ev->value;
	} else if (ev->kind == FRAY_EV_TOTAL) {
		assert_non_null(ev->rule);
		assert_int_equal(ev->value, t->mods);
		assert_true(t->ntotals < 8);
		t->totals[t->ntotals++] = ev->value;
		t->mods = 0;
	} else if (ev->kind == FRAY_EV_ROLL && t->ntotals > 0) {
		t->rolls_after_total++;
	}
}

static void modifiers_itemised(void **state)
{
	(void)state;
	fray_chits_mix *m = small_mix();
	fray_chits_combat_in in = good_combat(m);
	in.script[0] = 1;
	in.script[1] = 3;
	in.side[1].units[0].morale = 4;
	told t = {0};
	fray_chits_combat_out *out = malloc(sizeof *out);
	fray_roller *r = fray_roller_sample_new(ctx, 11, 0);
	fray_roller_set_sink(r, count_told, &t);
	fray_chits_combat(r, NULL, &in, out);
	assert_false(fray_roller_stopped(r));
	fray_roller_free(r);
	assert_int_equal(out->morale_tests[0] + out->morale_tests[1], 2);
	assert_int_equal(t.ntotals, 4);
	assert_int_equal(t.totals[0], 12); /* the attacker's combat die roll */
	assert_int_equal(t.totals[1], 6);  /* the defender's */
	/* the defender's effects first: its test (level 4), then the
	 * attacker's (level 7), each read against its total */
	assert_int_equal(t.totals[2], 4);
	assert_int_equal(t.totals[3], 7);
	assert_int_equal(t.rolls_after_total, 2); /* small-mix's test: 1d6 each */
	assert_int_equal(t.mods, 0);
	free(out);
	fray_chits_mix_free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ratios),
		cmocka_unit_test(sides_that_apply),
		cmocka_unit_test(draw_odds_by_counting),
		cmocka_unit_test(hypergeometric_draws),
		cmocka_unit_test(fifth_hit_is_the_owners_choice),
		cmocka_unit_test(r23_every_offer_is_the_texts),
		cmocka_unit_test(combat_file_holds_the_librarys_levels),
		cmocka_unit_test(combat_holds_levels_at_the_most),
		cmocka_unit_test(worked_example_1),
		cmocka_unit_test(worked_example_2),
		cmocka_unit_test(worked_example_3),
		cmocka_unit_test(malformed_mixes),
		cmocka_unit_test(draw_limits),
		cmocka_unit_test(stances_allowed),
		cmocka_unit_test(end_of_turn),
		cmocka_unit_test(disorder_and_lead_at_end_of_turn),
		cmocka_unit_test(library_refuses_bad_state),
		cmocka_unit_test(modifiers_itemised),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
