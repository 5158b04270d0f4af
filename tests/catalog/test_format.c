/* The output format is one enum (issue 42 item 3): its names are the
 * command line's options and a request's "format"; every procedure renders
 * text and JSON through it in each of its modes, and refuses the formats
 * it has no renderer for with a message naming the format; fray_call_opts
 * of version 2 reads format, versions 0 and 1 still read json. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <fray/fray.h>
#include "../test_util.h"
#include "../../src/catalog/result.h"

/* The names as the brief and the command line's options say them
 * (--json, --markdown, --csv, --html; text is what no option gives),
 * written out here, not read from the library. */
static const struct {
	fray_format f;
	const char *name;
} expected[] = {
	{FRAY_FORMAT_TEXT, "text"}, {FRAY_FORMAT_JSON, "json"}, {FRAY_FORMAT_MARKDOWN, "markdown"},
	{FRAY_FORMAT_CSV, "csv"},   {FRAY_FORMAT_HTML, "html"},
};

static void names_and_parser_agree(void **state)
{
	(void)state;
	assert_int_equal(sizeof expected / sizeof *expected, FRAY_FORMAT_COUNT);
	for (size_t i = 0; i < FRAY_FORMAT_COUNT; i++) {
		assert_non_null(fray_format_name(expected[i].f));
		assert_string_equal(fray_format_name(expected[i].f), expected[i].name);
		fray_format got = (fray_format)-1;
		assert_int_equal(fray_format_parse(expected[i].name, &got), FRAY_OK);
		assert_int_equal(got, expected[i].f);
	}
	/* a bool json's callers: false is text, true JSON */
	assert_int_equal(FRAY_FORMAT_TEXT, false);
	assert_int_equal(FRAY_FORMAT_JSON, true);
	const char *bad[] = {"yaml", "JSON", "Text", "", "json ", "--json", "htm", NULL};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		fray_format got = FRAY_FORMAT_HTML;
		assert_int_equal(fray_format_parse(bad[i], &got), FRAY_ERR_INPUT);
		assert_int_equal(got, FRAY_FORMAT_HTML); /* untouched */
	}
	assert_null(fray_format_name((fray_format)FRAY_FORMAT_COUNT));
	assert_null(fray_format_name((fray_format)-1));
}

/* A request for procedure d's example in mode, in format (odds roll no
 * dice: no seed; only a simulation has trials). */
static fray_status ask(const proc_desc *d, const char *mode, const char *format, char **out)
{
	char req[8192];
	int n = snprintf(req, sizeof req,
			 "{\"procedure\": \"%s\", \"inputs\": %s, \"mode\": \"%s\"%s, \"format\": \"%s\"}",
			 d->name, d->example, mode,
			 !strcmp(mode, "simulate") ? ", \"seed\": 7, \"trials\": 50" : !strcmp(mode, "roll") ? ", \"seed\": 7" : "",
			 format);
	assert_true(n > 0 && (size_t)n < sizeof req);
	fray_request_opts ro = {.version = FRAY_REQUEST_OPTS_VERSION, .flags = FRAY_REQUEST_QUICK,
				.max_paths = 20000, .max_bytes = 64u << 20};
	*out = NULL;
	return fray_request_with(ctx, req, &ro, out);
}

/* Every procedure, in each mode it has, in every format: text and JSON
 * render (the JSON reads back as an object, the text is no JSON), the others are refused by name. */
