/* A Presidio unit's standing (the marker a morale result leaves on it,
 * Section 7) and what a unit of each standing may do (Sections 2, 4, 5
 * and 7). The game file keeps the marker; the rules about it live here. */
#include "../../core/internal.h"
#include <fray/presidio.h>
#include "presidio_internal.h"

FRAY_API const char *const fray_presidio_standing_names[FRAY_PRESIDIO_NSTANDINGS] = {
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

/* Section 7: "Unit in Partial Cover - unit 'flinches', -1 action" and
 * "'hunkers down,' -2 actions" (actions of the turn); Fall Back: "placed
 * in good order facing the enemy"; Retreat: "placed 1-2\" apart facing
 * the enemy, but in disorder". */
FRAY_API fray_presidio_standing fray_presidio_standing_at_turn_end(fray_presidio_standing s)
{
	switch (s) {
	case FRAY_PRESIDIO_FLINCHED:
	case FRAY_PRESIDIO_HUNKERED:
	case FRAY_PRESIDIO_FELL_BACK:
		return FRAY_PRESIDIO_GOOD;
	case FRAY_PRESIDIO_RETREATED:
		return FRAY_PRESIDIO_DISORDERED;
	default:
		return s;
	}
}

/* Section 5, Pursuit: "If they make contact with a panicked unit, it
 * surrenders immediately otherwise they continue to Melee". */
FRAY_API bool fray_presidio_pursuit_surrenders(fray_presidio_standing s)
{
	return s == FRAY_PRESIDIO_PANICKED;
}

/* Ruling R44: Section 3, Disorder: "Place the models in a clump";
 * Section 7, Retreat: "placed 1-2\" apart ... but in disorder"; Panic:
 * "placed in a clump". A unit out of the fight is in no formation. */
FRAY_API bool fray_presidio_standing_in_formation(fray_presidio_standing s)
{
	return s != FRAY_PRESIDIO_DISORDERED && s != FRAY_PRESIDIO_RETREATED && s != FRAY_PRESIDIO_PANICKED &&
	       s != FRAY_PRESIDIO_SURRENDERED && s != FRAY_PRESIDIO_DESTROYED;
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
	case FRAY_PRESIDIO_ACT_BE_PURSUED:
		/* Pursuit: "If a unit fails a morale check, it falls back,
		 * retreats, or panics as normal, but the enemy may pursue"
		 * (Section 5); one that stays in place is met by a melee */
		return s == FRAY_PRESIDIO_FELL_BACK || s == FRAY_PRESIDIO_RETREATED || s == FRAY_PRESIDIO_PANICKED
			       ? NULL
			       : "only a unit that fell back, retreated or panicked is pursued (Presidio Section 5, "
				 "Pursuit); melee or charge it instead";
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

FRAY_API const char *fray_presidio_target_refused(bool same_side)
{
	return same_side ? "a unit shoots at, melees, charges and pursues the enemy's units only (Presidio Section 4, "
			   "Line of sight: \"only enemy figures\" are hit; Section 5)"
			 : NULL;
}

FRAY_API bool fray_presidio_has_commanders(int leader_bonus, int specialists)
{
	return leader_bonus > 0 || specialists > 0;
}

FRAY_API const char *fray_presidio_contact_refused(bool in_contact)
{
	return in_contact ? NULL
			  : "\"enemy units with bases in contact perform melee combat\" (Presidio Section 5): the two "
			    "are not in contact; a charge that reaches its target, or a walk into contact (whose "
			    "defenders strike first, Section 5, Moving into a Melee), makes it";
}

FRAY_API const char *fray_presidio_pursuit_refused(bool broke_from_it)
{
	return broke_from_it ? NULL
			     : "pursuit follows a melee: only the enemy a unit broke contact with may pursue it "
			       "(Presidio Section 5, Pursuit and Disengaging from Melee)";
}

FRAY_API bool fray_presidio_keeps_contact(fray_presidio_standing s)
{
	return s == FRAY_PRESIDIO_GOOD || s == FRAY_PRESIDIO_DISORDERED || s == FRAY_PRESIDIO_FLINCHED ||
	       s == FRAY_PRESIDIO_HUNKERED;
}

FRAY_API fray_presidio_charge_end fray_presidio_charge_goes_on(bool holds, bool moved_away, bool catches,
							       fray_presidio_standing target)
{
	/* held its place (passed and stood, fired or struck back; or failed
	 * but disordered, flinched or hunkered): the impact */
	if (holds && !moved_away)
		return FRAY_PRESIDIO_CHARGE_IMPACT;
	/* "Unless stopped by the defenders the charging unit will move up
	 * its total charge distance" (Charge Movement): the players measure
	 * whether it reaches the unit where it went */
	if (!catches || target == FRAY_PRESIDIO_SURRENDERED || target == FRAY_PRESIDIO_DESTROYED)
		return FRAY_PRESIDIO_CHARGE_GOES_ON;
	return fray_presidio_pursuit_surrenders(target) ? FRAY_PRESIDIO_CHARGE_SURRENDER : FRAY_PRESIDIO_CHARGE_CAUGHT;
}

FRAY_API fray_presidio_into_contact fray_presidio_into_contact_of(fray_presidio_standing walked_into, int figures)
{
	if (figures <= 0)
		return FRAY_PRESIDIO_INTO_NO_BLOW;
	if (fray_presidio_pursuit_surrenders(walked_into))
		return FRAY_PRESIDIO_INTO_SURRENDERS;
	/* "the 'defender' will attack first": a unit that holds its place */
	return fray_presidio_standing_holds(walked_into) ? FRAY_PRESIDIO_INTO_STRIKES_FIRST : FRAY_PRESIDIO_INTO_NO_BLOW;
}

/* Ruling R49. Section 7, Fall Back: a unit in the open that falls back is
 * set down in good order, facing the enemy; one in line is disordered by
 * a fall back result instead ("Units in Line - become disordered"). The
 * form check for an officer or NCO behind the line is not rolled, as on
 * the Morale Roll Resolution's line rows (docs/presidio.md). */
fray_presidio_standing frayi_presidio_fall_back_placed(bool line)
{
	return line ? FRAY_PRESIDIO_DISORDERED : FRAY_PRESIDIO_GOOD;
}

/* Whether a unit in line formation is still in line with this standing:
 * not one its disorder, retreat or panic put in a clump (ruling R44), nor
 * one that fell back, which Section 7's Fall Back sets down disordered
 * ("Units in Line - become disordered") though its marker lasts the turn
 * (ruling R49): no line benefit to its morale, no line rows, no volley. */
bool frayi_presidio_still_in_line(fray_presidio_standing s)
{
	return fray_presidio_standing_in_formation(s) && s != FRAY_PRESIDIO_FELL_BACK;
}

/* A fall back lasts the turn (its lost action); the turn's end sets the
 * unit down where the fall back placed it (ruling R49). */
fray_presidio_standing frayi_presidio_standing_after_turn(fray_presidio_standing s, bool line)
{
	return s == FRAY_PRESIDIO_FELL_BACK ? frayi_presidio_fall_back_placed(line) : fray_presidio_standing_at_turn_end(s);
}

/* Section 5, Disengaging from Melee: a unit leaves by "a 'retreat' (2
 * actions), or 'fall back' (1 action)", under "the rules for 'retreat'
 * and 'fall back' in the morale section". The fall back is the action
 * paid (R47), not a failed check's lost action: the unit is set down as
 * Section 7's Fall Back places one (ruling R49), so a line unit is
 * disordered and any other keeps its standing. A flinched unit keeps its
 * flinch, so the action the flinch took stays lost (ruling R50). A
 * retreat forfeits the rest of the turn and ends in disorder (Section 7,
 * Retreat). */
fray_presidio_standing frayi_presidio_moved_back(fray_presidio_standing s, bool retreat, bool line)
{
	if (retreat)
		return fray_presidio_worse_standing(s, FRAY_PRESIDIO_RETREATED);
	if (s == FRAY_PRESIDIO_FLINCHED)
		return s;
	return fray_presidio_worse_standing(s, frayi_presidio_fall_back_placed(line));
}
