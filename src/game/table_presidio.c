/* Presidio at the table: shoot, melee, charge, morale, rally, reload, each
 * with the follow-ups the rules require (Sections 4-7), the forces
 * updated from the outcomes. docs/table.md says what is automatic and
 * what is left to the players. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "table.h"
#include "../catalog/catalog.h"
#include "../rules/presidio/presidio_internal.h"


/* The unit's marker as the rules name it (the game file's status names
 * are the rules' standing names). */
static fray_presidio_standing standing_of(const table_unit *u)
{
	for (int k = 0; k < FRAY_PRESIDIO_NSTANDINGS; k++)
		if (!strcmp(frayi_unit_status_names[u->status], fray_presidio_standing_names[k]))
			return (fray_presidio_standing)k;
	return FRAY_PRESIDIO_GOOD;
}

static void set_standing(table_unit *u, int64_t standing)
{
	for (int k = 0; k < ST_NSTATUS; k++)
		if (standing >= 0 && standing < FRAY_PRESIDIO_NSTANDINGS &&
		    !strcmp(frayi_unit_status_names[k], fray_presidio_standing_names[standing]))
			u->status = k;
}

/* The unit's actions this turn as the game file keeps them (checked on
 * load: a text that does not read is none). */
static fray_presidio_turn turn_of(const table_unit *u)
{
	fray_presidio_turn t;
	if (!fray_presidio_turn_read(PRESIDIO_OF(u)->actions_spent, &t))
		t = (fray_presidio_turn){0};
	return t;
}

/* What the unit is, as the game file says, for the rules on who may do
 * what (fray_presidio_kind_refused): its size class as the rules read its
 * `size` and starting figures (fray_presidio_size_class). */
static fray_presidio_unit_kind kind_of(const table_unit *u)
{
	const presidio_own *o = PRESIDIO_OF(u);
	return (fray_presidio_unit_kind){.line = o->line, .ranks = o->ranks,
					 .size = fray_presidio_size_class((fray_presidio_size)o->size, o->start_figures),
					 .sharpshooters = o->sharpshooters, .mounted = o->mounted,
					 .free_riders = o->free_riders};
}

/* Whether u and t are in base contact (Section 5): either keeps the
 * other's name. */
static bool in_contact(const table_unit *u, const table_unit *t)
{
	return !strcmp(PRESIDIO_OF(u)->contact, t->name) || !strcmp(PRESIDIO_OF(t)->contact, u->name);
}

/* u and t come into base contact: each keeps the other, unless t is
 * already in contact with another unit (it keeps that one; u's name
 * says this contact). u leaves any contact it had. */
static void make_contact(table_game *g, table_unit *u, table_unit *t)
{
	for (size_t i = 0; i < g->nunits; i++)
		if (&g->units[i] != t && !strcmp(PRESIDIO_OF(&g->units[i])->contact, u->name))
			PRESIDIO_OF(&g->units[i])->contact[0] = '\0';
	snprintf(PRESIDIO_OF(u)->contact, sizeof PRESIDIO_OF(u)->contact, "%s", t->name);
	if (!PRESIDIO_OF(t)->contact[0])
		snprintf(PRESIDIO_OF(t)->contact, sizeof PRESIDIO_OF(t)->contact, "%s", u->name);
	frayi_table_note(g, "%s and %s in base contact", u->name, t->name);
}

/* Whether u is in base contact with any unit (Section 5: "Melee
 * continues until contact is broken"). */
static bool in_any_contact(const table_game *g, const table_unit *u)
{
	for (size_t i = 0; i < g->nunits; i++)
		if (&g->units[i] != u && in_contact(u, &g->units[i]))
			return true;
	return false;
}

/* u leaves base contact (it fell back, retreated or panicked, by a
 * failed check or disengaging, surrendered or was destroyed); broke: by a
 * failed check or a disengagement, so the enemy it left may pursue it
 * (Section 5, Pursuit; Disengaging from Melee). */
static void leave_contact(table_game *g, table_unit *u, bool broke)
{
	bool left = false;
	for (size_t i = 0; i < g->nunits; i++) {
		table_unit *v = &g->units[i];
		if (v == u || !in_contact(u, v))
			continue;
		if (!strcmp(PRESIDIO_OF(v)->contact, u->name))
			PRESIDIO_OF(v)->contact[0] = '\0';
		if (broke)
			snprintf(PRESIDIO_OF(v)->may_pursue, sizeof PRESIDIO_OF(v)->may_pursue, "%s", u->name);
		left = true;
	}
	PRESIDIO_OF(u)->contact[0] = '\0';
	if (left)
		frayi_table_note(g, "%s: out of base contact%s", u->name,
				 broke ? " (the enemy it left may pursue it: Presidio Section 5, Pursuit; Disengaging "
					 "from Melee)" : "");
}

/* Contact with a panicked unit is its surrender, no dice (Section 5,
 * Pursuit: "If they make contact with a panicked unit, it surrenders
 * immediately"); how: how it was met. */
static void surrenders(table_game *g, table_unit *t, const char *how)
{
	set_standing(t, FRAY_PRESIDIO_SURRENDERED);
	frayi_table_note(g, "%s: surrendered (panicked, %s)", t->name, how);
	leave_contact(g, t, false);
}

int frayi_table_presidio_actions_left(const table_unit *u)
{
	fray_presidio_turn t = turn_of(u);
	return fray_presidio_actions_left(&t, standing_of(u));
}

/* The game's actions by name: what the rules call each (the act a
 * standing may refuse, fray_presidio_act_refused) and the turn's action
 * it stands for, in its cheapest form (fray_presidio_action; -1: none,
 * morale being no action). The one mapping of the two: asked by
 * frayi_table_presidio_may and by the turn's order (order_action). */
static const struct {
	const char *action;
	fray_presidio_act act;
	int turn;                        /* fray_presidio_action; -1: none */
} acts[] = {{"shoot", FRAY_PRESIDIO_ACT_SHOOT, FRAY_PRESIDIO_DO_SHOOT},
	    {"melee", FRAY_PRESIDIO_ACT_MELEE, FRAY_PRESIDIO_DO_STRIKE},
	    {"pursue", FRAY_PRESIDIO_ACT_MELEE, FRAY_PRESIDIO_DO_PURSUE},
	    {"charge", FRAY_PRESIDIO_ACT_CHARGE, FRAY_PRESIDIO_DO_CHARGE},
	    {"move", FRAY_PRESIDIO_ACT_CHARGE, FRAY_PRESIDIO_DO_WALK},
	    {"reload", FRAY_PRESIDIO_ACT_RELOAD, FRAY_PRESIDIO_DO_RELOAD},
	    {"rally", FRAY_PRESIDIO_ACT_RALLY, FRAY_PRESIDIO_DO_RALLY},
	    {"reform", FRAY_PRESIDIO_ACT_RELOAD, FRAY_PRESIDIO_DO_REFORM},
	    {"disengage", FRAY_PRESIDIO_ACT_CHARGE, FRAY_PRESIDIO_DO_DISENGAGE},
	    {"morale", FRAY_PRESIDIO_ACT_BE_TARGETED, -1}};

/* Whether the rules let u take the action now (fray_presidio_act_refused;
 * a unit with no figures takes none) and its turn has the actions for
 * the cheapest form of it (fray_presidio_action_refused; morale is no
 * action). */
bool frayi_table_presidio_may(const table_game *g, const table_unit *u, const char *action)
{
	if (PRESIDIO_OF(u)->figures <= 0)
		return false;
	fray_presidio_turn t = turn_of(u);
	fray_presidio_unit_kind k = kind_of(u);
	/* Section 5, Disengaging from Melee: in base contact, no move nor
	 * charge; a fall back (or a retreat) instead */
	bool contact = in_any_contact(g, u);
	if (!strcmp(action, "disengage"))
		return !fray_presidio_disengage_refused(&t, standing_of(u), contact, false);
	if (!strcmp(action, "move") &&
	    fray_presidio_contact_move_refused(contact, fray_presidio_move_action(&k, false)))
		return false;
	if (!strcmp(action, "charge") && fray_presidio_contact_move_refused(contact, FRAY_PRESIDIO_DO_CHARGE))
		return false;
	if (!strcmp(action, "shoot") && fray_presidio_contact_shot_refused(contact))
		return false;
	if (!strcmp(action, "reform")) {
		/* out of disorder into skirmish (no action), or re-formed with
		 * the actions it takes now */
		if (!fray_presidio_skirmish_refused(&k, standing_of(u)))
			return true;
		if (fray_presidio_reform_refused(&k, standing_of(u)))
			return false;
		if (fray_presidio_riding_reform_free(&k, &t))
			return !fray_presidio_action_refused(&t, standing_of(u), FRAY_PRESIDIO_DO_RIDE_REFORM);
		for (int n = fray_presidio_reform_cost(PRESIDIO_OF(u)->drummer); n > 0; n--)
			if (fray_presidio_action_refused(&t, standing_of(u), FRAY_PRESIDIO_DO_REFORM) ||
			    !fray_presidio_turn_take(&t, FRAY_PRESIDIO_DO_REFORM))
				return false;
		return true;
	}
	for (size_t i = 0; i < sizeof acts / sizeof *acts; i++)
		if (!strcmp(action, acts[i].action)) {
			fray_presidio_action a = (fray_presidio_action)acts[i].turn;
			if (a == FRAY_PRESIDIO_DO_WALK)
				a = fray_presidio_move_action(&k, false);
			return !fray_presidio_act_refused(standing_of(u), acts[i].act) &&
			       (acts[i].turn < 0 || (!fray_presidio_kind_refused(&k, standing_of(u), a) &&
						     !fray_presidio_action_refused(&t, standing_of(u), a)));
		}
	return false;
}

/* Whether u's turn has the actions for a (fray_presidio_action_refused):
 * refused with the rule's reason, before any die. The odds of an action
 * are a question, not an action taken: not asked then. */
static int has_actions(table_game *g, const table_unit *u, fray_presidio_action a, int times, const char *what)
{
	if (g->odds)
		return FRAY_OK;
	fray_presidio_unit_kind kind = kind_of(u);
	const char *not_kind = fray_presidio_kind_refused(&kind, standing_of(u), a);
	if (not_kind)
		return frayi_game_fail(g, FRAY_ERR_INPUT, "%s cannot %s: %s", unit_label(u), what, not_kind);
	fray_presidio_turn t = turn_of(u);
	int left = fray_presidio_actions_left(&t, standing_of(u));
	if (times > left && left > 0)
		return frayi_game_fail(g, FRAY_ERR_INPUT, "%s cannot %s %d actions: \"Each unit receives a choice of "
				       "two actions\" a turn (Presidio Section 2, Action Sequences) and it has %d left "
				       "this turn (so far: %s; ruling R47): %s %d now, the rest after 'turn'",
				       unit_label(u), what, times, left, PRESIDIO_OF(u)->actions_spent[0] ? PRESIDIO_OF(u)->actions_spent : "nothing",
				       what, left);
	for (int k = 0; k < times; k++) {
		const char *why = fray_presidio_action_refused(&t, standing_of(u), a);
		if (why) {
			char spent[FRAY_PRESIDIO_TURN_TEXT_MAX];
			snprintf(spent, sizeof spent, "%s", PRESIDIO_OF(u)->actions_spent[0] ? PRESIDIO_OF(u)->actions_spent : "nothing");
			return frayi_game_fail(g, FRAY_ERR_INPUT, "%s cannot %s: %s (this turn so far: %s; %d "
					       "action%s left; 'turn' renews them; ruling R47)", unit_label(u), what,
					       why, spent, fray_presidio_actions_left(&t, standing_of(u)),
					       fray_presidio_actions_left(&t, standing_of(u)) == 1 ? "" : "s");
		}
		fray_presidio_turn_take(&t, a);
	}
	return FRAY_OK;
}

/* u takes a, times over, in its turn (asked first with has_actions). */
static void spend(table_unit *u, fray_presidio_action a, int times)
{
	fray_presidio_turn t = turn_of(u);
	for (int k = 0; k < times; k++)
		fray_presidio_turn_take(&t, a);
	fray_presidio_turn_text(&t, PRESIDIO_OF(u)->actions_spent, sizeof PRESIDIO_OF(u)->actions_spent);
}

