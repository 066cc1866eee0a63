// The main job on one game: read it, replay it, write it in the target notation (or only
// check it), with its problems as values (problem.hpp), worded at the batch edge.
//
// One Converter is reused for many games (its buffers keep their capacity, so steady-state
// conversion does not allocate per move). It is not thread-safe; one per worker thread.
#pragma once

#include "chess/position.hpp"
#include "grammar/parse.hpp"
#include "notation/notation.hpp"
#include "pgn/export.hpp"
#include "pgn/problem.hpp"
#include "pgn/replayer.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace pgn_iccf::pgn {

struct ConvertOptions {
    notation::Notation to = notation::Notation::numeric;
    notation::WriteOptions write{};
    notation::ReadOptions read{};
    bool annotate = false;    // add the move as it was written, in a comment, after each move
    bool comments = true;     // keep comments
    bool nags = true;         // keep NAGs (and symbolic glyphs, written as NAGs)
    bool variations = true;   // keep variations
    bool keep_broken = false; // write a broken game up to the first bad move, rest in comments
    // A move that cannot be played inside a variation rejects the game (as one in the main
    // line does) instead of cutting the variation there with a warning.
    bool strict = false;
    int width = default_width; // maximum movetext line length; 0 = one line
    bool check_only = false;   // verify only: no output text is built
    // --input-lang auto: a game English cannot read (a move fails on a token with letters) is
    // read again under every other language of LANGUAGES.md, and written in the one whose
    // reading plays every move (variations included); a game two languages read as different
    // moves is rejected, naming both. read.letters is then English.
    bool auto_input_lang = false;
    // --fix-typos: an unplayable numeric move with exactly one legal move one edit away (the
    // "did you mean" suggestion) is replaced by that move, with a warning and the comment
    // {typed TOKEN} after it; several candidates stay an error.
    bool fix_typos = false;
};

enum class GameStatus : std::uint8_t {
    converted,   // written in full
    rejected,    // not written (errors)
    kept_broken, // written up to the first bad move (--keep-broken)
};

struct GameReport {
    GameStatus status = GameStatus::converted;
    std::uint64_t moves = 0; // moves replayed, main line and variations
    int errors = 0;
    int warnings = 0;
    std::uint64_t corrected = 0;   // moves replaced by --fix-typos (0 when the game is rejected)
    std::vector<Problem> problems; // in order; worded by src/report/wording.hpp
    std::uint64_t game = 0;        // its number in the file, for diagnostic lines
};

// The main job on one game: replays it (replayer.hpp) into the export writer (export.hpp),
// or, with check_only, into a consumer that builds nothing; with --input-lang auto, reads it
// again under other languages (recording their moves) to choose the one it is written in.
class Converter {
public:
    explicit Converter(ConvertOptions const& options);

    // Converts one game; appends the PGN to `out` unless the game is rejected (or
    // options.check_only). The game's file name is not needed: problems carry their place,
    // and the batch side words them with the file's name.
    GameReport convert(syntax::RawGame const& game, std::string& out);
    // The same; `file` is not used (kept while src/batch calls this form).
    GameReport convert(syntax::RawGame const& game, std::string_view /*file*/, std::string& out) {
        return convert(game, out);
    }

private:
    // --input-lang auto: the first move a reading could not play (ReplayConsumer::unplayable),
    // and whether letters of another language might read one it could not.
    struct Failure {
        bool failed = false;
        bool letters = false;
        syntax::Location where{}; // the first one's token, place, move number and position
        std::string token;
        int number = 0;
        chess::Position pos;
        void note(chess::Position const& at, Problem const& p);
    };
    // A consumer that also keeps the Failure of its reading (each begin_game starts afresh).
    template <class Base>
    struct Noting final : Base {
        using Base::Base;
        Failure failure;
        void begin_game(syntax::RawGame const& game) override {
            failure.failed = failure.letters = false;
            Base::begin_game(game);
        }
        void unplayable(chess::Position const& pos, Problem const& p) override {
            failure.note(pos, p);
        }
    };
    struct Group; // a set of languages whose readings play the same moves (choose_language)

    // What a reading is for: the game's output (the export writer, or check_ with
    // check_only), or --input-lang auto's record of the moves (recorder_).
    enum class Pass : std::uint8_t { output, record };
    void pass(syntax::RawGame const& game, notation::Letters const* letters, Pass kind);
    // --input-lang auto, after an English pass (`en`: its failure) that letters of another
    // language could mend. Returns whether the game is rejected for two readings.
    bool choose_language(syntax::RawGame const& game, Failure en);
    // Reports the two readings of choose_language's groups `a` and `b` as disagreeing.
    void disagree(syntax::RawGame const& game, Group const& a, Group const& b);

    // --input-lang auto: the moves a reading plays, in event order, and the token, move
    // number and the two readings of the move at capture_at (the first two languages read
    // differently).
    struct MoveRecorder : ReplayConsumer {
        std::vector<chess::Move> moves;
        std::size_t capture_at = SIZE_MAX;
        chess::Move other{}; // the other language's move at capture_at
        Problem captured;    // token, where, move number, side; LanguageFacts: the readings
        void begin_game(syntax::RawGame const&) override { moves.clear(); }
        void move(chess::Position& pos, chess::Move m, int number, syntax::Token move,
                  syntax::Token suffix, bool corrected) override;
    };

    ConvertOptions opt_;
    ReplayOptions replay_;
    Noting<MoveRecorder> recorder_;
    notation::Letters const* base_letters_; // --input-lang (English with auto)
    Replayer replayer_;
    Noting<ExportWriter> export_;
    Noting<ReplayConsumer> check_; // --check: builds nothing
    GameReport report_;
};

} // namespace pgn_iccf::pgn
