package r5_wfprt

deny contains msg if {
	input.on[_] == "pull_request_target"
	msg := "wfprt (5)"
}
