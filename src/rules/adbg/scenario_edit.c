/* An ADBG scenario with values changed and units added or removed by name
 * (include/fray/scenario_edit.h). The scalar changes are made on the
 * loaded document; a structural change writes the document out again as
 * YAML with the change and reads that, so the scenario reader checks the
 * result as strictly as any file (stacking limits, ruling R2; leaders'
 * stacks; the array, R3). The file's layout (sides, stacks, leaders, the
 * array, melee_crt) is the scenario reader's (scenario.c). */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <fray/scenario_edit.h>
#include "../../core/internal.h"
#include "../../common/text.h"

FRAY_API fray_status fray_adbg_edit_parse(fray_ctx *ctx, char *text, fray_adbg_edit *e)
{
	char *eq = strchr(text, '=');
	if (!eq || eq == text || !eq[1])
		return frayi_fail(ctx, FRAY_ERR_INPUT, "option --set expects PATH=VALUE (for example --set "
				 "sides.kentucky.level=3), got '%s'", text);
	*eq = '\0';
	e->path = text;
	e->value = eq + 1;
	return FRAY_OK;
}

/* The node at a dotted path, a single value; NULL with why. */
static const fray_node *find_path(const fray_node *root, const char *path, char *why, size_t cap)
{
	const fray_node *n = root;
	char part[128];
	const char *p = path;
	while (n && *p) {
		size_t len = strcspn(p, ".");
		if (len == 0 || len >= sizeof part) {
			snprintf(why, cap, "an empty or overlong step in '%s'", path);
			return NULL;
		}
		memcpy(part, p, len);
		part[len] = '\0';
		p += len + (p[len] == '.');
		if (fray_node_kind_of(n) == FRAY_NODE_MAP) {
			const fray_node *next = fray_map_get(n, part);
			if (!next) {
				snprintf(why, cap, "no key '%s' in '%s' (at line %d)", part, path, fray_node_line(n));
				return NULL;
			}
			n = next;
		} else if (fray_node_kind_of(n) == FRAY_NODE_SEQ) {
			char *end;
			long i = strtol(part, &end, 10);
			if (*end || i < 1 || (size_t)i > fray_node_len(n)) {
				snprintf(why, cap, "'%s' in '%s': expected an item number from 1 to %zu", part, path,
					 fray_node_len(n));
				return NULL;
			}
			n = fray_node_item(n, (size_t)i - 1);
		} else {
			snprintf(why, cap, "'%s' goes past a single value in '%s'", part, path);
			return NULL;
		}
	}
	if (!n) {
		snprintf(why, cap, "'%s' names nothing", path);
		return NULL;
	}
	if (fray_node_kind_of(n) != FRAY_NODE_SCALAR) {
		snprintf(why, cap, "'%s' is a list or a map, not a single value", path);
		return NULL;
	}
	return n;
}

FRAY_API fray_status fray_adbg_edit_find(fray_ctx *ctx, const fray_node *root, const char *path,
					 const fray_node **out)
{
	char why[256];
	if (!(*out = find_path(root, path, why, sizeof why)))
		return frayi_fail(ctx, FRAY_ERR_INPUT, "%s", why);
	return FRAY_OK;
}

/* ---- the new file's text, grown through the context ---- */

typedef struct textout {
	fray_ctx *ctx;
	char *buf;
	size_t len, cap;
	bool nomem;
} textout;

static void put_bytes(textout *o, const char *s, size_t n)
{
	if (o->nomem)
		return;
	if (o->len + n + 1 > o->cap) {
		size_t cap = frayi_grow(o->cap, o->len + n + 1, 1);
		char *buf = cap ? frayi_realloc(o->ctx, o->buf, cap) : NULL;
		if (!buf) {
			o->nomem = true;
			return;
		}
		o->buf = buf;
		o->cap = cap;
	}
	memcpy(o->buf + o->len, s, n);
	o->len += n;
	o->buf[o->len] = '\0';
}

static void put(textout *o, const char *s)
{
	put_bytes(o, s, strlen(s));
}

