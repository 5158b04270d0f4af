/* Presidio's rules where the game layer once decided them (issue 28):
 * each expectation from the text (Sections 2, 4, 5, 6, 7) or counted
 * here, and every target number told term by term: over many generated
 * inputs of each procedure, the MODIFIERs told add up to each TOTAL, and
 * the TOTAL is the number the die is read against. */
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

/* Item 1, ruling R14: opportunity fire and "aim and shoot" are one
 * shooting action each: figures / reload fire (12 muskets, reload 4: 3),
 * not every figure; a volley all (Volley Fire, ruling R27). */
static void one_action_fires_figures_over_reload(void **state)
{
	(void)state;
	fray_presidio_shoot_in in = {.weapon = weapon("flintlock musket"), .band = 2, .figures = 12,
				     .target_figures = 10};
	fray_roller *r = fray_roller_sample_new(ctx, 7, 0);
	fray_presidio_shoot_out out;
	static const fray_presidio_fire_mode one_action[] = {FRAY_PRESIDIO_INDEPENDENT, FRAY_PRESIDIO_OPPORTUNITY,
							     FRAY_PRESIDIO_AIMED};
	for (size_t i = 0; i < 3; i++) {
		in.mode = one_action[i];
		fray_presidio_shoot(r, &in, &out);
		assert_int_equal(out.firing, 12 / 4);
	}
	in.mode = FRAY_PRESIDIO_VOLLEY;
	in.volley_ready = true;
	fray_presidio_shoot(r, &in, &out);
	assert_int_equal(out.firing, 12);
	assert_true(out.volley);
	/* R27: a volley asked of a unit not in line is independent fire */
	in.volley_ready = false;
	fray_presidio_shoot(r, &in, &out);
	assert_int_equal(out.firing, 3);
	assert_false(out.volley);
	fray_roller_free(r);
}

/* The largest roll the catalogue lets in: 1000 figures of reload 1 firing
 * two actions of independent fire together roll 2000 dice (Section 4,
 * Independent Fire); the roller took at most 1000 and a Debug build
 * aborted on it (found by an adversary's review, reachable from fray serve). */
static void two_actions_of_a_thousand_figures(void **state)
{
	(void)state;
	fray_presidio_shoot_in in = {.weapon = weapon("metal bow/sling"), .band = 1, .figures = 1000,
				     .target_figures = 1000, .actions = 2};
	assert_int_equal(in.weapon->reload, 1);
	fray_roller *r = fray_roller_sample_new(ctx, 7, 0);
	fray_presidio_shoot_out out;
	fray_presidio_shoot(r, &in, &out);
	assert_int_equal(out.firing, 2000);
	assert_true(out.hits > 0 && out.hits <= 2000);
	fray_roller_free(r);
}

/* Item 2, Volley Fire: "Do not count officers and NCOs when firing in
 * volley": 12 figures with 2 of them an officer and an NCO fire 10. */
static void volley_leaves_out_officers_and_ncos(void **state)
{
	(void)state;
	fray_presidio_shoot_in in = {.weapon = weapon("flintlock musket"), .band = 2, .figures = 12,
				     .mode = FRAY_PRESIDIO_VOLLEY, .volley_ready = true, .firer_leaders = 2,
				     .target_figures = 10};
	fray_roller *r = fray_roller_sample_new(ctx, 7, 0);
	fray_presidio_shoot_out out;
	fray_presidio_shoot(r, &in, &out);
	assert_int_equal(out.firing, 10);
	/* independent fire counts them (figures / reload: 12 / 4) */
	in.mode = FRAY_PRESIDIO_INDEPENDENT;
	in.volley_ready = false;
	fray_presidio_shoot(r, &in, &out);
	assert_int_equal(out.firing, 3);
	fray_roller_free(r);
}

/* Item 3, Volley Fire: "Then all figures reload at the same time": after
 * a volley nothing fires until the reload is done, independent fire
 * neither; a volley needs the unit fully loaded. Reloading While Moving:
 * no reload while panicking. */
