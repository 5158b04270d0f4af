/* fray chits: the chit-pull combat system: ratio, combat (from a combat
 * file or from flags), advise (what each number of chits does) and the end
 * of turn. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "policy_cli.h"
#include "catalog_cli.h"
#include "procout.h"
#include "../common/text.h"

static int chits_ratio(int argc, char **argv)
{
	cli_args a = {.cmd = "chits ratio", .argc = argc, .argv = argv};
	int64_t ac = 0, dc = 0;
	while (a.i < argc && a.status == EXIT_OK) {
		if (cli_is_help(argv[a.i]))
			return cli_help_topic(stdout, "chits ratio") ? EXIT_OK : EXIT_RUNTIME;
		if (!cli_i64(&a, "--attacker-cdr", 1, 99, &ac) && !cli_i64(&a, "--defender-cdr", 1, 99, &dc)) {
			static const char *const known[] = {"--attacker-cdr", "--defender-cdr", "--help"};
			return cli_unknown(&a, known, 3);
		}
	}
	if (a.status != EXIT_OK)
		return a.status;
	if (!ac || !dc)
		return cli_error(a.cmd, EXIT_BAD_INPUT, "missing --attacker-cdr N and --defender-cdr N");
	char r[16];
	fray_chits_ratio_text(fray_chits_ratio((int)ac, (int)dc), r, sizeof r);
	printf("%s\n", r);
	return EXIT_OK;
}

/* The situation and sides from a combat file, or from flags with one
 * default brigade a side (4 battalions, morale 7; the defender may
 * retreat). Prints problems; returns the exit status. */
typedef struct combat_setup {
	fray_chits_mix *mix;
	fray_chits_combat_in in;
	uint64_t seed;
	bool have_seed, json, odds, all_k;
	const char *policy, *criterion;
} combat_setup;

