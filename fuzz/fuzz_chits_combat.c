/* Fuzz target: a chit combat file (fray chits combat FILE). It is read as
 * if it stood beside the example mix, so "mix: sample-mix.yaml" finds a real
 * mix; a combat that reads is fought with the heuristic policy, and its
 * draws enumerated as fray chits combat --odds does. */
#include <stdint.h>
#include <stdlib.h>
#include <fray/fray.h>
#include "narrate.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fray_ctx *ctx = fray_ctx_new(NULL, NULL);
	fray_doc *doc;
	if (fray_doc_load_string(ctx, FRAY_EXAMPLES_DIR "/chits/fuzz.yaml", (const char *)data, size,
				 &doc) == FRAY_OK) {
		fray_chits_mix *m = NULL;
		fray_chits_combat_in in = {0};
		uint64_t seed;
		bool has_seed;
		if (fray_chits_combat_read(ctx, doc, &m, &in, &seed, &has_seed) == FRAY_OK) {
			if (!m || in.draw < 1 || in.draw > m->nchits)
				abort(); /* a combat that reads has a mix and a draw it allows */
			fray_policy *p = fray_policy_heuristic_new(ctx);
			fray_roller *r = fray_roller_sample_new(ctx, has_seed ? seed : size, 0);
			fray_roller_set_sink(r, fuzz_narrate, NULL);
			fray_chits_combat_out out;
			fray_chits_combat(r, p, &in, &out);
			fray_dist *d;
			if (in.draw <= 3 &&
			    fray_enumerate(ctx, fray_chits_draws_procedure, NULL, &in, 4, NULL, &d) == FRAY_OK)
				fray_dist_free(d);
			fray_roller_free(r);
			fray_policy_free(p);
		} else if (fray_doc_error_count(doc) == 0 && fray_ctx_status(ctx) != FRAY_ERR_NOMEM) {
			abort(); /* refused without saying why */
		}
		fray_chits_mix_free(m);
		fuzz_show_errors(doc);
		fray_doc_free(doc);
	}
	fuzz_show(fray_ctx_message(ctx));
	fray_ctx_free(ctx);
	return 0;
}
