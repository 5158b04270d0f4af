/* fray_request: one JSON request in, the command line's --json out. The
 * request is read by the data reader (size, depth and node limits, no
 * aliases, no duplicate keys) and every value is type-checked before it
 * reaches a procedure. */
#include <errno.h>
#include <stdarg.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "catalog.h"
#include "../core/names.h"

/* A refusal that points at node n of the request (NULL: the whole) and
 * names the input or member it is about (NULL: none; fray_ctx_input). */
static fray_status vat(fray_ctx *ctx, const fray_node *n, const char *input, const char *fmt, va_list ap)
	FRAY_PRINTF(4, 0);
static fray_status vat(fray_ctx *ctx, const fray_node *n, const char *input, const char *fmt, va_list ap)
{
	char msg[FRAY_MSG_MAX];
	vsnprintf(msg, sizeof msg, fmt, ap);
	if (!n)
		return frayi_fail_input(ctx, FRAY_ERR_INPUT, input, "request: %s", msg);
	return frayi_fail_input(ctx, FRAY_ERR_INPUT, input, "request:%d:%d: %s", fray_node_line(n), fray_node_col(n),
				msg);
}

static fray_status at(fray_ctx *ctx, const fray_node *n, const char *fmt, ...) FRAY_PRINTF(3, 4);
static fray_status at(fray_ctx *ctx, const fray_node *n, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fray_status st = vat(ctx, n, NULL, fmt, ap);
	va_end(ap);
	return st;
}

static fray_status at_in(fray_ctx *ctx, const fray_node *n, const char *input, const char *fmt, ...)
	FRAY_PRINTF(4, 5);
static fray_status at_in(fray_ctx *ctx, const fray_node *n, const char *input, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fray_status st = vat(ctx, n, input, fmt, ap);
	va_end(ap);
	return st;
}

/* A JSON string: a scalar written in quotes. */
static const char *string_of(const fray_node *n)
{
	if (!n || fray_node_kind_of(n) != FRAY_NODE_SCALAR || fray_node_plain(n))
		return NULL;
	return fray_node_scalar(n);
}

/* A JSON number or true/false/null: a scalar without quotes. */
static const char *plain_of(const fray_node *n)
{
	if (!n || fray_node_kind_of(n) != FRAY_NODE_SCALAR || !fray_node_plain(n))
		return NULL;
	return fray_node_scalar(n);
}

/* A file input given as the document: {"name": ..., "text": ...}. */
static fray_status set_document(fray_call *c, size_t k, const fray_node *val)
{
	const char *name = NULL, *text = NULL;
	for (size_t j = 0; j < fray_node_len(val); j++) {
		const fray_node *key = fray_node_key(val, j), *v = fray_node_value(val, j);
		const char *kn = string_of(key);
		if (kn && !strcmp(kn, "name") && string_of(v))
			name = string_of(v);
		else if (kn && !strcmp(kn, "text") && string_of(v))
			text = string_of(v);
		else
			return at_in(c->ctx, key, c->d->in[k].name, "inputs.%s: a document is {\"name\": STRING, \"text\": STRING}",
				  c->d->in[k].name);
	}
	if (!name || !text)
		return at_in(c->ctx, val, c->d->in[k].name, "inputs.%s: a document is {\"name\": STRING, \"text\": STRING}",
			  c->d->in[k].name);
	fray_status st = fray_call_set_document(c, k, name, text, strlen(text));
	if (st != FRAY_ERR_INPUT)
		return st;
	char msg[FRAY_MSG_MAX];
	snprintf(msg, sizeof msg, "%s", fray_ctx_message(c->ctx));
	fray_ctx_clear(c->ctx);
	return at_in(c->ctx, val, c->d->in[k].name, "%s", msg);
}

static fray_status set_input(fray_call *c, const fray_node *key, const fray_node *val, unsigned flags)
{
	const char *name = fray_node_scalar(key);
	const proc_desc *d = c->d;
	size_t k = 0;
	while (k < d->nin && strcmp(d->in[k].name, name) != 0)
		k++;
	if (k == d->nin) {
		const char *names[CALL_MAX_INPUTS];
		for (size_t j = 0; j < d->nin; j++)
			names[j] = d->in[j].name;
		size_t near = frayi_nearest_name(name, names, d->nin);
		if (near != SIZE_MAX)
			return at(c->ctx, key, "unknown input '%.80s' (did you mean '%s'?)", name, names[near]);
		return at(c->ctx, key, "unknown input '%.80s' for %s", name, d->name);
	}
	const in_desc *in = &d->in[k];
	const char *text = NULL;
	if (in->type == IN_FILE && fray_node_kind_of(val) == FRAY_NODE_MAP)
		return set_document(c, k, val);
	if (in->type == IN_FILE && (flags & FRAY_REQUEST_NO_FILES) && !fray_shipped_example(string_of(val)))
		return at_in(c->ctx, val, c->d->in[k].name, "inputs.%s: this service reads no files: give the document itself "
			  "({\"name\": ..., \"text\": ...}) or a shipped example such as "
			  "\"examples/adbg/lochry-1781.yaml\"", name);
	switch (in->type) {
	case IN_INT:
	case IN_NUMBER:
		text = plain_of(val);
		if (!text || !strcmp(text, "true") || !strcmp(text, "false") || !strcmp(text, "null"))
			return at_in(c->ctx, val, c->d->in[k].name, "inputs.%s: expected a number", name);
		break;
	case IN_BOOL:
		text = plain_of(val);
		if (!text || (strcmp(text, "true") != 0 && strcmp(text, "false") != 0))
			return at_in(c->ctx, val, c->d->in[k].name, "inputs.%s: expected true or false", name);
		break;
	case IN_CHOICE:
	case IN_STRING:
	case IN_FILE:
		text = string_of(val);
		if (!text)
			return at_in(c->ctx, val, c->d->in[k].name, "inputs.%s: expected a string", name);
		break;
	}
	fray_status st = fray_call_set(c, k, text);
	if (st != FRAY_ERR_INPUT) /* FRAY_OK, or out of memory: as it is */
		return st;
	char msg[FRAY_MSG_MAX];
	snprintf(msg, sizeof msg, "%s", fray_ctx_message(c->ctx));
	fray_ctx_clear(c->ctx);
	return at_in(c->ctx, val, c->d->in[k].name, "%s", msg);
}

