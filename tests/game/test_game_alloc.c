/* The game's memory goes through the context's allocator (issue 30 item
 * 3), and running out of it is a status, never a leak or a changed game:
 * for load, apply (a shot with its follow-up morale check), undo and save,
 * the 1st, 2nd, ... allocation fails in turn until the call succeeds; each
 * failure returns FRAY_ERR_NOMEM, gives back every block the call took (the
 * allocator counts them; ASan/LSan sees the rest), and leaves the game's
 * saved bytes as they were. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <fray/fray.h>

/* An allocator that fails its fail_at-th allocation (0: none) and counts
 * the blocks it holds. */
typedef struct meter {
	long calls, fail_at, live;
} meter;

static void *metered(void *ud, void *ptr, size_t size)
{
	meter *m = ud;
	if (size == 0) {
		if (ptr)
			m->live--;
		free(ptr);
		return NULL;
	}
	if (++m->calls == m->fail_at)
		return NULL;
	void *p = realloc(ptr, size);
	if (p && !ptr)
		m->live++;
	return p;
}

/* The 1st, 2nd, ... allocation from now on fails. */
static void fail_next(meter *m, long k)
{
	m->calls = 0;
	m->fail_at = k;
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	assert_non_null(f);
	static char buf[1 << 16];
	*len = fread(buf, 1, sizeof buf, f);
	assert_true(*len < sizeof buf);
	fclose(f);
	char *copy = malloc(*len);
	assert_non_null(copy);
	memcpy(copy, buf, *len);
	return copy;
}

/* The game's bytes, copied (malloc'd). */
static char *bytes_of(const fray_game *game, size_t *len)
{
	const char *b;
	assert_int_equal(fray_game_save(game, &b, len), FRAY_OK);
	char *copy = malloc(*len ? *len : 1);
	assert_non_null(copy);
	memcpy(copy, b, *len);
	return copy;
}

static void same_bytes(const fray_game *game, const char *want, size_t want_len)
{
	size_t len;
	char *got = bytes_of(game, &len);
	assert_true(len == want_len && !memcmp(got, want, len));
	free(got);
}

/* A new game of the rule set from its example forces. */
static fray_game *new_game_of(fray_ctx *ctx, const char *rules, uint64_t seed)
{
	char path[512];
	snprintf(path, sizeof path, "%s/examples/%s/forces.yaml", FRAY_SOURCE_DIR, rules);
	size_t len;
	char *forces = slurp(path, &len);
	fray_game *game = NULL;
	if (fray_game_new(ctx, "walk.yaml", rules, path, forces, len, seed, NULL, NULL, &game) != FRAY_OK)
		fail_msg("%s", fray_ctx_message(ctx));
	free(forces);
	return game;
}

/* A new Presidio game from the example forces, seed 2 (its first volley
 * is followed by the target's morale check: asserted below). */
static fray_game *new_game(fray_ctx *ctx)
{
	return new_game_of(ctx, "presidio", 2);
}

/* Counts what a failed call left: the status is NOMEM and every block it
 * took is back. Returns true when the call succeeded instead. */
static bool failed_cleanly(fray_ctx *ctx, meter *m, long live_before, fray_status st, long k, const char *what)
{
	if (st == FRAY_OK)
		return true;
	if (st != FRAY_ERR_NOMEM)
		fail_msg("%s, allocation %ld failing: status %d (%s), expected FRAY_ERR_NOMEM", what, k, (int)st,
			 fray_ctx_message(ctx));
	if (m->live != live_before)
		fail_msg("%s, allocation %ld failing: %ld blocks kept", what, k, m->live - live_before);
	fray_ctx_clear(ctx);
	return false;
}

static const long MAX_WALK = 100000;

