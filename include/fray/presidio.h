/* Presidio: the dice procedures of the skirmish rules (shooting, wounding,
 * casualties, morale, rally, initiative so far), with rulings R11-R17. The
 * weapon lists of Section 10 are built in. Distances and positions are the
 * player's to measure; fray does the dice, the tables and the modifiers. */
#ifndef FRAY_PRESIDIO_H
#define FRAY_PRESIDIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <fray/roller.h>

/* Range classes of the weapon lists' Range column (ruling R12). */
typedef enum fray_presidio_range_class {
	FRAY_PRESIDIO_MELEE = 0,   /* "--": no ranged fire */
	FRAY_PRESIDIO_HAND = 1,    /* hand-thrown, grenades */
	FRAY_PRESIDIO_PISTOL = 2,
	FRAY_PRESIDIO_CARBINE = 3,
	FRAY_PRESIDIO_MUSKET = 4,
	FRAY_PRESIDIO_RIFLE = 5,
	FRAY_PRESIDIO_ARTILLERY = 6
} fray_presidio_range_class;
extern const char *const fray_presidio_range_class_names[7]; /* "melee" .. "artillery" */

typedef struct fray_presidio_weapon {
	const char *name;          /* "flintlock musket" */
	const char *group;         /* the list's heading */
	int hit;                   /* Hit# (the "+" dropped) */
	int damage;
	int reload;                /* actions; 0 for melee weapons */
	fray_presidio_range_class range;
} fray_presidio_weapon;

extern const fray_presidio_weapon fray_presidio_weapons[];
extern const size_t fray_presidio_nweapons;

/* Forgiving lookup: case, '-', '_' and spaces do not matter
 * ("Flintlock Musket", "flintlock-musket"). NULL when unknown; *near then
 * names the nearest weapon (or NULL); near may be NULL, and so may name. */
const fray_presidio_weapon *fray_presidio_weapon_find(const char *name,
						      const fray_presidio_weapon **near);

/* The weapon a figure armed with w fights with in melee (Section 10's
 * melee rows): w itself when it is a melee weapon; for a firearm its butt,
 * a pistol's as "1-handed hatchet/warclub/pistol butt" (8+, damage 3), any
 * longer gun's as "2-handed axe/warclub/rifle butt" (8+, damage 4); NULL
 * for a bow, sling or crossbow, which the text gives no melee use. */
const fray_presidio_weapon *fray_presidio_melee_weapon(const fray_presidio_weapon *w);

/* Range bands (R12): 0 close (-4), 1 medium (-2), 2 long (0), -1 beyond
 * (cannot fire). Ranges are "less than" the band's inches. */
int fray_presidio_band(fray_presidio_range_class c, double inches);
extern const char *const fray_presidio_band_names[3]; /* "close", "medium", "long" */
int fray_presidio_band_dm(int band);
/* The band's upper limits in inches for a class (0 for "anywhere on the
 * table"). */
void fray_presidio_band_limits(fray_presidio_range_class c, int limits[3]);

/* Defensive cover (Section 4): DMs added to the hit number. */
typedef enum fray_presidio_cover {
	FRAY_PRESIDIO_NO_COVER = 0, FRAY_PRESIDIO_INCIDENTAL = 1, FRAY_PRESIDIO_PARTIAL = 2,
	FRAY_PRESIDIO_HEAVY = 3, FRAY_PRESIDIO_FULL = 4, FRAY_PRESIDIO_COMPLETE = 5
} fray_presidio_cover;
extern const char *const fray_presidio_cover_names[6];
/* The DM of a cover (complete cover: cannot be hit, returns 99). */
int fray_presidio_cover_dm(fray_presidio_cover c);

/* The damage chart (R13): the d12 needed to wound for weapon damage less
 * armor; 0 when nothing can wound (differential below -3). */
int fray_presidio_wound_number(int differential);

/* Unit size classes (Sections 6, 7). */
typedef enum fray_presidio_size {
	FRAY_PRESIDIO_TEAM = 0, FRAY_PRESIDIO_SQUAD = 1, FRAY_PRESIDIO_PLATOON = 2,
	FRAY_PRESIDIO_COMPANY = 3
} fray_presidio_size;
extern const char *const fray_presidio_size_names[4];
fray_presidio_size fray_presidio_size_of(int figures);
/* A unit's size class for the rules on who may do what (a volley is a
 * platoon's at most, Section 1): the larger of the class it is given and
 * its starting figures' (Section 7's bands), so a unit given a company's
 * figures is a company whatever size it was written with (the referee's
 * second round, finding 5: decided here, not in the game). */
fray_presidio_size fray_presidio_size_class(fray_presidio_size given, int start_figures);
/* R15: the casualty die of a size class: 6, 12, 20, 30. */
int fray_presidio_casualty_die(fray_presidio_size s);

/* R14: figures firing each action in independent fire: figures / reload,
 * rounded to nearest, halves up (18 / 4 -> 5). */
int fray_presidio_independent_figures(int figures, int reload);

/* ---- Unit statistics (Section 1, G4): user data ---- */

#define FRAY_PRESIDIO_MAX_UNIT_TYPES 64

typedef struct fray_presidio_unit_type {
	char name[48];
	int ranged, melee, move, recon, camou, armor;
	int level;                /* fray_presidio_level */
	bool mounted;
} fray_presidio_unit_type;

typedef struct fray_presidio_units {
	int n;
	fray_presidio_unit_type types[FRAY_PRESIDIO_MAX_UNIT_TYPES];
} fray_presidio_units;

/* Reads `units: {NAME: {ranged, melee, move, recon, camou, armor, morale,
 * mounted}}`; every problem on doc (file:line:col). */
bool fray_presidio_units_read(fray_doc *doc, fray_presidio_units *out);
const fray_presidio_unit_type *fray_presidio_unit_find(const fray_presidio_units *u, const char *name);

/* Rank and Command Skill: the command skill (1-4) of a rank (NCO, officer
 * or native leader, any of the table's names), or 0 when unknown. */
int fray_presidio_command_skill(const char *rank);

typedef struct fray_presidio_rank {
	const char *rank;
	int skill;
	bool officer;              /* an officer or native leader; false: an NCO */
} fray_presidio_rank;
/* The rank's row, or NULL when unknown (forgiving, as for weapons). */
const fray_presidio_rank *fray_presidio_rank_find(const char *rank);

/* ---- A unit's standing (the marker it carries after a morale result)
 * and what it may do ---- */

typedef enum fray_presidio_standing {
	FRAY_PRESIDIO_GOOD = 0, FRAY_PRESIDIO_DISORDERED, FRAY_PRESIDIO_FLINCHED, FRAY_PRESIDIO_HUNKERED,
	FRAY_PRESIDIO_FELL_BACK, FRAY_PRESIDIO_RETREATED, FRAY_PRESIDIO_PANICKED, FRAY_PRESIDIO_SURRENDERED,
	FRAY_PRESIDIO_DESTROYED
} fray_presidio_standing;
#define FRAY_PRESIDIO_NSTANDINGS 9
/* "good", "disordered", "flinched", "hunkered", "fell back", "retreated",
 * "panicked", "surrendered", "destroyed" */
extern const char *const fray_presidio_standing_names[FRAY_PRESIDIO_NSTANDINGS];

typedef enum fray_presidio_act {
	FRAY_PRESIDIO_ACT_SHOOT = 0, FRAY_PRESIDIO_ACT_MELEE, FRAY_PRESIDIO_ACT_CHARGE, FRAY_PRESIDIO_ACT_RELOAD,
	FRAY_PRESIDIO_ACT_RALLY, FRAY_PRESIDIO_ACT_BE_TARGETED,
	FRAY_PRESIDIO_ACT_BE_PURSUED   /* only a unit that fell back, retreated or panicked */
} fray_presidio_act;
/* Whether a unit of this standing may do a: NULL when it may, else why
 * not, with the rule (a panicked unit neither shoots nor reloads, only a
 * panicked unit rallies, ...). */
const char *fray_presidio_act_refused(fray_presidio_standing s, fray_presidio_act a);
/* Whether a unit may shoot at, melee, charge or pursue a unit of its own
 * side: never (NULL when the target is the enemy's). Fire hits "only
 * enemy figures" (Section 4, Line of sight), melee and charges are with
 * the enemy (Section 5), "the enemy may pursue" (Section 5, Pursuit); a
 * friend behind the target is hit only as through-fire (Section 6). */
const char *fray_presidio_target_refused(bool same_side);
/* The worse of two standings: a milder failure never overwrites a worse
 * one (a panicked unit that falls back is still panicked). */
fray_presidio_standing fray_presidio_worse_standing(fray_presidio_standing a, fray_presidio_standing b);
/* The standing a unit carries into the next turn (Section 7): a flinch or
 * a hunker costs actions of this turn only and a unit that fell back is
 * placed in good order, so all three stand in good order; a unit that
 * retreated is placed in disorder; every other standing lasts (a panic
 * until a rally, disorder until the unit re-forms). */
