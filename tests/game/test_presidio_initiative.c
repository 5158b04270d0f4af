/* Presidio's turn order in the game, against the text (Section 2,
 * Initiative: "players roll 1D6 adding their leadership skill to see who
 * goes first, and then they alternate turns, performing actions for all
 * their units at once (one player, then the other)"): an action of the
 * side not acting is refused with the rule and nothing written; what the
 * text lets the other side do in the acting side's sequence is accepted
 * (a rally, opportunity fire, a charge's reaction, the held actions of
 * the side that won the initiative); `pass SIDE` and the acting side's
 * last action hand the sequence over; `turn` rolls the next turn's; an
 * older file without the order plays as before; advise and play keep the
 * order. And Section 3, Reform: two actions (one with a drummer) bring a
 * disordered line unit back into good order. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "../test_util.h"
#include "game_test.h"

/* Every field given, so no units file is read. Soldados a line unit;
 * Spain's leader 2 and the Apaches' 1. */
static const char forces[] =
	"rules: presidio\n"
	"units:\n"
	"  - {name: Soldados, side: Spain, figures: 12, weapon: flintlock musket, ranged: 2, morale: average,\n"
	"     line: true, leader: 2}\n"
	"  - {name: Cueras, side: Spain, figures: 8, weapon: flintlock carbine, ranged: 2, morale: average,\n"
	"     melee_weapon: metal lance/knife, melee: 2}\n"
	"  - {name: Apaches, side: Apache, figures: 8, weapon: metal bow/sling, morale: average, leader: 1,\n"
	"     melee_weapon: metal 1-handed hatchet/warclub/pistol butt, melee: 2}\n"
	"  - {name: Utes, side: Apache, figures: 8, weapon: metal bow/sling, morale: average}\n";

static fray_game *fresh(uint64_t seed)
{
	return game_from_forces("ini.yaml", "presidio", forces, seed);
}

/* A new game's file (seed 7) with lines added after its first line
 * `after`, read back: NULL with the reader's message on ctx when it does
 * not read. *line (when not NULL): the first added line's number. */
static fray_game *inserted(const char *after, const char *lines, int *line)
{
	fray_game *g = fresh(7);
	char *text = game_saved(g);
	fray_game_free(g);
	const char *at = strstr(text, after);
	assert_non_null(at);
	size_t head = (size_t)(at - text) + strlen(after);
	for (const char *p = text; line && p < text + head; p++)
		*line += *p == '\n';
	char *mixed = malloc(strlen(text) + strlen(lines) + 1);
	memcpy(mixed, text, head);
	strcpy(mixed + head, lines);
	strcat(mixed, text + head);
	free(text);
	fray_ctx_clear(ctx);
	fray_game *out = NULL;
	if (fray_game_load(ctx, "ini.yaml", mixed, strlen(mixed), &out) != FRAY_OK)
		out = NULL;
	free(mixed);
	return out;
}

static fray_game *with_lines(const char *lines)
{
	return inserted("turn: 1\n", lines, NULL);
}

/* Spain won the initiative and acts. */
static fray_game *spain_acts(void)
{
	fray_game *g = with_lines("initiative: Spain\nacting: Spain\n");
	if (!g)
		fail_msg("load: %s", fray_ctx_message(ctx));
	return g;
}

static char *order_of(const fray_game *g, const char *key)
{
	fray_doc *d = game_status_doc(g);
	const char *v = fray_node_scalar(fray_map_get(fray_doc_root(d), key));
	char *copy = v ? strdup(v) : NULL;
	fray_doc_free(d);
	return copy;
}

/* words refused with FRAY_ERR_INPUT, the message naming why, the game
 * file as it was. */
static void refused(fray_game *g, const char *const *words, const char *why)
{
	char *before = game_saved(g);
	fray_ctx_clear(ctx);
	assert_int_equal(game_act(g, words), FRAY_ERR_INPUT);
	if (!strstr(fray_ctx_message(ctx), why))
		fail_msg("%s: '%s' not in: %s", words[0], why, fray_ctx_message(ctx));
	char *after = game_saved(g);
	assert_string_equal(before, after);
	free(before);
	free(after);
}

