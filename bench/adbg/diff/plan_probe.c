/* bench/adbg/diff/plan_probe.c: reads ADBG scenarios and walks each one's
 * exact odds (heuristic policy, the CLI's default budget), printing what
 * the plans did (frayi_adbg_plan_counts): battles answered by plans,
 * refused to them, plans with a move, with a chain. For the differential
 * check of exactdiff.sh only, against build/libfray.a.
 * Build: gcc -O2 -std=c17 -I include -o build/plan_probe bench/adbg/diff/plan_probe.c \
 *        build/libfray.a $(pkg-config --libs libfyaml gmp) -lpthread -lm
 * Usage: plan_probe FILE...   one line a file: FILE exact battles refused moves chains */
#include <stdio.h>
#include <stdint.h>
#include <fray/fray.h>
#include "../../../src/rules/adbg/battle_convolve.h"

int main(int argc, char **argv)
{
	fray_ctx *ctx = fray_ctx_new(NULL, NULL);
	if (!ctx)
		return 2;
	for (int i = 1; i < argc; i++) {
		fray_adbg_scenario *s = NULL;
		if (fray_adbg_scenario_load(ctx, argv[i], &s) != FRAY_OK) {
			printf("%s error load\n", argv[i]);
			continue;
		}
		fray_policy *p = fray_policy_heuristic_new(ctx);
		fray_adbg_odds_opts o = {.budget = 30000000, .trials = 1000, .seed = 1, .threads = 1};
		fray_adbg_odds odds = {0};
		frayi_adbg_plan_counts before, after;
		frayi_adbg_plan_counts_get(&before);
		fray_status st = fray_adbg_battle_odds(ctx, s, p, &o, &odds);
		frayi_adbg_plan_counts_get(&after);
		printf("%s %s %llu %llu %llu %llu\n", argv[i], st != FRAY_OK ? "error" : odds.exact ? "exact" : "simulated",
		       (unsigned long long)(after.battles - before.battles),
		       (unsigned long long)(after.refused - before.refused),
		       (unsigned long long)(after.moves - before.moves),
		       (unsigned long long)(after.chains - before.chains));
		fflush(stdout);
		if (st == FRAY_OK)
			fray_dist_free(odds.dist);
		fray_policy_free(p);
		fray_adbg_scenario_free(s);
	}
	fray_ctx_free(ctx);
	return 0;
}