fray_presidio_standing fray_presidio_standing_at_turn_end(fray_presidio_standing s);
/* Pursuit (Section 5): a pursuer that makes contact with a unit of this
 * standing takes its surrender when it is panicked (true); else the two
 * go on to melee, the pursuers counting as charging (false). */
bool fray_presidio_pursuit_surrenders(fray_presidio_standing s);

/* What a charge comes to once the target's fear-of-charge check and its
 * reaction are known (Section 5, Charging; the referee's second round,
 * finding 5: decided here, not in the game). */
typedef enum fray_presidio_charge_end {
	FRAY_PRESIDIO_CHARGE_IMPACT = 0,    /* the target held its place: the impact */
	FRAY_PRESIDIO_CHARGE_GOES_ON,       /* it gave way or moved away and the charge's
					       distance did not reach it: no impact */
	FRAY_PRESIDIO_CHARGE_CAUGHT,        /* reached where it went: the impact, no reaction */
	FRAY_PRESIDIO_CHARGE_SURRENDER      /* reached panicked: it surrenders, no dice */
} fray_presidio_charge_end;
/* holds: the target's fear check held its place (presidio.morale's
 * `holds`); moved_away: its reaction moved it away (flee, fire and flee);
 * catches: the players measured that the charge's full distance reaches
 * it where it went; target: its standing now. "Unless stopped by the
 * defenders the charging unit will move up its total charge distance"
 * (Charge Movement); Flee "does not constitute a failed morale check";
 * a panicked unit so reached surrenders (Pursuit: "If they make contact
 * with a panicked unit, it surrenders immediately"). */
fray_presidio_charge_end fray_presidio_charge_goes_on(bool holds, bool moved_away, bool catches,
						      fray_presidio_standing target);

/* What a unit walked into base contact with does (Section 5, Moving into
 * a Melee: "figures not in base contact yet, may 'walk' (1 free action)
 * into melee contact; the consecutive actions rule will apply and the
 * 'defender' will attack first"; Pursuit: contact with a panicked unit
 * is its surrender). */
typedef enum fray_presidio_into_contact {
	FRAY_PRESIDIO_INTO_STRIKES_FIRST = 0, /* the unit walked into attacks first */
	FRAY_PRESIDIO_INTO_SURRENDERS,        /* panicked: it surrenders, no dice */
	FRAY_PRESIDIO_INTO_NO_BLOW            /* out of the fight, or not holding its place: no blow */
} fray_presidio_into_contact;
fray_presidio_into_contact fray_presidio_into_contact_of(fray_presidio_standing walked_into, int figures);
/* Whether a unit of this standing keeps its formation (ruling R44): a
 * disordered unit is placed "in a clump" (Section 3, Disorder), a
 * retreated one "in disorder" and a panicked one "in a clump" (Section
 * 7), so none of them is in line, whatever its formation was. */
bool fray_presidio_standing_in_formation(fray_presidio_standing s);
extern const fray_presidio_rank fray_presidio_ranks[];
extern const size_t fray_presidio_nranks;

/* ---- Shooting (Section 4, Section 6; R11-R15) ---- */

typedef enum fray_presidio_fire_mode {
	FRAY_PRESIDIO_VOLLEY = 0,       /* every figure given fires */
	FRAY_PRESIDIO_INDEPENDENT = 1,  /* figures / reload (R14) */
	FRAY_PRESIDIO_MOVING = 2,       /* fire while moving: 12 to hit, half the figures, wound +2 */
	FRAY_PRESIDIO_OPPORTUNITY = 3,  /* +2 to the hit number */
	FRAY_PRESIDIO_AIMED = 4         /* aim and shoot: -2 */
} fray_presidio_fire_mode;
extern const char *const fray_presidio_fire_mode_names[5];

typedef struct fray_presidio_shoot_in {
	const fray_presidio_weapon *weapon;
	int band;                  /* 0 close, 1 medium, 2 long */
	int skill;                 /* the firer's ranged skill */
	int figures;               /* figures that could fire */
	fray_presidio_fire_mode mode;
	fray_presidio_cover cover;
	bool incidental;           /* incidental cover on top (cumulative) */
	bool skirmish_target;      /* skirmishers, artillery crews: +2 */
	bool mounted_target;       /* +1 */
	bool evading;              /* +1 */
	bool taking_cover;         /* +2 */
	int other_dm;              /* anything else */
	int armor;                 /* the target's armor */
	int target_figures;        /* casualties at most these; the casualty die (R15) */
	int target_unit_figures;   /* when > 0, the casualty die's instead: the unit as it
				      stood when the dice were rolled (two actions rolled
				      together, Section 4, Independent Fire) */
	int specialists;           /* officers, NCOs, musicians, characters */
	bool through_fire;         /* a unit within 12" behind the target */
	int units_behind;          /* how many (0 or 1: one); with more, a die
				      picks the one the 12s hit (Through-Fire) */
	bool volley_ready;         /* Volley Fire's conditions hold: fully loaded,
				      in line at most two deep, not skirmishers */
	/* Reloading While Taking Additional Cover (Section 4): the firers fire
	 * half their independent-fire figures, an odd half rounded up or
	 * down on a 50% die; a target doing so has +1 cover */
	bool reloading_in_cover, target_reloading_in_cover;
	/* The firers' state (Section 4, Firing and Reloading): actions of
	 * reloading still to do, and whether they follow a volley (then no
	 * figure is loaded until they are done); officers and NCOs among the
	 * firers (not counted in a volley); the firers' own cover (partial,
	 * heavy or full: +1 firing back). */
	int reload_left;
	bool after_volley;
	bool volley_if_able;       /* a volley when the unit may fire one, else
				      independent fire (Defensive Fire) */
	fray_presidio_standing firer_standing;  /* disordered: not in formation; fell
						   back in line: no volley (R49) */
	int firer_leaders;
	fray_presidio_cover firer_cover;
	/* The target's standing: hunkered down is complete cover (Special
	 * Cover, Hunker Down); its leader among its specialty figures (the
	 * first of them on the casualty die) */
	fray_presidio_standing target_standing;
	bool target_leader;
	/* the range in inches when known (< 0: only the band is known), for
	 * "within 4\"" of the enemy (Section 7, Surrender) */
	double inches;
	/* The firers are light troops or a unit designated skirmishers
	 * (Section 3, Disorder): disordered (firer_standing), they shoot half
	 * the figures that would fire, halves rounded up as ruling R14's */
	bool light;
	/* 2: two consecutive actions of independent fire, "roll all the dice
	 * (for both actions) at the same time" (Section 4, Independent Fire):
	 * each action's firers, all rolled at once; 0 or 1: one action */
	int actions;
	/* Section 4, Weapon Types: a second weapon type in the unit (NULL:
	 * none), the figures that carry it and its range band (its own range
	 * class's); see fray_presidio_shoot_types */
	const fray_presidio_weapon *weapon2;
	int figures2;
	int band2;
	/* Section 6, Units in Column: a target in a narrow corridor, march
	 * column or enfiladed, showing a single or double file to the firers,
	 * takes its hits "by those in front": its file from the front, a
	 * letter a figure, L its leader, s another specialty figure, p a
	 * private (NULL: not in column; the casualty die then) */
	const char *file;
} fray_presidio_shoot_in;

typedef struct fray_presidio_shoot_out {
	int firing, hit_number, wound_number;
	int hits, casualties, specialists_hit;
	int rear_hits, rear_casualties;
	int rear_unit;             /* which unit behind took them, 1-based */
	bool leader_hit;           /* the target's leader among the casualties */
	bool volley;               /* the fire was a volley */
	int reload;                /* actions to reload afterwards */
	bool morale_check;         /* the target checks morale (Section 7) */
	bool within_4;             /* the firers are within 4" of the target */
} fray_presidio_shoot_out;

/* What a shot leaves, known before any die: whether it is a volley (a
 * volley asked of a unit that may not fire one is independent fire,
 * ruling R27) and the reload actions needed afterwards (any fire empties
 * the guns that fired: a volley next needs the whole reload, Section 4,
 * Reloading). */
bool fray_presidio_fires_volley(const fray_presidio_shoot_in *in);
int fray_presidio_reload_after(const fray_presidio_shoot_in *in);

/* Why this unit cannot fire now (nothing loaded after a volley, a volley
 * not fully loaded or not allowed), or NULL. */
const char *fray_presidio_fire_state_refused(const fray_presidio_shoot_in *in);
/* Independent Fire (Section 4): a unit that fires independently for two
 * consecutive actions rolls the dice of both at once, with one morale
 * check after (fray_presidio_shoot once for each action, the second with
 * what the first left). NULL when fire of this mode may be so rolled,
 * else why not (a volley empties the guns; opportunity fire and fire while
 * moving fire once; aimed fire is two actions itself). */
