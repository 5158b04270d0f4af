/* fray bbb from the command line: one line per fire or assault at the
 * table, odds in the common JSON shape, and clear messages for bad input. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "../test_util.h"
#include "run.h"

static result r1, r2;

/* 4 bases of RR at 5": factor 3 each, firepower 12, column "up to 12";
 * disrupted halves it to 6. */
static void fire_from_weapons(void **state)
{
	(void)state;
	RUN(&r1, "bbb", "fire", "--weapon", "RR", "--bases", "4", "--range", "5", "--seed", "7");
	RUN(&r2, "bbb", "fire", "--weapon", "RR", "--bases", "4", "--range", "5", "--seed", "7");
	assert_int_equal(r1.status, 0);
	assert_string_equal(r1.out, r2.out);
	assert_non_null(strstr(r1.out, "4 RR x 3 at 5\" = firepower 12"));
	assert_non_null(strstr(r1.out, "column for firepower 12: +8"));
	RUN(&r1, "bbb", "fire", "--weapon", "RR", "--bases", "4", "--range", "5", "--disrupted",
	    "--odds", "--json");
	assert_int_equal(r1.status, 0);
	fray_ctx *c = fray_ctx_new(NULL, NULL);
	fray_doc *doc;
	assert_int_equal(fray_doc_load_string(c, "stdout", r1.out, strlen(r1.out), &doc), FRAY_OK);
	const fray_node *root = fray_doc_root(doc);
	assert_string_equal(fray_node_scalar(fray_map_get(root, "procedure")), "bbb.fire");
	assert_string_equal(fray_node_scalar(fray_map_get(fray_map_get(root, "inputs"), "firepower")), "6");
	const fray_node *first = fray_map_get(fray_node_item(fray_map_get(root, "outcomes"), 0), "outcome");
	assert_string_equal(fray_node_scalar(fray_map_get(first, "result")), "none");
	assert_string_equal(fray_node_scalar(fray_map_get(first, "low_ammo")), "false");
	assert_non_null(fray_map_get(first, "effect"));
	fray_doc_free(doc);
	fray_ctx_free(c);
	/* artillery by units, two groups; rockets shift 1 right themselves */
	RUN(&r1, "bbb", "fire", "--weapon", "RA", "--units", "2", "--weapon", "SA", "--units", "1",
	    "--range", "10", "--seed", "1");
	assert_non_null(strstr(r1.out, "2 RA x 4 at 10\" + 1 SA x 3 at 10\" = firepower 11"));
	RUN(&r1, "bbb", "fire", "--weapon", "RKT", "--units", "1", "--range", "4", "--seed", "1");
	assert_non_null(strstr(r1.out, "shift +1"));
	/* each line of the sheet once (issue 14): two rocket groups are one
	 * "Target is attacked with Rockets" line, 1 right */
	RUN(&r1, "bbb", "fire", "--weapon", "RKT", "--units", "1", "--weapon", "RKT", "--units", "2",
	    "--range", "4", "--seed", "1");
	assert_non_null(strstr(r1.out, "shift +1,"));
	/* "Pivoted/Unlimbered" is one multiplier: 1 RA at 4" is 4, halved once: 2 */
	RUN(&r1, "bbb", "fire", "--weapon", "RA", "--units", "1", "--range", "4", "--pivoted", "--unlimbered",
	    "--seed", "1");
	assert_non_null(strstr(r1.out, "firepower 2 after halvings"));
	/* Disrupted and Pivoted/Unlimbered are two items: 4 x 1/2 x 1/2 = 1 */
	RUN(&r1, "bbb", "fire", "--weapon", "RA", "--units", "1", "--range", "4", "--pivoted", "--disrupted",
	    "--seed", "1");
	assert_non_null(strstr(r1.out, "firepower 1 after halvings"));
	/* "Target is limbered artillery or mounted cavalry": one right, and
	 * only for such a target */
	RUN(&r1, "bbb", "fire", "--firepower", "4", "--limbered", "--target", "artillery", "--seed", "1");
	assert_non_null(strstr(r1.out, "shift +1,"));
	RUN(&r1, "bbb", "fire", "--firepower", "4", "--mounted", "--target", "cavalry", "--seed", "1");
	assert_non_null(strstr(r1.out, "shift +1,"));
	RUN(&r1, "bbb", "fire", "--firepower", "4", "--limbered", "--mounted", "--target", "cavalry", "--seed", "1");
	assert_int_equal(r1.status, 2);
	RUN(&r1, "bbb", "fire", "--firepower", "4", "--limbered", "--seed", "1");
	assert_int_equal(r1.status, 2);
	assert_non_null(strstr(r1.err, "--limbered: the sheet's shift is for limbered artillery"));
	/* a flag given twice is refused, not applied twice (once quartered) */
	RUN(&r1, "bbb", "fire", "--firepower", "4", "--disrupted", "--disrupted", "--seed", "1");
	assert_int_equal(r1.status, 2);
}

