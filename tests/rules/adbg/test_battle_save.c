/* The saved battle's format (include/fray/adbg_save.h): the text written
 * for a known state, read back field by field, a path that is not UTF-8
 * kept as its bytes, a corrupt save refused with its file:line:col, and
 * every allocation failed in turn. The expected texts are the format as
 * docs/adbg.md describes it, written out by hand here. */
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

/* tiny.yaml after its one round: Red's unit removed (status 4) in stack
 * 0, its leader gone from it (-1); Blue's unit in good order. */
static const char state_text[] = "round: 2\nrounds: 1\npositions: 1\nsides:\n"
				 "  - units: [[4, 0]]\n    stacks: [[0, 0, 1]]\n    leaders: [[-1, 0]]\n"
				 "  - units: [[0, 0]]\n    stacks: [[0, 0, 1]]\n    leaders: [[0, 0]]\n";

static fray_adbg_scenario *scenario;

static int load_scenario(void **state)
{
	if (setup(state))
		return -1;
	return fray_adbg_scenario_load(ctx, FRAY_TEST_DATA "/adbg/tiny.yaml", &scenario) == FRAY_OK ? 0 : -1;
}

static int free_scenario(void **state)
{
	fray_adbg_scenario_free(scenario);
	return teardown(state);
}

/* A battle state restored from state_text (on lctx). */
static fray_adbg_battle_state *restored(fray_ctx *lctx)
{
	fray_adbg_battle_state *st = fray_adbg_battle_new(lctx, scenario);
	fray_doc *doc = NULL;
	if (!st || fray_doc_load_string(lctx, "state", state_text, strlen(state_text), &doc) != FRAY_OK ||
	    !fray_adbg_battle_restore(st, doc, fray_doc_root(doc))) {
		fray_doc_free(doc);
		fray_adbg_battle_free(st);
		return NULL;
	}
	fray_doc_free(doc);
	return st;
}

static fray_adbg_save example(const char *path)
{
	fray_adbg_save sv = {.scenario_digest = 0x0123456789abcdefu, .policy_digest = 0xfedcba9876543210u,
			     .seed = 42, .policy_position = 7, .dice_position = 99};
	snprintf(sv.scenario, sizeof sv.scenario, "%s", path);
	snprintf(sv.policy, sizeof sv.policy, "heuristic");
	snprintf(sv.policy_b, sizeof sv.policy_b, "scripted:/p/\"s\".yaml");
	return sv;
}

static const char header[] = "# fray saved battle: go on with `fray adbg resume FILE`\n"
			     "fray_save: 2\nkind: adbg.battle\n";
static const char fields[] = "scenario_fnv1a: \"0123456789abcdef\"\npolicy_fnv1a: \"fedcba9876543210\"\n"
			     "seed: 42\npolicy: \"heuristic\"\npolicy_a: \"\"\npolicy_b: \"scripted:/p/\\\"s\\\".yaml\"\n"
			     "policy_position: 7\ndice_position: 99\n";

static char *save_of(const fray_adbg_save *sv, size_t *len)
{
	fray_adbg_battle_state *st = restored(ctx);
	assert_non_null(st);
	char *text = NULL;
	assert_int_equal(fray_adbg_save_text(ctx, sv, st, &text, len), FRAY_OK);
	fray_adbg_battle_free(st);
	assert_int_equal(strlen(text), *len);
	return text;
}

