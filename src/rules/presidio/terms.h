/* Presidio's target numbers as lists of terms (private to the rule set):
 * the number is their sum, and the same list tells them, each a MODIFIER,
 * then the TOTAL (the BRIEF's told terms), so what is told is what is
 * used. */
#ifndef FRAY_PRESIDIO_TERMS_H
#define FRAY_PRESIDIO_TERMS_H

#include "../../core/internal.h"

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

#endif
