/* The folder of games fray serve keeps (serve_store.h): names, the lock
 * fray table takes too, versions, atomic writes. */
#define _GNU_SOURCE /* mkostemp */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <fray/game.h>
#include "serve_store.h"
#include "read_game.h"

struct serve_store {
	pthread_mutex_t create;  /* one game made at a time: the folder's count holds */
	char dir[];
};

/* A game file's identity: a file renamed over it by another program is
 * another inode, one written in place another size or time. */
typedef struct file_id {
	unsigned long long dev, ino, size, sec, nsec;
} file_id;

static file_id id_of(const struct stat *st)
{
	return (file_id){(unsigned long long)st->st_dev, (unsigned long long)st->st_ino,
			 (unsigned long long)st->st_size, (unsigned long long)st->st_mtim.tv_sec,
			 (unsigned long long)st->st_mtim.tv_nsec};
}

static bool same_id(const file_id *a, const file_id *b)
{
	return !memcmp(a, b, sizeof *a);
}

serve_store *serve_store_new(const char *dir)
{
	size_t n = strlen(dir);
	serve_store *s = malloc(sizeof *s + n + 1);
	if (!s)
		return NULL;
	pthread_mutex_init(&s->create, NULL);
	memcpy(s->dir, dir, n + 1);
	while (n > 1 && s->dir[n - 1] == '/')
		s->dir[--n] = 0;
	return s;
}

void serve_store_free(serve_store *s)
{
	if (!s)
		return;
	pthread_mutex_destroy(&s->create);
	free(s);
}

const char *serve_store_dir(const serve_store *s)
{
	return s->dir;
}

bool serve_game_name_ok(const char *name)
{
	size_t n = 0;
	for (; name[n]; n++) {
		char c = name[n];
		bool word = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
		if (!word && (n == 0 || (c != '-' && c != '_')))
			return false;
		if (n >= SERVE_GAME_NAME_MAX)
			return false;
	}
	return n > 0;
}

static unsigned fail(char *msg, size_t cap, unsigned status, const char *fmt, const char *a, const char *b)
{
	snprintf(msg, cap, fmt, a, b);
	return status;
}

/* A game past FRAY_GAME_MAX_BYTES: 422, the budget said from the macro. */
static unsigned too_big(char *msg, size_t cap, const char *name, const char *how)
{
	snprintf(msg, cap, "%s: %sa game has at most %u KiB (FRAY_GAME_MAX_BYTES)", name, how,
		 (unsigned)(FRAY_GAME_MAX_BYTES / 1024));
	return 422;
}

static void path_of(const serve_store *s, const char *name, const char *ext, char *out, size_t cap)
{
	snprintf(out, cap, "%s/%s.%s", s->dir, name, ext);
}

/* ---- the version file ---- */

typedef struct versions {
	long long version;
	file_id file;
	bool known;              /* a version file was read (a game made by hand has none: version 1) */
	serve_change history[SERVE_GAME_HISTORY];
	size_t nhistory;
} versions;

static void read_versions(const serve_store *s, const char *name, versions *v)
{
	memset(v, 0, sizeof *v);
	v->version = 1;
	char path[4096], line[64 + SERVE_GAME_WHAT];
	path_of(s, name, "version", path, sizeof path);
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	FILE *f = fd >= 0 ? fdopen(fd, "r") : NULL;
	if (!f) {
		if (fd >= 0)
			close(fd);
		return;
	}
	if (fgets(line, sizeof line, f) && !strcmp(line, "fray-game-versions 1\n") && fgets(line, sizeof line, f) &&
	    sscanf(line, "version %lld", &v->version) == 1 && v->version >= 1 && v->version <= SERVE_VERSION_MAX &&
	    fgets(line, sizeof line, f) &&
	    sscanf(line, "file %llu %llu %llu %llu %llu", &v->file.dev, &v->file.ino, &v->file.size, &v->file.sec,
		   &v->file.nsec) == 5) {
		v->known = true;
		while (v->nhistory < SERVE_GAME_HISTORY && fgets(line, sizeof line, f)) {
			serve_change *c = &v->history[v->nhistory];
			int at = 0;
			if (sscanf(line, "%lld %n", &c->version, &at) != 1)
				break;
			snprintf(c->what, sizeof c->what, "%s", line + at);
			c->what[strcspn(c->what, "\n")] = 0;
			v->nhistory++;
		}
	}
	fclose(f);
	if (!v->known) /* no version file, or not one this server wrote: version 1 */
		memset(v, 0, sizeof *v), v->version = 1;
}

