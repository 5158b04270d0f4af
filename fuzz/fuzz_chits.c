/* Fuzz target: the chit mix reader; what reads is used for an advise-style
 * enumeration of two draws and a sampled draw of three. */
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
		fray_chits_mix *m;
		if (fray_chits_mix_read(ctx, doc, &m) == FRAY_OK) {
			if (m->ntactics == 0 || !m->morale_dice)
				abort(); /* a mix without them must not read */
			fray_chits_combat_in in = {.mix = m, .draw = m->nchits < 2 ? m->nchits : 2,
						   .situation = {.attacker_cdr = 3, .defender_cdr = 2}};
			fray_dist *d;
			if (fray_enumerate(ctx, fray_chits_draws_procedure, NULL, &in, 4, NULL, &d) == FRAY_OK)
				fray_dist_free(d);
			in.draw = m->nchits < 3 ? m->nchits : 3;
			in.side[0].nunits = in.side[1].nunits = 1;
			in.side[0].units[0] = in.side[1].units[0] =
				(fray_chits_unit){.battalions = 2, .morale = 5, .can_retreat = true};
			fray_roller *r = fray_roller_sample_new(ctx, size, 0);
			fray_roller_set_sink(r, fuzz_narrate, NULL);
			fray_chits_combat_out out;
			fray_chits_combat(r, NULL, &in, &out);
			fray_roller_free(r);
			fray_chits_mix_free(m);
		} else if (fray_doc_error_count(doc) == 0) {
			abort();
		}
		fuzz_show_errors(doc);
		fray_doc_free(doc);
	}
	fuzz_show(fray_ctx_message(ctx));
	fray_ctx_free(ctx);
	return 0;
}