static void accepted(fray_game *g, const char *const *words)
{
	fray_ctx_clear(ctx);
	if (game_act(g, words) != FRAY_OK)
		fail_msg("%s %s refused: %s", words[0], words[1] ? words[1] : "", fray_ctx_message(ctx));
}

#define W(...) ((const char *const[]){__VA_ARGS__, NULL})
#define INITIATIVE "Presidio Section 2, Initiative"

/* In Spain's sequence an Apache unit neither shoots, moves, charges,
 * reloads nor meleed: refused with Section 2 named, nothing written. */
static void out_of_sequence_is_refused(void **state)
{
	(void)state;
	fray_game *g = spain_acts();
	refused(g, W("shoot", "Apaches", "--at", "Soldados", "--band", "medium"), INITIATIVE);
	refused(g, W("move", "Utes"), INITIATIVE);
	refused(g, W("move", "Utes", "--run"), INITIATIVE);
	refused(g, W("charge", "Apaches", "--at", "Cueras", "--reaction", "stand"), INITIATIVE);
	accepted(g, W("set", "Utes", "reload=1"));
	refused(g, W("reload", "Utes"), INITIATIVE);
	accepted(g, W("set", "Apaches", "contact=Cueras"));
	refused(g, W("melee", "Apaches", "--at", "Cueras"), INITIATIVE);
	/* out of contact again: a unit in base contact does not move (Section
	 * 5, Disengaging from Melee), which is not what is tested here */
	accepted(g, W("set", "Apaches", "contact="));
	/* the message says whose sequence it is and how it ends */
	refused(g, W("move", "Utes"), "Spain won this turn's initiative and Spain acts now; 'pass Spain'");
	/* Spain's own units act */
	accepted(g, W("move", "Cueras"));
	accepted(g, W("shoot", "Soldados", "--at", "Apaches", "--band", "long"));
	fray_game_free(g);
}

/* What the text lets the other side do in Spain's sequence: opportunity
 * fire (Section 4), a charge's reaction and the strike back inside
 * Spain's own actions. A rally is not among them: the initiative rolled
 * ended the turn's rally phase (Game Turn Phases: 1. Rally, 2.
 * Initiative), before Spain's first action as after it. */
static void the_texts_exceptions_are_accepted(void **state)
{
	(void)state;
	fray_game *g = spain_acts();
	accepted(g, W("set", "Utes", "status=panicked"));
	refused(g, W("rally", "Utes"), "the rally phase is the turn's first");
	accepted(g, W("set", "Apaches", "status=panicked"));
	accepted(g, W("move", "Cueras"));
	refused(g, W("rally", "Apaches"), "the rally phase is the turn's first");
	accepted(g, W("set", "Apaches", "status=good"));
	accepted(g, W("shoot", "Apaches", "--at", "Cueras", "--mode", "opportunity", "--band", "medium"));
	char *spent = game_unit_field(g, "Apaches", "actions_spent");
	assert_string_equal(spent, "opportunity-fire");
	free(spent);
	fray_game_free(g);

	/* a charge on a unit that fires in reaction: its defensive fire is
	 * taken from its turn in Spain's action */
	g = spain_acts();
	accepted(g, W("charge", "Cueras", "--at", "Utes", "--reaction", "fire"));
	fray_game_free(g);
	g = spain_acts();
	accepted(g, W("set", "Cueras", "contact=Apaches"));
	accepted(g, W("melee", "Cueras", "--at", "Apaches", "--both"));
	spent = game_unit_field(g, "Apaches", "actions_spent");
	assert_string_equal(spent, "strike-back");
	free(spent);
	fray_game_free(g);
}

/* pass: only the acting side passes; the initiative side's pass hands
 * the sequence over and its units hold what they did not spend; the
 * second side's sequence ends with 'turn', which opens the next turn's
 * rally phase; 'initiative' then rolls the turn's. */