static fray_status read_seed(fray_ctx *ctx, const fray_node *n, uint64_t *seed)
{
	const char *text = plain_of(n);
	char *end;
	errno = 0;
	if (text && *text >= '0' && *text <= '9') {
		unsigned long long x = strtoull(text, &end, 10);
		if (!*end && !errno) {
			*seed = x;
			return FRAY_OK;
		}
	}
	return at_in(ctx, n, "seed", "seed: expected a whole number from 0 to 18446744073709551615");
}

static fray_status run_request(fray_ctx *ctx, const fray_node *root, const fray_request_opts *ro,
			       char **response)
{
	unsigned flags = ro->flags;
	bool quick = flags & FRAY_REQUEST_QUICK;
	if (!root || fray_node_kind_of(root) != FRAY_NODE_MAP)
		return at(ctx, root, "expected a request object {\"procedure\": ..., \"inputs\": {...}}");
	const fray_node *proc = NULL, *mode = NULL, *inputs = NULL, *seed = NULL, *trials = NULL, *format = NULL;
	for (size_t k = 0; k < fray_node_len(root); k++) {
		const fray_node *key = fray_node_key(root, k), *val = fray_node_value(root, k);
		const char *name = string_of(key);
		if (!name)
			return at(ctx, key, "expected a string key");
		if (!strcmp(name, "procedure"))
			proc = val;
		else if (!strcmp(name, "mode"))
			mode = val;
		else if (!strcmp(name, "inputs"))
			inputs = val;
		else if (!strcmp(name, "seed"))
			seed = val;
		else if (!strcmp(name, "trials"))
			trials = val;
		else if (!strcmp(name, "format"))
			format = val;
		else
			return at(ctx, key, "unknown key '%.80s' (keys: procedure, mode, inputs, seed, trials, format)",
				  name);
	}
	if (!proc)
		return at_in(ctx, root, "procedure", "missing \"procedure\"");
	const char *pname = string_of(proc);
	if (!pname)
		return at_in(ctx, proc, "procedure", "procedure: expected a string such as \"adbg.fire\"");
	fray_call_opts o = {.version = FRAY_CALL_OPTS_VERSION, .format = FRAY_FORMAT_JSON, .have_seed = true};
	if (format) {
		/* a procedure renders text or JSON (fray_call_run); the other
		 * formats' names are refused here with the same words */
		const char *f = string_of(format);
		fray_format named;
		if (!f || fray_format_parse(f, &named) != FRAY_OK ||
		    (named != FRAY_FORMAT_JSON && named != FRAY_FORMAT_TEXT))
			return at_in(ctx, format, "format", "format: expected \"json\" or \"text\"");
		o.format = named;
	}
	const char *mname = mode ? string_of(mode) : NULL;
	if (mode && (!mname || (strcmp(mname, "roll") != 0 && strcmp(mname, "odds") != 0 &&
				strcmp(mname, "simulate") != 0)))
		return at_in(ctx, mode, "mode", "mode: expected \"roll\", \"odds\" or \"simulate\"");
	o.mode = !mname ? 0 : !strcmp(mname, "odds") ? FRAY_MODE_ODDS
		 : !strcmp(mname, "simulate") ? FRAY_MODE_SIMULATE : FRAY_MODE_ROLL;
	if (seed) {
		if (o.mode == FRAY_MODE_ODDS)
			return at_in(ctx, seed, "seed", "seed: odds roll no dice");
		fray_status st = read_seed(ctx, seed, &o.seed);
		if (st != FRAY_OK)
			return st;
	}
	if (trials) {
		const char *t = plain_of(trials);
		unsigned long long n = 0;
		bool whole = false;
		if (t && *t >= '0' && *t <= '9') {
			char *end;
			errno = 0;
			n = strtoull(t, &end, 10);
			whole = !*end && !errno;
		}
		uint64_t most = ro->max_trials ? ro->max_trials : quick ? FRAY_REQUEST_QUICK_TRIALS : FRAY_CALL_MAX_TRIALS;
		if (most > FRAY_CALL_MAX_TRIALS)
			most = FRAY_CALL_MAX_TRIALS;
		if (!whole || n < 1 || n > most) {
			return at_in(ctx, trials, "trials", "trials: expected a whole number from 1 to %" PRIu64, most);
		}
		o.trials = n;
	}
	o.max_paths = ro->max_paths ? ro->max_paths : quick ? FRAY_REQUEST_QUICK_PATHS : 0;
	o.max_bytes = ro->max_bytes;
	o.stop = ro->stop;
	o.progress = ro->progress;
	o.ud = ro->ud;
	if (inputs && fray_node_kind_of(inputs) != FRAY_NODE_MAP)
		return at_in(ctx, inputs, "inputs", "inputs: expected an object");
	fray_call *c = fray_call_new(ctx, pname);
	if (!c && fray_ctx_status(ctx) != FRAY_ERR_INPUT)
		return fray_ctx_status(ctx);
	if (!c) {
		char msg[FRAY_MSG_MAX];
		snprintf(msg, sizeof msg, "%s", fray_ctx_message(ctx));
		fray_ctx_clear(ctx);
		return at_in(ctx, proc, "procedure", "%s", msg);
	}
	c->from_json = true;
	c->no_files = flags & FRAY_REQUEST_NO_FILES;
	if (!o.mode) /* the procedure's first mode */
		o.mode = c->d->modes & FRAY_MODE_ROLL ? FRAY_MODE_ROLL
			 : c->d->modes & FRAY_MODE_ODDS ? FRAY_MODE_ODDS
			 : c->d->modes & FRAY_MODE_SIMULATE ? FRAY_MODE_SIMULATE : FRAY_MODE_SHOW; /* a listing */
	if (trials && o.mode != FRAY_MODE_SIMULATE && !(o.mode == FRAY_MODE_ODDS && c->d->odds_may_simulate)) {
		bool may = c->d->odds_may_simulate;
		fray_call_free(c);
		return at_in(ctx, trials, "trials", "trials: for \"simulate\"%s",
			  may ? " and \"odds\" (when they fall back to a simulation)" : "");
	}
	if (quick && !o.trials) /* the default, within the budget */
		o.trials = ro->max_trials && ro->max_trials < FRAY_REQUEST_QUICK_TRIALS ? ro->max_trials
			   : FRAY_REQUEST_QUICK_TRIALS;
	fray_status st = FRAY_OK;
	for (size_t k = 0; inputs && k < fray_node_len(inputs) && st == FRAY_OK; k++) {
		const fray_node *key = fray_node_key(inputs, k);
		if (!string_of(key))
			st = at(ctx, key, "inputs: expected a string key");
		else
			st = set_input(c, key, fray_node_value(inputs, k), flags);
	}
	if (st == FRAY_OK)
		st = fray_call_run(c, &o, response);
	fray_call_free(c);
	return st;
}

