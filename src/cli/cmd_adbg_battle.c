/* fray adbg battle SCENARIO: a whole quick battle (ADBG 19.1-19.3), told
 * like a referee; and fray adbg odds SCENARIO: its outcome odds, exact when
 * the paths fit the budget, otherwise simulated with confidence intervals. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <fray/adbg_save.h>
#include "cli.h"
#include "policy_cli.h"
#include "scenario_edit.h"

int adbg_battle(int argc, char **argv);
int adbg_resume(int argc, char **argv);
int adbg_odds(int argc, char **argv);

int cli_adbg_load_scenario(const char *cmd, fray_ctx *ctx, const char *path, fray_adbg_scenario **out)
{
	/* its CRT beside it, else in the shipped data (scen_open) */
	return scen_load_edited(cmd, ctx, path, NULL, 0, out);
}


/* The battle's end, rendered by libfray (as fray_request renders it). */
static void print_summary(const fray_adbg_scenario *s, const fray_adbg_result *res, fray_format form)
{
	char *text = NULL;
	if (fray_adbg_summary(s, res, form, &text) == FRAY_OK)
		fputs(text, stdout);
	else
		cli_error("adbg battle", EXIT_RUNTIME, "out of memory");
	free(text);
}

/* Where to save (NULL: no saving) and what the save holds besides the
 * battle's state (include/fray/adbg_save.h: the format is libfray's). */
typedef struct save_info {
	const char *path;
	fray_adbg_save sv;
} save_info;

/* The save file, written whole or not at all. */
static bool write_save(const char *cmd, fray_ctx *ctx, save_info *si, const fray_adbg_battle_state *st,
		       const fray_roller *r, const fray_policy *p)
{
	si->sv.policy_position = fray_policy_tell(p);
	si->sv.dice_position = fray_roller_tell(r);
	char *text = NULL;
	size_t len = 0;
	if (fray_adbg_save_text(ctx, &si->sv, st, &text, &len) != FRAY_OK) {
		cli_fail(cmd, ctx);
		return false;
	}
	bool ok = cli_write_atomic(si->path, text, len);
	free(text);
	if (!ok)
		cli_error(cmd, EXIT_RUNTIME, "cannot write %s: %s", si->path, strerror(errno));
	return ok;
}

/* Fights the rounds left, saving after each when asked, stopping after
 * round stop_after (0: never); then the end of battle and the summary. */
static int fight(const char *cmd, fray_ctx *ctx, const fray_adbg_scenario *s, fray_adbg_battle_state *st,
		 fray_roller *r, fray_policy *p, save_info *si, int stop_after,
		 fray_format form)
{
	int round;
	while ((round = fray_adbg_battle_next_round(st)) != 0) {
		fray_adbg_battle_round(st, r, p);
		if (fray_roller_stopped(r))
			break;
		if (si->path && !write_save(cmd, ctx, si, st, r, p))
			return EXIT_RUNTIME;
		if (round == stop_after && fray_adbg_battle_next_round(st) != 0) {
			if (form == FRAY_FORMAT_JSON)
				printf("], \"stopped_after_round\": %d, \"save\": %s}\n", round, cli_jstr(si->path));
			else
				printf("\nstopped after round %d; go on with: fray adbg resume %s\n",
				       round, si->path);
			return EXIT_OK;
		}
	}
	fray_adbg_result res;
	if (!fray_roller_stopped(r))
		fray_adbg_battle_finish(st, r, p, &res);
	if (fray_roller_stopped(r)) {
		/* a policy that could not answer: say so, like fray_run does */
		if (form == FRAY_FORMAT_JSON)
			printf("]}\n");
		const char *why = fray_roller_stop_reason(r);
		return cli_error(cmd, EXIT_BAD_INPUT, "the battle stopped: %s",
				 why[0] ? why : "the policy gave no answer");
	}
	print_summary(s, &res, form);
	return EXIT_OK;
}

