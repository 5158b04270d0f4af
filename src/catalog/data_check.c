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
	fray_presidio_units *u = frayi_calloc(ctx, 1, sizeof *u); /* 64 types: too big for a stack */
	if (!u)
		return frayi_nomem(ctx);
	fray_presidio_units_read(doc, u);
	frayi_dealloc(ctx, u);
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

/* The kinds in the order they are tried and told: a document with the
 * keys of two is the first's (a policy script's 'answers' last). */
static const struct data_kind {
	const char *name;
	const char *keys[2];
	const char *with; /* the keys in words, for messages and help */
	fray_status (*check)(fray_ctx *ctx, fray_doc *doc, fray_doc_open_fn open, void *ud);
} kinds[] = {
	{"adbg scenario", {"sides"}, "'sides'", check_scenario},
	{"adbg melee CRT", {"columns", "rows"}, "'columns' and 'rows'", check_crt},
	{"chit mix", {"chits"}, "'chits'", check_mix},
	{"chit combat", {"mix", "attacker"}, "'mix' and 'attacker'", check_combat},
	{"presidio unit statistics", {"units"}, "'units'", check_units},
	{"policy script", {"answers"}, "'answers'", check_script},
};
#define NKINDS (sizeof kinds / sizeof kinds[0])

FRAY_API const char *fray_data_kind(size_t i, const char **keys)
{
	if (keys)
		*keys = i < NKINDS ? kinds[i].with : NULL;
	return i < NKINDS ? kinds[i].name : NULL;
}

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
		return frayi_fail(ctx, FRAY_ERR_INPUT, "fray_data_check: NULL argument");
	*kind = NULL;
	const fray_node *root = fray_doc_root(doc);
	if (root && fray_node_kind_of(root) == FRAY_NODE_MAP)
		for (size_t i = 0; i < NKINDS; i++)
			if (has_keys(root, &kinds[i])) {
				*kind = kinds[i].name;
				return kinds[i].check(ctx, doc, open, ud);
			}
	char known[512];
	size_t n = 0;
	for (size_t i = 0; i < NKINDS && n < sizeof known; i++)
		n += (size_t)snprintf(known + n, sizeof known - n, "%s%s (with %s)", i ? ", " : "", kinds[i].name,
				      kinds[i].with);
	return frayi_fail(ctx, FRAY_ERR_INPUT, "%s:1:1: expected a fray data file; known kinds: %s", fray_doc_name(doc),
			 known);
}
