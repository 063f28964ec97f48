package sarif

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/jsec/jsec/issue"
	"github.com/jsec/jsec/report"
)

func TestSARIFStructure(t *testing.T) {
	r := &report.Report{
		Tool: report.Tool{Name: "jsec", Version: "1.0.0", InformationURI: "not a url"},
		Rules: []issue.RuleInfo{{ID: "c.buffer.gets", Title: "Use of gets", CWE: "CWE-242", Severity: issue.SeverityCritical,
			Confidence: 0.95, Description: "gets is unbounded", Suggestion: "fgets", Doc: "Long doc."}},
		Issues: []issue.Issue{
			{ID: "x1", Rule: "c.buffer.gets", File: "./src/a b.c", Line: 3, Column: 2, EndLine: 3, EndColumn: 11, Severity: issue.SeverityCritical, Confidence: 0.95, Description: "d"},
			{ID: "x2", Rule: "rust.unsafe.transmute", File: "lib.rs", Line: 0, Column: 0, Severity: issue.SeverityLow, Confidence: 0.3, CWE: "CWE-843"},
		},
	}
	var b bytes.Buffer
	if err := Write(&b, r); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Version string `json:"version"`
		Runs    []struct {
			Tool struct {
				Driver struct {
					InformationURI string `json:"informationUri"`
					Rules          []struct {
						ID         string `json:"id"`
						Properties struct {
							Tags             []string `json:"tags"`
							SecuritySeverity string   `json:"security-severity"`
						} `json:"properties"`
					} `json:"rules"`
				} `json:"driver"`
			} `json:"tool"`
			Results []struct {
				RuleID    string `json:"ruleId"`
				RuleIndex int    `json:"ruleIndex"`
				Level     string `json:"level"`
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI string }                 `json:"artifactLocation"`
						Region           struct{ StartLine, StartColumn int } `json:"region"`
					} `json:"physicalLocation"`
				} `json:"locations"`
				PartialFingerprints map[string]string `json:"partialFingerprints"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Version != "2.1.0" || len(doc.Runs) != 1 {
		t.Fatalf("version %q runs %d", doc.Version, len(doc.Runs))
	}
	run := doc.Runs[0]
	if run.Tool.Driver.InformationURI != "" {
		t.Error("a non-http informationUri was emitted")
	}
	for _, res := range run.Results {
		if run.Tool.Driver.Rules[res.RuleIndex].ID != res.RuleID {
			t.Errorf("ruleIndex %d of %s points at %s", res.RuleIndex, res.RuleID, run.Tool.Driver.Rules[res.RuleIndex].ID)
		}
		reg := res.Locations[0].PhysicalLocation.Region
		if reg.StartLine < 1 || reg.StartColumn < 1 {
			t.Errorf("%s: region %+v must be 1-based", res.RuleID, reg)
		}
		if res.PartialFingerprints["jsecId/v1"] == "" {
			t.Errorf("%s: no fingerprint", res.RuleID)
		}
	}
	if uri := run.Results[0].Locations[0].PhysicalLocation.ArtifactLocation.URI; uri != "src/a%20b.c" {
		t.Errorf("uri = %q", uri)
	}
	gets := run.Tool.Driver.Rules[0]
	if gets.Properties.SecuritySeverity != "9.5" || gets.Properties.Tags[0] != "security" || gets.Properties.Tags[1] != "external/cwe/cwe-242" {
		t.Errorf("rule properties: %+v", gets.Properties)
	}
	if run.Results[1].Level != "note" || run.Results[0].Level != "error" {
		t.Errorf("levels: %s %s", run.Results[0].Level, run.Results[1].Level)
	}
}

func TestSeverityScale(t *testing.T) {
	for s, want := range map[issue.Severity][2]float64{
		issue.SeverityCritical: {9, 10}, issue.SeverityHigh: {7, 8.9}, issue.SeverityMedium: {4, 6.9}, issue.SeverityLow: {0.1, 3.9},
	} {
		var v float64
		json.Unmarshal([]byte(SecuritySeverity(s)), &v)
		if v < want[0] || v > want[1] {
			t.Errorf("%v → %v, want in %v", s, v, want)
		}
	}
}
