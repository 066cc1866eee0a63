// The report of a run now lives in src/report (the one voice, issue K). These names keep the
// batch layer's callers (run, the CLI, tests) as they were.
#pragma once

#include "report/report.hpp"

namespace pgn_iccf::batch {

using report::exit_status;
using report::FileLine;
using report::format_summary;
using report::format_warning_kinds;
using report::Report;
using report::Summary;
using report::WarningDisplay;

} // namespace pgn_iccf::batch
