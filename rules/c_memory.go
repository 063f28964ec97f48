package rules

import "github.com/jsec/jsec/issue"

// cMemory is the memory family (checkers/c/memory.go): allocation,
// release, NULL and initialisation defects.
var cMemory = []Rule{
	{
		ID: "c.memory.realloc-leak", Title: "realloc result assigned back to its argument", CWE: 401, Category: CatMemory,
		Severity: issue.SeverityMedium, Confidence: 0.8, Languages: LangC,
		Description: "p = realloc(p, n) overwrites the only pointer to the old block with NULL when realloc fails, leaking it.",
		Suggestion:  "Assign to a temporary, check it for NULL, free or keep the old block on failure, then assign: tmp = realloc(p, n); if (!tmp) { free(p); return -1; } p = tmp;",
	},
	{
		ID: "c.null.unchecked-alloc", Title: "Allocation used without a NULL check", CWE: 690, Category: CatNull,
		Severity: issue.SeverityMedium, Confidence: 0.7, Languages: LangC,
		Description: "The result of an allocator that returns NULL on failure is dereferenced, or passed to a function that dereferences it, before any NULL check.",
		Suggestion:  "Test the result before using it (if (p == NULL) handle the error), or use an allocator that aborts on failure.",
	},
	{
		ID: "c.null.unchecked-return", Title: "Pointer-returning call used without a NULL check", CWE: 476, Category: CatNull,
		Severity: issue.SeverityMedium, Confidence: 0.65, Languages: LangC,
		Description: "The result of a call that returns NULL on failure or absence (fopen, opendir, getpwnam, localtime, strchr, dlsym …) is dereferenced before it is checked; mmap results compared with NULL instead of MAP_FAILED.",
		Suggestion:  "Check the result before use (compare mmap results with MAP_FAILED) and handle the failure.",
	},
	{
		ID: "c.memory.leak", Title: "Allocation not freed on a return path", CWE: 401, Category: CatMemory,
		Severity: issue.SeverityMedium, Confidence: 0.6, Languages: LangC,
		Description: "A block allocated into a local pointer is neither freed, returned, stored elsewhere nor handed to another function on some path that leaves the function, typically an error return after the allocation.",
		Suggestion:  "Free the block on every early return, for example through a single cleanup label (goto out) that frees what was allocated.",
	},
	{
		ID: "c.memory.double-free", Title: "Memory freed twice", CWE: 415, Category: CatMemory,
		Severity: issue.SeverityHigh, Confidence: 0.8, Languages: LangC,
		Description: "The same pointer is freed twice on a path with no reassignment in between; a double free corrupts the allocator's state and is often exploitable.",
		Suggestion:  "Set the pointer to NULL right after freeing it (free(p); p = NULL;), and free each block in exactly one place.",
	},
	{
		ID: "c.memory.use-after-free", Title: "Use after free", CWE: 416, Category: CatMemory,
		Severity: issue.SeverityHigh, Confidence: 0.8, Languages: LangC,
		Description: "A pointer is dereferenced, passed to a function or returned after the block it points to was freed on the same path.",
		Suggestion:  "Finish every use before freeing, and set the pointer to NULL after free so that later uses fail loudly.",
	},
	{
		ID: "c.memory.free-non-heap", Title: "Free of memory not on the heap", CWE: 590, Category: CatMemory,
		Severity: issue.SeverityHigh, Confidence: 0.85, Languages: LangC,
		Description: "free() is given a string literal, the address of a variable, or a stack or static array: memory the allocator never handed out.",
		Suggestion:  "Free only what malloc, calloc, realloc or strdup returned; track separately whether a pointer owns heap memory.",
	},
	{
		ID: "c.memory.free-offset", Title: "Free of a pointer not at the start of its block", CWE: 761, Category: CatMemory,
		Severity: issue.SeverityHigh, Confidence: 0.75, Languages: LangC,
		Description: "free() receives p + n, &p[n], or a pointer that was advanced (p++, p += n) after the allocation: not the address the allocator returned.",
		Suggestion:  "Keep the original pointer for free() and walk the block with a separate cursor.",
	},
	{
		ID: "c.memory.mismatched-dealloc", Title: "Mismatched allocation and release", CWE: 762, Category: CatMemory,
		Severity: issue.SeverityHigh, Confidence: 0.8, Languages: LangC,
		Description: "A block is released with a function that does not match how it was allocated: new with delete[], new[] with delete, malloc with delete, new with free.",
		Suggestion:  "Release with the counterpart of the allocation (malloc/free, new/delete, new[]/delete[]), or better, hold the block in a std::unique_ptr or container.",
	},
	{
		ID: "c.memory.alloca", Title: "alloca with an unbounded size", CWE: 770, Category: CatMemory,
		Severity: issue.SeverityMedium, Confidence: 0.7, Languages: LangC,
		Description: "alloca() takes a size that is neither constant nor checked against an upper bound: a large value silently overflows the stack.",
		Suggestion:  "Check the size against a small limit before calling alloca, or allocate on the heap.",
	},
	{
		ID: "c.memory.vla", Title: "Variable-length array with an unbounded size", CWE: 770, Category: CatMemory,
		Severity: issue.SeverityMedium, Confidence: 0.6, Languages: LangC,
		Description: "A local array is sized at run time by a parameter or computed value with no upper bound check: a large value overflows the stack.",
		Suggestion:  "Bound the size before the declaration, use a fixed-size array with a length check, or allocate on the heap.",
	},
	{
		ID: "c.memory.alloc-overflow", Title: "Allocation size computation may overflow", CWE: 190, Category: CatArithmetic,
		Severity: issue.SeverityHigh, Confidence: 0.7, Languages: LangC,
		Description: "The size passed to malloc, realloc, alloca or new[] multiplies two run-time values (or one external value by a constant, or adds external values) with no overflow check before it: a wrapped size allocates a block smaller than the code then writes.",
		Suggestion:  "Check before multiplying (if (n > SIZE_MAX / size) fail), use calloc or reallocarray, or __builtin_mul_overflow.",
	},
	{
		ID: "c.memory.uninit", Title: "Variable used before it is initialized", CWE: 457, Category: CatUninit,
		Severity: issue.SeverityMedium, Confidence: 0.65, Languages: LangC,
		Description: "A local variable declared without an initializer is read on a path where nothing has assigned it; its value is whatever the stack held.",
		Suggestion:  "Initialize the variable at its declaration, or assign it on every path (including the else branch and the default case) before the read.",
	},
	{
		ID: "c.null.deref", Title: "NULL pointer dereference", CWE: 476, Category: CatNull,
		Severity: issue.SeverityHigh, Confidence: 0.7, Languages: LangC,
		Description: "A pointer is dereferenced where it is known to be NULL (assigned NULL, or inside the branch of a NULL test), or dereferenced before a later NULL test of the same value.",
		Suggestion:  "Make sure the pointer is assigned a valid object on every path to the dereference, and test it for NULL before the first use, not after.",
	},
}
