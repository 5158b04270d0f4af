/* A Dark and Bloody Ground, rule 19: Quick Battle Resolution, with rulings
 * R1-R10 and the data pieces G1-G3 of RULES-NOTES.md. The tables are data
 * here; each procedure is one rules function that rolls through a roller,
 * so it can be narrated (fray_run), given exact odds (fray_enumerate) or
 * simulated (fray_aggregate). */
#ifndef FRAY_ADBG_H
#define FRAY_ADBG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <fray/ctx.h>
#include <fray/format.h>
#include <fray/data.h>
#include <fray/dice.h>
#include <fray/roller.h>

typedef enum fray_adbg_terrain {
	FRAY_ADBG_ROUGH = 0,
	FRAY_ADBG_WILDERNESS = 1,
	FRAY_ADBG_SETTLED = 2
} fray_adbg_terrain;

typedef enum fray_adbg_type {
	FRAY_ADBG_WARRIOR = 0,
	FRAY_ADBG_REGULAR = 1,
	FRAY_ADBG_MILITIA = 2,
	FRAY_ADBG_RIFLE = 3
} fray_adbg_type;

/* Fire hits step a unit down: normal -> disrupted -> routed -> eliminated
 * (ADBG 19.2.1). Melee R results remove units from the battle (R8); at
 * its end they meet the routed units' fate (R30): eliminated, or they stay
 * REMOVED (routed, out of the battle) and are no loss. */
typedef enum fray_adbg_status {
	FRAY_ADBG_NORMAL = 0,
	FRAY_ADBG_DISRUPTED = 1,
	FRAY_ADBG_ROUTED = 2,
	FRAY_ADBG_ELIMINATED = 3,
	FRAY_ADBG_REMOVED = 4
} fray_adbg_status;

extern const char *const fray_adbg_terrain_names[3];  /* "rough", ... */
extern const char *const fray_adbg_type_names[4];     /* "warrior", ... */
extern const char *const fray_adbg_status_names[5];   /* "normal", ... */

/* ---- Tables (ADBG 19.1, 19.2.1, 19.2.3) ---- */

/* The fire terrain table, ruling R5. */
typedef struct fray_adbg_fire_mod {
	int cf_mult;              /* 1, or 2 for regulars in settled areas */
	int drm;                  /* 0 or -1 */
	bool lost_in_severe;      /* the `*`: no DR modifier in severe weather */
} fray_adbg_fire_mod;
fray_adbg_fire_mod fray_adbg_fire_table(fray_adbg_type t, fray_adbg_terrain tr);

/* The melee CF multiplier (ADBG 19.2.3; rifles x1, ruling R10). */
int fray_adbg_melee_mult(fray_adbg_type t, fray_adbg_terrain tr);

/* Stacking (ADBG 19.1, ruling R2): the counted units of each type in one
 * stack (rifles do not count). Returns NULL when legal, else the reason. */
const char *fray_adbg_stacking_problem(fray_adbg_terrain tr,
				       const int count[4]);

/* ---- Procedures ---- */

/* One unit's fire (ADBG 19.2.1, ruling R5). */
typedef struct fray_adbg_fire_in {
	fray_adbg_type type;
	int cf;                   /* printed fire CF, 0..9 */
	fray_adbg_terrain terrain;
	bool severe;
} fray_adbg_fire_in;
typedef struct fray_adbg_fire_out {
	bool hit;
	int natural, dr, cf;      /* the die, the modified DR and modified CF */
} fray_adbg_fire_out;
void fray_adbg_fire(fray_roller *r, const fray_adbg_fire_in *in,
		    fray_adbg_fire_out *out);

/* One move attempt (ADBG 19.2.2, ruling R6). */
typedef struct fray_adbg_move_in {
	int level;                /* the side's commitment/mobilization level */
	int leader;               /* rating of a leader stacked with it, or 0 */
	fray_adbg_terrain terrain;
	bool severe;
	bool enemy_atop;
	bool surprise_winner_round1;
	bool regular;             /* a regular unit is in the stack */
	bool non_warrior;         /* a non-warrior unit is in the stack */
} fray_adbg_move_in;
typedef struct fray_adbg_move_out {
	bool moved;
	int natural, dr;
} fray_adbg_move_out;
void fray_adbg_move(fray_roller *r, const fray_adbg_move_in *in,
		    fray_adbg_move_out *out);
/* The movement DRM of in, with each part named, for narration. */
int fray_adbg_move_drm(const fray_adbg_move_in *in);

