// The checks of a plan's options against its outputs (options.hpp).
#include "plan/options.hpp"

#include "io/compress.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace pgn_iccf::batch {

namespace {

// The compression of each output of the plan (the single output, the rejects file, each
// mirrored output), none included.
std::vector<io::Compression> compressions(Plan const& plan) {
    std::vector<io::Compression> used{plan.output_compression, plan.rejects_compression};
    for (auto const& j : plan.jobs) used.push_back(j.output_compression);
    return used;
}

} // namespace

void check_level(PlanRequest const& request, Plan& plan) {
    int const level = request.compress_level;
    if (level == 0) return;
    for (io::Compression c : compressions(plan)) {
        if (c == io::Compression::none) continue;
        if (level < io::min_level(c) || level > io::max_level(c)) {
            plan.problems.push_back({.code = PlanCode::level_out_of_range,
                                     .number = static_cast<std::uint64_t>(level),
                                     .compression = c});
            return;
        }
    }
}

void note_unused_options(PlanRequest const& request, Plan& plan) {
    if (request.check && !request.output.empty() && request.output != "-")
        plan.notes.push_back({.code = PlanCode::check_writes_nothing, .path = request.output});
    if (request.compress_level != 0 &&
        std::ranges::all_of(compressions(plan),
                            [](io::Compression c) { return c == io::Compression::none; }))
        plan.notes.push_back({.code = PlanCode::level_unused,
                              .number = static_cast<std::uint64_t>(request.compress_level)});
    if (!request.suffix.empty() && !plan.directory_mode)
        plan.notes.push_back({.code = PlanCode::suffix_unused, .path = request.suffix});
}

} // namespace pgn_iccf::batch
