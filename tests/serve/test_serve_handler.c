/* fray serve's request handler without sockets (src/serve/serve_handler.h):
 * the body budget of each path. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "serve_handler.h"

/* 1 MiB for the game's own path (its query too), 64 KiB for any other:
 * a URL that merely ends in api/v1/game is not the game's (it used to
 * be given the game's 1 MiB, read whole only to be answered 404 or 405) */
static void max_body_exact_path(void **state)
{
	(void)state;
	serve_conf conf = {.prefix = "/"};
	assert_int_equal(serve_max_body(&conf, "/api/v1/game"), SERVE_MAX_GAME_BODY);
	assert_int_equal(serve_max_body(&conf, "/api/v1/game?x=1"), SERVE_MAX_GAME_BODY);
	assert_int_equal(serve_max_body(&conf, "/api/v1/game#top"), SERVE_MAX_GAME_BODY);
	assert_int_equal(serve_max_body(&conf, "/x/api/v1/game"), SERVE_MAX_BODY);
	assert_int_equal(serve_max_body(&conf, "/api/v1/jobs/api/v1/game"), SERVE_MAX_BODY);
	assert_int_equal(serve_max_body(&conf, "/fooapi/v1/game"), SERVE_MAX_BODY);
	assert_int_equal(serve_max_body(&conf, "/api/v1/game/"), SERVE_MAX_BODY);
	assert_int_equal(serve_max_body(&conf, "/api/v1/gamex"), SERVE_MAX_BODY);
	assert_int_equal(serve_max_body(&conf, "/api/v1/run"), SERVE_MAX_BODY);
	assert_int_equal(serve_max_body(&conf, "/"), SERVE_MAX_BODY);
	assert_int_equal(serve_max_body(&conf, ""), SERVE_MAX_BODY);
	/* --lan: the token's prefix, then the path */
	serve_conf lan = {.prefix = "/t/0123456789abcdef0123456789abcdef/", .any_host = true};
	assert_int_equal(serve_max_body(&lan, "/t/0123456789abcdef0123456789abcdef/api/v1/game"), SERVE_MAX_GAME_BODY);
	assert_int_equal(serve_max_body(&lan, "/api/v1/game"), SERVE_MAX_BODY);
	assert_int_equal(serve_max_body(&lan, "/t/wrong/api/v1/game"), SERVE_MAX_BODY);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(max_body_exact_path),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
