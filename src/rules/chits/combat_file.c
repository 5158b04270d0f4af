/* Combat files: one chit-pull combat written down (the worked examples of
 * chit-combat.txt are three of them), checked before it is fought. */
#include <stdio.h>
#include <string.h>
#include "../../core/internal.h"
#include "../../core/shipped_named.h"
#include <fray/chits.h>

FRAY_API int fray_chits_find(const fray_chits_mix *m, const char *id)
{
	if (!m || !id)
		return -1;
	for (int i = 0; i < m->nchits; i++)
		if (strcmp(m->chits[i].id, id) == 0)
			return i;
	return -1;
}

FRAY_API const char *fray_chits_stance_problem(const fray_chits_mix *m, const fray_chits_situation *s,
					      char *buf, size_t cap)
{
	/* ruling R29 (example 2: an infantry brigade in the open may do neither) */
	if (!m || !s)
		snprintf(buf, cap, "no %s (NULL)", m ? "situation" : "chit mix");
	else if (s->stance < 0 || s->stance > 2 || s->terrain < 0 || s->terrain > 6 || s->defender_type < 0 ||
		 s->defender_type > 2)
		snprintf(buf, cap, "stance %d, terrain %d or defender type %d out of range", s->stance, s->terrain,
			 s->defender_type);
	else if (s->stance == 0 && !m->defensible[s->terrain])
		snprintf(buf, cap, "defend needs defensible terrain, and %s is not (the mix's "
			 "defensible_terrain; ruling R29)", fray_chits_terrains[s->terrain]);
	else if (s->stance == 2 && !m->may_evade[s->defender_type])
		snprintf(buf, cap, "evade is for units that may evade, and %s may not (the mix's "
			 "evaders; ruling R29)", fray_chits_types[s->defender_type]);
	else
		return NULL;
	return buf;
}

FRAY_API const char *fray_chits_tactic_problem(const fray_chits_mix *m, const fray_chits_situation *s,
					       char *buf, size_t cap)
{
	if (!m || !s || s->tactic < 0 || s->tactic >= m->ntactics || s->attacker_type < 0 || s->attacker_type > 2)
		snprintf(buf, cap, "no such tactic or attacker type (%d, %d)", s ? s->tactic : -1,
			 s ? s->attacker_type : -1);
	else if (!m->tactics[s->tactic].arms[s->attacker_type]) {
		/* the arms that may, for the message */
		const fray_chits_tactic *t = &m->tactics[s->tactic];
		char arms[64] = "";
		for (int a = 0; a < 3; a++)
			if (t->arms[a])
				snprintf(arms + strlen(arms), sizeof arms - strlen(arms), "%s%s", arms[0] ? " or " : "",
					 fray_chits_types[a]);
		snprintf(buf, cap, "%s is for %s; %s may not use it (the mix's arms for the tactic)", t->name, arms,
			 fray_chits_types[s->attacker_type]);
	} else
		return NULL;
	return buf;
}

