/* A Presidio unit's turn: its two actions, what each costs and what it
 * rules out (Section 2, Action Sequences; Section 4, Aim and Shoot,
 * Independent Fire, Opportunity Fire, Fire while Moving; Section 5,
 * Charging, Charge Reaction, Melee; Section 7, Fall Back, Retreat,
 * Panic; ruling R47). The game keeps what a unit took this turn and asks
 * here before it applies another action. */
#include <stdio.h>
#include <string.h>
#include "../../core/internal.h"
#include <fray/presidio.h>

FRAY_API const char *const fray_presidio_action_names[FRAY_PRESIDIO_NACTIONS] = {
	"shoot", "two-action-fire", "aim-and-shoot", "opportunity-fire", "moving-fire", "charge", "strike",
	"strike-back", "defensive-fire", "fire-and-flee", "flee", "fire-and-melee", "walk", "run", "reload",
	"pursue", "rally", "evade", "take-cover", "ride", "gallop", "panic", "reform", "disengage",
	"ride-reform"};

/* R47, from Section 2's list and Sections 4 and 5: "Walk ... one action
 * point", "Running takes up two points", "Shoot - shooting takes one
 * action point" (twice standing: two), "Strike - one action", "Aim and
 * Shoot - takes up two actions", reloading an action at a time, the
 * charge reactions' own counts (Stand 0, Defensive Fire 1, Fire and Flee
 * 2, Flee "1 or 2": 1, a saved action to return melee 1), the pursuers'
 * "walking movement roll (1 action)", "must have two actions available to
 * charge". Fire while moving is done in the walk or run that pays for it;
 * a rally is the turn's first phase, no action (Section 2, Game Turn
 * Phases). Section 4, Special Cover: "Evasion costs one action point",
 * "Taking cover costs two action points" (with "two actions left").
 * Section 2, Riding: riders with "two free actions whether riding once or
 * twice in a turn" ride (trot or gallop) for none. A panic during the
 * turn's action sequences is no action, only kept (no rally after it).
 * Section 3, Reform: "(2 actions)", one with a drummer: each "reform"
 * kept is one action (fray_presidio_reform_cost of them). Section 5,
 * Disengaging from Melee: "'fall back' (1 action)": a disengagement is
 * one action (a retreat's second is its forfeit, Section 7, Retreat;
 * ruling R49). */
FRAY_API int fray_presidio_action_cost(fray_presidio_action a)
{
	static const int cost[FRAY_PRESIDIO_NACTIONS] = {
		[FRAY_PRESIDIO_DO_SHOOT] = 1,	       [FRAY_PRESIDIO_DO_TWO_ACTION_FIRE] = 2,
		[FRAY_PRESIDIO_DO_AIMED] = 2,	       [FRAY_PRESIDIO_DO_OPPORTUNITY] = 1,
		[FRAY_PRESIDIO_DO_MOVING_FIRE] = 0,    [FRAY_PRESIDIO_DO_CHARGE] = 2,
		[FRAY_PRESIDIO_DO_STRIKE] = 1,	       [FRAY_PRESIDIO_DO_STRIKE_BACK] = 1,
		[FRAY_PRESIDIO_DO_DEFENSIVE_FIRE] = 1, [FRAY_PRESIDIO_DO_FIRE_AND_FLEE] = 2,
		[FRAY_PRESIDIO_DO_FLEE] = 1,	       [FRAY_PRESIDIO_DO_FIRE_AND_MELEE] = 2,
		[FRAY_PRESIDIO_DO_WALK] = 1,	       [FRAY_PRESIDIO_DO_RUN] = 2,
		[FRAY_PRESIDIO_DO_RELOAD] = 1,	       [FRAY_PRESIDIO_DO_PURSUE] = 1,
		[FRAY_PRESIDIO_DO_RALLY] = 0,	       [FRAY_PRESIDIO_DO_EVADE] = 1,
		[FRAY_PRESIDIO_DO_TAKE_COVER] = 2,     [FRAY_PRESIDIO_DO_RIDE] = 0,
		[FRAY_PRESIDIO_DO_GALLOP] = 0,	       [FRAY_PRESIDIO_DO_PANIC] = 0,
		[FRAY_PRESIDIO_DO_REFORM] = 1,	       [FRAY_PRESIDIO_DO_DISENGAGE] = 1,
		[FRAY_PRESIDIO_DO_RIDE_REFORM] = 0};
	return (unsigned)a < FRAY_PRESIDIO_NACTIONS ? cost[a] : 0;
}

