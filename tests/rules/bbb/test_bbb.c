/* Bloody Big Battles against its quick reference sheet: every cell of the
 * firefight table and of the fire factors as printed, the column rule
 * (R18), R19, every assault band, the re-fight loop (R20) against a closed
 * form, every movement-table row for both states, the allowances, and
 * exact fire odds against 2d6 counts done here on the printed table. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "../../test_util.h"

/* The Firefight as printed on the sheet, rows 12 down to 2, 16 columns;
 * "" is a blank cell. */
static const char *const sheet[11][16] = {
	{"R*", "T*", "V*", "1*", "1*", "1*", "2*", "2*", "2*", "3*", "3*", "3*", "3*", "3*", "3*", "3*"},
	{"*", "R*", "T*", "V*", "1*", "1*", "1*", "2*", "2*", "2*", "3*", "3*", "3*", "3*", "3*", "3*"},
	{"", "", "R", "T", "V", "1", "1", "1", "2", "2", "2", "3", "3", "3", "3", "3"},
	{"", "", "", "R", "T", "V", "1", "1", "1", "2", "2", "2", "3", "3", "3", "3"},
	{"", "", "", "", "R", "T", "V", "1", "1", "1", "2", "2", "2", "3", "3", "3"},
	{"", "", "", "", "", "R", "T", "V", "1", "1", "1", "2", "2", "2", "3", "3"},
	{"", "", "", "", "", "", "R", "T", "V", "1", "1", "1", "2", "2", "2", "3"},
	{"", "", "", "", "", "", "", "R", "T", "V", "1", "1", "1", "2", "2", "2"},
	{"", "", "", "", "", "", "", "", "R", "T", "V", "1", "1", "1", "2", "2"},
	{"", "", "", "", "", "", "", "", "", "R", "T", "V", "1", "1", "1", "2"},
	{"", "", "", "", "", "", "", "", "", "", "R", "T", "V", "1", "1", "1"},
};

static fray_bbb_result sheet_result(int row, int col, bool *low)
{
	const char *cell = sheet[12 - row][col];
	*low = strchr(cell, '*') != NULL;
	switch (cell[0]) {
	case 'R': return FRAY_BBB_R;
	case 'T': return FRAY_BBB_T;
	case 'V': return FRAY_BBB_V;
	case '1': return FRAY_BBB_1;
	case '2': return FRAY_BBB_2;
	case '3': return FRAY_BBB_3;
	default: return FRAY_BBB_NONE;
	}
}

static void every_firefight_cell(void **state)
{
	(void)state;
	for (int row = 2; row <= 12; row++)
		for (int col = 0; col < FRAY_BBB_FIRE_COLS; col++) {
			bool low, want_low;
			fray_bbb_result want = sheet_result(row, col, &want_low);
			assert_int_equal(fray_bbb_fire_cell(row, col, &low), want);
			assert_int_equal(low, want_low);
		}
}

/* FIRE FACTORS as printed: bands and factors; blank = out of range. */
static void every_fire_factor_cell(void **state)
{
	(void)state;
	static const struct {
		const char *code;
		int range[4], factor[4];
	} rows[] = {
		{"SM", {3, 0, 0, 0}, {1, -1, -1, -1}},
		{"ML", {3, 6, 9, 0}, {1, 1, 1, -1}},
		{"NG", {3, 6, 0, 0}, {2, 1, -1, -1}},
		{"EB", {3, 6, 9, 0}, {2, 1, 1, -1}},
		{"LB", {3, 6, 9, 12}, {2, 2, 1, 1}},
		{"RR", {3, 6, 9, 12}, {3, 3, 2, 2}},
		{"RC", {3, 6, 0, 0}, {3, 2, -1, -1}},
		{"SA", {3, 12, 18, 0}, {9, 3, 2, -1}},
		{"RA", {3, 12, 18, 24}, {6, 4, 3, 1}},
		{"BLA", {3, 12, 18, 24}, {9, 5, 4, 2}},
		{"MG", {3, 12, 0, 0}, {12, 6, -1, -1}},
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		const fray_bbb_weapon *w = fray_bbb_weapon_find(rows[i].code);
		assert_non_null(w);
		for (int b = 0; b < 4; b++) {
			if (rows[i].factor[b] < 0) {
				assert_true(b >= w->nbands);
				continue;
			}
			assert_int_equal(w->range[b], rows[i].range[b]);
			assert_int_equal(w->factor[b], rows[i].factor[b]);
			/* a range just inside the band finds it */
			assert_int_equal(fray_bbb_weapon_band(w, rows[i].range[b] - 0.5), b);
			assert_int_equal(fray_bbb_weapon_band(w, rows[i].range[b]), b);
		}
		assert_int_equal(fray_bbb_weapon_band(w, w->range[w->nbands - 1] + 0.1), -1);
	}
	/* RKT: 6" range, no factor, 1 right shift */
	const fray_bbb_weapon *rkt = fray_bbb_weapon_find("rkt");
	assert_non_null(rkt);
	assert_int_equal(rkt->shift, 1);
	assert_int_equal(rkt->range[0], 6);
	assert_int_equal(rkt->factor[0], 0);
	assert_null(fray_bbb_weapon_find("AK"));
}

/* R18: the first column whose "up to" is at least the firepower. */
static void firepower_columns(void **state)
{
	(void)state;
	static const struct {
		double fp;
		int col;
	} rows[] = {{0, 0}, {0.25, 0}, {0.26, 1}, {0.5, 1}, {1, 2}, {1.5, 3}, {2, 3}, {3, 4},
		    {6, 5}, {6.5, 6}, {12, 7}, {13, 8}, {20, 9}, {49, 14}, {49.5, 15}, {50, 15},
		    {300, 15}};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
		assert_int_equal(fray_bbb_fire_column(rows[i].fp), rows[i].col);
}

