/* A small battle of A Dark and Bloody Ground with a CRT of its own, for
 * the fuzz targets that need a battle to run what they read. */
#ifndef FRAY_FUZZ_TINY_BATTLE_H
#define FRAY_FUZZ_TINY_BATTLE_H

#include <stdlib.h>
#include <string.h>
#include <fray/fray.h>

static const char tiny_battle[] =
	"battle: Fuzz\nterrain: wilderness\nweather: normal\ninitiative: red\nsurprise: none\n"
	"melee_crt: {columns: [\"1:2\", \"1:1\", \"2:1\"], rows: {1: [\"R/-\", \"1/1\", \"-/R\"], "
	"2: [\"1/-\", \"1/1\", \"-/2\"]}}\n"
	"leader_loss:\n  after_fire: {roll: 1d6, lost_on: [6]}\n  after_melee: {roll: 1d6, lost_on: [5, 6]}\n"
	"victory: {rule: losses, routed: {roll: 1d6, eliminated_on: [1, 2]}}\n"
	"sides:\n"
	"  red:\n    level: 3\n    primary_leader: {name: R, rating: 2, stack: 1}\n"
	"    leaders: [{name: R2, rating: 1, stack: 2}]\n"
	"    stacks:\n      - - {name: R1, type: warrior, fire: 3, melee: 2}\n"
	"        - {name: R1b, type: warrior, fire: 1, melee: 1}\n"
	"      - - {name: R3, type: warrior, fire: 2, melee: 2}\n"
	"  blue:\n    level: 2\n    primary_leader: {name: B, rating: 1, stack: 1}\n"
	"    stacks:\n      - - {name: B1, type: militia, fire: 2, melee: 2}\n"
	"      - - {name: B2, type: regular, fire: 2, melee: 1}\n"
	"      - - {name: B3, type: rifle, fire: 3, melee: 1}\n";

/* The battle read; it must read, so anything else aborts. */
static fray_adbg_scenario *tiny_battle_scenario(fray_ctx *ctx)
{
	fray_doc *doc;
	fray_adbg_scenario *s = NULL;
	if (fray_doc_load_string(ctx, "scenario.yaml", tiny_battle, strlen(tiny_battle), &doc) != FRAY_OK ||
	    fray_adbg_scenario_read(ctx, doc, &s) != FRAY_OK)
		abort();
	fray_doc_free(doc);
	return s;
}

#endif