static void putf(textout *o, const char *fmt, ...) FRAY_PRINTF(2, 3);
static void putf(textout *o, const char *fmt, ...)
{
	char small[256];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(small, sizeof small, fmt, ap);
	va_end(ap);
	if (n >= 0 && (size_t)n < sizeof small)
		put_bytes(o, small, (size_t)n);
	else
		o->nomem = true; /* every caller's text is short */
}

/* s as a JSON string (YAML reads JSON's escapes alike) */
static void put_quoted(textout *o, const char *s)
{
	char small[1024];
	size_t need = fray_json_string(s, small, sizeof small);
	if (need < sizeof small) {
		put_bytes(o, small, need);
		return;
	}
	char *big = frayi_alloc(o->ctx, need + 1);
	if (!big) {
		o->nomem = true;
		return;
	}
	fray_json_string(s, big, need + 1);
	put_bytes(o, big, need);
	frayi_dealloc(o->ctx, big);
}

/* ---- structural changes: a plan, applied while writing the file out ---- */

enum { MAX_SKIP = 64, MAX_OVER = 64, MAX_DUP = 8, OVER_TEXT = 4104 };

typedef struct plan {
	const fray_node *skip[MAX_SKIP]; /* items, or map values whose pair goes */
	int nskip;
	struct {
		const fray_node *n;
		char text[OVER_TEXT];
	} over[MAX_OVER];                /* scalars written otherwise */
	int nover;
	struct {
		const fray_node *unit, *after; /* the unit; the item it follows */
		char name[96];
	} dup[MAX_DUP];                  /* copies of units */
	int ndup;
	bool copying;                    /* writing a copy: its name differs */
	int copy_of;
} plan;

static bool skipped(const plan *pl, const fray_node *n)
{
	for (int i = 0; i < pl->nskip; i++)
		if (pl->skip[i] == n)
			return true;
	return false;
}

static const char *override(const plan *pl, const fray_node *n)
{
	if (pl->copying && n == fray_map_get(pl->dup[pl->copy_of].unit, "name"))
		return pl->dup[pl->copy_of].name;
	for (int i = 0; i < pl->nover; i++)
		if (pl->over[i].n == n)
			return pl->over[i].text;
	return NULL;
}

/* A plain scalar stays plain when YAML reads it back the same in any
 * context; others are written double-quoted. */
static void put_scalar(textout *f, const plan *pl, const fray_node *n)
{
	const char *t = override(pl, n);
	bool plain = fray_node_plain(n);
	if (!t)
		t = fray_node_scalar(n) ? fray_node_scalar(n) : "";
	bool safe = plain && *t && t[strlen(t) - 1] != ' ' && strchr("'\"-?:,[]{}#&*!|>%@` ", t[0]) == NULL;
	for (const char *c = t; safe && *c; c++)
		safe = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
		       strchr(" ._/'()+-", *c);
	if (safe)
		put(f, t);
	else
		put_quoted(f, t);
}

static bool flat(const fray_node *n)
{
	for (size_t i = 0; i < fray_node_len(n); i++)
		if (fray_node_kind_of(fray_node_kind_of(n) == FRAY_NODE_MAP ? fray_node_value(n, i) :
				      fray_node_item(n, i)) != FRAY_NODE_SCALAR)
			return false;
	return true;
}

/* A list or map with nothing left to write (empty, or every item removed:
 * a side's only other leader): written "[]" or "{}", never as nothing. */
static bool none_left(const plan *pl, const fray_node *n)
{
	for (size_t i = 0; i < fray_node_len(n); i++)
		if (!skipped(pl, fray_node_kind_of(n) == FRAY_NODE_MAP ? fray_node_value(n, i) : fray_node_item(n, i)))
			return false;
	return true;
}

static void put_flow(textout *f, plan *pl, const fray_node *n)
{
	if (fray_node_kind_of(n) == FRAY_NODE_SCALAR) {
		put_scalar(f, pl, n);
		return;
	}
	bool map = fray_node_kind_of(n) == FRAY_NODE_MAP;
	put(f, map ? "{" : "[");
	bool any = false;
	for (size_t i = 0; i < fray_node_len(n); i++) {
		const fray_node *v = map ? fray_node_value(n, i) : fray_node_item(n, i);
		if (skipped(pl, v))
			continue;
		put(f, any ? ", " : "");
		if (map) {
			put_scalar(f, pl, fray_node_key(n, i));
			put(f, ": ");
		}
		put_scalar(f, pl, v);
		any = true;
	}
	put(f, map ? "}" : "]");
}

