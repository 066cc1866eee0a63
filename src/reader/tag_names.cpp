// The tag names of a section (TagNames, splitter.hpp): a set in any letter case.
#include "reader/splitter.hpp"

#include "io/ascii.hpp"

#include <algorithm>
#include <string_view>

namespace pgn_iccf::reader::detail {

namespace {

// A section remembers at most this many distinct tag names, of this many bytes in all.
constexpr std::size_t max_tag_names = 4096;
constexpr std::size_t max_tag_name_bytes = std::size_t{256} << 10;

using io::ascii::lower;

// FNV-1a of the name in lower case; never 0 (an empty slot).
std::uint64_t name_hash(std::string_view name) {
    std::uint64_t h = 0xCBF29CE484222325u;
    for (char c : name) h = (h ^ static_cast<unsigned char>(lower(c))) * 0x100000001B3u;
    return h | 1;
}

// The slot holding `name`, or the empty slot where it would go.
TagNames::Slot& find_name(TagNames& t, std::string_view name, std::uint64_t h) {
    std::size_t const mask = t.slots.size() - 1;
    for (std::size_t i = h & mask;; i = (i + 1) & mask) {
        auto& slot = t.slots[i];
        if (slot.hash == 0) return slot;
        if (slot.hash == h &&
            io::ascii::iequals(std::string_view(t.arena).substr(slot.at, slot.size), name))
            return slot;
    }
}

} // namespace

// Inserts `name` (if there is room); whether it was there already.
bool insert_name(TagNames& t, std::string_view name) {
    if (t.count != 0 &&
        (t.count == max_tag_names || t.arena.size() + name.size() > max_tag_name_bytes))
        return find_name(t, name, name_hash(name)).hash != 0;
    if ((t.count + 1) * 2 > t.slots.size()) {
        std::vector<TagNames::Slot> old(std::max<std::size_t>(t.slots.size() * 2, 64));
        old.swap(t.slots);
        for (auto const& slot : old)
            if (slot.hash != 0) {
                auto const stored = std::string_view(t.arena).substr(slot.at, slot.size);
                find_name(t, stored, slot.hash) = slot;
            }
    }
    auto const h = name_hash(name);
    auto& slot = find_name(t, name, h);
    if (slot.hash != 0) return true;
    slot = {h, static_cast<std::uint32_t>(t.arena.size()), static_cast<std::uint32_t>(name.size())};
    for (char c : name) t.arena += lower(c);
    ++t.count;
    return false;
}

} // namespace pgn_iccf::reader::detail
