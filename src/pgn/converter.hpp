// The replay engine of the main job: a parser::Visitor that replays every move of a game
// (main line and nested variations) on a legal-move Position and writes the game again in
// export format with every move in the target notation, keeping tags, comments, NAGs,
// suffix annotations and variations.
//
// One Converter is reused for many games (its buffers keep their capacity, so steady-state
// conversion does not allocate per move). It is not thread-safe; one per worker thread.
#pragma once

#include "chess/position.hpp"
#include "grammar/parse.hpp"
#include "notation/notation.hpp"
#include "pgn/writer.hpp"

#include <array>
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
    int width = 79;          // maximum movetext line length; 0 = one line
    bool check_only = false; // verify only: no output text is built
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
    std::uint64_t corrected = 0; // moves replaced by --fix-typos (0 when the game is rejected)
    std::string messages;        // formatted diagnostic lines, each ending in '\n'
    // The kind of each line of `messages`, in order: a warning's kind (syntax::Diagnostic::kind,
    // a string literal), empty for an error. A run folds repeated warnings by kind.
    std::vector<std::string_view> kinds;
};

class Converter final : public parser::Visitor {
public:
    explicit Converter(ConvertOptions const& options);

    // Converts one game read from input `file`; appends the PGN to `out` unless the game is
    // rejected (or options.check_only).
    GameReport convert(syntax::RawGame const& game, std::string_view file, std::string& out);

    // parser::Visitor
    void tag(syntax::Token name, syntax::Token value) override;
    void begin_movetext() override;
    void move(syntax::Token move, syntax::Token suffix) override;
    void comment(syntax::Token text, syntax::CommentKind kind) override;
    void nag(syntax::Token text, std::uint8_t value) override;
    bool begin_variation(syntax::Token open) override;
    void end_variation(syntax::Token close) override;
    void result(syntax::Token token) override;
    void end_game(syntax::GameEnd const& end) override;
    void diagnostic(syntax::Diagnostic const& d) override;

private:
    // The enclosing line of a variation. A variation is only entered from a line that has a
    // last move and is not broken, so those need no saving.
    struct Frame {
        chess::Position saved; // the position after the last move of the enclosing line
        chess::Move last{};
        chess::UndoInfo last_undo{};
        syntax::Location open_at{}; // the '('
        bool played = false;        // the variation has a move (until then comments wait)
        bool need_number = true;    // need_number_ of the enclosing line before the '('
        // "( (": variations of the same move still to open when this one closes (the rest
        // of the enclosing variations), and whether this one is such a rest (left out
        // without a warning when nothing follows).
        int reopen = 0;
        bool quiet = false;
    };
    void open_variation(syntax::Location at); // a '(' after the move it replaces
    // The innermost variation ends (left out, with a warning unless quiet, if it has no move).
    // `end`: the offset of its ')' (no_offset: the end of the game).
    void close_variation(bool quiet, std::uint64_t end);
    static constexpr std::uint64_t no_offset = ~std::uint64_t{0};
    // A comment or NAG at the start of a variation, held until the variation's first move:
    // a variation that ends without a move is left out (no PGN reader accepts "()") and what
    // it held goes after the move before it.
    struct Pending {
        std::size_t at = 0, size = 0; // the text: held_[at, at + size)
        syntax::CommentKind kind = syntax::CommentKind::brace;
        int nag = -1; // >= 0: a NAG of that value (no text)
    };
    bool deferring() const { return !frames_.empty() && !frames_.back().played; }
    bool open_deferred(); // the variation's first move: writes what was held (true: a comment)
    void put_comment(std::string_view text, syntax::CommentKind kind);
    void put_nag(std::uint8_t value);

