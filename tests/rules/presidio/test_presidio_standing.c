/* A Presidio unit's standing as the rules carry it (issue 28): into the
 * next turn (Section 7, Morale Roll Resolution, Fall Back, Retreat) and
 * on a pursuer's contact (Section 5, Pursuit), every standing checked
 * against the text; what a standing lets a unit do (Sections 2, 4, 7). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "../../test_util.h"

/* Section 7: a flinch (-1 action) and a hunker (-2 actions) cost actions
 * of the turn and leave the unit in place; a fall back ends "in good
 * order facing the enemy"; a retreat "in disorder"; disorder, panic,
 * surrender and destruction last (a panic until a rally, Section 2). */
static void standing_at_turn_end_cell_by_cell(void **state)
{
	(void)state;
	static const struct {
		fray_presidio_standing now, next;
		const char *text;
	} rows[] = {
		{FRAY_PRESIDIO_GOOD, FRAY_PRESIDIO_GOOD, "nothing to end"},
		{FRAY_PRESIDIO_DISORDERED, FRAY_PRESIDIO_DISORDERED, "disorder lasts until the unit re-forms"},
		{FRAY_PRESIDIO_FLINCHED, FRAY_PRESIDIO_GOOD, "Partial Cover: flinches, -1 action"},
		{FRAY_PRESIDIO_HUNKERED, FRAY_PRESIDIO_GOOD, "Partial Cover: hunkers down, -2 actions"},
		{FRAY_PRESIDIO_FELL_BACK, FRAY_PRESIDIO_GOOD, "Fall Back: placed in good order facing the enemy"},
		{FRAY_PRESIDIO_RETREATED, FRAY_PRESIDIO_DISORDERED, "Retreat: placed facing the enemy, but in disorder"},
		{FRAY_PRESIDIO_PANICKED, FRAY_PRESIDIO_PANICKED, "Panic: runs until a rally (Section 2)"},
		{FRAY_PRESIDIO_SURRENDERED, FRAY_PRESIDIO_SURRENDERED, "Surrender: out of the fight"},
		{FRAY_PRESIDIO_DESTROYED, FRAY_PRESIDIO_DESTROYED, "no figures left"},
	};
	assert_int_equal(sizeof rows / sizeof *rows, FRAY_PRESIDIO_NSTANDINGS);
	for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
		if (fray_presidio_standing_at_turn_end(rows[i].now) != rows[i].next)
			fail_msg("%s at the turn's end: expected %s (%s)", fray_presidio_standing_names[rows[i].now],
				 fray_presidio_standing_names[rows[i].next], rows[i].text);
	}
}

/* src/rules/presidio/presidio_internal.h: what the game asks of a fall
 * back (ruling R49) */
fray_presidio_standing frayi_presidio_fall_back_placed(bool line);
fray_presidio_standing frayi_presidio_standing_after_turn(fray_presidio_standing s, bool line);
fray_presidio_standing frayi_presidio_moved_back(fray_presidio_standing s, bool retreat, bool line);

/* Section 7, Fall Back: "Units in the Open ... are placed in good order
 * facing the enemy"; "Units in Line - become disordered on a fall back
 * result" (ruling R49). A unit in line that fell back ends the turn
 * disordered, one in skirmish or column in good order; every other
 * standing ends the turn as it does in any formation. */
static void a_fall_back_in_line_ends_disordered(void **state)
{
	(void)state;
	assert_int_equal(frayi_presidio_fall_back_placed(true), FRAY_PRESIDIO_DISORDERED);
	assert_int_equal(frayi_presidio_fall_back_placed(false), FRAY_PRESIDIO_GOOD);
	assert_int_equal(frayi_presidio_standing_after_turn(FRAY_PRESIDIO_FELL_BACK, true), FRAY_PRESIDIO_DISORDERED);
	assert_int_equal(frayi_presidio_standing_after_turn(FRAY_PRESIDIO_FELL_BACK, false), FRAY_PRESIDIO_GOOD);
	/* the rest as standing_at_turn_end_cell_by_cell's table, in line or not:
	 * a flinch and a hunker in good order, a retreat in disorder */
	static const struct {
		fray_presidio_standing now, next;
	} rows[] = {{FRAY_PRESIDIO_GOOD, FRAY_PRESIDIO_GOOD},		{FRAY_PRESIDIO_DISORDERED, FRAY_PRESIDIO_DISORDERED},
		    {FRAY_PRESIDIO_FLINCHED, FRAY_PRESIDIO_GOOD},	{FRAY_PRESIDIO_HUNKERED, FRAY_PRESIDIO_GOOD},
		    {FRAY_PRESIDIO_RETREATED, FRAY_PRESIDIO_DISORDERED}, {FRAY_PRESIDIO_PANICKED, FRAY_PRESIDIO_PANICKED}};
	for (size_t i = 0; i < sizeof rows / sizeof *rows; i++)
		for (int line = 0; line < 2; line++)
			if (frayi_presidio_standing_after_turn(rows[i].now, line) != rows[i].next)
				fail_msg("%s%s at the turn's end: expected %s", fray_presidio_standing_names[rows[i].now],
					 line ? " in line" : "", fray_presidio_standing_names[rows[i].next]);
}

