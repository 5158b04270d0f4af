/* A game file: its units by each rule set's field table, read from a
 * forces file or a game file, and written back whole with the log. */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "ruleset.h"
#include "../common/text.h"
#include "../core/internal.h"
#include "../core/shipped_named.h"

const char *const frayi_unit_status_names[ST_NSTATUS] = {"good", "disordered", "flinched", "hunkered", "fell back",
						   "retreated", "panicked", "surrendered", "destroyed"};

void frayi_put_escaped(FILE *f, const char *s, size_t len, size_t (*escape)(const char *, char *, size_t),
			size_t quotes)
{
	/* a piece at a time (no allocation), each ending on a character's
	 * first byte, so a character is never cut in two; out holds a
	 * piece's worst case (\uXXXX for each byte, quotes, NUL) */
	enum { PIECE = 192 };
	char piece[PIECE + 1], out[6 * PIECE + 3];
	while (len > 0) {
		size_t k = len < PIECE ? len : PIECE;
		for (size_t back = 0; k < len && back < 3 && ((unsigned char)s[k] & 0xC0) == 0x80; back++)
			k--;
		memcpy(piece, s, k);
		piece[k] = '\0';
		size_t m = escape(piece, out, sizeof out);
		fwrite(out + quotes, 1, m - 2 * quotes, f);
		s += k;
		len -= k;
	}
}

void frayi_json_string_n(FILE *f, const char *s, size_t n)
{
	/* the library's escaper, fray_json_string, one for all of fray,
	 * without the quotes it puts round each piece */
	s = s ? s : "";
	fputc('"', f);
	frayi_put_escaped(f, s, strnlen(s, n), fray_json_string, 1);
	fputc('"', f);
}

void frayi_json_string(FILE *f, const char *s)
{
	frayi_json_string_n(f, s, (size_t)-1);
}

void frayi_table_hits_text(char *dst, size_t cap, const int *hits, int n)
{
	textbuf t = text_on(dst, cap);
	for (int b = 0; b < n; b++)
		text_add(&t, "%s%d", b ? " " : "", hits[b]);
}

/* Each line of text that is not empty as a YAML list item of its own. */
static void text_items(FILE *f, const char *text)
{
	for (const char *s = text; *s;) {
		size_t n = strcspn(s, "\n");
		if (n) {
			fputs("      - ", f);
			frayi_json_string_n(f, s, n);
			fputc('\n', f);
		}
		s += n + (s[n] == '\n');
	}
}

/* ---- reading ---- */

static int doc_failed(table_game *g, fray_doc *doc)
{
	fray_doc_status(doc);
	return frayi_game_failed(g);
}

/* How a unit is read: from a forces file or a game file (every field
 * required or given its default), from an undo record (the same: the
 * unit whole), or from `set` (onto the unit as it stands). */
typedef enum read_mode { READ_FORCES, READ_GAME, READ_UNDO, READ_SET } read_mode;

/* An F_HITS field's count (a chits unit's battalions), in the unit's area. */
static int hits_count(const unit_field *f, const table_unit *u)
{
	int n;
	memcpy(&n, u->own + f->count, sizeof n);
	return n;
}

static int *hits_at(const unit_field *f, table_unit *u)
{
	return (int *)frayi_field_at(f, u);
}

/* A chits unit's hits, one number a battalion. */
static void read_hits(fray_doc *doc, const fray_node *v, const unit_field *f, table_unit *u)
{
	if (!fray_doc_expect(doc, v, FRAY_NODE_SEQ, "hits (a list, one number a battalion)"))
		return;
	if (fray_node_len(v) != (size_t)hits_count(f, u)) {
		fray_doc_error(doc, v, "hits: expected %d numbers, one a battalion, got %zu", hits_count(f, u),
			       fray_node_len(v));
		return;
	}
	for (size_t b = 0; b < fray_node_len(v); b++) {
		int64_t x;
		if (fray_doc_int(doc, fray_node_item(v, b), f->min, f->max, "hits", &x))
			hits_at(f, u)[b] = (int)x;
	}
}

/* A control character (C0, DEL, or C1 as UTF-8's C2 80..9F) in a text:
 * names are refused with one (docs/table.md), so none can break a log
 * line, a change record or a terminal. */
static bool has_control(const char *s)
{
	for (const unsigned char *u = (const unsigned char *)s; *u; u++)
		if (*u < 0x20 || *u == 0x7F || (*u == 0xC2 && u[1] >= 0x80 && u[1] <= 0x9F))
			return true;
	return false;
}

/* What is wrong with a text field's value, or NULL. */
static const char *text_problem(const unit_field *f, const char *s)
{
	if (strlen(s) >= frayi_field_cap(f) || (!*s && f->required)) {
		static _Thread_local char why[48];
		snprintf(why, sizeof why, "expected %s %zu bytes", f->required ? "1 to" : "at most", frayi_field_cap(f) - 1);
		return why;
	}
	if (has_control(s))
		return "a control character (a line break, a tab...) is not allowed";
	return NULL;
}

/* A unit's fields from a mapping, by the rule set's field table (what the
 * mapping leaves out stays as it was: the defaults come after); every
 * problem on doc. */
static void read_unit(table_game *g, fray_doc *doc, const fray_node *n, table_unit *u, read_mode mode)
{
	size_t nf = g->rules->nfields;
	const unit_field *f = g->rules->fields;
	const char *keys[32];
	for (size_t i = 0; i < nf; i++)
		keys[i] = f[i].key;
	if (!fray_doc_expect(doc, n, FRAY_NODE_MAP, "a unit"))
		return;
	fray_doc_known_keys(doc, n, keys, nf);
	for (size_t i = 0; i < nf; i++) {
		const fray_node *v = fray_doc_field(doc, n, f[i].key, mode != READ_SET && f[i].required);
		if (!v)
			continue;
		char *at = frayi_field_at(&f[i], u);
		int64_t x;
		size_t k;
		const char *s, *why;
		switch (f[i].kind) {
		case F_STR:
			if (!fray_doc_string(doc, v, f[i].key, &s))
				break;
			/* empty: none (a snapshot writes every field) */
			if ((why = text_problem(&f[i], s)))
				fray_doc_error(doc, v, "%s: %s", f[i].key, why);
			else
				snprintf(at, frayi_field_cap(&f[i]), "%s", s);
			break;
		case F_INT:
			if (fray_doc_int(doc, v, f[i].min, f[i].max, f[i].key, &x))
				*(int *)at = (int)x;
			break;
		case F_BOOL:
			fray_doc_bool(doc, v, f[i].key, (bool *)at);
			break;
		case F_ENUM:
			if (fray_doc_enum(doc, v, f[i].key, f[i].choices, f[i].nchoices, &k))
				*(int *)at = (int)k;
			break;
		case F_HITS:
			/* battalions first: a list of the wrong length is refused */
			if (hits_count(&f[i], u) >= 1)
				read_hits(doc, v, &f[i], u);
			break;
		}
	}
}

/* A field's value against its range in the field table (the reader's
 * own limits): NULL, or what is wrong. */
