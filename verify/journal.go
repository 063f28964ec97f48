package verify

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"time"
)

// Record is one line of progress.jsonl: a finished candidate.
type Record struct {
	ID          string   `json:"id"`
	Rule        string   `json:"rule"`
	File        string   `json:"file"`
	Line        int      `json:"line"`
	Fingerprint string   `json:"fingerprint"`
	Status      string   `json:"status"` // "verdict" or "error"
	Verdict     string   `json:"verdict,omitempty"`
	Confidence  float64  `json:"confidence,omitempty"`
	Reason      string   `json:"reason,omitempty"`
	Evidence    []string `json:"evidence,omitempty"`
	Severity    string   `json:"severity,omitempty"`
	Fix         string   `json:"fix,omitempty"`
	Error       string   `json:"error,omitempty"`
	Turns       int      `json:"turns"`
	Tokens      int      `json:"tokens"`
	DurationMS  int64    `json:"duration_ms"`
	Model       string   `json:"model"`
	Prompt      string   `json:"prompt_version"`
	Time        string   `json:"time"`
}

// Record statuses.
const (
	StatusVerdict = "verdict"
	StatusError   = "error"
)

// journal appends records to progress.jsonl from one goroutine.
type journal struct {
	f    *os.File
	ch   chan Record
	done chan struct{}

	mu  sync.Mutex
	err error
}

// loadJournal reads the finished records of path by fingerprint (the
// last record of a fingerprint wins). A torn last line (a write the
// process did not finish) is ignored; so is any other unreadable line,
// which is counted in bad.
func loadJournal(path string) (recs map[string]Record, bad int, err error) {
	recs = map[string]Record{}
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return recs, 0, nil
	}
	if err != nil {
		return nil, 0, fmt.Errorf("read journal: %w", err)
	}
	// Split by hand, not with a bufio.Scanner: a line past the scanner's
	// limit (a reason of megabytes) ended its scan there, and every record
	// after it was lost and asked for again.
	for rest := data; len(rest) > 0; {
		var line []byte
		line, rest, _ = bytes.Cut(rest, []byte{'\n'})
		line = bytes.TrimSpace(line)
		if len(line) == 0 {
			continue
		}
		var r Record
		if json.Unmarshal(line, &r) != nil || r.Fingerprint == "" {
			bad++
			continue
		}
		recs[r.Fingerprint] = r
	}
	if len(data) > 0 && data[len(data)-1] != '\n' && bad > 0 {
		bad-- // the torn tail is expected after a crash, not a problem
	}
	return recs, bad, nil
}

// openJournal opens path for appending, first cutting a torn tail so that
// the next record starts on a line of its own. fresh empties it.
func openJournal(path string, fresh bool) (*journal, error) {
	flags := os.O_RDWR | os.O_CREATE
	if fresh {
		flags |= os.O_TRUNC
	}
	f, err := os.OpenFile(path, flags, 0o644)
	if err != nil {
		return nil, fmt.Errorf("open journal: %w", err)
	}
	if err := cutTornTail(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("open journal %s: %w", path, err)
	}
	j := &journal{f: f, ch: make(chan Record, 64), done: make(chan struct{})}
	go j.loop()
	return j, nil
}

func cutTornTail(f *os.File) error {
	size, err := f.Seek(0, io.SeekEnd)
	if err != nil || size == 0 {
		return err
	}
	// Find the last newline, reading backwards in blocks.
	buf := make([]byte, 4096)
	end := size
	for end > 0 {
		n := int64(len(buf))
		if end < n {
			n = end
		}
		if _, err := f.ReadAt(buf[:n], end-n); err != nil {
			return err
		}
		if i := bytes.LastIndexByte(buf[:n], '\n'); i >= 0 {
			keep := end - n + int64(i) + 1
			if keep == size {
				return nil
			}
			if err := f.Truncate(keep); err != nil {
				return err
			}
			_, err := f.Seek(keep, io.SeekStart)
			return err
		}
		end -= n
	}
	if err := f.Truncate(0); err != nil { // no complete line at all
		return err
	}
	_, err = f.Seek(0, io.SeekStart)
	return err
}

func (j *journal) loop() {
	defer close(j.done)
	for r := range j.ch {
		if j.failed() != nil {
			continue
		}
		if r.Time == "" {
			r.Time = time.Now().UTC().Format(time.RFC3339)
		}
		line, err := json.Marshal(r)
		if err == nil {
			line = append(line, '\n')
			_, err = j.f.Write(line) // one write per record
		}
		if err == nil {
			err = j.f.Sync()
		}
		if err != nil {
			j.mu.Lock()
			j.err = fmt.Errorf("write journal %s: %w", j.f.Name(), err)
			j.mu.Unlock()
		}
	}
}

func (j *journal) failed() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.err
}

// add queues a record; it returns the writer's error once writing failed.
func (j *journal) add(r Record) error {
	if err := j.failed(); err != nil {
		return err
	}
	j.ch <- r
	return nil
}

// close flushes the queue and closes the file.
func (j *journal) close() error {
	close(j.ch)
	<-j.done
	cerr := j.f.Close()
	if err := j.failed(); err != nil {
		return err
	}
	return cerr
}
