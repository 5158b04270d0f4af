/* A Dark and Bloody Ground's single procedures in the catalogue (rule 19):
 * fire, move, recover and rounds. */
#include <stdlib.h>
#include <string.h>
#include "catalog.h"

static const char *const weathers[] = {"normal", "severe"};

/* ---- fire (19.2.1) ---- */

static const in_desc fire_in[] = {
	{"type", IN_CHOICE, .choices = fray_adbg_type_names, .nchoices = 4, .required = true,
	 .help = "the firing unit's type", .rule = "ADBG 19.2.1", IN_FIELD(fray_adbg_fire_in, type)},
	{"cf", IN_INT, 0, 9, .required = true, .label = "fire combat factor", .help = "the unit's printed fire combat factor",
	 .rule = "ADBG 19.2.1", IN_FIELD(fray_adbg_fire_in, cf)},
	{"terrain", IN_CHOICE, .choices = fray_adbg_terrain_names, .nchoices = 3, .required = true,
	 .help = "the battle's terrain", .rule = "ADBG 19.2.1, ruling R5", IN_FIELD(fray_adbg_fire_in, terrain)},
	/* "severe" is the second choice: its index is the flag */
	{"weather", IN_CHOICE, .choices = weathers, .nchoices = 2, .help = "severe weather loses the starred rows",
	 .rule = "ADBG 19.2.1, ruling R5", IN_FIELD(fray_adbg_fire_in, severe)},
};
static const out_desc fire_out[] = {{"hit", "boolean", "the fire hits", .yes = "hit", .no = "miss"}};

static fray_status bind_fire(fray_call *c)
{
	const fray_adbg_fire_in *in = CALL_INPUT(c, fray_adbg_fire_in);
	frayi_call_title(c, "fire: %s, CF %d, %s%s", fray_adbg_type_names[in->type], in->cf,
		   fray_adbg_terrain_names[in->terrain], in->severe ? ", severe weather" : "");
	call_run(c, fray_adbg_fire_procedure, 1, NULL);
	return FRAY_OK;
}

static const proc_desc frayi_adbg_fire_desc = {
	"adbg.fire", "adbg fire", "one unit's fire: hit or miss", "ADBG 19.2.1, ruling R5",
	"A hit when the modified DR is at most the modified CF; a 1 always hits, a 6\n"
	"always misses.",
	fire_in, 4, fire_out, 1, FRAY_MODE_ROLL | FRAY_MODE_ODDS,
	"{\"type\": \"regular\", \"cf\": 3, \"terrain\": \"wilderness\"}", bind_fire, NULL, NULL, false,
	.headline = {"hit", "== true", "the fire hits"}, .words = "shoot musket rifle shot", .generic = true, .no_sides = true};

/* ---- move (19.2.2) ---- */

enum { MOVE_LEVEL, MOVE_TYPE, MOVE_TERRAIN, MOVE_LEADER, MOVE_WEATHER, MOVE_ATOP, MOVE_SURPRISE, MOVE_REGULARS };
static const in_desc move_in[] = {
	{"level", IN_INT, 0, 6, .required = true, .help = "the side's commitment/mobilization level",
	 .rule = "ADBG 19.2.2", IN_FIELD(fray_adbg_move_in, level)},
	{"type", IN_CHOICE, .choices = fray_adbg_type_names, .nchoices = 4, .required = true,
	 .help = "the moving unit's type", .rule = "ADBG 19.2.2"},
	{"terrain", IN_CHOICE, .choices = fray_adbg_terrain_names, .nchoices = 3, .required = true,
	 .help = "the battle's terrain", .rule = "ADBG 19.2.2", IN_FIELD(fray_adbg_move_in, terrain)},
	{"leader", IN_INT, 0, 3, .help = "a stacked leader's rating (0: none), subtracted",
	 .rule = "ADBG 19.2.2", IN_FIELD(fray_adbg_move_in, leader)},
	{"weather", IN_CHOICE, .choices = weathers, .nchoices = 2, .help = "severe weather: +1",
	 .rule = "ADBG 19.2.2", IN_FIELD(fray_adbg_move_in, severe)},
	{"enemy_atop", IN_BOOL, .help = "an enemy stack moved atop: +1", .rule = "ADBG 19.2.2",
	 IN_FIELD(fray_adbg_move_in, enemy_atop)},
	{"surprise_winner_round1", IN_BOOL, .help = "the surprise winner in round 1, with a leader: -1",
	 .rule = "ADBG 19.2.2", IN_FIELD(fray_adbg_move_in, surprise_winner_round1)},
	{"with_regulars", IN_BOOL, .help = "stacked with regulars (-1 in settled areas)", .rule = "ADBG 19.2.2"},
};
static const out_desc move_out[] = {{"moved", "boolean", "the move succeeds", .yes = "moves", .no = "stays"}};

