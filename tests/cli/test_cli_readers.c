/* Issue 29, cases 8 and 12: what fray's readers accept.
 * Case 8: every reader takes a regular file or standard input and nothing
 * else. A FIFO with no writer once hung every reader (fray check, table,
 * request, report, adbg battle, and the files a file names: a scenario's
 * melee CRT, a combat's mix, a request's units file); a device, a folder,
 * a socket are refused at once too, and a file over the budget before a
 * byte of it is read. Every run here is bounded: a reader that blocks is
 * killed and the test fails instead of hanging.
 * Case 12: a NUL escaped inside a string (JSON \u0000, YAML \0) once cut
 * the string short unseen ("adbg.fire\u0000junk" ran adbg.fire); bidi
 * controls in names reached the terminal as they were. */
#define _GNU_SOURCE /* term.c, included below, uses fopencookie */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <stdlib.h>
#include <fray/fray.h>
#include "run.h"
#define FRAY_TEST_NO_CTX /* contexts of its own */
#include "../test_util.h"
/* the terminal guard's own functions (static there), to feed it a byte
 * at a time */
#include "../../src/cli/term.c"

/* Files go in this run's own folder, test_path(NAME) (test_util.h: made by
 * main, removed at the end): two runs at once never share a path. */

static char fifo_path[128];
#define FIFO fifo_path
#define LIMIT_MS 10000 /* fray answers in well under a second */

static result res;

/* Runs fray with args (NULL-terminated), standard input from in_path
 * (NULL: /dev/null), and kills it if it has not ended in LIMIT_MS: a
 * reader that blocks fails the test instead of hanging it. */
static bool out_appends; /* run_bounded_io's out_path opened as '>>' does, not '>' */

static void run_bounded_io(result *r, const char *const *args, const char *in_path, const char *out_path)
{
	char out[] = "/tmp/fray-readers-out-XXXXXX", err[] = "/tmp/fray-readers-err-XXXXXX";
	int fo = mkstemp(out), fe = mkstemp(err);
	assert_true(fo >= 0 && fe >= 0);
	posix_spawn_file_actions_t fa;
	posix_spawn_file_actions_init(&fa);
	if (out_path) /* as the shell does for '> out_path' */
		posix_spawn_file_actions_addopen(&fa, 1, out_path, O_WRONLY | O_CREAT | (out_appends ? O_APPEND : O_TRUNC),
						 0600);
	else
		posix_spawn_file_actions_adddup2(&fa, fo, 1);
	posix_spawn_file_actions_adddup2(&fa, fe, 2);
	posix_spawn_file_actions_addopen(&fa, 0, in_path ? in_path : "/dev/null", O_RDONLY, 0);
	pid_t pid = spawn_fray(args, &fa);
	int ws = 0, waited = 0;
	pid_t got;
	while ((got = waitpid(pid, &ws, WNOHANG)) == 0 && waited < LIMIT_MS) {
		nanosleep(&(struct timespec){0, 20 * 1000000L}, NULL);
		waited += 20;
	}
	if (got == 0) {
		kill(pid, SIGKILL);
		waitpid(pid, &ws, 0);
	}
	posix_spawn_file_actions_destroy(&fa);
	close(fo);
	close(fe);
	slurp(out, r->out, sizeof r->out);
	slurp(err, r->err, sizeof r->err);
	unlink(out);
	unlink(err);
	if (got == 0)
		fail_msg("fray %s %s did not end in %d ms (blocked on an input?)", args[0], args[1] ? args[1] : "",
			 LIMIT_MS);
	assert_true(WIFEXITED(ws));
	r->status = WEXITSTATUS(ws);
}

static void run_bounded_in(result *r, const char *const *args, const char *in_path)
{
	run_bounded_io(r, args, in_path, NULL);
}

#define RUN_BOUNDED(r, ...) run_bounded_in((r), (const char *const[]){__VA_ARGS__, NULL}, NULL)

/* Refused as bad input: status 2, nothing on stdout, and stderr naming
 * the file and what it is. */
static void expect_refused(const result *r, const char *name, const char *what)
{
	assert_int_equal(r->status, 2);
	assert_string_equal(r->out, "");
	char want[512];
	snprintf(want, sizeof want, "%s: %s: expected a regular file (or - for standard input)\n", name, what);
	if (!strstr(r->err, want))
		fail_msg("wanted '%s' in: %s", want, r->err);
}

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fputs(text, f) >= 0, 1);
	assert_int_equal(fclose(f), 0);
}

