/* A call: a procedure from the catalogue with its input values, each
 * checked against its descriptor as it is set, then bound and run. */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "result.h"
#include "../core/names.h"
#include "../core/shipped_named.h"
#include "embedded.h"

/* The i-th descriptor: the procedures, then the listings. */
static const proc_desc *catalog_at(size_t i)
{
	size_t nprocs = frayi_catalog_nprocs();
	if (i < nprocs)
		return frayi_catalog_proc(i);
	return i - nprocs < frayi_catalog_nshows ? frayi_catalog_shows[i - nprocs] : NULL;
}

const proc_desc *frayi_catalog_find(const char *name)
{
	for (size_t k = 0; catalog_at(k); k++) {
		const proc_desc *d = catalog_at(k);
		if (strcmp(name, d->name) == 0 || strcmp(name, d->command) == 0 || (d->also && strcmp(name, d->also) == 0))
			return d;
	}
	return NULL;
}

FRAY_API const char *fray_procedure_command(size_t i)
{
	return catalog_at(i) ? catalog_at(i)->command : NULL;
}

FRAY_API const char *fray_procedure_also(size_t i)
{
	return catalog_at(i) ? catalog_at(i)->also : NULL;
}

FRAY_API const char *fray_procedure_find(const char *name)
{
	const proc_desc *d = name ? frayi_catalog_find(name) : NULL;
	return d ? d->command : NULL;
}

static size_t nearest_procedure(const char *name)
{
	const char *names[256];
	size_t n = 0;
	for (const proc_desc *d; n < 256 && (d = frayi_catalog_proc(n)); n++)
		names[n] = d->name;
	return frayi_nearest_name(name, names, n);
}

FRAY_API fray_call *fray_call_new(fray_ctx *ctx, const char *procedure)
{
	if (!ctx)
		return NULL;
	fray_ctx_clear(ctx);
	if (!procedure) {
		frayi_fail_input(ctx, FRAY_ERR_INPUT, "procedure", "no procedure named");
		return NULL;
	}
	const proc_desc *d = frayi_catalog_find(procedure);
	if (!d) {
		size_t near = nearest_procedure(procedure);
		/* a request's "procedure"; the command line adds where they are listed */
		if (near != SIZE_MAX)
			frayi_fail_input(ctx, FRAY_ERR_INPUT, "procedure", "unknown procedure '%.80s' (did you mean '%s'?)",
					 procedure, frayi_catalog_proc(near)->name);
		else
			frayi_fail_input(ctx, FRAY_ERR_INPUT, "procedure", "unknown procedure '%.80s'", procedure);
		return NULL;
	}
	if (d->nin > CALL_MAX_INPUTS) {
		frayi_fail(ctx, FRAY_ERR_INTERNAL, "%s has more inputs than a call holds", d->name);
		return NULL;
	}
	fray_call *c = frayi_calloc(ctx, 1, sizeof *c); /* the context's allocator */
	if (!c) {
		frayi_nomem(ctx);
		return NULL;
	}
	c->ctx = ctx;
	c->d = d;
	for (size_t k = 0; k < d->nin; k++) {
		c->v[k].i = d->in[k].def;
		c->v[k].x = (double)d->in[k].def;
	}
	return c;
}

FRAY_API void fray_call_free(fray_call *c)
{
	if (!c)
		return;
	if (c->cleanup)
		c->cleanup(c);
	for (size_t k = 0; k < c->d->nin; k++) {
		frayi_dealloc(c->ctx, c->v[k].s);
		frayi_dealloc(c->ctx, c->v[k].text);
	}
	frayi_dealloc(c->ctx, c);
}

FRAY_API size_t fray_call_ninputs(const fray_call *c)
{
	return c ? c->d->nin : 0;
}

const char *frayi_call_option_name(const char *name, char *dst, size_t cap)
{
	snprintf(dst, cap, "--%s", name);
	for (char *p = dst; *p; p++)
		if (*p == '_')
			*p = '-';
	return dst;
}

FRAY_API const char *fray_call_option(const fray_call *c, size_t i, char *buf, size_t cap)
{
	if (!c || i >= c->d->nin || !buf || cap == 0)
		return NULL;
	return frayi_call_option_name(c->d->in[i].name, buf, cap);
}

FRAY_API unsigned fray_call_modes(const fray_call *c)
{
	return c ? c->d->modes : 0;
}

FRAY_API const char *fray_call_alias(const fray_call *c, size_t i, char *buf, size_t cap)
{
	if (!c || i >= c->d->nin || !c->d->in[i].alias || !buf || cap == 0)
		return NULL;
	return frayi_call_option_name(c->d->in[i].alias, buf, cap);
}

