/* Fuzz target: fray_game_request, the game's one JSON door (api/v1/game
 * hands it untrusted bodies of up to 1 MiB). Every request is answered or
 * refused: answered, a JSON object ending "}\n" and FRAY_OK; refused, a
 * message, a status and an answer {"error": ...}; never a crash, a leak
 * or an abort. The seed corpus (corpus/fuzz_game_request) holds valid
 * requests of each op, a Presidio game's text in them. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <fray/fray.h>
#include <fray/game_request.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static bool json_object(const char *s)
{
	size_t n = s ? strlen(s) : 0;
	return n >= 3 && s[0] == '{' && !strcmp(s + n - 2, "}\n");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > (1u << 20)) /* the server's cap on api/v1/game (SERVE_MAX_GAME_BODY) */
		return 0;
	fray_ctx *ctx = fray_ctx_new(NULL, NULL);
	if (!ctx)
		abort();
	char *answer = NULL;
	/* not NUL-terminated: the length is the request's */
	fray_status st = fray_game_request(ctx, (const char *)data, size, &answer);
	if (st == FRAY_OK) {
		if (!json_object(answer) || fray_ctx_message(ctx)[0])
			abort();
	} else if (st != FRAY_ERR_NOMEM && (!fray_ctx_message(ctx)[0] || !json_object(answer) ||
					    strncmp(answer, "{\"error\": ", 10) != 0)) {
		abort();
	}
	free(answer);
	fray_ctx_free(ctx);
	return 0;
}