/* A temporary file in the folder with len bytes of data, flushed to disk;
 * its name in tmp and its identity in id. */
static bool write_temp(const serve_store *s, const char *name, const char *data, size_t len, char *tmp, size_t cap,
		       file_id *id)
{
	snprintf(tmp, cap, "%s/.%s.tmp-XXXXXX", s->dir, name);
	int fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		return false;
	size_t done = 0;
	while (done < len) {
		ssize_t w = write(fd, data + done, len - done);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			break;
		done += (size_t)w;
	}
	struct stat st;
	bool ok = done == len && fsync(fd) == 0 && fstat(fd, &st) == 0;
	if (ok && id)
		*id = id_of(&st);
	if (close(fd) != 0 || !ok) {
		unlink(tmp);
		return false;
	}
	return true;
}

/* The version file of v, put in place whole. */
static bool write_versions(const serve_store *s, const char *name, const versions *v)
{
	size_t cap = 128 + SERVE_GAME_HISTORY * (32 + SERVE_GAME_WHAT), n;
	char *text = malloc(cap);
	if (!text)
		return false;
	n = (size_t)snprintf(text, cap, "fray-game-versions 1\nversion %lld\nfile %llu %llu %llu %llu %llu\n",
			     v->version, v->file.dev, v->file.ino, v->file.size, v->file.sec, v->file.nsec);
	for (size_t i = 0; i < v->nhistory && n < cap; i++)
		n += (size_t)snprintf(text + n, cap - n, "%lld %s\n", v->history[i].version, v->history[i].what);
	char tmp[4096], path[4096];
	bool ok = write_temp(s, name, text, n < cap ? n : cap - 1, tmp, sizeof tmp, NULL);
	free(text);
	path_of(s, name, "version", path, sizeof path);
	if (ok && rename(tmp, path) != 0) {
		unlink(tmp);
		ok = false;
	}
	return ok;
}

/* One more version, newest first in the history; what made one line. */
static void add_version(versions *v, const char *what)
{
	memmove(&v->history[1], &v->history[0], (SERVE_GAME_HISTORY - 1) * sizeof v->history[0]);
	v->nhistory += v->nhistory < SERVE_GAME_HISTORY;
	v->version++;
	serve_change *c = &v->history[0];
	c->version = v->version;
	snprintf(c->what, sizeof c->what, "%s", what);
	for (char *p = c->what; *p; p++)
		if (*p == '\n' || *p == '\r')
			*p = ' ';
}

/* ---- the lock (cli_open_locked's, src/cli/atomic.c) ---- */

static bool still_there(int fd, const char *path)
{
	struct stat now, ours;
	return lstat(path, &now) == 0 && fstat(fd, &ours) == 0 && now.st_dev == ours.st_dev &&
	       now.st_ino == ours.st_ino;
}

static double since(const struct timespec *t0)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - t0->tv_sec) + (double)(t.tv_nsec - t0->tv_nsec) / 1e9;
}