/* A one-round adbg scenario (the tests' tiny battle) with the given CRT
 * path and the first red unit's name. */
static void write_scenario(const char *path, const char *crt, const char *red_name)
{
	char text[2048];
	snprintf(text, sizeof text,
		 "battle: Tiny\nterrain: wilderness\nweather: normal\ninitiative: red\nsurprise: none\n"
		 "melee_crt: %s\n"
		 "leader_loss:\n  after_fire: {roll: 1d6, lost_on: [6]}\n  after_melee: {roll: 1d6, lost_on: [6]}\n"
		 "victory:\n  rule: losses\n  routed: {roll: 1d6, eliminated_on: [1, 2, 3]}\n"
		 "sides:\n  red:\n    name: Red\n    level: 3\n    primary_leader: {name: Red Leader, rating: 1}\n"
		 "    stacks:\n      - - {name: \"%s\", type: warrior, fire: 3, melee: 2}\n"
		 "  blue:\n    name: Blue\n    level: 2\n    primary_leader: {name: Blue Leader, rating: 1, stack: 1}\n"
		 "    stacks:\n      - - {name: Blue militia, type: militia, fire: 2, melee: 2}\n",
		 crt, red_name);
	write_text(path, text);
}

static void make_fifo(void)
{
	unlink(FIFO);
	assert_int_equal(mkfifo(FIFO, 0600), 0);
}

/* Case 8: a FIFO with no writer, named on the command line, to each
 * reader: refused at once, never waited on. */
static void fifo_given_to_every_reader(void **state)
{
	(void)state;
	make_fifo();
	const char *const cmds[][6] = {
		{"check", FIFO},
		{"table", FIFO, "status"},
		{"request", FIFO},
		{"report", "--html", test_path("readers.html"), FIFO},
		{"adbg", "battle", FIFO, "--seed", "1"},
		{"adbg", "simulate", FIFO, "--trials", "1"},
		{"presidio", "units", FIFO},
		{"merge", FIFO},
		{"adbg", "resume", FIFO},
	};
	for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
		const char *const *c = cmds[i];
		run_bounded_in(&res, (const char *const[]){c[0], c[1], c[2], c[3], c[4], c[5], NULL}, NULL);
		expect_refused(&res, FIFO, "a FIFO (named pipe)");
	}
	struct stat st;
	assert_int_not_equal(stat(test_path("readers.html"), &st), 0); /* nothing written */
	unlink(FIFO);
}

/* Case 8: a FIFO named inside a file: a scenario's melee CRT, a combat
 * file's mix, a request's units file and scripted policy. */
static void fifo_named_in_a_file(void **state)
{
	(void)state;
	make_fifo();
	const char *sc = test_path("sc.yaml");
	write_scenario(sc, FIFO, "Red warriors");
	RUN_BOUNDED(&res, "check", sc);
	expect_refused(&res, FIFO, "a FIFO (named pipe)");
	assert_non_null(strstr(res.err, "sc.yaml:6:12: melee CRT: "));
	RUN_BOUNDED(&res, "adbg", "battle", sc, "--seed", "1");
	expect_refused(&res, FIFO, "a FIFO (named pipe)");
	const char *combat = test_path("combat.yaml");
	char text[1024];
	snprintf(text, sizeof text, "mix: %s\ntactic: hasty\nstance: attack\nterrain: open\ndraw: 2\n"
		 "attacker:\n  name: A\n  cdr: 12\n  type: infantry\n  units:\n"
		 "    - {name: A, battalions: 4, lead: 1, morale: 7, can_retreat: true}\n"
		 "defender:\n  name: D\n  cdr: 6\n  type: infantry\n  units:\n"
		 "    - {name: D, battalions: 4, lead: 1, morale: 7, can_retreat: true}\n", FIFO);
	write_text(combat, text);
	RUN_BOUNDED(&res, "chits", "combat", combat);
	expect_refused(&res, FIFO, "a FIFO (named pipe)");
	const char *req = test_path("req.json");
	snprintf(text, sizeof text, "{\"procedure\": \"presidio.morale\", \"inputs\": {\"units\": \"%s\", "
		 "\"unit\": \"x\", \"size\": \"squad\"}}", FIFO);
	write_text(req, text);
	RUN_BOUNDED(&res, "request", req);
	expect_refused(&res, FIFO, "a FIFO (named pipe)");
	RUN_BOUNDED(&res, "adbg", "battle", FRAY_SOURCE_DIR "/examples/adbg/lochry-1781.yaml", "--seed", "1",
		    "--policy", (snprintf(text, sizeof text, "scripted:%s", FIFO), text));
	expect_refused(&res, FIFO, "a FIFO (named pipe)");
	unlink(sc);
	unlink(combat);
	unlink(req);
	unlink(FIFO);
}

