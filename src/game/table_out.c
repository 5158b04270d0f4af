/* A game for people and programs: the forces as a table or JSON, and the
 * log as text, JSON or Markdown (in the library: fray_game_status,
 * fray_game_log; names from files shown with their controls escaped). */
#include <inttypes.h>
#include <string.h>
#include "ruleset.h"
#include "../common/hidden.h"
#include "../common/text.h"

static int name_width(const table_game *g)
{
	int w = 4;
	for (size_t i = 0; i < g->nunits; i++) {
		int n = (int)strlen(g->units[i].name);
		w = n > w ? n : w;
	}
	return w;
}

void frayi_table_print_status(const table_game *g, fray_format form, FILE *f)
{
	const game_ruleset *rs = g->rules;
	if (form == FRAY_FORMAT_JSON) {
		fprintf(f, "{\"rules\": \"%s\", \"turn\": %d, \"dice\": %" PRIu64, rs->id, g->turn, g->dice);
		/* the game state (BBB's phase) and the turn's order (Presidio's
		 * initiative), when the game keeps them */
		if (rs->state_status)
			rs->state_status(f, g);
		else if (rs->state_write)
			rs->state_write(f, g, g->state, false);
		fputs(", ", f);
		if (g->initiative[0])
			frayi_order_json(f, g);
		fputs("\"units\": [", f);
		for (size_t i = 0; i < g->nunits; i++) {
			fputs(i ? ", " : "", f);
			frayi_unit_json_open(f, rs, &g->units[i]);
			if (rs->status_json)
				rs->status_json(f, &g->units[i]);
			fputc('}', f);
		}
		fputs("]}\n", f);
		return;
	}
	int w = name_width(g);
	char state[TABLE_TERM_LINE] = "";
	if (rs->state_words)
		rs->state_words(g, state, sizeof state);
	fprintf(f, "%s game, turn %d%s%s", rs->id, g->turn, state[0] ? ": " : "", state);
	if (g->initiative[0]) {
		char ini[64], act[64];
		text_escape_controls(ini, sizeof ini, g->initiative);
		text_escape_controls(act, sizeof act, g->acting);
		fprintf(f, ": %s won the initiative, %s acts", ini, act);
	}
	fputc('\n', f);
	/* a rule set that shows nothing of its own: each unit's name and side */
	if (rs->status_head)
		rs->status_head(f, w);
	else
		fprintf(f, "%-*s  %s\n", w, "unit", "side");
	for (size_t i = 0; i < g->nunits; i++) {
		const table_unit *u = &g->units[i];
		char side[64], nm[TABLE_NAME_MAX * 4 + 8];
		text_escape_controls(nm, sizeof nm, u->name);
		text_escape_controls(side, sizeof side, u->side);
		if (rs->status_row)
			rs->status_row(f, w, nm, side, u);
		else
			fprintf(f, "%-*s  %s\n", w, nm, side);
	}
}

static const char *scalar_of(const fray_node *e, const char *key)
{
	const char *s = fray_node_scalar(fray_map_get(e, key));
	return s ? s : "";
}

/* s with its control characters shown as the terminal shows them
 * (fray_term_string, the library's one terminal escaper), whole. */
static void put_escaped(FILE *f, const char *s)
{
	frayi_put_escaped(f, s, strlen(s), fray_term_string, 0);
}

/* The entry's text lists (story, changes), a line each, escaped. */
static void lines_of(const fray_node *e, const char *key, const char *prefix, FILE *f)
{
	const fray_node *l = fray_map_get(e, key);
	for (size_t i = 0; i < fray_node_len(l); i++) {
		const char *s = fray_node_scalar(fray_node_item(l, i));
		fputs(prefix, f);
		put_escaped(f, s ? s : "");
		fputc('\n', f);
	}
}

/* The next word of a log's command (command_line's: quoted where it holds
 * a space) into w, and where the one after starts; NULL when none is left. */
const char *frayi_table_command_word(const char *p, char *w, size_t cap)
{
	while (*p == ' ')
		p++;
	if (!*p)
		return NULL;
	char end = *p == '"' ? '"' : ' ';
	p += end == '"';
	size_t n = strcspn(p, end == '"' ? "\"" : " ");
	snprintf(w, cap, "%.*s", (int)n, p);
	p += n;
	return *p == '"' ? p + 1 : p;
}

void frayi_table_action_words(const char *command, char *dst, size_t cap)
{
	char w[256], action[64] = "", actor[256] = "", rest[512] = "";
	textbuf more = text_on(rest, sizeof rest);
	const char *p = frayi_table_command_word(command, action, sizeof action);
	if (p && !strcmp(action, "turn")) {
		snprintf(dst, cap, "the turn ends");
		return;
	}
	/* a game's phase (BBB's next, phase NAME [--moving SIDE]) */
	if (p && !strcmp(action, "next")) {
		snprintf(dst, cap, "the phase ends");
		return;
	}
	char phase[64], moving[256];
	if (p && !strcmp(action, "phase") && (p = frayi_table_command_word(p, phase, sizeof phase))) {
		if ((p = frayi_table_command_word(p, w, sizeof w)) && !strcmp(w, "--moving") &&
		    frayi_table_command_word(p, moving, sizeof moving))
			snprintf(dst, cap, "the players set the phase: %s, %s moving", phase, moving);
		else
			snprintf(dst, cap, "on to the phase %s", phase);
		return;
	}
	if (p && (p = frayi_table_command_word(p, w, sizeof w)) && w[0] != '-')
		snprintf(actor, sizeof actor, "%s", w);
	else if (p)
		text_add(&more, "%s", w + 2);
	char target[256] = "";
	while (p && (p = frayi_table_command_word(p, w, sizeof w))) {
		if (!strcmp(w, "--at") && p && (p = frayi_table_command_word(p, target, sizeof target)))
			continue;
		bool option = w[0] == '-' && w[1] == '-';
		text_add(&more, "%s%s", rest[0] && option ? ", " : rest[0] ? " " : "", option ? w + 2 : w);
	}
	textbuf t = text_on(dst, cap);
	text_add(&t, "%s%s%s", actor, actor[0] ? ": " : "", action);
	if (target[0])
		text_add(&t, " at %s", target);
	if (rest[0])
		text_add(&t, " (%s)", rest);
}

