/* train.c is the training run of scripts/cpgo.sh: it parses each C file
 * named in the list file argv[1] (one path per line) argv[2] times with
 * the C grammar, through jsec_parse, the entry point jsec's Go code calls,
 * so that the instrumented runtime, flattening and grammar record where a
 * real parse goes. It prints what it parsed; a file it cannot read is
 * skipped. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "flatten.h"

const TSLanguage *jsec_tree_sitter_c(void);

static char *read_file(const char *path, long *len) {
	FILE *f = fopen(path, "rb");
	if (!f) return NULL;
	char *buf = NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (*len = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
		(buf = malloc((size_t)*len + 1)) && fread(buf, 1, (size_t)*len, f) != (size_t)*len) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

int main(int argc, char **argv) {
	if (argc != 3) {
		fprintf(stderr, "usage: %s LIST ROUNDS\n", argv[0]);
		return 2;
	}
	FILE *list = fopen(argv[1], "r");
	if (!list) {
		perror(argv[1]);
		return 1;
	}
	int rounds = atoi(argv[2]);
	jsec_init_allocator(1);
	const TSLanguage *lang = jsec_tree_sitter_c();
	jsec_densify(lang);
	jsec_buf b;
	memset(&b, 0, sizeof b);
	char path[4096];
	long files = 0, bytes = 0, nodes = 0;
	while (fgets(path, sizeof path, list)) {
		path[strcspn(path, "\n")] = 0;
		long len = 0;
		char *src = read_file(path, &len);
		if (!src) continue;
		for (int r = 0; r < rounds; r++) {
			if (jsec_parse(lang, &b, src, (uint32_t)len, NULL, 0, 10000000) == 0) nodes += b.count;
		}
		free(src);
		files++;
		bytes += len;
	}
	fclose(list);
	jsec_buf_free(&b);
	printf("cpgo: trained on %ld files, %ld bytes, %d rounds, %ld nodes\n", files, bytes, rounds, nodes);
	return files > 0 ? 0 : 1;
}
