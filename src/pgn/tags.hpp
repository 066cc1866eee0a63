// The tags of a game as PGN names them (§8.1.1): the Seven Tag Roster with its names and the
// values an export writes for a missing one, the tags the replay looks at, and the table of a
// game's tags by kind. One home for these facts (REVIEW 3.2): the replay reads the table, the
// export writer the roster.
#pragma once

#include "grammar/syntax.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace pgn_iccf::pgn {

// The tags of a game, and the index of the first of each kind the replay looks at: the
// Seven Tag Roster in its order (roster_names below follows it), then FEN,
// Variant, Notation, SetUp; other: the rest.
enum class TagKind : std::uint8_t {
    event,
    site,
    date,
    round,
    white,
    black,
    result,
    fen,
    variant,
    notation,
    setup,
    other
};

class TagTable {
public:
    struct Tag {
        syntax::Token name;
        syntax::Token value;
        TagKind kind;
        bool plain; // the value holds neither '\\' nor '"' (Visitor::plain_tag)
    };
    // Real tag sections hold a few dozen pairs; a bound keeps a hostile section of millions
    // from holding tens of MiB of tag records (the splitter likewise remembers at most 4096
    // distinct names).
    static constexpr std::size_t max_tags = 4096;

    void clear();
    bool full() const { return tags_.size() == max_tags; }
    // The name and value with their locations as parts (the record is written from them, not
    // copied from Tokens just built: see Visitor::plain_tag).
    void add(std::string_view name, syntax::Location name_at, std::string_view value,
             syntax::Location value_at, bool plain = false);
    std::vector<Tag> const& all() const { return tags_; }
    int first(TagKind kind) const { return first_[std::size_t(kind)]; } // index in all(), or -1
    std::string_view value(TagKind kind) const; // raw value of the first such tag, or ""
    // Where the first such tag's value starts (after its quote), or `otherwise` when there is none.
    syntax::Location location(TagKind kind, syntax::Location otherwise) const;
    void release_if_above(std::size_t keep);

    // The roster's exact names, as the standard writes them; FEN, Variant, Notation and SetUp
    // in any letter case (real files write "fen", "FEN", "fEn").
    static TagKind classify(std::string_view name);

private:
    std::vector<Tag> tags_;
    std::array<int, std::size_t(TagKind::other)> first_{};
};

// The Seven Tag Roster's names in order (TagKind::event to TagKind::result), and what an
// export writes for a missing one (§8.1.1).
inline constexpr std::array<std::string_view, 7> roster_names = {"Event", "Site",  "Date",  "Round",
                                                                 "White", "Black", "Result"};
inline constexpr std::array<std::string_view, 7> roster_defaults = {"?", "?", "????.??.??", "?",
                                                                    "?", "?", "*"};
static_assert(std::size_t(TagKind::result) + 1 == roster_names.size(),
              "the roster's kinds come first, in its order");

} // namespace pgn_iccf::pgn
