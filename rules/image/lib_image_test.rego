package lib.image_test

import data.lib.image

test_url_strips_credentials_and_query if {
	image.url("curl -fsSL https://user:tok@get.example.com/install.sh?token=abc | sh") == "https://get.example.com/install.sh"
}

test_url_undefined_without_url if {
	not image.url("apt-get install -y curl")
}