/* ---- the turn's order (Section 2, Initiative) ---- */

/* Whether u is still in the fight (figures left, not surrendered). */
static bool fighting(const table_unit *u)
{
	return PRESIDIO_OF(u)->figures > 0 && u->status != ST_DESTROYED && u->status != ST_SURRENDERED;
}

/* The game's sides in the order of its units: how many (at most 3
 * counted), the first two into s[0] and s[1]. */
static int sides_of(const table_game *g, const char *s[2])
{
	int n = 0;
	s[0] = s[1] = NULL;
	for (size_t i = 0; i < g->nunits && n < 3; i++) {
		const char *side = g->units[i].side;
		if ((n > 0 && !strcmp(s[0], side)) || (n > 1 && !strcmp(s[1], side)))
			continue;
		if (n < 2)
			s[n] = side;
		n++;
	}
	return n;
}

/* The other of the game's two sides. */
static const char *other_side(const table_game *g, const char *side)
{
	const char *s[2];
	sides_of(g, s);
	return s[0] && !strcmp(s[0], side) ? s[1] : s[0];
}

static bool acted_this_turn(const table_game *g);

/* ---- the game's state: the turn's rally phase (Section 2) ---- */

/* Presidio's game state (table_game.state): whether the turn is in its
 * rally phase, its initiative not rolled yet (Game Turn Phases: "1.
 * Rally panicked troops; close ranks", "2. Initiative"). */
typedef struct presidio_state {
	bool rally_phase;
} presidio_state;
_Static_assert(sizeof(presidio_state) <= TABLE_GAME_STATE, "Presidio's game state fits table_game.state");

const char *const frayi_presidio_state_keys[1] = {"phase"};
static const char *const phase_names[] = {"rally"};

static bool in_rally_phase_kept(const table_game *g)
{
	const presidio_state *st = (const presidio_state *)(const void *)g->state;
	return st->rally_phase && !g->initiative[0];
}

static void set_rally_phase(table_game *g, bool on)
{
	((presidio_state *)(void *)g->state)->rally_phase = on;
}

void frayi_presidio_state_read(const table_game *g, fray_doc *doc, const fray_node *map, bool fresh, void *state)
{
	(void)g;
	(void)fresh;
	presidio_state *st = state;
	memset(st, 0, sizeof *st);
	const fray_node *ph = fray_map_get(map, "phase");
	size_t k;
	/* left out: no rally phase kept (the action sequences, a game that
	 * keeps no order, or a file an older fray wrote) */
	if (ph && fray_doc_enum(doc, ph, "phase", phase_names, 1, &k))
		st->rally_phase = true;
}

void frayi_presidio_state_write(FILE *f, const table_game *g, const void *state, bool yaml)
{
	(void)g;
	const presidio_state *st = state;
	if (st->rally_phase)
		fputs(yaml ? "phase: rally\n" : ", \"phase\": \"rally\"", f);
}

void frayi_presidio_state_words(const table_game *g, char *dst, size_t cap)
{
	if (in_rally_phase_kept(g))
		snprintf(dst, cap, "the rally phase (panicked units may rally; 'initiative' ends it: Presidio Section "
			 "2, Game Turn Phases)");
	else if (cap)
		dst[0] = '\0';
}

/* The log's entry i's command's first word into w. */
static bool entry_action(const table_game *g, size_t i, char *w, size_t cap)
{
	const char *command = fray_node_scalar(fray_map_get(g->log[i], "command"));
	return command && frayi_table_command_word(command, w, cap) != NULL;
}

/* A game file an older fray wrote, whose 'turn' rolled this turn's
 * initiative at once (before the rally phase): since that 'turn' the log
 * has only rallies, morale checks and sets. fray's own 'turn' opens the
 * rally phase instead, and the initiative is an entry of its own. Such a
 * turn keeps its rally phase until a unit acts, as that fray played it
 * (docs/presidio.md, "The turn's phases"). */
static bool older_turn_start(const table_game *g)
{
	char w[16];
	for (size_t i = g->nlog; i-- > 0;) {
		if (!entry_action(g, i, w, sizeof w))
			return false;
		if (!strcmp(w, "turn"))
			return true;
		if (strcmp(w, "rally") && strcmp(w, "morale") && strcmp(w, "set"))
			return false;
	}
	return false;
}

/* Whether the turn is in its rally phase: kept so (after 'turn', until
 * 'initiative'); in a game that keeps no order, until a unit acts; with
 * the initiative rolled, only in an older fray's turn (older_turn_start). */
static bool rally_phase(const table_game *g)
{
	if (in_rally_phase_kept(g))
		return true;
	if (!g->initiative[0])
		return !acted_this_turn(g);
	return older_turn_start(g) && !acted_this_turn(g);
}

/* The turn's rally phase with its initiative still to roll: kept in the
 * file, or a game that keeps no order yet before any unit acted this
 * turn, whose 'initiative' would keep it from then on (Section 2, Game
 * Turn Phases: 1. Rally, 2. Initiative). */
static bool initiative_due(const table_game *g)
{
	return in_rally_phase_kept(g) || (!g->initiative[0] && !acted_this_turn(g));
}

/* Status shows the rally phase whenever the initiative may be rolled, so
 * a front end (the page's Roll the initiative) offers the roll in a game
 * that has kept no order yet too; the file keeps only a phase 'turn'
 * opened. */
void frayi_presidio_state_status(FILE *f, const table_game *g)
{
	const char *s[2];
	if (initiative_due(g) && sides_of(g, s) == 2)
		fputs(", \"phase\": \"rally\"", f);
}

static fray_presidio_order order_of(const table_game *g, const table_unit *u)
{
	bool before = in_rally_phase_kept(g);
	return (fray_presidio_order){.kept = g->initiative[0] != '\0' || before,
				     .acting = !before && !strcmp(g->acting, u->side),
				     .won = !before && !strcmp(g->initiative, u->side), .rally_phase = rally_phase(g),
				     .before_initiative = before};
}

/* Whether the turn's order lets u take a now (fray_presidio_order_refused),
 * before any die; the odds of an action are a question, not asked. */
static int in_order(table_game *g, const table_unit *u, fray_presidio_action a, const char *what)
{
	if (g->odds)
		return FRAY_OK;
	fray_presidio_order o = order_of(g, u);
	const char *why = fray_presidio_order_refused(&o, a);
	if (!why)
		return FRAY_OK;
	if (o.before_initiative)
		return frayi_game_fail(g, FRAY_ERR_INPUT, "%s cannot %s now: %s", unit_label(u), what, why);
	return frayi_game_fail(g, FRAY_ERR_INPUT, "%s cannot %s now: %s (%s won this turn's initiative and %s acts "
			       "now; 'pass %s' hands the sequence over)", unit_label(u), what, why, g->initiative,
			       g->acting, g->acting);
}

/* The action an action's name stands for in the order's rule: its
 * turn's action in acts (the cheapest form; a shot by its --mode, so
 * opportunity fire is known); a walk for a name with none. */
static fray_presidio_action order_action(const char *action, const char *mode)
{
	if (!strcmp(action, "shoot") && mode && !strcmp(mode, "opportunity"))
		return FRAY_PRESIDIO_DO_OPPORTUNITY;
	for (size_t i = 0; i < sizeof acts / sizeof *acts; i++)
		if (!strcmp(action, acts[i].action) && acts[i].turn >= 0)
			return (fray_presidio_action)acts[i].turn;
	return FRAY_PRESIDIO_DO_WALK;
}

bool frayi_table_presidio_may_now(const table_game *g, const table_unit *u, const char *action)
{
	/* a morale check by hand is no action of a sequence */
	if (!strcmp(action, "morale"))
		return true;
	fray_presidio_order o = order_of(g, u);
	return !fray_presidio_order_refused(&o, order_action(action, NULL));
}

/* After an action: the first side's units all spent, the sequence goes
 * to the other side by itself (as 'pass' would hand it). */
static void hand_over(table_game *g)
{
	if (!g->initiative[0] || strcmp(g->acting, g->initiative) != 0)
		return;
	for (size_t i = 0; i < g->nunits; i++)
		if (!strcmp(g->units[i].side, g->acting) && fighting(&g->units[i]) &&
		    frayi_table_presidio_actions_left(&g->units[i]) > 0)
			return;
	const char *next = other_side(g, g->acting);
	if (!next)
		return;
	frayi_table_note(g, "%s's units have no action left: %s's action sequence (Presidio Section 2, Initiative)",
			 g->acting, next);
	snprintf(g->acting, sizeof g->acting, "%s", next);
}

/* A side's leadership for the initiative: the command skills of its
 * units in the fight (a unit's leader bonus, else its leader's rank's),
 * of which the rules take the one that counts (frayi_presidio_leadership,
 * Section 1, Rank and Command Skill). */
static int leadership(const table_game *g, const char *side)
{
	int skills[TABLE_MAX_UNITS];
	size_t n = 0;
	for (size_t i = 0; i < g->nunits && n < TABLE_MAX_UNITS; i++) {
		const table_unit *u = &g->units[i];
		if (strcmp(u->side, side) != 0 || !fighting(u))
			continue;
		skills[n++] = PRESIDIO_OF(u)->leader ? PRESIDIO_OF(u)->leader
						     : fray_presidio_command_skill(PRESIDIO_OF(u)->leader_rank);
	}
	return frayi_presidio_leadership(skills, n);
}

/* The turn's initiative rolled (presidio.initiative, ruling R17): the
 * winner acts first. */
static int roll_initiative(table_game *g, const char *when)
{
	const char *s[2];
	int n = sides_of(g, s);
	if (n != 2)
		return frayi_game_fail(g, FRAY_ERR_INPUT, "initiative: the initiative is rolled between two sides "
				       "(Presidio Section 2, Initiative); this game has %d", n);
	table_step st = frayi_step_begin(g, "presidio.initiative");
	frayi_step_int(&st, "leadership_1", leadership(g, s[0]));
	frayi_step_int(&st, "leadership_2", leadership(g, s[1]));
	int64_t first;
	int r = frayi_step_roll(&st, NULL, (step_out[]){{"first", &first}, {NULL, NULL}});
	if (r != FRAY_OK)
		return r;
	/* the outcome is the side: 0 the first, 1 the second ("side 2 goes first") */
	const char *won = first == 1 ? s[1] : s[0];
	snprintf(g->initiative, sizeof g->initiative, "%s", won);
	snprintf(g->acting, sizeof g->acting, "%s", won);
	/* the roll ends the rally phase (Game Turn Phases: 2. Initiative) */
	set_rally_phase(g, false);
	frayi_table_note(g, "%s wins the initiative%s: %s acts first, then %s (Presidio Section 2, Initiative)", won,
			 when, won, other_side(g, won));
	return FRAY_OK;
}

int frayi_table_presidio_turn_over(table_game *g)
{
	/* a game that keeps the order opens the next turn with its rally
	 * phase (Game Turn Phases: "1. Rally panicked troops", "2.
	 * Initiative"): either side's panicked units rally, then 'initiative'
	 * rolls the turn's and ends the phase */
	if (!g->initiative[0] && !in_rally_phase_kept(g))
		return FRAY_OK;
	g->initiative[0] = g->acting[0] = '\0';
	set_rally_phase(g, true);
	frayi_table_note(g, "the next turn's rally phase: panicked units of either side may rally; 'initiative' then "
			 "rolls the turn's initiative and ends it (Presidio Section 2, Game Turn Phases)");
	return FRAY_OK;
}

/* Whether some unit has acted this turn (a rally is the rally phase's). */
static bool acted_this_turn(const table_game *g)
{
	for (size_t i = 0; i < g->nunits; i++) {
		fray_presidio_turn t = turn_of(&g->units[i]);
		for (int k = 0; k < t.n; k++)
			if (t.taken[k] != FRAY_PRESIDIO_DO_RALLY)
				return true;
	}
	return false;
}

