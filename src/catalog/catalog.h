/* The catalogue: every procedure of the four rule sets described once, as
 * data (its inputs, its outcome fields, its rule references), with a bind
 * function that turns checked input values into the rules function's input
 * struct. The command line, fray_request and the page all go through it,
 * so a procedure's options, checks, help and JSON are written once. */
#ifndef FRAY_CATALOG_INTERNAL_H
#define FRAY_CATALOG_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <fray/catalog.h>
#include "../core/internal.h"
#include "strbuf.h"

/* Descriptors are data: a member left out of an initializer is "none"
 * (NULL, 0, false), whether the others are named or in order. */
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

typedef enum in_type { IN_INT, IN_NUMBER, IN_BOOL, IN_CHOICE, IN_STRING, IN_FILE } in_type;

/* How an input's value is stored in the rules' input struct: CT_NONE, not
 * stored by the generic code (bind reads it); an integer of the field's size
 * (int, an enum: a choice's index); a double; a bool (a choice: its index is
 * not 0); a char array (a string, cut to the array, never mid-character). */
typedef enum in_ctype { CT_NONE, CT_INT, CT_DOUBLE, CT_BOOL, CT_CHARS } in_ctype;

/* An input bound to field f of the rules' input struct T: generic code
 * writes its value (or its default) there before bind runs. f is an
 * integer or enum, a double, a bool or a char array; never a pointer
 * (it would be taken for an integer). */
#define IN_FIELD(T, f)                                                                                          \
	.at = offsetof(T, f), .size = sizeof(((T *)0)->f),                                                      \
	.ctype = _Generic(((T *)0)->f, double: CT_DOUBLE, bool: CT_BOOL, char *: CT_CHARS, default: CT_INT)

/* An input bound to the k-th int of a procedure whose input is an int
 * array (int[n]: a bool is stored as 0 or 1). */
#define IN_INT_AT(k) .at = (k) * sizeof(int), .size = sizeof(int), .ctype = CT_INT

typedef struct fray_call fray_call;

/* An input the command line also takes as repeated groups (its own
 * syntax, not a rule): each --HEAD V followed by one count option --COUNT
 * N (N from 1), joined into the input's value as "V:N,V:N" (bbb fire's
 * --weapon RR --bases 4 --weapon SA --units 1 is --weapons RR:4,SA:1). */
typedef struct in_group {
	const char *head;                /* "weapon" */
	const char *counts[3];           /* its count options: "bases", "units" */
	const char *count_words[3];      /* what each counts: "bases", "artillery units" */
	int max;                         /* groups at most */
	/* Which count option head value v takes (an index in counts), and
	 * v as the text names it (*named, "RR" for "rr"); or -1 with a
	 * message (an unknown weapon): the procedure's check. */
	int (*count_of)(fray_call *c, const char *v, const char **named);
} in_group;

/* One input. Its JSON key is name; its option is --name with '-' for '_'
 * unless option says otherwise. */
typedef struct in_desc {
	const char *name;
	in_type type;
	int64_t min, max;                /* IN_INT; IN_NUMBER uses them too */
	const char *const *choices;      /* IN_CHOICE */
	size_t nchoices;
	int64_t def;                     /* default: the value, or the choice's index */
	bool required;
	const char *help;                /* one line, for --help and the page */
	const char *rule;                /* where the input comes from */
	const char *unit;                /* "inches", "figures"; NULL: none */
	const char *alias;               /* another option for it ("shaman") */
	const char *expects;             /* the range in words for messages
					    ("inches from 0"); NULL: min to max */
	/* where generic code stores it (IN_FIELD) */
	in_ctype ctype;
	size_t at, size;
	/* required and not given: what the message says after "missing
	 * --opt" ("FILE: your game's CRT"); NULL: every required option is
	 * named (see 'fray ... --help') */
	const char *missing;
	/* inputs that cannot be given with this one (NULL-terminated), and
	 * why, said after "--a and --b: " */
	const char *const *excludes;
	const char *why_excluded;
	/* the command line takes it without its option too: the first
	 * argument that is no option (fray chits combat FILE) */
	bool positional;
	/* the command line takes it as repeated groups too (NULL: no) */
	const in_group *group;
	/* IN_STRING: the k-th name the data offers for it (a weapon of
	 * Section 10, a policy), NULL past the last; the catalogue lists them
	 * as its "choices", so the page shows a picker. The bind still looks
	 * the name up (NULL: free text) */
	const char *(*suggest)(size_t k);
	/* the input in a player's words, without the side it sits under
	 * ("combat die roll" for attacker_cdr); NULL: its name's words */
	const char *label;
} in_desc;

