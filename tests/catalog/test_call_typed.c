/* The typed setters (issue 42 item 1) against every input of every
 * procedure, from its descriptor: each end of an input's range is taken,
 * one past it refused with the text path's own message for the same value
 * (naming the input), a setter of another kind refused naming the input;
 * a call set typed rolls what the same call set as text rolls; an outcome
 * field read by a name the procedure lacks is refused, never a silent 0. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <inttypes.h>
#include <math.h>
#include <cmocka.h>
#include <fray/fray.h>
#include "../test_util.h"
#include "../../src/catalog/catalog.h"

/* The message of the last call, copied (the next call clears it). */
static const char *msg(void)
{
	static char m[FRAY_MSG_MAX];
	snprintf(m, sizeof m, "%s", fray_ctx_message(ctx));
	return m;
}

/* A message names input k as the command line does: "--target-figures". */
static void names_input(const char *m, const in_desc *in)
{
	char opt[80];
	snprintf(opt, sizeof opt, "--%s", in->name);
	for (char *p = opt; *p; p++)
		if (*p == '_')
			*p = '-';
	if (!strstr(m, opt))
		fail_msg("'%s' does not name %s", m, opt);
}

/* Every setter but the input's own is refused, naming the input. */
static void other_setters_refused(fray_call *c, size_t k, const in_desc *in)
{
	fray_input_kind kind = fray_call_input_kind(c, k);
	if (kind != FRAY_INPUT_INT) {
		assert_int_equal(fray_call_set_int(c, k, 1), FRAY_ERR_INPUT);
		names_input(msg(), in);
	}
	if (kind != FRAY_INPUT_NUMBER) {
		assert_int_equal(fray_call_set_number(c, k, 1), FRAY_ERR_INPUT);
		names_input(msg(), in);
	}
	if (kind != FRAY_INPUT_BOOL) {
		assert_int_equal(fray_call_set_bool(c, k, true), FRAY_ERR_INPUT);
		names_input(msg(), in);
	}
	if (kind != FRAY_INPUT_CHOICE) {
		assert_int_equal(fray_call_set_choice(c, k, "x"), FRAY_ERR_INPUT);
		names_input(msg(), in);
	}
	if (kind != FRAY_INPUT_STRING && kind != FRAY_INPUT_FILE) {
		assert_int_equal(fray_call_set_string(c, k, "x"), FRAY_ERR_INPUT);
		names_input(msg(), in);
	}
}

/* Text t refused by the text path and the typed status st: the same
 * message, naming the input. */
static void same_refusal(fray_call *text_call, size_t k, const char *t, fray_status st, const char *typed_msg)
{
	assert_int_equal(st, FRAY_ERR_INPUT);
	char typed[FRAY_MSG_MAX];
	snprintf(typed, sizeof typed, "%s", typed_msg);
	assert_int_equal(fray_call_set(text_call, k, t), FRAY_ERR_INPUT);
	assert_string_equal(typed, msg());
	names_input(typed, &text_call->d->in[k]);
}

static void int_input(fray_call *c, fray_call *tc, size_t k, const in_desc *in)
{
	assert_int_equal(fray_call_input_kind(c, k), FRAY_INPUT_INT);
	assert_int_equal(fray_call_set_int(c, k, in->min), FRAY_OK);
	assert_true(c->v[k].given && c->v[k].i == in->min);
	assert_int_equal(fray_call_set_int(c, k, in->max), FRAY_OK);
	assert_true(c->v[k].i == in->max);
	char t[32];
	snprintf(t, sizeof t, "%" PRId64, in->min - 1);
	fray_status st = fray_call_set_int(c, k, in->min - 1);
	same_refusal(tc, k, t, st, msg());
	snprintf(t, sizeof t, "%" PRId64, in->max + 1);
	st = fray_call_set_int(c, k, in->max + 1);
	same_refusal(tc, k, t, st, msg());
}

static void number_input(fray_call *c, fray_call *tc, size_t k, const in_desc *in)
{
	assert_int_equal(fray_call_input_kind(c, k), FRAY_INPUT_NUMBER);
	/* the text path takes no sign and at most 1e6 (its decimal) */
	double lo = in->min > 0 ? (double)in->min : 0, hi = in->max < 1000000 ? (double)in->max : 1e6;
	assert_int_equal(fray_call_set_number(c, k, lo), FRAY_OK);
	assert_true(c->v[k].given && c->v[k].x == lo);
	assert_int_equal(fray_call_set_number(c, k, hi), FRAY_OK);
	assert_true(c->v[k].x == hi);
	assert_int_equal(fray_call_set_number(c, k, hi - 0.5), FRAY_OK);
	char t[32];
	fray_double_str(hi + 0.5, t, sizeof t);
	fray_status st = fray_call_set_number(c, k, hi + 0.5);
	same_refusal(tc, k, t, st, msg());
	if (lo > 0) {
		fray_double_str(lo - 0.5, t, sizeof t);
		st = fray_call_set_number(c, k, lo - 0.5);
		same_refusal(tc, k, t, st, msg());
	}
	assert_int_equal(fray_call_set_number(c, k, -1), FRAY_ERR_INPUT);
	names_input(msg(), in);
	assert_int_equal(fray_call_set_number(c, k, NAN), FRAY_ERR_INPUT);
	names_input(msg(), in);
}