const char *fray_presidio_consecutive_refused(fray_presidio_fire_mode mode);
/* A unit's shot at the target of its shot just before, in the same turn
 * with nothing between (before: that shot's mode, actions_before its
 * shooting actions; now: this one's mode, one action). NULL when it may be
 * rolled on its own, else why not: a second action of independent fire
 * in one action sequence belongs with the first (Section 4, Independent
 * Fire; Section 7: one morale check after the sequence), unless the unit
 * held it and fires it at another moment (held; Section 2, Holding 1
 * Action). A shot standing right after the unit's fire while moving at
 * the same target is refused too: its target checked after the moving
 * fire and would check twice in one sequence. */
const char *fray_presidio_second_shot_refused(fray_presidio_fire_mode before, int actions_before,
					      fray_presidio_fire_mode now, bool held);
/* Whether a target at this band (and range in inches, < 0 unknown) is
 * within 4" (Section 7, Surrender): a rifle's close band reaches 12". */
bool fray_presidio_within_4(fray_presidio_range_class c, int band, double inches);

/* Ruling R27: independent fire is the default; a volley is fired only when
 * asked for (FRAY_PRESIDIO_VOLLEY) by a unit that may: NULL when it may,
 * else why not. Not by a unit out of formation (disordered, retreated,
 * panicked: ruling R44), nor by a line unit (volley_ready) that fell back
 * this turn: it is set down disordered (Section 7, Fall Back; Section 3,
 * Disorder; ruling R49). Asked of a unit that may not, fray_presidio_shoot
 * fires independent fire and says so. */
const char *fray_presidio_volley_refused(const fray_presidio_shoot_in *in);

/* The final hit number (R11) and whether fire is possible (false when
 * the hit number is above 12 or the target is in complete cover). */
int fray_presidio_hit_number(const fray_presidio_shoot_in *in);
void fray_presidio_shoot(fray_roller *r, const fray_presidio_shoot_in *in,
			 fray_presidio_shoot_out *out);
/* Section 6, Units in Column: why a file (front first, L the leader, s a
 * specialty figure, p a private) is not one, or NULL. */
const char *fray_presidio_file_problem(const char *file);
/* The first casualties figures of the file are those that fall, no die
 * (Units in Column): the specialty figures among them, and whether the
 * leader is. */
int fray_presidio_file_hits(const char *file, int casualties, bool *leader_hit);

/* Section 3, Combining Units: figures of two separate units made one
 * (4 actions, drums and bugles no help, an officer present who stays
 * with it). The new unit is inexperienced, disregards the casualties
 * before, and its size class is recounted from its figures. */
typedef struct fray_presidio_combine_in {
	int figures1, figures2;   /* the figures each unit brings */
	bool officer;             /* an officer present (required) */
} fray_presidio_combine_in;
/* Why they cannot combine, or NULL (no officer; no figures). */
const char *fray_presidio_combine_refused(const fray_presidio_combine_in *in);
/* outcome {figures, size class, level (inexperienced), casualties (0),
 * actions (4)} */
void fray_presidio_combine_procedure(fray_roller *r, fray_policy *p, const void *in, int64_t *out);

/* Section 4, Weapon Types: a unit with two weapon types rolls each type
 * on its own (its hit number, damage and reload), all its fire "at the
 * same time", and the target checks morale "only after the entire unit
 * has fired": the first type as fray_presidio_shoot, then in->weapon2's
 * figures2 at band2 against what the first left (its figures, specialty
 * figures, leader; the casualty die the unit's as it stood); out sums
 * both, with one morale check. */
void fray_presidio_shoot_types(fray_roller *r, const fray_presidio_shoot_in *in, fray_presidio_shoot_out *out);
/* As a procedure: outcome {hits, casualties, specialists_hit, rear_hits,
 * rear_casualties, rear_unit, leader_hit, morale_check}; with a second
 * weapon type, fray_presidio_shoot_types. */
void fray_presidio_shoot_procedure(fray_roller *r, fray_policy *p, const void *in,
				   int64_t *out);

/* ---- Charging and melee (Section 5) ---- */

typedef enum fray_presidio_impact {
	FRAY_PRESIDIO_NO_CHARGE = 0,  /* melee, no charge impact */
	FRAY_PRESIDIO_FOOT = 1,       /* charge impact on foot: -1 */
	FRAY_PRESIDIO_HORSE = 2,      /* on horseback: -2 */
	FRAY_PRESIDIO_BAYONET = 3,    /* bayonets or spears: -2 in all */
	FRAY_PRESIDIO_LANCE = 4       /* on horseback with spear or lance: -3 in all */
} fray_presidio_impact;
extern const char *const fray_presidio_impact_names[5];
/* Charge Impact: the chargers' kind by their mount and melee weapon (a
 * spear or lance by its name) and bayonets. */
fray_presidio_impact fray_presidio_impact_of(bool mounted, const fray_presidio_weapon *melee, bool bayonets);

/* Section 5, Disengaging from Melee: pursuers of a unit that disengages
 * need an action left (else the reason), and strike with their charge
 * impact only with 2 actions left ("no charge bonus unless they have 2
 * actions left"): else no impact. */
const char *fray_presidio_disengage_pursuit_refused(int actions_left);
fray_presidio_impact fray_presidio_disengage_pursuit_impact(fray_presidio_impact charge, int actions_left);
/* Whether a unit of standing s that broke base contact with the would-be
 * pursuers this turn (broke_from_it) may be pursued by them: NULL when it
 * may, else why not with the rule. One that failed a check and fell
 * back, retreated or panicked (Section 5, Pursuit: "the enemy may
 * pursue"), and one still in order that broke contact in an older fray's
 * game (a walk off, a charge elsewhere: since the referee's sixth round a
 * unit in contact leaves only by 'disengage', Disengaging from Melee;
 * fray_presidio_disengaged). */
const char *fray_presidio_pursued_refused(fray_presidio_standing s, bool broke_from_it);
/* Whether a unit of standing s that broke contact left by its own move
 * (disengaged, Section 5, Disengaging from Melee) rather than by a failed
 * check: a standing that keeps contact did not break it by a check. */
bool fray_presidio_disengaged(fray_presidio_standing s);

typedef struct fray_presidio_melee_in {
	const fray_presidio_weapon *weapon, *defender_weapon;
	int figures, defender_figures;     /* in base contact */
	int skill, defender_skill;         /* melee skills */
	int armor, defender_armor;         /* the attacker's and the defender's */
	fray_presidio_impact impact;
	bool low_wall, uphill, high_wall, ladder;
	bool mounted, defender_mounted;
	bool both;                         /* the defender strikes back */
	int other_dm;
	/* Casualties in melee fall on specialty figures as fire's do (Section
	 * 6, Hits; ruling R15): each side's specialty figures (officers, NCOs,
	 * musicians, characters), whether its leader is among them (the
	 * first), and its unit's figures, which size the casualty die (0: the
	 * figures in contact) */
	int specialists, defender_specialists;
	bool leader, defender_leader;
	int unit_figures, defender_unit_figures;
	/* Section 2, Holding 2 Actions: a defender that held an action strikes
	 * back simultaneously (with both), with the figures it had before the
	 * attackers' casualties; else with those the strike left */
	bool simultaneous;
	/* The defenders' standing: contact with a panicked unit is its
	 * surrender, and it strikes no blow (Section 5, Pursuit; Section 2,
	 * Rally: it "performs no other actions") */
	fray_presidio_standing defender_standing;
	/* Section 5, Moving into a Melee: the attackers walked into contact
	 * (a free action, no charge): "the 'defender' will attack first"; the
	 * attackers strike back with the figures its strike left (with both;
	 * the outcome keeps each side's fields) */
	bool defender_first;
} fray_presidio_melee_in;

typedef struct fray_presidio_melee_out {
	int difficulty, return_difficulty;
	int hits, casualties;              /* the attacker's strikes on the defender */
	int return_hits, return_casualties;/* the defender's, on the attacker */
	int specialists_hit;               /* the defender's specialty figures among its casualties */
	bool leader_hit;                   /* the defender's leader among them */
	int return_specialists_hit;        /* the attacker's, from the return strike */
	bool return_leader_hit;
} fray_presidio_melee_out;

/* The attack difficulty: weapon Hit# - attacker's skill + defender's skill
 * and the modifiers (Section 5); and the defender's return strike. */
int fray_presidio_melee_difficulty(const fray_presidio_melee_in *in);
int fray_presidio_return_difficulty(const fray_presidio_melee_in *in);
/* Why the text does not allow this melee, or NULL: a simultaneous strike
 * needs the defenders to strike back (both); a panicked defender is not
 * met in melee (contact is its surrender) and strikes no blow. */
