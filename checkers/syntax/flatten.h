#include <stdint.h>
#include "tsrt_rename.h"
#include "tsrt/api.h"

/* One node of a flattened tree, in pre-order. Mirrored by cnode in syntax.go:
 * keep the two in step. */
typedef struct {
	uint32_t start, end;   /* byte offsets in the source */
	int32_t parent;        /* index of the parent, -1 for the root */
	int32_t child;         /* index of the first child, -1 if none */
	int32_t next;          /* index of the next sibling, -1 if none */
	int32_t after;         /* index just past this node's subtree */
	uint16_t sym, field;   /* grammar symbol and field id (0 = none) */
	uint32_t flags;        /* JSEC_NAMED | JSEC_MISSING */
} jsec_node;

enum { JSEC_NAMED = 1, JSEC_MISSING = 2 };

typedef struct jsec_chunk jsec_chunk;

/* The arena reuses freed blocks of up to JSEC_ARENA_CLASSES * 16 bytes
 * (with their header), one free list per multiple of 16. */
#define JSEC_ARENA_CLASSES 32

typedef struct {
	jsec_node *nodes;
	uint32_t count, cap;
	int32_t *stack;        /* open ancestors */
	int32_t *last;         /* last child seen of each open ancestor */
	uint32_t stack_cap;
	jsec_chunk *arena;     /* where tree-sitter allocates during a parse */
	void *freed[JSEC_ARENA_CLASSES + 1]; /* the arena's freed small blocks, by size class */
	size_t arena_bytes;    /* chunk bytes in use by the current parse */
	size_t arena_cap;      /* 0: JSEC_ARENA_CAP */
	size_t cancel;         /* set when the arena (or the libc redo) passes its cap */
	size_t live;           /* libc redo: bytes allocated and not freed */
	void *frames;          /* the flattening walk's stack */
	uint32_t frames_cap;
	int cursor;            /* tests: flatten with tree-sitter's cursor API */
	int libc;              /* tests: parse with libc allocation, no arena */
	int balance;           /* tests: balance the finished tree, as tree-sitter does */
	int ts_only;           /* tests: tree-sitter's own code where runtime.c has a shortcut */
} jsec_buf;

/* JSEC_ARENA_CAP bounds the arena of one parse: only small blocks and
 * the last one are reused in it, so input that keeps tree-sitter's error
 * recovery busy can still grow it far past what is live (3 MB of token
 * soup in one function reached 5.8 GB when frees did nothing). Past the
 * cap the arena parse is cancelled and jsec_parse parses again with libc
 * allocation, as before the arena. The most any file of curl, git, redis,
 * leveldb, protobuf or /usr/include needs is under 32 MB. */
#define JSEC_ARENA_CAP ((size_t)128 << 20)

/* The libc redo frees what it drops, so what it holds is what the parse
 * really needs; it is cancelled past JSEC_LIBC_FACTOR times the arena cap
 * (512 MB by default), so that no input can take the machine's memory. */
#define JSEC_LIBC_FACTOR 4

/* jsec_init_allocator routes tree-sitter's allocations through jsec's
 * arena while jsec_parse runs on the calling thread, and to libc
 * otherwise; huge_advice says whether the arena's chunks and the dense
 * parse rows are advised for transparent huge pages. Call it once,
 * before any parse. */
void jsec_init_allocator(int huge_advice);
int jsec_huge_advice(void); /* what jsec_init_allocator was given */
int jsec_parse(const TSLanguage *lang, jsec_buf *b, const char *src, uint32_t len,
	const TSRange *ranges, uint32_t nranges, uint64_t timeout_us);
void jsec_buf_free(jsec_buf *b);
long jsec_chunks_made(void);
long jsec_arena_reused(void);
int jsec_asserts_compiled(void);

/* jsec_densify (runtime.c) sets up the dense parse table of a grammar's
 * small states, whose rows fill as parses reach them; see there. The other
 * two are for the tests. */
long jsec_densify(const TSLanguage *lang);
long jsec_dense_mismatches(const TSLanguage *lang);
long jsec_dense_filled(const TSLanguage *lang, int unfill);
long jsec_dense_rows_used(const TSLanguage *lang);
