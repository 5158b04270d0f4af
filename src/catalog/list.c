/* The catalogue's order: by rule set, then as the rule text runs. */
#include "catalog.h"

const proc_desc *const catalog_procs[] = {
	&adbg_fire_desc, &adbg_move_desc, &adbg_recover_desc, &adbg_rounds_desc,
};
const size_t catalog_nprocs = sizeof catalog_procs / sizeof catalog_procs[0];
