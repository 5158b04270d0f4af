/* The game through include/fray/game.h, linked only against libfray
 * (issue 30 item 2): a Presidio charge (fear of charge, the reaction from
 * a policy, the impact, the melee, the morale checks) and a BBB assault,
 * each undone; after every step the game's bytes are compared with the
 * file `fray table` writes from the same game file, seed and action. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "../test_util.h"
#include "game_words.h"

static char dir[] = "/tmp/fray-test-game-XXXXXX";

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	char *buf = NULL;
	size_t cap = 0, n = 0, got;
	do {
		cap = cap ? 2 * cap : 65536;
		buf = realloc(buf, cap);
		assert_non_null(buf);
		got = fread(buf + n, 1, cap - n, f);
		n += got;
	} while (n == cap);
	fclose(f);
	*len = n;
	return buf;
}

/* Runs `fray table ARGS...` (each word single-quoted), expecting status 0. */
static void fray_table(const char *fmt, ...)
{
	char args[2048], cmd[4096];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(args, sizeof args, fmt, ap);
	va_end(ap);
	snprintf(cmd, sizeof cmd, "'%s' table %s >/dev/null", FRAY_BIN, args);
	if (system(cmd) != 0)
		fail_msg("failed: %s", cmd);
}

/* The game's bytes are the file's. */
static void same_as_file(const fray_game *game, const char *path)
{
	const char *bytes;
	size_t len, flen;
	assert_int_equal(fray_game_save(game, &bytes, &len), FRAY_OK);
	char *file = slurp(path, &flen);
	if (len != flen || memcmp(bytes, file, len) != 0)
		fail_msg("the game's %zu bytes differ from %s's %zu", len, path, flen);
	free(file);
}

static fray_game *load(const char *path)
{
	size_t len;
	char *text = slurp(path, &len);
	fray_game *game;
	if (fray_game_load(ctx, path, text, len, &game) != FRAY_OK)
		fail_msg("%s: %s", path, fray_ctx_message(ctx));
	free(text);
	return game;
}

/* A policy that answers every question with one label, and counts. */
typedef struct answer {
	const char *label;
	int asked;
	char kind[64];
} answer;

static size_t choose(void *self, const fray_choice *c, char *msg, size_t cap)
{
	(void)msg;
	(void)cap;
	answer *a = self;
	a->asked++;
	snprintf(a->kind, sizeof a->kind, "%s", c->kind);
	for (size_t i = 0; i < c->noptions; i++)
		if (!strcmp(c->options[i], a->label))
			return i;
	return FRAY_NO_ANSWER;
}

static const fray_policy_ops answer_ops = {.name = "answer", .choose = choose};

static int count(const char *s, const char *what)
{
	int n = 0;
	for (const char *p = s; (p = strstr(p, what)); p += strlen(what))
		n++;
	return n;
}

/* Section 5: fear of charge, the charge reaction (a policy's choice when
 * the defender passes), the impact with the defender's saved action,
 * then the melee morale checks; the same bytes as fray table's, undone. */
