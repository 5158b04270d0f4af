/* fray check's decision, in the library: which kind of fray data file a
 * document is (told by its top-level keys) and whether that kind's reader
 * takes it; the kinds are each rule set's, found through the catalogue's
 * registry. The command only opens the files and prints. */
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

/* Each rule set's kinds, in the order they are tried and told (its entry
 * in the catalogue's registry, list.c, names them): a document with the
 * keys of two is the first's. */
const data_kind frayi_adbg_kinds[] = {
	{"adbg scenario", {"sides"}, "'sides'", check_scenario},
	{"adbg melee CRT", {"columns", "rows"}, "'columns' and 'rows'", check_crt},
	{NULL},
};
const data_kind frayi_presidio_kinds[] = {
	{"presidio unit statistics", {"units"}, "'units'", check_units},
	{NULL},
};
const data_kind frayi_chits_kinds[] = {
	{"chit mix", {"chits"}, "'chits'", check_mix},
	{"chit combat", {"mix", "attacker"}, "'mix' and 'attacker'", check_combat},
	{NULL},
};
/* fray's own, after every rule set's: a policy script's 'answers' last */
static const data_kind fray_kinds[] = {
	{"policy script", {"answers"}, "'answers'", check_script},
	{NULL},
};

/* The i-th kind: the rule sets' in the registry's order, then fray's. */
static const data_kind *kind_at(size_t i)
{
	for (size_t k = 0; frayi_catalog_set(k); k++)
		for (const data_kind *d = frayi_catalog_set(k)->kinds; d && d->name; d++)
			if (i-- == 0)
				return d;
	return i < sizeof fray_kinds / sizeof fray_kinds[0] - 1 ? &fray_kinds[i] : NULL;
}

FRAY_API const char *fray_data_kind(size_t i, const char **keys)
{
	const data_kind *k = kind_at(i);
	if (keys)
		*keys = k ? k->with : NULL;
	return k ? k->name : NULL;
}

static bool has_keys(const fray_node *root, const data_kind *k)
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
	const data_kind *k;
	if (root && fray_node_kind_of(root) == FRAY_NODE_MAP)
		for (size_t i = 0; (k = kind_at(i)); i++)
			if (has_keys(root, k)) {
				*kind = k->name;
				return k->check(ctx, doc, open, ud);
			}
	char known[512];
	size_t n = 0;
	for (size_t i = 0; (k = kind_at(i)) && n < sizeof known; i++)
		n += (size_t)snprintf(known + n, sizeof known - n, "%s%s (with %s)", i ? ", " : "", k->name, k->with);
	return frayi_fail(ctx, FRAY_ERR_INPUT, "%s:1:1: expected a fray data file; known kinds: %s", fray_doc_name(doc),
			 known);
}
