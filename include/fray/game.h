/* The game (docs/table.md): a game file's forces and log, actions applied
 * with the follow-ups the rules prescribe, undo, and the file's text: what
 * `fray table` does, without files, locks or a terminal. A game is its
 * file's text: every call that changes it makes the new text exactly as
 * `fray table` writes it (same seed, same actions: the same bytes).
 *
 * Ownership as for the whole API (fray.h): fray_game_load's and
 * fray_game_new's game is the caller's, freed with fray_game_free; pointers
 * handed out are borrowed, valid until the next call that changes the game
 * (apply, act, undo) or its free. The game's memory comes from its
 * context's allocator (fray_ctx_new); texts handed out through char **
 * are malloc'd, free() them (copied there when the context has an
 * allocator of its own, as the catalogue's texts are). Fallible calls return a fray_status with a one-line message on
 * the context: FRAY_ERR_INPUT for a game file that does not read (its
 * name, line and column), an unknown action, unit or option, an action
 * the rules refuse (a panicked unit shooting, a Silenced gun firing);
 * FRAY_ERR_POLICY when the policy gave no answer; FRAY_ERR_LIMIT for a
 * game file past FRAY_GAME_MAX_BYTES, or an action that would make it
 * so; FRAY_ERR_NOMEM. A
 * refused action, or one that ran out of memory, leaves the game as it
 * was. */
#ifndef FRAY_GAME_H
#define FRAY_GAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <fray/ctx.h>
#include <fray/catalog.h>
#include <fray/format.h>
#include <fray/data.h>
#include <fray/policy.h>

typedef struct fray_game fray_game;

/* A game file's size budget, one for every reader and writer of a game
 * (fray table, fray report, fray_game_load, api/v1/game in fray serve and
 * the WebAssembly worker; docs/table.md): a file past it is refused where
 * it is read, and an action whose new file would pass it is refused with
 * nothing changed (FRAY_ERR_LIMIT). 2016 KiB: a game travels in
 * api/v1/game's request as a JSON string, where each of its bytes takes at
 * most two (a YAML file holds no control character but tab, line feed and
 * carriage return, each escaped in two bytes, as are '"' and '\'), and
 * twice this budget plus 64 KiB for the request's other fields is the
 * 4 MiB a JSON request may have (FRAY_DOC_MAX_BYTES): every game that
 * reads can be sent back, undone and shown (include/fray/api.h). */
#define FRAY_GAME_MAX_BYTES ((FRAY_DOC_MAX_BYTES - (64u << 10)) / 2)

/* Reads a game file's len bytes (name: for messages, "skirmish.yaml"),
 * checked whole as `fray table` reads one; more than FRAY_GAME_MAX_BYTES
 * is FRAY_ERR_LIMIT, refused before a byte is read. */
fray_status fray_game_load(fray_ctx *ctx, const char *name, const char *bytes, size_t len, fray_game **out);
/* A new game, as `fray table new` makes one (the same seed and forces:
 * the same bytes): rules "presidio", "bbb" or "chits"; the forces file's
 * len bytes (forces_name: its name for messages, and the place the files
 * it names are resolved beside); seed the game's dice. The files a forces
 * file names (a Presidio units_file, a chits mix) are opened by open with
 * ud (their paths resolved beside forces_name; for a caller that serves
 * them from elsewhere, or refuses them); open NULL: fray_doc_load_file.
 * name: the game's, for messages ("skirmish.yaml"). FRAY_ERR_INPUT for an
 * unknown rule set or a forces file that does not read (its name, line
 * and column). */
fray_status fray_game_new(fray_ctx *ctx, const char *name, const char *rules, const char *forces_name,
			  const char *forces, size_t len, uint64_t seed, fray_doc_open_fn open, void *ud,
			  fray_game **out);
/* The game file's text as it stands (not NUL-terminated: *len bytes). */
fray_status fray_game_save(const fray_game *game, const char **bytes, size_t *len);
/* The rule sets a game may be played by: the i-th one's id, NULL past the
 * end (what fray_game_new's rules takes). These ids, and the actions'
 * names and usages below, are static strings. */
const char *fray_game_rule_set(size_t i);
/* The actions rule set `rules` (fray_game_rule_set's id) offers: the i-th
 * one's name ("shoot"), NULL past the end or for an unknown rule set; and
 * when usage is not NULL, *usage its words as a player gives them after
 * the name, made from the action's typed options ("UNIT --at TARGET
 * --range 0..100000 [--mode volley|...] ... [more options: --band, ...]:
 * what it does"). Besides these every game takes turn, set and undo. */
