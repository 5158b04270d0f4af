/* fray adbg PROCEDURE: A Dark and Bloody Ground rule 19, one procedure at a
 * time (fire, move, melee, recover, rounds), rolled or as exact odds. */
#include <stdlib.h>
#include <string.h>
#include "procout.h"

static const char *const weathers[] = {"normal", "severe"};

/* Options left unset are reported together as missing. */
static int missing(const char *cmd, const char *what)
{
	return cli_error(cmd, EXIT_BAD_INPUT, "missing %s (see 'fray %s --help')", what, cmd);
}

static void fmt_flag(const char *key, const char *yes, const char *no,
		     int64_t v, bool json, char *dst, size_t cap)
{
	if (json)
		snprintf(dst, cap, "\"%s\": %s", key, v ? "true" : "false");
	else
		snprintf(dst, cap, "%s", v ? yes : no);
}

static void fmt_hit(const int64_t *o, bool json, const void *input, char *dst, size_t cap)
{
	(void)input;
	fmt_flag("hit", "hit", "miss", o[0], json, dst, cap);
}

static void fmt_moved(const int64_t *o, bool json, const void *input, char *dst, size_t cap)
{
	(void)input;
	fmt_flag("moved", "moves", "stays", o[0], json, dst, cap);
}

static void fmt_recovered(const int64_t *o, bool json, const void *input, char *dst, size_t cap)
{
	(void)input;
	fmt_flag("recovered", "recovers one level", "does not recover", o[0], json, dst, cap);
}

static void fmt_rounds(const int64_t *o, bool json, const void *input, char *dst, size_t cap)
{
	(void)input;
	snprintf(dst, cap, json ? "\"rounds\": %lld" : "%lld rounds", (long long)o[0]);
}

static int adbg_fire(int argc, char **argv)
{
	static const char *const known[] = {"--type", "--cf", "--terrain", "--weather",
					    "--odds", "--seed", "--json", "--help"};
	cli_args a = {.cmd = "adbg fire", .argc = argc, .argv = argv};
	proc_opts o = {0};
	size_t type = 9, terrain = 9, weather = 0;
	int64_t cf = -1;
	while (a.i < argc && a.status == EXIT_OK) {
		if (cli_is_help(argv[a.i]))
			return cli_help_topic(stdout, "adbg fire") ? EXIT_OK : EXIT_RUNTIME;
		if (!cli_enum(&a, "--type", fray_adbg_type_names, 4, &type) &&
		    !cli_i64(&a, "--cf", 0, 9, &cf) &&
		    !cli_enum(&a, "--terrain", fray_adbg_terrain_names, 3, &terrain) &&
		    !cli_enum(&a, "--weather", weathers, 2, &weather) &&
		    !proc_opt(&a, &o))
			return cli_unknown(&a, known, 8);
	}
	if (a.status != EXIT_OK)
		return a.status;
	if (type == 9 || cf < 0 || terrain == 9)
		return missing(a.cmd, "--type, --cf or --terrain");
	fray_adbg_fire_in in = {(fray_adbg_type)type, (int)cf, (fray_adbg_terrain)terrain,
				weather == 1};
	char title[128], inputs[256];
	snprintf(title, sizeof title, "fire: %s, CF %d, %s%s", fray_adbg_type_names[type],
		 (int)cf, fray_adbg_terrain_names[terrain], weather ? ", severe weather" : "");
	snprintf(inputs, sizeof inputs,
		 "{\"type\": \"%s\", \"cf\": %d, \"terrain\": \"%s\", \"weather\": \"%s\"}",
		 fray_adbg_type_names[type], (int)cf, fray_adbg_terrain_names[terrain],
		 weathers[weather]);
	proc_run run = {"adbg.fire", title, inputs, fray_adbg_fire_procedure, &in, 1, fmt_hit, {0}};
	return proc_run_print(a.cmd, &run, &o);
}