/* initiative: this turn's roll, before the action sequences. */
static int cmd_initiative(table_game *g, int argc)
{
	if (argc > 1)
		return frayi_game_fail(g, FRAY_ERR_INPUT, "initiative takes nothing more");
	if (g->initiative[0])
		return frayi_game_fail(g, FRAY_ERR_INPUT, "initiative: this turn's is rolled (%s won it); the next is "
				       "rolled after 'turn' and the next turn's rally phase (Presidio Section 2, Game "
				       "Turn Phases)", g->initiative);
	if (acted_this_turn(g))
		return frayi_game_fail(g, FRAY_ERR_INPUT, "initiative: units have acted this turn, and the initiative "
				       "comes before the action sequences (Presidio Section 2, Game Turn Phases: 2. "
				       "Initiative, 3. Action Sequences): roll it after 'turn'");
	return roll_initiative(g, "");
}

/* pass SIDE: the acting side ends its action sequence. */
static int cmd_pass(table_game *g, int argc, char *const *argv)
{
	if (argc != 2)
		return frayi_game_fail_input(g, FRAY_ERR_INPUT, "actor", "pass needs the side that ends its action "
					     "sequence: pass SIDE");
	const char *side = NULL;
	for (size_t i = 0; i < g->nunits && !side; i++)
		if (!strcasecmp(g->units[i].side, argv[1]))
			side = g->units[i].side;
	if (!side)
		return frayi_game_fail_input(g, FRAY_ERR_INPUT, "actor", "pass: no side '%.48s' in the game", argv[1]);
	if (in_rally_phase_kept(g))
		return frayi_game_fail(g, FRAY_ERR_INPUT, "pass: the turn's rally phase: no action sequence yet; "
				       "'initiative' ends the rally phase (Presidio Section 2, Game Turn Phases)");
	if (!g->initiative[0])
		return frayi_game_fail(g, FRAY_ERR_INPUT, "pass: the game keeps no initiative this turn (the players "
				       "keep the order); 'initiative' rolls it at a turn's start");
	if (strcmp(side, g->acting) != 0)
		return frayi_game_fail(g, FRAY_ERR_INPUT, "pass: it is %s's action sequence, not %s's: only the side "
				       "acting passes (Presidio Section 2, Initiative)", g->acting, side);
	if (strcmp(side, g->initiative) != 0)
		return frayi_game_fail(g, FRAY_ERR_INPUT, "pass: %s acts second this turn and %s has had its action "
				       "sequence: the turn's sequences are over, 'turn' ends the turn (Presidio Section "
				       "2, Game Turns)", side, g->initiative);
	const char *next = other_side(g, side);
	snprintf(g->acting, sizeof g->acting, "%s", next);
	frayi_table_note(g, "%s passes: %s's action sequence; %s's units hold the actions they did not spend "
			 "(Presidio Section 2, Initiative; Holding 2 Actions)", side, next, side);
	return FRAY_OK;
}

int frayi_table_presidio_command(table_game *g, int argc, char *const *argv)
{
	if (!strcmp(argv[0], "initiative"))
		return cmd_initiative(g, argc);
	/* next, the game's "this phase ends" (the page's Next phase): the one
	 * phase a Presidio turn keeps is its rally phase, which the
	 * initiative's roll ends (Section 2, Game Turn Phases) */
	if (!strcmp(argv[0], "next")) {
		if (!initiative_due(g))
			return frayi_game_fail(g, FRAY_ERR_INPUT, "next: no phase to end (a Presidio turn keeps only its "
					       "rally phase, which 'initiative' ends; 'pass' and 'turn' end the sequences "
					       "and the turn: Presidio Section 2, Game Turn Phases)");
		return cmd_initiative(g, argc);
	}
	if (!strcmp(argv[0], "pass"))
		return cmd_pass(g, argc, argv);
	return TABLE_NOT_A_COMMAND;
}

bool frayi_table_presidio_play_order(const table_game *g, const char *side, bool before, const char **w,
				     size_t *n, char *why, size_t cap)
{
	*n = 0;
	const char *s[2];
	if (before && rally_phase(g) && sides_of(g, s) == 2) {
		/* the rally phase: the side's own panicked units rally first;
		 * the other side's may still rally, and the initiative roll
		 * would end its phase: it waits; then the initiative (Game Turn
		 * Phases: 1. Rally panicked troops, 2. Initiative) */
		const table_unit *other = NULL;
		for (size_t i = 0; i < g->nunits; i++) {
			const table_unit *u = &g->units[i];
			if (!frayi_table_presidio_may(g, u, "rally") || !frayi_table_presidio_may_now(g, u, "rally"))
				continue;
			if (strcasecmp(u->side, side) != 0) {
				other = other ? other : u;
				continue;
			}
			w[(*n)++] = "rally";
			w[(*n)++] = u->name;
			snprintf(why, cap, "the turn's rally phase comes first: a panicked unit may rally (Presidio Section "
				 "2, Game Turn Phases: 1. Rally panicked troops)");
			return true;
		}
		if (other) {
			snprintf(why, cap, "it waits: %s may still rally (%s is panicked), and the initiative roll ends the "
				 "rally phase (Presidio Section 2, Game Turn Phases)", other->side, other->name);
			return true;
		}
		if (!g->initiative[0]) {
			w[(*n)++] = "initiative";
			snprintf(why, cap, "the turn's initiative comes after its rally phase and before its action "
				 "sequences (Presidio Section 2, Game Turn Phases)");
			return true;
		}
	}
	if (!g->initiative[0] || before)
		return false;
	if (strcasecmp(side, g->acting) != 0) {
		snprintf(why, cap, "it waits: it is %s's action sequence (Presidio Section 2, Initiative)", g->acting);
		return true;
	}
	if (!strcmp(g->acting, g->initiative)) {
		w[(*n)++] = "pass";
		w[(*n)++] = g->acting;
		snprintf(why, cap, "no unit of %s has an action it would take: %s's action sequence (Presidio Section 2, "
			 "Initiative)", g->acting, other_side(g, g->acting));
		return true;
	}
	w[(*n)++] = "turn";
	snprintf(why, cap, "both sides have had their action sequence (Presidio Section 2, Game Turns)");
	return true;
}

void frayi_table_presidio_turn_end(table_game *g, table_unit *u)
{
	/* a new turn, two actions again (Section 2, Action Sequences); a
	 * pursuit is made when contact breaks, not a turn later */
	PRESIDIO_OF(u)->actions_spent[0] = '\0';
	PRESIDIO_OF(u)->may_pursue[0] = '\0';
	int was = u->status;
	fray_presidio_standing before = standing_of(u);
	set_standing(u, frayi_presidio_standing_after_turn(before, PRESIDIO_OF(u)->line));
	if (u->status == was)
		return;
	if (before == FRAY_PRESIDIO_FELL_BACK && standing_of(u) == FRAY_PRESIDIO_DISORDERED)
		frayi_table_note(g, "%s: %s (a unit in line that fell back: \"Units in Line - become disordered on a "
				 "fall back result\", Presidio Section 7, Fall Back; ruling R49)", u->name,
				 frayi_unit_status_names[u->status]);
	else
		frayi_table_note(g, "%s: %s", u->name, frayi_unit_status_names[u->status]);
}

/* The unit's standing as a refusal says it: "it fell back", "it is
 * disordered" (the referee's sixth round, finding 6: not "it is fell
 * back"). */
static const char *standing_words(const table_unit *u)
{
	switch (standing_of(u)) {
	case FRAY_PRESIDIO_GOOD:
		return "it is in good order";
	case FRAY_PRESIDIO_DISORDERED:
		return "it is disordered";
	case FRAY_PRESIDIO_FLINCHED:
		return "it flinched";
	case FRAY_PRESIDIO_HUNKERED:
		return "it hunkered down";
	case FRAY_PRESIDIO_FELL_BACK:
		return "it fell back";
	case FRAY_PRESIDIO_RETREATED:
		return "it retreated";
	case FRAY_PRESIDIO_PANICKED:
		return "it panicked";
	case FRAY_PRESIDIO_SURRENDERED:
		return "it surrendered";
	default:
		return "it is destroyed";
	}
}

/* Whether u may do a: the rules say (fray_presidio_act_refused). */
static int may(table_game *g, const table_unit *u, fray_presidio_act a, const char *what)
{
	if (PRESIDIO_OF(u)->figures <= 0)
		return frayi_game_fail(g, FRAY_ERR_INPUT, "%s cannot %s: it has no figures", unit_label(u), what);
	const char *why = fray_presidio_act_refused(standing_of(u), a);
	if (why)
		return frayi_game_fail(g, FRAY_ERR_INPUT, "%s cannot %s: %s: %s", unit_label(u), what,
				 standing_words(u), why);
	return FRAY_OK;
}

static int able(table_game *g, const table_unit *u, fray_presidio_act a, const char *what)
{
	return may(g, u, a, what);
}

/* A unit that may be shot at, meleed or charged (those actions'
 * target_ok): the enemy's (fray_presidio_target_refused), whose standing
 * lets it be a target (fray_presidio_act_refused). */
static int enemy(table_game *g, const table_unit *u, const table_unit *t, const char *what)
{
	const char *why = fray_presidio_target_refused(!strcmp(u->side, t->side));
	if (!why)
		return FRAY_OK;
	return frayi_game_fail(g, FRAY_ERR_INPUT, "%s cannot %s %s: both are on side '%s': %s", unit_label(u), what,
			       unit_label(t), u->side, why);
}

static int targetable(table_game *g, const table_unit *u, const table_unit *t)
{
	int st = enemy(g, u, t, "take as its target");
	return st == FRAY_OK ? may(g, t, FRAY_PRESIDIO_ACT_BE_TARGETED, "be a target") : st;
}

/* A unit that may be meleed (melee's target_ok): a target in base
 * contact with u (fray_presidio_contact_refused; Section 5). */
static int meleeable(table_game *g, const table_unit *u, const table_unit *t)
{
	int st = targetable(g, u, t);
	const char *why = st == FRAY_OK ? fray_presidio_contact_refused(in_contact(u, t)) : NULL;
	if (why)
		return frayi_game_fail(g, FRAY_ERR_INPUT, "%s cannot melee %s: %s (the game keeps it: 'contact' in "
				       "the game file; 'charge', or 'move %s --into %s')", unit_label(u), unit_label(t),
				       why, u->name, t->name);
	return st;
}

/* A unit that may be pursued (pursue's target_ok): the enemy's, one that
 * fell back, retreated or panicked (fray_presidio_act_refused), out of
 * base contact with u this turn (fray_presidio_pursuit_refused). */
static int pursuable(table_game *g, const table_unit *u, const table_unit *t)
{
	int st = enemy(g, u, t, "pursue");
	if (st != FRAY_OK)
		return st;
	bool broke = !strcmp(PRESIDIO_OF(u)->may_pursue, t->name);
	const char *why = fray_presidio_pursued_refused(standing_of(t), broke);
	if (why && !broke)
		return frayi_game_fail(g, FRAY_ERR_INPUT, "%s cannot be pursued by %s: %s: it did not break contact "
				       "with %s this turn", unit_label(t), unit_label(u), why, u->name);
	if (why)
		return frayi_game_fail(g, FRAY_ERR_INPUT, "%s cannot be pursued: %s: %s", unit_label(t),
				       standing_words(t), why);
	return FRAY_OK;
}

/* The command bonus of the unit's leader: as given, else its rank's. */
static int leader_bonus(const table_unit *u)
{
	return PRESIDIO_OF(u)->leader ? PRESIDIO_OF(u)->leader : fray_presidio_command_skill(PRESIDIO_OF(u)->leader_rank);
}

/* Casualties off a unit: figures lost, counted for its morale (Section 7's
 * casualty DMs); none left: destroyed. */
static void take_casualties(table_game *g, table_unit *u, int n)
{
	if (n <= 0)
		return;
	if (n > PRESIDIO_OF(u)->figures)
		n = PRESIDIO_OF(u)->figures;
	PRESIDIO_OF(u)->figures -= n;
	PRESIDIO_OF(u)->casualties += n;
	frayi_table_note(g, "%s: %d %s, %d figures left", u->name, n, n == 1 ? "casualty" : "casualties", PRESIDIO_OF(u)->figures);
	if (PRESIDIO_OF(u)->figures == 0) {
		u->status = ST_DESTROYED;
		frayi_table_note(g, "%s: destroyed (no figures left)", u->name);
		leave_contact(g, u, false);
	}
}

/* A procedure's casualties on u as the procedure drew them (Section 6,
 * Hits; ruling R15): its specialty figures hit, its leader among them;
 * shots and melees alike. */