static const char *field_problem(const unit_field *f, const table_unit *u, char *why, size_t cap)
{
	const char *at = frayi_field_in(f, u);
	int v = f->kind == F_INT || f->kind == F_ENUM ? *(const int *)at : 0;
	switch (f->kind) {
	case F_STR:
		return text_problem(f, at);
	case F_INT:
		if (v >= f->min && v <= f->max)
			return NULL;
		snprintf(why, cap, "%d, past its limits (%d to %d)", v, f->min, f->max);
		return why;
	case F_ENUM:
		return v >= 0 && (size_t)v < f->nchoices ? NULL : "not one of its names";
	case F_BOOL:
		return NULL;
	case F_HITS:
		for (int b = 0; b < FRAY_CHITS_MAX_BATTALIONS; b++) {
			const int *hits = (const int *)at;
			if (b < hits_count(f, u) ? hits[b] < f->min || hits[b] > f->max : hits[b] != 0) {
				snprintf(why, cap, "battalion %d at %d, past its limits (%d to %d)", b + 1,
					 hits[b], f->min, f->max);
				return why;
			}
		}
		return NULL;
	}
	return NULL;
}

/* A unit's fields against each other (the rule set's check): the key of
 * the field at fault and what is wrong, or NULL. */
static const char *unit_problem(const game_ruleset *rules, const table_unit *u, char *why, size_t cap)
{
	return rules->problem ? rules->problem(u, why, cap) : NULL;
}

/* The checks after reading: the unit's fields against each other. */
static void check_unit(table_game *g, fray_doc *doc, const fray_node *n, const table_unit *u)
{
	char why[160];
	const char *key = unit_problem(g->rules, u, why, sizeof why);
	if (key) {
		const fray_node *at = fray_map_get(n, key);
		fray_doc_error(doc, at ? at : n, "%s", why);
	}
}

/* A whole unit: its fields, the defaults for what it leaves out, the
 * checks. */
static void read_whole_unit(table_game *g, fray_doc *doc, const fray_node *n, table_unit *u, read_mode mode)
{
	size_t before = fray_doc_error_count(doc);
	memset(u, 0, sizeof *u);
	read_unit(g, doc, n, u, mode);
	if (fray_node_kind_of(n) != FRAY_NODE_MAP || fray_doc_error_count(doc) != before)
		return;
	if (g->rules->defaults)
		g->rules->defaults(u, n);
	check_unit(g, doc, n, u);
}

static void read_units(table_game *g, fray_doc *doc, const fray_node *list, read_mode mode,
		       const fray_presidio_units *types)
{
	if (!fray_doc_expect(doc, list, FRAY_NODE_SEQ, "units (a list)"))
		return;
	if (fray_node_len(list) == 0 || fray_node_len(list) > TABLE_MAX_UNITS) {
		fray_doc_error(doc, list, "units: expected 1 to %d units", TABLE_MAX_UNITS);
		return;
	}
	g->nunits = fray_node_len(list);
	for (size_t i = 0; i < g->nunits; i++) {
		const fray_node *n = fray_node_item(list, i);
		table_unit *u = &g->units[i];
		read_whole_unit(g, doc, n, u, mode);
		if (g->rules->unit_read && fray_node_kind_of(n) == FRAY_NODE_MAP)
			g->rules->unit_read(u, n, doc, mode == READ_FORCES ? UNIT_FROM_FORCES : UNIT_FROM_GAME, types);
		for (size_t j = 0; j < i; j++)
			if (u->name[0] && strcmp(u->name, g->units[j].name) == 0)
				fray_doc_error(doc, fray_map_get(n, "name"), "name: '%s' names two units", u->name);
	}
	/* a unit's fields against the others, once every unit read cleanly */
	for (size_t i = 0; g->rules->unit_in_game && fray_doc_error_count(doc) == 0 && i < g->nunits; i++) {
		char why[256];
		const char *key = g->rules->unit_in_game(g, &g->units[i], why, sizeof why);
		const fray_node *n = fray_node_item(list, i), *at = key ? fray_map_get(n, key) : NULL;
		if (key)
			fray_doc_error(doc, at ? at : n, "%s", why);
	}
}

/* name as a file beside path (as a scenario names its CRT). */
static void beside(const char *path, const char *name, char *full, size_t cap)
{
	const char *slash = strrchr(path, '/');
	if (name[0] != '/' && slash)
		snprintf(full, cap, "%.*s/%s", (int)(slash - path), path, name);
	else
		snprintf(full, cap, "%s", name);
}

/* A mapping's known keys: base's, then the rule set's game-state keys
 * (ruleset.h), as one list for fray_doc_known_keys. */
static void known_with_state(const table_game *g, fray_doc *doc, const fray_node *map, const char *const *base,
			     size_t nbase)
{
	const char *keys[16];
	size_t n = 0;
	for (size_t i = 0; i < nbase && n < 16; i++)
		keys[n++] = base[i];
	for (size_t i = 0; i < g->rules->nstate_keys && n < 16; i++)
		keys[n++] = g->rules->state_keys[i];
	fray_doc_known_keys(doc, map, keys, n);
}

/* A chits forces file's mix, read and checked now (its problems with
 * the mix file's line and column); the game file carries it. */
static int read_mix(table_game *g, const char *forces, const char *name, fray_doc_open_fn open, void *ud)
{
	char full[4096];
	beside(forces, name, full, sizeof full);
	/* fray's own sample mix by its name, wherever the forces file is */
	if (frayi_open_named(g->ctx, open, ud, full, &g->mix_doc) != FRAY_OK)
		return frayi_game_failed(g);
	fray_chits_mix *m = NULL;
	if (fray_chits_mix_read(g->ctx, g->mix_doc, &m) != FRAY_OK)
		return fray_doc_error_count(g->mix_doc) ? doc_failed(g, g->mix_doc) : frayi_game_failed(g);
	fray_chits_mix_free(m);
	g->mix = fray_doc_root(g->mix_doc);
	return FRAY_OK;
}

/* The file system's, for the files a forces file names (fray_doc_open_fn). */
static fray_status open_file(void *ud, fray_ctx *ctx, const char *path, fray_doc **out)
{
	(void)ud;
	return fray_doc_load_file(ctx, path, out);
}

int frayi_table_read_forces(table_game *g, fray_ctx *ctx, const char *path)
{
	g->ctx = ctx;
	fray_doc *doc = NULL;
	if (fray_doc_load_file(ctx, path, &doc) != FRAY_OK)
		return frayi_game_failed(g);
	return frayi_table_read_forces_doc(g, ctx, path, doc, NULL, NULL);
}

