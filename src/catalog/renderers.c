/* The one table of renderers: for each kind of result the catalogue
 * computes, its renderer in each fray_format (NULL: that result has no
 * such format, and asking for it is refused naming the format). A format
 * added to a result is a cell here and a function in its format's file. */
#include "result.h"

static const result_renderer table[RESULT_KIND_COUNT][FRAY_FORMAT_COUNT] = {
	[RESULT_ROLL] = {[FRAY_FORMAT_TEXT] = frayi_text_roll, [FRAY_FORMAT_JSON] = frayi_json_roll,
			 [FRAY_FORMAT_MARKDOWN] = frayi_markdown_result, [FRAY_FORMAT_CSV] = frayi_csv_result,
			 [FRAY_FORMAT_HTML] = frayi_html_result},
	[RESULT_ODDS] = {[FRAY_FORMAT_TEXT] = frayi_text_odds, [FRAY_FORMAT_JSON] = frayi_json_odds,
			 [FRAY_FORMAT_MARKDOWN] = frayi_markdown_result, [FRAY_FORMAT_CSV] = frayi_csv_result,
			 [FRAY_FORMAT_HTML] = frayi_html_result},
	[RESULT_SIMULATE] = {[FRAY_FORMAT_TEXT] = frayi_text_simulate, [FRAY_FORMAT_JSON] = frayi_json_simulate,
			     [FRAY_FORMAT_MARKDOWN] = frayi_markdown_result, [FRAY_FORMAT_CSV] = frayi_csv_result,
			     [FRAY_FORMAT_HTML] = frayi_html_result},
	/* a battle's reports: text and JSON so far (docs/design.md, issue 42) */
	[RESULT_BATTLE_ODDS] = {[FRAY_FORMAT_TEXT] = frayi_text_battle_odds,
				[FRAY_FORMAT_JSON] = frayi_json_battle_odds},
	[RESULT_BATTLE_SIM] = {[FRAY_FORMAT_TEXT] = frayi_text_battle_sim, [FRAY_FORMAT_JSON] = frayi_json_battle_sim},
};

result_renderer frayi_renderer(result_kind kind, fray_format f)
{
	return (unsigned)kind < RESULT_KIND_COUNT && (unsigned)f < FRAY_FORMAT_COUNT ? table[kind][f] : NULL;
}

void frayi_renderer_formats(result_kind kind, char *dst, size_t cap)
{
	textbuf t = text_on(dst, cap);
	for (unsigned f = 0; f < FRAY_FORMAT_COUNT; f++)
		if (frayi_renderer(kind, (fray_format)f))
			text_add(&t, "%s%s", t.len ? ", " : "", fray_format_name((fray_format)f));
}
