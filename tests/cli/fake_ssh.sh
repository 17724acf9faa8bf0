#!/bin/sh
# A stand-in for OpenSSH's client on machines without an ssh server (tests/cli/tst_cli_profile),
# named by TIRX_SSH: skips the options up to `--` and the host after it, then runs the remote
# command here with sh, as sshd would run it on the host, stdin and stdout passed through. The
# host `unreachable` fails as ssh does when nothing listens (exit 255, a message on stderr).
while [ $# -gt 0 ] && [ "$1" != "--" ]; do shift; done
shift
host="$1"
shift
if [ "$host" = "unreachable" ]; then
  echo "ssh: connect to host unreachable port 22: Connection refused" >&2
  exit 255
fi
exec sh -c "$*"
