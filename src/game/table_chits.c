/* The chit-pull system at the table: a combat between two brigades (the
 * chits drawn, hits allocated, retreats, fatigue and morale: rulings
 * R21-R23, R25, R29) and a brigade's end of turn, each rolled at the
 * game's place in its dice and applied to the units. These run the
 * library's combat directly (the catalogue's chits.combat reports hits
 * and tests, not each battalion's state after). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "table.h"
#include "../common/hidden.h"
#include "../common/text.h"

static int doc_problem(table_game *g, fray_doc *doc)
{
	fray_doc_status(doc);
	return frayi_game_failed(g);
}

/* The game file's mix as a document's text (JSON), and its name. */
static int mix_text(table_game *g, char **text, size_t *len, char *name, size_t cap)
{
	game_out o;
	FILE *f = frayi_out_open(&o, g->ctx);
	if (f)
		frayi_node_json(f, g->mix);
	if (frayi_out_close(&o, f, text, len) != FRAY_OK)
		return frayi_game_fail(g, FRAY_ERR_NOMEM, "out of memory");
	snprintf(name, cap, "%.200s: mix", g->path);
	return FRAY_OK;
}

/* The game file's mix, read as the mix file was. */
static int load_mix(table_game *g, fray_chits_mix **out)
{
	char *text = NULL, name[256];
	size_t len = 0;
	if (mix_text(g, &text, &len, name, sizeof name) != FRAY_OK)
		return FRAY_ERR_NOMEM;
	fray_doc *doc = NULL;
	int status = FRAY_OK;
	if (fray_doc_load_string(g->ctx, name, text, len, &doc) != FRAY_OK)
		status = frayi_game_failed(g);
	else if (fray_chits_mix_read(g->ctx, doc, out) != FRAY_OK)
		status = fray_doc_error_count(doc) ? doc_problem(g, doc) : frayi_game_failed(g);
	fray_doc_free(doc);
	frayi_game_dealloc(g->ctx, text);
	return status;
}

/* ---- the player's options ---- */

static int opt_int(table_game *g, const player_opts *p, const char *opt, int lo, int hi, int *out)
{
	const char *v = frayi_player_value(p, opt);
	if (!v)
		return FRAY_OK;
	char *end;
	long x = strtol(v, &end, 10);
	if (!*v || *end || x < lo || x > hi)
		return frayi_game_fail(g, FRAY_ERR_INPUT, "option %s expects a whole number from %d to %d, got '%s'",
				 opt, lo, hi, v);
	*out = (int)x;
	return FRAY_OK;
}

static int opt_choice(table_game *g, const player_opts *p, const char *opt, const char *const *names, int n,
		      int *out)
{
	const char *v = frayi_player_value(p, opt);
	if (!v)
		return FRAY_OK;
	char list[256];
	textbuf t = text_on(list, sizeof list);
	for (int i = 0; i < n; i++) {
		if (!strcmp(v, names[i])) {
			*out = i;
			return FRAY_OK;
		}
		text_add(&t, "%s%s", i ? ", " : "", names[i]);
	}
	return frayi_game_fail(g, FRAY_ERR_INPUT, "option %s expects one of %s, got '%s'", opt, list, v);
}

/* ---- a roll told into a step ---- */

typedef struct story {
	fray_ctx *ctx;
	FILE *json, *text;
	bool first, failed;              /* failed: memory ran out telling */
} story;

static void tell(void *ud, const fray_event *ev)
{
	story *s = ud;
	char small[512], *big = NULL;
	for (int pass = 0; pass < 2; pass++) {
		size_t (*render)(const fray_event *, char *, size_t) = pass ? fray_event_text : fray_event_json;
		const char *line = small;
		size_t n = render(ev, small, sizeof small);
		if (n >= sizeof small) {
			if (!(big = frayi_game_alloc(s->ctx, n + 1))) {
				s->failed = true;
				continue;
			}
			render(ev, big, n + 1);
			line = big;
		}
		if (pass) {
			/* escaped whole: a control is at most 4 bytes written */
			size_t cap = 4 * strlen(line) + 1;
			char *esc = frayi_game_alloc(s->ctx, cap);
			if (esc) {
				text_escape_controls(esc, cap, line);
				fprintf(s->text, "  %s\n", esc);
			}
			s->failed |= !esc;
			frayi_game_dealloc(s->ctx, esc);
		} else
			fprintf(s->json, "%s\n    %s", s->first ? "" : ",", line);
		frayi_game_dealloc(s->ctx, big);
		big = NULL;
	}
	s->first = false;
}

