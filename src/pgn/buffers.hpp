// Buffers and copies shared by the writers and the per-game state: a short copy without a
// call, the rule that gives back a buffer grown by one huge game, and the movetext's
// malloc'ed block. (copy_long and TextBuffer::discard are defined in writer.cpp.)
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>

namespace pgn_iccf::pgn {

// memcpy, out of line (a long copy at an inlined call site holding a short buffer would be
// flagged by -Warray-bounds although copy_short never takes that path for it).
void copy_long(char* d, char const* s, std::size_t n);

// Copies n bytes from s to d, writing no byte outside d[0, n). Up to 16 bytes (every move,
// move number and most tokens) take two overlapping loads and stores: a byte loop or a
// memcpy call cost more instructions per move and move number (callgrind, see the commit).
inline void copy_short(char* d, char const* s, std::size_t n) {
    auto pair = [&](auto word) {
        std::memcpy(&word, s, sizeof word);
        decltype(word) last;
        std::memcpy(&last, s + n - sizeof word, sizeof word);
        std::memcpy(d, &word, sizeof word);
        std::memcpy(d + n - sizeof word, &last, sizeof word);
    };
    if (n >= 8) {
        if (n > 16)
            copy_long(d, s, n);
        else
            pair(std::uint64_t{});
    } else if (n >= 4) {
        pair(std::uint32_t{});
    } else if (n >= 2) {
        pair(std::uint16_t{});
    } else if (n == 1) {
        *d = *s;
    }
}

// Buffers reused from game to game keep their capacity, except after a game far larger than
// usual: a buffer holding more than `keep` bytes is given back, so that one huge game does
// not hold its memory, per worker thread, for the rest of the run.
template <class Container>
void release_if_above(Container& c, std::size_t keep) {
    if (c.capacity() * sizeof(typename Container::value_type) > keep) Container().swap(c);
}

// The movetext under construction: bytes in a malloc'ed block that grows with realloc. Unlike
// a std::string it is never zero-filled ahead of the text, so only the pages written are
// touched, and a large block grows in place (glibc remaps it) instead of being held twice
// while it is copied.
class TextBuffer {
public:
    TextBuffer() = default;
    TextBuffer(TextBuffer const&) = delete;
    TextBuffer& operator=(TextBuffer const&) = delete;
    ~TextBuffer() { std::free(data_); }

    char* data() { return data_; }
    std::size_t capacity() const { return capacity_; }
    // Room for at least n bytes; the bytes already there are kept.
    void reserve(std::size_t n) {
        if (n <= capacity_) return;
        auto* const p = static_cast<char*>(std::realloc(data_, n));
        if (p == nullptr) throw std::bad_alloc();
        data_ = p;
        capacity_ = n;
    }
    void release() {
        std::free(data_);
        data_ = nullptr;
        capacity_ = 0;
    }
    // Gives the memory pages lying wholly inside bytes [from, to) back to the system
    // (io::release_pages): their bytes are lost, the buffer stays
    // usable. A large text copied out piece by piece is so never held twice (see
    // ExportWriter::write).
    void discard(std::size_t from, std::size_t to);

private:
    char* data_ = nullptr;
    std::size_t capacity_ = 0;
};

} // namespace pgn_iccf::pgn
