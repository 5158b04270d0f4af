/* Presidio rules once missing from the procedures (issue 28): disordered
 * light and skirmish troops shoot half (Section 3, Disorder), the scatter
 * of an artillery shot whose die shows a 1 (Section 9), a shattered unit's
 * captured wounded read on the casualty table (Section 6, Casualty
 * Status), and specialty figures hit in melee as under fire (Section 6,
 * Hits; ruling R15). Every expectation is counted from the text's dice
 * here, never taken from fray's output. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "../../test_util.h"

static const fray_presidio_weapon *weapon(const char *name)
{
	const fray_presidio_weapon *w = fray_presidio_weapon_find(name, NULL);
	assert_non_null(w);
	return w;
}

static double choose(int n, int k)
{
	double c = 1;
	for (int i = 1; i <= k; i++)
		c = c * (n - k + i) / i;
	return c;
}

static double binomial(int n, int k, double p)
{
	return choose(n, k) * pow(p, k) * pow(1 - p, n - k);
}

/* Ruling R14's rounding: to nearest, a half up. */
static int nearest_half_up(double x)
{
	return (int)floor(x + 0.5);
}

/* ---- Section 3, Disorder: "Light and Skirmish units can only move and
 * shoot half"; a disordered line unit "may perform Independent Fire" in
 * full. Half of the figures that would fire, halves up as R14 (the text
 * is silent on the rounding). ---- */
static void disordered_light_troops_shoot_half(void **state)
{
	(void)state;
	enum { GOOD = FRAY_PRESIDIO_GOOD, DIS = FRAY_PRESIDIO_DISORDERED };
	static const struct {
		int figures;
		fray_presidio_fire_mode mode;
		bool light;
		int standing;
		bool half;
	} rows[] = {
		{18, FRAY_PRESIDIO_INDEPENDENT, true, DIS, true},    /* the R14 example's 5: 3 */
		{18, FRAY_PRESIDIO_INDEPENDENT, false, DIS, false},  /* a disordered line unit: all 5 */
		{18, FRAY_PRESIDIO_INDEPENDENT, true, GOOD, false},  /* light, in good order: 5 */
		{12, FRAY_PRESIDIO_INDEPENDENT, true, DIS, true},    /* 3: 1.5 -> 2 */
		{4, FRAY_PRESIDIO_INDEPENDENT, true, DIS, true},     /* 1: 0.5 -> 1 */
		{20, FRAY_PRESIDIO_INDEPENDENT, true, DIS, true},    /* 5: 2.5 -> 3 */
		{12, FRAY_PRESIDIO_OPPORTUNITY, true, DIS, true},    /* one action: 3 -> 2 */
		{12, FRAY_PRESIDIO_AIMED, true, DIS, true},
		{18, FRAY_PRESIDIO_MOVING, true, DIS, true},         /* half 9, at most 5: 5 -> 3 */
	};
	const fray_presidio_weapon *w = weapon("flintlock musket");
	assert_int_equal(w->reload, 4);
	fray_roller *r = fray_roller_sample_new(ctx, 5, 0);
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		fray_presidio_shoot_in in = {.weapon = w, .band = 2, .figures = rows[i].figures, .mode = rows[i].mode,
					     .target_figures = 10, .light = rows[i].light,
					     .firer_standing = (fray_presidio_standing)rows[i].standing, .inches = -1};
		int full = nearest_half_up((double)rows[i].figures / w->reload);
		if (rows[i].mode == FRAY_PRESIDIO_MOVING && rows[i].figures / 2 < full)
			full = rows[i].figures / 2;
		int want = rows[i].half ? nearest_half_up(full / 2.0) : full;
		fray_presidio_shoot_out out;
		fray_presidio_shoot(r, &in, &out);
		assert_int_equal(out.firing, want);
	}
	fray_roller_free(r);

	/* the dice rolled are the half: 18 disordered light muskets at long
	 * range, 11+: 3 dice, hits binomial(3, 2/12) */
	fray_presidio_shoot_in in = {.weapon = w, .band = 2, .figures = 18, .target_figures = 10, .light = true,
				     .firer_standing = FRAY_PRESIDIO_DISORDERED, .inches = -1,
				     .mode = FRAY_PRESIDIO_INDEPENDENT};
	fray_dist *d;
	assert_int_equal(fray_enumerate(ctx, fray_presidio_shoot_procedure, NULL, &in, 8, NULL, &d), FRAY_OK);
	double hits[19] = {0};
	for (size_t k = 0; k < fray_dist_count(d); k++)
		hits[fray_dist_outcome(d, k)[0]] += fray_dist_p(d, k);
	for (int h = 0; h <= 18; h++)
		assert_double_equal(hits[h], h <= 3 ? binomial(3, h, 2.0 / 12) : 0, 1e-15);
	fray_dist_free(d);

	/* reloading in cover is for troops in skirmish formation; a
	 * disordered unit is in a clump */
	in.reloading_in_cover = true;
	assert_non_null(fray_presidio_fire_state_refused(&in));
	in.firer_standing = FRAY_PRESIDIO_GOOD;
	assert_null(fray_presidio_fire_state_refused(&in));
}