typedef struct chits_run {
	const fray_chits_combat_in *combat;
	fray_chits_combat_out *out;
	const fray_chits_end_turn_in *end_turn;  /* nend of them */
	fray_chits_unit *unit;                   /* as many, after */
	size_t nend;
} chits_run;

static void run_proc(fray_roller *r, fray_policy *p, const void *input, int64_t *o)
{
	const chits_run *run = input;
	if (run->combat)
		fray_chits_combat(r, p, run->combat, run->out);
	for (size_t i = 0; i < run->nend && !fray_roller_stopped(r); i++)
		fray_chits_end_turn(r, &run->end_turn[i], &run->unit[i]);
	o[0] = 0;
}

/* Rolls run at the game's dice as a step: {"procedure", "inputs", "seed",
 * "dice", "events", "outcome"} and the story under title. The outcome is
 * written by outcome_json once the run is over. */
static int roll_step(table_game *g, const char *procedure, const char *title, const char *inputs_json,
		     const chits_run *run, fray_policy *policy,
		     void (*outcome_json)(FILE *f, const chits_run *run))
{
	char *json = NULL, *text = NULL;
	game_out jo, to;
	story s = {g->ctx, frayi_out_open(&jo, g->ctx), frayi_out_open(&to, g->ctx), true, false};
	fray_roller *r = fray_roller_sample_new(g->ctx, g->seed, 0);
	int status = FRAY_OK;
	if (!s.json || !s.text || !r) {
		status = frayi_game_fail(g, FRAY_ERR_NOMEM, "out of memory");
		goto done;
	}
	fray_roller_seek(r, g->dice);
	fprintf(s.json, "{\"procedure\": \"%s\", \"inputs\": %s, \"seed\": %" PRIu64 ", \"dice\": %" PRIu64
		", \"events\": [", procedure, inputs_json, g->seed, g->dice);
	fprintf(s.text, "%s\n", title);
	fray_roller_set_sink(r, tell, &s);
	int64_t o[1];
	if (fray_run(r, run_proc, policy, run, o) != FRAY_OK) {
		status = frayi_game_failed(g);
		goto done;
	}
	fprintf(s.json, "%s], \"outcome\": {", s.first ? "" : "\n  ");
	outcome_json(s.json, run);
	fputs("}}\n", s.json);
	g->dice = fray_roller_tell(r);
done:
	fray_roller_free(r);
	/* both closed, whatever the first says */
	bool ok_json = frayi_out_close(&jo, s.json, &json, NULL) == FRAY_OK;
	bool text_ok = frayi_out_close(&to, s.text, &text, NULL) == FRAY_OK;
	if (status == FRAY_OK && (!ok_json || !text_ok || s.failed))
		status = frayi_game_fail(g, FRAY_ERR_NOMEM, "out of memory");
	/* a step's texts are malloc'd, as the catalogue's steps are */
	char *mjson = NULL, *mtext = NULL;
	int js = frayi_out_give(g->ctx, json, &mjson), ts = frayi_out_give(g->ctx, text, &mtext);
	if (status == FRAY_OK && (js != FRAY_OK || ts != FRAY_OK))
		status = frayi_game_fail(g, FRAY_ERR_NOMEM, "out of memory");
	if (status == FRAY_OK)
		return frayi_table_add_step(g, mjson, mtext);
	free(mjson);
	free(mtext);
	return status;
}

/* ---- odds at the table ---- */

