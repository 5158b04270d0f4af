/* Events: every step of a procedure (a die rolled, a modifier with its rule,
 * a result, a decision) is an event. The text narrator and the JSON writer
 * are two renderers of the same events. Nothing is built or rendered when
 * no sink listens. */
#ifndef FRAY_EVENTS_H
#define FRAY_EVENTS_H

#include <stddef.h>
#include <stdint.h>

typedef enum fray_event_kind {
	FRAY_EV_ROLL = 0,     /* dice rolled: value is the result */
	FRAY_EV_MODIFIER = 1, /* a signed modifier applied: value */
	FRAY_EV_RESULT = 2,   /* an outcome of a step: value and/or text */
	FRAY_EV_DECISION = 3, /* a policy chose: text is the option taken */
	FRAY_EV_NOTE = 4,     /* narration only: text */
	/* A number a table or a die is read with (a hit number, a morale
	 * total's requirement, a column): value is the sum of the MODIFIER
	 * events since the previous TOTAL or the start of the procedure; a
	 * base value (the weapon's hit number, the level's 7) is told as a
	 * MODIFIER too, so the terms told always add up to the total. */
	FRAY_EV_TOTAL = 5
} fray_event_kind;

/* Which primitive produced a ROLL event. */
typedef enum fray_roll_kind {
	FRAY_ROLL_DIE = 0,        /* one die of `sides` */
	FRAY_ROLL_SUCCESSES = 1,  /* `count` dice of `sides`, value = how many >= need */
	FRAY_ROLL_DRAW = 2,       /* one item drawn from a pool of `count`: value = category */
	FRAY_ROLL_REROLL_ADD = 3, /* one die, rolled again and added on its top face */
	FRAY_ROLL_AT_MOST = 4,    /* one die against a target: value the face, need the target */
	FRAY_ROLL_COUNT_AT_MOST = 5 /* `count` dice, value = how many show `need` or less */
} fray_roll_kind;

/* All pointers are borrowed and valid only during the sink call. */
typedef struct fray_event {
	fray_event_kind kind;
	const char *what;  /* short label: "fire die", "range DM" */
	const char *rule;  /* rule reference ("ADBG 19.2.1", "ruling R5") or NULL */
	const char *text;  /* RESULT / DECISION / NOTE words, or NULL */
	int64_t value;
	/* ROLL only: */
	fray_roll_kind roll;
	int sides;
	int count;
	int need;
} fray_event;

typedef void (*fray_event_sink)(void *ud, const fray_event *ev);

/* Render one event as a line of narrative (no newline) or as one JSON
 * object, into dst of cap bytes, always NUL-terminated when cap > 0.
 * Return the length the whole rendering needs, like snprintf: a result
 * >= cap means it was cut. */
size_t fray_event_text(const fray_event *ev, char *dst, size_t cap);
size_t fray_event_json(const fray_event *ev, char *dst, size_t cap);

/* Writes s as a JSON string literal (quotes and escapes) into dst; same
 * return convention. Invalid UTF-8 bytes become U+FFFD. */
size_t fray_json_string(const char *s, char *dst, size_t cap);

/* Writes s as text safe for a terminal into dst; same return convention
 * (what does not fit is cut, byte-wise, at cap - 1). Names come from files
 * people share: every control character is shown, never obeyed. A C0
 * control or DEL becomes "\xNN", a C1 control (U+0080..U+009F) or a
 * bidirectional control (U+061C, U+200E, U+200F, U+202A..U+202E,
 * U+2066..U+2069, which reorder a line) "\uNNNN", hex in lower case; a
 * newline and a tab are escaped too, so a name cannot forge a line. Every
 * other byte passes as it is. NULL s: as "". */
size_t fray_term_string(const char *s, char *dst, size_t cap);

#endif
