#!/usr/bin/env bash
# What a real node needs on the host, from Debian's packages, installed once with apt-get when
# missing: containerd (and ctr), runc, the CNI plugins (/usr/lib/cni), iptables, iproute2, and
# mmdebstrap for the images' root file system. Needs root, as the node itself does.
set -euo pipefail
log() { printf '[real-node %(%H:%M:%S)T] %s\n' -1 "$*"; }

declare -A provides=(
  [containerd]=/usr/bin/containerd
  [runc]=/usr/sbin/runc
  [containernetworking-plugins]=/usr/lib/cni/bridge
  [iptables]=/usr/sbin/iptables
  [iproute2]=/usr/sbin/ip
  [mmdebstrap]=/usr/bin/mmdebstrap
)
missing=()
for package in "${!provides[@]}"; do
  [ -e "${provides[$package]}" ] || missing+=("$package")
done
if [ ${#missing[@]} -eq 0 ]; then
  log "containerd $(containerd --version | awk '{print $3}'), runc $(runc --version | awk 'NR==1{print $3}'), CNI plugins, iptables, mmdebstrap: present"
  exit 0
fi
if [ "$(id -u)" != 0 ]; then
  echo "[real-node] missing ${missing[*]}, and apt-get needs root: run 'sudo apt-get install ${missing[*]}' (a real node runs as root anyway)" >&2
  exit 1
fi
log "installing ${missing[*]} with apt-get (Debian packages, under a minute)"
started=$SECONDS
export DEBIAN_FRONTEND=noninteractive
# Another apt-get may hold the lock (e.g. the Chromium install): wait for it rather than fail.
apt_get() { apt-get -o DPkg::Lock::Timeout=300 "$@"; }
apt_get update -qq || log "apt-get update failed; trying the package lists we have"
apt_get install -y -q --no-install-recommends "${missing[@]}" 2>&1 |
  grep --line-buffered -E '^(Get|Setting up)' | sed -u 's/^/[real-node] /' || true
for package in "${missing[@]}"; do
  if [ ! -e "${provides[$package]}" ]; then
    echo "[real-node] apt-get did not install $package (${provides[$package]} is missing)" >&2
    exit 1
  fi
done
log "installed ${missing[*]} in $((SECONDS - started)) s"
