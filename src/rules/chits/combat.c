/* A chit-pull combat (chit-combat.txt): chits drawn one at a time without
 * replacement, each read in the combat's situation (R22), hits summed and
 * reduced, the defender's effects before the attacker's, hits allocated
 * lead battalion first with retreats to negate (R23, R25), then fatigue and
 * morale on the side with more hits (R22); and the end of turn. */
#include <stdio.h>
#include <string.h>
#include "../../core/internal.h"
#include <fray/chits.h>
#include "chits_internal.h"

static const char *const side_names[2] = {"attacker", "defender"};

static void say(fray_roller *r, const char *rule, const char *fmt, ...) FRAY_PRINTF(3, 4);
static void say(fray_roller *r, const char *rule, const char *fmt, ...)
{
	if (!fray_roller_narrating(r))
		return;
	char text[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(text, sizeof text, fmt, ap);
	va_end(ap);
	fray_emit_note(r, text, rule);
}

static bool yes_no(fray_roller *r, fray_policy *p, int side, const char *kind,
		   const char *prompt, bool suggest)
{
	static const char *const opts[] = {"no", "yes"};
	fray_choice c = {.kind = kind, .prompt = prompt, .noptions = 2, .options = opts,
			 .suggested = suggest, .side = side};
	return fray_decide(r, p, &c) == 1;
}

/* R23: a non-lead battalion may take a hit while it has fewer this combat
 * than the lead (the lead takes a second before any other takes one). */
static bool may_take(const fray_chits_unit *u, const int *now, int b)
{
	/* R23: the lead takes the first hit, and its second before any other
	 * battalion takes a second; past that the text sets no order, so any
	 * battalion may take a third or later hit (the owner's choice) */
	if (b == u->lead)
		return true;
	return now[u->lead] > 0 && (now[b] == 0 || now[u->lead] >= 2);
}

/* A level raised by `by`, held at FRAY_CHITS_MAX_LEVEL: the text bounds no
 * hits or fatigue points, and fray holds 0 to 99 of each everywhere (the
 * game file, combat files, the end of turn) so that what a combat leaves
 * can be read again (issue 40 item 9: a combat could leave fatigue 100).
 * fray's reading, docs/chits.md. */
static int level_plus(int level, int by)
{
	return level + by < FRAY_CHITS_MAX_LEVEL ? level + by : FRAY_CHITS_MAX_LEVEL;
}

/* Applies one hit to unit u, the owner choosing the battalion within R23. */
static void take_hit(fray_roller *r, fray_policy *p, int side, fray_chits_unit *u, int *now)
{
	int legal[FRAY_CHITS_MAX_BATTALIONS], n = 0;
	for (int b = 0; b < u->battalions; b++)
		if (may_take(u, now, b))
			legal[n++] = b;
	size_t best = 0;
	char labels[FRAY_CHITS_MAX_BATTALIONS][32];
	const char *opts[FRAY_CHITS_MAX_BATTALIONS];
	for (int i = 0; i < n; i++) {
		snprintf(labels[i], sizeof labels[i], "battalion %d%s", legal[i] + 1,
			 legal[i] == u->lead ? " (lead)" : "");
		opts[i] = labels[i];
		/* heuristic: spread, the legal battalion with fewest hits now */
		if (now[legal[i]] < now[legal[best]] ||
		    (now[legal[i]] == now[legal[best]] && legal[best] == u->lead))
			best = (size_t)i;
	}
	size_t c = 0;
	if (n > 1) {
		char prompt[96];
		snprintf(prompt, sizeof prompt, "%s: which battalion takes the hit?", u->name);
		fray_choice ch = {.kind = "chits.battalion", .prompt = prompt, .noptions = (size_t)n,
				  .options = opts, .suggested = best, .side = side};
		c = fray_decide(r, p, &ch);
	}
	int b = legal[c];
	now[b]++;
	u->hits[b] = level_plus(u->hits[b], 1);
	say(r, "ruling R23", "%s: a hit on battalion %d%s", u->name, b + 1,
	    b == u->lead ? " (lead)" : "");
}

/* The hits of one unit in one combat: the first on the lead battalion;
 * then up to two negated by retreats, if a legal retreat exists (R23):
 * the first gives a fatigue point, the second also disorders (R25). */
static void allocate_unit(fray_roller *r, fray_policy *p, int side, fray_chits_unit *u,
			  int hits, int *retreats)
{
	int now[FRAY_CHITS_MAX_BATTALIONS] = {0};
	for (int h = 0; h < hits && !fray_roller_stopped(r); h++) {
		if (h > 0 && *retreats < 2 && u->can_retreat) {
			char prompt[128];
			snprintf(prompt, sizeof prompt, "%s: retreat one space to negate a hit?", u->name);
			/* heuristic: a defender gives ground, an attacker keeps it */
			if (yes_no(r, p, side, "chits.retreat", prompt, side == 1)) {
				(*retreats)++;
				if (*retreats == 1) {
					u->fatigue = level_plus(u->fatigue, 1);
					say(r, "ruling R23", "%s retreats a space: the hit is negated, +1 fatigue point",
					    u->name);
				} else {
					u->disordered = true;
					say(r, "ruling R23, R25", "%s retreats again: the hit is negated, disordered",
					    u->name);
				}
				continue;
			}
		}
		take_hit(r, p, side, u, now);
	}
}

static void allocate(fray_roller *r, fray_policy *p, int side, fray_chits_side *s, int hits,
		     int *retreats)
{
	int per[FRAY_CHITS_MAX_UNITS] = {0};
	if (s->nunits == 1) {
		per[0] = hits;
	} else {
		/* several units: the owner spreads the hits (heuristic: evenly) */
		char labels[FRAY_CHITS_MAX_UNITS][56];
		const char *opts[FRAY_CHITS_MAX_UNITS];
		for (int i = 0; i < s->nunits; i++) {
			snprintf(labels[i], sizeof labels[i], "%s", s->units[i].name);
			opts[i] = labels[i];
		}
		for (int h = 0; h < hits; h++) {
			size_t best = 0;
			for (int i = 1; i < s->nunits; i++)
				if (per[i] < per[best])
					best = (size_t)i;
			fray_choice c = {.kind = "chits.unit", .prompt = "which unit takes the hit?",
					 .noptions = (size_t)s->nunits, .options = opts,
					 .suggested = best, .side = side};
			per[fray_decide(r, p, &c)]++;
		}
	}
	for (int i = 0; i < s->nunits; i++) {
		int rt = 0;
		allocate_unit(r, p, side, &s->units[i], per[i], &rt);
		*retreats += rt;
	}
}

/* The mix's test (G5) against the unit's morale level: the level told
 * as the base term and its TOTAL, the number the roll is read against. */
static bool test_roll(fray_roller *r, const fray_chits_mix *m, const fray_chits_unit *u, const char *what,
		      int64_t *roll)
{
	if (fray_roller_narrating(r)) {
		char term[96];
		snprintf(term, sizeof term, "%.48s's morale level", u->name);
		fray_emit_modifier(r, term, u->morale, "chit combat, G5");
		fray_emit_total(r, m->morale_at_least ? "the test passes on at least" : "the test passes on at most",
				u->morale, "chit combat, G5");
	}
	*roll = fray_dice_roll_as(m->morale_dice, r, what);
	return m->morale_at_least ? *roll >= u->morale : *roll <= u->morale;
}

/* A failed test reduces the unit's morale (example 3: "reducing one of the
 * regiments' morale levels"): the next test is harder. Passing at most the
 * level, the level goes down one; passing at least it, up one (lowering it
 * would make the next test easier). The text has no level past the worst:
 * the level stops at 0 (at most) or FRAY_CHITS_MAX_LEVEL (at least), fray's
 * reading (docs/chits.md). */
static int worse_morale(const fray_chits_mix *m, int level)
{
	if (m->morale_at_least)
		return level < FRAY_CHITS_MAX_LEVEL ? level + 1 : level;
	return level > 0 ? level - 1 : level;
}

static bool morale_test(fray_roller *r, const fray_chits_mix *m, fray_chits_unit *u)
{
	char what[80];
	snprintf(what, sizeof what, "morale test, %s", u->name);
	int64_t roll;
	bool pass = test_roll(r, m, u, what, &roll);
	if (pass) {
		say(r, "G5", "%s passes (%s %lld against morale %d)%s", u->name, m->morale_text,
		    (long long)roll, u->morale, u->disordered ? ": disorder removed" : "");
		u->disordered = false;
	} else {
		int was = u->morale;
		u->morale = worse_morale(m, u->morale);
		say(r, "G5", "%s fails (%s %lld against morale %d): morale level %d%s", u->name, m->morale_text,
		    (long long)roll, was, u->morale, u->morale == was ? " (no worse level)" : " (one worse)");
	}
	return pass;
}

/* The sides F and M fall on: the one with more hits, both on a tie (R22). */
static unsigned effect_targets(const int *hits)
{
	return hits[0] > hits[1] ? 1u : hits[1] > hits[0] ? 2u : 3u;
}

/* The state a caller hands in is checked here, never trusted (issue 29):
 * an index out of range would read or write outside the unit. Each check
 * fails the run with FRAY_ERR_INPUT and says which value and why. */
static bool refuse(fray_roller *r, const char *fmt, ...) FRAY_PRINTF(2, 3);
static bool refuse(fray_roller *r, const char *fmt, ...)
{
	char msg[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	fray_roller_fail(r, FRAY_ERR_INPUT, msg);
	return false;
}

/* The text's combats are always an attacker against the other player's
 * brigade (examples 1-3), and a retreat ends away from "enemy units". */
FRAY_API const char *fray_chits_target_refused(bool same_side)
{
	return same_side ? "a brigade attacks the other side's units only (chit combat)" : NULL;
}

FRAY_API const char *fray_chits_unit_problem(const fray_chits_unit *u, char *buf, size_t cap)
{
	if (!u)
		snprintf(buf, cap, "no unit (NULL)");
	else if (u->battalions < 1 || u->battalions > FRAY_CHITS_MAX_BATTALIONS)
		snprintf(buf, cap, "%.48s: %d battalions, expected 1 to %d", u->name, u->battalions,
			 FRAY_CHITS_MAX_BATTALIONS);
	else if (u->lead < 0 || u->lead >= u->battalions)
		snprintf(buf, cap, "%.48s: lead battalion %d, expected 1 to %d (its battalions)", u->name,
			 u->lead + 1, u->battalions);
	else if (u->morale < 0 || u->morale > FRAY_CHITS_MAX_LEVEL)
		snprintf(buf, cap, "%.48s: morale level %d, expected 0 to %d", u->name, u->morale,
			 FRAY_CHITS_MAX_LEVEL);
	else if (u->fatigue < 0 || u->fatigue > FRAY_CHITS_MAX_LEVEL)
		snprintf(buf, cap, "%.48s: %d fatigue points, expected 0 to %d", u->name, u->fatigue,
			 FRAY_CHITS_MAX_LEVEL);
	else {
		for (int b = 0; b < u->battalions; b++)
			if (u->hits[b] < 0 || u->hits[b] > FRAY_CHITS_MAX_LEVEL) {
				snprintf(buf, cap, "%.48s: battalion %d has %d hits, expected 0 to %d", u->name,
					 b + 1, u->hits[b], FRAY_CHITS_MAX_LEVEL);
				return buf;
			}
		return NULL;
	}
	return buf;
}

FRAY_API const char *fray_chits_situation_problem(const fray_chits_mix *m, const fray_chits_situation *s,
						  char *buf, size_t cap)
{
	if (!m || !s)
		snprintf(buf, cap, "no %s (NULL)", m ? "situation" : "chit mix");
	else if (m->nchits < 0 || m->nchits > FRAY_CHITS_MAX_CHITS || m->ntactics < 1 ||
		 m->ntactics > FRAY_CHITS_MAX_TACTICS || !m->morale_dice)
		snprintf(buf, cap, "the chit mix is not one fray_chits_mix_read made");
	else if (s->tactic < 0 || s->tactic >= m->ntactics)
		snprintf(buf, cap, "tactic %d, expected 0 to %d (the mix's tactics)", s->tactic, m->ntactics - 1);
	else if (s->stance < 0 || s->stance > 2)
		snprintf(buf, cap, "stance %d, expected 0 (defend), 1 (hold) or 2 (evade)", s->stance);
	else if (s->terrain < 0 || s->terrain > 6)
		snprintf(buf, cap, "terrain %d, expected 0 to 6", s->terrain);
	else if (s->attacker_type < 0 || s->attacker_type > 2 || s->defender_type < 0 || s->defender_type > 2)
		snprintf(buf, cap, "unit types %d and %d, expected 0 to 2", s->attacker_type, s->defender_type);
	else if (s->attacker_cdr < 1 || s->defender_cdr < 1 || s->attacker_cdr > FRAY_CHITS_MAX_CDR ||
		 s->defender_cdr > FRAY_CHITS_MAX_CDR)
		snprintf(buf, cap, "combat die rolls %d and %d, expected 1 to %d", s->attacker_cdr,
			 s->defender_cdr, FRAY_CHITS_MAX_CDR);
	else
		return NULL;
	return buf;
}

/* The draws' inputs: the situation, the count and the scripted chits
 * (chits are drawn without replacement: never more than the mix holds). */
bool frayi_chits_draws_fit(fray_roller *r, const fray_chits_combat_in *in)
{
	char why[256];
	if (!in)
		return refuse(r, "no combat (NULL)");
	if (fray_chits_situation_problem(in->mix, &in->situation, why, sizeof why))
		return refuse(r, "%s", why);
	if (in->draw > in->mix->nchits)
		return refuse(r, "more chits to draw than the mix holds");
	if (in->draw < 0 || in->draw > 16)
		return refuse(r, "%d chits to draw, expected 0 to 16", in->draw);
	if (in->nscript < 0 || in->nscript > 16)
		return refuse(r, "%d scripted chits, expected 0 to 16", in->nscript);
	for (int k = 0; k < in->nscript; k++) {
		if (in->script[k] < 0 || in->script[k] >= in->mix->nchits)
			return refuse(r, "scripted chit %d: no such chit in the mix", in->script[k]);
		for (int j = 0; j < k; j++)
			if (in->script[j] == in->script[k])
				return refuse(r, "chit %s scripted twice: chits are drawn without replacement",
					      in->mix->chits[in->script[k]].id);
	}
	/* the draws count morale tests a unit each (0 units: none) */
	for (int x = 0; x < 2; x++)
		if (in->side[x].nunits < 0 || in->side[x].nunits > FRAY_CHITS_MAX_UNITS)
			return refuse(r, "the %s has %d units, expected 0 to %d", side_names[x], in->side[x].nunits,
				      FRAY_CHITS_MAX_UNITS);
	return true;
}

/* The whole combat's inputs: the draws', every unit's state, and the
 * rules a combat must meet before a chit is drawn: the defender's stance
 * (ruling R29) and the tactic's chit count. */
static bool combat_fits(fray_roller *r, const fray_chits_combat_in *in)
{
	char why[256];
	if (!frayi_chits_draws_fit(r, in))
		return false;
	for (int x = 0; x < 2; x++)
		if (in->side[x].nunits < 1)
			return refuse(r, "the %s has no units", side_names[x]);
	for (int x = 0; x < 2; x++)
		for (int i = 0; i < in->side[x].nunits; i++)
			if (fray_chits_unit_problem(&in->side[x].units[i], why, sizeof why))
				return refuse(r, "the %s's unit %d: %s", side_names[x], i + 1, why);
	if (fray_chits_stance_problem(in->mix, &in->situation, why, sizeof why))
		return refuse(r, "%s", why);
	if (fray_chits_tactic_problem(in->mix, &in->situation, why, sizeof why))
		return refuse(r, "%s", why);
	if (fray_chits_draw_problem(in->mix, &in->situation, in->draw, why, sizeof why))
		return refuse(r, "%s", why);
	return true;
}

FRAY_API void fray_chits_combat(fray_roller *r, fray_policy *p, const fray_chits_combat_in *in,
				fray_chits_combat_out *out)
{
	frayi_chits_combat_tests(r, p, in, out, true);
}

void frayi_chits_combat_tests(fray_roller *r, fray_policy *p, const fray_chits_combat_in *in,
			      fray_chits_combat_out *out, bool tests)
{
	if (!out) {
		refuse(r, "no place for the outcome (NULL)");
		return;
	}
	memset(out, 0, sizeof *out);
	if (!combat_fits(r, in))
		return;
	const fray_chits_mix *m = in->mix;
	const fray_chits_situation *s = &in->situation;
	out->side[0] = in->side[0];
	out->side[1] = in->side[1];
	char ratio[16];
	fray_chits_ratio_text(fray_chits_ratio(s->attacker_cdr, s->defender_cdr), ratio, sizeof ratio);
	/* the ratio's inputs told (each a total of its own: the players'
	 * modified combat die rolls), then the ratio (R21) */
	if (fray_roller_narrating(r)) {
		fray_emit_modifier(r, "attacker's modified combat die roll", s->attacker_cdr, "ruling R21");
		fray_emit_total(r, "attacker's combat die roll", s->attacker_cdr, "ruling R21");
		fray_emit_modifier(r, "defender's modified combat die roll", s->defender_cdr, "ruling R21");
		fray_emit_total(r, "defender's combat die roll", s->defender_cdr, "ruling R21");
	}
	say(r, "ruling R21", "combat die rolls %d to %d: %s", s->attacker_cdr, s->defender_cdr, ratio);
	/* configurable data whose default stood is said so (RULES-NOTES) */
	if (m->defensible_default && s->stance == 0)
		say(r, "ruling R29", "defend: every terrain but open is defensible (ruling R29's default: the "
		    "mix lists no defensible terrain)");
	if (m->evaders_default && s->stance == 2)
		say(r, "ruling R29", "evade: only cavalry may evade (ruling R29's default: the mix names no "
		    "evaders)");
	unsigned pool[FRAY_CHITS_MAX_CHITS];
	/* a drawn chit told once, by its id and name, in the draw's event */
	char label[FRAY_CHITS_MAX_CHITS][sizeof m->chits[0].id + sizeof m->chits[0].name + 1];
	const char *labels[FRAY_CHITS_MAX_CHITS];
	bool narrating = fray_roller_narrating(r);
	for (int i = 0; i < m->nchits; i++) {
		pool[i] = 1;
		if (narrating)
			snprintf(label[i], sizeof label[i], "%s%s%s", m->chits[i].id, m->chits[i].name[0] ? " " : "",
				 m->chits[i].name);
		labels[i] = label[i];
	}
	fray_chits_effect sum = {{0, 0}, {0, 0}, 0, 0};
	for (int k = 0; k < in->draw && !fray_roller_stopped(r); k++) {
		bool drawn = k >= in->nscript;
		int idx = drawn ? (int)fray_draw_named(r, pool, (size_t)m->nchits, "chit", narrating ? labels : NULL)
				: in->script[k];
		pool[idx] = 0;
		const fray_chit *c = &m->chits[idx];
		unsigned which = fray_chits_applies(c, s);
		fray_chits_effect e = fray_chits_effect_of(c, s);
		for (int x = 0; x < 2; x++) {
			sum.hits[x] += e.hits[x];
			sum.reduce[x] += e.reduce[x];
		}
		sum.fatigue += e.fatigue;
		sum.morale += e.morale;
		/* plain words: the chit by its id and name (a drawn one: told
		 * by its draw) */
		if (!drawn)
			say(r, "chit rules", "drew %s%s%s", c->id, c->name[0] ? " " : "", c->name);
		if (which == 0)
			say(r, "chit rules", "chit %s: neither side applies: no result", c->id);
		for (int f = 0; f < 2; f++)
			if (which >> f & 1)
				say(r, which == 3 ? "both apply" : "ruling R22", "chit %s, side %c: %s", c->id,
				    "ab"[f], c->face[f].text);
	}
	/* R22: hits summed, then the reductions, before any allocation */
	for (int x = 0; x < 2; x++) {
		int h = sum.hits[x] - sum.reduce[x];
		out->hits[x] = h > 0 ? h : 0;
	}
	say(r, "ruling R22", "hits: attacker %d, defender %d", out->hits[0], out->hits[1]);
	/* the defender's effects before the attacker's */
	for (int i = 0; i < 2; i++) {
		int side = 1 - i;
		allocate(r, p, side, &out->side[side], out->hits[side], &out->retreats[side]);
	}
	unsigned targets = effect_targets(out->hits);
	for (int side = 1; side >= 0; side--) {
		if (!(targets >> side & 1))
			continue;
		fray_chits_side *sd = &out->side[side];
		if (sum.fatigue) {
			for (int i = 0; i < sd->nunits; i++)
				sd->units[i].fatigue = level_plus(sd->units[i].fatigue, sum.fatigue);
			say(r, "ruling R22", "%s (%s): +%d fatigue point%s", sd->name, side_names[side],
			    sum.fatigue, sum.fatigue == 1 ? "" : "s");
		}
		/* M: a morale test for each regiment of the side, once however
		 * many M were drawn (the tests come at the very end; example 3:
		 * "both test"; issue 14) */
		for (int i = 0; tests && sum.morale > 0 && i < sd->nunits && !fray_roller_stopped(r); i++) {
			out->morale_tests[side]++;
			out->morale_failed[side] += !morale_test(r, m, &sd->units[i]);
		}
	}
}

size_t frayi_chits_by_kind(const fray_chits_combat_in *in, fray_chits_effect *kinds, unsigned *count,
			 unsigned *drawn, size_t *kind_of)
{
	const fray_chits_mix *m = in->mix;
	size_t nk = 0, of[FRAY_CHITS_MAX_CHITS];
	for (int i = 0; i < m->nchits; i++) {
		fray_chits_effect e = fray_chits_effect_of(&m->chits[i], &in->situation);
		size_t k;
		for (k = 0; k < nk && memcmp(&kinds[k], &e, sizeof e) != 0; k++)
			;
		if (k == nk) {
			kinds[nk] = e;
			count[nk] = drawn[nk] = 0;
			nk++;
		}
		count[k]++;
		of[i] = k;
		if (kind_of)
			kind_of[i] = k;
	}
	int scripted = in->nscript < in->draw ? in->nscript : in->draw;
	for (int d = 0; d < scripted; d++) {
		count[of[in->script[d]]]--;
		drawn[of[in->script[d]]]++;
	}
	return nk;
}

/* What advise and --odds weigh: the draws only. Chits with the same effect
 * in this situation are one kind, so K draws branch over kinds, not chits.
 * Scripted chits (a combat file's script) are drawn as written: no
 * branching. Morale tests are counted per regiment, as fought. */
FRAY_API void fray_chits_draws_procedure(fray_roller *r, fray_policy *p, const void *input,
					 int64_t *out)
{
	(void)p;
	const fray_chits_combat_in *in = input;
	memset(out, 0, 4 * sizeof *out);
	if (!frayi_chits_draws_fit(r, in))
		return;
	fray_chits_effect kinds[FRAY_CHITS_MAX_CHITS];
	unsigned count[FRAY_CHITS_MAX_CHITS], drawn[FRAY_CHITS_MAX_CHITS];
	size_t nk = frayi_chits_by_kind(in, kinds, count, drawn, NULL);
	fray_chits_effect sum = {{0, 0}, {0, 0}, 0, 0};
	int scripted = in->nscript < in->draw ? in->nscript : in->draw;
	/* the rest at once: only how many of each kind came out matters
	 * (issue #16), so the deal is one event over the splits, not one
	 * per chit in order */
	_Static_assert(FRAY_CHITS_MAX_CHITS <= FRAY_DEAL_MAX_CATS, "a mix's kinds fit a deal");
	unsigned dealt[FRAY_CHITS_MAX_CHITS] = {0};
	if (nk > 0)
		fray_deal(r, count, nk, (unsigned)(in->draw - scripted), dealt, "chit");
	for (size_t k = 0; k < nk; k++) {
		int n = (int)(drawn[k] + dealt[k]);
		for (int x = 0; x < 2; x++) {
			sum.hits[x] += n * kinds[k].hits[x];
			sum.reduce[x] += n * kinds[k].reduce[x];
		}
		sum.morale += n * kinds[k].morale;
	}
	int hits[2];
	for (int x = 0; x < 2; x++)
		hits[x] = sum.hits[x] > sum.reduce[x] ? sum.hits[x] - sum.reduce[x] : 0;
	unsigned targets = effect_targets(hits);
	out[0] = hits[0];
	out[1] = hits[1];
	out[2] = targets & 1 && sum.morale ? in->side[0].nunits : 0;
	out[3] = targets & 2 && sum.morale ? in->side[1].nunits : 0;
}

/* The end of turn's inputs, checked (issue 29), and the once-a-turn rule:
 * "A unit removes one fatigue point at the end of each turn". */
static bool end_turn_fits(fray_roller *r, const fray_chits_end_turn_in *in)
{
	char why[256];
	if (!in)
		return refuse(r, "no end of turn (NULL)");
	if (fray_chits_unit_problem(&in->unit, why, sizeof why))
		return refuse(r, "%s", why);
	if (in->new_lead < -1 || in->new_lead >= in->unit.battalions)
		return refuse(r, "%.48s: new lead battalion %d, expected 1 to %d", in->unit.name, in->new_lead + 1,
			      in->unit.battalions);
	if (in->hits_since_combat < 0)
		return refuse(r, "%.48s: %d hits since its combat, expected 0 or more", in->unit.name,
			      in->hits_since_combat);
	if ((in->rally || in->recover_disorder) && (!in->mix || !in->mix->morale_dice))
		return refuse(r, "Rally/Recover rolls the mix's morale test: no mix (NULL)");
	if (in->ended_this_turn)
		return refuse(r, "%.48s: its end of turn was taken already this turn (a unit's end of turn "
			      "comes once a turn: chit combat, end of turn)", in->unit.name);
	return true;
}

FRAY_API void fray_chits_end_turn(fray_roller *r, const fray_chits_end_turn_in *in,
				  fray_chits_unit *u)
{
	if (!u) {
		refuse(r, "no place for the unit after (NULL)");
		return;
	}
	if (in)
		*u = in->unit;
	if (!end_turn_fits(r, in))
		return;
	if (u->fatigue > 0) {
		u->fatigue--;
		say(r, "end of turn", "%s recovers 1 fatigue point", u->name);
	}
	if (in->rest) {
		int more = fray_die(r, 3, "Rest order 1d3");
		int off = more < u->fatigue ? more : u->fatigue;
		u->fatigue -= off;
		say(r, "Rest order", "%s rests: %d more fatigue point%s off", u->name, off, off == 1 ? "" : "s");
	}
	if (in->rally) {
		int total = 0, most = 0;
		for (int b = 0; b < u->battalions; b++) {
			total += u->hits[b];
			if (u->hits[b] > u->hits[most])
				most = b;
		}
		if (total <= 1) {
			say(r, "Rally/Recover", "%s: the last hit can never be recovered", u->name);
		} else {
			char what[80];
			snprintf(what, sizeof what, "rally, %s", u->name);
			int64_t roll;
			bool pass = test_roll(r, in->mix, u, what, &roll);
			if (pass)
				u->hits[most]--;
			say(r, "Rally/Recover (G5)", "%s: %s %lld against morale %d: %s", u->name,
			    in->mix->morale_text, (long long)roll, u->morale,
			    pass ? "one hit recovered" : "no recovery");
		}
	}
	if (in->recover_disorder && in->rally) {
		say(r, "Rally/Recover", "%s: disorder cannot be recovered in the activation that rallies",
		    u->name);
	} else if (in->recover_disorder && u->disordered) {
		char what[80];
		snprintf(what, sizeof what, "recover from disorder, %s", u->name);
		int64_t roll;
		bool pass = test_roll(r, in->mix, u, what, &roll);
		if (pass)
			u->disordered = false;
		say(r, "Rally/Recover (G5)", "%s: %s %lld against morale %d: %s", u->name,
		    in->mix->morale_text, (long long)roll, u->morale,
		    pass ? "disorder removed" : "still disordered");
	}
	if (in->new_lead >= 0 && in->new_lead < u->battalions && in->new_lead != u->lead) {
		if (in->hits_since_combat > 0) {
			say(r, "end of turn", "%s: %d hit%s since its last combat this turn: the lead battalion "
			    "stays", u->name, in->hits_since_combat, in->hits_since_combat == 1 ? "" : "s");
		} else {
			u->lead = in->new_lead;
			say(r, "end of turn", "%s: battalion %d now leads", u->name, u->lead + 1);
		}
	}
}

/* The end of turn as a procedure, for its odds: {fatigue, hits, disordered}. */
FRAY_API void fray_chits_end_turn_procedure(fray_roller *r, fray_policy *p, const void *in, int64_t *out)
{
	(void)p;
	fray_chits_unit u = {0};
	fray_chits_end_turn(r, in, &u);
	memset(out, 0, 3 * sizeof *out);
	if (fray_roller_stopped(r))
		return;
	int hits = 0;
	for (int b = 0; b < u.battalions; b++)
		hits += u.hits[b];
	out[0] = u.fatigue;
	out[1] = hits;
	out[2] = u.disordered;
}