/* R19: R reaches Raw, T Raw and Trained, V and numbers everyone. */
static void results_reach_by_training(void **state)
{
	(void)state;
	static const bool want[7][3] = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {1, 1, 1},
					{1, 1, 1}, {1, 1, 1}, {1, 1, 1}};
	for (int r = 0; r < 7; r++)
		for (int t = 0; t < 3; t++)
			assert_int_equal(fray_bbb_result_reaches((fray_bbb_result)r, (fray_bbb_training)t),
					 want[r][t]);
	char buf[160];
	fray_bbb_effect(FRAY_BBB_2, FRAY_BBB_ARTILLERY, FRAY_BBB_VETERAN, false, buf, sizeof buf);
	assert_string_equal(buf, "artillery unit destroyed");
	fray_bbb_effect(FRAY_BBB_T, FRAY_BBB_INFANTRY, FRAY_BBB_TRAINED, true, buf, sizeof buf);
	assert_string_equal(buf, "Disrupted; advancing, so Halted");
	fray_bbb_effect(FRAY_BBB_1, FRAY_BBB_CAVALRY, FRAY_BBB_RAW, false, buf, sizeof buf);
	assert_string_equal(buf, "loses 1 base, is Disrupted, and Halted");
}

/* Exact fire odds against the printed table and the 36 faces of 2d6. */
static void fire_odds_from_2d6(void **state)
{
	(void)state;
	static const struct {
		double fp;
		int shift;
	} rows[] = {{0.25, 0}, {3, 0}, {6, 1}, {12, -2}, {20, 3}, {50, 1}, {1, -5}};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		int col = fray_bbb_fire_column(rows[i].fp) + rows[i].shift;
		col = col < 0 ? 0 : col > 15 ? 15 : col;
		int ways[7][2] = {{0}};
		for (int a = 1; a <= 6; a++)
			for (int b = 1; b <= 6; b++) {
				bool low;
				fray_bbb_result res = sheet_result(a + b, col, &low);
				ways[res][low]++;
			}
		fray_bbb_fire_in in = {.firepower = rows[i].fp, .shift = rows[i].shift, .target = FRAY_BBB_INFANTRY,
				       .training = FRAY_BBB_TRAINED};
		fray_dist *d;
		assert_int_equal(fray_enumerate(ctx, fray_bbb_fire_procedure, NULL, &in, 2, NULL, &d), FRAY_OK);
		double sum = 0;
		for (size_t k = 0; k < fray_dist_count(d); k++) {
			const int64_t *o = fray_dist_outcome(d, k);
			assert_double_equal(fray_dist_p(d, k), ways[o[0]][o[1]] / 36.0, 1e-15);
			sum += fray_dist_p(d, k);
		}
		assert_double_equal(sum, 1, 1e-12);
		fray_dist_free(d);
	}
}

/* Assault Table bands and the modifiers (G6). */
static void assault_bands_and_modifiers(void **state)
{
	(void)state;
	static const fray_bbb_assault_band want[] = {
		FRAY_BBB_A_MINUS7, FRAY_BBB_A_MINUS7, FRAY_BBB_A_MINUS7, FRAY_BBB_A_MINUS7, /* -10..-7 */
		FRAY_BBB_A_MINUS4, FRAY_BBB_A_MINUS4, FRAY_BBB_A_MINUS4,                    /* -6..-4 */
		FRAY_BBB_A_MINUS1, FRAY_BBB_A_MINUS1, FRAY_BBB_A_MINUS1,                    /* -3..-1 */
		FRAY_BBB_A_ZERO,
		FRAY_BBB_A_PLUS1, FRAY_BBB_A_PLUS1, FRAY_BBB_A_PLUS1,
		FRAY_BBB_A_PLUS4, FRAY_BBB_A_PLUS4, FRAY_BBB_A_PLUS4,
		FRAY_BBB_A_PLUS7, FRAY_BBB_A_PLUS7, FRAY_BBB_A_PLUS7, FRAY_BBB_A_PLUS7};
	for (int diff = -10; diff <= 10; diff++)
		assert_int_equal(fray_bbb_assault_band_of(diff), want[diff + 10]);
	/* numerical advantage 3:2 / 2:1 / 3:1 */
	assert_int_equal(fray_bbb_numbers(3, 2), 1);
	assert_int_equal(fray_bbb_numbers(5, 4), 0);
	assert_int_equal(fray_bbb_numbers(4, 2), 2);
	assert_int_equal(fray_bbb_numbers(9, 3), 3);
	assert_int_equal(fray_bbb_numbers(2, 3), 0);
	fray_bbb_assault_in in = {
		.attacker = {.bases = 6, .aggressive = true, .in_depth = true, .spent = true},
		.defender = {.bases = 3, .disrupted = true, .low_ammo = true, .fragile = true,
			     .aggressive = true},
		.cover = 2, .outflanked = true};
	/* -2 cover +2 outflanked +2 adv +2 numbers -1 def adv -2 att spent +3 def penalties */
	assert_int_equal(fray_bbb_assault_modifier(&in, 6, 3), 4);
}

/* Issue 28, the Terrain Table: Town "Cover worth 2 Left" (-2 against the
 * attacker), Fort "Cover worth 3 Left" (-3); in fire the cover given is not
 * added to the terrain's ("1, 2 or 3 Left": the larger); "Cavalry
 * and Artillery never count cover against fire or assault except in
 * Fortifications or behind a Bridge or Linear Obstacle" (a fort is a
 * Fortification). The fire odds at the column so shifted, counted on the
 * 36 faces of 2d6; the assault modifier moved by the cover. */
