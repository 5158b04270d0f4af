/* The quick battle (ADBG 19.2, 19.3) on the sampling fast path, held
 * small (battle_fast.h): battle.c's direct path step for step (each
 * function names the one it follows), the same dice in the same order. */
#include <assert.h>
#include <stddef.h>
#include <string.h>
#include "battle_fast.h"
#include "../../core/fast_dice.h"

typedef struct fb {
	const fray_adbg_scenario *sc;
	const adbg_fast *f;
	fray_rng *rng;
	int round;
	fast_side sd[2];
} fb;

enum { MOVE_STAY, MOVE_ATTACK, MOVE_AVOID, MOVE_POSITION };

static IN_LINE bool in_line(fray_adbg_status st)
{
	return st < FRAY_ADBG_ELIMINATED;
}

/* The bits set in m, one by one: a unit mask holds few, and without a
 * popcount instruction (x86-64's baseline) __builtin_popcount is a call. */
static IN_LINE int bits(uint32_t m)
{
	int n = 0;
	for (; m; m &= m - 1)
		n++;
	return n;
}

/* set_unit: every change of a unit's status here is of a unit in line,
 * in its stack k, which it leaves only for out of line (eliminated or
 * removed): a stack left empty is dead, its position to tidy. */
static IN_LINE void set_unit(fast_side *d, int i, int k, fray_adbg_status status)
{
	uint32_t bit = (uint32_t)1 << i;
	assert(in_line((fray_adbg_status)d->status[i]) && d->ustack[i] == k && (d->in_stack[k] & bit));
	d->status[i] = (uint8_t)status;
	d->normal = (d->normal & ~bit) | (uint32_t)(status == FRAY_ADBG_NORMAL) << i;
	d->routed = (d->routed & ~bit) | (uint32_t)(status == FRAY_ADBG_ROUTED) << i;
	if (!in_line(status)) {
		d->out |= bit;
		d->removed |= (uint32_t)(status == FRAY_ADBG_REMOVED) << i;
		if (!(d->in_stack[k] &= ~bit)) {
			d->alive &= ~((uint32_t)1 << k);
			d->untidy |= (uint32_t)1 << d->pos[k];
		}
	}
}

/* The stack of unit i, in line (kept by set_unit and the moves). */
static IN_LINE int unit_stack(const fast_side *d, int i)
{
	return d->ustack[i];
}

/* stack_leader: the best rating among the leaders with stack k. */
static IN_LINE int stack_leader(const fb *b, int s, int k)
{
	return b->f->c[s].best[b->sd[s].lm[k]];
}

/* Slot k to position p, its bit from one posm to the other. */
static IN_LINE void set_pos(fast_side *d, int k, int p)
{
	d->posm[d->pos[k]] &= ~((uint32_t)1 << k);
	d->pos[k] = (int8_t)p;
	d->posm[p] |= (uint32_t)1 << k;
}

/* Side d's column at position p, front first (build_line: by row, ties by
 * slot); its length. */
static int column_sorted(const fast_side *d, uint32_t m, int *out)
{
	int n = 0;
	for (; m; m &= m - 1) {
		int k = __builtin_ctz(m), j = n++;
		for (; j > 0 && d->row[out[j - 1]] > d->row[k]; j--)
			out[j] = out[j - 1];
		out[j] = k;
	}
	return n;
}

/* (Most columns hold one or two stacks: those without the loop.) */
static IN_LINE int column(const fast_side *d, int p, int *out)
{
	uint32_t all = d->posm[p] & d->alive & ~d->atop, m = all;
	if (!m)
		return 0;
	int k0 = __builtin_ctz(m);
	m &= m - 1;
	if (!m) {
		out[0] = k0;
		return 1;
	}
	int k1 = __builtin_ctz(m);
	if (m & (m - 1))
		return column_sorted(d, all, out);
	bool swap = d->row[k1] < d->row[k0];
	out[0] = swap ? k1 : k0;
	out[1] = swap ? k0 : k1;
	return 2;
}

