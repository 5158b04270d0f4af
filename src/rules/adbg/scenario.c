/* Quick battle scenarios: the YAML file that describes a battle (terrain,
 * weather, surprise, initiative, both sides' levels, leaders and stacked
 * units), with the data the text leaves to the game (G1 melee CRT, G2
 * leader loss, G3 victory and routed units) and an optional array (R3).
 * Every problem is recorded with its position before any battle starts. */
#include <stdio.h>
#include <string.h>
#include "scenario.h"
#include "../../core/dice_internal.h"
#include "../../core/shipped_named.h"

static const char *const weather_names[] = {"normal", "severe"};
static const char *const victory_names[] = {"losses", "field"};
static const char *const fate_names[] = {"roll", "eliminated", "kept"};

static void copy_name(char *dst, const char *src)
{
	frayi_copy_name(dst, ADBG_NAME, src);
}

/* Runs fray_dice_parse without leaving its failure on the context: the
 * problem belongs to the document. */
static fray_dice *parse_dice(fray_ctx *ctx, fray_doc *doc, const fray_node *n,
			     const char *text)
{
	fray_status before = fray_ctx_status(ctx);
	fray_dice *d = NULL;
	fray_status st = fray_dice_parse(ctx, text, &d);
	if (st == FRAY_ERR_NOMEM) /* the machine's failure, not the file's: kept as such */
		frayi_doc_nomem(doc);
	else if (st != FRAY_OK)
		fray_doc_error(doc, n, "expected dice such as 1d6 or 2d6: %s",
			       fray_ctx_message(ctx));
	if (st != FRAY_OK && before == FRAY_OK)
		fray_ctx_clear(ctx);
	return d;
}

/* A check of 1d6 or 2d6 as a mask of the faces that pass, for the
 * battle's sampling fast path: the dice rolled in the same order as
 * fray_dice_roll_as rolls them (the first die, then the second). */
static void compile_check(adbg_check *c)
{
	c->fast_dice = 0;
	c->fast_mask = 0;
	const dice_term *t = c->dice && c->dice->nterms == 1 ? &c->dice->terms[0] : NULL;
	if (!t || t->kind != DICE_SUM || t->sign != 1 || t->sides != 6 || t->count < 1 || t->count > 2)
		return;
	for (int first = 1; first <= 6; first++)
		for (int second = 1; second <= (t->count == 2 ? 6 : 1); second++) {
			int64_t total = first + (t->count == 2 ? second : 0);
			for (int i = 0; i < c->nfaces; i++)
				if (c->faces[i] == total)
					c->fast_mask |= (uint64_t)1 << ((first - 1) * (t->count == 2 ? 6 : 1) + second - 1);
		}
	c->fast_dice = t->count;
}

/* {roll: 1d6, <faces_key>: [1, 2]} */
static void read_check(fray_ctx *ctx, fray_doc *doc, const fray_node *n,
		       const char *faces_key, adbg_check *c)
{
	if (!fray_doc_expect(doc, n, FRAY_NODE_MAP, "a die check"))
		return;
	const char *keys[] = {"roll", faces_key};
	fray_doc_known_keys(doc, n, keys, 2);
	const fray_node *roll = fray_doc_field(doc, n, "roll", true);
	const fray_node *faces = fray_doc_field(doc, n, faces_key, true);
	const char *text;
	if (roll && fray_doc_string(doc, roll, "the dice", &text)) {
		snprintf(c->text, sizeof c->text, "%s", text);
		c->dice = parse_dice(ctx, doc, roll, text);
	}
	if (!faces || !fray_doc_expect(doc, faces, FRAY_NODE_SEQ, "a list of totals"))
		return;
	if (fray_node_len(faces) > ADBG_CHECK_FACES) {
		fray_doc_error(doc, faces, "expected at most %d totals", ADBG_CHECK_FACES);
		return;
	}
	int64_t lo = c->dice ? fray_dice_min(c->dice) : -1000;
	int64_t hi = c->dice ? fray_dice_max(c->dice) : 1000;
	for (size_t i = 0; i < fray_node_len(faces); i++) {
		int64_t v;
		if (fray_doc_int(doc, fray_node_item(faces, i), lo, hi, "a total the dice can roll", &v))
			c->faces[c->nfaces++] = v;
	}
	fray_status st = c->dice ? fray_dice_check_new(ctx, c->dice, c->faces, (size_t)c->nfaces, &c->test) : FRAY_OK;
	if (st == FRAY_ERR_NOMEM)
		frayi_doc_nomem(doc); /* as parse_dice: the machine's failure */
	else if (st != FRAY_OK)
		fray_doc_error(doc, n, "%s", fray_ctx_message(ctx));
	compile_check(c);
}

