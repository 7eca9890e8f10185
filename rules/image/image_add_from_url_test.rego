package rules.image_add_from_url_test

import data.rules.image_add_from_url

test_add_url_fires if {
	fs := image_add_from_url.deny with input as {"images": [{
		"file": "Dockerfile", "line": 1,
		"add_urls": [{"value": "https://bot:secret@example.com/tool.tar.gz?sig=1", "file": "Dockerfile", "line": 5}],
	}]}
	count(fs) == 1
	some f in fs
	f.rule_id == "image-add-from-url"
	f.severity == "low"
	f.file == "Dockerfile"
	f.line == 5
	f.message == "Dockerfile ADDs https://example.com/tool.tar.gz at build time"
}

test_hardened_quiet if {
	count(image_add_from_url.deny) == 0 with input as {"images": [{"file": "Dockerfile", "line": 1, "add_urls": []}]}
}

test_empty_input_quiet if {
	count(image_add_from_url.deny) == 0 with input as {}
}
