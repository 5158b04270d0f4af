/* Fuzz target: fray_request, the one JSON entry point (the page sends it
 * untrusted requests). A request is answered or refused: answered, a JSON
 * document and no message; refused, a message and no response. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <fray/fray.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > 65536)
		return 0;
	char *text = malloc(size + 1);
	if (!text)
		return 0;
	memcpy(text, data, size);
	text[size] = '\0';
	fray_ctx *ctx = fray_ctx_new(NULL, NULL);
	char *out = NULL;
	/* no files: a guessed /dev/stdin would wait for ever (the readers of
	 * files have fuzz targets of their own); quick: every answer in a
	 * moment, as the page's */
	fray_status st = fray_request_flags(ctx, text, FRAY_REQUEST_NO_FILES | FRAY_REQUEST_QUICK, &out);
	if (st == FRAY_OK) {
		size_t n = out ? strlen(out) : 0;
		if (n < 3 || out[0] != '{' || strcmp(out + n - 2, "}\n") != 0 || fray_ctx_message(ctx)[0])
			abort();
	} else if (out || fray_ctx_message(ctx)[0] == '\0') {
		abort();
	}
	free(out);
	free(text);
	fray_ctx_free(ctx);
	return 0;
}