static void pass_hands_the_sequence_over(void **state)
{
	(void)state;
	fray_game *g = spain_acts();
	refused(g, W("pass", "Apache"), "it is Spain's action sequence, not Apache's");
	refused(g, W("pass", "France"), "no side 'France'");
	accepted(g, W("move", "Cueras"));
	/* as the game screen sends it: the side as the actor */
	fray_ctx_clear(ctx);
	if (fray_game_apply(g, "pass", "Spain", NULL, 0, NULL, NULL, NULL) != FRAY_OK)
		fail_msg("apply pass: %s", fray_ctx_message(ctx));
	char *acting = order_of(g, "acting"), *won = order_of(g, "initiative");
	assert_string_equal(acting, "Apache");
	assert_string_equal(won, "Spain");
	free(acting);
	free(won);
	/* the Apaches' sequence; Spain's units hold theirs (Holding 2 and 1) */
	accepted(g, W("move", "Utes"));
	accepted(g, W("shoot", "Soldados", "--at", "Utes", "--band", "long"));
	accepted(g, W("shoot", "Cueras", "--at", "Apaches", "--band", "long"));
	refused(g, W("pass", "Apache"), "'turn' ends the turn");
	accepted(g, W("turn"));
	/* the next turn's rally phase (Game Turn Phases: 1. Rally, 2.
	 * Initiative): no initiative yet */
	assert_null(order_of(g, "initiative"));
	assert_null(order_of(g, "acting"));
	char *phase = order_of(g, "phase");
	assert_string_equal(phase, "rally");
	free(phase);
	accepted(g, W("initiative"));
	assert_null(order_of(g, "phase"));
	/* the next turn's roll: a side won it and acts first */
	acting = order_of(g, "acting");
	won = order_of(g, "initiative");
	assert_non_null(won);
	assert_true(!strcmp(won, "Spain") || !strcmp(won, "Apache"));
	assert_string_equal(acting, won);
	char *text = game_saved(g);
	assert_non_null(strstr(text, "presidio.initiative"));
	free(text);
	free(acting);
	free(won);
	fray_game_free(g);
}

/* A game past its first turn, in the next turn's rally phase (seed 11):
 * the initiative rolled, then 'turn'. */
static fray_game *next_rally_phase(void)
{
	fray_game *g = fresh(11);
	accepted(g, W("initiative"));
	accepted(g, W("turn"));
	return g;
}

/* play's words and the file before and after: *changed whether play wrote. */
static char *played(fray_game *g, const char *side, bool *changed)
{
	char *before = game_saved(g), *out = NULL;
	fray_ctx_clear(ctx);
	if (fray_game_play(g, side, NULL, 0, NULL, FRAY_FORMAT_TEXT, &out) != FRAY_OK)
		fail_msg("play %s refused: %s", side, fray_ctx_message(ctx));
	char *after = game_saved(g);
	*changed = strcmp(before, after) != 0;
	free(before);
	free(after);
	return out;
}

/* Section 2, Game Turn Phases: "1. Rally panicked troops; close ranks",
 * "2. Initiative", "3. Action Sequences". After 'turn' the game is in the
 * rally phase: no initiative yet, the panicked units of BOTH sides may
 * rally (one side's rally does not end the other's), no unit of either
 * side takes an action of a sequence (the message names the phases, the
 * file is as it was); 'initiative' ends the phase, and a rally after it
 * is refused. Undo takes the roll back into the phase. */
