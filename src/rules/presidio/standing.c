/* A Presidio unit's standing (the marker a morale result leaves on it,
 * Section 7) and what a unit of each standing may do (Sections 2, 4, 5
 * and 7). The game file keeps the marker; the rules about it live here. */
#include "../../core/internal.h"
#include <fray/presidio.h>

const char *const fray_presidio_standing_names[FRAY_PRESIDIO_NSTANDINGS] = {
	"good", "disordered", "flinched", "hunkered", "fell back", "retreated", "panicked", "surrendered",
	"destroyed"};

/* How bad a standing is: a later, milder result does not lift it (a
 * panicked unit that is told to fall back keeps running; only a rally
 * turns a panic about, Section 2). Disorder and a flinch are one level,
 * a hunker and a fall back the next. */
static int severity(fray_presidio_standing s)
{
	static const int sev[FRAY_PRESIDIO_NSTANDINGS] = {0, 1, 1, 2, 2, 3, 4, 5, 6};
	return sev[s];
}

FRAY_API fray_presidio_standing fray_presidio_worse_standing(fray_presidio_standing a, fray_presidio_standing b)
{
	return severity(b) >= severity(a) ? b : a;
}

FRAY_API bool fray_presidio_standing_holds(fray_presidio_standing s)
{
	return severity(s) <= 1 || s == FRAY_PRESIDIO_HUNKERED;
}

FRAY_API const char *fray_presidio_act_refused(fray_presidio_standing s, fray_presidio_act a)
{
	if (s == FRAY_PRESIDIO_SURRENDERED || s == FRAY_PRESIDIO_DESTROYED)
		return a == FRAY_PRESIDIO_ACT_BE_TARGETED ? "it is out of the fight" : "it is out of the fight";
	switch (a) {
	case FRAY_PRESIDIO_ACT_BE_TARGETED:
		return NULL;
	case FRAY_PRESIDIO_ACT_RALLY:
		return s == FRAY_PRESIDIO_PANICKED ? NULL
						   : "only a panicked unit rallies (Presidio Section 2, Rally; ruling R17)";
	case FRAY_PRESIDIO_ACT_RELOAD:
		/* "Units may not reload while falling back, retreating, or
		 * panicking" (Section 4, Reloading While Moving) */
		return s == FRAY_PRESIDIO_PANICKED ? "a panicked unit may not reload (Presidio Section 4, Reloading "
						     "While Moving); rally it first"
						   : NULL;
	default:
		/* a panicked unit runs and "performs no other actions"
		 * (Section 2, Rally; Section 7, Panic) */
		return s == FRAY_PRESIDIO_PANICKED ? "a panicked unit takes no actions but its panic move (Presidio "
						     "Section 7, Panic); rally it first"
						   : NULL;
	}
}
