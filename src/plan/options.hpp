// The checks of a plan's options against its outputs once they are named (internal to
// src/plan: make_plan runs them last): --compress-level's range, and the options that have no
// effect on the run, which are noted.
#pragma once

#include "plan/plan.hpp"

namespace pgn_iccf::batch {

// --compress-level against the range of each compression the outputs use: a problem if out.
void check_level(PlanRequest const& request, Plan& plan);

// Options given that the run has no use for, said (they were ignored without a word): -o with
// --check, --compress-level with no compressed output, --suffix with one output file.
void note_unused_options(PlanRequest const& request, Plan& plan);

} // namespace pgn_iccf::batch
