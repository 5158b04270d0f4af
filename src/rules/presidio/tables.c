/* Presidio's tables as data: the small arms of Section 10, the range bands
 * (Section 4, ruling R12), cover, the damage chart (Section 6, R13), unit
 * sizes and casualty dice (R15), independent fire (R14). */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include "../../core/internal.h"
#include "../../core/names.h"
#include <fray/presidio.h>

#define P FRAY_PRESIDIO_PISTOL
#define C FRAY_PRESIDIO_CARBINE
#define M FRAY_PRESIDIO_MUSKET
#define R FRAY_PRESIDIO_RIFLE
#define X FRAY_PRESIDIO_MELEE

/* SECTION 10 - WEAPON LISTS, Small Arms: Hit#, Dam, Reload, Range. Names
 * keep the list's words; where the list repeats a name under another
 * heading, the heading's word goes first. */
FRAY_API const fray_presidio_weapon fray_presidio_weapons[] = {
	{"fists", "primitive flint-tipped", 8, 0, 0, X},
	{"flint lance/knife", "primitive flint-tipped", 8, 2, 0, X},
	{"flint 1-handed hatchet/warclub", "primitive flint-tipped", 8, 2, 0, X},
	{"flint 2-handed warclub", "primitive flint-tipped", 8, 3, 0, X},
	{"flint bow/sling", "primitive flint-tipped", 10, 1, 1, P},
	{"flint longbow", "primitive flint-tipped", 10, 2, 2, M},
	{"metal lance/knife", "European metal-tipped", 8, 3, 0, X},
	{"metal 1-handed hatchet/warclub/pistol butt", "European metal-tipped", 8, 3, 0, X},
	{"metal 2-handed axe/warclub/rifle butt", "European metal-tipped", 8, 4, 0, X},
	{"metal bow/sling", "European metal-tipped", 10, 2, 1, P},
	{"metal longbow", "European metal-tipped", 10, 3, 2, M},
	{"ballestra (crossbow)", "European metal-tipped", 9, 4, 3, M},
	{"wheellock pistol", "matchlocks/wheellocks", 12, 3, 3, P},
	{"matchlock carbine", "matchlocks/wheellocks", 12, 4, 4, C},
	{"matchlock musket", "matchlocks/wheellocks", 12, 4, 4, M},
	{"matchlock rifled musket", "matchlocks/wheellocks", 11, 4, 5, R},
	{"flintlock pistol", "flintlocks", 11, 3, 3, P},
	{"flintlock carbine", "flintlocks", 11, 4, 4, C},
	{"flintlock musket", "flintlocks", 11, 4, 4, M},
	{"flintlock rifled musket", "flintlocks", 10, 4, 5, R},
	{"caplock pistol", "caplocks", 10, 3, 3, P},
	{"caplock revolver", "caplocks", 10, 3, 12, P},
	{"caplock carbine", "caplocks", 10, 4, 4, C},
	{"caplock musket", "caplocks", 10, 4, 4, M},
	{"caplock rifled musket", "caplocks", 9, 4, 4, R},
	{"breechloading caplock carbine", "breechloading caplocks with cartridge", 10, 4, 3, C},
	{"breechloading caplock smoothbore", "breechloading caplocks with cartridge", 10, 4, 3, M},
	{"breechloading caplock rifled", "breechloading caplocks with cartridge", 9, 4, 3, R},
	{"revolver", "breechloading solid-cased shot", 10, 3, 6, P},
	{"breech carbine", "breechloading solid-cased shot", 10, 4, 2, M},
	{"breech rifle", "breechloading solid-cased shot", 10, 4, 2, R},
};
FRAY_API const size_t fray_presidio_nweapons = sizeof fray_presidio_weapons / sizeof fray_presidio_weapons[0];

#undef P
#undef C
#undef M
#undef R
#undef X

static bool firearm(const fray_presidio_weapon *w)
{
	/* the powder weapons are every group but the two of hand weapons and bows */
	return strcmp(w->group, "primitive flint-tipped") != 0 && strcmp(w->group, "European metal-tipped") != 0;
}

FRAY_API const fray_presidio_weapon *fray_presidio_melee_weapon(const fray_presidio_weapon *w)
{
	if (!w)
		return NULL;
	if (w->range == FRAY_PRESIDIO_MELEE)
		return w;
	if (!firearm(w))
		return NULL;
	/* rows 7 and 8 of the list: the butts (Section 10) */
	const fray_presidio_weapon *butt = &fray_presidio_weapons[w->range == FRAY_PRESIDIO_PISTOL ? 7 : 8];
	return butt;
}