static void nothing_loaded_after_a_volley(void **state)
{
	(void)state;
	fray_presidio_shoot_in in = {.weapon = weapon("flintlock musket"), .mode = FRAY_PRESIDIO_INDEPENDENT,
				     .reload_left = 4, .after_volley = true};
	assert_non_null(fray_presidio_fire_state_refused(&in));
	in.reload_left = 0;
	assert_null(fray_presidio_fire_state_refused(&in));
	/* after independent fire the reload counter blocks a volley only */
	in = (fray_presidio_shoot_in){.weapon = in.weapon, .mode = FRAY_PRESIDIO_INDEPENDENT, .reload_left = 4};
	assert_null(fray_presidio_fire_state_refused(&in));
	in.mode = FRAY_PRESIDIO_VOLLEY;
	in.volley_ready = true;
	assert_non_null(fray_presidio_fire_state_refused(&in));
	/* defensive fire: a volley when it may, else independent fire */
	in.volley_if_able = true;
	assert_null(fray_presidio_fire_state_refused(&in));
	fray_roller *r = fray_roller_sample_new(ctx, 1, 0);
	fray_presidio_shoot_out out;
	in.figures = 12;
	in.target_figures = 10;
	fray_presidio_shoot(r, &in, &out);
	assert_false(out.volley);
	assert_int_equal(out.firing, 3);
	fray_roller_free(r);
	assert_non_null(fray_presidio_act_refused(FRAY_PRESIDIO_PANICKED, FRAY_PRESIDIO_ACT_RELOAD));
	assert_non_null(fray_presidio_act_refused(FRAY_PRESIDIO_PANICKED, FRAY_PRESIDIO_ACT_SHOOT));
	assert_null(fray_presidio_act_refused(FRAY_PRESIDIO_DISORDERED, FRAY_PRESIDIO_ACT_RELOAD));
	assert_null(fray_presidio_act_refused(FRAY_PRESIDIO_PANICKED, FRAY_PRESIDIO_ACT_RALLY));
	assert_non_null(fray_presidio_act_refused(FRAY_PRESIDIO_FELL_BACK, FRAY_PRESIDIO_ACT_RALLY));
}

/* The morale check of in with the die forced: the outcome for a total
 * of `total` (a sampling roller cannot be told a face, so the required
 * number is moved instead: required - short_by). */
static fray_presidio_morale_out check_short_by(fray_presidio_morale_in in, int short_by)
{
	fray_presidio_morale_out o = {0};
	o.short_by = short_by;
	o.success = short_by == 0;
	o.standing = fray_presidio_morale_standing(&in, short_by);
	o.holds = o.success || fray_presidio_standing_holds(o.standing);
	return o;
}

/* Item 4, Fear of Charge and Morale Roll Resolution: a unit in line short
 * by 1-2 is disordered (it failed: no reaction, but it holds its place);
 * pass or fail is the check's, not the old marker's: a unit that had
 * fallen back and passes holds. */
static void fear_of_charge_reads_this_check(void **state)
{
	(void)state;
	fray_presidio_morale_in line = {.level = FRAY_PRESIDIO_AVERAGE, .size = FRAY_PRESIDIO_PLATOON, .line = true,
					.charged = true, .situation = FRAY_PRESIDIO_LINE};
	fray_presidio_morale_out o = check_short_by(line, 2);
	assert_false(o.success);
	assert_int_equal(o.standing, FRAY_PRESIDIO_DISORDERED);
	assert_true(o.holds);
	o = check_short_by(line, 3);
	assert_int_equal(o.standing, FRAY_PRESIDIO_RETREATED);
	assert_false(o.holds);
	/* a pass with an old fall-back marker: the marker stays, the unit holds */
	line.standing = FRAY_PRESIDIO_FELL_BACK;
	o = check_short_by(line, 0);
	assert_true(o.success);
	assert_int_equal(o.standing, FRAY_PRESIDIO_FELL_BACK);
	assert_true(o.holds);
	/* the procedure's own outcome agrees, whatever the die: a pass holds */
	fray_dist *d;
	assert_int_equal(fray_enumerate(ctx, fray_presidio_morale_procedure, NULL, &line, 5, NULL, &d), FRAY_OK);
	for (size_t k = 0; k < fray_dist_count(d); k++) {
		const int64_t *x = fray_dist_outcome(d, k);
		if (x[0])
			assert_true(x[4]);
	}
	fray_dist_free(d);
	/* chargers short by 1-2: disordered, they go on (Charging Units) */
	fray_presidio_morale_in chargers = {.level = FRAY_PRESIDIO_AVERAGE, .size = FRAY_PRESIDIO_SQUAD,
					    .charging = true, .situation = FRAY_PRESIDIO_CHARGING};
	o = check_short_by(chargers, 1);
	assert_int_equal(o.standing, FRAY_PRESIDIO_DISORDERED);
	assert_true(o.holds);
	o = check_short_by(chargers, 3);
	assert_int_equal(o.standing, FRAY_PRESIDIO_FELL_BACK);
	assert_false(o.holds);
}