int frayi_table_read_forces_doc(table_game *g, fray_ctx *ctx, const char *path, fray_doc *doc, fray_doc_open_fn open,
				void *ud)
{
	g->ctx = ctx;
	if (!open)
		open = open_file;
	fray_doc *tdoc = NULL;
	const fray_node *root = fray_doc_root(doc);
	static const char *const keys[] = {"rules", "units_file", "units", "mix"};
	fray_presidio_units *types = NULL;
	int status = FRAY_OK;
	if (!fray_doc_expect(doc, root, FRAY_NODE_MAP, "a forces file (a mapping)"))
		goto out;
	known_with_state(g, doc, root, keys, 4);
	size_t rules;
	const char *ids[RULESET_MAX];
	size_t nids = frayi_ruleset_ids(ids, RULESET_MAX);
	const fray_node *r = fray_doc_field(doc, root, "rules", false);
	if (r && fray_doc_enum(doc, r, "rules", ids, nids, &rules) && frayi_ruleset_at(rules) != g->rules)
		fray_doc_error(doc, r, "rules: this file is for %s, not %s", ids[rules], g->rules->id);
	const fray_node *tf = fray_doc_field(doc, root, "units_file", false);
	const char *tpath;
	char full[4096];
	if (tf && fray_doc_string(doc, tf, "units_file", &tpath)) {
		beside(path, tpath, full, sizeof full);
		types = frayi_game_calloc(ctx, 1, sizeof *types);
		if (!types) {
			status = frayi_game_fail(g, FRAY_ERR_NOMEM, "out of memory");
			goto out;
		}
		if (open(ud, ctx, full, &tdoc) != FRAY_OK) {
			status = frayi_game_failed(g);
			goto out;
		}
		if (!fray_presidio_units_read(tdoc, types)) {
			status = doc_failed(g, tdoc);
			goto out;
		}
	}
	const fray_node *mix = fray_doc_field(doc, root, "mix", g->rules->reads_mix);
	const char *mpath;
	if (mix && !g->rules->reads_mix)
		fray_doc_error(doc, mix, "mix: only a chits game has a chit mix");
	else if (mix && fray_doc_string(doc, mix, "mix", &mpath) && (status = read_mix(g, path, mpath, open, ud)) != FRAY_OK)
		goto out;
	const fray_node *list = fray_doc_field(doc, root, "units", true);
	if (list)
		read_units(g, doc, list, READ_FORCES, types);
	/* a new game's state: the forces file's word, or the rule set's
	 * default for a new game */
	if (g->rules->state_read && fray_doc_error_count(doc) == 0)
		g->rules->state_read(g, doc, root, true, g->state);
out:
	if (status == FRAY_OK && fray_doc_error_count(doc))
		status = doc_failed(g, doc);
	frayi_game_dealloc(ctx, types);
	fray_doc_free(tdoc);
	fray_doc_free(doc);
	return status;
}

int frayi_table_load(table_game *g, fray_ctx *ctx, const char *path)
{
	g->ctx = ctx;
	fray_doc *doc;
	if (fray_doc_load_file(ctx, path, &doc) != FRAY_OK)
		return frayi_game_failed(g);
	return frayi_table_load_doc(g, ctx, path, doc);
}

/* The turn's order a game file or an undo record keeps (initiative:
 * SIDE, acting: SIDE; both or neither, each a side of the units, only in
 * a game whose rules keep one: Presidio's, Section 2, Initiative) into
 * ini and act when apply; left out: none kept ("" both). */
static void read_order(table_game *g, fray_doc *doc, const fray_node *map, char *ini, char *act, bool apply)
{
	static const char *const keys[] = {"initiative", "acting"};
	char *to[2] = {ini, act};
	const fray_node *n[2];
	const char *v[2] = {"", ""};
	size_t errors = fray_doc_error_count(doc);
	for (int k = 0; k < 2; k++) {
		if (!(n[k] = fray_map_get(map, keys[k])))
			continue;
		if (!g->rules->keeps_order) {
			fray_doc_error(doc, n[k], "%s: only a Presidio game keeps the initiative", keys[k]);
			continue;
		}
		if (!fray_doc_string(doc, n[k], keys[k], &v[k]))
			continue;
		bool side = !*v[k];
		for (size_t i = 0; i < g->nunits && !side; i++)
			side = !strcmp(g->units[i].side, v[k]);
		if (!side)
			fray_doc_error(doc, n[k], "%s: '%s' is not a side of the units", keys[k], v[k]);
	}
	if (fray_doc_error_count(doc) == errors && !*v[0] != !*v[1])
		fray_doc_error(doc, n[0] ? n[0] : n[1], "%s: expected initiative and acting both (the side that won "
			       "the turn's initiative and the side acting now; Presidio Section 2), or neither",
			       n[0] ? "initiative" : "acting");
	if (apply && fray_doc_error_count(doc) == errors)
		for (int k = 0; k < 2; k++)
			snprintf(to[k], TABLE_NAME_MAX, "%s", v[k]);
}

/* An undo record: the dice and turn before the entry, and each unit it
 * changed as it was (a unit of the game, whole). Read into g when apply,
 * else only checked. */
static void read_undo(table_game *g, fray_doc *doc, const fray_node *undo, bool apply)
{
	static const char *const keys[] = {"dice", "turn", "units", "initiative", "acting"};
	int64_t dice = 0, turn = 1;
	const fray_node *n, *units = NULL;
	size_t errors = fray_doc_error_count(doc);
	if (!fray_doc_expect(doc, undo, FRAY_NODE_MAP, "an entry's undo"))
		return;
	known_with_state(g, doc, undo, keys, 5);
	/* the order before the entry (written when it or the game after it
	 * keeps one); left out: the entry did not change it */
	char ini[TABLE_NAME_MAX], act[TABLE_NAME_MAX];
	bool order = fray_map_get(undo, "initiative") || fray_map_get(undo, "acting");
	read_order(g, doc, undo, ini, act, true);
	/* the game state before the entry (an entry an older fray wrote has
	 * none: the rule set's default for a game file without it) */
	_Alignas(max_align_t) unsigned char state[TABLE_GAME_STATE] = {0};
	if (g->rules->state_read)
		g->rules->state_read(g, doc, undo, false, state);
	if ((n = fray_doc_field(doc, undo, "dice", true)))
		fray_doc_int(doc, n, 0, TABLE_MAX_DICE, "dice", &dice);
	if ((n = fray_doc_field(doc, undo, "turn", true)))
		fray_doc_int(doc, n, 1, TABLE_MAX_TURN, "turn", &turn);
	if (g->rules->turn_read)
		turn = g->rules->turn_read(state, (int)turn);
	if ((units = fray_doc_field(doc, undo, "units", true)) &&
	    !fray_doc_expect(doc, units, FRAY_NODE_SEQ, "units (a list)"))
		units = NULL;
	bool seen[TABLE_MAX_UNITS] = {false};
	for (size_t i = 0; units && i < fray_node_len(units); i++) {
		table_unit was;
		const fray_node *un = fray_node_item(units, i);
		size_t before = fray_doc_error_count(doc);
		read_whole_unit(g, doc, un, &was, READ_UNDO);
		if (g->rules->unit_read && fray_doc_error_count(doc) == before)
			g->rules->unit_read(&was, un, doc, UNIT_FROM_UNDO, NULL);
		if (fray_doc_error_count(doc) != before)
			continue;
		size_t k = 0;
		while (k < g->nunits && strcmp(g->units[k].name, was.name) != 0)
			k++;
		if (k == g->nunits)
			fray_doc_error(doc, un, "undo: no unit named '%s' in the game", was.name);
		else if (seen[k])
			fray_doc_error(doc, un, "undo: '%s' twice", was.name);
		else if (apply && fray_doc_error_count(doc) == errors)
			g->units[k] = was;
		if (k < g->nunits)
			seen[k] = true;
	}
	if (apply && fray_doc_error_count(doc) == errors) {
		g->dice = (uint64_t)dice;
		g->turn = (int)turn;
		if (order) {
			memcpy(g->initiative, ini, sizeof ini);
			memcpy(g->acting, act, sizeof act);
		}
		memcpy(g->state, state, sizeof g->state);
	}
}

/* An entry's list of text (story, changes): a line an item. */
static void text_list(fray_doc *doc, const fray_node *e, const char *key, bool required)
{
	const fray_node *l = fray_doc_field(doc, e, key, required);
	const char *s;
	if (!l || !fray_doc_expect(doc, l, FRAY_NODE_SEQ, key))
		return;
	for (size_t i = 0; i < fray_node_len(l); i++)
		fray_doc_string(doc, fray_node_item(l, i), key, &s);
}

