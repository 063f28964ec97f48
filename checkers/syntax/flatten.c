//go:build !jsec_cpgo

#if defined(__APPLE__)
#include <malloc/malloc.h>
#define malloc_usable_size malloc_size
#else
#include <malloc.h>
#endif
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#ifndef MAP_ANONYMOUS
#define MAP_ANONYMOUS MAP_ANON
#endif
#include "flatten.h"
#include "tsrt/language.h"
#include "tsrt/subtree.h"
#include "tsrt/tree.h"

/* huge_advice is jsec_init_allocator's: whether jsec_zeroed_huge and the
 * arena's chunks are advised for transparent huge pages (not where a
 * memory balloon hands free 2 MB blocks back to the host: there a huge
 * page touched after a pause costs the host's backing of all of it). */
static int huge_advice = 1;

/* jsec_zeroed_huge returns n zeroed bytes that live as long as the
 * process, aligned to 2 MB and advised for transparent huge pages where
 * the system leaves that to each program (for runtime.c's dense parse
 * rows: touched at random as parses reach their states, with 4 KB pages
 * each page was a fault into the kernel, about 270 per process for C,
 * costly on virtual machines). Untouched, the memory is never resident. */
void *jsec_zeroed_huge(size_t n) {
	const size_t huge = (size_t)2 << 20;
	size_t len = (n + huge - 1) / huge * huge;
	char *p = mmap(NULL, len + huge, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) return NULL;
	char *a = (char *)(((uintptr_t)p + huge - 1) & ~(uintptr_t)(huge - 1));
	if (a > p) munmap(p, (size_t)(a - p));
	if (a + len < p + len + huge) munmap(a + len, (size_t)(p + len + huge - (a + len)));
#ifdef MADV_HUGEPAGE
	if (huge_advice) madvise(a, len, MADV_HUGEPAGE); /* advice only: failure is harmless */
#endif
	return a;
}

/* The arena. A parse allocates tens of thousands of small subtrees and
 * frees them all when the tree is deleted; with libc that walk and the
 * frees cost as much as a tenth of the parse. Instead, while jsec_parse
 * runs, every tree-sitter allocation on its thread comes from chunks owned
 * by the jsec_buf (with its size in front, for realloc), and the parser
 * and tree are dropped wholesale by rewinding the chunks. What the parse
 * frees on the way (stack nodes, the subtrees error recovery drops,
 * arrays it outgrows) is reused: a block of up to 512 bytes goes on a free
 * list of its size class, the chunk's last block is popped or grown in
 * place, a larger one elsewhere waits for the rewind. (Before, frees did
 * nothing: a scan of protobuf touched five more 2 MB chunks.) A fresh
 * TSParser is made for each parse inside the arena, so nothing of
 * tree-sitter outlives it. Outside jsec_parse the hooks call libc. */
struct jsec_chunk {
	jsec_chunk *next;
	size_t cap, used;
	_Alignas(16) char data[];
};

/* A standard chunk is one 2 MB block, aligned to 2 MB and advised for a
 * transparent huge page where the system leaves that to each program: the
 * arena of a parser is touched afresh as it first grows, and with 4 KB
 * pages every page of it was a fault into the kernel (costly on virtual
 * machines); with a huge page it is one. */
enum { CHUNK_BLOCK = 2 << 20, HEADER = 16 };
#define CHUNK (CHUNK_BLOCK - sizeof(jsec_chunk))

static long chunks_made; /* standard chunks allocated (for the tests) */

static jsec_chunk *chunk_alloc(size_t cap) {
	if (cap != CHUNK) return malloc(sizeof(jsec_chunk) + cap);
	__atomic_add_fetch(&chunks_made, 1, __ATOMIC_RELAXED);
	void *p = NULL;
	if (posix_memalign(&p, CHUNK_BLOCK, CHUNK_BLOCK) != 0) return NULL;
#ifdef MADV_HUGEPAGE
	if (huge_advice) madvise(p, CHUNK_BLOCK, MADV_HUGEPAGE); /* advice only: failure is harmless */
#endif
	return p;
}