static void walk_load(void **state)
{
	(void)state;
	meter m = {0};
	fray_ctx *ctx = fray_ctx_new(metered, &m);
	assert_non_null(ctx);
	fray_game *game = new_game(ctx);
	size_t len;
	char *text = bytes_of(game, &len);
	fray_game_free(game);
	long live = m.live, k;
	for (k = 1; k < MAX_WALK; k++) {
		fail_next(&m, k);
		game = (fray_game *)&game;
		fray_status st = fray_game_load(ctx, "walk.yaml", text, len, &game);
		if (failed_cleanly(ctx, &m, live, st, k, "load")) {
			same_bytes(game, text, len);
			break;
		}
		assert_null(game);
	}
	print_message("%ld allocations\n", k);
	assert_true(k > 1 && k < MAX_WALK); /* at least one allocation failed */
	fail_next(&m, 0);
	fray_game_free(game);
	/* so did new */
	for (k = 1; k < MAX_WALK; k++) {
		fail_next(&m, k);
		char path[512];
		snprintf(path, sizeof path, "%s/examples/presidio/forces.yaml", FRAY_SOURCE_DIR);
		size_t flen;
		char *forces = slurp(path, &flen);
		fray_status st = fray_game_new(ctx, "walk.yaml", "presidio", path, forces, flen, 2, NULL, NULL, &game);
		free(forces);
		if (failed_cleanly(ctx, &m, live, st, k, "new")) {
			same_bytes(game, text, len);
			break;
		}
	}
	print_message("%ld allocations\n", k);
	assert_true(k > 1 && k < MAX_WALK);
	fail_next(&m, 0);
	fray_game_free(game);
	free(text);
	assert_int_equal(m.live, 1); /* the context itself */
	fray_ctx_free(ctx);
}

static void walk_apply_undo_save(void **state)
{
	(void)state;
	meter m = {0};
	fray_ctx *ctx = fray_ctx_new(metered, &m);
	assert_non_null(ctx);
	fray_game *game = new_game(ctx);
	size_t len0;
	char *start = bytes_of(game, &len0);
	const char *range[] = {"--range", "10"};
	long live = m.live, k;
	char *events = NULL;
	for (k = 1; k < MAX_WALK; k++) {
		fail_next(&m, k);
		fray_status st = fray_game_apply(game, "shoot", "Presidials", "Apaches", 2, range, NULL, &events);
		if (failed_cleanly(ctx, &m, live, st, k, "apply"))
			break;
		assert_null(events);
		same_bytes(game, start, len0);
	}
	print_message("%ld allocations\n", k);
	assert_true(k > 1 && k < MAX_WALK);
	fail_next(&m, 0);
	/* the volley and the morale check it calls for (Presidio Section 7) */
	assert_non_null(strstr(events, "\"presidio.shoot\""));
	assert_non_null(strstr(events, "\"presidio.morale\""));
	free(events);
	size_t len1;
	char *shot = bytes_of(game, &len1);
	assert_true(len1 > len0);
	live = m.live;
	for (k = 1; k < MAX_WALK; k++) {
		fail_next(&m, k);
		fray_status st = fray_game_undo(game);
		if (failed_cleanly(ctx, &m, live, st, k, "undo"))
			break;
		same_bytes(game, shot, len1);
	}
	print_message("%ld allocations\n", k);
	assert_true(k > 1 && k < MAX_WALK);
	fail_next(&m, 0);
	same_bytes(game, start, len0);
	/* saving hands out the text the game holds: nothing to allocate */
	fail_next(&m, 1);
	const char *b;
	size_t blen;
	assert_int_equal(fray_game_save(game, &b, &blen), FRAY_OK);
	assert_true(blen == len0 && !memcmp(b, start, len0));
	fail_next(&m, 0);
	free(shot);
	free(start);
	fray_game_free(game);
	assert_int_equal(m.live, 1); /* the context itself */
	fray_ctx_free(ctx);
}

/* A chits combat (the game's mix read back, the chits drawn, the story
 * told by the game itself) and its undo. The combat takes some 11,000
 * allocations and a full walk of it ten minutes under ASan: the first 300
 * are failed in turn, then every CHITS_STRIDE-th (a full walk found no
 * more than these do). */
#define CHITS_STRIDE 61

static long next_k(long k)
{
	return k < 300 ? k + 1 : k + CHITS_STRIDE;
}

