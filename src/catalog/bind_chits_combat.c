/* The chit-pull system's combat and its advice in the catalogue
 * (chit-combat.txt; rulings R21-R23, R29): a combat from a combat file or
 * from inputs with one default brigade a side; the draws' exact odds; for
 * each allowed number of chits, what it does. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "catalog.h"

#define RULE "chit combat"

/* The situation's inputs, shared by combat and advise (same indices). */
enum { CB_COMBAT, CB_MIX, CB_TACTIC, CB_STANCE, CB_TERRAIN, CB_ACDR, CB_DCDR, CB_ATYPE, CB_DTYPE, CB_SHARED };
enum { CB_DRAW = CB_SHARED, CB_SCRIPT, CB_POLICY, CB_N };
enum { AD_CRITERION = CB_SHARED, AD_N };

/* The situation's inputs, bound to the situation of the input struct: a
 * combat file, when given, replaces them all. */
#define SIT(f) IN_FIELD(fray_chits_combat_in, situation.f)
#define SITUATION_INPUTS                                                                                        \
	{"combat", IN_FILE, .help = "a combat file: mix, situation and both sides (examples/chits/)",          \
	 .rule = RULE ", R21-R23", .positional = true},                                                         \
	{"mix", IN_FILE, .help = "the chit mix, without a combat file", .rule = RULE ", G5"},                    \
	{"tactic", IN_STRING, .help = "the attacker's tactic: one of the mix's", .rule = RULE},                 \
	{"stance", IN_CHOICE, .choices = fray_chits_stances, .nchoices = 3, .def = -1,                          \
	 .help = "the defender's stance", .rule = RULE ", R29", SIT(stance)},                                   \
	{"terrain", IN_CHOICE, .choices = fray_chits_terrains, .nchoices = 7, .def = -1,                        \
	 .help = "the defender's terrain", .rule = RULE, SIT(terrain)},                                         \
	{"attacker_cdr", IN_INT, 1, 99, .def = -1, .rule = "R21",                                               \
	 .help = "the attacker's modified combat die roll, rolled at the table (the text names no die)",        \
	 SIT(attacker_cdr), .label = "combat die roll"},                                                        \
	{"defender_cdr", IN_INT, 1, 99, .def = -1, .rule = "R21",                                               \
	 .help = "the defender's modified combat die roll, rolled at the table (the text names no die)",        \
	 SIT(defender_cdr), .label = "combat die roll"},                                                        \
	{"attacker_type", IN_CHOICE, .choices = fray_chits_types, .nchoices = 3, .help = "the attacker's arm",  \
	 .rule = RULE, SIT(attacker_type), .label = "arm"},                                                     \
	{"defender_type", IN_CHOICE, .choices = fray_chits_types, .nchoices = 3, .help = "the defender's arm",  \
	 .rule = RULE, SIT(defender_type), .label = "arm"}

static const in_desc combat_in[] = {
	SITUATION_INPUTS,
	{"draw", IN_INT, 1, 16, .def = -1, .rule = RULE, .label = "chits to draw",
	 .help = "chits to draw: the attacker's declared choice, within the tactic's range"},
	{"script", IN_STRING, .help = "the chits drawn, by id (C01,C07,...): no draw is random",
	 .rule = "fray's scripted draws"},
	{"policy", IN_STRING, .help = "who chooses retreats: heuristic (default), random[:SEED], or best[:GOAL] "
	 "with odds (the whole combat's exact value to each side, docs/chits.md)",
	 .rule = "R23; fray's policies", .suggest = frayi_catalog_policy_name},
};

static const char *const criteria[] = {"net", "enemy", "own", "edge"};
static const in_desc advise_in[] = {
	SITUATION_INPUTS,
	{"criterion", IN_CHOICE, .choices = criteria, .nchoices = 4,
	 .help = "best by: net hits, hits on the enemy, fewest own hits, or the edge", .rule = "fray's advice"},
};

/* text: "hits A1 D2, morale tests A0 D1" */
static const out_desc draws_out[] = {
	{"attacker_hits", "integer", "hits on the attacker", .before = "hits A"},
	{"defender_hits", "integer", "hits on the defender", .before = " D"},
	{"attacker_morale_tests", "integer", "morale tests the attacker takes", .before = ", morale tests A"},
	{"defender_morale_tests", "integer", "morale tests the defender takes", .before = " D"}};

