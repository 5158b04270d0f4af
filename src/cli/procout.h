/* The options every procedure takes (--odds, --json, --seed, --max-memory);
 * catalogue procedures run and render in libfray (src/catalog). */
#ifndef FRAY_CLI_PROCOUT_H
#define FRAY_CLI_PROCOUT_H

#include "cli.h"

typedef struct proc_opts {
	bool odds, have_seed, exact;
	fray_format form;         /* --json: JSON, else TEXT */
	uint64_t seed;
	uint64_t max_mib;         /* --max-memory, 0: the default (1 GiB) */
} proc_opts;

/* Takes --odds, --exact, --json, --seed N and --max-memory MIB at a->i; true when
 * one was taken. */
bool proc_opt(cli_args *a, proc_opts *o);

#endif
