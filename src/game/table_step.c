/* An action's steps: each a catalogue procedure rolled at the game's
 * place in its dice, its inputs from the forces (and the player's
 * options), its story and JSON kept for the log. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "table.h"
#include "../core/internal.h"

int frayi_game_fail(table_game *g, fray_status s, const char *fmt, ...)
{
	char msg[FRAY_MSG_MAX];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	return (int)fray_fail(g->ctx, s, "%s", msg);
}

int frayi_game_failed(const table_game *g)
{
	fray_status s = fray_ctx_status(g->ctx);
	return s != FRAY_OK ? (int)s : (int)FRAY_ERR_INTERNAL;
}

void frayi_opts_set(step_opts *o, const char *opt, const char *fmt, ...)
{
	if (o->n >= TABLE_MAX_OPTS)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(o->val[o->n], sizeof o->val[o->n], fmt, ap);
	va_end(ap);
	o->opt[o->n] = opt;
	o->flag[o->n++] = false;
}

void frayi_opts_flag(step_opts *o, const char *opt, bool on)
{
	if (!on || o->n >= TABLE_MAX_OPTS)
		return;
	o->opt[o->n] = opt;
	o->val[o->n][0] = '\0';
	o->flag[o->n++] = true;
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

static int set_input(table_game *g, fray_call *c, const char *opt, const char *text)
{
	int k = fray_call_input_index(c, opt);
	if (k < 0)
		return frayi_game_fail(g, FRAY_ERR_INTERNAL, "internal: %s has no option %s", "step", opt);
	if (fray_call_set(c, (size_t)k, text) != FRAY_OK)
		return frayi_game_failed(g);
	return FRAY_OK;
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

int frayi_table_step(table_game *g, const char *procedure, const step_opts *o, const player_opts *p,
	       const char *const *want, int64_t *got)
{
	if (g->nsteps >= TABLE_MAX_STEPS)
		return frayi_game_fail(g, FRAY_ERR_INTERNAL, "internal: more than %d steps in one action", TABLE_MAX_STEPS);
	fray_call *c = fray_call_new(g->ctx, procedure);
	if (!c)
		return frayi_game_failed(g);
	int status = FRAY_OK;
	for (size_t i = 0; i < o->n && status == FRAY_OK; i++)
		status = set_input(g, c, o->opt[i], o->flag[i] ? NULL : o->val[i]);
	if (status == FRAY_OK && p)
		status = player_inputs(g, c, p);
	if (status == FRAY_OK && g->odds) {
		/* the odds of this, the action's first procedure: it stops here */
		status = fray_call_run(c, g->odds, &g->odds_out) == FRAY_OK ? TABLE_ODDS_TAKEN : frayi_game_failed(g);
		fray_call_free(c);
		return status;
	}
	int64_t out[FRAY_OUTCOME_MAX_FIELDS];
	game_step *s = &g->steps[g->nsteps];
	if (status == FRAY_OK && fray_call_roll_at(c, g->seed, &g->dice, out, &s->json, &s->text) != FRAY_OK)
		status = frayi_game_failed(g);
	if (status == FRAY_OK) {
		g->nsteps++;
		for (size_t i = 0; want && want[i]; i++) {
			int k = fray_call_outcome_index(c, want[i]);
			got[i] = k >= 0 ? out[k] : 0;
		}
	}
	fray_call_free(c);
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
