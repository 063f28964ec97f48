package rules

import "github.com/jsec/jsec/issue"

// rustUnsafe is the Rust unsafe-code family (checkers/rust/unsafe.go,
// unsafe_ptr.go, unsafe_init.go).
var rustUnsafe = []Rule{
	{
		ID: "rust.unsafe.transmute", Title: "mem::transmute between types", CWE: 843, Category: CatTypes,
		Severity: issue.SeverityHigh, Confidence: 0.7, Languages: LangRust,
		Description: "mem::transmute reinterprets the bits of one type as another; a size, alignment, validity or lifetime mismatch is undefined behaviour.",
		Suggestion:  "Use a safe conversion (from_ne_bytes, to_bits/from_bits, as for numbers, pointer casts with cast()) or document the invariant in a // SAFETY: comment.",
	},
	{
		ID: "rust.unsafe.block-no-safety", Title: "unsafe block without a SAFETY comment", CWE: 758, Category: CatUnsafe,
		Severity: issue.SeverityLow, Confidence: 0.5, Languages: LangRust,
		Description: "An unsafe block carries no // SAFETY: comment saying which invariants make it sound, so reviewers cannot check it and later edits can silently break it.",
		Suggestion:  "Add a // SAFETY: comment above the block (or as its first line) that states why every unsafe operation in it is sound.",
	},
	{
		ID: "rust.unsafe.fn-no-safety-doc", Title: "public unsafe fn without a # Safety doc section", CWE: 758, Category: CatUnsafe,
		Severity: issue.SeverityLow, Confidence: 0.5, Languages: LangRust,
		Description: "A pub unsafe fn has no \"# Safety\" section in its documentation, so callers cannot know what they must guarantee to call it soundly.",
		Suggestion:  "Add a \"# Safety\" section to the doc comment listing every precondition (valid pointers, lengths, alignment, aliasing, thread rules).",
	},
	{
		ID: "rust.unsafe.raw-deref", Title: "raw pointer dereference without a null check", CWE: 822, Category: CatUnsafe,
		Severity: issue.SeverityMedium, Confidence: 0.6, Languages: LangRust,
		Description: "A raw pointer that came from a parameter or a call is dereferenced with no is_null() check before it; a null or dangling pointer is undefined behaviour.",
		Suggestion:  "Check p.is_null() (or take Option<NonNull<T>>/&T instead of a raw pointer), and make a fn that dereferences a caller's pointer unsafe with a # Safety contract.",
	},
	{
		ID: "rust.unsafe.get-unchecked", Title: "unchecked indexing without a bounds assertion", CWE: 125, Category: CatUnsafe,
		Severity: issue.SeverityMedium, Confidence: 0.65, Languages: LangRust,
		Description: "get_unchecked/get_unchecked_mut skips the bounds check, and no assert!, if or loop bound compares the index with the length before it; an index out of bounds reads or writes outside the buffer.",
		Suggestion:  "Use get()/indexing, or assert!/debug_assert!(i < v.len()) before the unchecked access and document it with // SAFETY:.",
	},
	{
		ID: "rust.unsafe.pointer-offset", Title: "raw pointer arithmetic with an unchecked offset", CWE: 823, Category: CatUnsafe,
		Severity: issue.SeverityMedium, Confidence: 0.6, Languages: LangRust,
		Description: "add/offset/sub/byte_add on a raw pointer moves it by a count that nothing compares with the buffer's length; leaving the allocation is undefined behaviour even before any access.",
		Suggestion:  "Compare the count with the length first (or use slice indexing / get()), or use wrapping_add when the pointer is only compared, never dereferenced.",
	},
	{
		ID: "rust.unsafe.copy", Title: "unchecked raw memory copy", CWE: 787, Category: CatUnsafe,
		Severity: issue.SeverityHigh, Confidence: 0.65, Languages: LangRust,
		Description: "ptr::copy/copy_nonoverlapping/write_bytes (or ptr::read/ptr::write through an unbounded offset) moves a count of elements that is not checked against both the source's and the destination's length: a buffer overflow.",
		Suggestion:  "Use copy_from_slice/clone_from_slice, or assert that the count fits both buffers (count <= src.len() && count <= dst.len()) right before the copy.",
	},
	{
		ID: "rust.unsafe.from-raw-parts", Title: "slice from a raw pointer with an unchecked length", CWE: 125, Category: CatUnsafe,
		Severity: issue.SeverityHigh, Confidence: 0.65, Languages: LangRust,
		Description: "slice::from_raw_parts(_mut) builds a slice from a pointer that may be null (never checked) or a length that comes from a parameter or another call and is never compared with anything.",
		Suggestion:  "Check the pointer for null (an empty slice for len 0) and validate the length against the real allocation before building the slice; state the contract in # Safety.",
	},
	{
		ID: "rust.unsafe.box-from-raw", Title: "double ownership from a raw pointer", CWE: 415, Category: CatMemory,
		Severity: issue.SeverityHigh, Confidence: 0.7, Languages: LangRust,
		Description: "Box/Arc/Rc/CString::from_raw or Vec/String::from_raw_parts takes ownership of a pointer twice, or of a pointer it never owned (a reference, a buffer a live Vec still owns): a double free or a free of memory the allocator did not hand out.",
		Suggestion:  "Rebuild an owner only from a pointer made by the matching into_raw (or as_mut_ptr after mem::forget/ManuallyDrop), exactly once per pointer.",
	},
	{
		ID: "rust.unsafe.uninit", Title: "uninitialized or zeroed memory for a type that forbids it", CWE: 908, Category: CatUnsafe,
		Severity: issue.SeverityHigh, Confidence: 0.75, Languages: LangRust,
		Description: "mem::uninitialized, mem::zeroed for a type with no valid all-zero value (references, Box, Vec, String, NonNull, fn pointers), or MaybeUninit::uninit().assume_init() creates an invalid value: undefined behaviour.",
		Suggestion:  "Use MaybeUninit<T>, write every field, then assume_init(); use Default or Option<…> instead of zeroed for pointer-holding types.",
	},
	{
		ID: "rust.unsafe.assume-init", Title: "assume_init before the value is written", CWE: 457, Category: CatUnsafe,
		Severity: issue.SeverityHigh, Confidence: 0.7, Languages: LangRust,
		Description: "x.assume_init() is called on a MaybeUninit::uninit() value that nothing wrote in between (no write, as_mut_ptr or &mut borrow): reading uninitialized memory.",
		Suggestion:  "Initialise the value first (x.write(v), or pass x.as_mut_ptr() to the initialising call) and only then call assume_init().",
	},
	{
		ID: "rust.unsafe.set-len", Title: "Vec::set_len over uninitialized elements", CWE: 908, Category: CatUnsafe,
		Severity: issue.SeverityHigh, Confidence: 0.7, Languages: LangRust,
		Description: "v.set_len(n) grows a Vec over elements that nothing wrote before (e.g. right after Vec::with_capacity(n)); reading or borrowing them is undefined behaviour.",
		Suggestion:  "Write the elements first (spare_capacity_mut, ptr::write through as_mut_ptr, or an FFI call that fills them) and call set_len after; or use resize/vec![0; n].",
	},
	{
		ID: "rust.unsafe.send-sync", Title: "unsafe impl of Send or Sync", CWE: 362, Category: CatConcurrency,
		Severity: issue.SeverityMedium, Confidence: 0.6, Languages: LangRust,
		Description: "unsafe impl Send/Sync overrides the compiler's thread-safety check; if the type holds raw pointers, Rc, Cell or RefCell state it can race or be freed twice across threads.",
		Suggestion:  "Prefer thread-safe fields (Arc, Mutex, atomics) so Send/Sync are derived; otherwise bound the impl's type parameters and justify it in a // SAFETY: comment.",
	},
	{
		ID: "rust.unsafe.static-mut", Title: "mutable static", CWE: 362, Category: CatConcurrency,
		Severity: issue.SeverityMedium, Confidence: 0.7, Languages: LangRust,
		Description: "A static mut is global mutable state: every access is unsafe, nothing synchronises it, and two threads touching it race (references to it are undefined behaviour in edition 2024).",
		Suggestion:  "Use an atomic, a Mutex/RwLock, OnceLock/LazyLock or thread_local! instead of static mut.",
	},
	{
		ID: "rust.unsafe.unchecked-math", Title: "unchecked integer arithmetic", CWE: 190, Category: CatArithmetic,
		Severity: issue.SeverityMedium, Confidence: 0.65, Languages: LangRust,
		Description: "unchecked_add/sub/mul/shl/shr/div/rem/neg/pow is undefined behaviour on overflow, and no comparison or checked_* call on its operands precedes it.",
		Suggestion:  "Use checked_*/wrapping_*/saturating_* arithmetic, or assert the bound (debug_assert!(a <= MAX - b)) right before the unchecked call.",
	},
}
