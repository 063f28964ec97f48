package c

import "github.com/jsec/jsec/checkers"

// lexFacts are facts about a file's tokens that the lexer records as it
// emits them, so that the checks which need them take no pass over the
// file's tokens of their own (each such pass cost 1-1.5% of a scan's CPU
// time: the jumps of the uninitialised-read triage, the directives of the
// buffer triage).
type lexFacts struct {
	// directives are the TokPreproc tokens, in order.
	directives []int32
	// gotos are the "goto" identifiers and labels the "case" and
	// "default" ones, in order.
	gotos, labels []int32
	// colons are the ":" tokens (labels, case labels, ?:, bit-fields).
	colons []int32
	// cppMarker is set when some token is "::" or "class".
	cppMarker bool
}

// lexFactsSlot holds a file's lexFacts: Lex fills it in; fileLexFacts
// computes them with a pass for a Lexed made otherwise.
var lexFactsSlot = checkers.NewMemoSlot()

// fileLexFacts returns the facts of the file's tokens.
func fileLexFacts(lx *checkers.Lexed) *lexFacts {
	return checkers.Memoize(lx, lexFactsSlot, func() *lexFacts { return scanLexFacts(lx) })
}

// directiveToks returns the indices of the file's TokPreproc tokens.
func directiveToks(lx *checkers.Lexed) []int32 { return fileLexFacts(lx).directives }

// scanLexFacts computes lexFacts with one pass over the tokens: what the
// lexer's are held to (TestLexFactsMatchScan).
func scanLexFacts(lx *checkers.Lexed) *lexFacts {
	f := &lexFacts{}
	for i, t := range lx.Tokens {
		switch {
		case t.Kind == checkers.TokPreproc:
			f.directives = append(f.directives, int32(i))
		case t.Kind == checkers.TokIdent && lx.Is(i, "goto"):
			f.gotos = append(f.gotos, int32(i))
		case t.Kind == checkers.TokIdent && (lx.Is(i, "case") || lx.Is(i, "default")):
			f.labels = append(f.labels, int32(i))
		case t.Kind == checkers.TokPunct && lx.Is(i, ":"):
			f.colons = append(f.colons, int32(i))
		}
		if lx.Is(i, "::") || lx.Is(i, "class") {
			f.cppMarker = true
		}
	}
	return f
}

// noteIdent records identifier token i, src[start:end], in the facts.
func (f *lexFacts) noteIdent(src []byte, start, end, i int) {
	switch end - start {
	case 4:
		switch string(src[start:end]) {
		case "goto":
			f.gotos = append(f.gotos, int32(i))
		case "case":
			f.labels = append(f.labels, int32(i))
		}
	case 5:
		if string(src[start:end]) == "class" {
			f.cppMarker = true
		}
	case 7:
		if string(src[start:end]) == "default" {
			f.labels = append(f.labels, int32(i))
		}
	}
}
