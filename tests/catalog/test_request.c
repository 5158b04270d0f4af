/* The catalogue and fray_request: every procedure runs in each mode it
 * declares with its example inputs; malformed requests are refused with a
 * status and a message, never a crash; a valid request gives byte for
 * byte what the command line prints with --json. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <fray/fray.h>
#include "../test_util.h"
#include "../../src/catalog/catalog.h"
#include "../cli/run.h"

static char *request(const char *fmt, ...)
{
	static char text[8192];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(text, sizeof text, fmt, ap);
	va_end(ap);
	char *out = NULL;
	fray_status st = fray_request(ctx, text, &out);
	if (st != FRAY_OK) {
		print_error("%s: %s\n", text, fray_ctx_message(ctx));
		assert_null(out);
	}
	return out;
}

static void every_procedure_runs_in_its_modes(void **state)
{
	(void)state;
	assert_true(frayi_catalog_nprocs() > 0);
	for (size_t k = 0; k < frayi_catalog_nprocs(); k++) {
		const proc_desc *d = frayi_catalog_proc(k);
		assert_non_null(d->example);
		assert_true(d->nin <= CALL_MAX_INPUTS); /* a call holds this many values */
		char head[128];
		snprintf(head, sizeof head, "{\"procedure\": \"%s\", \"inputs\": ", d->name);
		assert_true(d->modes != 0);
		if (d->modes & FRAY_MODE_ROLL) {
			char *out = request("{\"procedure\": \"%s\", \"mode\": \"roll\", \"seed\": 7, \"inputs\": %s}",
					    d->name, d->example);
			assert_non_null(out);
			/* a whole battle has a shape of its own (adbg-battle) */
			if (!d->render) {
				assert_memory_equal(out, head, strlen(head));
				assert_non_null(strstr(out, "\"outcome\": {"));
			}
			free(out);
		}
		if (d->modes & FRAY_MODE_ODDS) {
			/* a battle's odds may fall back to a short simulation */
			char *out = request("{\"procedure\": \"%s\", \"mode\": \"odds\", %s\"inputs\": %s}", d->name,
					    d->odds_may_simulate ? "\"trials\": 500, " : "", d->example);
			assert_non_null(out);
			/* advice has a shape of its own (chits-advise) */
			if (strcmp(d->name, "chits.advise") != 0) {
				assert_memory_equal(out, head, strlen(head));
				assert_non_null(strstr(out, "\"unresolved\": "));
			}
			free(out);
		}
		if (d->modes & FRAY_MODE_SIMULATE) {
			char *out = request("{\"procedure\": \"%s\", \"mode\": \"simulate\", \"trials\": 500, "
					    "\"seed\": 7, \"inputs\": %s}", d->name, d->example);
			assert_non_null(out);
			assert_non_null(strstr(out, "\"trials\": 500"));
			free(out);
		}
		/* its help renders, naming every option */
		char *help = NULL;
		assert_int_equal(fray_procedure_help(ctx, d->name, &help), FRAY_OK);
		for (size_t i = 0; i < d->nin; i++) {
			char opt[72];
			snprintf(opt, sizeof opt, "--%s", d->in[i].name);
			for (char *q = opt; *q; q++)
				*q = *q == '_' ? '-' : *q;
			assert_non_null(strstr(help, opt));
		}
		free(help);
		/* every input is described: a type, help and a rule */
		for (size_t i = 0; i < d->nin; i++) {
			assert_non_null(d->in[i].help);
			assert_non_null(d->in[i].rule);
			if (d->in[i].type == IN_CHOICE)
				assert_true(d->in[i].nchoices > 0);
		}
	}
}

