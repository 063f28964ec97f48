package c

import (
	"fmt"
	"strings"

	"github.com/jsec/jsec/checkers"
	"github.com/jsec/jsec/checkers/syntax"
)

// triageVirtual keeps the first "virtual" of a class item that has no
// virtual destructor, no base class and is not final.
func triageVirtual(lx *checkers.Lexed, tok int) bool {
	it := lx.ItemOf(tok)
	if it < 0 {
		return false
	}
	item := lx.Items[it]
	for j := tok - 1; j >= item.TokStart; j-- {
		if lx.Is(j, "virtual") && lx.Kind(j) == checkers.TokIdent {
			return false // an earlier virtual decided
		}
	}
	head := true
	for j := item.TokStart; j < item.TokEnd; j++ {
		switch {
		case head && lx.Is(j, "{"):
			head = false
		case head && (lx.Is(j, ":") || lx.Is(j, "final")):
			return false // a base class or a final class
		case lx.Is(j, "virtual") && lx.Is(j+1, "~"):
			return false
		case lx.Is(j, "~") && lx.Is(j+2, "(") && cppCloseFollowedBy(lx, j+2, "override", "final"):
			return false
		}
	}
	return true
}

// cppCloseFollowedBy reports whether the parenthesis at open is followed by
// one of words before the next "{" or ";".
func cppCloseFollowedBy(lx *checkers.Lexed, open int, words ...string) bool {
	end := lx.Close(open)
	for j := end + 1; end >= 0 && j < len(lx.Tokens) && !lx.Is(j, "{") && !lx.Is(j, ";"); j++ {
		for _, w := range words {
			if lx.Is(j, w) {
				return true
			}
		}
	}
	return false
}

// cppClassFacts is what the file's tokens say about class relations.
type cppClassFacts struct {
	// derived maps a base class name to the first class deriving from it
	// and the token where that class is declared.
	derived map[string]cppDerivation
	// deleted maps a class name to a token that deletes a pointer
	// declared with that class, or holds it in a std::unique_ptr.
	deleted map[string]int
}

type cppDerivation struct {
	name string
	tok  int
}

type cppClassFactsKey struct{}

// cppFileClassFacts scans the tokens once per file: "class D : public B"
// and "B *p ... delete p" / "unique_ptr<B>".
func cppFileClassFacts(p *checkers.Pass) *cppClassFacts {
	return checkers.Memo(p, cppClassFactsKey{}, func() *cppClassFacts {
		lx := p.Lex
		f := &cppClassFacts{derived: map[string]cppDerivation{}, deleted: map[string]int{}}
		ptrType := map[string]string{} // variable -> class of "Class *var"
		for i := range lx.Tokens {
			if lx.Kind(i) != checkers.TokIdent {
				continue
			}
			switch {
			case (lx.Is(i, "class") || lx.Is(i, "struct")) && lx.Kind(i+1) == checkers.TokIdent:
				j := i + 2
				if lx.Is(j, "final") {
					j++
				}
				if !lx.Is(j, ":") {
					continue
				}
				for ; j < len(lx.Tokens) && !lx.Is(j, "{") && !lx.Is(j, ";"); j++ {
					if lx.Kind(j) == checkers.TokIdent {
						if _, seen := f.derived[lx.Text(j)]; !seen {
							f.derived[lx.Text(j)] = cppDerivation{lx.Text(i + 1), i}
						}
					}
				}
			case lx.Is(i+1, "*") && lx.Kind(i+2) == checkers.TokIdent && !lx.Is(i-1, "::") && !lx.Is(i-1, "return"):
				ptrType[lx.Text(i+2)] = lx.Text(i)
			case lx.Is(i, "delete"):
				j := i + 1
				if lx.Is(j, "[") {
					j += 2
				}
				if cls, ok := ptrType[lx.Text(j)]; ok && lx.Kind(j) == checkers.TokIdent && lx.Is(j+1, ";") {
					f.deleted[cls] = i
				}
			case lx.Is(i, "unique_ptr") && lx.Is(i+1, "<") && lx.Kind(i+2) == checkers.TokIdent && lx.Is(i+3, ">"):
				if _, ok := f.deleted[lx.Text(i+2)]; !ok {
					f.deleted[lx.Text(i+2)] = i
				}
			}
		}
		return f
	})
}

