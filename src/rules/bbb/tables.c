/* The quick reference sheet's tables as data: fire factors, the firefight
 * table (ruling R18), the assault bands and the movement table. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include "../../core/internal.h"
#include <fray/bbb.h>

FRAY_API const char *const fray_bbb_training_names[3] = {"raw", "trained", "veteran"};
FRAY_API const char *const fray_bbb_arm_names[3] = {"infantry", "cavalry", "artillery"};
FRAY_API const char *const fray_bbb_result_names[7] = {"none", "R", "T", "V", "1", "2", "3"};

/* FIRE FACTORS: small arms per base at 3/6/9/12"; artillery per unit at
 * 3/12/18/24"; rockets 6", no factor, 1 right. A blank cell ends a row. */
FRAY_API const fray_bbb_weapon fray_bbb_weapons[] = {
	{"SM", "smoothbore musket", false, 1, {3}, {1}, 0},
	{"ML", "musket, longer ranged", false, 3, {3, 6, 9}, {1, 1, 1}, 0},
	{"NG", "needle gun", false, 2, {3, 6}, {2, 1}, 0},
	{"EB", "early breechloader", false, 3, {3, 6, 9}, {2, 1, 1}, 0},
	{"LB", "later breechloader", false, 4, {3, 6, 9, 12}, {2, 2, 1, 1}, 0},
	{"RR", "repeating rifle", false, 4, {3, 6, 9, 12}, {3, 3, 2, 2}, 0},
	{"RC", "repeating carbine", false, 2, {3, 6}, {3, 2}, 0},
	{"SA", "smoothbore artillery", true, 3, {3, 12, 18}, {9, 3, 2}, 0},
	{"RA", "rifled artillery", true, 4, {3, 12, 18, 24}, {6, 4, 3, 1}, 0},
	{"BLA", "breech-loading artillery", true, 4, {3, 12, 18, 24}, {9, 5, 4, 2}, 0},
	{"MG", "machine gun", true, 2, {3, 12}, {12, 6}, 0},
	{"RKT", "rockets", true, 1, {6}, {0}, 1},
};
FRAY_API const size_t fray_bbb_nweapons = sizeof fray_bbb_weapons / sizeof fray_bbb_weapons[0];

FRAY_API const fray_bbb_weapon *fray_bbb_weapon_find(const char *code)
{
	for (size_t i = 0; code && i < fray_bbb_nweapons; i++) {
		const char *a = fray_bbb_weapons[i].code, *b = code;
		while (*a && toupper((unsigned char)*b) == *a)
			a++, b++;
		if (!*a && !*b)
			return &fray_bbb_weapons[i];
	}
	return NULL;
}

FRAY_API int fray_bbb_weapon_band(const fray_bbb_weapon *w, double range)
{
	for (int b = 0; w && b < w->nbands; b++)
		if (range <= w->range[b])
			return b;
	return -1;
}

/* THE FIREFIGHT: "Fire Power up to" each column; the last is 50+. */
FRAY_API const double fray_bbb_fire_column_top[FRAY_BBB_FIRE_COLS] = {
	0.25, 0.5, 1, 2, 4, 6, 9, 12, 16, 20, 25, 30, 36, 42, 49, 1e300};

FRAY_API int fray_bbb_fire_column(double firepower)
{
	for (int c = 0; c < FRAY_BBB_FIRE_COLS; c++)
		if (firepower <= fray_bbb_fire_column_top[c])
			return c;
	return FRAY_BBB_FIRE_COLS - 1;
}

/* R18: each row is the run R, T, V, 1, 1, 1, 2, 2, 2, 3, 3, ... starting
 * at column 0 on row 12, 1 on row 11, 12 - row on rows 2-10; a `*` (Low on
 * Ammo) on every column of rows 11 and 12. */
static const fray_bbb_result run[] = {FRAY_BBB_R, FRAY_BBB_T, FRAY_BBB_V,
				      FRAY_BBB_1, FRAY_BBB_1, FRAY_BBB_1,
				      FRAY_BBB_2, FRAY_BBB_2, FRAY_BBB_2};

FRAY_API fray_bbb_result fray_bbb_fire_cell(int row, int col, bool *low_ammo)
{
	/* off the table (issue 29: never trusted): no result */
	if (low_ammo)
		*low_ammo = row >= 11 && row <= 12 && col >= 0 && col < FRAY_BBB_FIRE_COLS;
	if (row < 2 || row > 12 || col < 0 || col >= FRAY_BBB_FIRE_COLS)
		return FRAY_BBB_NONE;
	int start = row == 12 ? 0 : row == 11 ? 1 : 12 - row;
	int k = col - start;
	if (k < 0)
		return FRAY_BBB_NONE;
	return k < (int)(sizeof run / sizeof run[0]) ? run[k] : FRAY_BBB_3;
}