/* Each refused: a status, a message, no response. */
static void malformed_requests_are_refused(void **state)
{
	(void)state;
	static const char *const bad[] = {
		"",
		"   ",
		"{",
		"{\"procedure\": \"adbg.fire\", \"inputs\": {\"type\": \"regular\"",
		"[]",
		"42",
		"\"adbg.fire\"",
		"null",
		"{}",
		"{\"procedure\": 3}",
		"{\"procedure\": \"adbg.nothing\"}",
		"{\"procedure\": \"\"}",
		"{\"procedure\": \"adbg.fire\", \"mode\": \"simulate\"}",
		"{\"procedure\": \"adbg.fire\", \"mode\": 1}",
		"{\"procedure\": \"adbg.fire\", \"extra\": 1}",
		"{\"procedure\": \"adbg.fire\", \"inputs\": []}",
		"{\"procedure\": \"adbg.fire\", \"inputs\": \"cf=3\"}",
		"{\"procedure\": \"adbg.fire\", \"inputs\": {\"cf\": \"3\", \"type\": \"regular\", \"terrain\": \"rough\"}}",
		"{\"procedure\": \"adbg.fire\", \"inputs\": {\"cf\": 3.0, \"type\": \"regular\", \"terrain\": \"rough\"}}",
		"{\"procedure\": \"adbg.fire\", \"inputs\": {\"cf\": 1e1, \"type\": \"regular\", \"terrain\": \"rough\"}}",
		"{\"procedure\": \"adbg.fire\", \"inputs\": {\"cf\": -1, \"type\": \"regular\", \"terrain\": \"rough\"}}",
		"{\"procedure\": \"adbg.fire\", \"inputs\": {\"cf\": 99999999999999999999999999, \"type\": \"regular\", "
		"\"terrain\": \"rough\"}}",
		"{\"procedure\": \"adbg.fire\", \"inputs\": {\"cf\": true, \"type\": \"regular\", \"terrain\": \"rough\"}}",
		"{\"procedure\": \"adbg.fire\", \"inputs\": {\"cf\": null, \"type\": \"regular\", \"terrain\": \"rough\"}}",
		"{\"procedure\": \"adbg.fire\", \"inputs\": {\"cf\": [3], \"type\": \"regular\", \"terrain\": \"rough\"}}",
		"{\"procedure\": \"adbg.fire\", \"inputs\": {\"cf\": 3, \"type\": 1, \"terrain\": \"rough\"}}",
		"{\"procedure\": \"adbg.fire\", \"inputs\": {\"cf\": 3, \"type\": \"wizard\", \"terrain\": \"rough\"}}",
		"{\"procedure\": \"adbg.fire\", \"inputs\": {\"cf\": 3, \"type\": \"regular\"}}",
		"{\"procedure\": \"adbg.fire\", \"inputs\": {\"cf\": 3, \"cf\": 4, \"type\": \"regular\", \"terrain\": \"rough\"}}",
		"{\"procedure\": \"adbg.fire\", \"inputs\": {\"kf\": 3}}",
		"{\"procedure\": \"adbg.move\", \"inputs\": {\"level\": 3, \"type\": \"militia\", \"terrain\": \"rough\", "
		"\"enemy_atop\": 1}}",
		"{\"procedure\": \"adbg.move\", \"inputs\": {\"level\": 3, \"type\": \"militia\", \"terrain\": \"rough\", "
		"\"enemy_atop\": \"true\"}}",
		"{\"procedure\": \"adbg.move\", \"inputs\": {\"level\": 3, \"type\": \"militia\", \"terrain\": \"rough\", "
		"\"surprise_winner_round1\": true}}",
		"{\"procedure\": \"adbg.fire\", \"mode\": \"odds\", \"seed\": 4, \"inputs\": {\"cf\": 3, \"type\": "
		"\"regular\", \"terrain\": \"rough\"}}",
		"{\"procedure\": \"adbg.fire\", \"seed\": -4, \"inputs\": {\"cf\": 3, \"type\": \"regular\", \"terrain\": "
		"\"rough\"}}",
		"{\"procedure\": \"adbg.fire\", \"seed\": 18446744073709551616, \"inputs\": {\"cf\": 3, \"type\": "
		"\"regular\", \"terrain\": \"rough\"}}",
		"{\"procedure\": \"adbg.fire\", \"seed\": \"4\"}",
		/* conflicts the text rules out, refused rather than resolved silently */
		"{\"procedure\": \"presidio.sentry\", \"inputs\": {\"kneeling\": true, \"prone\": true}}",
		"{\"procedure\": \"presidio.sentry\", \"inputs\": {\"platoon\": true, \"company\": true}}",
		"{\"procedure\": \"presidio.capture\", \"inputs\": {\"animal\": \"horses\", \"defender_skill\": 1}}",
		"{\"procedure\": \"presidio.blast\", \"inputs\": {\"gun\": \"24# mortar\", \"zone\": \"radius\", "
		"\"structure\": \"log house\", \"strength\": 3}}",
		"{\"procedure\": \"presidio.radius\", \"inputs\": {\"outside\": 3, \"armor\": 1}}",
		"{\"procedure\": \"presidio.radius\", \"inputs\": {\"outside\": 3, \"damage\": 4, \"gun\": \"24# mortar\"}}",
		"{\"procedure\": \"presidio.move\", \"inputs\": {\"running\": true, \"charging\": true}}",
		"{\"procedure\": \"presidio.morale\", \"inputs\": {\"level\": \"average\", \"size\": \"squad\", "
		"\"charging\": true, \"charged\": true}}",
		"{\"procedure\": \"presidio.morale\", \"inputs\": {\"level\": \"average\", \"size\": \"squad\", "
		"\"cover\": \"complete\"}}",
		"{\"procedure\": \"presidio.entrance\", \"inputs\": {\"points\": 7}}",
		"{\"procedure\": \"presidio.entrance\", \"inputs\": {\"points\": 1}}",
		"{\"procedure\": \"adbg.battle\", \"inputs\": {\"scenario\": \"examples/adbg/lochry-1781.yaml\", "
		"\"policy\": \"random:x\"}}",
		"{\"procedure\": \"adbg.battle\", \"inputs\": {\"scenario\": \"examples/adbg/lochry-1781.yaml\", "
		"\"policy\": \"interactive\"}}",
		"{\"procedure\": \"presidio.pursuit\", \"trials\": x}",
		"{\"procedure\": \"presidio.pursuit\", \"trials\": -5}",
		"{\"procedure\": \"presidio.pursuit\", \"trials\": 0}",
		"{\"procedure\": \"presidio.pursuit\", \"trials\": 1e3}",
		"{\"procedure\": \"presidio.pursuit\", \"trials\": 99999999999999999999999}",
		"{\"procedure\": \"presidio.pursuit\", \"trials\": \"100\"}",
		"{\"procedure\": \"presidio.pursuit\", \"mode\": \"roll\"}",
		"{\"procedure\": \"adbg.f\xc3\"}",
		"{\"procedure\": \"adbg.fire\", \"inputs\": {\"type\": \"reg\xffular\", \"cf\": 3, \"terrain\": \"rough\"}}",
		"{\"procedure\": \"adbg.fire\", \"inputs\": *a}",
		"{\"procedure\": \"adbg.fire\", \"inputs\": &a {\"cf\": 3}}",
	};
	for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
		char *out = (char *)0x1;
		fray_status st = fray_request(ctx, bad[k], &out);
		if (st == FRAY_OK)
			print_error("accepted: %s\n", bad[k]);
		assert_int_not_equal(st, FRAY_OK);
		assert_null(out);
		assert_true(strlen(fray_ctx_message(ctx)) > 0);
	}
	/* nested a thousand deep, and larger than the limit */
	size_t n = 1000;
	char *deep = malloc(2 * n + 64);
	assert_non_null(deep);
	strcpy(deep, "{\"procedure\": \"adbg.fire\", \"inputs\": ");
	size_t len = strlen(deep);
	for (size_t k = 0; k < n; k++)
		deep[len++] = '[';
	for (size_t k = 0; k < n; k++)
		deep[len++] = ']';
	strcpy(deep + len, "}");
	char *out = NULL;
	assert_int_equal(fray_request(ctx, deep, &out), FRAY_ERR_INPUT);
	assert_null(out);
	free(deep);
	size_t big = (size_t)FRAY_REQUEST_MAX_BYTES + 10;
	char *huge = malloc(big + 1);
	assert_non_null(huge);
	memset(huge, ' ', big);
	memcpy(huge, "{\"procedure\": \"adbg.fire\"}", 26);
	huge[big] = '\0';
	assert_int_equal(fray_request(ctx, huge, &out), FRAY_ERR_INPUT);
	assert_non_null(strstr(fray_ctx_message(ctx), "larger than"));
	free(huge);
	/* NULL arguments */
	assert_int_equal(fray_request(ctx, NULL, &out), FRAY_ERR_INPUT);
	assert_int_equal(fray_request(ctx, "{}", NULL), FRAY_ERR_INPUT);
	assert_int_not_equal(fray_request(NULL, "{}", &out), FRAY_OK);
	assert_null(fray_call_new(ctx, NULL));
	assert_null(fray_call_new(NULL, "adbg.fire"));
	assert_int_not_equal(fray_call_set(NULL, 0, "3"), FRAY_OK);
	assert_int_not_equal(fray_procedures_json(NULL, &out), FRAY_OK);
	assert_int_not_equal(fray_procedure_help(ctx, "nothing", &out), FRAY_OK);
	/* a service that reads no files refuses a request naming one */
	static const char mix[] = "{\"procedure\": \"chits.end_turn\", \"inputs\": {\"mix\": "
				  "\"tests/bad/files/mix-two-chits.yaml\"}}";
	assert_int_equal(fray_request_flags(ctx, mix, FRAY_REQUEST_NO_FILES, &out), FRAY_ERR_INPUT);
	assert_null(out);
	assert_non_null(strstr(fray_ctx_message(ctx), "reads no files"));
	assert_int_equal(fray_request_flags(ctx, mix, 0, &out), FRAY_OK);
	free(out);
	/* simulate: trials and a seed; the same answer twice; a quick service
	 * caps the trials and the paths of exact odds */
	static const char pursuit[] = "{\"procedure\": \"presidio.pursuit\", \"mode\": \"simulate\", "
				      "\"trials\": 3000, \"seed\": 9, \"inputs\": {\"recon\": 1}}";
	char *again = NULL;
	assert_int_equal(fray_request(ctx, pursuit, &out), FRAY_OK);
	assert_int_equal(fray_request(ctx, pursuit, &again), FRAY_OK);
	assert_string_equal(out, again);
	assert_non_null(strstr(out, "\"trials\": 3000, \"seed\": 9"));
	free(out);
	free(again);
	assert_int_equal(fray_request_flags(ctx, pursuit, FRAY_REQUEST_QUICK, &out), FRAY_OK);
	free(out);
	static const char many[] = "{\"procedure\": \"presidio.pursuit\", \"trials\": 20000}";
	assert_int_equal(fray_request_flags(ctx, many, FRAY_REQUEST_QUICK, &out), FRAY_ERR_INPUT);
	assert_null(out);
	static const char fire_trials[] = "{\"procedure\": \"adbg.fire\", \"trials\": 20, \"inputs\": "
					  "{\"type\": \"regular\", \"cf\": 3, \"terrain\": \"rough\"}}";
	assert_int_equal(fray_request(ctx, fire_trials, &out), FRAY_ERR_INPUT);
	/* a 30-figure volley on 40 specialists: every casualty's die is a
	 * branch, more than a million paths (20 figures have fewer); a quick
	 * request stops there. Each path costs its figures' dice: 200 figures
	 * took 7 s of CPU under ASan to reach the limit, 30 take 3 (issue 45) */
	static const char volley[] = "{\"procedure\": \"presidio.shoot\", \"mode\": \"odds\", \"inputs\": "
				     "{\"weapon\": \"flintlock musket\", \"figures\": 30, \"band\": \"close\", "
				     "\"skill\": 3, \"mode\": \"volley\", \"line\": true, \"target_figures\": 200, "
				     "\"specialists\": 40}}";
	assert_int_equal(fray_request_flags(ctx, volley, FRAY_REQUEST_QUICK, &out), FRAY_ERR_LIMIT);
	assert_null(out);
	assert_non_null(strstr(fray_ctx_message(ctx), "1000000"));
	/* a good call clears the last failure's message */
	out = request("{\"procedure\": \"adbg.recover\", \"inputs\": {\"level\": 2}, \"seed\": 1}");
	assert_non_null(out);
	assert_string_equal(fray_ctx_message(ctx), "");
	free(out);
}

