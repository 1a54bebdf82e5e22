# ctest helper: attic as an installed package. Installs this build of attic into a scratch
# prefix, configures and builds examples/standalone against it with find_package(attic),
# and runs the program.
#   cmake -DBUILD_DIR=... -DSOURCE_DIR=... -DWORK=... -DCXX=... -DBUILD_TYPE=...
#         [-DTOOLCHAIN=file -DEMULATOR="qemu-aarch64 ..."] -P run_standalone.cmake
# A cross build passes its toolchain file, for the program to be built for the same target,
# and its emulator, to run it.
file(REMOVE_RECURSE ${WORK})
function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (${rc}):\n${out}\n${err}")
  endif()
  set(out "${out}" PARENT_SCOPE)
endfunction()

run("cmake --install" ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${WORK}/prefix)
# The installed headers must stand alone: the program is built without the source tree.
# A toolchain file lets find_package look only in the target's tree (the prefix is not
# there), so a cross build names the package's folder itself.
set(cross "")
if(TOOLCHAIN)
  file(GLOB_RECURSE config ${WORK}/prefix/*/atticConfig.cmake)
  get_filename_component(config_dir "${config}" DIRECTORY)
  set(cross "-DCMAKE_TOOLCHAIN_FILE=${TOOLCHAIN}" "-Dattic_DIR=${config_dir}")
endif()
run("configuring examples/standalone" ${CMAKE_COMMAND} -S ${SOURCE_DIR}/examples/standalone
    -B ${WORK}/build -DCMAKE_PREFIX_PATH=${WORK}/prefix -DCMAKE_CXX_COMPILER=${CXX}
    -DCMAKE_BUILD_TYPE=${BUILD_TYPE} ${cross})
file(READ ${WORK}/build/CMakeCache.txt cache)
# (its type is PATH, or UNINITIALIZED where a cross build named it on the command line)
if(NOT cache MATCHES "attic_DIR:[A-Z]+=${WORK}/prefix/")
  message(FATAL_ERROR "find_package(attic) did not take the installed package in ${WORK}/prefix")
endif()
run("building examples/standalone" ${CMAKE_COMMAND} --build ${WORK}/build)
separate_arguments(emulator UNIX_COMMAND "${EMULATOR}")
run("running fit_line" ${emulator} ${WORK}/build/fit_line)
if(NOT out STREQUAL "w = 2.000, b = -1.000\n")
  message(FATAL_ERROR "fit_line printed '${out}', expected 'w = 2.000, b = -1.000'")
endif()
message("the installed attic built and ran examples/standalone: ${out}")
