use std::sync::atomic::{AtomicU32, Ordering};

static mut COUNTER: u32 = 0; // want "rust.unsafe.static-mut"

pub fn next_id() -> u32 {
    // SAFETY: (wrong) callers are assumed to be single-threaded.
    unsafe {
        COUNTER += 1;
        COUNTER
    }
}

pub static mut LOGGER: Option<fn(&str)> = None; // want "rust.unsafe.static-mut"

pub fn set_logger(f: fn(&str)) {
    // SAFETY: (wrong) called once at start-up, supposedly.
    unsafe { LOGGER = Some(f) };
}

static mut TABLE: [u8; 4] = [1, 2, 3, 4]; // want "rust.unsafe.static-mut"

pub fn table_sum() -> u32 {
    let mut s = 0;
    for i in 0..4 {
        // SAFETY: TABLE is never written.
        s += u32::from(unsafe { TABLE[i] });
    }
    s
}

// Safe look-alikes.

static NEXT: AtomicU32 = AtomicU32::new(0); // safe "rust.unsafe.static-mut"

pub fn next_atomic() -> u32 {
    NEXT.fetch_add(1, Ordering::Relaxed)
}

extern "C" {
    static mut errno_value: i32; // safe "rust.unsafe.static-mut"
}

pub fn mutate(v: &mut Vec<u8>) {
    let mut local = 0u8; // safe "rust.unsafe.static-mut"
    local += 1;
    v.push(local);
}
