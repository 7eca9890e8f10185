package r1_mcpnpx

deny contains msg if {
	some _, s in input.mcpServers
	s.command == "npx"
	not contains(concat(" ", s.args), "@")
	msg := "mcpnpx (1)"
}
