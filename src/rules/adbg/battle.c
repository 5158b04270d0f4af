/* The quick battle (ADBG 19.1-19.3): rounds, set-up and array, then each
 * round fire, movement, melee and recovery, then the end of battle. Dice
 * go through the roller, choices through the policy, every step is told as
 * events. The line is a row of positions (ruling R3): at each position
 * each side has a column of stacks, row 1 in front. */
#include <assert.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include "scenario.h"
#include "battle_fast.h"
#include "battle_convolve.h"
#include "../../core/roller_inner.h"
#include "../../core/fast_dice.h"
#include "../../common/text.h"

#define MAX_STACKS (2 * FRAY_ADBG_MAX_STACKS) /* room for stacks split by moves */
#define MAX_OPTIONS 48
/* room for the longest stack label and array line the limits allow (the
 * text writer would cut a longer one with "...", never overrun) */
#define STACK_LABEL_MAX (16 + FRAY_ADBG_MAX_UNITS * (ADBG_NAME + 2))
#define LINE_TEXT_MAX (32 + 2 * (ADBG_NAME + 8 + MAX_STACKS * 16 + STACK_LABEL_MAX))

/* Small fields: a battle is set up afresh for every path of exact odds,
 * so its size is paid for millions of times. */
typedef struct bstack {
	bool used;
	bool atop;           /* moved atop an enemy stack this round (19.2.2 c) */
	bool moved;          /* one move per stack per round (19.2.2) */
	int16_t pos, row;    /* row 1000: "at the back", until tidy numbers it */
	int16_t foe;         /* the enemy stack it is atop */
	int16_t home_pos, home_row, origin; /* where it came from, to return there */
} bstack;

/* The line of one side: at each position, its stacks front to back. */
typedef struct lineup {
	int n[FRAY_ADBG_MAX_STACKS];
	int k[FRAY_ADBG_MAX_STACKS][MAX_STACKS];
} lineup;

typedef struct battle {
	const fray_adbg_scenario *sc;
	fray_roller *r;
	fray_policy *p;
	bool tell;                            /* narrating */
	bool labels;                          /* someone reads the choices' words */
	/* The policy takes every suggestion and nobody is told: a choice is
	 * its suggestion, worked out without the list of options (issue #33:
	 * a simulation spent a third of its time building lists the
	 * heuristic never read past). */
	bool direct;
	/* Direct and sampling plainly: the roller's stream, whose d6 faces
	 * the battle reads in line through the scenario's face masks (the
	 * sampling fast path, fast_dice.h); NULL: every die through the
	 * procedures (narration, exact odds, a policy that is asked). */
	fray_rng *fast;
	bstack st[2][MAX_STACKS];
	int nst[2];                           /* slots st[s][0..nst-1] ever used */
	int lstack[2][FRAY_ADBG_MAX_LEADERS]; /* -1: with no stack */
	bool llost[2][FRAY_ADBG_MAX_LEADERS];
	int npos, round, rounds;
	/* Who is where, as bit masks kept up to date by set_unit() at every
	 * change (the battle asks "which units are in stack k" and "which
	 * stacks stand" hundreds of times; scanning the units each time was
	 * the largest cost of a simulated battle): in_stack[s][k] bit i, unit
	 * i of side s is in line in stack k; alive[s] bit k, stack k holds one. */
	uint32_t in_stack[2][MAX_STACKS];
	uint64_t alive[2];
	uint32_t normal[2];                   /* bit i: unit i is undisrupted */
	uint32_t routed[2];                   /* bit i: unit i is routed */
	uint64_t atop[2];                     /* bit k: st[s][k].atop */
	/* line[s] holds side s's line while line_ok[s]; tidy_ok[s]: tidy has
	 * nothing to do for side s. Both are cleared by line_changed(), called
	 * wherever a stack appears, empties, moves or goes atop (set_unit,
	 * put_stack, return_home, move_stack): the battle looks at the line
	 * some thirty times and most of those find it as it was. */
	bool line_ok[2], tidy_ok[2];
	bool recovery_told;                   /* narration: the phase's heading is out */
	bool fire_line_held;                  /* line[] is the one this fire phase began with */
	bool melee_told;                      /* narration: the melee phase's heading is out */
	/* A position walked on its own with a plan's events (exact odds,
	 * "a reserve's move as an event"): its reserves' searches and
	 * departures go there; NULL in every other battle. keep_ids: its
	 * keys keep every unit's own status (a unit off the line may come
	 * back, arriving with a reserve). */
	struct pos_walk *walk;
	bool keep_ids;
	/* Last, and not cleared for each battle: only the scenario's units
	 * are copied in, text is written before it is read, and line[s] is
	 * read only while line_ok[s]. */
	adbg_unit_def u[2][FRAY_ADBG_MAX_UNITS];
	char text[1024];
	lineup line[2];
} battle;

/* ---- narration helpers ---- */

/* The words of a choice's options when nobody reads them (a policy that
 * reads only the suggestion, no narration): empty, never NULL. */
#define EMPTY8 "", "", "", "", "", "", "", ""
static const char *const no_words[MAX_OPTIONS] = {EMPTY8, EMPTY8, EMPTY8, EMPTY8, EMPTY8, EMPTY8};

/* note() and label() test their flag before the call: they are variadic,
 * so never inlined, and a simulation calls them hundreds of times a
 * battle for nothing. */
#define note(b, ...) ((b)->tell ? note_told((b), __VA_ARGS__) : (void)0)
#define label(b, dst, cap, ...) \
	((b)->labels ? label_words((dst), (cap), __VA_ARGS__) : (void)((dst)[0] = '\0'))

static void note_told(battle *b, const char *rule, const char *fmt, ...)
	FRAY_PRINTF(3, 4);
static void note_told(battle *b, const char *rule, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	textbuf t = text_on(b->text, sizeof b->text);
	text_vadd(&t, fmt, ap);
	va_end(ap);
	fray_emit_note(b->r, b->text, rule);
}

/* Words of a choice (its options, its prompt): built only when someone
 * reads them, the narration or a policy other than the heuristic; in a
 * simulation they would be most of the cost. */
static void label_words(char *dst, size_t cap, const char *fmt, ...) FRAY_PRINTF(3, 4);
static void label_words(char *dst, size_t cap, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	textbuf t = text_on(dst, cap);
	text_vadd(&t, fmt, ap);
	va_end(ap);
}

static const char *side_name(const battle *b, int s)
{
	return b->sc->side[s].name;
}

static bool in_line(const adbg_unit_def *u)
{
	return u->status < FRAY_ADBG_ELIMINATED;
}

/* ---- stacks ---- */

static int stack_units(const battle *b, int s, int k, int *out)
{
	int n = 0;
	for (uint32_t m = b->in_stack[s][k]; m; m &= m - 1)
		out[n++] = __builtin_ctz(m); /* the lowest unit first, in order */
	return n;
}

static bool stack_alive(const battle *b, int s, int k)
{
	return b->st[s][k].used && b->in_stack[s][k] != 0;
}

/* Side s's line may have changed: look at it again when asked. */
static void line_changed(battle *b, int s)
{
	b->line_ok[s] = b->tidy_ok[s] = false;
}

/* Rebuilds the masks from the units (a new or restored battle). */
static void index_units(battle *b)
{
	memset(b->in_stack, 0, sizeof b->in_stack);
	b->alive[0] = b->alive[1] = 0;
	b->normal[0] = b->normal[1] = 0;
	b->routed[0] = b->routed[1] = 0;
	for (int s = 0; s < 2; s++) {
		line_changed(b, s);
		b->atop[s] = 0;
		for (int k = 0; k < b->nst[s]; k++)
			b->atop[s] |= (uint64_t)b->st[s][k].atop << k;
	}
	for (int s = 0; s < 2; s++)
		for (int i = 0; i < b->sc->side[s].nunits; i++) {
			if (in_line(&b->u[s][i])) {
				b->in_stack[s][b->u[s][i].stack] |= (uint32_t)1 << i;
				b->alive[s] |= (uint64_t)1 << b->u[s][i].stack;
			}
			if (b->u[s][i].status == FRAY_ADBG_NORMAL)
				b->normal[s] |= (uint32_t)1 << i;
			if (b->u[s][i].status == FRAY_ADBG_ROUTED)
				b->routed[s] |= (uint32_t)1 << i;
		}
}

/* Every change of a unit's stack or status goes through here. */
static IN_LINE void set_unit(battle *b, int s, int i, int stack, fray_adbg_status status)
{
	uint64_t alive_before = b->alive[s];
	adbg_unit_def *u = &b->u[s][i];
	if (in_line(u) && !(b->in_stack[s][u->stack] &= ~((uint32_t)1 << i)))
		b->alive[s] &= ~((uint64_t)1 << u->stack);
	u->stack = stack;
	u->status = status;
	b->normal[s] = (b->normal[s] & ~((uint32_t)1 << i)) | (uint32_t)(status == FRAY_ADBG_NORMAL) << i;
	b->routed[s] = (b->routed[s] & ~((uint32_t)1 << i)) | (uint32_t)(status == FRAY_ADBG_ROUTED) << i;
	if (in_line(u)) {
		b->in_stack[s][stack] |= (uint32_t)1 << i;
		b->alive[s] |= (uint64_t)1 << stack;
	}
	if (b->alive[s] != alive_before)
		line_changed(b, s);
}

/* The best rating among the leaders with stack k (0 when none). */
static int stack_leader(const battle *b, int s, int k)
{
	int best = 0;
	for (int l = 0; l < b->sc->side[s].nleaders; l++)
		if (!b->llost[s][l] && b->lstack[s][l] == k &&
		    b->sc->side[s].leaders[l].rating > best)
			best = b->sc->side[s].leaders[l].rating;
	return best;
}

/* "stack 2 (Fayette militia, Lincoln militia)" */
static void stack_label(const battle *b, int s, int k, char *dst, size_t cap)
{
	if (!b->labels) {
		dst[0] = '\0';
		return;
	}
	int u[FRAY_ADBG_MAX_UNITS], n = stack_units(b, s, k, u);
	textbuf t = text_on(dst, cap);
	text_add(&t, "stack %d (", k + 1);
	for (int i = 0; i < n; i++)
		text_add(&t, "%s%s", i ? ", " : "", b->u[s][u[i]].name);
	text_add(&t, ")");
}

/* Sorts a column's stacks by row, front first (insertion sort: columns
 * are short). */
static void sort_by_row(const battle *b, int s, int *col, int n)
{
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && b->st[s][col[j]].row < b->st[s][col[j - 1]].row; j--) {
			int t = col[j];
			col[j] = col[j - 1];
			col[j - 1] = t;
		}
}

/* Every column of side s (its live stacks not atop an enemy, front to
 * back) at once: one pass over the stacks for all positions. */
static void build_line(const battle *b, int s, lineup *out)
{
	memset(out->n, 0, sizeof out->n);
	for (uint64_t m = b->alive[s] & ~b->atop[s]; m; m &= m - 1) {
		int k = __builtin_ctzll(m);
		const bstack *st = &b->st[s][k];
		if (st->used && st->pos >= 0 && st->pos < b->npos)
			out->k[st->pos][out->n[st->pos]++] = k;
	}
	for (int p = 0; p < b->npos; p++)
		if (out->n[p] > 1)
			sort_by_row(b, s, out->k[p], out->n[p]);
}

#ifndef NDEBUG
/* Debug builds (the test suite's) check that line_changed() was called
 * wherever the line changed: the kept line must be the one built anew,
 * from masks that agree with the stacks and units. */
static bool line_is_current(const battle *b, int s)
{
	/* the masks the line is built from agree with the stacks and units */
	for (int k = 0; k < b->nst[s]; k++)
		if (((b->atop[s] >> k) & 1) != b->st[s][k].atop)
			return false;
	for (int i = 0; i < b->sc->side[s].nunits; i++)
		if (((b->normal[s] >> i) & 1) != (b->u[s][i].status == FRAY_ADBG_NORMAL) ||
		    ((b->routed[s] >> i) & 1) != (b->u[s][i].status == FRAY_ADBG_ROUTED))
			return false;
	lineup fresh;
	build_line(b, s, &fresh);
	for (int p = 0; p < b->npos; p++)
		if (fresh.n[p] != b->line[s].n[p] ||
		    memcmp(fresh.k[p], b->line[s].k[p], (size_t)fresh.n[p] * sizeof fresh.k[p][0]) != 0)
			return false;
	return true;
}

/* ... and that tidy has nothing to do when it skips a side. */
static bool is_tidy(battle *b, int s);
#endif

/* Side s's line, looked at again only when it may have changed. */
static const lineup *line_of(battle *b, int s)
{
	if (!b->line_ok[s]) {
		build_line(b, s, &b->line[s]);
		b->line_ok[s] = true;
	}
	assert(line_is_current(b, s));
	return &b->line[s];
}

/* Drops dead stacks (their leaders stay with the side, with no stack) and
 * numbers each column's rows 1, 2, ... again. */
static void tidy(battle *b)
{
	for (int s = 0; s < 2; s++) {
		if (b->tidy_ok[s]) {
			assert(is_tidy(b, s));
			continue;
		}
		uint64_t alive = b->alive[s];
		for (int k = 0; k < b->nst[s]; k++)
			if (b->st[s][k].used && !(alive >> k & 1)) {
				b->st[s][k].used = false;
				for (int l = 0; l < b->sc->side[s].nleaders; l++)
					if (b->lstack[s][l] == k)
						b->lstack[s][l] = -1;
			}
		/* numbering the rows again keeps their order: the line stays */
		const lineup *ln = line_of(b, s);
		for (int p = 0; p < b->npos; p++)
			for (int i = 0; i < ln->n[p]; i++)
				b->st[s][ln->k[p][i]].row = (int16_t)(i + 1);
		b->tidy_ok[s] = true;
	}
}

#ifndef NDEBUG
static bool is_tidy(battle *b, int s)
{
	for (int k = 0; k < b->nst[s]; k++)
		if (b->st[s][k].used && !(b->alive[s] >> k & 1))
			return false;
	const lineup *ln = line_of(b, s);
	for (int p = 0; p < b->npos; p++)
		for (int i = 0; i < ln->n[p]; i++)
			if (b->st[s][ln->k[p][i]].row != i + 1)
				return false;
	return true;
}
#endif

/* Puts a stack in slot k (the loops over stacks stop at the highest). */
static void put_stack(battle *b, int s, int k, bstack st)
{
	b->st[s][k] = st;
	b->atop[s] = (b->atop[s] & ~((uint64_t)1 << k)) | (uint64_t)st.atop << k;
	line_changed(b, s);
	if (k >= b->nst[s])
		b->nst[s] = k + 1;
}

static int new_stack(battle *b, int s)
{
	for (int k = 0; k < MAX_STACKS; k++)
		if (!b->st[s][k].used) {
			put_stack(b, s, k, (bstack){.used = true, .origin = -1});
			return k;
		}
	return -1;
}

/* Modified melee CF of the stack's units that are not routed (19.2.3). */
static int64_t melee_cf(const battle *b, int s, int k, int *active, bool *disrupted)
{
	uint32_t fighting = b->in_stack[s][k] & ~b->routed[s]; /* in line, not routed */
	int64_t cf = 0;
	*active = __builtin_popcount(fighting);
	*disrupted = (fighting & ~b->normal[s]) != 0;
	for (; fighting; fighting &= fighting - 1)
		cf += b->u[s][__builtin_ctz(fighting)].melee_cf;
	return cf;
}

/* Tells stack k's melee CF term by term (19.2.3, ruling R10): each unit
 * not routed, its printed melee CF times the terrain's multiplier, and
 * their TOTAL. */
static void tell_melee_cf(battle *b, int s, int k, const char *what, int64_t cf)
{
	int u[FRAY_ADBG_MAX_UNITS], n = stack_units(b, s, k, u);
	for (int i = 0; i < n; i++) {
		const adbg_unit_def *x = &b->u[s][u[i]];
		if (x->status == FRAY_ADBG_ROUTED)
			continue;
		char term[128];
		int mult = fray_adbg_melee_mult(x->type, b->sc->terrain);
		if (mult != 1)
			label_words(term, sizeof term, "%s: melee CF %d x%d (%s in %s)", x->name, x->melee, mult,
				    fray_adbg_type_names[x->type], fray_adbg_terrain_names[b->sc->terrain]);
		else
			label_words(term, sizeof term, "%s: melee CF %d", x->name, x->melee);
		fray_emit_modifier(b->r, term, x->melee_cf, "ADBG 19.2.3, ruling R10");
	}
	fray_emit_total(b->r, what, cf, "ADBG 19.2.3");
}

/* A side's strength for the heuristic: fire + melee CF of its units in line. */
static int strength(const battle *b, int s)
{
	int total = 0;
	for (int i = 0; i < b->sc->side[s].nunits; i++)
		if (b->u[s][i].status <= FRAY_ADBG_DISRUPTED)
			total += b->u[s][i].fire + b->u[s][i].melee;
	return total;
}

static size_t decide(battle *b, int side, const char *kind, const char *prompt,
		     const char *const *options, size_t n, size_t suggested)
{
	if (b->direct)
		return suggested; /* what fray_decide would answer, unasked */
	fray_choice c = {.kind = kind, .prompt = prompt, .noptions = n,
			 .options = options, .suggested = suggested, .side = side};
	return fray_decide(b->r, b->p, &c);
}

/* A check's faces as words: "6", "1, 2 or 3". */
static void check_faces(const adbg_check *c, char *dst, size_t cap)
{
	size_t len = 0;
	dst[0] = '\0';
	for (int i = 0; i < c->nfaces && len < cap; i++) {
		const char *sep = i == 0 ? "" : i == c->nfaces - 1 ? " or " : ", ";
		int n = snprintf(dst + len, cap - len, "%s%lld", sep, (long long)c->faces[i]);
		if (n < 0)
			break;
		len += (size_t)n;
	}
}

/* A check (G2, G3): read through its face mask on the fast path (the same
 * dice in the same order, scenario.c), else rolled through the roller. */
static inline bool fast_check(battle *b, const adbg_check *c)
{
	unsigned i = frayi_d6(b->fast);
	if (c->fast_dice == 2)
		i = i * 6 + frayi_d6(b->fast);
	return c->fast_mask >> i & 1;
}

static bool check_roll(battle *b, const adbg_check *c, const char *what, int64_t *total)
{
	if (b->fast && c->fast_dice) {
		*total = 0; /* nobody reads it: nothing is told */
		return fast_check(b, c);
	}
	return frayi_adbg_check_roll(b->r, c, what, total);
}

/* G2 (9.5.9 after fire, 9.5.12 after melee): each leader with stack k. */
static IN_LINE void leader_loss(battle *b, int s, int k, const adbg_check *check,
			const char *rule)
{
	if (b->fast && check->fast_dice) { /* untold: the faces through the check's mask only */
		const int nl = b->sc->side[s].nleaders;
		bool *lost = b->llost[s];
		const int *at = b->lstack[s];
		for (int l = 0; l < nl; l++)
			if (!lost[l] && at[l] == k)
				lost[l] = fast_check(b, check);
		return;
	}
	for (int l = 0; l < b->sc->side[s].nleaders; l++) {
		if (b->llost[s][l] || b->lstack[s][l] != k)
			continue;
		char what[96];
		label(b, what, sizeof what, "leader loss for %s", b->sc->side[s].leaders[l].name);
		int64_t total;
		/* the roll tells the number; the note, the faces it is read against */
		bool lost = check_roll(b, check, what, &total);
		b->llost[s][l] |= lost;
		if (b->tell) {
			char faces[64];
			check_faces(check, faces, sizeof faces);
			note(b, rule, "%s %s (lost on %s)", b->sc->side[s].leaders[l].name,
			     lost ? "is lost" : "survives", faces);
		}
	}
}