static void written_and_read_back(void **state)
{
	(void)state;
	fray_adbg_save sv = example("/games/tiny.yaml");
	size_t len;
	char *text = save_of(&sv, &len);
	char want[2048];
	snprintf(want, sizeof want, "%sscenario: \"/games/tiny.yaml\"\n%s%s", header, fields, state_text);
	assert_string_equal(text, want);

	fray_doc *doc;
	assert_int_equal(fray_doc_load_string(ctx, "save.yaml", text, len, &doc), FRAY_OK);
	fray_adbg_save back;
	assert_int_equal(fray_adbg_save_read(ctx, doc, &back), FRAY_OK);
	assert_string_equal(back.scenario, "/games/tiny.yaml");
	assert_string_equal(back.policy, "heuristic");
	assert_string_equal(back.policy_a, "");
	assert_string_equal(back.policy_b, "scripted:/p/\"s\".yaml");
	assert_int_equal(back.seed, 42);
	assert_int_equal(back.policy_position, 7);
	assert_int_equal(back.dice_position, 99);
	assert_true(fray_adbg_save_same_scenario(&back, 0x0123456789abcdefu));
	assert_false(fray_adbg_save_same_scenario(&back, 0x0123456789abcdeeu));
	assert_true(fray_adbg_save_same_policy(&back, 0xfedcba9876543210u));
	assert_false(fray_adbg_save_same_policy(&back, 0));
	/* the state reads back as it was */
	fray_adbg_battle_state *st = fray_adbg_battle_new(ctx, scenario);
	assert_true(fray_adbg_battle_restore(st, doc, fray_doc_root(doc)));
	char again[1024];
	assert_true(fray_adbg_battle_save(st, again, sizeof again) < sizeof again);
	assert_string_equal(again, state_text);
	fray_adbg_battle_free(st);
	fray_doc_free(doc);
	free(text);
}

/* /tmp/l\xe9.yaml (Latin-1, not UTF-8): its bytes 2f 74 6d 70 2f 6c e9 2e
 * 79 61 6d 6c, and back to the same bytes. */
static void a_path_not_utf8_is_kept_as_bytes(void **state)
{
	(void)state;
	fray_adbg_save sv = example("/tmp/l\xe9.yaml");
	size_t len;
	char *text = save_of(&sv, &len);
	assert_non_null(strstr(text, "\nscenario_bytes: \"2f746d702f6ce92e79616d6c\"\n"));
	assert_null(strstr(text, "\nscenario:"));
	assert_int_equal(fray_ctx_status(ctx), FRAY_OK); /* no failure left behind */
	fray_doc *doc;
	assert_int_equal(fray_doc_load_string(ctx, "save.yaml", text, len, &doc), FRAY_OK);
	fray_adbg_save back;
	assert_int_equal(fray_adbg_save_read(ctx, doc, &back), FRAY_OK);
	assert_string_equal(back.scenario, "/tmp/l\xe9.yaml");
	fray_doc_free(doc);
	free(text);
}

/* A save's text with line `line` (1-based, counting the comment) replaced. */
static char *with_line(int line, const char *instead)
{
	fray_adbg_save sv = example("/games/tiny.yaml");
	size_t len;
	char *text = save_of(&sv, &len);
	char *out = malloc(len + strlen(instead) + 2);
	assert_non_null(out);
	const char *p = text;
	for (int i = 1; i < line; i++)
		p = strchr(p, '\n') + 1;
	const char *rest = strchr(p, '\n') + 1;
	sprintf(out, "%.*s%s\n%s", (int)(p - text), text, instead, rest);
	free(text);
	return out;
}

/* The problems a corrupt save gives: the context's one reason, or the
 * document's, joined by newlines. */
static void problems(const char *text, fray_status want, char *out, size_t cap)
{
	fray_ctx_clear(ctx);
	fray_doc *doc;
	assert_int_equal(fray_doc_load_string(ctx, "bad.yaml", text, strlen(text), &doc), FRAY_OK);
	fray_adbg_save sv;
	assert_int_equal(fray_adbg_save_read(ctx, doc, &sv), want);
	out[0] = '\0';
	if (fray_ctx_status(ctx) != FRAY_OK)
		snprintf(out, cap, "%s", fray_ctx_message(ctx));
	else
		for (size_t i = 0; i < fray_doc_error_count(doc); i++)
			snprintf(out + strlen(out), cap - strlen(out), "%s\n", fray_doc_error_msg(doc, i));
	fray_doc_free(doc);
	fray_ctx_clear(ctx);
}

