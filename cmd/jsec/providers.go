package main

import "github.com/jsec/jsec/agent/llm"

// registerMore adds the providers beyond the OpenAI-compatible one.
func registerMore(r *llm.Registry) {}
