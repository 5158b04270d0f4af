/* Presidio's raiding tables (Section 8) and the campaign's time of contact
 * (Section 11): camps, villagers, sentries, capture, livestock, pursuit. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include "../../core/internal.h"
#include <fray/presidio.h>
#include "terms.h"

FRAY_API const char *const fray_presidio_camp_terrain[6] = {"heavy woods", "medium woods", "light woods",
						   "fields and scrub brush", "open field", "open field"};
FRAY_API const char *const fray_presidio_camp_feature[6] = {"by a stream (fordable)", "by a stream (unfordable)",
						   "random rocks", "on a large hill", "on a small hill",
						   "in a valley"};
FRAY_API const char *const fray_presidio_camp_sentries[6] = {"none", "one", "two (opposite ends of camp)",
						    "three (around camp)", "four (around camp)",
						    "entire camp is alerted"};

FRAY_API void fray_presidio_camp_procedure(fray_roller *r, fray_policy *p, const void *in, int64_t *out)
{
	(void)p;
	bool horses = *(const bool *)in;
	out[0] = fray_die(r, 6, "camp terrain");
	if (out[0] == 1 && horses) /* "if horses are involved use medium woods instead" */
		out[0] = 2;
	out[1] = fray_die(r, 6, "other features");
	out[2] = fray_die(r, 6, "sentries");
	if (fray_roller_narrating(r)) {
		char text[200];
		snprintf(text, sizeof text, "%s, %s; sentries: %s", fray_presidio_camp_terrain[out[0] - 1],
			 fray_presidio_camp_feature[out[1] - 1], fray_presidio_camp_sentries[out[2] - 1]);
		fray_emit_result(r, "camp", out[0], text, "Presidio Section 8, Camp Setup");
	}
}

/* Day: houses 1 in 4, fields 2 in 4, plaza 1 in 4 (a d4); night: houses
 * 19 in 20, plaza 1 in 20 (a d20). Guards are the scenario's figures. */
FRAY_API void fray_presidio_villagers_procedure(fray_roller *r, fray_policy *p, const void *in,
						int64_t *out)
{
	(void)p;
	const int *v = in;
	int n = v[0];
	if (v[1]) {
		out[2] = fray_count_at_most(r, n, 20, 1, "villagers in the plaza (night: 1 in 20)");
		out[0] = n - out[2];
		out[1] = 0;
	} else {
		out[0] = fray_count_at_most(r, n, 4, 1, "villagers in houses (day: 1 in 4)");
		/* of the rest, the fields take 2 of the 3 remaining quarters */
		out[1] = fray_count_at_most(r, n - (int)out[0], 3, 2, "of the rest, in the fields (2 in 3)");
		out[2] = n - out[0] - out[1];
	}
}

/* Sentry Alertness. */
FRAY_API void fray_presidio_sentry_procedure(fray_roller *r, fray_policy *p, const void *input,
					     int64_t *out)
{
	(void)p;
	const fray_presidio_sentry_in *in = input;
	int cond = fray_die(r, 6, "sentry condition");
	out[0] = (cond - 1) / 2; /* 0 sleeping, 1 daydreaming, 2 alert */
	out[1] = 0;
	if (cond <= 2) {
		fray_emit_result(r, "sentry", 0, "sleeping: no chance of discovery", "Presidio Section 8, Sentry Alertness");
		return;
	}
	/* the die less Camou plus Recon and the DMs, at least 3 (day) or 5:
	 * told as the number the die needs, each DM's term turned about */
	static const char *const sa = "Presidio Section 8, Sentry Alertness";
	term t[8];
	int n = 0;
	add_base(t, &n, in->night ? 5 : 3, sa, in->night ? "by night: 5+" : "by day: 3+");
	add_term(t, &n, -in->recon, sa, "the sentry's Recon");
	add_term(t, &n, in->camou, sa, "the raiders' Camou");
	add_term(t, &n, cond <= 4 ? 1 : 0, sa, "daydreaming (-1 DM)");
	add_term(t, &n, in->posture, sa, in->posture == 1 ? "kneeling (-1 DM)" : "prone (-2 DM)");
	add_term(t, &n, in->size == FRAY_PRESIDIO_PLATOON ? -1 : in->size == FRAY_PRESIDIO_COMPANY ? -2 : 0, sa,
		 in->size == FRAY_PRESIDIO_PLATOON ? "a platoon (+1 DM)" : "a company (+2 DM)");
	add_term(t, &n, -in->night_dm, "Presidio Section 8, Nighttime Visibility", "the night's Search DM");
	tell_terms(r, t, n, "needed on the discovery die", sa);
	int need = sum_terms(t, n);
	out[1] = need <= 1 ? 1 : need > 6 ? 0 : fray_successes(r, 1, 6, need, "discovery die");
	fray_emit_result(r, "sentry", out[1], out[1] ? "the raiders are discovered" : "not discovered",
			 "Presidio Section 8, Sentry Alertness");
}