/* One recovery roll (ADBG 19.2.4, ruling R9). */
typedef struct fray_adbg_recover_in {
	int level;
	int leader;
} fray_adbg_recover_in;
typedef struct fray_adbg_recover_out {
	bool recovered;
	int natural, dr;
} fray_adbg_recover_out;
void fray_adbg_recover(fray_roller *r, const fray_adbg_recover_in *in,
		       fray_adbg_recover_out *out);

/* Number of rounds (ADBG 19.1, ruling R1). */
typedef struct fray_adbg_rounds_in {
	int initiative_rating;    /* initiative side's primary leader, 1-3 */
	bool attempt;             /* the other side declares the extra-round roll */
	int other_rating;         /* the other side's primary leader, 1-3 */
} fray_adbg_rounds_in;
typedef struct fray_adbg_rounds_out {
	int rounds;
	bool extra;
	int natural;              /* 0 when no attempt */
} fray_adbg_rounds_out;
void fray_adbg_rounds(fray_roller *r, const fray_adbg_rounds_in *in,
		      fray_adbg_rounds_out *out);

/* ---- The melee CRT (G1): user data ---- */

#define FRAY_ADBG_CRT_MAX_COLS 16
#define FRAY_ADBG_CRT_MAX_ROWS 24
#define FRAY_ADBG_ROUTE_ALL (-1) /* an R result: every engaged unit routed */

typedef struct fray_adbg_crt {
	char name[64];
	int ncols;
	int col_num[FRAY_ADBG_CRT_MAX_COLS], col_den[FRAY_ADBG_CRT_MAX_COLS];
	int first_row, nrows;     /* modified die rolls first_row .. +nrows-1 */
	/* losses[row][col][0] attacker, [1] defender: units eliminated, or
	 * FRAY_ADBG_ROUTE_ALL */
	int losses[FRAY_ADBG_CRT_MAX_ROWS][FRAY_ADBG_CRT_MAX_COLS][2];
	uint64_t digest;          /* of its file (fray_doc_digest); 0 when inline */
} fray_adbg_crt;

/* Reads a CRT file; every problem is reported (file:line:col). */
fray_status fray_adbg_crt_load(fray_ctx *ctx, const char *path,
			       fray_adbg_crt *out);
/* The same from a loaded document (its whole). */
fray_status fray_adbg_crt_from_doc(fray_doc *doc, fray_adbg_crt *out);
/* The same from an already-loaded node (used by scenario files). */
bool fray_adbg_crt_read(fray_doc *doc, const fray_node *n, fray_adbg_crt *out);
/* The column for attacker CF a against defender CF d (R7): the highest
 * column whose ratio is at most a:d, the first when below all. */
int fray_adbg_crt_column(const fray_adbg_crt *crt, int64_t a, int64_t d);
/* Writes a column's label ("3:1"). */
void fray_adbg_crt_label(const fray_adbg_crt *crt, int col, char *dst,
			 size_t cap);

/* One melee on the CRT (ADBG 19.2.3, ruling R7). */
typedef struct fray_adbg_melee_in {
	const fray_adbg_crt *crt;
	int64_t attack, defend;   /* modified melee CFs */
	int shift;                /* a column shift given as is, right positive */
	int drm;                  /* attacker level - defender level (clamped) */
	/* The column shifts' terms (19.2.3), added to shift and told one by
	 * one: the leaders stacked with each side, a disrupted defender, the
	 * attacker's surprise in the first round. */
	int attacker_leader, defender_leader;
	bool defender_disrupted, surprise;
	/* drm came from these levels (told so), else it was given as is */
	bool from_levels;
	int attacker_level, defender_level;
} fray_adbg_melee_in;
typedef struct fray_adbg_melee_out {
	int base_col, col;        /* before and after shifts */
	int natural, roll, row;   /* die, modified, row used */
	int attacker_loss, defender_loss; /* units, or FRAY_ADBG_ROUTE_ALL */
} fray_adbg_melee_out;
void fray_adbg_melee(fray_roller *r, const fray_adbg_melee_in *in,
		     fray_adbg_melee_out *out);
/* R7: the melee DRM from the two levels, clamped to -3..+3. */
int fray_adbg_melee_drm(int attacker_level, int defender_level);
/* The net column shift of in: its shift and its terms (19.2.3). */
int fray_adbg_melee_shift(const fray_adbg_melee_in *in);

/* ---- Scenarios and the battle (ADBG 19.1-19.3) ---- */