static void presidio_charge(void **state)
{
	(void)state;
	char path[128];
	int passed = 0;
	for (int seed = 1; seed <= 6; seed++) {
		snprintf(path, sizeof path, "%s/presidio-%d.yaml", dir, seed);
		fray_table("new '%s' --rules presidio --forces '%s/examples/presidio/forces.yaml' --seed %d", path,
			   FRAY_SOURCE_DIR, seed);
		fray_game *game = load(path);
		assert_string_equal(fray_game_rules(game), "presidio");
		assert_int_equal(fray_game_units(game), 4);
		size_t len0;
		const char *b0;
		assert_int_equal(fray_game_save(game, &b0, &len0), FRAY_OK);
		char *start = malloc(len0);
		memcpy(start, b0, len0);
		/* no reaction and no policy: refused, nothing changed */
		assert_int_equal(apply_words(game, "charge", "Apaches", "Presidials", 0, NULL, NULL, NULL),
				 FRAY_ERR_INPUT);
		fray_ctx_clear(ctx);
		same_as_file(game, path);
		/* the reaction from a policy: asked only when the defender passes */
		answer a = {.label = "melee"};
		fray_policy *policy = fray_policy_new(ctx, &answer_ops, &a);
		char *events;
		assert_int_equal(apply_words(game, "charge", "Apaches", "Presidials", 0, NULL, policy, &events), FRAY_OK);
		fray_policy_free(policy);
		/* fear of charge first: a morale check, charged */
		const char *fear = strstr(events, "\"procedure\": \"presidio.morale\"");
		assert_non_null(fear);
		assert_true(fear < strstr(events, "\"charged\": true"));
		if (a.asked) {
			assert_int_equal(a.asked, 1);
			assert_string_equal(a.kind, "presidio.charge_reaction");
			fray_table("'%s' charge Apaches --at Presidials --reaction melee", path);
			passed++;
			/* the impact, the defender striking back with its saved
			 * action, then the melee morale checks */
			assert_int_equal(count(events, "\"procedure\": \"presidio.melee\""), 1);
			assert_non_null(strstr(events, "\"both\": true"));
			assert_true(count(events, "\"procedure\": \"presidio.morale\"") >= 1);
		} else {
			/* not asked (the defender failed): fray table, given no
			 * terminal, takes the reaction as an option, and its log
			 * says so: the same action given the option */
			free(events);
			assert_int_equal(fray_game_undo(game), FRAY_OK);
			const char *opt[] = {"--reaction", "melee"};
			assert_int_equal(apply_words(game, "charge", "Apaches", "Presidials", 2, opt, NULL, &events),
					 FRAY_OK);
			fray_table("'%s' charge Apaches --at Presidials --reaction melee", path);
		}
		same_as_file(game, path);
		free(events);
		/* undone: the file as it was, as fray table undoes it */
		assert_int_equal(fray_game_undo(game), FRAY_OK);
		fray_table("'%s' undo", path);
		same_as_file(game, path);
		const char *b1;
		size_t len1;
		assert_int_equal(fray_game_save(game, &b1, &len1), FRAY_OK);
		assert_true(len1 == len0 && !memcmp(b1, start, len0));
		free(start);
		fray_game_free(game);
		unlink(path);
	}
	/* the seeds reach a defender that passed and chose its reaction */
	assert_true(passed > 0);
}

/* BBB Assault (G6's default dice, R20's re-fights): bases and markers as
 * fray table leaves them; the turn's end; undone. */
static void bbb_assault(void **state)
{
	(void)state;
	char path[128];
	snprintf(path, sizeof path, "%s/bbb.yaml", dir);
	fray_table("new '%s' --rules bbb --forces '%s/examples/bbb/forces.yaml' --seed 11", path, FRAY_SOURCE_DIR);
	fray_game *game = load(path);
	char *events;
	/* the Confederate's Assault (BBB Sequence of Play: the game's phase) */
	const char *confederate[] = {"--moving", "Confederate"};
	assert_int_equal(apply_words(game, "phase", "assault", NULL, 2, confederate, NULL, NULL), FRAY_OK);
	fray_table("'%s' phase assault --moving Confederate", path);
	assert_int_equal(apply_words(game, "assault", "Texas Brigade", "1st Brigade", 0, NULL, NULL, &events), FRAY_OK);
	assert_non_null(strstr(events, "\"procedure\": \"bbb.assault\""));
	free(events);
	fray_table("'%s' assault 'Texas Brigade' --at '1st Brigade'", path);
	same_as_file(game, path);
	assert_int_equal(apply_words(game, "turn", NULL, NULL, 0, NULL, NULL, NULL), FRAY_OK);
	fray_table("'%s' turn", path);
	same_as_file(game, path);
	/* the Confederates moved first in turn 1 (the players' word): the
	 * Union's turn that follows is turn 1's second half (BBB Sequence of
	 * Play Summary: a game turn is both players' turns) */
	assert_int_equal(fray_game_turn(game), 1);
	for (int i = 0; i < 2; i++) {
		assert_int_equal(fray_game_undo(game), FRAY_OK);
		fray_table("'%s' undo", path);
		same_as_file(game, path);
	}
	/* an unknown option is refused and changes nothing */
	const char *bad[] = {"--no-such-option"};
	assert_int_equal(apply_words(game, "assault", "Texas Brigade", "1st Brigade", 1, bad, NULL, NULL),
			 FRAY_ERR_INPUT);
	assert_non_null(strstr(fray_ctx_message(ctx), "unknown option"));
	fray_ctx_clear(ctx);
	same_as_file(game, path);
	fray_game_free(game);
	unlink(path);
}

/* The actions a unit may take now, as the rules say: a panicked Presidio
 * unit neither shoots nor charges, and rallies (Section 2, Section 7). */
