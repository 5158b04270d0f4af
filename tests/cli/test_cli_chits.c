/* fray chits from the command line: a player types the chits drawn at the
 * table; a designer asks advise; bad input is named. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "../test_util.h"
#include "run.h"

static result r1, r2;

#define EX FRAY_SOURCE_DIR "/examples/chits/"

static void ratio_combat_advise(void **state)
{
	(void)state;
	RUN(&r1, "chits", "ratio", "--attacker-cdr", "17", "--defender-cdr", "6");
	assert_int_equal(r1.status, 0);
	assert_string_equal(r1.out, "2:1\n");
	RUN(&r1, "chits", "combat", EX "example-1.yaml");
	RUN(&r2, "chits", "combat", EX "example-1.yaml");
	assert_int_equal(r1.status, 0);
	assert_string_equal(r1.out, r2.out);
	assert_non_null(strstr(r1.out, "chit C01, side a: ratio at least 2:1 -> D1"));
	assert_non_null(strstr(r1.out, "Bylant passes"));
	/* the flag form, typing the chits drawn at the table */
	RUN(&r1, "chits", "combat", "--mix", EX "sample-mix.yaml", "--tactic", "hasty", "--stance",
	    "defend", "--terrain", "village", "--attacker-cdr", "17", "--defender-cdr", "6", "--draw",
	    "3", "--script", "C01,C03,C14", "--seed", "1");
	assert_int_equal(r1.status, 0);
	assert_non_null(strstr(r1.out, "hits: attacker 2, defender 2"));
	RUN(&r1, "chits", "advise", EX "example-1.yaml", "--json");
	assert_int_equal(r1.status, 0);
	fray_ctx *c = fray_ctx_new(NULL, NULL);
	fray_doc *doc;
	assert_int_equal(fray_doc_load_string(c, "stdout", r1.out, strlen(r1.out), &doc), FRAY_OK);
	assert_int_equal(fray_node_len(fray_map_get(fray_doc_root(doc), "draws")), 3); /* 3, 4, 5 */
	assert_non_null(fray_map_get(fray_doc_root(doc), "best"));
	fray_doc_free(doc);
	fray_ctx_free(c);
}

static void bad_input(void **state)
{
	(void)state;
	static const struct {
		const char *args[20];
		const char *err;
	} rows[] = {
		{{"chits", "combat", "--mix", EX "sample-mix.yaml", "--tactic", "hasty", "--stance", "hold",
		  "--terrain", "open", "--attacker-cdr", "11", "--defender-cdr", "13", "--draw", "5"},
		 "fray chits combat: --draw: hasty against hold draws 3 to 4 chits, not 5\n"},
		{{"chits", "combat", "--mix", EX "sample-mix.yaml", "--tactic", "siege", "--stance", "hold",
		  "--terrain", "open", "--attacker-cdr", "11", "--defender-cdr", "13", "--draw", "3"},
		 "fray chits combat: option --tactic expects one of the mix's tactics (hasty, prepared, cavalry-charge), got 'siege'\n"},
		{{"chits", "combat", "--mix", EX "sample-mix.yaml", "--tactic", "hasty", "--stance", "hold",
		  "--terrain", "open", "--attacker-cdr", "11", "--defender-cdr", "13", "--draw", "3",
		  "--script", "C01,C01,C02"},
		 "fray chits combat: --script: chit 'C01' twice: chits are drawn without replacement\n"},
		{{"chits", "ratio", "--attacker-cdr", "0", "--defender-cdr", "3"},
		 "fray chits ratio: option --attacker-cdr expects a whole number from 1 to 99, got '0'\n"},
		{{"chits", "advise", EX "example-1.yaml", "--criterion", "glory"},
		 "fray chits advise: option --criterion expects one of net, enemy, own, edge, got 'glory'\n"},
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
		expect_bad_input(rows[i].args, rows[i].err);
}

/* Issue 40 item 9: the end of turn takes the levels the library, the game
 * file and combat files hold (0 to FRAY_CHITS_MAX_LEVEL), where it once
 * stopped at 20. The text: "A unit removes one fatigue point at the end of
 * each turn": 50 fatigue points become 49, for certain; the hits stay. */
static void end_turn_takes_every_level(void **state)
{
	(void)state;
	char fatigue[16], morale[16], hits[32], want[96];
	snprintf(fatigue, sizeof fatigue, "%d", FRAY_CHITS_MAX_LEVEL / 2);
	snprintf(morale, sizeof morale, "%d", FRAY_CHITS_MAX_LEVEL);
	snprintf(hits, sizeof hits, "%d,0,0,0", FRAY_CHITS_MAX_LEVEL);
	RUN(&r1, "chits", "end-turn", "--mix", EX "sample-mix.yaml", "--fatigue", fatigue, "--morale", morale,
	    "--hits", hits, "--odds", "--json");
	assert_int_equal(r1.status, 0);
	snprintf(want, sizeof want, "{\"outcome\": {\"fatigue\": %d, \"hits\": %d, \"disordered\": false}, \"p\": 1,",
		 FRAY_CHITS_MAX_LEVEL / 2 - 1, FRAY_CHITS_MAX_LEVEL);
	if (!strstr(r1.out, want))
		fail_msg("want %s in %s", want, r1.out);
	snprintf(fatigue, sizeof fatigue, "%d", FRAY_CHITS_MAX_LEVEL + 1);
	RUN(&r1, "chits", "end-turn", "--mix", EX "sample-mix.yaml", "--fatigue", fatigue, "--odds");
	assert_int_equal(r1.status, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ratio_combat_advise),
		cmocka_unit_test(bad_input),
		cmocka_unit_test(end_turn_takes_every_level),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
