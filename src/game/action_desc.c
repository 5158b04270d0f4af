/* The game's actions described as the catalogue describes a procedure's
 * inputs (issue 42): for each action, the procedures it rolls and the
 * options a player gives it. An option that is a procedure's input is
 * named here and described by the catalogue (its type, range, choices,
 * default, excludes and help: one source); the game's own options (--held,
 * --reaction, --run ...) are described here in the same shape. Which
 * inputs the player sets and which the game fills from the units is the
 * action's (table_*.c), not a rule: an option not listed here still
 * reaches the procedure from fray table's command line, as before. From
 * these come the usage line (fray table, fray help table), api/v1/game's
 * typed "options" and the game screen's form. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include "ruleset.h"
#include "../catalog/catalog.h"

/* ---- the game's own options ---- */

static const in_desc own_held = {
	.name = "held", .type = IN_BOOL,
	.help = "an action held and fired now, at another moment: it stands alone, not the second of two shots",
	.rule = "Presidio Section 4; ruling R47"};
static const char *const reactions[] = {"stand", "fire", "fire-and-flee", "flee", "melee", "fire-and-melee"};
static const in_desc own_reaction = {
	.name = "reaction", .type = IN_CHOICE, .choices = reactions, .nchoices = 6, .def = -1,
	.help = "the charged unit's reaction if it passes its fear-of-charge check (else asked)",
	.rule = "Presidio Section 5, Charge Reaction"};
static const in_desc own_incidental = {
	.name = "incidental", .type = IN_BOOL, .help = "incidental cover on top of another, for the morale check",
	.rule = "Presidio Section 7"};
static const in_desc own_reload_actions = {
	.name = "actions", .type = IN_INT, .min = 1, .max = 20, .def = 1,
	.help = "actions spent reloading this turn", .rule = "Presidio Section 4, Reloading; ruling R47"};
static const in_desc own_run = {
	.name = "run", .type = IN_BOOL, .help = "a run (two actions) instead of a walk (one)",
	.rule = "Presidio Section 3, Movement; ruling R47"};
static const in_desc own_into = {
	.name = "into", .type = IN_STRING,
	.help = "the enemy unit it walks (or runs) into base contact with: that unit strikes first",
	.rule = "Presidio Section 5, Moving into a Melee"};
static const in_desc own_catches = {
	.name = "catches", .type = IN_BOOL,
	.help = "the charge's distance reaches the unit that gave way or fled: the impact (a panicked one surrenders)",
	.rule = "Presidio Section 5, Charge Movement"};
static const in_desc own_low_ammo_instead = {
	.name = "low_ammo_instead", .type = IN_BOOL,
	.help = "a gun in a fortification that becomes Silenced takes Low Ammo instead (give fort or fortified)",
	.rule = "BBB, Silenced Artillery"};
static const in_desc own_stay = {
	.name = "stay", .type = IN_BOOL,
	.help = "no roll: the unit's movement is over (a gun's Silenced marker comes off)", .rule = "BBB, Movement"};
static const in_desc own_no_retreat = {
	.name = "no_retreat", .type = IN_BOOL, .help = "the defender may not retreat", .rule = "chits, Retreats"};
static const in_desc own_attacker_no_retreat = {
	.name = "attacker_no_retreat", .type = IN_BOOL, .help = "the attacker may not retreat",
	.rule = "chits, Retreats"};

/* ---- the actions ---- */

#define P(proc, name) {proc, name, NULL, false, false}
#define REQ(proc, name) {proc, name, NULL, true, false}
#define MORE(proc, name) {proc, name, NULL, false, true}
#define OWN(in) {NULL, NULL, &in, false, false}
#define OWN_MORE(in) {NULL, NULL, &in, false, true}

#define SHOOT "presidio.shoot"
const action_desc frayi_desc_presidio_shoot = {
	{SHOOT, "presidio.morale"},
	{REQ(SHOOT, "range"), P(SHOOT, "mode"), P(SHOOT, "cover"), P(SHOOT, "actions"), OWN(own_held),
	 P(SHOOT, "evading"), P(SHOOT, "taking_cover"), MORE(SHOOT, "band"), MORE(SHOOT, "incidental"),
	 MORE(SHOOT, "skirmish_target"), MORE(SHOOT, "dm"), MORE(SHOOT, "through_fire"), MORE(SHOOT, "units_behind"),
	 MORE(SHOOT, "reloading_in_cover"), MORE(SHOOT, "target_reloading_in_cover"), MORE(SHOOT, "firer_cover")},
	frayi_table_presidio_default};
