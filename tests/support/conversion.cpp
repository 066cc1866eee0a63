// The conversion properties of properties.hpp, the decoding of fuzz inputs into options, and
// the dispatch of the fuzz targets.
#include "support/detail.hpp"
#include "support/properties.hpp"

#include "grammar/parse.hpp"
#include "io/source.hpp"
#include "pgn/game_reader.hpp"
#include "report/codes.hpp"
#include "report/wording.hpp"

#include <algorithm>
#include <array>
#include <vector>

namespace pgn_iccf::properties {

namespace {

using namespace detail;
using chess::Move;
using chess::MoveList;
using chess::Position;
using chess::UndoInfo;
using notation::Notation;
using notation::ReadError;
using pgn::ConvertOptions;
using pgn::GameStatus;

struct Game {
    GameStatus status = GameStatus::converted;
    std::uint64_t moves = 0;
    int errors = 0;
};

struct Run {
    std::string out;
    std::string messages;
    std::vector<report::MessageLine> lines;
    std::vector<Game> games;
    std::string io_error;
    std::uint64_t bytes_read = 0;
};

Run convert(std::string_view bytes, ConvertOptions const& options, std::size_t chunk) {
    Run run;
    auto source = io::open_memory(bytes);
    pgn::GameReader reader(*source, chunk);
    pgn::Converter converter(options);
    syntax::RawGame g;
    while (reader.next(g)) {
        if (pgn::is_text(reader.part())) continue; // text between games: no game
        pgn::GameReport const r = converter.convert(g, run.out);
        report::word_all(r, "fuzz.pgn", run.messages, run.lines);
        run.games.push_back({r.status, r.moves, r.errors});
    }
    run.io_error = reader.io_error();
    run.bytes_read = reader.bytes_read();
    return run;
}

std::string_view status_name(GameStatus s) {
    switch (s) {
    case GameStatus::converted:
        return "converted";
    case GameStatus::rejected:
        return "rejected";
    case GameStatus::kept_broken:
        return "kept broken";
    }
    return "?";
}

// The line of the run's first error (by its severity, not its text), for failure messages.
std::string first_error(Run const& run) {
    std::size_t begin = 0;
    for (auto const& l : run.lines) {
        if (l.severity == syntax::Severity::error && l.end > begin)
            return run.messages.substr(begin, l.end - begin - 1); // without its '\n'
        begin = l.end;
    }
    return {};
}

// Whether the run warns about a result (a Result tag that is not a result, or one that the
// movetext's result contradicts), by the warnings' kinds.
bool warns_about_a_result(Run const& run) {
    return std::any_of(run.lines.begin(), run.lines.end(), [](report::MessageLine const& l) {
        return l.key == report::fold_key(pgn::ProblemKind::result_tag_not_result) ||
               l.key == report::fold_key(pgn::ProblemKind::result_differs);
    });
}

bool iequals(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        auto const x = static_cast<unsigned char>(a[i]), y = static_cast<unsigned char>(b[i]);
        if ((x >= 'A' && x <= 'Z' ? x + 32 : x) != (y >= 'A' && y <= 'Z' ? y + 32 : y))
            return false;
    }
    return true;
}

// An independent replay of our output: every move token must read (in the output's
// letters) as a move that generate_legal lists, null moves only when not in check, every
// variation after a move; the setup comes from the FEN and Variant tags.
class Replayer final : public parser::Visitor {
public:
    explicit Replayer(notation::Letters const* letters) { options_.letters = letters; }

    std::string failure;
    std::uint64_t moves = 0;

