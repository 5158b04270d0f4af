/* A side's id (fray_adbg_side_id, include/fray/adbg.h): the key under
 * `sides`, in the order of the file, at most FRAY_ADBG_NAME_MAX - 1 bytes
 * (the one limit the library and `fray adbg sweep --target` share): a longer
 * id is refused, never cut, so two long ids never become one. The scenarios are tests/data/adbg/one-round.yaml with
 * Blue's key replaced. */
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

static char *file_text;

static int load(void **state)
{
	if (setup(state))
		return -1;
	FILE *f = fopen(FRAY_TEST_DATA "/adbg/one-round.yaml", "rb");
	if (!f)
		return -1;
	file_text = calloc(1, 1 << 16);
	size_t n = file_text ? fread(file_text, 1, (1 << 16) - 1, f) : 0;
	fclose(f);
	return n > 0 ? 0 : -1;
}

static int unload(void **state)
{
	free(file_text);
	return teardown(state);
}

/* one-round.yaml with the key "blue:" (under sides) replaced by id; NULL
 * when it does not read. */
static fray_adbg_scenario *with_blue_id(const char *id)
{
	const char *at = strstr(file_text, "\n  blue:\n");
	assert_non_null(at);
	size_t head = (size_t)(at - file_text) + 3, cap = strlen(file_text) + strlen(id) + 1;
	char *text = malloc(cap);
	assert_non_null(text);
	snprintf(text, cap, "%.*s%s%s", (int)head, file_text, id, at + 3 + strlen("blue"));
	fray_doc *doc = NULL;
	fray_adbg_scenario *s = NULL;
	assert_int_equal(fray_doc_load_string(ctx, "one-round.yaml", text, strlen(text), &doc), FRAY_OK);
	if (fray_adbg_scenario_read(ctx, doc, &s) != FRAY_OK)
		s = NULL;
	fray_doc_free(doc);
	free(text);
	return s;
}

static void the_keys_in_file_order(void **state)
{
	(void)state;
	fray_adbg_scenario *s = with_blue_id("blue");
	assert_non_null(s);
	assert_string_equal(fray_adbg_side_id(s, 0), "red");
	assert_string_equal(fray_adbg_side_id(s, 1), "blue");
	assert_string_equal(fray_adbg_side_name(s, 1), "Blue"); /* the name is another thing */
	fray_adbg_scenario_free(s);
}

/* 47 bytes are kept whole; 48 or more are refused. */
static void refused_past_the_stated_limit(void **state)
{
	(void)state;
	assert_int_equal(FRAY_ADBG_NAME_MAX, 48);
	char id[80];
	for (int i = 0; i < 60; i++)
		id[i] = (char)('a' + i % 26);
	id[60] = '\0';
	assert_null(with_blue_id(id));
	fray_ctx_clear(ctx);
	id[48] = '\0';
	assert_null(with_blue_id(id));
	fray_ctx_clear(ctx);
	id[47] = '\0';
	fray_adbg_scenario *s = with_blue_id(id);
	assert_non_null(s);
	assert_string_equal(fray_adbg_side_id(s, 1), id);
	fray_adbg_scenario_free(s);
}

/* The limit counts bytes, not characters: 45 ASCII bytes and a two-byte
 * character are 47 bytes, kept whole; one more ASCII byte before it makes
 * 48, refused. */
static void bytes_not_characters(void **state)
{
	(void)state;
	char id[80];
	memset(id, 'x', 45);
	snprintf(id + 45, sizeof id - 45, "\xc3\xa9"); /* é: bytes 46 and 47 */
	fray_adbg_scenario *s = with_blue_id(id);
	assert_non_null(s);
	assert_string_equal(fray_adbg_side_id(s, 1), id);
	fray_adbg_scenario_free(s);
	memset(id, 'x', 46);
	snprintf(id + 46, sizeof id - 46, "\xc3\xa9");
	assert_null(with_blue_id(id));
	fray_ctx_clear(ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(the_keys_in_file_order),
		cmocka_unit_test(refused_past_the_stated_limit),
		cmocka_unit_test(bytes_not_characters),
	};
	return cmocka_run_group_tests(tests, load, unload);
}
