package checkers

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"io/fs"
	"runtime"
	"sort"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/jsec/jsec/checkers/syntax"
	"github.com/jsec/jsec/issue"
	"github.com/jsec/jsec/rules"
)

// DefaultMaxFileSize is the size above which files are skipped.
const DefaultMaxFileSize = 10 << 20

// Options configure a scan.
type Options struct {
	Walk WalkOptions
	// Jobs bounds the files analysed at once (default GOMAXPROCS).
	Jobs int
	// MaxFileSize skips larger files (default DefaultMaxFileSize).
	MaxFileSize int64
	// Languages maps "c", "cpp" and "rust" to their definitions; a
	// language missing from the map is not scanned. IsCPPHeader decides
	// whether a .h file is C++ (nil: always C).
	Languages   map[string]*Language
	IsCPPHeader func(src []byte) bool
	// ClassifyHeader, when set, is used instead of IsCPPHeader: it also
	// returns the tokens it lexed the file into as C, which the analysis
	// of a C header then reuses.
	ClassifyHeader func(src []byte) (cpp bool, asC *Lexed)
	// Enabled selects rules (nil: all).
	Enabled func(rule string) bool
	// MinConfidence drops findings below it.
	MinConfidence float64
	// ContextLines is the number of source lines kept on each side of a
	// finding (default 3).
	ContextLines int
	// Progress, when set, is updated as files finish.
	Progress *Progress
	// NoSuppress ignores jsec:ignore directives (audit mode).
	NoSuppress bool
	// Shard, when N > 1, scans only the files whose path hashes to
	// shard K of N (0 <= K < N).
	Shard Shard
	// Custom are the user's regex rules; Lookup must know their rows.
	Custom []CustomRule
	// Lookup returns a rule's catalogue row (default rules.Lookup).
	Lookup func(id string) *rules.Rule
	// Severity, when set, overrides a rule's severity (configuration).
	Severity func(rule string, def issue.Severity) issue.Severity
	// Profile, when set, collects the time of each phase and checker.
	Profile *Profile
}

// Shard selects a stable part of the files: those whose path hashes to K
// modulo N, so that N machines scanning shards 0..N-1 cover every file
// once.
type Shard struct{ K, N int }

// Owns reports whether the shard scans the root-relative path rel.
func (s Shard) Owns(rel string) bool {
	if s.N <= 1 {
		return true
	}
	h := uint32(2166136261)
	for i := 0; i < len(rel); i++ {
		h ^= uint32(rel[i])
		h *= 16777619
	}
	return int(h%uint32(s.N)) == s.K
}

// Progress counts a running scan's work; read it from another goroutine.
type Progress struct {
	Files  atomic.Int64
	Bytes  atomic.Int64
	Issues atomic.Int64
}

// Result is a finished scan.
type Result struct {
	Issues []issue.Issue
	Skips  []Skip
	// Files and Bytes count what was read and analysed.
	Files int
	Bytes int64
	// ParsedBytes counts what tree-sitter parsed.
	ParsedBytes int64
	Duration    time.Duration
}

