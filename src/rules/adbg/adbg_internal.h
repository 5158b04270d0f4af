/* Private to the adbg rule set. */
#ifndef FRAY_ADBG_INTERNAL_H
#define FRAY_ADBG_INTERNAL_H

#include <fray/adbg.h>
#include "../../core/internal.h"

static inline int clamp_int(int v, int lo, int hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

#endif
