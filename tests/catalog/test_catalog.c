/* The catalogue's descriptors and the generic code that serves them: every
 * headline, side and exclusion names what its procedure has; inputs bound
 * by offset reach the rules (odds checked against the texts' own counts);
 * required and excludes are refused with the option named; and the
 * catalogue's memory goes through the context's allocator. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <cmocka.h>
#include <dirent.h>
#include <fray/fray.h>
#include "../test_util.h"
#include "../../src/catalog/catalog.h"
#include "../cli/run.h"

static const in_desc *input_of(const proc_desc *d, const char *name)
{
	for (size_t k = 0; name && k < d->nin; k++)
		if (strcmp(d->in[k].name, name) == 0)
			return &d->in[k];
	return NULL;
}

static const out_desc *field_of(const proc_desc *d, const char *name)
{
	for (size_t k = 0; name && k < d->nout; k++)
		if (strcmp(d->out[k].name, name) == 0)
			return &d->out[k];
	return NULL;
}

/* The page reads these: a headline on a field the procedure has, with a
 * test that suits its type; sides that are inputs of one kind each; an
 * excluded input that exists. */
static void every_descriptor_names_what_it_has(void **state)
{
	(void)state;
	for (size_t k = 0; k < frayi_catalog_nprocs(); k++) {
		const proc_desc *d = frayi_catalog_proc(k);
		const out_desc *f = field_of(d, d->headline.field);
		if (!f || !d->headline.test || !d->headline.says || !d->headline.says[0])
			fail_msg("%s: its headline names no outcome field of it", d->name);
		const char *test = d->headline.test;
		bool boolean = strcmp(f->type, "boolean") == 0;
		if (strcmp(test, "== true") == 0 || strcmp(test, "== false") == 0) {
			if (!boolean)
				fail_msg("%s: headline %s on a field of type %s", d->name, test, f->type);
		} else if (strcmp(test, "each") != 0) {
			char op[3];
			int n, used = 0;
			if (sscanf(test, "%2[=!<>] %d%n", op, &n, &used) != 2 || test[used] != '\0' ||
			    strcmp(f->type, "integer") != 0)
				fail_msg("%s: headline '%s' is not a comparison of an integer field", d->name, test);
		}
		for (const side_pair *p = d->sides; p && p->attacker; p++) {
			const in_desc *a = input_of(d, p->attacker), *b = input_of(d, p->defender);
			if (!a || !b || a->type != b->type || a == b)
				fail_msg("%s: sides %s/%s are not two inputs of one type", d->name, p->attacker,
					 p->defender ? p->defender : "(none)");
		}
		for (size_t i = 0; i < d->nin; i++) {
			const in_desc *in = &d->in[i];
			for (const char *const *e = in->excludes; e && *e; e++)
				if (!input_of(d, *e) || !in->why_excluded)
					fail_msg("%s: %s excludes %s, which it has not (or says no why)", d->name, in->name,
						 *e);
			/* a bound field lies inside the call's input storage */
			if (in->ctype != CT_NONE && (in->at + in->size > CALL_INPUT_BYTES || in->size == 0))
				fail_msg("%s: %s is bound outside the input struct", d->name, in->name);
		}
	}
}

/* What the page needs of every descriptor: a headline (its field checked
 * above), an example that is a JSON object, and sides or "no sides" said
 * on purpose, never both and never neither. */
static void every_descriptor_has_headline_example_and_sides(void **state)
{
	(void)state;
	for (size_t k = 0; k < frayi_catalog_nprocs(); k++) {
		const proc_desc *d = frayi_catalog_proc(k);
		if (!d->headline.field || !d->headline.says)
			fail_msg("%s: no headline", d->name);
		if (!d->example || d->example[0] != '{')
			fail_msg("%s: no example", d->name);
		bool has_sides = d->sides && d->sides[0].attacker;
		if (has_sides == d->no_sides)
			fail_msg("%s: %s", d->name, has_sides ? "sides and no_sides both" : "neither sides nor no_sides");
	}
}

/* The words of a command line as a shell splits them into words (blanks,
 * '...' quotes, a backslash before a newline joins the lines), copied into
 * words. */
static size_t shell_split(const char *r, char *words, char **argv, size_t cap)
{
	size_t n = 0;
	char *w = words;
	while (n < cap) {
		while (*r == ' ' || *r == '\n' || (*r == '\\' && r[1] == '\n'))
			r++;
		if (!*r)
			break;
		argv[n++] = w;
		while (*r && *r != ' ' && *r != '\n' && !(*r == '\\' && r[1] == '\n')) {
			if (*r != '\'') {
				*w++ = *r++;
				continue;
			}
			for (r++; *r && *r != '\'';)
				*w++ = *r++;
			r += *r == '\'';
		}
		*w++ = 0;
	}
	return n;
}

/* Each procedure's example as its --help shows it, a command line, runs
 * through the catalogue: every option it gives is one of the procedure's,
 * the values pass their checks, and the call runs in its first mode. */
static void every_example_runs_as_help_shows_it(void **state)
{
	(void)state;
	for (size_t k = 0; k < frayi_catalog_nprocs(); k++) {
		const proc_desc *d = frayi_catalog_proc(k);
		char *help = NULL;
		assert_int_equal(fray_procedure_help(ctx, d->name, &help), FRAY_OK);
		const char *ex = strstr(help, "\nExample");
		if (!ex)
			fail_msg("%s: its help shows no example", d->name);
		if (d->example_from && !strstr(ex, d->example_from))
			fail_msg("%s: its help does not say whose example it is", d->name);
		ex = strstr(ex, ":\n") + 2; /* past "Example (...):\n" */
		const char *stop = strstr(ex, "\n\n");
		char line[2048];
		snprintf(line, sizeof line, "%.*s", (int)(stop ? stop - ex : (ptrdiff_t)strlen(ex)), ex);
		char *argv[64], words[2048];
		size_t argc = shell_split(line, words, argv, 64);
		assert_true(argc >= 3);
		assert_string_equal(argv[0], "fray");
		fray_call *c = fray_call_new(ctx, d->command);
		assert_non_null(c);
		size_t a = 1;
		for (const char *w = d->command; w; w = strchr(w + 1, ' '))
			a++; /* past "fray adbg fire" */
		if (a < argc && strncmp(argv[a], "--", 2) != 0) { /* the input taken without its option */
			assert_true(fray_call_positional(c) >= 0);
			if (fray_call_set(c, (size_t)fray_call_positional(c), argv[a++]) != FRAY_OK)
				fail_msg("%s: %s", d->name, fray_ctx_message(ctx));
		}
		for (; a < argc; a++) {
			int i = fray_call_input_index(c, argv[a]);
			if (i < 0)
				fail_msg("%s: its example's %s is no option of it", d->name, argv[a]);
			const char *text = fray_call_is_flag(c, (size_t)i) ? NULL : a + 1 < argc ? argv[++a] : "";
			if (fray_call_set(c, (size_t)i, text) != FRAY_OK)
				fail_msg("%s: %s", d->name, fray_ctx_message(ctx));
		}
		fray_call_opts o = {.mode = d->modes & FRAY_MODE_ROLL ? FRAY_MODE_ROLL
					    : d->modes & FRAY_MODE_SIMULATE ? FRAY_MODE_SIMULATE : FRAY_MODE_ODDS,
				    .json = true, .have_seed = true, .seed = 1, .trials = 100};
		char *out = NULL;
		if (fray_call_run(c, &o, &out) != FRAY_OK)
			fail_msg("%s: its example does not run: %s", d->name, fray_ctx_message(ctx));
		free(out);
		fray_call_free(c);
		free(help);
	}
}