typedef struct strike_count {
	int defender_dice;
} strike_count;

static void count_strikes(void *ud, const fray_event *ev)
{
	strike_count *s = ud;
	if (ev->kind == FRAY_EV_ROLL && ev->what && !strcmp(ev->what, "defender strikes"))
		s->defender_dice += ev->count;
}

/* Item 5, Melee Attacks: "The attackers are allowed one action to
 * attack, then the defenders": in a melee's turn about the defenders
 * strike with the figures they have left. (At a charge's impact a
 * defender strikes back simultaneously, every figure: issue 40 item 1,
 * test_presidio_readings.) */
static void return_strike_with_the_survivors(void **state)
{
	(void)state;
	fray_presidio_melee_in in = {.weapon = weapon("metal lance/knife"), .defender_weapon = weapon("fists"),
				     .figures = 8, .defender_figures = 6, .skill = 3, .mounted = true, .both = true};
	for (uint64_t seed = 1; seed <= 40; seed++) {
		fray_roller *r = fray_roller_sample_new(ctx, seed, 0);
		strike_count s = {0};
		fray_roller_set_sink(r, count_strikes, &s);
		fray_presidio_melee_out out;
		fray_presidio_melee(r, &in, &out);
		if (out.casualties < 6)
			assert_int_equal(s.defender_dice, 6 - out.casualties);
		else
			assert_int_equal(s.defender_dice, 0);
		fray_roller_free(r);
	}
}

/* Issue 28 item 5, Section 2, Holding 2 Actions: a defender that saved an
 * action melees "simultaneously" (charging units only "usually strike
 * first"): every defender in contact strikes back, whatever the
 * attackers' strike took; and the defenders' casualties are the same as
 * without it (the attackers' strike does not change). */
static void simultaneous_strike_with_every_defender(void **state)
{
	(void)state;
	fray_presidio_melee_in in = {.weapon = weapon("metal lance/knife"), .defender_weapon = weapon("fists"),
				     .figures = 8, .defender_figures = 6, .skill = 3, .impact = FRAY_PRESIDIO_LANCE,
				     .mounted = true, .both = true, .simultaneous = true};
	assert_null(fray_presidio_melee_refused(&in));
	int took = 0;
	for (uint64_t seed = 1; seed <= 40; seed++) {
		fray_roller *r = fray_roller_sample_new(ctx, seed, 0);
		strike_count s = {0};
		fray_roller_set_sink(r, count_strikes, &s);
		fray_presidio_melee_out out;
		fray_presidio_melee(r, &in, &out);
		assert_int_equal(s.defender_dice, 6);
		took += out.casualties > 0;
		fray_roller_free(r);
	}
	assert_true(took > 0); /* some strikes took defenders, who struck all the same */
	/* the return strike's hits: binomial(6, p) with fists (Hit# from the
	 * list) against the lancers, whatever the defenders lost */
	int diff = fray_presidio_return_difficulty(&in);
	double p = diff > 12 ? 0 : (13.0 - (diff < 1 ? 1 : diff)) / 12;
	fray_dist *d;
	assert_int_equal(fray_enumerate(ctx, fray_presidio_melee_procedure, NULL, &in, 8, NULL, &d), FRAY_OK);
	double none = 0;
	for (size_t k = 0; k < fray_dist_count(d); k++)
		none += fray_dist_outcome(d, k)[2] == 0 ? fray_dist_p(d, k) : 0;
	assert_double_equal(none, pow(1 - p, 6), 1e-12);
	fray_dist_free(d);
	/* simultaneous is the defenders' strike back: refused without both */
	in.both = false;
	assert_non_null(fray_presidio_melee_refused(&in));
}

