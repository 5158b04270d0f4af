/* ADBG scenario files: the examples load; each malformed scenario in
 * tests/data/adbg/bad/ is refused with its own message at its own place. */
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

static void examples_load(void **state)
{
	(void)state;
	static const char *const files[] = {"blue-licks-1782.yaml", "lochry-1781.yaml",
					    "sandusky-1782.yaml"};
	for (size_t i = 0; i < 3; i++) {
		char path[512];
		snprintf(path, sizeof path, "%s/examples/adbg/%s", FRAY_SOURCE_DIR, files[i]);
		fray_adbg_scenario *s;
		fray_ctx_clear(ctx);
		assert_int_equal(fray_adbg_scenario_load(ctx, path, &s), FRAY_OK);
		fray_adbg_scenario_free(s);
	}
	fray_adbg_scenario *s;
	assert_int_equal(fray_adbg_scenario_load(ctx, FRAY_TEST_DATA "/adbg/tiny.yaml", &s), FRAY_OK);
	assert_string_equal(fray_adbg_scenario_name(s), "Tiny");
	assert_string_equal(fray_adbg_side_name(s, 0), "Red");
	assert_string_equal(fray_adbg_side_name(s, 1), "Blue");
	fray_adbg_scenario_free(s);
}

static void malformed_scenarios(void **state)
{
	(void)state;
	static const struct {
		const char *file, *msg;
	} rows[] = {
		{"unknown-key", "4:1: unknown key 'wether' (did you mean 'weather'?)"},
		{"missing-terrain", "2:1: missing 'terrain'"},
		{"bad-terrain", "3:10: expected the battle terrain: one of rough, wilderness, settled"},
		{"bad-weather", "4:10: expected the weather: one of normal, severe"},
		{"initiative-unknown", "5:13: expected the side with the initiative: red or blue, found 'french'"},
		{"surprise-unknown", "6:11: expected the surprised side: none, red or blue, found 'green'"},
		{"three-sides", "15:3: expected exactly two sides, found 3"},
		{"level-range", "17:12: expected a commitment/mobilization level: a whole number from 0 to 6, found '9'"},
		{"rating-range", "18:48: expected a command rating: a whole number from 1 to 3, found '4'"},
		{"leader-stack", "24:59: expected the number of a stack of this side (1 = the first): a whole number from 1 to 1, found '5'"},
		{"unit-type", "26:38: expected a unit type: one of warrior, regular, militia, rifle"},
		{"fire-range", "20:53: expected a fire CF: a whole number from 0 to 9, found '12'"},
		{"melee-missing", "26:11: missing 'melee'"},
		{"bad-status", "26:74: expected a status: one of normal, disrupted, routed"},
		{"stacking", "26:9: stack 1 breaks the stacking limits in wilderness: more than 2 counted units in one stack (ADBG 19.1, ruling R2)"},
		{"empty-stack", "21:9: an empty stack: a stack holds one unit or more"},
		{"duplicate-unit", "21:18: two units of red are named 'Red warriors': names tell units apart in the narration"},
		{"crt-missing", "7:12: melee CRT: " FRAY_TEST_DATA "/adbg/bad/no-such-crt.yaml: cannot open: No such file or directory; nor is 'no-such-crt' a table fray ships (tried as a file, then by its name: fray ships example-melee-crt, sample-mix)"},
		{"bad-dice", "9:22: expected dice such as 1d6 or 2d6: column 3: expected the number of sides after 'd' (as in 2d6), got the end"},
		{"lost-on-range", "10:38: expected a total the dice can roll: a whole number from 1 to 6, found '7'"},
		{"victory-rule", "12:9: expected a victory rule: one of losses, field"},
		{"array-twice", "15:26: stack 1 of red is placed twice"},
		{"array-count", "15:3: expected 1 position, one per stack of blue, which sets up first in a single row (ADBG 19.1, ruling R3)"},
		{"syntax", "18:19: missing comma in flow sequence"},
		{"not-a-map", "1:1: expected a mapping as a scenario, found a list"},
		{"many", "4:1: unknown key 'colour'"},
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		char path[512], want[1024];
		snprintf(path, sizeof path, "%s/adbg/bad/%s.yaml", FRAY_TEST_DATA, rows[i].file);
		snprintf(want, sizeof want, "%s:%s", path, rows[i].msg);
		fray_adbg_scenario *s = (fray_adbg_scenario *)&s;
		fray_ctx_clear(ctx);
		assert_int_equal(fray_adbg_scenario_load(ctx, path, &s), FRAY_ERR_INPUT);
		assert_null(s);
		assert_string_equal(fray_ctx_message(ctx), want);
	}
	fray_ctx_clear(ctx);
}

