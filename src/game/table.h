/* The game (src/game/, in libfray; the fray table command is its shell,
 * src/cli/cmd_table.c): a game file that remembers the forces, runs an
 * action's rolls and the follow-ups the rules require as one sequence, and
 * keeps the log (docs/table.md). The game is YAML: the rule set, a seed
 * and the dice used so far (so it replays exactly), the turn, the units as
 * they stand and the log, each entry with what undoes it. The library
 * makes the text (frayi_table_text); the command writes it whole. Every call
 * that can fail returns a fray_status (as an int) with its message on the
 * game's context; nothing here prints or reads a terminal. */
#ifndef FRAY_GAME_TABLE_H
#define FRAY_GAME_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <fray/fray.h>
#include <fray/game.h>

/* Budgets: units in a game, a name's bytes, steps of one action. A game
 * file is at most FRAY_DOC_MAX_BYTES (the log included): an action that
 * would pass it is refused. */
#define TABLE_MAX_UNITS 64
#define TABLE_NAME_MAX 48
#define TABLE_MAX_STEPS 16
/* The limits of a game file's numbers outside the units (the units' are
 * their field table's min and max): the reader refuses what passes them,
 * and the writer refuses an action that would (table_save), so every file
 * fray writes reads back. */
#define TABLE_MAX_TURN 100000
#define TABLE_MAX_DICE INT64_MAX

/* A rule set's game: its table (ruleset.h). */
typedef struct game_ruleset game_ruleset;

/* A unit's standing. Presidio's come from the morale results (Section 7);
 * BBB's from the firefight, assault and movement tables. */
typedef enum unit_status {
	ST_GOOD, ST_DISORDERED, ST_FLINCHED, ST_HUNKERED, ST_FELL_BACK, ST_RETREATED, ST_PANICKED,
	ST_SURRENDERED, ST_DESTROYED, ST_NSTATUS
} unit_status;
extern const char *const frayi_unit_status_names[ST_NSTATUS];

/* The bytes of a unit's rule-set area (table_unit.own): the largest of
 * the rule sets' own structs (Presidio's, 488 bytes) fits. */
#define TABLE_UNIT_OWN 512

/* One unit: what every rule set's unit has (its name, side and
 * standing), and an area its rule set keeps its own struct in (issue 42:
 * each rule set's fields in its own struct behind its field table, not a
 * union of every game's): presidio_own, bbb_own, chits_own below, a
 * registered rule set's own (tests/game/fifth/). Zeroed padding: units are
 * compared with memcmp. */
typedef struct table_unit {
	char name[TABLE_NAME_MAX], side[TABLE_NAME_MAX];
	int status;                     /* unit_status */
	/* the rule set's own fields (UNIT_OWN in its field table) */
	_Alignas(max_align_t) unsigned char own[TABLE_UNIT_OWN];
} table_unit;

/* A Presidio unit (ruleset_presidio.c's field table). */
typedef struct presidio_own {
	char type[TABLE_NAME_MAX];      /* from the units file (G4), for the record */
	char weapon[TABLE_NAME_MAX], melee_weapon[TABLE_NAME_MAX];
	int figures, start_figures, casualties, specialists, leader, reload;
	int ranged, melee, armor, level, size;
	bool mounted, line, bayonets;
	int designation;                /* fray_presidio_designation: light or
					   skirmish troops (Section 3, Disorder) */
	char leader_rank[TABLE_NAME_MAX]; /* "sargento", "capitan": officer or NCO */
	bool volleyed;                  /* its reload follows a volley */
	char actions_spent[FRAY_PRESIDIO_TURN_TEXT_MAX]; /* this turn's, "walk,
					   shoot" (fray_presidio_turn_text): any turn
					   the rules allow fits; cleared at turn */
	int ranks;                      /* its line's depth (Section 3; default 2) */
	bool sharpshooters;             /* sharpshooters or a character: may aim
					   (Section 2, Aim and Shoot) */
	bool free_riders;               /* riding costs no action (Section 2, Riding) */
	char contact[TABLE_NAME_MAX];   /* the enemy unit it is in base contact
					   with (Section 5), or "" */
	char may_pursue[TABLE_NAME_MAX]; /* the enemy unit that broke contact
					   with it this turn, which it may pursue */
	bool drummer;                   /* a drummer or bugler with it: reforming
					   costs one action (Section 3, Reform) */
} presidio_own;

