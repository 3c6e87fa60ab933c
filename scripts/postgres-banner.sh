#!/usr/bin/env bash
# go test hides the output of passing packages, so the storage tests' own
# skip message would go unseen: say here, loudly, when PostgreSQL is not
# reachable and its half of the tests will be skipped. Under CI=true the
# tests fail instead, and so does this check.
set -uo pipefail
url=${WHITECOAT_TEST_POSTGRES:-postgres://postgres@127.0.0.1:5432/test}
hostport=${url#*://}
hostport=${hostport#*@}
hostport=${hostport%%/*}
hostport=${hostport%%\?*}
host=${hostport%%:*}
port=5432
[[ $hostport == *:* ]] && port=${hostport##*:}
if timeout 3 bash -c "exec 3<>/dev/tcp/$host/$port" 2>/dev/null; then
  exit 0
fi
if [[ ${CI:-} == true ]]; then
  echo "PostgreSQL is required in CI but nothing answers at $host:$port (WHITECOAT_TEST_POSTGRES)." >&2
  exit 1
fi
cat >&2 <<MSG

!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!
!!! PostgreSQL is not reachable at $host:$port.
!!! Every PostgreSQL variant of the storage tests will be SKIPPED;
!!! only SQLite is tested. Set WHITECOAT_TEST_POSTGRES to a server.
!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!

MSG
