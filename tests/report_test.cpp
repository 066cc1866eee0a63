// src/report, the one voice (issue K): every code a lower layer reports has its words, its
// machine name and a fold key (loops over every enum value, as chess_test does for every
// Move), and the JSON shape of --diagnostics=json escapes every byte into valid JSON.
#define BOOST_TEST_MODULE report
#include <boost/test/unit_test.hpp>

#include "report/codes.hpp"
#include "report/fold.hpp"
#include "report/line.hpp"
#include "report/wording.hpp"

#include <cstddef>
#include <set>
#include <string>
#include <string_view>
#include <vector>

using namespace pgn_iccf;

namespace {

bool snake_case(std::string_view s) {
    if (s.empty() || s.front() == '_' || s.back() == '_') return false;
    for (char c : s)
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
    return true;
}

std::string json(std::string_view bytes) {
    std::string s;
    report::append_json_string(s, bytes);
    return s;
}

} // namespace

BOOST_AUTO_TEST_CASE(every_syntax_code_is_worded_named_and_folded) {
    std::set<std::string_view> names;
    for (std::size_t i = 0; i < std::size_t(syntax::SyntaxCode::count); ++i) {
        auto const code = syntax::SyntaxCode(i);
        BOOST_TEST_CONTEXT("SyntaxCode " << i) {
            BOOST_TEST(!report::syntax_message(code, "x", {0, 3, 4}, 512).empty());
            BOOST_TEST(!report::syntax_kind(code).empty());
            auto const name = report::syntax_code_name(code);
            BOOST_TEST(snake_case(name), name);
            BOOST_TEST(names.insert(name).second, "two codes named " << name);
            BOOST_TEST(report::fold_name(report::fold_key(code)) == name);
            BOOST_TEST(!report::fold_wording(report::fold_key(code)).empty());
        }
    }
}

BOOST_AUTO_TEST_CASE(every_fen_code_is_worded_and_named) {
    std::set<std::string_view> names;
    for (std::size_t i = 0; i < std::size_t(chess::FenCode::count); ++i) {
        auto const code = chess::FenCode(i);
        BOOST_TEST_CONTEXT("FenCode " << i) {
            auto const name = report::fen_code_name(code);
            BOOST_TEST(snake_case(name), name);
            BOOST_TEST(names.insert(name).second, "two codes named " << name);
            // ok, and only ok, has no words.
            BOOST_TEST(report::fen_message({code, 3, "x"}).empty() == (code == chess::FenCode::ok));
        }
    }
}

// The words of the move reader's errors and of the piece types (in the messages of
// unreadable and unplayable moves): every value has its own.
BOOST_AUTO_TEST_CASE(every_read_error_and_piece_type_has_its_words) {
    std::set<std::string_view> words;
    for (int e = 0; e <= int(notation::ReadError::wrong_color); ++e)
        BOOST_TEST_CONTEXT("ReadError " << e) {
            auto const w = report::read_error_words(notation::ReadError(e));
            BOOST_TEST((!w.empty() && w != "?"));
            BOOST_TEST(words.insert(w).second, "two errors worded " << w);
        }
    BOOST_TEST(report::read_error_words(notation::ReadError::ambiguous) == "ambiguous move");
    std::set<std::string_view> names;
    for (int t = 0; t <= int(chess::PieceType::king); ++t)
        BOOST_TEST(names.insert(report::piece_name(chess::PieceType(t))).second);
    BOOST_TEST(report::piece_name(chess::PieceType::knight) == "knight");
    BOOST_TEST(report::piece_name(chess::PieceType::none) == "piece");
}

BOOST_AUTO_TEST_CASE(every_problem_kind_is_worded_named_and_folded) {
    std::set<std::string_view> names;
    for (std::size_t i = 0; i < std::size_t(pgn::ProblemKind::count); ++i) {
        auto const kind = pgn::ProblemKind(i);
        BOOST_TEST_CONTEXT("ProblemKind " << i) {
            auto const name = report::problem_kind_name(kind);
            BOOST_TEST(snake_case(name), name);
            BOOST_TEST(names.insert(name).second, "two kinds named " << name);
            BOOST_TEST(report::fold_name(report::fold_key(kind)) == name);
            BOOST_TEST(!report::fold_wording(report::fold_key(kind)).empty());
            pgn::Problem p;
            p.kind = kind;
            p.facts = pgn::facts_of(kind);
            if (auto* move = std::get_if<pgn::MoveFacts>(&p.facts))
                move->error = notation::ReadError::invalid_syntax;
            p.severity = syntax::Severity::warning;
            BOOST_TEST(!report::message(p).empty());
            // A warning folds under a key; an error never does.
            BOOST_TEST((report::fold_key(p) != report::FoldKey::none));
            p.severity = syntax::Severity::error;
            BOOST_TEST((report::fold_key(p) == report::FoldKey::none));
        }
    }
    // PlanCode (src/plan, issue K): its loop goes here when the plan reports codes.
}