/* The front stack of side d's column at p, or -1. */
static IN_LINE int front(const fast_side *d, int p)
{
	uint32_t m = d->posm[p] & d->alive & ~d->atop;
	int best = -1;
	for (; m; m &= m - 1) {
		int k = __builtin_ctz(m);
		if (best < 0 || d->row[k] < d->row[best])
			best = k;
	}
	return best;
}

/* tidy: drops dead stacks, numbers each column's rows 1, 2, ... again
 * (those of the positions where something changed: the others are). */
static void tidy_side(fb *b, int s)
{
	fast_side *d = &b->sd[s];
	uint32_t where = d->untidy;
	d->untidy = 0;
	uint32_t dead = d->used & ~d->alive;
	if (dead) {
		d->used &= ~dead;
		for (uint32_t m = dead; m; m &= m - 1)
			d->lm[__builtin_ctz(m)] = 0; /* its leaders stay, with no stack */
	}
	for (; where; where &= where - 1) {
		int p = __builtin_ctz(where), col[FAST_SLOTS], n = column(d, p, col);
		for (int i = 0; i < n; i++)
			d->row[col[i]] = (int16_t)(i + 1);
		d->front[p] = (int8_t)(n ? col[0] : -1);
	}
}

static IN_LINE void tidy(fb *b)
{
	for (int s = 0; s < 2; s++)
		if (b->sd[s].untidy)
			tidy_side(b, s);
}

/* fast_check: a 1d6 or 2d6 check through its face mask. */
static IN_LINE bool check(fb *b, const adbg_check *c)
{
	unsigned i = frayi_d6(b->rng);
	if (c->fast_dice == 2)
		i = i * 6 + frayi_d6(b->rng);
	return c->fast_mask >> i & 1;
}

/* leader_loss (G2): each leader with stack k. */
static IN_LINE void leader_loss(fb *b, int s, int k, const adbg_check *c)
{
	fast_side *d = &b->sd[s];
	for (unsigned m = d->lm[k]; m; m &= m - 1)
		if (check(b, c)) {
			unsigned bit = m & -m;
			d->llost |= (uint8_t)bit;
			d->lm[k] &= (uint8_t)~bit;
		}
}

/* The melee CF of side s's units in mask m: those of units 0..7 from
 * the table, any above one by one. */
static IN_LINE int cf_of(const fast_const *c, uint32_t m)
{
	int cf = c->cf_low[m & 0xff];
	for (m >>= 8; m; m &= m - 1)
		cf += c->melee_cf[8 + __builtin_ctz(m)];
	return cf;
}

/* melee_cf: the stack's units not routed, their melee CF; *active 0
 * when none fights, else 1 (all the rules read of their count). */
static IN_LINE int64_t melee_cf(const fb *b, int s, int k, int *active, bool *disrupted)
{
	const fast_side *d = &b->sd[s];
	uint32_t fighting = d->in_stack[k] & ~d->routed;
	*active = fighting != 0;
	*disrupted = (fighting & ~d->normal) != 0;
	return cf_of(&b->f->c[s], fighting);
}

/* ---- 19.2.1 fire ---- */

