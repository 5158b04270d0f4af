/* libfray: tabletop-wargame combat resolution. Include this header only.
 *
 * Ownership, once for the whole API: the caller owns what a *_new, *_parse
 * or *_load call returns and frees it with the matching *_free (free(NULL)
 * is a no-op). Every object keeps the context it was made with; the context
 * must outlive them. Strings passed in are copied unless a comment says
 * otherwise; pointers handed out are borrowed, valid as their comment says.
 * Strings handed out, once for the whole API: one read from an object
 * (a document, scenario, roller, game) lives in it and is valid as long as
 * it, as the comment says; a reason or a name a rule or a table gives
 * with no object to hold it (fray_status_str, the rules' *_refused and
 * *_problem queries, fray_presidio_morale_result, the catalogue's names)
 * is static storage: constant, never freed, the same from any thread. No
 * call returns a thread-local or reused buffer: a text a call builds is
 * written to the caller's buf (cap bytes), or handed over through char **
 * for the caller to free.
 * Fallible calls return fray_status and leave a one-line message on the
 * context. The library never prints, exits or aborts on bad input. */
#ifndef FRAY_H
#define FRAY_H

#include <fray/version.h>
#include <fray/status.h>
#include <fray/ctx.h>
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