/* The command line's --json and fray_request, byte for byte; and `fray
 * request` on standard input prints the same. */
static void request_matches_the_command_line(void **state)
{
	(void)state;
	static const struct {
		const char *args[24];
		const char *request;
	} cases[] = {
		{{"adbg", "fire", "--type", "rifle", "--cf", "4", "--terrain", "rough", "--weather", "severe", "--odds",
		  "--json"},
		 "{\"procedure\": \"adbg.fire\", \"mode\": \"odds\", \"inputs\": {\"type\": \"rifle\", \"cf\": 4, "
		 "\"terrain\": \"rough\", \"weather\": \"severe\"}}"},
		{{"adbg", "move", "--level", "3", "--type", "warrior", "--terrain", "settled", "--leader", "2",
		  "--surprise-winner-round1", "--seed", "11", "--json"},
		 "{\"procedure\": \"adbg.move\", \"seed\": 11, \"inputs\": {\"level\": 3, \"type\": \"warrior\", "
		 "\"terrain\": \"settled\", \"leader\": 2, \"surprise_winner_round1\": true}}"},
		{{"adbg", "rounds", "--initiative-rating", "2", "--attempt", "--other-rating", "3", "--odds", "--json"},
		 "{\"procedure\": \"adbg.rounds\", \"mode\": \"odds\", \"inputs\": {\"initiative_rating\": 2, "
		 "\"attempt\": true, \"other_rating\": 3}}"},
		{{"adbg", "recover", "--level", "1", "--seed", "5", "--json"},
		 "{\"procedure\": \"adbg.recover\", \"seed\": 5, \"inputs\": {\"level\": 1}}"},
		{{"adbg", "battle", "examples/adbg/lochry-1781.yaml", "--seed", "12", "--policy", "random:4", "--json"},
		 "{\"procedure\": \"adbg.battle\", \"seed\": 12, \"inputs\": {\"scenario\": "
		 "\"examples/adbg/lochry-1781.yaml\", \"policy\": \"random:4\"}}"},
		{{"adbg", "simulate", "examples/adbg/sandusky-1782.yaml", "--trials", "3000", "--seed", "8", "--json"},
		 "{\"procedure\": \"adbg.battle\", \"mode\": \"simulate\", \"trials\": 3000, \"seed\": 8, "
		 "\"inputs\": {\"scenario\": \"examples/adbg/sandusky-1782.yaml\"}}"},
		{{"adbg", "battle", "examples/adbg/blue-licks-1782.yaml", "--seed", "3", "--json"},
		 "{\"procedure\": \"adbg.battle\", \"seed\": 3, \"inputs\": {\"scenario\": "
		 "\"examples/adbg/blue-licks-1782.yaml\"}}"},		{{"chits", "combat", "examples/chits/example-1.yaml", "--seed", "4", "--json"},
		 "{\"procedure\": \"chits.combat\", \"seed\": 4, \"inputs\": {\"combat\": "
		 "\"examples/chits/example-1.yaml\"}}"},
		{{"chits", "combat", "--mix", "examples/chits/sample-mix.yaml", "--tactic", "hasty", "--stance", "hold",
		  "--terrain", "woods", "--attacker-cdr", "4", "--defender-cdr", "3", "--draw", "4", "--odds", "--json"},
		 "{\"procedure\": \"chits.combat\", \"mode\": \"odds\", \"inputs\": {\"mix\": "
		 "\"examples/chits/sample-mix.yaml\", \"tactic\": \"hasty\", \"stance\": \"hold\", \"terrain\": \"woods\", "
		 "\"attacker_cdr\": 4, \"defender_cdr\": 3, \"draw\": 4}}"},
		/* a small battle's odds are exact: the walk, not the fallback */
		{{"adbg", "odds", "tests/data/adbg/tiny.yaml", "--json"},
		 "{\"procedure\": \"adbg.battle\", \"mode\": \"odds\", \"inputs\": {\"scenario\": "
		 "\"tests/data/adbg/tiny.yaml\"}}"},
		{{"adbg", "odds", "examples/adbg/lochry-1781.yaml", "--trials", "500", "--budget", "1000", "--json"},
		 "{\"procedure\": \"adbg.battle\", \"mode\": \"odds\", \"trials\": 500, \"inputs\": {\"scenario\": "
		 "\"examples/adbg/lochry-1781.yaml\", \"budget\": 1000}}"},
		{{"chits", "advise", "examples/chits/example-3.yaml", "--criterion", "edge", "--json"},
		 "{\"procedure\": \"chits.advise\", \"inputs\": {\"combat\": \"examples/chits/example-3.yaml\", "
		 "\"criterion\": \"edge\"}}"},
	};
	static result cli, via;
	for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		run(&cli, cases[k].args);
		assert_int_equal(cli.status, 0);
		char *out = request("%s", cases[k].request);
		assert_non_null(out);
		assert_string_equal(out, cli.out);
		free(out);
		char path[] = "/tmp/fray-request-XXXXXX";
		int fd = mkstemp(path);
		assert_true(fd >= 0);
		assert_int_equal(write(fd, cases[k].request, strlen(cases[k].request)),
				 (ssize_t)strlen(cases[k].request));
		close(fd);
		run_io(&via, (const char *const[]){"request", "-", NULL}, path, 0);
		unlink(path);
		assert_int_equal(via.status, 0);
		assert_string_equal(via.out, cli.out);
	}
	/* "format": "text" is the command line's output for people */
	run(&cli, (const char *const[]){"presidio", "morale", "--seed", "3", "--level", "veteran", "--size", "platoon",
					"--casualties", "2", NULL});
	assert_int_equal(cli.status, 0);
	char *story = request("{\"procedure\": \"presidio.morale\", \"seed\": 3, \"format\": \"text\", \"inputs\": "
			     "{\"level\": \"veteran\", \"size\": \"platoon\", \"casualties\": 2}}");
	assert_non_null(story);
	assert_string_equal(story, cli.out);
	free(story);
	char *none = NULL;
	assert_int_equal(fray_request(ctx, "{\"procedure\": \"presidio.morale\", \"format\": \"html\"}", &none),
			 FRAY_ERR_INPUT);
	assert_null(none);
	/* a bad request file names itself and exits 2 */
	char path[] = "/tmp/fray-request-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "{\"procedure\": \"adbg.fire\", \"inputs\": {\"cf\": 10}}", 48), 48);
	close(fd);
	run(&via, (const char *const[]){"request", path, NULL});
	assert_int_equal(via.status, 2);
	char want[256];
	snprintf(want, sizeof want, "fray request: %s:1:45: inputs.cf expects a whole number from 0 to 9, got '10'\n",
		 path);
	assert_string_equal(via.err, want);
	/* a NUL byte, a folder, no file: each named, exit 2 */
	fd = open(path, O_WRONLY | O_TRUNC);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "{\"procedure\"\0: 1}", 17), 17);
	close(fd);
	run(&via, (const char *const[]){"request", path, NULL});
	assert_int_equal(via.status, 2);
	assert_non_null(strstr(via.err, "a NUL byte at offset 12"));
	unlink(path);
	run(&via, (const char *const[]){"request", "/tmp", NULL});
	assert_int_equal(via.status, 2);
	assert_non_null(strstr(via.err, "/tmp: a folder"));
	run(&via, (const char *const[]){"request", "/nonexistent/r.json", NULL});
	assert_int_equal(via.status, 2);
	assert_non_null(strstr(via.err, "cannot open"));
	/* the catalogue for people names every command */
	char *text = NULL;
	assert_int_equal(fray_procedures_text(ctx, &text), FRAY_OK);
	for (size_t k = 0; k < frayi_catalog_nprocs(); k++)
		assert_non_null(strstr(text, frayi_catalog_proc(k)->command));
	free(text);
}

