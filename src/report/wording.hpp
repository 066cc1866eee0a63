// The wording of every diagnostic of the replay (pgn::Problem), in one place, the one voice
// (src/report): the library finds problems, this says them, naming the command-line flags that
// change them. One line each, compiler style:
//   file:line:col: error: game 17 (Smith - Jones), move 12...: '6857': no piece on 68
// Input bytes reach the terminal only through terminal_safe (src/report/terminal.hpp): the file
// name (escaped, never cut), the players and the token (escaped, cut at quoted_bytes), and
// every piece of input a message quotes.
#pragma once

#include "pgn/converter.hpp"
#include "pgn/problem.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace pgn_iccf::report {

// Appends the line of `p` (ending in '\n') to `out`. `game`: the report `p` is part of (the
// game's number).
void word(pgn::Problem const& p, pgn::GameReport const& game, std::string_view file,
          std::string& out);

// The kind of a warning: a short fixed wording shared by every warning of its kind, by which
// a run folds repeated warnings (a string literal); empty for an error.
std::string_view kind_of(pgn::Problem const& p);

// Every problem of `r`, in order: its line appended to `out` and its kind to `kinds`.
void word_all(pgn::GameReport const& r, std::string_view file, std::string& out,
              std::vector<std::string_view>& kinds);

} // namespace pgn_iccf::report