/* A step: a roll's JSON as fray wrote it (the log's JSON repeats its
 * members, so an unknown one could pass for the action's own). */
static void check_step(fray_doc *doc, const fray_node *s)
{
	static const char *const keys[] = {"procedure", "inputs", "seed", "dice", "events", "outcome"};
	static const fray_node_kind kinds[] = {FRAY_NODE_SCALAR, FRAY_NODE_MAP, FRAY_NODE_SCALAR, FRAY_NODE_SCALAR,
					       FRAY_NODE_SEQ, FRAY_NODE_MAP};
	if (!fray_doc_expect(doc, s, FRAY_NODE_MAP, "a step (a roll as JSON)"))
		return;
	fray_doc_known_keys(doc, s, keys, 6);
	for (size_t i = 0; i < 6; i++) {
		const fray_node *v = fray_doc_field(doc, s, keys[i], i == 0);
		if (v)
			fray_doc_expect(doc, v, kinds[i], keys[i]);
	}
}

/* A log entry, whole: what the printers, undo and the next save read. */
static void check_entry(table_game *g, fray_doc *doc, const fray_node *e)
{
	static const char *const keys[] = {"command", "turn", "dice", "story", "changes", "steps", "undo", "facts"};
	const fray_node *n;
	const char *s;
	int64_t x;
	if (!fray_doc_expect(doc, e, FRAY_NODE_MAP, "a log entry"))
		return;
	fray_doc_known_keys(doc, e, keys, 8);
	/* the typed facts a later rule reads (frayi_table_entry_fact): a
	 * value each, no lists or maps */
	if ((n = fray_map_get(e, "facts")) && fray_doc_expect(doc, n, FRAY_NODE_MAP, "facts (a mapping)"))
		for (size_t i = 0; i < fray_node_len(n); i++)
			fray_doc_expect(doc, fray_node_value(n, i), FRAY_NODE_SCALAR, "a fact (a value)");
	if ((n = fray_doc_field(doc, e, "command", true)))
		fray_doc_string(doc, n, "command", &s);
	if ((n = fray_doc_field(doc, e, "turn", true)))
		fray_doc_int(doc, n, 1, TABLE_MAX_TURN, "turn", &x);
	if ((n = fray_doc_field(doc, e, "dice", true)) &&
	    fray_doc_expect(doc, n, FRAY_NODE_SEQ, "dice (before and after)")) {
		if (fray_node_len(n) != 2)
			fray_doc_error(doc, n, "dice: expected two numbers (before and after), got %zu",
				       fray_node_len(n));
		for (size_t i = 0; i < fray_node_len(n) && i < 2; i++)
			fray_doc_int(doc, fray_node_item(n, i), 0, TABLE_MAX_DICE, "dice", &x);
	}
	text_list(doc, e, "story", true);
	text_list(doc, e, "changes", false);
	if ((n = fray_doc_field(doc, e, "steps", true)) && fray_doc_expect(doc, n, FRAY_NODE_SEQ, "steps (a list)"))
		for (size_t i = 0; i < fray_node_len(n); i++)
			check_step(doc, fray_node_item(n, i));
	if ((n = fray_map_get(e, "undo")))
		read_undo(g, doc, n, false);
}

/* The game's mix read as a mix file is, its problems said at the mix. */
static void check_mix(table_game *g, fray_doc *doc)
{
	char *text = NULL;
	size_t len = 0;
	game_out o;
	FILE *f = frayi_out_open(&o, g->ctx);
	if (f)
		frayi_node_json(f, g->mix);
	fray_doc *md = NULL;
	fray_chits_mix *m = NULL;
	if (frayi_out_close(&o, f, &text, &len) != FRAY_OK) {
		frayi_nomem(g->ctx); /* the first failure: the reader says NOMEM */
		fray_doc_error(doc, g->mix, "mix: out of memory");
	} else if (fray_doc_load_string(g->ctx, "mix", text, len, &md) != FRAY_OK ||
		 fray_chits_mix_read(g->ctx, md, &m) != FRAY_OK) {
		const char *msg = md && fray_doc_error_count(md) ? fray_doc_error_msg(md, 0) : fray_ctx_message(g->ctx);
		/* the place in the mix as JSON means nothing to its reader: said
		 * at the game file's mix instead */
		int skip = 0;
		sscanf(msg, "mix:%*d:%*d: %n", &skip);
		char said[400];
		snprintf(said, sizeof said, "%s", *msg ? msg + skip : "not a chit mix");
		if (fray_ctx_status(g->ctx) != FRAY_ERR_NOMEM)
			fray_ctx_clear(g->ctx);
		fray_doc_error(doc, g->mix, "mix: %s", said);
	}
	fray_chits_mix_free(m);
	fray_doc_free(md);
	frayi_game_dealloc(g->ctx, text);
}

/* The game file read and checked whole (the forces, the mix, every log
 * entry and undo record), so nothing after trusts a field it did not. */
static void read_game(table_game *g, fray_doc *doc)
{
	const fray_node *root = fray_doc_root(doc);
	static const char *const keys[] = {"fray_game", "rules", "seed", "dice", "turn", "mix", "units", "log",
					   "initiative", "acting"};
	if (!fray_doc_expect(doc, root, FRAY_NODE_MAP, "a game file (a mapping)"))
		return;
	int64_t version = 0, turn = 1;
	size_t rules = 0;
	const fray_node *n;
	if ((n = fray_doc_field(doc, root, "fray_game", true)) && fray_doc_int(doc, n, 1, INT64_MAX, "fray_game", &version) &&
	    version != 1)
		fray_doc_error(doc, n, "fray_game: version %" PRId64 " is newer than this fray reads (1)", version);
	const char *ids[RULESET_MAX];
	size_t nids = frayi_ruleset_ids(ids, RULESET_MAX);
	if ((n = fray_doc_field(doc, root, "rules", true)))
		fray_doc_enum(doc, n, "rules", ids, nids, &rules);
	g->rules = frayi_ruleset_at(rules);
	/* the rule set's game-state keys are known once its rules are */
	known_with_state(g, doc, root, keys, 10);
	int64_t dice = 0;
	/* a seed is any 64-bit number; YAML's integers stop at 2^63 - 1, so
	 * larger seeds are written as text */
	if ((n = fray_doc_field(doc, root, "seed", true))) {
		const char *s = fray_node_scalar(n);
		char *end;
		errno = 0;
		uint64_t v = s && *s >= '0' && *s <= '9' ? strtoull(s, &end, 10) : 0;
		if (!s || *s < '0' || *s > '9' || *end || errno)
			fray_doc_error(doc, n, "seed: expected a whole number from 0 to 2^64-1");
		else
			g->seed = v;
	}
	if ((n = fray_doc_field(doc, root, "dice", true)) && fray_doc_int(doc, n, 0, TABLE_MAX_DICE, "dice", &dice))
		g->dice = (uint64_t)dice;
	if ((n = fray_doc_field(doc, root, "turn", true)) && fray_doc_int(doc, n, 1, TABLE_MAX_TURN, "turn", &turn))
		g->turn = (int)turn;
	if (fray_doc_error_count(doc))
		return;
	if ((n = fray_doc_field(doc, root, "units", true)))
		read_units(g, doc, n, READ_GAME, NULL);
	if (fray_doc_error_count(doc) == 0)
		read_order(g, doc, root, g->initiative, g->acting, true);
	if (g->rules->state_read && fray_doc_error_count(doc) == 0)
		g->rules->state_read(g, doc, root, false, g->state);
	if (g->rules->turn_read && fray_doc_error_count(doc) == 0)
		g->turn = g->rules->turn_read(g->state, g->turn);
	g->mix = fray_doc_field(doc, root, "mix", g->rules->reads_mix);
	if (g->mix && !g->rules->reads_mix)
		fray_doc_error(doc, g->mix, "mix: only a chits game has a chit mix");
	else if (g->mix)
		check_mix(g, doc);
	const fray_node *log = fray_doc_field(doc, root, "log", true);
	if (log && !fray_doc_expect(doc, log, FRAY_NODE_SEQ, "log (a list)"))
		log = NULL;
	/* the units first: an undo record names them */
	for (size_t i = 0; log && i < fray_node_len(log) && fray_doc_error_count(doc) == 0; i++)
		check_entry(g, doc, fray_node_item(log, i));
	size_t nlog = log ? fray_node_len(log) : 0;
	if (fray_doc_error_count(doc) || nlog == 0)
		return;
	if (!(g->log = frayi_game_calloc(g->ctx, nlog, sizeof *g->log))) {
		frayi_nomem(g->ctx); /* the reader says NOMEM, as check_mix */
		fray_doc_error(doc, log, "log: out of memory");
		return;
	}
	for (size_t i = 0; i < nlog; i++)
		g->log[i] = fray_node_item(log, i);
	g->nlog = nlog;
}

