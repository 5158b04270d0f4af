/* Told terms, for the whole catalogue (BRIEF "Told terms", events.h): a
 * player checks a result by its modifiers, so every term of a target
 * number (its base too) is a MODIFIER event with its rule, and the TOTAL
 * that follows is the sum of the MODIFIERs since the previous TOTAL.
 *
 * For every procedure of the catalogue that rolls, many inputs are drawn
 * (seeded) from each input's declared type, range and choices, starting
 * from the procedure's example so that its files and names stay valid;
 * combinations the catalogue refuses are counted and skipped, and at least
 * one in five must be valid. Each valid one is rolled through fray_request and
 * its events are read back from the JSON:
 *   - every TOTAL equals the sum of the MODIFIERs since the previous TOTAL
 *     (or the start), for every procedure, converted or not;
 *   - every MODIFIER has a rule reference;
 *   - a procedure that reads a number against a table or a die tells at
 *     least one TOTAL in every run that rolls; those listed below as
 *     having no target number (pure lookups) tell no term at all;
 *   - and each of ADBG's dice follows a TOTAL of its own. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <fray/fray.h>
#include "../test_util.h"

enum { RUNS = 200 };

/* Procedures with no target number: each die or draw is read straight
 * from a table (a row picked by the face), no number read against it and
 * no term added to it. Each with the reason; the check below keeps the
 * list honest: such a procedure tells no MODIFIER and no TOTAL (a term
 * told would mean a number, which must then be totalled). */
static const struct {
	const char *name, *why;
} no_target[] = {
	{"presidio.casualty_status", "a pure lookup: one die on the casualty table, no modifier"},
	{"presidio.night", "a pure lookup: one die for the night's events, no modifier"},
	{"presidio.bounce", "a pure lookup: the bounce direction die, no modifier"},
	{"presidio.dismount", "a pure lookup: odd on the die, the horse runs off (Mounting/Dismounting)"},
	{"presidio.into_melee", "a draw: each hit falls on a figure drawn from both sides, no number"},
	{"presidio.combine", "no die: the new unit's figures, size class and level (Section 3, Combining Units)"},
	{"presidio.camp", "pure lookups: the Camp Setup table's three dice"},
	{"presidio.villagers", "pure lookups: Villager Deployment's shares (25/50/25%, 95/0/5%) by the die"},
	{"presidio.livestock_return", "a pure lookup: Lost Livestock's 1D6 rows per animal"},
	{"presidio.contact_time", "a pure lookup: the Time of Contact's 1D4 (or D12) picks the hour"},
	{"presidio.entrance", "a pure lookup: the 1D6 picks the entrance point"},
	{"presidio.herd", "a pure lookup: the scatter chart's 1D6 picks the direction"},
	{"dice.roll", "a dice expression: its total is the outcome, read against nothing"},
};

/* Procedures that never roll (no roll mode), so nothing of theirs is
 * told here; each with the reason. */
static const struct {
	const char *name, *why;
} not_rolled[] = {
	{"presidio.pursuit", "only simulates: the share of pursuits caught on each day, no story told"},
	{"chits.advise", "gives odds only (no roll is told): the chances of each tactic's hits"},
};

static bool has_no_target(const char *name)
{
	for (size_t i = 0; i < sizeof no_target / sizeof no_target[0]; i++)
		if (!strcmp(no_target[i].name, name))
			return true;
	return false;
}

static bool never_rolled(const char *name)
{
	for (size_t i = 0; i < sizeof not_rolled / sizeof not_rolled[0]; i++)
		if (!strcmp(not_rolled[i].name, name))
			return true;
	return false;
}

/* A small generator of its own (splitmix64), so the inputs drawn do not
 * depend on the library under test. */
static uint64_t mix(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15u);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

static int64_t below(uint64_t *s, int64_t n)
{
	return n <= 1 ? 0 : (int64_t)(mix(s) % (uint64_t)n);
}

typedef struct buf {
	char text[16384];
	size_t len;
} buf;

static void add(buf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(b->text + b->len, sizeof b->text - b->len, fmt, ap);
	va_end(ap);
	assert_true(n >= 0 && (size_t)n < sizeof b->text - b->len);
	b->len += (size_t)n;
}

/* A node of the catalogue's JSON written back as JSON (the example's
 * values: scalars, short lists). */
static void add_node(buf *b, const fray_node *n)
{
	if (fray_node_kind_of(n) == FRAY_NODE_SEQ) {
		add(b, "[");
		for (size_t i = 0; i < fray_node_len(n); i++) {
			add(b, i ? ", " : "");
			add_node(b, fray_node_item(n, i));
		}
		add(b, "]");
	} else if (fray_node_kind_of(n) == FRAY_NODE_MAP) {
		add(b, "{");
		for (size_t i = 0; i < fray_node_len(n); i++) {
			add(b, i ? ", " : "");
			add_node(b, fray_node_key(n, i));
			add(b, ": ");
			add_node(b, fray_node_value(n, i));
		}
		add(b, "}");
	} else if (fray_node_plain(n)) {
		add(b, "%s", fray_node_scalar(n));
	} else {
		char q[1024];
		assert_true(fray_json_string(fray_node_scalar(n), q, sizeof q) < sizeof q);
		add(b, "%s", q);
	}
}