/* A Bloody Big Battles unit (ruleset_bbb.c's field table). */
typedef struct bbb_own {
	char weapons[TABLE_NAME_MAX];   /* "ML", "RR": the bases' weapon; guns: "SA" ... */
	int arm, training, bases, start_bases;
	bool disrupted, low_ammo, spent, silenced, reduced, aggressive, in_depth, fragile;
	bool low_ammo_instead;          /* a gun in a Fortification: Low Ammo instead
					   of Silenced, may not fire (Silenced Artillery) */
	bool halted;                    /* Halted by fire while advancing: no assault
					   this turn (fray_bbb_assault_refused) */
	bool moved, fired, assaulted;   /* this turn (Sequence of Play: each once,
					   fray_bbb_action_refused); cleared at turn */
} bbb_own;

/* A Bloody Big Battles game's phase (ruleset_bbb.c's game state, in
 * table_game.state): the moving player's side and the phase of its turn
 * (fray_bbb_phase), when the game keeps them (kept: a game file from
 * before them keeps none: docs/bbb.md). */
typedef struct bbb_state {
	bool kept;
	/* the half of the game turn (the counter counts game turns, each the
	 * first player's turn then the second's: Sequence of Play Summary):
	 * kept whether or not the phase is; counted_halves: read from a file
	 * whose turn counted each player's turn (before `half`: docs/bbb.md) */
	bool second, counted_halves;
	int phase;
	char moving[TABLE_NAME_MAX];
} bbb_state;

/* A chit-pull brigade (ruleset_chits.c's field table). */
typedef struct chits_own {
	int arm;                        /* infantry, cavalry, artillery */
	int battalions, hits[8], lead, chit_morale, fatigue; /* lead: 1-based */
	bool disordered;
} chits_own;

_Static_assert(sizeof(presidio_own) <= TABLE_UNIT_OWN && sizeof(bbb_own) <= TABLE_UNIT_OWN &&
		       sizeof(chits_own) <= TABLE_UNIT_OWN, "a rule set's unit fits table_unit.own");

/* A unit's own struct by its rule set (the game's rules say which),
 * const for a const unit: PRESIDIO_OF(u) picks the accessor by u's type
 * (a cast used to drop the const). */
static inline presidio_own *frayi_presidio_own(table_unit *u) { return (presidio_own *)(void *)u->own; }
static inline const presidio_own *frayi_presidio_own_const(const table_unit *u)
{
	return (const presidio_own *)(const void *)u->own;
}
static inline bbb_own *frayi_bbb_own(table_unit *u) { return (bbb_own *)(void *)u->own; }
static inline const bbb_own *frayi_bbb_own_const(const table_unit *u) { return (const bbb_own *)(const void *)u->own; }
static inline chits_own *frayi_chits_own(table_unit *u) { return (chits_own *)(void *)u->own; }
static inline const chits_own *frayi_chits_own_const(const table_unit *u)
{
	return (const chits_own *)(const void *)u->own;
}
#define PRESIDIO_OF(u) _Generic((u), const table_unit *: frayi_presidio_own_const, default: frayi_presidio_own)(u)
#define BBB_OF(u) _Generic((u), const table_unit *: frayi_bbb_own_const, default: frayi_bbb_own)(u)
#define CHITS_OF(u) _Generic((u), const table_unit *: frayi_chits_own_const, default: frayi_chits_own)(u)

/* A unit field as the files name it. */
/* F_HITS: the chits battalions' hits, a list as long as battalions */
typedef enum field_kind { F_STR, F_INT, F_BOOL, F_ENUM, F_HITS } field_kind;
typedef struct unit_field {
	const char *key;
	field_kind kind;
	size_t off;
	int min, max;                    /* F_INT */
	const char *const *choices;      /* F_ENUM */
	size_t nchoices;
	bool required;                   /* in a forces file */
	bool own;                        /* off is into the unit's own area */
	size_t count;                    /* F_HITS: the offset of the count of
					    items (an int) in the own area */
	size_t cap;                      /* F_STR: its member's bytes, NUL included
					    (0: TABLE_NAME_MAX; frayi_field_cap) */
} unit_field;

