use std::sync::atomic::{AtomicUsize, Ordering};

extern "C" {
    fn getpid() -> i32;
    fn isatty(fd: i32) -> i32;
}

pub fn process_id() -> i32 {
    unsafe { getpid() } // want "rust.unsafe.block-no-safety"
}

pub fn stdout_is_tty() -> bool {
    let r = unsafe { isatty(1) }; // want "rust.unsafe.block-no-safety"
    r == 1
}

pub fn first_byte(buf: &[u8]) -> u8 {
    assert!(!buf.is_empty());
    unsafe { // want "rust.unsafe.block-no-safety"
        *buf.get_unchecked(0)
    }
}

pub fn process_id_documented() -> i32 {
    // SAFETY: getpid has no preconditions and cannot fail.
    unsafe { getpid() } // safe "rust.unsafe.block-no-safety"
}

pub fn first_byte_documented(buf: &[u8]) -> u8 {
    assert!(!buf.is_empty());
    // SAFETY: the assertion above guarantees that index 0 is in bounds,
    // and the slice is borrowed for the whole call, so nothing can
    // shrink it between the check and the read. This comment is long on
    // purpose: its SAFETY line is more than three lines above the block.
    unsafe { *buf.get_unchecked(0) } // safe "rust.unsafe.block-no-safety"
}

pub fn tty_inline() -> bool {
    let r = unsafe { // safe "rust.unsafe.block-no-safety"
        // SAFETY: isatty only inspects the descriptor number.
        isatty(2)
    };
    r == 1
}

pub fn counter(c: &AtomicUsize) -> usize {
    // A comment that mentions unsafe { code } is not a block.
    let unsafe_count = c.load(Ordering::Relaxed); // safe "rust.unsafe.block-no-safety"
    unsafe_count
}

/// The text "unsafe { x }" in a doc comment is not code either.
pub fn describe() -> &'static str {
    "unsafe { getpid() }" // safe "rust.unsafe.block-no-safety"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pid_is_positive() {
        assert!(unsafe { getpid() } > 0); // safe "rust.unsafe.block-no-safety"
    }
}
