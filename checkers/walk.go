package checkers

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/jsec/jsec/checkers/ignore"
)

// DefaultExcludes are directory names skipped at any depth unless the user
// turns defaults off: version control, vendored and generated code.
var DefaultExcludes = []string{".git", "vendor", "third_party", "node_modules", "target", "build"}

// Extensions maps file extensions to languages; ".h" is decided by content.
var Extensions = map[string]string{
	".c": "c", ".h": "h", ".cc": "cpp", ".cpp": "cpp", ".cxx": "cpp", ".c++": "cpp",
	".hh": "cpp", ".hpp": "cpp", ".hxx": "cpp", ".h++": "cpp", ".rs": "rust",
}

// WalkOptions select the files of a scan.
type WalkOptions struct {
	// Exclude holds extra gitignore-style patterns, relative to the root.
	Exclude []string
	// NoDefaultExcludes keeps vendor/, build/ … in the scan.
	NoDefaultExcludes bool
	// NoIgnoreFiles disregards .gitignore and .jsecignore files.
	NoIgnoreFiles bool
	// Jobs bounds how many directories are read at once.
	Jobs int
	// Files, when not nil, restricts the walk to these root-relative
	// paths (a diff scan): the others are not visited at all. Excludes
	// and ignore files still apply.
	Files []string
	// Include, when set, keeps only the files it accepts (the
	// configuration's include patterns).
	Include func(rel string) bool
}

// Candidate is a file the walker found.
type Candidate struct {
	Abs  string
	Rel  string // slash-separated, relative to the root
	Lang string // "c", "cpp", "rust" or "h" (decided by content)
	// Size is the size the walk saw (0 when unknown); the scan analyses
	// large files first.
	Size int64
}

// Skip records a path left out of the scan, and why.
type Skip struct {
	Path   string `json:"file"`
	Reason string `json:"reason"`
	// Kind classifies the reason: "skipped" for files jsec chose not to
	// read (binary, too large, special, symlink) and "error" for failures.
	Kind string `json:"kind"`
}

// Walk lists the source files under root (a directory or a single file)
// in parallel and calls emit for each, from several goroutines. Skipped
// entries are returned sorted by path. Walk never follows a symlink: a
// symlinked file or directory is recorded as a skip, so loops and links
// out of the root cannot matter.
func Walk(ctx context.Context, root string, opt WalkOptions, emit func(Candidate)) ([]Skip, error) {
	info, err := os.Stat(root)
	if err != nil {
		return nil, fmt.Errorf("scan root: %w", err)
	}
	if !info.IsDir() {
		lang := Extensions[strings.ToLower(filepath.Ext(root))]
		if lang == "" {
			return nil, fmt.Errorf("scan root %s: not a directory and not a C, C++ or Rust file", root)
		}
		emit(Candidate{Abs: root, Rel: filepath.Base(root), Lang: lang, Size: info.Size()})
		return nil, nil
	}
	if opt.Include != nil {
		inner := emit
		emit = func(c Candidate) {
			if opt.Include(c.Rel) {
				inner(c)
			}
		}
	}
	w := &walker{ctx: ctx, root: root, emit: emit}
	base := []string{}
	if !opt.NoDefaultExcludes {
		for _, d := range DefaultExcludes {
			base = append(base, d+"/")
		}
	}
	base = append(base, opt.Exclude...)
	userMatcher, errs := ignore.Parse([]byte(strings.Join(base, "\n")))
	if len(errs) > 0 {
		return nil, fmt.Errorf("--exclude: %w", errors.Join(errs...))
	}
	stack := ignore.Stack{}.With(ignore.Layer{Matcher: userMatcher})
	w.useIgnoreFiles = !opt.NoIgnoreFiles
	if w.useIgnoreFiles {
		if data, err := os.ReadFile(filepath.Join(root, ".git", "info", "exclude")); err == nil {
			m, _ := ignore.Parse(data)
			stack = stack.With(ignore.Layer{Matcher: m})
		}
	}
	if opt.Files != nil {
		w.files(opt.Files, stack)
		sort.Slice(w.skips, func(i, j int) bool { return w.skips[i].Path < w.skips[j].Path })
		return w.skips, ctx.Err()
	}
	jobs := max(opt.Jobs, 1)
	w.cond = sync.NewCond(&w.mu)
	w.queue = []dirTask{{rel: "", stack: stack}}
	var wg sync.WaitGroup
	for range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w.work()
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	sort.Slice(w.skips, func(i, j int) bool { return w.skips[i].Path < w.skips[j].Path })
	return w.skips, nil
}

