/* An adbg scenario with values changed from the command line and units
 * added or removed by name (scenario_edit.h). The scalar changes are made
 * on the loaded document; a structural change writes the document out
 * again as YAML with the change and reads that, so the scenario reader
 * checks the result as strictly as any file (stacking limits, ruling R2;
 * leaders' stacks; the array, R3). */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "scenario_edit.h"
#include "../common/text.h"

#ifndef FRAY_DATADIR
#define FRAY_DATADIR "/usr/local/share/fray"
#endif

bool scen_edit_parse(char *arg, scen_edit *e)
{
	char *eq = strchr(arg, '=');
	if (!eq || eq == arg || !eq[1])
		return false;
	*eq = '\0';
	e->path = arg;
	e->value = eq + 1;
	return true;
}

const fray_node *scen_find_path(const fray_node *root, const char *path, char *why, size_t cap)
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

/* ---- the CRT beside the scenario, else in the shipped data ---- */

static bool is_file(const char *path)
{
	return access(path, F_OK) == 0;
}

/* The shipped data folders, most local first: beside the running binary
 * (a build tree: build/fray -> ../data; an install: bin/fray ->
 * ../share/fray/data), then the configured install folder. */
static int data_dirs(char dirs[][PATH_MAX], int max)
{
	int n = 0;
	char exe[PATH_MAX];
	ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (len > 0) {
		exe[len] = '\0';
		char *slash = strrchr(exe, '/');
		if (slash) {
			*slash = '\0';
			if (n < max)
				snprintf(dirs[n++], PATH_MAX, "%.*s/../data", PATH_MAX - 16, exe);
			if (n < max)
				snprintf(dirs[n++], PATH_MAX, "%.*s/../share/fray/data", PATH_MAX - 32, exe);
		}
	}
	if (n < max)
		snprintf(dirs[n++], PATH_MAX, "%s/data", FRAY_DATADIR);
	return n;
}

fray_status scen_open(void *ud, fray_ctx *ctx, const char *path, fray_doc **out)
{
	(void)ud;
	if (is_file(path) || strcmp(path, "-") == 0)
		return fray_doc_load_file(ctx, path, out);
	/* the part of the path inside a data folder ("adbg/x.yaml" of
	 * "../../data/adbg/x.yaml"), else the file's name under adbg/ */
	const char *tail = NULL;
	for (const char *p = strstr(path, "data/"); p; p = strstr(p + 1, "data/"))
		if (p == path || p[-1] == '/')
			tail = p + 5;
	char rel[PATH_MAX];
	if (tail) {
		snprintf(rel, sizeof rel, "%s", tail);
	} else {
		const char *base = strrchr(path, '/');
		snprintf(rel, sizeof rel, "adbg/%s", base ? base + 1 : path);
	}
	char dirs[3][PATH_MAX];
	int n = data_dirs(dirs, 3);
	for (int i = 0; i < n; i++) {
		char cand[PATH_MAX + 8];
		if ((size_t)snprintf(cand, sizeof cand, "%s/%s", dirs[i], rel) < sizeof cand && is_file(cand))
			return fray_doc_load_file(ctx, cand, out);
	}
	return fray_doc_load_file(ctx, path, out); /* its own message: not there */
}

/* ---- structural changes: a plan, applied while writing the file out ---- */

enum { MAX_SKIP = 64, MAX_OVER = 64, MAX_DUP = 8 };

