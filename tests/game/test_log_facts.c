/* A log entry keeps the typed facts a later rule reads (issue 42): a
 * Presidio shot's actor, target, fire mode and shooting actions, which
 * decide whether the next shot is the second action of the same sequence
 * (Section 4, Independent Fire; Section 7: two actions of independent
 * fire at one target are one roll and one morale check). The game reads
 * the facts, not the command's words; a game file an older fray wrote
 * (entries with only the command: tests/game/old-shot.yaml, written by
 * fray at fb4f24a) still loads and plays the same. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include "../test_util.h"

static char *slurp(const char *name, size_t *len)
{
	char path[512];
	snprintf(path, sizeof path, "%s/tests/game/%s", FRAY_SOURCE_DIR, name);
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	static char buf[1 << 20];
	*len = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[*len] = '\0';
	return strdup(buf);
}

static fray_game *load_text(const char *text)
{
	fray_game *game;
	if (fray_game_load(ctx, "facts.yaml", text, strlen(text), &game) != FRAY_OK)
		fail_msg("load: %s", fray_ctx_message(ctx));
	return game;
}

/* The Apaches' second one-action shot at the Presidials. */
static fray_status second_shot(fray_game *game, bool held)
{
	const char *w[] = {"shoot", "Apaches", "--at", "Presidials", "--range", "8", "--held"};
	fray_ctx_clear(ctx);
	return fray_game_act(game, held ? 7 : 6, w, NULL, NULL, NULL);
}

/* text without its lines that start with "    facts: " */
static char *without_facts(const char *text, size_t len)
{
	char *out = malloc(len + 1), *o = out;
	for (const char *p = text; p < text + len;) {
		const char *nl = memchr(p, '\n', (size_t)(text + len - p));
		size_t n = nl ? (size_t)(nl - p) + 1 : (size_t)(text + len - p);
		if (strncmp(p, "    facts: ", 11) != 0) {
			memcpy(o, p, n);
			o += n;
		}
		p += n;
	}
	*o = '\0';
	return out;
}

/* An older fray's file: the shot before is read from its command's
 * words; the refusal and the held shot are the old fray's, byte for byte
 * but the new entry's facts. */
static void old_file_plays_the_same(void **state)
{
	(void)state;
	size_t len, held_len;
	char *old = slurp("old-shot.yaml", &len), *held = slurp("old-shot-held.yaml", &held_len);
	assert_null(strstr(old, "facts:"));
	fray_game *game = load_text(old);
	assert_int_equal(second_shot(game, false), FRAY_ERR_INPUT);
	assert_non_null(strstr(fray_ctx_message(ctx), "Apaches shot at Presidials just before"));
	assert_int_equal(second_shot(game, true), FRAY_OK);
	const char *now;
	fray_game_save(game, &now, &len);
	char *plain = without_facts(now, len);
	assert_string_equal(plain, held);
	/* and the new entry has its facts */
	assert_non_null(strstr(now, "    facts: {\"action\": \"shoot\", \"actor\": \"Apaches\", \"target\": "
				    "\"Presidials\", \"mode\": \"independent\", \"actions\": 1}\n"));
	free(plain);
	fray_game_free(game);
	free(old);
	free(held);
}

/* text with its last occurrence of from replaced by to (same length or not). */
static char *replace_last(const char *text, const char *from, const char *to)
{
	const char *at = NULL;
	for (const char *p = text; (p = strstr(p, from)); p++)
		at = p;
	assert_non_null(at);
	size_t n = strlen(text) - strlen(from) + strlen(to);
	char *out = malloc(n + 1);
	size_t k = (size_t)(at - text);
	memcpy(out, text, k);
	strcpy(out + k, to);
	strcat(out, at + strlen(from));
	return out;
}

/* The facts decide, whatever the command's words say: an aimed shot
 * before (a fact) lets an independent shot follow as its own action; a
 * command that says aimed with facts that say independent does not. */
static void facts_are_read(void **state)
{
	(void)state;
	size_t len;
	char *old = slurp("old-shot.yaml", &len);
	/* the old file less its last entry (undo), then the shot again by this fray */
	fray_game *game = load_text(old);
	assert_int_equal(fray_game_undo(game), FRAY_OK);
	fray_game_option o[] = {{.name = "range", .kind = FRAY_GAME_INT, .i = 8}};
	assert_int_equal(fray_game_apply(game, "shoot", "Apaches", "Presidials", 1, o, NULL, NULL), FRAY_OK);
	const char *now;
	fray_game_save(game, &now, &len);
	char *text = strndup(now, len);
	assert_int_equal(second_shot(game, false), FRAY_ERR_INPUT);
	fray_game_free(game);
	/* the fact says aimed: no sequence with an independent shot */
	char *aimed = replace_last(text, "\"Presidials\", \"mode\": \"independent\"", "\"Presidials\", \"mode\": \"aimed\"");
	game = load_text(aimed);
	if (second_shot(game, false) != FRAY_OK)
		fail_msg("after an aimed shot: %s", fray_ctx_message(ctx));
	fray_game_free(game);
	/* two actions before (a fact): no sequence either */
	char *two = replace_last(text, "\"independent\", \"actions\": 1}", "\"independent\", \"actions\": 2}");
	game = load_text(two);
	assert_int_equal(second_shot(game, false), FRAY_OK);
	fray_game_free(game);
	/* the words say aimed, the facts independent: the facts hold */
	char *words = replace_last(text, "command: \"shoot Apaches --at Presidials --range 8\"",
				   "command: \"shoot Apaches --at Presidials --range 8 --mode aimed\"");
	game = load_text(words);
	assert_int_equal(second_shot(game, false), FRAY_ERR_INPUT);
	fray_game_free(game);
	/* facts of another action: not a shot before */
	char *other = replace_last(text, "{\"action\": \"shoot\"", "{\"action\": \"melee\"");
	game = load_text(other);
	assert_int_equal(second_shot(game, false), FRAY_OK);
	fray_game_free(game);
	/* a fact that is no value is refused where it is */
	char *bad = replace_last(text, "\"independent\", \"actions\": 1}", "\"independent\", \"actions\": [1]}");
	fray_game *none = NULL;
	assert_int_equal(fray_game_load(ctx, "facts.yaml", bad, strlen(bad), &none), FRAY_ERR_INPUT);
	assert_non_null(strstr(fray_ctx_message(ctx), "a fact (a value)"));
	free(bad);
	free(other);
	free(words);
	free(two);
	free(aimed);
	free(text);
	free(old);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(old_file_plays_the_same),
		cmocka_unit_test(facts_are_read),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