/* Every problem is reported at once, not only the first. */
static void every_problem_at_once(void **state)
{
	(void)state;
	fray_doc *doc;
	fray_ctx_clear(ctx);
	assert_int_equal(fray_doc_load_file(ctx, FRAY_TEST_DATA "/adbg/bad/many.yaml", &doc), FRAY_OK);
	fray_adbg_scenario *s;
	assert_int_equal(fray_adbg_scenario_read(ctx, doc, &s), FRAY_ERR_INPUT);
	assert_int_equal(fray_doc_error_count(doc), 2);
	assert_non_null(strstr(fray_doc_error_msg(doc, 1), "3:10: expected the battle terrain"));
	fray_doc_free(doc);
	fray_ctx_clear(ctx);
}

/* A name longer than fray keeps (47 bytes, docs/reliability.md) is
 * shortened at a character boundary: 46 letters and a two-byte "é" keep
 * the 46 letters. */
static void long_names_cut_at_a_character(void **state)
{
	(void)state;
	FILE *f = fopen(FRAY_TEST_DATA "/adbg/tiny.yaml", "rb");
	assert_non_null(f);
	char text[8192];
	size_t n = fread(text, 1, sizeof text - 1, f);
	fclose(f);
	text[n] = '\0';
	char *red = strstr(text, "name: Red\n");
	assert_non_null(red);
	char name[64] = "", edited[9000];
	memset(name, 'A', 46);
	snprintf(edited, sizeof edited, "%.*sname: \"%s\u00e9 and more\"%s", (int)(red - text), text, name,
		 red + strlen("name: Red"));
	fray_doc *doc;
	fray_ctx_clear(ctx);
	assert_int_equal(fray_doc_load_string(ctx, FRAY_TEST_DATA "/adbg/long.yaml", edited, strlen(edited), &doc), FRAY_OK);
	fray_adbg_scenario *s;
	assert_int_equal(fray_adbg_scenario_read(ctx, doc, &s), FRAY_OK);
	assert_string_equal(fray_adbg_side_name(s, 0), name);
	fray_adbg_scenario_free(s);
	fray_doc_free(doc);
}

/* The CRT file read with the plain context (ud): only the scenario's own
 * allocations go through the failing one. */
static fray_status open_plain(void *ud, fray_ctx *unused, const char *path, fray_doc **out)
{
	(void)unused;
	return fray_doc_load_file(ud, path, out);
}

/* Running out of memory while reading a scenario (its dice, 1d6, and
 * their checks) is FRAY_ERR_NOMEM, never a complaint about the file: the
 * 1st, 2nd, ... allocation fails in turn until the read succeeds. */
typedef struct metered_ctx {
	fray_meter m;
	fray_ctx *ctx;
} metered_ctx;

/* One try: the read with its k-th allocation failing (0: none). */
static bool read_under(void *ud, long k)
{
	fray_meter *m = &((metered_ctx *)ud)->m;
	fray_ctx *mctx = ((metered_ctx *)ud)->ctx;
	fray_doc *doc;
	assert_int_equal(fray_doc_load_file(ctx, FRAY_TEST_DATA "/adbg/tiny.yaml", &doc), FRAY_OK);
	long live = m->live;
	fray_adbg_scenario *s = NULL;
	fray_meter_fail(m, k);
	fray_status st = fray_adbg_scenario_read_with(mctx, doc, open_plain, ctx, &s);
	m->fail_at = 0;
	if (st != FRAY_OK) {
		if (st != FRAY_ERR_NOMEM)
			fail_msg("allocation %ld failing: status %d, %s", k, (int)st, fray_ctx_message(mctx));
		assert_null(s);
		assert_int_equal(m->live, live);
	}
	fray_adbg_scenario_free(s);
	fray_doc_free(doc);
	fray_ctx_clear(mctx);
	return st == FRAY_OK;
}

static void out_of_memory_is_nomem(void **state)
{
	(void)state;
	metered_ctx mc = {{0}, NULL};
	mc.ctx = fray_ctx_new(fray_metered, &mc.m);
	assert_non_null(mc.ctx);
	assert_true(fray_walk_all(read_under, &mc, 10000) > 2); /* the scenario and its three dice at least */
	fray_ctx_free(mc.ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(examples_load),
		cmocka_unit_test(malformed_scenarios),
		cmocka_unit_test(every_problem_at_once),
		cmocka_unit_test(long_names_cut_at_a_character),
		cmocka_unit_test(out_of_memory_is_nomem),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
