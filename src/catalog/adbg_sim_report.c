/* A battle simulation's result as text or JSON: the one renderer for `fray
 * adbg simulate`, `fray merge` and a request's "simulate" of adbg.battle. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "result.h"

static const struct {
	const char *key, *words;
} stats[FRAY_ADBG_SIM_PER_SIDE] = {
	[FRAY_ADBG_SIM_ELIMINATED] = {"eliminated", "units eliminated"},
	[FRAY_ADBG_SIM_ROUTED] = {"routed", "units routed"},
	[FRAY_ADBG_SIM_DISRUPTED] = {"disrupted", "units disrupted"},
	[FRAY_ADBG_SIM_LEADERS_LOST] = {"leaders_lost", "leaders lost"},
	[FRAY_ADBG_SIM_LOSSES] = {"losses", "losses (after the routed roll)"},
	[FRAY_ADBG_SIM_STANDING] = {"standing", "in good order at the end"},
};

static int top_value(const fray_sim *s, size_t f)
{
	int top = 0;
	for (int v = 0; v <= FRAY_SIM_MAX_VALUE; v++)
		if (fray_sim_count(s, f, v))
			top = v;
	return top;
}

static double share(uint64_t k, uint64_t n)
{
	return n ? (double)k / (double)n : 0;
}

/* A field's distribution as a small bar chart: one block per value from
 * 0, as tall as its share against the commonest value. */
static void spark(strbuf *sb, const fray_sim *s, size_t f)
{
	static const char *const blocks[] = {" ", "\u2581", "\u2582", "\u2583", "\u2584",
					     "\u2585", "\u2586", "\u2587", "\u2588"};
	int top = top_value(s, f);
	uint64_t most = 0;
	for (int v = 0; v <= top; v++)
		if (fray_sim_count(s, f, v) > most)
			most = fray_sim_count(s, f, v);
	frayi_sb_add(sb, "0");
	for (int v = 0; v <= top && v < 40; v++) {
		int h = most ? (int)((8 * fray_sim_count(s, f, v) + most - 1) / most) : 0;
		frayi_sb_add(sb, "%s", blocks[h]);
	}
	frayi_sb_add(sb, "%d", top);
}

static void json_dist(strbuf *sb, const fray_sim *s, size_t f)
{
	char num[40];
	fray_double_str(fray_sim_mean(s, f), num, sizeof num);
	frayi_sb_add(sb, "{\"mean\": %s, \"p\": [", num);
	for (int v = 0, top = top_value(s, f); v <= top; v++) {
		fray_double_str(share(fray_sim_count(s, f, v), fray_sim_trials(s)), num, sizeof num);
		frayi_sb_add(sb, "%s%s", v ? ", " : "", num);
	}
	frayi_sb_add(sb, "]}");
}

static void json_rate(strbuf *sb, uint64_t k, uint64_t n)
{
	char text[160];
	fray_rate_str(k, n, FRAY_RATE_JSON, text, sizeof text);
	frayi_sb_add(sb, "%s", text);
}

fray_status frayi_json_battle_sim(const void *result, strbuf *sb)
{
	const fray_adbg_sim_about *m = ((const battle_sim_result *)result)->about;
	const fray_sim *s = ((const battle_sim_result *)result)->sim;
	frayi_sb_add(sb, "{\"scenario\": ");
	frayi_sb_json(sb, m->scenario);
	frayi_sb_add(sb, ", \"policy\": ");
	frayi_sb_json(sb, m->policy);
	frayi_sb_add(sb, ", \"seed\": %" PRIu64 ", \"trials\": %" PRIu64 ", \"counted\": %" PRIu64 ", \"partial\": ",
			m->seed,
	       m->trials, fray_sim_trials(s));
	if (m->partial)
		frayi_sb_json(sb, m->partial);
	else
		frayi_sb_add(sb, "false");
	frayi_sb_add(sb, ",\n \"draw\": ");
	json_rate(sb, fray_sim_count(s, FRAY_ADBG_SIM_WINNER, 0), fray_sim_trials(s));
	frayi_sb_add(sb, ",\n \"rounds\": ");
	json_dist(sb, s, FRAY_ADBG_SIM_ROUNDS);
	frayi_sb_add(sb, ",\n \"sides\": [");
	for (int side = 0; side < 2; side++) {
		frayi_sb_add(sb, "%s\n  {\"name\": ", side ? "," : "");
		frayi_sb_json(sb, m->side[side]);
		frayi_sb_add(sb, ", \"win\": ");
		json_rate(sb, fray_sim_count(s, FRAY_ADBG_SIM_WINNER, side + 1), fray_sim_trials(s));
		for (int k = 0; k < FRAY_ADBG_SIM_PER_SIDE; k++) {
			frayi_sb_add(sb, ",\n   \"%s\": ", stats[k].key);
			json_dist(sb, s, FRAY_ADBG_SIM_SIDE + (size_t)(side * FRAY_ADBG_SIM_PER_SIDE + k));
		}
		frayi_sb_add(sb, "}");
	}
	frayi_sb_add(sb, "]}\n");
	return FRAY_OK;
}

