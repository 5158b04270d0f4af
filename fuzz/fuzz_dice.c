/* Fuzz target: the dice expression parser, and for what parses, the exact
 * distribution (must sum to 1) and a sampled roll (within min..max). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <fray/fray.h>
#include "narrate.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char text[FRAY_DICE_MAX_TEXT + 8];
	if (size > sizeof text - 1)
		size = sizeof text - 1;
	memcpy(text, data, size);
	text[size] = '\0';
	fray_ctx *ctx = fray_ctx_new(NULL, NULL);
	fray_dice *d;
	if (fray_dice_parse(ctx, text, &d) == FRAY_OK) {
		/* keep each run fast: big expressions are the benchmark's job */
		if (fray_dice_max(d) - fray_dice_min(d) < 2000) {
			fray_dist *dist;
			if (fray_dice_dist(d, &dist) != FRAY_OK)
				abort();
			double sum = fray_dist_unresolved(dist);
			for (size_t i = 0; i < fray_dist_count(dist); i++)
				sum += fray_dist_p(dist, i);
			if (sum < 1 - 1e-12 || sum > 1 + 1e-12)
				abort();
			fray_dist_free(dist);
		}
		fray_roller *r = fray_roller_sample_new(ctx, size, 0);
		fray_roller_set_sink(r, fuzz_narrate, NULL);
		int64_t total = fray_dice_roll(d, r);
		if (total < fray_dice_min(d) || total > fray_dice_max(d))
			abort();
		fray_roller_free(r);
		fray_dice_free(d);
	} else if (fray_ctx_message(ctx)[0] == '\0') {
		abort(); /* a failure must say why */
	}
	fuzz_show(fray_ctx_message(ctx));
	fray_ctx_free(ctx);
	return 0;
}