/* A step of the catalogue's procedure (chits.combat: the draws' hits and
 * morale tests; chits.end_turn: fatigue, hits, disorder) on the game's
 * mix, for its odds (g->odds) as BBB's steps give theirs: the combat draws
 * its chits at random, so it has odds (issue 40 item 8). The mix first,
 * then the caller's inputs; NULL when the mix cannot be written. */
static bool odds_step(table_game *g, const char *procedure, table_step *s)
{
	char *text = NULL, name[256];
	size_t len = 0;
	if (mix_text(g, &text, &len, name, sizeof name) != FRAY_OK)
		return false;
	*s = frayi_step_begin(g, procedure);
	frayi_step_document(s, "mix", name, text, len);
	frayi_game_dealloc(g->ctx, text);
	return true;
}

/* A combat's odds: the situation as the combat reads it, with both arms
 * and the chits scripted, if any. */
static int combat_odds(table_game *g, const fray_chits_mix *mix, const fray_chits_combat_in *in)
{
	const fray_chits_situation *s = &in->situation;
	/* the script's ids in as many bytes as the game ever gave them */
	char ids[64];
	textbuf t = text_on(ids, sizeof ids);
	for (int i = 0; i < in->nscript; i++)
		text_add(&t, "%s%s", i ? "," : "", mix->chits[in->script[i]].id);
	if (t.cut)
		return frayi_game_fail(g, FRAY_ERR_INPUT, "--script: the chits' ids are too long to give "
				       "odds for (at most %zu bytes); the combat is scripted: it has none to "
				       "give", sizeof ids - 4);
	table_step st;
	if (!odds_step(g, "chits.combat", &st))
		return FRAY_ERR_NOMEM;
	frayi_step_string(&st, "tactic", mix->tactics[s->tactic].name);
	frayi_step_choice(&st, "stance", fray_chits_stances[s->stance]);
	frayi_step_choice(&st, "terrain", fray_chits_terrains[s->terrain]);
	frayi_step_int(&st, "attacker_cdr", s->attacker_cdr);
	frayi_step_int(&st, "defender_cdr", s->defender_cdr);
	frayi_step_choice(&st, "attacker_type", fray_chits_types[s->attacker_type]);
	frayi_step_choice(&st, "defender_type", fray_chits_types[s->defender_type]);
	frayi_step_int(&st, "draw", in->draw);
	if (in->nscript > 0)
		frayi_step_string(&st, "script", ids);
	return frayi_step_roll(&st, NULL, NULL);
}

/* An end of turn's odds: the unit as the game holds it. */
static int end_turn_odds(table_game *g, const fray_chits_end_turn_in *in, int lead)
{
	const fray_chits_unit *u = &in->unit;
	char hits[64]; /* at most 8 battalions' */
	textbuf t = text_on(hits, sizeof hits);
	for (int b = 0; b < u->battalions; b++)
		text_add(&t, "%s%d", b ? "," : "", u->hits[b]);
	table_step s;
	if (!odds_step(g, "chits.end_turn", &s))
		return FRAY_ERR_NOMEM;
	frayi_step_int(&s, "fatigue", u->fatigue);
	frayi_step_string(&s, "hits", hits);
	frayi_step_int(&s, "morale", u->morale);
	frayi_step_bool(&s, "disordered", u->disordered);
	frayi_step_bool(&s, "rest", in->rest);
	frayi_step_bool(&s, "rally", in->rally);
	frayi_step_bool(&s, "recover_disorder", in->recover_disorder);
	if (lead) {
		frayi_step_int(&s, "lead", lead);
		frayi_step_bool(&s, "hit_again", in->hits_since_combat > 0);
	}
	return frayi_step_roll(&s, NULL, NULL);
}

/* ---- units both ways ---- */

static fray_chits_unit chits_unit(const table_unit *u, bool can_retreat)
{
	fray_chits_unit c = {.battalions = CHITS_OF(u)->battalions, .lead = CHITS_OF(u)->lead - 1, .morale = CHITS_OF(u)->chit_morale,
			     .fatigue = CHITS_OF(u)->fatigue, .disordered = CHITS_OF(u)->disordered, .can_retreat = can_retreat};
	snprintf(c.name, sizeof c.name, "%s", u->name);
	memcpy(c.hits, CHITS_OF(u)->hits, sizeof c.hits);
	return c;
}