// cppClassShape is what the body of a class says about its destructor.
type cppClassShape struct {
	virtualFn  string // first virtual member function
	hasDtor    bool
	dtorPublic bool
	dtorVirt   bool
}

// cppShapeOf reads a class body's members.
func cppShapeOf(cls syntax.Node) cppClassShape {
	var s cppClassShape
	public := cls.Kind() == "struct_specifier"
	for m := range cls.Field("body").NamedChildren() {
		if m.Kind() == "access_specifier" {
			public = strings.HasPrefix(strings.TrimSpace(m.Text()), "public")
			continue
		}
		if !m.Is("field_declaration", "function_definition", "declaration") {
			continue
		}
		fd := fnDeclarator(m)
		virt := false
		for c := range m.Children() {
			if c.Kind() == "virtual" || c.Text() == "virtual" {
				virt = true
			}
		}
		for c := range fd.Children() {
			if c.Kind() == "virtual_specifier" {
				virt = true // override or final: the base's is virtual
			}
		}
		if fd.Field("declarator").Kind() == "destructor_name" {
			s.hasDtor, s.dtorPublic, s.dtorVirt = true, public, virt
			continue
		}
		if virt && s.virtualFn == "" {
			s.virtualFn = checkers.DeclaratorName(fd)
		}
	}
	return s
}

// checkVirtualDtor reports a polymorphic class without a virtual
// destructor that the file derives from or deletes through.
func checkVirtualDtor(p *checkers.Pass, h checkers.Hit) {
	cls := h.Node.Ancestor("class_specifier", "struct_specifier")
	name := cls.Field("name")
	if !name.Valid() || name.Kind() != "type_identifier" {
		return
	}
	for c := range cls.Children() {
		if c.Kind() == "base_class_clause" || c.Kind() == "virtual_specifier" {
			return // a base may give it a virtual destructor; final cannot be derived from
		}
	}
	s := cppShapeOf(cls)
	if s.virtualFn == "" || s.dtorVirt || s.hasDtor && !s.dtorPublic {
		return
	}
	facts := cppFileClassFacts(p)
	dtor := "has no declared destructor (the implicit one is public and non-virtual)"
	if s.hasDtor {
		dtor = "has a public non-virtual destructor"
	}
	msg := ""
	if d, ok := facts.derived[name.Text()]; ok {
		msg = fmt.Sprintf("'%s' has virtual function '%s' and is the base of '%s' (line %d) but %s: deleting a %s through a %s* skips its destructor",
			name.Text(), s.virtualFn, d.name, p.File.Lines().Line(int(p.Lex.Tokens[d.tok].Start)), dtor, d.name, name.Text())
	} else if tok, ok := facts.deleted[name.Text()]; ok {
		msg = fmt.Sprintf("'%s' has virtual function '%s' and is deleted through a base pointer (line %d) but %s: a derived object's destructor is skipped",
			name.Text(), s.virtualFn, p.File.Lines().Line(int(p.Lex.Tokens[tok].Start)), dtor)
	}
	if msg != "" {
		p.Report(checkers.Finding{Rule: ruleVirtualDtor, Span: checkers.NodeSpan(name), Message: msg})
	}
}

// triageCycle keeps shared_ptr inside class items.
func triageCycle(lx *checkers.Lexed, tok int) bool {
	it := lx.ItemOf(tok)
	if it < 0 {
		return false
	}
	item := lx.Items[it]
	for j := item.TokStart; j < item.TokEnd && !lx.Is(j, "{"); j++ {
		if lx.Is(j, "class") || lx.Is(j, "struct") {
			return true
		}
	}
	return false
}