static int adbg_move(int argc, char **argv)
{
	static const char *const known[] = {"--level", "--type", "--terrain", "--leader",
					    "--weather", "--enemy-atop", "--surprise-winner-round1",
					    "--with-regulars", "--odds", "--seed", "--json", "--help"};
	cli_args a = {.cmd = "adbg move", .argc = argc, .argv = argv};
	proc_opts o = {0};
	size_t type = 9, terrain = 9, weather = 0;
	int64_t level = -1, leader = 0;
	bool atop = false, surprise = false, with_regulars = false;
	while (a.i < argc && a.status == EXIT_OK) {
		if (cli_is_help(argv[a.i]))
			return cli_help_topic(stdout, "adbg move") ? EXIT_OK : EXIT_RUNTIME;
		if (cli_flag(&a, "--enemy-atop"))
			atop = true;
		else if (cli_flag(&a, "--surprise-winner-round1"))
			surprise = true;
		else if (cli_flag(&a, "--with-regulars"))
			with_regulars = true;
		else if (!cli_i64(&a, "--level", 0, 6, &level) &&
			 !cli_enum(&a, "--type", fray_adbg_type_names, 4, &type) &&
			 !cli_enum(&a, "--terrain", fray_adbg_terrain_names, 3, &terrain) &&
			 !cli_i64(&a, "--leader", 0, 3, &leader) &&
			 !cli_enum(&a, "--weather", weathers, 2, &weather) &&
			 !proc_opt(&a, &o))
			return cli_unknown(&a, known, 12);
	}
	if (a.status != EXIT_OK)
		return a.status;
	if (level < 0 || type == 9 || terrain == 9)
		return missing(a.cmd, "--level, --type or --terrain");
	if (surprise && leader == 0)
		return cli_error(a.cmd, EXIT_BAD_INPUT,
				 "--surprise-winner-round1 helps only units stacked with a leader: "
				 "give --leader R (ADBG 19.2.2)");
	fray_adbg_move_in in = {
		.level = (int)level, .leader = (int)leader,
		.terrain = (fray_adbg_terrain)terrain, .severe = weather == 1,
		.enemy_atop = atop, .surprise_winner_round1 = surprise,
		.regular = type == FRAY_ADBG_REGULAR || with_regulars,
		.non_warrior = type != FRAY_ADBG_WARRIOR,
	};
	char title[160], inputs[320];
	snprintf(title, sizeof title, "move: %s at level %d, %s%s%s%s%s",
		 fray_adbg_type_names[type], (int)level, fray_adbg_terrain_names[terrain],
		 leader ? ", with a leader" : "", weather ? ", severe weather" : "",
		 atop ? ", enemy atop" : "", surprise ? ", surprise (round 1)" : "");
	snprintf(inputs, sizeof inputs,
		 "{\"level\": %d, \"type\": \"%s\", \"terrain\": \"%s\", \"leader\": %d, "
		 "\"weather\": \"%s\", \"enemy_atop\": %s, \"surprise_winner_round1\": %s, "
		 "\"with_regulars\": %s}", (int)level, fray_adbg_type_names[type],
		 fray_adbg_terrain_names[terrain], (int)leader, weathers[weather],
		 atop ? "true" : "false", surprise ? "true" : "false",
		 with_regulars ? "true" : "false");
	proc_run run = {"adbg.move", title, inputs, fray_adbg_move_procedure, &in, 1, fmt_moved, {0}};
	return proc_run_print(a.cmd, &run, &o);
}

