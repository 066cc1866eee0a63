// What the plan finds, as values: a code and its facts. The English wording is in one place,
// plan/wording.cpp (word()); nothing else in the plan writes a sentence.
#pragma once

#include "io/source.hpp"

#include <cstdint>
#include <string>

namespace pgn_iccf::batch {

enum class PlanCode : std::uint8_t {
    // Problems: the run is refused before anything is written.
    bad_suffix,                 // path: the --suffix given
    output_parent_not_folder,   // path: -o; other: the parent that is no folder
    output_is_file,             // path: -o (directory mode needs a folder)
    output_not_folder,          // path: -o, neither file nor folder
    output_unreadable,          // path: -o; os_error
    stdin_twice,                //
    output_is_input_folder,     // path: -o; other: the input folder
    output_inside_input_folder, // path: -o; other: the input folder
    output_inside_by_link,      // path: -o; other: the path in the walk that reaches it
    output_folder_is_file,      // path: the folder to be created
    output_folder_unreadable,   // path: the folder; os_error
    output_is_folder,           // path: the mirrored output
    mirrored_output_unreadable, // path: the mirrored output; os_error
    output_is_input,            // path: the output; other: the input it is
    output_outside,             // path: the output; other: the output folder
    outputs_collide,            // path: the output; other, third: the two inputs
    outputs_hard_linked,        // path: the output; other: the output it is a link of
    more_output_problems,       // number: the output problems not listed
    level_out_of_range,         // number: the level; compression
    rejects_stdout_closed,      //
    stdout_closed,              //
    rejects_and_output_stdout,  //
    rejects_is_output_folder,   // path: --rejects; other: the output folder
    rejects_is_needed_folder,   // path: --rejects
    rejects_is_folder,          // path: --rejects
    rejects_unreadable,         // path: --rejects; os_error
    rejects_no_folder,          // path: --rejects; other: the missing folder
    rejects_is_input,           // path: --rejects
    rejects_is_output,          // path: --rejects
    input_is_stderr,            // path: the input
    input_is_stdout,            // path: the input
    rejects_is_stdout,          // path: --rejects
    output_is_stdout,           // path: -o
    mirrored_output_is_stdout,  // path: the mirrored output
    // Unreadable inputs: reported and counted, the other jobs run.
    input_unreadable,  // path: the input; os_error
    folder_unlistable, // path: the folder; os_error
    entry_unreadable,  // path: the entry found in a walk; os_error
    // Notes.
    already_walked,   // path: the folder reached again
    not_regular_file, // path: the entry skipped
    no_pgn_file,      // path: a folder named as an input that holds no PGN file
    // Notes on options that have no effect on this run.
    check_writes_nothing, // path: -o, given with --check
    level_unused,         // number: --compress-level, with no compressed output
    suffix_unused,        // path: --suffix, with one output file
    input_twice,          // path: an input; other: the input named before that is that file
};
inline constexpr std::size_t plan_code_count = std::size_t(PlanCode::input_twice) + 1;

struct PlanProblem {
    PlanCode code{};
    std::string path{};       // the file or folder it is about
    std::string other{};      // a second name: the input, folder or output it meets
    std::string os_error{};   // the system's reason ("Permission denied")
    std::string third{};      // a third name (the second input of two meeting in one output)
    std::uint64_t number = 0; // a count, or the level of --compress-level
    io::Compression compression = io::Compression::none;
};

} // namespace pgn_iccf::batch