/* ---- 19.1 rounds and set-up ---- */

static void determine_rounds(battle *b)
{
	const fray_adbg_scenario *sc = b->sc;
	int ini = sc->initiative, other = 1 - ini;
	int other_rating = sc->side[other].leaders[0].rating;
	static const char *const yesno[] = {"no", "yes"};
	char prompt[128];
	label(b, prompt, sizeof prompt, "%s: roll for one more battle round?", side_name(b, other));
	/* heuristic: more rounds help the stronger side */
	size_t want = strength(b, other) >= strength(b, ini) && other_rating > 1;
	bool attempt = decide(b, other, "adbg.extra_round", prompt, yesno, 2, want) == 1;
	fray_adbg_rounds_in in = {sc->side[ini].leaders[0].rating, attempt, other_rating};
	if (b->fast) { /* untold: the die against the procedure's faces, as a mask */
		b->rounds = in.initiative_rating +
			    (attempt && frayi_d6_in(b->fast, (1u << frayi_adbg_extra_round_faces(&in)) - 1));
		return;
	}
	fray_adbg_rounds_out out;
	fray_adbg_rounds(b->r, &in, &out);
	b->rounds = out.rounds;
	/* told once: the rounds' TOTAL stands unless one more was won */
	if (out.extra)
		note(b, "ADBG 19.1", "%d battle rounds", b->rounds);
}

/* The side that sets up first (19.1): the surprised side, else the side
 * without the initiative. Its stacks are the positions of the line. */
static int first_to_set_up(const fray_adbg_scenario *sc)
{
	return sc->surprised >= 0 ? sc->surprised : 1 - sc->initiative;
}

/* R3: the first side in one row, one stack per position; the other side
 * fills the positions evenly, front row first. */
static void array_forces(battle *b)
{
	const fray_adbg_scenario *sc = b->sc;
	int first = first_to_set_up(sc);
	int second = 1 - first;
	note(b, "ADBG 19.1", "%s sets up first%s", side_name(b, first),
	     sc->surprised >= 0 ? " (taken by surprise)" : " (no initiative)");
	b->npos = sc->side[first].nstacks;
	for (int s = 0; s < 2; s++)
		for (int k = 0; k < sc->side[s].nstacks; k++)
			put_stack(b, s, k, (bstack){.used = true, .origin = -1});
	if (sc->has_array) {
		for (int s = 0; s < 2; s++)
			for (int k = 0; k < sc->side[s].nstacks; k++) {
				b->st[s][k].pos = (int16_t)sc->array_pos[s][k];
				b->st[s][k].row = (int16_t)sc->array_row[s][k];
			}
		note(b, "ADBG 19.1, ruling R3", "the array is the scenario's");
		return;
	}
	for (int k = 0; k < sc->side[first].nstacks; k++) {
		b->st[first][k].pos = (int16_t)k;
		b->st[first][k].row = 1;
	}
	/* the second side places its strongest stacks first */
	int order[FRAY_ADBG_MAX_STACKS], n = sc->side[second].nstacks;
	int power[FRAY_ADBG_MAX_STACKS] = {0}, enemy[FRAY_ADBG_MAX_STACKS] = {0};
	for (int i = 0; i < sc->side[second].nunits; i++)
		power[sc->side[second].units[i].stack] += sc->side[second].units[i].melee +
							  sc->side[second].units[i].fire;
	for (int i = 0; i < sc->side[first].nunits; i++)
		enemy[sc->side[first].units[i].stack] += sc->side[first].units[i].melee +
							 sc->side[first].units[i].fire;
	for (int i = 0; i < n; i++) {
		order[i] = i;
		for (int j = i; j > 0 && power[order[j]] > power[order[j - 1]]; j--) {
			int t = order[j];
			order[j] = order[j - 1];
			order[j - 1] = t;
		}
	}
	int depth[FRAY_ADBG_MAX_STACKS] = {0};
	for (int i = 0; i < n; i++) {
		int k = order[i];
		int min = 99;
		for (int p = 0; p < b->npos; p++)
			min = depth[p] < min ? depth[p] : min;
		char labels[FRAY_ADBG_MAX_STACKS][96];
		const char *opts[FRAY_ADBG_MAX_STACKS];
		int pos_of[FRAY_ADBG_MAX_STACKS], nopt = 0;
		size_t best = 0;
		for (int p = 0; p < b->npos; p++) {
			if (depth[p] != min)
				continue;
			char lab[80];
			stack_label(b, first, p, lab, sizeof lab);
			label(b, labels[nopt], sizeof labels[nopt], "opposite %s, row %d", lab, min + 1);
			opts[nopt] = labels[nopt];
			if (nopt == 0 || enemy[p] > enemy[pos_of[best]])
				best = (size_t)nopt;
			pos_of[nopt++] = p;
		}
		char prompt[160], lab[96];
		stack_label(b, second, k, lab, sizeof lab);
		label(b, prompt, sizeof prompt, "%s: where does %s stand?", side_name(b, second), lab);
		size_t c = decide(b, second, "adbg.array", prompt, opts, (size_t)nopt, best);
		int p = pos_of[c];
		b->st[second][k].pos = (int16_t)p;
		b->st[second][k].row = (int16_t)++depth[p];
	}
}

static void tell_line(battle *b)
{
	if (!b->tell)
		return;
	const lineup *ln[2] = {line_of(b, 0), line_of(b, 1)};
	for (int p = 0; p < b->npos; p++) {
		char buf[LINE_TEXT_MAX];
		textbuf line = text_on(buf, sizeof buf);
		text_add(&line, "position %d:", p + 1);
		for (int s = 0; s < 2; s++) {
			const int *col = ln[s]->k[p];
			int n = ln[s]->n[p];
			text_add(&line, "%s %s", s ? " |" : "", side_name(b, s));
			if (n == 0)
				text_add(&line, " none");
			for (int i = 0; i < n; i++) {
				char lab[STACK_LABEL_MAX];
				stack_label(b, s, col[i], lab, sizeof lab);
				text_add(&line, "%s %s", i ? "," : "", lab);
			}
		}
		fray_emit_note(b->r, buf, NULL);
	}
}

/* ---- 19.2.1 fire ---- */

/* One hit: normal -> disrupted -> routed -> eliminated. */
static IN_LINE void take_hit(battle *b, int s, int unit)
{
	adbg_unit_def *u = &b->u[s][unit];
	if (!in_line(u))
		return;
	set_unit(b, s, unit, u->stack, (fray_adbg_status)(u->status + 1));
	if (b->tell)
		fray_emit_result(b->r, u->name, u->status, fray_adbg_status_names[u->status],
				 "ADBG 19.2.1");
}

/* The enemy rows a firer may aim at (19.2.1): front to back, up to the
 * first holding a unit no firer at this position has chosen yet (every
 * row when none does). rows[t]: the units of row t as a mask. */
static int legal_rows(const uint32_t *rows, int nt, uint32_t targeted)
{
	for (int t = 0; t < nt; t++)
		if (rows[t] & ~targeted)
			return t + 1;
	return nt;
}

/* The heuristic's target among the units of the first nrows rows: an
 * untargeted unit, the nearest to elimination, the first such row by
 * row (the options' order); -1 when the rows are empty. */
static int suggested_target(const battle *b, int e, const uint32_t *rows, int nrows, uint32_t targeted)
{
	int best = -1, bscore = -1;
	for (int t = 0; t < nrows; t++)
		for (uint32_t m = rows[t]; m; m &= m - 1) {
			int i = __builtin_ctz(m);
			int score = (targeted >> i & 1 ? 0 : 10) + (int)b->u[e][i].status;
			if (score > bscore) {
				best = i;
				bscore = score;
			}
		}
	return best;
}

/* The heuristic's target of a firer taking it unasked (b->direct): the
 * legal rows (legal_rows) and suggested_target's choice at once, from the
 * masks. Units in a row are in line, so normal, disrupted or routed: the
 * highest score is an untargeted unit's when there is one, and among
 * those the most hurt; the first such in the options' order, row by row,
 * each row's lowest unit first. -1 when the rows are empty. */
static IN_LINE int direct_target(const battle *b, int e, const uint32_t *rows, int nt, uint32_t targeted)
{
	return frayi_adbg_direct_target(b->routed[e], b->normal[e], rows, nt, targeted);
}

/* Side s's unit `firer` chooses its target among the units of the first
 * nrows enemy rows: the enemy unit, or -1 when there is none. The
 * options (the units row by row, each row's lowest unit first) are built
 * only for a policy that may answer other than the suggestion. */
static int choose_target(battle *b, int s, int firer, const uint32_t *rows, int nrows, uint32_t targeted)
{
	int e = 1 - s;
	int best = suggested_target(b, e, rows, nrows, targeted);
	if (best < 0) /* a direct battle never asks here: fire_position takes direct_target */
		return best;
	int cand[FRAY_ADBG_MAX_UNITS], nc = 0;
	size_t suggested = 0;
	for (int t = 0; t < nrows; t++)
		for (uint32_t m = rows[t]; m; m &= m - 1) {
			if (__builtin_ctz(m) == best)
				suggested = (size_t)nc;
			cand[nc++] = __builtin_ctz(m);
		}
	char labels[FRAY_ADBG_MAX_UNITS][80];
	const char *words[FRAY_ADBG_MAX_UNITS];
	const char *const *opts = no_words;
	if (b->labels) {
		for (int c = 0; c < nc; c++) {
			const adbg_unit_def *t = &b->u[e][cand[c]];
			label_words(labels[c], sizeof labels[c], "%s (%s)", t->name,
				    fray_adbg_status_names[t->status]);
			words[c] = labels[c];
		}
		opts = words;
	}
	char prompt[128];
	label(b, prompt, sizeof prompt, "%s: %s fires at", side_name(b, s), b->u[s][firer].name);
	return cand[decide(b, s, "adbg.target", prompt, opts, (size_t)nc, suggested)];
}

/* Side s's stacks at one position (mine, front first) fire at the enemy's
 * (theirs). Which enemy units a firer of this position has chosen is a
 * mask (targeted), the enemy's rows masks of their units. */
static IN_LINE void fire_position(battle *b, int s, const int *mine, int nm, const int *theirs, int nt)
{
	int e = 1 - s;
	if (nm == 0 || nt == 0)
		return;
	uint32_t targeted = 0;
	for (int i = 0; i < nm; i++) {
		/* the enemy's units row by row, as the earlier stacks' fire left them */
		uint32_t rows[MAX_STACKS];
		for (int t = 0; t < nt; t++)
			rows[t] = b->in_stack[e][theirs[t]];
		int firers[FRAY_ADBG_MAX_UNITS], target[FRAY_ADBG_MAX_UNITS], nf = 0;
		/* every firer's target is chosen before any of this stack fires;
		 * only undisrupted units fire */
		for (uint32_t f = b->in_stack[s][mine[i]] & b->normal[s]; f; f &= f - 1) {
			int unit = __builtin_ctz(f);
			int pick = b->direct ? direct_target(b, e, rows, nt, targeted)
					     : choose_target(b, s, unit, rows, legal_rows(rows, nt, targeted), targeted);
			if (pick < 0)
				continue;
			firers[nf] = unit;
			target[nf++] = pick;
			targeted |= (uint32_t)1 << pick;
		}
		for (int f = 0; f < nf; f++) {
			const adbg_unit_def *u = &b->u[s][firers[f]];
			adbg_unit_def *t = &b->u[e][target[f]];
			note(b, NULL, "%s fires at %s", u->name, t->name);
			if (!in_line(t)) {
				note(b, NULL, "%s is already gone", t->name);
				continue;
			}
			bool hit;
			if (b->fast) { /* the face against frayi_adbg_fire_hits, as a mask */
				hit = frayi_d6_in(b->fast, b->sc->side[s].fire_faces[firers[f]]);
			} else {
				fray_adbg_fire_in in = {u->type, u->fire, b->sc->terrain, b->sc->severe};
				fray_adbg_fire_out out;
				fray_adbg_fire(b->r, &in, &out);
				hit = out.hit;
			}
			if (hit) {
				int tstack = t->stack;
				take_hit(b, e, target[f]);
				leader_loss(b, e, tstack, &b->sc->loss_fire, "ADBG 19.2.1, 9.5.9 (G2)");
			}
		}
	}
}

static bool fire_skipped(const battle *b, int s)
{
	return b->round == 1 && b->sc->surprised == s;
}

/* Side s's fire at position p, one step of its fire phase. Fire at one
 * position changes no column at another, so the line looked at afresh
 * here is, at every other position, the line the phase began with. */
static IN_LINE void fire_step(battle *b, int s, int p)
{
	if (p == 0) {
		note(b, "ADBG 19.2.1", "-- fire: %s --", side_name(b, s));
		if (fire_skipped(b, s))
			note(b, "ADBG 19.2.1", "%s was taken by surprise and does not fire in round 1",
			     side_name(b, s));
	}
	if (fire_skipped(b, s))
		return;
	/* the line as the phase began: losses mark it changed, but the
	 * columns still to fire are as they were, so it is rebuilt only in a
	 * battle resumed in the middle of the phase (exact odds) */
	if (p == 0 || !b->fire_line_held) {
		line_of(b, s);
		line_of(b, 1 - s);
		b->fire_line_held = true;
	}
	const lineup *mine = &b->line[s], *theirs = &b->line[1 - s];
	fire_position(b, s, mine->k[p], mine->n[p], theirs->k[p], theirs->n[p]);
	if (p == b->npos - 1)
		b->fire_line_held = false;
}

/* ---- 19.2.2 movement ---- */

typedef enum move_kind { MOVE_STAY, MOVE_ATTACK, MOVE_AVOID, MOVE_FRONT, MOVE_BACK,
			 MOVE_POSITION } move_kind;

typedef struct move_option {
	move_kind kind;
	int arg; /* the enemy stack attacked, or the position */
	const char *label; /* a fixed text, or one of the caller's words */
} move_option;

typedef char option_words[MAX_OPTIONS][128];

/* The enemy stacks atop stack k of side s. */
static int attackers_of(const battle *b, int s, int k, int *out)
{
	int n = 0;
	for (uint64_t m = b->atop[1 - s]; m; m &= m - 1) {
		int j = __builtin_ctzll(m);
		if (b->st[1 - s][j].used && b->st[1 - s][j].foe == k)
			out[n++] = j;
	}
	return n;
}

static bool goes_home_into_origin(const battle *b, int s, int k);

/* Puts the stack back where it came from (19.2.2 note, 19.2.3): into the
 * stack it split from when that still stands in the row it left, else as
 * a stack of its own in that row. The text returns the survivors "to the
 * row they occupied": a stack that moved up while it was away (tidy
 * numbers the rows again) goes back behind it, whatever the slots' order
 * (issue 40 item 6: a tie of rows used to be broken by slot number). */
static void return_home(battle *b, int s, int k)
{
	bstack *st = &b->st[s][k];
	st->atop = false;
	b->atop[s] &= ~((uint64_t)1 << k);
	line_changed(b, s);
	int o = st->origin;
	if (goes_home_into_origin(b, s, k)) {
		for (int i = 0; i < b->sc->side[s].nunits; i++)
			if (b->u[s][i].stack == k)
				set_unit(b, s, i, o, b->u[s][i].status);
		for (int l = 0; l < b->sc->side[s].nleaders; l++)
			if (b->lstack[s][l] == k)
				b->lstack[s][l] = o;
		st->used = false;
		return;
	}
	/* the stacks in its row and behind it step back one row (their rows
	 * stay 1, 2, ...: tidy has numbered them) */
	for (uint64_t m = b->alive[s] & ~b->atop[s]; m; m &= m - 1) {
		bstack *t = &b->st[s][__builtin_ctzll(m)];
		if (t != st && t->used && t->pos == st->home_pos && t->row >= st->home_row)
			t->row++;
	}
	st->pos = st->home_pos;
	st->row = st->home_row;
	st->origin = -1;
}

/* The undisrupted units of stack k, with its leaders, as a stack of their
 * own (R6: only they move); k itself when nothing stays behind. */
static int movers(battle *b, int s, int k)
{
	uint32_t moving = b->in_stack[s][k] & b->normal[s];
	if (moving == b->in_stack[s][k])
		return k;
	int m = new_stack(b, s);
	if (m < 0)
		return -1;
	b->st[s][m].pos = b->st[s][k].pos;
	b->st[s][m].row = b->st[s][k].row;
	b->st[s][m].origin = (int16_t)k;
	for (; moving; moving &= moving - 1)
		set_unit(b, s, __builtin_ctz(moving), m, FRAY_ADBG_NORMAL);
	for (int l = 0; l < b->sc->side[s].nleaders; l++)
		if (b->lstack[s][l] == k)
			b->lstack[s][l] = m;
	return m;
}

/* Whether an undisrupted unit of stack k is of a type pred accepts. */
static bool has_type(const battle *b, int s, int k, bool (*pred)(fray_adbg_type))
{
	for (uint32_t m = b->in_stack[s][k] & b->normal[s]; m; m &= m - 1)
		if (pred(b->u[s][__builtin_ctz(m)].type))
			return true;
	return false;
}

static bool is_regular(fray_adbg_type t) { return t == FRAY_ADBG_REGULAR; }
static bool is_non_warrior(fray_adbg_type t) { return t != FRAY_ADBG_WARRIOR; }

/* A stack's options (19.2.2) and the heuristic's among them, for a
 * choice that is asked: every option, with its words when someone reads
 * them (a choice taken unasked goes through direct_move). */
typedef struct move_menu {
	int n;              /* options listed */
	size_t suggest;     /* the suggested option's index (0: stay) */
	move_option opt[MAX_OPTIONS];
	option_words words; /* when b->labels */
} move_menu;

static void offer(move_menu *m, move_option o, bool suggest)
{
	if (suggest)
		m->suggest = (size_t)m->n;
	m->opt[m->n++] = o;
}

/* The heuristic avoids a melee against twice stack k's melee CF (its
 * natk attackers atk[]). */
static bool avoids(const battle *b, int s, int k, const int *atk, int natk)
{
	int active;
	bool dis;
	int64_t theirs = 0;
	for (int i = 0; i < natk; i++)
		theirs += melee_cf(b, 1 - s, atk[i], &active, &dis);
	return frayi_adbg_avoids(theirs, melee_cf(b, s, k, &active, &dis));
}

/* The heuristic's rules of thumb: avoid a melee against twice one's
 * melee CF, attack with twice the enemy's (or an enemy all routed), send a
 * reserve where the enemy faces no one. */
