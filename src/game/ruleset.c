/* The registry of rule sets: fray's own, in the order they are listed
 * (fray help, the game file's rules), then those registered at run time. */
#include <string.h>
#include "ruleset.h"
#include "../common/text.h"
#include "../catalog/catalog.h"

static const game_ruleset *sets[RULESET_MAX] = {&frayi_presidio_ruleset, &frayi_bbb_ruleset, &frayi_chits_ruleset};
static size_t nsets = 3;

size_t frayi_ruleset_count(void)
{
	return nsets;
}

const game_ruleset *frayi_ruleset_at(size_t i)
{
	return i < nsets ? sets[i] : NULL;
}

const game_ruleset *frayi_ruleset_find(const char *id)
{
	for (size_t i = 0; id && i < nsets; i++)
		if (!strcmp(sets[i]->id, id))
			return sets[i];
	return NULL;
}

const char *frayi_ruleset_title(const game_ruleset *rs)
{
	const catalog_set *set = frayi_catalog_set_find(rs->id);
	return set ? set->title : rs->id;
}

size_t frayi_ruleset_ids(const char **ids, size_t cap)
{
	size_t n = 0;
	for (; n < nsets && n < cap; n++)
		ids[n] = sets[n]->id;
	return n;
}

const char *frayi_ruleset_ids_words(char *buf, size_t cap)
{
	textbuf t = text_on(buf, cap);
	for (size_t i = 0; i < nsets; i++)
		text_add(&t, "%s%s", i == 0 ? "" : i + 1 < nsets ? ", " : " or ", sets[i]->id);
	return buf;
}

int frayi_ruleset_register(const game_ruleset *rs)
{
	if (!rs || !rs->id || !rs->fields || !rs->actions || frayi_ruleset_find(rs->id) ||
	    !frayi_catalog_set_find(rs->id))
		return FRAY_ERR_INPUT;
	/* the readers list a unit's keys on the stack (read_unit's 32) */
	if (rs->nfields > 32)
		return FRAY_ERR_INPUT;
	/* an own field inside the unit's area (a battalions' hits list
	 * reads the unit's battalions: not an own field) */
	for (size_t i = 0; i < rs->nfields; i++) {
		const unit_field *f = &rs->fields[i];
		size_t size = f->kind == F_STR ? frayi_field_cap(f) : f->kind == F_BOOL ? sizeof(bool) : sizeof(int);
		if (f->kind == F_STR && size < 2)
			return FRAY_ERR_INPUT;
		if (f->own && (f->kind == F_HITS || f->off > TABLE_UNIT_OWN - size))
			return FRAY_ERR_INPUT;
	}
	if (nsets == RULESET_MAX)
		return FRAY_ERR_LIMIT;
	sets[nsets++] = rs;
	return FRAY_OK;
}
