/* The chit mix (RULES-NOTES G5): what is printed on each chit's two sides
 * (a condition and effects), which side has precedence, the tactics' chit
 * counts and the morale test; read from YAML with every problem reported.
 * Also the situation a chit is read in (R21 ratio, R22 precedence). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../../core/internal.h"
#include <fray/chits.h>
#include "../../common/text.h"

FRAY_API const char *const fray_chits_terrains[7] = {"open", "village", "town", "woods",
					    "hills", "marsh", "river"};
FRAY_API const char *const fray_chits_stances[3] = {"defend", "hold", "evade"};
FRAY_API const char *const fray_chits_types[3] = {"infantry", "cavalry", "artillery"};

/* R21 */
FRAY_API int fray_chits_ratio(int a, int d)
{
	if (a >= d)
		return a / d;
	return 2 - d / a;
}

FRAY_API void fray_chits_ratio_text(int ratio, char *dst, size_t cap)
{
	if (ratio >= 1)
		snprintf(dst, cap, "%d:1", ratio);
	else
		snprintf(dst, cap, "1:%d", 2 - ratio);
}

static int index_of(const char *s, const char *const *names, int n)
{
	for (int i = 0; i < n; i++)
		if (strcmp(s, names[i]) == 0)
			return i;
	return -1;
}

/* "2:1" or "1:3" on the ratio scale; false when not such a ratio. */
static bool parse_ratio(const char *s, int *out)
{
	char *end;
	long a = strtol(s, &end, 10);
	if (end == s || *end != ':' || a < 1 || a > 99)
		return false;
	const char *t = end + 1;
	long b = strtol(t, &end, 10);
	if (end == t || *end || b < 1 || b > 99 || (a != 1 && b != 1))
		return false;
	*out = b == 1 ? (int)a : 2 - (int)b;
	return true;
}

static const char *const cond_help =
	"expected a condition: always; ratio at least|at most|is N:1 or 1:N; terrain is T; "
	"tactic is T; stance is defend|hold|evade; attacker rolled higher; defender rolled "
	"higher; attacker is T; defender is T";

static bool parse_cond(fray_doc *doc, const fray_node *n, const fray_chits_mix *m,
		       fray_chits_cond *c)
{
	const char *s = fray_node_scalar(n);
	if (!s) {
		fray_doc_error(doc, n, "%s", cond_help);
		return false;
	}
	char w[4][32] = {"", "", "", ""};
	int nw = sscanf(s, "%31s %31s %31s %31s", w[0], w[1], w[2], w[3]);
	int v;
	if (nw == 1 && strcmp(w[0], "always") == 0) {
		c->kind = FRAY_CHITS_ALWAYS;
		return true;
	}
	if (strcmp(w[0], "ratio") == 0) {
		const char *r = NULL;
		if (nw == 4 && strcmp(w[1], "at") == 0 && strcmp(w[2], "least") == 0)
			c->kind = FRAY_CHITS_RATIO_AT_LEAST, r = w[3];
		else if (nw == 4 && strcmp(w[1], "at") == 0 && strcmp(w[2], "most") == 0)
			c->kind = FRAY_CHITS_RATIO_AT_MOST, r = w[3];
		else if (nw == 3 && strcmp(w[1], "is") == 0)
			c->kind = FRAY_CHITS_RATIO_IS, r = w[2];
		if (r && parse_ratio(r, &v)) {
			c->value = v;
			return true;
		}
		fray_doc_error(doc, n, "expected a ratio condition such as \"ratio at least 2:1\" or \"ratio is 1:2\"");
		return false;
	}
	if (nw == 3 && strcmp(w[2], "higher") == 0 && strcmp(w[1], "rolled") == 0 &&
	    (strcmp(w[0], "attacker") == 0 || strcmp(w[0], "defender") == 0)) {
		c->kind = w[0][0] == 'a' ? FRAY_CHITS_ATTACKER_HIGHER : FRAY_CHITS_DEFENDER_HIGHER;
		return true;
	}
	if (nw == 3 && strcmp(w[1], "is") == 0) {
		struct {
			const char *word;
			fray_chits_cond_kind kind;
			const char *const *names;
			int n;
		} forms[] = {
			{"terrain", FRAY_CHITS_TERRAIN, fray_chits_terrains, 7},
			{"stance", FRAY_CHITS_STANCE, fray_chits_stances, 3},
			{"attacker", FRAY_CHITS_ATTACKER_TYPE, fray_chits_types, 3},
			{"defender", FRAY_CHITS_DEFENDER_TYPE, fray_chits_types, 3},
		};
		for (size_t f = 0; f < sizeof forms / sizeof forms[0]; f++)
			if (strcmp(w[0], forms[f].word) == 0) {
				v = index_of(w[2], forms[f].names, forms[f].n);
				if (v < 0) {
					char list[128];
					textbuf t = text_on(list, sizeof list);
					for (int i = 0; i < forms[f].n; i++)
						text_add(&t, "%s%s", i ? ", " : "", forms[f].names[i]);
					fray_doc_error(doc, n, "unknown %s '%s': expected one of %s", w[0], w[2], list);
					return false;
				}
				c->kind = forms[f].kind;
				c->value = v;
				return true;
			}
		if (strcmp(w[0], "tactic") == 0) {
			v = fray_chits_tactic_find(m, w[2]);
			if (v < 0) {
				fray_doc_error(doc, n, "unknown tactic '%s': the tactics are the mix's 'tactics'", w[2]);
				return false;
			}
			c->kind = FRAY_CHITS_TACTIC;
			c->value = v;
			return true;
		}
	}
	fray_doc_error(doc, n, "%s", cond_help);
	return false;
}

