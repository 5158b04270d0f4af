/* Presidio clauses with dice or numbers once missing (issue 40): no
 * commanders left (Section 1, Officer Casualties), the morale bonus's
 * fresh start (Section 7, Morale Bonus), two weapon types with one morale
 * check (Section 4, Weapon Types), moving into a melee (Section 5), hits
 * on a unit in column (Section 6, Units in Column), the night's sight
 * (Sections 4 and 8, ruling R31) and combining units (Section 3). Each
 * expectation is counted here from the text's dice, through the
 * catalogue's typed inputs and outcomes, never taken from fray's output. */
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

static double choose(int n, int k)
{
	double c = 1;
	for (int i = 1; i <= k; i++)
		c = c * (n - k + i) / i;
	return c;
}

static double binomial(int n, int k, double p)
{
	if (k < 0 || k > n)
		return 0;
	return choose(n, k) * pow(p, k) * pow(1 - p, n - k);
}

/* The odds of a request through the catalogue, as a loaded document. */
static fray_doc *odds(const char *procedure, const char *inputs)
{
	char req[1024], *json = NULL;
	snprintf(req, sizeof req, "{\"procedure\": \"%s\", \"mode\": \"odds\", \"inputs\": %s}", procedure, inputs);
	if (fray_request(ctx, req, &json) != FRAY_OK)
		fail_msg("%s: %s", req, fray_ctx_message(ctx));
	fray_doc *doc = NULL;
	assert_int_equal(fray_doc_load_string(ctx, "odds", json, strlen(json), &doc), FRAY_OK);
	free(json);
	return doc;
}

/* A request that must be refused (status 2), its message naming want. */
static void refused(const char *procedure, const char *inputs, const char *want)
{
	char req[1024], *json = NULL;
	snprintf(req, sizeof req, "{\"procedure\": \"%s\", \"mode\": \"odds\", \"inputs\": %s}", procedure, inputs);
	assert_int_equal(fray_request(ctx, req, &json), FRAY_ERR_INPUT);
	if (!strstr(fray_ctx_message(ctx), want))
		fail_msg("%s: '%s' does not name '%s'", req, fray_ctx_message(ctx), want);
	free(json);
}

static size_t noutcomes(fray_doc *doc)
{
	return fray_node_len(fray_map_get(fray_doc_root(doc), "outcomes"));
}

static const char *field(fray_doc *doc, size_t k, const char *name)
{
	const fray_node *o = fray_node_item(fray_map_get(fray_doc_root(doc), "outcomes"), k);
	const char *v = fray_node_scalar(fray_map_get(fray_map_get(o, "outcome"), name));
	if (!v)
		fail_msg("no outcome field '%s'", name);
	return v;
}

static double p_of(fray_doc *doc, size_t k)
{
	const fray_node *o = fray_node_item(fray_map_get(fray_doc_root(doc), "outcomes"), k);
	return strtod(fray_node_scalar(fray_map_get(o, "p")), NULL);
}

/* P(field == value) */
static double p_field(fray_doc *doc, const char *name, const char *value)
{
	double p = 0;
	for (size_t k = 0; k < noutcomes(doc); k++)
		if (strcmp(field(doc, k, name), value) == 0)
			p += p_of(doc, k);
	return p;
}

/* ---- Section 1, Officer Casualties: "Units that have no commanders left
 * will simply stand and fight but if they receive one more casualty they
 * will run for it or surrender". No die: certain. Which of the two is
 * Section 7's Surrender: within 4" of an enemy or surrounded it
 * surrenders, except after a charge impact (a panic move). ---- */
