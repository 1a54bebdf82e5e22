#!/bin/sh
# Stands in for gdb in the tests of attic-gdb and run_gdb.cmake, which must behave right on
# CPUs this machine may not have.
#   FAKE_GDB_VERSION   the major version it claims (default 13)
#   FAKE_GDB_MODE=args     print the arguments it was given, one a line
#   FAKE_GDB_MODE=xstate   act as gdb 13 does on a CPU with AMX: print the lines of the
#                          session up to the call (from EXPECTED_OUTPUT), then fail the call
case "$1" in --version) echo "GNU gdb (fake) ${FAKE_GDB_VERSION:-13}.1"; exit 0 ;; esac
case "${FAKE_GDB_MODE:-args}" in
  args) for a in "$@"; do echo "arg: $a"; done ;;
  xstate)
    sed '/^--- a call into the program$/q' "$EXPECTED_OUTPUT"
    echo "15_gdb_backward.gdb:10: Error in sourced command file:" >&2
    echo "Couldn't write extended state status: Bad address." >&2
    exit 1 ;;
esac
