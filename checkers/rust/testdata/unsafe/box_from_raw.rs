pub struct Session {
    pub id: u64,
}

#[no_mangle]
pub extern "C" fn session_new(id: u64) -> *mut Session {
    Box::into_raw(Box::new(Session { id }))
}

/// Frees a session twice on the same path.
///
/// # Safety
/// `s` must come from `session_new`.
#[no_mangle]
pub unsafe extern "C" fn session_close(s: *mut Session) {
    if s.is_null() {
        return;
    }
    // SAFETY: s comes from session_new.
    let first = unsafe { Box::from_raw(s) };
    drop(first);
    // SAFETY: (wrong) s was already freed above.
    let again = unsafe { Box::from_raw(s) }; // want "rust.unsafe.box-from-raw"
    drop(again);
}

pub fn from_stack() -> u64 {
    let mut local = Session { id: 7 };
    let p = &mut local as *mut Session;
    // SAFETY: (wrong) p points to a stack value.
    let b = unsafe { Box::from_raw(p) }; // want "rust.unsafe.box-from-raw"
    b.id
}

pub fn steal(v: &mut Vec<u8>) -> Vec<u8> {
    let len = v.len();
    // SAFETY: (wrong) v still owns its buffer.
    unsafe { Vec::from_raw_parts(v.as_mut_ptr(), len, v.capacity()) } // want "rust.unsafe.box-from-raw"
}

pub fn bump(shared: &std::sync::Arc<Session>) -> std::sync::Arc<Session> {
    // SAFETY: (wrong) as_ptr gives no reference count.
    unsafe { std::sync::Arc::from_raw(std::sync::Arc::as_ptr(shared)) } // want "rust.unsafe.box-from-raw"
}

// Safe look-alikes.

/// Frees a session once.
///
/// # Safety
/// `s` must come from `session_new`.
#[no_mangle]
pub unsafe extern "C" fn session_free(s: *mut Session) {
    if !s.is_null() {
        // SAFETY: s comes from session_new and is freed once.
        drop(unsafe { Box::from_raw(s) }); // safe "rust.unsafe.box-from-raw"
    }
}

pub fn either(s: *mut Session, keep: bool) -> u64 {
    if s.is_null() {
        return 0;
    }
    if keep {
        // SAFETY: s comes from session_new; only one branch runs.
        let b = unsafe { Box::from_raw(s) };
        b.id
    } else {
        // SAFETY: as above.
        let b = unsafe { Box::from_raw(s) }; // safe "rust.unsafe.box-from-raw"
        b.id + 1
    }
}

pub fn round_trip(v: Vec<u8>) -> Vec<u8> {
    let mut v = std::mem::ManuallyDrop::new(v);
    let (p, len, cap) = (v.as_mut_ptr(), v.len(), v.capacity());
    // SAFETY: v is never dropped, so the parts have exactly one owner.
    unsafe { Vec::from_raw_parts(p, len, cap) } // safe "rust.unsafe.box-from-raw"
}

pub fn forgotten(s: String) -> String {
    let mut s = s;
    let p = s.as_mut_ptr();
    let (len, cap) = (s.len(), s.capacity());
    std::mem::forget(s);
    // SAFETY: s was forgotten; the parts have one owner.
    unsafe { String::from_raw_parts(p, len, cap) } // safe "rust.unsafe.box-from-raw"
}

pub struct Block {
    next: Option<std::ptr::NonNull<Block>>,
}

pub fn free_chain(first: std::ptr::NonNull<Block>) {
    let mut cur = Some(first);
    while let Some(block) = cur {
        // SAFETY: every block was made by Box::into_raw in another module.
        let b = unsafe { Box::from_raw(block.as_ptr()) }; // safe "rust.unsafe.box-from-raw"
        cur = b.next;
    }
}

pub fn release(raw: *const Session) {
    // SAFETY: raw comes from Arc::into_raw in the registry.
    drop(unsafe { std::sync::Arc::from_raw(raw) }); // safe "rust.unsafe.box-from-raw"
}