static void walk_chits_combat(void **state)
{
	(void)state;
	meter m = {0};
	fray_ctx *ctx = fray_ctx_new(metered, &m);
	assert_non_null(ctx);
	fray_game *game = new_game_of(ctx, "chits", 3);
	size_t len0;
	char *start = bytes_of(game, &len0);
	const char *const words[] = {"combat", "Bylant", "--at", "Karl Franz", "--tactic", "hasty", "--stance",
				     "hold", "--terrain", "open", "--attacker-cdr", "12", "--defender-cdr", "6",
				     "--draw", "3"};
	long live = m.live, k;
	char *story = NULL;
	for (k = 1; k < MAX_WALK; k = next_k(k)) {
		fail_next(&m, k);
		fray_status st = fray_game_act(game, sizeof words / sizeof *words, words, NULL, "text", &story);
		if (failed_cleanly(ctx, &m, live, st, k, "chits combat"))
			break;
		assert_null(story);
		same_bytes(game, start, len0);
	}
	print_message("%ld allocations\n", k);
	assert_true(k > 1 && k < MAX_WALK);
	fail_next(&m, 0);
	assert_non_null(strstr(story, "Bylant attacks Karl Franz"));
	free(story);
	live = m.live;
	for (k = 1; k < MAX_WALK; k = next_k(k)) {
		fail_next(&m, k);
		if (failed_cleanly(ctx, &m, live, fray_game_undo(game), k, "chits undo"))
			break;
	}
	assert_true(k > 1 && k < MAX_WALK);
	fail_next(&m, 0);
	same_bytes(game, start, len0);
	free(start);
	fray_game_free(game);
	assert_int_equal(m.live, 1); /* the context itself */
	fray_ctx_free(ctx);
}

#if defined(__SANITIZE_ADDRESS__)
/* ASan's heap counters (sanitizer/allocator_interface.h, which GCC does
 * not install) */
size_t __sanitizer_get_current_allocated_bytes(void);
size_t __sanitizer_get_allocated_size(const volatile void *p);

/* An allocator that counts the bytes it holds. */
static void *counted(void *ud, void *ptr, size_t size)
{
	long *bytes = ud;
	if (ptr)
		*bytes -= (long)__sanitizer_get_allocated_size(ptr);
	if (size == 0) {
		free(ptr);
		return NULL;
	}
	void *p = realloc(ptr, size);
	if (p)
		*bytes += (long)__sanitizer_get_allocated_size(p);
	else if (ptr)
		*bytes += (long)__sanitizer_get_allocated_size(ptr);
	return p;
}

/* What a game keeps between calls is all the allocator's: the heap grows
 * by exactly the bytes the allocator holds (ASan counts the heap), after a
 * new game, a load, an action and an undo. */
static void game_memory_is_the_allocators(void **state)
{
	(void)state;
	long bytes = 0;
	fray_ctx *ctx = fray_ctx_new(counted, &bytes);
	assert_non_null(ctx);
	long heap0 = (long)__sanitizer_get_current_allocated_bytes(), mine0 = bytes;
	fray_game *game = new_game(ctx);
	assert_int_equal((long)__sanitizer_get_current_allocated_bytes() - heap0, bytes - mine0);
	size_t len;
	char *text = bytes_of(game, &len);
	fray_game_free(game);
	heap0 = (long)__sanitizer_get_current_allocated_bytes();
	mine0 = bytes;
	assert_int_equal(fray_game_load(ctx, "walk.yaml", text, len, &game), FRAY_OK);
	assert_true(bytes - mine0 > (long)len); /* the game's text at least */
	assert_int_equal((long)__sanitizer_get_current_allocated_bytes() - heap0, bytes - mine0);
	const char *range[] = {"--range", "10"};
	assert_int_equal(fray_game_apply(game, "shoot", "Presidials", "Apaches", 2, range, NULL, NULL), FRAY_OK);
	assert_int_equal((long)__sanitizer_get_current_allocated_bytes() - heap0, bytes - mine0);
	assert_int_equal(fray_game_undo(game), FRAY_OK);
	assert_int_equal((long)__sanitizer_get_current_allocated_bytes() - heap0, bytes - mine0);
	fray_game_free(game);
	free(text);
	fray_ctx_free(ctx);
}
#endif

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(walk_load),
		cmocka_unit_test(walk_apply_undo_save),
		cmocka_unit_test(walk_chits_combat),
#if defined(__SANITIZE_ADDRESS__)
		cmocka_unit_test(game_memory_is_the_allocators),
#endif
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
