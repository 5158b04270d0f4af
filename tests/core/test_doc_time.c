/* The reader's time on hostile documents of 1 MiB (the body fray serve
 * takes for a game): reading or refusing any text must take time in
 * proportion to its size. libfyaml 0.7.12 formats a scalar's text in a
 * time that grows as the square of a run of blank lines in it: "k: |" and
 * 100,000 empty lines took 17 s (optimised; 21 s under ASan), a 1 MiB body
 * of them hours. The pre-scan in src/core/data.c refuses a run longer than
 * 64 lines; runs of 64 are read. So too a list of %TAG directives (more
 * than 16 are refused).
 *
 * Each text is read in a child process whose CPU time is measured
 * (wait4's rusage) and capped (RLIMIT_CPU, so the code before the fix
 * fails in seconds instead of reading for hours). The ceiling, 2 s of CPU
 * for 1 MiB, cannot flake: it is the child's own CPU time, not the wall
 * clock, so other work on the machine does not count; the most measured
 * is 0.3 s (under ASan, runs of 64 blank lines), and the shape it guards
 * against takes thousands of times the ceiling. */
#define _DEFAULT_SOURCE /* wait4 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>
#include <fray/fray.h>

#define TEXT_BYTES (1u << 20)
#define CEILING_S 2.0
#define KILLED_AFTER_S 4 /* RLIMIT_CPU: the child is stopped there (SIGXCPU) */

/* A text of about TEXT_BYTES: head, then body repeated, then tail. */
static char *repeated(const char *head, const char *body, const char *tail)
{
	size_t hl = strlen(head), bl = strlen(body), tl = strlen(tail);
	size_t times = (TEXT_BYTES - hl - tl) / bl;
	char *s = malloc(hl + times * bl + tl + 1);
	assert_non_null(s);
	memcpy(s, head, hl);
	for (size_t i = 0; i < times; i++)
		memcpy(s + hl + i * bl, body, bl);
	memcpy(s + hl + times * bl, tail, tl + 1);
	return s;
}

/* %TAG directives, each its own handle, then a document: about TEXT_BYTES */
static char *tag_directives(void)
{
	char *s = malloc(TEXT_BYTES + 64), *o = s;
	assert_non_null(s);
	for (int i = 0; o - s < (ptrdiff_t)TEXT_BYTES - 64; i++)
		o += sprintf(o, "%%TAG !a%d! tag:x,2000:\n", i);
	strcpy(o, "---\nk: v\n");
	return s;
}

/* n copies of line, then end: a run of n lines */
static char *run_of(const char *line, int n, const char *end)
{
	size_t ll = strlen(line), el = strlen(end);
	char *s = malloc(ll * (size_t)n + el + 1);
	assert_non_null(s);
	for (int i = 0; i < n; i++)
		memcpy(s + ll * (size_t)i, line, ll);
	memcpy(s + ll * (size_t)n, end, el + 1);
	return s;
}

/* Reads text in a child: its CPU seconds; *code the child's exit code
 * (0: read, 1: refused with says in the message, 2: refused otherwise),
 * or -1 when it was killed (out of CPU time). */
static double child_read(const char *text, size_t len, const char *says, int *code)
{
	fflush(stdout);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct rlimit cpu = {KILLED_AFTER_S, KILLED_AFTER_S + 1};
		setrlimit(RLIMIT_CPU, &cpu);
		fray_ctx *ctx = fray_ctx_new(NULL, NULL);
		fray_doc *doc = NULL;
		fray_status st = fray_doc_load_string(ctx, "hostile.yaml", text, len, &doc);
		if (st != FRAY_OK)
			printf("    refused: %.160s\n", fray_ctx_message(ctx));
		fflush(stdout);
		_exit(st == FRAY_OK ? 0 : says && strstr(fray_ctx_message(ctx), says) ? 1 : 2);
	}
	int status = 0;
	struct rusage ru;
	assert_int_equal(wait4(pid, &status, 0, &ru), pid);
	*code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
	return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
	       (double)ru.ru_stime.tv_usec / 1e6;
}

