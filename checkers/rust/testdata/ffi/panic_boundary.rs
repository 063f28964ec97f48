use std::os::raw::c_int;
use std::panic;

pub struct State {
    pub items: Vec<c_int>,
    pub slot: Option<c_int>,
}

#[no_mangle]
pub extern "C" fn first_item(s: &State) -> c_int {
    *s.items.first().unwrap() // want "rust.ffi.panic-boundary"
}

#[no_mangle]
pub extern "C" fn take_slot(s: &mut State) -> c_int {
    s.slot.take().expect("slot was empty") // want "rust.ffi.panic-boundary"
}

pub extern "C" fn on_signal(code: c_int) {
    if code < 0 {
        panic!("negative signal {}", code); // want "rust.ffi.panic-boundary" "rust.panic.explicit"
    }
}

pub extern fn mode(m: c_int) -> c_int {
    match m {
        0 | 1 => m,
        _ => unreachable!(), // want "rust.ffi.panic-boundary" "rust.panic.explicit"
    }
}

// Safe look-alikes.

#[no_mangle]
pub extern "C" fn first_item_guarded(s: &State) -> c_int {
    let r = panic::catch_unwind(|| *s.items.first().unwrap()); // safe "rust.ffi.panic-boundary"
    r.unwrap_or(-1)
}

#[no_mangle]
pub extern "C" fn first_or(s: &State) -> c_int {
    s.items.first().copied().unwrap_or(-1) // safe "rust.ffi.panic-boundary"
}

#[no_mangle]
pub extern "C-unwind" fn may_unwind(s: &State) -> c_int {
    *s.items.first().unwrap() // safe "rust.ffi.panic-boundary"
}

pub fn rust_side(s: &State) -> c_int {
    *s.items.first().unwrap() // safe "rust.ffi.panic-boundary"
}

pub type Callback = extern "C" fn(c_int) -> c_int;

pub extern "C" fn nested(v: c_int) -> c_int {
    fn helper(x: Option<c_int>) -> c_int {
        x.unwrap() // safe "rust.ffi.panic-boundary"
    }
    helper(Some(v))
}

/// `extern "C" fn f() { x.unwrap() }` in docs is not code.
pub fn describe() -> &'static str {
    "extern \"C\" fn f() { panic!() }" // safe "rust.ffi.panic-boundary"
}