/* Capturing Plunder: fists 8+, less the raider's melee skill, plus the
 * defender's; no wound. */
FRAY_API void fray_presidio_capture_procedure(fray_roller *r, fray_policy *p, const void *in,
					      int64_t *out)
{
	(void)p;
	const int *v = in;
	static const char *const cp = "Presidio Section 8, Capture";
	term t[3];
	int n = 0;
	add_base(t, &n, 8, "Presidio Section 10, fists: 8+", "fists' Hit#");
	add_term(t, &n, -v[0], cp, "the raider's melee skill");
	add_term(t, &n, v[1], cp, "the defender's melee skill");
	tell_terms(r, t, n, "needed on the capture d12", cp);
	int need = sum_terms(t, n);
	out[0] = need <= 1 ? 1 : need > 12 ? 0 : fray_successes(r, 1, 12, need, "capture d12");
	fray_emit_result(r, "capture", out[0], out[0] ? "captured" : "failed: the defender may flee",
			 "Presidio Section 8, Capture");
}

/* Livestock Capture and Stampede Statistics. */
FRAY_API const fray_presidio_animal fray_presidio_animals[] = {
	{"horses", 1, 2, 12, 6}, {"mules", 1, 1, 8, 5}, {"cattle", 1, 1, 10, 4},
	{"donkeys", 1, 0, 7, 4}, {"sheep", 0, 0, 6, 3}, {"pigs", 0, 0, 6, 3},
	{"dogs", 2, 1, 16, 4}, {"buffalo", 2, 2, 12, 12}, {"chickens", 4, -3, 6, -3},
};
FRAY_API const size_t fray_presidio_nanimals = sizeof fray_presidio_animals / sizeof fray_presidio_animals[0];

FRAY_API const fray_presidio_animal *fray_presidio_animal_find(const char *name)
{
	for (size_t i = 0; i < fray_presidio_nanimals; i++) {
		const char *a = fray_presidio_animals[i].name, *b = name;
		while (*a && tolower((unsigned char)*b) == *a)
			a++, b++;
		/* "horse" finds "horses" too */
		if ((!*a && !*b) || (!*b && a[0] == 's' && !a[1]))
			return &fray_presidio_animals[i];
	}
	return NULL;
}

FRAY_API void fray_presidio_ramming_procedure(fray_roller *r, fray_policy *p, const void *in,
					      int64_t *out)
{
	(void)p;
	const int *v = in;
	int wn = tell_damage_chart(r, v[1], "the animal's ramming damage (Section 8, Livestock)", v[2],
				   "the figures' armor");
	out[0] = wn ? fray_successes(r, v[0], 12, wn, "rammed") : 0;
}

FRAY_API void fray_presidio_livestock_return_procedure(fray_roller *r, fray_policy *p, const void *in,
						       int64_t *out)
{
	(void)p;
	const int *v = in;
	int n = v[0];
	int home = v[1] ? 4 : 3; /* faces that bring an animal back */
	out[0] = fray_count_at_most(r, n, 6, home, "animals returning");
	/* of the others (faces home+1 .. 6), the enemy takes all but the 6 */
	out[1] = fray_count_at_most(r, n - (int)out[0], 6 - home, 5 - home, "of the rest, rounded up by the enemy");
	out[2] = n - out[0] - out[1];
}

/* Time of Contact: the 1D4 table, hours on a 24-hour clock. */
FRAY_API void fray_presidio_contact_time_procedure(fray_roller *r, fray_policy *p, const void *in,
						   int64_t *out)
{
	(void)p;
	static const int hours[3][4] = {{8, 9, 10, 11}, {12, 13, 14, 15}, {16, 17, 18, 19}};
	const int *v = in;
	if (v[1]) {
		int d = fray_die(r, 12, "time of contact d12 (a large map)") - 1;
		out[0] = hours[d / 4][d % 4];
		return;
	}
	out[0] = hours[v[0]][fray_die(r, 4, "time of contact 1d4") - 1];
}

/* The Strategic Turn's entrance point: "Roll 1D6 ... (2 points minimum)".
 * The text numbers no points: fray reads it as the map's 2 to 6 points
 * numbered 1..N by the players, and a face above N rolled again. Rolling
 * until a face fits is one draw among the N faces that fit (as for the
 * initiative's re-roll, R17), so the odds are exactly 1/N each. */
