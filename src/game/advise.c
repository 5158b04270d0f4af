/* Advice (issue 44 item 2; advise.h): a unit's actions now, each target
 * the game lists and each choice of options its player makes, kept only
 * when the game accepts the action (applied to a scratch copy), valued
 * exactly from the action's first roll's odds (fray_game_act_odds: the
 * game's procedures with the enumerating roller), once per (action,
 * target, options), and ranked best first. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "advise.h"
#include "ruleset.h"
#include "game_apply.h"
#include "../catalog/catalog.h"
#include "../common/hidden.h"
#include "../core/internal.h"
#include "../common/text.h"

const char *const frayi_advise_goal_names[GOAL_N] = {"win", "not-lose", "casualties", "hold"};

bool frayi_advise_goal(const char *name, advise_goal *g)
{
	for (int k = 0; k < GOAL_N; k++)
		if (name && !strcmp(name, frayi_advise_goal_names[k])) {
			*g = (advise_goal)k;
			return true;
		}
	return false;
}

long frayi_advise_int(const fray_node *o, const char *field)
{
	const char *s = fray_node_scalar(fray_map_get(o, field));
	return s ? strtol(s, NULL, 10) : 0;
}

bool frayi_advise_bool(const fray_node *o, const char *field)
{
	const char *s = fray_node_scalar(fray_map_get(o, field));
	return s && !strcmp(s, "true");
}

const char *frayi_advise_str(const fray_node *o, const char *field)
{
	return fray_node_scalar(fray_map_get(o, field));
}

static const advise_rules *const all_rules[] = {&frayi_advise_presidio, &frayi_advise_bbb, &frayi_advise_chits};

static const advise_rules *rules_of(const table_game *g)
{
	for (size_t i = 0; i < sizeof all_rules / sizeof *all_rules; i++)
		if (!strcmp(all_rules[i]->rules, g->rules->id))
			return all_rules[i];
	return NULL;
}

static const table_action *action_of(const table_game *g, const char *name)
{
	size_t n;
	const table_action *acts = g->rules->actions(&n);
	for (size_t i = 0; i < n; i++)
		if (!strcmp(acts[i].name, name))
			return &acts[i];
	return NULL;
}

/* The player's options, each "--name" with its value (NULL: a flag). */
#define PLAYER_MAX 16
typedef struct player_opt {
	char name[ADVISE_WORD];          /* without the dashes */
	const char *value;
	char eq_value[ADVISE_WORD];
} player_opt;

/* Whether a (its descriptor) takes option name; *flag: it is a flag. */
static bool takes(const table_action *a, const char *name, bool *flag)
{
	const in_desc *in = NULL;
	if (!frayi_action_opt_named(a, name, &in) || !in)
		return false;
	if (flag)
		*flag = in->type == IN_BOOL;
	return true;
}

/* Whether the player's value is one the action's option takes, as
 * fray_call_set would read it (a whole number, a number, a choice, true
 * or false within the descriptor's range): a value the game would refuse
 * must be refused here, not make every candidate that carries it vanish
 * from the advice. */
static bool value_fits(const in_desc *in, const char *v)
{
	switch (in->type) {
	case IN_BOOL:
		return !v || !strcmp(v, "true") || !strcmp(v, "false");
	case IN_INT: {
		char *end;
		errno = 0;
		long long x = v ? strtoll(v, &end, 10) : 0;
		return v && *v && !*end && !errno && x >= in->min && x <= in->max;
	}
	case IN_NUMBER: {
		int digits = 0, points = 0;
		for (const char *c = v; c && *c; c++)
			if (*c >= '0' && *c <= '9')
				digits++;
			else if (!(*c == '.' && points++ == 0))
				return false;
		double x = digits ? strtod(v, NULL) : 0;
		return digits && digits <= 12 && x >= (double)in->min && x <= (double)in->max;
	}
	case IN_CHOICE:
		for (size_t k = 0; v && k < in->nchoices; k++)
			if (!strcmp(v, in->choices[k]))
				return true;
		return false;
	case IN_STRING:
	case IN_FILE:
		return v != NULL;
	}
	return true;
}

