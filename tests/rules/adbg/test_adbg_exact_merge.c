/* Exact odds of whole ADBG battles merge the battles that stand alike
 * between steps (src/rules/adbg/battle.c, pack): issue #33 item 5 keys the
 * last round from its melee on by what is still read (a unit no melee
 * reads by its recovery and the end only, the end by each side's standing,
 * routed and eliminated counts) and a lost leader as one with no stack.
 *
 * - merged_as_unmerged: the merged walk's exact odds equal those of the
 *   battle walked without any merging (fray_adbg_battle_stats_procedure:
 *   the same battle with no stops, every path to its end), summed here
 *   with GMP rationals into {winner, losses, losses}, for small battles
 *   that reach the merged forms: leaders of each rating in stacks, routed
 *   units recovering with them, stacks splitting to attack, two rounds,
 *   both victory rules and the three fates of routed units; and a battle of
 *   two positions whose front stacks split to attack at both in the last
 *   round (two_fronts_as_unmerged).
 * - lochry_merges: Lochry's walk takes at most 1.1 million paths (before
 *   these keys 2,461,080: docs/performance.md), so the merging is there. */
#include <gmp.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "../../test_util.h"
#include <fray/fray.h>
#include "../../../src/rules/adbg/battle_convolve.h"

/* Two stacks a side with leaders rated 1-3: Red's front stack holds a
 * unit that is soon disrupted, so its undisrupted units split off to
 * attack (R6) and go home into it again. Two rounds: Red's primary leader
 * is rated 2 and Blue's, rated 1, cannot add one (19.1). */
static const char *const battle_text =
	"battle: Merge\n"
	"terrain: wilderness\n"
	"weather: normal\n"
	"initiative: red\n"
	"surprise: none\n"
	"melee_crt:\n"
	"  name: example\n"
	"  columns: [\"1:3\", \"1:2\", \"1:1\", \"2:1\", \"3:1\", \"4:1\", \"5:1\", \"6:1\"]\n"
	"  rows:\n"
	"    0: [\"R/-\", \"R/-\", \"2/-\", \"1/-\", \"1/-\", \"1/1\", \"1/1\", \"-/1\"]\n"
	"    1: [\"R/-\", \"2/-\", \"1/-\", \"1/-\", \"1/1\", \"1/1\", \"-/1\", \"-/1\"]\n"
	"    2: [\"2/-\", \"1/-\", \"1/-\", \"1/1\", \"1/1\", \"-/1\", \"-/1\", \"-/2\"]\n"
	"    3: [\"1/-\", \"1/-\", \"1/1\", \"1/1\", \"-/1\", \"-/1\", \"-/2\", \"-/2\"]\n"
	"    4: [\"1/-\", \"1/1\", \"1/1\", \"-/1\", \"-/1\", \"-/2\", \"-/2\", \"-/R\"]\n"
	"    5: [\"1/1\", \"1/1\", \"-/1\", \"-/1\", \"-/2\", \"-/2\", \"-/R\", \"-/R\"]\n"
	"    6: [\"1/1\", \"-/1\", \"-/1\", \"-/2\", \"-/2\", \"-/R\", \"-/R\", \"-/R\"]\n"
	"    7: [\"-/1\", \"-/1\", \"-/2\", \"-/2\", \"-/R\", \"-/R\", \"-/R\", \"-/R\"]\n"
	"leader_loss:\n"
	"  after_fire: {roll: 1d6, lost_on: [6]}\n"
	"  after_melee: {roll: 1d6, lost_on: [5, 6]}\n"
	"victory:\n"
	"  rule: %s\n"
	"  routed: %s\n"
	"sides:\n"
	"  red:\n"
	"    name: Red\n"
	"    level: 4\n"
	"    primary_leader: {name: Red chief, rating: 2, stack: 1}\n"
	"    leaders:\n"
	"      - {name: Red captain, rating: 3, stack: 2}\n"
	"    stacks:\n"
	"      - - {name: Red warriors, type: warrior, fire: 3, melee: 3}\n"
	"        - {name: Red scouts, type: warrior, fire: 2, melee: 1}\n"
	"      - - {name: Red band, type: warrior, fire: 2, melee: 2}\n"
	"  blue:\n"
	"    name: Blue\n"
	"    level: 3\n"
	"    primary_leader: {name: Blue chief, rating: 1, stack: 1}\n"
	"    leaders:\n"
	"      - {name: Blue major, rating: 2, stack: 2}\n"
	"    stacks:\n"
	"      - - {name: Blue militia, type: militia, fire: 3, melee: 2}\n"
	"      - - {name: Blue rangers, type: militia, fire: 2, melee: 2}\n";

