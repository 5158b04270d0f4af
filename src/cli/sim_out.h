/* A battle simulation's result: printed as text or JSON, written as a
 * shard file, read back and merged (fray merge). */
#ifndef FRAY_SIM_OUT_H
#define FRAY_SIM_OUT_H
#include "cli.h"
#include <fray/shard.h>

/* The result; partial: NULL, or why it counts fewer trials than asked.
 * Returns the exit status (2 for a report past its budget). */
int sim_print(FILE *out, const fray_shard_meta *m, const fray_sim *s, fray_format form, const char *partial);

/* Writes the shard (trials [first, last)) to path, atomically, or to
 * stdout when path is NULL. Returns the exit status. */
/* A partial shard (stopped early) never replaces a file: it goes to
 * PATH.partial beside it, and PATH is left as it was. */
int sim_write_shard(const char *cmd, const char *path, const fray_shard_meta *m, const fray_sim *s,
		    uint64_t first, uint64_t last, bool partial);

/* fray merge of a sweep's shards (cmd_adbg_sweep.c). */
/* form: TEXT, JSON or CSV */
int adbg_sweep_merge(int nfiles, char **files, fray_format form);

/* A sweep's shard read a line at a time (shard_lines.c): whether the file
 * at path begins as fray writes one; its points added to mg as they are
 * read (sh: its head), every problem printed. The exit status; *verdict
 * the merge's (FRAY_MERGE_ADDED unless the shard is refused for it). */
bool shard_lines_is_sweep(const char *path);
int shard_lines_merge(const char *cmd, fray_ctx *ctx, const char *path, fray_sweep_merge *mg, fray_sweep_shard *sh,
		      fray_merge_verdict *verdict);

#endif
