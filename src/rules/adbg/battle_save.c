/* A saved quick battle (ADBG 19): the save file's text written and read
 * back, every field checked so that a tampered or foreign file is refused
 * with its file:line:col, never resumed wrong (include/fray/adbg_save.h). */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fray/adbg_save.h>
#include <fray/events.h>
#include "../../core/internal.h"

/* A text growing in the context's memory; failed once memory ran out. */
typedef struct save_buf {
	fray_ctx *ctx;
	char *buf;
	size_t len, cap;
	bool failed;
} save_buf;

static bool reserve(save_buf *b, size_t more)
{
	if (b->failed)
		return false;
	if (b->len + more + 1 <= b->cap)
		return true;
	size_t cap = b->cap ? b->cap : 1024;
	while (cap < b->len + more + 1)
		cap *= 2;
	char *p = frayi_realloc(b->ctx, b->buf, cap);
	if (!p) {
		b->failed = true;
		return false;
	}
	b->buf = p;
	b->cap = cap;
	return true;
}

static void put(save_buf *b, const char *fmt, ...) FRAY_PRINTF(2, 3);
static void put(save_buf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || !reserve(b, (size_t)n))
		return;
	va_start(ap, fmt);
	vsnprintf(b->buf + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

/* s as a JSON string ("..." with its escapes). */
static void put_json(save_buf *b, const char *s)
{
	size_t n = fray_json_string(s, NULL, 0);
	if (!reserve(b, n))
		return;
	fray_json_string(s, b->buf + b->len, n + 1);
	b->len += n;
}

/* Whether the path can be written as a JSON string a save reads back: it
 * loads as a document (valid UTF-8, nothing YAML refuses). -1: out of
 * memory. */
static int path_reads(fray_ctx *ctx, const char *path)
{
	fray_status before = fray_ctx_status(ctx);
	fray_doc *doc = NULL;
	fray_status st = fray_doc_load_string(ctx, "path", path, strlen(path), &doc);
	fray_doc_free(doc);
	if (st == FRAY_ERR_NOMEM)
		return -1;
	if (st != FRAY_OK && before == FRAY_OK)
		fray_ctx_clear(ctx); /* a path that does not load is no failure: it is saved as bytes */
	return st == FRAY_OK;
}

/* A path as it is written in a save: a JSON string when it is UTF-8 (most
 * are), else its bytes in hexadecimal. */
static void put_path(save_buf *b, const char *path)
{
	int reads = path_reads(b->ctx, path);
	if (reads < 0) {
		b->failed = true;
		return;
	}
	if (reads) {
		put(b, "scenario: ");
		put_json(b, path);
		put(b, "\n");
		return;
	}
	put(b, "scenario_bytes: \"");
	for (const unsigned char *u = (const unsigned char *)path; *u; u++)
		put(b, "%02x", *u);
	put(b, "\"\n");
}

static void put_state(save_buf *b, const fray_adbg_battle_state *st)
{
	size_t n = fray_adbg_battle_save(st, NULL, 0);
	if (!reserve(b, n))
		return;
	fray_adbg_battle_save(st, b->buf + b->len, n + 1);
	b->len += n;
}

FRAY_API fray_status fray_adbg_save_text(fray_ctx *ctx, const fray_adbg_save *sv, const fray_adbg_battle_state *st,
					 char **out, size_t *len)
{
	*out = NULL;
	*len = 0;
	save_buf b = {.ctx = ctx};
	put(&b, "# fray saved battle: go on with `fray adbg resume FILE`\n"
	    "fray_save: %d\nkind: adbg.battle\n", FRAY_ADBG_SAVE_VERSION);
	put_path(&b, sv->scenario);
	put(&b, "scenario_fnv1a: \"%016" PRIx64 "\"\npolicy_fnv1a: \"%016" PRIx64 "\"\nseed: %" PRIu64 "\n",
	    sv->scenario_digest, sv->policy_digest, sv->seed);
	const char *const policies[][2] = {{"policy", sv->policy}, {"policy_a", sv->policy_a},
					    {"policy_b", sv->policy_b}};
	for (size_t i = 0; i < 3; i++) {
		put(&b, "%s: ", policies[i][0]);
		put_json(&b, policies[i][1]);
		put(&b, "\n");
	}
	put(&b, "policy_position: %" PRIu64 "\ndice_position: %" PRIu64 "\n", sv->policy_position,
	    sv->dice_position);
	put_state(&b, st);
	if (b.failed || !reserve(&b, 0)) {
		frayi_dealloc(ctx, b.buf);
		return frayi_nomem(ctx);
	}
	char *text = b.buf;
	if (!frayi_ctx_mallocs(ctx)) {
		/* the caller frees with free(): a copy from malloc */
		text = malloc(b.len + 1);
		if (text)
			memcpy(text, b.buf, b.len + 1);
		frayi_dealloc(ctx, b.buf);
		if (!text)
			return frayi_nomem(ctx);
	}
	*out = text;
	*len = b.len;
	return FRAY_OK;
}

/* ---- reading back ---- */

/* The path of scenario_bytes (hexadecimal) into dst; false when malformed
 * (true also when n is no string: that is already recorded on doc). */
static bool read_path_bytes(fray_doc *doc, const fray_node *n, char *dst, size_t cap)
{
	const char *hex;
	if (!fray_doc_string(doc, n, "the scenario's path", &hex))
		return true;
	size_t len = strlen(hex);
	if (len == 0 || len % 2 || len / 2 >= cap)
		return false;
	for (size_t i = 0; i < len / 2; i++) {
		unsigned v;
		if (sscanf(hex + 2 * i, "%2x", &v) != 1 || !v || !isxdigit((unsigned char)hex[2 * i]) ||
		    !isxdigit((unsigned char)hex[2 * i + 1]))
			return false;
		dst[i] = (char)v;
	}
	dst[len / 2] = '\0';
	return true;
}

static void read_scenario(fray_doc *doc, const fray_node *root, fray_adbg_save *sv)
{
	const fray_node *n;
	const char *str;
	if ((n = fray_map_get(root, "scenario_bytes"))) {
		if (!read_path_bytes(doc, n, sv->scenario, sizeof sv->scenario))
			fray_doc_error(doc, n, "expected the scenario's path as hexadecimal bytes");
	} else if ((n = fray_doc_field(doc, root, "scenario", true)) &&
		   fray_doc_string(doc, n, "the scenario", &str)) {
		if (strlen(str) >= sizeof sv->scenario)
			fray_doc_error(doc, n, "a path longer than %zu bytes", sizeof sv->scenario - 1);
		else
			snprintf(sv->scenario, sizeof sv->scenario, "%s", str);
	}
}

/* A string field into dst (kept when absent or not a string); one longer
 * than dst holds is refused, never cut: a cut policy spec would resume
 * with another policy than the one saved. */
static void read_text(fray_doc *doc, const fray_node *root, const char *key, bool required, const char *what,
		      char *dst, size_t cap)
{
	const fray_node *n = fray_doc_field(doc, root, key, required);
	const char *s;
	if (!n || !fray_doc_string(doc, n, what, &s))
		return;
	if (strlen(s) >= cap)
		fray_doc_error(doc, n, "expected %s of at most %zu bytes, found %zu", what, cap - 1, strlen(s));
	else
		snprintf(dst, cap, "%s", s);
}

/* A count written with PRIu64: any 64-bit number (--seed takes up to
 * 2^64 - 1), digits only. */
static void read_count(fray_doc *doc, const fray_node *root, const char *key, const char *what, uint64_t *out)
{
	const fray_node *n = fray_doc_field(doc, root, key, true);
	if (!n)
		return;
	const char *t = fray_node_kind_of(n) == FRAY_NODE_SCALAR ? fray_node_scalar(n) : NULL;
	char *end = NULL;
	errno = 0;
	unsigned long long v = t && *t >= '0' && *t <= '9' ? strtoull(t, &end, 10) : 0;
	if (!end || *end || errno) {
		fray_doc_error(doc, n, "expected %s, a whole number from 0 to %" PRIu64, what, UINT64_MAX);
		return;
	}
	*out = (uint64_t)v;
}

/* "fray_save" (the version): FRAY_OK when it is this fray's format. */
static fray_status read_version(fray_ctx *ctx, fray_doc *doc, const fray_node *root)
{
	if (!root || fray_node_kind_of(root) != FRAY_NODE_MAP || !fray_map_get(root, "fray_save"))
		return frayi_fail(ctx, FRAY_ERR_INPUT, "%s:1:1: expected a fray save file", fray_doc_name(doc));
	const fray_node *n = fray_map_get(root, "fray_save");
	int64_t version = 0;
	if (!fray_doc_int(doc, n, 1, 1000000, "a save format version", &version) ||
	    version != FRAY_ADBG_SAVE_VERSION)
		return frayi_fail(ctx, FRAY_ERR_INPUT, "%s:%d:%d: save format version %s is not one this fray reads "
				 "(version %d)", fray_doc_name(doc), fray_node_line(n), fray_node_col(n),
				 fray_node_scalar(n) ? fray_node_scalar(n) : "?", FRAY_ADBG_SAVE_VERSION);
	return FRAY_OK;
}

FRAY_API fray_status fray_adbg_save_read(fray_ctx *ctx, fray_doc *doc, fray_adbg_save *sv)
{
	memset(sv, 0, sizeof *sv);
	snprintf(sv->policy, sizeof sv->policy, "heuristic");
	const fray_node *root = fray_doc_root(doc), *n;
	fray_status st = read_version(ctx, doc, root);
	if (st != FRAY_OK)
		return st;
	/* the state's keys (round ... sides) are fray_adbg_battle_restore's */
	static const char *const keys[] = {"fray_save", "kind", "scenario", "scenario_bytes",
					   "scenario_fnv1a", "policy_fnv1a", "seed", "policy", "policy_a",
					   "policy_b", "policy_position", "dice_position", "round", "rounds",
					   "positions", "sides"};
	fray_doc_known_keys(doc, root, keys, sizeof keys / sizeof keys[0]);
	const char *kind;
	if ((n = fray_doc_field(doc, root, "kind", true)) && fray_doc_string(doc, n, "the kind of save", &kind) &&
	    strcmp(kind, "adbg.battle") != 0)
		fray_doc_error(doc, n, "expected kind adbg.battle, found '%s'", kind);
	read_scenario(doc, root, sv);
	read_text(doc, root, "scenario_fnv1a", true, "the scenario's digest", sv->scenario_fnv1a,
		  sizeof sv->scenario_fnv1a);
	read_text(doc, root, "policy_fnv1a", true, "the policy scripts' digest", sv->policy_fnv1a,
		  sizeof sv->policy_fnv1a);
	read_count(doc, root, "seed", "the seed", &sv->seed);
	read_text(doc, root, "policy", true, "the policy", sv->policy, sizeof sv->policy);
	read_text(doc, root, "policy_a", false, "side 1's policy", sv->policy_a, sizeof sv->policy_a);
	read_text(doc, root, "policy_b", false, "side 2's policy", sv->policy_b, sizeof sv->policy_b);
	read_count(doc, root, "policy_position", "the policy's position", &sv->policy_position);
	read_count(doc, root, "dice_position", "the dice position", &sv->dice_position);
	if (fray_doc_error_count(doc))
		return FRAY_ERR_INPUT; /* the problems are the doc's, the context is left clear */
	return fray_doc_status(doc); /* FRAY_ERR_NOMEM when a reader ran out of memory */
}

/* A digest as written (16 hexadecimal digits); a text cut when read is
 * longer than 16 and so never matches. */
static bool same_digest(const char *text, uint64_t digest)
{
	char want[24];
	snprintf(want, sizeof want, "%016" PRIx64, digest);
	return strcmp(text, want) == 0;
}

FRAY_API bool fray_adbg_save_same_scenario(const fray_adbg_save *sv, uint64_t scenario_digest)
{
	return same_digest(sv->scenario_fnv1a, scenario_digest);
}

FRAY_API bool fray_adbg_save_same_policy(const fray_adbg_save *sv, uint64_t policy_digest)
{
	return same_digest(sv->policy_fnv1a, policy_digest);
}
