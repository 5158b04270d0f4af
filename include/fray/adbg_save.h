/* A saved ADBG quick battle (fray adbg battle --save, fray adbg resume):
 * the file's format, state to text and text to state, with every check a
 * resume makes before it trusts the file. The front end only reads and
 * writes the file (atomically) and prints. */
#ifndef FRAY_ADBG_SAVE_H
#define FRAY_ADBG_SAVE_H

#include <stdbool.h>
#include <stdint.h>
#include <fray/adbg.h>
#include <fray/ctx.h>
#include <fray/data.h>
#include <fray/status.h>

/* The format written in "fray_save"; another one is refused, never misread.
 * 2: the scenario's digest covers its CRT file; policy_fnv1a. */
#define FRAY_ADBG_SAVE_VERSION 2
#define FRAY_ADBG_SAVE_PATH 4096   /* the scenario's path, with its NUL */
#define FRAY_ADBG_SAVE_POLICY 4200 /* a --policy spec, with its NUL */

/* What a save holds besides the battle's state: how to find the scenario
 * again (and know it has not changed), the seed, the policy and how far
 * the dice and the policy have gone. */
typedef struct fray_adbg_save {
	char scenario[FRAY_ADBG_SAVE_PATH];         /* the scenario file, an absolute path */
	uint64_t scenario_digest;                   /* fray_adbg_scenario_digest: file and CRT */
	uint64_t policy_digest;                     /* of the policy scripts, 0 when none */
	uint64_t seed;
	char policy[FRAY_ADBG_SAVE_POLICY];         /* the --policy spec */
	char policy_a[FRAY_ADBG_SAVE_POLICY];       /* one per side, "" when not given */
	char policy_b[FRAY_ADBG_SAVE_POLICY];
	uint64_t policy_position, dice_position;    /* fray_policy_tell, fray_roller_tell */
	/* the digests as a read found them (text: a changed file is told when
	 * compared, by fray_adbg_save_same_scenario and _same_policy) */
	char scenario_fnv1a[24], policy_fnv1a[24];
} fray_adbg_save;

/* The save file's text: the header from sv (its digests and positions as
 * given; the *_fnv1a texts are not used), then the battle's state between
 * rounds. A path that is not UTF-8 is written as its bytes in hexadecimal
 * (scenario_bytes), so any path can be resumed. *out is malloc'd: free()
 * it; *len its length. FRAY_ERR_NOMEM on the context. */
fray_status fray_adbg_save_text(fray_ctx *ctx, const fray_adbg_save *sv, const fray_adbg_battle_state *st,
				char **out, size_t *len);

/* Reads a save's header from a loaded document into sv (the state is read
 * by fray_adbg_battle_restore on the document's root, once the scenario
 * is loaded). FRAY_OK; FRAY_ERR_INPUT when the document is no save of this
 * format (the one reason on the context, "file:line:col: ...") or when its
 * fields are wrong (every problem on doc, fray_doc_error_msg). */
fray_status fray_adbg_save_read(fray_ctx *ctx, fray_doc *doc, fray_adbg_save *sv);

/* Whether the scenario (its file and CRT, as read now) and the policy
 * scripts are those the battle was saved with: a resume goes on only then. */
bool fray_adbg_save_same_scenario(const fray_adbg_save *sv, uint64_t scenario_digest);
bool fray_adbg_save_same_policy(const fray_adbg_save *sv, uint64_t policy_digest);

#endif
