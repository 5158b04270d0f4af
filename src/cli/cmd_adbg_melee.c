/* fray adbg melee: one melee on the CRT (ADBG 19.2.3, rulings R7, R8, R10),
 * from CFs and shifts, or from the units, terrain, leaders and levels. */
#include <stdlib.h>
#include <string.h>
#include "procout.h"

#define MAX_SIDE_UNITS 16

typedef struct melee_unit {
	fray_adbg_type type;
	int cf;
	fray_adbg_status status;
} melee_unit;

/* "warrior:3,militia:2:disrupted" into units; false with a message. */
static bool parse_units(const char *cmd, const char *opt, const char *s,
			melee_unit *u, int *n)
{
	*n = 0;
	char buf[512];
	snprintf(buf, sizeof buf, "%s", s);
	for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (*n == MAX_SIDE_UNITS) {
			cli_error(cmd, EXIT_BAD_INPUT, "%s: at most %d units", opt, MAX_SIDE_UNITS);
			return false;
		}
		char *type = tok, *cf = strchr(tok, ':'), *status = NULL;
		if (cf) {
			*cf++ = '\0';
			status = strchr(cf, ':');
			if (status)
				*status++ = '\0';
		}
		melee_unit *m = &u[(*n)++];
		m->status = FRAY_ADBG_NORMAL;
		bool ok = cf != NULL;
		size_t t;
		for (t = 0; ok && t < 4 && strcmp(type, fray_adbg_type_names[t]) != 0; t++)
			;
		ok = ok && t < 4;
		char *end = NULL;
		long v = ok ? strtol(cf, &end, 10) : -1;
		ok = ok && *cf && !*end && v >= 0 && v <= 9;
		if (ok && status) {
			size_t k;
			for (k = 0; k < 3 && strcmp(status, fray_adbg_status_names[k]) != 0; k++)
				;
			ok = k < 3;
			m->status = (fray_adbg_status)k;
		}
		if (!ok) {
			cli_error(cmd, EXIT_BAD_INPUT,
				  "%s expects units as TYPE:CF[:STATUS], comma-separated "
				  "(warrior:3,militia:2:disrupted); got '%s'", opt, s);
			return false;
		}
		m->type = (fray_adbg_type)t;
		m->cf = (int)v;
	}
	if (*n == 0) {
		cli_error(cmd, EXIT_BAD_INPUT, "%s names no units", opt);
		return false;
	}
	return true;
}

/* Modified melee CF of the non-routed units (19.2.3: routed are ignored). */
static int64_t side_cf(const melee_unit *u, int n, fray_adbg_terrain tr, int *active,
		       bool *disrupted)
{
	int64_t cf = 0;
	*active = 0;
	*disrupted = false;
	for (int i = 0; i < n; i++) {
		if (u[i].status == FRAY_ADBG_ROUTED)
			continue;
		cf += (int64_t)u[i].cf * fray_adbg_melee_mult(u[i].type, tr);
		(*active)++;
		*disrupted |= u[i].status == FRAY_ADBG_DISRUPTED;
	}
	return cf;
}

static void loss_str(int64_t v, bool json, char *dst, size_t cap)
{
	if (v == FRAY_ADBG_ROUTE_ALL)
		snprintf(dst, cap, json ? "\"R\"" : "R (routed, removed)");
	else
		snprintf(dst, cap, "%lld", (long long)v);
}

static void fmt_melee(const int64_t *o, bool json, const void *input, char *dst, size_t cap)
{
	(void)input;
	char a[32], d[32];
	loss_str(o[0], json, a, sizeof a);
	loss_str(o[1], json, d, sizeof d);
	snprintf(dst, cap, json ? "\"attacker_loss\": %s, \"defender_loss\": %s"
				: "attacker %s, defender %s", a, d);
}

int adbg_melee(int argc, char **argv);

