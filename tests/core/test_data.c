/* Data files: YAML trees with positions, and every kind of bad file
 * reported as file:line:col with what was expected. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "../test_util.h"
#include <fray/fray.h>

static fray_doc *load(const char *text)
{
	fray_doc *doc = NULL;
	fray_ctx_clear(ctx);
	fray_doc_load_string(ctx, "t.yaml", text, strlen(text), &doc);
	return doc;
}

static void tree_with_positions(void **state)
{
	(void)state;
	fray_doc *doc = load("name: Blue Licks\nunits:\n  - {cf: 3, id: \"12\"}\n  - cf: 4\n");
	assert_non_null(doc);
	const fray_node *root = fray_doc_root(doc);
	assert_int_equal(fray_node_kind_of(root), FRAY_NODE_MAP);
	assert_string_equal(fray_node_scalar(fray_map_get(root, "name")), "Blue Licks");
	const fray_node *units = fray_map_get(root, "units");
	assert_int_equal(fray_node_len(units), 2);
	const fray_node *u1 = fray_node_item(units, 1);
	const fray_node *cf = fray_map_get(u1, "cf");
	assert_int_equal(fray_node_line(cf), 4);
	assert_int_equal(fray_node_col(cf), 9);
	const fray_node *id = fray_map_get(fray_node_item(units, 0), "id");
	assert_false(fray_node_plain(id)); /* quoted */
	int64_t v = 0;
	assert_true(fray_doc_int(doc, cf, 0, 10, "cf", &v));
	assert_int_equal(v, 4);
	assert_int_equal(fray_doc_status(doc), FRAY_OK);
	fray_doc_free(doc);
}

/* Quoted scalars, including the many-'' case libfyaml 0.7.12 gets wrong. */
static void quoted_scalars(void **state)
{
	(void)state;
	fray_doc *doc = load("a: 'xy'\nb: 'multi\n   line\n\n  para'\nc: \"t\\tu\"\nd: 'it''s'\n");
	assert_non_null(doc);
	const fray_node *root = fray_doc_root(doc);
	assert_string_equal(fray_node_scalar(fray_map_get(root, "a")), "xy");
	assert_string_equal(fray_node_scalar(fray_map_get(root, "b")), "multi line\npara");
	assert_string_equal(fray_node_scalar(fray_map_get(root, "c")), "t\tu");
	assert_string_equal(fray_node_scalar(fray_map_get(root, "d")), "it's");
	fray_doc_free(doc);
}

/* An empty block scalar is empty wherever it stands, the last line too
 * (libfyaml 0.7.12 gives the last one as a NUL byte: it was refused as
 * "a NUL character in a string"); an escaped NUL is still refused. */
static void empty_block_scalars(void **state)
{
	(void)state;
	const char *texts[] = {"a: |\n", "a: >\n", "a: |\nb: x\n", "a: |-\n", "a: >+\n"};
	for (size_t i = 0; i < sizeof texts / sizeof *texts; i++) {
		fray_doc *doc = load(texts[i]);
		if (!doc)
			fail_msg("%s: %s", texts[i], fray_ctx_message(ctx));
		assert_string_equal(fray_node_scalar(fray_map_get(fray_doc_root(doc), "a")), "");
		fray_doc_free(doc);
	}
	assert_null(load("a: \"x\\0\"\n"));
	assert_non_null(strstr(fray_ctx_message(ctx), "NUL character"));
}

static void json_is_accepted(void **state)
{
	(void)state;
	fray_doc *doc = load("{\"answers\": [\"a\", 2]}");
	assert_non_null(doc);
	assert_int_equal(fray_node_len(fray_map_get(fray_doc_root(doc), "answers")), 2);
	fray_doc_free(doc);
}

static void bad_files_say_where(void **state)
{
	(void)state;
	static const struct {
		const char *text, *msg;
	} rows[] = {
		{"a: [1, 2\nb: 3\n", "t.yaml:"}, /* libfyaml's own wording follows */
		{"a: 1\na: 2\n", "t.yaml:2:1: duplicate key 'a' (first at line 1)"},
		{"a: &x 1\nb: *x\n", "t.yaml:2:4: aliases (*name) are not supported"},
		{"a: 1\n---\nb: 2\n", "t.yaml:2:1: expected one document, found a second"},
		{"? [a]\n: 1\n", "t.yaml:1:3: expected a plain key, found a complex one"},
		{"a: \"x\0y\"\n", "t.yaml: a NUL byte at offset 5: expected text"},
		{"a: 1\nb: \"\xc3(\"\n", "t.yaml:2:5: invalid UTF-8 byte 0xc3: expected text"},
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		fray_doc *doc = NULL;
		fray_ctx_clear(ctx);
		size_t len = strlen(rows[i].text);
		if (i == 5)
			len = 9;
		assert_int_equal(fray_doc_load_string(ctx, "t.yaml", rows[i].text, len, &doc),
				 FRAY_ERR_INPUT);
		assert_null(doc);
		assert_memory_equal(fray_ctx_message(ctx), rows[i].msg, strlen(rows[i].msg));
	}
	/* the syntax error carries a line and a column */
	fray_doc *doc = load("a: [1, 2\nb: 3\n");
	assert_null(doc);
	int line = 0, col = 0;
	assert_int_equal(sscanf(fray_ctx_message(ctx), "t.yaml:%d:%d:", &line, &col), 2);
	assert_true(line >= 1 && col >= 1);
}

