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
#define TREE_SITTER_ATOMIC_H_
static inline size_t atomic_load(const volatile size_t *p) { return *p; }
static inline uint32_t atomic_inc(volatile uint32_t *p) { return ++*p; }
static inline uint32_t atomic_dec(volatile uint32_t *p) { return --*p; }

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
