package secrets

import (
	"reflect"

	"github.com/sandbox-audit/sandbox-audit/model"
)

var (
	secretRefType = reflect.TypeOf(model.SecretRef{})
	locType       = reflect.TypeOf(model.Loc{})
	fileType      = reflect.TypeOf(model.File{})
)

// RedactFacts runs Redact over every string a model value holds — every
// fact a rule may quote, raw documents included — so nothing collected
// reaches a report with a secret in it, whichever collector forgot. It is
// the scan's last step before the rules (collectors also redact what they
// keep, and count what they hide as credentials). SecretRefs (a kind and a
// fingerprint), locations and file paths are left as they are, and so are
// map keys; v must be a pointer.
func RedactFacts(v any) {
	r := redactor{seen: map[string]string{}}
	r.value(reflect.ValueOf(v))
}

// redactor remembers what each short string redacted to: the same image
// names, paths and commands recur across thousands of facts, and Redact is a
// function of its text alone.
type redactor struct{ seen map[string]string }

// memoMax bounds the strings remembered; longer ones rarely repeat.
const memoMax = 512

func (r redactor) redact(s string) string {
	if len(s) > memoMax {
		return Redact(s)
	}
	if out, ok := r.seen[s]; ok {
		return out
	}
	out := Redact(s)
	r.seen[s] = out
	return out
}

func (r redactor) value(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			elem := v.Elem()
			if v.Kind() == reflect.Interface && elem.Kind() == reflect.String {
				if s := elem.String(); s != "" {
					if out := r.redact(s); out != s && v.CanSet() {
						v.Set(reflect.ValueOf(out))
					}
				}
				return
			}
			r.value(elem)
		}
	case reflect.Struct:
		switch v.Type() {
		case secretRefType, locType, fileType:
			return
		}
		for i := 0; i < v.NumField(); i++ {
			if f := v.Field(i); f.CanSet() || f.Kind() == reflect.Pointer || f.Kind() == reflect.Slice || f.Kind() == reflect.Map {
				if v.Type().Field(i).IsExported() {
					r.value(f)
				}
			}
		}
	case reflect.Slice, reflect.Array:
		for i := 0; i < v.Len(); i++ {
			r.value(v.Index(i))
		}
	case reflect.Map:
		for _, k := range v.MapKeys() {
			e := v.MapIndex(k)
			if e.Kind() == reflect.String {
				if s := e.String(); s != "" {
					if out := r.redact(s); out != s {
						v.SetMapIndex(k, reflect.ValueOf(out).Convert(e.Type()))
					}
				}
				continue
			}
			// Map values are not addressable: redact a copy, put it back.
			c := reflect.New(e.Type()).Elem()
			c.Set(e)
			r.value(c)
			v.SetMapIndex(k, c)
		}
	case reflect.String:
		if s := v.String(); s != "" && v.CanSet() {
			if out := r.redact(s); out != s {
				v.SetString(out)
			}
		}
	}
}
