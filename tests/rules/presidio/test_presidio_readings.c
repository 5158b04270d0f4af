/* Issue 40's Presidio items 1, 2 and 5 in the procedures, and the readings
 * settled in docs/rulings.md (R41-R46). Each expectation is the text's or
 * counted here from the text (dice faces, exact chances), never taken
 * from fray's output. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
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

/* The chance a d12 scores need or more. */
static double d12(int need)
{
	return need > 12 ? 0 : need < 1 ? 1 : (13.0 - need) / 12;
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

/* P(no return hit) when the defenders (n of them) strike back with
 * those left after casualties that fall with chance q a figure on the
 * attackers' side (a attackers, each hit then wounded), capped at n;
 * survivors: the survivors strike, else all n do. Each defender hits with
 * chance p. */
static double no_return_hit(int a, double q, int n, double p, bool survivors)
{
	double s = 0;
	for (int c = 0; c <= a; c++) {
		int lost = c < n ? c : n;
		s += binomial(a, c, q) * pow(1 - p, survivors ? n - lost : n);
	}
	return s;
}

/* Issue 40 item 1. At a charge's impact a defender striking back does so
 * with the action it saved: "wait and melee simultaneously" (Section 2,
 * Holding 1 Action; Holding 2 Actions: "save one action to simultaneously
 * melee against the attackers"), so all its figures in contact strike,
 * whatever the impact took. Eight mounted lancers (skill 1) charge six
 * defenders with fists (skill 0, armor 0; the lancers' armor 0):
 *  - the lancers need 8 (lance Hit#) - 1 + 0 - 1 (on horseback) - 3
 *    (horse with lance) = 3+, and wound on the damage chart for 3 - 0:
 *    6+ (Section 6);
 *  - the defenders need 8 (fists) - 0 + 1 + 1 (the attackers on
 *    horseback) = 10+.
 * Without a charge (a melee's turn about, Section 5, Melee Attacks: "then
 * the defenders are allowed to attack") the survivors strike. */
static void impact_return_strike_is_simultaneous(void **state)
{
	(void)state;
	fray_presidio_melee_in in = {.weapon = weapon("metal lance/knife"), .defender_weapon = weapon("fists"),
				     .figures = 8, .defender_figures = 6, .skill = 1, .impact = FRAY_PRESIDIO_LANCE,
				     .mounted = true, .both = true};
	assert_int_equal(fray_presidio_melee_difficulty(&in), 8 - 1 + 0 - 1 - 3);
	assert_int_equal(fray_presidio_return_difficulty(&in), 8 - 0 + 1 + 1);
	assert_true(fray_presidio_strikes_back_simultaneously(&in));
	double p = d12(10), q_impact = d12(3) * d12(6);
	/* every seed: six defender dice */
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
	assert_true(took > 0);
	fray_dist *d;
	assert_int_equal(fray_enumerate(ctx, fray_presidio_melee_procedure, NULL, &in, 8, NULL, &d), FRAY_OK);
	double none = 0;
	for (size_t k = 0; k < fray_dist_count(d); k++)
		none += fray_dist_outcome(d, k)[2] == 0 ? fray_dist_p(d, k) : 0;
	fray_dist_free(d);
	assert_double_equal(none, no_return_hit(8, q_impact, 6, p, false), 1e-12);
	/* the impact's survivors alone would give another number */
	assert_true(fabs(no_return_hit(8, q_impact, 6, p, true) - none) > 1e-3);

	/* no charge: the survivors strike back; the lancers need 8 - 1 - 1 = 6+ */
	in.impact = FRAY_PRESIDIO_NO_CHARGE;
	assert_false(fray_presidio_strikes_back_simultaneously(&in));
	assert_int_equal(fray_presidio_melee_difficulty(&in), 8 - 1 - 1);
	assert_int_equal(fray_enumerate(ctx, fray_presidio_melee_procedure, NULL, &in, 8, NULL, &d), FRAY_OK);
	none = 0;
	for (size_t k = 0; k < fray_dist_count(d); k++)
		none += fray_dist_outcome(d, k)[2] == 0 ? fray_dist_p(d, k) : 0;
	fray_dist_free(d);
	assert_double_equal(none, no_return_hit(8, d12(6) * d12(6), 6, p, true), 1e-12);
}

/* Issue 40 item 2, ruling R44. A disordered unit is placed "in a clump"
 * (Section 3, Disorder), a retreated one "in disorder", a panicked one
 * "in a clump" (Section 7), a line that fell back "disordered" (Section 7,
 * Fall Back; ruling R49): none is in line, so none has the line's -1
 * (Section 7, Line Units) nor the "Unit in Line" rows. An average
 * platoon, no casualties, charged: 7 + 2 = 9+; in line and in order 8+. */
static void out_of_formation_is_no_line(void **state)
{
	(void)state;
	fray_presidio_morale_in in = {.level = FRAY_PRESIDIO_AVERAGE, .size = FRAY_PRESIDIO_PLATOON, .line = true,
				      .charged = true, .situation = FRAY_PRESIDIO_LINE};
	static const struct {
		fray_presidio_standing s;
		int required;
		fray_presidio_situation read;
	} rows[] = {
		{FRAY_PRESIDIO_GOOD, 7 + 2 - 1, FRAY_PRESIDIO_LINE},
		/* a line's fall back sets it down disordered (ruling R49) */
		{FRAY_PRESIDIO_FELL_BACK, 7 + 2, FRAY_PRESIDIO_OPEN},
		{FRAY_PRESIDIO_FLINCHED, 7 + 2 - 1, FRAY_PRESIDIO_LINE},
		{FRAY_PRESIDIO_DISORDERED, 7 + 2, FRAY_PRESIDIO_OPEN},
		{FRAY_PRESIDIO_RETREATED, 7 + 2, FRAY_PRESIDIO_OPEN},
		{FRAY_PRESIDIO_PANICKED, 7 + 2, FRAY_PRESIDIO_OPEN},
	};
	for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
		in.standing = rows[i].s;
		assert_int_equal(fray_presidio_morale_required(&in), rows[i].required);
		assert_int_equal(fray_presidio_morale_situation(&in), rows[i].read);
	}
	/* disordered, short by 1-2: "Unit in Open - falls back" (the line
	 * rows would leave it disordered); by 3-4 it retreats */
	in.standing = FRAY_PRESIDIO_DISORDERED;
	assert_int_equal(fray_presidio_morale_standing(&in, 1), FRAY_PRESIDIO_FELL_BACK);
	assert_int_equal(fray_presidio_morale_standing(&in, 3), FRAY_PRESIDIO_RETREATED);
	/* in partial cover: "Unit in Partial Cover - unit 'flinches'" and its
	 * cover off the required number (Partial/Heavy Cover) */
	in.cover = FRAY_PRESIDIO_PARTIAL;
	assert_int_equal(fray_presidio_morale_situation(&in), FRAY_PRESIDIO_IN_COVER);
	assert_int_equal(fray_presidio_morale_required(&in), 7 + 2 - 2);
	assert_int_equal(fray_presidio_morale_standing(&in, 4), FRAY_PRESIDIO_HUNKERED);
	/* the procedure's own odds: P(fall back) for the disordered unit in
	 * the open = P(total 7 or 8 of 9) on the d6! (a 6 rolled again and
	 * added, two 6s a success): 7 = 6+1, 8 = 6+2 */
	in.cover = FRAY_PRESIDIO_NO_COVER;
	fray_dist *d;
	assert_int_equal(fray_enumerate(ctx, fray_presidio_morale_procedure, NULL, &in, 5, NULL, &d), FRAY_OK);
	double fell = 0;
	for (size_t k = 0; k < fray_dist_count(d); k++)
		fell += fray_dist_outcome(d, k)[3] == FRAY_PRESIDIO_FELL_BACK ? fray_dist_p(d, k) : 0;
	fray_dist_free(d);
	assert_double_equal(fell, 2.0 / 36, 1e-12);

	/* siblings: no volley, no reloading in cover, for a retreated unit
	 * (in disorder) as for a disordered one */
	fray_presidio_shoot_in s = {.weapon = weapon("flintlock musket"), .mode = FRAY_PRESIDIO_VOLLEY,
				    .volley_ready = true, .firer_standing = FRAY_PRESIDIO_RETREATED};
	assert_non_null(fray_presidio_volley_refused(&s));
	s.firer_standing = FRAY_PRESIDIO_GOOD;
	assert_null(fray_presidio_volley_refused(&s));
	s = (fray_presidio_shoot_in){.weapon = s.weapon, .mode = FRAY_PRESIDIO_INDEPENDENT, .light = true,
				     .reloading_in_cover = true, .volley_if_able = true,
				     .firer_standing = FRAY_PRESIDIO_RETREATED};
	assert_non_null(fray_presidio_fire_state_refused(&s));
	assert_false(fray_presidio_standing_in_formation(FRAY_PRESIDIO_DISORDERED));
	assert_true(fray_presidio_standing_in_formation(FRAY_PRESIDIO_HUNKERED));
}

