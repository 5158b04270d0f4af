/* Data files: YAML/JSON parsed by libfyaml's event parser into a small tree
 * with positions, and the checking helpers that collect every problem as
 * "file:line:col: message". */
#include <errno.h>
#include <fcntl.h>
#include <libfyaml.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "internal.h"
#include "../common/text.h"
#include "names.h"

struct fray_node {
	fray_node_kind kind;
	int line, col;
	bool plain;
	char *text;          /* scalar, NUL-terminated */
	size_t n, cap;       /* seq: items; map: pairs (items holds 2 * n) */
	fray_node **items;
};

struct fray_doc {
	fray_ctx *ctx;
	char *name;
	fray_node *root;
	fray_node **all;     /* every node, for freeing */
	size_t nall, capall;
	char *errors[FRAY_DOC_MAX_ERRORS];
	size_t nerrors;
	bool more_errors;
	bool nomem;
	uint64_t digest;     /* FNV-1a of the bytes read */
};

/* ---- building ---- */

static fray_node *new_node(fray_doc *doc, fray_node_kind kind, int line,
			   int col)
{
	if (doc->nall == doc->capall) {
		size_t cap = frayi_grow(doc->capall, doc->nall + 1, sizeof(fray_node *));
		fray_node **all = cap ? frayi_realloc(doc->ctx, doc->all, cap * sizeof *all) : NULL;
		if (!all)
			return NULL;
		doc->all = all;
		doc->capall = cap;
	}
	fray_node *n = frayi_calloc(doc->ctx, 1, sizeof *n);
	if (!n)
		return NULL;
	n->kind = kind;
	n->line = line;
	n->col = col;
	doc->all[doc->nall++] = n;
	return n;
}

/* True when the next node added to map is a key (no key waits for its
 * value). Slots past the pairs are kept zeroed. */
static bool expecting_key(const fray_node *map)
{
	return 2 * map->n >= map->cap || !map->items[2 * map->n];
}

static bool append(fray_doc *doc, fray_node *parent, fray_node *child)
{
	/* a mapping keeps key, value pairs: room for the pair being filled */
	size_t slots = parent->kind == FRAY_NODE_MAP ? parent->n * 2 + 2 : parent->n + 1;
	if (slots > parent->cap) {
		size_t cap = frayi_grow(parent->cap, slots, sizeof(fray_node *));
		fray_node **items = cap ? frayi_realloc(doc->ctx, parent->items, cap * sizeof *items) : NULL;
		if (!items)
			return false;
		memset(items + parent->cap, 0, (cap - parent->cap) * sizeof *items);
		parent->items = items;
		parent->cap = cap;
	}
	if (parent->kind == FRAY_NODE_SEQ) {
		parent->items[parent->n++] = child;
	} else if (expecting_key(parent)) {
		parent->items[2 * parent->n] = child; /* a key, waiting for its value */
	} else {
		parent->items[2 * parent->n + 1] = child;
		parent->n++;
	}
	return true;
}

static void add_error(fray_doc *doc, int line, int col, const char *msg)
{
	if (doc->nerrors == FRAY_DOC_MAX_ERRORS) {
		doc->more_errors = true;
		return;
	}
	/* room for a field's accepted values (Presidio Section 10's weapons:
	 * 900 bytes), each error still a line of bounded length */
	char buf[FRAY_MSG_MAX];
	if (line > 0)
		snprintf(buf, sizeof buf, "%.200s:%d:%d: %.1600s", doc->name, line, col, msg);
	else
		snprintf(buf, sizeof buf, "%.200s: %.1600s", doc->name, msg);
	char *e = frayi_strdup(doc->ctx, buf);
	if (!e) {
		doc->nomem = true;
		return;
	}
	doc->errors[doc->nerrors++] = e;
}

static int cmp_key(const void *a, const void *b)
{
	const fray_node *ka = *(fray_node *const *)a, *kb = *(fray_node *const *)b;
	int c = strcmp(ka->text, kb->text);
	if (c)
		return c;
	return ka->line != kb->line ? ka->line - kb->line : ka->col - kb->col;
}

/* Duplicate keys are errors (a hand-edited file that says `cf:` twice
 * means one of them is a mistake). Sorted, so large maps stay fast. */
static bool check_duplicates(fray_doc *doc, const fray_node *map)
{
	if (map->n < 2)
		return true;
	fray_node **keys = frayi_calloc(doc->ctx, map->n, sizeof *keys);
	if (!keys)
		return false;
	for (size_t i = 0; i < map->n; i++)
		keys[i] = map->items[2 * i];
	qsort(keys, map->n, sizeof *keys, cmp_key);
	for (size_t i = 1; i < map->n; i++)
		if (strcmp(keys[i - 1]->text, keys[i]->text) == 0) {
			char msg[FRAY_MSG_MAX];
			snprintf(msg, sizeof msg,
				 "duplicate key '%.100s' (first at line %d)",
				 keys[i]->text, keys[i - 1]->line);
			add_error(doc, keys[i]->line, keys[i]->col, msg);
		}
	frayi_dealloc(doc->ctx, keys);
	return true;
}

static fray_status syntax_error(fray_doc *doc, struct fy_diag *diag)
{
	void *it = NULL;
	struct fy_diag_error *e = fy_diag_errors_iterate(diag, &it);
	if (e)
		add_error(doc, e->line, e->column, e->msg);
	else
		add_error(doc, 0, 0, "not valid YAML");
	return FRAY_ERR_INPUT;
}

static void diag_discard(struct fy_diag *diag, void *user, const char *buf,
			 size_t len)
{
	(void)diag, (void)user, (void)buf, (void)len;
}

/* A single-quoted scalar's value from its source slice (quotes excluded):
 * '' is a quote; a line break with the blanks around it folds to a space,
 * n > 1 breaks to n - 1 newlines (YAML 1.2, 7.3.2). */
static char *single_quoted(fray_ctx *ctx, const char *src, size_t len)
{
	char *out = frayi_alloc(ctx, len + 1);
	if (!out)
		return NULL;
	size_t o = 0;
	for (size_t i = 0; i < len;) {
		if (src[i] == '\'' && i + 1 < len && src[i + 1] == '\'') {
			out[o++] = '\'';
			i += 2;
			continue;
		}
		if (src[i] == ' ' || src[i] == '\t' || src[i] == '\n' || src[i] == '\r') {
			size_t j = i, breaks = 0;
			while (j < len && (src[j] == ' ' || src[j] == '\t' ||
					   src[j] == '\n' || src[j] == '\r'))
				breaks += src[j++] == '\n';
			if (breaks == 0) {
				memcpy(out + o, src + i, j - i);
				o += j - i;
			} else if (breaks == 1) {
				out[o++] = ' ';
			} else {
				for (size_t b = 1; b < breaks; b++)
					out[o++] = '\n';
			}
			i = j;
			continue;
		}
		out[o++] = src[i++];
	}
	out[o] = '\0';
	return out;
}