static fray_status bind_move(fray_call *c)
{
	fray_adbg_move_in *in = CALL_INPUT(c, fray_adbg_move_in);
	if (in->surprise_winner_round1 && in->leader == 0)
		return frayi_call_bad(c, "%s helps only units stacked with a leader: give %s R (ADBG 19.2.2)",
				frayi_call_opt(c, MOVE_SURPRISE), frayi_call_opt(c, MOVE_LEADER));
	/* the stack's make-up, from the unit's type */
	size_t type = (size_t)val_i(c, MOVE_TYPE);
	in->regular = type == FRAY_ADBG_REGULAR || val_b(c, MOVE_REGULARS);
	in->non_warrior = type != FRAY_ADBG_WARRIOR;
	frayi_call_title(c, "move: %s at level %d, %s%s%s%s%s", fray_adbg_type_names[type], in->level,
		   fray_adbg_terrain_names[in->terrain], in->leader ? ", with a leader" : "",
		   in->severe ? ", severe weather" : "", in->enemy_atop ? ", enemy atop" : "",
		   in->surprise_winner_round1 ? ", surprise (round 1)" : "");
	call_run(c, fray_adbg_move_procedure, 1, NULL);
	return FRAY_OK;
}

static const proc_desc frayi_adbg_move_desc = {
	"adbg.move", "adbg move", "one move attempt: moves or stays", "ADBG 19.2.2, ruling R6",
	"Moves when the modified DR is at most the side's level; a 1 always moves, a\n"
	"6 or a modified 6+ never. The DRMs are cumulative.",
	move_in, 8, move_out, 1, FRAY_MODE_ROLL | FRAY_MODE_ODDS,
	"{\"level\": 3, \"type\": \"militia\", \"terrain\": \"rough\", \"leader\": 1}", bind_move, NULL, NULL, false,
	.headline = {"moved", "== true", "the unit moves"}, .words = "march advance maneuver", .generic = true, .no_sides = true};

/* ---- recover (19.2.4) ---- */

static const in_desc recover_in[] = {
	{"level", IN_INT, 0, 6, .required = true, .help = "the side's level", .rule = "ADBG 19.2.4",
	 IN_FIELD(fray_adbg_recover_in, level)},
	{"leader", IN_INT, 0, 3, .help = "a stacked leader's rating (0: none)", .rule = "ADBG 19.2.4, ruling R9",
	 IN_FIELD(fray_adbg_recover_in, leader)},
};
static const out_desc recover_out[] = {
	{"recovered", "boolean", "recovers one level", .yes = "recovers one level", .no = "does not recover"}};

static fray_status bind_recover(fray_call *c)
{
	const fray_adbg_recover_in *in = CALL_INPUT(c, fray_adbg_recover_in);
	frayi_call_title(c, "recover: level %d%s", in->level, in->leader ? ", with a leader" : "");
	call_run(c, fray_adbg_recover_procedure, 1, NULL);
	return FRAY_OK;
}

static const proc_desc frayi_adbg_recover_desc = {
	"adbg.recover", "adbg recover", "one recovery roll", "ADBG 19.2.4, ruling R9",
	"Recovers one level when the die less a stacked leader's rating is at most\n"
	"the level; a 6 never does.",
	recover_in, 2, recover_out, 1, FRAY_MODE_ROLL | FRAY_MODE_ODDS,
	"{\"level\": 2, \"leader\": 1}", bind_recover, NULL, NULL, false,
	.headline = {"recovered", "== true", "the side recovers a level"}, .words = "rally recovery steady", .generic = true, .no_sides = true};