FRAY_API int fray_call_positional(const fray_call *c)
{
	for (size_t i = 0; c && i < c->d->nin; i++)
		if (c->d->in[i].positional)
			return (int)i;
	return -1;
}

FRAY_API bool fray_call_is_flag(const fray_call *c, size_t i)
{
	return c && i < c->d->nin && c->d->in[i].type == IN_BOOL;
}

const char *frayi_call_opt(const fray_call *c, size_t k)
{
	/* messages name up to three options in one call: eight slots a thread */
	static _Thread_local char slot[8][72];
	static _Thread_local unsigned next;
	return c->from_json ? c->d->in[k].name : frayi_call_option_name(c->d->in[k].name, slot[next++ % 8], sizeof slot[0]);
}

/* "option --cf" on the command line, "inputs.cf" in a request. */
static const char *call_what(const fray_call *c, size_t k)
{
	static _Thread_local char slot[80];
	snprintf(slot, sizeof slot, c->from_json ? "inputs.%s" : "option %s", frayi_call_opt(c, k));
	return slot;
}

fray_status frayi_call_bad(fray_call *c, const char *fmt, ...)
{
	char msg[FRAY_MSG_MAX];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	return frayi_fail(c->ctx, FRAY_ERR_INPUT, "%s", msg);
}

fray_status frayi_call_bad_at(fray_call *c, size_t k, const char *fmt, ...)
{
	char msg[FRAY_MSG_MAX];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	return frayi_fail_input(c->ctx, FRAY_ERR_INPUT, k < c->d->nin ? c->d->in[k].name : NULL, "%s", msg);
}

fray_status frayi_call_missing(fray_call *c, size_t k, const char *what)
{
	/* no command-line hint here: the command line adds its own (src/cli) */
	return frayi_call_bad_at(c, k, "missing %s", what);
}

/* A decimal number as the command line takes one: digits and one point,
 * at most 12 digits, at most 1e6. */
static bool decimal(const char *v, double *out)
{
	int digits = 0, points = 0;
	for (const char *p = v; *p; p++) {
		if (*p >= '0' && *p <= '9')
			digits++;
		else if (!(*p == '.' && points++ == 0))
			return false;
	}
	if (digits == 0 || digits > 12)
		return false;
	*out = strtod(v, NULL);
	return *out <= 1e6;
}

static fray_status set_choice(fray_call *c, size_t i, const char *text)
{
	const in_desc *in = &c->d->in[i];
	for (size_t k = 0; k < in->nchoices; k++)
		if (strcmp(text, in->choices[k]) == 0) {
			c->v[i].i = (int64_t)k;
			return FRAY_OK;
		}
	char list[1024];
	textbuf t = text_on(list, sizeof list);
	for (size_t k = 0; k < in->nchoices; k++)
		text_add(&t, "%s%s", k ? ", " : "", in->choices[k]);
	return frayi_call_bad_at(c, i, "%s expects one of %s, got '%.200s'", call_what(c, i), list, text);
}

/* A value of input i (an integer or a number) refused, as text: the one
 * message of the text and the typed setters. */
static fray_status out_of_range(fray_call *c, size_t i, const char *text)
{
	const in_desc *in = &c->d->in[i];
	if (in->expects)
		return frayi_call_bad_at(c, i, "%s expects %s, got '%.200s'", call_what(c, i), in->expects, text);
	return frayi_call_bad_at(c, i, "%s expects a %s from %" PRId64 " to %" PRId64 ", got '%.200s'",
				 call_what(c, i), in->type == IN_INT ? "whole number" : "number", in->min, in->max, text);
}