static void options_for(battle *b, int s, int k, move_menu *m)
{
	int e = 1 - s;
	bstack *st = &b->st[s][k];
	m->n = 0;
	m->suggest = 0;
	offer(m, (move_option){MOVE_STAY, 0, "stay"}, true);
	uint32_t moving = b->in_stack[s][k] & b->normal[s];
	if (moving == 0)
		return; /* only undisrupted units move (R6) */
	int atk[MAX_STACKS], natk = attackers_of(b, s, k, atk);
	int active;
	bool dis;
	if (natk > 0) {
		offer(m, (move_option){MOVE_AVOID, 0, "avoid the melee"}, avoids(b, s, k, atk, natk));
		return;
	}
	const lineup *mine_ln = line_of(b, s), *their_ln = line_of(b, e);
	const int *col = mine_ln->k[st->pos], *ecol = their_ln->k[st->pos];
	int n = mine_ln->n[st->pos], ne = their_ln->n[st->pos];
	if (n > 0 && col[0] == k && ne > 0 && attackers_of(b, e, ecol[0], atk) == 0) {
		char lab[100];
		stack_label(b, e, ecol[0], lab, sizeof lab);
		label(b, m->words[m->n], sizeof m->words[m->n], "attack %s", lab);
		int64_t theirs = melee_cf(b, e, ecol[0], &active, &dis);
		/* the movers' melee CF: only undisrupted units move */
		int64_t mine = 0;
		for (uint32_t u = moving; u; u &= u - 1)
			mine += b->u[s][__builtin_ctz(u)].melee_cf;
		offer(m, (move_option){MOVE_ATTACK, ecol[0], m->words[m->n]}, frayi_adbg_attacks(mine, theirs, active));
	}
	if (st->row > 1)
		offer(m, (move_option){MOVE_FRONT, 0, "to the front row"}, false);
	if (st->row < n)
		offer(m, (move_option){MOVE_BACK, 0, "to the back row"}, false);
	for (int p = 0; p < b->npos && m->n < MAX_OPTIONS; p++) {
		const int *pe = their_ln->k[p];
		if (p == st->pos || their_ln->n[p] == 0)
			continue;
		char lab[100];
		stack_label(b, e, pe[0], lab, sizeof lab);
		label(b, m->words[m->n], sizeof m->words[m->n], "opposite %s (position %d)", lab, p + 1);
		offer(m, (move_option){MOVE_POSITION, p, m->words[m->n]},
		      m->suggest == 0 && st->row > 1 && mine_ln->n[p] == 0);
	}
}

static move_option walk_scan(battle *b, int s, int k);
static void walk_depart(battle *b, int s, int m);

/* The heuristic's option for stack k taken unasked (b->direct): what
 * options_for suggests, with no menu: the options it would list before
 * the suggestion are only counted (the positions stop at MAX_OPTIONS). */
static move_option direct_move(battle *b, int s, int k)
{
	const move_option stay = {MOVE_STAY, 0, "stay"};
	int e = 1 - s;
	const bstack *st = &b->st[s][k];
	uint32_t moving = b->in_stack[s][k] & b->normal[s];
	if (moving == 0)
		return stay; /* only undisrupted units move (R6) */
	int atk[MAX_STACKS], natk = attackers_of(b, s, k, atk);
	if (natk > 0)
		return avoids(b, s, k, atk, natk) ? (move_option){MOVE_AVOID, 0, "avoid the melee"} : stay;
	int active;
	bool dis;
	const lineup *mine_ln = line_of(b, s), *their_ln = line_of(b, e);
	int pos = st->pos, n = mine_ln->n[pos], nopt = 1;
	if (n > 0 && mine_ln->k[pos][0] == k && their_ln->n[pos] > 0 &&
	    attackers_of(b, e, their_ln->k[pos][0], atk) == 0) {
		int foe = their_ln->k[pos][0];
		int64_t theirs = melee_cf(b, e, foe, &active, &dis), mine = 0;
		for (uint32_t u = moving; u; u &= u - 1)
			mine += b->u[s][__builtin_ctz(u)].melee_cf;
		if (frayi_adbg_attacks(mine, theirs, active))
			return (move_option){MOVE_ATTACK, foe, ""};
		nopt++;
	}
	if (st->row <= 1)
		return stay;
	nopt += 1 + (st->row < n); /* to the front row; to the back row */
	if (b->walk) /* a position walked alone: the plan says (walk_scan) */
		return walk_scan(b, s, k);
	/* a reserve goes where the enemy faces no one */
	for (int p = 0; p < b->npos && nopt < MAX_OPTIONS; p++) {
		if (p == pos || their_ln->n[p] == 0)
			continue;
		if (mine_ln->n[p] == 0)
			return (move_option){MOVE_POSITION, p, ""};
		nopt++;
	}
	return stay;
}

/* Stack k's move. */
static IN_LINE void move_stack(battle *b, int s, int k)
{
	const fray_adbg_scenario *sc = b->sc;
	move_option o;
	char lab[100];
	move_menu menu; /* holds the words o.label may point to */
	if (b->direct) {
		o = direct_move(b, s, k);
		lab[0] = '\0'; /* nobody reads it */
	} else {
		options_for(b, s, k, &menu);
		if (menu.n == 1)
			return; /* staying, unasked */
		const char *words_of[MAX_OPTIONS];
		const char *const *labels = no_words;
		if (b->labels) {
			for (int i = 0; i < menu.n; i++)
				words_of[i] = menu.opt[i].label;
			labels = words_of;
		}
		char prompt[160];
		stack_label(b, s, k, lab, sizeof lab);
		label(b, prompt, sizeof prompt, "%s: what does %s do?", side_name(b, s), lab);
		o = menu.opt[decide(b, s, "adbg.move", prompt, labels, (size_t)menu.n, menu.suggest)];
	}
	if (o.kind == MOVE_STAY)
		return;
	note(b, NULL, "%s: %s tries to move: %s", side_name(b, s), lab, o.label);
	fray_adbg_move_in in = {
		.level = sc->side[s].level,
		.leader = stack_leader(b, s, k),
		.terrain = sc->terrain,
		.severe = sc->severe,
		.enemy_atop = o.kind == MOVE_AVOID,
		.surprise_winner_round1 = b->round == 1 && sc->surprised == 1 - s,
		/* the stack moves as one: its slowest unit sets the DRM */
		.regular = has_type(b, s, k, is_regular),
		.non_warrior = has_type(b, s, k, is_non_warrior),
	};
	bool moved;
	if (b->fast) { /* the face against the procedure's faces, as a mask */
		moved = frayi_d6_in(b->fast, (1u << frayi_adbg_move_faces(&in)) - 1);
	} else {
		fray_adbg_move_out out;
		fray_adbg_move(b->r, &in, &out);
		moved = out.moved;
	}
	b->st[s][k].moved = true;
	if (!moved)
		return;
	if (o.kind == MOVE_AVOID) {
		int atk[MAX_STACKS], natk = attackers_of(b, s, k, atk);
		for (int i = 0; i < natk; i++)
			return_home(b, 1 - s, atk[i]);
		note(b, "ADBG 19.2.2", "the melee is avoided: the attackers go back to their row");
		return;
	}
	int m = movers(b, s, k);
	if (m < 0) {
		note(b, NULL, "no room to split the stack: it stays");
		return;
	}
	bstack *ms = &b->st[s][m];
	ms->moved = true;
	switch (o.kind) {
	case MOVE_ATTACK:
		ms->home_pos = ms->pos;
		ms->home_row = ms->row;
		ms->atop = true;
		b->atop[s] |= (uint64_t)1 << m;
		ms->foe = (int16_t)o.arg;
		break;
	case MOVE_FRONT:
		ms->row = 0;
		break;
	case MOVE_BACK:
		ms->row = 1000;
		break;
	case MOVE_POSITION:
		if (o.arg < 0) { /* a position walked alone: the reserve leaves it */
			walk_depart(b, s, m);
			return;
		}
		ms->pos = (int16_t)o.arg;
		ms->row = 1000;
		ms->origin = -1;
		break;
	default:
		break;
	}
	if (ms->origin >= 0 && o.kind != MOVE_ATTACK)
		ms->origin = -1;
	line_changed(b, s);
	tidy(b);
}

static void movement_phase(battle *b, int s)
{
	note(b, "ADBG 19.2.2", "-- movement: %s --", side_name(b, s));
	bool surprised = b->round == 1 && b->sc->surprised == s;
	if (surprised)
		note(b, "ADBG 19.2.2", "taken by surprise: only stacks with a leader may move in round 1");
	for (int p = 0; p < b->npos; p++) {
		/* the column as it stands when its turn comes */
		const lineup *ln = line_of(b, s);
		int col[MAX_STACKS], n = ln->n[p];
		for (int i = 0; i < n; i++) /* columns are short: no memcpy call */
			col[i] = ln->k[p][i];
		for (int i = 0; i < n; i++) {
			int k = col[i];
			if (!b->st[s][k].used || b->st[s][k].moved || b->st[s][k].atop)
				continue;
			if (surprised && stack_leader(b, s, k) == 0)
				continue;
			move_stack(b, s, k);
		}
	}
}

/* ---- 19.2.3 melee ---- */

/* Eliminates n of the engaged units, the owner choosing (ruling R8). */
static void lose_units(battle *b, int s, int *units, int n, int loss)
{
	for (int lost = 0; lost < loss && n > 0; lost++) {
		char labels[FRAY_ADBG_MAX_UNITS][80];
		const char *opts[FRAY_ADBG_MAX_UNITS];
		size_t best = 0;
		for (int i = 0; i < n; i++) {
			const adbg_unit_def *u = &b->u[s][units[i]];
			label(b, labels[i], sizeof labels[i], "%s (%s, melee %d)", u->name,
				 fray_adbg_status_names[u->status], u->melee);
			opts[i] = labels[i];
			const adbg_unit_def *bu = &b->u[s][units[best]];
			/* heuristic: give up the weakest, a disrupted one first */
			if (frayi_adbg_gives_up_before((int)u->status, u->melee, (int)bu->status, bu->melee))
				best = (size_t)i;
		}
		char prompt[96];
		label(b, prompt, sizeof prompt, "%s: which unit is eliminated?", side_name(b, s));
		size_t c = decide(b, s, "adbg.loss", prompt, opts, (size_t)n, best);
		set_unit(b, s, units[c], b->u[s][units[c]].stack, FRAY_ADBG_ELIMINATED);
		if (b->tell)
			fray_emit_result(b->r, b->u[s][units[c]].name, FRAY_ADBG_ELIMINATED,
					 "eliminated", "ADBG 19.2.3");
		units[c] = units[--n];
	}
}

static void apply_melee_loss(battle *b, int s, int k, int loss)
{
	int u[FRAY_ADBG_MAX_UNITS], n = 0, all[FRAY_ADBG_MAX_UNITS], na = stack_units(b, s, k, all);
	for (int i = 0; i < na; i++)
		if (b->u[s][all[i]].status != FRAY_ADBG_ROUTED)
			u[n++] = all[i];
	if (loss == FRAY_ADBG_ROUTE_ALL) {
		for (int i = 0; i < n; i++) {
			set_unit(b, s, u[i], b->u[s][u[i]].stack, FRAY_ADBG_REMOVED);
			if (b->tell)
				fray_emit_result(b->r, b->u[s][u[i]].name, FRAY_ADBG_REMOVED,
						 "routed and removed from the battle", "ruling R8");
		}
		return;
	}
	lose_units(b, s, u, n, loss);
}

static void melee(battle *b, int s, int k)
{
	const fray_adbg_scenario *sc = b->sc;
	int e = 1 - s, d = b->st[s][k].foe;
	char alab[160], dlab[160];
	stack_label(b, s, k, alab, sizeof alab);
	stack_label(b, e, d, dlab, sizeof dlab);
	note(b, NULL, "%s: %s attacks %s", side_name(b, s), alab, dlab);
	int aact, dact;
	bool adis, ddis;
	int64_t acf = melee_cf(b, s, k, &aact, &adis);
	int64_t dcf = melee_cf(b, e, d, &dact, &ddis);
	if (dact == 0) {
		int u[FRAY_ADBG_MAX_UNITS], n = stack_units(b, e, d, u);
		note(b, "ADBG 19.2.3", "every defender is routed: all are eliminated, no roll");
		for (int i = 0; i < n; i++) {
			set_unit(b, e, u[i], b->u[e][u[i]].stack, FRAY_ADBG_ELIMINATED);
			if (b->tell)
				fray_emit_result(b->r, b->u[e][u[i]].name, FRAY_ADBG_ELIMINATED,
						 "eliminated", "ADBG 19.2.3");
		}
		return;
	}
	if (b->tell) {
		tell_melee_cf(b, s, k, "attackers' melee CF", acf);
		tell_melee_cf(b, e, d, "defenders' melee CF", dcf);
	}
	int alevel = sc->side[s].level, dlevel = sc->side[e].level;
	fray_adbg_melee_in in = {
		.crt = &sc->crt, .attack = acf, .defend = dcf,
		.drm = fray_adbg_melee_drm(alevel, dlevel),
		.attacker_leader = stack_leader(b, s, k), .defender_leader = stack_leader(b, e, d),
		.defender_disrupted = ddis, .surprise = b->round == 1 && sc->surprised == e,
		.from_levels = true, .attacker_level = alevel, .defender_level = dlevel};
	fray_adbg_melee_out out;
	fray_adbg_melee(b->r, &in, &out);
	apply_melee_loss(b, s, k, out.attacker_loss);
	apply_melee_loss(b, e, d, out.defender_loss);
	/* G2, 9.5.12: leaders in the melee whose side took a numbered or R result */
	if (out.attacker_loss != 0)
		leader_loss(b, s, k, &sc->loss_melee, "ADBG 19.2.3, 9.5.12 (G2)");
	if (out.defender_loss != 0)
		leader_loss(b, e, d, &sc->loss_melee, "ADBG 19.2.3, 9.5.12 (G2)");
}

/* The melee phase a stack at a time: step i * MAX_STACKS + k is stack k
 * of the side that moves i-th (the initiative's first), and the last step,
 * MELEE_DONE, tidies. Only the steps of stacks atop an enemy are taken
 * (next_melee), each fighting its melee and going home. */
enum { MELEE_DONE = 2 * MAX_STACKS };

static int melee_side(const battle *b, int step)
{
	return step < MAX_STACKS ? b->sc->initiative : 1 - b->sc->initiative;
}

/* The first step from `from` on whose stack is atop an enemy, or
 * MELEE_DONE: the set bits of each side's atop mask, in order. */
static int next_melee(const battle *b, int from)
{
	for (int half = from / MAX_STACKS; half < 2; half++) {
		int s = melee_side(b, half * MAX_STACKS), first = half == from / MAX_STACKS ? from % MAX_STACKS : 0;
		for (uint64_t m = b->atop[s] >> first << first; m; m &= m - 1) {
			int k = __builtin_ctzll(m);
			if (k < b->nst[s] && b->st[s][k].used)
				return half * MAX_STACKS + k;
		}
	}
	return MELEE_DONE;
}

static void melee_step(battle *b, int step)
{
	if (step == MELEE_DONE) {
		tidy(b);
		return;
	}
	int s = melee_side(b, step), k = step % MAX_STACKS;
	if (!b->melee_told)
		note(b, "ADBG 19.2.3", "-- melee --");
	b->melee_told = true;
	if (stack_alive(b, s, k) && stack_alive(b, 1 - s, b->st[s][k].foe))
		melee(b, s, k);
	/* survivors go back to the row they came from */
	return_home(b, s, k);
}

/* ---- 19.2.4 recovery ---- */

/* Unit i of side s tries to recover: one step of the side's recovery
 * phase (units recover one by one, none changing another's chance). */
static IN_LINE void recovery_step(battle *b, int s, int i)
{
	if (i == 0)
		b->recovery_told = false;
	adbg_unit_def *u = &b->u[s][i];
	if (u->status != FRAY_ADBG_DISRUPTED && u->status != FRAY_ADBG_ROUTED)
		return;
	if (!b->recovery_told)
		note(b, "ADBG 19.2.4", "-- recovery: %s --", side_name(b, s));
	b->recovery_told = true;
	note(b, NULL, "%s (%s) tries to recover", u->name, fray_adbg_status_names[u->status]);
	fray_adbg_recover_in in = {b->sc->side[s].level, stack_leader(b, s, u->stack)};
	bool recovered;
	if (b->fast) { /* the face against the procedure's faces, as a mask */
		recovered = frayi_d6_in(b->fast, (1u << frayi_adbg_recover_faces(&in)) - 1);
	} else {
		fray_adbg_recover_out out;
		fray_adbg_recover(b->r, &in, &out);
		recovered = out.recovered;
	}
	if (recovered) {
		set_unit(b, s, i, u->stack, (fray_adbg_status)(u->status - 1));
		if (b->tell)
			fray_emit_result(b->r, u->name, u->status,
					 fray_adbg_status_names[u->status], "ADBG 19.2.4");
	}
}

/* ---- 19.3 end of battle (G3) ---- */

/* A routed unit's fate at the end (19.3, 9.6 as G3 gives it): true when
 * it is eliminated. Its own roll, the scenario's check: nothing else is
 * read (exact odds roll it a position at a time: battle_convolve). */
static bool routed_fate(battle *b, int s, int i)
{
	const fray_adbg_scenario *sc = b->sc;
	const adbg_unit_def *u = &b->u[s][i];
	bool gone = sc->routed == ADBG_ROUTED_ELIMINATED;
	if (sc->routed == ADBG_ROUTED_ROLL) {
		int64_t total;
		char what[96];
		label(b, what, sizeof what, "routed %s", u->name);
		gone = check_roll(b, &sc->routed_check, what, &total);
		if (b->tell) {
			char faces[64];
			check_faces(&sc->routed_check, faces, sizeof faces);
			note(b, "ADBG 19.3, 9.6 (G3)", "routed %s %s (eliminated on %s)", u->name,
			     gone ? "is eliminated" : "survives", faces);
		}
	} else if (gone) {
		note(b, "ADBG 19.3, 9.6 (G3)", "routed %s is eliminated", u->name);
	}
	return gone;
}

static void end_battle(battle *b, fray_adbg_result *res)
{
	const fray_adbg_scenario *sc = b->sc;
	note(b, "ADBG 19.3", "-- end of battle --");
	for (int s = 0; s < 2; s++)
		for (int i = 0; i < sc->side[s].nunits; i++) {
			adbg_unit_def *u = &b->u[s][i];
			/* ruling R30: a unit removed by a melee R is "not considered
			 * eliminated (yet)": routed, it meets the routed units' fate */
			if (u->status != FRAY_ADBG_ROUTED && u->status != FRAY_ADBG_REMOVED)
				continue;
			if (routed_fate(b, s, i))
				set_unit(b, s, i, u->stack, FRAY_ADBG_ELIMINATED);
		}
	memset(res, 0, sizeof *res);
	res->rounds = b->rounds;
	for (int s = 0; s < 2; s++) {
		for (int i = 0; i < sc->side[s].nunits; i++)
			res->side[s].count[b->u[s][i].status]++;
		for (int l = 0; l < sc->side[s].nleaders; l++)
			res->side[s].leaders_lost += b->llost[s][l];
	}
	frayi_adbg_tally(sc, res);
	if (res->winner >= 0)
		note(b, "ADBG 19.3, 9.6 (G3)", "%s wins (%s)", side_name(b, res->winner),
		     sc->victory == ADBG_VICTORY_LOSSES ? "fewer losses" : "more units standing");
	else
		note(b, "ADBG 19.3, 9.6 (G3)", "a draw");
}

/* The scenario's units and leaders, nothing derived yet. */
static void battle_copy(battle *b, const fray_adbg_scenario *sc)
{
	memset(b, 0, offsetof(battle, u));
	b->sc = sc;
	for (int s = 0; s < 2; s++) {
		memcpy(b->u[s], sc->side[s].units, (size_t)sc->side[s].nunits * sizeof b->u[s][0]);
		for (int l = 0; l < sc->side[s].nleaders; l++)
			b->lstack[s][l] = sc->side[s].leaders[l].stack;
	}
	b->round = 1;
}