// Scan walks root and analyses every source file in a bounded pool.
// Failures of single files become skips; only cancellation and an
// unusable root stop the scan.
func Scan(ctx context.Context, root string, opt Options) (*Result, error) {
	start := time.Now()
	if opt.Jobs <= 0 {
		opt.Jobs = runtime.GOMAXPROCS(0)
	}
	if opt.MaxFileSize <= 0 {
		opt.MaxFileSize = DefaultMaxFileSize
	}
	if opt.ContextLines == 0 {
		opt.ContextLines = 3
	}
	if opt.Walk.Jobs == 0 {
		opt.Walk.Jobs = opt.Jobs
	}
	s := &scanner{opt: opt, analyzers: map[string]func() *Analyzer{}, parsers: map[syntax.Lang][]*syntax.Parser{}}
	for name, lang := range opt.Languages {
		// Built on the first file of the language, by the worker that
		// reads it: the walk starts at once, and a language the tree does
		// not hold costs nothing.
		s.analyzers[name] = sync.OnceValue(func() *Analyzer { return NewAnalyzer(lang, opt.Enabled) })
	}
	defer s.closeParsers()

	g, gctx := errgroup.WithContext(ctx)
	q := newFileQueue(gctx)
	var skips []Skip
	g.Go(func() error {
		defer q.close()
		var err error
		skips, err = Walk(gctx, root, opt.Walk, func(c Candidate) {
			if opt.Shard.Owns(c.Rel) {
				q.push(c)
				if c.Size <= opt.MaxFileSize {
					prefetch(c.Abs)
				}
			}
		})
		return err
	})
	var mu sync.Mutex
	res := &Result{}
	for range opt.Jobs {
		g.Go(func() error {
			last := scanClock()
			for {
				c, ok := q.pop()
				if !ok || gctx.Err() != nil {
					return gctx.Err()
				}
				if t := scanClock(); t.Sub(last) >= yieldEvery {
					scanYield()
					last = t
				}
				out := s.file(gctx, c)
				mu.Lock()
				res.Issues = append(res.Issues, out.issues...)
				res.Skips = append(res.Skips, out.skips...)
				if out.read {
					res.Files++
					res.Bytes += int64(out.size)
					res.ParsedBytes += int64(out.parsed)
				}
				mu.Unlock()
			}
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	res.Skips = append(res.Skips, skips...)
	SortIssues(res.Issues)
	sort.Slice(res.Skips, func(i, j int) bool { return res.Skips[i].Path < res.Skips[j].Path })
	res.Duration = time.Since(start)
	return res, nil
}

// yieldEvery is how long a worker runs before it gives its goroutine back
// to the scheduler, between two files. A worker goroutine lives for the
// whole scan, and the Go runtime preempts any goroutine that has run 10 ms
// without a reschedule; when it catches the worker inside a cgo call
// (tree-sitter), it hands the worker's P to another thread, and every
// such handoff sets the runtime's monitor thread back to waking every
// 20 µs. On a 2-core virtual machine that was 1,500 context switches,
// 1,400 monitor wakeups and 100 preemption signals in a scan of git, each
// a trap to the host; yielding first took them to about 550, 450 and 15,
// and the three scans of the bench corpus 4-6% less CPU and wall time.
const yieldEvery = 5 * time.Millisecond

// scanClock and scanYield are time.Now and runtime.Gosched; the tests
// replace them.
var (
	scanClock = time.Now
	scanYield = runtime.Gosched
)

// SortIssues orders issues by file, position and rule.
func SortIssues(is []issue.Issue) {
	sort.SliceStable(is, func(i, j int) bool {
		a, b := is[i], is[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Column != b.Column {
			return a.Column < b.Column
		}
		return a.Rule < b.Rule
	})
}

type scanner struct {
	opt       Options
	analyzers map[string]func() *Analyzer // by language name, built on first use

	pmu     sync.Mutex
	parsers map[syntax.Lang][]*syntax.Parser
}

func (s *scanner) getParser(l syntax.Lang) *syntax.Parser {
	s.pmu.Lock()
	defer s.pmu.Unlock()
	if ps := s.parsers[l]; len(ps) > 0 {
		p := ps[len(ps)-1]
		s.parsers[l] = ps[:len(ps)-1]
		return p
	}
	return syntax.NewParser(l)
}

func (s *scanner) putParser(p *syntax.Parser) {
	s.pmu.Lock()
	s.parsers[p.Lang()] = append(s.parsers[p.Lang()], p)
	s.pmu.Unlock()
}

func (s *scanner) closeParsers() {
	for _, ps := range s.parsers {
		for _, p := range ps {
			p.Close()
		}
	}
}

type fileOutcome struct {
	issues       []issue.Issue
	skips        []Skip
	read         bool
	size, parsed int
}

// file reads, classifies and analyses one file.
func (s *scanner) file(ctx context.Context, c Candidate) (out fileOutcome) {
	src, reason, kind := readSource(c.Abs, s.opt.MaxFileSize)
	if reason != "" {
		out.skips = append(out.skips, Skip{Path: c.Rel, Reason: reason, Kind: kind})
		return out
	}
	lang := c.Lang
	var lexedC *Lexed
	if lang == "h" {
		lang = "c"
		switch {
		case s.opt.ClassifyHeader != nil:
			var cpp bool
			var t0 time.Time
			if s.opt.Profile != nil {
				t0 = time.Now()
			}
			cpp, lexedC = s.opt.ClassifyHeader(src)
			if s.opt.Profile != nil {
				s.opt.Profile.addLex(time.Since(t0))
			}
			if cpp {
				if lexedC != nil {
					lexedC.Recycle() // lexed again, as C++
				}
				lang, lexedC = "cpp", nil
			}
		case s.opt.IsCPPHeader != nil && s.opt.IsCPPHeader(src):
			lang = "cpp"
		}
	}
	newAnalyzer := s.analyzers[lang]
	if newAnalyzer == nil {
		return out // language not selected
	}
	a := newAnalyzer()
	out.read, out.size = true, len(src)
	defer func() {
		if p := s.opt.Progress; p != nil {
			p.Files.Add(1)
			p.Bytes.Add(int64(len(src)))
			p.Issues.Add(int64(len(out.issues)))
		}
	}()
	f := NewFile(c.Rel, lang, src)
	if lexedC != nil {
		f.UseLexed(lexedC)
	}
	parser := s.getParser(a.Language().Grammar)
	res, err := a.AnalyzeProfiled(ctx, f, parser, s.opt.Profile)
	s.putParser(parser)
	if lexedC != nil {
		lexedC.Recycle()
	}
	if err != nil {
		return out // cancelled
	}
	out.parsed = res.Parsed
	for _, pr := range res.Problems {
		out.skips = append(out.skips, Skip{Path: c.Rel, Reason: pr, Kind: "error"})
	}
	found := res.Findings
	if len(s.opt.Custom) > 0 {
		found = append(found, customFindings(f, a.Language(), s.opt.Custom)...)
		sort.SliceStable(found, func(i, j int) bool { return found[i].Span.Start < found[j].Span.Start })
	}
	all := toIssues(f, found, s.opt.ContextLines, 0, s.opt.Lookup)
	addLineHashes(src, all)
	if s.opt.Severity != nil {
		for i := range all {
			all[i].Severity = s.opt.Severity(all[i].Rule, all[i].Severity)
		}
	}
	if !s.opt.NoSuppress {
		out.skips = append(out.skips, Suppress(c.Rel, all, Directives(f, a.Language().Lex))...)
	}
	for _, is := range all {
		if is.Confidence >= s.opt.MinConfidence {
			out.issues = append(out.issues, is)
		}
	}
	recycleSource(src) // the issues hold copies of what they show
	f.recycleLines()
	return out
}

// addLineHashes fills in the issues' LineHash from the source, in one
// pass as far as the last flagged line.
func addLineHashes(src []byte, all []issue.Issue) {
	if len(all) == 0 {
		return
	}
	lines := map[int]bool{}
	for _, is := range all {
		lines[max(1, is.Line)] = true
	}
	hashes := issue.LineHashesAt(src, lines)
	for i := range all {
		all[i].LineHash = hashes[max(1, all[i].Line)]
	}
}

// readAll reads r to its end, at most limit+1 bytes, into one buffer sized
// for the expected size plus one byte (to see the end without growing).
// sourcePool holds the buffers of files already scanned, for the next.
var sourcePool FreeList[[]byte]

func recycleSource(src []byte) { sourcePool.Put(src[:0]) }

func readAll(r io.Reader, size, limit int64) ([]byte, error) {
	want := int(min(size, limit) + 1)
	var buf []byte
	if p, ok := sourcePool.Get(); ok && cap(p) >= want {
		buf = p[:0]
	} else {
		buf = make([]byte, 0, Headroom(want))
	}
	for int64(len(buf)) <= limit {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)] // the file grew: let append pick
		}
		asked := min(cap(buf), int(limit)+1) - len(buf)
		n, err := r.Read(buf[len(buf) : len(buf)+asked])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
		// A short read that completes the size the file had when opened
		// is its end: a regular file reads short only there, and this
		// spares the read that would return nothing.
		if n < asked && int64(len(buf)) == size {
			return buf, nil
		}
	}
	return buf, nil
}

// fdReader reads a file descriptor with plain read(2) calls: readSource
// opens with syscall.Open rather than os.OpenFile, whose registration with
// Go's poller (refused for regular files) and bookkeeping cost a system
// call per file, and system calls are what a virtual machine makes dear.
type fdReader int

func (fd fdReader) Read(p []byte) (int, error) {
	for {
		n, err := syscall.Read(int(fd), p)
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return 0, err
		case n == 0 && len(p) > 0:
			return 0, io.EOF
		}
		return n, nil
	}
}

