use std::mem::ManuallyDrop;

pub fn leak_name(name: String) -> usize {
    let kept = ManuallyDrop::new(name); // want "rust.memory.manually-drop"
    kept.len()
}

pub fn leak_buffer(n: usize) -> u8 {
    let mut buf = ManuallyDrop::new(vec![1u8; n]); // want "rust.memory.manually-drop"
    buf.push(2);
    buf[0]
}

// Safe look-alikes.

pub fn into_parts(v: Vec<u8>) -> (*mut u8, usize, usize) {
    let mut v = ManuallyDrop::new(v); // safe "rust.memory.manually-drop"
    (v.as_mut_ptr(), v.len(), v.capacity())
}

pub fn dropped(name: String) -> usize {
    let mut kept = ManuallyDrop::new(name); // safe "rust.memory.manually-drop"
    let n = kept.len();
    // SAFETY: kept is not used afterwards.
    unsafe { ManuallyDrop::drop(&mut kept) };
    n
}

pub fn unwrapped(name: String) -> String {
    let kept = ManuallyDrop::new(name); // safe "rust.memory.manually-drop"
    ManuallyDrop::into_inner(kept)
}

pub fn returned(name: String) -> ManuallyDrop<String> {
    let kept = ManuallyDrop::new(name); // safe "rust.memory.manually-drop"
    kept
}

pub struct Guarded {
    inner: ManuallyDrop<Vec<u8>>,
}

impl Guarded {
    pub fn new(v: Vec<u8>) -> Self {
        Guarded { inner: ManuallyDrop::new(v) } // safe "rust.memory.manually-drop"
    }
}

impl Drop for Guarded {
    fn drop(&mut self) {
        // SAFETY: inner is dropped exactly once, here.
        unsafe { ManuallyDrop::drop(&mut self.inner) }
    }
}

pub fn borrowed_fd(fd: i32) -> std::io::Result<std::fs::File> {
    use std::os::unix::io::FromRawFd;
    // SAFETY: fd is open; ManuallyDrop keeps it from being closed here.
    let file = ManuallyDrop::new(unsafe { std::fs::File::from_raw_fd(fd) }); // safe "rust.memory.manually-drop"
    file.try_clone()
}

pub fn peek_arc(data: *const u32) -> u32 {
    // SAFETY: data comes from Arc::into_raw; the count must not drop here.
    let arc = ManuallyDrop::new(unsafe { std::sync::Arc::from_raw(data) }); // safe "rust.memory.manually-drop"
    **arc
}