/* fray procedures --json says them (the page's only source). */
static void the_catalogue_json_says_headline_and_sides(void **state)
{
	(void)state;
	char *json = NULL;
	assert_int_equal(fray_procedures_json(ctx, &json), FRAY_OK);
	fray_doc *doc = NULL;
	assert_int_equal(fray_doc_load_string(ctx, "procedures", json, strlen(json), &doc), FRAY_OK);
	const fray_node *procs = fray_map_get(fray_doc_root(doc), "procedures");
	assert_int_equal(fray_node_len(procs), frayi_catalog_nprocs());
	for (size_t k = 0; k < fray_node_len(procs); k++) {
		const fray_node *p = fray_node_item(procs, k);
		const fray_node *h = fray_map_get(p, "headline");
		assert_non_null(fray_map_get(p, "example"));
		assert_non_null(fray_map_get(p, "sides"));
		assert_string_equal(fray_node_scalar(fray_map_get(h, "field")), frayi_catalog_proc(k)->headline.field);
	}
	/* one seen whole: the melee's sides, paired */
	const char *melee = strstr(json, "\"name\": \"adbg.melee\"");
	assert_non_null(melee);
	assert_non_null(strstr(melee, "\"headline\": {\"field\": \"defender_loss\", \"test\": \"!= 0\""));
	assert_non_null(strstr(melee, "\"sides\": [{\"attacker\": \"attack\", \"defender\": \"defend\"}, "
				      "{\"attacker\": \"attacker\", \"defender\": \"defender\"}"));
	assert_non_null(strstr(melee, "\"excludes\": [\"attacker\", \"defender\"]"));
	fray_doc_free(doc);
	free(json);
}

/* The member of the procedure named `proc` in fray procedures --json whose
 * list is `list` ("inputs", "outcome") and whose name is `name`. */
static const fray_node *described(const fray_node *procs, const char *proc, const char *list, const char *name)
{
	for (size_t k = 0; k < fray_node_len(procs); k++) {
		const fray_node *p = fray_node_item(procs, k);
		if (strcmp(fray_node_scalar(fray_map_get(p, "name")), proc) != 0)
			continue;
		const fray_node *l = fray_map_get(p, list);
		for (size_t j = 0; j < fray_node_len(l); j++)
			if (!strcmp(fray_node_scalar(fray_map_get(fray_node_item(l, j), "name")), name))
				return fray_node_item(l, j);
	}
	fail_msg("%s has no %s %s", proc, list, name);
	return NULL;
}

/* The page's pickers come from the data (issue 31): every weapon offered
 * for a shot is one Section 10 gives a Range (a shot with it runs), a
 * melee weapon is not offered; every policy offered runs a battle. Each
 * value a BBB assault and the initiative can end on has its words, and
 * the words say what the band means on the sheet (+4-6: the defender
 * loses a base and the attacker may take its place). */
static void the_page_gets_pickers_and_words_from_the_data(void **state)
{
	(void)state;
	char *json = NULL, req[512], *out = NULL;
	assert_int_equal(fray_procedures_json(ctx, &json), FRAY_OK);
	fray_doc *doc = NULL;
	assert_int_equal(fray_doc_load_string(ctx, "procedures", json, strlen(json), &doc), FRAY_OK);
	const fray_node *procs = fray_map_get(fray_doc_root(doc), "procedures");
	const fray_node *weapons = fray_map_get(described(procs, "presidio.shoot", "inputs", "weapon"), "choices");
	assert_true(fray_node_len(weapons) >= 10);
	bool musket = false;
	for (size_t k = 0; k < fray_node_len(weapons); k++) {
		const char *w = fray_node_scalar(fray_node_item(weapons, k));
		musket = musket || !strcmp(w, "flintlock musket");
		assert_string_not_equal(w, "fists");
		snprintf(req, sizeof req, "{\"procedure\": \"presidio.shoot\", \"mode\": \"roll\", \"seed\": 1, "
					  "\"inputs\": {\"weapon\": \"%s\", \"figures\": 4, \"band\": \"close\"}}", w);
		if (fray_request(ctx, req, &out) != FRAY_OK)
			fail_msg("%s: %s", w, fray_ctx_message(ctx));
		free(out);
	}
	assert_true(musket);
	const fray_node *policies = fray_map_get(described(procs, "adbg.battle", "inputs", "policy"), "choices");
	assert_int_equal(fray_node_len(policies), 2);
	for (size_t k = 0; k < fray_node_len(policies); k++) {
		snprintf(req, sizeof req, "{\"procedure\": \"adbg.battle\", \"mode\": \"roll\", \"seed\": 1, "
					  "\"inputs\": {\"scenario\": \"examples/adbg/lochry-1781.yaml\", \"policy\": \"%s\"}}",
			 fray_node_scalar(fray_node_item(policies, k)));
		if (fray_request(ctx, req, &out) != FRAY_OK)
			fail_msg("%s: %s", req, fray_ctx_message(ctx));
		free(out);
	}
	/* the sheet's seven bands (final difference +7 down to -7) and a side
	 * destroyed: each has words */
	static const char *const results[] = {"+7", "+4-6", "+1-3", "0", "-1-3", "-4-6", "-7",
					      "attacker destroyed", "defender destroyed", "both destroyed"};
	const fray_node *words = fray_map_get(described(procs, "bbb.assault", "outcome", "result"), "words");
	for (size_t k = 0; k < sizeof results / sizeof results[0]; k++)
		assert_non_null(fray_node_scalar(fray_map_get(words, results[k])));
	/* each band's words say what the sheet's Assault Table says it does
	 * (../shared/seeds/bbb-qrs.md): the bases lost, how far back, and the
	 * winner's choice; the sheet routs no one, and -1-3 moves the attacker */
	static const char *const sheet[][3] = {
		{"+7", "2 bases lost, back a full move", "the attacker must exploit"},
		{"+4-6", "a base lost, back 9\"", "the attacker may exploit or occupy"},
		{"+1-3", "the defender back 3\"", "the attacker takes the position"},
		{"0", "a base each", "they fight again"},
		{"-1-3", "back 3\"", "the attacker falls back"},
		{"-4-6", "a base lost, back 6\"", "the attacker"},
		{"-7", "2 bases lost, back a full move", "the attacker"}};
	for (size_t k = 0; k < sizeof sheet / sizeof sheet[0]; k++) {
		const char *w = fray_node_scalar(fray_map_get(words, sheet[k][0]));
		if (!strstr(w, sheet[k][1]) || !strstr(w, sheet[k][2]) || strstr(w, "rout"))
			fail_msg("%s: \"%s\" does not say \"%s\" and \"%s\" (the sheet routs no one)", sheet[k][0], w,
				 sheet[k][1], sheet[k][2]);
	}
	words = fray_map_get(described(procs, "presidio.initiative", "outcome", "first"), "words");
	assert_string_equal(fray_node_scalar(fray_map_get(words, "1")), "side 1 goes first");
	assert_string_equal(fray_node_scalar(fray_map_get(words, "2")), "side 2 goes first");
	fray_doc_free(doc);
	free(json);
}