/* The unit as the combat or end of turn left it, each change noted. */
static void apply_unit(table_game *g, table_unit *u, const fray_chits_unit *c)
{
	if (memcmp(CHITS_OF(u)->hits, c->hits, sizeof CHITS_OF(u)->hits) != 0) {
		char was[64], now[64];
		frayi_table_hits_text(was, sizeof was, CHITS_OF(u)->hits, CHITS_OF(u)->battalions);
		frayi_table_hits_text(now, sizeof now, c->hits, CHITS_OF(u)->battalions);
		frayi_table_note(g, "%s: hits by battalion %s (were %s)", u->name, now, was);
		memcpy(CHITS_OF(u)->hits, c->hits, sizeof CHITS_OF(u)->hits);
	}
	if (CHITS_OF(u)->fatigue != c->fatigue)
		frayi_table_note(g, "%s: fatigue %d (was %d)", u->name, c->fatigue, CHITS_OF(u)->fatigue);
	if (CHITS_OF(u)->chit_morale != c->morale)
		frayi_table_note(g, "%s: morale level %d (was %d)", u->name, c->morale, CHITS_OF(u)->chit_morale);
	if (CHITS_OF(u)->disordered != c->disordered)
		frayi_table_note(g, "%s: %s", u->name, c->disordered ? "disordered" : "no longer disordered");
	if (CHITS_OF(u)->lead != c->lead + 1)
		frayi_table_note(g, "%s: lead battalion %d (was %d)", u->name, c->lead + 1, CHITS_OF(u)->lead);
	CHITS_OF(u)->fatigue = c->fatigue;
	CHITS_OF(u)->chit_morale = c->morale;
	CHITS_OF(u)->disordered = c->disordered;
	CHITS_OF(u)->lead = c->lead + 1;
}

/* A unit's state as JSON members (no braces): its name first, so the log
 * can be read back for it (the end of turn reads it). */
static void unit_outcome(FILE *f, const fray_chits_unit *u)
{
	fputs("\"name\": ", f);
	frayi_json_string(f, u->name);
	fprintf(f, ", \"fatigue\": %d, \"disordered\": %s, \"morale\": %d, \"lead\": %d, \"hits\": [", u->fatigue,
		u->disordered ? "true" : "false", u->morale, u->lead + 1);
	for (int b = 0; b < u->battalions; b++)
		fprintf(f, "%s%d", b ? ", " : "", u->hits[b]);
	fputs("]", f);
}

/* ---- combat ---- */

static void combat_outcome(FILE *f, const chits_run *run)
{
	const fray_chits_combat_out *o = run->out;
	fprintf(f, "\"attacker_hits\": %d, \"defender_hits\": %d, \"attacker_retreats\": %d, "
		"\"defender_retreats\": %d, \"attacker_morale_tests\": %d, \"defender_morale_tests\": %d, "
		"\"attacker\": {", o->hits[0], o->hits[1], o->retreats[0], o->retreats[1], o->morale_tests[0],
		o->morale_tests[1]);
	unit_outcome(f, &o->side[0].units[0]);
	fputs("}, \"defender\": {", f);
	unit_outcome(f, &o->side[1].units[0]);
	fputc('}', f);
}

/* The situation from the options: every one the combat needs is asked
 * for by name (none is assumed). */
