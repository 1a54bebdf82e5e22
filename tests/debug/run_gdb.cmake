# ctest helper: runs gdb in batch mode on the chapter 8 program and checks what the
# printers print.
#   cmake -DGDB=... -DEXE=... -DCOMMANDS=x.gdb -DEXPECTED=x.gdb.txt -DCHAPTER=08-gdb.md -P run_gdb.cmake
# Only the lines the commands print are compared: "$N = ..." results and the echo lines
# ("--- ..."). Addresses (0x...) and the path of the build folder vary between machines,
# so they are replaced by 0x... and <build> first. The chapter must show the command file
# and the expected output verbatim, so what the reader sees is what this test checks.
if(NOT GDB)
  message("SKIP: gdb is not installed; the gdb pretty-printer test needs it (apt-get install gdb)")
  return()
endif()
# The leak checker cannot run under ptrace and would fail the program at exit.
set(ENV{ASAN_OPTIONS} "detect_leaks=0")
get_filename_component(exe_dir ${EXE} DIRECTORY)
execute_process(
  COMMAND ${GDB} -batch -nx -iex "add-auto-load-safe-path ${exe_dir}" -x ${COMMANDS} ${EXE}
  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "gdb exited with ${rc}\n${out}\n${err}")
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
if(NOT got STREQUAL expected)
  file(WRITE ${EXE}.${session}.actual "${got}")
  message(FATAL_ERROR "gdb printed something else than ${EXPECTED}\n--- expected\n${expected}"
                      "\n--- got (saved as ${EXE}.${session}.actual)\n${got}\n--- gdb's whole output\n${out}\n${err}")
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
