/* Shared by the fray command's files: option parsing, messages, exit
 * statuses, colour. The CLI uses only the public API (<fray/fray.h>). */
#ifndef FRAY_CLI_H
#define FRAY_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <fray/fray.h>

enum { EXIT_OK = 0, EXIT_RUNTIME = 1, EXIT_BAD_INPUT = 2 };
/* A file was written (a game saved, a file made) but what fray prints
 * about it did not reach standard output: the work is done, do not run it
 * again (atomic.h, cli_check_printed). */
enum { EXIT_SAVED_UNPRINTED = 3 };

/* One command's argument cursor. An option given twice is refused (the
 * second would silently win) unless it is named in repeatable, a
 * NULL-terminated list (bbb fire's --weapon, sweep's --vary). */
#define CLI_MAX_SEEN 64
typedef struct cli_args {
	const char *cmd;   /* "roll", for messages: "fray roll: ..." */
	int argc;
	char **argv;
	int i;             /* next argument */
	int status;        /* EXIT_OK until an option error was reported */
	const char *const *repeatable;
	char seen[CLI_MAX_SEEN][48]; /* the options taken so far */
	int nseen;
} cli_args;

/* True when option name was taken (cli_flag, cli_value and the rest). */
bool cli_seen(const cli_args *a, const char *name);