static bool take_hits(table_game *g, table_unit *u, int casualties, int specialists_hit, bool leader_hit)
{
	/* Section 1, Officer Casualties: a unit with no commanders left
	 * "will simply stand and fight but if they receive one more casualty
	 * they will run for it or surrender" */
	bool leaderless = casualties > 0 && !fray_presidio_has_commanders(leader_bonus(u), PRESIDIO_OF(u)->specialists);
	PRESIDIO_OF(u)->specialists -= specialists_hit < PRESIDIO_OF(u)->specialists ? specialists_hit : PRESIDIO_OF(u)->specialists;
	take_casualties(g, u, casualties);
	/* the figures left are at most all specialty figures: a file that
	 * says more would not read back (and the procedures refuse it) */
	if (PRESIDIO_OF(u)->specialists > PRESIDIO_OF(u)->figures)
		PRESIDIO_OF(u)->specialists = PRESIDIO_OF(u)->figures;
	if (leader_hit) {
		/* command devolves to the next rank, unknown to the file: the
		 * referee sets it ('set UNIT leader=N') */
		frayi_table_note(g, "%s: its leader is a casualty", u->name);
		PRESIDIO_OF(u)->leader = 0;
		PRESIDIO_OF(u)->leader_rank[0] = 0;
	}
	return leaderless;
}

/* ---- morale (Section 7) ---- */

/* What the game knows of a check's moment: it passes these on; the
 * procedure makes the rules of them. */
typedef struct morale_when {
	bool charged, charging, charge_impact, near_enemy, leader_casualty, incidental;
	bool no_commanders;              /* none left before its casualties (Section 1) */
	const char *cover;               /* the unit's cover, or NULL */
} morale_when;

typedef struct morale_got {
	bool success, holds;
} morale_got;

static int morale_check(table_game *g, table_unit *u, const morale_when *w, const player_opts *p, morale_got *mg)
{
	table_step s = frayi_step_begin(g, "presidio.morale");
	frayi_step_choice(&s, "level", fray_presidio_level_names[PRESIDIO_OF(u)->level]);
	frayi_step_choice(&s, "size", fray_presidio_size_names[PRESIDIO_OF(u)->size]);
	frayi_step_int(&s, "casualties", PRESIDIO_OF(u)->casualties > 100 ? 100 : PRESIDIO_OF(u)->casualties);
	/* a leader just hit lends no bonus; the check has his DM instead */
	frayi_step_int(&s, "leader", w->leader_casualty ? 0 : leader_bonus(u));
	frayi_step_bool(&s, "leader_casualty", w->leader_casualty);
	frayi_step_choice(&s, "standing", fray_presidio_standing_names[standing_of(u)]);
	frayi_step_bool(&s, "line", PRESIDIO_OF(u)->line);
	frayi_step_bool(&s, "charged", w->charged);
	frayi_step_bool(&s, "charging", w->charging);
	frayi_step_bool(&s, "charge_impact", w->charge_impact);
	frayi_step_bool(&s, "near_enemy", w->near_enemy);
	frayi_step_bool(&s, "no_commanders", w->no_commanders);
	bool incidental = w->incidental || (w->cover && !strcmp(w->cover, "incidental"));
	frayi_step_bool(&s, "incidental_cover", incidental);
	if (w->cover && strcmp(w->cover, "incidental") && strcmp(w->cover, "none"))
		frayi_step_choice(&s, "cover", w->cover);
	int64_t success, bonus, standing, holds;
	int st = frayi_step_roll(&s, p, (step_out[]){{"success", &success}, {"bonus", &bonus}, {"standing", &standing},
						     {"holds", &holds}, {NULL, NULL}});
	if (st != FRAY_OK)
		return st;
	if (bonus) {
		/* two 6s: a level up for the battle, earlier casualties disregarded */
		PRESIDIO_OF(u)->level = (int)fray_presidio_bonus_level((fray_presidio_level)PRESIDIO_OF(u)->level);
		PRESIDIO_OF(u)->casualties = 0;
		frayi_table_note(g, "%s: two 6s: now %s, earlier casualties disregarded", u->name,
			   fray_presidio_level_names[PRESIDIO_OF(u)->level]);
	}
	int was = u->status;
	set_standing(u, standing);
	if (!success || u->status != was)
		frayi_table_note(g, "%s: %s", u->name, frayi_unit_status_names[u->status]);
	/* a unit in line that falls back is set down disordered when its
	 * fall back is made, at the turn's end (ruling R49) */
	if (u->status != was && standing_of(u) == FRAY_PRESIDIO_FELL_BACK &&
	    frayi_presidio_fall_back_placed(PRESIDIO_OF(u)->line) == FRAY_PRESIDIO_DISORDERED)
		frayi_table_note(g, "%s: in line, it falls back into disorder (\"Units in Line - become disordered on a "
				 "fall back result\", Presidio Section 7, Fall Back; ruling R49): disordered when the "
				 "turn ends", u->name);
	/* a unit that gives way leaves the melee (its enemy may pursue it,
	 * Section 5); one that panics now, in the action sequences, has
	 * missed this turn's rally phase (Section 2, Game Turn Phases) */
	if (!fray_presidio_keeps_contact(standing_of(u)))
		leave_contact(g, u, true);
	if (u->status != was && standing_of(u) == FRAY_PRESIDIO_PANICKED)
		spend(u, FRAY_PRESIDIO_DO_PANIC, 1);
	if (mg)
		*mg = (morale_got){success != 0, holds != 0};
	return FRAY_OK;
}

/* ---- shooting (Sections 4 and 6) ---- */

typedef struct shot_got {
	int casualties;
	bool leader_hit, morale_check, within_4, no_commanders;
} shot_got;

/* Shoots u at t: the shot's inputs from both units and the player's
 * options (main: the player's options go to it), the outcome applied.
 * unit_figures: the target's figures when the dice were rolled, when
 * they differ from its figures now (0: none). */
static int shot(table_game *g, table_unit *u, table_unit *t, const player_opts *p, bool main, const char *band,
		const char *mode, bool volley_if_able, int unit_figures, shot_got *sg)
{
	const fray_presidio_weapon *w = fray_presidio_weapon_find(PRESIDIO_OF(u)->weapon, NULL);
	if (!PRESIDIO_OF(u)->weapon[0] || !w || !w->reload)
		return frayi_game_fail(g, FRAY_ERR_INPUT, "%s has no weapon to fire (its 'weapon' in the game file)",
				 unit_label(u));
	if (main && frayi_player_flag(p, "--through-fire"))
		return frayi_game_fail(g, FRAY_ERR_INPUT, "--through-fire: a game file does not know which unit is "
				 "behind; roll it as a shot (presidio.shoot) on its own");
	table_step s = frayi_step_begin(g, "presidio.shoot");
	frayi_step_string(&s, "weapon", w->name);
	frayi_step_int(&s, "figures", PRESIDIO_OF(u)->figures);
	frayi_step_int(&s, "skill", PRESIDIO_OF(u)->ranged);
	frayi_step_int(&s, "armor", PRESIDIO_OF(t)->armor);
	frayi_step_int(&s, "target_figures", PRESIDIO_OF(t)->figures);
	if (unit_figures > 0)
		frayi_step_int(&s, "target_unit_figures", unit_figures);
	frayi_step_int(&s, "specialists", PRESIDIO_OF(t)->specialists);
	frayi_step_bool(&s, "target_leader", PRESIDIO_OF(t)->specialists > 0 && leader_bonus(t) > 0);
	frayi_step_choice(&s, "target_standing", fray_presidio_standing_names[standing_of(t)]);
	frayi_step_bool(&s, "mounted_target", PRESIDIO_OF(t)->mounted);
	/* officers and NCOs with the firers, all of them left out of a
	 * volley: the file's specialty figures (ruling R42) */
	frayi_step_int(&s, "leaders", PRESIDIO_OF(u)->specialists);
	/* the firers' standing and designation: a disordered light or skirmish
	 * unit shoots half (Section 3, Disorder); the procedure decides */
	frayi_step_choice(&s, "standing", fray_presidio_standing_names[standing_of(u)]);
	frayi_step_choice(&s, "designation", fray_presidio_designation_names[PRESIDIO_OF(u)->designation]);
	frayi_step_int(&s, "reload_left", PRESIDIO_OF(u)->reload);
	frayi_step_bool(&s, "after_volley", PRESIDIO_OF(u)->volleyed && PRESIDIO_OF(u)->reload > 0);
	const char *m = mode ? mode : main ? frayi_player_value(p, "--mode") : NULL;
	/* a volley by a line unit the rules let volley (Section 1: a platoon
	 * at most; Section 4: two ranks deep at most) */
	fray_presidio_unit_kind kind = kind_of(u);
	bool volley_line = m && !strcmp(m, "volley") && PRESIDIO_OF(u)->line && !fray_presidio_volley_kind_refused(&kind);
	frayi_step_bool(&s, "line", volley_line);
	frayi_step_bool(&s, "volley_if_able", volley_if_able);
	if (band)
		frayi_step_choice(&s, "band", band);
	if (mode)
		frayi_step_choice(&s, "mode", mode);
	int64_t casualties, specialists_hit, leader_hit, morale;
	int st = frayi_step_roll(&s, main ? p : NULL,
				 (step_out[]){{"casualties", &casualties}, {"specialists_hit", &specialists_hit},
					      {"leader_hit", &leader_hit}, {"morale_check", &morale}, {NULL, NULL}});
	if (st != FRAY_OK)
		return st;
	/* what the fire leaves, from the rules on what the step was given */
	fray_presidio_shoot_in plan = {.weapon = w, .mode = FRAY_PRESIDIO_INDEPENDENT, .reload_left = PRESIDIO_OF(u)->reload,
				       .firer_standing = standing_of(u), .volley_ready = volley_line,
				       .inches = -1};
	for (int k = 0; m && k < 5; k++)
		if (!strcmp(m, fray_presidio_fire_mode_names[k]))
			plan.mode = (fray_presidio_fire_mode)k;
	const char *range = main ? frayi_player_value(p, "--range") : NULL, *pband = main ? frayi_player_value(p, "--band") : band;
	if (range) {
		plan.inches = strtod(range, NULL);
		plan.band = fray_presidio_band(w->range, plan.inches);
	}
	for (int k = 0; pband && k < 3; k++)
		if (!strcmp(pband, fray_presidio_band_names[k]))
			plan.band = k;
	PRESIDIO_OF(u)->reload = fray_presidio_reload_after(&plan);
	PRESIDIO_OF(u)->volleyed = fray_presidio_fires_volley(&plan);
	bool leaderless = take_hits(g, t, (int)casualties, (int)specialists_hit, leader_hit != 0);
	*sg = (shot_got){(int)casualties, leader_hit != 0, morale != 0,
			 fray_presidio_within_4(w->range, plan.band, plan.inches), leaderless};
	return FRAY_OK;
}

/* The fire mode the player asks for (independent fire when none). */
static fray_presidio_fire_mode fire_mode_asked(const player_opts *p)
{
	const char *m = frayi_player_value(p, "--mode");
	for (int k = 0; m && k < 5; k++)
		if (!strcmp(m, fray_presidio_fire_mode_names[k]))
			return (fray_presidio_fire_mode)k;
	return FRAY_PRESIDIO_INDEPENDENT;
}

/* The unit a word of a log's command names (as frayi_table_unit_named
 * finds it, quietly), or NULL. */
static const table_unit *unit_of_word(const table_game *g, const char *w)
{
	if (!w)
		return NULL;
	for (size_t i = 0; i < g->nunits; i++)
		if (!strcmp(g->units[i].name, w))
			return &g->units[i];
	for (size_t i = 0; i < g->nunits; i++)
		if (!strcasecmp(g->units[i].name, w))
			return &g->units[i];
	return NULL;
}

/* The value of option opt in a log's command (`--opt V` or `--opt=V`)
 * into v; false when the command does not give it. */
static bool command_value(const char *command, const char *opt, char *v, size_t cap)
{
	char w[TABLE_NAME_MAX + 64];
	size_t n = strlen(opt);
	for (const char *p = command; (p = frayi_table_command_word(p, w, sizeof w));) {
		if (!strncmp(w, opt, n) && w[n] == '=') {
			snprintf(v, cap, "%s", w + n + 1);
			return true;
		}
		if (!strcmp(w, opt))
			return frayi_table_command_word(p, v, cap) != NULL;
	}
	return false;
}

