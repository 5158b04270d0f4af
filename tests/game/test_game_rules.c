/* The game's rules through include/fray/game.h, table-driven (issue 30
 * item 4): each action's follow-ups, the outcome applied to the forces,
 * undo and replay, and the actions the rules refuse, for a Presidio
 * skirmish, a BBB engagement and a chit-pull fight. Expected values come
 * from the rule texts (cited beside each) or are computed here from the
 * units as they stood, never from fray's output. The games are made and
 * played in the library: no fray is run (tests/cli/table_game.py keeps
 * what only the command line shows). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "../test_util.h"

/* Each rule set's game is played from the seeds 1..SEEDS (as
 * table_game.py played them): enough to reach both ways of every check
 * (asserted at the end of each test). */
#define SEEDS 8

/* ---- JSON read back with the library's reader (JSON being YAML) ---- */

/* The node at path ("steps/0/outcome/casualties": map keys and item
 * numbers, '/' between) under n; NULL when it is not there. */
static const fray_node *at(const fray_node *n, const char *path)
{
	char part[128];
	while (n && *path) {
		size_t len = strcspn(path, "/");
		assert_true(len < sizeof part);
		memcpy(part, path, len);
		part[len] = 0;
		path += len + (path[len] == '/');
		if (fray_node_kind_of(n) == FRAY_NODE_SEQ)
			n = fray_node_item(n, (size_t)strtoul(part, NULL, 10));
		else
			n = fray_map_get(n, part);
	}
	return n;
}

static const char *str_at(const fray_node *n, const char *path)
{
	const fray_node *v = at(n, path);
	if (!v || !fray_node_scalar(v))
		fail_msg("no %s", path);
	return fray_node_scalar(v);
}

static long int_at(const fray_node *n, const char *path)
{
	return strtol(str_at(n, path), NULL, 10);
}

static bool bool_at(const fray_node *n, const char *path)
{
	return !strcmp(str_at(n, path), "true");
}

static fray_doc *parse(const char *text)
{
	fray_doc *doc;
	if (fray_doc_load_string(ctx, "json", text, strlen(text), &doc) != FRAY_OK)
		fail_msg("%s: %s", fray_ctx_message(ctx), text);
	return doc;
}

/* ---- games ---- */

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		fail_msg("cannot open %s", path);
	char *buf = NULL;
	size_t cap = 0, n = 0;
	do {
		cap = cap ? 2 * cap : 65536;
		buf = realloc(buf, cap + 1);
		assert_non_null(buf);
		n += fread(buf + n, 1, cap - n, f);
	} while (n == cap);
	fclose(f);
	buf[n] = 0;
	*len = n;
	return buf;
}

/* A new game of the rule set from examples/RULES/forces.yaml (the files
 * it names opened by open, NULL: from the disk). */
static fray_game *new_game(const char *rules, uint64_t seed, fray_doc_open_fn open, void *ud)
{
	char path[512];
	snprintf(path, sizeof path, "%s/examples/%s/forces.yaml", FRAY_SOURCE_DIR, rules);
	size_t len;
	char *forces = slurp(path, &len);
	fray_game *game;
	if (fray_game_new(ctx, "game.yaml", rules, path, forces, len, seed, open, ud, &game) != FRAY_OK)
		fail_msg("%s: %s", rules, fray_ctx_message(ctx));
	free(forces);
	return game;
}

/* The game's bytes, copied (malloc'd, NUL-terminated). */
static char *bytes_of(const fray_game *game, size_t *len)
{
	const char *b;
	assert_int_equal(fray_game_save(game, &b, len), FRAY_OK);
	char *copy = malloc(*len + 1);
	assert_non_null(copy);
	memcpy(copy, b, *len);
	copy[*len] = 0;
	return copy;
}

static void same_bytes(const fray_game *game, const char *want, const char *what)
{
	size_t len;
	char *got = bytes_of(game, &len);
	if (strcmp(got, want))
		fail_msg("%s: the game changed", what);
	free(got);
}

/* The forces as `status --json` gives them (a document: free it). */
static fray_doc *forces_of(const fray_game *game)
{
	char *text;
	assert_int_equal(fray_game_status(game, "json", &text), FRAY_OK);
	fray_doc *doc = parse(text);
	free(text);
	return doc;
}

/* Unit name's fields in a forces document. */
static const fray_node *unit(const fray_doc *forces, const char *name)
{
	const fray_node *units = at(fray_doc_root(forces), "units");
	for (size_t i = 0; i < fray_node_len(units); i++)
		if (!strcmp(str_at(fray_node_item(units, i), "name"), name))
			return fray_node_item(units, i);
	fail_msg("no unit %s", name);
	return NULL;
}

#define MAX_WORDS 32

/* An action's words, NULL-terminated, into words; their count. */
static size_t words_of(va_list ap, const char **words)
{
	size_t n = 0;
	for (const char *w; (w = va_arg(ap, const char *));) {
		assert_true(n < MAX_WORDS);
		words[n++] = w;
	}
	return n;
}

/* Applies an action (fray table's words, NULL-terminated), expecting it
 * refused (FRAY_ERR_INPUT) and the game left as it was. */
static void refused(fray_game *game, ...)
{
	const char *words[MAX_WORDS];
	va_list ap;
	va_start(ap, game);
	size_t n = words_of(ap, words);
	va_end(ap);
	size_t len;
	char *was = bytes_of(game, &len), *out = NULL;
	fray_status st = fray_game_act(game, n, words, NULL, "json", &out);
	if (st != FRAY_ERR_INPUT)
		fail_msg("%s %s: status %d, expected a refusal", words[0], n > 1 ? words[1] : "", (int)st);
	assert_null(out);
	fray_ctx_clear(ctx);
	same_bytes(game, was, "a refused action");
	free(was);
}

