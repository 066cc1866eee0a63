// The one place where the plan's findings become English.
#include "plan/wording.hpp"

#include "io/compress.hpp"

namespace pgn_iccf::batch {

namespace {

constexpr char const* outside_inputs = "choose an output folder outside the inputs";
constexpr char const* one_file = " is standard output too (--rejects -): both would be written "
                                 "to one file";

} // namespace

std::string_view file_of(PlanProblem const& p) {
    switch (p.code) {
    case PlanCode::bad_suffix:
    case PlanCode::suffix_unused:
        return {};
    default:
        return p.path;
    }
}

std::string word(PlanProblem const& p) {
    switch (p.code) {
    case PlanCode::bad_suffix:
        return "--suffix must be a file-name ending, without '/': " + p.path;
    case PlanCode::output_parent_not_folder:
        return "-o " + p.path + ": " + p.other + " is not a directory";
    case PlanCode::output_is_file:
    case PlanCode::output_not_folder:
        return "with several inputs or a directory input, -o must name a directory: " + p.path +
               (p.code == PlanCode::output_is_file ? " is a file" : " is not a directory");
    case PlanCode::output_unreadable:
        return "-o " + p.path + ": " + p.os_error;
    case PlanCode::stdin_twice:
        return "standard input is given twice";
    case PlanCode::output_is_input_folder:
        return "the output folder " + p.path + " is the input folder " + p.other + ": " +
               outside_inputs;
    case PlanCode::output_inside_input_folder:
        return "the output folder " + p.path + " is inside the input folder " + p.other +
               ": its files would be skipped, or read back as inputs; " + outside_inputs;
    case PlanCode::output_inside_by_link:
        return "the output folder " + p.path + " is inside an input folder (as " + p.other +
               "): " + outside_inputs;
    case PlanCode::output_folder_is_file:
        return "the output folder " + p.path + " cannot be created: a file is there";
    case PlanCode::output_folder_unreadable:
    case PlanCode::mirrored_output_unreadable:
    case PlanCode::input_unreadable:
    case PlanCode::folder_unlistable:
    case PlanCode::entry_unreadable:
        return p.path + ": " + p.os_error;
    case PlanCode::output_is_folder:
        return "the output " + p.path + " is a folder";
    case PlanCode::output_is_input:
        return "the output " + p.path + " is the input " + p.other;
    case PlanCode::output_outside:
        return p.path + " would be written outside " + p.other;
    case PlanCode::outputs_collide:
        return p.other + " and " + p.third + " would both be written to " + p.path;
    case PlanCode::outputs_hard_linked:
        return "the outputs " + p.other + " and " + p.path + " are one file (hard links)";
    case PlanCode::more_output_problems:
        return "... and " + std::to_string(p.number) + " more problems with output names";
    case PlanCode::level_out_of_range:
        return "--compress-level " + std::to_string(p.number) + " is out of range for " +
               std::string(io::name(p.compression)) + " output (" +
               std::to_string(io::min_level(p.compression)) + "-" +
               std::to_string(io::max_level(p.compression)) + ")";
    case PlanCode::rejects_stdout_closed:
        return "--rejects -: standard output is closed";
    case PlanCode::stdout_closed:
        return "standard output is closed: give -o FILE, or --check";
    case PlanCode::rejects_and_output_stdout:
        return "--rejects - and the output both name standard output (the output goes there "
               "unless -o names a file)";
    case PlanCode::rejects_is_output_folder:
        return "--rejects " + p.path + " names the output folder " + p.other;
    case PlanCode::rejects_is_needed_folder:
        return "--rejects " + p.path + " names a folder the outputs need";
    case PlanCode::rejects_is_folder:
        return "--rejects names a directory: " + p.path;
    case PlanCode::rejects_unreadable:
        return "--rejects " + p.path + ": " + p.os_error;
    case PlanCode::rejects_no_folder:
        return "--rejects " + p.path + " cannot be written: no folder " + p.other;
    case PlanCode::rejects_is_input:
        return "the rejects file " + p.path + " is an input";
    case PlanCode::rejects_is_output:
        return "--rejects and -o name the same file: " + p.path;
    case PlanCode::input_is_stderr:
        return "the input " + p.path + " is standard error: input file is output file";
    case PlanCode::input_is_stdout:
        return "the input " + p.path + " is standard output: input file is output file";
    case PlanCode::rejects_is_stdout:
        return "--rejects " + p.path + " is standard output too: both would be written to one file";
    case PlanCode::output_is_stdout:
        return "-o " + p.path + one_file;
    case PlanCode::mirrored_output_is_stdout:
        return "the output " + p.path + one_file;
    case PlanCode::already_walked:
        return p.path + ": already walked (symbolic-link loop or second link), skipped";
    case PlanCode::not_regular_file:
        return p.path + ": not a regular file, skipped";
    case PlanCode::check_writes_nothing:
        return "--check writes no output: -o " + p.path + " is not written";
    case PlanCode::level_unused:
        return "--compress-level " + std::to_string(p.number) +
               " has no effect: no output is compressed (outputs named .gz, .bz2 or .zst are)";
    case PlanCode::suffix_unused:
        return "--suffix " + p.path +
               " has no effect: it names the outputs written into a folder (-o FOLDER with a "
               "folder or several files)";
    case PlanCode::input_twice:
        return p.path + " is the same file as " + p.other + ": its games are read twice";
    case PlanCode::no_pgn_file:
        return p.path + ": no PGN file in this folder or below (names ending in .pgn, .pgn.gz, "
                        ".pgn.bz2 or .pgn.zst, in any letter case); nothing converted from it";
    }
    return "plan problem " + std::to_string(static_cast<int>(p.code));
}

} // namespace pgn_iccf::batch
