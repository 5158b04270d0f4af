/* The two event renderers: narrative text and JSON. */
#include <stdio.h>
#include <string.h>
#include "internal.h"

/* snprintf into dst at *len, keeping count of what the whole needs */
static void put(char *dst, size_t cap, size_t *len, const char *fmt, ...)
	FRAY_PRINTF(4, 5);
static void put(char *dst, size_t cap, size_t *len, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *at = *len < cap ? dst + *len : NULL;
	size_t room = *len < cap ? cap - *len : 0;
	int n = vsnprintf(at, room, fmt, ap);
	va_end(ap);
	if (n > 0)
		*len += (size_t)n;
}

/* n bytes of p into dst at *len, as put(dst, cap, len, "%.*s", n, p) would
 * write them (cut to the room, always ended), without a format to parse */
static void put_bytes(char *dst, size_t cap, size_t *len, const char *p, size_t n)
{
	if (*len < cap) {
		size_t room = cap - *len - 1;
		size_t k = n < room ? n : room;
		memcpy(dst + *len, p, k);
		dst[*len + k] = '\0';
	}
	*len += n;
}

/* Runs of bytes that need no escape (printable ASCII but the quote and the
 * backslash, and whole UTF-8 sequences) go in one copy: a game of 2 MiB is
 * quoted whole in api/v1/game's answers (a vsnprintf a byte was most of
 * that answer's time). */
static void put_json_string(char *dst, size_t cap, size_t *len, const char *s)
{
	put_bytes(dst, cap, len, "\"", 1);
	const unsigned char *u = (const unsigned char *)s;
	const unsigned char *end = u + strlen(s);
	while (u < end) {
		const unsigned char *run = u;
		for (;;) {
			if (u < end && *u >= 0x20 && *u < 0x7F && *u != '"' && *u != '\\') {
				u++;
				continue;
			}
			size_t n = u < end && *u >= 0x80 ? frayi_utf8_len(u, (size_t)(end - u)) : 0;
			if (n > 1) {
				u += n;
				continue;
			}
			break;
		}
		put_bytes(dst, cap, len, (const char *)run, (size_t)(u - run));
		if (u == end)
			break;
		unsigned char c = *u++;
		if (c >= 0x80)
			put(dst, cap, len, "\\ufffd"); /* not UTF-8 */
		else if (c == '"' || c == '\\')
			put(dst, cap, len, "\\%c", c);
		else if (c == '\n')
			put(dst, cap, len, "\\n");
		else if (c == '\t')
			put(dst, cap, len, "\\t");
		else
			put(dst, cap, len, "\\u%04x", c);
	}
	put_bytes(dst, cap, len, "\"", 1);
}

FRAY_API size_t fray_json_string(const char *s, char *dst, size_t cap)
{
	size_t len = 0;
	if (cap)
		dst[0] = '\0';
	put_json_string(dst, cap, &len, s);
	return len;
}

static void put_dice(char *dst, size_t cap, size_t *len, const fray_event *ev)
{
	switch (ev->roll) {
	case FRAY_ROLL_DIE:
		put(dst, cap, len, "d%d", ev->sides);
		break;
	case FRAY_ROLL_SUCCESSES:
		put(dst, cap, len, "%dd%d needing %d+", ev->count, ev->sides, ev->need);
		break;
	case FRAY_ROLL_DRAW:
		put(dst, cap, len, "draw from %d", ev->count);
		break;
	case FRAY_ROLL_REROLL_ADD:
		put(dst, cap, len, "d%d!", ev->sides);
		break;
	case FRAY_ROLL_AT_MOST:
		put(dst, cap, len, "d%d", ev->sides);
		break;
	case FRAY_ROLL_COUNT_AT_MOST:
		put(dst, cap, len, "%dd%d showing %d or less", ev->count, ev->sides, ev->need);
		break;
	}
}

