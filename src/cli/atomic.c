/* Files fray writes are written whole or not at all: to a temporary file
 * in the same folder, fsync'd, then renamed into place (rename is atomic
 * within a file system), and the folder fsync'd so the rename lasts. Only
 * regular files are replaced, keeping their mode, and never an input of
 * the same run (cli_output_check). A new file is put in place with
 * no-replace semantics (cli_write_new); a file updated in place (a game
 * file) is read and renamed over under a lock (cli_open_locked). */
#define _GNU_SOURCE /* renameat2, RENAME_NOREPLACE */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "atomic.h"
#include "read_game.h"

int cli_output_check(const char *cmd, const fray_ctx *ctx, const char *path, const char *option,
		     const char *allow)
{
	struct stat st, al;
	/* "-" reads standard input elsewhere; an output named so would be a
	 * file called "-" that no one meant */
	if (!strcmp(path, "-"))
		return cli_error(cmd, EXIT_BAD_INPUT, "%s -: fray writes a file here, not standard output; name "
				 "one (./- for a file called -)", option);
	if (lstat(path, &st) != 0)
		return EXIT_OK; /* a new file */
	if (!S_ISREG(st.st_mode))
		return cli_error(cmd, EXIT_BAD_INPUT, "%s %s: not a regular file (a link, a folder, a "
				 "device or a FIFO); fray replaces only regular files", option, path);
	bool allowed = allow && stat(allow, &al) == 0 && al.st_dev == st.st_dev && al.st_ino == st.st_ino;
	if (!allowed && fray_ctx_has_read(ctx, path))
		return cli_error(cmd, EXIT_BAD_INPUT, "%s %s: that is a file this run reads; fray will "
				 "not write over it (choose another file)", option, path);
	return EXIT_OK;
}

/* The last file written, for main's exit status (cli_written). */
static char written[4096];
static bool wrote;

const char *cli_written(void)
{
	return wrote ? written : NULL;
}

static void note_written(const char *path)
{
	snprintf(written, sizeof written, "%s", path);
	wrote = true;
}

/* The folder path is in, fsync'd so that a rename into it lasts. */
static void sync_folder(const char *path)
{
	char dir[4096];
	snprintf(dir, sizeof dir, "%s", path);
	char *slash = strrchr(dir, '/');
	if (slash)
		*(slash == dir ? slash + 1 : slash) = '\0';
	else
		snprintf(dir, sizeof dir, ".");
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd >= 0) {
		fsync(dfd);
		close(dfd);
	}
}

/* Writes data to a new temporary file beside path (its name in tmp), with
 * the given mode, flushed to disk. False with errno set, nothing left. */
static bool write_temp(const char *path, const char *data, size_t len, mode_t mode, char *tmp, size_t cap)
{
	if (snprintf(tmp, cap, "%s.tmp-XXXXXX", path) >= (int)cap) {
		errno = ENAMETOOLONG;
		return false;
	}
	int fd = mkstemp(tmp);
	if (fd < 0)
		return false;
	bool ok = fchmod(fd, mode) == 0;
	for (size_t done = 0; ok && done < len;) {
		ssize_t n = write(fd, data + done, len - done);
		if (n < 0 && errno == EINTR)
			continue;
		ok = n > 0;
		done += n > 0 ? (size_t)n : 0;
	}
	ok = ok && fsync(fd) == 0;
	int saved = errno;
	ok = close(fd) == 0 && ok;
	if (!ok) {
		saved = errno ? errno : saved;
		unlink(tmp);
		errno = saved;
	}
	return ok;
}

/* The mode any program's new file gets: 0666 less the umask. */
static mode_t new_file_mode(void)
{
	mode_t mask = umask(0);
	umask(mask);
	return 0666 & ~mask;
}

bool cli_write_atomic(const char *path, const char *data, size_t len)
{
	char tmp[4096];
	/* only a regular file is replaced, and it keeps its mode */
	struct stat old;
	mode_t mode;
	if (lstat(path, &old) == 0) {
		if (!S_ISREG(old.st_mode)) {
			errno = EEXIST;
			return false;
		}
		mode = old.st_mode & 07777;
	} else {
		mode = new_file_mode();
	}
	if (!write_temp(path, data, len, mode, tmp, sizeof tmp))
		return false;
	if (rename(tmp, path) != 0) {
		int saved = errno;
		unlink(tmp);
		errno = saved;
		return false;
	}
	sync_folder(path);
	note_written(path);
	return true;
}

bool cli_rename_new(const char *from, const char *path)
{
	/* renameat2 puts from in place only if path is not there, in one
	 * step; where the file system or the kernel cannot, link does the
	 * same (it never replaces), and from is removed after */
	int r = renameat2(AT_FDCWD, from, AT_FDCWD, path, RENAME_NOREPLACE);
	if (r != 0 && (errno == EINVAL || errno == ENOSYS || errno == ENOTSUP)) {
		r = link(from, path);
		if (r == 0)
			unlink(from);
	}
	if (r != 0)
		return false;
	sync_folder(path);
	note_written(path);
	return true;
}

bool cli_temp_beside(const char *path, char *tmp, size_t cap)
{
	if (snprintf(tmp, cap, "%s.tmp-new-XXXXXX", path) >= (int)cap) {
		errno = ENAMETOOLONG;
		return false;
	}
	int fd = mkstemp(tmp);
	if (fd < 0)
		return false;
	bool ok = fchmod(fd, new_file_mode()) == 0;
	int saved = errno;
	ok = close(fd) == 0 && ok;
	if (!ok) {
		saved = errno ? errno : saved;
		unlink(tmp);
		errno = saved;
		return false;
	}
	return true;
}

