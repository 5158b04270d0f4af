/* A chit combat with its questions, for exact odds and the best policy
 * (issue 44): the combat as fray_chits_combat fights it (draws, R22;
 * allocation and retreats, R23, the policy choosing; fatigue and morale),
 * its outcome the hits each side took and its retreats, and what that
 * outcome is worth to a side under each goal (docs/chits.md, "The best
 * policy"). */
#include <string.h>
#include "../../core/internal.h"
#include <fray/chits.h>
#include "chits_internal.h"

/* The chits not scripted are dealt at once, by kind (as the draws'
 * procedure deals them: only how many of each kind come out matters, the
 * combat summing them, R22), each kind's count then scripted as that many
 * of its chits: the combat draws nothing, and the exact walk branches over
 * the splits, not over every chit in order. */
FRAY_API void fray_chits_combat_procedure(fray_roller *r, fray_policy *p, const void *input, int64_t *out)
{
	const fray_chits_combat_in *in = input;
	memset(out, 0, FRAY_CHITS_COMBAT_FIELDS * sizeof *out);
	if (!frayi_chits_draws_fit(r, in))
		return;
	fray_chits_combat_in s = *in;
	s.nscript = in->nscript < in->draw ? in->nscript : in->draw;
	if (s.nscript < s.draw) {
		fray_chits_effect kinds[FRAY_CHITS_MAX_CHITS];
		unsigned count[FRAY_CHITS_MAX_CHITS], drawn[FRAY_CHITS_MAX_CHITS], dealt[FRAY_CHITS_MAX_CHITS] = {0};
		size_t kind_of[FRAY_CHITS_MAX_CHITS];
		size_t nk = frayi_chits_by_kind(in, kinds, count, drawn, kind_of);
		bool taken[FRAY_CHITS_MAX_CHITS] = {false};
		for (int d = 0; d < s.nscript; d++)
			taken[s.script[d]] = true;
		fray_deal(r, count, nk, (unsigned)(s.draw - s.nscript), dealt, "chit");
		for (int i = 0; i < in->mix->nchits && s.nscript < s.draw; i++)
			if (!taken[i] && dealt[kind_of[i]] > 0) {
				dealt[kind_of[i]]--;
				s.script[s.nscript++] = i;
			}
	}
	/* the morale tests come last (R22: "at the very end") and change
	 * nothing the outcome holds: not rolled */
	fray_chits_combat_out o;
	frayi_chits_combat_tests(r, p, &s, &o, false);
	if (fray_roller_stopped(r))
		return;
	/* R23: each retreat negates one hit; the rest fall on battalions */
	int64_t taken[2];
	for (int x = 0; x < 2; x++) {
		taken[x] = o.hits[x] - o.retreats[x];
		out[1 + x] = taken[x];
		out[3 + x] = o.retreats[x];
	}
	out[0] = taken[0] < taken[1] ? 1 : taken[1] < taken[0] ? 2 : 0;
}

FRAY_API void fray_chits_combat_worth(const int64_t *o, int side, fray_goal goal, int64_t *num, int64_t *den)
{
	/* by the hits each side took (o[0], the winner, says the same) */
	int64_t took = o[1 + side], gave = o[2 - side];
	*den = goal == FRAY_GOAL_WIN ? 2 : 1;
	if (goal == FRAY_GOAL_HOLD)
		*num = o[3 + side] == 0; /* its ground kept: no unit of the side retreated */
	else if (goal == FRAY_GOAL_CASUALTIES)
		*num = gave - took;
	else if (goal == FRAY_GOAL_NOT_LOSE)
		*num = took <= gave;
	else /* win: fewer hits taken; a tie is half a win */
		*num = took < gave ? 2 : took == gave;
}