static void battle_init(battle *b, const fray_adbg_scenario *sc)
{
	battle_copy(b, sc);
	index_units(b);
}

static void attach(battle *b, fray_roller *r, fray_policy *p)
{
	b->r = r;
	b->p = p;
	b->tell = fray_roller_narrating(r);
	b->labels = b->tell || !fray_policy_suggestion_only(p);
	b->direct = !b->labels && fray_policy_takes_suggestion(p);
	/* direct: no policy is asked, so nothing stops the roller mid-run */
	b->fast = b->direct ? frayi_roller_fast_rng(r) : NULL;
}

/* ADBG 19.1: the rounds, then the array. */
static void battle_begin(battle *b)
{
	const fray_adbg_scenario *sc = b->sc;
	note(b, NULL, "%s: %s against %s, %s%s", sc->name, sc->side[0].name, sc->side[1].name,
	     fray_adbg_terrain_names[sc->terrain], sc->severe ? ", severe weather" : "");
	determine_rounds(b);
	array_forces(b);
	tidy(b);
	tell_line(b);
}

/* ADBG 19.2: the sequence of play, a step at a time: a fire phase one
 * position after another, the melee phase one attacking stack after
 * another, a recovery phase one unit after another, movement whole
 * (exact odds merge the battles that stand alike between two steps). */
enum { ROUND_PHASES = 7 };

static int phase_steps(const battle *b, int phase)
{
	int ini = b->sc->initiative;
	switch (phase) {
	case 0:
	case 1:
		return b->npos;
	case 4:
		return MELEE_DONE + 1;
	case 5:
		return b->sc->side[ini].nunits;
	case 6:
		return b->sc->side[1 - ini].nunits;
	default:
		return 1;
	}
}

static void battle_step(battle *b, int phase, int step)
{
	int ini = b->sc->initiative;
	bool last = step == phase_steps(b, phase) - 1;
	switch (phase) {
	case 0:
		if (step == 0) {
			note(b, "ADBG 19.2", "== round %d of %d ==", b->round, b->rounds);
			for (int s = 0; s < 2; s++)
				for (int k = 0; k < b->nst[s]; k++)
					b->st[s][k].moved = false;
		}
		fire_step(b, ini, step);
		break;
	case 1:
		fire_step(b, 1 - ini, step);
		if (last)
			tidy(b);
		break;
	case 2:
		movement_phase(b, ini);
		break;
	case 3:
		movement_phase(b, 1 - ini);
		b->melee_told = false;
		break;
	case 4:
		melee_step(b, step);
		break;
	case 5:
		recovery_step(b, ini, step);
		break;
	case 6:
		recovery_step(b, 1 - ini, step);
		if (last) {
			/* no tidy here: recovery changes no unit's place in line (a
			 * routed unit that recovers stays in its stack), and
			 * the melee phase tidied */
			tell_line(b);
			b->round++;
		}
		break;
	}
}

/* The next step after (phase, step); in the melee phase, the next
 * stack that attacks, or the tidy at its end. */
static void next_step(const battle *b, int *phase, int *step)
{
	if (*phase == 4 && *step < MELEE_DONE) {
		*step = next_melee(b, *step + 1);
		return;
	}
	if (++*step < phase_steps(b, *phase))
		return;
	*step = 0;
	do /* a side with no unit has no recovery step */
		*phase = (*phase + 1) % ROUND_PHASES;
	while (phase_steps(b, *phase) == 0);
	if (*phase == 4)
		*step = next_melee(b, 0);
}

/* A round without the step machine, for a battle taking its choices
 * unasked and untold (a simulation with the heuristic): battle_round's
 * steps in the same order, the melee's attackers from the atop masks, and
 * recovery steps only for units with something to recover (the others'
 * steps do nothing; the last, which ends the round, is always taken). */
static void whole_round(battle *b)
{
	int ini = b->sc->initiative;
	fray_roller *r = b->r;
	/* phases 0 and 1 (battle_step's case 0 and 1): fire, a position at a time */
	for (int f = 0; f < 2; f++) {
		int s = f ? 1 - ini : ini;
		for (int p = 0; p < b->npos; p++) {
			if (fray_roller_stopped(r))
				return;
			if (f == 0 && p == 0)
				for (int t = 0; t < 2; t++)
					for (int k = 0; k < b->nst[t]; k++)
						b->st[t][k].moved = false;
			fire_step(b, s, p);
		}
	}
	if (b->npos > 0)
		tidy(b);
	/* phases 2 and 3: movement */
	if (fray_roller_stopped(r))
		return;
	movement_phase(b, ini);
	if (fray_roller_stopped(r))
		return;
	movement_phase(b, 1 - ini);
	b->melee_told = false;
	/* phase 4: melee */
	for (int step = next_melee(b, 0);; step = next_melee(b, step + 1)) {
		if (fray_roller_stopped(r))
			return;
		melee_step(b, step);
		if (step == MELEE_DONE)
			break;
	}
	/* phases 5 and 6: recovery, only for units with something to recover
	 * (the others' steps do nothing; the last, which ends the round, is
	 * always taken) */
	for (int f = 0; f < 2; f++) {
		int s = f ? 1 - ini : ini, n = b->sc->side[s].nunits;
		for (int step = 0; step < n; step++) {
			fray_adbg_status st = b->u[s][step].status;
			bool last = f == 1 && step == n - 1;
			if (st != FRAY_ADBG_DISRUPTED && st != FRAY_ADBG_ROUTED && !last)
				continue;
			if (fray_roller_stopped(r))
				return;
			recovery_step(b, s, step);
			if (last) {
				tell_line(b);
				b->round++;
			}
		}
	}
}

static void battle_round(battle *b)
{
	if (b->direct) {
		whole_round(b);
		return;
	}
	int round = b->round, phase = 0, step = 0;
	while (b->round == round && !fray_roller_stopped(b->r)) {
		battle_step(b, phase, step);
		next_step(b, &phase, &step);
	}
}

/* ---- the set-up made once per scenario (issue #33 item 4) ---- */

static size_t battle_bytes(const fray_adbg_scenario *sc);
static void battle_save(const battle *b, unsigned char *dst);
static void battle_load(battle *b, const fray_adbg_scenario *sc, const unsigned char *src);

/* The set-up's bytes: the battle, then (aligned) the fast path's state. */
static size_t fast_offset(const fray_adbg_scenario *sc)
{
	return (battle_bytes(sc) + 15) & ~(size_t)15;
}

size_t frayi_adbg_setup_size(const fray_adbg_scenario *sc)
{
	return fast_offset(sc) + sizeof(adbg_fast);
}

/* The fast path's state (battle_fast.h) from the set-up battle b: what
 * never changes, derived once (the rounds' choice, the dice's face masks
 * by case, through the procedures' own targets), and what changes, as
 * masks. */
static void fast_make(const battle *b, adbg_fast *f)
{
	const fray_adbg_scenario *sc = b->sc;
	memset(f, 0, sizeof *f);
	f->ok = sc->loss_fire.fast_dice && sc->loss_melee.fast_dice &&
		(sc->routed != ADBG_ROUTED_ROLL || sc->routed_check.fast_dice) &&
		b->npos <= FRAY_ADBG_MAX_STACKS;
	f->npos = b->npos;
	f->initiative = sc->initiative;
	f->surprised = sc->surprised;
	/* determine_rounds, as the heuristic answers it unasked */
	int ini = sc->initiative, other = 1 - ini;
	int other_rating = sc->side[other].leaders[0].rating;
	f->attempt = strength(b, other) >= strength(b, ini) && other_rating > 1;
	fray_adbg_rounds_in rin = {sc->side[ini].leaders[0].rating, f->attempt, other_rating};
	f->base_rounds = rin.initiative_rating;
	f->extra_faces = (1u << frayi_adbg_extra_round_faces(&rin)) - 1;
	for (int s = 0; s < 2; s++) {
		const adbg_side_def *sd = &sc->side[s];
		fast_const *c = &f->c[s];
		fast_side *d = &f->start[s];
		c->nunits = sd->nunits;
		c->nleaders = sd->nleaders;
		c->units = sd->nunits >= 32 ? ~0u : ((uint32_t)1 << sd->nunits) - 1;
		for (int l = 0; l < sd->nleaders; l++) {
			f->ok &= sd->leaders[l].rating >= 0 && sd->leaders[l].rating < FAST_RATINGS;
			c->rating[l] = (int8_t)sd->leaders[l].rating;
			d->llost |= (uint8_t)(b->llost[s][l] << l);
			if (!b->llost[s][l] && b->lstack[s][l] >= 0)
				d->lm[b->lstack[s][l]] |= (uint8_t)(1u << l);
		}
		for (unsigned m = 1; m < 1u << FRAY_ADBG_MAX_LEADERS; m++) {
			int l = __builtin_ctz(m), rest = c->best[m & (m - 1)];
			c->best[m] = (uint8_t)(l < sd->nleaders && c->rating[l] > rest ? c->rating[l] : rest);
		}
		for (int i = 0; i < sd->nunits; i++) {
			const adbg_unit_def *u = &b->u[s][i];
			c->melee_cf[i] = u->melee_cf;
			c->melee[i] = (int8_t)u->melee;
			c->fire_faces[i] = sd->fire_faces[i];
			c->regular |= (uint32_t)(u->type == FRAY_ADBG_REGULAR) << i;
			c->warrior |= (uint32_t)(u->type == FRAY_ADBG_WARRIOR) << i;
			d->status[i] = (uint8_t)u->status;
			d->ustack[i] = (int8_t)u->stack;
		}
		for (int r = 0; r < FAST_RATINGS; r++) {
			fray_adbg_recover_in rec = {sd->level, r};
			c->recover[r] = (uint8_t)((1u << frayi_adbg_recover_faces(&rec)) - 1);
			for (int x = 0; x < 16; x++) {
				fray_adbg_move_in in = {.level = sd->level, .leader = r,
							.terrain = sc->terrain, .severe = sc->severe,
							.regular = x & 1, .non_warrior = x >> 1 & 1,
							.enemy_atop = x >> 2 & 1,
							.surprise_winner_round1 = x >> 3 & 1};
				c->move[r][x & 1][x >> 1 & 1][x >> 2 & 1][x >> 3 & 1] =
					(uint8_t)((1u << frayi_adbg_move_faces(&in)) - 1);
			}
		}
		c->melee_drm = fray_adbg_melee_drm(sd->level, sc->side[1 - s].level);
		for (int k = 0; k < MAX_STACKS; k++) {
			const bstack *st = &b->st[s][k];
			f->ok &= st->pos >= 0 && st->pos < FRAY_ADBG_MAX_STACKS;
			d->in_stack[k] = b->in_stack[s][k];
			d->used |= (uint32_t)st->used << k;
			d->atop |= (uint32_t)st->atop << k;
			d->moved |= (uint32_t)st->moved << k;
			d->row[k] = st->row;
			d->home_row[k] = st->home_row;
			d->pos[k] = (int8_t)st->pos;
			d->foe[k] = (int8_t)st->foe;
			d->home_pos[k] = (int8_t)st->home_pos;
			d->origin[k] = (int8_t)st->origin;
			if (st->pos >= 0 && st->pos < FRAY_ADBG_MAX_STACKS)
				d->posm[st->pos] |= (uint32_t)1 << k;
		}
		d->alive = (uint32_t)b->alive[s];
		d->normal = b->normal[s];
		d->routed = b->routed[s];
		d->untidy = b->tidy_ok[s] ? 0 : ((uint32_t)1 << b->npos) - 1;
		lineup ln;
		build_line(b, s, &ln);
		for (int p = 0; p < FRAY_ADBG_MAX_STACKS; p++)
			d->front[p] = (int8_t)(p < b->npos && ln.n[p] ? ln.k[p][0] : -1);
	}
	frayi_adbg_fast_finish(f);
}

/* A battle taking the heuristic's suggestions unasked (direct) arrays its
 * forces the same way every time: the array depends on the scenario alone
 * (19.1, ruling R3; no die is rolled). Made once when the scenario is read
 * (scenario.c), as bytes, and copied for each such battle instead of
 * being worked out again; the rounds, whose roll comes first, are not in
 * it. */
void frayi_adbg_setup_make(const fray_adbg_scenario *sc, unsigned char *dst)
{
	battle b;
	battle_init(&b, sc);
	b.direct = true; /* not told, nobody asked: decide() takes the suggestion */
	array_forces(&b);
	tidy(&b);
	/* the lines are not in the bytes: built again on need */
	b.line_ok[0] = b.line_ok[1] = false;
	battle_save(&b, dst);
	fast_make(&b, (adbg_fast *)(void *)(dst + fast_offset(sc)));
}

/* The battle set up for r and p: copied from the scenario's set-up when
 * it takes the suggestions unasked, else arrayed afresh (told, asked). */
static void battle_set_up(battle *b, const fray_adbg_scenario *sc, fray_roller *r, fray_policy *p)
{
	attach(b, r, p);
	if (b->direct && sc->setup) {
		battle_load(b, sc, sc->setup);
		attach(b, r, p);
		determine_rounds(b); /* the set-up's one roll, before the array as in battle_begin */
		return;
	}
	battle_init(b, sc);
	attach(b, r, p);
	battle_begin(b);
}

FRAY_API void fray_adbg_battle(fray_roller *r, fray_policy *p,
			       const fray_adbg_scenario *sc, fray_adbg_result *res)
{
	/* attach()'s direct and fast, asked before a battle is made: the
	 * fast path's battle (battle_fast.c) when the scenario allows it */
	fray_rng *fast;
	if (sc->setup && !fray_roller_narrating(r) && fray_policy_suggestion_only(p) &&
	    fray_policy_takes_suggestion(p) && (fast = frayi_roller_fast_rng(r))) {
		const adbg_fast *f = (const adbg_fast *)(const void *)(sc->setup + fast_offset(sc));
		if (f->ok) {
			frayi_adbg_fast_battle(sc, f, fast, res);
			return;
		}
	}
	battle b;
	battle_set_up(&b, sc, r, p);
	while (b.round <= b.rounds && !fray_roller_stopped(r))
		battle_round(&b);
	end_battle(&b, res);
}

/* ---- a battle in progress, to stop between rounds and go on later ---- */

struct fray_adbg_battle_state {
	fray_ctx *ctx;
	battle b;
};

FRAY_API fray_adbg_battle_state *fray_adbg_battle_new(fray_ctx *ctx,
						      const fray_adbg_scenario *sc)
{
	fray_adbg_battle_state *st = frayi_alloc(ctx, sizeof *st);
	if (!st) {
		frayi_nomem(ctx);
		return NULL;
	}
	st->ctx = ctx;
	battle_init(&st->b, sc);
	return st;
}

FRAY_API void fray_adbg_battle_free(fray_adbg_battle_state *st)
{
	if (st)
		frayi_dealloc(st->ctx, st);
}

FRAY_API void fray_adbg_battle_begin(fray_adbg_battle_state *st, fray_roller *r,
				     fray_policy *p)
{
	attach(&st->b, r, p);
	battle_begin(&st->b);
}

FRAY_API bool fray_adbg_battle_round(fray_adbg_battle_state *st, fray_roller *r,
				     fray_policy *p)
{
	attach(&st->b, r, p);
	if (st->b.round > st->b.rounds || fray_roller_stopped(r))
		return false;
	battle_round(&st->b);
	return true;
}

FRAY_API int fray_adbg_battle_next_round(const fray_adbg_battle_state *st)
{
	return st->b.round <= st->b.rounds ? st->b.round : 0;
}

FRAY_API void fray_adbg_battle_finish(fray_adbg_battle_state *st, fray_roller *r,
				      fray_policy *p, fray_adbg_result *res)
{
	attach(&st->b, r, p);
	end_battle(&st->b, res);
}

FRAY_API void fray_adbg_battle_resumed(fray_adbg_battle_state *st, fray_roller *r)
{
	attach(&st->b, r, NULL);
	note(&st->b, NULL, "%s: resumed before round %d of %d", st->b.sc->name,
	     st->b.round, st->b.rounds);
	tell_line(&st->b);
}

/* The state between rounds as YAML: what changes in a battle (unit status
 * and stack, stacks' places, leaders) and the round. */
FRAY_API size_t fray_adbg_battle_save(const fray_adbg_battle_state *st, char *dst, size_t cap)
{
	const battle *b = &st->b;
	size_t len = 0;
#define PUT(...) (len += (size_t)snprintf(len < cap ? dst + len : NULL, len < cap ? cap - len : 0, __VA_ARGS__))
	PUT("round: %d\nrounds: %d\npositions: %d\nsides:\n", b->round, b->rounds, b->npos);
	for (int s = 0; s < 2; s++) {
		PUT("  - units: [");
		for (int i = 0; i < b->sc->side[s].nunits; i++)
			PUT("%s[%d, %d]", i ? ", " : "", (int)b->u[s][i].status, b->u[s][i].stack);
		PUT("]\n    stacks: [");
		int n = 0;
		for (int k = 0; k < MAX_STACKS; k++)
			if (b->st[s][k].used)
				PUT("%s[%d, %d, %d]", n++ ? ", " : "", k, b->st[s][k].pos, b->st[s][k].row);
		PUT("]\n    leaders: [");
		for (int l = 0; l < b->sc->side[s].nleaders; l++)
			PUT("%s[%d, %d]", l ? ", " : "", b->lstack[s][l], (int)b->llost[s][l]);
		PUT("]\n");
	}
#undef PUT
	return len;
}

/* [a, b, ...] of whole numbers into v; false with an error on doc. */
static bool read_tuple(fray_doc *doc, const fray_node *n, int len, const int64_t *lo,
		       const int64_t *hi, int *v)
{
	if (!fray_doc_expect(doc, n, FRAY_NODE_SEQ, "a list") )
		return false;
	if ((int)fray_node_len(n) != len) {
		fray_doc_error(doc, n, "expected %d numbers", len);
		return false;
	}
	for (int i = 0; i < len; i++) {
		int64_t x;
		if (!fray_doc_int(doc, fray_node_item(n, (size_t)i), lo[i], hi[i], "a saved value", &x))
			return false;
		v[i] = (int)x;
	}
	return true;
}

