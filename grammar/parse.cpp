// The X3-free facade: runs the game grammar over one RawGame and turns failures into
// Diagnostics. Reentrant: all state lives in one State object per call.
#include "grammar/error_handler.hpp"
#include "grammar/pgn.hpp"

namespace pgn_iccf::parser {

void parse_game(RawGame const& game, Visitor& visitor, ParseOptions const& options) {
    GameEnd end{};
    if (!visitor.begin_game(game)) {
        visitor.end_game(end);
        return;
    }
    State st(visitor, options, game);
    iterator_type first = st.begin;
    iterator_type const last = st.end;
    try {
        if (!x3::parse(first, last, x3::with<state_tag>(st)[game_grammar()]))
            st.report(syntax::Severity::error, first, offending_text(first, st.end),
                      unexpected_before_end(st, first));
    } catch (x3::expectation_failure<iterator_type> const& e) {
        report_expectation(st, e.where(), e.which());
    } catch (SyntaxError const& e) {
        report_syntax_error(st, e);
    }
    if (!st.error && !st.content) {
        st.report(syntax::Severity::error, st.begin, offending_text(st.begin, st.end),
                  syntax::SyntaxCode::not_a_game);
    } else if (!st.error && !st.has_result) {
        char const* p = st.end;
        while (p != st.begin && scan::is_space(p[-1])) --p;
        st.warn(p, {}, syntax::SyntaxCode::no_result);
    }
    end.syntax_error = st.error;
    end.has_result = st.has_result;
    visitor.end_game(end);
}

void unescape_tag_value(std::string_view raw, std::string& out) {
    out.clear();
    out.reserve(raw.size());
    for (std::size_t i = 0; i != raw.size(); ++i) {
        if (raw[i] == '\\' && i + 1 != raw.size() && (raw[i + 1] == '"' || raw[i + 1] == '\\')) ++i;
        out += raw[i];
    }
}

} // namespace pgn_iccf::parser
