package llm

import (
	"context"
	"sync"
)

// Meter wraps a Model and counts calls and token usage; it is safe for
// concurrent use, so one Meter can total a whole verification run while
// each agent counts its own run.
type Meter struct {
	Model Model

	mu    sync.Mutex
	calls int
	usage Usage
}

// NewMeter returns a metering wrapper around m.
func NewMeter(m Model) *Meter { return &Meter{Model: m} }

// Name returns the wrapped model's name.
func (m *Meter) Name() string { return m.Model.Name() }

// Generate calls the wrapped model and records the usage of successful
// calls.
func (m *Meter) Generate(ctx context.Context, req *Request) (*Response, error) {
	resp, err := m.Model.Generate(ctx, req)
	if err == nil {
		m.mu.Lock()
		m.calls++
		m.usage = m.usage.Add(resp.Usage)
		m.mu.Unlock()
	}
	return resp, err
}

// Totals returns the calls made and tokens used so far.
func (m *Meter) Totals() (calls int, usage Usage) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.calls, m.usage
}
