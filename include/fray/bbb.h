/* Bloody Big Battles! from its quick reference sheet: the firefight, the
 * assault and the movement table, with rulings R18-R20 and G6 of
 * RULES-NOTES.md. Tables are data (src/rules/bbb/tables.c); each procedure
 * rolls through a roller, so it can be told, given exact odds or sampled. */
#ifndef FRAY_BBB_H
#define FRAY_BBB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <fray/roller.h>

typedef enum fray_bbb_training {
	FRAY_BBB_RAW = 0,
	FRAY_BBB_TRAINED = 1,
	FRAY_BBB_VETERAN = 2
} fray_bbb_training;

typedef enum fray_bbb_arm {
	FRAY_BBB_INFANTRY = 0,
	FRAY_BBB_CAVALRY = 1,
	FRAY_BBB_ARTILLERY = 2
} fray_bbb_arm;

/* Firefight results, in increasing severity. */
typedef enum fray_bbb_result {
	FRAY_BBB_NONE = 0, FRAY_BBB_R = 1, FRAY_BBB_T = 2, FRAY_BBB_V = 3,
	FRAY_BBB_1 = 4, FRAY_BBB_2 = 5, FRAY_BBB_3 = 6
} fray_bbb_result;

extern const char *const fray_bbb_training_names[3]; /* "raw", "trained", "veteran" */
extern const char *const fray_bbb_arm_names[3];      /* "infantry", ... */
extern const char *const fray_bbb_result_names[7];   /* "none", "R", ... "3" */

/* ---- Fire factors (sheet: FIRE FACTORS) ---- */

typedef struct fray_bbb_weapon {
	const char *code;        /* "RR" */
	const char *name;        /* "rifled musket" */
	bool per_unit;           /* artillery: factor per unit, not per base */
	int nbands;
	int range[4];            /* "up to" inches of each band */
	int factor[4];           /* 0 and a blank cell differ: see nbands */
	int shift;               /* rockets: 1 right */
} fray_bbb_weapon;

extern const fray_bbb_weapon fray_bbb_weapons[];
extern const size_t fray_bbb_nweapons;

/* The weapon with this code (case ignored), or NULL. */
const fray_bbb_weapon *fray_bbb_weapon_find(const char *code);
/* The band for a range in inches (0 < range), or -1 beyond the weapon. */
int fray_bbb_weapon_band(const fray_bbb_weapon *w, double range);

/* ---- The firefight (sheet: THE FIREFIGHT, ruling R18) ---- */

#define FRAY_BBB_FIRE_COLS 16
/* The "up to" firepower of each column; the last is 50+. */
extern const double fray_bbb_fire_column_top[FRAY_BBB_FIRE_COLS];

/* R18: the first column whose "up to" is at least the firepower. */
int fray_bbb_fire_column(double firepower);
/* The table cell at 2d6 row (2-12) and column: the result and, in rows 11
 * and 12, Low on Ammo. */
fray_bbb_result fray_bbb_fire_cell(int row, int col, bool *low_ammo);
/* Whether a result reaches a target of this training (R19: R only Raw, T
 * Raw and Trained, V and numbers everyone). */
bool fray_bbb_result_reaches(fray_bbb_result res, fray_bbb_training t);
/* The result's effect on this target in words (sheet: Result / Effect,
 * read with R19), snprintf-like. */
size_t fray_bbb_effect(fray_bbb_result res, fray_bbb_arm target,
		       fray_bbb_training t, bool advancing, char *dst, size_t cap);

/* What a result does to its target (sheet: Result / Effect, read with
 * R19): bases lost, the marker (infantry and cavalry Disrupted, artillery
 * Silenced), Reduced, destroyed, Halted (an advancing unit). */
typedef struct fray_bbb_effect_of {
	int bases_lost;
	bool disrupted, silenced, reduced, destroyed, halted;
} fray_bbb_effect_of;
/* bases: the target's bases left (a unit left none is destroyed; 0: not
 * known, only a 2 or 3 destroys a gun). */