const char *fray_presidio_melee_refused(const fray_presidio_melee_in *in);
/* Whether the defenders' return strike is simultaneous with the
 * attackers' (every figure in contact strikes, before its casualties):
 * when they held an action for it (simultaneous), and always against a
 * charge's impact, where striking back is the action the defender saved
 * to "wait and melee simultaneously" (Section 2, Holding 1 and 2 Actions;
 * Section 5, Charge Reaction and Charge Impact). */
bool fray_presidio_strikes_back_simultaneously(const fray_presidio_melee_in *in);
void fray_presidio_melee(fray_roller *r, const fray_presidio_melee_in *in,
			 fray_presidio_melee_out *out);
/* As a procedure: outcome {hits, casualties, return_hits, return_casualties,
 * specialists_hit, leader_hit, return_specialists_hit, return_leader_hit}. */
void fray_presidio_melee_procedure(fray_roller *r, fray_policy *p, const void *in,
				   int64_t *out);

/* ---- Morale (Section 7, R16) ---- */

typedef enum fray_presidio_level {
	FRAY_PRESIDIO_ELITE = 0, FRAY_PRESIDIO_VETERAN = 1, FRAY_PRESIDIO_AVERAGE = 2,
	FRAY_PRESIDIO_INEXPERIENCED = 3,
	/* an elite unit's temporary status after two 6s (Section 7, morale
	 * bonuses): base morale 4, for the rest of the battle */
	FRAY_PRESIDIO_SUPER_ELITE = 4
} fray_presidio_level;
#define FRAY_PRESIDIO_NLEVELS 5
extern const char *const fray_presidio_level_names[FRAY_PRESIDIO_NLEVELS];

typedef enum fray_presidio_situation {
	FRAY_PRESIDIO_OPEN = 0, FRAY_PRESIDIO_IN_COVER = 1, FRAY_PRESIDIO_LINE = 2,
	FRAY_PRESIDIO_CHARGING = 3
} fray_presidio_situation;
extern const char *const fray_presidio_situation_names[4];

typedef struct fray_presidio_morale_in {
	fray_presidio_level level;
	fray_presidio_size size;
	int casualties;            /* received so far */
	bool charging, charged;
	bool incidental_or_friendly_cover;
	fray_presidio_cover cover; /* incidental, partial or heavy (Section 7
				      names no other): incidental is the -1
				      above, partial and heavy their DM off */
	bool line;                 /* in line formation: its -1 only while
				      the standing keeps the formation (R44) */
	int leader;                /* command bonus of a leader within 2" */
	bool leader_casualty;
	int friends_fell_back, friends_retreated, friends_panicked; /* within 12" */
	bool chaplain, hero;       /* -1, -2 (Section 1) */
	bool flag, fifer;          /* with the cover above: one -1 in all */
	fray_presidio_situation situation;  /* for the failure's meaning */
	bool near_enemy;           /* within 4" of the enemy or surrounded */
	bool charge_impact;        /* the check follows a charge's impact: a
				      panic there is a panic move, not a
				      surrender (Section 7, Surrender) */
	fray_presidio_standing standing;   /* the unit's standing before */
	/* Section 1, Officer Casualties: the unit has no commander left (its
	 * leader and every officer and NCO down) and this check follows one
	 * more casualty: no die, it runs for it (panicked) or surrenders
	 * (within 4" of the enemy or surrounded, as Section 7's Surrender) */
	bool no_commanders;
	/* the unit's figures now (0: not given), for the size class it counts
	 * with when it starts over as a new unit (Morale Bonus 3) */
	int figures;
} fray_presidio_morale_in;

typedef struct fray_presidio_morale_out {
	int required, roll, total;
	bool success, bonus;
	int short_by;              /* 0 on success */
	fray_presidio_standing standing;   /* afterwards */
	bool holds;                /* stays in place (or, charging, goes on) */
	/* what the unit counts with in its next checks (Morale Bonus): two 6s
	 * raise the level one step and start it over as a new unit, its
	 * casualties 0 and its size class that of its figures now; else as
	 * before */
	fray_presidio_level level_after;
	fray_presidio_size size_after;
	int casualties_after;
} fray_presidio_morale_out;

/* The situation a check's failure is read in (Morale Roll Resolution):
 * the one given, but a unit out of formation (disordered, retreated,
 * panicked: fray_presidio_standing_in_formation) is no unit in line: it
 * is read in partial (or better) cover when it has it, else in the open
 * (ruling R44). */
fray_presidio_situation fray_presidio_morale_situation(const fray_presidio_morale_in *in);
/* The standing after a check short by short_by (0: passed) for the
 * unit's situation, never milder than the standing it had. */
fray_presidio_standing fray_presidio_morale_standing(const fray_presidio_morale_in *in, int short_by);
/* Whether a unit of that standing holds its place (a charging unit: goes
 * on with its charge): passed, disordered, flinched or hunkered. */
bool fray_presidio_standing_holds(fray_presidio_standing s);

int fray_presidio_morale_required(const fray_presidio_morale_in *in);
void fray_presidio_morale(fray_roller *r, const fray_presidio_morale_in *in,
			  fray_presidio_morale_out *out);
/* Morale Bonus: the level a unit reaches with two 6s (one up; an elite
 * unit becomes super-elite). */
fray_presidio_level fray_presidio_bonus_level(fray_presidio_level l);
/* The failure band's consequence in words, for the unit's situation. */
const char *fray_presidio_morale_result(const fray_presidio_morale_in *in, int short_by);
/* As a procedure: outcome {success, short_by, bonus, standing, holds,
 * level_after, size_after, casualties_after}. */
void fray_presidio_morale_procedure(fray_roller *r, fray_policy *p, const void *in,
				    int64_t *out);

/* ---- Artillery (Section 9) ---- */

typedef enum fray_presidio_ammo {
	FRAY_PRESIDIO_SHOT = 0, FRAY_PRESIDIO_SHELL = 1, FRAY_PRESIDIO_CANISTER = 2,
	FRAY_PRESIDIO_DOUBLE_CANISTER = 3, FRAY_PRESIDIO_BUCKSHOT = 4
} fray_presidio_ammo;
extern const char *const fray_presidio_ammo_names[5];

typedef struct fray_presidio_gun {
	const char *piece;        /* "12# cannon, smoothbore" */
	int body;                 /* strength of the piece */
	fray_presidio_ammo ammo;
	bool direct, indirect;    /* Dir, Ind, Dir/Ind */
	int damage, burst;
	double radius;
	int reload;
	fray_presidio_range_class range;
	bool rifled, mortar;
} fray_presidio_gun;

extern const fray_presidio_gun fray_presidio_guns[];
extern const size_t fray_presidio_nguns;
/* The row for a piece (forgiving, as for weapons) and its ammunition. */
const fray_presidio_gun *fray_presidio_gun_find(const char *piece, fray_presidio_ammo ammo);

/* Artillery Movement (Section 11): inches before the 1D6; -1: cannot. */
typedef struct fray_presidio_gun_move {
	const char *piece;   /* "12# cannon" */
	int hand, two_horse, four_horse;
} fray_presidio_gun_move;
extern const fray_presidio_gun_move fray_presidio_gun_moves[];
extern const size_t fray_presidio_ngun_moves;
const fray_presidio_gun_move *fray_presidio_gun_move_find(const char *piece);

typedef struct fray_presidio_gun_move_in {
	int rate;            /* from the table */
	bool hauled_by_hand; /* by the crew (or a one-horse limber) */
	int missing_crew;    /* of four: -2" each when hauled by hand */
	bool running;        /* x2 */
	bool garrison;       /* a garrison-mounted gun: half the hand
				movement, never limbered (Section 10,
				Artillery Movement) */
} fray_presidio_gun_move_in;
/* Inches: (rate - 2 per missing crewman by hand + 1D6, at least 0), x2
 * running, halved for a garrison gun (so a half inch may remain). */
double fray_presidio_gun_move_distance(const fray_presidio_gun_move_in *in, int die);
/* outcome {inches, in half inches} */
void fray_presidio_gun_move_procedure(fray_roller *r, fray_policy *p, const void *in, int64_t *out);

typedef enum fray_presidio_fire_type {
	FRAY_PRESIDIO_DIRECT = 0, FRAY_PRESIDIO_INDIRECT = 1, FRAY_PRESIDIO_DIRECTED = 2,
	FRAY_PRESIDIO_BLIND = 3
} fray_presidio_fire_type;
extern const char *const fray_presidio_fire_type_names[4];
/* Whether a load may be fired so: NULL when it may, else why not. Its row
 * in Section 10 says Dir, Ind or Dir/Ind: direct fire needs Dir; indirect,
 * directed and blind fire (all lobbed: "weapons that arc") need Ind, so
 * rifled guns, swivels and canister fire direct only and shells and
 * mortars never direct. */
const char *fray_presidio_fire_refused(const fray_presidio_gun *g, fray_presidio_fire_type t);