/* What an action did: the forces before and after, its steps. */
typedef struct acted {
	fray_doc *before, *after, *events;
	const fray_node *b, *steps;
	size_t nsteps;
} acted;

static void acted_free(acted *a)
{
	fray_doc_free(a->before);
	fray_doc_free(a->after);
	fray_doc_free(a->events);
}

/* Applies an action (fray table's words, NULL-terminated), and checks
 * that undo gives back the game byte for byte and that the action done
 * again rolls the same dice and makes the same game (the dice are the
 * game's seed and its count of dice rolled: docs/table.md). */
static acted act(fray_game *game, ...)
{
	const char *words[MAX_WORDS];
	va_list ap;
	va_start(ap, game);
	size_t n = words_of(ap, words);
	va_end(ap);
	acted a = {.before = forces_of(game)};
	size_t len0, len1;
	char *start = bytes_of(game, &len0), *events, *again;
	if (fray_game_act(game, n, words, NULL, "json", &events) != FRAY_OK)
		fail_msg("%s %s: %s", words[0], n > 1 ? words[1] : "", fray_ctx_message(ctx));
	char *done = bytes_of(game, &len1);
	assert_int_equal(fray_game_undo(game), FRAY_OK);
	same_bytes(game, start, "undo");
	assert_int_equal(fray_game_act(game, n, words, NULL, "json", &again), FRAY_OK);
	assert_string_equal(again, events);
	same_bytes(game, done, "the action done again");
	a.after = forces_of(game);
	a.events = parse(events);
	a.steps = at(fray_doc_root(a.events), "steps");
	a.nsteps = fray_node_len(a.steps);
	free(start);
	free(done);
	free(events);
	free(again);
	return a;
}

/* set UNIT KEY=VALUE..., expected to hold. */
static void set(fray_game *game, const char *name, const char *field)
{
	const char *words[] = {"set", name, field};
	if (fray_game_act(game, 3, words, NULL, NULL, NULL) != FRAY_OK)
		fail_msg("set %s %s: %s", name, field, fray_ctx_message(ctx));
}

static const fray_node *step(const acted *a, size_t i)
{
	assert_true(i < a->nsteps);
	return fray_node_item(a->steps, i);
}

static const fray_node *before(const acted *a, const char *name)
{
	return unit(a->before, name);
}

static const fray_node *after(const acted *a, const char *name)
{
	return unit(a->after, name);
}

/* ---- Presidio ---- */

/* Section 7, Morale: the level's required number. */
static const struct {
	const char *level;
	int required;
} LEVELS[] = {{"super-elite", 4}, {"elite", 5}, {"veteran", 6}, {"average", 7}, {"inexperienced", 8}};

/* Section 7, Morale Modifiers: the DM for the casualties a unit of its
 * size has received (a company +1 for every 2, a platoon +1 each, a
 * squad +2 each, a team +3 each). */
static int casualty_dm(const char *size, int casualties)
{
	static const struct {
		const char *size;
		int per, every;
	} dm[] = {{"company", 1, 2}, {"platoon", 1, 1}, {"squad", 2, 1}, {"team", 3, 1}};
	for (size_t i = 0; i < sizeof dm / sizeof *dm; i++)
		if (!strcmp(size, dm[i].size))
			return dm[i].per * (casualties / dm[i].every);
	fail_msg("size %s", size);
	return 0;
}

/* Whether the unit is in line: its formation, unless its standing put it
 * in a clump (Section 3, Disorder; Section 7, Retreat and Panic; ruling
 * R44). */
static bool in_line(const fray_node *u)
{
	const char *s = str_at(u, "status");
	return bool_at(u, "line") && strcmp(s, "disordered") && strcmp(s, "retreated") && strcmp(s, "panicked");
}

/* Section 7: the final required number of a unit (its level, casualties
 * counted as given) charged (+2) or charging (-2), in line (-1). */
static int required(const fray_node *u, int casualties, bool charged, bool charging)
{
	int r = -100;
	for (size_t i = 0; i < sizeof LEVELS / sizeof *LEVELS; i++)
		if (!strcmp(str_at(u, "morale"), LEVELS[i].level))
			r = LEVELS[i].required;
	assert_true(r > 0);
	return r + casualty_dm(str_at(u, "size"), casualties) + (charged ? 2 : 0) - (charging ? 2 : 0) -
	       (in_line(u) ? 1 : 0);
}

/* Section 7, Morale Roll Resolution: the standing a failed check leaves,
 * by how far short (1-2, 3-4, 5 or more) and the unit's situation; short
 * by 5 or more near the enemy (not from a charge's impact) surrenders
 * (Surrender). */
static const char *status_after(const char *situation, long short_by, bool near_enemy, bool charge_impact)
{
	static const struct {
		const char *situation, *band[3];
	} table[] = {
		{"open", {"fell back", "retreated", "panicked"}},
		{"cover", {"flinched", "hunkered", "panicked"}},
		{"line", {"disordered", "retreated", "panicked"}},
		{"charging", {"disordered", "fell back", "retreated"}},
	};
	int band = short_by <= 2 ? 0 : short_by <= 4 ? 1 : 2;
	if (band == 2 && strcmp(situation, "charging") && near_enemy && !charge_impact)
		return "surrendered";
	for (size_t i = 0; i < sizeof table / sizeof *table; i++)
		if (!strcmp(table[i].situation, situation))
			return table[i].band[band];
	fail_msg("situation %s", situation);
	return NULL;
}

/* Which ways the morale checks went, over all the seeds: each must be
 * reached for the checks to mean something. */
static struct {
	int passed, failed, bonus;
} morale_seen;

/* A morale check (Section 7) of a unit that was u with casualties
 * counted, standing as `now` after it. */
