/* Presidio rules the game layer asks that are no part of the public API
 * (src/game/table_presidio.c includes this; the tests declare what they
 * call). */
#ifndef FRAY_PRESIDIO_INTERNAL_H
#define FRAY_PRESIDIO_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <fray/presidio.h>

/* The standing a fall back leaves a unit in once the move is made
 * (Section 7, Fall Back; ruling R49): good order, or disordered when it
 * was in line. */
fray_presidio_standing frayi_presidio_fall_back_placed(bool line);
/* A unit in line formation with this standing is still in line (rulings
 * R44, R49): its line -1 and line rows for morale, its volley. */
bool frayi_presidio_still_in_line(fray_presidio_standing s);
/* A unit's standing when the turn ends (fray_presidio_standing_at_turn_end),
 * a fall back's by where it placed the unit (frayi_presidio_fall_back_placed). */
fray_presidio_standing frayi_presidio_standing_after_turn(fray_presidio_standing s, bool line);
/* The standing of a unit of standing s (in line or not) after it falls
 * back or retreats of its own will: out of a melee (Section 5,
 * Disengaging from Melee) or fleeing a charge (Charge Reaction, Flee). */
fray_presidio_standing frayi_presidio_moved_back(fray_presidio_standing s, bool retreat, bool line);

/* A side's leadership for the initiative (Section 2: "1D6 adding their
 * leadership skill"): the highest of the n command skills present
 * (Section 1: "Command skill is not cumulative; use the highest skill
 * present"), within Section 1's COMMAND SKILL table (0, none, to its top
 * command, 4). */
int frayi_presidio_leadership(const int *skills, size_t n);

#endif