unsigned serve_store_open(serve_store *s, const char *name, serve_held *h, char *msg, size_t cap)
{
	memset(h, 0, sizeof *h);
	h->fd = -1;
	if (!serve_game_name_ok(name))
		return fail(msg, cap, 400, "%s: not a game's name (1 to 32 of a-z, 0-9, - and _)%s", name, "");
	char path[4096];
	path_of(s, name, "yaml", path, sizeof path);
	struct timespec t0;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
		struct stat st;
		if (fd < 0)
			return errno == ENOENT ? fail(msg, cap, 404, "no game called %s%s", name, "")
					       : fail(msg, cap, 500, "%s: cannot open: %s", name, strerror(errno));
		if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
			close(fd);
			return fail(msg, cap, 500, "%s: not a regular file%s", name, "");
		}
		bool got = false, moved = false;
		while (!(got = flock(fd, LOCK_EX | LOCK_NB) == 0) && (errno == EWOULDBLOCK || errno == EINTR)) {
			if ((moved = !still_there(fd, path)) || since(&t0) >= SERVE_LOCK_WAIT_S)
				break;
			nanosleep(&(struct timespec){.tv_nsec = 5 * 1000 * 1000}, NULL);
		}
		if (got && !still_there(fd, path))
			moved = true; /* the holder renamed a new game over it: that one, a new wait */
		if (moved) {
			close(fd);
			clock_gettime(CLOCK_MONOTONIC, &t0);
			continue;
		}
		if (!got) {
			close(fd);
			return fail(msg, cap, 503, "busy: %s is held by another (fray table waiting at its prompt?); "
				    "ask again soon%s", name, "");
		}
		if (fstat(fd, &st) != 0 || !read_game_fd(fd, &h->text, &h->len)) {
			close(fd);
			return fail(msg, cap, 500, "%s: cannot read: %s", name, strerror(errno));
		}
		h->fd = fd;
		if (h->len > FRAY_GAME_MAX_BYTES) { /* put there by hand: never handed on cut short */
			serve_store_close(h);
			return too_big(msg, cap, name, "past a game's budget: ");
		}
		break;
	}
	versions v;
	read_versions(s, name, &v);
	struct stat st;
	file_id now = fstat(h->fd, &st) == 0 ? id_of(&st) : (file_id){0};
	if (!v.known || !same_id(&v.file, &now)) { /* made by hand, or changed by another program: recorded */
		if (v.known)
			add_version(&v, "changed outside the server (fray table on the same file?)");
		v.file = now;
		if (!write_versions(s, name, &v)) {
			serve_store_close(h);
			return fail(msg, cap, 500, "%s: cannot write its version file: %s", name, strerror(errno));
		}
	}
	h->version = v.version;
	h->nhistory = v.nhistory;
	memcpy(h->history, v.history, v.nhistory * sizeof v.history[0]);
	return 0;
}

void serve_store_close(serve_held *h)
{
	if (h->fd >= 0)
		close(h->fd);
	free(h->text);
	memset(h, 0, sizeof *h);
	h->fd = -1;
}

unsigned serve_store_write(serve_store *s, const char *name, serve_held *h, const char *text, size_t len,
			   const char *what, char *msg, size_t cap)
{
	if (len > FRAY_GAME_MAX_BYTES)
		return too_big(msg, cap, name, "");
	char *mine = malloc(len + 1);
	if (!mine)
		return fail(msg, cap, 503, "out of memory%s%s", "", "");
	memcpy(mine, text, len);
	mine[len] = 0;
	versions v = {.version = h->version, .known = true, .nhistory = h->nhistory};
	memcpy(v.history, h->history, h->nhistory * sizeof h->history[0]);
	char tmp[4096], path[4096];
	path_of(s, name, "yaml", path, sizeof path);
	if (!write_temp(s, name, text, len, tmp, sizeof tmp, &v.file)) {
		free(mine);
		return fail(msg, cap, 500, "%s: cannot write: %s", name, strerror(errno));
	}
	add_version(&v, what);
	/* the versions first, then the game: whoever takes the lock of the new
	 * file finds its version already recorded */
	if (!write_versions(s, name, &v) || rename(tmp, path) != 0) {
		int e = errno;
		unlink(tmp);
		free(mine);
		return fail(msg, cap, 500, "%s: cannot write: %s", name, strerror(e));
	}
	free(h->text);
	h->text = mine;
	h->len = len;
	h->version = v.version;
	h->nhistory = v.nhistory;
	memcpy(h->history, v.history, v.nhistory * sizeof v.history[0]);
	return 0;
}