static __thread jsec_buf *arena_owner;
/* libc_owner is the jsec_buf of a parse redone with libc allocation: its
 * live bytes are counted, and past JSEC_LIBC_CAP the parse is cancelled. */
static __thread jsec_buf *libc_owner;

static void libc_account(void *p, int sign) {
	jsec_buf *b = libc_owner;
	if (!b || !p) return;
	size_t n = malloc_usable_size(p);
	if (sign > 0) b->live += n;
	else b->live -= n < b->live ? n : b->live;
	if (b->live > (b->arena_cap ? b->arena_cap : JSEC_ARENA_CAP) * JSEC_LIBC_FACTOR) b->cancel = 1;
}

/* Standard chunks no parse holds wait in one pool for the whole process,
 * whichever parser had them: memory a process touches for the first time
 * is the dearest it uses (on virtual machines that hand freed memory back
 * to the host, a fresh 2 MB page costs about 3.6 ms, a reused one 0.17
 * ms), and parsers come and go (one per worker, a private one for each
 * function a checker parses on its own), so a chunk is only ever touched
 * afresh when more are in use at once than ever before. The pool keeps at
 * most POOL_MAX chunks; more go back to libc. */
enum { POOL_MAX = 64 };
static pthread_mutex_t pool_mu = PTHREAD_MUTEX_INITIALIZER;
static jsec_chunk *pool;
static int pool_len;

static jsec_chunk *pool_get(void) {
	pthread_mutex_lock(&pool_mu);
	jsec_chunk *c = pool;
	if (c) {
		pool = c->next;
		pool_len--;
	}
	pthread_mutex_unlock(&pool_mu);
	return c;
}

/* pool_put gives a list of standard chunks back, freeing what does not
 * fit. */
static void pool_put(jsec_chunk *list) {
	pthread_mutex_lock(&pool_mu);
	while (list && pool_len < POOL_MAX) {
		jsec_chunk *c = list;
		list = c->next;
		c->next = pool;
		pool = c;
		pool_len++;
	}
	pthread_mutex_unlock(&pool_mu);
	while (list) {
		jsec_chunk *c = list;
		list = c->next;
		free(c);
	}
}

/* jsec_chunks_made counts the standard chunks ever allocated (for the
 * tests). */
long jsec_chunks_made(void) { return __atomic_load_n(&chunks_made, __ATOMIC_RELAXED); }

static jsec_chunk *chunk_new(jsec_buf *b, size_t need) {
	jsec_chunk *c = need <= CHUNK ? pool_get() : NULL;
	if (!c) {
		size_t cap = need > CHUNK ? need : CHUNK;
		c = chunk_alloc(cap);
		if (!c) return NULL;
		c->cap = cap;
	}
	b->arena_bytes += c->cap;
	if (b->arena_bytes > (b->arena_cap ? b->arena_cap : JSEC_ARENA_CAP)) b->cancel = 1; /* tree-sitter polls it */
	c->used = 0;
	c->next = b->arena;
	b->arena = c;
	return c;
}

/* blocks_reused counts the allocations served by a freed block or by
 * growing the chunk's last block in place (for the tests). */
static long blocks_reused;

long jsec_arena_reused(void) { return __atomic_load_n(&blocks_reused, __ATOMIC_RELAXED); }

/* arena_need is the room a block of n bytes takes in a chunk: n rounded
 * up to 16, and the header that holds n. */
static size_t arena_need(size_t n) { return ((n + 15) & ~(size_t)15) + HEADER; }

static void *arena_alloc(jsec_buf *b, size_t n) {
	size_t need = arena_need(n);
	size_t class = need / 16;
	if (class <= JSEC_ARENA_CLASSES && b->freed[class]) {
		/* A freed block of the same size class, likely still cached. */
		char *p = b->freed[class];
		b->freed[class] = *(void **)p;
		__atomic_add_fetch(&blocks_reused, 1, __ATOMIC_RELAXED);
		*(size_t *)(p - HEADER) = n;
		return p;
	}
	jsec_chunk *c = b->arena;
	if (!c || c->cap - c->used < need) {
		c = chunk_new(b, need);
		if (!c) return NULL;
	}
	char *p = c->data + c->used;
	c->used += need;
	*(size_t *)p = n;
	return p + HEADER;
}

