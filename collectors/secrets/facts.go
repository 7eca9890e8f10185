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
	redactValue(reflect.ValueOf(v))
}

func redactValue(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			elem := v.Elem()
			if v.Kind() == reflect.Interface && elem.Kind() == reflect.String {
				if s := elem.String(); s != "" {
					if r := Redact(s); r != s && v.CanSet() {
						v.Set(reflect.ValueOf(r))
					}
				}
				return
			}
			redactValue(elem)
		}
	case reflect.Struct:
		switch v.Type() {
		case secretRefType, locType, fileType:
			return
		}
		for i := 0; i < v.NumField(); i++ {
			if f := v.Field(i); f.CanSet() || f.Kind() == reflect.Pointer || f.Kind() == reflect.Slice || f.Kind() == reflect.Map {
				if v.Type().Field(i).IsExported() {
					redactValue(f)
				}
			}
		}
	case reflect.Slice, reflect.Array:
		for i := 0; i < v.Len(); i++ {
			redactValue(v.Index(i))
		}
	case reflect.Map:
		for _, k := range v.MapKeys() {
			e := v.MapIndex(k)
			// Map values are not addressable: redact a copy, put it back.
			c := reflect.New(e.Type()).Elem()
			c.Set(e)
			redactValue(c)
			v.SetMapIndex(k, c)
		}
	case reflect.String:
		if s := v.String(); s != "" && v.CanSet() {
			if r := Redact(s); r != s {
				v.SetString(r)
			}
		}
	}
}
