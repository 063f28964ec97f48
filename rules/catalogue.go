package rules

import (
	"embed"
	"fmt"
	"slices"
	"strings"
	"sync"
)

//go:embed docs/*.md
var docsFS embed.FS

// families lists the catalogue files' rows; each file holds one family of
// one language, beside the checker file of the same name.
var families = [][]Rule{
	cBuffer, cFormat, cMemory, cErrors, cExec, cCrypto, cFiles, cConcurrency, cArith, cInput, cCPP,
	rustUnsafe, rustMemory, rustFFI, rustErrors, rustArith, rustInjection, rustSecrets, rustAsync,
}

// retired lists IDs that were removed. They are never reused.
var retired = []string{}

var (
	loadOnce sync.Once
	all      []*Rule
	byID     map[string]*Rule
	loadErr  error
)

func load() {
	byID = map[string]*Rule{}
	for _, fam := range families {
		for i := range fam {
			r := &fam[i]
			if _, dup := byID[r.ID]; dup {
				loadErr = fmt.Errorf("rules: duplicate id %s", r.ID)
				return
			}
			doc, err := docsFS.ReadFile("docs/" + r.ID + ".md")
			if err == nil {
				r.Doc = strings.TrimSpace(string(doc))
			}
			byID[r.ID] = r
			all = append(all, r)
		}
	}
	slices.SortFunc(all, func(a, b *Rule) int { return strings.Compare(a.ID, b.ID) })
}

// All returns every rule, sorted by ID. The rows are shared: do not modify.
func All() []*Rule {
	loadOnce.Do(load)
	if loadErr != nil {
		panic(loadErr)
	}
	return all
}

// Lookup returns the rule with the given ID, or nil.
func Lookup(id string) *Rule {
	All()
	return byID[id]
}

// Retired returns the retired IDs.
func Retired() []string { return slices.Clone(retired) }
