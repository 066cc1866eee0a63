// The wording of the codes the lower layers report instead of words: the grammar's
// SyntaxCode (grammar/syntax.hpp) and the FEN reader's FenError (chess/position.hpp). Plain text,
// not yet made safe for the terminal: the callers quote it through terminal.hpp (wording.cpp).
#pragma once

#include "chess/position.hpp"
#include "grammar/syntax.hpp"

#include <cstdint>
#include <string>
#include <string_view>

namespace pgn_iccf::report {

// The message of a grammar diagnostic, after its quoted token: `token` and `where` as the
// Diagnostic has them (a message may quote the token or a part of it, or name the place),
// `limit` its Diagnostic::limit. Raw input bytes: quote with append_terminal_safe_message.
std::string syntax_message(syntax::SyntaxCode code, std::string_view token, syntax::Location where,
                           std::uint32_t limit);

// The short fixed wording shared by every diagnostic of the code, by which warnings are
// folded and counted ("game has no result").
std::string_view syntax_kind(syntax::SyntaxCode code);

// A stable snake_case name of the code ("no_result"), for machine-readable diagnostics.
std::string_view syntax_code_name(syntax::SyntaxCode code);

// What is wrong with a FEN, in words ("FEN rank 3 has more than 8 squares"); "" when ok().
// May quote a field of the FEN: raw input bytes.
std::string fen_message(chess::FenError const& e);

// A stable snake_case name of the code ("rank_long").
std::string_view fen_code_name(chess::FenCode code);

} // namespace pgn_iccf::report