static void read_leader(fray_doc *doc, const fray_node *n, const adbg_side_def *side,
			const fray_node *stacks, adbg_leader_def *l)
{
	l->stack = -1;
	if (!fray_doc_expect(doc, n, FRAY_NODE_MAP, "a leader"))
		return;
	static const char *const keys[] = {"name", "rating", "stack"};
	fray_doc_known_keys(doc, n, keys, 3);
	const fray_node *name = fray_doc_field(doc, n, "name", true);
	const fray_node *rating = fray_doc_field(doc, n, "rating", true);
	const fray_node *stack = fray_doc_field(doc, n, "stack", false);
	const char *s;
	int64_t v;
	if (name && fray_doc_string(doc, name, "a leader's name", &s))
		copy_name(l->name, s);
	if (rating && fray_doc_int(doc, rating, 1, 3, "a command rating", &v))
		l->rating = (int)v;
	if (stack && stacks &&
	    fray_doc_int(doc, stack, 1, side->nstacks ? side->nstacks : 1,
			 "the number of a stack of this side (1 = the first)", &v))
		l->stack = (int)v - 1;
}

static void read_unit(fray_doc *doc, const fray_node *n, adbg_side_def *side, int stack)
{
	if (!fray_doc_expect(doc, n, FRAY_NODE_MAP, "a unit"))
		return;
	if (side->nunits == FRAY_ADBG_MAX_UNITS) {
		fray_doc_error(doc, n, "too many units: a side has at most %d", FRAY_ADBG_MAX_UNITS);
		return;
	}
	adbg_unit_def *u = &side->units[side->nunits++];
	u->stack = stack;
	static const char *const keys[] = {"name", "type", "fire", "melee", "status"};
	fray_doc_known_keys(doc, n, keys, 5);
	const fray_node *name = fray_doc_field(doc, n, "name", true);
	const fray_node *type = fray_doc_field(doc, n, "type", true);
	const fray_node *fire = fray_doc_field(doc, n, "fire", true);
	const fray_node *melee = fray_doc_field(doc, n, "melee", true);
	const fray_node *status = fray_doc_field(doc, n, "status", false);
	const char *s;
	int64_t v;
	size_t k;
	if (name && fray_doc_string(doc, name, "a unit's name", &s)) {
		copy_name(u->name, s);
		for (int i = 0; i < side->nunits - 1; i++)
			if (strcmp(side->units[i].name, u->name) == 0)
				fray_doc_error(doc, name, "two units of %s are named '%s': names tell "
					       "units apart in the narration", side->id, u->name);
	}
	if (type && fray_doc_enum(doc, type, "a unit type", fray_adbg_type_names, 4, &k))
		u->type = (fray_adbg_type)k;
	if (fire && fray_doc_int(doc, fire, 0, 9, "a fire CF", &v))
		u->fire = (int)v;
	if (melee && fray_doc_int(doc, melee, 0, 9, "a melee CF", &v))
		u->melee = (int)v;
	if (status && fray_doc_enum(doc, status, "a status", fray_adbg_status_names, 3, &k))
		u->status = (fray_adbg_status)k;
}

