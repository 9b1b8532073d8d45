#!/usr/bin/env bash
# run-experiments.sh — the blueprint's chapter 6 experiments on a network-namespace daisy chain,
# with real bin/statecast processes (one per namespace). Needs root and iproute2; installs
# nftables itself if the loss run is on and nft is missing.
#
#   it/testbed/run-experiments.sh [TestbedRunner options…]
#
# Builds what it needs (the launcher jar and the runner's classes), then runs
# io.statecast.it.testbed.TestbedRunner. Useful options (all: --help):
#   --services none,h2h-ack,e2e-ack   best-effort and/or shipped services by name (spec from the
#                              class path services/NAME.scxml), or a ServiceID with --message-store FILE
#   --hops 1,2,5               hop counts
#   --rates 10,25,50,75,87.5,91  ladder of payload rates in Mbit/s, then --refine bisection steps
#   --count 10000 --size 1024  the blueprint's run
#   --no-loss-run              skip the 5-hop, 5 %-loss run
#   --link-burst 262144        every link's tbf bucket in bytes (the default; 32768 is the chain
#                              script's own, which sends packets on timers after a node's stall)
#   --results FILE             Markdown table (default it/target/testbed/results.md)
# Environment: MVN_OFFLINE=1 builds with -o; SKIP_BUILD=1 uses what is built.
#
# The runner tears its chain down when it ends, is interrupted or fails; this script's trap
# removes it too if the JVM itself is killed.
set -euo pipefail
export PATH="$PATH:/usr/sbin:/sbin"

here="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$here"

if [[ $(id -u) != 0 ]]; then
  echo "run-experiments: must run as root (network namespaces)" >&2
  exit 2
fi

tag="r$(head -c 4 /dev/urandom | od -An -tx1 | tr -d ' \n' | cut -c1-5)"
runner=
# The runner runs in the background and the script waits for it, so a signal is handled at once
# (bash defers traps while a foreground child runs): the runner is told to stop (its shutdown
# hook tears the chain down), then the chain is removed here as well in case it was killed.
cleanup() {
  local rc=$1
  trap - EXIT INT TERM HUP
  if [[ -n $runner ]] && kill -0 "$runner" 2>/dev/null; then
    kill -TERM "$runner" 2>/dev/null || true
    for _ in $(seq 1 100); do kill -0 "$runner" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$runner" 2>/dev/null || true
  fi
  bash "$here/it/testbed/netns-chain.sh" down --tag "$tag" --quiet || true
  exit "$rc"
}
trap 'cleanup $?' EXIT
trap 'cleanup 130' INT
trap 'cleanup 143' TERM
trap 'cleanup 129' HUP

mvn_flags=(-B -q)
[[ ${MVN_OFFLINE:-0} == 1 ]] && mvn_flags+=(-o)
if [[ ${SKIP_BUILD:-0} != 1 ]]; then
  echo "run-experiments: building (mvn ${mvn_flags[*]} -pl it -am package -DskipTests)"
  mvn "${mvn_flags[@]}" -pl it -am package -DskipTests
fi

# the runner's classes, plus the launcher jar and its libraries (everything the runner uses)
classpath="$here/it/target/test-classes:$here/examples/target/statecast.jar:$here/examples/target/lib/*"
[[ -d $here/it/target/test-classes/io/statecast/it/testbed ]] || { echo "run-experiments: runner not built" >&2; exit 2; }

echo "run-experiments: chain tag $tag; running TestbedRunner $*"
java -cp "$classpath" io.statecast.it.testbed.TestbedRunner --tag "$tag" --repo "$here" "$@" &
runner=$!
rc=0
wait "$runner" || rc=$?
runner=
exit "$rc"
