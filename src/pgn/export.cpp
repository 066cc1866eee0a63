// The ExportWriter (export.hpp): the replay's events written as the game in export format,
// moves in the target notation, with the deferred comments of variations, the rest of a broken
// line, --annotate, and the tag section written in place.
#include "pgn/export.hpp"

#include "grammar/scan.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstring>
#include <utility>

namespace pgn_iccf::pgn {

namespace {

using chess::Color;
using notation::Notation;

} // namespace

void ExportWriter::begin_game(syntax::RawGame const& game) {
    game_ = &game;
    deferring_ = false;
    pending_.clear();
    held_.clear();
    need_number_stack_.clear();
    need_number_ = true;
    cut_from_ = no_offset;
    broken_text_.clear();
    pending_annotation_ = {};
    pending_typed_ = false;
    writer_.begin(opt_.width);
}

void ExportWriter::release_buffers(std::size_t keep) {
    release_if_above(broken_text_, keep);
    release_if_above(scratch_, keep);
    release_if_above(held_, keep);
    writer_.release_buffers(keep);
}

namespace {

// A rest-of-line comment holding '}' (ExportWriter::put_comment).
[[gnu::noinline]] void comment_with_braces(MovetextWriter& writer, std::string_view text) {
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
        writer.line_comment(line);
        return;
    }
    for (std::size_t i = 0; i < text.size();) {
        std::size_t const open = std::min(text.find('{', i), text.size());
        if (auto const before = trimmed(text.substr(i, open - i)); !before.empty())
            writer.comment(before);
        if (open == text.size()) break;
        std::size_t const close = text.find('}', open);
        if (close == std::string_view::npos) {
            // A '{' that nothing closes: text like any other ('{' may stand in a comment).
            writer.comment(trimmed(text.substr(open)));
            break;
        }
        writer.comment(text.substr(open + 1, close - open - 1));
        i = close + 1;
    }
}

} // namespace

// Comments and NAGs inside a variation that has no move yet wait (see Pending).
// (Inline, its rare case out of line: the comment of every lichess move went through three
// calls; see the commit.)
inline void ExportWriter::put_comment(std::string_view text, syntax::CommentKind kind) {
    if (deferring_) {
        pending_.push_back({held_.size(), text.size(), kind, -1});
        held_.append(text);
        return;
    }
    // A brace comment cannot hold '}'; a rest-of-line comment may.
    if (kind == syntax::CommentKind::brace || text.find('}') == std::string_view::npos) {
        writer_.comment(text);
        return;
    }
    comment_with_braces(writer_, text);
}