static void the_rally_phase_comes_before_the_initiative(void **state)
{
	(void)state;
	fray_game *g = next_rally_phase();
	assert_null(order_of(g, "initiative"));
	char *phase = order_of(g, "phase");
	assert_string_equal(phase, "rally");
	free(phase);
	char *text = game_saved(g);
	assert_non_null(strstr(text, "turn: 2\nphase: rally\n"));
	free(text);
	accepted(g, W("set", "Cueras", "status=panicked"));
	accepted(g, W("set", "Utes", "status=panicked"));
	const char *phases = "1. Rally panicked troops, 2. Initiative, 3. Action Sequences";
	refused(g, W("move", "Soldados"), phases);
	refused(g, W("move", "Apaches"), phases);
	refused(g, W("shoot", "Apaches", "--at", "Soldados", "--band", "long"), phases);
	refused(g, W("shoot", "Soldados", "--at", "Apaches", "--band", "long", "--mode", "opportunity"), phases);
	refused(g, W("charge", "Soldados", "--at", "Apaches", "--reaction", "stand"), phases);
	refused(g, W("pass", "Spain"), "rally phase");
	/* both sides rally, in either order */
	accepted(g, W("rally", "Utes"));
	accepted(g, W("rally", "Cueras"));
	/* nothing but rallies is offered in the phase */
	const char *names[16];
	size_t n = fray_game_actions(g, 0, names, 16); /* Soldados */
	for (size_t i = 0; i < n; i++)
		if (strcmp(names[i], "morale") != 0)
			fail_msg("Soldados offered %s in the rally phase", names[i]);
	accepted(g, W("initiative"));
	assert_null(order_of(g, "phase"));
	accepted(g, W("set", "Apaches", "status=panicked"));
	refused(g, W("rally", "Apaches"), "the rally phase is the turn's first");
	fray_game_free(g);

	/* undo of the roll: back in the rally phase */
	g = next_rally_phase();
	accepted(g, W("initiative"));
	assert_int_equal(fray_game_undo(g), FRAY_OK);
	phase = order_of(g, "phase");
	assert_string_equal(phase, "rally");
	free(phase);
	assert_null(order_of(g, "initiative"));
	/* next (the page's Next phase) ends the rally phase as the roll does;
	 * with no phase kept it is refused */
	accepted(g, W("next"));
	assert_null(order_of(g, "phase"));
	char *won = order_of(g, "initiative");
	assert_non_null(won);
	free(won);
	refused(g, W("next"), "no phase to end");
	fray_game_free(g);
}

/* play in the rally phase: a side rallies its own panicked units first;
 * then, while the other side has a unit that may still rally, it waits
 * (nothing written: the initiative roll would end the other side's
 * rally); then it rolls the initiative. */
static void play_rallies_both_sides_before_the_initiative(void **state)
{
	(void)state;
	fray_game *g = next_rally_phase();
	accepted(g, W("set", "Cueras", "status=panicked"));
	accepted(g, W("set", "Utes", "status=panicked"));
	bool changed;
	char *out = played(g, "Apache", &changed);
	if (!strstr(out, "fray plays Apache: rally Utes") || !changed)
		fail_msg("play Apache: %s", out);
	free(out);
	out = played(g, "Apache", &changed);
	if (!strstr(out, "it waits: Spain may still rally (Cueras is panicked)") || changed)
		fail_msg("play Apache: %s", out);
	free(out);
	out = played(g, "Spain", &changed);
	if (!strstr(out, "fray plays Spain: rally Cueras") || !changed)
		fail_msg("play Spain: %s", out);
	free(out);
	out = played(g, "Spain", &changed);
	if (!strstr(out, "fray plays Spain: initiative") || !changed)
		fail_msg("play Spain: %s", out);
	free(out);
	assert_null(order_of(g, "phase"));
	fray_game_free(g);

	/* a new game, which keeps no order yet: its turn's rallies come
	 * before the initiative play rolls, too */
	g = fresh(11);
	accepted(g, W("set", "Apaches", "status=panicked"));
	out = played(g, "Spain", &changed);
	if (!strstr(out, "it waits: Apache may still rally (Apaches is panicked)") || changed)
		fail_msg("play Spain: %s", out);
	free(out);
	out = played(g, "Apache", &changed);
	if (!strstr(out, "fray plays Apache: rally Apaches") || !changed)
		fail_msg("play Apache: %s", out);
	free(out);
	fray_game_free(g);
}

