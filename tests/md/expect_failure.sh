#!/usr/bin/env bash
# Passes when a command exits non-zero and its output matches a pattern (expect_outcome.sh).
#   expect_failure.sh PATTERN COMMAND...
exec "$(dirname "$0")/expect_outcome.sh" fails "$@"