/* ---- rounds (19.1) ---- */

enum { ROUNDS_INI, ROUNDS_ATTEMPT, ROUNDS_OTHER };
static const in_desc rounds_in[] = {
	{"initiative_rating", IN_INT, 1, 3, .required = true,
	 .help = "the initiative side's primary leader's rating", .rule = "ADBG 19.1, ruling R1",
	 IN_FIELD(fray_adbg_rounds_in, initiative_rating)},
	{"attempt", IN_BOOL, .help = "the other side tries for one more round", .rule = "ADBG 19.1",
	 IN_FIELD(fray_adbg_rounds_in, attempt)},
	/* not given: 0, outside 1-3, so it is not echoed */
	{"other_rating", IN_INT, 1, 3, .help = "the other side's primary leader's rating (with attempt)",
	 .rule = "ADBG 19.1, ruling R1", IN_FIELD(fray_adbg_rounds_in, other_rating)},
};
static const out_desc rounds_out[] = {{"rounds", "integer", "the battle's rounds", .after = " rounds"}};

static fray_status bind_rounds(fray_call *c)
{
	const fray_adbg_rounds_in *in = CALL_INPUT(c, fray_adbg_rounds_in);
	/* each needs the other */
	if (!in->attempt && val_given(c, ROUNDS_OTHER))
		return frayi_call_bad(c, "%s is for %s (the other side's try for one more round)",
				frayi_call_opt(c, ROUNDS_OTHER),
				frayi_call_opt(c, ROUNDS_ATTEMPT));
	if (in->attempt && !val_given(c, ROUNDS_OTHER))
		return frayi_call_missing(c, ROUNDS_OTHER, "--other-rating (the rating that the extra-round die must beat)");
	frayi_call_title(c, "rounds: initiative leader rating %d%s", in->initiative_rating,
		   in->attempt ? ", the other side tries for one more" : "");
	call_run(c, fray_adbg_rounds_procedure, 1, NULL);
	return FRAY_OK;
}

static const proc_desc frayi_adbg_rounds_desc = {
	"adbg.rounds", "adbg rounds", "the battle's rounds", "ADBG 19.1, ruling R1",
	"The initiative side's primary leader's rating; the other side may try for\n"
	"one more, which it gets on a die strictly less than its own primary\n"
	"leader's rating.",
	rounds_in, 3, rounds_out, 1, FRAY_MODE_ROLL | FRAY_MODE_ODDS,
	"{\"initiative_rating\": 2, \"attempt\": true, \"other_rating\": 3}", bind_rounds, NULL, NULL, false,
	.headline = {"rounds", "each", "how many rounds the battle lasts"}, .words = "battle length turns", .generic = true, .no_sides = true};

/* ---- melee (19.2.3, rulings R7, R8, R10) ---- */

#define MAX_SIDE_UNITS 16

typedef struct melee_unit {
	fray_adbg_type type;
	int cf;
	fray_adbg_status status;
} melee_unit;

/* the CF form and the unit form do not mix */
static const char *const unit_form[] = {"attacker", "defender", NULL};
static const char the_cfs_or_the_units[] = "give either the modified CFs or the units, not both";

enum { ME_CRT, ME_ATTACK, ME_DEFEND, ME_SHIFT, ME_DRM, ME_ATTACKER, ME_DEFENDER, ME_TERRAIN, ME_ALEADER, ME_DLEADER,
       ME_ALEVEL, ME_DLEVEL, ME_SURPRISE, ME_N };
