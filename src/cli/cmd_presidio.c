/* fray presidio PROCEDURE: Presidio's procedures are the catalogue's; the
 * victory points, the weapon list and a units file's table are shown here. */
#include <stdlib.h>
#include <string.h>
#include "catalog_cli.h"
#include "procout.h"
#include "../common/text.h"


static int presidio_victory(int argc, char **argv)
{
	static const char *const keys[] = {"--high-leader", "--horse", "--leader", "--warrior",
					   "--mule-or-cow", "--scalp", "--small-stock", "--chicken"};
	cli_args a = {.cmd = "presidio victory", .argc = argc, .argv = argv};
	int64_t n[8] = {0};
	while (a.i < argc && a.status == EXIT_OK) {
		if (cli_is_help(argv[a.i]))
			return cli_help_topic(stdout, "presidio victory") ? EXIT_OK : EXIT_RUNTIME;
		bool taken = false;
		for (int k = 0; k < 8 && !taken; k++)
			taken = cli_i64(&a, keys[k], 0, 10000, &n[k]);
		if (!taken)
			return cli_unknown(&a, keys, 8);
	}
	if (a.status != EXIT_OK)
		return a.status;
	int64_t total = 0;
	for (int k = 0; k < 8; k++)
		if (n[k]) {
			printf("  %4lld x %-62s %5lld\n", (long long)n[k], fray_presidio_victory_items[k].name,
			       (long long)(n[k] * fray_presidio_victory_items[k].points));
			total += n[k] * fray_presidio_victory_items[k].points;
		}
	printf("victory points: %lld\n", (long long)total);
	return EXIT_OK;
}

static int presidio_weapons(int argc, char **argv)
{
	if (argc > 0 && cli_is_help(argv[0]))
		return cli_help_topic(stdout, "presidio weapons") ? EXIT_OK : EXIT_RUNTIME;
	if (argc > 0) {
		/* a table to read: no options (no --json either) */
		static const char *const known[] = {"--help"};
		cli_args a = {.cmd = "presidio weapons", .argc = argc, .argv = argv};
		return cli_unknown(&a, known, 1);
	}
	printf("%-44s %5s %4s %6s  %s\n", "Small arms (Presidio Section 10)", "Hit#", "Dam", "Reload", "Range");
	const char *group = "";
	for (size_t i = 0; i < fray_presidio_nweapons; i++) {
		const fray_presidio_weapon *w = &fray_presidio_weapons[i];
		if (strcmp(group, w->group) != 0)
			printf("%s:\n", group = w->group);
		char reload[8];
		snprintf(reload, sizeof reload, w->reload ? "%d" : "--", w->reload);
		printf("  %-42s %4d+ %4d %6s  %s\n", w->name, w->hit, w->damage, reload,
		       w->range ? fray_presidio_range_class_names[w->range] : "--");
	}
	return EXIT_OK;
}

/* fray presidio units FILE: the unit statistics a file gives (G4), and
 * the Rank and Command Skill table (Section 1). */
static int presidio_units(int argc, char **argv)
{
	if (argc > 0 && cli_is_help(argv[0]))
		return cli_help_topic(stdout, "presidio units") ? EXIT_OK : EXIT_RUNTIME;
	for (int i = 0; i < argc; i++)
		if (argv[i][0] == '-' && argv[i][1]) {
			static const char *const known[] = {"--help"};
			cli_args a = {.cmd = "presidio units", .argc = argc, .argv = argv, .i = i};
			return cli_unknown(&a, known, 1);
		}
	if (argc != 1)
		return cli_error("presidio units", EXIT_BAD_INPUT, "expects one FILE of unit statistics "
				 "(see examples/presidio/units.yaml)");
	fray_ctx *ctx = fray_ctx_new(NULL, NULL);
	fray_presidio_units *u = malloc(sizeof *u);
	fray_doc *doc = NULL;
	int status = EXIT_OK;
	if (!ctx || !u) {
		status = cli_error("presidio units", EXIT_RUNTIME, "out of memory");
	} else if (fray_doc_load_file(ctx, argv[0], &doc) != FRAY_OK) {
		status = cli_fail("presidio units", ctx);
	} else if (!fray_presidio_units_read(doc, u)) {
		for (size_t i = 0; i < fray_doc_error_count(doc); i++)
			status = cli_error("presidio units", EXIT_BAD_INPUT, "%s", fray_doc_error_msg(doc, i));
	} else {
		printf("%-28s %6s %5s %4s %5s %5s %5s  %s\n", "Unit type", "Ranged", "Melee", "Move",
		       "Recon", "Camou", "Armor", "Morale");
		for (int i = 0; i < u->n; i++) {
			const fray_presidio_unit_type *t = &u->types[i];
			printf("%-28s %6d %5d %4d %5d %5d %5d  %s%s\n", cli_tstr(t->name), t->ranged, t->melee, t->move,
			       t->recon, t->camou, t->armor, fray_presidio_level_names[t->level],
			       t->mounted ? ", mounted" : "");
		}
		printf("\nCommand skill by rank (Section 1):");
		for (size_t i = 0; i < fray_presidio_nranks; i++)
			printf("%s %s %d", i ? "," : "", fray_presidio_ranks[i].rank, fray_presidio_ranks[i].skill);
		printf("\n");
	}
	fray_doc_free(doc);
	free(u);
	fray_ctx_free(ctx);
	return status;
}

/* The procedures are the catalogue's; these commands show tables. */
static const cli_sub subs[] = {
	{"victory", presidio_victory}, {"weapons", presidio_weapons}, {"units", presidio_units},
};

int cmd_presidio(int argc, char **argv)
{
	return cli_run_set("presidio", subs, sizeof subs / sizeof subs[0], argc, argv);
}