/* Item 6: within 4" (Section 7, Surrender) is 4", not a rifle's close
 * band (under 12"); full cover (loopholes) has a morale DM, its benefit
 * 4, as partial and heavy cover have theirs; incidental cover on top of
 * partial cover counts both. */
static void within_4_and_cover_for_morale(void **state)
{
	(void)state;
	assert_false(fray_presidio_within_4(FRAY_PRESIDIO_RIFLE, 0, -1));
	assert_false(fray_presidio_within_4(FRAY_PRESIDIO_RIFLE, 0, 10));
	assert_true(fray_presidio_within_4(FRAY_PRESIDIO_RIFLE, 0, 3.5));
	assert_true(fray_presidio_within_4(FRAY_PRESIDIO_MUSKET, 0, -1));
	assert_false(fray_presidio_within_4(FRAY_PRESIDIO_MUSKET, 1, -1));
	fray_presidio_morale_in in = {.level = FRAY_PRESIDIO_AVERAGE, .size = FRAY_PRESIDIO_PLATOON,
				      .cover = FRAY_PRESIDIO_FULL};
	assert_int_equal(fray_presidio_morale_required(&in), 7 - 4);
	in.cover = FRAY_PRESIDIO_PARTIAL;
	in.incidental_or_friendly_cover = true;
	assert_int_equal(fray_presidio_morale_required(&in), 7 - 2 - 1);
	/* a shot with the rifle at 10": within the close band, not within 4" */
	fray_presidio_shoot_in s = {.weapon = weapon("flintlock rifled musket"), .band = 0, .inches = 10,
				    .figures = 10, .target_figures = 10};
	fray_roller *r = fray_roller_sample_new(ctx, 3, 0);
	fray_presidio_shoot_out out;
	fray_presidio_shoot(r, &s, &out);
	assert_false(out.within_4);
	fray_roller_free(r);
}

/* Item 7, Section 6 Hits (ruling R15) and Section 7 Leaders: the leader
 * is the first specialty figure: with one specialist in a team (d6), each
 * casualty hits him on a 1 while a private is left: P(leader hit | c
 * casualties) = 1 - (5/6)^c for c <= 3 privates; the fourth casualty
 * takes every figure, the leader certainly (issue 28). */
static void the_leader_hit_by_the_casualty_die(void **state)
{
	(void)state;
	fray_presidio_shoot_in in = {.weapon = weapon("flintlock musket"), .band = 0, .figures = 8,
				     .mode = FRAY_PRESIDIO_VOLLEY, .volley_ready = true, .target_figures = 4,
				     .specialists = 1, .target_leader = true};
	fray_dist *d;
	assert_int_equal(fray_enumerate(ctx, fray_presidio_shoot_procedure, NULL, &in, 8, NULL, &d), FRAY_OK);
	double with[5] = {0}, led[5] = {0};
	for (size_t k = 0; k < fray_dist_count(d); k++) {
		const int64_t *x = fray_dist_outcome(d, k);
		with[x[1]] += fray_dist_p(d, k);
		led[x[1]] += x[6] ? fray_dist_p(d, k) : 0;
		assert_true(!x[6] || x[2] == 1); /* the leader hit is a specialist hit */
	}
	for (int c = 0; c <= 4; c++)
		if (with[c] > 0)
			assert_double_equal(led[c] / with[c], c < 4 ? 1 - pow(5.0 / 6, c) : 1, 1e-12);
	fray_dist_free(d);
	/* the check after it: +2 (Leaders) */
	fray_presidio_morale_in m = {.level = FRAY_PRESIDIO_AVERAGE, .size = FRAY_PRESIDIO_TEAM,
				     .leader_casualty = true};
	assert_int_equal(fray_presidio_morale_required(&m), 7 + 2);
}

/* Item 8, Morale Roll Results: a milder failure never lifts a worse
 * standing; only a rally turns a panic about (Section 2). */
