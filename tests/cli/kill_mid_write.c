/* Preloaded into fray by kill_mid_write.sh: the first write to a file fray
 * is writing atomically (its temporary, "*.tmp-*") writes half the bytes
 * and kills the process, as a crash or a power cut would.
 *
 * With KILL_MID_WRITE_MAKE=PATH in the environment it kills nothing:
 * instead, at that first write, it makes PATH (as another program would,
 * between fray's check that PATH is free and its putting the new file in
 * place), so the test sees whether fray then writes over it. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void make_other(ssize_t (*real)(int, const void *, size_t), const char *path)
{
	static const char text[] = "made by another program\n";
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
	if (fd >= 0) {
		real(fd, text, sizeof text - 1);
		close(fd);
	}
}

ssize_t write(int fd, const void *buf, size_t n)
{
	static ssize_t (*real)(int, const void *, size_t);
	static int done;
	if (!real)
		real = (ssize_t (*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
	char link[64], target[4096];
	snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
	ssize_t len = done ? 0 : readlink(link, target, sizeof target - 1);
	if (len > 0) {
		target[len] = '\0';
		if (strstr(target, ".tmp-")) {
			const char *make = getenv("KILL_MID_WRITE_MAKE");
			if (make) {
				done = 1;
				make_other(real, make);
				return real(fd, buf, n);
			}
			real(fd, buf, n / 2);
			raise(SIGKILL);
		}
	}
	return real(fd, buf, n);
}
