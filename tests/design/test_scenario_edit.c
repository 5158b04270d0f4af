/* ADBG scenario edits (include/fray/scenario_edit.h): --set's PATH=VALUE,
 * the path found in the file, a value changed and read, units added or
 * removed by name (the new file's text as the writer's rules make it,
 * worked out by hand below), and each bad input's status and message. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "../test_util.h"
#include <fray/scenario_edit.h>

/* Red: three stacks (two units, then one, then one), a second leader with
 * stack 3; Blue: one unit. Named in the test data folder, so its CRT
 * (crt-small.yaml) is found beside it. */
static const char SCENARIO[] =
	"battle: Edit\n"
	"terrain: wilderness\n"
	"weather: normal\n"
	"initiative: red\n"
	"surprise: none\n"
	"melee_crt: crt-small.yaml\n"
	"leader_loss:\n"
	"  after_fire: {roll: 1d6, lost_on: [6]}\n"
	"  after_melee: {roll: 1d6, lost_on: [6]}\n"
	"victory:\n"
	"  rule: losses\n"
	"  routed: {roll: 1d6, eliminated_on: [1, 2, 3]}\n"
	"sides:\n"
	"  red:\n"
	"    name: Red\n"
	"    level: 3\n"
	"    primary_leader: {name: Red Leader, rating: 1, stack: 1}\n"
	"    leaders:\n"
	"      - {name: Red Second, rating: 1, stack: 3}\n"
	"    stacks:\n"
	"      - - {name: Red warriors, type: warrior, fire: 3, melee: 2}\n"
	"        - {name: Red scouts, type: warrior, fire: 1, melee: 1}\n"
	"      - - {name: Red band, type: warrior, fire: 2, melee: 2}\n"
	"      - - {name: Red rear, type: warrior, fire: 2, melee: 1}\n"
	"  blue:\n"
	"    name: Blue\n"
	"    level: 2\n"
	"    primary_leader: {name: Blue Leader, rating: 1, stack: 1}\n"
	"    stacks:\n"
	"      - - {name: Blue militia, type: militia, fire: 2, melee: 2}\n";

#define DOC_NAME FRAY_TEST_DATA "/adbg/edit.yaml"

static fray_doc *load(void)
{
	fray_doc *doc = NULL;
	fray_ctx_clear(ctx);
	assert_int_equal(fray_doc_load_string(ctx, DOC_NAME, SCENARIO, strlen(SCENARIO), &doc), FRAY_OK);
	return doc;
}

/* --set PATH=VALUE split at the first '='; a value may hold more. */
static void set_parses(void **state)
{
	(void)state;
	char text[] = "sides.red.level=3", eqs[] = "battle=a=b";
	fray_adbg_edit e;
	assert_int_equal(fray_adbg_edit_parse(ctx, text, &e), FRAY_OK);
	assert_string_equal(e.path, "sides.red.level");
	assert_string_equal(e.value, "3");
	assert_int_equal(fray_adbg_edit_parse(ctx, eqs, &e), FRAY_OK);
	assert_string_equal(e.path, "battle");
	assert_string_equal(e.value, "a=b");
	static const char *const bad[] = {"sides.red.level", "=3", "sides.red.level="};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char copy[64], want[160];
		snprintf(copy, sizeof copy, "%s", bad[i]);
		snprintf(want, sizeof want, "option --set expects PATH=VALUE (for example --set "
			 "sides.kentucky.level=3), got '%s'", bad[i]);
		fray_ctx_clear(ctx);
		assert_int_equal(fray_adbg_edit_parse(ctx, copy, &e), FRAY_ERR_INPUT);
		assert_string_equal(fray_ctx_message(ctx), want);
	}
	fray_ctx_clear(ctx);
}

