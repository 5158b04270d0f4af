/* The game's memory goes through the context's allocator (issue 30 item
 * 3), and running out of it is a status, never a leak or a changed game:
 * for load, apply (a shot with its follow-up morale check), undo and save,
 * the 1st, 2nd, ... allocation fails in turn until the call succeeds (the
 * long calls: a sample, test_util.h's fray_walk_sampled; FRAY_WALK=all
 * every one); each failure returns FRAY_ERR_NOMEM, gives back every block
 * the call took (the allocator counts them; ASan/LSan sees the rest), and
 * leaves the game's saved bytes as they were. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#define FRAY_TEST_NO_CTX /* each walk makes its own, with the failing allocator */
#include "../test_util.h"
#include "game_words.h"

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
static bool failed_cleanly(fray_ctx *ctx, fray_meter *m, long live_before, fray_status st, long k, const char *what)
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

/* One walk's call and what it must leave: the game (or the one made),
 * its bytes before, the blocks held before, the action's words. */
typedef struct walk {
	fray_ctx *ctx;
	fray_meter *m;
	fray_game *game;
	const char *bytes; /* the game's text before the call (load: to read) */
	size_t len;
	long live;
	size_t nwords;
	const char *const *words;
	const char *format;
	char *out; /* what the successful call gave */
} walk;

static bool try_load(void *ud, long k)
{
	walk *w = ud;
	fray_meter_fail(w->m, k);
	w->game = (fray_game *)&w->game;
	fray_status st = fray_game_load(w->ctx, "walk.yaml", w->bytes, w->len, &w->game);
	w->m->fail_at = 0;
	if (failed_cleanly(w->ctx, w->m, w->live, st, k, "load")) {
		same_bytes(w->game, w->bytes, w->len);
		return true;
	}
	assert_null(w->game);
	return false;
}

static bool try_new(void *ud, long k)
{
	walk *w = ud;
	char path[512];
	snprintf(path, sizeof path, "%s/examples/presidio/forces.yaml", FRAY_SOURCE_DIR);
	size_t flen;
	char *forces = slurp(path, &flen);
	fray_meter_fail(w->m, k);
	fray_status st = fray_game_new(w->ctx, "walk.yaml", "presidio", path, forces, flen, 2, NULL, NULL, &w->game);
	w->m->fail_at = 0;
	free(forces);
	if (failed_cleanly(w->ctx, w->m, w->live, st, k, "new")) {
		same_bytes(w->game, w->bytes, w->len);
		return true;
	}
	return false;
}

/* The action's words (fray_game_act), what happened in format. */
static bool try_act(void *ud, long k)
{
	walk *w = ud;
	fray_meter_fail(w->m, k);
	fray_status st = fray_game_act(w->game, w->nwords, w->words, NULL, w->format, &w->out);
	w->m->fail_at = 0;
	if (failed_cleanly(w->ctx, w->m, w->live, st, k, w->words[0]))
		return true;
	assert_null(w->out);
	same_bytes(w->game, w->bytes, w->len);
	return false;
}

static bool try_undo(void *ud, long k)
{
	walk *w = ud;
	fray_meter_fail(w->m, k);
	fray_status st = fray_game_undo(w->game);
	w->m->fail_at = 0;
	if (failed_cleanly(w->ctx, w->m, w->live, st, k, "undo"))
		return true;
	same_bytes(w->game, w->bytes, w->len);
	return false;
}

/* The allocations a call makes, counted in a run without failures (an
 * action undone after, an undo done again after). */
static long allocations_of(walk *w, fray_walk_try call)
{
	fray_meter_fail(w->m, 0);
	assert_true(call(w, 0));
	long n = w->m->calls;
	free(w->out);
	w->out = NULL;
	return n;
}