static void actions_by_standing(void **state)
{
	(void)state;
	char path[128];
	snprintf(path, sizeof path, "%s/actions.yaml", dir);
	fray_table("new '%s' --rules presidio --forces '%s/examples/presidio/forces.yaml' --seed 1", path,
		   FRAY_SOURCE_DIR);
	fray_game *game = load(path);
	const char *names[16];
	size_t n = fray_game_actions(game, 2, names, 16);
	bool shoot = false, rally = false;
	for (size_t i = 0; i < n; i++) {
		shoot |= !strcmp(names[i], "shoot");
		rally |= !strcmp(names[i], "rally");
	}
	assert_true(shoot && !rally);
	const char *set[] = {"status=panicked"};
	assert_int_equal(apply_words(game, "set", fray_game_unit(game, 2), NULL, 1, set, NULL, NULL), FRAY_OK);
	n = fray_game_actions(game, 2, names, 16);
	shoot = rally = false;
	for (size_t i = 0; i < n; i++) {
		shoot |= !strcmp(names[i], "shoot") || !strcmp(names[i], "charge");
		rally |= !strcmp(names[i], "rally");
	}
	assert_true(!shoot && rally);
	/* the game as a page (fray report --html): its forces, escaped */
	char *html;
	assert_int_equal(fray_game_report_html(game, "body {}", &html), FRAY_OK);
	assert_non_null(strstr(html, "<!DOCTYPE html>"));
	assert_non_null(strstr(html, "body {}"));
	assert_non_null(strstr(html, fray_game_unit(game, 2)));
	free(html);
	fray_game_free(game);
	unlink(path);
}

/* Issue 28's actions through the API. Section 4, Independent Fire: two
 * consecutive actions rolled together, one morale check after both;
 * Section 5, Pursuit: a panicked unit caught surrenders, with no dice. */
static void presidio_two_actions_and_pursuit(void **state)
{
	(void)state;
	char path[128];
	snprintf(path, sizeof path, "%s/issue28.yaml", dir);
	fray_table("new '%s' --rules presidio --forces '%s/examples/presidio/forces.yaml' --seed 4", path,
		   FRAY_SOURCE_DIR);
	fray_game *game = load(path);
	const char *two[] = {"--range", "10", "--actions", "2"};
	char *events;
	assert_int_equal(apply_words(game, "shoot", "Presidials", "Apaches", 4, two, NULL, &events), FRAY_OK);
	/* "roll all the dice (for both actions) at the same time": one roll */
	assert_int_equal(count(events, "\"procedure\": \"presidio.shoot\""), 1);
	int checks = count(events, "\"procedure\": \"presidio.morale\"");
	assert_true(checks <= 1);
	if (checks) /* after the roll */
		assert_true(strstr(events, "\"presidio.morale\"") > strstr(events, "\"presidio.shoot\""));
	free(events);
	fray_table("'%s' shoot Presidials --at Apaches --range 10 --actions 2", path);
	same_as_file(game, path);
	/* two actions of a volley: refused, nothing changed */
	const char *volley[] = {"--range", "10", "--actions", "2", "--mode", "volley"};
	assert_int_equal(apply_words(game, "shoot", "Cueras", "Apaches", 6, volley, NULL, NULL), FRAY_ERR_INPUT);
	fray_ctx_clear(ctx);
	same_as_file(game, path);
	/* pursuit of a panicked unit: it surrenders */
	const char *panicked[] = {"status=panicked"};
	assert_int_equal(apply_words(game, "set", "Comanches", NULL, 1, panicked, NULL, NULL), FRAY_OK);
	/* only the enemy it broke contact with pursues it (Section 5): not
	 * yet, then as the game keeps it */
	assert_int_equal(apply_words(game, "pursue", "Cueras", "Comanches", 0, NULL, NULL, NULL), FRAY_ERR_INPUT);
	assert_non_null(strstr(fray_ctx_message(ctx), "Pursuit"));
	fray_ctx_clear(ctx);
	const char *broke[] = {"may_pursue=Comanches"};
	assert_int_equal(apply_words(game, "set", "Cueras", NULL, 1, broke, NULL, NULL), FRAY_OK);
	assert_int_equal(apply_words(game, "pursue", "Cueras", "Comanches", 0, NULL, NULL, &events), FRAY_OK);
	assert_non_null(strstr(events, "\"steps\": []"));
	assert_non_null(strstr(events, "Comanches: surrendered"));
	free(events);
	fray_table("'%s' set Comanches status=panicked", path);
	fray_table("'%s' set Cueras may_pursue=Comanches", path);
	fray_table("'%s' pursue Cueras --at Comanches", path);
	same_as_file(game, path);
	/* out of the fight: no action left to it */
	const char *names[16];
	assert_int_equal(fray_game_actions(game, 3, names, 16), 0);
	fray_game_free(game);
	unlink(path);
}

/* BBB Silenced Artillery: a gun given Low Ammo instead of Silenced may
 * not fire; the refusal is the rules' (fray_bbb_fire_refused). */
