/* Safety at every boundary (issue 13), from the command line: each test
 * is a case that once crashed, hung, clobbered a file or lied in its exit
 * status, kept so it cannot come back. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <fcntl.h>
#include <errno.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <time.h>
#include <sys/stat.h>
#include "../test_util.h"
#include <stdlib.h>
#include <fray/fray.h>
#include "run.h"

/* Files go in this run's own folder, test_path(NAME) (test_util.h: made by
 * main, removed at the end): two runs at once never share a path. */

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
	const char *path = test_path("long.yaml");
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
	const char *path = test_path("evil.yaml");
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
	/* fray's own colours still reach a terminal, past the guard */
	int master;
	pid_t pid = forkpty(&master, NULL, NULL, NULL);
	assert_true(pid >= 0);
	if (pid == 0) {
		unsetenv("NO_COLOR");
		execl(FRAY_BIN, FRAY_BIN, "odds", "2d6", (char *)NULL);
		_exit(99);
	}
	char screen[8192] = "";
	size_t got = 0;
	ssize_t n;
	while (got < sizeof screen - 1 && (n = read(master, screen + got, sizeof screen - 1 - got)) > 0)
		got += (size_t)n;
	screen[got] = '\0';
	int ws;
	waitpid(pid, &ws, 0);
	close(master);
	assert_non_null(strstr(screen, "\033[36m"));
	/* a message naming a bad value from the command line too */
	RUN(&r1, "roll", "3d6\x1b[2J");
	assert_int_equal(r1.status, 2);
	assert_no_controls(r1.err);
	assert_non_null(strstr(r1.err, "\\x1b[2J"));
	unlink(path);
}

#define EX FRAY_SOURCE_DIR "/examples/adbg/"

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	assert_true(fputs(text, f) >= 0);
	assert_int_equal(fclose(f), 0);
}

/* text with its line starting key replaced by line (a new string) */
static char *with_line(const char *text, const char *key, const char *line)
{
	const char *at = strstr(text, key);
	assert_non_null(at);
	char *out = calloc(1, strlen(text) + strlen(line) + 1);
	assert_non_null(out);
	memcpy(out, text, (size_t)(at - text));
	strcat(out, line);
	strcat(out, strchr(at, '\n'));
	return out;
}

static char *slurp_new(const char *path)
{
	char *buf = calloc(1, 1 << 20);
	assert_non_null(buf);
	slurp(path, buf, 1 << 20);
	return buf;
}

/* Runs fray with args, its stderr on a terminal so that it shows its
 * progress line, and sends SIGTERM once that line has appeared: the work
 * is then surely under way, however slowly fray started (under valgrind,
 * say). stdout is collected in res; the exit status returned. */
static int run_then_term(result *res, const char *const *args)
{
	char out[] = "/tmp/fray-safety-out-XXXXXX";
	int fo = mkstemp(out), master = -1, slave = -1;
	assert_true(fo >= 0);
	assert_int_equal(openpty(&master, &slave, NULL, NULL, NULL), 0);
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fo, 1);
	posix_spawn_file_actions_adddup2(&fa, slave, 2);
	pid_t pid = spawn_fray(args, &fa);
	close(slave);
	/* read the terminal until the progress line (" battles " or " paths ")
	 * shows, for at most two minutes */
	char seen[8192] = "";
	size_t len = 0;
	for (int waited = 0; waited < 1200 && !strstr(seen, "/s "); waited++) {
		struct pollfd pf = {.fd = master, .events = POLLIN};
		if (poll(&pf, 1, 100) > 0) {
			ssize_t got = read(master, seen + len, sizeof seen - 1 - len);
			if (got <= 0)
				break;
			len += (size_t)got;
			seen[len] = '\0';
			if (len > sizeof seen / 2) { /* keep the tail */
				memmove(seen, seen + len - 64, 64);
				len = 64;
				seen[len] = '\0';
			}
		}
	}
	if (!strstr(seen, "/s ")) {
		/* never leave a trillion battles running behind a failed test */
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		fail_msg("no progress line on the terminal: %s", seen);
	}
	kill(pid, SIGTERM);
	/* drain the terminal while fray stops, so it never blocks on it */
	int ws;
	while (waitpid(pid, &ws, WNOHANG) == 0) {
		struct pollfd pf = {.fd = master, .events = POLLIN};
		if (poll(&pf, 1, 50) > 0 && read(master, seen, sizeof seen - 1) <= 0)
			break;
	}
	if (waitpid(pid, &ws, 0) < 0 && errno != ECHILD)
		fail_msg("waitpid failed");
	close(master);
	posix_spawn_file_actions_destroy(&fa);
	close(fo);
	slurp(out, res->out, sizeof res->out);
	res->err[0] = '\0';
	unlink(out);
	assert_true(WIFEXITED(ws)); /* stopped by itself, not killed */
	res->status = WEXITSTATUS(ws);
	return res->status;
}