typedef struct plan {
	const fray_node *skip[MAX_SKIP]; /* items, or map values whose pair goes */
	int nskip;
	struct {
		const fray_node *n;
		char text[PATH_MAX + 8];
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
 * context; others are written double-quoted (JSON's escapes are YAML's). */
static void put_scalar(FILE *f, const plan *pl, const fray_node *n)
{
	const char *t = override(pl, n);
	bool plain = fray_node_plain(n);
	if (!t)
		t = fray_node_scalar(n) ? fray_node_scalar(n) : "";
	bool safe = plain && *t && t[strlen(t) - 1] != ' ' && strchr("'\"-?:,[]{}#&*!|>%@` ", t[0]) == NULL;
	for (const char *c = t; safe && *c; c++)
		safe = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
		       strchr(" ._/'()+-", *c);
	fputs(safe ? t : cli_jstr(t), f);
}

static bool flat(const fray_node *n)
{
	for (size_t i = 0; i < fray_node_len(n); i++)
		if (fray_node_kind_of(fray_node_kind_of(n) == FRAY_NODE_MAP ? fray_node_value(n, i) :
				      fray_node_item(n, i)) != FRAY_NODE_SCALAR)
			return false;
	return true;
}

static void put_flow(FILE *f, plan *pl, const fray_node *n)
{
	if (fray_node_kind_of(n) == FRAY_NODE_SCALAR) {
		put_scalar(f, pl, n);
		return;
	}
	bool map = fray_node_kind_of(n) == FRAY_NODE_MAP;
	fputc(map ? '{' : '[', f);
	bool any = false;
	for (size_t i = 0; i < fray_node_len(n); i++) {
		const fray_node *v = map ? fray_node_value(n, i) : fray_node_item(n, i);
		if (skipped(pl, v))
			continue;
		fputs(any ? ", " : "", f);
		if (map) {
			put_scalar(f, pl, fray_node_key(n, i));
			fputs(": ", f);
		}
		put_scalar(f, pl, v);
		any = true;
	}
	fputc(map ? '}' : ']', f);
}

static void put_block(FILE *f, plan *pl, const fray_node *n, int indent, bool inline_first);

/* An item of a list: "- " and the item; the copies that follow it. */
static void put_item(FILE *f, plan *pl, const fray_node *item, int indent, bool *first)
{
	if (!*first)
		fprintf(f, "%*s", indent, "");
	*first = false;
	fputs("- ", f);
	if (fray_node_kind_of(item) == FRAY_NODE_SCALAR || flat(item)) {
		put_flow(f, pl, item);
		fputc('\n', f);
	} else {
		put_block(f, pl, item, indent + 2, true);
	}
}

static void put_copies(FILE *f, plan *pl, const fray_node *after, int indent, bool new_stack)
{
	for (int d = 0; d < pl->ndup; d++) {
		if (pl->dup[d].after != after)
			continue;
		pl->copying = true;
		pl->copy_of = d;
		fprintf(f, "%*s- %s", indent, "", new_stack ? "- " : "");
		put_flow(f, pl, pl->dup[d].unit);
		fputc('\n', f);
		pl->copying = false;
	}
}

static void put_block(FILE *f, plan *pl, const fray_node *n, int indent, bool inline_first)
{
	bool first = inline_first;
	if (fray_node_kind_of(n) == FRAY_NODE_SEQ) {
		const fray_node *last = NULL;
		for (size_t i = 0; i < fray_node_len(n); i++) {
			const fray_node *item = fray_node_item(n, i);
			if (skipped(pl, item))
				continue;
			put_item(f, pl, item, indent, &first);
			put_copies(f, pl, item, indent, false);
			last = item;
		}
		(void)last;
		put_copies(f, pl, n, indent, true); /* new stacks, after the side's last */
		return;
	}
	for (size_t i = 0; i < fray_node_len(n); i++) {
		const fray_node *v = fray_node_value(n, i);
		if (skipped(pl, v))
			continue;
		if (!first)
			fprintf(f, "%*s", indent, "");
		first = false;
		put_scalar(f, pl, fray_node_key(n, i));
		fputc(':', f);
		if (fray_node_kind_of(v) == FRAY_NODE_SCALAR || flat(v) || fray_node_len(v) == 0) {
			fputc(' ', f);
			put_flow(f, pl, v);
			fputc('\n', f);
		} else {
			fputc('\n', f);
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

static bool find_named(const fray_node *root, const char *name, found *fd)
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
				if (t && strcmp(t, name) == 0) {
					*fd = (found){side, stacks, stack, unit, (int)k, false};
					return true;
				}
			}
		}
		const fray_node *pl = fray_map_get(side, "primary_leader");
		const char *t = fray_node_scalar(fray_map_get(pl, "name"));
		if (t && strcmp(t, name) == 0) {
			*fd = (found){side, stacks, NULL, pl, -1, true};
			return true;
		}
		const fray_node *leaders = fray_map_get(side, "leaders");
		for (size_t i = 0; i < fray_node_len(leaders); i++) {
			const fray_node *l = fray_node_item(leaders, i);
			t = fray_node_scalar(fray_map_get(l, "name"));
			if (t && strcmp(t, name) == 0) {
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
	char name[128];
	snprintf(name, sizeof name, "%s", value + (add ? 4 : 7));
	bool new_stack = false;
	size_t len = strlen(name);
	if (add && len > 4 && strcmp(name + len - 4, "@new") == 0) {
		name[len - 4] = '\0';
		new_stack = true;
	}
	found fd;
	if (!find_named(root, name, &fd)) {
		snprintf(why, cap, "no unit or leader is named '%s'", name);
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
	if (fd.stack_index < 0 || fray_node_len(fd.stack) > 1) {
		pl->skip[pl->nskip++] = fd.node;  /* a leader, or one unit of several */
		return true;
	}
	/* the only unit of its stack: the stack goes */
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

static bool is_structural(const scen_edit *e)
{
	return strcmp(e->path, SCEN_UNITS_PATH) == 0;
}

/* The edits' point, "PATH=V, PATH=V", for messages. */
static const char *edits_text(const scen_edit *ed, int ned, char *buf, size_t cap)
{
	textbuf t = text_on(buf, cap);
	for (int i = 0; i < ned; i++)
		text_add(&t, "%s%s=%s", i ? ", " : "", ed[i].path, ed[i].value);
	return buf;
}

/* Scalar edits onto doc, then the structural plan; the exit status. */
static int make_plan(const char *cmd, fray_ctx *ctx, fray_doc *doc, const char *option, const scen_edit *ed,
		     int ned, plan *pl, bool *structural)
{
	*structural = false;
	memset(pl, 0, sizeof *pl);
	for (int i = 0; i < ned; i++) {
		if (is_structural(&ed[i]))
			continue;
		char why[256];
		const fray_node *n = scen_find_path(fray_doc_root(doc), ed[i].path, why, sizeof why);
		if (!n)
			return cli_error(cmd, EXIT_BAD_INPUT, "option %s %s: %s: %s", option, ed[i].path,
					 fray_doc_name(doc), why);
		if (fray_doc_set_scalar(doc, n, ed[i].value) != FRAY_OK)
			return cli_fail(cmd, ctx);
	}
	for (int i = 0; i < ned; i++) {
		if (!is_structural(&ed[i]) || strcmp(ed[i].value, "none") == 0)
			continue;
		char why[256];
		if (!plan_change(pl, fray_doc_root(doc), ed[i].value, why, sizeof why))
			return cli_error(cmd, EXIT_BAD_INPUT, "option %s %s=%s: %s: %s", option, ed[i].path,
					 ed[i].value, fray_doc_name(doc), why);
		*structural = true;
	}
	return EXIT_OK;
}

static int report_read(const char *cmd, fray_ctx *ctx, fray_doc *doc, fray_status st, const scen_edit *ed,
		       int ned)
{
	if (st == FRAY_OK)
		return EXIT_OK;
	if (st != FRAY_ERR_INPUT || fray_doc_error_count(doc) == 0)
		return cli_fail(cmd, ctx); /* out of memory is 1, not bad input */
	char point[512];
	for (size_t i = 0; i < fray_doc_error_count(doc); i++) {
		if (ned > 0)
			cli_error(cmd, EXIT_BAD_INPUT, "with %s: %s", edits_text(ed, ned, point, sizeof point),
				  fray_doc_error_msg(doc, i));
		else
			cli_error(cmd, EXIT_BAD_INPUT, "%s", fray_doc_error_msg(doc, i));
	}
	return EXIT_BAD_INPUT;
}

int scen_read_edited(const char *cmd, fray_ctx *ctx, fray_doc *doc, const char *option, const scen_edit *ed,
		     int ned, fray_adbg_scenario **out)
{
	*out = NULL;
	plan *pl = malloc(sizeof *pl);
	if (!pl)
		return cli_error(cmd, EXIT_RUNTIME, "out of memory");
	bool structural;
	int status = make_plan(cmd, ctx, doc, option, ed, ned, pl, &structural);
	if (status == EXIT_OK && !structural) {
		status = report_read(cmd, ctx, doc, fray_adbg_scenario_read_with(ctx, doc, scen_open, NULL, out), ed,
				     ned);
	} else if (status == EXIT_OK) {
		char *text = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&text, &len);
		fray_doc *changed = NULL;
		if (!f) {
			status = cli_error(cmd, EXIT_RUNTIME, "out of memory");
		} else {
			put_block(f, pl, fray_doc_root(doc), 0, true);
			if (fclose(f) != 0)
				status = cli_error(cmd, EXIT_RUNTIME, "out of memory");
			/* named as the file: its CRT is found from the same folder */
			else if (fray_doc_load_string(ctx, fray_doc_name(doc), text, len, &changed) != FRAY_OK)
				status = cli_fail(cmd, ctx);
			else
				status = report_read(cmd, ctx, changed,
						     fray_adbg_scenario_read_with(ctx, changed, scen_open, NULL, out),
						     ed, ned);
		}
		fray_doc_free(changed);
		free(text);
	}
	free(pl);
	return status;
}

int scen_load_edited(const char *cmd, fray_ctx *ctx, const char *path, const scen_edit *ed, int ned,
		     fray_adbg_scenario **out)
{
	*out = NULL;
	fray_doc *doc;
	if (fray_doc_load_file(ctx, path, &doc) != FRAY_OK)
		return cli_fail(cmd, ctx);
	int status = scen_read_edited(cmd, ctx, doc, "--set", ed, ned, out);
	fray_doc_free(doc);
	return status;
}

int scen_write_text(const char *cmd, fray_ctx *ctx, fray_doc *doc, const scen_edit *ed, int ned,
		    const char *header, bool absolute_crt, FILE *out)
{
	plan *pl = malloc(sizeof *pl);
	if (!pl)
		return cli_error(cmd, EXIT_RUNTIME, "out of memory");
	bool structural;
	int status = make_plan(cmd, ctx, doc, "--write", ed, ned, pl, &structural);
	const fray_node *crt = fray_map_get(fray_doc_root(doc), "melee_crt");
	if (status == EXIT_OK && absolute_crt && fray_node_kind_of(crt) == FRAY_NODE_SCALAR && pl->nover < MAX_OVER) {
		/* the CRT as the scenario finds it, named so the new file finds it too */
		const char *rel = fray_node_scalar(crt), *name = fray_doc_name(doc), *slash = strrchr(name, '/');
		char joined[PATH_MAX * 2], real[PATH_MAX];
		if (rel[0] == '/' || !slash)
			snprintf(joined, sizeof joined, "%s", rel);
		else
			snprintf(joined, sizeof joined, "%.*s/%s", (int)(slash - name), name, rel);
		if (realpath(joined, real)) {
			pl->over[pl->nover].n = crt;
			snprintf(pl->over[pl->nover].text, sizeof pl->over[pl->nover].text, "%s", real);
			pl->nover++;
		}
	}
	if (status == EXIT_OK) {
		fputs(header, out);
		put_block(out, pl, fray_doc_root(doc), 0, true);
	}
	free(pl);
	return status;
}

/* FNV-1a over each edit's path and value, NULs included */
uint64_t scen_edits_digest(uint64_t digest, const scen_edit *ed, int ned)
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

bool scen_take_set(cli_args *a, scen_sets *s)
{
	const char *v;
	if (!cli_value(a, "--set", &v))
		return false;
	if (a->status != EXIT_OK)
		return true;
	if (s->n == SCEN_MAX_SETS) {
		a->status = cli_error(a->cmd, EXIT_BAD_INPUT, "at most %d --set options", SCEN_MAX_SETS);
		return true;
	}
	char *text = strdup(v);
	if (!text) {
		a->status = cli_error(a->cmd, EXIT_RUNTIME, "out of memory");
		return true;
	}
	s->text[s->n] = text;
	if (!scen_edit_parse(text, &s->ed[s->n])) {
		a->status = cli_error(a->cmd, EXIT_BAD_INPUT, "option --set expects PATH=VALUE (for example "
				      "--set sides.kentucky.level=3), got '%s'", v);
		free(text);
		return true;
	}
	for (int k = 0; k < s->n; k++)
		if (strcmp(s->ed[k].path, s->ed[s->n].path) == 0 && strcmp(s->ed[k].path, SCEN_UNITS_PATH) != 0) {
			a->status = cli_error(a->cmd, EXIT_BAD_INPUT, "option --set: %s is set twice",
					      s->ed[k].path);
			free(text);
			return true;
		}
	s->n++;
	return true;
}

void scen_sets_free(scen_sets *s)
{
	for (int i = 0; i < s->n; i++)
		free(s->text[i]);
	s->n = 0;
}