/* Two positions, a stack a side at each, Brant's first of two units: the
 * front stacks may attack in the
 * last round at both positions, splitting off their undisrupted units, and
 * go home (issue 45: the last melee's keys once wrote every stack at
 * position 1, row 1, so an attacker going home at one position stepped
 * back the stack another had split from at the other, which then went
 * home alone, away from its routed units and their recovery with its
 * leader). */
static const char *const two_fronts_text =
	"battle: Two fronts\n"
	"terrain: wilderness\n"
	"weather: normal\n"
	"initiative: brant\n"
	"surprise: none\n"
	"melee_crt: " FRAY_SOURCE_DIR "/data/adbg/example-melee-crt.yaml\n"
	"victory:\n"
	"  rule: %s\n"
	"  routed: %s\n"
	"leader_loss:\n"
	"  after_melee: {roll: 1d6, lost_on: [5, 6]}\n"
	"  after_fire: {roll: 1d6, lost_on: [6]}\n"
	"sides:\n"
	"  pennsylvania:\n"
	"    name: Pennsylvania\n"
	"    level: 2\n"
	"    primary_leader: {name: Pennsylvania chief, rating: 1, stack: 1}\n"
	"    stacks:\n"
	"      - - {name: P1, type: militia, fire: 2, melee: 2}\n"
	"      - - {name: P2, type: militia, fire: 1, melee: 1}\n"
	"  brant:\n"
	"    name: Brant\n"
	"    level: 4\n"
	"    primary_leader: {name: Brant chief, rating: 2, stack: 1}\n"
	"    stacks:\n"
	"      - - {name: B1, type: warrior, fire: 2, melee: 3}\n"
	"        - {name: B3, type: warrior, fire: 2, melee: 2}\n"
	"      - - {name: B2, type: warrior, fire: 2, melee: 2}\n";

/* Positions walked each on its own and convolved (issue 45 item 1, third
 * pass: battle.c's "independent positions"): three positions, a stack a
 * side at each, routed units' fates to roll at every one; and the same
 * with a reserve of Brant's (a stack behind the front row with an undisrupted
 * unit, 19.2.2 b), convolved only where no other position may be open to
 * it as Brant's movement phase reaches it (position_moves). */
#define FRONTS(brant_rating, pennsylvania, brant) \
	"battle: Fronts\n" \
	"terrain: wilderness\n" \
	"weather: normal\n" \
	"initiative: brant\n" \
	"surprise: none\n" \
	"melee_crt: " FRAY_SOURCE_DIR "/data/adbg/example-melee-crt.yaml\n" \
	"victory:\n" \
	"  rule: %s\n" \
	"  routed: %s\n" \
	"leader_loss:\n" \
	"  after_melee: {roll: 1d6, lost_on: [5, 6]}\n" \
	"  after_fire: {roll: 1d6, lost_on: [6]}\n" \
	"sides:\n" \
	"  pennsylvania:\n" \
	"    name: Pennsylvania\n" \
	"    level: 3\n" \
	"    primary_leader: {name: Pennsylvania chief, rating: 1, stack: 1}\n" \
	"    stacks:\n" pennsylvania \
	"  brant:\n" \
	"    name: Brant\n" \
	"    level: 4\n" \
	"    primary_leader: {name: Brant chief, rating: " brant_rating ", stack: 1}\n" \
	"    stacks:\n" \
	"      - - {name: B1, type: warrior, fire: 2, melee: 3}\n" brant
/* one round, three positions */
static const char *const three_fronts_text =
	FRONTS("1",
	       "      - - {name: P1, type: militia, fire: 2, melee: 2}\n"
	       "      - - {name: P2, type: militia, fire: 1, melee: 1}\n"
	       "      - - {name: P3, type: militia, fire: 2, melee: 1}\n",
	       "      - - {name: B2, type: warrior, fire: 2, melee: 2}\n"
	       "      - - {name: B3, type: warrior, fire: 1, melee: 2}\n");
/* two rounds, three positions and Brant's reserve; P3 strong and B3 weak,
 * so that a melee at the third position in round 1 may leave it open to
 * the reserve in round 2 */
