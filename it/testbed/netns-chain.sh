#!/usr/bin/env bash
# netns-chain.sh — the blueprint's daisy chain (chapter 6.1.2) on Linux network namespaces.
#
#   node 1 ── link 1 ── node 2 ── link 2 ── node 3 ── … ── node N
#
# Each node is a network namespace; each link a veth pair with a `tc tbf` rate limit on the
# egress of both ends (so both directions are limited), default 100 Mbit like the Emulab links.
# Addressing (identical in every run; the namespaces are isolated from each other and from the
# host, so concurrent runs with different tags do not collide):
#   link I       : 10.200.I.1/30 in node I, 10.200.I.2/30 in node I+1
#   node I       : 10.201.0.I/32 on the namespace's loopback — the one address the overlay
#                  binds to, reachable from both neighbours
#   routes       : node I knows only 10.201.0.(I-1) and 10.201.0.(I+1), each via its link;
#                  net.ipv4.ip_forward=0, so the kernel never forwards: the overlay does.
# Optional random loss: an nft rule on every link's ingress in every namespace,
#   iifname <link> numgen random mod 100 < P drop
# (netem is not available on these machines).
#
# Usage (as root):
#   netns-chain.sh up N [options]         create (after removing leftovers of the same tag)
#   netns-chain.sh down [--tag T]         remove every namespace of the tag
#   netns-chain.sh status [--tag T]       show namespaces, addresses, qdiscs, nft rules
#   netns-chain.sh loss P [--tag T]       set the drop percentage on every link (0 removes it)
#   netns-chain.sh ns I [--tag T]         print the namespace name of node I
#   netns-chain.sh addr I                 print the overlay address of node I
#   netns-chain.sh run N [options] -- COMMAND …
#                                         up, run COMMAND (environment: SC_CHAIN_TAG, SC_CHAIN_N,
#                                         SC_CHAIN_PREFIX), always down afterwards; exit status
#                                         is COMMAND's
# Options:
#   --tag T        run tag, [a-z0-9]{1,6} (default: t0). Namespaces are sc-T-nI.
#   --rate R       tbf rate (default 100mbit)
#   --burst B      tbf burst in bytes (default: 1 ms of the rate, at least 32 KiB)
#   --latency L    tbf queueing latency bound (default 50ms)
#   --loss P       drop P % of packets on every link's ingress (0..100, default 0: no nft at all)
#   --quiet        print only errors
set -euo pipefail
export PATH="$PATH:/usr/sbin:/sbin"

PREFIX=sc
TAG=t0
RATE=100mbit
BURST=
LATENCY=50ms
LOSS=0
QUIET=0

say() { [[ $QUIET == 1 ]] || echo "netns-chain: $*"; }
die() { echo "netns-chain: error: $*" >&2; exit 2; }
run() { [[ $QUIET == 1 ]] || echo "  + $*"; "$@"; }

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; }

ns_name() { echo "$PREFIX-$TAG-n$1"; }
# Link names are per namespace, so they need not be unique across runs; kept short (IFNAMSIZ 15).
left_if() { echo "l$(( $1 - 1 ))"; }   # in node I: the link toward node I-1 (link I-1)
right_if() { echo "r$1"; }             # in node I: the link toward node I+1 (link I)
node_addr() { echo "10.201.0.$1"; }

require_root() {
  [[ $(id -u) == 0 ]] || die "must run as root (network namespaces, veth, tc)"
  command -v ip >/dev/null || die "'ip' (iproute2) not found"
  command -v tc >/dev/null || die "'tc' (iproute2) not found"
}

ensure_nft() {
  if ! command -v nft >/dev/null; then
    say "nft not found; installing nftables"
    if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nftables >/dev/null; }; then
      die "could not install nftables (needed for --loss)"
    fi
  fi
}

# Sizes the tbf bucket: one millisecond of the rate, never below 32 KiB so a burst of full frames
# (and GSO super-packets, which tbf segments) always fits.
default_burst() {
  local r=$1 bits
  case $r in
    *gbit) bits=$(( ${r%gbit} * 1000000000 )) ;;
    *mbit) bits=$(( ${r%mbit} * 1000000 )) ;;
    *kbit) bits=$(( ${r%kbit} * 1000 )) ;;
    *bit) bits=${r%bit} ;;
    *) die "--rate '$r': use an integer with kbit, mbit or gbit" ;;
  esac
  local b=$(( bits / 8 / 1000 ))
  (( b < 32768 )) && b=32768
  echo "$b"
}

tagged_namespaces() {
  ip netns list 2>/dev/null | awk '{print $1}' | grep -E "^$PREFIX-$TAG-n[0-9]+$" | sort -V || true
}