/* A melee request's status and message. */
static fray_status melee_request(const char *inputs, char *msg, size_t cap)
{
	char req[1024];
	snprintf(req, sizeof req, "{\"procedure\": \"presidio.melee\", \"mode\": \"odds\", \"inputs\": %s}", inputs);
	char *out = NULL;
	fray_status st = fray_request(ctx, req, &out);
	snprintf(msg, cap, "%s", st == FRAY_OK ? "" : fray_ctx_message(ctx));
	free(out);
	fray_ctx_clear(ctx);
	return st;
}

/* Issue 40 item 5. A panicked unit "performs no other actions" (Section
 * 2, Rally), and contact with it is its surrender (Section 5, Pursuit):
 * no melee with it and no blow struck back, with or without both. A unit
 * that fell back "may still take one remaining action": it strikes back. */
static void panicked_defenders_strike_no_blow(void **state)
{
	(void)state;
	char msg[512];
	static const char both[] = "{\"weapon\": \"metal lance/knife\", \"figures\": 4, \"both\": true, "
				   "\"defender_weapon\": \"fists\", \"defender_figures\": 4, \"defender_standing\": \"%s\"}";
	char inputs[512];
	snprintf(inputs, sizeof inputs, both, "panicked");
	assert_int_equal(melee_request(inputs, msg, sizeof msg), FRAY_ERR_INPUT);
	if (!strstr(msg, "panicked") || !strstr(msg, "surrender"))
		fail_msg("the refusal does not say why: %s", msg);
	assert_int_equal(melee_request("{\"weapon\": \"metal lance/knife\", \"figures\": 4, \"defender_figures\": 4, "
				       "\"defender_standing\": \"panicked\"}", msg, sizeof msg),
			 FRAY_ERR_INPUT);
	snprintf(inputs, sizeof inputs, both, "fell back");
	assert_int_equal(melee_request(inputs, msg, sizeof msg), FRAY_OK);
	fray_presidio_melee_in in = {.weapon = weapon("metal lance/knife"), .defender_weapon = weapon("fists"),
				     .figures = 4, .defender_figures = 4, .both = true,
				     .defender_standing = FRAY_PRESIDIO_PANICKED};
	assert_non_null(fray_presidio_melee_refused(&in));
	in.both = false;
	assert_non_null(fray_presidio_melee_refused(&in));
}