/* ---- Section 9: a 1 on the d12 (snake eyes blind) is a possible
 * mishap; on the mishap table's 5-6, "no problem", the shot goes as
 * rolled: less than the required number, it misses by (required - roll)
 * inches times the fire type's multiplier, in a direction rolled as for
 * any miss. On 1-4 the piece did not shoot. ---- */

typedef struct shot_tally {
	double mishap, no_problem_scatter, hit;
	double kind[7];
} shot_tally;

static shot_tally tally(const fray_presidio_artillery_in *in, int scatter_of_a_one)
{
	fray_dist *d;
	assert_int_equal(fray_enumerate(ctx, fray_presidio_artillery_procedure, NULL, in, 5, NULL, &d), FRAY_OK);
	shot_tally t = {0};
	for (size_t k = 0; k < fray_dist_count(d); k++) {
		const int64_t *o = fray_dist_outcome(d, k);
		double p = fray_dist_p(d, k);
		t.mishap += o[0] == 2 ? p : 0;
		t.hit += o[0] == 1 ? p : 0;
		t.no_problem_scatter += o[0] == 0 && o[2] == scatter_of_a_one ? p : 0;
		t.kind[o[3]] += p;
		if (o[3] >= 5 && scatter_of_a_one > 0)  /* no problem: the shot as rolled, a miss */
			assert_true(o[0] == 0 && o[2] == scatter_of_a_one);
		if (o[3] >= 1 && o[3] <= 4) /* no shot: nothing lands */
			assert_true(o[0] == 2 && o[2] == 0);
	}
	fray_dist_free(d);
	return t;
}

/* The direction and inches of the scatter of a shot that rolled a 1 and
 * had no mishap (0 otherwise). */
static void direction_of_a_one(fray_roller *r, fray_policy *p, const void *in, int64_t *out)
{
	(void)p;
	fray_presidio_artillery_out o;
	fray_presidio_artillery(r, in, &o);
	out[0] = o.roll == 1 && !o.mishap ? o.direction : 0;
	out[1] = o.roll == 1 && !o.mishap ? o.scatter : 0;
}

