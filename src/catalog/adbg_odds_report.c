/* A battle's odds as `fray adbg odds` and adbg.battle's odds mode print
 * them: who wins and each side's losses, exact or simulated (with 95%
 * Wilson intervals). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "result.h"

/* P(winner == w), and how many simulated battles that was. */
static double p_winner(const fray_dist *d, int64_t w, uint64_t *hits)
{
	double p = 0;
	*hits = 0;
	for (size_t i = 0; i < fray_dist_count(d); i++)
		if (fray_dist_outcome(d, i)[0] == w) {
			p += fray_dist_p(d, i);
			*hits += fray_dist_hits(d, i);
		}
	return p;
}

/* A name for a terminal, cut to width columns' worth of bytes. */
static void sb_name(strbuf *sb, const char *fmt, const char *name)
{
	strbuf esc = {.ctx = sb->ctx};
	frayi_sb_escaped(&esc, name);
	frayi_sb_add(sb, fmt, esc.buf ? esc.buf : "");
	frayi_sb_free(&esc);
}

/* Why the odds are not exact, in words: the enumeration's own message
 * where it stopped, else the reason's. */
static const char *reason_words(const fray_adbg_odds_about *m)
{
	if (m->fell_back)
		return m->fell_back;
	if (!strcmp(m->reason, "policy"))
		return "exact odds need a policy that decides alike each time (heuristic)";
	if (!strcmp(m->reason, "asked"))
		return "a budget of 0 paths asks for a simulation";
	return "exact odds did not finish";
}

/* ", \"exact\": \"p/q\"": P(winner == w) as the whole fraction, summed
 * from the outcomes' own (the page shows it beside the share). */
static void winner_exact(strbuf *sb, const fray_dist *d, int64_t w)
{
	double p;
	size_t n = 0;
	if (fray_dist_range(d, w, w, &p, NULL, 0, &n) != FRAY_OK) {
		sb->failed = true;
		return;
	}
	char *ex = frayi_sb_mem(sb, n + 1);
	if (!ex || fray_dist_range(d, w, w, &p, ex, n + 1, NULL) != FRAY_OK) {
		sb->failed = true;
		frayi_sb_unmem(sb, ex);
		return;
	}
	frayi_sb_add(sb, ", \"exact\": \"%s\"", ex);
	frayi_sb_unmem(sb, ex);
}

/* The best policy's part (issue 44): the goal and each side's gain in the
 * summary, with the values and the questions decided exactly or not. */
static void best_json(strbuf *sb, const fray_adbg_odds_about *m)
{
	const struct fray_adbg_best *b = m->best;
	char num[40];
	frayi_sb_add(sb, ", \"goal\": \"%s\", \"gains\": [", fray_goal_name(b->goal));
	for (int side = 0; side < 2; side++) {
		if (!b->gain_known) {
			frayi_sb_add(sb, "%snull", side ? ", " : "");
			continue;
		}
		fray_double_str(b->gain_p[side], num, sizeof num);
		frayi_sb_add(sb, "%s{\"gain\": %s, \"exact\": ", side ? ", " : "", num);
		frayi_sb_json(sb, b->gain[side]);
		frayi_sb_add(sb, "}");
	}
	frayi_sb_add(sb, "], \"values\": [");
	for (int side = 0; side < 2; side++) {
		fray_double_str(b->value_p[side], num, sizeof num);
		frayi_sb_add(sb, "%s{\"value\": %s, \"exact\": ", side ? ", " : "", num);
		frayi_sb_json(sb, b->value[side]);
		frayi_sb_add(sb, "}");
	}
	frayi_sb_add(sb, "], \"questions\": [");
	for (size_t i = 0; i < b->nq; i++) {
		frayi_sb_add(sb, "%s{\"kind\": ", i ? ", " : "");
		frayi_sb_json(sb, b->q[i].kind);
		frayi_sb_add(sb, ", \"side\": ");
		frayi_sb_json(sb, fray_adbg_side_name(m->scenario, b->q[i].side));
		frayi_sb_add(sb, ", \"decided\": \"%s\"}", b->q[i].exact ? "exact" : "heuristic");
	}
	frayi_sb_add(sb, "]");
}