/* JSON: one entry a roll, each with its procedure, inputs, events and
 * outcome (as the roll's --json), the action's number, command, words
 * (says) and turn,
 * and the action's changes on its last roll. An action without dice is
 * one entry with a null procedure. The entries were checked on load (a
 * step has only a roll's members); the turn is written as the number. */
static void log_json(const table_game *g, FILE *f)
{
	size_t n = g->nlog;
	bool first = true;
	fputs("[", f);
	for (size_t i = 0; i < n; i++) {
		const fray_node *e = g->log[i], *steps = fray_map_get(e, "steps");
		const fray_node *changes = fray_map_get(e, "changes");
		size_t ns = fray_node_len(steps);
		for (size_t k = 0; k < (ns ? ns : 1); k++) {
			fprintf(f, "%s\n  {\"action\": %zu, \"command\": ", first ? "" : ",", i + 1);
			frayi_json_string(f, scalar_of(e, "command"));
			char says[1024];
			frayi_table_action_words(scalar_of(e, "command"), says, sizeof says);
			fputs(", \"says\": ", f);
			frayi_json_string(f, says);
			fprintf(f, ", \"turn\": %d", frayi_table_log_turn(g, e));
			const fray_node *s = ns ? fray_node_item(steps, k) : NULL;
			if (!s)
				fputs(", \"procedure\": null, \"inputs\": {}, \"events\": [], \"outcome\": {}", f);
			for (size_t m = 0; m < fray_node_len(s); m++) {
				fputs(", ", f);
				frayi_json_string(f, fray_node_scalar(fray_node_key(s, m)));
				fputs(": ", f);
				frayi_node_json(f, fray_node_value(s, m));
			}
			if (k + 1 >= ns) {
				fputs(", \"changes\": ", f);
				if (fray_node_kind_of(changes) == FRAY_NODE_SEQ)
					frayi_node_json(f, changes);
				else
					fputs("[]", f);
			}
			fputs("}", f);
			first = false;
		}
	}
	fputs(first ? "]\n" : "\n]\n", f);
}

/* The longest run of c in the entry's lines (command, story, changes). */
static size_t longest_run(const fray_node *e, char c)
{
	static const char *const keys[] = {"command", "story", "changes"};
	size_t most = 0;
	for (size_t k = 0; k < 3; k++) {
		const fray_node *v = fray_map_get(e, keys[k]);
		size_t n = fray_node_kind_of(v) == FRAY_NODE_SEQ ? fray_node_len(v) : 1;
		for (size_t i = 0; i < n; i++) {
			const char *s = fray_node_scalar(fray_node_kind_of(v) == FRAY_NODE_SEQ ? fray_node_item(v, i) : v);
			for (size_t run = 0; s && *s; s++) {
				run = *s == c ? run + 1 : 0;
				most = run > most ? run : most;
			}
		}
	}
	return most;
}

/* Markdown: each action a fenced block (CommonMark), its fence longer
 * than any run of tildes inside, so no line from the file can close it;
 * inside a fence nothing is markup, and controls are shown escaped, so
 * no text can start a line of its own. */
static void log_markdown_entry(const table_game *g, const fray_node *e, size_t number, FILE *f)
{
	size_t fence = longest_run(e, '~') + 1;
	fence = fence < 3 ? 3 : fence;
	fprintf(f, "\n## %zu. Turn %d\n\n", number, frayi_table_log_turn(g, e));
	for (size_t i = 0; i < fence; i++)
		fputc('~', f);
	fputs("text\n", f);
	fputs("> ", f);
	put_escaped(f, scalar_of(e, "command"));
	fputc('\n', f);
	lines_of(e, "story", "", f);
	lines_of(e, "changes", "=> ", f);
	for (size_t i = 0; i < fence; i++)
		fputc('~', f);
	fputc('\n', f);
}

int frayi_table_print_log(const table_game *g, fray_format form, FILE *f)
{
	size_t n = g->nlog;
	if (form == FRAY_FORMAT_JSON) {
		log_json(g, f);
		return FRAY_OK;
	}
	bool md = form == FRAY_FORMAT_MARKDOWN;
	if (md)
		fprintf(f, "# %s game: the log\n\nSeed %" PRIu64 "; %zu %s. Every roll with its modifiers and rule "
			   "references, as fray told it.\n", g->rules->id, g->seed, n,
			n == 1 ? "action" : "actions");
	else if (n == 0)
		fprintf(f, "the log is empty\n");
	for (size_t i = 0; i < n; i++) {
		const fray_node *e = g->log[i];
		if (md) {
			log_markdown_entry(g, e, i + 1, f);
			continue;
		}
		fprintf(f, "%s#%zu turn %d: ", i ? "\n" : "", i + 1, frayi_table_log_turn(g, e));
		put_escaped(f, scalar_of(e, "command"));
		fputc('\n', f);
		lines_of(e, "story", "  ", f);
		lines_of(e, "changes", "  => ", f);
	}
	return FRAY_OK;
}