static int count(const fray_presidio_turn *t, fray_presidio_action a)
{
	int k = 0;
	for (int i = 0; i < t->n; i++)
		k += t->taken[i] == a;
	return k;
}

static int spent(const fray_presidio_turn *t)
{
	int k = 0;
	for (int i = 0; i < t->n; i++)
		k += fray_presidio_action_cost(t->taken[i]);
	return k;
}

/* The movements a rider made this turn, as Section 2, Riding counts
 * them ("Movement once on horseback is a trot, two movements is a
 * gallop"): a ride one, a gallop two, a charge two ("charging units
 * move at running/galloping speed", Section 3), a pursuit one (Section 5,
 * Pursuit: "a walking movement roll (1 action)"; the referee's sixth
 * round, finding 2). A flight from a charge is not counted: it is the
 * charged unit's reaction inside the enemy's action (Section 5, Charge
 * Reaction), not a ride of its own (docs/presidio.md). */
static int rides(const fray_presidio_turn *t)
{
	return count(t, FRAY_PRESIDIO_DO_RIDE) + 2 * count(t, FRAY_PRESIDIO_DO_GALLOP) +
	       2 * count(t, FRAY_PRESIDIO_DO_CHARGE) + count(t, FRAY_PRESIDIO_DO_PURSUE);
}

/* The actions a morale result takes from the turn (Section 7): a flinch
 * "-1 action", a hunker "-2 actions", a fall back leaves "one remaining
 * action"; a unit that retreats or panics "forfeit[s] any further
 * actions in the current game turn"; one out of the fight has none. */
static int lost_to(fray_presidio_standing s)
{
	switch (s) {
	case FRAY_PRESIDIO_FLINCHED:
	case FRAY_PRESIDIO_FELL_BACK:
		return 1;
	case FRAY_PRESIDIO_GOOD:
	case FRAY_PRESIDIO_DISORDERED:
		return 0;
	default:
		return FRAY_PRESIDIO_TURN_ACTIONS;
	}
}

FRAY_API int fray_presidio_actions_left(const fray_presidio_turn *t, fray_presidio_standing s)
{
	/* opportunity fire: "the firing unit may not take any further
	 * actions in the current game turn" */
	if (count(t, FRAY_PRESIDIO_DO_OPPORTUNITY))
		return 0;
	int left = FRAY_PRESIDIO_TURN_ACTIONS - spent(t) - lost_to(s);
	return left > 0 ? left : 0;
}

/* Why a unit has no action left because of its standing, or NULL. */
static const char *standing_why(fray_presidio_standing s)
{
	switch (s) {
	case FRAY_PRESIDIO_FLINCHED:
		return "it flinched: -1 action (Presidio Section 7, Morale Roll Resolution)";
	case FRAY_PRESIDIO_FELL_BACK:
		return "it fell back: a unit that falls back \"may still take one remaining action\" (Presidio Section "
		       "7, Fall Back)";
	case FRAY_PRESIDIO_HUNKERED:
		return "it hunkered down: -2 actions (Presidio Section 7, Morale Roll Resolution)";
	case FRAY_PRESIDIO_RETREATED:
		return "a unit that retreats forfeits any further actions in the current game turn (Presidio Section "
		       "7, Retreat)";
	case FRAY_PRESIDIO_PANICKED:
		return "a unit that panics forfeits any further actions in the current game turn (Presidio Section "
		       "7, Panic)";
	case FRAY_PRESIDIO_SURRENDERED:
	case FRAY_PRESIDIO_DESTROYED:
		return "it is out of the fight";
	default:
		return NULL;
	}
}

