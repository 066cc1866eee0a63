# Fails when any C++ source of the project differs from what clang-format (.clang-format) makes of it.
file(GLOB_RECURSE files
  ${SOURCE_DIR}/src/*.cpp ${SOURCE_DIR}/src/*.hpp
  ${SOURCE_DIR}/grammar/*.cpp ${SOURCE_DIR}/grammar/*.hpp
  ${SOURCE_DIR}/tests/*.cpp ${SOURCE_DIR}/tests/*.hpp)
set(bad "")
foreach(f IN LISTS files)
  execute_process(COMMAND ${CLANG_FORMAT} --dry-run --Werror ${f} RESULT_VARIABLE rc OUTPUT_QUIET ERROR_QUIET)
  if(NOT rc EQUAL 0)
    list(APPEND bad ${f})
  endif()
endforeach()
if(bad)
  string(REPLACE ";" "\n  " bad "${bad}")
  message(FATAL_ERROR "not clang-formatted (run clang-format -i):\n  ${bad}")
endif()
list(LENGTH files n)
message(STATUS "format check: ${n} files formatted")
