/* A whole quick battle of A Dark and Bloody Ground in the catalogue (rule
 * 19): fought and told from a scenario file with a policy, its summary
 * rendered here for the command line too (fray_adbg_summary). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "catalog.h"

/* The end of a told battle: the JSON's "result" (after its events), or the
 * table of units by final status and the winner. */
static void summary(strbuf *sb, const fray_adbg_scenario *s, const fray_adbg_result *res, fray_format form)
{
	if (form == FRAY_FORMAT_JSON) {
		frayi_sb_add(sb, "], \"result\": {\"rounds\": %d, \"winner\": ", res->rounds);
		if (res->winner < 0)
			frayi_sb_add(sb, "null");
		else
			frayi_sb_json(sb, fray_adbg_side_name(s, res->winner));
		frayi_sb_add(sb, ", \"sides\": [");
		for (int i = 0; i < 2; i++) {
			const fray_adbg_side_result *r = &res->side[i];
			frayi_sb_add(sb, "%s{\"name\": ", i ? ", " : "");
			frayi_sb_json(sb, fray_adbg_side_name(s, i));
			for (int k = 0; k < 5; k++)
				frayi_sb_add(sb, ", \"%s\": %d", fray_adbg_status_names[k], r->count[k]);
			frayi_sb_add(sb, ", \"leaders_lost\": %d, \"losses\": %d}", r->leaders_lost, r->losses);
		}
		frayi_sb_add(sb, "]}}\n");
		return;
	}
	frayi_sb_add(sb, "\n%-28s %6s %9s %6s %10s %7s %7s\n", "side", "normal", "disrupted", "routed", "eliminated",
	       "removed", "leaders");
	for (int i = 0; i < 2; i++) {
		const fray_adbg_side_result *r = &res->side[i];
		strbuf one = {.ctx = sb->ctx};
		frayi_sb_escaped(&one, fray_adbg_side_name(s, i));
		frayi_sb_add(sb, "%-28.28s %6d %9d %6d %10d %7d %7d\n", one.buf ? one.buf : "", r->count[0],
				r->count[1],
		       r->count[2], r->count[3], r->count[4], r->leaders_lost);
		frayi_sb_free(&one);
	}
	if (res->winner < 0) {
		frayi_sb_add(sb, "\nresult: a draw after %d round%s\n", res->rounds, res->rounds == 1 ? "" : "s");
	} else {
		frayi_sb_add(sb, "\nresult: ");
		frayi_sb_escaped(sb, fray_adbg_side_name(s, res->winner));
		frayi_sb_add(sb, " wins after %d round%s\n", res->rounds, res->rounds == 1 ? "" : "s");
	}
}

FRAY_API fray_status fray_adbg_summary(const fray_adbg_scenario *s, const fray_adbg_result *res, fray_format form,
				       char **out)
{
	if (!out)
		return FRAY_ERR_INPUT;
	*out = NULL;
	if (!s || !res ||
	    (form != FRAY_FORMAT_TEXT && form != FRAY_FORMAT_JSON))
		return FRAY_ERR_INPUT;
	strbuf sb = {0};
	summary(&sb, s, res, form);
	return frayi_sb_give(&sb, NULL, out);
}

/* ---- the procedure ---- */

/* The policies fray_policy_from_spec names, for the page's picker: not
 * scripted:FILE (a file the server does not read) nor random:SEED (typed
 * at the command line); NULL past the last. A chits combat offers the same
 * (bind_chits_combat.c). */
const char *frayi_catalog_policy_name(size_t k)
{
	static const char *const names[] = {"heuristic", "random"};
	return k < sizeof names / sizeof names[0] ? names[k] : NULL;
}

