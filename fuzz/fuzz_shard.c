/* Fuzz target: a simulation shard file (fray merge's reader, libfray's include/fray/shard.h).
 * A shard that reads must be whole: each field's counts add up to the
 * trials counted, within the slice its number gives. It is then added to a
 * total as fray merge does. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <fray/fray.h>
#include <fray/shard.h>
#include "narrate.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fray_ctx *ctx = fray_ctx_new(NULL, NULL);
	fray_doc *doc;
	if (fray_doc_load_string(ctx, "shard.json", (const char *)data, size, &doc) == FRAY_OK) {
		fray_sim_shard *sh = calloc(1, sizeof *sh);
		fray_sim *total = fray_sim_new(FRAY_ADBG_SIM_FIELDS);
		if (!sh || !total)
			abort();
		if (fray_sim_shard_read(doc, sh)) {
			uint64_t counted = fray_sim_trials(sh->sim);
			if (fray_doc_error_count(doc) != 0 || sh->m.shard < 1 || sh->m.shard > sh->m.nshards ||
			    counted > sh->last - sh->first || fray_sim_nfields(sh->sim) != FRAY_ADBG_SIM_FIELDS)
				abort();
			for (size_t f = 0; f < FRAY_ADBG_SIM_FIELDS; f++) {
				uint64_t sum = 0;
				for (int v = 0; v <= FRAY_SIM_MAX_VALUE; v++)
					sum += fray_sim_count(sh->sim, f, v);
				if (sum != counted)
					abort();
			}
			if (fray_sim_add(total, sh->sim) != FRAY_OK)
				abort();
			(void)fray_sim_mean(total, FRAY_ADBG_SIM_ROUNDS);
		} else if (fray_doc_error_count(doc) == 0) {
			abort(); /* refused without saying why */
		}
		fray_sim_free(sh->sim);
		fray_sim_free(total);
		free(sh);
		fuzz_show_errors(doc);
		fray_doc_free(doc);
	}
	fuzz_show(fray_ctx_message(ctx));
	fray_ctx_free(ctx);
	return 0;
}