type dirTask struct {
	rel   string
	stack ignore.Stack
}

type walker struct {
	ctx            context.Context
	root           string
	emit           func(Candidate)
	useIgnoreFiles bool

	mu     sync.Mutex
	cond   *sync.Cond
	queue  []dirTask
	active int
	skips  []Skip
}

func (w *walker) skip(rel, reason, kind string) {
	w.mu.Lock()
	w.skips = append(w.skips, Skip{Path: rel, Reason: reason, Kind: kind})
	w.mu.Unlock()
}

// work takes directories off the queue until none is left and no worker
// can add more.
func (w *walker) work() {
	for {
		w.mu.Lock()
		for len(w.queue) == 0 && w.active > 0 {
			w.cond.Wait()
		}
		if len(w.queue) == 0 || w.ctx.Err() != nil {
			w.queue = nil
			w.cond.Broadcast()
			w.mu.Unlock()
			return
		}
		t := w.queue[len(w.queue)-1]
		w.queue = w.queue[:len(w.queue)-1]
		w.active++
		w.mu.Unlock()

		subdirs := w.readDir(t)

		w.mu.Lock()
		w.queue = append(w.queue, subdirs...)
		w.active--
		w.cond.Broadcast()
		w.mu.Unlock()
	}
}

func (w *walker) readDir(t dirTask) []dirTask {
	abs := filepath.Join(w.root, filepath.FromSlash(t.rel))
	entries, err := os.ReadDir(abs)
	if err != nil {
		w.skip(displayRel(t.rel), "unreadable directory: "+errText(err), "error")
		return nil
	}
	stack := t.stack
	if w.useIgnoreFiles {
		for _, name := range []string{".gitignore", ".jsecignore"} {
			if !hasEntry(entries, name) {
				continue // no open that fails: most directories have neither
			}
			if data, err := os.ReadFile(filepath.Join(abs, name)); err == nil {
				m, errs := ignore.Parse(data)
				for _, e := range errs {
					w.skip(path.Join(t.rel, name), "ignore file: "+e.Error()+" (pattern skipped)", "error")
				}
				stack = stack.With(ignore.Layer{Dir: t.rel, Matcher: m})
			}
		}
	}
	var subdirs []dirTask
	for _, e := range entries {
		rel := joinName(t.rel, '/', e.Name())
		mode := e.Type()
		switch {
		case mode&fs.ModeSymlink != 0:
			w.symlink(rel, stack)
		case mode.IsDir():
			if !stack.Ignored(rel, true) {
				subdirs = append(subdirs, dirTask{rel: rel, stack: stack})
			}
		default:
			lang := Extensions[strings.ToLower(path.Ext(e.Name()))]
			if lang == "" || stack.Ignored(rel, false) {
				continue
			}
			if !mode.IsRegular() {
				w.skip(rel, "not a regular file ("+mode.Type().String()+")", "skipped")
				continue
			}
			var size int64
			if info, err := e.Info(); err == nil {
				size = info.Size()
			}
			w.emit(Candidate{Abs: joinName(abs, filepath.Separator, e.Name()), Rel: rel, Lang: lang, Size: size})
		}
	}
	return subdirs
}

// hasEntry reports whether entries, sorted by name as os.ReadDir returns
// them, hold one named name.
func hasEntry(entries []os.DirEntry, name string) bool {
	_, found := slices.BinarySearchFunc(entries, name, func(e os.DirEntry, name string) int {
		return strings.Compare(e.Name(), name)
	})
	return found
}

// joinName is path.Join(dir, name) (with sep filepath.Join) for a clean
// dir and a directory entry's name, which holds no separator and is
// neither "." nor "..": nothing to clean, so no copy of the path is made
// and scanned again, once per entry of every directory walked.
func joinName(dir string, sep byte, name string) string {
	switch {
	case dir == "" || dir == ".":
		return name
	case dir[len(dir)-1] == sep: // the root of the file system
		return dir + name
	}
	return dir + string(sep) + name
}