FRAY_API fray_status fray_call_set(fray_call *c, size_t i, const char *text)
{
	if (!c)
		return FRAY_ERR_INPUT;
	if (i >= c->d->nin)
		return frayi_fail(c->ctx, FRAY_ERR_INPUT, "no input %zu in %s", i, c->d->name);
	fray_ctx_clear(c->ctx);
	c->bound = false; /* a value changed: bind again */
	const in_desc *in = &c->d->in[i];
	value *v = &c->v[i];
	if (in->type == IN_BOOL) {
		v->given = true;
		v->i = text == NULL || strcmp(text, "true") == 0 ? 1 : 0;
		if (text && strcmp(text, "true") != 0 && strcmp(text, "false") != 0)
			return frayi_call_bad_at(c, i, "%s expects true or false, got '%.200s'", call_what(c, i), text);
		return FRAY_OK;
	}
	if (!text)
		return frayi_call_bad_at(c, i, "%s expects a value", call_what(c, i));
	v->given = true;
	switch (in->type) {
	case IN_INT:
	case IN_NUMBER: {
		char *end;
		errno = 0;
		long long whole = in->type == IN_INT ? strtoll(text, &end, 10) : 0;
		double x = in->type == IN_INT ? (double)whole : 0;
		bool ok = in->type == IN_INT ? *text && !*end && !errno : decimal(text, &x);
		if (!ok || x < (double)in->min || x > (double)in->max)
			return out_of_range(c, i, text);
		v->i = whole;
		v->x = x;
		return FRAY_OK;
	}
	case IN_CHOICE:
		return set_choice(c, i, text);
	case IN_STRING:
	case IN_FILE:
		if (strlen(text) > CALL_MAX_TEXT)
			return frayi_call_bad_at(c, i, "%s expects at most %d bytes", call_what(c, i), CALL_MAX_TEXT);
		frayi_dealloc(c->ctx, v->s);
		frayi_dealloc(c->ctx, v->text);
		v->text = NULL;
		v->s = frayi_strdup(c->ctx, text);
		return v->s ? FRAY_OK : frayi_nomem(c->ctx);
	case IN_BOOL:
		break;
	}
	return FRAY_OK;
}

/* ---- Typed setters: the value as the program holds it, checked as its
 * text would be (same ranges, same messages), with no text between ---- */

FRAY_API int fray_call_input_named(const fray_call *c, const char *name)
{
	for (size_t i = 0; c && name && i < c->d->nin; i++)
		if (strcmp(c->d->in[i].name, name) == 0)
			return (int)i;
	return -1;
}

FRAY_API fray_input_kind fray_call_input_kind(const fray_call *c, size_t i)
{
	static const fray_input_kind kinds[] = {
		[IN_INT] = FRAY_INPUT_INT,       [IN_NUMBER] = FRAY_INPUT_NUMBER, [IN_BOOL] = FRAY_INPUT_BOOL,
		[IN_CHOICE] = FRAY_INPUT_CHOICE, [IN_STRING] = FRAY_INPUT_STRING, [IN_FILE] = FRAY_INPUT_FILE};
	return c && i < c->d->nin ? kinds[c->d->in[i].type] : FRAY_INPUT_NONE;
}

FRAY_API const char *fray_call_missing_words(const fray_call *c, size_t i)
{
	return c && i < c->d->nin ? c->d->in[i].missing : NULL;
}

/* Input i is there and of the setter's kind (a string setter takes a
 * file's path too): FRAY_OK, the context cleared and the call to bind
 * again; else FRAY_ERR_INPUT naming the input and what it takes. */
static fray_status typed_input(fray_call *c, size_t i, in_type want, const char *setter)
{
	if (!c)
		return FRAY_ERR_INPUT;
	fray_ctx_clear(c->ctx);
	if (i >= c->d->nin)
		return frayi_fail(c->ctx, FRAY_ERR_INPUT, "%s: no input %zu in %s", setter, i, c->d->name);
	in_type t = c->d->in[i].type;
	if (t != want && !(want == IN_STRING && t == IN_FILE)) {
		static const char *const takes[] = {
			[IN_INT] = "a whole number",   [IN_NUMBER] = "a number", [IN_BOOL] = "true or false",
			[IN_CHOICE] = "a choice's word", [IN_STRING] = "text",     [IN_FILE] = "a file"};
		return frayi_call_bad_at(c, i, "%s takes %s: %s does not set it", call_what(c, i), takes[t], setter);
	}
	c->bound = false; /* a value changes: bind again */
	return FRAY_OK;
}

/* The one check of the numeric setters: whole (an integer input) or x (a
 * number) within the input's range, and a number within the text path's
 * own bounds too (no sign, so none negative; at most 1e6: decimal); NaN
 * fails every test. Refused with the text path's message, the value as
 * typed (a number the shortest text that reads back). */
static fray_status set_numeric(fray_call *c, size_t i, in_type want, int64_t whole, double x, const char *setter)
{
	fray_status st = typed_input(c, i, want, setter);
	if (st != FRAY_OK)
		return st;
	const in_desc *in = &c->d->in[i];
	bool ok = want == IN_INT ? whole >= in->min && whole <= in->max
				 : x >= 0 && x <= 1e6 && x >= (double)in->min && x <= (double)in->max;
	if (!ok) {
		char text[40];
		if (want == IN_INT)
			snprintf(text, sizeof text, "%" PRId64, whole);
		else
			fray_double_str(x, text, sizeof text);
		return out_of_range(c, i, text);
	}
	c->v[i] = (value){.given = true, .i = whole, .x = x};
	return FRAY_OK;
}