static void assault_and_move(void **state)
{
	(void)state;
	RUN(&r1, "bbb", "assault", "--attacker-bases", "4", "--defender-bases", "3",
	    "--attacker-aggressive", "--cover", "1", "--odds");
	assert_int_equal(r1.status, 0);
	assert_non_null(strstr(r1.out, "modifiers +0 (attacker's net)"));
	/* Terrain Table note: cavalry and artillery count no cover against an
	 * assault but fortified; a town or fort defender cannot be outflanked,
	 * a town or fort target takes no flanking fire */
	RUN(&r1, "bbb", "assault", "--attacker-bases", "3", "--defender-bases", "3", "--cover", "2",
	    "--defender-arm", "cavalry", "--odds");
	assert_non_null(strstr(r1.out, "modifiers +0 (attacker's net), 1d6 each (ruling G6's default); cover ignored"));
	RUN(&r1, "bbb", "assault", "--attacker-bases", "3", "--defender-bases", "3", "--cover", "2",
	    "--defender-arm", "artillery", "--fortified", "--odds");
	assert_non_null(strstr(r1.out, "modifiers -2 (attacker's net)"));
	RUN(&r1, "bbb", "assault", "--attacker-bases", "3", "--defender-bases", "3", "--cover", "2",
	    "--odds");
	assert_non_null(strstr(r1.out, "modifiers -2 (attacker's net)"));
	RUN(&r1, "bbb", "assault", "--attacker-bases", "3", "--defender-bases", "3", "--outflanked", "--fort",
	    "--odds");
	assert_int_equal(r1.status, 2);
	RUN(&r1, "bbb", "fire", "--firepower", "4", "--flanking", "--town", "--odds");
	assert_int_equal(r1.status, 2);
	assert_non_null(strstr(r1.err, "cannot be attacked with Flanking Fire"));
	RUN(&r1, "bbb", "assault", "--attacker-bases", "1", "--defender-bases", "1", "--odds", "--json");
	assert_non_null(strstr(r1.out, "\"result\": \"both destroyed\", \"attacker_bases_lost\": 1, \"defender_bases_lost\": 1, \"attacker_disrupted\": false, \"defender_disrupted\": false, \"attacker_silenced\": false, \"defender_silenced\": false}, \"p\": 0.16666666666666666, \"exact\": \"1/6\""));
	RUN(&r1, "bbb", "move", "--disrupted", "--seed", "2");
	assert_int_equal(r1.status, 0);
	assert_non_null(strstr(r1.out, "disrupted unit: "));
	RUN(&r1, "bbb", "move", "--unit", "cavalry", "--crosses-difficult", "--odds");
	assert_non_null(strstr(r1.out, "cavalry: full move 12\", half move 6\""));
	RUN(&r1, "bbb", "table", "fire", "--firepower", "6", "--shift", "1");
	assert_non_null(strstr(r1.out, "column 7 (up to 9)"));
	assert_non_null(strstr(r1.out, "  1      9/36"));
	RUN(&r1, "bbb", "night");
	assert_non_null(strstr(r1.out, "5. Resupply Ammo"));
}

/* Issue 40 item 7, ruling G6 with configured dice: --max-fights counts
 * fights (each side's 2d6 is four dice a fight). At 3 bases a side with
 * no modifiers a fight is fought again on a final difference of 0: the
 * two sides' 2d6 equal, sum over k of N(k)^2 / 6^4 (N(k): the ways two
 * dice throw k), counted here from the faces. After one fight that is
 * what is left; with the default 8 fights nothing is (each 0 costs both a
 * base: three 0s in a row destroy both, (N/6^4)^3). */