static int setup_combat(const char *cmd, fray_ctx *ctx, int argc, char **argv, combat_setup *cs,
			bool need_draw)
{
	cli_args a = {.cmd = cmd, .argc = argc, .argv = argv};
	const char *file = NULL, *mix_path = NULL, *tactic = NULL, *script = NULL;
	size_t stance = 9, terrain = 9, at = 0, dt = 0;
	int64_t ac = 0, dc = 0, draw = 0;
	cs->policy = "heuristic";
	cs->criterion = "net";
	while (a.i < argc && a.status == EXIT_OK) {
		if (cli_is_help(argv[a.i]))
			return cli_help_topic(stdout, cmd) ? -1 : EXIT_RUNTIME;
		if (cli_flag(&a, "--json"))
			cs->json = true;
		else if (cli_flag(&a, "--odds"))
			cs->odds = true;
		else if (cli_u64(&a, "--seed", 0, UINT64_MAX, &cs->seed))
			cs->have_seed = true;
		else if (cli_value(&a, "--mix", &mix_path) || cli_value(&a, "--tactic", &tactic) ||
			 cli_value(&a, "--script", &script) || cli_value(&a, "--policy", &cs->policy) ||
			 cli_value(&a, "--criterion", &cs->criterion) ||
			 cli_enum(&a, "--stance", fray_chits_stances, 3, &stance) ||
			 cli_enum(&a, "--terrain", fray_chits_terrains, 7, &terrain) ||
			 cli_enum(&a, "--attacker-type", fray_chits_types, 3, &at) ||
			 cli_enum(&a, "--defender-type", fray_chits_types, 3, &dt) ||
			 cli_i64(&a, "--attacker-cdr", 1, 99, &ac) || cli_i64(&a, "--defender-cdr", 1, 99, &dc) ||
			 cli_i64(&a, "--draw", 1, 16, &draw))
			;
		else if (!file && !cli_is_option(argv[a.i]))
			file = argv[a.i++];
		else {
			static const char *const known[] = {
				"--mix", "--tactic", "--stance", "--terrain", "--attacker-cdr",
				"--defender-cdr", "--attacker-type", "--defender-type", "--draw", "--script",
				"--policy", "--criterion", "--odds", "--seed", "--json", "--help"};
			return cli_unknown(&a, known, 16);
		}
	}
	if (a.status != EXIT_OK)
		return a.status;
	if (cs->odds && cs->have_seed)
		return cli_error(cmd, EXIT_BAD_INPUT, "--odds and --seed do not go together: odds roll no dice");
	if (file) {
		fray_doc *doc;
		if (fray_doc_load_file(ctx, file, &doc) != FRAY_OK)
			return cli_fail(cmd, ctx);
		uint64_t seed;
		bool has_seed;
		fray_status st = fray_chits_combat_read(ctx, doc, &cs->mix, &cs->in, &seed, &has_seed);
		if (st != FRAY_OK) {
			for (size_t i = 0; i < fray_doc_error_count(doc); i++)
				cli_error(cmd, EXIT_BAD_INPUT, "%s", fray_doc_error_msg(doc, i));
			fray_doc_free(doc);
			return EXIT_BAD_INPUT;
		}
		fray_doc_free(doc);
		if (has_seed && !cs->have_seed)
			cs->seed = seed, cs->have_seed = true;
		if (draw)
			cs->in.draw = (int)draw;
	} else {
		if (!mix_path || !tactic || stance == 9 || terrain == 9 || !ac || !dc || (need_draw && !draw))
			return cli_error(cmd, EXIT_BAD_INPUT,
					 "expected a combat file, or --mix FILE --tactic T --stance S "
					 "--terrain X --attacker-cdr N --defender-cdr N%s",
					 need_draw ? " --draw K" : "");
		if (fray_chits_mix_load(ctx, mix_path, &cs->mix) != FRAY_OK)
			return cli_fail(cmd, ctx);
		fray_chits_situation *s = &cs->in.situation;
		s->tactic = fray_chits_tactic_find(cs->mix, tactic);
		if (s->tactic < 0) {
			char list[512];
			textbuf t = text_on(list, sizeof list);
			for (int i = 0; i < cs->mix->ntactics; i++)
				text_add(&t, "%s%s", i ? ", " : "", cs->mix->tactics[i].name);
			return cli_error(cmd, EXIT_BAD_INPUT, "option --tactic expects one of the mix's tactics "
					 "(%s), got '%s'", list, tactic);
		}
		s->stance = (int)stance;
		s->terrain = (int)terrain;
		s->attacker_cdr = (int)ac;
		s->defender_cdr = (int)dc;
		s->attacker_type = (int)at;
		s->defender_type = (int)dt;
		cs->in.mix = cs->mix;
		cs->in.draw = (int)draw;
		static const char *const names[2] = {"attacker", "defender"};
		for (int side = 0; side < 2; side++) {
			fray_chits_side *sd = &cs->in.side[side];
			snprintf(sd->name, sizeof sd->name, "%s", names[side]);
			sd->nunits = 1;
			sd->units[0] = (fray_chits_unit){.battalions = 4, .morale = 7, .can_retreat = side == 1};
			snprintf(sd->units[0].name, sizeof sd->units[0].name, "%s brigade", names[side]);
		}
	}
	cs->in.mix = cs->mix;
	char buf[160];
	const char *why;
	if (!file && (why = fray_chits_stance_problem(cs->mix, &cs->in.situation, buf, sizeof buf)))
		return cli_error(cmd, EXIT_BAD_INPUT, "--stance: %s", why);
	if (cs->in.draw && (why = fray_chits_draw_problem(cs->mix, &cs->in.situation, cs->in.draw, buf, sizeof buf)))
		return cli_error(cmd, EXIT_BAD_INPUT, "--draw: %s", why);
	if (script) {
		char copy[512];
		snprintf(copy, sizeof copy, "%s", script);
		cs->in.nscript = 0;
		for (char *save = NULL, *id = strtok_r(copy, ", ", &save); id; id = strtok_r(NULL, ", ", &save)) {
			int c = fray_chits_find(cs->mix, id);
			if (c < 0)
				return cli_error(cmd, EXIT_BAD_INPUT, "--script: no chit '%s' in the mix", id);
			for (int j = 0; j < cs->in.nscript; j++)
				if (cs->in.script[j] == c)
					return cli_error(cmd, EXIT_BAD_INPUT, "--script: chit '%s' twice: chits are "
							 "drawn without replacement", id);
			if (cs->in.nscript == 16)
				return cli_error(cmd, EXIT_BAD_INPUT, "--script: at most 16 chits");
			cs->in.script[cs->in.nscript++] = c;
		}
		if (cs->in.nscript != cs->in.draw)
			return cli_error(cmd, EXIT_BAD_INPUT, "--script names %d chits but --draw is %d",
					 cs->in.nscript, cs->in.draw);
	}
	return EXIT_OK;
}

