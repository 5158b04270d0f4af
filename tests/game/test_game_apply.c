/* fray_game_apply's typed options (issue 42): each kind an action's
 * descriptor takes (a number, a whole number, a choice, a flag, a unit's
 * field for set) gives the game the same words give through fray table's
 * door; each value the descriptor refuses (out of range, of another kind,
 * not a choice, an unknown name, given twice, with an option it excludes,
 * a needed one left out) is FRAY_ERR_INPUT naming the option, the game
 * left as it was. Expected words and limits are the descriptors' as
 * docs/table.md gives them (shoot: --range 0..100000, --actions 1..2,
 * --mode volley|independent|...; --range excludes --band). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "../test_util.h"

/* A new Presidio game from the shipped forces, seed 5. */
static fray_game *presidio(void)
{
	char path[512];
	snprintf(path, sizeof path, "%s/examples/presidio/forces.yaml", FRAY_SOURCE_DIR);
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	static char forces[65536];
	size_t len = fread(forces, 1, sizeof forces, f);
	fclose(f);
	fray_game *game;
	if (fray_game_new(ctx, "typed.yaml", "presidio", path, forces, len, 5, NULL, NULL, &game) != FRAY_OK)
		fail_msg("new: %s", fray_ctx_message(ctx));
	return game;
}

static void same_bytes(const fray_game *a, const fray_game *b)
{
	const char *x, *y;
	size_t nx, ny;
	fray_game_save(a, &x, &nx);
	fray_game_save(b, &y, &ny);
	if (nx != ny || memcmp(x, y, nx) != 0)
		fail_msg("the typed door's game (%zu bytes) differs from the words' (%zu)", nx, ny);
}

#define INT(n, v) {.name = (n), .kind = FRAY_GAME_INT, .i = (v)}
#define NUM(n, v) {.name = (n), .kind = FRAY_GAME_NUMBER, .x = (v)}
#define FLAG(n, v) {.name = (n), .kind = FRAY_GAME_BOOL, .b = (v)}
#define TEXT(n, v) {.name = (n), .kind = FRAY_GAME_TEXT, .s = (v)}

/* Each kind, and the same game as the words give it; the log's command
 * is the words. */
static void each_kind(void **state)
{
	(void)state;
	static const struct {
		fray_game_option opts[6];
		size_t n;
		const char *words;       /* after "shoot Presidials --at Apaches" */
	} rows[] = {
		{{INT("range", 10)}, 1, "--range 10"},
		{{NUM("range", 10.0)}, 1, "--range 10"},
		{{NUM("range", 7.5)}, 1, "--range 7.5"},
		{{INT("range", 10), TEXT("mode", "volley"), TEXT("cover", "partial"), FLAG("taking-cover", true)}, 4,
		 "--range 10 --mode volley --cover partial --taking-cover"},
		/* the request's spelling and the input's both name it; false: not given */
		{{INT("range", 10), FLAG("taking_cover", true), FLAG("evading", false)}, 3, "--range 10 --taking-cover"},
		{{TEXT("band", "close"), INT("actions", 1)}, 2, "--band close --actions 1"},
	};
	for (size_t r = 0; r < sizeof rows / sizeof *rows; r++) {
		fray_game *typed = presidio(), *worded = presidio();
		char *events = NULL;
		if (fray_game_apply(typed, "shoot", "Presidials", "Apaches", rows[r].n, rows[r].opts, NULL, &events) !=
		    FRAY_OK)
			fail_msg("row %zu: %s", r, fray_ctx_message(ctx));
		assert_non_null(strstr(events, "\"procedure\": \"presidio.shoot\""));
		free(events);
		char command[512];
		snprintf(command, sizeof command, "shoot Presidials --at Apaches %s", rows[r].words);
		assert_string_equal(fray_game_log_command(typed, 0), command);
		const char *w[16] = {"shoot", "Presidials", "--at", "Apaches"};
		size_t n = 4;
		char copy[512];
		snprintf(copy, sizeof copy, "%s", rows[r].words);
		for (char *t = strtok(copy, " "); t; t = strtok(NULL, " "))
			w[n++] = t;
		assert_int_equal(fray_game_act(worded, n, w, NULL, NULL, NULL), FRAY_OK);
		same_bytes(typed, worded);
		fray_game_free(typed);
		fray_game_free(worded);
	}
	/* set: a unit's fields, each its kind */
	fray_game *game = presidio();
	fray_game_option set[] = {INT("figures", 5), FLAG("mounted", true), TEXT("status", "disordered")};
	assert_int_equal(fray_game_apply(game, "set", "Apaches", NULL, 3, set, NULL, NULL), FRAY_OK);
	assert_string_equal(fray_game_log_command(game, 0), "set Apaches figures=5 mounted=true status=disordered");
	fray_game_free(game);
}