static int64_t node_int(const fray_node *n, int64_t dflt)
{
	return n && fray_node_scalar(n) ? strtoll(fray_node_scalar(n), NULL, 10) : dflt;
}

/* A value for a number drawn mostly from the small numbers of its range
 * (its low end, or from -2 up when it reaches below 0), where the rules'
 * tables are, and now and then from anywhere in it. */
static int64_t draw_int(uint64_t *s, int64_t lo, int64_t hi)
{
	if (hi - lo > 14 && below(s, 4) != 0) {
		lo = lo < -2 ? (hi < -2 ? lo : -2) : lo;
		hi = lo + 14 < hi ? lo + 14 : hi;
	}
	return lo + below(s, hi - lo + 1);
}

/* One input's value, drawn from its declaration; false: leave it out
 * (files and names keep the example's, which are the only ones known to
 * exist). */
static bool draw_input(uint64_t *s, const fray_node *decl, buf *b)
{
	const char *type = fray_node_scalar(fray_map_get(decl, "type"));
	if (!strcmp(type, "bool")) {
		add(b, below(s, 2) ? "true" : "false");
	} else if (!strcmp(type, "int")) {
		add(b, "%lld", (long long)draw_int(s, node_int(fray_map_get(decl, "min"), 0),
						       node_int(fray_map_get(decl, "max"), 12)));
	} else if (!strcmp(type, "number")) {
		int64_t v = draw_int(s, node_int(fray_map_get(decl, "min"), 0),
				     node_int(fray_map_get(decl, "max"), 40));
		add(b, below(s, 3) == 0 ? "%lld.5" : "%lld", (long long)v);
	} else if (!strcmp(type, "choice")) {
		const fray_node *ch = fray_map_get(decl, "choices");
		assert_non_null(ch);
		add_node(b, fray_node_item(ch, (size_t)below(s, (int64_t)fray_node_len(ch))));
	} else {
		return false;
	}
	return true;
}

/* The inputs of one run: the example's, each drawn again half the time,
 * and the inputs the example leaves out, each given a quarter of the time. */
static void draw_inputs(uint64_t *s, const fray_node *proc, buf *b)
{
	const fray_node *example = fray_map_get(proc, "example");
	const fray_node *inputs = fray_map_get(proc, "inputs");
	add(b, "{");
	bool first = true;
	for (size_t i = 0; i < fray_node_len(inputs); i++) {
		const fray_node *decl = fray_node_item(inputs, i);
		const char *name = fray_node_scalar(fray_map_get(decl, "name"));
		const fray_node *given = example ? fray_map_get(example, name) : NULL;
		size_t mark = b->len;
		add(b, "%s\"%s\": ", first ? "" : ", ", name);
		bool put = false;
		if (given && below(s, 2))
			put = draw_input(s, decl, b);
		else if (!given && below(s, 4) == 0)
			put = draw_input(s, decl, b);
		if (!put && given) {
			add_node(b, given);
			put = true;
		}
		if (put)
			first = false;
		else
			b->len = mark, b->text[mark] = '\0';
	}
	add(b, "}");
}

typedef struct tally {
	int64_t sum;        /* of the MODIFIERs since the last TOTAL */
	int modifiers, totals, rolls;
	bool each_roll;     /* every die must follow a TOTAL of its own */
	bool total_since_roll;
} tally;

/* ADBG's rolls each read a die against a number told just before it
 * (ADBG 19.1, 19.2.1-19.2.4): the fire CF, the level, the melee DRM...
 * The checks from the scenario's data (G2 leader loss, G3 a routed unit's
 * fate) read a die against a list of faces, no term: they are exempt.
 * So is the chits Rest order's 1d3: the die is the number of fatigue
 * points taken off, read against nothing; and Presidio's d2 that rounds
 * half the firers up or down (reloading in cover), and its sentry's
 * condition, a die read straight from the Sentry Alertness table. */
static bool roll_needs_total(const char *what)
{
	return strncmp(what, "leader loss for ", 16) != 0 && strncmp(what, "routed ", 7) != 0 &&
	       strcmp(what, "Rest order 1d3") != 0 && strncmp(what, "half the firers", 15) != 0 &&
	       strcmp(what, "sentry condition") != 0;
}