static void choice_input(fray_call *c, fray_call *tc, size_t k, const in_desc *in)
{
	assert_int_equal(fray_call_input_kind(c, k), FRAY_INPUT_CHOICE);
	for (size_t j = 0; j < in->nchoices; j++) {
		assert_int_equal(fray_call_set_choice(c, k, in->choices[j]), FRAY_OK);
		assert_true(c->v[k].given && c->v[k].i == (int64_t)j);
	}
	fray_status st = fray_call_set_choice(c, k, "no-such-word");
	same_refusal(tc, k, "no-such-word", st, msg());
	assert_int_equal(fray_call_set_choice(c, k, NULL), FRAY_ERR_INPUT);
	names_input(msg(), in);
}

static void string_input(fray_call *c, fray_call *tc, size_t k, const in_desc *in)
{
	fray_input_kind kind = fray_call_input_kind(c, k);
	assert_true(kind == (in->type == IN_FILE ? FRAY_INPUT_FILE : FRAY_INPUT_STRING));
	static char longest[CALL_MAX_TEXT + 2];
	memset(longest, 'a', CALL_MAX_TEXT);
	longest[CALL_MAX_TEXT] = 0;
	assert_int_equal(fray_call_set_string(c, k, longest), FRAY_OK);
	assert_true(c->v[k].given && strcmp(c->v[k].s, longest) == 0);
	longest[CALL_MAX_TEXT] = 'a';
	longest[CALL_MAX_TEXT + 1] = 0;
	fray_status st = fray_call_set_string(c, k, longest);
	same_refusal(tc, k, longest, st, msg());
	assert_int_equal(fray_call_set_string(c, k, NULL), FRAY_ERR_INPUT);
	names_input(msg(), in);
}

/* Every input of every procedure and listing, by its kind in the
 * descriptor. */
static void each_setter_holds_its_inputs_range_and_kind(void **state)
{
	(void)state;
	size_t checked = 0;
	for (size_t p = 0; p < frayi_catalog_nprocs() + frayi_catalog_nshows; p++) {
		const proc_desc *d = p < frayi_catalog_nprocs() ? frayi_catalog_proc(p)
							       : frayi_catalog_shows[p - frayi_catalog_nprocs()];
		fray_call *c = fray_call_new(ctx, d->name), *tc = fray_call_new(ctx, d->name);
		assert_non_null(c);
		assert_non_null(tc);
		for (size_t k = 0; k < d->nin; k++) {
			const in_desc *in = &d->in[k];
			assert_int_equal(fray_call_input_named(c, in->name), (int)k);
			switch (in->type) {
			case IN_INT:
				int_input(c, tc, k, in);
				break;
			case IN_NUMBER:
				number_input(c, tc, k, in);
				break;
			case IN_BOOL:
				assert_int_equal(fray_call_input_kind(c, k), FRAY_INPUT_BOOL);
				assert_int_equal(fray_call_set_bool(c, k, true), FRAY_OK);
				assert_true(c->v[k].given && c->v[k].i == 1);
				assert_int_equal(fray_call_set_bool(c, k, false), FRAY_OK);
				assert_true(c->v[k].given && c->v[k].i == 0);
				break;
			case IN_CHOICE:
				choice_input(c, tc, k, in);
				break;
			case IN_STRING:
			case IN_FILE:
				string_input(c, tc, k, in);
				break;
			}
			other_setters_refused(c, k, in);
			checked++;
		}
		assert_int_equal(fray_call_input_named(c, "no_such_input"), -1);
		assert_int_equal(fray_call_input_kind(c, d->nin), FRAY_INPUT_NONE);
		assert_int_equal(fray_call_set_int(c, d->nin, 0), FRAY_ERR_INPUT);
		fray_call_free(c);
		fray_call_free(tc);
	}
	assert_true(checked > 300);
}

/* A value for input in, the k-th of a sweep, both typed and as text:
 * false when the sweep leaves it unset (files, free text). */
