package rust

import (
	"strings"
	"testing"

	"github.com/jsec/jsec/checkers"
)

func idents(lx *checkers.Lexed) string {
	var out []string
	for i, t := range lx.Tokens {
		if t.Kind == checkers.TokIdent {
			out = append(out, lx.Text(i))
		}
	}
	return strings.Join(out, " ")
}

func TestLexSkipsCommentsAndLiterals(t *testing.T) {
	src := `#!/usr/bin/env run-cargo-script
//! crate doc mentions unsafe
/* outer /* nested unsafe */ still comment transmute */
fn a<'x>(s: &'x str) -> char {
    let r = r#"raw "unsafe" text"#;
    let b = b"bytes unwrap";
    let c = '\'';
    let d = 'z';
    let q = '"';
    'outer: loop { break 'outer; }
    let r#type = 1;
    let x = 1..2;
    let y = t.0.1;
    d
}
`
	got := idents(Lex([]byte(src)))
	want := "fn a s str char let r let b let c let d let q loop break let type let x let y t d"
	if got != want {
		t.Fatalf("identifiers:\n got %s\nwant %s", got, want)
	}
}

func TestItems(t *testing.T) {
	src := `#![allow(dead_code)]
use std::mem;
const LIMIT: usize = 10;
static TABLE: [u8; 2] = [1, 2];
static INIT: Lazy<Map> = Lazy::new(|| { Map::new() });
#[derive(Debug)]
pub struct S { a: u8 }
struct T(u8);
impl S {
    fn f(&self) -> u8 { self.a }
}
pub fn g() { if true { } }
macro_rules! m { () => {} }
m!(x);
#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn t1() { g(); }
}
pub(crate) mod inner {
    pub fn h() {}
}
impl<'a, S: Index<usize, Output = T>, T> Iterator for Walk<'a, S> where S: Sized { fn next(&mut self) -> Option<T> { None } }
#[cfg(test)]
mod test2 { #[test] fn t() {} }
`
	lx := Lex([]byte(src))
	var got []string
	for _, it := range lx.Items {
		s := strings.Join(strings.Fields(string(lx.Src[it.Start:it.End])), " ")
		if it.Test {
			s = "[test] " + s
		}
		got = append(got, s)
	}
	want := []string{
		"use std::mem;",
		"const LIMIT: usize = 10;",
		"static TABLE: [u8; 2] = [1, 2];",
		"static INIT: Lazy<Map> = Lazy::new(|| { Map::new() });",
		"#[derive(Debug)] pub struct S { a: u8 }",
		"struct T(u8);",
		"impl S { fn f(&self) -> u8 { self.a } }",
		"pub fn g() { if true { } }",
		"macro_rules! m { () => {} }",
		"m!(x);",
		"[test] use super::*;",
		"[test] #[test] fn t1() { g(); }",
		"pub fn h() {}",
		"impl<'a, S: Index<usize, Output = T>, T> Iterator for Walk<'a, S> where S: Sized { fn next(&mut self) -> Option<T> { None } }",
		"[test] #[test] fn t() {}",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("items:\n%s\n--- want\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(lx.Containers) != 3 || !lx.Containers[0].Test || lx.Containers[1].Test || lx.Containers[1].Name != "inner" {
		t.Fatalf("containers: %+v", lx.Containers)
	}
}

func TestLexUnterminated(t *testing.T) {
	for _, src := range []string{`let s = "abc`, `/* /* x */`, `r#"abc`, `'`, `b'`, "r#", `let c = '\`} {
		lx := Lex([]byte(src))
		for _, tk := range lx.Tokens {
			if tk.End < tk.Start || int(tk.End) > len(src) {
				t.Fatalf("%q: bad token %+v", src, tk)
			}
		}
	}
}
