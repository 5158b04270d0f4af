/* Private: a parsed dice expression, shared by the parser (dice_parse.c),
 * the roller (dice.c) and the exact distribution (dice_dist.c). */
#ifndef FRAY_DICE_INTERNAL_H
#define FRAY_DICE_INTERNAL_H

#include <fray/dice.h>
#include "internal.h"

typedef enum dice_kind {
	DICE_CONST,       /* a number */
	DICE_SUM,         /* NdS, added */
	DICE_REROLL_ADD,  /* NdS!: on the top face once more, added (R16) */
	DICE_REROLL_LOW,  /* NdSrK: a face of K or less re-rolled once, the new face kept */
	DICE_D66,         /* Nd66: two d6 read as tens and units, 11-66 */
	DICE_KEEP_HIGH,   /* NdSkhK (or dlN-K): the K highest faces added */
	DICE_KEEP_LOW,    /* NdSklK (or dhN-K): the K lowest faces added */
	DICE_AT_LEAST,    /* NdS>=K: how many dice show K or more */
	DICE_AT_MOST      /* NdS<=K: how many dice show K or less */
} dice_kind;

typedef struct dice_term {
	dice_kind kind;
	int sign;      /* +1 or -1 */
	int count;     /* dice; 0 for a constant */
	int sides;
	int param;     /* K of r, kh, kl, >=, <= (kept dice for a drop) */
	int64_t value; /* the constant */
	char label[40];
} dice_term;

struct fray_dice {
	fray_ctx *ctx;
	size_t nterms;
	dice_term terms[FRAY_DICE_MAX_TERMS];
};

/* Keep and drop terms are limited so that their exact odds (a dynamic
 * programme over faces, dice placed and the kept sum) stay fast. */
#define DICE_KEEP_MAX_DICE 20
#define DICE_KEEP_MAX_SIDES 100

#endif
