/* Private: a quick battle scenario as read from its file (adbg/scenario.c),
 * the input of the battle engine (adbg/battle.c). */
#ifndef FRAY_ADBG_SCENARIO_H
#define FRAY_ADBG_SCENARIO_H

#include "adbg_internal.h"

#define ADBG_NAME 48
#define ADBG_CHECK_FACES 16

typedef struct adbg_unit_def {
	char name[ADBG_NAME];
	fray_adbg_type type;
	int fire, melee;
	int melee_cf;              /* melee x the terrain's multiplier (19.2.3) */
	fray_adbg_status status;
	int stack;                 /* 0-based, in the side's stacks */
} adbg_unit_def;

typedef struct adbg_leader_def {
	char name[ADBG_NAME];
	int rating;
	int stack;                 /* 0-based, or -1: with no stack */
} adbg_leader_def;

typedef struct adbg_side_def {
	char id[ADBG_NAME], name[ADBG_NAME];
	int level;
	int nunits, nstacks, nleaders;   /* leaders[0] is the primary leader */
	adbg_unit_def units[FRAY_ADBG_MAX_UNITS];
	adbg_leader_def leaders[FRAY_ADBG_MAX_LEADERS];
	/* each unit's fire as a face mask, bit face - 1 set when the face
	 * hits (frayi_adbg_fire_hits; the sampling fast path, battle.c) */
	uint8_t fire_faces[FRAY_ADBG_MAX_UNITS];
} adbg_side_def;

/* A die check from data (G2 leader loss, G3 routed units' fate): roll the
 * dice; the event happens when the total is one of faces. */
typedef struct adbg_check {
	char text[32];             /* the dice, as written */
	fray_dice *dice;
	int nfaces;
	int64_t faces[ADBG_CHECK_FACES];
	fray_dice_check *test;     /* the dice against the faces */
	/* The same check for the sampling fast path (battle.c): when the dice
	 * are 1d6 or 2d6, fast_dice is their number and bit (first face - 1)
	 * * 6 + (second face - 1) of fast_mask is set when the total is one of
	 * faces (bit face - 1 for one die); 0: rolled through test only. */
	int fast_dice;
	uint64_t fast_mask;
} adbg_check;

typedef enum adbg_victory { ADBG_VICTORY_LOSSES, ADBG_VICTORY_FIELD } adbg_victory;
typedef enum adbg_routed_fate { ADBG_ROUTED_ROLL, ADBG_ROUTED_ELIMINATED,
				ADBG_ROUTED_KEPT } adbg_routed_fate;

struct fray_adbg_scenario {
	fray_ctx *ctx;
	char name[96];
	fray_adbg_terrain terrain;
	bool severe;
	int initiative;            /* side 0 or 1 */
	int surprised;             /* side 0 or 1, or -1 */
	adbg_side_def side[2];
	fray_adbg_crt crt;
	adbg_check loss_fire, loss_melee;  /* G2 */
	adbg_victory victory;              /* G3 */
	adbg_routed_fate routed;
	adbg_check routed_check;
	bool has_array;                    /* R3, given in the file */
	int array_pos[2][FRAY_ADBG_MAX_STACKS];
	int array_row[2][FRAY_ADBG_MAX_STACKS];
	int npos;
	uint64_t digest;                   /* its file's and its CRT file's */
	/* the battle as the heuristic sets it up, frayi_adbg_setup_size
	 * bytes (battle.c); NULL: each battle is set up afresh */
	unsigned char *setup;
};

/* The set-up made once per scenario for the battles that take the
 * heuristic's suggestions unasked (battle.c). */
size_t frayi_adbg_setup_size(const fray_adbg_scenario *sc);
void frayi_adbg_setup_make(const fray_adbg_scenario *sc, unsigned char *dst);

/* Rolls a check: true when the total is one of its faces. */
bool frayi_adbg_check_roll(fray_roller *r, const adbg_check *c, const char *what,
		     int64_t *total);

#endif