/* Ruling R43. "Charging - charging units move at running/galloping
 * speed" (Section 3, Movement), and skirmishers "use regular movement
 * even when charging" (Formations, Skirmish): never the line's halving,
 * doubled as any charge. On foot 6" + 1D6, x2; a line charging is not
 * halved either ("except when charging"); a line walking is. */
static void skirmishers_double_when_charging(void **state)
{
	(void)state;
	for (int die = 1; die <= 6; die++) {
		fray_presidio_move_in m = {.mover = FRAY_PRESIDIO_ON_FOOT, .charging = true,
					   .designation = FRAY_PRESIDIO_SKIRMISH_UNIT};
		assert_true(fray_presidio_move_distance(&m, die) == 2.0 * (6 + die));
		m = (fray_presidio_move_in){.mover = FRAY_PRESIDIO_ON_FOOT, .designation = FRAY_PRESIDIO_SKIRMISH_UNIT};
		assert_true(fray_presidio_move_distance(&m, die) == 6.0 + die);
		m = (fray_presidio_move_in){.mover = FRAY_PRESIDIO_ON_FOOT, .charging = true, .line = true};
		assert_true(fray_presidio_move_distance(&m, die) == 2.0 * (6 + die));
		m.charging = false;
		assert_true(fray_presidio_move_distance(&m, die) == (6.0 + die) / 2);
	}
}

/* Ruling R45. A line in partial cover is read on the line rows (Section
 * 3: "Units defending a linear obstacle are considered to be in line"),
 * with both its -1 for the line and its cover's -2 ("All factors are
 * cumulative"): an average platoon 7 - 2 - 1 = 4+; short by 1-2
 * disordered, 3-4 retreats, 5 panics (not a flinch or a hunker). */