FRAY_API fray_status fray_call_set_int(fray_call *c, size_t i, int64_t v)
{
	return set_numeric(c, i, IN_INT, v, (double)v, "fray_call_set_int");
}

FRAY_API fray_status fray_call_set_number(fray_call *c, size_t i, double v)
{
	return set_numeric(c, i, IN_NUMBER, 0, v, "fray_call_set_number");
}

FRAY_API fray_status fray_call_set_bool(fray_call *c, size_t i, bool v)
{
	fray_status st = typed_input(c, i, IN_BOOL, "fray_call_set_bool");
	if (st != FRAY_OK)
		return st;
	c->v[i] = (value){.given = true, .i = v, .x = v};
	return FRAY_OK;
}

FRAY_API fray_status fray_call_set_choice(fray_call *c, size_t i, const char *word)
{
	fray_status st = typed_input(c, i, IN_CHOICE, "fray_call_set_choice");
	if (st != FRAY_OK)
		return st;
	if (!word)
		return frayi_call_bad_at(c, i, "%s expects a value", call_what(c, i));
	st = set_choice(c, i, word);
	if (st == FRAY_OK)
		c->v[i].given = true;
	return st;
}

FRAY_API fray_status fray_call_set_string(fray_call *c, size_t i, const char *text)
{
	fray_status st = typed_input(c, i, IN_STRING, "fray_call_set_string");
	if (st != FRAY_OK)
		return st;
	if (!text)
		return frayi_call_bad_at(c, i, "%s expects a value", call_what(c, i));
	return fray_call_set(c, i, text); /* a string is its own text */
}

FRAY_API fray_status fray_call_outcome_value(const fray_call *c, const int64_t *outcome, const char *name,
					     int64_t *out)
{
	if (!c || !outcome || !out)
		return c ? frayi_fail(c->ctx, FRAY_ERR_INPUT, "fray_call_outcome_value: NULL argument") : FRAY_ERR_INPUT;
	int k = fray_call_outcome_index(c, name);
	if (k < 0) {
		*out = 0;
		if (!c->bound)
			return frayi_fail(c->ctx, FRAY_ERR_INPUT, "%s: no outcome before a roll", c->d->name);
		return frayi_fail(c->ctx, FRAY_ERR_INPUT, "%s has no outcome field '%.80s'", c->d->name,
				 name ? name : "(null)");
	}
	*out = outcome[k];
	return FRAY_OK;
}

FRAY_API const char *fray_call_group_option(const fray_call *c, size_t i, size_t j, char *buf, size_t cap)
{
	const in_group *g = c && i < c->d->nin ? c->d->in[i].group : NULL;
	if (!g || !buf || cap == 0)
		return NULL;
	const char *name = j == 0 ? g->head : j - 1 < 3 ? g->counts[j - 1] : NULL;
	return name ? frayi_call_option_name(name, buf, cap) : NULL;
}

/* "weapon RR: missing --bases N": the open group is not counted. */
static fray_status group_uncounted(fray_call *c)
{
	const in_group *g = c->d->in[c->group_k].group;
	char opt[72];
	return frayi_call_bad_at(c, c->group_k, "%s %s: missing %s N", g->head, c->group_head,
			      frayi_call_option_name(g->counts[c->group_wants - 1], opt, sizeof opt));
}

/* A head: the group opens, once the one before is counted. */
static fray_status group_head(fray_call *c, size_t i, const in_group *g, const char *text)
{
	if (c->group_wants)
		return group_uncounted(c);
	if (c->ngroups == g->max)
		return frayi_call_bad_at(c, i, "at most %d %s groups", g->max, g->head);
	const char *named = text;
	int wants = g->count_of(c, text, &named);
	if (wants < 0)
		return FRAY_ERR_INPUT;
	c->group_k = i;
	c->group_wants = wants + 1;
	c->ngroups++;
	frayi_copy_name(c->group_head, sizeof c->group_head, named);
	return FRAY_OK;
}