/* A1, D2 hits; A-1, D-1 fewer hits; F fatigue; M morale test (R25: A and
 * D are the current combat's attacker and defender). */
static bool parse_effect(const char *s, fray_chits_effect *e)
{
	if (strcmp(s, "F") == 0) {
		e->fatigue++;
		return true;
	}
	if (strcmp(s, "M") == 0) {
		e->morale++;
		return true;
	}
	if ((s[0] != 'A' && s[0] != 'D') || !s[1])
		return false;
	int side = s[0] == 'D';
	bool minus = s[1] == '-';
	const char *num = s + 1 + minus;
	if (!isdigit((unsigned char)num[0]) || num[1] || num[0] == '0')
		return false;
	int v = num[0] - '0';
	if (minus)
		e->reduce[side] += v;
	else
		e->hits[side] += v;
	return true;
}

static void read_face(fray_doc *doc, const fray_node *n, const fray_chits_mix *m,
		      fray_chits_face *f)
{
	if (!fray_doc_expect(doc, n, FRAY_NODE_MAP, "a chit side"))
		return;
	static const char *const keys[] = {"if", "then"};
	fray_doc_known_keys(doc, n, keys, 2);
	const fray_node *c = fray_doc_field(doc, n, "if", true);
	const fray_node *t = fray_doc_field(doc, n, "then", true);
	if (c)
		parse_cond(doc, c, m, &f->cond);
	textbuf line = text_on(f->text, sizeof f->text);
	text_add(&line, "%s ->", c && fray_node_scalar(c) ? fray_node_scalar(c) : "?");
	if (!t || !fray_doc_expect(doc, t, FRAY_NODE_SEQ, "a list of effects (A1, D-1, F, M)"))
		return;
	for (size_t i = 0; i < fray_node_len(t); i++) {
		const fray_node *e = fray_node_item(t, i);
		const char *s = fray_node_scalar(e);
		if (!s || !parse_effect(s, &f->effect)) {
			fray_doc_error(doc, e, "expected an effect: A<n> or D<n> (hits), A-<n> or D-<n> "
				       "(fewer hits), F (fatigue) or M (morale test), n from 1 to 9");
			continue;
		}
		text_add(&line, " %s", s);
	}
	if (fray_node_len(t) == 0)
		text_add(&line, " nothing");
}

/* A name into dst; one longer than dst holds is refused at n, never cut:
 * two names sharing their first bytes would become one. */
static void read_name(fray_doc *doc, const fray_node *n, const char *what, const char *s, char *dst, size_t cap)
{
	if (strlen(s) >= cap)
		fray_doc_error(doc, n, "%s has at most %zu bytes, found %zu", what, cap - 1, strlen(s));
	else
		frayi_copy_name(dst, cap, s);
}