static void check_morale(const fray_node *st, const fray_node *u, int casualties, const char *now, bool charged,
			 bool charging, const char *what)
{
	assert_string_equal(str_at(st, "procedure"), "presidio.morale");
	if (int_at(st, "inputs/casualties") != casualties)
		fail_msg("%s: the check counts %ld casualties, not %d", what, int_at(st, "inputs/casualties"),
			 casualties);
	int want = required(u, casualties, charged, charging);
	if (int_at(st, "inputs/required") != want)
		fail_msg("%s: required number %ld, Section 7 gives %d", what, int_at(st, "inputs/required"), want);
	if (bool_at(st, "outcome/bonus")) { /* Morale Bonus: two 6s pass whatever the number */
		morale_seen.bonus++;
		assert_true(bool_at(st, "outcome/success"));
		return;
	}
	if (bool_at(st, "outcome/success")) {
		morale_seen.passed++;
		if (strcmp(now, str_at(u, "status")))
			fail_msg("%s: a passed check left %s, not %s", what, now, str_at(u, "status"));
		return;
	}
	morale_seen.failed++;
	const char *situation = charging ? "charging" : in_line(u) ? "line" : "open";
	const char *status = status_after(situation, int_at(st, "outcome/short_by"), bool_at(st, "inputs/near_enemy"),
					  bool_at(st, "inputs/charge_impact"));
	if (strcmp(now, status))
		fail_msg("%s: short by %ld in %s: %s, not %s", what, int_at(st, "outcome/short_by"), situation, status,
			 now);
}

/* A volley (Section 4, Volley Fire): the shot's figures from the forces,
 * its casualties off the target, a morale check after casualties
 * (Section 7) with the new count, the musket's 4 reload actions (Section
 * 10); a second volley unloaded is refused. */
static void presidio_volley(fray_game *game)
{
	acted a = act(game, "shoot", "Presidials", "--at", "Apaches", "--range", "10", "--mode", "volley", NULL);
	const fray_node *shot = step(&a, 0);
	assert_string_equal(str_at(shot, "procedure"), "presidio.shoot");
	assert_int_equal(int_at(shot, "inputs/figures"), 12);
	assert_int_equal(int_at(shot, "inputs/target_figures"), 10);
	int cas = (int)int_at(shot, "outcome/casualties");
	assert_int_equal(int_at(after(&a, "Apaches"), "figures"), 10 - cas);
	/* two 6s: earlier casualties disregarded (Section 7, Morale Bonus) */
	bool bonus = a.nsteps > 1 && bool_at(step(&a, 1), "outcome/bonus");
	assert_int_equal(int_at(after(&a, "Apaches"), "casualties"), bonus ? 0 : cas);
	assert_int_equal(int_at(after(&a, "Presidials"), "reload"), 4);
	if (cas) {
		assert_int_equal(a.nsteps, 2);
		check_morale(step(&a, 1), before(&a, "Apaches"), cas, str_at(after(&a, "Apaches"), "status"), false,
			     false, "after the volley");
	} else {
		assert_int_equal(a.nsteps, 1); /* no casualties, no morale check */
	}
	acted_free(&a);
	refused(game, "shoot", "Presidials", "--at", "Apaches", "--range", "10", "--mode", "volley", NULL);
}

static int fear_passed, fear_failed;

/* Section 5, Charging: fear of charge (a morale check, +2 charged), the
 * reaction, the impact with the lancers' lance (Impact) and the
 * defender's saved action striking back, melee morale for each side
 * hurt that has figures left (Melee Morale Checks). */
static void presidio_charge(fray_game *game)
{
	acted a = act(game, "charge", "Cueras", "--at", "Comanches", "--reaction", "melee", NULL);
	const fray_node *fear = step(&a, 0);
	assert_true(bool_at(fear, "inputs/charged"));
	const fray_node *c0 = before(&a, "Comanches");
	bool passed = bool_at(fear, "outcome/success");
	/* a passed check leaves the status as it was before the melee */
	check_morale(fear, c0, (int)int_at(c0, "casualties"),
		     passed ? str_at(c0, "status") : str_at(after(&a, "Comanches"), "status"), true, false,
		     "fear of charge");
	if (passed) {
		fear_passed++;
		const fray_node *impact = step(&a, 1);
		assert_string_equal(str_at(impact, "procedure"), "presidio.melee");
		assert_string_equal(str_at(impact, "inputs/charge"), "lance");
		assert_true(bool_at(impact, "inputs/both"));
		long lost_d = int_at(impact, "outcome/casualties"), lost_a = int_at(impact, "outcome/return_casualties");
		long left_d = lost_d < 6 ? 6 - lost_d : 0, left_a = lost_a < 8 ? 8 - lost_a : 0;
		assert_int_equal(int_at(after(&a, "Comanches"), "figures"), left_d);
		assert_int_equal(int_at(after(&a, "Cueras"), "figures"), left_a);
		size_t checks = (size_t)((lost_d > 0 && left_d > 0) + (lost_a > 0 && left_a > 0));
		assert_int_equal(a.nsteps, 2 + checks);
	} else {
		fear_failed++;
		assert_string_not_equal(str_at(after(&a, "Comanches"), "status"), "good");
	}
	acted_free(&a);
}

static int defensive_fire_seen;

/* Section 5, Defensive Fire: at close range, a volley when fully loaded
 * (and in line: Section 4), every defender firing; the chargers check
 * morale (-2 charging, Section 7) when hit; a defender that fired saved
 * no action to strike back, and chargers on foot without spears or
 * bayonets strike with the foot impact. */
