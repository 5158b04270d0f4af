/* Chit-pull brigade combat (../shared/seeds/chit-combat.txt) with rulings
 * R21-R23, R25 and the data of G5: the chit mix, the tactics' chit counts
 * and the morale test come from a YAML file the designer writes. */
#ifndef FRAY_CHITS_H
#define FRAY_CHITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <fray/ctx.h>
#include <fray/data.h>
#include <fray/dice.h>
#include <fray/policy.h>
#include <fray/roller.h>

#define FRAY_CHITS_MAX_CHITS 128
#define FRAY_CHITS_MAX_TACTICS 8
#define FRAY_CHITS_MAX_UNITS 4       /* units on one side of a combat */
#define FRAY_CHITS_MAX_BATTALIONS 8
#define FRAY_CHITS_MAX_LEVEL 99      /* hits a battalion, fatigue, morale */
#define FRAY_CHITS_MAX_CDR 99        /* a combat die roll */

/* Vocabularies of the conditions (docs/chits.md). */
extern const char *const fray_chits_terrains[7]; /* open village town woods hills marsh river */
extern const char *const fray_chits_stances[3];  /* defend hold evade */
extern const char *const fray_chits_types[3];    /* infantry cavalry artillery */

typedef enum fray_chits_cond_kind {
	FRAY_CHITS_ALWAYS, FRAY_CHITS_RATIO_AT_LEAST, FRAY_CHITS_RATIO_AT_MOST,
	FRAY_CHITS_RATIO_IS, FRAY_CHITS_TERRAIN, FRAY_CHITS_TACTIC, FRAY_CHITS_STANCE,
	FRAY_CHITS_ATTACKER_HIGHER, FRAY_CHITS_DEFENDER_HIGHER, FRAY_CHITS_ATTACKER_TYPE,
	FRAY_CHITS_DEFENDER_TYPE
} fray_chits_cond_kind;

typedef struct fray_chits_cond {
	fray_chits_cond_kind kind;
	int value;        /* ratio on the scale N:1 = N, 1:N = 2 - N; or an index */
} fray_chits_cond;

/* Effects, by the side of the current combat they fall on (R25):
 * [0] attacker, [1] defender. */
typedef struct fray_chits_effect {
	int hits[2], reduce[2];
	int fatigue, morale;        /* F and M: on the side with more hits (R22) */
} fray_chits_effect;

typedef struct fray_chits_face {
	fray_chits_cond cond;
	fray_chits_effect effect;
	char text[96];              /* "ratio at least 2:1 -> D1", for narration */
} fray_chits_face;

typedef struct fray_chit {
	char id[16];
	char name[48];              /* optional: "Flanking fire", for the story */
	fray_chits_face face[2];    /* the sides "a" and "b" of the chit */
	int precedence;             /* 0 or 1: applies when both conditions hold */
	bool both;                  /* both sides apply when both hold */
} fray_chit;

typedef struct fray_chits_tactic {
	char name[32];
	int min;
	int max[3];                 /* by defender stance */
	/* the attacker's arms that may use it, by fray_chits_types (the
	 * mix's "arms" for the tactic; the text's Cavalry Charge is made by
	 * cavalry, example 3); the mix names none: every arm may */
	bool arms[3];
} fray_chits_tactic;

typedef struct fray_chits_mix {
	char name[64];
	int nchits;
	fray_chit chits[FRAY_CHITS_MAX_CHITS];
	int ntactics;
	fray_chits_tactic tactics[FRAY_CHITS_MAX_TACTICS];
	/* G5 morale test: roll these dice; pass when at most (or at least)
	 * the unit's morale level */
	char morale_text[32];
	fray_dice *morale_dice;
	bool morale_at_least;
	/* Ruling R29: Defend only in defensible terrain, Evade only by a unit
	 * type that may. From the mix file's defensible_terrain and evaders;
	 * by default every terrain but open, and cavalry alone. */
	bool defensible[7];         /* by fray_chits_terrains */
	bool may_evade[3];          /* by fray_chits_types */
	/* the mix names no defensible_terrain (no evaders): R29's default
	 * stands, and a combat says so */
	bool defensible_default, evaders_default;
	fray_ctx *ctx;
} fray_chits_mix;

