/* The enumerating roller: runs a procedure once per path of outcomes,
 * depth first, replaying the recorded prefix and extending it with branch 0,
 * then backtracking to the deepest step with a branch left. Paths ending in
 * the same outcome are merged; paths cut at the depth limit are summed as
 * unresolved mass (DESIGN.md, "One rules function, three modes"). */
#include <stdio.h>
#include <string.h>
#include "dist_internal.h"
#include "roller_internal.h"

bool fray_enum_step(fray_roller *r, uint32_t nbranches, uint32_t *choice,
		    bool *need_prob)
{
	enum_state *en = r->en;
	unsigned d = en->depth;
	if (d == en->max_depth) {
		r->truncated = true;
		return false;
	}
	if (d < en->len) {
		if (en->path[d].nbranches != nbranches) {
			fray_roller_fail(r, FRAY_ERR_INTERNAL,
					 "procedure is not a pure function of its roller "
					 "(a replayed event changed)");
			return false;
		}
	} else {
		en->path[d].choice = 0;
		en->path[d].nbranches = nbranches;
		en->len = d + 1;
	}
	*choice = en->path[d].choice;
	*need_prob = d + 1 >= en->valid;
	en->depth = d + 1;
	return true;
}

void fray_enum_commit(fray_roller *r)
{
	enum_state *en = r->en;
	unsigned d = en->depth; /* the step just taken was d - 1 */
	mpq_set_num(en->branch, en->num);
	mpq_set_den(en->branch, en->den);
	mpq_canonicalize(en->branch);
	mpq_mul(en->prob[d], en->prob[d - 1], en->branch);
	en->valid = d + 1;
}

/* Moves to the next path: the deepest step with an untried branch takes
 * it, deeper steps are forgotten. False when every path has been run. */
static bool next_path(enum_state *en)
{
	while (en->len > 0) {
		enum_step *top = &en->path[en->len - 1];
		if (top->choice + 1 < top->nbranches) {
			top->choice++;
			/* prob[len] depended on the old choice */
			if (en->valid > en->len)
				en->valid = en->len;
			return true;
		}
		en->len--;
	}
	return false;
}

static enum_state *enum_state_new(fray_ctx *ctx, unsigned max_depth)
{
	enum_state *en = fray_calloc(ctx, 1, sizeof *en);
	if (!en)
		return NULL;
	en->path = fray_calloc(ctx, max_depth + 1, sizeof *en->path);
	en->prob = fray_calloc(ctx, max_depth + 1, sizeof *en->prob);
	if (!en->path || !en->prob) {
		fray_dealloc(ctx, en->path);
		fray_dealloc(ctx, en->prob);
		fray_dealloc(ctx, en);
		return NULL;
	}
	for (unsigned i = 0; i <= max_depth; i++)
		mpq_init(en->prob[i]);
	mpq_set_ui(en->prob[0], 1, 1);
	en->valid = 1;
	en->max_depth = max_depth;
	mpz_inits(en->num, en->den, NULL);
	mpq_init(en->branch);
	return en;
}

static void enum_state_free(fray_ctx *ctx, enum_state *en)
{
	if (!en)
		return;
	for (unsigned i = 0; i <= en->max_depth; i++)
		mpq_clear(en->prob[i]);
	mpz_clears(en->num, en->den, NULL);
	mpq_clear(en->branch);
	fray_dealloc(ctx, en->path);
	fray_dealloc(ctx, en->prob);
	fray_dealloc(ctx, en);
}

/* The memory budget: the tally's outcomes and every GMP number alive
 * (the exact probabilities are most of it). Checked every 64 paths, well
 * before the machine runs out; and a malloc that failed under GMP (the
 * reserve was given up) ends the work here, never in an abort. */
static fray_status check_memory(fray_ctx *ctx, const fray_tally *t, uint64_t max_bytes)
{
	if (fray_gmp_failed())
		return fray_fail(ctx, FRAY_ERR_NOMEM, "out of memory while enumerating; "
				 "simulate instead (--trials N)");
	uint64_t used = (uint64_t)fray_gmp_live_bytes() +
			(uint64_t)t->cap * (t->nfields * sizeof(int64_t) + sizeof(mpq_t)) +
			(uint64_t)t->nslots * sizeof(size_t);
	if (used > max_bytes)
		return fray_fail(ctx, FRAY_ERR_BUDGET, "exact odds need more than %llu MiB of memory "
				 "(the budget, --max-memory): simulate instead (--trials N)",
				 (unsigned long long)(max_bytes >> 20));
	return FRAY_OK;
}