// files visits a given list of paths, applying the ignore files of each
// one's directories (read once per directory).
func (w *walker) files(rels []string, base ignore.Stack) {
	stacks := map[string]ignore.Stack{}
	var stackFor func(dir string) ignore.Stack
	stackFor = func(dir string) ignore.Stack {
		if s, ok := stacks[dir]; ok {
			return s
		}
		s := base
		if dir != "" {
			s = stackFor(dirOf(dir))
		}
		if w.useIgnoreFiles {
			for _, name := range []string{".gitignore", ".jsecignore"} {
				if data, err := os.ReadFile(filepath.Join(w.root, filepath.FromSlash(dir), name)); err == nil {
					m, _ := ignore.Parse(data)
					s = s.With(ignore.Layer{Dir: dir, Matcher: m})
				}
			}
		}
		stacks[dir] = s
		return s
	}
	for _, rel := range rels {
		rel = path.Clean(filepath.ToSlash(rel))
		if w.ctx.Err() != nil || rel == "." || strings.HasPrefix(rel, "../") || Extensions[strings.ToLower(path.Ext(rel))] == "" {
			continue
		}
		if w.ignoredPath(rel, stackFor) {
			continue
		}
		abs := filepath.Join(w.root, filepath.FromSlash(rel))
		info, err := os.Lstat(abs)
		switch {
		case err != nil:
			continue // deleted in the diff
		case info.Mode()&fs.ModeSymlink != 0:
			w.symlink(rel, stackFor(dirOf(rel)))
		case !info.Mode().IsRegular():
			w.skip(rel, "not a regular file ("+info.Mode().Type().String()+")", "skipped")
		default:
			w.emit(Candidate{Abs: abs, Rel: rel, Lang: Extensions[strings.ToLower(path.Ext(rel))], Size: info.Size()})
		}
	}
}

// ignoredPath reports whether rel or one of its directories is ignored.
func (w *walker) ignoredPath(rel string, stackFor func(string) ignore.Stack) bool {
	dir := ""
	for _, part := range strings.Split(dirOf(rel), "/") {
		if part == "" {
			break
		}
		sub := path.Join(dir, part)
		if stackFor(dir).Ignored(sub, true) {
			return true
		}
		dir = sub
	}
	return stackFor(dirOf(rel)).Ignored(rel, false)
}

// dirOf is path.Dir with "" for the root.
func dirOf(rel string) string {
	d := path.Dir(rel)
	if d == "." {
		return ""
	}
	return d
}

// symlink records why a symlink is not followed.
func (w *walker) symlink(rel string, stack ignore.Stack) {
	abs := filepath.Join(w.root, filepath.FromSlash(rel))
	target, err := filepath.EvalSymlinks(abs)
	if err != nil {
		if stack.Ignored(rel, false) {
			return
		}
		reason := "dangling symlink"
		if strings.Contains(err.Error(), "too many links") {
			reason = "symlink loop"
		}
		if isSource(rel) {
			w.skip(rel, reason, "skipped")
		}
		return
	}
	info, err := os.Stat(target)
	if err != nil || stack.Ignored(rel, info.IsDir()) {
		return
	}
	if !info.IsDir() && !isSource(rel) {
		return
	}
	root, _ := filepath.EvalSymlinks(w.root)
	inside := target == root || strings.HasPrefix(target, root+string(filepath.Separator))
	switch {
	case !inside:
		w.skip(rel, "symlink to a path outside the scanned root (not followed)", "skipped")
	case info.IsDir():
		w.skip(rel, "symlink to a directory inside the root (not followed; scanned at its own path)", "skipped")
	default:
		w.skip(rel, "symlink to a file inside the root (not followed; scanned at its own path)", "skipped")
	}
}

func isSource(rel string) bool { return Extensions[strings.ToLower(path.Ext(rel))] != "" }

func displayRel(rel string) string {
	if rel == "" {
		return "."
	}
	return rel
}

func errText(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}
