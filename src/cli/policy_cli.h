/* Policies chosen on the command line: heuristic, scripted:FILE,
 * random[:SEED] and interactive (asks on the terminal). */
#ifndef FRAY_CLI_POLICY_H
#define FRAY_CLI_POLICY_H

#include "cli.h"

/* Makes the policy named by spec; reports a bad spec and returns 2. */
int cli_make_policy(const char *cmd, fray_ctx *ctx, const char *spec, fray_policy **out);

#endif
