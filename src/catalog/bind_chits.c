/* The chit-pull system's end of turn in the catalogue (chit-combat.txt,
 * G5). */
#include <stdlib.h>
#include <string.h>
#include "catalog.h"

#define RULE "chit combat, end of turn"

enum { ET_MIX, ET_FATIGUE, ET_HITS, ET_MORALE, ET_LEAD, ET_REST, ET_RALLY, ET_RECOVER, ET_DISORDERED, ET_HIT_AGAIN,
       ET_N };
#define UNIT(f) IN_FIELD(fray_chits_end_turn_in, unit.f)
static const char *const not_rally[] = {"recover_disorder", NULL};
static const in_desc end_turn_in[] = {
	{"mix", IN_FILE, .required = true, .help = "the chit mix (its morale test is the rally test)",
	 .rule = "chit combat, G5", .missing = "FILE (its morale test is the rally test)"},
	/* the levels the library, the game file and combat files hold
	 * (FRAY_CHITS_MAX_LEVEL; issue 40 item 9: these stopped at 20) */
	{"fatigue", IN_INT, 0, FRAY_CHITS_MAX_LEVEL, .help = "the brigade's fatigue points", .rule = RULE, UNIT(fatigue)},
	{"hits", IN_STRING, .help = "hits per battalion, such as 1,0,0,0", .rule = RULE},
	{"morale", IN_INT, 0, FRAY_CHITS_MAX_LEVEL, .def = 7, .help = "the brigade's morale level", .rule = "chit combat, G5",
	 UNIT(morale)},
	{"lead", IN_INT, 1, FRAY_CHITS_MAX_BATTALIONS, .label = "leading battalion", .help = "the battalion that now leads",
	 .rule = RULE ", lead battalion"},
	{"rest", IN_BOOL, .help = "a Rest order: 1d3 more fatigue points off", .rule = RULE,
	 IN_FIELD(fray_chits_end_turn_in, rest)},
	{"rally", IN_BOOL, .help = "Rally/Recover: try to recover a lost hit (never the last)", .rule = RULE,
	 IN_FIELD(fray_chits_end_turn_in, rally), .excludes = not_rally,
	 .why_excluded = "Rally/Recover does not recover from disorder in the activation that rallies"},
	{"recover_disorder", IN_BOOL, .help = "Rally/Recover: try to recover from disorder", .rule = RULE,
	 IN_FIELD(fray_chits_end_turn_in, recover_disorder)},
	{"disordered", IN_BOOL, .help = "the brigade is disordered", .rule = RULE, UNIT(disordered)},
	{"hit_again", IN_BOOL, .help = "casualties since its combat this turn (the lead cannot change)",
	 .rule = RULE ", lead battalion", IN_FIELD(fray_chits_end_turn_in, hits_since_combat)},
};
static const out_desc end_turn_out[] = {
	{"fatigue", "integer", "fatigue points after", .after = " fatigue points"},
	{"hits", "integer", "hits in all after", .after = " hits"},
	{"disordered", "boolean", "still disordered", .yes = "disordered", .no = "in order"}};

/* The brigade's hits, "1,0,0,0", one a battalion. */
static fray_status parse_hits(fray_call *c, fray_chits_unit *u)
{
	const char *hits = val_given(c, ET_HITS) ? val_s(c, ET_HITS) : "0,0,0,0";
	for (const char *p = hits;;) {
		char *end;
		long v = strtol(p, &end, 10);
		if (end == p || v < 0 || v > FRAY_CHITS_MAX_LEVEL || u->battalions == FRAY_CHITS_MAX_BATTALIONS || (*end && *end != ','))
			return frayi_call_bad(c, "%s expects hits per battalion, such as 1,0,0,0; got '%.200s'",
					frayi_call_opt(c, ET_HITS), hits);
		u->hits[u->battalions++] = (int)v;
		if (!*end)
			return FRAY_OK;
		p = end + 1;
	}
}

static void free_mix(fray_call *c)
{
	fray_chits_mix_free(c->owned[0]);
	c->owned[0] = NULL;
}

