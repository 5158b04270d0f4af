/* The reader's memory on hostile documents of 1 MiB (the largest body
 * fray serve takes): whatever the text, reading it (and refusing it) must
 * stay within a small multiple of its size. libfyaml held every token of
 * a flow collection before the reader saw the first (a line of a million
 * "[" cost ~290 MiB); the pre-scan in src/core/data.c refuses such text
 * before libfyaml reads it. The heap is sampled by a second thread while
 * the document is read: ASan's count of the bytes allocated, or glibc's
 * mallinfo2 without ASan. */
#include <malloc.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>
#include <fray/fray.h>

#if defined(__SANITIZE_ADDRESS__)
size_t __sanitizer_get_current_allocated_bytes(void);
static size_t heap_now(void) { return __sanitizer_get_current_allocated_bytes(); }
#else
static size_t heap_now(void) { return mallinfo2().uordblks; }
#endif

/* The bound stated in docs/design.md: 16 times the text, and 16 MiB. */
#define BOUND(len) (16 * (len) + (16u << 20))

static atomic_bool sampling;
static atomic_size_t peak;

static void *sampler(void *unused)
{
	(void)unused;
	while (atomic_load(&sampling)) {
		size_t now = heap_now();
		if (now > atomic_load(&peak))
			atomic_store(&peak, now);
		nanosleep(&(struct timespec){0, 100 * 1000}, NULL);
	}
	return NULL;
}

/* The most the heap grew while text was read; *st its status. */
static size_t read_peak(const char *text, size_t len, fray_status *st, char *msg, size_t cap)
{
	fray_ctx *ctx = fray_ctx_new(NULL, NULL);
	assert_non_null(ctx);
	size_t base = heap_now();
	atomic_store(&peak, base);
	atomic_store(&sampling, true);
	pthread_t t;
	assert_int_equal(pthread_create(&t, NULL, sampler, NULL), 0);
	fray_doc *doc = NULL;
	*st = fray_doc_load_string(ctx, "hostile.json", text, len, &doc);
	size_t after = heap_now(); /* the tree, if read */
	if (after > atomic_load(&peak))
		atomic_store(&peak, after);
	atomic_store(&sampling, false);
	pthread_join(t, NULL);
	snprintf(msg, cap, "%s", fray_ctx_message(ctx));
	fray_doc_free(doc);
	fray_ctx_free(ctx);
	return atomic_load(&peak) - base;
}

/* A text of about n bytes: head, then body repeated, then tail. */
static char *repeated(const char *head, const char *body, const char *tail, size_t n, size_t *len)
{
	size_t hl = strlen(head), bl = strlen(body), tl = strlen(tail);
	size_t times = (n - hl - tl) / bl;
	char *s = malloc(hl + times * bl + tl + 1);
	assert_non_null(s);
	memcpy(s, head, hl);
	for (size_t i = 0; i < times; i++)
		memcpy(s + hl + i * bl, body, bl);
	memcpy(s + hl + times * bl, tail, tl + 1);
	*len = hl + times * bl + tl;
	return s;
}

/* 64 lines each opening a list of values inside the last: every token
 * was held. */
static char *nested_lines(size_t values_a_line, size_t lines, size_t *len)
{
	size_t cap = lines * (values_a_line * 3 + 4) + lines + 16;
	char *s = malloc(cap), *o = s;
	assert_non_null(s);
	for (size_t l = 0; l < lines; l++) {
		*o++ = '[';
		for (size_t v = 0; v < values_a_line; v++)
			o += sprintf(o, "1, ");
		*o++ = '\n';
	}
	for (size_t l = 0; l < lines; l++)
		*o++ = ']';
	*o = 0;
	*len = (size_t)(o - s);
	return s;
}

static void check(const char *what, char *text, size_t len, fray_status want, const char *says)
{
	fray_status st;
	char msg[512];
	size_t grew = read_peak(text, len, &st, msg, sizeof msg);
	printf("  %-28s %7zu KiB: heap grew %6zu KiB (bound %zu KiB): %.100s\n", what, len >> 10, grew >> 10,
	       (size_t)BOUND(len) >> 10, st == FRAY_OK ? "read" : msg);
	if (st != want || (says && !strstr(msg, says)))
		fail_msg("%s: status %d, %s", what, (int)st, msg);
	if (grew > BOUND(len))
		fail_msg("%s: the heap grew %zu KiB reading %zu KiB (bound %zu KiB)", what, grew >> 10, len >> 10,
			 (size_t)BOUND(len) >> 10);
	free(text);
}

