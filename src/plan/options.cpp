// The checks of a plan's options against its outputs (options.hpp).
#include "plan/options.hpp"

#include "io/compress.hpp"

#include <cstdint>
#include <vector>

namespace pgn_iccf::batch {

void check_level(PlanRequest const& request, Plan& plan) {
    int const level = request.compress_level;
    if (level == 0) return;
    std::vector<io::Compression> used{plan.output_compression, plan.rejects_compression};
    for (auto const& j : plan.jobs) used.push_back(j.output_compression);
    for (io::Compression c : used) {
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
    if (request.compress_level != 0) {
        bool compressed = plan.output_compression != io::Compression::none ||
                          plan.rejects_compression != io::Compression::none;
        for (auto const& j : plan.jobs)
            compressed = compressed || j.output_compression != io::Compression::none;
        if (!compressed)
            plan.notes.push_back({.code = PlanCode::level_unused,
                                  .number = static_cast<std::uint64_t>(request.compress_level)});
    }
    if (!request.suffix.empty() && !plan.directory_mode)
        plan.notes.push_back({.code = PlanCode::suffix_unused, .path = request.suffix});
}

} // namespace pgn_iccf::batch
