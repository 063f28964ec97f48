// Package gfm holds three of goldmark's GitHub Flavored Markdown
// extensions, Table, Strikethrough and TaskList, for the HTML report.
// The files table.go, strikethrough.go and tasklist.go are those of
// github.com/yuin/goldmark/extension at the version in go.mod (MIT
// licence, see LICENSE), with one change: the package clause.
//
// They are copied rather than imported because importing the package
// extension runs its initialisation in every jsec command: its Linkify
// regular expressions (a repetition {1,256} compiles to 256 copies), the
// typographer's and CJK tables, 264 KB and about 3 ms of each process's
// start on a paravirtualised 2-core machine (GODEBUG=inittrace=1), for
// extensions the report never uses. TestCopiesMatchModule holds the files
// to the module's, TestRendersAsModule the HTML to the module's
// extensions'. To update, copy the three files again and change their
// package clause.
package gfm
