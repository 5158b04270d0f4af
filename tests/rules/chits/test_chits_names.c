/* Names in chit files longer than fray keeps: cut, two names sharing
 * their first bytes became one (a tactic looked up by its name found the
 * other; two chit ids were one). Each is refused at its file:line:col. */
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
#include <fray/chits.h>

/* A mix's problems (joined by newlines) into got; the status returned. */
static fray_status mix_problems(const char *text, char *got, size_t cap)
{
	fray_doc *doc;
	fray_ctx_clear(ctx);
	assert_int_equal(fray_doc_load_string(ctx, "mix.yaml", text, strlen(text), &doc), FRAY_OK);
	fray_chits_mix *m = NULL;
	fray_status st = fray_chits_mix_read(ctx, doc, &m);
	got[0] = '\0';
	for (size_t i = 0; i < fray_doc_error_count(doc); i++)
		snprintf(got + strlen(got), cap - strlen(got), "%s\n", fray_doc_error_msg(doc, i));
	fray_chits_mix_free(m);
	fray_doc_free(doc);
	fray_ctx_clear(ctx);
	return st;
}

static void mix_with(char *out, size_t cap, const char *tactic1, const char *tactic2, const char *id2)
{
	snprintf(out, cap,
		 "tactics:\n"
		 "  %s: {min: 1, max: {defend: 2, hold: 2, evade: 2}}\n"
		 "  %s: {min: 2, max: {defend: 2, hold: 2, evade: 2}}\n"
		 "morale: {roll: 1d6, pass: at-most}\n"
		 "chits:\n"
		 "  - {id: a, a: {if: always, then: [D1]}, b: {if: always, then: []}}\n"
		 "  - {id: %s, a: {if: always, then: []}, b: {if: always, then: []}}\n",
		 tactic1, tactic2, id2);
}

/* Two tactics of 40 bytes sharing their first 31 (a tactic's name keeps
 * 31): both refused at their keys. */
static void long_tactic_names_are_refused(void **state)
{
	(void)state;
	char t1[64], t2[64], text[2048], got[1024];
	memset(t1, 't', 31);
	memcpy(t1 + 31, "_hasty_1", 9);
	memcpy(t2, t1, 41);
	t2[38] = '2';
	mix_with(text, sizeof text, t1, t2, "b");
	assert_int_not_equal(mix_problems(text, got, sizeof got), FRAY_OK);
	assert_string_equal(got, "mix.yaml:2:3: a tactic's name has at most 31 bytes, found 39\n"
				 "mix.yaml:3:3: a tactic's name has at most 31 bytes, found 39\n");
	/* 31 bytes each, different: read */
	t1[31] = '\0';
	memcpy(t2, t1, 32);
	t2[30] = 'u';
	mix_with(text, sizeof text, t1, t2, "b");
	assert_int_equal(mix_problems(text, got, sizeof got), FRAY_OK);
}

/* A chit's id keeps 15 bytes: "a" followed by 15 more was cut and read. */
static void long_chit_ids_are_refused(void **state)
{
	(void)state;
	char text[2048], got[1024];
	mix_with(text, sizeof text, "hasty", "deliberate", "a123456789abcdef");
	assert_int_not_equal(mix_problems(text, got, sizeof got), FRAY_OK);
	assert_string_equal(got, "mix.yaml:7:10: the chit's id has at most 15 bytes, found 16\n");
}

/* A combat file's unit name past 47 bytes. */
static void long_unit_names_are_refused(void **state)
{
	(void)state;
	char path[512];
	snprintf(path, sizeof path, "%s/examples/chits/example-1.yaml", FRAY_SOURCE_DIR);
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	char text[8192], edited[9000], name[64];
	size_t n = fread(text, 1, sizeof text - 1, f);
	fclose(f);
	text[n] = '\0';
	memset(name, 'B', 48);
	name[48] = '\0';
	const char *at = strstr(text, "{name: Bylant,");
	assert_non_null(at);
	snprintf(edited, sizeof edited, "%.*s{name: %s,%s", (int)(at - text), text, name, at + strlen("{name: Bylant,"));
	fray_doc *doc;
	fray_ctx_clear(ctx);
	assert_int_equal(fray_doc_load_string(ctx, path, edited, strlen(edited), &doc), FRAY_OK);
	fray_chits_mix *m = NULL;
	fray_chits_combat_in in;
	uint64_t seed = 0;
	bool has_seed;
	assert_int_not_equal(fray_chits_combat_read(ctx, doc, &m, &in, &seed, &has_seed), FRAY_OK);
	assert_true(fray_doc_error_count(doc) >= 1);
	char want[600];
	snprintf(want, sizeof want, "%s:20:14: a unit's name has at most 47 bytes, found 48", path);
	assert_string_equal(fray_doc_error_msg(doc, 0), want);
	fray_chits_mix_free(m);
	fray_doc_free(doc);
	fray_ctx_clear(ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(long_tactic_names_are_refused),
		cmocka_unit_test(long_chit_ids_are_refused),
		cmocka_unit_test(long_unit_names_are_refused),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
