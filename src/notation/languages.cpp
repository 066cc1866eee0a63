// Piece letters of every language of docs LANGUAGES.md, plus figurines.
//
// The table is the single source of the letters: reading and writing both index it by
// PieceType. Letters are UTF-8 and compared byte for byte (so Cyrillic К never equals Latin
// K). The order of the entries is the order of --help: English first, then LANGUAGES.md.
#include "notation/notation.hpp"

#include <array>

namespace pgn_iccf::notation {
namespace {

// Arguments in the order of LANGUAGES.md (K Q R B N pawn); stored by PieceType.
constexpr Letters make(std::string_view code, std::string_view name, std::string_view k,
                       std::string_view q, std::string_view r, std::string_view b,
                       std::string_view n, std::string_view p, bool figurine = false) {
    return Letters{code, name, {std::string_view{}, p, n, b, r, q, k}, figurine};
}

} // namespace

constinit std::array<Letters, 26> const detail::language_table = {{
    make("en", "English", "K", "Q", "R", "B", "N", "P"),
    make("af", "Afrikaans", "K", "D", "T", "L", "R", "P"),
    make("bg", "Bulgarian", "Ц", "Д", "Т", "О", "К", "П"),
    make("ca", "Catalan", "R", "D", "T", "A", "C", "P"),
    make("cs", "Czech", "K", "D", "V", "S", "J", "P"),
    make("da", "Danish", "K", "D", "T", "L", "S", "B"),
    make("de", "German", "K", "D", "T", "L", "S", "B"),
    make("es", "Spanish", "R", "D", "T", "A", "C", "P"),
    make("et", "Estonian", "K", "L", "V", "O", "R", "P"),
    make("fi", "Finnish", "K", "D", "T", "L", "R", "P"),
    make("fr", "French", "R", "D", "T", "F", "C", "P"),
    make("hr", "Croatian", "K", "D", "T", "L", "S", "P"),
    make("hu", "Hungarian", "K", "V", "B", "F", "H", "G"),
    make("is", "Icelandic", "K", "D", "H", "B", "R", "P"),
    make("it", "Italian", "R", "D", "T", "A", "C", "P"),
    make("nl", "Dutch", "K", "D", "T", "L", "P", "O"),
    make("no", "Norwegian", "K", "D", "T", "L", "S", "B"),
    make("pl", "Polish", "K", "H", "W", "G", "S", "P"),
    make("pt", "Portuguese", "R", "D", "T", "B", "C", "P"),
    make("ro", "Romanian", "R", "D", "T", "N", "C", "P"),
    make("ru", "Russian", "Кр", "Ф", "Л", "С", "К", "п"),
    make("sk", "Slovak", "K", "D", "V", "S", "J", "P"),
    make("sv", "Swedish", "K", "D", "T", "L", "S", "B"),
    make("sq", "Albanian", "M", "Msh", "Ku", "O", "Ka", "U"),
    make("be", "Belarusian", "К", "Вз", "Лд", "А", "В", "Л"),
    // White figurines; the writer uses the black ones for Black's moves (see write.cpp), the
    // reader accepts both colours for either side.
    make("figurine", "Figurines", "\u2654", "\u2655", "\u2656", "\u2657", "\u2658", "\u2659", true),
}};

namespace {
constexpr auto const& table = detail::language_table;
} // namespace

Letters const* letters_for(std::string_view code) {
    for (Letters const& l : table)
        if (l.code == code) return &l;
    return nullptr;
}

std::span<Letters const> all_languages() { return {table.data(), table.size()}; }

std::string language_codes() {
    std::string s;
    for (auto const& l : all_languages()) {
        if (!s.empty()) s += ' ';
        s += l.code;
    }
    return s;
}

} // namespace pgn_iccf::notation
