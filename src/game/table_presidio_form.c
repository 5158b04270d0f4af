/* Presidio: the defaults the rules give a unit's options now, for the
 * game screen's form (api/v1/game's "units"): a shot's fire mode is a
 * volley when the unit may fire one (fray_presidio_volley_refused: fully
 * loaded, in line, in formation; ruling R27), else independent fire, the
 * rules' default. The rule is the rules function's; this only fills its
 * input from the unit, as the shot does. */
#include <string.h>
#include <fray/presidio.h>
#include "table.h"

static fray_presidio_standing standing_now(const table_unit *u)
{
	for (int k = 0; k < FRAY_PRESIDIO_NSTANDINGS; k++)
		if (!strcmp(frayi_unit_status_names[u->status], fray_presidio_standing_names[k]))
			return (fray_presidio_standing)k;
	return FRAY_PRESIDIO_GOOD;
}

const char *frayi_table_presidio_default(const table_unit *u, const char *input)
{
	if (strcmp(input, "mode") != 0)
		return NULL;
	fray_presidio_shoot_in in = {.mode = FRAY_PRESIDIO_VOLLEY, .volley_ready = PRESIDIO_OF(u)->line, .reload_left = PRESIDIO_OF(u)->reload,
				     .after_volley = PRESIDIO_OF(u)->volleyed && PRESIDIO_OF(u)->reload > 0, .firer_standing = standing_now(u)};
	return fray_presidio_volley_refused(&in) ? NULL : "volley";
}
