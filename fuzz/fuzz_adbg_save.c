/* Fuzz target: a saved battle's state (fray_adbg_battle_restore) against a
 * fixed scenario; a state that restores is fought to the end, so no save
 * that is accepted can crash the battle. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <fray/fray.h>
#include "tiny_battle.h"
#include "narrate.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fray_ctx *ctx = fray_ctx_new(NULL, NULL);
	fray_adbg_scenario *s = tiny_battle_scenario(ctx);
	fray_doc *doc;
	if (fray_doc_load_string(ctx, "save.yaml", (const char *)data, size, &doc) == FRAY_OK) {
		fray_adbg_battle_state *st = fray_adbg_battle_new(ctx, s);
		fray_roller *r = fray_roller_sample_new(ctx, size, 0);
		fray_roller_set_sink(r, fuzz_narrate, NULL);
		const fray_node *root = fray_doc_root(doc);
		if (root && fray_adbg_battle_restore(st, doc, root)) {
			while (fray_adbg_battle_round(st, r, NULL))
				;
			fray_adbg_result res;
			fray_adbg_battle_finish(st, r, NULL, &res);
		} else if (root && fray_doc_error_count(doc) == 0) {
			abort(); /* refused without saying why */
		}
		fray_roller_free(r);
		fray_adbg_battle_free(st);
		fuzz_show_errors(doc);
		fray_doc_free(doc);
	}
	fray_adbg_scenario_free(s);
	fuzz_show(fray_ctx_message(ctx));
	fray_ctx_free(ctx);
	return 0;
}
