// The table of a game's tags (tags.hpp).
#include "pgn/tags.hpp"

#include "io/ascii.hpp"
#include "pgn/writer.hpp"

namespace pgn_iccf::pgn {

void TagTable::clear() {
    tags_.clear();
    first_.fill(-1);
}

void TagTable::add(std::string_view name, syntax::Location name_at, std::string_view value,
                   syntax::Location value_at, bool plain) {
    TagKind const kind = classify(name);
    if (kind != TagKind::other && first(kind) < 0) first_[std::size_t(kind)] = int(tags_.size());
    Tag& t = tags_.emplace_back();
    t.name.text = name;
    t.name.where = name_at;
    t.value.text = value;
    t.value.where = value_at;
    t.kind = kind;
    t.plain = plain;
}

std::string_view TagTable::value(TagKind kind) const {
    int i = first(kind);
    return i < 0 ? std::string_view{} : tags_[std::size_t(i)].value.text;
}

syntax::Location TagTable::location(TagKind kind, syntax::Location otherwise) const {
    int i = first(kind);
    return i < 0 ? otherwise : tags_[std::size_t(i)].value.where;
}

void TagTable::release_if_above(std::size_t keep) { pgn::release_if_above(tags_, keep); }

TagKind TagTable::classify(std::string_view n) {
    using io::ascii::iequals; // ASCII, whatever the locale
    switch (n.size()) {
    case 3:
        return iequals(n, "FEN") ? TagKind::fen : TagKind::other;
    case 4:
        return n == "Site" ? TagKind::site : n == "Date" ? TagKind::date : TagKind::other;
    case 5:
        return n == "Event"          ? TagKind::event
               : n == "Round"        ? TagKind::round
               : n == "White"        ? TagKind::white
               : n == "Black"        ? TagKind::black
               : iequals(n, "SetUp") ? TagKind::setup
                                     : TagKind::other;
    case 6:
        return n == "Result" ? TagKind::result : TagKind::other;
    case 7:
        return iequals(n, "Variant") ? TagKind::variant : TagKind::other;
    case 8:
        return iequals(n, "Notation") ? TagKind::notation : TagKind::other;
    default:
        return TagKind::other;
    }
}

} // namespace pgn_iccf::pgn