/* Case 8: devices, a folder and a socket, each named for what it is. */
static void devices_folders_sockets(void **state)
{
	(void)state;
	RUN_BOUNDED(&res, "check", "/dev/zero");
	expect_refused(&res, "/dev/zero", "a character device");
	RUN_BOUNDED(&res, "request", "/dev/urandom");
	expect_refused(&res, "/dev/urandom", "a character device");
	RUN_BOUNDED(&res, "adbg", "battle", "/dev/null", "--seed", "1");
	expect_refused(&res, "/dev/null", "a character device");
	RUN_BOUNDED(&res, "table", "/tmp", "status");
	expect_refused(&res, "/tmp", "a folder");
	const char *sock = test_path("readers.sock");
	unlink(sock);
	int s = socket(AF_UNIX, SOCK_STREAM, 0);
	assert_true(s >= 0);
	struct sockaddr_un addr = {.sun_family = AF_UNIX};
	strcpy(addr.sun_path, sock);
	assert_int_equal(bind(s, (struct sockaddr *)&addr, sizeof addr), 0);
	assert_int_equal(listen(s, 1), 0); /* a listener: opening it would not fail by itself */
	RUN_BOUNDED(&res, "check", sock);
	expect_refused(&res, sock, "a socket");
	RUN_BOUNDED(&res, "report", "--html", test_path("readers.html"), sock);
	expect_refused(&res, sock, "a socket");
	close(s);
	unlink(sock);
}

/* Standard input is still read, whatever it is: a pipe too, named "-" or
 * /dev/stdin (opened by name it would be the pipe, a FIFO, and refused). */
static void standard_input_still_read(void **state)
{
	(void)state;
	const char *units = FRAY_SOURCE_DIR "/examples/presidio/units.yaml";
	run_bounded_in(&res, (const char *const[]){"check", "-", NULL}, units);
	assert_int_equal(res.status, 0);
	assert_string_equal(res.out, "-: ok (presidio unit statistics)\n");
	make_fifo();
	pid_t w = fork();
	if (w == 0) {
		/* the writer: blocks until fray's standard input opens the FIFO */
		alarm(LIMIT_MS / 1000);
		int fd = open(FIFO, O_WRONLY);
		const char *text = "units:\n  militia: {ranged: 1, melee: 1, move: 0, recon: 1, camou: 1, armor: 0, "
				   "morale: inexperienced}\n";
		_exit(fd >= 0 && write(fd, text, strlen(text)) == (ssize_t)strlen(text) ? 0 : 1);
	}
	run_bounded_in(&res, (const char *const[]){"check", "/dev/stdin", NULL}, FIFO);
	int ws;
	assert_int_equal(waitpid(w, &ws, 0), w);
	assert_int_equal(res.status, 0);
	assert_string_equal(res.out, "/dev/stdin: ok (presidio unit statistics)\n");
	unlink(FIFO);
}

/* The output naming the input: `fray request r.json > r.json` finds r.json
 * emptied by the shell, and says so rather than "expected a request". */
static void output_is_the_input(void **state)
{
	(void)state;
	const char *req = test_path("same.json");
	write_text(req, "{\"procedure\": \"adbg.fire\", \"inputs\": {\"type\": \"regular\", \"cf\": 2, "
		   "\"terrain\": \"rough\"}, \"seed\": 1}");
	run_bounded_io(&res, (const char *const[]){"request", req, NULL}, NULL, req);
	assert_int_equal(res.status, 2);
	char want[512];
	snprintf(want, sizeof want, "fray request: %s: empty, and it is also where standard output goes: the shell "
		 "emptied it before fray started (send the output to another file)\n", req);
	assert_string_equal(res.err, want);
	/* an empty request elsewhere is only empty */
	write_text(req, "");
	RUN_BOUNDED(&res, "request", req);
	assert_int_equal(res.status, 2);
	assert_null(strstr(res.err, "standard output"));
	unlink(req);
}