enum { B_SCENARIO, B_POLICY, B_POLICY_A, B_POLICY_B, B_BUDGET, B_N };
static const in_desc battle_in[] = {
	{"scenario", IN_FILE, .required = true, .help = "the scenario (examples/adbg/)", .rule = "ADBG 19.1-19.3",
	 .missing = "FILE (see examples/adbg/)"},
	{"policy", IN_STRING, .help = "both sides' decisions: heuristic (default), random[:SEED] or scripted:FILE",
	 .rule = "fray's policies (docs/adbg.md)", .suggest = frayi_catalog_policy_name},
	{"policy_a", IN_STRING, .help = "the first side's policy, if not the same", .rule = "fray's policies",
	 .suggest = frayi_catalog_policy_name},
	{"policy_b", IN_STRING, .help = "the second side's policy, if not the same", .rule = "fray's policies",
	 .suggest = frayi_catalog_policy_name},
	{"budget", IN_INT, 0, 1000000000, .def = 100000, .unit = "paths",
	 .help = "odds: paths exact odds may walk before a simulation answers instead (0: simulate)",
	 .rule = "fray's exact odds"},
};
static const out_desc battle_out[] = {
	{"rounds", "integer", "rounds fought"}, {"winner", "string", "the winning side, or null for a draw"},
	{"sides", "array", "each side's units by final status, leaders lost and losses"}};

/* A policy by name (libfray's: not interactive, which only a terminal can
 * answer); a bad name or seed is reported against the input. */
static fray_status policy_of(fray_call *c, size_t k, const char *spec, fray_policy **out)
{
	if (c->no_files && strncmp(spec, "scripted:", 9) == 0)
		return frayi_call_bad(c, "%s: this service reads no files, so no scripted policy",
				frayi_call_opt(c, k));
	fray_status st = fray_policy_from_spec(c->ctx, spec, out, NULL);
	if (st != FRAY_ERR_INPUT || strncmp(spec, "scripted:", 9) == 0)
		return st;
	char msg[FRAY_MSG_MAX];
	snprintf(msg, sizeof msg, "%s", fray_ctx_message(c->ctx));
	fray_ctx_clear(c->ctx);
	return frayi_call_bad(c, "%s %s", frayi_call_opt(c, k), msg);
}

typedef struct battle_owned {
	fray_adbg_scenario *scenario;
	fray_policy *policy;
	char policy_name[160];
} battle_owned;

static void free_battle(fray_call *c)
{
	battle_owned *b = c->owned[0];
	if (b) {
		fray_adbg_scenario_free(b->scenario);
		fray_policy_free(b->policy);
		frayi_dealloc(c->ctx, b);
	}
	c->owned[0] = NULL;
}

static fray_status open_crt(void *ud, fray_ctx *ctx, const char *path, fray_doc **out)
{
	return frayi_call_open_named(ud, ctx, path, "give the CRT inline: melee_crt: {columns: ..., rows: ...}", out);
}

static fray_status bind_battle(fray_call *c)
{
	if (val_given(c, B_POLICY) && val_given(c, B_POLICY_A) && val_given(c, B_POLICY_B))
		return frayi_call_bad(c, "%s and %s name both sides: %s is not needed", frayi_call_opt(c, B_POLICY_A),
				frayi_call_opt(c, B_POLICY_B), frayi_call_opt(c, B_POLICY));
	battle_owned *b = frayi_calloc(c->ctx, 1, sizeof *b);
	if (!b)
		return frayi_nomem(c->ctx);
	c->owned[0] = b;
	c->cleanup = free_battle;
	fray_doc *doc;
	if (frayi_call_load_doc(c, B_SCENARIO, &doc) != FRAY_OK)
		return fray_ctx_status(c->ctx);
	fray_status st = fray_adbg_scenario_read_with(c->ctx, doc, open_crt, c, &b->scenario);
	if (st == FRAY_ERR_INPUT && fray_doc_error_count(doc) > 0) {
		fray_ctx_clear(c->ctx);
		st = frayi_call_bad(c, "%s", fray_doc_error_msg(doc, 0));
	}
	fray_doc_free(doc);
	if (st != FRAY_OK)
		return st;
	const char *both = val_given(c, B_POLICY) ? val_s(c, B_POLICY) : "heuristic";
	if (!val_given(c, B_POLICY_A) && !val_given(c, B_POLICY_B)) {
		snprintf(b->policy_name, sizeof b->policy_name, "%s", both);
		return policy_of(c, B_POLICY, both, &b->policy);
	}
	const char *pa = val_given(c, B_POLICY_A) ? val_s(c, B_POLICY_A) : both;
	const char *pb = val_given(c, B_POLICY_B) ? val_s(c, B_POLICY_B) : both;
	snprintf(b->policy_name, sizeof b->policy_name, "%s vs %s", pa, pb);
	fray_policy *p0, *p1;
	if ((st = policy_of(c, val_given(c, B_POLICY_A) ? B_POLICY_A : B_POLICY, pa, &p0)) != FRAY_OK)
		return st;
	if ((st = policy_of(c, val_given(c, B_POLICY_B) ? B_POLICY_B : B_POLICY, pb, &p1)) != FRAY_OK) {
		fray_policy_free(p0);
		return st;
	}
	b->policy = fray_policy_sides_new(c->ctx, p0, p1);
	return b->policy ? FRAY_OK : frayi_nomem(c->ctx);
}

