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

FRAY_API bool fray_presidio_disengaged(fray_presidio_standing s)
{
	/* a failed check that breaks contact leaves the unit fallen back,
	 * retreated or panicked (fray_presidio_keeps_contact); a unit that
	 * broke it in another standing left by its own move */
	return fray_presidio_keeps_contact(s);
}

FRAY_API const char *fray_presidio_pursued_refused(fray_presidio_standing s, bool broke_from_it)
{
	const char *why = fray_presidio_pursuit_refused(broke_from_it);
	if (why)
		return why;
	/* Disengaging from Melee: "A unit can voluntarily disengage from melee
	 * during its own action sequence ... If the opposing unit has any
	 * actions left, they may attempt to pursue" */
	if (fray_presidio_disengaged(s))
		return NULL;
	return fray_presidio_act_refused(s, FRAY_PRESIDIO_ACT_BE_PURSUED);
}