static void no_commanders_left(void **state)
{
	(void)state;
	static const struct {
		const char *inputs;
		const char *standing;
	} rows[] = {
		{"{\"level\": \"elite\", \"size\": \"squad\", \"no_commanders\": true}", "panicked"},
		{"{\"level\": \"elite\", \"size\": \"squad\", \"no_commanders\": true, \"near_enemy\": true}", "surrendered"},
		{"{\"level\": \"elite\", \"size\": \"squad\", \"no_commanders\": true, \"near_enemy\": true, "
		 "\"charge_impact\": true}", "panicked"},
		/* a leader and a hero make no difference: there is no check */
		{"{\"level\": \"elite\", \"size\": \"squad\", \"no_commanders\": true, \"hero\": true, \"leader\": 4}",
		 "panicked"},
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		fray_doc *d = odds("presidio.morale", rows[i].inputs);
		assert_int_equal(noutcomes(d), 1);
		assert_string_equal(field(d, 0, "standing"), rows[i].standing);
		assert_string_equal(field(d, 0, "success"), "false");
		assert_string_equal(field(d, 0, "holds"), "false");
		fray_doc_free(d);
	}
	/* with commanders, an elite squad with a hero passes on any die
	 * (5 - 2 = 3+ needed, the leader's +4 on top): never a panic */
	fray_doc *d = odds("presidio.morale", "{\"level\": \"elite\", \"size\": \"squad\", \"hero\": true, \"leader\": 4}");
	assert_double_equal(p_field(d, "standing", "panicked"), 0, 1e-15);
	fray_doc_free(d);
}

/* ---- Section 7, Morale Bonus: two 6s (1 in 36) raise the level one step
 * (elite to super-elite) and start the unit over "as a new unit": no
 * casualties counted, and its size class that of the figures it has now
 * (a platoon of 12 down to 8 is a squad: Section 7's sizes). ---- */
static void morale_bonus_starts_over(void **state)
{
	(void)state;
	static const struct {
		const char *level, *after;
		int figures;
		const char *size_after;
	} rows[] = {
		{"average", "veteran", 8, "squad"},
		{"elite", "super-elite", 12, "platoon"},
		{"inexperienced", "average", 4, "team"},
		{"veteran", "elite", 20, "company"},
	};
	for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
		char in[256];
		snprintf(in, sizeof in, "{\"level\": \"%s\", \"size\": \"platoon\", \"casualties\": 4, \"figures\": %d}",
			 rows[i].level, rows[i].figures);
		fray_doc *d = odds("presidio.morale", in);
		double bonus = 0, fresh = 0, kept = 0;
		for (size_t k = 0; k < noutcomes(d); k++) {
			double p = p_of(d, k);
			if (strcmp(field(d, k, "bonus"), "true") == 0) {
				bonus += p;
				fresh += strcmp(field(d, k, "level_after"), rows[i].after) == 0 &&
						 strcmp(field(d, k, "size_after"), rows[i].size_after) == 0 &&
						 strcmp(field(d, k, "casualties_after"), "0") == 0
					 ? p : 0;
			} else {
				kept += strcmp(field(d, k, "level_after"), rows[i].level) == 0 &&
						strcmp(field(d, k, "size_after"), "platoon") == 0 &&
						strcmp(field(d, k, "casualties_after"), "4") == 0
					? p : 0;
			}
		}
		assert_double_equal(bonus, 1.0 / 36, 1e-15);
		assert_double_equal(fresh, 1.0 / 36, 1e-15);
		assert_double_equal(kept, 35.0 / 36, 1e-15);
		fray_doc_free(d);
	}
	/* no figures given: the size class stays */
	fray_doc *d = odds("presidio.morale", "{\"level\": \"average\", \"size\": \"platoon\", \"casualties\": 4}");
	for (size_t k = 0; k < noutcomes(d); k++)
		assert_string_equal(field(d, k, "size_after"), "platoon");
	fray_doc_free(d);
}

/* ---- Section 4, Weapon Types: each type "rolled separately for hits",
 * "check morale on the target unit only after the entire unit has
 * fired". 8 flintlock muskets (11+, damage 4, reload 4: 8 / 4 = 2 fire)
 * and 4 metal bows (10+, damage 2, reload 1: 4 fire) at long range,
 * armor 0: a musket die wounds with 2/12 x 8/12 (damage +4: 5+), a bow die
 * with 3/12 x 6/12 (damage +2: 7+). The casualties are the sum of two
 * binomials, and there is one check: P = 1 - (1 - 1/9)^2 (1 - 1/8)^4. A
 * range of 15" reads each type on its own class: a musket's medium band
 * (-2: 9+, 4/12), a bow's long band (10+). ---- */