/* Copies a scalar's text into n. libfyaml 0.7.12's fy_token_get_text fails
 * and leaks on single-quoted scalars with five or more '' escapes, so
 * those are decoded here from the source. */
static bool scalar_text(fray_doc *doc, fray_node *n, struct fy_token *tok,
			const char *src)
{
	enum fy_scalar_style style = fy_token_scalar_style(tok);
	n->plain = style == FYSS_PLAIN;
	/* libfyaml marks a quoted scalar's text; point at its opening quote */
	if ((style == FYSS_SINGLE_QUOTED || style == FYSS_DOUBLE_QUOTED) && n->col > 1)
		n->col--;
	if (style == FYSS_SINGLE_QUOTED) {
		const struct fy_mark *a = fy_token_start_mark(tok);
		const struct fy_mark *b = fy_token_end_mark(tok);
		size_t from = a ? a->input_pos : 0, to = b ? b->input_pos : from;
		n->text = single_quoted(doc->ctx, src + from, to - from);
		return n->text != NULL;
	}
	size_t tl = 0;
	const char *t = fy_token_get_text(tok, &tl);
	/* libfyaml 0.7.12 gives an empty block scalar at the end of the text
	 * ("a: |" and a line break, the last line) as one NUL byte: it is
	 * empty, not a NUL the writer put there */
	if ((style == FYSS_LITERAL || style == FYSS_FOLDED) && t && tl == 1 && !t[0])
		tl = 0;
	n->text = frayi_alloc(doc->ctx, tl + 1);
	if (!n->text)
		return false;
	if (t && tl)
		memcpy(n->text, t, tl);
	n->text[t ? tl : 0] = '\0';
	/* an escaped NUL would end the text early: "adbg.fire\u0000junk"
	 * read as adbg.fire, the rest unseen (raw NUL bytes are refused
	 * before parsing; a single-quoted scalar has no escapes) */
	if (t && memchr(t, '\0', tl))
		add_error(doc, n->line, n->col, "a NUL character in a string (\\u0000, \\x00 or \\0): "
			  "expected text without NUL");
	return true;
}

/* Reads the events of text into doc's tree. */
static fray_status build(fray_doc *doc, const char *text, size_t len)
{
	struct fy_diag_cfg dcfg;
	fy_diag_cfg_default(&dcfg);
	dcfg.fp = NULL;
	dcfg.output_fn = diag_discard;
	dcfg.colorize = false;
	struct fy_diag *diag = fy_diag_create(&dcfg);
	if (!diag)
		return FRAY_ERR_NOMEM;
	fy_diag_set_collect_errors(diag, true);
	struct fy_parse_cfg cfg = {.flags = FYPCF_QUIET | FYPCF_COLLECT_DIAG,
				   .diag = diag};
	struct fy_parser *fyp = fy_parser_create(&cfg);
	if (!fyp) {
		fy_diag_destroy(diag);
		return FRAY_ERR_NOMEM;
	}
	fray_status st = FRAY_OK;
	fray_node *stack[FRAY_DOC_MAX_DEPTH + 1];
	size_t depth = 0, documents = 0;
	if (fy_parser_set_string(fyp, text, len) != 0) {
		st = FRAY_ERR_NOMEM;
		goto done;
	}
	struct fy_event *ev;
	while (st == FRAY_OK && (ev = fy_parser_parse(fyp)) != NULL) {
		const struct fy_mark *m = fy_event_start_mark(ev);
		int line = m ? m->line + 1 : 0, col = m ? m->column + 1 : 0;
		fray_node *n = NULL;
		switch (ev->type) {
		case FYET_DOCUMENT_START:
			if (++documents > 1) {
				add_error(doc, line, col,
					  "expected one document, found a second");
				st = FRAY_ERR_INPUT;
			}
			break;
		case FYET_ALIAS:
			/* libfyaml marks the alias name, one past its '*' */
			add_error(doc, line, col > 1 ? col - 1 : col,
				  "aliases (*name) are not supported");
			st = FRAY_ERR_INPUT;
			break;
		case FYET_SCALAR:
		case FYET_MAPPING_START:
		case FYET_SEQUENCE_START: {
			if (doc->nall >= FRAY_DOC_MAX_NODES) {
				add_error(doc, line, col, "too many values (the limit is 200000)");
				st = FRAY_ERR_INPUT;
				break;
			}
			fray_node_kind k = ev->type == FYET_SCALAR ? FRAY_NODE_SCALAR
					 : ev->type == FYET_MAPPING_START ? FRAY_NODE_MAP
					 : FRAY_NODE_SEQ;
			n = new_node(doc, k, line, col);
			if (!n) {
				st = FRAY_ERR_NOMEM;
				break;
			}
			if (k == FRAY_NODE_SCALAR) {
				if (!scalar_text(doc, n, ev->scalar.value, text)) {
					st = FRAY_ERR_NOMEM;
					break;
				}
			}
			fray_node *parent = depth ? stack[depth - 1] : NULL;
			if (parent && parent->kind == FRAY_NODE_MAP &&
			    expecting_key(parent) &&
			    k != FRAY_NODE_SCALAR) {
				add_error(doc, line, col, "expected a plain key, found a complex one");
				st = FRAY_ERR_INPUT;
				break;
			}
			if (!parent)
				doc->root = n;
			else if (!append(doc, parent, n)) {
				st = FRAY_ERR_NOMEM;
				break;
			}
			if (k != FRAY_NODE_SCALAR) {
				if (depth == FRAY_DOC_MAX_DEPTH) {
					add_error(doc, line, col, "nested too deeply (the limit is 64 levels)");
					st = FRAY_ERR_INPUT;
					break;
				}
				stack[depth++] = n;
			}
			break;
		}
		case FYET_MAPPING_END:
			if (depth && !check_duplicates(doc, stack[depth - 1]))
				st = FRAY_ERR_NOMEM;
			/* fall through */
		case FYET_SEQUENCE_END:
			if (depth)
				depth--;
			break;
		default:
			break;
		}
		fy_parser_event_free(fyp, ev);
	}
	if (st == FRAY_OK && fy_parser_get_stream_error(fyp))
		st = syntax_error(doc, diag);
done:
	fy_parser_destroy(fyp);
	fy_diag_destroy(diag);
	return st;
}