/* Ruling R49 with Section 3, Disorder ("Line units must reform before
 * moving or volleying"): a line unit that fell back this turn is set
 * down disordered, so its remaining action is no move; a unit not in line
 * that fell back moves with it. */
static void a_line_that_fell_back_does_not_move_on(void **state)
{
	(void)state;
	fray_presidio_unit_kind line = {.line = true, .ranks = 2}, skirmish = {0};
	static const fray_presidio_action moves[] = {FRAY_PRESIDIO_DO_WALK, FRAY_PRESIDIO_DO_PURSUE,
						     FRAY_PRESIDIO_DO_FLEE};
	for (size_t i = 0; i < sizeof moves / sizeof *moves; i++) {
		assert_non_null(fray_presidio_kind_refused(&line, FRAY_PRESIDIO_FELL_BACK, moves[i]));
		assert_null(fray_presidio_kind_refused(&skirmish, FRAY_PRESIDIO_FELL_BACK, moves[i]));
	}
	/* it still fires (Section 3, Disorder: "They may perform Independent
	 * Fire") */
	assert_null(fray_presidio_kind_refused(&line, FRAY_PRESIDIO_FELL_BACK, FRAY_PRESIDIO_DO_SHOOT));
}

/* Ruling R49 with Section 3, Disorder ("Line units must reform before
 * moving or volleying"; "They may perform Independent Fire if they are
 * fully loaded"): a line unit that fell back this turn is set down
 * disordered, so a volley asked of it is refused, its independent fire
 * is not, and Defensive Fire's "volley when able" falls to independent
 * fire. 18 flintlock muskets (reload 4, Section 10): a volley fires all
 * 18 (Volley Fire), independent fire 18 / 4 = 4.5, so 5 (ruling R14). A
 * standing that leaves the line in order still volleys. */
static void a_line_that_fell_back_does_not_volley(void **state)
{
	(void)state;
	static const struct {
		fray_presidio_standing s;
		bool volleys;
		const char *text;
	} rows[] = {
		{FRAY_PRESIDIO_GOOD, true, "in order, loaded, in line"},
		{FRAY_PRESIDIO_FLINCHED, true, "Partial Cover: flinches, in place"},
		{FRAY_PRESIDIO_HUNKERED, true, "Partial Cover: hunkers down, in place"},
		{FRAY_PRESIDIO_FELL_BACK, false, "Fall Back: Units in Line - become disordered"},
		{FRAY_PRESIDIO_DISORDERED, false, "Disorder: reform before volleying"},
	};
	fray_presidio_shoot_in in = {.weapon = fray_presidio_weapon_find("flintlock musket", NULL), .band = 2,
				     .figures = 18, .armor = 12, .target_figures = 10, .mode = FRAY_PRESIDIO_VOLLEY,
				     .volley_ready = true, .inches = -1};
	fray_roller *r = fray_roller_sample_new(ctx, 1, 0);
	assert_non_null(r);
	for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
		in.firer_standing = rows[i].s;
		in.mode = FRAY_PRESIDIO_VOLLEY;
		in.volley_if_able = false;
		const char *why = fray_presidio_volley_refused(&in);
		if ((why == NULL) != rows[i].volleys)
			fail_msg("%s line asked to volley: %s, expected %s (%s)", fray_presidio_standing_names[rows[i].s],
				 why ? why : "allowed", rows[i].volleys ? "allowed" : "refused", rows[i].text);
		/* refused by the fire state too (the game and the catalogue ask it) */
		assert_true((fray_presidio_fire_state_refused(&in) == NULL) == rows[i].volleys);
		/* Defensive Fire, volley when able: never refused, a volley or
		 * independent fire */
		in.volley_if_able = true;
		assert_null(fray_presidio_fire_state_refused(&in));
		assert_int_equal(fray_presidio_fires_volley(&in), rows[i].volleys);
		fray_presidio_shoot_out out;
		fray_presidio_shoot(r, &in, &out);
		assert_int_equal(out.firing, rows[i].volleys ? 18 : 5);
		assert_int_equal(out.volley, rows[i].volleys);
		/* independent fire is never refused by the standing */
		in.mode = FRAY_PRESIDIO_INDEPENDENT;
		in.volley_if_able = false;
		assert_null(fray_presidio_volley_refused(&in));
		assert_null(fray_presidio_fire_state_refused(&in));
	}
	/* the refusal names its rules */
	in.mode = FRAY_PRESIDIO_VOLLEY;
	in.firer_standing = FRAY_PRESIDIO_FELL_BACK;
	const char *why = fray_presidio_volley_refused(&in);
	assert_non_null(strstr(why, "Section 7, Fall Back"));
	assert_non_null(strstr(why, "Section 3, Disorder"));
	assert_non_null(strstr(why, "R49"));
	/* a unit not in line that fell back is "placed in good order" (Fall
	 * Back: Units in the Open) but was never volley-ready: the refusal
	 * is the volley's own conditions, not the fall back */
	in.volley_ready = false;
	assert_null(strstr(fray_presidio_volley_refused(&in), "R49"));
	fray_roller_free(r);
}