static void read_side(fray_ctx *ctx, fray_doc *doc, const fray_node *key,
		      const fray_node *n, bool terrain_known, fray_adbg_terrain terrain,
		      adbg_side_def *side)
{
	(void)ctx;
	/* an id is looked up whole (surprise, initiative, positions): a cut one
	 * would never be found, and two could become one */
	if (strlen(fray_node_scalar(key)) >= ADBG_NAME)
		fray_doc_error(doc, key, "a side's id has at most %d bytes", ADBG_NAME - 1);
	copy_name(side->id, fray_node_scalar(key));
	copy_name(side->name, side->id);
	if (!fray_doc_expect(doc, n, FRAY_NODE_MAP, "a side"))
		return;
	static const char *const keys[] = {"name", "level", "primary_leader", "leaders", "stacks"};
	fray_doc_known_keys(doc, n, keys, 5);
	const fray_node *name = fray_doc_field(doc, n, "name", false);
	const fray_node *level = fray_doc_field(doc, n, "level", true);
	const fray_node *primary = fray_doc_field(doc, n, "primary_leader", true);
	const fray_node *leaders = fray_doc_field(doc, n, "leaders", false);
	const fray_node *stacks = fray_doc_field(doc, n, "stacks", true);
	const char *s;
	int64_t v;
	if (name && fray_doc_string(doc, name, "a side's name", &s))
		copy_name(side->name, s);
	if (level && fray_doc_int(doc, level, 0, 6, "a commitment/mobilization level", &v))
		side->level = (int)v;
	if (stacks && fray_doc_expect(doc, stacks, FRAY_NODE_SEQ, "a list of stacks")) {
		size_t ns = fray_node_len(stacks);
		if (ns == 0 || ns > FRAY_ADBG_MAX_STACKS)
			fray_doc_error(doc, stacks, "expected 1 to %d stacks, found %zu",
				       FRAY_ADBG_MAX_STACKS, ns);
		for (size_t i = 0; i < ns && i < FRAY_ADBG_MAX_STACKS; i++) {
			const fray_node *st = fray_node_item(stacks, i);
			side->nstacks++;
			if (!fray_doc_expect(doc, st, FRAY_NODE_SEQ, "a stack: a list of units"))
				continue;
			if (fray_node_len(st) == 0) {
				fray_doc_error(doc, st, "an empty stack: a stack holds one unit or more");
				continue;
			}
			int first = side->nunits;
			for (size_t u = 0; u < fray_node_len(st); u++)
				read_unit(doc, fray_node_item(st, u), side, (int)i);
			int count[4] = {0};
			for (int u = first; u < side->nunits; u++)
				count[side->units[u].type]++;
			const char *why = terrain_known ? fray_adbg_stacking_problem(terrain, count) : NULL;
			if (why)
				fray_doc_error(doc, st, "stack %zu breaks the stacking limits in %s: %s "
					       "(ADBG 19.1, ruling R2)", i + 1,
					       fray_adbg_terrain_names[terrain], why);
		}
	}
	side->nleaders = 1;
	if (primary)
		read_leader(doc, primary, side, stacks, &side->leaders[0]);
	if (leaders && fray_doc_expect(doc, leaders, FRAY_NODE_SEQ, "a list of leaders")) {
		for (size_t i = 0; i < fray_node_len(leaders); i++) {
			if (side->nleaders == FRAY_ADBG_MAX_LEADERS) {
				fray_doc_error(doc, fray_node_item(leaders, i),
					       "too many leaders: a side has at most %d",
					       FRAY_ADBG_MAX_LEADERS);
				break;
			}
			read_leader(doc, fray_node_item(leaders, i), side, stacks,
				    &side->leaders[side->nleaders++]);
		}
	}
}

static int side_index(const fray_adbg_scenario *s, const char *id)
{
	for (int i = 0; i < 2; i++)
		if (strcmp(s->side[i].id, id) == 0)
			return i;
	return -1;
}

