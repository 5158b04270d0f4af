/* fray adbg from the command line: procedures' odds in the common JSON
 * shape, battles replayable from their seed, save and resume, every
 * problem of a bad scenario, and the interactive policy on a terminal. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include "../test_util.h"
#include <fray/fray.h>
#include "run.h"

static result r1, r2;

#define EX FRAY_SOURCE_DIR "/examples/adbg/"
#define CRT FRAY_SOURCE_DIR "/data/adbg/example-melee-crt.yaml"

static fray_doc *parse_json(fray_ctx *lctx, const char *text)
{
	fray_doc *doc;
	assert_int_equal(fray_doc_load_string(lctx, "stdout", text, strlen(text), &doc), FRAY_OK);
	return doc;
}

/* {"procedure": "adbg.fire", "inputs": {...}, "outcomes": [{"outcome":
 * {"hit": ...}, "p", "exact"}], "unresolved": 0}: a regular, CF 2, in a
 * settled area fires with CF 4 and DR -1: faces 1-5 hit (19.2.1). */
static void fire_odds_json(void **state)
{
	(void)state;
	RUN(&r1, "adbg", "fire", "--type", "regular", "--cf", "2", "--terrain", "settled", "--odds", "--json");
	assert_int_equal(r1.status, 0);
	fray_ctx *lctx = fray_ctx_new(NULL, NULL);
	fray_doc *doc = parse_json(lctx, r1.out);
	const fray_node *root = fray_doc_root(doc);
	assert_string_equal(fray_node_scalar(fray_map_get(root, "procedure")), "adbg.fire");
	assert_string_equal(fray_node_scalar(fray_map_get(fray_map_get(root, "inputs"), "terrain")), "settled");
	assert_string_equal(fray_node_scalar(fray_map_get(root, "unresolved")), "0");
	const fray_node *out = fray_map_get(root, "outcomes");
	assert_int_equal(fray_node_len(out), 2);
	const fray_node *hit = fray_node_item(out, 1);
	assert_string_equal(fray_node_scalar(fray_map_get(fray_map_get(hit, "outcome"), "hit")), "true");
	assert_string_equal(fray_node_scalar(fray_map_get(hit, "exact")), "5/6");
	fray_doc_free(doc);
	fray_ctx_free(lctx);

	/* the same in severe weather: the starred DR is lost, the x2 stays:
	 * faces 1-4 hit */
	RUN(&r1, "adbg", "fire", "--type", "regular", "--cf", "2", "--terrain", "settled",
	    "--weather", "severe", "--odds");
	assert_non_null(strstr(r1.out, " 66.667%  2/3          hit"));
}

static void procedures_roll_and_explain(void **state)
{
	(void)state;
	RUN(&r1, "adbg", "recover", "--level", "2", "--leader", "1", "--seed", "3");
	RUN(&r2, "adbg", "recover", "--level", "2", "--leader", "1", "--seed", "3");
	assert_int_equal(r1.status, 0);
	assert_string_equal(r1.out, r2.out);
	assert_non_null(strstr(r1.out, "leader's command rating: -1 [ADBG 19.2.4]"));
	/* 19.1, R1: rating 3 gives one more round on 1 or 2 */
	RUN(&r1, "adbg", "rounds", "--initiative-rating", "2", "--attempt", "--other-rating", "3", "--odds");
	/* 3 rounds: 1/3, at least 3 rounds 1/3, at most 3 certain */
	assert_non_null(strstr(r1.out, "         3   33.333%   33.333%  100.000%  1/3\n"));
	/* melee, unit form: warriors x3 in rough = 9 against militia x2 = 4 */
	RUN(&r1, "adbg", "melee", "--crt", CRT, "--attacker", "warrior:3", "--defender",
	    "militia:2", "--terrain", "rough", "--seed", "1");
	assert_int_equal(r1.status, 0);
	assert_non_null(strstr(r1.out, "9 to 4: column 2:1"));
	RUN(&r1, "adbg", "melee", "--crt", CRT, "--attacker", "warrior:3", "--defender",
	    "militia:2:routed", "--terrain", "rough");
	assert_non_null(strstr(r1.out, "every defending unit is routed: all 1 eliminated, no roll"));
}

