package sarif

import (
	"bytes"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// The schema is the official OASIS SARIF 2.1.0 schema (errata 01), as
// published in oasis-tcs/sarif-spec, Schemata/sarif-schema-2.1.0.json.
const schemaFile = "testdata/sarif-schema-2.1.0.json"

var (
	schemaOnce sync.Once
	schema     *jsonschema.Schema
	schemaErr  error
)

func sarifSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	schemaOnce.Do(func() {
		data, err := os.ReadFile(schemaFile)
		if err != nil {
			schemaErr = err
			return
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
		if err != nil {
			schemaErr = err
			return
		}
		c := jsonschema.NewCompiler()
		c.AssertFormat() // uri, uri-reference and date-time are checked too
		const id = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
		if schemaErr = c.AddResource(id, doc); schemaErr != nil {
			return
		}
		schema, schemaErr = c.Compile(id)
	})
	if schemaErr != nil {
		t.Fatalf("load %s: %v", schemaFile, schemaErr)
	}
	return schema
}

// validate fails the test unless doc is valid SARIF 2.1.0.
func validate(t *testing.T, doc []byte) {
	t.Helper()
	if err := validateErr(t, doc); err != nil {
		t.Fatalf("not valid SARIF 2.1.0: %v", err)
	}
}

func validateErr(t *testing.T, doc []byte) error {
	t.Helper()
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		t.Fatalf("not JSON: %v", err)
	}
	return sarifSchema(t).Validate(inst)
}

// The validator must actually reject what GitHub rejects, or the other
// tests prove nothing.
func TestSchemaRejectsBrokenDocuments(t *testing.T) {
	var b bytes.Buffer
	if err := (Options{SourceRoot: "/src"}).Write(&b, fixture(t)); err != nil {
		t.Fatal(err)
	}
	good := b.String()
	validate(t, []byte(good))
	for name, bad := range map[string]string{
		"line 0":        strings.Replace(good, `"startLine": 7`, `"startLine": 0`, 1),
		"version":       strings.Replace(good, `"version": "2.1.0"`, `"version": "2.0.0"`, 1),
		"level":         strings.Replace(good, `"level": "error"`, `"level": "fatal"`, 1),
		"suppression":   strings.Replace(good, `"kind": "inSource"`, `"kind": "comment"`, 1),
		"unknown field": strings.Replace(good, `"ruleId":`, `"rule_id": "x", "ruleId":`, 1),
		"bad uri":       strings.Replace(good, `"uri": "project/src/net.c"`, `"uri": "project/src/net%zz.c"`, 1),
	} {
		if bad == good {
			t.Fatalf("%s: the replacement did not apply", name)
		}
		if validateErr(t, []byte(bad)) == nil {
			t.Errorf("%s: the schema accepted a broken document", name)
		}
	}
}
