/* The catalogue of procedures and the one JSON entry point.
 *
 * Every procedure of the four rule sets ("adbg.fire", "presidio.morale",
 * ...) is described once inside libfray: its inputs (type, range, choices,
 * default, rule), its outcome fields and its rule references. A program
 * runs one by name with a JSON request:
 *
 *   {"procedure": "adbg.fire", "mode": "odds",
 *    "inputs": {"type": "regular", "cf": 3, "terrain": "wilderness"}}
 *
 * and gets exactly the JSON that `fray adbg fire ... --odds --json` prints.
 * Every input is checked here, with the message the command line prints.
 * Each call clears the context's message first. Strings returned through
 * char ** are malloc'd: the caller frees them with free(). */
#ifndef FRAY_CATALOG_H
#define FRAY_CATALOG_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <fray/ctx.h>
#include <fray/format.h>
#include <fray/data.h>

typedef enum fray_mode {
	FRAY_MODE_ROLL = 1,     /* one narrated roll from a seed */
	FRAY_MODE_ODDS = 2,     /* the exact probability of every outcome */
	FRAY_MODE_SIMULATE = 4, /* many trials */
	FRAY_MODE_SHOW = 8      /* a listing: a table, a checklist or a reckoning
				   with no dice, as text for people (no JSON) */
} fray_mode;

/* Runs one request (at most FRAY_REQUEST_MAX_BYTES of JSON):
 *   procedure  a name from the catalogue (required)
 *   mode       "roll", "odds" or "simulate", as the procedure has them
 *              (default: its first)
 *   inputs     an object of the procedure's inputs (default: {})
 *   seed       0 to 2^64-1, for "roll" and "simulate" (default 0)
 *   trials     1 to FRAY_CALL_MAX_TRIALS, for "simulate" (default 100,000),
 *              and for "odds" that may fall back to a simulation (a
 *              procedure with "odds_may_simulate": adbg.battle)
 *   format     "json" (default) or "text": the command line's output for
 *              people instead (the story told as `fray ... --seed N` tells
 *              it)
 * On success *response_json is the JSON the command line prints for the
 * same request with --json (a newline at its end). A malformed request, an
 * unknown procedure, mode or key, or a bad input: FRAY_ERR_INPUT, a
 * message on the context and *response_json NULL. */
#define FRAY_REQUEST_MAX_BYTES (1u << 20)
fray_status fray_request(fray_ctx *ctx, const char *request_json, char **response_json);

/* A file input (a units file, a chit mix, a scenario) is a path, or the
 * document itself: {"name": "my-battle.yaml", "text": "..."}.
 *
 * The same with flags. FRAY_REQUEST_NO_FILES reads no file: a path must
 * name a shipped example ("examples/adbg/lochry-1781.yaml", served from a
 * copy compiled into the library), else the document comes as text. For
 * requests from people who may not read this machine's files (a web
 * page). */
#define FRAY_REQUEST_NO_FILES 1u
/* FRAY_REQUEST_QUICK keeps a request's work small enough to answer at
 * once: at most 10,000 trials and 1,000,000 paths of exact odds (more:
 * FRAY_ERR_LIMIT or FRAY_ERR_INPUT and a message). */
#define FRAY_REQUEST_QUICK 2u
#define FRAY_REQUEST_QUICK_TRIALS 10000u
#define FRAY_REQUEST_QUICK_PATHS 1000000u
fray_status fray_request_flags(fray_ctx *ctx, const char *request_json, unsigned flags, char **response_json);

/* The same with explicit budgets and a way to watch and stop long work
 * (a server's jobs). A zero budget is the flags' default. */
/* Option structs begin with their version (SQLite's iVersion): set it to
 * the header's FRAY_..._OPTS_VERSION (0 reads as 1, the first). A library
 * older than the header a caller was built with refuses a newer version
 * (FRAY_ERR_INPUT) rather than read fields it does not know. */
