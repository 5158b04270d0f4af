/* The game tests' common steps: a unit's field as `status --json` gives
 * it, the saved game as text, an action from its words. Include after
 * cmocka.h and test_util.h (its ctx). */
#ifndef FRAY_TEST_GAME_TEST_H
#define FRAY_TEST_GAME_TEST_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <fray/fray.h>

/* `status --json` as a document (fray_doc_free it). */
static inline fray_doc *game_status_doc(const fray_game *g)
{
	char *text;
	assert_int_equal(fray_game_status(g, "json", &text), FRAY_OK);
	fray_doc *d;
	if (fray_doc_load_string(ctx, "status", text, strlen(text), &d) != FRAY_OK)
		fail_msg("status: %s", fray_ctx_message(ctx));
	free(text);
	return d;
}

/* malloc'd; a unit or field the status lacks fails the test. */
static inline char *game_unit_field(const fray_game *g, const char *unit, const char *key)
{
	fray_doc *d = game_status_doc(g);
	const fray_node *units = fray_map_get(fray_doc_root(d), "units");
	char *v = NULL;
	for (size_t i = 0; i < fray_node_len(units); i++) {
		const fray_node *u = fray_node_item(units, i);
		if (!strcmp(fray_node_scalar(fray_map_get(u, "name")), unit))
			v = strdup(fray_node_scalar(fray_map_get(u, key)));
	}
	fray_doc_free(d);
	if (!v)
		fail_msg("no %s.%s", unit, key);
	return v;
}

/* The game file as fray_game_save gives it, NUL-terminated (malloc'd). */
static inline char *game_saved(const fray_game *g)
{
	const char *bytes;
	size_t len;
	assert_int_equal(fray_game_save(g, &bytes, &len), FRAY_OK);
	char *copy = malloc(len + 1);
	assert_non_null(copy);
	memcpy(copy, bytes, len);
	copy[len] = '\0';
	return copy;
}

/* An action from its NULL-terminated words, its answer dropped. */
static inline fray_status game_act(fray_game *g, const char *const *words)
{
	size_t n = 0;
	while (words[n])
		n++;
	char *out = NULL;
	fray_status st = fray_game_act(g, n, words, NULL, "json", &out);
	free(out);
	return st;
}

/* A new game of rules from a forces file's text (named name and
 * "forces.yaml"), seed given; a failure fails the test. */
static inline fray_game *game_from_forces(const char *name, const char *rules, const char *forces, uint64_t seed)
{
	fray_game *g = NULL;
	if (fray_game_new(ctx, name, rules, "forces.yaml", forces, strlen(forces), seed, NULL, NULL, &g) != FRAY_OK)
		fail_msg("new: %s", fray_ctx_message(ctx));
	return g;
}

#endif
