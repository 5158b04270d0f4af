/* Presidio Section 9, Damage: "Small structural targets such as works,
 * wagons, and artillery pieces are either destroyed or damaged ... Deduct
 * 2 points from the strength of the target for each hit without damage
 * at same location." The strength a shot is read against after such
 * hits (the text sets no floor: the damage chart takes any difference). */
#include "../../core/internal.h"
#include <fray/presidio.h>

FRAY_API int fray_presidio_weakened_strength(int strength, int hits_without_damage)
{
	return strength - 2 * (hits_without_damage > 0 ? hits_without_damage : 0);
}