static const side_pair situation_sides[] = {{"attacker_cdr", "defender_cdr"}, {"attacker_type", "defender_type"},
					    {NULL, NULL}};

/* What bind loads: the mix, the seed a combat file gives. */
typedef struct combat_owned {
	fray_chits_mix *mix;
	uint64_t file_seed;
	bool has_file_seed;
} combat_owned;

static void free_combat(fray_call *c)
{
	combat_owned *o = c->owned[0];
	if (o) {
		fray_chits_mix_free(o->mix);
		frayi_dealloc(c->ctx, o);
	}
	c->owned[0] = NULL;
}

/* The combat file's mix, named relative to it: read as the call reads its
 * files (a shipped example only, when it reads none). */
static fray_status open_mix(void *ud, fray_ctx *ctx, const char *path, fray_doc **out)
{
	return frayi_call_open_named(ud, ctx, path, "give the mix's text and the situation's inputs instead", out);
}

/* A doc's problems as the call's message: the first one (file:line:col). */
static fray_status doc_problem(fray_call *c, fray_doc *doc, fray_status st)
{
	if (st == FRAY_ERR_INPUT && fray_doc_error_count(doc) > 0) {
		fray_ctx_clear(c->ctx);
		return frayi_call_bad(c, "%s", fray_doc_error_msg(doc, 0));
	}
	return st;
}

static fray_status from_file(fray_call *c, combat_owned *o, fray_chits_combat_in *in)
{
	fray_doc *doc;
	if (frayi_call_load_doc(c, CB_COMBAT, &doc) != FRAY_OK)
		return fray_ctx_status(c->ctx);
	fray_status st = fray_chits_combat_read_with(c->ctx, doc, open_mix, c, &o->mix, in, &o->file_seed,
						     &o->has_file_seed);
	st = doc_problem(c, doc, st);
	fray_doc_free(doc);
	return st;
}

/* The situation from inputs (stored by the generic code but the tactic,
 * a name in the mix), one brigade a side of 4 battalions, morale 7 (either
 * may retreat). */
static fray_status from_inputs(fray_call *c, combat_owned *o, fray_chits_combat_in *in, bool need_draw)
{
	if (!val_given(c, CB_MIX) || !val_given(c, CB_TACTIC) || !val_given(c, CB_STANCE) ||
	    !val_given(c, CB_TERRAIN) || !val_given(c, CB_ACDR) || !val_given(c, CB_DCDR) ||
	    (need_draw && !val_given(c, CB_DRAW))) {
		static const size_t what[] = {CB_MIX, CB_TACTIC, CB_STANCE, CB_TERRAIN, CB_ACDR, CB_DCDR, CB_DRAW};
		static const char *const meta[] = {"FILE", "T", "S", "X", "N", "N", "K"};
		char list[512];
		textbuf t = text_on(list, sizeof list);
		for (size_t i = 0; i < (need_draw ? 7u : 6u); i++)
			text_add(&t, " %s %s", frayi_call_opt(c, what[i]), meta[i]);
		return frayi_call_bad(c, "expected a combat file, or%s", list);
	}
	fray_doc *doc;
	if (frayi_call_load_doc(c, CB_MIX, &doc) != FRAY_OK)
		return fray_ctx_status(c->ctx);
	fray_status st = fray_chits_mix_read(c->ctx, doc, &o->mix);
	fray_doc_free(doc);
	if (st != FRAY_OK)
		return st;
	fray_chits_situation *s = &in->situation;
	s->tactic = fray_chits_tactic_find(o->mix, val_s(c, CB_TACTIC));
	if (s->tactic < 0) {
		char list[512];
		textbuf t = text_on(list, sizeof list);
		for (int i = 0; i < o->mix->ntactics; i++)
			text_add(&t, "%s%s", i ? ", " : "", o->mix->tactics[i].name);
		return frayi_call_bad(c, "%s%s expects one of the mix's tactics (%s), got '%.200s'",
				c->from_json ? "inputs." : "option ", frayi_call_opt(c, CB_TACTIC), list,
						val_s(c, CB_TACTIC));
	}
	static const char *const names[2] = {"attacker", "defender"};
	for (int side = 0; side < 2; side++) {
		fray_chits_side *sd = &in->side[side];
		snprintf(sd->name, sizeof sd->name, "%s", names[side]);
		sd->nunits = 1;
		/* either side may retreat (the owning player's choice, R23) */
		sd->units[0] = (fray_chits_unit){.battalions = 4, .morale = 7, .can_retreat = true};
		snprintf(sd->units[0].name, sizeof sd->units[0].name, "%s brigade", names[side]);
	}
	char buf[160];
	const char *why = fray_chits_stance_problem(o->mix, s, buf, sizeof buf);
	return why ? frayi_call_bad(c, "%s: %s", frayi_call_opt(c, CB_STANCE), why) : FRAY_OK;
}

