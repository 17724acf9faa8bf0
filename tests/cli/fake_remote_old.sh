#!/bin/sh
# A remote "tirx runner --stdio" of another version (tests/cli/tst_cli_remote, "wrong version"):
# greets with tirx 0.0.1 and then waits for its stdin to close, as the real one would.
printf '{"type":"hello","protocol":3,"tirx":"0.0.1","pid":%d}\n' "$$"
cat > /dev/null