/* ---- the pre-scan: what libfyaml holds before it gives a value ---- */

/* libfyaml 0.7.12 gives no event for a flow collection ([...], {...})
 * until it knows whether the collection is a mapping's key: it holds
 * every token read since (about 300 bytes each) while the collection, or
 * one nested in it on a later line, is open. A 1 MiB line of "[[[[" or
 * "1,1,1" was held whole, ~290 MiB, before the depth or value limit could
 * be checked (and 64 lines each opening a list of 4000 values, ~100 MiB).
 * So the text is walked once first, following YAML's quoting (and
 * JSON's, which is the same) and its flow collections, and refused before
 * libfyaml reads it when more than PRESCAN_HELD_MAX tokens could be held:
 * the tokens since the last line break outside any flow collection but
 * the outermost. libfyaml then holds at most about 10 MiB (measured:
 * tests/core/test_doc_memory.c). Flow nesting past the depth limit cuts
 * the text there, so that the reader's own depth check gives its message. */
#define PRESCAN_HELD_MAX 32768
/* libfyaml 0.7.12 formats a scalar's text (fy_token_get_text, through its
 * atom iterator) in a time that grows as the bytes times the lines of each
 * run of blank lines in it (lines of nothing, or of spaces and tabs): a
 * block scalar followed by 100,000 empty lines took 17 s to read, and a
 * 1 MiB body of them would hold a server's worker for hours. Runs longer
 * than this are refused, anywhere in the text (the pre-scan's view of
 * where a scalar is may be wrong on a hostile text; between keys they are
 * as useless); at this length a 1 MiB text of runs reads in 0.2 s.
 * Shipped and test files have at most one blank line in a row. */
#define PRESCAN_BLANK_LINES_MAX 64
/* libfyaml 0.7.12 reads a list of %TAG directives in a time that grows
 * faster than the square of their number (20,000 took 2 s, 40,000 12 s);
 * fray's files need none (%YAML 1.1 is one). */
#define PRESCAN_DIRECTIVES_MAX 16
#define PRESCAN_BLOCKS_MAX (FRAY_DOC_MAX_DEPTH + 1)

typedef struct prescan {
	const char *s;
	size_t len, i;
	int line, col;         /* of s[i] */
	int depth;             /* flow collections open */
	size_t held;           /* tokens since the last line break at depth <= 1 */
	bool start;            /* s[i] may begin a token (a quote opens a string, a bracket a collection) */
	bool closed;           /* the last token was a quoted scalar or a collection's end */
	bool line_start;       /* nothing but blanks yet on this line */
	bool blank_before;     /* s[i - 1] is a blank (or the line's start) */
	int indent;            /* this line's indentation */
	int plain_indent;      /* block context: the indentation a line must pass to continue the plain scalar being
	                        * read, its block list's or map's column (-1: none being read) */
	int token_col;         /* block context: the column (from 0) of the last token begun outside flow collections */
	bool yaml11;           /* a %YAML 1.1 directive: NEL, LS and PS break lines too */
	bool props;            /* the last token begun outside flow collections was an anchor or a tag */
	int blocks[PRESCAN_BLOCKS_MAX]; /* the columns of the block lists and maps open (libfyaml's indents): of a
	                        * '-' or '?', or of the key before a ':', each deeper than the one before */
	int nblocks;
	size_t cut;            /* where the flow depth passed the limit (len: nowhere) */
	int over_line, over_col; /* where the held tokens passed the limit (0: nowhere) */
	bool line_text;        /* this line holds a character other than a space or a tab */
	int blank_lines;       /* the blank lines just before this one, in a row */
	int blanks_over_line;  /* the first blank line past PRESCAN_BLANK_LINES_MAX in a row (0: none) */
	int directives;        /* directives (a '%' that begins a line outside flow collections) */
	int directives_over_line; /* the first past PRESCAN_DIRECTIVES_MAX (0: none) */
} prescan;

/* The bytes of a line break at k, 0 for none: a line feed, a carriage
 * return and both (as libfyaml reads a string: a carriage return alone
 * breaks a line too), and NEL, LS and PS under %YAML 1.1 (libfyaml's 1.1
 * mode; under 1.2 they are text). */
static size_t scan_break_len(const prescan *p, size_t k)
{
	const unsigned char *u = (const unsigned char *)p->s + k;
	size_t left = p->len - k;
	if (k >= p->len)
		return 0;
	if (u[0] == '\n')
		return 1;
	if (u[0] == '\r')
		return left >= 2 && u[1] == '\n' ? 2 : 1;
	if (p->yaml11 && left >= 2 && u[0] == 0xC2 && u[1] == 0x85)
		return 2;
	if (p->yaml11 && left >= 3 && u[0] == 0xE2 && u[1] == 0x80 && (u[2] == 0xA8 || u[2] == 0xA9))
		return 3;
	return 0;
}

/* One character, or one line break whole. */
static void scan_next(prescan *p)
{
	size_t brk = scan_break_len(p, p->i);
	unsigned char c = (unsigned char)p->s[p->i++];
	if (brk) {
		p->i += brk - 1;
		p->blank_lines = p->line_text ? 0 : p->blank_lines + 1;
		if (p->blank_lines > PRESCAN_BLANK_LINES_MAX && !p->blanks_over_line)
			p->blanks_over_line = p->line;
		p->line_text = false;
		p->line++;
		p->col = 1;
		p->line_start = true;
		p->blank_before = true;
		if (p->depth <= 1)
			p->held = 0;
		return;
	}
	if ((c & 0xC0) != 0x80) /* a column a character, not a byte */
		p->col++;
	p->line_text |= c != ' ' && c != '\t';
	p->blank_before = c == ' ' || c == '\t' || c == '\r';
}

/* Past the rest of the line, to its break. */
static void scan_to_break(prescan *p)
{
	while (p->i < p->len && !scan_break_len(p, p->i))
		scan_next(p);
}

static void scan_tokens(prescan *p, size_t n)
{
	p->held += n;
	if (p->held > PRESCAN_HELD_MAX && !p->over_line) {
		p->over_line = p->line;
		p->over_col = p->col;
	}
}

