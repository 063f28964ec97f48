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
static struct {
	const TSLanguage *lang;
	uint16_t *rows;   /* (state - large_state_count) * symbol_count + symbol */
} jsec_dense[JSEC_DENSE_MAX];

static inline const uint16_t *jsec_dense_rows(const TSLanguage *self) {
	for (int i = 0; i < JSEC_DENSE_MAX; i++) {
		const TSLanguage *l = __atomic_load_n(&jsec_dense[i].lang, __ATOMIC_ACQUIRE);
		if (l == self) return jsec_dense[i].rows;
		if (!l) break;
	}
	return NULL;
}

static inline uint16_t ts_language_lookup(const TSLanguage *self, TSStateId state, TSSymbol symbol) {
	if (state < self->large_state_count)
		return self->parse_table[state * self->symbol_count + symbol];
	const uint16_t *rows = jsec_dense_rows(self);
	if (rows)
		return rows[(uint32_t)(state - self->large_state_count) * self->symbol_count + symbol];
	return jsec_ts_lookup_small(self, state, symbol);
}

static inline bool ts_language_has_actions(const TSLanguage *self, TSStateId state, TSSymbol symbol) {
	return ts_language_lookup(self, state, symbol) != 0;
}

/* jsec_densify builds the dense rows of a grammar's small states. Calls
 * must not overlap (syntax.go serialises them); parses may run meanwhile
 * and use the rows once they are published. Returns the table's size in
 * bytes, 0 when there is nothing to build or no room left, -1 when out of
 * memory. */
long jsec_densify(const TSLanguage *self) {
	int slot = -1;
	for (int i = 0; i < JSEC_DENSE_MAX; i++) {
		if (jsec_dense[i].lang == self) return 0;
		if (!jsec_dense[i].lang) { slot = i; break; }
	}
	if (slot < 0 || self->state_count <= self->large_state_count) return 0;
	size_t n = (size_t)(self->state_count - self->large_state_count) * self->symbol_count;
	uint16_t *rows = calloc(n, sizeof *rows);
	unsigned char *seen = malloc(self->symbol_count);
	if (!rows || !seen) {
		free(rows);
		free(seen);
		return -1;
	}
	for (uint32_t s = self->large_state_count; s < self->state_count; s++) {
		uint16_t *row = rows + (size_t)(s - self->large_state_count) * self->symbol_count;
		const uint16_t *data = &self->small_parse_table[self->small_parse_table_map[s - self->large_state_count]];
		memset(seen, 0, self->symbol_count);
		uint16_t groups = *data++;
		for (unsigned g = 0; g < groups; g++) {
			uint16_t value = *data++, count = *data++;
			for (unsigned j = 0; j < count; j++, data++) {
				if (*data < self->symbol_count && !seen[*data]) {
					seen[*data] = 1; /* the first match wins, as in the search */
					row[*data] = value;
				}
			}
		}
	}
	free(seen);
	jsec_dense[slot].rows = rows;
	__atomic_store_n(&jsec_dense[slot].lang, self, __ATOMIC_RELEASE);
	return (long)(n * sizeof *rows);
}

/* jsec_dense_mismatches compares every lookup of a grammar's small states
 * through the dense rows with tree-sitter's own search (for the tests);
 * -1 when the grammar has no dense rows. */
long jsec_dense_mismatches(const TSLanguage *self) {
	if (!jsec_dense_rows(self)) return -1;
	long bad = 0;
	for (uint32_t s = self->large_state_count; s < self->state_count; s++)
		for (uint32_t sym = 0; sym < self->symbol_count; sym++)
			bad += ts_language_lookup(self, s, sym) != jsec_ts_lookup_small(self, s, sym);
	return bad;
}

#include "tsrt/alloc.c"
#include "tsrt/get_changed_ranges.c"
#include "tsrt/language.c"
#include "tsrt/lexer.c"
#include "tsrt/node.c"
#include "tsrt/subtree.c"
#include "tsrt/parser.c"
#include "tsrt/stack.c"
#include "tsrt/tree.c"
#include "tsrt/tree_cursor.c"
#include "tsrt/wasm_store.c"