static void best_text(strbuf *sb, const fray_adbg_odds_about *m)
{
	const struct fray_adbg_best *b = m->best;
	const fray_adbg_scenario *s = m->scenario;
	bool share = b->goal != FRAY_GOAL_CASUALTIES; /* a chance, shown as a percentage */
	static const char *const goal_words[] = {"P(win) + P(draw)/2", "P(win) + P(draw)",
						 "enemy units lost - own units lost, expected", "P(no unit lost)"};
	frayi_sb_add(sb, "\n  best policy, goal %s: value = %s\n", fray_goal_name(b->goal),
		     goal_words[b->goal < FRAY_GOAL_COUNT ? b->goal : 0]);
	if (b->plays[0] && b->plays[1])
		frayi_sb_add(sb, "  both sides play best: each side's best against the other's best\n");
	frayi_sb_add(sb, "  %-28s %10s %10s  exact gain\n", "", "value", "gain");
	for (int side = 0; side < 2; side++) {
		sb_name(sb, "  %-28.28s", fray_adbg_side_name(s, side));
		if (share)
			frayi_sb_add(sb, " %9.3f%%", 100 * b->value_p[side]);
		else
			frayi_sb_add(sb, " %10.4f", b->value_p[side]);
		if (!b->gain_known)
			frayi_sb_add(sb, " %10s  (the heuristic's own odds were not exact)\n", "?");
		else if (share)
			frayi_sb_add(sb, " %+9.3f%%  %s\n", 100 * b->gain_p[side], b->gain[side]);
		else
			frayi_sb_add(sb, " %+10.4f  %s\n", b->gain_p[side], b->gain[side]);
	}
	frayi_sb_add(sb, "  gain: the value as played minus the value when both sides play the heuristic\n");
	for (int exact = 1; exact >= 0; exact--) {
		bool any = false;
		for (size_t i = 0; i < b->nq; i++) {
			if (b->q[i].exact != (bool)exact)
				continue;
			frayi_sb_add(sb, "%s", any ? ", " : exact ? "  decided exactly: " :
				     "  fell back to the heuristic (over the walk's budget): ");
			frayi_sb_add(sb, "%s (", b->q[i].kind);
			frayi_sb_escaped(sb, fray_adbg_side_name(s, b->q[i].side));
			frayi_sb_add(sb, ")");
			any = true;
		}
		if (any)
			frayi_sb_add(sb, "\n");
	}
}

fray_status frayi_json_battle_odds(const void *result, strbuf *sb)
{
	const battle_odds_result *r = result;
	const fray_adbg_odds_about *m = r->about;
	const fray_dist *d = r->dist;
	const double *mean = r->mean;
	const fray_adbg_scenario *s = m->scenario;
	char num[40];
	frayi_sb_add(sb, "{\"procedure\": \"adbg.battle\", \"inputs\": {\"scenario\": ");
	frayi_sb_json(sb, fray_adbg_scenario_name(s));
	frayi_sb_add(sb, ", \"policy\": ");
	frayi_sb_json(sb, m->policy);
	frayi_sb_add(sb, "}, \"method\": \"%s\"", m->exact ? "exact" : "simulation");
	if (!m->exact)
		frayi_sb_add(sb, ", \"trials\": %" PRIu64 ", \"seed\": %" PRIu64, m->trials, m->seed);
	if (!m->exact && m->reason) { /* why a simulation answers: the page says it */
		frayi_sb_add(sb, ", \"not_exact\": {\"reason\": ");
		frayi_sb_json(sb, m->reason);
		frayi_sb_add(sb, ", \"message\": ");
		frayi_sb_json(sb, reason_words(m));
		frayi_sb_add(sb, "}");
	}
	frayi_sb_add(sb, ", \"outcomes\": [");
	for (size_t i = 0; i < fray_dist_count(d); i++) {
		const int64_t *o = fray_dist_outcome(d, i);
		fray_double_str(fray_dist_p(d, i), num, sizeof num);
		frayi_sb_add(sb, "%s\n  {\"outcome\": {\"winner\": ", i ? "," : "");
		if (o[0] == 0)
			frayi_sb_add(sb, "null");
		else
			frayi_sb_json(sb, fray_adbg_side_name(s, (int)o[0] - 1));
		frayi_sb_add(sb, ", \"losses\": [%" PRId64 ", %" PRId64 "]}, \"p\": %s", o[1], o[2], num);
		if (m->exact) {
			/* the whole fraction, however long */
			size_t n = fray_dist_p_exact(d, i, NULL, 0);
			char *ex = frayi_sb_mem(sb, n + 1);
			if (ex)
				fray_dist_p_exact(d, i, ex, n + 1);
			else
				sb->failed = true;
			frayi_sb_add(sb, ", \"exact\": \"%s\"", ex ? ex : "");
			frayi_sb_unmem(sb, ex);
		}
		frayi_sb_add(sb, "}");
	}
	fray_double_str(fray_dist_unresolved(d), num, sizeof num);
	/* the sides in file order, as in "losses": [a, b] (never keyed by
	 * name: a side may be called anything, "draw" included) */
	frayi_sb_add(sb, "\n], \"unresolved\": %s, \"sides\": [", num);
	frayi_sb_json(sb, fray_adbg_side_name(s, 0));
	frayi_sb_add(sb, ", ");
	frayi_sb_json(sb, fray_adbg_side_name(s, 1));
	frayi_sb_add(sb, "], \"summary\": {");
	for (int w = 0; w < 3; w++) {
		uint64_t hits;
		double p = p_winner(d, w, &hits);
		fray_double_str(p, num, sizeof num);
		frayi_sb_add(sb, "%s{\"p\": %s", w == 0 ? "\"draw\": " : w == 1 ? ", \"wins\": [" : ", ", num);
		if (m->exact) {
			winner_exact(sb, d, w);
		} else {
			double lo, hi;
			fray_wilson95(hits, m->trials, &lo, &hi);
			frayi_sb_add(sb, ", \"ci95\": [%.6f, %.6f]", lo, hi);
		}
		frayi_sb_add(sb, "}");
	}
	frayi_sb_add(sb, "], \"mean_losses\": [%.6f, %.6f]", mean[0], mean[1]);
	if (m->best)
		best_json(sb, m);
	frayi_sb_add(sb, "}}\n");
	return FRAY_OK;
}

