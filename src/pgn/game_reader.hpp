// Streaming input for the PGN layer: the reading room's GameReader (src/reader/window.hpp,
// which documents the buffer and the pieces; the rules of which bytes belong to which game are
// in src/reader/splitter.hpp), given the classifier that tells games from text between games
// by their moves (game_classifier, in game_reader.cpp: the reading room knows no chess).
#pragma once

#include "grammar/parse.hpp"
#include "grammar/syntax.hpp"
#include "io/source.hpp"
#include "reader/window.hpp"

#include <cstddef>

namespace pgn_iccf::pgn {

using io::ByteSource; // byte sources live in src/io (open_file, open_memory, open_stdin)
using reader::GameBatch;
using reader::GamePart;
using reader::is_text;
using reader::last_line;

// Bytes without a tag section and without a result are a game if their first token (after
// whitespace, comments and '%' lines) is a move number, a numeric move or a move legal in the
// starting position; else they are text between games, which may hold a game score from a
// later line on (a title line above `1. e4 ...`).
reader::Classifier game_classifier();

// The GameReader with the PGN classifier: see reader::GameReader.
class GameReader : public reader::GameReader {
public:
    explicit GameReader(ByteSource& source, std::size_t chunk_size = default_chunk_size,
                        std::size_t max_game_size = default_max_game_size,
                        syntax::Location start = {})
        : reader::GameReader(source, game_classifier(), chunk_size, max_game_size, start) {}
};

} // namespace pgn_iccf::pgn
