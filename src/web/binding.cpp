// The WebAssembly binding (embind) of the converter: what OUTDIR/pgn-iccf.mjs exports to the
// page's worker and to Node. It runs the command line's own code on bytes in memory: the
// input check of src/io (sniff), the GameReader, and convert_batch (src/batch/convert.hpp),
// batch by batch as a pipeline worker does, on one thread. Nothing here words a diagnostic or
// decides a rule: the page shows what this returns.
//
//   convert(bytes, options)               -> {output, rejects, diagnostics, summary} or {error}
//   convertWithProgress(bytes, options, f) the same, calling f(bytesDone, bytesTotal) per batch
//   positionAt(bytes, offset, options)    -> the position after the move at or before offset
//   languages()                           -> [{code, name}] of --lang and --input-lang
//   sniff(bytes)                          -> {text[, compression]} or {text: false, looksLike}:
//                                            the input check
// The options are the command line's (README); `voice: 'page'` words the messages for the
// page (settings by its labels: report::Voice).
#include "batch/convert.hpp"
#include "batch/report.hpp"
#include "chess/position.hpp"
#include "io/ascii.hpp"
#include "io/source.hpp"
#include "notation/notation.hpp"
#include "pgn/converter.hpp"
#include "pgn/game_reader.hpp"
#include "pgn/replayer.hpp"
#include "pgn/writer.hpp"
#include "report/wording.hpp"

#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace {

using namespace pgn_iccf;
using emscripten::val;

// The input, already in the module's memory.
class MemorySource final : public io::ByteSource {
public:
    explicit MemorySource(std::string_view bytes) : bytes_(bytes) {}
    std::ptrdiff_t read(char* dst, std::size_t n) override {
        n = std::min(n, bytes_.size() - pos_);
        std::memcpy(dst, bytes_.data() + pos_, n);
        pos_ += n;
        return static_cast<std::ptrdiff_t>(n);
    }
    std::uint64_t consumed() const override { return pos_; }

private:
    std::string_view bytes_;
    std::size_t pos_ = 0;
};

// A Uint8Array's bytes in the module's memory: one copy (TypedArray.set into a view of the
// heap), into memory that is not cleared first (a std::string would write every byte twice).
class Bytes {
public:
    explicit Bytes(val const& array)
        : size_(array["length"].as<std::size_t>()), data_(new char[size_ + 1]) {
        if (size_ != 0) {
            val view(emscripten::typed_memory_view(size_,
                                                   reinterpret_cast<unsigned char*>(data_.get())));
            view.call<void>("set", array);
        }
    }
    std::string_view view() const { return {data_.get(), size_}; }
    std::size_t size() const { return size_; }

private:
    std::size_t size_;
    std::unique_ptr<char[]> data_;
};

// A copy of `s` as a new Uint8Array (one copy: slice of a view of the heap).
val array_of(std::string_view s) {
    return val(emscripten::typed_memory_view(s.size(),
                                             reinterpret_cast<unsigned char const*>(s.data())))
        .call<val>("slice");
}

std::string language_list() { return notation::language_codes(); }

bool flag(val const& o, char const* name, bool otherwise) {
    val const v = o[name];
    if (v.isUndefined() || v.isNull()) return otherwise;
    return v.as<bool>();
}

std::string text(val const& o, char const* name, char const* otherwise) {
    val const v = o[name];
    if (v.isUndefined() || v.isNull()) return otherwise;
    return v.as<std::string>();
}

struct Choices {
    pgn::ConvertOptions convert{};
    bool rejects = true; // the rejects are returned (as with --rejects)
    // Who reads the diagnostics: the command line's words (the default, so that the module
    // says what pgn-iccf says), or with voice: 'page' the page's (its controls' labels).
    report::Voice voice = report::Voice::command_line;
};

