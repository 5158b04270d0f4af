/* Events told and kept: the narrator that tells each event as a line of
 * text or a JSON object as it comes (a battle, a chits combat), and the
 * tape that keeps a roll's events for the renderers (result.h) to tell in
 * any format after the roll. */
#include <stdlib.h>
#include <string.h>
#include "result.h"

void frayi_narrate(void *ud, const fray_event *ev)
{
	narrator *n = ud;
	size_t (*render)(const fray_event *, char *, size_t) = n->form == FRAY_FORMAT_JSON ? fray_event_json : fray_event_text;
	char small[512], *big = NULL;
	const char *line = small;
	size_t len = render(ev, small, sizeof small);
	if (len >= sizeof small) {
		/* rendered whole, never cut: a cut JSON event would break the
		 * document */
		big = frayi_sb_mem(n->sb, len + 1);
		if (!big) {
			n->sb->failed = true;
			return;
		}
		render(ev, big, len + 1);
		line = big;
	}
	if (n->form == FRAY_FORMAT_JSON) {
		frayi_sb_add(n->sb, "%s\n    %s", n->first ? "" : ",", line);
	} else {
		bool heading = ev->kind == FRAY_EV_NOTE && ev->text &&
			       (strncmp(ev->text, "==", 2) == 0 || strncmp(ev->text, "--", 2) == 0);
		frayi_sb_add(n->sb, heading ? "\n" : "  ");
		frayi_sb_escaped(n->sb, line);
		frayi_sb_add(n->sb, "\n");
	}
	frayi_sb_unmem(n->sb, big);
	n->first = false;
}

/* A string of an event kept: copied, as the procedure may tell it from a
 * buffer of its own that the next event reuses. */
static bool keep_str(event_tape *t, const char **s)
{
	if (!*s)
		return true;
	*s = frayi_strdup(t->ctx, *s);
	return *s != NULL;
}

void frayi_tape_keep(void *ud, const fray_event *ev)
{
	event_tape *t = ud;
	if (t->failed)
		return;
	if (t->n == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 16;
		fray_event *grown = frayi_realloc(t->ctx, t->ev, cap * sizeof *grown);
		if (!grown) {
			t->failed = true;
			return;
		}
		t->ev = grown;
		t->cap = cap;
	}
	fray_event e = *ev;
	e.what = e.rule = e.text = NULL;
	const char *what = ev->what, *rule = ev->rule, *text = ev->text;
	if (!keep_str(t, &what) || !keep_str(t, &rule) || !keep_str(t, &text)) {
		frayi_dealloc(t->ctx, (void *)what != ev->what ? (void *)what : NULL);
		frayi_dealloc(t->ctx, (void *)rule != ev->rule ? (void *)rule : NULL);
		t->failed = true;
		return;
	}
	e.what = what;
	e.rule = rule;
	e.text = text;
	t->ev[t->n++] = e;
}

void frayi_tape_free(event_tape *t)
{
	for (size_t i = 0; i < t->n; i++) {
		frayi_dealloc(t->ctx, (void *)t->ev[i].what);
		frayi_dealloc(t->ctx, (void *)t->ev[i].rule);
		frayi_dealloc(t->ctx, (void *)t->ev[i].text);
	}
	frayi_dealloc(t->ctx, t->ev);
	*t = (event_tape){.ctx = t->ctx};
}

char *frayi_exact_of(fray_ctx *ctx, const fray_dist *d, size_t i)
{
	size_t n = fray_dist_p_exact(d, i, NULL, 0);
	char *s = frayi_alloc(ctx, n + 1);
	if (s)
		fray_dist_p_exact(d, i, s, n + 1);
	return s;
}
