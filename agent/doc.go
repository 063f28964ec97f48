// Package agent is jsec's agent runtime: a small run loop that alternates
// model calls and tool calls over a session, stop conditions as plain
// functions, an event bus, session history with compaction, and the two
// tool-call protocols (native function calling, and the text protocol for
// models without it).
//
// # Design
//
// Run is one loop: build the request from the session, call the model,
// extract tool calls, execute them through the registry, append the
// results, and ask the stop conditions whether to go on. Everything else
// is a collaborator: providers live behind llm.Model (with retries and
// metering as wrappers), tools behind tool.Registry, compaction in
// compact.go, events in events.go. Sub-agents are tools (see package
// agent/multi), so the loop knows nothing about routing.
//
// Cancellation is through context.Context: it reaches every model call,
// every tool and every retry sleep. The system prompt is not part of the
// history and is sent with every request, so clearing or compacting the
// history can never lose it.
package agent
