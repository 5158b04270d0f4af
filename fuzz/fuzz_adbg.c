/* Fuzz target: the adbg readers, a quick battle scenario (with its CRT
 * inline, as a file cannot be named from here) and a melee CRT; what reads
 * is fought once, so no accepted scenario can crash the battle. */
#include <stdint.h>
#include <stdlib.h>
#include <fray/fray.h>
#include "narrate.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fray_ctx *ctx = fray_ctx_new(NULL, NULL);
	fray_doc *doc;
	if (fray_doc_load_string(ctx, "fuzz.yaml", (const char *)data, size, &doc) == FRAY_OK) {
		fray_adbg_scenario *s;
		if (fray_adbg_scenario_read(ctx, doc, &s) == FRAY_OK) {
			fray_roller *r = fray_roller_sample_new(ctx, size, 0);
			fray_roller_set_sink(r, fuzz_narrate, NULL);
			fray_adbg_result res;
			fray_adbg_battle(r, NULL, s, &res);
			fray_roller_free(r);
			fray_adbg_scenario_free(s);
		} else if (fray_doc_error_count(doc) == 0) {
			abort(); /* refused without saying why */
		}
		if (fray_doc_root(doc)) {
			fray_adbg_crt crt;
			fray_adbg_crt_read(doc, fray_doc_root(doc), &crt);
		}
		fuzz_show_errors(doc);
		fray_doc_free(doc);
	}
	fuzz_show(fray_ctx_message(ctx));
	fray_ctx_free(ctx);
	return 0;
}