    bool begin_game(syntax::RawGame const&) override {
        fen_.clear();
        variant_.clear();
        has_fen_ = has_variant_ = false;
        stack_.clear();
        has_last_ = false;
        return failure.empty();
    }
    // The first FEN and Variant tags, any letter case, as the converter reads them.
    void tag(syntax::Token const& name, syntax::Token const& value) override {
        if (!has_fen_ && iequals(name.text, "FEN")) {
            parser::unescape_tag_value(value.text, fen_);
            has_fen_ = true;
        }
        if (!has_variant_ && iequals(name.text, "Variant")) {
            parser::unescape_tag_value(value.text, variant_);
            has_variant_ = true;
        }
    }
    void begin_movetext() override {
        bool const chess960 = pgn::variant_kind(variant_) == "chess960";
        std::string error;
        if (fen_.empty()) {
            cur_ = Position{};
            cur_.set_chess960(chess960);
        } else if (!(error = pgn_iccf::report::fen_message(cur_.set_fen(fen_, chess960))).empty()) {
            fail(cat("our FEN ", fen_, " is refused: ", error));
        }
    }
    void move(syntax::Token const& move, syntax::Token const&) override {
        if (!failure.empty()) return;
        Move m;
        if (move.text == "--") {
            if (cur_.in_check())
                return fail(cat("our null move at ", show(move.where), " in check"));
            m = Move::null_move();
        } else {
            notation::ReadResult const r = notation::read_move(cur_, move.text, options_);
            if (r.error != ReadError::none)
                return fail(cat("our move ", show(move.text), " at ", show(move.where), " in ",
                                cur_.fen(), " does not read: ", report::read_error_words(r.error)));
            MoveList legal;
            cur_.generate_legal(legal);
            if (!legal.contains(r.move))
                return fail(cat("our move ", show(move.text), " at ", show(move.where), " in ",
                                cur_.fen(), " is not legal"));
            m = r.move;
        }
        before_ = cur_;
        UndoInfo u;
        cur_.do_move(m, u);
        has_last_ = true;
        ++moves;
    }
    bool begin_variation(syntax::Token const& open) override {
        if (!failure.empty()) return false;
        if (!has_last_) {
            fail(cat("our variation at ", show(open.where), " follows no move"));
            return false;
        }
        stack_.push_back({cur_, before_});
        cur_ = before_;
        has_last_ = false;
        return true;
    }
    void end_variation(syntax::Token const&) override {
        if (!failure.empty() || stack_.empty()) return;
        cur_ = stack_.back().cur;
        before_ = stack_.back().before;
        stack_.pop_back();
        has_last_ = true;
    }
    void diagnostic(syntax::Diagnostic const& d) override {
        if (d.severity == syntax::Severity::error)
            fail(cat("our output has a syntax error at ", show(d.where), ": ",
                     report::syntax_code_name(d.code)));
    }

private:
    struct Frame {
        Position cur, before;
    };
    void fail(std::string why) {
        if (failure.empty()) failure = std::move(why);
    }

    notation::ReadOptions options_;
    std::string fen_, variant_;
    bool has_fen_ = false, has_variant_ = false;
    Position cur_, before_;
    bool has_last_ = false;
    std::vector<Frame> stack_;
};

// The options for reading our own output: everything kept (the first pass filtered
// already), nothing added, strict, in the letters it was written in.
ConvertOptions reading_back(ConvertOptions o) {
    o.annotate = false;
    o.comments = o.nags = o.variations = true;
    o.keep_broken = false;
    o.check_only = false;
    o.read = {};
    o.read.letters = o.write.letters;
    o.auto_input_lang = false; // English first would read French "Re2" as a rook move
    o.fix_typos = false;
    return o;
}

} // namespace