static void milder_result_keeps_the_worse_standing(void **state)
{
	(void)state;
	fray_presidio_morale_in in = {.level = FRAY_PRESIDIO_AVERAGE, .size = FRAY_PRESIDIO_SQUAD,
				      .situation = FRAY_PRESIDIO_OPEN, .standing = FRAY_PRESIDIO_PANICKED};
	assert_int_equal(fray_presidio_morale_standing(&in, 1), FRAY_PRESIDIO_PANICKED);
	assert_non_null(strstr(fray_presidio_morale_result(&in, 1), "panicked"));
	in.standing = FRAY_PRESIDIO_RETREATED;
	assert_int_equal(fray_presidio_morale_standing(&in, 2), FRAY_PRESIDIO_RETREATED);
	assert_int_equal(fray_presidio_morale_standing(&in, 5), FRAY_PRESIDIO_PANICKED);
	in.standing = FRAY_PRESIDIO_GOOD;
	in.situation = FRAY_PRESIDIO_IN_COVER;
	assert_int_equal(fray_presidio_morale_standing(&in, 3), FRAY_PRESIDIO_HUNKERED);
	in.near_enemy = true;
	assert_int_equal(fray_presidio_morale_standing(&in, 5), FRAY_PRESIDIO_SURRENDERED);
}

/* Item 9, Section 2 Rally: "NCO's cannot rally troops": a sargento's 2
 * does not count (a 6 needed: 1/6); a teniente's 2 does (4+: 1/2). */
static void an_nco_cannot_rally(void **state)
{
	(void)state;
	const fray_presidio_rank *sargento = fray_presidio_rank_find("Sargento");
	const fray_presidio_rank *teniente = fray_presidio_rank_find("teniente");
	assert_non_null(sargento);
	assert_non_null(teniente);
	assert_false(sargento->officer);
	assert_true(teniente->officer);
	assert_int_equal(sargento->skill, 2);
	fray_presidio_rally_in nco = {.leader = sargento->skill, .nco = !sargento->officer};
	fray_presidio_rally_in officer = {.leader = teniente->skill, .nco = !teniente->officer};
	const fray_presidio_rally_in *ins[2] = {&nco, &officer};
	const double want[2] = {1 / 6.0, 3 / 6.0};
	for (int i = 0; i < 2; i++) {
		fray_dist *d;
		assert_int_equal(fray_enumerate(ctx, fray_presidio_rally_procedure, NULL, ins[i], 2, NULL, &d), FRAY_OK);
		double ok = 0;
		for (size_t k = 0; k < fray_dist_count(d); k++) {
			const int64_t *x = fray_dist_outcome(d, k);
			ok += x[0] ? fray_dist_p(d, k) : 0;
			assert_int_equal(x[1], x[0] ? FRAY_PRESIDIO_DISORDERED : FRAY_PRESIDIO_PANICKED);
		}
		assert_double_equal(ok, want[i], 1e-15);
		fray_dist_free(d);
	}
}

/* Item 10, Special Cover, Hunker Down: hunkering gives complete cover:
 * nothing hits a hunkered unit. */
static void hunkered_is_complete_cover(void **state)
{
	(void)state;
	fray_presidio_shoot_in in = {.weapon = weapon("flintlock musket"), .band = 0, .figures = 20,
				     .mode = FRAY_PRESIDIO_VOLLEY, .volley_ready = true, .target_figures = 10,
				     .target_standing = FRAY_PRESIDIO_HUNKERED};
	assert_true(fray_presidio_hit_number(&in) > 12);
	fray_dist *d;
	assert_int_equal(fray_enumerate(ctx, fray_presidio_shoot_procedure, NULL, &in, 8, NULL, &d), FRAY_OK);
	assert_int_equal(fray_dist_count(d), 1);
	assert_int_equal(fray_dist_outcome(d, 0)[0], 0);
	fray_dist_free(d);
}

/* Missing list, Defensive Cover: "the defender receives a +1 when firing
 * back" from partial, heavy or full cover (read as added to its hit
 * number, as the firer's "+2 to hit"). */
