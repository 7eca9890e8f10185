# Package policies.coverage decides which properties the collected facts can
# speak to. A property with no evidence is "unknown", never "pass": scanning a
# lone Dockerfile says nothing about the sandbox's network.
package policies.coverage

c(k) := object.get(input.counts, k, 0)

live(k) if object.get(object.get(input, "live", {}), k, false)

checked contains "disposable" if c("workloads") + c("workflows") > 0

checked contains "disposable" if live("isolation")

checked contains "network" if c("workloads") + c("network_agents") > 0

checked contains "network" if live("network")

# Every file read was searched for credentials; a live audit searches env and home.
checked contains "credentials" if c("files") > 0

checked contains "credentials" if live("credentials")

# A git config says where credentials sit, not how work leaves the sandbox:
# review needs an agent's settings or a workflow that runs one.
checked contains "review" if c("workflows") + c("agents") > 0

checked contains "review" if live("git")

# The repository's rules on its default branch, read from GitHub, say what
# a change needs to land.
checked contains "review" if c("repository") > 0