/* Many battles on every core, reported as `fray adbg simulate` reports
 * them (the same result for any number of threads, ruling R24). */
static fray_status simulate_battles(fray_call *c, const fray_call_opts *o, strbuf *sb)
{
	battle_owned *b = c->owned[0];
	uint64_t trials = o->trials ? o->trials : 100000;
	fray_sim *sim = fray_sim_new(FRAY_ADBG_SIM_FIELDS);
	if (!sim)
		return frayi_nomem(c->ctx);
	fray_sim_run run = {.proc = fray_adbg_battle_stats_procedure, .policy = b->policy, .input = b->scenario,
			    .nfields = FRAY_ADBG_SIM_FIELDS, .seed = o->seed, .first = 0, .last = trials,
			    .threads = fray_policy_thread_safe(b->policy) ? 0 : 1,
			    .stop = o->stop, .progress = o->progress, .ud = o->ud};
	fray_status st = fray_simulate(c->ctx, &run, sim);
	if (st == FRAY_OK && o->stop && *o->stop)
		st = frayi_fail(c->ctx, FRAY_ERR_BUDGET, "stopped after %" PRIu64 " of %" PRIu64 " battles",
			       fray_sim_trials(sim), trials);
	if (st == FRAY_OK) {
		fray_adbg_sim_about about = {fray_adbg_scenario_name(b->scenario), b->policy_name,
					     {fray_adbg_side_name(b->scenario, 0), fray_adbg_side_name(b->scenario, 1)},
					     o->seed, trials, NULL};
		frayi_adbg_sim_report(sb, &about, sim, o->format);
	}
	fray_sim_free(sim);
	return st;
}

/* Who wins and each side's losses (fray_adbg_battle_odds, as `fray adbg
 * odds`): the budget is the input's, lowered by a caller's cap (0 stays 0:
 * simulate, as documented); the simulation's seed is 1. */
static fray_status battle_odds(fray_call *c, const fray_call_opts *o, strbuf *sb)
{
	battle_owned *b = c->owned[0];
	uint64_t budget = (uint64_t)val_i(c, B_BUDGET);
	if (o->max_paths && budget > o->max_paths)
		budget = o->max_paths;
	fray_adbg_odds_opts oo = {.budget = budget, .max_bytes = o->max_bytes, .trials = o->trials ? o->trials : 100000,
				  .seed = 1, .stop = o->stop, .progress = o->progress, .ud = o->ud};
	fray_adbg_odds odds;
	fray_status st = fray_adbg_battle_odds(c->ctx, b->scenario, b->policy, &oo, &odds);
	if (st != FRAY_OK)
		return st;
	fray_adbg_odds_about about = {b->scenario, b->policy_name, odds.exact, odds.fell_back[0] ? odds.fell_back : NULL,
				      oo.trials, oo.seed, odds.reason};
	frayi_adbg_odds_report(sb, &about, odds.dist, o->format);
	fray_dist_free(odds.dist);
	return FRAY_OK;
}