static void terrain_cover_in_fire_and_assault(void **state)
{
	(void)state;
	static const int terrain_cover[3] = {0, 2, 3}; /* other, town, fort: the sheet */
	for (int arm = 0; arm < 3; arm++)
		for (int terrain = 0; terrain < 3; terrain++)
			for (int fortified = 0; fortified < 2; fortified++)
				for (int cover = 0; cover <= 3; cover++) {
					int want = cover > terrain_cover[terrain] ? cover : terrain_cover[terrain];
					if (arm != FRAY_BBB_INFANTRY && !fortified && terrain != FRAY_BBB_FORT)
						want = 0;
					assert_int_equal(fray_bbb_cover_counted((fray_bbb_arm)arm, cover,
										(fray_bbb_terrain)terrain, fortified),
							 want);
					/* the fire: 16 fire power (column 9 of 16) shifted Left by the cover */
					fray_bbb_fire_in in = {.firepower = 16, .target = (fray_bbb_arm)arm, .cover = cover,
							       .terrain = (fray_bbb_terrain)terrain, .fortified = fortified};
					int col = fray_bbb_fire_column(16) - want;
					int ways[7][2] = {{0}};
					for (int a = 1; a <= 6; a++)
						for (int b = 1; b <= 6; b++) {
							bool low;
							ways[sheet_result(a + b, col, &low)][low]++;
						}
					fray_dist *d;
					assert_int_equal(fray_enumerate(ctx, fray_bbb_fire_procedure, NULL, &in, 2, NULL, &d),
							 FRAY_OK);
					for (size_t k = 0; k < fray_dist_count(d); k++) {
						const int64_t *o = fray_dist_outcome(d, k);
						/* outcomes merge by result and low ammo only when the effect agrees */
						double p = 0;
						for (size_t j = 0; j < fray_dist_count(d); j++)
							if (fray_dist_outcome(d, j)[0] == o[0] &&
							    fray_dist_outcome(d, j)[1] == o[1])
								p += fray_dist_p(d, j);
						assert_double_equal(p, ways[o[0]][o[1]] / 36.0, 1e-15);
					}
					fray_dist_free(d);
				}
	/* the assault (issue 40): "Defender in cover (see Terrain Table) -1
	 * to -6"; the Terrain Table's assault column gives -3 at most for one
	 * terrain (a fort), so -6 needs covers added: a town's 2 or a fort's 3
	 * and the cover given add up, to 6; cavalry and artillery count none
	 * unless fortified */
	for (int arm = 0; arm < 3; arm++)
		for (int terrain = 0; terrain < 3; terrain++)
			for (int fortified = 0; fortified < 2; fortified++)
				for (int cover = 0; cover <= 6; cover++) {
					int want = cover + terrain_cover[terrain];
					want = want > 6 ? 6 : want;
					if (arm != FRAY_BBB_INFANTRY && !fortified && terrain != FRAY_BBB_FORT)
						want = 0;
					fray_bbb_assault_in as = {.attacker = {.bases = 3}, .defender = {.bases = 3},
								  .cover = cover, .terrain = (fray_bbb_terrain)terrain,
								  .fortified = fortified};
					as.defender.arm = (fray_bbb_arm)arm;
					assert_int_equal(fray_bbb_assault_modifier(&as, 3, 3), -want);
				}
	/* the referee's case: 8 RR at 10" (factor 2: 16) on a gun in a fort: 3 Left */
	assert_int_equal(fray_bbb_cover_counted(FRAY_BBB_ARTILLERY, 0, FRAY_BBB_FORT, false), 3);
	/* a gun in a Fortification counts its cover in an assault too */
	assert_int_equal(fray_bbb_cover_counted(FRAY_BBB_ARTILLERY, 3, FRAY_BBB_OTHER_TERRAIN, true), 3);
	assert_int_equal(fray_bbb_cover_counted(FRAY_BBB_ARTILLERY, 2, FRAY_BBB_TOWN, false), 0);
}

/* R20 against a closed form: 7 bases a side, no modifiers, so the numbers
 * stay even through re-fights; each fight is a 0 with chance 1/6 (the two
 * dice equal). The assault ends at fight k with a given band with chance
 * (1/6)^(k-1) times the band's chance among the 36 faces; cut after 6
 * fights, (1/6)^6 stays unresolved. The sixth fight is at 2 bases a side,
 * where a band that costs 2 takes a side's last: the edge the earlier
 * 9 bases and 8 fights reached too (bases matter only there, the sides
 * being even), at 1/36 of the paths enumerated (test time, issue 30). */
static void refight_closed_form(void **state)
{
	(void)state;
	fray_bbb_assault_in in = {.attacker = {.bases = 7}, .defender = {.bases = 7}};
	fray_enum_limits lim = {.max_depth = 12};
	fray_dist *d;
	assert_int_equal(fray_enumerate(ctx, fray_bbb_assault_procedure, NULL, &in, 3, &lim, &d), FRAY_OK);
	char exact[64];
	fray_dist_unresolved_exact(d, exact, sizeof exact);
	assert_string_equal(exact, "1/46656"); /* 6^6 */
	/* faces: diff 1-3 12/36, 4-6 3/36 ... of a - d */
	int ways[7] = {0};
	for (int a = 1; a <= 6; a++)
		for (int b = 1; b <= 6; b++)
			ways[fray_bbb_assault_band_of(a - b)]++;
	static const int loss[7][2] = {{0, 2}, {0, 1}, {0, 0}, {1, 1}, {0, 0}, {1, 0}, {2, 0}};
	for (size_t i = 0; i < fray_dist_count(d); i++) {
		const int64_t *o = fray_dist_outcome(d, i);
		assert_true(o[0] < 7 && o[0] != FRAY_BBB_A_ZERO);
		int zeros = (int)o[1] - loss[o[0]][0];
		assert_int_equal(o[2] - loss[o[0]][1], zeros);
		double want = pow(1.0 / 6, zeros) * ways[o[0]] / 36.0;
		assert_double_equal(fray_dist_p(d, i), want, 1e-15);
	}
	fray_dist_free(d);
}