static void every_procedure_renders_through_the_enum(void **state)
{
	(void)state;
	static const struct {
		unsigned mode;
		const char *name;
	} modes[] = {{FRAY_MODE_ROLL, "roll"}, {FRAY_MODE_ODDS, "odds"}, {FRAY_MODE_SIMULATE, "simulate"}};
	size_t rendered = 0;
	for (size_t k = 0; k < frayi_catalog_nprocs(); k++) {
		const proc_desc *d = frayi_catalog_proc(k);
		for (size_t m = 0; m < sizeof modes / sizeof *modes; m++) {
			if (!(d->modes & modes[m].mode))
				continue;
			char *text = NULL, *json = NULL;
			fray_status st_text = ask(d, modes[m].name, fray_format_name(FRAY_FORMAT_TEXT), &text);
			fray_status st_json = ask(d, modes[m].name, fray_format_name(FRAY_FORMAT_JSON), &json);
			if (st_text == FRAY_ERR_LIMIT || st_text == FRAY_ERR_BUDGET) {
				/* too big for a quick request: the same for both */
				assert_int_equal(st_json, st_text);
				continue;
			}
			if (st_text != FRAY_OK || st_json != FRAY_OK)
				fail_msg("%s %s: %s", d->name, modes[m].name, fray_ctx_message(ctx));
			assert_true(text[0] != '{');
			fray_doc *doc = NULL;
			if (fray_doc_load_string(ctx, "response", json, strlen(json), &doc) != FRAY_OK)
				fail_msg("%s %s: its JSON does not read: %s", d->name, modes[m].name, fray_ctx_message(ctx));
			const fray_node *root = fray_doc_root(doc);
			assert_int_equal(fray_node_kind_of(root), FRAY_NODE_MAP);
			/* the common shape names the procedure; a battle's own
			 * renderer has its own (docs/library.md) */
			const char *named = fray_node_scalar(fray_map_get(root, "procedure"));
			if (!d->render && (!named || strcmp(named, d->name) != 0))
				fail_msg("%s %s: its JSON names procedure %s", d->name, modes[m].name,
					 named ? named : "(none)");
			fray_doc_free(doc);
			free(text);
			free(json);
			rendered++;
			for (fray_format f = FRAY_FORMAT_MARKDOWN; f < FRAY_FORMAT_COUNT; f++) {
				char *out = NULL;
				assert_int_equal(ask(d, modes[m].name, fray_format_name(f), &out), FRAY_ERR_INPUT);
				assert_null(out);
				if (!strstr(fray_ctx_message(ctx), "format"))
					fail_msg("%s %s %s: refused as '%s'", d->name, modes[m].name, fray_format_name(f),
						 fray_ctx_message(ctx));
			}
		}
	}
	assert_true(rendered >= frayi_catalog_nprocs()); /* each rendered at least once */
}

/* fray_call_run under each version of its options: 2 reads format (json
 * left contrary, to show it is not read), 0 and 1 read json; the outputs
 * agree byte for byte; a format it has no renderer for is refused with its
 * name. */