/* A count: it closes the open group, which is added to the value. */
static fray_status group_count(fray_call *c, size_t i, const in_group *g, size_t j, const char *opt, const char *text)
{
	char *end;
	long n = strtol(text, &end, 10);
	if (!*text || *end || n < -1000 || n > 1000)
		return frayi_call_bad_at(c, i, "option %s expects a whole number from -1000 to 1000, got '%.200s'", opt,
					 text);
	if (!c->group_wants) {
		char head[72];
		return frayi_call_bad_at(c, i, "%s follows the %s it counts", opt,
				      frayi_call_option_name(g->head, head, sizeof head));
	}
	if (n < 1)
		return frayi_call_bad_at(c, i, "%s expects a count from 1, got %ld", opt, n);
	if ((int)j != c->group_wants - 1) {
		char want[72];
		return frayi_call_bad_at(c, i, "%s %s counts %s: use %s", g->head, c->group_head,
				      g->count_words[c->group_wants - 1],
				      frayi_call_option_name(g->counts[c->group_wants - 1], want, sizeof want));
	}
	value *v = &c->v[i];
	size_t len = v->s ? strlen(v->s) : 0, more = strlen(c->group_head) + 24;
	if (len + more > CALL_MAX_TEXT)
		return frayi_call_bad_at(c, i, "%s: at most %d bytes of groups", frayi_call_opt(c, i), CALL_MAX_TEXT);
	char *s = frayi_alloc(c->ctx, len + more);
	if (!s)
		return frayi_nomem(c->ctx);
	snprintf(s, len + more, "%s%s%s:%ld", v->s ? v->s : "", len ? "," : "", c->group_head, n);
	frayi_dealloc(c->ctx, v->s);
	v->s = s;
	v->given = true;
	c->group_wants = 0;
	return FRAY_OK;
}

FRAY_API fray_status fray_call_group_add(fray_call *c, size_t i, const char *option, const char *text)
{
	if (!c)
		return FRAY_ERR_INPUT;
	fray_ctx_clear(c->ctx);
	const in_group *g = i < c->d->nin ? c->d->in[i].group : NULL;
	if (!g || !option)
		return frayi_fail(c->ctx, FRAY_ERR_INPUT, "input %zu of %s takes no groups", i, c->d->name);
	if (!text)
		return frayi_call_bad_at(c, i, "option %s expects a value", option);
	c->bound = false;
	char opt[72], each[72];
	snprintf(opt, sizeof opt, "%s", option);
	for (size_t j = 0; fray_call_group_option(c, i, j, each, sizeof each); j++)
		if (strcmp(each, opt) == 0)
			return j == 0 ? group_head(c, i, g, text) : group_count(c, i, g, j - 1, opt, text);
	return frayi_fail(c->ctx, FRAY_ERR_INPUT, "%s is no option of %s's groups", option, c->d->name);
}

FRAY_API fray_status fray_call_set_document(fray_call *c, size_t i, const char *name, const char *text, size_t len)
{
	if (!c)
		return FRAY_ERR_INPUT;
	fray_ctx_clear(c->ctx);
	if (i >= c->d->nin || c->d->in[i].type != IN_FILE)
		return frayi_fail(c->ctx, FRAY_ERR_INPUT, "input %zu of %s is not a file", i, c->d->name);
	if (!name || !text)
		return frayi_call_bad_at(c, i, "%s expects a document's name and text", call_what(c, i));
	if (strlen(name) > CALL_MAX_TEXT)
		return frayi_call_bad_at(c, i, "%s: a document's name has at most %d bytes", call_what(c, i),
					 CALL_MAX_TEXT);
	if (len > FRAY_DOC_MAX_BYTES)
		return frayi_fail_input(c->ctx, FRAY_ERR_LIMIT, c->d->in[i].name, "%s: a document has at most %u bytes",
					call_what(c, i), FRAY_DOC_MAX_BYTES);
	c->bound = false;
	value *v = &c->v[i];
	frayi_dealloc(c->ctx, v->s);
	frayi_dealloc(c->ctx, v->text);
	v->s = frayi_strdup(c->ctx, name);
	v->text = frayi_alloc(c->ctx, len + 1);
	if (!v->s || !v->text) {
		frayi_dealloc(c->ctx, v->s);
		frayi_dealloc(c->ctx, v->text);
		v->s = v->text = NULL;
		v->given = false;
		return frayi_nomem(c->ctx);
	}
	memcpy(v->text, text, len);
	v->text[len] = 0;
	v->len = len;
	v->given = true;
	return FRAY_OK;
}

/* path with "." and "dir/.." taken out, by its letters alone, as inside a
 * chroot of the source tree: ".." at the top stays there (a scenario names
 * its CRT as "../../data/adbg/..." from examples/adbg/, and an uploaded
 * copy has lost its folders); false when absolute or too long. */