/* A 0 can destroy: 1 base each, a 0 leaves both with none. */
static void refight_destroys(void **state)
{
	(void)state;
	fray_bbb_assault_in in = {.attacker = {.bases = 1}, .defender = {.bases = 1}};
	fray_dist *d;
	assert_int_equal(fray_enumerate(ctx, fray_bbb_assault_procedure, NULL, &in, 3, NULL, &d), FRAY_OK);
	double both = 0;
	for (size_t i = 0; i < fray_dist_count(d); i++)
		if (fray_dist_outcome(d, i)[0] == 9)
			both = fray_dist_p(d, i);
	assert_double_equal(both, 1.0 / 6, 1e-15);
	fray_dist_free(d);
}

/* MOVEMENT TABLE: every row by total, both columns as printed. */
static void movement_rows(void **state)
{
	(void)state;
	static const struct {
		int total, row;
		const char *good, *dis;
	} rows[] = {
		{14, 0, "Full move / Raw Recover 1", "Full move"},
		{11, 0, "Full move / Raw Recover 1", "Full move"},
		{10, 1, "Full move / Trnd Recover 1", "Full move"},
		{9, 2, "Full move / Vet Recover 1", "Full move"},
		{8, 3, "Full move", "Half move"},
		{7, 3, "Full move", "Half move"},
		{6, 4, "Half move", "Rally in place - no move"},
		{5, 4, "Half move", "Rally in place - no move"},
		{4, 5, "No move", "Disrupted - no move"},
		{2, 5, "No move", "Disrupted - no move"},
		{1, 6, "Retire half move (ignore terrain penalties)",
		 "Lose 1 base. Retire 1 full move (ignore terrain penalties)"},
		{0, 6, "Retire half move (ignore terrain penalties)",
		 "Lose 1 base. Retire 1 full move (ignore terrain penalties)"},
		{-1, 7, "DISRUPTED Retire 1 full move", "BROKEN Remove from table"},
		{-3, 7, "DISRUPTED Retire 1 full move", "BROKEN Remove from table"},
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		int row = fray_bbb_move_row(rows[i].total);
		assert_int_equal(row, rows[i].row);
		assert_string_equal(fray_bbb_move_good_order[row], rows[i].good);
		assert_string_equal(fray_bbb_move_disrupted[row], rows[i].dis);
	}
	/* recover 1 by training, good order only */
	for (int t = 0; t < 3; t++)
		for (int total = 7; total <= 13; total++) {
			fray_bbb_move_in in = {.training = (fray_bbb_training)t};
			assert_int_equal(fray_bbb_move_recovers(&in, total), total >= 11 - t);
			in.disrupted = true;
			assert_false(fray_bbb_move_recovers(&in, total));
		}
	/* MOVEMENT MODIFIERS */
	fray_bbb_move_in go = {.command = true, .column = true, .passive = true, .fragile = true,
			       .difficult = true, .spent = true};
	assert_int_equal(fray_bbb_move_modifier(&go), 1 + 1 - 1 - 1 - 2); /* fragile: disrupted only */
	go.disrupted = true;
	assert_int_equal(fray_bbb_move_modifier(&go), 1 + 1 - 1 - 1 - 2); /* passive: good order only */
	/* odds: 2d6 + 1 for a disrupted unit in command */
	fray_bbb_move_in in = {.disrupted = true, .command = true};
	fray_dist *d;
	assert_int_equal(fray_enumerate(ctx, fray_bbb_move_procedure, NULL, &in, 2, NULL, &d), FRAY_OK);
	int ways[8] = {0};
	for (int a = 1; a <= 6; a++)
		for (int b = 1; b <= 6; b++)
			ways[fray_bbb_move_row(a + b + 1)]++;
	for (size_t i = 0; i < fray_dist_count(d); i++)
		assert_double_equal(fray_dist_p(d, i), ways[fray_dist_outcome(d, i)[0]] / 36.0, 1e-15);
	fray_dist_free(d);
}