const char *fray_game_rule_set_action(const char *rules, size_t i, const char **usage);
/* The rule set's id ("presidio", "bbb", "chits"), the turn. */
const char *fray_game_rules(const fray_game *game);
int fray_game_turn(const fray_game *game);
/* The units: how many, and unit i's name (NULL past the end). */
size_t fray_game_units(const fray_game *game);
const char *fray_game_unit(const fray_game *game, size_t i);
/* The actions unit i may take now, as the rules say (a panicked Presidio
 * unit only rallies, a Silenced gun does not fire, a unit out of the
 * fight takes none): up to cap names into names (static strings), the
 * count returned. "turn" (the turn's end) is the game's, not a unit's. */
size_t fray_game_actions(const fray_game *game, size_t unit, const char **names, size_t cap);
/* The units unit may take as the target of action now, as the rules say
 * (BBB's fire and assault, a chits combat: the other side's units in play;
 * Presidio: the other side's units whose standing lets them be shot at,
 * meleed, charged or pursued; never the unit itself): up to cap unit indexes into targets in
 * the game's order, the count returned. The checks are the ones applying
 * the action makes of its target; 0 for an action that takes no target or
 * that the unit may not take now (fray_game_actions). The game's context
 * is left as it was. */
size_t fray_game_targets(const fray_game *game, size_t unit, const char *action, size_t *targets, size_t cap);
/* An action's option, typed (issue 42): name as the action's descriptors
 * name it ("range", "taking-cover" or "taking_cover"; fray_game_rule_set_action's
 * usage lists them, api/v1/game's "actions" op describes them), and its
 * value in the member its kind says: i (FRAY_GAME_INT), x
 * (FRAY_GAME_NUMBER), b (FRAY_GAME_BOOL: false is the flag not given) or
 * s (FRAY_GAME_TEXT: a choice's word, a weapon's name; borrowed for the
 * call). A whole number may be given as either number kind. */
typedef enum fray_game_value {
	FRAY_GAME_INT, FRAY_GAME_NUMBER, FRAY_GAME_BOOL, FRAY_GAME_TEXT
} fray_game_value;
typedef struct fray_game_option {
	const char *name;
	fray_game_value kind;
	int64_t i;
	double x;
	bool b;
	const char *s;
} fray_game_option;
/* Applies an action: action ("shoot", "charge", "assault", "turn", "set"...),
 * the acting unit by name (NULL for "turn"), the target (NULL for none)
 * and noptions typed options. Each option is checked as the action's
 * descriptor says before anything is rolled: a name the action does not
 * describe, a value of another kind, out of range or not one of the
 * choices, an option given twice or with one it excludes, or one the
 * action needs left out: FRAY_ERR_INPUT, its message naming the option
 * ("options.range: ..."; fray_ctx_input gives the name). "set" takes the
 * unit's fields as options (name: the field's key), checked as a forces
 * file's fields are. At most 32 options (FRAY_ERR_LIMIT). A choice the
 * options leave open goes to policy (the charge reaction; NULL: the
 * option is needed). *events gets what happened as JSON, the shape `fray
 * table ... --json` prints ({"turn", "steps": each roll with its events,
 * "changes"}): malloc'd, free() it (may be NULL when not wanted). The
 * log's command is the action's words as fray table takes them
 * ("shoot Presidials --at Apaches --range 10"). Before issue 42 the
 * options were command-line words. */
fray_status fray_game_apply(fray_game *game, const char *action, const char *actor, const char *target,
			    size_t noptions, const fray_game_option *options, fray_policy *policy, char **events);
/* The same, the action as fray table's command line has it after the
 * game file (fray table's door; the options any of the action's
 * procedures takes, as the command line gives them): words ACTION [UNIT] [--at TARGET] [options] ("shoot", "Cueras",
 * "--at", "Apaches", "--range", "10"), or "turn", or "set" UNIT KEY=VALUE...
 * (the words a shell passes on: the messages are fray table's). *out (NULL
 * when format is NULL: nothing wanted) gets what happened: format "json"
 * as fray_game_apply's events, "text" the story `fray table` prints (each
 * roll's story, then "=> CHANGE" lines, names from the file escaped for a
 * terminal): malloc'd, free() it. */
fray_status fray_game_act(fray_game *game, size_t nwords, const char *const *words, fray_policy *policy,
			  const char *format, char **out);
/* The exact odds of the action's first procedure from the game as it
 * stands: the inputs apply would give it (the units' fields and the
 * options, typed and checked as fray_game_apply's), as `fray table GAME ACTION ... --odds` gives them and as
 * `fray <set> <proc> --odds` renders them (format FRAY_FORMAT_JSON or
 * FRAY_FORMAT_TEXT, a boolean before issue 42; another:
 * FRAY_ERR_INPUT): *out malloc'd, free() it. Nothing is rolled and the game is
 * unchanged. A charge's odds are its fear-of-charge check's, so no
 * reaction is needed. FRAY_ERR_INPUT also for an action that rolls no
 * dice (reload, set, a panicked unit's surrender). */