fray_bbb_effect_of fray_bbb_result_effect(fray_bbb_result res, fray_bbb_arm target, fray_bbb_training t,
					  bool advancing, int bases);

/* The Terrain Table's covered terrains that fray knows by name: a Town's
 * cover is worth 2 (2 Left in fire, -2 against the attacker), a Fort's 3;
 * any other cover is given as a number. */
typedef enum fray_bbb_terrain {
	FRAY_BBB_OTHER_TERRAIN = 0, FRAY_BBB_TOWN = 1, FRAY_BBB_FORT = 2
} fray_bbb_terrain;
/* The cover a target counts in fire (columns Left, "1, 2 or 3 Left"):
 * the larger of the cover given and its terrain's, and none for cavalry
 * and artillery except in Fortifications (a fort, or fortified: a
 * fortification, behind a bridge or a linear obstacle; Terrain Table
 * note). */
int fray_bbb_cover_counted(fray_bbb_arm arm, int cover, fray_bbb_terrain terrain, bool fortified);
/* The cover a defender counts in an assault (subtracted, "-1 to -6"): the
 * terrain's (a town 2, a fort 3) and the cover given added up, at most 6;
 * none for cavalry and artillery unless fortified, as in fire. */
int fray_bbb_assault_cover_counted(fray_bbb_arm arm, int cover, fray_bbb_terrain terrain, bool fortified);

typedef struct fray_bbb_fire_in {
	double firepower;         /* after the fire multipliers */
	int shift;                /* net column shift, right positive */
	fray_bbb_arm target;
	fray_bbb_training training;
	bool advancing;
	int target_bases;         /* the target's bases left; 0: not known */
	bool firer_silenced;      /* a Silenced gun may not fire: refused */
	/* a gun in a Fortification given Low Ammo instead of Silenced:
	 * refused until that marker is removed (Silenced Artillery) */
	bool firer_low_ammo_instead;
	/* the target's cover, counted by fray_bbb_cover_counted and shifted
	 * Left by the procedure (not in shift): the cover given (0-3), the
	 * terrain (a town 2, a fort 3), fortified */
	int cover;
	fray_bbb_terrain terrain;
	bool fortified;
} fray_bbb_fire_in;
/* A unit's markers that last between actions (the sheet's Markers).
 * low_ammo_instead: a gun in a Fortification that took Low Ammo instead
 * of Silenced, at its owner's option (Silenced Artillery): it need not
 * retire but may not fire until that marker is removed (a marker of its
 * own: plain Low on Ammo only halves the fire). */
typedef struct fray_bbb_markers {
	bool disrupted, low_ammo, silenced, low_ammo_instead;
	/* Halted by fire while advancing (Firefight Result / Effect): its
	 * advance stops, so it does not assault this turn */
	bool halted;
} fray_bbb_markers;
/* Whether a unit with these markers may fire: NULL, else why not
 * (Silenced Artillery: Silenced, or Low Ammo instead of Silenced). */
const char *fray_bbb_fire_refused(fray_bbb_markers m);
/* Whether a unit may fire at or assault a unit of this side: NULL when
 * the target is the enemy's, else why not (Sequence of Play: each player
 * fires at and assaults the other's units). */
const char *fray_bbb_target_refused(bool same_side);
/* Whether a unit that has just become Silenced may take Low Ammo instead,
 * at its owner's option: only artillery in a Fortification. NULL, else
 * why not. */
const char *fray_bbb_low_ammo_instead_refused(fray_bbb_arm arm, bool in_fortification);
/* Whether a unit with these markers may assault: NULL, else why not (a
 * Halted unit's advance has stopped). */
const char *fray_bbb_assault_refused(fray_bbb_markers m);
/* The markers when the unit's movement is over: "Silenced marker is
 * removed at end of Movement phase" (Silenced Artillery). */