/* A game file an older fray wrote: its 'turn' rolled the next turn's
 * initiative at once. It loads and plays: that turn keeps its rally
 * phase until a unit acts, as the older fray played it, and its next
 * 'turn' opens a rally phase. */
static void an_older_turn_start_still_rallies(void **state)
{
	(void)state;
	fray_game *g = next_rally_phase();
	char *text = game_saved(g);
	fray_game_free(g);
	/* as the older fray wrote it: the turn's initiative, no phase */
	char *at = strstr(text, "phase: rally\n");
	assert_non_null(at);
	const char *order = "initiative: \"Spain\"\nacting: \"Spain\"\n";
	char *old = malloc(strlen(text) + strlen(order) + 1);
	memcpy(old, text, (size_t)(at - text));
	strcpy(old + (at - text), order);
	strcat(old, at + strlen("phase: rally\n"));
	free(text);
	fray_ctx_clear(ctx);
	if (fray_game_load(ctx, "ini.yaml", old, strlen(old), &g) != FRAY_OK)
		fail_msg("load: %s", fray_ctx_message(ctx));
	free(old);
	accepted(g, W("set", "Utes", "status=panicked"));
	accepted(g, W("set", "Apaches", "status=panicked"));
	accepted(g, W("rally", "Utes"));
	accepted(g, W("move", "Cueras"));
	refused(g, W("rally", "Apaches"), "the rally phase is the turn's first");
	accepted(g, W("pass", "Spain"));
	accepted(g, W("turn"));
	char *phase = order_of(g, "phase");
	assert_string_equal(phase, "rally");
	free(phase);
	fray_game_free(g);
}

/* The acting side's last action hands the sequence to the other side. */
static void the_last_action_hands_over(void **state)
{
	(void)state;
	fray_game *g = spain_acts();
	accepted(g, W("move", "Cueras", "--run"));
	char *acting = order_of(g, "acting");
	assert_string_equal(acting, "Spain");
	free(acting);
	accepted(g, W("shoot", "Soldados", "--at", "Apaches", "--band", "long", "--actions", "2"));
	acting = order_of(g, "acting");
	assert_string_equal(acting, "Apache");
	free(acting);
	accepted(g, W("move", "Utes"));
	fray_game_free(g);
}

/* initiative: rolled once a turn, before any unit acts, by the sides'
 * leaderships; the winner acts first; undo takes it back. */
static void initiative_is_rolled_once_before_the_sequences(void **state)
{
	(void)state;
	fray_game *g = fresh(11);
	accepted(g, W("initiative"));
	char *acting = order_of(g, "acting"), *won = order_of(g, "initiative");
	assert_string_equal(acting, won);
	char *text = game_saved(g);
	assert_non_null(strstr(text, "\"leadership_1\": 2"));
	assert_non_null(strstr(text, "\"leadership_2\": 1"));
	free(text);
	refused(g, W("initiative"), "this turn's is rolled");
	free(acting);
	free(won);
	assert_int_equal(fray_game_undo(g), FRAY_OK);
	fray_game_free(g);

	/* the roll's outcome names the side (as JSON: 1 the first side of
	 * the file, Spain; 2 the second); both seen over the seeds */
	bool seen[2] = {false, false};
	for (uint64_t seed = 1; seed <= 40 && !(seen[0] && seen[1]); seed++) {
		g = fresh(seed);
		const char *w[] = {"initiative"};
		char *out = NULL;
		assert_int_equal(fray_game_act(g, 1, w, NULL, "json", &out), FRAY_OK);
		const char *f = strstr(out, "\"first\": ");
		assert_non_null(f);
		int first = atoi(f + strlen("\"first\": "));
		assert_true(first == 1 || first == 2);
		seen[first - 1] = true;
		free(out);
		won = order_of(g, "initiative");
		assert_string_equal(won, first == 2 ? "Apache" : "Spain");
		free(won);
		fray_game_free(g);
	}
	assert_true(seen[0] && seen[1]);
	g = fresh(11);
	assert_null(order_of(g, "initiative"));
	/* a turn under way: too late */
	accepted(g, W("move", "Utes"));
	refused(g, W("initiative"), "the initiative comes before the action sequences");
	fray_game_free(g);
}

