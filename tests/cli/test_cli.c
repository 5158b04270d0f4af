/* The fray command as a user meets it: outputs, JSON shapes, exit statuses
 * and the messages for bad input. Runs the built binary. */
#include <setjmp.h>
#include <spawn.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>
#include "../test_util.h"
#include <fray/fray.h>

#include "run.h"

static result r1, r2;

/* fray odds 2d6 --json: one JSON document of the documented shape, with
 * P(7) = 1/6 exactly. Read back with fray's own YAML/JSON reader. */
static void odds_json_shape(void **state)
{
	(void)state;
	RUN(&r1, "odds", "2d6", "--json");
	assert_int_equal(r1.status, 0);
	assert_string_equal(r1.err, "");
	fray_ctx *lctx = fray_ctx_new(NULL, NULL);
	fray_doc *doc;
	assert_int_equal(fray_doc_load_string(lctx, "stdout", r1.out, strlen(r1.out), &doc), FRAY_OK);
	const fray_node *root = fray_doc_root(doc);
	assert_string_equal(fray_node_scalar(fray_map_get(root, "expression")), "2d6");
	const fray_node *outcomes = fray_map_get(root, "outcomes");
	assert_int_equal(fray_node_len(outcomes), 11);
	double sum = 0;
	for (size_t i = 0; i < 11; i++) {
		const fray_node *o = fray_node_item(outcomes, i);
		int v = atoi(fray_node_scalar(fray_map_get(o, "value")));
		double p = atof(fray_node_scalar(fray_map_get(o, "p")));
		int ways = v <= 7 ? v - 1 : 13 - v; /* 2d6 face count */
		assert_int_equal(v, (int)i + 2);
		assert_double_equal(p, ways / 36.0, 1e-17);
		sum += p;
		if (v == 7)
			assert_string_equal(fray_node_scalar(fray_map_get(o, "exact")), "1/6");
	}
	assert_double_equal(sum, 1.0, 1e-12);
	fray_doc_free(doc);
	fray_ctx_free(lctx);
}

static void odds_text_and_queries(void **state)
{
	(void)state;
	RUN(&r1, "odds", "2d6", "--at-least", "8");
	assert_int_equal(r1.status, 0);
	assert_non_null(strstr(r1.out, "P(total >= 8) = 5/12 = 41.667%")); /* 15/36 */
	assert_null(strstr(r1.out, "\033[")); /* not a terminal: no colour */
	RUN(&r1, "odds", "1d6-1d6", "--at-least", "-1", "--at-most", "1");
	assert_non_null(strstr(r1.out, "P(-1 <= total <= 1) = 4/9")); /* 16/36 */
	RUN(&r1, "odds", "d6!", "--at-least", "12", "--json");
	assert_non_null(strstr(r1.out, "\"query\": {\"at_least\": 12, \"p\": 0.027777777777777776, \"exact\": \"1/36\"}"));
	/* 2d6 shows 7: 6/36; at least 7: 21/36; at most 7: 21/36 */
	RUN(&r1, "odds", "2d6");
	assert_non_null(strstr(r1.out, "     7   16.667%    58.333%    58.333%  1/6 "));
}

/* Odds people can read (issue #16): 30d12's 331 totals without the tails
 * that hold less than 0.05% each, said so, and no 30-digit fraction;
 * --exact shows every total with its fraction. */
static void long_odds_leave_out_thin_tails(void **state)
{
	(void)state;
	RUN(&r1, "odds", "30d12");
	assert_int_equal(r1.status, 0);
	assert_non_null(strstr(r1.out, "values below"));
	assert_non_null(strstr(r1.out, "values above"));
	assert_non_null(strstr(r1.out, "--exact shows every value"));
	assert_null(strstr(r1.out, "/237376313799769806328950291431424")); /* 1/12^30, the 30 */
	RUN(&r2, "odds", "30d12", "--exact");
	assert_int_equal(r2.status, 0);
	assert_null(strstr(r2.out, "values below"));
	/* P(30) = 1/12^30, reduced: 1/237376313799769806328950291431424 */
	assert_non_null(strstr(r2.out, "    30    0.000%   100.000%     0.000%  1/237376313799769806328950291431424"));
	int rows = 0;
	for (const char *p = r2.out; (p = strchr(p, '\n')); p++)
		rows += p[1] == ' ' && p[6] >= '0' && p[6] <= '9';
	assert_int_equal(rows, 331);
}

