// The English of the plan's problems, unreadable inputs and notes (one line each, without
// the "pgn-iccf: error: " prefix).
#pragma once

#include "plan/problem.hpp"

#include <string>

namespace pgn_iccf::batch {

std::string word(PlanProblem const& p);

} // namespace pgn_iccf::batch
