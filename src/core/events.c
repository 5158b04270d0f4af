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

static void put_json_string(char *dst, size_t cap, size_t *len, const char *s)
{
	put(dst, cap, len, "\"");
	const unsigned char *u = (const unsigned char *)s;
	const unsigned char *end = u + strlen(s);
	while (*u) {
		size_t n = frayi_utf8_len(u, (size_t)(end - u));
		if (n == 0) {
			put(dst, cap, len, "\\ufffd");
			u++;
		} else if (n > 1) {
			put(dst, cap, len, "%.*s", (int)n, (const char *)u);
			u += n;
		} else {
			unsigned char c = *u++;
			if (c == '"' || c == '\\')
				put(dst, cap, len, "\\%c", c);
			else if (c == '\n')
				put(dst, cap, len, "\\n");
			else if (c == '\t')
				put(dst, cap, len, "\\t");
			else if (c < 0x20 || c == 0x7F)
				put(dst, cap, len, "\\u%04x", c);
			else
				put(dst, cap, len, "%c", c);
		}
	}
	put(dst, cap, len, "\"");
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
