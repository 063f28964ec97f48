#include <stdlib.h>
#include "flatten.h"

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

/* jsec_parse parses src (restricted to ranges when nranges > 0) and writes
 * the whole tree into b in pre-order, in one pass of a tree cursor, so that
 * Go reads it without a cgo call per node. Returns 0, -1 on a failed parse
 * (timeout) and -2 when out of memory. */
int jsec_parse(TSParser *p, jsec_buf *b, const char *src, uint32_t len,
	const TSRange *ranges, uint32_t nranges, uint64_t timeout_us) {
	b->count = 0;
	ts_parser_reset(p);
	if (!ts_parser_set_included_ranges(p, ranges, nranges)) return -1;
	ts_parser_set_timeout_micros(p, timeout_us);
	TSTree *tree = ts_parser_parse_string(p, NULL, src, len);
	if (!tree) {
		ts_parser_reset(p);
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
	ts_tree_cursor_delete(&cur);
	ts_tree_delete(tree);
	return rc;
}

void jsec_buf_free(jsec_buf *b) {
	free(b->nodes);
	free(b->stack);
	free(b->last);
	b->nodes = NULL;
	b->stack = NULL;
	b->last = NULL;
	b->count = b->cap = b->stack_cap = 0;
}