static void firing_back_from_cover(void **state)
{
	(void)state;
	fray_presidio_shoot_in in = {.weapon = weapon("flintlock musket"), .band = 1, .skill = 2, .figures = 8};
	int open = fray_presidio_hit_number(&in);
	assert_int_equal(open, 11 - 2 - 2);
	static const fray_presidio_cover covers[] = {FRAY_PRESIDIO_PARTIAL, FRAY_PRESIDIO_HEAVY, FRAY_PRESIDIO_FULL};
	for (size_t i = 0; i < 3; i++) {
		in.firer_cover = covers[i];
		assert_int_equal(fray_presidio_hit_number(&in), open + 1);
	}
	in.firer_cover = FRAY_PRESIDIO_INCIDENTAL;
	assert_int_equal(fray_presidio_hit_number(&in), open);
}

/* Missing list, Section 8: the night's Search DM (Nighttime Visibility)
 * on the sentry's discovery die: an alert sentry (5-6) with Recon 1
 * against Camou 1 sees them by night on 5+, with a full moon (+2) on 3+:
 * P(discovered) = 2/6 x 4/6 + 2/6 (daydreaming, -1) x 3/6. */
static void night_dm_for_sentries(void **state)
{
	(void)state;
	fray_presidio_sentry_in in = {.recon = 1, .camou = 1, .night = true, .size = FRAY_PRESIDIO_SQUAD,
				      .night_dm = 2};
	fray_dist *d;
	assert_int_equal(fray_enumerate(ctx, fray_presidio_sentry_procedure, NULL, &in, 2, NULL, &d), FRAY_OK);
	double seen_p = 0;
	for (size_t k = 0; k < fray_dist_count(d); k++)
		seen_p += fray_dist_outcome(d, k)[1] ? fray_dist_p(d, k) : 0;
	assert_double_equal(seen_p, 2.0 / 6 * 4.0 / 6 + 2.0 / 6 * 3.0 / 6, 1e-15);
	fray_dist_free(d);
}

/* Missing list, Section 3 Formations: a column on a road moves +3": on
 * foot with a 3, 6 + 3 + 3 = 12"; running, (6 + 3) x 2 + 3 = 21". */
static void column_on_a_road(void **state)
{
	(void)state;
	fray_presidio_move_in in = {.mover = FRAY_PRESIDIO_ON_FOOT, .road_column = true};
	assert_double_equal(fray_presidio_move_distance(&in, 3), 12, 0);
	in.running = true;
	assert_double_equal(fray_presidio_move_distance(&in, 3), 21, 0);
	in = (fray_presidio_move_in){.mover = FRAY_PRESIDIO_ON_FOOT};
	assert_double_equal(fray_presidio_move_distance(&in, 3), 9, 0);
}

/* ---- told terms ---- */

typedef struct terms_seen {
	int64_t sum;          /* MODIFIERs since the last TOTAL */
	int totals, bad;
	int64_t last_total;
	char first_bad[160];
	int64_t named[8];     /* TOTALs by the name asked for */
	const char *names[8];
	int nnames;
} terms_seen;

static void watch_terms(void *ud, const fray_event *ev)
{
	terms_seen *t = ud;
	if (ev->kind == FRAY_EV_MODIFIER) {
		t->sum += ev->value;
	} else if (ev->kind == FRAY_EV_TOTAL) {
		if (ev->value != t->sum && !t->bad++)
			snprintf(t->first_bad, sizeof t->first_bad, "%s: told %lld, terms add to %lld", ev->what,
				 (long long)ev->value, (long long)t->sum);
		for (int i = 0; i < t->nnames; i++)
			if (!strcmp(ev->what, t->names[i]))
				t->named[i] = ev->value;
		t->totals++;
		t->last_total = ev->value;
		t->sum = 0;
	}
}

static void no_bad_terms(const terms_seen *t)
{
	if (t->bad)
		print_error("%s\n", t->first_bad);
	assert_int_equal(t->bad, 0);
}

/* A small deterministic generator for the inputs (not the dice). */
static uint64_t gen_state = 88172645463325252ull;
static int pick(int n)
{
	gen_state ^= gen_state << 13;
	gen_state ^= gen_state >> 7;
	gen_state ^= gen_state << 17;
	return (int)(gen_state % (uint64_t)n);
}