static void line_in_partial_cover_on_the_line_rows(void **state)
{
	(void)state;
	fray_presidio_morale_in in = {.level = FRAY_PRESIDIO_AVERAGE, .size = FRAY_PRESIDIO_PLATOON, .line = true,
				      .cover = FRAY_PRESIDIO_PARTIAL, .situation = FRAY_PRESIDIO_LINE};
	assert_int_equal(fray_presidio_morale_required(&in), 7 - 2 - 1);
	assert_int_equal(fray_presidio_morale_situation(&in), FRAY_PRESIDIO_LINE);
	assert_int_equal(fray_presidio_morale_standing(&in, 2), FRAY_PRESIDIO_DISORDERED);
	assert_int_equal(fray_presidio_morale_standing(&in, 4), FRAY_PRESIDIO_RETREATED);
	assert_int_equal(fray_presidio_morale_standing(&in, 5), FRAY_PRESIDIO_PANICKED);
	/* the catalogue reads --line with --cover partial the same way */
	char *out = NULL;
	assert_int_equal(fray_request(ctx, "{\"procedure\": \"presidio.morale\", \"mode\": \"odds\", \"inputs\": "
				      "{\"level\": \"average\", \"size\": \"platoon\", \"line\": true, "
				      "\"cover\": \"partial\"}}", &out),
			 FRAY_OK);
	assert_non_null(strstr(out, "\"situation\": \"line\""));
	assert_non_null(strstr(out, "\"required\": 4"));
	free(out);
}

/* Ruling R46. The charge impact is added to the melee attack "as
 * described below" (Section 5, Charge Impact), whose modifiers include
 * "If the attack is on horseback subtract 1": a mounted impact stacks
 * with it. Lancers (skill 3) against skill 1: 8 - 3 + 1 - 1 - 3 = 2+;
 * mounted with hatchets: 8 - 3 + 1 - 1 - 2 = 3+; on foot with bayonets
 * (not mounted): 8 - 3 + 1 - 2 = 4+. */
static void mounted_impact_stacks_with_horseback(void **state)
{
	(void)state;
	fray_presidio_melee_in in = {.weapon = weapon("metal lance/knife"), .figures = 6, .skill = 3,
				     .defender_skill = 1, .mounted = true};
	in.impact = fray_presidio_impact_of(true, in.weapon, false);
	assert_int_equal(in.impact, FRAY_PRESIDIO_LANCE);
	assert_int_equal(fray_presidio_melee_difficulty(&in), 8 - 3 + 1 - 1 - 3);
	in.weapon = weapon("metal 1-handed hatchet/warclub/pistol butt");
	in.impact = fray_presidio_impact_of(true, in.weapon, false);
	assert_int_equal(in.impact, FRAY_PRESIDIO_HORSE);
	assert_int_equal(fray_presidio_melee_difficulty(&in), 8 - 3 + 1 - 1 - 2);
	in.mounted = false;
	in.impact = fray_presidio_impact_of(false, in.weapon, true);
	assert_int_equal(fray_presidio_melee_difficulty(&in), 8 - 3 + 1 - 2);
}

/* ---- Ruling R41: the forced march's distance at nightfall ---- */

enum { MAX_DICE = 256 };

typedef struct dice_seen {
	int value[MAX_DICE];
	const char *what[MAX_DICE];
	int n, next;
	bool ran_out; /* the model wanted other dice than fray rolled
			 (more, or another kind): their pursuits parted */
} dice_seen;

static void record_dice(void *ud, const fray_event *ev)
{
	dice_seen *d = ud;
	if (ev->kind == FRAY_EV_ROLL && d->n < MAX_DICE) {
		d->value[d->n] = (int)ev->value;
		d->what[d->n++] = ev->what;
	}
}

static int die(dice_seen *d, const char *what)
{
	if (d->next >= d->n || strcmp(d->what[d->next], what)) {
		d->ran_out = true;
		return 1;
	}
	return d->value[d->next++];
}

/* Distance in Leagues (Section 8): 2D6 on the Pursuers' or the
 * Fugitives' column, +1 mounted; past 12 the table's last row. */
static int leagues(bool fugitives, int roll)
{
	static const int pursuers[13] = {0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 15};
	static const int fugitive[13] = {0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 12};
	roll = roll > 12 ? 12 : roll;
	return fugitives ? fugitive[roll] : pursuers[roll];
}

/* The pursuit of Section 8 played on the dice fray rolled: the raiders'
 * day's head start (Pursuers column), then each day the raiders' 2D6
 * (Pursuers column their first three days, then Fugitives unless they
 * saw the pursuers on a 12), the pursuers' tracking (1d6 + Recon against
 * 1d6 + Camou, docs/presidio.md), their 2D6; caught when they have come
 * as far. Forced March: "they may continue to travel at night" when "the
 * distance is short between them (1-10 leagues)": night_after reads it at
 * nightfall, after the day's travel (R41), else before the pursuers'
 * day; 1.5 x the day in all; two nights in a row not catching them: a day
 * and a night of rest. The day caught, 0 if not in 15. */