FRAY_API const char *fray_presidio_action_refused(const fray_presidio_turn *t, fray_presidio_standing s,
						  fray_presidio_action a)
{
	if ((unsigned)a >= FRAY_PRESIDIO_NACTIONS)
		return "not an action of Presidio's";
	if (t->n >= FRAY_PRESIDIO_TURN_MAX)
		return "the unit has taken all it can this turn (Presidio Section 2, Action Sequences)";
	if (a == FRAY_PRESIDIO_DO_RALLY) {
		/* a unit that panicked in this turn's action sequences has
		 * missed this turn's rally phase (Game Turn Phases: "1. Rally
		 * panicked troops" ... "3. Action Sequences") */
		if (count(t, FRAY_PRESIDIO_DO_PANIC))
			return "it panicked during this turn's action sequences, after the rally phase (Presidio Section "
			       "2, Game Turn Phases: 1. Rally panicked troops, 3. Action Sequences): it rallies in the "
			       "next turn's";
		/* the rally phase comes before "3. Action Sequences"; a failed
		 * rally "performs no other actions in the current game turn" */
		if (count(t, FRAY_PRESIDIO_DO_RALLY))
			return "one rally attempt a turn, in the turn's rally phase (Presidio Section 2, Game Turn "
			       "Phases and Rally)";
		if (t->n)
			return "the rally phase comes before the action sequences (Presidio Section 2, Game Turn "
			       "Phases): a unit that acted this turn rallies in the next turn's";
		return NULL;
	}
	if (count(t, FRAY_PRESIDIO_DO_OPPORTUNITY))
		return "after opportunity fire \"the firing unit may not take any further actions in the current "
		       "game turn\" (Presidio Section 4, Opportunity Fire)";
	int left = fray_presidio_actions_left(t, s);
	const char *why = standing_why(s);
	if (left == 0 && why && lost_to(s) == FRAY_PRESIDIO_TURN_ACTIONS)
		return why;
	switch (a) {
	case FRAY_PRESIDIO_DO_OPPORTUNITY:
		if (t->n > count(t, FRAY_PRESIDIO_DO_RALLY) || left < FRAY_PRESIDIO_TURN_ACTIONS)
			return "opportunity fire is for a unit \"that has not taken any actions yet (they must have 2 "
			       "actions left)\" (Presidio Section 4, Opportunity Fire)";
		return NULL;
	case FRAY_PRESIDIO_DO_CHARGE:
		if (left < FRAY_PRESIDIO_TURN_ACTIONS)
			return "\"The charging unit must have two actions available to charge\" (Presidio Section 5, "
			       "Charging)";
		/* the referee's second round, finding 2: "charging units move at
		 * running/galloping speed" (Section 3, Charging), "two movements
		 * is a gallop" (Section 2, Riding): a charge is two of the
		 * riders' "once or twice in a turn" */
		if (rides(t) > 0)
			return "riders ride \"once or twice in a turn\" (Presidio Section 2, Riding) and a charge moves "
			       "at galloping speed (Section 3, Charging: \"two movements is a gallop\", Section 2): the "
			       "unit has ridden this turn, so a charge would be a third movement";
		return NULL;
	case FRAY_PRESIDIO_DO_MOVING_FIRE:
		/* "Units may fire while running (2 actions)" ... "may fire once
		 * (one action)", "If walking, the same restrictions apply" */
		if (count(t, FRAY_PRESIDIO_DO_WALK) + count(t, FRAY_PRESIDIO_DO_RUN) + count(t, FRAY_PRESIDIO_DO_RIDE) +
			    count(t, FRAY_PRESIDIO_DO_GALLOP) <=
		    count(t, a))
			return "fire while moving is fired once in a walk, run or ride this turn (Presidio Section 4, Fire "
			       "while Moving): the unit has no move this turn that has not fired";
		return NULL;
	case FRAY_PRESIDIO_DO_PURSUE:
		/* a rider's pursuit is a movement of its "once or twice in a
		 * turn" (Section 5, Pursuit: "a walking movement roll"): none
		 * after two rides (only riders ride: a unit on foot has no
		 * free movement to count) */
		if (count(t, FRAY_PRESIDIO_DO_RIDE) + count(t, FRAY_PRESIDIO_DO_GALLOP) && rides(t) + 1 > 2)
			return "riders ride \"once or twice in a turn\" (Presidio Section 2, Riding) and a pursuit is "
			       "\"a walking movement roll\" (Section 5, Pursuit): the unit has ridden twice this turn";
		break;
	case FRAY_PRESIDIO_DO_RIDE:
	case FRAY_PRESIDIO_DO_GALLOP:
		/* "whether riding once or twice in a turn": at most twice, a
		 * charge (a gallop) counting two, a pursuit one */
		if (rides(t) + (a == FRAY_PRESIDIO_DO_GALLOP ? 2 : 1) > 2)
			return count(t, FRAY_PRESIDIO_DO_CHARGE)
				       ? "riders ride \"once or twice in a turn\" (Presidio Section 2, Riding) and the "
					 "unit's charge this turn moved at galloping speed, twice (Section 3, Charging; "
					 "\"two movements is a gallop\", Section 2): no ride after it"
				       : count(t, FRAY_PRESIDIO_DO_PURSUE)
				       ? "riders ride \"once or twice in a turn\" (Presidio Section 2, Riding) and the "
					 "unit's pursuit this turn was a movement (Section 5, Pursuit: \"a walking movement "
					 "roll\"): the unit has moved that much this turn"
				       : "riders ride \"once or twice in a turn\" (Presidio Section 2, Riding): the unit has "
					 "ridden that much this turn";
		/* a ride costs nothing, but only a unit that acts rides */
		if (left == 0 && why)
			return why;
		return NULL;
	default:
		break;
	}
	int cost = fray_presidio_action_cost(a);
	if (cost <= left)
		return NULL;
	if (left == 0 && why)
		return why;
	switch (a) {
	case FRAY_PRESIDIO_DO_AIMED:
		return "\"Aim and Shoot - takes up two actions\" (Presidio Section 2, Action Sequences): the unit has "
		       "fewer left this turn";
	case FRAY_PRESIDIO_DO_TWO_ACTION_FIRE:
		return "two actions of fire take two actions (\"units who are not moving, may shoot twice in an "
		       "action sequence, if possible, using up two actions\", Presidio Section 2): the unit has fewer "
		       "left this turn";
	case FRAY_PRESIDIO_DO_RUN:
		return "\"Running takes up two points\" (Presidio Section 2, Action Sequences): the unit has fewer "
		       "left this turn";
	default:
		return left == 0 ? "\"Each unit receives a choice of two actions\" a turn (Presidio Section 2, Action "
				   "Sequences): it has none left this turn"
				 : "it takes two actions and the unit has one left this turn (Presidio Section 2, "
				   "Action Sequences)";
	}
}