static void print_unit(const fray_chits_unit *u, bool json, bool last)
{
	if (json) {
		printf("{\"name\": %s, \"fatigue\": %d, \"disordered\": %s, \"morale\": %d, \"lead\": %d, \"hits\": [",
		       cli_jstr(u->name), u->fatigue, u->disordered ? "true" : "false", u->morale, u->lead + 1);
		for (int b = 0; b < u->battalions; b++)
			printf("%s%d", b ? ", " : "", u->hits[b]);
		printf("]}%s", last ? "" : ", ");
		return;
	}
	int total = 0;
	for (int b = 0; b < u->battalions; b++)
		total += u->hits[b];
	printf("  %-28.28s hits %d (", cli_tstr(u->name), total);
	for (int b = 0; b < u->battalions; b++)
		printf("%s%d", b ? " " : "", u->hits[b]);
	printf("), lead %d, fatigue %d, morale %d%s\n", u->lead + 1, u->fatigue, u->morale,
	       u->disordered ? ", disordered" : "");
}


typedef struct combat_call {
	const fray_chits_combat_in *in;
	fray_chits_combat_out *out;
} combat_call;

static void combat_proc(fray_roller *r, fray_policy *p, const void *input, int64_t *o)
{
	const combat_call *c = input;
	fray_chits_combat(r, p, c->in, c->out);
	o[0] = c->out->hits[0];
}

static void fmt_draws(const int64_t *o, bool json, const void *input, char *dst, size_t cap)
{
	(void)input;
	if (json)
		snprintf(dst, cap, "\"attacker_hits\": %lld, \"defender_hits\": %lld, "
			 "\"attacker_morale_tests\": %lld, \"defender_morale_tests\": %lld",
			 (long long)o[0], (long long)o[1], (long long)o[2], (long long)o[3]);
	else
		snprintf(dst, cap, "hits A%lld D%lld, morale tests A%lld D%lld", (long long)o[0],
			 (long long)o[1], (long long)o[2], (long long)o[3]);
}