static const char *const reserve_text =
	FRONTS("2",
	       "      - - {name: P1, type: militia, fire: 2, melee: 2}\n"
	       "      - - {name: P2, type: militia, fire: 1, melee: 1}\n"
	       "      - - {name: P3, type: militia, fire: 2, melee: 4}\n",
	       "      - - {name: B2, type: warrior, fire: 2, melee: 2}\n"
	       "      - - {name: B3, type: warrior, fire: 1, melee: 1}\n"
	       "      - - {name: B5, type: warrior, fire: 1, melee: 1}\n");

/* A reserve that moves (issue 45 item 1, fifth pass: battle.c's "a
 * reserve's move as an event"): the array puts Brant's reserve B4 behind
 * B3 at the third position; B1 and B2, three times as strong as the
 * militia before them, attack in round 1, leaving the first two
 * positions open to B4 after Brant's moves there, and B4 tries to move
 * to the first (its roll may fail; B2's attack is the second open
 * position, read only when the first is not open: B1 disrupted by fire).
 * Once arrived, B4 stands behind B1 when B1 comes home (a reserve again):
 * in round 2, when B1 does not attack (P1 gone, or B1 disrupted), B4
 * moves on to the second position if B2 was lost there (a chain), open
 * as Brant's phase reaches it. */
static const char *const moving_text =
	FRONTS("2",
	       "      - - {name: P1, type: militia, fire: 1, melee: 1}\n"
	       "      - - {name: P2, type: militia, fire: 1, melee: 1}\n"
	       "      - - {name: P3, type: militia, fire: 2, melee: 2}\n",
	       "      - - {name: B2, type: warrior, fire: 1, melee: 3}\n"
	       "      - - {name: B3, type: warrior, fire: 1, melee: 1}\n"
	       "      - - {name: B4, type: warrior, fire: 1, melee: 2}\n")
	"array:\n"
	"  - {pennsylvania: [1], brant: [1]}\n"
	"  - {pennsylvania: [2], brant: [2]}\n"
	"  - {pennsylvania: [3], brant: [3, 4]}\n";

static const char *text_of = NULL; /* the battle compare() walks: battle_text when NULL */

static fray_adbg_scenario *battle_with(const char *victory, const char *routed)
{
	char text[4096], path[] = "/tmp/fray_exact_merge_XXXXXX";
	int len = snprintf(text, sizeof text, text_of ? text_of : battle_text, victory, routed);
	assert_true(len > 0 && (size_t)len < sizeof text);
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	FILE *f = fdopen(fd, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, (size_t)len, f), (size_t)len);
	assert_int_equal(fclose(f), 0);
	fray_adbg_scenario *s;
	fray_ctx_clear(ctx);
	assert_int_equal(fray_adbg_scenario_load(ctx, path, &s), FRAY_OK);
	remove(path);
	return s;
}

static fray_dist *walk(fray_procedure proc, const fray_adbg_scenario *s, size_t nfields)
{
	fray_policy *p = fray_policy_heuristic_new(ctx);
	assert_non_null(p);
	fray_enum_limits lim = {.max_depth = 100000, .max_paths = 50000000};
	fray_dist *d = NULL;
	fray_status st = fray_enumerate(ctx, proc, p, s, nfields, &lim, &d);
	if (st != FRAY_OK)
		fail_msg("%s", fray_ctx_message(ctx));
	fray_policy_free(p);
	assert_true(fray_dist_is_exact(d));
	char u[64];
	fray_dist_unresolved_exact(d, u, sizeof u);
	assert_string_equal(u, "0");
	return d;
}

/* The outcomes {winner, losses, losses}, at most 3 * 8 * 8 of them. */
enum { CELLS = 3 * 8 * 8 };

static int cell(int64_t winner, int64_t loss0, int64_t loss1)
{
	assert_true(winner >= 0 && winner < 3 && loss0 >= 0 && loss0 < 8 && loss1 >= 0 && loss1 < 8);
	return (int)((winner * 8 + loss0) * 8 + loss1);
}

static void add_exact(mpq_t sum, const fray_dist *d, size_t i)
{
	char text[512];
	assert_true(fray_dist_p_exact(d, i, text, sizeof text) < sizeof text);
	mpq_t q;
	mpq_init(q);
	assert_int_equal(mpq_set_str(q, text, 10), 0);
	mpq_canonicalize(q);
	mpq_add(sum, sum, q);
	mpq_clear(q);
}

/* The battle with no stops, its outcome as fray_adbg_battle_procedure's. */
static void unmerged_battle(fray_roller *r, fray_policy *p, const void *scenario, int64_t *out)
{
	int64_t all[FRAY_ADBG_SIM_FIELDS];
	fray_adbg_battle_stats_procedure(r, p, scenario, all);
	out[0] = all[FRAY_ADBG_SIM_WINNER];
	out[1] = all[FRAY_ADBG_SIM_SIDE + FRAY_ADBG_SIM_LOSSES];
	out[2] = all[FRAY_ADBG_SIM_SIDE + FRAY_ADBG_SIM_PER_SIDE + FRAY_ADBG_SIM_LOSSES];
}

