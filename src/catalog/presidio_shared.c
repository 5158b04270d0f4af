/* What Presidio's catalogue procedures share: the unit statistics file
 * (Section 1; RULES-NOTES G4: the text's statistics are the user's data),
 * range bands (R12), shells and structures (Sections 9 and 10). */
#include <stdlib.h>
#include <string.h>
#include "catalog.h"

fray_status frayi_call_presidio_units(fray_call *c, size_t file_k, size_t n, const size_t *names_k,
				fray_presidio_unit_type *out)
{
	bool any = false;
	for (size_t i = 0; i < n; i++) {
		memset(&out[i], 0, sizeof out[i]);
		any |= val_given(c, names_k[i]);
	}
	const char *file = val_given(c, file_k) ? val_s(c, file_k) : NULL;
	if (!any)
		return file ? frayi_call_bad(c, "%s FILE needs %s NAME", frayi_call_opt(c, file_k),
				frayi_call_opt(c, names_k[0]))
			    : FRAY_OK;
	if (!file) {
		size_t k = 0;
		while (!val_given(c, names_k[k]))
			k++;
		return frayi_call_bad(c, "%s NAME needs %s FILE (unit statistics; see examples/presidio/units.yaml)",
				frayi_call_opt(c, names_k[k]), frayi_call_opt(c, file_k));
	}
	fray_doc *doc;
	if (frayi_call_load_doc(c, file_k, &doc) != FRAY_OK)
		return fray_ctx_status(c->ctx);
	fray_presidio_units *units = malloc(sizeof *units);
	fray_status st = FRAY_OK;
	if (!units) {
		st = frayi_nomem(c->ctx);
	} else if (!fray_presidio_units_read(doc, units)) {
		st = frayi_call_bad(c, "%s",
				fray_doc_error_count(doc) ? fray_doc_error_msg(doc, 0) : "bad unit statistics");
	} else {
		for (size_t i = 0; st == FRAY_OK && i < n; i++) {
			if (!val_given(c, names_k[i]))
				continue;
			const fray_presidio_unit_type *t = fray_presidio_unit_find(units, val_s(c, names_k[i]));
			if (!t)
				st = frayi_call_bad(c, "option %s: no unit type '%.200s' in %.200s",
						frayi_call_opt(c, names_k[i]),
					      val_s(c, names_k[i]), file);
			else
				out[i] = *t;
		}
	}
	free(units);
	fray_doc_free(doc);
	return st;
}

fray_status frayi_call_presidio_band(fray_call *c, fray_presidio_range_class rc, double inches, const char *what,
			       const char *section, int *band)
{
	*band = fray_presidio_band(rc, inches);
	if (*band >= 0)
		return FRAY_OK;
	int lim[3];
	fray_presidio_band_limits(rc, lim);
	return frayi_call_bad(c, "%s (%s range class) reaches less than %d\", not %g\" (Presidio %s, ruling R12)", what,
			fray_presidio_range_class_names[rc], lim[2], inches, section);
}

const fray_presidio_gun *frayi_call_presidio_shell(fray_call *c, size_t k)
{
	const fray_presidio_gun *g = fray_presidio_gun_find(val_s(c, k), FRAY_PRESIDIO_SHELL);
	if (!g)
		frayi_call_bad(c, "no shell for '%.200s' in the artillery list (Section 10): pieces such as "
			    "\"6# cannon, smoothbore\", \"24# mortar\"", val_s(c, k));
	return g;
}

fray_status frayi_call_presidio_structure(fray_call *c, const char *name, int *strength)
{
	for (size_t k = 0; k < fray_presidio_nstructures; k++)
		if (strcmp(name, fray_presidio_structures[k].name) == 0) {
			*strength = fray_presidio_structures[k].strength;
			return FRAY_OK;
		}
	return frayi_call_bad(c, "unknown structure '%.200s' (for example: %s, %s, %s)", name,
			fray_presidio_structures[0].name, fray_presidio_structures[6].name,
			fray_presidio_structures[15].name);
}
