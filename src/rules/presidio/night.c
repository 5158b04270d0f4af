/* Presidio by night, ruling R31: Section 4's Night Vision (full moon 12",
 * half-moon 8", no moon 4") and Section 8's Nighttime Visibility table
 * read as one table. The table's open column holds Section 4's three
 * distances on its rows 1, 3 and 5-6 and adds the 3/4 and new 1/4 moons;
 * where the two seem to part is the woods: Section 4 gives woods their
 * own vision (light 12", medium 8", heavy 4", half into the woods from
 * outside) while the table's woods column is half the open distance
 * whatever the woods. fray takes the table's column in the woods, never
 * more than the woods' own vision by day, and half of that into the woods
 * from outside (docs/rulings.md, R31). */
#include <stdio.h>
#include "../../core/internal.h"
#include <fray/presidio.h>

FRAY_API const char *const fray_presidio_woods_names[4] = {"none", "light", "medium", "heavy"};

FRAY_API double fray_presidio_night_sight(int row, fray_presidio_woods woods, bool into_woods)
{
	static const int by_day[4] = {0, 12, 8, 4}; /* Section 4, Woods */
	if (row < 0 || row > 4 || woods > FRAY_PRESIDIO_HEAVY_WOODS)
		return 0;
	const fray_presidio_night_row *n = &fray_presidio_night_rows[row];
	if (woods == FRAY_PRESIDIO_NO_WOODS)
		return n->open;
	double in = n->woods < by_day[woods] ? n->woods : by_day[woods];
	return into_woods ? in / 2 : in;
}

FRAY_API void fray_presidio_night_sight_procedure(fray_roller *r, fray_policy *p, const void *input, int64_t *out)
{
	(void)p;
	const fray_presidio_night_in *in = input;
	int die = in && in->moon >= 1 && in->moon <= 6 ? in->moon : fray_die(r, 6, "nighttime visibility 1d6");
	int row = die < 5 ? die - 1 : 4;
	fray_presidio_woods woods = in ? in->woods : FRAY_PRESIDIO_NO_WOODS;
	bool into = in && in->into_woods;
	double sight = fray_presidio_night_sight(row, woods, into);
	out[0] = row;
	out[1] = (int64_t)(sight * 2 + 0.5);
	if (fray_roller_narrating(r)) {
		char text[200];
		if (woods == FRAY_PRESIDIO_NO_WOODS)
			snprintf(text, sizeof text, "%s: %g\" in the open", fray_presidio_night_rows[row].moon, sight);
		else
			snprintf(text, sizeof text, "%s: %g\" %s %s woods (the table's %d\", the woods' own %s by day%s)",
				 fray_presidio_night_rows[row].moon, sight, into ? "into" : "in", fray_presidio_woods_names[woods],
				 fray_presidio_night_rows[row].woods, woods == 1 ? "12\"" : woods == 2 ? "8\"" : "4\"",
				 into ? ", halved from outside" : "");
		fray_emit_result(r, "night sight", out[1], text, "Presidio Sections 4 and 8; ruling R31");
	}
}

FRAY_API void fray_presidio_out_of_sight_procedure(fray_roller *r, fray_policy *p, const void *in, int64_t *out)
{
	(void)p;
	(void)in;
	out[0] = 0;
	fray_emit_result(r, "search", 0, "beyond the night's sight: it cannot be seen, no die",
			 "Presidio Section 8, Nighttime Visibility; ruling R31");
}
