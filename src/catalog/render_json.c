/* A procedure's result as JSON in the common shape {"procedure", "inputs",
 * ...} (docs/library.md, docs/json/): the roll's events and outcome, every
 * outcome of the odds with its whole exact fraction, a simulation's
 * shares. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "result.h"

fray_status frayi_json_roll(const void *result, strbuf *sb)
{
	const call_result *r = result;
	frayi_sb_add(sb, "{\"procedure\": \"%s\", \"inputs\": %s, \"seed\": %" PRIu64, r->c->d->name,
		     r->c->inputs_json, r->seed);
	if (r->at_dice)
		frayi_sb_add(sb, ", \"dice\": %" PRIu64, r->dice);
	frayi_sb_add(sb, ", \"events\": [");
	narrator n = {.sb = sb, .form = FRAY_FORMAT_JSON, .first = true};
	for (size_t i = 0; i < r->events.n; i++)
		frayi_narrate(&n, &r->events.ev[i]);
	char res[1024];
	textbuf t = text_on(res, sizeof res);
	result_outcome(r, r->outcome, FRAY_FORMAT_JSON, &t);
	frayi_sb_add(sb, "%s], \"outcome\": {%s}}\n", r->events.n ? "\n  " : "", res);
	return FRAY_OK;
}

fray_status frayi_json_odds(const void *result, strbuf *sb)
{
	const call_result *r = result;
	const fray_dist *d = r->dist;
	char res[1024], num[40];
	frayi_sb_add(sb, "{\"procedure\": \"%s\", \"inputs\": %s, \"outcomes\": [", r->c->d->name, r->c->inputs_json);
	for (size_t i = 0; i < fray_dist_count(d); i++) {
		char *ex = frayi_exact_of(r->c->ctx, d, i);
		if (!ex)
			return frayi_nomem(r->c->ctx);
		textbuf t = text_on(res, sizeof res);
		result_outcome(r, fray_dist_outcome(d, i), FRAY_FORMAT_JSON, &t);
		fray_double_str(fray_dist_p(d, i), num, sizeof num);
		frayi_sb_add(sb, "%s\n  {\"outcome\": {%s}, \"p\": %s, \"exact\": \"%s\"}", i ? "," : "", res, num, ex);
		frayi_dealloc(r->c->ctx, ex);
	}
	fray_double_str(fray_dist_unresolved(d), num, sizeof num);
	frayi_sb_add(sb, "\n], \"unresolved\": %s}\n", num);
	return FRAY_OK;
}

fray_status frayi_json_simulate(const void *result, strbuf *sb)
{
	const call_result *r = result;
	char res[1024], num[40];
	frayi_sb_add(sb, "{\"procedure\": \"%s\", \"inputs\": %s, \"trials\": %" PRIu64 ", \"seed\": %" PRIu64
		     ", \"outcomes\": [", r->c->d->name, r->c->inputs_json, r->trials, r->seed);
	for (size_t i = 0; i < fray_dist_count(r->dist); i++) {
		textbuf t = text_on(res, sizeof res);
		result_outcome(r, fray_dist_outcome(r->dist, i), FRAY_FORMAT_JSON, &t);
		fray_double_str(fray_dist_p(r->dist, i), num, sizeof num);
		frayi_sb_add(sb, "%s\n  {\"outcome\": {%s}, \"p\": %s}", i ? "," : "", res, num);
	}
	frayi_sb_add(sb, "\n]");
	if (r->c->d->totals)
		r->c->d->totals(r->c, r->dist, FRAY_FORMAT_JSON, sb);
	frayi_sb_add(sb, "}\n");
	return FRAY_OK;
}