/* Map keys by name, list items from 1, down to a single value. */
static void paths_found(void **state)
{
	(void)state;
	fray_doc *doc = load();
	const fray_node *n;
	assert_int_equal(fray_adbg_edit_find(ctx, fray_doc_root(doc), "sides.red.level", &n), FRAY_OK);
	assert_string_equal(fray_node_scalar(n), "3");
	assert_int_equal(fray_adbg_edit_find(ctx, fray_doc_root(doc), "sides.red.stacks.1.2.name", &n), FRAY_OK);
	assert_string_equal(fray_node_scalar(n), "Red scouts");
	assert_int_equal(fray_node_line(n), 22);
	static const struct {
		const char *path, *msg;
	} bad[] = {
		{"sides.red.levle", "no key 'levle' in 'sides.red.levle' (at line 15)"},
		{"sides.red.stacks.4.1.fire", "'4' in 'sides.red.stacks.4.1.fire': expected an item number from 1 to 3"},
		{"sides.red.stacks.x", "'x' in 'sides.red.stacks.x': expected an item number from 1 to 3"},
		{"sides.red", "'sides.red' is a list or a map, not a single value"},
		{"sides.red.level.x", "'x' goes past a single value in 'sides.red.level.x'"},
		{"sides..level", "an empty or overlong step in 'sides..level'"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		fray_ctx_clear(ctx);
		assert_int_equal(fray_adbg_edit_find(ctx, fray_doc_root(doc), bad[i].path, &n), FRAY_ERR_INPUT);
		assert_null(n);
		assert_string_equal(fray_ctx_message(ctx), bad[i].msg);
	}
	fray_ctx_clear(ctx);
	fray_doc_free(doc);
}

/* The new file's text with the edits; NULL on failure (message on ctx). */
static char *written(fray_doc *doc, const fray_adbg_edit *ed, int ned, fray_status want)
{
	char *text = NULL;
	size_t len = 0;
	fray_ctx_clear(ctx);
	assert_int_equal(fray_adbg_scenario_write_edited(ctx, doc, ed, ned, "# header\n", NULL, &text, &len), want);
	if (text)
		assert_int_equal(strlen(text), len);
	return text;
}

/* A value set: the file written with it, and the scenario read with it
 * differs from the one without (the same battle otherwise). */
static void value_set(void **state)
{
	(void)state;
	fray_doc *doc = load();
	fray_adbg_scenario *plain = NULL, *edited = NULL;
	fray_adbg_edit_read how = {.option = "--set"};
	assert_int_equal(fray_adbg_scenario_read_edited(ctx, doc, NULL, 0, &how, &plain), FRAY_OK);
	fray_adbg_edit ed[] = {{"sides.red.level", "1"}, {"battle", "Edited: a \"quoted\" name"}};
	char *text = written(doc, ed, 2, FRAY_OK);
	/* a plain value stays plain; one with a quote or a colon is a JSON string */
	assert_non_null(strstr(text, "# header\nbattle: \"Edited: a \\\"quoted\\\" name\"\nterrain: wilderness\n"));
	assert_non_null(strstr(text, "    name: Red\n    level: 1\n"));
	/* nested maps in block style, flat ones in flow style */
	assert_non_null(strstr(text, "leader_loss:\n  after_fire:\n    roll: 1d6\n    lost_on: [6]\n"));
	free(text);
	assert_int_equal(fray_adbg_scenario_read_edited(ctx, doc, ed, 2, &how, &edited), FRAY_OK);
	assert_string_equal(fray_adbg_scenario_name(edited), "Edited: a \"quoted\" name");
	assert_false(fray_adbg_scenario_same_battle(plain, edited));
	fray_adbg_scenario_free(edited);
	/* the level back to 3, the name aside: the same battle as the file's */
	fray_adbg_edit back[] = {{"sides.red.level", "3"}};
	assert_int_equal(fray_adbg_scenario_read_edited(ctx, doc, back, 1, &how, &edited), FRAY_OK);
	assert_true(fray_adbg_scenario_same_battle(plain, edited));
	fray_adbg_scenario_free(edited);
	fray_adbg_scenario_free(plain);
	fray_doc_free(doc);
}

/* The new file's red side after a structural edit: hand-made from the
 * writer's rules (a list of maps as a block, each flat map in flow style,
 * a stack's first unit on its "- - " line). */
static void assert_red(const char *edit, const char *leaders_and_stacks)
{
	fray_doc *doc = load();
	fray_adbg_edit ed[] = {{FRAY_ADBG_EDIT_UNITS, edit}};
	char *text = written(doc, ed, 1, FRAY_OK);
	char want[2048];
	snprintf(want, sizeof want, "    level: 3\n%s  blue:\n", leaders_and_stacks);
	if (!strstr(text, want))
		fail_msg("%s: expected\n%s\nin\n%s", edit, want, text);
	free(text);
	/* and the reader takes the result */
	fray_adbg_scenario *s = NULL;
	fray_adbg_edit_read how = {.option = "--vary"};
	fray_ctx_clear(ctx);
	assert_int_equal(fray_adbg_scenario_read_edited(ctx, doc, ed, 1, &how, &s), FRAY_OK);
	fray_adbg_scenario_free(s);
	fray_doc_free(doc);
}

static void units_removed(void **state)
{
	(void)state;
	/* one unit of two: the stack stays */
	assert_red("remove:Red scouts",
		   "    primary_leader: {name: Red Leader, rating: 1, stack: 1}\n"
		   "    leaders:\n"
		   "      - {name: Red Second, rating: 1, stack: 3}\n"
		   "    stacks:\n"
		   "      - - {name: Red warriors, type: warrior, fire: 3, melee: 2}\n"
		   "      - - {name: Red band, type: warrior, fire: 2, melee: 2}\n"
		   "      - - {name: Red rear, type: warrior, fire: 2, melee: 1}\n");
	/* the only unit of stack 2: the stack goes, and the leader of stack 3
	 * now leads stack 2 */
	assert_red("remove:Red band",
		   "    primary_leader: {name: Red Leader, rating: 1, stack: 1}\n"
		   "    leaders:\n"
		   "      - {name: Red Second, rating: 1, stack: 2}\n"
		   "    stacks:\n"
		   "      - - {name: Red warriors, type: warrior, fire: 3, melee: 2}\n"
		   "        - {name: Red scouts, type: warrior, fire: 1, melee: 1}\n"
		   "      - - {name: Red rear, type: warrior, fire: 2, melee: 1}\n");
	/* stack 3's only unit: its leader is left with no stack */
	assert_red("remove:Red rear",
		   "    primary_leader: {name: Red Leader, rating: 1, stack: 1}\n"
		   "    leaders:\n"
		   "      - {name: Red Second, rating: 1}\n"
		   "    stacks:\n"
		   "      - - {name: Red warriors, type: warrior, fire: 3, melee: 2}\n"
		   "        - {name: Red scouts, type: warrior, fire: 1, melee: 1}\n"
		   "      - - {name: Red band, type: warrior, fire: 2, melee: 2}\n");
	/* the side's only other leader: an empty list, not a missing one */
	assert_red("remove:Red Second",
		   "    primary_leader: {name: Red Leader, rating: 1, stack: 1}\n"
		   "    leaders: []\n"
		   "    stacks:\n"
		   "      - - {name: Red warriors, type: warrior, fire: 3, melee: 2}\n"
		   "        - {name: Red scouts, type: warrior, fire: 1, melee: 1}\n"
		   "      - - {name: Red band, type: warrior, fire: 2, melee: 2}\n"
		   "      - - {name: Red rear, type: warrior, fire: 2, melee: 1}\n");
}

/* Every unit of a stack removed one by one: the stack goes as when its
 * only unit is removed (its leader left with none, later stacks' leaders
 * renumbered); the file was written with an empty item that took the next
 * stack into it ("a mapping as a unit, found a list"). A unit or leader
 * removed twice is refused: the second took the stack's other unit too. */
static void stack_emptied(void **state)
{
	(void)state;
	fray_doc *doc = load();
	fray_adbg_edit ed[] = {{FRAY_ADBG_EDIT_UNITS, "remove:Red warriors"},
			       {FRAY_ADBG_EDIT_UNITS, "remove:Red scouts"}};
	char *text = written(doc, ed, 2, FRAY_OK);
	const char *want = "    level: 3\n"
			   "    primary_leader: {name: Red Leader, rating: 1}\n"
			   "    leaders:\n"
			   "      - {name: Red Second, rating: 1, stack: 2}\n"
			   "    stacks:\n"
			   "      - - {name: Red band, type: warrior, fire: 2, melee: 2}\n"
			   "      - - {name: Red rear, type: warrior, fire: 2, melee: 1}\n"
			   "  blue:\n";
	if (!text || !strstr(text, want))
		fail_msg("expected\n%s\nin\n%s", want, text ? text : "(nothing)");
	free(text);
	fray_adbg_scenario *s = NULL;
	fray_adbg_edit_read how = {.option = "--set"};
	fray_ctx_clear(ctx);
	assert_int_equal(fray_adbg_scenario_read_edited(ctx, doc, ed, 2, &how, &s), FRAY_OK);
	fray_adbg_scenario_free(s);
	fray_adbg_edit twice[] = {{FRAY_ADBG_EDIT_UNITS, "remove:Red warriors"},
				  {FRAY_ADBG_EDIT_UNITS, "remove:Red warriors"}};
	fray_ctx_clear(ctx);
	assert_null(written(doc, twice, 2, FRAY_ERR_INPUT));
	assert_string_equal(fray_ctx_message(ctx), "option --write units=remove:Red warriors: " DOC_NAME
			    ": 'Red warriors' is removed already");
	fray_doc_free(doc);
	fray_ctx_clear(ctx);
}

static void units_added(void **state)
{
	(void)state;
	/* a copy, named "(2)", follows the unit in its stack */
	assert_red("add:Red band",
		   "    primary_leader: {name: Red Leader, rating: 1, stack: 1}\n"
		   "    leaders:\n"
		   "      - {name: Red Second, rating: 1, stack: 3}\n"
		   "    stacks:\n"
		   "      - - {name: Red warriors, type: warrior, fire: 3, melee: 2}\n"
		   "        - {name: Red scouts, type: warrior, fire: 1, melee: 1}\n"
		   "      - - {name: Red band, type: warrior, fire: 2, melee: 2}\n"
		   "        - {name: Red band (2), type: warrior, fire: 2, melee: 2}\n"
		   "      - - {name: Red rear, type: warrior, fire: 2, melee: 1}\n");
	/* @new: a stack of its own after the side's last */
	assert_red("add:Red scouts@new",
		   "    primary_leader: {name: Red Leader, rating: 1, stack: 1}\n"
		   "    leaders:\n"
		   "      - {name: Red Second, rating: 1, stack: 3}\n"
		   "    stacks:\n"
		   "      - - {name: Red warriors, type: warrior, fire: 3, melee: 2}\n"
		   "        - {name: Red scouts, type: warrior, fire: 1, melee: 1}\n"
		   "      - - {name: Red band, type: warrior, fire: 2, melee: 2}\n"
		   "      - - {name: Red rear, type: warrior, fire: 2, melee: 1}\n"
		   "      - - {name: Red scouts (2), type: warrior, fire: 1, melee: 1}\n");
}

static void bad_edits(void **state)
{
	(void)state;
	static const struct {
		const char *path, *value, *msg;
	} rows[] = {
		{"units", "remove:Nobody", "no unit or leader is named 'Nobody'"},
		{"units", "remove:Red Leader", "'Red Leader' is a side's primary leader, which every side has "
		 "(give it another with --set)"},
		{"units", "add:Red Second", "'Red Second' is a leader: add copies units"},
		{"units", "remove:Blue militia", "'Blue militia' is its side's last unit"},
		{"units", "swap:Red band", "expected none, remove:NAME, add:NAME or add:NAME@new, got 'swap:Red band'"},
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		fray_doc *doc = load();
		fray_adbg_edit ed[] = {{rows[i].path, rows[i].value}};
		fray_adbg_scenario *s = (fray_adbg_scenario *)&s;
		fray_adbg_edit_read how = {.option = "--vary"};
		char want[512];
		snprintf(want, sizeof want, "option --vary %s=%s: %s: %s", rows[i].path, rows[i].value, DOC_NAME,
			 rows[i].msg);
		fray_ctx_clear(ctx);
		assert_int_equal(fray_adbg_scenario_read_edited(ctx, doc, ed, 1, &how, &s), FRAY_ERR_INPUT);
		assert_null(s);
		assert_string_equal(fray_ctx_message(ctx), want);
		/* --write names itself */
		assert_null(written(doc, ed, 1, FRAY_ERR_INPUT));
		snprintf(want, sizeof want, "option --write %s=%s: %s: %s", rows[i].path, rows[i].value, DOC_NAME,
			 rows[i].msg);
		assert_string_equal(fray_ctx_message(ctx), want);
		fray_doc_free(doc);
	}
	/* a path that names nothing */
	fray_doc *doc = load();
	fray_adbg_edit ed[] = {{"sides.red.levle", "2"}};
	fray_adbg_scenario *s;
	fray_adbg_edit_read how = {.option = "--set"};
	assert_int_equal(fray_adbg_scenario_read_edited(ctx, doc, ed, 1, &how, &s), FRAY_ERR_INPUT);
	assert_string_equal(fray_ctx_message(ctx), "option --set sides.red.levle: " DOC_NAME
			    ": no key 'levle' in 'sides.red.levle' (at line 15)");
	fray_doc_free(doc);
	fray_ctx_clear(ctx);
}

/* A name is matched whole, however long: the name given was cut to 127
 * bytes before it was looked up, so a longer one matched the unit named
 * by its first 127 bytes (and a unit named beyond them was never found). */
static void long_names_matched_whole(void **state)
{
	(void)state;
	char n127[128], n200[201], text[4096], edit[300];
	memset(n127, 'L', 127);
	n127[127] = 0;
	memset(n200, 'L', 200);
	n200[200] = 0;
	const char *scouts = strstr(SCENARIO, "Red scouts");
	snprintf(text, sizeof text, "%.*s%s%s", (int)(scouts - SCENARIO), SCENARIO, n127, scouts + strlen("Red scouts"));
	fray_doc *doc = NULL;
	fray_ctx_clear(ctx);
	assert_int_equal(fray_doc_load_string(ctx, DOC_NAME, text, strlen(text), &doc), FRAY_OK);
	/* 200 bytes that begin with the unit's 127: not its name */
	snprintf(edit, sizeof edit, "remove:%s", n200);
	fray_adbg_edit longer[] = {{FRAY_ADBG_EDIT_UNITS, edit}};
	assert_null(written(doc, longer, 1, FRAY_ERR_INPUT));
	assert_non_null(strstr(fray_ctx_message(ctx), "no unit or leader is named 'LLLL"));
	/* its own name whole: found, and removed */
	snprintf(edit, sizeof edit, "remove:%s", n127);
	fray_adbg_edit own[] = {{FRAY_ADBG_EDIT_UNITS, edit}};
	char *out = written(doc, own, 1, FRAY_OK);
	assert_null(strstr(out, "LLLL"));
	free(out);
	/* and a copy of it, by its whole name with @new */
	snprintf(edit, sizeof edit, "add:%s@new", n127);
	fray_adbg_edit copy[] = {{FRAY_ADBG_EDIT_UNITS, edit}};
	out = written(doc, copy, 1, FRAY_OK);
	assert_non_null(strstr(out, " (2), type: warrior, fire: 1, melee: 1}\n"));
	free(out);
	fray_doc_free(doc);
	fray_ctx_clear(ctx);
}

/* A value the reader refuses: each problem told with the edits, at the
 * file's line and column; the first on the context. */
typedef struct told {
	int n;
	char first[512];
} told;

static void tell(void *ud, const char *message)
{
	told *t = ud;
	if (t->n++ == 0)
		snprintf(t->first, sizeof t->first, "%s", message);
}

static void problems_told(void **state)
{
	(void)state;
	fray_doc *doc = load();
	told t = {0};
	fray_adbg_edit_read how = {.option = "--set", .problem = tell, .problem_ud = &t};
	fray_adbg_edit ed[] = {{"sides.red.level", "9"}, {"terrain", "swamp"}};
	fray_adbg_scenario *s;
	assert_int_equal(fray_adbg_scenario_read_edited(ctx, doc, ed, 2, &how, &s), FRAY_ERR_INPUT);
	assert_int_equal(t.n, 2);  /* the terrain (line 2) and the level (line 16) */
	const char *want = "with sides.red.level=9, terrain=swamp: " DOC_NAME ":2:10: expected the battle terrain";
	assert_memory_equal(t.first, want, strlen(want));
	assert_string_equal(fray_ctx_message(ctx), t.first + strlen("with sides.red.level=9, terrain=swamp: "));
	fray_doc_free(doc);
	fray_ctx_clear(ctx);
}

/* FNV-1a over "p\0v\0" of each edit, chained. */
static void digest_chains(void **state)
{
	(void)state;
	uint64_t h = 0xcbf29ce484222325u;
	const char bytes[] = {'a', 0, '1', 0};
	for (size_t i = 0; i < sizeof bytes; i++)
		h = (h ^ (unsigned char)bytes[i]) * 0x100000001b3u;
	fray_adbg_edit ed[] = {{"a", "1"}};
	assert_int_equal(fray_adbg_edits_digest(0xcbf29ce484222325u, ed, 1), h);
	assert_int_equal(fray_adbg_edits_digest(7, ed, 0), 7);
}

/* Out of memory along the edits' paths: fail the n-th allocation (and all
 * after it) for every n; each call fails with FRAY_ERR_NOMEM and keeps nothing (ASan
 * finds a leak), until n is large enough for all to pass. Every block is
 * the allocator's: a context with its own allocator still hands --write's
 * text over for free(). */
/* The calls with their k-th allocation and every one after it failing
 * (0: none); true when they succeeded. */
static bool edits_under(void *ud, long n)
{
	(void)ud;
	fray_meter f = {.fail_at = n, .sticky = true};
	fray_ctx *lctx = fray_ctx_new(fray_metered, &f);
	if (!lctx)
		return false;
	fray_doc *doc = NULL;
	fray_status st = fray_doc_load_string(lctx, DOC_NAME, SCENARIO, strlen(SCENARIO), &doc);
	fray_adbg_edit ed[] = {{"sides.red.level", "2"}, {FRAY_ADBG_EDIT_UNITS, "remove:Red band"}};
	fray_adbg_scenario *s = NULL;
	if (st == FRAY_OK) {
		st = fray_adbg_scenario_read_edited(lctx, doc, ed, 2, NULL, &s);
		assert_true(st == FRAY_OK ? s != NULL : s == NULL);
	}
	char *text = NULL;
	size_t len = 0;
	if (st == FRAY_OK) {
		st = fray_adbg_scenario_write_edited(lctx, doc, ed, 2, "# h\n", NULL, &text, &len);
		assert_true(st == FRAY_OK ? text != NULL : text == NULL);
	}
	if (st != FRAY_OK && st != FRAY_ERR_NOMEM)
		fail_msg("allocation %ld: %s", n, fray_ctx_message(lctx));
	free(text);
	fray_adbg_scenario_free(s);
	fray_doc_free(doc);
	fray_ctx_free(lctx);
	return st == FRAY_OK;
}

static void out_of_memory(void **state)
{
	(void)state;
	/* the paths allocate: the walk saw failures */
	assert_true(fray_walk_all(edits_under, NULL, 100000) > 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(set_parses),
		cmocka_unit_test(paths_found),
		cmocka_unit_test(value_set),
		cmocka_unit_test(units_removed),
		cmocka_unit_test(units_added),
		cmocka_unit_test(stack_emptied),
		cmocka_unit_test(bad_edits),
		cmocka_unit_test(long_names_matched_whole),
		cmocka_unit_test(problems_told),
		cmocka_unit_test(digest_chains),
		cmocka_unit_test(out_of_memory),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