/* A game file without the order (an older fray's, or a new game before
 * 'initiative'): the players keep the order, as before, and 'turn' rolls
 * none. */
static void no_order_kept_plays_as_before(void **state)
{
	(void)state;
	fray_game *g = fresh(3);
	accepted(g, W("move", "Utes"));
	accepted(g, W("move", "Cueras"));
	accepted(g, W("move", "Apaches"));
	refused(g, W("pass", "Spain"), "keeps no initiative");
	accepted(g, W("turn"));
	assert_null(order_of(g, "initiative"));
	fray_game_free(g);
}

/* A game keeping no order offers the turn's initiative before any unit
 * acted (Section 2, Game Turn Phases: 1. Rally, 2. Initiative): status
 * says the rally phase (the file keeps no phase), 'next' (the page's Roll
 * the initiative) rolls it and the order is kept from then on; once a
 * unit acted, neither. */
static void no_order_kept_offers_the_initiative(void **state)
{
	(void)state;
	fray_game *g = fresh(3);
	char *phase = order_of(g, "phase");
	assert_non_null(phase);
	assert_string_equal(phase, "rally");
	free(phase);
	char *text = game_saved(g);
	assert_null(strstr(text, "phase:"));
	free(text);
	accepted(g, W("next"));
	assert_null(order_of(g, "phase"));
	char *won = order_of(g, "initiative");
	assert_non_null(won);
	free(won);
	fray_game_free(g);

	g = fresh(3);
	accepted(g, W("move", "Utes"));
	assert_null(order_of(g, "phase"));
	refused(g, W("next"), "no phase to end");
	assert_null(order_of(g, "initiative"));
	/* the next turn's start offers it again */
	accepted(g, W("turn"));
	phase = order_of(g, "phase");
	assert_non_null(phase);
	free(phase);
	fray_game_free(g);
}

/* The order as a file keeps it: read with the file, line and column of
 * what is wrong. */
static void a_bad_order_is_refused_where_it_is(void **state)
{
	(void)state;
	assert_null(with_lines("initiative: France\nacting: France\n"));
	assert_non_null(strstr(fray_ctx_message(ctx), "ini.yaml:9:13: initiative: 'France' is not a side"));
	assert_null(with_lines("initiative: Spain\n"));
	assert_non_null(strstr(fray_ctx_message(ctx), "ini.yaml:9:13: initiative: expected initiative and acting both"));
	assert_null(with_lines("acting: [Spain]\ninitiative: Spain\n"));
	assert_non_null(strstr(fray_ctx_message(ctx), "ini.yaml:9:"));
	/* written back as read */
	fray_game *g = spain_acts();
	accepted(g, W("move", "Cueras"));
	char *text = game_saved(g);
	assert_non_null(strstr(text, "turn: 1\ninitiative: \"Spain\"\nacting: \"Spain\"\n"));
	free(text);
	fray_game_free(g);
}

/* advise and the game's lists never offer what the order refuses;
 * a whole game of play by both sides keeps the order (a refused action
 * would fail play) and passes and rolls it. */
