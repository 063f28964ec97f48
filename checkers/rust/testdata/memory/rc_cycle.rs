use std::cell::RefCell;
use std::rc::{Rc, Weak};
use std::sync::{Arc, Mutex};

pub struct DNode { // want "rust.memory.rc-cycle"
    pub value: i32,
    pub prev: Option<Rc<RefCell<DNode>>>,
    pub next: Option<Rc<RefCell<DNode>>>,
}

pub struct TreeNode { // want "rust.memory.rc-cycle"
    pub parent: Option<Arc<Mutex<TreeNode>>>,
    pub children: Vec<Arc<Mutex<TreeNode>>>,
}

pub struct Owner { // want "rust.memory.rc-cycle"
    pub pet: RefCell<Option<Rc<Pet>>>,
}

pub struct Pet {
    pub owner: Rc<RefCell<Owner>>,
}

// Safe look-alikes.

pub struct WNode { // safe "rust.memory.rc-cycle"
    pub parent: RefCell<Weak<WNode>>,
    pub children: RefCell<Vec<Rc<WNode>>>,
}

pub struct List { // safe "rust.memory.rc-cycle"
    pub head: i32,
    pub tail: Option<Rc<RefCell<List>>>,
}

pub struct Frozen { // safe "rust.memory.rc-cycle"
    pub left: Option<Rc<Frozen>>,
    pub right: Option<Rc<Frozen>>,
}

pub struct Shared { // safe "rust.memory.rc-cycle"
    pub config: Rc<RefCell<Vec<String>>>,
    pub cache: Arc<Mutex<Vec<u8>>>,
}

// struct Ghost { prev: Rc<RefCell<Ghost>>, next: Rc<RefCell<Ghost>> } in a comment
pub const SHAPE: &str = "struct Loop { a: Rc<RefCell<Loop>>, b: Rc<RefCell<Loop>> }"; // safe "rust.memory.rc-cycle"