/* The bytes of a blank at k: a space, a tab or a line break (NEL, LS and
 * PS under %YAML 1.1), and a byte-order mark at the text's start, which
 * libfyaml skips; 0 for none. Elsewhere libfyaml takes a byte-order mark,
 * and NEL, LS and PS under 1.2, for text: taken for blanks, a '#' after
 * one began a comment here that hid the brackets libfyaml read ([NEL#[[[).
 * Fewer blanks than libfyaml's would be as unsafe. */
static size_t scan_blank_len(const prescan *p, size_t k)
{
	const unsigned char *u = (const unsigned char *)p->s + k;
	if (u[0] == ' ' || u[0] == '\t' || u[0] == '\r' || u[0] == '\n')
		return 1;
	if (k == 0 && p->len >= 3 && u[0] == 0xEF && u[1] == 0xBB && u[2] == 0xBF)
		return 3;
	return scan_break_len(p, k);
}

static bool scan_blank_at(const prescan *p, size_t k)
{
	return k >= p->len || scan_blank_len(p, k) > 0;
}

static bool scan_flow_indicator(char c)
{
	return c == ',' || c == '[' || c == ']' || c == '{' || c == '}';
}

/* A quoted scalar from its opening quote: '' in single quotes, a
 * backslash's next character in double quotes. */
static void scan_quoted(prescan *p)
{
	char q = p->s[p->i];
	scan_next(p);
	while (p->i < p->len) {
		char c = p->s[p->i];
		if (q == '"' && c == '\\' && p->i + 1 < p->len) {
			scan_next(p);
			scan_next(p);
		} else if (c == q && q == '\'' && p->i + 1 < p->len && p->s[p->i + 1] == '\'') {
			scan_next(p);
			scan_next(p);
		} else if (c == q) {
			scan_next(p);
			break;
		} else {
			scan_next(p);
		}
	}
}

/* The column of the innermost block list or map open, -1 for none:
 * libfyaml's indentation, which a block scalar's lines and a plain
 * scalar's next lines must pass. */
static int scan_block_col(const prescan *p)
{
	return p->nblocks > 0 ? p->blocks[p->nblocks - 1] : -1;
}

/* A block list or map at col (a '-' or '?', a key): opened when deeper
 * than the innermost (libfyaml's roll_indent). Past the depth limit the
 * reader refuses the text: the innermost is kept. */
static void scan_block_at(prescan *p, int col)
{
	if (col > scan_block_col(p) && p->nblocks < PRESCAN_BLOCKS_MAX)
		p->blocks[p->nblocks++] = col;
}

/* The spaces that begin the line at k, and whether the line holds nothing
 * else (libfyaml takes a carriage return for a line break). */
static int scan_line_spaces(const prescan *p, size_t k, bool *blank)
{
	int ind = 0;
	while (k < p->len && p->s[k] == ' ')
		k++, ind++;
	*blank = k >= p->len || scan_break_len(p, k);
	return ind;
}

/* A block scalar (| or >) from its indicator, as libfyaml 0.7.12 reads
 * one (fy_fetch_block_scalar): its text is the lines indented at least
 * its indentation, and blank lines. The indentation is the holding list's
 * or map's column plus the header's digit, or else the first line's that
 * is not blank (or a blank line's before it, if more), and at least the
 * holding list's or map's column and 1. A line indented less ends it, and
 * libfyaml reads what follows as YAML: the line's indentation alone, or
 * the header's line's, took brackets there for text. */
static void scan_block_scalar(prescan *p)
{
	int parent = scan_block_col(p), increment = 0;
	scan_next(p); /* | or > */
	for (int k = 0; k < 2 && p->i < p->len; k++) {
		char c = p->s[p->i];
		if (c >= '1' && c <= '9')
			increment = c - '0';
		else if (c != '+' && c != '-')
			break;
		scan_next(p);
	}
	scan_to_break(p); /* blanks and a comment, or libfyaml's error */
	int indent = increment ? (parent > 0 ? parent : 0) + increment : 0;
	if (!increment) {
		/* 1, though libfyaml takes 0 for a document's first node after "---": ending sooner is safe */
		indent = parent > 1 ? parent : 1;
		for (size_t k = p->i; k < p->len;) {
			bool blank;
			k += scan_break_len(p, k);
			int ind = scan_line_spaces(p, k, &blank);
			indent = ind > indent ? ind : indent;
			if (!blank)
				break;
			k += (size_t)ind;
			while (k < p->len && !scan_break_len(p, k))
				k++;
		}
	}
	while (p->i < p->len) {
		bool blank;
		if (scan_line_spaces(p, p->i + scan_break_len(p, p->i), &blank) < indent && !blank)
			break;
		scan_next(p); /* the line break */
		scan_to_break(p);
	}
}

/* The first character of a line that is not blank, in block context:
 * whether a token may begin there (a plain scalar continues on a line
 * indented more than its parent). */
static void scan_line_begins(prescan *p)
{
	p->line_start = false;
	p->indent = p->col - 1;
	p->props = false;
	if (p->depth > 0)
		return;
	if (!p->start && !p->closed && p->plain_indent >= 0 && p->indent > p->plain_indent)
		return; /* the plain scalar goes on */
	p->start = true;
	p->plain_indent = -1;
	/* a token begins the line: libfyaml closes the lists and maps indented more */
	while (p->nblocks > 0 && p->blocks[p->nblocks - 1] > p->indent)
		p->nblocks--;
}

/* A directive at p->i that is %YAML 1.1, its numbers read as libfyaml
 * reads them (strtol: "01.1" too); the other versions it refuses. */
static bool scan_yaml11(const prescan *p)
{
	size_t k = p->i + 5;
	if (p->len - p->i < 6 || strncmp(p->s + p->i, "%YAML", 5) != 0 || (p->s[k] != ' ' && p->s[k] != '\t'))
		return false;
	while (k < p->len && (p->s[k] == ' ' || p->s[k] == '\t'))
		k++;
	long v[2] = {-1, -1};
	for (int part = 0; part < 2; part++) {
		if (k >= p->len || p->s[k] < '0' || p->s[k] > '9')
			return false;
		for (v[part] = 0; k < p->len && p->s[k] >= '0' && p->s[k] <= '9' && v[part] < 1000; k++)
			v[part] = v[part] * 10 + (p->s[k] - '0');
		if (part == 0 && (k >= p->len || p->s[k++] != '.'))
			return false;
	}
	return v[0] == 1 && v[1] == 1;
}