/* Section 9, Damage: a structure's strength after hits without damage at
 * the same spot: 2 less for each. */
int fray_presidio_weakened_strength(int strength, int hits_without_damage);

/* Target strengths (Section 9): structures by name. */
typedef struct fray_presidio_structure {
	const char *name;
	int strength;
} fray_presidio_structure;
extern const fray_presidio_structure fray_presidio_structures[];
extern const size_t fray_presidio_nstructures;

typedef struct fray_presidio_artillery_in {
	const fray_presidio_gun *gun;
	fray_presidio_fire_type type;
	int skill;                /* gunnery: not for canister, directed or blind fire */
	int band;                 /* range band: 0 close, 1 medium, 2 long */
	int cover_dm, other_dm;
	int corrections;          /* fire correction: shots before at the target */
	int strength;             /* the target's strength (structures) or armor */
	int crew_missing;         /* reload +2 actions each */
	/* Canister Hits: "canister also will potentially hit any friendly
	 * troops in the 90 degree cone. Include them in the random die roll":
	 * with friendly figures in the cone, each hit falls on a figure drawn
	 * from the cone's enemy and friendly figures (0: no friends there) */
	int enemy_figures, friendly_figures, friendly_armor;
} fray_presidio_artillery_in;

typedef struct fray_presidio_artillery_out {
	int required, roll;
	bool hit, mishap;
	int mishap_kind;          /* 1 explodes ... 5-6 no problem (1d6); mishap
				     is true on 1-4 only: no shot. On 5-6 the
				     shot goes as rolled, a miss that scatters */
	int scatter, direction;   /* inches and 1 N .. 6 NW, on a miss; blind
				     fire: 2..12, a clock face seen from the
				     firer (ruling R26: 12 straight on beyond
				     the aim point, 6 back toward the gun) */
	bool destroyed;           /* a shot or shell hit destroyed the target */
	int hits, casualties;     /* canister */
	int friendly_hits, friendly_casualties; /* canister, friends in the cone */
	int reload;               /* actions, with missing crew */
} fray_presidio_artillery_out;

int fray_presidio_artillery_required(const fray_presidio_artillery_in *in);
void fray_presidio_artillery(fray_roller *r, const fray_presidio_artillery_in *in,
			     fray_presidio_artillery_out *out);
/* As a procedure: outcome {0 miss / 1 hit / 2 mishap (no shot: the
 * mishap table's 1-4), destroyed or canister casualties, scatter inches,
 * the mishap table's roll (0: none; 5-6 the shot went as rolled)}. */
void fray_presidio_artillery_procedure(fray_roller *r, fray_policy *p, const void *in,
				       int64_t *out);

/* A shell on or near a structure, vehicle or gun (Section 9, Radius
 * Hits): full damage for a direct hit, 3/4 in the lethal cone, 1/2 in the
 * rest of the radius (rounded down), then the damage chart against the
 * target's strength, with no saving roll. */
typedef enum fray_presidio_blast_zone {
	FRAY_PRESIDIO_BLAST_DIRECT = 0, FRAY_PRESIDIO_BLAST_LETHAL_CONE = 1, FRAY_PRESIDIO_BLAST_RADIUS = 2
} fray_presidio_blast_zone;
int fray_presidio_blast_damage(int damage, fray_presidio_blast_zone zone);
typedef struct fray_presidio_blast_in {
	int damage;     /* after the zone's fraction */
	int strength;
	int full_damage;  /* the shell's damage before the fraction, told
			     with the zone (0: not known, damage told alone) */
	fray_presidio_blast_zone zone;
} fray_presidio_blast_in;
/* outcome {destroyed} */
void fray_presidio_blast_procedure(fray_roller *r, fray_policy *p, const void *in, int64_t *out);

/* Radius hits: figures in the lethal cone are incapacitated; the others
 * within the radius are hit on 1d6: mounted 3+, standing 4+, kneeling 5+,
 * prone or in partial cover 6; with a damage, the figures hit outside the
 * cone roll the damage chart (damage - armor). input: int[5] lethal,
 * outside, posture (0 mounted .. 3 prone), damage (0: no damage roll),
 * armor; outcome {figures hit, casualties} (casualties = hits without a
 * damage). */
void fray_presidio_radius_procedure(fray_roller *r, fray_policy *p, const void *in, int64_t *out);
extern const char *const fray_presidio_posture_names[4];

/* ---- Movement (Section 3) ---- */

typedef enum fray_presidio_mover {
	FRAY_PRESIDIO_ON_FOOT = 0,   /* 6 + 1D6" (two-horse wagons too) */
	FRAY_PRESIDIO_LIGHT = 1,     /* light and native units: 7 + 1D6" */
	FRAY_PRESIDIO_SLOW = 2,      /* one-horse wagons, civilians: 3 + 1D6" */
	FRAY_PRESIDIO_MOUNTED = 3    /* mounted models, four-horse vehicles: 12 + 1D6" */
} fray_presidio_mover;
extern const char *const fray_presidio_mover_names[4];

typedef enum fray_presidio_barrier {
	FRAY_PRESIDIO_CLEAR = 0, FRAY_PRESIDIO_LIGHT_BARRIER = 1, FRAY_PRESIDIO_MEDIUM_BARRIER = 2,
	FRAY_PRESIDIO_HEAVY_BARRIER = 3
} fray_presidio_barrier;
extern const char *const fray_presidio_barrier_names[4];

/* A unit's designation where the text treats light infantry and
 * skirmishers apart (Disorder; Reloading While Moving): the units file has
 * no such field, so it is an input (docs/presidio.md). */
typedef enum fray_presidio_designation {
	FRAY_PRESIDIO_OTHER_UNIT = 0, FRAY_PRESIDIO_LIGHT_UNIT = 1, FRAY_PRESIDIO_SKIRMISH_UNIT = 2
} fray_presidio_designation;
extern const char *const fray_presidio_designation_names[3];

typedef struct fray_presidio_move_in {
	fray_presidio_mover mover;
	bool running;            /* two actions: doubled (running, galloping) */
	bool charging;           /* at running speed, and never halved in line */
	bool line;               /* line formation: halved, except when charging */
	bool drummer;            /* +1" to a unit in formation, after halving */
	bool crawling;           /* a quarter */
	int kneel_changes, prone_changes;  /* -1" and -2" each, when moving */
	fray_presidio_barrier barrier;
	double before_barrier;   /* inches moved before the barrier (split terrain) */
	int skill;               /* the Move skill, "added to the movement die
				    roll" (Section 1) */
	bool road_column;        /* a column on a road: +3" (Formations) */
	int turns;               /* right, left or about faces while moving:
				    2" each in line (Formation Maneuvers, Turning) */
	bool firing;             /* fires while moving: 1" walking, 2" running,
				    before doubling (Section 4, Fire while Moving) */
	int reloading;           /* actions of reloading while moving: 2" each,
				    before doubling (Section 4, Reloading While
				    Moving; light infantry and skirmishers only) */
	bool disordered;         /* Section 3, Disorder: light and skirmish
				    units move at half */
	fray_presidio_designation designation; /* light, skirmish or other */
} fray_presidio_move_in;

/* The distance for a given 1D6 roll, in inches (Section 3; a movement
 * roll is one die for the whole unit): (allowance + skill + die - the
 * inches of firing and reloading while moving), doubled for two actions
 * or a charge, halved in line, + the drummer's and the road's inches,
 * quartered crawling, halved for a disordered light or skirmish unit,
 * less the inches of kneeling, going prone, turning and a light barrier,
 * then a medium or heavy barrier's fraction; never below 0. */
double fray_presidio_move_distance(const fray_presidio_move_in *in, int die);
/* Why the text does not allow this movement, or NULL: firing while moving
 * by a unit not designated light or skirmish, or in line (Section 4,
 * Independent Fire); turns by a unit not in line (Section 3, Formation
 * Maneuvers: only a unit in line pays for turning); a disordered unit (a
 * clump) in road column. */
const char *fray_presidio_move_refused(const fray_presidio_move_in *in);
/* As a procedure: outcome {distance in quarter inches}. */
void fray_presidio_move_procedure(fray_roller *r, fray_policy *p, const void *in, int64_t *out);

/* Firing into a melee from beyond 4" (Section 5): each hit falls on a
 * figure drawn at random from both sides. input: int[3] hits, enemy
 * figures, friendly figures; outcome {enemy hit, friends hit}. */
void fray_presidio_into_melee_procedure(fray_roller *r, fray_policy *p, const void *in, int64_t *out);

/* ---- Mounted troops and scouting (Sections 3, 4) ---- */

/* Jumping: a fence (3-4') costs an expert horseman's horse on a d12 of 1,
 * others are thrown on 4 or less; a light barrier: a d6 of 1 and then
 * another 1. input: fray_presidio_jump_in; outcome {casualties}. */