static void a_corrupt_save_is_refused_at_its_place(void **state)
{
	(void)state;
	char got[2048];
	/* not a save at all: the file's start */
	problems("- 1\n", FRAY_ERR_INPUT, got, sizeof got);
	assert_string_equal(got, "bad.yaml:1:1: expected a fray save file");
	problems("# a comment\nkind: adbg.battle\n", FRAY_ERR_INPUT, got, sizeof got);
	assert_string_equal(got, "bad.yaml:1:1: expected a fray save file");
	/* another version: line 2 (after the comment), its value at column 12 */
	char *t = with_line(2, "fray_save: 3");
	problems(t, FRAY_ERR_INPUT, got, sizeof got);
	assert_string_equal(got, "bad.yaml:2:12: save format version 3 is not one this fray reads (version 2)");
	free(t);
	/* another kind (line 3) */
	t = with_line(3, "kind: adbg.sweep");
	problems(t, FRAY_ERR_INPUT, got, sizeof got);
	assert_string_equal(got, "bad.yaml:3:7: expected kind adbg.battle, found 'adbg.sweep'\n");
	free(t);
	/* the scenario's path as bytes that are not hexadecimal (line 4) */
	t = with_line(4, "scenario_bytes: \"2f7g\"");
	problems(t, FRAY_ERR_INPUT, got, sizeof got);
	assert_string_equal(got, "bad.yaml:4:17: expected the scenario's path as hexadecimal bytes\n");
	free(t);
	/* a negative seed (line 7), and a key no save has */
	t = with_line(7, "seed: -4\nsead: 4");
	problems(t, FRAY_ERR_INPUT, got, sizeof got);
	assert_non_null(strstr(got, "bad.yaml:8:1: unknown key 'sead'"));
	assert_non_null(strstr(got, "bad.yaml:7:7: expected the seed"));
	free(t);
	/* the dice position missing: said at the map (line 2, after the comment) */
	t = with_line(12, "# no dice_position");
	problems(t, FRAY_ERR_INPUT, got, sizeof got);
	assert_string_equal(got, "bad.yaml:2:1: missing 'dice_position'\n");
	free(t);
}

/* Out of memory: fail the k-th allocation (and every one after it) for
 * every k along a save written and read back; each step fails with
 * FRAY_ERR_NOMEM and keeps nothing (ASan finds a leak), until one k is
 * enough for the whole. */
static bool save_under(void *ud, long k)
{
	fray_meter *f = ud;
	*f = (fray_meter){.sticky = true};
	fray_meter_fail(f, k);
	fray_ctx *lctx = fray_ctx_new(fray_metered, f);
	if (!lctx)
		return false;
	fray_adbg_battle_state *st = restored(lctx);
	fray_status s = st ? FRAY_OK : FRAY_ERR_NOMEM;
	char *text = NULL;
	size_t len = 0;
	fray_adbg_save sv = example("/tmp/l\xe9.yaml"), back;
	if (s == FRAY_OK)
		s = fray_adbg_save_text(lctx, &sv, st, &text, &len);
	fray_doc *doc = NULL;
	if (s == FRAY_OK)
		s = fray_doc_load_string(lctx, "save.yaml", text, len, &doc);
	if (s == FRAY_OK)
		s = fray_adbg_save_read(lctx, doc, &back);
	if (s != FRAY_OK) {
		assert_int_equal(s, FRAY_ERR_NOMEM);
	} else {
		assert_string_equal(back.scenario, sv.scenario);
	}
	fray_doc_free(doc);
	free(text);
	fray_adbg_battle_free(st);
	fray_ctx_free(lctx);
	return s == FRAY_OK;
}

static void out_of_memory(void **state)
{
	(void)state;
	fray_meter f;
	assert_true(fray_walk_all(save_under, &f, 100000) > 4); /* the state, the text, the document */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(written_and_read_back),
		cmocka_unit_test(a_path_not_utf8_is_kept_as_bytes),
		cmocka_unit_test(a_corrupt_save_is_refused_at_its_place),
		cmocka_unit_test(out_of_memory),
	};
	return cmocka_run_group_tests(tests, load_scenario, free_scenario);
}
