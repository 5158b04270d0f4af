/* The game's typed door (game_apply.c): typed options checked against the
 * action's descriptors and made the words of the log's command. */
#ifndef FRAY_GAME_APPLY_H
#define FRAY_GAME_APPLY_H

#include <fray/game.h>

/* Options an action takes at once (the most an action describes is
 * ACTION_MAX_OPTIONS), and a word's bytes (a value, "--name"). */
#define GAME_MAX_OPTIONS 32
#define GAME_WORD_MAX 96

/* An action's words: ACTION [UNIT] [--at TARGET] then each option's. */
typedef struct game_words {
	const char *word[2 * GAME_MAX_OPTIONS + 4];
	char text[2 * GAME_MAX_OPTIONS + 4][GAME_WORD_MAX];
	size_t n;
} game_words;

/* The options checked against the action's descriptors, as the
 * descriptors say (kind, range, choices, given twice, excludes, required;
 * an unknown name refused with the action's options listed), each
 * failure FRAY_ERR_INPUT on the game's context naming the option
 * (fray_ctx_input); then the words into w. "set": each option a unit's
 * field (KEY=VALUE, checked by the action). */
fray_status frayi_game_words(fray_game *game, const char *action, const char *actor, const char *target, size_t n,
			     const fray_game_option *opts, game_words *w);
/* A number as its shortest text that reads back the same ("10", never
 * "1e+01"). */
void frayi_number_text(double x, char *dst, size_t cap);
/* The action's words run on the game (fray_game_act's core): what
 * happened into *events (JSON) and *story (the text fray table prints),
 * each malloc'd, NULL when not wanted; a failure leaves the game as it
 * was. */
fray_status frayi_game_act_words(fray_game *game, size_t nwords, const char *const *words, fray_policy *policy,
				 char **events, char **story);

#endif