fray_status frayi_text_battle_odds(const void *result, strbuf *sb)
{
	const battle_odds_result *r = result;
	const fray_adbg_odds_about *m = r->about;
	const fray_dist *d = r->dist;
	const double *mean = r->mean;
	const double(*loss_p)[FRAY_ADBG_MAX_UNITS + 1] = r->loss_p;
	const fray_adbg_scenario *s = m->scenario;
	frayi_sb_escaped(sb, fray_adbg_scenario_name(s));
	if (m->exact)
		frayi_sb_add(sb, ": exact odds (policy ");
	else
		frayi_sb_add(sb, ": odds by simulation of %" PRIu64 " battles (seed %" PRIu64 ", policy ", m->trials,
		       m->seed);
	frayi_sb_escaped(sb, m->policy);
	if (m->fell_back && !m->exact)
		frayi_sb_add(sb, ");\nnot exact: %s (--budget, --max-memory)\n\n", m->fell_back);
	else
		frayi_sb_add(sb, ")\n\n");
	for (int w = 1; w <= 3; w++) {
		int k = w % 3; /* side 1, side 2, then draw */
		uint64_t hits;
		double p = p_winner(d, k, &hits);
		strbuf label = {.ctx = sb->ctx};
		if (k) {
			frayi_sb_escaped(&label, fray_adbg_side_name(s, k - 1));
			frayi_sb_add(&label, " wins");
		} else {
			frayi_sb_add(&label, "draw");
		}
		frayi_sb_add(sb, "  %-32.32s %7.3f%%", label.buf ? label.buf : "", 100 * p);
		frayi_sb_free(&label);
		if (!m->exact) {
			double lo, hi;
			fray_wilson95(hits, m->trials, &lo, &hi);
			frayi_sb_add(sb, "   95%% CI %.3f%% - %.3f%%", 100 * lo, 100 * hi);
		}
		frayi_sb_add(sb, "\n");
	}
	int top = 0;
	for (int side = 0; side < 2; side++)
		for (int l = 0; l <= FRAY_ADBG_MAX_UNITS; l++)
			if (loss_p[side][l] > 0 && l > top)
				top = l;
	frayi_sb_add(sb, "\n  units lost (eliminated, after the routed units' fate)\n  %-28s %6s", "", "mean");
	for (int l = 0; l <= top; l++)
		frayi_sb_add(sb, " %6d", l);
	frayi_sb_add(sb, "\n");
	for (int side = 0; side < 2; side++) {
		sb_name(sb, "  %-28.28s", fray_adbg_side_name(s, side));
		frayi_sb_add(sb, " %6.2f", mean[side]);
		for (int l = 0; l <= top; l++)
			frayi_sb_add(sb, " %5.1f%%", 100 * loss_p[side][l]);
		frayi_sb_add(sb, "\n");
	}
	if (fray_dist_unresolved(d) > 0)
		frayi_sb_add(sb, "\n  unresolved: %.3g%%\n", 100 * fray_dist_unresolved(d));
	if (m->best)
		best_text(sb, m);
	return FRAY_OK;
}

/* FRAY_OK, or FRAY_ERR_INPUT for a format the table has no renderer of. */
fray_status frayi_adbg_odds_report(strbuf *sb, const fray_adbg_odds_about *m, const fray_dist *d, fray_format form)
{
	result_renderer render = frayi_renderer(RESULT_BATTLE_ODDS, form);
	if (!render)
		return FRAY_ERR_INPUT;
	battle_odds_result r = {.about = m, .dist = d};
	for (size_t i = 0; i < fray_dist_count(d); i++)
		for (int side = 0; side < 2; side++) {
			int64_t l = fray_dist_outcome(d, i)[1 + side];
			if (l < 0 || l > FRAY_ADBG_MAX_UNITS)
				continue; /* not the battle's dist */
			r.loss_p[side][l] += fray_dist_p(d, i);
			r.mean[side] += (double)l * fray_dist_p(d, i);
		}
	return render(&r, sb);
}

FRAY_API fray_status fray_adbg_odds_report(const fray_adbg_odds_about *m, const fray_dist *d, fray_format form, char **out)
{
	if (!out)
		return FRAY_ERR_INPUT;
	*out = NULL;
	if (!m || !d || !m->scenario || !m->policy || fray_dist_fields(d) != 3)
		return FRAY_ERR_INPUT;
	strbuf sb = {0};
	fray_status st = frayi_adbg_odds_report(&sb, m, d, form);
	if (st != FRAY_OK)
		return st;
	return frayi_sb_give(&sb, NULL, out);
}
