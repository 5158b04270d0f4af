/* The chit-pull system's advice table (advise.h): the attacker's choices
 * in a combat, the mix's tactics and how many chits to draw (from the
 * tactic's least to its most against the defender's stance, as the mix
 * gives them: chit-combat.txt, Tactics), and what each goal counts of the
 * combat's outcome: hits on each side, the attacker's morale tests. The
 * combat decides what is legal (the game refuses the rest); nothing here
 * decides a rule. */
#include <stdlib.h>
#include <string.h>
#include "advise.h"

static long hits(const fray_node *o, const char *side)
{
	char f[40];
	snprintf(f, sizeof f, "%s_hits", side);
	return frayi_advise_int(o, f);
}

static bool more_hits(const fray_node *o)
{
	return hits(o, "defender") > hits(o, "attacker");
}

static bool no_test(const fray_node *o)
{
	return frayi_advise_int(o, "attacker_morale_tests") == 0;
}

static long combat_worth(const fray_node *o, advise_goal g)
{
	switch (g) {
	case GOAL_CASUALTIES: return hits(o, "defender");
	case GOAL_WIN: return more_hits(o);
	case GOAL_NOT_LOSE: return hits(o, "defender") >= hits(o, "attacker");
	default: return no_test(o);
	}
}

/* the situation is the players': the defender's stance, the terrain and
 * both combat die rolls, given as options; these when not given */
static const char *const combat_situation[] = {"--stance", "hold", "--terrain", "open", "--attacker-cdr", "10",
					       "--defender-cdr", "10", NULL};

static const advise_action chits_advice[] = {
	{"combat",
	 {NULL},
	 combat_situation,
	 combat_worth,
	 {0},
	 {{more_hits, "%s takes more hits"}, {no_test, "no morale test for the attackers"}},
	 {"the chance %s takes more hits than the attackers", "the chance %s takes at least as many hits as the "
	  "attackers", "the expected hits on %s", "the chance the attackers take no morale test"}},
};

static long node_long(const fray_node *n, long def)
{
	const char *s = fray_node_scalar(n);
	char *end;
	long v = s ? strtol(s, &end, 10) : def;
	return s && *s && !*end ? v : def;
}

/* The mix's tactics, each with every count of chits it may draw against
 * the stance: --tactic T --draw K. */
static size_t combat_variants(const table_game *g, const advise_action *a, const char *stance, advise_words *v,
			      size_t cap)
{
	if (strcmp(a->action, "combat") || !g->mix)
		return 0;
	const fray_node *tactics = fray_map_get(g->mix, "tactics");
	size_t n = 0;
	for (size_t i = 0; i < fray_node_len(tactics); i++) {
		const char *name = fray_node_scalar(fray_node_key(tactics, i));
		const fray_node *t = fray_node_value(tactics, i), *max = fray_map_get(t, "max");
		long lo = node_long(fray_map_get(t, "min"), 1);
		long hi = fray_node_kind_of(max) == FRAY_NODE_MAP ? node_long(fray_map_get(max, stance), lo)
								   : node_long(max, lo);
		for (long k = lo < 1 ? 1 : lo; name && k <= hi && k <= 16 && n < cap; k++) {
			advise_words *w = &v[n++];
			*w = (advise_words){0};
			snprintf(w->w[0], ADVISE_WORD, "--tactic");
			snprintf(w->w[1], ADVISE_WORD, "%s", name);
			snprintf(w->w[2], ADVISE_WORD, "--draw");
			snprintf(w->w[3], ADVISE_WORD, "%ld", k);
			w->n = 4;
		}
	}
	return n;
}

const advise_rules frayi_advise_chits = {"chits", chits_advice, sizeof chits_advice / sizeof *chits_advice,
					 combat_variants};
