package main

import (
	"errors"
	"os"
	"path/filepath"
)

// checkOutDir fails fast when the reports could not be written into dir
// (--out): a path through a file, a read-only or full file system, no
// permission. It runs before the scan, so that a mistyped --out costs a
// second, not the whole scan and then exit code 3. The check creates what
// is missing of dir, writes and removes a probe file in it, and removes
// again the directories it created: nothing is left behind when the scan
// is then interrupted.
func checkOutDir(dir string) error {
	created, err := mkdirTracked(dir)
	defer removeCreated(created)
	if err == nil {
		err = probeWrite(dir)
	}
	if err != nil {
		return usagef("--out %s: the reports cannot be written there: %v (give --out a directory jsec can create and write)", dir, errorText(err))
	}
	return nil
}

// mkdirTracked creates dir and its missing parents, as os.MkdirAll does,
// and returns the directories it created, outermost first.
func mkdirTracked(dir string) ([]string, error) {
	var missing []string
	for d := filepath.Clean(dir); ; {
		fi, err := os.Stat(d)
		if err == nil {
			if !fi.IsDir() {
				return nil, &os.PathError{Op: "mkdir", Path: d, Err: errors.New("not a directory")}
			}
			break
		}
		if !errors.Is(err, os.ErrNotExist) {
			return nil, err
		}
		missing = append(missing, d)
		parent := filepath.Dir(d)
		if parent == d {
			break
		}
		d = parent
	}
	var created []string
	for i := len(missing) - 1; i >= 0; i-- {
		err := os.Mkdir(missing[i], 0o755)
		if err == nil {
			created = append(created, missing[i])
		} else if !errors.Is(err, os.ErrExist) {
			return created, err
		}
	}
	return created, nil
}

// removeCreated removes the directories mkdirTracked created, innermost
// first; one that is no longer empty stays.
func removeCreated(created []string) {
	for i := len(created) - 1; i >= 0; i-- {
		os.Remove(created[i])
	}
}

// probeWrite writes and removes a small file in dir, as the report
// writer will (report.WriteAtomic).
func probeWrite(dir string) error {
	f, err := os.CreateTemp(dir, ".jsec-write-check-*")
	if err != nil {
		return err
	}
	name := f.Name()
	_, err = f.Write([]byte("jsec\n"))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if rerr := os.Remove(name); err == nil {
		err = rerr
	}
	return err
}