static bool read_side_ref(fray_doc *doc, const fray_node *n, const fray_adbg_scenario *s,
			  const char *what, bool none_ok, int *out)
{
	const char *id;
	if (!fray_doc_string(doc, n, what, &id))
		return false;
	if (none_ok && strcmp(id, "none") == 0) {
		*out = -1;
		return true;
	}
	int i = side_index(s, id);
	if (i < 0) {
		fray_doc_error(doc, n, "expected %s: %s%s or %s, found '%.40s'", what,
			       none_ok ? "none, " : "", s->side[0].id, s->side[1].id, id);
		return false;
	}
	*out = i;
	return true;
}

/* The CRT: a file path relative to the scenario, or the table inline. */
static void read_crt(fray_ctx *ctx, fray_doc *doc, const fray_node *n, fray_doc_open_fn open, void *ud,
		     fray_adbg_scenario *s)
{
	if (fray_node_kind_of(n) == FRAY_NODE_MAP) {
		fray_adbg_crt_read(doc, n, &s->crt);
		return;
	}
	const char *rel;
	if (!fray_doc_string(doc, n, "the melee CRT file (G1)", &rel))
		return;
	char path[1024];
	const char *name = fray_doc_name(doc);
	const char *slash = strrchr(name, '/');
	if (rel[0] == '/' || !slash)
		snprintf(path, sizeof path, "%s", rel);
	else
		snprintf(path, sizeof path, "%.*s/%s", (int)(slash - name), name, rel);
	fray_status before = fray_ctx_status(ctx);
	fray_doc *crt = NULL;
	/* fray's own example CRT by its name, wherever the scenario is */
	fray_status st = frayi_open_named(ctx, open, ud, path, &crt);
	if (st == FRAY_OK) {
		st = fray_adbg_crt_from_doc(crt, &s->crt);
		if (st != FRAY_OK && fray_doc_error_count(crt) > 0)
			frayi_fail(ctx, st, "%s", fray_doc_error_msg(crt, 0));
	}
	fray_doc_free(crt);
	if (st != FRAY_OK) {
		fray_doc_error(doc, n, "melee CRT: %s", fray_ctx_message(ctx));
		if (before == FRAY_OK)
			fray_ctx_clear(ctx);
	}
}

static void read_victory(fray_ctx *ctx, fray_doc *doc, const fray_node *n, fray_adbg_scenario *s)
{
	if (!fray_doc_expect(doc, n, FRAY_NODE_MAP, "the victory rule (G3)"))
		return;
	static const char *const keys[] = {"rule", "routed"};
	fray_doc_known_keys(doc, n, keys, 2);
	const fray_node *rule = fray_doc_field(doc, n, "rule", true);
	const fray_node *routed = fray_doc_field(doc, n, "routed", true);
	size_t k;
	if (rule && fray_doc_enum(doc, rule, "a victory rule", victory_names, 2, &k))
		s->victory = (adbg_victory)k;
	if (!routed)
		return;
	if (fray_node_kind_of(routed) == FRAY_NODE_MAP) {
		s->routed = ADBG_ROUTED_ROLL;
		read_check(ctx, doc, routed, "eliminated_on", &s->routed_check);
	} else if (fray_doc_enum(doc, routed, "the fate of routed units", fate_names + 1, 2, &k)) {
		s->routed = (adbg_routed_fate)(k + 1);
	}
}

/* R3: the first side one stack per position, all of them; the other side
 * every stack once, columns differing in depth by at most one. */