/* What an option takes, in words, for the refusal. */
static void expects(const in_desc *in, char *dst, size_t cap)
{
	textbuf t = text_on(dst, cap);
	switch (in->type) {
	case IN_BOOL: text_add(&t, "true or false"); break;
	case IN_INT:
	case IN_NUMBER:
		if (in->expects)
			text_add(&t, "%s", in->expects);
		else
			text_add(&t, "a %s from %lld to %lld", in->type == IN_INT ? "whole number" : "number",
				 (long long)in->min, (long long)in->max);
		break;
	case IN_CHOICE:
		text_add(&t, "one of ");
		for (size_t k = 0; k < in->nchoices; k++)
			text_add(&t, "%s%s", k ? ", " : "", in->choices[k]);
		break;
	default: text_add(&t, "a value"); break;
	}
}

/* Whether an action advice weighs takes option name; *flag: a flag. */
static bool known(table_game *g, const advise_rules *ar, const char *name, bool *flag)
{
	bool is = false;
	for (size_t k = 0; ar && k < ar->nactions && !is; k++) {
		const table_action *a = action_of(g, ar->actions[k].action);
		is = a && takes(a, name, flag);
	}
	return is;
}

static int unknown(table_game *g, const char *said, const char *input)
{
	/* no command-line hint in the library's words (issue 42): the
	 * actions' options are listed by whatever front end asked */
	return frayi_game_fail_input(g, FRAY_ERR_INPUT, input,
				     "advise: %.48s is not an option of any action advice weighs in %s", said, g->rules->id);
}

/* Refused when no action that takes the option would read the value:
 * the message says what the first one takes. */
static int check_fits(table_game *g, const advise_rules *ar, const player_opt *o, const char *input)
{
	const in_desc *first = NULL, *in = NULL;
	bool fits = false;
	for (size_t k = 0; k < ar->nactions && !fits; k++) {
		const table_action *a = action_of(g, ar->actions[k].action);
		if (a && frayi_action_opt_named(a, o->name, &in) && in) {
			first = first ? first : in;
			fits = value_fits(in, o->value);
		}
	}
	if (first && !fits) {
		char want[512];
		expects(first, want, sizeof want);
		return frayi_game_fail_input(g, FRAY_ERR_INPUT, input, "advise: --%.48s expects %s, got '%.48s'", o->name, want,
				       o->value ? o->value : "");
	}
	return FRAY_OK;
}

/* The player's words read against the unit's actions: an option no
 * action of the table takes is refused (its message names it). */
static int read_player(table_game *g, const advise_rules *ar, size_t nopt, const char *const *opt, player_opt *p,
		       size_t *np)
{
	*np = 0;
	for (size_t i = 0; i < nopt; i++) {
		const char *w = opt[i];
		if (strncmp(w, "--", 2) || !w[2])
			return frayi_game_fail_input(g, FRAY_ERR_INPUT, "options", "advise: '%.48s' is not an option (--range 10, "
					       "--cover partial ...)", w);
		if (*np == PLAYER_MAX)
			return frayi_game_fail_input(g, FRAY_ERR_INPUT, "options", "advise: at most %d options", PLAYER_MAX);
		player_opt *o = &p[(*np)++];
		*o = (player_opt){0};
		const char *eq = strchr(w, '=');
		snprintf(o->name, sizeof o->name, "%.*s", (int)(eq ? (size_t)(eq - w - 2) : strlen(w + 2)), w + 2);
		bool flag = false;
		if (!known(g, ar, o->name, &flag))
			return unknown(g, w, "options");
		if (eq) {
			if (strlen(eq + 1) >= sizeof o->eq_value)
				return frayi_game_fail_input(g, FRAY_ERR_INPUT, "options", "advise: %.48s: the value is longer than %zu "
						       "bytes", o->name, sizeof o->eq_value - 1);
			snprintf(o->eq_value, sizeof o->eq_value, "%s", eq + 1);
			o->value = o->eq_value;
		} else if (!flag) {
			if (i + 1 >= nopt)
				return frayi_game_fail_input(g, FRAY_ERR_INPUT, "options", "advise: %.48s needs a value", w);
			o->value = opt[++i];
		}
		int st = check_fits(g, ar, o, "options");
		if (st != FRAY_OK)
			return st;
	}
	return FRAY_OK;
}

