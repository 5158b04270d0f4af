/* Fuzz target: Presidio's unit statistics reader (G4); a file that reads
 * has every type findable by its name and every value in range. */
#include <stdint.h>
#include <stdlib.h>
#include <fray/fray.h>
#include "narrate.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static fray_presidio_units units;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fray_ctx *ctx = fray_ctx_new(NULL, NULL);
	fray_doc *doc;
	if (fray_doc_load_string(ctx, "fuzz.yaml", (const char *)data, size, &doc) == FRAY_OK) {
		if (fray_presidio_units_read(doc, &units)) {
			for (int i = 0; i < units.n; i++) {
				const fray_presidio_unit_type *t = &units.types[i];
				fuzz_show(t->name); /* as fray presidio units lists it */
				if (!fray_presidio_unit_find(&units, t->name) || t->ranged < 0 || t->ranged > 4 ||
				    t->level < 0 || t->level > 3)
					abort();
			}
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
