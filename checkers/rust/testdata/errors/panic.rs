pub enum Op {
    Add,
    Sub,
}

/// Parses an operator.
pub fn parse_op(c: char) -> Op {
    match c {
        '+' => Op::Add,
        '-' => Op::Sub,
        other => panic!("unknown operator {}", other), // want "rust.panic.explicit"
    }
}

pub fn apply(op: Op, a: i64, b: i64) -> i64 {
    match op {
        Op::Add => a + b,
        Op::Sub => a - b,
    }
}

pub fn digit(n: u32) -> char {
    match n % 3 {
        0 => 'a',
        1 => 'b',
        2 => 'c',
        _ => unreachable!(), // safe "rust.panic.explicit"
    }
}

pub fn after_loop(v: &[u8]) -> usize {
    for (i, b) in v.iter().enumerate() {
        if *b == 0 {
            return i;
        }
    }
    unreachable!("input is NUL-terminated") // want "rust.panic.explicit"
}

pub fn export(_path: &str) -> Result<(), String> {
    todo!() // want "rust.panic.explicit"
}

pub fn legacy() {
    std::unimplemented!("legacy format") // want "rust.panic.explicit"
}

/// Returns the element at `i`.
///
/// # Panics
///
/// Panics if `i` is out of bounds.
#[inline]
pub fn element(v: &[u32], i: usize) -> u32 {
    if i >= v.len() {
        panic!("index {} out of bounds", i); // want "rust.panic.explicit"
    }
    v[i]
}

pub fn recoverable(s: &str) -> Result<u32, String> {
    // A comment saying panic!("x") is not a panic.
    let msg = "panic!(\"no\")"; // safe "rust.panic.explicit"
    s.parse::<u32>().map_err(|e| format!("{}: {}", msg, e))
}

pub fn catch() -> bool {
    std::panic::catch_unwind(|| 1).is_ok() // safe "rust.panic.explicit"
}

const _: () = assert!(std::mem::size_of::<u64>() == 8);
const CHECK: usize = if 1 > 0 { 1 } else { panic!("bad") }; // safe "rust.panic.explicit"

#[test]
fn test_parse() {
    panic!("test failure"); // safe "rust.panic.explicit"
}

pub struct Table {
    rows: Vec<Vec<u32>>,
    names: std::collections::HashMap<String, usize>,
}

impl std::ops::Index<&str> for Table {
    type Output = Vec<u32>;

    fn index(&self, name: &str) -> &Vec<u32> {
        let i = self.names.get(name).expect("no such row"); // safe "rust.panic.unwrap"
        &self.rows[*i]
    }
}

impl Table {
    pub fn row(&self, name: &str) -> &Vec<u32> {
        #[cfg(debug_assertions)]
        {
            if !self.names.contains_key(name) {
                panic!("unknown row {}", name); // safe "rust.panic.explicit"
            }
        }
        &self.rows[self.names[name]]
    }

    #[track_caller]
    pub fn column(&self, i: usize) -> Vec<u32> {
        if self.rows.iter().any(|r| r.len() <= i) {
            panic!("column {} out of range", i); // want "rust.panic.explicit"
        }
        self.rows.iter().map(|r| r[i]).collect()
    }

    pub fn empty_iter(&self) -> impl Iterator<Item = u32> + '_ {
        std::iter::empty::<u32>().map(|_| unreachable!()) // safe "rust.panic.explicit"
    }

    fn assert_consistent(&self) {
        if self.rows.len() != self.names.len() {
            panic!("table is inconsistent"); // safe "rust.panic.explicit"
        }
    }
}

pub fn mode(m: u8) -> u8 {
    match m {
        0 | 1 => m,
        _ => unreachable!(), // want "rust.panic.explicit"
    }
}