static int read_situation(table_game *g, const fray_chits_mix *mix, const player_opts *p, fray_chits_combat_in *in)
{
	fray_chits_situation *s = &in->situation;
	*s = (fray_chits_situation){.tactic = -1, .stance = -1, .terrain = -1};
	in->draw = 0;
	const char *tactic = frayi_player_value(p, "--tactic");
	int st = opt_choice(g, p, "--stance", fray_chits_stances, 3, &s->stance);
	if (st == FRAY_OK)
		st = opt_choice(g, p, "--terrain", fray_chits_terrains, 7, &s->terrain);
	if (st == FRAY_OK)
		st = opt_int(g, p, "--attacker-cdr", 1, 99, &s->attacker_cdr);
	if (st == FRAY_OK)
		st = opt_int(g, p, "--defender-cdr", 1, 99, &s->defender_cdr);
	if (st == FRAY_OK)
		st = opt_int(g, p, "--draw", 1, 16, &in->draw);
	if (st != FRAY_OK)
		return st;
	if (!tactic || s->stance < 0 || s->terrain < 0 || !s->attacker_cdr || !s->defender_cdr || !in->draw)
		return frayi_game_fail(g, FRAY_ERR_INPUT, "combat needs --tactic T --stance S --terrain X "
				 "--attacker-cdr N --defender-cdr N --draw K (docs/chits.md)");
	s->tactic = fray_chits_tactic_find(mix, tactic);
	if (s->tactic < 0) {
		char list[256];
		textbuf t = text_on(list, sizeof list);
		for (int i = 0; i < mix->ntactics; i++)
			text_add(&t, "%s%s", i ? ", " : "", mix->tactics[i].name);
		return frayi_game_fail(g, FRAY_ERR_INPUT, "option --tactic expects one of the mix's tactics (%s), got "
				 "'%s'", list, tactic);
	}
	/* the stance (ruling R29) and the chit count are the combat's to
	 * judge, with both units' arms read (fray_chits_combat refuses) */
	return FRAY_OK;
}

/* --script C01,C02,...: the chits drawn, each once, as many as --draw. */
static int read_script(table_game *g, const fray_chits_mix *mix, const char *text, fray_chits_combat_in *in)
{
	char copy[256];
	if (strlen(text) >= sizeof copy)
		return frayi_game_fail(g, FRAY_ERR_INPUT, "--script: at most %zu bytes", sizeof copy - 1);
	snprintf(copy, sizeof copy, "%s", text);
	in->nscript = 0;
	for (char *save = NULL, *id = strtok_r(copy, ", ", &save); id; id = strtok_r(NULL, ", ", &save)) {
		int k = fray_chits_find(mix, id);
		if (k < 0)
			return frayi_game_fail(g, FRAY_ERR_INPUT, "--script: no chit '%s' in the mix", id);
		for (int j = 0; j < in->nscript; j++)
			if (in->script[j] == k)
				return frayi_game_fail(g, FRAY_ERR_INPUT, "--script: chit '%s' twice: chits are drawn "
						 "without replacement", id);
		if (in->nscript == 16)
			return frayi_game_fail(g, FRAY_ERR_INPUT, "--script: at most 16 chits");
		in->script[in->nscript++] = k;
	}
	if (in->nscript != in->draw)
		return frayi_game_fail(g, FRAY_ERR_INPUT, "--script names %d chits but --draw is %d", in->nscript,
				 in->draw);
	return FRAY_OK;
}

