/* The fifth rule set's two procedures, as a catalogue's bind file would
 * hold them (src/catalog/catalog.h), written here in the test: a volley
 * of d6, one a man, each hitting on 4+; and a morale check, 2d6 against
 * the unit's nerve less its losses, passed when the dice do not exceed
 * it. Rules of the test's own, so the test can count them itself. */
#include <stdbool.h>
#include <stddef.h>
#include "../../../src/catalog/catalog.h"
#include "fifth.h"

typedef struct volley_in {
	int men;
} volley_in;

static const in_desc volley_in_desc[] = {
	{"men", IN_INT, 1, FIFTH_MAX_MEN, .required = true, .help = "the men shooting, a d6 each",
	 .rule = "fifth: volley", IN_FIELD(volley_in, men)},
};
static const out_desc volley_out[] = {{"hits", "integer", "the dice that rolled 4 or more", "hits "}};

static void volley(fray_roller *r, fray_policy *p, const void *in, int64_t *out)
{
	(void)p;
	const volley_in *v = in;
	out[0] = 0;
	for (int i = 0; i < v->men; i++)
		out[0] += fray_die(r, 6, "volley") >= FIFTH_HIT_ON;
}

static fray_status bind_volley(fray_call *c)
{
	frayi_call_title(c, "volley: %d men, hitting on %d+", CALL_INPUT(c, volley_in)->men, FIFTH_HIT_ON);
	call_run(c, volley, 1, NULL);
	return FRAY_OK;
}

typedef struct morale_in {
	int nerve, losses;
} morale_in;

static const in_desc morale_in_desc[] = {
	{"nerve", IN_INT, 2, 12, .required = true, .help = "the unit's nerve", .rule = "fifth: morale",
	 IN_FIELD(morale_in, nerve)},
	{"losses", IN_INT, 0, FIFTH_MAX_MEN, .help = "the men it just lost", .rule = "fifth: morale",
	 IN_FIELD(morale_in, losses)},
};
static const out_desc morale_out[] = {{"passed", "boolean", "whether 2d6 was at most nerve less losses", NULL,
				       NULL, "passed", "failed"}};

static void morale(fray_roller *r, fray_policy *p, const void *in, int64_t *out)
{
	(void)p;
	const morale_in *m = in;
	int dice = fray_die(r, 6, "morale") + fray_die(r, 6, "morale");
	out[0] = dice <= m->nerve - m->losses;
}

static fray_status bind_morale(fray_call *c)
{
	frayi_call_title(c, "morale: nerve %d, losses %d", CALL_INPUT(c, morale_in)->nerve,
			 CALL_INPUT(c, morale_in)->losses);
	call_run(c, morale, 1, NULL);
	return FRAY_OK;
}

static const proc_desc fifth_volley_desc = {
	"fifth.volley", "fifth volley", "a volley: a d6 a man, hits on 4+", "fifth: volley", NULL,
	volley_in_desc, 1, volley_out, 1, FRAY_MODE_ROLL | FRAY_MODE_ODDS, "{\"men\": 3}", bind_volley,
	.headline = {"hits", ">= 1", "the volley hits"}, .generic = true, .no_sides = true};

static const proc_desc fifth_morale_desc = {
	"fifth.morale", "fifth morale", "a morale check: 2d6 at most nerve less losses", "fifth: morale", NULL,
	morale_in_desc, 2, morale_out, 1, FRAY_MODE_ROLL | FRAY_MODE_ODDS, "{\"nerve\": 7, \"losses\": 1}",
	bind_morale, .headline = {"passed", "== true", "the unit holds"}, .generic = true, .no_sides = true};

static const proc_desc *const fifth_procs[] = {&fifth_volley_desc, &fifth_morale_desc, NULL};
static const proc_desc *const *const fifth_files[] = {fifth_procs, NULL};
static const catalog_set fifth = {"fifth", "the tests' fifth rule set", fifth_files};

int fifth_register_procedures(void)
{
	return frayi_catalog_register(&fifth);
}
