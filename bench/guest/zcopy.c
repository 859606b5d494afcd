// SPDX-License-Identifier: GPL-2.0
/*
 * zcopy: copy SRC to DST in 1 MiB blocks and print how long it took, for
 * the guest's zram test (busybox's dd prints no time).  A block device is
 * opened O_DIRECT, so the time is zram's (compression and allocation on
 * write, decompression on read), not the page cache's.  DST is fsync()ed
 * inside the timed part.  Built static on the host by bench/run-bench.sh.
 *
 *   zcopy SRC DST [BYTES]   ->   zcopy: bytes=N ns=T mb_per_s=R
 *   zcopy -z DEV BYTES      ->   zcopy: zeroed_pages=N
 *
 * -z writes a page of zeros over every other 4 KiB page of DEV's first
 * BYTES (pages 0, 2, 4, ...): zram then keeps those as same-filled pages and frees their
 * objects, half of the pool's, spread over every size class.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define BLOCK (1 << 20)

static int open_for(const char *path, int flags)
{
	struct stat st;

	if (!stat(path, &st) && S_ISBLK(st.st_mode))
		flags |= O_DIRECT;
	return open(path, flags, 0644);
}

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static int zero_every_other_page(const char *dev, off_t size)
{
	unsigned long long pages = 0;
	off_t off;
	void *zero;
	int fd;

	fd = open_for(dev, O_WRONLY);
	if (fd < 0 || posix_memalign(&zero, 4096, 4096)) {
		perror("zcopy: open");
		return 1;
	}
	memset(zero, 0, 4096);
	for (off = 0; off + 4096 <= size; off += 2 * 4096, pages++) {
		if (pwrite(fd, zero, 4096, off) != 4096) {
			perror("zcopy: pwrite");
			return 1;
		}
	}
	if (fsync(fd)) {
		perror("zcopy: fsync");
		return 1;
	}
	printf("zcopy: zeroed_pages=%llu\n", pages);
	return 0;
}

int main(int argc, char **argv)
{
	unsigned long long limit = ~0ULL, done = 0, t0, ns;
	ssize_t n, w;
	void *buf;
	int in, out;

	if (argc == 4 && !strcmp(argv[1], "-z"))
		return zero_every_other_page(argv[2], strtoull(argv[3], NULL, 0));
	if (argc < 3) {
		fprintf(stderr, "usage: zcopy SRC DST [BYTES] | zcopy -z DEV BYTES\n");
		return 2;
	}
	if (argc > 3)
		limit = strtoull(argv[3], NULL, 0);
	in = open_for(argv[1], O_RDONLY);
	out = open_for(argv[2], O_WRONLY | O_CREAT | O_TRUNC);
	if (in < 0 || out < 0 || posix_memalign(&buf, 4096, BLOCK)) {
		perror("zcopy: open");
		return 1;
	}
	t0 = now_ns();
	while (done < limit) {
		size_t want = limit - done < BLOCK ? limit - done : BLOCK;

		n = read(in, buf, want);
		if (n < 0) {
			perror("zcopy: read");
			return 1;
		}
		if (n == 0)
			break;
		w = write(out, buf, n);
		if (w != n) {
			perror("zcopy: write");
			return 1;
		}
		done += n;
	}
	if (fsync(out)) {
		perror("zcopy: fsync");
		return 1;
	}
	ns = now_ns() - t0;
	printf("zcopy: bytes=%llu ns=%llu mb_per_s=%.2f\n", done, ns,
	       ns ? done / 1048576.0 / (ns / 1e9) : 0.0);
	return 0;
}