/* Section 5, Disengaging from Melee: "'fall back' (1 action)" under "the
 * rules for 'retreat' and 'fall back' in the morale section": a unit that
 * falls back of its own will is set down as Section 7's Fall Back places
 * it, disordered in line, else as it was (good order, or its disorder
 * kept); a retreat is a retreat ("in disorder", its turn forfeit). */
static void a_fall_back_of_its_own_will(void **state)
{
	(void)state;
	assert_int_equal(frayi_presidio_moved_back(FRAY_PRESIDIO_GOOD, false, true), FRAY_PRESIDIO_DISORDERED);
	assert_int_equal(frayi_presidio_moved_back(FRAY_PRESIDIO_GOOD, false, false), FRAY_PRESIDIO_GOOD);
	assert_int_equal(frayi_presidio_moved_back(FRAY_PRESIDIO_DISORDERED, false, true), FRAY_PRESIDIO_DISORDERED);
	assert_int_equal(frayi_presidio_moved_back(FRAY_PRESIDIO_DISORDERED, false, false), FRAY_PRESIDIO_DISORDERED);
	for (int line = 0; line < 2; line++) {
		assert_int_equal(frayi_presidio_moved_back(FRAY_PRESIDIO_GOOD, true, line), FRAY_PRESIDIO_RETREATED);
		assert_int_equal(frayi_presidio_moved_back(FRAY_PRESIDIO_DISORDERED, true, line), FRAY_PRESIDIO_RETREATED);
	}
	/* the fall back is one action paid (Section 5); a retreat's second is
	 * its forfeit (Section 7, Retreat: "forfeit any further actions") */
	assert_int_equal(fray_presidio_action_cost(FRAY_PRESIDIO_DO_DISENGAGE), 1);
	fray_presidio_turn t = {0};
	fray_presidio_turn_take(&t, FRAY_PRESIDIO_DO_DISENGAGE);
	assert_int_equal(fray_presidio_actions_left(&t, FRAY_PRESIDIO_GOOD), 1);
	assert_int_equal(fray_presidio_actions_left(&t, FRAY_PRESIDIO_DISORDERED), 1);
	assert_int_equal(fray_presidio_actions_left(&t, FRAY_PRESIDIO_RETREATED), 0);
}

/* Ruling R50. Section 5, Disengaging from Melee: "A unit can voluntarily
 * disengage from melee during its own action sequence, but it must make a
 * 'retreat' (2 actions), or 'fall back' (1 action)"; Section 7: a flinch
 * is "-1 action" and "they do not fall back", a hunker "-2 actions". A
 * flinched unit in contact has one action: it falls back, not retreats,
 * and its flinch's lost action stays lost (none left after); a hunkered
 * one has none; a unit that fell back, retreated or panicked is gone. */