/* fire_position: side s's column at p fires at the enemy's. */
static IN_LINE void fire_position(fb *b, int s, int p)
{
	fast_side *me = &b->sd[s], *en = &b->sd[1 - s];
	int mine[FAST_SLOTS], theirs[FAST_SLOTS];
	int nt = column(en, p, theirs);
	if (nt == 0)
		return;
	int nm = column(me, p, mine);
	const uint8_t *faces = b->f->c[s].fire_faces;
	uint32_t targeted = 0;
	for (int i = 0; i < nm; i++) {
		uint32_t rows[FAST_SLOTS];
		for (int t = 0; t < nt; t++)
			rows[t] = en->in_stack[theirs[t]];
		/* each firer's target as chosen before the stack's first die
		 * (battle.c: every choice, then every die): the enemy's masks
		 * as they were, the die at once; a target hit out of line by
		 * an earlier die is not rolled for */
		uint32_t routed = en->routed, normal = en->normal;
		for (uint32_t f = me->in_stack[mine[i]] & me->normal; f; f &= f - 1) {
			int t = frayi_adbg_direct_target(routed, normal, rows, nt, targeted);
			if (t < 0)
				continue;
			targeted |= (uint32_t)1 << t;
			if (!in_line((fray_adbg_status)en->status[t]))
				continue;
			if (!frayi_d6_in(b->rng, faces[__builtin_ctz(f)]))
				continue;
			/* take_hit, then G2 for the target's stack */
			int tstack = unit_stack(en, t);
			set_unit(en, t, tstack, (fray_adbg_status)(en->status[t] + 1));
			leader_loss(b, 1 - s, tstack, &b->sc->loss_fire);
		}
	}
}

/* ---- 19.2.2 movement ---- */

/* attackers_of: the enemy stacks atop stack k of side s. */
static IN_LINE int attackers_of(const fb *b, int s, int k, int *out)
{
	const fast_side *e = &b->sd[1 - s];
	int n = 0;
	for (uint32_t m = e->atop & e->used; m; m &= m - 1) {
		int j = __builtin_ctz(m);
		if (e->foe[j] == k)
			out[n++] = j;
	}
	return n;
}

/* The enemy stacks side d's stacks are atop (its attacking). */
static uint32_t attacked(const fast_side *d)
{
	uint32_t a = 0;
	for (uint32_t m = d->atop & d->used; m; m &= m - 1)
		a |= (uint32_t)1 << d->foe[__builtin_ctz(m)];
	return a;
}

/* goes_home_into_origin, then return_home. */
static void return_home(fb *b, int s, int k)
{
	fast_side *d = &b->sd[s];
	const uint32_t kbit = (uint32_t)1 << k;
	d->atop &= ~kbit;
	d->attacking = attacked(d);
	d->untidy |= (uint32_t)1 << d->home_pos[k] | (uint32_t)1 << d->pos[k];
	int o = d->origin[k];
	if (o >= 0 && (d->used >> o & 1) && !(d->atop >> o & 1) && d->pos[o] == d->home_pos[k] &&
	    d->row[o] == d->home_row[k]) {
		uint32_t units = d->in_stack[k];
		if (units) {
			d->in_stack[o] |= units;
			d->in_stack[k] = 0;
			d->alive = (d->alive & ~kbit) | (uint32_t)1 << o;
			for (; units; units &= units - 1)
				d->ustack[__builtin_ctz(units)] = (int8_t)o;
		}
		d->lm[o] |= d->lm[k];
		d->lm[k] = 0;
		d->used &= ~kbit;
		return;
	}
	for (uint32_t m = d->posm[d->home_pos[k]] & d->alive & ~d->atop & ~kbit; m; m &= m - 1) {
		int t = __builtin_ctz(m);
		if ((d->used >> t & 1) && d->row[t] >= d->home_row[k])
			d->row[t]++;
	}
	set_pos(d, k, d->home_pos[k]);
	d->row[k] = d->home_row[k];
	d->origin[k] = -1;
}