static int pursuit_model(dice_seen *d, const fray_presidio_pursuit_in *in, bool night_after)
{
	d->next = 0;
	d->ran_out = false;
	int rm = in->raiders_mounted, pm = in->pursuers_mounted;
	double raiders = leagues(false, die(d, "raiders 2d6") + die(d, "raiders 2d6") + rm), pursuers = 0;
	bool seen = false, resting = false;
	int nights = 0, raider_days = 1;
	for (int day = 1; day <= 15; day++) {
		int roll = die(d, "raiders 2d6") + die(d, "raiders 2d6");
		seen |= roll == 12;
		raider_days++;
		raiders += leagues(raider_days > 3 && !seen, roll + rm);
		if (resting) {
			resting = false;
			continue;
		}
		int track = die(d, "tracking: recon") + in->recon, hide = die(d, "tracking: camou") + in->camou;
		if (track < hide) {
			nights = 0;
			continue;
		}
		double leg = leagues(false, die(d, "pursuers 2d6") + die(d, "pursuers 2d6") + pm);
		double distance = night_after ? raiders - pursuers - leg : raiders - pursuers;
		bool night = in->forced_march && (night_after ? distance > 0 && distance <= 10
							      : distance >= 1 && distance <= 10);
		if (night) {
			leg *= 1.5;
			if (++nights == 2 && pursuers + leg < raiders) {
				resting = true;
				nights = 0;
			}
		} else {
			nights = 0;
		}
		pursuers += leg;
		if (pursuers >= raiders)
			return d->ran_out ? -1 : day;
	}
	return d->ran_out ? -1 : 0;
}

/* Pursuits of many seeds: the day fray gives is the model's with the
 * distance read at nightfall, on the very dice fray rolled; and the
 * seeds include pursuits the other reading (before the day's travel)
 * ends on another day, so the test tells the two apart. */
static void forced_march_reads_the_distance_at_nightfall(void **state)
{
	(void)state;
	static const fray_presidio_pursuit_in cases[] = {
		{.recon = 2, .camou = 1, .forced_march = true},
		{.recon = 4, .camou = 0, .pursuers_mounted = true, .forced_march = true},
		{.recon = 1, .camou = 2, .raiders_mounted = true, .forced_march = true},
		{.recon = 2, .camou = 1}, /* no forced march: the readings agree */
	};
	int differ = 0;
	for (size_t c = 0; c < sizeof cases / sizeof *cases; c++)
		for (uint64_t seed = 1; seed <= 400; seed++) {
			fray_roller *r = fray_roller_sample_new(ctx, seed, 0);
			dice_seen d = {0};
			fray_roller_set_sink(r, record_dice, &d);
			int64_t out[1];
			assert_int_equal(fray_run(r, fray_presidio_pursuit_procedure, NULL, &cases[c], out), FRAY_OK);
			fray_roller_free(r);
			assert_true(d.n < MAX_DICE);
			int want = pursuit_model(&d, &cases[c], true);
			if (d.ran_out)
				fail_msg("case %zu seed %llu: fray's dice are not the text's pursuit (R41): die %d", c,
					 (unsigned long long)seed, d.next);
			if (out[0] != want)
				fail_msg("case %zu seed %llu: fray says day %lld, the text (R41) day %d", c,
					 (unsigned long long)seed, (long long)out[0], want);
			assert_int_equal(d.next, d.n); /* every die fray rolled, read by the model */
			int before = pursuit_model(&d, &cases[c], false);
			differ += before != want;
			if (!cases[c].forced_march)
				assert_int_equal(before, want);
		}
	assert_true(differ > 0);
}

/* The referee's second round, finding 2. Section 2, Riding: free riders
 * "have two free actions whether riding once or twice in a turn",
 * "Movement once on horseback is a trot, two movements is a gallop";
 * Section 3: "charging units move at running/galloping speed". A charge
 * is two movements: every turn of rides and a charge, against that count
 * (at most two movements), with the charge's two actions still needed. */
