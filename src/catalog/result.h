/* Compute once, render at the edge (issue 42 item 3): a result is computed
 * once into one of these structs, and each format is a renderer of it,
 * looked up in the one table of renderers (renderers.c) by the result's
 * kind and a fray_format. No renderer computes, none decides a rule. */
#ifndef FRAY_CATALOG_RESULT_H
#define FRAY_CATALOG_RESULT_H

#include "catalog.h"

/* What a result is, the table's rows. */
typedef enum result_kind {
	RESULT_ROLL,        /* a procedure rolled: events told and its outcome (call_result) */
	RESULT_ODDS,        /* a procedure's exact distribution (call_result) */
	RESULT_SIMULATE,    /* a procedure sampled many times (call_result) */
	RESULT_BATTLE_ODDS, /* a battle's odds, exact or simulated (battle_odds_result) */
	RESULT_BATTLE_SIM,  /* a battle simulated many times (battle_sim_result) */
	RESULT_KIND_COUNT
} result_kind;

/* The events a roll told, kept (their strings copied: a procedure may
 * tell them from its own buffers) so each renderer tells them again. */
typedef struct event_tape {
	fray_ctx *ctx;
	fray_event *ev;
	size_t n, cap;
	bool failed;        /* out of memory: an event was not kept */
} event_tape;

/* A procedure's result. The call (not owned) gives what the renderers
 * echo: its descriptor, inputs (c->inputs_json), title and outcome
 * formatter. */
typedef struct call_result {
	const fray_call *c;
	result_kind kind;
	/* ROLL: the seed (have_seed: given, so text asks no replay), and for
	 * a roll at a count of dice (fray_call_roll_at, the game's step) the
	 * dice before it: then the text's title has no seed and the JSON
	 * says "dice" */
	uint64_t seed;
	bool have_seed, at_dice;
	uint64_t dice;
	event_tape events;
	int64_t outcome[FRAY_OUTCOME_MAX_FIELDS];
	/* ODDS, SIMULATE: owned; exact: every row in full (--exact) */
	fray_dist *dist;
	bool exact;
	uint64_t trials;
} call_result;

/* A battle's odds: the dist of fray_adbg_battle_procedure, and from it
 * each side's losses (their chances and mean), summed once. */
typedef struct battle_odds_result {
	const fray_adbg_odds_about *about;
	const fray_dist *dist;
	double loss_p[2][FRAY_ADBG_MAX_UNITS + 1], mean[2];
} battle_odds_result;

typedef struct battle_sim_result {
	const fray_adbg_sim_about *about;
	const fray_sim *sim;
} battle_sim_result;

/* A renderer: result (of the kind its row says) into sb. A failed
 * allocation marks sb failed (told once by whoever gives the text); a
 * status other than FRAY_OK is on the result's context. */
typedef fray_status (*result_renderer)(const void *result, strbuf *sb);

/* The renderer of kind in format f; NULL: that result has no such format. */
result_renderer frayi_renderer(result_kind kind, fray_format f);
/* The formats kind has, by name, joined by ", " ("text, json"), into dst. */
void frayi_renderer_formats(result_kind kind, char *dst, size_t cap);

/* The renderers of the table, each in its format's file. */
fray_status frayi_text_roll(const void *r, strbuf *sb);      /* render_text.c */
fray_status frayi_text_odds(const void *r, strbuf *sb);
fray_status frayi_text_simulate(const void *r, strbuf *sb);
fray_status frayi_json_roll(const void *r, strbuf *sb);      /* render_json.c */
fray_status frayi_json_odds(const void *r, strbuf *sb);
fray_status frayi_json_simulate(const void *r, strbuf *sb);
fray_status frayi_markdown_result(const void *r, strbuf *sb); /* render_rows.c: the three kinds */
fray_status frayi_csv_result(const void *r, strbuf *sb);
fray_status frayi_html_result(const void *r, strbuf *sb);
fray_status frayi_text_battle_odds(const void *r, strbuf *sb); /* adbg_odds_report.c */
fray_status frayi_json_battle_odds(const void *r, strbuf *sb);
fray_status frayi_text_battle_sim(const void *r, strbuf *sb);  /* adbg_sim_report.c */
fray_status frayi_json_battle_sim(const void *r, strbuf *sb);

/* Whether c renders mode in format f, and the formats it has, by name,
 * into formats (for the refusal's message). */
bool frayi_call_offers(const fray_call *c, fray_mode mode, fray_format f, char *formats, size_t cap);

/* The outcome of c as words or JSON members (its formatter), into t. */
static inline void result_outcome(const call_result *r, const int64_t *o, fray_format form, textbuf *t)
{
	r->c->fmt(r->c, o, form, t);
}

/* Keeps ev on the tape (a roller's sink: ud is the tape). */
void frayi_tape_keep(void *tape, const fray_event *ev);
void frayi_tape_free(event_tape *t);

/* The exact chance of outcome i as text, in the context's memory (NULL:
 * out of memory); frayi_dealloc it. */
char *frayi_exact_of(fray_ctx *ctx, const fray_dist *d, size_t i);

#endif