/* Whether a is a move of the unit's own (a walk, a run, a ride, a
 * charge, a pursuit, a flight from a charge). */
static bool is_move(fray_presidio_action a)
{
	switch (a) {
	case FRAY_PRESIDIO_DO_WALK:
	case FRAY_PRESIDIO_DO_RUN:
	case FRAY_PRESIDIO_DO_RIDE:
	case FRAY_PRESIDIO_DO_GALLOP:
	case FRAY_PRESIDIO_DO_CHARGE:
	case FRAY_PRESIDIO_DO_PURSUE:
	case FRAY_PRESIDIO_DO_FLEE:
	case FRAY_PRESIDIO_DO_FIRE_AND_FLEE:
		return true;
	default:
		return false;
	}
}

FRAY_API const char *fray_presidio_kind_refused(const fray_presidio_unit_kind *k, fray_presidio_standing s,
						fray_presidio_action a)
{
	/* Section 2: "Aim and Shoot - takes up two actions, and can be used
	 * by sharpshooters and characters only" */
	if (a == FRAY_PRESIDIO_DO_AIMED && !k->sharpshooters)
		return "\"Aim and Shoot ... can be used by sharpshooters and characters only\" (Presidio Section 2, "
		       "Action Sequences)";
	/* Section 3, Disorder: "Line units must reform before moving or
	 * volleying"; a unit that retreated is "in disorder" (ruling R44) */
	if (k->line && is_move(a) && (s == FRAY_PRESIDIO_DISORDERED || s == FRAY_PRESIDIO_RETREATED))
		return "\"Line units must reform before moving or volleying\" (Presidio Section 3, Disorder): a "
		       "disordered line unit does not move until it re-forms (Section 3, Reform)";
	/* a line unit that fell back is set down disordered (Section 7, Fall
	 * Back: "Units in Line - become disordered"; ruling R49): its one
	 * remaining action is not a move */
	if (k->line && is_move(a) && s == FRAY_PRESIDIO_FELL_BACK)
		return "\"Units in Line - become disordered on a fall back result\" (Presidio Section 7, Fall Back; "
		       "ruling R49) and \"Line units must reform before moving\" (Section 3, Disorder): a line unit "
		       "that fell back does not move again this turn";
	return NULL;
}

