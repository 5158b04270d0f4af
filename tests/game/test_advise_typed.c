/* Advice and solo play with typed options (fray_game_advise_typed,
 * fray_game_play_typed; issue 42: api/v1/game's "options" object no
 * longer goes through words): the same answer as the words give, a false
 * flag left out, '_' read as '-', a whole number given as a number, and
 * the refusals naming the option as the words' do. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <fray/game.h>
#include "../test_util.h"
#include "example_game.h"

static fray_game *new_game(uint64_t seed)
{
	return example_game(ctx, "presidio", "presidio/forces.yaml", seed);
}

static char *advise_words(fray_game *g, size_t n, const char *const *w)
{
	char *out = NULL;
	if (fray_game_advise(g, "Cueras", "casualties", n, w, FRAY_FORMAT_JSON, &out) != FRAY_OK)
		fail_msg("advise (words): %s", fray_ctx_message(ctx));
	return out;
}

static char *advise_typed(fray_game *g, size_t n, const fray_game_option *o)
{
	char *out = NULL;
	if (fray_game_advise_typed(g, "Cueras", "casualties", n, o, FRAY_FORMAT_JSON, &out) != FRAY_OK)
		fail_msg("advise (typed): %s", fray_ctx_message(ctx));
	return out;
}

static void same_as_words(void **state)
{
	(void)state;
	fray_game *g = new_game(3);
	const char *w[] = {"--range", "8", "--cover", "partial", "--taking-cover"};
	char *want = advise_words(g, 5, w);
	fray_game_option o[] = {
		{.name = "range", .kind = FRAY_GAME_INT, .i = 8},
		{.name = "cover", .kind = FRAY_GAME_TEXT, .s = "partial"},
		{.name = "taking_cover", .kind = FRAY_GAME_BOOL, .b = true},
		{.name = "evading", .kind = FRAY_GAME_BOOL, .b = false}, /* not given */
	};
	char *got = advise_typed(g, 4, o);
	assert_string_equal(got, want);
	free(got);
	/* a whole number given as a number */
	o[0] = (fray_game_option){.name = "range", .kind = FRAY_GAME_NUMBER, .x = 8.0};
	got = advise_typed(g, 4, o);
	assert_string_equal(got, want);
	free(got);
	/* and another range gives other advice: the value is read */
	o[0].x = 2;
	got = advise_typed(g, 4, o);
	assert_string_not_equal(got, want);
	free(got);
	free(want);
	fray_game_free(g);
}

/* A refusal of o: FRAY_ERR_INPUT, no answer, the message holding each of
 * the words. */
static void refused(fray_game *g, fray_game_option o, const char *a, const char *b)
{
	char *out = NULL;
	if (fray_game_advise_typed(g, "Cueras", NULL, 1, &o, FRAY_FORMAT_JSON, &out) != FRAY_ERR_INPUT)
		fail_msg("%s: not refused", o.name ? o.name : "(no name)");
	assert_null(out);
	if (!strstr(fray_ctx_message(ctx), a) || !strstr(fray_ctx_message(ctx), b))
		fail_msg("'%s' does not say %s and %s", fray_ctx_message(ctx), a, b);
	fray_ctx_clear(ctx);
}

static void refusals(void **state)
{
	(void)state;
	fray_game *g = new_game(3);
	refused(g, (fray_game_option){.name = "tactic", .kind = FRAY_GAME_TEXT, .s = "hasty"}, "--tactic",
		"not an option");
	refused(g, (fray_game_option){.name = "range", .kind = FRAY_GAME_BOOL, .b = true}, "--range", "needs a value");
	refused(g, (fray_game_option){.name = "range", .kind = FRAY_GAME_INT, .i = 100001}, "--range", "100001");
	refused(g, (fray_game_option){.name = "range", .kind = FRAY_GAME_NUMBER, .x = -1.5}, "--range", "-1.5");
	refused(g, (fray_game_option){.name = "cover", .kind = FRAY_GAME_TEXT, .s = "tent"}, "--cover", "tent");
	refused(g, (fray_game_option){.name = "held", .kind = FRAY_GAME_TEXT, .s = "maybe"}, "--held", "maybe");
	refused(g, (fray_game_option){.name = NULL, .kind = FRAY_GAME_INT}, "option 0", "no name");
	char *out = NULL;
	assert_int_equal(fray_game_advise_typed(g, "Cueras", NULL, 1, NULL, FRAY_FORMAT_JSON, &out), FRAY_ERR_INPUT);
	fray_ctx_clear(ctx);
	assert_int_equal(fray_game_play_typed(g, "France", NULL, 0, NULL, FRAY_FORMAT_JSON, &out), FRAY_ERR_INPUT);
	assert_null(out);
	fray_ctx_clear(ctx);
	fray_game_free(g);
}

/* Two games from one seed, one played with words and one typed, move
 * for move: the same moves and the same game files. */
static void play_same_as_words(void **state)
{
	(void)state;
	fray_game *a = new_game(11), *b = new_game(11);
	const char *w[] = {"--range", "6"};
	fray_game_option o[] = {{.name = "range", .kind = FRAY_GAME_INT, .i = 6}};
	const char *sides[] = {"Spain", "Apache"};
	for (int i = 0; i < 4; i++) {
		char *x = NULL, *y = NULL;
		assert_int_equal(fray_game_play(a, sides[i % 2], "win", 2, w, FRAY_FORMAT_JSON, &x), FRAY_OK);
		assert_int_equal(fray_game_play_typed(b, sides[i % 2], "win", 1, o, FRAY_FORMAT_JSON, &y), FRAY_OK);
		assert_string_equal(x, y);
		free(x);
		free(y);
		const char *ta, *tb;
		size_t la, lb;
		fray_game_save(a, &ta, &la);
		fray_game_save(b, &tb, &lb);
		assert_int_equal(la, lb);
		assert_memory_equal(ta, tb, la);
	}
	assert_true(fray_game_log_len(a) > 0);
	fray_game_free(a);
	fray_game_free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(same_as_words),
		cmocka_unit_test(refusals),
		cmocka_unit_test(play_same_as_words),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