/* An F_STR field's bytes, NUL included. */
static inline size_t frayi_field_cap(const unit_field *f)
{
	return f->cap ? f->cap : TABLE_NAME_MAX;
}

/* A step of an action: one roll of a catalogue procedure. */
typedef struct game_step {
	char *json, *text;               /* as fray_call_roll_at gives them */
} game_step;

/* The bytes of a rule set's game-wide state (table_game.state). */
#define TABLE_GAME_STATE 64
_Static_assert(sizeof(bbb_state) <= TABLE_GAME_STATE, "a rule set's game state fits table_game.state");

typedef struct table_game {
	const char *path;
	const game_ruleset *rules;
	uint64_t seed, dice;
	int turn;
	/* the turn's order, as a rule set keeps it (Presidio, Section 2,
	 * Initiative): the side that won this turn's initiative and the side
	 * whose action sequence it is; "" both: none kept, the players keep
	 * the order (a game file without them) */
	char initiative[TABLE_NAME_MAX], acting[TABLE_NAME_MAX];
	/* the rule set's game-wide state beside the turn (BBB: bbb_state),
	 * read and written by its table's hooks (ruleset.h) */
	_Alignas(max_align_t) unsigned char state[TABLE_GAME_STATE];
	size_t nunits;
	table_unit units[TABLE_MAX_UNITS];
	/* the file as read: its log entries are written back as they were.
	 * log: each entry's node, nlog of them (the array the context's,
	 * freed with the game; the nodes may live in doc or, in a fray_game
	 * after an action, in the documents the game keeps: issue 42, one
	 * read of the game a request) */
	fray_doc *doc;
	const fray_node **log;
	size_t nlog;
	/* chits: the mix, carried in the game file so that it replays the
	 * same whatever becomes of the mix file (mix_doc: the mix file's,
	 * when the game is new) */
	const fray_node *mix;
	fray_doc *mix_doc;
	/* the action under way */
	fray_ctx *ctx;
	const char *cmd;                 /* "table", for messages */
	fray_policy *policy;             /* the players' decisions (the charge
					    reaction when not given); NULL:
					    none, the option is needed */
	size_t nsteps;
	game_step steps[TABLE_MAX_STEPS];
	char notes[2048];                /* what the action did, in words */
	size_t notes_len;
	char asked[64];                  /* a choice asked at the terminal, for the
					    log's command (" --reaction fire") */
	/* the facts of the action under way that a later rule reads, kept in
	 * its log entry (issue 42: read as typed values, not re-parsed from
	 * the command): members of a JSON object ("\"mode\": \"volley\"")
	 * added by frayi_table_fact; empty: none */
	char facts[512];
	size_t facts_len;
	/* odds instead of a roll: not NULL, the action stops at its first
	 * procedure, whose odds (as fray_call_run renders them) go to
	 * odds_out, malloc'd; nothing is rolled */
	const fray_call_opts *odds;
	char *odds_out;
} table_game;

/* A BBB game's state (its rules are BBB's), const for a const game. */
static inline bbb_state *frayi_bbb_state(table_game *g) { return (bbb_state *)(void *)g->state; }
static inline const bbb_state *frayi_bbb_state_const(const table_game *g)
{
	return (const bbb_state *)(const void *)g->state;
}
#define BBB_STATE_OF(g) _Generic((g), const table_game *: frayi_bbb_state_const, default: frayi_bbb_state)(g)

/* The status a step returns when it took the odds of the action's first
 * procedure (g->odds): the action stops there. Not a fray_status. */
#define TABLE_ODDS_TAKEN (-1)

/* Reads a game file; messages name the file, line and column. Returns a
 * fray_status, the message on ctx. */