/* The same for a game file: `fray table g.yaml log >> g.yaml` once wrote
 * the log into the game (which then no longer read), `> g.yaml` said only
 * "found nothing"; an action's output appended to it is refused before
 * anything is rolled. */
static void output_is_the_game(void **state)
{
	(void)state;
	const char *game = test_path("same-game.yaml");
	unlink(game);
	RUN_BOUNDED(&res, "table", "new", game, "--rules", "presidio", "--forces",
		    FRAY_SOURCE_DIR "/examples/presidio/forces.yaml", "--seed", "1");
	assert_int_equal(res.status, 0);
	static char before[1 << 16], now[1 << 16];
	slurp(game, before, sizeof before);
	const char *const cmds[][8] = {
		{"table", game, "log", NULL},
		{"table", game, "status", "--json", NULL},
		{"table", game, "shoot", "Presidials", "--at", "Apaches", "--range", "6"},
	};
	out_appends = true;
	for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
		const char *const *c = cmds[i];
		run_bounded_io(&res, (const char *const[]){c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7], NULL}, NULL,
			       game);
		if (res.status != 2 || !strstr(res.err, "it is also where standard output goes"))
			fail_msg("command %zu: status %d, %s", i, res.status, res.err);
		slurp(game, now, sizeof now);
		assert_string_equal(now, before);
	}
	out_appends = false;
	run_bounded_io(&res, (const char *const[]){"table", game, "status", NULL}, NULL, game);
	assert_int_equal(res.status, 2);
	char want[512];
	snprintf(want, sizeof want, "fray table: %s: empty, and it is also where standard output goes: the shell "
		 "emptied it before fray started (send the output to another file)\n", game);
	assert_string_equal(res.err, want);
	unlink(game);
}

/* A counting allocator: the largest block asked for. */
typedef struct counting {
	size_t largest;
} counting;

static void *count_alloc(void *ud, void *ptr, size_t size)
{
	counting *c = ud;
	if (size == 0) {
		free(ptr);
		return NULL;
	}
	if (size > c->largest)
		c->largest = size;
	return realloc(ptr, size);
}

/* Case 8: a regular file over the budget is refused from its size, before
 * a byte of it is read (nor the buffer for it allocated: the old reader
 * took 4 MiB and read them first). */
static void too_large_refused_before_reading(void **state)
{
	(void)state;
	const char *big = test_path("big.yaml");
	int fd = open(big, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, (off_t)FRAY_DOC_MAX_BYTES + 1), 0); /* sparse: no disk used */
	close(fd);
	counting c = {0};
	fray_ctx *ctx = fray_ctx_new(count_alloc, &c);
	assert_non_null(ctx);
	fray_doc *doc = NULL;
	assert_int_equal(fray_doc_load_file(ctx, big, &doc), FRAY_ERR_INPUT);
	assert_null(doc);
	char want[512];
	snprintf(want, sizeof want, "%s: file too large (the limit is 4 MiB)", big);
	assert_string_equal(fray_ctx_message(ctx), want);
	assert_true(c.largest < 4096);
	/* exactly the budget is still read */
	fd = open(big, O_WRONLY | O_TRUNC);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, (off_t)FRAY_DOC_MAX_BYTES), 0);
	close(fd);
	int in = -1;
	assert_int_equal(fray_input_open(ctx, big, FRAY_DOC_MAX_BYTES, &in), FRAY_OK);
	assert_true(in > 2);
	close(in);
	assert_int_equal(fray_input_open(ctx, big, FRAY_DOC_MAX_BYTES - 1, &in), FRAY_ERR_INPUT);
	assert_int_equal(in, -1);
	fray_ctx_free(ctx);
	/* a request file: its own budget, 1 MiB */
	fd = open(big, O_WRONLY | O_TRUNC);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, (off_t)FRAY_REQUEST_MAX_BYTES + 1), 0);
	close(fd);
	RUN_BOUNDED(&res, "request", big);
	assert_int_equal(res.status, 2);
	snprintf(want, sizeof want, "fray request: %s: file too large (the limit is 1 MiB)\n", big);
	assert_string_equal(res.err, want);
	unlink(big);
}

