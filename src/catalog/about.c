/* What the catalogue tells a program about each of its descriptors by
 * place (as fray_procedure_command counts them: the procedures, then the
 * listings), so a program's own manual lists what the catalogue holds
 * (`fray help presidio`) and never a hand copy of it. */
#include "catalog.h"

static const proc_desc *described(size_t i)
{
	size_t nprocs = frayi_catalog_nprocs();
	if (i < nprocs)
		return frayi_catalog_proc(i);
	return i - nprocs < frayi_catalog_nshows ? frayi_catalog_shows[i - nprocs] : NULL;
}

FRAY_API const char *fray_procedure_summary(size_t i)
{
	return described(i) ? described(i)->summary : NULL;
}

FRAY_API const char *fray_procedure_rules(size_t i)
{
	return described(i) ? described(i)->rules : NULL;
}