static void compare(const char *victory, const char *routed)
{
	fray_adbg_scenario *s = battle_with(victory, routed);
	mpq_t merged[CELLS], unmerged[CELLS];
	for (int c = 0; c < CELLS; c++) {
		mpq_init(merged[c]);
		mpq_init(unmerged[c]);
	}
	fray_dist *m = walk(fray_adbg_battle_procedure, s, 3);
	for (size_t i = 0; i < fray_dist_count(m); i++) {
		const int64_t *o = fray_dist_outcome(m, i);
		add_exact(merged[cell(o[0], o[1], o[2])], m, i);
	}
	fray_dist *u = walk(unmerged_battle, s, 3);
	for (size_t i = 0; i < fray_dist_count(u); i++) {
		const int64_t *o = fray_dist_outcome(u, i);
		add_exact(unmerged[cell(o[0], o[1], o[2])], u, i);
	}
	int nonzero = 0;
	for (int c = 0; c < CELLS; c++) {
		if (mpq_cmp(merged[c], unmerged[c]) != 0)
			fail_msg("%s, routed %s: outcome {winner %d, losses %d, %d}: merged %s, unmerged %s", victory,
				 routed, c / 64, c / 8 % 8, c % 8, mpq_get_str(NULL, 10, merged[c]),
				 mpq_get_str(NULL, 10, unmerged[c]));
		nonzero += mpq_sgn(unmerged[c]) != 0;
		mpq_clear(merged[c]);
		mpq_clear(unmerged[c]);
	}
	assert_true(nonzero > 5); /* a battle with many ends, not a trivial one */
	fray_dist_free(m);
	fray_dist_free(u);
	fray_adbg_scenario_free(s);
}

static void merged_as_unmerged(void **state)
{
	(void)state;
	text_of = NULL;
	compare("losses", "{roll: 1d6, eliminated_on: [1, 2, 3]}");
	compare("field", "kept");
	compare("losses", "eliminated");
}

static void two_fronts_as_unmerged(void **state)
{
	(void)state;
	text_of = two_fronts_text;
	compare("losses", "{roll: 1d6, eliminated_on: [1, 2, 3]}");
	compare("field", "kept");
	text_of = NULL;
}

static void final_paths(const fray_enum_progress *pr, void *ud)
{
	if (pr->done)
		*(uint64_t *)ud = pr->paths;
}

/* src/rules/adbg/adbg_internal.h: the battle never convolved */
void frayi_adbg_battle_unconvolved_procedure(fray_roller *r, fray_policy *p, const void *scenario,
					      int64_t *out);

/* The paths of proc's walk of text_of's battle, won by victory. */
static uint64_t paths_of(fray_procedure proc, const char *victory)
{
	fray_adbg_scenario *s = battle_with(victory, "kept");
	fray_policy *p = fray_policy_heuristic_new(ctx);
	uint64_t seen = 0;
	fray_enum_limits lim = {.max_depth = 100000, .max_paths = 50000000, .estimate = final_paths, .ud = &seen};
	fray_dist *d = NULL;
	assert_int_equal(fray_enumerate(ctx, proc, p, s, 3, &lim, &d), FRAY_OK);
	fray_dist_free(d);
	fray_policy_free(p);
	fray_adbg_scenario_free(s);
	assert_true(seen > 0);
	return seen;
}

/* The positions convolved (battle.c, "independent positions") against
 * the battle walked with no stops at all: three positions with no
 * reserve, where the convolution is taken (its walk half the unconvolved
 * one's paths or fewer, 109 against 309: a walk that never convolved
 * would pass the comparison and fail here), then with a reserve that a
 * melee at another position may open it to: there the
 * positions must not be convolved (a join that never refuses fails
 * compare). A convolution that counts a position twice, or drops a side's
 * losses at one, fails compare too (two_fronts_as_unmerged walks two
 * positions convolved over two rounds, with the field victory). */