/* One outcome field: its index in the outcome array is its place in the
 * descriptor. The words tell it in text: before and after its value
 * (before NULL: ", " between fields), and a boolean's words for true and
 * false ("hit", "miss"); its JSON is "name": value. */
typedef struct out_desc {
	const char *name;
	const char *type;                /* "integer", "boolean", "string" */
	const char *help;
	const char *before, *after;
	const char *yes, *no;
	/* a string's or integer's values in words for people: {the value as
	 * its JSON gives it, the words} pairs, ending with {NULL, NULL}
	 * ({"+4-6", "the attacker carries the position ..."}); NULL: none */
	const char *const (*says)[2];
} out_desc;

/* The question a player asks of a procedure, for the page: the chance
 * that outcome field `field` passes `test` ("== true", ">= 1"), said as
 * `says` ("the fire hits"); test "each": the chance of each of its values
 * (who wins, which assault result). */
typedef struct headline {
	const char *field, *test, *says;
} headline;

/* Inputs that belong to the attacker and the defender, paired: swapping
 * the sides swaps each pair's values. */
typedef struct side_pair {
	const char *attacker, *defender;
} side_pair;

/* Writes outcome o as a JSON object's members or as words, into t. */
typedef void (*outcome_fmt)(const fray_call *c, const int64_t *o, fray_format form, textbuf *t);

typedef struct proc_desc {
	const char *name;                /* "adbg.fire" */
	const char *command;             /* "adbg fire" */
	const char *summary;             /* one line */
	const char *rules;               /* "ADBG 19.2.1, ruling R5" */
	const char *about;               /* help's paragraph (may be NULL) */
	const in_desc *in;
	size_t nin;
	const out_desc *out;
	size_t nout;
	unsigned modes;                  /* FRAY_MODE_ROLL | FRAY_MODE_ODDS */
	const char *example;             /* inputs that run: a JSON object */
	/* Checks what the descriptor cannot (missing inputs, conflicts,
	 * names looked up) and fills c's run: frayi_fail and a status on a
	 * problem. */
	fray_status (*bind)(fray_call *c);
	/* SIMULATE: members or lines after the outcomes ("caught"); NULL:
	 * none */
	void (*totals)(const fray_call *c, const fray_dist *d, fray_format form, strbuf *sb);
	/* A procedure with output of its own (a whole battle): renders the
	 * mode itself; NULL: the common renderer */
	fray_status (*render)(fray_call *c, const fray_call_opts *o, strbuf *sb);
	/* its odds fall back to a simulation (of the request's trials) when
	 * exact odds are out of reach */
	bool odds_may_simulate;
	/* for the page: the headline, and the sides' inputs (NULL-terminated
	 * by a pair of NULLs; NULL: no sides) */
	headline headline;
	const side_pair *sides;
	/* the generic code checks its inputs (required, excludes), stores
	 * the bound ones (IN_FIELD) and echoes them all before bind runs,
	 * and formats its outcome from the descriptor unless bind gives a
	 * formatter. false: bind does it all (procedures not converted yet) */
	bool generic;
	const char *also;                /* another command for it ("presidio stampede"); NULL: none */
	/* the rule text's worked example that `example` is ("Presidio Section
	 * 4, Example"); NULL: an example of fray's choosing */
	const char *example_from;
	/* no sides on purpose (sides NULL): one unit's roll, a side's own
	 * check; every descriptor has sides or says this */
	bool no_sides;
	/* its exact odds computed its own way (a dice expression's
	 * convolution); NULL: by enumerating its rolls */
	fray_status (*odds)(fray_call *c, fray_dist **out);
	/* what a player may type to find it, beyond its summary, command and
	 * rules ("volley", "charge", "2d6"): the one list of its synonyms,
	 * for every search (the page's); NULL: none */
	const char *words;
	/* the page's other questions after the headline (the other side's
	 * hits, the attacker carrying the position); field NULL: none */
	headline more_headlines[2];
} proc_desc;

#define CALL_MAX_INPUTS 48
#define CALL_INPUT_BYTES 4096
#define CALL_MAX_TEXT 1000          /* a string or file input's bytes */

typedef struct value {
	bool given;
	int64_t i;                       /* int, bool, choice index */
	double x;                        /* number */
	char *s;                         /* string, file's path or name (owned) */
	char *text;                      /* a file's document given as text (owned) */
	size_t len;
} value;

