/* A rule set's game, as one table (issue 42 item 2): what its units hold
 * (the field table), its actions and what the rules let a unit do now,
 * what its files hold, its turn's end and how its forces are shown. The
 * game's code reads the table and never asks which rule set it plays;
 * each rule set's hooks live in its own file (ruleset_presidio.c,
 * ruleset_bbb.c, ruleset_chits.c, beside table_presidio.c ...), and the
 * registry (ruleset.c) lists them, plus any registered at run time (a
 * test's own rule set: tests/game/fifth/). */
#ifndef FRAY_GAME_RULESET_H
#define FRAY_GAME_RULESET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <fray/presidio.h>
#include "table.h"

/* How a unit is being read: from a forces file (types: the forces file's
 * units_file, or NULL when it names none), a game file, an undo record
 * (checks only what the unit's own fields cannot say), or set. */
typedef enum unit_source { UNIT_FROM_FORCES, UNIT_FROM_GAME, UNIT_FROM_UNDO } unit_source;

/* A game-wide action of a rule set (not a unit's): BBB's next. */
typedef struct game_action {
	const char *name;
	const char *usage;               /* "next: ..." for messages and help */
	int (*run)(table_game *g, int argc, char *const *argv);
} game_action;

struct game_ruleset {
	/* "presidio": a game file's rules, and its set in the catalogue
	 * (src/catalog/list.c: its title and procedures), which must hold it */
	const char *id;
	/* the units' fields as the files name them (an own field is kept in
	 * the unit's rule-set area, table_unit.own) */
	const unit_field *fields;
	size_t nfields;
	/* the actions (besides turn and set, which every game has) */
	const table_action *(*actions)(size_t *n);
	/* whether the rules let u take the action now, in g as it stands (its
	 * phase); NULL: any action */
	bool (*may)(const table_game *g, const table_unit *u, const char *action);
	/* whether the turn's order (g's initiative and acting side) lets u
	 * take it now; NULL: no order kept */
	bool (*may_now)(const table_game *g, const table_unit *u, const char *action);
	/* its commands that take no unit (Presidio: initiative, pass SIDE):
	 * TABLE_NOT_A_COMMAND when argv[0] names none; NULL: none */
	int (*command)(table_game *g, int argc, char *const *argv);
	/* play's step of the turn's order for side (frayi_table_presidio_
	 * play_order); NULL: none */
	bool (*play_order)(const table_game *g, const char *side, bool has_action, const char **w, size_t *n,
			   char *why, size_t cap);
	/* a unit's fields against the game's other units (Presidio: contact
	 * and may_pursue name an enemy unit of the game): the key at fault
	 * and what is wrong in why, or NULL; NULL: nothing to check */
	const char *(*unit_in_game)(const table_game *g, const table_unit *u, char *why, size_t cap);
	/* a game file's initiative and acting sides are its (Presidio) */
	bool keeps_order;
	/* what a file leaves out of a unit (n its mapping); NULL: nothing */
	void (*defaults)(table_unit *u, const fray_node *n);
	/* a unit's fields against each other: the key at fault and what is
	 * wrong in why, or NULL; NULL: nothing to check */
	const char *(*problem)(const table_unit *u, char *why, size_t cap);
	/* after a unit's fields were read without a problem (n its mapping):
	 * what the rules check beyond them (a Presidio unit's weapons, its
	 * type from the units file); NULL: nothing */
	void (*unit_read)(table_unit *u, const fray_node *n, fray_doc *doc, unit_source from,
			  const fray_presidio_units *types);
	/* the end of the turn before it advances (a step may roll; a
	 * fray_status), then each unit's markers as they carry over */
	int (*turn_over)(table_game *g);
	void (*turn_end)(table_game *g, table_unit *u);
	/* after turn_over: true when the turn that ended was one player's and
	 * the game turn goes on (BBB: the first player's); NULL: every turn's
	 * end is the game turn's. And a file's (or an undo record's) turn as
	 * the game counts it, its state read (BBB: a file from before `half`
	 * counted each player's turn); NULL: as written. */
	bool (*turn_goes_on)(const table_game *g);
	int (*turn_read)(const void *state, int turn);
	/* fray table status: the header line and a unit's line (name and
	 * side already escaped; w the name column's width), and members of
	 * its own after a unit's fields in the JSON (", \"k\": v"); NULL: none */
	void (*status_head)(FILE *f, int w);
	void (*status_row)(FILE *f, int w, const char *name, const char *side, const table_unit *u);
	void (*status_json)(FILE *f, const table_unit *u);
	/* its game-wide state beside the turn (table_game.state; BBB: the
	 * moving player and the phase), NULL when it keeps none: its keys at
	 * a game file's top level and in an undo record (a forces file may
	 * give them too), read from map (problems on doc; fresh: a new game's
	 * from its forces file, else a game file's or an undo record's; a key
	 * left out: the rule set's documented default) into state, checked
	 * against g's units; written as JSON members ", \"key\": value" (yaml:
	 * as "key: value" lines); and in words for status ("" for none) */
	const char *const *state_keys;
	size_t nstate_keys;
	void (*state_read)(const table_game *g, fray_doc *doc, const fray_node *map, bool fresh, void *state);
	void (*state_write)(FILE *f, const table_game *g, const void *state, bool yaml);
	void (*state_words)(const table_game *g, char *dst, size_t cap);
	/* the state as status's JSON shows it, where that is more than the
	 * file keeps (Presidio: a turn's rally phase that no file key keeps,
	 * a game keeping no order before any unit acted); NULL: state_write's */
	void (*state_status)(FILE *f, const table_game *g);
	/* its game-wide actions besides turn and set (BBB: next, phase): each
	 * a name, its usage, and what runs it on the words after its name */
	const struct game_action *game_actions;
	size_t ngame_actions;
	/* the action play takes in g when no unit of either side has one
	 * left (BBB: next, the phase's end, when the game keeps phases);
	 * NULL: turn */
	const char *(*play_idle)(const table_game *g);
	/* the files it reads: a chit mix (required in its forces and game
	 * files; refused in any other game's) */
	bool reads_mix;
};