FRAY_API const char *fray_presidio_order_refused(const fray_presidio_order *o, fray_presidio_action a)
{
	if (!o->kept)
		return NULL;
	/* Game Turn Phases: "1. Rally panicked troops", "2. Initiative", "3.
	 * Action Sequences": either side rallies before the sequences begin */
	if (a == FRAY_PRESIDIO_DO_RALLY)
		return o->rally_phase || o->before_initiative ? NULL
				      : "the rally phase is the turn's first and the initiative ended it (Presidio Section "
					"2, Game Turn Phases: 1. Rally panicked troops, 2. Initiative, 3. Action Sequences; "
					"in a file of an older fray, a unit's action ended it): a panicked unit rallies in "
					"the next turn's";
	/* the rally phase lasts until the initiative is rolled, by either
	 * side ("1. Rally panicked troops", "2. Initiative", "3. Action
	 * Sequences"): no action of a sequence before it */
	if (o->before_initiative)
		return "the turn's rally phase: the action sequences come after the initiative (Presidio Section 2, "
		       "Game Turn Phases: 1. Rally panicked troops, 2. Initiative, 3. Action Sequences): panicked units "
		       "of either side may rally first, then 'initiative' ends the rally phase";
	if (o->acting)
		return NULL;
	switch (a) {
	case FRAY_PRESIDIO_DO_OPPORTUNITY:
		/* "the enemy unit may perform opportunity fire, even though their
		 * initiative number is lower" (its own terms: two actions left,
		 * none after: fray_presidio_action_refused) */
		return NULL;
	default:
		break;
	}
	/* the unit's side won the initiative and the other side acts now:
	 * the winners' sequence came first, so what its units did not spend
	 * they hold ("Units that won initiative may hold their actions for
	 * later; they can take their full action sequence at any time during
	 * the current game turn", Holding 2 Actions; Holding 1 Action) */
	if (o->won)
		return NULL;
	return "\"players roll 1D6 adding their leadership skill to see who goes first, and then they alternate "
	       "turns, performing actions for all their units at once (one player, then the other)\" (Presidio "
	       "Section 2, Initiative): it is the other side's action sequence, and only units that won the "
	       "initiative hold actions for later (Section 2, Holding 2 Actions); in the enemy's sequence a unit "
	       "may fire opportunity fire (Section 4) and reacts inside the enemy's action (a charge's reaction, "
	       "the strike back)";
}

FRAY_API int fray_presidio_reform_cost(bool drummer)
{
	return drummer ? 1 : 2;
}

FRAY_API bool fray_presidio_riding_reform_free(const fray_presidio_unit_kind *k, const fray_presidio_turn *t)
{
	/* "once per action": a change for each ride (a gallop is two) */
	return k->mounted && k->free_riders &&
	       count(t, FRAY_PRESIDIO_DO_RIDE) + 2 * count(t, FRAY_PRESIDIO_DO_GALLOP) >
		       count(t, FRAY_PRESIDIO_DO_RIDE_REFORM);
}

FRAY_API const char *fray_presidio_reform_refused(const fray_presidio_unit_kind *k, fray_presidio_standing s)
{
	(void)k;
	/* Section 3, Reform: "Used to change a unit's formation ... (2
	 * actions)": a unit in good order changes formation (a line that
	 * went into skirmish "must reform as soon as possible", Section 3,
	 * Line; the referee's sixth round, finding 4); "This includes units
	 * who change from skirmish or disorder to line formation" */
	if (s != FRAY_PRESIDIO_GOOD && s != FRAY_PRESIDIO_DISORDERED && s != FRAY_PRESIDIO_RETREATED)
		return "reforming is for a unit in good order changing its formation or one in disorder (Presidio "
		       "Section 3, Reform: \"Used to change a unit's formation\", \"This includes units who change "
		       "from skirmish or disorder to line formation\"): this one is neither";
	/* a line unit into line, any other into its formation: "Keep one
	 * figure in place and arrange the other figures in relation to it in
	 * the desired formation (2 actions)"; Section 2, Rally: "They can
	 * reform or move into skirmish" */
	return NULL;
}

FRAY_API int fray_presidio_skirmish_cost(void)
{
	return 0;
}

