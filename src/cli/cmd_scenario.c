/* fray scenario new adbg|presidio|bbb|chits [FILE]: a commented template to
 * start from (templates/, compiled in): an adbg scenario, or forces for a
 * game file. Written to FILE (never over a file that exists, not even one
 * made while this ran: cli_write_new) or shown. */
#include <errno.h>
#include <string.h>
#include "atomic.h"
#include "embedded.h"

extern const embedded_file fray_template_files[];

static const char *const kinds[] = {"adbg", "presidio", "bbb", "chits"};
#define NKINDS (sizeof kinds / sizeof *kinds)

static const embedded_file *template_of(const char *kind)
{
	char path[64];
	snprintf(path, sizeof path, "templates/%s.yaml", kind);
	for (const embedded_file *f = fray_template_files; f->path; f++)
		if (!strcmp(f->path, path))
			return f;
	return NULL;
}

int cmd_scenario(int argc, char **argv)
{
	static const char usage[] = "usage: fray scenario new adbg|presidio|bbb|chits [FILE]";
	if (argc > 0 && cli_is_help(argv[0]))
		return cli_help_topic(stdout, "scenario") ? EXIT_OK : EXIT_RUNTIME;
	if (argc < 2 || strcmp(argv[0], "new") != 0 || argc > 3)
		return cli_error("scenario", EXIT_BAD_INPUT, "%s", usage);
	size_t k = 0;
	while (k < NKINDS && strcmp(argv[1], kinds[k]) != 0)
		k++;
	if (k == NKINDS) {
		const char *near = cli_nearest(argv[1], kinds, NKINDS, sizeof *kinds);
		return cli_error("scenario", EXIT_BAD_INPUT, "no template '%s'%s%s%s (%s)", cli_tstr(argv[1]),
				 near ? " (did you mean '" : "", near ? near : "", near ? "'?)" : "", usage);
	}
	const embedded_file *t = template_of(kinds[k]);
	if (!t)
		return cli_error("scenario", EXIT_RUNTIME, "the %s template is missing (a build problem)", kinds[k]);
	if (argc == 2) {
		fwrite(t->bytes, 1, t->len, stdout);
		return EXIT_OK;
	}
	const char *out = argv[2];
	if (!strcmp(out, "-"))
		return cli_error("scenario", EXIT_BAD_INPUT, "-: leave FILE out to print the template (./- for a "
				 "file called -)");
	if (!cli_write_new(out, (const char *)t->bytes, t->len))
		return errno == EEXIST ? cli_error("scenario", EXIT_BAD_INPUT, "%s exists: a template never writes "
						   "over a file (remove it, or choose another name)", cli_tstr(out))
				       : cli_error("scenario", EXIT_RUNTIME, "cannot write %s: %s", cli_tstr(out),
						   strerror(errno));
	printf("%s: the %s template; %s\n", cli_tstr(out), kinds[k],
	       k == 0 ? "'fray check' it, then 'fray adbg battle' or 'simulate'"
		      : "give it to 'fray table new GAME.yaml --forces' (the file's first lines say how)");
	return cli_check_printed("scenario", "the template");
}