/* The situation, from a combat file or the inputs, into the call's input
 * struct; the mix is loaded. */
static fray_status bind_situation(fray_call *c, bool need_draw)
{
	combat_owned *o = frayi_calloc(c->ctx, 1, sizeof *o);
	if (!o)
		return frayi_nomem(c->ctx);
	c->owned[0] = o;
	c->cleanup = free_combat;
	fray_chits_combat_in *in = CALL_INPUT(c, fray_chits_combat_in);
	fray_status st = val_given(c, CB_COMBAT) ? from_file(c, o, in) : from_inputs(c, o, in, need_draw);
	in->mix = o->mix;
	return st;
}

/* The scripted draw: chit ids, each once, as many as drawn. */
static fray_status bind_script(fray_call *c, fray_chits_combat_in *in)
{
	char copy[CALL_MAX_TEXT + 1];
	snprintf(copy, sizeof copy, "%s", val_s(c, CB_SCRIPT));
	const char *opt = frayi_call_opt(c, CB_SCRIPT);
	in->nscript = 0;
	for (char *save = NULL, *id = strtok_r(copy, ", ", &save); id; id = strtok_r(NULL, ", ", &save)) {
		int k = fray_chits_find(in->mix, id);
		if (k < 0)
			return frayi_call_bad(c, "%s: no chit '%.80s' in the mix", opt, id);
		for (int j = 0; j < in->nscript; j++)
			if (in->script[j] == k)
				return frayi_call_bad(c, "%s: chit '%.80s' twice: chits are drawn without replacement",
						opt, id);
		if (in->nscript == 16)
			return frayi_call_bad(c, "%s: at most 16 chits", opt);
		in->script[in->nscript++] = k;
	}
	if (in->nscript != in->draw)
		return frayi_call_bad(c, "%s names %d chits but %s is %d", opt, in->nscript,
				frayi_call_opt(c, CB_DRAW), in->draw);
	return FRAY_OK;
}

static fray_status bind_combat(fray_call *c)
{
	fray_status st = bind_situation(c, true);
	if (st != FRAY_OK)
		return st;
	fray_chits_combat_in *in = CALL_INPUT(c, fray_chits_combat_in);
	if (val_given(c, CB_DRAW))
		in->draw = (int)val_i(c, CB_DRAW);
	char buf[160];
	const char *why = fray_chits_draw_problem(in->mix, &in->situation, in->draw, buf, sizeof buf);
	if (why)
		return frayi_call_bad(c, "%s: %s", frayi_call_opt(c, CB_DRAW), why);
	if (val_given(c, CB_SCRIPT) && (st = bind_script(c, in)) != FRAY_OK)
		return st;
	if (val_given(c, CB_POLICY)) {
		/* refused before it is made: a scripted policy would read its file */
		if (strncmp(val_s(c, CB_POLICY), "scripted:", 9) == 0)
			return frayi_call_bad(c, "%s: a scripted policy is for battles", frayi_call_opt(c, CB_POLICY));
		fray_policy *p = NULL;
		/* checked now, made again for each roll (a random one from its seed) */
		if (fray_policy_from_spec(c->ctx, val_s(c, CB_POLICY), &p, NULL) != FRAY_OK) {
			char msg[FRAY_MSG_MAX];
			snprintf(msg, sizeof msg, "%s", fray_ctx_message(c->ctx));
			fray_ctx_clear(c->ctx);
			return frayi_call_bad(c, "%s %s", frayi_call_opt(c, CB_POLICY), msg);
		}
		fray_policy_free(p);
	}
	const char *tname = in->mix->tactics[in->situation.tactic].name;
	frayi_call_title(c, "combat: %s, %d chits", tname, in->draw);
	/* the echo: what was drawn for, whether from a file or the inputs */
	textbuf t = text_on(c->inputs_json, sizeof c->inputs_json);
	char quoted[256];
	fray_json_string(tname, quoted, sizeof quoted);
	text_add(&t, "{\"tactic\": %s, \"draw\": %d}", quoted, in->draw);
	call_run(c, fray_chits_draws_procedure, 4, NULL);
	return FRAY_OK;
}