static void bbb_low_ammo_instead(void **state)
{
	(void)state;
	char path[128];
	snprintf(path, sizeof path, "%s/guns.yaml", dir);
	fray_table("new '%s' --rules bbb --forces '%s/examples/bbb/forces.yaml' --seed 2", path, FRAY_SOURCE_DIR);
	fray_game *game = load(path);
	const char *held[] = {"low_ammo_instead=true"};
	assert_int_equal(apply_words(game, "set", "Battery B", NULL, 1, held, NULL, NULL), FRAY_OK);
	/* the Union's Offensive Fire: the gun's fire is refused for its marker */
	assert_int_equal(apply_words(game, "phase", "offensive-fire", NULL, 0, NULL, NULL, NULL), FRAY_OK);
	const char *names[16];
	size_t n = fray_game_actions(game, 2, names, 16);
	for (size_t i = 0; i < n; i++)
		assert_string_not_equal(names[i], "fire");
	const char *range[] = {"--range", "6"};
	assert_int_equal(apply_words(game, "fire", "Battery B", "Texas Brigade", 2, range, NULL, NULL),
			 FRAY_ERR_INPUT);
	assert_non_null(strstr(fray_ctx_message(ctx), "Low Ammo instead of Silenced"));
	fray_ctx_clear(ctx);
	fray_game_free(game);
	unlink(path);
}

/* A new Presidio game at path from the example forces, loaded. */
static fray_game *presidio_game(const char *path, int seed)
{
	fray_table("new '%s' --rules presidio --forces '%s/examples/presidio/forces.yaml' --seed %d", path,
		   FRAY_SOURCE_DIR, seed);
	return load(path);
}

/* Applies `set UNIT KEY=VALUE`, expecting it to hold. */
static void set_field(fray_game *game, const char *unit, const char *field)
{
	const char *opt[] = {field};
	if (apply_words(game, "set", unit, NULL, 1, opt, NULL, NULL) != FRAY_OK)
		fail_msg("set %s %s: %s", unit, field, fray_ctx_message(ctx));
}

/* The JSON of the k-th step (0-based) of procedure proc in events, up to
 * the next step: a copy, free() it; NULL when there is none. */
static char *step_of(const char *events, const char *proc, int k)
{
	char key[80];
	snprintf(key, sizeof key, "{\"procedure\": \"%s\"", proc);
	const char *p = strstr(events, key);
	for (int i = 0; p && i < k; i++)
		p = strstr(p + 1, key);
	if (!p)
		return NULL;
	const char *end = strstr(p + 1, "{\"procedure\": ");
	size_t n = end ? (size_t)(end - p) : strlen(p);
	char *s = malloc(n + 1);
	memcpy(s, p, n);
	s[n] = 0;
	return s;
}

/* Section 3, Disorder: "Light and Skirmish units can only move and shoot
 * half". The Apaches, 10 figures with metal bows (Section 10: reload 1),
 * fire 10 / 1 = 10 figures a time (ruling R14); disordered and light (or
 * skirmish), half of that, 5; disordered but neither, all 10. The game
 * file keeps the designation (default other) and checks it. */
static void presidio_designation(void **state)
{
	(void)state;
	char path[128];
	snprintf(path, sizeof path, "%s/designation.yaml", dir);
	fray_game *game = presidio_game(path, 1);
	const char *bad[] = {"designation=heavy"};
	assert_int_equal(apply_words(game, "set", "Apaches", NULL, 1, bad, NULL, NULL), FRAY_ERR_INPUT);
	assert_non_null(strstr(fray_ctx_message(ctx), "designation"));
	fray_ctx_clear(ctx);
	set_field(game, "Apaches", "status=disordered");
	static const struct {
		const char *designation;
		const char *dice;
	} rows[] = {{"designation=light", "\"dice\": \"5d12 needing"}, {"designation=skirmish", "\"dice\": \"5d12 needing"},
		    {"designation=other", "\"dice\": \"10d12 needing"}};
	const char *range[] = {"--range", "10"};
	for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
		set_field(game, "Apaches", rows[i].designation);
		char *events;
		assert_int_equal(apply_words(game, "shoot", "Apaches", "Presidials", 2, range, NULL, &events), FRAY_OK);
		char *shot = step_of(events, "presidio.shoot", 0);
		assert_non_null(shot);
		assert_non_null(strstr(shot, "\"standing\": \"disordered\""));
		if (!strstr(shot, rows[i].dice))
			fail_msg("%s: expected %s in %s", rows[i].designation, rows[i].dice, shot);
		free(shot);
		free(events);
		assert_int_equal(fray_game_undo(game), FRAY_OK);
	}
	fray_game_free(game);
	unlink(path);
}