#define FRAY_REQUEST_OPTS_VERSION 1u
typedef struct fray_request_opts {
	unsigned version;        /* FRAY_REQUEST_OPTS_VERSION, or 0 */
	unsigned flags;          /* FRAY_REQUEST_NO_FILES, FRAY_REQUEST_QUICK */
	uint64_t max_trials;     /* the most "trials" a request may ask */
	uint64_t max_paths;      /* exact odds' path budget */
	uint64_t max_bytes;      /* exact odds' memory budget */
	/* as in fray_call_opts: set to stop (FRAY_ERR_BUDGET); progress
	 * called now and then from the calling thread, and may set *stop */
	const volatile sig_atomic_t *stop;
	void (*progress)(uint64_t done, uint64_t total, void *ud);
	void *ud;
} fray_request_opts;
fray_status fray_request_with(fray_ctx *ctx, const char *request_json, const fray_request_opts *opts,
			      char **response_json);

/* The catalogue as JSON: {"procedures": [{"name", "command", "summary",
 * "rules", "modes", "inputs": [...], "outcome": [...]}, ...]}; a page
 * builds its forms from it. */
fray_status fray_procedures_json(fray_ctx *ctx, char **out);
/* The catalogue for people: one line a procedure, grouped by rule set. */
fray_status fray_procedures_text(fray_ctx *ctx, char **out);
/* A procedure's --help: usage, what it does, every option with its range
 * and rule. Unknown name: FRAY_ERR_INPUT. */
fray_status fray_procedure_help(fray_ctx *ctx, const char *procedure, char **out);

/* The catalogue's procedures by their place in it (the order of 'fray
 * procedures', then its listings: "bbb night", "presidio weapons"): the
 * i-th one's command ("adbg fire"), and another command it also answers
 * to ("presidio stampede"; NULL: none); NULL past the last. Static
 * strings. */
const char *fray_procedure_command(size_t i);
const char *fray_procedure_also(size_t i);
/* The command of the procedure named by its name, command or other
 * command ("presidio stampede" -> "presidio ram"); NULL: none. */
const char *fray_procedure_find(const char *name_or_command);
/* The i-th one's summary, one line ("a unit's small-arms fire"), and its
 * rule references ("Presidio Sections 4 and 6, rulings R11-R15, R27");
 * NULL past the last. Static strings. */
const char *fray_procedure_summary(size_t i);
const char *fray_procedure_rules(size_t i);

/* The rule sets of the catalogue (issue 42: everything that lists them
 * iterates this registry), in its order ("adbg", "presidio", "bbb",
 * "chits", then any registered after them; never fray's own dice): the
 * i-th one's id, its procedures' prefix and its commands' first word, and
 * into *title (may be NULL) its title ("Presidio skirmishes"); NULL (and
 * *title NULL) past the last. Static strings. */
const char *fray_rule_set(size_t i, const char **title);

/* ---- A call built input by input (the command line's way in) ---- */

typedef struct fray_call fray_call;

/* procedure: a name ("adbg.fire") or a command ("adbg fire"). NULL with a
 * message (and a "did you mean") when there is no such procedure. */
fray_call *fray_call_new(fray_ctx *ctx, const char *procedure);
void fray_call_free(fray_call *c);
/* The procedure's inputs as command-line options ("--cf"), written into
 * the caller's buf (cap bytes; FRAY_CALL_OPTION_MAX always fits) and
 * returned; and whether one is a flag (takes no value). i past the end (or
 * no buf): NULL / false. */
#define FRAY_CALL_OPTION_MAX 72
size_t fray_call_ninputs(const fray_call *c);
const char *fray_call_option(const fray_call *c, size_t i, char *buf, size_t cap);
bool fray_call_is_flag(const fray_call *c, size_t i);
/* The input the command line takes without its option (the first
 * argument that is no option: fray chits combat FILE), or -1. */
int fray_call_positional(const fray_call *c);
/* The modes the procedure has: FRAY_MODE_ROLL | FRAY_MODE_ODDS | ... */
unsigned fray_call_modes(const fray_call *c);
/* Another option for input i ("--shaman" for "--chaplain") in buf, or NULL. */
const char *fray_call_alias(const fray_call *c, size_t i, char *buf, size_t cap);
/* Sets input i from its text as typed ("3", "rough"; a flag: NULL). A
 * value out of range or not of the input's type: FRAY_ERR_INPUT and the
 * command line's message ("option --cf expects a whole number from 0 to
 * 9, got 'x'"). */
fray_status fray_call_set(fray_call *c, size_t i, const char *text);
/* Input i taken as repeated groups on the command line (bbb fire's
 * --weapon CODE --bases N ...): its j-th option ("--weapon", "--bases",
 * "--units"); NULL past the last, or when input i has no groups. */
