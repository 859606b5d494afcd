// SPDX-License-Identifier: GPL-2.0
/*
 * memhog: fill memory with recognisable, partly compressible data, then read
 * every byte back and check it.  Run with more memory than the guest has, so
 * that the data goes through swap (zram or zswap) and comes back.
 *
 * Each 4 KiB page is a function of (seed, page index): a header naming the
 * page, then one of four kinds of content, so that compressed sizes spread
 * over the whole range an allocator for compressed pages must serve:
 *   text-like (very compressible), half random, mostly random, and words
 *   from a small alphabet (medium).
 *
 * Usage: memhog MIB [SEED [PASSES]]
 * Prints "memhog: pages=N mismatched_pages=M" and exits 1 on any mismatch.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define PAGE 4096

static uint64_t mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 33;
	return x;
}

static void fill_page(unsigned char *p, uint64_t seed, uint64_t idx)
{
	uint64_t state = mix(seed ^ (idx * 0x9e3779b97f4a7c15ULL));
	static const char words[] = "the quick brown fox jumps over a lazy dog ";
	unsigned int kind = state & 3, i, random_from;

	memcpy(p, &idx, sizeof(idx));
	memcpy(p + 8, &seed, sizeof(seed));
	random_from = kind == 1 ? PAGE / 2 : kind == 2 ? PAGE / 8 : PAGE;
	for (i = 16; i < PAGE; i++) {
		if (i >= random_from) {
			if ((i & 7) == 0)
				state = mix(state + i);
			p[i] = state >> ((i & 7) * 8);
		} else if (kind == 3) {
			if ((i & 15) == 0)
				state = mix(state + i);
			p[i] = words[(state >> (i & 15)) % (sizeof(words) - 1)];
		} else {
			p[i] = words[(i + idx) % (sizeof(words) - 1)];
		}
	}
}

int main(int argc, char **argv)
{
	unsigned long mib, pages, i, bad = 0, pass, passes;
	unsigned char expect[PAGE], *mem;
	uint64_t seed;

	if (argc < 2) {
		fprintf(stderr, "usage: memhog MIB [SEED [PASSES]]\n");
		return 2;
	}
	mib = strtoul(argv[1], NULL, 0);
	seed = argc > 2 ? strtoull(argv[2], NULL, 0) : 1;
	passes = argc > 3 ? strtoul(argv[3], NULL, 0) : 1;
	pages = mib * (1024 * 1024 / PAGE);
	mem = mmap(NULL, pages * PAGE, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED) {
		perror("memhog: mmap");
		return 2;
	}
	for (i = 0; i < pages; i++)
		fill_page(mem + i * PAGE, seed, i);
	for (pass = 0; pass < passes; pass++) {
		for (i = 0; i < pages; i++) {
			fill_page(expect, seed, i);
			if (memcmp(mem + i * PAGE, expect, PAGE)) {
				if (bad < 5)
					fprintf(stderr, "memhog: page %lu differs\n", i);
				bad++;
			}
		}
	}
	printf("memhog: pages=%lu passes=%lu mismatched_pages=%lu\n", pages,
	       passes, bad);
	return bad ? 1 : 0;
}
