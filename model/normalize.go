package model

import "reflect"

// Merge appends every fact of o to d.
func (d *Document) Merge(o *Document) {
	d.Files = append(d.Files, o.Files...)
	d.Workloads = append(d.Workloads, o.Workloads...)
	d.Images = append(d.Images, o.Images...)
	d.NetworkPolicies = append(d.NetworkPolicies, o.NetworkPolicies...)
	d.Agents = append(d.Agents, o.Agents...)
	d.MCPServers = append(d.MCPServers, o.MCPServers...)
	d.Workflows = append(d.Workflows, o.Workflows...)
	d.GitConfigs = append(d.GitConfigs, o.GitConfigs...)
	d.Credentials = append(d.Credentials, o.Credentials...)
	d.Firewalls = append(d.Firewalls, o.Firewalls...)
	d.Scripts = append(d.Scripts, o.Scripts...)
	d.RuntimeClasses = append(d.RuntimeClasses, o.RuntimeClasses...)
	d.ServiceAccounts = append(d.ServiceAccounts, o.ServiceAccounts...)
	d.RBACRoles = append(d.RBACRoles, o.RBACRoles...)
	d.RBACBindings = append(d.RBACBindings, o.RBACBindings...)
	d.Skipped = append(d.Skipped, o.Skipped...)
	d.SandboxRefs = append(d.SandboxRefs, o.SandboxRefs...)
	d.Namespaces = append(d.Namespaces, o.Namespaces...)
	d.Raw = append(d.Raw, o.Raw...)
	if o.Live != nil {
		d.Live = o.Live
	}
	if o.Repository != nil {
		d.Repository = o.Repository
	}
	if o.Deps != nil {
		d.Deps = o.Deps
	}
}

// MergeAll merges parts in order into one document, as Merge would one by
// one. Every list is allocated once at its final size: a large tree's
// documents, appended one by one, would otherwise hold up to twice what
// they need. The lists are merged one at a time, each part's list released
// as soon as it is copied, so the copy never holds more than one list
// twice; each part is emptied once merged.
func MergeAll(parts []*Document) *Document {
	d := &Document{}
	v := reflect.ValueOf(d).Elem()
	for i := range v.NumField() {
		f := v.Field(i)
		if f.Kind() != reflect.Slice {
			continue
		}
		n := 0
		for _, p := range parts {
			n += reflect.ValueOf(p).Elem().Field(i).Len()
		}
		if n == 0 {
			continue
		}
		f.Set(reflect.MakeSlice(f.Type(), 0, n))
		for _, p := range parts {
			pf := reflect.ValueOf(p).Elem().Field(i)
			f.Set(reflect.AppendSlice(f, pf))
			pf.SetZero()
		}
	}
	for i, p := range parts {
		d.Merge(p) // what is left: the facts of the scan as a whole
		*p, parts[i] = Document{}, nil
	}
	return d
}

// FactCount is how many facts d holds that a rule can judge: everything but
// the file list, the raw documents and the scan-wide context (live facts,
// dependencies, parameters, policy).
func (d *Document) FactCount() int {
	return len(d.Workloads) + len(d.Images) + len(d.NetworkPolicies) + len(d.Agents) +
		len(d.MCPServers) + len(d.Workflows) + len(d.GitConfigs) + len(d.Credentials) +
		len(d.RuntimeClasses) + len(d.ServiceAccounts)
}

// Normalize replaces every nil slice and map reachable from d with an empty
// one, so rules see [] and {} rather than null (count(null) is an error in
// Rego, and an error must never pass silently as "no finding").
func (d *Document) Normalize() {
	fill(reflect.ValueOf(d).Elem())
}

func fill(v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			fill(v.Elem())
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				fill(v.Field(i))
			}
		}
	case reflect.Slice:
		if v.IsNil() {
			if v.CanSet() {
				v.Set(reflect.MakeSlice(v.Type(), 0, 0))
			}
			return
		}
		for i := 0; i < v.Len(); i++ {
			fill(v.Index(i))
		}
	case reflect.Map:
		if v.IsNil() && v.CanSet() {
			v.Set(reflect.MakeMap(v.Type()))
		}
	}
}
