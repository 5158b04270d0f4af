/* Fuzz target: quick battle scenarios fought with narration on, as fray
 * adbg battle tells them (text and JSON events, the array line, every
 * choice's words), by the heuristic and by a random policy (which reads
 * every option's label); then saved after round 1 and restored, and the
 * restored battle fought to its end. Names come from the input. */
#include <stdint.h>
#include <stdlib.h>
#include <fray/fray.h>
#include "narrate.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fight(fray_ctx *ctx, const fray_adbg_scenario *s, fray_policy *p, uint64_t seed)
{
	fray_adbg_battle_state *st = fray_adbg_battle_new(ctx, s);
	fray_roller *r = fray_roller_sample_new(ctx, seed, 0);
	if (!st || !r)
		abort();
	fray_roller_set_sink(r, fuzz_narrate, NULL);
	fray_adbg_battle_begin(st, r, p);
	if (fray_adbg_battle_next_round(st) != 0)
		fray_adbg_battle_round(st, r, p);
	/* the state between rounds, saved and restored into a new battle */
	static char text[16384];
	if (fray_adbg_battle_save(st, text, sizeof text) >= sizeof text)
		abort();
	fray_doc *doc;
	if (fray_doc_load_string(ctx, "save.yaml", text, strlen(text), &doc) != FRAY_OK)
		abort();
	fray_adbg_battle_state *again = fray_adbg_battle_new(ctx, s);
	if (!again || !fray_adbg_battle_restore(again, doc, fray_doc_root(doc)))
		abort(); /* what fray saved, it must restore */
	fray_doc_free(doc);
	fray_adbg_battle_resumed(again, r);
	while (fray_adbg_battle_round(again, r, p))
		;
	fray_adbg_result res;
	fray_adbg_battle_finish(again, r, p, &res);
	fray_adbg_battle_free(again);
	fray_adbg_battle_free(st);
	fray_roller_free(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fray_ctx *ctx = fray_ctx_new(NULL, NULL);
	fray_doc *doc;
	if (fray_doc_load_string(ctx, "fuzz.yaml", (const char *)data, size, &doc) == FRAY_OK) {
		fray_adbg_scenario *s;
		if (fray_adbg_scenario_read(ctx, doc, &s) == FRAY_OK) {
			fuzz_show(fray_adbg_scenario_name(s));
			fuzz_show(fray_adbg_side_name(s, 0));
			fuzz_show(fray_adbg_side_name(s, 1));
			fray_policy *h = fray_policy_heuristic_new(ctx), *rnd = fray_policy_random_new(ctx, size);
			fight(ctx, s, h, size);
			fight(ctx, s, rnd, size + 1);
			fray_policy_free(h);
			fray_policy_free(rnd);
			fray_adbg_scenario_free(s);
		} else if (fray_doc_error_count(doc) == 0 && fray_ctx_status(ctx) != FRAY_ERR_NOMEM) {
			abort(); /* refused without saying why */
		}
		fuzz_show_errors(doc);
		fray_doc_free(doc);
	}
	fuzz_show(fray_ctx_message(ctx));
	fray_ctx_free(ctx);
	return 0;
}