// The options object in the command line's terms, refused with the words of its voice.
std::optional<Choices> choices_of(val const& o, std::string& error) {
    Choices c;
    if (o.isUndefined() || o.isNull()) return c;
    // Word values in any letter case, as on the command line.
    std::string const voice = io::ascii::lowered(text(o, "voice", "command-line"));
    if (voice == "page")
        c.voice = report::Voice::page;
    else if (voice != "command-line") {
        error = "unknown voice '" + text(o, "voice", "") + "' (command-line or page)";
        return std::nullopt;
    }
    auto const name = [&](report::Setting s) { return std::string(setting_name(s, c.voice)); };
    std::string const to_typed = text(o, "to", "numeric");
    std::string const to = io::ascii::lowered(to_typed);
    if (to == "numeric" || to == "iccf")
        c.convert.to = notation::Notation::numeric;
    else if (to == "san")
        c.convert.to = notation::Notation::san;
    else if (to == "lan")
        c.convert.to = notation::Notation::lan;
    else {
        error = "unknown notation '" + to_typed + "' for " + name(report::Setting::to) +
                " (numeric, san or lan)";
        return std::nullopt;
    }
    std::string const lang = text(o, "lang", "en");
    c.convert.write.letters = notation::letters_for(io::ascii::lowered(lang));
    if (!c.convert.write.letters) {
        error = "unknown language '" + lang + "' for " + name(report::Setting::lang) + " (" +
                language_list() + ")";
        return std::nullopt;
    }
    std::string const input_lang = text(o, "inputLang", "en");
    std::string const input_code = io::ascii::lowered(input_lang);
    c.convert.auto_input_lang = input_code == "auto";
    c.convert.read.letters =
        c.convert.auto_input_lang ? &notation::english() : notation::letters_for(input_code);
    if (!c.convert.read.letters) {
        error = "unknown language '" + input_lang + "' for " + name(report::Setting::input_lang) +
                " (auto " + language_list() + ")";
        return std::nullopt;
    }
    int width = pgn::default_width;
    if (val const w = o["width"]; !w.isUndefined() && !w.isNull()) {
        double const d = w.as<double>();
        if (!(d >= -1e9 && d <= 1e9) || d != static_cast<double>(static_cast<int>(d))) {
            error = name(report::Setting::width) + " takes a whole number";
            return std::nullopt;
        }
        width = static_cast<int>(d);
    }
    if (!pgn::width_allowed(width)) {
        error = report::width_refusal(c.voice);
        return std::nullopt;
    }
    c.convert.width = width;
    c.convert.read.iccf_short_promotion = flag(o, "iccfShortPromotion", false);
    c.convert.fix_typos = flag(o, "fixTypos", false);
    c.convert.annotate = flag(o, "annotate", false);
    c.convert.comments = flag(o, "comments", true);
    c.convert.nags = flag(o, "nags", true);
    c.convert.variations = flag(o, "variations", true);
    c.convert.keep_broken = flag(o, "keepBroken", false);
    c.convert.strict = flag(o, "strict", false);
    c.rejects = flag(o, "rejects", true);
    return c;
}

val error_result(std::string const& message) {
    val r = val::object();
    r.set("error", message);
    return r;
}

// The diagnostics of a convert_batch call as objects, from its values (report::MessageLine):
// line, column, severity, and the text after "LINE:COL: SEVERITY: " that it worded (the
// batch's file name is empty). Lines folded away (not worded) are not shown.
void add_diagnostics(batch::ConvertedBatch const& b, val& out) {
    std::size_t begin = 0;
    for (report::MessageLine const& l : b.lines) {
        if (l.end == begin) continue; // not worded
        std::string_view const text =
            std::string_view(b.messages).substr(l.text, l.end - 1 - l.text); // less its '\n'
        val d = val::object();
        d.set("line", static_cast<double>(l.where.line));
        d.set("column", static_cast<double>(l.where.column));
        d.set("severity", std::string(l.severity == syntax::Severity::error ? "error" : "warning"));
        d.set("text", std::string(text));
        out.call<void>("push", d);
        begin = l.end;
    }
}