struct fray_call {
	fray_ctx *ctx;
	const proc_desc *d;
	bool from_json;                  /* messages name "cf", not "--cf" */
	bool no_files;                   /* a path names only a shipped example */
	value v[CALL_MAX_INPUTS];
	/* the run, filled by bind; bound until a value changes */
	bool bound;
	fray_procedure proc;
	size_t nfields;
	outcome_fmt fmt;
	fray_enum_limits limits;
	char title[512];
	char inputs_json[16384];
	_Alignas(max_align_t) unsigned char input[CALL_INPUT_BYTES];
	void (*cleanup)(fray_call *c);   /* frees what bind loaded */
	void *owned[4];
	/* a repeated group being read (in_group): its input, its head's
	 * value, the count option it takes plus 1 (0: none open), and the
	 * groups so far */
	size_t group_k;
	char group_head[64];
	int group_wants;
	int ngroups;
};

/* The input struct bind fills, in the call's own storage. */
#define CALL_INPUT(c, type) \
	((type *)(c)->input + 0 * sizeof(char[sizeof(type) <= CALL_INPUT_BYTES ? 1 : -1]))

/* Values for bind, by the input's index in the descriptor. */
static inline int64_t val_i(const fray_call *c, size_t k) { return c->v[k].i; }
static inline bool val_b(const fray_call *c, size_t k) { return c->v[k].i != 0; }
static inline bool val_given(const fray_call *c, size_t k) { return c->v[k].given; }
static inline double val_x(const fray_call *c, size_t k) { return c->v[k].x; }
static inline const char *val_s(const fray_call *c, size_t k) { return c->v[k].s; }
/* An input's option: "--target-figures" for target_figures, into dst. */
const char *frayi_call_option_name(const char *name, char *dst, size_t cap);
/* How the input is named to the user: "--cf" on the command line, "cf" in
 * a request. Valid until the next call. */
/* input k as messages name it: "--cf" (command line) or "cf" (a request);
 * a thread's slot, good for the next seven calls: for messages only */
const char *frayi_call_opt(const fray_call *c, size_t k);
/* Records a bad-input failure (FRAY_ERR_INPUT) with the message. */
fray_status frayi_call_bad(fray_call *c, const char *fmt, ...) FRAY_PRINTF(2, 3);
/* The same, about input k: fray_ctx_input then names it (its JSON name),
 * so a front end shows the message at its field or adds its own hint. */
fray_status frayi_call_bad_at(fray_call *c, size_t k, const char *fmt, ...) FRAY_PRINTF(3, 4);
/* "missing WHAT", about input k (not given): the command line adds where
 * the options are told. */
fray_status frayi_call_missing(fray_call *c, size_t k, const char *what);

/* The document of file input k: its text when given as text, a shipped
 * example by its path when the call reads no files, else the file. Named
 * by the path or name given, for messages (file:line:col). */
fray_status frayi_call_load_doc(fray_call *c, size_t k, fray_doc **out);
/* A file another document names (a scenario's CRT, a combat's mix): read,
 * or under no_files a shipped example or else refused with the hint. */
fray_status frayi_call_open_named(const fray_call *c, fray_ctx *ctx, const char *path, const char *hint,
			    fray_doc **out);
/* A shipped example's document by its path; FRAY_ERR_INPUT if there is
 * none. */
fray_status frayi_shipped_doc(fray_ctx *ctx, const char *path, fray_doc **out);

/* Writes c->inputs_json: every input in the descriptor's order with its
 * value (the default when not given; a string only when given), then
 * extra members when extra is not NULL ("\"hit_number\": 7"). */
void frayi_call_echo(fray_call *c, const char *extra, ...) FRAY_PRINTF(2, 3);
/* c->title from a format. */
void frayi_call_title(fray_call *c, const char *fmt, ...) FRAY_PRINTF(2, 3);

/* Presidio unit statistics (Section 1, G4): loads the file input
 * file_k and finds the unit named by each input names_k[i] (not given:
 * out[i] zeroed). Messages name the options. */
fray_status frayi_call_presidio_units(fray_call *c, size_t file_k, size_t n, const size_t *names_k,
				fray_presidio_unit_type *out);

/* The band of a range in inches by a range class (ruling R12), or a
 * message naming what fires ("flintlock pistol") and the text's section. */
fray_status frayi_call_presidio_band(fray_call *c, fray_presidio_range_class rc, double inches, const char *what,
			       const char *section, int *band);
/* A piece that fires shell, named by input k, or a message. */
const fray_presidio_gun *frayi_call_presidio_shell(fray_call *c, size_t k);
/* A structure of the Target Strengths by name, or a message. */
fray_status frayi_call_presidio_structure(fray_call *c, const char *name, int *strength);

/* The outcome told from the descriptor's words (out_desc). */
void frayi_fmt_outcome(const fray_call *c, const int64_t *o, fray_format form, textbuf *t);

/* Sets what bind bound: the rules function, its outcome fields and their
 * renderer (NULL: frayi_fmt_outcome). */