static void unit_json(strbuf *sb, const fray_chits_unit *u, bool last)
{
	frayi_sb_add(sb, "{\"name\": ");
	frayi_sb_json(sb, u->name);
	frayi_sb_add(sb, ", \"fatigue\": %d, \"disordered\": %s, \"morale\": %d, \"lead\": %d, \"hits\": [", u->fatigue,
	       u->disordered ? "true" : "false", u->morale, u->lead + 1);
	for (int b = 0; b < u->battalions; b++)
		frayi_sb_add(sb, "%s%d", b ? ", " : "", u->hits[b]);
	frayi_sb_add(sb, "]}%s", last ? "" : ", ");
}

static void unit_text(strbuf *sb, const fray_chits_unit *u)
{
	int total = 0;
	for (int b = 0; b < u->battalions; b++)
		total += u->hits[b];
	strbuf name = {.ctx = sb->ctx};
	frayi_sb_escaped(&name, u->name);
	frayi_sb_add(sb, "  %-28.28s hits %d (", name.buf ? name.buf : "", total);
	frayi_sb_free(&name);
	for (int b = 0; b < u->battalions; b++)
		frayi_sb_add(sb, "%s%d", b ? " " : "", u->hits[b]);
	frayi_sb_add(sb, "), lead %d, fatigue %d, morale %d%s\n", u->lead + 1, u->fatigue, u->morale,
	       u->disordered ? ", disordered" : "");
}

typedef struct combat_run {
	const fray_chits_combat_in *in;
	fray_chits_combat_out *out;
} combat_run;

static void combat_proc(fray_roller *r, fray_policy *p, const void *input, int64_t *o)
{
	const combat_run *run = input;
	fray_chits_combat(r, p, run->in, run->out);
	o[0] = run->out->hits[0];
}

/* The combat told chit by chit, then each unit as it stands after. */
static fray_status roll_combat(fray_call *c, const fray_call_opts *opts, strbuf *sb)
{
	const combat_owned *o = c->owned[0];
	const fray_chits_combat_in *in = CALL_INPUT(c, fray_chits_combat_in);
	/* a combat file's seed, unless one is given */
	bool have_seed = opts->have_seed || o->has_file_seed;
	uint64_t seed = opts->have_seed ? opts->seed : o->has_file_seed ? o->file_seed : opts->seed;
	fray_policy *p = NULL;
	fray_status st = fray_policy_from_spec(c->ctx, val_given(c, CB_POLICY) ? val_s(c, CB_POLICY) : "heuristic",
					       &p, NULL);
	fray_roller *r = st == FRAY_OK ? fray_roller_sample_new(c->ctx, seed, 0) : NULL;
	if (!r) {
		fray_policy_free(p);
		return fray_ctx_status(c->ctx) ? fray_ctx_status(c->ctx) : frayi_nomem(c->ctx);
	}
	narrator n = {.sb = sb, .form = opts->format, .first = true};
	fray_roller_set_sink(r, frayi_narrate, &n);
	const char *tname = in->mix->tactics[in->situation.tactic].name;
	if (opts->format == FRAY_FORMAT_JSON) {
		frayi_sb_add(sb, "{\"procedure\": \"chits.combat\", \"tactic\": ");
		frayi_sb_json(sb, tname);
		frayi_sb_add(sb, ", \"draw\": %d, \"seed\": %" PRIu64 ", \"events\": [", in->draw, seed);
	} else {
		frayi_sb_escaped(sb, in->side[0].name);
		frayi_sb_add(sb, " against ");
		frayi_sb_escaped(sb, in->side[1].name);
		frayi_sb_add(sb, ": ");
		frayi_sb_escaped(sb, tname);
		frayi_sb_add(sb, ", %d chits (seed %" PRIu64 "%s)\n", in->draw, seed,
				have_seed ? "" : "; replay with --seed");
	}
	fray_chits_combat_out *out = frayi_alloc(c->ctx, sizeof *out);
	combat_run run = {in, out};
	int64_t outcome[1];
	st = out ? fray_run(r, combat_proc, p, &run, outcome) : frayi_nomem(c->ctx);
	fray_roller_free(r);
	fray_policy_free(p);
	if (st == FRAY_OK && opts->format == FRAY_FORMAT_JSON) {
		/* the outcome by the descriptor's own field names, as every other
		 * roll gives it: the page's headline reads it (issue 31) */
		frayi_sb_add(sb, "], \"outcome\": {\"attacker_hits\": %d, \"defender_hits\": %d, "
			     "\"attacker_morale_tests\": %d, \"defender_morale_tests\": %d}",
			     out->hits[0], out->hits[1], out->morale_tests[0], out->morale_tests[1]);
		frayi_sb_add(sb, ", \"hits\": [%d, %d], \"sides\": [", out->hits[0], out->hits[1]);
		for (int s = 0; s < 2; s++) {
			frayi_sb_add(sb, "%s{\"name\": ", s ? ", " : "");
			frayi_sb_json(sb, out->side[s].name);
			frayi_sb_add(sb, ", \"units\": [");
			for (int i = 0; i < out->side[s].nunits; i++)
				unit_json(sb, &out->side[s].units[i], i == out->side[s].nunits - 1);
			frayi_sb_add(sb, "]}");
		}
		frayi_sb_add(sb, "]}\n");
	} else if (st == FRAY_OK) {
		frayi_sb_add(sb, "\nafter the combat:\n");
		for (int s = 0; s < 2; s++)
			for (int i = 0; i < out->side[s].nunits; i++)
				unit_text(sb, &out->side[s].units[i]);
	}
	frayi_dealloc(c->ctx, out);
	return st;
}

