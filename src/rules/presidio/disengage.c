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

FRAY_API const char *fray_presidio_contact_move_refused(bool in_contact, fray_presidio_action a)
{
	if (!in_contact)
		return NULL;
	switch (a) {
	case FRAY_PRESIDIO_DO_WALK:
	case FRAY_PRESIDIO_DO_RUN:
	case FRAY_PRESIDIO_DO_RIDE:
	case FRAY_PRESIDIO_DO_GALLOP:
		return "a unit in base contact leaves its melee, in its own action sequence, only by a retreat "
		       "(2 actions) or a fall back (1 action) (Presidio Section 5, Disengaging from Melee): "
		       "'disengage UNIT' (a fall back) or 'disengage UNIT --retreat', not a move";
	case FRAY_PRESIDIO_DO_CHARGE:
		return "a melee goes on until contact is broken (Presidio Section 5, Melee), and a unit in base "
		       "contact leaves it only by a retreat (2 actions) or a fall back (1 action) (Section 5, "
		       "Disengaging from Melee): no charge out of a melee nor at the enemy it fights ('melee' it)";
	default:
		return NULL;
	}
}

/* Section 5, Firing into Melee: only "unit members not in base contact
 * with the melee" fire into it. fray keeps a unit in base contact or not
 * as a whole (every figure of it strikes in the melee, issue 40 item 1),
 * so a unit in base contact fires no shot until it leaves (ruling R51). */
FRAY_API const char *fray_presidio_contact_shot_refused(bool in_contact)
{
	if (!in_contact)
		return NULL;
	return "only \"unit members not in base contact with the melee may fire into the melee\" (Presidio "
	       "Section 5, Firing into Melee): a unit in base contact fights ('melee') or leaves ('disengage') "
	       "before it shoots (ruling R51)";
}

FRAY_API const char *fray_presidio_disengage_refused(const fray_presidio_turn *t, fray_presidio_standing s, bool in_contact,
						     bool retreat)
{
	if (!in_contact)
		return "disengaging is from a melee (Presidio Section 5, Disengaging from Melee): the unit is not in "
		       "base contact";
	const char *why = fray_presidio_action_refused(t, s, FRAY_PRESIDIO_DO_DISENGAGE);
	if (why)
		return why;
	/* a unit that fell back, retreated or panicked has left the melee
	 * by its morale result's move (Section 7); one that flinched or
	 * hunkered down stayed in place ("they do not fall back") and
	 * disengages with the actions its result left it (ruling R50): a
	 * hunkered unit has none */
	if (!fray_presidio_keeps_contact(s))
		return "a unit that fell back, retreated or panicked has left its melee by that move (Presidio Section "
		       "7, Morale Roll Results; Section 5, Disengaging from Melee)";
	/* Disengaging from Melee: "a 'retreat' (2 actions), or 'fall back'
	 * (1 action)" */
	int need = retreat ? 2 : 1;
	if (fray_presidio_actions_left(t, s) < need)
		return retreat ? "a unit disengages by \"a 'retreat' (2 actions)\" (Presidio Section 5, Disengaging from "
				 "Melee): it has fewer left this turn"
			       : "a unit disengages by \"'fall back' (1 action)\" (Presidio Section 5, Disengaging from "
				 "Melee): it has no action left this turn";
	return NULL;
}

FRAY_API bool fray_presidio_turn_disengaged(const fray_presidio_turn *t)
{
	for (int i = 0; i < t->n; i++)
		if (t->taken[i] == FRAY_PRESIDIO_DO_DISENGAGE)
			return true;
	return false;
}