cmd_down() {
  local any=0 ns
  for ns in $(tagged_namespaces); do
    any=1
    # Processes still running inside would keep the namespace alive through their fds only;
    # the name and links go now, and their sockets see the links vanish.
    run ip netns del "$ns" || true
  done
  [[ $any == 1 ]] && say "removed chain '$TAG'" || say "no chain '$TAG' to remove"
}

set_loss() {
  local n=$1 p=$2 i ns
  if [[ $p != 0 ]]; then ensure_nft; fi
  for (( i = 1; i <= n; i++ )); do
    ns=$(ns_name "$i")
    ip netns exec "$ns" sh -c 'nft list table inet sc_loss >/dev/null 2>&1 && nft delete table inet sc_loss' 2>/dev/null || true
    if [[ $p != 0 ]]; then
      local ifs=() rules=""
      (( i > 1 )) && ifs+=("$(left_if "$i")")
      (( i < n )) && ifs+=("$(right_if "$i")")
      local ifn
      for ifn in "${ifs[@]}"; do
        rules+="    iifname \"$ifn\" numgen random mod 100 < $p counter drop
"
      done
      say "node $i ($ns): drop $p % on ingress of ${ifs[*]}"
      ip netns exec "$ns" nft -f - <<EOF
table inet sc_loss {
  chain input {
    type filter hook input priority -200; policy accept;
$rules  }
}
EOF
    fi
  done
}

cmd_up() {
  local n=$1
  [[ $n =~ ^[0-9]+$ ]] && (( n >= 2 && n <= 32 )) || die "N='$n' must be an integer 2..32"
  [[ -n $BURST ]] || BURST=$(default_burst "$RATE")
  say "chain '$TAG': $n nodes, links $RATE (tbf burst ${BURST}B, latency $LATENCY), loss ${LOSS}%"
  cmd_down
  local i ns
  for (( i = 1; i <= n; i++ )); do
    ns=$(ns_name "$i")
    run ip netns add "$ns"
    run ip -n "$ns" link set lo up
    run ip -n "$ns" addr add "$(node_addr "$i")/32" dev lo
    ip netns exec "$ns" sysctl -qw net.ipv4.ip_forward=0
    ip netns exec "$ns" sysctl -qw net.ipv6.conf.all.disable_ipv6=1
    ip netns exec "$ns" sysctl -qw net.ipv6.conf.default.disable_ipv6=1
  done
  for (( i = 1; i < n; i++ )); do
    local a b
    a=$(ns_name "$i"); b=$(ns_name $(( i + 1 )))
    local ra li
    ra=$(right_if "$i"); li=$(left_if $(( i + 1 )))
    say "link $i: node $i ($a, $ra 10.200.$i.1) <-> node $(( i + 1 )) ($b, $li 10.200.$i.2)"
    run ip link add "$ra" netns "$a" type veth peer name "$li" netns "$b"
    run ip -n "$a" addr add "10.200.$i.1/30" dev "$ra"
    run ip -n "$b" addr add "10.200.$i.2/30" dev "$li"
    run ip -n "$a" link set "$ra" up
    run ip -n "$b" link set "$li" up
    run tc -n "$a" qdisc replace dev "$ra" root tbf rate "$RATE" burst "$BURST" latency "$LATENCY"
    run tc -n "$b" qdisc replace dev "$li" root tbf rate "$RATE" burst "$BURST" latency "$LATENCY"
    run ip -n "$a" route add "$(node_addr $(( i + 1 )))/32" via "10.200.$i.2" dev "$ra" src "$(node_addr "$i")"
    run ip -n "$b" route add "$(node_addr "$i")/32" via "10.200.$i.1" dev "$li" src "$(node_addr $(( i + 1 )))"
  done
  for (( i = 1; i <= n; i++ )); do
    local fwd
    fwd=$(ip netns exec "$(ns_name "$i")" cat /proc/sys/net/ipv4/ip_forward)
    [[ $fwd == 0 ]] || die "node $i: net.ipv4.ip_forward=$fwd, expected 0"
  done
  if [[ $LOSS != 0 ]]; then set_loss "$n" "$LOSS"; fi
  # Check the routing before anyone relies on it: every node routes to its neighbours (pinged
  # when ping is installed and there is no loss) and has no route to anything further.
  for (( i = 1; i < n; i++ )); do
    ip -n "$(ns_name "$i")" route get "$(node_addr $(( i + 1 )))" >/dev/null \
      || die "node $i has no route to node $(( i + 1 ))"
    if [[ $LOSS == 0 ]] && command -v ping >/dev/null; then
      ip netns exec "$(ns_name "$i")" ping -c 1 -W 2 -q "$(node_addr $(( i + 1 )))" >/dev/null 2>&1 \
        || die "node $i cannot ping node $(( i + 1 ))"
    fi
    if (( i + 2 <= n )) && ip -n "$(ns_name "$i")" route get "$(node_addr $(( i + 2 )))" >/dev/null 2>&1; then
      die "node $i has a route to node $(( i + 2 )); only neighbours may be routable"
    fi
  done
  say "chain '$TAG' is up: node I is $PREFIX-$TAG-nI at 10.201.0.I"
}