FRAY_API fray_status fray_enumerate(fray_ctx *ctx, fray_procedure proc,
				    fray_policy *p, const void *input,
				    size_t nfields, const fray_enum_limits *lim,
				    fray_dist **out)
{
	if (!ctx)
		return FRAY_ERR_INPUT;
	fray_ctx_clear(ctx); /* each call's message is its own */
	if (!out || !proc)
		return fray_fail(ctx, FRAY_ERR_INPUT, "fray_enumerate: NULL argument");
	*out = NULL;
	if (nfields < 1 || nfields > FRAY_OUTCOME_MAX_FIELDS)
		return fray_fail(ctx, FRAY_ERR_INTERNAL,
				 "an outcome has 1 to %d fields, not %zu",
				 FRAY_OUTCOME_MAX_FIELDS, nfields);
	if (p && !fray_policy_deterministic(p))
		return fray_fail(ctx, FRAY_ERR_INPUT,
				 "exact odds need a deterministic policy; '%s' is not",
				 fray_policy_name(p));
	unsigned max_depth = lim && lim->max_depth ? lim->max_depth
						   : FRAY_ENUM_DEFAULT_DEPTH;
	uint64_t max_paths = lim && lim->max_paths ? lim->max_paths
						   : FRAY_ENUM_DEFAULT_PATHS;
	uint64_t max_bytes = lim && lim->max_bytes ? lim->max_bytes
						   : FRAY_ENUM_DEFAULT_BYTES;
	if (!fray_gmp_guard())
		return fray_nomem(ctx);

	fray_roller r = {.ctx = ctx, .mode = ROLLER_ENUMERATE};
	r.en = enum_state_new(ctx, max_depth);
	fray_tally tally;
	fray_tally_init(&tally, ctx, nfields, true);
	mpq_t unresolved;
	mpq_init(unresolved);
	fray_status st = FRAY_OK;
	if (!r.en) {
		st = fray_nomem(ctx);
		goto done;
	}

	uint64_t paths = 0;
	do {
		if (++paths > max_paths) {
			st = fray_fail(ctx, FRAY_ERR_LIMIT,
				       "more than %llu outcome paths: too many to "
				       "enumerate exactly; simulate instead",
				       (unsigned long long)max_paths);
			goto done;
		}
		int64_t outcome[FRAY_OUTCOME_MAX_FIELDS] = {0};
		fray_roller_begin_run(&r);
		r.en->depth = 0;
		fray_policy_reset(p);
		proc(&r, p, input, outcome);
		if (r.status != FRAY_OK) {
			st = fray_fail(ctx, r.status, "%s", r.msg);
			goto done;
		}
		/* a pure procedure consumes exactly its recorded path */
		r.en->len = r.en->depth;
		if (r.en->valid > r.en->depth + 1)
			r.en->valid = r.en->depth + 1;
		if ((paths & 63) == 0 && (st = check_memory(ctx, &tally, max_bytes)) != FRAY_OK)
			goto done;
		if (lim && lim->stop && *lim->stop) {
			st = fray_fail(ctx, FRAY_ERR_BUDGET, "stopped after %llu paths",
				       (unsigned long long)paths);
			goto done;
		}
		if (lim && lim->progress && (paths & 0xFFFF) == 0)
			lim->progress(paths, max_paths, lim->ud);
		mpq_srcptr pp = r.en->prob[r.en->depth];
		if (r.truncated) {
			mpq_add(unresolved, unresolved, pp);
		} else {
			size_t e = fray_tally_slot(&tally, outcome);
			if (e == SIZE_MAX) {
				st = fray_nomem(ctx);
				goto done;
			}
			mpq_add(tally.q[e], tally.q[e], pp);
		}
	} while (next_path(r.en));

	if ((st = check_memory(ctx, &tally, max_bytes)) != FRAY_OK)
		goto done;
	st = fray_tally_to_dist(&tally, 0, unresolved, out);
	if (st == FRAY_OK && fray_gmp_failed()) {
		fray_dist_free(*out);
		*out = NULL;
		st = fray_nomem(ctx);
	}
done:
	mpq_clear(unresolved);
	fray_tally_fini(&tally);
	enum_state_free(ctx, r.en);
	return st;
}
