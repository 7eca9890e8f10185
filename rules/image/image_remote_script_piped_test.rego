package rules.image_remote_script_piped_test

import data.rules.image_remote_script_piped

test_curl_pipe_sh_fires if {
	fs := image_remote_script_piped.deny with input as {"images": [{
		"file": "Dockerfile", "line": 1,
		"pipe_to_shell": [{"value": "curl -fsSL https://deb.nodesource.com/setup_22.x?k=v | bash -", "file": "Dockerfile", "line": 7}],
	}]}
	count(fs) == 1
	some f in fs
	f.rule_id == "image-remote-script-piped"
	f.severity == "medium"
	f.property == "review"
	f.file == "Dockerfile"
	f.line == 7
	f.message == "Dockerfile RUN pipes a script from https://deb.nodesource.com/setup_22.x into a shell without checking it"
}

test_without_url_fires if {
	fs := image_remote_script_piped.deny with input as {"images": [{
		"pipe_to_shell": [{"value": "wget -qO- $INSTALLER | sh", "file": "Dockerfile", "line": 3}],
	}]}
	some f in fs
	contains(f.message, "a downloaded script")
}

test_hardened_quiet if {
	count(image_remote_script_piped.deny) == 0 with input as {"images": [{
		"file": "Dockerfile", "line": 1, "pipe_to_shell": [],
		"base_images": [{"ref": "node:22@sha256:00", "pinned": true, "file": "Dockerfile", "line": 1}],
	}]}
}

test_empty_input_quiet if {
	count(image_remote_script_piped.deny) == 0 with input as {}
}
