/* Dice expressions: "2d6+1", "1d6-1d6", "d30", "3d12", "d6!", "4d6kh3",
 * "2d20kl1", "4d6dl1", "9d12>=9", "6d6<=2", "d66", "2d6r2".
 *   expr := term (('+' | '-') term)*      spaces allowed between terms
 *   term := [N] 'd' S [modifier]  |  K
 *   modifier := '!' | 'r' K | ('k' | 'kh' | 'kl' | 'd' | 'dl' | 'dh') K
 *             | '>=' K | '<=' K
 * `d6!` is the re-roll-and-add die (Presidio, ruling R16): on its top face it
 * is rolled once more and the two are added (once, not again). `rK`
 * re-rolls a face of K or less once and keeps the new face; k/d keep or
 * drop the highest or lowest; >= and <= count the dice that pass; d66 is
 * two d6 read as tens and units. docs/dice.md has the details. */
#ifndef FRAY_DICE_H
#define FRAY_DICE_H

#include <stddef.h>
#include <stdint.h>
#include <fray/ctx.h>
#include <fray/dist.h>
#include <fray/roller.h>

/* Limits, checked by the parser with a message naming the column. */
#define FRAY_DICE_MAX_TEXT 256        /* characters */
#define FRAY_DICE_MAX_TERMS 32
#define FRAY_DICE_MAX_DICE 200        /* dice in the whole expression */
#define FRAY_DICE_MAX_SIDES 1000
#define FRAY_DICE_MAX_CONST 1000000

typedef struct fray_dice fray_dice;

/* Parses text. On bad input returns FRAY_ERR_INPUT (or FRAY_ERR_LIMIT) with
 * "column C: expected ..." on the context and *out NULL. */
fray_status fray_dice_parse(fray_ctx *ctx, const char *text, fray_dice **out);
void fray_dice_free(fray_dice *d);

/* Canonical text ("2d6+1"), snprintf-like. */
size_t fray_dice_format(const fray_dice *d, char *dst, size_t cap);
int64_t fray_dice_min(const fray_dice *d);
int64_t fray_dice_max(const fray_dice *d);

/* Rolls the expression with r (one event per die), returns the total. */
int64_t fray_dice_roll(const fray_dice *d, fray_roller *r);
/* The same, each die's event labelled `what` ("leader loss") rather than
 * with its term ("1d6"). */
int64_t fray_dice_roll_as(const fray_dice *d, fray_roller *r, const char *what);

/* A check: the dice pass when their total is one of totals[0..n) (a
 * leader lost on 2, 11 or 12 of 2d6). d must outlive the check. Rolled
 * with a sampling roller, or told, the dice are rolled as with
 * fray_dice_roll_as; under enumeration the check is one event of two
 * branches, pass and fail, weighted by the exact chance computed from the
 * dice when the check is made, and *total is a total that gives the
 * verdict (read it only as a verdict: its narration is not rendered).
 * The chance is counted only for up to 10 dice of up to 100 sides (a
 * millisecond; the largest expressions would take seconds, and a check
 * is made when a scenario is read, even from a request); a bigger check
 * is rolled die by die under enumeration too. */
#define FRAY_DICE_CHECK_MAX_TOTALS 64
typedef struct fray_dice_check fray_dice_check;
fray_status fray_dice_check_new(fray_ctx *ctx, const fray_dice *d, const int64_t *totals,
				size_t n, fray_dice_check **out);
void fray_dice_check_free(fray_dice_check *c);
bool fray_dice_check_roll(const fray_dice_check *c, fray_roller *r, const char *what,
			  int64_t *total);

/* The expression as a procedure (input: const fray_dice *, one field: the
 * total), for fray_enumerate and fray_aggregate. */
void fray_dice_procedure(fray_roller *r, fray_policy *p, const void *dice,
			 int64_t *outcome);

/* The exact distribution of the total, by convolution (fast for any size
 * within the limits). One field per outcome. */
fray_status fray_dice_dist(const fray_dice *d, fray_dist **out);

#endif