FRAY_API void fray_presidio_entrance_procedure(fray_roller *r, fray_policy *p, const void *in, int64_t *out)
{
	(void)p;
	int points = *(const int *)in;
	int face = fray_die(r, 6, "entrance point 1D6");
	if (face > points && !fray_roller_stopped(r)) {
		static const unsigned ones[6] = {1, 1, 1, 1, 1, 1};
		fray_emit_note(r, "no such entrance point: rolled again until one fits", "Presidio Section 12");
		face = (int)fray_draw(r, ones, (size_t)points, "the entrance re-roll") + 1;
	}
	out[0] = face;
}

/* Nighttime Visibility (Section 8): 1D6, 5 and 6 the same row. */
FRAY_API const fray_presidio_night_row fray_presidio_night_rows[5] = {
	{"dusk, or dark with a full moon", 12, 6, 2},
	{"dark with a 3/4 moon", 10, 5, 1},
	{"dark with a half-moon", 8, 4, 0},
	{"dark with a new 1/4 moon", 6, 3, -1},
	{"no moon", 4, 2, -2},
};

FRAY_API void fray_presidio_night_procedure(fray_roller *r, fray_policy *p, const void *in, int64_t *out)
{
	(void)p;
	(void)in;
	int d = fray_die(r, 6, "nighttime visibility 1d6");
	out[0] = d < 5 ? d - 1 : 4;
}

FRAY_API const fray_presidio_victory_item fray_presidio_victory_items[] = {
	{"war chief, captain or alcalde killed or captured", 30},
	{"horse captured", 25},
	{"young, clan or tribal chief or lieutenant killed or captured", 20},
	{"native warrior or spanish soldier killed or captured", 10},
	{"mule or cow captured", 10},
	{"scalp, ears, woman or child, or a home pillaged", 5},
	{"donkey, sheep or pig captured", 5},
	{"chicken", 1},
};
FRAY_API const size_t fray_presidio_nvictory_items = sizeof fray_presidio_victory_items / sizeof fray_presidio_victory_items[0];

/* Distance in Leagues (2D6). */
FRAY_API int fray_presidio_leagues(bool fugitives, int roll)
{
	static const int pursuers[13] = {0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 15};
	static const int fugitive[13] = {0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 12};
	if (roll > 12)
		roll = 12;
	return fugitives ? fugitive[roll] : pursuers[roll];
}

/* A day's travel: the pursuit's own dice, one party, one day. A roll of
 * 13 (12 and mounted) is read as 12, the table's last row, as the
 * pursuit reads it. */
FRAY_API void fray_presidio_leagues_procedure(fray_roller *r, fray_policy *p, const void *input, int64_t *out)
{
	(void)p;
	const fray_presidio_leagues_in *in = input;
	static const char rule[] = "Presidio Section 8, Campaign Pursuit";
	int dm = in->mounted ? 1 : 0; /* "Add +1 to the die roll for mounted parties" */
	if (dm)
		fray_emit_modifier(r, "mounted party", dm, rule);
	fray_emit_total(r, "added to the 2D6", dm, rule);
	int roll = fray_die(r, 6, "leagues 2d6") + fray_die(r, 6, "leagues 2d6") + dm;
	out[0] = fray_presidio_leagues(in->fugitives, roll);
	out[1] = in->fugitives && out[0] == 0;
}

#define TRACKING "Presidio Section 8, Campaign Pursuit, Tracking"

/* A day's tracking: "a Recon roll versus the Raider Camou skill", read as
 * the Hidden Movement search reads Recon against Camou (Section 4): 1d6 +
 * Recon against 1d6 + Camou, the trail found on equal or higher (fray's
 * reading: the Tracking paragraph names no dice and no tie). Both totals
 * in *track and *hide. The pursuit's days and presidio.tracking roll it
 * here. */
static bool trail_found(fray_roller *r, int recon, int camou, int *track, int *hide)
{
	term t[1];
	int n = 0;
	add_base(t, &n, recon, TRACKING, "the pursuers' Recon");
	tell_terms(r, t, n, "added to the tracking die", TRACKING);
	*track = fray_die(r, 6, "tracking: recon") + recon;
	n = 0;
	add_base(t, &n, camou, TRACKING, "the raiders' Camou");
	tell_terms(r, t, n, "added to the hiding die", TRACKING);
	*hide = fray_die(r, 6, "tracking: camou") + camou;
	return *track >= *hide;
}

