/* A Dark and Bloody Ground's single procedures in the catalogue (rule 19):
 * fire, move, recover and rounds. */
#include "catalog.h"

static const char *const weathers[] = {"normal", "severe"};

static void fmt_flag(textbuf *t, bool json, const char *key, const char *yes, const char *no, int64_t v)
{
	if (json)
		text_add(t, "\"%s\": %s", key, v ? "true" : "false");
	else
		text_add(t, "%s", v ? yes : no);
}

/* ---- fire (19.2.1) ---- */

enum { FIRE_TYPE, FIRE_CF, FIRE_TERRAIN, FIRE_WEATHER };
static const in_desc fire_in[] = {
	{"type", IN_CHOICE, .choices = fray_adbg_type_names, .nchoices = 4, .required = true,
	 .help = "the firing unit's type", .rule = "ADBG 19.2.1"},
	{"cf", IN_INT, 0, 9, .required = true, .help = "the unit's printed fire combat factor",
	 .rule = "ADBG 19.2.1"},
	{"terrain", IN_CHOICE, .choices = fray_adbg_terrain_names, .nchoices = 3, .required = true,
	 .help = "the battle's terrain", .rule = "ADBG 19.2.1, ruling R5"},
	{"weather", IN_CHOICE, .choices = weathers, .nchoices = 2, .help = "severe weather loses the starred rows",
	 .rule = "ADBG 19.2.1, ruling R5"},
};
static const out_desc fire_out[] = {{"hit", "boolean", "the fire hits"}};

static void fmt_hit(const fray_call *c, const int64_t *o, bool json, textbuf *t)
{
	(void)c;
	fmt_flag(t, json, "hit", "hit", "miss", o[0]);
}

static fray_status bind_fire(fray_call *c)
{
	if (!val_given(c, FIRE_TYPE) || !val_given(c, FIRE_CF) || !val_given(c, FIRE_TERRAIN))
		return call_missing(c, "--type, --cf or --terrain");
	size_t type = (size_t)val_i(c, FIRE_TYPE), terrain = (size_t)val_i(c, FIRE_TERRAIN);
	int cf = (int)val_i(c, FIRE_CF);
	bool severe = val_i(c, FIRE_WEATHER) == 1;
	fray_adbg_fire_in *in = CALL_INPUT(c, fray_adbg_fire_in);
	*in = (fray_adbg_fire_in){(fray_adbg_type)type, cf, (fray_adbg_terrain)terrain, severe};
	textbuf t = text_on(c->title, sizeof c->title);
	text_add(&t, "fire: %s, CF %d, %s%s", fray_adbg_type_names[type], cf, fray_adbg_terrain_names[terrain],
		 severe ? ", severe weather" : "");
	t = text_on(c->inputs_json, sizeof c->inputs_json);
	text_add(&t, "{\"type\": \"%s\", \"cf\": %d, \"terrain\": \"%s\", \"weather\": \"%s\"}",
		 fray_adbg_type_names[type], cf, fray_adbg_terrain_names[terrain], weathers[severe]);
	c->proc = fray_adbg_fire_procedure;
	c->nfields = 1;
	c->fmt = fmt_hit;
	return FRAY_OK;
}

const proc_desc adbg_fire_desc = {
	"adbg.fire", "adbg fire", "one unit's fire: hit or miss", "ADBG 19.2.1, ruling R5",
	"A hit when the modified DR is at most the modified CF; a 1 always hits, a 6\n"
	"always misses.",
	fire_in, 4, fire_out, 1, FRAY_MODE_ROLL | FRAY_MODE_ODDS,
	"{\"type\": \"regular\", \"cf\": 3, \"terrain\": \"wilderness\"}", bind_fire};

/* ---- move (19.2.2) ---- */

enum { MOVE_LEVEL, MOVE_TYPE, MOVE_TERRAIN, MOVE_LEADER, MOVE_WEATHER, MOVE_ATOP, MOVE_SURPRISE, MOVE_REGULARS };
static const in_desc move_in[] = {
	{"level", IN_INT, 0, 6, .required = true, .help = "the side's commitment/mobilization level",
	 .rule = "ADBG 19.2.2"},
	{"type", IN_CHOICE, .choices = fray_adbg_type_names, .nchoices = 4, .required = true,
	 .help = "the moving unit's type", .rule = "ADBG 19.2.2"},
	{"terrain", IN_CHOICE, .choices = fray_adbg_terrain_names, .nchoices = 3, .required = true,
	 .help = "the battle's terrain", .rule = "ADBG 19.2.2"},
	{"leader", IN_INT, 0, 3, .help = "a stacked leader's rating (0: none), subtracted",
	 .rule = "ADBG 19.2.2"},
	{"weather", IN_CHOICE, .choices = weathers, .nchoices = 2, .help = "severe weather: +1",
	 .rule = "ADBG 19.2.2"},
	{"enemy_atop", IN_BOOL, .help = "an enemy stack moved atop: +1", .rule = "ADBG 19.2.2"},
	{"surprise_winner_round1", IN_BOOL, .help = "the surprise winner in round 1, with a leader: -1",
	 .rule = "ADBG 19.2.2"},
	{"with_regulars", IN_BOOL, .help = "stacked with regulars (-1 in settled areas)", .rule = "ADBG 19.2.2"},
};
static const out_desc move_out[] = {{"moved", "boolean", "the move succeeds"}};

