/* Advice and solo play (issue 44 items 2 and 3): every legal action of a
 * unit now, with its targets and the options its player chooses among,
 * valued exactly under a goal from the exact odds of the action's first
 * roll (fray_game_odds: the game's own procedures, enumerated), ranked;
 * and play, which takes a side's best-ranked action through the game's
 * apply. What a goal means for each action is the rule set's advice
 * table (advise_presidio.c, advise_bbb.c, advise_chits.c): how an outcome
 * the procedure already decided counts, never a rule. docs/presidio.md,
 * bbb.md and chits.md, "Advice and solo play". */
#ifndef FRAY_GAME_ADVISE_H
#define FRAY_GAME_ADVISE_H

#include <stdbool.h>
#include <stddef.h>
#include <gmp.h>
#include "table.h"

typedef enum advise_goal { GOAL_WIN, GOAL_NOT_LOSE, GOAL_CASUALTIES, GOAL_HOLD, GOAL_N } advise_goal;
extern const char *const frayi_advise_goal_names[GOAL_N];

/* An option's words: "--mode", "volley" (a flag: one word). */
#define ADVISE_WORDS 12
#define ADVISE_WORD 48
typedef struct advise_words {
	char w[ADVISE_WORDS][ADVISE_WORD];
	size_t n;
} advise_words;

/* An event of one outcome of the action's first roll, for the headline:
 * "at least one casualty", "%s checks morale" (%s: the target's name). */
typedef struct advise_event {
	bool (*holds)(const fray_node *outcome);
	const char *says;
} advise_event;

#define ADVISE_VARIANTS 6
typedef struct advise_action {
	const char *action;
	/* the options its player chooses among (each NULL-ended words; none:
	 * the action as it is) */
	const char *const *variants[ADVISE_VARIANTS];
	/* the situation's options the player gives (an option and its
	 * default when not given: the words, NULL-ended) */
	const char *const *situation;
	/* how one outcome of the first roll counts toward goal g: a number
	 * of the enemy's losses, or 1 and 0 for an event */
	long (*worth)(const fray_node *outcome, advise_goal g);
	/* an action that rolls no dice: what it is worth, certain */
	long no_dice[GOAL_N];
	advise_event events[2];
	/* what the value is, in words, by goal ("expected casualties on %s") */
	const char *means[GOAL_N];
} advise_action;

typedef struct advise_rules {
	const char *rules;               /* the game_ruleset's id */
	const advise_action *actions;
	size_t nactions;
	/* the option variants the game itself offers (chits: the mix's
	 * tactics and how many chits each may draw against the stance the
	 * player gives, stance its word): up to cap into v, the count; NULL:
	 * the table's variants only */
	size_t (*variants)(const table_game *g, const advise_action *a, const char *stance, advise_words *v,
			   size_t cap);
} advise_rules;

extern const advise_rules frayi_advise_presidio, frayi_advise_bbb, frayi_advise_chits;

/* Outcome fields of a first roll's odds (the procedure's JSON names). */
long frayi_advise_int(const fray_node *o, const char *field);
bool frayi_advise_bool(const fray_node *o, const char *field);
const char *frayi_advise_str(const fray_node *o, const char *field);

/* One listed action, valued. */
typedef struct advice {
	char action[32];
	int target;                      /* a unit index, or -1 */
	advise_words words;              /* its options, as given to apply */
	double value;
	char exact[96];
	char headline[256], why[384];
	long double secondary;           /* expected losses: breaks ties */
	mpq_t q;                         /* the exact value */
} advice;

typedef struct advice_list {
	advise_goal goal;
	size_t unit;
	size_t n, cap;
	advice *a;                       /* best first */
} advice_list;

/* The player's options: n words as after the unit on fray table's
 * command line (fray_game_advise's), or, typed non-NULL, n typed options
 * (fray_game_advise_typed's). */
typedef struct advise_player {
	size_t n;
	const char *const *words;
	const fray_game_option *typed;
} advise_player;

/* The advice for unit now under goal, the player's options (NULL: none)
 * given to each action that takes them: into *out (free with
 * frayi_advice_free). FRAY_ERR_INPUT for an option no action of the unit
 * takes. */
int frayi_advise(fray_game *game, size_t unit, advise_goal goal, const advise_player *pl, advice_list *out);
void frayi_advice_free(fray_game *game, advice_list *l);
/* The advice as JSON ({"goal", "unit", "actions": [...]}) or text. */
int frayi_advice_render(fray_game *game, const advice_list *l, fray_format form, char **out);
/* One listed action as JSON (an element of "actions"). */
void frayi_advice_json(FILE *f, const fray_game *game, const advice *a);
/* A goal by name ("win", "not-lose", "casualties", "hold"); false for
 * none of them. */
bool frayi_advise_goal(const char *name, advise_goal *g);

/* game.c: an action's words applied as fray_game_act applies them, with
 * note first among its changes (play's reason, in the log). */
fray_status frayi_game_act_noted(fray_game *game, const char *note, size_t nwords, const char *const *words,
				 fray_policy *policy, char **json, char **text);

#endif
