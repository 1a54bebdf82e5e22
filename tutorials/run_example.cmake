# ctest helper: run one tutorial example and compare its stdout with the expected file.
#   cmake -DEXE=... [-DEMULATOR="qemu-aarch64 -L ..."] -DEXPECTED=x.out -DIMG_DIR=tutorials/img
#         -P run_example.cmake
# EMULATOR runs a cross-compiled example (empty or absent in a native build).
# The example runs in a scratch folder of its own. Every NN_name.svg it writes there is a
# picture that a chapter shows, so it must equal tutorials/img/NN_name.svg byte for byte.
#
# In the expected output, the token <measured> stands for a figure that changes from run to
# run (a time, a GFLOP/s): it matches any run of characters other than blanks.
set(work ${EXE}.run)
file(REMOVE_RECURSE ${work})
file(MAKE_DIRECTORY ${work})
separate_arguments(emulator UNIX_COMMAND "${EMULATOR}")
execute_process(COMMAND ${emulator} ${EXE} WORKING_DIRECTORY ${work}
                OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${EXE} exited with ${rc}\n${err}")
endif()
# A CUDA example on a machine without a GPU says so and stops; ctest marks the test skipped.
if(out STREQUAL "skipped: no CUDA device\n")
  message(STATUS "skipped: no CUDA device")
  return()
endif()
file(READ ${EXPECTED} expected)
string(FIND "${expected}" "<measured>" has_measured)
if(has_measured EQUAL -1)
  set(same FALSE)
  if(out STREQUAL expected)
    set(same TRUE)
  endif()
else()
  # Escape the regular-expression characters of the expected text, then let each
  # <measured> match one blank-free run.
  string(REGEX REPLACE "([][\\\\.^$|?*+(){}])" "\\\\\\1" pattern "${expected}")
  string(REPLACE "<measured>" "[^ \t\n]+" pattern "${pattern}")
  set(same FALSE)
  if(out MATCHES "^${pattern}$")
    set(same TRUE)
  endif()
endif()
if(NOT same)
  file(WRITE ${EXE}.actual "${out}")
  message(FATAL_ERROR "output of ${EXE} differs from ${EXPECTED}\n--- expected\n${expected}\n--- got (saved as ${EXE}.actual)\n${out}")
endif()
file(GLOB pictures RELATIVE ${work} ${work}/*.svg)
foreach(picture ${pictures})
  if(NOT EXISTS ${IMG_DIR}/${picture})
    message(FATAL_ERROR "${EXE} drew ${picture}, which is not in ${IMG_DIR}: a picture the "
                        "chapter shows lives there (it is at ${work}/${picture})")
  endif()
  file(READ ${work}/${picture} drawn)
  file(READ ${IMG_DIR}/${picture} committed)
  if(NOT drawn STREQUAL committed)
    message(FATAL_ERROR "${EXE} drew ${picture} differently from ${IMG_DIR}/${picture}; "
                        "the new drawing is at ${work}/${picture}")
  endif()
endforeach()
file(REMOVE_RECURSE ${work})
