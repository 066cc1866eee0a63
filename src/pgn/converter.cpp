// The Converter (converter.hpp): one game read, replayed and written, and --input-lang auto,
// which reads a game English could not play again with the letters of other languages.
#include "pgn/converter.hpp"

#include <algorithm>
#include <cstdint>

namespace pgn_iccf::pgn {

namespace {

using chess::Move;
using notation::ReadError;

// Whether letters of another language might read a token English could not play
// (--input-lang auto): a piece letter (upper-case, Cyrillic, a figurine), an unknown
// promotion letter, or a lower-case letter read as a piece. A numeric token, castling with
// zeros and a pawn move (lower-case file first, read as a pawn) read alike in every language.
bool letters_might_explain(Problem const& p) {
    MoveFacts const& f = std::get<MoveFacts>(p.facts);
    if (f.null_in_check || f.numeric) return false;
    if (f.error == ReadError::unknown_piece_letter) return true;
    if (p.token.empty()) return false;
    unsigned char const c = static_cast<unsigned char>(p.token[0]);
    if (c >= 0x80 || (c >= 'A' && c <= 'Z')) return true;
    if (c >= 'a' && c <= 'z') return c > 'h' || f.piece != chess::PieceType::pawn;
    return false;
}

ExportOptions export_options(ConvertOptions const& o) {
    ExportOptions e{o.to, o.write, o.annotate, o.comments, o.nags, o.width};
    if (!e.write.letters) e.write.letters = &notation::english();
    return e;
}

} // namespace

Converter::Converter(ConvertOptions const& options)
    : opt_(options),
      base_letters_(options.auto_input_lang || !options.read.letters ? &notation::english()
                                                                     : options.read.letters),
      export_(export_options(options)) {
    replay_.read = opt_.read;
    replay_.read.letters = base_letters_;
    replay_.comments = opt_.comments;
    replay_.variations = opt_.variations;
    replay_.keep_broken = opt_.keep_broken;
    replay_.strict = opt_.strict;
    replay_.fix_typos = opt_.fix_typos;
}

void Converter::MoveRecorder::move(chess::Position& pos, Move m, int number, syntax::Token move,
                                   syntax::Token, bool) {
    if (moves.size() == capture_at) {
        // The first move two languages read differently (choose_language).
        captured.where = move.where;
        captured.token.assign(move.text);
        captured.move_number = number;
        captured.side = pos.side_to_move();
        LanguageFacts& f = captured.facts.emplace<LanguageFacts>();
        f.read_as = named(pos, m);
        f.other_read_as = other.ok() ? named(pos, other) : NamedMove{};
    }
    moves.push_back(m);
}

void Converter::Failure::note(chess::Position const& at, Problem const& p) {
    if (!failed) {
        failed = true;
        where = p.where;
        token.assign(p.token);
        number = p.move_number;
        pos = at;
    }
    if (letters_might_explain(p)) letters = true;
}

// One reading of the game with `letters`; report_ holds what it found. Pass::output: into the
// export writer, or with check_only into check_, which builds nothing (the replay is then
// silent); Pass::record: into recorder_.
void Converter::pass(syntax::RawGame const& game, notation::Letters const* letters, Pass kind) {
    report_.problems.clear();
    replay_.read.letters = letters;
    bool const check = kind == Pass::output && opt_.check_only;
    replay_.silent = check;
    ReplayConsumer& consumer = kind == Pass::record ? static_cast<ReplayConsumer&>(recorder_)
                               : check              ? static_cast<ReplayConsumer&>(check_)
                                                    : export_;
    replayer_.replay(game, replay_, consumer, report_.problems);
}

GameReport Converter::convert(syntax::RawGame const& game, std::string& out) {
    report_ = GameReport{};
    pass(game, base_letters_, Pass::output);
    Failure const& en = opt_.check_only ? check_.failure : export_.failure;
    bool disagree = false;
    if (opt_.auto_input_lang && en.letters) disagree = choose_language(game, en);

    report_.moves = replayer_.moves();
    report_.errors += replayer_.errors();
    report_.warnings += replayer_.warnings();
    report_.corrected = replayer_.corrected();
    report_.game = game.number;
    if (replayer_.rejected() || disagree) {
        report_.status = GameStatus::rejected;
        report_.corrected = 0; // nothing of the game is written
    } else {
        if (report_.errors > 0) report_.status = GameStatus::kept_broken;
        if (!opt_.check_only)
            export_.write(out, replayer_.tags(), replayer_.termination(), replayer_.chess960());
    }
    // In the order of the input: a problem found after those behind it (a variation without a
    // move, known at its ')'; the language chosen after a first reading) goes to its place.
    auto const earlier = [](Problem const& a, Problem const& b) {
        return a.where.offset < b.where.offset;
    };
    if (!std::is_sorted(report_.problems.begin(), report_.problems.end(), earlier))
        std::stable_sort(report_.problems.begin(), report_.problems.end(), earlier);
    constexpr std::size_t keep = std::size_t{1} << 20; // a few hundred normal games' worth
    release_if_above(recorder_.moves, keep);
    export_.release_buffers(keep);
    return std::move(report_);
}

struct Converter::Group {
    std::vector<notation::Letters const*> languages;
    std::vector<Move> moves;
};

namespace {

// The codes of a group's languages, in table order.
template <class Group>
std::string codes(Group const& g) {
    std::string s;
    for (auto const* l : g.languages) {
        if (!s.empty()) s.append(", ");
        s.append(l->code);
    }
    return s;
}

} // namespace

// --input-lang auto. The English pass could not play a move whose letters another language
// might read. Every other language is tried, but for those that do not know a letter of
// that move (their reading would fail there) and those with the same letters as one tried
// already (the same reading, not read again); the passes that play every move
// are grouped by the moves they play. One group: the game is read in its first language
// (table order), with a warning naming the group. None: the English reading stands, with
// its diagnostics, unless another language's reading played more moves before failing: then
// that reading's diagnostics stand, the first error naming its language (ties: table order,
// English first). Two or more: the game is rejected, naming the first two groups and the
// first move they read differently. The writer is refilled by a last pass in the language
// chosen, so nothing of a failed attempt is written and no diagnostic is counted twice.
// Returns whether the game is rejected for two readings (report_ then holds that error).
// (`en` is a copy: the last pass refills the consumer it came from.)
bool Converter::choose_language(syntax::RawGame const& game, Failure en) {
    std::vector<Group> groups;
    auto const languages = notation::all_languages();
    // Per language of the table: the group its reading joined, -1 if it failed, -2 untried.
    std::vector<int> result(languages.size(), -2);
    notation::ReadOptions probe = replay_.read;
    // If no reading plays every move: the one that played the most (ties: table order,
    // English first), whose diagnostics are reported. Moves played per language (0: untried).
    std::vector<std::uint64_t> played(languages.size(), 0);
    notation::Letters const* furthest = &notation::english();
    std::uint64_t furthest_moves = replayer_.moves();
    for (std::size_t i = 0; i < languages.size(); ++i) {
        notation::Letters const& l = languages[i];
        if (&l == &notation::english() || l.figurine) continue;
        for (std::size_t j = 0; j < i && result[i] == -2; ++j)
            if (result[j] != -2 && languages[j].letter == l.letter) {
                result[i] = result[j];
                played[i] = played[j];
            }
        // A letter unknown in this language is unknown in every position: the reading would
        // fail at that token (or earlier), so it is not tried.
        probe.letters = &l;
        if (result[i] == -2 &&
            notation::read_move(en.pos, en.token, probe).error == ReadError::unknown_piece_letter)
            result[i] = -1;
        if (result[i] == -2) {
            pass(game, &l, Pass::record);
            result[i] = -1;
            played[i] = replayer_.moves();
            if (recorder_.failure.failed && replayer_.moves() > furthest_moves) {
                furthest = &l;
                furthest_moves = replayer_.moves();
            }
            if (!recorder_.failure.failed) {
                for (std::size_t g = 0; g < groups.size() && result[i] < 0; ++g)
                    if (groups[g].moves == recorder_.moves) result[i] = int(g);
                if (result[i] < 0) {
                    result[i] = int(groups.size());
                    groups.push_back({{}, recorder_.moves});
                }
            }
        }
        if (result[i] >= 0) groups[std::size_t(result[i])].languages.push_back(&l);
    }
    if (groups.size() >= 2) {
        disagree(game, groups[0], groups[1]);
        return true;
    }
    pass(game, groups.empty() ? furthest : groups[0].languages.front(), Pass::output);
    if (groups.empty() && furthest != &notation::english()) {
        // Another language read further than English: its diagnostics stand, the first error
        // saying so.
        std::string furthest_codes; // every language whose reading went as far (table order)
        for (std::size_t i = 0; i < languages.size(); ++i)
            if (result[i] == -1 && played[i] == furthest_moves) {
                if (!furthest_codes.empty()) furthest_codes.append(", ");
                furthest_codes.append(languages[i].code);
            }
        for (Problem& p : report_.problems)
            if (p.severity == syntax::Severity::error) {
                p.read_furthest = std::move(furthest_codes);
                p.furthest_moves = furthest_moves;
                break;
            }
    }
    if (groups.size() == 1) {
        // First among the game's diagnostics: it says how the others were found.
        Problem p;
        p.kind = ProblemKind::read_in_another_language;
        p.severity = syntax::Severity::warning;
        p.where = en.where;
        p.token.assign(en.token);
        p.move_number = en.number;
        p.side = en.pos.side_to_move();
        p.white = replayer_.tags().value(TagKind::white);
        p.black = replayer_.tags().value(TagKind::black);
        p.facts = LanguageFacts{codes(groups[0]), {}, {}, {}};
        report_.problems.insert(report_.problems.begin(), std::move(p));
        ++report_.warnings;
    }
    return false;
}

// Two groups of readings play every move, differently: the game is rejected, naming both and
// the first move they read differently. Every reading played every move, so both reach that
// token: captured there by a last pass in the first group's first language.
void Converter::disagree(syntax::RawGame const& game, Group const& a, Group const& b) {
    std::size_t at = 0;
    while (at < a.moves.size() && at < b.moves.size() && a.moves[at] == b.moves[at]) ++at;
    recorder_.capture_at = at;
    recorder_.other = at < b.moves.size() ? b.moves[at] : Move{};
    recorder_.captured = Problem{};
    recorder_.captured.facts = LanguageFacts{};
    pass(game, a.languages.front(), Pass::record);
    recorder_.capture_at = SIZE_MAX;
    Problem p = std::move(recorder_.captured);
    p.kind = ProblemKind::languages_disagree;
    p.severity = syntax::Severity::error;
    p.white = replayer_.tags().value(TagKind::white);
    p.black = replayer_.tags().value(TagKind::black);
    LanguageFacts& f = std::get<LanguageFacts>(p.facts);
    f.languages = codes(a);
    f.other_languages = codes(b);
    report_.problems.push_back(std::move(p));
    ++report_.errors;
}

} // namespace pgn_iccf::pgn
