/* fray adbg battle SCENARIO: a whole quick battle (ADBG 19.1-19.3), told
 * like a referee; and fray adbg odds SCENARIO: its outcome odds, exact when
 * the paths fit the budget, otherwise simulated with confidence intervals. */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "../common/text.h"
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
static void print_summary(const fray_adbg_scenario *s, const fray_adbg_result *res, bool json)
{
	char *text = NULL;
	if (fray_adbg_summary(s, res, json, &text) == FRAY_OK)
		fputs(text, stdout);
	else
		cli_error("adbg battle", EXIT_RUNTIME, "out of memory");
	free(text);
}

/* What a save needs besides the battle state: how to find the scenario
 * again (and know it has not changed), the seed and the policy. */
typedef struct save_info {
	const char *path;           /* where to save, NULL: no saving */
	char scenario[4096];        /* absolute path */
	uint64_t scenario_hash;     /* fray_adbg_scenario_digest: file and CRT */
	uint64_t policy_hash;       /* of the policy scripts, 0 when none */
	uint64_t seed;
	char policy[4200];          /* --policy spec (a script's path in it) */
	char policy_a[4200], policy_b[4200]; /* or one per side ("" when not) */
} save_info;

#define SAVE_VERSION 2 /* 2: the digest covers the CRT file; policy_fnv1a */

/* A path as it is written in a save: a JSON string when it is UTF-8 (most
 * are), else its bytes in hexadecimal, so that any path can be resumed. */
static void put_path(char *dst, size_t cap, const char *path)
{
	fray_ctx *lctx = fray_ctx_new(NULL, NULL);
	fray_doc *doc = NULL;
	bool utf8 = lctx && fray_doc_load_string(lctx, "path", path, strlen(path), &doc) == FRAY_OK;
	fray_doc_free(doc);
	fray_ctx_free(lctx);
	if (utf8) {
		snprintf(dst, cap, "scenario: %s\n", cli_jstr(path));
		return;
	}
	textbuf t = text_on(dst, cap);
	text_add(&t, "scenario_bytes: \"");
	for (const unsigned char *u = (const unsigned char *)path; *u; u++)
		text_add(&t, "%02x", *u);
	text_add(&t, "\"\n");
}

static bool write_save(const char *cmd, const save_info *si, const fray_adbg_battle_state *st,
		       const fray_roller *r, const fray_policy *p)
{
	char state[16384], text[65536], where[8300];
	put_path(where, sizeof where, si->scenario);
	if (fray_adbg_battle_save(st, state, sizeof state) >= sizeof state) {
		cli_error(cmd, EXIT_RUNTIME, "cannot save: the battle's state is too large");
		return false;
	}
	int n = snprintf(text, sizeof text,
			 "# fray saved battle: go on with `fray adbg resume FILE`\n"
			 "fray_save: %d\nkind: adbg.battle\n%s"
			 "scenario_fnv1a: \"%016" PRIx64 "\"\npolicy_fnv1a: \"%016" PRIx64 "\"\n"
			 "seed: %" PRIu64 "\n"
			 "policy: %s\npolicy_a: %s\npolicy_b: %s\npolicy_position: %" PRIu64 "\n"
			 "dice_position: %" PRIu64 "\n%s",
			 SAVE_VERSION, where, si->scenario_hash, si->policy_hash, si->seed, cli_jstr(si->policy),
			 cli_jstr(si->policy_a), cli_jstr(si->policy_b),
			 fray_policy_tell(p), fray_roller_tell(r), state);
	if (n < 0 || (size_t)n >= sizeof text) {
		cli_error(cmd, EXIT_RUNTIME, "the save is too large");
		return false;
	}
	if (!cli_write_atomic(si->path, text, (size_t)n)) {
		cli_error(cmd, EXIT_RUNTIME, "cannot write %s: %s", si->path, strerror(errno));
		return false;
	}
	return true;
}