static void presidio_defensive_fire(fray_game *game)
{
	set(game, "Presidials", "status=good");
	set(game, "Apaches", "status=good");
	fray_doc *now = forces_of(game);
	long apaches = int_at(unit(now, "Apaches"), "figures");
	fray_doc_free(now);
	if (apaches == 0)
		return;
	acted a = act(game, "charge", "Apaches", "--at", "Presidials", "--reaction", "fire", NULL);
	if (bool_at(step(&a, 0), "outcome/success")) {
		defensive_fire_seen++;
		const fray_node *fire = step(&a, 1), *a0 = before(&a, "Apaches");
		assert_string_equal(str_at(fire, "procedure"), "presidio.shoot");
		assert_string_equal(str_at(fire, "inputs/band"), "close");
		assert_string_equal(str_at(fire, "inputs/mode"), "volley");
		assert_int_equal(int_at(fire, "inputs/figures"), int_at(before(&a, "Presidials"), "figures"));
		long cas = int_at(fire, "outcome/casualties"), fig = int_at(a0, "figures");
		assert_true(int_at(after(&a, "Apaches"), "figures") <= (fig > cas ? fig - cas : 0));
		if (cas && fig > cas) {
			const fray_node *check = step(&a, 2);
			assert_string_equal(str_at(check, "procedure"), "presidio.morale");
			assert_true(bool_at(check, "inputs/charging"));
			assert_int_equal(int_at(check, "inputs/required"),
					 required(a0, (int)(int_at(a0, "casualties") + cas), false, true));
		}
	}
	for (size_t i = 0; i < a.nsteps; i++)
		if (!strcmp(str_at(step(&a, i), "procedure"), "presidio.melee")) {
			assert_string_equal(str_at(step(&a, i), "inputs/charge"), "foot");
			assert_false(bool_at(step(&a, i), "inputs/both"));
		}
	acted_free(&a);
}

static int rallied_seen, not_rallied_seen;

/* Section 2 and ruling R17: a panicked unit rallies on 1d6 >= 6 less its
 * leader's level; rallied, it is disordered (Section 3, Disorder); a unit
 * not panicked has nothing to rally from. */
static void presidio_rally(fray_game *game)
{
	set(game, "Comanches", "status=panicked");
	acted a = act(game, "rally", "Comanches", NULL);
	assert_int_equal(int_at(step(&a, 0), "inputs/leader"), int_at(before(&a, "Comanches"), "leader"));
	bool rallied = bool_at(step(&a, 0), "outcome/rallied");
	rallied ? rallied_seen++ : not_rallied_seen++;
	assert_string_equal(str_at(after(&a, "Comanches"), "status"), rallied ? "disordered" : "panicked");
	acted_free(&a);
	refused(game, "rally", "Cueras", NULL);
}

/* The skirmish of one seed, as tests/cli/table_game.py played it through
 * fray table; the game's bytes at the end. */
static char *presidio_skirmish(uint64_t seed, size_t *len)
{
	fray_game *game = new_game("presidio", seed, NULL, NULL);
	fray_doc *f = forces_of(game);
	/* a unit's skills from its type in the units file (G4's example), its
	 * size from its figures (Section 7: 10-15 a platoon, 5-9 a squad) */
	assert_int_equal(int_at(unit(f, "Cueras"), "ranged"), 2);
	assert_true(bool_at(unit(f, "Cueras"), "mounted"));
	assert_string_equal(str_at(unit(f, "Cueras"), "morale"), "veteran");
	assert_string_equal(str_at(unit(f, "Presidials"), "size"), "platoon");
	assert_string_equal(str_at(unit(f, "Cueras"), "size"), "squad");
	fray_doc_free(f);
	presidio_volley(game);
	presidio_charge(game);
	/* the referee's change: several fields at once; never more figures
	 * than the unit started with, never fewer than none */
	const char *two[] = {"set", "Presidials", "reload=0", "line=true"};
	assert_int_equal(fray_game_act(game, 4, two, NULL, NULL, NULL), FRAY_OK);
	f = forces_of(game);
	assert_int_equal(int_at(unit(f, "Presidials"), "reload"), 0);
	assert_true(bool_at(unit(f, "Presidials"), "line"));
	fray_doc_free(f);
	refused(game, "set", "Presidials", "figures=13", NULL);
	refused(game, "set", "Cueras", "figures=-3", NULL);
	presidio_defensive_fire(game);
	/* Section 7: fall back, retreat, flinch and hunker down last the turn */
	assert_int_equal(fray_game_turn(game), 1);
	const char *turn[] = {"turn"};
	assert_int_equal(fray_game_act(game, 1, turn, NULL, NULL, NULL), FRAY_OK);
	assert_int_equal(fray_game_turn(game), 2);
	f = forces_of(game);
	const fray_node *units = at(fray_doc_root(f), "units");
	for (size_t i = 0; i < fray_node_len(units); i++) {
		static const char *const over[] = {"flinched", "hunkered", "fell back", "retreated"};
		for (size_t k = 0; k < 4; k++)
			assert_string_not_equal(str_at(fray_node_item(units, i), "status"), over[k]);
	}
	fray_doc_free(f);
	/* a rally is the turn's first phase, before any action (Section 2,
	 * Game Turn Phases; ruling R47): in the new turn */
	presidio_rally(game);
	/* refused, the game as it was: no such unit, no such option, a charge
	 * reaction neither given nor asked of a policy */
	refused(game, "shoot", "Nobody", "--at", "Apaches", "--range", "4", NULL);
	refused(game, "shoot", "Cueras", "--at", "Apaches", "--rang", "4", NULL);
	refused(game, "charge", "Cueras", "--at", "Apaches", NULL);
	/* the log: an entry for each roll, with its procedure, inputs, events
	 * and outcome; the Markdown log a section for each action */
	char *text;
	assert_int_equal(fray_game_log(game, "json", &text), FRAY_OK);
	fray_doc *log = parse(text);
	free(text);
	const fray_node *entries = fray_doc_root(log);
	assert_true(fray_node_len(entries) > 0);
	long actions = 0, last = -1;
	for (size_t i = 0; i < fray_node_len(entries); i++) {
		const fray_node *e = fray_node_item(entries, i);
		static const char *const keys[] = {"procedure", "inputs", "events", "outcome"};
		for (size_t k = 0; k < 4; k++)
			if (!at(e, keys[k]))
				fail_msg("log entry %zu has no %s", i, keys[k]);
		if (int_at(e, "action") != last) {
			last = int_at(e, "action");
			actions++;
		}
	}
	fray_doc_free(log);
	assert_int_equal(fray_game_log(game, "markdown", &text), FRAY_OK);
	int sections = 0;
	for (const char *p = text; (p = strstr(p, "~~~text")); p++)
		sections++;
	assert_int_equal(sections, actions);
	assert_non_null(strstr(text, "## 1. Turn 1"));
	free(text);
	char *bytes = bytes_of(game, len);
	fray_game_free(game);
	return bytes;
}