/* Case 2: exact odds past the memory budget end with one line naming it
 * and exit 2, as every budget passed does (the input is fine, the work
 * past what was allowed: README, exit status); GMP once aborted the
 * process, exit 134, after taking the machine. */
static void exact_odds_memory_budget(void **state)
{
	(void)state;
	RUN(&r1, "presidio", "melee", "--weapon", "metal lance/knife", "--figures", "400", "--both",
	    "--defender-weapon", "metal lance/knife", "--defender-figures", "400", "--armor", "0",
	    "--odds", "--max-memory", "16");
	assert_int_equal(r1.status, 2);
	assert_string_equal(r1.out, "");
	assert_non_null(strstr(r1.err, "exact odds need more than 16 MiB of memory"));
	assert_non_null(strstr(r1.err, "--max-memory"));
	assert_non_null(strstr(r1.err, "--trials"));
	assert_true(strchr(r1.err, '\n') == r1.err + strlen(r1.err) - 1); /* one line */
	/* a budget out of range is bad input, and one without --odds means nothing */
	RUN(&r1, "presidio", "melee", "--weapon", "metal lance/knife", "--figures", "4", "--odds",
	    "--max-memory", "0");
	assert_int_equal(r1.status, 2);
	RUN(&r1, "adbg", "fire", "--type", "regular", "--cf", "2", "--terrain", "rough", "--max-memory", "8",
	    "--seed", "1");
	assert_int_equal(r1.status, 2);
	assert_non_null(strstr(r1.err, "--max-memory is for --odds"));
}

/* Case 3: an input that never ends is never read (adbg simulate
 * /dev/zero once hung, digesting it before any check): a device is no
 * regular file (issue 29 case 8: FIFOs and devices are refused, in
 * test_cli_readers.c); standard input is read once, like a file. */
static void inputs_that_never_end(void **state)
{
	(void)state;
	RUN(&r1, "adbg", "simulate", "/dev/zero", "--trials", "10");
	assert_int_equal(r1.status, 2);
	assert_non_null(strstr(r1.err, "/dev/zero"));
	assert_non_null(strstr(r1.err, "a character device"));
	RUN(&r1, "adbg", "battle", "/dev/zero", "--seed", "1", "--save", test_path("zero.yaml"));
	assert_int_equal(r1.status, 2);
	/* "-" is standard input, read once (a second read would find nothing) */
	const char *sc = test_path("stdin.yaml");
	write_scenario(sc, 2, "Band %d%c", "Company");
	const char *const sim[] = {"adbg", "simulate", "-", "--trials", "300", "--seed", "2", NULL};
	run_io(&r1, sim, sc, 0);
	assert_int_equal(r1.status, 0);
	static result r2;
	RUN(&r2, "adbg", "simulate", sc, "--trials", "300", "--seed", "2");
	assert_int_equal(r2.status, 0);
	assert_string_equal(r1.out, r2.out);
	const char *const sweep[] = {"adbg", "sweep", "-", "--vary", "sides.few.level=1,2,3",
				     "--trials", "50", "--quiet", NULL};
	run_io(&r1, sweep, sc, 0);
	assert_int_equal(r1.status, 0);
	unlink(sc);
}