/* direct_move: the heuristic's option for stack k; *arg its stack or position. */
static IN_LINE int direct_move(const fb *b, int s, int k, int *arg)
{
	const fast_side *me = &b->sd[s], *en = &b->sd[1 - s];
	uint32_t moving = me->in_stack[k] & me->normal;
	if (moving == 0)
		return MOVE_STAY;
	assert(me->attacking == attacked(me) && en->attacking == attacked(en));
	int atk[FAST_SLOTS];
	int active;
	bool dis;
	if (en->attacking >> k & 1) { /* avoids: against the attackers' melee CF */
		int natk = attackers_of(b, s, k, atk);
		int64_t theirs = 0;
		for (int i = 0; i < natk; i++)
			theirs += melee_cf(b, 1 - s, atk[i], &active, &dis);
		return frayi_adbg_avoids(theirs, melee_cf(b, s, k, &active, &dis)) ? MOVE_AVOID : MOVE_STAY;
	}
	/* k stands in its column (alive, not atop): at its front? */
	int pos = me->pos[k];
	/* tidy keeps front[] of each position it has no work at */
	assert((me->untidy >> pos & 1) || me->front[pos] == front(me, pos));
	assert((en->untidy >> pos & 1) || en->front[pos] == front(en, pos));
	bool mfront = (me->untidy >> pos & 1 ? front(me, pos) : me->front[pos]) == k;
	int efront = en->untidy >> pos & 1 ? front(en, pos) : en->front[pos];
	if (mfront && efront >= 0 && !(me->attacking >> efront & 1)) {
		int64_t theirs = melee_cf(b, 1 - s, efront, &active, &dis);
		int mine = cf_of(&b->f->c[s], moving); /* at most 32 units of CF 9 x 2 */
		if (frayi_adbg_attacks(mine, theirs, active)) {
			*arg = efront;
			return MOVE_ATTACK;
		}
	}
	if (me->row[k] <= 1)
		return MOVE_STAY;
	/* a reserve goes where the enemy faces no one (the options' count
	 * never reaches MAX_OPTIONS: at most 4 + 16 positions) */
	for (int p = 0; p < b->f->npos; p++) {
		if (p == pos || !(en->posm[p] & en->alive & ~en->atop))
			continue;
		if (!(me->posm[p] & me->alive & ~me->atop)) {
			*arg = p;
			return MOVE_POSITION;
		}
	}
	return MOVE_STAY;
}

/* move_stack: stack k's move, its die, then movers and the new place. */
static IN_LINE void move_stack(fb *b, int s, int k)
{
	int arg = 0, kind = direct_move(b, s, k, &arg);
	if (kind == MOVE_STAY)
		return;
	fast_side *d = &b->sd[s];
	const fast_const *c = &b->f->c[s];
	uint32_t moving = d->in_stack[k] & d->normal;
	bool sw = b->round == 1 && b->f->surprised == 1 - s;
	unsigned faces = c->move[stack_leader(b, s, k)][(moving & c->regular) != 0]
				[(moving & ~c->warrior) != 0][kind == MOVE_AVOID][sw];
	d->moved |= (uint32_t)1 << k;
	if (!frayi_d6_in(b->rng, faces))
		return;
	if (kind == MOVE_AVOID) {
		int atk[FAST_SLOTS], natk = attackers_of(b, s, k, atk);
		for (int i = 0; i < natk; i++)
			return_home(b, 1 - s, atk[i]);
		return;
	}
	/* movers: the undisrupted units, with the leaders, as a stack of their own */
	int m = k, from = d->pos[k];
	if (moving != d->in_stack[k]) {
		uint32_t free_slots = ~d->used;
		if (!free_slots)
			return; /* no room to split the stack: it stays */
		m = __builtin_ctz(free_slots);
		d->used |= (uint32_t)1 << m;
		d->atop &= ~((uint32_t)1 << m);
		d->moved &= ~((uint32_t)1 << m);
		d->foe[m] = 0;
		d->home_pos[m] = 0;
		d->home_row[m] = 0;
		set_pos(d, m, d->pos[k]);
		d->row[m] = d->row[k];
		d->origin[m] = (int8_t)k;
		d->in_stack[k] &= ~moving;
		d->in_stack[m] = moving;
		d->alive |= (uint32_t)1 << m; /* k keeps its disrupted units */
		for (uint32_t u = moving; u; u &= u - 1)
			d->ustack[__builtin_ctz(u)] = (int8_t)m;
		d->lm[m] = d->lm[k];
		d->lm[k] = 0;
	}
	d->moved |= (uint32_t)1 << m;
	switch (kind) {
	case MOVE_ATTACK:
		d->home_pos[m] = d->pos[m];
		d->home_row[m] = d->row[m];
		d->atop |= (uint32_t)1 << m;
		d->foe[m] = (int8_t)arg;
		d->attacking |= (uint32_t)1 << arg;
		break;
	case MOVE_POSITION:
		set_pos(d, m, arg);
		d->row[m] = 1000;
		d->origin[m] = -1;
		break;
	default:
		break;
	}
	if (d->origin[m] >= 0 && kind != MOVE_ATTACK)
		d->origin[m] = -1;
	d->untidy |= (uint32_t)1 << from | (uint32_t)1 << d->pos[m];
	tidy(b);
}

