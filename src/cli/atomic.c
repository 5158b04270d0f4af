/* Files fray writes are written whole or not at all: to a temporary file
 * in the same folder, fsync'd, then renamed into place (rename is atomic
 * within a file system), and the folder fsync'd so the rename lasts. Only
 * regular files are replaced, keeping their mode, and never an input of
 * the same run (cli_output_check). */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cli.h"

int cli_output_check(const char *cmd, const fray_ctx *ctx, const char *path, const char *option,
		     const char *allow)
{
	struct stat st, al;
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

bool cli_write_atomic(const char *path, const char *data, size_t len)
{
	char tmp[4096], dir[4096];
	if (snprintf(tmp, sizeof tmp, "%s.tmp-XXXXXX", path) >= (int)sizeof tmp) {
		errno = ENAMETOOLONG;
		return false;
	}
	/* only a regular file is replaced, and it keeps its mode; a new file
	 * gets the mode any program's new file gets (0666 less the umask) */
	struct stat old;
	mode_t mode;
	if (lstat(path, &old) == 0) {
		if (!S_ISREG(old.st_mode)) {
			errno = EEXIST;
			return false;
		}
		mode = old.st_mode & 07777;
	} else {
		mode_t mask = umask(0);
		umask(mask);
		mode = 0666 & ~mask;
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
	if (ok && rename(tmp, path) != 0)
		ok = false;
	if (!ok) {
		saved = errno ? errno : saved;
		unlink(tmp);
		errno = saved;
		return false;
	}
	snprintf(dir, sizeof dir, "%s", path);
	char *slash = strrchr(dir, '/');
	if (slash)
		*(slash == dir ? slash + 1 : slash) = '\0';
	else
		snprintf(dir, sizeof dir, ".");
	int dfd = open(dir, O_RDONLY | O_DIRECTORY);
	if (dfd >= 0) {
		fsync(dfd);
		close(dfd);
	}
	return true;
}
