/* The game's actions by command-line words in the tests written before
 * fray_game_apply took typed options (issue 42): the words go through
 * fray_game_act, fray table's door, as they did through fray_game_apply
 * then. The typed door has its own test (test_game_apply.c). */
#ifndef FRAY_TEST_GAME_WORDS_H
#define FRAY_TEST_GAME_WORDS_H

#include <stdlib.h>
#include <fray/fray.h>

/* ACTION [UNIT] [--at TARGET] OPTIONS... (at most 32 option words). */
static inline size_t game_words_of(const char **w, const char *action, const char *actor, const char *target,
				   size_t n, const char *const *opts)
{
	size_t k = 0;
	w[k++] = action;
	if (actor)
		w[k++] = actor;
	if (target) {
		w[k++] = "--at";
		w[k++] = target;
	}
	for (size_t i = 0; i < n && i < 32; i++)
		w[k++] = opts[i];
	return k;
}

static inline fray_status apply_words(fray_game *game, const char *action, const char *actor, const char *target,
				      size_t n, const char *const *opts, fray_policy *policy, char **events)
{
	const char *w[40];
	size_t k = game_words_of(w, action, actor, target, n, opts);
	return fray_game_act(game, k, w, policy, events ? "json" : NULL, events);
}

static inline fray_status odds_words(fray_game *game, const char *action, const char *actor, const char *target,
				     size_t n, const char *const *opts, fray_format form, char **out)
{
	const char *w[40];
	size_t k = game_words_of(w, action, actor, target, n, opts);
	return fray_game_act_odds(game, k, w, form, out);
}

#endif