/* The same seed gives the same story every time; --json tells the same. */
static void roll_is_replayable(void **state)
{
	(void)state;
	RUN(&r1, "roll", "3d6", "--seed", "42");
	RUN(&r2, "roll", "3d6", "--seed", "42");
	assert_int_equal(r1.status, 0);
	assert_string_equal(r1.out, r2.out);
	assert_memory_equal(r1.out, "3d6 (seed 42)\n", 14);
	/* the dice are those of stream 0 of seed 42, by the library */
	fray_ctx *lctx = fray_ctx_new(NULL, NULL);
	fray_rng rng;
	fray_rng_init(&rng, 42, 0);
	int total = 0;
	char want[256];
	size_t len = (size_t)snprintf(want, sizeof want, "3d6 (seed 42)\n");
	for (int i = 0; i < 3; i++) {
		int face = 1 + (int)fray_rng_below(&rng, 6);
		total += face;
		len += (size_t)snprintf(want + len, sizeof want - len, "  3d6: d6 -> %d\n", face);
	}
	snprintf(want + len, sizeof want - len, "total: %d\n", total);
	assert_string_equal(r1.out, want);
	fray_ctx_free(lctx);

	RUN(&r2, "roll", "3d6", "--seed=42", "--json");
	char key[32];
	snprintf(key, sizeof key, "\"total\": %d}", total);
	assert_non_null(strstr(r2.out, key));
	assert_non_null(strstr(r2.out, "\"seed\": 42"));
}

static void roll_without_seed_prints_one(void **state)
{
	(void)state;
	RUN(&r1, "roll", "d20");
	assert_int_equal(r1.status, 0);
	unsigned long long seed;
	assert_int_equal(sscanf(r1.out, "1d20 (seed %llu; replay with --seed)", &seed), 1);
	char s[32];
	snprintf(s, sizeof s, "%llu", seed);
	RUN(&r2, "roll", "d20", "--seed", s);
	/* same dice after the first line */
	assert_string_equal(strchr(r1.out, '\n'), strchr(r2.out, '\n'));
}

static void bad_input_exits_2_with_a_position(void **state)
{
	(void)state;
	static const struct {
		const char *args[4];
		const char *err;
	} rows[] = {
		{{"odds", "2d6+x"}, "fray odds: bad dice expression '2d6+x': column 5: expected a dice term such as 2d6, d30 or a number, got 'x'\n"},
		{{"roll", "3d"}, "fray roll: bad dice expression '3d': column 3: expected the number of sides after 'd' (as in 2d6), got the end\n"},
		{{"roll", "2d6", "--seed", "-4"}, "fray roll: option --seed expects a whole number from 0 to 18446744073709551615, got '-4'\n"},
		{{"roll", "2d6", "--sed"}, "fray roll: unknown option '--sed' (did you mean '--seed'?)\n"},
		/* "did you mean" for commands, procedures and help topics too (#18) */
		{{"presidoi", "shoot"}, "fray: unknown command 'presidoi' (did you mean 'presidio'?)\n"},
		{{"adbg", "fier"}, "fray adbg: unknown procedure 'fier' (did you mean 'fire'?)\n"},
		{{"help", "dicee"}, "fray help: no topic 'dicee' (did you mean 'dice'?)\n"},
		{{"roll"}, "fray roll: expected a dice expression, such as 'fray roll 2d6+1'\n"},
		{{"odds", "2d6", "--at-least"}, "fray odds: option --at-least expects a value\n"},
		{{"fight"}, "fray: unknown command 'fight' (commands: roll, odds, check, adbg, merge, bbb, chits, presidio, dice, procedures, request, serve, report, table, scenario, help)\n"},
		{{"check", FRAY_TEST_DATA "/bad-script.yaml"}, "fray check: " FRAY_TEST_DATA "/bad-script.yaml:3:5: expected an answer: a single value, found a list\n"},
		{{"help", "nothing"}, "fray help: no topic 'nothing' (topics: roll, odds, check, adbg, merge, bbb, chits, presidio, dice, procedures, request, serve, report, table, scenario, seeds, json, exit, examples, rules)\n"},
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		run(&r1, rows[i].args);
		assert_int_equal(r1.status, 2);
		assert_string_equal(r1.out, "");
		assert_string_equal(r1.err, rows[i].err);
	}
	/* a YAML syntax error: one line, file:line:col */
	RUN(&r1, "check", FRAY_TEST_DATA "/broken.yaml");
	assert_int_equal(r1.status, 2);
	int line, col;
	char fmt[256];
	snprintf(fmt, sizeof fmt, "fray check: %s:%%d:%%d: ", FRAY_TEST_DATA "/broken.yaml");
	assert_int_equal(sscanf(r1.err, fmt, &line, &col), 2);
	assert_ptr_equal(strchr(r1.err, '\n'), r1.err + strlen(r1.err) - 1);
}