static inline void call_run(fray_call *c, fray_procedure proc, size_t nfields, outcome_fmt fmt)
{
	c->proc = proc;
	c->nfields = nfields;
	c->fmt = fmt ? fmt : frayi_fmt_outcome;
}
/* A true/false outcome as "key": true in JSON, else the words. */
static inline void fmt_yes_no(textbuf *t, fray_format form, const char *key, const char *yes, const char *no, int64_t v)
{
	if (form == FRAY_FORMAT_JSON)
		text_add(t, "\"%s\": %s", key, v ? "true" : "false");
	else
		text_add(t, "%s", v ? yes : no);
}

/* The policies a battle's or a chits combat's policy input offers as its
 * choices (bind_adbg_battle.c): the k-th, NULL past the last. */
const char *frayi_catalog_policy_name(size_t k);

/* The catalogue, in the order `fray procedures` lists it (list.c joins
 * the bind files' own lists): the k-th procedure (NULL past the last), and
 * how many there are. */
const proc_desc *frayi_catalog_proc(size_t k);
size_t frayi_catalog_nprocs(void);
/* A rule set of the catalogue: its id (its procedures' prefix, "presidio"
 * of "presidio.shoot", and its commands' first word), its title, its bind
 * files' lists (NULL-terminated) as its text runs. */
/* A kind of data file a rule set reads (fray check, data_check.c): told by
 * its top-level keys, checked by its reader, which records every problem
 * on doc and the first on ctx. */
typedef struct data_kind {
	const char *name;
	const char *keys[2];
	const char *with; /* the keys in words, for messages and help */
	fray_status (*check)(fray_ctx *ctx, fray_doc *doc, fray_doc_open_fn open, void *ud);
} data_kind;
typedef struct catalog_set {
	const char *id, *title;
	const proc_desc *const *const *files;
	/* the data files it reads, in the order they are tried, ending with
	 * {NULL}; NULL: none */
	const data_kind *kinds;
	/* fray's own (its dice expressions): in the catalogue, but no rule
	 * set of a published text */
	bool fray_own;
} catalog_set;
/* The i-th set (fray's, then those registered; NULL past the last); by id. */
const catalog_set *frayi_catalog_set(size_t i);
const catalog_set *frayi_catalog_set_find(const char *id);
/* Adds a rule set after fray's own (a test's: tests/game/fifth/), before
 * any call; not thread safe. FRAY_ERR_INPUT for a set without files, an id
 * taken, or a procedure named outside its id or whose name or command is
 * taken; FRAY_ERR_LIMIT when the catalogue has no room left. */
int frayi_catalog_register(const catalog_set *set);
/* Its listings (FRAY_MODE_SHOW: tables, checklists, reckonings with no
 * dice; tables.c), found by name and command like the procedures but not
 * in `fray procedures`. */
extern const proc_desc *const frayi_catalog_shows[];
extern const size_t frayi_catalog_nshows;
const proc_desc *frayi_catalog_find(const char *name_or_command);

/* A narrating sink into sb, as the command line tells events. */
typedef struct narrator {
	strbuf *sb;
	fray_format form;
	bool first;
} narrator;
void frayi_narrate(void *narrator, const fray_event *ev);

/* A battle's odds report (adbg_odds_report.c) and the battle simulation's
 * (adbg_sim_report.c), by the renderers' table (renderers.c): FRAY_OK, or
 * FRAY_ERR_INPUT for a format it has none of (sb untouched). */
fray_status frayi_adbg_odds_report(strbuf *sb, const fray_adbg_odds_about *m, const fray_dist *d, fray_format form);
fray_status frayi_adbg_sim_report(strbuf *sb, const fray_adbg_sim_about *m, const fray_sim *s, fray_format form);

/* Runs a bound call: the roll (narrated) or the exact odds in the format
 * asked, into out: by the procedure's own renderer if it has one, else the
 * common one (frayi_render_common: computed once, rendered by the table of
 * renderers, result.h). */
fray_status frayi_render_call(fray_call *c, const fray_call_opts *o, strbuf *out);
fray_status frayi_render_common(fray_call *c, const fray_call_opts *o, strbuf *out);

/* An enumeration's limits under the call's options: its memory and path
 * budgets (each the smaller, where set: a budget only ever lowers a
 * limit), its stop flag and its progress. */
static inline fray_enum_limits call_limits(fray_enum_limits lim, const fray_call_opts *o)
{
	if (o->max_bytes && (lim.max_bytes == 0 || o->max_bytes < lim.max_bytes))
		lim.max_bytes = o->max_bytes;
	if (o->max_paths && (lim.max_paths == 0 || o->max_paths < lim.max_paths))
		lim.max_paths = o->max_paths;
	lim.stop = o->stop;
	lim.progress = o->progress;
	lim.ud = o->ud;
	return lim;
}

#endif