static unsigned long long gcd_ull(unsigned long long a, unsigned long long b)
{
	while (b) {
		unsigned long long t = a % b;
		a = b;
		b = t;
	}
	return a;
}

static void assault_configured_dice_count_fights(void **state)
{
	(void)state;
	int ways[13] = {0};
	for (int a = 1; a <= 6; a++)
		for (int b = 1; b <= 6; b++)
			ways[a + b]++;
	unsigned long long zero = 0, all = 6 * 6 * 6 * 6;
	for (int k = 2; k <= 12; k++)
		zero += (unsigned long long)(ways[k] * ways[k]);
	RUN(&r1, "bbb", "assault", "--attacker-bases", "3", "--defender-bases", "3", "--assault-dice", "2d6",
	    "--max-fights", "1", "--odds", "--json");
	assert_int_equal(r1.status, 0);
	const char *u = strstr(r1.out, "\"unresolved\": ");
	assert_non_null(u);
	assert_double_equal(strtod(u + strlen("\"unresolved\": "), NULL), (double)zero / (double)all, 1e-15);
	RUN(&r1, "bbb", "assault", "--attacker-bases", "3", "--defender-bases", "3", "--assault-dice", "2d6",
	    "--odds", "--json");
	assert_int_equal(r1.status, 0);
	assert_non_null(strstr(r1.out, "\"unresolved\": 0}"));
	unsigned long long num = zero * zero * zero, den = all * all * all, g = gcd_ull(num, den);
	char want[160];
	snprintf(want, sizeof want, "\"result\": \"both destroyed\", \"attacker_bases_lost\": 3, "
		 "\"defender_bases_lost\": 3");
	const char *both = strstr(r1.out, want);
	assert_non_null(both);
	snprintf(want, sizeof want, "\"exact\": \"%llu/%llu\"", num / g, den / g);
	const char *eol = strchr(both, '\n');
	const char *got = strstr(both, want);
	assert_true(got && (!eol || got < eol));
}

static void bad_input(void **state)
{
	(void)state;
	static const struct {
		const char *args[12];
		const char *err;
	} rows[] = {
		{{"bbb", "fire", "--weapon", "AK47", "--bases", "2", "--range", "3"},
		 "fray bbb fire: unknown weapon 'AK47' (the sheet's weapons: SM, ML, NG, EB, LB, RR, RC, SA, RA, BLA, MG, RKT)\n"},
		{{"bbb", "fire", "--weapon", "NG", "--bases", "2", "--range", "7"},
		 "fray bbb fire: NG reaches 6\", not 7\" (BBB Fire Factors)\n"},
		{{"bbb", "fire", "--weapon", "RR", "--bases", "-2", "--range", "3"},
		 "fray bbb fire: --bases expects a count from 1, got -2\n"},
		{{"bbb", "fire", "--weapon", "RA", "--bases", "2", "--range", "3"},
		 "fray bbb fire: weapon RA counts artillery units: use --units\n"},
		{{"bbb", "fire", "--weapon", "RR", "--bases", "2"},
		 "fray bbb fire: missing --range INCHES\n"},
		{{"bbb", "fire", "--firepower", "-1"},
		 "fray bbb fire: option --firepower expects a number from 0, got '-1'\n"},
		{{"bbb", "assault", "--attacker-bases", "-3", "--defender-bases", "2"},
		 "fray bbb assault: bases cannot be negative\n"},
		{{"bbb", "assault", "--attacker-bases", "3"},
		 "fray bbb assault: missing --defender-bases N\n"},
		{{"bbb", "move", "--training", "elite"},
		 "fray bbb move: option --training expects one of raw, trained, veteran, got 'elite'\n"},
		{{"bbb", "volley"},
		 "fray bbb: unknown procedure 'volley' (procedures: fire, assault, move, night, table)\n"},
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
		expect_bad_input(rows[i].args, rows[i].err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fire_from_weapons),
		cmocka_unit_test(assault_and_move),
		cmocka_unit_test(assault_configured_dice_count_fights),
		cmocka_unit_test(bad_input),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
