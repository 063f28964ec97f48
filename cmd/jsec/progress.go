package main

import (
	"fmt"
	"sync"
	"time"

	"github.com/jsec/jsec/checkers"
)

// startProgress shows a live status line on stderr when it is a terminal
// and returns a function that stops it and clears the line.
func startProgress(io streams, p *checkers.Progress, quiet bool) func() {
	if !io.ErrTTY || quiet {
		return func() {}
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	start := time.Now()
	go func() {
		defer wg.Done()
		t := time.NewTicker(150 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				fmt.Fprint(io.Err, "\r\033[K")
				return
			case <-t.C:
				mb := float64(p.Bytes.Load()) / (1 << 20)
				fmt.Fprintf(io.Err, "\r\033[Kjsec: %d files · %.1f MB · %.0f MB/s · %d issues",
					p.Files.Load(), mb, mb/max(time.Since(start).Seconds(), 1e-3), p.Issues.Load())
			}
		}
	}()
	return func() {
		close(done)
		wg.Wait()
	}
}
