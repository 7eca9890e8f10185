package audit

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/sandbox-audit/sandbox-audit/rules"
)

// TestFindingSetKeepsEveryField: findings come out of the set as they went
// in, in order, whatever field of rules.Finding they set (every field is
// filled, so a field the set forgets fails here).
func TestFindingSetKeepsEveryField(t *testing.T) {
	var in []rules.Finding
	for i := range 50 {
		var f rules.Finding
		v := reflect.ValueOf(&f).Elem()
		for j := range v.NumField() {
			switch fv := v.Field(j); fv.Kind() {
			case reflect.String:
				// three rules, and a message and file of each finding's own
				name, n := v.Type().Field(j).Name, i%3
				if name == "Message" || name == "File" {
					n = i
				}
				fv.SetString(fmt.Sprintf("%s-%d", name, n))
			case reflect.Int:
				fv.SetInt(int64(i*7 + j))
			case reflect.Pointer:
				if i%3 == 0 {
					fv.Set(reflect.New(fv.Type().Elem()))
					fv.Elem().Field(0).SetString(fmt.Sprint("kind-", i))
				}
			default:
				t.Fatalf("rules.Finding.%s: a kind of field the test does not fill", v.Type().Field(j).Name)
			}
		}
		in = append(in, f)
	}
	var s findingSet
	for _, f := range in {
		s.add(f)
	}
	if len(s.texts) >= len(in) {
		t.Errorf("%d texts for %d findings: nothing shared", len(s.texts), len(in))
	}
	if diff := cmp.Diff(in, s.findings()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if got := s.findings(); got == nil || len(got) != 0 {
		t.Errorf("an emptied set gives %#v, want an empty list", got)
	}
}