static void a_flinched_unit_falls_back_out_of_its_melee(void **state)
{
	(void)state;
	fray_presidio_turn t = {0};
	assert_null(fray_presidio_disengage_refused(&t, FRAY_PRESIDIO_FLINCHED, true, false));
	const char *why = fray_presidio_disengage_refused(&t, FRAY_PRESIDIO_FLINCHED, true, true);
	assert_non_null(why);
	assert_non_null(strstr(why, "'retreat' (2 actions)"));
	assert_non_null(fray_presidio_disengage_refused(&t, FRAY_PRESIDIO_HUNKERED, true, false));
	assert_non_null(fray_presidio_disengage_refused(&t, FRAY_PRESIDIO_FELL_BACK, true, false));
	assert_non_null(fray_presidio_disengage_refused(&t, FRAY_PRESIDIO_PANICKED, true, false));
	/* after its flinch (one action lost) and its fall back (one spent) */
	for (int line = 0; line < 2; line++)
		assert_int_equal(frayi_presidio_moved_back(FRAY_PRESIDIO_FLINCHED, false, line), FRAY_PRESIDIO_FLINCHED);
	fray_presidio_turn_take(&t, FRAY_PRESIDIO_DO_DISENGAGE);
	assert_int_equal(fray_presidio_actions_left(&t, FRAY_PRESIDIO_FLINCHED), 0);
	/* one that spent its action already has none to fall back with */
	fray_presidio_turn shot = {0};
	fray_presidio_turn_take(&shot, FRAY_PRESIDIO_DO_SHOOT);
	assert_non_null(fray_presidio_disengage_refused(&shot, FRAY_PRESIDIO_FLINCHED, true, false));
}

/* Section 5, Pursuit: "If they make contact with a panicked unit, it
 * surrenders immediately otherwise they continue to Melee": only a
 * panicked unit surrenders on contact. */
static void pursuit_contact_cell_by_cell(void **state)
{
	(void)state;
	for (int s = 0; s < FRAY_PRESIDIO_NSTANDINGS; s++) {
		bool expected = s == FRAY_PRESIDIO_PANICKED;
		if (fray_presidio_pursuit_surrenders((fray_presidio_standing)s) != expected)
			fail_msg("pursuers in contact with a %s unit: %s expected", fray_presidio_standing_names[s],
				 expected ? "surrender" : "melee");
	}
}

/* Section 5, Pursuit: "If a unit fails a morale check, it falls back,
 * retreats, or panics as normal, but the enemy may pursue": those three
 * may be pursued, no other standing. */
static void who_may_be_pursued(void **state)
{
	(void)state;
	for (int s = 0; s < FRAY_PRESIDIO_NSTANDINGS; s++) {
		bool expected = s == FRAY_PRESIDIO_FELL_BACK || s == FRAY_PRESIDIO_RETREATED || s == FRAY_PRESIDIO_PANICKED;
		const char *why = fray_presidio_act_refused((fray_presidio_standing)s, FRAY_PRESIDIO_ACT_BE_PURSUED);
		if ((why == NULL) != expected)
			fail_msg("a %s unit: pursuit %s expected", fray_presidio_standing_names[s],
				 expected ? "allowed" : "refused");
	}
}

/* Section 4, Independent Fire: "If a unit uses independent fire for two
 * consecutive actions (in a game turn) roll all the dice (for both
 * actions) at the same time": only independent fire is rolled so; a
 * volley empties the guns, fire while moving and opportunity fire fire
 * once, aimed fire is itself two actions. */
static void consecutive_actions_only_for_independent_fire(void **state)
{
	(void)state;
	for (int m = 0; m < 5; m++) {
		const char *why = fray_presidio_consecutive_refused((fray_presidio_fire_mode)m);
		if (m == FRAY_PRESIDIO_INDEPENDENT)
			assert_null(why);
		else if (!why)
			fail_msg("%s fire rolled for two consecutive actions: expected a refusal",
				 fray_presidio_fire_mode_names[m]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(standing_at_turn_end_cell_by_cell),
		cmocka_unit_test(a_fall_back_in_line_ends_disordered),
		cmocka_unit_test(a_fall_back_of_its_own_will),
		cmocka_unit_test(a_line_that_fell_back_does_not_move_on),
		cmocka_unit_test(a_line_that_fell_back_does_not_volley),
		cmocka_unit_test(a_flinched_unit_falls_back_out_of_its_melee),
		cmocka_unit_test(pursuit_contact_cell_by_cell),
		cmocka_unit_test(who_may_be_pursued),
		cmocka_unit_test(consecutive_actions_only_for_independent_fire),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
