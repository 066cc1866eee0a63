// pgn-iccf: command line -> options -> batch run -> exit status. Nothing else lives here.
#include "batch/run.hpp"
#include "io/ascii.hpp"
#include "io/cleanup.hpp"
#include "io/process.hpp"
#include "notation/notation.hpp"
#include "pgn/writer.hpp"
#include "report/settings.hpp"
#include "report/terminal.hpp"

#include <boost/program_options.hpp>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <exception>
#include <iostream>
#include <limits>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace po = boost::program_options;
using namespace pgn_iccf;

namespace {

constexpr char const* usage_head =
    "Usage: pgn-iccf [OPTIONS] [INPUT ...]\n"
    "\n"
    "Rewrites chess games (PGN) between standard algebraic notation (SAN) and ICCF numeric\n"
    "notation (e4 = 5254, O-O = 5171, f8=R = 67682), or into long algebraic notation,\n"
    "keeping tags, comments, NAGs and variations. INPUT is a PGN file, a directory (searched\n"
    "recursively for *.pgn, *.pgn.gz, *.pgn.bz2, *.pgn.zst, any letter case) or '-' for\n"
    "standard input (the default). gzip, bzip2 and zstd input is recognised by its first\n"
    "bytes, whatever its name. Input moves may be SAN, long algebraic or numeric, mixed.\n";

constexpr char const* usage_tail =
    "\n"
    "With several inputs or a directory input, -o DIR mirrors the inputs under DIR: a file\n"
    "found in a directory input keeps its path relative to it, a file named on the command\n"
    "line is placed by its name, standard input becomes stdin.iccf.pgn; .pgn (and .pgn.gz,\n"
    ".pgn.bz2, .pgn.zst) is replaced by the suffix, the input's compression is kept unless\n"
    "--suffix names one. Two inputs mapping to one output, an output that is an input (by\n"
    "path or device and inode; standard input and output too: pgn-iccf *.pgn >> all.pgn),\n"
    "or -o DIR inside a directory input, are refused before anything is read or created.\n"
    "In a directory only PGN names are inputs. An output name ending in .gz, .bz2 or .zst is\n"
    "written compressed. Outputs are written under a temporary name (NAME.pgn-iccf-tmp.XXXXXX)\n"
    "and renamed when complete; an interrupted run leaves no partial output.\n"
    "\n"
    "Numeric output carries the tag [Notation \"ICCF\"]. In Chess960 games castling is written\n"
    "as the king's square followed by its own rook's square (e.g. 2111 for king b1, rook a1).\n"
    "\n"
    "Exit status: 0 every game converted, 1 some games could not be converted (they are\n"
    "reported, and written to --rejects if given), 2 usage error, unreadable input or\n"
    "unwritable output.\n"
    "\n"
    "Examples:\n"
    "  pgn-iccf games.pgn -o games.iccf.pgn          SAN -> numeric\n"
    "  pgn-iccf -t san --annotate corr.pgn           numeric -> SAN, numeric kept as comments\n"
    "  pgn-iccf -t san --input-lang de partien.pgn   German SAN -> English SAN\n"
    "  pgn-iccf --input-lang auto club.pgn           each game in the language that plays it\n"
    "  pgn-iccf -t san --fix-typos postcards.pgn     typed numeric scores, one-edit typos fixed\n"
    "  pgn-iccf --check --rejects bad.pgn games.pgn  verify only, collect unreadable games\n"
    "  pgn-iccf lichess.pgn.zst -o lichess.iccf.pgn.zst   compressed in and out, all cores\n"
    "  pgn-iccf archive/ -o converted/               a whole tree, mirrored\n";

// "65536", "64K", "64M", "1G" (binary multiples); nullopt if malformed or too large.
std::optional<std::size_t> parse_size(std::string const& text) {
    std::size_t value = 0;
    auto const* end = text.data() + text.size();
    auto const [p, ec] = std::from_chars(text.data(), end, value);
    if (ec != std::errc{} || p == text.data()) return std::nullopt;
    int shift = 0;
    if (p != end) {
        if (p + 1 != end) return std::nullopt;
        switch (*p) {
        case 'k':
        case 'K':
            shift = 10;
            break;
        case 'm':
        case 'M':
            shift = 20;
            break;
        case 'g':
        case 'G':
            shift = 30;
            break;
        default:
            return std::nullopt;
        }
    }
    if (value > (std::numeric_limits<std::size_t>::max() >> shift)) return std::nullopt;
    return value << shift;
}

std::string language_list() { return notation::language_codes(); }

// What the command line gives: the run's options, and the option values read as text first.
struct Cli {
    batch::RunOptions run;
    std::string to = "numeric", lang = "en", input_lang = "en";
    std::string max_game_size, max_window;
    std::string diagnostics = "text";
    int jobs = 0;
};

// The option table: one row per option, in the order --help shows them.
struct Table {
    po::options_description conv{"Conversion"}, files{"Files"}, all;
    po::positional_options_description positional;
};

void describe(Table& t, Cli& c) {
    auto& run = c.run;
    auto& convert = run.pipeline.convert;
    std::string const width_help =
        "wrap movetext lines at N characters (default " + std::to_string(pgn::default_width) +
        "; 0 = one line per game; else at least " + std::to_string(pgn::min_width) + ")";
    t.conv.add_options() //
        ("to,t", po::value(&c.to)->value_name("NOTATION"),
         "numeric (ICCF, the default), san (standard algebraic) or lan (long algebraic)") //
        ("lang", po::value(&c.lang)->value_name("CODE"),
         ("piece letters of SAN/LAN output: a language code or figurine (default en)")) //
        ("input-lang", po::value(&c.input_lang)->value_name("CODE"),
         "piece letters of SAN/LAN input (default en), or auto: each game in the one "
         "language whose letters play all its moves, English first (never guessed from "
         "letters alone; a game two languages read differently is rejected)") //
        ("iccf-short-promotion", po::bool_switch(&convert.read.iccf_short_promotion),
         "also accept the non-standard four-digit promotion form (6762); each use is reported") //
        ("fix-typos", po::bool_switch(&convert.fix_typos),
         "replace an unplayable numeric move by the only legal move one edit away (a digit "
         "changed, added, dropped or two swapped; else its two squares swapped), with a "
         "warning and {typed TOKEN} after it; several candidates stay an error") //
        ("annotate", po::bool_switch(&convert.annotate),
         "after each move, a comment holding the move as it was written") //
        ("no-comments", "leave comments out")                             //
        ("no-nags", "leave NAGs out")                                     //
        ("no-variations", "leave variations out")                         //
        ("width", po::value(&convert.width)->value_name("N"), width_help.c_str());
    t.files.add_options() //
        ("output,o", po::value(&run.plan.output)->value_name("PATH"),
         "output file (.gz, .bz2, .zst: compressed), or - for standard output (default); with "
         "several inputs or a directory input, a directory") //
        ("suffix", po::value(&run.plan.suffix)->value_name("TEXT"),
         "output name ending in directory mode (default .iccf.pgn, .san.pgn or .lan.pgn, "
         "plus the input's compression extension)") //
        ("compress-level", po::value(&run.plan.compress_level)->value_name("N"),
         "compression level of compressed outputs (gzip and bzip2 1-9, zstd 1-19)") //
        ("rejects", po::value(&run.plan.rejects)->value_name("PATH"),
         "write games that could not be converted, and text between games, here, byte for "
         "byte as read") //
        ("keep-broken", po::bool_switch(&convert.keep_broken),
         "write a broken game converted up to the first bad move, the rest in a comment") //
        ("strict", po::bool_switch(&convert.strict),
         "reject a game whose variation holds a move that cannot be played (default: the "
         "variation is cut there, its rest kept in a comment, with a warning)") //
        ("max-game-size", po::value(&c.max_game_size)->value_name("SIZE"),
         "a game larger than SIZE bytes (suffix K, M or G: KiB, MiB, GiB; default 8M) is "
         "rejected unread: one error, its bytes to --rejects; memory grows by up to 6 times "
         "SIZE") //
        ("max-window", po::value(&c.max_window)->value_name("SIZE"),
         "decode zstd input whose window is at most SIZE (a power of two from 1K to 2G; "
         "default 8M, what zstd -1 to -19 write); a larger window (zstd --long, --ultra) is "
         "an error naming it; memory grows by SIZE") //
        ("jobs,j", po::value(&c.jobs)->value_name("N"),
         "worker threads (default: every core; at most 4 x the cores, a larger N is capped "
         "with a note); the output is the same for every N")                                 //
        ("check", po::bool_switch(&run.plan.check), "read and verify only: no output files") //
        ("quiet,q", po::bool_switch(&run.quiet), "no progress display and no summary")       //
        ("all-warnings", "show every warning (default: per file, the first 5 of each kind, "
                         "then one line counting the rest)") //
        ("no-warnings,w", "show no warnings (errors are always shown; the summary counts "
                          "them)") //
        ("progress", po::bool_switch(&run.progress),
         "show progress even when standard error is not a terminal (a plain line at most "
         "every 10 seconds)") //
        ("diagnostics", po::value(&c.diagnostics)->value_name("FORMAT"),
         "text (the default) or json: one JSON object per line on standard error for each "
         "diagnostic, fold line, file line and the summary") //
        ("help,h", "show this help")                         //
        ("version", "show the version");
    po::options_description hidden;
    hidden.add_options()("input", po::value<std::vector<std::string>>(&run.plan.inputs));
    t.positional.add("input", -1);
    t.all.add(t.conv).add(t.files).add(hidden);
}

using io::ascii::lowered; // the values of --to, --lang, --input-lang and --diagnostics

// The notation and piece letters of --to, --lang and --input-lang; a usage error or "".
std::string settle_notation(Cli& c) {
    auto& convert = c.run.pipeline.convert;
    std::string const to = lowered(c.to);
    if (to == "numeric" || to == "iccf")
        convert.to = notation::Notation::numeric;
    else if (to == "san")
        convert.to = notation::Notation::san;
    else if (to == "lan")
        convert.to = notation::Notation::lan;
    else
        return "unknown notation '" + c.to + "' for --to (numeric, san or lan)";
    convert.write.letters = notation::letters_for(lowered(c.lang));
    if (!convert.write.letters)
        return "unknown language '" + c.lang + "' for --lang (" + language_list() + ")";
    std::string const input_lang = lowered(c.input_lang);
    convert.auto_input_lang = input_lang == "auto";
    convert.read.letters =
        convert.auto_input_lang ? &notation::english() : notation::letters_for(input_lang);
    if (!convert.read.letters)
        return "unknown language '" + c.input_lang + "' for --input-lang (auto " + language_list() +
               ")";
    return "";
}

// The other option values, checked and set; a usage error or "".
std::string settle(Cli& c, po::variables_map const& vm) {
    if (std::string e = settle_notation(c); !e.empty()) return e;
    auto& convert = c.run.pipeline.convert;
    if (!pgn::width_allowed(convert.width))
        return report::width_refusal(report::Voice::command_line);
    convert.comments = !vm.count("no-comments");
    convert.nags = !vm.count("no-nags");
    convert.variations = !vm.count("no-variations");
    if (vm.count("all-warnings") && vm.count("no-warnings"))
        return "--all-warnings and --no-warnings exclude each other";
    std::string const diagnostics = lowered(c.diagnostics);
    if (diagnostics != "text" && diagnostics != "json")
        return "unknown format '" + c.diagnostics + "' for --diagnostics (text or json)";
    if (diagnostics == "json") c.run.pipeline.diagnostics = report::Format::json;
    if (vm.count("all-warnings")) c.run.pipeline.warnings = batch::WarningDisplay::all;
    if (vm.count("no-warnings")) c.run.pipeline.warnings = batch::WarningDisplay::none;
    if (vm.count("jobs") && c.jobs < 1) return "--jobs must be at least 1";
    // More threads than 4 per core only add load (as a run with -j100000 once showed).
    unsigned const cores = std::max(1U, std::thread::hardware_concurrency());
    if (static_cast<unsigned>(c.jobs) > 4 * cores) {
        c.run.notes.push_back("-j " + std::to_string(c.jobs) + " capped at " +
                              std::to_string(4 * cores) + " (4 x " + std::to_string(cores) +
                              " cores)"); // said by the report, in JSON too

        c.jobs = static_cast<int>(4 * cores);
    }
    c.run.pipeline.threads = static_cast<unsigned>(c.jobs);
    if (vm.count("max-game-size")) {
        auto const size = parse_size(c.max_game_size);
        if (!size || *size < 1024)
            return "--max-game-size takes a size of at least 1K (e.g. 32M), not '" +
                   c.max_game_size + "'";
        c.run.pipeline.max_game_size = *size;
    }
    if (vm.count("max-window")) {
        auto const size = parse_size(c.max_window);
        if (!size || *size < 1024 || *size > io::largest_max_window || (*size & (*size - 1)) != 0)
            return "--max-window takes a power of two from 1K to 2G (e.g. 128M), not '" +
                   c.max_window + "'";
        c.run.pipeline.max_window = *size;
    }
    int const level = c.run.plan.compress_level;
    if (vm.count("compress-level") && (level < 1 || level > 19))
        return "--compress-level must be between 1 and 19 (gzip and bzip2 1-9)";
    return "";
}

// The message quotes option values as typed: escaped, as every input byte that reaches the
// terminal is (report/terminal.hpp).
int usage_error(std::string const& message) {
    std::string line = "pgn-iccf: error: ";
    report::append_terminal_safe(line, message, report::no_cut);
    line += "\nTry 'pgn-iccf --help'.\n";
    std::fputs(line.c_str(), stderr);
    return 2;
}

} // namespace