static void a_charge_is_two_of_the_riders_movements(void **state)
{
	(void)state;
	static const fray_presidio_action firsts[] = {FRAY_PRESIDIO_DO_RIDE, FRAY_PRESIDIO_DO_GALLOP,
						      FRAY_PRESIDIO_DO_CHARGE};
	static const int movements[] = {1, 2, 2}; /* trot, gallop, charge */
	for (size_t i = 0; i < 3; i++)
		for (size_t j = 0; j < 3; j++) {
			fray_presidio_turn t = {0};
			assert_null(fray_presidio_action_refused(&t, FRAY_PRESIDIO_GOOD, firsts[i]));
			assert_true(fray_presidio_turn_take(&t, firsts[i]));
			bool two_charges = firsts[i] == FRAY_PRESIDIO_DO_CHARGE && firsts[j] == FRAY_PRESIDIO_DO_CHARGE;
			bool allowed = movements[i] + movements[j] <= 2 && !two_charges;
			const char *why = fray_presidio_action_refused(&t, FRAY_PRESIDIO_GOOD, firsts[j]);
			if ((why == NULL) != allowed)
				fail_msg("%s then %s: %s", fray_presidio_action_names[firsts[i]],
					 fray_presidio_action_names[firsts[j]], why ? why : "allowed");
			if (why && !two_charges && !strstr(why, "once or twice in a turn"))
				fail_msg("%s then %s: the reason names no rule: %s", fray_presidio_action_names[firsts[i]],
					 fray_presidio_action_names[firsts[j]], why);
		}
}

/* The referee's second round, finding 6. Section 5, Disengaging from
 * Melee: a unit that left the melee by its own move, in order, may be
 * pursued by the enemy it left; Pursuit: one that fell back, retreated or
 * panicked too; never by an enemy it did not break contact with, and not
 * once surrendered or destroyed. */
static void a_unit_that_disengaged_may_be_pursued(void **state)
{
	(void)state;
	static const struct {
		fray_presidio_standing s;
		bool pursued, disengaged;
	} rows[] = {{FRAY_PRESIDIO_GOOD, true, true},        {FRAY_PRESIDIO_DISORDERED, true, true},
		    {FRAY_PRESIDIO_FELL_BACK, true, false},  {FRAY_PRESIDIO_RETREATED, true, false},
		    {FRAY_PRESIDIO_PANICKED, true, false},   {FRAY_PRESIDIO_SURRENDERED, false, false},
		    {FRAY_PRESIDIO_DESTROYED, false, false}};
	for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
		assert_true((fray_presidio_pursued_refused(rows[i].s, true) == NULL) == rows[i].pursued);
		assert_non_null(fray_presidio_pursued_refused(rows[i].s, false));
		assert_true(fray_presidio_disengaged(rows[i].s) == rows[i].disengaged);
	}
	/* "no charge bonus unless they have 2 actions left" */
	assert_int_equal(fray_presidio_disengage_pursuit_impact(FRAY_PRESIDIO_FOOT, 2), FRAY_PRESIDIO_FOOT);
	assert_int_equal(fray_presidio_disengage_pursuit_impact(FRAY_PRESIDIO_FOOT, 1), FRAY_PRESIDIO_NO_CHARGE);
}

/* The referee's second round, finding 3. Section 2, Rally: a rallied
 * unit, in disorder, "can reform or move into skirmish"; Section 3,
 * Reform "(2 actions)", one with a drummer, for any unit (and, "Used to
 * change a unit's formation", one in good order); Skirmish:
 * "There is no cost"; a line unit "must reform" (Disorder, Line). */
static void disorder_is_left_by_reform_or_skirmish(void **state)
{
	(void)state;
	fray_presidio_unit_kind line = {.line = true}, other = {.line = false};
	assert_null(fray_presidio_reform_refused(&line, FRAY_PRESIDIO_DISORDERED));
	assert_null(fray_presidio_reform_refused(&other, FRAY_PRESIDIO_DISORDERED));
	assert_null(fray_presidio_reform_refused(&other, FRAY_PRESIDIO_RETREATED));
	/* the referee's sixth round, finding 4: Reform is "Used to change a
	 * unit's formation", so a unit in good order re-forms too; not one
	 * that fell back or panicked */
	assert_null(fray_presidio_reform_refused(&other, FRAY_PRESIDIO_GOOD));
	assert_non_null(fray_presidio_reform_refused(&other, FRAY_PRESIDIO_FELL_BACK));
	assert_non_null(fray_presidio_reform_refused(&other, FRAY_PRESIDIO_PANICKED));
	assert_int_equal(fray_presidio_reform_cost(false), 2);
	assert_int_equal(fray_presidio_reform_cost(true), 1);
	assert_null(fray_presidio_skirmish_refused(&other, FRAY_PRESIDIO_DISORDERED));
	assert_non_null(strstr(fray_presidio_skirmish_refused(&line, FRAY_PRESIDIO_DISORDERED), "must reform"));
	assert_non_null(fray_presidio_skirmish_refused(&other, FRAY_PRESIDIO_GOOD));
	assert_non_null(fray_presidio_skirmish_refused(&other, FRAY_PRESIDIO_RETREATED));
	assert_non_null(fray_presidio_skirmish_refused(&other, FRAY_PRESIDIO_PANICKED));
	assert_int_equal(fray_presidio_skirmish_cost(), 0);
}