static bool lexical_path(const char *path, char *out, size_t cap)
{
	size_t n = 0;
	if (!path || path[0] == '/')
		return false;
	for (const char *p = path; *p;) {
		size_t len = strcspn(p, "/");
		if (len == 2 && p[0] == '.' && p[1] == '.') {
			while (n > 0 && out[n - 1] != '/')
				n--;
			if (n > 0)
				n--; /* the slash before the dropped part */
		} else if (len > 0 && !(len == 1 && p[0] == '.')) {
			if (n + len + 2 > cap)
				return false;
			if (n > 0)
				out[n++] = '/';
			memcpy(out + n, p, len);
			n += len;
		}
		p += len;
		p += *p == '/';
	}
	out[n] = 0;
	return n > 0;
}

static const embedded_file *shipped(const char *path)
{
	char clean[256];
	if (!lexical_path(path, clean, sizeof clean))
		return NULL;
	for (const embedded_file *f = frayi_shipped_examples; f->path; f++)
		if (strcmp(f->path, clean) == 0)
			return f;
	return NULL;
}

FRAY_API bool fray_shipped_example(const char *path)
{
	return shipped(path) != NULL;
}

fray_status frayi_shipped_doc(fray_ctx *ctx, const char *path, fray_doc **out)
{
	const embedded_file *f = shipped(path);
	if (!f)
		return frayi_fail(ctx, FRAY_ERR_INPUT, "'%.200s' is not a shipped example", path);
	return fray_doc_load_string(ctx, f->path, (const char *)f->bytes, f->len, out);
}

fray_status frayi_call_open_named(const fray_call *c, fray_ctx *ctx, const char *path, const char *hint,
			    fray_doc **out)
{
	if (!c->no_files)
		return fray_doc_load_file(ctx, path, out);
	if (shipped(path))
		return frayi_shipped_doc(ctx, path, out);
	return frayi_fail(ctx, FRAY_ERR_INPUT, "this service reads no files: '%.200s' is not a shipped example (%s)",
			 path, hint);
}

fray_status frayi_call_load_doc(fray_call *c, size_t k, fray_doc **out)
{
	const value *v = &c->v[k];
	if (v->text)
		return fray_doc_load_string(c->ctx, v->s, v->text, v->len, out);
	if (!c->no_files) /* fray's own tables by name too (--crt example-melee-crt) */
		return frayi_open_named(c->ctx, NULL, NULL, v->s, out);
	if (shipped(v->s))
		return frayi_shipped_doc(c->ctx, v->s, out);
	return frayi_call_bad_at(c, k, "%s: this service reads no files; give the document itself ({\"name\": ..., "
			"\"text\": ...}) or a shipped example (such as examples/adbg/lochry-1781.yaml)",
			call_what(c, k));
}

/* The required inputs not given: the first one's own words when it has
 * them, else every required option as the command line names it. */
static fray_status check_required(fray_call *c)
{
	const proc_desc *d = c->d;
	size_t first = SIZE_MAX, nreq = 0;
	for (size_t k = 0; k < d->nin; k++) {
		nreq += d->in[k].required;
		if (d->in[k].required && !c->v[k].given && first == SIZE_MAX)
			first = k;
	}
	if (first == SIZE_MAX)
		return FRAY_OK;
	if (d->in[first].missing)
		return frayi_call_bad_at(c, first, "missing %s %s", frayi_call_opt(c, first), d->in[first].missing);
	char list[512];
	textbuf t = text_on(list, sizeof list);
	for (size_t k = 0, n = 0; k < d->nin; k++)
		if (d->in[k].required) {
			n++;
			text_add(&t, "%s%s", n == 1 ? "" : n == nreq ? " or " : ", ", frayi_call_opt(c, k));
		}
	return frayi_call_missing(c, first, list);
}

static size_t input_named(const proc_desc *d, const char *name)
{
	for (size_t k = 0; k < d->nin; k++)
		if (strcmp(d->in[k].name, name) == 0)
			return k;
	return SIZE_MAX;
}

/* Two inputs given that cannot go together. */
static fray_status check_excludes(fray_call *c)
{
	const proc_desc *d = c->d;
	for (size_t k = 0; k < d->nin; k++) {
		if (!c->v[k].given || !d->in[k].excludes)
			continue;
		for (const char *const *e = d->in[k].excludes; *e; e++) {
			size_t j = input_named(d, *e);
			if (j != SIZE_MAX && c->v[j].given)
				return frayi_call_bad_at(c, k, "%s and %s: %s", frayi_call_opt(c, k), frayi_call_opt(c, j),
						d->in[k].why_excluded);
		}
	}
	return FRAY_OK;
}