static const in_desc melee_in[] = {
	{"crt", IN_FILE, .required = true, .label = "melee CRT", .help = "your game's melee CRT (data/adbg/example-melee-crt.yaml shows the form)",
	 .rule = "ADBG 19.2.3, G1",
	 .missing = "FILE: the melee CRT is your game's table (an example: data/adbg/example-melee-crt.yaml)"},
	{"attack", IN_INT, 0, 1000, .def = -1, .help = "the attackers' modified melee CF (the CF form)", .rule = "ADBG 19.2.3",
	 .excludes = unit_form, .why_excluded = the_cfs_or_the_units},
	{"defend", IN_INT, 0, 1000, .def = -1, .help = "the defenders' modified melee CF (the CF form)", .rule = "ADBG 19.2.3",
	 .excludes = unit_form, .why_excluded = the_cfs_or_the_units},
	/* the unit form works the shift and the DRM out itself */
	{"shift", IN_INT, -20, 20, .help = "net column shift, right positive (the CF form)", .rule = "ADBG 19.2.3, ruling R7",
	 IN_FIELD(fray_adbg_melee_in, shift)},
	{"drm", IN_INT, -3, 3, .label = "die roll modifier", .help = "the melee DRM (the CF form)", .rule = "ADBG 19.2.3, ruling R7",
	 IN_FIELD(fray_adbg_melee_in, drm)},
	{"attacker", IN_STRING, .help = "attacking units as TYPE:CF[:STATUS], comma-separated (the unit form)",
	 .rule = "ADBG 19.2.3"},
	{"defender", IN_STRING, .help = "defending units, the same way", .rule = "ADBG 19.2.3"},
	{"terrain", IN_CHOICE, .choices = fray_adbg_terrain_names, .nchoices = 3, .def = -1,
	 .help = "the battle's terrain (the unit form)", .rule = "ADBG 19.2.3, ruling R10"},
	{"attacker_leader", IN_INT, 0, 3, .help = "the attackers' leader rating: shifts right", .rule = "ADBG 19.2.3"},
	{"defender_leader", IN_INT, 0, 3, .help = "the defenders' leader rating: shifts left", .rule = "ADBG 19.2.3"},
	{"attacker_level", IN_INT, 0, 6, .def = -1, .help = "the attackers' level, for the DRM", .rule = "ruling R7"},
	{"defender_level", IN_INT, 0, 6, .def = -1, .help = "the defenders' level, for the DRM", .rule = "ruling R7"},
	{"surprise", IN_BOOL, .help = "the attacker won surprise (round 1): shifts right", .rule = "ADBG 19.2.3"},
};
static const out_desc melee_out[] = {
	{"attacker_loss", "integer", "units the attacker loses (\"R\": routed and removed)"},
	{"defender_loss", "integer", "units the defender loses (\"R\": routed and removed)"}};

static void loss_str(int64_t v, fray_format form, textbuf *t)
{
	if (v == FRAY_ADBG_ROUTE_ALL)
		text_add(t, form == FRAY_FORMAT_JSON ? "\"R\"" : "R (routed, removed)");
	else
		text_add(t, "%lld", (long long)v);
}

static void fmt_melee(const fray_call *c, const int64_t *o, fray_format form, textbuf *t)
{
	(void)c;
	text_add(t, form == FRAY_FORMAT_JSON ? "\"attacker_loss\": " : "attacker ");
	loss_str(o[0], form, t);
	text_add(t, form == FRAY_FORMAT_JSON ? ", \"defender_loss\": " : ", defender ");
	loss_str(o[1], form, t);
}

/* "warrior:3,militia:2:disrupted" into units. */
static fray_status parse_units(fray_call *c, size_t k, melee_unit *u, int *n)
{
	const char *s = val_s(c, k);
	*n = 0;
	for (const char *p = s; *p;) {
		if (*n == MAX_SIDE_UNITS)
			return frayi_call_bad(c, "%s: at most %d units", frayi_call_opt(c, k), MAX_SIDE_UNITS);
		size_t len = strcspn(p, ",");
		char tok[64];
		bool ok = len < sizeof tok;
		snprintf(tok, sizeof tok, "%.*s", (int)len, p);
		char *cf = strchr(tok, ':'), *status = NULL;
		if (cf) {
			*cf++ = '\0';
			if ((status = strchr(cf, ':')) != NULL)
				*status++ = '\0';
		}
		melee_unit *m = &u[(*n)++];
		m->status = FRAY_ADBG_NORMAL;
		ok = ok && cf != NULL;
		size_t t = 0;
		while (ok && t < 4 && strcmp(tok, fray_adbg_type_names[t]) != 0)
			t++;
		ok = ok && t < 4;
		char *end = NULL;
		long v = ok ? strtol(cf, &end, 10) : -1;
		ok = ok && *cf && !*end && v >= 0 && v <= 9;
		if (ok && status) {
			size_t st = 0;
			while (st < 3 && strcmp(status, fray_adbg_status_names[st]) != 0)
				st++;
			ok = st < 3;
			m->status = (fray_adbg_status)st;
		}
		if (!ok)
			return frayi_call_bad(c, "%s expects units as TYPE:CF[:STATUS], comma-separated "
					"(warrior:3,militia:2:disrupted); got '%.200s'", frayi_call_opt(c, k), s);
		m->type = (fray_adbg_type)t;
		m->cf = (int)v;
		p += len;
		if (*p == ',')
			p++;
	}
	if (*n == 0)
		return frayi_call_bad(c, "%s names no units", frayi_call_opt(c, k));
	return FRAY_OK;
}

