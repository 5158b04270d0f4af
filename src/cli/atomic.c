/* Files fray writes are written whole or not at all: to a temporary file
 * in the same folder, fsync'd, then renamed into place (rename is atomic
 * within a file system), and the folder fsync'd so the rename lasts. And
 * the digest of a file fray reads, to notice when it changed. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"

bool cli_write_atomic(const char *path, const char *data, size_t len)
{
	char tmp[4096], dir[4096];
	if (snprintf(tmp, sizeof tmp, "%s.tmp-XXXXXX", path) >= (int)sizeof tmp) {
		errno = ENAMETOOLONG;
		return false;
	}
	int fd = mkstemp(tmp);
	if (fd < 0)
		return false;
	bool ok = true;
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

bool cli_file_fnv1a(const char *path, uint64_t *out)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return false;
	uint64_t h = 0xcbf29ce484222325u;
	int c;
	while ((c = fgetc(f)) != EOF)
		h = (h ^ (uint64_t)(unsigned char)c) * 0x100000001b3u;
	bool ok = !ferror(f);
	fclose(f);
	*out = h;
	return ok;
}
