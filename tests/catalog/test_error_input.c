/* Errors as data (issue 42 item 3): a failure carries its status, its
 * message and the name of the input it is about (fray_ctx_input), so a
 * front end shows it at that input's field; the library's messages carry
 * no command-line hint ('fray ...'): the command line adds its own.
 * The input names are presidio.shoot's as its help gives them (--weapon,
 * --figures from -1000 to 1000, --range that excludes --band, --band one
 * of close, medium, long, the flag --line) and the request's members as
 * docs/json/request.schema.json names them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <fray/fray.h>
#include "../test_util.h"
#include <fray/api.h>

static size_t input_of(const fray_call *c, const char *name)
{
	char opt[FRAY_CALL_OPTION_MAX], want[FRAY_CALL_OPTION_MAX];
	snprintf(want, sizeof want, "--%s", name);
	for (size_t k = 0; k < fray_call_ninputs(c); k++)
		if (!strcmp(fray_call_option(c, k, opt, sizeof opt), want))
			return k;
	fail_msg("presidio.shoot has no input %s", name);
	return 0;
}

/* The failure recorded names `input` (NULL: none) and no command line. */
static void failed_on(fray_status st, const char *input)
{
	assert_int_equal(st, FRAY_ERR_INPUT);
	assert_int_equal(fray_ctx_status(ctx), FRAY_ERR_INPUT);
	const char *msg = fray_ctx_message(ctx);
	if (strstr(msg, "'fray "))
		fail_msg("a command-line hint in the library's message: %s", msg);
	const char *got = fray_ctx_input(ctx);
	if (!input) {
		if (got)
			fail_msg("no input expected for \"%s\", got %s", msg, got);
		return;
	}
	if (!got || strcmp(got, input))
		fail_msg("\"%s\": input %s expected, got %s", msg, input, got ? got : "(none)");
}

/* Each kind of bad value, set through the text door: the input is named,
 * and the next good value clears it. */
static void each_bad_value_names_its_input(void **state)
{
	(void)state;
	static const struct {
		const char *input, *value, *why;
	} rows[] = {
		{"figures", "5000", "past the range -1000..1000"},
		{"figures", "-1001", "under the range"},
		{"figures", "five", "not a whole number"},
		{"range", "near", "not a number"},
		{"range", "-3", "under 0 inches"},
		{"band", "short", "not one of close, medium, long"},
		{"line", "maybe", "a flag is true or false"},
	};
	fray_call *c = fray_call_new(ctx, "presidio.shoot");
	assert_non_null(c);
	for (size_t r = 0; r < sizeof rows / sizeof *rows; r++) {
		size_t k = input_of(c, rows[r].input);
		print_message("%s %s: %s\n", rows[r].input, rows[r].value, rows[r].why);
		failed_on(fray_call_set(c, k, rows[r].value), rows[r].input);
		assert_int_equal(fray_call_set(c, input_of(c, "figures"), "5"), FRAY_OK);
		assert_null(fray_ctx_input(ctx));
		assert_int_equal(fray_ctx_status(ctx), FRAY_OK);
		assert_string_equal(fray_ctx_message(ctx), "");
	}
	/* a value without its text: the input named */
	failed_on(fray_call_set(c, input_of(c, "figures"), NULL), "figures");
	fray_ctx_clear(ctx);
	assert_null(fray_ctx_input(ctx));
	fray_call_free(c);
}

/* The checks of the whole call: a required input missing names it; two
 * that exclude each other name the first of the pair; the bind's unknown
 * weapon names the weapon; a failure about no one input names none (a
 * shot with a melee weapon: the refusal is the shot's). */
static void the_call_checks_name_their_input(void **state)
{
	(void)state;
	fray_call *c = fray_call_new(ctx, "presidio.shoot");
	assert_non_null(c);
	assert_int_equal(fray_call_set(c, input_of(c, "figures"), "5"), FRAY_OK);
	failed_on(fray_call_check(c), "weapon"); /* required, not given */

	assert_int_equal(fray_call_set(c, input_of(c, "weapon"), "no such gun"), FRAY_OK);
	failed_on(fray_call_check(c), "weapon"); /* not a weapon of Section 10 */

	/* the first required input not given, whichever was given */
	fray_call *d = fray_call_new(ctx, "presidio.shoot");
	assert_int_equal(fray_call_set(d, input_of(d, "weapon"), "flintlock musket"), FRAY_OK);
	failed_on(fray_call_check(d), "figures");
	fray_call_free(d);

	assert_int_equal(fray_call_set(c, input_of(c, "weapon"), "flintlock musket"), FRAY_OK);
	assert_int_equal(fray_call_set(c, input_of(c, "range"), "3"), FRAY_OK);
	assert_int_equal(fray_call_set(c, input_of(c, "band"), "close"), FRAY_OK);
	failed_on(fray_call_check(c), "range"); /* range excludes band: the first of the pair */

	fray_call *e = fray_call_new(ctx, "presidio.shoot");
	assert_int_equal(fray_call_set(e, input_of(e, "weapon"), "fists"), FRAY_OK);
	assert_int_equal(fray_call_set(e, input_of(e, "figures"), "5"), FRAY_OK);
	assert_int_equal(fray_call_set(e, input_of(e, "range"), "3"), FRAY_OK);
	failed_on(fray_call_check(e), NULL); /* fists: a weapon, but for melee: said of the shot, no one input */
	fray_call_free(e);

	/* good again: checked, nothing named */
	fray_call *g = fray_call_new(ctx, "presidio.shoot");
	assert_int_equal(fray_call_set(g, input_of(g, "weapon"), "flintlock musket"), FRAY_OK);
	assert_int_equal(fray_call_set(g, input_of(g, "figures"), "5"), FRAY_OK);
	assert_int_equal(fray_call_set(g, input_of(g, "range"), "3"), FRAY_OK);
	fray_ctx_clear(ctx);
	assert_int_equal(fray_call_check(g), FRAY_OK);
	assert_null(fray_ctx_input(ctx));
	fray_call_free(g);
	fray_call_free(c);
}