// Every key has its own name and words; none has neither.
BOOST_AUTO_TEST_CASE(fold_keys_are_distinct) {
    BOOST_TEST(report::fold_name(report::FoldKey::none).empty());
    BOOST_TEST(report::fold_wording(report::FoldKey::none).empty());
    std::set<std::string_view> names;
    for (std::size_t i = 1; i < report::fold_key_count; ++i) {
        auto const key = report::FoldKey(i);
        BOOST_TEST_CONTEXT("FoldKey " << i) {
            BOOST_TEST(!report::fold_wording(key).empty());
            BOOST_TEST(names.insert(report::fold_name(key)).second);
        }
    }
    BOOST_TEST(report::fold_name(report::typo_corrected) == "typo_corrected");
    BOOST_TEST(report::fold_name(report::text_between_games) == "text_between_games");
}

// The two spellings of a forfeit (movetext, Result tag) were always one kind: still one key.
BOOST_AUTO_TEST_CASE(forfeit_results_fold_together) {
    pgn::Problem movetext, tag;
    movetext.severity = tag.severity = syntax::Severity::warning;
    movetext.kind = pgn::ProblemKind::syntax;
    movetext.facts = pgn::SyntaxFacts{syntax::SyntaxCode::forfeit_result, 0};
    tag.kind = pgn::ProblemKind::forfeit_result_tag;
    BOOST_TEST((report::fold_key(movetext) == report::fold_key(tag)));
    BOOST_TEST(report::kind_of(tag) == "forfeit result");
}

// Expected strings written by hand from RFC 8259 and the rule of line.hpp.
BOOST_AUTO_TEST_CASE(json_strings) {
    BOOST_TEST(json("") == "\"\"");
    BOOST_TEST(json("Nf3") == "\"Nf3\"");
    BOOST_TEST(json("a\"b\\c") == "\"a\\\"b\\\\c\"");
    BOOST_TEST(json("\n\r\t") == "\"\\n\\r\\t\"");
    BOOST_TEST(json(std::string_view("\x00\x1b\x7f", 3)) == "\"\\u0000\\u001b\\u007f\"");
    // Valid UTF-8 as is: ü, a figurine knight, an emoji (4 bytes).
    BOOST_TEST(json("M\xC3\xBCller \xE2\x99\x98 \xF0\x9F\x98\x80") ==
               "\"M\xC3\xBCller \xE2\x99\x98 \xF0\x9F\x98\x80\"");
    // Line separators, which some JavaScript readers take for line ends.
    BOOST_TEST(json("\xE2\x80\xA8\xE2\x80\xA9") == "\"\\u2028\\u2029\"");
    // Not UTF-8: each byte read as Latin-1 (a Latin-1 file's "Müller").
    BOOST_TEST(json("M\xFCller") == "\"M\\u00fcller\"");
    BOOST_TEST(json("\x9b[1m") == "\"\\u009b[1m\"");
    // Overlong, surrogate, past U+10FFFF, cut short: byte by byte.
    BOOST_TEST(json("\xC0\x80") == "\"\\u00c0\\u0080\"");
    BOOST_TEST(json("\xED\xA0\x80") == "\"\\u00ed\\u00a0\\u0080\"");
    BOOST_TEST(json("\xF4\x90\x80\x80") == "\"\\u00f4\\u0090\\u0080\\u0080\"");
    BOOST_TEST(json("\xE2\x99") == "\"\\u00e2\\u0099\"");
}

BOOST_AUTO_TEST_CASE(one_line_two_shapes) {
    auto const text_of = [](std::string_view s) {
        notation::MoveText t;
        for (char c : s) t.data[t.size++] = c;
        return t;
    };
    std::vector<pgn::NamedMove> suggestions{{text_of("5254"), text_of("e4")}};
    report::Line l;
    l.file = "a.pgn";
    l.where = {10, 3, 7};
    l.game = 2;
    l.white = "Sm\\\"ith";
    l.move_number = 12;
    l.side = chess::Color::black;
    l.token = "5255";
    l.code = "unplayable_move";
    l.text = "no piece on 52; did you mean 5254 (e4)?";
    l.suggestions = &suggestions;
    std::string text, js;
    report::append_line(text, l, report::Format::text);
    report::append_line(js, l, report::Format::json);
    BOOST_TEST(text ==
               "a.pgn:3:7: error: game 2 (Sm\"ith - ?), move 12...: '5255': no piece on 52; "
               "did you mean 5254 (e4)?\n");
    BOOST_TEST(js == "{\"file\":\"a.pgn\",\"line\":3,\"column\":7,\"severity\":\"error\","
                     "\"code\":\"unplayable_move\",\"game\":2,\"players\":{\"white\":\"Sm\\\"ith\","
                     "\"black\":\"\"},\"move\":\"12...\",\"token\":\"5255\",\"text\":\"no piece on "
                     "52; did you mean 5254 (e4)?\",\"suggestions\":[{\"numeric\":\"5254\",\"san\":"
                     "\"e4\"}]}\n");
}