static void scan_char(prescan *p)
{
	char c = p->s[p->i];
	bool flow = p->depth > 0;
	bool blank_after = scan_blank_at(p, p->i + 1);
	if (c == '#' && p->blank_before) { /* a comment, to the line's end */
		scan_to_break(p);
		return;
	}
	if (!flow && p->col == 1 && (c == '%' || ((c == '-' || c == '.') && p->i + 2 < p->len &&
						  p->s[p->i + 1] == c && p->s[p->i + 2] == c &&
						  scan_blank_at(p, p->i + 3)))) {
		/* a directive, or a document's start or end */
		size_t n = c == '%' ? SIZE_MAX : 3;
		if (c == '%')
			p->yaml11 |= scan_yaml11(p);
		if (c == '%' && ++p->directives > PRESCAN_DIRECTIVES_MAX && !p->directives_over_line)
			p->directives_over_line = p->line;
		for (size_t k = 0; k < n && p->i < p->len && !scan_break_len(p, p->i); k++)
			scan_next(p);
		p->start = true;
		p->closed = false;
		p->plain_indent = -1;
		p->nblocks = 0;
		return;
	}
	if (!flow && p->start) { /* a key's column is its anchor's or tag's, when it has one */
		if (!p->props)
			p->token_col = p->col - 1;
		p->props = c == '!' || c == '&';
	}
	if ((c == '"' || c == '\'') && p->start) {
		scan_quoted(p);
		p->line_start = false; /* what follows its closing quote does not begin a line */
		scan_tokens(p, 1);
		p->start = false;
		p->closed = true;
		p->plain_indent = -1;
		return;
	}
	if ((c == '[' || c == '{') && (p->start || flow)) {
		if (++p->depth > FRAY_DOC_MAX_DEPTH && p->cut == p->len)
			p->cut = p->i;
		scan_next(p);
		scan_tokens(p, 1);
		p->start = true;
		p->closed = false;
		p->plain_indent = -1;
		return;
	}
	if ((c == ']' || c == '}') && flow) {
		p->depth--;
		scan_next(p);
		scan_tokens(p, 1);
		p->start = p->depth == 0; /* libfyaml reads a bracket after it as another collection ([][[[...) */
		p->closed = true;
		return;
	}
	if (c == ',' && flow) {
		scan_next(p);
		scan_tokens(p, 1);
		p->start = true;
		p->closed = false;
		return;
	}
	bool next_ends = blank_after || (flow && scan_flow_indicator(p->s[p->i + 1])); /* i + 1 < len: not blank_after */
	if (c == ':' && (next_ends || (flow && p->closed))) { /* a value: the key's token and its own */
		if (!flow)
			scan_block_at(p, p->token_col);
		scan_next(p);
		scan_tokens(p, 2);
		p->start = true;
		p->closed = false;
		p->plain_indent = -1;
		return;
	}
	if ((c == '-' || c == '?') && p->start && blank_after) {
		if (!flow)
			scan_block_at(p, p->col - 1);
		scan_next(p);
		scan_tokens(p, 1);
		p->closed = false;
		return;
	}
	if ((c == '!' || c == '&' || c == '*') && p->start) { /* a tag or an anchor (a token may follow), an alias */
		/* libfyaml ends an anchor's or alias's name at a bracket or comma in block context too (&a[...):
		 * what follows an alias is read as a token, as libfyaml reads it (and then refuses it) */
		bool stops = flow || c != '!';
		while (p->i < p->len && !scan_blank_at(p, p->i) && !(stops && scan_flow_indicator(p->s[p->i])))
			scan_next(p);
		scan_tokens(p, 1);
		return;
	}
	if ((c == '|' || c == '>') && p->start && !flow) {
		scan_block_scalar(p);
		scan_tokens(p, 1);
		p->start = false;
		p->closed = true;
		p->plain_indent = -1;
		return;
	}
	if (p->start) { /* a plain scalar begins */
		scan_tokens(p, 1);
		p->start = false;
		p->closed = false;
		/* its next lines: indented more than the list or map holding it */
		p->plain_indent = scan_block_col(p);
	}
	scan_next(p);
}

/* Walks text; false, with the error added, when libfyaml could hold too
 * much of it. *len is cut short where the flow depth passes the limit. */
static bool prescan_text(fray_doc *doc, const char *text, size_t *len)
{
	prescan p = {.s = text, .len = *len, .line = 1, .col = 1, .start = true, .line_start = true,
		     .blank_before = true, .plain_indent = -1, .cut = *len};
	while (p.i < p.len && p.cut == p.len && !p.over_line && !p.blanks_over_line && !p.directives_over_line) {
		size_t blank = scan_blank_len(&p, p.i);
		if (blank) {
			for (size_t end = p.i + blank; p.i < end;) /* a line break is taken whole */
				scan_next(&p);
			p.blank_before = true;
			continue;
		}
		if (p.line_start)
			scan_line_begins(&p);
		scan_char(&p);
	}
	if (p.over_line) {
		char msg[200];
		snprintf(msg, sizeof msg, "more than %d values and brackets on one line, or in flow collections "
			 "([...], {...}) nested over lines: write them over more lines, or nest less", PRESCAN_HELD_MAX);
		add_error(doc, p.over_line, p.over_col, msg);
		return false;
	}
	if (p.blanks_over_line) {
		char msg[200];
		snprintf(msg, sizeof msg, "more than %d blank lines in a row (empty, or only spaces and tabs): "
			 "expected at most %d", PRESCAN_BLANK_LINES_MAX, PRESCAN_BLANK_LINES_MAX);
		add_error(doc, p.blanks_over_line, 1, msg);
		return false;
	}
	if (p.directives_over_line) {
		char msg[120];
		snprintf(msg, sizeof msg, "more than %d directives (%%YAML, %%TAG): expected at most %d",
			 PRESCAN_DIRECTIVES_MAX, PRESCAN_DIRECTIVES_MAX);
		add_error(doc, p.directives_over_line, 1, msg);
		return false;
	}
	if (p.cut < *len)
		*len = p.cut + 1;
	return true;
}

static void report(fray_doc *doc, fray_status st)
{
	if (st == FRAY_ERR_NOMEM || doc->nomem)
		frayi_nomem(doc->ctx);
	else if (doc->nerrors)
		frayi_fail(doc->ctx, st, "%s", doc->errors[0]);
	else
		frayi_fail(doc->ctx, st, "%s: not valid YAML", doc->name);
}