/* Reads a mix file, every problem recorded on doc (file:line:col). */
fray_status fray_chits_mix_read(fray_ctx *ctx, fray_doc *doc, fray_chits_mix **out);
fray_status fray_chits_mix_load(fray_ctx *ctx, const char *path, fray_chits_mix **out);
void fray_chits_mix_free(fray_chits_mix *m);
int fray_chits_tactic_find(const fray_chits_mix *m, const char *name);

/* R21: the larger combat die roll over the smaller, rounded down, as N:1
 * for the attacker or 1:N for the defender; on the scale N:1 = N, 1:N =
 * 2 - N (so 1:1 = 1, 1:2 = 0). cdrs are at least 1. */
int fray_chits_ratio(int attacker_cdr, int defender_cdr);
/* "2:1", "1:3" */
void fray_chits_ratio_text(int ratio, char *dst, size_t cap);

/* The situation a combat's chits are read against. */
typedef struct fray_chits_situation {
	int tactic;                 /* index in the mix */
	int stance;                 /* 0 defend, 1 hold, 2 evade */
	int terrain;                /* the defender's terrain */
	int attacker_cdr, defender_cdr;
	int attacker_type, defender_type;
} fray_chits_situation;

bool fray_chits_cond_holds(const fray_chits_cond *c, const fray_chits_situation *s);
/* R22: which faces of chit apply: bit 0 face a, bit 1 face b. */
unsigned fray_chits_applies(const fray_chit *chit, const fray_chits_situation *s);
/* The chit's total effect in the situation. */
fray_chits_effect fray_chits_effect_of(const fray_chit *chit, const fray_chits_situation *s);

/* One unit (a brigade, or a cavalry regiment) in a combat. */
typedef struct fray_chits_unit {
	char name[48];
	int battalions;
	int hits[FRAY_CHITS_MAX_BATTALIONS];
	int lead;                   /* the lead battalion (0-based) */
	int morale;                 /* morale level */
	int fatigue;
	bool disordered;
	bool can_retreat;           /* a legal retreat exists (R23) */
} fray_chits_unit;

typedef struct fray_chits_side {
	char name[48];
	int nunits;
	fray_chits_unit units[FRAY_CHITS_MAX_UNITS];
} fray_chits_side;

typedef struct fray_chits_combat_in {
	const fray_chits_mix *mix;
	fray_chits_situation situation;
	int draw;                   /* chits to draw, within the tactic's range */
	int script[16], nscript;    /* chits drawn (mix indices), when scripted */
	fray_chits_side side[2];    /* attacker, defender */
} fray_chits_combat_in;

typedef struct fray_chits_combat_out {
	int hits[2];                /* net hits each side received (before retreats) */
	int retreats[2];
	int morale_tests[2], morale_failed[2];
	fray_chits_side side[2];    /* the states after the combat */
} fray_chits_combat_out;

/* Issue 29: the library checks what it is handed. NULL when the unit's
 * state is in range (1 to FRAY_CHITS_MAX_BATTALIONS battalions, the lead
 * one of them, hits, fatigue and morale 0 to FRAY_CHITS_MAX_LEVEL), else
 * why not, written to buf. */
const char *fray_chits_unit_problem(const fray_chits_unit *u, char *buf, size_t cap);
/* The same for a situation against its mix (indices, combat die rolls). */
const char *fray_chits_situation_problem(const fray_chits_mix *m, const fray_chits_situation *s,
					 char *buf, size_t cap);

/* The whole combat resolution: draws, effects, allocation with retreats
 * (R23, the policy choosing), fatigue and morale. Every input is checked
 * first (the units' state, the situation, ruling R29's stance, the
 * tactic's chit count): out of range, the run fails with FRAY_ERR_INPUT
 * and a message, and nothing is drawn. */
void fray_chits_combat(fray_roller *r, fray_policy *p, const fray_chits_combat_in *in,
		       fray_chits_combat_out *out);
/* As a procedure: outcome {attacker hits, defender hits, attacker morale
 * tests, defender morale tests} (draws only: what advise weighs). */
void fray_chits_draws_procedure(fray_roller *r, fray_policy *p, const void *in, int64_t *out);

/* The whole combat (fray_chits_combat) as a procedure with its questions
 * (input: fray_chits_combat_in): outcome {winner: 0 a tie, 1 the attacker,
 * 2 the defender (fewer hits taken wins); hits the attacker took, hits the
 * defender took (on its battalions: after the retreats negate some, R23);
 * the attacker's retreats, the defender's}. For exact odds and the best
 * policy (issue 44). */