static void call_options_read_format_by_version(void **state)
{
	(void)state;
	static const fray_mode mode[] = {FRAY_MODE_ROLL, FRAY_MODE_ODDS};
	for (size_t m = 0; m < 2; m++) {
		char *out[2][3] = {{NULL}};  /* [json][v0, v1, v2] */
		for (int js = 0; js < 2; js++) {
			unsigned versions[] = {0, 1, 2};
			for (size_t v = 0; v < 3; v++) {
				fray_call *c = fray_call_new(ctx, "dice roll");
				assert_non_null(c);
				assert_int_equal(fray_call_set(c, 0, "2d6"), FRAY_OK);
				fray_call_opts o = {.version = versions[v], .mode = mode[m], .have_seed = true, .seed = 5};
				if (versions[v] >= 2) {
					o.format = js ? FRAY_FORMAT_JSON : FRAY_FORMAT_TEXT;
					o.json = !js;
				} else {
					o.json = js;
				}
				if (fray_call_run(c, &o, &out[js][v]) != FRAY_OK)
					fail_msg("version %u: %s", versions[v], fray_ctx_message(ctx));
				fray_call_free(c);
			}
			assert_int_equal(out[js][0][0] == '{', js);
			assert_string_equal(out[js][0], out[js][1]);
			assert_string_equal(out[js][0], out[js][2]);
		}
		for (int js = 0; js < 2; js++)
			for (size_t v = 0; v < 3; v++)
				free(out[js][v]);
	}
	/* the formats of the renderers' table render through the options; a
	 * value past the enum is refused by name */
	for (fray_format f = FRAY_FORMAT_TEXT; f <= FRAY_FORMAT_COUNT; f++) {
		fray_call *c = fray_call_new(ctx, "dice roll");
		assert_int_equal(fray_call_set(c, 0, "2d6"), FRAY_OK);
		fray_call_opts o = {.version = 2, .mode = FRAY_MODE_ROLL, .format = f};
		char *got = NULL;
		if (f < FRAY_FORMAT_COUNT) {
			if (fray_call_run(c, &o, &got) != FRAY_OK)
				fail_msg("format %s: %s", fray_format_name(f), fray_ctx_message(ctx));
			assert_non_null(got);
			free(got);
			fray_call_free(c);
			continue;
		}
		assert_int_equal(fray_call_run(c, &o, &got), FRAY_ERR_INPUT);
		assert_null(got);
		if (!strstr(fray_ctx_message(ctx), "has no such format (formats: text, json, markdown, csv, html)"))
			fail_msg("format %d refused as '%s'", (int)f, fray_ctx_message(ctx));
		fray_call_free(c);
	}
	/* a procedure with a renderer of its own (a battle) has text and JSON */
	fray_call *c = fray_call_new(ctx, "adbg.battle");
	assert_non_null(c);
	assert_int_equal(fray_call_set(c, 0, "examples/adbg/blue-licks-1782.yaml"), FRAY_OK);
	fray_call_opts o = {.version = 2, .mode = FRAY_MODE_ODDS, .format = FRAY_FORMAT_CSV};
	char *got = NULL;
	assert_int_equal(fray_call_run(c, &o, &got), FRAY_ERR_INPUT);
	assert_null(got);
	if (!strstr(fray_ctx_message(ctx), "has no csv format (formats: text, json)"))
		fail_msg("a battle's csv refused as '%s'", fray_ctx_message(ctx));
	fray_call_free(c);
}

/* ---- one result, every format (issue 42 item 3): 2d6 computed once into
 * one struct, then each format's renderer from the table reads that same
 * struct. The numbers are counted here: 2d6 has 11 totals, 7 comes up on
 * 6 of the 36 faces (1/6, 16.667%); a roll of 2d6 tells two dice. ---- */

static char *render_in(const call_result *r, fray_format f)
{
	result_renderer render = frayi_renderer(r->kind, f);
	if (!render)
		fail_msg("kind %d has no renderer for %s in the table", (int)r->kind, fray_format_name(f));
	strbuf sb = {.ctx = ctx};
	assert_int_equal(render(r, &sb), FRAY_OK);
	char *out = NULL;
	assert_int_equal(frayi_sb_give(&sb, ctx, &out), FRAY_OK);
	assert_true(out && out[0]);
	return out;
}