/* read: the text must read (else be refused, saying says), within the ceiling */
static void check(const char *what, char *text, bool read, const char *says)
{
	size_t len = strlen(text);
	int code;
	double s = child_read(text, len, says, &code);
	printf("  %-40s %5zu KiB: %6.3f s of CPU (ceiling %.0f s), %s\n", what, len >> 10, s, CEILING_S,
	       code == 0 ? "read" : code == 1 ? "refused" : code == 2 ? "refused, not as expected" : "killed");
	free(text);
	if (code < 0)
		fail_msg("%s: still reading after %d s of CPU (killed): the time is not bounded", what, KILLED_AFTER_S);
	if (s > CEILING_S)
		fail_msg("%s: %.2f s of CPU for %zu KiB (ceiling %.0f s)", what, s, len >> 10, CEILING_S);
	if (read && code != 0)
		fail_msg("%s: refused, expected to be read", what);
	if (!read && code != 1)
		fail_msg("%s: %s, expected a refusal saying '%s'", what, code ? "refused otherwise" : "read", says);
}

#define BLANKS "blank lines in a row"

/* One run of blank lines a MiB long, in each kind of scalar and between
 * tokens: refused at its 65th line. */
static void long_runs_of_blank_lines_are_refused_at_once(void **state)
{
	(void)state;
	check("block scalar, empty lines", repeated("k: |\n", "\n", ""), false, BLANKS);
	check("folded scalar, lines of spaces", repeated("k: >\n  x\n", "    \n", ""), false, BLANKS);
	check("plain scalar, empty lines", repeated("k: a\n", "\n", "  b\n"), false, BLANKS);
	check("double-quoted, lines of tabs", repeated("k: \"a\n", "\t\n", "  b\"\n"), false, BLANKS);
	check("JSON string, CR LF lines", repeated("{\"k\": \"a", "\r\n", "\"}"), false, BLANKS);
	check("between tokens, lone CRs", repeated("{\"k\":", "\r", "1}"), false, BLANKS);
}

/* %TAG directives: libfyaml took a time that grows faster than their
 * number squared (40,000 in 1 MiB: 12 s optimised); more than 16 are
 * refused at the 17th. */
static void many_directives_are_refused_at_once(void **state)
{
	(void)state;
	check("%TAG directives, each its own", tag_directives(), false, "more than 16 directives");
	check("a %TAG directive again and again", repeated("", "%TAG !a! tag:x,2000:\n", "---\nk: v\n"), false,
	      "directive");
}

/* Runs of the most blank lines taken (64), one after another: read, each
 * run's work bounded, the text's in proportion to its size. */
static void runs_of_64_blank_lines_read_in_linear_time(void **state)
{
	(void)state;
	char *empty = run_of("\n", 64, "  x\n"), *spaces = run_of("                              \n", 64, "  x\n");
	check("block scalar, runs of 64 empty lines", repeated("k: |\n  x\n", empty, ""), true, NULL);
	check("block scalar, runs of 64 lines of spaces", repeated("k: |\n  x\n", spaces, ""), true, NULL);
	check("plain scalar, runs of 64 empty lines", repeated("k: a\n", empty, ""), true, NULL);
	check("double-quoted, runs of 64 empty lines", repeated("k: \"a\n", empty, "  \"\n"), true, NULL);
	free(empty);
	free(spaces);
}

/* The other shapes tried that libfyaml might read in more than linear
 * time (none did): long runs of spaces, many documents, comments, long
 * plain scalars folded over many lines, indentation that comes and goes. */
static void other_long_shapes_read_in_linear_time(void **state)
{
	(void)state;
	check("a run of spaces before a value", repeated("k: ", " ", "v\n"), true, NULL);
	check("documents", repeated("", "---\n", ""), false, "a second");
	check("comment lines", repeated("", "# a comment\n", "k: v\n"), true, NULL);
	check("a long comment", repeated("k: v # ", "x", "\n"), true, NULL);
	check("a plain scalar over many lines", repeated("k: a\n", "  b\n", ""), true, NULL);
	check("a block scalar's lines", repeated("k: |\n", "  x\n", ""), true, NULL);
	check("indentation in and out", repeated("", "a:\n  b:\n    c:\n      d: 1\n", ""), false,
	      "too many values");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(long_runs_of_blank_lines_are_refused_at_once),
		cmocka_unit_test(many_directives_are_refused_at_once),
		cmocka_unit_test(runs_of_64_blank_lines_read_in_linear_time),
		cmocka_unit_test(other_long_shapes_read_in_linear_time),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