/* The fire mode named w (independent fire when it names none). */
static fray_presidio_fire_mode mode_named(const char *w)
{
	for (int k = 0; w && k < 5; k++)
		if (!strcmp(w, fray_presidio_fire_mode_names[k]))
			return (fray_presidio_fire_mode)k;
	return FRAY_PRESIDIO_INDEPENDENT;
}

/* A shot's facts as an entry an older fray wrote has them: only in its
 * command's words (ACTION UNIT --at TARGET options). */
static bool shot_of_command(const table_game *g, const char *command, const table_unit **u, const table_unit **t,
			    fray_presidio_fire_mode *mode, int *actions)
{
	char action[16], actor[TABLE_NAME_MAX + 8], target[TABLE_NAME_MAX + 8], v[32];
	const char *p = frayi_table_command_word(command, action, sizeof action);
	if (!p || strcmp(action, "shoot") || !(p = frayi_table_command_word(p, actor, sizeof actor)) ||
	    !command_value(p, "--at", target, sizeof target))
		return false;
	*u = unit_of_word(g, actor);
	*t = unit_of_word(g, target);
	*mode = command_value(p, "--mode", v, sizeof v) ? mode_named(v) : FRAY_PRESIDIO_INDEPENDENT;
	*actions = command_value(p, "--actions", v, sizeof v) ? atoi(v) : 1;
	return true;
}

/* Whether the log's last entry is a shot of u at t in this turn: the
 * action sequence the shot now may belong to (Sections 2 and 7). Its fire
 * mode and shooting actions to *mode and *actions: the entry's facts
 * (act_shoot keeps them), or its command's words in an entry written
 * before facts were kept. */
static bool shot_just_before(const table_game *g, const table_unit *u, const table_unit *t,
			     fray_presidio_fire_mode *mode, int *actions)
{
	size_t n = g->nlog;
	const fray_node *e = n ? g->log[n - 1] : NULL;
	const char *command = e ? fray_node_scalar(fray_map_get(e, "command")) : NULL;
	if (!command || frayi_table_entry_turn(e) != g->turn)
		return false;
	const table_unit *by, *at;
	const char *action = fray_node_scalar(frayi_table_entry_fact(e, "action"));
	if (!action) {
		if (!shot_of_command(g, command, &by, &at, mode, actions))
			return false;
	} else {
		if (strcmp(action, "shoot") != 0)
			return false;
		const char *a = fray_node_scalar(frayi_table_entry_fact(e, "actions"));
		by = unit_of_word(g, fray_node_scalar(frayi_table_entry_fact(e, "actor")));
		at = unit_of_word(g, fray_node_scalar(frayi_table_entry_fact(e, "target")));
		*mode = mode_named(fray_node_scalar(frayi_table_entry_fact(e, "mode")));
		*actions = a ? atoi(a) : 1;
	}
	return by == u && at == t;
}

/* A one-action shot of u at t, right after its shot at t in the same
 * turn, as the rules say (fray_presidio_second_shot_refused): the second
 * action of independent fire in a sequence goes with the first. */
static int in_sequence(table_game *g, const table_unit *u, const table_unit *t, fray_presidio_fire_mode mode,
		       bool held)
{
	fray_presidio_fire_mode before;
	int actions;
	if (!shot_just_before(g, u, t, &before, &actions))
		return FRAY_OK;
	const char *why = fray_presidio_second_shot_refused(before, actions, mode, held);
	if (!why)
		return FRAY_OK;
	return frayi_game_fail(g, FRAY_ERR_INPUT, "shoot: %s shot at %s just before (the log's last action, this "
			       "turn): %s%s; an action %s held and fires now, at another moment, stands alone: give "
			       "--held", unit_label(u), unit_label(t), why,
			       before == FRAY_PRESIDIO_INDEPENDENT
				       ? ": undo that shot and give both actions as one, 'shoot ... --actions 2'"
				       : "",
			       unit_label(u));
}

/* The action a shot takes from the unit's turn (ruling R47): two
 * actions of independent fire, aim and shoot, opportunity fire, fire
 * while moving (in a walk or run), else one action of fire. */
static fray_presidio_action shot_action(fray_presidio_fire_mode mode, int actions)
{
	if (actions == 2)
		return FRAY_PRESIDIO_DO_TWO_ACTION_FIRE;
	switch (mode) {
	case FRAY_PRESIDIO_AIMED:
		return FRAY_PRESIDIO_DO_AIMED;
	case FRAY_PRESIDIO_OPPORTUNITY:
		return FRAY_PRESIDIO_DO_OPPORTUNITY;
	case FRAY_PRESIDIO_MOVING:
		return FRAY_PRESIDIO_DO_MOVING_FIRE;
	default:
		return FRAY_PRESIDIO_DO_SHOOT;
	}
}

/* Refuses what u does in base contact when the rules say why (why). */
static int refused_in_contact(table_game *g, const table_unit *u, const char *why, const char *what)
{
	if (!why)
		return FRAY_OK;
	return frayi_game_fail(g, FRAY_ERR_INPUT, "%s cannot %s: it is in base contact (%s): %s", unit_label(u), what,
			       PRESIDIO_OF(u)->contact[0] ? PRESIDIO_OF(u)->contact : "an enemy's contact", why);
}

/* Refuses a (a move or a charge) by u in base contact (Section 5,
 * Disengaging from Melee: fray_presidio_contact_move_refused). */
static int not_in_contact(table_game *g, const table_unit *u, fray_presidio_action a, const char *what)
{
	return refused_in_contact(g, u, fray_presidio_contact_move_refused(in_any_contact(g, u), a), what);
}

/* shoot [--actions 2]: one shooting action, or two consecutive actions of
 * independent fire, all their dice rolled at once (the procedure's
 * --actions 2: Section 4, Independent Fire; so its odds are those of
 * every die the action rolls), then one morale check for the target
 * after both. A second action of independent fire given on its own right
 * after the first is refused (in_sequence): the target checks morale
 * after the action sequence (Section 7), once; --held: an action held and
 * fired later. The unit's turn must have the actions (ruling R47). */
static int act_shoot(table_game *g, table_unit *u, table_unit *t, const player_opts *p)
{
	const char *v = frayi_player_value(p, "--actions");
	int actions = v ? (!strcmp(v, "1") ? 1 : !strcmp(v, "2") ? 2 : 0) : 1;
	fray_presidio_fire_mode mode = fire_mode_asked(p);
	int st = able(g, u, FRAY_PRESIDIO_ACT_SHOOT, "shoot");
	const char *why = actions == 2 ? fray_presidio_consecutive_refused(mode) : NULL;
	fray_presidio_unit_kind kind = kind_of(u);
	const char *no_volley = mode == FRAY_PRESIDIO_VOLLEY ? fray_presidio_volley_kind_refused(&kind) : NULL;
	if (st == FRAY_OK && no_volley)
		return frayi_game_fail(g, FRAY_ERR_INPUT, "%s cannot volley: %s", unit_label(u), no_volley);
	if (st == FRAY_OK && why)
		return frayi_game_fail(g, FRAY_ERR_INPUT, "--actions 2: %s", why);
	if (st == FRAY_OK && actions)
		st = has_actions(g, u, shot_action(mode, actions), 1, "shoot");
	if (st == FRAY_OK)
		st = targetable(g, u, t);
	/* Section 5, Firing into Melee (ruling R51) */
	if (st == FRAY_OK && !g->odds)
		st = refused_in_contact(g, u, fray_presidio_contact_shot_refused(in_any_contact(g, u)), "shoot");
	if (st == FRAY_OK && mode == FRAY_PRESIDIO_OPPORTUNITY && !g->odds) {
		fray_presidio_turn moved = turn_of(t);
		const char *still = fray_presidio_opportunity_refused(&moved);
		if (still)
			return frayi_game_fail(g, FRAY_ERR_INPUT, "%s cannot fire at %s by opportunity: %s", unit_label(u),
					       unit_label(t), still);
	}
	/* the target's own actions against the fire (Section 4, Special
	 * Cover): evasion one, taking cover two, from its turn */
	bool evading = frayi_player_flag(p, "--evading"), covering = frayi_player_flag(p, "--taking-cover");
	if (st == FRAY_OK && evading)
		st = has_actions(g, t, FRAY_PRESIDIO_DO_EVADE, 1, "evade (--evading)");
	if (st == FRAY_OK && covering)
		st = has_actions(g, t, FRAY_PRESIDIO_DO_TAKE_COVER, 1, "take cover (--taking-cover)");
	if (st != FRAY_OK)
		return st;
	if (!frayi_player_value(p, "--range") && !frayi_player_value(p, "--band"))
		return frayi_game_fail(g, FRAY_ERR_INPUT, "shoot needs --range INCHES (or --band close|medium|long)");
	if (!actions)
		return frayi_game_fail(g, FRAY_ERR_INPUT, "--actions: expected 1 or 2 (shooting actions), got '%s'",
				 v);
	/* (the odds of a shot are its dice's whatever came before: a question
	 * asked, not an action recorded) */
	bool held = frayi_player_flag(p, "--held");
	if (actions == 1 && !g->odds && (st = in_sequence(g, u, t, mode, held)) != FRAY_OK)
		return st;
	spend(u, shot_action(mode, actions), 1);
	/* what a shot right after reads of this one (shot_just_before) */
	frayi_table_fact_str(g, "action", "shoot");
	frayi_table_fact_str(g, "actor", u->name);
	frayi_table_fact_str(g, "target", t->name);
	frayi_table_fact_str(g, "mode", fray_presidio_fire_mode_names[mode]);
	frayi_table_fact_int(g, "actions", actions);
	if (evading)
		spend(t, FRAY_PRESIDIO_DO_EVADE, 1);
	if (covering)
		spend(t, FRAY_PRESIDIO_DO_TAKE_COVER, 1);
	shot_got sg = {0};
	if ((st = shot(g, u, t, p, true, NULL, NULL, false, 0, &sg)) != FRAY_OK)
		return st;
	if (!sg.morale_check || PRESIDIO_OF(t)->figures == 0)
		return FRAY_OK;
	morale_when w = {.cover = frayi_player_value(p, "--cover"), .incidental = frayi_player_flag(p, "--incidental"),
			 .near_enemy = sg.within_4, .leader_casualty = sg.leader_hit,
			 .no_commanders = sg.no_commanders};
	return morale_check(g, t, &w, NULL, NULL);
}

/* ---- melee (Section 5) ---- */

static const char *melee_weapon(const table_unit *u)
{
	return PRESIDIO_OF(u)->melee_weapon[0] ? PRESIDIO_OF(u)->melee_weapon : PRESIDIO_OF(u)->weapon[0] ? PRESIDIO_OF(u)->weapon : "fists";
}

/* What a melee cost each side: figures, and whether its leader fell (the
 * morale check that follows has the leader-casualty DM, no bonus). */
typedef struct melee_loss {
	int figures;
	bool leader_hit;
	bool no_commanders;              /* none left before (Section 1) */
} melee_loss;

/* A melee of u on t; both: the defenders strike back; simultaneous: with
 * every figure they had before the attackers' casualties (a unit that
 * held an action: Section 2, Holding 2 Actions). charge: the impact's
 * kind, or NULL. Both units' specialty figures and leaders go
 * in, so the procedure draws which casualties they are (Section 6, Hits;
 * ruling R15); the attackers' only when the defenders strike back. */