typedef struct fray_presidio_jump_in {
	int horses;
	bool expert;
	bool light_barrier;
} fray_presidio_jump_in;
void fray_presidio_jump_procedure(fray_roller *r, fray_policy *p, const void *in, int64_t *out);

/* Dismounting with no horse-holder: a die per horse, odd: it runs off.
 * input: int horses; outcome {horses run off}. */
void fray_presidio_dismount_procedure(fray_roller *r, fray_policy *p, const void *in, int64_t *out);

/* Hidden units (Section 4): 1d6 + Recon against 1d6 + Camou + cover;
 * spotted when the Recon roll is equal or higher. At night the Nighttime
 * Visibility row's Search DM is added to the search (Section 8). input:
 * int[4] recon, camou, cover DM, night search DM; outcome {spotted}. */
void fray_presidio_spot_procedure(fray_roller *r, fray_policy *p, const void *in, int64_t *out);

/* Casualty status (Section 6): remaining units' 1d6 table, shattered
 * units' 1d6 table with its second rolls. input: bool shattered; outcome
 * {result 1-6 of the first table, the second roll or 0, the wound the
 * casualty ends with (fray_presidio_wound_names: a shattered unit's
 * wounded read on the remaining units' table, "1" mortally wounded; its
 * escapee scratched or stunned, or a light wound), that wound's own dice
 * (1D6 days to death, 2D6 weeks or days to duty; 0: none)}. */
void fray_presidio_casualty_status_procedure(fray_roller *r, fray_policy *p, const void *in,
					     int64_t *out);
extern const char *const fray_presidio_status_remaining[6];
extern const char *const fray_presidio_status_shattered[6];
/* 0 "none" (unharmed), 1-6 the remaining units' table, 7 "scratched or
 * stunned" (an escapee's 1-3) */
extern const char *const fray_presidio_wound_names[8];

/* ---- Raiding (Section 8) and campaign contact (Section 11) ---- */

/* Camp Setup: terrain, other features and sentries, a 1d6 each. outcome
 * {terrain 1-6, feature 1-6, sentries 1-6}. input: bool horses (heavy
 * woods become medium woods). */
void fray_presidio_camp_procedure(fray_roller *r, fray_policy *p, const void *in, int64_t *out);
extern const char *const fray_presidio_camp_terrain[6], *const fray_presidio_camp_feature[6],
	*const fray_presidio_camp_sentries[6];

/* Villager Deployment: each villager in houses, fields or the plaza, by
 * day 25/50/25%, by night 95/0/5%. input: int[2] villagers, night;
 * outcome {in houses, in fields, in the plaza}. */
void fray_presidio_villagers_procedure(fray_roller *r, fray_policy *p, const void *in, int64_t *out);

/* Sentry Alertness: the sentry's condition (1d6), then discovery: 1d6 -
 * the attacker's Camou + the sentry's Recon + DMs, 3+ by day, 5+ by night.
 * input: fray_presidio_sentry_in; outcome {0 sleeping, 1 daydreaming,
 * 2 alert; discovered}. */
typedef struct fray_presidio_sentry_in {
	int recon, camou;
	bool night;
	int posture;              /* 0 standing, 1 kneeling (-1), 2 prone (-2) */
	fray_presidio_size size;  /* platoon +1, company +2 */
	int night_dm;             /* at night, the Nighttime Visibility row's
				     Search DM, added to the discovery die */
} fray_presidio_sentry_in;
void fray_presidio_sentry_procedure(fray_roller *r, fray_policy *p, const void *in, int64_t *out);

/* Capture (a person or a beast): melee with fists, 8+ less the raider's
 * melee skill plus the defender's; no wound. input: int[2] skills;
 * outcome {captured}. */
void fray_presidio_capture_procedure(fray_roller *r, fray_policy *p, const void *in, int64_t *out);

/* Livestock statistics (Section 8): melee, damage, move, ramming damage. */
typedef struct fray_presidio_animal {
	const char *name;
	int melee, damage, move, ramming;
} fray_presidio_animal;
extern const fray_presidio_animal fray_presidio_animals[];
extern const size_t fray_presidio_nanimals;
const fray_presidio_animal *fray_presidio_animal_find(const char *name);

/* Ramming: each figure on foot in a stampede's path is hit by one animal's
 * ramming damage against its armor on the damage chart. input: int[3]
 * figures, ramming damage, armor; outcome {casualties}. */
void fray_presidio_ramming_procedure(fray_roller *r, fray_policy *p, const void *in, int64_t *out);

/* Stampeding Herds (Section 8): controlled with one rider for every ten
 * beasts (herders on foot for sheep and pigs); uncontrolled, the herd runs
 * in a random direction from the artillery scatter chart (1D6: 1 N, 2 NE,
 * 3 SE, 4 S, 5 SW, 6 NW). input: int[2] beasts, riders; outcome
 * {direction (0: controlled), beasts abreast (a quarter, rounded up)}. */
void fray_presidio_herd_procedure(fray_roller *r, fray_policy *p, const void *in, int64_t *out);

/* Lost Livestock: per animal, 1d6: no search 1-3 return, 4-5 the enemy,
 * 6 lost; active search 1-4, 5, 6. input: int[2] animals, searching;
 * outcome {returned, rounded up by the enemy, lost}. */
void fray_presidio_livestock_return_procedure(fray_roller *r, fray_policy *p, const void *in,
					      int64_t *out);

/* Time of Contact (Section 11): 1D4 by the day's movement (0: 1 hex by
 * road; 1: 2 by road or 1 in fields; 2: 3 by road, 2 in fields or 1 in
 * woods). input: int row; outcome {hour 0-23}. */
/* Nighttime Visibility (Section 8): outcome {row of fray_presidio_night_rows}. */
typedef struct fray_presidio_night_row {
	const char *moon;
	int open, woods;   /* inches of sight */
	int search_dm;     /* added to the search roll */
} fray_presidio_night_row;
extern const fray_presidio_night_row fray_presidio_night_rows[5];
void fray_presidio_night_procedure(fray_roller *r, fray_policy *p, const void *in, int64_t *out);
/* Ruling R31 (Section 4's Night Vision and Section 8's Nighttime
 * Visibility read as one table): how far one sees by night, in inches, on
 * the row (0-4) of fray_presidio_night_rows. In the open the row's open
 * distance (Section 4's full moon 12", half-moon 8", no moon 4" are rows
 * 0, 2 and 4); in woods the lesser of the row's woods distance and the
 * woods' own vision by day (Section 4, Woods: light 12", medium 8", heavy
 * 4"); into woods from outside them, half of that (Section 4, Woods). */
typedef enum fray_presidio_woods {
	FRAY_PRESIDIO_NO_WOODS = 0, FRAY_PRESIDIO_LIGHT_WOODS = 1, FRAY_PRESIDIO_MEDIUM_WOODS = 2,
	FRAY_PRESIDIO_HEAVY_WOODS = 3
} fray_presidio_woods;
extern const char *const fray_presidio_woods_names[4]; /* "none", "light", "medium", "heavy" */
double fray_presidio_night_sight(int row, fray_presidio_woods woods, bool into_woods);
typedef struct fray_presidio_night_in {
	int moon;                  /* the Nighttime Visibility die, 1-6, when the
				      scenario sets the moon; 0: rolled */
	fray_presidio_woods woods; /* where one looks: the open or woods */
	bool into_woods;           /* from outside the woods into them */
} fray_presidio_night_in;
/* The night's moon (rolled or given) and the sight it gives (R31).
 * outcome {row 0-4, sight in half inches}. */
void fray_presidio_night_sight_procedure(fray_roller *r, fray_policy *p, const void *in, int64_t *out);
/* A search for a hidden unit beyond the night's sight (R31; Section 8,
 * Sentry Alertness: discovery only "once the enemy enters within the
 * visibility limitation"): no die, not spotted. outcome {spotted = 0}. */
void fray_presidio_out_of_sight_procedure(fray_roller *r, fray_policy *p, const void *in, int64_t *out);

/* Bouncing solid shot (Section 9, smoothbores): outcome {inches to the
 * next landing (1D6 + 6), inches to the one after (1D6)}. */
void fray_presidio_bounce_procedure(fray_roller *r, fray_policy *p, const void *in, int64_t *out);

/* A mishap's fuse problem (Section 9, Artillery Mishaps: "roll 1D6 (5+)
 * /action to fix it"): in: int, the actions the crew may spend (1-100);
 * outcome {the action that fixed it, 0: not fixed within them}. */
void fray_presidio_fuse_repair_procedure(fray_roller *r, fray_policy *p, const void *in, int64_t *out);

/* Time of Contact (campaign): in: int[2] {row 0-2 by hexes moved, large
 * map}; outcome {hour, 24-hour clock}. The table rolls 1D4 in its row; "if
 * the strategic map represents a large area, roll a D12 instead": over the
 * whole table, 8 a.m. to 7 p.m. (fray's reading), the row set aside. */