static int adbg_recover(int argc, char **argv)
{
	static const char *const known[] = {"--level", "--leader", "--odds", "--seed",
					    "--json", "--help"};
	cli_args a = {.cmd = "adbg recover", .argc = argc, .argv = argv};
	proc_opts o = {0};
	int64_t level = -1, leader = 0;
	while (a.i < argc && a.status == EXIT_OK) {
		if (cli_is_help(argv[a.i]))
			return cli_help_topic(stdout, "adbg recover") ? EXIT_OK : EXIT_RUNTIME;
		if (!cli_i64(&a, "--level", 0, 6, &level) &&
		    !cli_i64(&a, "--leader", 0, 3, &leader) && !proc_opt(&a, &o))
			return cli_unknown(&a, known, 6);
	}
	if (a.status != EXIT_OK)
		return a.status;
	if (level < 0)
		return missing(a.cmd, "--level");
	fray_adbg_recover_in in = {(int)level, (int)leader};
	char title[96], inputs[96];
	snprintf(title, sizeof title, "recover: level %d%s", (int)level,
		 leader ? ", with a leader" : "");
	snprintf(inputs, sizeof inputs, "{\"level\": %d, \"leader\": %d}", (int)level, (int)leader);
	proc_run run = {"adbg.recover", title, inputs, fray_adbg_recover_procedure, &in, 1,
			fmt_recovered, {0}};
	return proc_run_print(a.cmd, &run, &o);
}

static int adbg_rounds(int argc, char **argv)
{
	static const char *const known[] = {"--initiative-rating", "--other-rating",
					    "--attempt", "--odds", "--seed", "--json", "--help"};
	cli_args a = {.cmd = "adbg rounds", .argc = argc, .argv = argv};
	proc_opts o = {0};
	int64_t ini = 0, other = 0;
	bool attempt = false;
	while (a.i < argc && a.status == EXIT_OK) {
		if (cli_is_help(argv[a.i]))
			return cli_help_topic(stdout, "adbg rounds") ? EXIT_OK : EXIT_RUNTIME;
		if (cli_flag(&a, "--attempt"))
			attempt = true;
		else if (!cli_i64(&a, "--initiative-rating", 1, 3, &ini) &&
			 !cli_i64(&a, "--other-rating", 1, 3, &other) && !proc_opt(&a, &o))
			return cli_unknown(&a, known, 7);
	}
	if (a.status != EXIT_OK)
		return a.status;
	if (ini == 0)
		return missing(a.cmd, "--initiative-rating");
	if (!attempt && cli_seen(&a, "--other-rating"))
		return cli_error(a.cmd, EXIT_BAD_INPUT, "--other-rating is for --attempt (the other side's "
				 "try for one more round)");
	if (attempt && other == 0)
		return missing(a.cmd, "--other-rating (the rating that the extra-round die must beat)");
	fray_adbg_rounds_in in = {(int)ini, attempt, (int)other};
	char title[128], inputs[128];
	snprintf(title, sizeof title, "rounds: initiative leader rating %d%s", (int)ini,
		 attempt ? ", the other side tries for one more" : "");
	snprintf(inputs, sizeof inputs,
		 "{\"initiative_rating\": %d, \"attempt\": %s, \"other_rating\": %d}",
		 (int)ini, attempt ? "true" : "false", (int)other);
	proc_run run = {"adbg.rounds", title, inputs, fray_adbg_rounds_procedure, &in, 1,
			fmt_rounds, {0}};
	return proc_run_print(a.cmd, &run, &o);
}

int adbg_melee(int argc, char **argv);
int adbg_battle(int argc, char **argv);
int adbg_resume(int argc, char **argv);
int adbg_odds(int argc, char **argv);
int adbg_simulate(int argc, char **argv);
int adbg_sweep(int argc, char **argv);

static const cli_sub subs[] = {
	{"fire", adbg_fire},
	{"move", adbg_move},
	{"melee", adbg_melee},
	{"recover", adbg_recover},
	{"rounds", adbg_rounds},
	{"battle", adbg_battle},
	{"resume", adbg_resume},
	{"odds", adbg_odds},
	{"simulate", adbg_simulate},
	{"sweep", adbg_sweep},
};

int cmd_adbg(int argc, char **argv)
{
	return cli_dispatch("adbg", subs, sizeof subs / sizeof subs[0], argc, argv);
}