static void read_array(fray_doc *doc, const fray_node *n, fray_adbg_scenario *s, int first)
{
	if (!fray_doc_expect(doc, n, FRAY_NODE_SEQ, "the array: a list of positions"))
		return;
	size_t npos = fray_node_len(n);
	int second = 1 - first;
	if ((int)npos != s->side[first].nstacks) {
		fray_doc_error(doc, n, "expected %d position%s, one per stack of %s, which sets "
			       "up first in a single row (ADBG 19.1, ruling R3)",
			       s->side[first].nstacks, s->side[first].nstacks == 1 ? "" : "s",
			       s->side[first].id);
		return;
	}
	bool placed[2][FRAY_ADBG_MAX_STACKS] = {{false}};
	int depth_min = 99, depth_max = 0;
	for (size_t p = 0; p < npos; p++) {
		const fray_node *pos = fray_node_item(n, p);
		if (!fray_doc_expect(doc, pos, FRAY_NODE_MAP, "a position"))
			return;
		const char *keys[] = {s->side[0].id, s->side[1].id};
		fray_doc_known_keys(doc, pos, keys, 2);
		for (int side = 0; side < 2; side++) {
			const fray_node *list = fray_doc_field(doc, pos, s->side[side].id, side == first);
			if (!list || !fray_doc_expect(doc, list, FRAY_NODE_SEQ, "a list of stack numbers"))
				continue;
			size_t len = fray_node_len(list);
			if (side == first && len != 1)
				fray_doc_error(doc, list, "expected exactly one stack of %s here: it sets "
					       "up first, in a single row (ruling R3)", s->side[side].id);
			if (side == second) {
				depth_min = (int)len < depth_min ? (int)len : depth_min;
				depth_max = (int)len > depth_max ? (int)len : depth_max;
			}
			for (size_t r = 0; r < len; r++) {
				int64_t k;
				const fray_node *item = fray_node_item(list, r);
				if (!fray_doc_int(doc, item, 1, s->side[side].nstacks, "a stack number", &k))
					continue;
				if (placed[side][k - 1])
					fray_doc_error(doc, item, "stack %d of %s is placed twice",
						       (int)k, s->side[side].id);
				placed[side][k - 1] = true;
				s->array_pos[side][k - 1] = (int)p;
				s->array_row[side][k - 1] = (int)r + 1;
			}
		}
	}
	for (int side = 0; side < 2; side++)
		for (int k = 0; k < s->side[side].nstacks; k++)
			if (!placed[side][k])
				fray_doc_error(doc, n, "stack %d of %s is not placed", k + 1, s->side[side].id);
	if (depth_max - depth_min > 1)
		fray_doc_error(doc, n, "%s's columns must fill evenly: a row may not start until "
			       "every enemy stack has the rows before it (ADBG 19.1, ruling R3)",
			       s->side[second].id);
	s->has_array = true;
	s->npos = (int)npos;
}

FRAY_API fray_status fray_adbg_scenario_read(fray_ctx *ctx, fray_doc *doc,
					     fray_adbg_scenario **out)
{
	return fray_adbg_scenario_read_with(ctx, doc, NULL, NULL, out);
}