/* The player's typed options (api/v1/game's "options" object) read as
 * the words would be: a name with '_' read as '-', false left out, true a
 * flag, a number as its text; the same checks and messages. */
static int read_typed(table_game *g, const advise_rules *ar, size_t nopt, const fray_game_option *opt, player_opt *p,
		      size_t *np)
{
	*np = 0;
	for (size_t i = 0; i < nopt; i++) {
		const fray_game_option *t = &opt[i];
		if (!t->name || (t->kind == FRAY_GAME_TEXT && !t->s))
			return frayi_game_fail_input(g, FRAY_ERR_INPUT, "options", "advise: option %zu has no name or no value", i);
		if (t->kind == FRAY_GAME_BOOL && !t->b)
			continue; /* a flag not given */
		if (*np == PLAYER_MAX)
			return frayi_game_fail_input(g, FRAY_ERR_INPUT, "options", "advise: at most %d options", PLAYER_MAX);
		player_opt *o = &p[(*np)++];
		*o = (player_opt){0};
		char said[ADVISE_WORD + 2];
		snprintf(said, sizeof said, "--%s", t->name);
		for (char *c = said; *c; c++)
			*c = *c == '_' ? '-' : *c;
		snprintf(o->name, sizeof o->name, "%s", said + 2);
		bool flag = false;
		if (strlen(t->name) >= sizeof o->name || !known(g, ar, o->name, &flag))
			return unknown(g, said, NULL); /* no field of that name (as api/v1/run names none) */
		switch (t->kind) {
		case FRAY_GAME_BOOL:
			if (!flag)
				return frayi_game_fail_input(g, FRAY_ERR_INPUT, t->name, "advise: --%.48s needs a value", o->name);
			break; /* a flag: no value */
		case FRAY_GAME_INT: snprintf(o->eq_value, sizeof o->eq_value, "%" PRId64, t->i); break;
		case FRAY_GAME_NUMBER: frayi_number_text(t->x, o->eq_value, sizeof o->eq_value); break;
		default:
			if (strlen(t->s) >= sizeof o->eq_value)
				return frayi_game_fail_input(g, FRAY_ERR_INPUT, t->name, "advise: %.48s: the value is longer than %zu "
						       "bytes", o->name, sizeof o->eq_value - 1);
			snprintf(o->eq_value, sizeof o->eq_value, "%s", t->s);
		}
		if (t->kind != FRAY_GAME_BOOL)
			o->value = o->eq_value;
		int st = check_fits(g, ar, o, t->name);
		if (st != FRAY_OK)
			return st;
	}
	return FRAY_OK;
}

static bool player_gave(const player_opt *p, size_t np, const char *name)
{
	for (size_t i = 0; i < np; i++)
		if (!strcmp(p[i].name, name) || (!strcmp(name, "band") && !strcmp(p[i].name, "range")) ||
		    (!strcmp(name, "range") && !strcmp(p[i].name, "band")))
			return true; /* a range and a band say the same: the player's stands */
	return false;
}

/* false when the word does not fit (too many, or too long): a word
 * dropped or cut would make another action than the one weighed */
static bool add_word(advise_words *w, const char *s)
{
	if (w->n >= ADVISE_WORDS || strlen(s) >= ADVISE_WORD)
		return false;
	snprintf(w->w[w->n++], ADVISE_WORD, "%s", s);
	return true;
}

/* words (NULL-ended) added unless the player gave their options */
static bool add_unless_given(advise_words *w, const char *const *words, const player_opt *p, size_t np)
{
	bool fits = true;
	for (size_t i = 0; words && words[i]; i++) {
		bool opt = !strncmp(words[i], "--", 2);
		bool has_value = opt && words[i + 1] && strncmp(words[i + 1], "--", 2);
		if (!(opt && player_gave(p, np, words[i] + 2))) {
			fits &= add_word(w, words[i]);
			if (has_value)
				fits &= add_word(w, words[i + 1]);
		}
		i += has_value;
	}
	return fits;
}