void fray_presidio_contact_time_procedure(fray_roller *r, fray_policy *p, const void *in,
					  int64_t *out);

/* The Strategic Turn's entrance point (Section 12): in: int points (2-6,
 * numbered by the players); 1D6, a face above the points rolled again;
 * outcome {the point}. */
void fray_presidio_entrance_procedure(fray_roller *r, fray_policy *p, const void *in, int64_t *out);

/* Victory Conditions: points per item. */
typedef struct fray_presidio_victory_item {
	const char *name;
	int points;
} fray_presidio_victory_item;
extern const fray_presidio_victory_item fray_presidio_victory_items[];
extern const size_t fray_presidio_nvictory_items;

/* Campaign Pursuit: day by day, the pursuers track (1d6 + Recon against
 * 1d6 + Camou) and both parties travel (2d6 on the Pursuers or Fugitives
 * column, +1 mounted); the raiders have a day's start, use the Pursuers
 * column for their first three days and whenever they have seen the
 * pursuers (a 12 on their roll). Forced march: within 1-10 leagues the
 * pursuers travel on at night (x1.5) for two nights, then rest a day.
 * outcome {the day the raiders are caught, 0 if not within 15 days}. */
typedef struct fray_presidio_pursuit_in {
	int recon, camou;
	bool pursuers_mounted, raiders_mounted, forced_march;
} fray_presidio_pursuit_in;
void fray_presidio_pursuit_procedure(fray_roller *r, fray_policy *p, const void *in, int64_t *out);
/* One day's tracking in a pursuit (Section 8, Campaign Pursuit, Tracking):
 * the pursuers' 1d6 + Recon against the raiders' 1d6 + Camou, the trail
 * found on equal or higher (the pursuit's days roll it the same way).
 * outcome {found}. */
typedef struct fray_presidio_tracking_in {
	int recon, camou;
} fray_presidio_tracking_in;
void fray_presidio_tracking_procedure(fray_roller *r, fray_policy *p, const void *in, int64_t *out);
/* Distance in Leagues: the 2D6 columns (0 for rest). */
int fray_presidio_leagues(bool fugitives, int roll);
/* One party's day of travel in a pursuit (Section 8, Campaign Pursuit):
 * 2D6, +1 for a mounted party, read on the Distance in Leagues column of
 * the pursuers or of the fugitives. outcome {leagues, resting: the
 * fugitives' "rest"}. */
typedef struct fray_presidio_leagues_in {
	bool fugitives, mounted;
} fray_presidio_leagues_in;
void fray_presidio_leagues_procedure(fray_roller *r, fray_policy *p, const void *in, int64_t *out);

/* Rally (Section 2, R17): 1d6 at least 6 - the officer's level; an
 * NCO's level does not count ("NCO's cannot rally troops"). */
typedef struct fray_presidio_rally_in {
	int leader;
	bool nco;
} fray_presidio_rally_in;
int fray_presidio_rally_need(const fray_presidio_rally_in *in);
/* outcome {rallied, standing afterwards: disordered (turned about in a
 * clump) or still panicked} */
void fray_presidio_rally_procedure(fray_roller *r, fray_policy *p, const void *in, int64_t *out);
/* Initiative (Section 2, R17): 1d6 + leadership each, ties rolled again.
 * input: int[2] leaderships; outcome {winner 0 or 1}. */
void fray_presidio_initiative_procedure(fray_roller *r, fray_policy *p, const void *in,
					int64_t *out);

/* ---- A unit's turn: its two actions (Sections 2, 4, 5, 7; ruling R47) ---- */

/* What a unit spends actions on in a turn, each at its cost (R47):
 * shoot 1 (one action of fire, independent or a volley); two-action fire
 * 2 (two actions of independent fire rolled together); aim and shoot 2;
 * opportunity fire 1, only with both actions left, none after; fire while
 * moving 0 (part of a walk or run, once each); charge 2, needs both;
 * strike 1 (a melee attack); strike back 1 (the defenders' attack in a
 * melee, or the action a charged unit saves to return melee); defensive
 * fire 1; fire and flee 2; flee 1; fire and melee 2; walk 1; run 2;
 * reload 1 an action of reloading; pursue 1; rally 0 (the turn's first
 * phase, before any action; one attempt a turn). */
typedef enum fray_presidio_action {
	FRAY_PRESIDIO_DO_SHOOT = 0, FRAY_PRESIDIO_DO_TWO_ACTION_FIRE, FRAY_PRESIDIO_DO_AIMED,
	FRAY_PRESIDIO_DO_OPPORTUNITY, FRAY_PRESIDIO_DO_MOVING_FIRE, FRAY_PRESIDIO_DO_CHARGE, FRAY_PRESIDIO_DO_STRIKE,
	FRAY_PRESIDIO_DO_STRIKE_BACK, FRAY_PRESIDIO_DO_DEFENSIVE_FIRE, FRAY_PRESIDIO_DO_FIRE_AND_FLEE,
	FRAY_PRESIDIO_DO_FLEE, FRAY_PRESIDIO_DO_FIRE_AND_MELEE, FRAY_PRESIDIO_DO_WALK, FRAY_PRESIDIO_DO_RUN,
	FRAY_PRESIDIO_DO_RELOAD, FRAY_PRESIDIO_DO_PURSUE, FRAY_PRESIDIO_DO_RALLY,
	FRAY_PRESIDIO_DO_EVADE,         /* a target's evasion: 1 (Special Cover) */
	FRAY_PRESIDIO_DO_TAKE_COVER,    /* a target's taking cover: 2, needs both */
	FRAY_PRESIDIO_DO_RIDE,          /* a ride (trot) of riders with "two free
					   actions whether riding once or twice": 0 */
	FRAY_PRESIDIO_DO_GALLOP,        /* their ride twice (gallop): 0 */
	FRAY_PRESIDIO_DO_PANIC,         /* no action: the unit panicked during
					   this turn's action sequences (0) */
	FRAY_PRESIDIO_DO_REFORM,        /* re-forming (Section 3, Reform): 2, 1 with
					   a drummer (kept as two or one "reform") */
	FRAY_PRESIDIO_DO_DISENGAGE,     /* a voluntary fall back or retreat out of
					   base contact (Section 5, Disengaging
					   from Melee): 1, the fall back's action
					   (a retreat forfeits the rest, Section
					   7, Retreat; ruling R49) */
	FRAY_PRESIDIO_DO_RIDE_REFORM    /* a change of formation while riding (Section
					   2, Riding: "once per action without any
					   cost"): 0 */
} fray_presidio_action;
#define FRAY_PRESIDIO_NACTIONS 25
/* one word each, as a game file keeps them: "shoot", "two-action-fire",
 * "aim-and-shoot", "opportunity-fire", "moving-fire", "charge", "strike",
 * "strike-back", "defensive-fire", "fire-and-flee", "flee",
 * "fire-and-melee", "walk", "run", "reload", "pursue", "rally", "evade",
 * "take-cover", "ride", "gallop", "panic", "reform", "disengage",
 * "ride-reform" */
extern const char *const fray_presidio_action_names[FRAY_PRESIDIO_NACTIONS];
/* Actions a unit has in a turn (Section 2, Action Sequences). */
#define FRAY_PRESIDIO_TURN_ACTIONS 2
/* What a unit took this turn, in order (free ones included). */
#define FRAY_PRESIDIO_TURN_MAX 8
/* The longest action name ("opportunity-fire"), and a whole turn's text
 * with its ", " separators and NUL: a buffer of this size holds any turn
 * fray_presidio_turn_take allows. */
#define FRAY_PRESIDIO_ACTION_NAME_MAX 16
#define FRAY_PRESIDIO_TURN_TEXT_MAX (FRAY_PRESIDIO_TURN_MAX * (FRAY_PRESIDIO_ACTION_NAME_MAX + 2) - 2 + 1)
typedef struct fray_presidio_turn {
	int n;
	fray_presidio_action taken[FRAY_PRESIDIO_TURN_MAX];
} fray_presidio_turn;
/* Section 5, Disengaging from Melee: "A unit can voluntarily disengage
 * from melee during its own action sequence, but it must make a 'retreat'
 * (2 actions), or 'fall back' (1 action) to do so"; Melee: "Melee
 * continues until contact is broken". Why a unit in base contact
 * (in_contact) may not take a (a walk, run, ride, gallop or charge: at
 * another enemy or at the one it fights), or NULL. */
const char *fray_presidio_contact_move_refused(bool in_contact, fray_presidio_action a);
/* Why a unit in base contact may not shoot (Section 5, Firing into Melee;
 * ruling R51), or NULL when it is not in contact. */
const char *fray_presidio_contact_shot_refused(bool in_contact);
/* Why a unit of standing s with this turn t may not disengage from its
 * melee by a retreat (retreat: 2 actions) or a fall back (1 action), or
 * NULL: it must be in base contact (in_contact) and have the actions
 * left; the game then sets it down as Section 7's rules place a unit
 * that falls back or retreats (they "must be used"; ruling R49) and the
 * enemy left may pursue it. */