val run_convert(val const& input, val const& options, val const& progress) {
    std::string error;
    auto const choices = choices_of(options, error);
    if (!choices) return error_result(error);
    Bytes const bytes(input);
    auto const started = std::chrono::steady_clock::now();

    val diagnostics = val::array();
    batch::Summary sum;
    batch::ConvertedBatch result;
    // The input check of the command line (io::open_input): the first 4 KiB.
    io::Sniffed const sniffed = io::sniff(bytes.view().substr(0, 4096));
    std::uint64_t bytes_read = 0;
    sum.files = 1; // the one input, read or not
    if (!sniffed.text || sniffed.compression != io::Compression::none) {
        std::string const what = sniffed.text ? std::string(io::name(sniffed.compression)) +
                                                    " data (decompress it first)"
                                              : sniffed.looks_like;
        val d = val::object();
        d.set("line", 0);
        d.set("column", 0);
        d.set("severity", std::string("error"));
        d.set("text", "not PGN text: this looks like " + what);
        diagnostics.call<void>("push", d);
        sum.io_failure = true;
        sum.unreadable = 1;
    } else {
        MemorySource source(bytes.view());
        pgn::GameReader reader(source);
        // The output is about the size of the input (numeric and SAN moves differ by a few
        // bytes a move): room for it at once, instead of growing by doubling and copying.
        result.out.reserve(bytes.size() + bytes.size() / 4);
        pgn::Converter converter(choices->convert);
        batch::BatchSource where{"", choices->rejects};
        where.voice = choices->voice;
        pgn::GameBatch games;
        bool more = true;
        while (more) {
            games.clear();
            more = reader.next_batch(games, pgn::GameReader::default_batch_bytes,
                                     pgn::GameReader::default_batch_games);
            batch::convert_batch(games, converter, where, result);
            add_diagnostics(result, diagnostics);
            result.messages.clear();
            result.lines.clear();
            if (!progress.isUndefined() && !progress.isNull())
                progress(static_cast<double>(source.consumed()), static_cast<double>(bytes.size()));
        }
        bytes_read = reader.bytes_read();
    }
    batch::add_counts(sum, result);
    sum.bytes = bytes_read;
    sum.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();

    val summary = val::object();
    summary.set("read", static_cast<double>(sum.games));
    summary.set("converted", static_cast<double>(sum.converted));
    summary.set("rejected", static_cast<double>(sum.rejected));
    summary.set("keptBroken", static_cast<double>(sum.kept_broken));
    summary.set("moves", static_cast<double>(sum.moves));
    summary.set("errors", static_cast<double>(sum.errors));
    summary.set("warnings", static_cast<double>(sum.warnings));
    summary.set("corrected", static_cast<double>(sum.corrected));
    summary.set("bytes", static_cast<double>(sum.bytes));
    summary.set("seconds", sum.seconds);
    summary.set("exitStatus", batch::exit_status(sum));
    summary.set("line", batch::format_summary(sum));

    val r = val::object();
    r.set("output", array_of(result.out));
    r.set("rejects", array_of(result.rejects));
    r.set("diagnostics", diagnostics);
    r.set("summary", summary);
    return r;
}

val convert(val const& input, val const& options) {
    return run_convert(input, options, val::undefined());
}

val convert_with_progress(val const& input, val const& options, val const& progress) {
    return run_convert(input, options, progress);
}

// The position after the last move played whose token starts at or before `offset` (a byte
// offset into the input), in the game holding that offset; moves of a variation closed
// before the offset do not count. The replay is the converter's own (pgn::Replayer).
class CursorConsumer final : public pgn::ReplayConsumer {
public:
    explicit CursorConsumer(std::uint64_t offset) : offset_(offset) {}

    struct Seen {
        bool found = false;
        std::string fen;
        chess::Move move{};
        std::string token;
        int number = 0;
        bool white = true;
        syntax::Location where{};
        bool corrected = false; // the move is the one suggestion for a typo
    };
    Seen best;
    std::string first_fen; // the position before the first move
    bool started = false;

    void play(chess::Position& pos, chess::Move m, chess::UndoInfo& undo, int number,
              syntax::Token const& move, syntax::Token const&, bool corrected) override {
        if (!started) {
            first_fen = pos.fen();
            started = true;
        }
        bool const white = pos.side_to_move() == chess::Color::white;
        pos.do_move(m, undo);
        if (move.where.offset <= offset_) {
            best.found = true;
            best.fen = pos.fen();
            best.move = m;
            best.token = std::string(move.text);
            best.number = number;
            best.white = white;
            best.where = move.where;
            best.corrected = corrected;
        }
    }
    void begin_variation() override { saved_.push_back(best); }
    void end_variation(bool, std::uint64_t end) override {
        if (saved_.empty()) return;
        if (end != no_offset && end < offset_) best = saved_.back();
        saved_.pop_back();
    }

private:
    std::uint64_t offset_;
    std::vector<Seen> saved_;
};