static void unknown_procedure_names_the_procedure(void **state)
{
	(void)state;
	assert_null(fray_call_new(ctx, "presidio.nosuch"));
	failed_on(FRAY_ERR_INPUT, "procedure");
	char *out = NULL;
	failed_on(fray_procedure_help(ctx, "presidio nosuch", &out), "procedure");
	assert_null(out);
}

/* fray_request: a bad value, a bad member, each named. */
static void a_request_names_the_input_or_member(void **state)
{
	(void)state;
	static const struct {
		const char *request, *input;
	} rows[] = {
		{"{\"procedure\": \"presidio.shoot\", \"inputs\": {\"weapon\": \"flintlock musket\", \"figures\": 5000}}", "figures"},
		{"{\"procedure\": \"presidio.shoot\", \"inputs\": {\"weapon\": \"flintlock musket\", \"figures\": \"5\"}}", "figures"},
		{"{\"procedure\": \"presidio.shoot\", \"inputs\": {\"figures\": 5}}", "weapon"},
		{"{\"procedure\": \"presidio.shoot\", \"inputs\": {\"weapon\": \"zzz\", \"figures\": 5}}", "weapon"},
		{"{\"procedure\": \"presidio.shoot\", \"inputs\": {\"weapon\": \"flintlock musket\", \"figures\": 5, \"range\": 3, "
		 "\"band\": \"close\"}}", "range"},
		{"{\"procedure\": \"presidio.shoot\", \"inputs\": {\"weapon\": \"flintlock musket\", \"figures\": 5, \"line\": 1}}",
		 "line"},
		{"{\"procedure\": \"presidio.shot\", \"inputs\": {}}", "procedure"},
		{"{\"inputs\": {}}", "procedure"},
		{"{\"procedure\": \"presidio.shoot\", \"mode\": \"fly\"}", "mode"},
		{"{\"procedure\": \"presidio.shoot\", \"seed\": -1}", "seed"},
		{"{\"procedure\": \"presidio.shoot\", \"inputs\": {\"nosuch\": 1}}", NULL},
	};
	for (size_t r = 0; r < sizeof rows / sizeof *rows; r++) {
		char *out = NULL;
		print_message("%s\n", rows[r].request);
		failed_on(fray_request(ctx, rows[r].request, &out), rows[r].input);
		assert_null(out);
	}
}

/* The page's door: the failure of api/v1/run (and of a job) is JSON that
 * carries "input"; api/v1/game's names the request's member. */
static void the_api_answers_carry_input(void **state)
{
	(void)state;
	static const struct {
		const char *path, *body, *input;
		unsigned status;
	} rows[] = {
		{"api/v1/run", "{\"procedure\": \"presidio.shoot\", \"inputs\": {\"weapon\": \"flintlock musket\", \"figures\": 5000}}",
		 "\"input\": \"figures\"", 400},
		{"api/v1/jobs", "{\"procedure\": \"presidio.shoot\", \"inputs\": {\"figures\": 5}}", "\"input\": \"weapon\"",
		 400},
		{"api/v1/run", "{\"procedure\": \"presidio.shoot\", \"inputs\": {\"nosuch\": 1}}", NULL, 400},
		{"api/v1/game", "{\"op\": \"fly\", \"game\": \"x\"}", "\"input\": \"op\"", 400},
		{"api/v1/game", "{\"op\": \"status\"}", "\"input\": \"game\"", 400},
	};
	for (size_t r = 0; r < sizeof rows / sizeof *rows; r++) {
		char *answer = NULL;
		bool is_message = true;
		unsigned status = fray_api_call(rows[r].path, rows[r].body, NULL, &answer, &is_message);
		print_message("%s %s -> %u %s", rows[r].path, rows[r].body, status, answer ? answer : "(null)\n");
		assert_int_equal(status, rows[r].status);
		assert_non_null(answer);
		assert_false(is_message); /* JSON, not the message alone */
		assert_true(strncmp(answer, "{\"error\": \"", 11) == 0);
		assert_null(strstr(answer, "'fray "));
		if (rows[r].input)
			assert_non_null(strstr(answer, rows[r].input));
		else
			assert_null(strstr(answer, "\"input\""));
		free(answer);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(each_bad_value_names_its_input),
		cmocka_unit_test(the_call_checks_name_their_input),
		cmocka_unit_test(unknown_procedure_names_the_procedure),
		cmocka_unit_test(a_request_names_the_input_or_member),
		cmocka_unit_test(the_api_answers_carry_input),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