/* Input k's value (or its default) into its field of the input struct. */
static void store_input(fray_call *c, size_t k)
{
	const in_desc *in = &c->d->in[k];
	const value *v = &c->v[k];
	unsigned char *at = c->input + in->at;
	switch (in->ctype) {
	case CT_NONE:
		break;
	case CT_INT: {
		/* the field's own width: an int, an enum (a choice's index),
		 * an int64_t; the descriptor's range fits it */
		int8_t i8 = (int8_t)v->i;
		int16_t i16 = (int16_t)v->i;
		int32_t i32 = (int32_t)v->i;
		const void *src = in->size == 1 ? (const void *)&i8 : in->size == 2 ? (const void *)&i16
				  : in->size == 4 ? (const void *)&i32 : (const void *)&v->i;
		memcpy(at, src, in->size <= 8 ? in->size : 8);
		break;
	}
	case CT_DOUBLE: {
		double x = in->type == IN_NUMBER ? v->x : (double)v->i;
		memcpy(at, &x, sizeof x);
		break;
	}
	case CT_BOOL: {
		bool b = v->i != 0;
		memcpy(at, &b, sizeof b);
		break;
	}
	case CT_CHARS:
		if (in->size > 0)
			frayi_copy_name((char *)at, in->size, v->s ? v->s : "");
		break;
	}
}

/* What the descriptor says of the inputs, done once for every procedure:
 * required, excludes, the input struct filled and the inputs echoed. */
static fray_status bind_generic(fray_call *c)
{
	if (c->group_wants)
		return group_uncounted(c);
	fray_status st = check_required(c);
	if (st == FRAY_OK)
		st = check_excludes(c);
	if (st != FRAY_OK)
		return st;
	memset(c->input, 0, sizeof c->input);
	for (size_t k = 0; k < c->d->nin; k++)
		store_input(c, k);
	frayi_call_echo(c, NULL);
	c->fmt = frayi_fmt_outcome;
	return FRAY_OK;
}

void frayi_fmt_outcome(const fray_call *c, const int64_t *o, fray_format form, textbuf *t)
{
	for (size_t f = 0; f < c->nfields && f < c->d->nout; f++) {
		const out_desc *od = &c->d->out[f];
		bool boolean = strcmp(od->type, "boolean") == 0;
		if (form == FRAY_FORMAT_JSON) {
			text_add(t, "%s\"%s\": ", f ? ", " : "", od->name);
			if (boolean)
				text_add(t, "%s", o[f] ? "true" : "false");
			else
				text_add(t, "%" PRId64, o[f]);
			continue;
		}
		text_add(t, "%s", od->before ? od->before : f ? ", " : "");
		if (boolean)
			text_add(t, "%s", o[f] ? od->yes : od->no);
		else
			text_add(t, "%" PRId64, o[f]);
		text_add(t, "%s", od->after ? od->after : "");
	}
}

FRAY_API fray_status fray_call_check(fray_call *c)
{
	if (!c)
		return FRAY_ERR_INPUT;
	fray_ctx_clear(c->ctx);
	if (c->cleanup)
		c->cleanup(c);
	c->cleanup = NULL;
	fray_status st = c->d->generic ? bind_generic(c) : FRAY_OK;
	if (st == FRAY_OK)
		st = c->d->bind(c);
	c->bound = st == FRAY_OK;
	return st;
}

