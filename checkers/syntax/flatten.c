#include <stdlib.h>
#include <string.h>
#include "flatten.h"

/* The arena. A parse allocates tens of thousands of small subtrees and
 * frees them all when the tree is deleted; with libc that walk and the
 * frees cost as much as a tenth of the parse. Instead, while jsec_parse
 * runs, every tree-sitter allocation on its thread comes from chunks owned
 * by the jsec_buf (with its size in front, for realloc), frees do nothing,
 * and the parser and tree are dropped wholesale by rewinding the chunks. A
 * fresh TSParser is made for each parse inside the arena, so nothing of
 * tree-sitter outlives it. Outside jsec_parse the hooks call libc. */
struct jsec_chunk {
	jsec_chunk *next;
	size_t cap, used;
	_Alignas(16) char data[];
};

enum { CHUNK = 1 << 20, HEADER = 16 };

static __thread jsec_buf *arena_owner;

static jsec_chunk *chunk_new(jsec_buf *b, size_t need) {
	jsec_chunk *c = NULL;
	if (need <= CHUNK && b->spare) {
		c = b->spare;
		b->spare = c->next;
	} else {
		size_t cap = need > CHUNK ? need : CHUNK;
		c = malloc(sizeof(jsec_chunk) + cap);
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

static void *arena_alloc(jsec_buf *b, size_t n) {
	size_t need = ((n + 15) & ~(size_t)15) + HEADER;
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

/* arena_rewind gives every chunk back: the standard ones wait in spare,
 * oversized ones go to libc. */
static void arena_rewind(jsec_buf *b) {
	while (b->arena) {
		jsec_chunk *c = b->arena;
		b->arena = c->next;
		if (c->cap == CHUNK) {
			c->next = b->spare;
			b->spare = c;
		} else {
			free(c);
		}
	}
}

static void *hook_malloc(size_t n) {
	return arena_owner ? arena_alloc(arena_owner, n) : malloc(n);
}

static void *hook_calloc(size_t k, size_t n) {
	if (!arena_owner) return calloc(k, n);
	if (n && k > (size_t)-1 / n) return NULL;
	void *p = arena_alloc(arena_owner, k * n);
	if (p) memset(p, 0, k * n);
	return p;
}

static void *hook_realloc(void *old, size_t n) {
	if (!arena_owner) return realloc(old, n);
	void *p = arena_alloc(arena_owner, n);
	if (p && old) {
		size_t was = *(size_t *)((char *)old - HEADER);
		memcpy(p, old, was < n ? was : n);
	}
	return p;
}

static void hook_free(void *p) {
	if (!arena_owner) free(p);
}

void jsec_init_allocator(void) {
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

/* jsec_parse parses src (restricted to ranges when nranges > 0) and writes
 * the whole tree into b in pre-order, in one pass of a tree cursor, so that
 * Go reads it without a cgo call per node. Returns 0, -1 on a failed parse
 * (timeout) and -2 when out of memory. */
int jsec_parse(const TSLanguage *lang, jsec_buf *b, const char *src, uint32_t len,
	const TSRange *ranges, uint32_t nranges, uint64_t timeout_us) {
	b->count = 0;
	b->arena_bytes = 0;
	b->cancel = 0;
	arena_owner = b;
	int rc = jsec_parse_in_arena(lang, b, src, len, ranges, nranges, timeout_us, 0);
	arena_owner = NULL;
	arena_rewind(b);
	if (rc == -1 && b->cancel) {
		/* Past the arena's cap: parse again with libc, whose frees bound
		 * the memory by what is live (a huge function parses, slowly;
		 * token soup runs into the timeout, as before the arena). */
		b->count = 0;
		rc = jsec_parse_in_arena(lang, b, src, len, ranges, nranges, timeout_us, 1);
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
	if (!ts_parser_set_language(p, lang) || !ts_parser_set_included_ranges(p, ranges, nranges)) {
		if (owned) ts_parser_delete(p);
		return -1;
	}
	ts_parser_set_timeout_micros(p, timeout_us);
	if (!owned) ts_parser_set_cancellation_flag(p, &b->cancel);
	TSTree *tree = ts_parser_parse_string(p, NULL, src, len);
	if (!tree) {
		if (owned) ts_parser_delete(p);
		return -1;
	}
	TSTreeCursor cur = ts_tree_cursor_new(ts_tree_root_node(tree));
	uint32_t depth = 0;
	int rc = 0;
	for (;;) {
		TSNode node = ts_tree_cursor_current_node(&cur);
		if (b->count == b->cap && grow_nodes(b)) { rc = -2; break; }
		int32_t idx = (int32_t)b->count++;
		jsec_node *e = &b->nodes[idx];
		e->sym = ts_node_symbol(node);
		e->field = ts_tree_cursor_current_field_id(&cur);
		e->start = ts_node_start_byte(node);
		e->end = ts_node_end_byte(node);
		e->flags = (ts_node_is_named(node) ? JSEC_NAMED : 0) | (ts_node_is_missing(node) ? JSEC_MISSING : 0);
		e->child = -1;
		e->next = -1;
		e->after = -1;
		e->parent = -1;
		if (depth > 0) {
			int32_t par = b->stack[depth - 1];
			e->parent = par;
			int32_t prev = b->last[depth - 1];
			if (prev < 0) b->nodes[par].child = idx;
			else b->nodes[prev].next = idx;
			b->last[depth - 1] = idx;
		}
		if (ts_tree_cursor_goto_first_child(&cur)) {
			if (depth == b->stack_cap && grow_stack(b)) { rc = -2; break; }
			b->stack[depth] = idx;
			b->last[depth] = -1;
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
	/* In the arena, no ts_tree_cursor_delete, ts_tree_delete or
	 * ts_parser_delete: the rewind frees them. */
	if (owned) {
		ts_tree_cursor_delete(&cur);
		ts_tree_delete(tree);
		ts_parser_delete(p);
	}
	return rc;
}

void jsec_buf_free(jsec_buf *b) {
	arena_rewind(b);
	while (b->spare) {
		jsec_chunk *c = b->spare;
		b->spare = c->next;
		free(c);
	}
	free(b->nodes);
	free(b->stack);
	free(b->last);
	b->nodes = NULL;
	b->stack = NULL;
	b->last = NULL;
	b->count = b->cap = b->stack_cap = 0;
}