/* A battle's odds that a simulation answers say why, in a word the page
 * reads: more paths than the budget, a policy that does not decide alike,
 * a budget of 0. */
static void battle_odds_say_why_they_simulate(void **state)
{
	(void)state;
	static const char *const cases[][2] = {
		{"\"budget\": 10", "{\"reason\": \"paths\", \"message\": \"more than 10 outcome paths"},
		{"\"policy\": \"random\"", "{\"reason\": \"policy\", \"message\": \"exact odds need a policy"},
		{"\"budget\": 0", "{\"reason\": \"asked\", \"message\": \"a budget of 0"}};
	for (size_t k = 0; k < 3; k++) {
		char req[512], *out = NULL;
		snprintf(req, sizeof req, "{\"procedure\": \"adbg.battle\", \"mode\": \"odds\", \"trials\": 200, "
					  "\"format\": \"json\", \"inputs\": {\"scenario\": \"examples/adbg/lochry-1781.yaml\", %s}}",
			 cases[k][0]);
		if (fray_request(ctx, req, &out) != FRAY_OK)
			fail_msg("%s: %s", req, fray_ctx_message(ctx));
		const char *at = strstr(out, "\"not_exact\": ");
		if (!at || strncmp(at + 13, cases[k][1], strlen(cases[k][1])) != 0)
			fail_msg("%s: %.300s", req, at ? at : out);
		free(out);
	}
}

/* The exact chance a request's odds give to the outcome whose JSON is
 * `outcome` ("\"recovered\": true"), as "n/d"; "0" when it has none. */
static void exact_of(const char *req, const char *outcome, char *out, size_t cap)
{
	char *json = NULL;
	if (fray_request(ctx, req, &json) != FRAY_OK)
		fail_msg("%s: %s", req, fray_ctx_message(ctx));
	char key[128];
	snprintf(key, sizeof key, "{\"outcome\": {%s}", outcome);
	const char *at = strstr(json, key);
	const char *ex = at ? strstr(at, "\"exact\": \"") : NULL;
	if (!ex)
		snprintf(out, cap, "0");
	else
		snprintf(out, cap, "%.*s", (int)strcspn(ex + 10, "\""), ex + 10);
	free(json);
}

static long gcd(long a, long b)
{
	return b ? gcd(b, a % b) : a;
}

static void fraction(long n, long d, char *out, size_t cap)
{
	long g = gcd(n, d);
	if (n == 0)
		snprintf(out, cap, "0");
	else if (n == d)
		snprintf(out, cap, "1");
	else
		snprintf(out, cap, "%ld/%ld", n / g, d / g);
}

/* ADBG 19.2.4: a side recovers a level when the die less a stacked
 * leader's rating is at most its level, and never on a 6. Counting the
 * faces checks that level and leader reach their fields (IN_FIELD). */
static void recover_inputs_reach_the_rule(void **state)
{
	(void)state;
	for (int level = 0; level <= 6; level++)
		for (int leader = 0; leader <= 3; leader++) {
			long faces = 0;
			for (int die = 1; die <= 5; die++)
				faces += die - leader <= level;
			char want[32], got[64], req[256];
			fraction(faces, 6, want, sizeof want);
			snprintf(req, sizeof req, "{\"procedure\": \"adbg.recover\", \"mode\": \"odds\", \"inputs\": "
						  "{\"level\": %d, \"leader\": %d}}", level, leader);
			exact_of(req, "\"recovered\": true", got, sizeof got);
			if (strcmp(got, want) != 0)
				fail_msg("level %d, leader %d: P(recovers) %s, the text counts %s", level, leader, got, want);
		}
}

/* ADBG 19.1: the initiative leader's rating in rounds, one more when the
 * other side tries and rolls strictly less than its own rating. */
static void rounds_inputs_reach_the_rule(void **state)
{
	(void)state;
	for (int ini = 1; ini <= 3; ini++)
		for (int other = 0; other <= 3; other++) { /* 0: no try */
			long more = 0;
			for (int die = 1; die <= 6; die++)
				more += other > 0 && die < other;
			char want[32], got[64], req[256], outcome[64];
			fraction(more, 6, want, sizeof want);
			if (other)
				snprintf(req, sizeof req, "{\"procedure\": \"adbg.rounds\", \"mode\": \"odds\", \"inputs\": "
							  "{\"initiative_rating\": %d, \"attempt\": true, \"other_rating\": %d}}",
					 ini, other);
			else
				snprintf(req, sizeof req, "{\"procedure\": \"adbg.rounds\", \"mode\": \"odds\", \"inputs\": "
							  "{\"initiative_rating\": %d}}", ini);
			snprintf(outcome, sizeof outcome, "\"rounds\": %d", ini + 1);
			exact_of(req, outcome, got, sizeof got);
			if (strcmp(got, want) != 0)
				fail_msg("initiative %d, other %d: P(%d rounds) %s, the text counts %s", ini, other, ini + 1,
					 got, want);
		}
}

static const char *refusal(const char *req)
{
	char *json = NULL;
	fray_status st = fray_request(ctx, req, &json);
	free(json);
	assert_int_equal(st, FRAY_ERR_INPUT);
	return fray_ctx_message(ctx);
}

/* Required and excludes, checked by the generic code from the descriptor,
 * name the inputs as a request names them, the list of every required one
 * too, with no command line in it (issue 42: the command line adds its
 * "see 'fray adbg fire --help'"). */