/* lower case letters and digits only */
static void fold(const char *s, char *dst, size_t cap)
{
	size_t n = 0;
	for (; *s && n + 1 < cap; s++)
		if (isalnum((unsigned char)*s))
			dst[n++] = (char)tolower((unsigned char)*s);
	dst[n] = '\0';
}

FRAY_API const fray_presidio_weapon *fray_presidio_weapon_find(const char *name,
							       const fray_presidio_weapon **near)
{
	/* near may be NULL, and so may name (nothing is found) */
	const fray_presidio_weapon *ignored;
	if (!near)
		near = &ignored;
	*near = NULL;
	if (!name)
		return NULL;
	char want[96], have[96];
	fold(name, want, sizeof want);
	const fray_presidio_weapon *partial = NULL;
	int npartial = 0;
	for (size_t i = 0; i < fray_presidio_nweapons; i++) {
		fold(fray_presidio_weapons[i].name, have, sizeof have);
		if (strcmp(want, have) == 0)
			return &fray_presidio_weapons[i];
		if (*want && strstr(have, want)) {
			partial = &fray_presidio_weapons[i];
			npartial++;
		}
	}
	if (npartial == 1) /* a unique part of a name: "crossbow" */
		return partial;
	const char *names[64];
	size_t n = fray_presidio_nweapons < 64 ? fray_presidio_nweapons : 64;
	for (size_t i = 0; i < n; i++)
		names[i] = fray_presidio_weapons[i].name;
	size_t k = frayi_nearest_name(name, names, n);
	*near = k == SIZE_MAX ? partial : &fray_presidio_weapons[k];
	return NULL;
}

/* R12: close, medium, long limits ("less than"); 0 = anywhere on the table. */
static const int band_limits[7][3] = {
	{0, 0, 0},     /* melee: none */
	{4, 8, 16},    /* hand, grenades */
	{4, 12, 24},   /* pistol (bows) */
	{4, 18, 36},   /* carbine (crossbows) */
	{4, 24, 48},   /* musket */
	{12, 24, 0},   /* rifle */
	{12, 24, 0},   /* artillery */
};

FRAY_API void fray_presidio_band_limits(fray_presidio_range_class c, int limits[3])
{
	memcpy(limits, band_limits[c], sizeof band_limits[c]);
}

FRAY_API const char *const fray_presidio_range_class_names[7] = {"melee", "hand", "pistol", "carbine",
							 "musket", "rifle", "artillery"};
FRAY_API const char *const fray_presidio_band_names[3] = {"close", "medium", "long"};

FRAY_API int fray_presidio_band(fray_presidio_range_class c, double inches)
{
	if (c == FRAY_PRESIDIO_MELEE)
		return -1;
	for (int b = 0; b < 3; b++)
		if (band_limits[c][b] == 0 || inches < band_limits[c][b])
			return b;
	return -1;
}

FRAY_API int fray_presidio_band_dm(int band)
{
	static const int dm[3] = {-4, -2, 0};
	return dm[band];
}

FRAY_API const char *const fray_presidio_cover_names[6] = {"none", "incidental", "partial", "heavy",
						  "full", "complete"};

FRAY_API int fray_presidio_cover_dm(fray_presidio_cover c)
{
	static const int dm[6] = {0, 1, 2, 3, 4, 99};
	return dm[c];
}

/* DAMAGE CHART: +7 needs 2 ... -3 needs 12; below -3, no effect. */
FRAY_API int fray_presidio_wound_number(int diff)
{
	if (diff < -3)
		return 0;
	if (diff > 7)
		diff = 7;
	return 9 - diff;
}

FRAY_API const char *const fray_presidio_size_names[4] = {"team", "squad", "platoon", "company"};

FRAY_API fray_presidio_size fray_presidio_size_of(int figures)
{
	return figures >= 16 ? FRAY_PRESIDIO_COMPANY : figures >= 10 ? FRAY_PRESIDIO_PLATOON
	       : figures >= 5 ? FRAY_PRESIDIO_SQUAD : FRAY_PRESIDIO_TEAM;
}

FRAY_API int fray_presidio_casualty_die(fray_presidio_size s)
{
	static const int die[4] = {6, 12, 20, 30};
	return die[s];
}

FRAY_API int fray_presidio_independent_figures(int figures, int reload)
{
	if (reload <= 0)
		return figures;
	return (2 * figures + reload) / (2 * reload); /* nearest, halves up */
}

FRAY_API fray_presidio_size fray_presidio_size_class(fray_presidio_size given, int start_figures)
{
	fray_presidio_size by_figures = fray_presidio_size_of(start_figures);
	return by_figures > given ? by_figures : given;
}