static void presidio_skirmishes(void **state)
{
	(void)state;
	size_t len, len2;
	for (uint64_t seed = 1; seed <= SEEDS; seed++) {
		char *bytes = presidio_skirmish(seed, &len);
		if (seed == SEEDS) { /* the same seed and actions: the same game */
			char *again = presidio_skirmish(seed, &len2);
			assert_true(len == len2 && !memcmp(bytes, again, len));
			free(again);
		}
		free(bytes);
	}
	/* the seeds reach both ways of every check */
	assert_true(morale_seen.passed > 0 && morale_seen.failed > 0);
	assert_true(fear_passed > 0 && fear_failed > 0);
	assert_true(defensive_fire_seen > 0);
	assert_true(rallied_seen > 0 && not_rallied_seen > 0);
}

/* ---- BBB ---- */

/* BBB Firefight results: the bases an infantry or cavalry target loses,
 * and the training levels a letter reaches (ruling R19). */
static int bases_lost(const char *result)
{
	return !strcmp(result, "1") ? 1 : !strcmp(result, "2") ? 2 : !strcmp(result, "3") ? 3 : 0;
}

static bool reaches(const char *result, const char *training)
{
	if (bases_lost(result))
		return true;
	static const char *const levels[] = {"raw", "trained", "veteran"};
	int reach = !strcmp(result, "R") ? 1 : !strcmp(result, "T") ? 2 : !strcmp(result, "V") ? 3 : 0;
	for (int i = 0; i < reach; i++)
		if (!strcmp(training, levels[i]))
			return true;
	return false;
}

static int bbb_results_seen[8]; /* R, T, V, 1, 2, 3, none ("") */

/* BBB Firefight: the result applied to the target. Artillery: Silenced on
 * any result that reaches it, Reduced on a 1, destroyed on a 2 or 3;
 * infantry and cavalry lose the result's bases and are Disrupted when it
 * reaches them; the firer is Low on Ammo on the starred rows 11 and 12. */
static void bbb_fire(fray_game *game, const char *firer, const char *target, const char *range)
{
	acted a = act(game, "fire", firer, "--at", target, "--range", range, NULL);
	const char *res = str_at(step(&a, 0), "outcome/result");
	bbb_results_seen[strcspn("RTV123", res)]++;
	const fray_node *t0 = before(&a, target), *t1 = after(&a, target);
	bool hit = reaches(res, str_at(t0, "training"));
	if (!strcmp(str_at(t0, "arm"), "artillery")) {
		bool destroyed = !strcmp(res, "2") || !strcmp(res, "3");
		if (!destroyed)
			assert_int_equal(bool_at(t1, "silenced"), bool_at(t0, "silenced") || hit);
		assert_int_equal(bool_at(t1, "reduced"), bool_at(t0, "reduced") || !strcmp(res, "1"));
		assert_int_equal(int_at(t1, "bases") == 0, destroyed);
	} else {
		long left = int_at(t0, "bases") - bases_lost(res);
		assert_int_equal(int_at(t1, "bases"), left > 0 ? left : 0);
		assert_int_equal(bool_at(t1, "disrupted"), bool_at(t0, "disrupted") || hit);
		assert_int_equal(bool_at(after(&a, firer), "low_ammo"),
				 bool_at(before(&a, firer), "low_ammo") || bool_at(step(&a, 0), "outcome/low_ammo"));
	}
	acted_free(&a);
}

static int move_rows_seen[3]; /* a good-order unit; rallied (5,6); a base lost (0,1) */

/* BBB Rally and recover: a good-order unit recovers a base on the
 * table's roll (never past its starting bases); a disrupted one rallies
 * in place on 5-6 and loses a base on 0-1. */
static void bbb_move(fray_game *game, const char *mover)
{
	acted a = act(game, "move", mover, NULL);
	const fray_node *o = at(step(&a, 0), "outcome");
	const fray_node *u0 = before(&a, mover), *u1 = after(&a, mover);
	if (!bool_at(u0, "disrupted")) {
		move_rows_seen[0]++;
		long b = int_at(u0, "bases") + (bool_at(o, "recover") ? 1 : 0);
		assert_int_equal(int_at(u1, "bases"), b < int_at(u0, "start_bases") ? b : int_at(u0, "start_bases"));
	} else if (!strcmp(str_at(o, "row"), "5,6")) {
		move_rows_seen[1]++;
		assert_false(bool_at(u1, "disrupted"));
	} else if (!strcmp(str_at(o, "row"), "0,1")) {
		move_rows_seen[2]++;
		assert_int_equal(int_at(u1, "bases"), int_at(u0, "bases") - 1);
	}
	acted_free(&a);
}