int frayi_table_load_doc(table_game *g, fray_ctx *ctx, const char *path, fray_doc *doc)
{
	g->ctx = ctx;
	g->path = path;
	g->doc = doc;
	read_game(g, doc);
	return fray_doc_error_count(doc) ? doc_failed(g, doc) : FRAY_OK;
}

int frayi_table_entry_turn(const fray_node *entry)
{
	const char *s = fray_node_scalar(fray_map_get(entry, "turn"));
	long v = s ? strtol(s, NULL, 10) : 0;
	return v >= 1 && v <= TABLE_MAX_TURN ? (int)v : 0;
}

/* The game state an entry's undo record keeps (before the entry) read
 * into state, as read_undo reads it (checked on load, so it says
 * nothing); an entry without one, or a rule set without a state: the
 * game's. */
static const void *entry_state(const table_game *g, const fray_node *entry, void *state)
{
	const fray_node *undo = fray_map_get(entry, "undo");
	if (!g->rules->state_read || !undo)
		return g->state;
	g->rules->state_read(g, g->doc, undo, false, state);
	return state;
}

int frayi_table_log_turn(const table_game *g, const fray_node *entry)
{
	int turn = frayi_table_entry_turn(entry);
	_Alignas(max_align_t) unsigned char state[TABLE_GAME_STATE] = {0};
	/* an entry's turn is its undo record's (the turn before it), so it
	 * is read as the record's is (BBB: an older fray's counted each
	 * player's turn) */
	return g->rules->turn_read ? g->rules->turn_read(entry_state(g, entry, state), turn) : turn;
}

const fray_node *frayi_table_entry_fact(const fray_node *entry, const char *key)
{
	const fray_node *facts = fray_map_get(entry, "facts");
	return facts ? fray_map_get(facts, key) : NULL;
}

/* A member for g->facts; one that does not fit is left out whole (the
 * facts are a few short words and numbers: 512 bytes hold them). */
static void add_fact(table_game *g, const char *member)
{
	size_t n = strlen(member);
	if (g->facts_len + n + 2 >= sizeof g->facts)
		return;
	g->facts_len += (size_t)snprintf(g->facts + g->facts_len, sizeof g->facts - g->facts_len, "%s%s",
					 g->facts_len ? ", " : "", member);
}

void frayi_table_fact_int(table_game *g, const char *key, long long v)
{
	char m[96];
	snprintf(m, sizeof m, "\"%s\": %lld", key, v);
	add_fact(g, m);
}

void frayi_table_fact_str(table_game *g, const char *key, const char *v)
{
	char m[256], val[6 * TABLE_NAME_MAX + 3];
	fray_json_string(v, val, sizeof val);
	snprintf(m, sizeof m, "\"%s\": %s", key, val);
	add_fact(g, m);
}

/* The reads (issue 42: one read of the game a request); a thread's own,
 * as the requests are. */
static _Thread_local game_reads reads;

game_reads frayi_game_reads(void)
{
	return reads;
}

void frayi_game_count_read(size_t len, bool whole)
{
	reads.files += whole;
	reads.bytes += len;
}

int frayi_table_restore(table_game *g, const fray_node *undo)
{
	fray_doc *doc = g->doc;
	if (!undo)
		return frayi_game_fail(g, FRAY_ERR_INPUT, "%s: the last log entry has no undo", g->path);
	read_undo(g, doc, undo, true);
	return fray_doc_error_count(doc) ? doc_failed(g, doc) : FRAY_OK;
}

/* The rule set's F_HITS field (a chits unit's battalions' hits), or NULL. */
static const unit_field *hits_field(const game_ruleset *rules)
{
	for (size_t i = 0; i < rules->nfields; i++)
		if (rules->fields[i].kind == F_HITS)
			return &rules->fields[i];
	return NULL;
}

int frayi_table_set_fields(table_game *g, table_unit *u, const char *yaml)
{
	fray_doc *doc = NULL;
	if (fray_doc_load_string(g->ctx, "set", yaml, strlen(yaml), &doc) != FRAY_OK)
		return frayi_game_failed(g);
	const fray_node *map = fray_node_item(fray_map_get(fray_doc_root(doc), "units"), 0);
	table_unit now = *u;
	if (fray_map_get(map, "name"))
		fray_doc_error(doc, fray_map_get(map, "name"), "name: a unit keeps its name");
	/* a new count of battalions needs its hits, one a battalion (a rule
	 * set whose units keep a list of hits) */
	const unit_field *hits = hits_field(g->rules);
	if (hits && fray_map_get(map, "battalions") && !fray_map_get(map, "hits"))
		fray_doc_error(doc, fray_map_get(map, "battalions"), "battalions: set hits too (one number a "
				"battalion)");
	if (fray_doc_error_count(doc) == 0)
		read_unit(g, doc, map, &now, READ_SET);
	if (fray_doc_error_count(doc) == 0) {
		for (int b = hits ? hits_count(hits, &now) : 0; hits && b < FRAY_CHITS_MAX_BATTALIONS; b++)
			hits_at(hits, &now)[b] = 0;
		check_unit(g, doc, map, &now);
	}
	/* what the rule set checks beyond the fields (a Presidio weapon is
	 * Section 10's), as its reader checks a game file's unit: said at
	 * the value set, not when the file would not read back */
	if (fray_doc_error_count(doc) == 0 && g->rules->unit_read)
		g->rules->unit_read(&now, map, doc, UNIT_FROM_GAME, NULL);
	int status = fray_doc_error_count(doc) ? doc_failed(g, doc) : FRAY_OK;
	for (size_t i = 0; status == FRAY_OK && i < fray_node_len(map); i++) {
		/* the value as given: a scalar, or a list of them (a chits
		 * unit's hits, "[1, 0, 0, 0]": the referee's finding 11(b)) */
		const fray_node *v = fray_node_value(map, i);
		char shown[160] = "?";
		if (fray_node_scalar(v))
			snprintf(shown, sizeof shown, "%s", fray_node_scalar(v));
		else if (fray_node_kind_of(v) == FRAY_NODE_SEQ) {
			textbuf t = text_on(shown, sizeof shown);
			text_add(&t, "[");
			for (size_t k = 0; k < fray_node_len(v); k++)
				text_add(&t, "%s%s", k ? ", " : "", fray_node_scalar(fray_node_item(v, k)) ?
					 fray_node_scalar(fray_node_item(v, k)) : "?");
			text_add(&t, "]");
		}
		frayi_table_note(g, "%s: %s set to %s", u->name, fray_node_scalar(fray_node_key(map, i)), shown);
	}
	if (status == FRAY_OK)
		*u = now;
	fray_doc_free(doc);
	return status;
}

