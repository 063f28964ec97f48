#include <stdlib.h>
#include <string.h>

/* Mentions in comments, strings and dead code must stay silent:
 * p = realloc(p, n); free(p); free(p); char buf[n]; alloca(n);
 */
static const char *help = "call free(p) twice to crash: free(p); free(p);";

const char *usage(void)
{
#if 0
	char *p = malloc(16);
	free(p);
	free(p);
	p[0] = 1;
#endif
	return help;
}

/* A struct member named like an API is not a call. */
struct allocator {
	void *(*malloc)(size_t);
	void (*free)(void *);
};

void *use_allocator(struct allocator *a, size_t n)
{
	void *p = a->malloc(n);
	a->free(p);
	return NULL;
}