static void read_set(fray_doc *doc, const fray_node *n, const char *what, const char *const *names,
		     size_t nnames, bool *set);

/* A tactic's arms: a list of unit types, at least one. */
static void read_arms(fray_doc *doc, const fray_node *n, bool *arms)
{
	read_set(doc, n, "a list of unit types (infantry, cavalry, artillery)", fray_chits_types, 3, arms);
	if (fray_node_kind_of(n) == FRAY_NODE_SEQ && fray_node_len(n) == 0)
		fray_doc_error(doc, n, "arms: expected at least one unit type (leave arms out for every arm)");
}

static void read_tactics(fray_doc *doc, const fray_node *n, fray_chits_mix *m)
{
	if (!fray_doc_expect(doc, n, FRAY_NODE_MAP, "the tactics"))
		return;
	for (size_t i = 0; i < fray_node_len(n); i++) {
		if (m->ntactics == FRAY_CHITS_MAX_TACTICS) {
			fray_doc_error(doc, fray_node_key(n, i), "at most %d tactics", FRAY_CHITS_MAX_TACTICS);
			return;
		}
		fray_chits_tactic *t = &m->tactics[m->ntactics++];
		/* tactics are found by name (fray_chits_tactic_find) */
		read_name(doc, fray_node_key(n, i), "a tactic's name", fray_node_scalar(fray_node_key(n, i)), t->name,
			  sizeof t->name);
		const fray_node *v = fray_node_value(n, i);
		if (!fray_doc_expect(doc, v, FRAY_NODE_MAP, "a tactic: {min: N, max: {defend: N, hold: N, evade: N}, "
				     "arms: [cavalry]}"))
			continue;
		static const char *const keys[] = {"min", "max", "arms"};
		fray_doc_known_keys(doc, v, keys, 3);
		/* the arms that may use it; none named: every arm */
		const fray_node *arms = fray_doc_field(doc, v, "arms", false);
		for (int a = 0; a < 3; a++)
			t->arms[a] = true;
		if (arms)
			read_arms(doc, arms, t->arms);
		const fray_node *min = fray_doc_field(doc, v, "min", true);
		const fray_node *max = fray_doc_field(doc, v, "max", true);
		int64_t x;
		if (min && fray_doc_int(doc, min, 1, 16, "the fewest chits", &x))
			t->min = (int)x;
		if (!max || !fray_doc_expect(doc, max, FRAY_NODE_MAP, "the most chits by stance"))
			continue;
		fray_doc_known_keys(doc, max, fray_chits_stances, 3);
		for (int s = 0; s < 3; s++) {
			const fray_node *ms = fray_doc_field(doc, max, fray_chits_stances[s], true);
			if (ms && fray_doc_int(doc, ms, t->min ? t->min : 1, 16,
					       "the most chits (at least the fewest)", &x))
				t->max[s] = (int)x;
		}
	}
}

FRAY_API int fray_chits_tactic_find(const fray_chits_mix *m, const char *name)
{
	for (int i = 0; i < m->ntactics; i++)
		if (strcmp(m->tactics[i].name, name) == 0)
			return i;
	return -1;
}

/* A list of names from names[] into set (replacing the default). */
static void read_set(fray_doc *doc, const fray_node *n, const char *what, const char *const *names,
		     size_t nnames, bool *set)
{
	if (!fray_doc_expect(doc, n, FRAY_NODE_SEQ, what))
		return;
	memset(set, 0, nnames * sizeof *set);
	for (size_t i = 0; i < fray_node_len(n); i++) {
		size_t k;
		if (fray_doc_enum(doc, fray_node_item(n, i), what, names, nnames, &k))
			set[k] = true;
	}
}

