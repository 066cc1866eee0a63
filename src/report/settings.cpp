// The names of the settings in messages (settings.hpp).
#include "report/settings.hpp"

#include "pgn/writer.hpp"

#include <array>

namespace pgn_iccf::report {

namespace {

struct Names {
    std::string_view command_line, page;
};

// One row per Setting, in its order.
constexpr std::array<Names, 8> names{{
    {"--to", "\"Convert to\""},
    {"--lang", "\"Piece letters of the output\""},
    {"--input-lang", "\"Piece letters of the input\""},
    {"--width", "\"Line width\""},
    {"--fix-typos", "\"fix typos\""},
    {"--iccf-short-promotion", "\"accept four-digit promotions\""},
    {"--max-game-size", "the page's limit"},
    {"--rejects", "the option \"rejects\""},
}};
static_assert(names.size() == std::size_t(Setting::rejects) + 1, "one row per Setting");

} // namespace

std::string_view setting_name(Setting s, Voice v) {
    Names const& n = names[std::size_t(s)];
    return v == Voice::page ? n.page : n.command_line;
}

std::string setting_value(Setting s, std::string_view value, Voice v) {
    std::string text(setting_name(s, v));
    text += v == Voice::page ? ": " : " ";
    text += value;
    return text;
}

std::string width_refusal(Voice v) {
    return std::string(setting_name(Setting::width, v)) +
           " must be 0 (one line per game) or at least " + std::to_string(pgn::min_width);
}

} // namespace pgn_iccf::report
