/* Fuzz target: a saved battle's state (fray_adbg_battle_restore) against a
 * fixed scenario; a state that restores is fought to the end, so no save
 * that is accepted can crash the battle. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <fray/fray.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char scenario[] =
	"battle: Fuzz\nterrain: wilderness\nweather: normal\ninitiative: red\nsurprise: none\n"
	"melee_crt: {columns: [\"1:2\", \"1:1\", \"2:1\"], rows: {1: [\"R/-\", \"1/1\", \"-/R\"], "
	"2: [\"1/-\", \"1/1\", \"-/2\"]}}\n"
	"leader_loss:\n  after_fire: {roll: 1d6, lost_on: [6]}\n  after_melee: {roll: 1d6, lost_on: [5, 6]}\n"
	"victory: {rule: losses, routed: {roll: 1d6, eliminated_on: [1, 2]}}\n"
	"sides:\n"
	"  red:\n    level: 3\n    primary_leader: {name: R, rating: 2, stack: 1}\n"
	"    leaders: [{name: R2, rating: 1, stack: 2}]\n"
	"    stacks:\n      - - {name: R1, type: warrior, fire: 3, melee: 2}\n"
	"        - {name: R1b, type: warrior, fire: 1, melee: 1}\n"
	"      - - {name: R3, type: warrior, fire: 2, melee: 2}\n"
	"  blue:\n    level: 2\n    primary_leader: {name: B, rating: 1, stack: 1}\n"
	"    stacks:\n      - - {name: B1, type: militia, fire: 2, melee: 2}\n"
	"      - - {name: B2, type: regular, fire: 2, melee: 1}\n"
	"      - - {name: B3, type: rifle, fire: 3, melee: 1}\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fray_ctx *ctx = fray_ctx_new(NULL, NULL);
	fray_doc *sdoc, *doc;
	fray_adbg_scenario *s = NULL;
	if (fray_doc_load_string(ctx, "scenario.yaml", scenario, strlen(scenario), &sdoc) != FRAY_OK ||
	    fray_adbg_scenario_read(ctx, sdoc, &s) != FRAY_OK)
		abort(); /* the fixed scenario must read */
	fray_doc_free(sdoc);
	if (fray_doc_load_string(ctx, "save.yaml", (const char *)data, size, &doc) == FRAY_OK) {
		fray_adbg_battle_state *st = fray_adbg_battle_new(ctx, s);
		fray_roller *r = fray_roller_sample_new(ctx, size, 0);
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
		fray_doc_free(doc);
	}
	fray_adbg_scenario_free(s);
	fray_ctx_free(ctx);
	return 0;
}
