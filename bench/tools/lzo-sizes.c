// SPDX-License-Identifier: GPL-2.0
/*
 * lzo-sizes: print the size zram would store for each 4 KiB page of its
 * input, one decimal number a line.
 *
 * Each page is compressed with lzorle1x_1_compress(), zram's default
 * "lzo-rle", taken from the kernel's own lib/lzo/lzo1x_compress.c, which
 * the build compiles in beside this file (see bench/bench.mk).  Like zram:
 *  - a page that is one machine word repeated is skipped (zram keeps it in
 *    its table as "same filled" and never calls the allocator);
 *  - a page that compresses to more than HUGE bytes is stored whole, so its
 *    size is printed as 4096.
 * Every page is decompressed again with the kernel's lzo1x_decompress_safe()
 * and compared, so a broken shim cannot go unnoticed.
 * A file's last partial page is zero padded, as in the page cache.
 *
 *   lzo-sizes [-H HUGE] FILE...      pages of each file
 *   lzo-sizes [-H HUGE] -           a stream of pages on stdin
 *
 * Counts go to stderr: pages, same-filled pages, huge pages.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <fcntl.h>
#include <linux/lzo.h>

#define PAGE 4096

static unsigned long nr_pages, nr_same, nr_huge;
static size_t huge = PAGE * 3 / 4;

/* zram's page_same_filled(): every unsigned long equal to the first. */
static int same_filled(const unsigned char *p)
{
	const unsigned long *w = (const unsigned long *)p;
	size_t i;

	for (i = 1; i < PAGE / sizeof(*w); i++)
		if (w[i] != w[0])
			return 0;
	return 1;
}

static void one_page(const unsigned char *page)
{
	static unsigned char wrk[LZO1X_1_MEM_COMPRESS];
	static unsigned char out[2 * PAGE];	/* zram's buffer: two pages */
	static unsigned char back[PAGE];
	size_t len = sizeof(out), back_len = PAGE;

	nr_pages++;
	if (same_filled(page)) {
		nr_same++;
		return;
	}
	if (lzorle1x_1_compress(page, PAGE, out, &len, wrk) != LZO_E_OK) {
		fprintf(stderr, "lzo-sizes: compression failed\n");
		exit(1);
	}
	if (lzo1x_decompress_safe(out, len, back, &back_len) != LZO_E_OK ||
	    back_len != PAGE || memcmp(back, page, PAGE)) {
		fprintf(stderr, "lzo-sizes: round trip mismatch\n");
		exit(1);
	}
	if (len > huge) {
		nr_huge++;
		len = PAGE;
	}
	printf("%zu\n", len);
}

/* Read whole pages from fd; zero pad the last one. */
static int pages_of(int fd, const char *name)
{
	static unsigned char page[PAGE];
	size_t have = 0;
	ssize_t n;

	for (;;) {
		n = read(fd, page + have, PAGE - have);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			perror(name);
			return -1;
		}
		if (n == 0)
			break;
		have += n;
		if (have == PAGE) {
			one_page(page);
			have = 0;
		}
	}
	if (have) {
		memset(page + have, 0, PAGE - have);
		one_page(page);
	}
	return 0;
}

int main(int argc, char **argv)
{
	int i = 1, fd, err = 0;

	if (argc > 2 && !strcmp(argv[1], "-H")) {
		huge = strtoul(argv[2], NULL, 0);
		i = 3;
	}
	if (i >= argc) {
		fprintf(stderr, "usage: lzo-sizes [-H HUGE] FILE...|-\n");
		return 2;
	}
	for (; i < argc; i++) {
		if (!strcmp(argv[i], "-")) {
			err |= pages_of(0, "stdin");
			continue;
		}
		fd = open(argv[i], O_RDONLY);
		if (fd < 0) {
			perror(argv[i]);
			err = 1;
			continue;
		}
		err |= pages_of(fd, argv[i]);
		close(fd);
	}
	fprintf(stderr, "lzo-sizes: pages=%lu same=%lu huge=%lu\n",
		nr_pages, nr_same, nr_huge);
	return err ? 1 : 0;
}