#define FRAY_ADBG_MAX_UNITS 32   /* per side */
#define FRAY_ADBG_MAX_STACKS 16  /* per side, in the scenario */
#define FRAY_ADBG_MAX_LEADERS 8  /* per side, the primary leader included */

typedef struct fray_adbg_scenario fray_adbg_scenario;

/* Reads a scenario from a loaded document (its melee CRT file is found
 * relative to the document's own path); checks everything (R2 stacking,
 * ranges, names, the array) and records every problem on doc. Returns
 * FRAY_OK, or FRAY_ERR_INPUT with all problems in doc (the first also on
 * the context) and *out NULL. */
fray_status fray_adbg_scenario_read(fray_ctx *ctx, fray_doc *doc,
				    fray_adbg_scenario **out);
/* The same, with a CRT named by path opened by open (the path resolved
 * against the scenario's name; for a service that reads no files). open
 * NULL: fray_doc_load_file. */
fray_status fray_adbg_scenario_read_with(fray_ctx *ctx, fray_doc *doc, fray_doc_open_fn open, void *ud,
					 fray_adbg_scenario **out);
/* Loads the file and reads it: the first problem on the context. */
fray_status fray_adbg_scenario_load(fray_ctx *ctx, const char *path,
				    fray_adbg_scenario **out);
void fray_adbg_scenario_free(fray_adbg_scenario *s);
const char *fray_adbg_scenario_name(const fray_adbg_scenario *s);
/* A digest of every byte the scenario was read from (its file, and its
 * melee CRT file when it names one): saves and shards keep it, so a file
 * changed since is noticed without reading anything twice. */
uint64_t fray_adbg_scenario_digest(const fray_adbg_scenario *s);
/* Side 0 and 1 in the order of the file: its display name. The
 * scenario's names and ids are held by it until it is freed. */
const char *fray_adbg_side_name(const fray_adbg_scenario *s, int side);
/* Side 0 and 1: its id, the key under `sides` (what initiative, surprise,
 * --set paths and a sweep's --target name it by). An id has at most
 * FRAY_ADBG_NAME_MAX - 1 bytes (a longer one is refused when the scenario
 * is read); names are cut to that, at a character's boundary. */
#define FRAY_ADBG_NAME_MAX 48
const char *fray_adbg_side_id(const fray_adbg_scenario *s, int side);
/* True when two scenarios give the battle the same numbers to read (the
 * terrain, weather, initiative, surprise, levels, units, leaders, CRT,
 * checks, victory rule and array), whatever their names: a value that
 * changes nothing else is one the battle never reads (fray adbg sweep). */
bool fray_adbg_scenario_same_battle(const fray_adbg_scenario *a, const fray_adbg_scenario *b);

typedef struct fray_adbg_side_result {
	int count[5];      /* units by final status (fray_adbg_status) */
	int leaders_lost;
	int losses;        /* eliminated, after the routed units' fate (R30: removed units meet it too) */
} fray_adbg_side_result;

typedef struct fray_adbg_result {
	int rounds;
	int winner;        /* 0 or 1 (file order), -1 a draw */
	fray_adbg_side_result side[2];
} fray_adbg_result;

/* Fights the whole battle (ADBG 19.1-19.3) with r and p, telling every step
 * as events. */
void fray_adbg_battle(fray_roller *r, fray_policy *p,
		      const fray_adbg_scenario *s, fray_adbg_result *out);

/* A battle in progress, to fight a round at a time, save between rounds
 * and go on later (fray adbg battle --save, fray adbg resume). The
 * scenario must outlive the state. Calling begin, then round until it
 * returns false, then finish, with the same roller and policy, tells and
 * decides exactly what fray_adbg_battle does. */
typedef struct fray_adbg_battle_state fray_adbg_battle_state;
fray_adbg_battle_state *fray_adbg_battle_new(fray_ctx *ctx,
					     const fray_adbg_scenario *s);
void fray_adbg_battle_free(fray_adbg_battle_state *st);
void fray_adbg_battle_begin(fray_adbg_battle_state *st, fray_roller *r,
			    fray_policy *p);
/* Fights the next round; false (and nothing done) when none is left. */
bool fray_adbg_battle_round(fray_adbg_battle_state *st, fray_roller *r,
			    fray_policy *p);
/* The number of the next round, 0 when the last has been fought. */
int fray_adbg_battle_next_round(const fray_adbg_battle_state *st);
void fray_adbg_battle_finish(fray_adbg_battle_state *st, fray_roller *r,
			     fray_policy *p, fray_adbg_result *out);