#define FRAY_CHITS_COMBAT_FIELDS 5
void fray_chits_combat_procedure(fray_roller *r, fray_policy *p, const void *in, int64_t *out);
/* What such an outcome is worth to side 0 (attacker) or 1 (defender)
 * under a goal (docs/chits.md, "The best policy"): win 1 for fewer hits
 * taken, 1/2 for as many; not-lose 1 for at most as many; casualties the
 * enemy's hits taken less one's own; hold 1 when the side did not retreat
 * (it keeps its ground). */
void fray_chits_combat_worth(const int64_t *outcome, int side, fray_goal goal, int64_t *num, int64_t *den);

/* A combat file (examples/chits/): the mix file (relative to it), the
 * tactic, stance, terrain, chits to draw, optional scripted chits and
 * seed, and both sides with their combat die rolls and units. Every
 * problem is recorded on doc; *mix is the caller's to free. */
fray_status fray_chits_combat_read(fray_ctx *ctx, fray_doc *doc, fray_chits_mix **mix,
				   fray_chits_combat_in *in, uint64_t *seed, bool *has_seed);
/* The same, with the mix file opened by open (the path as resolved
 * against the combat file's name; for a service that reads no files).
 * open NULL: fray_doc_load_file. */
fray_status fray_chits_combat_read_with(fray_ctx *ctx, fray_doc *doc, fray_doc_open_fn open, void *ud,
					fray_chits_mix **mix, fray_chits_combat_in *in, uint64_t *seed,
					bool *has_seed);
/* Ruling R29: NULL when the defender may take its stance (Defend in
 * defensible terrain, Evade by a type that may evade), else why not
 * ("defend needs defensible terrain; open is not (the mix's
 * defensible_terrain)"), written to buf. */
const char *fray_chits_stance_problem(const fray_chits_mix *m, const fray_chits_situation *s,
				      char *buf, size_t cap);
/* Whether the attacker's arm may use the tactic: NULL when it may (the
 * mix's arms for the tactic; none named: every arm), else why not
 * ("cavalry-charge is for cavalry; infantry may not use it (the mix's
 * arms for the tactic)"), written to buf. */
const char *fray_chits_tactic_problem(const fray_chits_mix *m, const fray_chits_situation *s, char *buf,
				      size_t cap);
/* Whether a brigade may attack a unit of this side: NULL when it is the
 * other side's, else why not (a combat is against the other player's
 * unit; a retreat ends away from "enemy units"). */
const char *fray_chits_target_refused(bool same_side);
/* Checks a draw count against the tactic and stance: NULL when allowed,
 * else the message ("hasty against defend draws 3 to 5 chits"). */
const char *fray_chits_draw_problem(const fray_chits_mix *m, const fray_chits_situation *s,
				    int draw, char *buf, size_t cap);
/* The index of the chit with this id, or -1. */
int fray_chits_find(const fray_chits_mix *m, const char *id);

/* End of turn: 1 fatigue point off (a Rest order: 1d3 more); the lead
 * battalion may be swapped. Rally/Recover: a test as for morale; a pass
 * recovers one lost hit, never the last one. */
typedef struct fray_chits_end_turn_in {
	const fray_chits_mix *mix;
	fray_chits_unit unit;
	bool rest, rally;
	/* Rally/Recover on disorder: the mix's test, a pass removes it; not in
	 * the same activation as a rally, so not with rally */
	bool recover_disorder;
	int new_lead;               /* -1: keep */
	/* hits the unit took after its last combat this turn (the game's
	 * record: its hits now less those its last combat left): with any,
	 * the lead battalion cannot be switched (example 3: "if ... does not
	 * suffer any further casualties this turn") */
	int hits_since_combat;
	/* the unit's end of turn was taken already this turn (the game's
	 * record): it comes once a turn, so it is refused */
	bool ended_this_turn;
} fray_chits_end_turn_in;
/* Checked first (issue 29): the unit's state, the new lead, the mix when
 * a test is rolled; and once a turn. Refused: the run fails with
 * FRAY_ERR_INPUT and out is the unit unchanged. */
void fray_chits_end_turn(fray_roller *r, const fray_chits_end_turn_in *in, fray_chits_unit *out);
/* The same as a procedure (input: fray_chits_end_turn_in); outcome
 * {fatigue points, hits in all, disordered 0/1}. */
void fray_chits_end_turn_procedure(fray_roller *r, fray_policy *p, const void *in, int64_t *out);

#endif