/* The battle told round by round, as `fray adbg battle` tells it. */
static fray_status render_battle(fray_call *c, const fray_call_opts *o, strbuf *sb)
{
	if (o->mode == FRAY_MODE_SIMULATE)
		return simulate_battles(c, o, sb);
	if (o->mode == FRAY_MODE_ODDS)
		return battle_odds(c, o, sb);
	battle_owned *b = c->owned[0];
	const fray_adbg_scenario *s = b->scenario;
	fray_roller *r = fray_roller_sample_new(c->ctx, o->seed, 0);
	fray_adbg_battle_state *st = r ? fray_adbg_battle_new(c->ctx, s) : NULL;
	if (!st) {
		fray_roller_free(r);
		return fray_ctx_status(c->ctx) ? fray_ctx_status(c->ctx) : frayi_nomem(c->ctx);
	}
	narrator n = {.sb = sb, .form = o->format, .first = true};
	fray_roller_set_sink(r, frayi_narrate, &n);
	if (o->format == FRAY_FORMAT_JSON) {
		frayi_sb_add(sb, "{\"scenario\": ");
		frayi_sb_json(sb, fray_adbg_scenario_name(s));
		frayi_sb_add(sb, ", \"seed\": %" PRIu64 ", \"policy\": ", o->seed);
		frayi_sb_json(sb, b->policy_name);
		frayi_sb_add(sb, ", \"events\": [");
	} else {
		frayi_sb_escaped(sb, fray_adbg_scenario_name(s));
		frayi_sb_add(sb, " (seed %" PRIu64 "%s; policy %s)\n", o->seed,
				o->have_seed ? "" : ", replay with --seed",
		       b->policy_name);
	}
	fray_policy_reset(b->policy);
	fray_adbg_battle_begin(st, r, b->policy);
	while (!fray_roller_stopped(r) && fray_adbg_battle_round(st, r, b->policy))
		;
	fray_adbg_result res;
	if (!fray_roller_stopped(r))
		fray_adbg_battle_finish(st, r, b->policy, &res);
	fray_status status = FRAY_OK;
	if (fray_roller_stopped(r)) {
		/* a policy that could not answer */
		const char *why = fray_roller_stop_reason(r);
		status = frayi_call_bad(c, "the battle stopped: %s", why[0] ? why : "the policy gave no answer");
	} else {
		summary(sb, s, &res, o->format);
	}
	fray_adbg_battle_free(st);
	fray_roller_free(r);
	return status;
}

static const proc_desc frayi_adbg_battle_desc = {
	"adbg.battle", "adbg battle", "a whole quick battle, told like a referee", "ADBG 19.1-19.3",
	"Rounds, array, then each round fire, movement, melee and recovery, every\n"
	"roll with its modifiers and rule numbers, and a final summary. The policy\n"
	"makes the players' decisions. Simulated: win rates with their 95%\n"
	"intervals, losses and rounds (as fray adbg simulate). Odds: who wins and\n"
	"each side's losses, exact within the budget of paths, else simulated (as\n"
	"fray adbg odds, which also shows progress). The command line also\n"
	"saves and resumes a battle (--save, --stop-after, fray adbg resume) and\n"
	"plays interactively.",
	battle_in, B_N, battle_out, 3, FRAY_MODE_ROLL | FRAY_MODE_ODDS | FRAY_MODE_SIMULATE,
	"{\"scenario\": \"examples/adbg/lochry-1781.yaml\"}",
	bind_battle, NULL, render_battle, true,
	.headline = {"winner", "each", "who wins"}, .words = "battle scenario fight whole", .generic = true, .no_sides = true};

/* This file's procedures, in the catalogue's order (list.c joins the files). */
const proc_desc *const frayi_adbg_battle_procs[] = {
	&frayi_adbg_battle_desc, NULL,
};