FRAY_API const char *fray_presidio_skirmish_refused(const fray_presidio_unit_kind *k, fray_presidio_standing s)
{
	if (s == FRAY_PRESIDIO_RETREATED)
		return "a unit that retreats forfeits any further actions in the current game turn (Presidio Section 7, "
		       "Retreat): it leaves its disorder in the next turn";
	if (s != FRAY_PRESIDIO_DISORDERED)
		return "moving into skirmish out of disorder is for a disordered unit (Presidio Section 2, Rally: "
		       "\"They can reform or move into skirmish\"): this one is not in disorder";
	if (k->line)
		return "a line unit \"must reform\" out of disorder (Presidio Section 3, Disorder: \"Line units must "
		       "reform before moving or volleying\"; Line: \"Only Line, Grenadier, or Light units may (and "
		       "must) fight in line formation\"): 'reform UNIT' without --skirmish";
	return NULL;
}

FRAY_API fray_presidio_action fray_presidio_move_action(const fray_presidio_unit_kind *k, bool run)
{
	/* Section 2, Riding: "two free actions whether riding once or twice" */
	if (k->mounted && k->free_riders)
		return run ? FRAY_PRESIDIO_DO_GALLOP : FRAY_PRESIDIO_DO_RIDE;
	return run ? FRAY_PRESIDIO_DO_RUN : FRAY_PRESIDIO_DO_WALK;
}

FRAY_API bool fray_presidio_turn_take(fray_presidio_turn *t, fray_presidio_action a)
{
	if (t->n >= FRAY_PRESIDIO_TURN_MAX || (unsigned)a >= FRAY_PRESIDIO_NACTIONS)
		return false;
	t->taken[t->n++] = a;
	return true;
}

FRAY_API bool fray_presidio_turn_text(const fray_presidio_turn *t, char *dst, size_t cap)
{
	if (!cap)
		return false;
	size_t len = 0;
	dst[0] = '\0';
	for (int i = 0; i < t->n; i++) {
		int k = snprintf(dst + len, cap - len, "%s%s", i ? ", " : "", fray_presidio_action_names[t->taken[i]]);
		if (k < 0 || (size_t)k >= cap - len) {
			/* a cut text would read back as another turn, or none */
			dst[0] = '\0';
			return false;
		}
		len += (size_t)k;
	}
	return true;
}

FRAY_API bool fray_presidio_turn_read(const char *text, fray_presidio_turn *t)
{
	*t = (fray_presidio_turn){0};
	const char *p = text;
	while (*p == ' ')
		p++;
	while (*p) {
		size_t n = strcspn(p, ", ");
		int found = -1;
		for (int k = 0; k < FRAY_PRESIDIO_NACTIONS; k++)
			if (strlen(fray_presidio_action_names[k]) == n && !strncmp(p, fray_presidio_action_names[k], n))
				found = k;
		if (found < 0 || !fray_presidio_turn_take(t, (fray_presidio_action)found))
			return false;
		p += n;
		while (*p == ' ')
			p++;
		if (*p == ',') {
			p++;
			while (*p == ' ')
				p++;
			if (!*p)
				return false;
		}
	}
	return true;
}

FRAY_API const char *fray_presidio_opportunity_refused(const fray_presidio_turn *target)
{
	/* Section 4, Opportunity Fire: "If a unit is moving in view of an
	 * enemy unit ... firing once (one action) at the moving unit": the
	 * game's turns are in order, so the target's move is one it has made
	 * this turn (the players say it is in view by giving the shot) */
	static const fray_presidio_action moves[] = {
		FRAY_PRESIDIO_DO_WALK,	 FRAY_PRESIDIO_DO_RUN,	  FRAY_PRESIDIO_DO_RIDE,	  FRAY_PRESIDIO_DO_GALLOP,
		FRAY_PRESIDIO_DO_CHARGE, FRAY_PRESIDIO_DO_PURSUE, FRAY_PRESIDIO_DO_MOVING_FIRE, FRAY_PRESIDIO_DO_FLEE,
		FRAY_PRESIDIO_DO_FIRE_AND_FLEE};
	for (size_t i = 0; i < sizeof moves / sizeof *moves; i++)
		if (count(target, moves[i]))
			return NULL;
	return "opportunity fire is at a unit moving in view (Presidio Section 4, Opportunity Fire: \"firing once "
	       "(one action) at the moving unit\"): the target has not moved this turn";
}