/* arena_owns reports whether p was handed out by b's arena (tree-sitter
 * may free a block it got before the parse began). */
static int arena_owns(jsec_buf *b, const char *p) {
	for (jsec_chunk *c = b->arena; c; c = c->next) {
		if (p > c->data && p < c->data + c->used) return 1;
	}
	return 0;
}

/* arena_free takes back a block of b's arena: the chunk's last block is
 * popped off it, a small one goes on the free list of its class, a larger
 * one in the middle stays (reclaimed with the rest at the rewind). */
static void arena_free(jsec_buf *b, char *p) {
	size_t need = arena_need(*(size_t *)(p - HEADER));
	jsec_chunk *c = b->arena;
	if (c && p - HEADER + need == c->data + c->used) {
		c->used -= need;
		return;
	}
	size_t class = need / 16;
	if (class <= JSEC_ARENA_CLASSES) {
		*(void **)p = b->freed[class];
		b->freed[class] = p;
	}
}

/* arena_rewind gives every chunk back: the standard ones to the pool,
 * oversized ones to libc. */
static void arena_rewind(jsec_buf *b) {
	memset(b->freed, 0, sizeof b->freed);
	jsec_chunk *std = NULL;
	while (b->arena) {
		jsec_chunk *c = b->arena;
		b->arena = c->next;
		if (c->cap == CHUNK) {
			c->next = std;
			std = c;
		} else {
			free(c);
		}
	}
	if (std) pool_put(std);
}

static void *hook_malloc(size_t n) {
	if (arena_owner) return arena_alloc(arena_owner, n);
	void *p = malloc(n);
	libc_account(p, 1);
	return p;
}

static void *hook_calloc(size_t k, size_t n) {
	if (!arena_owner) {
		void *p = calloc(k, n);
		libc_account(p, 1);
		return p;
	}
	if (n && k > (size_t)-1 / n) return NULL;
	void *p = arena_alloc(arena_owner, k * n);
	if (p) memset(p, 0, k * n);
	return p;
}

static void *hook_realloc(void *old, size_t n) {
	if (!arena_owner) {
		size_t was = old && libc_owner ? malloc_usable_size(old) : 0;
		void *p = realloc(old, n);
		if (p && libc_owner) {
			libc_owner->live -= was < libc_owner->live ? was : libc_owner->live;
			libc_account(p, 1);
		}
		return p;
	}
	jsec_buf *b = arena_owner;
	int owned = old && arena_owns(b, old);
	if (owned) {
		/* The chunk's last block grows or shrinks in place. */
		jsec_chunk *c = b->arena;
		size_t was = arena_need(*(size_t *)((char *)old - HEADER)), need = arena_need(n);
		if ((char *)old - HEADER + was == c->data + c->used && c->used - was + need <= c->cap) {
			c->used = c->used - was + need;
			*(size_t *)((char *)old - HEADER) = n;
			__atomic_add_fetch(&blocks_reused, 1, __ATOMIC_RELAXED);
			return old;
		}
	}
	void *p = arena_alloc(b, n);
	if (p && old) {
		size_t was = *(size_t *)((char *)old - HEADER);
		memcpy(p, old, was < n ? was : n);
		if (owned) arena_free(b, old);
	}
	return p;
}

static void hook_free(void *p) {
	if (!arena_owner) {
		libc_account(p, -1);
		free(p);
		return;
	}
	if (p && arena_owns(arena_owner, p)) arena_free(arena_owner, p);
}

int jsec_huge_advice(void) { return huge_advice; }

void jsec_init_allocator(int advise) {
	huge_advice = advise;
	ts_set_allocator(hook_malloc, hook_calloc, hook_realloc, hook_free);
}