/* A name escaped for a terminal, then cut to width bytes (as %-W.Ws). */
static void cell(strbuf *sb, const char *name, int width)
{
	strbuf one = {.ctx = sb->ctx};
	frayi_sb_escaped(&one, name);
	frayi_sb_add(sb, "%-*.*s", width, width, one.buf ? one.buf : "");
	frayi_sb_free(&one);
}

fray_status frayi_text_battle_sim(const void *result, strbuf *sb)
{
	const fray_adbg_sim_about *m = ((const battle_sim_result *)result)->about;
	const fray_sim *s = ((const battle_sim_result *)result)->sim;
	frayi_sb_escaped(sb, m->scenario);
	frayi_sb_add(sb, ": %" PRIu64 " battles simulated (seed %" PRIu64 ", policy ", fray_sim_trials(s), m->seed);
	frayi_sb_escaped(sb, m->policy);
	frayi_sb_add(sb, ")\n");
	if (m->partial)
		frayi_sb_add(sb, "PARTIAL: %s; %" PRIu64 " of %" PRIu64 " battles counted\n", m->partial,
				fray_sim_trials(s), m->trials);
	frayi_sb_add(sb, "\n  %-32s %7s   %s\n", "", "wins", "95% interval");
	for (int w = 1; w <= 3; w++) {
		uint64_t k = fray_sim_count(s, FRAY_ADBG_SIM_WINNER, w % 3);
		double lo, hi, p = share(k, fray_sim_trials(s));
		fray_wilson95(k, fray_sim_trials(s), &lo, &hi);
		frayi_sb_add(sb, "  ");
		cell(sb, w < 3 ? m->side[w - 1] : "draw", 32);
		frayi_sb_add(sb, " %6.2f%%   %6.2f%% - %6.2f%%  ", 100 * p, 100 * lo, 100 * hi);
		for (int i = 0; i < (int)(p * 40 + 0.5); i++)
			frayi_sb_add(sb, "\u2588");
		frayi_sb_add(sb, "\n");
	}
	frayi_sb_add(sb, "\n  %-26s ", "mean per battle (0..max)");
	cell(sb, m->side[0], 22);
	frayi_sb_add(sb, "   ");
	cell(sb, m->side[1], 22);
	frayi_sb_add(sb, "\n");
	for (int k = 0; k < FRAY_ADBG_SIM_PER_SIDE; k++) {
		frayi_sb_add(sb, "  %-26s", stats[k].words);
		for (int side = 0; side < 2; side++) {
			size_t f = FRAY_ADBG_SIM_SIDE + (size_t)(side * FRAY_ADBG_SIM_PER_SIDE + k);
			frayi_sb_add(sb, " %5.2f  ", fray_sim_mean(s, f));
			spark(sb, s, f);
			frayi_sb_add(sb, "%*s", top_value(s, f) < 10 ? 14 - top_value(s, f) : 1, "");
		}
		frayi_sb_add(sb, "\n");
	}
	frayi_sb_add(sb, "  %-26s %5.2f  ", "rounds fought", fray_sim_mean(s, FRAY_ADBG_SIM_ROUNDS));
	spark(sb, s, FRAY_ADBG_SIM_ROUNDS);
	frayi_sb_add(sb, "\n");
	return FRAY_OK;
}

/* FRAY_OK, or FRAY_ERR_INPUT for a format the table has no renderer of. */
fray_status frayi_adbg_sim_report(strbuf *sb, const fray_adbg_sim_about *m, const fray_sim *s, fray_format form)
{
	result_renderer render = frayi_renderer(RESULT_BATTLE_SIM, form);
	battle_sim_result r = {.about = m, .sim = s};
	return render ? render(&r, sb) : FRAY_ERR_INPUT;
}

FRAY_API fray_status fray_adbg_sim_report(const fray_adbg_sim_about *m, const fray_sim *s, fray_format form, char **out)
{
	if (!out)
		return FRAY_ERR_INPUT;
	*out = NULL;
	if (!m || !s || !m->scenario || !m->policy || !m->side[0] || !m->side[1])
		return FRAY_ERR_INPUT;
	strbuf sb = {0};
	fray_status st = frayi_adbg_sim_report(&sb, m, s, form);
	if (st != FRAY_OK)
		return st;
	return frayi_sb_give(&sb, NULL, out);
}
