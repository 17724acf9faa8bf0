#!/usr/bin/env bash
# Remote-style GPU run on a GPU machine: starts an sshd on 127.0.0.1 (a free port, generated host
# and user keys, its own config; needs root for /run/sshd) and verifies an example through
# `--device ssh://USER@127.0.0.1:PORT/cuda`, then the same on the remote simulator, then stops
# sshd. Usage: tests/gpu/remote_check.sh TIRX_BINARY [SCRIPT]   (default resources/examples/activation.py)
# Exit status: that of the cuda verify; 77 when no sshd is found.
# Environment: SSH_BIN_DIR — a folder holding sshd, ssh and ssh-keygen to use instead of the system's
# (the H200 machine has no OpenSSH: the lead carries Debian's binaries and their libraries there,
# each behind a wrapper that sets LD_LIBRARY_PATH for it alone).
set -u
TIRX="$(readlink -f "$1")"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
SCRIPT="${2:-$ROOT/resources/examples/activation.py}"
SSHD=/usr/sbin/sshd
if [ -n "${SSH_BIN_DIR:-}" ]; then
  SSHD="$(readlink -f "$SSH_BIN_DIR")/sshd"
  export PATH="$(readlink -f "$SSH_BIN_DIR"):$PATH"
fi
[ -x "$SSHD" ] || { echo "remote_check: $SSHD missing (apt-get install openssh-server)" >&2; exit 77; }
# sshd's privilege separation needs its user.
id sshd > /dev/null 2>&1 || useradd -r -M -d /run/sshd -s /usr/sbin/nologin sshd 2>/dev/null || true
D="$(mktemp -d)"
trap '[ -f "$D/sshd.pid" ] && kill "$(cat "$D/sshd.pid")" 2>/dev/null; rm -rf "$D"' EXIT
mkdir -p /run/sshd
for k in host_key user_key; do ssh-keygen -q -t ed25519 -N "" -f "$D/$k"; done
cp "$D/user_key.pub" "$D/authorized_keys"
PORT="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
USER_NAME="$(id -un)"
cat > "$D/sshd_config" <<CFG
Port $PORT
ListenAddress 127.0.0.1
HostKey $D/host_key
AuthorizedKeysFile $D/authorized_keys
PidFile $D/sshd.pid
StrictModes no
UsePAM no
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
PubkeyAuthentication yes
CFG
"$SSHD" -f "$D/sshd_config" || { echo "remote_check: sshd did not start" >&2; exit 1; }
echo "[127.0.0.1]:$PORT $(cut -d' ' -f1,2 "$D/host_key.pub")" > "$D/known_hosts"
cat > "$D/ssh_config" <<CFG
Host 127.0.0.1
  IdentityFile $D/user_key
  IdentitiesOnly yes
  UserKnownHostsFile $D/known_hosts
  StrictHostKeyChecking yes
CFG
for i in $(seq 50); do [ -f "$D/sshd.pid" ] && break; sleep 0.1; done
export TIRX_SSH_OPTIONS="-F $D/ssh_config" TIRX_REMOTE_TIRX="$TIRX"
URL="ssh://$USER_NAME@127.0.0.1:$PORT"
echo "== tirx verify $(basename "$SCRIPT") --device $URL/cuda"
"$TIRX" verify "$SCRIPT" --device "$URL/cuda"; rc=$?
echo "== tirx run $(basename "$SCRIPT") --device $URL/cuda"
"$TIRX" run "$SCRIPT" --device "$URL/cuda"
echo "== tirx verify $(basename "$SCRIPT") --device $URL/sim"
"$TIRX" verify "$SCRIPT" --device "$URL/sim"
echo "remote_check: cuda verify exit $rc"
exit $rc