/* Tells where a restored battle stands (a note and the line). */
void fray_adbg_battle_resumed(fray_adbg_battle_state *st, fray_roller *r);
/* The state between rounds as YAML text (snprintf-like), and back from a
 * node of a loaded document (false with the problems on doc). The restore
 * reads the keys round, rounds, positions and sides of the map n and
 * checks them as strictly as a scenario: every index in range, the
 * scenario's number of positions, units and leaders, no stack twice, every
 * unit in line in a saved stack; other keys of n are the caller's. */
size_t fray_adbg_battle_save(const fray_adbg_battle_state *st, char *dst,
			     size_t cap);
bool fray_adbg_battle_restore(fray_adbg_battle_state *st, fray_doc *doc,
			      const fray_node *n);

/* The three below render FRAY_FORMAT_TEXT or FRAY_FORMAT_JSON (another:
 * FRAY_ERR_INPUT); their format was a boolean before issue 42, and
 * false and true still say text and JSON. */
/* The end of a told battle, as `fray adbg battle` prints it: as JSON,
 * the members after the events ("], \"result\": {...}}" and a newline);
 * else the table of units by final status and the winner. *out is
 * malloc'd: free() it. FRAY_ERR_LIMIT when the text would pass 64 MiB (the
 * most any answer may be), FRAY_ERR_NOMEM when memory ran out; the same
 * for the two reports below. */
fray_status fray_adbg_summary(const fray_adbg_scenario *s, const fray_adbg_result *res, fray_format format,
			      char **out);

/* A battle simulation's result as `fray adbg simulate` prints it (text or
 * JSON): win rates with their 95% Wilson intervals, losses and rounds.
 * partial: NULL, or why fewer trials than asked were counted. *out is
 * malloc'd: free() it. */
typedef struct fray_adbg_sim_about {
	const char *scenario, *policy, *side[2];
	uint64_t seed, trials;     /* the trials asked */
	const char *partial;
} fray_adbg_sim_about;
struct fray_sim;
fray_status fray_adbg_sim_report(const fray_adbg_sim_about *about, const struct fray_sim *s, fray_format format,
				 char **out);

/* A battle's odds as `fray adbg odds` prints them (text or JSON): who wins
 * and each side's losses, from the dist of fray_adbg_battle_procedure,
 * exact or from a simulation (then with 95% intervals; fell_back: NULL,
 * or why exact odds were not reached; reason: that in one word, the
 * JSON's "not_exact": "paths" (more than the budget of paths), "memory"
 * (the memory cap), "policy" (a policy that does not decide alike each
 * time), "asked" (a budget of 0); NULL: not said). *out is malloc'd:
 * free() it. */
typedef struct fray_adbg_odds_about {
	const fray_adbg_scenario *scenario;
	const char *policy;
	bool exact;
	const char *fell_back;
	uint64_t trials, seed;     /* of the simulation, when not exact */
	const char *reason;
	/* the best policy's values and gains (issue 44); NULL: none played */
	const struct fray_adbg_best *best;
} fray_adbg_odds_about;
struct fray_dist;
fray_status fray_adbg_odds_report(const fray_adbg_odds_about *about, const struct fray_dist *d, fray_format format,
				  char **out);

/* A battle's odds: exact (fray_enumerate) when the policy decides alike
 * each time and the walk fits budget paths and max_bytes, else from trials
 * sampled battles (fray_aggregate_run), saying why. `fray adbg odds` and
 * the catalogue's adbg.battle odds are this one function. */