/* --policy best[:GOAL] with --odds (issue 44): the whole combat walked
 * exactly with its questions (retreats, battalions, units: R23), once with
 * the heuristic's answers and once with the best policy answering both
 * sides; each side's value under the goal as played, and its gain over the
 * heuristic. Past the paths it says so: nothing is decided silently. */
enum { BEST_PATHS = 500000 };

static bool best_asked(const fray_call *c)
{
	return val_given(c, CB_POLICY) && strncmp(val_s(c, CB_POLICY), "best", 4) == 0;
}

static fray_status best_odds(fray_call *c, const fray_call_opts *o, strbuf *sb)
{
	static const char *const names[2] = {"attacker", "defender"};
	const fray_chits_combat_in *in = CALL_INPUT(c, fray_chits_combat_in);
	fray_policy *p = NULL;
	fray_status st = fray_policy_from_spec(c->ctx, val_s(c, CB_POLICY), &p, NULL);
	if (st != FRAY_OK)
		return st;
	fray_policy_best_set_worth(p, fray_chits_combat_worth);
	/* the caller's budgets, stop flag and progress too (a server's time
	 * and memory): each only ever lowers the walk's own */
	fray_enum_limits lim = call_limits((fray_enum_limits){.max_depth = 100000, .max_paths = BEST_PATHS}, o);
	fray_dist *h = NULL, *d = NULL;
	st = fray_enumerate(c->ctx, fray_chits_combat_procedure, NULL, in, FRAY_CHITS_COMBAT_FIELDS, &lim, &h);
	if (st == FRAY_OK)
		st = fray_enumerate(c->ctx, fray_chits_combat_procedure, p, in, FRAY_CHITS_COMBAT_FIELDS, &lim, &d);
	const char *goal = fray_goal_name(fray_policy_best_goal(p));
	bool json = o->format == FRAY_FORMAT_JSON;
	/* JSON: the best part goes inside the odds' object */
	if (json && sb->len >= 2 && strcmp(sb->buf + sb->len - 2, "}\n") == 0)
		sb->len -= 2;
	if (st == FRAY_ERR_LIMIT || st == FRAY_ERR_BUDGET || st == FRAY_ERR_NOMEM) {
		char why[FRAY_MSG_MAX];
		snprintf(why, sizeof why, "%s", fray_ctx_message(c->ctx));
		fray_ctx_clear(c->ctx);
		if (json) {
			frayi_sb_add(sb, ", \"best\": {\"goal\": \"%s\", \"exact\": false, \"why\": ", goal);
			frayi_sb_json(sb, why);
			frayi_sb_add(sb, "}}\n");
		} else {
			frayi_sb_add(sb, "\nbest policy, goal %s: not decided: the exact walk of the whole combat "
				     "passed its budget (%s)\n", goal, why);
		}
		st = FRAY_OK;
	} else if (st == FRAY_OK) {
		/* the heading says how many kinds of question best decided:
		 * none, some or all (the list below names them) */
		size_t kinds = 0, exact = 0;
		fray_best_question q;
		for (; fray_policy_best_question(p, kinds, &q); kinds++)
			exact += q.exact;
		const char *answered = exact == kinds ? "both sides' questions answered best: each side's best against "
							"the other's"
				       : exact == 0 ? "every question answered by the heuristic: the walk with best's "
						      "options passed its paths"
						    : "some kinds of question answered best, the others by the heuristic";
		if (json)
			frayi_sb_add(sb, ", \"best\": {\"goal\": \"%s\", \"exact\": true, \"sides\": [", goal);
		else
			frayi_sb_add(sb, "\nbest policy, goal %s (the whole combat, %s)\n  %-10s %10s %10s  exact value, gain\n",
				     goal, answered, "", "value", "gain");
		for (int side = 0; side < 2; side++) {
			char v[256] = "?", g[256] = "?";
			double vp = 0, gp = 0;
			fray_policy_best_value(p, side, v, sizeof v, &vp);
			fray_policy_best_gain(p, h, side, g, sizeof g, &gp);
			if (json) {
				char vn[40], gn[40];
				fray_double_str(vp, vn, sizeof vn);
				fray_double_str(gp, gn, sizeof gn);
				frayi_sb_add(sb, "%s{\"side\": \"%s\", \"value\": %s, \"exact\": ", side ? ", " : "",
					     names[side], vn);
				frayi_sb_json(sb, v);
				frayi_sb_add(sb, ", \"gain\": %s, \"gain_exact\": ", gn);
				frayi_sb_json(sb, g);
				frayi_sb_add(sb, "}");
			} else {
				frayi_sb_add(sb, "  %-10s %10.4f %+10.4f  %s, %s\n", names[side], vp, gp, v, g);
			}
		}
		/* which questions best decided, and which fell back to the
		 * heuristic's answer (the walk over its paths): said */
		if (json)
			frayi_sb_add(sb, "], \"questions\": [");
		else
			frayi_sb_add(sb, "  gain: the value as played minus the value when both sides play the "
				     "heuristic (docs/chits.md, \"The best policy\")\n");
		for (size_t i = 0; fray_policy_best_question(p, i, &q); i++) {
			const char *who = q.side == 1 ? "defender" : "attacker";
			if (json)
				frayi_sb_add(sb, "%s{\"kind\": \"%s\", \"side\": \"%s\", \"asked\": %" PRIu64
					     ", \"exact\": %s}", i ? ", " : "", q.kind, who, q.asked,
					     q.exact ? "true" : "false");
			else
				frayi_sb_add(sb, "  %s, %s: %" PRIu64 " asked, %s\n", q.kind, who, q.asked,
					     q.exact ? "decided exactly" : "the heuristic's answer (the walk passed its paths)");
		}
		if (json)
			frayi_sb_add(sb, "]}}\n");
	}
	fray_dist_free(h);
	fray_dist_free(d);
	fray_policy_free(p);
	return st;
}