/* The game's phase moved on (next, phase NAME, turn): no dice. */
static void bbb_phase(fray_game *game, size_t n, const char *const *words)
{
	if (fray_game_act(game, n, words, NULL, NULL, NULL) != FRAY_OK)
		fail_msg("%s: %s", words[0], fray_ctx_message(ctx));
}

/* Each action in its phase (BBB Sequence of Play): the Union moves first
 * (its units are listed first): its Offensive Fire; then the
 * Confederate's turn (its movement, its Offensive Fire, its Assault) and
 * the Union's next (its movement). */
static void bbb_engagement(uint64_t seed)
{
	fray_game *game = new_game("bbb", seed, NULL, NULL);
	static const struct {
		const char *firer, *target, *range;
	} fires[] = {{"1st Brigade", "Georgia Brigade", "3"},
		     {"Iron Brigade", "Texas Brigade", "5"},
		     {"Battery B", "Stuart's Horse", "10"},
		     {"Texas Brigade", "Battery B", "3"}};
	bbb_phase(game, 2, (const char *const[]){"phase", "offensive-fire"});
	for (size_t i = 0; i < sizeof fires / sizeof *fires; i++) {
		if (i == 3) {
			/* the Confederate's turn: the Georgia Brigade, fired at,
			 * moves; then its Offensive Fire */
			bbb_phase(game, 1, (const char *const[]){"turn"});
			bbb_move(game, "Georgia Brigade");
			bbb_phase(game, 2, (const char *const[]){"phase", "offensive-fire"});
		}
		bbb_fire(game, fires[i].firer, fires[i].target, fires[i].range);
	}
	bbb_phase(game, 1, (const char *const[]){"next"});
	/* BBB Assault: the bases from the forces, each side's losses off,
	 * the defender Disrupted as the table says */
	acted a = act(game, "assault", "Texas Brigade", "--at", "1st Brigade", NULL);
	const fray_node *o = at(step(&a, 0), "outcome");
	assert_int_equal(int_at(step(&a, 0), "inputs/attacker_bases"), int_at(before(&a, "Texas Brigade"), "bases"));
	long att = int_at(before(&a, "Texas Brigade"), "bases") - int_at(o, "attacker_bases_lost");
	long def = int_at(before(&a, "1st Brigade"), "bases") - int_at(o, "defender_bases_lost");
	assert_int_equal(int_at(after(&a, "Texas Brigade"), "bases"), att > 0 ? att : 0);
	assert_int_equal(int_at(after(&a, "1st Brigade"), "bases"), def > 0 ? def : 0);
	assert_int_equal(bool_at(after(&a, "1st Brigade"), "disrupted"),
			 bool_at(before(&a, "1st Brigade"), "disrupted") || bool_at(o, "defender_disrupted"));
	acted_free(&a);
	/* the Union's turn: the Iron Brigade, not fired at, moves */
	bbb_phase(game, 1, (const char *const[]){"turn"});
	bbb_move(game, "Iron Brigade");
	fray_game_free(game);
}

static void bbb_engagements(void **state)
{
	(void)state;
	for (uint64_t seed = 1; seed <= SEEDS; seed++)
		bbb_engagement(seed);
	/* the seeds reach a miss, a letter and a base lost */
	assert_true(bbb_results_seen[6] > 0);
	assert_true(bbb_results_seen[0] + bbb_results_seen[1] + bbb_results_seen[2] > 0);
	assert_true(bbb_results_seen[3] + bbb_results_seen[4] + bbb_results_seen[5] > 0);
	assert_true(move_rows_seen[0] > 0 && move_rows_seen[1] + move_rows_seen[2] > 0);
}

/* ---- chits ---- */

static long hits_of(const fray_node *u)
{
	const fray_node *h = at(u, "hits");
	long sum = 0;
	for (size_t i = 0; i < fray_node_len(h); i++)
		sum += strtol(fray_node_scalar(fray_node_item(h, i)), NULL, 10);
	return sum;
}

static long hit_of(const fray_node *u, size_t battalion)
{
	return strtol(fray_node_scalar(fray_node_item(at(u, "hits"), battalion)), NULL, 10);
}

/* The dice rolled in a step (the events "roll"), and their sum; only
 * those whose "what" is what when what is not NULL. */
static int dice_of(const fray_node *st, const char *what, int *sum)
{
	const fray_node *ev = at(st, "events");
	int n = 0;
	*sum = 0;
	for (size_t i = 0; i < fray_node_len(ev); i++) {
		const fray_node *e = fray_node_item(ev, i);
		const fray_node *w = at(e, "what");
		if (strcmp(str_at(e, "event"), "roll") || (what && (!w || strcmp(fray_node_scalar(w), what))))
			continue;
		n++;
		*sum += (int)int_at(e, "value");
	}
	return n;
}

/* Worked example 1 of chit-combat.txt, its chits drawn in order (C01-C05
 * of the sample mix): D1 and D-1 cancel, A1 is the attacker's one hit on
 * its lead battalion, and the side with more hits takes the fatigue
 * point (C04) and the morale test (C05: the mix's 2d6 at most the morale
 * level; failed, the level goes down by one). */
static void chits_example_1(fray_game *game)
{
	acted a = act(game, "combat", "Bylant", "--at", "Karl Franz", "--tactic", "hasty", "--stance", "defend",
		      "--terrain", "village", "--attacker-cdr", "17", "--defender-cdr", "6", "--draw", "5", "--script",
		      "C01,C02,C03,C04,C05", NULL);
	const fray_node *b0 = before(&a, "Bylant"), *b1 = after(&a, "Bylant");
	static const long hits[] = {1, 0, 0, 0};
	for (size_t i = 0; i < 4; i++)
		assert_int_equal(hit_of(b1, i), hits[i]);
	assert_int_equal(int_at(b1, "fatigue"), int_at(b0, "fatigue") + 1);
	static const char *const fields[] = {"hits/0", "hits/1", "hits/2", "hits/3", "fatigue", "morale", "lead"};
	for (size_t i = 0; i < sizeof fields / sizeof *fields; i++) /* the defender untouched */
		assert_string_equal(str_at(before(&a, "Karl Franz"), fields[i]), str_at(after(&a, "Karl Franz"), fields[i]));
	int sum;
	assert_int_equal(dice_of(step(&a, 0), "morale test, Bylant", &sum), 2);
	long m0 = int_at(b0, "morale");
	assert_int_equal(int_at(b1, "morale"), sum <= m0 ? m0 : m0 - 1);
	acted_free(&a);
}