/* The path of scenario_bytes (hexadecimal) into dst; false when malformed. */
static bool read_path_bytes(fray_doc *doc, const fray_node *n, char *dst, size_t cap)
{
	const char *hex;
	if (!fray_doc_string(doc, n, "the scenario's path", &hex))
		return true; /* reported */
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

/* Fights the rounds left, saving after each when asked, stopping after
 * round stop_after (0: never); then the end of battle and the summary. */
static int fight(const char *cmd, const fray_adbg_scenario *s, fray_adbg_battle_state *st,
		 fray_roller *r, fray_policy *p, const save_info *si, int stop_after,
		 bool json)
{
	int round;
	while ((round = fray_adbg_battle_next_round(st)) != 0) {
		fray_adbg_battle_round(st, r, p);
		if (fray_roller_stopped(r))
			break;
		if (si->path && !write_save(cmd, si, st, r, p))
			return EXIT_RUNTIME;
		if (round == stop_after && fray_adbg_battle_next_round(st) != 0) {
			if (json)
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
		if (json)
			printf("]}\n");
		const char *why = fray_roller_stop_reason(r);
		return cli_error(cmd, EXIT_BAD_INPUT, "the battle stopped: %s",
				 why[0] ? why : "the policy gave no answer");
	}
	print_summary(s, &res, json);
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
	bool have_seed = false, json = false;
	while (a.i < argc && a.status == EXIT_OK) {
		if (cli_is_help(argv[a.i]))
			return cli_help_topic(stdout, "adbg battle") ? EXIT_OK : EXIT_RUNTIME;
		if (scen_take_set(&a, &sets))
			;
		else if (cli_u64(&a, "--seed", 0, UINT64_MAX, &seed))
			have_seed = true;
		else if (cli_flag(&a, "--json"))
			json = true;
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
					     sizeof policy_name, &si.policy_hash)) != EXIT_OK)
		goto done;
	if (si.path) {
		/* a resume reads the scenario again by its path: one from standard
		 * input, or a path that no longer names it, could not be resumed */
		if (strcmp(path, "-") == 0 || !realpath(path, si.scenario)) {
			status = cli_error(a.cmd, EXIT_BAD_INPUT, "--save needs a scenario file that a resume "
					   "can read again, not %s", path);
			goto done;
		}
		if ((status = cli_output_check(a.cmd, ctx, si.path, "--save", NULL)) != EXIT_OK)
			goto done;
		si.scenario_hash = fray_adbg_scenario_digest(s);
		si.seed = seed;
		/* a spec cut short would resume with another policy */
		if (strlen(policy) >= sizeof si.policy || (pol_a && strlen(pol_a) >= sizeof si.policy_a) ||
		    (pol_b && strlen(pol_b) >= sizeof si.policy_b)) {
			status = cli_error(a.cmd, EXIT_BAD_INPUT, "--save: a --policy longer than %zu bytes "
					   "cannot be saved", sizeof si.policy - 1);
			goto done;
		}
		snprintf(si.policy, sizeof si.policy, "%s", policy);
		snprintf(si.policy_a, sizeof si.policy_a, "%s", pol_a ? pol_a : "");
		snprintf(si.policy_b, sizeof si.policy_b, "%s", pol_b ? pol_b : "");
	}
	if (!(r = fray_roller_sample_new(ctx, seed, 0)) || !(st = fray_adbg_battle_new(ctx, s))) {
		status = cli_fail(a.cmd, ctx);
		goto done;
	}
	cli_narrator t = {.json = json, .first = true};
	fray_roller_set_sink(r, cli_narrate, &t);
	if (json)
		printf("{\"scenario\": %s, \"seed\": %" PRIu64 ", \"policy\": %s, \"events\": [",
		       cli_jstr(fray_adbg_scenario_name(s)), seed, cli_jstr(policy_name));
	else
		printf("%s (seed %" PRIu64 "%s; policy %s)\n", cli_tstr(fray_adbg_scenario_name(s)), seed,
		       have_seed ? "" : ", replay with --seed", policy_name);
	fray_policy_reset(p);
	fray_adbg_battle_begin(st, r, p);
	status = fight(a.cmd, s, st, r, p, &si, (int)stop_after, json);
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
	bool json = false;
	while (a.i < argc && a.status == EXIT_OK) {
		if (cli_is_help(argv[a.i]))
			return cli_help_topic(stdout, "adbg resume") ? EXIT_OK : EXIT_RUNTIME;
		if (cli_flag(&a, "--json"))
			json = true;
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
	const fray_node *root = fray_doc_root(doc), *n;
	int64_t version = 0;
	if (!root || fray_node_kind_of(root) != FRAY_NODE_MAP || !fray_map_get(root, "fray_save")) {
		status = cli_error(a.cmd, EXIT_BAD_INPUT, "%s:1:1: expected a fray save file", save_path);
		goto done;
	}
	n = fray_map_get(root, "fray_save");
	if (!fray_doc_int(doc, n, 1, 1000000, "a save format version", &version) ||
	    version != SAVE_VERSION) {
		status = cli_error(a.cmd, EXIT_BAD_INPUT, "%s:%d:%d: save format version %s is not "
				   "one this fray reads (version %d)", save_path, fray_node_line(n),
				   fray_node_col(n), fray_node_scalar(n) ? fray_node_scalar(n) : "?",
				   SAVE_VERSION);
		goto done;
	}
	static const char *const keys[] = {"fray_save", "kind", "scenario", "scenario_bytes",
					   "scenario_fnv1a", "policy_fnv1a", "seed", "policy", "policy_a",
					   "policy_b", "policy_position", "dice_position", "round", "rounds",
					   "positions", "sides"};
	fray_doc_known_keys(doc, root, keys, sizeof keys / sizeof keys[0]);
	const char *str, *kind = NULL, *hash = NULL, *phash = NULL, *pol = "heuristic", *pa = "", *pb = "";
	int64_t ppos = 0, dpos = 0, seed = 0;
	if ((n = fray_doc_field(doc, root, "kind", true)) && fray_doc_string(doc, n, "the kind of save", &kind) &&
	    strcmp(kind, "adbg.battle") != 0)
		fray_doc_error(doc, n, "expected kind adbg.battle, found '%s'", kind);
	if ((n = fray_map_get(root, "scenario_bytes"))) {
		if (!read_path_bytes(doc, n, si.scenario, sizeof si.scenario))
			fray_doc_error(doc, n, "expected the scenario's path as hexadecimal bytes");
	} else if ((n = fray_doc_field(doc, root, "scenario", true)) &&
		   fray_doc_string(doc, n, "the scenario", &str)) {
		if (strlen(str) >= sizeof si.scenario)
			fray_doc_error(doc, n, "a path longer than %zu bytes", sizeof si.scenario - 1);
		else
			snprintf(si.scenario, sizeof si.scenario, "%s", str);
	}
	if ((n = fray_doc_field(doc, root, "scenario_fnv1a", true)))
		fray_doc_string(doc, n, "the scenario's digest", &hash);
	if ((n = fray_doc_field(doc, root, "policy_fnv1a", true)))
		fray_doc_string(doc, n, "the policy scripts' digest", &phash);
	if ((n = fray_doc_field(doc, root, "seed", true)))
		fray_doc_int(doc, n, 0, INT64_MAX, "the seed", &seed);
	if ((n = fray_doc_field(doc, root, "policy", true)))
		fray_doc_string(doc, n, "the policy", &pol);
	if ((n = fray_doc_field(doc, root, "policy_a", false)))
		fray_doc_string(doc, n, "side 1's policy", &pa);
	if ((n = fray_doc_field(doc, root, "policy_b", false)))
		fray_doc_string(doc, n, "side 2's policy", &pb);
	if ((n = fray_doc_field(doc, root, "policy_position", true)))
		fray_doc_int(doc, n, 0, INT64_MAX, "the policy's position", &ppos);
	if ((n = fray_doc_field(doc, root, "dice_position", true)))
		fray_doc_int(doc, n, 0, INT64_MAX, "the dice position", &dpos);
	if (fray_doc_status(doc) != FRAY_OK) {
		for (size_t i = 0; i < fray_doc_error_count(doc); i++)
			cli_error(a.cmd, EXIT_BAD_INPUT, "%s", fray_doc_error_msg(doc, i));
		status = EXIT_BAD_INPUT;
		goto done;
	}
	si.seed = (uint64_t)seed;
	snprintf(si.policy, sizeof si.policy, "%s", pol);
	snprintf(si.policy_a, sizeof si.policy_a, "%s", pa);
	snprintf(si.policy_b, sizeof si.policy_b, "%s", pb);
	/* the scenario (and its CRT) and the policy scripts, each read once:
	 * the battle goes on only with the very files it was saved with */
	if ((status = cli_adbg_load_scenario(a.cmd, ctx, si.scenario, &s)) != EXIT_OK)
		goto done;
	char want[32];
	si.scenario_hash = fray_adbg_scenario_digest(s);
	snprintf(want, sizeof want, "%016" PRIx64, si.scenario_hash);
	if (strcmp(hash, want) != 0) {
		status = cli_error(a.cmd, EXIT_BAD_INPUT, "%s: the scenario %s (or its melee CRT) has changed "
				   "since the battle was saved; it cannot go on", save_path, si.scenario);
		goto done;
	}
	char policy_name[128];
	if ((status = cli_make_side_policies(a.cmd, ctx, si.policy, *pa ? pa : NULL, *pb ? pb : NULL,
					     &p, policy_name, sizeof policy_name, &si.policy_hash)) != EXIT_OK)
		goto done;
	snprintf(want, sizeof want, "%016" PRIx64, si.policy_hash);
	if (strcmp(phash, want) != 0) {
		status = cli_error(a.cmd, EXIT_BAD_INPUT, "%s: a policy script has changed since the battle "
				   "was saved; it cannot go on", save_path);
		goto done;
	}
	if ((status = cli_output_check(a.cmd, ctx, si.path, "--save", save_path)) != EXIT_OK)
		goto done;
	if (!(r = fray_roller_sample_new(ctx, si.seed, 0)) || !(st = fray_adbg_battle_new(ctx, s))) {
		status = cli_fail(a.cmd, ctx);
		goto done;
	}
	if (!fray_adbg_battle_restore(st, doc, root)) {
		for (size_t i = 0; i < fray_doc_error_count(doc); i++)
			cli_error(a.cmd, EXIT_BAD_INPUT, "%s", fray_doc_error_msg(doc, i));
		status = EXIT_BAD_INPUT;
		goto done;
	}
	fray_policy_reset(p);
	fray_policy_seek(p, (uint64_t)ppos);
	fray_roller_seek(r, (uint64_t)dpos);
	cli_narrator t = {.json = json, .first = true};
	fray_roller_set_sink(r, cli_narrate, &t);
	if (json)
		printf("{\"scenario\": %s, \"seed\": %" PRIu64 ", \"policy\": %s, \"resumed\": true, \"events\": [",
		       cli_jstr(fray_adbg_scenario_name(s)), si.seed, cli_jstr(policy_name));
	else
		printf("%s (seed %" PRIu64 "; policy %s; resumed from %s)\n", cli_tstr(fray_adbg_scenario_name(s)),
		       si.seed, cli_tstr(policy_name), cli_tstr(save_path));
	fray_adbg_battle_resumed(st, r);
	status = fight(a.cmd, s, st, r, p, &si, (int)stop_after, json);
done:
	fray_adbg_battle_free(st);
	fray_roller_free(r);
	fray_policy_free(p);
	fray_adbg_scenario_free(s);
	fray_doc_free(doc);
	fray_ctx_free(ctx);
	return status;
}

int adbg_odds(int argc, char **argv)
{
	static const char *const known[] = {"--trials", "--seed", "--threads", "--budget",
					    "--policy", "--policy-a", "--policy-b", "--json", "--max-memory",
					    "--quiet", "--set", "--help"};
	static const char *const repeatable[] = {"--set", NULL};
	cli_args a = {.cmd = "adbg odds", .argc = argc, .argv = argv, .repeatable = repeatable};
	scen_sets sets = {.n = 0};
	const char *path = NULL, *policy = "heuristic", *pol_a = NULL, *pol_b = NULL;
	char policy_name[128];
	/* the default budget makes the shipped examples exact (Blue Licks, the
	 * largest, walks about 16 M paths in some 8 s); the catalogue's, for
	 * requests and the page, stays at 100,000 */
	uint64_t trials = 100000, seed = 1, threads = 0, budget = 30000000, max_mib = 0;
	bool json = false, quiet = false;
	while (a.i < argc && a.status == EXIT_OK) {
		if (cli_is_help(argv[a.i]))
			return cli_help_topic(stdout, "adbg odds") ? EXIT_OK : EXIT_RUNTIME;
		if (scen_take_set(&a, &sets))
			;
		else if (cli_flag(&a, "--json"))
			json = true;
		else if (cli_flag(&a, "--quiet"))
			quiet = true;
		else if (cli_value(&a, "--policy", &policy) || cli_value(&a, "--policy-a", &pol_a) ||
			 cli_value(&a, "--policy-b", &pol_b))
			;
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
	bool exact = false;
	if (!fray_policy_deterministic(p))
		budget = 0; /* exact odds need a deterministic policy */
	bool show = !quiet && isatty(2);
	cli_progress prog;
	cli_progress_start(&prog, "paths");
	prog.budget = true;
	const char *fell_back = NULL;
	/* why a simulation answers, if one does (the JSON's not_exact) */
	const char *reason = budget > 0 ? NULL : fray_policy_deterministic(p) ? "asked" : "policy";
	cli_catch_stop();
	if (budget > 0) {
		fray_enum_limits lim = {.max_depth = 100000, .max_paths = budget, .max_bytes = max_mib << 20,
					.stop = &cli_stop_signal, .estimate = show ? cli_progress_enum : NULL,
					.ud = &prog};
		fray_status st = fray_enumerate(ctx, fray_adbg_battle_procedure, p, s, 3, &lim, &d);
		if (show)
			cli_progress_clear();
		if (st == FRAY_OK) {
			exact = true;
		} else if (cli_stop_signal) {
			status = cli_error(a.cmd, cli_stop_status(), "interrupted: %s; no odds", fray_ctx_message(ctx));
			goto released;
		} else if (st == FRAY_ERR_LIMIT || st == FRAY_ERR_BUDGET || st == FRAY_ERR_NOMEM) {
			/* too big to be exact: the simulation says so, with why */
			static char why[512];
			snprintf(why, sizeof why, "%s", fray_ctx_message(ctx));
			fell_back = why;
			reason = st == FRAY_ERR_LIMIT ? "paths" : "memory";
			fray_ctx_clear(ctx);
		} else {
			status = cli_fail(a.cmd, ctx);
			goto released;
		}
	}
	if (!exact) {
		/* a simulation is not interrupted here (it is short: --trials) */
		unsigned t = fray_policy_thread_safe(p) ? (unsigned)threads : 1;
		if (fray_aggregate(ctx, fray_adbg_battle_procedure, p, s, 3, seed, trials, t, &d) != FRAY_OK) {
			status = cli_fail(a.cmd, ctx);
			goto released;
		}
	}
	if (cli_stop_signal) {
		status = cli_error(a.cmd, cli_stop_status(), "interrupted; no odds");
		goto released;
	}
	fray_adbg_odds_about about = {s, policy, exact, fell_back, trials, seed, reason};
	char *report = NULL;
	fray_status rst = fray_adbg_odds_report(&about, d, json, &report);
	if (rst != FRAY_OK) {
		status = cli_error(a.cmd, EXIT_RUNTIME, "%s", rst == FRAY_ERR_LIMIT ?
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