static int run_combat(table_game *g, table_unit *u, table_unit *t, const player_opts *p,
		      const fray_chits_mix *mix, fray_chits_combat_in *in, fray_policy **policy)
{
	int st = read_situation(g, mix, p, in);
	const char *script = frayi_player_value(p, "--script");
	if (st == FRAY_OK && script)
		st = read_script(g, mix, script, in);
	const char *spec = frayi_player_value(p, "--policy");
	if (st == FRAY_OK && spec && strncmp(spec, "scripted:", 9) == 0)
		st = frayi_game_fail(g, FRAY_ERR_INPUT, "--policy: heuristic or random[:SEED] (a scripted policy is "
			       "for battles)");
	/* best values a whole walk; an action's roll has none to value from */
	if (st == FRAY_OK && spec && strncmp(spec, "best", 4) == 0)
		st = frayi_game_fail(g, FRAY_ERR_INPUT, "--policy: heuristic or random[:SEED] (the best policy answers "
			       "only in exact odds, over a whole combat)");
	if (st == FRAY_OK && fray_policy_from_spec(g->ctx, spec ? spec : "heuristic", policy, NULL) != FRAY_OK)
		st = fray_ctx_status(g->ctx) == FRAY_ERR_NOMEM ? FRAY_ERR_NOMEM
							      : frayi_game_fail(g, FRAY_ERR_INPUT, "--policy: %s",
										fray_ctx_message(g->ctx));
	if (st != FRAY_OK)
		return st;
	in->mix = mix;
	in->situation.attacker_type = CHITS_OF(u)->arm;
	in->situation.defender_type = CHITS_OF(t)->arm;
	/* the tactic by the attacker's arm (the mix's arms), before any draw */
	char why[256];
	if (fray_chits_tactic_problem(mix, &in->situation, why, sizeof why))
		return frayi_game_fail(g, FRAY_ERR_INPUT, "%s cannot attack with --tactic %s: %s", unit_label(u),
				       mix->tactics[in->situation.tactic].name, why);
	/* R23: a retreat negates hits only where a legal one exists; the
	 * referee says when a side has none (either side may retreat: the
	 * text gives the choice to the owning player) */
	bool no_retreat = frayi_player_flag(p, "--no-retreat");
	bool attacker_no_retreat = frayi_player_flag(p, "--attacker-no-retreat");
	const table_unit *sides[2] = {u, t};
	for (int k = 0; k < 2; k++) {
		in->side[k].nunits = 1;
		snprintf(in->side[k].name, sizeof in->side[k].name, "%s", sides[k]->name);
		in->side[k].units[0] = chits_unit(sides[k], k == 0 ? !attacker_no_retreat : !no_retreat);
	}
	if (g->odds)
		return combat_odds(g, mix, in);
	fray_chits_combat_out *out = frayi_game_calloc(g->ctx, 1, sizeof *out);
	if (!out)
		return frayi_game_fail(g, FRAY_ERR_NOMEM, "out of memory");
	const fray_chits_situation *s = &in->situation;
	char inputs[512], title[256], ratio[16], tactic[200];
	fray_chits_ratio_text(fray_chits_ratio(s->attacker_cdr, s->defender_cdr), ratio, sizeof ratio);
	/* the mix's name for it, from a file: a JSON string, escaped */
	fray_json_string(mix->tactics[s->tactic].name, tactic, sizeof tactic);
	snprintf(inputs, sizeof inputs, "{\"tactic\": %s, \"stance\": \"%s\", \"terrain\": \"%s\", "
		 "\"attacker_cdr\": %d, \"defender_cdr\": %d, \"draw\": %d, \"scripted\": %s, \"retreat\": %s, "
		 "\"attacker_retreat\": %s}",
		 tactic, fray_chits_stances[s->stance], fray_chits_terrains[s->terrain],
		 s->attacker_cdr, s->defender_cdr, in->draw, in->nscript ? "true" : "false",
		 no_retreat ? "false" : "true", attacker_no_retreat ? "false" : "true");
	snprintf(title, sizeof title, "%s attacks %s: %s against %s in %s, %s, %d chits", u->name, t->name,
		 mix->tactics[s->tactic].name, fray_chits_stances[s->stance], fray_chits_terrains[s->terrain], ratio,
		 in->draw);
	chits_run run = {.combat = in, .out = out};
	st = roll_step(g, "chits.combat", title, inputs, &run, *policy, combat_outcome);
	if (st == FRAY_OK) {
		apply_unit(g, u, &out->side[0].units[0]);
		apply_unit(g, t, &out->side[1].units[0]);
	}
	frayi_game_dealloc(g->ctx, out);
	return st;
}

/* A unit the brigade may attack (combat's target_ok), as
 * fray_chits_target_refused decides. */
static int combat_target(table_game *g, const table_unit *u, const table_unit *t)
{
	const char *why = fray_chits_target_refused(!strcmp(u->side, t->side));
	if (why)
		return frayi_game_fail(g, FRAY_ERR_INPUT, "combat: %s and %s are both on side '%s': %s", unit_label(u),
				       unit_label(t), u->side, why);
	return FRAY_OK;
}

