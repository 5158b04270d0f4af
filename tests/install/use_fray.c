/* A program of a libfray user, built against the installed library. */
#include <fray/fray.h>
#include <stdio.h>
#include <string.h>

int main(void)
{
	fray_ctx *ctx = fray_ctx_new(NULL, NULL);
	fray_dice *d;
	fray_dist *odds;
	char frac[64];
	if (!ctx || fray_dice_parse(ctx, "2d6+1", &d) != FRAY_OK ||
	    fray_dice_dist(d, &odds) != FRAY_OK)
		return 1;
	fray_dist_p_exact(odds, 5, frac, sizeof frac); /* total 8: 6 of 36 ways */
	printf("fray %s: P(2d6+1 = %lld) = %s\n", fray_version(),
	       (long long)fray_dist_outcome(odds, 5)[0], frac);
	int ok = strcmp(frac, "1/6") == 0 && strcmp(fray_version(), FRAY_VERSION_STRING) == 0;
	fray_dist_free(odds);
	fray_dice_free(d);
	fray_ctx_free(ctx);
	return ok ? 0 : 1;
}
