/* A saved battle and a scenario as a hostile (or unlucky) user hands them
 * to fray adbg resume: a seed past INT64_MAX (--seed takes any 64-bit
 * number) read back whole, counts with a sign or past 64 bits refused,
 * a policy spec longer than a save keeps refused rather than cut into
 * another policy, and a side's id longer than ADBG keeps refused at its
 * place rather than cut (two such ids became one). */
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
#include <fray/adbg_save.h>

static const char state_text[] = "round: 2\nrounds: 1\npositions: 1\nsides:\n"
				 "  - units: [[4, 0]]\n    stacks: [[0, 0, 1]]\n    leaders: [[-1, 0]]\n"
				 "  - units: [[0, 0]]\n    stacks: [[0, 0, 1]]\n    leaders: [[0, 0]]\n";

/* The save's text with the given seed and policy (by hand, the format of
 * docs/adbg.md). */
static char *save_with(const char *seed, const char *policy)
{
	size_t cap = strlen(policy) + 4096;
	char *t = malloc(cap);
	assert_non_null(t);
	snprintf(t, cap,
		 "fray_save: 2\nkind: adbg.battle\nscenario: \"/games/tiny.yaml\"\n"
		 "scenario_fnv1a: \"0123456789abcdef\"\npolicy_fnv1a: \"fedcba9876543210\"\n"
		 "seed: %s\npolicy: \"%s\"\npolicy_a: \"\"\npolicy_b: \"\"\npolicy_position: 7\ndice_position: 99\n%s",
		 seed, policy, state_text);
	return t;
}

/* Read: the status, the problems into got (doc's, joined by newlines). */
static fray_status read_save(const char *text, fray_adbg_save *sv, char *got, size_t cap)
{
	fray_doc *doc;
	assert_int_equal(fray_doc_load_string(ctx, "save.yaml", text, strlen(text), &doc), FRAY_OK);
	fray_status st = fray_adbg_save_read(ctx, doc, sv);
	got[0] = '\0';
	for (size_t i = 0; i < fray_doc_error_count(doc); i++)
		snprintf(got + strlen(got), cap - strlen(got), "%s\n", fray_doc_error_msg(doc, i));
	fray_doc_free(doc);
	fray_ctx_clear(ctx);
	return st;
}

/* fray adbg battle takes --seed 0 to 2^64 - 1: every one must resume. */
static void a_seed_past_int64_reads_back(void **state)
{
	(void)state;
	static fray_adbg_save sv;
	char got[1024];
	char *t = save_with("18446744073709551615", "heuristic");
	assert_int_equal(read_save(t, &sv, got, sizeof got), FRAY_OK);
	assert_string_equal(got, "");
	assert_true(sv.seed == UINT64_MAX);
	free(t);
	t = save_with("9223372036854775808", "heuristic");
	assert_int_equal(read_save(t, &sv, got, sizeof got), FRAY_OK);
	assert_true(sv.seed == (uint64_t)INT64_MAX + 1);
	free(t);
}

static void counts_are_digits_within_64_bits(void **state)
{
	(void)state;
	static fray_adbg_save sv;
	char got[1024];
	const char *bad[] = {"18446744073709551616", "-1", "+5", "0x10", "1.5"};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char *t = save_with(bad[i], "heuristic");
		assert_int_equal(read_save(t, &sv, got, sizeof got), FRAY_ERR_INPUT);
		assert_string_equal(got, "save.yaml:6:7: expected the seed, a whole number from 0 to "
					 "18446744073709551615\n");
		free(t);
	}
}

/* A --policy spec of FRAY_ADBG_SAVE_POLICY bytes was cut to 4199 and the
 * battle resumed with another spec than the one saved. */
static void a_policy_too_long_is_refused_not_cut(void **state)
{
	(void)state;
	static fray_adbg_save sv;
	char got[1024], *policy = malloc(FRAY_ADBG_SAVE_POLICY + 1);
	assert_non_null(policy);
	memset(policy, 'p', FRAY_ADBG_SAVE_POLICY);
	policy[FRAY_ADBG_SAVE_POLICY] = '\0';
	char *t = save_with("1", policy);
	assert_int_equal(read_save(t, &sv, got, sizeof got), FRAY_ERR_INPUT);
	assert_string_equal(got, "save.yaml:7:9: expected the policy of at most 4199 bytes, found 4200\n");
	free(t);
	policy[FRAY_ADBG_SAVE_POLICY - 1] = '\0'; /* 4199 bytes: kept whole */
	t = save_with("1", policy);
	assert_int_equal(read_save(t, &sv, got, sizeof got), FRAY_OK);
	assert_string_equal(sv.policy, policy);
	free(t);
	free(policy);
}

/* tiny.yaml with both sides' ids 47 'A's and a suffix: cut at 47 bytes
 * they were one id. The first is refused at its key (line 15, column 3). */
static void side_ids_too_long_are_refused(void **state)
{
	(void)state;
	FILE *f = fopen(FRAY_TEST_DATA "/adbg/tiny.yaml", "rb");
	assert_non_null(f);
	char text[8192], edited[9000], a[64] = "";
	size_t n = fread(text, 1, sizeof text - 1, f);
	fclose(f);
	text[n] = '\0';
	memset(a, 'A', 47);
	char *init = strstr(text, "initiative: red\n"), *red = strstr(text, "  red:\n"), *blue = strstr(text, "  blue:\n");
	assert_true(init && red && blue && init < red && red < blue);
	const char *after_init = init + strlen("initiative: red\n"), *after_red = red + strlen("  red:\n");
	snprintf(edited, sizeof edited, "%.*sinitiative: %sred\n%.*s  %sred:\n%.*s  %sblue:\n%s", (int)(init - text),
		 text, a, (int)(red - after_init), after_init, a, (int)(blue - after_red), after_red, a,
		 blue + strlen("  blue:\n"));
	fray_doc *doc;
	assert_int_equal(fray_doc_load_string(ctx, FRAY_TEST_DATA "/adbg/long.yaml", edited, strlen(edited), &doc),
			 FRAY_OK);
	fray_adbg_scenario *s = NULL;
	assert_int_not_equal(fray_adbg_scenario_read(ctx, doc, &s), FRAY_OK);
	char first[512];
	snprintf(first, sizeof first, "%s", fray_doc_error_msg(doc, 0));
	assert_non_null(strstr(first, "long.yaml:15:3: a side's id has at most 47 bytes"));
	fray_adbg_scenario_free(s);
	fray_doc_free(doc);
	fray_ctx_clear(ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_seed_past_int64_reads_back),
		cmocka_unit_test(counts_are_digits_within_64_bits),
		cmocka_unit_test(a_policy_too_long_is_refused_not_cut),
		cmocka_unit_test(side_ids_too_long_are_refused),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
