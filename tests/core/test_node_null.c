/* The public node accessors take the NULL their siblings return (an item
 * past the end, an absent key, the root of an empty document): a reader
 * that chains them never crashes on a file that lacks a part (issue 29:
 * a game file's log entry without its story crashed `fray table log`). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include <fray/fray.h>

static void no_node_is_an_empty_scalar(void **state)
{
	(void)state;
	const fray_node *none = NULL;
	assert_int_equal(fray_node_kind_of(none), FRAY_NODE_SCALAR);
	assert_null(fray_node_scalar(none));
	assert_false(fray_node_plain(none));
	assert_int_equal(fray_node_len(none), 0);
	assert_null(fray_node_item(none, 0));
	assert_null(fray_node_key(none, 0));
	assert_null(fray_node_value(none, 0));
	assert_null(fray_map_get(none, "story"));
	assert_int_equal(fray_node_line(none), 0);
	assert_int_equal(fray_node_col(none), 0);
}

/* A chain through parts that are not there, as a log printer walks an
 * entry: each step gives NULL, none crashes. */
static void chains_through_missing_parts(void **state)
{
	(void)state;
	fray_ctx *ctx = fray_ctx_new(NULL, NULL);
	fray_doc *doc = NULL;
	const char text[] = "log:\n  - command: turn\n    story: {a: b}\n    steps: [[1]]\n";
	assert_int_equal(fray_doc_load_string(ctx, "g.yaml", text, strlen(text), &doc), FRAY_OK);
	const fray_node *e = fray_node_item(fray_map_get(fray_doc_root(doc), "log"), 0);
	assert_non_null(e);
	assert_null(fray_node_scalar(fray_map_get(e, "turn")));
	/* story is a mapping: no items */
	assert_null(fray_node_scalar(fray_node_item(fray_map_get(e, "story"), 0)));
	/* a step that is a list: no keys, no values */
	const fray_node *step = fray_node_item(fray_map_get(e, "steps"), 0);
	assert_null(fray_node_scalar(fray_node_key(step, 0)));
	assert_int_equal(fray_node_len(fray_node_value(step, 0)), 0);
	assert_null(fray_map_get(fray_node_item(fray_map_get(e, "nothing"), 3), "x"));
	assert_null(fray_map_get(e, NULL));
	fray_doc_free(doc);
	fray_ctx_free(ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(no_node_is_an_empty_scalar),
		cmocka_unit_test(chains_through_missing_parts),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