FRAY_API fray_status fray_request(fray_ctx *ctx, const char *request_json, char **response_json)
{
	return fray_request_flags(ctx, request_json, 0, response_json);
}

FRAY_API fray_status fray_request_flags(fray_ctx *ctx, const char *request_json, unsigned flags,
					char **response_json)
{
	fray_request_opts ro = {.flags = flags};
	return fray_request_with(ctx, request_json, &ro, response_json);
}

FRAY_API fray_status fray_request_with(fray_ctx *ctx, const char *request_json, const fray_request_opts *ro,
				       char **response_json)
{
	if (!ctx)
		return FRAY_ERR_INPUT;
	fray_ctx_clear(ctx);
	if (!response_json)
		return frayi_fail(ctx, FRAY_ERR_INPUT, "fray_request: response_json is NULL");
	*response_json = NULL;
	if (!request_json)
		return frayi_fail(ctx, FRAY_ERR_INPUT, "fray_request: request_json is NULL");
	if (ro && ro->version > FRAY_REQUEST_OPTS_VERSION)
		return frayi_fail(ctx, FRAY_ERR_INPUT, "fray_request_with: options of version %u, newer than this "
				 "library's %u", ro->version, FRAY_REQUEST_OPTS_VERSION);
	size_t len = strnlen(request_json, (size_t)FRAY_REQUEST_MAX_BYTES + 1);
	if (len > FRAY_REQUEST_MAX_BYTES)
		return frayi_fail(ctx, FRAY_ERR_INPUT, "request: larger than %u bytes", FRAY_REQUEST_MAX_BYTES);
	fray_doc *doc;
	fray_status st = fray_doc_load_string(ctx, "request", request_json, len, &doc);
	if (st != FRAY_OK)
		return st;
	static const fray_request_opts none;
	st = run_request(ctx, fray_doc_root(doc), ro ? ro : &none, response_json);
	fray_doc_free(doc);
	if (st != FRAY_OK) {
		free(*response_json);
		*response_json = NULL;
	}
	return st;
}
