#include "pgn/converter.hpp"

#include "grammar/scan.hpp"
#include "pgn/terminal.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>

namespace pgn_iccf::pgn {

namespace {

using chess::Color;
using chess::Move;
using chess::PieceType;
using chess::Square;
using notation::Notation;
using notation::ReadError;

using scan::iequals; // tag names: ASCII, whatever the locale

// An invalid FEN is quoted whole up to this many bytes (a real one is at most about 90).
constexpr std::size_t fen_bytes = 100;

constexpr std::array<std::string_view, 7> roster = {"Event", "Site",  "Date",  "Round",
                                                    "White", "Black", "Result"};
constexpr std::array<std::string_view, 7> roster_default = {"?", "?", "????.??.??", "?",
                                                            "?", "?", "*"};

void append_square_numeric(std::string& s, Square sq) { s += sq.numeric_name(); }

void append_square_algebraic(std::string& s, Square sq) { s += sq.name(); }

// A square as the token that named it wrote it: "54" in numeric tokens, "e4" otherwise.
void append_square(std::string& s, Square sq, bool numeric) {
    if (numeric)
        append_square_numeric(s, sq);
    else
        append_square_algebraic(s, sq);
}

bool is_null_token(std::string_view t) {
    while (!t.empty() && (t.back() == '+' || t.back() == '#')) t.remove_suffix(1);
    return t == "--" || t == "---" || t == "Z0" || t == "0000";
}

bool all_digits(std::string_view t) {
    return !t.empty() &&
           std::all_of(t.begin(), t.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// The non-standard results the grammar reads as the standard ones: the draws `½-½` and
// `1/2`, the forfeits `(+)-(-)` and `(-)-(+)` (in the movetext or in the Result tag).
std::string_view normalise_result(std::string_view r) {
    if (r == "\xC2\xBD-\xC2\xBD" || r == "1/2") return "1/2-1/2";
    if (r == "(+)-(-)") return "1-0";
    if (r == "(-)-(+)") return "0-1";
    return r;
}

// The four values of the Result tag and the game termination marker (§8.2.6).
bool is_result(std::string_view r) {
    return r == "1-0" || r == "0-1" || r == "1/2-1/2" || r == "*";
}

} // namespace

std::string variant_kind(std::string_view value) {
    std::string k;
    for (char c : value)
        if (std::isalnum(static_cast<unsigned char>(c)))
            k.push_back(char(std::tolower(static_cast<unsigned char>(c))));
    if (k.empty() || k == "standard" || k == "chess" || k == "normal" || k == "fromposition" ||
        k == "orthodox" || k == "classical")
        return "";
    if (k == "chess960" || k == "960" || k == "fischerandom" || k == "fischerrandom" ||
        k == "frc" || k == "fischerrandomchess" || k == "chess960fischerrandom")
        return "chess960";
    return std::string(value);
}

Converter::Converter(ConvertOptions const& options)
    : opt_(options),
      base_letters_(options.auto_input_lang || !options.read.letters ? &notation::english()
                                                                     : options.read.letters),
      in_letters_(base_letters_) {
    if (!opt_.write.letters) opt_.write.letters = &notation::english();
    opt_.read.letters = in_letters_;
}

void Converter::set_letters(notation::Letters const* letters) {
    in_letters_ = letters;
    opt_.read.letters = letters;
}

GameReport Converter::convert(syntax::RawGame const& game, std::string_view file,
                              std::string& out) {
    if (in_letters_ != base_letters_) set_letters(base_letters_);
    run_pass(game, file);
    if (opt_.auto_input_lang && letter_failure_) choose_language(game, file);

    if (rejected_) {
        report_.status = GameStatus::rejected;
        report_.corrected = 0; // nothing of the game is written
    } else {
        if (report_.errors > 0) report_.status = GameStatus::kept_broken;
        if (!opt_.check_only) write_game(out);
    }
    game_ = nullptr;
    constexpr std::size_t keep = std::size_t{1} << 20; // a few hundred normal games' worth
    release_if_above(broken_text_, keep);
    release_if_above(scratch_, keep);
    release_if_above(held_, keep);
    release_if_above(tags_, keep);
    release_if_above(moves_, keep);
    writer_.release_buffers(keep);
    return report_;
}

void Converter::run_pass(syntax::RawGame const& game, std::string_view file) {
    file_ = file;
    game_ = &game;
    report_ = GameReport{};
    tags_.clear();
    first_tag_.fill(-1);
    frames_.clear();
    pending_.clear();
    held_.clear();
    chess960_ = false;
    setup_done_ = false;
    rejected_ = false;
    dead_ = false;
    level_skip_ = 0;
    has_last_ = false;
    broken_ = false;
    need_number_ = true;
    display_offset_ = 0;
    broken_text_.clear();
    cut_ = false;
    pending_annotation_ = {};
    pending_typed_ = false;
    has_result_ = false;
    result_ = {};
    move_failed_ = letter_failure_ = false;
    moves_.clear();
    writer_.begin(opt_.width);

    parser::ParseOptions po;
    po.file_name = file;
    parser::parse_game(game, *this, po);
}

// --input-lang auto. The English pass could not play a move whose letters another language
// might read. Every other language is tried, but for those that do not know a letter of
// that move (their reading would fail there) and those with the same letters as one tried
// already (the same reading, not read again); the passes that play every move
// are grouped by the moves they play. One group: the game is read in its first language
// (table order), with a warning naming the group. None: the English reading stands, with
// its diagnostics. Two or more: the game is rejected, naming the first two groups and the
// first move they read differently. The writer is refilled by a last pass in the language
// chosen, so nothing of a failed attempt is written and no diagnostic is counted twice.
void Converter::choose_language(syntax::RawGame const& game, std::string_view file) {
    syntax::Token const en_fail = first_fail_;
    std::string const en_context = first_fail_context_;
    struct Group {
        std::vector<notation::Letters const*> languages;
        std::vector<Move> moves;
    };
    std::vector<Group> groups;
    // Per language of the table: the group its reading joined, -1 if it failed, -2 untried.
    auto const languages = notation::all_languages();
    std::vector<int> result(languages.size(), -2);
    notation::ReadOptions probe = opt_.read;
    trying_ = true;
    for (std::size_t i = 0; i < languages.size(); ++i) {
        notation::Letters const& l = languages[i];
        if (&l == &notation::english() || l.figurine) continue;
        for (std::size_t j = 0; j < i && result[i] == -2; ++j)
            if (result[j] != -2 && languages[j].letter == l.letter) result[i] = result[j];
        // A letter unknown in this language is unknown in every position: the reading would
        // fail at that token (or earlier), so it is not tried.
        probe.letters = &l;
        if (result[i] == -2 && notation::read_move(first_fail_pos_, en_fail.text, probe).error ==
                                   ReadError::unknown_piece_letter)
            result[i] = -1;
        if (result[i] == -2) {
            set_letters(&l);
            run_pass(game, file);
            result[i] = -1;
            if (!move_failed_) {
                for (std::size_t g = 0; g < groups.size() && result[i] < 0; ++g)
                    if (groups[g].moves == moves_) result[i] = int(g);
                if (result[i] < 0) {
                    result[i] = int(groups.size());
                    groups.push_back({{}, moves_});
                }
            }
        }
        if (result[i] >= 0) groups[std::size_t(result[i])].languages.push_back(&l);
    }
    auto codes = [](Group const& g) {
        std::string s;
        for (auto const* l : g.languages) {
            if (!s.empty()) s.append(", ");
            s.append(l->code);
        }
        return s;
    };
    if (groups.size() >= 2) {
        Group const& a = groups[0];
        Group const& b = groups[1];
        std::size_t at = 0;
        while (at < a.moves.size() && at < b.moves.size() && a.moves[at] == b.moves[at]) ++at;
        capture_at_ = at;
        capture_other_ = at < b.moves.size() ? b.moves[at] : Move{};
    }
    notation::Letters const* chosen =
        groups.empty() ? &notation::english() : groups[0].languages.front();
    trying_ = groups.size() >= 2;
    set_letters(chosen);
    run_pass(game, file);
    trying_ = false;
    capture_at_ = SIZE_MAX;
    if (groups.size() == 1) {
        // First among the game's diagnostics: it says how the others were found.
        std::string rest;
        rest.swap(report_.messages);
        std::vector<std::string_view> rest_kinds;
        rest_kinds.swap(report_.kinds);
        std::string m = "not a move in English; the game is read with the piece letters of ";
        m.append(codes(groups[0]));
        m.append(" (--input-lang auto)");
        report(syntax::Severity::warning, en_fail.where, en_context, en_fail.text, m,
               "game read in another language (--input-lang auto)");
        report_.messages.append(rest);
        report_.kinds.insert(report_.kinds.end(), rest_kinds.begin(), rest_kinds.end());
    } else if (groups.size() >= 2) {
        // Every reading played every move, so both reach the same token: captured there.
        std::string m = "read as ";
        m.append(captured_san_);
        m.append(" with the piece letters of ");
        m.append(codes(groups[0]));
        m.append(" and as ");
        m.append(captured_other_san_);
        m.append(" with those of ");
        m.append(codes(groups[1]));
        m.append("; the game is not converted (name its language with --input-lang)");
        report(syntax::Severity::error, captured_token_.where, captured_context_,
               captured_token_.text, m, {});
        rejected_ = true;
    }
}

// The tags the converter looks at: the roster (exact names, as the standard writes them) and
// FEN, Variant, Notation and SetUp (any letter case: real files write "fen", "FEN", "fEn").
Converter::TagKind Converter::classify_tag(std::string_view n) {
    switch (n.size()) {
    case 3:
        return iequals(n, "FEN") ? TagKind::fen : TagKind::other;
    case 4:
        return n == "Site" ? TagKind::site : n == "Date" ? TagKind::date : TagKind::other;
    case 5:
        return n == "Event"          ? TagKind::event
               : n == "Round"        ? TagKind::round
               : n == "White"        ? TagKind::white
               : n == "Black"        ? TagKind::black
               : iequals(n, "SetUp") ? TagKind::setup
                                     : TagKind::other;
    case 6:
        return n == "Result" ? TagKind::result : TagKind::other;
    case 7:
        return iequals(n, "Variant") ? TagKind::variant : TagKind::other;
    case 8:
        return iequals(n, "Notation") ? TagKind::notation : TagKind::other;
    default:
        return TagKind::other;
    }
}

void Converter::tag(syntax::Token name, syntax::Token value) {
    // Real tag sections hold a few dozen pairs; a bound keeps a hostile section of millions
    // from holding tens of MiB of tag records (the splitter likewise remembers at most 4096
    // distinct names).
    if (tags_.size() == max_tags) {
        if (!rejected_)
            report(syntax::Severity::error, name.where, {}, {},
                   "more than " + std::to_string(max_tags) +
                       " tag pairs; the game is not converted",
                   {});
        rejected_ = dead_ = true;
        return;
    }
    TagKind const kind = classify_tag(name.text);
    if (kind != TagKind::other && first(kind) < 0)
        first_tag_[std::size_t(kind)] = int(tags_.size());
    tags_.push_back({name, value, kind});
}

std::string_view Converter::tag_value(TagKind kind) const {
    int i = first(kind);
    return i < 0 ? std::string_view{} : tags_[std::size_t(i)].value.text;
}

syntax::Location Converter::tag_location(TagKind kind) const {
    int i = first(kind);
    if (i >= 0) return tags_[std::size_t(i)].name.where;
    return game_ ? game_->start : syntax::Location{};
}

// Formats one diagnostic line in compiler style:
// file:line:col: error: game 17 (Smith - Jones), move 12...: '6857': no piece on 68
// Input bytes reach the terminal only through terminal_safe (terminal.hpp): the file name
// (escaped, never cut), the players and the token (escaped, cut at quoted_bytes). The context
// is ours; the message is ours too, every piece of input in it made safe where it is built.
void Converter::report(syntax::Severity severity, syntax::Location where, std::string_view context,
                       std::string_view token, std::string_view message, std::string_view kind) {
    std::string& m = report_.messages;
    append_terminal_safe(m, file_, no_cut);
    m.push_back(':');
    m.append(std::to_string(where.line));
    m.push_back(':');
    m.append(std::to_string(where.column));
    m.append(severity == syntax::Severity::error ? ": error: " : ": warning: ");
    m.append("game ");
    m.append(std::to_string(game_ ? game_->number : 0));
    std::string white, black;
    parser::unescape_tag_value(tag_value(TagKind::white), white);
    parser::unescape_tag_value(tag_value(TagKind::black), black);
    if (!white.empty() || !black.empty()) {
        m.append(" (");
        append_terminal_safe(m, white.empty() ? "?" : white);
        m.append(" - ");
        append_terminal_safe(m, black.empty() ? "?" : black);
        m.push_back(')');
    }
    if (!context.empty()) {
        m.append(", ");
        m.append(context);
    }
    m.append(": ");
    if (!token.empty()) {
        m.push_back('\'');
        append_terminal_safe(m, token);
        m.append("': ");
    }
    m.append(message);
    m.push_back('\n');
    report_.kinds.push_back(severity == syntax::Severity::error ? std::string_view{} : kind);
    if (severity == syntax::Severity::error)
        ++report_.errors;
    else
        ++report_.warnings;
}

std::string Converter::move_context() const {
    std::string c = "move ";
    c.append(std::to_string(pos_.fullmove_number() + display_offset_));
    c.append(pos_.side_to_move() == Color::white ? "." : "...");
    return c;
}

void Converter::diagnostic(syntax::Diagnostic const& d) {
    // The grammar's wording may quote the token ("unknown annotation symbol '<token>'").
    std::string message;
    append_terminal_safe_message(message, d.message, d.token);
    report(d.severity, d.where, {}, d.token, message, d.kind);
    if (d.severity == syntax::Severity::error) {
        // A syntax error: the reader ends the game; it is never written, even with
        // --keep-broken (its movetext is not known to be complete).
        rejected_ = true;
        dead_ = true;
    }
}

void Converter::setup() {
    if (setup_done_) return;
    setup_done_ = true;
    if (dead_) return; // rejected already (too many tags): one error is enough
    std::string variant;
    parser::unescape_tag_value(tag_value(TagKind::variant), variant);
    std::string kind = variant_kind(variant);
    bool chess960 = false;
    if (kind == "chess960") {
        chess960 = true;
    } else if (!kind.empty()) {
        report(syntax::Severity::error, tag_location(TagKind::variant), {}, {},
               "variant '" + terminal_safe(kind) + "' is not chess; the game is not converted", {});
        rejected_ = dead_ = true;
        return;
    }
    std::string fen;
    parser::unescape_tag_value(tag_value(TagKind::fen), fen);
    if (!fen.empty()) {
        if (chess::FenError const bad = pos_.set_fen(fen, chess960); !bad.ok()) {
            std::string const& error = bad.message;
            // Quoted here rather than as the token, to cut it at fen_bytes, not quoted_bytes;
            // the error may quote a field of it.
            std::string m = "'" + terminal_safe(fen, fen_bytes) + "': invalid FEN: ";
            append_terminal_safe(m, error, message_bytes);
            // At the value it quotes, as every diagnostic points where its quoted text starts.
            report(syntax::Severity::error, tags_[std::size_t(first(TagKind::fen))].value.where, {},
                   {}, m, {});
            rejected_ = dead_ = true;
            return;
        }
    } else {
        static chess::Position const start{};
        pos_ = start;
        pos_.set_chess960(chess960);
    }
    chess960_ = pos_.chess960();
    display_offset_ = pos_.fullmove_number() < 1 ? 1 - pos_.fullmove_number() : 0;
}

// Comments and NAGs inside a variation that has no move yet wait (see Pending).
void Converter::put_comment(std::string_view text, syntax::CommentKind kind) {
    if (deferring()) {
        pending_.push_back({held_.size(), text.size(), kind, -1});
        held_.append(text);
        return;
    }
    // A brace comment cannot hold '}'; a rest-of-line comment may.
    if (kind == syntax::CommentKind::brace || text.find('}') == std::string_view::npos) {
        writer_.comment(text);
        return;
    }
    // Text holding brace comments (`; { Game Nr. 1 : ... }` of engine logs, the rest of a cut
    // variation): written as brace comments, the text around each as one of its own, since
    // some readers (pgn-extract 19) do not read ';' comments. A '}' outside every brace pair
    // cannot be: then one ';' comment, on one line.
    auto trimmed = [](std::string_view s) {
        auto const b = s.find_first_not_of(" \t\r\n");
        if (b == std::string_view::npos) return std::string_view{};
        return s.substr(b, s.find_last_not_of(" \t\r\n") - b + 1);
    };
    bool splits = true;
    for (std::size_t i = 0; i < text.size() && splits;) {
        std::size_t const open = text.find('{', i), close = text.find('}', i);
        if (close < open) splits = false;
        if (open == std::string_view::npos) break;
        i = close == std::string_view::npos ? text.size() : close + 1;
    }
    if (!splits) {
        std::string line(text);
        for (char& c : line)
            if (scan::is_line_end(c)) c = ' ';
        writer_.line_comment(line);
        return;
    }
    for (std::size_t i = 0; i < text.size();) {
        std::size_t const open = std::min(text.find('{', i), text.size());
        if (auto const before = trimmed(text.substr(i, open - i)); !before.empty())
            writer_.comment(before);
        if (open == text.size()) break;
        std::size_t const close = text.find('}', open);
        if (close == std::string_view::npos) {
            // A '{' that nothing closes: text like any other ('{' may stand in a comment).
            writer_.comment(trimmed(text.substr(open)));
            break;
        }
        writer_.comment(text.substr(open + 1, close - open - 1));
        i = close + 1;
    }
}

void Converter::put_nag(std::uint8_t value) {
    if (deferring()) {
        pending_.push_back({0, 0, syntax::CommentKind::brace, value});
        return;
    }
    std::array<char, 8> buf{'$'};
    auto [p, ec] = std::to_chars(buf.data() + 1, buf.data() + buf.size(), int(value));
    (void)ec;
    writer_.token(std::string_view(buf.data(), std::size_t(p - buf.data())));
}

// The variation's first move (or its end): what waited is written, inside the variation
// (after its "(") or, for a variation left out, after the move before it.
bool Converter::open_deferred() {
    if (!frames_.empty()) frames_.back().played = true;
    bool comment = false;
    std::vector<Pending> held;
    held.swap(pending_);
    std::string text;
    text.swap(held_);
    if (writing())
        for (Pending const& p : held) {
            if (p.nag >= 0) {
                put_nag(std::uint8_t(p.nag));
            } else {
                put_comment(std::string_view(text).substr(p.at, p.size), p.kind);
                comment = true;
            }
        }
    held.clear();
    text.clear();
    pending_.swap(held); // both keep their capacity
    held_.swap(text);
    return comment;
}

void Converter::begin_movetext() { setup(); }

// Writes the move, preceded by its number where one is due (every White move; a Black move
// at the start, after a comment or after a variation).
void Converter::write_numbered(std::string_view move) {
    bool white = pos_.side_to_move() == Color::white;
    if (!white && !need_number_) {
        writer_.token(move);
        return;
    }
    int n = pos_.fullmove_number() + display_offset_;
    std::array<char, 16> buf{};
    auto [p, ec] = std::to_chars(buf.data(), buf.data() + 10, n);
    (void)ec;
    *p++ = '.';
    if (!white) {
        *p++ = '.';
        *p++ = '.';
    }
    writer_.numbered(std::string_view(buf.data(), std::size_t(p - buf.data())), move);
}

void Converter::start_broken(syntax::Token move, syntax::Token suffix) {
    broken_ = true;
    if (!opt_.keep_broken && !cuts_variation()) {
        // Strict mode: the game is rejected; nothing more of it is written. Replay of the
        // rest is pointless without the position, so stop here.
        rejected_ = true;
        dead_ = true;
        return;
    }
    if (cuts_variation()) {
        // The variation's rest is kept verbatim: its bytes from here to its ')' (flush_broken).
        cut_ = true;
        cut_from_ = move.where.offset;
        return;
    }
    broken_text_.append(move.text);
    broken_text_.append(suffix.text);
}

// The --annotate comment of the last move comes after that move's NAGs.
void Converter::flush_annotation() {
    if (pending_annotation_.empty()) return;
    if (writing()) {
        if (pending_typed_) {
            typed_.assign("typed ");
            typed_.append(pending_annotation_);
            writer_.comment(typed_);
        } else {
            writer_.comment(pending_annotation_);
        }
    }
    pending_annotation_ = {};
    pending_typed_ = false;
    need_number_ = true;
}

void Converter::flush_broken(std::uint64_t end) {
    syntax::CommentKind kind = syntax::CommentKind::brace;
    if (cut_) {
        // The rest of a cut variation, [cut_from_, end) of the input, as it was written.
        cut_ = false;
        std::uint64_t const start = game_->start.offset;
        std::string_view rest = game_->bytes;
        end = std::min<std::uint64_t>(end, start + rest.size());
        if (cut_from_ < start || end < cut_from_) return;
        rest = rest.substr(cut_from_ - start, end - cut_from_);
        while (!rest.empty() && (scan::is_blank(rest.back()) || scan::is_line_end(rest.back())))
            rest.remove_suffix(1);
        broken_text_.assign(rest);
        // Holding a comment, it is written as several (put_comment).
        if (rest.find('}') != std::string_view::npos) kind = syntax::CommentKind::rest_of_line;
    }
    if (broken_text_.empty()) return;
    // In a variation whose first move is unplayable the rest waits like any comment: the
    // variation has no move, so it is left out and the text goes after the move before it.
    // Without comments, the rest of a cut variation is left out like every other comment (so
    // that our output, read again with the same options, gives the same bytes); the rest of
    // a broken game is its content and stays.
    bool const keep = opt_.comments || !cuts_variation();
    if (writing() && keep) put_comment(broken_text_, kind);
    broken_text_.clear();
    if (keep) need_number_ = true;
}

namespace {

// Whether letters of another language might read a token English could not play
// (--input-lang auto): a piece letter (upper-case, Cyrillic, a figurine), an unknown
// promotion letter, or a lower-case letter read as a piece. A numeric token, castling with
// zeros and a pawn move (lower-case file first, read as a pawn) read alike in every language.
bool letters_might_explain(std::string_view t, notation::ReadResult const& r) {
    if (r.error == ReadError::unknown_piece_letter) return true;
    if (t.empty()) return false;
    unsigned char const c = static_cast<unsigned char>(t[0]);
    if (c >= 0x80 || (c >= 'A' && c <= 'Z')) return true;
    if (c >= 'a' && c <= 'z') return c > 'h' || r.piece != PieceType::pawn;
    return false;
}

} // namespace

Move Converter::fail_move(syntax::Token move, notation::ReadResult const& r, bool null_in_check,
                          bool& corrected) {
    corrected = false;
    std::string msg;
    bool white = pos_.side_to_move() == Color::white;
    bool numeric = all_digits(move.text);
    if (null_in_check) {
        msg.append("a null move is not possible while in check");
    } else {
        switch (r.error) {
        case ReadError::invalid_syntax:
            msg.append("not a move in SAN, long algebraic or numeric notation");
            break;
        case ReadError::unknown_piece_letter:
            msg.append("unknown piece letter for input language '");
            msg.append(in_letters_->code);
            msg.append("' (see --input-lang)");
            break;
        case ReadError::no_piece:
            if (r.from.ok()) {
                msg.append("no ");
                msg.append(numeric ? "piece" : notation::piece_name(r.piece));
                msg.append(" on ");
                append_square(msg, r.from, numeric);
            } else {
                msg.append("no ");
                msg.append(notation::piece_name(r.piece));
                msg.append(" can move to ");
                if (r.to.ok()) append_square_algebraic(msg, r.to);
            }
            break;
        case ReadError::wrong_color:
            msg.append("the piece on ");
            append_square(msg, r.from, numeric);
            msg.append(white ? " is Black's; White is to move" : " is White's; Black is to move");
            break;
        case ReadError::illegal:
            if (numeric && r.from.ok() && r.to.ok() && !pos_.piece_on(r.from).empty()) {
                msg.append("the ");
                msg.append(notation::piece_name(pos_.piece_on(r.from).type()));
                msg.append(" on ");
                append_square_numeric(msg, r.from);
                msg.append(" cannot move to ");
                append_square_numeric(msg, r.to);
            } else if (!numeric && r.piece != PieceType::none && r.to.ok()) {
                msg.append("no ");
                msg.append(notation::piece_name(r.piece));
                msg.append(" can legally move to ");
                append_square_algebraic(msg, r.to);
            } else {
                msg.append("not a legal move here");
            }
            if (pos_.in_check())
                msg.append(white ? " (White is in check)" : " (Black is in check)");
            break;
        case ReadError::ambiguous: {
            msg.append("ambiguous: could be ");
            int n = std::min<int>(r.candidate_count, int(r.candidates.size()));
            for (int i = 0; i < n; ++i) {
                if (i) msg.append(i + 1 == n ? " or " : ", ");
                auto text = notation::write_san(pos_, r.candidates[std::size_t(i)]);
                msg.append(text.view());
            }
            break;
        }
        case ReadError::promotion_missing:
            msg.append(numeric ? "a pawn reaching the last rank needs a fifth digit (1 queen, 2 "
                                 "rook, 3 bishop, 4 knight)"
                               : "a pawn reaching the last rank needs a promotion piece (=Q, =R, "
                                 "=B, =N)");
            if (r.short_promotion)
                msg.append("; read as the non-standard four-digit promotion form it would be "
                           "legal: --iccf-short-promotion accepts it");
            break;
        case ReadError::promotion_not_allowed:
            msg.append(numeric ? "a fifth digit (promotion) on a move that is no promotion"
                               : "a promotion piece on a move that is no promotion");
            break;
        case ReadError::bad_square:
            msg.append(numeric ? "digits 0 and 9 name no square (files and ranks are 1-8)"
                               : "not a square of the board");
            break;
        default:
            msg.append(notation::describe(r.error));
            break;
        }
    }
    Move assumed{};
    if (numeric && !null_in_check) {
        std::array<Move, 8> sugg{};
        int n = notation::suggest_numeric(pos_, move.text, sugg.data(), int(sugg.size()));
        // In strict mode the game is rejected, but checking goes on with the move the
        // typo most likely stands for, so one run reports every typo of a game score:
        // the only suggestion, or the queen promotion when the fifth digit is missing.
        if (n == 1 || (r.error == ReadError::promotion_missing && n > 0)) assumed = sugg[0];
        // --fix-typos: the only legal move one edit away is what was meant; it is written,
        // with a warning here and the typed token in a comment after it.
        corrected = opt_.fix_typos && n == 1;
        if (corrected) {
            msg.append("; corrected to ");
            msg.append(notation::write_numeric(pos_, sugg[0]).view());
            msg.append(" (");
            msg.append(notation::write_san(pos_, sugg[0]).view());
            msg.append("), the only legal move one edit away (--fix-typos)");
        } else if (n > 0) {
            msg.append("; did you mean ");
            for (int i = 0; i < n; ++i) {
                if (i) msg.append(i + 1 == n ? " or " : ", ");
                msg.append(notation::write_numeric(pos_, sugg[std::size_t(i)]).view());
                msg.append(" (");
                msg.append(notation::write_san(pos_, sugg[std::size_t(i)]).view());
                msg.push_back(')');
            }
            msg.push_back('?');
        }
    }
    if (corrected) {
        report(syntax::Severity::warning, move.where, move_context(), move.text, msg,
               "typo corrected (--fix-typos)");
        return assumed;
    }
    if (!move_failed_) {
        move_failed_ = true;
        first_fail_ = move;
        first_fail_context_ = move_context();
        first_fail_pos_ = pos_;
    }
    if (!null_in_check && !numeric && letters_might_explain(move.text, r)) letter_failure_ = true;
    if (opt_.keep_broken || cuts_variation()) assumed = Move{};
    if (assumed.ok()) {
        msg.append(" (checking the rest of the game as if ");
        msg.append(notation::write_numeric(pos_, assumed).view());
        msg.append(" had been written)");
    }
    // In a variation the main line is still sound: the variation is written up to here and
    // its rest kept as a comment; the game is converted (--strict: rejected, as before).
    bool const cut = cuts_variation();
    if (cut)
        msg.append(opt_.comments ? "; the variation is cut here and its rest kept in a comment"
                                 : "; the variation is cut here and its rest left out (comments "
                                   "are left out)");
    report(cut ? syntax::Severity::warning : syntax::Severity::error, move.where, move_context(),
           move.text, msg, cut ? "unplayable move in a variation, the variation cut" : "");
    return assumed;
}

// Move m (legal in pos_) in the target notation.
notation::MoveText Converter::render(Move m, bool null_move) {
    if (null_move) return notation::write_null();
    switch (opt_.to) {
    case Notation::san:
        return notation::write_san(pos_, m, opt_.write);
    case Notation::lan:
        return notation::write_lan(pos_, m, opt_.write);
    case Notation::numeric:
        break;
    }
    return notation::write_numeric(pos_, m);
}

void Converter::move(syntax::Token move, syntax::Token suffix) {
    if (dead_ || level_skip_ > 0) return;
    flush_annotation();
    if (!setup_done_) setup();
    if (dead_) return;
    if (broken_) {
        if (cut_) return; // part of the variation's rest, kept verbatim
        if (!broken_text_.empty()) broken_text_.push_back(' ');
        broken_text_.append(move.text);
        broken_text_.append(suffix.text);
        return;
    }

    Move m;
    bool typed = false; // m is the --fix-typos correction of the token
    bool const null_move = is_null_token(move.text);
    if (null_move) {
        if (pos_.in_check()) {
            bool corrected = false;
            fail_move(move, notation::ReadResult{}, true, corrected);
            start_broken(move, suffix);
            return;
        }
        m = Move::null_move();
    } else {
        // Initialised in place (no copy of the result: copying a struct just written field by
        // field stalls on store forwarding, a measurable cost per move).
        notation::ReadResult const r = notation::read_move(pos_, move.text, opt_.read);
        if (r.error == ReadError::none) {
            m = r.move;
        } else {
            m = fail_move(move, r, false, typed);
            if (!m.ok()) {
                start_broken(move, suffix);
                return;
            }
            if (typed)
                ++report_.corrected;
            else
                rejected_ = true; // checking goes on with the assumed move; nothing is written
        }
        if (r.short_promotion && r.error == ReadError::none) {
            std::string w = "non-standard four-digit promotion read as ";
            w.append(notation::write_numeric(pos_, m).view());
            w.append(" (");
            w.append(notation::write_san(pos_, m).view());
            w.push_back(')');
            report(syntax::Severity::warning, move.where, move_context(), move.text, w,
                   "non-standard four-digit promotion");
        }
    }

    if (deferring()) open_deferred();
    if (writing()) {
        notation::MoveText const text = render(m, null_move);
        if (suffix.text.empty()) {
            write_numbered(text.view());
        } else {
            scratch_.assign(text.view());
            scratch_.append(suffix.text);
            write_numbered(scratch_);
        }
        need_number_ = false;
        if (opt_.annotate || typed) pending_annotation_ = move.text;
        pending_typed_ = typed;
    }
    if (trying_) {
        if (moves_.size() == capture_at_) {
            // The first move two languages read differently (choose_language).
            captured_token_ = move;
            captured_context_ = move_context();
            captured_san_.assign(notation::write_san(pos_, m).view());
            captured_other_san_.assign(notation::write_san(pos_, capture_other_).view());
        }
        moves_.push_back(m);
    }
    pos_.do_move(m, last_undo_);
    last_ = m;
    has_last_ = true;
    ++report_.moves;
}

void Converter::comment(syntax::Token text, syntax::CommentKind kind) {
    if (dead_ || level_skip_ > 0 || !opt_.comments || !writing()) return;
    if (broken_ && cut_) return; // part of the variation's rest, kept verbatim
    flush_annotation();
    if (broken_) flush_broken();
    put_comment(text.text, kind);
    need_number_ = true;
}

void Converter::nag(syntax::Token text, std::uint8_t value) {
    if (dead_ || level_skip_ > 0 || !writing()) return;
    if (broken_) {
        if (cut_) return; // part of the variation's rest, kept verbatim
        if (!broken_text_.empty()) broken_text_.push_back(' ');
        broken_text_.append(text.text);
        return;
    }
    if (!opt_.nags) return;
    put_nag(value);
}

bool Converter::begin_variation(syntax::Token open) {
    if (dead_) return false;
    if (level_skip_ > 0 || !opt_.variations) {
        ++level_skip_;
        return false;
    }
    if (!setup_done_) setup();
    if (dead_) return false;
    flush_annotation();
    if (broken_) {
        // The position is unknown past a bad move: keep the variation as text.
        ++level_skip_;
        if (cut_) return false; // part of the variation's rest, kept verbatim
        if (!broken_text_.empty()) broken_text_.push_back(' ');
        broken_text_.append("(...)");
        report(syntax::Severity::warning, open.where, {}, {},
               "variation after an unplayable move kept only as '(...)' in the comment",
               "variation after an unplayable move kept as '(...)'");
        return false;
    }
    if (!has_last_ && deferring()) {
        // "( (": a variation directly inside a variation, before its first move. Read as
        // another variation of the same move: the enclosing one is closed here (what it held
        // so far goes after the move before it) and opened again after the inner one.
        report(syntax::Severity::warning, open.where, {}, "(",
               "variation directly inside a variation, before its first move; read as "
               "another variation of the same move",
               "variation directly inside a variation");
        int const reopen = frames_.back().reopen + 1;
        close_variation(true, no_offset);
        open_variation(open.where);
        frames_.back().reopen = reopen;
        return true;
    }
    if (!has_last_) {
        report(syntax::Severity::error, open.where, {}, "(",
               "a variation must follow the move it replaces", {});
        rejected_ = dead_ = true;
        return false;
    }
    open_variation(open.where);
    return true;
}

void Converter::open_variation(syntax::Location at) {
    Frame f;
    f.saved = pos_;
    f.last = last_;
    f.last_undo = last_undo_;
    f.open_at = at;
    f.need_number = need_number_;
    frames_.push_back(f);
    pos_.undo_move(last_, last_undo_);
    has_last_ = false;
    if (writing()) writer_.open_variation();
    need_number_ = true;
}

void Converter::end_variation(syntax::Token close) {
    if (dead_) return;
    if (level_skip_ > 0) {
        --level_skip_;
        return;
    }
    if (frames_.empty()) return;
    int const reopen = frames_.back().reopen;
    syntax::Location const at = frames_.back().open_at;
    close_variation(frames_.back().quiet, close.text.empty() ? no_offset : close.where.offset);
    if (reopen > 0) {
        // The rest of a variation that held a variation before its first move ("( ( ... )
        // rest )"): a variation of the same move again, left out silently if nothing follows.
        open_variation(at);
        frames_.back().reopen = reopen - 1;
        frames_.back().quiet = true;
    }
}

void Converter::close_variation(bool quiet, std::uint64_t end) {
    flush_annotation();
    if (broken_) flush_broken(end);
    Frame const& f = frames_.back();
    pos_ = f.saved;
    last_ = f.last;
    last_undo_ = f.last_undo;
    has_last_ = true; // see Frame
    broken_ = false;
    bool const empty = !f.played;
    bool const f_need_number = f.need_number;
    bool need_number = true;
    if (empty && !quiet)
        report(syntax::Severity::warning, f.open_at, {}, "(",
               "variation without a move left out (no reader accepts '()'); a comment or "
               "NAG in it is kept after the move before it",
               "variation without a move left out");
    frames_.pop_back();
    if (writing()) {
        if (empty) {
            writer_.cancel_open();
            // Now written in the enclosing line, which has a move. Left out, the variation
            // leaves no "N..." number behind, unless a comment now precedes the next move.
            need_number = open_deferred() || f_need_number;
        } else {
            writer_.close_variation();
        }
    }
    pending_.clear();
    held_.clear();
    need_number_ = need_number;
}

void Converter::result(syntax::Token token) {
    result_ = token;
    has_result_ = true;
}

void Converter::end_game(syntax::GameEnd const& end) {
    if (end.syntax_error) rejected_ = dead_ = true;
    if (!setup_done_) setup();
    if (dead_) return;
    flush_annotation();
    if (broken_ && !cut_) flush_broken(); // a cut variation's rest: when it is closed
    // Close variations left open by a broken game (the reader reports unbalanced ones).
    while (!frames_.empty()) end_variation({});
    std::string_view tagged = tag_value(TagKind::result); // result values hold no escapes
    if (first(TagKind::result) >= 0 && (tagged == "(+)-(-)" || tagged == "(-)-(+)")) {
        report(syntax::Severity::warning, tag_location(TagKind::result), {}, {},
               "forfeit Result tag \"" + std::string(tagged) + "\" read as " +
                   std::string(normalise_result(tagged)) + "; written as \"" +
                   std::string(termination()) + "\"",
               "forfeit result");
    } else if (first(TagKind::result) >= 0 && !is_result(tagged)) {
        // The export format allows only the four results, equal to the marker.
        report(syntax::Severity::warning, tag_location(TagKind::result), {}, {},
               "Result tag \"" + terminal_safe(tagged) +
                   "\" is not a result (1-0, 0-1, 1/2-1/2, *); written as \"" +
                   std::string(termination()) + "\"",
               "Result tag that is not a result");
    } else if (has_result_ && !tagged.empty() && normalise_result(result_.text) != tagged) {
        report(syntax::Severity::warning, result_.where, {}, result_.text,
               "result differs from the Result tag \"" + terminal_safe(tagged) +
                   "\"; the Result tag is written as \"" + std::string(termination()) + "\"",
               "result differs from the Result tag");
    }
}

// The game termination marker written: the movetext's result, else a valid Result tag,
// else "*". A Result tag that is not a result is written as this marker too.
std::string_view Converter::termination() const {
    if (has_result_) return normalise_result(result_.text);
    std::string_view const r = normalise_result(tag_value(TagKind::result));
    return r == "1-0" || r == "0-1" || r == "1/2-1/2" ? r : "*";
}

void Converter::write_game(std::string& out) {
    std::string value;
    // A tag as read: re-escaped (decoding the escapes first only where there are any).
    auto copy_tag = [&](std::string_view name, std::string_view raw) {
        if (raw.find('\\') == std::string_view::npos) {
            write_tag(out, name, raw);
        } else {
            parser::unescape_tag_value(raw, value);
            write_tag(out, name, value);
        }
    };
    // Seven Tag Roster first, in its order.
    for (std::size_t i = 0; i < roster.size(); ++i) {
        int at = first_tag_[i];
        if (TagKind(i) == TagKind::result)
            write_tag(out, roster[i], termination()); // always equal to the marker (§8.2.6)
        else if (at >= 0)
            copy_tag(roster[i], tags_[std::size_t(at)].value.text);
        else
            write_tag(out, roster[i], roster_default[i]);
    }
    if (opt_.to == Notation::numeric) write_tag(out, "Notation", "ICCF");
    // The other tags in input order (a repeated roster tag is kept where it was); the tags
    // that other readers need to set the game up are written in their standard spelling.
    bool const fen_used = !tag_value(TagKind::fen).empty();
    for (std::size_t i = 0; i < tags_.size(); ++i) {
        Tag const& t = tags_[i];
        if (t.kind < TagKind::fen && first(t.kind) == int(i)) continue; // written above
        if (t.kind == TagKind::notation) continue;
        if (t.kind == TagKind::setup) {
            // SetUp says whether the FEN is used (§9.7.1): "1" beside the FEN that is,
            // "0" without one ([SetUp "1"] with no FEN makes readers reject the game).
            write_tag(out, "SetUp",
                      first(TagKind::setup) == int(i) ? (fen_used ? "1" : "0") : t.value.text);
            continue;
        }
        if (t.kind == TagKind::fen && first(TagKind::fen) == int(i) && !t.value.text.empty()) {
            // Readers need these to use the FEN (§9.7.1) and to know what castling codes
            // mean: added before the FEN when the input left them out.
            if (chess960_ && first(TagKind::variant) < 0) write_tag(out, "Variant", "Chess960");
            if (first(TagKind::setup) < 0) write_tag(out, "SetUp", "1");
        }
        copy_tag(t.kind == TagKind::fen       ? "FEN"
                 : t.kind == TagKind::variant ? "Variant"
                                              : t.name.text,
                 t.value.text);
    }
    out.push_back('\n');
    writer_.token(termination());
    writer_.end();
    // Reserved as a whole: the blank line after a large game would otherwise double `out`.
    std::string_view const text = writer_.text();
    out.reserve(out.size() + text.size() + 1);
    out.append(text);
    out.push_back('\n');
}

} // namespace pgn_iccf::pgn