/* A file's text as a JSON string, into a malloc'd buffer. */
static char *json_of_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	size_t cap = 1 << 20, n = 0;
	char *out = malloc(cap);
	assert_non_null(out);
	out[n++] = '"';
	for (int ch; (ch = fgetc(f)) != EOF;) {
		assert_true(n + 8 < cap);
		if (ch == '"' || ch == '\\')
			n += (size_t)sprintf(out + n, "\\%c", ch);
		else if (ch < 0x20)
			n += (size_t)sprintf(out + n, "\\u%04x", ch);
		else
			out[n++] = (char)ch;
	}
	fclose(f);
	out[n++] = '"';
	out[n] = 0;
	return out;
}

static char *request_flags(unsigned flags, const char *text)
{
	char *out = NULL;
	if (fray_request_flags(ctx, text, flags, &out) != FRAY_OK) {
		print_error("%s: %s\n", text, fray_ctx_message(ctx));
		fail();
	}
	return out;
}

/* A file input may carry the document itself; a service that reads no
 * files takes that or a shipped example by its path, and nothing else. */
static void documents_in_the_request(void **state)
{
	(void)state;
	char *mix = json_of_file("examples/chits/sample-mix.yaml");
	size_t cap = strlen(mix) + 512;
	char *text = malloc(cap);
	assert_non_null(text);
	/* the same answer from the text as from the path */
	snprintf(text, cap, "{\"procedure\": \"chits.end_turn\", \"mode\": \"odds\", \"inputs\": {\"mix\": "
		 "{\"name\": \"my-mix.yaml\", \"text\": %s}, \"fatigue\": 3, \"hits\": \"2,1,0,0\", \"rally\": true}}", mix);
	char *inline_out = request_flags(FRAY_REQUEST_NO_FILES, text);
	char *path_out = request("{\"procedure\": \"chits.end_turn\", \"mode\": \"odds\", \"inputs\": {\"mix\": "
				 "\"examples/chits/sample-mix.yaml\", \"fatigue\": 3, \"hits\": \"2,1,0,0\", \"rally\": true}}");
	assert_non_null(path_out);
	assert_string_equal(inline_out, path_out);
	free(inline_out);
	free(path_out);
	/* problems in the document are named by the name given, line and column */
	char *out = NULL;
	assert_int_equal(fray_request(ctx, "{\"procedure\": \"chits.end_turn\", \"inputs\": {\"mix\": "
				      "{\"name\": \"my-mix.yaml\", \"text\": \"tactics: [1\"}}}", &out), FRAY_ERR_INPUT);
	assert_null(out);
	assert_memory_equal(fray_ctx_message(ctx), "my-mix.yaml:", 12);
	static const char *const bad_documents[] = {
		"{\"name\": \"x\"}", "{\"text\": \"a: 1\"}", "{\"name\": \"x\", \"text\": 3}",
		"{\"name\": \"x\", \"text\": \"a\", \"path\": \"/etc/passwd\"}", "{}", "[\"x\"]",
	};
	for (size_t i = 0; i < sizeof bad_documents / sizeof bad_documents[0]; i++) {
		snprintf(text, cap, "{\"procedure\": \"chits.end_turn\", \"inputs\": {\"mix\": %s}}", bad_documents[i]);
		assert_int_equal(fray_request_flags(ctx, text, FRAY_REQUEST_NO_FILES, &out), FRAY_ERR_INPUT);
		assert_null(out);
	}
	/* a shipped example by its path: the copy in the library is the file */
	static const char battle[] = "{\"procedure\": \"adbg.battle\", \"seed\": 11, \"inputs\": {\"scenario\": "
				     "\"examples/adbg/sandusky-1782.yaml\"}}";
	char *shipped = request_flags(FRAY_REQUEST_NO_FILES, battle), *from_file = request_flags(0, battle);
	assert_string_equal(shipped, from_file);
	free(shipped);
	free(from_file);
	assert_true(fray_shipped_example("examples/presidio/units.yaml"));
	/* paths are matched by their letters, "dir/.." taken out (a scenario
	 * names its CRT from examples/adbg/), as in a chroot of the tree */
	assert_true(fray_shipped_example("examples/presidio/../presidio/./units.yaml"));
	assert_true(fray_shipped_example("examples/adbg/../../data/adbg/example-melee-crt.yaml"));
	assert_true(fray_shipped_example("../../data/adbg/example-melee-crt.yaml"));  /* the top stays */
	assert_false(fray_shipped_example("/examples/presidio/units.yaml"));
	assert_false(fray_shipped_example("examples/../../etc/passwd"));
	assert_false(fray_shipped_example("examples/presidio"));
	assert_false(fray_shipped_example(NULL));
	/* nothing else: no other path, no scripted policy (it names a file) */
	static const char *const refused[] = {
		"{\"procedure\": \"adbg.battle\", \"inputs\": {\"scenario\": \"/etc/passwd\"}}",
		"{\"procedure\": \"adbg.battle\", \"inputs\": {\"scenario\": \"examples/adbg/../../../etc/passwd\"}}",
		("{\"procedure\": \"adbg.battle\", \"inputs\": {\"scenario\": \"examples/adbg/lochry-1781.yaml\", "
		 "\"policy\": \"scripted:/etc/passwd\"}}"),
		"{\"procedure\": \"presidio.morale\", \"inputs\": {\"units\": \"/dev/zero\", \"unit\": \"x\"}}",
	};
	for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
		assert_int_equal(fray_request_flags(ctx, refused[i], FRAY_REQUEST_NO_FILES, &out), FRAY_ERR_INPUT);
		assert_null(out);
		assert_true(strstr(fray_ctx_message(ctx), "reads no files") != NULL);
	}
	/* a pasted scenario naming its CRT by a path that is not shipped */
	char *lochry = json_of_file("examples/adbg/lochry-1781.yaml");
	char *crt = strstr(lochry, "../../data/adbg/example-melee-crt.yaml");
	assert_non_null(crt);
	memcpy(crt, "/etc/passwd", 11);
	memmove(crt + 11, crt + 38, strlen(crt + 38) + 1);
	char *pasted = malloc(strlen(lochry) + 128);
	assert_non_null(pasted);
	sprintf(pasted, "{\"procedure\": \"adbg.battle\", \"inputs\": {\"scenario\": {\"name\": \"mine.yaml\", "
		"\"text\": %s}}}", lochry);
	assert_int_equal(fray_request_flags(ctx, pasted, FRAY_REQUEST_NO_FILES, &out), FRAY_ERR_INPUT);
	assert_non_null(strstr(fray_ctx_message(ctx), "reads no files: '/etc/passwd'"));
	free(pasted);
	free(lochry);
	/* a combat's scripted policy is refused before its file is opened:
	 * the message is the refusal, never the file's own error */
	assert_int_equal(fray_request_flags(ctx, "{\"procedure\": \"chits.combat\", \"inputs\": {\"combat\": "
					    "\"examples/chits/example-1.yaml\", \"policy\": \"scripted:/nonexistent/x\"}}",
					    FRAY_REQUEST_NO_FILES, &out), FRAY_ERR_INPUT);
	assert_null(out);
	assert_non_null(strstr(fray_ctx_message(ctx), "a scripted policy is for battles"));
	assert_null(strstr(fray_ctx_message(ctx), "nonexistent"));
	free(text);
	free(mix);
}