FRAY_API fray_status fray_adbg_scenario_read_with(fray_ctx *ctx, fray_doc *doc, fray_doc_open_fn open,
						  void *ud, fray_adbg_scenario **out)
{
	*out = NULL;
	fray_adbg_scenario *s = frayi_calloc(ctx, 1, sizeof *s);
	if (!s)
		return frayi_nomem(ctx);
	s->ctx = ctx;
	s->surprised = -1;
	s->digest = fray_doc_digest(doc);
	const fray_node *root = fray_doc_root(doc);
	if (!root) {
		fray_doc_error(doc, NULL, "empty file: expected a quick battle scenario");
		goto done;
	}
	if (!fray_doc_expect(doc, root, FRAY_NODE_MAP, "a scenario"))
		goto done;
	static const char *const keys[] = {"battle", "terrain", "weather", "initiative",
					   "surprise", "melee_crt", "leader_loss", "victory",
					   "sides", "array"};
	fray_doc_known_keys(doc, root, keys, 10);
	const fray_node *n;
	const char *str;
	size_t k;
	snprintf(s->name, sizeof s->name, "quick battle");
	if ((n = fray_doc_field(doc, root, "battle", false)) &&
	    fray_doc_string(doc, n, "the battle's name", &str))
		snprintf(s->name, sizeof s->name, "%s", str);
	bool terrain_known = false;
	if ((n = fray_doc_field(doc, root, "terrain", true)) &&
	    fray_doc_enum(doc, n, "the battle terrain", fray_adbg_terrain_names, 3, &k)) {
		s->terrain = (fray_adbg_terrain)k;
		terrain_known = true;
	}
	if ((n = fray_doc_field(doc, root, "weather", false)) &&
	    fray_doc_enum(doc, n, "the weather", weather_names, 2, &k))
		s->severe = k == 1;

	const fray_node *sides = fray_doc_field(doc, root, "sides", true);
	bool sides_ok = false;
	if (sides && fray_doc_expect(doc, sides, FRAY_NODE_MAP, "the two sides")) {
		if (fray_node_len(sides) != 2)
			fray_doc_error(doc, sides, "expected exactly two sides, found %zu",
				       fray_node_len(sides));
		else
			sides_ok = true;
		for (size_t i = 0; i < 2 && i < fray_node_len(sides); i++)
			read_side(ctx, doc, fray_node_key(sides, i), fray_node_value(sides, i),
				  terrain_known, s->terrain, &s->side[i]);
	}
	if ((n = fray_doc_field(doc, root, "initiative", true)) && sides_ok)
		read_side_ref(doc, n, s, "the side with the initiative", false, &s->initiative);
	if ((n = fray_doc_field(doc, root, "surprise", false)) && sides_ok)
		read_side_ref(doc, n, s, "the surprised side", true, &s->surprised);
	if ((n = fray_doc_field(doc, root, "melee_crt", true)))
		read_crt(ctx, doc, n, open, ud, s);
	if ((n = fray_doc_field(doc, root, "leader_loss", true)) &&
	    fray_doc_expect(doc, n, FRAY_NODE_MAP, "the leader-loss checks (G2)")) {
		static const char *const lkeys[] = {"after_fire", "after_melee"};
		fray_doc_known_keys(doc, n, lkeys, 2);
		const fray_node *c;
		if ((c = fray_doc_field(doc, n, "after_fire", true)))
			read_check(ctx, doc, c, "lost_on", &s->loss_fire);
		if ((c = fray_doc_field(doc, n, "after_melee", true)))
			read_check(ctx, doc, c, "lost_on", &s->loss_melee);
	}
	if ((n = fray_doc_field(doc, root, "victory", true)))
		read_victory(ctx, doc, n, s);
	if ((n = fray_doc_field(doc, root, "array", false)) && sides_ok) {
		int first = s->surprised >= 0 ? s->surprised : 1 - s->initiative;
		read_array(doc, n, s, first);
	}
done:;
	fray_status st = fray_doc_status(doc);
	if (st != FRAY_OK) {
		fray_adbg_scenario_free(s);
		return st;
	}
	/* the terrain is the battle's: each unit's melee CF, once */
	for (int side = 0; side < 2; side++)
		for (int i = 0; i < s->side[side].nunits; i++) {
			adbg_unit_def *u = &s->side[side].units[i];
			u->melee_cf = u->melee * fray_adbg_melee_mult(u->type, s->terrain);
			fray_adbg_fire_in in = {u->type, u->fire, s->terrain, s->severe};
			s->side[side].fire_faces[i] = (uint8_t)((1u << frayi_adbg_fire_hits(&in)) - 1);
		}
	/* the heuristic's set-up, once (without memory, battles set up afresh) */
	s->setup = frayi_alloc(ctx, frayi_adbg_setup_size(s));
	if (s->setup)
		frayi_adbg_setup_make(s, s->setup);
	*out = s;
	return FRAY_OK;
}

FRAY_API fray_status fray_adbg_scenario_load(fray_ctx *ctx, const char *path,
					     fray_adbg_scenario **out)
{
	*out = NULL;
	fray_doc *doc;
	fray_status st = fray_doc_load_file(ctx, path, &doc);
	if (st != FRAY_OK)
		return st;
	st = fray_adbg_scenario_read(ctx, doc, out);
	fray_doc_free(doc);
	return st;
}

