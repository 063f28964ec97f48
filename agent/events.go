package agent

import (
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/jsec/jsec/agent/llm"
	"github.com/jsec/jsec/agent/tool"
)

// EventKind names a point in a run, after the seed's event set.
type EventKind string

// Events emitted by Run.
const (
	TaskStarted        EventKind = "task_started"
	TaskCompleted      EventKind = "task_completed"
	BeforeModelCall    EventKind = "before_model_call"
	AfterModelCall     EventKind = "after_model_call"
	BeforeToolCall     EventKind = "before_tool_call"
	AfterToolCall      EventKind = "after_tool_call"
	BeforeHistoryClear EventKind = "before_history_clear"
	AfterHistoryClear  EventKind = "after_history_clear"
	BeforeSummary      EventKind = "before_summary"
	AfterSummary       EventKind = "after_summary"
)

// Event is one emitted event; fields that do not apply are zero.
type Event struct {
	Kind     EventKind
	Agent    string
	Step     int
	Request  *llm.Request
	Response *llm.Response
	Call     *llm.ToolCall
	Result   *tool.Result
	Summary  string
	Err      error
}

// Bus delivers events to subscribers.
//
// Delivery is synchronous and in order: Emit returns after every
// subscriber of the kind (then every catch-all subscriber) has run, on the
// emitting goroutine. No event is dropped. A subscriber that panics is
// isolated: the panic is recovered, counted in Failures, and the run and
// the other subscribers go on. Subscribers must not block for long; they
// run inside the agent loop.
type Bus struct {
	mu       sync.RWMutex
	next     int
	subs     map[EventKind]map[int]func(Event)
	all      map[int]func(Event)
	failures atomic.Int64
	// OnFailure, when set, is told about each subscriber panic.
	OnFailure func(Event, error)
}

// NewBus returns an empty bus.
func NewBus() *Bus {
	return &Bus{subs: map[EventKind]map[int]func(Event){}, all: map[int]func(Event){}}
}

// Subscribe registers fn for events of kind ("" for every kind) and
// returns a function that unsubscribes it.
func (b *Bus) Subscribe(kind EventKind, fn func(Event)) (unsubscribe func()) {
	b.mu.Lock()
	defer b.mu.Unlock()
	id := b.next
	b.next++
	if kind == "" {
		b.all[id] = fn
		return func() { b.mu.Lock(); delete(b.all, id); b.mu.Unlock() }
	}
	if b.subs[kind] == nil {
		b.subs[kind] = map[int]func(Event){}
	}
	b.subs[kind][id] = fn
	return func() { b.mu.Lock(); delete(b.subs[kind], id); b.mu.Unlock() }
}

// Emit delivers e. A nil bus ignores it.
func (b *Bus) Emit(e Event) {
	if b == nil {
		return
	}
	b.mu.RLock()
	var fns []func(Event)
	for _, id := range sortedIDs(b.subs[e.Kind]) {
		fns = append(fns, b.subs[e.Kind][id])
	}
	for _, id := range sortedIDs(b.all) {
		fns = append(fns, b.all[id])
	}
	b.mu.RUnlock()
	for _, fn := range fns {
		b.deliver(fn, e)
	}
}

func (b *Bus) deliver(fn func(Event), e Event) {
	defer func() {
		if p := recover(); p != nil {
			b.failures.Add(1)
			if b.OnFailure != nil {
				b.OnFailure(e, fmt.Errorf("subscriber panicked: %v", p))
			}
		}
	}()
	fn(e)
}

// Failures counts subscriber panics so far.
func (b *Bus) Failures() int64 { return b.failures.Load() }

func sortedIDs(m map[int]func(Event)) []int {
	ids := make([]int, 0, len(m))
	for id := range m {
		ids = append(ids, id)
	}
	for i := 1; i < len(ids); i++ {
		for j := i; j > 0 && ids[j] < ids[j-1]; j-- {
			ids[j], ids[j-1] = ids[j-1], ids[j]
		}
	}
	return ids
}
