/* fray presidio from the command line: a volley and its morale check as a
 * player types them, and bad input named. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "../test_util.h"
#include "run.h"

#define UNITS FRAY_SOURCE_DIR "/examples/presidio/units.yaml"

static result r1, r2;

static void volley_and_morale(void **state)
{
	(void)state;
	RUN(&r1, "presidio", "shoot", "--weapon", "Flintlock Musket", "--range", "15", "--skill", "2",
	    "--figures", "9", "--cover", "partial", "--seed", "5");
	RUN(&r2, "presidio", "shoot", "--weapon", "flintlock-musket", "--range", "15", "--skill", "2",
	    "--figures", "9", "--cover", "partial", "--seed", "5");
	assert_int_equal(r1.status, 0);
	assert_string_equal(r1.out, r2.out);
	/* 15" is medium by the table (ruling R12): 11 - 2 - 2 + 2 = 9+ */
	assert_non_null(strstr(r1.out, "hit number (d12 each): 9"));
	RUN(&r1, "presidio", "shoot", "--weapon", "flintlock musket", "--band", "long", "--skill", "2",
	    "--figures", "9", "--cover", "partial", "--odds", "--json");
	assert_non_null(strstr(r1.out, "\"hit_number\": 11"));
	assert_non_null(strstr(r1.out, "\"outcome\": {\"hits\": 0, \"casualties\": 0, \"specialists_hit\": 0, "
				    "\"morale_check\": false}"));
	RUN(&r1, "presidio", "morale", "--level", "average", "--size", "squad", "--casualties", "1",
	    "--leader", "1", "--seed", "2");
	assert_int_equal(r1.status, 0);
	assert_non_null(strstr(r1.out, "needs 9+"));
	/* a charge: bayonets, the defender strikes back */
	RUN(&r1, "presidio", "melee", "--weapon", "metal 2-handed axe/warclub/rifle butt", "--figures", "6",
	    "--skill", "2", "--defender-skill", "1", "--defender-armor", "1", "--charge", "bayonet", "--both",
	    "--defender-weapon", "flint 2-handed warclub", "--defender-figures", "5", "--armor", "1", "--seed", "3");
	assert_int_equal(r1.status, 0);
	assert_non_null(strstr(r1.out, ": 5+ on d12 (with the charge impact)"));
	/* against the charge's impact all five strike back, simultaneously
	 * (issue 40 item 1) */
	assert_non_null(strstr(r1.out, "5 defenders strike back simultaneously (all in contact before the strike) "
				    "with flint 2-handed warclub: 9+ on d12"));
	/* the example's militia: ranged 1, inexperienced; soldados: armor 2 */
	RUN(&r1, "presidio", "shoot", "--weapon", "flintlock musket", "--band", "close", "--figures", "4",
	    "--units", UNITS, "--unit", "militia", "--target-unit", "soldado de cuera", "--seed", "1");
	assert_int_equal(r1.status, 0);
	/* ruling R27: independent fire unless a volley is asked for, and a
	 * volley only by a unit in line */
	assert_non_null(strstr(r1.out, "skill 1, independent fire, cover: none, armor 2"));
	RUN(&r1, "presidio", "shoot", "--weapon", "flintlock musket", "--band", "close", "--figures", "4",
	    "--mode", "volley", "--seed", "1");
	assert_int_equal(r1.status, 2);
	assert_non_null(strstr(r1.err, "a volley needs a unit fully loaded, in line formation"));
	RUN(&r1, "presidio", "shoot", "--weapon", "flintlock musket", "--band", "close", "--figures", "4",
	    "--mode", "volley", "--line", "--seed", "1");
	assert_int_equal(r1.status, 0);
	assert_non_null(strstr(r1.out, "volley fire"));
	/* ruling R49: a line that fell back is set down disordered, "Line
	 * units must reform before moving or volleying" (Section 3, Disorder):
	 * no volley; volley when able (Defensive Fire) is independent fire,
	 * 4 muskets / reload 4 = 1 firing (ruling R14) */
	RUN(&r1, "presidio", "shoot", "--weapon", "flintlock musket", "--band", "close", "--figures", "4",
	    "--mode", "volley", "--line", "--standing", "fell back", "--seed", "1");
	assert_int_equal(r1.status, 2);
	assert_non_null(strstr(r1.err, "Section 7, Fall Back"));
	assert_non_null(strstr(r1.err, "ruling R49"));
	RUN(&r1, "presidio", "shoot", "--weapon", "flintlock musket", "--band", "close", "--figures", "4",
	    "--mode", "volley", "--line", "--volley-if-able", "--standing", "fell back", "--seed", "1");
	assert_int_equal(r1.status, 0);
	assert_non_null(strstr(r1.out, "independent fire: 4 figures / reload 4 = 1 firing"));
	/* its title names the fire it fires (the referee's review, 2026-12-03) */
	assert_non_null(strstr(r1.out, "skill 0, independent fire, cover"));
	assert_null(strstr(r1.out, "volley fire"));
	RUN(&r1, "presidio", "shoot", "--weapon", "flintlock musket", "--band", "close", "--figures", "4",
	    "--standing", "fell back", "--seed", "1");
	assert_int_equal(r1.status, 0);
	assert_non_null(strstr(r1.out, "independent fire: 4 figures / reload 4 = 1 firing"));
	/* one cover given twice is refused, not silently counted once */
	RUN(&r1, "presidio", "shoot", "--weapon", "flintlock musket", "--band", "close", "--figures", "4",
	    "--cover", "incidental", "--incidental", "--seed", "1");
	assert_int_equal(r1.status, 2);
	RUN(&r1, "presidio", "morale", "--level", "average", "--size", "squad", "--charging", "--charged",
	    "--seed", "1");
	assert_int_equal(r1.status, 2);
	RUN(&r1, "presidio", "move", "--charging", "--running", "--seed", "1");
	assert_int_equal(r1.status, 2);
	RUN(&r1, "presidio", "shoot", "--weapon", "flintlock musket", "--band", "close", "--figures", "4",
	    "--units", UNITS, "--unit", "militia", "--skill", "3", "--seed", "1");
	assert_non_null(strstr(r1.out, "skill 3,")); /* an explicit option wins */
	RUN(&r1, "presidio", "morale", "--units", UNITS, "--unit", "militia", "--size", "squad",
	    "--leader-rank", "Sergeant", "--seed", "1");
	assert_int_equal(r1.status, 0);
	assert_non_null(strstr(r1.out, "morale: inexperienced squad"));
	assert_non_null(strstr(r1.out, "(+2 leader)"));
	/* the units file's move skill and mounted: a soldado de cuera (move 1,
	 * mounted) moves 12 + 1D6 + 1: 14" to 19" */
	RUN(&r1, "presidio", "move", "--units", UNITS, "--unit", "soldado de cuera", "--odds");
	assert_int_equal(r1.status, 0);
	assert_non_null(strstr(r1.out, "move: mounted, move skill 1"));
	assert_non_null(strstr(r1.out, "14\""));
	assert_non_null(strstr(r1.out, "19\""));
	assert_null(strstr(r1.out, "20\""));
	/* mounted: true in the file counts in shooting (+1 at a mounted target)
	 * and melee (-1 attacking mounted, +1 against a mounted defender) */
	RUN(&r1, "presidio", "shoot", "--weapon", "flintlock musket", "--band", "long", "--figures", "4",
	    "--units", UNITS, "--unit", "militia", "--target-unit", "soldado de cuera", "--odds", "--json");
	assert_non_null(strstr(r1.out, "\"hit_number\": 11")); /* 11 + 0 - 1 + 1 */
	RUN(&r1, "presidio", "melee", "--weapon", "metal lance/knife", "--figures", "2", "--units", UNITS,
	    "--unit", "soldado de cuera", "--defender-unit", "comanche horsemen", "--odds");
	assert_non_null(strstr(r1.out, ": 9+")); /* 8 - 2 + 3 - 1 + 1 */
	/* artillery --range reads the band from the load's range class (R12):
	 * canister is pistol class, close under 4": 10 - 4 = 6+; past 24" no */
	RUN(&r1, "presidio", "artillery", "--gun", "12# cannon, smoothbore", "--ammo", "canister", "--range", "3",
	    "--armor", "0", "--odds");
	assert_non_null(strstr(r1.out, "direct fire: 6+"));
	RUN(&r1, "presidio", "artillery", "--gun", "12# cannon, smoothbore", "--ammo", "canister", "--range", "30",
	    "--armor", "0", "--odds");
	assert_int_equal(r1.status, 2);
	assert_non_null(strstr(r1.err, "(pistol range class) reaches less than 24\""));
	RUN(&r1, "presidio", "units", UNITS);
	assert_int_equal(r1.status, 0);
	assert_non_null(strstr(r1.out, "war chief 4"));
	RUN(&r1, "check", UNITS);
	assert_int_equal(r1.status, 0);
	assert_non_null(strstr(r1.out, "ok (presidio unit statistics)"));
	RUN(&r1, "presidio", "weapons");
	assert_non_null(strstr(r1.out, "caplock rifled musket"));
}