/* fray SET PROC falls through to the catalogue: every procedure it lists
 * answers to its command, its other command too ("presidio stampede"), and
 * an unknown name is told with the set's procedures in the catalogue's
 * order, then the set's other commands. */
static void procedures_come_from_the_catalogue(void **state)
{
	(void)state;
	for (size_t i = 0; fray_procedure_command(i); i++) {
		char set[32], proc[48];
		assert_int_equal(sscanf(fray_procedure_command(i), "%31s %47s", set, proc), 2);
		run(&r1, (const char *const[]){set, proc, "--help", NULL});
		assert_int_equal(r1.status, 0);
		char head[96];
		snprintf(head, sizeof head, "fray %s", fray_procedure_command(i));
		assert_memory_equal(r1.out, head, strlen(head));
		assert_true(r1.out[strlen(head)] == ' ' || r1.out[strlen(head)] == '\n'); /* a listing may have no options */
	}
	RUN(&r1, "help", "presidio", "stampede");
	assert_int_equal(r1.status, 0);
	assert_memory_equal(r1.out, "fray presidio ram ", 18);
	RUN(&r1, "presidio", "stampede", "--animal", "cattle", "--figures", "2", "--odds", "--json");
	RUN(&r2, "presidio", "ram", "--animal", "cattle", "--figures", "2", "--odds", "--json");
	assert_int_equal(r1.status, 0);
	assert_string_equal(r1.out, r2.out);
	RUN(&r1, "chits", "nonsense");
	assert_int_equal(r1.status, 2);
	assert_string_equal(r1.err, "fray chits: unknown procedure 'nonsense' (procedures: combat, advise, end-turn, ratio)\n");
	/* the combat file without its option: fray chits combat FILE */
	RUN(&r1, "chits", "combat", FRAY_SOURCE_DIR "/examples/chits/example-1.yaml", "--seed", "3", "--json");
	RUN(&r2, "chits", "combat", "--combat", FRAY_SOURCE_DIR "/examples/chits/example-1.yaml", "--seed", "3", "--json");
	assert_int_equal(r1.status, 0);
	assert_string_equal(r1.out, r2.out);
}

/* fray help SET lists every procedure and listing of the set that the
 * catalogue holds (its summary and rules from the descriptor): a line
 * "  fray COMMAND" for each, so a procedure added to the catalogue is in
 * its set's topic without a hand edit (issue 30; presidio tracking was
 * missing from the hand list). */
static void help_of_a_set_lists_the_catalogue(void **state)
{
	(void)state;
	static const char *const sets[] = {"adbg", "bbb", "chits", "presidio"};
	for (size_t s = 0; s < sizeof sets / sizeof sets[0]; s++) {
		RUN(&r1, "help", sets[s]);
		assert_int_equal(r1.status, 0);
		size_t listed = 0;
		for (size_t i = 0; fray_procedure_command(i); i++) {
			const char *command = fray_procedure_command(i);
			if (strncmp(command, sets[s], strlen(sets[s])) != 0 || command[strlen(sets[s])] != ' ')
				continue;
			char line[96];
			snprintf(line, sizeof line, "\n  fray %s", command);
			const char *at = strstr(r1.out, line);
			if (!at || (at[strlen(line)] != ' ' && at[strlen(line)] != '\n'))
				fail_msg("fray help %s does not list '%s'", sets[s], command);
			listed++;
		}
		assert_true(listed >= 4);
	}
	RUN(&r1, "help", "presidio");
	assert_non_null(strstr(r1.out, "\n  fray presidio tracking "));
}