static void two_weapon_types_one_check(void **state)
{
	(void)state;
	static const struct {
		const char *range;
		double musket_hit;
	} rows[] = {{"\"band\": \"long\"", 2.0 / 12}, {"\"range\": 15", 4.0 / 12}};
	for (size_t i = 0; i < 2; i++) {
		char in[512];
		snprintf(in, sizeof in, "{\"weapon\": \"flintlock musket\", \"figures\": 8, %s, \"target_figures\": 30, "
			 "\"weapon_2\": \"metal bow/sling\", \"figures_2\": 4}", rows[i].range);
		fray_doc *d = odds("presidio.shoot", in);
		double pm = rows[i].musket_hit * 8 / 12, pb = 3.0 / 12 * 6 / 12;
		for (int c = 0; c <= 6; c++) {
			double want = 0;
			for (int m = 0; m <= 2 && m <= c; m++)
				want += binomial(2, m, pm) * binomial(4, c - m, pb);
			char v[8];
			snprintf(v, sizeof v, "%d", c);
			assert_double_equal(p_field(d, "casualties", v), want, 1e-12);
		}
		assert_double_equal(p_field(d, "morale_check", "true"), 1 - pow(1 - pm, 2) * pow(1 - pb, 4), 1e-12);
		fray_doc_free(d);
	}
	refused("presidio.shoot", "{\"weapon\": \"flintlock musket\", \"figures\": 8, \"band\": \"long\", "
		"\"weapon_2\": \"metal bow/sling\"}", "figures_2");
	refused("presidio.shoot", "{\"weapon\": \"flintlock musket\", \"figures\": 8, \"band\": \"long\", "
		"\"weapon_2\": \"metal lance/knife\", \"figures_2\": 2}", "melee weapon");
	/* 30": in a musket's range (long), beyond a bow's (24") */
	refused("presidio.shoot", "{\"weapon\": \"flintlock musket\", \"figures\": 8, \"range\": 30, "
		"\"weapon_2\": \"metal bow/sling\", \"figures_2\": 4}", "bow");
}

/* ---- Section 5, Moving into a Melee: figures that walk into contact
 * fall under "the consecutive actions rule and the 'defender' will
 * attack first". 3 attackers walk into 2 defenders, both with metal
 * lances (8+, damage 3), skills 0, armor 0: each strike hits on 8+ (5/12)
 * and wounds on 6+ (damage +3: 7/12). The defenders' K casualties on the
 * attackers come first, Bin(2, p); then the 3 - K attackers left strike,
 * their casualties at most the 2 defenders. ---- */
static void moving_into_melee_defender_first(void **state)
{
	(void)state;
	fray_doc *d = odds("presidio.melee", "{\"weapon\": \"metal lance/knife\", \"figures\": 3, \"both\": true, "
			   "\"defender_weapon\": \"metal lance/knife\", \"defender_figures\": 2, \"defender_first\": true}");
	double p = 5.0 / 12 * 7 / 12;
	for (int k = 0; k <= 2; k++)
		for (int c = 0; c <= 2; c++) {
			int left = 3 - k;
			double attackers = c < 2 ? binomial(left, c, p) : 0;
			for (int x = 2; c == 2 && x <= left; x++)
				attackers += binomial(left, x, p); /* at most the 2 defenders */
			double want = binomial(2, k, p) * attackers, got = 0;
			for (size_t i = 0; i < noutcomes(d); i++)
				if (atoi(field(d, i, "return_casualties")) == k && atoi(field(d, i, "casualties")) == c)
					got += p_of(d, i);
			if (fabs(got - want) > 1e-12)
				fail_msg("defenders' casualties on the attackers %d, attackers' %d: %.15g, counted %.15g", k, c,
					 got, want);
		}
	fray_doc_free(d);
	refused("presidio.melee", "{\"weapon\": \"metal lance/knife\", \"figures\": 3, \"defender_first\": true}",
		"defender first");
	refused("presidio.melee", "{\"weapon\": \"metal lance/knife\", \"figures\": 3, \"both\": true, "
		"\"defender_weapon\": \"metal lance/knife\", \"defender_figures\": 2, \"defender_first\": true, "
		"\"charge\": \"foot\"}", "no charge impact");
}

