/* The options every procedure takes (--odds, --json, --seed, --max-memory),
 * and the exact odds of a procedure outside the catalogue (chit combat
 * from a file), in the common shape {"procedure", "inputs", "outcomes",
 * "unresolved"}. Catalogue procedures render in libfray (src/catalog). */
#ifndef FRAY_CLI_PROCOUT_H
#define FRAY_CLI_PROCOUT_H

#include "cli.h"

/* Writes outcome o as a JSON object's members ("\"hit\": true") or as
 * words ("hit"), into dst of cap bytes. */
typedef void (*outcome_fmt)(const int64_t *o, bool json, const void *input, char *dst,
			    size_t cap);

typedef struct proc_run {
	const char *name;         /* "adbg.fire" */
	const char *title;        /* "fire: regular, CF 3, wilderness" */
	const char *inputs_json;  /* "{\"type\": \"regular\", ...}" */
	fray_procedure proc;
	const void *input;
	size_t nfields;
	outcome_fmt fmt;
	fray_enum_limits limits;  /* for --odds; zero: the defaults */
} proc_run;

typedef struct proc_opts {
	bool odds, json, have_seed, exact;
	uint64_t seed;
	uint64_t max_mib;         /* --max-memory, 0: the default (1 GiB) */
} proc_opts;

/* Takes --odds, --exact, --json, --seed N and --max-memory MIB at a->i; true when
 * one was taken. */
bool proc_opt(cli_args *a, proc_opts *o);
/* Prints its exact odds; returns the exit status. */
int proc_run_print(const char *cmd, const proc_run *run, const proc_opts *o);

#endif
