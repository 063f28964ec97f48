use std::mem::MaybeUninit;

extern "C" {
    fn fill_config(out: *mut Config) -> i32;
}

#[repr(C)]
pub struct Config {
    pub flags: u32,
}

pub fn config_unwritten() -> Config {
    let cfg = MaybeUninit::<Config>::uninit();
    // SAFETY: (wrong) nothing wrote cfg.
    unsafe { cfg.assume_init() } // want "rust.unsafe.assume-init"
}

pub fn peek() -> u32 {
    let slot: MaybeUninit<u32> = MaybeUninit::uninit();
    let p = slot.as_ptr();
    drop(p);
    // SAFETY: (wrong) as_ptr does not write.
    unsafe { *slot.assume_init_ref() } // want "rust.unsafe.assume-init"
}

// Safe look-alikes.

pub fn config_filled() -> Option<Config> {
    let mut cfg = MaybeUninit::<Config>::uninit();
    // SAFETY: fill_config writes the whole struct when it returns 0.
    let rc = unsafe { fill_config(cfg.as_mut_ptr()) };
    if rc != 0 {
        return None;
    }
    // SAFETY: written by fill_config.
    Some(unsafe { cfg.assume_init() }) // safe "rust.unsafe.assume-init"
}

pub fn written() -> u32 {
    let mut slot = MaybeUninit::uninit();
    slot.write(3u32);
    // SAFETY: written above.
    unsafe { slot.assume_init() } // safe "rust.unsafe.assume-init"
}

pub fn init_with(f: impl FnOnce(&mut MaybeUninit<u32>)) -> u32 {
    let mut slot = MaybeUninit::uninit();
    f(&mut slot);
    // SAFETY: f initializes the slot (its contract).
    unsafe { slot.assume_init() } // safe "rust.unsafe.assume-init"
}

pub fn from_param(slot: MaybeUninit<u32>) -> u32 {
    // SAFETY: the caller passes an initialized slot.
    unsafe { slot.assume_init() } // safe "rust.unsafe.assume-init"
}