/* The folder and its parents, as mkdir -p, for this user alone. */
static bool make_dir(const char *dir)
{
	char p[4096];
	snprintf(p, sizeof p, "%s", dir);
	for (char *c = p + 1; *c; c++)
		if (*c == '/') {
			*c = 0;
			if (mkdir(p, 0700) != 0 && errno != EEXIST)
				return false;
			*c = '/';
		}
	return mkdir(p, 0700) == 0 || errno == EEXIST;
}

unsigned serve_store_create(serve_store *s, const char *name, const char *text, size_t len, const char *what,
			    char *msg, size_t cap)
{
	if (!serve_game_name_ok(name))
		return fail(msg, cap, 400, "%s: not a game's name (1 to 32 of a-z, 0-9, - and _)%s", name, "");
	if (len > FRAY_GAME_MAX_BYTES)
		return too_big(msg, cap, name, "");
	pthread_mutex_lock(&s->create);
	unsigned status = 0;
	char tmp[4096], path[4096];
	path_of(s, name, "yaml", path, sizeof path);
	versions v = {.version = 0, .known = true};
	if (!make_dir(s->dir))
		status = fail(msg, cap, 500, "cannot make the games' folder %s: %s", s->dir, strerror(errno));
	else if (serve_store_list(s, NULL, SERVE_GAMES_MAX + 1) >= SERVE_GAMES_MAX)
		status = fail(msg, cap, 422, "this server keeps at most 64 games (SERVE_GAMES_MAX); "
			      "delete one from its folder first%s%s", "", "");
	else if (!write_temp(s, name, text, len, tmp, sizeof tmp, &v.file))
		status = fail(msg, cap, 500, "%s: cannot write: %s", name, strerror(errno));
	else if (link(tmp, path) != 0) { /* never over a game that exists */
		int e = errno;
		unlink(tmp);
		status = e == EEXIST ? fail(msg, cap, 409, "a game called %s exists already%s", name, "")
				     : fail(msg, cap, 500, "%s: cannot write: %s", name, strerror(e));
	} else {
		unlink(tmp);
		struct stat st;
		if (lstat(path, &st) == 0)
			v.file = id_of(&st); /* the link changed its time of change, not its identity: kept alike */
		add_version(&v, what);
		/* a reader between the link and this finds no version file and
		 * records version 1 itself: the same */
		if (!write_versions(s, name, &v))
			status = fail(msg, cap, 500, "%s: cannot write its version file: %s", name, strerror(errno));
	}
	pthread_mutex_unlock(&s->create);
	return status;
}

long long serve_store_version_now(serve_store *s, const char *name)
{
	char path[4096];
	struct stat st;
	path_of(s, name, "yaml", path, sizeof path);
	if (!serve_game_name_ok(name) || lstat(path, &st) != 0 || !S_ISREG(st.st_mode))
		return -1;
	versions v;
	read_versions(s, name, &v);
	file_id now = id_of(&st);
	return v.version + (v.known && !same_id(&v.file, &now));
}

static int by_name(const void *a, const void *b)
{
	return strcmp(a, b);
}

size_t serve_store_list(serve_store *s, char (*names)[SERVE_GAME_NAME_MAX + 1], size_t max)
{
	DIR *d = opendir(s->dir);
	if (!d)
		return 0;
	size_t n = 0;
	struct dirent *e;
	while (n < max && (e = readdir(d))) {
		size_t len = strlen(e->d_name);
		if (len <= 5 || len - 5 > SERVE_GAME_NAME_MAX || strcmp(e->d_name + len - 5, ".yaml") != 0)
			continue;
		char name[SERVE_GAME_NAME_MAX + 1];
		memcpy(name, e->d_name, len - 5);
		name[len - 5] = 0;
		if (!serve_game_name_ok(name))
			continue;
		if (names)
			memcpy(names[n], name, sizeof name);
		n++;
	}
	closedir(d);
	if (names)
		qsort(names, n, sizeof names[0], by_name);
	return n;
}
