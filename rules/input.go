package rules

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/open-policy-agent/opa/v1/ast"
)

// toValue is the ast.Value of v as encoding/json would write it and OPA read
// it back: field names and omitempty from json tags, embedded structs'
// fields promoted, nil pointers, slices and maps as null, invalid UTF-8 as
// U+FFFD, numbers in json's spelling. It walks the value once, with no JSON
// text in between (Input used to marshal and parse a document several
// megabytes long for every rule evaluation). TestInputMatchesJSON holds it
// to the round trip.
func toValue(v reflect.Value) (ast.Value, error) {
	switch v.Kind() {
	case reflect.Invalid:
		return ast.NullValue, nil
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return ast.NullValue, nil
		}
		return toValue(v.Elem())
	case reflect.Struct:
		fs := fieldsOf(v.Type())
		terms := make([][2]*ast.Term, 0, len(fs))
		for _, f := range fs {
			fv, err := v.FieldByIndexErr(f.index)
			if err != nil {
				continue // a field of a nil embedded pointer
			}
			if f.omitEmpty && isEmpty(fv) {
				continue
			}
			x, err := toValue(fv)
			if err != nil {
				return nil, err
			}
			terms = append(terms, [2]*ast.Term{ast.InternedTerm(f.name), ast.NewTerm(x)})
		}
		return ast.NewObject(terms...), nil
	case reflect.Map:
		if v.IsNil() {
			return ast.NullValue, nil
		}
		terms := make([][2]*ast.Term, 0, v.Len())
		it := v.MapRange()
		for it.Next() {
			k, err := mapKey(it.Key())
			if err != nil {
				return nil, err
			}
			x, err := toValue(it.Value())
			if err != nil {
				return nil, err
			}
			terms = append(terms, [2]*ast.Term{ast.StringTerm(k), ast.NewTerm(x)})
		}
		return ast.NewObject(terms...), nil
	case reflect.Slice:
		if v.IsNil() {
			return ast.NullValue, nil
		}
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return nil, fmt.Errorf("encode input: []byte field")
		}
		fallthrough
	case reflect.Array:
		terms := make([]*ast.Term, v.Len())
		for i := range terms {
			x, err := toValue(v.Index(i))
			if err != nil {
				return nil, err
			}
			terms[i] = ast.NewTerm(x)
		}
		return ast.NewArray(terms...), nil
	case reflect.String:
		return ast.String(validUTF8(v.String())), nil
	case reflect.Bool:
		return ast.Boolean(v.Bool()), nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return ast.Number(strconv.FormatInt(v.Int(), 10)), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return ast.Number(strconv.FormatUint(v.Uint(), 10)), nil
	case reflect.Float32, reflect.Float64:
		return jsonFloat(v.Float(), v.Type().Bits())
	}
	return nil, fmt.Errorf("encode input: unsupported type %s", v.Type())
}

func mapKey(k reflect.Value) (string, error) {
	switch k.Kind() {
	case reflect.String:
		return validUTF8(k.String()), nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.FormatInt(k.Int(), 10), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return strconv.FormatUint(k.Uint(), 10), nil
	}
	return "", fmt.Errorf("encode input: unsupported map key type %s", k.Type())
}

// jsonFloat spells f as encoding/json does.
func jsonFloat(f float64, bits int) (ast.Value, error) {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return nil, fmt.Errorf("encode input: unsupported value %v", f)
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (bits == 64 && (abs < 1e-6 || abs >= 1e21) || bits == 32 && (float32(abs) < 1e-6 || float32(abs) >= 1e21)) {
		format = 'e'
	}
	s := strconv.FormatFloat(f, format, -1, bits)
	if format == 'e' {
		// clean up e-09 to e-9
		if n := len(s); n >= 4 && s[n-4] == 'e' && s[n-3] == '-' && s[n-2] == '0' {
			s = s[:n-2] + s[n-1:]
		}
	}
	return ast.Number(s), nil
}

// validUTF8 replaces each byte that is not UTF-8 with U+FFFD, as
// encoding/json does.
func validUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b.WriteRune(utf8.RuneError)
		} else {
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

func isEmpty(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool:
		return !v.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return v.Int() == 0
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return v.Uint() == 0
	case reflect.Float32, reflect.Float64:
		return v.Float() == 0
	case reflect.Interface, reflect.Pointer:
		return v.IsNil()
	}
	return false
}

type field struct {
	name      string
	index     []int
	omitEmpty bool
	tagged    bool
}

var fieldCache sync.Map // reflect.Type → []field

// fieldsOf lists the JSON fields of struct type t in encoding/json's order
// and with its rules for embedded structs: a promoted field loses to a
// shallower one of the same name, a tagged one wins a tie, and an untagged
// tie drops the name.
func fieldsOf(t reflect.Type) []field {
	if fs, ok := fieldCache.Load(t); ok {
		return fs.([]field)
	}
	type cand struct {
		field
		depth int
	}
	var all []cand
	var walk func(t reflect.Type, index []int, depth int, visited map[reflect.Type]bool)
	walk = func(t reflect.Type, index []int, depth int, visited map[reflect.Type]bool) {
		if visited[t] {
			return
		}
		visited[t] = true
		for i := range t.NumField() {
			sf := t.Field(i)
			tag := sf.Tag.Get("json")
			if tag == "-" {
				continue
			}
			name, opts, _ := strings.Cut(tag, ",")
			idx := append(slices.Clone(index), i)
			ft := sf.Type
			if sf.Anonymous {
				if ft.Kind() == reflect.Pointer {
					ft = ft.Elem()
				}
				if !sf.IsExported() && ft.Kind() != reflect.Struct {
					continue
				}
				if name == "" && ft.Kind() == reflect.Struct {
					walk(ft, idx, depth+1, visited)
					continue
				}
			} else if !sf.IsExported() {
				continue
			}
			tagged := name != ""
			if !tagged {
				name = sf.Name
			}
			all = append(all, cand{field{name: name, index: idx, omitEmpty: strings.Contains(","+opts+",", ",omitempty,"), tagged: tagged}, depth})
		}
		visited[t] = false
	}
	walk(t, nil, 0, map[reflect.Type]bool{})
	// Resolve names met more than once, keeping the first one's position.
	byName := map[string][]int{}
	for i, c := range all {
		byName[c.name] = append(byName[c.name], i)
	}
	var out []field
	for i, c := range all {
		idx := byName[c.name]
		if len(idx) == 1 {
			out = append(out, c.field)
			continue
		}
		if idx[0] != i {
			continue // resolved at the name's first position
		}
		best, ok := dominant(idx, func(j int) (int, bool) { return all[j].depth, all[j].tagged })
		if ok {
			f := all[best].field
			out = append(out, f)
		}
	}
	// encoding/json orders fields by index sequence.
	slices.SortStableFunc(out, func(a, b field) int { return slices.Compare(a.index, b.index) })
	fieldCache.Store(t, out)
	return out
}

// dominant picks among the candidates of one name: the shallowest; among
// those, the only tagged one, else the only one; otherwise none.
func dominant(idx []int, info func(int) (depth int, tagged bool)) (int, bool) {
	min := math.MaxInt
	for _, j := range idx {
		if d, _ := info(j); d < min {
			min = d
		}
	}
	var top, taggedTop []int
	for _, j := range idx {
		if d, t := info(j); d == min {
			top = append(top, j)
			if t {
				taggedTop = append(taggedTop, j)
			}
		}
	}
	switch {
	case len(taggedTop) == 1:
		return taggedTop[0], true
	case len(taggedTop) == 0 && len(top) == 1:
		return top[0], true
	}
	return 0, false
}
