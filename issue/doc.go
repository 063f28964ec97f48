// Package issue is jsec's shared vocabulary: the Issue a checker reports, its
// severity, the snippet of code around it, the verdict a verifier attaches to
// it, and the stable fingerprint that identifies it across runs.
//
// Every other package depends on this one and it depends on nothing of jsec's,
// so it holds plain values only: no I/O, no globals beyond constant tables.
package issue