    // One reading of the game with the current letters: resets the per-game state, parses.
    void run_pass(syntax::RawGame const& game, std::string_view file);
    void set_letters(notation::Letters const* letters);
    // --input-lang auto, after an English pass that letters of another language could mend.
    void choose_language(syntax::RawGame const& game, std::string_view file);
    void setup();
    // `kind`: a warning's kind (see GameReport::kinds), a string literal; {} for errors.
    void report(syntax::Severity severity, syntax::Location where, std::string_view context,
                std::string_view token, std::string_view message, std::string_view kind);
    std::string move_context() const;
    // Reports a move that cannot be played; returns the move to go on checking with
    // (strict mode, unique typo suggestion) or Move{}. `corrected`: the move returned is
    // the --fix-typos correction, to be written (a warning was reported, not an error).
    chess::Move fail_move(syntax::Token move, notation::ReadResult const& r, bool null_in_check,
                          bool& corrected);
    notation::MoveText render(chess::Move m, bool null_move);
    bool writing() const { return !opt_.check_only && !rejected_; }
    // A bad move here cuts the variation instead of breaking the game (not --strict).
    bool cuts_variation() const { return !frames_.empty() && !opt_.strict; }
    void start_broken(syntax::Token move, syntax::Token suffix);
    // Writes what was kept of a broken line; a cut variation's rest is the input up to `end`.
    void flush_broken(std::uint64_t end = no_offset);
    void flush_annotation();
    void write_numbered(std::string_view move);
    // The tags the converter looks at: the Seven Tag Roster in its order (the values index
    // first_tag_ and the roster table), then FEN, Variant, Notation, SetUp; other: the rest.
    enum class TagKind : std::uint8_t {
        event,
        site,
        date,
        round,
        white,
        black,
        result,
        fen,
        variant,
        notation,
        setup,
        other
    };
    struct Tag {
        syntax::Token name;
        syntax::Token value;
        TagKind kind;
    };
    static TagKind classify_tag(std::string_view name);
    std::string_view tag_value(TagKind kind) const; // raw value of the first such tag, or ""
    syntax::Location tag_location(TagKind kind) const;
    int first(TagKind kind) const { return first_tag_[std::size_t(kind)]; } // index in tags_, or -1
    void write_game(std::string& out);
    std::string_view termination() const;

    ConvertOptions opt_;
    notation::Letters const* base_letters_; // --input-lang (English with auto)
    notation::Letters const* in_letters_;   // of the current pass

    // --input-lang auto: what a pass found (reset by run_pass).
    bool move_failed_ = false;    // a move could not be played (corrections excepted)
    bool letter_failure_ = false; // ... on a token other letters might read (see fail_move)
    syntax::Token first_fail_{};  // the first move that could not be played
    std::string first_fail_context_;
    chess::Position first_fail_pos_;    // the position it was read in
    bool trying_ = false;               // a pass under another language: moves_ is filled
    std::vector<chess::Move> moves_;    // the moves played in this pass, in event order
    std::size_t capture_at_ = SIZE_MAX; // moves_ index whose token, context and SAN to keep
    chess::Move capture_other_{};       // ... and the other language's move there
    syntax::Token captured_token_{};
    std::string captured_context_, captured_san_, captured_other_san_;

    // per game
    std::string_view file_;
    syntax::RawGame const* game_ = nullptr;
    static constexpr std::size_t max_tags = 4096;
    std::vector<Tag> tags_;
    // Index in tags_ of the first tag of each kind (but other), or -1.
    std::array<int, std::size_t(TagKind::other)> first_tag_{};
    bool setup_done_ = false;
    bool rejected_ = false; // the game will not be written (setup error, bad move, syntax)
    bool dead_ = false;     // nothing more to replay or write in this game
    int level_skip_ = 0;    // depth inside skipped variations (--no-variations)
    std::vector<Frame> frames_;
    std::vector<Pending> pending_; // held by the innermost variation (deferring())
    std::string held_;             // their texts (a copy: the rest of a broken line is too)
    bool chess960_ = false;        // the game is Chess960 (Variant tag or castling rights)
    chess::Position pos_;
    chess::Move last_{};
    chess::UndoInfo last_undo_{};
    bool has_last_ = false;
    bool broken_ = false; // current line could not be replayed further (--keep-broken)
    bool need_number_ = true;
    int display_offset_ = 0; // added to fullmove numbers (FENs with fullmove 0)
    std::string broken_text_;
    bool cut_ = false;                    // broken_ in a variation that is cut (cuts_variation())
    std::uint64_t cut_from_ = 0;          // offset of its unplayable move
    std::string_view pending_annotation_; // --annotate text waiting for the move's NAGs
    bool pending_typed_ = false;          // ... written as {typed TEXT} (--fix-typos)
    std::string typed_;
    std::string scratch_;
    MovetextWriter writer_;
    syntax::Token result_{};
    bool has_result_ = false;
    GameReport report_;
};

// Normalises a Variant tag value: "" for standard chess, "chess960" for Chess960 under any
// of its names, otherwise the value as written (a variant that is not chess).
std::string variant_kind(std::string_view value);

} // namespace pgn_iccf::pgn