const action_desc frayi_desc_presidio_melee = {
	{"presidio.melee", "presidio.morale"},
	{P("presidio.melee", "both"), MORE("presidio.melee", "low_wall"), MORE("presidio.melee", "uphill"),
	 MORE("presidio.melee", "high_wall"), MORE("presidio.melee", "ladder"), MORE("presidio.melee", "dm")}};
const action_desc frayi_desc_presidio_charge = {
	{"presidio.morale", SHOOT, "presidio.melee"},
	{OWN(own_reaction), P("presidio.morale", "cover"), OWN(own_catches), OWN_MORE(own_incidental)}};
const action_desc frayi_desc_presidio_pursue = {{"presidio.melee", "presidio.morale"}, {{0}}};
#define MORALE "presidio.morale"
const action_desc frayi_desc_presidio_morale = {
	{MORALE},
	{P(MORALE, "friends_fell_back"), P(MORALE, "friends_retreated"), P(MORALE, "friends_panicked"),
	 P(MORALE, "cover"), MORE(MORALE, "charged"), MORE(MORALE, "charging"), MORE(MORALE, "charge_impact"),
	 MORE(MORALE, "near_enemy"), MORE(MORALE, "leader_casualty"), MORE(MORALE, "chaplain"), MORE(MORALE, "flag"),
	 MORE(MORALE, "fifer"), MORE(MORALE, "hero"), MORE(MORALE, "no_commanders")}};
const action_desc frayi_desc_presidio_rally = {{"presidio.rally"}, {{0}}};
const action_desc frayi_desc_presidio_reload = {{NULL}, {OWN(own_reload_actions)}};
const action_desc frayi_desc_presidio_move = {{"presidio.melee", "presidio.morale"}, {OWN(own_run), OWN(own_into)}};

#define FIRE "bbb.fire"
const action_desc frayi_desc_bbb_fire = {
	{FIRE, "bbb.move"},
	{REQ(FIRE, "range"), P(FIRE, "cover"), P(FIRE, "advancing"), P(FIRE, "flanking"), OWN(own_low_ammo_instead),
	 MORE(FIRE, "firepower"), MORE(FIRE, "fortified"), MORE(FIRE, "town"), MORE(FIRE, "fort"),
	 MORE(FIRE, "pivoted"), MORE(FIRE, "unlimbered"), MORE(FIRE, "limbered"), MORE(FIRE, "mounted"),
	 MORE(FIRE, "firer_skirmishers"), MORE(FIRE, "devastating"), MORE(FIRE, "target_inept"), MORE(FIRE, "bridge"),
	 MORE(FIRE, "target_skirmishers"), MORE(FIRE, "ragged"), MORE(FIRE, "shift")}};
#define ASSAULT "bbb.assault"
const action_desc frayi_desc_bbb_assault = {
	{ASSAULT},
	{P(ASSAULT, "cover"), P(ASSAULT, "outflanked"), OWN(own_low_ammo_instead), MORE(ASSAULT, "fortified"),
	 MORE(ASSAULT, "town"), MORE(ASSAULT, "fort")}};
#define MOVE "bbb.move"
const action_desc frayi_desc_bbb_move = {
	{MOVE},
	{OWN(own_stay), P(MOVE, "in_command"), P(MOVE, "column"), MORE(MOVE, "passive"), MORE(MOVE, "difficult"),
	 MORE(MOVE, "outside_front_arc"), MORE(MOVE, "crosses_difficult"), MORE(MOVE, "obstacles"), MORE(MOVE, "road"),
	 MORE(MOVE, "changes")}};

#define COMBAT "chits.combat"
const action_desc frayi_desc_chits_combat = {
	{COMBAT},
	{REQ(COMBAT, "tactic"), REQ(COMBAT, "stance"), REQ(COMBAT, "terrain"), REQ(COMBAT, "attacker_cdr"),
	 REQ(COMBAT, "defender_cdr"), REQ(COMBAT, "draw"), MORE(COMBAT, "script"), MORE(COMBAT, "policy"),
	 OWN_MORE(own_no_retreat), OWN_MORE(own_attacker_no_retreat)}};
#define END_TURN "chits.end_turn"
const action_desc frayi_desc_chits_end_turn = {
	{END_TURN},
	{P(END_TURN, "rest"), P(END_TURN, "rally"), P(END_TURN, "recover_disorder"), P(END_TURN, "lead")}};

/* ---- reading them ---- */

static const in_desc *input_of(const action_opt *o)
{
	if (!o->proc)
		return o->own;
	const proc_desc *d = frayi_catalog_find(o->proc);
	for (size_t i = 0; d && i < d->nin; i++)
		if (!strcmp(d->in[i].name, o->name))
			return &d->in[i];
	return NULL; /* a name the catalogue lost: tests/game/test_game_request.c checks every one */
}