void ExportWriter::put_nag(std::uint8_t value) {
    if (deferring_) {
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
bool ExportWriter::open_deferred() {
    deferring_ = false;
    bool comment = false;
    std::vector<Pending> held;
    held.swap(pending_);
    std::string text;
    text.swap(held_);
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

// Writes the move, preceded by its number where one is due (every White move; a Black move
// at the start, after a comment or after a variation).
// (Always inlined: GCC left it out of line, and its call cost instructions a game; callgrind.)
[[gnu::always_inline]] inline void ExportWriter::write_move(std::string_view text, bool white,
                                                            int number, syntax::Token const& move,
                                                            syntax::Token const& suffix,
                                                            bool corrected) {
    flush_annotation();
    if (deferring_) open_deferred();
    if (!suffix.text.empty()) {
        scratch_.assign(text);
        scratch_.append(suffix.text);
        text = scratch_;
    }
    if (!white && !need_number_)
        writer_.token(text);
    else
        writer_.numbered(number, white, text);
    need_number_ = false;
    if (opt_.annotate || corrected) pending_annotation_ = move.text;
    pending_typed_ = corrected;
}

void ExportWriter::move(chess::Position& pos, chess::Move m, int number, syntax::Token move,
                        syntax::Token suffix, bool corrected) {
    notation::MoveText const text =
        m.is_null()                ? notation::write_null()
        : opt_.to == Notation::san ? notation::write_san(pos, m, opt_.write)
        : opt_.to == Notation::lan ? notation::write_lan(pos, m, opt_.write)
                                   : notation::write_numeric(pos, m);
    write_move(text.view(), pos.side_to_move() == Color::white, number, move, suffix, corrected);
}

void ExportWriter::play(chess::Position& pos, chess::Move m, chess::UndoInfo& undo, int number,
                        syntax::Token const& move, syntax::Token const& suffix, bool corrected) {
    bool const white = pos.side_to_move() == Color::white;
    if (opt_.to == Notation::numeric && !m.is_null()) {
        // The text in one word, no write_numeric call and no MoveText to clear and read back
        // (fewer instructions a game, SAN -> numeric; callgrind, see the commit).
        notation::NumericText const t = notation::numeric_text(pos, m);
        char text[8];
        std::memcpy(text, &t.bytes, sizeof text);
        pos.do_move(m, undo);
        write_move(std::string_view(text, t.size), white, number, move, suffix, corrected);
        return;
    }
    // SAN and LAN: written without their mark, which the position after the move gives (in
    // check; mate if no legal move), instead of a make/unmake in write_san to find mate
    // (fewer instructions a game for SAN -> SAN, at a slight cost to --check; see the commit).
    // (The null move comes here too: no check after it.)
    notation::MoveText text = m.is_null() ? notation::write_null()
                              : opt_.to == Notation::san
                                  ? notation::write_san(pos, m, notation::Mark::none, opt_.write)
                                  : notation::write_lan(pos, m, notation::Mark::none, opt_.write);
    pos.do_move(m, undo);
    if (pos.in_check() && text.size < text.data.size())
        text.data[text.size++] = pos.has_legal_move() ? '+' : '#';
    write_move(text.view(), white, number, move, suffix, corrected);
}

void ExportWriter::comment(std::string_view text, syntax::CommentKind kind) {
    if (!opt_.comments) return;
    flush_annotation();
    // After a broken line's rest, which it follows (a cut one's rest brings no comment).
    if (!broken_text_.empty()) flush_broken();
    put_comment(text, kind);
    need_number_ = true;
}

void ExportWriter::nag(std::uint8_t value) {
    if (opt_.nags) put_nag(value);
}

void ExportWriter::begin_variation() {
    flush_annotation();
    need_number_stack_.push_back(need_number_);
    writer_.open_variation();
    need_number_ = true;
    deferring_ = true;
}

void ExportWriter::end_variation(bool empty, std::uint64_t end) {
    flush_annotation();
    flush_broken(end);
    bool need_number = true;
    bool const outer_need_number = need_number_stack_.back();
    need_number_stack_.pop_back();
    if (empty) {
        writer_.cancel_open();
        // Now written in the enclosing line, which has a move. Left out, the variation
        // leaves no "N..." number behind, unless a comment now precedes the next move.
        need_number = open_deferred() || outer_need_number;
    } else {
        writer_.close_variation();
    }
    deferring_ = false;
    pending_.clear();
    held_.clear();
    need_number_ = need_number;
}

void ExportWriter::line_broken(syntax::Token move, syntax::Token suffix, LineState state) {
    flush_annotation();
    if (state == LineState::cut) {
        // The variation's rest is kept verbatim: its bytes from here to its ')' (flush_broken).
        cut_from_ = move.where.offset;
        return;
    }
    broken_text_.append(move.text);
    broken_text_.append(suffix.text);
}

void ExportWriter::unplayed(std::string_view text, std::string_view suffix) {
    flush_annotation();
    if (!broken_text_.empty()) broken_text_.push_back(' ');
    broken_text_.append(text);
    broken_text_.append(suffix);
}

void ExportWriter::unplayed_variation() {
    flush_annotation();
    if (!broken_text_.empty()) broken_text_.push_back(' ');
    broken_text_.append("(...)");
}

void ExportWriter::end_movetext() {
    flush_annotation();
    if (cut_from_ == no_offset) flush_broken(); // a cut variation's rest: when it is closed
}

// The --annotate comment of the last move comes after that move's NAGs.
void ExportWriter::flush_annotation() {
    if (pending_annotation_.empty()) return;
    if (pending_typed_) {
        typed_.assign("typed ");
        typed_.append(pending_annotation_);
        writer_.comment(typed_);
    } else {
        writer_.comment(pending_annotation_);
    }
    pending_annotation_ = {};
    pending_typed_ = false;
    need_number_ = true;
}

void ExportWriter::flush_broken(std::uint64_t end) {
    syntax::CommentKind kind = syntax::CommentKind::brace;
    bool const was_cut = cut_from_ != no_offset;
    if (was_cut) {
        // The rest of a cut variation, [cut_from_, end) of the input, as it was written.
        std::uint64_t const cut_from = std::exchange(cut_from_, no_offset);
        std::uint64_t const start = game_->start.offset;
        std::string_view rest = game_->bytes;
        end = std::min<std::uint64_t>(end, start + rest.size());
        if (cut_from < start || end < cut_from) return;
        rest = rest.substr(cut_from - start, end - cut_from);
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
    // a broken game is its content and stays. (A line broken in a variation is always cut,
    // but under --strict, which rejects the game.)
    bool const keep = opt_.comments || !was_cut;
    if (keep) put_comment(broken_text_, kind);
    broken_text_.clear();
    if (keep) need_number_ = true;
}

void ExportWriter::write(std::string& out, TagTable const& tags, std::string_view termination,
                         bool chess960) {
    auto const& all = tags.all();
    // The tag section is written in place into room sized ahead (one resize, no append per
    // piece of a tag; fewer instructions a game, callgrind: see the commit). Each
    // tag takes at most its tag_room (a value decoded for re-escaping only shortens), the
    // roster's defaults, the Result written as the termination, an added Notation, Variant,
    // SetUp and the first SetUp's value at most `added`.
    constexpr std::size_t added = 512;
    std::size_t room = added + tag_room("Result", termination);
    for (TagTable::Tag const& t : all) room += tag_room(t.name.text, t.value.text);
    std::size_t const at = out.size();
    out.resize(at + room);
    char* const base = out.data();
    char* d = base + at;
    std::string value;
    // Our own values (roster defaults, the termination, "1"...) hold nothing to escape.
    auto put = [&](std::string_view name, std::string_view v) { d = write_plain_tag(d, name, v); };
    // A tag as read: re-escaped (decoding the escapes first only where there are any).
    auto copy_tag = [&](std::string_view name, TagTable::Tag const& t) {
        std::string_view const raw = t.value.text;
        if (t.plain || !needs_escape(raw)) {
            d = write_plain_tag(d, name, raw);
        } else if (raw.find('\\') == std::string_view::npos) {
            d = write_tag(d, name, raw);
        } else {
            parser::unescape_tag_value(raw, value);
            d = write_tag(d, name, value);
        }
    };
    // Seven Tag Roster first, in its order.
    for (std::size_t i = 0; i < roster_names.size(); ++i) {
        int at_tag = tags.first(TagKind(i));
        if (TagKind(i) == TagKind::result)
            put(roster_names[i], termination); // always equal to the marker (§8.2.6)
        else if (at_tag >= 0)
            copy_tag(roster_names[i], all[std::size_t(at_tag)]);
        else
            put(roster_names[i], roster_defaults[i]);
    }
    if (opt_.to == Notation::numeric) put("Notation", "ICCF");
    // The other tags in input order (a repeated roster tag is kept where it was); the tags
    // that other readers need to set the game up are written in their standard spelling.
    bool const fen_used = !tags.value(TagKind::fen).empty();
    for (std::size_t i = 0; i < all.size(); ++i) {
        TagTable::Tag const& t = all[i];
        if (t.kind < TagKind::fen && tags.first(t.kind) == int(i)) continue; // written above
        if (t.kind == TagKind::notation) continue;
        if (t.kind == TagKind::setup) {
            // SetUp says whether the FEN is used (§9.7.1): "1" beside the FEN that is,
            // "0" without one ([SetUp "1"] with no FEN makes readers reject the game). A
            // repeated one is kept as read, like any other tag.
            if (tags.first(TagKind::setup) == int(i))
                put("SetUp", fen_used ? "1" : "0");
            else
                copy_tag("SetUp", t);
            continue;
        }
        if (t.kind == TagKind::fen && tags.first(TagKind::fen) == int(i) && !t.value.text.empty()) {
            // Readers need these to use the FEN (§9.7.1) and to know what castling codes
            // mean: added before the FEN when the input left them out.
            if (chess960 && tags.first(TagKind::variant) < 0) put("Variant", "Chess960");
            if (tags.first(TagKind::setup) < 0) put("SetUp", "1");
        }
        copy_tag(t.kind == TagKind::fen       ? "FEN"
                 : t.kind == TagKind::variant ? "Variant"
                                              : t.name.text,
                 t);
    }
    *d++ = '\n';
    out.resize(std::size_t(d - base));
    writer_.token(termination);
    writer_.end();
    // Reserved as a whole (by move_text_to): the blank line after a large game would
    // otherwise double `out`.
    writer_.move_text_to(out);
    out.push_back('\n');
}

} // namespace pgn_iccf::pgn
