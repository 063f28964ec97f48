//go:build !jsec_cpgo

/* The tree-sitter runtime, compiled here as one translation unit from the
 * unmodified sources in tsrt/ (copied from
 * github.com/smacker/go-tree-sitter@v0.0.0-20240827094217-dd81d9e9be82, the
 * version whose grammars jsec links; MIT licence, see tsrt/LICENSE).
 *
 * jsec compiles its own copy, under renamed symbols (tsrt_rename.h), so
 * that it can build the runtime for how jsec uses it; see the settings
 * below. */
#define _POSIX_C_SOURCE 200112L
#include "tsrt_rename.h"

/* Reference counts need not be atomic: a tree is built, flattened and
 * dropped by one thread inside one call (jsec_parse), and never shared
 * (no ts_tree_copy). tsrt/atomic.h would make every retain and release of
 * a subtree a locked instruction. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#define TREE_SITTER_ATOMIC_H_
static inline size_t atomic_load(const volatile size_t *p) { return *p; }
static inline uint32_t atomic_inc(volatile uint32_t *p) { return ++*p; }
static inline uint32_t atomic_dec(volatile uint32_t *p) { return --*p; }

/* Parse-table lookups. tree-sitter stores the parse actions of its
 * "small" states (all but the first large_state_count) as lists of symbol
 * groups that ts_language_lookup searches linearly, on every token and
 * every reduction: the most expensive function of a parse. jsec replaces
 * that search with one read of a dense copy of those rows, built once per
 * grammar (jsec_densify); the lookahead iterators, whose order error
 * recovery depends on, still walk the original groups. language.h's two
 * inline readers are compiled under other names and replaced below, before
 * any file that calls them. */
#define ts_language_lookup jsec_ts_lookup_small
#define ts_language_has_actions jsec_ts_has_actions_small
#include "tsrt/language.h"
#undef ts_language_lookup
#undef ts_language_has_actions

#define JSEC_DENSE_MAX 4
/* JSEC_DENSE_SYMBOLS bounds the grammars given dense rows (the C++
 * grammar has about 500 symbols); a larger one keeps tree-sitter's search. */
#define JSEC_DENSE_SYMBOLS 4096
typedef struct {
	const TSLanguage *lang;
	uint16_t *rows;       /* rows in the order they were filled: row k at k * symbol_count */
	uint32_t *slot;       /* per small state: 1 + its row's index, 0 while unfilled */
	uint32_t cap;         /* rows there is room for */
	uint32_t next;        /* rows handed out */
} jsec_dense_table;
static jsec_dense_table jsec_dense[JSEC_DENSE_MAX];

static inline const jsec_dense_table *jsec_dense_of(const TSLanguage *self) {
	for (int i = 0; i < JSEC_DENSE_MAX; i++) {
		const TSLanguage *l = __atomic_load_n(&jsec_dense[i].lang, __ATOMIC_ACQUIRE);
		if (l == self) return &jsec_dense[i];
		if (!l) break;
	}
	return NULL;
}

/* A row is filled on the first lookup in its state, not up front: a scan
 * reaches a fraction of a grammar's states, and filling all of them cost
 * every process about 6 MB of page faults (C++) or 1 MB (C) and tens of
 * milliseconds before its first parse. Rows are laid out in the order they
 * are filled, not by state: the memory a process touches is that of the
 * rows it uses (a scan of C touches a few hundred of the C++ grammar's
 * 6,064 rows; laid out by state they were spread over all 6.4 MB, each
 * 2 MB page of it fresh memory, the dearest kind on virtual machines).
 * Parses run in parallel: two threads may fill the same state's row at
 * once, each in a row of its own; the first to publish its slot (compare
 * and swap, with release after the row's entries) wins, and the other's
 * row stays unused. A reader that sees a slot sees the whole row. When the
 * room runs out (only races use more rows than states), lookups fall back
 * to tree-sitter's search. Returns the slot, 0 for the fallback. */