const char *fray_call_group_option(const fray_call *c, size_t i, size_t j, char *buf, size_t cap);
/* Takes one of those options with its value, in the order given: a head
 * (--weapon) opens a group, a count (--bases N, from 1) closes it, and the
 * group is added to input i's value ("RR:4,SA:1"). A count without its
 * head, a head before the last group is counted, an unknown head, too
 * many groups: FRAY_ERR_INPUT and the message. fray_call_check refuses a
 * group left open. */
fray_status fray_call_group_add(fray_call *c, size_t i, const char *option, const char *text);
/* Sets file input i to a document given as text (len bytes, at most
 * FRAY_DOC_MAX_BYTES), named name in messages and in the echoed inputs. */
fray_status fray_call_set_document(fray_call *c, size_t i, const char *name, const char *text, size_t len);
/* Whether path is a shipped example compiled into the library, by its
 * letters: "." and "dir/.." are taken out, ".." at the top stays at the
 * top (the source tree is the root), an absolute path is none; the file
 * system is never asked. */
bool fray_shipped_example(const char *path);

/* ---- Typed inputs: a program's values set as they are held ---- */

/* A program that holds its values typed (the game: a unit's figures, a
 * flag, an enum's word) sets them with these, in the manner of SQLite's
 * sqlite3_bind_*: no option text written and parsed back. Each is checked
 * exactly as fray_call_set checks the same value given as text (the
 * input's range, its choices, the text's bytes) and refused with the same
 * message, naming the input ("option --figures expects a whole number
 * from 0 to 1000, got '1001'"): FRAY_ERR_INPUT. A setter of another kind
 * than the input's is FRAY_ERR_INPUT too, with a message naming the input
 * and what it takes; so is i past the last input. */
typedef enum fray_input_kind {
	FRAY_INPUT_NONE = 0,  /* no such input */
	FRAY_INPUT_INT,       /* fray_call_set_int */
	FRAY_INPUT_NUMBER,    /* fray_call_set_number */
	FRAY_INPUT_BOOL,      /* fray_call_set_bool */
	FRAY_INPUT_CHOICE,    /* fray_call_set_choice: one of its words */
	FRAY_INPUT_STRING,    /* fray_call_set_string */
	FRAY_INPUT_FILE       /* fray_call_set_string (its path) or
				 fray_call_set_document */
} fray_input_kind;
/* Input i by its JSON name ("figures", "target_standing"), or -1. */
int fray_call_input_named(const fray_call *c, const char *name);
/* Input i's kind; FRAY_INPUT_NONE past the last. */
fray_input_kind fray_call_input_kind(const fray_call *c, size_t i);
/* What input i's "missing" message says of it after its option when it is
 * required and left out ("FILE: the melee CRT is your game's table ..."),
 * a static string; NULL when it has no words of its own (the message
 * then names every required input) or i is past the last. */
const char *fray_call_missing_words(const fray_call *c, size_t i);
fray_status fray_call_set_int(fray_call *c, size_t i, int64_t v);
/* A number: from 0, at most 1e6 and within the input's range, as the
 * text path takes one (NaN refused). */
fray_status fray_call_set_number(fray_call *c, size_t i, double v);
/* true is the flag given; false is given too ("false" as text): it
 * counts where inputs exclude each other. */
fray_status fray_call_set_bool(fray_call *c, size_t i, bool v);
fray_status fray_call_set_choice(fray_call *c, size_t i, const char *word);
fray_status fray_call_set_string(fray_call *c, size_t i, const char *text);

/* Version 2 (issue 42) added format; versions 0 and 1 read json
 * instead, as they always did (their structs end before format). */
