/* The catalogue: the bind files' own lists joined, by rule set. Each bind
 * file ends with the list of its procedures (frayi_<file>_procs, in the
 * order the rule text runs, NULL-terminated), right beside its descriptors,
 * which are static: a descriptor left out of its list is an unused
 * variable (an error with FRAY_WERROR), and tests/catalog/test_catalog.c
 * checks that every descriptor under src/catalog/ is in the catalogue. A
 * new procedure is a descriptor and a line in its file's list; a new bind
 * FILE is a line here. */
#include "catalog.h"

extern const proc_desc *const frayi_adbg_procs[], *const frayi_adbg_battle_procs[];
extern const proc_desc *const frayi_presidio_combat_procs[], *const frayi_presidio_morale_procs[],
	*const frayi_presidio_move_procs[], *const frayi_presidio_misc_procs[], *const frayi_presidio_raid_procs[];
extern const proc_desc *const frayi_bbb_procs[];
extern const proc_desc *const frayi_chits_combat_procs[], *const frayi_chits_procs[];
extern const proc_desc *const frayi_dice_procs[];

/* By rule set (ADBG, Presidio, BBB, chits, then fray's own dice), each set's
 * files as its text runs. */
static const proc_desc *const *const bind_files[] = {
	frayi_adbg_procs, frayi_adbg_battle_procs,
	frayi_presidio_combat_procs, frayi_presidio_morale_procs, frayi_presidio_move_procs,
			frayi_presidio_misc_procs, frayi_presidio_raid_procs,
	frayi_bbb_procs,
	frayi_chits_combat_procs, frayi_chits_procs,
	frayi_dice_procs,
};
#define NFILES (sizeof bind_files / sizeof bind_files[0])

/* The lists registered at run time (a test's own rule set), after
 * fray's. */
#define CATALOG_MAX_ADDED 8
static const proc_desc *const *added[CATALOG_MAX_ADDED];
static size_t nadded;

int frayi_catalog_register(const proc_desc *const *procs)
{
	if (!procs || !*procs)
		return FRAY_ERR_INPUT;
	for (const proc_desc *const *d = procs; *d; d++)
		if (!(*d)->name || !(*d)->command || frayi_catalog_find((*d)->name) ||
		    frayi_catalog_find((*d)->command))
			return FRAY_ERR_INPUT;
	if (nadded == CATALOG_MAX_ADDED)
		return FRAY_ERR_LIMIT;
	added[nadded++] = procs;
	return FRAY_OK;
}

static const proc_desc *const *file_at(size_t f)
{
	return f < NFILES ? bind_files[f] : f - NFILES < nadded ? added[f - NFILES] : NULL;
}

const proc_desc *frayi_catalog_proc(size_t k)
{
	for (size_t f = 0; file_at(f); f++)
		for (const proc_desc *const *d = file_at(f); *d; d++)
			if (k-- == 0)
				return *d;
	return NULL;
}

size_t frayi_catalog_nprocs(void)
{
	size_t n = 0;
	for (size_t f = 0; file_at(f); f++)
		for (const proc_desc *const *d = file_at(f); *d; d++)
			n++;
	return n;
}