static void walk_load(void **state)
{
	(void)state;
	fray_meter m = {0};
	fray_ctx *ctx = fray_ctx_new(fray_metered, &m);
	assert_non_null(ctx);
	fray_game *game = new_game(ctx);
	size_t len;
	char *text = bytes_of(game, &len);
	fray_game_free(game);
	walk w = {.ctx = ctx, .m = &m, .bytes = text, .len = len, .live = m.live};
	print_message("%ld allocations\n", fray_walk_all(try_load, &w, MAX_WALK));
	fray_game_free(w.game);
	/* so did new (a sample of its allocations) */
	fray_meter_fail(&m, 0);
	assert_true(try_new(&w, 0));
	long n = m.calls;
	fray_game_free(w.game);
	print_message("new: %ld allocations tried\n", fray_walk_sampled(try_new, &w, n));
	fray_game_free(w.game);
	free(text);
	assert_int_equal(m.live, 1); /* the context itself */
	fray_ctx_free(ctx);
}

/* An action's walk and its undo's, on game (its bytes before: start);
 * what the action gave left in w->out. */
static void walk_act_undo(walk *w, const char *start, size_t len0)
{
	w->bytes = start;
	w->len = len0;
	long n = allocations_of(w, try_act);
	assert_int_equal(fray_game_undo(w->game), FRAY_OK);
	same_bytes(w->game, start, len0);
	w->live = w->m->live;
	print_message("%s: %ld allocations tried\n", w->words[0], fray_walk_sampled(try_act, w, n));
	size_t len1;
	char *done = bytes_of(w->game, &len1), *told = w->out;
	w->out = NULL;
	assert_true(len1 > len0);
	/* undo: counted, the action done again (the same dice: the same game) */
	w->bytes = done;
	w->len = len1;
	n = allocations_of(w, try_undo);
	same_bytes(w->game, start, len0);
	assert_int_equal(fray_game_act(w->game, w->nwords, w->words, NULL, NULL, NULL), FRAY_OK);
	same_bytes(w->game, done, len1);
	w->live = w->m->live;
	print_message("undo: %ld allocations tried\n", fray_walk_sampled(try_undo, w, n));
	same_bytes(w->game, start, len0);
	free(done);
	w->out = told;
}

static void walk_apply_undo_save(void **state)
{
	(void)state;
	fray_meter m = {0};
	fray_ctx *ctx = fray_ctx_new(fray_metered, &m);
	assert_non_null(ctx);
	fray_game *game = new_game(ctx);
	size_t len0;
	char *start = bytes_of(game, &len0);
	static const char *const words[] = {"shoot", "Presidials", "--at", "Apaches", "--range", "10"};
	walk w = {.ctx = ctx, .m = &m, .game = game, .nwords = 6, .words = words, .format = "json"};
	walk_act_undo(&w, start, len0);
	/* the volley and the morale check it calls for (Presidio Section 7) */
	assert_non_null(strstr(w.out, "\"presidio.shoot\""));
	assert_non_null(strstr(w.out, "\"presidio.morale\""));
	free(w.out);
	/* saving hands out the text the game holds: nothing to allocate */
	fray_meter_fail(&m, 1);
	const char *b;
	size_t blen;
	assert_int_equal(fray_game_save(game, &b, &blen), FRAY_OK);
	assert_true(blen == len0 && !memcmp(b, start, len0));
	fray_meter_fail(&m, 0);
	free(start);
	fray_game_free(game);
	assert_int_equal(m.live, 1); /* the context itself */
	fray_ctx_free(ctx);
}

/* A chits combat (the game's mix read back, the chits drawn, the story
 * told by the game itself) and its undo: some 11,000 allocations. */
static void walk_chits_combat(void **state)
{
	(void)state;
	fray_meter m = {0};
	fray_ctx *ctx = fray_ctx_new(fray_metered, &m);
	assert_non_null(ctx);
	fray_game *game = new_game_of(ctx, "chits", 3);
	size_t len0;
	char *start = bytes_of(game, &len0);
	static const char *const words[] = {"combat", "Bylant", "--at", "Karl Franz", "--tactic", "hasty", "--stance",
					    "hold", "--terrain", "open", "--attacker-cdr", "12", "--defender-cdr", "6",
					    "--draw", "3"};
	walk w = {.ctx = ctx, .m = &m, .game = game, .nwords = sizeof words / sizeof *words, .words = words,
		  .format = "text"};
	walk_act_undo(&w, start, len0);
	assert_non_null(strstr(w.out, "Bylant attacks Karl Franz"));
	free(w.out);
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
	assert_int_equal(apply_words(game, "shoot", "Presidials", "Apaches", 2, range, NULL, NULL), FRAY_OK);
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