/* Messages on stderr, "fray CMD: ...". Return the exit status given. */
int cli_error(const char *cmd, int status, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The exit status of a library failure: 2 for bad input, a limit or a
 * budget passed (FRAY_ERR_BUDGET: a memory budget, --max-memory; the
 * input is fine, the work past what was allowed), else 1 (out of memory,
 * a file that could not be read or written, a policy, a bug). */
int cli_exit_for(fray_status s);
/* Reports the context's failure; returns cli_exit_for its status. */
int cli_fail(const char *cmd, const fray_ctx *ctx);
/* The same with the command line's own hint after the library's message
 * ("(see 'fray procedures')"; NULL: none): the library names the input
 * (fray_ctx_input), the command line says where to look. */
int cli_fail_hint(const char *cmd, const fray_ctx *ctx, const char *hint);

/* Option parsing. cli_flag: true when argv[i] is `name` (and advances).
 * cli_value: true when argv[i] is `name V` or `name=V`; *value set; a
 * missing value is reported (a->status = 2). */
bool cli_flag(cli_args *a, const char *name);
/* A format's option at a->i ("--json", "--markdown", "--csv", "--html":
 * "--" and fray_format_name), one of those offers has a bit for (1u <<
 * FRAY_FORMAT_JSON | ...), into *form: true when one was taken. Text has
 * no option: it is what a command says when none is given. */
#define CLI_FORMAT(f) (1u << (f))
bool cli_format(cli_args *a, unsigned offers, fray_format *form);
bool cli_value(cli_args *a, const char *name, const char **value);
bool cli_u64(cli_args *a, const char *name, uint64_t lo, uint64_t hi,
	     uint64_t *out);
bool cli_i64(cli_args *a, const char *name, int64_t lo, int64_t hi,
	     int64_t *out);
/* `name V` where V is one of names: its index in *out. */
bool cli_enum(cli_args *a, const char *name, const char *const *names,
	      size_t n, size_t *out);
/* Reports argv[i] as an unknown option (with a hint from known) or as an
 * unexpected argument; returns 2. */
int cli_unknown(cli_args *a, const char *const *known, size_t nknown);
/* The name among n (each a const char * at the start of a record of
 * stride bytes) within two edits of name, or NULL: for "did you mean". */
const char *cli_nearest(const char *name, const char *const *known, size_t n, size_t stride);
bool cli_is_help(const char *arg);
/* True for "--name" and "-x"; false for a file name, and for "-", which
 * names standard input. */
bool cli_is_option(const char *arg);
/* A plain decimal number, as a player writes one ("12", "7.5"): digits
 * with at most one point, no sign, no hexadecimal, exponent, inf or nan,
 * at most 1,000,000. False for anything else. */
bool cli_decimal(const char *v, double *out);

/* A rule set's procedures: `fray GROUP NAME ...` runs the one named. */
typedef struct cli_sub {
	const char *name;
	int (*run)(int argc, char **argv);
} cli_sub;

/* Events told on stdout as they come: indented lines of text, or the
 * members of a JSON array. Headings ("== round 1 ==") stand out. */
typedef struct cli_narrator {
	fray_format form;         /* TEXT or JSON */
	bool first;
	char buf[1024];
} cli_narrator;
void cli_narrate(void *narrator, const fray_event *ev);

/* s as a JSON string literal, quotes included, for printf's arguments
 * (names and paths come from the user's files: quotes, backslashes and
 * control characters must be escaped). The result lives in one of
 * CLI_JSTR_SLOTS rotating buffers, so at most that many in one call; a
 * string too long for a slot is cut short (still valid JSON). */
#define CLI_JSTR_SLOTS 8
const char *cli_jstr(const char *s);

/* --max-memory MIB, exact odds' memory budget: up to 1 TiB. */
#define CLI_MAX_MEMORY_MIB (1u << 20)

/* Exact odds' other budgets (budget.c), for the catalogue's --odds (and a
 * procedure that only gives odds), fray table's --odds, advise and play:
 * --max-paths N, the walk's paths (0: the library's 20,000,000), and a
 * time budget in CPU seconds: --max-seconds S, else the environment's
 * FRAY_MAX_SECONDS, else CLI_MAX_SECONDS; 0: none. The time budget is a
 * timer (ITIMER_PROF) that sets cli_stop_signal to SIGPROF, so the work
 * passed cli_stop_signal as its stop ends as at Ctrl-C, and
 * cli_budget_passed says it was the budget. */
#define CLI_MAX_SECONDS 60u
#define CLI_MAX_SECONDS_MAX 1000000u
#define CLI_MAX_PATHS 1000000000u
typedef struct cli_budget {
	uint64_t max_paths;
	uint64_t seconds;
	bool seconds_given;  /* --max-seconds: FRAY_MAX_SECONDS is not read */
} cli_budget;
/* Takes --max-paths N or --max-seconds S at a->i: true when one was
 * taken (a->status says whether it was good). */
bool cli_budget_opt(cli_args *a, cli_budget *b);
/* The time budget from FRAY_MAX_SECONDS, unless --max-seconds gave it:
 * an exit status (2, said, for a value that is no whole number of
 * seconds in range). */
int cli_budget_env(const char *cmd, cli_budget *b);
/* Starts the timer (nothing for a budget of 0) / stops it and puts the
 * signal's old action back. */
void cli_budget_arm(const cli_budget *b);
void cli_budget_disarm(void);
bool cli_budget_passed(void);
/* "fray CMD: WHAT passed the time budget of S CPU seconds: nothing
 * printed or written (how to raise it)": returns 2. */
int cli_budget_refuse(const char *cmd, const cli_budget *b, const char *what);
/* The hint after the library's message when the walk passed b's path
 * budget (its message names it), else NULL. */
const char *cli_budget_paths_hint(const cli_budget *b, fray_status st, const char *msg);

/* Terminal safety (term.c). cli_term_guard, called first in main, makes
 * stdout and stderr show every control character but newline, tab and
 * carriage return as \xNN, and C1 and bidi controls as \u00NN, \u202e
 * (src/common/hidden.h); cli_raw_stdout writes fray's own colour codes
 * past it. cli_escape_controls copies s to dst (cap >= 4) with every
 * control character shown as \xNN, \u00NN (C1) or \u202e (bidi), as the
 * library's fray_term_string shows them, cut with "..." when too long; cli_tstr does the same into one of CLI_TSTR_SLOTS rotating
 * buffers, for printf's arguments (names from files in text output). */
void cli_term_guard(void);
void cli_raw_stdout(const char *s);
void cli_escape_controls(char *dst, size_t cap, const char *s);
#define CLI_TSTR_SLOTS 8
const char *cli_tstr(const char *s);

/* Ctrl-C and SIGTERM (stop.c): between cli_catch_stop and
 * cli_release_stop, either sets cli_stop_signal (the signal's number)
 * instead of killing fray, so long work stops and reports what it has;
 * cli_stop_status is then the shell's status for it (130, 143). */
#include <signal.h>
extern volatile sig_atomic_t cli_stop_signal;
void cli_catch_stop(void);
void cli_release_stop(void);
int cli_stop_status(void);

/* A progress line on stderr (progress.c), for long work: start it, pass
 * cli_progress_show as the work's progress callback with the cli_progress
 * as its data, and clear the line when the work ends. */
#include <time.h>
typedef struct cli_progress {
	struct timespec start;
	const char *unit;        /* "battles", "paths" */
	/* the total is a budget the work may stop well short of (exact
	 * odds' paths), not the work itself: no bar, "at most" */
	bool budget;
} cli_progress;
void cli_progress_start(cli_progress *p, const char *unit);
void cli_progress_show(uint64_t done, uint64_t total, void *ud);
/* The same line for an exact walk by stages (fray_enum_limits.estimate,
 * in place of .progress): "about N s left" only from the library's
 * forecast, otherwise the stage and the states waiting, and the budget's
 * time as the bound it is. */
void cli_progress_enum(const fray_enum_progress *pr, void *ud);
void cli_progress_clear(void);

/* Colour only on a terminal and never when NO_COLOR is set. */
bool cli_color(FILE *f);
/* A seed from the system when none is given (so it can be printed and
 * replayed): urandom, else time and pid. */
uint64_t cli_pick_seed(void);
/* Outcome i's exact probability ("5/12"), malloc'd (NULL: out of memory). */
char *cli_exact(const fray_dist *d, size_t i);

/* Writes len bytes to path so that a crash never leaves it half written:
 * a temporary file beside it, flushed to disk, renamed over it. Returns
 * false with errno set. */
bool cli_write_atomic(const char *path, const char *data, size_t len);

/* Before any work, for an output file named by option: refused (a
 * message, and 2) when it exists and is not a regular file, or when it is
 * a file the run reads through ctx (unless it is the file allow, as a
 * save that a resume replaces). EXIT_OK when it may be written. */
int cli_output_check(const char *cmd, const fray_ctx *ctx, const char *path, const char *option,
		     const char *allow);

/* Loads an adbg scenario into *out, printing every problem
 * (file:line:col); returns the exit status: 2 for a bad file, 1 when the
 * machine failed (out of memory) (cmd_adbg_battle.c). */
int cli_adbg_load_scenario(const char *cmd, fray_ctx *ctx, const char *path, fray_adbg_scenario **out);

/* The commands (commands.c): one table for dispatch, `fray help`'s usage,
 * `fray help commands` (completion) and the man page's check. */
typedef struct cli_command {
	const char *name, *args, *summary;
	int (*run)(int argc, char **argv); /* NULL: another usage line of the command above */
} cli_command;
extern const cli_command cli_commands[];
extern const size_t cli_ncommands;
const cli_command *cli_command_find(const char *name);
void cli_commands_usage(FILE *out);
void cli_commands_names(FILE *out);

/* Help topics (cmd_help.c). Prints the topic; false when unknown. */
bool cli_help_topic(FILE *out, const char *topic);

int cmd_roll(int argc, char **argv);
int cmd_odds(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_help(int argc, char **argv);
int cmd_adbg(int argc, char **argv);
int cmd_bbb(int argc, char **argv);
int cmd_chits(int argc, char **argv);
int cmd_presidio(int argc, char **argv);
int cmd_merge(int argc, char **argv);
int cmd_procedures(int argc, char **argv);
int cmd_request(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_table(int argc, char **argv);
/* A JSON request's bytes (at most FRAY_REQUEST_MAX_BYTES) from a file, a
 * pipe or standard input ("-"); errors are told as cmd's. cli_read_text:
 * the same with max bytes (the budget of the kind of file read). */
int cli_read_request(const char *cmd, const char *path, char **out);
int cli_read_text(const char *cmd, const char *path, size_t max, char **out);
int cmd_serve(int argc, char **argv);
int cmd_scenario(int argc, char **argv);
/* The kinds fray scenario new makes (its templates), sep between them. */
void cli_scenario_kinds(char *dst, size_t cap, const char *sep);

#endif