/* The options of one candidate: the player's that the action takes,
 * the situation's defaults, then the variant's choice; false when they
 * do not all fit. */
static bool candidate_words(const table_action *a, const advise_action *aa, const player_opt *p, size_t np,
			    const advise_words *variant, advise_words *out)
{
	*out = (advise_words){0};
	bool fits = true;
	for (size_t i = 0; i < np; i++)
		if (takes(a, p[i].name, NULL)) {
			char w[ADVISE_WORD + 2];
			snprintf(w, sizeof w, "--%s", p[i].name);
			fits &= add_word(out, w);
			if (p[i].value)
				fits &= add_word(out, p[i].value);
		}
	fits &= add_unless_given(out, aa->situation, p, np);
	const char *vw[ADVISE_WORDS + 1];
	size_t k = 0;
	for (; variant && k < variant->n; k++)
		vw[k] = variant->w[k];
	vw[k] = NULL;
	return fits & add_unless_given(out, vw, p, np);
}

/* Whether the game accepts the action: applied to a scratch copy of the
 * game (its dice rolled and thrown away, the questions it asks answered
 * by the heuristic), as fray_game_act would apply it. g's context is
 * left as it was. */
static int accepted(const table_game *now, fray_policy *pol, int argc, char **argv, bool *ok)
{
	table_game *g = frayi_game_alloc(now->ctx, sizeof *g);
	if (!g)
		return FRAY_ERR_NOMEM;
	memcpy(g, now, sizeof *g);
	g->nsteps = 0;
	g->notes_len = g->facts_len = 0;
	g->notes[0] = g->asked[0] = g->facts[0] = '\0';
	g->policy = pol;
	g->odds = NULL;
	g->odds_out = NULL;
	g->doc = g->mix_doc = NULL; /* the game's, borrowed */
	bool was_clear = fray_ctx_status(now->ctx) == FRAY_OK;
	char command[2048];
	int st = frayi_table_act(g, argc, argv, command, sizeof command);
	*ok = st == FRAY_OK;
	g->log = NULL; /* the game's, borrowed (read by the rules, never grown by an act) */
	g->nlog = 0;
	frayi_table_free(g);
	frayi_game_dealloc(now->ctx, g);
	if (was_clear)
		fray_ctx_clear(now->ctx);
	return st == FRAY_ERR_NOMEM ? FRAY_ERR_NOMEM : FRAY_OK;
}

/* "70.4%" of an exact probability. */
static void percent(char *dst, size_t cap, const mpq_t p)
{
	snprintf(dst, cap, "%.1f%%", 100 * mpq_get_d(p));
}

/* q's "p/q" whole to f: an exact value is never cut (a cut fraction is
 * another fraction). */
static void put_exact(FILE *f, const mpq_t q)
{
	char *s = mpq_get_str(NULL, 10, q);
	fputs(s ? s : "?", f);
	void (*gmp_free)(void *, size_t);
	mp_get_memory_functions(NULL, NULL, &gmp_free);
	if (s)
		gmp_free(s, strlen(s) + 1);
}

/* q's "p/q" into dst when it fits, else how many digits it has (the
 * whole fraction is the answer's "exact"): never a cut fraction. */
static void exact_text(char *dst, size_t cap, const mpq_t q)
{
	size_t need = mpz_sizeinbase(mpq_numref(q), 10) + mpz_sizeinbase(mpq_denref(q), 10) + 3;
	if (need > cap) {
		snprintf(dst, cap, "a fraction of %zu digits", need - 3);
		return;
	}
	mpq_get_str(dst, 10, q);
}

/* The value under goal of the odds (JSON, fray_game_act_odds's) into a:
 * the sum over outcomes of their exact chance times their worth. */