std::string check_conversion(std::string_view bytes, ConvertOptions const& options,
                             ConversionStats* stats) {
    Rng rng(seed_of(bytes) ^ 0x5DEECE66DULL);
    std::size_t const chunk = 64 + rng.below(8000);
    SplitStats split;
    if (auto f = check_split(bytes, &split); !f.empty()) return "split: " + f;
    Run const first = convert(bytes, options, chunk);
    if (!first.io_error.empty() || first.bytes_read != bytes.size())
        return cat("the conversion read ", first.bytes_read, " of ", bytes.size(), " bytes");

    // Every game read is converted, rejected or kept broken, as many as the splitter finds.
    ConversionStats s;
    s.games = first.games.size();
    std::uint64_t written_moves = 0;
    for (std::size_t i = 0; i < first.games.size(); ++i) {
        Game const& g = first.games[i];
        std::string const what = cat("game ", i + 1, " (", status_name(g.status), ")");
        switch (g.status) {
        case GameStatus::converted:
            ++s.converted;
            if (g.errors != 0) return cat(what, " has ", g.errors, " errors");
            written_moves += g.moves;
            break;
        case GameStatus::rejected:
            ++s.rejected;
            if (g.errors == 0) return cat(what, " has no error");
            break;
        case GameStatus::kept_broken:
            ++s.kept_broken;
            if (g.errors == 0 || !options.keep_broken)
                return cat(what, " with ", g.errors, " errors, --keep-broken ",
                           options.keep_broken);
            written_moves += g.moves;
            break;
        default:
            return cat(what, ": unknown status ", int(g.status));
        }
        s.moves += g.moves;
    }
    if (s.games != split.games)
        return cat(s.games, " games converted, the splitter finds ", split.games);
    if (s.converted + s.rejected + s.kept_broken != s.games)
        return cat(s.games, " games read != ", s.converted, " converted + ", s.rejected,
                   " rejected + ", s.kept_broken, " kept broken");
    std::uint64_t const written = s.converted + s.kept_broken;

    // --check: the same verdicts and diagnostics, no output.
    ConvertOptions check = options;
    check.check_only = true;
    Run const checked = convert(bytes, check, 64 + rng.below(8000));
    if (!checked.out.empty()) return "--check wrote output";
    if (checked.messages != first.messages)
        return cat("--check reports differently: ", show(checked.messages), " vs ",
                   show(first.messages));
    for (std::size_t i = 0; i < first.games.size(); ++i)
        if (checked.games.at(i).status != first.games[i].status ||
            checked.games[i].moves != first.games[i].moves)
            return cat("--check: game ", i + 1, " is ", status_name(checked.games[i].status));

    // Our output reads back: no error, as many games, the same bytes again.
    ConvertOptions const back = reading_back(options);
    Run const again = convert(first.out, back, 64 + rng.below(8000));
    // By the counts, not by the text: a quoted player name may hold ": error: ".
    for (std::size_t i = 0; i < again.games.size(); ++i)
        if (again.games[i].errors != 0)
            return cat("our output does not read back: game ", i + 1, " has ",
                       again.games[i].errors, " errors: ", first_error(again));
    // Nor with a warning that the input did not have: the Result tag and the marker agree.
    if (warns_about_a_result(again) && !warns_about_a_result(first))
        return cat("our output reads back with a result warning: ", show(again.messages));
    if (again.games.size() != written)
        return cat("our output reads back as ", again.games.size(), " games, not ", written);
    if (again.out != first.out) {
        std::size_t d = 0;
        while (d < again.out.size() && d < first.out.size() && again.out[d] == first.out[d]) ++d;
        return cat("our output converted again differs at byte ", d, ": ",
                   show(std::string_view(first.out).substr(d, 40)), " became ",
                   show(std::string_view(again.out).substr(d, 40)));
    }

    // Nothing illegal was written: an independent replay of every game of our output.
    Replayer replay(options.write.letters ? options.write.letters : &notation::english());
    auto source = io::open_memory(first.out);
    pgn::GameReader reader(*source);
    syntax::RawGame g;
    while (reader.next(g)) {
        parser::parse_game(g, replay);
        if (!replay.failure.empty()) return cat("output game ", g.number, ": ", replay.failure);
    }
    if (replay.moves != written_moves)
        return cat("our output holds ", replay.moves, " moves; ", written_moves, " were reported");

    // SAN -> numeric -> SAN (or LAN) gives the bytes of SAN -> SAN.
    if (!options.annotate) {
        ConvertOptions direct = options;
        if (direct.to == Notation::numeric) direct.to = Notation::san;
        ConvertOptions to_numeric = options;
        to_numeric.to = Notation::numeric;
        ConvertOptions from_numeric = reading_back(direct);
        from_numeric.read = {};
        Run const a = options.to == direct.to ? first : convert(bytes, direct, chunk);
        Run const n = options.to == Notation::numeric ? first : convert(bytes, to_numeric, chunk);
        Run const b = convert(n.out, from_numeric, chunk);
        if (a.out != b.out) {
            std::size_t d = 0;
            while (d < a.out.size() && d < b.out.size() && a.out[d] == b.out[d]) ++d;
            return cat("via numeric differs at byte ", d, ": ",
                       show(std::string_view(a.out).substr(d, 40)), " vs ",
                       show(std::string_view(b.out).substr(d, 40)));
        }
    }
    if (stats) *stats = s;
    return {};
}