static int chits_retreats_seen;

/* Drawn combats: each side takes its hits less its retreats (ruling
 * R23), the first on the lead battalion, which takes a second before any
 * other battalion does (per combat: chits_second_hit_on_the_lead); the second retreat disorders the unit unless a
 * passed morale test removed it (example 3). Returns Lauder's hits as
 * its combat left them. */
static long chits_drawn(fray_game *game, uint64_t seed)
{
	static const struct {
		const char *attacker, *defender, *tactic, *stance, *terrain, *draw;
	} rows[] = {{"Hussars", "Uhlans", "cavalry-charge", "hold", "open", "3"},
		    {"Lauder", "Stein", "prepared", "defend", "woods", "6"},
		    {"Bylant", "Karl Franz", "hasty", "hold", "village", "4"}};
	long lauder = -1;
	char cdr[16];
	snprintf(cdr, sizeof cdr, "%d", (int)(5 + seed));
	for (size_t r = 0; r < sizeof rows / sizeof *rows; r++) {
		acted a = act(game, "combat", rows[r].attacker, "--at", rows[r].defender, "--tactic", rows[r].tactic,
			      "--stance", rows[r].stance, "--terrain", rows[r].terrain, "--attacker-cdr", cdr,
			      "--defender-cdr", "6", "--draw", rows[r].draw, NULL);
		const fray_node *o = at(step(&a, 0), "outcome");
		if (!strcmp(rows[r].attacker, "Lauder"))
			lauder = hits_of(after(&a, "Lauder"));
		const char *names[] = {rows[r].attacker, rows[r].defender}, *roles[] = {"attacker", "defender"};
		for (size_t s = 0; s < 2; s++) {
			const fray_node *u0 = before(&a, names[s]), *u1 = after(&a, names[s]);
			char key[64];
			snprintf(key, sizeof key, "%s_hits", roles[s]);
			long taken = int_at(o, key);
			snprintf(key, sizeof key, "%s_retreats", roles[s]);
			long retreats = int_at(o, key);
			taken -= retreats;
			chits_retreats_seen += retreats > 0;
			assert_int_equal(hits_of(u1), hits_of(u0) + taken);
			const fray_node *told = at(o, roles[s]);
			for (size_t b = 0; b < fray_node_len(at(u1, "hits")); b++)
				assert_int_equal(hit_of(u1, b), hit_of(told, b));
			/* this combat's hits: the first on the lead, which takes
			 * as many as any other battalion (R23, per combat) */
			size_t lead = (size_t)int_at(u0, "lead") - 1;
			long lead_took = hit_of(u1, lead) - hit_of(u0, lead);
			if (taken > 0)
				assert_true(lead_took > 0);
			for (size_t b = 0; b < fray_node_len(at(u1, "hits")); b++)
				assert_true(hit_of(u1, b) - hit_of(u0, b) <= lead_took);
			char passes[80];
			snprintf(passes, sizeof passes, "%s passes", names[s]);
			bool passed = false;
			const fray_node *ev = at(step(&a, 0), "events");
			for (size_t i = 0; i < fray_node_len(ev); i++) {
				const fray_node *t = at(fray_node_item(ev, i), "text");
				passed |= t && !strncmp(fray_node_scalar(t), passes, strlen(passes));
			}
			if (retreats >= 2 && !passed)
				assert_true(bool_at(u1, "disordered"));
		}
		acted_free(&a);
	}
	return lauder;
}

static int seconds_seen;

/* Ruling R23 (chit-combat.txt, allocating hits): the lead battalion takes
 * the first hit of a combat and a second before any other battalion takes
 * a second. Read per combat, as src/rules/chits/combat.c does (the text
 * speaks of allocating one combat's hits): after a combat, no battalion
 * has taken more of its hits than the lead. The Uhlans (2 battalions),
 * with no legal retreat, take every hit: of three, two are the lead's. */
static void chits_second_hit_on_the_lead(fray_game *game)
{
	set(game, "Uhlans", "hits=[0,0]");
	acted a = act(game, "combat", "Hussars", "--at", "Uhlans", "--tactic", "cavalry-charge", "--stance", "hold",
		      "--terrain", "open", "--attacker-cdr", "24", "--defender-cdr", "6", "--draw", "3", "--no-retreat",
		      NULL);
	const fray_node *o = at(step(&a, 0), "outcome"), *u1 = after(&a, "Uhlans");
	assert_int_equal(int_at(o, "defender_retreats"), 0);
	long taken = int_at(o, "defender_hits");
	assert_int_equal(hits_of(u1), taken);
	if (taken >= 3)
		seconds_seen++;
	assert_int_equal(hit_of(u1, 0), (taken + 1) / 2); /* the lead: the 1st, 3rd, 5th ... */
	acted_free(&a);
}

static int rally_passed, rally_failed;

