use std::ptr::{self, NonNull};

pub struct Node {
    pub value: u32,
    pub next: *mut Node,
}

extern "C" {
    fn malloc(n: usize) -> *mut u8;
}

// A safe fn that trusts any pointer it is given is unsound.
pub fn node_value(node: *const Node) -> u32 {
    // SAFETY: (wrong) callers are assumed to pass a live node.
    unsafe { (*node).value } // want "rust.unsafe.raw-deref"
}

pub fn read_le(src: *const u32) -> u32 {
    // SAFETY: none given.
    u32::from_le(unsafe { src.read() }) // want "rust.unsafe.raw-deref"
}

// An unsafe fn hands the pointer's validity to its callers.
unsafe fn bump(counter: *mut u64) {
    // SAFETY: the caller passes a valid counter.
    unsafe { *counter += 1 } // safe "rust.unsafe.raw-deref"
}

pub fn scratch(n: usize) -> u8 {
    // SAFETY: malloc returns memory for n bytes (or null, unchecked here).
    unsafe {
        let buf = malloc(n) as *mut u8;
        *buf = 0; // want "rust.unsafe.raw-deref"
        *buf
    }
}

pub fn stale() {
    let mut slot: *mut u8 = ptr::null_mut();
    // SAFETY: none; slot is still null.
    unsafe { *slot = 1 }; // want "rust.unsafe.raw-deref"
    slot = slot.wrapping_add(0);
    drop(slot);
}

pub fn widen(raw: *mut u8) {
    let words = raw as *mut u32;
    // SAFETY: none.
    unsafe { *words = 7 }; // want "rust.unsafe.raw-deref"
}

// Safe look-alikes.

pub fn node_value_checked(node: *const Node) -> Option<u32> {
    if node.is_null() {
        return None;
    }
    // SAFETY: checked for null above; callers pass nodes from the list.
    Some(unsafe { (*node).value }) // safe "rust.unsafe.raw-deref"
}

pub fn read_le_asserted(src: *const u32) -> u32 {
    assert!(!src.is_null(), "null source");
    // SAFETY: non-null by the assertion; alignment is the caller's.
    u32::from_le(unsafe { src.read() }) // safe "rust.unsafe.raw-deref"
}

pub fn from_reference(x: &u32) -> u32 {
    let p = x as *const u32;
    let q: *const u32 = &*x;
    // SAFETY: both pointers come from a live reference.
    unsafe { *p + *q } // safe "rust.unsafe.raw-deref"
}

pub fn from_buffer(v: &mut Vec<u8>) {
    let p: *mut u8 = v.as_mut_ptr();
    // SAFETY: v is non-empty, checked by the caller's contract.
    unsafe { *p = 0 } // safe "rust.unsafe.raw-deref"
}

pub fn through_option(node: *const Node) -> u32 {
    // SAFETY: as_ref returns None for null.
    match unsafe { node.as_ref() } {
        Some(n) => n.value, // safe "rust.unsafe.raw-deref"
        None => 0,
    }
}

pub fn through_nonnull(node: *mut Node) -> u32 {
    let Some(nn) = NonNull::new(node) else { return 0 };
    // SAFETY: nn is non-null; node comes from Box::into_raw.
    unsafe { (*node).value + nn.as_ref().value } // safe "rust.unsafe.raw-deref"
}

pub fn by_reference(r: &Node) -> u32 {
    let copy = *r; // safe "rust.unsafe.raw-deref"
    copy.value
}

/// Increments a counter that C owns.
///
/// # Safety
///
/// `counter` must be non-null, aligned and valid for writes.
pub unsafe fn bump_documented(counter: *mut u64) {
    // SAFETY: guaranteed by the caller, see # Safety.
    unsafe { *counter += 1 } // safe "rust.unsafe.raw-deref"
}

/// A mention of *p in a comment: `*node` is not code.
pub fn mention() -> &'static str {
    "*node" // safe "rust.unsafe.raw-deref"
}

pub struct Slot {
    value: std::cell::UnsafeCell<Option<u32>>,
}

impl Slot {
    pub fn set(&self, v: u32) {
        let dest: *mut Option<u32> = self.value.get();
        // SAFETY: UnsafeCell::get never returns null; callers hold the lock.
        unsafe { *dest = Some(v) } // safe "rust.unsafe.raw-deref"
    }
}

pub fn from_lookup(entry: Option<&Node>) -> u32 {
    let found = entry.expect("node registered") as *const Node;
    // SAFETY: the pointer comes from a reference.
    unsafe { (*found).value } // safe "rust.unsafe.raw-deref"
}

pub extern "C" fn on_value(out: *mut u32) {
    // SAFETY: the C library always passes a valid out pointer.
    unsafe { *out = 1 } // want "rust.unsafe.raw-deref"
}

extern "C" {
    fn last_error(msg: *mut *mut u8) -> i32;
}

pub fn error_byte() -> u8 {
    let mut msg: *mut u8 = ptr::null_mut();
    // SAFETY: last_error stores a message pointer in msg when it returns non-zero.
    unsafe {
        if last_error(&mut msg) != 0 {
            return *msg; // safe "rust.unsafe.raw-deref"
        }
    }
    0
}
