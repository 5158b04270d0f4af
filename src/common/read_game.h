/* A game file read whole from an open descriptor, for the two programs
 * that hold a game file under its lock: the fray command (src/cli/atomic.c)
 * and fray serve's kept games (src/serve/serve_store.c). A header of one
 * static function: nothing to link. */
#ifndef FRAY_COMMON_READ_GAME_H
#define FRAY_COMMON_READ_GAME_H

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <unistd.h>
#include <fray/game.h>

/* At most the game file's budget, FRAY_GAME_MAX_BYTES, + 1 bytes (the
 * library refuses a larger one with its own message); *text malloc'd and
 * NUL-terminated, *len its bytes. false: a read failed or no memory. */
static inline bool read_game_fd(int fd, char **text, size_t *len)
{
	size_t cap = (size_t)FRAY_GAME_MAX_BYTES + 2, n = 0;
	char *buf = malloc(cap);
	if (!buf)
		return false;
	while (n < cap - 1) {
		ssize_t r = read(fd, buf + n, cap - 1 - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			free(buf);
			return false;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	buf[n] = '\0';
	*text = buf;
	*len = n;
	return true;
}

#endif