static void chits_fight(uint64_t seed)
{
	fray_game *game = new_game("chits", seed, NULL, NULL);
	chits_example_1(game);
	long lauder = chits_drawn(game, seed);
	/* the end of the turn: one fatigue point off, a Rest order 1d3 more */
	set(game, "Stein", "fatigue=4");
	acted a = act(game, "end-turn", "Stein", "--rest", NULL);
	int rest;
	assert_int_equal(dice_of(step(&a, 0), NULL, &rest), 1);
	assert_true(rest >= 1 && rest <= 3);
	assert_int_equal(int_at(after(&a, "Stein"), "fatigue"), 4 - 1 - rest > 0 ? 4 - 1 - rest : 0);
	acted_free(&a);
	/* Rally/Recover: the mix's test (2d6 at most the morale level); a pass
	 * takes one hit off; the lead battalion may be switched only with no
	 * further casualties since the unit's combat (example 3) */
	set(game, "Lauder", "hits=[2,1,0]");
	a = act(game, "end-turn", "Lauder", "--rally", "--lead", "2", NULL);
	int sum;
	assert_int_equal(dice_of(step(&a, 0), NULL, &sum), 2);
	bool passed = sum <= int_at(before(&a, "Lauder"), "morale");
	passed ? rally_passed++ : rally_failed++;
	assert_int_equal(hits_of(after(&a, "Lauder")), 3 - (passed ? 1 : 0));
	bool further = hits_of(before(&a, "Lauder")) > lauder;
	assert_int_equal(int_at(after(&a, "Lauder"), "lead"), further ? int_at(before(&a, "Lauder"), "lead") : 2);
	acted_free(&a);
	/* the end of a unit's turn once a turn; the last hit never recovered */
	refused(game, "end-turn", "Lauder", "--rally", NULL);
	const char *turn[] = {"turn"};
	assert_int_equal(fray_game_act(game, 1, turn, NULL, NULL, NULL), FRAY_OK);
	set(game, "Lauder", "hits=[1,0,0]");
	a = act(game, "end-turn", "Lauder", "--rally", NULL);
	assert_int_equal(hits_of(after(&a, "Lauder")), 1);
	assert_int_equal(dice_of(step(&a, 0), NULL, &sum), 0);
	acted_free(&a);
	chits_second_hit_on_the_lead(game);
	/* refused: a tactic not in the mix; Defend in the open (ruling R29) */
	refused(game, "combat", "Hussars", "--at", "Uhlans", "--tactic", "charge", "--stance", "hold", "--terrain",
		"open", "--attacker-cdr", "9", "--defender-cdr", "8", "--draw", "3", NULL);
	refused(game, "combat", "Hussars", "--at", "Uhlans", "--tactic", "hasty", "--stance", "defend", "--terrain",
		"open", "--attacker-cdr", "9", "--defender-cdr", "8", "--draw", "3", NULL);
	fray_game_free(game);
}

static void chits_fights(void **state)
{
	(void)state;
	for (uint64_t seed = 1; seed <= SEEDS; seed++)
		chits_fight(seed);
	assert_true(chits_retreats_seen > 0 && seconds_seen > 0);
	assert_true(rally_passed > 0 && rally_failed > 0);
}

/* The sample mix with its tactic hasty renamed has"ty\ (a quote and a
 * backslash), served from memory. */
static fray_status quoted_mix(void *ud, fray_ctx *c, const char *path, fray_doc **out)
{
	(void)ud;
	size_t len;
	char *mix = slurp(path, &len), *q = malloc(len + 256);
	assert_non_null(q);
	char *at_hasty = strstr(mix, "  hasty:");
	assert_non_null(at_hasty);
	size_t head = (size_t)(at_hasty - mix);
	memcpy(q, mix, head);
	int n = snprintf(q + head, 64, "  'has\"ty\\':");
	strcpy(q + head + n, at_hasty + strlen("  hasty:"));
	/* and the chits' conditions that name it (a YAML double-quoted string) */
	for (char *p; (p = strstr(q, "tactic is hasty\""));) {
		static const char named[] = "tactic is has\\\"ty\\\\\"";
		memmove(p + strlen(named), p + strlen("tactic is hasty\""), strlen(p + strlen("tactic is hasty\"")) + 1);
		memcpy(p, named, strlen(named));
	}
	fray_status st = fray_doc_load_string(c, path, q, strlen(q), out);
	free(mix);
	free(q);
	return st;
}

/* A tactic's name from the mix goes into the game's text escaped and
 * reads back whole. */
static void chits_quoted_tactic(void **state)
{
	(void)state;
	fray_game *game = new_game("chits", 1, quoted_mix, NULL);
	const char *const words[] = {"combat", "Bylant", "--at", "Karl Franz", "--tactic", "has\"ty\\", "--stance",
				     "hold", "--terrain", "village", "--attacker-cdr", "9", "--defender-cdr", "6",
				     "--draw", "3"};
	char *events;
	if (fray_game_act(game, sizeof words / sizeof *words, words, NULL, "json", &events) != FRAY_OK)
		fail_msg("%s", fray_ctx_message(ctx));
	fray_doc *doc = parse(events);
	assert_string_equal(str_at(fray_doc_root(doc), "steps/0/inputs/tactic"), "has\"ty\\");
	fray_doc_free(doc);
	free(events);
	size_t len;
	char *bytes = bytes_of(game, &len);
	fray_game_free(game);
	assert_int_equal(fray_game_load(ctx, "game.yaml", bytes, len, &game), FRAY_OK);
	char *text;
	assert_int_equal(fray_game_log(game, "json", &text), FRAY_OK);
	doc = parse(text);
	assert_string_equal(str_at(fray_doc_root(doc), "0/inputs/tactic"), "has\"ty\\");
	fray_doc_free(doc);
	free(text);
	free(bytes);
	fray_game_free(game);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(presidio_skirmishes),
		cmocka_unit_test(bbb_engagements),
		cmocka_unit_test(chits_fights),
		cmocka_unit_test(chits_quoted_tactic),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