ConvertOptions options_from(std::string_view& bytes) {
    std::array<std::uint8_t, 3> b{};
    bool english_input = false;
    bool auto_input = false, fix_typos = false;
    if (bytes.size() >= 4 && static_cast<unsigned char>(bytes[0]) < 0x08) {
        // The first byte: 2 = --input-lang auto, 4 = --fix-typos (1 chooses nothing).
        auto_input = (bytes[0] & 2) != 0;
        fix_typos = (bytes[0] & 4) != 0;
        for (std::size_t i = 0; i < 3; ++i) b[i] = static_cast<std::uint8_t>(bytes[i + 1]);
        bytes.remove_prefix(4);
    } else {
        std::uint64_t const h = seed_of(bytes);
        for (std::size_t i = 0; i < 3; ++i) b[i] = static_cast<std::uint8_t>(h >> (8 * i));
        english_input = ((h >> 40) & 3U) != 0;
        auto_input = ((h >> 42) & 3U) == 0; // one seed in four each
        fix_typos = ((h >> 44) & 3U) == 0;
    }
    constexpr std::array<Notation, 4> to = {Notation::numeric, Notation::san, Notation::lan,
                                            Notation::numeric};
    constexpr std::array<int, 8> widths = {pgn::default_width, 0, 1, 12, 40, 79, 100, 255};
    auto const languages = notation::all_languages();
    ConvertOptions o;
    o.to = to[b[0] & 3U];
    o.keep_broken = (b[0] & 4U) != 0;
    o.annotate = (b[0] & 8U) != 0;
    o.comments = (b[0] & 16U) == 0;
    o.nags = (b[0] & 32U) == 0;
    o.variations = (b[0] & 64U) == 0;
    o.read.iccf_short_promotion = (b[0] & 128U) != 0;
    o.width = widths[b[1] & 7U];
    o.read.letters = english_input ? &notation::english()
                                   : &languages[std::size_t(b[1] >> 3) % languages.size()];
    o.write.letters = &languages[b[2] % languages.size()];
    o.auto_input_lang = auto_input;
    if (auto_input) o.read.letters = &notation::english();
    o.fix_typos = fix_typos;
    return o;
}

std::string check_conversion_input(std::string_view bytes) {
    ConvertOptions const o = options_from(bytes);
    std::string f = check_conversion(bytes, o);
    if (f.empty()) return f;
    return cat("to ", int(o.to), ", keep-broken ", o.keep_broken, ", annotate ", o.annotate,
               ", comments ", o.comments, ", nags ", o.nags, ", variations ", o.variations,
               ", short promotion ", o.read.iccf_short_promotion, ", width ", o.width, ", input ",
               o.auto_input_lang ? "auto" : o.read.letters->code, ", output ",
               o.write.letters->code, ", fix typos ", o.fix_typos, ": ", f);
}

namespace {
constexpr std::array<Target, 8> targets = {Target::split,      Target::grammar, Target::move,
                                           Target::fen,        Target::convert, Target::decoder,
                                           Target::compressed, Target::plan};
} // namespace

std::span<Target const> all_targets() { return targets; }

std::string_view name(Target t) {
    switch (t) {
    case Target::split:
        return "split";
    case Target::grammar:
        return "grammar";
    case Target::move:
        return "move";
    case Target::fen:
        return "fen";
    case Target::convert:
        return "convert";
    case Target::decoder:
        return "decoder";
    case Target::compressed:
        return "compressed";
    case Target::plan:
        return "plan";
    }
    return "?";
}

std::string check_input(Target t, std::string_view bytes) {
    switch (t) {
    case Target::split:
        return check_split(bytes);
    case Target::grammar:
        return check_grammar(bytes);
    case Target::move:
        return check_move_input(bytes);
    case Target::fen:
        return check_fen_input(bytes);
    case Target::convert:
        return check_conversion_input(bytes);
    case Target::decoder:
        return check_decoder_input(bytes);
    case Target::compressed:
        return check_compressed_input(bytes);
    case Target::plan:
        return check_plan_input(bytes);
    }
    return "unknown target";
}

} // namespace pgn_iccf::properties