/* Modified melee CF of the non-routed units (19.2.3: routed are ignored). */
static int64_t side_cf(const melee_unit *u, int n, fray_adbg_terrain tr, int *active, bool *disrupted)
{
	int64_t cf = 0;
	*active = 0;
	*disrupted = false;
	for (int i = 0; i < n; i++) {
		if (u[i].status == FRAY_ADBG_ROUTED)
			continue;
		cf += (int64_t)u[i].cf * fray_adbg_melee_mult(u[i].type, tr);
		(*active)++;
		*disrupted |= u[i].status == FRAY_ADBG_DISRUPTED;
	}
	return cf;
}

/* 19.2.3: defenders all routed are eliminated, with no roll. input: int
 * the defending units. */
static void all_routed_procedure(fray_roller *r, fray_policy *p, const void *in, int64_t *out)
{
	(void)p;
	int n = *(const int *)in;
	if (fray_roller_narrating(r)) {
		char text[96];
		snprintf(text, sizeof text, "every defending unit is routed: all %d eliminated, no roll", n);
		fray_emit_note(r, text, "ADBG 19.2.3");
	}
	out[0] = 0;
	out[1] = n;
}

static void free_crt(fray_call *c)
{
	frayi_dealloc(c->ctx, c->owned[0]);
	c->owned[0] = NULL;
}

