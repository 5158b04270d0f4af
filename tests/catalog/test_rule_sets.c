/* Everything that lists rule sets iterates the catalogue's registry
 * (issue 42 item 2): fray_rule_set names fray's four in the registry's
 * order (never fray's own dice) and then a set registered after them;
 * fray check's kinds are each set's own, tried in the same order, a
 * registered set's before fray's policy script. The names are written
 * out here from the rule texts' titles, not read from the library. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <fray/fray.h>
#include "../test_util.h"
#include "../../src/catalog/catalog.h"

static fray_status bind_nothing(fray_call *c)
{
	(void)c;
	return FRAY_OK;
}

static fray_status check_sixth(fray_ctx *cx, fray_doc *doc, fray_doc_open_fn open, void *ud)
{
	(void)cx, (void)doc, (void)open, (void)ud;
	return FRAY_OK;
}

static const proc_desc sixth_desc = {"sixth.look", "sixth look", "a look", "sixth: look", .modes = FRAY_MODE_SHOW,
				     .example = "{}", .bind = bind_nothing, .generic = true, .no_sides = true};
static const proc_desc *const sixth_procs[] = {&sixth_desc, NULL};
static const proc_desc *const *const sixth_files[] = {sixth_procs, NULL};
static const data_kind sixth_kinds[] = {{"sixth orders", {"orders"}, "'orders'", check_sixth}, {NULL}};
static const catalog_set sixth = {"sixth", "the tests' sixth rule set", sixth_files, sixth_kinds};

static void the_registry_lists_the_rule_sets(void **state)
{
	(void)state;
	static const char *const ids[] = {"adbg", "presidio", "bbb", "chits"};
	size_t n = 0;
	const char *title = "x";
	for (const char *id; (id = fray_rule_set(n, &title)); n++) {
		assert_true(n < 4);
		assert_string_equal(id, ids[n]);
		assert_non_null(title);
		assert_non_null(strstr(title, n == 0 ? "Dark and Bloody Ground" : n == 1 ? "Presidio"
								 : n == 2 ? "Bloody Big Battles" : "chit"));
	}
	assert_int_equal(n, 4);
	assert_null(title);

	/* kinds before: the last is fray's own policy script */
	size_t kinds = 0;
	while (fray_data_kind(kinds, NULL))
		kinds++;
	assert_string_equal(fray_data_kind(kinds - 1, NULL), "policy script");

	assert_int_equal(frayi_catalog_register(&sixth), FRAY_OK);
	assert_string_equal(fray_rule_set(4, &title), "sixth");
	assert_string_equal(title, "the tests' sixth rule set");
	assert_null(fray_rule_set(5, NULL));
	/* its kind is tried after fray's four sets' and before fray's own */
	assert_string_equal(fray_data_kind(kinds - 1, NULL), "sixth orders");
	assert_string_equal(fray_data_kind(kinds, NULL), "policy script");
	assert_null(fray_data_kind(kinds + 1, NULL));
	fray_doc *doc = NULL;
	const char *text = "orders: [hold]\n";
	assert_int_equal(fray_doc_load_string(ctx, "o.yaml", text, strlen(text), &doc), FRAY_OK);
	const char *kind = NULL;
	assert_int_equal(fray_data_check(ctx, doc, NULL, NULL, &kind), FRAY_OK);
	assert_string_equal(kind, "sixth orders");
	fray_doc_free(doc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(the_registry_lists_the_rule_sets),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