static uint32_t jsec_fill_row(const TSLanguage *self, jsec_dense_table *t, uint32_t idx) {
	uint32_t k = __atomic_fetch_add(&t->next, 1, __ATOMIC_RELAXED);
	if (k >= t->cap) return 0;
	uint64_t seen[JSEC_DENSE_SYMBOLS / 64] = {0};
	uint16_t *row = t->rows + (size_t)k * self->symbol_count;
	memset(row, 0, self->symbol_count * sizeof *row); /* fresh memory is zero; a row handed out again after jsec_dense_filled's unfill is not */
	const uint16_t *data = &self->small_parse_table[self->small_parse_table_map[idx]];
	uint16_t groups = *data++;
	for (unsigned g = 0; g < groups; g++) {
		uint16_t value = *data++, count = *data++;
		for (unsigned j = 0; j < count; j++, data++) {
			uint16_t sym = *data;
			if (sym < self->symbol_count && !(seen[sym / 64] >> (sym % 64) & 1)) {
				seen[sym / 64] |= (uint64_t)1 << (sym % 64); /* the first match wins, as in the search */
				row[sym] = value;
			}
		}
	}
	uint32_t want = 0;
	if (__atomic_compare_exchange_n(&t->slot[idx], &want, k + 1, 0, __ATOMIC_RELEASE, __ATOMIC_ACQUIRE))
		return k + 1;
	return want; /* another thread's row, published first */
}

static inline uint16_t ts_language_lookup(const TSLanguage *self, TSStateId state, TSSymbol symbol) {
	if (state < self->large_state_count)
		return self->parse_table[state * self->symbol_count + symbol];
	jsec_dense_table *t = (jsec_dense_table *)jsec_dense_of(self);
	if (!t)
		return jsec_ts_lookup_small(self, state, symbol);
	uint32_t idx = (uint32_t)(state - self->large_state_count);
	uint32_t s = __atomic_load_n(&t->slot[idx], __ATOMIC_ACQUIRE);
	if (!s && !(s = jsec_fill_row(self, t, idx)))
		return jsec_ts_lookup_small(self, state, symbol);
	return t->rows[(size_t)(s - 1) * self->symbol_count + symbol];
}

static inline bool ts_language_has_actions(const TSLanguage *self, TSStateId state, TSSymbol symbol) {
	return ts_language_lookup(self, state, symbol) != 0;
}

void *jsec_zeroed_huge(size_t n); /* flatten.c */

/* jsec_densify sets up the dense rows of a grammar's small states, to be
 * filled as parses reach them. Calls must not overlap (syntax.go
 * serialises them); parses may run meanwhile and use the rows once they
 * are published. Returns the table's size in bytes (address space; pages
 * are touched as rows fill), 0 when there is nothing to build or no room
 * left, -1 when out of memory. */
long jsec_densify(const TSLanguage *self) {
	int slot_i = -1;
	for (int i = 0; i < JSEC_DENSE_MAX; i++) {
		if (jsec_dense[i].lang == self) return 0;
		if (!jsec_dense[i].lang) { slot_i = i; break; }
	}
	if (slot_i < 0 || self->state_count <= self->large_state_count || self->symbol_count > JSEC_DENSE_SYMBOLS)
		return 0;
	size_t small = self->state_count - self->large_state_count;
	size_t n = small * self->symbol_count;
	uint16_t *rows = jsec_zeroed_huge(n * sizeof *rows);
	uint32_t *slot = calloc(small, sizeof *slot);
	if (!rows || !slot) {
		free(slot);
		return -1;
	}
	jsec_dense[slot_i].rows = rows;
	jsec_dense[slot_i].slot = slot;
	jsec_dense[slot_i].cap = (uint32_t)small;
	jsec_dense[slot_i].next = 0;
	__atomic_store_n(&jsec_dense[slot_i].lang, self, __ATOMIC_RELEASE);
	return (long)(n * sizeof *rows);
}