static int melee_step(table_game *g, table_unit *u, table_unit *t, const player_opts *p, bool both,
		      bool simultaneous, const char *charge, melee_loss *lost_u, melee_loss *lost_t)
{
	table_step s = frayi_step_begin(g, "presidio.melee");
	frayi_step_string(&s, "weapon", melee_weapon(u));
	frayi_step_int(&s, "figures", PRESIDIO_OF(u)->figures);
	frayi_step_int(&s, "skill", PRESIDIO_OF(u)->melee);
	frayi_step_int(&s, "armor", PRESIDIO_OF(u)->armor);
	frayi_step_string(&s, "defender_weapon", melee_weapon(t));
	frayi_step_int(&s, "defender_figures", PRESIDIO_OF(t)->figures);
	frayi_step_int(&s, "defender_skill", PRESIDIO_OF(t)->melee);
	frayi_step_int(&s, "defender_armor", PRESIDIO_OF(t)->armor);
	frayi_step_bool(&s, "mounted", PRESIDIO_OF(u)->mounted);
	frayi_step_bool(&s, "defender_mounted", PRESIDIO_OF(t)->mounted);
	frayi_step_bool(&s, "both", both);
	frayi_step_bool(&s, "simultaneous", both && simultaneous);
	if (charge)
		frayi_step_choice(&s, "charge", charge);
	frayi_step_int(&s, "defender_specialists", PRESIDIO_OF(t)->specialists);
	frayi_step_bool(&s, "defender_leader", PRESIDIO_OF(t)->specialists > 0 && leader_bonus(t) > 0);
	frayi_step_int(&s, "defender_unit_figures", PRESIDIO_OF(t)->figures);
	frayi_step_choice(&s, "defender_standing", fray_presidio_standing_names[standing_of(t)]);
	if (both) {
		frayi_step_int(&s, "specialists", PRESIDIO_OF(u)->specialists);
		frayi_step_bool(&s, "leader", PRESIDIO_OF(u)->specialists > 0 && leader_bonus(u) > 0);
		frayi_step_int(&s, "unit_figures", PRESIDIO_OF(u)->figures);
	}
	int64_t hit_t, hit_u, specialists_t, specialists_u, leader_t, leader_u;
	int st = frayi_step_roll(&s, p, (step_out[]){{"casualties", &hit_t}, {"return_casualties", &hit_u},
						     {"specialists_hit", &specialists_t}, {"leader_hit", &leader_t},
						     {"return_specialists_hit", &specialists_u},
						     {"return_leader_hit", &leader_u}, {NULL, NULL}});
	if (st != FRAY_OK)
		return st;
	*lost_t = (melee_loss){(int)hit_t < PRESIDIO_OF(t)->figures ? (int)hit_t : PRESIDIO_OF(t)->figures, leader_t != 0, false};
	*lost_u = (melee_loss){(int)hit_u < PRESIDIO_OF(u)->figures ? (int)hit_u : PRESIDIO_OF(u)->figures, leader_u != 0, false};
	lost_t->no_commanders = take_hits(g, t, lost_t->figures, (int)specialists_t, lost_t->leader_hit);
	lost_u->no_commanders = take_hits(g, u, lost_u->figures, (int)specialists_u, lost_u->leader_hit);
	return FRAY_OK;
}

/* Melee Morale Checks: after each side has struck, the side with
 * casualties checks morale; in contact, so within 4" of the enemy. After
 * a charge's impact the chargers check as charging, the defenders as
 * charged (Section 7, Charging). */
static int melee_morale(table_game *g, table_unit *u, table_unit *t, const melee_loss *lost_u,
			const melee_loss *lost_t, bool charge)
{
	int st = FRAY_OK;
	if (lost_t->figures > 0 && PRESIDIO_OF(t)->figures > 0) {
		morale_when w = {.near_enemy = true, .charge_impact = charge, .charged = charge,
				 .leader_casualty = lost_t->leader_hit, .no_commanders = lost_t->no_commanders};
		st = morale_check(g, t, &w, NULL, NULL);
	}
	if (st == FRAY_OK && lost_u->figures > 0 && PRESIDIO_OF(u)->figures > 0) {
		morale_when w = {.near_enemy = true, .charging = charge, .leader_casualty = lost_u->leader_hit,
				 .no_commanders = lost_u->no_commanders};
		st = morale_check(g, u, &w, NULL, NULL);
	}
	return st;
}

/* A melee and the morale checks that follow it (Section 5, Melee
 * Attacks, then Melee Morale Checks): u strikes t (both: t strikes back;
 * simultaneous: with every figure it had before u's casualties; impact:
 * the charge impact's kind, NULL for none). After an impact the chargers
 * check as charging and the defenders as charged (Section 7, Charging).
 * Every melee the game makes (melee, a charge's impact or a caught unit,
 * a pursuit, a walk into contact) goes through here. */
static int melee_then_morale(table_game *g, table_unit *u, table_unit *t, const player_opts *p, bool both,
			     bool simultaneous, const char *impact)
{
	melee_loss lost_u = {0}, lost_t = {0};
	int st = melee_step(g, u, t, p, both, simultaneous, impact, &lost_u, &lost_t);
	return st == FRAY_OK ? melee_morale(g, u, t, &lost_u, &lost_t, impact != NULL) : st;
}

/* melee: the attackers strike (one action), then with --both the
 * defenders (one action also: Section 5, Melee Attacks), each side's turn
 * having it (ruling R47). */
static int act_melee(table_game *g, table_unit *u, table_unit *t, const player_opts *p)
{
	bool both = frayi_player_flag(p, "--both");
	int st = able(g, u, FRAY_PRESIDIO_ACT_MELEE, "melee");
	if (st == FRAY_OK)
		st = has_actions(g, u, FRAY_PRESIDIO_DO_STRIKE, 1, "melee");
	if (st == FRAY_OK)
		st = meleeable(g, u, t);
	if (st == FRAY_OK && fray_presidio_pursuit_surrenders(standing_of(t))) {
		/* contact with a panicked unit is its surrender, no dice (the
		 * rules': Section 5, Pursuit; issue 40 item 5); the contact is
		 * the attackers' action (ruling R47) */
		spend(u, FRAY_PRESIDIO_DO_STRIKE, 1);
		surrenders(g, t, "met in melee");
		return FRAY_OK;
	}
	if (st == FRAY_OK && both)
		st = has_actions(g, t, FRAY_PRESIDIO_DO_STRIKE_BACK, 1, "strike back (--both)");
	if (st != FRAY_OK)
		return st;
	spend(u, FRAY_PRESIDIO_DO_STRIKE, 1);
	if (both)
		spend(t, FRAY_PRESIDIO_DO_STRIKE_BACK, 1);
	return melee_then_morale(g, u, t, p, both, false, NULL);
}

/* ---- charge (Section 5, Charging) ---- */

/* fire-and-melee: a unit holding both actions fires once at close range
 * and saves one to melee (Section 2, Holding 2 Actions; Section 5,
 * Defensive Fire and Charge Reaction) */
static const char *const reactions[] = {"stand", "fire", "fire-and-flee", "flee", "melee", "fire-and-melee"};
enum { R_STAND, R_FIRE, R_FIRE_FLEE, R_FLEE, R_MELEE, R_FIRE_MELEE, R_N };

/* The charge impact's kind, from the rules by the chargers' mount,
 * weapon and bayonets. */
static const char *impact_kind(const table_unit *u)
{
	return fray_presidio_impact_names[fray_presidio_impact_of(
		PRESIDIO_OF(u)->mounted, fray_presidio_weapon_find(melee_weapon(u), NULL), PRESIDIO_OF(u)->bayonets)];
}

/* The defender's reaction: --reaction, else the players' policy's choice
 * (fray table's interactive policy asks at a terminal), recorded for the
 * log's command; no policy: the option is needed. */
static int reaction(table_game *g, const table_unit *t, const player_opts *p, int *out)
{
	const char *r = frayi_player_value(p, "--reaction");
	if (!r && g->policy) {
		char prompt[TABLE_NAME_MAX + 128], msg[256];
		snprintf(prompt, sizeof prompt, "%s passed its fear-of-charge check. Its reaction (Presidio Section 5, "
			 "Charge Reaction)", t->name);
		fray_choice c = {.kind = "presidio.charge_reaction", .prompt = prompt, .noptions = R_N,
				 .options = reactions, .suggested = R_STAND, .side = -1};
		size_t k = fray_policy_choose(g->policy, &c, msg, sizeof msg);
		if (k == FRAY_NO_ANSWER || k >= R_N)
			return frayi_game_fail(g, FRAY_ERR_INPUT, "no reaction chosen (%s)", k == FRAY_NO_ANSWER ? msg : "?");
		*out = (int)k;
		snprintf(g->asked, sizeof g->asked, " --reaction %s", reactions[k]);
		return FRAY_OK;
	}
	if (!r)
		return frayi_game_fail(g, FRAY_ERR_INPUT, "charge: the defender's reaction is needed: --reaction "
				 "stand|fire|fire-and-flee|flee|melee|fire-and-melee (asked only at a terminal)");
	for (int k = 0; k < R_N; k++)
		if (!strcmp(r, reactions[k])) {
			*out = k;
			return FRAY_OK;
		}
	return frayi_game_fail(g, FRAY_ERR_INPUT, "--reaction: expected stand, fire, fire-and-flee, flee, melee or "
			 "fire-and-melee, got '%s'", r);
}

/* A firing reaction needs something loaded: asked of the rules before
 * any die is rolled, so a refused reaction costs nothing. */
static int can_fire_back(table_game *g, const table_unit *t, int react)
{
	if (react != R_FIRE && react != R_FIRE_FLEE && react != R_FIRE_MELEE)
		return FRAY_OK;
	fray_presidio_shoot_in in = {.mode = FRAY_PRESIDIO_INDEPENDENT, .reload_left = PRESIDIO_OF(t)->reload,
				     .after_volley = PRESIDIO_OF(t)->volleyed};
	const char *why = fray_presidio_fire_state_refused(&in);
	if (!why)
		why = fray_presidio_act_refused(standing_of(t), FRAY_PRESIDIO_ACT_SHOOT);
	return why ? frayi_game_fail(g, FRAY_ERR_INPUT, "--reaction %s: %s cannot fire: %s", reactions[react],
			       unit_label(t), why)
		   : FRAY_OK;
}

/* The actions a charge reaction takes from the defender's turn (Section
 * 5, Charge Reaction; ruling R47); -1: none (stand). */
static int reaction_action(int react)
{
	static const int by[R_N] = {[R_STAND] = -1,
				    [R_FIRE] = FRAY_PRESIDIO_DO_DEFENSIVE_FIRE,
				    [R_FIRE_FLEE] = FRAY_PRESIDIO_DO_FIRE_AND_FLEE,
				    [R_FLEE] = FRAY_PRESIDIO_DO_FLEE,
				    [R_MELEE] = FRAY_PRESIDIO_DO_STRIKE_BACK,
				    [R_FIRE_MELEE] = FRAY_PRESIDIO_DO_FIRE_AND_MELEE};
	return by[react];
}

/* Whether the defender's turn has the actions for its reaction ("Stand -
 * (0 actions) A target unit with no actions remaining must stand"). */
static int can_react(table_game *g, const table_unit *t, int react)
{
	char what[64];
	snprintf(what, sizeof what, "react with %s", reactions[react]);
	return reaction_action(react) < 0 ? FRAY_OK
					  : has_actions(g, t, (fray_presidio_action)reaction_action(react), 1, what);
}

/* Defensive Fire: once at close range, a volley if the unit may fire one,
 * else independent fire (fire and flee: independent fire; fire and melee
 * fires as Defensive Fire); the chargers check morale when hit. *stopped:
 * the charge ends short. */
static int defensive_fire(table_game *g, table_unit *u, table_unit *t, int react, bool *stopped)
{
	shot_got sg;
	bool volley = react != R_FIRE_FLEE;
	int st = shot(g, t, u, NULL, false, "close", volley ? "volley" : "independent", volley, 0, &sg);
	*stopped = PRESIDIO_OF(u)->figures == 0;
	if (st != FRAY_OK || !sg.morale_check)
		return st;
	morale_when w = {.charging = true, .leader_casualty = sg.leader_hit, .no_commanders = sg.no_commanders};
	morale_got mg;
	if ((st = morale_check(g, u, &w, NULL, &mg)) != FRAY_OK)
		return st;
	if (!mg.holds) {
		/* "If the chargers fail morale, they fall back, retreat, or
		 * panic from 4\" away" */
		frayi_table_note(g, "the charge stops 4\" short");
		*stopped = true;
	}
	return FRAY_OK;
}

/* The charge's target gave way (or fled) before the impact: the rules
 * say what the charge comes to (fray_presidio_charge_goes_on: Section 5,
 * Charge Movement; whether its distance reaches the unit where it went
 * is the players' to measure, --catches): no impact, the surrender of a
 * panicked unit caught, or the impact on any other, a charged unit that
 * cannot react. */
