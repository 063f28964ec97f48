//go:build tsassert

package syntax

// assertsWanted is whether this build asks for the runtime's asserts
// (-tags tsassert: yes; see ndebug.go).
const assertsWanted = true