static bool sweep_value(fray_call *c, fray_call *tc, size_t i, const in_desc *in, size_t k)
{
	char t[64];
	switch (in->type) {
	case IN_INT: {
		/* from 1 where the range holds it: a count, not a sign's end */
		int64_t base = in->min < 1 && in->max >= 1 ? 1 : in->min, span = in->max - base;
		int64_t v = base + (int64_t)((k * 3 + i) % 7) % (span < 12 ? span + 1 : 12);
		snprintf(t, sizeof t, "%" PRId64, v);
		assert_int_equal(fray_call_set_int(c, i, v), FRAY_OK);
		break;
	}
	case IN_NUMBER: {
		double v = (double)(in->min > 0 ? in->min : 0) + (double)((k + i) % 5) * 1.5;
		if (v > (double)in->max)
			v = (double)in->max;
		fray_double_str(v, t, sizeof t);
		assert_int_equal(fray_call_set_number(c, i, v), FRAY_OK);
		break;
	}
	case IN_BOOL:
		if ((k + i) % 3 != 0)
			return false;
		assert_int_equal(fray_call_set_bool(c, i, true), FRAY_OK);
		assert_int_equal(fray_call_set(tc, i, NULL), FRAY_OK);
		return true;
	case IN_CHOICE: {
		const char *w = in->choices[(k + i) % in->nchoices];
		snprintf(t, sizeof t, "%s", w);
		assert_int_equal(fray_call_set_choice(c, i, w), FRAY_OK);
		break;
	}
	case IN_STRING: {
		const char *w = in->suggest ? in->suggest(k % 2) : NULL;
		if (!w)
			return false;
		snprintf(t, sizeof t, "%s", w);
		assert_int_equal(fray_call_set_string(c, i, w), FRAY_OK);
		break;
	}
	case IN_FILE:
		return false;
	}
	assert_int_equal(fray_call_set(tc, i, t), FRAY_OK);
	return true;
}

/* Whether input i cannot go with an input already set (its excludes
 * either way): the sweep leaves it out, so that more calls roll. */
static bool excluded(const proc_desc *d, const bool *set, size_t i)
{
	for (size_t j = 0; j < d->nin; j++) {
		if (!set[j])
			continue;
		for (const char *const *e = d->in[j].excludes; e && *e; e++)
			if (strcmp(*e, d->in[i].name) == 0)
				return true;
		for (const char *const *e = d->in[i].excludes; e && *e; e++)
			if (strcmp(*e, d->in[j].name) == 0)
				return true;
	}
	return false;
}

/* Each procedure that rolls, its inputs swept over their ranges and
 * choices: set typed and set as text, the call checks the same (the same
 * message when refused) and rolls the same outcome and story from the same
 * dice. */
static void a_typed_call_rolls_what_the_text_call_rolls(void **state)
{
	(void)state;
	const char *must[] = {"presidio.morale", "presidio.shoot", "bbb.move", "adbg.fire", NULL};
	bool rolled[4] = {false};
	size_t nrolled = 0;
	for (size_t p = 0; p < frayi_catalog_nprocs(); p++) {
		const proc_desc *d = frayi_catalog_proc(p);
		if (!(d->modes & FRAY_MODE_ROLL))
			continue;
		for (size_t k = 0; k < 6; k++) {
			fray_call *c = fray_call_new(ctx, d->name), *tc = fray_call_new(ctx, d->name);
			bool set[CALL_MAX_INPUTS] = {false};
			for (size_t i = 0; i < d->nin; i++)
				if (!excluded(d, set, i))
					set[i] = sweep_value(c, tc, i, &d->in[i], k);
			fray_status st = fray_call_check(c);
			char m[FRAY_MSG_MAX];
			snprintf(m, sizeof m, "%s", msg());
			assert_int_equal(fray_call_check(tc), st);
			assert_string_equal(msg(), m);
			uint64_t dice = 0, tdice = 0;
			int64_t o[FRAY_OUTCOME_MAX_FIELDS], to[FRAY_OUTCOME_MAX_FIELDS];
			char *json = NULL, *text = NULL, *tjson = NULL, *ttext = NULL;
			if (st == FRAY_OK) {
				/* a rules function may refuse what the descriptor let by */
				st = fray_call_roll_at(c, 42 + k, &dice, o, &json, &text);
				snprintf(m, sizeof m, "%s", msg());
				assert_int_equal(fray_call_roll_at(tc, 42 + k, &tdice, to, &tjson, &ttext), st);
				assert_string_equal(msg(), m);
				assert_true(dice == tdice);
			}
			if (st == FRAY_OK) {
				assert_memory_equal(o, to, c->nfields * sizeof *o); /* past nfields: not the outcome */
				assert_string_equal(json, tjson);
				assert_string_equal(text, ttext);
				free(json);
				free(text);
				free(tjson);
				free(ttext);
				nrolled++;
				for (size_t j = 0; must[j]; j++)
					rolled[j] |= strcmp(must[j], d->name) == 0;
			}
			fray_call_free(c);
			fray_call_free(tc);
		}
	}
	for (size_t j = 0; must[j]; j++)
		if (!rolled[j])
			fail_msg("%s never rolled in the sweep", must[j]);
	assert_true(nrolled > 40);
}

