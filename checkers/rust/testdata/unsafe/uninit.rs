use std::mem::{self, MaybeUninit};
use std::ptr::NonNull;

pub struct Conn {
    pub fd: i32,
    pub name: String,
}

#[repr(C)]
pub struct Stat {
    pub size: u64,
    pub mode: u32,
}

pub fn legacy() -> u64 {
    // SAFETY: (wrong) never sound for most types.
    let v: u64 = unsafe { mem::uninitialized() }; // want "rust.unsafe.uninit"
    v
}

pub fn zero_ref() -> &'static u8 {
    // SAFETY: (wrong) a null reference.
    unsafe { mem::zeroed() } // want "rust.unsafe.uninit"
}

pub fn zero_box() -> Box<u32> {
    // SAFETY: (wrong).
    unsafe { std::mem::zeroed::<Box<u32>>() } // want "rust.unsafe.uninit"
}

pub fn zero_conn() -> Conn {
    // SAFETY: (wrong) Conn holds a String.
    let c: Conn = unsafe { mem::zeroed() }; // want "rust.unsafe.uninit"
    c
}

pub fn zero_nonnull() -> NonNull<u8> {
    // SAFETY: (wrong).
    unsafe { MaybeUninit::<NonNull<u8>>::zeroed().assume_init() } // want "rust.unsafe.uninit"
}

pub fn never_written() -> [u8; 16] {
    // SAFETY: (wrong) reads uninitialized bytes.
    unsafe { MaybeUninit::<[u8; 16]>::uninit().assume_init() } // want "rust.unsafe.uninit"
}

// Safe look-alikes.

pub fn zero_stat() -> Stat {
    // SAFETY: Stat is plain integers; all-zero is valid.
    unsafe { mem::zeroed() } // safe "rust.unsafe.uninit"
}

pub fn zero_option() -> Option<Box<u32>> {
    // SAFETY: all-zero is None.
    unsafe { mem::zeroed() } // safe "rust.unsafe.uninit"
}

pub fn zero_array() -> [u32; 8] {
    // SAFETY: integers.
    unsafe { mem::zeroed::<[u32; 8]>() } // safe "rust.unsafe.uninit"
}

pub fn uninit_slots() -> [MaybeUninit<u8>; 32] {
    // SAFETY: an array of MaybeUninit needs no initialization.
    unsafe { MaybeUninit::<[MaybeUninit<u8>; 32]>::uninit().assume_init() } // safe "rust.unsafe.uninit"
}

pub fn uninit_then_write() -> u64 {
    let mut v = MaybeUninit::<u64>::uninit(); // safe "rust.unsafe.uninit"
    v.write(5);
    // SAFETY: written above.
    unsafe { v.assume_init() }
}

/// `mem::zeroed()` in docs is not code.
pub fn zeroed_count(zeroed: u32) -> u32 {
    zeroed + 1 // safe "rust.unsafe.uninit"
}

pub struct Wakers {
    slots: [MaybeUninit<u64>; 8],
    used: usize,
}

impl Wakers {
    pub fn new() -> Self {
        Self {
            // SAFETY: an array of MaybeUninit needs no initialization.
            slots: unsafe { MaybeUninit::uninit().assume_init() }, // safe "rust.unsafe.uninit"
            used: 0,
        }
    }
}
