/* The games fray serve keeps (issue 43 item 1): a folder of game files,
 * each NAME.yaml exactly the file `fray table` reads and writes, beside
 * NAME.version, the game's version and what happened at each of the
 * latest ones. The API over it is serve_games.h; this file is the folder:
 * names, locks, versions, atomic writes. No HTTP here.
 *
 * One writer at a time per game, the server's workers and `fray table`
 * alike: the lock is flock on the game file itself, as
 * src/cli/atomic.c's cli_open_locked takes it (a writer renames a new file
 * over the path; one that waited on the old file sees the path names
 * another and starts again on it). The version file is written only under
 * that lock and before the game file is renamed into place, so whoever
 * holds the lock next finds both current. A game file changed by another
 * program (`fray table` on the same file) is noticed by its identity
 * (device, inode, size, time) differing from what the version file
 * recorded: one more version, "changed outside the server". */
#ifndef FRAY_SERVE_STORE_H
#define FRAY_SERVE_STORE_H

#include <stdbool.h>
#include <stddef.h>

/* a game's version: 1 up to what a JavaScript number holds exactly (the
 * page reads it as one); a version file or a query past it is refused */
#define SERVE_VERSION_MAX 9007199254740991LL
#define SERVE_GAME_NAME_MAX 32  /* a name: a short word, 1 to 32 of a-z 0-9 - _ */
#define SERVE_GAMES_MAX 64      /* games in one folder: a new one past it is refused (422) */
#define SERVE_GAME_HISTORY 32   /* the latest versions whose change is told (a 409's "since") */
#define SERVE_GAME_WHAT 160     /* a change told in at most this many bytes */
#define SERVE_LOCK_WAIT_S 10    /* a worker waits this long for a game's lock (fray table at its prompt), then 503 */

typedef struct serve_store serve_store;

typedef struct serve_change {
	long long version;
	char what[SERVE_GAME_WHAT];
} serve_change;

/* A game opened under its lock: its text and its versions. */
typedef struct serve_held {
	int fd;                 /* holds the lock until serve_store_close */
	char *text;             /* malloc'd, len bytes, NUL-terminated */
	size_t len;
	long long version;
	serve_change history[SERVE_GAME_HISTORY]; /* the newest first */
	size_t nhistory;
} serve_held;

/* The folder dir (copied; made, with its parents, when the first game is
 * made, not before). NULL when out of memory. */
serve_store *serve_store_new(const char *dir);
void serve_store_free(serve_store *s);
const char *serve_store_dir(const serve_store *s);

/* Whether name is a game's name: 1 to SERVE_GAME_NAME_MAX of a-z, 0-9,
 * '-' and '_', starting with a letter or a digit (so no path, no dot, no
 * hidden file, the same on every file system). */
bool serve_game_name_ok(const char *name);

/* The functions below return 0 on success, else the HTTP status of the
 * failure with its message in msg: 404 no such game, 409 a game of that
 * name exists, 422 a budget (the folder's SERVE_GAMES_MAX games, the
 * game's FRAY_GAME_MAX_BYTES), 503 the lock held past SERVE_LOCK_WAIT_S,
 * 500 the machine (a folder that cannot be made, a full disk). */

/* Opens name, waits for its lock and reads it (an outside change counted
 * as a new version first). On success h holds the lock: serve_store_close. */
unsigned serve_store_open(serve_store *s, const char *name, serve_held *h, char *msg, size_t cap);
/* Releases the lock and frees h's text. h zeroed: no-op. */
void serve_store_close(serve_held *h);
/* Replaces the game h holds with text as version h->version + 1, what it
 * did told by what; h then holds the new text and version (the lock stays
 * until serve_store_close). Nothing changed on failure. */
unsigned serve_store_write(serve_store *s, const char *name, serve_held *h, const char *text, size_t len,
			   const char *what, char *msg, size_t cap);
/* Makes the game name with text, version 1; never over a game that
 * exists (409), not even one made meanwhile. */
unsigned serve_store_create(serve_store *s, const char *name, const char *text, size_t len, const char *what,
			    char *msg, size_t cap);
/* The game's version as it stands, looked at without the lock (the
 * version file, and one more when the game file is not the one it
 * recorded): -1 when there is no such game. For waiting clients: a change
 * is seen here at once, its text read under the lock. */
long long serve_store_version_now(serve_store *s, const char *name);
/* The names of the games in the folder, sorted, at most max; the count. */
size_t serve_store_list(serve_store *s, char (*names)[SERVE_GAME_NAME_MAX + 1], size_t max);

#endif