bool frayi_table_check(const table_game *g, char *why, size_t cap)
{
	char what[320];
	if (g->turn < 1 || g->turn > TABLE_MAX_TURN) {
		snprintf(why, cap, "turn %d, past its limits (1 to %d)", g->turn, TABLE_MAX_TURN);
		return false;
	}
	if (g->dice > (uint64_t)TABLE_MAX_DICE) {
		snprintf(why, cap, "the dice at %" PRIu64 ", past their limit (%" PRId64 ")", g->dice, TABLE_MAX_DICE);
		return false;
	}
	size_t nf = g->rules->nfields;
	const unit_field *f = g->rules->fields;
	for (size_t k = 0; k < g->nunits; k++) {
		const table_unit *u = &g->units[k];
		const char *p, *key;
		for (size_t i = 0; i < nf; i++)
			if ((p = field_problem(&f[i], u, what, sizeof what))) {
				snprintf(why, cap, "%s's %s: %s", u->name, f[i].key, p);
				return false;
			}
		if ((key = unit_problem(g->rules, u, what, sizeof what)) ||
		    (g->rules->unit_in_game && (key = g->rules->unit_in_game(g, u, what, sizeof what)))) {
			snprintf(why, cap, "%s's %s", u->name, what);
			return false;
		}
	}
	return true;
}

void frayi_table_free(table_game *g)
{
	frayi_game_dealloc(g->ctx, g->log);
	g->log = NULL;
	g->nlog = 0;
	for (size_t i = 0; i < g->nsteps; i++) {
		free(g->steps[i].json);
		free(g->steps[i].text);
	}
	g->nsteps = 0;
	fray_doc_free(g->doc);
	fray_doc_free(g->mix_doc);
	g->doc = g->mix_doc = NULL;
}

table_unit *frayi_table_unit_named(table_game *g, const char *name)
{
	for (size_t i = 0; i < g->nunits; i++)
		if (strcmp(g->units[i].name, name) == 0)
			return &g->units[i];
	for (size_t i = 0; i < g->nunits; i++)
		if (strcasecmp(g->units[i].name, name) == 0)
			return &g->units[i];
	const char *names[TABLE_MAX_UNITS];
	for (size_t i = 0; i < g->nunits; i++)
		names[i] = g->units[i].name;
	const char *near = text_nearest(name, names, g->nunits, sizeof *names);
	char list[1024];
	textbuf t = text_on(list, sizeof list);
	for (size_t i = 0; i < g->nunits; i++)
		text_add(&t, "%s'%s'", i ? ", " : "", g->units[i].name);
	if (near)
		frayi_game_fail(g, FRAY_ERR_INPUT, "no unit named '%.64s' in %s (did you mean '%s'?)", name,
			  g->path, near);
	else
		frayi_game_fail(g, FRAY_ERR_INPUT, "no unit named '%.64s' in %s; the units: %s", name,
			  g->path, list);
	return NULL;
}

/* ---- writing ---- */

/* A node as JSON: the log's entries are written back as they were read.
 * A plain scalar that is a JSON number (by JSON's grammar: no `01`, `.5`
 * or `1.`) or literal stays bare; everything else is a string. */
static bool json_bare(const char *s)
{
	return !strcmp(s, "true") || !strcmp(s, "false") || !strcmp(s, "null") || text_is_json_number(s);
}

void frayi_node_json(FILE *f, const fray_node *n)
{
	size_t len = fray_node_len(n);
	if (!n) {
		fputs("null", f);
		return;
	}
	switch (fray_node_kind_of(n)) {
	case FRAY_NODE_SCALAR: {
		const char *s = fray_node_scalar(n);
		if (fray_node_plain(n) && json_bare(s))
			fputs(s, f);
		else
			frayi_json_string(f, s);
		break;
	}
	case FRAY_NODE_SEQ:
		fputc('[', f);
		for (size_t i = 0; i < len; i++) {
			fputs(i ? ", " : "", f);
			frayi_node_json(f, fray_node_item(n, i));
		}
		fputc(']', f);
		break;
	case FRAY_NODE_MAP:
		fputc('{', f);
		for (size_t i = 0; i < len; i++) {
			fputs(i ? ", " : "", f);
			/* a key is a string in JSON, whatever it looks like */
			frayi_json_string(f, fray_node_scalar(fray_node_key(n, i)));
			fputs(": ", f);
			frayi_node_json(f, fray_node_value(n, i));
		}
		fputc('}', f);
		break;
	}
}

/* A field's value as JSON (strings always quoted: a name may look like a
 * number or hold a colon, so the YAML form quotes them too). */
static void field_value(FILE *f, const unit_field *fl, const table_unit *u)
{
	const char *at = frayi_field_in(fl, u);
	switch (fl->kind) {
	case F_STR:
		frayi_json_string(f, at);
		break;
	case F_INT:
		fprintf(f, "%d", *(const int *)at);
		break;
	case F_BOOL:
		fputs(*(const bool *)at ? "true" : "false", f);
		break;
	case F_ENUM:
		frayi_json_string(f, fl->choices[*(const int *)at]);
		break;
	case F_HITS:
		fputc('[', f);
		for (int b = 0; b < hits_count(fl, u); b++)
			fprintf(f, "%s%d", b ? ", " : "", ((const int *)at)[b]);
		fputc(']', f);
		break;
	}
}

/* A unit's fields as a JSON object (one line); open: without its
 * closing brace, for more members after. */
void frayi_unit_json_open(FILE *f, const game_ruleset *rules, const table_unit *u)
{
	size_t nf = rules->nfields;
	const unit_field *fl = rules->fields;
	fputc('{', f);
	for (size_t i = 0; i < nf; i++) {
		fprintf(f, "%s\"%s\": ", i ? ", " : "", fl[i].key);
		field_value(f, &fl[i], u);
	}
}

void frayi_unit_json(FILE *f, const game_ruleset *rules, const table_unit *u)
{
	frayi_unit_json_open(f, rules, u);
	fputc('}', f);
}

void frayi_order_json(FILE *f, const table_game *g)
{
	fputs("\"initiative\": ", f);
	frayi_json_string(f, g->initiative);
	fputs(", \"acting\": ", f);
	frayi_json_string(f, g->acting);
	fputs(", ", f);
}

/* A unit for people to read in the game file: one field a line, empty
 * strings left out. */
