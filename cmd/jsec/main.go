// Command jsec finds security defects in C, C++ and Rust code.
package main

import "os"

// version is set at build time (-ldflags "-X main.version=...").
var version = "dev"

func main() { os.Exit(run(os.Args[1:], ioStreams())) }