static void shoot_terms_add_up(void **state)
{
	(void)state;
	for (int i = 0; i < 3000; i++) {
		const fray_presidio_weapon *w;
		do
			w = &fray_presidio_weapons[pick((int)fray_presidio_nweapons)];
		while (w->range == FRAY_PRESIDIO_MELEE);
		fray_presidio_shoot_in in = {
			.weapon = w, .band = pick(3), .skill = pick(5), .figures = 1 + pick(20),
			.mode = (fray_presidio_fire_mode)pick(5), .cover = (fray_presidio_cover)pick(6),
			.incidental = pick(2), .skirmish_target = pick(2), .mounted_target = pick(2),
			.evading = pick(2), .taking_cover = pick(2), .other_dm = pick(7) - 3, .armor = pick(6),
			.target_figures = 1 + pick(20), .specialists = pick(3), .volley_ready = pick(2),
			.firer_cover = (fray_presidio_cover)pick(6), .firer_leaders = pick(3),
			.target_standing = (fray_presidio_standing)pick(4), .target_leader = pick(2), .inches = -1};
		if (in.incidental && in.cover == FRAY_PRESIDIO_INCIDENTAL)
			in.incidental = false;
		fray_roller *r = fray_roller_sample_new(ctx, (uint64_t)i + 1, 0);
		terms_seen t = {.names = {"hit number (d12 each)", "wound number (d12 per hit)"}, .nnames = 2,
				.named = {-1, -1}};
		fray_roller_set_sink(r, watch_terms, &t);
		fray_presidio_shoot_out out;
		fray_presidio_shoot(r, &in, &out);
		no_bad_terms(&t);
		if (out.hit_number <= 12) {
			assert_int_equal(t.named[0], out.hit_number);
			if (out.wound_number)
				assert_int_equal(t.named[1], out.wound_number);
		}
		fray_roller_free(r);
	}
}

static void morale_terms_add_up(void **state)
{
	(void)state;
	for (int i = 0; i < 3000; i++) {
		fray_presidio_morale_in in = {
			.level = (fray_presidio_level)pick(FRAY_PRESIDIO_NLEVELS), .size = (fray_presidio_size)pick(4),
			.casualties = pick(8), .charging = pick(2), .incidental_or_friendly_cover = pick(2),
			.cover = (fray_presidio_cover)pick(5), .line = pick(2), .leader = pick(5),
			.leader_casualty = pick(2), .friends_fell_back = pick(2), .friends_retreated = pick(2),
			.friends_panicked = pick(2), .chaplain = pick(2), .hero = pick(2), .flag = pick(2),
			.fifer = pick(2), .situation = (fray_presidio_situation)pick(4), .near_enemy = pick(2),
			.standing = (fray_presidio_standing)pick(7)};
		in.charged = !in.charging && pick(2);
		fray_roller *r = fray_roller_sample_new(ctx, (uint64_t)i + 1, 0);
		terms_seen t = {.names = {"required number", "added to the die"}, .nnames = 2};
		fray_roller_set_sink(r, watch_terms, &t);
		fray_presidio_morale_out out;
		fray_presidio_morale(r, &in, &out);
		no_bad_terms(&t);
		assert_int_equal(t.named[0], out.required);
		/* the leader's bonus is the die's one term: roll + it = total */
		assert_int_equal(out.roll + t.named[1], out.total);
		fray_roller_free(r);
	}
}