const char *fray_presidio_disengage_refused(const fray_presidio_turn *t, fray_presidio_standing s, bool in_contact,
					    bool retreat);
/* Whether the unit disengaged from a melee this turn of its own will
 * (a "disengage" in its turn): its pursuers strike with their charge
 * impact only with 2 actions left (fray_presidio_disengage_pursuit_impact);
 * one that fell back by a failed check is pursued as Pursuit says. */
bool fray_presidio_turn_disengaged(const fray_presidio_turn *t);
/* The actions a takes (R47). */
int fray_presidio_action_cost(fray_presidio_action a);
/* The actions a unit of standing s has left this turn after t: two, less
 * those spent, less those its morale result took (flinched or fell back
 * -1, hunkered down -2; retreated or panicked: forfeit, Section 7), none
 * after opportunity fire (Section 4) or once out of the fight. */
int fray_presidio_actions_left(const fray_presidio_turn *t, fray_presidio_standing s);
/* Whether a unit of standing s that took t this turn may take a now: NULL
 * when it may, else why not, in the text's words with the rule. */
const char *fray_presidio_action_refused(const fray_presidio_turn *t, fray_presidio_standing s,
					 fray_presidio_action a);
/* What a unit is, as its game file says (Sections 1-3): the rules on who
 * may do what read it. */
typedef struct fray_presidio_unit_kind {
	bool line;                /* a line unit: it fights in line formation
				     (Section 3, Formations) */
	int ranks;                /* its line's depth in ranks (Section 3: 2-4;
				     an extended line 1) */
	fray_presidio_size size;  /* team, squad, platoon or company */
	bool sharpshooters;       /* sharpshooters or a character (Section 2,
				     Aim and Shoot; Section 1, Heroes) */
	bool mounted;
	bool free_riders;         /* "two free actions whether riding once or
				     twice" (Section 2, Riding: the Spanish and
				     Mexicans, some natives by period) */
} fray_presidio_unit_kind;
/* Whether a unit of kind k and standing s may take a at all, whatever
 * its turn: NULL when it may, else why not with the rule. Aim and shoot
 * is for "sharpshooters and characters only" (Section 2); "Line units
 * must reform before moving or volleying" (Section 3, Disorder): a
 * disordered (or retreated, ruling R44) line unit neither walks, runs,
 * charges, pursues nor flees. */
const char *fray_presidio_kind_refused(const fray_presidio_unit_kind *k, fray_presidio_standing s,
				       fray_presidio_action a);
/* Whether a unit of kind k may fire a volley: NULL when it may. "A
 * platoon is the largest unit that can perform volley fire" (Section 1);
 * "in a line formation up to two lines deep" (Section 4, Volley Fire). */
const char *fray_presidio_volley_kind_refused(const fray_presidio_unit_kind *k);
/* The action a move of a unit of kind k is (run: moving twice): a walk
 * or a run; riders with two free actions ride (Section 2, Riding). */
fray_presidio_action fray_presidio_move_action(const fray_presidio_unit_kind *k, bool run);
/* Section 1, Officer Casualties: whether a unit has a commander left (a
 * leader with a command bonus, or an officer or NCO among its specialty
 * figures). One with none "will simply stand and fight but if they
 * receive one more casualty they will run for it or surrender". */
bool fray_presidio_has_commanders(int leader_bonus, int specialists);
/* Section 5: "enemy units with bases in contact perform melee combat":
 * NULL when the two are in contact, else why no melee. */
const char *fray_presidio_contact_refused(bool in_contact);
/* Section 5, Pursuit (in Melee; Disengaging from Melee): only the enemy
 * a unit broke contact with may pursue it: NULL when broke_from_it. */
const char *fray_presidio_pursuit_refused(bool broke_from_it);
/* Whether a unit of standing s stays in base contact: one that holds its
 * place does; one that fell back, retreated, panicked, surrendered or is
 * destroyed has left the melee. */
bool fray_presidio_keeps_contact(fray_presidio_standing s);
/* The turn's order (Section 2, Initiative: "players roll 1D6 adding
 * their leadership skill to see who goes first, and then they alternate
 * turns, performing actions for all their units at once (one player, then
 * the other)"), as the game keeps it for a unit about to act. */
typedef struct fray_presidio_order {
	bool kept;               /* the game keeps this turn's initiative; false:
				    the players keep the order (no refusal) */
	bool acting;             /* the unit's side has the action sequence now */
	bool won;                /* the unit's side won this turn's initiative */
	bool rally_phase;        /* no unit has acted this turn but to rally:
				    the turn's rally phase (Game Turn Phases) */
	bool before_initiative;  /* the game keeps the order and this turn's
				    initiative is not rolled yet: the rally
				    phase, which the roll ends */
} fray_presidio_order;
/* Whether a unit may take a now, as the turn's order o stands: NULL when
 * it may, else why not with the rule. A rally only in the turn's rally
 * phase, either side's ("1. Rally panicked troops" before "3. Action
 * Sequences", Game Turn Phases); before the turn's initiative is rolled
 * (o->before_initiative) nothing but a rally ("2. Initiative" ends the
 * rally phase, and the action sequences follow it). Its own side's sequence: yes. In the
 * other side's: opportunity fire ("even though their
 * initiative number is lower", Section 4), and the held actions of a
 * unit whose side won the initiative and has had its sequence (Holding 2
 * Actions: "they can take their full action sequence at any time during
 * the current game turn"; Holding 1 Action; Reactions). The charge
 * reactions, defensive fire and the strike back are taken inside the
 * enemy's action (charge, melee --both), so they are never asked here. */
const char *fray_presidio_order_refused(const fray_presidio_order *o, fray_presidio_action a);
/* Section 3, Reform: the actions re-forming takes ("(2 actions)"; "If the
 * unit contains a drummer or bugler figure, reforming costs only one
 * action point"). */
int fray_presidio_reform_cost(bool drummer);
/* Whether a unit of kind k and standing s may re-form out of disorder:
 * NULL when it may, else why not with the rule. "Reform - Used to change
 * a unit's formation ... (2 actions)"; "This includes units who change
 * from skirmish or disorder to line formation" (a line unit: into line);
 * Section 2, Rally: the rallied unit in disorder, of any kind, "can
 * reform or move into skirmish" (the referee's second round, finding 3:
 * before, only a line unit re-formed); a unit that retreated is in
 * disorder (ruling R44). */
const char *fray_presidio_reform_refused(const fray_presidio_unit_kind *k, fray_presidio_standing s);
/* Section 2, Riding: "the Spanish may also change formation while riding
 * once per action without any cost": whether a unit of kind k that took t
 * this turn changes formation now for nothing (a free rider on horseback
 * with a ride, or a gallop's two, not yet used for a change). fray keeps
 * no nation: the free riders (Spanish, Mexicans, some natives by period)
 * stand for the Spanish; docs/presidio.md. */
bool fray_presidio_riding_reform_free(const fray_presidio_unit_kind *k, const fray_presidio_turn *t);
/* Whether a unit of kind k and standing s may leave its disorder by
 * moving into skirmish formation: NULL when it may, else why not with the
 * rule. Section 2, Rally: rallied, "They can reform or move into
 * skirmish then take normal actions"; Section 3, Skirmish: "There is no
 * cost for a unit to move itself into skirmish formation"; a line unit
 * "must reform" (Section 3, Disorder and Line: "Only Line, Grenadier, or
 * Light units may (and must) fight in line formation"); a unit that
 * retreated has forfeited the turn's actions (Section 7, Retreat). */
const char *fray_presidio_skirmish_refused(const fray_presidio_unit_kind *k, fray_presidio_standing s);
/* The actions moving into skirmish takes: none (Section 3, Skirmish). */
int fray_presidio_skirmish_cost(void);
/* t with a taken (false, t as it was, when t has no room). */
bool fray_presidio_turn_take(fray_presidio_turn *t, fray_presidio_action a);
/* A turn as a game file keeps it, "walk, shoot" ("" for none), and back:
 * false for a word that is not an action's name or too many, and from
 * the writer for a dst shorter than the text (FRAY_PRESIDIO_TURN_TEXT_MAX
 * always holds it); dst then holds no partial text, "". */
bool fray_presidio_turn_text(const fray_presidio_turn *t, char *dst, size_t cap);
bool fray_presidio_turn_read(const char *text, fray_presidio_turn *t);
/* Whether a unit that took target this turn may be fired at by
 * opportunity: NULL when it moved (a walk, run, ride, charge, pursuit or
 * flight: Section 4, Opportunity Fire is "at the moving unit"), else why
 * not. */
const char *fray_presidio_opportunity_refused(const fray_presidio_turn *target);

#endif