/* An outcome read by name: each field the roll gives, as the outcome
 * holds it; a name the procedure lacks, or no roll yet, refused with the
 * procedure and the name in the message, never a silent 0. */
static void an_outcome_is_read_by_a_name_it_has(void **state)
{
	(void)state;
	fray_call *c = fray_call_new(ctx, "presidio.morale");
	assert_non_null(c);
	int64_t v = 7, o[FRAY_OUTCOME_MAX_FIELDS];
	assert_int_equal(fray_call_outcome_value(c, o, "success", &v), FRAY_ERR_INPUT);
	assert_non_null(strstr(msg(), "presidio.morale"));
	assert_int_equal(v, 0);
	assert_int_equal(fray_call_set_choice(c, (size_t)fray_call_input_named(c, "level"), "average"), FRAY_OK);
	assert_int_equal(fray_call_set_choice(c, (size_t)fray_call_input_named(c, "size"), "squad"), FRAY_OK);
	uint64_t dice = 0;
	char *json, *text;
	assert_int_equal(fray_call_roll_at(c, 7, &dice, o, &json, &text), FRAY_OK);
	size_t n = 0;
	for (size_t f = 0; f < c->d->nout; f++) {
		int k = fray_call_outcome_index(c, c->d->out[f].name);
		if (k < 0)
			continue; /* derived by the renderer, not in the outcome */
		v = -12345;
		assert_int_equal(fray_call_outcome_value(c, o, c->d->out[f].name, &v), FRAY_OK);
		assert_true(v == o[k]);
		/* and as the roll's JSON tells it */
		char key[96];
		snprintf(key, sizeof key, "\"%s\": ", c->d->out[f].name);
		const char *at = strstr(json, key);
		assert_non_null(at);
		at += strlen(key);
		if (strcmp(c->d->out[f].type, "boolean") == 0)
			assert_true(strncmp(at, v ? "true" : "false", v ? 4 : 5) == 0);
		else if (strcmp(c->d->out[f].type, "integer") == 0)
			assert_true(strtoll(at, NULL, 10) == v);
		n++;
	}
	assert_true(n >= 3);
	v = 7;
	assert_int_equal(fray_call_outcome_value(c, o, "sucess", &v), FRAY_ERR_INPUT);
	assert_non_null(strstr(msg(), "presidio.morale"));
	assert_non_null(strstr(msg(), "'sucess'"));
	assert_int_equal(v, 0);
	free(json);
	free(text);
	fray_call_free(c);
}

/* fray_call_missing_words (the command line asks it whether a left-out
 * input has words of its own, or gets the --help hint): each input's own
 * words from its descriptor, the same static string; none for an input
 * without, past the last input or without a call. */
static void missing_words_are_each_inputs_own(void **state)
{
	(void)state;
	size_t with = 0, without = 0;
	for (size_t p = 0; frayi_catalog_proc(p); p++) {
		const proc_desc *d = frayi_catalog_proc(p);
		fray_call *c = fray_call_new(ctx, d->name);
		assert_non_null(c);
		for (size_t i = 0; i < d->nin; i++) {
			const char *w = fray_call_missing_words(c, i);
			assert_ptr_equal(w, d->in[i].missing);
			with += w != NULL;
			without += w == NULL;
		}
		assert_null(fray_call_missing_words(c, d->nin));
		assert_null(fray_call_missing_words(c, (size_t)-1));
		fray_call_free(c);
	}
	assert_true(with >= 10 && without > with);
	/* one by hand, from bind_presidio_misc.c's jump: --horses N */
	fray_call *c = fray_call_new(ctx, "presidio.jump");
	assert_non_null(c);
	assert_string_equal(fray_call_missing_words(c, (size_t)fray_call_input_named(c, "horses")), "N");
	fray_call_free(c);
	assert_null(fray_call_missing_words(NULL, 0));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(each_setter_holds_its_inputs_range_and_kind),
		cmocka_unit_test(a_typed_call_rolls_what_the_text_call_rolls),
		cmocka_unit_test(an_outcome_is_read_by_a_name_it_has),
		cmocka_unit_test(missing_words_are_each_inputs_own),
	};
	return cmocka_run_group_tests(tests, setup_in_source, teardown);
}
