/* A program linked only against libfray that plays through
 * include/fray/game.h alone (issue 30, "Done when" 3): a Presidio charge
 * (Section 5: the fear-of-charge check, the defender's reaction chosen by
 * a policy, the impact and the melee, the morale checks after it) and a BBB
 * assault, each then undone. After every step it writes the game's bytes
 * to OUT/NAME-K.yaml, and to OUT/plan.tsv the same step as `fray table`'s
 * words (tab-separated: the file to compare, then fray table's arguments,
 * GAME standing for the game file); tests/game/game_play.py runs them and
 * compares the files byte for byte.
 *   game_play OUT SOURCE_DIR
 * Exit 0, or 1 with the reason on stderr. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fray/fray.h>

static const char *out_dir;
static FILE *plan;
static fray_ctx *ctx;

static void die(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("game_play: ", stderr);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " (%s)\n", fray_ctx_message(ctx));
	exit(1);
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		die("cannot read %s", path);
	static char buf[1 << 16];
	*len = fread(buf, 1, sizeof buf, f);
	fclose(f);
	char *copy = malloc(*len + 1);
	if (!copy || *len == sizeof buf)
		die("%s: too large", path);
	memcpy(copy, buf, *len);
	return copy;
}

/* The game's bytes as OUT/name-k.yaml, and the step's fray table words
 * (a NULL-terminated list) on the plan, after that file's name. */
static void step(const fray_game *game, const char *name, int k, const char *const *words)
{
	char path[1024];
	snprintf(path, sizeof path, "%s/%s-%d.yaml", out_dir, name, k);
	const char *bytes;
	size_t len;
	if (fray_game_save(game, &bytes, &len) != FRAY_OK)
		die("save");
	FILE *f = fopen(path, "wb");
	if (!f || fwrite(bytes, 1, len, f) != len || fclose(f) != 0)
		die("cannot write %s", path);
	fputs(path, plan);
	for (size_t i = 0; words[i]; i++)
		fprintf(plan, "\t%s", words[i]);
	fputc('\n', plan);
}

static fray_game *new_game(const char *source, const char *rules, const char *seed, const char *name)
{
	char forces[1024];
	snprintf(forces, sizeof forces, "%s/examples/%s/forces.yaml", source, rules);
	size_t len;
	char *text = slurp(forces, &len);
	fray_game *game;
	if (fray_game_new(ctx, name, rules, forces, text, len, strtoull(seed, NULL, 10), NULL, NULL, &game) != FRAY_OK)
		die("new %s game", rules);
	free(text);
	const char *words[] = {"new", "GAME", "--rules", rules, "--forces", forces, "--seed", seed, NULL};
	step(game, name, 0, words);
	return game;
}

static int count(const char *s, const char *what)
{
	int n = 0;
	for (const char *p = s; (p = strstr(p, what)); p += strlen(what))
		n++;
	return n;
}

/* The defender's reaction to a charge: melee, whatever is asked, and
 * what was asked remembered. */
typedef struct reaction {
	int asked;
	char kind[64];
} reaction;

static size_t choose_melee(void *self, const fray_choice *c, char *msg, size_t cap)
{
	reaction *r = self;
	r->asked++;
	snprintf(r->kind, sizeof r->kind, "%s", c->kind);
	for (size_t i = 0; i < c->noptions; i++)
		if (!strcmp(c->options[i], "melee"))
			return i;
	snprintf(msg, cap, "no melee among the answers");
	return FRAY_NO_ANSWER;
}

static const fray_policy_ops melee_ops = {.name = "melee", .choose = choose_melee};

static const char *const undo_words[] = {"GAME", "undo", NULL};

/* Seed 1: the Presidials pass their fear of the Apaches' charge and are
 * asked their reaction (the policy: melee). */
static void presidio_charge(const char *source)
{
	fray_game *game = new_game(source, "presidio", "1", "presidio");
	reaction r = {0};
	fray_policy *policy = fray_policy_new(ctx, &melee_ops, &r);
	char *events = NULL;
	if (!policy || fray_game_apply(game, "charge", "Apaches", "Presidials", 0, NULL, policy, &events) != FRAY_OK)
		die("presidio charge");
	fray_policy_free(policy);
	/* Section 5: fear of charge (a morale check, charged) first; the
	 * reaction the defender's choice; the impact and melee one melee
	 * roll, both sides striking; the morale checks after it */
	const char *fear = strstr(events, "\"procedure\": \"presidio.morale\"");
	const char *melee = strstr(events, "\"procedure\": \"presidio.melee\"");
	if (!fear || !strstr(events, "\"charged\": true") || fear > melee)
		die("no fear-of-charge check before the melee: %s", events);
	if (r.asked != 1 || strcmp(r.kind, "presidio.charge_reaction") != 0)
		die("the reaction was asked %d times (%s)", r.asked, r.kind);
	if (count(events, "\"procedure\": \"presidio.melee\"") != 1 || !strstr(events, "\"both\": true"))
		die("not one melee with both sides striking: %s", events);
	if (!strstr(melee, "\"procedure\": \"presidio.morale\""))
		die("no morale check after the melee: %s", events);
	free(events);
	const char *words[] = {"GAME", "charge", "Apaches", "--at", "Presidials", "--reaction", "melee", NULL};
	step(game, "presidio", 1, words);
	if (fray_game_undo(game) != FRAY_OK)
		die("presidio undo");
	step(game, "presidio", 2, undo_words);
	fray_game_free(game);
}

/* BBB Assault (G6's default dice) in the Confederate's Assault phase
 * (BBB Sequence of Play), then undone. */
static void bbb_assault(const char *source)
{
	fray_game *game = new_game(source, "bbb", "11", "bbb");
	const char *phase[] = {"GAME", "phase", "assault", "--moving", "Confederate", NULL};
	if (fray_game_act(game, 4, phase + 1, NULL, NULL, NULL) != FRAY_OK)
		die("bbb phase");
	step(game, "bbb", 1, phase);
	char *events;
	if (fray_game_apply(game, "assault", "Texas Brigade", "1st Brigade", 0, NULL, NULL, &events) != FRAY_OK)
		die("bbb assault");
	if (count(events, "\"procedure\": \"bbb.assault\"") < 1)
		die("no assault roll: %s", events);
	free(events);
	const char *words[] = {"GAME", "assault", "Texas Brigade", "--at", "1st Brigade", NULL};
	step(game, "bbb", 2, words);
	if (fray_game_undo(game) != FRAY_OK)
		die("bbb undo");
	step(game, "bbb", 3, undo_words);
	fray_game_free(game);
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fputs("usage: game_play OUT SOURCE_DIR\n", stderr);
		return 2;
	}
	out_dir = argv[1];
	char path[1024];
	snprintf(path, sizeof path, "%s/plan.tsv", out_dir);
	if (!(plan = fopen(path, "w")) || !(ctx = fray_ctx_new(NULL, NULL)))
		die("cannot start");
	presidio_charge(argv[2]);
	bbb_assault(argv[2]);
	if (fclose(plan) != 0)
		die("cannot write the plan");
	fray_ctx_free(ctx);
	return 0;
}