FRAY_API size_t fray_event_text(const fray_event *ev, char *dst, size_t cap)
{
	size_t len = 0;
	if (cap)
		dst[0] = '\0';
	const char *what = ev->what ? ev->what : "";
	switch (ev->kind) {
	case FRAY_EV_ROLL:
		put(dst, cap, &len, "%s: ", what);
		put_dice(dst, cap, &len, ev);
		if (ev->roll == FRAY_ROLL_SUCCESSES)
			put(dst, cap, &len, " -> %lld success%s", (long long)ev->value,
			    ev->value == 1 ? "" : "es");
		else if (ev->roll == FRAY_ROLL_AT_MOST)
			put(dst, cap, &len, " -> %lld (needs %d or less: %s)", (long long)ev->value,
			    ev->need, ev->value <= ev->need ? "yes" : "no");
		else if (ev->roll == FRAY_ROLL_DRAW && ev->text)
			put(dst, cap, &len, " -> %s", ev->text); /* fray_draw_named */
		else if (ev->roll == FRAY_ROLL_DRAW)
			put(dst, cap, &len, " -> item %lld", (long long)ev->value + 1); /* the caller names it */
		else if (ev->roll == FRAY_ROLL_REROLL_ADD && ev->value > ev->sides)
			put(dst, cap, &len, " -> %d, again %lld, total %lld", ev->sides,
			    (long long)ev->value - ev->sides, (long long)ev->value);
		else
			put(dst, cap, &len, " -> %lld", (long long)ev->value);
		break;
	case FRAY_EV_MODIFIER:
		put(dst, cap, &len, "%s: %+lld", what, (long long)ev->value);
		break;
	case FRAY_EV_RESULT:
		if (ev->text)
			put(dst, cap, &len, "%s: %s", what, ev->text);
		else
			put(dst, cap, &len, "%s: %lld", what, (long long)ev->value);
		break;
	case FRAY_EV_DECISION:
		put(dst, cap, &len, "%s: chose %s", what, ev->text ? ev->text : "?");
		break;
	case FRAY_EV_NOTE:
		put(dst, cap, &len, "%s", ev->text ? ev->text : "");
		break;
	case FRAY_EV_TOTAL:
		put(dst, cap, &len, "%s: %lld", what, (long long)ev->value);
		break;
	}
	if (ev->rule)
		put(dst, cap, &len, " [%s]", ev->rule);
	return len;
}

static const char *const kind_names[] = {"roll", "modifier", "result",
					 "decision", "note", "total"};
static const char *const roll_names[] = {"die", "successes", "draw",
					 "reroll_add", "at_most", "count_at_most"};

FRAY_API size_t fray_event_json(const fray_event *ev, char *dst, size_t cap)
{
	size_t len = 0;
	if (cap)
		dst[0] = '\0';
	put(dst, cap, &len, "{\"event\": \"%s\"", kind_names[ev->kind]);
	if (ev->what) {
		put(dst, cap, &len, ", \"what\": ");
		put_json_string(dst, cap, &len, ev->what);
	}
	if (ev->kind == FRAY_EV_ROLL) {
		put(dst, cap, &len, ", \"roll\": \"%s\", \"dice\": \"", roll_names[ev->roll]);
		put_dice(dst, cap, &len, ev);
		put(dst, cap, &len, "\"");
		if (ev->roll == FRAY_ROLL_AT_MOST)
			put(dst, cap, &len, ", \"at_most\": %d", ev->need);
	}
	if (ev->kind != FRAY_EV_NOTE)
		put(dst, cap, &len, ", \"value\": %lld", (long long)ev->value);
	if (ev->text) {
		put(dst, cap, &len, ", \"text\": ");
		put_json_string(dst, cap, &len, ev->text);
	}
	if (ev->rule) {
		put(dst, cap, &len, ", \"rule\": ");
		put_json_string(dst, cap, &len, ev->rule);
	}
	put(dst, cap, &len, "}");
	return len;
}