/* Refuses text that is not UTF-8, with its position, before libfyaml sees
 * it (libfyaml 0.7.12 can loop forever on some invalid bytes). */
static bool valid_utf8(fray_doc *doc, const char *text, size_t len)
{
	const unsigned char *u = (const unsigned char *)text;
	int line = 1, col = 1;
	for (size_t i = 0; i < len;) {
		size_t n = frayi_utf8_len(u + i, len - i);
		if (n == 0) {
			char msg[80];
			snprintf(msg, sizeof msg, "invalid UTF-8 byte 0x%02x: expected text", u[i]);
			add_error(doc, line, col, msg);
			return false;
		}
		if (u[i] == '\n') {
			line++;
			col = 1;
		} else {
			col++;
		}
		i += n;
	}
	return true;
}

static fray_doc *doc_new(fray_ctx *ctx, const char *name)
{
	fray_doc *doc = frayi_calloc(ctx, 1, sizeof *doc);
	if (!doc)
		return NULL;
	doc->ctx = ctx;
	doc->name = frayi_strdup(ctx, name);
	if (!doc->name) {
		frayi_dealloc(ctx, doc);
		return NULL;
	}
	return doc;
}

/* own: text fray rendered itself (frayi_doc_load_own), read without the
 * prescan's limit on held tokens, which is for hostile files. */
static fray_status load_string(fray_ctx *ctx, const char *name, const char *text, size_t len, fray_doc **out,
			       bool own)
{
	if (!ctx)
		return FRAY_ERR_INPUT;
	fray_ctx_clear(ctx); /* each call's message is its own */
	if (!out || !name || (!text && len))
		return frayi_fail(ctx, FRAY_ERR_INPUT, "fray_doc_load_string: NULL argument");
	*out = NULL;
	fray_doc *doc = doc_new(ctx, name);
	if (!doc)
		return frayi_nomem(ctx);
	fray_status st;
	doc->digest = frayi_fnv1a(FRAY_FNV1A_START, text, len);
	if (len > FRAY_DOC_MAX_BYTES) {
		add_error(doc, 0, 0, "file too large (the limit is 4 MiB)");
		st = FRAY_ERR_INPUT;
	} else if (memchr(text, '\0', len)) {
		size_t at = (size_t)((const char *)memchr(text, '\0', len) - text);
		char msg[80];
		snprintf(msg, sizeof msg, "a NUL byte at offset %zu: expected text", at);
		add_error(doc, 0, 0, msg);
		st = FRAY_ERR_INPUT;
	} else if (!valid_utf8(doc, text, len)) {
		st = FRAY_ERR_INPUT;
	} else if (!own && !prescan_text(doc, text, &len)) {
		st = FRAY_ERR_INPUT;
	} else {
		st = build(doc, text, len);
	}
	if (st == FRAY_OK && doc->nomem)
		st = FRAY_ERR_NOMEM;
	if (st == FRAY_OK && doc->nerrors)
		st = FRAY_ERR_INPUT;
	if (st != FRAY_OK) {
		report(doc, st);
		fray_doc_free(doc);
		return st;
	}
	*out = doc;
	return FRAY_OK;
}

FRAY_API fray_status fray_doc_load_string(fray_ctx *ctx, const char *name, const char *text, size_t len,
					  fray_doc **out)
{
	return load_string(ctx, name, text, len, out, false);
}

fray_status frayi_doc_load_own(fray_ctx *ctx, const char *name, const char *text, size_t len, fray_doc **out)
{
	return load_string(ctx, name, text, len, out, true);
}

/* ---- opening inputs ---- */

/* What a file that is not a regular file is, for the message. */
static const char *file_kind(mode_t mode)
{
	return S_ISDIR(mode) ? "a folder"
	       : S_ISFIFO(mode) ? "a FIFO (named pipe)"
	       : S_ISCHR(mode) ? "a character device"
	       : S_ISBLK(mode) ? "a block device"
	       : S_ISSOCK(mode) ? "a socket"
	       : "not a regular file";
}

/* The limit as people read it: "4 MiB", or bytes when not whole MiB. */
static void limit_words(char *dst, size_t cap, size_t max)
{
	if (max >= (1u << 20) && max % (1u << 20) == 0)
		snprintf(dst, cap, "%zu MiB", max >> 20);
	else
		snprintf(dst, cap, "%zu bytes", max);
}

/* Refuses a file whose stat says it cannot be read whole and at once:
 * anything but a regular file (a FIFO with no writer would block the
 * reader for ever, a device may never end), and a regular file larger
 * than max, before a byte of it is read. */
static fray_status check_input(fray_ctx *ctx, const char *path, const struct stat *st, size_t max)
{
	if (!S_ISREG(st->st_mode))
		return frayi_fail(ctx, FRAY_ERR_INPUT, "%s: %s: expected a regular file (or - for standard "
				 "input)", path, file_kind(st->st_mode));
	if ((uintmax_t)st->st_size > max) {
		char limit[32];
		limit_words(limit, sizeof limit, max);
		return frayi_fail(ctx, FRAY_ERR_INPUT, "%s: file too large (the limit is %s)", path, limit);
	}
	return FRAY_OK;
}

static fray_status open_failed(fray_ctx *ctx, const char *path, int e)
{
	/* a file that is not there (or not ours to read) is a bad name
	 * given: bad input, not a failure of the machine */
	return frayi_fail(ctx, e == ENOMEM || e == EMFILE || e == ENFILE ? FRAY_ERR_IO : FRAY_ERR_INPUT,
			 "%s: cannot open: %s", path, strerror(e));
}

/* "-", and /dev/stdin alike (opened by name it would be the pipe the
 * shell made, which is no regular file) */
static bool is_stdin(const char *path)
{
	return path && (strcmp(path, "-") == 0 || strcmp(path, "/dev/stdin") == 0);
}

