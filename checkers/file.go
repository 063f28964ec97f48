package checkers

import (
	"path"
	"strings"
	"sync"
)

// File is a source file handed to an analyzer.
type File struct {
	// Path is relative to the scanned root, '/'-separated.
	Path string
	// Lang is "c", "cpp" or "rust".
	Lang string
	Src  []byte
	// Test reports whether the path looks like test code.
	Test bool

	linesOnce sync.Once
	lines     Lines
	lexed     *Lexed
}

// UseLexed hands the analyzer tokens already made for f (deciding a .h
// file's language lexes it as C), so that it does not lex f again. lx must
// be what f's language's Lex returns for f.Src.
func (f *File) UseLexed(lx *Lexed) { f.lexed = lx }

// NewFile makes a File, classifying test code by its path.
func NewFile(rel, lang string, src []byte) *File {
	return &File{Path: rel, Lang: lang, Src: src, Test: IsTestPath(rel)}
}

// Lines returns the file's line index, built on first use.
func (f *File) Lines() Lines {
	f.linesOnce.Do(func() {
		buf, _ := linesPool.Get()
		f.lines = appendLines(buf, f.Src)
	})
	return f.lines
}

// recycleLines hands the line index back for the next file; f's Lines
// must not be used after.
func (f *File) recycleLines() {
	if f.lines != nil {
		linesPool.Put(f.lines[:0])
		f.lines = nil
	}
}

var linesPool FreeList[Lines]

var testDirs = map[string]bool{
	"test": true, "tests": true, "testing": true, "testsuite": true, "unittest": true,
	"unittests": true, "__tests__": true, "spec": true, "benches": true, "bench": true,
	"benchmark": true, "benchmarks": true, "examples": true, "example": true, "fuzz": true,
}

// IsTestPath reports whether a root-relative path is test, benchmark,
// fuzzing or example code, where findings matter less.
func IsTestPath(rel string) bool {
	parts := strings.Split(rel, "/")
	for _, d := range parts[:len(parts)-1] {
		if testDirs[strings.ToLower(d)] {
			return true
		}
	}
	base := strings.ToLower(path.Base(rel))
	stem := strings.TrimSuffix(base, path.Ext(base))
	return stem == "test" || stem == "tests" || strings.HasPrefix(stem, "test_") || strings.HasSuffix(stem, "_test") ||
		strings.HasSuffix(stem, "_tests") || strings.HasSuffix(stem, "_unittest") ||
		strings.HasPrefix(stem, "fuzz_") || strings.HasSuffix(stem, "_fuzzer")
}
