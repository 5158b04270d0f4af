/* The catalogue: the bind files' own lists joined, by rule set. Each bind
 * file ends with the list of its procedures (frayi_<file>_procs, in the
 * order the rule text runs, NULL-terminated), right beside its descriptors,
 * which are static: a descriptor left out of its list is an unused
 * variable (an error with FRAY_WERROR), and tests/catalog/test_catalog.c
 * checks that every descriptor under src/catalog/ is in the catalogue. A
 * new procedure is a descriptor and a line in its file's list; a new bind
 * FILE is a line in its set's files here; a new rule set a line in
 * fray_sets (or, for a test's own, frayi_catalog_register). */
#include <string.h>
#include "catalog.h"

extern const proc_desc *const frayi_adbg_procs[], *const frayi_adbg_battle_procs[];
extern const proc_desc *const frayi_presidio_combat_procs[], *const frayi_presidio_morale_procs[],
	*const frayi_presidio_move_procs[], *const frayi_presidio_misc_procs[], *const frayi_presidio_raid_procs[];
extern const proc_desc *const frayi_bbb_procs[];
extern const proc_desc *const frayi_chits_combat_procs[], *const frayi_chits_procs[];
extern const proc_desc *const frayi_dice_procs[];
extern const data_kind frayi_adbg_kinds[], frayi_presidio_kinds[], frayi_chits_kinds[];

/* The rule sets of the catalogue, each with its bind files as its text
 * runs (ADBG, Presidio, BBB, chits, then fray's own dice): the one list of
 * them below the game (the game's table, src/game/ruleset.h, names its
 * set here by id). */
static const proc_desc *const *const adbg_files[] = {frayi_adbg_procs, frayi_adbg_battle_procs, NULL};
static const proc_desc *const *const presidio_files[] = {
	frayi_presidio_combat_procs, frayi_presidio_morale_procs, frayi_presidio_move_procs,
	frayi_presidio_misc_procs, frayi_presidio_raid_procs, NULL};
static const proc_desc *const *const bbb_files[] = {frayi_bbb_procs, NULL};
static const proc_desc *const *const chits_files[] = {frayi_chits_combat_procs, frayi_chits_procs, NULL};
static const proc_desc *const *const dice_files[] = {frayi_dice_procs, NULL};

static const catalog_set fray_sets[] = {
	{"adbg", "A Dark and Bloody Ground quick battles", adbg_files, frayi_adbg_kinds},
	{"presidio", "Presidio skirmishes", presidio_files, frayi_presidio_kinds},
	{"bbb", "Bloody Big Battles", bbb_files},
	{"chits", "chit-pull brigade combat", chits_files, frayi_chits_kinds},
	{"dice", "fray's own dice", dice_files, .fray_own = true},
};
#define NFRAY_SETS (sizeof fray_sets / sizeof fray_sets[0])

/* The sets registered at run time (a test's own rule set), after fray's. */
#define CATALOG_MAX_ADDED 8
static const catalog_set *added[CATALOG_MAX_ADDED];
static size_t nadded;

const catalog_set *frayi_catalog_set(size_t i)
{
	return i < NFRAY_SETS ? &fray_sets[i] : i - NFRAY_SETS < nadded ? added[i - NFRAY_SETS] : NULL;
}

const catalog_set *frayi_catalog_set_find(const char *id)
{
	for (size_t i = 0; id && frayi_catalog_set(i); i++)
		if (!strcmp(frayi_catalog_set(i)->id, id))
			return frayi_catalog_set(i);
	return NULL;
}

int frayi_catalog_register(const catalog_set *set)
{
	if (!set || !set->id || !set->title || !set->files || !set->files[0] || frayi_catalog_set_find(set->id))
		return FRAY_ERR_INPUT;
	/* each procedure new, and named by its set ("fifth.volley") */
	size_t n = strlen(set->id);
	for (const proc_desc *const *const *f = set->files; *f; f++)
		for (const proc_desc *const *d = *f; *d; d++)
			if (!(*d)->name || !(*d)->command || strncmp((*d)->name, set->id, n) != 0 ||
			    (*d)->name[n] != '.' || frayi_catalog_find((*d)->name) || frayi_catalog_find((*d)->command))
				return FRAY_ERR_INPUT;
	if (nadded == CATALOG_MAX_ADDED)
		return FRAY_ERR_LIMIT;
	added[nadded++] = set;
	return FRAY_OK;
}

/* The f-th bind file's list, the sets' files in order. */
static const proc_desc *const *file_at(size_t f)
{
	for (size_t i = 0; frayi_catalog_set(i); i++)
		for (const proc_desc *const *const *l = frayi_catalog_set(i)->files; *l; l++)
			if (f-- == 0)
				return *l;
	return NULL;
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

FRAY_API const char *fray_rule_set(size_t i, const char **title)
{
	for (size_t k = 0; frayi_catalog_set(k); k++)
		if (!frayi_catalog_set(k)->fray_own && i-- == 0) {
			if (title)
				*title = frayi_catalog_set(k)->title;
			return frayi_catalog_set(k)->id;
		}
	if (title)
		*title = NULL;
	return NULL;
}
