// Package verify is jsec's verification stage: every candidate finding
// goes to its own fresh, read-only agent, which reads the code and submits
// a structured verdict; a bounded pool runs the agents in parallel and a
// journal (progress.jsonl) lets an interrupted run resume without asking
// the model again about finished candidates.
//
// # Design
//
// One candidate, one agent, one session: nothing is shared between
// candidates but the model client. The agent's registry is read-only by
// type (read_code, search_code and list_files bound to the scanned root,
// plus submit_verdict, which only records), so a prompt injected through
// the code under review cannot make it write, run or reach anything.
//
// A candidate's failure (a provider error after retries, the turn limit,
// no valid verdict) is data: it becomes an "error" verification and the
// other candidates go on. Only cancellation and a failure to write the
// journal stop the run. One goroutine owns progress.jsonl and appends one
// complete JSON object per finished candidate, synced to disk, so a
// SIGKILL loses at most the candidates in flight. A record is reused only
// when its fingerprint matches: the candidate's id, its rule, a hash of
// the file's content, the prompt version and the model. Changing any of
// them asks the model again.
//
// Verdicts are checked, not trusted: quoted evidence must appear verbatim
// in the code the agent read, else the verdict becomes "uncertain"; a
// "false_positive" on a policy rule (hard-coded secrets, weak crypto,
// insecure randomness) is recorded but does not dismiss the finding; and
// dismissed findings stay in the report, marked, never deleted.
package verify