static int grow_nodes(jsec_buf *b) {
	uint32_t cap = b->cap ? b->cap * 2 : 4096;
	jsec_node *n = realloc(b->nodes, sizeof(jsec_node) * cap);
	if (!n) return -1;
	b->nodes = n;
	b->cap = cap;
	return 0;
}

static int grow_stack(jsec_buf *b) {
	uint32_t cap = b->stack_cap ? b->stack_cap * 2 : 256;
	int32_t *s = realloc(b->stack, sizeof(int32_t) * cap);
	if (!s) return -1;
	b->stack = s;
	int32_t *l = realloc(b->last, sizeof(int32_t) * cap);
	if (!l) return -1;
	b->last = l;
	b->stack_cap = cap;
	return 0;
}

static int jsec_parse_in_arena(const TSLanguage *lang, jsec_buf *b, const char *src, uint32_t len,
	const TSRange *ranges, uint32_t nranges, uint64_t timeout_us, int owned);
void jsec_parser_ts_only(TSParser *p); /* runtime.c */
static int flatten(jsec_buf *b, const TSTree *tree);
static int flatten_cursor(jsec_buf *b, const TSTree *tree);

/* jsec_parse parses src (restricted to ranges when nranges > 0) and writes
 * the whole tree into b in pre-order, in one pass of a tree cursor, so that
 * Go reads it without a cgo call per node. Returns 0, -1 on a failed parse
 * (timeout), -2 when out of memory and -3 when the parse needed more live
 * memory than JSEC_LIBC_FACTOR times the arena's cap. */
/* jsec_balance makes the parse on this thread balance its finished tree
 * (runtime.c), for the tests (jsec_buf.balance). */
__thread int jsec_balance;

int jsec_parse(const TSLanguage *lang, jsec_buf *b, const char *src, uint32_t len,
	const TSRange *ranges, uint32_t nranges, uint64_t timeout_us) {
	jsec_balance = b->balance;
	b->count = 0;
	b->arena_bytes = 0;
	b->cancel = 0;
	int rc = -1;
	if (b->libc) {
		b->cancel = 1; /* straight to the libc parse */
	} else {
		arena_owner = b;
		rc = jsec_parse_in_arena(lang, b, src, len, ranges, nranges, timeout_us, 0);
		arena_owner = NULL;
		arena_rewind(b);
	}
	if (rc == -1 && b->cancel) {
		/* Past the arena's cap: parse again with libc, whose frees bound
		 * the memory by what is live (a huge function parses, slowly;
		 * token soup runs into the timeout, as before the arena). */
		b->count = 0;
		b->cancel = 0;
		b->live = 0;
		libc_owner = b;
		rc = jsec_parse_in_arena(lang, b, src, len, ranges, nranges, timeout_us, 1);
		libc_owner = NULL;
		if (rc == -1 && b->cancel) rc = -3;
	}
	return rc;
}

/* jsec_parse_in_arena parses and flattens with a fresh TSParser. owned: the
 * allocations come from libc (no arena), so the cursor, tree and parser
 * must be deleted here. */
static int jsec_parse_in_arena(const TSLanguage *lang, jsec_buf *b, const char *src, uint32_t len,
	const TSRange *ranges, uint32_t nranges, uint64_t timeout_us, int owned) {
	TSParser *p = ts_parser_new();
	if (!p) return -1;
	if (b->ts_only) jsec_parser_ts_only(p);
	if (!ts_parser_set_language(p, lang) || !ts_parser_set_included_ranges(p, ranges, nranges)) {
		if (owned) ts_parser_delete(p);
		return -1;
	}
	ts_parser_set_timeout_micros(p, timeout_us);
	ts_parser_set_cancellation_flag(p, &b->cancel);
	TSTree *tree = ts_parser_parse_string(p, NULL, src, len);
	if (!tree) {
		if (owned) ts_parser_delete(p);
		return -1;
	}
	int rc = b->cursor ? flatten_cursor(b, tree) : flatten(b, tree);
	/* In the arena, no ts_tree_cursor_delete, ts_tree_delete or
	 * ts_parser_delete: the rewind frees them. */
	if (owned) {
		ts_tree_delete(tree);
		ts_parser_delete(p);
	}
	return rc;
}

