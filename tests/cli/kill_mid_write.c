/* Preloaded into fray by kill_mid_write.sh: the first write to a file fray
 * is writing atomically (its temporary, "*.tmp-*") writes half the bytes
 * and kills the process, as a crash or a power cut would. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

ssize_t write(int fd, const void *buf, size_t n)
{
	static ssize_t (*real)(int, const void *, size_t);
	if (!real)
		real = (ssize_t (*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
	char link[64], target[4096];
	snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
	ssize_t len = readlink(link, target, sizeof target - 1);
	if (len > 0) {
		target[len] = '\0';
		if (strstr(target, ".tmp-")) {
			real(fd, buf, n / 2);
			raise(SIGKILL);
		}
	}
	return real(fd, buf, n);
}