static void a_one_scatters_unless_a_mishap(void **state)
{
	(void)state;
	const fray_presidio_gun *sb = fray_presidio_gun_find("12# cannon, smoothbore", FRAY_PRESIDIO_SHOT);
	assert_non_null(sb);
	/* direct smoothbore 10+ (the text's scatter example): a 1 misses by 9" */
	fray_presidio_artillery_in in = {.gun = sb, .band = 2, .strength = 6};
	assert_int_equal(fray_presidio_artillery_required(&in), 10);
	shot_tally t = tally(&in, 10 - 1);
	assert_double_equal(t.mishap, 1.0 / 12 * 4 / 6, 1e-15);
	/* only a 1 misses by 9": no other face scatters that far */
	assert_double_equal(t.no_problem_scatter, 1.0 / 12 * 2 / 6, 1e-15);
	for (int k = 1; k <= 6; k++)
		assert_double_equal(t.kind[k], 1.0 / 12 / 6, 1e-15);
	assert_double_equal(t.kind[0], 11.0 / 12, 1e-15);
	assert_double_equal(t.hit, 3.0 / 12, 1e-15); /* 10, 11, 12 */

	/* indirect (11+ less skill 1 = 10), x2: 18"; the direction a d6 */
	in.type = FRAY_PRESIDIO_INDIRECT;
	in.skill = 1;
	t = tally(&in, (10 - 1) * 2);
	assert_double_equal(t.no_problem_scatter, 1.0 / 12 * 2 / 6, 1e-15);
	fray_dist *d;
	assert_int_equal(fray_enumerate(ctx, direction_of_a_one, NULL, &in, 2, NULL, &d), FRAY_OK);
	for (size_t k = 0; k < fray_dist_count(d); k++) {
		const int64_t *o = fray_dist_outcome(d, k);
		if (o[0])
			assert_true(o[1] == 18 && fray_dist_p(d, k) > 0 &&
				    fabs(fray_dist_p(d, k) - 1.0 / 12 * 2 / 6 / 6) < 1e-15);
	}
	assert_int_equal(fray_dist_count(d), 1 + 6); /* none, and the six hex sides */
	fray_dist_free(d);

	/* blind fire, a 24# mortar: snake eyes (1/36), no problem (2/6): 12 -
	 * 2 = 10, x3 = 30" */
	fray_presidio_artillery_in blind = {.gun = fray_presidio_gun_find("24# mortar", FRAY_PRESIDIO_SHELL),
					    .type = FRAY_PRESIDIO_BLIND, .band = 2, .strength = 5};
	t = tally(&blind, (12 - 2) * 3);
	assert_double_equal(t.mishap, 1.0 / 36 * 4 / 6, 1e-15);
	assert_double_equal(t.no_problem_scatter, 1.0 / 36 * 2 / 6, 1e-15);

	/* a required number of 1 or less: "equal to or higher" hits, so a 1
	 * with no problem hits (10 - skill 5 - close 4 = 1) */
	in = (fray_presidio_artillery_in){.gun = sb, .band = 0, .skill = 5, .strength = 6};
	assert_int_equal(fray_presidio_artillery_required(&in), 1);
	t = tally(&in, 0);
	assert_double_equal(t.hit, 1 - 1.0 / 12 * 4 / 6, 1e-15);
}

/* ---- Section 6, Casualty Status in Shattered Units: 1-2 wounded and
 * captured, "1D6: roll for wound status on the chart above, '1'=mortally
 * wounded"; 5 escaped but wounded, "1D6: 1-3 scratched/stunned, 4-6 light
 * wound". The wound read on the remaining units' table, with that row's
 * own dice (1D6 days to death, 2D6 weeks, 2D6 days). ---- */
enum { NONE = 0, MORTAL = 2, MODERATE = 4, LIGHT = 5, SCRATCHED = 7 };

/* want[wound][time] += p for a wound row and its own dice */
static void add_wound(double want[8][13], int row, double p)
{
	for (int a = 1; a <= 6; a++) {
		if (row == MORTAL)
			want[row][a] += p / 6;
		for (int b = 1; b <= 6; b++)
			if (row == MODERATE || row == LIGHT)
				want[row][a + b] += p / 36;
	}
	if (row != MORTAL && row != MODERATE && row != LIGHT)
		want[row][0] += p;
}

