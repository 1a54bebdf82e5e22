# ctest helper: runs gdb in batch mode on the chapter 15 program, through the reader's own
# wrapper debug/gdb/attic-gdb, and checks what the printers print.
#   cmake -DGDB=... -DWRAPPER=attic-gdb -DTDESC=auto|no-avx|native -DEXE=...
#         -DCOMMANDS=x.gdb -DEXPECTED=x.gdb.txt -DCHAPTER=15-gdb.md -P run_gdb.cmake
# Only the lines the commands print are compared: "$N = ..." results and the echo lines
# ("--- ..."). Addresses (0x...) and the path of the build folder vary between machines,
# so they are replaced by 0x... and <build> first. The output is split into lines as a CMake
# list, so an echo line must not contain ';' (it would be cut in two). The chapter must show
# the command file and the expected output verbatim, so what the reader sees is what this
# test checks.
#
# Where gdb cannot call into the program on this CPU (it cannot write the registers back:
# "Couldn't write extended state status"), the lines printed before the call must still
# match; the test then says SKIP with the reason, and ctest counts it as skipped.
if(NOT GDB)
  message("SKIP: gdb is not installed; the gdb pretty-printer test needs it (apt-get install gdb)")
  return()
endif()
if(NOT TDESC)
  set(TDESC auto)
endif()
# The leak checker cannot run under ptrace and would fail the program at exit.
set(ENV{ASAN_OPTIONS} "detect_leaks=0")
set(ENV{GDB} "${GDB}")
set(ENV{ATTIC_GDB_TDESC} "${TDESC}")
get_filename_component(exe_dir ${EXE} DIRECTORY)
execute_process(
  COMMAND sh ${WRAPPER} -batch -nx -iex "add-auto-load-safe-path ${exe_dir}" -x ${COMMANDS} ${EXE}
  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(TDESC STREQUAL "no-avx" AND NOT err MATCHES "attic-gdb: [^\n]*runs with x86-64-no-avx.xml")
  message(FATAL_ERROR "attic-gdb did not say that it loaded x86-64-no-avx.xml:\n${err}")
endif()
if(err MATCHES "auto-loading has been declined")
  message(FATAL_ERROR "gdb did not load the printers embedded in ${EXE}:\n${err}")
endif()

# Keep the lines the commands printed, normalized.
string(REPLACE "\n" ";" lines "${out}")
set(got "")
foreach(line IN LISTS lines)
  if(line MATCHES "^(\\$[0-9]+ = |--- )")
    string(REGEX REPLACE "0x[0-9a-f]+" "0x..." line "${line}")
    string(APPEND got "${line}\n")
  endif()
endforeach()
file(READ ${EXPECTED} expected)
get_filename_component(session ${COMMANDS} NAME_WE)

set(xstate_error "Couldn't write extended state status")
if(NOT rc EQUAL 0 AND err MATCHES "${xstate_error}")
  # gdb stopped at the call. What it printed before must be the expected output's start.
  string(LENGTH "${got}" got_len)
  if(got_len GREATER 0)
    string(SUBSTRING "${expected}" 0 ${got_len} expected_start)
  endif()
  if(got_len EQUAL 0 OR NOT got STREQUAL expected_start)
    message(FATAL_ERROR "gdb failed a call, and what it printed before differs from ${EXPECTED}"
                        "\n--- got\n${got}\n--- gdb's whole output\n${out}\n${err}")
  endif()
  string(REGEX MATCH "[^\n]*${xstate_error}[^\n]*" why "${err}")
  message("SKIP: gdb cannot call into the program on this CPU (\"${why}\"): its XSAVE register "
          "state is larger than this gdb can write back; the lines before the call matched. "
          "tutorials/15-gdb.md says what to do.")
  return()
endif()
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "gdb exited with ${rc}\n${out}\n${err}")
endif()
if(NOT got STREQUAL expected)
  file(WRITE ${EXE}.${session}.${TDESC}.actual "${got}")
  message(FATAL_ERROR "gdb printed something else than ${EXPECTED}\n--- expected\n${expected}"
                      "\n--- got (saved as ${EXE}.${session}.${TDESC}.actual)\n${got}\n--- gdb's whole output\n${out}\n${err}")
endif()

file(READ ${CHAPTER} chapter)
file(READ ${COMMANDS} commands)
foreach(part commands expected)
  string(FIND "${chapter}" "${${part}}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "${CHAPTER} does not show the ${part} file verbatim")
  endif()
endforeach()
message("gdb printed the expected values")