int frayi_table_load(table_game *g, fray_ctx *ctx, const char *path);
/* The same from a document already read (g takes it). */
int frayi_table_load_doc(table_game *g, fray_ctx *ctx, const char *path, fray_doc *doc);
/* A game as one HTML page (the forces and the log; every text escaped),
 * with css inline: malloc'd, or NULL when memory ran out. */
char *frayi_table_report_html(const table_game *g, const char *css);
void frayi_table_free(table_game *g);
/* Undoes the last entry: its undo (the dice, the turn, the units it
 * changed, as they were) back into g (checked whole on load). Returns a fray_status. */
int frayi_table_restore(table_game *g, const fray_node *undo);
/* The game as it stands against the limits its file is read with (each
 * field's range, a unit's fields against each other, the turn and the
 * dice): true when it holds; else false with what is wrong in why. */
bool frayi_table_check(const table_game *g, char *why, size_t cap);
/* A log entry's turn (checked on load). */
int frayi_table_entry_turn(const fray_node *entry);
/* The same as the game counts turns (BBB: an older fray's entry counted
 * each player's turn: read as its undo record is, ruleset.h turn_read). */
int frayi_table_log_turn(const table_game *g, const fray_node *entry);
/* set: the unit's fields given as YAML ("units:\n  - key: value\n"),
 * checked as a forces file's are; each change noted. */
int frayi_table_set_fields(table_game *g, table_unit *u, const char *yaml);
/* The turn's order as JSON members, "\"initiative\": ..., \"acting\":
 * ..., " (an undo record's, status's). */
void frayi_order_json(FILE *f, const table_game *g);
/* A node as JSON; a unit's fields as a JSON object. */
void frayi_node_json(FILE *f, const fray_node *n);
void frayi_unit_json(FILE *f, const game_ruleset *rules, const table_unit *u);
void frayi_unit_json_open(FILE *f, const game_ruleset *rules, const table_unit *u);
/* Reads a forces file's units into g (units_file for Presidio types).
 * Returns a fray_status. */
int frayi_table_read_forces(table_game *g, fray_ctx *ctx, const char *path);
/* The same from a forces file already read (g takes doc; path names it),
 * the files it names (units_file, mix) opened by open (NULL: from the
 * file system), their paths resolved beside path. */
int frayi_table_read_forces_doc(table_game *g, fray_ctx *ctx, const char *path, fray_doc *doc, fray_doc_open_fn open,
				void *ud);
/* The game file's text for g whole (*text the context's: free with
 * frayi_game_dealloc; *len its bytes), its
 * log followed by an entry for the action under way when command is not
 * NULL (with before, the units as they were, for undo); keep_log: how many
 * of the old entries to keep. Checked against the reader's limits and read
 * back before it is given: what is new (the forces, the new entry) is
 * read back, the old entries, written back as they were read, are not
 * read again (their values counted against the reader's limit). back:
 * NULL, or gets that reading (a game whose log is the new entry alone,
 * its doc its own: frayi_table_free it), for a caller that keeps the
 * game without reading its text again (game.c). Returns a fray_status. */
int frayi_table_text(table_game *g, const char *command, const table_game *before, size_t keep_log, char **text,
	       size_t *len, table_game **back);
/* A fact of the action under way for its log entry (g->facts): an
 * integer, or a string (escaped as JSON). */
void frayi_table_fact_int(table_game *g, const char *key, long long v);
void frayi_table_fact_str(table_game *g, const char *key, const char *v);
/* An entry's fact (its "facts" member's key), NULL when the entry has
 * none: an entry an older fray wrote keeps only its command. */
const fray_node *frayi_table_entry_fact(const fray_node *entry, const char *key);
/* The reads of game files' texts this thread made (tests count them:
 * one request reads its game once, issue 42): how many whole game files,
 * and how many bytes of YAML the game layer parsed in all (whole files
 * and the read-back of what an action wrote). */
typedef struct game_reads {
	unsigned long files, bytes;
} game_reads;
game_reads frayi_game_reads(void);
/* Counts a parse of len bytes of a game's YAML (whole: a game file). */
void frayi_game_count_read(size_t len, bool whole);

