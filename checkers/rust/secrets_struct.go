package rust

import (
	"fmt"
	"strings"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
)

// triageSecretStruct keeps struct and enum items outside tests with a
// field (or a tuple variant) whose name holds a secret word.
func triageSecretStruct(lx *checkers.Lexed, tok int) bool {
	it := lx.ItemOf(tok)
	if it < 0 || lx.Items[it].Test || lx.Kind(tok+1) != checkers.TokIdent {
		return false
	}
	end := lx.Items[it].TokEnd
	for j := tok + 2; j+1 < end; j++ {
		if lx.Kind(j) != checkers.TokIdent {
			continue
		}
		if (lx.Is(j+1, ":") && !lx.Is(j+2, ":") || lx.Is(j+1, "(")) && secNameWord(locTok(lx, j), true) != "" {
			return true
		}
	}
	return false
}

// secField is a secret-named field of a struct or enum variant.
type secField struct {
	name, typ string
	node      syntax.Node
}

// checkSecretStruct checks a struct or enum with secret-named fields:
// derive(Debug) prints them (debug-derive), and nothing wipes them from
// memory (no-zeroize).
func checkSecretStruct(p *checkers.Pass, h checkers.Hit) {
	item := h.Node.Parent()
	if !item.Is("struct_item", "enum_item") || locInTest(p, item) {
		return
	}
	name := item.Field("name").Text()
	fields := secFields(item)
	if len(fields) == 0 {
		return
	}
	derives, attrs := secDerives(item)
	if debug, ok := derives["Debug"]; ok {
		var leak []string
		for _, f := range fields {
			if secBearing(f.typ) && !secRedacting(f.typ) {
				leak = append(leak, fmt.Sprintf("`%s: %s`", f.name, f.typ))
			}
		}
		if len(leak) > 0 {
			msg := fmt.Sprintf("#[derive(Debug)] on %s prints %s in logs, panics and error messages; implement Debug by hand with the secret redacted, or wrap it in secrecy::Secret",
				name, strings.Join(leak, ", "))
			p.Report(checkers.Finding{Rule: ruleDebugDerive, Span: checkers.NodeSpan(debug), Message: msg})
		}
	}
	if _, ok := derives["Zeroize"]; ok || strings.Contains(attrs, "zeroize") || secWipedTypes(p)[name] {
		return
	}
	if _, ok := derives["ZeroizeOnDrop"]; ok {
		return
	}
	var kept []string
	for _, f := range fields {
		if secOwned(f.typ) && !secZeroizing(f.typ) {
			kept = append(kept, fmt.Sprintf("`%s: %s`", f.name, f.typ))
		}
	}
	if len(kept) > 0 {
		msg := fmt.Sprintf("%s keeps %s in memory after it is dropped (no Zeroize/ZeroizeOnDrop, no zeroizing Drop): a core dump, swap or a later memory bug can reveal it; use zeroize::Zeroizing or derive ZeroizeOnDrop",
			name, strings.Join(kept, ", "))
		p.Report(checkers.Finding{Rule: ruleNoZeroize, Span: checkers.NodeSpan(item.Field("name")), Message: msg})
	}
}

// secFields returns the secret-named fields of a struct, or of an enum's
// variants (struct-like fields, and the payload of a tuple variant whose
// name is a secret word: Auth::Password(String)).
func secFields(item syntax.Node) []secField {
	var out []secField
	add := func(list syntax.Node) {
		for f := range list.NamedChildren() {
			if f.Kind() != "field_declaration" {
				continue
			}
			n := f.Field("name").Text()
			if secNameWord(n, true) != "" {
				out = append(out, secField{n, strings.Join(strings.Fields(f.Field("type").Text()), ""), f})
			}
		}
	}
	body := item.Field("body")
	if item.Kind() == "struct_item" {
		add(body)
		return out
	}
	for v := range body.NamedChildren() {
		if v.Kind() != "enum_variant" {
			continue
		}
		vb := v.Field("body")
		switch vb.Kind() {
		case "field_declaration_list":
			add(vb)
		case "ordered_field_declaration_list":
			if n := v.Field("name").Text(); secNameWord(n, true) != "" && vb.NamedChildCount() == 1 {
				out = append(out, secField{n, strings.Join(strings.Fields(vb.NamedChild(0).Text()), ""), v})
			}
		}
	}
	return out
}