/* `fray help table` lists every action the game API offers (include/fray/
 * game.h), each under its own rule set, with its words: the help names no
 * action by hand (issue 30). */
static void help_table_lists_every_game_action(void **state)
{
	(void)state;
	RUN(&r1, "help", "table");
	assert_int_equal(r1.status, 0);
	size_t sets = 0;
	for (size_t r = 0; fray_game_rule_set(r); r++, sets++) {
		char heading[96];
		snprintf(heading, sizeof heading, "\nActions of --rules %s:\n", fray_game_rule_set(r));
		const char *section = strstr(r1.out, heading), *usage;
		if (!section)
			fail_msg("fray help table has no '%s'", heading + 1);
		const char *end = strstr(section + 1, "\nActions of --rules ");
		size_t actions = 0;
		for (size_t i = 0; fray_game_rule_set_action(fray_game_rule_set(r), i, &usage); i++, actions++) {
			char line[96];
			snprintf(line, sizeof line, "\n  %s ", fray_game_rule_set_action(fray_game_rule_set(r), i, NULL));
			const char *at = strstr(section, line);
			if (!at || (end && at > end))
				fail_msg("fray help table does not list '%s' under %s", line + 3, fray_game_rule_set(r));
			/* its words follow, their first word on the same line */
			char first[32];
			snprintf(first, sizeof first, "%.*s", (int)strcspn(usage, " "), usage);
			const char *eol = strchr(at + 1, '\n');
			const char *w = strstr(at, first);
			assert_true(w && w < eol);
		}
		assert_true(actions >= 2);
	}
	assert_int_equal(sets, 3);
	assert_null(fray_game_rule_set_action("adbg", 0, NULL));
}

/* fray table's messages name the rule sets and actions the library lists
 * (include/fray/game.h), none by hand: the usage of `table new`, and
 * `--odds` of an action that rolls no dice, which lists the game's own
 * rule set's actions (it said "shoot, charge" for every rule set). */
static void table_messages_name_the_librarys_lists(void **state)
{
	(void)state;
	char want[512] = "--rules ";
	for (size_t r = 0; fray_game_rule_set(r); r++)
		snprintf(want + strlen(want), sizeof want - strlen(want), "%s%s", r ? "|" : "", fray_game_rule_set(r));
	RUN(&r1, "table", "new");
	assert_int_equal(r1.status, 2);
	if (!strstr(r1.err, want))
		fail_msg("'%s' not in: %s", want, r1.err);
	char dir[] = "/tmp/fray-test-cli-XXXXXX";
	assert_non_null(mkdtemp(dir));
	for (size_t r = 0; fray_game_rule_set(r); r++) {
		const char *rules = fray_game_rule_set(r);
		char game[96], forces[1024];
		snprintf(game, sizeof game, "%s/%s.yaml", dir, rules);
		snprintf(forces, sizeof forces, "%s/examples/%s/forces.yaml", FRAY_SOURCE_DIR, rules);
		RUN(&r1, "table", "new", game, "--rules", rules, "--forces", forces, "--seed", "1");
		assert_int_equal(r1.status, 0);
		RUN(&r1, "table", game, "turn", "--odds");
		assert_int_equal(r1.status, 2);
		snprintf(want, sizeof want, "(%s: ", rules);
		for (size_t i = 0; fray_game_rule_set_action(rules, i, NULL); i++)
			snprintf(want + strlen(want), sizeof want - strlen(want), "%s%s", i ? ", " : "",
				 fray_game_rule_set_action(rules, i, NULL));
		strcat(want, "), not 'turn'");
		if (!strstr(r1.err, want))
			fail_msg("'%s' not in: %s", want, r1.err);
		unlink(game);
	}
	rmdir(dir);
}