/* ---- Section 6, Units in Column: a target showing a single or double
 * file takes its hits "by those in front, and if they go down,
 * subsequent shots will hit a following figure": no casualty die. 10
 * flintlock muskets (10 / 4: 3 fire) at long range, 11+ (2/12), wound on 5+
 * (8/12), into a file p L s p p p: C casualties ~ Bin(3, 1/9); the leader
 * falls when C >= 2, the specialty figures hit are those of the first C
 * places (0, 1, 2 for C = 1, 2, 3). ---- */
static void column_hits_those_in_front(void **state)
{
	(void)state;
	fray_doc *d = odds("presidio.shoot", "{\"weapon\": \"flintlock musket\", \"figures\": 10, \"band\": \"long\", "
			   "\"file\": \"pLsppp\"}");
	double p = 2.0 / 12 * 8 / 12;
	static const int specialists_in_front[4] = {0, 0, 1, 2};
	for (int c = 0; c <= 3; c++) {
		double got = 0, led = 0;
		for (size_t k = 0; k < noutcomes(d); k++) {
			if (atoi(field(d, k, "casualties")) != c)
				continue;
			assert_int_equal(atoi(field(d, k, "specialists_hit")), specialists_in_front[c]);
			got += p_of(d, k);
			led += strcmp(field(d, k, "leader_hit"), "true") == 0 ? p_of(d, k) : 0;
		}
		assert_double_equal(got, binomial(3, c, p), 1e-12);
		assert_double_equal(led, c >= 2 ? binomial(3, c, p) : 0, 1e-12);
	}
	fray_doc_free(d);
	refused("presidio.shoot", "{\"weapon\": \"flintlock musket\", \"figures\": 10, \"band\": \"long\", "
		"\"file\": \"pLxp\"}", "letters");
	refused("presidio.shoot", "{\"weapon\": \"flintlock musket\", \"figures\": 10, \"band\": \"long\", "
		"\"file\": \"pLsp\", \"specialists\": 2}", "specialty figures");
	refused("presidio.shoot", "{\"weapon\": \"flintlock musket\", \"figures\": 10, \"band\": \"long\", "
		"\"file\": \"pLsp\", \"target_figures\": 6}", "has 4 figures");
}

/* ---- Ruling R31: Section 4's Night Vision ("full moon is 12", ...
 * half-moon is 8", ... no moon is 4"") is Section 8's table in the open
 * (rows 1, 3, 5-6); in woods the table's woods column (6, 5, 4, 3, 2),
 * never more than the woods' own vision (Section 4, Woods: light 12",
 * medium 8", heavy 4"), half from outside them. ---- */