int adbg_battle(int argc, char **argv)
{
	static const char *const known[] = {"--seed", "--policy", "--policy-a", "--policy-b",
					    "--save", "--stop-after", "--set", "--json", "--help"};
	static const char *const repeatable[] = {"--set", NULL};
	cli_args a = {.cmd = "adbg battle", .argc = argc, .argv = argv, .repeatable = repeatable};
	scen_sets sets = {.n = 0};
	const char *path = NULL, *policy = "heuristic", *pol_a = NULL, *pol_b = NULL;
	char policy_name[128];
	save_info si = {0};
	uint64_t seed = 0, stop_after = 0;
	bool have_seed = false;
	fray_format form = FRAY_FORMAT_TEXT;
	while (a.i < argc && a.status == EXIT_OK) {
		if (cli_is_help(argv[a.i]))
			return cli_help_topic(stdout, "adbg battle") ? EXIT_OK : EXIT_RUNTIME;
		if (scen_take_set(&a, &sets))
			;
		else if (cli_u64(&a, "--seed", 0, UINT64_MAX, &seed))
			have_seed = true;
		else if (cli_format(&a, CLI_FORMAT(FRAY_FORMAT_JSON), &form))
			;
		else if (cli_value(&a, "--policy", &policy) || cli_value(&a, "--policy-a", &pol_a) ||
			 cli_value(&a, "--policy-b", &pol_b) || cli_value(&a, "--save", &si.path) ||
			 cli_u64(&a, "--stop-after", 1, 4, &stop_after))
			;
		else if (!path && !cli_is_option(argv[a.i]))
			path = argv[a.i++];
		else
			a.status = cli_unknown(&a, known, sizeof known / sizeof known[0]);
	}
	if (a.status == EXIT_OK && !path)
		a.status = cli_error(a.cmd, EXIT_BAD_INPUT, "expected a scenario file (see examples/adbg/)");
	if (a.status == EXIT_OK && stop_after && !si.path)
		a.status = cli_error(a.cmd, EXIT_BAD_INPUT, "--stop-after needs --save FILE to go on from");
	/* a resume reads the scenario again from its file, without the --set */
	if (a.status == EXIT_OK && sets.n && si.path)
		a.status = cli_error(a.cmd, EXIT_BAD_INPUT, "--save cannot keep --set values: save the changed "
				     "scenario first (fray adbg sweep --write) and battle that");
	if (a.status != EXIT_OK) {
		scen_sets_free(&sets);
		return a.status;
	}
	if (!have_seed)
		seed = cli_pick_seed();
	fray_ctx *ctx = fray_ctx_new(NULL, NULL);
	if (!ctx)
		return cli_error(a.cmd, EXIT_RUNTIME, "out of memory");
	int status = EXIT_OK;
	fray_policy *p = NULL;
	fray_roller *r = NULL;
	fray_adbg_battle_state *st = NULL;
	fray_adbg_scenario *s = NULL;
	if ((status = scen_load_edited(a.cmd, ctx, path, sets.ed, sets.n, &s)) != EXIT_OK)
		goto done;
	if ((status = cli_make_side_policies(a.cmd, ctx, policy, pol_a, pol_b, &p, policy_name,
					     sizeof policy_name, &si.sv.policy_digest)) != EXIT_OK)
		goto done;
	if (si.path) {
		/* a resume reads the scenario again by its path: one from standard
		 * input, or a path that no longer names it, could not be resumed */
		if (strcmp(path, "-") == 0 || !realpath(path, si.sv.scenario)) {
			status = cli_error(a.cmd, EXIT_BAD_INPUT, "--save needs a scenario file that a resume "
					   "can read again, not %s", path);
			goto done;
		}
		if ((status = cli_output_check(a.cmd, ctx, si.path, "--save", NULL)) != EXIT_OK)
			goto done;
		si.sv.scenario_digest = fray_adbg_scenario_digest(s);
		si.sv.seed = seed;
		/* a spec cut short would resume with another policy */
		if (strlen(policy) >= sizeof si.sv.policy || (pol_a && strlen(pol_a) >= sizeof si.sv.policy_a) ||
		    (pol_b && strlen(pol_b) >= sizeof si.sv.policy_b)) {
			status = cli_error(a.cmd, EXIT_BAD_INPUT, "--save: a --policy longer than %zu bytes "
					   "cannot be saved", sizeof si.sv.policy - 1);
			goto done;
		}
		snprintf(si.sv.policy, sizeof si.sv.policy, "%s", policy);
		snprintf(si.sv.policy_a, sizeof si.sv.policy_a, "%s", pol_a ? pol_a : "");
		snprintf(si.sv.policy_b, sizeof si.sv.policy_b, "%s", pol_b ? pol_b : "");
	}
	if (!(r = fray_roller_sample_new(ctx, seed, 0)) || !(st = fray_adbg_battle_new(ctx, s))) {
		status = cli_fail(a.cmd, ctx);
		goto done;
	}
	cli_narrator t = {.form = form, .first = true};
	fray_roller_set_sink(r, cli_narrate, &t);
	if (form == FRAY_FORMAT_JSON)
		printf("{\"scenario\": %s, \"seed\": %" PRIu64 ", \"policy\": %s, \"events\": [",
		       cli_jstr(fray_adbg_scenario_name(s)), seed, cli_jstr(policy_name));
	else
		printf("%s (seed %" PRIu64 "%s; policy %s)\n", cli_tstr(fray_adbg_scenario_name(s)), seed,
		       have_seed ? "" : ", replay with --seed", policy_name);
	fray_policy_reset(p);
	fray_adbg_battle_begin(st, r, p);
	status = fight(a.cmd, ctx, s, st, r, p, &si, (int)stop_after, form);
done:
	fray_adbg_battle_free(st);
	fray_roller_free(r);
	fray_policy_free(p);
	fray_adbg_scenario_free(s);
	fray_ctx_free(ctx);
	scen_sets_free(&sets);
	return status;
}