FRAY_API bool fray_adbg_battle_restore(fray_adbg_battle_state *st, fray_doc *doc,
				       const fray_node *n)
{
	battle *b = &st->b;
	const fray_adbg_scenario *sc = b->sc;
	size_t before = fray_doc_error_count(doc);
	if (!fray_doc_expect(doc, n, FRAY_NODE_MAP, "a saved battle state"))
		return false;
	int64_t v;
	const fray_node *x;
	if ((x = fray_doc_field(doc, n, "rounds", true)) && fray_doc_int(doc, x, 1, 4, "rounds", &v))
		b->rounds = (int)v;
	if ((x = fray_doc_field(doc, n, "round", true)) &&
	    fray_doc_int(doc, x, 1, b->rounds + 1, "the next round", &v))
		b->round = (int)v;
	/* a save is checked as strictly as a scenario: no unknown key, every
	 * index in range, every count the scenario's, every unit in line in a
	 * stack the save has (a hand-edited save must not change the battle
	 * by what it leaves out; n may hold other keys of the caller's, who
	 * checks them) */
	int npos = sc->side[first_to_set_up(sc)].nstacks;
	if ((x = fray_doc_field(doc, n, "positions", true)) &&
	    fray_doc_int(doc, x, npos, npos, "the number of positions (one per stack of the side that "
			 "sets up first)", &v))
		b->npos = (int)v;
	const fray_node *sides = fray_doc_field(doc, n, "sides", true);
	if (!sides || !fray_doc_expect(doc, sides, FRAY_NODE_SEQ, "both sides") ||
	    fray_node_len(sides) != 2) {
		if (sides)
			fray_doc_error(doc, sides, "expected both sides");
		return false;
	}
	for (int s = 0; s < 2; s++) {
		const fray_node *side = fray_node_item(sides, (size_t)s);
		if (!fray_doc_expect(doc, side, FRAY_NODE_MAP, "a saved side"))
			return false;
		static const char *const side_keys[] = {"units", "stacks", "leaders"};
		fray_doc_known_keys(doc, side, side_keys, 3);
		const fray_node *units = fray_doc_field(doc, side, "units", true);
		const fray_node *stacks = fray_doc_field(doc, side, "stacks", true);
		const fray_node *leaders = fray_doc_field(doc, side, "leaders", true);
		if (!units || !stacks || !leaders ||
		    !fray_doc_expect(doc, units, FRAY_NODE_SEQ, "the saved units") ||
		    !fray_doc_expect(doc, stacks, FRAY_NODE_SEQ, "the saved stacks") ||
		    !fray_doc_expect(doc, leaders, FRAY_NODE_SEQ, "the saved leaders"))
			return false;
		if ((int)fray_node_len(units) != sc->side[s].nunits ||
		    (int)fray_node_len(leaders) != sc->side[s].nleaders) {
			fray_doc_error(doc, side, "the saved side does not match the scenario's units and leaders");
			return false;
		}
		static const int64_t ulo[] = {0, 0}, uhi[] = {4, MAX_STACKS - 1};
		for (int i = 0; i < sc->side[s].nunits; i++) {
			int t[2];
			if (read_tuple(doc, fray_node_item(units, (size_t)i), 2, ulo, uhi, t)) {
				b->u[s][i].status = (fray_adbg_status)t[0];
				b->u[s][i].stack = t[1];
			}
		}
		memset(b->st[s], 0, sizeof b->st[s]);
		b->nst[s] = 0;
		static const int64_t slo[] = {0, 0, 0};
		const int64_t shi[] = {MAX_STACKS - 1, b->npos - 1, MAX_STACKS};
		if (fray_node_len(stacks) > MAX_STACKS) {
			fray_doc_error(doc, stacks, "expected at most %d stacks", MAX_STACKS);
			return false;
		}
		for (size_t k = 0; k < fray_node_len(stacks); k++) {
			const fray_node *item = fray_node_item(stacks, k);
			int t[3];
			if (!read_tuple(doc, item, 3, slo, shi, t))
				continue;
			if (b->st[s][t[0]].used)
				fray_doc_error(doc, item, "stack %d is saved twice", t[0]);
			put_stack(b, s, t[0], (bstack){.used = true, .pos = (int16_t)t[1], .row = (int16_t)t[2], .origin = -1});
		}
		for (int i = 0; i < sc->side[s].nunits; i++)
			if (in_line(&b->u[s][i]) && !b->st[s][b->u[s][i].stack].used)
				fray_doc_error(doc, fray_node_item(units, (size_t)i),
					       "this unit is in line (not eliminated or removed) in stack %d, "
					       "which the save does not list", b->u[s][i].stack);
		static const int64_t llo[] = {-1, 0}, lhi[] = {MAX_STACKS - 1, 1};
		for (int l = 0; l < sc->side[s].nleaders; l++) {
			int t[2];
			if (read_tuple(doc, fray_node_item(leaders, (size_t)l), 2, llo, lhi, t)) {
				b->lstack[s][l] = t[0];
				b->llost[s][l] = t[1];
				if (t[0] >= 0 && !t[1] && !b->st[s][t[0]].used)
					fray_doc_error(doc, fray_node_item(leaders, (size_t)l),
						       "this leader is with stack %d, which the save does not list",
						       t[0]);
			}
		}
	}
	index_units(b);
	return fray_doc_error_count(doc) == before;
}

/* ---- exact odds: the battle between steps as a state (issue #16) ----
 * Everything a step reads that an earlier one may have changed (units,
 * stacks with this round's moves and attacks, leaders, the round), packed
 * into bytes: equal bytes, the same battle, so exact odds merge the many
 * paths that reach it and fight its next step once. The heuristic policy
 * decides from the battle alone (memoryless), which makes the merging
 * exact; the rest of struct battle is derived (the masks, the line) or
 * the scenario's.
 *
 * The bits are as few as the scenario needs (the states of a big battle
 * number in the millions and the enumerator keeps a stage's worth of
 * them: issue #33): each field as wide as its largest value in this
 * scenario allows, packed end to end (a header, then for each side its
 * units, its stack slots, its leaders). Stacks take the lowest free slot
 * and each holds a unit, so a side never uses more slots than it has
 * units or set-up stacks; a battle with a value its field cannot hold
 * would not be merged (pack says so), never merged wrongly. */
enum { STATUS_BITS = 3, FIELD_BITS_MAX = 9 }; /* a field's bits, at most */
#define KEY_MAX (8 + 2 * (FRAY_ADBG_MAX_UNITS + MAX_STACKS * 7 + FRAY_ADBG_MAX_LEADERS))
_Static_assert(KEY_MAX + 8 <= FRAY_STATE_MAX, "a battle's state (and a position's flags) fits a checkpoint");
_Static_assert(MAX_STACKS <= 32, "a unit's stack fits 5 bits");
_Static_assert(FRAY_ADBG_REMOVED < 1 << STATUS_BITS, "a status fits its bits");

/* The widths of a key's fields for one scenario. */
typedef struct key_layout {
	int slots[2];       /* stack slots of side s the key has room for */
	int stack_bits[2];  /* a unit's stack, 0 .. slots - 1 */
	int leader_bits[2]; /* a leader's stack + 1, or all ones: lost */
	int foe_bits[2];    /* the enemy stack + 1 that a stack of side s is atop */
	int pos_bits;       /* a position + 1 */
	int row_bits;       /* a row */
	size_t bytes;
} key_layout;

/* The header: round, rounds (1-4), positions (one per set-up stack of a
 * side, at most FRAY_ADBG_MAX_STACKS), phase, step (at most MELEE_DONE). */
enum { ROUND_BITS = 3, ROUNDS_BITS = 3, POSITIONS_BITS = 5, PHASE_BITS = 3, STEP_BITS = 7,
       HEAD_BITS = ROUND_BITS + ROUNDS_BITS + POSITIONS_BITS + PHASE_BITS + STEP_BITS };

/* The last round played a position at a time (split_position, below). */
enum { SPLIT_PHASE = ROUND_PHASES, /* the key's phase while a round is split */
       SPLIT_SUBS = 4,             /* a position's fire, movement, melee, recovery */
       SPLIT_FIRE = 64,            /* a step's bit: the positions left still fire */
       /* a played unit's class, as its status (off the line: in_line) */
       SPLIT_STANDING = FRAY_ADBG_REMOVED + 1, SPLIT_ROUTED, SPLIT_LOST };
_Static_assert(SPLIT_PHASE < 1 << PHASE_BITS && SPLIT_LOST < 1 << STATUS_BITS,
	       "the split round fits the key's fields");
_Static_assert(FRAY_ADBG_MAX_STACKS * SPLIT_SUBS <= SPLIT_FIRE && SPLIT_FIRE * 2 <= 1 << STEP_BITS,
	       "a split step fits the key's step");
static int split_class(fray_adbg_status st);
static bool split_stop(const battle *b, int p, int sub);

/* The bits that hold 0 .. max. */
static int bits_for(int max)
{
	int n = 0;
	while ((1 << n) <= max)
		n++;
	return n;
}

static int key_slots(const fray_adbg_scenario *sc, int s)
{
	int n = sc->side[s].nunits > sc->side[s].nstacks ? sc->side[s].nunits : sc->side[s].nstacks;
	return n < MAX_STACKS ? n : MAX_STACKS;
}

static void key_layout_of(const fray_adbg_scenario *sc, key_layout *L)
{
	int npos = sc->side[0].nstacks > sc->side[1].nstacks ? sc->side[0].nstacks : sc->side[1].nstacks;
	int most = 0;
	for (int s = 0; s < 2; s++) {
		L->slots[s] = key_slots(sc, s);
		most = L->slots[s] > most ? L->slots[s] : most;
	}
	size_t bits = ROUND_BITS + ROUNDS_BITS + POSITIONS_BITS + PHASE_BITS + STEP_BITS;
	L->pos_bits = bits_for(npos);
	L->row_bits = bits_for(most + 1);
	for (int s = 0; s < 2; s++) {
		L->stack_bits[s] = bits_for(L->slots[s] - 1);
		L->leader_bits[s] = bits_for(L->slots[s] + 1); /* all ones is above every stack + 1 */
		L->foe_bits[s] = bits_for(key_slots(sc, 1 - s));
	}
	for (int s = 0; s < 2; s++) {
		int stack = 2 + 3 * L->pos_bits + 2 * L->row_bits + L->foe_bits[s];
		bits += (size_t)(sc->side[s].nunits * (STATUS_BITS + L->stack_bits[s]) + L->slots[s] * stack +
				 sc->side[s].nleaders * L->leader_bits[s]);
	}
	L->bytes = (bits + 7) / 8;
}

/* A key written or read a field at a time, low bits first, through a
 * 64-bit window (pack runs at every stop of every path). */
typedef struct bits {
	uint8_t *k;
	const uint8_t *in;
	uint64_t acc;
	int n;     /* bits in acc */
	size_t at; /* bytes of k written or read */
	bool ok;   /* every value fitted its field */
} bits;

/* Writes v in the next n bits (n <= 32: several fields at once, put
 * together by the caller, who checks they fitted). */
static inline void put_bits(bits *w, uint64_t v, int n)
{
	w->acc |= v << w->n;
	w->n += n;
	if (w->n >= 32) {
		uint32_t word = (uint32_t)w->acc;
		memcpy(w->k + w->at, &word, 4);
		w->at += 4;
		w->acc >>= 32;
		w->n -= 32;
	}
}

/* v as a field of n bits; a value that does not fit clears ok. */
static inline uint64_t field(bits *w, int v, int n)
{
	w->ok &= (unsigned)v < 1u << n;
	return (uint64_t)(unsigned)v & ((1u << n) - 1);
}

/* n zero bits (an empty field or slot of any width). */
static inline void skip_bits(bits *w, int n)
{
	while (n > 32) {
		put_bits(w, 0, 32);
		n -= 32;
	}
	put_bits(w, 0, n);
}

/* The rest of the key, up to its size. */
static void flush_bits(bits *w, size_t bytes)
{
	while (w->at < bytes) {
		w->k[w->at++] = (uint8_t)w->acc;
		w->acc >>= 8;
	}
}

static inline int get_bits(bits *r, int n)
{
	while (r->n < n) {
		r->acc |= (uint64_t)r->in[r->at++] << r->n;
		r->n += 8;
	}
	int v = (int)(r->acc & ((1u << n) - 1));
	r->acc >>= n;
	r->n -= n;
	return v;
}

static void drop_bits(bits *r, int n)
{
	while (n > FIELD_BITS_MAX) {
		get_bits(r, FIELD_BITS_MAX);
		n -= FIELD_BITS_MAX;
	}
	get_bits(r, n);
}

static int slot_bits(const key_layout *L, int s)
{
	return 2 + 3 * L->pos_bits + 2 * L->row_bits + L->foe_bits[s];
}

/* A used stack slot of side s: used, atop, position, row, foe; home
 * position, home row, origin (what no later step reads is left out: whom a
 * stack attacked and where from once it is home, read only while atop). */
static void pack_stack(bits *w, const key_layout *L, int s, const bstack *t)
{
	int pb = L->pos_bits, rb = L->row_bits, fb = L->foe_bits[s];
	bool atop = t->atop;
	put_bits(w, 1 | (uint64_t)atop << 1 | field(w, t->pos + 1, pb) << 2 | field(w, t->row, rb) << (2 + pb) |
			    field(w, atop ? t->foe + 1 : 0, fb) << (2 + pb + rb),
		 2 + pb + rb + fb);
	put_bits(w, field(w, atop ? t->home_pos + 1 : 0, pb) | field(w, atop ? t->home_row : 0, rb) << pb |
			    field(w, t->origin + 1, pb) << (pb + rb),
		 2 * pb + rb);
}

/* What the end of a battle reads of a unit (end_battle, ADBG 19.3 and
 * 9.6 as G3 gives it): whether it stands (normal and disrupted alike: the
 * field victory counts both, the losses victory neither), is routed (by
 * fire or removed by a melee R: the same fate, ruling R30) or is
 * eliminated (a loss). */
static fray_adbg_status end_class(fray_adbg_status st)
{
	return st == FRAY_ADBG_DISRUPTED ? FRAY_ADBG_NORMAL : st == FRAY_ADBG_REMOVED ? FRAY_ADBG_ROUTED : st;
}

/* The end: only how many units of each side are in each of end_class's
 * classes is read from here on (a check a routed unit, all alike; the
 * leaders lost are not in this procedure's outcome), so each side's
 * classes go in sorted, and the places, stacks and leaders not at all. */
static void pack_end(const battle *b, const key_layout *L, bits *w)
{
	const fray_adbg_scenario *sc = b->sc;
	for (int s = 0; s < 2; s++) {
		int count[1 << STATUS_BITS] = {0};
		for (int i = 0; i < sc->side[s].nunits; i++)
			count[end_class(b->u[s][i].status)]++;
		/* in the units' fields, as unpack reads them */
		for (int v = 0; v < 1 << STATUS_BITS; v++)
			for (int c = 0; c < count[v]; c++)
				put_bits(w, (uint64_t)v, STATUS_BITS + L->stack_bits[s]);
		for (int j = 0; j < L->slots[s]; j++)
			skip_bits(w, slot_bits(L, s));
		skip_bits(w, sc->side[s].nleaders * L->leader_bits[s]);
	}
}

/* The last round from its melee phase on (ADBG 19.2.3, 19.2.4, 19.3):
 * only the stacks still to fight a melee (engaged_stacks) are read whole.
 * A unit elsewhere is read by its recovery and the end only: disrupted, it
 * may recover to normal, which the end cannot tell from disrupted
 * (end_class), so it may as well be normal already and roll nothing; a
 * routed unit's chance reads the side's level and the best leader with
 * its stack, nothing else (places, rows, the other units). */
static bool in_last_melee_on(const battle *b, int phase)
{
	return b->round == b->rounds && phase >= 4 && phase < ROUND_PHASES;
}

/* Whether atop stack k of side s, going home after its melee, joins the
 * stack it split from again (return_home's test). In the melee phase
 * nothing changes the answer: no stack moves or goes atop, and a stack is
 * dropped (tidy) only at the phase's end. */
static bool goes_home_into_origin(const battle *b, int s, int k)
{
	const bstack *st = &b->st[s][k];
	int o = st->origin;
	return o >= 0 && b->st[s][o].used && !b->st[s][o].atop && b->st[s][o].pos == st->home_pos &&
	       b->st[s][o].row == st->home_row;
}

/* The stacks of side s (bit k) that a melee step still reads in the melee
 * phase: atop an enemy (each has its step), under an enemy stack, or the
 * stack an attacker joins when it goes home (its units then share the
 * attacker's leaders). */
static uint64_t engaged_stacks(const battle *b, int s)
{
	uint64_t m = 0;
	for (uint64_t a = b->atop[s]; a; a &= a - 1) {
		int k = __builtin_ctzll(a);
		if (k >= b->nst[s] || !b->st[s][k].used)
			continue;
		m |= (uint64_t)1 << k;
		if (goes_home_into_origin(b, s, k))
			m |= (uint64_t)1 << b->st[s][k].origin;
	}
	for (uint64_t a = b->atop[1 - s]; a; a &= a - 1) {
		int k = __builtin_ctzll(a);
		if (k < b->nst[1 - s] && b->st[1 - s][k].used && b->st[s][b->st[1 - s][k].foe].used)
			m |= (uint64_t)1 << b->st[1 - s][k].foe;
	}
	return m;
}

/* The battle from the last round's melee on, written as the simplest
 * battle that goes on alike: the engaged stacks as they are in their own
 * slots, but every stack at position 1, row 1 (an attacker's return home
 * settled now: home at position 1 into its origin, or no origin); the
 * other units disrupted as normal, and the routed among them in a stack per
 * leader rating they recover with (one leader of that rating with them,
 * the other leaders of no engaged stack with none), the units with no
 * leader's help together in one more, in the lowest slots no engaged
 * stack holds. unpack reads it like any key. */
static void pack_last_melee_on(const battle *b, const key_layout *L, bits *w)
{
	const fray_adbg_scenario *sc = b->sc;
	enum { RATINGS = 4 }; /* a command rating is 1-3 (ADBG 19.1) */
	for (int s = 0; s < 2; s++) {
		uint64_t engaged = engaged_stacks(b, s), made = 0;
		int n = sc->side[s].nunits, rating[FRAY_ADBG_MAX_UNITS], slot_of[RATINGS] = {0};
		bool present[RATINGS] = {false};
		for (int i = 0; i < n; i++) {
			const adbg_unit_def *u = &b->u[s][i];
			bool settled = in_line(u) && !(engaged >> u->stack & 1);
			rating[i] = settled && u->status == FRAY_ADBG_ROUTED ? stack_leader(b, s, u->stack) : 0;
			present[rating[i]] |= settled;
		}
		for (int r = 0, j = 0; r < RATINGS; r++) {
			if (!present[r])
				continue;
			while (engaged >> j & 1)
				j++;
			slot_of[r] = j;
			made |= (uint64_t)1 << j++;
		}
		int sb = L->stack_bits[s], pb = L->pos_bits, rb = L->row_bits, fb = L->foe_bits[s];
		int lb = L->leader_bits[s];
		for (int i = 0; i < n; i++) {
			const adbg_unit_def *u = &b->u[s][i];
			fray_adbg_status st = u->status;
			int stack = 0;
			if (in_line(u) && engaged >> u->stack & 1) {
				stack = u->stack;
			} else if (in_line(u)) {
				st = st == FRAY_ADBG_DISRUPTED ? FRAY_ADBG_NORMAL : st;
				stack = slot_of[rating[i]];
			}
			put_bits(w, (uint64_t)st | field(w, stack, sb) << STATUS_BITS, STATUS_BITS + sb);
		}
		w->ok &= (engaged | made) >> L->slots[s] == 0;
		for (int j = 0; j < L->slots[s]; j++) {
			const bstack *t = &b->st[s][j];
			if (!((engaged | made) >> j & 1)) {
				skip_bits(w, slot_bits(L, s));
				continue;
			}
			if (!(engaged >> j & 1)) { /* a stack per rating: position 1, row 1 */
				put_bits(w, 1 | field(w, 1, pb) << 2 | field(w, 1, rb) << (2 + pb), 2 + pb + rb + fb);
				skip_bits(w, 2 * pb + rb);
				continue;
			}
			/* an engaged stack as it stands (pack_stack): its place is read
			 * when an attacker goes home, into the stack it split from or
			 * as a stack of its own in its row, the stacks there and
			 * behind stepping back (return_home); written all at position
			 * 1, row 1, attackers at different positions stepped each
			 * other's origins back and went home alone, away from the
			 * units they split from and their recovery with its leaders
			 * (issue 45: the exact odds of Lochry and Sandusky were off by
			 * up to 1e-5 for it) */
			pack_stack(w, L, s, t);
		}
		for (int l = 0; l < sc->side[s].nleaders; l++) {
			int r = sc->side[s].leaders[l].rating, k = b->lstack[s][l], v = 0;
			if (!b->llost[s][l] && k >= 0 && engaged >> k & 1) {
				v = k + 1;
			} else if (r > 0 && r < RATINGS && present[r]) {
				v = slot_of[r] + 1;
				present[r] = false; /* one leader of each rating */
			}
			put_bits(w, field(w, v, lb), lb);
		}
	}
}