/* Checks one run's events; a failure names the procedure and the request. */
static void check_events(const char *req, const fray_node *events, tally *t)
{
	for (size_t i = 0; i < fray_node_len(events); i++) {
		const fray_node *ev = fray_node_item(events, i);
		const char *kind = fray_node_scalar(fray_map_get(ev, "event"));
		assert_non_null(kind);
		if (!strcmp(kind, "roll")) {
			const char *what = fray_node_scalar(fray_map_get(ev, "what"));
			if (t->each_roll && roll_needs_total(what) && !t->total_since_roll)
				fail_msg("%s: '%s' rolled with no total told since the last roll", req, what);
			t->total_since_roll = false;
			t->rolls += roll_needs_total(what);
		} else if (!strcmp(kind, "modifier")) {
			const fray_node *rule = fray_map_get(ev, "rule");
			if (!rule || !fray_node_scalar(rule) || !fray_node_scalar(rule)[0])
				fail_msg("%s: modifier '%s' has no rule reference", req,
					 fray_node_scalar(fray_map_get(ev, "what")));
			t->sum += node_int(fray_map_get(ev, "value"), 0);
			t->modifiers++;
		} else if (!strcmp(kind, "total")) {
			int64_t v = node_int(fray_map_get(ev, "value"), 0);
			if (v != t->sum)
				fail_msg("%s: total '%s' is %lld, but its modifiers add up to %lld", req,
					 fray_node_scalar(fray_map_get(ev, "what")), (long long)v,
					 (long long)t->sum);
			t->sum = 0;
			t->totals++;
			t->total_since_roll = true;
		}
	}
}

static void every_procedure_tells_its_terms(void **state)
{
	(void)state;
	char *json = NULL;
	assert_int_equal(fray_procedures_json(ctx, &json), FRAY_OK);
	fray_doc *cat = NULL;
	assert_int_equal(fray_doc_load_string(ctx, "catalogue", json, strlen(json), &cat), FRAY_OK);
	const fray_node *procs = fray_map_get(fray_doc_root(cat), "procedures");
	assert_true(fray_node_len(procs) >= 30);
	int checked = 0;
	size_t named = 0; /* entries of the two lists found in the catalogue */
	for (size_t k = 0; k < fray_node_len(procs); k++) {
		const fray_node *proc = fray_node_item(procs, k);
		const char *name = fray_node_scalar(fray_map_get(proc, "name"));
		const fray_node *modes = fray_map_get(proc, "modes");
		bool rolls = false;
		for (size_t m = 0; m < fray_node_len(modes); m++)
			rolls |= !strcmp(fray_node_scalar(fray_node_item(modes, m)), "roll");
		bool is_battle = !strcmp(name, "adbg.battle");
		int runs = is_battle ? RUNS / 10 : RUNS; /* a whole battle is long */
		named += has_no_target(name) + never_rolled(name);
		if (rolls == never_rolled(name))
			fail_msg("%s: %s", name, rolls ? "rolls, but is listed in not_rolled"
						       : "has no roll mode: list it in not_rolled with the reason");
		if (!rolls)
			continue;
		bool must_total = !has_no_target(name);
		uint64_t s = 0x7e11 + k;
		int valid = 0, with_total = 0;
		for (int i = 0; i < runs; i++) {
			buf in = {.len = 0};
			draw_inputs(&s, proc, &in);
			static buf req;
			req.len = 0;
			add(&req, "{\"procedure\": \"%s\", \"mode\": \"roll\", \"seed\": %d, \"inputs\": %s}", name, i,
			    in.text);
			char *out = NULL;
			fray_status st = fray_request(ctx, req.text, &out);
			if (st == FRAY_ERR_INPUT) {
				assert_null(out);
				if (getenv("TOLD_WHY")) print_message("%s\n", fray_ctx_message(ctx));
				continue; /* a combination the catalogue refuses */
			}
			if (st != FRAY_OK)
				fail_msg("%s: status %d: %s", req.text, (int)st, fray_ctx_message(ctx));
			fray_doc *doc = NULL;
			assert_int_equal(fray_doc_load_string(ctx, "response", out, strlen(out), &doc), FRAY_OK);
			const fray_node *events = fray_map_get(fray_doc_root(doc), "events");
			assert_non_null(events);
			tally t = {.each_roll = !strncmp(name, "adbg.", 5)};
			check_events(req.text, events, &t);
			if (must_total && t.rolls > 0 && t.totals == 0)
				fail_msg("%s: %d dice rolled and no total told", req.text, t.rolls);
			if (!must_total && t.modifiers + t.totals > 0)
				fail_msg("%s: listed as having no target number, yet tells %d terms and %d totals",
					 req.text, t.modifiers, t.totals);
			with_total += t.totals > 0;
			valid++;
			fray_doc_free(doc);
			free(out);
		}
		/* a good share of the drawn inputs must be runs, not refusals
		 * (TOLD_WHY=1 in the environment prints each refusal) */
		if (valid * 5 < runs)
			fail_msg("%s: only %d of %d drawn inputs were valid", name, valid, runs);
		if (must_total && with_total == 0)
			fail_msg("%s: no run told a total", name);
		print_message("%-26s %3d of %3d drawn inputs valid, %3d told a total\n", name, valid, runs,
			      with_total);
		checked++;
	}
	/* the lists name only procedures of the catalogue */
	if (named != sizeof no_target / sizeof no_target[0] + sizeof not_rolled / sizeof not_rolled[0])
		fail_msg("no_target or not_rolled names a procedure not in the catalogue");
	assert_true(checked >= 30);
	fray_doc_free(cat);
	free(json);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_procedure_tells_its_terms),
	};
	return cmocka_run_group_tests(tests, setup_in_source, teardown);
}
