/* Presidio Section 5, Disengaging from Melee: a unit that disengages
 * (a retreat or a fall back) may be pursued "if the opposing unit has any
 * actions left ... (no charge bonus unless they have 2 actions left)". */
#include "../../core/internal.h"
#include <fray/presidio.h>

FRAY_API const char *fray_presidio_disengage_pursuit_refused(int actions_left)
{
	if (actions_left < 1)
		return "the opposing unit has no action left: it cannot pursue a unit disengaging (Presidio Section "
		       "5, Disengaging from Melee)";
	return NULL;
}

FRAY_API fray_presidio_impact fray_presidio_disengage_pursuit_impact(fray_presidio_impact charge, int actions_left)
{
	return actions_left >= 2 ? charge : FRAY_PRESIDIO_NO_CHARGE;
}
