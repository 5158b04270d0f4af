/* Presidio Section 3, Combining Units: "if players want to combine
 * figures of 2 separate units into one. This takes 4 actions (bugles and
 * drums don't help) and can only be done with an officer present ... The
 * new unit will have an inexperienced morale status ... and will
 * disregard previous casualties for morale checks. Recount the figures in
 * the unit to determine the new unit size morale casualty DM's." No die:
 * the numbers the new unit's morale checks use. */
#include <stdio.h>
#include "../../core/internal.h"
#include <fray/presidio.h>

FRAY_API const char *fray_presidio_combine_refused(const fray_presidio_combine_in *in)
{
	if (!in->officer)
		return "combining two units can only be done with an officer present, who stays with the new unit "
		       "(Presidio Section 3, Combining Units)";
	if (in->figures1 < 1 || in->figures2 < 1)
		return "each unit brings at least one figure (Presidio Section 3, Combining Units)";
	return NULL;
}

FRAY_API void fray_presidio_combine_procedure(fray_roller *r, fray_policy *p, const void *input, int64_t *out)
{
	(void)p;
	const fray_presidio_combine_in *in = input;
	int figures = in->figures1 + in->figures2;
	out[0] = figures;
	out[1] = fray_presidio_size_of(figures);
	out[2] = FRAY_PRESIDIO_INEXPERIENCED;
	out[3] = 0;
	out[4] = 4;
	if (fray_roller_narrating(r)) {
		char text[200];
		snprintf(text, sizeof text, "one new unit of %d figures: a %s, inexperienced, no casualties counted; "
			 "4 actions", figures, fray_presidio_size_names[out[1]]);
		fray_emit_result(r, "combined", figures, text, "Presidio Section 3, Combining Units");
	}
}
