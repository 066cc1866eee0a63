// Turns the ways a parse can fail into Diagnostics: X3 expectation failures (whose `which()`
// is a rule name written as words, "a tag value in double quotes") and the SyntaxErrors the
// primitives throw with their own wording.
#pragma once

#include "grammar/config.hpp"

#include <string>
#include <string_view>

namespace pgn_iccf::parser {

// The offending text at p: the token there (or the single delimiter byte), at most 40 bytes.
inline std::string_view offending_text(char const* p, char const* end) {
    if (p == end) return {};
    char const* e = scan::is_token_byte(*p) ? scan::token_end(p, end) : p + 1;
    if (e - p > 40) e = p + 40;
    return {p, static_cast<std::size_t>(e - p)};
}

inline void report_expectation(State& st, char const* where, std::string const& which) {
    auto const text = offending_text(where, st.end);
    std::string message;
    if (which == "a move, comment, variation or result") {
        if (st.has_result)
            message = "expected the end of the game after the result";
        else if (text == ")")
            message = "')' without a matching '('";
        else if (text == "}")
            message = "'}' without a matching '{'";
        else if (text == "[")
            message = "'[' inside the movetext (a tag pair must start a line before the moves)";
    }
    if (message.empty()) {
        message = "expected " + which;
        message += where == st.end ? ", but the game ends here" : "";
    }
    st.report(syntax::Severity::error, where, text, std::move(message));
}

inline void report_syntax_error(State& st, SyntaxError const& e) {
    st.report(syntax::Severity::error, e.where, e.token, e.message);
}

} // namespace pgn_iccf::parser
