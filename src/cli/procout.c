/* The options every procedure takes on the command line. */
#include <stdint.h>
#include "procout.h"

bool proc_opt(cli_args *a, proc_opts *o)
{
	if (cli_flag(a, "--odds"))
		o->odds = true;
	else if (cli_format(a, CLI_FORMAT(FRAY_FORMAT_JSON), &o->form))
		;
	else if (cli_flag(a, "--exact"))
		o->exact = o->odds = true;
	else if (cli_u64(a, "--seed", 0, UINT64_MAX, &o->seed))
		o->have_seed = true;
	else if (cli_u64(a, "--max-memory", 1, CLI_MAX_MEMORY_MIB, &o->max_mib))
		;
	else
		return false;
	return true;
}