static void advice_and_play_keep_the_order(void **state)
{
	(void)state;
	fray_game *g = spain_acts();
	const char *names[16];
	size_t n = fray_game_actions(g, 2, names, 16); /* Apaches */
	for (size_t i = 0; i < n; i++)
		if (strcmp(names[i], "morale") != 0)
			fail_msg("Apaches offered %s in Spain's sequence", names[i]);
	size_t targets[8];
	assert_int_equal(fray_game_targets(g, 2, "shoot", targets, 8), 0);
	char *out = NULL;
	assert_int_equal(fray_game_advise(g, "Utes", NULL, 0, NULL, FRAY_FORMAT_JSON, &out), FRAY_OK);
	assert_non_null(strstr(out, "\"actions\": []"));
	free(out);
	/* the waiting side waits; nothing written */
	char *before = game_saved(g);
	assert_int_equal(fray_game_play(g, "Apache", NULL, 0, NULL, FRAY_FORMAT_TEXT, &out), FRAY_OK);
	assert_non_null(strstr(out, "it waits: it is Spain's action sequence"));
	free(out);
	char *after = game_saved(g);
	assert_string_equal(before, after);
	free(before);
	free(after);
	fray_game_free(g);

	g = fresh(1782);
	const char *sides[] = {"Spain", "Apache"};
	int passes = 0, rolls = 0;
	for (int i = 0; i < 400; i++) {
		if (fray_game_play(g, sides[i % 2], NULL, 0, NULL, FRAY_FORMAT_TEXT, &out) != FRAY_OK)
			fail_msg("play %s refused: %s", sides[i % 2], fray_ctx_message(ctx));
		/* a pass, or the first side's last action handing over */
		passes += strstr(out, ": pass ") != NULL || strstr(out, "no action left: ") != NULL;
		rolls += strstr(out, ": initiative,") != NULL || strstr(out, "wins the initiative") != NULL;
		bool over = strstr(out, "the game is over") != NULL;
		free(out);
		if (over)
			break;
	}
	assert_true(rolls > 1);
	assert_true(passes > 0);
	fray_game_free(g);
}

/* Section 3, Reform: a disordered unit re-forms with two actions (one
 * with a drummer) into good order; a unit in good order changes formation
 * the same way; not with one action left; a unit not in line may move into skirmish instead, at no
 * cost; a line unit may not. */
static void reform_brings_a_line_back(void **state)
{
	(void)state;
	fray_game *g = fresh(5);
	accepted(g, W("set", "Soldados", "status=disordered"));
	refused(g, W("move", "Soldados"), "Line units must reform before moving");
	accepted(g, W("reform", "Soldados"));
	char *v = game_unit_field(g, "Soldados", "status");
	assert_string_equal(v, "good");
	free(v);
	v = game_unit_field(g, "Soldados", "actions_spent");
	assert_string_equal(v, "reform, reform");
	free(v);
	/* no action left for another; a unit in good order changes its
	 * formation with two (Section 3, Reform: "Used to change a unit's
	 * formation"; the referee's sixth round, finding 4) */
	refused(g, W("reform", "Soldados"), "Presidio Section 2, Action Sequences");
	accepted(g, W("reform", "Cueras"));
	v = game_unit_field(g, "Cueras", "actions_spent");
	assert_string_equal(v, "reform, reform");
	free(v);
	/* a line unit does not leave disorder into skirmish: it "must reform" */
	accepted(g, W("set", "Soldados", "status=disordered"));
	refused(g, W("reform", "Soldados", "--skirmish"), "\"Line units must reform before moving or volleying\"");
	fray_game_free(g);

	/* the referee's second round, finding 3: a unit not in line leaves
	 * its disorder too (Section 2, Rally: "They can reform or move into
	 * skirmish"): re-formed with two actions, or into skirmish at no
	 * cost ("There is no cost for a unit to move itself into skirmish
	 * formation", Section 3, Skirmish) */
	g = fresh(5);
	accepted(g, W("set", "Cueras", "status=disordered"));
	accepted(g, W("reform", "Cueras"));
	v = game_unit_field(g, "Cueras", "status");
	assert_string_equal(v, "good");
	free(v);
	v = game_unit_field(g, "Cueras", "actions_left");
	assert_string_equal(v, "0");
	free(v);
	accepted(g, W("set", "Apaches", "status=disordered"));
	accepted(g, W("reform", "Apaches", "--skirmish"));
	v = game_unit_field(g, "Apaches", "status");
	assert_string_equal(v, "good");
	free(v);
	v = game_unit_field(g, "Apaches", "actions_left");
	assert_string_equal(v, "2");
	free(v);
	refused(g, W("reform", "Apaches", "--skirmish"), "not in disorder");
	accepted(g, W("set", "Utes", "status=retreated"));
	refused(g, W("reform", "Utes", "--skirmish"), "forfeits any further actions");
	fray_game_free(g);

	/* with a drummer: one action; without, one action left is too few */
	g = fresh(5);
	accepted(g, W("set", "Soldados", "status=disordered", "drummer=true"));
	accepted(g, W("reform", "Soldados"));
	v = game_unit_field(g, "Soldados", "actions_left");
	assert_string_equal(v, "1");
	free(v);
	accepted(g, W("set", "Soldados", "status=disordered", "drummer=false"));
	refused(g, W("reform", "Soldados"), "it has 1 left this turn; it re-forms in the next turn");
	const char *names[16];
	size_t n = fray_game_actions(g, 0, names, 16);
	for (size_t i = 0; i < n; i++)
		assert_string_not_equal(names[i], "reform");
	fray_game_free(g);

	/* out of its side's sequence: refused like any action */
	g = spain_acts();
	accepted(g, W("set", "Soldados", "line=true"));
	accepted(g, W("set", "Apaches", "status=disordered", "line=true"));
	refused(g, W("reform", "Apaches"), INITIATIVE);
	fray_game_free(g);
}