val position_at(val const& input, double offset_value, val const& options) {
    std::string error;
    auto const choices = choices_of(options, error);
    if (!choices) return error_result(error);
    Bytes const bytes(input);
    auto const offset = static_cast<std::uint64_t>(std::max(0.0, offset_value));
    MemorySource source(bytes.view());
    pgn::GameReader reader(source);
    syntax::RawGame game;
    val r = val::object();
    r.set("found", false);
    while (reader.next(game)) {
        if (reader.part() != pgn::GamePart::whole) continue;
        std::uint64_t const begin = game.start.offset, end = begin + game.bytes.size();
        if (offset < begin) break;
        if (offset > end) continue;
        pgn::ReplayOptions ro;
        ro.read = choices->convert.read;
        if (choices->convert.auto_input_lang) {
            // --input-lang auto: the letters of the language the conversion reads the game in
            // (the first of its warning's group), so that the board follows a German score.
            pgn::ConvertOptions check = choices->convert;
            check.check_only = true;
            pgn::Converter converter(check);
            std::string none;
            for (pgn::Problem const& p : converter.convert(game, none).problems)
                if (p.kind == pgn::ProblemKind::read_in_another_language)
                    if (auto const* f = std::get_if<pgn::LanguageFacts>(&p.facts))
                        if (auto const* l = notation::letters_for(
                                std::string_view(f->languages).substr(0, f->languages.find(','))))
                            ro.read.letters = l;
        }
        ro.variations = true;
        // Up to a bad move, and past a typo with one suggestion (as --fix-typos reads it): the
        // board follows a typed score as far as it can be played.
        ro.keep_broken = true;
        ro.fix_typos = true;
        CursorConsumer consumer(offset);
        pgn::Replayer replayer;
        std::vector<pgn::Problem> problems;
        replayer.replay(game, ro, consumer, problems);
        r.set("game", static_cast<double>(game.number));
        // A main-line move before the offset that could not be played: the board stops there
        // (a variation cut at a bad move is a warning: the main line goes on).
        for (pgn::Problem const& p : problems) {
            if (p.kind != pgn::ProblemKind::unplayable_move || p.where.offset > offset ||
                p.severity != syntax::Severity::error)
                continue;
            auto const* f = std::get_if<pgn::MoveFacts>(&p.facts);
            if (f == nullptr || f->corrected || f->assumed) continue;
            r.set("stoppedAt", std::string(p.token));
            r.set("stoppedLine", static_cast<double>(p.where.line));
            break;
        }
        if (consumer.best.found) {
            auto const& b = consumer.best;
            r.set("found", true);
            r.set("fen", b.fen);
            r.set("token", b.token);
            r.set("number", b.number);
            r.set("white", b.white);
            r.set("corrected", b.corrected);
            r.set("line", static_cast<double>(b.where.line));
            r.set("column", static_cast<double>(b.where.column));
            if (!b.move.is_null()) {
                r.set("from", std::string(b.move.from().name()));
                r.set("to", std::string(b.move.to().name()));
            }
        } else {
            std::string fen = consumer.first_fen;
            if (fen.empty()) {
                std::string_view const tag = replayer.tags().value(pgn::TagKind::fen);
                chess::Position p;
                if (tag.empty())
                    fen = chess::Position{}.fen();
                else if (p.set_fen(tag, pgn::variant_kind(replayer.tags().value(
                                            pgn::TagKind::variant)) == "chess960")
                             .ok())
                    fen = p.fen();
            }
            // A FEN tag that is not valid: no position (the starting one would be a lie).
            if (fen.empty())
                r.set("invalidFen", true);
            else
                r.set("fen", fen);
        }
        break;
    }
    return r;
}

// What the first bytes of an input are, as the command line's input check says (io::sniff):
// {text: true} for PGN text (or a compression), else {text: false, looksLike: "a PNG image"}.
val sniff(val const& input) {
    Bytes const bytes(input);
    io::Sniffed const s = io::sniff(bytes.view().substr(0, 4096));
    val r = val::object();
    r.set("text", s.text);
    if (!s.text) r.set("looksLike", s.looks_like);
    if (s.compression != io::Compression::none)
        r.set("compression", std::string(io::name(s.compression)));
    return r;
}

val languages() {
    val list = val::array();
    for (auto const& l : notation::all_languages()) {
        val o = val::object();
        o.set("code", std::string(l.code));
        o.set("name", std::string(l.name));
        list.call<void>("push", o);
    }
    return list;
}

// The option defaults that are the library's facts (the page shows them; it keeps no copy).
val defaults() {
    val o = val::object();
    o.set("width", pgn::default_width);
    return o;
}

} // namespace

EMSCRIPTEN_BINDINGS(pgn_iccf) {
    emscripten::function("convert", &convert);
    emscripten::function("convertWithProgress", &convert_with_progress);
    emscripten::function("positionAt", &position_at);
    emscripten::function("languages", &languages);
    emscripten::function("sniff", &sniff);
    emscripten::function("defaults", &defaults);
}
