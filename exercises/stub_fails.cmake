# Runs an exercise's stub, as the learner first gets it, against its check: the check must
# fail (a non-zero exit with Catch2's count of failed test cases), or the check could not tell
# a finished exercise from an untouched one. Called by ctest with -DEXE=the stub's program.
execute_process(COMMAND ${EXE} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(out MATCHES "skipped: ")
  message("SKIP: ${out}")
  return()
endif()
if(rc EQUAL 0 OR NOT out MATCHES "failed")
  message(FATAL_ERROR "the stub ${EXE} passed its check (exit ${rc}):\n${out}${err}")
endif()
string(REGEX MATCH "test cases:[^\n]*" summary "${out}")
message("the stub fails its check, as it should: ${summary}")