fray_bbb_markers fray_bbb_markers_after_move(fray_bbb_markers m);
/* The markers at the turn's end: a halt lasts the turn; Silenced stays
 * until the unit's movement is over (fray_bbb_markers_after_move), the
 * others until the rules that remove them. */
fray_bbb_markers fray_bbb_markers_at_turn_end(fray_bbb_markers m);

typedef struct fray_bbb_fire_out {
	int base_col, col, roll;
	fray_bbb_result result;
	bool low_ammo;
	fray_bbb_effect_of effect; /* on the target */
} fray_bbb_fire_out;
/* Refused (FRAY_ERR_INPUT, a message, no dice) when the firer is a
 * Silenced gun, or the input is out of range or NULL. */
void fray_bbb_fire(fray_roller *r, const fray_bbb_fire_in *in, fray_bbb_fire_out *out);
/* As a procedure: outcome {result, low_ammo, target bases lost,
 * disrupted, silenced, reduced, destroyed, halted}. */
void fray_bbb_fire_procedure(fray_roller *r, fray_policy *p, const void *in, int64_t *out);

/* ---- Assault (sheet: Assault Modifiers, Assault Table; G6, R20) ---- */

typedef struct fray_bbb_assault_side {
	int bases;
	fray_bbb_arm arm;         /* artillery is Silenced where others are Disrupted */
	bool aggressive, in_depth;                  /* advantages */
	bool disrupted, low_ammo, fragile, spent;   /* penalties */
	bool silenced;            /* a gun: the penalty "Disrupted (or Silenced)", once */
} fray_bbb_assault_side;

typedef struct fray_bbb_assault_in {
	fray_bbb_assault_side attacker, defender;
	int cover;                /* defender in cover: 0..6, subtracted as
				     fray_bbb_assault_cover_counted counts it
				     (with terrain and fortified, at the end) */
	bool outflanked;          /* +2 */
	/* G6: the dice each side rolls, configurable; 0 and 0: the ruling's
	 * default, 1d6 each, and the story says the default was used */
	int dice, sides;
	/* the defender's terrain (a town -2, a fort -3) and whether it is
	 * fortified: with cover, fray_bbb_assault_cover_counted */
	fray_bbb_terrain terrain;
	bool fortified;
} fray_bbb_assault_in;
#define FRAY_BBB_ASSAULT_DICE 1   /* G6's default: 1d6 a side */
#define FRAY_BBB_ASSAULT_SIDES 6

/* Final results: the table's bands, or a side destroyed by its losses. */
typedef enum fray_bbb_assault_band {
	FRAY_BBB_A_PLUS7 = 0, FRAY_BBB_A_PLUS4 = 1, FRAY_BBB_A_PLUS1 = 2,
	FRAY_BBB_A_ZERO = 3, FRAY_BBB_A_MINUS1 = 4, FRAY_BBB_A_MINUS4 = 5,
	FRAY_BBB_A_MINUS7 = 6
} fray_bbb_assault_band;
extern const char *const fray_bbb_assault_band_names[7]; /* "+7", "+4-6", ... */
extern const char *const fray_bbb_assault_band_text[7];  /* the sheet's words */

/* The band of a final difference. */
fray_bbb_assault_band fray_bbb_assault_band_of(int diff);
/* The modifiers of one fight as the attacker's net addition (the dice
 * aside): advantages add for the attacker, subtract for the defender;
 * penalties the reverse; cover subtracts; outflanked adds 2. */
int fray_bbb_assault_modifier(const fray_bbb_assault_in *in, int att_bases, int def_bases);
/* Numerical advantage of a over b bases: 3 at 3:1, 2 at 2:1, 1 at 3:2. */
int fray_bbb_numbers(int a, int b);

