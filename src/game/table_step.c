/* An action's steps: each a catalogue procedure rolled at the game's
 * place in its dice, its inputs from the forces (and the player's
 * options), its story and JSON kept for the log. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "table.h"
#include "../core/internal.h"

static int fail_v(table_game *g, fray_status s, const char *input, const char *fmt, va_list ap)
{
	char msg[FRAY_MSG_MAX];
	vsnprintf(msg, sizeof msg, fmt, ap);
	return (int)frayi_fail_input(g->ctx, s, input, "%s", msg);
}

int frayi_game_fail(table_game *g, fray_status s, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int r = fail_v(g, s, NULL, fmt, ap);
	va_end(ap);
	return r;
}

int frayi_game_fail_input(table_game *g, fray_status s, const char *input, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int r = fail_v(g, s, input, fmt, ap);
	va_end(ap);
	return r;
}

int frayi_game_failed(const table_game *g)
{
	fray_status s = fray_ctx_status(g->ctx);
	return s != FRAY_OK ? (int)s : (int)FRAY_ERR_INTERNAL;
}

void frayi_table_note(table_game *g, const char *fmt, ...)
{
	if (g->notes_len >= sizeof g->notes - 1)
		return;
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(g->notes + g->notes_len, sizeof g->notes - g->notes_len - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	g->notes_len += (size_t)n < sizeof g->notes - g->notes_len - 1 ? (size_t)n
								       : sizeof g->notes - g->notes_len - 2;
	g->notes[g->notes_len++] = '\n';
	g->notes[g->notes_len] = '\0';
}

const char *frayi_player_value(const player_opts *p, const char *opt)
{
	size_t n = strlen(opt);
	for (int i = 0; i < p->argc; i++) {
		if (strncmp(p->argv[i], opt, n) != 0)
			continue;
		if (p->argv[i][n] == '=') {
			p->used[i] = true;
			return p->argv[i] + n + 1;
		}
		if (!p->argv[i][n]) {
			p->used[i] = true;
			if (i + 1 < p->argc)
				p->used[i + 1] = true;
			return i + 1 < p->argc ? p->argv[i + 1] : "";
		}
	}
	return NULL;
}

bool frayi_player_flag(const player_opts *p, const char *opt)
{
	for (int i = 0; i < p->argc; i++)
		if (strcmp(p->argv[i], opt) == 0)
			return p->used[i] = true;
	return false;
}

/* The player's options that this procedure has: `--x V`, `--x=V`, flags. */
static int player_inputs(table_game *g, fray_call *c, const player_opts *p)
{
	for (int i = 0; i < p->argc; i++) {
		const char *arg = p->argv[i], *eq = strchr(arg, '=');
		char opt[64];
		snprintf(opt, sizeof opt, "%.*s", (int)(eq ? (size_t)(eq - arg) : strlen(arg)), arg);
		int k = fray_call_input_index(c, opt);
		if (k < 0)
			continue;
		/* A game keeps what its procedures read in the game file, so an
		 * action is replayed from the file alone; an option naming a file
		 * (Presidio's --units, chits' --mix) would read the machine's
		 * files, or fray serve's standard input, for whoever asks. */
		if (fray_call_input_kind(c, (size_t)k) == FRAY_INPUT_FILE)
			return frayi_game_fail_input(g, FRAY_ERR_INPUT, opt + 2, "option %s names a file; an action in a game reads no "
						     "file (the game file keeps its units)", opt);
		const char *text = NULL;
		p->used[i] = true;
		if (!fray_call_is_flag(c, (size_t)k)) {
			if (eq) {
				text = eq + 1;
			} else if (i + 1 < p->argc) {
				text = p->argv[++i];
				p->used[i] = true;
			} else {
				return frayi_game_fail(g, FRAY_ERR_INPUT, "option %s needs a value", opt);
			}
		} else if (eq) {
			return frayi_game_fail(g, FRAY_ERR_INPUT, "option %s takes no value", opt);
		}
		if (fray_call_set(c, (size_t)k, text) != FRAY_OK)
			return frayi_game_failed(g);
	}
	return FRAY_OK;
}

table_step frayi_step_begin(table_game *g, const char *procedure)
{
	table_step s = {.g = g, .procedure = procedure, .status = FRAY_OK};
	if (g->nsteps >= TABLE_MAX_STEPS)
		s.status = frayi_game_fail(g, FRAY_ERR_INTERNAL, "internal: more than %d steps in one action",
					   TABLE_MAX_STEPS);
	else if (!(s.c = fray_call_new(g->ctx, procedure)))
		s.status = frayi_game_failed(g);
	return s;
}

/* The step done (rolled, or failed with status): its call freed. */
static void step_end(table_step *s, int status)
{
	fray_call_free(s->c);
	s->c = NULL;
	s->status = status;
}

/* The index of input `input` of the step's procedure when the step still
 * runs and the input is of kind want (a file takes a string, its path);
 * else -1 with the step failed: an input the procedure lacks, or of
 * another kind, is the game's own mistake. */
