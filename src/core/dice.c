/* Dice expressions rolled through a roller: each die is one event, and a
 * term that reads its dice (kept, counted, tens and units) tells what it
 * made of them. */
#include <stdio.h>
#include <stdlib.h>
#include "dice_internal.h"
#include "../common/text.h"

FRAY_API int64_t fray_dice_roll(const fray_dice *d, fray_roller *r)
{
	return fray_dice_roll_as(d, r, NULL);
}

static int64_t roll_d66(fray_roller *r, const char *label)
{
	int tens = fray_die(r, 6, label);
	int units = fray_die(r, 6, label);
	int64_t v = 10 * tens + units;
	fray_emit_result(r, label, v, NULL, NULL);
	return v;
}

static int64_t roll_reroll_low(fray_roller *r, const dice_term *t, const char *label)
{
	int face = fray_die(r, t->sides, label);
	if (face > t->param)
		return face;
	if (fray_roller_narrating(r)) {
		char why[80];
		snprintf(why, sizeof why, "%s: %d is %d or less, rolled again", label,
			 face, t->param);
		fray_emit_note(r, why, NULL);
	}
	return fray_die(r, t->sides, label);
}

static int by_value_down(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x < y) - (x > y);
}

/* Tells "kept 6 5 3, dropped 1" after the dice. */
static void tell_kept(fray_roller *r, const char *label, const int *faces, int n,
		      int keep, bool high, int64_t sum)
{
	char text[DICE_KEEP_MAX_DICE * 8 + 32];
	textbuf t = text_on(text, sizeof text);
	text_add(&t, "kept");
	int lo = high ? 0 : n - keep, hi = high ? keep : n;
	for (int i = lo; i < hi; i++)
		text_add(&t, " %d", faces[i]);
	if (keep < n)
		text_add(&t, ", dropped");
	for (int i = 0; i < n; i++)
		if (i < lo || i >= hi)
			text_add(&t, " %d", faces[i]);
	text_add(&t, ": %lld", (long long)sum);
	fray_emit_result(r, label, sum, text, NULL);
}

static int64_t roll_keep(fray_roller *r, const dice_term *t, const char *label)
{
	int faces[DICE_KEEP_MAX_DICE];
	for (int k = 0; k < t->count; k++)
		faces[k] = fray_die(r, t->sides, label);
	qsort(faces, (size_t)t->count, sizeof faces[0], by_value_down);
	bool high = t->kind == DICE_KEEP_HIGH;
	int64_t sum = 0;
	for (int k = 0; k < t->param; k++)
		sum += faces[high ? k : t->count - 1 - k];
	if (fray_roller_narrating(r))
		tell_kept(r, label, faces, t->count, t->param, high, sum);
	return sum;
}

static int64_t roll_count(fray_roller *r, const dice_term *t, const char *label)
{
	int64_t hits = 0;
	for (int k = 0; k < t->count; k++) {
		int face = fray_die(r, t->sides, label);
		hits += t->kind == DICE_AT_LEAST ? face >= t->param : face <= t->param;
	}
	if (fray_roller_narrating(r)) {
		char text[64];
		snprintf(text, sizeof text, "%lld of %d dice show %d or %s", (long long)hits,
			 t->count, t->param, t->kind == DICE_AT_LEAST ? "more" : "less");
		fray_emit_result(r, label, hits, text, NULL);
	}
	return hits;
}

FRAY_API int64_t fray_dice_roll_as(const fray_dice *d, fray_roller *r, const char *what)
{
	int64_t total = 0;
	for (size_t i = 0; i < d->nterms; i++) {
		const dice_term *t = &d->terms[i];
		const char *label = what ? what : t->label;
		int64_t sum = t->value;
		switch (t->kind) {
		case DICE_KEEP_HIGH:
		case DICE_KEEP_LOW:
			sum = roll_keep(r, t, label);
			break;
		case DICE_AT_LEAST:
		case DICE_AT_MOST:
			sum = roll_count(r, t, label);
			break;
		default:
			for (int k = 0; k < t->count; k++) {
				if (t->kind == DICE_REROLL_ADD)
					sum += fray_reroll_add(r, t->sides, label);
				else if (t->kind == DICE_REROLL_LOW)
					sum += roll_reroll_low(r, t, label);
				else if (t->kind == DICE_D66)
					sum += roll_d66(r, label);
				else
					sum += fray_die(r, t->sides, label);
			}
		}
		total += t->sign * sum;
	}
	return total;
}

FRAY_API void fray_dice_procedure(fray_roller *r, fray_policy *p,
				  const void *dice, int64_t *outcome)
{
	(void)p;
	outcome[0] = fray_dice_roll(dice, r);
}