/* Full Move Allowance and Movement Penalties. */
static void allowances(void **state)
{
	(void)state;
	static const struct {
		fray_bbb_allowance_in in;
		int inches;
	} rows[] = {
		{{FRAY_BBB_INFANTRY, false, false, false, 0, false, false, 0}, 12},
		{{FRAY_BBB_ARTILLERY, false, false, false, 0, false, false, 0}, 12},
		{{FRAY_BBB_CAVALRY, false, false, false, 0, false, false, 0}, 18},
		{{FRAY_BBB_INFANTRY, true, false, false, 0, false, false, 0}, 18},   /* general */
		{{FRAY_BBB_INFANTRY, false, true, false, 0, false, false, 0}, 9},    /* outside front arc */
		{{FRAY_BBB_INFANTRY, false, false, true, 0, false, false, 0}, 9},    /* difficult */
		{{FRAY_BBB_CAVALRY, false, false, true, 0, false, false, 0}, 12},    /* cav -6" */
		{{FRAY_BBB_ARTILLERY, false, false, false, 1, false, false, 0}, 6},  /* art obstacle -6" */
		{{FRAY_BBB_INFANTRY, false, false, true, 3, false, false, 0}, 3},    /* never below 3" */
		{{FRAY_BBB_INFANTRY, false, false, false, 0, true, true, 0}, 24},   /* road, column */
		/* issue 14: a road doubles only in column of march or limbered
		 * (TERRAIN TABLE: "Only if in Column of March or Limbered") */
		{{FRAY_BBB_INFANTRY, false, false, false, 0, true, false, 0}, 12},
		{{FRAY_BBB_CAVALRY, false, false, false, 0, true, false, 0}, 18},
		{{FRAY_BBB_CAVALRY, false, false, false, 0, true, true, 0}, 36},
		/* MOVEMENT: a formation change, a limber or unlimber: half move */
		{{FRAY_BBB_INFANTRY, false, false, false, 0, false, false, 1}, 6},
		{{FRAY_BBB_CAVALRY, false, false, false, 0, false, false, 1}, 9},
		{{FRAY_BBB_ARTILLERY, false, false, false, 0, false, false, 2}, 0},
		/* issue 28 item 13: the 3" floor keeps terrain from taking a move
		 * below 3", it never gives more than the move without the
		 * terrain: two changes leave infantry 0" (12 - 6 - 6), and
		 * difficult ground on top leaves 0", not 3"; one change leaves
		 * 6", difficult ground 3" (6 - 3); cavalry with one change 9",
		 * two obstacles (-12") floor at 3" */
		{{FRAY_BBB_INFANTRY, false, false, true, 0, false, false, 2}, 0},
		{{FRAY_BBB_ARTILLERY, false, false, false, 1, false, false, 2}, 0},
		{{FRAY_BBB_INFANTRY, false, false, true, 1, false, false, 1}, 3},
		{{FRAY_BBB_CAVALRY, false, false, false, 2, false, false, 1}, 3},
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
		assert_int_equal(fray_bbb_allowance(&rows[i].in), rows[i].inches);
}

/* After an assault both sides are Disrupted, but the attacker on a +7 and
 * the defender on a -7 or less (the Assault Table's exceptions; issue 14).
 * Modifiers +7 (9 bases to 3: +3; aggressive, in depth: +2; defender
 * spent: +2): the difference is the dice + 7, so a +7 when the attacker's
 * die is at least the defender's (21 of 36), never a -7 or a 0. */
static void disrupted_after_assault(void **state)
{
	(void)state;
	fray_bbb_assault_in in = {.attacker = {.bases = 9, .aggressive = true, .in_depth = true},
				  .defender = {.bases = 3, .spent = true}};
	assert_int_equal(fray_bbb_assault_modifier(&in, 9, 3), 7);
	fray_dist *d;
	assert_int_equal(fray_enumerate(ctx, fray_bbb_assault_procedure, NULL, &in, 5, NULL, &d), FRAY_OK);
	double attacker_fresh = 0, defender_disrupted = 0;
	for (size_t k = 0; k < fray_dist_count(d); k++) {
		const int64_t *o = fray_dist_outcome(d, k);
		attacker_fresh += o[3] ? 0 : fray_dist_p(d, k);
		defender_disrupted += o[4] ? fray_dist_p(d, k) : 0;
		if (o[0] == FRAY_BBB_A_PLUS7)
			assert_int_equal(o[3], 0);
	}
	assert_double_equal(attacker_fresh, 21.0 / 36, 1e-15);
	assert_double_equal(defender_disrupted, 1, 1e-15);
	fray_dist_free(d);
	/* a 0 is fought again with both sides Disrupted: their penalties
	 * cancel, so two equal units' second fight is their first again */
	fray_bbb_assault_in even = {.attacker = {.bases = 4}, .defender = {.bases = 4}};
	assert_int_equal(fray_enumerate(ctx, fray_bbb_assault_procedure, NULL, &even, 5, NULL, &d), FRAY_OK);
	for (size_t k = 0; k < fray_dist_count(d); k++) {
		const int64_t *o = fray_dist_outcome(d, k);
		if (o[0] < 7) /* not destroyed: the band tells */
			assert_int_equal(o[3], o[0] != FRAY_BBB_A_PLUS7);
	}
	fray_dist_free(d);
}

/* The story lists each modifier on its own; the dice and those modifiers
 * must add up to the number the table is read with. */
typedef struct tally {
	int64_t mods, dice, fights, total, totals;
} tally;

/* The told-terms convention (BRIEF): each TOTAL is the sum of the
 * MODIFIER events since the one before; where dice are added, the RESULT
 * is the dice and that total. */
static void add_up(void *ud, const fray_event *ev)
{
	tally *t = ud;
	if (ev->kind == FRAY_EV_MODIFIER) {
		assert_non_null(ev->rule);
		t->mods += ev->value;
	} else if (ev->kind == FRAY_EV_TOTAL) {
		assert_non_null(ev->rule);
		assert_int_equal(ev->value, t->mods);
		t->total = t->mods;
		t->mods = 0;
		t->totals++;
	} else if (ev->kind == FRAY_EV_ROLL) {
		t->dice += strcmp(ev->what, "defender's die") == 0 ? -ev->value : ev->value;
	} else if (ev->kind == FRAY_EV_RESULT && (!strcmp(ev->what, "final difference") ||
						  strstr(ev->what, "unit"))) {
		assert_int_equal(t->mods, 0); /* every term went into the total */
		assert_int_equal(ev->value, t->dice + t->total);
		t->dice = t->total = 0;
		t->fights++;
	} else if (ev->kind == FRAY_EV_RESULT && !strcmp(ev->what, "firefight")) {
		assert_int_equal(t->mods, 0);
		t->fights++;
	}
}

static void modifiers_itemised(void **state)
{
	(void)state;
	int64_t out[8];
	for (unsigned bits = 0; bits < (1u << 12); bits += 7) {
		fray_bbb_assault_in in = {
			.attacker = {.bases = 2 + (int)(bits % 5), .aggressive = bits & 1, .in_depth = bits & 2,
				     .disrupted = bits & 4, .low_ammo = bits & 8, .fragile = bits & 16, .spent = bits & 32},
			.defender = {.bases = 1 + (int)(bits % 3), .aggressive = bits & 64, .in_depth = bits & 128,
				     .disrupted = bits & 256, .low_ammo = bits & 512, .fragile = bits & 1024,
				     .spent = bits & 2048},
			.cover = (int)(bits % 4), .outflanked = bits % 3 == 0};
		tally t = {0};
		fray_roller *r = fray_roller_sample_new(ctx, bits, 0);
		fray_roller_set_sink(r, add_up, &t);
		assert_int_equal(fray_run(r, fray_bbb_assault_procedure, NULL, &in, out), FRAY_OK);
		assert_true(t.fights >= 1);
		assert_int_equal(t.totals, t.fights);
		fray_roller_free(r);
	}
	for (unsigned bits = 0; bits < (1u << 7); bits++) {
		fray_bbb_move_in in = {.disrupted = bits & 1, .command = bits & 2, .column = bits & 4,
				       .passive = bits & 8, .fragile = bits & 16, .difficult = bits & 32,
				       .spent = bits & 64};
		tally t = {0};
		fray_roller *r = fray_roller_sample_new(ctx, bits, 0);
		fray_roller_set_sink(r, add_up, &t);
		assert_int_equal(fray_run(r, fray_bbb_move_procedure, NULL, &in, out), FRAY_OK);
		assert_int_equal(t.fights, 1);
		assert_int_equal(t.totals, 1);
		fray_roller_free(r);
	}
	/* the firefight's column: the firepower's column, the shifts and the
	 * table's edge, then the column read (R18) */
	static const double fp[] = {0, 0.3, 3, 12, 60};
	for (size_t k = 0; k < sizeof fp / sizeof fp[0]; k++)
		for (int shift = -20; shift <= 20; shift += 3) {
			fray_bbb_fire_in in = {.firepower = fp[k], .shift = shift};
			tally t = {0};
			fray_roller *r = fray_roller_sample_new(ctx, (uint64_t)shift + 40, 0);
			fray_roller_set_sink(r, add_up, &t);
			assert_int_equal(fray_run(r, fray_bbb_fire_procedure, NULL, &in, out), FRAY_OK);
			int col = fray_bbb_fire_column(fp[k]) + shift;
			col = col < 0 ? 0 : col > FRAY_BBB_FIRE_COLS - 1 ? FRAY_BBB_FIRE_COLS - 1 : col;
			assert_int_equal(t.totals, 1);
			assert_int_equal(t.total, col + 1);
			assert_int_equal(t.fights, 1);
			fray_roller_free(r);
		}
}

/* Silenced Artillery: "Artillery in Fortifications that becomes Silenced
 * may, at the owning player's option, be given a Low Ammo marker instead
 * of a Silenced marker. In that case it ... may not fire until its Low
 * Ammo marker is removed"; "Silenced marker is removed at end of Movement
 * phase". Every arm with and without a Fortification; every marker. */
static void low_ammo_instead_of_silenced(void **state)
{
	(void)state;
	for (int arm = 0; arm <= FRAY_BBB_ARTILLERY; arm++)
		for (int fort = 0; fort < 2; fort++) {
			bool may = arm == FRAY_BBB_ARTILLERY && fort;
			assert_int_equal(fray_bbb_low_ammo_instead_refused((fray_bbb_arm)arm, fort) == NULL, may);
		}
	/* may fire: neither Silenced nor Low Ammo instead; Disrupted and
	 * Low on Ammo fire (at half, Fire Multipliers) */
	for (int bits = 0; bits < 32; bits++) {
		fray_bbb_markers m = {bits & 1, bits >> 1 & 1, bits >> 2 & 1, bits >> 3 & 1, bits >> 4 & 1};
		assert_int_equal(fray_bbb_fire_refused(m) == NULL, !m.silenced && !m.low_ammo_instead);
		/* issue 40: the Silenced marker comes off when the unit's
		 * Movement is over, not at the turn's end (a gun silenced by
		 * Defensive Fire, after its side moved, keeps it into its next
		 * Movement, in which it must retire) */
		fray_bbb_markers moved = fray_bbb_markers_after_move(m);
		assert_false(moved.silenced);
		assert_int_equal(moved.disrupted, m.disrupted);
		assert_int_equal(moved.low_ammo, m.low_ammo);
		assert_int_equal(moved.low_ammo_instead, m.low_ammo_instead);
		assert_int_equal(moved.halted, m.halted);
		/* Firefight Result / Effect: a Halted unit's advance stopped:
		 * it does not assault that turn; the halt ends with the turn */
		assert_int_equal(fray_bbb_assault_refused(m) != NULL, m.halted);
		fray_bbb_markers next = fray_bbb_markers_at_turn_end(m);
		assert_false(next.halted);
		assert_int_equal(next.silenced, m.silenced);
		assert_int_equal(next.disrupted, m.disrupted);
		assert_int_equal(next.low_ammo, m.low_ammo);
		assert_int_equal(next.low_ammo_instead, m.low_ammo_instead);
	}
	/* the procedure refuses such a gun's fire, no dice */
	fray_bbb_fire_in fire = {.firepower = 6, .firer_low_ammo_instead = true};
	int64_t out[8];
	fray_roller *r = fray_roller_sample_new(ctx, 1, 0);
	assert_int_equal(fray_run(r, fray_bbb_fire_procedure, NULL, &fire, out), FRAY_ERR_INPUT);
	assert_int_equal(fray_roller_tell(r), 0);
	fray_roller_free(r);
	fray_ctx_clear(ctx);
}

/* Issue 28 item 12: after an assault a gun is Silenced where infantry or
 * cavalry would be Disrupted (Result / Effect), never "disrupted"; and a
 * Silenced gun may not fire (Silenced Artillery). */
static void guns_silenced_not_disrupted(void **state)
{
	(void)state;
	fray_bbb_assault_in in = {.attacker = {.bases = 4}, .defender = {.bases = 2, .arm = FRAY_BBB_ARTILLERY}};
	fray_dist *d;
	assert_int_equal(fray_enumerate(ctx, fray_bbb_assault_procedure, NULL, &in, 7, NULL, &d), FRAY_OK);
	double silenced = 0;
	for (size_t k = 0; k < fray_dist_count(d); k++) {
		const int64_t *o = fray_dist_outcome(d, k);
		assert_int_equal(o[4], 0); /* the gun is never Disrupted */
		if (o[0] == 8 || o[0] == 9 || o[0] == FRAY_BBB_A_MINUS7)
			assert_int_equal(o[6], 0); /* destroyed, or the table's exception */
		else
			assert_int_equal(o[6], 1);
		assert_int_equal(o[5], 0); /* the infantry attacker is not a gun */
		silenced += o[6] ? fray_dist_p(d, k) : 0;
	}
	assert_true(silenced > 0.5);
	fray_dist_free(d);
	/* the gun attacking: Silenced too, the infantry defender Disrupted */
	fray_bbb_assault_in gun = {.attacker = {.bases = 2, .arm = FRAY_BBB_ARTILLERY}, .defender = {.bases = 2}};
	assert_int_equal(fray_enumerate(ctx, fray_bbb_assault_procedure, NULL, &gun, 7, NULL, &d), FRAY_OK);
	for (size_t k = 0; k < fray_dist_count(d); k++)
		assert_int_equal(fray_dist_outcome(d, k)[3], 0);
	fray_dist_free(d);
	/* Silenced Artillery: "may not fire": refused, no dice */
	fray_bbb_fire_in fire = {.firepower = 6, .firer_silenced = true};
	int64_t out[8];
	fray_roller *r = fray_roller_sample_new(ctx, 1, 0);
	assert_int_equal(fray_run(r, fray_bbb_fire_procedure, NULL, &fire, out), FRAY_ERR_INPUT);
	fray_roller_free(r);
	fray_ctx_clear(ctx);
	/* a silenced gun's penalty in an assault counts once, as "Disrupted
	 * (or Silenced)" */
	fray_bbb_assault_in both = {.attacker = {.bases = 3}, .defender = {.bases = 3, .silenced = true,
									 .disrupted = true}};
	assert_int_equal(fray_bbb_assault_modifier(&both, 3, 3), 1);
}

/* Result / Effect with R19, against the sheet's words: artillery Silenced
 * (and Reduced on a 1, destroyed on a 2 or 3), infantry and cavalry lose
 * the result's bases and are Disrupted; an advancing unit is Halted; a
 * unit left no bases is destroyed. */
static void fire_effects(void **state)
{
	(void)state;
	fray_bbb_effect_of e = fray_bbb_result_effect(FRAY_BBB_1, FRAY_BBB_ARTILLERY, FRAY_BBB_TRAINED, false, 1);
	assert_true(e.silenced && e.reduced && !e.destroyed && !e.disrupted && e.bases_lost == 0);
	e = fray_bbb_result_effect(FRAY_BBB_2, FRAY_BBB_ARTILLERY, FRAY_BBB_TRAINED, false, 2);
	assert_true(e.destroyed && e.bases_lost == 2 && !e.silenced);
	e = fray_bbb_result_effect(FRAY_BBB_2, FRAY_BBB_INFANTRY, FRAY_BBB_VETERAN, true, 5);
	assert_true(e.disrupted && e.halted && e.bases_lost == 2 && !e.destroyed);
	e = fray_bbb_result_effect(FRAY_BBB_3, FRAY_BBB_CAVALRY, FRAY_BBB_RAW, false, 2);
	assert_true(e.destroyed && e.bases_lost == 2 && !e.disrupted);
	e = fray_bbb_result_effect(FRAY_BBB_R, FRAY_BBB_INFANTRY, FRAY_BBB_TRAINED, true, 5); /* R19 */
	assert_true(!e.disrupted && !e.halted && e.bases_lost == 0);
	e = fray_bbb_result_effect(FRAY_BBB_T, FRAY_BBB_INFANTRY, FRAY_BBB_TRAINED, true, 5);
	assert_true(e.disrupted && e.halted);
	e = fray_bbb_result_effect(FRAY_BBB_V, FRAY_BBB_ARTILLERY, FRAY_BBB_VETERAN, false, 1);
	assert_true(e.silenced && !e.reduced && !e.disrupted);
}

/* Issue 28 item 11: a unit of mixed weapons fires with the bases it has
 * left, each loss off the group with the most bases left (ties: the one
 * listed last; fray's choice, docs/bbb.md); guns (per unit) are left. */
static void mixed_weapons_lose_bases(void **state)
{
	(void)state;
	int c[3] = {3, 1};
	assert_int_equal(fray_bbb_cut_groups(c, NULL, 2, 3), 3);
	assert_int_equal(c[0], 2);
	assert_int_equal(c[1], 1);
	assert_int_equal(fray_bbb_cut_groups(c, NULL, 2, 2), 2);
	assert_int_equal(c[0], 1);
	assert_int_equal(c[1], 1);
	int even[2] = {2, 2};
	fray_bbb_cut_groups(even, NULL, 2, 3);
	assert_int_equal(even[0], 2);
	assert_int_equal(even[1], 1);
	int guns[2] = {4, 2};
	bool per_unit[2] = {false, true};
	assert_int_equal(fray_bbb_cut_groups(guns, per_unit, 2, 1), 1);
	assert_int_equal(guns[0], 1);
	assert_int_equal(guns[1], 2);
	int none[2] = {3, 1};
	assert_int_equal(fray_bbb_cut_groups(none, NULL, 2, 9), 4); /* never more than it had */
	assert_int_equal(none[0], 3);
}

/* Ruling G6: the assault dice are configurable; the default, 1d6 each, is
 * said when it is used. */
typedef struct dice_seen {
	int sides, dice, default_told;
} dice_seen;

static void see_dice(void *ud, const fray_event *ev)
{
	dice_seen *s = ud;
	if (ev->kind == FRAY_EV_ROLL) {
		s->sides = ev->sides;
		s->dice++;
	} else if (ev->kind == FRAY_EV_NOTE && ev->text && strstr(ev->text, "G6's default")) {
		s->default_told++;
	}
}

static void assault_dice_configurable(void **state)
{
	(void)state;
	int64_t out[8];
	for (int given = 0; given < 2; given++) {
		fray_bbb_assault_in in = {.attacker = {.bases = 9}, .defender = {.bases = 1},
					  .dice = given ? 2 : 0, .sides = given ? 3 : 0};
		dice_seen seen = {0};
		fray_roller *r = fray_roller_sample_new(ctx, 5, 0);
		fray_roller_set_sink(r, see_dice, &seen);
		assert_int_equal(fray_run(r, fray_bbb_assault_procedure, NULL, &in, out), FRAY_OK);
		fray_roller_free(r);
		assert_int_equal(seen.sides, given ? 3 : 6);
		assert_int_equal(seen.dice, given ? 4 : 2); /* 9 to 1 ends in one fight */
		assert_int_equal(seen.default_told, !given);
	}
	/* exact: 2d3 each, 4 bases to 4 (no modifiers): a 0 (refought) on
	 * sum_k N(k)^2 / 81 with N = 1, 2, 3, 2, 1 ways to throw 2..6 */
	fray_bbb_assault_in even = {.attacker = {.bases = 4}, .defender = {.bases = 4}, .dice = 2, .sides = 3};
	fray_dist *d;
	fray_enum_limits lim = {.max_depth = 4}; /* one fight: four dice */
	assert_int_equal(fray_enumerate(ctx, fray_bbb_assault_procedure, NULL, &even, 7, &lim, &d), FRAY_OK);
	double resolved = 0;
	for (size_t k = 0; k < fray_dist_count(d); k++)
		resolved += fray_dist_p(d, k);
	assert_double_equal(1 - resolved, (1 + 4 + 9 + 4 + 1) / 81.0, 1e-12);
	fray_dist_free(d);
	/* out of range: refused */
	fray_bbb_assault_in bad = {.attacker = {.bases = 2}, .defender = {.bases = 2}, .dice = 0, .sides = 6};
	fray_roller *r = fray_roller_sample_new(ctx, 5, 0);
	assert_int_equal(fray_run(r, fray_bbb_assault_procedure, NULL, &bad, out), FRAY_ERR_INPUT);
	fray_roller_free(r);
	fray_ctx_clear(ctx);
}

/* Issue 29: every entry point refuses what is out of range, never
 * trusting the caller. */
static void library_refuses_bad_state(void **state)
{
	(void)state;
	int64_t out[8];
	fray_bbb_assault_in zero = {.attacker = {.bases = 0}, .defender = {.bases = 3}};
	fray_bbb_assault_in arm = {.attacker = {.bases = 3, .arm = (fray_bbb_arm)7}, .defender = {.bases = 3}};
	fray_bbb_assault_in cover = {.attacker = {.bases = 3}, .defender = {.bases = 3}, .cover = -2};
	const fray_bbb_assault_in *bad[] = {&zero, &arm, &cover, NULL};
	for (size_t k = 0; k < 4; k++) {
		fray_roller *r = fray_roller_sample_new(ctx, 5, 0);
		assert_int_equal(fray_run(r, fray_bbb_assault_procedure, NULL, bad[k], out), FRAY_ERR_INPUT);
		fray_roller_free(r);
		fray_ctx_clear(ctx);
	}
	fray_bbb_fire_in fire_bad[] = {{.firepower = -1}, {.firepower = 4, .training = (fray_bbb_training)5},
				       {.firepower = 4, .target_bases = -3}};
	for (size_t k = 0; k < 3; k++) {
		fray_roller *r = fray_roller_sample_new(ctx, 5, 0);
		assert_int_equal(fray_run(r, fray_bbb_fire_procedure, NULL, &fire_bad[k], out), FRAY_ERR_INPUT);
		fray_roller_free(r);
		fray_ctx_clear(ctx);
	}
	fray_bbb_move_in move_bad = {.training = (fray_bbb_training)-1};
	fray_roller *r = fray_roller_sample_new(ctx, 5, 0);
	assert_int_equal(fray_run(r, fray_bbb_move_procedure, NULL, &move_bad, out), FRAY_ERR_INPUT);
	fray_roller_free(r);
	fray_ctx_clear(ctx);
	bool low;
	assert_int_equal(fray_bbb_fire_cell(13, 0, &low), FRAY_BBB_NONE);
	assert_int_equal(fray_bbb_fire_cell(7, -1, &low), FRAY_BBB_NONE);
	assert_int_equal(fray_bbb_fire_cell(7, 99, &low), FRAY_BBB_NONE);
	assert_null(fray_bbb_weapon_find(NULL));
	assert_int_equal(fray_bbb_weapon_band(NULL, 3), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(disrupted_after_assault),
		cmocka_unit_test(modifiers_itemised),
		cmocka_unit_test(guns_silenced_not_disrupted),
		cmocka_unit_test(low_ammo_instead_of_silenced),
		cmocka_unit_test(fire_effects),
		cmocka_unit_test(mixed_weapons_lose_bases),
		cmocka_unit_test(assault_dice_configurable),
		cmocka_unit_test(library_refuses_bad_state),
		cmocka_unit_test(every_firefight_cell),
		cmocka_unit_test(every_fire_factor_cell),
		cmocka_unit_test(firepower_columns),
		cmocka_unit_test(results_reach_by_training),
		cmocka_unit_test(fire_odds_from_2d6),
		cmocka_unit_test(assault_bands_and_modifiers),
		cmocka_unit_test(refight_closed_form),
		cmocka_unit_test(refight_destroys),
		cmocka_unit_test(movement_rows),
		cmocka_unit_test(terrain_cover_in_fire_and_assault),
		cmocka_unit_test(allowances),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