FRAY_API void fray_adbg_scenario_free(fray_adbg_scenario *s)
{
	if (!s)
		return;
	adbg_check *checks[] = {&s->loss_fire, &s->loss_melee, &s->routed_check};
	for (int i = 0; i < 3; i++) {
		fray_dice_check_free(checks[i]->test);
		fray_dice_free(checks[i]->dice);
	}
	frayi_dealloc(s->ctx, s->setup);
	frayi_dealloc(s->ctx, s);
}

FRAY_API uint64_t fray_adbg_scenario_digest(const fray_adbg_scenario *s)
{
	return frayi_fnv1a(s->digest, &s->crt.digest, sizeof s->crt.digest);
}

FRAY_API const char *fray_adbg_scenario_name(const fray_adbg_scenario *s)
{
	return s->name;
}

FRAY_API const char *fray_adbg_side_name(const fray_adbg_scenario *s, int side)
{
	return s->side[side].name;
}

_Static_assert(ADBG_NAME == FRAY_ADBG_NAME_MAX, "the stated limit is the one read_side cuts at");

FRAY_API const char *fray_adbg_side_id(const fray_adbg_scenario *s, int side)
{
	return s->side[side].id;
}

static bool same_check(const adbg_check *a, const adbg_check *b)
{
	return strcmp(a->text, b->text) == 0 && a->nfaces == b->nfaces &&
	       memcmp(a->faces, b->faces, (size_t)a->nfaces * sizeof a->faces[0]) == 0;
}

static bool same_crt(const fray_adbg_crt *a, const fray_adbg_crt *b)
{
	return a->ncols == b->ncols && a->first_row == b->first_row && a->nrows == b->nrows &&
	       memcmp(a->col_num, b->col_num, sizeof a->col_num) == 0 &&
	       memcmp(a->col_den, b->col_den, sizeof a->col_den) == 0 &&
	       memcmp(a->losses, b->losses, sizeof a->losses) == 0;
}

static bool same_side(const adbg_side_def *a, const adbg_side_def *b)
{
	if (a->level != b->level || a->nunits != b->nunits || a->nstacks != b->nstacks || a->nleaders != b->nleaders)
		return false;
	for (int i = 0; i < a->nunits; i++) {
		const adbg_unit_def *x = &a->units[i], *y = &b->units[i];
		if (x->type != y->type || x->fire != y->fire || x->melee != y->melee || x->melee_cf != y->melee_cf ||
		    x->status != y->status || x->stack != y->stack)
			return false;
	}
	for (int i = 0; i < a->nleaders; i++)
		if (a->leaders[i].rating != b->leaders[i].rating || a->leaders[i].stack != b->leaders[i].stack)
			return false;
	return true;
}

FRAY_API bool fray_adbg_scenario_same_battle(const fray_adbg_scenario *a, const fray_adbg_scenario *b)
{
	if (a->terrain != b->terrain || a->severe != b->severe || a->initiative != b->initiative ||
	    a->surprised != b->surprised || a->victory != b->victory || a->routed != b->routed ||
	    a->has_array != b->has_array || a->npos != b->npos)
		return false;
	for (int side = 0; side < 2; side++)
		if (!same_side(&a->side[side], &b->side[side]))
			return false;
	if (a->has_array && (memcmp(a->array_pos, b->array_pos, sizeof a->array_pos) != 0 ||
			     memcmp(a->array_row, b->array_row, sizeof a->array_row) != 0))
		return false;
	return same_crt(&a->crt, &b->crt) && same_check(&a->loss_fire, &b->loss_fire) &&
	       same_check(&a->loss_melee, &b->loss_melee) &&
	       (a->routed != ADBG_ROUTED_ROLL || same_check(&a->routed_check, &b->routed_check));
}

bool frayi_adbg_check_roll(fray_roller *r, const adbg_check *c, const char *what,
		     int64_t *total)
{
	return fray_dice_check_roll(c->test, r, what, total);
}