static fray_status bind_end_turn(fray_call *c)
{
	fray_chits_end_turn_in *in = CALL_INPUT(c, fray_chits_end_turn_in);
	fray_chits_unit *u = &in->unit;
	if (in->recover_disorder && !u->disordered)
		return frayi_call_bad(c, "%s is for a %s brigade", frayi_call_opt(c, ET_RECOVER),
				frayi_call_opt(c, ET_DISORDERED));
	if (in->hits_since_combat && !val_given(c, ET_LEAD))
		return frayi_call_bad(c, "%s matters only to a lead switch (%s N)", frayi_call_opt(c, ET_HIT_AGAIN),
				frayi_call_opt(c, ET_LEAD));
	/* the lead as the table counts battalions, from 1 */
	in->new_lead = val_given(c, ET_LEAD) ? (int)val_i(c, ET_LEAD) - 1 : -1;
	snprintf(u->name, sizeof u->name, "the brigade");
	fray_status st = parse_hits(c, u);
	if (st != FRAY_OK)
		return st;
	if (in->new_lead >= u->battalions)
		return frayi_call_bad(c, "%s %d: the brigade has %d battalions", frayi_call_opt(c, ET_LEAD),
				in->new_lead + 1,
				u->battalions);
	fray_chits_mix *mix = NULL;
	fray_doc *doc;
	if (frayi_call_load_doc(c, ET_MIX, &doc) != FRAY_OK)
		return fray_ctx_status(c->ctx);
	st = fray_chits_mix_read(c->ctx, doc, &mix);
	fray_doc_free(doc);
	if (st != FRAY_OK)
		return st;
	c->owned[0] = mix;
	c->cleanup = free_mix;
	in->mix = mix;
	char list[64];
	textbuf h = text_on(list, sizeof list);
	for (int b = 0; b < u->battalions; b++)
		text_add(&h, "%s%d", b ? "," : "", u->hits[b]);
	frayi_call_title(c, "end of turn: fatigue %d, hits %s, morale %d%s%s%s%s", u->fatigue, list, u->morale,
		   in->rest ? ", Rest" : "", in->rally ? ", rally" : "",
		   in->recover_disorder ? ", recover from disorder" : "", u->disordered ? ", disordered" : "");
	/* the echo as the state a table keeps: the hits as numbers, no mix */
	textbuf t = text_on(c->inputs_json, sizeof c->inputs_json);
	text_add(&t, "{\"fatigue\": %d, \"hits\": [%s], \"morale\": %d, \"rest\": %s, \"rally\": %s, "
		     "\"recover_disorder\": %s, \"disordered\": %s", u->fatigue, list, u->morale,
		 in->rest ? "true" : "false", in->rally ? "true" : "false", in->recover_disorder ? "true" : "false",
		 u->disordered ? "true" : "false");
	if (in->new_lead >= 0)
		text_add(&t, ", \"lead\": %d, \"hit_again\": %s", in->new_lead + 1, in->hits_since_combat ? "true" : "false");
	text_add(&t, "}");
	call_run(c, fray_chits_end_turn_procedure, 3, NULL);
	return FRAY_OK;
}

static const proc_desc frayi_chits_end_turn_desc = {
	"chits.end_turn", "chits end-turn", "a brigade's end of turn", "chit combat, end of turn; G5",
	"One fatigue point off (a Rest order: 1d3 more); Rally/Recover tries to\n"
	"recover a lost hit (the mix's morale test; the last hit can never be\n"
	"recovered) or to recover a disordered brigade from disorder (the same test;\n"
	"not both in one activation); a new lead battalion, unless the brigade took\n"
	"casualties after its combat.",
	end_turn_in, ET_N, end_turn_out, 3, FRAY_MODE_ROLL | FRAY_MODE_ODDS,
	"{\"mix\": \"examples/chits/sample-mix.yaml\", \"fatigue\": 2, \"hits\": \"2,1,0,0\", \"rest\": true, "
	"\"rally\": true}",
	bind_end_turn, NULL, NULL, false,
	.headline = {"hits", "each", "the brigade's hits after the end of turn"}, .words = "rally rest fatigue recover", .generic = true, .no_sides = true};

/* This file's procedures, in the catalogue's order (list.c joins the files). */
const proc_desc *const frayi_chits_procs[] = {
	&frayi_chits_end_turn_desc, NULL,
};
