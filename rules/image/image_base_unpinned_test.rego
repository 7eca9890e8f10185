package rules.image_base_unpinned_test

import data.rules.image_base_unpinned

test_latest_and_tag_fire if {
	fs := image_base_unpinned.deny with input as {"images": [{
		"file": "Dockerfile", "line": 1,
		"base_images": [
			{"ref": "golang:1.23", "tag": "1.23", "pinned": false, "stage": "build", "file": "Dockerfile", "line": 1},
			{"ref": "ubuntu", "tag": "", "pinned": false, "stage": "", "file": "Dockerfile", "line": 9},
		],
	}]}
	count(fs) == 2
	some f in fs
	f.rule_id == "image-base-unpinned"
	f.severity == "low"
	f.file == "Dockerfile"
	f.line == 9
	contains(f.message, "floating latest")
	some g in fs
	g.line == 1
	contains(g.message, "only by tag 1.23")
}

test_build_arg_ref_fires if {
	fs := image_base_unpinned.deny with input as {"images": [{"base_images": [
		{"ref": "${BASE}", "tag": "", "pinned": false, "file": "Dockerfile", "line": 2},
	]}]}
	some f in fs
	contains(f.message, "build argument")
}

test_hardened_quiet if {
	count(image_base_unpinned.deny) == 0 with input as {"images": [{
		"file": "Dockerfile", "line": 1,
		"base_images": [
			{"ref": "golang:1.23@sha256:0000000000000000000000000000000000000000000000000000000000000000", "tag": "1.23", "pinned": true, "stage": "Build", "file": "Dockerfile", "line": 1},
			{"ref": "build", "tag": "", "pinned": false, "stage": "", "file": "Dockerfile", "line": 5},
			{"ref": "scratch", "tag": "", "pinned": false, "stage": "", "file": "Dockerfile", "line": 9},
		],
	}]}
}

test_empty_input_quiet if {
	count(image_base_unpinned.deny) == 0 with input as {}
}