bool cli_write_new(const char *path, const char *data, size_t len)
{
	char tmp[4096];
	if (!write_temp(path, data, len, new_file_mode(), tmp, sizeof tmp))
		return false;
	if (!cli_rename_new(tmp, path)) {
		int saved = errno;
		unlink(tmp);
		errno = saved;
		return false;
	}
	return true;
}

/* ---- a file updated in place, one fray at a time ----
 *
 * The lock is flock on the game file itself, not on a sibling G.lock
 * (which would be left beside every game, and could be a link planted
 * there) nor on the folder (which would serialise every game in it). A
 * writer renames a new file over the path, so the lock it held stays
 * with the old inode: a fray that was waiting gets that old lock, sees
 * that the path now names another file, and starts again on the new
 * one. flock (not fcntl's locks) because it belongs to the open file, not
 * to the process: the loader opening and closing the same path cannot
 * drop it. The lock is advisory: it orders frays, not other editors. */

static int open_failed(const char *cmd, const char *path)
{
	if (errno == ELOOP)
		return cli_error(cmd, EXIT_BAD_INPUT, "%s: a symbolic link; fray updates a game file only where "
				 "it is (give the file the link points to; nothing was done)", path);
	return cli_error(cmd, EXIT_BAD_INPUT, "%s: cannot open: %s (nothing was done)", path, strerror(errno));
}

/* Whether path still names the file open on fd (no fray renamed another
 * over it while this one waited for the lock). */
static bool still_there(int fd, const char *path)
{
	struct stat now, ours;
	return lstat(path, &now) == 0 && fstat(fd, &ours) == 0 && now.st_dev == ours.st_dev &&
	       now.st_ino == ours.st_ino;
}

static double seconds_since(const struct timespec *t0)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - t0->tv_sec) + (double)(t.tv_nsec - t0->tv_nsec) / 1e9;
}

/* Waits for the lock on fd: 1 when it has it; -1 when the holder renamed
 * a new file in meanwhile (its action is done: the caller opens the new
 * one, and the wait starts again, so many frays taking turns never run
 * out of time); 0 with errno set when it failed, or one holder kept it
 * CLI_LOCK_WAIT_S seconds (it may be asking at its terminal). Says once
 * that it waits. */
static int lock_within(const char *cmd, const char *path, int fd, const struct timespec *t0, bool *told)
{
	for (;;) {
		if (flock(fd, LOCK_EX | LOCK_NB) == 0)
			return 1;
		if (errno != EWOULDBLOCK && errno != EINTR)
			return 0;
		if (!still_there(fd, path))
			return -1;
		double waited = seconds_since(t0);
		if (waited >= CLI_LOCK_WAIT_S) {
			errno = EWOULDBLOCK;
			return 0;
		}
		if (waited >= 1 && !*told) {
			cli_error(cmd, EXIT_OK, "%s: another fray is playing it; waiting (at most %d s)", path,
				  CLI_LOCK_WAIT_S);
			*told = true;
		}
		nanosleep(&(struct timespec){.tv_nsec = 5 * 1000 * 1000}, NULL);
	}
}

int cli_open_locked(const char *cmd, const char *path, int *fd, char **text, size_t *len)
{
	*fd = -1;
	*text = NULL;
	*len = 0;
	if (!strcmp(path, "-"))
		return cli_error(cmd, EXIT_BAD_INPUT, "-: a game is read and written back to its file, and standard "
				 "input cannot be written; give the game file (./- for a file called -)");
	struct timespec t0;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	bool told = false;
	for (;;) {
		/* O_NOFOLLOW: a link is refused here, before anything is
		 * rolled; O_NONBLOCK: a FIFO does not hang the open */
		int f = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
		if (f < 0)
			return open_failed(cmd, path);
		struct stat st;
		if (fstat(f, &st) != 0 || !S_ISREG(st.st_mode)) {
			close(f);
			return cli_error(cmd, EXIT_BAD_INPUT, "%s: not a regular file (a folder, a device or a FIFO); "
					 "a game file is one (nothing was done)", path);
		}
		int locked = lock_within(cmd, path, f, &t0, &told);
		if (locked == 0) {
			int e = errno;
			close(f);
			return cli_error(cmd, EXIT_RUNTIME, "%s: %s (nothing was done)", path,
					 e == EWOULDBLOCK ? "another fray has held it too long" : strerror(e));
		}
		if (locked < 0 || !still_there(f, path)) {
			close(f); /* replaced while we waited: the new one, a new wait */
			clock_gettime(CLOCK_MONOTONIC, &t0);
			continue;
		}
		if (!read_game_fd(f, text, len)) {
			int e = errno;
			close(f);
			return cli_error(cmd, EXIT_RUNTIME, "%s: cannot read: %s (nothing was done)", path, strerror(e));
		}
		*fd = f;
		return EXIT_OK;
	}
}

int cli_check_printed(const char *cmd, const char *what)
{
	if (fflush(stdout) == 0 && !ferror(stdout))
		return EXIT_OK;
	int e = errno;
	cli_error(cmd, EXIT_SAVED_UNPRINTED, "saved %s; could not print the result (%s): do not run it again",
		  what, strerror(e));
	return EXIT_SAVED_UNPRINTED;
}