static int charge_goes_on(table_game *g, table_unit *u, table_unit *t, const player_opts *p, bool moved_away)
{
	const char *how = moved_away ? "moved away" : "gave way";
	bool catches = frayi_player_flag(p, "--catches");
	switch (fray_presidio_charge_goes_on(false, moved_away, catches, standing_of(t))) {
	case FRAY_PRESIDIO_CHARGE_GOES_ON:
		if (!catches)
			frayi_table_note(g, "%s %s; the charge goes on its full distance (Presidio Section 5, Charge "
					 "Movement): no impact unless it reaches %s (then give --catches)", t->name, how,
					 t->name);
		return FRAY_OK;
	case FRAY_PRESIDIO_CHARGE_SURRENDER:
		make_contact(g, u, t);
		surrenders(g, t, "overtaken by the charge");
		return FRAY_OK;
	default:
		break;
	}
	make_contact(g, u, t);
	frayi_table_note(g, "the charge reaches %s where it %s (--catches): the impact", t->name, how);
	return melee_then_morale(g, u, t, p, false, false, impact_kind(u));
}

static int act_charge(table_game *g, table_unit *u, table_unit *t, const player_opts *p)
{
	/* --catches matters only when the target gives way: read (used) now */
	(void)frayi_player_flag(p, "--catches");
	int st = able(g, u, FRAY_PRESIDIO_ACT_CHARGE, "charge");
	if (st == FRAY_OK)
		st = has_actions(g, u, FRAY_PRESIDIO_DO_CHARGE, 1, "charge");
	if (st == FRAY_OK)
		st = targetable(g, u, t);
	if (st != FRAY_OK)
		return st;
	/* Section 5, Disengaging from Melee; Melee: "Melee continues until
	 * contact is broken": no charge by a unit in base contact, at the
	 * enemy it fights nor at another (the referee's sixth round, finding
	 * 1, undoing the earlier "a charge leaves the melee" reading) */
	if ((st = not_in_contact(g, u, FRAY_PRESIDIO_DO_CHARGE, "charge")) != FRAY_OK)
		return st;
	spend(u, FRAY_PRESIDIO_DO_CHARGE, 1);
	/* the reaction is known before any die is rolled, so a bad one
	 * costs nothing (a script must give it: only a player at a terminal
	 * is asked, and only when the defender passes); it is used only if
	 * the defender passes */
	int react = R_STAND;
	/* (odds stop at the fear check, before any reaction) */
	bool asked = frayi_player_value(p, "--reaction") != NULL || (!g->policy && !g->odds);
	if (asked && (st = reaction(g, t, p, &react)) != FRAY_OK)
		return st;
	if (asked && (st = can_fire_back(g, t, react)) != FRAY_OK)
		return st;
	if (asked && (st = can_react(g, t, react)) != FRAY_OK)
		return st;
	frayi_table_note(g, "%s charges %s", u->name, t->name);
	/* Fear of Charge: the defender checks morale (+2 charged); pass or
	 * fail is this check's */
	morale_when fear = {.charged = true, .cover = frayi_player_value(p, "--cover"),
			    .incidental = frayi_player_flag(p, "--incidental")};
	morale_got mg;
	if ((st = morale_check(g, t, &fear, NULL, &mg)) != FRAY_OK)
		return st;
	/* where the charge ends: the rules' (Section 5, Charge Movement) */
	if (fray_presidio_charge_goes_on(mg.holds, false, false, standing_of(t)) != FRAY_PRESIDIO_CHARGE_IMPACT)
		return charge_goes_on(g, u, t, p, false);
	if (mg.success) {
		/* Charge Reaction: only a defender that passed chooses one */
		if (!asked && ((st = reaction(g, t, p, &react)) != FRAY_OK || (st = can_fire_back(g, t, react)) != FRAY_OK ||
			       (st = can_react(g, t, react)) != FRAY_OK))
			return st;
		frayi_table_note(g, "%s's reaction: %s", t->name, reactions[react]);
		if (reaction_action(react) >= 0)
			spend(t, (fray_presidio_action)reaction_action(react), 1);
		bool stopped = false;
		bool fires = react == R_FIRE || react == R_FIRE_FLEE || react == R_FIRE_MELEE;
		if (fires && (st = defensive_fire(g, u, t, react, &stopped)) != FRAY_OK)
			return st;
		if (stopped)
			return FRAY_OK;
		if (fray_presidio_charge_goes_on(mg.holds, react == R_FIRE_FLEE || react == R_FLEE, false,
						 standing_of(t)) != FRAY_PRESIDIO_CHARGE_IMPACT) {
			frayi_table_note(g, "%s moves away (not a failed check)", t->name);
			/* Flee: "may decide to fall back or retreat" (fray's flee, one
			 * action, is the fall back): a line unit is set down
			 * disordered (ruling R49) */
			if (react == R_FLEE) {
				int was = t->status;
				set_standing(t, frayi_presidio_moved_back(standing_of(t), false, PRESIDIO_OF(t)->line));
				if (t->status != was)
					frayi_table_note(g, "%s: %s (in line: \"Units in Line - become disordered on a fall "
							 "back result\", Presidio Section 7, Fall Back; ruling R49)", t->name,
							 frayi_unit_status_names[t->status]);
			}
			return charge_goes_on(g, u, t, p, true);
		}
	} else {
		frayi_table_note(g, "%s failed its check but holds its place: no reaction; the impact follows", t->name);
	}
	/* Charge Impact: the chargers strike with the impact DM; a defender
	 * that chose melee or fire-and-melee strikes back simultaneously,
	 * with every figure (the rules': fray_presidio_strikes_back_
	 * simultaneously; issue 28 item 5, issue 40 item 1) */
	make_contact(g, u, t);
	bool strikes_back = mg.success && (react == R_MELEE || react == R_FIRE_MELEE);
	return melee_then_morale(g, u, t, p, strikes_back, react == R_FIRE_MELEE, impact_kind(u));
}

/* ---- pursuit (Section 5) ---- */

/* pursue UNIT --at T: the pursuers made contact (their walking roll is
 * the players'): a panicked unit surrenders (fray_presidio_pursuit_
 * surrenders); any other goes on to melee, the pursuers counting as
 * charging (the impact, then the melee morale checks). */
static int act_pursue(table_game *g, table_unit *u, table_unit *t, const player_opts *p)
{
	int st = able(g, u, FRAY_PRESIDIO_ACT_MELEE, "pursue");
	if (st == FRAY_OK)
		st = has_actions(g, u, FRAY_PRESIDIO_DO_PURSUE, 1, "pursue");
	if (st == FRAY_OK)
		st = pursuable(g, u, t);
	if (st != FRAY_OK)
		return st;
	/* a unit that disengaged of its own will (a fall back or retreat,
	 * or an older file's good unit that walked off): the pursuers' charge
	 * impact only with 2 actions left (Section 5, Disengaging from
	 * Melee: "no charge bonus unless they have 2 actions left") */
	fray_presidio_impact kind = fray_presidio_impact_of(
		PRESIDIO_OF(u)->mounted, fray_presidio_weapon_find(melee_weapon(u), NULL), PRESIDIO_OF(u)->bayonets);
	fray_presidio_turn pursued = turn_of(t);
	if (fray_presidio_turn_disengaged(&pursued) || fray_presidio_disengaged(standing_of(t)))
		kind = fray_presidio_disengage_pursuit_impact(kind, frayi_table_presidio_actions_left(u));
	const char *impact = kind == FRAY_PRESIDIO_NO_CHARGE ? NULL : fray_presidio_impact_names[kind];
	spend(u, FRAY_PRESIDIO_DO_PURSUE, 1);
	PRESIDIO_OF(u)->may_pursue[0] = '\0';
	frayi_table_note(g, "%s pursues %s into contact", u->name, t->name);
	if (fray_presidio_pursuit_surrenders(standing_of(t))) {
		surrenders(g, t, "caught by its pursuers");
		return FRAY_OK;
	}
	make_contact(g, u, t);
	return melee_then_morale(g, u, t, p, false, false, impact);
}

/* ---- morale, rally and reload by hand ---- */

static int act_morale(table_game *g, table_unit *u, table_unit *t, const player_opts *p)
{
	(void)t;
	if (PRESIDIO_OF(u)->figures <= 0 || u->status == ST_SURRENDERED)
		return frayi_game_fail(g, FRAY_ERR_INPUT, "%s is out of the fight", unit_label(u));
	morale_when w = {.charged = frayi_player_flag(p, "--charged"), .charging = frayi_player_flag(p, "--charging"),
			 .charge_impact = frayi_player_flag(p, "--charge-impact"), .near_enemy = frayi_player_flag(p, "--near-enemy"),
			 .leader_casualty = frayi_player_flag(p, "--leader-casualty"), .cover = frayi_player_value(p, "--cover")};
	return morale_check(g, u, &w, p, NULL);
}

static int act_rally(table_game *g, table_unit *u, table_unit *t, const player_opts *p)
{
	(void)t;
	int st = may(g, u, FRAY_PRESIDIO_ACT_RALLY, "rally");
	if (st == FRAY_OK)
		st = has_actions(g, u, FRAY_PRESIDIO_DO_RALLY, 1, "rally");
	if (st != FRAY_OK)
		return st;
	spend(u, FRAY_PRESIDIO_DO_RALLY, 1);
	table_step s = frayi_step_begin(g, "presidio.rally");
	if (PRESIDIO_OF(u)->leader_rank[0] && fray_presidio_rank_find(PRESIDIO_OF(u)->leader_rank))
		frayi_step_string(&s, "leader_rank", PRESIDIO_OF(u)->leader_rank);
	else
		frayi_step_int(&s, "leader", PRESIDIO_OF(u)->leader);
	int64_t rallied, standing;
	st = frayi_step_roll(&s, p, (step_out[]){{"rallied", &rallied}, {"standing", &standing}, {NULL, NULL}});
	if (st == FRAY_OK) {
		set_standing(u, standing);
		frayi_table_note(g, "%s: %s, %s", u->name, rallied ? "rallied" : "not rallied", frayi_unit_status_names[u->status]);
	}
	return st;
}

static int act_reload(table_game *g, table_unit *u, table_unit *t, const player_opts *p)
{
	(void)t;
	const char *v = frayi_player_value(p, "--actions");
	int n = v ? atoi(v) : 1;
	if (n < 1 || n > 20)
		return frayi_game_fail(g, FRAY_ERR_INPUT, "--actions: expected 1 to 20");
	int st = may(g, u, FRAY_PRESIDIO_ACT_RELOAD, "reload");
	if (st != FRAY_OK)
		return st;
	if (PRESIDIO_OF(u)->reload == 0)
		return frayi_game_fail(g, FRAY_ERR_INPUT, "%s is fully loaded already", unit_label(u));
	/* an action of the turn for each action of reloading (ruling R47):
	 * a longer reload goes on next turn */
	if ((st = has_actions(g, u, FRAY_PRESIDIO_DO_RELOAD, n, "reload")) != FRAY_OK)
		return st;
	spend(u, FRAY_PRESIDIO_DO_RELOAD, n);
	PRESIDIO_OF(u)->reload = n >= PRESIDIO_OF(u)->reload ? 0 : PRESIDIO_OF(u)->reload - n;
	if (!PRESIDIO_OF(u)->reload)
		PRESIDIO_OF(u)->volleyed = false;
	frayi_table_note(g, "%s: reloads %d %s: %s", u->name, n, n == 1 ? "action" : "actions",
		   PRESIDIO_OF(u)->reload ? "still reloading" : "fully loaded");
	return FRAY_OK;
}

/* move UNIT [--run]: a walk (one action) or a run (two), spent from the
 * unit's turn (Section 2, Walk; ruling R47); the distance is the
 * players' to measure (presidio.move rolls it). No dice. */