/* The referee's second round, finding 5: the decisions the game made
 * itself, now typed rules. Section 5, Charge Movement: "Unless stopped by
 * the defenders the charging unit will move up its total charge
 * distance"; Flee "does not constitute a failed morale check"; Pursuit:
 * contact with a panicked unit is its surrender. Moving into a Melee: "the
 * 'defender' will attack first". Section 7's size bands (16-25 a company,
 * 10-15 a platoon, 5-9 a squad, 1-4 a team), the larger of them and the
 * class given. */
static void charge_contact_and_size_are_the_rules(void **state)
{
	(void)state;
	/* held its place: the impact, whatever --catches says */
	assert_int_equal(fray_presidio_charge_goes_on(true, false, false, FRAY_PRESIDIO_GOOD), FRAY_PRESIDIO_CHARGE_IMPACT);
	assert_int_equal(fray_presidio_charge_goes_on(true, false, true, FRAY_PRESIDIO_DISORDERED),
			 FRAY_PRESIDIO_CHARGE_IMPACT);
	/* gave way or fled, not reached: no impact */
	assert_int_equal(fray_presidio_charge_goes_on(false, false, false, FRAY_PRESIDIO_RETREATED),
			 FRAY_PRESIDIO_CHARGE_GOES_ON);
	assert_int_equal(fray_presidio_charge_goes_on(true, true, false, FRAY_PRESIDIO_GOOD), FRAY_PRESIDIO_CHARGE_GOES_ON);
	/* reached: a panicked unit surrenders, another takes the impact */
	assert_int_equal(fray_presidio_charge_goes_on(false, false, true, FRAY_PRESIDIO_PANICKED),
			 FRAY_PRESIDIO_CHARGE_SURRENDER);
	assert_int_equal(fray_presidio_charge_goes_on(false, false, true, FRAY_PRESIDIO_FELL_BACK),
			 FRAY_PRESIDIO_CHARGE_CAUGHT);
	assert_int_equal(fray_presidio_charge_goes_on(true, true, true, FRAY_PRESIDIO_GOOD), FRAY_PRESIDIO_CHARGE_CAUGHT);
	/* one already out of the fight: nothing to reach */
	assert_int_equal(fray_presidio_charge_goes_on(false, false, true, FRAY_PRESIDIO_SURRENDERED),
			 FRAY_PRESIDIO_CHARGE_GOES_ON);
	assert_int_equal(fray_presidio_charge_goes_on(false, false, true, FRAY_PRESIDIO_DESTROYED),
			 FRAY_PRESIDIO_CHARGE_GOES_ON);

	/* walked into: it strikes first when it holds its place */
	assert_int_equal(fray_presidio_into_contact_of(FRAY_PRESIDIO_GOOD, 5), FRAY_PRESIDIO_INTO_STRIKES_FIRST);
	assert_int_equal(fray_presidio_into_contact_of(FRAY_PRESIDIO_HUNKERED, 5), FRAY_PRESIDIO_INTO_STRIKES_FIRST);
	assert_int_equal(fray_presidio_into_contact_of(FRAY_PRESIDIO_PANICKED, 5), FRAY_PRESIDIO_INTO_SURRENDERS);
	assert_int_equal(fray_presidio_into_contact_of(FRAY_PRESIDIO_RETREATED, 5), FRAY_PRESIDIO_INTO_NO_BLOW);
	assert_int_equal(fray_presidio_into_contact_of(FRAY_PRESIDIO_GOOD, 0), FRAY_PRESIDIO_INTO_NO_BLOW);

	/* the size class */
	static const struct {
		fray_presidio_size given;
		int figures;
		fray_presidio_size want;
	} rows[] = {{FRAY_PRESIDIO_PLATOON, 22, FRAY_PRESIDIO_COMPANY}, {FRAY_PRESIDIO_PLATOON, 16, FRAY_PRESIDIO_COMPANY},
		    {FRAY_PRESIDIO_PLATOON, 15, FRAY_PRESIDIO_PLATOON}, {FRAY_PRESIDIO_COMPANY, 8, FRAY_PRESIDIO_COMPANY},
		    {FRAY_PRESIDIO_TEAM, 9, FRAY_PRESIDIO_SQUAD},       {FRAY_PRESIDIO_TEAM, 4, FRAY_PRESIDIO_TEAM}};
	for (size_t i = 0; i < sizeof rows / sizeof *rows; i++)
		assert_int_equal(fray_presidio_size_class(rows[i].given, rows[i].figures), rows[i].want);
}