/* The topics that name commands or kinds by the library's lists: `fray
 * help json` the catalogue's listings (only mode SHOW: they refuse --json)
 * and no procedure that prints JSON (chits end-turn was named); `fray help
 * check` every kind fray check knows (three of six were named). Words may
 * wrap, so the text is compared with its newlines as spaces. */
static void help_names_what_the_library_lists(void **state)
{
	(void)state;
	fray_ctx *c_ctx = fray_ctx_new(NULL, NULL);
	RUN(&r1, "help", "json");
	assert_int_equal(r1.status, 0);
	for (char *p = r1.out; *p; p++)
		if (*p == '\n')
			*p = ' ';
	/* the list: "refuse --json: check, A, B and C." */
	char *said = strstr(r1.out, "refuse --json: ");
	assert_non_null(said);
	said += strlen("refuse --json: ");
	char *end = strchr(said, '.');
	assert_non_null(end);
	*end = '\0';
	char *names[32];
	size_t nnames = 0;
	for (char *p = said; p && nnames < 32;) {
		names[nnames++] = p;
		char *comma = strstr(p, ", "), *and = strstr(p, " and ");
		char *next = comma && (!and || comma < and) ? comma : and;
		if (next) {
			*next = '\0';
			next += next == comma ? 2 : 5;
		}
		p = next;
	}
	assert_string_equal(names[0], "check");
	size_t listings = 0;
	for (size_t i = 0; fray_procedure_command(i); i++) {
		fray_call *c = fray_call_new(c_ctx, fray_procedure_command(i));
		assert_non_null(c);
		bool text_only = fray_call_modes(c) == FRAY_MODE_SHOW, named = false;
		for (size_t k = 1; k < nnames; k++)
			named |= strcmp(names[k], fray_procedure_command(i)) == 0;
		if (text_only != named)
			fail_msg("fray help json %s %s", named ? "names" : "does not name", fray_procedure_command(i));
		listings += text_only;
		fray_call_free(c);
	}
	assert_int_equal(nnames, listings + 1);
	fray_ctx_free(c_ctx);
	RUN(&r1, "help", "check");
	assert_int_equal(r1.status, 0);
	for (char *p = r1.out; *p; p++)
		if (*p == '\n')
			*p = ' ';
	const char *keys;
	for (size_t i = 0; fray_data_kind(i, &keys); i++) {
		char named[160];
		snprintf(named, sizeof named, "%s (with %s)", fray_data_kind(i, NULL), keys);
		if (!strstr(r1.out, named))
			fail_msg("fray help check does not name '%s'", named);
	}
}

static void help_version_and_check(void **state)
{
	(void)state;
	RUN(&r1, "--version");
	assert_int_equal(r1.status, 0);
	assert_string_equal(r1.out, "fray " FRAY_VERSION_STRING "\n");
	RUN(&r1, "roll", "--help");
	assert_int_equal(r1.status, 0);
	assert_memory_equal(r1.out, "fray roll DICE", 14);
	RUN(&r1, "odds", "--help");
	assert_memory_equal(r1.out, "fray odds DICE", 14);
	RUN(&r1, "help", "dice");
	assert_int_equal(r1.status, 0);
	assert_non_null(strstr(r1.out, "re-roll-and-add"));
	RUN(&r1, "check", FRAY_TEST_DATA "/script.yaml");
	assert_int_equal(r1.status, 0);
	assert_string_equal(r1.out, FRAY_TEST_DATA "/script.yaml: ok (policy script)\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(odds_json_shape),
		cmocka_unit_test(odds_text_and_queries),
		cmocka_unit_test(long_odds_leave_out_thin_tails),
		cmocka_unit_test(roll_is_replayable),
		cmocka_unit_test(roll_without_seed_prints_one),
		cmocka_unit_test(bad_input_exits_2_with_a_position),
		cmocka_unit_test(help_version_and_check),
		cmocka_unit_test(procedures_come_from_the_catalogue),
		cmocka_unit_test(help_of_a_set_lists_the_catalogue),
		cmocka_unit_test(help_names_what_the_library_lists),
		cmocka_unit_test(help_table_lists_every_game_action),
		cmocka_unit_test(table_messages_name_the_librarys_lists),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
