/* The output formats' names: the one list the command line's options, a
 * request's "format" and the renderers' tables agree on. */
#include <string.h>
#include "internal.h"

static const char *const names[FRAY_FORMAT_COUNT] = {
	[FRAY_FORMAT_TEXT] = "text",
	[FRAY_FORMAT_JSON] = "json",
	[FRAY_FORMAT_MARKDOWN] = "markdown",
	[FRAY_FORMAT_CSV] = "csv",
	[FRAY_FORMAT_HTML] = "html",
};

FRAY_API const char *fray_format_name(fray_format f)
{
	return (unsigned)f < FRAY_FORMAT_COUNT ? names[f] : NULL;
}

FRAY_API fray_status fray_format_parse(const char *name, fray_format *out)
{
	for (unsigned f = 0; name && f < FRAY_FORMAT_COUNT; f++)
		if (strcmp(name, names[f]) == 0) {
			*out = (fray_format)f;
			return FRAY_OK;
		}
	return FRAY_ERR_INPUT;
}