static void melee_terms_add_up(void **state)
{
	(void)state;
	for (int i = 0; i < 2000; i++) {
		const fray_presidio_weapon *w, *dw;
		do
			w = &fray_presidio_weapons[pick((int)fray_presidio_nweapons)];
		while (!fray_presidio_melee_weapon(w));
		do
			dw = &fray_presidio_weapons[pick((int)fray_presidio_nweapons)];
		while (!fray_presidio_melee_weapon(dw));
		fray_presidio_melee_in in = {
			.weapon = w, .defender_weapon = dw, .figures = 1 + pick(12), .defender_figures = 1 + pick(12),
			.skill = pick(5), .defender_skill = pick(5), .armor = pick(4), .defender_armor = pick(4),
			.impact = (fray_presidio_impact)pick(5), .low_wall = pick(2), .uphill = pick(2),
			.high_wall = pick(2), .ladder = pick(2), .mounted = pick(2), .defender_mounted = pick(2),
			.both = pick(2), .other_dm = pick(5) - 2};
		fray_roller *r = fray_roller_sample_new(ctx, (uint64_t)i + 1, 0);
		terms_seen t = {.names = {"the attack's difficulty (d12 each)", "the return strike's difficulty (d12 each)"},
				.nnames = 2, .named = {-99, -99}};
		fray_roller_set_sink(r, watch_terms, &t);
		fray_presidio_melee_out out;
		fray_presidio_melee(r, &in, &out);
		no_bad_terms(&t);
		assert_int_equal(t.named[0], out.difficulty);
		if (in.both && out.casualties < in.defender_figures)
			assert_int_equal(t.named[1], out.return_difficulty);
		fray_roller_free(r);
	}
}

static void rally_terms_add_up(void **state)
{
	(void)state;
	for (int l = 0; l <= 4; l++)
		for (int nco = 0; nco < 2; nco++) {
			fray_presidio_rally_in in = {.leader = l, .nco = nco};
			fray_roller *r = fray_roller_sample_new(ctx, 9, 0);
			terms_seen t = {.names = {"needed on the rally die"}, .nnames = 1};
			fray_roller_set_sink(r, watch_terms, &t);
			int64_t out[2];
			fray_presidio_rally_procedure(r, NULL, &in, out);
			no_bad_terms(&t);
			assert_int_equal(t.named[0], fray_presidio_rally_need(&in));
			assert_int_equal(t.named[0], nco ? 6 : 6 - l);
			fray_roller_free(r);
		}
}

static void artillery_terms_add_up(void **state)
{
	(void)state;
	for (int i = 0; i < 2000; i++) {
		const fray_presidio_gun *g = &fray_presidio_guns[pick((int)fray_presidio_nguns)];
		fray_presidio_artillery_in in = {.gun = g, .type = (fray_presidio_fire_type)pick(4), .skill = pick(4),
						 .band = pick(3), .cover_dm = pick(4), .other_dm = pick(5) - 2,
						 .corrections = pick(4), .strength = pick(8), .crew_missing = pick(2),
						 .enemy_figures = pick(10)};
		if (fray_presidio_fire_refused(g, in.type))
			continue;
		fray_roller *r = fray_roller_sample_new(ctx, (uint64_t)i + 1, 0);
		terms_seen t = {.names = {"required number"}, .nnames = 1, .named = {-99}};
		fray_roller_set_sink(r, watch_terms, &t);
		fray_presidio_artillery_out out;
		fray_presidio_artillery(r, &in, &out);
		no_bad_terms(&t);
		assert_int_equal(t.named[0], out.required);
		assert_int_equal(out.required, fray_presidio_artillery_required(&in));
		fray_roller_free(r);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(one_action_fires_figures_over_reload),
		cmocka_unit_test(two_actions_of_a_thousand_figures),
		cmocka_unit_test(volley_leaves_out_officers_and_ncos),
		cmocka_unit_test(nothing_loaded_after_a_volley),
		cmocka_unit_test(fear_of_charge_reads_this_check),
		cmocka_unit_test(return_strike_with_the_survivors),
		cmocka_unit_test(within_4_and_cover_for_morale),
		cmocka_unit_test(the_leader_hit_by_the_casualty_die),
		cmocka_unit_test(simultaneous_strike_with_every_defender),
		cmocka_unit_test(milder_result_keeps_the_worse_standing),
		cmocka_unit_test(an_nco_cannot_rally),
		cmocka_unit_test(hunkered_is_complete_cover),
		cmocka_unit_test(firing_back_from_cover),
		cmocka_unit_test(night_dm_for_sentries),
		cmocka_unit_test(column_on_a_road),
		cmocka_unit_test(shoot_terms_add_up),
		cmocka_unit_test(morale_terms_add_up),
		cmocka_unit_test(melee_terms_add_up),
		cmocka_unit_test(rally_terms_add_up),
		cmocka_unit_test(artillery_terms_add_up),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