static int act_combat(table_game *g, table_unit *u, table_unit *t, const player_opts *p)
{
	if (combat_target(g, u, t) != FRAY_OK)
		return FRAY_ERR_INPUT;
	fray_chits_mix *mix = NULL;
	fray_chits_combat_in *in = frayi_game_calloc(g->ctx, 1, sizeof *in);
	fray_policy *policy = NULL;
	int st = in ? load_mix(g, &mix) : frayi_game_fail(g, FRAY_ERR_NOMEM, "out of memory");
	if (st == FRAY_OK)
		st = run_combat(g, u, t, p, mix, in, &policy);
	fray_policy_free(policy);
	fray_chits_mix_free(mix);
	frayi_game_dealloc(g->ctx, in);
	return st;
}

/* ---- end of turn ---- */

/* The game's record of the turn: the log's steps this turn, read for one
 * unit. It says whether the unit's end of turn was taken, and the hits its
 * last combat this turn left it with (-1: no combat this turn). The rules
 * that weigh these are the procedure's (fray_chits_end_turn). */
typedef struct turn_record {
	bool ended;
	int hits_after_combat;
} turn_record;

static long scalar_int(const fray_node *n, long none)
{
	const char *s = n ? fray_node_scalar(n) : NULL;
	char *end;
	long v = s ? strtol(s, &end, 10) : none;
	return s && *s && !*end ? v : none;
}

static bool named(const fray_node *n, const char *name)
{
	const char *s = n ? fray_node_scalar(fray_map_get(n, "name")) : NULL;
	return s && !strcmp(s, name);
}

static turn_record record_of(const table_game *g, const table_unit *u)
{
	turn_record rec = {false, -1};
	size_t n = g->nlog;
	for (size_t i = 0; i < n; i++) {
		const fray_node *e = g->log[i];
		if (scalar_int(fray_map_get(e, "turn"), 0) != g->turn)
			continue;
		const fray_node *steps = fray_map_get(e, "steps");
		for (size_t k = 0; steps && k < fray_node_len(steps); k++) {
			const fray_node *st = fray_node_item(steps, k);
			const char *proc = fray_node_scalar(fray_map_get(st, "procedure"));
			const fray_node *out = fray_map_get(st, "outcome");
			if (!proc || !out)
				continue;
			if (!strcmp(proc, "chits.end_turn") && named(out, u->name))
				rec.ended = true;
			if (strcmp(proc, "chits.combat") != 0)
				continue;
			for (int side = 0; side < 2; side++) {
				const fray_node *x = fray_map_get(out, side ? "defender" : "attacker");
				const fray_node *hits = x ? fray_map_get(x, "hits") : NULL;
				if (!named(x, u->name) || !hits)
					continue;
				rec.hits_after_combat = 0;
				for (size_t b = 0; b < fray_node_len(hits); b++)
					rec.hits_after_combat += (int)scalar_int(fray_node_item(hits, b), 0);
			}
		}
	}
	return rec;
}

/* The unit's end of turn as the procedure takes it, with the game's
 * record of the turn (once a turn; hits since its last combat). */
static fray_chits_end_turn_in end_turn_of(const table_game *g, const table_unit *u, const fray_chits_mix *mix)
{
	fray_chits_end_turn_in in = {.mix = mix, .unit = chits_unit(u, true), .new_lead = -1};
	turn_record rec = record_of(g, u);
	in.ended_this_turn = rec.ended;
	int now = 0;
	for (int b = 0; b < CHITS_OF(u)->battalions && b < FRAY_CHITS_MAX_BATTALIONS; b++)
		now += CHITS_OF(u)->hits[b];
	in.hits_since_combat = rec.hits_after_combat >= 0 && now > rec.hits_after_combat ? now - rec.hits_after_combat : 0;
	return in;
}

static void end_turn_outcome(FILE *f, const chits_run *run)
{
	for (size_t i = 0; i < run->nend; i++) {
		fputs(i ? "}, {" : (run->nend > 1 ? "\"units\": [{" : ""), f);
		unit_outcome(f, &run->unit[i]);
	}
	if (run->nend > 1)
		fputs("}]", f);
}