/* Case 12: a NUL inside a string, however escaped, is refused at the
 * string (line and column of its opening quote), in any reader. */
static void nul_inside_strings(void **state)
{
	(void)state;
	fray_ctx *ctx = fray_ctx_new(NULL, NULL);
	assert_non_null(ctx);
	static const struct {
		const char *text, *place;
	} cases[] = {
		{"{\"a\": \"x\\u0000y\"}", "t:1:7: "},        /* JSON */
		{"a: \"x\\0y\"\n", "t:1:4: "},                /* YAML \0 */
		{"a: \"x\\x00y\"\n", "t:1:4: "},              /* YAML \x00 */
		{"b: 1\n\"k\\u0000\": 2\n", "t:2:1: "},       /* a key */
		{"- [1, \"\\0\"]\n", "t:1:7: "},             /* deep in a list */
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		fray_doc *doc = NULL;
		assert_int_equal(fray_doc_load_string(ctx, "t", cases[i].text, strlen(cases[i].text), &doc),
				 FRAY_ERR_INPUT);
		assert_null(doc);
		char want[256];
		snprintf(want, sizeof want, "%sa NUL character in a string (\\u0000, \\x00 or \\0): expected text "
			 "without NUL", cases[i].place);
		assert_string_equal(fray_ctx_message(ctx), want);
	}
	/* a NUL written plainly, or a \u0001, is no NUL: still read */
	fray_doc *doc = NULL;
	assert_int_equal(fray_doc_load_string(ctx, "t", "a: \"x\\u0001y\\\\0\"\n", 17, &doc), FRAY_OK);
	assert_int_equal(strlen(fray_node_scalar(fray_map_get(fray_doc_root(doc), "a"))), 5);
	fray_doc_free(doc);
	/* the request that ran adbg.fire */
	char *out = NULL;
	assert_int_equal(fray_request(ctx, "{\"procedure\": \"adbg.fire\\u0000junk\", \"inputs\": {\"type\": "
				      "\"regular\", \"cf\": 2, \"terrain\": \"rough\"}, \"seed\": 1}", &out),
			 FRAY_ERR_INPUT);
	assert_null(out);
	assert_non_null(strstr(fray_ctx_message(ctx), ":1:15: a NUL character in a string"));
	fray_ctx_free(ctx);
	/* a scenario's unit name, from the command line */
	const char *sc = test_path("nul.yaml");
	write_scenario(sc, FRAY_SOURCE_DIR "/data/adbg/example-melee-crt.yaml", "Red\\u0000 warriors");
	RUN_BOUNDED(&res, "adbg", "battle", sc, "--seed", "1");
	assert_int_equal(res.status, 2);
	assert_string_equal(res.out, "");
	char want[512];
	snprintf(want, sizeof want, "fray adbg battle: %s:19:18: a NUL character in a string (\\u0000, \\x00 or "
		 "\\0): expected text without NUL\n", sc);
	assert_string_equal(res.err, want);
	unlink(sc);
}

/* The bidi controls, each as UTF-8 with its code point. */
static const struct {
	const char *utf8;
	const char *escaped;
} bidi[] = {
	{"\xD8\x9C", "\\u061c"},     {"\xE2\x80\x8E", "\\u200e"}, {"\xE2\x80\x8F", "\\u200f"},
	{"\xE2\x80\xAA", "\\u202a"}, {"\xE2\x80\xAB", "\\u202b"}, {"\xE2\x80\xAC", "\\u202c"},
	{"\xE2\x80\xAD", "\\u202d"}, {"\xE2\x80\xAE", "\\u202e"}, {"\xE2\x81\xA6", "\\u2066"},
	{"\xE2\x81\xA7", "\\u2067"}, {"\xE2\x81\xA8", "\\u2068"}, {"\xE2\x81\xA9", "\\u2069"},
};

/* Case 12: cli_tstr shows every bidi control as \uXXXX, and leaves their
 * neighbours (U+200D, U+2014, U+2070, Arabic letters) alone. */