static fray_status render_combat(fray_call *c, const fray_call_opts *o, strbuf *sb)
{
	/* best values the rest of the combat: it has nothing to value a roll's
	 * questions from, so a roll with it is refused before any die (not
	 * failed at the first question the dice happen to ask) */
	if (o->mode != FRAY_MODE_ODDS && best_asked(c))
		return frayi_call_bad(c, "%s %s: the best policy answers only with the odds (--odds), where it "
				      "values the whole combat; a roll takes heuristic or random[:SEED]",
				      frayi_call_opt(c, CB_POLICY), val_s(c, CB_POLICY));
	if (o->mode != FRAY_MODE_ODDS)
		return roll_combat(c, o, sb);
	fray_status st = frayi_render_common(c, o, sb);
	return st == FRAY_OK && best_asked(c) ? best_odds(c, o, sb) : st;
}

static const proc_desc frayi_chits_combat_desc = {
	"chits.combat", "chits combat", "a combat: chits drawn, hits allocated, retreats, fatigue and morale",
	"chit combat; rulings R21-R23, R29",
	"The attacker draws chits for its tactic against the defender's stance;\n"
	"each chit's faces apply by the situation (ratio of combat die rolls,\n"
	"terrain, arms); hits are allocated to the lead battalion, the defender\n"
	"may retreat instead of taking some (R23; the policy chooses), and fatigue\n"
	"and morale tests follow. From a combat file, or from the inputs with one\n"
	"brigade a side (4 battalions, morale 7). --odds gives the draws' exact\n"
	"odds: hits to each side and morale tests. On the command line the combat\n"
	"file may come without --combat: fray chits combat examples/chits/example-1.yaml",
	combat_in, CB_N, draws_out, 4, FRAY_MODE_ROLL | FRAY_MODE_ODDS,
	/* Example #1's situation composed from the mix, its chits drawn by
	 * the roller (its combat file scripts them: one certain outcome, no odds) */
	"{\"mix\": \"examples/chits/sample-mix.yaml\", \"tactic\": \"hasty\", \"stance\": \"defend\", "
	"\"terrain\": \"village\", \"attacker_cdr\": 17, \"defender_cdr\": 6, \"draw\": 5}",
	bind_combat, NULL, render_combat, false,
	.headline = {"defender_hits", ">= 1", "the defender takes at least one hit"}, .sides = situation_sides,
	.generic = true,
	.example_from = "Chit combat, Example #1's situation, the chits drawn at random",
	.words = "battle attack brigade fight chit pull draw",
	.more_headlines = {{"attacker_hits", ">= 1", "the attacker takes at least one hit"}}};