int main(int argc, char** argv) {
    Cli cli;
    // The run is told which standard streams were closed (they now read or write /dev/null).
    auto const closed = io::guard_standard_streams();
    if (!closed) return 2;
    cli.run.pipeline.stdin_closed = closed->in;
    cli.run.plan.stdout_closed = closed->out;
    io::map_large_blocks_alone();
    Table table;
    describe(table, cli);
    po::variables_map vm;
    try {
        po::store(po::command_line_parser(argc, argv)
                      .options(table.all)
                      .positional(table.positional)
                      .run(),
                  vm);
        po::notify(vm);
    } catch (po::error const& e) {
        return usage_error(e.what());
    }
    if (vm.count("help")) {
        std::cout << usage_head << '\n'
                  << table.conv << '\n'
                  << table.files << '\n'
                  << "Languages: " << language_list() << '\n'
                  << usage_tail;
        return 0;
    }
    if (vm.count("version")) {
        std::cout << "pgn-iccf " << PGN_ICCF_VERSION << '\n';
        return 0;
    }
    if (std::string const e = settle(cli, vm); !e.empty()) return usage_error(e);
    cli.run.terminal = io::standard_error_is_terminal();
    cli.run.progress = cli.run.progress || cli.run.terminal;
    io::install_signal_cleanup();
    try {
        return batch::exit_status(batch::run(cli.run, stderr));
    } catch (std::exception const& e) {
        // Out of memory, or a library failing beyond repair: the outputs' temporaries are gone
        // (their owners unwound), nothing was renamed into place.
        std::fprintf(stderr, "pgn-iccf: error: %s\n", e.what());
        return 2;
    }
}