typedef struct fray_bbb_assault_out {
	fray_bbb_assault_band band;   /* the deciding fight's band */
	int diff;                     /* its final difference */
	int fights;
	int attacker_lost, defender_lost;
	bool attacker_destroyed, defender_destroyed;
	/* after the assault: both sides are Disrupted, but the attacker on a
	 * +7 and the defender on a -7 or less (the table's exceptions); a gun
	 * is Silenced instead (the sheet's Result / Effect: guns Silenced
	 * where infantry and cavalry are Disrupted) */
	bool attacker_disrupted, defender_disrupted;
	bool attacker_silenced, defender_silenced;
} fray_bbb_assault_out;
void fray_bbb_assault(fray_roller *r, const fray_bbb_assault_in *in,
		      fray_bbb_assault_out *out);
/* As a procedure: outcome {band (or 7 attacker destroyed, 8 defender
 * destroyed, 9 both), attacker bases lost, defender bases lost, attacker
 * disrupted, defender disrupted, attacker silenced, defender silenced}. Each
 * fight is two random events: enumerate with a depth limit of twice the
 * fights to follow; the mass beyond is reported as unresolved (R20). */
void fray_bbb_assault_procedure(fray_roller *r, fray_policy *p, const void *in,
				int64_t *out);

/* ---- Movement (sheet: MOVEMENT MODIFIERS, MOVEMENT TABLE) ---- */

typedef struct fray_bbb_move_in {
	bool disrupted;
	fray_bbb_training training;
	bool command, column, passive, fragile, difficult, spent;
	/* the unit's bases now and at the start (0, 0: not known): a unit
	 * recovers a base only when it has lost one */
	int bases, start_bases;
} fray_bbb_move_in;

#define FRAY_BBB_MOVE_ROWS 8
/* Rows of the table: 11+, 10, 9, 7-8, 5-6, 2-4, 0-1, -1 or less. */
extern const char *const fray_bbb_move_row_names[FRAY_BBB_MOVE_ROWS];
extern const char *const fray_bbb_move_good_order[FRAY_BBB_MOVE_ROWS];
extern const char *const fray_bbb_move_disrupted[FRAY_BBB_MOVE_ROWS];

int fray_bbb_move_modifier(const fray_bbb_move_in *in);
int fray_bbb_move_row(int total);
/* Recover 1 (good order only): Raw on 11+, Trained on 10+, Veteran on 9+. */
bool fray_bbb_move_recovers(const fray_bbb_move_in *in, int total);

typedef struct fray_bbb_move_out {
	int roll, total, row;
	bool recovers;
	/* what the row does to the unit: a base back (+1) or lost (-1); its
	 * state after (Disrupted, rallied to good order, or broken: removed) */
	int bases_change;
	bool disrupted, broken;
} fray_bbb_move_out;
void fray_bbb_move(fray_roller *r, const fray_bbb_move_in *in, fray_bbb_move_out *out);
/* As a procedure: outcome {row, recovers, bases change, disrupted after,
 * broken}. */
void fray_bbb_move_procedure(fray_roller *r, fray_policy *p, const void *in, int64_t *out);

/* The full move allowance in inches (sheet: Full Move Allowance, Movement
 * Penalties; Road from the terrain table). general: generals move 18". */
typedef struct fray_bbb_allowance_in {
	fray_bbb_arm arm;
	bool general;
	bool outside_front_arc;
	bool difficult;           /* the move crosses difficult terrain */
	int obstacles;            /* linear obstacles crossed */
	bool road;                /* following a road */
	bool column;              /* in column of march or limbered: a road
				     doubles the speed only then */
	int changes;              /* formation changes and limber/unlimber:
				     half the full move each */
} fray_bbb_allowance_in;
int fray_bbb_allowance(const fray_bbb_allowance_in *in);

/* A unit of mixed weapons that has lost bases (issue 28 item 11): its
 * weapon groups' counts cut down to bases_now, each base lost from the
 * group with the most bases left (ties: the one listed last), so the mix
 * keeps its proportions (the sheet does not say which bases go: fray's
 * choice, docs/bbb.md). Groups whose factor is per unit (artillery) are
 * not bases and are left alone. Returns the bases left in all. */