static int chits_combat(int argc, char **argv)
{
	const char *cmd = "chits combat";
	fray_ctx *ctx = fray_ctx_new(NULL, NULL);
	if (!ctx)
		return cli_error(cmd, EXIT_RUNTIME, "out of memory");
	combat_setup cs = {0};
	int status = setup_combat(cmd, ctx, argc, argv, &cs, true);
	fray_policy *p = NULL;
	fray_roller *r = NULL;
	if (status != EXIT_OK) {
		status = status < 0 ? EXIT_OK : status;
		goto done;
	}
	if (cs.odds) {
		char title[160], inputs[512];
		snprintf(title, sizeof title, "combat: %s, %d chits", cs.mix->tactics[cs.in.situation.tactic].name,
			 cs.in.draw);
		snprintf(inputs, sizeof inputs, "{\"tactic\": %s, \"draw\": %d}",
			 cli_jstr(cs.mix->tactics[cs.in.situation.tactic].name), cs.in.draw);
		proc_run run = {"chits.combat", title, inputs, fray_chits_draws_procedure, &cs.in, 4, fmt_draws, {0}};
		proc_opts po = {.odds = true, .json = cs.json};
		status = proc_run_print(cmd, &run, &po);
		goto done;
	}
	if ((status = cli_make_policy(cmd, ctx, cs.policy, &p, NULL)) != EXIT_OK)
		goto done;
	uint64_t seed = cs.have_seed ? cs.seed : cli_pick_seed();
	if (!(r = fray_roller_sample_new(ctx, seed, 0))) {
		status = cli_fail(cmd, ctx);
		goto done;
	}
	cli_narrator t = {.json = cs.json, .first = true};
	fray_roller_set_sink(r, cli_narrate, &t);
	fray_chits_combat_out out;
	combat_call call = {&cs.in, &out};
	const char *tname = cs.mix->tactics[cs.in.situation.tactic].name;
	if (cs.json)
		printf("{\"procedure\": \"chits.combat\", \"tactic\": %s, \"draw\": %d, \"seed\": %" PRIu64
		       ", \"events\": [", cli_jstr(tname), cs.in.draw, seed);
	else
		printf("%s against %s: %s, %d chits (seed %" PRIu64 "%s)\n", cli_tstr(cs.in.side[0].name),
		       cli_tstr(cs.in.side[1].name), cli_tstr(tname), cs.in.draw, seed, cs.have_seed ? "" : "; replay with --seed");
	int64_t o[1];
	if (fray_run(r, combat_proc, p, &call, o) != FRAY_OK) {
		if (cs.json)
			printf("]}\n");
		status = cli_fail(cmd, ctx);
		goto done;
	}
	if (cs.json) {
		printf("], \"hits\": [%d, %d], \"sides\": [", out.hits[0], out.hits[1]);
		for (int s = 0; s < 2; s++) {
			printf("%s{\"name\": %s, \"units\": [", s ? ", " : "", cli_jstr(out.side[s].name));
			for (int i = 0; i < out.side[s].nunits; i++)
				print_unit(&out.side[s].units[i], true, i == out.side[s].nunits - 1);
			printf("]}");
		}
		printf("]}\n");
	} else {
		printf("\nafter the combat:\n");
		for (int s = 0; s < 2; s++)
			for (int i = 0; i < out.side[s].nunits; i++)
				print_unit(&out.side[s].units[i], false, false);
	}
done:
	fray_roller_free(r);
	fray_policy_free(p);
	fray_chits_mix_free(cs.mix);
	fray_ctx_free(ctx);
	return status;
}

/* For each allowed number of chits, the exact distribution of hits to each
 * side and of morale tests, and the best number by a criterion. */