static void night_sight_one_table(void **state)
{
	(void)state;
	static const int open[7] = {0, 12, 10, 8, 6, 4, 4}, woods_col[7] = {0, 6, 5, 4, 3, 2, 2};
	static const int by_day[4] = {0, 12, 8, 4};
	static const char *const woods[4] = {"none", "light", "medium", "heavy"};
	/* Section 4's own three */
	assert_int_equal(open[1], 12);
	assert_int_equal(open[3], 8);
	assert_int_equal(open[5], 4);
	for (int moon = 1; moon <= 6; moon++)
		for (int w = 0; w < 4; w++)
			for (int into = 0; into <= (w ? 1 : 0); into++) {
				double want = w == 0 ? open[moon] : (woods_col[moon] < by_day[w] ? woods_col[moon] : by_day[w]);
				if (into)
					want /= 2;
				char in[160], v[32];
				snprintf(in, sizeof in, "{\"moon\": %d, \"woods\": \"%s\", \"into_woods\": %s}", moon, woods[w],
					 into ? "true" : "false");
				fray_doc *d = odds("presidio.night", in);
				assert_int_equal(noutcomes(d), 1);
				snprintf(v, sizeof v, "%g", want);
				if (fabs(strtod(field(d, 0, "sight"), NULL) - want) > 1e-9)
					fail_msg("%s: sight %s, the texts give %s", in, field(d, 0, "sight"), v);
				fray_doc_free(d);
			}
	/* the moon rolled: 12" on a 1, 4" on a 5 or 6 */
	fray_doc *d = odds("presidio.night", "{}");
	assert_double_equal(p_field(d, "sight", "12"), 1.0 / 6, 1e-15);
	assert_double_equal(p_field(d, "sight", "4"), 2.0 / 6, 1e-15);
	fray_doc_free(d);
	refused("presidio.night", "{\"into_woods\": true}", "woods");

	/* spot by night with no moon (search DM -2): a unit 5" away is beyond
	 * the 4" of sight, never spotted; at 4" the dice decide, counted here */
	d = odds("presidio.spot", "{\"recon\": 2, \"camou\": 1, \"night\": 5, \"inches\": 5}");
	assert_double_equal(p_field(d, "spotted", "true"), 0, 1e-15);
	fray_doc_free(d);
	d = odds("presidio.spot", "{\"recon\": 2, \"camou\": 1, \"night\": 5, \"inches\": 4}");
	int found = 0;
	for (int a = 1; a <= 6; a++)
		for (int b = 1; b <= 6; b++)
			found += a + 2 - 2 >= b + 1;
	assert_double_equal(p_field(d, "spotted", "true"), found / 36.0, 1e-12);
	fray_doc_free(d);
	/* a full moon, into heavy woods from outside: 4" / 2 = 2" */
	d = odds("presidio.spot", "{\"recon\": 2, \"camou\": 1, \"night\": 1, \"inches\": 3, \"woods\": \"heavy\", "
		 "\"into_woods\": true}");
	assert_double_equal(p_field(d, "spotted", "true"), 0, 1e-15);
	fray_doc_free(d);
	refused("presidio.spot", "{\"recon\": 2, \"camou\": 1, \"inches\": 3}", "night");
}

/* Section 7's unit sizes: teams 1-4, squads 5-9, platoons 10-15,
 * companies 16-25 (and more: the largest class). */
static const char *size_from_the_text(int figures)
{
	return figures <= 4 ? "team" : figures <= 9 ? "squad" : figures <= 15 ? "platoon" : "company";
}

/* ---- Section 3, Combining Units: 4 actions, an officer present, the new
 * unit inexperienced, previous casualties disregarded, its size class
 * recounted. No die. ---- */
static void combining_units(void **state)
{
	(void)state;
	static const int pairs[][2] = {{2, 2}, {3, 3}, {6, 5}, {9, 9}, {4, 1}, {5, 4}, {8, 8}};
	for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
		char in[128], n[16];
		snprintf(in, sizeof in, "{\"figures_1\": %d, \"figures_2\": %d, \"officer\": true}", pairs[i][0],
			 pairs[i][1]);
		fray_doc *d = odds("presidio.combine", in);
		assert_int_equal(noutcomes(d), 1);
		assert_double_equal(p_of(d, 0), 1, 1e-15);
		snprintf(n, sizeof n, "%d", pairs[i][0] + pairs[i][1]);
		assert_string_equal(field(d, 0, "figures"), n);
		assert_string_equal(field(d, 0, "size"), size_from_the_text(pairs[i][0] + pairs[i][1]));
		assert_string_equal(field(d, 0, "level"), "inexperienced");
		assert_string_equal(field(d, 0, "casualties"), "0");
		assert_string_equal(field(d, 0, "actions"), "4");
		fray_doc_free(d);
	}
	refused("presidio.combine", "{\"figures_1\": 6, \"figures_2\": 5}", "officer present");
}

/* ---- Section 9, Damage: "Deduct 2 points from the strength of the
 * target for each hit without damage at same location." A 24# mortar's
 * shell (damage 12) bursting directly on strength 12 after W such hits:
 * the chart read for 12 - (12 - 2W), its d12 needed 9 - differential
 * (Section 9's chart: +7 needs 2 ... -3 needs 12). ---- */