#define FRAY_ADBG_ODDS_OPTS_VERSION 1u
typedef struct fray_adbg_odds_opts {
	unsigned version;          /* FRAY_ADBG_ODDS_OPTS_VERSION, or 0 (see fray_request_opts) */
	uint64_t budget;           /* paths of the exact walk; 0: simulate at once */
	uint64_t max_bytes;        /* the walk's memory; 0: FRAY_ENUM_DEFAULT_BYTES */
	uint64_t trials, seed;     /* the simulation's, when not exact */
	unsigned threads;          /* the simulation's, 0: one per core; 1 for a policy not thread-safe */
	const volatile sig_atomic_t *stop; /* set to stop the walk or the simulation; may be NULL */
	void (*progress)(uint64_t done, uint64_t total, void *ud); /* the walk's paths, the trials; may be NULL */
	void (*estimate)(const fray_enum_progress *pr, void *ud);  /* the walk's stages; may be NULL */
	void *ud;
} fray_adbg_odds_opts;
#define FRAY_ADBG_WHY_MAX 3072     /* a context's message, whole */
typedef struct fray_adbg_odds {
	struct fray_dist *dist;    /* of fray_adbg_battle_procedure's outcome; free it (fray_dist_free) */
	bool exact;
	/* when not exact, why, in one word (fray_adbg_odds_about.reason):
	 * "asked" (a budget of 0), "policy", "paths" or "memory" */
	const char *reason;
	char fell_back[FRAY_ADBG_WHY_MAX]; /* "paths", "memory": the walk's message; else "" */
	/* when the policy holds a best one (fray_policy_has_best) and the
	 * odds are exact: its values and gains (has_best) */
	bool has_best;
	struct fray_adbg_best {
		fray_goal goal;
		bool plays[2]; /* the side's questions went to best */
		/* each side's value under the policies as played, and its gain
		 * over both sides playing the heuristic (value minus the value
		 * under heuristic against heuristic): exact, and as a double */
		char value[2][FRAY_ADBG_WHY_MAX / 4], gain[2][FRAY_ADBG_WHY_MAX / 4];
		double value_p[2], gain_p[2];
		bool gain_known; /* false: the heuristic's own odds were not exact */
		/* the kinds of question met, exact or fallen back */
		fray_best_question q[32];
		size_t nq;
	} best;
} fray_adbg_odds;
/* FRAY_OK with out->dist; else the failure (on ctx) and no dist: stopped
 * (FRAY_ERR_BUDGET), out of memory in the simulation, a bad policy. */
fray_status fray_adbg_battle_odds(fray_ctx *ctx, const fray_adbg_scenario *s, fray_policy *p,
				  const fray_adbg_odds_opts *o, fray_adbg_odds *out);

/* What fray_adbg_battle_procedure's outcome is worth to side `side` under
 * a goal (fray_outcome_worth; the best policy's values): win 1, draw 1/2
 * (goal win) or 1 (not-lose), loss 0; casualties: the enemy's losses minus
 * one's own; hold: 1 when the side lost no unit. */
void fray_adbg_battle_worth(const int64_t *outcome, int side, fray_goal goal, int64_t *num, int64_t *den);

/* The battle as a procedure (input: a scenario): outcome {winner: 0 draw,
 * 1 or 2 the side in file order; losses of side 1; losses of side 2}. */
void fray_adbg_battle_procedure(fray_roller *r, fray_policy *p,
				const void *scenario, int64_t *out);

/* The battle for simulation (input: a scenario): outcome fields of 0..255
 * each, so that fray_simulate keeps a histogram of each: the winner (0 a
 * draw, 1 or 2 the side in file order), the rounds fought, then six
 * fields per side from FRAY_ADBG_SIM_SIDE + side * FRAY_ADBG_SIM_PER_SIDE. */
enum fray_adbg_sim_side_field {
	FRAY_ADBG_SIM_ELIMINATED,   /* eliminated in the fighting */
	FRAY_ADBG_SIM_ROUTED,
	FRAY_ADBG_SIM_DISRUPTED,
	FRAY_ADBG_SIM_LEADERS_LOST,
	FRAY_ADBG_SIM_LOSSES,
	FRAY_ADBG_SIM_STANDING,     /* in good order at the end */
	FRAY_ADBG_SIM_PER_SIDE
};
enum fray_adbg_sim_field {
	FRAY_ADBG_SIM_WINNER,
	FRAY_ADBG_SIM_ROUNDS,
	FRAY_ADBG_SIM_SIDE,
	FRAY_ADBG_SIM_FIELDS = FRAY_ADBG_SIM_SIDE + 2 * FRAY_ADBG_SIM_PER_SIDE
};
void fray_adbg_battle_stats_procedure(fray_roller *r, fray_policy *p,
				      const void *scenario, int64_t *out);

/* ---- The procedures as fray_procedure, for odds and simulation ----
 * input: the matching *_in struct; outcome fields: */
void fray_adbg_fire_procedure(fray_roller *r, fray_policy *p, const void *in,
			      int64_t *out);     /* {hit} */
void fray_adbg_move_procedure(fray_roller *r, fray_policy *p, const void *in,
			      int64_t *out);     /* {moved} */
void fray_adbg_recover_procedure(fray_roller *r, fray_policy *p,
				 const void *in, int64_t *out); /* {recovered} */
void fray_adbg_rounds_procedure(fray_roller *r, fray_policy *p,
				const void *in, int64_t *out);  /* {rounds} */
void fray_adbg_melee_procedure(fray_roller *r, fray_policy *p, const void *in,
			       int64_t *out);    /* {attacker_loss, defender_loss} */

#endif
