// Turns the ways a parse can fail into Diagnostics: X3 expectation failures (whose `which()`
// is a rule name written as words, "a tag value in double quotes") and the SyntaxErrors the
// primitives throw with their own wording.
#pragma once

#include "grammar/config.hpp"

#include <string>
#include <string_view>

namespace pgn_iccf::parser {

inline void report_expectation(State& st, char const* where, std::string const& which) {
    std::string message = "expected " + which;
    message += where == st.end ? ", but the game ends here" : "";
    st.report(syntax::Severity::error, where, offending_text(where, st.end), std::move(message));
}

inline void report_syntax_error(State& st, SyntaxError const& e) {
    st.report(syntax::Severity::error, e.where, e.token, e.message);
}

} // namespace pgn_iccf::parser
