# The training run of the profile-guided build (PGN_ICCF_PGO, top-level CMakeLists.txt): the
# instrumented pgn-iccf converts the bundled games in each direction and checks them, and its
# counters land in PROFILE, which the real build then compiles with. Run by the build:
#   cmake -DBIN=... -DPERFT=... -DPROFILE=... -DDATA=... -DWORK=... -P src/cli/pgo-train.cmake
# The games are the real ones of data/corpus (master games, lichess games with clock and eval
# comments, annotated games with variations), read once in each mode; the profile only
# weighs which way each branch usually goes, so a few MB are enough. perft counts two trees
# (the start position and Kiwipete, of chessprogramming.org, with castling, en passant and
# promotions), so that move generation is not compiled as if it were cold code.
foreach(v BIN PERFT PROFILE DATA WORK)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "pgo-train.cmake: ${v} is not set")
  endif()
endforeach()
# Counters of an earlier run (an older binary) would be merged with these: start afresh.
file(REMOVE_RECURSE "${PROFILE}" "${WORK}")
file(MAKE_DIRECTORY "${PROFILE}" "${WORK}")
file(GLOB games "${DATA}/corpus/*.pgn")
list(SORT games)
# train(OUT ARGS...): pgn-iccf -q -j1 ARGS, its standard output to OUT.
function(train out)
  execute_process(COMMAND "${BIN}" -q -j1 ${ARGN} OUTPUT_FILE "${out}" RESULT_VARIABLE rc)
  # 1: some game was not converted (the corpus has a few on purpose); 2 and more: a failure.
  if(NOT rc MATCHES "^[01]$")
    string(REPLACE ";" " " shown "${ARGN}")
    message(FATAL_ERROR "pgo-train.cmake: pgn-iccf ${shown} failed (${rc})")
  endif()
endfunction()
train("${WORK}/numeric.pgn" -o - ${games})      # SAN -> numeric, the main job
train("${WORK}/san.pgn" -t san -o - "${WORK}/numeric.pgn") # numeric -> SAN
train("${WORK}/san-san.pgn" -t san -o - ${games}) # SAN -> SAN
train("${WORK}/check.txt" --check ${games})
foreach(tree "startpos;5" "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1;4")
  execute_process(COMMAND "${PERFT}" ${tree} OUTPUT_VARIABLE out RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "pgo-train.cmake: perft ${tree} failed (${rc})")
  endif()
endforeach()
file(GLOB_RECURSE counters "${PROFILE}/*.gcda")
list(LENGTH counters n)
if(n EQUAL 0)
  message(FATAL_ERROR "pgo-train.cmake: the training wrote no profile in ${PROFILE}")
endif()
message(STATUS "pgn-iccf: profile of ${n} files in ${PROFILE}")