/* jsec_dense_filled counts the small states of a grammar whose dense row
 * is filled (-1: no dense rows), and with unfill marks every row unfilled
 * and hands the rows out afresh (a row marked so is filled again, with the
 * same values, on its next lookup), for the tests: no parse may run
 * meanwhile. */
long jsec_dense_filled(const TSLanguage *self, int unfill) {
	jsec_dense_table *t = (jsec_dense_table *)jsec_dense_of(self);
	if (!t) return -1;
	long n = 0;
	for (uint32_t i = 0; i < (uint32_t)(self->state_count - self->large_state_count); i++) {
		n += __atomic_load_n(&t->slot[i], __ATOMIC_ACQUIRE) != 0;
		if (unfill) __atomic_store_n(&t->slot[i], 0, __ATOMIC_RELEASE);
	}
	if (unfill) __atomic_store_n(&t->next, 0, __ATOMIC_RELEASE);
	return n;
}

/* jsec_dense_rows_used is how far into a grammar's dense table the filled
 * rows reach, in rows (-1: no dense rows), for the tests. */
long jsec_dense_rows_used(const TSLanguage *self) {
	const jsec_dense_table *t = jsec_dense_of(self);
	if (!t) return -1;
	long used = 0;
	for (uint32_t i = 0; i < (uint32_t)(self->state_count - self->large_state_count); i++) {
		uint32_t s = __atomic_load_n(&t->slot[i], __ATOMIC_ACQUIRE);
		if (s > used) used = s;
	}
	return used;
}

/* jsec_dense_mismatches compares every lookup of a grammar's small states
 * through the dense rows with tree-sitter's own search (for the tests);
 * -1 when the grammar has no dense rows. */
long jsec_dense_mismatches(const TSLanguage *self) {
	if (!jsec_dense_of(self)) return -1;
	long bad = 0;
	for (uint32_t s = self->large_state_count; s < self->state_count; s++)
		for (uint32_t sym = 0; sym < self->symbol_count; sym++)
			bad += ts_language_lookup(self, s, sym) != jsec_ts_lookup_small(self, s, sym);
	return bad;
}

#include "tsrt/alloc.c"
#include "tsrt/get_changed_ranges.c"
#include "tsrt/language.c"
/* The lexer's advance. The grammar's generated lexer calls it through a
 * function pointer for every character it reads (whitespace and comments
 * included), and tree-sitter's version goes through the included-range
 * walk, the chunk check and a UTF-8 decode for each: 5% of the
 * instructions of a scan of redis. Most characters are ASCII in the middle of a range and
 * of the (single) chunk jsec hands over, and for them the outcome of that
 * path is simple: one byte further, one column further (one row after a
 * newline), the byte itself as the lookahead. ts_lexer__advance below
 * does just that and leaves everything else (a range or chunk boundary,
 * a multi-byte or invalid character, a logger, UTF-16) to tree-sitter's
 * own, renamed by the function-like macro, which leaves the name alone
 * where lexer.c installs the function pointer (ts_lexer_init): that one
 * is the fast version. jsec_parser_ts_only (below) installs
 * tree-sitter's instead, for the tests, which hold the trees to its. */
#define ts_lexer__advance(self, skip) jsec_ts_lexer__advance_full(self, skip)
static void (ts_lexer__advance)(TSLexer *_self, bool skip);
#include "tsrt/lexer.c"
#undef ts_lexer__advance

