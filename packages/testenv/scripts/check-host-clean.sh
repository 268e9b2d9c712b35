#!/usr/bin/env bash
# After the tests: a stopped real node must leave nothing on the host. Prints what it finds and
# exits 1 when anything is left (test.sh counts that as a failure).
set -uo pipefail
left=()
pgrep -f 'containerd --config .*/node/containerd.toml' >/dev/null && left+=("containerd process")
pgrep -f 'containerd-shim-runc-v2 .*flink-standalone-k8s-' >/dev/null && left+=("containerd shim processes")
pgrep -x kubelet >/dev/null && left+=("kubelet process")
ip link show fsbr0 >/dev/null 2>&1 && left+=("bridge fsbr0")
ip addr show dev lo 2>/dev/null | grep -q '192\.0\.2\.2/' && left+=("node address 192.0.2.2 on lo")
iptables -t nat -S 2>/dev/null | grep -q flink-standalone-testenv && left+=("iptables rule")
grep -q 'flink-standalone-k8s-' /proc/self/mountinfo && left+=("mounts under the node's folder")
for hierarchy in /sys/fs/cgroup/*/; do
  for name in kubepods k8s.io; do [ -d "$hierarchy$name" ] && left+=("cgroup $hierarchy$name"); done
done
[ -e /run/flink-standalone-real-node.pid ] && left+=("lock file /run/flink-standalone-real-node.pid")
if [ ${#left[@]} -gt 0 ]; then
  printf '[host-clean] left behind: %s\n' "${left[@]}" >&2
  exit 1
fi
echo "[host-clean] nothing left behind"