/* ---- advise ---- */

static fray_status bind_advise(fray_call *c)
{
	fray_status st = bind_situation(c, false);
	if (st != FRAY_OK)
		return st;
	call_run(c, fray_chits_draws_procedure, 4, NULL);
	return FRAY_OK;
}

/* The expectations and hit distributions of one number of chits. */
typedef struct draw_summary {
	double expect[4];                /* the four outcome fields' means */
	double edge;                     /* P(the defender takes more hits) */
	double hits[2][32];              /* P(k hits) on the attacker, defender */
	int top;                         /* the most hits either may take */
} draw_summary;

static void summarise(const fray_dist *d, draw_summary *s)
{
	memset(s, 0, sizeof *s);
	for (size_t i = 0; i < fray_dist_count(d); i++) {
		const int64_t *o = fray_dist_outcome(d, i);
		double p = fray_dist_p(d, i);
		for (int f = 0; f < 4; f++)
			s->expect[f] += (double)o[f] * p;
		s->edge += o[1] > o[0] ? p : 0;
		s->hits[0][o[0] < 31 ? o[0] : 31] += p;
		s->hits[1][o[1] < 31 ? o[1] : 31] += p;
	}
	for (int h = 0; h < 32; h++)
		if (s->hits[0][h] > 0 || s->hits[1][h] > 0)
			s->top = h;
}

static void advise_json(strbuf *sb, int k, bool first, const draw_summary *s)
{
	const double *e = s->expect;
	frayi_sb_add(sb, "%s\n  {\"chits\": %d, \"expected\": {\"attacker_hits\": %.6f, \"defender_hits\": %.6f, "
	       "\"attacker_morale_tests\": %.6f, \"defender_morale_tests\": %.6f}, "
	       "\"p_defender_more_hits\": %.6f, \"attacker_hits\": [", first ? "" : ",", k, e[0], e[1], e[2], e[3],
	       s->edge);
	for (int h = 0; h <= s->top; h++)
		frayi_sb_add(sb, "%s%.6f", h ? ", " : "", s->hits[0][h]);
	frayi_sb_add(sb, "], \"defender_hits\": [");
	for (int h = 0; h <= s->top; h++)
		frayi_sb_add(sb, "%s%.6f", h ? ", " : "", s->hits[1][h]);
	frayi_sb_add(sb, "]}");
}

