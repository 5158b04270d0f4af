/* fray_data_check (include/fray/catalog.h): which kind of fray data file a
 * document is, by its top-level keys, and its reader's verdict. Every
 * document is written here; the files a scenario or a combat names are
 * served from here too, through the open function. The kinds' names are
 * the header's (fray check prints them: "FILE: ok (KIND)"). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <fray/fray.h>

static const char crt_text[] =
	"name: a test CRT\n"
	"columns: [\"1:2\", \"1:1\", \"2:1\"]\n"
	"rows:\n"
	"  0: [\"R/-\", \"1/-\", \"1/1\"]\n"
	"  1: [\"1/-\", \"1/1\", \"-/1\"]\n"
	"  2: [\"1/1\", \"-/1\", \"-/R\"]\n";

static const char scenario_text[] =
	"battle: a test battle\n"
	"terrain: wilderness\n"
	"weather: normal\n"
	"initiative: red\n"
	"melee_crt: crt.yaml\n"
	"leader_loss:\n"
	"  after_fire: {roll: 1d6, lost_on: [6]}\n"
	"  after_melee: {roll: 1d6, lost_on: [5, 6]}\n"
	"victory:\n"
	"  rule: losses\n"
	"  routed: {roll: 1d6, eliminated_on: [1, 2, 3]}\n"
	"sides:\n"
	"  red:\n"
	"    name: Red\n"
	"    level: 2\n"
	"    primary_leader: {name: R, rating: 1, stack: 1}\n"
	"    stacks:\n"
	"      - - {name: Red militia, type: militia, fire: 2, melee: 2}\n"
	"  blue:\n"
	"    name: Blue\n"
	"    level: 3\n"
	"    primary_leader: {name: B, rating: 2, stack: 1}\n"
	"    stacks:\n"
	"      - - {name: Blue warriors, type: warrior, fire: 2, melee: 3}\n";

static const char mix_text[] =
	"name: a test mix\n"
	"tactics:\n"
	"  hasty: {min: 1, max: {defend: 3, hold: 3, evade: 3}}\n"
	"morale: {roll: 2d6, pass: at-most}\n"
	"chits:\n"
	"  - {id: C01, a: {if: \"always\", then: [A1]}, b: {if: \"always\", then: [D1]}}\n"
	"  - {id: C02, a: {if: \"always\", then: [M]}, b: {if: \"always\", then: [F]}}\n"
	"  - {id: C03, a: {if: \"always\", then: [D1]}, b: {if: \"always\", then: []}}\n";

static const char combat_text[] =
	"mix: mix.yaml\n"
	"tactic: hasty\n"
	"stance: hold\n"
	"terrain: open\n"
	"draw: 2\n"
	"attacker:\n"
	"  name: A\n"
	"  cdr: 12\n"
	"  type: infantry\n"
	"  units:\n"
	"    - {name: A1, battalions: 3, lead: 1, morale: 7, can_retreat: true}\n"
	"defender:\n"
	"  name: D\n"
	"  cdr: 6\n"
	"  type: infantry\n"
	"  units:\n"
	"    - {name: D1, battalions: 3, lead: 1, morale: 7, can_retreat: true}\n";

static const char units_text[] =
	"units:\n"
	"  militia: {ranged: 1, melee: 1, move: 0, recon: 1, camou: 1, armor: 0, morale: inexperienced}\n";

static const char script_text[] = "answers: [hold, 2, fire]\n";

/* Serves crt.yaml and mix.yaml from the texts above; any other path is
 * a file that is not there. */
static fray_status open_here(void *ud, fray_ctx *ctx, const char *path, fray_doc **out)
{
	(void)ud;
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	if (strcmp(base, "crt.yaml") == 0)
		return fray_doc_load_string(ctx, path, crt_text, strlen(crt_text), out);
	if (strcmp(base, "mix.yaml") == 0)
		return fray_doc_load_string(ctx, path, mix_text, strlen(mix_text), out);
	return fray_doc_load_file(ctx, "/nonexistent/fray-test/not-here.yaml", out); /* refused with a message */
}

typedef struct checked {
	fray_status st;
	const char *kind;
	size_t problems;
	char first[512]; /* the first problem on the doc, else the context's message */
} checked;

static checked check(const char *name, const char *text)
{
	fray_ctx *ctx = fray_ctx_new(NULL, NULL);
	assert_non_null(ctx);
	fray_doc *doc;
	assert_int_equal(fray_doc_load_string(ctx, name, text, strlen(text), &doc), FRAY_OK);
	checked c = {.kind = "not set"};
	c.st = fray_data_check(ctx, doc, open_here, NULL, &c.kind);
	c.problems = fray_doc_error_count(doc);
	snprintf(c.first, sizeof c.first, "%s", c.problems ? fray_doc_error_msg(doc, 0) : fray_ctx_message(ctx));
	if (c.st != FRAY_OK && c.problems)
		assert_string_equal(fray_ctx_message(ctx), c.first); /* the first also on the context */
	fray_doc_free(doc);
	fray_ctx_free(ctx);
	return c;
}

static void each_kind_is_told_and_read(void **state)
{
	(void)state;
	static const struct {
		const char *text, *kind;
	} good[] = {
		{scenario_text, "adbg scenario"},
		{crt_text, "adbg melee CRT"},
		{mix_text, "chit mix"},
		{combat_text, "chit combat"},
		{units_text, "presidio unit statistics"},
		{script_text, "policy script"},
	};
	for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
		checked c = check("good.yaml", good[i].text);
		if (c.st != FRAY_OK)
			fail_msg("%s: %s", good[i].kind, c.first);
		assert_string_equal(c.kind, good[i].kind);
		assert_int_equal(c.problems, 0);
	}
}