static void weakened_structures(void **state)
{
	(void)state;
	for (int w = 0; w <= 3; w++) {
		int diff = 12 - (12 - 2 * w), need = 9 - diff;
		char in[160];
		snprintf(in, sizeof in, "{\"gun\": \"24# mortar\", \"zone\": \"direct\", \"strength\": 12, "
			 "\"weakened\": %d}", w);
		fray_doc *d = odds("presidio.blast", in);
		assert_double_equal(p_field(d, "destroyed", "true"), (13.0 - need) / 12, 1e-12);
		fray_doc_free(d);
	}
}

/* ---- Section 5, Disengaging from Melee: pursuers need "any actions
 * left", and get "no charge bonus unless they have 2 actions left": the
 * impact's DM on the melee difficulty (foot -1, lance -3) only then. ---- */
static void disengaging_pursuers_need_two_actions(void **state)
{
	(void)state;
	static const int impact_dm[5] = {0, -1, -2, -2, -3}; /* Charge Impact */
	const fray_presidio_weapon *lance = fray_presidio_weapon_find("metal lance/knife", NULL);
	assert_non_null(lance);
	for (int actions = 0; actions <= 2; actions++) {
		if (actions == 0) {
			assert_non_null(fray_presidio_disengage_pursuit_refused(actions));
			continue;
		}
		assert_null(fray_presidio_disengage_pursuit_refused(actions));
		for (int charge = FRAY_PRESIDIO_FOOT; charge <= FRAY_PRESIDIO_LANCE; charge++) {
			fray_presidio_melee_in in = {.weapon = lance, .defender_weapon = lance, .figures = 4,
						     .defender_figures = 4,
						     .impact = fray_presidio_disengage_pursuit_impact(
							     (fray_presidio_impact)charge, actions)};
			/* lance 8+, skills 0, the impact's DM with 2 actions only */
			assert_int_equal(fray_presidio_melee_difficulty(&in), 8 + (actions == 2 ? impact_dm[charge] : 0));
		}
	}
}

/* src/rules/presidio/presidio_internal.h */
int frayi_presidio_leadership(const int *skills, size_t n);

/* Section 1, Rank and Command Skill: the command level "is used to
 * determine ... the order of initiative"; "Command skill is not
 * cumulative; use the highest skill present"; the COMMAND SKILL table
 * runs from 1 to 4 (sergeant major, field officer, war chief). Section 2,
 * Initiative: "1D6 adding their leadership skill". */
static void leadership_is_the_highest_command_present(void **state)
{
	(void)state;
	assert_int_equal(frayi_presidio_leadership(NULL, 0), 0);
	assert_int_equal(frayi_presidio_leadership((const int[]){1}, 1), 1);
	/* the highest, not the sum (2 + 3 + 1) nor the first */
	assert_int_equal(frayi_presidio_leadership((const int[]){2, 3, 1}, 3), 3);
	assert_int_equal(frayi_presidio_leadership((const int[]){4, 4}, 2), 4);
	/* no higher than the table's top command, 4; none below 0 */
	assert_int_equal(frayi_presidio_leadership((const int[]){5, 1}, 2), 4);
	assert_int_equal(frayi_presidio_leadership((const int[]){-1}, 1), 0);
	/* the table's top is its war chief's, field officer's, sergeant major's */
	assert_int_equal(fray_presidio_command_skill("war chief"), 4);
	assert_int_equal(fray_presidio_command_skill("field officer"), 4);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(no_commanders_left),
		cmocka_unit_test(morale_bonus_starts_over),
		cmocka_unit_test(two_weapon_types_one_check),
		cmocka_unit_test(moving_into_melee_defender_first),
		cmocka_unit_test(column_hits_those_in_front),
		cmocka_unit_test(night_sight_one_table),
		cmocka_unit_test(combining_units),
		cmocka_unit_test(weakened_structures),
		cmocka_unit_test(disengaging_pursuers_need_two_actions),
		cmocka_unit_test(leadership_is_the_highest_command_present),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