FRAY_API const char *fray_chits_draw_problem(const fray_chits_mix *m, const fray_chits_situation *s,
					     int draw, char *buf, size_t cap)
{
	if (!m || !s || s->tactic < 0 || s->tactic >= m->ntactics || s->stance < 0 || s->stance > 2) {
		snprintf(buf, cap, "no such tactic or stance (%d, %d)", s ? s->tactic : -1, s ? s->stance : -1);
		return buf;
	}
	const fray_chits_tactic *t = &m->tactics[s->tactic];
	int max = t->max[s->stance];
	if (draw > m->nchits) {
		/* drawn without replacement: never more than the mix holds */
		snprintf(buf, cap, "the mix '%s' holds %d chits, fewer than the %d to draw", m->name,
			 m->nchits, draw);
		return buf;
	}
	if (draw >= t->min && draw <= max)
		return NULL;
	snprintf(buf, cap, "%s against %s draws %d to %d chits, not %d", t->name,
		 fray_chits_stances[s->stance], t->min, max, draw);
	return buf;
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

static void read_unit(fray_doc *doc, const fray_node *n, fray_chits_unit *u, bool defender)
{
	/* both sides may retreat to negate hits: the text gives the choice to
	 * "the owning player" of either side (issue 28); a file says when one
	 * has no legal retreat */
	(void)defender;
	*u = (fray_chits_unit){.battalions = 4, .morale = 7, .can_retreat = true};
	if (!fray_doc_expect(doc, n, FRAY_NODE_MAP, "a unit"))
		return;
	static const char *const keys[] = {"name", "battalions", "lead", "morale", "fatigue",
					   "disordered", "hits", "can_retreat"};
	fray_doc_known_keys(doc, n, keys, 8);
	const fray_node *x;
	const char *s;
	int64_t v;
	if ((x = fray_doc_field(doc, n, "name", true)) && fray_doc_string(doc, x, "a unit's name", &s))
		read_name(doc, x, "a unit's name", s, u->name, sizeof u->name);
	if ((x = fray_doc_field(doc, n, "battalions", false)) &&
	    fray_doc_int(doc, x, 1, FRAY_CHITS_MAX_BATTALIONS, "battalions", &v))
		u->battalions = (int)v;
	if ((x = fray_doc_field(doc, n, "lead", false)) &&
	    fray_doc_int(doc, x, 1, u->battalions, "the lead battalion (1 = the first)", &v))
		u->lead = (int)v - 1;
	/* the levels the library and the game file hold: an at-least mix's
	 * failures raise morale past 20 (docs/chits.md) */
	if ((x = fray_doc_field(doc, n, "morale", false)) &&
	    fray_doc_int(doc, x, 0, FRAY_CHITS_MAX_LEVEL, "a morale level", &v))
		u->morale = (int)v;
	if ((x = fray_doc_field(doc, n, "fatigue", false)) &&
	    fray_doc_int(doc, x, 0, FRAY_CHITS_MAX_LEVEL, "fatigue points", &v))
		u->fatigue = (int)v;
	if ((x = fray_doc_field(doc, n, "disordered", false)))
		fray_doc_bool(doc, x, "disordered", &u->disordered);
	if ((x = fray_doc_field(doc, n, "can_retreat", false)))
		fray_doc_bool(doc, x, "whether a legal retreat exists", &u->can_retreat);
	if ((x = fray_doc_field(doc, n, "hits", false)) &&
	    fray_doc_expect(doc, x, FRAY_NODE_SEQ, "hits per battalion")) {
		if ((int)fray_node_len(x) != u->battalions)
			fray_doc_error(doc, x, "expected %d numbers, one per battalion", u->battalions);
		for (size_t i = 0; i < fray_node_len(x) && i < FRAY_CHITS_MAX_BATTALIONS; i++)
			if (fray_doc_int(doc, fray_node_item(x, i), 0, FRAY_CHITS_MAX_LEVEL, "hits", &v))
				u->hits[i] = (int)v;
	}
}

static void read_side(fray_doc *doc, const fray_node *n, fray_chits_side *side, int *cdr, int *type,
		      bool defender)
{
	if (!fray_doc_expect(doc, n, FRAY_NODE_MAP, "a side"))
		return;
	static const char *const keys[] = {"name", "cdr", "type", "units"};
	fray_doc_known_keys(doc, n, keys, 4);
	const fray_node *x;
	const char *s;
	int64_t v;
	size_t k;
	if ((x = fray_doc_field(doc, n, "name", true)) && fray_doc_string(doc, x, "a side's name", &s))
		read_name(doc, x, "a side's name", s, side->name, sizeof side->name);
	if ((x = fray_doc_field(doc, n, "cdr", true)) &&
	    fray_doc_int(doc, x, 1, 99, "a modified combat die roll", &v))
		*cdr = (int)v;
	if ((x = fray_doc_field(doc, n, "type", false)) &&
	    fray_doc_enum(doc, x, "a unit type", fray_chits_types, 3, &k))
		*type = (int)k;
	x = fray_doc_field(doc, n, "units", true);
	if (!x || !fray_doc_expect(doc, x, FRAY_NODE_SEQ, "a list of units"))
		return;
	if (fray_node_len(x) < 1 || fray_node_len(x) > FRAY_CHITS_MAX_UNITS)
		fray_doc_error(doc, x, "expected 1 to %d units", FRAY_CHITS_MAX_UNITS);
	for (size_t i = 0; i < fray_node_len(x) && i < FRAY_CHITS_MAX_UNITS; i++)
		read_unit(doc, fray_node_item(x, i), &side->units[side->nunits++], defender);
}

FRAY_API fray_status fray_chits_combat_read(fray_ctx *ctx, fray_doc *doc, fray_chits_mix **mix,
					    fray_chits_combat_in *in, uint64_t *seed, bool *has_seed)
{
	return fray_chits_combat_read_with(ctx, doc, NULL, NULL, mix, in, seed, has_seed);
}

static fray_status load_mix(fray_ctx *ctx, fray_doc_open_fn open, void *ud, const char *path,
			    fray_chits_mix **out)
{
	fray_doc *doc;
	/* fray's own sample mix by its name, wherever the combat file is */
	fray_status st = frayi_open_named(ctx, open, ud, path, &doc);
	if (st != FRAY_OK)
		return st;
	st = fray_chits_mix_read(ctx, doc, out);
	fray_doc_free(doc);
	return st;
}

FRAY_API fray_status fray_chits_combat_read_with(fray_ctx *ctx, fray_doc *doc, fray_doc_open_fn open, void *ud,
						 fray_chits_mix **mix, fray_chits_combat_in *in, uint64_t *seed,
						 bool *has_seed)
{
	*mix = NULL;
	memset(in, 0, sizeof *in);
	*has_seed = false;
	const fray_node *root = fray_doc_root(doc), *x;
	if (!root || !fray_doc_expect(doc, root, FRAY_NODE_MAP, "a combat")) {
		if (!root)
			fray_doc_error(doc, NULL, "empty file: expected a combat");
		return fray_doc_status(doc);
	}
	static const char *const keys[] = {"mix", "tactic", "stance", "terrain", "draw", "script",
					   "seed", "attacker", "defender"};
	fray_doc_known_keys(doc, root, keys, 9);
	const char *s;
	int64_t v;
	size_t k;
	/* the mix first: tactics and chit ids are its */
	if ((x = fray_doc_field(doc, root, "mix", true)) && fray_doc_string(doc, x, "the chit mix file", &s)) {
		char path[1024];
		const char *name = fray_doc_name(doc), *slash = strrchr(name, '/');
		if (s[0] == '/' || !slash)
			snprintf(path, sizeof path, "%s", s);
		else
			snprintf(path, sizeof path, "%.*s/%s", (int)(slash - name), name, s);
		fray_status before = fray_ctx_status(ctx);
		if (load_mix(ctx, open, ud, path, mix) != FRAY_OK) {
			fray_doc_error(doc, x, "chit mix: %s", fray_ctx_message(ctx));
			if (before == FRAY_OK)
				fray_ctx_clear(ctx);
		}
	}
	fray_chits_situation *sit = &in->situation;
	in->mix = *mix;
	if ((x = fray_doc_field(doc, root, "tactic", true)) && *mix &&
	    fray_doc_string(doc, x, "a tactic", &s) && (sit->tactic = fray_chits_tactic_find(*mix, s)) < 0)
		fray_doc_error(doc, x, "unknown tactic '%s': the mix's tactics are its 'tactics'", s);
	if ((x = fray_doc_field(doc, root, "stance", true)) &&
	    fray_doc_enum(doc, x, "the defender's stance", fray_chits_stances, 3, &k))
		sit->stance = (int)k;
	if ((x = fray_doc_field(doc, root, "terrain", true)) &&
	    fray_doc_enum(doc, x, "the defender's terrain", fray_chits_terrains, 7, &k))
		sit->terrain = (int)k;
	if ((x = fray_doc_field(doc, root, "seed", false)) &&
	    fray_doc_int(doc, x, 0, INT64_MAX, "a seed", &v)) {
		*seed = (uint64_t)v;
		*has_seed = true;
	}
	if ((x = fray_doc_field(doc, root, "attacker", true)))
		read_side(doc, x, &in->side[0], &sit->attacker_cdr, &sit->attacker_type, false);
	if ((x = fray_doc_field(doc, root, "defender", true)))
		read_side(doc, x, &in->side[1], &sit->defender_cdr, &sit->defender_type, true);
	char why_tactic[256];
	const fray_node *tactic = fray_map_get(root, "tactic");
	if (*mix && tactic && sit->tactic >= 0 && fray_doc_error_count(doc) == 0 &&
	    fray_chits_tactic_problem(*mix, sit, why_tactic, sizeof why_tactic))
		fray_doc_error(doc, tactic, "%s", why_tactic);
	const fray_node *stance = fray_map_get(root, "stance");
	char why_stance[160];
	if (*mix && stance && fray_doc_error_count(doc) == 0 &&
	    fray_chits_stance_problem(*mix, sit, why_stance, sizeof why_stance))
		fray_doc_error(doc, stance, "%s", why_stance);
	const fray_node *draw = fray_doc_field(doc, root, "draw", true);
	if (draw && fray_doc_int(doc, draw, 1, 16, "the number of chits to draw", &v)) {
		in->draw = (int)v;
		char buf[128];
		const char *why;
		if (*mix && sit->tactic >= 0 &&
		    (why = fray_chits_draw_problem(*mix, sit, in->draw, buf, sizeof buf)))
			fray_doc_error(doc, draw, "%s", why);
	}
	if ((x = fray_doc_field(doc, root, "script", false)) &&
	    fray_doc_expect(doc, x, FRAY_NODE_SEQ, "the chits drawn, by id") && *mix) {
		if ((int)fray_node_len(x) != in->draw)
			fray_doc_error(doc, x, "expected %d chit ids, as many as 'draw'", in->draw);
		for (size_t i = 0; i < fray_node_len(x) && i < 16; i++) {
			const fray_node *id = fray_node_item(x, i);
			int c;
			if (!fray_doc_string(doc, id, "a chit id", &s))
				continue;
			if ((c = fray_chits_find(*mix, s)) < 0) {
				fray_doc_error(doc, id, "no chit '%s' in the mix", s);
				continue;
			}
			for (int j = 0; j < in->nscript; j++)
				if (in->script[j] == c)
					fray_doc_error(doc, id, "chit '%s' is drawn twice: chits are drawn without "
						       "replacement", s);
			in->script[in->nscript++] = c;
		}
	}
	fray_status st = fray_doc_status(doc);
	if (st != FRAY_OK) {
		fray_chits_mix_free(*mix);
		*mix = NULL;
	}
	return st;
}
