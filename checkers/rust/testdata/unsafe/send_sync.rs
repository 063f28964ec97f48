use std::cell::RefCell;
use std::rc::Rc;

pub struct RawBuf {
    ptr: *mut u8,
    len: usize,
}

unsafe impl Send for RawBuf {} // want "rust.unsafe.send-sync"

pub struct Shared {
    cache: RefCell<Vec<u8>>,
}

unsafe impl Sync for Shared {} // want "rust.unsafe.send-sync"

pub struct Handle<T> {
    inner: Rc<T>,
}

unsafe impl<T> Send for Handle<T> {} // want "rust.unsafe.send-sync"

pub struct Wrapper<T>(T);

unsafe impl<T: Send> std::marker::Send for Wrapper<T> {} // want "rust.unsafe.send-sync"

pub struct Table {
    rows: Vec<u64>,
}

// SAFETY: Table only holds owned integers; the impl exists for an FFI
// wrapper type that embeds it.
unsafe impl Sync for Table {} // want "rust.unsafe.send-sync"

// Safe look-alikes.

pub trait Sendable: Send {}

impl Sendable for Table {} // safe "rust.unsafe.send-sync"

pub fn assert_send<T: Send + Sync>(_t: &T) {} // safe "rust.unsafe.send-sync"

pub struct Marker;

impl Clone for Marker { // safe "rust.unsafe.send-sync"
    fn clone(&self) -> Self {
        Marker
    }
}
