/* Policies chosen on the command line: heuristic, best[:GOAL], scripted:FILE,
 * random[:SEED] and interactive (asks on the terminal). */
#ifndef FRAY_CLI_POLICY_H
#define FRAY_CLI_POLICY_H

#include "cli.h"

/* Makes the policy named by spec; reports a bad spec and returns 2. When
 * digest is not NULL, a script's file digest (fray_doc_digest) is chained
 * into it, so a save notices a script changed since. */
int cli_make_policy(const char *cmd, fray_ctx *ctx, const char *spec, fray_policy **out,
		    uint64_t *digest);
/* --policy P, or --policy-a P --policy-b Q (one per side, file order):
 * makes the policy and a name for it ("heuristic", "heuristic vs random"). */
int cli_make_side_policies(const char *cmd, fray_ctx *ctx, const char *both,
			   const char *a, const char *b, fray_policy **out,
			   char *name, size_t cap, uint64_t *digest);

#endif