FRAY_API fray_status fray_chits_mix_read(fray_ctx *ctx, fray_doc *doc, fray_chits_mix **out)
{
	*out = NULL;
	fray_chits_mix *m = frayi_calloc(ctx, 1, sizeof *m);
	if (!m)
		return frayi_nomem(ctx);
	m->ctx = ctx;
	const fray_node *root = fray_doc_root(doc);
	if (!root) {
		fray_doc_error(doc, NULL, "empty file: expected a chit mix");
		goto done;
	}
	if (!fray_doc_expect(doc, root, FRAY_NODE_MAP, "a chit mix"))
		goto done;
	static const char *const keys[] = {"name", "tactics", "morale", "chits", "defensible_terrain",
					   "evaders"};
	fray_doc_known_keys(doc, root, keys, 6);
	const fray_node *n;
	const char *s;
	/* ruling R29's defaults: every terrain but open; cavalry alone evades */
	for (int t = 1; t < 7; t++)
		m->defensible[t] = true;
	m->may_evade[1] = true;
	m->defensible_default = m->evaders_default = true;
	if ((n = fray_doc_field(doc, root, "defensible_terrain", false))) {
		read_set(doc, n, "a list of terrains", fray_chits_terrains, 7, m->defensible);
		m->defensible_default = false;
	}
	if ((n = fray_doc_field(doc, root, "evaders", false))) {
		read_set(doc, n, "a list of unit types", fray_chits_types, 3, m->may_evade);
		m->evaders_default = false;
	}
	if ((n = fray_doc_field(doc, root, "name", false)) && fray_doc_string(doc, n, "the mix's name", &s))
		read_name(doc, n, "the mix's name", s, m->name, sizeof m->name);
	if ((n = fray_doc_field(doc, root, "tactics", true)))
		read_tactics(doc, n, m);
	if ((n = fray_doc_field(doc, root, "morale", true)) &&
	    fray_doc_expect(doc, n, FRAY_NODE_MAP, "the morale test: {roll: 2d6, pass: at-most}")) {
		static const char *const mkeys[] = {"roll", "pass"};
		static const char *const pass[] = {"at-most", "at-least"};
		fray_doc_known_keys(doc, n, mkeys, 2);
		const fray_node *roll = fray_doc_field(doc, n, "roll", true);
		const fray_node *p = fray_doc_field(doc, n, "pass", true);
		size_t k;
		if (roll && fray_doc_string(doc, roll, "the morale dice", &s)) {
			snprintf(m->morale_text, sizeof m->morale_text, "%s", s);
			fray_status before = fray_ctx_status(ctx);
			fray_status parsed = fray_dice_parse(ctx, s, &m->morale_dice);
			if (parsed != FRAY_OK) {
				fray_doc_error(doc, roll, "expected dice such as 2d6: %s", fray_ctx_message(ctx));
				/* a bad expression is the file's problem, said at it;
				 * out of memory stays the context's (FRAY_ERR_NOMEM) */
				if (before == FRAY_OK && parsed != FRAY_ERR_NOMEM)
					fray_ctx_clear(ctx);
			}
		}
		if (p && fray_doc_enum(doc, p, "how a morale test passes", pass, 2, &k))
			m->morale_at_least = k == 1;
	}
	const fray_node *chits = fray_doc_field(doc, root, "chits", true);
	if (chits && fray_doc_expect(doc, chits, FRAY_NODE_SEQ, "the list of chits")) {
		if (fray_node_len(chits) == 0 || fray_node_len(chits) > FRAY_CHITS_MAX_CHITS)
			fray_doc_error(doc, chits, "expected 1 to %d chits, found %zu",
				       FRAY_CHITS_MAX_CHITS, fray_node_len(chits));
		for (size_t i = 0; i < fray_node_len(chits) && i < FRAY_CHITS_MAX_CHITS; i++) {
			const fray_node *c = fray_node_item(chits, i);
			fray_chit *chit = &m->chits[m->nchits++];
			snprintf(chit->id, sizeof chit->id, "%zu", i + 1);
			if (!fray_doc_expect(doc, c, FRAY_NODE_MAP, "a chit"))
				continue;
			static const char *const ckeys[] = {"id", "a", "b", "precedence", "both", "name"};
			static const char *const sides[] = {"a", "b"};
			fray_doc_known_keys(doc, c, ckeys, 6);
			if ((n = fray_doc_field(doc, c, "name", false)) && fray_doc_string(doc, n, "the chit's name", &s))
				read_name(doc, n, "the chit's name", s, chit->name, sizeof chit->name);
			if ((n = fray_doc_field(doc, c, "id", true)) && fray_doc_string(doc, n, "the chit's id", &s)) {
				read_name(doc, n, "the chit's id", s, chit->id, sizeof chit->id);
				for (int j = 0; j < m->nchits - 1; j++)
					if (strcmp(m->chits[j].id, chit->id) == 0)
						fray_doc_error(doc, n, "two chits have the id '%s'", chit->id);
			}
			for (int f = 0; f < 2; f++)
				if ((n = fray_doc_field(doc, c, sides[f], true)))
					read_face(doc, n, m, &chit->face[f]);
			size_t k;
			if ((n = fray_doc_field(doc, c, "precedence", false)) &&
			    fray_doc_enum(doc, n, "the side with precedence", sides, 2, &k))
				chit->precedence = (int)k;
			if ((n = fray_doc_field(doc, c, "both", false)))
				fray_doc_bool(doc, n, "whether both sides apply", &chit->both);
		}
	}
done:;
	fray_status st = fray_doc_status(doc);
	if (st != FRAY_OK) {
		fray_chits_mix_free(m);
		return st;
	}
	*out = m;
	return FRAY_OK;
}

