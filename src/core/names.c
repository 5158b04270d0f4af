/* Forgiving name matching: the nearest known name to a misspelt one, for
 * "did you mean" hints (unknown keys, weapon names). */
#include <ctype.h>
#include <stdint.h>
#include <string.h>
#include "names.h"

/* Edit distance, case-insensitive, with '-', '_' and ' ' treated alike. */
static size_t distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	if (la > 63 || lb > 63)
		return SIZE_MAX;
	size_t row[64];
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t diag = row[0];
		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t up = row[j];
			bool same = frayi_name_char(a[i - 1]) == frayi_name_char(b[j - 1]);
			size_t best = diag + (same ? 0 : 1);
			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	return row[lb];
}

int frayi_name_char(int c)
{
	if (c == '_' || c == ' ')
		return '-';
	return tolower((unsigned char)c);
}

size_t frayi_nearest_name(const char *s, const char *const *names, size_t n)
{
	size_t best = SIZE_MAX, best_d = SIZE_MAX;
	for (size_t i = 0; i < n; i++) {
		size_t d = distance(s, names[i]);
		if (d < best_d) {
			best_d = d;
			best = i;
		}
	}
	/* close enough to be a slip: at most a third of the name wrong */
	size_t len = strlen(s);
	if (best == SIZE_MAX || best_d == 0 || best_d * 3 > (len > 3 ? len : 3))
		return SIZE_MAX;
	return best;
}