static void nesting_and_size_are_limited(void **state)
{
	(void)state;
	char deep[200];
	memset(deep, '[', 100);
	memset(deep + 100, ']', 99);
	deep[199] = '\0';
	deep[99] = '[';
	assert_null(load(deep));
	assert_non_null(strstr(fray_ctx_message(ctx), "nested too deeply (the limit is 64 levels)"));

	size_t n = FRAY_DOC_MAX_BYTES + 1;
	char *big = malloc(n);
	memset(big, ' ', n);
	fray_doc *doc;
	fray_ctx_clear(ctx);
	assert_int_equal(fray_doc_load_string(ctx, "big.yaml", big, n, &doc), FRAY_ERR_INPUT);
	assert_string_equal(fray_ctx_message(ctx), "big.yaml: file too large (the limit is 4 MiB)");
	free(big);
}

static void checks_collect_every_problem(void **state)
{
	(void)state;
	fray_doc *doc = load("level: 7\nterain: rough\ntype: warior\nsevere: maybe\n");
	assert_non_null(doc);
	const fray_node *root = fray_doc_root(doc);
	static const char *const keys[] = {"level", "terrain", "type", "severe"};
	static const char *const types[] = {"warrior", "regular", "militia", "rifle"};
	int64_t level;
	size_t type;
	bool severe;
	assert_false(fray_doc_known_keys(doc, root, keys, 4));
	assert_false(fray_doc_int(doc, fray_map_get(root, "level"), 1, 5, "a commitment level", &level));
	assert_false(fray_doc_enum(doc, fray_map_get(root, "type"), "a unit type", types, 4, &type));
	assert_false(fray_doc_bool(doc, fray_map_get(root, "severe"), "severe", &severe));
	assert_null(fray_doc_field(doc, root, "terrain", true));
	assert_int_equal(fray_doc_error_count(doc), 5);
	assert_string_equal(fray_doc_error_msg(doc, 0), "t.yaml:2:1: unknown key 'terain' (did you mean 'terrain'?)");
	assert_string_equal(fray_doc_error_msg(doc, 1), "t.yaml:1:8: expected a commitment level: a whole number from 1 to 5, found '7'");
	assert_string_equal(fray_doc_error_msg(doc, 2), "t.yaml:3:7: expected a unit type: one of warrior, regular, militia, rifle; found 'warior' (did you mean 'warrior'?)");
	assert_string_equal(fray_doc_error_msg(doc, 3), "t.yaml:4:9: expected severe: true or false");
	assert_string_equal(fray_doc_error_msg(doc, 4), "t.yaml:1:1: missing 'terrain'");
	fray_ctx_clear(ctx);
	assert_int_equal(fray_doc_status(doc), FRAY_ERR_INPUT);
	assert_string_equal(fray_ctx_message(ctx), fray_doc_error_msg(doc, 0));
	fray_doc_free(doc);
}

/* Checkers given no node (an item past the end of a list, a value looked up
 * in something that is not a map) say so instead of crashing. */
static void checks_of_nothing(void **state)
{
	(void)state;
	static const char text[] = "a: 1\n";
	fray_doc *doc;
	assert_int_equal(fray_doc_load_string(ctx, "t.yaml", text, strlen(text), &doc), FRAY_OK);
	int64_t v;
	bool b;
	const char *str;
	size_t k;
	static const char *const names[] = {"x"};
	assert_false(fray_doc_int(doc, fray_node_item(fray_doc_root(doc), 3), 0, 9, "a count", &v));
	assert_false(fray_doc_expect(doc, NULL, FRAY_NODE_SEQ, "a list"));
	assert_false(fray_doc_bool(doc, NULL, "a flag", &b));
	assert_false(fray_doc_string(doc, NULL, "a name", &str));
	assert_false(fray_doc_enum(doc, NULL, "a kind", names, 1, &k));
	assert_null(fray_doc_field(doc, NULL, "units", true));
	assert_true(fray_doc_known_keys(doc, NULL, names, 1));
	assert_int_equal(fray_doc_error_count(doc), 6);
	assert_string_equal(fray_doc_error_msg(doc, 0), "t.yaml: expected a count, found nothing");
	fray_doc_free(doc);
}

static void script_file(void **state)
{
	(void)state;
	fray_policy *p;
	fray_ctx_clear(ctx);
	assert_int_equal(fray_policy_script_load(ctx, FRAY_TEST_DATA "/script.yaml", &p), FRAY_OK);
	const char *const opts[] = {"hold", "retreat"};
	fray_choice c = {.kind = "k", .prompt = "q", .noptions = 2, .options = opts};
	char msg[128];
	assert_int_equal(fray_policy_choose(p, &c, msg, sizeof msg), 1);
	assert_int_equal(fray_policy_choose(p, &c, msg, sizeof msg), 0);
	fray_policy_free(p);

	assert_int_equal(fray_policy_script_load(ctx, FRAY_TEST_DATA "/bad-script.yaml", &p), FRAY_ERR_INPUT);
	assert_string_equal(fray_ctx_message(ctx), FRAY_TEST_DATA "/bad-script.yaml:3:5: expected an answer: a single value, found a list");
	fray_ctx_clear(ctx);
	/* a file that is not there is a bad name given: bad input (exit 2) */
	assert_int_equal(fray_policy_script_load(ctx, FRAY_TEST_DATA "/missing.yaml", &p), FRAY_ERR_INPUT);
	fray_ctx_clear(ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(tree_with_positions),
		cmocka_unit_test(quoted_scalars),
		cmocka_unit_test(empty_block_scalars),
		cmocka_unit_test(json_is_accepted),
		cmocka_unit_test(bad_files_say_where),
		cmocka_unit_test(nesting_and_size_are_limited),
		cmocka_unit_test(checks_collect_every_problem),
		cmocka_unit_test(checks_of_nothing),
		cmocka_unit_test(script_file),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