static void put_indent(textout *f, int indent)
{
	putf(f, "%*s", indent, "");
}

static void put_block(textout *f, plan *pl, const fray_node *n, int indent, bool inline_first);

/* An item of a list: "- " and the item. */
static void put_item(textout *f, plan *pl, const fray_node *item, int indent, bool *first)
{
	if (!*first)
		put_indent(f, indent);
	*first = false;
	put(f, "- ");
	if (fray_node_kind_of(item) == FRAY_NODE_SCALAR || flat(item)) {
		put_flow(f, pl, item);
		put(f, "\n");
	} else {
		put_block(f, pl, item, indent + 2, true);
	}
}

/* The copies that follow an item (or, new stacks, a side's stacks). */
static void put_copies(textout *f, plan *pl, const fray_node *after, int indent, bool new_stack)
{
	for (int d = 0; d < pl->ndup; d++) {
		if (pl->dup[d].after != after)
			continue;
		pl->copying = true;
		pl->copy_of = d;
		put_indent(f, indent);
		put(f, new_stack ? "- - " : "- ");
		put_flow(f, pl, pl->dup[d].unit);
		put(f, "\n");
		pl->copying = false;
	}
}

static void put_block(textout *f, plan *pl, const fray_node *n, int indent, bool inline_first)
{
	bool first = inline_first;
	if (fray_node_kind_of(n) == FRAY_NODE_SEQ) {
		for (size_t i = 0; i < fray_node_len(n); i++) {
			const fray_node *item = fray_node_item(n, i);
			if (skipped(pl, item))
				continue;
			put_item(f, pl, item, indent, &first);
			put_copies(f, pl, item, indent, false);
		}
		put_copies(f, pl, n, indent, true); /* new stacks, after the side's last */
		return;
	}
	for (size_t i = 0; i < fray_node_len(n); i++) {
		const fray_node *v = fray_node_value(n, i);
		if (skipped(pl, v))
			continue;
		if (!first)
			put_indent(f, indent);
		first = false;
		put_scalar(f, pl, fray_node_key(n, i));
		put(f, ":");
		if (fray_node_kind_of(v) == FRAY_NODE_SCALAR || flat(v) || none_left(pl, v)) {
			put(f, " ");
			put_flow(f, pl, v);
			put(f, "\n");
		} else {
			put(f, "\n");
			put_block(f, pl, v, indent + 2, false);
		}
	}
}

/* Where a unit or leader named name is: side map, stack index, the node. */
typedef struct found {
	const fray_node *side, *stacks, *stack, *node;
	int stack_index;   /* 0-based; -1 for a leader */
	bool primary;
} found;

/* t is name whole: its len bytes, no more, no fewer */
static bool same_name(const char *t, const char *name, size_t len)
{
	return t && strlen(t) == len && memcmp(t, name, len) == 0;
}

/* The unit or leader whose name is the len bytes at name, compared whole
 * (a copy into a buffer once cut a long name, which then matched another
 * that began the same). */
static bool find_named(const fray_node *root, const char *name, size_t len, found *fd)
{
	const fray_node *sides = fray_map_get(root, "sides");
	for (size_t s = 0; s < fray_node_len(sides); s++) {
		const fray_node *side = fray_node_value(sides, s);
		const fray_node *stacks = fray_map_get(side, "stacks");
		for (size_t k = 0; k < fray_node_len(stacks); k++) {
			const fray_node *stack = fray_node_item(stacks, k);
			for (size_t u = 0; u < fray_node_len(stack); u++) {
				const fray_node *unit = fray_node_item(stack, u);
				const char *t = fray_node_scalar(fray_map_get(unit, "name"));
				if (same_name(t, name, len)) {
					*fd = (found){side, stacks, stack, unit, (int)k, false};
					return true;
				}
			}
		}
		const fray_node *pl = fray_map_get(side, "primary_leader");
		const char *t = fray_node_scalar(fray_map_get(pl, "name"));
		if (same_name(t, name, len)) {
			*fd = (found){side, stacks, NULL, pl, -1, true};
			return true;
		}
		const fray_node *leaders = fray_map_get(side, "leaders");
		for (size_t i = 0; i < fray_node_len(leaders); i++) {
			const fray_node *l = fray_node_item(leaders, i);
			t = fray_node_scalar(fray_map_get(l, "name"));
			if (same_name(t, name, len)) {
				*fd = (found){side, stacks, leaders, l, -1, false};
				return true;
			}
		}
	}
	return false;
}

