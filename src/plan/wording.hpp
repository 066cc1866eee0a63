// The English of the plan's problems, unreadable inputs and notes (one line each, without
// the "pgn-iccf: error: " prefix).
#pragma once

#include "plan/problem.hpp"

#include <string>
#include <string_view>

namespace pgn_iccf::batch {

std::string word(PlanProblem const& p);

// The file or folder `p` is about ("" for none: a --suffix value is no file), for JSON's "file".
std::string_view file_of(PlanProblem const& p);

} // namespace pgn_iccf::batch