/* Section 6, Hits (ruling R15), in melee: both units' specialty figures
 * and leaders go to the procedure (the attackers' when the defenders
 * strike back, --both); a leader hit leaves the unit, and its melee morale
 * check has no leader bonus and the leader-casualty DM (Section 7), as
 * after a shot. The Apaches, 6 figures of which 4 specialty figures (its
 * leader the first), are a squad: its casualty die is a d12 (Section 6). */
static void presidio_melee_specialists(void **state)
{
	(void)state;
	char path[128];
	int leader_hits = 0;
	for (int seed = 1; seed <= 40 && leader_hits < 2; seed++) {
		snprintf(path, sizeof path, "%s/melee-%d.yaml", dir, seed);
		fray_game *game = presidio_game(path, seed);
		set_field(game, "Apaches", "figures=6");
		set_field(game, "Apaches", "specialists=4");
		set_field(game, "Apaches", "size=squad"); /* its morale check told apart by it */
		set_field(game, "Presidials", "contact=Apaches"); /* melee is in base contact (Section 5) */
		const char *both[] = {"--both"};
		char *events;
		assert_int_equal(apply_words(game, "melee", "Presidials", "Apaches", 1, both, NULL, &events), FRAY_OK);
		char *melee = step_of(events, "presidio.melee", 0);
		assert_non_null(melee);
		/* the defenders' (Apaches) and, striking back, the attackers'
		 * (Presidials: 2 specialty figures, an alferez leading) */
		assert_non_null(strstr(melee, "\"defender_specialists\": 4, \"defender_leader\": true, "
					      "\"defender_unit_figures\": 6"));
		assert_non_null(strstr(melee, "\"specialists\": 2, \"leader\": true, \"unit_figures\": 12"));
		bool hit = strstr(melee, "\"leader_hit\": true") != NULL;
		assert_true(hit == (strstr(events, "Apaches: its leader is a casualty") != NULL));
		/* the Apaches' check after the melee: it lost figures and has
		 * some left (Melee Morale Checks) */
		char *check = step_of(events, "presidio.morale", 0);
		if (hit && check && strstr(check, "\"size\": \"squad\"")) {
			leader_hits++;
			assert_non_null(strstr(check, "\"leader\": 0,"));
			assert_non_null(strstr(check, "\"leader_casualty\": true"));
		}
		free(check);
		free(melee);
		free(events);
		fray_game_free(game);
		unlink(path);
	}
	assert_int_equal(leader_hits, 2);
}

/* Section 4, Independent Fire: two actions' dice rolled at once. The
 * casualty die is the target unit's when the dice are rolled: the
 * Apaches, 10 figures, a platoon (Section 6: "Platoon (10-15 figures)
 * ... 1D20"), keep the d20 for every casualty of the two actions though
 * the first casualties leave them 9 or fewer (a squad's d12 had the die
 * been resized). */
static void presidio_two_actions_casualty_die(void **state)
{
	(void)state;
	char path[128];
	int reached = 0;
	for (int seed = 1; seed <= 60 && reached < 2; seed++) {
		snprintf(path, sizeof path, "%s/two-%d.yaml", dir, seed);
		fray_game *game = presidio_game(path, seed);
		set_field(game, "Apaches", "specialists=9");
		const char *two[] = {"--range", "3", "--actions", "2"};
		char *events;
		assert_int_equal(apply_words(game, "shoot", "Presidials", "Apaches", 4, two, NULL, &events), FRAY_OK);
		char *shot = step_of(events, "presidio.shoot", 0);
		assert_null(step_of(events, "presidio.shoot", 1));
		int dice = shot ? count(shot, "\"casualty die\"") : 0;
		if (dice >= 2) {
			reached++;
			if (count(shot, "\"dice\": \"d20\"") != dice || strstr(shot, "\"dice\": \"d12\""))
				fail_msg("seed %d: a casualty die is not the platoon's d20: %s", seed, shot);
		}
		free(shot);
		free(events);
		fray_game_free(game);
		unlink(path);
	}
	assert_int_equal(reached, 2);
}

/* A catalogue call's exact odds as JSON, its inputs given as option and
 * value pairs (a flag's value NULL): malloc'd. */
static char *odds_of(const char *procedure, const char *const *opts, size_t n)
{
	fray_call *c = fray_call_new(ctx, procedure);
	assert_non_null(c);
	for (size_t i = 0; i < n; i += 2) {
		int k = fray_call_input_index(c, opts[i]);
		if (k < 0)
			fail_msg("%s has no %s", procedure, opts[i]);
		if (fray_call_set(c, (size_t)k, opts[i + 1]) != FRAY_OK)
			fail_msg("%s %s: %s", opts[i], opts[i + 1], fray_ctx_message(ctx));
	}
	fray_call_opts o = {.mode = FRAY_MODE_ODDS, .json = true};
	char *out = NULL;
	if (fray_call_run(c, &o, &out) != FRAY_OK)
		fail_msg("%s: %s", procedure, fray_ctx_message(ctx));
	fray_call_free(c);
	return out;
}