/* False when a stack sits in a slot the key has no room for, or a value
 * does not fit its field. k has room for L->bytes + 4 bytes. */
static bool pack(const battle *b, const key_layout *L, int phase, int step, uint8_t *k)
{
	const fray_adbg_scenario *sc = b->sc;
	bits w = {.k = k, .ok = true};
	put_bits(&w, field(&w, b->round, ROUND_BITS) | field(&w, b->rounds, ROUNDS_BITS) << ROUND_BITS |
			     field(&w, b->npos, POSITIONS_BITS) << (ROUND_BITS + ROUNDS_BITS) |
			     field(&w, phase, PHASE_BITS) << (ROUND_BITS + ROUNDS_BITS + POSITIONS_BITS) |
			     field(&w, step, STEP_BITS) << (ROUND_BITS + ROUNDS_BITS + POSITIONS_BITS + PHASE_BITS),
		 HEAD_BITS);
	/* what no later step reads is left out, so that battles differing
	 * only there merge: whom a stack attacked and where from once it is
	 * home (read only while atop), which stacks have moved (a side's
	 * movement phase is one step, and reads only its own side's marks,
	 * cleared when the round began), a lost leader's stack, the stack an
	 * eliminated or removed unit was in */
	if (b->round > b->rounds) {
		pack_end(b, L, &w);
		flush_bits(&w, L->bytes);
		return w.ok;
	}
	if (in_last_melee_on(b, phase)) {
		pack_last_melee_on(b, L, &w);
		flush_bits(&w, L->bytes);
		return w.ok;
	}
	for (int s = 0; s < 2; s++) {
		int sb = L->stack_bits[s], lb = L->leader_bits[s];
		/* a split round's played units: only how many of each class
		 * (split_position), so their classes go in sorted */
		bool classes = phase == SPLIT_PHASE && b->round == b->rounds && !b->keep_ids;
		int played[1 << STATUS_BITS] = {0}, cls = SPLIT_STANDING;
		for (int i = 0; classes && i < sc->side[s].nunits; i++)
			played[split_class(b->u[s][i].status)] += !in_line(&b->u[s][i]);
		for (int i = 0; i < sc->side[s].nunits; i++) {
			const adbg_unit_def *u = &b->u[s][i];
			int st = (int)u->status;
			if (classes && !in_line(u)) {
				while (played[cls] == 0)
					cls++;
				played[cls]--;
				st = cls;
			}
			put_bits(&w, (uint64_t)st | field(&w, in_line(u) ? u->stack : 0, sb) << STATUS_BITS,
				 STATUS_BITS + sb);
		}
		for (int j = b->nst[s]; j > L->slots[s]; j--)
			if (b->st[s][j - 1].used)
				return false;
		for (int j = 0; j < L->slots[s]; j++) {
			const bstack *t = &b->st[s][j];
			if (j >= b->nst[s] || !t->used) {
				skip_bits(&w, slot_bits(L, s));
				continue;
			}
			pack_stack(&w, L, s, t);
		}
		/* a lost leader as one with no stack (unpack: -1, not lost):
		 * every read of a leader's stack asks first whether it is lost
		 * (stack_leader, leader_loss), a leader with no stack joins
		 * none again, and the leaders lost are not in this
		 * procedure's outcome */
		for (int l = 0; l < sc->side[s].nleaders; l++)
			put_bits(&w, field(&w, b->llost[s][l] ? 0 : b->lstack[s][l] + 1, lb), lb);
	}
	flush_bits(&w, L->bytes);
	return w.ok;
}

/* The step a key stands before (pack's header: round, rounds, positions,
 * phase, step). */
static void unpack_head(const uint8_t *k, int *phase, int *step)
{
	bits r = {.in = k};
	drop_bits(&r, ROUND_BITS + ROUNDS_BITS + POSITIONS_BITS);
	*phase = get_bits(&r, PHASE_BITS);
	*step = get_bits(&r, STEP_BITS);
}

/* A set-up battle as bytes: what battle_copy clears, then the units. */
static size_t battle_bytes(const fray_adbg_scenario *sc)
{
	return offsetof(battle, u) +
	       (size_t)(sc->side[0].nunits + sc->side[1].nunits) * sizeof(adbg_unit_def);
}

_Static_assert(offsetof(battle, u) + 2 * FRAY_ADBG_MAX_UNITS * sizeof(adbg_unit_def) <=
	       FRAY_SCRATCH_MAX, "a set-up battle fits the enumerator's scratch");

static void battle_save(const battle *b, unsigned char *dst)
{
	memcpy(dst, b, offsetof(battle, u));
	dst += offsetof(battle, u);
	for (int s = 0; s < 2; s++) {
		size_t n = (size_t)b->sc->side[s].nunits * sizeof b->u[s][0];
		memcpy(dst, b->u[s], n);
		dst += n;
	}
}

/* battle_save's battle, as it was: the line is built again on need. */
static void battle_load(battle *b, const fray_adbg_scenario *sc, const unsigned char *src)
{
	memcpy(b, src, offsetof(battle, u));
	src += offsetof(battle, u);
	for (int s = 0; s < 2; s++) {
		size_t n = (size_t)sc->side[s].nunits * sizeof b->u[s][0];
		memcpy(b->u[s], src, n);
		src += n;
	}
}

static void unpack(battle *b, const key_layout *L, const uint8_t *k, int *phase, int *step)
{
	const fray_adbg_scenario *sc = b->sc;
	bits r = {.in = k};
	b->round = get_bits(&r, ROUND_BITS);
	b->rounds = get_bits(&r, ROUNDS_BITS);
	b->npos = get_bits(&r, POSITIONS_BITS);
	*phase = get_bits(&r, PHASE_BITS);
	*step = get_bits(&r, STEP_BITS);
	for (int s = 0; s < 2; s++) {
		for (int i = 0; i < sc->side[s].nunits; i++) {
			b->u[s][i].status = (fray_adbg_status)get_bits(&r, STATUS_BITS);
			b->u[s][i].stack = get_bits(&r, L->stack_bits[s]);
		}
		/* b->st[s] is all zero, b->nst[s] 0: battle_copy */
		for (int j = 0; j < L->slots[s]; j++) {
			if (!get_bits(&r, 1)) {
				drop_bits(&r, slot_bits(L, s) - 1);
				continue;
			}
			bstack t = {.used = true, .atop = get_bits(&r, 1)};
			t.pos = (int16_t)(get_bits(&r, L->pos_bits) - 1);
			t.row = (int16_t)get_bits(&r, L->row_bits);
			t.foe = (int16_t)(get_bits(&r, L->foe_bits[s]) - 1);
			t.home_pos = (int16_t)(get_bits(&r, L->pos_bits) - 1);
			t.home_row = (int16_t)get_bits(&r, L->row_bits);
			t.origin = (int16_t)(get_bits(&r, L->pos_bits) - 1);
			put_stack(b, s, j, t);
		}
		for (int l = 0; l < sc->side[s].nleaders; l++) {
			int v = get_bits(&r, L->leader_bits[s]);
			b->llost[s][l] = v == (1 << L->leader_bits[s]) - 1;
			b->lstack[s][l] = b->llost[s][l] ? -1 : v - 1;
		}
	}
	index_units(b);
}

/* Whether a stack of side s at position p, not atop an enemy, holds one
 * of the units in the mask. */
static bool stands_at(const battle *b, int s, int p, uint32_t units)
{
	for (uint64_t m = b->alive[s] & ~b->atop[s]; m; m &= m - 1) {
		int k = __builtin_ctzll(m);
		if (b->st[s][k].pos == p && (b->in_stack[s][k] & units))
			return true;
	}
	return false;
}

static bool any_disrupted(const battle *b)
{
	for (int s = 0; s < 2; s++)
		for (int i = 0; i < b->sc->side[s].nunits; i++)
			if (b->u[s][i].status == FRAY_ADBG_DISRUPTED)
				return true;
	return false;
}

/* Whether exact odds stop before step (phase, step) to merge the battles
 * that stand alike there. Not when the step surely rolls no die (a fire
 * position where the side has no undisrupted unit or the enemy no unit,
 * a unit with nothing to recover, the melee phase's closing tidy):
 * between two stops a battle goes one way, so battles that meet on the
 * way still meet at the next stop, and a step without dice costs no pass
 * of its own. */
static bool stop_before(const battle *b, int phase, int step)
{
	int ini = b->sc->initiative;
	switch (phase) {
	case 0:
	case 1: {
		int s = phase == 0 ? ini : 1 - ini;
		return !fire_skipped(b, s) && stands_at(b, s, step, b->normal[s]) &&
		       stands_at(b, 1 - s, step, UINT32_MAX);
	}
	case 3:
		/* the second side moves straight after the first: the battles
		 * the first side's moves leave are all different (in the
		 * shipped examples not two of them merge), so a stop there
		 * would cost a pass and merge nothing */
		return false;
	case 4:
		return step != MELEE_DONE;
	case SPLIT_PHASE:
		return split_stop(b, (step & ~SPLIT_FIRE) / SPLIT_SUBS, step % SPLIT_SUBS);
	case 5:
	case 6: {
		int s = phase == 5 ? ini : 1 - ini;
		fray_adbg_status st = b->u[s][step].status;
		/* in the last round, a stop while a unit is disrupted: its key
		 * writes it normal (pack_last_melee_on), so battles merge and,
		 * resumed, it rolls nothing; a disrupted unit's own step is no
		 * stop then */
		if (b->round == b->rounds && any_disrupted(b))
			return true;
		return st == FRAY_ADBG_ROUTED || (st == FRAY_ADBG_DISRUPTED && b->round < b->rounds);
	}
	default:
		return true;
	}
}

/* ---- exact odds: the last round a position at a time (issue 45 item 1) ----
 *
 * In the last round nothing carries from one position to another unless a
 * stack moves between positions: fire is at the enemy of the firer's own
 * position (R4, 19.2.1) and its leader checks are the hit stack's (9.5.9);
 * a move atop, or away from those atop, is the front stack's at its own
 * position (19.2.2 c and its note; R3: a position's column); melee is
 * between the stacks atop each other, whose survivors go home to the row
 * they came from (19.2.3), its leader checks the engaged stacks' (9.5.12);
 * recovery reads the unit's side and the leader stacked with it (19.2.4,
 * R9); and the end reads only how many units of each side stand, are
 * routed or are eliminated, a routed unit's fate its own roll (19.3, 9.6 as
 * G3 gives it, R30). The dice of one position are then independent of
 * every other's, and the outcome depends on the positions only through
 * those counts: so exact odds play the last round position by position
 * (fire, movement, melee, recovery of each), and between two positions keep
 * of the ones played only each side's counts (the units' own statuses
 * written as classes, sorted: split_class), the other positions as they
 * stand. The battles that played the same positions to the same counts
 * then merge, and the paths add across positions instead of multiplying.
 *
 * The one move between positions, "opposite another enemy stack"
 * (19.2.2 b), is taken under the heuristic by a stack behind the front row
 * with an undisrupted unit (a reserve: move_stack, options_for's
 * suggestion, R6), so the round is played so only when no side has a
 * reserve then (split_ok; fire, which only hurts units, and movement,
 * whose moves atop make no reserve, never make one) and every choice is
 * the heuristic's (another policy may move anywhere). Two places are tried:
 * the round's start (with its fire) and, failing that, its movement (fire
 * may have disrupted the reserves). */
/* Whether side s may move a stack between positions in this round's
 * movement (19.2.2 b under the heuristic: a reserve, a stack behind the
 * front row with an undisrupted unit, to a position where the enemy stands
 * and s does not). Before the fire phase (fire_too), only if s has such a
 * reserve: fire may empty any column. At the movement, also not when every
 * position the enemy holds keeps a stack of s through it: two stacks or
 * more (only the front one may move atop, 19.2.2), or a front stack with a
 * unit that does not move (R6: only the undisrupted move, the rest stay),
 * the enemy having no reserve of its own to open a position with (and the
 * moves atop and away making no reserve). */
static bool moves_between(const battle *b, int s, bool fire_too)
{
	bool reserve = false;
	for (uint64_t m = b->alive[s] & ~b->atop[s]; m; m &= m - 1) {
		int k = __builtin_ctzll(m);
		reserve |= b->st[s][k].used && b->st[s][k].row > 1 && (b->in_stack[s][k] & b->normal[s]);
	}
	if (!reserve)
		return false;
	if (fire_too)
		return true;
	const lineup *mine = &b->line[s], *theirs = &b->line[1 - s];
	for (int p = 0; p < b->npos; p++) {
		if (theirs->n[p] == 0 || mine->n[p] > 1)
			continue;
		if (mine->n[p] == 0)
			return true;
		int front = mine->k[p][0];
		if ((b->in_stack[s][front] & ~b->normal[s]) == 0)
			return true;
	}
	return false;
}

/* Whether the round may be played a position at a time from here:
 * before its fire phase (phase 0) or its movement (phase 2). Any round
 * (issue 45 item 1, second pass): what the last round's argument above
 * reads of a round (fire, movement, melee and recovery at one position
 * touch no other while no stack moves between positions) holds in every
 * round; a round before the last keeps every unit as it stands at its
 * end (split_sub's recovery rolls the disrupted too, and nothing is
 * written as classes), and the next round is played as the rules order
 * it. The states merged at each position's stops are then those of the
 * positions played and the positions not yet played, instead of every
 * position's fire and movement before any melee. */
static bool split_ok(battle *b, int phase)
{
	/* only where states merge: a simulation or a narrated battle plays
	 * the round phase by phase, its dice in the rules' order (the same
	 * samples for the same seed as before the split) */
	if (!fray_policy_takes_suggestion(b->p) || !frayi_roller_staging(b->r))
		return false;
	line_of(b, 0);
	line_of(b, 1);
	/* before the last round, no reserve at all: a position played melees
	 * before the next one moves, and a melee that leaves a side no stack
	 * where the enemy stands would open it to that side's reserve, which
	 * the rules' order (every move before any melee) never does (in the
	 * last round a position played is off the line) */
	bool fire_too = phase == 0 || b->round != b->rounds;
	return !moves_between(b, 0, fire_too) && !moves_between(b, 1, fire_too);
}

/* The units of each side in line at position p (atop stacks included). */
static void units_at(const battle *b, int p, uint32_t *at)
{
	for (int s = 0; s < 2; s++) {
		at[s] = 0;
		for (uint64_t m = b->alive[s]; m; m &= m - 1) {
			int k = __builtin_ctzll(m);
			if (b->st[s][k].used && b->st[s][k].pos == p)
				at[s] |= b->in_stack[s][k];
		}
	}
}

/* The class a unit played to its end (19.3 as end_class reads it): still
 * to meet a routed unit's fate (routed by fire or removed by a melee R,
 * R30), standing (normal or disrupted) or eliminated. */
static int split_class(fray_adbg_status st)
{
	if ((int)st >= SPLIT_STANDING)
		return (int)st;
	return st == FRAY_ADBG_ROUTED || st == FRAY_ADBG_REMOVED ? SPLIT_ROUTED
	       : st == FRAY_ADBG_ELIMINATED                     ? SPLIT_LOST
								: SPLIT_STANDING;
}

/* Side s's movement at position p (19.2.2): its column front to back, as
 * movement_phase plays it there. */
static void split_moves(battle *b, int p, int s)
{
	const lineup *ln = line_of(b, s);
	int col[MAX_STACKS], n = ln->n[p];
	for (int i = 0; i < n; i++)
		col[i] = ln->k[p][i];
	for (int i = 0; i < n; i++) {
		int k = col[i];
		if (!b->st[s][k].used || b->st[s][k].moved || b->st[s][k].atop)
			continue;
		if (b->round == 1 && b->sc->surprised == s && stack_leader(b, s, k) == 0)
			continue;
		move_stack(b, s, k);
	}
}

/* One part of position p's last round (sub, 0-3): its fire, each side's
 * movement there (the initiative's first, 19.2.2), its melee (the stacks
 * atop each other there: every stack atop is at p, the others have not
 * moved), then its routed units' recovery: a disrupted unit's recovery is
 * not rolled, the end cannot tell a normal unit from a disrupted one
 * (end_class). Its units then leave the line as their classes. */
static void split_sub(battle *b, int p, int sub)
{
	int ini = b->sc->initiative;
	switch (sub) {
	case 0:
		for (int f = 0; f < 2; f++) {
			b->fire_line_held = false; /* the line as it stands at p */
			fire_step(b, f ? 1 - ini : ini, p);
		}
		tidy(b);
		break;
	case 1:
		split_moves(b, p, ini);
		split_moves(b, p, 1 - ini);
		break;
	case 2:
		for (int step = next_melee(b, 0); step != MELEE_DONE; step = next_melee(b, step + 1))
			melee_step(b, step);
		tidy(b);
		break;
	default: {
		uint32_t here[2];
		units_at(b, p, here);
		/* before the last round a disrupted unit recovers as well
		 * (19.2.4): the next round reads it. Each unit's roll reads
		 * only its side and its stack's leader, so the units of
		 * other positions rolling before or after changes nothing */
		bool last = b->round == b->rounds;
		for (int f = 0; f < 2; f++) {
			int s = f ? 1 - ini : ini;
			for (uint32_t m = here[s] & (last ? b->routed[s] : ~b->normal[s]); m; m &= m - 1)
				recovery_step(b, s, __builtin_ctz(m));
		}
		for (int s = 0; last && s < 2; s++)
			for (uint32_t m = here[s]; m; m &= m - 1) {
				int i = __builtin_ctz(m);
				set_unit(b, s, i, b->u[s][i].stack, (fray_adbg_status)split_class(b->u[s][i].status));
			}
		tidy(b);
	}
	}
}

/* Whether a split round stops before (p, sub): not when the part surely
 * rolls no die (no one to fire at p, no undisrupted unit to move, no stack
 * atop, no routed unit to recover), as stop_before. */
static bool split_stop(const battle *b, int p, int sub)
{
	switch (sub) {
	case 0:
		for (int s = 0; s < 2; s++)
			if (!fire_skipped(b, s) && stands_at(b, s, p, b->normal[s]) &&
			    stands_at(b, 1 - s, p, UINT32_MAX))
				return true;
		return false;
	case 1:
		return stands_at(b, 0, p, b->normal[0]) || stands_at(b, 1, p, b->normal[1]);
	case 2:
		return (b->atop[0] | b->atop[1]) != 0;
	default: {
		uint32_t here[2], roll[2];
		units_at(b, p, here);
		for (int s = 0; s < 2; s++)
			roll[s] = here[s] & (b->round == b->rounds ? b->routed[s] : ~b->normal[s]);
		return roll[0] | roll[1];
	}
	}
}

/* After the last position: the units back as the end reads them (19.3),
 * the round over. */
static void split_done(battle *b)
{
	static const fray_adbg_status as[] = {[SPLIT_STANDING] = FRAY_ADBG_NORMAL,
					      [SPLIT_ROUTED] = FRAY_ADBG_ROUTED,
					      [SPLIT_LOST] = FRAY_ADBG_ELIMINATED};
	for (int s = 0; s < 2; s++)
		for (int i = 0; i < b->sc->side[s].nunits; i++)
			if ((int)b->u[s][i].status >= SPLIT_STANDING)
				set_unit(b, s, i, 0, as[b->u[s][i].status]);
	b->round++;
}