static int act_end_turn(table_game *g, table_unit *u, table_unit *t, const player_opts *p)
{
	(void)t;
	fray_chits_mix *mix = NULL;
	int st = load_mix(g, &mix);
	if (st != FRAY_OK)
		return st;
	fray_chits_end_turn_in in = end_turn_of(g, u, mix);
	in.rest = frayi_player_flag(p, "--rest");
	in.rally = frayi_player_flag(p, "--rally");
	in.recover_disorder = frayi_player_flag(p, "--recover-disorder");
	int lead = 0;
	st = opt_int(g, p, "--lead", 1, CHITS_OF(u)->battalions, &lead);
	/* a second end of turn is refused by the procedure, odds or not */
	if (st == FRAY_OK && g->odds && !in.ended_this_turn) {
		st = end_turn_odds(g, &in, lead);
	} else if (st == FRAY_OK) {
		in.new_lead = lead - 1;
		fray_chits_unit after = in.unit;
		char inputs[512], title[160], name[128];
		fray_json_string(u->name, name, sizeof name);
		snprintf(inputs, sizeof inputs, "{\"unit\": %s, \"rest\": %s, \"rally\": %s, \"recover_disorder\": %s, "
			 "\"lead\": %d, \"hits_since_combat\": %d}", name, in.rest ? "true" : "false",
			 in.rally ? "true" : "false", in.recover_disorder ? "true" : "false", lead ? lead : CHITS_OF(u)->lead,
			 in.hits_since_combat);
		snprintf(title, sizeof title, "%s: end of turn", u->name);
		chits_run run = {.end_turn = &in, .unit = &after, .nend = 1};
		st = roll_step(g, "chits.end_turn", title, inputs, &run, NULL, end_turn_outcome);
		if (st == FRAY_OK)
			apply_unit(g, u, &after);
	}
	fray_chits_mix_free(mix);
	return st;
}

/* `turn`: the turn's end for every unit whose end of turn was not taken
 * (a fatigue point off each: chit combat, "A unit removes one fatigue
 * point at the end of each turn"), one step, before the turn advances. */
int frayi_table_chits_turn_over(table_game *g)
{
	fray_chits_mix *mix = NULL;
	int st = load_mix(g, &mix);
	fray_chits_end_turn_in *in = frayi_game_calloc(g->ctx, TABLE_MAX_UNITS, sizeof *in);
	fray_chits_unit *after = frayi_game_calloc(g->ctx, TABLE_MAX_UNITS, sizeof *after);
	table_unit *who[TABLE_MAX_UNITS];
	if (st == FRAY_OK && (!in || !after))
		st = frayi_game_fail(g, FRAY_ERR_NOMEM, "out of memory");
	size_t n = 0;
	for (size_t i = 0; st == FRAY_OK && i < g->nunits; i++) {
		table_unit *u = &g->units[i];
		fray_chits_end_turn_in x = end_turn_of(g, u, mix);
		if (x.ended_this_turn)
			continue;
		who[n] = u;
		after[n] = x.unit;
		in[n++] = x;
	}
	if (st == FRAY_OK && n > 0) {
		char title[64];
		snprintf(title, sizeof title, "end of turn %d", g->turn);
		chits_run run = {.end_turn = in, .unit = after, .nend = n};
		st = roll_step(g, "chits.end_turn", title, "{\"turn_end\": true}", &run, NULL, end_turn_outcome);
		for (size_t i = 0; st == FRAY_OK && i < n; i++)
			apply_unit(g, who[i], &after[i]);
	}
	frayi_game_dealloc(g->ctx, in);
	frayi_game_dealloc(g->ctx, after);
	fray_chits_mix_free(mix);
	return st;
}

static const table_action actions[] = {
	{"combat", true, "the attacker's tactic against the defender's stance, chits drawn, hits and retreats",
	 act_combat, combat_target, &frayi_desc_chits_combat},
	{"end-turn", false, "once a turn", act_end_turn, NULL, &frayi_desc_chits_end_turn},
};

const table_action *frayi_table_chits_actions(size_t *n)
{
	*n = sizeof actions / sizeof *actions;
	return actions;
}