/* Issue 30: an action's odds from the game as it stands are its first
 * procedure's odds with the inputs the test builds from the units'
 * fields (set here, so the test knows them); nothing is rolled or
 * written. A shot: the Presidials (12 figures, flintlock musket, ranged
 * 2, their leader among 2 specialty figures, loaded) at the Apaches (10
 * figures, armor 1, no specialists) 10" away; a charge: the
 * Comanches' fear-of-charge check (veteran squad, leader 1, charged). */
static void presidio_odds(void **state)
{
	(void)state;
	char path[128];
	snprintf(path, sizeof path, "%s/odds.yaml", dir);
	fray_game *game = presidio_game(path, 5);
	set_field(game, "Presidials", "ranged=2");
	set_field(game, "Apaches", "armor=1");
	set_field(game, "Comanches", "morale=veteran");
	const char *b0;
	size_t len0;
	assert_int_equal(fray_game_save(game, &b0, &len0), FRAY_OK);
	char *start = malloc(len0);
	memcpy(start, b0, len0);
	const char *range[] = {"--range", "10"};
	char *got;
	assert_int_equal(odds_words(game, "shoot", "Presidials", "Apaches", 2, range, true, &got), FRAY_OK);
	static const char *const shoot[] = {"--weapon", "flintlock musket", "--figures", "12", "--skill", "2",
					    "--range", "10", "--armor", "1", "--target-figures", "10",
					    "--specialists", "0", "--leaders", "2", "--standing", "good",
					    "--designation", "other", "--reload-left", "0", "--target-standing", "good"};
	char *want = odds_of("presidio.shoot", shoot, sizeof shoot / sizeof *shoot);
	assert_string_equal(got, want);
	free(got);
	free(want);
	assert_int_equal(odds_words(game, "charge", "Cueras", "Comanches", 0, NULL, true, &got), FRAY_OK);
	static const char *const fear[] = {"--level", "veteran", "--size", "squad", "--casualties", "0",
					   "--leader", "1", "--standing", "good", "--charged", NULL};
	want = odds_of("presidio.morale", fear, sizeof fear / sizeof *fear);
	assert_string_equal(got, want);
	free(got);
	free(want);
	/* an action without dice has no odds */
	const char *panicked[] = {"status=panicked"};
	assert_int_equal(apply_words(game, "set", "Comanches", NULL, 1, panicked, NULL, NULL), FRAY_OK);
	assert_int_equal(fray_game_undo(game), FRAY_OK);
	const char *b1;
	size_t len1;
	assert_int_equal(fray_game_save(game, &b1, &len1), FRAY_OK);
	assert_true(len1 == len0 && !memcmp(b1, start, len0));
	assert_int_equal(odds_words(game, "set", "Comanches", NULL, 1, panicked, false, &got), FRAY_ERR_INPUT);
	assert_null(got);
	fray_ctx_clear(ctx);
	/* nothing changed by the odds */
	assert_int_equal(fray_game_save(game, &b1, &len1), FRAY_OK);
	assert_true(len1 == len0 && !memcmp(b1, start, len0));
	free(start);
	fray_game_free(game);
	unlink(path);
}

/* What `fray table ARGS` prints: malloc'd. */
static char *fray_table_output(const char *args)
{
	char cmd[1024];
	snprintf(cmd, sizeof cmd, "'%s' table %s", FRAY_BIN, args);
	FILE *p = popen(cmd, "r");
	assert_non_null(p);
	size_t cap = 1 << 16, n = 0, got;
	char *buf = malloc(cap);
	while ((got = fread(buf + n, 1, cap - 1 - n, p)) > 0) {
		n += got;
		if (n == cap - 1)
			buf = realloc(buf, cap *= 2);
	}
	buf[n] = 0;
	assert_int_equal(pclose(p), 0);
	return buf;
}