static int value_of(table_game *g, const advise_action *aa, advise_goal goal, const char *odds, const char *target,
		    advice *a)
{
	fray_doc *doc;
	size_t len = strlen(odds);
	if (len > FRAY_DOC_MAX_BYTES)
		return frayi_game_fail(g, FRAY_ERR_LIMIT, "advice: the odds of %s have more outcomes than advice weighs "
				       "(%zu bytes of them, at most %zu MiB): fewer figures, or ask the odds alone",
				       aa->action, len, (size_t)FRAY_DOC_MAX_BYTES >> 20);
	if (frayi_doc_load_own(g->ctx, "odds", odds, len, &doc) != FRAY_OK)
		return frayi_game_failed(g);
	const fray_node *root = fray_doc_root(doc), *outs = fray_map_get(root, "outcomes");
	const char *proc = fray_node_scalar(fray_map_get(root, "procedure"));
	mpq_t p, e[2];
	mpq_inits(p, e[0], e[1], NULL);
	double losses = 0;
	int st = FRAY_OK;
	for (size_t i = 0; i < fray_node_len(outs); i++) {
		const fray_node *item = fray_node_item(outs, i), *o = fray_map_get(item, "outcome");
		const char *ex = fray_node_scalar(fray_map_get(item, "exact"));
		if (!ex || mpq_set_str(p, ex, 10) != 0) {
			st = frayi_game_fail(g, FRAY_ERR_INTERNAL, "internal: advice: an outcome's exact chance '%.40s'",
					     ex ? ex : "(none)");
			break;
		}
		mpq_canonicalize(p);
		long w = aa->worth(o, goal);
		if (w) {
			mpq_t t;
			mpq_init(t);
			mpq_set_si(t, w, 1);
			mpq_mul(t, t, p);
			mpq_add(a->q, a->q, t);
			mpq_clear(t);
		}
		losses += mpq_get_d(p) * (double)aa->worth(o, GOAL_CASUALTIES);
		for (int k = 0; k < 2; k++)
			if (aa->events[k].holds && aa->events[k].holds(o))
				mpq_add(e[k], e[k], p);
	}
	if (st == FRAY_OK) {
		a->secondary = losses;
		textbuf t = text_on(a->headline, sizeof a->headline);
		for (int k = 0; k < 2; k++) {
			if (!aa->events[k].holds)
				continue;
			char says[160], pc[16];
			snprintf(says, sizeof says, aa->events[k].says, target);
			percent(pc, sizeof pc, e[k]);
			text_add(&t, "%s%s %s", t.len ? ", " : "", says, pc);
		}
		char means[200], v[32], ex[96];
		snprintf(means, sizeof means, aa->means[goal], target);
		exact_text(ex, sizeof ex, a->q);
		if (goal == GOAL_CASUALTIES)
			snprintf(v, sizeof v, "%.3g", mpq_get_d(a->q));
		else
			percent(v, sizeof v, a->q);
		/* the roll in a player's words, the catalogue's summary ("a unit's
		 * small-arms fire"), never its engine name (issue 43) */
		const proc_desc *pd = proc ? frayi_catalog_find(proc) : NULL;
		snprintf(a->why, sizeof a->why, "%s: %s (exactly %s), from the exact odds of %s", means, v, ex,
			 pd && pd->summary ? pd->summary : "its roll");
	}
	mpq_clears(p, e[0], e[1], NULL);
	fray_doc_free(doc);
	return st;
}

/* An action that rolls no dice here: its worth is certain. failed: its
 * odds could not be had (past their budget): said, never silently. */
static void certain(const advise_action *aa, advise_goal goal, const char *target, const char *failed, advice *a)
{
	mpq_set_si(a->q, aa->no_dice[goal], 1);
	a->secondary = (double)aa->no_dice[GOAL_CASUALTIES];
	char means[200];
	snprintf(means, sizeof means, aa->means[goal], target);
	snprintf(a->headline, sizeof a->headline, failed ? "no exact odds" : "no dice");
	if (failed)
		snprintf(a->why, sizeof a->why, "no exact odds here (%.200s): valued as if it rolled none, %ld", failed,
			 aa->no_dice[goal]);
	else
		snprintf(a->why, sizeof a->why, "%s: %ld (the action rolls no dice)", means, aa->no_dice[goal]);
}