int adbg_melee(int argc, char **argv)
{
	static const char *const known[] = {
		"--crt", "--attack", "--defend", "--shift", "--drm", "--attacker", "--defender",
		"--terrain", "--attacker-leader", "--defender-leader", "--attacker-level",
		"--defender-level", "--surprise", "--odds", "--seed", "--json", "--help"};
	cli_args a = {.cmd = "adbg melee", .argc = argc, .argv = argv};
	proc_opts o = {0};
	const char *crt_path = NULL, *att = NULL, *def = NULL;
	int64_t attack = -1, defend = -1, shift = 0, drm = 0, al = 0, dl = 0, alev = -1, dlev = -1;
	size_t terrain = 9;
	bool surprise = false;
	while (a.i < argc && a.status == EXIT_OK) {
		if (cli_is_help(argv[a.i]))
			return cli_help_topic(stdout, "adbg melee") ? EXIT_OK : EXIT_RUNTIME;
		if (cli_flag(&a, "--surprise"))
			surprise = true;
		else if (!cli_value(&a, "--crt", &crt_path) &&
			 !cli_i64(&a, "--attack", 0, 1000, &attack) &&
			 !cli_i64(&a, "--defend", 0, 1000, &defend) &&
			 !cli_i64(&a, "--shift", -20, 20, &shift) &&
			 !cli_i64(&a, "--drm", -3, 3, &drm) &&
			 !cli_value(&a, "--attacker", &att) &&
			 !cli_value(&a, "--defender", &def) &&
			 !cli_enum(&a, "--terrain", fray_adbg_terrain_names, 3, &terrain) &&
			 !cli_i64(&a, "--attacker-leader", 0, 3, &al) &&
			 !cli_i64(&a, "--defender-leader", 0, 3, &dl) &&
			 !cli_i64(&a, "--attacker-level", 0, 6, &alev) &&
			 !cli_i64(&a, "--defender-level", 0, 6, &dlev) &&
			 !proc_opt(&a, &o))
			return cli_unknown(&a, known, 17);
	}
	if (a.status != EXIT_OK)
		return a.status;
	if (!crt_path)
		return cli_error(a.cmd, EXIT_BAD_INPUT,
				 "missing --crt FILE: the melee CRT is your game's table "
				 "(an example: data/adbg/example-melee-crt.yaml)");
	bool full = att || def;
	if (full && (attack >= 0 || defend >= 0))
		return cli_error(a.cmd, EXIT_BAD_INPUT,
				 "give either --attack/--defend CFs or --attacker/--defender units, not both");
	if (full && (!att || !def || terrain == 9))
		return cli_error(a.cmd, EXIT_BAD_INPUT,
				 "the unit form needs --attacker, --defender and --terrain");
	if (!full && (attack < 0 || defend < 0))
		return cli_error(a.cmd, EXIT_BAD_INPUT, "missing --attack and --defend (modified melee CFs)");

	fray_ctx *ctx = fray_ctx_new(NULL, NULL);
	if (!ctx)
		return cli_error(a.cmd, EXIT_RUNTIME, "out of memory");
	fray_adbg_crt crt;
	if (fray_adbg_crt_load(ctx, crt_path, &crt) != FRAY_OK) {
		int st = cli_fail(a.cmd, ctx);
		fray_ctx_free(ctx);
		return st;
	}
	fray_ctx_free(ctx);

	char title[256], inputs[1024];
	if (full) {
		melee_unit au[MAX_SIDE_UNITS], du[MAX_SIDE_UNITS];
		int na, nd, active_a, active_d;
		bool dis_a, dis_d;
		if (!parse_units(a.cmd, "--attacker", att, au, &na) ||
		    !parse_units(a.cmd, "--defender", def, du, &nd))
			return EXIT_BAD_INPUT;
		fray_adbg_terrain tr = (fray_adbg_terrain)terrain;
		attack = side_cf(au, na, tr, &active_a, &dis_a);
		defend = side_cf(du, nd, tr, &active_d, &dis_d);
		if (active_a == 0)
			return cli_error(a.cmd, EXIT_BAD_INPUT, "every attacking unit is routed: routed units do not attack");
		if (active_d == 0) {
			/* ADBG 19.2.3: defenders all routed are eliminated, no roll */
			if (o.json)
				printf("{\"procedure\": \"adbg.melee\", \"automatic\": true, \"outcomes\": "
				       "[{\"outcome\": {\"attacker_loss\": 0, \"defender_loss\": %d}, "
				       "\"p\": 1, \"exact\": \"1\"}], \"unresolved\": 0}\n", nd);
			else
				printf("melee: every defending unit is routed: all %d eliminated, "
				       "no roll [ADBG 19.2.3]\n", nd);
			return EXIT_OK;
		}
		shift = al - dl + (dis_d ? 1 : 0) + (surprise ? 1 : 0);
		drm = alev >= 0 && dlev >= 0 ? fray_adbg_melee_drm((int)alev, (int)dlev) : 0;
		snprintf(title, sizeof title,
			 "melee in %s: attacker CF %lld, defender CF %lld, shift %+lld, DRM %+lld",
			 fray_adbg_terrain_names[terrain], (long long)attack, (long long)defend,
			 (long long)shift, (long long)drm);
	} else {
		snprintf(title, sizeof title, "melee: attacker CF %lld, defender CF %lld, shift %+lld, DRM %+lld",
			 (long long)attack, (long long)defend, (long long)shift, (long long)drm);
	}
	snprintf(inputs, sizeof inputs,
		 "{\"crt\": %s, \"attack\": %lld, \"defend\": %lld, \"shift\": %lld, \"drm\": %lld}",
		 cli_jstr(crt.name), (long long)attack, (long long)defend, (long long)shift, (long long)drm);
	fray_adbg_melee_in in = {&crt, attack, defend, (int)shift, (int)drm};
	proc_run run = {"adbg.melee", title, inputs, fray_adbg_melee_procedure, &in, 2, fmt_melee, {0}};
	return proc_run_print(a.cmd, &run, &o);
}
