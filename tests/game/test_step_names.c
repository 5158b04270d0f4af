/* A game's step names its procedure's inputs and outcome fields (issue 42
 * item 1): a name the procedure lacks, or a setter of another kind than
 * the input's, is FRAY_ERR_INTERNAL with the procedure and the name in
 * the message, never a silent 0; no step is kept and no dice are spent.
 * A value out of the input's range is the catalogue's own refusal
 * (FRAY_ERR_INPUT); a step named right rolls and reads what its JSON
 * tells. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <fray/fray.h>
#include "../../src/game/table.h"

static table_game g;

static int setup(void **state)
{
	(void)state;
	memset(&g, 0, sizeof g);
	g.ctx = fray_ctx_new(NULL, NULL);
	g.seed = 1781;
	return g.ctx ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	for (size_t i = 0; i < g.nsteps; i++) {
		free(g.steps[i].json);
		free(g.steps[i].text);
	}
	free(g.odds_out);
	fray_ctx_free(g.ctx);
	return 0;
}

/* A morale check's inputs, all named as presidio.morale names them. */
static table_step morale(void)
{
	table_step s = frayi_step_begin(&g, "presidio.morale");
	frayi_step_choice(&s, "level", "average");
	frayi_step_choice(&s, "size", "squad");
	frayi_step_int(&s, "casualties", 3);
	frayi_step_bool(&s, "line", true);
	return s;
}

/* The failure is internal, names the procedure and the name, and leaves
 * the game as it was. */
static void internal_naming(int st, const char *name)
{
	assert_int_equal(st, FRAY_ERR_INTERNAL);
	const char *m = fray_ctx_message(g.ctx);
	if (!strstr(m, "presidio.morale") || !strstr(m, name))
		fail_msg("'%s' does not name presidio.morale and %s", m, name);
	assert_int_equal(g.nsteps, 0);
	assert_true(g.dice == 0);
}

static void a_misspelt_input_is_internal(void **state)
{
	(void)state;
	table_step s = morale();
	frayi_step_int(&s, "casulties", 3);
	frayi_step_int(&s, "casualties", 4); /* after a failure: nothing more */
	int64_t success = 7;
	internal_naming(frayi_step_roll(&s, NULL, (step_out[]){{"success", &success}, {NULL, NULL}}), "'casulties'");
	/* a flag not given is still named */
	s = morale();
	frayi_step_bool(&s, "lien", false);
	internal_naming(frayi_step_roll(&s, NULL, NULL), "'lien'");
}

static void a_setter_of_another_kind_is_internal(void **state)
{
	(void)state;
	table_step s = morale();
	frayi_step_bool(&s, "casualties", true);
	internal_naming(frayi_step_roll(&s, NULL, NULL), "'casualties'");
	s = morale();
	frayi_step_string(&s, "size", "squad");
	internal_naming(frayi_step_roll(&s, NULL, NULL), "'size'");
}

static void a_misspelt_outcome_is_internal(void **state)
{
	(void)state;
	table_step s = morale();
	int64_t success = 7, holds = 7;
	internal_naming(frayi_step_roll(&s, NULL, (step_out[]){{"success", &success}, {"hold", &holds}, {NULL, NULL}}),
			"'hold'");
	/* the odds too: the outcome is named before any odds are given */
	fray_call_opts odds = {.mode = FRAY_MODE_ODDS, .json = true};
	g.odds = &odds;
	s = morale();
	internal_naming(frayi_step_roll(&s, NULL, (step_out[]){{"sucess", &success}, {NULL, NULL}}), "'sucess'");
	assert_null(g.odds_out);
	g.odds = NULL;
}

static void a_value_out_of_range_is_the_catalogues_refusal(void **state)
{
	(void)state;
	table_step s = morale();
	frayi_step_int(&s, "casualties", 101); /* Section 7: 0 to 100 */
	assert_int_equal(frayi_step_roll(&s, NULL, NULL), FRAY_ERR_INPUT);
	assert_non_null(strstr(fray_ctx_message(g.ctx), "--casualties"));
	assert_int_equal(g.nsteps, 0);
}

static void a_step_named_right_reads_its_outcome(void **state)
{
	(void)state;
	table_step s = morale();
	int64_t success = 7, holds = 7, standing = -1;
	assert_int_equal(frayi_step_roll(&s, NULL, (step_out[]){{"success", &success}, {"holds", &holds},
								 {"standing", &standing}, {NULL, NULL}}),
			 FRAY_OK);
	assert_int_equal(g.nsteps, 1);
	assert_true(g.dice > 0);
	const char *json = g.steps[0].json;
	assert_non_null(strstr(json, success ? "\"success\": true" : "\"success\": false"));
	assert_non_null(strstr(json, holds ? "\"holds\": true" : "\"holds\": false"));
	assert_true(standing >= 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(a_misspelt_input_is_internal, setup, teardown),
		cmocka_unit_test_setup_teardown(a_setter_of_another_kind_is_internal, setup, teardown),
		cmocka_unit_test_setup_teardown(a_misspelt_outcome_is_internal, setup, teardown),
		cmocka_unit_test_setup_teardown(a_value_out_of_range_is_the_catalogues_refusal, setup, teardown),
		cmocka_unit_test_setup_teardown(a_step_named_right_reads_its_outcome, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