static bool same_words(const advice *a, const char *action, int target, const advise_words *w)
{
	if (strcmp(a->action, action) || a->target != target || a->words.n != w->n)
		return false;
	for (size_t i = 0; i < w->n; i++)
		if (strcmp(a->words.w[i], w->w[i]))
			return false;
	return true;
}

static int grow(table_game *g, advice_list *l)
{
	if (l->n < l->cap)
		return FRAY_OK;
	size_t cap = l->cap ? 2 * l->cap : 32;
	advice *a = frayi_game_calloc(g->ctx, cap, sizeof *a);
	if (!a)
		return frayi_game_fail(g, FRAY_ERR_NOMEM, "out of memory");
	if (l->n)
		memcpy(a, l->a, l->n * sizeof *a); /* mpq_t moves with its limbs' pointers */
	frayi_game_dealloc(g->ctx, l->a);
	l->a = a;
	l->cap = cap;
	return FRAY_OK;
}

/* One candidate: accepted by the game, then valued. */
static int weigh(fray_game *game, table_game *g, fray_policy *pol, size_t unit, const advise_action *aa,
		 const table_action *a, int target, const advise_words *w, advise_goal goal, advice_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		if (same_words(&l->a[i], aa->action, target, w))
			return FRAY_OK; /* valued once */
	char *argv[ADVISE_WORDS + 4];
	int argc = 0;
	argv[argc++] = (char *)aa->action;
	argv[argc++] = g->units[unit].name;
	if (target >= 0) {
		argv[argc++] = (char *)"--at";
		argv[argc++] = g->units[target].name;
	}
	for (size_t i = 0; i < w->n; i++)
		argv[argc++] = (char *)w->w[i];
	bool ok;
	int st = accepted(g, pol, argc, argv, &ok);
	if (st != FRAY_OK || !ok)
		return st;
	if ((st = grow(g, l)) != FRAY_OK)
		return st;
	advice *ad = &l->a[l->n];
	memset(ad, 0, sizeof *ad);
	snprintf(ad->action, sizeof ad->action, "%s", aa->action);
	ad->target = target;
	ad->words = *w;
	mpq_init(ad->q);
	l->n++;
	const char *tname = target >= 0 ? g->units[target].name : "the enemy";
	char *odds = NULL;
	bool was_clear = fray_ctx_status(g->ctx) == FRAY_OK;
	fray_status os = a->desc && a->desc->procs[0] && aa->worth
				 ? fray_game_act_odds(game, (size_t)argc, (const char *const *)argv, FRAY_FORMAT_JSON, &odds)
				 : FRAY_ERR_INPUT;
	if (os == FRAY_ERR_NOMEM)
		return (int)os;
	if (os == FRAY_OK) {
		st = value_of(g, aa, goal, odds, tname, ad);
	} else {
		/* no dice here (a move, a reload, a panicked unit caught), or
		 * odds past their budget: the message says which */
		char failed[256] = "";
		const char *msg = fray_ctx_message(g->ctx);
		if (os != FRAY_ERR_INPUT && msg)
			snprintf(failed, sizeof failed, "%s", msg);
		if (was_clear)
			fray_ctx_clear(g->ctx);
		certain(aa, goal, tname, failed[0] ? failed : NULL, ad);
	}
	free(odds);
	ad->value = mpq_get_d(ad->q);
	exact_text(ad->exact, sizeof ad->exact, ad->q);
	return st;
}

static int better(const void *x, const void *y)
{
	const advice *a = x, *b = y;
	int c = mpq_cmp(b->q, a->q);
	if (c)
		return c;
	if (a->secondary != b->secondary)
		return a->secondary < b->secondary ? 1 : -1;
	return 0;
}

/* a stable sort: equal advice stays in the table's order */
static void rank(advice *a, size_t n)
{
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && better(&a[j - 1], &a[j]) > 0; j--) {
			advice t = a[j];
			a[j] = a[j - 1];
			a[j - 1] = t;
		}
}