static void movement_phase(fb *b, int s)
{
	fast_side *d = &b->sd[s];
	bool surprised = b->round == 1 && b->f->surprised == s;
	for (int p = 0; p < b->f->npos; p++) {
		int col[FAST_SLOTS], n = column(d, p, col);
		for (int i = 0; i < n; i++) {
			int k = col[i];
			if ((~d->used | d->moved | d->atop) >> k & 1)
				continue;
			if (surprised && stack_leader(b, s, k) == 0)
				continue;
			move_stack(b, s, k);
		}
	}
}

/* ---- 19.2.3 melee ---- */

/* lose_units: the heuristic gives up the weakest, a disrupted one first. */
static void lose_units(fb *b, int s, int k, int *units, int n, int loss)
{
	fast_side *d = &b->sd[s];
	const int8_t *melee = b->f->c[s].melee;
	for (int lost = 0; lost < loss && n > 0; lost++) {
		int best = 0;
		for (int i = 1; i < n; i++) {
			int u = units[i], bu = units[best];
			if (frayi_adbg_gives_up_before(d->status[u], melee[u], d->status[bu], melee[bu]))
				best = i;
		}
		int u = units[best];
		set_unit(d, u, k, FRAY_ADBG_ELIMINATED);
		units[best] = units[--n];
	}
}

/* apply_melee_loss: the stack's units not routed take the loss. */
static void apply_melee_loss(fb *b, int s, int k, int loss)
{
	fast_side *d = &b->sd[s];
	int u[FRAY_ADBG_MAX_UNITS], n = 0;
	for (uint32_t m = d->in_stack[k] & ~d->routed; m; m &= m - 1)
		u[n++] = __builtin_ctz(m);
	if (loss == FRAY_ADBG_ROUTE_ALL) {
		for (int i = 0; i < n; i++)
			set_unit(d, u[i], k, FRAY_ADBG_REMOVED);
		return;
	}
	lose_units(b, s, k, u, n, loss);
}

static void melee(fb *b, int s, int k)
{
	const fray_adbg_scenario *sc = b->sc;
	int e = 1 - s, dstk = b->sd[s].foe[k];
	int aact, dact;
	bool adis, ddis;
	int64_t acf = melee_cf(b, s, k, &aact, &adis);
	int64_t dcf = melee_cf(b, e, dstk, &dact, &ddis);
	if (dact == 0) {
		fast_side *d = &b->sd[e];
		for (uint32_t m = d->in_stack[dstk]; m; m &= m - 1)
			set_unit(d, __builtin_ctz(m), dstk, FRAY_ADBG_ELIMINATED);
		return;
	}
	/* fray_adbg_melee, sampling: the column, one die, the row */
	const fray_adbg_crt *crt = &sc->crt;
	int shift = stack_leader(b, s, k) - stack_leader(b, e, dstk) + ddis +
		    (b->round == 1 && sc->surprised == e);
	int col = clamp_int(fray_adbg_crt_column(crt, acf, dcf) + shift, 0, crt->ncols - 1);
	int natural = 1 + (int)frayi_d6(b->rng);
	int row = clamp_int(natural + b->f->c[s].melee_drm, crt->first_row, crt->first_row + crt->nrows - 1);
	const int *cell = crt->losses[row - crt->first_row][col];
	apply_melee_loss(b, s, k, cell[0]);
	apply_melee_loss(b, e, dstk, cell[1]);
	if (cell[0] != 0)
		leader_loss(b, s, k, &sc->loss_melee);
	if (cell[1] != 0)
		leader_loss(b, e, dstk, &sc->loss_melee);
}