/* fray adbg resume SAVE: the battle goes on exactly where it stopped. */
int adbg_resume(int argc, char **argv)
{
	static const char *const known[] = {"--save", "--stop-after", "--json", "--help"};
	cli_args a = {.cmd = "adbg resume", .argc = argc, .argv = argv};
	const char *save_path = NULL, *new_save = NULL;
	uint64_t stop_after = 0;
	fray_format form = FRAY_FORMAT_TEXT;
	while (a.i < argc && a.status == EXIT_OK) {
		if (cli_is_help(argv[a.i]))
			return cli_help_topic(stdout, "adbg resume") ? EXIT_OK : EXIT_RUNTIME;
		if (cli_format(&a, CLI_FORMAT(FRAY_FORMAT_JSON), &form))
			;
		else if (cli_value(&a, "--save", &new_save) ||
			 cli_u64(&a, "--stop-after", 1, 4, &stop_after))
			;
		else if (!save_path && !cli_is_option(argv[a.i]))
			save_path = argv[a.i++];
		else
			return cli_unknown(&a, known, 4);
	}
	if (a.status != EXIT_OK)
		return a.status;
	if (!save_path)
		return cli_error(a.cmd, EXIT_BAD_INPUT, "expected a save file (from fray adbg battle --save)");
	fray_ctx *ctx = fray_ctx_new(NULL, NULL);
	if (!ctx)
		return cli_error(a.cmd, EXIT_RUNTIME, "out of memory");
	int status = EXIT_OK;
	fray_doc *doc = NULL;
	fray_adbg_scenario *s = NULL;
	fray_policy *p = NULL;
	fray_roller *r = NULL;
	fray_adbg_battle_state *st = NULL;
	save_info si = {.path = new_save ? new_save : save_path};
	if (fray_doc_load_file(ctx, save_path, &doc) != FRAY_OK) {
		status = cli_fail(a.cmd, ctx);
		goto done;
	}
	if (fray_adbg_save_read(ctx, doc, &si.sv) != FRAY_OK) {
		/* not a save of this format (one reason), or its fields wrong (each) */
		if (fray_ctx_status(ctx) != FRAY_OK)
			cli_error(a.cmd, EXIT_BAD_INPUT, "%s", fray_ctx_message(ctx));
		for (size_t i = 0; fray_ctx_status(ctx) == FRAY_OK && i < fray_doc_error_count(doc); i++)
			cli_error(a.cmd, EXIT_BAD_INPUT, "%s", fray_doc_error_msg(doc, i));
		status = fray_ctx_status(ctx) == FRAY_ERR_NOMEM ? EXIT_RUNTIME : EXIT_BAD_INPUT;
		goto done;
	}
	/* the scenario (and its CRT) and the policy scripts, each read once:
	 * the battle goes on only with the very files it was saved with */
	if ((status = cli_adbg_load_scenario(a.cmd, ctx, si.sv.scenario, &s)) != EXIT_OK)
		goto done;
	si.sv.scenario_digest = fray_adbg_scenario_digest(s);
	if (!fray_adbg_save_same_scenario(&si.sv, si.sv.scenario_digest)) {
		status = cli_error(a.cmd, EXIT_BAD_INPUT, "%s: the scenario %s (or its melee CRT) has changed "
				   "since the battle was saved; it cannot go on", save_path, si.sv.scenario);
		goto done;
	}
	char policy_name[128];
	const char *pa = si.sv.policy_a, *pb = si.sv.policy_b;
	if ((status = cli_make_side_policies(a.cmd, ctx, si.sv.policy, *pa ? pa : NULL, *pb ? pb : NULL,
					     &p, policy_name, sizeof policy_name, &si.sv.policy_digest)) != EXIT_OK)
		goto done;
	if (!fray_adbg_save_same_policy(&si.sv, si.sv.policy_digest)) {
		status = cli_error(a.cmd, EXIT_BAD_INPUT, "%s: a policy script has changed since the battle "
				   "was saved; it cannot go on", save_path);
		goto done;
	}
	if ((status = cli_output_check(a.cmd, ctx, si.path, "--save", save_path)) != EXIT_OK)
		goto done;
	if (!(r = fray_roller_sample_new(ctx, si.sv.seed, 0)) || !(st = fray_adbg_battle_new(ctx, s))) {
		status = cli_fail(a.cmd, ctx);
		goto done;
	}
	if (!fray_adbg_battle_restore(st, doc, fray_doc_root(doc))) {
		for (size_t i = 0; i < fray_doc_error_count(doc); i++)
			cli_error(a.cmd, EXIT_BAD_INPUT, "%s", fray_doc_error_msg(doc, i));
		status = EXIT_BAD_INPUT;
		goto done;
	}
	fray_policy_reset(p);
	fray_policy_seek(p, si.sv.policy_position);
	fray_roller_seek(r, si.sv.dice_position);
	cli_narrator t = {.form = form, .first = true};
	fray_roller_set_sink(r, cli_narrate, &t);
	if (form == FRAY_FORMAT_JSON)
		printf("{\"scenario\": %s, \"seed\": %" PRIu64 ", \"policy\": %s, \"resumed\": true, \"events\": [",
		       cli_jstr(fray_adbg_scenario_name(s)), si.sv.seed, cli_jstr(policy_name));
	else
		printf("%s (seed %" PRIu64 "; policy %s; resumed from %s)\n", cli_tstr(fray_adbg_scenario_name(s)),
		       si.sv.seed, cli_tstr(policy_name), cli_tstr(save_path));
	fray_adbg_battle_resumed(st, r);
	status = fight(a.cmd, ctx, s, st, r, p, &si, (int)stop_after, form);
done:
	fray_adbg_battle_free(st);
	fray_roller_free(r);
	fray_policy_free(p);
	fray_adbg_scenario_free(s);
	fray_doc_free(doc);
	fray_ctx_free(ctx);
	return status;
}