static void shattered_units_wounds_read_on_the_table(void **state)
{
	(void)state;
	bool shattered = true;
	fray_dist *d;
	assert_int_equal(fray_enumerate(ctx, fray_presidio_casualty_status_procedure, NULL, &shattered, 4, NULL, &d),
			 FRAY_OK);
	double want[7][8][13] = {{{0}}}, got[7][8][13] = {{{0}}};
	for (int first = 1; first <= 6; first++)
		for (int second = 1; second <= 6; second++) {
			double p = 1.0 / 36;
			if (first <= 2)  /* the captive: a 1 is mortally wounded */
				add_wound(want[first], second == 1 ? MORTAL : second, p);
			else if (first == 5)
				add_wound(want[first], second <= 3 ? SCRATCHED : LIGHT, p);
			else
				want[first][NONE][0] += p;
		}
	for (size_t k = 0; k < fray_dist_count(d); k++) {
		const int64_t *o = fray_dist_outcome(d, k);
		assert_true(o[0] >= 1 && o[0] <= 6 && o[2] >= 0 && o[2] <= 7 && o[3] >= 0 && o[3] <= 12);
		got[o[0]][o[2]][o[3]] += fray_dist_p(d, k);
	}
	for (int f = 1; f <= 6; f++)
		for (int w = 0; w <= 7; w++)
			for (int t = 0; t <= 12; t++)
				assert_double_equal(got[f][w][t], want[f][w][t], 1e-15);
	fray_dist_free(d);
	/* the captive's wounds: never killed; mortally wounded 2 in 6 (a 1
	 * or a 2) */
	double mortal = 0;
	for (int f = 1; f <= 2; f++)
		for (int t = 0; t <= 12; t++)
			mortal += got[f][MORTAL][t];
	assert_double_equal(mortal, 2.0 / 6 * 2.0 / 6, 1e-15);
	assert_string_equal(fray_presidio_wound_names[MORTAL], fray_presidio_status_remaining[1]);
	assert_string_equal(fray_presidio_wound_names[LIGHT], fray_presidio_status_remaining[4]);

	/* a remaining unit's casualty: the wound is the table's row, its time
	 * the second roll */
	bool remaining = false;
	assert_int_equal(fray_enumerate(ctx, fray_presidio_casualty_status_procedure, NULL, &remaining, 4, NULL, &d),
			 FRAY_OK);
	for (size_t k = 0; k < fray_dist_count(d); k++) {
		const int64_t *o = fray_dist_outcome(d, k);
		assert_int_equal(o[2], o[0]);
		assert_int_equal(o[3], o[1]);
	}
	fray_dist_free(d);
}

/* ---- Section 6, Hits: "Hits are applied randomly to the target unit":
 * Section 5 gives melee no rule of its own, so a melee's casualties fall
 * on specialty figures as fire's do (ruling R15): one casualty die each,
 * sized by the unit. "All other hits are then taken by privates": once no
 * private is left, a casualty falls on a specialty figure without a die.
 * The sequential model: the chance that the leader (one of `spec`
 * specialty figures, none hit yet) is among `c` casualties, `priv`
 * privates left, a d`die` per casualty. ---- */
static double leader_model(int c, int spec, int priv, int die)
{
	if (c == 0)
		return 0;
	double q = priv == 0 ? 1 : (double)(spec < die ? spec : die) / die; /* a specialty figure hit */
	double on_spec = 1.0 / spec + (spec > 1 ? (spec - 1.0) / spec * leader_model(c - 1, spec - 1, priv, die) : 0);
	double on_priv = priv > 0 ? leader_model(c - 1, spec, priv - 1, die) : 0;
	return q * on_spec + (1 - q) * on_priv;
}

/* Checks P(leader hit | c casualties) against the model, every c seen;
 * returns P(leader hit) over all outcomes. */
static double melee_leader_ratio(const fray_presidio_melee_in *in, int cas_field, int leader_field, int die, int spec,
				 int priv)
{
	fray_dist *d;
	assert_int_equal(fray_enumerate(ctx, fray_presidio_melee_procedure, NULL, in, 8, NULL, &d), FRAY_OK);
	double with[16] = {0}, led[16] = {0}, all = 0;
	for (size_t k = 0; k < fray_dist_count(d); k++) {
		const int64_t *x = fray_dist_outcome(d, k);
		with[x[cas_field]] += fray_dist_p(d, k);
		led[x[cas_field]] += x[leader_field] ? fray_dist_p(d, k) : 0;
		/* the leader hit is a specialist hit */
		assert_true(!x[leader_field] || x[leader_field - 1] >= 1);
	}
	int seen = 0;
	for (int c = 0; c < 16; c++)
		if (with[c] > 0) {
			assert_double_equal(led[c] / with[c], leader_model(c, spec, priv, die), 1e-12);
			seen += c > 0;
			all += led[c];
		}
	assert_true(seen > 0);
	fray_dist_free(d);
	return all;
}