static void bidi_escaped_in_names(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof bidi / sizeof bidi[0]; i++) {
		char name[64], want[64];
		snprintf(name, sizeof name, "Evil%sName", bidi[i].utf8);
		snprintf(want, sizeof want, "Evil%sName", bidi[i].escaped);
		assert_string_equal(cli_tstr(name), want);
	}
	const char *kept = "a\xE2\x80\x8D" "b\xE2\x80\x94" "c\xE2\x81\xB0" "d\xD8\xA8" "e\xC2\xA0" "f";
	assert_string_equal(cli_tstr(kept), kept);
	assert_string_equal(cli_tstr("\xE2\x80"), "\xE2\x80"); /* cut short: not a control */
	assert_string_equal(cli_tstr("x\xC2\x85y\x1b"), "x\\u0085y\\x1b");
}

/* What the guard writes for the given pieces, each one write. */
static void guarded(char *got, size_t cap, const char *const *pieces)
{
	char path[] = "/tmp/fray-readers-guard-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	guard g = {.fd = fd};
	for (size_t i = 0; pieces[i]; i++)
		assert_int_equal(guard_write(&g, pieces[i], strlen(pieces[i])), (ssize_t)strlen(pieces[i]));
	assert_int_equal(guard_close(&g), 0);
	close(fd);
	slurp(path, got, cap);
	unlink(path);
}

#define GUARDED(got, ...) guarded((got), sizeof (got), (const char *const[]){__VA_ARGS__, NULL})

/* Case 12: stdout and stderr themselves escape bidi controls, even split
 * between two writes, and let everything else through. */
static void bidi_escaped_on_the_streams(void **state)
{
	(void)state;
	char got[256];
	for (size_t i = 0; i < sizeof bidi / sizeof bidi[0]; i++) {
		char whole[32], want[32];
		snprintf(whole, sizeof whole, "<%s>", bidi[i].utf8);
		snprintf(want, sizeof want, "<%s>", bidi[i].escaped);
		GUARDED(got, whole);
		assert_string_equal(got, want);
		/* split after each byte */
		char a[8] = "<", b[8] = {0}, c[8] = {0};
		a[1] = bidi[i].utf8[0];
		b[0] = bidi[i].utf8[1];
		snprintf(c, sizeof c, "%s>", bidi[i].utf8 + 2);
		GUARDED(got, a, b, c);
		assert_string_equal(got, want);
	}
	GUARDED(got, "x\xE2", "\x80\x94y\xE2\x80");  /* an em dash passes; a cut lead at the end too */
	assert_string_equal(got, "x\xE2\x80\x94y\xE2\x80");
	GUARDED(got, "\xC2", "\x9B" "2J\xE2\x80\x1b");  /* C1 split; a control after a lead */
	assert_string_equal(got, "\\u009b2J\xE2\x80\\x1b");
	GUARDED(got, "\xE2\xE2\x80\xAE");                 /* a stray lead, then a control */
	assert_string_equal(got, "\xE2\\u202e");
}

/* Case 12, end to end: a unit's name with a bidi control, told by the
 * battle's story, reaches stdout escaped. */
static void bidi_escaped_in_a_story(void **state)
{
	(void)state;
	const char *sc = test_path("bidi.yaml");
	write_scenario(sc, FRAY_SOURCE_DIR "/data/adbg/example-melee-crt.yaml", "Red \xE2\x80\xAEsroirraw");
	RUN_BOUNDED(&res, "adbg", "battle", sc, "--seed", "1");
	assert_int_equal(res.status, 0);
	assert_non_null(strstr(res.out, "Red \\u202esroirraw"));
	assert_null(strstr(res.out, "\xE2\x80\xAE"));
	RUN_BOUNDED(&res, "check", sc);
	assert_int_equal(res.status, 0);
	unlink(sc);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fifo_given_to_every_reader),
		cmocka_unit_test(fifo_named_in_a_file),
		cmocka_unit_test(devices_folders_sockets),
		cmocka_unit_test(standard_input_still_read),
		cmocka_unit_test(too_large_refused_before_reading),
		cmocka_unit_test(output_is_the_input),
		cmocka_unit_test(output_is_the_game),
		cmocka_unit_test(nul_inside_strings),
		cmocka_unit_test(bidi_escaped_in_names),
		cmocka_unit_test(bidi_escaped_on_the_streams),
		cmocka_unit_test(bidi_escaped_in_a_story),
	};
	if (test_dir_make("readers"))
		return 1;
	snprintf(fifo_path, sizeof fifo_path, "%s/fifo", test_dir);
	int failed = cmocka_run_group_tests(tests, NULL, NULL);
	test_dir_remove();
	return failed;
}
