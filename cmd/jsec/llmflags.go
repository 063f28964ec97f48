package main

import (
	"fmt"
	"os"
	"time"

	"github.com/spf13/pflag"

	"github.com/jsec/jsec/agent"
	"github.com/jsec/jsec/agent/llm"
	"github.com/jsec/jsec/agent/llm/openai"
	"github.com/jsec/jsec/config"
)

// llmOptions are the model flags shared by 'jsec ask' and 'jsec scan
// --verify'. Keys come only from the environment, never from flags (they
// would end up in shell history and process listings).
type llmOptions struct {
	Provider string
	BaseURL  string
	Model    string
	Timeout  time.Duration
	Protocol string
}

func (o *llmOptions) register(f *pflag.FlagSet) {
	f.StringVar(&o.Provider, "llm-provider", "", "model provider: openai (any OpenAI-compatible server) or anthropic [$JSEC_LLM_PROVIDER]")
	f.StringVar(&o.BaseURL, "llm-base-url", "", "server base URL, e.g. http://localhost:11434/v1 for Ollama, http://localhost:8000/v1 for vLLM [$JSEC_LLM_BASE_URL]")
	f.StringVar(&o.Model, "llm-model", "", "model name [$JSEC_LLM_MODEL]")
	f.DurationVar(&o.Timeout, "llm-timeout", 2*time.Minute, "timeout of one model request (retried on timeout)")
	f.StringVar(&o.Protocol, "llm-tool-protocol", "native", "how tools are called: native (function calling) or text (TOOL_CALL blocks, for models without function calling)")
}

// providers is the registry of model providers, built where the program
// starts.
func providers() *llm.Registry {
	r := llm.NewRegistry()
	r.Register("openai", openai.New)
	registerMore(r)
	return r
}

// model builds the configured model; configuration problems are usage
// errors that name the flag or variable to set.
func (o *llmOptions) model(onRetry func(int, time.Duration, error)) (llm.Model, llm.Config, error) {
	cfg := llm.ConfigFromEnv(llm.Config{Provider: o.Provider, BaseURL: o.BaseURL, Model: o.Model, Timeout: o.Timeout}, os.Getenv)
	cfg.Retry.OnRetry = onRetry
	if o.Timeout <= 0 {
		return nil, cfg, usagef("--llm-timeout must be positive")
	}
	if cfg.BaseURL != "" && !config.HTTPURL(cfg.BaseURL) {
		return nil, cfg, usagef("--llm-base-url %q (or JSEC_LLM_BASE_URL): not an http or https URL (for OpenAI-compatible servers it ends in /v1, as in http://localhost:11434/v1)", cfg.BaseURL)
	}
	m, err := providers().New(cfg)
	if err != nil {
		return nil, cfg, usageError{err}
	}
	return m, cfg, nil
}

func (o *llmOptions) protocol() (agent.Protocol, error) {
	switch o.Protocol {
	case "native", "":
		return agent.Native{}, nil
	case "text":
		return agent.Text{}, nil
	}
	return nil, usagef("--llm-tool-protocol %q: want native or text", o.Protocol)
}

func describeRetry(errOut func(string)) func(int, time.Duration, error) {
	return func(attempt int, d time.Duration, err error) {
		errOut(fmt.Sprintf("model call failed (%v); retry %d in %s", err, attempt, d.Round(100*time.Millisecond)))
	}
}