static void melee_casualties_hit_specialists(void **state)
{
	(void)state;
	/* eight lancers against a team of four (d6), its leader its one
	 * specialty figure */
	fray_presidio_melee_in in = {.weapon = weapon("metal lance/knife"), .figures = 8, .defender_figures = 4,
				     .defender_specialists = 1, .defender_leader = true, .defender_unit_figures = 4};
	melee_leader_ratio(&in, 1, 5, 6, 1, 3);
	/* four in contact of a platoon of twelve: the platoon's d20 */
	in.defender_unit_figures = 12;
	melee_leader_ratio(&in, 1, 5, 20, 1, 11);
	/* the return strike: the attackers' squad of six (d12), its leader
	 * their one specialty figure */
	in = (fray_presidio_melee_in){.weapon = weapon("fists"), .figures = 6, .unit_figures = 6, .specialists = 1,
				      .leader = true, .defender_weapon = weapon("metal lance/knife"),
				      .defender_figures = 4, .both = true};
	melee_leader_ratio(&in, 3, 7, 12, 1, 5);
	/* no specialty figures given: none hit, no die for them */
	in.specialists = 0;
	in.leader = false;
	fray_roller *r = fray_roller_sample_new(ctx, 3, 0);
	fray_presidio_melee_out out;
	for (int i = 0; i < 50; i++) {
		fray_presidio_melee(r, &in, &out);
		assert_int_equal(out.return_specialists_hit, 0);
		assert_false(out.return_leader_hit);
	}
	fray_roller_free(r);
}

/* Issue 28: once the privates run out, the casualties left fall on the
 * specialty figures: when every figure is lost, the leader is lost. */
static void casualties_fall_on_specialists_once_privates_run_out(void **state)
{
	(void)state;
	/* the referee's melee: six mounted lancers charging against a team
	 * of four (d6; the unit's figures not given: those in contact), its
	 * leader the one specialty figure, three privates */
	fray_presidio_melee_in in = {.weapon = weapon("metal lance/knife"), .figures = 6, .mounted = true,
				     .impact = FRAY_PRESIDIO_HORSE, .defender_figures = 4, .defender_specialists = 1,
				     .defender_leader = true};
	melee_leader_ratio(&in, 1, 5, 6, 1, 3);
	/* three specialty figures, the leader among them, in a team of four:
	 * one private */
	in.defender_specialists = 3;
	melee_leader_ratio(&in, 1, 5, 6, 3, 1);
	/* the return strike into a squad of six with two specialty figures */
	in = (fray_presidio_melee_in){.weapon = weapon("fists"), .figures = 6, .unit_figures = 6, .specialists = 2,
				      .leader = true, .defender_weapon = weapon("metal lance/knife"),
				      .defender_figures = 12, .defender_skill = 3, .both = true};
	melee_leader_ratio(&in, 3, 7, 12, 2, 4);

	/* the referee's shot: two figures, one the leader; when both fall the
	 * leader is hit, always; one casualty hits him on a 1 of the d6 */
	fray_presidio_shoot_in s = {.weapon = weapon("flintlock musket"), .band = 0, .figures = 16,
				    .target_figures = 2, .specialists = 1, .target_leader = true};
	fray_dist *d;
	assert_int_equal(fray_enumerate(ctx, fray_presidio_shoot_procedure, NULL, &s, 8, NULL, &d), FRAY_OK);
	double with[3] = {0}, led[3] = {0};
	for (size_t k = 0; k < fray_dist_count(d); k++) {
		const int64_t *x = fray_dist_outcome(d, k);
		with[x[1]] += fray_dist_p(d, k);
		led[x[1]] += x[6] ? fray_dist_p(d, k) : 0;
	}
	assert_true(with[1] > 0 && with[2] > 0);
	assert_double_equal(led[1] / with[1], 1.0 / 6, 1e-12);
	assert_double_equal(led[2] / with[2], 1, 1e-12);
	fray_dist_free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(disordered_light_troops_shoot_half),
		cmocka_unit_test(a_one_scatters_unless_a_mishap),
		cmocka_unit_test(shattered_units_wounds_read_on_the_table),
		cmocka_unit_test(melee_casualties_hit_specialists),
		cmocka_unit_test(casualties_fall_on_specialists_once_privates_run_out),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
