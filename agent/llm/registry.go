package llm

import (
	"errors"
	"fmt"
	"net/http"
	"os"
	"sort"
	"strings"
	"time"
)

// Config selects and configures a provider. The API key is never printed:
// String redacts it.
type Config struct {
	Provider string // "openai" (any OpenAI-compatible server) or "anthropic"
	BaseURL  string
	Model    string
	APIKey   string
	// Timeout bounds each request (0: none).
	Timeout time.Duration
	// HTTPClient is injectable for tests and proxies (nil: a default one).
	HTTPClient *http.Client
	// Retry configures retries; Timeout above is copied into it.
	Retry RetryPolicy
}

// String describes the configuration without the key.
func (c Config) String() string {
	key := "unset"
	if c.APIKey != "" {
		key = "set"
	}
	return fmt.Sprintf("provider=%s base_url=%s model=%s key=%s timeout=%s", c.Provider, c.BaseURL, c.Model, key, c.Timeout)
}

// Environment variables read by ConfigFromEnv.
const (
	EnvProvider = "JSEC_LLM_PROVIDER"
	EnvBaseURL  = "JSEC_LLM_BASE_URL"
	EnvModel    = "JSEC_LLM_MODEL"
	EnvAPIKey   = "JSEC_LLM_API_KEY"
)

// ConfigFromEnv fills the fields that are empty in c from the
// environment: JSEC_LLM_PROVIDER (default openai), JSEC_LLM_BASE_URL,
// JSEC_LLM_MODEL, and the key from JSEC_LLM_API_KEY, then OPENAI_API_KEY
// or ANTHROPIC_API_KEY for the chosen provider.
func ConfigFromEnv(c Config, getenv func(string) string) Config {
	if getenv == nil {
		getenv = os.Getenv
	}
	if c.Provider == "" {
		c.Provider = getenv(EnvProvider)
	}
	if c.Provider == "" {
		c.Provider = "openai"
	}
	if c.BaseURL == "" {
		c.BaseURL = getenv(EnvBaseURL)
	}
	if c.Model == "" {
		c.Model = getenv(EnvModel)
	}
	if c.APIKey == "" {
		c.APIKey = getenv(EnvAPIKey)
	}
	if c.APIKey == "" {
		switch c.Provider {
		case "openai":
			c.APIKey = getenv("OPENAI_API_KEY")
		case "anthropic":
			c.APIKey = getenv("ANTHROPIC_API_KEY")
		}
	}
	return c
}

// Factory builds a provider's Model from a configuration.
type Factory func(Config) (Model, error)

// Registry maps provider names to factories. It is a plain value: build
// one where the program starts and pass it down.
type Registry struct {
	factories map[string]Factory
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry { return &Registry{factories: map[string]Factory{}} }

// Register adds a provider.
func (r *Registry) Register(name string, f Factory) { r.factories[name] = f }

// Names lists the registered providers.
func (r *Registry) Names() []string {
	var out []string
	for n := range r.factories {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// ErrConfig marks configuration errors (a user fixes them).
var ErrConfig = errors.New("llm configuration")

// New builds the configured model wrapped in the retry policy.
func (r *Registry) New(c Config) (Model, error) {
	f, ok := r.factories[c.Provider]
	if !ok {
		return nil, fmt.Errorf("%w: unknown provider %q (want %s; --llm-provider or %s)", ErrConfig, c.Provider, strings.Join(r.Names(), " or "), EnvProvider)
	}
	if c.Model == "" {
		return nil, fmt.Errorf("%w: no model (set --llm-model or %s)", ErrConfig, EnvModel)
	}
	m, err := f(c)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrConfig, err)
	}
	p := c.Retry
	p.Timeout = c.Timeout
	return Retry(m, p), nil
}