static void unit_yaml(FILE *f, const game_ruleset *rules, const table_unit *u)
{
	size_t nf = rules->nfields;
	const unit_field *fl = rules->fields;
	for (size_t i = 0; i < nf; i++) {
		if (fl[i].kind == F_STR && !*(const char *)frayi_field_in(&fl[i], u))
			continue;
		fprintf(f, "%s%s: ", i ? "    " : "  - ", fl[i].key);
		field_value(f, &fl[i], u);
		fputc('\n', f);
	}
}

/* A step's JSON on one line: the roll's JSON has newlines only between
 * its tokens (strings escape theirs). */
static void one_line(FILE *f, const char *json)
{
	/* as frayi_node_json writes it back: ", " between items */
	char last = 0;
	for (const char *p = json; *p; p++) {
		if (*p == '\n') {
			while (p[1] == ' ')
				p++;
			if (last == ',')
				fputc(last = ' ', f);
			continue;
		}
		fputc(last = *p, f);
	}
}

static void new_entry(FILE *f, const table_game *g, const char *command, const table_game *before)
{
	fprintf(f, "  - command: ");
	frayi_json_string(f, command);
	/* an action without dice has an empty story and no steps: [] */
	fprintf(f, "\n    turn: %d\n    dice: [%" PRIu64 ", %" PRIu64 "]\n    story:%s\n", before->turn, before->dice,
		g->dice, g->nsteps ? "" : " []");
	for (size_t i = 0; i < g->nsteps; i++)
		text_items(f, g->steps[i].text);
	if (g->notes_len) {
		fputs("    changes:\n", f);
		text_items(f, g->notes);
	}
	if (g->facts_len)
		fprintf(f, "    facts: {%s}\n", g->facts);
	fputs(g->nsteps ? "    steps:\n" : "    steps: []\n", f);
	for (size_t i = 0; i < g->nsteps; i++) {
		fputs("      - ", f);
		one_line(f, g->steps[i].json);
		fputc('\n', f);
	}
	/* what undoes it: the dice and turn before, and each unit it changed
	 * as it was */
	fprintf(f, "    undo: {\"dice\": %" PRIu64 ", \"turn\": %d", before->dice, before->turn);
	/* the game state before (BBB's phase), and the turn's order before
	 * when the game keeps one (Presidio's initiative) */
	if (g->rules->state_write)
		g->rules->state_write(f, before, before->state, false);
	fputs(", ", f);
	if (before->initiative[0] || g->initiative[0])
		frayi_order_json(f, before);
	fputs("\"units\": [", f);
	bool first = true;
	for (size_t i = 0; i < g->nunits; i++) {
		if (memcmp(&g->units[i], &before->units[i], sizeof g->units[i]) == 0)
			continue;
		fputs(first ? "" : ", ", f);
		frayi_unit_json(f, g->rules, &before->units[i]);
		first = false;
	}
	fputs("]}\n", f);
}

static bool is_state_key(const table_game *g, const char *key)
{
	for (size_t i = 0; i < g->rules->nstate_keys; i++)
		if (!strcmp(key, g->rules->state_keys[i]))
			return true;
	return false;
}

/* An old entry's undo record in the form new_entry writes: the dice, the
 * turn as the game counts it, the state as the rule set writes it (BBB:
 * an older fray's record gets its half), the rest as read. Returns how
 * many values more than read it may hold (a state member a pair). */
static size_t old_undo(FILE *f, const table_game *g, const fray_node *undo, int turn, const void *state)
{
	size_t kept = 0;
	fputs("{\"dice\": ", f);
	frayi_node_json(f, fray_map_get(undo, "dice"));
	fprintf(f, ", \"turn\": %d", turn);
	g->rules->state_write(f, g, state, false);
	for (size_t i = 0; i < fray_node_len(undo); i++) {
		const char *key = fray_node_scalar(fray_node_key(undo, i));
		if (is_state_key(g, key))
			kept++;
		if (!strcmp(key, "dice") || !strcmp(key, "turn") || is_state_key(g, key))
			continue;
		fputs(", ", f);
		frayi_json_string(f, key);
		fputs(": ", f);
		frayi_node_json(f, fray_node_value(undo, i));
	}
	fputs("}\n", f);
	return 2 * (g->rules->nstate_keys - kept);
}

/* An old entry back as it was read: each member on a line of its own,
 * lists of text one item a line; its turn and undo record as the game
 * counts turns (frayi_table_log_turn: an older fray's BBB entry in game
 * turns). Returns how many values more than read it may hold. */
static size_t old_entry(FILE *f, const table_game *g, const fray_node *e)
{
	bool counted = g->rules->turn_read && g->rules->state_write;
	_Alignas(max_align_t) unsigned char state[TABLE_GAME_STATE] = {0};
	size_t more = 0;
	for (size_t i = 0; i < fray_node_len(e); i++) {
		const fray_node *v = fray_node_value(e, i);
		const char *key = fray_node_scalar(fray_node_key(e, i));
		fputs(i ? "    " : "  - ", f);
		if (key && *key && strspn(key, "abcdefghijklmnopqrstuvwxyz_") == strlen(key))
			fputs(key, f);
		else
			frayi_json_string(f, key);
		fputs(":", f);
		if (counted && !strcmp(key, "turn")) {
			fprintf(f, " %d\n", frayi_table_log_turn(g, e));
			continue;
		}
		if (counted && !strcmp(key, "undo") && fray_node_kind_of(v) == FRAY_NODE_MAP) {
			const void *st = entry_state(g, e, state);
			fputc(' ', f);
			more += old_undo(f, g, v, g->rules->turn_read(st, frayi_table_entry_turn(v)), st);
			continue;
		}
		/* lists of text and of steps a line an item; [0, 12] stays */
		bool lines = fray_node_kind_of(v) == FRAY_NODE_SEQ && fray_node_len(v) > 0 &&
			     !(fray_node_kind_of(fray_node_item(v, 0)) == FRAY_NODE_SCALAR &&
			       fray_node_plain(fray_node_item(v, 0)));
		if (!lines) {
			fputc(' ', f);
			frayi_node_json(f, v);
			fputc('\n', f);
			continue;
		}
		fputc('\n', f);
		for (size_t k = 0; k < fray_node_len(v); k++) {
			fputs("      - ", f);
			frayi_node_json(f, fray_node_item(v, k));
			fputc('\n', f);
		}
	}
	return more;
}

/* The chit mix in the game file: a key a line, a list (the chits) an
 * item a line, each value as JSON (which YAML reads back the same). */
static void mix_yaml(FILE *f, const fray_node *mix)
{
	fputs("# the chit mix this game plays with, copied from its file at 'table new'\nmix:", f);
	if (fray_node_kind_of(mix) != FRAY_NODE_MAP) {
		fputc(' ', f);
		frayi_node_json(f, mix);
		fputc('\n', f);
		return;
	}
	fputc('\n', f);
	for (size_t i = 0; i < fray_node_len(mix); i++) {
		const fray_node *v = fray_node_value(mix, i);
		const char *key = fray_node_scalar(fray_node_key(mix, i));
		fputs("  ", f);
		if (key && *key && strspn(key, "abcdefghijklmnopqrstuvwxyz_") == strlen(key))
			fputs(key, f);
		else
			frayi_json_string(f, key);
		fputc(':', f);
		if (fray_node_kind_of(v) == FRAY_NODE_SEQ && fray_node_len(v) > 0) {
			fputc('\n', f);
			for (size_t k = 0; k < fray_node_len(v); k++) {
				fputs("    - ", f);
				frayi_node_json(f, fray_node_item(v, k));
				fputc('\n', f);
			}
			continue;
		}
		fputc(' ', f);
		frayi_node_json(f, v);
		fputc('\n', f);
	}
}

