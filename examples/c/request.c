/* Embedding libfray: one procedure by name with a JSON request, the same
 * JSON the command line prints with --json. Build:
 *   cc request.c $(pkg-config --cflags --libs fray) -o request */
#include <fray/fray.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
	fray_ctx *ctx = fray_ctx_new(NULL, NULL);
	if (!ctx)
		return 1;
	/* ADBG 19.2.1: a regular with fire CF 2 in a settled area fires at CF
	 * 4 with DR -1, so faces 1-5 hit: 5/6 */
	const char *req = "{\"procedure\": \"adbg.fire\", \"mode\": \"odds\","
			  " \"inputs\": {\"type\": \"regular\", \"cf\": 2, \"terrain\": \"settled\"}}";
	char *json = NULL;
	if (fray_request(ctx, req, &json) != FRAY_OK) {
		fprintf(stderr, "%s\n", fray_ctx_message(ctx));
		fray_ctx_free(ctx);
		return 1;
	}
	fputs(json, stdout);
	int ok = strstr(json, "{\"outcome\": {\"hit\": true}, \"p\": 0.8333333333333334, \"exact\": \"5/6\"}") != NULL;
	free(json); /* the caller's, freed with free() */
	/* a bad request: a status, a message, no response */
	if (fray_request(ctx, "{\"procedure\": \"adbg.fire\", \"inputs\": {\"cf\": 12}}", &json) == FRAY_OK)
		ok = 0;
	else
		fprintf(stderr, "refused as it should be: %s\n", fray_ctx_message(ctx));
	fray_ctx_free(ctx);
	return ok ? 0 : 1;
}