static void procedure_bad_input(void **state)
{
	(void)state;
	static const struct {
		const char *args[10];
		const char *err;
	} rows[] = {
		{{"adbg", "fire", "--type", "hussar", "--cf", "2", "--terrain", "rough"},
		 "fray adbg fire: option --type expects one of warrior, regular, militia, rifle, got 'hussar'\n"},
		{{"adbg", "fire", "--type", "militia", "--cf", "12", "--terrain", "rough"},
		 "fray adbg fire: option --cf expects a whole number from 0 to 9, got '12'\n"},
		{{"adbg", "move", "--level", "3", "--type", "militia", "--terrain", "rough", "--surprise-winner-round1"},
		 "fray adbg move: --surprise-winner-round1 helps only units stacked with a leader: give --leader R (ADBG 19.2.2)\n"},
		{{"adbg", "recover", "--leader", "1"}, "fray adbg recover: missing --level (see 'fray adbg recover --help')\n"},
		{{"adbg", "melee", "--attack", "3", "--defend", "1"},
		 "fray adbg melee: missing --crt FILE: the melee CRT is your game's table (an example: data/adbg/example-melee-crt.yaml)\n"},
		{{"adbg", "recover", "--level", "2", "--odds", "--seed", "4"},
		 "fray adbg recover: --odds and --seed do not go together: odds roll no dice\n"},
		{{"adbg", "charge"},
		 "fray adbg: unknown procedure 'charge' (procedures: fire, move, melee, recover, rounds, battle, resume, odds, simulate, sweep)\n"},
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
		expect_bad_input(rows[i].args, rows[i].err);
}

/* Every problem of a scenario is printed, each with file:line:col. */
static void bad_scenario_lists_every_problem(void **state)
{
	(void)state;
	RUN(&r1, "adbg", "battle", FRAY_TEST_DATA "/adbg/bad/many.yaml");
	assert_int_equal(r1.status, 2);
	assert_string_equal(r1.err,
			    "fray adbg battle: " FRAY_TEST_DATA "/adbg/bad/many.yaml:4:1: unknown key 'colour'\n"
			    "fray adbg battle: " FRAY_TEST_DATA "/adbg/bad/many.yaml:3:10: expected the battle terrain: one of rough, wilderness, settled\n");
	assert_string_equal(r1.out, "");
}

static void battle_replays_and_reports(void **state)
{
	(void)state;
	RUN(&r1, "adbg", "battle", EX "blue-licks-1782.yaml", "--seed", "1782");
	RUN(&r2, "adbg", "battle", EX "blue-licks-1782.yaml", "--seed", "1782");
	assert_int_equal(r1.status, 0);
	assert_string_equal(r1.out, r2.out);
	assert_non_null(strstr(r1.out, "== round 1 of "));
	assert_non_null(strstr(r1.out, "\nresult: "));
	RUN(&r2, "adbg", "battle", EX "blue-licks-1782.yaml", "--seed", "1782", "--json");
	fray_ctx *lctx = fray_ctx_new(NULL, NULL);
	fray_doc *doc = parse_json(lctx, r2.out);
	const fray_node *res = fray_map_get(fray_doc_root(doc), "result");
	assert_non_null(res);
	assert_int_equal(fray_node_len(fray_map_get(res, "sides")), 2);
	assert_true(fray_node_len(fray_map_get(fray_doc_root(doc), "events")) > 20);
	fray_doc_free(doc);
	fray_ctx_free(lctx);
}

/* Stopped after round 1 and resumed, the battle goes on exactly as the
 * uninterrupted one: same rounds after, same result. */
static void save_and_resume(void **state)
{
	(void)state;
	char save[] = "/tmp/fray-save-XXXXXX";
	int fd = mkstemp(save);
	assert_true(fd >= 0);
	close(fd);
	RUN(&r1, "adbg", "battle", EX "lochry-1781.yaml", "--seed", "99");
	RUN(&r2, "adbg", "battle", EX "lochry-1781.yaml", "--seed", "99", "--save", save, "--stop-after", "1");
	assert_int_equal(r2.status, 0);
	assert_non_null(strstr(r2.out, "stopped after round 1; go on with: fray adbg resume"));
	result *r3 = malloc(sizeof *r3);
	RUN(r3, "adbg", "resume", save);
	assert_int_equal(r3->status, 0);
	const char *a = strstr(r1.out, "== round 2 of"), *b = strstr(r3->out, "== round 2 of");
	assert_non_null(a);
	assert_non_null(b);
	assert_string_equal(a, b);
	/* a save from a future fray is refused, never misread */
	FILE *f = fopen(save, "r+");
	char text[65536];
	size_t n = fread(text, 1, sizeof text - 1, f);
	text[n] = '\0';
	char *v = strstr(text, "fray_save: 2");
	assert_non_null(v);
	v[11] = '7';
	rewind(f);
	fwrite(text, 1, n, f);
	fclose(f);
	RUN(r3, "adbg", "resume", save);
	assert_int_equal(r3->status, 2);
	assert_non_null(strstr(r3->err, ":2:12: save format version 7 is not one this fray reads (version 2)"));
	unlink(save);
	free(r3);
}

/* Simulation: the same result for one thread or two, and two shards merged
 * give exactly the result of one run (ruling R24). */
static void simulate_shards_merge(void **state)
{
	(void)state;
	char s1[] = "/tmp/fray-shard1-XXXXXX", s2[] = "/tmp/fray-shard2-XXXXXX";
	close(mkstemp(s1));
	close(mkstemp(s2));
	RUN(&r1, "adbg", "simulate", EX "lochry-1781.yaml", "--trials", "20000", "--seed", "5", "--threads", "1", "--json");
	RUN(&r2, "adbg", "simulate", EX "lochry-1781.yaml", "--trials", "20000", "--seed", "5", "--threads", "2", "--json");
	assert_int_equal(r1.status, 0);
	assert_string_equal(r1.out, r2.out);
	assert_non_null(strstr(r1.out, "\"trials\": 20000, \"counted\": 20000, \"partial\": false"));
	RUN(&r2, "adbg", "simulate", EX "lochry-1781.yaml", "--trials", "20000", "--seed", "5", "--shard", "2/2",
	    "--output", s2);
	assert_int_equal(r2.status, 0);
	RUN(&r2, "adbg", "simulate", EX "lochry-1781.yaml", "--trials", "20000", "--seed", "5", "--shard", "1/2",
	    "--output", s1);
	RUN(&r2, "merge", s2, s1, "--json");
	assert_int_equal(r2.status, 0);
	assert_string_equal(r1.out, r2.out);
	/* with the random policy too: its choices restart from each battle's
	 * number, so the shards do not depend on the battles before them */
	RUN(&r1, "adbg", "simulate", EX "lochry-1781.yaml", "--trials", "4000", "--policy", "random:9", "--json");
	RUN(&r2, "adbg", "simulate", EX "lochry-1781.yaml", "--trials", "4000", "--policy", "random:9", "--shard",
	    "2/2", "--output", s2);
	RUN(&r2, "adbg", "simulate", EX "lochry-1781.yaml", "--trials", "4000", "--policy", "random:9", "--shard",
	    "1/2", "--output", s1);
	RUN(&r2, "merge", s1, s2, "--json");
	assert_int_equal(r2.status, 0);
	assert_string_equal(r1.out, r2.out);
	RUN(&r2, "adbg", "simulate", EX "lochry-1781.yaml", "--trials", "20000", "--seed", "5", "--shard", "1/2",
	    "--output", s1);
	/* one shard alone is marked partial */
	RUN(&r2, "merge", s1);
	assert_non_null(strstr(r2.out, "PARTIAL: 1 of 2 shards merged; 10000 of 20000 battles counted"));
	assert_int_equal(r2.status, 1); /* not the whole run: never 0 */
	RUN(&r2, "merge", s1, s1);
	assert_int_equal(r2.status, 2);
	assert_non_null(strstr(r2.err, "shard 1 of 2 given twice"));
	/* a shard of another seed is refused */
	RUN(&r2, "adbg", "simulate", EX "lochry-1781.yaml", "--trials", "20000", "--seed", "6", "--shard", "2/2",
	    "--output", s2);
	RUN(&r2, "merge", s1, s2);
	assert_int_equal(r2.status, 2);
	assert_non_null(strstr(r2.err, "not a shard of the same run"));
	/* a count changed by hand no longer adds up, and is named */
	FILE *f = fopen(s1, "r+");
	char text[8192];
	size_t n = fread(text, 1, sizeof text - 1, f);
	text[n] = '\0';
	char *c = strstr(text, "\"counts\": [\n  [[0, ");
	assert_non_null(c);
	c[strlen("\"counts\": [\n  [[0, ")] = c[strlen("\"counts\": [\n  [[0, ")] == '9' ? '8' : '9';
	rewind(f);
	fwrite(text, 1, n, f);
	fclose(f);
	RUN(&r2, "merge", s1);
	assert_int_equal(r2.status, 2);
	assert_non_null(strstr(r2.err, ":5:3: the counts add up to"));
	unlink(s1);
	unlink(s2);
}

/* A sweep's point is the simulation of the scenario with that value: the
 * file's own terrain gives the plain run's win rates; a bad value is told
 * with its place before any battle is fought. */
static void sweep_points(void **state)
{
	(void)state;
	RUN(&r1, "adbg", "simulate", EX "lochry-1781.yaml", "--trials", "3000", "--json");
	RUN(&r2, "adbg", "sweep", EX "lochry-1781.yaml", "--vary", "terrain=settled,wilderness", "--trials", "3000",
	    "--json");
	assert_int_equal(r2.status, 0);
	const char *win = strstr(r1.out, "\"win\": "); /* Brant's: side 1 never wins */
	assert_non_null(win);
	win = strstr(win + 1, "\"win\": ");
	assert_non_null(win);
	char first_win[200];
	snprintf(first_win, sizeof first_win, "%.*s", (int)(strchr(win, '}') - win - 7), win + 7);
	const char *point = strstr(r2.out, "\"values\": [\"wilderness\"]");
	assert_non_null(point);
	assert_non_null(strstr(point, first_win));
	/* and the changed terrain did change the battle (settled: x1 melee) */
	const char *settled = strstr(r2.out, "\"values\": [\"settled\"]");
	assert_non_null(settled);
	assert_true(settled < point);
	char *found = strstr(settled, first_win);
	assert_true(found == NULL || found > point);
	RUN(&r2, "adbg", "sweep", EX "lochry-1781.yaml", "--vary", "terrain=wilderness,forest", "--trials", "10");
	assert_int_equal(r2.status, 2);
	assert_non_null(strstr(r2.err, "with terrain=forest: "));
	assert_non_null(strstr(r2.err, "lochry-1781.yaml:11:10: expected the battle terrain"));
	assert_string_equal(r2.out, "");
	RUN(&r2, "adbg", "sweep", EX "lochry-1781.yaml", "--vary", "sides.x.level=1");
	assert_int_equal(r2.status, 2);
	assert_non_null(strstr(r2.err, "no key 'x' in 'sides.x.level'"));
}

/* The interactive policy on a pseudo-terminal: answering every question
 * with Enter takes the defaults, which are the heuristic's choices, so
 * the battle is the heuristic one. */
static void interactive_on_a_terminal(void **state)
{
	(void)state;
	int master;
	pid_t pid = forkpty(&master, NULL, NULL, NULL);
	assert_true(pid >= 0);
	if (pid == 0) {
		execl(FRAY_BIN, FRAY_BIN, "adbg", "battle", FRAY_TEST_DATA "/adbg/tiny.yaml",
		      "--seed", "6", "--policy", "interactive", (char *)NULL);
		_exit(127);
	}
	static char seen[65536];
	size_t len = 0;
	int questions = 0;
	for (;;) {
		struct pollfd pfd = {master, POLLIN, 0};
		if (poll(&pfd, 1, 10000) <= 0)
			break;
		ssize_t k = read(master, seen + len, sizeof seen - 1 - len);
		if (k <= 0)
			break;
		len += (size_t)k;
		seen[len] = '\0';
		/* answer each prompt once it is shown */
		const char *p = seen;
		int prompts = 0;
		while ((p = strstr(p, "choice [")) != NULL) {
			prompts++;
			p++;
		}
		while (questions < prompts) {
			assert_int_equal(write(master, "\n", 1), 1);
			questions++;
		}
	}
	int ws;
	waitpid(pid, &ws, 0);
	close(master);
	assert_true(WIFEXITED(ws) && WEXITSTATUS(ws) == 0);
	/* asked: one more round (no, yes) and the move (stay, attack); the
	 * set-up, the target and the losses have one option each: told */
	assert_int_equal(questions, 2);
	assert_non_null(strstr(seen, "where does stack 1 (Red warriors) stand?: opposite stack 1 (Blue militia), "
				     "row 1 (the only choice)"));
	assert_non_null(strstr(seen, "Red: what does stack 1 (Red warriors) do?"));
	assert_non_null(strstr(seen, "[default]"));
	assert_non_null(strstr(seen, "result: a draw after 1 round"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fire_odds_json),
		cmocka_unit_test(procedures_roll_and_explain),
		cmocka_unit_test(procedure_bad_input),
		cmocka_unit_test(bad_scenario_lists_every_problem),
		cmocka_unit_test(battle_replays_and_reports),
		cmocka_unit_test(save_and_resume),
		cmocka_unit_test(simulate_shards_merge),
		cmocka_unit_test(sweep_points),
		cmocka_unit_test(interactive_on_a_terminal),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
