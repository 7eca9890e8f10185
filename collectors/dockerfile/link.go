package dockerfile

import (
	"strings"

	"github.com/sandbox-audit/sandbox-audit/collectors"
	"github.com/sandbox-audit/sandbox-audit/collectors/internal/baseimage"
	"github.com/sandbox-audit/sandbox-audit/model"
)

var _ collectors.Linker = Collector{}

// Link gives each workload that builds a Dockerfile read in this scan the
// user that image runs as and the sudoers grants that apply to the user the
// workload runs as: a devcontainer or compose service rarely repeats what
// its Dockerfile sets up.
func (Collector) Link(doc *model.Document) {
	images := map[string]*model.Image{}
	for i := range doc.Images {
		images[doc.Images[i].File] = &doc.Images[i]
	}
	for i := range doc.Workloads {
		w := &doc.Workloads[i]
		b := doc.BuildOf(w)
		if b == nil {
			continue
		}
		img := images[b.Dockerfile]
		if img == nil {
			continue
		}
		switch {
		case img.RunUser != nil:
			u := *img.RunUser
			w.ImageUser = &u
		case img.FinalUser != nil:
			u := *img.FinalUser
			w.ImageUser = &u
		default:
			w.ImageUser = &model.Str{Value: "root", Loc: img.Loc}
		}
		user := w.ImageUser.Value
		// A user the configuration leaves to the host (${localEnv:USER})
		// is, in practice, the one the image was built for.
		if w.User != nil && strings.TrimSpace(w.User.Value) != "" && !strings.Contains(w.User.Value, "${") {
			user = w.User.Value
		}
		w.Sudo = append(w.Sudo, Grants(img, user)...)
	}
}

// Grants are the sudoers lines of img that apply to user: lines naming
// the user, ALL, or a group the image adds the user to; and the grant its
// Dev Containers base image gives that image's user.
func Grants(img *model.Image, user string) []model.SudoRule {
	user = strings.SplitN(strings.TrimSpace(user), ":", 2)[0]
	groups := map[string]bool{}
	for _, g := range img.Groups {
		if g.User == user {
			groups[g.Group] = true
		}
	}
	var out []model.SudoRule
	for _, r := range img.Sudoers {
		switch {
		case r.Who == user, r.Who == "ALL":
		case strings.HasPrefix(r.Who, "%") && groups[strings.TrimPrefix(r.Who, "%")]:
		default:
			continue
		}
		out = append(out, r)
	}
	for _, b := range finalBases(img) {
		if r := baseimage.Sudo(b.Ref, user, b.Loc); r != nil && !removed(img, user) {
			out = append(out, *r)
		}
	}
	return out
}

// removed reports that the image deletes the base image's sudoers file for
// user (common-utils writes /etc/sudoers.d/<user>), all of /etc/sudoers.d,
// or sudo itself.
func removed(img *model.Image, user string) bool {
	for _, r := range img.SudoersRemoved {
		switch strings.TrimSuffix(r.Value, "/") {
		case "sudo", "/etc/sudoers.d", "/etc/sudoers.d/*", "/etc/sudoers.d/" + user:
			return true
		}
	}
	return false
}

// finalBases are the base images the final stage builds on: the last FROM
// of an image (stages built on a named stage add no base).
func finalBases(img *model.Image) []model.BaseImage {
	if len(img.BaseImages) == 0 {
		return nil
	}
	return img.BaseImages[len(img.BaseImages)-1:]
}