static void bad_input(void **state)
{
	(void)state;
	static const struct {
		const char *args[14];
		const char *err;
	} rows[] = {
		{{"presidio", "shoot", "--weapon", "flintlok musket", "--range", "10", "--figures", "5"},
		 "fray presidio shoot: unknown weapon 'flintlok musket' (did you mean 'flintlock musket'?) ('fray presidio weapons' lists them)\n"},
		{{"presidio", "shoot", "--weapon", "flintlock musket", "--range", "-3", "--figures", "5"},
		 "fray presidio shoot: option --range expects inches from 0, got '-3'\n"},
		{{"presidio", "shoot", "--weapon", "flintlock pistol", "--range", "30", "--figures", "5"},
		 "fray presidio shoot: flintlock pistol (pistol range class) reaches less than 24\", not 30\" (Presidio Section 4, ruling R12)\n"},
		{{"presidio", "shoot", "--weapon", "flintlock musket", "--range", "10", "--figures", "0"},
		 "fray presidio shoot: --figures expects a number of figures from 1, got 0\n"},
		{{"presidio", "shoot", "--weapon", "flintlock musket", "--range", "10", "--figures", "5", "--cover", "bushes"},
		 "fray presidio shoot: option --cover expects one of none, incidental, partial, heavy, full, complete, got 'bushes'\n"},
		{{"presidio", "shoot", "--weapon", "fists", "--range", "1", "--figures", "5"},
		 "fray presidio shoot: fists is a melee weapon: it does not shoot\n"},
		{{"presidio", "morale", "--level", "heroic", "--size", "squad"},
		 "fray presidio morale: option --level expects one of elite, veteran, average, inexperienced, super-elite, got 'heroic'\n"},
		{{"presidio", "rally"},
		 "fray presidio rally: missing --leader N (the officer's command level, 0-4) or --leader-rank RANK; NCOs "
		 "cannot rally troops\n"},
		{{"presidio", "shoot", "--weapon", "flintlock musket", "--range", "10", "--figures", "5", "--unit", "militia"},
		 "fray presidio shoot: --unit NAME needs --units FILE (unit statistics; see examples/presidio/units.yaml)\n"},
		{{"presidio", "melee", "--weapon", "fists", "--figures", "5", "--units", UNITS, "--defender-unit", "dragoons"},
		 "fray presidio melee: option --defender-unit: no unit type 'dragoons' in " UNITS "\n"},
		{{"presidio", "morale", "--size", "squad", "--level", "average", "--leader-rank", "king"},
		 "fray presidio morale: option --leader-rank: unknown rank 'king' ('fray presidio units FILE' lists the ranks)\n"},
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
		expect_bad_input(rows[i].args, rows[i].err);
}

/* Lines of text holding s. */
static int lines_with(const char *text, const char *s)
{
	int n = 0;
	for (const char *p = text; (p = strstr(p, s)); p += strlen(s))
		n++;
	return n;
}

/* Odds people can read (issue #16): a long table shows its 20 likeliest
 * outcomes and says how many more there are; --exact shows every one;
 * the JSON keeps every exact fraction. */
static void long_odds_are_cut_to_the_likeliest(void **state)
{
	(void)state;
	RUN(&r1, "presidio", "shoot", "--weapon", "caplock rifled musket", "--figures", "60", "--band",
	    "close", "--odds");
	assert_int_equal(r1.status, 0);
	unsigned long n = 0;
	const char *h = strstr(r1.out, "exact odds, ");
	assert_non_null(h);
	n = strtoul(h + strlen("exact odds, "), NULL, 10);
	assert_true(n > 22);
	assert_non_null(strstr(r1.out, "the 20 likeliest outcomes of"));
	char more[64];
	snprintf(more, sizeof more, "... %lu more outcomes", n - 20);
	assert_non_null(strstr(r1.out, more));
	assert_int_equal(lines_with(r1.out, " casualt"), 20 + 2); /* rows, and the casualties table's title and head */
	/* the cumulative columns: at least the smallest count is certain */
	assert_non_null(strstr(r1.out, "100.000%"));
	RUN(&r2, "presidio", "shoot", "--weapon", "caplock rifled musket", "--figures", "60", "--band",
	    "close", "--exact");
	assert_int_equal(r2.status, 0);
	assert_null(strstr(r2.out, "more outcomes"));
	assert_int_equal(lines_with(r2.out, " casualt"), (int)n + 2);
	RUN(&r2, "presidio", "shoot", "--weapon", "caplock rifled musket", "--figures", "60", "--band",
	    "close", "--odds", "--json");
	assert_int_equal(lines_with(r2.out, "\"exact\": \""), (int)n);
}

/* The text's table of a count shows the values the JSON gives (session
 * 38: the initiative's text table said side 0 and 1, its JSON 1 and 2).
 * Initiative with leaderships 2 and 1 (Section 2, ruling R17): of the 36
 * faces side 1 is higher on a >= b (21), side 2 on b >= a + 2 (10), and
 * the 5 ties are rolled again: 21/31 and 10/31, counted here. */
static void odds_text_shows_the_json_values(void **state)
{
	(void)state;
	int first = 0, second = 0;
	for (int a = 1; a <= 6; a++)
		for (int b = 1; b <= 6; b++)
			a + 2 > b + 1 ? first++ : b + 1 > a + 2 ? second++ : 0;
	char row1[64], row2[64], json1[96], json2[96];
	snprintf(row1, sizeof row1, "         1   %.3f%%", 100.0 * first / (first + second));
	snprintf(row2, sizeof row2, "         2   %.3f%%", 100.0 * second / (first + second));
	snprintf(json1, sizeof json1, "{\"first\": 1}, \"p\": %.16g, \"exact\": \"%d/%d\"", (double)first / (first + second),
		 first, first + second);
	snprintf(json2, sizeof json2, "{\"first\": 2}, \"p\": %.16g, \"exact\": \"%d/%d\"", (double)second / (first + second),
		 second, first + second);
	RUN(&r1, "presidio", "initiative", "--leadership-1", "2", "--leadership-2", "1", "--odds");
	assert_int_equal(r1.status, 0);
	if (!strstr(r1.out, row1) || !strstr(r1.out, row2) || strstr(r1.out, "\n         0 "))
		fail_msg("expected the rows \"%s\" and \"%s\" (sides 1 and 2), got:\n%s", row1, row2, r1.out);
	RUN(&r2, "presidio", "initiative", "--leadership-1", "2", "--leadership-2", "1", "--odds", "--json");
	assert_int_equal(r2.status, 0);
	if (!strstr(r2.out, json1) || !strstr(r2.out, json2))
		fail_msg("expected %s and %s in:\n%s", json1, json2, r2.out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(volley_and_morale),
		cmocka_unit_test(long_odds_are_cut_to_the_likeliest),
		cmocka_unit_test(bad_input),
		cmocka_unit_test(odds_text_shows_the_json_values),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
