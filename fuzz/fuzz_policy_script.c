/* Fuzz target: a policy script (--policy script:FILE). A script that reads
 * answers one side's questions in a small battle fought to its end, or
 * until it has no answer (the battle then stops, as fray adbg battle
 * reports); whatever the answers say, nothing may crash. */
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
	if (fray_doc_load_string(ctx, "script.yaml", (const char *)data, size, &doc) == FRAY_OK) {
		fray_policy *script;
		if (fray_policy_script_read(ctx, doc, &script) == FRAY_OK) {
			fray_policy *p = fray_policy_sides_new(ctx, script, fray_policy_heuristic_new(ctx));
			fray_adbg_battle_state *st = fray_adbg_battle_new(ctx, s);
			fray_roller *r = fray_roller_sample_new(ctx, size, 0);
			fray_roller_set_sink(r, fuzz_narrate, NULL);
			while (fray_adbg_battle_next_round(st) != 0 && !fray_roller_stopped(r))
				fray_adbg_battle_round(st, r, p);
			fray_adbg_result res;
			if (!fray_roller_stopped(r))
				fray_adbg_battle_finish(st, r, p, &res);
			fray_roller_free(r);
			fray_adbg_battle_free(st);
			fray_policy_free(p);
		} else if (fray_doc_error_count(doc) == 0 && fray_ctx_status(ctx) != FRAY_ERR_NOMEM) {
			abort(); /* refused without saying why */
		}
		fuzz_show_errors(doc);
		fray_doc_free(doc);
	}
	fray_adbg_scenario_free(s);
	fuzz_show(fray_ctx_message(ctx));
	fray_ctx_free(ctx);
	return 0;
}