void jsec_buf_free(jsec_buf *b) {
	arena_rewind(b);
	free(b->nodes);
	free(b->stack);
	free(b->last);
	free(b->frames);
	b->frames = NULL;
	b->frames_cap = 0;
	b->nodes = NULL;
	b->stack = NULL;
	b->last = NULL;
	b->count = b->cap = b->stack_cap = 0;
}

/* push_node appends a visible node, as the last child of parent (-1 for
 * the root, at depth 0; depth counts visible ancestors). */
static int32_t push_node(jsec_buf *b, int32_t parent, uint32_t depth, TSSymbol sym, TSFieldId field,
	uint32_t start, uint32_t end, uint32_t flags) {
	if (b->count == b->cap && grow_nodes(b)) return -1;
	if (depth >= b->stack_cap && grow_stack(b)) return -1;
	int32_t idx = (int32_t)b->count++;
	jsec_node *e = &b->nodes[idx];
	e->sym = sym;
	e->field = field;
	e->start = start;
	e->end = end;
	e->flags = flags;
	e->parent = parent;
	e->child = e->next = e->after = -1;
	if (depth > 0) {
		int32_t prev = b->last[depth - 1];
		if (prev < 0) b->nodes[parent].child = idx;
		else b->nodes[prev].next = idx;
		b->last[depth - 1] = idx;
	}
	b->last[depth] = -1;
	return idx;
}

/* A frame walks the children of one subtree: a visible node's, or those of
 * a hidden node, which count as children of the nearest visible ancestor. */
typedef struct {
	Subtree tree;
	const TSSymbol *aliases;
	const TSFieldMapEntry *fields, *fields_end;
	uint32_t child, structural, pos;
	int32_t vis;         /* the visible node these children belong to */
	uint32_t depth;      /* its depth */
	TSFieldId inherited; /* field of the hidden chain down from vis; 0 for vis's own frame */
	int own;             /* this frame is vis's own: close vis when done */
} frame;

static int push_frame(jsec_buf *b, uint32_t *n, const TSLanguage *lang, Subtree t, uint32_t pos,
	int32_t vis, uint32_t depth, TSFieldId inherited, int own) {
	if (*n == b->frames_cap) {
		uint32_t cap = b->frames_cap ? b->frames_cap * 2 : 256;
		frame *f = realloc(b->frames, sizeof(frame) * cap);
		if (!f) return -1;
		b->frames = f;
		b->frames_cap = cap;
	}
	frame *f = &((frame *)b->frames)[(*n)++];
	f->tree = t;
	f->aliases = ts_language_alias_sequence(lang, t.ptr->production_id);
	ts_language_field_map(lang, t.ptr->production_id, &f->fields, &f->fields_end);
	f->child = f->structural = 0;
	f->pos = pos;
	f->vis = vis;
	f->depth = depth;
	f->inherited = inherited;
	f->own = own;
	return 0;
}

static TSFieldId field_of(const frame *f) {
	for (const TSFieldMapEntry *m = f->fields; m < f->fields_end; m++) {
		if (!m->inherited && m->child_index == f->structural) return m->field_id;
	}
	return 0;
}

/* flatten writes the visible nodes of tree into b in pre-order, reading
 * tree-sitter's subtrees directly: the same nodes, fields and positions as
 * a TSTreeCursor walk (flatten_cursor, which the tests compare it with),
 * without the cursor's per-step bookkeeping. */