/* ---- a round (whole_round) ---- */

static void round_of(fb *b)
{
	const adbg_fast *f = b->f;
	int ini = f->initiative;
	if (f->npos > 0)
		b->sd[0].moved = b->sd[1].moved = 0;
	for (int i = 0; i < 2; i++) {
		int s = i ? 1 - ini : ini;
		if (b->round == 1 && f->surprised == s)
			continue; /* fire_skipped */
		for (int p = 0; p < f->npos; p++)
			fire_position(b, s, p);
	}
	if (f->npos > 0)
		tidy(b);
	movement_phase(b, ini);
	movement_phase(b, 1 - ini);
	for (int i = 0; i < 2; i++) {
		int s = i ? 1 - ini : ini;
		fast_side *d = &b->sd[s];
		for (uint32_t m = d->atop & d->used; m; m &= m - 1) {
			int k = __builtin_ctz(m), foe = d->foe[k];
			const fast_side *o = &b->sd[1 - s];
			if (d->in_stack[k] && (o->used >> foe & 1) && o->in_stack[foe])
				melee(b, s, k);
			return_home(b, s, k);
		}
	}
	tidy(b);
	for (int i = 0; i < 2; i++) {
		int s = i ? 1 - ini : ini;
		fast_side *d = &b->sd[s];
		const fast_const *c = &f->c[s];
		/* recovery_step for each unit disrupted or routed, in order */
		for (uint32_t m = ~d->normal & c->units; m; m &= m - 1) {
			int u = __builtin_ctz(m);
			fray_adbg_status st = (fray_adbg_status)d->status[u];
			if (st != FRAY_ADBG_DISRUPTED && st != FRAY_ADBG_ROUTED)
				continue;
			int k = unit_stack(d, u);
			if (frayi_d6_in(b->rng, c->recover[stack_leader(b, s, k)]))
				set_unit(d, u, k, (fray_adbg_status)(st - 1));
		}
	}
}

/* ---- 19.3 end of battle (end_battle) ---- */

#ifndef NDEBUG
/* Side d's unit masks against its statuses (the assertions' check). */
static bool masks_match(const fast_side *d, int nunits)
{
	for (int i = 0; i < nunits; i++) {
		fray_adbg_status st = (fray_adbg_status)d->status[i];
		if ((d->normal >> i & 1) != (st == FRAY_ADBG_NORMAL) || (d->routed >> i & 1) != (st == FRAY_ADBG_ROUTED) ||
		    (d->out >> i & 1) != !in_line(st) || (d->removed >> i & 1) != (st == FRAY_ADBG_REMOVED))
			return false;
	}
	return nunits >= 32 || !((d->normal | d->routed | d->out | d->removed) >> nunits);
}
#endif