/* Where the battle stands, growing with every step (next_step): a step
 * number is below MELEE_DONE + 1 in every phase. */
_Static_assert(FRAY_ADBG_MAX_UNITS <= MELEE_DONE && FRAY_ADBG_MAX_STACKS <= MELEE_DONE,
	       "a phase has more steps than a stage leaves room for");
static uint64_t stage_of(const battle *b, int phase, int step)
{
	/* a split round's steps are the last round's whatever its number:
	 * the forecast learns them from the rounds split before (2-round
	 * battles' round 2 before 3-round ones' round 3) */
	return FRAY_STAGE((uint64_t)b->round, ((uint64_t)phase * (MELEE_DONE + 1) + (uint64_t)step) |
						      (phase == SPLIT_PHASE && b->round == b->rounds ? FRAY_STEP_ALIKE : 0));
}

/* A key's layout depends only on the sides' numbers of units, stacks and
 * leaders: worked out once for a run of paths of the same scenario. */
static const key_layout *layout_of(const fray_adbg_scenario *sc)
{
	static _Thread_local struct {
		int n[6];
		key_layout L;
	} last;
	int n[6] = {sc->side[0].nunits, sc->side[0].nstacks, sc->side[0].nleaders,
		    sc->side[1].nunits, sc->side[1].nstacks, sc->side[1].nleaders};
	if (memcmp(n, last.n, sizeof n) != 0) {
		key_layout_of(sc, &last.L);
		memcpy(last.n, n, sizeof n);
	}
	return &last.L;
}

/* ---- exact odds: independent positions walked once and convolved ----
 *
 * (issue 45 item 1, third pass.) The split round (above) plays a round a
 * position at a time while no side has a reserve, because nothing in a
 * round carries between positions then: fire is at the enemy of the
 * firer's own position (R4, 19.2.1), its leader checks the hit stack's
 * (9.5.9); the moves are a front stack's atop the enemy opposite or back
 * from it, and a stack that avoids a melee does not move at all, the
 * attackers going back to their own front row (19.2.2 and its notes, R3,
 * R6; only a reserve, a stack behind the front row with an undisrupted
 * unit, is sent "opposite another enemy stack", 19.2.2 b, by the
 * heuristic); melee is between the stacks atop each other, whose survivors
 * go home to the row they came from (19.2.3), its leader checks the
 * engaged stacks' (9.5.12); recovery reads the unit's side's level and the
 * leader stacked with it (19.2.4, R9). Nor does anything between rounds
 * read across positions: the number of rounds is fixed before the battle
 * (19.1: no round ends it early), and the moves allowed each round are
 * reset for every stack alike (19.2.2: one move a round). What reads
 * every position is only (a) a reserve's move (below; the split round is
 * played only with no reserve at all, split_ok), and (b) the end (19.3, 9.6 as G3 gives it, R30): each side's units
 * standing and eliminated, a routed unit's fate its own roll on the
 * scenario's check (routed_fate), the winner from those counts
 * (frayi_adbg_tally). The leaders lost are not in the odds' outcome.
 *
 * A reserve moves between positions only to one open to its side (the
 * enemy in line there, its side not) when its side's movement phase
 * reaches it (direct_move; 19.2.2: the initiative's moves first, a
 * position after another, then the other side's). So from a round's
 * start the rest of the battle is, at each position, a battle of its own
 * (position_rest: the position's split rounds one after another, then its
 * routed units' fate), unless a reserve may move: each position's walk
 * flags, for each round and side, whether it may hold a reserve and
 * whether it may be open to the side as the phase reaches it or after the
 * side's moves there (position_moves, battle_convolve.h's FLAGS); the
 * positions are refused (the battle walked as before, round by round) when
 * a reserve may see another position open to it. Each position's battle
 * is walked once per its own state (the battle with every unit elsewhere
 * eliminated and every stack elsewhere gone: pos_key; a reserve there then
 * sees no other position and stays, as it does in the battle when none is
 * open to it), kept for the whole walk, and the positions' distributions
 * of (standing, eliminated) for each side are convolved
 * (battle_convolve.c); the battle then goes on along each sum as along a
 * die's faces (frayi_enum_branch), the units already off the line rolling
 * their fate as end_battle would, and ends. Only under exact odds with
 * states merged and a policy that takes every suggestion (convolvable): a
 * sampled or narrated battle keeps the rules' order. The walk's path
 * count then holds the positions' walks' paths (frayi_enum_inner), one
 * path per outcome of each sum, and the refused positions' walks. */

/* A round begins: every stack may move once (19.2.2), as battle_step's. */
static void round_begins(battle *b)
{
	for (int s = 0; s < 2; s++)
		for (int j = 0; j < b->nst[s]; j++)
			b->st[s][j].moved = false;
}

/* A plan's event at a position (below, "a reserve's move as an event"),
 * for the initiative's side: its reserve leaves (DEPART: the move's roll
 * in this walk), or a reserve's units and leaders arrive (when the
 * position is open to the side then: before or after the side's moves
 * there). Every byte set: events are part of a walk's cache key. */
enum { EV_DEPART = 1, EV_ARRIVE_BEFORE, EV_ARRIVE_AFTER, MAX_EVENTS = ADBG_CONV_MAX_DEP };
typedef struct pos_event {
	uint32_t round, kind, units, leaders;
} pos_event;

/* The rest of one position's battle (position_rest's input). */
typedef struct pos_input {
	const fray_adbg_scenario *sc;
	int pos;
	uint32_t mine[2]; /* the position's units, of each side */
	int nev, ndep;    /* events (by round), departures among them */
	pos_event ev[MAX_EVENTS];
	/* pos_key: the battle at its round's start; then the events (the
	 * cache's key) */
	uint8_t key[KEY_MAX + 4 + MAX_EVENTS * sizeof(pos_event)];
} pos_input;

/* A position's walk as it goes (battle.walk): its FLAGS, each side's units
 * counted elsewhere (eliminated here, not the position's: the end takes
 * them off), the departures' fields. Kept in its checkpoints' state after
 * the battle's key. */
typedef struct pos_walk {
	const pos_input *in;
	uint64_t flags;
	int32_t off[2];
	int64_t dep[MAX_EVENTS];
} pos_walk;
enum { WALK_STATE = 8 + 8 + 8 * MAX_EVENTS };
_Static_assert(KEY_MAX + WALK_STATE <= FRAY_STATE_MAX, "a position's state fits a checkpoint");

/* The end of a position's battle: each side's units of the position
 * standing and eliminated, a routed one's fate rolled (19.3, R30). Its
 * last round's key writes the units off the line as their classes, sorted
 * (pack: only the counts are read), so the units counted are all the
 * side's, less those of other positions (every one eliminated: pos_key). */
static void position_end(battle *b, const int32_t *off, int64_t *out)
{
	for (int s = 0; s < 2; s++) {
		int n = b->sc->side[s].nunits;
		int64_t stand = 0, lost = -(int64_t)off[s];
		for (int i = 0; i < n; i++) {
			int cls = split_class(b->u[s][i].status);
			if (cls == SPLIT_STANDING)
				stand++;
			else if (cls == SPLIT_LOST || routed_fate(b, s, i))
				lost++;
		}
		/* the battle's outcome (battle_outcome: the winner, each
		 * side's losses) reads the units standing only when the winner
		 * is the side with more standing (frayi_adbg_tally): else
		 * they are not kept, and the sums that differ only there are
		 * one (the result convolved fills counts only the tally and
		 * the losses read) */
		out[ADBG_CONV_STAND0 + 2 * s] = b->sc->victory == ADBG_VICTORY_LOSSES ? 0 : stand;
		out[ADBG_CONV_LOST0 + 2 * s] = lost;
	}
}

/* Whether position p is open to side s now: the enemy has a stack in line
 * there and s has none (direct_move's and options_for's test for a
 * reserve's move). */
static bool open_to(battle *b, int p, int s)
{
	return line_of(b, s)->n[p] == 0 && line_of(b, 1 - s)->n[p] > 0;
}

/* Whether side s has a reserve at position p (moves_between's test, at
 * one position). */
static bool reserve_of(const battle *b, int p, int s)
{
	for (uint64_t m = b->alive[s] & ~b->atop[s]; m; m &= m - 1) {
		int k = __builtin_ctzll(m);
		const bstack *t = &b->st[s][k];
		if (t->used && t->pos == p && t->row > 1 && (b->in_stack[s][k] & b->normal[s]))
			return true;
	}
	return false;
}

/* The event of the walk's input in round r of the kind, or NULL. */
static const pos_event *event_at(const pos_input *in, int r, uint32_t kind)
{
	for (int i = 0; i < in->nev; i++)
		if (in->ev[i].round == (uint32_t)r && in->ev[i].kind == kind)
			return &in->ev[i];
	return NULL;
}

/* Which departure (0-based, its field) round r's is. */
static int dep_index(const pos_input *in, int r)
{
	int d = 0;
	for (int i = 0; i < in->nev && in->ev[i].round < (uint32_t)r; i++)
		d += in->ev[i].kind == EV_DEPART;
	return d;
}

/* A position walked alone, stack k of side s reaching direct_move's
 * search for a position open to it (a reserve: undisrupted units, nothing
 * atop it, behind the front row): AVAIL (TWICE for a second stack in the
 * round). Alone, it finds none and stays, unless the plan has the
 * initiative's reserve try the move this round (DEPART): the move's roll
 * is then this walk's, and on success its movers leave (walk_depart). */
static move_option walk_scan(battle *b, int s, int k)
{
	(void)k;
	pos_walk *w = b->walk;
	uint64_t f = ADBG_CONV_FLAG(b->round, s, ADBG_CONV_AVAIL);
	bool first = !(w->flags & f);
	w->flags |= f | (first ? 0 : ADBG_CONV_TWICE(s));
	if (first && s == b->sc->initiative && event_at(w->in, b->round, EV_DEPART))
		return (move_option){MOVE_POSITION, -1, ""};
	return (move_option){MOVE_STAY, 0, "stay"};
}

/* The movers m of a reserve (R6: its undisrupted units, its leaders)
 * leave the position walked alone: the departure's field, and its units
 * counted elsewhere from now on (they end where they arrive). */
static void walk_depart(battle *b, int s, int m)
{
	pos_walk *w = b->walk;
	uint32_t units = b->in_stack[s][m], leaders = 0;
	for (int l = 0; l < b->sc->side[s].nleaders; l++)
		if (!b->llost[s][l] && b->lstack[s][l] == m)
			leaders |= 1u << l;
	w->dep[dep_index(w->in, b->round)] = (int64_t)units | (int64_t)leaders << 32;
	w->off[s] += __builtin_popcount(units);
	for (uint32_t u = units; u; u &= u - 1)
		set_unit(b, s, __builtin_ctz(u), m, FRAY_ADBG_ELIMINATED);
	tidy(b); /* the stack gone, its leaders with none */
}

/* A reserve's movers arriving at position p walked alone, as move_stack
 * puts them there (a stack of their own, moved, at the back of the
 * column: tidy numbers it), when the plan has them arrive now (kind: as
 * the initiative's phase reaches p or after its moves there) and p is
 * open to the side (else nothing arrives: the plan asks p open then). */
static void walk_arrive(battle *b, int p, uint32_t kind)
{
	pos_walk *w = b->walk;
	int s = b->sc->initiative;
	const pos_event *ev = event_at(w->in, b->round, kind);
	if (!ev || !open_to(b, p, s))
		return;
	int m = new_stack(b, s);
	if (m < 0) {
		w->flags |= ADBG_CONV_TWICE(s); /* the plan is refused */
		return;
	}
	bstack *t = &b->st[s][m];
	t->pos = (int16_t)p;
	t->row = 1000;
	t->moved = true;
	for (uint32_t u = ev->units; u; u &= u - 1)
		set_unit(b, s, __builtin_ctz(u), m, FRAY_ADBG_NORMAL);
	for (int l = 0; l < b->sc->side[s].nleaders; l++)
		if (ev->leaders >> l & 1)
			b->lstack[s][l] = m;
	w->off[s] -= __builtin_popcount(ev->units);
	line_changed(b, s);
	tidy(b);
}

/* Position p's movement phase (19.2.2: the initiative's moves, then the
 * other side's), its FLAGS (battle_convolve.h) looked at as each side's
 * phase reaches p and after its moves there, with the plan's arrivals. */
static void position_moves(battle *b, int p)
{
	int ini = b->sc->initiative;
	uint64_t f = 0;
	for (int i = 0; i < 2; i++) {
		int s = i ? 1 - ini : ini;
		/* a reserve of either side moves in its own phase; fire and
		 * the initiative's moves make none of the other side's */
		if (i == 0)
			for (int t = 0; t < 2; t++)
				f |= reserve_of(b, p, t) ? ADBG_CONV_FLAG(b->round, t, ADBG_CONV_RESERVE) : 0;
		f |= open_to(b, p, s) ? ADBG_CONV_FLAG(b->round, s, ADBG_CONV_OPEN_BEFORE) : 0;
		if (i == 0)
			walk_arrive(b, p, EV_ARRIVE_BEFORE);
		split_moves(b, p, s);
		f |= open_to(b, p, s) ? ADBG_CONV_FLAG(b->round, s, ADBG_CONV_OPEN_AFTER) : 0;
		if (i == 0)
			walk_arrive(b, p, EV_ARRIVE_AFTER);
	}
	b->walk->flags |= f;
}

/* The procedure walked for one position (frayi_enum_inner): its rounds
 * split (split_sub) from the round's start in in->key to the end, with the
 * split round's stops and the input's events, then position_end. Its
 * pos_walk (FLAGS, the units counted elsewhere, the departures) is
 * carried in the state after the battle's key and given with the end. */
static void position_rest(fray_roller *r, fray_policy *p, const void *input, int64_t *out)
{
	const pos_input *in = input;
	const key_layout *L = layout_of(in->sc);
	battle b;
	uint8_t k[KEY_MAX + WALK_STATE];
	size_t extra = 16 + 8 * (size_t)in->ndep;
	int phase, step, pos = in->pos;
	pos_walk w = {.in = in};
	battle_copy(&b, in->sc);
	if (fray_resume(r, k, L->bytes + extra)) {
		memcpy(&w.flags, k + L->bytes, 8);
		memcpy(w.off, k + L->bytes + 8, 8);
		memcpy(w.dep, k + L->bytes + 16, 8 * (size_t)in->ndep);
		unpack(&b, L, k, &phase, &step);
	} else {
		unpack(&b, L, in->key, &phase, &step);
		for (int s = 0; s < 2; s++)
			w.off[s] = b.sc->side[s].nunits - __builtin_popcount(in->mine[s]);
		round_begins(&b);
		step = SPLIT_FIRE | pos * SPLIT_SUBS;
	}
	b.walk = &w;
	for (int i = 0; i < in->nev; i++)
		b.keep_ids |= in->ev[i].kind != EV_DEPART && (int)in->ev[i].round == b.rounds;
	attach(&b, r, p);
	while (!fray_roller_stopped(r)) {
		int sub = step % SPLIT_SUBS;
		if (sub == 1)
			position_moves(&b, pos);
		else
			split_sub(&b, pos, sub);
		if (sub + 1 < SPLIT_SUBS) {
			step++;
		} else if (b.round == b.rounds) {
			out[ADBG_CONV_FLAGS] = (int64_t)w.flags;
			position_end(&b, w.off, out);
			for (int i = 0; i < in->ndep; i++)
				out[ADBG_CONV_FIELDS + i] = w.dep[i];
			return;
		} else {
			b.round++;
			round_begins(&b);
			step = SPLIT_FIRE | pos * SPLIT_SUBS;
		}
		if (split_stop(&b, pos, step % SPLIT_SUBS) && pack(&b, L, SPLIT_PHASE, step, k)) {
			memcpy(k + L->bytes, &w.flags, 8);
			memcpy(k + L->bytes + 8, w.off, 8);
			memcpy(k + L->bytes + 16, w.dep, 8 * (size_t)in->ndep);
			if (fray_checkpoint(r, stage_of(&b, SPLIT_PHASE, step), k, L->bytes + extra))
				return;
		}
	}
}

/* Position p of b at a round's start as a battle of its own: every unit
 * elsewhere eliminated, every stack elsewhere gone, the leaders of those
 * stacks with none (nothing at p reads them, above); its key in in->key
 * (the cache's key too), its units in in->mine. False when it does not
 * pack. */
static bool pos_key(const battle *b, const key_layout *L, int p, pos_input *in)
{
	battle *c = &(battle){0};
	memcpy(c, b, sizeof *b);
	for (int s = 0; s < 2; s++) {
		in->mine[s] = 0;
		for (int i = 0; i < b->sc->side[s].nunits; i++) {
			adbg_unit_def *u = &c->u[s][i];
			if (in_line(u) && b->st[s][u->stack].pos == p)
				in->mine[s] |= (uint32_t)1 << i;
			else
				u->status = FRAY_ADBG_ELIMINATED;
		}
		for (int j = 0; j < c->nst[s]; j++)
			if (c->st[s][j].pos != p)
				c->st[s][j].used = false;
		for (int l = 0; l < b->sc->side[s].nleaders; l++)
			if (c->lstack[s][l] >= 0 && !c->st[s][c->lstack[s][l]].used)
				c->lstack[s][l] = -1;
	}
	in->sc = b->sc;
	in->pos = p;
	in->nev = in->ndep = 0;
	memset(in->key, 0, sizeof in->key);
	return pack(c, L, 0, 0, in->key);
}

/* Whether the rest of the battle may be tried by positions (convolved):
 * under exact odds with states merged and a policy that takes every
 * suggestion (as split_ok), with positions to convolve. */
static bool convolvable(const battle *b)
{
	return b->npos > 1 && fray_policy_takes_suggestion(b->p) && frayi_roller_staging(b->r);
}

/* Position in's distribution (its key's first len bytes: the battle's,
 * then its events), walked on first need and kept for the whole walk;
 * NULL when the run stopped. */
static const fray_dist *position_part(battle *b, adbg_conv *c, const pos_input *in, size_t len)
{
	const fray_dist *d = frayi_adbg_conv_part(c, in->key, len);
	if (d)
		return d;
	fray_dist *w;
	if (frayi_enum_inner(b->r, position_rest, b->p, in, ADBG_CONV_FIELDS + (size_t)in->ndep, &w) != FRAY_OK)
		return NULL;
	if (!frayi_adbg_conv_keep(c, in->key, len, w) || !(d = frayi_adbg_conv_part(c, in->key, len)))
		fray_roller_fail(b->r, FRAY_ERR_NOMEM, "out of memory");
	return d;
}