static void (ts_lexer__advance)(TSLexer *_self, bool skip) {
	Lexer *self = (Lexer *)_self;
	if (self->lookahead_size == 1 && self->chunk && !self->logger.log &&
	    self->input.encoding == TSInputEncodingUTF8 &&
	    self->current_included_range_index < self->included_range_count) {
		const TSRange *r = &self->included_ranges[self->current_included_range_index];
		uint32_t next = self->current_position.bytes + 1;
		uint32_t in_chunk = next - self->chunk_start; /* wraps when before the chunk */
		if (next < r->end_byte && r->start_byte < r->end_byte && in_chunk < self->chunk_size) {
			uint8_t c = ((const uint8_t *)self->chunk)[in_chunk];
			if (c < 0x80) {
				if (self->data.lookahead == '\n') {
					self->current_position.extent.row++;
					self->current_position.extent.column = 0;
				} else {
					self->current_position.extent.column++;
				}
				self->current_position.bytes = next;
				if (skip) self->token_start_position = self->current_position;
				self->data.lookahead = c;
				return;
			}
		}
	}
	jsec_ts_lexer__advance_full(_self, skip);
}
#include "tsrt/node.c"
#include "tsrt/subtree.c"
/* No balancing of finished trees. tree-sitter rotates the hidden nodes of
 * every long repetition (a file's top-level items, a block's statements)
 * into a balanced tree when a parse ends, so that later edits and
 * re-parses stay fast: a walk over the whole tree, 3-4% of a parse. jsec
 * never edits a tree, and the rotation moves only hidden nodes, so the
 * visible tree, all that flatten writes, is the same either way. The
 * tests turn it back on (jsec_buf.balance) to hold the two equal. */
extern __thread int jsec_balance;
#undef ts_subtree_balance
#define ts_subtree_balance(self, pool, language) (jsec_balance ? jsec_ts_subtree_balance(self, pool, language) : (void)0)
/* Popping a reduction's children. Every reduction asks the stack for its
 * count children (ts_stack_pop_count), and tree-sitter's stack__iter
 * answers with its general walk, which follows every link of every node
 * with one iterator per path and a callback per step, so that it can
 * split where versions of the stack merged. Most of the time no node on
 * the way has more than one link, and the walk is a straight line: the
 * count links below the head, their subtrees (extras included, not
 * counted) taken in order, reversed, and one slice. jsec_pop_count does
 * that line when it finds one (it checks first, touching nothing) and
 * hands every other case to tree-sitter. The parser's calls reach it
 * through the macro, which passes their parser along: a parser set up by
 * jsec_parser_ts_only pops with tree-sitter's walk every time. */
/* Pushing. Every push takes a stack node and clears all of it (232 bytes,
 * eight links) before filling in the first link (stack_node_new), and GCC,
 * tuned for no particular processor, clears it with rep stosq, whose
 * start-up cost was most of a push on the AMD cores jsec was measured on.
 * jsec_push is ts_stack_push with the clearing in jsec_clear_node, tuned
 * for skylake, where GCC writes 15 vector stores instead: the same bytes
 * (tuning never changes the instruction set). Reached like jsec_pop_count;
 * a parser set up by jsec_parser_ts_only pushes with tree-sitter's. */
#include "tsrt/stack.h"
static void jsec_push(TSParser *parser, Stack *stack, StackVersion version, Subtree subtree, bool pending, TSStateId state);
#undef ts_stack_push
#define ts_stack_push(stack, version, subtree, pending, state) jsec_push(self, stack, version, subtree, pending, state)
static StackSliceArray jsec_pop_count(TSParser *parser, Stack *stack, StackVersion version, uint32_t count);
#undef ts_stack_pop_count
#define ts_stack_pop_count(stack, version, count) jsec_pop_count(self, stack, version, count)
#include "tsrt/parser.c"
#undef ts_stack_pop_count
#define ts_stack_pop_count jsec_ts_stack_pop_count
#undef ts_stack_push
#define ts_stack_push jsec_ts_stack_push
#include "tsrt/stack.c"

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
__attribute__((target("tune=skylake")))
#endif
static void jsec_clear_node(StackNode *node) {
	*node = (StackNode){0};
}