/* The values (YAML nodes: scalars, keys, lists, maps) n holds, itself
 * included, as the reader counts them against FRAY_DOC_MAX_NODES. */
static size_t count_nodes(const fray_node *n)
{
	size_t k = 1, len = fray_node_len(n);
	if (fray_node_kind_of(n) == FRAY_NODE_MAP)
		for (size_t i = 0; i < len; i++)
			k += count_nodes(fray_node_key(n, i)) + count_nodes(fray_node_value(n, i));
	else if (fray_node_kind_of(n) == FRAY_NODE_SEQ)
		for (size_t i = 0; i < len; i++)
			k += count_nodes(fray_node_item(n, i));
	return k;
}

/* What fray would write, read back as the game file it is: a file fray
 * writes is one fray reads (what frayi_table_check's limits miss). buf
 * is the new part alone (the forces and the new entry; old_nodes: the
 * values of the old entries kept, which were read when the game was and
 * are written back as they were: not read again, issue 42). FRAY_OK, the
 * game read into *back when back is not NULL; FRAY_ERR_INPUT with what
 * is wrong in why; FRAY_ERR_NOMEM when memory ran out reading it. Read
 * on g's context (the documents a kept game holds are its context's),
 * the reader's message taken off it. */
static int reads_back(const table_game *g, const char *buf, size_t len, size_t old_nodes, char *why, size_t cap,
		      table_game **back_out)
{
	fray_ctx *ctx = g->ctx;
	table_game *back = frayi_game_calloc(ctx, 1, sizeof *back);
	fray_doc *doc = NULL;
	int status = FRAY_ERR_INPUT;
	frayi_game_count_read(len, false);
	if (!back)
		status = FRAY_ERR_NOMEM;
	else if (fray_doc_load_string(ctx, g->path, buf, len, &doc) != FRAY_OK)
		snprintf(why, cap, "%s", fray_ctx_message(ctx));
	else {
		back->ctx = ctx;
		back->path = g->path;
		back->rules = g->rules;
		back->doc = doc;
		read_game(back, doc);
		size_t nodes = fray_doc_error_count(doc) ? 0 : count_nodes(fray_doc_root(doc)) + old_nodes;
		if (fray_doc_error_count(doc))
			snprintf(why, cap, "%s", fray_doc_error_msg(doc, 0));
		else if (nodes > FRAY_DOC_MAX_NODES)
			snprintf(why, cap, "too many values (%zu; the limit is %d)", nodes, FRAY_DOC_MAX_NODES);
		else
			status = FRAY_OK;
	}
	if (fray_ctx_status(ctx) == FRAY_ERR_NOMEM)
		status = FRAY_ERR_NOMEM;
	/* the reader's message is in why: the caller says it its own way */
	fray_ctx_clear(ctx);
	if (status == FRAY_OK && back_out) {
		*back_out = back;
		return FRAY_OK;
	}
	if (back)
		frayi_table_free(back);
	else
		fray_doc_free(doc);
	frayi_game_dealloc(ctx, back);
	return status;
}

int frayi_table_text(table_game *g, const char *command, const table_game *before, size_t keep_log, char **text,
	       size_t *len_out, table_game **back)
{
	*text = NULL;
	*len_out = 0;
	if (back)
		*back = NULL;
	char why[512];
	/* the reader's limits, before anything is written */
	if (!frayi_table_check(g, why, sizeof why))
		return frayi_game_fail(g, FRAY_ERR_INPUT, "%s: this action would leave %s, "
				 "which the game file cannot hold: nothing was written", g->path, why);
	char *buf = NULL, *fresh = NULL;
	size_t len = 0, fresh_len = 0;
	game_out o;
	FILE *f = frayi_out_open(&o, g->ctx);
	if (!f)
		return frayi_game_fail(g, FRAY_ERR_NOMEM, "out of memory");
	fprintf(f, "# A fray game file ('fray help table'): the forces as they stand and the\n"
		   "# log of play. fray writes it whole after every action; 'fray table FILE\n"
		   "# status' shows the forces, 'fray table FILE log' the play.\n");
	fprintf(f, "fray_game: 1\nrules: %s\nseed: %" PRIu64 "\ndice: %" PRIu64 "\nturn: %d\n",
		g->rules->id, g->seed, g->dice, g->turn);
	if (g->initiative[0]) {
		/* the turn's order (Presidio Section 2, Initiative) */
		fputs("initiative: ", f);
		frayi_json_string(f, g->initiative);
		fputs("\nacting: ", f);
		frayi_json_string(f, g->acting);
		fputc('\n', f);
	}
	if (g->rules->state_write)
		g->rules->state_write(f, g, g->state, true);
	if (g->mix)
		mix_yaml(f, g->mix);
	fputs("units:\n", f);
	for (size_t i = 0; i < g->nunits; i++)
		unit_yaml(f, g->rules, &g->units[i]);
	size_t head = o.len, old_nodes = 0;
	size_t old = g->nlog < keep_log ? g->nlog : keep_log;
	fputs(old > 0 || command ? "log:\n" : "log: []\n", f);
	for (size_t i = 0; i < old; i++) {
		old_nodes += old_entry(f, g, g->log[i]);
		old_nodes += count_nodes(g->log[i]);
	}
	size_t entry = o.len;
	if (command)
		new_entry(f, g, command, before);
	int status = frayi_out_close(&o, f, &buf, &len);
	/* what is new, to read back: the forces, then the new entry alone */
	if (status == FRAY_OK && len <= FRAY_GAME_MAX_BYTES && (fresh = frayi_game_alloc(g->ctx, len - (entry - head) + 16))) {
		const char *log = command ? "log:\n" : "log: []\n";
		memcpy(fresh, buf, head);
		fresh_len = head;
		memcpy(fresh + fresh_len, log, strlen(log));
		fresh_len += strlen(log);
		memcpy(fresh + fresh_len, buf + entry, len - entry);
		fresh_len += len - entry;
		fresh[fresh_len] = '\0';
	}
	if (status != FRAY_OK)
		status = frayi_game_fail(g, FRAY_ERR_NOMEM, "out of memory");
	else if (len > FRAY_GAME_MAX_BYTES) /* the game file's one budget (include/fray/game.h) */
		status = (int)frayi_fail_input(g->ctx, FRAY_ERR_LIMIT, "game", "%s would pass a game file's limit, %u KiB, with this "
				   "action (%zu bytes): start another game file (nothing "
				   "was written; undo and everything else still read it)", g->path,
				   FRAY_GAME_MAX_BYTES >> 10, len);
	else if (!fresh)
		status = frayi_game_fail(g, FRAY_ERR_NOMEM, "out of memory");
	else if ((status = reads_back(g, fresh, fresh_len, old_nodes, why, sizeof why, back)) == FRAY_ERR_NOMEM)
		status = frayi_game_fail(g, FRAY_ERR_NOMEM, "out of memory");
	else if (status != FRAY_OK)
		status = frayi_game_fail(g, FRAY_ERR_INPUT, "%s: the file this action would write does not read "
				   "back (%s): nothing was written", g->path, why);
	frayi_game_dealloc(g->ctx, fresh);
	if (status == FRAY_OK) {
		*text = buf;
		*len_out = len;
	} else {
		frayi_game_dealloc(g->ctx, buf);
	}
	return status;
}