/* ---- a reserve's move as an event between positions ----
 *
 * (issue 45 item 1, fifth pass.) Where a reserve may see another position
 * open (above: the positions refused), what crosses positions is only that
 * reserve's move (19.2.2 b as direct_move plays it; R6: its undisrupted
 * units move, with its leaders, the rest stay): its side's movement phase
 * reaches it (a position after another, each column front to back), and
 * it tries to move to the first position p (0, 1, ...: the option list's
 * order, which MAX_OPTIONS never cuts at FRAY_ADBG_MAX_STACKS positions)
 * open to its side (the enemy in line there, its side not), looked at as
 * p stands then: after the side's moves there if p is before the
 * reserve's, before them if after (the phase has not reached p). If the
 * move's roll succeeds its movers arrive at p (a stack of their own,
 * moved, behind the column: the only one in line there, as p was open),
 * before the other side's moves there; all else stays local (the
 * argument above). So the battle is conditioned on a plan: for each round,
 * for each position h that may hold the initiative's reserve reaching that
 * search (AVAIL), in the phase's order, either the reserve does not reach
 * it, or it does and no other position is open to it then, or it does and
 * q is the first open: then the move is rolled at h (DEPART: its walk
 * gives what left, the units and leaders, or nothing when the roll failed)
 * and, for each such content, the movers arrive at q (ARRIVE before or
 * after the side's moves there: q after or before h), which is then open
 * to no later reserve of the round (the movers are in line there), and
 * which may hold a reserve in the next round (a chain). A position asked
 * open by one reserve's search and not open by another's at the same
 * moment (the same flag) has no chance (require). Each position is walked
 * once per its
 * own state and its events (the cache's key), and a plan asks of each
 * position only its own walk's flags and departures (pred): h's AVAIL as
 * the plan says and its departure the plan's content, the positions the
 * search looks at before q not open then, q open. Round r's flags are set
 * before round r's events change anything at the position (an arrival
 * comes after the flags the search reads; a departure is the search
 * itself), so a position walked with later events gives the same flags.
 * Given the plan, the positions' dice are their own: the plan's chance
 * and losses are the product of the positions' outcomes that hold for it,
 * convolved; the plans, made round by round from what the walks so far
 * may show, partition the battle, and their sum is its distribution (its
 * mass is checked to be exactly 1). Refused (the battle walked whole, as
 * before) where the plans would not cover it: two reserves reaching the
 * search at one position in one round (TWICE), the other side's reserve
 * that may see a position open (frayi_adbg_plan_refused), a policy asked
 * (not b->direct), or more than MAX_PLANS plans or MAX_PLAN_WORK
 * products. */
enum { PLAN_GOING, PLAN_REFUSED, PLAN_STOPPED, MAX_PLANS = 100000, MAX_CONTENTS = 64 };
/* The most products the plans' convolutions may take (counted): some 3 s
 * at twice Blue Licks' size, where exact rationals grow past 128 bits;
 * Blue Licks in 3 rounds takes 19,769, twice its size 261,499. And in
 * the whole walk, where a battle refused to them may try them again at
 * each of its next round's starts: past that, no more plans are tried. */
#define MAX_PLAN_WORK 3000000
#define MAX_PLAN_WORK_WALK (2 * MAX_PLAN_WORK)

typedef struct planner {
	battle *b;
	const key_layout *L;
	adbg_conv *c;
	int ini, status;
	long plans;
	pos_input in[FRAY_ADBG_MAX_STACKS];
	adbg_pred pred[FRAY_ADBG_MAX_STACKS];
} planner;

static _Thread_local frayi_adbg_plan_counts plan_counts;

void frayi_adbg_plan_counts_get(frayi_adbg_plan_counts *out)
{
	*out = plan_counts;
}

/* A complete plan's moves, counted (frayi_adbg_plan_counts). */
static void count_plan(const planner *pl)
{
	bool moves = false, chain = false;
	for (int p = 0; p < pl->b->npos; p++) {
		const pos_input *in = &pl->in[p];
		uint32_t arrived = 0; /* the round a reserve first arrived at p */
		for (int i = 0; i < in->nev; i++) {
			if (in->ev[i].kind != EV_DEPART) {
				moves = true;
				arrived = arrived ? arrived : in->ev[i].round;
			} else if (arrived && in->ev[i].round > arrived) {
				chain = true;
			}
		}
	}
	plan_counts.moves += moves;
	plan_counts.chains += chain;
}

/* Position p's distribution under the plan's events so far. */
static const fray_dist *plan_part(planner *pl, int p)
{
	pos_input *in = &pl->in[p];
	size_t len = pl->L->bytes + (size_t)in->nev * sizeof(pos_event);
	memcpy(in->key + pl->L->bytes, in->ev, (size_t)in->nev * sizeof(pos_event));
	const fray_dist *d = position_part(pl->b, pl->c, in, len);
	if (!d)
		pl->status = PLAN_STOPPED;
	return d;
}

/* The plan asks (FLAGS & mask) == value of a position: false when it
 * asked otherwise already (the plan has no chance: a position open as one
 * reserve's search looks at it, and not open as another's does then). */
static bool require(adbg_pred *pr, uint64_t mask, uint64_t value)
{
	if ((pr->mask & mask & (pr->value ^ value)) != 0)
		return false;
	pr->mask |= mask;
	pr->value |= value;
	return true;
}

static void plan_round(planner *pl, int r);

/* Round r's plans from its i-th holder on (hs[]: the positions that may
 * hold the initiative's reserve reaching the search, in the phase's order;
 * arrived: the positions its reserves arrived at this round before, not
 * open to the next: the movers are in line there); then round r + 1. */
static void plan_holder(planner *pl, int r, const int *hs, int nh, int i, uint32_t arrived, const uint64_t *may)
{
	if (i == nh) {
		plan_round(pl, r + 1);
		return;
	}
	int n = pl->b->npos, ini = pl->ini, h = hs[i];
	uint64_t avail = ADBG_CONV_FLAG(r, ini, ADBG_CONV_AVAIL);
	adbg_pred saved[FRAY_ADBG_MAX_STACKS];
	memcpy(saved, pl->pred, (size_t)n * sizeof saved[0]);
	pos_input *hin = &pl->in[h];
	/* one more departure is one more field of h's outcomes, which hold
	 * at most FRAY_OUTCOME_MAX_FIELDS (a fourth in a battle of four
	 * rounds): refused, the battle walked whole */
	if (hin->nev + 1 >= MAX_EVENTS || ADBG_CONV_FIELDS + hin->ndep + 1 > FRAY_OUTCOME_MAX_FIELDS) {
		pl->status = PLAN_REFUSED;
		return;
	}
	/* the reserve does not reach the search */
	if (require(&pl->pred[h], avail, 0))
		plan_holder(pl, r, hs, nh, i + 1, arrived, may);
	/* it does, and the first position open to it is q (none: q < 0) */
	for (int q = -1; q < n && pl->status == PLAN_GOING; q++) {
		if (q == h || (q >= 0 && (arrived >> q & 1)))
			continue;
		memcpy(pl->pred, saved, (size_t)n * sizeof saved[0]);
		bool chance = require(&pl->pred[h], avail, avail);
		for (int p = 0; p < n; p++) {
			uint64_t o = ADBG_CONV_FLAG(r, ini, p < h ? ADBG_CONV_OPEN_AFTER : ADBG_CONV_OPEN_BEFORE);
			if (p == h || (arrived >> p & 1))
				continue;
			if (q < 0 || p < q)
				chance &= require(&pl->pred[p], o, 0);
			else if (p == q)
				chance &= require(&pl->pred[p], o, o) && (may[p] & o) != 0;
		}
		if (!chance)
			continue;
		if (q < 0) {
			plan_holder(pl, r, hs, nh, i + 1, arrived, may);
			continue;
		}
		/* the move rolled at h: each content that may leave */
		hin->ev[hin->nev++] = (pos_event){(uint32_t)r, EV_DEPART, 0, 0};
		hin->ndep++;
		const fray_dist *dh = plan_part(pl, h);
		int64_t vals[MAX_CONTENTS];
		size_t nv = dh ? frayi_adbg_conv_deps(dh, &pl->pred[h], avail, hin->ndep - 1, vals, MAX_CONTENTS) : 0;
		if (nv > MAX_CONTENTS)
			pl->status = PLAN_REFUSED;
		adbg_pred *ph = &pl->pred[h];
		pos_input *qin = &pl->in[q];
		for (size_t v = 0; v < nv && pl->status == PLAN_GOING; v++) {
			ph->dep[ph->ndep++] = vals[v];
			if (vals[v] && qin->nev + 1 >= MAX_EVENTS)
				pl->status = PLAN_REFUSED;
			else if (vals[v]) {
				qin->ev[qin->nev++] = (pos_event){(uint32_t)r, q < h ? EV_ARRIVE_AFTER : EV_ARRIVE_BEFORE,
								  (uint32_t)vals[v], (uint32_t)(vals[v] >> 32)};
				plan_holder(pl, r, hs, nh, i + 1, arrived | 1u << q, may);
				qin->nev--;
			} else {
				plan_holder(pl, r, hs, nh, i + 1, arrived, may);
			}
			ph->ndep--;
		}
		hin->nev--;
		hin->ndep--;
	}
	memcpy(pl->pred, saved, (size_t)n * sizeof saved[0]);
}

/* The plans from round r on (the rounds before in pl->pred and pl->in's
 * events): each complete one added to the combination. */
static void plan_round(planner *pl, int r)
{
	battle *b = pl->b;
	int n = b->npos, ini = pl->ini, hs[FRAY_ADBG_MAX_STACKS], nh = 0;
	const fray_dist *parts[FRAY_ADBG_MAX_STACKS];
	uint64_t may[FRAY_ADBG_MAX_STACKS];
	for (int p = 0; p < n; p++) {
		bool any;
		if (!(parts[p] = plan_part(pl, p)))
			return;
		may[p] = frayi_adbg_conv_may(parts[p], &pl->pred[p], &any);
		if (!any)
			return; /* the plan has no chance */
		if (may[p] & ADBG_CONV_TWICE(ini)) {
			pl->status = PLAN_REFUSED;
			return;
		}
	}
	if (r > b->rounds) {
		if (frayi_adbg_plan_refused(parts, pl->pred, n, 1 - ini) || ++pl->plans > MAX_PLANS) {
			pl->status = PLAN_REFUSED;
		} else if (!frayi_adbg_conv_plan_add(pl->c, parts, pl->pred, n)) {
			fray_roller_fail(b->r, FRAY_ERR_NOMEM, "out of memory");
			pl->status = PLAN_STOPPED;
		} else {
			count_plan(pl);
			if (frayi_adbg_conv_plan_work(pl->c, false) > MAX_PLAN_WORK)
				pl->status = PLAN_REFUSED;
		}
		return;
	}
	for (int p = 0; p < n; p++)
		if (may[p] & ADBG_CONV_FLAG(r, ini, ADBG_CONV_AVAIL))
			hs[nh++] = p;
	plan_holder(pl, r, hs, nh, 0, 0, may);
}

/* The battle's distribution by its plans (above), as the last
 * combination of c (refused when the plans do not cover it); NULL when
 * the run stopped. */
static const adbg_joint *planned(battle *b, const key_layout *L, adbg_conv *c, const uint8_t *whole)
{
	planner *pl = &(planner){.b = b, .L = L, .c = c, .ini = b->sc->initiative};
	bool ok = b->direct && frayi_adbg_conv_plan_work(c, true) < MAX_PLAN_WORK_WALK &&
		  frayi_adbg_conv_plans_begin(c);
	const fray_dist *parts[FRAY_ADBG_MAX_STACKS];
	for (int p = 0; ok && p < b->npos; p++)
		ok = pos_key(b, L, p, &pl->in[p]) && (parts[p] = plan_part(pl, p)) != NULL;
	/* the other side's reserve may see a position open with no plan
	 * yet: refused at once (the plans would be, each at its end) */
	if (ok && frayi_adbg_plan_refused(parts, pl->pred, b->npos, 1 - pl->ini))
		pl->status = PLAN_REFUSED;
	if (ok && pl->status == PLAN_GOING)
		plan_round(pl, b->round);
	if (pl->status == PLAN_STOPPED)
		return NULL;
	const adbg_joint *j = frayi_adbg_conv_plans_end(c, whole, L->bytes, !ok || pl->status != PLAN_GOING);
	if (!j)
		fray_roller_fail(b->r, FRAY_ERR_NOMEM, "out of memory");
	else
		plan_counts.battles += !j->refused, plan_counts.refused += j->refused;
	return j;
}

/* The rest of the battle from a round's start (convolvable), by its
 * positions' battles convolved (above), or by its plans where a reserve
 * may move between them:
 * true when res is the battle's end (or the run stopped), false when the
 * positions are not independent to the end (the caller plays on). */
static bool convolved(battle *b, const key_layout *L, fray_adbg_result *res)
{
	fray_roller *r = b->r;
	adbg_conv *c = frayi_adbg_conv(r);
	uint8_t whole[KEY_MAX + 4] = {0};
	if (!c || !pack(b, L, 0, 0, whole))
		return false;
	const adbg_joint *j = frayi_adbg_conv_last(c, whole, L->bytes);
	if (!j) {
		const fray_dist *parts[FRAY_ADBG_MAX_STACKS];
		pos_input in;
		bool refused = false;
		for (int p = 0; p < b->npos && !refused; p++) {
			if (!pos_key(b, L, p, &in))
				return false;
			if (!(parts[p] = position_part(b, c, &in, L->bytes)))
				goto stopped;
			/* refused as soon as the positions so far are: the
			 * rest are not walked for nothing (a refusal is
			 * pairwise, battle_convolve.h) */
			refused = p > 0 && frayi_adbg_conv_refused(parts, p + 1);
		}
		if (!refused && !(j = frayi_adbg_conv_join(c, whole, L->bytes, parts, b->npos))) {
			fray_roller_fail(r, FRAY_ERR_NOMEM, "out of memory");
			goto stopped;
		}
		if ((refused || j->refused) && !(j = planned(b, L, c, whole)))
			goto stopped;
	}
	if (j->refused)
		return false;
	size_t o = frayi_enum_branch(r, j->n, j->x);
	if (fray_roller_stopped(r))
		goto stopped;
	const int64_t *sum = j->keys + o * ADBG_JOINT_FIELDS;
	memset(res, 0, sizeof *res);
	res->rounds = b->rounds;
	for (int s = 0; s < 2; s++) {
		int n = b->sc->side[s].nunits, stand = (int)sum[2 * s], lost = (int)sum[2 * s + 1];
		/* the units off the line before this round: eliminated, or
		 * removed by a melee R and meeting the routed units' fate (R30) */
		for (int i = 0; i < n; i++) {
			fray_adbg_status st = b->u[s][i].status;
			lost += st == FRAY_ADBG_ELIMINATED || (st == FRAY_ADBG_REMOVED && routed_fate(b, s, i));
		}
		res->side[s].count[FRAY_ADBG_NORMAL] = stand;
		res->side[s].count[FRAY_ADBG_ELIMINATED] = lost;
		res->side[s].count[FRAY_ADBG_ROUTED] = n - stand - lost;
	}
	frayi_adbg_tally(b->sc, res);
	return true;
stopped:
	memset(res, 0, sizeof *res);
	return true;
}

/* fray_adbg_battle, stopping after the array and before each step that
 * may roll when exact odds merge states. */
static void battle_staged(fray_roller *r, fray_policy *p, const fray_adbg_scenario *sc,
			  fray_adbg_result *res, bool convolve)
{
	battle b;
	uint8_t k[KEY_MAX + 4];
	const key_layout L = *layout_of(sc);
	size_t size = L.bytes;
	int phase = 0, step = 0;
	if (fray_resume(r, k, size)) {
		/* the battle set up from the state on the first path from it,
		 * copied on the next ones */
		bool valid;
		unsigned char *saved = fray_resume_scratch(r, battle_bytes(sc), &valid);
		if (saved && valid) {
			battle_load(&b, sc, saved);
			unpack_head(k, &phase, &step);
		} else {
			battle_copy(&b, sc); /* unpack derives the rest */
			unpack(&b, &L, k, &phase, &step);
			if (saved)
				battle_save(&b, saved);
		}
		attach(&b, r, p);
	} else {
		battle_init(&b, sc);
		attach(&b, r, p);
		battle_begin(&b);
		if (pack(&b, &L, phase, step, k) && fray_checkpoint(r, stage_of(&b, phase, step), k, size))
			return;
	}
	while (b.round <= b.rounds && !fray_roller_stopped(r)) {
		if (phase == SPLIT_PHASE) {
			int fire = step & SPLIT_FIRE, pos = (step & ~SPLIT_FIRE) / SPLIT_SUBS;
			int sub = step % SPLIT_SUBS;
			split_sub(&b, pos, sub);
			if (sub + 1 < SPLIT_SUBS) {
				step++;
			} else if (pos + 1 < b.npos) {
				step = fire | ((pos + 1) * SPLIT_SUBS + !fire);
			} else { /* the end, as next_step goes there */
				split_done(&b);
				phase = step = 0;
			}
		} else if (phase == 0 && step == 0 && convolve && convolvable(&b) && convolved(&b, &L, res)) {
			return;
		} else if (((phase == 0 && step == 0) || phase == 2) && split_ok(&b, phase)) {
			if (phase == 0) /* battle_step's round start */
				round_begins(&b);
			step = phase == 0 ? SPLIT_FIRE : 1; /* position 0's fire, or its movement */
			phase = SPLIT_PHASE;
			continue; /* at once: the battles merged at this stop already */
		} else {
			battle_step(&b, phase, step);
			next_step(&b, &phase, &step);
		}
		if (b.round <= b.rounds && !stop_before(&b, phase, step))
			continue;
		if (pack(&b, &L, phase, step, k) && fray_checkpoint(r, stage_of(&b, phase, step), k, size))
			return;
	}
	end_battle(&b, res);
}

/* The battle's outcome: the winner + 1 (0: a draw), each side's losses. */
static void battle_outcome(fray_roller *r, fray_policy *p, const void *scenario, int64_t *out, bool convolve)
{
	fray_adbg_result res;
	battle_staged(r, p, scenario, &res, convolve);
	out[0] = res.winner + 1;
	out[1] = res.side[0].losses;
	out[2] = res.side[1].losses;
}

FRAY_API void fray_adbg_battle_procedure(fray_roller *r, fray_policy *p,
					 const void *scenario, int64_t *out)
{
	battle_outcome(r, p, scenario, out, true);
}

void frayi_adbg_battle_unconvolved_procedure(fray_roller *r, fray_policy *p, const void *scenario,
					      int64_t *out)
{
	battle_outcome(r, p, scenario, out, false);
}

FRAY_API void fray_adbg_battle_stats_procedure(fray_roller *r, fray_policy *p,
					       const void *scenario, int64_t *out)
{
	fray_adbg_result res;
	fray_adbg_battle(r, p, scenario, &res);
	out[FRAY_ADBG_SIM_WINNER] = res.winner + 1;
	out[FRAY_ADBG_SIM_ROUNDS] = res.rounds;
	for (int s = 0; s < 2; s++) {
		const fray_adbg_side_result *sr = &res.side[s];
		int64_t *o = out + FRAY_ADBG_SIM_SIDE + s * FRAY_ADBG_SIM_PER_SIDE;
		o[FRAY_ADBG_SIM_ELIMINATED] = sr->count[FRAY_ADBG_ELIMINATED];
		/* routed at the end: by fire, or by a melee R and surviving (R30) */
		o[FRAY_ADBG_SIM_ROUTED] = sr->count[FRAY_ADBG_ROUTED] + sr->count[FRAY_ADBG_REMOVED];
		o[FRAY_ADBG_SIM_DISRUPTED] = sr->count[FRAY_ADBG_DISRUPTED];
		o[FRAY_ADBG_SIM_LEADERS_LOST] = sr->leaders_lost;
		o[FRAY_ADBG_SIM_LOSSES] = sr->losses;
		o[FRAY_ADBG_SIM_STANDING] = sr->count[FRAY_ADBG_NORMAL];
	}
}
