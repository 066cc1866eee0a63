// Property checks shared by the Boost tests (seeded random loops, tests/hostile_test.cpp) and
// the libFuzzer targets of tests/fuzz: one home for what "correct on any input" means.
//
// Every check takes arbitrary bytes, never throws, and returns the first property that did
// not hold, in words ("" when all held), so that a Boost test can BOOST_TEST it and a fuzz
// target can abort() on it. The checks are deterministic: a failure found by the fuzzer
// replays the same way in hostile_test (data/hostile/).
//
// What is checked, by layer:
// - split (src/pgn/game_reader): the games plus the bytes between them reproduce the input;
//   between games there are only blanks, control bytes, '%' lines and byte order marks; game
//   numbers count 1, 2, ... (text between games, GamePart::text, is numbered 0 and counts as
//   no game); start locations (offset, line, column) agree with an independent
//   count; the same games come out for two chunk sizes and a source that delivers random-
//   sized reads; next_batch hands out the same games.
// - grammar (grammar/parse.hpp) on one game: begin_game first and end_game last, once each;
//   every token lies inside the game's bytes, at the location it claims (offset, line,
//   column), and tokens come in input order; tags before the movetext (only comments before
//   the tags); nothing but comments after the result; variations balanced
//   unless a syntax error ended the game; end_game's flags agree with the events; a visitor
//   that skips every variation sees the same events outside them.
// - a move token against a position (src/notation): whatever reads without error is a legal
//   move that writes and reads back as itself in SAN (every language, figurines), long
//   algebraic and numeric; ambiguity candidates and numeric suggestions are legal moves.
// - a position (src/chess): FEN out and in again gives the same position and FEN; for every
//   legal move, make/unmake restores the position, the position after it equals the one read
//   from its FEN (checkers, pins, legal moves included), gives_check and the SAN check marks
//   agree with it, is_legal and legal_moves_to agree with generate_legal.
// - the conversion (src/pgn/converter): games read = converted + rejected + kept broken, as
//   many as the splitter finds; --check gives the same statuses and diagnostics; our output
//   converts again without an error into the same number of games and the same bytes; an
//   independent replay of our output finds every move legal (and as many as were reported);
//   SAN -> numeric -> SAN (and LAN) gives the bytes of SAN -> SAN.
#pragma once

#include "chess/position.hpp"
#include "notation/notation.hpp"
#include "pgn/converter.hpp"

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace pgn_iccf::properties {

// A deterministic seed from the bytes of an input (FNV-1a), so that the random choices of a
// check (chunk and read sizes) replay identically.
std::uint64_t seed_of(std::string_view bytes);

// --- split ------------------------------------------------------------------------------
struct SplitStats {
    std::uint64_t games = 0;
};
std::string check_split(std::string_view bytes, SplitStats* stats = nullptr);

// --- grammar ----------------------------------------------------------------------------
// The whole input as one game (starting at offset 0, line 1, column 1), then every game the
// splitter cuts from it (at its place in the input).
std::string check_grammar(std::string_view bytes);

// --- notation ---------------------------------------------------------------------------
// Reads `token` against `pos`; see above.
// `accepted` (if given) tells whether the token read as a move.
std::string check_move_token(chess::Position const& pos, std::string_view token,
                             notation::ReadOptions const& options, bool* accepted = nullptr);
// Legal move `m` of `pos` written in SAN and long algebraic (in every language, or in
// English, figurines and one language picked by the move when `every_language` is false) and
// in numeric notation reads back as `m`; the check marks agree with a make/unmake.
std::string check_written_move(chess::Position const& pos, chess::Move m,
                               bool every_language = true);

// The fuzz input of the move target: the first byte picks a position of a small fixed list
// (standard, promotions, en passant, castling, Chess960, checks), the second the input
// language and --iccf-short-promotion; the rest is the token.
std::string check_move_input(std::string_view bytes);

// --- chess --------------------------------------------------------------------------------
// `fen` read as a FEN (Chess960 flag as given); a rejected FEN only must not crash.
std::string check_fen(std::string_view fen, bool chess960);
// The fuzz input of the FEN target: the value of a `[FEN "..."]` tag if the bytes hold one,
// else the bytes themselves; read without and with the Chess960 flag.
std::string check_fen_input(std::string_view bytes);

// --- conversion -----------------------------------------------------------------------------
struct ConversionStats {
    std::uint64_t games = 0, converted = 0, rejected = 0, kept_broken = 0, moves = 0;
};
std::string check_conversion(std::string_view bytes, pgn::ConvertOptions const& options,
                             ConversionStats* stats = nullptr);

// Options of the conversion target. An input whose first byte is below 0x08 (never the first
// byte of a PGN file) carries them in its next three bytes (the four are removed from
// `bytes`; its bits 2 and 4 choose --input-lang auto and --fix-typos); any other input (a
// seed PGN file as it is) gets options derived from seed_of(bytes), with English input three
// times in four, --input-lang auto and --fix-typos each once in four.
pgn::ConvertOptions options_from(std::string_view& bytes);
std::string check_conversion_input(std::string_view bytes);

// --- compressed input (src/io decoders; tests/support/compressed.cpp) ----------------------
// The bytes fed to the gzip, bzip2 and zstd decoders as they are: the same output and error
// for reads of 64 KiB and for random read sizes of the input and of the output (output
// compared up to 1 MiB; before an error, which may differ in its detail, one is a prefix of
// the other); an error only in the
// documented forms ("gzip data is truncated",
// "... is corrupt (...)", "trailing garbage after the ... data", the zstd window refusal);
// no more input consumed than given; decoded bytes compress and decode back to themselves.
std::string check_decoder_input(std::string_view bytes);
// The bytes compressed at run time (gzip, bzip2 or zstd, one to three members, all chosen by
// seed_of(bytes)) and read by the GameReader through the decoder: sniffed as that compression,
// the same games (bytes, numbers, locations, parts, with a 64 KiB --max-game-size) as from
// the plain bytes, no error; then the split checks on the plain bytes.
std::string check_compressed_input(std::string_view bytes);

// --- the plan of a run (src/plan/plan; tests/support/plan_properties.cpp) ------------------
// The bytes build a tree of files, folders, FIFOs, hard and symbolic links on an in-memory
// file system, a command line (inputs, -o, --rejects, --check, --suffix) and the files
// standard input and output are opened on. make_plan must not crash; a plan without problems
// reads no output (by path or FileId, standard streams included), writes no two outputs to one
// file, keeps its output folder out of every directory input, needs only folders that exist or
// are planned (nothing created for a plan that cannot run), and plans every PGN file
// reachable from its inputs, each walked path once, and nothing else.
std::string check_plan_input(std::string_view bytes);

// --- the fuzz targets ---------------------------------------------------------------------
enum class Target : std::uint8_t { split, grammar, move, fen, convert, decoder, compressed, plan };
std::span<Target const> all_targets();
std::string_view name(Target t); // "split", "grammar", "move", "fen", "convert", "decoder", ...
// One fuzz input through one target's checks.
std::string check_input(Target t, std::string_view bytes);

} // namespace pgn_iccf::properties