static size_t count_of(const char *hay, const char *needle)
{
	size_t n = 0;
	for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

/* The lines of s that begin with what. */
static size_t lines_from(const char *s, const char *what)
{
	size_t n = 0;
	for (const char *p = s; p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		n += strncmp(p, what, strlen(what)) == 0;
	return n;
}

static void one_result_renders_in_every_format(void **state)
{
	(void)state;
	fray_call *c = fray_call_new(ctx, "dice roll");
	assert_non_null(c);
	assert_int_equal(fray_call_set(c, 0, "2d6"), FRAY_OK);
	assert_int_equal(fray_call_check(c), FRAY_OK);

	/* the odds, computed once */
	call_result odds = {.c = c, .kind = RESULT_ODDS};
	fray_enum_limits lim = c->limits;
	assert_int_equal(fray_enumerate(ctx, c->proc, NULL, c->input, c->nfields, &lim, &odds.dist), FRAY_OK);
	char *out[FRAY_FORMAT_COUNT];
	for (fray_format f = FRAY_FORMAT_TEXT; f < FRAY_FORMAT_COUNT; f++)
		out[f] = render_in(&odds, f);
	assert_non_null(strstr(out[FRAY_FORMAT_TEXT], "16.667%"));
	fray_doc *doc = NULL;
	assert_int_equal(fray_doc_load_string(ctx, "odds", out[FRAY_FORMAT_JSON], strlen(out[FRAY_FORMAT_JSON]), &doc),
			 FRAY_OK);
	assert_int_equal(fray_node_len(fray_map_get(fray_doc_root(doc), "outcomes")), 11);
	fray_doc_free(doc);
	assert_int_equal(count_of(out[FRAY_FORMAT_JSON], "\"exact\": \"1/6\""), 1);
	/* a header, its rule, a row a total */
	assert_int_equal(lines_from(out[FRAY_FORMAT_MARKDOWN], "|"), 2 + 11);
	assert_int_equal(count_of(out[FRAY_FORMAT_MARKDOWN], "| 16.667% | 1/6 |"), 1);
	assert_int_equal(count_of(out[FRAY_FORMAT_CSV], "\r\n"), 1 + 11);
	assert_int_equal(count_of(out[FRAY_FORMAT_CSV], "\"16.667%\",\"1/6\","), 1);
	assert_int_equal(count_of(out[FRAY_FORMAT_HTML], "<tr>"), 1 + 11);
	assert_int_equal(count_of(out[FRAY_FORMAT_HTML], "<td>1/6</td>"), 1);
	for (fray_format f = FRAY_FORMAT_TEXT; f < FRAY_FORMAT_COUNT; f++)
		for (fray_format g = f + 1; g < FRAY_FORMAT_COUNT; g++)
			assert_string_not_equal(out[f], out[g]);
	for (fray_format f = FRAY_FORMAT_TEXT; f < FRAY_FORMAT_COUNT; f++)
		free(out[f]);
	fray_dist_free(odds.dist);

	/* a roll, rolled once: its events kept and told in each format */
	call_result roll = {.c = c, .kind = RESULT_ROLL, .seed = 9, .have_seed = true};
	roll.events.ctx = ctx;
	fray_roller *r = fray_roller_sample_new(ctx, 9, 0);
	assert_non_null(r);
	fray_roller_set_sink(r, frayi_tape_keep, &roll.events);
	assert_int_equal(fray_run(r, c->proc, NULL, c->input, roll.outcome), FRAY_OK);
	fray_roller_free(r);
	assert_false(roll.events.failed);
	assert_true(roll.events.n >= 2);
	for (fray_format f = FRAY_FORMAT_TEXT; f < FRAY_FORMAT_COUNT; f++)
		out[f] = render_in(&roll, f);
	assert_int_equal(count_of(out[FRAY_FORMAT_JSON], "{\"event\": "), roll.events.n);
	assert_int_equal(lines_from(out[FRAY_FORMAT_MARKDOWN], "|"), 2 + roll.events.n + 1);
	assert_int_equal(count_of(out[FRAY_FORMAT_CSV], "\r\n"), 1 + roll.events.n + 1);
	assert_int_equal(count_of(out[FRAY_FORMAT_HTML], "<tr>"), 1 + roll.events.n + 1);
	for (fray_format f = FRAY_FORMAT_TEXT; f < FRAY_FORMAT_COUNT; f++)
		free(out[f]);
	frayi_tape_free(&roll.events);
	fray_call_free(c);

	/* every kind of the table has text and JSON; a procedure's results
	 * have every format */
	for (int k = 0; k < RESULT_KIND_COUNT; k++)
		for (fray_format f = FRAY_FORMAT_TEXT; f < FRAY_FORMAT_COUNT; f++)
			if ((f <= FRAY_FORMAT_JSON || k <= RESULT_SIMULATE) && !frayi_renderer((result_kind)k, f))
				fail_msg("kind %d has no %s renderer", k, fray_format_name(f));
	assert_null(frayi_renderer(RESULT_KIND_COUNT, FRAY_FORMAT_TEXT));
	assert_null(frayi_renderer(RESULT_ROLL, FRAY_FORMAT_COUNT));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(names_and_parser_agree),
		cmocka_unit_test(call_options_read_format_by_version),
		cmocka_unit_test(every_procedure_renders_through_the_enum),
		cmocka_unit_test(one_result_renders_in_every_format),
	};
	return cmocka_run_group_tests(tests, setup_in_source, teardown);
}