// cppSharedMember is a member that owns a std::shared_ptr<Target>, directly
// or through a container.
type cppSharedMember struct {
	class, name, target string
	container           bool
	node                syntax.Node
}

type cppSharedKey struct{}

// cppSharedMembers lists the shared_ptr members of every parsed class.
func cppSharedMembers(p *checkers.Pass) []cppSharedMember {
	return checkers.Memo(p, cppSharedKey{}, func() []cppSharedMember {
		var out []cppSharedMember
		p.Tree.Root().Walk(func(n syntax.Node) bool {
			if n.Kind() != "field_declaration" {
				return true
			}
			cls := n.Ancestor("class_specifier", "struct_specifier")
			t := n.Field("type")
			target, container := cppSharedTarget(t)
			if target == "" || !cls.Valid() {
				return false
			}
			for d := range n.NamedChildren() {
				if d.FieldName() == "declarator" {
					out = append(out, cppSharedMember{cls.Field("name").Text(), checkers.DeclaratorName(d), target, container, d})
				}
			}
			return false
		})
		return out
	})
}

// cppSharedTarget returns T of a shared_ptr<T> type, and whether the
// shared_ptr is an element of a container (vector<shared_ptr<T>>).
func cppSharedTarget(t syntax.Node) (string, bool) {
	for n := range t.Descendants() {
		if n.Kind() != "template_type" || n.Field("name").Text() != "shared_ptr" {
			continue
		}
		arg := cppParseType(n.Field("arguments").NamedChild(0).Text())
		target := arg.base
		if i := strings.LastIndex(target, "::"); i >= 0 {
			target = target[i+2:]
		}
		direct := n.Index() == t.Index() || t.Kind() == "qualified_identifier" && t.Field("name").Index() == n.Index()
		return target, !direct
	}
	return "", false
}

// cppBackLinks are member names that conventionally point back up or back
// along a structure.
var cppBackLinks = []string{"parent", "prev", "previous", "owner", "back", "up", "container"}

func cppIsBackLink(name string) bool {
	l := strings.ToLower(name)
	for _, w := range cppBackLinks {
		if strings.Contains(l, w) {
			return true
		}
	}
	return false
}

// checkSharedCycle reports a shared_ptr member that closes a cycle: two
// classes owning each other, or a class owning its own type both ways
// (children plus a parent, or next plus a back link).
func checkSharedCycle(p *checkers.Pass, h checkers.Hit) {
	fd := h.Node.Ancestor("field_declaration")
	if !fd.Valid() {
		return
	}
	all := cppSharedMembers(p)
	for _, m := range all {
		if !fd.Contains(m.node) {
			continue
		}
		if msg := cppCycleThrough(m, all); msg != "" {
			p.Report(checkers.Finding{Rule: ruleSharedCycle, Span: checkers.NodeSpan(m.node), Message: msg})
		}
	}
}

func cppCycleThrough(m cppSharedMember, all []cppSharedMember) string {
	for _, o := range all {
		if o.node.Index() == m.node.Index() {
			continue
		}
		switch {
		case m.target != m.class:
			if o.class == m.target && o.target == m.class && o.node.Index() < m.node.Index() {
				return fmt.Sprintf("'%s::%s' owns a %s through std::shared_ptr and '%s::%s' owns a %s back: neither is ever freed",
					m.class, m.name, m.target, o.class, o.name, m.class)
			}
		case o.class == m.class && o.target == m.class && !m.container:
			if o.container || cppIsBackLink(m.name) && !cppIsBackLink(o.name) {
				return fmt.Sprintf("'%s::%s' is a std::shared_ptr back to its own type while '%s' owns the other direction: the nodes keep each other alive",
					m.class, m.name, o.name)
			}
		}
	}
	return ""
}