FRAY_API fray_status fray_input_open(fray_ctx *ctx, const char *path, size_t max, int *fd)
{
	if (!ctx)
		return FRAY_ERR_INPUT;
	fray_ctx_clear(ctx); /* each call's message is its own */
	if (!path || !fd)
		return frayi_fail(ctx, FRAY_ERR_INPUT, "fray_input_open: NULL argument");
	*fd = -1;
	struct stat st;
	if (is_stdin(path)) {
		/* already open: whatever it is (a pipe, a terminal) the user
		 * chose it, and it is read once, never past max + 1 bytes */
		if (fstat(0, &st) != 0)
			return frayi_fail(ctx, FRAY_ERR_INPUT, "%s: cannot read standard input: %s", path,
					 strerror(errno));
		if (S_ISDIR(st.st_mode) || (S_ISREG(st.st_mode) && (uintmax_t)st.st_size > max))
			return check_input(ctx, path, &st, max);
		*fd = 0;
		return FRAY_OK;
	}
	/* stat before open: a FIFO or a device is refused without opening it
	 * (opening one may block, or act: a tape rewinds) */
	if (stat(path, &st) != 0)
		return open_failed(ctx, path, errno);
	fray_status s = check_input(ctx, path, &st, max);
	if (s != FRAY_OK)
		return s;
	/* non-blocking, and checked again once open: the name may have been
	 * pointed at a FIFO between the stat and the open */
	int f = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (f < 0)
		return open_failed(ctx, path, errno);
	if (fstat(f, &st) != 0) {
		int e = errno;
		close(f);
		return frayi_fail(ctx, FRAY_ERR_IO, "%s: cannot read: %s", path, strerror(e));
	}
	if ((s = check_input(ctx, path, &st, max)) != FRAY_OK) {
		close(f);
		return s;
	}
	int flags = fcntl(f, F_GETFL);
	if (flags >= 0)
		(void)fcntl(f, F_SETFL, flags & ~O_NONBLOCK);
	*fd = f;
	return FRAY_OK;
}

/* Reads fd into buf until its end or cap bytes; -1 with errno on failure. */
static ssize_t read_upto(int fd, char *buf, size_t cap)
{
	size_t len = 0;
	while (len < cap) {
		ssize_t n = read(fd, buf + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0)
			break;
		len += (size_t)n;
	}
	return (ssize_t)len;
}

FRAY_API fray_status fray_doc_load_file(fray_ctx *ctx, const char *path,
					fray_doc **out)
{
	if (!ctx)
		return FRAY_ERR_INPUT;
	fray_ctx_clear(ctx); /* each call's message is its own */
	if (!out || !path)
		return frayi_fail(ctx, FRAY_ERR_INPUT, "fray_doc_load_file: NULL argument");
	*out = NULL;
	int fd;
	fray_status st = fray_input_open(ctx, path, FRAY_DOC_MAX_BYTES, &fd);
	if (st != FRAY_OK)
		return st;
	frayi_ctx_note_read(ctx, fd);
	/* one more than the limit: a larger input (standard input, or a file
	 * grown since its stat) is told as such */
	char *buf = frayi_alloc(ctx, FRAY_DOC_MAX_BYTES + 1);
	if (!buf) {
		if (fd != 0)
			close(fd);
		return frayi_nomem(ctx);
	}
	ssize_t len = read_upto(fd, buf, FRAY_DOC_MAX_BYTES + 1);
	int e = errno;
	if (fd != 0)
		close(fd);
	if (len < 0) /* a folder given as standard input, for one */
		st = frayi_fail(ctx, e == EISDIR ? FRAY_ERR_INPUT : FRAY_ERR_IO, "%s: cannot read: %s", path,
			       strerror(e));
	else
		st = fray_doc_load_string(ctx, path, buf, (size_t)len, out);
	frayi_dealloc(ctx, buf);
	return st;
}

FRAY_API uint64_t fray_doc_digest(const fray_doc *doc)
{
	return doc->digest;
}

FRAY_API fray_status fray_doc_set_scalar(fray_doc *doc, const fray_node *n, const char *text)
{
	fray_node *m = (fray_node *)n; /* nodes belong to doc, which is not const */
	if (m->kind != FRAY_NODE_SCALAR)
		return frayi_fail(doc->ctx, FRAY_ERR_INPUT, "%s:%d:%d: not a single value", doc->name,
				 m->line, m->col);
	size_t len = strlen(text);
	char *copy = frayi_alloc(doc->ctx, len + 1);
	if (!copy)
		return frayi_nomem(doc->ctx);
	memcpy(copy, text, len + 1);
	frayi_dealloc(doc->ctx, m->text);
	m->text = copy;
	m->plain = true;
	return FRAY_OK;
}

FRAY_API void fray_doc_free(fray_doc *doc)
{
	if (!doc)
		return;
	for (size_t i = 0; i < doc->nall; i++) {
		frayi_dealloc(doc->ctx, doc->all[i]->text);
		frayi_dealloc(doc->ctx, doc->all[i]->items);
		frayi_dealloc(doc->ctx, doc->all[i]);
	}
	for (size_t i = 0; i < doc->nerrors; i++)
		frayi_dealloc(doc->ctx, doc->errors[i]);
	frayi_dealloc(doc->ctx, doc->all);
	frayi_dealloc(doc->ctx, doc->name);
	frayi_dealloc(doc->ctx, doc);
}

/* ---- reading ---- */

FRAY_API const fray_node *fray_doc_root(const fray_doc *doc) { return doc->root; }
FRAY_API const char *fray_doc_name(const fray_doc *doc) { return doc->name; }
/* The accessors take the NULL their siblings return (a missing item, a
 * key absent): no node is an empty scalar with no text, at line 0. */
FRAY_API fray_node_kind fray_node_kind_of(const fray_node *n) { return n ? n->kind : FRAY_NODE_SCALAR; }
FRAY_API int fray_node_line(const fray_node *n) { return n ? n->line : 0; }
FRAY_API int fray_node_col(const fray_node *n) { return n ? n->col : 0; }
FRAY_API bool fray_node_plain(const fray_node *n) { return n && n->kind == FRAY_NODE_SCALAR && n->plain; }

FRAY_API const char *fray_node_scalar(const fray_node *n)
{
	return n && n->kind == FRAY_NODE_SCALAR ? n->text : NULL;
}

FRAY_API size_t fray_node_len(const fray_node *n)
{
	return !n || n->kind == FRAY_NODE_SCALAR ? 0 : n->n;
}

FRAY_API const fray_node *fray_node_item(const fray_node *n, size_t i)
{
	return n && n->kind == FRAY_NODE_SEQ && i < n->n ? n->items[i] : NULL;
}

FRAY_API const fray_node *fray_node_key(const fray_node *n, size_t i)
{
	return n && n->kind == FRAY_NODE_MAP && i < n->n ? n->items[2 * i] : NULL;
}