static void three_fronts_convolved(void **state)
{
	(void)state;
	text_of = three_fronts_text;
	uint64_t conv = paths_of(fray_adbg_battle_procedure, "losses"),
		 plain = paths_of(frayi_adbg_battle_unconvolved_procedure, "losses");
	if (conv * 2 > plain)
		fail_msg("three fronts: %llu paths convolved, %llu not", (unsigned long long)conv,
			 (unsigned long long)plain);
	/* won by losses, a position's units standing are not kept (the
	 * outcome does not read them: position_end), so the sums are fewer
	 * than with the field victory, which reads them (a convolution that
	 * keeps them both ways fails here; one that drops them both ways, or
	 * drops the losses instead, fails compare) */
	uint64_t field = paths_of(fray_adbg_battle_procedure, "field");
	if (conv >= field)
		fail_msg("three fronts: %llu paths convolved by losses, %llu by the field", (unsigned long long)conv,
			 (unsigned long long)field);
	compare("losses", "{roll: 1d6, eliminated_on: [1, 2, 3]}");
	text_of = reserve_text;
	compare("field", "eliminated");
	text_of = NULL;
}

/* The reserve's moves by plans (battle.c, "a reserve's move as an
 * event") against the battle walked with no stops, as GMP rationals: the
 * plans must be taken (a plan's predicate or event wrong makes their
 * chances sum past or short of 1, and the battle is then refused to the
 * plans and walked whole, as far as the next round: this test fails on
 * the count refused, not on compare),
 * with plans where B4 arrives at another position and where, arrived, it
 * tries to move on in round 2. */
static void reserve_moves(void **state)
{
	(void)state;
	text_of = moving_text;
	frayi_adbg_plan_counts before, after;
	frayi_adbg_plan_counts_get(&before);
	compare("field", "kept");
	frayi_adbg_plan_counts_get(&after);
	if (after.battles == before.battles || after.refused != before.refused || after.moves == before.moves ||
	    after.chains == before.chains)
		fail_msg("moving reserve: %llu battles by plans, %llu refused, %llu plans with a move, %llu with a chain",
			 (unsigned long long)(after.battles - before.battles),
			 (unsigned long long)(after.refused - before.refused),
			 (unsigned long long)(after.moves - before.moves),
			 (unsigned long long)(after.chains - before.chains));
	text_of = NULL;
}

/* A reserve that may reach its move in each of four rounds
 * (tests/data/adbg/four-rounds.yaml): a fourth departure at one position
 * would be one field more than an outcome holds, so its plans are refused
 * and the battle walked whole; the odds are exact, their chances summing
 * to exactly 1 (they failed before the guard: "an outcome has 1 to 8
 * fields, not 9"). */
static void four_departures_walked_whole(void **state)
{
	(void)state;
	fray_adbg_scenario *s;
	fray_ctx_clear(ctx);
	assert_int_equal(fray_adbg_scenario_load(ctx, FRAY_SOURCE_DIR "/tests/data/adbg/four-rounds.yaml", &s), FRAY_OK);
	fray_dist *d = walk(fray_adbg_battle_procedure, s, 3);
	mpq_t sum;
	mpq_init(sum);
	for (size_t i = 0; i < fray_dist_count(d); i++)
		add_exact(sum, d, i);
	assert_int_equal(mpq_cmp_ui(sum, 1, 1), 0);
	assert_true(fray_dist_count(d) > 5);
	mpq_clear(sum);
	fray_dist_free(d);
	fray_adbg_scenario_free(s);
}

static void lochry_merges(void **state)
{
	(void)state;
	fray_adbg_scenario *s;
	fray_ctx_clear(ctx);
	assert_int_equal(fray_adbg_scenario_load(ctx, FRAY_SOURCE_DIR "/examples/adbg/lochry-1781.yaml", &s), FRAY_OK);
	fray_policy *p = fray_policy_heuristic_new(ctx);
	uint64_t seen = 0;
	fray_enum_limits lim = {.max_depth = 100000, .max_paths = 30000000, .estimate = final_paths, .ud = &seen};
	fray_dist *d = NULL;
	assert_int_equal(fray_enumerate(ctx, fray_adbg_battle_procedure, p, s, 3, &lim, &d), FRAY_OK);
	assert_true(seen > 0);
	if (seen > 1100000)
		fail_msg("Lochry took %llu paths (at most 1,100,000 with the merged keys)", (unsigned long long)seen);
	fray_dist_free(d);
	fray_policy_free(p);
	fray_adbg_scenario_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(merged_as_unmerged),
		cmocka_unit_test(two_fronts_as_unmerged),
		cmocka_unit_test(three_fronts_convolved),
		cmocka_unit_test(reserve_moves),
		cmocka_unit_test(four_departures_walked_whole),
		cmocka_unit_test(lochry_merges),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