static void required_and_excludes_are_checked_from_the_descriptor(void **state)
{
	(void)state;
	static const struct {
		const char *req, *msg;
	} rows[] = {
		{"{\"procedure\": \"adbg.fire\", \"inputs\": {\"type\": \"militia\", \"terrain\": \"rough\"}}",
		 "missing type, cf or terrain"},
		{"{\"procedure\": \"adbg.melee\", \"inputs\": {\"attack\": 3, \"defend\": 2}}",
		 "missing crt FILE: the melee CRT is your game's table (an example: data/adbg/example-melee-crt.yaml)"},
		{"{\"procedure\": \"adbg.melee\", \"inputs\": {\"crt\": \"data/adbg/example-melee-crt.yaml\", "
		 "\"attack\": 3, \"defend\": 2, \"defender\": \"militia:2\"}}",
		 "attack and defender: give either the modified CFs or the units, not both"},
		{"{\"procedure\": \"chits.end_turn\", \"inputs\": {\"mix\": \"examples/chits/sample-mix.yaml\", "
		 "\"rally\": true, \"recover_disorder\": true, \"disordered\": true}}",
		 "rally and recover_disorder: Rally/Recover does not recover from disorder in the activation that rallies"},
		{"{\"procedure\": \"adbg.battle\", \"inputs\": {}}", "missing scenario FILE (see examples/adbg/)"},
		/* Presidio and BBB through the same code (issue 30, round 2): each
		 * missing input named by itself, with its own words */
		{"{\"procedure\": \"presidio.ram\", \"inputs\": {\"figures\": 4}}",
		 "missing animal NAME (horses, mules, cattle, donkeys, sheep, pigs, dogs, buffalo, chickens)"},
		{"{\"procedure\": \"presidio.ram\", \"inputs\": {\"animal\": \"cattle\"}}", "missing figures N"},
		{"{\"procedure\": \"bbb.assault\", \"inputs\": {\"attacker_bases\": 4}}", "missing defender_bases N"},
		{"{\"procedure\": \"presidio.morale\", \"inputs\": {\"level\": \"veteran\"}}",
		 "missing size team|squad|platoon|company"},
		{"{\"procedure\": \"presidio.into_melee\", \"inputs\": {\"hits\": 2, \"enemy\": 3}}",
		 "missing friends N (friendly figures in the melee)"},
		{"{\"procedure\": \"presidio.move\", \"inputs\": {\"charging\": true, \"running\": true}}",
		 "charging and running: charging moves at running speed already"},
		{"{\"procedure\": \"presidio.blast\", \"inputs\": {\"gun\": \"24# mortar\", \"zone\": \"radius\", "
		 "\"structure\": \"log house\", \"strength\": 3}}",
		 "structure and strength: both give the target: give one"},
		{"{\"procedure\": \"bbb.assault\", \"inputs\": {\"attacker_bases\": 4, \"defender_bases\": 3, "
		 "\"town\": true, \"fort\": true}}", "town and fort: the defender is in one"},
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
		assert_string_equal(refusal(rows[i].req), rows[i].msg);
}

/* Every procedure of the catalogue is served by the generic code (issue
 * 30): its inputs checked, bound and echoed from its descriptor, but those
 * whose bind still does it all, named here. */
static void every_procedure_is_generic(void **state)
{
	(void)state;
	/* presidio.melee was the last one bound by hand */
	for (size_t k = 0; k < frayi_catalog_nprocs() + frayi_catalog_nshows; k++) {
		const proc_desc *d = k < frayi_catalog_nprocs() ? frayi_catalog_proc(k)
							      : frayi_catalog_shows[k - frayi_catalog_nprocs()];
		if (!d->generic)
			fail_msg("%s: not generic", d->name);
	}
}

/* A procedure's other command finds it (the command line's "presidio
 * stampede"), and each command the list gives finds its own procedure. */
static void commands_find_their_procedure(void **state)
{
	(void)state;
	assert_string_equal(fray_procedure_find("presidio stampede"), "presidio ram");
	assert_string_equal(fray_procedure_find("presidio.ram"), "presidio ram");
	assert_null(fray_procedure_find("presidio stamped"));
	size_t n = 0;
	for (; fray_procedure_command(n); n++) {
		assert_string_equal(fray_procedure_find(fray_procedure_command(n)), fray_procedure_command(n));
		if (fray_procedure_also(n))
			assert_string_equal(fray_procedure_find(fray_procedure_also(n)), fray_procedure_command(n));
	}
	assert_int_equal(n, frayi_catalog_nprocs() + frayi_catalog_nshows); /* the procedures, then the listings */
}

/* The echo is the descriptor's inputs in order, each a value the request
 * could send again: an input without a value is left out. */
static void the_echo_is_written_from_the_descriptor(void **state)
{
	(void)state;
	char *json = NULL;
	assert_int_equal(fray_request(ctx, "{\"procedure\": \"adbg.rounds\", \"seed\": 1, \"inputs\": "
					   "{\"initiative_rating\": 2}}", &json), FRAY_OK);
	assert_non_null(strstr(json, "\"inputs\": {\"initiative_rating\": 2, \"attempt\": false}, \"seed\""));
	free(json);
	assert_int_equal(fray_request(ctx, "{\"procedure\": \"adbg.move\", \"seed\": 1, \"inputs\": "
					   "{\"terrain\": \"rough\", \"type\": \"rifle\", \"level\": 3}}", &json), FRAY_OK);
	assert_non_null(strstr(json, "\"inputs\": {\"level\": 3, \"type\": \"rifle\", \"terrain\": \"rough\", "
				     "\"leader\": 0, \"weather\": \"normal\", \"enemy_atop\": false, "
				     "\"surprise_winner_round1\": false, \"with_regulars\": false}"));
	free(json);
}

typedef struct failing {
	long left; /* allocations that succeed before the first failure */
	long count;
} failing;

static void *failing_alloc(void *ud, void *ptr, size_t size)
{
	failing *f = ud;
	if (size == 0) {
		free(ptr);
		return NULL;
	}
	if (f->left-- <= 0)
		return NULL;
	f->count++;
	return realloc(ptr, size);
}

/* The catalogue's paths: requests rendered in each way, the catalogue as
 * JSON, a help page. */
static const char *const paths[] = {
	("{\"procedure\": \"adbg.melee\", \"mode\": \"odds\", \"format\": \"text\", \"inputs\": {\"crt\": "
	 "\"data/adbg/example-melee-crt.yaml\", \"attacker\": \"warrior:3\", \"defender\": \"militia:2\", "
	 "\"terrain\": \"rough\"}}"),
	("{\"procedure\": \"chits.end_turn\", \"mode\": \"odds\", \"format\": \"text\", \"inputs\": {\"mix\": "
	 "\"examples/chits/sample-mix.yaml\", \"fatigue\": 2, \"hits\": \"2,1,0,0\", \"rally\": true}}"),
	"{\"procedure\": \"chits.combat\", \"seed\": 3, \"inputs\": {\"combat\": \"examples/chits/example-1.yaml\"}}",
	"{\"procedure\": \"adbg.rounds\", \"seed\": 2, \"format\": \"text\", \"inputs\": {\"initiative_rating\": 2}}",
	"procedures",
	"help",
};

/* Path i under an allocator that fails after n allocations: it fails
 * cleanly, with FRAY_ERR_NOMEM (ASan finds a leak), or succeeds; *count
 * gets the allocations made. */
static bool catalogue_path(size_t i, long n, long *count)
{
	failing f = {.left = n};
	fray_ctx *fc = fray_ctx_new(failing_alloc, &f);
	if (!fc)
		return false;
	char *out = NULL;
	fray_status st = strcmp(paths[i], "procedures") == 0 ? fray_procedures_json(fc, &out)
			 : strcmp(paths[i], "help") == 0	    ? fray_procedure_help(fc, "chits.combat", &out)
							    : fray_request(fc, paths[i], &out);
	if (st != FRAY_OK) {
		assert_null(out);
		if (st != FRAY_ERR_NOMEM)
			fail_msg("path %zu, allocation %ld refused: %s", i, n, fray_ctx_message(fc));
	}
	free(out);
	fray_ctx_free(fc);
	*count = f.count;
	return st == FRAY_OK;
}

static void the_catalogue_allocates_through_the_context(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++) {
		long count = 0, ignored;
		assert_true(catalogue_path(i, LONG_MAX, &count));
		/* every one of the first allocations refused, then a few hundred
		 * spread over the rest (every one would take minutes under ASan) */
		long stride = count / 256 + 1;
		for (long n = 0; n < count; n += n < 64 ? 1 : stride)
			if (catalogue_path(i, n, &ignored))
				fail_msg("path %zu: allocation %ld refused, yet it succeeded", i, n);
	}
	/* the catalogue as JSON and a help page are built in the context's
	 * memory: refused every allocation after the context's own, they fail */
	failing none = {.left = 1};
	fray_ctx *fc = fray_ctx_new(failing_alloc, &none);
	assert_non_null(fc);
	char *out = NULL;
	assert_int_equal(fray_procedures_json(fc, &out), FRAY_ERR_NOMEM);
	assert_null(out);
	assert_int_equal(fray_procedure_help(fc, "adbg.fire", &out), FRAY_ERR_NOMEM);
	fray_ctx_free(fc);
}

