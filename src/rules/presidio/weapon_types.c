/* Presidio Section 4, Weapon Types: "If a unit has more than one type of
 * weapon, the each type is rolled separately for hits ... but all fire
 * from a particular unit is considered to have been done at the same
 * time ... Check morale on the target unit only after the entire unit has
 * fired." Two rolls, one morale check. */
#include <stdio.h>
#include <string.h>
#include "../../core/internal.h"
#include <fray/presidio.h>

FRAY_API void fray_presidio_shoot_types(fray_roller *r, const fray_presidio_shoot_in *in,
					fray_presidio_shoot_out *out)
{
	fray_presidio_shoot_in first = *in;
	first.weapon2 = NULL;
	fray_presidio_shoot(r, &first, out);
	if (!in->weapon2 || in->figures2 <= 0)
		return;
	/* the second type fires at the unit the first left: its figures,
	 * specialty figures and leader; the casualty die stays the unit's as
	 * it stood when the dice were rolled, "at the same time" (R15) */
	fray_presidio_shoot_in second = first;
	second.weapon = in->weapon2;
	second.figures = in->figures2;
	second.band = in->band2;
	if (in->target_figures > 0) {
		second.target_unit_figures = in->target_unit_figures > 0 ? in->target_unit_figures : in->target_figures;
		second.target_figures = in->target_figures - out->casualties;
	}
	second.specialists = in->specialists - out->specialists_hit;
	second.target_leader = in->target_leader && !out->leader_hit;
	if (in->file) { /* in column: the next figures in the file are in front now */
		size_t gone = (size_t)out->casualties, len = strlen(in->file);
		second.file = in->file + (gone < len ? gone : len);
	}
	fray_presidio_shoot_out two = {0};
	if (fray_roller_narrating(r)) {
		char text[160];
		snprintf(text, sizeof text, "the unit's second weapon type, rolled on its own: %d with %s", in->figures2,
			 in->weapon2->name);
		fray_emit_note(r, text, "Presidio Section 4, Weapon Types");
	}
	if (in->target_figures <= 0 || second.target_figures > 0)
		fray_presidio_shoot(r, &second, &two);
	out->firing += two.firing;
	out->hits += two.hits;
	out->casualties += two.casualties;
	out->specialists_hit += two.specialists_hit;
	out->leader_hit = out->leader_hit || two.leader_hit;
	if (!out->rear_hits)
		out->rear_unit = two.rear_unit;
	out->rear_hits += two.rear_hits;
	out->rear_casualties += two.rear_casualties;
	out->within_4 = out->within_4 || two.within_4;
	/* one check, after the entire unit has fired (Section 7: casualties
	 * taken and a figure left) */
	out->morale_check = out->casualties > 0 && (in->target_figures <= 0 || out->casualties < in->target_figures);
	fray_emit_note(r, out->morale_check ? "one morale check for the target, after the entire unit has fired"
					    : "no morale check: no casualty, or no figure left",
		       "Presidio Section 4, Weapon Types; Section 7, Morale");
}