static void advise_text(strbuf *sb, int k, const draw_summary *s)
{
	const double *e = s->expect;
	frayi_sb_add(sb, "\n%d chits: expected hits taken by the attacker %.3f, by the defender %.3f; morale tests "
	       "taken by the attacker %.3f, by the defender %.3f; the defender takes more hits %.1f%%\n"
	       "  hits taken     ", k, e[0], e[1], e[2], e[3], 100 * s->edge);
	for (int h = 0; h <= s->top; h++)
		frayi_sb_add(sb, " %6d", h);
	for (int side = 0; side < 2; side++) {
		frayi_sb_add(sb, side ? "\n  by the defender" : "\n  by the attacker");
		for (int h = 0; h <= s->top; h++)
			frayi_sb_add(sb, " %5.1f%%", 100 * s->hits[side][h]);
	}
	frayi_sb_add(sb, "\n");
}

/* For each allowed number of chits, the exact distribution of hits to
 * each side and of morale tests, and the best number by the criterion. */
static fray_status render_advise(fray_call *c, const fray_call_opts *opts, strbuf *sb)
{
	fray_chits_combat_in *in = CALL_INPUT(c, fray_chits_combat_in);
	int crit = (int)val_i(c, AD_CRITERION);
	const fray_chits_tactic *t = &in->mix->tactics[in->situation.tactic];
	int lo = t->min, hi = t->max[in->situation.stance], best_k = lo;
	double best = -1e300;
	const char *stance = fray_chits_stances[in->situation.stance];
	if (opts->format == FRAY_FORMAT_JSON) {
		frayi_sb_add(sb, "{\"procedure\": \"chits.advise\", \"tactic\": ");
		frayi_sb_json(sb, t->name);
		frayi_sb_add(sb, ", \"stance\": \"%s\", \"criterion\": \"%s\", \"draws\": [", stance, criteria[crit]);
	} else {
		frayi_sb_escaped(sb, t->name);
		frayi_sb_add(sb, " against %s: draw %d to %d chits\n", stance, lo, hi);
	}
	fray_enum_limits lim = call_limits(c->limits, opts);
	for (int k = lo; k <= hi; k++) {
		in->draw = k;
		fray_dist *d;
		fray_status st = fray_enumerate(c->ctx, fray_chits_draws_procedure, NULL, in, 4, &lim, &d);
		if (st != FRAY_OK)
			return st;
		draw_summary s;
		summarise(d, &s);
		fray_dist_free(d);
		double score = crit == 0 ? s.expect[1] - s.expect[0] : crit == 1 ? s.expect[1]
				 : crit == 2 ? -s.expect[0] : s.edge;
		if (score > best + 1e-12) {
			best = score;
			best_k = k;
		}
		if (opts->format == FRAY_FORMAT_JSON)
			advise_json(sb, k, k == lo, &s);
		else
			advise_text(sb, k, &s);
	}
	static const char *const crit_words[] = {
		"the most hits on the defender less hits on the attacker", "the most hits on the defender",
		"the fewest hits on the attacker", "the best chance that the defender takes more hits"};
	if (opts->format == FRAY_FORMAT_JSON)
		frayi_sb_add(sb, "\n], \"best\": %d}\n", best_k);
	else
		frayi_sb_add(sb, "\nbest: %d chits (%s)\n", best_k, crit_words[crit]);
	return FRAY_OK;
}

static const proc_desc frayi_chits_advise_desc = {
	"chits.advise", "chits advise", "what each number of chits does: exact hits and morale tests, and the best",
	"chit combat; rulings R21-R23",
	"For each number of chits the tactic allows against the stance, the exact\n"
	"distribution of hits to each side and the expected morale tests, then the\n"
	"best number by the criterion: net (hits on the defender less hits on the\n"
	"attacker), enemy, own (fewest on the attacker) or edge (the chance the\n"
	"defender takes more hits). On the command line the combat file may come\n"
	"without --combat: fray chits advise examples/chits/example-3.yaml",
	advise_in, AD_N, draws_out, 4, FRAY_MODE_ODDS,
	"{\"combat\": \"examples/chits/example-3.yaml\"}", bind_advise, NULL, render_advise, false,
	.headline = {"defender_hits", ">= 1", "the defender takes at least one hit"}, .sides = situation_sides,
	.generic = true,
	.example_from = "Chit combat, Example #3",
	.words = "advice best how many chits draw",
	.more_headlines = {{"attacker_hits", ">= 1", "the attacker takes at least one hit"}}};

/* This file's procedures, in the catalogue's order (list.c joins the files). */
const proc_desc *const frayi_chits_combat_procs[] = {
	&frayi_chits_combat_desc, &frayi_chits_advise_desc, NULL,
};
