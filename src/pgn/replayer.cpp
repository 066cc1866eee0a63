// The Replayer (replayer.hpp): the grammar's events for one game turned into moves played on a
// Position, the set-up from FEN and Variant, the moves that cannot be played, and the
// game's problems as values.
#include "pgn/replayer.hpp"

#include "grammar/scan.hpp"
#include "io/ascii.hpp"
#include "pgn/writer.hpp"

#include <algorithm>
#include <array>
#include <cassert>

namespace pgn_iccf::pgn {

namespace {

using chess::Color;
using chess::Move;
using notation::ReadError;
using syntax::Severity;

// Every null move starts with '-', 'Z' or '0' (is_null_token's first test).
constexpr bool null_move_start(char c) { return c == '-' || c == 'Z' || c == '0'; }
static_assert([] {
    for (std::string_view s : syntax::null_move_spellings)
        if (!null_move_start(s[0])) return false;
    return true;
}());

bool is_null_token(std::string_view t) {
    // One test that is nearly always false turns other moves away (the full check
    // mispredicted branches: cachegrind branch simulation, master games).
    if (t.empty() || !null_move_start(t[0])) return false;
    while (!t.empty() && (t.back() == '+' || t.back() == '#')) t.remove_suffix(1);
    return syntax::is_null_move_spelling(t);
}

bool all_digits(std::string_view t) {
    return !t.empty() &&
           std::all_of(t.begin(), t.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// A token without its check marks and its `!`/`?` suffix.
std::string_view without_marks(std::string_view t) {
    while (!t.empty() && (t.back() == '+' || t.back() == '#' || t.back() == '!' || t.back() == '?'))
        t.remove_suffix(1);
    return t;
}

bool is_separator(char c) { return c == '-' || c == 'x' || c == ':' || c == '.'; }

// The digits of a token that is a numeric move but for separators between its digits
// (`52-54`, `52x54`, `5-2-5-4`, `52--54`, `71-6`): three to six digits, a digit first and
// last, not all zeros; "" for any other token (castling `0-0-0` is no numeric move).
std::string separated_digits(std::string_view t) {
    t = without_marks(t);
    if (t.empty() || !all_digits(t.substr(0, 1)) || !all_digits(t.substr(t.size() - 1))) return {};
    std::string digits;
    for (char c : t) {
        if (c >= '0' && c <= '9')
            digits.push_back(c);
        else if (!is_separator(c))
            return {};
    }
    if (digits.size() == t.size() || digits.size() < 3 || digits.size() > 6 ||
        digits.find_first_not_of('0') == std::string::npos)
        return {};
    return digits;
}

// The four values of the Result tag and the game termination marker (§8.2.6).
bool is_result(std::string_view r) {
    auto const result = syntax::read_result(r);
    return result && result->spelling == syntax::Spelling::standard;
}

} // namespace

std::string variant_kind(std::string_view value) {
    std::string k;
    for (char c : value)
        if (io::ascii::is_alnum(c)) k.push_back(io::ascii::lower(c)); // whatever the locale
    if (k.empty() || k == "standard" || k == "chess" || k == "normal" || k == "fromposition" ||
        k == "orthodox" || k == "classical")
        return "";
    if (k == "chess960" || k == "960" || k == "fischerandom" || k == "fischerrandom" ||
        k == "frc" || k == "fischerrandomchess" || k == "chess960fischerrandom")
        return "chess960";
    return std::string(value);
}

// ---- Replayer

void Replayer::replay(syntax::RawGame const& game, ReplayOptions const& options,
                      ReplayConsumer& consumer, std::vector<Problem>& problems) {
    opt_ = options;
    out_ = &consumer;
    problems_ = &problems;
    game_ = &game;
    tags_.clear();
    errors_ = warnings_ = 0;
    moves_ = corrected_ = 0;
    frames_.clear();
    normalized_.clear();
    chess960_ = false;
    game_state_ = GameState::fresh;
    mute_from_ = opt_.silent ? GameState::fresh : GameState::rejected;
    line_ = LineState::playing;
    level_skip_ = 0;
    last_ = {};
    display_offset_ = 0;
    result_ = {};
    result_value_ = {};

    consumer.begin_game(game);
    // The file name is not needed here: problems carry a place, and the batch side, which
    // knows the file, words them.
    parser::ParseOptions po;
    po.comments = !opt_.silent; // (callgrind, --check: see the commit)
    parser::parse_game(game, *this, po);
    constexpr std::size_t keep = std::size_t{1} << 20; // a few hundred normal games' worth
    tags_.release_if_above(keep);
}

Problem& Replayer::add(ProblemKind kind, Severity severity, syntax::Location where,
                       std::string_view token) {
    Problem& p = problems_->emplace_back();
    p.kind = kind;
    p.severity = severity;
    p.where = where;
    p.white = tags_.value(TagKind::white);
    p.black = tags_.value(TagKind::black);
    p.token.assign(token);
    if (severity == Severity::error)
        ++errors_;
    else
        ++warnings_;
    return p;
}

Problem& Replayer::add_at_move(ProblemKind kind, Severity severity, syntax::Token move) {
    Problem& p = add(kind, severity, move.where, move.text);
    p.move_number = display_number();
    p.side = pos_.side_to_move();
    return p;
}

void Replayer::tag(syntax::Token const& name, syntax::Token const& value) {
    if (room_for_tag(name.where)) tags_.add(name.text, name.where, value.text, value.where, false);
}

void Replayer::plain_tag(std::string_view name, syntax::Location name_at, std::string_view value,
                         syntax::Location value_at) {
    if (room_for_tag(name_at)) tags_.add(name, name_at, value, value_at, true);
}

bool Replayer::room_for_tag(syntax::Location at) {
    if (!tags_.full()) return true;
    if (!rejected())
        add(ProblemKind::too_many_tags, Severity::error, at).facts = LimitFacts{TagTable::max_tags};
    reject();
    return false;
}

void Replayer::diagnostic(syntax::Diagnostic const& d) {
    Problem& p = add(ProblemKind::syntax, d.severity, d.where, d.token);
    p.facts = SyntaxFacts{d.code, d.limit};
    // A syntax error: the reader ends the game; it is never written, even with
    // --keep-broken (its movetext is not known to be complete).
    if (d.severity == Severity::error) reject();
}

void Replayer::setup() {
    // Dead already (too many tags, a syntax error): one error is enough.
    if (game_state_ != GameState::fresh) return;
    std::string variant;
    parser::unescape_tag_value(tags_.value(TagKind::variant), variant);
    std::string kind = variant_kind(variant);
    bool chess960 = false;
    if (kind == "chess960") {
        chess960 = true;
    } else if (!kind.empty()) {
        add(ProblemKind::variant_not_chess, Severity::error,
            tags_.location(TagKind::variant, game_->start))
            .facts = TagFacts{kind, {}, {}};
        reject();
        return;
    }
    std::string fen;
    parser::unescape_tag_value(tags_.value(TagKind::fen), fen);
    if (!fen.empty()) {
        if (chess::FenError const bad = pos_.set_fen(fen, chess960); !bad.ok()) {
            // At the value it quotes, as every diagnostic points where its quoted text starts.
            Problem& p = add(ProblemKind::invalid_fen, Severity::error,
                             tags_.location(TagKind::fen, game_->start));
            p.facts = FenFacts{fen, {bad.code, bad.rank, {}}, std::string(bad.field)};
            reject();
            return;
        }
    } else {
        pos_ = chess::Position::start_position();
        pos_.set_chess960(chess960);
    }
    game_state_ = GameState::set_up;
    chess960_ = pos_.chess960();
    display_offset_ = pos_.fullmove_number() < 1 ? 1 - pos_.fullmove_number() : 0;
}

void Replayer::begin_movetext() { setup(); }

namespace {

// A move followed by non-ASCII bytes that are no glyph of the NAG table (the grammar splits
// those off): the bytes, for the message; empty if the token is something else.
std::string unknown_glyph(chess::Position const& pos, std::string_view token,
                          notation::ReadOptions const& read) {
    std::size_t q = token.size();
    while (q != 0 && static_cast<unsigned char>(token[q - 1]) >= 0x80) --q;
    if (q == 0 || q == token.size() ||
        notation::read_move(pos, token.substr(0, q), read).error != ReadError::none)
        return {};
    return std::string(token.substr(q));
}

} // namespace

Move Replayer::fail_move(syntax::Token move, notation::ReadResult const& r, bool null_in_check,
                         bool& corrected) {
    corrected = false;
    // A numeric move with marks (`7164+`) is numeric: its squares are named by their digits.
    bool const numeric = all_digits(without_marks(move.text));
    // One written with separators (`52-54`) is suggested as its digits say: that move when it
    // is legal, else the moves one edit away from them, as are its errors (a missing fifth
    // digit: `57-58`).
    std::string const separated = numeric ? std::string() : separated_digits(move.text);
    std::string_view const digits = numeric ? without_marks(move.text) : separated;
    // What reading found: the token's, or for separators what its digits' reading found
    // when they name no legal move.
    notation::ReadResult const* read = &r;
    notation::ReadResult by_digits;
    ReadError error = r.error;
    bool exact = false;
    Move assumed{};
    std::array<Move, 8> sugg{};
    int n = 0;
    if (!digits.empty() && !null_in_check) {
        if (!separated.empty()) {
            by_digits = notation::read_move(pos_, digits, opt_.read);
            error = by_digits.error;
            if (by_digits.error == ReadError::none) {
                sugg[0] = by_digits.move;
                n = 1;
                exact = true;
            } else if (by_digits.error != ReadError::invalid_syntax) {
                read = &by_digits; // its error says more than "not a move" (`71-6`: 716)
            }
        }
        if (n == 0) n = notation::suggest_numeric(pos_, digits, sugg);
        // In strict mode the game is rejected, but checking goes on with the move the
        // typo most likely stands for, so one run reports every typo of a game score:
        // the only suggestion, or the queen promotion when the fifth digit is missing.
        if (n == 1 || (error == ReadError::promotion_missing && n > 0)) assumed = sugg[0];
        // --fix-typos: the only legal move one edit away is what was meant; it is written,
        // with a warning and the typed token in a comment after it.
        corrected = opt_.fix_typos && n == 1;
    }
    if (!corrected && (opt_.keep_broken || cuts_variation())) assumed = Move{};
    // In a variation the main line is still sound: the variation is written up to here and
    // its rest kept as a comment; the game is converted (--strict: rejected, as before).
    bool const cut = !corrected && cuts_variation();
    Problem& problem = add_at_move(ProblemKind::unplayable_move,
                                   corrected || cut ? Severity::warning : Severity::error, move);
    MoveFacts& p = problem.facts.emplace<MoveFacts>();
    p.error = null_in_check ? ReadError::none : read->error;
    p.null_in_check = null_in_check;
    p.numeric = numeric || read != &r;
    p.separated = !separated.empty();
    p.exact = exact;
    if (read != &r) p.digits = separated;
    p.in_check = pos_.in_check();
    p.short_promotion = read->short_promotion;
    p.piece = read->piece;
    p.from = read->from;
    p.to = read->to;
    if (read->from.ok()) p.piece_on_from = pos_.piece_on(read->from).type();
    p.language = opt_.read.letters->code;
    if (r.error == ReadError::unknown_piece_letter || r.error == ReadError::invalid_syntax)
        p.glyph = unknown_glyph(pos_, move.text, opt_.read);
    if (r.error == ReadError::ambiguous && !null_in_check) {
        int const k = std::min<int>(r.candidate_count, int(r.candidates.size()));
        for (int i = 0; i < k; ++i)
            p.candidates.push_back(named(pos_, r.candidates[std::size_t(i)]));
    }
    for (int i = 0; i < n; ++i) p.suggestions.push_back(named(pos_, sugg[std::size_t(i)]));
    p.corrected = corrected;
    p.assumed = assumed.ok();
    p.cut = cut;
    p.rest_kept = opt_.comments;
    if (!corrected) out_->unplayable(pos_, problem);
    return assumed;
}

void Replayer::start_broken(syntax::Token move, syntax::Token suffix) {
    if (!opt_.keep_broken && !cuts_variation()) {
        // Strict mode: the game is rejected; nothing more of it is written. Replay of the
        // rest is pointless without the position, so stop here.
        line_ = LineState::broken;
        reject();
        return;
    }
    // A cut variation's rest is kept verbatim: its bytes from here to its ')'.
    line_ = cuts_variation() ? LineState::cut : LineState::broken;
    if (!rejected()) out_->line_broken(move, suffix, line_);
}

void Replayer::move(syntax::Token const& move, syntax::Token const& suffix) {
    if (game_state_ == GameState::dead || level_skip_ > 0) return;
    if (game_state_ == GameState::fresh) setup();
    if (game_state_ == GameState::dead) return;
    if (line_ != LineState::playing) {
        if (line_ == LineState::broken && !rejected()) out_->unplayed(move.text, suffix.text);
        return; // a cut variation's rest is kept verbatim
    }

    Move m;
    bool typed = false; // m is the --fix-typos correction of the token
    // Initialised in place (no copy of the result: copying a struct just written field by
    // field stalls on store forwarding, a measurable cost per move). No spelling of the null
    // move reads as a move: it is looked for only when the reading fails (callgrind: see the
    // commit).
    notation::ReadResult const r = notation::read_move(pos_, move.text, opt_.read);
    if (r.error == ReadError::none) {
        m = r.move;
        if (r.short_promotion)
            add_at_move(ProblemKind::short_promotion, Severity::warning, move).facts =
                PromotionFacts{named(pos_, m)};
    } else if (is_null_token(move.text)) {
        if (pos_.in_check()) {
            bool corrected = false;
            fail_move(move, notation::ReadResult{}, true, corrected);
            start_broken(move, suffix);
            return;
        }
        m = Move::null_move();
    } else {
        m = fail_move(move, r, false, typed);
        if (!m.ok()) {
            start_broken(move, suffix);
            return;
        }
        if (typed) {
            ++corrected_;
        } else {
            // Checking goes on with the assumed move; nothing is written.
            game_state_ = GameState::rejected;
        }
    }

    if (!frames_.empty()) frames_.back().played = true;
    // A check mark is checked once the move is played: the output writes the marks the
    // position gives, so one that the position does not give is changed, and says so (a
    // typo in the move may hide behind it).
    // The marks are the move token's, or the suffix's when a glyph came before them (`e4!+`,
    // `Qxf7!#?`: the grammar's suffix "!+", "!#?"). Then the consumers get the move with its
    // marks and the glyphs without them, as for `e4+!` (`Qxf7#` and "!?"), in text of the
    // game's own (it lives as long as the game's bytes: the writer keeps a view of the move).
    syntax::Token const* played = &move;
    syntax::Token const* glyph = &suffix;
    char mark = move.text.back(); // a move token is never empty
    if (!suffix.text.empty()) [[unlikely]] {
        if (Normalized const* n = marks_in_suffix(move, suffix)) {
            played = &n->move;
            glyph = &n->glyph;
            mark = n->mark;
        }
    }
    if (muted()) {
        pos_.do_move(m, last_undo_);
    } else {
        [[maybe_unused]] Color const side = pos_.side_to_move();
        out_->play(pos_, m, last_undo_, display_number(), *played, *glyph, typed);
        assert(pos_.side_to_move() != side && "ReplayConsumer::play plays the move once");
    }
    last_ = m;
    ++moves_;
    // Checked for every move played but one assumed in a rejected game (the error is there):
    // a correction (--fix-typos: a '+' that the corrected move does not give may show that it
    // is not the move meant) and a null move (which never gives check) too. Only the mark is
    // kept across the play (the warning finds the move's number and side from the position).
    if ((mark == '+' || mark == '#') && (r.error == ReadError::none || typed || m.is_null()) &&
        (!pos_.in_check() || (mark == '#' && pos_.has_legal_move())))
        wrong_mark(move, suffix, mark);
}

Replayer::Normalized const* Replayer::marks_in_suffix(syntax::Token const& move,
                                                      syntax::Token const& suffix) {
    if (suffix.text.find_first_of("+#") == std::string_view::npos) return nullptr;
    Normalized& n = normalized_.emplace_back();
    n.with_marks = move.text;
    for (char c : suffix.text) {
        if (c == '+' || c == '#')
            n.with_marks.push_back(n.mark = c);
        else
            n.glyphs.push_back(c);
    }
    n.move = {n.with_marks, move.where};
    n.glyph = {n.glyphs, suffix.where};
    return &n;
}

void Replayer::wrong_mark(syntax::Token const& move, syntax::Token const& suffix, char mark) {
    // The move played was the side's that is not to move now, numbered one less after Black's.
    Color const side = ~pos_.side_to_move();
    int const number = display_number() - (side == Color::black ? 1 : 0);
    // Quoted as written, glyph and marks included (`e4!+`): the move token and its suffix are
    // neighbours in the game's bytes.
    std::string_view written = move.text;
    if (!suffix.text.empty())
        written =
            std::string_view(move.text.data(), std::size_t(suffix.text.data() + suffix.text.size() -
                                                           move.text.data()));
    bool const check = pos_.in_check();
    Problem& p = add(ProblemKind::wrong_check_mark, Severity::warning, move.where, written);
    p.move_number = number;
    p.side = side;
    p.facts = CheckMarkFacts{mark, check};
}

// An integer that may be a mistyped numeric move (parser::Visitor::integer). The number of the
// move that comes next is a move number, as any integer was before; any other is read as a
// move: `2807` and `763` then fail as moves do (with suggestions, --fix-typos), where they
// were left out as move numbers without a word (a move lost, or the error put on the next
// move); `5254.` is played, with a warning.
void Replayer::integer(syntax::Token const& token, std::string_view digits, bool numeric_game) {
    if (game_state_ == GameState::dead || level_skip_ > 0) return;
    // Two or three digits in a game without a numeric move: half a move only before the
    // game's first move; after it, a move number (as before).
    if (!numeric_game && digits.size() <= 3 && moves_ > 0) return;
    if (game_state_ == GameState::fresh) setup();
    if (game_state_ == GameState::dead || line_ != LineState::playing) return;
    std::uint64_t value = 0;
    for (char c : digits.substr(0, 12)) value = value * 10 + std::uint64_t(c - '0');
    if (digits.size() <= 12 && value == std::uint64_t(display_number())) return;
    syntax::Token const move{digits, token.where};
    auto const n = static_cast<std::uint32_t>(digits.size());
    syntax::Location const after{token.where.offset + n, token.where.line, token.where.column + n};
    if (digits.size() != token.text.size()) {
        notation::ReadResult const r = notation::read_move(pos_, digits, opt_.read);
        if (r.error == ReadError::none)
            add_at_move(ProblemKind::periods_after_move, Severity::warning, token).facts =
                PromotionFacts{named(pos_, r.move)};
    }
    this->move(move, syntax::Token{digits.substr(digits.size()), after});
}

void Replayer::comment(syntax::Token const& text, syntax::CommentKind kind) {
    if (level_skip_ > 0 || muted()) return; // (dead is muted)
    if (line_ == LineState::cut) return;    // part of the variation's rest, kept verbatim
    out_->comment(text.text, kind);
}

void Replayer::nag(syntax::Token const& text, std::uint8_t value) {
    if (level_skip_ > 0 || muted()) return; // (dead is muted)
    if (line_ != LineState::playing) {
        // A cut variation's rest is kept verbatim.
        if (line_ == LineState::broken) out_->unplayed(text.text, {});
        return;
    }
    out_->nag(value);
}

bool Replayer::begin_variation(syntax::Token const& open) {
    if (game_state_ == GameState::dead) return false;
    if (level_skip_ > 0 || !opt_.variations) {
        ++level_skip_;
        return false;
    }
    if (game_state_ == GameState::fresh) setup();
    if (game_state_ == GameState::dead) return false;
    if (line_ != LineState::playing) {
        // The position is unknown past a bad move: keep the variation as text.
        ++level_skip_;
        if (line_ == LineState::cut) return false; // part of the variation's rest, kept verbatim
        if (!rejected()) out_->unplayed_variation();
        add(ProblemKind::variation_after_unplayable, Severity::warning, open.where);
        return false;
    }
    bool const deferring = !frames_.empty() && !frames_.back().played;
    if (!last_.ok() && deferring) {
        // "( (": a variation directly inside a variation, before its first move. Read as
        // another variation of the same move: the enclosing one is closed here (what it held
        // so far goes after the move before it) and opened again after the inner one.
        add(ProblemKind::nested_variation, Severity::warning, open.where, "(");
        int const reopen = frames_.back().reopen + 1;
        close_variation(true, ReplayConsumer::no_offset);
        open_variation(open.where);
        frames_.back().reopen = reopen;
        return true;
    }
    if (!last_.ok()) {
        add(ProblemKind::variation_without_move, Severity::error, open.where, "(");
        reject();
        return false;
    }
    open_variation(open.where);
    return true;
}

void Replayer::open_variation(syntax::Location at) {
    Frame& f = frames_.emplace_back();
    f.saved = pos_;
    f.last = last_;
    f.last_undo = last_undo_;
    f.open_at = at;
    pos_.undo_move(last_, last_undo_);
    last_ = {};
    if (!rejected()) out_->begin_variation();
}

void Replayer::end_variation(syntax::Token const& close) {
    if (game_state_ == GameState::dead) return;
    if (level_skip_ > 0) {
        --level_skip_;
        return;
    }
    if (frames_.empty()) return;
    int const reopen = frames_.back().reopen;
    syntax::Location const at = frames_.back().open_at;
    close_variation(frames_.back().quiet,
                    close.text.empty() ? ReplayConsumer::no_offset : close.where.offset);
    if (reopen > 0) {
        // The rest of a variation that held a variation before its first move ("( ( ... )
        // rest )"): a variation of the same move again, left out silently if nothing follows.
        open_variation(at);
        frames_.back().reopen = reopen - 1;
        frames_.back().quiet = true;
    }
}

void Replayer::close_variation(bool quiet, std::uint64_t end) {
    Frame const& f = frames_.back();
    pos_ = f.saved;
    last_ = f.last;
    last_undo_ = f.last_undo; // f.last is a move: see Frame
    line_ = LineState::playing;
    bool const empty = !f.played;
    if (!rejected()) out_->end_variation(empty, end);
    if (empty && !quiet) add(ProblemKind::empty_variation, Severity::warning, f.open_at, "(");
    frames_.pop_back();
}

void Replayer::result(syntax::Token const& token, syntax::Result value) {
    assert(!token.text.empty()); // empty: no result (result_)
    result_ = token;
    result_value_ = value;
}

void Replayer::end_game(syntax::GameEnd const& end) {
    if (end.syntax_error) reject();
    if (game_state_ == GameState::fresh) setup();
    if (game_state_ == GameState::dead) return;
    if (!rejected()) out_->end_movetext();
    // Close variations left open by a broken game (the reader reports unbalanced ones).
    while (!frames_.empty()) end_variation({});
    std::string_view tagged = tags_.value(TagKind::result); // result values hold no escapes
    bool const has_tag = tags_.first(TagKind::result) >= 0;
    auto const at_tag = tags_.location(TagKind::result, game_->start);
    auto const tag_result = syntax::read_result(tagged);
    if (has_tag && tag_result && tag_result->spelling == syntax::Spelling::forfeit) {
        add(ProblemKind::forfeit_result_tag, Severity::warning, at_tag).facts =
            TagFacts{std::string(tagged), std::string(syntax::result_text(tag_result->outcome)),
                     std::string(termination())};
    } else if (has_tag && !is_result(tagged)) {
        // The export format allows only the four results, equal to the marker.
        add(ProblemKind::result_tag_not_result, Severity::warning, at_tag).facts =
            TagFacts{std::string(tagged), {}, std::string(termination())};
    } else if (!result_.text.empty() && !tagged.empty() &&
               syntax::result_text(result_value_.outcome) != tagged) {
        add(ProblemKind::result_differs, Severity::warning, result_.where, result_.text).facts =
            TagFacts{std::string(tagged), {}, std::string(termination())};
    }
}

std::string_view Replayer::termination() const {
    if (!result_.text.empty()) return syntax::result_text(result_value_.outcome);
    auto const r = syntax::read_result(tags_.value(TagKind::result));
    return syntax::result_text(r ? r->outcome : syntax::Outcome::unknown);
}

} // namespace pgn_iccf::pgn
