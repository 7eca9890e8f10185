package r4_wfprt

deny contains msg if {
	input.on[_] == "pull_request_target"
	msg := "wfprt (4)"
}