/* The forces and the log through the API are what fray table prints. */
static void status_and_log(void **state)
{
	(void)state;
	char path[128], args[256];
	snprintf(path, sizeof path, "%s/status.yaml", dir);
	fray_game *game = presidio_game(path, 9);
	const char *range[] = {"--range", "10"};
	assert_int_equal(apply_words(game, "shoot", "Presidials", "Apaches", 2, range, NULL, NULL), FRAY_OK);
	fray_table("'%s' shoot Presidials --at Apaches --range 10", path);
	static const struct {
		bool log;
		const char *format, *flag;
	} rows[] = {{false, "text", ""}, {false, "json", " --json"}, {true, "text", ""}, {true, "json", " --json"},
		    {true, "markdown", " --markdown"}};
	for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
		char *got;
		assert_int_equal((rows[i].log ? fray_game_log : fray_game_status)(game, rows[i].format, &got), FRAY_OK);
		snprintf(args, sizeof args, "'%s' %s%s", path, rows[i].log ? "log" : "status", rows[i].flag);
		char *want = fray_table_output(args);
		assert_string_equal(got, want);
		free(got);
		free(want);
	}
	char *got;
	assert_int_equal(fray_game_log(game, "yaml", &got), FRAY_ERR_INPUT);
	assert_null(got);
	fray_ctx_clear(ctx);
	fray_game_free(game);
	unlink(path);
}

/* An open function whose every file is broken. */
static fray_status open_none(void *ud, fray_ctx *c, const char *path, fray_doc **out)
{
	++*(int *)ud;
	return fray_doc_load_string(c, path, "{", 1, out); /* not YAML: the file's problem said at it */
}

/* fray_game_new makes the bytes `fray table new` writes, for each rule
 * set (Presidio's forces name a units_file, chits' a mix: both read). */
static void new_game(void **state)
{
	(void)state;
	static const char *const rules[] = {"presidio", "bbb", "chits"};
	for (size_t i = 0; i < 3; i++) {
		char path[128], forces[512];
		snprintf(path, sizeof path, "%s/new-%s.yaml", dir, rules[i]);
		snprintf(forces, sizeof forces, "%s/examples/%s/forces.yaml", FRAY_SOURCE_DIR, rules[i]);
		fray_table("new '%s' --rules %s --forces '%s' --seed %zu", path, rules[i], forces, 40 + i);
		size_t len;
		char *text = slurp(forces, &len);
		fray_game *game;
		if (fray_game_new(ctx, path, rules[i], forces, text, len, 40 + i, NULL, NULL, &game) != FRAY_OK)
			fail_msg("%s: %s", rules[i], fray_ctx_message(ctx));
		same_as_file(game, path);
		assert_string_equal(fray_game_rules(game), rules[i]);
		assert_int_equal(fray_game_turn(game), 1);
		fray_game_free(game);
		/* the files it names go through open: refused there, refused here */
		int opened = 0;
		fray_status st = fray_game_new(ctx, path, rules[i], forces, text, len, 1, open_none, &opened, &game);
		assert_int_equal(st, i == 1 ? FRAY_OK : FRAY_ERR_INPUT); /* BBB's forces name no file */
		assert_int_equal(opened, i == 1 ? 0 : 1);
		if (i != 1)
			assert_non_null(strstr(fray_ctx_message(ctx), i == 0 ? "units.yaml:" : "sample-mix.yaml:"));
		fray_game_free(game);
		fray_ctx_clear(ctx);
		free(text);
		unlink(path);
	}
	fray_game *game = (fray_game *)&game;
	assert_int_equal(fray_game_new(ctx, "g.yaml", "adbg", "f.yaml", "units: []\n", 10, 1, NULL, NULL, &game),
			 FRAY_ERR_INPUT);
	assert_null(game);
	assert_non_null(strstr(fray_ctx_message(ctx), "rules: expected presidio, bbb or chits"));
	/* the forces file's problems name it, its line and column */
	static const char bad[] = "units:\n  - name: A\n    figures: many\n"; /* and no side */
	assert_int_equal(fray_game_new(ctx, "g.yaml", "presidio", "mine.yaml", bad, sizeof bad - 1, 1, NULL, NULL,
				       &game), FRAY_ERR_INPUT);
	assert_non_null(strstr(fray_ctx_message(ctx), "mine.yaml:2:5: missing 'side'"));
	fray_ctx_clear(ctx);
}

/* The shell's door: the action as fray table's words, its story as fray
 * table prints it, the log's entries and the command undo takes back. */
