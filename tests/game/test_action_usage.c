/* An action's usage line (issue 42: made into the caller's buffer, no
 * longer a static table): the refusals that carry it ("needs --at TARGET",
 * "takes no --at", "needs a unit") say the same line fray_game_rule_set_action
 * gives, for every action of every rule set that has one. */
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

/* words refused, the message ending in "ACTION USAGE" */
static void says_usage(fray_game *g, size_t n, const char *const *words, const char *action, const char *usage)
{
	assert_int_equal(fray_game_act(g, n, words, NULL, NULL, NULL), FRAY_ERR_INPUT);
	char want[2048];
	snprintf(want, sizeof want, ": %s %s", action, usage);
	const char *msg = fray_ctx_message(ctx);
	size_t lm = strlen(msg), lw = strlen(want);
	if (lm < lw || strcmp(msg + lm - lw, want))
		fail_msg("'%s' does not end in '%s'", msg, want);
	fray_ctx_clear(ctx);
}

static void refusals_carry_usage(void **state)
{
	(void)state;
	static const char *const games[][2] = {
		{"presidio", "presidio/forces.yaml"}, {"bbb", "bbb/forces.yaml"}, {"chits", "chits/forces.yaml"}};
	size_t checked = 0;
	for (size_t k = 0; k < sizeof games / sizeof games[0]; k++) {
		fray_game *g = example_game(ctx, games[k][0], games[k][1], 1);
		const char *unit = fray_game_unit(g, 0), *other = fray_game_unit(g, 1), *usage;
		const char *action;
		for (size_t i = 0; (action = fray_game_rule_set_action(games[k][0], i, &usage)); i++) {
			assert_true(strncmp(usage, "UNIT", 4) == 0);
			const char *no_unit[] = {action};
			says_usage(g, 1, no_unit, action, usage);
			const char *at_wrong[] = {action, unit, "--at", other};
			const char *no_at[] = {action, unit};
			if (strstr(usage, "--at TARGET"))
				says_usage(g, 2, no_at, action, usage);
			else
				says_usage(g, 4, at_wrong, action, usage);
			checked++;
		}
		fray_game_free(g);
	}
	assert_true(checked >= 6);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(refusals_carry_usage),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
