/* ADBG rule 19's tables as data: fire terrain effects (19.2.1, ruling R5),
 * melee CF multipliers (19.2.3, R10) and stacking limits (19.1, R2). */
#include <stdio.h>
#include "adbg_internal.h"

FRAY_API const char *const fray_adbg_terrain_names[3] = {"rough", "wilderness", "settled"};
FRAY_API const char *const fray_adbg_type_names[4] = {"warrior", "regular", "militia", "rifle"};
FRAY_API const char *const fray_adbg_status_names[5] = {"normal", "disrupted", "routed",
					       "eliminated", "removed"};

/* ADBG 19.2.1 fire table: [type][rough, wilderness, settled]. NE is
 * {1, 0, false}; `*` (no DR modifier in severe weather) is lost_in_severe. */
static const fray_adbg_fire_mod fire_table[4][3] = {
	/* warrior */ {{1, 0, false}, {1, 0, false}, {1, 0, false}},
	/* regular */ {{1, 0, false}, {1, -1, true}, {2, -1, true}},
	/* militia */ {{1, 0, false}, {1, 0, false}, {1, -1, false}},
	/* rifle   */ {{1, 0, false}, {1, -1, true}, {1, -1, false}},
};

FRAY_API fray_adbg_fire_mod fray_adbg_fire_table(fray_adbg_type t,
						 fray_adbg_terrain tr)
{
	return fire_table[t][tr];
}

/* ADBG 19.2.3 melee table; rifles are not in it: x1 (ruling R10). */
static const int melee_table[4][3] = {
	/* warrior */ {3, 2, 2},
	/* regular */ {1, 1, 1},
	/* militia */ {2, 1, 2},
	/* rifle   */ {1, 1, 1},
};

FRAY_API int fray_adbg_melee_mult(fray_adbg_type t, fray_adbg_terrain tr)
{
	return melee_table[t][tr];
}

/* ADBG 19.1 stacking limits, ruling R2: [type][terrain]; rifles, leaders
 * and markers do not count. Wilderness regulars: 1, plus at most 1 militia. */
static const int stack_limit[3][3] = {
	/* warrior */ {2, 3, 3},
	/* regular */ {1, 1, 3},
	/* militia */ {2, 2, 3},
};

FRAY_API const char *fray_adbg_stacking_problem(fray_adbg_terrain tr,
						const int count[4])
{
	int total = count[FRAY_ADBG_WARRIOR] + count[FRAY_ADBG_REGULAR] +
		    count[FRAY_ADBG_MILITIA];
	if (tr == FRAY_ADBG_WILDERNESS && count[FRAY_ADBG_REGULAR] == 1 &&
	    count[FRAY_ADBG_MILITIA] <= 1 && count[FRAY_ADBG_WARRIOR] == 0)
		return NULL;
	int limit = 99;
	for (int t = 0; t < 3; t++)
		if (count[t] > 0 && stack_limit[t][tr] < limit)
			limit = stack_limit[t][tr];
	if (total <= limit)
		return NULL;
	static const char *const msgs[4] = {
		"",
		"more than 1 counted unit in one stack",
		"more than 2 counted units in one stack",
		"more than 3 counted units in one stack",
	};
	if (tr == FRAY_ADBG_WILDERNESS && count[FRAY_ADBG_REGULAR] > 0)
		return "a regular in wilderness stacks alone or with at most 1 militia";
	if (tr == FRAY_ADBG_ROUGH && count[FRAY_ADBG_REGULAR] > 0)
		return "a regular in rough terrain may not stack";
	return msgs[limit < 3 ? limit : 3];
}