/* Hits by battalion as "1 0 2 0". */
void frayi_table_hits_text(char *dst, size_t cap, const int *hits, int n);

/* A unit's name for a message (the front end escapes what it shows). */
static inline const char *unit_label(const table_unit *u)
{
	return u->name;
}

/* A failure of the game: recorded on g's context (the first one wins) and
 * returned, so `return frayi_game_fail(...)` reads as the message it gives. */
int frayi_game_fail(table_game *g, fray_status s, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* frayi_game_fail naming the input it is about (a request's member, an
 * option's name), for fray_ctx_input: the page marks that field. */
int frayi_game_fail_input(table_game *g, fray_status s, const char *input, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* After a library call failed: the status its context holds. */
int frayi_game_failed(const table_game *g);

/* Finds a unit by name (exact, then ignoring case); reports an unknown
 * one with the units' names and returns NULL. */
table_unit *frayi_table_unit_named(table_game *g, const char *name);

/* The player's options after the units, as typed (argv words): a step
 * takes those its procedure has. */
typedef struct player_opts {
	int argc;
	char **argv;                     /* the options after the units */
	bool *used;                      /* argv[i] taken by some step */
} player_opts;
/* The value of the player's option (`--x V` or `--x=V`), or NULL; a
 * flag given. Either marks the option used. */
const char *frayi_player_value(const player_opts *p, const char *opt);
bool frayi_player_flag(const player_opts *p, const char *opt);

/* A step: one roll of a catalogue procedure, its inputs set typed from
 * the forces by the input's JSON name, no option text between:
 *
 *     table_step s = frayi_step_begin(g, "presidio.shoot");
 *     frayi_step_int(&s, "figures", u->figures);
 *     frayi_step_bool(&s, "line", u->line);
 *     int64_t hit;
 *     st = frayi_step_roll(&s, p, (step_out[]){{"casualties", &hit}, {NULL, NULL}});
 *
 * A failure is kept in the step (the first one) and returned by the roll,
 * so the setters return nothing to forget to check: every begun step is
 * rolled (the roll frees its call). An input or outcome field the
 * procedure lacks, or a setter of another kind than the input's, is
 * FRAY_ERR_INTERNAL naming the procedure and the name (never a silent 0);
 * a value out of the input's range is FRAY_ERR_INPUT with the
 * catalogue's message, as the command line gives it. */
typedef struct table_step {
	table_game *g;
	const char *procedure;
	fray_call *c;                    /* NULL once failed or rolled */
	int status;                      /* the first failure, else FRAY_OK */
} table_step;
/* An outcome field read after the roll: its JSON name and where it goes;
 * a list of them ends with {NULL}. */
typedef struct step_out {
	const char *name;
	int64_t *value;
} step_out;
table_step frayi_step_begin(table_game *g, const char *procedure);
void frayi_step_int(table_step *s, const char *input, int64_t v);
void frayi_step_number(table_step *s, const char *input, double v);
/* A flag: false leaves it not given, as the command line without it
 * (given false would count where inputs exclude each other). */
void frayi_step_bool(table_step *s, const char *input, bool on);
void frayi_step_choice(table_step *s, const char *input, const char *word);
void frayi_step_string(table_step *s, const char *input, const char *text);
/* A file input given as a document's text (the game's chit mix). */
void frayi_step_document(table_step *s, const char *input, const char *name, const char *text, size_t len);
/* Rolls the step at the game's place in its dice, after the player's own
 * options from p when p is not NULL (they override), and reads the
 * outcome fields out names (NULL: none). With g->odds, its odds instead
 * (TABLE_ODDS_TAKEN). Frees the step's call. Returns a fray_status. */
int frayi_step_roll(table_step *s, const player_opts *p, const step_out *out);
/* A line for the action's notes (the forces' changes in words). */
void frayi_table_note(table_game *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* An option a player gives an action (issue 42): an input of a
 * procedure the action rolls, described by the catalogue (proc and the
 * input's name: its type, range, choices, default, excludes and help are
 * the catalogue's), or the game's own (proc NULL, own: described in the
 * catalogue's shape). From these the action's usage line (fray table,
 * fray help table), api/v1/game's "options" and the game screen's form are
 * made (action_desc.c), and a request's typed options are checked. */
struct in_desc;
typedef struct action_opt {
	const char *proc;                /* "presidio.shoot"; NULL: own */
	const char *name;                /* the input's name ("taking_cover": --taking-cover) */
	const struct in_desc *own;       /* the game's own option (proc NULL) */
	bool required;                   /* the action needs it (whatever the input says) */
	bool more;                       /* rarely given: folded under "More" */
} action_opt;
#define ACTION_MAX_OPTS 24
typedef struct action_desc {
	const char *procs[4];            /* the procedures it rolls, by name, NULL-ended */
	action_opt opts[ACTION_MAX_OPTS]; /* ending with a name NULL */
	/* the default the rules give unit u's option input now, as text (a
	 * Presidio line loaded: "volley"), or NULL: the input's own. NULL:
	 * none. */
	const char *(*option_default)(const struct table_unit *u, const char *input);
} action_desc;
/* The descriptors (action_desc.c), one per action of the tables. */
extern const action_desc frayi_desc_presidio_shoot, frayi_desc_presidio_melee, frayi_desc_presidio_charge,
	frayi_desc_presidio_pursue, frayi_desc_presidio_morale, frayi_desc_presidio_rally, frayi_desc_presidio_reload,
	frayi_desc_presidio_move, frayi_desc_bbb_fire, frayi_desc_bbb_assault, frayi_desc_bbb_move,
	frayi_desc_chits_combat, frayi_desc_chits_end_turn;

/* The actions of a rule set: each takes the actor, the target (or NULL)
 * and the player's options; returns a fray_status. */
typedef struct table_action {
	const char *name;
	bool needs_target;
	const char *summary;             /* what it does, in words, for help */
	int (*run)(table_game *g, table_unit *actor, table_unit *target, const player_opts *p);
	/* needs_target: whether the rules let the actor take t as its target
	 * (FRAY_OK, else a fray_status with the reason on g's context); run
	 * checks the target with this same function, and fray_game_targets
	 * lists the units it accepts. NULL: any other unit. */
	int (*target_ok)(table_game *g, const table_unit *actor, const table_unit *t);
	/* the options a player may give it (action_desc.c) */
	const action_desc *desc;
} table_action;
const char *frayi_table_presidio_default(const struct table_unit *u, const char *input);
/* The same through the action: NULL when it has no hook or unit is past
 * the game's units. */
const char *frayi_action_default(const table_game *g, size_t unit, const table_action *a, const char *input);
/* The game a fray_game holds, as read. */
const table_game *frayi_game_table(const fray_game *game);
/* The action's usage line, made from its descriptor: "UNIT --at TARGET
 * --range 0..100000 [--mode volley|...] [--band ...]: fire, then the
 * target's morale", into dst (cap bytes: ACTION_USAGE_MAX holds any; a
 * longer one is cut with "..."); dst returned. */
#define ACTION_USAGE_MAX 1024
const char *frayi_action_usage(const table_action *a, char *dst, size_t cap);
/* The same as a static string, made once (fray_game_rule_set_action's
 * *usage, which game.h promises static). */
const char *frayi_action_usage_static(const table_action *a);
/* Option k of a's descriptor (NULL past the last) and the input that
 * describes it (the catalogue's, or the game's own). */
const action_opt *frayi_action_opt(const table_action *a, size_t k, const struct in_desc **in);
/* The option of a named as a request names it ("taking-cover" or
 * "taking_cover"), or NULL. */
const action_opt *frayi_action_opt_named(const table_action *a, const char *name, const struct in_desc **in);
const table_action *frayi_table_presidio_actions(size_t *n);
/* Whether the rules let u take the action now (fray_game_actions). */
bool frayi_table_may(const table_game *g, const table_unit *u, const char *action);
bool frayi_table_presidio_may(const table_game *g, const table_unit *u, const char *action);
/* Presidio: whether the turn's order lets u take the action now
 * (fray_presidio_order_refused: the acting side's, else the exceptions). */
bool frayi_table_presidio_may_now(const table_game *g, const table_unit *u, const char *action);
/* Presidio: the game's own commands with no unit: initiative (roll this
 * turn's) and pass SIDE (the acting side hands the sequence over);
 * TABLE_NOT_A_COMMAND when argv[0] is neither. */
#define TABLE_NOT_A_COMMAND (-2)
int frayi_table_presidio_command(table_game *g, int argc, char *const *argv);
/* Presidio, for play: the order's step side takes before it looks for an
 * action (before: the game keeps no initiative and no unit has acted this
 * turn: roll it) or when none of its units has one it would play (pass
 * the first sequence, 'turn' after the second, or wait: *n 0): the words
 * into w (*n of them, at most 2) and why into why; false: none (play does
 * as ever). */
bool frayi_table_presidio_play_order(const table_game *g, const char *side, bool before, const char **w,
				     size_t *n, char *why, size_t cap);
/* Presidio: the turn's end before it advances: in a game that keeps the
 * order, the next turn opens with its rally phase (Section 2, Game Turn
 * Phases: 1. Rally, 2. Initiative). A fray_status. */
int frayi_table_presidio_turn_over(table_game *g);
/* Presidio's game state (table_game.state): `phase: rally`, the turn's
 * rally phase before its initiative is rolled; left out: none (the
 * action sequences, or no order kept). As game_ruleset's state hooks. */
extern const char *const frayi_presidio_state_keys[1];
void frayi_presidio_state_read(const table_game *g, fray_doc *doc, const fray_node *map, bool fresh, void *state);
void frayi_presidio_state_write(FILE *f, const table_game *g, const void *state, bool yaml);
void frayi_presidio_state_words(const table_game *g, char *dst, size_t cap);
void frayi_presidio_state_status(FILE *f, const table_game *g);
/* Presidio: the actions u has left this turn (fray_presidio_actions_left
 * of its actions_spent and standing). */
int frayi_table_presidio_actions_left(const table_unit *u);
bool frayi_table_bbb_may(const table_game *g, const table_unit *u, const char *action);
/* BBB: the one mapping of a unit's game-file fields to its turn (moved,
 * fired, assaulted: what it did this player's turn) and, when g is given
 * and keeps the phase, the game's phase for the unit's side (table_bbb.c);
 * g NULL: what the unit did only. frayi_bbb_turn_keep writes t's actions
 * back into the fields. */
fray_bbb_turn frayi_bbb_turn_of(const table_game *g, const table_unit *u);
void frayi_bbb_turn_keep(table_unit *u, const fray_bbb_turn *t);
/* Whether u may take t as the target of act now: not itself, u may take
 * the action (frayi_table_may) and act's target_ok accepts t. Leaves g's
 * context as it was. */
bool frayi_table_may_target(table_game *g, const table_action *act, const table_unit *u, const table_unit *t);
/* What the action under way did as JSON ({"turn", "steps", "changes"}),
 * as fray table --json prints it: *out the context's (frayi_game_dealloc).
 * A fray_status. */
int frayi_table_action_json(const table_game *g, char **out);
/* The same as fray table prints it: each roll's story, then each change
 * as "=> CHANGE", names escaped for a terminal and each line cut at
 * TABLE_TERM_LINE bytes (as the command cuts a name it shows). */
#define TABLE_TERM_LINE 1024
int frayi_table_action_text(const table_game *g, char **out);
/* Runs an action on g: argv as after the game file on fray table's
 * command line (ACTION UNIT [--at TARGET] [options], or turn, or set UNIT
 * KEY=VALUE...); command gets the log's command line (with a choice the
 * policy made). g changes only in memory: frayi_table_text makes the file. */
int frayi_table_act(table_game *g, int argc, char *const *argv, char *command, size_t cap);
/* The odds of the action's first procedure from g as it stands (the
 * inputs the action would give it), rendered as o says into *out
 * (malloc'd); nothing rolled, g's forces and log unchanged in meaning
 * (g is not to be saved after). FRAY_ERR_INPUT for an action that rolls
 * no dice. A fray_status. */
int frayi_table_odds(table_game *g, int argc, char *const *argv, const fray_call_opts *o, char **out);
/* The budgets of game's exact odds from now on (fray_game_odds and
 * fray_game_act_odds): budget's max_paths, max_bytes, stop, progress and
 * ud (its mode and json are the call's). fray_game_request_with's. */
void frayi_game_odds_budget(fray_game *game, const fray_call_opts *budget);
const table_action *frayi_table_bbb_actions(size_t *n);
const table_action *frayi_table_chits_actions(size_t *n);
/* chits: the end of the turn for each unit whose end-turn was not taken
 * (a step; `turn` calls it before the turn advances). A fray_status. */
int frayi_table_chits_turn_over(table_game *g);
/* Presidio, BBB: a unit's markers at the turn's end, as the rules carry
 * them over (each change noted). */
void frayi_table_presidio_turn_end(table_game *g, table_unit *u);
void frayi_table_bbb_turn_end(table_game *g, table_unit *u);
/* The turn's end as `turn` does it (the rule set's turn_over, the turn
 * advanced, each unit's turn_end): a fray_status. */
int frayi_table_turn(table_game *g);
/* A step the action builds itself (not a catalogue call): its JSON and
 * story, taken (malloc'd). */
int frayi_table_add_step(table_game *g, char *json, char *text);

/* Statuses and the forces for people (TEXT) or as JSON. */
void frayi_table_print_status(const table_game *g, fray_format form, FILE *f);
/* The log: TEXT (the stories), JSON or MARKDOWN. */
int frayi_table_print_log(const table_game *g, fray_format form, FILE *f);
/* An action of the log in words, for a page and the report: "Presidials:
 * shoot at Apaches (range 10)", "the turn ends", from its command's words
 * (the action, the unit, --at's target, the options as words). */
void frayi_table_action_words(const char *command, char *dst, size_t cap);
/* The next word of a log's command (as the log writes it: quoted where it
 * holds a space) from p into w, and where the one after starts; NULL when
 * none is left. */
const char *frayi_table_command_word(const char *p, char *w, size_t cap);

/* A JSON string literal into f, whole; of s's first n bytes: the
 * library's escaper (fray_json_string: a tab as \t, an invalid UTF-8 byte
 * as U+FFFD) written to a stream. */
/* len bytes of s through escape (fray_json_string or fray_term_string),
 * whole however long, quotes bytes dropped from each end of each piece
 * (1 for the JSON escaper's quotes, else 0). */
void frayi_put_escaped(FILE *f, const char *s, size_t len, size_t (*escape)(const char *, char *, size_t),
			size_t quotes);
void frayi_json_string(FILE *f, const char *s);
void frayi_json_string_n(FILE *f, const char *s, size_t n);

/* Memory (game_mem.c): the game's blocks come from its context's
 * allocator; a text stream (a FILE for the printers) grows its text there.
 * frayi_out_open: NULL when there is no memory for the stream;
 * frayi_out_close: *text (NUL-terminated, *len bytes, the context's: free
 * with frayi_game_dealloc) or FRAY_ERR_NOMEM when a write or the close
 * failed (f NULL: the open failed). frayi_out_give hands a text of the
 * context's to a caller who frees it with free() (the API's rule, as the
 * catalogue's texts): as it is when the context mallocs, else a malloc'd
 * copy (text given back); FRAY_ERR_NOMEM, *out NULL, when text is NULL or
 * the copy fails. */
void *frayi_game_alloc(fray_ctx *ctx, size_t size);
void *frayi_game_calloc(fray_ctx *ctx, size_t n, size_t size);
void frayi_game_dealloc(fray_ctx *ctx, void *p);
typedef struct game_out {
	fray_ctx *ctx;
	char *buf;
	size_t len, cap;
	bool failed;
} game_out;
FILE *frayi_out_open(game_out *o, fray_ctx *ctx);
int frayi_out_close(game_out *o, FILE *f, char **text, size_t *len);
int frayi_out_give(fray_ctx *ctx, char *text, char **out);

#endif