/* A stack removed: the side's leaders that named later stacks name them by
 * their new numbers; a leader of the removed stack is left with no stack. */
static bool renumber_leaders(plan *pl, const fray_node *side, int removed, char *why, size_t cap)
{
	const fray_node *leaders = fray_map_get(side, "leaders");
	for (size_t i = 0; i <= fray_node_len(leaders); i++) {
		const fray_node *l = i == 0 ? fray_map_get(side, "primary_leader") : fray_node_item(leaders, i - 1);
		const fray_node *st = fray_map_get(l, "stack");
		const char *t = fray_node_scalar(st);
		if (!t)
			continue;
		const char *cur = override(pl, st);
		long k = strtol(cur ? cur : t, NULL, 10);
		if (k == removed + 1) {
			if (pl->nskip == MAX_SKIP)
				goto full;
			pl->skip[pl->nskip++] = st;
		} else if (k > removed + 1) {
			int j = 0;
			while (j < pl->nover && pl->over[j].n != st)
				j++;
			if (j == MAX_OVER)
				goto full;
			pl->over[j].n = st;
			snprintf(pl->over[j].text, sizeof pl->over[j].text, "%ld", k - 1);
			if (j == pl->nover)
				pl->nover++;
		}
	}
	return true;
full:
	snprintf(why, cap, "too many changes at once");
	return false;
}

static bool plan_change(plan *pl, const fray_node *root, const char *value, char *why, size_t cap)
{
	if (strcmp(value, "none") == 0)
		return true;
	bool add = strncmp(value, "add:", 4) == 0, remove = strncmp(value, "remove:", 7) == 0;
	if (!add && !remove) {
		snprintf(why, cap, "expected none, remove:NAME, add:NAME or add:NAME@new, got '%s'", value);
		return false;
	}
	const char *given = value + (add ? 4 : 7);
	size_t len = strlen(given);
	bool new_stack = add && len > 4 && strcmp(given + len - 4, "@new") == 0;
	if (new_stack)
		len -= 4;
	found fd;
	if (!find_named(root, given, len, &fd)) {
		snprintf(why, cap, "no unit or leader is named '%.*s'", (int)(len < 200 ? len : 200), given);
		return false;
	}
	/* a name found is a node's whole scalar: the messages below quote it */
	const char *name = fray_node_scalar(fray_map_get(fd.node, "name"));
	if (skipped(pl, fd.node) || (fd.stack_index >= 0 && skipped(pl, fd.stack))) {
		/* a second removal would take what is left of its stack */
		snprintf(why, cap, "'%s' is removed already", name);
		return false;
	}
	bool has_array = fray_map_get(root, "array") != NULL;
	if (add) {
		if (fd.stack_index < 0) {
			snprintf(why, cap, "'%s' is a leader: add copies units", name);
			return false;
		}
		if (new_stack && has_array) {
			snprintf(why, cap, "a new stack needs a place in the scenario's array: add it in the file");
			return false;
		}
		if (pl->ndup == MAX_DUP) {
			snprintf(why, cap, "at most %d units added", MAX_DUP);
			return false;
		}
		pl->dup[pl->ndup].unit = fd.node;
		pl->dup[pl->ndup].after = new_stack ? fd.stacks : fd.node;
		snprintf(pl->dup[pl->ndup].name, sizeof pl->dup[pl->ndup].name, "%.80s (%d)", name, pl->ndup + 2);
		pl->ndup++;
		return true;
	}
	if (fd.primary) {
		snprintf(why, cap, "'%s' is %s primary leader, which every side has (give it another with "
			 "--set)", name, fray_node_scalar(fray_map_get(fd.side, "name")) ? "a side's" : "the");
		return false;
	}
	if (pl->nskip + 1 >= MAX_SKIP) {
		snprintf(why, cap, "too many changes at once");
		return false;
	}
	size_t units_left = 0; /* in its stack, after earlier removals */
	for (size_t u = 0; fd.stack_index >= 0 && u < fray_node_len(fd.stack); u++)
		units_left += !skipped(pl, fray_node_item(fd.stack, u));
	if (fd.stack_index < 0 || units_left > 1) {
		pl->skip[pl->nskip++] = fd.node;  /* a leader, or one unit of several */
		return true;
	}
	/* the only unit left in its stack: the stack goes (an emptied stack
	 * was written as an item with nothing in it) */
	if (has_array) {
		snprintf(why, cap, "removing '%s' removes its stack, which the scenario's array places: "
			 "change the file", name);
		return false;
	}
	size_t left = 0;
	for (size_t k = 0; k < fray_node_len(fd.stacks); k++)
		left += !skipped(pl, fray_node_item(fd.stacks, k));
	if (left <= 1) {
		snprintf(why, cap, "'%s' is its side's last unit", name);
		return false;
	}
	pl->skip[pl->nskip++] = fd.stack;
	/* the stack's number now: the stacks before it not removed */
	int now = 0;
	for (int k = 0; k < fd.stack_index; k++)
		now += !skipped(pl, fray_node_item(fd.stacks, (size_t)k));
	return renumber_leaders(pl, fd.side, now, why, cap);
}