static fray_status bind_melee(fray_call *c)
{
	bool full = val_given(c, ME_ATTACKER) || val_given(c, ME_DEFENDER);
	if (full && (!val_given(c, ME_ATTACKER) || !val_given(c, ME_DEFENDER) || !val_given(c, ME_TERRAIN)))
		return frayi_call_bad(c, "the unit form needs %s, %s and %s", frayi_call_opt(c, ME_ATTACKER),
				frayi_call_opt(c, ME_DEFENDER),
				frayi_call_opt(c, ME_TERRAIN));
	if (!full && (!val_given(c, ME_ATTACK) || !val_given(c, ME_DEFEND)))
		return frayi_call_bad(c, "missing %s and %s (modified melee CFs)", frayi_call_opt(c, ME_ATTACK),
				frayi_call_opt(c, ME_DEFEND));
	fray_adbg_crt *crt = frayi_alloc(c->ctx, sizeof *crt);
	if (!crt)
		return frayi_nomem(c->ctx);
	c->owned[0] = crt;
	c->cleanup = free_crt;
	fray_doc *doc;
	if (frayi_call_load_doc(c, ME_CRT, &doc) != FRAY_OK)
		return fray_ctx_status(c->ctx);
	fray_status st = fray_adbg_crt_from_doc(doc, crt);
	fray_doc_free(doc);
	if (st != FRAY_OK)
		return st;
	int64_t attack = val_i(c, ME_ATTACK), defend = val_i(c, ME_DEFEND);
	fray_adbg_melee_in *in = CALL_INPUT(c, fray_adbg_melee_in);
	in->crt = crt;
	if (full) {
		melee_unit au[MAX_SIDE_UNITS], du[MAX_SIDE_UNITS];
		int na, nd, active_a, active_d;
		bool dis_a, dis_d;
		if (parse_units(c, ME_ATTACKER, au, &na) != FRAY_OK || parse_units(c, ME_DEFENDER, du, &nd) != FRAY_OK)
			return FRAY_ERR_INPUT;
		fray_adbg_terrain tr = (fray_adbg_terrain)val_i(c, ME_TERRAIN);
		attack = side_cf(au, na, tr, &active_a, &dis_a);
		defend = side_cf(du, nd, tr, &active_d, &dis_d);
		if (active_a == 0)
			return frayi_call_bad(c, "every attacking unit is routed: routed units do not attack");
		if (active_d == 0) {
			int *n = CALL_INPUT(c, int);
			*n = nd;
			frayi_call_title(c, "melee in %s: every defending unit is routed", fray_adbg_terrain_names[tr]);
			call_run(c, all_routed_procedure, 2, fmt_melee);
			return FRAY_OK;
		}
		/* the shifts' terms go to the procedure, which adds and tells them */
		in->shift = 0;
		in->attacker_leader = (int)val_i(c, ME_ALEADER);
		in->defender_leader = (int)val_i(c, ME_DLEADER);
		in->defender_disrupted = dis_d;
		in->surprise = val_b(c, ME_SURPRISE);
		in->from_levels = val_given(c, ME_ALEVEL) && val_given(c, ME_DLEVEL);
		in->attacker_level = (int)val_i(c, ME_ALEVEL);
		in->defender_level = (int)val_i(c, ME_DLEVEL);
		in->drm = in->from_levels ? fray_adbg_melee_drm(in->attacker_level, in->defender_level) : 0;
		frayi_call_title(c, "melee in %s: attacker CF %lld, defender CF %lld, shift %+d, DRM %+d",
			   fray_adbg_terrain_names[tr], (long long)attack, (long long)defend,
			   fray_adbg_melee_shift(in), in->drm);
	} else {
		frayi_call_title(c, "melee: attacker CF %lld, defender CF %lld, shift %+d, DRM %+d", (long long)attack,
			   (long long)defend, in->shift, in->drm);
	}
	in->attack = attack;
	in->defend = defend;
	int shift = fray_adbg_melee_shift(in), drm = in->drm;
	char name[160];
	fray_json_string(crt->name, name, sizeof name);
	textbuf t = text_on(c->inputs_json, sizeof c->inputs_json);
	text_add(&t, "{\"crt\": %s, \"attack\": %lld, \"defend\": %lld, \"shift\": %d, \"drm\": %d}", name,
		 (long long)attack, (long long)defend, shift, drm);
	call_run(c, fray_adbg_melee_procedure, 2, fmt_melee);
	return FRAY_OK;
}

static const side_pair melee_sides[] = {{"attack", "defend"}, {"attacker", "defender"},
					{"attacker_leader", "defender_leader"}, {"attacker_level", "defender_level"},
					{NULL, NULL}};

static const proc_desc frayi_adbg_melee_desc = {
	"adbg.melee", "adbg melee", "one melee on your CRT", "ADBG 19.2.3, rulings R7, R8, R10",
	"Either the modified CFs, shift and DRM, or the units (TYPE:CF[:STATUS]),\n"
	"the terrain, leaders and levels, from which fray works them out: melee CF\n"
	"by terrain, routed units ignored (all the defenders routed: eliminated, no\n"
	"roll), leaders' shifts, a disrupted defender and surprise shift right, the\n"
	"DRM is the level difference within 3.",
	melee_in, ME_N, melee_out, 2, FRAY_MODE_ROLL | FRAY_MODE_ODDS,
	"{\"crt\": \"data/adbg/example-melee-crt.yaml\", \"attacker\": \"warrior:3\", \"defender\": \"militia:2\", "
	"\"terrain\": \"rough\"}",
	bind_melee, NULL, NULL, false,
	.headline = {"defender_loss", "!= 0", "the defender loses units"}, .words = "charge assault hand-to-hand close combat fight", .sides = melee_sides, .generic = true};

/* This file's procedures, in the catalogue's order (list.c joins the files). */
const proc_desc *const frayi_adbg_procs[] = {
	&frayi_adbg_fire_desc, &frayi_adbg_move_desc, &frayi_adbg_melee_desc, &frayi_adbg_recover_desc,
	&frayi_adbg_rounds_desc, NULL,
};
