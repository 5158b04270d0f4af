/* Private: forgiving name matching for "did you mean" hints. */
#ifndef FRAY_NAMES_H
#define FRAY_NAMES_H

#include <stdbool.h>
#include <stddef.h>

/* c folded for comparison: lower case, '_' and ' ' as '-'. */
int frayi_name_char(int c);
/* The index of the name nearest s when it is a likely slip (a small edit
 * distance away, and not equal), else SIZE_MAX. */
size_t frayi_nearest_name(const char *s, const char *const *names, size_t n);

#endif