/* ---- dice.roll: a dice expression as a procedure ---- */

/* The odds dice.roll gives for expression, as p[total - lo] (totals lo
 * to hi). */
static void dice_odds(const char *expression, int64_t lo, int64_t hi, double *p)
{
	char req[256], *json = NULL;
	snprintf(req, sizeof req, "{\"procedure\": \"dice.roll\", \"mode\": \"odds\", \"inputs\": "
		 "{\"expression\": \"%s\"}}", expression);
	if (fray_request(ctx, req, &json) != FRAY_OK)
		fail_msg("%s: %s", expression, fray_ctx_message(ctx));
	fray_doc *doc = NULL;
	assert_int_equal(fray_doc_load_string(ctx, "odds", json, strlen(json), &doc), FRAY_OK);
	const fray_node *outs = fray_map_get(fray_doc_root(doc), "outcomes");
	for (int64_t t = lo; t <= hi; t++)
		p[t - lo] = 0;
	for (size_t i = 0; i < fray_node_len(outs); i++) {
		const fray_node *o = fray_node_item(outs, i);
		int64_t t = strtoll(fray_node_scalar(fray_map_get(fray_map_get(o, "outcome"), "total")), NULL, 10);
		assert_true(t >= lo && t <= hi);
		p[t - lo] = strtod(fray_node_scalar(fray_map_get(o, "p")), NULL);
	}
	fray_doc_free(doc);
	free(json);
}

/* The exact odds by counting faces: 3d6+2 over its 216 rolls; d6!, a 6
 * rolled once more and added (ruling R16): 1-5 at 1/6, 7-12 at 1/36. */
static void dice_roll_odds_are_the_faces_counted(void **state)
{
	(void)state;
	double p[32], want[32] = {0};
	for (int a = 1; a <= 6; a++)
		for (int b = 1; b <= 6; b++)
			for (int c = 1; c <= 6; c++)
				want[a + b + c + 2 - 5] += 1.0 / 216;
	dice_odds("3d6+2", 5, 20, p);
	for (int t = 5; t <= 20; t++)
		assert_float_equal(p[t - 5], want[t - 5], 1e-12);
	memset(want, 0, sizeof want);
	for (int a = 1; a <= 5; a++)
		want[a - 1] = 1.0 / 6;
	for (int b = 1; b <= 6; b++)
		want[6 + b - 1] = 1.0 / 36;
	dice_odds("d6!", 1, 12, p);
	for (int t = 1; t <= 12; t++)
		assert_float_equal(p[t - 1], want[t - 1], 1e-12);
	assert_float_equal(p[6 - 1], 0, 0); /* a 6 is never a total */
}

/* The bounds are explicit (50 dice, 100 sides in all), and a bad
 * expression is refused with its column, the option named. */
