package llm

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// ErrorKind classifies a provider failure by what the caller should do.
type ErrorKind int

// Error kinds.
const (
	// KindOther: give up on this request.
	KindOther ErrorKind = iota
	// KindRetryable: rate limits (429), server errors (5xx), timeouts,
	// dropped connections. Retry after a delay.
	KindRetryable
	// KindAuth: bad or missing credentials (401, 403). Never retry.
	KindAuth
	// KindContextTooLarge: the prompt exceeds the model's context. Compact
	// the history and try again.
	KindContextTooLarge
	// KindBadRequest: the request was rejected as malformed (400, 404, 422).
	KindBadRequest
)

func (k ErrorKind) String() string {
	switch k {
	case KindRetryable:
		return "retryable"
	case KindAuth:
		return "auth"
	case KindContextTooLarge:
		return "context too large"
	case KindBadRequest:
		return "bad request"
	}
	return "other"
}

// ProviderError is a failed model call.
type ProviderError struct {
	Provider string
	Kind     ErrorKind
	// Status is the HTTP status, 0 when there was no response.
	Status int
	// RetryAfter is the server's requested delay (Retry-After), if any.
	RetryAfter time.Duration
	Message    string
	Err        error
}

func (e *ProviderError) Error() string {
	s := fmt.Sprintf("%s: %s", e.Provider, e.Kind)
	if e.Status != 0 {
		s += fmt.Sprintf(" (HTTP %d)", e.Status)
	}
	if e.Message != "" {
		s += ": " + e.Message
	} else if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

func (e *ProviderError) Unwrap() error { return e.Err }

// KindOf returns the kind of a provider error anywhere in err's chain, or
// KindOther.
func KindOf(err error) ErrorKind {
	var pe *ProviderError
	if errors.As(err, &pe) {
		return pe.Kind
	}
	return KindOther
}

// IsRetryable reports whether err is worth retrying.
func IsRetryable(err error) bool { return KindOf(err) == KindRetryable }

// IsContextTooLarge reports whether err says the prompt was too long.
func IsContextTooLarge(err error) bool { return KindOf(err) == KindContextTooLarge }

// IsAuth reports whether err is a credentials problem.
func IsAuth(err error) bool { return KindOf(err) == KindAuth }

// ClassifyStatus maps an HTTP status and error text onto a kind. Servers
// disagree on how they report an oversized prompt (400 with
// "context_length_exceeded", 413, "prompt is too long"), so the message
// is consulted too.
func ClassifyStatus(status int, message string) ErrorKind {
	if looksLikeContextOverflow(message) || status == 413 {
		return KindContextTooLarge
	}
	switch {
	case status == 401 || status == 403:
		return KindAuth
	case status == 408 || status == 409 || status == 425 || status == 429 || status >= 500:
		return KindRetryable
	case status == 400 || status == 404 || status == 422:
		return KindBadRequest
	}
	return KindOther
}

var overflowPhrases = []string{
	"context_length_exceeded", "context length", "maximum context", "prompt is too long",
	"too many tokens", "context window", "reduce the length", "input is too long",
}

func looksLikeContextOverflow(msg string) bool {
	s := strings.ToLower(msg)
	for _, p := range overflowPhrases {
		if strings.Contains(s, p) {
			return true
		}
	}
	return false
}
