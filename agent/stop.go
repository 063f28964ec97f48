package agent

import (
	"fmt"
	"strings"
)

// StopCondition looks at the steps so far and says whether the run should
// end, and why. Conditions are checked after every step, in order.
type StopCondition func(steps []Step) (stop bool, reason string)

// Stop reasons reported in Result.StopReason.
const (
	ReasonCompleted = "completed" // the model answered without calling a tool
)

// MaxSteps stops after n model calls.
func MaxSteps(n int) StopCondition {
	return func(steps []Step) (bool, string) {
		if len(steps) >= n {
			return true, fmt.Sprintf("max_steps (%d)", n)
		}
		return false, ""
	}
}

// TokenBudget stops once the run has used n tokens (input plus output).
func TokenBudget(n int) StopCondition {
	return func(steps []Step) (bool, string) {
		total := 0
		for _, s := range steps {
			if s.Response != nil {
				total += s.Response.Usage.Total()
			}
		}
		if total >= n {
			return true, fmt.Sprintf("token_budget (%d of %d)", total, n)
		}
		return false, ""
	}
}

// RepeatedToolCalls stops when the last n steps made the very same tool
// calls (same names, same arguments): the model is going round in circles.
func RepeatedToolCalls(n int) StopCondition {
	return func(steps []Step) (bool, string) {
		if n < 2 || len(steps) < n {
			return false, ""
		}
		last := callKey(steps[len(steps)-1])
		if last == "" {
			return false, ""
		}
		for _, s := range steps[len(steps)-n:] {
			if callKey(s) != last {
				return false, ""
			}
		}
		return true, fmt.Sprintf("repeated_tool_calls (%d identical steps)", n)
	}
}

func callKey(s Step) string {
	var b strings.Builder
	for _, c := range s.Calls {
		b.WriteString(c.Name)
		b.WriteByte(0)
		b.WriteString(strings.Join(strings.Fields(c.Arguments), ""))
		b.WriteByte(0)
	}
	return b.String()
}

// ToolCalled stops after a step in which the named tool ran and did not
// report an error: a terminal tool such as submit_verdict.
func ToolCalled(name string) StopCondition {
	return func(steps []Step) (bool, string) {
		if len(steps) == 0 {
			return false, ""
		}
		s := steps[len(steps)-1]
		for i, c := range s.Calls {
			if c.Name == name && i < len(s.Results) && !s.Results[i].IsError {
				return true, "terminal_tool (" + name + ")"
			}
		}
		return false, ""
	}
}

// CompletionMarker stops when the model's text contains marker (the seed
// protocol uses "<!!!COMPLETE!!!>").
func CompletionMarker(marker string) StopCondition {
	return func(steps []Step) (bool, string) {
		if len(steps) == 0 {
			return false, ""
		}
		if r := steps[len(steps)-1].Response; r != nil && strings.Contains(r.Message.Content, marker) {
			return true, "completion_marker"
		}
		return false, ""
	}
}

// DefaultCompletionMarker is the seed's completion marker.
const DefaultCompletionMarker = "<!!!COMPLETE!!!>"