FRAY_API fray_status fray_chits_mix_load(fray_ctx *ctx, const char *path, fray_chits_mix **out)
{
	*out = NULL;
	fray_doc *doc;
	fray_status st = fray_doc_load_file(ctx, path, &doc);
	if (st != FRAY_OK)
		return st;
	st = fray_chits_mix_read(ctx, doc, out);
	fray_doc_free(doc);
	return st;
}

FRAY_API void fray_chits_mix_free(fray_chits_mix *m)
{
	if (!m)
		return;
	fray_dice_free(m->morale_dice);
	frayi_dealloc(m->ctx, m);
}

FRAY_API bool fray_chits_cond_holds(const fray_chits_cond *c, const fray_chits_situation *s)
{
	int ratio = fray_chits_ratio(s->attacker_cdr, s->defender_cdr);
	switch (c->kind) {
	case FRAY_CHITS_ALWAYS: return true;
	case FRAY_CHITS_RATIO_AT_LEAST: return ratio >= c->value;
	case FRAY_CHITS_RATIO_AT_MOST: return ratio <= c->value;
	case FRAY_CHITS_RATIO_IS: return ratio == c->value;
	case FRAY_CHITS_TERRAIN: return s->terrain == c->value;
	case FRAY_CHITS_TACTIC: return s->tactic == c->value;
	case FRAY_CHITS_STANCE: return s->stance == c->value;
	case FRAY_CHITS_ATTACKER_HIGHER: return s->attacker_cdr > s->defender_cdr;
	case FRAY_CHITS_DEFENDER_HIGHER: return s->defender_cdr > s->attacker_cdr;
	case FRAY_CHITS_ATTACKER_TYPE: return s->attacker_type == c->value;
	case FRAY_CHITS_DEFENDER_TYPE: return s->defender_type == c->value;
	}
	return false;
}

/* R22: a side applies when its condition holds; when both hold, the
 * precedence side, unless the chit is marked both-apply. */
FRAY_API unsigned fray_chits_applies(const fray_chit *chit, const fray_chits_situation *s)
{
	bool a = fray_chits_cond_holds(&chit->face[0].cond, s);
	bool b = fray_chits_cond_holds(&chit->face[1].cond, s);
	if (a && b)
		return chit->both ? 3u : 1u << chit->precedence;
	return (a ? 1u : 0u) | (b ? 2u : 0u);
}

FRAY_API fray_chits_effect fray_chits_effect_of(const fray_chit *chit, const fray_chits_situation *s)
{
	fray_chits_effect e = {{0, 0}, {0, 0}, 0, 0};
	unsigned which = fray_chits_applies(chit, s);
	for (int f = 0; f < 2; f++) {
		if (!(which >> f & 1))
			continue;
		const fray_chits_effect *x = &chit->face[f].effect;
		for (int side = 0; side < 2; side++) {
			e.hits[side] += x->hits[side];
			e.reduce[side] += x->reduce[side];
		}
		e.fatigue += x->fatigue;
		e.morale += x->morale;
	}
	return e;
}