static void end_of(fb *b, fray_adbg_result *res)
{
	assert(masks_match(&b->sd[0], b->f->c[0].nunits) && masks_match(&b->sd[1], b->f->c[1].nunits));
	const fray_adbg_scenario *sc = b->sc;
	memset(res, 0, sizeof *res);
	/* the routed units' fate (R30: a removed one too), side by side and
	 * unit by unit (the masks' bits in order); the counts by status from
	 * the masks */
	for (int s = 0; s < 2; s++) {
		const fast_side *d = &b->sd[s];
		uint32_t fate = d->routed | d->removed, gone = 0;
		if (sc->routed == ADBG_ROUTED_ELIMINATED)
			gone = fate;
		else if (sc->routed == ADBG_ROUTED_ROLL)
			for (uint32_t m = fate; m; m &= m - 1)
				if (check(b, &sc->routed_check))
					gone |= m & -m;
		int *count = res->side[s].count;
		count[FRAY_ADBG_NORMAL] = bits(d->normal);
		count[FRAY_ADBG_DISRUPTED] =
			bits(b->f->c[s].units & ~(d->normal | d->routed | d->out));
		count[FRAY_ADBG_ROUTED] = bits(d->routed & ~gone);
		count[FRAY_ADBG_ELIMINATED] = bits((d->out & ~d->removed) | gone);
		count[FRAY_ADBG_REMOVED] = bits(d->removed & ~gone);
		res->side[s].leaders_lost = bits(d->llost);
	}
	frayi_adbg_tally(sc, res);
}

/* The start of a side of few slots and units (adbg_fast's few): what is
 * copied whole, then the first FAST_FEW of each array by slot or unit. */
static IN_LINE void start_side(fast_side *d, const fast_side *s0)
{
	memcpy(d, s0, offsetof(fast_side, in_stack));
	memcpy(d->in_stack, s0->in_stack, FAST_FEW * sizeof d->in_stack[0]);
	memcpy(d->row, s0->row, FAST_FEW * sizeof d->row[0]);
	memcpy(d->home_row, s0->home_row, FAST_FEW * sizeof d->home_row[0]);
	memcpy(d->foe, s0->foe, FAST_FEW);
	memcpy(d->home_pos, s0->home_pos, FAST_FEW);
	memcpy(d->origin, s0->origin, FAST_FEW);
	memcpy(d->lm, s0->lm, FAST_FEW);
	memcpy(d->status, s0->status, FAST_FEW);
	memcpy(d->ustack, s0->ustack, FAST_FEW);
}

void frayi_adbg_fast_battle(const fray_adbg_scenario *sc, const adbg_fast *f, fray_rng *rng,
			    fray_adbg_result *res)
{
	fb b;
	b.sc = sc;
	b.f = f;
	b.rng = rng;
	if (f->few) {
		start_side(&b.sd[0], &f->start[0]);
		start_side(&b.sd[1], &f->start[1]);
	} else {
		memcpy(b.sd, f->start, sizeof b.sd);
	}
	/* determine_rounds: the heuristic's choice and the die, as masks */
	int rounds = f->base_rounds + (f->attempt && frayi_d6_in(rng, f->extra_faces));
	for (b.round = 1; b.round <= rounds; b.round++)
		round_of(&b);
	end_of(&b, res);
	res->rounds = rounds;
}

void frayi_adbg_fast_finish(adbg_fast *f)
{
	f->few = true;
	for (int s = 0; s < 2; s++) {
		fast_const *c = &f->c[s];
		fast_side *d = &f->start[s];
		d->attacking = attacked(d);
		f->few &= c->nunits <= FAST_FEW && !(d->used >> FAST_FEW);
		d->out = d->removed = 0;
		for (int i = 0; i < c->nunits; i++) {
			d->out |= (uint32_t)!in_line((fray_adbg_status)d->status[i]) << i;
			d->removed |= (uint32_t)(d->status[i] == FRAY_ADBG_REMOVED) << i;
		}
		for (int i = 0; i < c->nunits; i++)
			f->ok &= c->melee_cf[i] >= 0 && c->melee_cf[i] <= 255;
		for (unsigned m = 1; m < 256; m++) {
			int i = __builtin_ctz(m);
			c->cf_low[m] = (uint16_t)(c->cf_low[m & (m - 1)] + (i < c->nunits ? c->melee_cf[i] : 0));
		}
	}
}