int fray_bbb_cut_groups(int *count, const bool *per_unit, int n, int bases_now);

/* ---- A unit's turn (sheet: Sequence of Play Summary) ---- */

/* A player's turn runs Unit Movement, Generals, the other player's
 * Defensive Fire, Offensive Fire, Assault. fray's BBB `turn` is one such
 * player's turn: in it a unit moves once (its movement; a move without a
 * roll too), fires once (the moving player's units in Offensive Fire, the
 * other's in Defensive Fire) and assaults once, in the sheet's order:
 * movement, then fire, then assault (docs/bbb.md, "A unit's turn"). */
typedef enum fray_bbb_action {
	FRAY_BBB_DO_MOVE = 0,
	FRAY_BBB_DO_FIRE = 1,
	FRAY_BBB_DO_ASSAULT = 2
} fray_bbb_action;
#define FRAY_BBB_NACTIONS 3
/* one word each, as a game file keeps them: "move", "fire", "assault" */
extern const char *const fray_bbb_action_names[FRAY_BBB_NACTIONS];
/* The phases of a player's turn, in the sheet's order (Sequence of Play
 * Summary): "First Player Unit Movement, First Player Generals, Defensive
 * Fire by Second Player, Offensive Fire by First Player, Assault by First
 * Player". The first player of a player's turn is its moving player. */
typedef enum fray_bbb_phase {
	FRAY_BBB_MOVEMENT = 0,
	FRAY_BBB_GENERALS = 1,
	FRAY_BBB_DEFENSIVE_FIRE = 2,
	FRAY_BBB_OFFENSIVE_FIRE = 3,
	FRAY_BBB_ASSAULT = 4
} fray_bbb_phase;
#define FRAY_BBB_NPHASES 5
/* one word each, as a game file keeps them: "movement", "generals",
 * "defensive-fire", "offensive-fire", "assault"; and the sheet's names:
 * "Unit Movement", "Generals", "Defensive Fire", "Offensive Fire",
 * "Assault" */
extern const char *const fray_bbb_phase_names[FRAY_BBB_NPHASES];
extern const char *const fray_bbb_phase_titles[FRAY_BBB_NPHASES];
/* What a unit did this turn: done[a] once a was taken; and, when the game
 * keeps the phase (phased), the phase of the player's turn and whether
 * the unit is the moving player's (its side's turn) or the other's. */
typedef struct fray_bbb_turn {
	bool done[FRAY_BBB_NACTIONS];
	bool phased;
	fray_bbb_phase phase;
	bool moving;
} fray_bbb_turn;
/* Whether a unit that did t this turn may take a now: NULL when it may,
 * else why not, with the rule (Sequence of Play). With the phase kept:
 * only the moving player's units move (Unit Movement), fire in Offensive
 * Fire and assault (Assault); the other player's units only fire, in
 * Defensive Fire; nothing in Generals (the sheet gives generals no roll:
 * an empty phase for the game). Then, phase kept or not: one of each a
 * turn, and none whose phase the unit's own actions have passed (no move
 * after its fire or assault, no fire after its assault). */
const char *fray_bbb_action_refused(const fray_bbb_turn *t, fray_bbb_action a);
/* The phase in which side (moving: the moving player's, else the
 * other's) takes a, or -1 when it takes none in a player's turn (the
 * other player's units neither move nor assault). */
int fray_bbb_action_phase(fray_bbb_action a, bool moving);
/* t with a taken (t unchanged for an action out of range). */
void fray_bbb_turn_take(fray_bbb_turn *t, fray_bbb_action a);
/* A turn in words, "move, fire" in the sheet's order ("" for nothing);
 * cap at least 4 (a cut text ends in "..."). */
void fray_bbb_turn_text(const fray_bbb_turn *t, char *dst, size_t cap);

#endif