cmd_status() {
  local ns any=0
  for ns in $(tagged_namespaces); do
    any=1
    echo "== $ns (ip_forward=$(ip netns exec "$ns" cat /proc/sys/net/ipv4/ip_forward))"
    ip -n "$ns" -brief addr show | sed 's/^/  /'
    ip -n "$ns" route show | sed 's/^/  route: /'
    tc -n "$ns" qdisc show | grep tbf | sed 's/^/  /' || true
    if command -v nft >/dev/null; then
      ip netns exec "$ns" nft list table inet sc_loss 2>/dev/null | grep -E 'drop' | sed 's/^ */  nft: /' || true
    fi
  done
  [[ $any == 1 ]] || echo "no chain '$TAG'"
}

chain_size() { tagged_namespaces | wc -l; }

# The command runs in the background and the script waits for it: bash runs a trap only between
# commands, so waiting on a foreground child would delay the teardown until the child ended.
RUN_CHILD=
run_teardown() {
  local rc=$1
  trap - EXIT INT TERM HUP
  if [[ -n $RUN_CHILD ]] && kill -0 "$RUN_CHILD" 2>/dev/null; then
    say "stopping command (pid $RUN_CHILD)"
    kill -TERM "$RUN_CHILD" 2>/dev/null || true
    local i
    for (( i = 0; i < 50 && $(kill -0 "$RUN_CHILD" 2>/dev/null && echo 1 || echo 0) == 1; i++ )); do
      sleep 0.1
    done
    kill -KILL "$RUN_CHILD" 2>/dev/null || true
  fi
  cmd_down
  exit "$rc"
}

cmd_run() {
  local n=$1; shift
  [[ ${1:-} == -- ]] || die "run N [options] -- COMMAND …"
  shift
  (( $# > 0 )) || die "run: no command"
  trap 'run_teardown $?' EXIT
  trap 'run_teardown 130' INT
  trap 'run_teardown 143' TERM
  trap 'run_teardown 129' HUP
  cmd_up "$n"
  # an explicit stdin: a background command would otherwise read /dev/null
  SC_CHAIN_TAG=$TAG SC_CHAIN_N=$n SC_CHAIN_PREFIX=$PREFIX "$@" <&0 &
  RUN_CHILD=$!
  local rc=0
  wait "$RUN_CHILD" || rc=$?
  RUN_CHILD=
  say "command exited with $rc"
  return $rc
}

main() {
  (( $# > 0 )) || { usage; exit 2; }
  local cmd=$1; shift
  local args=() rest=()
  while (( $# > 0 )); do
    case $1 in
      --tag) TAG=${2:?--tag needs a value}; shift 2 ;;
      --rate) RATE=${2:?--rate needs a value}; shift 2 ;;
      --burst) BURST=${2:?--burst needs a value}; shift 2 ;;
      --latency) LATENCY=${2:?--latency needs a value}; shift 2 ;;
      --loss) LOSS=${2:?--loss needs a value}; shift 2 ;;
      --quiet) QUIET=1; shift ;;
      --) rest=("${@:2}"); break ;;
      -h|--help) usage; exit 0 ;;
      *) args+=("$1"); shift ;;
    esac
  done
  [[ $TAG =~ ^[a-z0-9]{1,6}$ ]] || die "--tag '$TAG' must match [a-z0-9]{1,6}"
  [[ $LOSS =~ ^[0-9]+$ ]] && (( LOSS <= 100 )) || die "--loss '$LOSS' must be an integer 0..100"
  [[ -z $BURST || $BURST =~ ^[0-9]+$ ]] || die "--burst '$BURST' must be a byte count"
  case $cmd in
    up) require_root; cmd_up "${args[0]:?up N}" ;;
    down) require_root; cmd_down ;;
    status) require_root; cmd_status ;;
    loss)
      require_root
      local p=${args[0]:?loss P}
      [[ $p =~ ^[0-9]+$ ]] && (( p <= 100 )) || die "loss P='$p' must be an integer 0..100"
      local n; n=$(chain_size)
      (( n > 0 )) || die "no chain '$TAG'"
      set_loss "$n" "$p" ;;
    ns) ns_name "${args[0]:?ns I}" ;;
    addr) node_addr "${args[0]:?addr I}" ;;
    run) require_root; cmd_run "${args[0]:?run N -- COMMAND}" -- "${rest[@]}" ;;
    *) usage; exit 2 ;;
  esac
}

main "$@"
