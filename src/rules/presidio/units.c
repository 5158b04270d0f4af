/* Presidio unit statistics (Section 1; RULES-NOTES G4: the section the
 * text points to is not there, so they are user data) and the Rank and
 * Command Skill table. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include "../../core/internal.h"
#include <fray/presidio.h>
#include "presidio_internal.h"

static bool same_name(const char *a, const char *b)
{
	for (; *a && *b; a++, b++)
		if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
			return false;
	return !*a && !*b;
}

FRAY_API bool fray_presidio_units_read(fray_doc *doc, fray_presidio_units *out)
{
	memset(out, 0, sizeof *out);
	size_t before = fray_doc_error_count(doc);
	const fray_node *root = fray_doc_root(doc);
	if (!root) {
		fray_doc_error(doc, NULL, "empty file: expected unit statistics (units: ...)");
		return false;
	}
	if (!fray_doc_expect(doc, root, FRAY_NODE_MAP, "unit statistics"))
		return false;
	static const char *const top[] = {"units"};
	fray_doc_known_keys(doc, root, top, 1);
	const fray_node *units = fray_doc_field(doc, root, "units", true);
	if (!units || !fray_doc_expect(doc, units, FRAY_NODE_MAP, "the unit types, by name"))
		return fray_doc_error_count(doc) == before;
	for (size_t i = 0; i < fray_node_len(units); i++) {
		if (out->n == FRAY_PRESIDIO_MAX_UNIT_TYPES) {
			fray_doc_error(doc, fray_node_key(units, i), "at most %d unit types",
				       FRAY_PRESIDIO_MAX_UNIT_TYPES);
			break;
		}
		const char *name = fray_node_scalar(fray_node_key(units, i));
		if (strlen(name) >= sizeof out->types[0].name) {
			fray_doc_error(doc, fray_node_key(units, i), "a unit type's name has at most %zu characters",
				       sizeof out->types[0].name - 1);
			continue;
		}
		/* names are found whatever their case, so two may not differ by it only */
		if (fray_presidio_unit_find(out, name)) {
			fray_doc_error(doc, fray_node_key(units, i), "unit type '%s' is given twice "
				       "(names match whatever their case)", name);
			continue;
		}
		fray_presidio_unit_type *t = &out->types[out->n++];
		frayi_copy_name(t->name, sizeof t->name, name);
		t->level = FRAY_PRESIDIO_AVERAGE;
		const fray_node *n = fray_node_value(units, i);
		if (!fray_doc_expect(doc, n, FRAY_NODE_MAP, "a unit type's statistics"))
			continue;
		static const char *const keys[] = {"ranged", "melee", "move", "recon", "camou", "armor",
						   "morale", "mounted"};
		fray_doc_known_keys(doc, n, keys, 8);
		int *fields[] = {&t->ranged, &t->melee, &t->move, &t->recon, &t->camou, &t->armor};
		for (int f = 0; f < 6; f++) {
			const fray_node *x = fray_doc_field(doc, n, keys[f], f < 5);
			int64_t v;
			if (x && fray_doc_int(doc, x, f == 5 ? -2 : 0, f == 5 ? 20 : 4, keys[f], &v))
				*fields[f] = (int)v;
		}
		const fray_node *x;
		size_t k;
		if ((x = fray_doc_field(doc, n, "morale", true)) &&
		    fray_doc_enum(doc, x, "a morale level", fray_presidio_level_names, FRAY_PRESIDIO_NLEVELS, &k))
			t->level = (int)k;
		if ((x = fray_doc_field(doc, n, "mounted", false)))
			fray_doc_bool(doc, x, "mounted", &t->mounted);
	}
	return fray_doc_error_count(doc) == before;
}

FRAY_API const fray_presidio_unit_type *fray_presidio_unit_find(const fray_presidio_units *u,
								const char *name)
{
	for (int i = 0; i < u->n; i++)
		if (same_name(u->types[i].name, name))
			return &u->types[i];
	return NULL;
}

/* COMMAND SKILL: NCO, Officer, Natives -> Command; the Spanish ranks of
 * Section 1's order of battle beside the English (cabo a corporal,
 * sargento a sergeant, alférez an ensign, teniente a lieutenant, capitán a
 * captain, maestro del campo a field officer). Officers and native
 * leaders rally troops; NCOs do not (Section 2, Rally). */
FRAY_API const fray_presidio_rank fray_presidio_ranks[] = {
	{"corporal", 1, false}, {"cabo", 1, false}, {"2nd lieutenant", 1, true}, {"ensign", 1, true},
	{"alferez", 1, true}, {"alf\u00e9rez", 1, true}, {"young chief", 1, true},
	{"sergeant", 2, false}, {"sargento", 2, false}, {"1st lieutenant", 2, true}, {"lieutenant", 2, true},
	{"teniente", 2, true}, {"tribal chief", 2, true},
	{"1st sergeant", 3, false}, {"sargento primero", 3, false}, {"captain", 3, true}, {"capitan", 3, true}, {"capit\u00e1n", 3, true},
	{"clan chief", 3, true},
	{"sergeant major", 4, false}, {"sgt. major", 4, false}, {"sargento mayor", 4, false},
	{"field officer", 4, true}, {"maestro del campo", 4, true}, {"war chief", 4, true},
};
FRAY_API const size_t fray_presidio_nranks = sizeof fray_presidio_ranks / sizeof fray_presidio_ranks[0];

FRAY_API const fray_presidio_rank *fray_presidio_rank_find(const char *rank)
{
	for (size_t i = 0; rank && i < fray_presidio_nranks; i++)
		if (same_name(fray_presidio_ranks[i].rank, rank))
			return &fray_presidio_ranks[i];
	return NULL;
}

FRAY_API int fray_presidio_command_skill(const char *rank)
{
	const fray_presidio_rank *k = fray_presidio_rank_find(rank);
	return k ? k->skill : 0;
}

/* Section 1, Rank and Command Skill: "This command level is used to
 * determine ... the order of initiative", and "Command skill is not
 * cumulative; use the highest skill present". Its COMMAND SKILL table
 * runs from 1 (corporal, ensign, young chief) to 4 (sergeant major, field
 * officer, war chief): a skill above the table's top is read as its top,
 * none (or below) as 0. The initiative's leadership inputs take the same
 * range (presidio.initiative: 0 to 4). */
int frayi_presidio_leadership(const int *skills, size_t n)
{
	int top = 0;
	for (size_t i = 0; i < fray_presidio_nranks; i++)
		if (fray_presidio_ranks[i].skill > top)
			top = fray_presidio_ranks[i].skill;
	int best = 0;
	for (size_t i = 0; i < n; i++)
		if (skills[i] > best)
			best = skills[i];
	return best > top ? top : best;
}

FRAY_API const char *fray_presidio_volley_kind_refused(const fray_presidio_unit_kind *k)
{
	/* Section 1: "A platoon is the largest unit that can perform volley
	 * fire" */
	if (k->size > FRAY_PRESIDIO_PLATOON)
		return "\"A platoon is the largest unit that can perform volley fire\" (Presidio Section 1): a "
		       "company does not volley";
	/* Section 4, Volley Fire: "in a line formation up to two lines deep" */
	if (k->ranks > 2)
		return "a volley is for troops \"in a line formation up to two lines deep\" (Presidio Section 4, "
		       "Volley Fire): the line is deeper";
	return NULL;
}