static int chits_advise(int argc, char **argv)
{
	const char *cmd = "chits advise";
	fray_ctx *ctx = fray_ctx_new(NULL, NULL);
	if (!ctx)
		return cli_error(cmd, EXIT_RUNTIME, "out of memory");
	combat_setup cs = {0};
	int status = setup_combat(cmd, ctx, argc, argv, &cs, false);
	if (status != EXIT_OK) {
		status = status < 0 ? EXIT_OK : status;
		goto done;
	}
	static const char *const criteria[] = {"net", "enemy", "own", "edge"};
	int crit = -1;
	for (int c = 0; c < 4; c++)
		if (strcmp(cs.criterion, criteria[c]) == 0)
			crit = c;
	if (crit < 0) {
		status = cli_error(cmd, EXIT_BAD_INPUT, "option --criterion expects one of net, enemy, own, "
				   "edge, got '%s'", cs.criterion);
		goto done;
	}
	const fray_chits_tactic *t = &cs.mix->tactics[cs.in.situation.tactic];
	int lo = t->min, hi = t->max[cs.in.situation.stance];
	int best_k = lo;
	double best = -1e300;
	if (cs.json)
		printf("{\"procedure\": \"chits.advise\", \"tactic\": %s, \"stance\": \"%s\", \"criterion\": \"%s\", \"draws\": [",
		       cli_jstr(t->name), fray_chits_stances[cs.in.situation.stance], criteria[crit]);
	else
		printf("%s against %s: draw %d to %d chits\n", cli_tstr(t->name),
		       fray_chits_stances[cs.in.situation.stance], lo, hi);
	for (int k = lo; k <= hi; k++) {
		cs.in.draw = k;
		fray_dist *d;
		if (fray_enumerate(ctx, fray_chits_draws_procedure, NULL, &cs.in, 4, NULL, &d) != FRAY_OK) {
			status = cli_fail(cmd, ctx);
			goto done;
		}
		double ea = 0, ed = 0, ma = 0, md = 0, edge = 0;
		double pa[32] = {0}, pd[32] = {0};
		for (size_t i = 0; i < fray_dist_count(d); i++) {
			const int64_t *o = fray_dist_outcome(d, i);
			double p = fray_dist_p(d, i);
			ea += (double)o[0] * p;
			ed += (double)o[1] * p;
			ma += (double)o[2] * p;
			md += (double)o[3] * p;
			edge += o[1] > o[0] ? p : 0;
			pa[o[0] < 31 ? o[0] : 31] += p;
			pd[o[1] < 31 ? o[1] : 31] += p;
		}
		double score = crit == 0 ? ed - ea : crit == 1 ? ed : crit == 2 ? -ea : edge;
		if (score > best + 1e-12) {
			best = score;
			best_k = k;
		}
		if (cs.json) {
			printf("%s\n  {\"chits\": %d, \"expected\": {\"attacker_hits\": %.6f, \"defender_hits\": %.6f, "
			       "\"attacker_morale_tests\": %.6f, \"defender_morale_tests\": %.6f}, "
			       "\"p_defender_more_hits\": %.6f, \"attacker_hits\": [", k == lo ? "" : ",",
			       k, ea, ed, ma, md, edge);
			int top = 0;
			for (int h = 0; h < 32; h++)
				if (pa[h] > 0 || pd[h] > 0)
					top = h;
			for (int h = 0; h <= top; h++)
				printf("%s%.6f", h ? ", " : "", pa[h]);
			printf("], \"defender_hits\": [");
			for (int h = 0; h <= top; h++)
				printf("%s%.6f", h ? ", " : "", pd[h]);
			printf("]}");
		} else {
			printf("\n%d chits: expected hits: attacker %.3f, defender %.3f; morale tests: "
			       "attacker %.3f, defender %.3f; defender hit harder %.1f%%\n", k, ea, ed, ma, md,
			       100 * edge);
			printf("  hits      ");
			int top = 0;
			for (int h = 0; h < 32; h++)
				if (pa[h] > 0 || pd[h] > 0)
					top = h;
			for (int h = 0; h <= top; h++)
				printf(" %6d", h);
			printf("\n  attacker  ");
			for (int h = 0; h <= top; h++)
				printf(" %5.1f%%", 100 * pa[h]);
			printf("\n  defender  ");
			for (int h = 0; h <= top; h++)
				printf(" %5.1f%%", 100 * pd[h]);
			printf("\n");
		}
		fray_dist_free(d);
	}
	static const char *const crit_words[] = {
		"the most hits on the defender less hits on the attacker",
		"the most hits on the defender", "the fewest hits on the attacker",
		"the best chance that the defender takes more hits"};
	if (cs.json)
		printf("\n], \"best\": %d}\n", best_k);
	else
		printf("\nbest: %d chits (%s)\n", best_k, crit_words[crit]);
done:
	fray_chits_mix_free(cs.mix);
	fray_ctx_free(ctx);
	return status;
}

/* the end of turn is a catalogue procedure */
static int chits_end_turn(int argc, char **argv)
{
	return cli_run_catalog("chits end-turn", argc, argv);
}

static const cli_sub subs[] = {
	{"ratio", chits_ratio}, {"combat", chits_combat}, {"advise", chits_advise},
	{"end-turn", chits_end_turn},
};

int cmd_chits(int argc, char **argv)
{
	return cli_dispatch("chits", subs, sizeof subs / sizeof subs[0], argc, argv);
}