/* The referee's sixth round, findings 1-3, as the rules answer them:
 * Section 5, Disengaging from Melee (no move nor charge in contact; a
 * retreat 2 actions, a fall back 1); Section 2, Riding ("once or twice in
 * a turn": a pursuit is one; a free formation change once per ride). */
static void sixth_round_rules(void **state)
{
	(void)state;
	assert_null(fray_presidio_contact_move_refused(false, FRAY_PRESIDIO_DO_CHARGE));
	assert_non_null(strstr(fray_presidio_contact_move_refused(true, FRAY_PRESIDIO_DO_CHARGE), "Section 5"));
	assert_non_null(fray_presidio_contact_move_refused(true, FRAY_PRESIDIO_DO_WALK));
	assert_non_null(fray_presidio_contact_move_refused(true, FRAY_PRESIDIO_DO_GALLOP));
	assert_null(fray_presidio_contact_move_refused(true, FRAY_PRESIDIO_DO_STRIKE));
	fray_presidio_turn t = {0};
	assert_null(fray_presidio_disengage_refused(&t, FRAY_PRESIDIO_GOOD, true, true));
	assert_non_null(fray_presidio_disengage_refused(&t, FRAY_PRESIDIO_GOOD, false, false));
	fray_presidio_turn_take(&t, FRAY_PRESIDIO_DO_SHOOT);
	assert_non_null(fray_presidio_disengage_refused(&t, FRAY_PRESIDIO_GOOD, true, true));
	assert_null(fray_presidio_disengage_refused(&t, FRAY_PRESIDIO_GOOD, true, false));
	fray_presidio_turn_take(&t, FRAY_PRESIDIO_DO_DISENGAGE);
	assert_true(fray_presidio_turn_disengaged(&t));
	/* a pursuit after two rides, a ride after a pursuit and a ride */
	fray_presidio_turn r = {0};
	fray_presidio_turn_take(&r, FRAY_PRESIDIO_DO_RIDE);
	assert_null(fray_presidio_action_refused(&r, FRAY_PRESIDIO_GOOD, FRAY_PRESIDIO_DO_PURSUE));
	fray_presidio_turn_take(&r, FRAY_PRESIDIO_DO_RIDE);
	assert_non_null(fray_presidio_action_refused(&r, FRAY_PRESIDIO_GOOD, FRAY_PRESIDIO_DO_PURSUE));
	fray_presidio_turn p = {0};
	fray_presidio_turn_take(&p, FRAY_PRESIDIO_DO_PURSUE);
	fray_presidio_turn_take(&p, FRAY_PRESIDIO_DO_RIDE);
	assert_non_null(fray_presidio_action_refused(&p, FRAY_PRESIDIO_GOOD, FRAY_PRESIDIO_DO_RIDE));
	/* a free change of formation once per ride, for free riders only */
	fray_presidio_unit_kind rider = {.mounted = true, .free_riders = true}, foot = {0};
	fray_presidio_turn f = {0};
	assert_false(fray_presidio_riding_reform_free(&rider, &f));
	fray_presidio_turn_take(&f, FRAY_PRESIDIO_DO_RIDE);
	assert_true(fray_presidio_riding_reform_free(&rider, &f));
	assert_false(fray_presidio_riding_reform_free(&foot, &f));
	fray_presidio_turn_take(&f, FRAY_PRESIDIO_DO_RIDE_REFORM);
	assert_false(fray_presidio_riding_reform_free(&rider, &f));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_charge_is_two_of_the_riders_movements),
		cmocka_unit_test(a_unit_that_disengaged_may_be_pursued),
		cmocka_unit_test(disorder_is_left_by_reform_or_skirmish),
		cmocka_unit_test(sixth_round_rules),
		cmocka_unit_test(charge_contact_and_size_are_the_rules),
		cmocka_unit_test(impact_return_strike_is_simultaneous),
		cmocka_unit_test(out_of_formation_is_no_line),
		cmocka_unit_test(panicked_defenders_strike_no_blow),
		cmocka_unit_test(skirmishers_double_when_charging),
		cmocka_unit_test(line_in_partial_cover_on_the_line_rows),
		cmocka_unit_test(mounted_impact_stacks_with_horseback),
		cmocka_unit_test(forced_march_reads_the_distance_at_nightfall),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
