/* A game made from one of the shipped examples' forces (examples/FORCES,
 * FRAY_SOURCE_DIR), for the game tests; a failure fails the test. */
#ifndef FRAY_TEST_EXAMPLE_GAME_H
#define FRAY_TEST_EXAMPLE_GAME_H

#include <stdio.h>
#include <fray/fray.h>

static inline fray_game *example_game(fray_ctx *c, const char *rules, const char *forces, uint64_t seed)
{
	char path[1024];
	snprintf(path, sizeof path, "%s/examples/%s", FRAY_SOURCE_DIR, forces);
	FILE *f = fopen(path, "rb");
	if (!f)
		fail_msg("cannot open %s", path);
	static char buf[1 << 16];
	size_t n = fread(buf, 1, sizeof buf, f);
	fclose(f);
	fray_game *g = NULL;
	if (fray_game_new(c, "example.yaml", rules, path, buf, n, seed, NULL, NULL, &g) != FRAY_OK)
		fail_msg("new %s: %s", forces, fray_ctx_message(c));
	return g;
}

#endif