/* An own field: at offset `off` of the rule set's own struct T, kept in
 * the unit's area (table_unit.own); T must fit TABLE_UNIT_OWN bytes. */
#define UNIT_OWN(T, m) .off = offsetof(T, m), .own = true

/* The rows of a rule set's field table (ruleset_*.c): FIELD_STR and
 * FIELD_ENUM are table_unit's own members (name, side, status), the
 * FIELD_O ones the rule set's struct's; a file defines FIELD_OWN (its
 * struct: presidio_own) before its table. */
#define FIELD_U(m) .off = offsetof(table_unit, m)
#define FIELD_O(m) UNIT_OWN(FIELD_OWN, m)
#define FIELD_STR(k, m, req) {k, F_STR, FIELD_U(m), .min = 0, .required = req, .cap = sizeof(((table_unit *)0)->m)}
#define FIELD_OSTR(k, m, req) \
	{k, F_STR, FIELD_O(m), .min = 0, .required = req, .cap = sizeof(((FIELD_OWN *)0)->m)}
#define FIELD_INT(k, m, lo, hi, req) {k, F_INT, FIELD_O(m), .min = lo, .max = hi, .required = req}
#define FIELD_BOOL(k, m) {k, F_BOOL, FIELD_O(m), .required = false}
#define FIELD_ENUM(k, m, names, n, req) {k, F_ENUM, FIELD_U(m), .min = 0, .choices = names, .nchoices = n, .required = req}
#define FIELD_OENUM(k, m, names, n, req) \
	{k, F_ENUM, FIELD_O(m), .min = 0, .choices = names, .nchoices = n, .required = req}

/* Whether a unit's node (its map in the file) gives key: a default is
 * for a key left out. */
static inline bool frayi_node_has_key(const fray_node *n, const char *key)
{
	return fray_node_kind_of(n) == FRAY_NODE_MAP && fray_map_get(n, key);
}

/* A field's place in unit u. */
static inline void *frayi_field_at(const unit_field *f, table_unit *u)
{
	return (f->own ? (char *)u->own : (char *)u) + f->off;
}
static inline const void *frayi_field_in(const unit_field *f, const table_unit *u)
{
	return (f->own ? (const char *)u->own : (const char *)u) + f->off;
}
/* A unit's own struct T (the rule set's fields), in its area. */
#define UNIT_OWN_OF(T, u) ((T *)(void *)(u)->own)

/* The registry: the rule sets fray plays, then those registered. */
size_t frayi_ruleset_count(void);
const game_ruleset *frayi_ruleset_at(size_t i);
/* By id; NULL when none has it. */
const game_ruleset *frayi_ruleset_find(const char *id);
/* The rule set's title, as the catalogue has it ("Presidio skirmishes"). */
const char *frayi_ruleset_title(const game_ruleset *rs);
/* The ids, as a reader's list of choices (at most cap). */
size_t frayi_ruleset_ids(const char **ids, size_t cap);
/* The ids as a sentence for a message ("presidio, bbb or chits"), in buf
 * (cut to cap), which it returns. */
const char *frayi_ruleset_ids_words(char *buf, size_t cap);
/* Adds a rule set (a test's own), its procedures' set already in the
 * catalogue (frayi_catalog_register), before any game is made: not thread
 * safe. FRAY_ERR_LIMIT when the registry is full, FRAY_ERR_INPUT when its
 * id is taken or not the catalogue's, or its table is incomplete. */
#define RULESET_MAX 8
int frayi_ruleset_register(const game_ruleset *rs);

/* BBB's game-wide phase (table_bbb_phase.c): its state's keys and hooks,
 * its turn's end (the moving player changes) and next, phase. */
extern const char *const frayi_bbb_state_keys[3];
void frayi_bbb_state_read(const table_game *g, fray_doc *doc, const fray_node *map, bool fresh, void *state);
void frayi_bbb_state_write(FILE *f, const table_game *g, const void *state, bool yaml);
void frayi_bbb_state_words(const table_game *g, char *dst, size_t cap);
int frayi_bbb_turn_over(table_game *g);
bool frayi_bbb_turn_goes_on(const table_game *g);
int frayi_bbb_turn_read(const void *state, int turn);
const char *frayi_bbb_play_idle(const table_game *g);
extern const game_action frayi_bbb_game_actions[2];

/* The three of fray (ruleset_presidio.c, ruleset_bbb.c, ruleset_chits.c). */
extern const game_ruleset frayi_presidio_ruleset, frayi_bbb_ruleset, frayi_chits_ruleset;

#endif