static int act_move(table_game *g, table_unit *u, table_unit *t, const player_opts *p)
{
	(void)t;
	bool run = frayi_player_flag(p, "--run");
	fray_presidio_unit_kind kind = kind_of(u);
	fray_presidio_action a = fray_presidio_move_action(&kind, run);
	const char *verb = fray_presidio_action_names[a];
	const char *into = frayi_player_value(p, "--into");
	table_unit *to = NULL;
	if (into && !(to = frayi_table_unit_named(g, into))) {
		/* the option named, for the player and the page's field */
		char why[512];
		snprintf(why, sizeof why, "%s", fray_ctx_message(g->ctx));
		fray_ctx_clear(g->ctx);
		return frayi_game_fail_input(g, FRAY_ERR_INPUT, "--into", "--into: %s", why);
	}
	if (to == u)
		return frayi_game_fail(g, FRAY_ERR_INPUT, "--into: a unit cannot move into contact with itself");
	int st = able(g, u, FRAY_PRESIDIO_ACT_CHARGE, verb);
	if (st == FRAY_OK)
		st = has_actions(g, u, a, 1, verb);
	if (st == FRAY_OK && to)
		st = targetable(g, u, to);
	/* Section 5, Disengaging from Melee: a unit in base contact leaves
	 * only by a retreat or a fall back ('disengage') */
	if (st == FRAY_OK)
		st = not_in_contact(g, u, a, verb);
	if (st != FRAY_OK)
		return st;
	spend(u, a, 1);
	frayi_table_note(g, "%s: %s (%d action%s left this turn)", u->name, verb, frayi_table_presidio_actions_left(u),
			 frayi_table_presidio_actions_left(u) == 1 ? "" : "s");
	if (!to)
		return FRAY_OK;
	/* Section 5, Moving into a Melee: the unit that walks into contact
	 * is struck first ("the 'defender' will attack first"); contact with
	 * a panicked unit is its surrender (Pursuit) */
	make_contact(g, u, to);
	/* who strikes: the rules' (Section 5, Moving into a Melee; Pursuit) */
	switch (fray_presidio_into_contact_of(standing_of(to), PRESIDIO_OF(to)->figures)) {
	case FRAY_PRESIDIO_INTO_SURRENDERS:
		surrenders(g, to, "met in contact");
		return FRAY_OK;
	case FRAY_PRESIDIO_INTO_NO_BLOW:
		return FRAY_OK;
	default:
		break;
	}
	frayi_table_note(g, "%s walked into contact: %s strikes first (Presidio Section 5, Moving into a Melee)",
			 u->name, to->name);
	return melee_then_morale(g, to, u, NULL, false, false, NULL);
}

/* reform UNIT: a disordered line unit re-forms into line (Section 3,
 * Reform: two actions, one with a drummer; fray_presidio_reform_refused),
 * in good order again. No dice. 'set UNIT status=good' stays the
 * players' own. */
static int act_reform(table_game *g, table_unit *u, table_unit *t, const player_opts *p)
{
	(void)t;
	if (PRESIDIO_OF(u)->figures <= 0 || !fighting(u))
		return frayi_game_fail(g, FRAY_ERR_INPUT, "%s cannot reform: it is out of the fight", unit_label(u));
	fray_presidio_unit_kind kind = kind_of(u);
	if (frayi_player_flag(p, "--skirmish")) {
		/* out of disorder into skirmish formation, at no cost (Section 2,
		 * Rally: "They can reform or move into skirmish"; Section 3,
		 * Skirmish: "There is no cost"); the rules say who may */
		const char *no = fray_presidio_skirmish_refused(&kind, standing_of(u));
		if (no)
			return frayi_game_fail(g, FRAY_ERR_INPUT, "%s cannot move into skirmish: %s: %s",
					       unit_label(u), standing_words(u), no);
		spend(u, FRAY_PRESIDIO_DO_REFORM, fray_presidio_skirmish_cost());
		set_standing(u, FRAY_PRESIDIO_GOOD);
		frayi_table_note(g, "%s: moved into skirmish formation (no action), good (Presidio Section 2, Rally; "
				 "Section 3, Skirmish)", u->name);
		return FRAY_OK;
	}
	const char *why = fray_presidio_reform_refused(&kind, standing_of(u));
	if (why)
		return frayi_game_fail(g, FRAY_ERR_INPUT, "%s cannot reform: %s: %s", unit_label(u),
				       standing_words(u), why);
	bool was_good = standing_of(u) == FRAY_PRESIDIO_GOOD;
	/* Section 2, Riding: "the Spanish may also change formation while
	 * riding once per action without any cost" */
	fray_presidio_turn turn = turn_of(u);
	if (fray_presidio_riding_reform_free(&kind, &turn)) {
		int st = has_actions(g, u, FRAY_PRESIDIO_DO_RIDE_REFORM, 1, "reform");
		if (st != FRAY_OK)
			return st;
		spend(u, FRAY_PRESIDIO_DO_RIDE_REFORM, 1);
		set_standing(u, FRAY_PRESIDIO_GOOD);
		frayi_table_note(g, "%s: %s while riding (no action: \"the Spanish may also change formation while "
				 "riding once per action without any cost\", Presidio Section 2, Riding), good", u->name,
				 was_good ? "changes formation" : "re-formed in its formation");
		return FRAY_OK;
	}
	int cost = fray_presidio_reform_cost(PRESIDIO_OF(u)->drummer);
	/* a reform is one step, not split across turns (docs/presidio.md):
	 * has_actions' "the rest after 'turn'" is for repeated actions */
	int left = frayi_table_presidio_actions_left(u);
	if (!g->odds && cost > left && left > 0)
		return frayi_game_fail(g, FRAY_ERR_INPUT, "%s cannot reform: it takes %d actions (Presidio Section 3, "
				       "Reform) and it has %d left this turn; it re-forms in the next turn (a reform "
				       "is not split across turns)", unit_label(u), cost, left);
	int st = has_actions(g, u, FRAY_PRESIDIO_DO_REFORM, cost, "reform");
	if (st != FRAY_OK)
		return st;
	spend(u, FRAY_PRESIDIO_DO_REFORM, cost);
	set_standing(u, FRAY_PRESIDIO_GOOD);
	frayi_table_note(g, "%s: %s (%d action%s%s), good (Presidio Section 3, Reform)", u->name,
			 was_good ? "changes formation" : PRESIDIO_OF(u)->line ? "re-formed in line" : "re-formed in its formation",
			 cost, cost == 1 ? "" : "s",
			 PRESIDIO_OF(u)->drummer ? ", its drummer's" : "");
	return FRAY_OK;
}

/* disengage UNIT [--retreat]: a unit in base contact leaves its melee by
 * a fall back (1 action) or a retreat (2 actions), "the rules for
 * 'retreat' and 'fall back' in the morale section must be used" (Section
 * 5, Disengaging from Melee): it is fell back or retreated, out of
 * contact, and the enemy it left may pursue it (no charge bonus unless
 * the pursuers have 2 actions left). No dice. */
static int act_disengage(table_game *g, table_unit *u, table_unit *t, const player_opts *p)
{
	(void)t;
	bool retreat = frayi_player_flag(p, "--retreat");
	if (PRESIDIO_OF(u)->figures <= 0 || !fighting(u))
		return frayi_game_fail(g, FRAY_ERR_INPUT, "%s cannot disengage: it is out of the fight", unit_label(u));
	fray_presidio_turn turn = turn_of(u);
	const char *why = g->odds ? NULL
				  : fray_presidio_disengage_refused(&turn, standing_of(u), in_any_contact(g, u), retreat);
	if (why)
		return frayi_game_fail(g, FRAY_ERR_INPUT, "%s cannot disengage: %s: %s", unit_label(u),
				       standing_words(u), why);
	spend(u, FRAY_PRESIDIO_DO_DISENGAGE, 1);
	/* set down as the morale section's fall back or retreat places a
	 * unit: a line unit's fall back disordered (ruling R49), a flinched
	 * unit still flinched (ruling R50); the note cites what was applied */
	fray_presidio_standing was = standing_of(u);
	set_standing(u, frayi_presidio_moved_back(was, retreat, PRESIDIO_OF(u)->line));
	frayi_table_note(g, "%s: disengages by a %s (%s), %s (Presidio Section 5, Disengaging from Melee%s)", u->name,
			 retreat ? "retreat" : "fall back", retreat ? "2 actions" : "1 action",
			 frayi_unit_status_names[u->status],
			 retreat ? ""
			 : was == FRAY_PRESIDIO_FLINCHED ? "; it keeps its flinch and the action the flinch took, ruling R50"
			 : PRESIDIO_OF(u)->line ? "; in line: \"Units in Line - become disordered on a fall back result\", "
						  "Section 7, Fall Back; ruling R49"
						: "");
	leave_contact(g, u, true);
	return FRAY_OK;
}

/* An action of a unit in the turn's order: asked before it runs
 * (in_order), the sequence handed over after it when it spent the
 * acting side's last action (hand_over). */
static int sequenced(table_game *g, table_unit *u, table_unit *t, const player_opts *p, const char *name,
		     int (*run)(table_game *, table_unit *, table_unit *, const player_opts *))
{
	const char *mode = !strcmp(name, "shoot") ? frayi_player_value(p, "--mode") : NULL;
	/* a rally: only a panicked unit rallies, said before the phase (the
	 * referee's sixth round, finding 6: both are true reasons) */
	int st = !strcmp(name, "rally") ? may(g, u, FRAY_PRESIDIO_ACT_RALLY, "rally") : FRAY_OK;
	if (st == FRAY_OK)
		st = in_order(g, u, order_action(name, mode), name);
	if (st == FRAY_OK)
		st = run(g, u, t, p);
	if (st == FRAY_OK)
		hand_over(g);
	return st;
}

#define SEQUENCED(name)                                                                                   \
	static int seq_##name(table_game *g, table_unit *u, table_unit *t, const player_opts *p)         \
	{                                                                                                 \
		return sequenced(g, u, t, p, #name, act_##name);                                          \
	}
SEQUENCED(shoot)
SEQUENCED(melee)
SEQUENCED(charge)
SEQUENCED(pursue)
SEQUENCED(rally)
SEQUENCED(reload)
SEQUENCED(move)
SEQUENCED(reform)
SEQUENCED(disengage)

static const in_desc own_skirmish = {
	.name = "skirmish", .type = IN_BOOL,
	.help = "out of disorder into skirmish formation, at no cost, instead of re-forming (not a line unit)",
	.rule = "Presidio Section 2, Rally; Section 3, Skirmish"};
static const action_desc reform_desc = {
	.procs = {NULL}, .opts = {{NULL, NULL, &own_skirmish, false, false}}, .option_default = NULL};

static const in_desc own_retreat = {
	.name = "retreat", .type = IN_BOOL,
	.help = "disengage by a retreat (2 actions) instead of a fall back (1 action)",
	.rule = "Presidio Section 5, Disengaging from Melee"};
static const action_desc disengage_desc = {
	.procs = {NULL}, .opts = {{NULL, NULL, &own_retreat, false, false}}, .option_default = NULL};

static const table_action presidio_actions[] = {
	{"shoot", true, "fire, then the target's morale", seq_shoot, targetable, &frayi_desc_presidio_shoot},
	{"melee", true, "a melee of units in base contact, then morale", seq_melee, meleeable, &frayi_desc_presidio_melee},
	{"charge", true, "fear of charge, reaction, impact, morale", seq_charge, targetable,
	 &frayi_desc_presidio_charge},
	{"pursue", true, "contact with a unit that fell back, retreated or panicked: surrender or melee as charging",
	 seq_pursue, pursuable, &frayi_desc_presidio_pursue},
	{"morale", false, "a morale check (friends falling back, ...)", act_morale, NULL, &frayi_desc_presidio_morale},
	{"rally", false, "a panicked unit rallies (on its officer's level; an NCO's does not count)", seq_rally, NULL,
	 &frayi_desc_presidio_rally},
	{"reload", false, "reloading actions after firing", seq_reload, NULL, &frayi_desc_presidio_reload},
	{"move", false, "a walk (one action) or a run (two), --into TARGET into base contact (struck first); the "
	 "distance is the players'", seq_move, NULL,
	 &frayi_desc_presidio_move},
	{"reform", false, "a disordered unit re-forms, or one in good order changes formation: two actions (one with a "
	 "drummer; none while riding for free riders), good order; --skirmish: not a line unit, into skirmish at no cost",
	 seq_reform, NULL, &reform_desc},
	{"disengage", false, "a unit in base contact leaves its melee by a fall back (one action) or --retreat (two); "
	 "the enemy left may pursue", seq_disengage, NULL, &disengage_desc},
};

const table_action *frayi_table_presidio_actions(size_t *n)
{
	*n = sizeof presidio_actions / sizeof *presidio_actions;
	return presidio_actions;
}