int frayi_advise(fray_game *game, size_t unit, advise_goal goal, const advise_player *pl, advice_list *out)
{
	*out = (advice_list){.goal = goal, .unit = unit};
	table_game *g = (table_game *)frayi_game_table(game);
	const advise_rules *ar = rules_of(g);
	player_opt p[PLAYER_MAX];
	size_t np = 0;
	int st = !pl ? FRAY_OK : pl->typed ? read_typed(g, ar, pl->n, pl->typed, p, &np)
					   : read_player(g, ar, pl->n, pl->words, p, &np);
	/* an option given twice (or a range and a band, which say the same)
	 * is refused as an action refuses it: each candidate would be built
	 * with both and the game would refuse every one, leaving the advice
	 * (and play's move) silently without them */
	for (size_t i = 1; i < np && st == FRAY_OK; i++)
		for (size_t j = 0; j < i && st == FRAY_OK; j++)
			if (!strcmp(p[i].name, p[j].name))
				st = frayi_game_fail_input(g, FRAY_ERR_INPUT, "options", "advise: --%.48s given twice: give it once",
						     p[i].name);
			else if (player_gave(&p[j], 1, p[i].name))
				st = frayi_game_fail_input(g, FRAY_ERR_INPUT, "options", "advise: --%.48s and --%.48s say the same: "
						     "give one", p[j].name, p[i].name);
	if (st != FRAY_OK || !ar)
		return st;
	fray_policy *pol = fray_policy_heuristic_new(g->ctx);
	if (!pol)
		return frayi_game_fail(g, FRAY_ERR_NOMEM, "out of memory");
	const char *stance = "hold";
	for (size_t i = 0; i < np; i++)
		if (!strcmp(p[i].name, "stance") && p[i].value)
			stance = p[i].value;
	for (size_t k = 0; k < ar->nactions && st == FRAY_OK; k++) {
		const advise_action *aa = &ar->actions[k];
		const table_action *a = action_of(g, aa->action);
		if (!a || !frayi_table_may(g, &g->units[unit], aa->action))
			continue;
		size_t targets[TABLE_MAX_UNITS], nt = 1;
		targets[0] = (size_t)-1;
		if (a->needs_target)
			nt = fray_game_targets(game, unit, aa->action, targets, TABLE_MAX_UNITS);
		advise_words v[64];
		size_t nv = ar->variants ? ar->variants(g, aa, stance, v, 64) : 0;
		for (size_t i = 0; !ar->variants && i < ADVISE_VARIANTS && aa->variants[i]; i++) {
			v[nv] = (advise_words){0};
			for (size_t j = 0; aa->variants[i][j]; j++)
				add_word(&v[nv], aa->variants[i][j]);
			nv++;
		}
		for (size_t t = 0; t < nt && st == FRAY_OK; t++) {
			/* advice aims at the enemy: a unit of the actor's own
			 * side is a target the game takes, not one to advise */
			if (a->needs_target && !strcmp(g->units[targets[t]].side, g->units[unit].side))
				continue;
			for (size_t i = 0; i < (nv ? nv : 1) && st == FRAY_OK; i++) {
				advise_words w;
				if (!candidate_words(a, aa, p, np, nv ? &v[i] : NULL, &w)) {
					st = frayi_game_fail(g, FRAY_ERR_INPUT, "advise: %s with the options given and "
							     "its own choices passes %d words of at most %d bytes: "
							     "give fewer options", aa->action, ADVISE_WORDS,
							     ADVISE_WORD - 1);
					break;
				}
				st = weigh(game, g, pol, unit, aa, a, a->needs_target ? (int)targets[t] : -1, &w, goal,
					   out);
			}
		}
	}
	fray_policy_free(pol);
	if (st != FRAY_OK) {
		frayi_advice_free(game, out);
		return st;
	}
	rank(out->a, out->n);
	return FRAY_OK;
}

void frayi_advice_free(fray_game *game, advice_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		mpq_clear(l->a[i].q);
	frayi_game_dealloc(frayi_game_table(game)->ctx, l->a);
	l->a = NULL;
	l->n = l->cap = 0;
}