/* Case 4: fray never writes over what the user has. */
static void outputs_never_clobber(void **state)
{
	(void)state;
	const char *sc = test_path("scenario.yaml"), *slink = test_path("link.yaml");
	write_scenario(sc, 2, "Band %d%c", "Company");
	char *orig = slurp_new(sc);
	/* --save naming the scenario itself (once destroyed it) */
	RUN(&r1, "adbg", "battle", sc, "--seed", "1", "--save", sc, "--stop-after", "1");
	assert_int_equal(r1.status, 2);
	assert_non_null(strstr(r1.err, "a file this run reads"));
	char *now = slurp_new(sc);
	assert_string_equal(now, orig);
	free(now);
	/* the same file by another name (a hard link) is the same file */
	const char *hard = test_path("hard.yaml");
	unlink(hard);
	assert_int_equal(link(sc, hard), 0);
	RUN(&r1, "adbg", "battle", sc, "--seed", "1", "--save", hard, "--stop-after", "1");
	assert_int_equal(r1.status, 2);
	unlink(hard);
	/* a symbolic link, a device: never replaced */
	unlink(slink);
	assert_int_equal(symlink(sc, slink), 0);
	RUN(&r1, "adbg", "battle", EX "lochry-1781.yaml", "--seed", "1", "--save", slink, "--stop-after", "1");
	assert_int_equal(r1.status, 2);
	assert_non_null(strstr(r1.err, "not a regular file"));
	struct stat st;
	assert_int_equal(lstat(slink, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	RUN(&r1, "adbg", "simulate", EX "lochry-1781.yaml", "--trials", "100", "--shard", "1/2",
	    "--output", "/dev/null");
	assert_int_equal(r1.status, 2);
	assert_int_equal(stat("/dev/null", &st), 0);
	assert_true(S_ISCHR(st.st_mode));
	unlink(slink);
	/* an existing save keeps its mode (the rename once made it 0600) */
	const char *save = test_path("save.yaml");
	write_text(save, "an old save\n");
	assert_int_equal(chmod(save, 0644), 0);
	RUN(&r1, "adbg", "battle", EX "lochry-1781.yaml", "--seed", "1", "--save", save, "--stop-after", "1");
	assert_int_equal(r1.status, 0);
	assert_int_equal(stat(save, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0644);
	/* a new file gets the mode of any new file: 0666 less the umask */
	unlink(save);
	mode_t mask = umask(022);
	RUN(&r1, "adbg", "battle", EX "lochry-1781.yaml", "--seed", "1", "--save", save, "--stop-after", "1");
	umask(mask);
	assert_int_equal(stat(save, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0644);
	unlink(save);
	/* a complete shard is never replaced by an interrupted rerun: the
	 * partial result goes beside it */
	const char *shard = test_path("shard.json"), *partial = test_path("shard.json.partial");
	unlink(partial);
	RUN(&r1, "adbg", "simulate", EX "lochry-1781.yaml", "--trials", "2000", "--shard", "1/2",
	    "--output", shard, "--quiet");
	assert_int_equal(r1.status, 0);
	char *complete = slurp_new(shard);
	const char *const big[] = {"adbg", "simulate", EX "lochry-1781.yaml", "--trials", "1000000000000",
				   "--shard", "1/2", "--output", shard, NULL};
	run_then_term(&r1, big);
	assert_int_equal(r1.status, 143); /* SIGTERM: stopped like Ctrl-C, not killed */
	now = slurp_new(shard);
	assert_string_equal(now, complete);
	free(now);
	assert_int_equal(stat(partial, &st), 0);
	unlink(partial);
	unlink(shard);
	free(complete);
	unlink(sc);
	free(orig);
}

/* Case 5: a save is checked as strictly as a scenario. Each edit below was
 * once accepted (and some changed the battle's outcome). */
static void saves_checked_strictly(void **state)
{
	(void)state;
	const char *save = test_path("strict.yaml"), *bad = test_path("strict-bad.yaml");
	RUN(&r1, "adbg", "battle", EX "blue-licks-1782.yaml", "--seed", "4", "--save", save, "--stop-after", "1");
	assert_int_equal(r1.status, 0);
	char *text = slurp_new(save);
	static const struct { const char *from, *to, *says; } edits[] = {
		{"positions: 3", "positions: 1", "the number of positions"},
		{"    stacks: [", "    stacks: []\n    old_stacks: [", "unknown key"},
		{"fray_save: 2\n", "fray_save: 2\nextra: 1\n", "unknown key 'extra'"},
		{"kind: adbg.battle", "kind: chits.combat", "expected kind adbg.battle"},
		{"units: [[0", "units: [[7", "a whole number from 0 to 4"},
	};
	for (size_t e = 0; e < sizeof edits / sizeof edits[0]; e++) {
		char *at = strstr(text, edits[e].from);
		assert_non_null(at);
		char *edited = calloc(1, strlen(text) + 256);
		memcpy(edited, text, (size_t)(at - text));
		strcat(edited, edits[e].to);
		strcat(edited, at + strlen(edits[e].from));
		write_text(bad, edited);
		free(edited);
		RUN(&r1, "adbg", "resume", bad);
		if (r1.status != 2 || !strstr(r1.err, edits[e].says))
			fail_msg("edit %zu (%s): status %d, %s", e, edits[e].to, r1.status, r1.err);
		assert_string_equal(r1.out, "");
	}
	/* a unit moved to a stack the save does not have */
	char *units = strstr(text, "units: [[");
	assert_non_null(units);
	char *comma = strchr(units, ',');
	char *edited = calloc(1, strlen(text) + 16);
	memcpy(edited, text, (size_t)(comma - text));
	strcat(edited, ", 29");
	strcat(edited, strchr(comma, ']'));
	write_text(bad, edited);
	free(edited);
	RUN(&r1, "adbg", "resume", bad);
	assert_int_equal(r1.status, 2);
	assert_non_null(strstr(r1.err, "which the save does not list"));
	unlink(bad);
	free(text);
	unlink(save);

	/* a melee CRT or a policy script changed since the save */
	const char *dir = test_path("dir");
	char sc[256], crt[256], script[256];
	mkdir(dir, 0700);
	snprintf(sc, sizeof sc, "%s/scenario.yaml", dir);
	snprintf(crt, sizeof crt, "%s/crt.yaml", dir);
	snprintf(script, sizeof script, "%s/script.yaml", dir);
	char *s = slurp_new(EX "blue-licks-1782.yaml"), *c = slurp_new(CRT);
	char *fixed = with_line(s, "melee_crt:", "melee_crt: crt.yaml");
	write_text(sc, fixed);
	write_text(crt, c);
	RUN(&r1, "adbg", "battle", sc, "--seed", "4", "--save", save, "--stop-after", "1");
	assert_int_equal(r1.status, 0);
	write_text(crt, strcat(c, "# changed\n"));
	RUN(&r1, "adbg", "resume", save);
	assert_int_equal(r1.status, 2);
	assert_non_null(strstr(r1.err, "has changed since the battle was saved"));
	char *c2 = slurp_new(CRT);
	write_text(crt, c2);
	free(c2);
	char answers[1024] = "answers: [1";
	for (int k = 0; k < 200; k++)
		strcat(answers, ", 1");
	write_text(script, strcat(answers, "]\n"));
	char spec[300];
	snprintf(spec, sizeof spec, "scripted:%s", script);
	unlink(save);
	RUN(&r1, "adbg", "battle", sc, "--seed", "4", "--policy-a", spec, "--save", save, "--stop-after", "1");
	assert_int_equal(r1.status, 0);
	write_text(script, "answers: [2, 1, 1]\n");
	RUN(&r1, "adbg", "resume", save);
	assert_int_equal(r1.status, 2);
	assert_non_null(strstr(r1.err, "a policy script has changed"));
	unlink(script);
	unlink(save);
	/* a scenario path that is not UTF-8, and one of 300 bytes, resume */
	char sub[512], odd[512];
	snprintf(sub, sizeof sub, "%s/%0200d", dir, 7);
	assert_int_equal(mkdir(sub, 0700), 0);
	snprintf(odd, sizeof odd, "%s/caf\xe9-%060d.yaml", sub, 8);
	assert_true(strlen(odd) > 255);
	char *absolute = with_line(fixed, "melee_crt:", "melee_crt: " CRT);
	write_text(odd, absolute);
	free(absolute);
	RUN(&r1, "adbg", "battle", odd, "--seed", "4", "--save", save, "--stop-after", "1");
	assert_int_equal(r1.status, 0);
	RUN(&r1, "adbg", "resume", save);
	assert_int_equal(r1.status, 0);
	assert_non_null(strstr(r1.out, "result:"));
	unlink(odd);
	rmdir(sub);
	unlink(save);
	unlink(sc);
	unlink(crt);
	rmdir(dir);
	free(fixed);
	free(s);
	free(c);
}

/* Case 7: exit statuses that tell the truth. */
static void honest_exit_statuses(void **state)
{
	(void)state;
	const char *const version[] = {"--version", NULL};
	char full[] = "/dev/full";
	(void)full;
	/* output that cannot be written is a failure, never 0 */
	pid_t pid = fork();
	if (pid == 0) {
		int fd = open("/dev/full", O_WRONLY);
		dup2(fd, 1);
		int err = open("/dev/null", O_WRONLY);
		dup2(err, 2);
		execv(FRAY_BIN, (char *const[]){(char *)FRAY_BIN, (char *)version[0], NULL});
		_exit(99);
	}
	int ws;
	assert_int_equal(waitpid(pid, &ws, 0), pid);
	assert_true(WIFEXITED(ws));
	assert_int_equal(WEXITSTATUS(ws), 1);
	/* SIGTERM stops a simulation like Ctrl-C: the partial result is printed */
	const char *const sim[] = {"adbg", "simulate", EX "blue-licks-1782.yaml", "--trials",
				   "1000000000000", NULL};
	run_then_term(&r1, sim);
	assert_int_equal(r1.status, 143);
	assert_non_null(strstr(r1.out, "PARTIAL: stopped by SIGTERM"));
	/* adbg odds with a big budget stops too, and says so */
	const char *const odds[] = {"adbg", "odds", EX "blue-licks-1782.yaml", "--budget", "1000000000", NULL};
	run_then_term(&r1, odds);
	assert_int_equal(r1.status, 143);
	assert_string_equal(r1.out, ""); /* no odds: the work was stopped */
}

/* Case 8: options that would mean nothing are refused, naming the option. */
static void options_that_mean_nothing(void **state)
{
	(void)state;
	static const struct { const char *args[16]; const char *says; } rows[] = {
		{{"adbg", "fire", "--type", "regular", "--cf", "2", "--cf", "3", "--seed", "1"}, "--cf is given twice"},
		{{"bbb", "fire", "--weapon", "RA", "--units", "1", "--range", "4", "--disrupted", "--disrupted",
		  "--seed", "1"}, "--disrupted is given twice"},
		{{"adbg", "sweep", EX "blue-licks-1782.yaml", "--vary", "sides.kentucky.level=1,2",
		  "--vary", "sides.kentucky.level=3"}, "varied twice"},
		{{"presidio", "shoot", "--weapon", "flintlock musket", "--figures", "3", "--range", "0x10",
		  "--seed", "1"}, "--range"},
		{{"bbb", "fire", "--weapon", "RA", "--units", "1", "--range", "inf", "--seed", "1"}, "--range"},
		{{"adbg", "battle", EX "blue-licks-1782.yaml", "--policy", "random:-1"}, "random:SEED"},
		{{"adbg", "rounds", "--initiative-rating", "2", "--other-rating", "3", "--seed", "1"},
		 "--other-rating is for --attempt"},
		{{"bbb", "move", "--road", "--seed", "1"}, "--road"},
		{{"chits", "combat", "--mix", FRAY_SOURCE_DIR "/examples/chits/sample-mix.yaml", "--odds",
		  "--seed", "3"}, "--odds and --seed"},
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		run(&r1, rows[i].args);
		if (r1.status != 2 || !strstr(r1.err, rows[i].says) || r1.out[0])
			fail_msg("row %zu: status %d, err %s", i, r1.status, r1.err);
	}
}

/* The 1000-against-1000 melee whose exact odds once ran past 174 s (the
 * adversary's review): 20,000,000 paths of 1000 dice each. */
#define HUGE_MELEE "presidio", "melee", "--weapon", "metal lance/knife", "--figures", "1000", "--both", \
	"--defender-weapon", "fists", "--defender-figures", "1000", "--odds"

/* Case 9: exact odds within explicit budgets of paths and CPU time (as
 * fray serve's requests are): past one, a one-line refusal naming it and
 * how to raise it, exit 2, nothing printed; within them, the same odds. */
static void exact_odds_time_and_path_budgets(void **state)
{
	(void)state;
	static result plain;
	/* the path budget: refused at its 10,001st path */
	RUN(&r1, HUGE_MELEE, "--max-paths", "10000");
	assert_int_equal(r1.status, 2);
	assert_string_equal(r1.out, "");
	assert_non_null(strstr(r1.err, "more than 10000 outcome paths"));
	assert_non_null(strstr(r1.err, "--max-paths N raises it"));
	assert_true(strchr(r1.err, '\n') == r1.err + strlen(r1.err) - 1); /* one line */
	/* the time budget (the environment's, in table_advice_within_budgets):
	 * the walk needs minutes, its budget is one CPU second; the option
	 * wins over the environment */
	assert_int_equal(setenv("FRAY_MAX_SECONDS", "1000", 1), 0);
	RUN(&r1, HUGE_MELEE, "--max-seconds", "1");
	assert_int_equal(r1.status, 2);
	assert_string_equal(r1.out, "");
	assert_non_null(strstr(r1.err, "passed the time budget of 1 CPU seconds"));
	assert_non_null(strstr(r1.err, "--max-seconds S or FRAY_MAX_SECONDS=S raises it"));
	/* a small case within both budgets: the odds it gives without them */
	assert_int_equal(setenv("FRAY_MAX_SECONDS", "1", 1), 0);
	RUN(&r1, "presidio", "melee", "--weapon", "metal lance/knife", "--figures", "3", "--both",
	    "--defender-weapon", "fists", "--defender-figures", "2", "--odds", "--max-paths", "10000");
	assert_int_equal(setenv("FRAY_MAX_SECONDS", "0", 1), 0);
	RUN(&plain, "presidio", "melee", "--weapon", "metal lance/knife", "--figures", "3", "--both",
	    "--defender-weapon", "fists", "--defender-figures", "2", "--odds");
	assert_int_equal(r1.status, 0);
	assert_int_equal(plain.status, 0);
	assert_non_null(strstr(r1.out, "exact odds"));
	assert_string_equal(r1.out, plain.out);
	/* a budget that is no number, or that means nothing without odds */
	assert_int_equal(setenv("FRAY_MAX_SECONDS", "soon", 1), 0);
	RUN(&r1, "presidio", "melee", "--weapon", "metal lance/knife", "--figures", "3", "--odds");
	assert_int_equal(r1.status, 2);
	assert_non_null(strstr(r1.err, "FRAY_MAX_SECONDS (the environment): expected a whole number"));
	assert_int_equal(unsetenv("FRAY_MAX_SECONDS"), 0);
	RUN(&r1, "presidio", "melee", "--weapon", "metal lance/knife", "--figures", "3", "--max-seconds", "5",
	    "--seed", "1");
	assert_int_equal(r1.status, 2);
	assert_non_null(strstr(r1.err, "--max-seconds is for --odds"));
	RUN(&r1, "presidio", "melee", "--weapon", "metal lance/knife", "--figures", "3", "--odds", "--max-paths", "0");
	assert_int_equal(r1.status, 2);
	assert_non_null(strstr(r1.err, "--max-paths expects a whole number from 1"));
}

/* Case 10: fray table's odds, advice and solo play on huge units, within
 * the same budgets: the advice past its time budget says nothing, the
 * move past it is not played (the game file byte for byte as it was). */
static void table_advice_within_budgets(void **state)
{
	(void)state;
	char forces[4096], game[4096];
	snprintf(forces, sizeof forces, "%s", test_path("huge-forces.yaml"));
	snprintf(game, sizeof game, "%s", test_path("huge.yaml"));
	/* no weapon that shoots: the advice weighs the melee's odds */
	write_text(forces, "rules: presidio\n"
			   "units:\n"
			   "  - {name: Horde, side: Spain, figures: 1000, weapon: metal lance/knife}\n"
			   "  - {name: Host, side: Apache, figures: 1000, weapon: metal lance/knife}\n");
	unlink(game);
	RUN(&r1, "table", "new", game, "--rules", "presidio", "--forces", forces, "--seed", "1");
	assert_int_equal(r1.status, 0);
	RUN(&r1, "table", game, "set", "Horde", "contact=Host");
	assert_int_equal(r1.status, 0);
	static char before[65536], after[65536];
	slurp(game, before, sizeof before);
	RUN(&r1, "table", game, "melee", "Horde", "--at", "Host", "--odds", "--max-paths", "1000");
	assert_int_equal(r1.status, 2);
	assert_string_equal(r1.out, "");
	assert_non_null(strstr(r1.err, "more than 1000 outcome paths"));
	assert_non_null(strstr(r1.err, "--max-paths N raises it"));
	RUN(&r1, "table", game, "advise", "Horde", "--max-seconds", "1");
	assert_int_equal(r1.status, 2);
	assert_string_equal(r1.out, "");
	assert_non_null(strstr(r1.err, "the advice passed the time budget of 1 CPU seconds"));
	assert_int_equal(setenv("FRAY_MAX_SECONDS", "1", 1), 0);
	RUN(&r1, "table", game, "play", "Spain");
	assert_int_equal(unsetenv("FRAY_MAX_SECONDS"), 0);
	assert_int_equal(r1.status, 2);
	assert_string_equal(r1.out, "");
	assert_non_null(strstr(r1.err, "the move passed the time budget of 1 CPU seconds"));
	slurp(game, after, sizeof after);
	assert_string_equal(before, after);
	/* past the memory budget: the same one line and exit 2, the file as
	 * it was */
	RUN(&r1, "table", game, "melee", "Horde", "--at", "Host", "--odds", "--max-memory", "16");
	assert_int_equal(r1.status, 2);
	assert_string_equal(r1.out, "");
	assert_non_null(strstr(r1.err, "exact odds need more than 16 MiB of memory"));
	assert_true(strchr(r1.err, '\n') == r1.err + strlen(r1.err) - 1);
	slurp(game, after, sizeof after);
	assert_string_equal(before, after);
	/* under a path budget the advice is given, the melee said to be
	 * without its odds, and why */
	RUN(&r1, "table", game, "advise", "Horde", "--max-paths", "1000");
	assert_int_equal(r1.status, 0);
	assert_non_null(strstr(r1.out, "no exact odds here (more than 1000 outcome paths"));
	/* a budget for what weighs no odds means nothing */
	RUN(&r1, "table", game, "status", "--max-seconds", "5");
	assert_int_equal(r1.status, 2);
	assert_non_null(strstr(r1.err, "--max-seconds is for exact odds' budgets"));
}

/* Case 11: fray request and fray adbg odds keep the rest of the CLI's
 * time budget (--max-seconds S, else FRAY_MAX_SECONDS, else 60 CPU s):
 * past it, one line naming it and how to raise it, exit 2, nothing
 * printed. The work is bound by counts: the melee's walk of up to
 * 20,000,000 paths of 1000 dice and twice Blue Licks' with Kentucky
 * surprised (its raiders' reserves keep its positions together: up to
 * 10^9 paths; Blue Licks itself is exact in some 8,500 since issue 45
 * item 1's fifth pass) need far more than the one CPU second given; for
 * adbg odds the simulation it falls back to (past its own path budget,
 * --budget) counts too: 10^9 battles. */
static void request_and_battle_odds_within_the_time_budget(void **state)
{
	(void)state;
	char req[4096];
	snprintf(req, sizeof req, "%s", test_path("huge-request.json"));
	write_text(req, "{\"procedure\": \"presidio.melee\", \"mode\": \"odds\", \"inputs\": {\"weapon\": "
			"\"metal lance/knife\", \"figures\": 1000, \"both\": true, \"defender_weapon\": \"fists\", "
			"\"defender_figures\": 1000}}\n");
	assert_int_equal(setenv("FRAY_MAX_SECONDS", "1000", 1), 0);
	RUN(&r1, "request", req, "--max-seconds", "1");
	assert_int_equal(r1.status, 2);
	assert_string_equal(r1.out, "");
	assert_non_null(strstr(r1.err, "fray request: the request passed the time budget of 1 CPU seconds"));
	assert_non_null(strstr(r1.err, "--max-seconds S or FRAY_MAX_SECONDS=S raises it"));
	assert_true(strchr(r1.err, '\n') == r1.err + strlen(r1.err) - 1);
	/* the environment's, and standard input's request; no output file */
	assert_int_equal(setenv("FRAY_MAX_SECONDS", "1", 1), 0);
	run_io(&r1, (const char *const[]){"request", "-", NULL}, req, 0);
	assert_int_equal(r1.status, 2);
	assert_string_equal(r1.out, "");
	assert_non_null(strstr(r1.err, "passed the time budget of 1 CPU seconds"));
	/* adbg odds: the exact walk, then the simulation it falls back to */
	const char *blue = FRAY_SOURCE_DIR "/examples/adbg/blue-licks-1782.yaml";
	RUN(&r1, "adbg", "odds", FRAY_SOURCE_DIR "/bench/adbg/blue-licks-doubled-surprised.yaml", "--budget",
	    "1000000000");
	assert_int_equal(r1.status, 2);
	assert_string_equal(r1.out, "");
	assert_non_null(strstr(r1.err, "fray adbg odds: the odds passed the time budget of 1 CPU seconds"));
	assert_true(strchr(r1.err, '\n') == r1.err + strlen(r1.err) - 1);
	assert_int_equal(setenv("FRAY_MAX_SECONDS", "1000", 1), 0);
	RUN(&r1, "adbg", "odds", blue, "--budget", "1000", "--trials", "1000000000", "--max-seconds", "1");
	assert_int_equal(r1.status, 2);
	assert_string_equal(r1.out, "");
	assert_non_null(strstr(r1.err, "the odds passed the time budget of 1 CPU seconds"));
	/* within the budget: the answers as without one */
	static result plain;
	write_text(req, "{\"procedure\": \"presidio.melee\", \"mode\": \"odds\", \"inputs\": {\"weapon\": "
			"\"metal lance/knife\", \"figures\": 3}}\n");
	RUN(&r1, "request", req, "--max-seconds", "5");
	assert_int_equal(setenv("FRAY_MAX_SECONDS", "0", 1), 0);
	RUN(&plain, "request", req);
	assert_int_equal(r1.status, 0);
	assert_int_equal(plain.status, 0);
	assert_string_equal(r1.out, plain.out);
	/* a budget that is no number */
	assert_int_equal(setenv("FRAY_MAX_SECONDS", "soon", 1), 0);
	RUN(&r1, "request", req);
	assert_int_equal(r1.status, 2);
	assert_non_null(strstr(r1.err, "FRAY_MAX_SECONDS (the environment): expected a whole number"));
	RUN(&r1, "adbg", "odds", blue, "--budget", "0", "--trials", "10");
	assert_int_equal(r1.status, 2);
	assert_non_null(strstr(r1.err, "FRAY_MAX_SECONDS (the environment): expected a whole number"));
	assert_int_equal(unsetenv("FRAY_MAX_SECONDS"), 0);
	RUN(&r1, "request", req, "--max-seconds", "soon");
	assert_int_equal(r1.status, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(array_line_with_long_names),
		cmocka_unit_test(names_reach_the_terminal_escaped),
		cmocka_unit_test(exact_odds_memory_budget),
		cmocka_unit_test(inputs_that_never_end),
		cmocka_unit_test(outputs_never_clobber),
		cmocka_unit_test(saves_checked_strictly),
		cmocka_unit_test(honest_exit_statuses),
		cmocka_unit_test(options_that_mean_nothing),
		cmocka_unit_test(exact_odds_time_and_path_budgets),
		cmocka_unit_test(table_advice_within_budgets),
		cmocka_unit_test(request_and_battle_odds_within_the_time_budget),
	};
	if (test_dir_make("safety"))
		return 1;
	int failed = cmocka_run_group_tests(tests, NULL, NULL);
	test_dir_remove();
	return failed;
}
