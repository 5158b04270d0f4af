/* libfray: tabletop-wargame combat resolution. Include this header only.
 *
 * Ownership, once for the whole API: the caller owns what a *_new, *_parse
 * or *_load call returns and frees it with the matching *_free (free(NULL)
 * is a no-op). Every object keeps the context it was made with; the context
 * must outlive them. Strings passed in are copied unless a comment says
 * otherwise; pointers handed out are borrowed, valid as their comment says.
 * Fallible calls return fray_status and leave a one-line message on the
 * context. The library never prints, exits or aborts on bad input. */
#ifndef FRAY_H
#define FRAY_H

#include <fray/version.h>
#include <fray/status.h>
#include <fray/ctx.h>
#include <fray/format.h>
#include <fray/rng.h>
#include <fray/events.h>
#include <fray/policy.h>
#include <fray/dist.h>
#include <fray/roller.h>
#include <fray/simulate.h>
#include <fray/dice.h>
#include <fray/data.h>
#include <fray/adbg.h>
#include <fray/bbb.h>
#include <fray/chits.h>
#include <fray/presidio.h>
#include <fray/catalog.h>
#include <fray/game.h>
#include <fray/scenario_edit.h>
#include <fray/sweep.h>

#endif