static int step_input(table_step *s, const char *input, fray_input_kind want, const char *setter)
{
	if (s->status != FRAY_OK)
		return -1;
	int k = fray_call_input_named(s->c, input);
	if (k < 0) {
		step_end(s, frayi_game_fail(s->g, FRAY_ERR_INTERNAL, "internal: %s has no input '%s'", s->procedure,
					       input));
		return -1;
	}
	fray_input_kind kind = fray_call_input_kind(s->c, (size_t)k);
	if (kind != want && !(want == FRAY_INPUT_STRING && kind == FRAY_INPUT_FILE)) {
		step_end(s, frayi_game_fail(s->g, FRAY_ERR_INTERNAL, "internal: %s's input '%s' is not set by %s",
					       s->procedure, input, setter));
		return -1;
	}
	return k;
}

/* After a setter: a value the catalogue refused is the player's or the
 * file's (a unit's figures out of range): its message stands. */
static void step_set(table_step *s, fray_status st)
{
	if (st != FRAY_OK)
		step_end(s, frayi_game_failed(s->g));
}

void frayi_step_int(table_step *s, const char *input, int64_t v)
{
	int k = step_input(s, input, FRAY_INPUT_INT, "frayi_step_int");
	if (k >= 0)
		step_set(s, fray_call_set_int(s->c, (size_t)k, v));
}

void frayi_step_number(table_step *s, const char *input, double v)
{
	int k = step_input(s, input, FRAY_INPUT_NUMBER, "frayi_step_number");
	if (k >= 0)
		step_set(s, fray_call_set_number(s->c, (size_t)k, v));
}

void frayi_step_bool(table_step *s, const char *input, bool on)
{
	int k = step_input(s, input, FRAY_INPUT_BOOL, "frayi_step_bool");
	if (k >= 0 && on)
		step_set(s, fray_call_set_bool(s->c, (size_t)k, true));
}

void frayi_step_choice(table_step *s, const char *input, const char *word)
{
	int k = step_input(s, input, FRAY_INPUT_CHOICE, "frayi_step_choice");
	if (k >= 0)
		step_set(s, fray_call_set_choice(s->c, (size_t)k, word));
}

void frayi_step_string(table_step *s, const char *input, const char *text)
{
	int k = step_input(s, input, FRAY_INPUT_STRING, "frayi_step_string");
	if (k >= 0)
		step_set(s, fray_call_set_string(s->c, (size_t)k, text));
}

void frayi_step_document(table_step *s, const char *input, const char *name, const char *text, size_t len)
{
	int k = step_input(s, input, FRAY_INPUT_FILE, "frayi_step_document");
	if (k >= 0)
		step_set(s, fray_call_set_document(s->c, (size_t)k, name, text, len));
}

/* Every outcome field out names is one the bound call has: else the
 * game's own mistake, named. */
static int outcome_names(table_step *s, const step_out *out)
{
	for (size_t i = 0; out && out[i].name; i++)
		if (fray_call_outcome_index(s->c, out[i].name) < 0)
			return frayi_game_fail(s->g, FRAY_ERR_INTERNAL, "internal: %s has no outcome field '%s'",
					       s->procedure, out[i].name);
	return FRAY_OK;
}

int frayi_step_roll(table_step *s, const player_opts *p, const step_out *out)
{
	table_game *g = s->g;
	int status = s->status;
	if (status == FRAY_OK && p)
		status = player_inputs(g, s->c, p);
	if (status == FRAY_OK && g->odds) {
		/* the odds of this, the action's first procedure: it stops here */
		status = fray_call_run(s->c, g->odds, &g->odds_out) == FRAY_OK ? TABLE_ODDS_TAKEN : frayi_game_failed(g);
		if (status == TABLE_ODDS_TAKEN && outcome_names(s, out) != FRAY_OK) {
			free(g->odds_out);
			g->odds_out = NULL;
			status = FRAY_ERR_INTERNAL;
		}
		step_end(s, status);
		return status;
	}
	int64_t o[FRAY_OUTCOME_MAX_FIELDS];
	game_step *gs = &g->steps[g->nsteps];
	uint64_t dice = g->dice;
	if (status == FRAY_OK && fray_call_roll_at(s->c, g->seed, &g->dice, o, &gs->json, &gs->text) != FRAY_OK)
		status = frayi_game_failed(g);
	else if (status == FRAY_OK && (status = outcome_names(s, out)) != FRAY_OK) {
		free(gs->json); /* rolled, but its outcome cannot be read: undone */
		free(gs->text);
		*gs = (game_step){NULL, NULL};
		g->dice = dice;
	}
	if (status == FRAY_OK) {
		g->nsteps++;
		for (size_t i = 0; out && out[i].name; i++)
			fray_call_outcome_value(s->c, o, out[i].name, out[i].value);
	}
	step_end(s, status);
	return status;
}

int frayi_table_add_step(table_game *g, char *json, char *text)
{
	if (g->nsteps >= TABLE_MAX_STEPS) {
		free(json);
		free(text);
		return frayi_game_fail(g, FRAY_ERR_INTERNAL, "internal: more than %d steps in one action", TABLE_MAX_STEPS);
	}
	g->steps[g->nsteps++] = (game_step){json, text};
	return FRAY_OK;
}
