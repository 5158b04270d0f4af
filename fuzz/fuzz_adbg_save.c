/* Fuzz target: a saved battle as fray adbg resume reads it: its header
 * (fray_adbg_save_read: every field, the path as text or bytes) and its
 * state (fray_adbg_battle_restore) against a fixed scenario; a state that
 * restores is fought to the end, so no save that is accepted can crash
 * the battle. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <fray/fray.h>
#include <fray/adbg_save.h>
#include "tiny_battle.h"
#include "narrate.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The header as resume reads it: refused with a reason (the context's
 * or the document's), or read with every text within its field. */
static void check_header(fray_ctx *ctx, fray_doc *doc)
{
	static fray_adbg_save sv;
	size_t errors = fray_doc_error_count(doc);
	fray_status st = fray_adbg_save_read(ctx, doc, &sv);
	if (st == FRAY_OK) {
		if (fray_doc_error_count(doc) != errors || strlen(sv.scenario) >= sizeof sv.scenario ||
		    strlen(sv.policy) >= sizeof sv.policy || strlen(sv.policy_a) >= sizeof sv.policy_a ||
		    strlen(sv.policy_b) >= sizeof sv.policy_b)
			abort();
		(void)fray_adbg_save_same_scenario(&sv, sv.scenario_digest);
		(void)fray_adbg_save_same_policy(&sv, sv.policy_digest);
	} else if (st == FRAY_ERR_INPUT && fray_ctx_status(ctx) == FRAY_OK && fray_doc_error_count(doc) == errors) {
		abort(); /* refused without saying why */
	}
	fray_ctx_clear(ctx);
}

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
		check_header(ctx, doc);
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
