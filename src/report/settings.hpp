// The settings a diagnostic may point its reader to, named as the reader knows them: the
// command line's user by its flags (--input-lang), the page's (src/web) by the labels of its
// controls ("Piece letters of the input"). The one home of those names in messages: the
// wording of the replay's problems, convert_batch's lines and the refusals of options.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace pgn_iccf::report {

// Who reads the diagnostics.
enum class Voice : std::uint8_t { command_line, page };

enum class Setting : std::uint8_t {
    to,
    lang,
    input_lang,
    width,
    fix_typos,
    iccf_short_promotion,
    max_game_size,
    rejects,
};

// "--input-lang" on the command line, "\"Piece letters of the input\"" on the page. The
// page has no control for the game size limit: "the page's limit".
std::string_view setting_name(Setting s, Voice v);

// A setting with a value: "--input-lang auto"; on the page "\"Piece letters of the input\":
// auto".
std::string setting_value(Setting s, std::string_view value, Voice v);

// The refusal of a line width that pgn::width_allowed refuses.
std::string width_refusal(Voice v);

} // namespace pgn_iccf::report