#define FRAY_CALL_OPTS_VERSION 2u
typedef struct fray_call_opts {
	unsigned version;       /* FRAY_CALL_OPTS_VERSION, or 0 (see fray_request_opts) */
	fray_mode mode;         /* ROLL, ODDS or SIMULATE */
	bool json;              /* versions 0 and 1: the JSON form, else text
				   for people; version 2 reads format */
	bool have_seed;         /* text: says "replay with --seed" when false */
	uint64_t seed;          /* a roll's, or the trials' */
	uint64_t max_bytes;     /* odds' memory budget; 0: the default */
	uint64_t max_paths;     /* odds' path budget; 0: the default */
	uint64_t trials;        /* SIMULATE: 1 to FRAY_CALL_MAX_TRIALS; 0: 100,000 */
	bool exact;             /* ODDS as text: every outcome, each with its
				   exact fraction (else the likeliest rows, and
				   fractions only when short) */
	/* Set (from another thread or a signal handler) to stop long work:
	 * FRAY_ERR_BUDGET and a message. May be NULL. */
	const volatile sig_atomic_t *stop;
	/* Called now and then from the calling thread during odds and
	 * simulations with the work done and the work there is (paths or
	 * trials); it may set *stop. May be NULL. */
	void (*progress)(uint64_t done, uint64_t total, void *ud);
	void *ud;
	bool color;             /* SHOW: a listing may mark a cell in the
				   terminal's reverse video */
	/* version 2: FRAY_FORMAT_TEXT or FRAY_FORMAT_JSON (a procedure
	 * renders no other: FRAY_ERR_INPUT and a message naming it) */
	fray_format format;
} fray_call_opts;
#define FRAY_CALL_MAX_TRIALS 100000000u

/* Checks the inputs together (what is missing, what conflicts, names
 * looked up): FRAY_ERR_INPUT and a message on a problem. */
fray_status fray_call_check(fray_call *c);
/* Checks, runs and renders into *out. */
fray_status fray_call_run(fray_call *c, const fray_call_opts *o, char **out);


/* ---- A data file checked (fray check) ---- */

/* Tells which kind of fray data file doc is by its top-level keys (tried
 * in this order: "adbg scenario" with 'sides', "adbg melee CRT" with
 * 'columns' and 'rows', "chit mix" with 'chits', "chit combat" with 'mix'
 * and 'attacker', "presidio unit statistics" with 'units', "policy
 * script" with 'answers') and reads it with that kind's reader. Files it
 * names (a scenario's CRT, a combat's mix) are opened by open (NULL: from
 * the file system). *kind: the kind's name (a static string), or NULL
 * when doc is none of them: FRAY_ERR_INPUT and "NAME:1:1: expected a fray
 * data file; known kinds: ..." on the context. A document of a kind with
 * problems: FRAY_ERR_INPUT, every problem recorded on doc
 * (fray_doc_error_msg), the first also on the context. */
fray_status fray_data_check(fray_ctx *ctx, fray_doc *doc, fray_doc_open_fn open, void *ud, const char **kind);
/* The kinds fray_data_check knows, in the order it tries them: the i-th
 * one's name ("adbg melee CRT") and, through keys (may be NULL), the keys
 * that tell it in words ("'columns' and 'rows'"); NULL past the last.
 * Static strings. */
const char *fray_data_kind(size_t i, const char **keys);

/* ---- A game's rolls (fray table) ---- */

/* Checks c and rolls it once on stream 0 of seed from dice position *dice
 * (the 32-bit words used so far, as fray_roller_tell counts them), which
 * it advances: a game keeps one stream and its position, so it replays
 * exactly. The outcome's fields (fray_call_noutcome of them, at most
 * FRAY_OUTCOME_MAX_FIELDS) go to outcome; *json gets the roll as --json
 * prints it ("seed" and "dice" in place of "seed" alone), *text the story
 * as told without --json (its first line the title). Free both. */
fray_status fray_call_roll_at(fray_call *c, uint64_t seed, uint64_t *dice, int64_t *outcome, char **json,
			      char **text);
/* The outcome's fields: how many, and after a roll the index in its
 * outcome of the field named (its JSON key, "casualties"), or -1 (also
 * for what the JSON derives from the fields, such as morale's "result"). */
size_t fray_call_noutcome(const fray_call *c);
int fray_call_outcome_index(const fray_call *c, const char *name);
/* After a roll, the field named of outcome into *out: FRAY_OK; a
 * name the outcome lacks (or no roll yet): FRAY_ERR_INPUT with a message
 * naming the procedure and the name, and *out 0. A reader that cannot
 * miss a misspelt name. */
fray_status fray_call_outcome_value(const fray_call *c, const int64_t *outcome, const char *name,
				    int64_t *out);
/* Input i by its option ("--figures", or an alias), or -1. */
int fray_call_input_index(const fray_call *c, const char *option);

#endif