static bool is_structural(const fray_adbg_edit *e)
{
	return strcmp(e->path, FRAY_ADBG_EDIT_UNITS) == 0;
}

/* Scalar edits onto doc, then the structural plan. */
static fray_status make_plan(fray_ctx *ctx, fray_doc *doc, const char *option, const fray_adbg_edit *ed, int ned,
			     plan *pl, bool *structural)
{
	*structural = false;
	memset(pl, 0, sizeof *pl);
	for (int i = 0; i < ned; i++) {
		if (is_structural(&ed[i]))
			continue;
		char why[256];
		const fray_node *n = find_path(fray_doc_root(doc), ed[i].path, why, sizeof why);
		if (!n)
			return frayi_fail(ctx, FRAY_ERR_INPUT, "option %s %s: %s: %s", option, ed[i].path,
					 fray_doc_name(doc), why);
		if (fray_doc_set_scalar(doc, n, ed[i].value) != FRAY_OK)
			return fray_ctx_status(ctx) != FRAY_OK ? fray_ctx_status(ctx) : frayi_nomem(ctx);
	}
	for (int i = 0; i < ned; i++) {
		if (!is_structural(&ed[i]) || strcmp(ed[i].value, "none") == 0)
			continue;
		char why[256];
		if (!plan_change(pl, fray_doc_root(doc), ed[i].value, why, sizeof why))
			return frayi_fail(ctx, FRAY_ERR_INPUT, "option %s %s=%s: %s: %s", option, ed[i].path,
					 ed[i].value, fray_doc_name(doc), why);
		*structural = true;
	}
	return FRAY_OK;
}

/* A scenario that did not read: each problem told, with the edits. */
static fray_status tell_problems(fray_doc *doc, fray_status st, const fray_adbg_edit *ed, int ned,
				 const fray_adbg_edit_read *how)
{
	if (st != FRAY_ERR_INPUT || !how || !how->problem)
		return st;
	char point[512], line[FRAY_MSG_MAX + 600];
	textbuf p = text_on(point, sizeof point);
	for (int i = 0; i < ned; i++)
		text_add(&p, "%s%s=%s", i ? ", " : "", ed[i].path, ed[i].value);
	for (size_t i = 0; i < fray_doc_error_count(doc); i++) {
		if (ned > 0)
			snprintf(line, sizeof line, "with %s: %s", point, fray_doc_error_msg(doc, i));
		else
			snprintf(line, sizeof line, "%s", fray_doc_error_msg(doc, i));
		how->problem(how->problem_ud, line);
	}
	return st;
}

