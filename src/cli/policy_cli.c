/* Policies from the command line, and the interactive policy: it asks on
 * stderr with numbered choices and a default, and reads the answer from
 * stdin (so it works on a terminal and through a pseudo-terminal); a
 * question with one option is told, not asked. */
#include <stdlib.h>
#include <string.h>
#include "policy_cli.h"

static size_t ask(void *self, const fray_choice *c, char *msg, size_t cap)
{
	(void)self;
	if (c->noptions == 1) {
		/* nothing to choose: said, not asked (the story tells it too) */
		fprintf(stderr, "\n%s: %s (the only choice)\n", cli_tstr(c->prompt), cli_tstr(c->options[0]));
		return 0;
	}
	for (;;) {
		fprintf(stderr, "\n%s\n", cli_tstr(c->prompt));
		for (size_t i = 0; i < c->noptions; i++)
			fprintf(stderr, "  %2zu) %s%s\n", i + 1, cli_tstr(c->options[i]),
				i == c->suggested ? "  [default]" : "");
		fprintf(stderr, "choice [%zu]: ", c->suggested + 1);
		fflush(stderr);
		char line[64];
		if (!fgets(line, sizeof line, stdin)) {
			snprintf(msg, cap, "no answer to '%s' (end of input)", c->prompt);
			return FRAY_NO_ANSWER;
		}
		line[strcspn(line, "\r\n")] = '\0';
		if (line[0] == '\0')
			return c->suggested;
		char *end;
		unsigned long k = strtoul(line, &end, 10);
		if (*end == '\0' && k >= 1 && k <= c->noptions)
			return (size_t)k - 1;
		fprintf(stderr, "expected a number from 1 to %zu, or Enter for the default\n",
			c->noptions);
	}
}

static const fray_policy_ops interactive_ops = {
	.name = "interactive",
	.choose = ask,
	.deterministic = false,
	.thread_safe = false,
};

int cli_make_side_policies(const char *cmd, fray_ctx *ctx, const char *both,
			   const char *a, const char *b, fray_policy **out,
			   char *name, size_t cap, uint64_t *digest)
{
	*out = NULL;
	if (!a && !b) {
		snprintf(name, cap, "%s", both);
		return cli_make_policy(cmd, ctx, both, out, digest);
	}
	a = a ? a : both;
	b = b ? b : both;
	snprintf(name, cap, "%s vs %s", a, b);
	fray_policy *pa, *pb;
	int st = cli_make_policy(cmd, ctx, a, &pa, digest);
	if (st != EXIT_OK)
		return st;
	if ((st = cli_make_policy(cmd, ctx, b, &pb, digest)) != EXIT_OK) {
		fray_policy_free(pa);
		return st;
	}
	*out = fray_policy_sides_new(ctx, pa, pb);
	return *out ? EXIT_OK : cli_fail(cmd, ctx);
}

int cli_make_policy(const char *cmd, fray_ctx *ctx, const char *spec, fray_policy **out,
		    uint64_t *digest)
{
	*out = NULL;
	/* interactive needs a terminal: the command line's own; the others
	 * are libfray's (as a request's "policy") */
	if (strcmp(spec, "interactive") == 0) {
		*out = fray_policy_new(ctx, &interactive_ops, NULL);
		return *out ? EXIT_OK : cli_fail(cmd, ctx);
	}
	bool known = strcmp(spec, "heuristic") == 0 || strncmp(spec, "scripted:", 9) == 0 ||
		     strcmp(spec, "random") == 0 || strncmp(spec, "random:", 7) == 0;
	bool best = strcmp(spec, "best") == 0 || strncmp(spec, "best:", 5) == 0;
	if (!known && !best)
		return cli_error(cmd, EXIT_BAD_INPUT,
				 "--policy expects heuristic, best[:GOAL], scripted:FILE, random[:SEED] or "
				 "interactive, got '%s'", spec);
	uint64_t d = 0;
	if (fray_policy_from_spec(ctx, spec, out, &d) != FRAY_OK) {
		if ((best || strncmp(spec, "random:", 7) == 0) && fray_ctx_status(ctx) == FRAY_ERR_INPUT)
			return cli_error(cmd, EXIT_BAD_INPUT, "--policy %s", fray_ctx_message(ctx));
		return cli_fail(cmd, ctx);
	}
	/* a save or shard remembers the scripts it was played with */
	for (int i = 0; digest && d && i < 8; i++)
		*digest = (*digest ^ ((d >> (8 * i)) & 0xFF)) * 0x100000001b3u;
	return EXIT_OK;
}
