// A libFuzzer target: one fuzz input through the property checks of one target of
// tests/support/properties.hpp (split, grammar, move, fen, convert, decoder, compressed, plan),
// chosen at build time by PGN_ICCF_FUZZ_TARGET. A property that does not hold aborts with its
// description, so that libFuzzer saves the input (then a file of data/hostile/, replayed by
// tests/hostile_test).
#include "support/properties.hpp"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#ifndef PGN_ICCF_FUZZ_TARGET
#error                                                                                             \
    "PGN_ICCF_FUZZ_TARGET names the target: split, grammar, move, fen, convert, decoder, compressed or plan"
#endif

extern "C" int LLVMFuzzerTestOneInput(std::uint8_t const* data, std::size_t size) {
    namespace p = pgn_iccf::properties;
    constexpr p::Target target = p::Target::PGN_ICCF_FUZZ_TARGET;
    std::string const failure =
        p::check_input(target, std::string_view(reinterpret_cast<char const*>(data), size));
    if (!failure.empty()) {
        std::fprintf(stderr, "pgn-iccf property failed (%s): %s\n", p::name(target).data(),
                     failure.c_str());
        std::abort();
    }
    return 0;
}