static void act_words(void **state)
{
	(void)state;
	char path[128], args[256];
	snprintf(path, sizeof path, "%s/words.yaml", dir);
	fray_game *game = presidio_game(path, 12);
	assert_int_equal(fray_game_log_len(game), 0);
	assert_null(fray_game_log_command(game, 0));
	const char *const words[] = {"shoot", "Presidials", "--at", "Apaches", "--range", "10"};
	char *got;
	assert_int_equal(fray_game_act(game, 6, words, NULL, "text", &got), FRAY_OK);
	snprintf(args, sizeof args, "'%s' shoot Presidials --at Apaches --range 10", path);
	char *want = fray_table_output(args);
	assert_string_equal(got, want);
	same_as_file(game, path);
	free(got);
	free(want);
	assert_int_equal(fray_game_log_len(game), 1);
	assert_string_equal(fray_game_log_command(game, 0), "shoot Presidials --at Apaches --range 10");
	/* odds by words are fray_game_odds' */
	const char *const range[] = {"--range", "10"};
	char *by_words, *by_parts;
	assert_int_equal(fray_game_act_odds(game, 6, words, true, &by_words), FRAY_OK);
	assert_int_equal(odds_words(game, "shoot", "Presidials", "Apaches", 2, range, true, &by_parts), FRAY_OK);
	assert_string_equal(by_words, by_parts);
	free(by_words);
	free(by_parts);
	/* a format of neither kind is refused, the game as it was */
	assert_int_equal(fray_game_act(game, 6, words, NULL, "yaml", &got), FRAY_ERR_INPUT);
	assert_null(got);
	fray_ctx_clear(ctx);
	assert_int_equal(fray_game_undo(game), FRAY_OK);
	assert_int_equal(fray_game_log_len(game), 0);
	fray_game_free(game);
	unlink(path);
}

/* An option given twice is refused, naming it, whichever way it is
 * written, and the game is left as it was: `--range 6 --range 7` was read
 * as 6 by one step and logged with both */
/* The rule sets a game plays, as the command line's --rules offers them:
 * the three with a game layer (docs/table.md), then NULL. */
static void rule_sets_listed(void **state)
{
	(void)state;
	static const char *const want[] = {"presidio", "bbb", "chits"};
	for (size_t i = 0; i < 3; i++)
		assert_string_equal(fray_game_rule_set(i), want[i]);
	assert_null(fray_game_rule_set(3));
	assert_null(fray_game_rule_set((size_t)-1));
}

static void option_given_twice(void **state)
{
	(void)state;
	char path[128];
	snprintf(path, sizeof path, "%s/twice.yaml", dir);
	fray_game *game = presidio_game(path, 3);
	const char *const twice[][4] = {
		{"--range", "6", "--range", "7"},
		{"--range=6", "--range", "7", "--range"},
		{"--range", "6", "--range=6", NULL},
	};
	const size_t n[] = {4, 4, 3};
	for (size_t i = 0; i < 3; i++) {
		fray_ctx_clear(ctx);
		char *events = NULL;
		assert_int_equal(apply_words(game, "shoot", "Presidials", "Apaches", n[i], twice[i], NULL, &events),
				 FRAY_ERR_INPUT);
		assert_null(events);
		assert_non_null(strstr(fray_ctx_message(ctx), "option --range given twice"));
		char *odds = NULL;
		fray_ctx_clear(ctx);
		assert_int_equal(odds_words(game, "shoot", "Presidials", "Apaches", n[i], twice[i], true, &odds),
				 FRAY_ERR_INPUT);
		assert_null(odds);
		assert_non_null(strstr(fray_ctx_message(ctx), "option --range given twice"));
	}
	assert_int_equal(fray_game_log_len(game), 0);
	same_as_file(game, path);
	/* --at given twice, by words */
	const char *const words[] = {"shoot", "Presidials", "--at", "Apaches", "--at", "Comanches", "--range", "10"};
	char *got = NULL;
	fray_ctx_clear(ctx);
	assert_int_equal(fray_game_act(game, 8, words, NULL, "text", &got), FRAY_ERR_INPUT);
	assert_non_null(strstr(fray_ctx_message(ctx), "option --at given twice"));
	fray_ctx_clear(ctx);
	/* once each is still fine */
	const char *const once[] = {"--range", "10"};
	assert_int_equal(apply_words(game, "shoot", "Presidials", "Apaches", 2, once, NULL, NULL), FRAY_OK);
	fray_game_free(game);
	unlink(path);
}

static int make_dir(void **state)
{
	(void)state;
	return setup(state) || !mkdtemp(dir);
}

static int remove_dir(void **state)
{
	rmdir(dir);
	return teardown(state);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(new_game),
		cmocka_unit_test(presidio_charge),
		cmocka_unit_test(bbb_assault),
		cmocka_unit_test(actions_by_standing),
		cmocka_unit_test(presidio_two_actions_and_pursuit),
		cmocka_unit_test(bbb_low_ammo_instead),
		cmocka_unit_test(presidio_designation),
		cmocka_unit_test(presidio_melee_specialists),
		cmocka_unit_test(presidio_two_actions_casualty_die),
		cmocka_unit_test(presidio_odds),
		cmocka_unit_test(status_and_log),
		cmocka_unit_test(act_words),
		cmocka_unit_test(option_given_twice),
		cmocka_unit_test(rule_sets_listed),
	};
	return cmocka_run_group_tests(tests, make_dir, remove_dir);
}