fray_status fray_game_odds(fray_game *game, const char *action, const char *actor, const char *target,
			   size_t noptions, const fray_game_option *options, fray_format format, char **out);
/* The same odds, the action as fray_game_act's words. */
fray_status fray_game_act_odds(fray_game *game, size_t nwords, const char *const *words, fray_format format, char **out);
/* The budgets of game's exact odds from now on (fray_game_odds,
 * fray_game_act_odds, and the odds fray_game_advise and fray_game_play
 * weigh): budget's max_paths and max_bytes (0: the engine's), stop,
 * progress and ud, as fray_call_run takes them; its other members are
 * each call's own. NULL: the engine's budgets again. A walk past a budget
 * or stopped fails (FRAY_ERR_LIMIT or FRAY_ERR_BUDGET, the message naming
 * it); advice values that action as one that rolls no dice and says why
 * in its "why". stop is read while the game lives: it must outlive it (or
 * the next call here). */
void fray_game_set_odds_budget(fray_game *game, const fray_call_opts *budget);
/* The log: how many entries, and entry i's command as the log has it
 * ("shoot Presidials --at Apaches --range 10"; NULL past the end). The
 * last entry is the one fray_game_undo undoes. */
size_t fray_game_log_len(const fray_game *game);
const char *fray_game_log_command(const fray_game *game, size_t i);
/* The forces as they stand (format "text": a table for people, names'
 * controls escaped; "json": {"rules", "turn", "dice", "units": [each unit's
 * fields]}), and the log ("text", "json": an array of entries, or
 * "markdown"), as `fray table GAME status|log` prints them: *out malloc'd,
 * free() it. FRAY_ERR_INPUT for another format; FRAY_ERR_NOMEM. */
fray_status fray_game_status(const fray_game *game, const char *format, char **out);
fray_status fray_game_log(const fray_game *game, const char *format, char **out);
/* The game as one HTML page (`fray report --html`): its forces and its
 * log, every text from the file escaped, css inline: *out malloc'd,
 * free() it. FRAY_ERR_NOMEM. */
fray_status fray_game_report_html(const fray_game *game, const char *css, char **out);
/* Advice (issue 44; docs/presidio.md, bbb.md, chits.md "Advice and solo
 * play"): every action unit (by name) may take now, with each target the
 * game lists and each choice of options its player makes (Presidio's fire
 * mode, one or two actions, aiming; a chits tactic and chits to draw),
 * only those the game accepts, each valued exactly under goal ("win",
 * "not-lose", "casualties" or "hold"; NULL: "win") from the exact odds of
 * its first roll, best first. options: the situation as fray table's
 * option words ("--range", "10"), given to each action that takes them;
 * one no action takes is FRAY_ERR_INPUT. format FRAY_FORMAT_JSON:
 * {"goal", "unit", "actions": [{"action", "target", "options", "value",
 * "exact", "headline", "why"}...]}; FRAY_FORMAT_TEXT: a list for people.
 * *out malloc'd, free() it. The game is unchanged. */
fray_status fray_game_advise(fray_game *game, const char *unit, const char *goal, size_t noptions,
			     const char *const *options, fray_format format, char **out);
/* The same advice, the situation as typed options (fray_game_option,
 * as fray_game_apply takes them; api/v1/game's "options" object): name
 * as the action's descriptors name it ('_' read as '-'), FRAY_GAME_BOOL
 * true a flag given (false: not given), a number or a word as its value;
 * checked as the words are (the messages name "--NAME"). */
fray_status fray_game_advise_typed(fray_game *game, const char *unit, const char *goal, size_t noptions,
				   const fray_game_option *options, fray_format format, char **out);
/* Solo play: fray takes side's next action, the best of its units'
 * advice under goal (options as fray_game_advise's), applied as
 * fray_game_apply applies one, the questions it asks answered by the
 * heuristic policy; the log's entry notes "fray plays SIDE: ... because
 * ...". A side with no action left waits while the other has one (nothing
 * changes); when neither has, the turn ends. Once a side has no unit in
 * the fight, or past turn 50, the game is over and nothing changes. *out:
 * what it did (JSON: {"side", "goal", "played": an advice entry or null,
 * "says", "events"}), malloc'd. FRAY_ERR_INPUT for a side the game does
 * not have. */
fray_status fray_game_play(fray_game *game, const char *side, const char *goal, size_t noptions,
			   const char *const *options, fray_format format, char **out);
/* The same move, the situation as typed options (as
 * fray_game_advise_typed's). */
fray_status fray_game_play_typed(fray_game *game, const char *side, const char *goal, size_t noptions,
				 const fray_game_option *options, fray_format format, char **out);
/* Undoes the last action of the log (FRAY_ERR_INPUT when it is empty). */
fray_status fray_game_undo(fray_game *game);
void fray_game_free(fray_game *game);

#endif
