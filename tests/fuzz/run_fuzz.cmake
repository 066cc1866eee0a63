# Runs one fuzz target for a fixed number of runs (CTest, label `fuzz`):
#   cmake -DFUZZER=path -DWORK=dir -DARGS=list -DCORPORA=list [-DLINES=list] -P run_fuzz.cmake
# LINES names EPD files: each position (the line up to its first ';') is one more seed.
# WORK is emptied first and receives the inputs libFuzzer adds (its first corpus directory),
# so that every run starts from the seed corpora alone and is reproducible; the seed corpora
# are only read. A failing input is left in WORK as crash-*, leak-*, timeout-* or oom-*: copy
# it to data/hostile/ once the bug is understood.
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK}/new)
set(n 0)
foreach(epd IN LISTS LINES)
  file(STRINGS ${epd} lines)
  foreach(line IN LISTS lines)
    string(REGEX REPLACE " *;.*$" "" position "${line}")
    if(position)
      math(EXPR n "${n} + 1")
      file(WRITE ${WORK}/new/epd-${n} "${position}")
    endif()
  endforeach()
endforeach()
set(existing "")
foreach(dir IN LISTS CORPORA)
  if(IS_DIRECTORY ${dir})
    list(APPEND existing ${dir})
  endif()
endforeach()
execute_process(
  COMMAND ${FUZZER} ${ARGS} -artifact_prefix=${WORK}/ ${WORK}/new ${existing}
  WORKING_DIRECTORY ${WORK}
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  file(GLOB found ${WORK}/crash-* ${WORK}/leak-* ${WORK}/timeout-* ${WORK}/oom-* ${WORK}/slow-unit-*)
  message(FATAL_ERROR "${FUZZER} failed (${rc}); the input: ${found}")
endif()