static void jsec_push(TSParser *parser, Stack *self, StackVersion version, Subtree subtree, bool pending, TSStateId state) {
	if (parser->lexer.data.advance != ts_lexer__advance) {
		ts_stack_push(self, version, subtree, pending, state);
		return;
	}
	/* ts_stack_push and stack_node_new, but for the clearing. */
	StackHead *head = array_get(&self->heads, version);
	StackNode *previous_node = head->node;
	StackNodeArray *pool = &self->node_pool;
	StackNode *node = pool->size > 0 ? array_pop(pool) : ts_malloc(sizeof(StackNode));
	jsec_clear_node(node);
	node->ref_count = 1;
	node->state = state;
	if (previous_node) {
		node->link_count = 1;
		node->links[0] = (StackLink){
			.node = previous_node,
			.subtree = subtree,
			.is_pending = pending,
		};
		node->position = previous_node->position;
		node->error_cost = previous_node->error_cost;
		node->dynamic_precedence = previous_node->dynamic_precedence;
		node->node_count = previous_node->node_count;
		if (subtree.ptr) {
			node->error_cost += ts_subtree_error_cost(subtree);
			node->position = length_add(node->position, ts_subtree_total_size(subtree));
			node->node_count += stack__subtree_node_count(subtree);
			node->dynamic_precedence += ts_subtree_dynamic_precedence(subtree);
		}
	} else {
		node->position = length_zero();
		node->error_cost = 0;
	}
	if (!subtree.ptr) head->node_count_at_last_error = node->node_count;
	head->node = node;
}

static StackSliceArray jsec_pop_count(TSParser *parser, Stack *self, StackVersion version, uint32_t count) {
	if (parser->lexer.data.advance != ts_lexer__advance)
		return ts_stack_pop_count(self, version, count);
	StackNode *node = array_get(&self->heads, version)->node;
	StackNode *m = node;
	for (uint32_t n = 0; n < count;) {
		if (m->link_count != 1)
			return ts_stack_pop_count(self, version, count); /* a fork: tree-sitter's walk */
		StackLink link = m->links[0];
		if (!link.subtree.ptr || !ts_subtree_extra(link.subtree)) n++;
		m = link.node;
	}
	array_clear(&self->slices);
	array_clear(&self->iterators);
	SubtreeArray subtrees = array_new();
	array_reserve(&subtrees, (uint32_t)ts_subtree_alloc_size(count) / sizeof(Subtree));
	for (uint32_t n = 0; n < count;) {
		StackLink link = node->links[0];
		node = link.node;
		if (!link.subtree.ptr) {
			n++;
			continue;
		}
		array_push(&subtrees, link.subtree);
		ts_subtree_retain(link.subtree);
		if (!ts_subtree_extra(link.subtree)) n++;
	}
	ts_subtree_array_reverse(&subtrees);
	/* ts_stack__add_slice with no slice yet: a new version at node (what
	 * ts_stack__add_version pushes) and its slice, written field by field
	 * into the arrays: pushing whole structs built on the stack, as
	 * array_push does, stalled on loads of the halves just stored. */
	const StackHead *from = &self->heads.contents[version];
	unsigned errors = from->node_count_at_last_error;
	Subtree external = from->last_external_token;
	_array__grow((Array *)&self->heads, 1, array_elem_size(&self->heads));
	StackHead *head = &self->heads.contents[self->heads.size++];
	head->node = node;
	head->summary = NULL;
	head->node_count_at_last_error = errors;
	head->last_external_token = external;
	head->lookahead_when_paused = NULL_SUBTREE;
	head->status = StackStatusActive;
	stack_node_retain(node);
	if (external.ptr) ts_subtree_retain(external);
	_array__grow((Array *)&self->slices, 1, array_elem_size(&self->slices));
	StackSlice *slice = &self->slices.contents[self->slices.size++];
	slice->subtrees = subtrees;
	slice->version = (StackVersion)(self->heads.size - 1);
	return self->slices;
}

/* jsec_parser_ts_only makes p run tree-sitter's own code where runtime.c
 * has a shortcut (the lexer's advance, popping a reduction, pushing), for
 * the tests, which hold the shortcuts to it (jsec_buf.ts_only). */
void jsec_parser_ts_only(TSParser *p) { p->lexer.data.advance = jsec_ts_lexer__advance_full; }
#include "tsrt/tree.c"
#include "tsrt/tree_cursor.c"
#include "tsrt/wasm_store.c"
