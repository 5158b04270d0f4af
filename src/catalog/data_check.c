/* fray check's decision, in the library: which kind of fray data file a
 * document is (told by its top-level keys) and whether that kind's reader
 * takes it. The command only opens the files and prints. */
#include <string.h>
#include <fray/adbg.h>
#include <fray/chits.h>
#include <fray/policy.h>
#include <fray/presidio.h>
#include "catalog.h"

/* Each kind's reader: every problem recorded on doc, the first also on ctx. */
static fray_status check_scenario(fray_ctx *ctx, fray_doc *doc, fray_doc_open_fn open, void *ud)
{
	fray_adbg_scenario *s;
	fray_status st = fray_adbg_scenario_read_with(ctx, doc, open, ud, &s);
	fray_adbg_scenario_free(s);
	return st;
}

static fray_status check_crt(fray_ctx *ctx, fray_doc *doc, fray_doc_open_fn open, void *ud)
{
	(void)ctx, (void)open, (void)ud;
	fray_adbg_crt crt;
	fray_adbg_crt_read(doc, fray_doc_root(doc), &crt);
	return fray_doc_status(doc);
}

static fray_status check_mix(fray_ctx *ctx, fray_doc *doc, fray_doc_open_fn open, void *ud)
{
	(void)open, (void)ud;
	fray_chits_mix *m;
	fray_status st = fray_chits_mix_read(ctx, doc, &m);
	fray_chits_mix_free(m);
	return st;
}

static fray_status check_combat(fray_ctx *ctx, fray_doc *doc, fray_doc_open_fn open, void *ud)
{
	fray_chits_mix *m = NULL;
	fray_chits_combat_in in;
	uint64_t seed;
	bool has_seed;
	fray_status st = fray_chits_combat_read_with(ctx, doc, open, ud, &m, &in, &seed, &has_seed);
	fray_chits_mix_free(m);
	return st;
}

static fray_status check_units(fray_ctx *ctx, fray_doc *doc, fray_doc_open_fn open, void *ud)
{
	(void)open, (void)ud;
	fray_presidio_units *u = fray_calloc(ctx, 1, sizeof *u); /* 64 types: too big for a stack */
	if (!u)
		return fray_nomem(ctx);
	fray_presidio_units_read(doc, u);
	fray_dealloc(ctx, u);
	return fray_doc_status(doc);
}

static fray_status check_script(fray_ctx *ctx, fray_doc *doc, fray_doc_open_fn open, void *ud)
{
	(void)open, (void)ud;
	fray_policy *p;
	fray_status st = fray_policy_script_read(ctx, doc, &p);
	fray_policy_free(p);
	return st;
}

/* The kinds in the order they are tried: a document with the keys of two
 * is the first's (a policy script's 'answers' last). */
static const struct data_kind {
	const char *name;
	const char *keys[2];
	fray_status (*check)(fray_ctx *ctx, fray_doc *doc, fray_doc_open_fn open, void *ud);
} kinds[] = {
	{"adbg scenario", {"sides"}, check_scenario},
	{"chit mix", {"chits"}, check_mix},
	{"chit combat", {"mix", "attacker"}, check_combat},
	{"presidio unit statistics", {"units"}, check_units},
	{"adbg melee CRT", {"columns", "rows"}, check_crt},
	{"policy script", {"answers"}, check_script},
};

static bool has_keys(const fray_node *root, const struct data_kind *k)
{
	for (size_t i = 0; i < 2 && k->keys[i]; i++)
		if (!fray_map_get(root, k->keys[i]))
			return false;
	return true;
}

FRAY_API fray_status fray_data_check(fray_ctx *ctx, fray_doc *doc, fray_doc_open_fn open, void *ud, const char **kind)
{
	if (!ctx)
		return FRAY_ERR_INPUT;
	if (!doc || !kind)
		return fray_fail(ctx, FRAY_ERR_INPUT, "fray_data_check: NULL argument");
	*kind = NULL;
	const fray_node *root = fray_doc_root(doc);
	if (root && fray_node_kind_of(root) == FRAY_NODE_MAP)
		for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
			if (has_keys(root, &kinds[i])) {
				*kind = kinds[i].name;
				return kinds[i].check(ctx, doc, open, ud);
			}
	return fray_fail(ctx, FRAY_ERR_INPUT,
			 "%s:1:1: expected a fray data file; known kinds: adbg scenario (with 'sides'), adbg melee CRT "
			 "(with 'columns' and 'rows'), chit mix (with 'chits'), chit combat (with 'mix' and "
			 "'attacker'), presidio unit statistics (with 'units'), policy script (with 'answers')",
			 fray_doc_name(doc));
}
