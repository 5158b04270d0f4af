/* fray scenario new KIND [FILE]: a commented template to start from
 * (templates/KIND.yaml, compiled in): an adbg scenario, or forces for a
 * game file of a rule set the game plays (fray_game_rule_set). Written to
 * FILE (never over a file that exists, not even one made while this ran:
 * cli_write_new) or shown. The kinds are the templates compiled in, in
 * their order: none is named here. */
#include <errno.h>
#include <string.h>
#include "atomic.h"
#include "embedded.h"
#include "../common/text.h"

extern const embedded_file cli_template_files[];

#define MAX_KINDS 16
#define KIND_MAX 32

/* The templates' kinds ("adbg" of templates/adbg.yaml), at most cap. */
static size_t template_kinds(char (*kinds)[KIND_MAX], size_t cap)
{
	size_t n = 0;
	for (const embedded_file *f = cli_template_files; f->path && n < cap; f++) {
		const char *base = strrchr(f->path, '/');
		base = base ? base + 1 : f->path;
		snprintf(kinds[n++], KIND_MAX, "%.*s", (int)strcspn(base, "."), base);
	}
	return n;
}

void cli_scenario_kinds(char *dst, size_t cap, const char *sep)
{
	char kinds[MAX_KINDS][KIND_MAX];
	size_t n = template_kinds(kinds, MAX_KINDS);
	textbuf t = text_on(dst, cap);
	for (size_t i = 0; i < n; i++)
		text_add(&t, "%s%s", i ? sep : "", kinds[i]);
}

/* Whether the kind is a rule set's forces for a game file (else a
 * scenario of its own: adbg's quick battle). */
static bool game_forces(const char *kind)
{
	for (size_t i = 0; fray_game_rule_set(i); i++)
		if (!strcmp(fray_game_rule_set(i), kind))
			return true;
	return false;
}

int cmd_scenario(int argc, char **argv)
{
	char kinds[MAX_KINDS][KIND_MAX], list[MAX_KINDS * KIND_MAX], usage[64 + sizeof list];
	size_t nkinds = template_kinds(kinds, MAX_KINDS);
	const char *names[MAX_KINDS];
	for (size_t i = 0; i < nkinds; i++)
		names[i] = kinds[i];
	cli_scenario_kinds(list, sizeof list, "|");
	snprintf(usage, sizeof usage, "usage: fray scenario new %s [FILE]", list);
	if (argc > 0 && cli_is_help(argv[0]))
		return cli_help_topic(stdout, "scenario") ? EXIT_OK : EXIT_RUNTIME;
	if (argc < 2 || strcmp(argv[0], "new") != 0 || argc > 3)
		return cli_error("scenario", EXIT_BAD_INPUT, "%s", usage);
	size_t k = 0;
	while (k < nkinds && strcmp(argv[1], kinds[k]) != 0)
		k++;
	if (k == nkinds) {
		const char *near = cli_nearest(argv[1], names, nkinds, sizeof *names);
		return cli_error("scenario", EXIT_BAD_INPUT, "no template '%s'%s%s%s (%s)", cli_tstr(argv[1]),
				 near ? " (did you mean '" : "", near ? near : "", near ? "'?)" : "", usage);
	}
	const embedded_file *t = &cli_template_files[k];
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
	       !game_forces(kinds[k]) ? "'fray check' it, then 'fray adbg battle' or 'simulate'"
		      : "give it to 'fray table new GAME.yaml --forces' (the file's first lines say how)");
	return cli_check_printed("scenario", "the template");
}