static void dice_roll_bounds_and_bad_expressions(void **state)
{
	(void)state;
	static const struct {
		const char *expr, *says; /* says NULL: runs */
	} cases[] = {
		{"50d100", NULL},
		{"25d6+25d6", NULL},
		{"51d6", "'51d6' rolls 51 dice: at most 50 in all"},
		{"25d6+26d6", "rolls 51 dice: at most 50 in all"},
		{"d101", "has dice of 101 sides: at most 100"},
		{"2d6+x", "option --expression: bad dice expression '2d6+x': column 5: expected"},
		{"2d", "column 3"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		fray_call *c = fray_call_new(ctx, "dice roll");
		assert_non_null(c);
		assert_int_equal(fray_call_set(c, 0, cases[i].expr), FRAY_OK);
		fray_status st = fray_call_check(c);
		if (!cases[i].says && st != FRAY_OK)
			fail_msg("%s: %s", cases[i].expr, fray_ctx_message(ctx));
		if (cases[i].says && (st != FRAY_ERR_INPUT || !strstr(fray_ctx_message(ctx), cases[i].says)))
			fail_msg("%s: got '%s'", cases[i].expr, fray_ctx_message(ctx));
		fray_call_free(c);
	}
	/* a roll's total lies in the expression's range, and is told */
	char *json = NULL;
	assert_int_equal(fray_request(ctx, "{\"procedure\": \"dice.roll\", \"seed\": 5, \"inputs\": "
				      "{\"expression\": \"4d6kh3\"}}", &json), FRAY_OK);
	const char *total = strstr(json, "\"total\": ");
	assert_non_null(total);
	long t = strtol(total + 9, NULL, 10);
	assert_true(t >= 3 && t <= 18);
	free(json);
}

/* Option structs carry their version (issue 42 item 4): 0 and the
 * header's version run; a newer one (a caller built against a later
 * header) is refused with a message, never read past what this library
 * knows. */
static void option_structs_carry_their_version(void **state)
{
	(void)state;
	unsigned versions[] = {0, FRAY_CALL_OPTS_VERSION, FRAY_CALL_OPTS_VERSION + 1};
	for (size_t v = 0; v < 3; v++) {
		fray_call *c = fray_call_new(ctx, "dice roll");
		assert_non_null(c);
		assert_int_equal(fray_call_set(c, 0, "2d6"), FRAY_OK);
		/* version 2 reads format, 0 and 1 read json: both ask for JSON */
		fray_call_opts o = {.version = versions[v], .mode = FRAY_MODE_ODDS, .json = true,
				    .format = FRAY_FORMAT_JSON};
		char *out = NULL;
		fray_status st = fray_call_run(c, &o, &out);
		if (v < 2) {
			assert_int_equal(st, FRAY_OK);
			assert_non_null(strstr(out, "\"exact\": \"1/36\""));
		} else {
			assert_int_equal(st, FRAY_ERR_INPUT);
			assert_null(out);
			assert_non_null(strstr(fray_ctx_message(ctx), "newer than this library's"));
		}
		free(out);
		fray_call_free(c);
	}
	const char *req = "{\"procedure\": \"dice.roll\", \"mode\": \"odds\", \"inputs\": {\"expression\": \"2d6\"}}";
	for (unsigned v = 0; v <= FRAY_REQUEST_OPTS_VERSION + 1; v++) {
		fray_request_opts ro = {.version = v};
		char *out = NULL;
		fray_status st = fray_request_with(ctx, req, &ro, &out);
		assert_int_equal(st, v <= FRAY_REQUEST_OPTS_VERSION ? FRAY_OK : FRAY_ERR_INPUT);
		assert_true((out != NULL) == (st == FRAY_OK));
		free(out);
	}
}

/* A repeated input group (bbb fire's --weapon CODE --bases N ...) is the
 * catalogue's: the groups join into the input's value, artillery counted
 * in units (BBB Fire Factors), and each misuse refused with the option. */
static void repeated_groups_join_into_their_input(void **state)
{
	(void)state;
	fray_call *c = fray_call_new(ctx, "bbb fire");
	assert_non_null(c);
	/* the option names are written into the caller's buffers (issue 42:
	 * no thread-local slot that a fifth call overwrites): each keeps its
	 * own, however many calls come after */
	char opt[5][FRAY_CALL_OPTION_MAX];
	assert_string_equal(fray_call_group_option(c, 0, 0, opt[0], sizeof opt[0]), "--weapon");
	assert_string_equal(fray_call_group_option(c, 0, 1, opt[1], sizeof opt[1]), "--bases");
	assert_string_equal(fray_call_group_option(c, 0, 2, opt[2], sizeof opt[2]), "--units");
	assert_null(fray_call_group_option(c, 0, 3, opt[3], sizeof opt[3]));
	assert_null(fray_call_group_option(c, 1, 0, opt[3], sizeof opt[3]));
	assert_null(fray_call_group_option(c, 0, 0, NULL, 0));
	for (size_t k = 0; k < fray_call_ninputs(c); k++)
		assert_non_null(fray_call_option(c, k, opt[3], sizeof opt[3]));
	assert_string_equal(opt[0], "--weapon");
	assert_string_equal(opt[1], "--bases");
	assert_string_equal(opt[2], "--units");
	/* a short buffer gets a cut name, never an overrun */
	assert_string_equal(fray_call_group_option(c, 0, 0, opt[4], 4), "--w");
	assert_int_equal(fray_call_group_add(c, 0, "--weapon", "rr"), FRAY_OK);
	assert_int_equal(fray_call_group_add(c, 0, "--bases", "4"), FRAY_OK);
	assert_int_equal(fray_call_group_add(c, 0, "--weapon", "SA"), FRAY_OK);
	assert_int_equal(fray_call_group_add(c, 0, "--units", "1"), FRAY_OK);
	assert_string_equal(c->v[0].s, "RR:4,SA:1");
	fray_call_free(c);
	static const struct {
		const char *opts[6], *says;
	} bad[] = {
		{{"--bases", "2"}, "--bases follows the --weapon it counts"},
		{{"--weapon", "RR", "--units", "2"}, "weapon RR counts bases: use --bases"},
		{{"--weapon", "SA", "--bases", "2"}, "weapon SA counts artillery units: use --units"},
		{{"--weapon", "XX"}, "unknown weapon 'XX' (the sheet's weapons: SM,"},
		{{"--weapon", "RR", "--bases", "0"}, "--bases expects a count from 1, got 0"},
		{{"--weapon", "RR", "--weapon", "SA"}, "weapon RR: missing --bases N"},
		{{"--weapon", "RR"}, "weapon RR: missing --bases N"}, /* left open: refused by the check */
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		c = fray_call_new(ctx, "bbb fire");
		fray_status st = FRAY_OK;
		for (size_t k = 0; bad[i].opts[k] && st == FRAY_OK; k += 2)
			st = fray_call_group_add(c, 0, bad[i].opts[k], bad[i].opts[k + 1]);
		if (st == FRAY_OK)
			st = fray_call_check(c);
		if (st != FRAY_ERR_INPUT || !strstr(fray_ctx_message(ctx), bad[i].says))
			fail_msg("case %zu: got '%s'", i, fray_ctx_message(ctx));
		fray_call_free(c);
	}
}

/* The listings run from their examples too, as text only: the ratio of
 * chit combat Example #1 (17 against 6: "2:1"), Presidio's victory
 * points (Section 8: a horse 25, a warrior 10). */
static void listings_show_their_text(void **state)
{
	(void)state;
	static const struct {
		const char *name, *says;
	} want[] = {{"chits.ratio", "2:1\n"}, {"presidio.victory", "victory points: 95\n"},
		    {"bbb.night", "1. Withdraw to cover"}, {"presidio.weapons", "Small arms (Presidio Section 10)"},
		    {"presidio.units", "Command skill by rank (Section 1):"}, {"bbb.table", "firepower 9, shift +0"}};
	assert_int_equal(frayi_catalog_nshows, sizeof want / sizeof want[0]);
	for (size_t k = 0; k < frayi_catalog_nshows; k++) {
		const proc_desc *d = frayi_catalog_shows[k];
		assert_int_equal(d->modes, FRAY_MODE_SHOW);
		char req[512], *out = NULL;
		snprintf(req, sizeof req, "{\"procedure\": \"%s\", \"format\": \"text\", \"inputs\": %s}", d->name,
			 d->example);
		if (fray_request(ctx, req, &out) != FRAY_OK)
			fail_msg("%s: %s", d->name, fray_ctx_message(ctx));
		const char *says = NULL;
		for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
			says = strcmp(want[i].name, d->name) == 0 ? want[i].says : says;
		if (!says || !strstr(out, says))
			fail_msg("%s: '%s' not in\n%s", d->name, says ? says : "(no case)", out);
		free(out);
		/* no JSON */
		snprintf(req, sizeof req, "{\"procedure\": \"%s\", \"inputs\": %s}", d->name, d->example);
		assert_int_equal(fray_request(ctx, req, &out), FRAY_ERR_INPUT);
		assert_non_null(strstr(fray_ctx_message(ctx), "no JSON"));
	}
}

/* presidio.leagues, a day's travel (Presidio Section 8, Campaign Pursuit):
 * its odds against the 36 faces of 2D6 counted here, +1 mounted, on the
 * Distance in Leagues table as the text prints it (pursuers 2 = 1 ... 11
 * = 10, 12 = 15; fugitives 2-4 rest, 5 = 1 ... 11 = 7, 12 = 12). */
static void leagues_odds_are_the_table_read_over_the_faces(void **state)
{
	(void)state;
	static const int pursuers[13] = {[2] = 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 15};
	static const int fugitives[13] = {[5] = 1, 2, 3, 4, 5, 6, 7, 12}; /* 2-4: rest (0) */
	for (int column = 0; column < 2; column++)
		for (int mounted = 0; mounted < 2; mounted++) {
			double want[16] = {0};
			for (int a = 1; a <= 6; a++)
				for (int b = 1; b <= 6; b++) {
					int roll = a + b + mounted > 12 ? 12 : a + b + mounted;
					want[column ? fugitives[roll] : pursuers[roll]] += 1.0 / 36;
				}
			char req[256], *json = NULL;
			snprintf(req, sizeof req, "{\"procedure\": \"presidio.leagues\", \"mode\": \"odds\", "
				 "\"inputs\": {\"column\": \"%s\", \"mounted\": %s}}", column ? "fugitives" : "pursuers",
				 mounted ? "true" : "false");
			if (fray_request(ctx, req, &json) != FRAY_OK)
				fail_msg("%s", fray_ctx_message(ctx));
			fray_doc *doc = NULL;
			assert_int_equal(fray_doc_load_string(ctx, "odds", json, strlen(json), &doc), FRAY_OK);
			const fray_node *outs = fray_map_get(fray_doc_root(doc), "outcomes");
			double got[16] = {0};
			for (size_t i = 0; i < fray_node_len(outs); i++) {
				const fray_node *o = fray_map_get(fray_node_item(outs, i), "outcome");
				long leagues = strtol(fray_node_scalar(fray_map_get(o, "leagues")), NULL, 10);
				assert_true(leagues >= 0 && leagues < 16);
				/* the fugitives rest exactly when they travel nothing */
				assert_string_equal(fray_node_scalar(fray_map_get(o, "resting")),
						    column && leagues == 0 ? "true" : "false");
				got[leagues] += strtod(fray_node_scalar(fray_map_get(fray_node_item(outs, i), "p")), NULL);
			}
			for (int l = 0; l < 16; l++)
				assert_float_equal(got[l], want[l], 1e-12);
			fray_doc_free(doc);
			free(json);
		}
}

/* No central registration: every descriptor defined under src/catalog/
 * (a `proc_desc frayi_..._desc = {"name", ...`) is in the catalogue, a
 * procedure in its list and a listing in the listings, and the catalogue
 * holds nothing else (nothing twice). The sources are read as text: a
 * descriptor left out of its file's list is found here even in a build
 * that lets the unused variable pass. */
static void every_descriptor_defined_is_in_the_catalogue(void **state)
{
	(void)state;
	DIR *dir = opendir(FRAY_SOURCE_DIR "/src/catalog");
	assert_non_null(dir);
	size_t defined = 0;
	for (struct dirent *e; (e = readdir(dir));) {
		size_t len = strlen(e->d_name);
		if (len < 3 || strcmp(e->d_name + len - 2, ".c") != 0)
			continue;
		char path[512], text[1 << 16];
		snprintf(path, sizeof path, "%s/src/catalog/%s", FRAY_SOURCE_DIR, e->d_name);
		FILE *f = fopen(path, "r");
		assert_non_null(f);
		size_t n = fread(text, 1, sizeof text - 1, f);
		assert_true(feof(f)); /* the whole file read */
		fclose(f);
		text[n] = '\0';
		for (const char *at = text; (at = strstr(at, "proc_desc frayi_")); at++) {
			const char *open = strstr(at, "_desc = {");
			if (!open || strcspn(at, ";") < (size_t)(open - at))
				continue; /* a declaration or a pointer, not a definition */
			const char *q = strchr(open, '"');
			assert_non_null(q);
			char name[64];
			size_t nlen = strcspn(q + 1, "\"");
			assert_true(nlen < sizeof name);
			memcpy(name, q + 1, nlen);
			name[nlen] = '\0';
			defined++;
			const proc_desc *d = frayi_catalog_find(name);
			if (!d || strcmp(d->name, name) != 0)
				fail_msg("%s: %s is defined but not in the catalogue (its file's list)", e->d_name, name);
			bool listed = false;
			for (size_t k = 0; frayi_catalog_proc(k); k++)
				listed |= frayi_catalog_proc(k) == d;
			if (listed != (d->modes != FRAY_MODE_SHOW))
				fail_msg("%s: %s %s", e->d_name, name, listed ? "is a listing among the procedures"
									       : "is a procedure missing from the procedures");
		}
	}
	closedir(dir);
	assert_int_equal(defined, frayi_catalog_nprocs() + frayi_catalog_nshows);
}

/* The catalogue's order: by rule set (ADBG, Presidio, BBB, chits, then
 * fray's own dice), each set's procedures together. */
static void the_catalogue_runs_by_rule_set(void **state)
{
	(void)state;
	static const char *const sets[] = {"adbg.", "presidio.", "bbb.", "chits.", "dice."};
	size_t set = 0;
	for (size_t k = 0; frayi_catalog_proc(k); k++) {
		const char *name = frayi_catalog_proc(k)->name;
		while (set < 5 && strncmp(name, sets[set], strlen(sets[set])) != 0)
			set++;
		if (set == 5)
			fail_msg("%s is out of the rule sets' order", name);
	}
}

/* presidio.tracking, a day's tracking (Presidio Section 8, Campaign
 * Pursuit, Tracking): 1d6 + Recon against 1d6 + Camou, the trail found on
 * equal or higher (docs/presidio.md); its odds against the 36 faces
 * counted here, for skills that never, sometimes and always find it. */
static void tracking_odds_are_the_faces_counted(void **state)
{
	(void)state;
	static const int recons[] = {-5, 0, 2, 10}, camous[] = {-5, 1, 3, 10};
	for (size_t i = 0; i < 4; i++)
		for (size_t j = 0; j < 4; j++) {
			int found = 0;
			for (int a = 1; a <= 6; a++)
				for (int b = 1; b <= 6; b++)
					found += a + recons[i] >= b + camous[j];
			char req[256], *json = NULL;
			snprintf(req, sizeof req, "{\"procedure\": \"presidio.tracking\", \"mode\": \"odds\", "
				 "\"inputs\": {\"recon\": %d, \"camou\": %d}}", recons[i], camous[j]);
			if (fray_request(ctx, req, &json) != FRAY_OK)
				fail_msg("%s", fray_ctx_message(ctx));
			fray_doc *doc = NULL;
			assert_int_equal(fray_doc_load_string(ctx, "odds", json, strlen(json), &doc), FRAY_OK);
			const fray_node *outs = fray_map_get(fray_doc_root(doc), "outcomes");
			double got = 0;
			for (size_t k = 0; k < fray_node_len(outs); k++) {
				const fray_node *o = fray_node_item(outs, k);
				if (strcmp(fray_node_scalar(fray_map_get(fray_map_get(o, "outcome"), "found")), "true") == 0)
					got += strtod(fray_node_scalar(fray_map_get(o, "p")), NULL);
			}
			if (fabs(got - found / 36.0) > 1e-12)
				fail_msg("recon %d, camou %d: P(found) %.15g, the faces say %d/36", recons[i], camous[j], got,
					 found);
			fray_doc_free(doc);
			free(json);
		}
}

/* BBB fire's result codes (the sheet's Firefight table: R, T, V, 1-3, and
 * none) each have words for the page, and every policy a chits combat
 * offers as a choice runs (issue 31). */
static void fire_results_have_words_and_offered_policies_run(void **state)
{
	(void)state;
	char *json = NULL, req[512], *out = NULL;
	assert_int_equal(fray_procedures_json(ctx, &json), FRAY_OK);
	fray_doc *doc = NULL;
	assert_int_equal(fray_doc_load_string(ctx, "procedures", json, strlen(json), &doc), FRAY_OK);
	const fray_node *procs = fray_map_get(fray_doc_root(doc), "procedures");
	const fray_node *words = fray_map_get(described(procs, "bbb.fire", "outcome", "result"), "words");
	for (size_t k = 0; k < sizeof fray_bbb_result_names / sizeof fray_bbb_result_names[0]; k++) {
		const char *w = fray_node_scalar(fray_map_get(words, fray_bbb_result_names[k]));
		if (!w || !w[0])
			fail_msg("bbb.fire: result %s has no words", fray_bbb_result_names[k]);
	}
	/* the sheet's 1: a base lost; its V: an advancing unit halts */
	assert_non_null(strstr(fray_node_scalar(fray_map_get(words, "1")), "a base lost"));
	assert_non_null(strstr(fray_node_scalar(fray_map_get(words, "V")), "halts"));
	const fray_node *policies = fray_map_get(described(procs, "chits.combat", "inputs", "policy"), "choices");
	if (fray_node_len(policies) < 2)
		fail_msg("chits.combat: its policy offers %zu choices", fray_node_len(policies));
	bool heuristic = false;
	for (size_t k = 0; k < fray_node_len(policies); k++) {
		const char *policy = fray_node_scalar(fray_node_item(policies, k));
		heuristic = heuristic || !strcmp(policy, "heuristic");
		snprintf(req, sizeof req, "{\"procedure\": \"chits.combat\", \"mode\": \"roll\", \"seed\": 3, "
					  "\"inputs\": {\"combat\": \"examples/chits/example-1.yaml\", \"policy\": \"%s\"}}",
			 policy);
		if (fray_request(ctx, req, &out) != FRAY_OK)
			fail_msg("%s: %s", req, fray_ctx_message(ctx));
		free(out);
	}
	assert_true(heuristic);
	fray_doc_free(doc);
	free(json);
}

/* P/Q + A/B in lowest terms, into sum (both below 2^63 here). */
static void add_fraction(const char *f, long long *n, long long *d)
{
	long long a = 0, b = 1;
	if (sscanf(f, "%lld/%lld", &a, &b) < 1 || b <= 0)
		fail_msg("'%s' is no fraction", f);
	*n = *n * b + a * *d;
	*d = *d * b;
	long long x = *n, y = *d;
	while (y) {
		long long t = x % y;
		x = y;
		y = t;
	}
	*n /= x;
	*d /= x;
}

/* A whole battle's exact odds: the summary's draw and each side's win
 * carry their exact fraction, each the sum of the outcomes' own fractions
 * with that winner (summed here), the three summing to 1 (issue 31). */
static void battle_summary_has_exact_fractions(void **state)
{
	(void)state;
	char *json = NULL;
	const char *req = "{\"procedure\": \"adbg.battle\", \"mode\": \"odds\", \"format\": \"json\", "
			  "\"inputs\": {\"scenario\": \"tests/data/adbg/one-round.yaml\"}}";
	if (fray_request(ctx, req, &json) != FRAY_OK)
		fail_msg("%s: %s", req, fray_ctx_message(ctx));
	fray_doc *doc = NULL;
	assert_int_equal(fray_doc_load_string(ctx, "odds", json, strlen(json), &doc), FRAY_OK);
	const fray_node *root = fray_doc_root(doc);
	assert_string_equal(fray_node_scalar(fray_map_get(root, "method")), "exact");
	const fray_node *sides = fray_map_get(root, "sides"), *outs = fray_map_get(root, "outcomes");
	const fray_node *summary = fray_map_get(root, "summary");
	long long all_n = 0, all_d = 1;
	for (int w = 0; w < 3; w++) { /* the draw, then each side's win */
		const char *name = w ? fray_node_scalar(fray_node_item(sides, (size_t)w - 1)) : NULL;
		long long n = 0, d = 1;
		for (size_t k = 0; k < fray_node_len(outs); k++) {
			const fray_node *o = fray_node_item(outs, k);
			const char *winner = fray_node_scalar(fray_map_get(fray_map_get(o, "outcome"), "winner"));
			bool draw = !winner || !strcmp(winner, "null") || !winner[0];
			if (w ? !draw && !strcmp(winner, name) : draw)
				add_fraction(fray_node_scalar(fray_map_get(o, "exact")), &n, &d);
		}
		const fray_node *chance = w ? fray_node_item(fray_map_get(summary, "wins"), (size_t)w - 1)
					    : fray_map_get(summary, "draw");
		const char *exact = fray_node_scalar(fray_map_get(chance, "exact"));
		char want[64];
		snprintf(want, sizeof want, d == 1 ? "%lld" : "%lld/%lld", n, d);
		if (!exact || strcmp(exact, want) != 0)
			fail_msg("summary %s: exact %s, the outcomes sum to %s", w ? name : "draw", exact ? exact : "(none)",
				 want);
		add_fraction(exact, &all_n, &all_d);
	}
	assert_true(all_n == 1 && all_d == 1);
	fray_doc_free(doc);
	free(json);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_descriptor_names_what_it_has),
		cmocka_unit_test(every_descriptor_defined_is_in_the_catalogue),
		cmocka_unit_test(the_catalogue_runs_by_rule_set),
		cmocka_unit_test(the_catalogue_json_says_headline_and_sides),
		cmocka_unit_test(the_page_gets_pickers_and_words_from_the_data),
		cmocka_unit_test(battle_odds_say_why_they_simulate),
		cmocka_unit_test(every_descriptor_has_headline_example_and_sides),
		cmocka_unit_test(every_example_runs_as_help_shows_it),
		cmocka_unit_test(dice_roll_odds_are_the_faces_counted),
		cmocka_unit_test(dice_roll_bounds_and_bad_expressions),
		cmocka_unit_test(repeated_groups_join_into_their_input),
		cmocka_unit_test(option_structs_carry_their_version),
		cmocka_unit_test(listings_show_their_text),
		cmocka_unit_test(leagues_odds_are_the_table_read_over_the_faces),
		cmocka_unit_test(tracking_odds_are_the_faces_counted),
		cmocka_unit_test(recover_inputs_reach_the_rule),
		cmocka_unit_test(rounds_inputs_reach_the_rule),
		cmocka_unit_test(required_and_excludes_are_checked_from_the_descriptor),
		cmocka_unit_test(every_procedure_is_generic),
		cmocka_unit_test(commands_find_their_procedure),
		cmocka_unit_test(the_echo_is_written_from_the_descriptor),
		cmocka_unit_test(the_catalogue_allocates_through_the_context),
		cmocka_unit_test(fire_results_have_words_and_offered_policies_run),
		cmocka_unit_test(battle_summary_has_exact_fractions),
	};
	return cmocka_run_group_tests(tests, setup_in_source, teardown);
}