static void fmt_moved(const fray_call *c, const int64_t *o, bool json, textbuf *t)
{
	(void)c;
	fmt_flag(t, json, "moved", "moves", "stays", o[0]);
}

static fray_status bind_move(fray_call *c)
{
	if (!val_given(c, MOVE_LEVEL) || !val_given(c, MOVE_TYPE) || !val_given(c, MOVE_TERRAIN))
		return call_missing(c, "--level, --type or --terrain");
	int level = (int)val_i(c, MOVE_LEVEL), leader = (int)val_i(c, MOVE_LEADER);
	size_t type = (size_t)val_i(c, MOVE_TYPE), terrain = (size_t)val_i(c, MOVE_TERRAIN);
	bool severe = val_i(c, MOVE_WEATHER) == 1, atop = val_b(c, MOVE_ATOP), surprise = val_b(c, MOVE_SURPRISE),
	     with_regulars = val_b(c, MOVE_REGULARS);
	if (surprise && leader == 0)
		return call_bad(c, "%s helps only units stacked with a leader: give %s R (ADBG 19.2.2)",
				call_opt(c, MOVE_SURPRISE), call_opt(c, MOVE_LEADER));
	fray_adbg_move_in *in = CALL_INPUT(c, fray_adbg_move_in);
	*in = (fray_adbg_move_in){
		.level = level, .leader = leader,
		.terrain = (fray_adbg_terrain)terrain, .severe = severe,
		.enemy_atop = atop, .surprise_winner_round1 = surprise,
		.regular = type == FRAY_ADBG_REGULAR || with_regulars,
		.non_warrior = type != FRAY_ADBG_WARRIOR,
	};
	textbuf t = text_on(c->title, sizeof c->title);
	text_add(&t, "move: %s at level %d, %s%s%s%s%s", fray_adbg_type_names[type], level,
		 fray_adbg_terrain_names[terrain], leader ? ", with a leader" : "", severe ? ", severe weather" : "",
		 atop ? ", enemy atop" : "", surprise ? ", surprise (round 1)" : "");
	t = text_on(c->inputs_json, sizeof c->inputs_json);
	text_add(&t,
		 "{\"level\": %d, \"type\": \"%s\", \"terrain\": \"%s\", \"leader\": %d, "
		 "\"weather\": \"%s\", \"enemy_atop\": %s, \"surprise_winner_round1\": %s, "
		 "\"with_regulars\": %s}", level, fray_adbg_type_names[type], fray_adbg_terrain_names[terrain],
		 leader, weathers[severe], atop ? "true" : "false", surprise ? "true" : "false",
		 with_regulars ? "true" : "false");
	c->proc = fray_adbg_move_procedure;
	c->nfields = 1;
	c->fmt = fmt_moved;
	return FRAY_OK;
}

const proc_desc adbg_move_desc = {
	"adbg.move", "adbg move", "one move attempt: moves or stays", "ADBG 19.2.2, ruling R6",
	"Moves when the modified DR is at most the side's level; a 1 always moves, a\n"
	"6 or a modified 6+ never. The DRMs are cumulative.",
	move_in, 8, move_out, 1, FRAY_MODE_ROLL | FRAY_MODE_ODDS,
	"{\"level\": 3, \"type\": \"militia\", \"terrain\": \"rough\", \"leader\": 1}", bind_move};

/* ---- recover (19.2.4) ---- */

enum { REC_LEVEL, REC_LEADER };
static const in_desc recover_in[] = {
	{"level", IN_INT, 0, 6, .required = true, .help = "the side's level", .rule = "ADBG 19.2.4"},
	{"leader", IN_INT, 0, 3, .help = "a stacked leader's rating (0: none)", .rule = "ADBG 19.2.4, ruling R9"},
};
static const out_desc recover_out[] = {{"recovered", "boolean", "recovers one level"}};