FRAY_API fray_status fray_call_run(fray_call *c, const fray_call_opts *o, char **out)
{
	if (!c || !o || !out)
		return c ? frayi_fail(c->ctx, FRAY_ERR_INPUT, "fray_call_run: NULL argument") : FRAY_ERR_INPUT;
	*out = NULL;
	if (o->version > FRAY_CALL_OPTS_VERSION)
		return frayi_fail(c->ctx, FRAY_ERR_INPUT, "fray_call_run: options of version %u, newer than this "
				 "library's %u", o->version, FRAY_CALL_OPTS_VERSION);
	static const char *const mode_names[] = {"", "roll", "odds", "", "simulate", "", "", "", "show"};
	if ((o->mode != FRAY_MODE_ROLL && o->mode != FRAY_MODE_ODDS && o->mode != FRAY_MODE_SIMULATE &&
	     o->mode != FRAY_MODE_SHOW) ||
	    !(c->d->modes & (unsigned)o->mode))
		return frayi_call_bad(c, "%s has no %s mode", c->d->name,
				(unsigned)o->mode <= 8 ? mode_names[o->mode] : "such");
	if (o->trials > FRAY_CALL_MAX_TRIALS)
		return frayi_call_bad(c, "at most %u trials", FRAY_CALL_MAX_TRIALS);
	/* a version 0 or 1 caller's struct ends before format: only what it
	 * has is read, and its json says the format */
	fray_call_opts run = {0};
	memcpy(&run, o, o->version >= 2 ? sizeof run : offsetof(fray_call_opts, format));
	if (o->version < 2)
		run.format = o->json ? FRAY_FORMAT_JSON : FRAY_FORMAT_TEXT;
	run.version = FRAY_CALL_OPTS_VERSION;
	char formats[64];
	if (!frayi_call_offers(c, run.mode, run.format, formats, sizeof formats)) {
		const char *name = fray_format_name(run.format);
		return frayi_call_bad(c, "%s has no %s format (formats: %s)", c->d->name, name ? name : "such",
				      formats);
	}
	/* bound once: the files bind reads are not read again */
	fray_status st = c->bound ? FRAY_OK : fray_call_check(c);
	if (st != FRAY_OK)
		return st;
	fray_ctx_clear(c->ctx);
	strbuf sb = {.ctx = c->ctx};
	st = frayi_render_call(c, &run, &sb);
	if (st != FRAY_OK) {
		frayi_sb_free(&sb);
		return st;
	}
	return frayi_sb_give(&sb, c->ctx, out);
}

void frayi_call_title(fray_call *c, const char *fmt, ...)
{
	textbuf t = text_on(c->title, sizeof c->title);
	va_list ap;
	va_start(ap, fmt);
	text_vadd(&t, fmt, ap);
	va_end(ap);
}

void frayi_call_echo(fray_call *c, const char *extra, ...)
{
	textbuf t = text_on(c->inputs_json, sizeof c->inputs_json);
	const char *sep = "";
	text_add(&t, "{");
	for (size_t k = 0; k < c->d->nin; k++) {
		const in_desc *in = &c->d->in[k];
		const value *v = &c->v[k];
		/* what was not given and has no default is left out */
		bool unset = in->type == IN_STRING || in->type == IN_FILE ||
			     (in->type == IN_INT && (in->def < in->min || in->def > in->max)) ||
			     (in->type == IN_CHOICE && (in->def < 0 || (size_t)in->def >= in->nchoices));
		if (unset && !v->given)
			continue;
		text_add(&t, "%s\"%s\": ", sep, in->name);
		sep = ", ";
		switch (in->type) {
		case IN_INT:
			text_add(&t, "%" PRId64, v->i);
			break;
		case IN_NUMBER:
			text_add(&t, "%g", v->x);
			break;
		case IN_BOOL:
			text_add(&t, "%s", v->i ? "true" : "false");
			break;
		case IN_CHOICE:
			text_add(&t, "\"%s\"", in->choices[v->i]);
			break;
		case IN_STRING:
		case IN_FILE: {
			char quoted[8 * CALL_MAX_TEXT];
			if (fray_json_string(v->s, quoted, sizeof quoted) >= sizeof quoted)
				fray_json_string("(too long)", quoted, sizeof quoted);
			text_add(&t, "%s", quoted);
			break;
		}
		}
	}
	if (extra) {
		char more[1024];
		va_list ap;
		va_start(ap, extra);
		vsnprintf(more, sizeof more, extra, ap);
		va_end(ap);
		text_add(&t, "%s%s", sep, more);
	}
	text_add(&t, "}");
}

FRAY_API size_t fray_call_noutcome(const fray_call *c)
{
	return c ? c->d->nout : 0;
}

FRAY_API int fray_call_outcome_index(const fray_call *c, const char *name)
{
	/* a descriptor lists the procedure's fields first, in their order,
	 * then what its renderer derives from them */
	for (size_t i = 0; c && c->bound && name && i < c->d->nout && i < c->nfields; i++)
		if (strcmp(c->d->out[i].name, name) == 0)
			return (int)i;
	return -1;
}

FRAY_API int fray_call_input_index(const fray_call *c, const char *option)
{
	for (size_t i = 0; c && option && i < c->d->nin; i++) {
		char name[72], alias_buf[72];
		const char *alias = fray_call_alias(c, i, alias_buf, sizeof alias_buf);
		if (strcmp(frayi_call_option_name(c->d->in[i].name, name, sizeof name), option) == 0 ||
		    (alias && strcmp(alias, option) == 0))
			return (int)i;
	}
	return -1;
}
