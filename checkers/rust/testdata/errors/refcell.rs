use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

pub struct Cache {
    entries: RefCell<HashMap<String, u32>>,
    hits: RefCell<u32>,
}

impl Cache {
    pub fn get_or_insert(&self, k: &str) -> u32 {
        let map = self.entries.borrow();
        if let Some(v) = map.get(k) {
            return *v;
        }
        self.entries.borrow_mut().insert(k.to_string(), 0); // want "rust.refcell.double-borrow"
        0
    }

    pub fn get_or_insert_fixed(&self, k: &str) -> u32 {
        {
            let map = self.entries.borrow();
            if let Some(v) = map.get(k) {
                return *v;
            }
        }
        self.entries.borrow_mut().insert(k.to_string(), 0); // safe "rust.refcell.double-borrow"
        0
    }

    pub fn dropped(&self, k: &str) {
        let map = self.entries.borrow();
        let present = map.contains_key(k);
        drop(map);
        if !present {
            self.entries.borrow_mut().insert(k.to_string(), 1); // safe "rust.refcell.double-borrow"
        }
    }

    pub fn bump(&self) {
        let n = *self.hits.borrow();
        *self.hits.borrow_mut() = n + 1; // safe "rust.refcell.double-borrow"
    }

    pub fn bump_broken(&self) {
        *self.hits.borrow_mut() = *self.hits.borrow() + 1; // want "rust.refcell.double-borrow"
    }

    pub fn evict(&self) {
        match self.entries.borrow().keys().next().cloned() {
            Some(k) => {
                self.entries.borrow_mut().remove(&k); // want "rust.refcell.double-borrow"
            }
            None => {}
        }
    }

    pub fn evict_fixed(&self) {
        let first = self.entries.borrow().keys().next().cloned();
        if let Some(k) = first {
            self.entries.borrow_mut().remove(&k); // safe "rust.refcell.double-borrow"
        }
    }

    pub fn try_update(&self) -> bool {
        let _g = self.hits.borrow();
        match self.hits.try_borrow_mut() { // safe "rust.refcell.double-borrow"
            Ok(mut h) => {
                *h += 1;
                true
            }
            Err(_) => false,
        }
    }
}

pub fn shared(list: Rc<RefCell<Vec<u32>>>) {
    let mut w = list.borrow_mut();
    w.push(1);
    let r = list.borrow(); // want "rust.refcell.double-borrow"
    println!("{}", r.len());
}

pub fn two_readers(list: &RefCell<Vec<u32>>) -> usize {
    let a = list.borrow();
    let b = list.borrow(); // safe "rust.refcell.double-borrow"
    a.len() + b.len()
}

pub fn iterate(list: &RefCell<Vec<u32>>) {
    for v in list.borrow().iter() {
        if *v == 0 {
            list.borrow_mut().push(1); // want "rust.refcell.double-borrow"
        }
    }
}

pub fn condition(list: &RefCell<Vec<u32>>) {
    if list.borrow().is_empty() {
        list.borrow_mut().push(1); // safe "rust.refcell.double-borrow"
    }
}

pub fn not_refcell(m: &mut HashMap<String, u32>) -> usize {
    use std::borrow::BorrowMut;
    let a: &HashMap<String, u32> = m;
    a.len() + m.borrow_mut().len() // safe "rust.refcell.double-borrow"
}