// openNoFollow opens path for reading without blocking (a FIFO) and
// without following a final symlink, retrying when a signal interrupts.
func openNoFollow(path string) (int, error) {
	for {
		fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOFOLLOW|syscall.O_CLOEXEC, 0)
		if err != syscall.EINTR {
			return fd, err
		}
	}
}

// fileTypeOf is the fs.FileMode type bits of a stat mode, for messages.
func fileTypeOf(mode uint32) fs.FileMode {
	switch mode & syscall.S_IFMT {
	case syscall.S_IFDIR:
		return fs.ModeDir
	case syscall.S_IFLNK:
		return fs.ModeSymlink
	case syscall.S_IFIFO:
		return fs.ModeNamedPipe
	case syscall.S_IFSOCK:
		return fs.ModeSocket
	case syscall.S_IFCHR:
		return fs.ModeDevice | fs.ModeCharDevice
	case syscall.S_IFBLK:
		return fs.ModeDevice
	}
	return fs.ModeIrregular
}

// readSource reads a file once, refusing anything that is not a regular
// text file within the size limit. It opens with O_NONBLOCK so that a
// FIFO put in a file's place after the walk cannot block the scan.
func readSource(path string, maxSize int64) (src []byte, reason, kind string) {
	fd, err := openNoFollow(path)
	if err != nil {
		return nil, "unreadable: " + errText(err), "error"
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		return nil, "unreadable: " + errText(err), "error"
	}
	if uint32(st.Mode)&syscall.S_IFMT != syscall.S_IFREG {
		return nil, "not a regular file (" + fileTypeOf(uint32(st.Mode)).String() + ")", "skipped"
	}
	if st.Size > maxSize {
		return nil, fmt.Sprintf("file too large (%d bytes > limit %d; see --max-file-size)", st.Size, maxSize), "skipped"
	}
	src, err = readAll(fdReader(fd), st.Size, maxSize)
	if err != nil {
		return nil, "read failed: " + errText(err), "error"
	}
	if int64(len(src)) > maxSize {
		return nil, fmt.Sprintf("file too large (grew past the limit %d while read)", maxSize), "skipped"
	}
	if bytes.IndexByte(src[:min(len(src), 8000)], 0) >= 0 {
		return nil, "binary file (NUL byte in the first 8000 bytes)", "skipped"
	}
	return src, "", ""
}