FRAY_API const fray_node *fray_node_value(const fray_node *n, size_t i)
{
	return n && n->kind == FRAY_NODE_MAP && i < n->n ? n->items[2 * i + 1] : NULL;
}

FRAY_API const fray_node *fray_map_get(const fray_node *map, const char *key)
{
	if (!map || !key || map->kind != FRAY_NODE_MAP)
		return NULL;
	for (size_t i = 0; i < map->n; i++)
		if (strcmp(map->items[2 * i]->text, key) == 0)
			return map->items[2 * i + 1];
	return NULL;
}

/* ---- checking ---- */

FRAY_API void fray_doc_error(fray_doc *doc, const fray_node *n,
			     const char *fmt, ...)
{
	char msg[FRAY_MSG_MAX];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	add_error(doc, n ? n->line : 0, n ? n->col : 0, msg);
}

FRAY_API size_t fray_doc_error_count(const fray_doc *doc) { return doc->nerrors; }

FRAY_API const char *fray_doc_error_msg(const fray_doc *doc, size_t i)
{
	return i < doc->nerrors ? doc->errors[i] : NULL;
}

static const char *kind_name(fray_node_kind k)
{
	return k == FRAY_NODE_MAP ? "a mapping" : k == FRAY_NODE_SEQ ? "a list" : "a value";
}

/* A checker given no node at all (an item past the end, a key's value in
 * something that is not a map): said so, never a crash. */
static bool missing(fray_doc *doc, const fray_node *n, const char *what)
{
	if (n)
		return false;
	fray_doc_error(doc, NULL, "expected %s, found nothing", what);
	return true;
}

FRAY_API bool fray_doc_expect(fray_doc *doc, const fray_node *n,
			      fray_node_kind kind, const char *what)
{
	if (missing(doc, n, what))
		return false;
	if (n->kind == kind)
		return true;
	fray_doc_error(doc, n, "expected %s as %s, found %s", kind_name(kind),
		       what, kind_name(n->kind));
	return false;
}

FRAY_API bool fray_doc_int(fray_doc *doc, const fray_node *n, int64_t lo,
			   int64_t hi, const char *what, int64_t *out)
{
	if (missing(doc, n, what))
		return false;
	const char *s = n->kind == FRAY_NODE_SCALAR ? n->text : NULL;
	char *end = NULL;
	long long v = 0;
	bool ok = false;
	if (s && *s) {
		errno = 0;
		v = strtoll(s, &end, 10);
		ok = errno == 0 && *end == '\0' && s[0] != ' ';
	}
	if (!ok || v < lo || v > hi) {
		fray_doc_error(doc, n, "expected %s: a whole number from %lld to %lld, found %s%.60s%s",
			       what, (long long)lo, (long long)hi,
			       s ? "'" : "", s ? s : kind_name(n->kind), s ? "'" : "");
		return false;
	}
	*out = v;
	return true;
}

FRAY_API bool fray_doc_bool(fray_doc *doc, const fray_node *n, const char *what,
			    bool *out)
{
	if (missing(doc, n, what))
		return false;
	const char *s = n->kind == FRAY_NODE_SCALAR ? n->text : "";
	if (strcmp(s, "true") == 0 || strcmp(s, "yes") == 0) {
		*out = true;
		return true;
	}
	if (strcmp(s, "false") == 0 || strcmp(s, "no") == 0) {
		*out = false;
		return true;
	}
	fray_doc_error(doc, n, "expected %s: true or false", what);
	return false;
}

FRAY_API bool fray_doc_string(fray_doc *doc, const fray_node *n,
			      const char *what, const char **out)
{
	if (missing(doc, n, what))
		return false;
	if (n->kind != FRAY_NODE_SCALAR) {
		fray_doc_error(doc, n, "expected %s: a single value, found %s",
			       what, kind_name(n->kind));
		return false;
	}
	*out = n->text;
	return true;
}

FRAY_API bool fray_doc_enum(fray_doc *doc, const fray_node *n, const char *what,
			    const char *const *names, size_t nnames, size_t *out)
{
	if (missing(doc, n, what))
		return false;
	const char *s = n->kind == FRAY_NODE_SCALAR ? n->text : NULL;
	if (s)
		for (size_t i = 0; i < nnames; i++)
			if (strcmp(s, names[i]) == 0) {
				*out = i;
				return true;
			}
	char list[512];
	textbuf t = text_on(list, sizeof list);
	for (size_t i = 0; i < nnames; i++)
		text_add(&t, "%s%s", i ? ", " : "", names[i]);
	size_t near = s ? frayi_nearest_name(s, names, nnames) : SIZE_MAX;
	if (near != SIZE_MAX)
		fray_doc_error(doc, n, "expected %s: one of %s; found '%.60s' (did you mean '%s'?)",
			       what, list, s, names[near]);
	else
		fray_doc_error(doc, n, "expected %s: one of %s", what, list);
	return false;
}

FRAY_API const fray_node *fray_doc_field(fray_doc *doc, const fray_node *map,
					 const char *key, bool required)
{
	const fray_node *v = fray_map_get(map, key);
	if (!v && required)
		fray_doc_error(doc, map, "missing '%s'", key);
	return v;
}

FRAY_API bool fray_doc_known_keys(fray_doc *doc, const fray_node *map,
				  const char *const *allowed, size_t nallowed)
{
	bool ok = true;
	for (size_t i = 0; map && map->kind == FRAY_NODE_MAP && i < map->n; i++) {
		const fray_node *k = map->items[2 * i];
		bool known = false;
		for (size_t j = 0; j < nallowed && !known; j++)
			known = strcmp(k->text, allowed[j]) == 0;
		if (known)
			continue;
		ok = false;
		size_t near = frayi_nearest_name(k->text, allowed, nallowed);
		if (near != SIZE_MAX)
			fray_doc_error(doc, k, "unknown key '%.60s' (did you mean '%s'?)",
				       k->text, allowed[near]);
		else
			fray_doc_error(doc, k, "unknown key '%.60s'", k->text);
	}
	return ok;
}

void frayi_doc_nomem(fray_doc *doc)
{
	doc->nomem = true;
}

FRAY_API fray_status fray_doc_status(fray_doc *doc)
{
	if (doc->nomem)
		return frayi_nomem(doc->ctx);
	if (doc->nerrors == 0)
		return FRAY_OK;
	return frayi_fail(doc->ctx, FRAY_ERR_INPUT, "%s", doc->errors[0]);
}
