# Package lib.image holds helpers the image rules share. It is a library, not
# a rule: it emits no findings.
package lib.image

# url(text) is the first http(s) URL in text with its user info, query and
# fragment removed, so a token carried in the URL never reaches a message;
# undefined when text holds no URL.
url(text) := clean_url(regex.find_n(`https?://[^\s|;&'"<>)]+`, text, 1)[0])

clean_url(u) := regex.replace(
	regex.replace(u, `[?#].*$`, ""),
	`^(https?://)[^/@]*@`, "$1",
)