const action_opt *frayi_action_opt(const table_action *a, size_t k, const in_desc **in)
{
	if (in)
		*in = NULL;
	if (!a->desc || k >= ACTION_MAX_OPTS || (!a->desc->opts[k].name && !a->desc->opts[k].own))
		return NULL;
	if (in)
		*in = input_of(&a->desc->opts[k]);
	return &a->desc->opts[k];
}

/* "taking-cover" and "taking_cover" both name taking_cover. */
static bool same_name(const char *want, const char *name)
{
	for (; *want && *name; want++, name++)
		if (*want != *name && !((*want == '-' || *want == '_') && *name == '_'))
			return false;
	return !*want && !*name;
}

const action_opt *frayi_action_opt_named(const table_action *a, const char *name, const in_desc **in)
{
	const in_desc *d;
	for (size_t k = 0; frayi_action_opt(a, k, &d); k++)
		if (d && same_name(name, d->name)) {
			if (in)
				*in = d;
			return frayi_action_opt(a, k, NULL);
		}
	return NULL;
}

/* ---- the usage line ---- */

/* "--range 0..100000", "--mode volley|independent|...", "--held". */
static void option_usage(textbuf *t, const in_desc *in, bool words)
{
	char opt[72];
	frayi_call_option_name(in->name, opt, sizeof opt);
	text_add(t, "%s", opt);
	if (!words)
		return;
	switch (in->type) {
	case IN_INT:
	case IN_NUMBER: text_add(t, " %lld..%lld", (long long)in->min, (long long)in->max); break;
	case IN_CHOICE:
		for (size_t k = 0; k < in->nchoices; k++)
			text_add(t, "%s%s", k ? "|" : " ", in->choices[k]);
		break;
	case IN_STRING: text_add(t, " TEXT"); break;
	case IN_FILE: text_add(t, " FILE"); break;
	case IN_BOOL: break;
	}
}

static void make_usage(char *dst, size_t cap, const table_action *a)
{
	textbuf t = text_on(dst, cap);
	text_add(&t, "UNIT%s", a->needs_target ? " --at TARGET" : "");
	const in_desc *in;
	const action_opt *o;
	/* the ones it needs, then the others, then the rare ones by name */
	for (int pass = 0; pass < 3; pass++) {
		bool opened = false;
		for (size_t k = 0; (o = frayi_action_opt(a, k, &in)); k++) {
			if (!in || (pass == 0) != o->required || (pass == 2) != (o->more && !o->required))
				continue;
			if (pass == 2)
				text_add(&t, opened ? ", " : " [more options: ");
			else
				text_add(&t, pass ? " [" : " ");
			option_usage(&t, in, pass < 2);
			if (pass == 1)
				text_add(&t, "]");
			opened = true;
		}
		if (pass == 2 && opened)
			text_add(&t, "]");
	}
	text_add(&t, ": %s", a->summary);
}

const char *frayi_action_usage(const table_action *a, char *dst, size_t cap)
{
	make_usage(dst, cap, a);
	return dst;
}

/* fray_game_rule_set_action's *usage, a static string as game.h promises:
 * made once, for the rule sets registered by then (a rule set registers
 * before any game is made: ruleset.h); one registered later, or past
 * USAGE_SETS, says its summary. The library's own messages and answers
 * make theirs into the caller's buffer (frayi_action_usage). */
#define USAGE_ACTIONS 16
#define USAGE_SETS 8
static char usages[USAGE_SETS][USAGE_ACTIONS][ACTION_USAGE_MAX];
static size_t usage_sets;
static pthread_once_t usages_once = PTHREAD_ONCE_INIT;

static void make_usages(void)
{
	usage_sets = frayi_ruleset_count() < USAGE_SETS ? frayi_ruleset_count() : USAGE_SETS;
	for (size_t r = 0; r < usage_sets; r++) {
		size_t n;
		const table_action *acts = frayi_ruleset_at(r)->actions(&n);
		for (size_t i = 0; i < n && i < USAGE_ACTIONS; i++)
			make_usage(usages[r][i], ACTION_USAGE_MAX, &acts[i]);
	}
}

const char *frayi_action_usage_static(const table_action *a)
{
	pthread_once(&usages_once, make_usages);
	for (size_t r = 0; r < usage_sets; r++) {
		size_t n;
		const table_action *acts = frayi_ruleset_at(r)->actions(&n);
		if (a >= acts && a < acts + n && (size_t)(a - acts) < USAGE_ACTIONS)
			return usages[r][a - acts];
	}
	return a->summary;
}

const char *frayi_action_default(const table_game *g, size_t unit, const table_action *a, const char *input)
{
	return a->desc && a->desc->option_default && g && unit < g->nunits ? a->desc->option_default(&g->units[unit], input)
										  : NULL;
}