FRAY_API bool fray_bbb_result_reaches(fray_bbb_result res, fray_bbb_training t)
{
	switch (res) {
	case FRAY_BBB_NONE: return false;
	case FRAY_BBB_R: return t == FRAY_BBB_RAW;
	case FRAY_BBB_T: return t != FRAY_BBB_VETERAN;
	default: return true;
	}
}

/* Result / Effect, per target: artillery, then infantry or cavalry. */
FRAY_API size_t fray_bbb_effect(fray_bbb_result res, fray_bbb_arm target,
				fray_bbb_training t, bool advancing, char *dst, size_t cap)
{
	const char *what;
	bool art = target == FRAY_BBB_ARTILLERY;
	if (res <= FRAY_BBB_NONE || res > FRAY_BBB_3)
		what = "no effect";
	else if (!fray_bbb_result_reaches(res, t))
		what = res == FRAY_BBB_R ? "no effect: the result reaches only Raw targets (ruling R19)"
					 : "no effect: the result reaches only Raw and Trained targets (ruling R19)";
	else if (res <= FRAY_BBB_V)
		what = art ? "artillery unit Silenced"
			   : advancing ? "Disrupted; advancing, so Halted" : "Disrupted";
	else if (res == FRAY_BBB_1)
		what = art ? "artillery unit Silenced and Reduced"
			   : "loses 1 base, is Disrupted, and Halted";
	else if (res == FRAY_BBB_2)
		what = art ? "artillery unit destroyed" : "loses 2 bases, is Disrupted, and Halted";
	else
		what = art ? "artillery unit destroyed" : "loses 3 bases, is Disrupted, and Halted";
	return (size_t)snprintf(dst, cap, "%s", what);
}

/* Assault Table: Final Difference. */
FRAY_API const char *const fray_bbb_assault_band_names[7] = {"+7", "+4-6", "+1-3", "0", "-1-3",
						    "-4-6", "-7"};
FRAY_API const char *const fray_bbb_assault_band_text[7] = {
	"Defender loses 2 bases and retires a full move, ignoring terrain penalties. "
	"Attacker MUST Exploit but is not Disrupted",
	"Defender loses 1 base and retires 9\", ignoring terrain penalties. Attacker may "
	"Exploit or occupy Defender's position.",
	"Defender retires 3\". Attacker occupies Defender's position.",
	"Both sides lose 1 base and immediately fight a new Assault.",
	"Attacker retires 3\".",
	"Attacker loses 1 base and retires 6\".",
	"Attacker loses 2 bases and retires a full move. Defender is not Disrupted",
};

FRAY_API fray_bbb_assault_band fray_bbb_assault_band_of(int diff)
{
	if (diff >= 7) return FRAY_BBB_A_PLUS7;
	if (diff >= 4) return FRAY_BBB_A_PLUS4;
	if (diff >= 1) return FRAY_BBB_A_PLUS1;
	if (diff == 0) return FRAY_BBB_A_ZERO;
	if (diff >= -3) return FRAY_BBB_A_MINUS1;
	if (diff >= -6) return FRAY_BBB_A_MINUS4;
	return FRAY_BBB_A_MINUS7;
}

/* MOVEMENT TABLE: rows by 2d6 + modifiers, good order and disrupted. */
FRAY_API const char *const fray_bbb_move_row_names[FRAY_BBB_MOVE_ROWS] = {
	"11+", "10", "9", "7,8", "5,6", "2,3,4", "0,1", "-1"};
FRAY_API const char *const fray_bbb_move_good_order[FRAY_BBB_MOVE_ROWS] = {
	"Full move / Raw Recover 1", "Full move / Trnd Recover 1", "Full move / Vet Recover 1",
	"Full move", "Half move", "No move", "Retire half move (ignore terrain penalties)",
	"DISRUPTED Retire 1 full move"};
FRAY_API const char *const fray_bbb_move_disrupted[FRAY_BBB_MOVE_ROWS] = {
	"Full move", "Full move", "Full move", "Half move", "Rally in place - no move",
	"Disrupted - no move",
	"Lose 1 base. Retire 1 full move (ignore terrain penalties)",
	"BROKEN Remove from table"};

FRAY_API int fray_bbb_move_row(int total)
{
	if (total >= 11) return 0;
	if (total == 10) return 1;
	if (total == 9) return 2;
	if (total >= 7) return 3;
	if (total >= 5) return 4;
	if (total >= 2) return 5;
	if (total >= 0) return 6;
	return 7;
}