/* "options": the words as the request's typed options ({"mode": "volley",
 * "range": 10, "both": true}), so that apply takes them back. */
static void options_json(FILE *f, const table_action *a, const advise_words *w)
{
	fputc('{', f);
	for (size_t i = 0; i < w->n; i++) {
		const char *name = w->w[i] + 2;
		const in_desc *in = NULL;
		frayi_action_opt_named(a, name, &in);
		bool flag = in && in->type == IN_BOOL;
		fputs(i ? ", " : "", f);
		char key[ADVISE_WORD];
		snprintf(key, sizeof key, "%s", name);
		for (char *c = key; *c; c++)
			if (*c == '-')
				*c = '_';
		frayi_json_string(f, key);
		fputs(": ", f);
		if (flag || i + 1 >= w->n) {
			fputs("true", f);
			continue;
		}
		const char *v = w->w[++i];
		if (in && (in->type == IN_INT || in->type == IN_NUMBER))
			fputs(v, f);
		else
			frayi_json_string(f, v);
	}
	fputc('}', f);
}

void frayi_advice_json(FILE *f, const fray_game *game, const advice *a)
{
	const table_game *g = frayi_game_table(game);
	fputs("{\"action\": ", f);
	frayi_json_string(f, a->action);
	fputs(", \"target\": ", f);
	if (a->target >= 0)
		frayi_json_string(f, g->units[a->target].name);
	else
		fputs("null", f);
	fputs(", \"options\": ", f);
	options_json(f, action_of(g, a->action), &a->words);
	char num[40];
	fray_double_str(a->value, num, sizeof num);
	fprintf(f, ", \"value\": %s, \"exact\": \"", num);
	put_exact(f, a->q); /* digits, '/' and '-': nothing to escape */
	fputc('"', f);
	fputs(", \"headline\": ", f);
	frayi_json_string(f, a->headline);
	fputs(", \"why\": ", f);
	frayi_json_string(f, a->why);
	fputc('}', f);
}

int frayi_advice_render(fray_game *game, const advice_list *l, fray_format form, char **out)
{
	const table_game *g = frayi_game_table(game);
	game_out o;
	FILE *f = frayi_out_open(&o, g->ctx);
	if (!f)
		return FRAY_ERR_NOMEM;
	const char *unit = g->units[l->unit].name;
	if (form == FRAY_FORMAT_JSON) {
		fprintf(f, "{\"goal\": \"%s\", \"unit\": ", frayi_advise_goal_names[l->goal]);
		frayi_json_string(f, unit);
		fputs(", \"actions\": [", f);
		for (size_t i = 0; i < l->n; i++) {
			fputs(i ? ",\n  " : "\n  ", f);
			frayi_advice_json(f, game, &l->a[i]);
		}
		fputs(l->n ? "\n]}\n" : "]}\n", f);
	} else {
		char shown[TABLE_TERM_LINE];
		text_escape_controls(shown, sizeof shown, unit);
		fprintf(f, "advice for %s, goal %s: each action valued exactly from its first roll's odds, best "
			"first\n", shown, frayi_advise_goal_names[l->goal]);
		if (!l->n)
			fprintf(f, "  no action: the rules give it none now\n");
		for (size_t i = 0; i < l->n; i++) {
			const advice *a = &l->a[i];
			char line[TABLE_TERM_LINE];
			textbuf t = text_on(line, sizeof line);
			text_add(&t, "%s", a->action);
			if (a->target >= 0)
				text_add(&t, " --at %s", g->units[a->target].name);
			for (size_t k = 0; k < a->words.n; k++)
				text_add(&t, " %s", a->words.w[k]);
			text_escape_controls(shown, sizeof shown, line);
			fprintf(f, "%2zu. %s\n    value %.4g (exactly ", i + 1, shown, a->value);
			put_exact(f, a->q);
			fprintf(f, "); %s\n    %s\n", a->headline, a->why);
		}
	}
	return frayi_out_close(&o, f, out, NULL);
}
