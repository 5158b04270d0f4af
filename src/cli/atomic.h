/* Files fray makes or updates while other frays may do the same
 * (atomic.c; cli_write_atomic, in cli.h, replaces a file whole). */
#ifndef FRAY_CLI_ATOMIC_H
#define FRAY_CLI_ATOMIC_H

#include <stdbool.h>
#include <stddef.h>
#include "cli.h"

/* Writes len bytes to path as a new file, never over a file that exists,
 * not even one made while this ran: a temporary beside it, flushed to
 * disk, then put in place with no-replace semantics (renameat2's
 * RENAME_NOREPLACE, else link). False with errno set, EEXIST when path
 * is there; nothing of ours is left behind then. */
bool cli_write_new(const char *path, const char *data, size_t len);

/* Moves the file from to path unless path exists (the same no-replace
 * step), and flushes the folder. False with errno set (EEXIST); from is
 * left as it was then. */
bool cli_rename_new(const char *from, const char *path);

/* Makes an empty file beside path (path.tmp-new-XXXXXX, its name in tmp)
 * with the mode a new file gets, for a writer that can only replace a
 * file (cli_write_atomic) to fill before cli_rename_new puts it in place.
 * False with errno set. */
bool cli_temp_beside(const char *path, char *tmp, size_t cap);

/* A file read, changed and written whole (a game file) by one fray at a
 * time. Opens path (never through a symbolic link, never a FIFO, a device
 * or a folder), waits for its lock (flock on the file itself; at most
 * CLI_LOCK_WAIT_S seconds for one holder) and, once it has it, checks that path still
 * names the file it opened: a fray that held the lock before may have
 * renamed a new file into place, whose content this one must read. On
 * EXIT_OK, *fd holds the lock until it is closed (after the rename) and
 * *text (malloc'd, *len bytes, at most FRAY_DOC_MAX_BYTES + 1) is the
 * file as it is. Otherwise a message named cmd, and 2 for a name that
 * cannot be updated (standard input "-", a link, not there, not a regular
 * file) or 1 for the machine (the wait ran out, a read failed). */
#define CLI_LOCK_WAIT_S 30
int cli_open_locked(const char *cmd, const char *path, int *fd, char **text, size_t *len);

/* The file this run last wrote (cli_write_atomic, cli_write_new,
 * cli_rename_new), or NULL: main tells a run that wrote a file and then
 * could not print from one that did nothing (EXIT_SAVED_UNPRINTED). */
const char *cli_written(void);

/* After a file was written, what fray prints about it did not reach
 * standard output (a full disk, /dev/full, a closed pipe): reports it
 * ("saved WHAT; could not print the result ...") and
 * returns EXIT_SAVED_UNPRINTED, so that a caller that retries on failure
 * does not do the work twice. EXIT_OK when the output went out. */
int cli_check_printed(const char *cmd, const char *what);

#endif