/* --goal G: the best policies named play for G ("best" becomes
 * "best:G"); a goal with no best policy to play it is a mistake. */
static int best_goal(const char *cmd, const char *goal, const char *const in[3], char spec[3][64],
		     const char **policy, const char **pol_a, const char **pol_b)
{
	static const char *const goals[] = {"win", "not-lose", "casualties", "hold"};
	bool known = false, used = false;
	for (size_t g = 0; g < sizeof goals / sizeof goals[0]; g++)
		known |= strcmp(goal, goals[g]) == 0;
	if (!known)
		return cli_error(cmd, EXIT_BAD_INPUT, "--goal expects win, not-lose, casualties or hold, got '%s'", goal);
	const char **out[3] = {policy, pol_a, pol_b};
	for (int i = 0; i < 3; i++) {
		if (!in[i] || strcmp(in[i], "best") != 0)
			continue;
		snprintf(spec[i], sizeof spec[i], "best:%s", goal);
		*out[i] = spec[i];
		used = true;
	}
	if (!used)
		return cli_error(cmd, EXIT_BAD_INPUT, "--goal is the best policy's: give --policy best (or "
				 "--policy-a best, --policy-b best)");
	return EXIT_OK;
}

int adbg_odds(int argc, char **argv)
{
	static const char *const known[] = {"--trials", "--seed", "--threads", "--budget",
					    "--policy", "--policy-a", "--policy-b", "--goal", "--json", "--max-memory",
					    "--quiet", "--set", "--max-seconds", "--help"};
	static const char *const repeatable[] = {"--set", NULL};
	cli_args a = {.cmd = "adbg odds", .argc = argc, .argv = argv, .repeatable = repeatable};
	scen_sets sets = {.n = 0};
	const char *path = NULL, *policy = "heuristic", *pol_a = NULL, *pol_b = NULL, *goal = NULL;
	char policy_name[128], spec[3][64];
	/* the default budget makes the shipped examples exact (Blue Licks, the
	 * largest, walks about 16 M paths in some 8 s); the catalogue's, for
	 * requests and the page, stays at 100,000 */
	uint64_t trials = 100000, seed = 1, threads = 0, budget = 30000000, max_mib = 0;
	/* the time budget, the rest of the CLI's (budget.c): the whole
	 * command, the exact walk and any simulation it falls back to */
	cli_budget time_budget = {0};
	bool quiet = false;
	fray_format form = FRAY_FORMAT_TEXT;
	while (a.i < argc && a.status == EXIT_OK) {
		if (cli_is_help(argv[a.i]))
			return cli_help_topic(stdout, "adbg odds") ? EXIT_OK : EXIT_RUNTIME;
		if (scen_take_set(&a, &sets))
			;
		else if (cli_format(&a, CLI_FORMAT(FRAY_FORMAT_JSON), &form))
			;
		else if (cli_flag(&a, "--quiet"))
			quiet = true;
		else if (cli_value(&a, "--policy", &policy) || cli_value(&a, "--policy-a", &pol_a) ||
			 cli_value(&a, "--policy-b", &pol_b) || cli_value(&a, "--goal", &goal))
			;
		else if (cli_u64(&a, "--max-seconds", 0, CLI_MAX_SECONDS_MAX, &time_budget.seconds))
			time_budget.seconds_given = true;
		else if (!cli_u64(&a, "--trials", 1, 1000000000, &trials) &&
			 !cli_u64(&a, "--max-memory", 1, CLI_MAX_MEMORY_MIB, &max_mib) &&
			 !cli_u64(&a, "--seed", 0, UINT64_MAX, &seed) &&
			 !cli_u64(&a, "--threads", 0, FRAY_AGGREGATE_MAX_THREADS, &threads) &&
			 !cli_u64(&a, "--budget", 0, 1000000000, &budget)) {
			if (path || cli_is_option(argv[a.i]))
				a.status = cli_unknown(&a, known, sizeof known / sizeof known[0]);
			else
				path = argv[a.i++];
		}
	}
	if (a.status == EXIT_OK && !path)
		a.status = cli_error(a.cmd, EXIT_BAD_INPUT, "expected a scenario file (see examples/adbg/)");
	if (a.status == EXIT_OK)
		a.status = cli_budget_env(a.cmd, &time_budget);
	if (a.status == EXIT_OK && goal)
		a.status = best_goal(a.cmd, goal, (const char *[]){policy, pol_a, pol_b}, spec, &policy, &pol_a, &pol_b);
	fray_ctx *ctx = a.status == EXIT_OK ? fray_ctx_new(NULL, NULL) : NULL;
	if (a.status == EXIT_OK && !ctx)
		a.status = cli_error(a.cmd, EXIT_RUNTIME, "out of memory");
	if (a.status != EXIT_OK) {
		scen_sets_free(&sets);
		return a.status;
	}
	int status = EXIT_OK;
	fray_policy *p = NULL;
	fray_dist *d = NULL;
	fray_adbg_scenario *s = NULL;
	if ((status = scen_load_edited(a.cmd, ctx, path, sets.ed, sets.n, &s)) != EXIT_OK)
		goto done;
	if ((status = cli_make_side_policies(a.cmd, ctx, policy, pol_a, pol_b, &p, policy_name,
					     sizeof policy_name, NULL)) != EXIT_OK)
		goto done;
	policy = policy_name;
	bool show = !quiet && isatty(2);
	cli_progress prog;
	cli_progress_start(&prog, "paths");
	prog.budget = true;
	cli_catch_stop();
	fray_adbg_odds_opts oo = {.budget = budget, .max_bytes = max_mib << 20, .trials = trials, .seed = seed,
				  .threads = (unsigned)threads, .stop = &cli_stop_signal,
				  .estimate = show ? cli_progress_enum : NULL, .ud = &prog};
	fray_adbg_odds odds;
	cli_budget_arm(&time_budget);
	fray_status ost = fray_adbg_battle_odds(ctx, s, p, &oo, &odds);
	cli_budget_disarm();
	d = odds.dist;
	if (show)
		cli_progress_clear();
	if (cli_budget_passed()) {
		status = cli_budget_refuse(a.cmd, &time_budget, "the odds");
		goto released;
	}
	if (cli_stop_signal) {
		status = cli_error(a.cmd, cli_stop_status(), "interrupted: %s; no odds", fray_ctx_message(ctx));
		goto released;
	}
	if (ost != FRAY_OK) {
		status = cli_fail(a.cmd, ctx);
		goto released;
	}
	fray_adbg_odds_about about = {s, policy, odds.exact, odds.fell_back[0] ? odds.fell_back : NULL, trials, seed,
				      odds.reason, odds.has_best ? &odds.best : NULL};
	char *report = NULL;
	fray_status rst = fray_adbg_odds_report(&about, d, form, &report);
	if (rst != FRAY_OK) {
		status = cli_error(a.cmd, cli_exit_for(rst), "%s", rst == FRAY_ERR_LIMIT ?
				   "the report would pass 64 MiB, the most one answer may be" : "out of memory");
		goto released;
	}
	fputs(report, stdout);
	free(report);
released:
	cli_release_stop();
done:
	fray_dist_free(d);
	fray_policy_free(p);
	fray_adbg_scenario_free(s);
	fray_ctx_free(ctx);
	scen_sets_free(&sets);
	return status;
}
