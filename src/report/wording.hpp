// The wording of every diagnostic of the replay (pgn::Problem), in one place, the one voice
// (src/report): the library finds problems, this says them, naming the settings that change
// them as the reader knows them (settings.hpp: the command line's flags, the page's controls). One
// line each, compiler style:
//   file:line:col: error: game 17 (Smith - Jones), move 12...: '6857': no piece on 68
// Input bytes reach the terminal only through terminal_safe (src/report/terminal.hpp): the file
// name (escaped, never cut), the players and the token (escaped, cut at quoted_bytes), and
// every piece of input a message quotes.
#pragma once

#include "pgn/converter.hpp"
#include "pgn/problem.hpp"
#include "report/fold.hpp"
#include "report/line.hpp"
#include "report/settings.hpp"

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace pgn_iccf::report {

// Short words for a read error ("ambiguous move").
std::string_view read_error_words(notation::ReadError e);
// A piece type's English name ("knight"); "piece" for none.
std::string_view piece_name(chess::PieceType t);

// A diagnostic of a batch's messages as values: its fold key and where its line ends in the
// text (the writer folds by key without reading the text again), its severity and place, and
// where its text after "FILE:LINE:COL: SEVERITY: " starts (see append_line). A line that is not
// worded (folded away) ends where the line before it ends.
struct MessageLine {
    FoldKey key = FoldKey::none;
    std::size_t end = 0;
    syntax::Severity severity = syntax::Severity::error;
    syntax::Location where;
    std::size_t text = 0;
};

// Appends the line of `p` (ending in '\n') to `out`. `game`: the report `p` is part of (the
// game's number).
// Returns what append_line returns.
std::size_t word(pgn::Problem const& p, pgn::GameReport const& game, std::string_view file,
                 std::string& out, Format format = Format::text, Voice voice = Voice::command_line);

// The message of `p`: the text line after the quoted token, the JSON object's "text".
std::string message(pgn::Problem const& p, Voice voice = Voice::command_line);

// The stable snake_case name of `p`'s code: its SyntaxCode's name for the grammar's
// diagnostics, else its ProblemKind's.
std::string_view code_name(pgn::Problem const& p);

// The wording of `p`'s fold key (fold.hpp): "" for an error.
std::string_view kind_of(pgn::Problem const& p);

// Every problem of `r`, in order: its line appended to `out`, its key and end to `lines`.
void word_all(pgn::GameReport const& r, std::string_view file, std::string& out,
              std::vector<MessageLine>& lines, Format format = Format::text);

} // namespace pgn_iccf::report