FRAY_API fray_status fray_adbg_scenario_read_edited(fray_ctx *ctx, fray_doc *doc, const fray_adbg_edit *ed,
						    int ned, const fray_adbg_edit_read *how,
						    fray_adbg_scenario **out)
{
	*out = NULL;
	fray_doc_open_fn open = how ? how->open : NULL;
	void *open_ud = how ? how->open_ud : NULL;
	plan *pl = frayi_alloc(ctx, sizeof *pl);
	if (!pl)
		return frayi_nomem(ctx);
	bool structural;
	fray_status st = make_plan(ctx, doc, how && how->option ? how->option : "--set", ed, ned, pl, &structural);
	if (st == FRAY_OK && !structural) {
		st = tell_problems(doc, fray_adbg_scenario_read_with(ctx, doc, open, open_ud, out), ed, ned, how);
	} else if (st == FRAY_OK) {
		textout text = {.ctx = ctx};
		put_block(&text, pl, fray_doc_root(doc), 0, true);
		fray_doc *changed = NULL;
		if (text.nomem)
			st = frayi_nomem(ctx);
		/* named as the file: its CRT is found from the same folder */
		else if ((st = fray_doc_load_string(ctx, fray_doc_name(doc), text.buf, text.len, &changed)) == FRAY_OK)
			st = tell_problems(changed, fray_adbg_scenario_read_with(ctx, changed, open, open_ud, out), ed,
					   ned, how);
		fray_doc_free(changed);
		if (text.buf)
			frayi_dealloc(ctx, text.buf);
	}
	frayi_dealloc(ctx, pl);
	return st;
}

FRAY_API fray_status fray_adbg_scenario_write_edited(fray_ctx *ctx, fray_doc *doc, const fray_adbg_edit *ed,
						     int ned, const char *header, const char *crt, char **text,
						     size_t *len)
{
	*text = NULL;
	*len = 0;
	plan *pl = frayi_alloc(ctx, sizeof *pl);
	if (!pl)
		return frayi_nomem(ctx);
	bool structural;
	fray_status st = make_plan(ctx, doc, "--write", ed, ned, pl, &structural);
	const fray_node *crt_node = fray_map_get(fray_doc_root(doc), "melee_crt");
	if (st == FRAY_OK && crt && fray_node_kind_of(crt_node) == FRAY_NODE_SCALAR && pl->nover < MAX_OVER &&
	    strlen(crt) < OVER_TEXT) {
		pl->over[pl->nover].n = crt_node;
		snprintf(pl->over[pl->nover].text, sizeof pl->over[pl->nover].text, "%s", crt);
		pl->nover++;
	}
	textout o = {.ctx = ctx};
	if (st == FRAY_OK) {
		put_bytes(&o, "", 0); /* a text, even an empty one */
		put(&o, header ? header : "");
		put_block(&o, pl, fray_doc_root(doc), 0, true);
		if (o.nomem)
			st = frayi_nomem(ctx);
	}
	if (st == FRAY_OK) {
		/* the caller's to free(): copied when the context allocates otherwise */
		char *copy = frayi_ctx_mallocs(ctx) ? o.buf : malloc(o.len + 1);
		if (!copy) {
			st = frayi_nomem(ctx);
		} else {
			if (copy != o.buf)
				memcpy(copy, o.buf, o.len + 1);
			else
				o.buf = NULL;
			*text = copy;
			*len = o.len;
		}
	}
	if (o.buf)
		frayi_dealloc(ctx, o.buf);
	frayi_dealloc(ctx, pl);
	return st;
}

FRAY_API uint64_t fray_adbg_edits_digest(uint64_t digest, const fray_adbg_edit *ed, int ned)
{
	for (int i = 0; i < ned; i++)
		for (int part = 0; part < 2; part++)
			for (const char *c = part ? ed[i].value : ed[i].path;; c++) {
				digest = (digest ^ (unsigned char)*c) * 0x100000001b3ull;
				if (!*c)
					break;
			}
	return digest;
}