static void fmt_recovered(const fray_call *c, const int64_t *o, bool json, textbuf *t)
{
	(void)c;
	fmt_flag(t, json, "recovered", "recovers one level", "does not recover", o[0]);
}

static fray_status bind_recover(fray_call *c)
{
	if (!val_given(c, REC_LEVEL))
		return call_missing(c, "--level");
	int level = (int)val_i(c, REC_LEVEL), leader = (int)val_i(c, REC_LEADER);
	fray_adbg_recover_in *in = CALL_INPUT(c, fray_adbg_recover_in);
	*in = (fray_adbg_recover_in){level, leader};
	textbuf t = text_on(c->title, sizeof c->title);
	text_add(&t, "recover: level %d%s", level, leader ? ", with a leader" : "");
	t = text_on(c->inputs_json, sizeof c->inputs_json);
	text_add(&t, "{\"level\": %d, \"leader\": %d}", level, leader);
	c->proc = fray_adbg_recover_procedure;
	c->nfields = 1;
	c->fmt = fmt_recovered;
	return FRAY_OK;
}

const proc_desc adbg_recover_desc = {
	"adbg.recover", "adbg recover", "one recovery roll", "ADBG 19.2.4, ruling R9",
	"Recovers one level when the die less a stacked leader's rating is at most\n"
	"the level; a 6 never does.",
	recover_in, 2, recover_out, 1, FRAY_MODE_ROLL | FRAY_MODE_ODDS,
	"{\"level\": 2, \"leader\": 1}", bind_recover};

/* ---- rounds (19.1) ---- */

enum { ROUNDS_INI, ROUNDS_ATTEMPT, ROUNDS_OTHER };
static const in_desc rounds_in[] = {
	{"initiative_rating", IN_INT, 1, 3, .required = true,
	 .help = "the initiative side's primary leader's rating", .rule = "ADBG 19.1, ruling R1"},
	{"attempt", IN_BOOL, .help = "the other side tries for one more round", .rule = "ADBG 19.1"},
	{"other_rating", IN_INT, 1, 3, .help = "the other side's primary leader's rating (with attempt)",
	 .rule = "ADBG 19.1, ruling R1"},
};
static const out_desc rounds_out[] = {{"rounds", "integer", "the battle's rounds"}};

static void fmt_rounds(const fray_call *c, const int64_t *o, bool json, textbuf *t)
{
	(void)c;
	text_add(t, json ? "\"rounds\": %lld" : "%lld rounds", (long long)o[0]);
}

static fray_status bind_rounds(fray_call *c)
{
	if (!val_given(c, ROUNDS_INI))
		return call_missing(c, "--initiative-rating");
	bool attempt = val_b(c, ROUNDS_ATTEMPT);
	if (!attempt && val_given(c, ROUNDS_OTHER))
		return call_bad(c, "%s is for %s (the other side's try for one more round)", call_opt(c, ROUNDS_OTHER),
				call_opt(c, ROUNDS_ATTEMPT));
	if (attempt && !val_given(c, ROUNDS_OTHER))
		return call_missing(c, "--other-rating (the rating that the extra-round die must beat)");
	int ini = (int)val_i(c, ROUNDS_INI), other = attempt ? (int)val_i(c, ROUNDS_OTHER) : 0;
	fray_adbg_rounds_in *in = CALL_INPUT(c, fray_adbg_rounds_in);
	*in = (fray_adbg_rounds_in){ini, attempt, other};
	textbuf t = text_on(c->title, sizeof c->title);
	text_add(&t, "rounds: initiative leader rating %d%s", ini,
		 attempt ? ", the other side tries for one more" : "");
	t = text_on(c->inputs_json, sizeof c->inputs_json);
	text_add(&t, "{\"initiative_rating\": %d, \"attempt\": %s, \"other_rating\": %d}", ini,
		 attempt ? "true" : "false", other);
	c->proc = fray_adbg_rounds_procedure;
	c->nfields = 1;
	c->fmt = fmt_rounds;
	return FRAY_OK;
}

const proc_desc adbg_rounds_desc = {
	"adbg.rounds", "adbg rounds", "the battle's rounds", "ADBG 19.1, ruling R1",
	"The initiative side's primary leader's rating; the other side may try for\n"
	"one more, which it gets on a die strictly less than its own primary\n"
	"leader's rating.",
	rounds_in, 3, rounds_out, 1, FRAY_MODE_ROLL | FRAY_MODE_ODDS,
	"{\"initiative_rating\": 2, \"attempt\": true, \"other_rating\": 3}", bind_rounds};