static int flatten(jsec_buf *b, const TSTree *tree) {
	const TSLanguage *lang = tree->language;
	Subtree root = tree->root;
	uint32_t start = ts_subtree_padding(root).bytes;
	int32_t idx = push_node(b, -1, 0, ts_language_public_symbol(lang, ts_subtree_symbol(root)), 0,
		start, start + ts_subtree_size(root).bytes,
		(ts_subtree_named(root) ? JSEC_NAMED : 0) | (ts_subtree_missing(root) ? JSEC_MISSING : 0));
	if (idx < 0) return -2;
	if (ts_subtree_child_count(root) == 0) {
		b->nodes[idx].after = idx + 1;
		return 0;
	}
	uint32_t n = 0;
	if (push_frame(b, &n, lang, root, start, idx, 1, 0, 1)) return -2;
	while (n > 0) {
		frame *f = &((frame *)b->frames)[n - 1];
		if (f->child == f->tree.ptr->child_count) {
			if (f->own) b->nodes[f->vis].after = (int32_t)b->count;
			n--;
			continue;
		}
		Subtree c = ts_subtree_children(f->tree)[f->child];
		uint32_t cstart = f->pos;
		int extra = ts_subtree_extra(c);
		TSSymbol alias = 0;
		TSFieldId field = 0;
		if (!extra) {
			if (f->aliases) alias = f->aliases[f->structural];
			field = field_of(f);
			if (!field) field = f->inherited;
			f->structural++;
		}
		/* Advance f before pushing anything: the push may move the frames. */
		f->pos += ts_subtree_size(c).bytes;
		f->child++;
		if (f->child < f->tree.ptr->child_count) f->pos += ts_subtree_padding(ts_subtree_children(f->tree)[f->child]).bytes;
		int32_t vis = f->vis;
		uint32_t depth = f->depth;
		if (ts_subtree_visible(c) || alias) {
			TSSymbol sym = alias ? alias : ts_subtree_symbol(c);
			int named = alias ? ts_language_symbol_metadata(lang, alias).named : ts_subtree_named(c);
			idx = push_node(b, vis, depth, ts_language_public_symbol(lang, sym), field, cstart,
				cstart + ts_subtree_size(c).bytes,
				(named ? JSEC_NAMED : 0) | (ts_subtree_missing(c) ? JSEC_MISSING : 0));
			if (idx < 0) return -2;
			if (ts_subtree_child_count(c) == 0) {
				b->nodes[idx].after = idx + 1;
			} else if (push_frame(b, &n, lang, c, cstart, idx, depth + 1, 0, 1)) {
				return -2;
			}
		} else if (ts_subtree_visible_child_count(c) > 0) {
			if (push_frame(b, &n, lang, c, cstart, vis, depth, field, 0)) return -2;
		}
	}
	return 0;
}

/* flatten_cursor is flatten done with tree-sitter's public cursor API. */
static int flatten_cursor(jsec_buf *b, const TSTree *tree) {
	TSTreeCursor cur = ts_tree_cursor_new(ts_tree_root_node(tree));
	uint32_t depth = 0;
	int rc = 0;
	for (;;) {
		TSNode node = ts_tree_cursor_current_node(&cur);
		int32_t parent = depth > 0 ? b->stack[depth - 1] : -1;
		uint32_t flags = (ts_node_is_named(node) ? JSEC_NAMED : 0) | (ts_node_is_missing(node) ? JSEC_MISSING : 0);
		int32_t idx = push_node(b, parent, depth, ts_node_symbol(node), ts_tree_cursor_current_field_id(&cur),
			ts_node_start_byte(node), ts_node_end_byte(node), flags);
		if (idx < 0) { rc = -2; break; }
		if (ts_tree_cursor_goto_first_child(&cur)) {
			b->stack[depth] = idx;
			depth++;
			continue;
		}
		b->nodes[idx].after = idx + 1;
		int done = 0;
		while (!ts_tree_cursor_goto_next_sibling(&cur)) {
			if (!ts_tree_cursor_goto_parent(&cur)) { done = 1; break; }
			depth--;
			b->nodes[b->stack[depth]].after = (int32_t)b->count;
		}
		if (done) break;
	}
	ts_tree_cursor_delete(&cur);
	return rc;
}

/* jsec_asserts_compiled reports whether the runtime was compiled with its
 * assert() checks (ndebug.go leaves them out unless -tags tsassert). */
int jsec_asserts_compiled(void) {
#ifdef NDEBUG
	return 0;
#else
	return 1;
#endif
}