FRAY_API void fray_presidio_tracking_procedure(fray_roller *r, fray_policy *p, const void *input, int64_t *out)
{
	(void)p;
	const fray_presidio_tracking_in *in = input;
	int track, hide;
	out[0] = trail_found(r, in->recon, in->camou, &track, &hide);
	if (fray_roller_narrating(r)) {
		char text[112];
		snprintf(text, sizeof text, "recon %d against camou %d: %s", track, hide,
			 out[0] ? "the trail is found" : "the trail is lost: the pursuers wait a day");
		fray_emit_result(r, "tracking", out[0], text, TRACKING);
	}
}

FRAY_API void fray_presidio_pursuit_procedure(fray_roller *r, fray_policy *p, const void *input,
					      int64_t *out)
{
	(void)p;
	const fray_presidio_pursuit_in *in = input;
	double raiders = 0, pursuers = 0;
	bool seen = false;
	/* forced_nights: nights marched in a row (Forced March) */
	int forced_nights = 0, resting = 0, raider_days = 0;
	/* the raiders' day of head start */
	raider_days++;
	raiders += fray_presidio_leagues(false, fray_die(r, 6, "raiders 2d6") + fray_die(r, 6, "raiders 2d6") +
					 in->raiders_mounted);
	out[0] = 0;
	for (int day = 1; day <= 15 && !fray_roller_stopped(r); day++) {
		int roll = fray_die(r, 6, "raiders 2d6") + fray_die(r, 6, "raiders 2d6");
		seen |= roll == 12; /* "the raiders will see the pursuers if they roll a 12" */
		raider_days++;
		raiders += fray_presidio_leagues(raider_days > 3 && !seen, roll + in->raiders_mounted);
		if (resting) {
			resting--;
			continue;
		}
		int track, hide;
		if (!trail_found(r, in->recon, in->camou, &track, &hide)) {
			fray_emit_note(r, "the trail is lost: the pursuers wait a day", TRACKING);
			forced_nights = 0; /* a night not marched: see below */
			continue;
		}
		double leg = fray_presidio_leagues(false, fray_die(r, 6, "pursuers 2d6") + fray_die(r, 6, "pursuers 2d6") +
						   in->pursuers_mounted);
		/* Forced March: "they may continue to travel at night" when "the
		 * distance is short between them (1-10 leagues)": the distance
		 * at nightfall, after both parties' day of travel (ruling R41),
		 * any left up to 10 leagues (half a league is shorter still);
		 * the night gives 1.5 x the day's leagues in all. Two nights
		 * without catching them cost a day and a night of rest. The two
		 * nights are in a row (fray's reading): a night not marched (the
		 * trail lost, the raiders out of reach) is a night's rest, and
		 * the count starts again. */
		double gap = raiders - pursuers - leg;
		if (in->forced_march && gap > 0 && gap <= 10) {
			leg *= 1.5;
			if (++forced_nights == 2 && pursuers + leg < raiders) {
				resting = 1; /* a day and a night of rest */
				forced_nights = 0;
			}
		} else {
			forced_nights = 0;
		}
		pursuers += leg;
		if (pursuers >= raiders) {
			out[0] = day;
			if (fray_roller_narrating(r)) {
				char text[64];
				snprintf(text, sizeof text, "the raiders are caught on day %d", day);
				fray_emit_result(r, "pursuit", day, text, "Presidio Section 8, Campaign Pursuit");
			}
			return;
		}
	}
	fray_emit_result(r, "pursuit", 0, "the raiders escape: the rations are half gone",
			 "Presidio Section 8, Campaign Pursuit");
}

FRAY_API void fray_presidio_herd_procedure(fray_roller *r, fray_policy *p, const void *in, int64_t *out)
{
	(void)p;
	const int *v = in;
	int beasts = v[0], riders = v[1];
	/* "at least one quarter of their number abreast" */
	out[1] = (beasts + 3) / 4;
	if (riders * 10 >= beasts) {
		out[0] = 0;
		fray_emit_note(r, "controlled: one rider for every ten beasts", "Presidio Section 8, Stampeding Herds");
		return;
	}
	out[0] = fray_die(r, 6, "the herd's direction (the scatter chart)");
	if (fray_roller_narrating(r)) {
		static const char *const dirs[6] = {"N", "NE", "SE", "S", "SW", "NW"};
		char text[96];
		snprintf(text, sizeof text, "uncontrolled: it stampedes %s, %lld abreast", dirs[out[0] - 1],
			 (long long)out[1]);
		fray_emit_result(r, "herd", out[0], text, "Presidio Section 8, Random Direction");
	}
}