/* Each public call clears the context's message first: a message is
 * always the last call's, never a stale one; NULL arguments are refused. */
static void each_call_has_its_own_message(void **state)
{
	(void)state;
	fray_dice *d = NULL;
	assert_int_not_equal(fray_dice_parse(ctx, "2x6", &d), FRAY_OK);
	char first[256];
	snprintf(first, sizeof first, "%s", fray_ctx_message(ctx));
	assert_true(strlen(first) > 0);
	fray_doc *doc = NULL;
	assert_int_not_equal(fray_doc_load_file(ctx, "/nonexistent/fray.yaml", &doc), FRAY_OK);
	assert_non_null(strstr(fray_ctx_message(ctx), "/nonexistent/fray.yaml"));
	assert_int_equal(fray_dice_parse(ctx, "2d6", &d), FRAY_OK);
	assert_string_equal(fray_ctx_message(ctx), "");
	fray_dist *dist = NULL;
	assert_int_equal(fray_dice_dist(d, &dist), FRAY_OK);
	fray_dist_free(dist);
	fray_dice_free(d);
	/* NULL arguments: a status and a message, no crash */
	assert_int_equal(fray_dice_parse(ctx, NULL, &d), FRAY_ERR_INPUT);
	assert_int_equal(fray_dice_parse(ctx, "2d6", NULL), FRAY_ERR_INPUT);
	assert_int_equal(fray_dice_parse(NULL, "2d6", &d), FRAY_ERR_INPUT);
	assert_int_equal(fray_doc_load_file(ctx, NULL, &doc), FRAY_ERR_INPUT);
	assert_int_equal(fray_doc_load_string(ctx, "x", "a: 1", 4, NULL), FRAY_ERR_INPUT);
	assert_int_equal(fray_enumerate(ctx, NULL, NULL, NULL, 1, NULL, &dist), FRAY_ERR_INPUT);
	assert_int_equal(fray_enumerate(NULL, NULL, NULL, NULL, 1, NULL, &dist), FRAY_ERR_INPUT);
	assert_int_equal(fray_aggregate(ctx, NULL, NULL, NULL, 1, 1, 10, 1, &dist), FRAY_ERR_INPUT);
	assert_int_equal(fray_run(NULL, NULL, NULL, NULL, NULL), FRAY_ERR_INPUT);
	assert_true(strlen(fray_ctx_message(ctx)) > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_procedure_runs_in_its_modes),
		cmocka_unit_test(malformed_requests_are_refused),
		cmocka_unit_test(request_matches_the_command_line),
		cmocka_unit_test(each_call_has_its_own_message),
		cmocka_unit_test(documents_in_the_request),
	};
	return cmocka_run_group_tests(tests, setup_in_source, teardown);
}
