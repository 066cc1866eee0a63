// The plan of a run: which inputs are read, in which order, and where each one's output
// goes. Pure: it looks at the file system only through the FileSystem interface (a fake one
// in the tests) and writes nothing. Every naming and identity rule is checked here, before
// anything is written: two inputs mapping to one output, an output that is an input (same
// file, or same normalised path), an output outside the output directory, a rejects file
// that is an input or an output.
//
// Directory mode (several inputs, a directory input, or -o naming an existing directory;
// never with -o - or --check): -o names a directory, created if missing, that mirrors the
// inputs:
// - a file found in a directory input D keeps its path relative to D;
// - a file named on the command line is placed by its file name alone;
// - standard input is written as `stdin` + suffix.
// The output name is the input name with `.pgn`, `.pgn.gz`, `.pgn.bz2` or `.pgn.zst` (any
// letter case; or only the compression extension, or nothing when neither ends the name)
// replaced by the suffix. The default suffix is `.iccf.pgn` / `.san.pgn` / `.lan.pgn`
// followed by the compression extension of the input's name (compression kept); an explicit
// --suffix is used as given, and its own extension decides the output's compression.
// A suffix holding '/' or equal to "." or ".." is refused. Directory mode is decided by the
// inputs as given: a missing input still counts as one of several.
//
// A directory input is walked recursively for *.pgn, *.pgn.gz, *.pgn.bz2, *.pgn.zst (any
// letter case), following symbolic links; a directory reached again (a symbolic-link loop, or
// two links to one folder, also across inputs) is walked once, with a note. The output
// directory must not be a directory input nor lie inside one (by path, or reached by a link
// in a walk): its files would be read back as inputs, or skipped unseen; that is a problem,
// even when the output directory does not exist yet (a second run would find it). Files are
// taken in byte order of their path relative to D. Only PGN names are inputs: a folder that
// cannot be listed, and an entry named like a PGN input that cannot be followed (a dangling
// link), are reported in `unreadable`, the rest goes on; any other entry that cannot be
// followed (a dangling `notes.txt` link) is ignored. A matching name that is no regular file
// (a FIFO) is skipped with a note; a FIFO or device named on the command line is read, its
// size unknown.
//
// Identity: files are the same when their canonical paths are equal, or, for files that
// exist, their FileIds (hard links). Standard input, output and error count by their
// FileId when they are regular files (FileSystem::stream): `pgn-iccf a.pgn >> a.pgn`,
// `2>> a.pgn`,
// `- < all.pgn >> all.pgn` or `--rejects r.pgn > r.pgn` are problems ("input file is output
// file", as cat says), found before a byte is read. Every pair of outputs (the single output,
// standard output when written, the rejects file, the mirrored outputs, the folders to be
// created) must be distinct, and no output may be an input. Problems about single outputs are
// listed up to ten, then counted in one more line. --rejects - is standard output, refused
// beside -o -. With problems, nothing is created: directories_to_create is only acted upon
// when `problems` is empty, and every folder a rejects file needs exists or is planned.
#pragma once

#include "io/file_system.hpp"
#include "io/source.hpp"
#include "plan/problem.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace pgn_iccf::batch {

struct PlanRequest {
    std::vector<std::string> inputs; // as given: files, directories, "-"; empty = standard input
    std::string output = "-";        // "-" = standard output
    std::string suffix;              // "" = default_suffix
    std::string default_suffix;      // ".iccf.pgn", ".san.pgn" or ".lan.pgn"
    std::string rejects;             // "" = none
    bool check = false;              // no output at all
    int compress_level = 0;          // 0 = the default of each compression; else in its range
    bool stdout_closed = false;      // descriptor 1 was closed at start: nothing may go there
};

struct Job {
    std::string input;   // path to open, "-" for standard input
    std::string display; // name in messages: the path as given or found; "<stdin>"
    std::string output;  // directory mode: this job's output file; otherwise ""
    io::Compression output_compression = io::Compression::none; // of `output`, by its name
    std::uint64_t size = 0; // input size in bytes (0 if unknown: standard input)
    bool size_known = false;
};

struct Plan {
    std::vector<Job> jobs;
    bool directory_mode = false;
    // Not in directory mode: the single output ("-" for standard output, "" with --check) and
    // its compression by name.
    std::string output;
    io::Compression output_compression = io::Compression::none;
    std::string rejects; // "" = none
    io::Compression rejects_compression = io::Compression::none;
    std::vector<std::string> directories_to_create; // output folders, parents first
    // Fatal problems: the run is refused before anything is written (exit status 2). Values;
    // word() (plan/wording.hpp) gives each one's line.
    std::vector<PlanProblem> problems;
    // Inputs that cannot be read (missing files, folders that cannot be listed, dangling
    // links): reported and counted; the other jobs run.
    std::vector<PlanProblem> unreadable;
    // Remarks that are no error (a folder walked once though reached twice).
    std::vector<PlanProblem> notes;
    std::uint64_t total_size = 0; // sum of the known input sizes
    bool total_size_known = true; // false when some input size is unknown (standard input)
};

Plan make_plan(PlanRequest const& request, io::FileSystem const& fs);

} // namespace pgn_iccf::batch
