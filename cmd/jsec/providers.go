package main

import (
	"github.com/jsec/jsec/agent/llm"
	"github.com/jsec/jsec/agent/llm/anthropic"
)

// registerMore adds the providers beyond the OpenAI-compatible one.
func registerMore(r *llm.Registry) {
	r.Register("anthropic", anthropic.New)
}