static void hostile_documents(void **state)
{
	(void)state;
	const size_t mib = 1u << 20;
	size_t len;
	char *s;
	s = repeated("", "[", "", mib, &len);
	check("a million brackets", s, len, FRAY_ERR_INPUT, "nested too deeply");
	s = repeated("\xEF\xBB\xBF", "[", "", mib, &len); /* libfyaml skips a byte-order mark */
	check("a BOM, then brackets", s, len, FRAY_ERR_INPUT, "nested too deeply");
	s = repeated("%YAML 1.1\n---\na:\xC2\x85", "[", "", mib, &len); /* NEL: a line break in YAML 1.1 */
	check("NEL, then brackets", s, len, FRAY_ERR_INPUT, NULL);
	s = repeated("x: ", "[", "", mib, &len);
	check("brackets as a value", s, len, FRAY_ERR_INPUT, "nested too deeply");
	s = repeated("[", "1,", "1]", mib, &len);
	check("half a million values", s, len, FRAY_ERR_INPUT, "more than 32768 values");
	s = repeated("{", "\"k\": 1, ", "\"z\": 1}", mib, &len);
	check("a map on one line", s, len, FRAY_ERR_INPUT, "more than 32768 values");
	s = repeated("{", "k: v, ", "z: 1}", mib, &len);
	check("a YAML flow map", s, len, FRAY_ERR_INPUT, "more than 32768 values");
	s = repeated("a: ", "&x ", "1", mib, &len);
	check("anchors on one line", s, len, FRAY_ERR_INPUT, NULL);
	s = repeated("", "[\n", "", mib, &len);
	check("brackets a line each", s, len, FRAY_ERR_INPUT, "nested too deeply");
	s = repeated("", "[\"]\", 1, 1, 1, 1, 1, 1, 1, 1\n", "", mib, &len);
	check("quoted closers a line each", s, len, FRAY_ERR_INPUT, NULL);
	s = nested_lines(4000, 64, &len);
	check("64 nested lines", s, len, FRAY_ERR_INPUT, "more than 32768 values");
	s = nested_lines(100, 3000, &len);
	check("3000 nested lines", s, len, FRAY_ERR_INPUT, NULL);
	s = repeated("[\n", "1,\n", "1]", mib, &len);
	check("values a line each", s, len, FRAY_ERR_INPUT, "too many values");
	s = repeated("", "- 1\n", "", mib, &len);
	check("a block list", s, len, FRAY_ERR_INPUT, "too many values");
	s = repeated("a: &a [", "x, ", "x]\nb: [*a, *a, *a, *a, *a, *a, *a, *a]\n", mib, &len);
	check("an alias bomb", s, len, FRAY_ERR_INPUT, NULL);
	/* the classic one: ten lines, each nine aliases of the line before */
	char laughs[4096] = "l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n";
	for (int k = 1; k < 10; k++) {
		char line[256];
		snprintf(line, sizeof line, "l%d: &l%d [*l%d, *l%d, *l%d, *l%d, *l%d, *l%d, *l%d, *l%d, *l%d]\n", k, k,
			 k - 1, k - 1, k - 1, k - 1, k - 1, k - 1, k - 1, k - 1, k - 1);
		strcat(laughs, line);
	}
	check("a billion laughs", strdup(laughs), strlen(laughs), FRAY_ERR_INPUT, "aliases (*name) are not supported");
	/* block scalars end where libfyaml ends them: at a line indented less
	 * than their first line, or not past the list or map holding them
	 * (the pre-scan took the rest for text, libfyaml ~300 MiB of brackets) */
	s = repeated("key: |\n    first\n  ", "[", "", mib, &len);
	check("a block scalar's first line", s, len, FRAY_ERR_INPUT, NULL);
	s = repeated("- - |\n ", "[", "", mib, &len);
	check("a block scalar in a list's list", s, len, FRAY_ERR_INPUT, NULL);
	s = repeated("- k: |\n ", "[", "", mib, &len);
	check("a block scalar in a list's map", s, len, FRAY_ERR_INPUT, NULL);
	s = repeated("a:\n  b: |2\n   ", "[", "", mib, &len);
	check("a block scalar's indentation", s, len, FRAY_ERR_INPUT, NULL);
	/* a plain scalar's next lines too: indented more than the list or map
	 * holding it, not than its line */
	s = repeated("- - a\n ", "[", "", mib, &len);
	check("a plain scalar in a list's list", s, len, FRAY_ERR_INPUT, NULL);
	s = repeated("- k: v\n  ", "[", "", mib, &len);
	check("a plain scalar in a list's map", s, len, FRAY_ERR_INPUT, NULL);
	/* a line break is what libfyaml takes for one: a carriage return alone,
	 * and NEL under %YAML 1.1 (the pre-scan read on in the comment or value) */
	s = repeated("# c\r", "[", "", mib, &len);
	check("a comment, then CR", s, len, FRAY_ERR_INPUT, NULL);
	s = repeated("k: v\r", "[", "", mib, &len);
	check("a value, then CR", s, len, FRAY_ERR_INPUT, NULL);
	s = repeated("%YAML 1.1\n---\n# c\xC2\x85", "[", "", mib, &len);
	check("YAML 1.1: a comment, then NEL", s, len, FRAY_ERR_INPUT, NULL);
	s = repeated("%YAML 1.1\n---\nk: |\n  x\xC2\x85", "[", "", mib, &len);
	check("YAML 1.1: a block scalar, NEL", s, len, FRAY_ERR_INPUT, NULL);
	s = repeated("# c\xC2\x85", "[", "", mib, &len); /* YAML 1.2: NEL is text */
	check("YAML 1.2: NEL in a comment", s, len, FRAY_OK, NULL);
	s = repeated("[\xC2\x85#", "[", "", mib, &len); /* so no comment begins after it */
	check("YAML 1.2: NEL, then '#'", s, len, FRAY_ERR_INPUT, NULL);
	s = repeated("[\xEF\xBB\xBF#", "[", "", mib, &len); /* a byte-order mark is text past the start */
	check("a BOM inside, then '#'", s, len, FRAY_ERR_INPUT, NULL);
	s = repeated("k: &a", "[", "", mib, &len); /* an anchor's name ends at a bracket */
	check("an anchor, then brackets", s, len, FRAY_ERR_INPUT, NULL);
	s = repeated("[]", "[", "", mib, &len); /* a collection after a collection */
	check("a list, then brackets", s, len, FRAY_ERR_INPUT, NULL);
	s = repeated("*a", "[", "", mib, &len); /* an alias's too */
	check("an alias, then brackets", s, len, FRAY_ERR_INPUT, NULL);
	/* what a game request is: a long string on one line, read */
	s = repeated("{\"op\": \"status\", \"game\": \"", "a: [1, 2, {b: c}]\\n", "\"}", mib, &len);
	check("a game request", s, len, FRAY_OK, NULL);
	/* JSON pretty-printed, its values a line each, nested: read, to the
	 * limit of what may be held (the values nested over lines count) */
	s = repeated("{\"a\": {\"b\": [\n", "1,\n", "1]}}", 40 << 10, &len);
	check("nested, a value a line", s, len, FRAY_OK, NULL);
	s = repeated("{\"a\": {\"b\": [\n", "1,\n", "1]}}", 256 << 10, &len);
	check("nested, too many", s, len, FRAY_ERR_INPUT, "more than 32768 values");
	/* brackets in plain scalars' next lines are text */
	s = strdup("a:\n  - - x\n     [y]\n  - k: v\n     [w\nb: c\n [d\n");
	check("brackets in plain scalars", s, strlen(s), FRAY_OK, NULL);
	/* brackets in block scalars are text, whatever their lines' indentation */
	s = strdup("a:\n  - - |\n      [[[[ x\n       ]]\n    - >2-\n       {{{\n  - k: |+\n\n      [[\n    j: 1\n"
		   "z: >\n [ ]\n");
	check("brackets in block scalars", s, strlen(s), FRAY_OK, NULL);
	/* one line just within the limit: read, libfyaml holding all of it */
	s = repeated("[", "1,", "1]", 30 << 10, &len);
	check("15000 values on one line", s, len, FRAY_OK, NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(hostile_documents),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
