// Turns the ways a parse can fail into Diagnostics: X3 expectation failures (whose `which()`
// is the name of the rule expected, whose ID class names its code: pgn_def.hpp) and the
// SyntaxErrors the primitives throw with their own code.
#pragma once

#include "grammar/config.hpp"

#include <string>
#include <string_view>

namespace pgn_iccf::parser {

// The code of the rule named `which` (expectation_code, pgn_def.hpp).
syntax::SyntaxCode expectation_code(std::string const& which);

inline void report_expectation(State& st, char const* where, std::string const& which) {
    st.report(syntax::Severity::error, where, offending_text(where, st.end),
              expectation_code(which));
}

inline void report_syntax_error(State& st, SyntaxError const& e) {
    st.report(syntax::Severity::error, e.where, e.token, e.code, e.limit);
}

} // namespace pgn_iccf::parser
