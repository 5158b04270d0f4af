/* Presidio's target numbers as lists of terms (private to the rule set):
 * the number is their sum, and the same list tells them, each a MODIFIER,
 * then the TOTAL (the BRIEF's told terms), so what is told is what is
 * used. */
#ifndef FRAY_PRESIDIO_TERMS_H
#define FRAY_PRESIDIO_TERMS_H

#include "../../core/internal.h"
#include <fray/presidio.h>

/* One term of a target number: its value, what it is and its rule. The
 * number is the sum of its terms; the same list tells them (the BRIEF's
 * told terms), so what is told is what is used. */
typedef struct term {
	const char *what;
	int value;
	const char *rule;
} term;

enum { MAX_TERMS = 16 };

static inline void add_term(term *t, int *n, int value, const char *rule, const char *what)
{
	if (value != 0 && *n < MAX_TERMS)
		t[(*n)++] = (term){what, value, rule};
}

static inline void add_base(term *t, int *n, int value, const char *rule, const char *what)
{
	if (*n < MAX_TERMS)
		t[(*n)++] = (term){what, value, rule};
}

static inline int sum_terms(const term *t, int n)
{
	int s = 0;
	for (int i = 0; i < n; i++)
		s += t[i].value;
	return s;
}

/* Tells each term as a MODIFIER, then their sum as the TOTAL. */
static inline void tell_terms(fray_roller *r, const term *t, int n, const char *total, const char *rule)
{
	if (!fray_roller_narrating(r))
		return;
	for (int i = 0; i < n; i++)
		fray_emit_modifier(r, t[i].what, t[i].value, t[i].rule);
	fray_emit_total(r, total, sum_terms(t, n), rule);
}

/* The damage chart (ruling R13) told in two steps: the differential's
 * terms t (a damage, less an armor or a strength, and whatever changes
 * them) and their TOTAL, then the chart's number for it as the one term
 * of what the d12 needs. Returns that number; 0 when the differential is
 * below -3 (no effect, told as a note). The same chart serves small arms,
 * artillery and ramming. */
static inline int tell_chart(fray_roller *r, const term *t, int n, const char *differential)
{
	static const char *const chart = "Presidio Section 6, Wounding; ruling R13";
	tell_terms(r, t, n, differential, chart);
	int wn = fray_presidio_wound_number(sum_terms(t, n));
	if (!wn) {
		fray_emit_note(r, "a differential below -3 does no damage", chart);
		return 0;
	}
	term c[1];
	int nc = 0;
	/* the chart gives the score needed, not a difference (issue 28) */
	add_base(c, &nc, wn, chart, "the d12 needed, from the damage chart for the differential");
	tell_terms(r, c, nc, "needed on the damage d12", chart);
	return wn;
}

/* The chart for a damage against an armor (or a strength). */
static inline int tell_damage_chart(fray_roller *r, int damage, const char *damage_what, int armor,
				    const char *armor_what)
{
	static const char *const chart = "Presidio Section 6, Wounding; ruling R13";
	term t[2];
	int n = 0;
	add_base(t, &n, damage, chart, damage_what);
	add_base(t, &n, -armor, chart, armor_what);
	return tell_chart(r, t, n, "damage - armor (the differential)");
}

#endif