/* Review of the fields added by the referee's findings: contact and
 * may_pursue name an enemy unit of the game, or the file is refused at
 * the field (its line and column) and a set that would write one is
 * refused, nothing written. */
static void contact_names_an_enemy_unit(void **state)
{
	(void)state;
	static const struct {
		const char *field, *why;
		int col;
	} bad[] = {{"    contact: \"Nobody\"\n", "contact: 'Nobody' is not a unit of the game", 14},
		   {"    may_pursue: \"Ghost\"\n", "may_pursue: 'Ghost' is not a unit of the game", 17},
		   {"    contact: \"Cueras\"\n", "contact: 'Cueras' is on Soldados's own side", 14},
		   {"    contact: \"Soldados\"\n", "contact: 'Soldados' is on Soldados's own side", 14}};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		/* after the first unit's (Soldados') last field */
		int line = 1;
		assert_null(inserted("    drummer: false\n", bad[i].field, &line));
		char want[160];
		snprintf(want, sizeof want, "ini.yaml:%d:%d: %s", line, bad[i].col, bad[i].why);
		if (!strstr(fray_ctx_message(ctx), want))
			fail_msg("'%s' not in: %s", want, fray_ctx_message(ctx));
	}
	fray_game *g;
	/* an enemy's name reads; set refuses a friend's, nothing written */
	g = fresh(7);
	accepted(g, W("set", "Soldados", "contact=Apaches"));
	refused(g, W("set", "Soldados", "contact=Cueras"), "contact: 'Cueras' is on Soldados's own side");
	refused(g, W("set", "Soldados", "may_pursue=Nobody"), "may_pursue: 'Nobody' is not a unit of the game");
	fray_game_free(g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(out_of_sequence_is_refused),
		cmocka_unit_test(the_texts_exceptions_are_accepted),
		cmocka_unit_test(pass_hands_the_sequence_over),
		cmocka_unit_test(the_last_action_hands_over),
		cmocka_unit_test(the_rally_phase_comes_before_the_initiative),
		cmocka_unit_test(play_rallies_both_sides_before_the_initiative),
		cmocka_unit_test(an_older_turn_start_still_rallies),
		cmocka_unit_test(initiative_is_rolled_once_before_the_sequences),
		cmocka_unit_test(no_order_kept_plays_as_before),
		cmocka_unit_test(no_order_kept_offers_the_initiative),
		cmocka_unit_test(a_bad_order_is_refused_where_it_is),
		cmocka_unit_test(advice_and_play_keep_the_order),
		cmocka_unit_test(reform_brings_a_line_back),
		cmocka_unit_test(contact_names_an_enemy_unit),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
