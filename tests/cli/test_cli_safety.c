/* Safety at every boundary (issue 13), from the command line: each test
 * is a case that once crashed, hung, clobbered a file or lied in its exit
 * status, kept so it cannot come back. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <fcntl.h>
#include <sys/stat.h>
#include "../test_util.h"
#include <fray/fray.h>
#include "run.h"

static result r1;

#define CRT FRAY_SOURCE_DIR "/data/adbg/example-melee-crt.yaml"

/* A scenario: side "many" (initiative, listed first) with nstacks stacks
 * of two warriors named by name_fmt (a printf format taking the stack
 * and the letter A or B), against "few", one stack of one unit named
 * few_unit. Written to path. */
static void write_scenario(const char *path, int nstacks, const char *name_fmt, const char *few_unit)
{
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	fprintf(f, "battle: Safety test\nterrain: rough\nweather: normal\ninitiative: many\n"
		   "surprise: none\nmelee_crt: %s\n"
		   "leader_loss:\n  after_fire: {roll: 1d6, lost_on: [6]}\n"
		   "  after_melee: {roll: 1d6, lost_on: [5, 6]}\n"
		   "victory:\n  rule: losses\n  routed: {roll: 1d6, eliminated_on: [1, 2]}\n"
		   "sides:\n  many:\n    name: The many\n    level: 2\n"
		   "    primary_leader: {name: Chief, rating: 2, stack: 1}\n    stacks:\n", CRT);
	for (int k = 0; k < nstacks; k++)
		for (int u = 0; u < 2; u++) {
			fprintf(f, u ? "        - {name: \"" : "      - - {name: \"");
			fprintf(f, name_fmt, k, 'A' + u);
			fprintf(f, "\", type: warrior, fire: 2, melee: 2}\n");
		}
	fprintf(f, "  few:\n    name: The few\n    level: 2\n"
		   "    primary_leader: {name: Captain, rating: 1, stack: 1}\n    stacks:\n"
		   "      - - {name: \"%s\", type: militia, fire: 2, melee: 2}\n", few_unit);
	assert_int_equal(fclose(f), 0);
}

/* Case 1: the line telling the array once ran off a 512-byte stack
 * buffer: 8 stacks of two 30-character names opposite one stack. The
 * line is now told whole. */
static void array_line_with_long_names(void **state)
{
	(void)state;
	const char *path = "/tmp/fray-safety-long.yaml";
	write_scenario(path, 8, "Warband number %d of the hills %c", "Lone company");
	RUN(&r1, "adbg", "battle", path, "--seed", "1");
	assert_int_equal(r1.status, 0);
	/* every stack of the column, in order, on the one line */
	char want[2048] = "  position 1: The many";
	for (int k = 0; k < 8; k++) {
		char part[128];
		snprintf(part, sizeof part, "%s stack %d (Warband number %d of the hills A, "
			 "Warband number %d of the hills B)", k ? "," : "", k + 1, k, k);
		strcat(want, part);
	}
	strcat(want, " | The few stack 1 (Lone company)\n");
	assert_non_null(strstr(r1.out, want));
	/* the same battle as JSON events stays one valid document */
	RUN(&r1, "adbg", "battle", path, "--seed", "1", "--json");
	assert_int_equal(r1.status, 0);
	fray_ctx *lctx = fray_ctx_new(NULL, NULL);
	fray_doc *doc;
	assert_int_equal(fray_doc_load_string(lctx, "stdout", r1.out, strlen(r1.out), &doc), FRAY_OK);
	fray_doc_free(doc);
	fray_ctx_free(lctx);
	unlink(path);
}

/* No byte that a terminal acts on: C0 controls but newline and tab (and
 * the carriage return of progress lines), DEL, and C1 (U+0080..U+009F,
 * C2 80..9F in UTF-8). */
static void assert_no_controls(const char *s)
{
	const unsigned char *u = (const unsigned char *)s;
	for (size_t i = 0; u[i]; i++) {
		bool c0 = u[i] < 0x20 && u[i] != '\n' && u[i] != '\t' && u[i] != '\r';
		bool c1 = u[i] == 0xC2 && u[i + 1] >= 0x80 && u[i + 1] <= 0x9F;
		if (c0 || c1 || u[i] == 0x7F)
			fail_msg("control byte 0x%02x at offset %zu in: %.80s", u[i], i,
				 (const char *)u + (i > 20 ? i - 20 : 0));
	}
}

/* Case 6: names with escape sequences (clear screen, set the title, BEL),
 * a C1 CSI and a newline that would forge a story line reach the terminal
 * shown, not acted on. */
static void names_reach_the_terminal_escaped(void **state)
{
	(void)state;
	const char *path = "/tmp/fray-safety-evil.yaml";
	write_scenario(path, 2, "Evil\\e[2J\\e]0;pwned\\aName %d%c",
		       "Lone\\nFORGED: the few win\\u009b31m");
	const char *const cmds[][8] = {
		{"adbg", "battle", path, "--seed", "3", NULL},
		{"adbg", "odds", path, "--budget", "0", "--trials", "200", NULL},
		{"adbg", "simulate", path, "--trials", "200", NULL},
		{"check", path, NULL},
	};
	for (size_t c = 0; c < sizeof cmds / sizeof cmds[0]; c++) {
		run(&r1, cmds[c]);
		assert_int_equal(r1.status, 0);
		assert_no_controls(r1.out);
		assert_no_controls(r1.err);
		assert_null(strstr(r1.out, "\nFORGED"));
		assert_null(strstr(r1.out, "\n  FORGED"));
	}
	/* the battle's story shows the names escaped */
	RUN(&r1, "adbg", "battle", path, "--seed", "3");
	assert_non_null(strstr(r1.out, "Evil\\x1b[2J\\x1b]0;pwned\\x07Name 0A"));
	assert_non_null(strstr(r1.out, "Lone\\x0aFORGED: the few win\\u009b31m"));
	/* a message naming a bad value from the command line too */
	RUN(&r1, "roll", "3d6\x1b[2J");
	assert_int_equal(r1.status, 2);
	assert_no_controls(r1.err);
	assert_non_null(strstr(r1.err, "\\x1b[2J"));
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(array_line_with_long_names),
		cmocka_unit_test(names_reach_the_terminal_escaped),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
