/* Presidio Section 6, Units in Column: "if a target unit is in a narrow
 * corridor, March Column, or enfiladed, and only presents a single or
 * double file to the shooter ... hits will be taken by those in front,
 * and if they go down, subsequent shots will hit a following figure".
 * The file is given front first, a letter a figure (a double file rank
 * by rank); the casualties are its first figures, and no casualty die is
 * rolled. How many fall is the wound dice's as ever: a hit that does not
 * wound the front figure leaves him in front for the next. */
#include <stddef.h>
#include <string.h>
#include "../../core/internal.h"
#include <fray/presidio.h>

FRAY_API const char *fray_presidio_file_problem(const char *file)
{
	if (!file || !*file)
		return "the file is empty: give its figures front first (L the leader, s another specialty figure, p a "
		       "private)";
	if (strlen(file) > 1000)
		return "the file has more than 1000 figures";
	if (strspn(file, "Lsp") != strlen(file))
		return "the file's letters are L (the leader), s (another specialty figure) and p (a private), front "
		       "first";
	const char *l = strchr(file, 'L');
	if (l && strchr(l + 1, 'L'))
		return "the file has one leader (L) at most";
	return NULL;
}

FRAY_API int fray_presidio_file_hits(const char *file, int casualties, bool *leader_hit)
{
	int hit = 0;
	*leader_hit = false;
	for (int k = 0; file && file[k] && k < casualties; k++) {
		hit += file[k] != 'p';
		*leader_hit = *leader_hit || file[k] == 'L';
	}
	return hit;
}