// secDerives returns the derived traits of an item (the identifier node
// of each) and the text of its other attributes.
func secDerives(item syntax.Node) (map[string]syntax.Node, string) {
	derives := map[string]syntax.Node{}
	var attrs strings.Builder
	for a := item.PrevSibling(); a.Kind() == "attribute_item" || a.Kind() == "line_comment" || a.Kind() == "block_comment"; a = a.PrevSibling() {
		if a.Kind() != "attribute_item" {
			continue
		}
		attr := a.NamedChild(0)
		if attr.NamedChild(0).Text() != "derive" {
			attrs.WriteString(a.Text())
			continue
		}
		for _, id := range locIdents(attr.Field("arguments")) {
			derives[id.Text()] = id
		}
	}
	return derives, attrs.String()
}

type secWipedKey struct{}

// secWipedTypes returns the types of this file that implement Zeroize or
// ZeroizeOnDrop, or whose Drop calls zeroize, read from tokens.
func secWipedTypes(p *checkers.Pass) map[string]bool {
	return checkers.Memo(p, secWipedKey{}, func() map[string]bool {
		lx := p.Lex
		out := map[string]bool{}
		for i := range lx.Tokens {
			if !lx.Is(i, "impl") {
				continue
			}
			trait, name, body := "", "", -1
			for j := i + 1; j < len(lx.Tokens) && j < i+40; j++ {
				if lx.Is(j, "for") && lx.Kind(j+1) == checkers.TokIdent {
					trait, name = locTok(lx, j-1), locTok(lx, j+1)
				}
				if lx.Is(j, "{") {
					body = j
					break
				}
			}
			if name == "" || body < 0 {
				continue
			}
			switch trait {
			case "Zeroize", "ZeroizeOnDrop":
				out[name] = true
			case "Drop":
				for k := body; k < lx.Close(body) && k >= 0; k++ {
					if strings.Contains(locTok(lx, k), "zeroize") {
						out[name] = true
						break
					}
				}
			}
		}
		return out
	})
}

// secUnwrap strips Option<…>, Box<…>, Arc<…>, Rc<…> around a type.
func secUnwrap(t string) string {
	for _, w := range []string{"Option<", "Box<", "Arc<", "Rc<", "RefCell<", "Mutex<", "RwLock<"} {
		if strings.HasPrefix(t, w) && strings.HasSuffix(t, ">") {
			return secUnwrap(t[len(w) : len(t)-1])
		}
	}
	return t
}

// secNorm removes references, lifetimes and spaces from a type:
// "Option<&'a str>" → "Option<str>".
func secNorm(t string) string {
	var parts []string
	for _, f := range strings.Fields(strings.NewReplacer("&", " ", "<", " < ", ">", " > ", ",", " , ").Replace(t)) {
		if f == "mut" || strings.HasPrefix(f, "'") {
			continue
		}
		parts = append(parts, f)
	}
	return strings.Join(parts, "")
}

// secBearing reports whether a field type holds secret data as text or
// bytes.
func secBearing(t string) bool {
	n := secUnwrap(secNorm(t))
	switch {
	case n == "String", n == "str", n == "Vec<u8>", strings.HasPrefix(n, "[u8;"), n == "[u8]", n == "Bytes",
		n == "BytesMut", n == "OsString", strings.HasPrefix(n, "Cow<") && strings.Contains(n, "str"):
		return true
	}
	return secRedacting(t) || secZeroizing(t)
}

// secOwned reports whether a field type owns heap or inline secret data
// that outlives the struct in freed memory.
func secOwned(t string) bool {
	if strings.Contains(t, "&") {
		return false // borrowed: the owner decides
	}
	t = secUnwrap(secNorm(t))
	return t == "String" || t == "Vec<u8>" || strings.HasPrefix(t, "[u8;") || t == "Box<[u8]>" || t == "Box<str>" || t == "Bytes" || t == "BytesMut"
}

// secRedacting reports whether a type hides its contents from Debug.
func secRedacting(t string) bool {
	for _, w := range []string{"Secret<", "SecretString", "SecretVec", "SecretBox", "SecretBytes", "Redacted", "Sensitive<", "Masked<"} {
		if strings.Contains(t, w) {
			return true
		}
	}
	return false
}

// secZeroizing reports whether a type wipes its contents on drop.
func secZeroizing(t string) bool {
	return secRedacting(t) || strings.Contains(t, "Zeroizing<") || strings.Contains(t, "Protected<")
}