/* A known kind with a mistake: the kind is told, every problem is on the
 * doc at its line and column. */
static void a_bad_file_of_a_kind_says_where(void **state)
{
	(void)state;
	char buf[4096];
	static const struct {
		const char *kind, *text, *from, *to, *first;
	} bad[] = {
		{"adbg scenario", scenario_text, "level: 3", "level: 9", "bad.yaml:21:12: "},
		{"adbg melee CRT", crt_text, "\"1/1\", \"-/1\"]", "\"1/1\"]", "bad.yaml:5:"},
		{"chit mix", mix_text, "pass: at-most", "pass: sometimes", "bad.yaml:4:"},
		{"chit combat", combat_text, "draw: 2", "draw: many", "bad.yaml:5:7: "},
		{"presidio unit statistics", units_text, "recon: 1", "recon: x", "bad.yaml:2:"},
		{"policy script", script_text, "2,", "[2],", "bad.yaml:1:"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		const char *at = strstr(bad[i].text, bad[i].from);
		assert_non_null(at);
		snprintf(buf, sizeof buf, "%.*s%s%s", (int)(at - bad[i].text), bad[i].text, bad[i].to,
			 at + strlen(bad[i].from));
		checked c = check("bad.yaml", buf);
		assert_int_equal(c.st, FRAY_ERR_INPUT);
		assert_string_equal(c.kind, bad[i].kind);
		assert_true(c.problems >= 1);
		if (strncmp(c.first, bad[i].first, strlen(bad[i].first)) != 0)
			fail_msg("%s: '%s' does not start '%s'", bad[i].kind, c.first, bad[i].first);
	}
	/* two mistakes in one scenario: both told */
	snprintf(buf, sizeof buf, "%s", scenario_text);
	memcpy(strstr(buf, "level: 2"), "level: 8", 8);
	memcpy(strstr(buf, "level: 3"), "level: 9", 8);
	checked c = check("bad.yaml", buf);
	assert_int_equal(c.st, FRAY_ERR_INPUT);
	assert_int_equal(c.problems, 2);
	/* a file the document names, not there: told, and the kind is known */
	snprintf(buf, sizeof buf, "%s", combat_text);
	memcpy(strstr(buf, "mix: mix.yaml"), "mix: xix.yaml", 13);
	c = check("bad.yaml", buf);
	assert_int_equal(c.st, FRAY_ERR_INPUT);
	assert_string_equal(c.kind, "chit combat");
}

/* None of the kinds: no kind, and the message names the file and every
 * kind with its keys; a document with the keys of two kinds is the
 * first's in the header's order. */
static void what_is_no_kind_is_refused(void **state)
{
	(void)state;
	static const char *const none[] = {
		"name: a list of things\nthings: [1, 2]\n",
		"- sides\n- chits\n",
		"just a word\n",
		"",
		"mix: a.yaml\n", /* a chit combat has 'attacker' too */
		"columns: [\"1:1\"]\n",
	};
	for (size_t i = 0; i < sizeof none / sizeof none[0]; i++) {
		checked c = check("what.yaml", none[i]);
		assert_int_equal(c.st, FRAY_ERR_INPUT);
		assert_null(c.kind);
		assert_int_equal(c.problems, 0);
		assert_string_equal(c.first,
				    "what.yaml:1:1: expected a fray data file; known kinds: adbg scenario (with "
				    "'sides'), adbg melee CRT (with 'columns' and 'rows'), presidio unit statistics "
				    "(with 'units'), chit mix (with 'chits'), chit combat (with 'mix' and "
				    "'attacker'), policy script (with 'answers')");
	}
	checked c = check("both.yaml", "units: {}\nanswers: [a]\n");
	assert_string_equal(c.kind, "presidio unit statistics");
	c = check("both.yaml", "answers: [a]\nsides: {}\n");
	assert_string_equal(c.kind, "adbg scenario");
	c = check("both.yaml", "chits: []\ncolumns: []\nrows: {}\n");
	assert_string_equal(c.kind, "adbg melee CRT");
	c = check("both.yaml", "chits: []\nunits: []\n");
	assert_string_equal(c.kind, "presidio unit statistics");
	/* the kinds as the header lists them, in the order they are tried:
	 * the rule sets' in the registry's order (adbg, presidio, bbb, chits),
	 * then fray's own */
	static const char *const names[] = {"adbg scenario", "adbg melee CRT", "presidio unit statistics",
					    "chit mix", "chit combat", "policy script"};
	static const char *const keys[] = {"'sides'", "'columns' and 'rows'", "'units'", "'chits'",
					   "'mix' and 'attacker'", "'answers'"};
	for (size_t i = 0; i < 6; i++) {
		const char *with = NULL;
		assert_string_equal(fray_data_kind(i, &with), names[i]);
		assert_string_equal(with, keys[i]);
	}
	const char *with = "x";
	assert_null(fray_data_kind(6, &with));
	assert_null(with);
	/* NULL arguments: a status, never a crash */
	fray_ctx *ctx = fray_ctx_new(NULL, NULL);
	const char *kind;
	assert_int_equal(fray_data_check(ctx, NULL, NULL, NULL, &kind), FRAY_ERR_INPUT);
	assert_int_equal(fray_data_check(NULL, NULL, NULL, NULL, &kind), FRAY_ERR_INPUT);
	fray_ctx_free(ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(each_kind_is_told_and_read),
		cmocka_unit_test(a_bad_file_of_a_kind_says_where),
		cmocka_unit_test(what_is_no_kind_is_refused),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
