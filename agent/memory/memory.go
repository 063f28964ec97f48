// Package memory gives agents the seed's three kinds of memory: short-term
// (this process only), project long-term (files under the project's
// .jsec/memory/) and global long-term (files under the user's data
// directory), each entry tagged so it can be found again, and the memory
// tool (save, retrieve, clear) over them.
//
// Memories are hints, never authority: a claim saved while analysing one
// revision may be stale in the next. Verifier agents do not get this tool.
package memory

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"
)

// Type is a kind of memory.
type Type string

// Memory types, as in the seed.
const (
	ShortTerm       Type = "short_term"
	ProjectLongTerm Type = "project_long_term"
	GlobalLongTerm  Type = "global_long_term"
)

// Types lists every memory type.
var Types = []Type{ShortTerm, ProjectLongTerm, GlobalLongTerm}

// Entry is one memory.
type Entry struct {
	ID        string    `json:"id"`
	Type      Type      `json:"type"`
	Tags      []string  `json:"tags"`
	Content   string    `json:"content"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
}

// Manager stores memories of all three types. It is safe for concurrent
// use.
type Manager struct {
	// ProjectDir and GlobalDir hold the long-term memories; an empty dir
	// disables that type.
	ProjectDir, GlobalDir string
	now                   func() time.Time

	mu    sync.Mutex
	short []Entry
}

// NewManager returns a manager for a project root, with global memories
// under dataDir (see DefaultDataDir).
func NewManager(projectRoot, dataDir string) *Manager {
	m := &Manager{now: time.Now}
	if projectRoot != "" {
		m.ProjectDir = filepath.Join(projectRoot, ".jsec", "memory")
	}
	if dataDir != "" {
		m.GlobalDir = filepath.Join(dataDir, "memory", string(GlobalLongTerm))
	}
	return m
}

// DefaultDataDir is $XDG_DATA_HOME/jsec, or ~/.local/share/jsec.
func DefaultDataDir() string {
	if d := os.Getenv("XDG_DATA_HOME"); d != "" {
		return filepath.Join(d, "jsec")
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return ""
	}
	return filepath.Join(home, ".local", "share", "jsec")
}

func (m *Manager) dir(t Type) string {
	switch t {
	case ProjectLongTerm:
		return m.ProjectDir
	case GlobalLongTerm:
		return m.GlobalDir
	}
	return ""
}

// ErrUnknownType is returned for a memory type outside Types.
var ErrUnknownType = errors.New("unknown memory type")

func validType(t Type) bool {
	for _, x := range Types {
		if x == t {
			return true
		}
	}
	return false
}

// Save stores a memory and returns it with its id.
func (m *Manager) Save(t Type, tags []string, content string) (Entry, error) {
	if !validType(t) {
		return Entry{}, fmt.Errorf("%w %q", ErrUnknownType, t)
	}
	if strings.TrimSpace(content) == "" {
		return Entry{}, errors.New("empty memory content")
	}
	now := m.now().UTC()
	var rnd [3]byte
	rand.Read(rnd[:])
	e := Entry{ID: now.Format("20060102_150405_000000") + "_" + hex.EncodeToString(rnd[:]), Type: t, Tags: normTags(tags),
		Content: content, CreatedAt: now, UpdatedAt: now}
	if t == ShortTerm {
		m.mu.Lock()
		m.short = append(m.short, e)
		m.mu.Unlock()
		return e, nil
	}
	dir := m.dir(t)
	if dir == "" {
		return Entry{}, fmt.Errorf("%s memory is not available here", t)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return Entry{}, fmt.Errorf("save memory: %w", err)
	}
	data, _ := json.MarshalIndent(e, "", "  ")
	tmp := filepath.Join(dir, "."+e.ID+".tmp")
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return Entry{}, fmt.Errorf("save memory: %w", err)
	}
	if err := os.Rename(tmp, filepath.Join(dir, e.ID+".json")); err != nil {
		os.Remove(tmp)
		return Entry{}, fmt.Errorf("save memory: %w", err)
	}
	return e, nil
}

func normTags(tags []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, t := range tags {
		t = strings.ToLower(strings.TrimSpace(t))
		if t != "" && !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	sort.Strings(out)
	return out
}

// Query selects memories: of the given types (all when empty), carrying
// any of the tags (any when empty), newest first, at most Limit (all when
// 0).
type Query struct {
	Types []Type
	Tags  []string
	Limit int
}

// Retrieve returns the memories that match q. Unreadable files are
// skipped.
func (m *Manager) Retrieve(q Query) ([]Entry, error) {
	types := q.Types
	if len(types) == 0 {
		types = Types
	}
	want := normTags(q.Tags)
	var out []Entry
	for _, t := range types {
		if !validType(t) {
			return nil, fmt.Errorf("%w %q", ErrUnknownType, t)
		}
		for _, e := range m.load(t) {
			if matchesTags(e.Tags, want) {
				out = append(out, e)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i].CreatedAt.Equal(out[j].CreatedAt) {
			return out[i].CreatedAt.After(out[j].CreatedAt)
		}
		return out[i].ID > out[j].ID
	})
	if q.Limit > 0 && len(out) > q.Limit {
		out = out[:q.Limit]
	}
	return out, nil
}

func matchesTags(have, want []string) bool {
	if len(want) == 0 {
		return true
	}
	for _, w := range want {
		for _, h := range have {
			if h == w {
				return true
			}
		}
	}
	return false
}

func (m *Manager) load(t Type) []Entry {
	if t == ShortTerm {
		m.mu.Lock()
		defer m.mu.Unlock()
		return append([]Entry(nil), m.short...)
	}
	dir := m.dir(t)
	if dir == "" {
		return nil
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	var out []Entry
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		var e Entry
		if json.Unmarshal(data, &e) == nil && e.ID != "" {
			e.Type = t
			out = append(out, e)
		}
	}
	return out
}

// Clear deletes the memories that match q, or the given ids, and returns
// how many were deleted.
func (m *Manager) Clear(q Query, ids []string) (int, error) {
	idSet := map[string]bool{}
	for _, id := range ids {
		idSet[id] = true
	}
	match := func(e Entry) bool {
		if len(idSet) > 0 {
			return idSet[e.ID]
		}
		return matchesTags(e.Tags, normTags(q.Tags))
	}
	types := q.Types
	if len(types) == 0 {
		types = Types
	}
	n := 0
	for _, t := range types {
		if !validType(t) {
			return n, fmt.Errorf("%w %q", ErrUnknownType, t)
		}
		if t == ShortTerm {
			m.mu.Lock()
			kept := m.short[:0]
			for _, e := range m.short {
				if match(e) {
					n++
				} else {
					kept = append(kept, e)
				}
			}
			m.short = kept
			m.mu.Unlock()
			continue
		}
		for _, e := range m.load(t) {
			if match(e) && os.Remove(filepath.Join(m.dir(t), e.ID+".json")) == nil {
				n++
			}
		}
	}
	return n, nil
}

// Tags returns every tag in use, for the prompt hint the seed's
// MemoryManager injects.
func (m *Manager) Tags() []string {
	seen := map[string]bool{}
	for _, t := range Types {
		for _, e := range m.load(t) {
			for _, tag := range e.Tags {
				seen[tag] = true
			}
		}
	}
	out := make([]string, 0, len(seen))
	for t := range seen {
		out = append(out, t)
	}
	sort.Strings(out)
	return out
}