/* Each refusal names its option (fray_ctx_input), and changes nothing. */
static void refused_naming_the_option(void **state)
{
	(void)state;
	static const struct {
		fray_game_option opts[3];
		size_t n;
		const char *input, *says;
	} rows[] = {
		{{INT("range", -1)}, 1, "range", "options.range: expected a number from 0 to 100000, got '-1'"},
		{{INT("range", 100001)}, 1, "range", "options.range: expected a number from 0 to 100000"},
		{{NUM("range", 0.0 / 0.0)}, 1, "range", "options.range: expected a number"},
		{{TEXT("range", "ten")}, 1, "range", "options.range: expected a number"},
		{{INT("range", 10), NUM("actions", 1.5)}, 2, "actions", "options.actions: expected a whole number from 1 to 2"},
		{{INT("range", 10), INT("actions", 3)}, 2, "actions", "options.actions: expected a whole number from 1 to 2"},
		{{INT("range", 10), TEXT("mode", "salvo")}, 2, "mode", "options.mode: expected one of volley, independent"},
		{{INT("range", 10), INT("held", 1)}, 2, "held", "options.held: expected true or false"},
		{{INT("range", 10), INT("rnge", 3)}, 2, "options", "'rnge' is not an option of shoot (its options: range, "},
		{{INT("range", 10), INT("range", 11)}, 2, "range", "options.range: given twice"},
		{{INT("range", 10), TEXT("band", "close")}, 2, "band", "options.range and options.band: a range picks the band"},
		{{TEXT("mode", "volley")}, 1, "range", "options.range: shoot needs it"},
	};
	fray_game *game = presidio();
	const char *before;
	size_t len;
	fray_game_save(game, &before, &len);
	char *was = strndup(before, len);
	for (size_t r = 0; r < sizeof rows / sizeof *rows; r++) {
		fray_ctx_clear(ctx);
		fray_status st = fray_game_apply(game, "shoot", "Presidials", "Apaches", rows[r].n, rows[r].opts, NULL, NULL);
		if (st != FRAY_ERR_INPUT || !strstr(fray_ctx_message(ctx), rows[r].says))
			fail_msg("row %zu: status %d, '%s', not '%s'", r, st, fray_ctx_message(ctx), rows[r].says);
		if (!fray_ctx_input(ctx) || strcmp(fray_ctx_input(ctx), rows[r].input))
			fail_msg("row %zu: input '%s', not '%s'", r, fray_ctx_input(ctx) ? fray_ctx_input(ctx) : "(none)",
				 rows[r].input);
		/* the odds check the same way */
		char *out = NULL;
		fray_ctx_clear(ctx);
		assert_int_equal(fray_game_odds(game, "shoot", "Presidials", "Apaches", rows[r].n, rows[r].opts,
						FRAY_FORMAT_JSON, &out), FRAY_ERR_INPUT);
		assert_null(out);
		const char *now;
		fray_game_save(game, &now, &len);
		assert_int_equal(len, strlen(was));
		assert_memory_equal(now, was, len);
		assert_int_equal(fray_game_log_len(game), 0);
	}
	/* an action that takes no options */
	fray_ctx_clear(ctx);
	fray_game_option one[] = {INT("range", 10)};
	assert_int_equal(fray_game_apply(game, "turn", NULL, NULL, 1, one, NULL, NULL), FRAY_ERR_INPUT);
	assert_string_equal(fray_ctx_input(ctx), "action");
	free(was);
	fray_game_free(game);
}

/* The odds by typed options are the odds by words. */
static void odds_typed(void **state)
{
	(void)state;
	fray_game *game = presidio();
	fray_game_option o[] = {INT("range", 10), TEXT("mode", "volley")};
	char *typed = NULL, *worded = NULL;
	assert_int_equal(fray_game_odds(game, "shoot", "Presidials", "Apaches", 2, o, FRAY_FORMAT_TEXT, &typed), FRAY_OK);
	const char *w[] = {"shoot", "Presidials", "--at", "Apaches", "--range", "10", "--mode", "volley"};
	assert_int_equal(fray_game_act_odds(game, 8, w, FRAY_FORMAT_TEXT, &worded), FRAY_OK);
	assert_string_equal(typed, worded);
	free(typed);
	free(worded);
	fray_game_free(game);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(each_kind),
		cmocka_unit_test(refused_naming_the_option),
		cmocka_unit_test(odds_typed),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
